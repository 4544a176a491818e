//===- BlockAssembler.cpp - Join the statements of a file's pieces --------===//

#include "BlockAssembler.h"

using namespace detc;
using namespace detc::frontend;
using namespace detc::ast;

BlockAssembler::BlockAssembler(ASTContext &ctx) : ctx(ctx) {
  blocks.emplace_back();
}

/// The block that `s` ends with and whose lines are one indentation level
/// deeper than `s` (null for a simple statement or a match, whose case
/// lines are not statements); the nodes that end with it go to `owners`.
static NodeList<Stmt> *
lastIndentedBlock(Stmt *s, llvm::SmallVectorImpl<Node *> &owners) {
  owners.push_back(s);
  if (auto *f = llvm::dyn_cast<FunctionDef>(s))
    return &f->body;
  if (auto *c = llvm::dyn_cast<ClassDef>(s))
    return &c->body;
  if (auto *w = llvm::dyn_cast<With>(s))
    return &w->body;
  if (auto *f = llvm::dyn_cast<For>(s))
    return f->orelse.empty() ? &f->body : &f->orelse;
  if (auto *w = llvm::dyn_cast<While>(s))
    return w->orelse.empty() ? &w->body : &w->orelse;
  if (auto *i = llvm::dyn_cast<If>(s)) {
    // An elif's block is as indented as its parent's.
    while (i->orelse.size() == 1 && llvm::isa<If>(i->orelse[0]) &&
           llvm::cast<If>(i->orelse[0])->isElif) {
      i = llvm::cast<If>(i->orelse[0]);
      owners.push_back(i);
    }
    return i->orelse.empty() ? &i->body : &i->orelse;
  }
  if (auto *t = llvm::dyn_cast<Try>(s)) {
    if (!t->finalbody.empty())
      return &t->finalbody;
    if (!t->orelse.empty())
      return &t->orelse;
    if (t->handlers.empty())
      return &t->body;
    owners.push_back(t->handlers.back());
    return &t->handlers.back()->body;
  }
  return nullptr;
}

bool BlockAssembler::open() {
  llvm::SmallVectorImpl<Stmt *> &outer = blocks.back().stmts;
  if (outer.empty())
    return false;
  OpenBlock block;
  block.field = lastIndentedBlock(outer.back(), block.owners);
  if (!block.field)
    return false;
  block.stmts.assign(block.field->begin(), block.field->end());
  blocks.push_back(std::move(block));
  return true;
}

void BlockAssembler::close() {
  OpenBlock &block = blocks.back();
  *block.field = ctx.copy(llvm::ArrayRef<Stmt *>(block.stmts));
  SourceEnd end = block.stmts.back()->getRange().end;
  for (Node *owner : block.owners)
    owner->setRange({owner->getRange().begin, end});
  blocks.pop_back();
}

llvm::SmallVectorImpl<Stmt *> *BlockAssembler::blockAt(unsigned depth) {
  while (blocks.size() > depth + 1)
    close();
  while (blocks.size() < depth + 1)
    if (!open())
      return nullptr;
  return &blocks.back().stmts;
}

llvm::ArrayRef<Stmt *> BlockAssembler::finish() {
  while (blocks.size() > 1)
    close();
  return blocks.front().stmts;
}
