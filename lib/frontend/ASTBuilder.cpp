//===- ASTBuilder.cpp - Statements and expressions ------------------------===//

#include "ASTBuilder.h"
#include "Identifiers.h"

#include <algorithm>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ConvertUTF.h"

using namespace antlr4;
using namespace detc::ast;
using llvm::SmallVector;

namespace detc::frontend {

// ---- Positions and helpers ---------------------------------------------------

SourcePos ASTBuilder::startOf(Token *tok) const {
  return file.getPos(cpBase + tok->getStartIndex(),
                     nestedRun ? 0 : static_cast<unsigned>(tok->getLine()));
}

SourcePos ASTBuilder::endOf(Token *tok) const {
  // Synthetic tokens (NEWLINE/DEDENT at EOF) have stop < start.
  size_t stop = tok->getStopIndex() + 1;
  if (tok->getStopIndex() == static_cast<size_t>(-1) ||
      stop < tok->getStartIndex())
    stop = tok->getStartIndex();
  bool sameLine = !nestedRun && tok->getType() != PythonLexer::STRING;
  return file.getPos(cpBase + stop,
                     sameLine ? static_cast<unsigned>(tok->getLine()) : 0);
}

llvm::StringRef ASTBuilder::text(Token *tok) {
  llvm::StringRef raw = tokenText(tok);
  // PEP 3131: CPython reads a non-ASCII identifier in NFKC (`ｗｉｄｔｈ` is
  // `width`, `µ` is `μ`).
  if (tok->getType() == PythonLexer::NAME &&
      llvm::any_of(raw, [](char c) { return c & 0x80; })) {
    std::string normal;
    if (normalizeIdentifier(raw, normal) && normal != raw)
      return ctx.save(normal);
  }
  return raw;
}

llvm::StringRef ASTBuilder::tokenText(Token *tok) {
  const std::u32string &cps = file.getCodePoints();
  size_t begin = cpBase + tok->getStartIndex();
  size_t end = cpBase + tok->getStopIndex() + 1;
  // A token of a UTF-8 file is its bytes, which the file keeps: no copy
  // (names, numbers and strings were a tenth of the AST). Not where the
  // decoded text differs: a lone '\r' is '\n' there.
  if (file.bytesAreUtf8()) {
    llvm::StringRef bytes = file.getBytes().slice(file.getByteOffset(begin),
                                                  file.getByteOffset(end));
    if (!bytes.contains('\r'))
      return bytes;
  }
  scratch.clear();
  for (size_t i = begin; i < end; ++i) {
    char32_t c = cps[i];
    if (c < 0x80) {
      scratch.push_back(static_cast<char>(c));
      continue;
    }
    char buf[4];
    char *p = buf;
    llvm::ConvertCodePointToUTF8(c, p);
    scratch.append(buf, p);
  }
  return ctx.save(scratch);
}

std::vector<NewerSyntax> ASTBuilder::takeNewerSyntax() {
  std::stable_sort(newer.begin(), newer.end(),
                   [](const NewerSyntax &a, const NewerSyntax &b) {
                     return a.pos.offset < b.pos.offset;
                   });
  return std::move(newer);
}

void ASTBuilder::error(SourcePos pos, const std::string &message) {
  if (!failed)
    diags.error(&file, pos, message);
  failed = true;
}

template <typename T> static T *as(tree::ParseTree *t) {
  return dynamic_cast<T *>(t);
}

// ---- Module and statements ---------------------------------------------------

void ASTBuilder::appendStatements(PythonParser::FileInputContext *tree,
                                  size_t base,
                                  llvm::SmallVectorImpl<Stmt *> &body) {
  cpBase = base;
  for (P::StmtContext *s : tree->stmt())
    stmt(s, body);
  cpBase = 0;
}

Module *ASTBuilder::finishModule(llvm::ArrayRef<Stmt *> body) {
  Module *m = ctx.create<Module>();
  m->body = list<Stmt>(body);
  SourcePos end = file.getPos(file.getCodePoints().size());
  m->setRange({file.getPos(0, 1), end});
  return failed ? nullptr : m;
}

void ASTBuilder::stmt(P::StmtContext *c, llvm::SmallVectorImpl<Stmt *> &out) {
  if (auto *simple = c->simpleStmts()) {
    for (P::SimpleStmtContext *s : simple->simpleStmt())
      if (Stmt *st = simpleStmt(s))
        out.push_back(st);
    return;
  }
  if (Stmt *st = compoundStmt(c->compoundStmt()))
    out.push_back(st);
}

NodeList<Stmt> ASTBuilder::block(P::BlockContext *c) {
  SmallVector<Stmt *, 16> body;
  if (auto *simple = c->simpleStmts()) {
    for (P::SimpleStmtContext *s : simple->simpleStmt())
      if (Stmt *st = simpleStmt(s))
        body.push_back(st);
  } else {
    for (P::StmtContext *s : c->stmt())
      stmt(s, body);
  }
  if (body.empty()) {
    // Only reachable after an error in a nested statement; keep the tree
    // well-formed (every body non-empty) for the rest of the build.
    body.push_back(make<Pass>(rangeOf(c)));
  }
  return list<Stmt>(body);
}

Stmt *ASTBuilder::simpleStmt(P::SimpleStmtContext *c) {
  SourceRange r = rangeOf(c);
  if (auto *e = c->exprStmt())
    return exprStmt(e);
  if (auto *d = c->delStmt()) {
    SmallVector<Expr *, 4> targets;
    Expr *all = exprlist(d->exprlist(), &targets);
    (void)all;
    for (Expr *t : targets)
      setTarget(t, TargetUse::Delete);
    auto *del = make<Delete>(r);
    del->targets = list<Expr>(targets);
    return del;
  }
  if (c->passStmt())
    return make<Pass>(r);
  if (auto *f = c->flowStmt())
    return flowStmt(f);
  if (auto *i = c->importStmt())
    return importStmt(i);
  if (auto *g = c->globalStmt()) {
    SmallVector<llvm::StringRef, 4> names;
    for (P::NameContext *n : g->name())
      names.push_back(text(n->getStart()));
    auto *s = make<Global>(r);
    s->names = ctx.copy<llvm::StringRef>(names);
    return s;
  }
  if (auto *nl = c->nonlocalStmt()) {
    SmallVector<llvm::StringRef, 4> names;
    for (P::NameContext *n : nl->name())
      names.push_back(text(n->getStart()));
    auto *s = make<Nonlocal>(r);
    s->names = ctx.copy<llvm::StringRef>(names);
    return s;
  }
  if (auto *t = c->typeAlias())
    return typeAlias(t);
  auto *a = c->assertStmt();
  auto *s = make<Assert>(r);
  s->test = test(a->test(0));
  if (a->test().size() > 1)
    s->msg = test(a->test(1));
  return s;
}

static BinOpKind augOpKind(size_t type) {
  switch (type) {
  case PythonLexer::PLUS_ASSIGN: return BinOpKind::Add;
  case PythonLexer::MINUS_ASSIGN: return BinOpKind::Sub;
  case PythonLexer::STAR_ASSIGN: return BinOpKind::Mult;
  case PythonLexer::AT_ASSIGN: return BinOpKind::MatMult;
  case PythonLexer::SLASH_ASSIGN: return BinOpKind::Div;
  case PythonLexer::PERCENT_ASSIGN: return BinOpKind::Mod;
  case PythonLexer::AMPER_ASSIGN: return BinOpKind::BitAnd;
  case PythonLexer::VBAR_ASSIGN: return BinOpKind::BitOr;
  case PythonLexer::CARET_ASSIGN: return BinOpKind::BitXor;
  case PythonLexer::LSHIFT_ASSIGN: return BinOpKind::LShift;
  case PythonLexer::RSHIFT_ASSIGN: return BinOpKind::RShift;
  case PythonLexer::POWER_ASSIGN: return BinOpKind::Pow;
  default: return BinOpKind::FloorDiv;
  }
}

Stmt *ASTBuilder::exprStmt(P::ExprStmtContext *c) {
  SourceRange r = rangeOf(c);
  Expr *first = testlistStarExpr(c->testlistStarExpr(0));

  if (auto *ann = c->annAssign()) {
    auto *s = make<AnnAssign>(r);
    s->target = first;
    if (auto *seq = llvm::dyn_cast<Sequence>(first)) {
      error(first, std::string("only single target (not ") +
                       (llvm::isa<Tuple>(seq) && !first->parenthesized &&
                                !seq->elts.empty()
                            ? "tuple"
                        : llvm::isa<Tuple>(seq) ? "tuple"
                                                : "list") +
                       ") can be annotated");
    } else if (!llvm::isa<Name, Attribute, Subscript>(first)) {
      error(first, std::string("illegal target for annotation"));
    } else {
      setTarget(first, TargetUse::Assign);
    }
    s->simple = llvm::isa<Name>(first) && !first->parenthesized;
    s->annotation = test(ann->test());
    if (auto *y = ann->yieldExpr())
      s->value = yieldExpr(y);
    else if (auto *t = ann->testlistStarExpr())
      s->value = testlistStarExpr(t);
    return s;
  }

  if (auto *op = c->augAssignOp()) {
    auto *s = make<AugAssign>(r);
    s->target = first;
    if (!llvm::isa<Name, Attribute, Subscript>(first))
      error(first, std::string("'") + describe(first) +
                       "' is an illegal expression for augmented assignment");
    else
      setTarget(first, TargetUse::AugAssign);
    s->op = augOpKind(op->getStart()->getType());
    if (auto *y = c->yieldExpr(0))
      s->value = yieldExpr(y);
    else
      s->value = testlistStarExpr(c->testlistStarExpr(1));
    return s;
  }

  // Plain expression or a chain of assignments: every part but the last is a
  // target.
  SmallVector<Expr *, 4> parts{first};
  for (size_t i = 1; i < c->children.size(); ++i) {
    tree::ParseTree *child = c->children[i];
    if (auto *y = as<P::YieldExprContext>(child))
      parts.push_back(yieldExpr(y));
    else if (auto *t = as<P::TestlistStarExprContext>(child))
      parts.push_back(testlistStarExpr(t));
  }
  if (parts.size() == 1) {
    auto *s = make<ExprStmt>(r);
    s->value = first;
    return s;
  }
  auto *s = make<Assign>(r);
  for (size_t i = 0; i + 1 < parts.size(); ++i)
    setTarget(parts[i], TargetUse::Assign);
  s->targets = list<Expr>(llvm::ArrayRef<Expr *>(parts).drop_back());
  s->value = parts.back();
  return s;
}

Stmt *ASTBuilder::flowStmt(P::FlowStmtContext *c) {
  SourceRange r = rangeOf(c);
  if (as<P::BreakStmtContext>(c))
    return make<Break>(r);
  if (as<P::ContinueStmtContext>(c))
    return make<Continue>(r);
  if (auto *ret = as<P::ReturnStmtContext>(c)) {
    auto *s = make<Return>(r);
    if (auto *v = ret->testlistStarExpr())
      s->value = testlistStarExpr(v);
    return s;
  }
  if (auto *raise = as<P::RaiseStmtContext>(c)) {
    auto *s = make<Raise>(r);
    std::vector<P::TestContext *> tests = raise->test();
    if (!tests.empty())
      s->exc = test(tests[0]);
    if (tests.size() > 1)
      s->cause = test(tests[1]);
    return s;
  }
  auto *y = as<P::YieldStmtContext>(c);
  auto *s = make<ExprStmt>(r);
  s->value = yieldExpr(y->yieldExpr());
  return s;
}

static std::string dottedText(ASTBuilder::P::DottedNameContext *c) {
  std::string out;
  for (auto *n : c->name()) {
    if (!out.empty())
      out += '.';
    out += n->getText();
  }
  return out;
}

Stmt *ASTBuilder::importStmt(P::ImportStmtContext *c) {
  SourceRange r = rangeOf(c);
  if (auto *imp = as<P::ImportNameContext>(c)) {
    SmallVector<Alias *, 4> names;
    for (P::DottedAsNameContext *d : imp->dottedAsName()) {
      auto *a = make<Alias>(rangeOf(d));
      a->name = ctx.save(dottedText(d->dottedName()));
      if (auto *as = d->name())
        a->asname = text(as->getStart());
      names.push_back(a);
    }
    auto *s = make<Import>(r);
    s->names = list<Alias>(names);
    return s;
  }
  auto *from = as<P::ImportFromContext>(c);
  auto *s = make<ImportFrom>(r);
  for (P::ImportLevelContext *l : from->importLevel())
    s->level += l->ELLIPSIS() ? 3 : 1;
  if (auto *d = from->dottedName())
    s->module = ctx.save(dottedText(d));
  P::ImportTargetsContext *targets = from->importTargets();
  SmallVector<Alias *, 8> names;
  if (targets->STAR()) {
    auto *a = make<Alias>(rangeOf(targets->STAR()));
    a->name = "*";
    names.push_back(a);
  }
  for (P::ImportAsNameContext *n : targets->importAsName()) {
    auto *a = make<Alias>(rangeOf(n));
    a->name = text(n->name(0)->getStart());
    if (n->name().size() > 1)
      a->asname = text(n->name(1)->getStart());
    names.push_back(a);
  }
  s->names = list<Alias>(names);
  return s;
}

Stmt *ASTBuilder::compoundStmt(P::CompoundStmtContext *c) {
  if (auto *s = c->ifStmt())
    return ifStmt(s);
  if (auto *s = c->whileStmt())
    return whileStmt(s);
  if (auto *s = c->forStmt())
    return forStmt(s, nullptr);
  if (auto *s = c->tryStmt())
    return tryStmt(s);
  if (auto *s = c->withStmt())
    return withStmt(s, nullptr);
  if (auto *s = c->funcDef())
    return funcDef(s, nullptr, {});
  if (auto *s = c->classDef())
    return classDef(s, {});
  if (auto *s = c->decorated())
    return decorated(s);
  if (auto *s = c->matchStmt())
    return matchStmt(s);
  auto *a = c->asyncStmt();
  Token *asyncTok = a->ASYNC()->getSymbol();
  if (auto *f = a->funcDef())
    return funcDef(f, asyncTok, {});
  if (auto *w = a->withStmt())
    return withStmt(w, asyncTok);
  return forStmt(a->forStmt(), asyncTok);
}

Stmt *ASTBuilder::ifStmt(P::IfStmtContext *c) {
  // Build the elif chain from the back: each elif is an If nested in the
  // orelse of the previous one, ending where the whole chain ends.
  NodeList<Stmt> orelse = elseBlock(c->elseClause());
  std::vector<P::ElifClauseContext *> elifs = c->elifClause();
  for (auto it = elifs.rbegin(); it != elifs.rend(); ++it) {
    auto *s = make<If>({});
    s->isElif = true;
    s->test = namedExprTest((*it)->namedExprTest());
    s->body = block((*it)->block());
    s->orelse = orelse;
    s->setRange({startOf((*it)->getStart()),
                 endOfBody(orelse.empty() ? s->body : orelse)});
    orelse = list<Stmt>({s});
  }
  auto *s = make<If>({});
  s->test = namedExprTest(c->namedExprTest());
  s->body = block(c->block());
  s->orelse = orelse;
  s->setRange({startOf(c->getStart()),
               endOfBody(orelse.empty() ? s->body : orelse)});
  return s;
}

Stmt *ASTBuilder::whileStmt(P::WhileStmtContext *c) {
  auto *s = make<While>({});
  s->test = namedExprTest(c->namedExprTest());
  s->body = block(c->block());
  s->orelse = elseBlock(c->elseClause());
  s->setRange({startOf(c->getStart()),
               endOfBody(s->orelse.empty() ? s->body : s->orelse)});
  return s;
}

Stmt *ASTBuilder::forStmt(P::ForStmtContext *c, Token *asyncTok) {
  auto *s = make<For>({});
  s->isAsync = asyncTok != nullptr;
  s->target = exprlist(c->exprlist());
  setTarget(s->target, TargetUse::For);
  s->iter = testlistStarExpr(c->testlistStarExpr());
  s->body = block(c->block());
  s->orelse = elseBlock(c->elseClause());
  s->setRange({startOf(asyncTok ? asyncTok : c->getStart()),
               endOfBody(s->orelse.empty() ? s->body : s->orelse)});
  return s;
}

Stmt *ASTBuilder::tryStmt(P::TryStmtContext *c) {
  auto *s = make<Try>({});
  s->body = block(c->block());
  SmallVector<ExceptHandler *, 4> handlers;
  bool sawStar = false, sawPlain = false;
  for (P::ExceptClauseContext *e : c->exceptClause()) {
    auto *h = make<ExceptHandler>({});
    if (e->STAR()) {
      sawStar = true;
      if (!e->test())
        error(startOf(e->STAR()->getSymbol()),
              "expected one or more exception types");
    } else {
      sawPlain = true;
    }
    if (e->test())
      h->type = test(e->test());
    if (e->name())
      h->name = text(e->name()->getStart());
    h->body = block(e->block());
    h->setRange({startOf(e->getStart()), endOfBody(h->body)});
    handlers.push_back(h);
  }
  if (sawStar && sawPlain)
    error(startOf(c->getStart()),
          "cannot have both 'except' and 'except*' on the same 'try'");
  s->isStar = sawStar;
  s->handlers = list<ExceptHandler>(handlers);
  s->orelse = elseBlock(c->elseClause());
  if (auto *f = c->finallyClause())
    s->finalbody = block(f->block());
  NodeList<Stmt> last = !s->finalbody.empty() ? s->finalbody
                        : !s->orelse.empty() ? s->orelse
                        : handlers.empty()   ? s->body
                                             : handlers.back()->body;
  s->setRange({startOf(c->getStart()), endOfBody(last)});
  return s;
}

Stmt *ASTBuilder::withStmt(P::WithStmtContext *c, Token *asyncTok) {
  auto *s = make<With>({});
  s->isAsync = asyncTok != nullptr;
  SmallVector<WithItem *, 2> items;
  for (P::WithItemContext *w : c->withItem()) {
    auto *item = make<WithItem>(rangeOf(w));
    item->contextExpr = test(w->test());
    if (auto *target = w->bitExpr()) {
      item->optionalVars = bitExpr(target);
      setTarget(item->optionalVars, TargetUse::With);
    }
    items.push_back(item);
  }
  s->items = list<WithItem>(items);
  s->body = block(c->block());
  s->setRange(
      {startOf(asyncTok ? asyncTok : c->getStart()), endOfBody(s->body)});
  return s;
}

Stmt *ASTBuilder::decorated(P::DecoratedContext *c) {
  SmallVector<Expr *, 2> decorators;
  for (P::DecoratorContext *d : c->decorator())
    decorators.push_back(namedExprTest(d->namedExprTest()));
  NodeList<Expr> list = ctx.copy<Expr *>(decorators);
  if (auto *cls = c->classDef())
    return classDef(cls, list);
  if (auto *f = c->funcDef())
    return funcDef(f, nullptr, list);
  auto *af = c->asyncFuncDef();
  return funcDef(af->funcDef(), af->ASYNC()->getSymbol(), list);
}

Stmt *ASTBuilder::funcDef(P::FuncDefContext *c, Token *asyncTok,
                          NodeList<Expr> decorators) {
  auto *s = make<FunctionDef>({});
  s->isAsync = asyncTok != nullptr;
  s->name = text(c->name()->getStart());
  s->typeParams = typeParams(c->typeParams());
  s->args = c->paramList() ? parameters(c->paramList())
                           : ctx.create<Arguments>();
  if (auto *ret = c->test())
    s->returns = test(ret);
  s->body = block(c->block());
  s->decoratorList = decorators;
  s->setRange(
      {startOf(asyncTok ? asyncTok : c->getStart()), endOfBody(s->body)});
  return s;
}

Stmt *ASTBuilder::classDef(P::ClassDefContext *c, NodeList<Expr> decorators) {
  auto *s = make<ClassDef>({});
  s->name = text(c->name()->getStart());
  s->typeParams = typeParams(c->typeParams());
  if (c->LPAR()) {
    SmallVector<Expr *, 4> bases;
    SmallVector<Keyword *, 2> keywords;
    callArguments(c->argList(), c->LPAR()->getSymbol(),
                  c->RPAR()->getSymbol(), bases, keywords);
    s->bases = list<Expr>(bases);
    s->keywords = list<Keyword>(keywords);
  }
  s->body = block(c->block());
  s->decoratorList = decorators;
  s->setRange({startOf(c->getStart()), endOfBody(s->body)});
  return s;
}

// ---- Type parameters and aliases (PEP 695, PEP 696) -------------------------

Stmt *ASTBuilder::typeAlias(P::TypeAliasContext *c) {
  auto *s = make<TypeAlias>(rangeOf(c));
  newerSyntax(startOf(c->getStart()), PythonVersion::Py312,
              "a `type X = ...` alias (PEP 695)");
  auto *name = make<Name>(rangeOf(c->name()));
  name->id = text(c->name()->getStart());
  name->ctx = ExprContext::Store;
  s->name = name;
  s->typeParams = typeParams(c->typeParams());
  s->value = test(c->test());
  return s;
}

NodeList<Node> ASTBuilder::typeParams(P::TypeParamsContext *c) {
  if (!c)
    return {};
  newerSyntax(startOf(c->getStart()), PythonVersion::Py312,
              "type parameters (`def f[T]`, `class C[T]`: PEP 695)");
  SmallVector<Node *, 4> params;
  for (P::TypeParamContext *p : c->typeParam()) {
    Node *param = nullptr;
    Expr *defaultValue = nullptr;
    if (auto *v = dynamic_cast<P::TypeVarParamContext *>(p)) {
      auto *t = make<TypeVar>(rangeOf(p));
      t->name = text(v->name()->getStart());
      size_t next = 0;
      if (v->COLON())
        t->bound = test(v->test(next++));
      if (v->ASSIGN())
        defaultValue = t->defaultValue = test(v->test(next));
      param = t;
    } else if (auto *vt = dynamic_cast<P::TypeVarTupleParamContext *>(p)) {
      auto *t = make<TypeVarTuple>(rangeOf(p));
      t->name = text(vt->name()->getStart());
      if (vt->starExpr())
        defaultValue = t->defaultValue = starExpr(vt->starExpr());
      else if (vt->test())
        defaultValue = t->defaultValue = test(vt->test());
      param = t;
    } else {
      auto *ps = static_cast<P::ParamSpecParamContext *>(p);
      auto *t = make<ParamSpec>(rangeOf(p));
      t->name = text(ps->name()->getStart());
      if (ps->test())
        defaultValue = t->defaultValue = test(ps->test());
      param = t;
    }
    if (defaultValue)
      newerSyntax(startOf(p->getStart()), PythonVersion::Py313,
                  "a type parameter default (PEP 696)");
    // (Duplicates and a parameter without a default after one with are
    // compile-time errors, after ast.parse: as for `def f(x, x)`.)
    params.push_back(param);
  }
  return ctx.copy<Node *>(params);
}

// ---- Parameters ---------------------------------------------------------------

namespace {
/// Collects parameters in order and enforces CPython's ordering rules.
struct ParamCollector {
  SmallVector<Arg *, 8> positional, kwonly;
  SmallVector<Expr *, 8> defaults, kwDefaults;
  size_t numPosOnly = 0;
  bool sawSlash = false, sawStar = false, bareStar = false;
  Arg *vararg = nullptr, *kwarg = nullptr;
};
} // namespace

static Arguments *finishArguments(ASTContext &ctx, ParamCollector &p) {
  auto *a = ctx.create<Arguments>();
  llvm::ArrayRef<Arg *> pos(p.positional);
  a->posonlyargs = ctx.copy(pos.take_front(p.numPosOnly));
  a->args = ctx.copy(pos.drop_front(p.numPosOnly));
  a->vararg = p.vararg;
  a->kwonlyargs = ctx.copy<Arg *>(p.kwonly);
  a->kwDefaults = ctx.copy<Expr *>(p.kwDefaults);
  a->kwarg = p.kwarg;
  a->defaults = ctx.copy<Expr *>(p.defaults);
  return a;
}

Arguments *ASTBuilder::parameters(P::ParamListContext *c) {
  ParamCollector p;
  for (P::ParamContext *param : c->param()) {
    if (p.kwarg) {
      error(startOf(param->getStart()),
            "arguments cannot follow var-keyword argument");
      break;
    }
    if (auto *plain = as<P::PlainParamContext>(param)) {
      auto *arg = make<Arg>({});
      arg->arg = text(plain->name()->getStart());
      std::vector<P::TestContext *> tests = plain->test();
      Expr *def = nullptr;
      if (plain->COLON())
        arg->annotation = test(tests[0]);
      if (plain->ASSIGN())
        def = test(tests.back());
      Token *last = arg->annotation ? plain->test(0)->getStop()
                                    : plain->name()->getStop();
      arg->setRange({startOf(plain->getStart()), endOf(last)});
      if (p.sawStar) {
        p.kwonly.push_back(arg);
        p.kwDefaults.push_back(def);
      } else {
        if (def)
          p.defaults.push_back(def);
        else if (!p.defaults.empty())
          error(arg, "non-default argument follows default argument");
        p.positional.push_back(arg);
      }
    } else if (auto *var = as<P::VarParamContext>(param)) {
      if (p.sawStar)
        error(startOf(var->getStart()), "* argument may appear only once");
      p.sawStar = true;
      if (auto *n = var->name()) {
        auto *arg = make<Arg>(rangeOf(var));
        arg->arg = text(n->getStart());
        arg->setRange({startOf(n->getStart()), endOf(var->getStop())});
        if (auto *t = var->test())
          arg->annotation = test(t);
        else if (auto *st = var->starExpr())
          arg->annotation = starExpr(st);
        p.vararg = arg;
      } else {
        p.bareStar = true;
      }
    } else if (auto *kw = as<P::KwParamContext>(param)) {
      auto *arg = make<Arg>({});
      arg->arg = text(kw->name()->getStart());
      arg->setRange({startOf(kw->name()->getStart()), endOf(kw->getStop())});
      if (auto *t = kw->test())
        arg->annotation = test(t);
      p.kwarg = arg;
    } else {
      if (p.sawSlash)
        error(startOf(param->getStart()), "/ may appear only once");
      else if (p.sawStar)
        error(startOf(param->getStart()), "/ must be ahead of *");
      else if (p.positional.empty())
        error(startOf(param->getStart()),
              "at least one argument must precede /");
      p.sawSlash = true;
      p.numPosOnly = p.positional.size();
    }
  }
  if (p.bareStar && p.kwonly.empty())
    error(endOf(c->getStop()), "named arguments must follow bare *");
  return finishArguments(ctx, p);
}

Arguments *ASTBuilder::lambdaParameters(P::LambdaParamListContext *c) {
  ParamCollector p;
  for (P::LambdaParamContext *param : c->lambdaParam()) {
    if (p.kwarg) {
      error(startOf(param->getStart()),
            "arguments cannot follow var-keyword argument");
      break;
    }
    if (auto *plain = as<P::LambdaPlainParamContext>(param)) {
      auto *arg = make<Arg>(rangeOf(plain->name()));
      arg->arg = text(plain->name()->getStart());
      Expr *def = plain->test() ? test(plain->test()) : nullptr;
      if (p.sawStar) {
        p.kwonly.push_back(arg);
        p.kwDefaults.push_back(def);
      } else {
        if (def)
          p.defaults.push_back(def);
        else if (!p.defaults.empty())
          error(arg, "non-default argument follows default argument");
        p.positional.push_back(arg);
      }
    } else if (auto *var = as<P::LambdaVarParamContext>(param)) {
      if (p.sawStar)
        error(startOf(var->getStart()), "* argument may appear only once");
      p.sawStar = true;
      if (auto *n = var->name()) {
        auto *arg = make<Arg>(rangeOf(n));
        arg->arg = text(n->getStart());
        p.vararg = arg;
      } else {
        p.bareStar = true;
      }
    } else if (auto *kw = as<P::LambdaKwParamContext>(param)) {
      auto *arg = make<Arg>(rangeOf(kw->name()));
      arg->arg = text(kw->name()->getStart());
      p.kwarg = arg;
    } else {
      if (p.sawSlash)
        error(startOf(param->getStart()), "/ may appear only once");
      else if (p.sawStar)
        error(startOf(param->getStart()), "/ must be ahead of *");
      else if (p.positional.empty())
        error(startOf(param->getStart()),
              "at least one argument must precede /");
      p.sawSlash = true;
      p.numPosOnly = p.positional.size();
    }
  }
  if (p.bareStar && p.kwonly.empty())
    error(endOf(c->getStop()), "named arguments must follow bare *");
  return finishArguments(ctx, p);
}

// ---- match statements -----------------------------------------------------------

Stmt *ASTBuilder::matchStmt(P::MatchStmtContext *c) {
  auto *s = make<Match>({});
  P::SubjectContext *subj = c->subject();
  SmallVector<Expr *, 2> elts;
  for (tree::ParseTree *child : subj->children)
    if (!dynamic_cast<tree::TerminalNode *>(child))
      elts.push_back(anyExpr(child));
  s->subject = tupleOrSingle(subj, elts, !subj->COMMA().empty());
  SmallVector<MatchCase *, 4> cases;
  for (P::CaseBlockContext *cb : c->caseBlock()) {
    auto *mc = make<MatchCase>(rangeOf(cb));
    mc->pattern = patterns(cb->patterns(), false);
    if (auto *g = cb->namedExprTest())
      mc->guard = namedExprTest(g);
    mc->body = block(cb->block());
    cases.push_back(mc);
  }
  s->cases = list<MatchCase>(cases);
  s->setRange({startOf(c->getStart()), endOfBody(cases.back()->body)});
  return s;
}

Pattern *ASTBuilder::patterns(P::PatternsContext *c, bool forceSequence) {
  SmallVector<Pattern *, 4> items;
  bool anyStar = false;
  for (P::MaybeStarPatternContext *m : c->maybeStarPattern()) {
    if (auto *star = as<P::StarPatternContext>(m)) {
      auto *p = make<MatchStar>(rangeOf(star));
      llvm::StringRef n = text(star->name()->getStart());
      p->name = n == "_" ? llvm::StringRef() : n;
      items.push_back(p);
      anyStar = true;
    } else {
      items.push_back(pattern(as<P::PlainPatternContext>(m)->pattern()));
    }
  }
  if (!forceSequence && items.size() == 1 && c->COMMA().empty() && !anyStar)
    return items.front();
  auto *seq = make<MatchSequence>(rangeOf(c));
  seq->patterns = list<Pattern>(items);
  return seq;
}

Pattern *ASTBuilder::pattern(P::PatternContext *c) {
  SmallVector<Pattern *, 2> alts;
  for (P::ClosedPatternContext *cp : c->closedPattern())
    alts.push_back(closedPattern(cp));
  Pattern *p = alts.front();
  if (alts.size() > 1) {
    // From the first alternative's first token to the last's last one:
    // a parenthesized alternative's parentheses included.
    auto *orp = make<MatchOr>({startOf(c->closedPattern().front()->getStart()),
                               endOf(c->closedPattern().back()->getStop())});
    orp->patterns = list<Pattern>(alts);
    p = orp;
  }
  if (c->AS()) {
    auto *as = make<MatchAs>(rangeOf(c));
    as->pattern = p;
    as->name = text(c->name()->getStart());
    if (as->name == "_")
      error(as, "cannot use '_' as a target");
    return as;
  }
  return p;
}

Expr *ASTBuilder::dottedNameExpr(const std::vector<P::NameContext *> &names) {
  Expr *e = nullptr;
  for (P::NameContext *n : names) {
    if (!e) {
      auto *name = make<Name>(rangeOf(n));
      name->id = text(n->getStart());
      e = name;
      continue;
    }
    auto *attr = make<Attribute>({e->getRange().begin, endOf(n->getStop())});
    attr->value = e;
    attr->attr = text(n->getStart());
    e = attr;
  }
  return e;
}

Expr *ASTBuilder::literalPatternExpr(P::LiteralPatternContext *c) {
  if (auto *s = c->strings())
    return strings(s);
  std::vector<tree::TerminalNode *> nums = c->NUMBER();
  // -N, N+Mj, -N-Mj: the sign is part of the first operand.
  Expr *left = number(nums[0]->getSymbol());
  if (c->getStart()->getType() == PythonLexer::MINUS) {
    auto *neg = make<UnaryOp>({startOf(c->getStart()), left->getRange().end});
    neg->op = UnaryOpKind::USub;
    neg->operand = left;
    left = neg;
  }
  if (nums.size() == 1)
    return left;
  auto *bin = make<BinOp>(rangeOf(c));
  bin->left = left;
  bin->op = c->PLUS() ? BinOpKind::Add : BinOpKind::Sub;
  bin->right = number(nums[1]->getSymbol());
  return bin;
}

Pattern *ASTBuilder::literalPattern(P::LiteralPatternContext *c) {
  if (c->NONE() || c->TRUE() || c->FALSE()) {
    auto *p = make<MatchSingleton>(rangeOf(c));
    p->value = c->NONE()   ? ConstantKind::None
               : c->TRUE() ? ConstantKind::True
                           : ConstantKind::False;
    return p;
  }
  auto *p = make<MatchValue>(rangeOf(c));
  p->value = literalPatternExpr(c);
  return p;
}

Pattern *ASTBuilder::closedPattern(P::ClosedPatternContext *c) {
  SourceRange r = rangeOf(c);
  if (auto *lit = as<P::LiteralClosedPatternContext>(c))
    return literalPattern(lit->literalPattern());
  if (auto *named = as<P::NameClosedPatternContext>(c)) {
    std::vector<P::NameContext *> names = named->name();
    if (!named->LPAR()) {
      if (names.size() == 1) {
        auto *p = make<MatchAs>(r);
        llvm::StringRef id = text(names[0]->getStart());
        p->name = id == "_" ? llvm::StringRef() : id;
        return p;
      }
      auto *p = make<MatchValue>(r);
      p->value = dottedNameExpr(names);
      return p;
    }
    auto *p = make<MatchClass>(r);
    p->cls = dottedNameExpr(names);
    SmallVector<Pattern *, 4> positional, kwdPatterns;
    SmallVector<llvm::StringRef, 4> kwdAttrs;
    if (auto *args = named->patternArgs()) {
      for (P::PatternArgContext *a : args->patternArg()) {
        Pattern *sub = pattern(a->pattern());
        if (a->name()) {
          kwdAttrs.push_back(text(a->name()->getStart()));
          kwdPatterns.push_back(sub);
        } else {
          if (!kwdAttrs.empty())
            error(sub, "positional patterns follow keyword patterns");
          positional.push_back(sub);
        }
      }
    }
    p->patterns = list<Pattern>(positional);
    p->kwdAttrs = ctx.copy<llvm::StringRef>(kwdAttrs);
    p->kwdPatterns = list<Pattern>(kwdPatterns);
    return p;
  }
  if (auto *group = as<P::GroupClosedPatternContext>(c)) {
    if (!group->patterns()) {
      auto *p = make<MatchSequence>(r);
      return p;
    }
    Pattern *inner = patterns(group->patterns(), false);
    if (llvm::isa<MatchSequence>(inner) ||
        !group->patterns()->COMMA().empty()) {
      inner->setRange(r);
      return inner;
    }
    return inner; // A parenthesized pattern is just the pattern.
  }
  if (auto *seq = as<P::SequenceClosedPatternContext>(c)) {
    if (!seq->patterns())
      return make<MatchSequence>(r);
    Pattern *inner = patterns(seq->patterns(), true);
    inner->setRange(r);
    return inner;
  }
  auto *mapping = as<P::MappingClosedPatternContext>(c);
  auto *p = make<MatchMapping>(r);
  SmallVector<Expr *, 4> keys;
  SmallVector<Pattern *, 4> values;
  if (auto *items = mapping->mappingItems()) {
    for (P::MappingItemContext *item : items->mappingItem()) {
      if (auto *rest = as<P::RestMappingItemContext>(item)) {
        p->rest = text(rest->name()->getStart());
        continue;
      }
      auto *kv = as<P::KeyMappingItemContext>(item);
      if (!p->rest.empty())
        error(startOf(kv->getStart()),
              "double star pattern must be the last item of a mapping");
      if (auto *lit = kv->literalPattern()) {
        if (lit->NONE() || lit->TRUE() || lit->FALSE()) {
          auto *k = make<Constant>(rangeOf(lit));
          k->kind = lit->NONE()   ? ConstantKind::None
                    : lit->TRUE() ? ConstantKind::True
                                  : ConstantKind::False;
          keys.push_back(k);
        } else {
          keys.push_back(literalPatternExpr(lit));
        }
      } else {
        keys.push_back(dottedNameExpr(kv->name()));
      }
      values.push_back(pattern(kv->pattern()));
    }
  }
  p->keys = list<Expr>(keys);
  p->patterns = list<Pattern>(values);
  return p;
}

// ---- Expressions ----------------------------------------------------------------

Expr *ASTBuilder::anyExpr(tree::ParseTree *t) {
  if (auto *c = as<P::TestContext>(t))
    return test(c);
  if (auto *c = as<P::StarExprContext>(t))
    return starExpr(c);
  if (auto *c = as<P::NamedExprTestContext>(t))
    return namedExprTest(c);
  if (auto *c = as<P::BitExprContext>(t))
    return bitExpr(c);
  if (auto *c = as<P::LogicExprContext>(t))
    return logicExpr(c);
  if (auto *c = as<P::YieldExprContext>(t))
    return yieldExpr(c);
  if (auto *c = as<P::TestlistStarExprContext>(t))
    return testlistStarExpr(c);
  auto *rule = dynamic_cast<ParserRuleContext *>(t);
  SourcePos at = rule ? startOf(rule->getStart()) : SourcePos{};
  error(at, "internal error: unexpected parse tree node");
  auto *n = make<Constant>({at, at});
  return n;
}

Expr *ASTBuilder::tupleOrSingle(ParserRuleContext *c,
                                llvm::ArrayRef<Expr *> elts, bool hasComma) {
  if (elts.size() == 1 && !hasComma) {
    if (auto *star = llvm::dyn_cast<Starred>(elts[0]))
      if (!star->parenthesized)
        error(star, "can't use starred expression here");
    return elts[0];
  }
  auto *t = make<Tuple>(rangeOf(c));
  t->elts = list<Expr>(elts);
  return t;
}

Expr *ASTBuilder::testlistStarExpr(P::TestlistStarExprContext *c) {
  SmallVector<Expr *, 4> elts;
  for (tree::ParseTree *child : c->children)
    if (!dynamic_cast<tree::TerminalNode *>(child))
      elts.push_back(anyExpr(child));
  if (elts.size() == 1 && c->COMMA().empty())
    return elts[0]; // A lone starred expression is checked by its user.
  auto *t = make<Tuple>(rangeOf(c));
  t->elts = list<Expr>(elts);
  return t;
}

Expr *ASTBuilder::exprlist(P::ExprlistContext *c,
                           llvm::SmallVectorImpl<Expr *> *elements) {
  SmallVector<Expr *, 4> elts;
  for (tree::ParseTree *child : c->children)
    if (!dynamic_cast<tree::TerminalNode *>(child))
      elts.push_back(anyExpr(child));
  if (elements)
    elements->append(elts.begin(), elts.end());
  if (elts.size() == 1 && c->COMMA().empty())
    return elts[0];
  auto *t = make<Tuple>(rangeOf(c));
  t->elts = list<Expr>(elts);
  return t;
}

Expr *ASTBuilder::test(P::TestContext *c) {
  if (auto *l = c->lambdef()) {
    return lambdef(l, l->lambdaParamList(), test(l->test()));
  }
  std::vector<P::LogicExprContext *> parts = c->logicExpr();
  if (parts.size() == 1)
    return logicExpr(parts[0]);
  auto *e = make<IfExp>(rangeOf(c));
  e->body = logicExpr(parts[0]);
  e->test = logicExpr(parts[1]);
  e->orelse = test(c->test());
  return e;
}

Expr *ASTBuilder::testNoCond(P::TestNoCondContext *c) {
  if (auto *l = c->lambdefNoCond())
    return lambdef(l, l->lambdaParamList(), testNoCond(l->testNoCond()));
  return logicExpr(c->logicExpr());
}

Expr *ASTBuilder::lambdef(ParserRuleContext *c,
                          P::LambdaParamListContext *params, Expr *body) {
  auto *e = make<Lambda>(rangeOf(c));
  e->args = params ? lambdaParameters(params) : ctx.create<Arguments>();
  e->body = body;
  return e;
}

Expr *ASTBuilder::namedExprTest(P::NamedExprTestContext *c) {
  if (!c->WALRUS())
    return test(c->test());
  auto *e = make<NamedExpr>(rangeOf(c));
  auto *target = make<Name>(rangeOf(c->name()));
  target->id = text(c->name()->getStart());
  target->ctx = ExprContext::Store;
  e->target = target;
  e->value = test(c->test());
  return e;
}

Expr *ASTBuilder::starExpr(P::StarExprContext *c) {
  auto *e = make<Starred>(rangeOf(c));
  e->value = bitExpr(c->bitExpr());
  return e;
}

static CmpOpKind cmpOpKind(ASTBuilder::P::CompOpContext *c) {
  size_t first = c->getStart()->getType();
  bool two = c->children.size() == 2;
  switch (first) {
  case PythonLexer::LT: return CmpOpKind::Lt;
  case PythonLexer::GT: return CmpOpKind::Gt;
  case PythonLexer::EQ: return CmpOpKind::Eq;
  case PythonLexer::GE: return CmpOpKind::GtE;
  case PythonLexer::LE: return CmpOpKind::LtE;
  case PythonLexer::NE: return CmpOpKind::NotEq;
  case PythonLexer::IN: return CmpOpKind::In;
  case PythonLexer::NOT: return CmpOpKind::NotIn;
  default: return two ? CmpOpKind::IsNot : CmpOpKind::Is;
  }
}

Expr *ASTBuilder::logicExpr(P::LogicExprContext *c) {
  if (budget.exceeded()) {
    error(startOf(c->getStart()), "too many nested expressions or blocks");
    return make<Constant>(rangeOf(c));
  }
  if (auto *cmp = as<P::ComparisonContext>(c)) {
    std::vector<P::BitExprContext *> operands = cmp->bitExpr();
    if (operands.size() == 1)
      return bitExpr(operands[0]);
    auto *e = make<Compare>(rangeOf(c));
    e->left = bitExpr(operands[0]);
    SmallVector<CmpOpKind, 2> ops;
    SmallVector<Expr *, 2> comparators;
    for (P::CompOpContext *op : cmp->compOp())
      ops.push_back(cmpOpKind(op));
    for (size_t i = 1; i < operands.size(); ++i)
      comparators.push_back(bitExpr(operands[i]));
    e->ops = ctx.copy<CmpOpKind>(ops);
    e->comparators = list<Expr>(comparators);
    return e;
  }
  if (auto *n = as<P::NotTestContext>(c)) {
    auto *e = make<UnaryOp>(rangeOf(c));
    e->op = UnaryOpKind::Not;
    e->operand = logicExpr(n->logicExpr());
    return e;
  }
  // `a and b and c` is one BoolOp: flatten the left-nested chain (without
  // recursion, chains can be long in generated code).
  bool isAnd = as<P::AndTestContext>(c) != nullptr;
  SmallVector<P::LogicExprContext *, 8> operands;
  P::LogicExprContext *cur = c;
  while (true) {
    std::vector<P::LogicExprContext *> kids =
        isAnd ? as<P::AndTestContext>(cur)->logicExpr()
              : as<P::OrTestContext>(cur)->logicExpr();
    operands.push_back(kids[1]);
    P::LogicExprContext *left = kids[0];
    bool same = isAnd ? as<P::AndTestContext>(left) != nullptr
                      : as<P::OrTestContext>(left) != nullptr;
    if (!same) {
      operands.push_back(left);
      break;
    }
    cur = left;
  }
  auto *e = make<BoolOp>(rangeOf(c));
  e->op = isAnd ? BoolOpKind::And : BoolOpKind::Or;
  SmallVector<Expr *, 8> values;
  for (auto it = operands.rbegin(); it != operands.rend(); ++it)
    values.push_back(logicExpr(*it));
  e->values = list<Expr>(values);
  return e;
}

static BinOpKind binOpKind(size_t type) {
  switch (type) {
  case PythonLexer::STAR: return BinOpKind::Mult;
  case PythonLexer::AT: return BinOpKind::MatMult;
  case PythonLexer::SLASH: return BinOpKind::Div;
  case PythonLexer::DSLASH: return BinOpKind::FloorDiv;
  case PythonLexer::PERCENT: return BinOpKind::Mod;
  case PythonLexer::PLUS: return BinOpKind::Add;
  case PythonLexer::MINUS: return BinOpKind::Sub;
  case PythonLexer::LSHIFT: return BinOpKind::LShift;
  case PythonLexer::RSHIFT: return BinOpKind::RShift;
  case PythonLexer::AMPER: return BinOpKind::BitAnd;
  case PythonLexer::CARET: return BinOpKind::BitXor;
  default: return BinOpKind::BitOr;
  }
}

Expr *ASTBuilder::bitExpr(P::BitExprContext *c) {
  if (budget.exceeded()) {
    error(startOf(c->getStart()), "too many nested expressions or blocks");
    return make<Constant>(rangeOf(c));
  }
  if (auto *p = as<P::PrimaryContext>(c))
    return primary(p);
  if (auto *u = as<P::UnaryContext>(c)) {
    auto *e = make<UnaryOp>(rangeOf(c));
    size_t t = u->op->getType();
    e->op = t == PythonLexer::PLUS    ? UnaryOpKind::UAdd
            : t == PythonLexer::MINUS ? UnaryOpKind::USub
                                      : UnaryOpKind::Invert;
    e->operand = bitExpr(u->bitExpr());
    return e;
  }
  if (auto *pw = as<P::PowerContext>(c)) {
    auto *e = make<BinOp>(rangeOf(c));
    e->left = bitExpr(pw->bitExpr(0));
    e->op = BinOpKind::Pow;
    e->right = bitExpr(pw->bitExpr(1));
    return e;
  }
  // Left-nested binary chains (a + b + c ...) are walked iteratively.
  SmallVector<P::BinaryContext *, 8> spine;
  P::BitExprContext *cur = c;
  while (auto *b = as<P::BinaryContext>(cur)) {
    spine.push_back(b);
    cur = b->bitExpr(0);
  }
  Expr *left = bitExpr(cur);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    auto *e = make<BinOp>(rangeOf(*it));
    e->left = left;
    e->op = binOpKind((*it)->op->getType());
    e->right = bitExpr((*it)->bitExpr(1));
    left = e;
  }
  return left;
}

