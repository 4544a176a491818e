//===- GuardWriter.cpp - Skipping statements at run time ------------------===//

#include "GuardWriter.h"
#include "StatementIndex.h"
#include "detc/frontend/ASTDump.h"

using namespace llvm;

namespace detc::codegen {

bool GuardWriter::endsLine(uint32_t end) const {
  StringRef src = ctx.src;
  size_t next = src.find_first_not_of(" \t", end);
  return next == StringRef::npos || src[next] == '\n' || src[next] == '\r' ||
         src[next] == '#';
}

void GuardWriter::problem(const ast::Node *at, const Twine &message) {
  problems.push_back({at->getRange().begin.offset, message.str()});
}

void GuardWriter::wrapLater(const ast::Node *n, std::string prefix,
                            std::string suffix, std::string note) {
  wrapLater(n->getRange().begin.offset, n->getRange().end.offset,
            std::move(prefix), std::move(suffix), std::move(note));
}

void GuardWriter::wrapLater(uint32_t b, uint32_t e, std::string prefix,
                            std::string suffix, std::string note) {
  pending.push_back([this, b, e, prefix, suffix, note] {
    ctx.edits.wrap(b, e, prefix, suffix);
    ctx.edits.note(ctx.edits.lineOf(b), note);
  });
}

void GuardWriter::guardSimple(const ast::Stmt *s) {
  if (isa<ast::Pass, ast::Global, ast::Nonlocal, ast::FunctionDef,
          ast::ClassDef>(s))
    return;
  // A bare annotation (`_iterations: 20`) does nothing at run time; a
  // constant (a docstring) neither, and guarding it would unset __doc__.
  if (auto *a = dyn_cast<ast::AnnAssign>(s); a && !a->value)
    return;
  if (auto *e = dyn_cast<ast::ExprStmt>(s); e && isa<ast::Constant>(e->value))
    return;
  if (!ctx.indentAt(s->getRange().begin.offset) ||
      !endsLine(s->getRange().end.offset)) {
    ctx.needOwnLine(s->getRange().begin.offset);
    problem(s, "a statement detc must skip shares its line with another "
               "statement");
    return;
  }
  skipped.insert(s);
  uint32_t b = s->getRange().begin.offset, e = s->getRange().end.offset;
  pending.push_back([this, b, e] {
    ctx.guardStatement(b, e, syntax.simple, syntax.note);
  });
}

void GuardWriter::skipAll(ast::NodeList<ast::Stmt> body) {
  for (const ast::Stmt *s : body)
    skipWhole(s);
}

bool GuardWriter::skips(const StatementIndex &places,
                        const ast::Stmt *s) const {
  for (; s; s = places.of(s) ? places.of(s)->parent : nullptr)
    if (skipped.contains(s))
      return true;
  return false;
}

void GuardWriter::skipWhole(const ast::Stmt *s) {
  if (isa<ast::If, ast::While, ast::For>(s))
    skipped.insert(s);
  if (auto *x = dyn_cast<ast::If>(s)) {
    wrapLater(x->test, syntax.test, ")", syntax.note);
    skipAll(x->orelse);
  } else if (auto *x = dyn_cast<ast::While>(s)) {
    wrapLater(x->test, syntax.test, ")", syntax.note);
    skipAll(x->orelse);
  } else if (auto *x = dyn_cast<ast::For>(s)) {
    wrapLater(x->iter, syntax.iter, syntax.iterEnd, syntax.note);
    skipAll(x->orelse);
  } else if (isa<ast::With, ast::Try>(s)) {
    // No header to guard: every statement inside is skipped.
    ast::forEachBody(
        s, [&](ast::NodeList<ast::Stmt> body) { skipAll(body); });
  } else if (isa<ast::Match>(s)) {
    problem(s, "a `match` statement detc must skip");
  } else {
    guardSimple(s);
  }
}

void GuardWriter::apply() {
  for (auto &edit : pending)
    edit();
  pending.clear();
}

} // namespace detc::codegen
