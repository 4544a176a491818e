//===- FunctionScope.h - The names a Python scope binds ---------*- C++ -*-===//
//
// Vaccination (VaccinePlan.cpp) moves a function's statements into nested
// cell functions that share the function's variables through `nonlocal`
// declarations; for that it needs the names the function binds exactly as
// CPython's symbol table sees them: parameters, assignment, `for`, `with`,
// `except`, import and `def`/`class` targets, walrus targets (also inside
// comprehensions), match captures, and the names declared `global` or
// `nonlocal`. Nested defs, lambdas, classes and comprehensions are scopes
// of their own and are not entered (their defaults and decorators are).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_FUNCTIONSCOPE_H
#define DETC_LIB_CODEGEN_FUNCTIONSCOPE_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringRef.h"

namespace detc::codegen {

struct FunctionScope {
  /// Parameters, in order.
  llvm::SmallVector<llvm::StringRef> params;
  /// Other names bound in the scope (not global/nonlocal), first binding
  /// first.
  llvm::SetVector<llvm::StringRef> locals;
  llvm::SetVector<llvm::StringRef> globals, nonlocals;
  /// A `yield`, `yield from` or `await` in the scope itself: a generator
  /// or coroutine, whose frame cannot be split into cells.
  const ast::Node *suspends = nullptr;
};

/// The names `fn`'s body binds (the module's top level when `fn` is null:
/// then every bound name is in `locals`).
FunctionScope scopeOf(const ast::FunctionDef *fn, const ast::Module &tree);

/// Whether statement `s` itself (not the statements in its body) binds
/// `name`: an assignment's or a `for`'s target, `with ... as`, `except
/// ... as`, a `def` or `class`, a walrus; an import is taken to bind any
/// name (what `from m import *` binds is not written there).
bool statementBinds(const ast::Stmt *s, llvm::StringRef name);

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_FUNCTIONSCOPE_H