Expr *ASTBuilder::primary(P::PrimaryContext *c) {
  Expr *e = atom(c->atom());
  SourcePos begin = e->getRange().begin;
  if (e->parenthesized)
    begin = startOf(c->atom()->getStart());
  for (P::TrailerContext *t : c->trailer()) {
    SourcePos end = endOf(t->getStop());
    if (auto *call = as<P::CallTrailerContext>(t)) {
      auto *n = make<Call>({begin, end});
      n->func = e;
      SmallVector<Expr *, 4> args;
      SmallVector<Keyword *, 4> keywords;
      callArguments(call->argList(), call->LPAR()->getSymbol(),
                    call->RPAR()->getSymbol(), args, keywords);
      n->args = list<Expr>(args);
      n->keywords = list<Keyword>(keywords);
      e = n;
    } else if (auto *sub = as<P::SubscriptTrailerContext>(t)) {
      auto *n = make<Subscript>({begin, end});
      n->value = e;
      n->slice = subscriptList(sub->subscriptList());
      e = n;
    } else {
      auto *attr = as<P::AttributeTrailerContext>(t);
      auto *n = make<Attribute>({begin, end});
      n->value = e;
      n->attr = text(attr->name()->getStart());
      e = n;
    }
  }
  if (c->AWAIT()) {
    auto *a = make<Await>(rangeOf(c));
    a->value = e;
    return a;
  }
  return e;
}

