//===- StatementIndex.h - Where each statement of a script sits -*- C++ -*-===//
//
// The rewrite planners map IR ops back to statements by their begin offset
// and walk outwards (enclosing loops, the function a statement is in). The
// AST has no parent links; this index adds them.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_STATEMENTINDEX_H
#define DETC_LIB_CODEGEN_STATEMENTINDEX_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace detc::codegen {

struct StmtPlace {
  const ast::Stmt *stmt;
  const ast::Stmt *parent;          ///< Enclosing statement, or null.
  const ast::FunctionDef *function; ///< Enclosing def, or null.
};

class StatementIndex {
public:
  explicit StatementIndex(const ast::Module &tree);

  /// The statement beginning at byte `offset`, or null.
  const StmtPlace *at(uint32_t offset) const;
  const StmtPlace *of(const ast::Stmt *s) const {
    return at(s->getRange().begin.offset);
  }
  /// The statements of `fn`'s body, nested ones too (not those of nested
  /// defs); of the module's top level when `fn` is null. In source order.
  std::vector<const ast::Stmt *> statementsIn(const ast::FunctionDef *fn) const;
  /// The names the `for` loops around the statement at byte `offset` in
  /// its function assign (`epoch` of `for epoch in range(...)`, `i` and
  /// `x` of `for i, x in enumerate(...)`), outermost first.
  std::vector<llvm::StringRef> loopVariables(uint32_t offset) const;
  /// Every `def`, in source order.
  std::vector<const ast::FunctionDef *> functions() const;

private:
  void index(ast::NodeList<ast::Stmt> body, const ast::Stmt *parent,
             const ast::FunctionDef *fn);

  llvm::DenseMap<uint32_t, StmtPlace> places;
};

/// Whether `inner`'s source lies within `outer`'s.
inline bool encloses(const ast::Node *outer, const ast::Node *inner) {
  return outer->getRange().begin.offset <= inner->getRange().begin.offset &&
         inner->getRange().end.offset <= outer->getRange().end.offset;
}

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_STATEMENTINDEX_H
