//===- FunctionScope.cpp - The names a Python scope binds -----------------===//

#include "FunctionScope.h"

#include "detc/frontend/ASTDump.h"

using namespace llvm;

namespace detc::codegen {

namespace {
/// Walks one scope with an explicit stack (deep expressions do not
/// overflow the C++ stack).
class ScopeWalker {
public:
  explicit ScopeWalker(FunctionScope &scope) : scope(scope) {}

  void walk(ast::NodeList<ast::Stmt> body) {
    for (auto it = body.rbegin(); it != body.rend(); ++it)
      work.push_back(*it);
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      visit(n);
    }
  }

private:
  void bind(StringRef name) {
    if (!name.empty())
      bound.insert(name);
  }
  void push(const ast::Node *n) {
    if (n)
      work.push_back(n);
  }
  void pushAll(ast::NodeList<ast::Expr> list) {
    for (const ast::Expr *e : list)
      push(e);
  }
  void pushDefaults(const ast::Arguments *args) {
    if (!args)
      return;
    pushAll(args->defaults);
    pushAll(args->kwDefaults);
  }

  void visit(const ast::Node *n) {
    if (auto *f = dyn_cast<ast::FunctionDef>(n)) {
      bind(f->name);
      pushAll(f->decoratorList);
      pushDefaults(f->args);
      return;
    }
    if (auto *c = dyn_cast<ast::ClassDef>(n)) {
      bind(c->name);
      pushAll(c->decoratorList);
      pushAll(c->bases);
      for (const ast::Keyword *k : c->keywords)
        push(k->value);
      return;
    }
    if (auto *l = dyn_cast<ast::Lambda>(n)) {
      pushDefaults(l->args);
      return;
    }
    if (auto *c = dyn_cast<ast::Comprehension>(n)) {
      // The target binds in the comprehension's scope; a walrus in the
      // condition or the iterable binds here.
      push(c->iter);
      pushAll(c->ifs);
      return;
    }
    if (isa<ast::Yield, ast::YieldFrom, ast::Await>(n) && !scope.suspends)
      scope.suspends = n;
    if (auto *g = dyn_cast<ast::Global>(n)) {
      for (StringRef name : g->names)
        scope.globals.insert(name);
      return;
    }
    if (auto *g = dyn_cast<ast::Nonlocal>(n)) {
      for (StringRef name : g->names)
        scope.nonlocals.insert(name);
      return;
    }
    if (auto *name = dyn_cast<ast::Name>(n)) {
      if (name->ctx != ast::ExprContext::Load)
        bind(name->id);
      return;
    }
    if (auto *i = dyn_cast<ast::Import>(n)) {
      for (const ast::Alias *a : i->names)
        bind(a->asname.empty() ? a->name.split('.').first : a->asname);
      return;
    }
    if (auto *i = dyn_cast<ast::ImportFrom>(n)) {
      for (const ast::Alias *a : i->names)
        if (a->name != "*")
          bind(a->asname.empty() ? a->name : a->asname);
      return;
    }
    if (auto *h = dyn_cast<ast::ExceptHandler>(n))
      bind(h->name);
    else if (auto *m = dyn_cast<ast::MatchAs>(n))
      bind(m->name);
    else if (auto *m = dyn_cast<ast::MatchStar>(n))
      bind(m->name);
    else if (auto *m = dyn_cast<ast::MatchMapping>(n))
      bind(m->rest);
    size_t first = work.size();
    ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
      push(child);
    });
    std::reverse(work.begin() + first, work.end()); // source order
  }

  FunctionScope &scope;
  std::vector<const ast::Node *> work;

public:
  SetVector<StringRef> bound;
};
} // namespace

FunctionScope scopeOf(const ast::FunctionDef *fn, const ast::Module &tree) {
  FunctionScope scope;
  ScopeWalker walker(scope);
  if (fn && fn->args) {
    const ast::Arguments *a = fn->args;
    for (const ast::Arg *p : a->posonlyargs)
      scope.params.push_back(p->arg);
    for (const ast::Arg *p : a->args)
      scope.params.push_back(p->arg);
    if (a->vararg)
      scope.params.push_back(a->vararg->arg);
    for (const ast::Arg *p : a->kwonlyargs)
      scope.params.push_back(p->arg);
    if (a->kwarg)
      scope.params.push_back(a->kwarg->arg);
  }
  walker.walk(fn ? fn->body : tree.body);
  for (StringRef name : walker.bound)
    if (!scope.globals.contains(name) && !scope.nonlocals.contains(name) &&
        !llvm::is_contained(scope.params, name))
      scope.locals.insert(name);
  return scope;
}

bool statementBinds(const ast::Stmt *s, StringRef name) {
  if (auto *d = dyn_cast<ast::FunctionDef>(s))
    return d->name == name;
  if (auto *c = dyn_cast<ast::ClassDef>(s))
    return c->name == name;
  if (isa<ast::Import, ast::ImportFrom>(s))
    return true;
  std::vector<const ast::Node *> work{s};
  while (!work.empty()) {
    const ast::Node *n = work.back();
    work.pop_back();
    if (auto *x = dyn_cast<ast::Name>(n);
        x && x->id == name && x->ctx != ast::ExprContext::Load)
      return true;
    if (auto *h = dyn_cast<ast::ExceptHandler>(n); h && h->name == name)
      return true;
    if (isa<ast::Lambda>(n))
      continue; // its parameters are its own
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
      if (!isa<ast::Stmt>(c))
        work.push_back(c);
    });
  }
  return false;
}

} // namespace detc::codegen
