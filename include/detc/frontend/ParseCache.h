//===- ParseCache.h - Source files parsed once per run ----------*- C++ -*-===//
//
// The points-to analysis, the lowering and the transform all read the
// script and its local modules. Parsing is the most expensive step of the
// front end (ANTLR), so each file is loaded and parsed once, and they share
// the AST: an `ast::Expr *` of one is an expression of the others.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_PARSECACHE_H
#define DETC_FRONTEND_PARSECACHE_H

#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace detc::frontend {

class ParseCache {
public:
  /// Files using syntax newer than `target` fail to parse, with an error
  /// naming the version they need (checkTargetVersion).
  explicit ParseCache(PythonVersion target = kNewestPythonVersion)
      : target(target) {}

  struct Entry {
    std::unique_ptr<SourceFile> file;
    std::unique_ptr<ParsedModule> parsed; ///< Null after an error.
    /// What loading and parsing reported (errors: the parser reports no
    /// warnings), given to every requester: each may be the first to need
    /// the file.
    std::vector<Diagnostic> diagnostics;
    /// The engines already given them (a second request from the same one
    /// adds nothing).
    std::vector<const DiagnosticEngine *> told;
  };

  /// The file at `path` (the same file under another spelling is the same
  /// entry), loaded and parsed on first use; its diagnostics are added to
  /// each engine that requests it, once. Entries live as long as the cache.
  const Entry &get(llvm::StringRef path, DiagnosticEngine &diags);

  /// Makes `bytes` the contents of `path` for this cache (a version of the
  /// file the transform made, such as the script with the JIT boundary);
  /// replaces an entry already there.
  const Entry &put(llvm::StringRef path, llvm::StringRef bytes,
                   DiagnosticEngine &diags);

  /// The real paths of the files read so far (the script and the modules
  /// it imports): what an output must never overwrite.
  std::vector<std::string> files() const;

private:
  /// Gives `diags` the entry's diagnostics (once per engine).
  const Entry &tell(Entry &e, DiagnosticEngine &diags);
  /// Parses the entry's file and applies the target version.
  void parse(Entry &e, DiagnosticEngine &local);
  llvm::StringMap<std::unique_ptr<Entry>> entries;
  PythonVersion target;
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_PARSECACHE_H