Expr *ASTBuilder::subscriptList(P::SubscriptListContext *c) {
  std::vector<P::SubscriptContext *> subs = c->subscript();
  SmallVector<Expr *, 4> elts;
  for (P::SubscriptContext *s : subs)
    elts.push_back(sliceOf(s));
  if (elts.size() == 1 && c->COMMA().empty()) {
    if (llvm::isa<Starred>(elts[0])) {
      // a[*b] is a one-element tuple (PEP 646).
      auto *t = make<Tuple>(rangeOf(c));
      t->elts = list<Expr>(elts);
      return t;
    }
    return elts[0];
  }
  auto *t = make<Tuple>(rangeOf(c));
  t->elts = list<Expr>(elts);
  return t;
}

Expr *ASTBuilder::sliceOf(P::SubscriptContext *c) {
  if (auto *st = c->starExpr())
    return starExpr(st);
  P::SliceTailContext *tail = c->sliceTail();
  if (!tail)
    return namedExprTest(c->namedExprTest());
  auto *s = make<Slice>(rangeOf(c));
  if (auto *lower = c->namedExprTest())
    s->lower = namedExprTest(lower);
  // sliceTail: ':' upper? (':' step?)?
  bool afterSecondColon = false;
  for (tree::ParseTree *child : tail->children) {
    if (auto *term = dynamic_cast<tree::TerminalNode *>(child)) {
      if (term->getSymbol()->getTokenIndex() !=
          tail->getStart()->getTokenIndex())
        afterSecondColon = true;
      continue;
    }
    Expr *e = test(as<P::TestContext>(child));
    (afterSecondColon ? s->step : s->upper) = e;
  }
  return s;
}

