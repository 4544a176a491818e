//===- Diagnostics.h - Compiler-style diagnostics for Python sources ------===//

#ifndef DETC_FRONTEND_DIAGNOSTICS_H
#define DETC_FRONTEND_DIAGNOSTICS_H

#include "detc/frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace detc::frontend {

class SourceFile;

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  ast::SourcePos pos; ///< line 0 = no position (whole file).
  std::string message;
  std::string lineText; ///< Source line for the caret display, if any.
};

/// Collects diagnostics; prints them as `file:line:col: error: message`
/// followed by the source line and a caret (column is 1-based bytes, like
/// clang and gcc).
class DiagnosticEngine {
public:
  void report(Severity severity, const SourceFile *file, ast::SourcePos pos,
              std::string message);
  void error(const SourceFile *file, ast::SourcePos pos, std::string message) {
    report(Severity::Error, file, pos, std::move(message));
  }
  /// An error about a file with no usable position (e.g. unreadable).
  void fileError(llvm::StringRef file, std::string message);
  /// A diagnostic reported to another engine.
  void add(Diagnostic d) {
    if (d.severity == Severity::Error)
      ++numErrors;
    diags.push_back(std::move(d));
  }

  const std::vector<Diagnostic> &getDiagnostics() const { return diags; }
  bool hasErrors() const { return numErrors != 0; }
  unsigned getNumErrors() const { return numErrors; }
  /// Whether an error is detc's own ("internal error: ..."), not the
  /// input's: the tools exit with status 3 then, not 2.
  bool hasInternalErrors() const;
  /// Drops what was reported from index `start` on that repeats what was
  /// reported before it: a diagnostic with its notes, by file, severity
  /// and text, each earlier one standing for one repeat (the JIT transform
  /// lowers the script a second time, with its minibatch boundary, and the
  /// lowering says again what it said the first time).
  void dropRepeatsSince(size_t start);
  void clear() {
    diags.clear();
    numErrors = 0;
  }

  static void print(llvm::raw_ostream &os, const Diagnostic &d);
  void printAll(llvm::raw_ostream &os) const;

private:
  std::vector<Diagnostic> diags;
  unsigned numErrors = 0;
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_DIAGNOSTICS_H
