//===- StatementIndex.cpp - Where each statement of a script sits ---------===//

#include "StatementIndex.h"

#include "detc/frontend/ASTDump.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace detc::codegen {

StatementIndex::StatementIndex(const ast::Module &tree) {
  index(tree.body, nullptr, nullptr);
}

void StatementIndex::index(ast::NodeList<ast::Stmt> body,
                           const ast::Stmt *parent,
                           const ast::FunctionDef *fn) {
  for (const ast::Stmt *s : body) {
    places[s->getRange().begin.offset] = {s, parent, fn};
    ast::forEachBody(s, [&](ast::NodeList<ast::Stmt> b) {
      auto *def = dyn_cast<ast::FunctionDef>(s);
      index(b, s, def ? def : fn);
    });
  }
}

const StmtPlace *StatementIndex::at(uint32_t offset) const {
  auto it = places.find(offset);
  return it == places.end() ? nullptr : &it->second;
}

std::vector<const ast::Stmt *>
StatementIndex::statementsIn(const ast::FunctionDef *fn) const {
  std::vector<const ast::Stmt *> stmts;
  for (auto &[offset, place] : places)
    if (place.function == fn && place.stmt != fn)
      stmts.push_back(place.stmt);
  llvm::sort(stmts, [](const ast::Stmt *x, const ast::Stmt *y) {
    return x->getRange().begin.offset < y->getRange().begin.offset;
  });
  return stmts;
}

static void namesAssigned(const ast::Expr *target,
                          std::vector<StringRef> &out) {
  if (auto *n = dyn_cast<ast::Name>(target)) {
    if (!is_contained(out, n->id))
      out.push_back(n->id);
  } else if (auto *seq = dyn_cast<ast::Sequence>(target)) {
    for (const ast::Expr *e : seq->elts)
      namesAssigned(e, out);
  } else if (auto *star = dyn_cast<ast::Starred>(target)) {
    namesAssigned(star->value, out);
  }
}

std::vector<StringRef> StatementIndex::loopVariables(uint32_t offset) const {
  std::vector<const ast::For *> loops;
  const StmtPlace *place = at(offset);
  for (const ast::Stmt *p = place ? place->parent : nullptr;
       p && !isa<ast::FunctionDef>(p); p = of(p)->parent)
    if (auto *f = dyn_cast<ast::For>(p))
      loops.push_back(f);
  std::vector<StringRef> names;
  for (const ast::For *f : llvm::reverse(loops))
    namesAssigned(f->target, names);
  return names;
}

std::vector<const ast::FunctionDef *> StatementIndex::functions() const {
  std::vector<const ast::FunctionDef *> defs;
  for (auto &[offset, place] : places)
    if (auto *def = dyn_cast<ast::FunctionDef>(place.stmt))
      defs.push_back(def);
  llvm::sort(defs, [](const ast::FunctionDef *x, const ast::FunctionDef *y) {
    return x->getRange().begin.offset < y->getRange().begin.offset;
  });
  return defs;
}

} // namespace detc::codegen