void ASTBuilder::callArguments(P::ArgListContext *c, Token *open, Token *close,
                               llvm::SmallVectorImpl<Expr *> &args,
                               llvm::SmallVectorImpl<Keyword *> &keywords) {
  if (!c)
    return;
  std::vector<P::ArgumentContext *> all = c->argument();
  bool sawKeyword = false, sawDoubleStar = false;
  for (P::ArgumentContext *a : all) {
    if (auto *kw = as<P::KeywordArgumentContext>(a)) {
      auto *k = make<Keyword>(rangeOf(kw));
      k->arg = text(kw->name()->getStart());
      k->value = test(kw->test());
      keywords.push_back(k);
      sawKeyword = true;
    } else if (auto *pos = as<P::PositionalArgumentContext>(a)) {
      Expr *e;
      if (auto *cf = pos->compFor()) {
        // A bare generator argument takes the call's parentheses.
        bool sole = all.size() == 1;
        SourceRange r = sole ? SourceRange{startOf(open), endOf(close)}
                             : rangeOf(pos);
        auto *g = make<GeneratorExp>(r);
        g->elt = namedExprTest(pos->namedExprTest());
        g->generators = comprehensions(cf);
        if (!sole)
          error(g, "Generator expression must be parenthesized");
        e = g;
      } else {
        e = namedExprTest(pos->namedExprTest());
      }
      if (sawDoubleStar)
        error(e, "positional argument follows keyword argument unpacking");
      else if (sawKeyword)
        error(e, "positional argument follows keyword argument");
      args.push_back(e);
    } else if (auto *star = as<P::StarArgumentContext>(a)) {
      auto *s = make<Starred>(rangeOf(star));
      s->value = test(star->test());
      if (sawDoubleStar)
        error(s, "iterable argument unpacking follows keyword argument "
                 "unpacking");
      args.push_back(s);
    } else {
      auto *ds = as<P::DoubleStarArgumentContext>(a);
      auto *k = make<Keyword>(rangeOf(ds));
      k->value = test(ds->test());
      keywords.push_back(k);
      sawDoubleStar = true;
    }
  }
}

