//===- Scopes.h - Python name scopes for the lowering -----------*- C++ -*-===//
//
// Which names of a function body are its locals, which are declared global or
// nonlocal (Python's rules: a name assigned anywhere in the body is local
// unless declared otherwise; comprehension and lambda bodies are their own
// scopes, but we fold comprehension targets into the enclosing function).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_SCOPES_H
#define DETC_LIB_FRONTEND_LOWERING_SCOPES_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/StringSet.h"

namespace detc::frontend {

struct Scope {
  llvm::StringSet<> locals;
  llvm::StringSet<> globals;
  llvm::StringSet<> nonlocals;
};

/// The scope of a function (or lambda) with parameters `args` and body.
Scope computeFunctionScope(const ast::Arguments *args,
                           llvm::ArrayRef<const ast::Node *> body);

/// Every parameter name of `args` in declaration order.
llvm::SmallVector<llvm::StringRef> getParamNames(const ast::Arguments *args);

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_SCOPES_H
