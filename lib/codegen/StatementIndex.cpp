//===- StatementIndex.cpp - Where each statement of a script sits ---------===//

#include "StatementIndex.h"

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
    forEachBody(s, [&](ast::NodeList<ast::Stmt> b) {
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

void StatementIndex::forEachBody(
    const ast::Stmt *s, function_ref<void(ast::NodeList<ast::Stmt>)> f) {
  if (auto *x = dyn_cast<ast::For>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = dyn_cast<ast::While>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = dyn_cast<ast::If>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = dyn_cast<ast::With>(s)) {
    f(x->body);
  } else if (auto *x = dyn_cast<ast::Try>(s)) {
    f(x->body);
    for (const ast::ExceptHandler *h : x->handlers)
      f(h->body);
    f(x->orelse);
    f(x->finalbody);
  } else if (auto *x = dyn_cast<ast::FunctionDef>(s)) {
    f(x->body);
  } else if (auto *x = dyn_cast<ast::ClassDef>(s)) {
    f(x->body);
  }
}

} // namespace detc::codegen