NodeList<Comprehension> ASTBuilder::comprehensions(P::CompForContext *c) {
  SmallVector<Comprehension *, 2> gens;
  while (c) {
    auto *g = make<Comprehension>(rangeOf(c));
    g->isAsync = c->ASYNC() != nullptr;
    g->target = exprlist(c->exprlist());
    setTarget(g->target, TargetUse::Comprehension);
    g->iter = logicExpr(c->logicExpr());
    SmallVector<Expr *, 2> ifs;
    P::CompIterContext *it = c->compIter();
    c = nullptr;
    while (it) {
      if (auto *cf = it->compFor()) {
        c = cf;
        break;
      }
      P::CompIfContext *ci = it->compIf();
      ifs.push_back(testNoCond(ci->testNoCond()));
      it = ci->compIter();
    }
    g->ifs = list<Expr>(ifs);
    gens.push_back(g);
  }
  return list<Comprehension>(gens);
}

Expr *ASTBuilder::yieldExpr(P::YieldExprContext *c) {
  if (c->FROM()) {
    auto *e = make<YieldFrom>(rangeOf(c));
    e->value = test(c->test());
    return e;
  }
  auto *e = make<Yield>(rangeOf(c));
  if (auto *v = c->testlistStarExpr())
    e->value = testlistStarExpr(v);
  return e;
}

