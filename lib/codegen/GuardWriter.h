//===- GuardWriter.h - Skipping statements at run time ----------*- C++ -*-===//
//
// Both resume mechanisms skip statements of the training loops for a while
// after start: replay's fast-forward skips the work it need not redo, a
// hint restart skips the statements before the hint on its way in. Each
// skipped statement gets a guard on its own line; a compound statement
// skipped whole gets its header guarded (`if`/`while` tests, `for`
// iterables), so its `else` parts are skipped too. The planners differ
// only in the runtime calls the guards make (GuardSyntax); both may guard a
// statement (PlanContext::guardStatement merges them).
//
// Edits are collected and applied at the end: a planner may still find a
// reason not to instrument at all (`problems`).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_GUARDWRITER_H
#define DETC_LIB_CODEGEN_GUARDWRITER_H

#include "PlanContext.h"

#include <functional>

namespace detc::codegen {

struct GuardSyntax {
  std::string simple; ///< A simple statement runs when: `rt.guard()`.
  std::string test;   ///< Before an `if`/`while` test: `rt.guard() and (`.
  /// Around a `for` iterable: `(` and `) if rt.guard() else ()`. The
  /// iterable is not evaluated while skipped: it may read what skipped
  /// statements would have assigned (`last_layer.named_parameters()`).
  std::string iter;
  std::string iterEnd;
  std::string note; ///< The `# detc:` note on guarded lines.
};

class GuardWriter {
public:
  GuardWriter(PlanContext &ctx, GuardSyntax syntax)
      : ctx(ctx), syntax(std::move(syntax)) {}

  /// `s` (a simple statement) is skipped.
  void guardSimple(const ast::Stmt *s);
  /// `s` and everything in it is skipped.
  void skipWhole(const ast::Stmt *s);
  void skipAll(ast::NodeList<ast::Stmt> body);

  /// Whether `s` is skipped: guarded itself, or inside a statement skipped
  /// whole (a guarded `if` test, `for` iterable).
  bool skips(const StatementIndex &places, const ast::Stmt *s) const;

  /// Wraps `n`'s source in `prefix`/`suffix` when the edits are applied.
  void wrapLater(const ast::Node *n, std::string prefix, std::string suffix,
                 std::string note);
  /// The same for bytes [b, e) (a span longer than a node's nests outside
  /// every wrap of that node, made before or after).
  void wrapLater(uint32_t b, uint32_t e, std::string prefix,
                 std::string suffix, std::string note);
  void problem(const ast::Node *at, const llvm::Twine &message);
  /// Whether only blanks or a comment follow byte `end` on its line.
  bool endsLine(uint32_t end) const;

  const std::vector<std::pair<uint32_t, std::string>> &getProblems() const {
    return problems;
  }
  void apply();

private:
  PlanContext &ctx;
  GuardSyntax syntax;
  std::vector<std::pair<uint32_t, std::string>> problems;
  std::vector<std::function<void()>> pending;
  /// What guardSimple guarded and skipWhole skipped with its header.
  llvm::DenseSet<const ast::Stmt *> skipped;
};

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_GUARDWRITER_H
