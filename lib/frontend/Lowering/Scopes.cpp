//===- Scopes.cpp - Python name scopes for the lowering -------------------===//

#include "Scopes.h"

#include "detc/frontend/ASTDump.h"

using namespace detc;
using namespace detc::frontend;

llvm::SmallVector<llvm::StringRef>
detc::frontend::getParamNames(const ast::Arguments *args) {
  llvm::SmallVector<llvm::StringRef> names;
  if (!args)
    return names;
  for (const ast::Arg *a : args->posonlyargs)
    names.push_back(a->arg);
  for (const ast::Arg *a : args->args)
    names.push_back(a->arg);
  if (args->vararg)
    names.push_back(args->vararg->arg);
  for (const ast::Arg *a : args->kwonlyargs)
    names.push_back(a->arg);
  if (args->kwarg)
    names.push_back(args->kwarg->arg);
  return names;
}

namespace {
/// Collects the names a body binds, without entering nested scopes.
struct BindingCollector {
  Scope &scope;

  void bind(llvm::StringRef name) {
    if (!name.empty())
      scope.locals.insert(name);
  }

  void visit(const ast::Node *n) {
    using namespace ast;
    switch (n->getKind()) {
    case NodeKind::FunctionDef:
      bind(llvm::cast<FunctionDef>(n)->name);
      // Decorators, defaults and annotations run in this scope.
      for (const Expr *d : llvm::cast<FunctionDef>(n)->decoratorList)
        visit(d);
      return;
    case NodeKind::ClassDef:
      bind(llvm::cast<ClassDef>(n)->name);
      for (const Expr *b : llvm::cast<ClassDef>(n)->bases)
        visit(b);
      return;
    case NodeKind::Lambda:
      return;
    case NodeKind::Global:
      for (llvm::StringRef g : llvm::cast<Global>(n)->names)
        scope.globals.insert(g);
      return;
    case NodeKind::Nonlocal:
      for (llvm::StringRef g : llvm::cast<Nonlocal>(n)->names)
        scope.nonlocals.insert(g);
      return;
    case NodeKind::Name:
      if (llvm::cast<Name>(n)->ctx != ExprContext::Load)
        bind(llvm::cast<Name>(n)->id);
      return;
    case NodeKind::Alias: {
      auto *a = llvm::cast<Alias>(n);
      if (a->name == "*")
        return;
      bind(a->asname.empty() ? a->name.split('.').first : a->asname);
      return;
    }
    case NodeKind::ExceptHandler:
      bind(llvm::cast<ExceptHandler>(n)->name);
      break;
    case NodeKind::MatchAs:
      bind(llvm::cast<MatchAs>(n)->name);
      break;
    case NodeKind::MatchStar:
      bind(llvm::cast<MatchStar>(n)->name);
      break;
    case NodeKind::MatchMapping:
      bind(llvm::cast<MatchMapping>(n)->rest);
      break;
    default:
      break;
    }
    forEachChild(n, [&](llvm::StringRef, const Node *c) { visit(c); });
  }
};
} // namespace

Scope detc::frontend::computeFunctionScope(
    const ast::Arguments *args, llvm::ArrayRef<const ast::Node *> body) {
  Scope scope;
  for (llvm::StringRef p : getParamNames(args))
    scope.locals.insert(p);
  BindingCollector collector{scope};
  for (const ast::Node *s : body)
    collector.visit(s);
  for (const auto &g : scope.globals)
    scope.locals.erase(g.getKey());
  for (const auto &g : scope.nonlocals)
    scope.locals.erase(g.getKey());
  return scope;
}