Expr *ASTBuilder::number(Token *tok) {
  auto *e = make<Constant>({startOf(tok), endOf(tok)});
  llvm::StringRef t = text(tok);
  e->value = t;
  char last = t.back();
  bool isHex = t.size() > 1 && (t[1] == 'x' || t[1] == 'X');
  if (last == 'j' || last == 'J')
    e->kind = ConstantKind::Complex;
  else if (!isHex && t.find_first_of(".eE") != llvm::StringRef::npos)
    e->kind = ConstantKind::Float;
  else
    e->kind = ConstantKind::Int;
  return e;
}

Expr *ASTBuilder::atom(P::AtomContext *c) {
  SourceRange r = rangeOf(c);
  if (auto *n = as<P::NameAtomContext>(c)) {
    auto *e = make<Name>(r);
    e->id = text(n->getStart());
    return e;
  }
  if (auto *num = as<P::NumberAtomContext>(c))
    return number(num->NUMBER()->getSymbol());
  if (auto *s = as<P::StringAtomContext>(c))
    return strings(s->strings());
  if (as<P::EllipsisAtomContext>(c)) {
    auto *e = make<Constant>(r);
    e->kind = ConstantKind::Ellipsis;
    return e;
  }
  if (as<P::SingletonAtomContext>(c)) {
    auto *e = make<Constant>(r);
    size_t t = c->getStart()->getType();
    e->kind = t == PythonLexer::NONE   ? ConstantKind::None
              : t == PythonLexer::TRUE ? ConstantKind::True
                                       : ConstantKind::False;
    return e;
  }
  if (auto *b = as<P::BraceAtomContext>(c))
    return braceAtom(b);

  bool isList = as<P::ListAtomContext>(c) != nullptr;
  P::TestlistCompContext *tl =
      isList ? as<P::ListAtomContext>(c)->testlistComp()
             : as<P::ParenAtomContext>(c)->testlistComp();
  if (!isList) {
    if (auto *y = as<P::ParenAtomContext>(c)->yieldExpr()) {
      Expr *e = yieldExpr(y);
      e->parenthesized = true;
      return e;
    }
  }
  if (!tl) {
    if (isList)
      return make<List>(r);
    return make<Tuple>(r);
  }
  SmallVector<Expr *, 4> elts;
  for (tree::ParseTree *child : tl->children)
    if (!dynamic_cast<tree::TerminalNode *>(child) &&
        !as<P::CompForContext>(child))
      elts.push_back(anyExpr(child));
  if (auto *cf = tl->compFor()) {
    Comp *comp = isList ? static_cast<Comp *>(make<ListComp>(r))
                        : make<GeneratorExp>(r);
    comp->elt = elts[0];
    if (llvm::isa<Starred>(comp->elt))
      error(comp->elt, isList ? "iterable unpacking cannot be used in "
                                "comprehension"
                              : "iterable unpacking cannot be used in "
                                "comprehension");
    comp->generators = comprehensions(cf);
    return comp;
  }
  if (!isList && elts.size() == 1 && tl->COMMA().empty()) {
    Expr *e = elts[0];
    if (llvm::isa<Starred>(e))
      error(e, "cannot use starred expression here");
    e->parenthesized = true;
    return e;
  }
  Sequence *seq = isList ? static_cast<Sequence *>(make<List>(r))
                         : make<Tuple>(r);
  seq->elts = list<Expr>(elts);
  return seq;
}

