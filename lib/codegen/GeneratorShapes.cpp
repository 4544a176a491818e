//===- GeneratorShapes.cpp - What a generator does with its input ---------===//

#include "detc/codegen/GeneratorShapes.h"

#include "detc/frontend/ASTDump.h"

#include <functional>

using namespace llvm;

namespace detc::codegen {

std::optional<StringRef> passedThroughParameter(const ast::FunctionDef &def) {
  // Yields anywhere in the function (not in functions, classes or lambdas
  // it defines), and whether `break`/`return` may end the items' loop.
  unsigned yields = 0;
  bool leaves = false;
  std::function<void(const ast::Node *, bool)> scan = [&](const ast::Node *n,
                                                           bool inLoop) {
    yields += isa<ast::Yield, ast::YieldFrom>(n);
    leaves |= inLoop && isa<ast::Break, ast::Return>(n);
    if (isa<ast::FunctionDef, ast::ClassDef, ast::Lambda>(n) && n != &def)
      return;
    // A break of a loop nested in the items' loop ends that loop only.
    bool nested = inLoop && isa<ast::For, ast::While>(n);
    ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
      if (child)
        scan(child, inLoop && !nested);
    });
  };
  scan(&def, false);
  if (yields != 1)
    return std::nullopt;
  for (const ast::Stmt *s : def.body) {
    auto *loop = dyn_cast<ast::For>(s);
    auto *param = loop ? dyn_cast<ast::Name>(loop->iter) : nullptr;
    auto *item = loop ? dyn_cast<ast::Name>(loop->target) : nullptr;
    if (!param || !item || !loop->orelse.empty() ||
        !llvm::any_of(def.args->args, [&](const ast::Arg *a) {
          return a->arg == param->id;
        }))
      continue;
    bool yieldsItem = false;
    for (const ast::Stmt *b : loop->body) {
      auto *e = dyn_cast<ast::ExprStmt>(b);
      auto *y = e ? dyn_cast_or_null<ast::Yield>(e->value) : nullptr;
      auto *name = y ? dyn_cast_or_null<ast::Name>(y->value) : nullptr;
      if (name && name->id == item->id) {
        yieldsItem = true;
        break;
      }
      SmallVector<StringRef, 4> bound;
      if (auto *a = dyn_cast<ast::Assign>(b))
        for (const ast::Expr *t : a->targets)
          ast::appendBoundNames(t, bound);
      else if (auto *a = dyn_cast<ast::AugAssign>(b))
        ast::appendBoundNames(a->target, bound);
      if (is_contained(bound, item->id))
        break;
    }
    leaves = false;
    for (const ast::Stmt *b : loop->body)
      scan(b, true);
    if (yieldsItem && !leaves)
      return param->id;
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace detc::codegen