Expr *ASTBuilder::braceAtom(P::BraceAtomContext *c) {
  SourceRange r = rangeOf(c);
  P::DictOrSetMakerContext *m = c->dictOrSetMaker();
  if (!m)
    return make<Dict>(r);
  std::vector<P::DictOrSetItemContext *> items = m->dictOrSetItem();
  auto isDictItem = [](P::DictOrSetItemContext *i) {
    return i->POWER() || i->COLON();
  };
  bool isDict = isDictItem(items[0]);
  for (P::DictOrSetItemContext *i : items)
    if (isDictItem(i) != isDict) {
      error(startOf(i->getStart()),
            isDict ? "':' expected after dictionary key"
                   : "invalid syntax: a set display cannot have 'key: value' "
                     "items");
      break;
    }
  if (auto *cf = m->compFor()) {
    P::DictOrSetItemContext *i = items[0];
    if (isDict) {
      if (i->POWER()) {
        error(startOf(i->getStart()),
              "dict unpacking cannot be used in dict comprehension");
        return make<Dict>(r);
      }
      auto *e = make<DictComp>(r);
      e->key = namedExprTest(i->namedExprTest());
      e->value = test(i->test());
      e->generators = comprehensions(cf);
      return e;
    }
    auto *e = make<SetComp>(r);
    e->elt = i->starExpr() ? starExpr(i->starExpr())
                           : namedExprTest(i->namedExprTest());
    if (i->starExpr())
      error(e->elt, "iterable unpacking cannot be used in comprehension");
    e->generators = comprehensions(cf);
    return e;
  }
  if (isDict) {
    SmallVector<Expr *, 8> keys, values;
    for (P::DictOrSetItemContext *i : items) {
      if (i->POWER()) {
        keys.push_back(nullptr);
        values.push_back(bitExpr(i->bitExpr()));
        continue;
      }
      Expr *k = i->namedExprTest() ? namedExprTest(i->namedExprTest())
                                   : starExpr(i->starExpr());
      if (llvm::isa<NamedExpr>(k) && !k->parenthesized)
        error(k, "invalid syntax: unparenthesized ':=' in a dictionary key");
      keys.push_back(k);
      values.push_back(i->test() ? test(i->test()) : k);
    }
    auto *e = make<Dict>(r);
    e->keys = ctx.copy<Expr *>(keys);
    e->values = list<Expr>(values);
    return e;
  }
  SmallVector<Expr *, 8> elts;
  for (P::DictOrSetItemContext *i : items)
    elts.push_back(i->starExpr() ? starExpr(i->starExpr())
                                 : namedExprTest(i->namedExprTest()));
  auto *e = make<Set>(r);
  e->elts = list<Expr>(elts);
  return e;
}

// ---- Targets --------------------------------------------------------------------

const char *ASTBuilder::describe(const Expr *e) {
  switch (e->getKind()) {
  case NodeKind::Attribute: return "attribute";
  case NodeKind::Subscript: return "subscript";
  case NodeKind::Starred: return "starred";
  case NodeKind::Name: return "name";
  case NodeKind::List: return "list";
  case NodeKind::Tuple: return "tuple";
  case NodeKind::Lambda: return "lambda";
  case NodeKind::Call: return "function call";
  case NodeKind::BoolOp:
  case NodeKind::BinOp:
  case NodeKind::UnaryOp: return "expression";
  case NodeKind::GeneratorExp: return "generator expression";
  case NodeKind::Yield:
  case NodeKind::YieldFrom: return "yield expression";
  case NodeKind::Await: return "await expression";
  case NodeKind::ListComp: return "list comprehension";
  case NodeKind::SetComp: return "set comprehension";
  case NodeKind::DictComp: return "dict comprehension";
  case NodeKind::Dict: return "dict literal";
  case NodeKind::Set: return "set display";
  case NodeKind::JoinedStr:
  case NodeKind::FormattedValue: return "f-string expression";
  case NodeKind::Constant: {
    ConstantKind k = llvm::cast<Constant>(e)->kind;
    return k == ConstantKind::None      ? "None"
           : k == ConstantKind::True    ? "True"
           : k == ConstantKind::False   ? "False"
           : k == ConstantKind::Ellipsis ? "ellipsis"
                                         : "literal";
  }
  case NodeKind::Compare: return "comparison";
  case NodeKind::IfExp: return "conditional expression";
  case NodeKind::NamedExpr: return "named expression";
  default: return "expression";
  }
}

bool ASTBuilder::setTarget(Expr *e, TargetUse use) {
  ExprContext ectx =
      use == TargetUse::Delete ? ExprContext::Del : ExprContext::Store;
  switch (e->getKind()) {
  case NodeKind::Name:
  case NodeKind::Attribute:
  case NodeKind::Subscript:
    e->ctx = ectx;
    return true;
  case NodeKind::Starred:
    if (use == TargetUse::Delete) {
      error(e, "cannot delete starred");
      return false;
    }
    e->ctx = ectx;
    return setTarget(llvm::cast<Starred>(e)->value, use);
  case NodeKind::List:
  case NodeKind::Tuple:
    e->ctx = ectx;
    for (Expr *elt : llvm::cast<Sequence>(e)->elts)
      if (!setTarget(elt, use))
        return false;
    return true;
  default:
    break;
  }
  std::string what = describe(e);
  if (use == TargetUse::Delete)
    error(e, "cannot delete " + what);
  else if (use == TargetUse::Assign && llvm::isa<Compare, Call>(e))
    error(e, "cannot assign to " + what +
                 " here. Maybe you meant '==' instead of '='?");
  else
    error(e, "cannot assign to " + what);
  return false;
}

} // namespace detc::frontend
