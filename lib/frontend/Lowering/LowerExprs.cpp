//===- LowerExprs.cpp - Expressions, facts and lambdas --------------------===//

#include "Lowerer.h"

#include "detc/frontend/ASTDump.h"

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;


Effects Lowerer::lowerExpr(FuncCtx &f, const ast::Expr *e) {
  using namespace ast;
  Effects eff;
  if (!e)
    return eff;
  if (auto it = f.loweredAhead.find(e); it != f.loweredAhead.end()) {
    eff.uses.insert(it->second);
    return eff;
  }
  switch (e->getKind()) {
  case NodeKind::Constant:
    return eff;
  case NodeKind::Name:
  case NodeKind::Attribute: {
    std::string path = varPath(f, e);
    if (!path.empty()) {
      auto *n = llvm::dyn_cast<Name>(e);
      StringRef rootId = n ? n->id : StringRef();
      // Builtins (`len`, `range`) are not variables of the program.
      if (n && path[0] == '@' && !f.unit->moduleScope.locals.contains(rootId) &&
          !f.scope.globals.contains(rootId))
        return eff;
      eff.uses.insert(path);
      return eff;
    }
    if (auto *a = llvm::dyn_cast<Attribute>(e))
      if (qualName(f, e).empty())
        return lowerExpr(f, a->value);
    return eff;
  }
  case NodeKind::Call: {
    std::string t;
    if (lowerCall(f, llvm::cast<Call>(e), t, eff) && !t.empty())
      eff.uses.insert(t);
    return eff;
  }
  case NodeKind::Lambda:
    lowerLambda(f, llvm::cast<Lambda>(e));
    return eff;
  case NodeKind::NamedExpr: {
    auto *ne = llvm::cast<NamedExpr>(e);
    Effects v = lowerExpr(f, ne->value);
    std::string var = varPath(f, ne->target);
    assignFacts(f, ne->target, factsOf(f, ne->value));
    emit(ir::StmtOp::getOperationName(), e, {var}, v,
         {strAttr("kind", "assign")});
    eff.uses.insert(var);
    return eff;
  }
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
  case NodeKind::DictComp: {
    llvm::SmallVector<StringRef> targets;
    forEachChild(e, [&](StringRef, const Node *c) {
      if (auto *comp = llvm::dyn_cast<Comprehension>(c)) {
        // Over a loader (`[model(x) for x, _ in loader]`): the
        // comprehension fetches every batch, each example's __getitem__
        // in the workers, as a loop would. (Its element is not modelled
        // as a per-batch region: a loop statement is what training
        // steps are written as.) A loader made there runs first, as in a
        // loop's header.
        llvm::SmallVector<unsigned, 2> position;
        const Expr *items = unwrapIterable(*this, f, comp->iter, position);
        FactSet lf = factsOf(f, items);
        bool loader = !objectsOf(lf, ObjectInfo::Loader).empty();
        if (loader)
          lowerLoaderAhead(f, items, comp->iter, eff);
        eff.merge(lowerExpr(f, comp->iter));
        if (loader)
          emitFetch(f, comp, loaderHolder(f, items), lf, {});
        appendBoundNames(comp->target, targets);
        for (const Expr *cond : comp->ifs)
          eff.merge(lowerExpr(f, cond));
      } else if (auto *ex = llvm::dyn_cast<Expr>(c)) {
        eff.merge(lowerExpr(f, ex));
      }
    });
    // The comprehension's own targets are not variables of the function.
    for (StringRef t : targets) {
      std::string v = varName(f, t);
      eff.uses.remove(v);
      eff.updates.remove(v);
    }
    return eff;
  }
  case NodeKind::YieldFrom: {
    // `yield from loader` (guided-diffusion's `while True: yield from
    // loader`): the generator fetches the loader's batches and hands them
    // to its caller, as `for b in loader: yield b` does.
    const Expr *items = llvm::cast<YieldFrom>(e)->value;
    eff = lowerExpr(f, items);
    FactSet lf = factsOf(f, items);
    if (!objectsOf(lf, ObjectInfo::Loader).empty()) {
      emitFetch(f, e, loaderHolder(f, items), lf, {});
      noteYieldsBatches(f, lf);
    }
    return eff;
  }
  default:
    forEachChild(e, [&](StringRef, const Node *c) {
      if (auto *ex = llvm::dyn_cast<Expr>(c))
        eff.merge(lowerExpr(f, ex));
      else if (auto *kw = llvm::dyn_cast<Keyword>(c))
        eff.merge(lowerExpr(f, kw->value));
    });
    return eff;
  }
}

std::string Lowerer::lowerToVar(FuncCtx &f, const ast::Expr *e, Effects &out) {
  if (auto it = f.loweredAhead.find(e); it != f.loweredAhead.end()) {
    out.uses.insert(it->second);
    return it->second;
  }
  if (auto *call = llvm::dyn_cast<ast::Call>(e)) {
    std::string t;
    if (lowerCall(f, call, t, out)) {
      out.uses.insert(t);
      return t;
    }
    return "";
  }
  Effects eff = lowerExpr(f, e);
  out.merge(eff);
  std::string path = varPath(f, e);
  return eff.uses.count(path) ? path : "";
}

std::string Lowerer::lowerLambda(FuncCtx &f, const ast::Lambda *lambda) {
  auto it = lambdaSymbols.find(lambda);
  if (it != lambdaSymbols.end())
    return it->second.str();
  const ast::SourcePos &p = lambda->getRange().begin;
  std::string base =
      (f.isModule || f.isClassBody)
          ? (f.unit->moduleName == "__main__" ? std::string()
                                              : f.unit->moduleName + ".")
          : f.symbol + ".";
  std::string symbol =
      uniqueSymbol(moduleSymbols, base + "<lambda>@" + std::to_string(p.line) +
                                      ":" + std::to_string(p.column + 1));
  lambdaSymbols[lambda] = builder.getStringAttr(symbol);
  lambdasThisPass.insert(symbol);

  FuncCtx inner;
  inner.unit = f.unit;
  inner.parent = (f.isModule || f.isClassBody) ? nullptr : &f;
  inner.symbol = symbol;
  const ast::Node *body[] = {lambda->body};
  inner.scope = computeFunctionScope(lambda->args, body);
  auto params = getParamNames(lambda->args);
  std::vector<std::string> paramStrs(params.begin(), params.end());
  ArrayAttr paramAttr = strArray(paramStrs);
  funcParams[symbol] = paramAttr;

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module->getBody());
  createFunc(lambda, symbol, ir::FuncKind::Lambda, paramAttr);
  Effects eff = lowerExpr(inner, lambda->body);
  addFacts("ret:" + symbol, factsOf(inner, lambda->body));
  emit(ir::ReturnOp::getOperationName(), lambda->body, {}, eff);
  return symbol;
}

/// Facts that survive computing with a value (which model it came from).
static FactSet derivedFacts(const FactSet &in) {
  FactSet out;
  for (const std::string &f : in)
    if (StringRef(f).starts_with("from:") || StringRef(f).starts_with("out:"))
      out.insert(f);
  return out;
}

/// Whether `facts` name an object the lowering tracks or an instance of
/// the program's classes.
static bool holdsObjects(const FactSet &facts) {
  return llvm::any_of(facts, [](const std::string &fact) {
    return StringRef(fact).starts_with("obj:") ||
           StringRef(fact).starts_with("inst:");
  });
}

/// The facts of a value that may be any of `alternatives` (`a if c else
/// b`, `a or b`): their union, where a constant some alternative is not
/// (`int(argv[1]) if len(argv) > 1 else 0`) stays a value that may be
/// other than the constants ("const:?"): the union of {0} and nothing
/// known was 0, and a worker count a script reads from its command line
/// was none.
static FactSet anyOf(llvm::ArrayRef<FactSet> alternatives) {
  auto isConst = [](const std::string &fact) {
    return StringRef(fact).starts_with("const:");
  };
  FactSet out;
  bool someConst = false, someOther = false;
  for (const FactSet &a : alternatives) {
    out.insert(a.begin(), a.end());
    bool c = llvm::any_of(a, isConst);
    someConst |= c;
    someOther |= !c;
  }
  if (someConst && someOther)
    out.insert("const:?");
  return out;
}

FactSet Lowerer::factsOf(FuncCtx &f, const ast::Expr *e) {
  using namespace ast;
  FactSet out;
  if (!e)
    return out;
  switch (e->getKind()) {
  case NodeKind::Constant: {
    auto *c = llvm::cast<Constant>(e);
    switch (c->kind) {
    case ConstantKind::True:
      return {"const:True"};
    case ConstantKind::False:
      return {"const:False"};
    case ConstantKind::None:
      return {"const:None"};
    case ConstantKind::Int:
    case ConstantKind::Float:
    case ConstantKind::Str:
      return {"const:" + c->value.str()};
    default:
      return out;
    }
  }
  case NodeKind::Name:
  case NodeKind::Attribute: {
    std::string path = varPath(f, e);
    if (!path.empty()) {
      out = factsOfVar(f, path);
      // An attribute of an object the facts do not follow (a library's
      // namespace object holding the loaders: `loaders.src`).
      if (llvm::isa<Attribute>(e) && !holdsObjects(out))
        addPointsToFacts(e, out);
      return out;
    }
    std::string q = qualName(f, e);
    if (!q.empty())
      out.insert("lib:" + q);
    return out;
  }
  case NodeKind::Call: {
    auto it = callFacts.find(e);
    return it == callFacts.end() ? out : it->second;
  }
  case NodeKind::Lambda: {
    std::string sym = lowerLambda(f, llvm::cast<Lambda>(e));
    // Made in a function that never runs (a subclass's override of a
    // class never instantiated): no value holds it. Its facts merged
    // into a shared helper's parameter (`default(val, d)`, which calls
    // `d()`) made every call there a call of it.
    if (pointsTo && pointsTo->neverMade(e))
      return out;
    return {"func:" + sym};
  }
  case NodeKind::Starred:
    return factsOf(f, llvm::cast<Starred>(e)->value);
  case NodeKind::NamedExpr:
    return factsOf(f, llvm::cast<NamedExpr>(e)->value);
  case NodeKind::IfExp: {
    auto *i = llvm::cast<IfExp>(e);
    return anyOf({factsOf(f, i->body), factsOf(f, i->orelse)});
  }
  case NodeKind::BoolOp: {
    std::vector<FactSet> values;
    for (const Expr *v : llvm::cast<BoolOp>(e)->values)
      values.push_back(factsOf(f, v));
    return anyOf(values);
  }
  case NodeKind::Dict: {
    auto *d = llvm::cast<Dict>(e);
    for (size_t i = 0; i < d->keys.size(); ++i) {
      FactSet v = factsOf(f, d->values[i]);
      if (!d->keys[i]) { // `**other`
        for (const std::string &fact : v)
          if (StringRef(fact).starts_with("key:"))
            out.insert(fact);
        continue;
      }
      auto *k = llvm::dyn_cast<Constant>(d->keys[i]);
      if (!k || k->kind != ConstantKind::Str)
        continue;
      bool any = false;
      for (const std::string &fact : v)
        if (!StringRef(fact).starts_with("key:")) { // No nested dicts.
          out.insert("key:" + k->value.str() + "=" + fact);
          any = true;
        }
      if (!any)
        out.insert("key:" + k->value.str() + "=?");
    }
    return out;
  }
  case NodeKind::Subscript: {
    auto *s = llvm::cast<Subscript>(e);
    FactSet base = factsOf(f, s->value);
    if (auto *k = llvm::dyn_cast<Constant>(s->slice);
        k && k->kind == ConstantKind::Str) {
      std::string prefix = "key:" + k->value.str() + "=";
      for (const std::string &fact : base)
        if (StringRef(fact).starts_with(prefix) &&
            fact.size() > prefix.size() && fact.substr(prefix.size()) != "?")
          out.insert(fact.substr(prefix.size()));
    }
    FactSet d = derivedFacts(base);
    out.insert(d.begin(), d.end());
    // An element the facts do not follow (`dataloaders[phase]` of a dict
    // a comprehension built): what the points-to says it holds.
    if (!holdsObjects(out))
      addPointsToFacts(e, out);
    return out;
  }
  default:
    // Arithmetic and the like: keep which models the value came from.
    forEachChild(e, [&](StringRef, const Node *c) {
      if (auto *ex = llvm::dyn_cast<Expr>(c)) {
        FactSet d = derivedFacts(factsOf(f, ex));
        out.insert(d.begin(), d.end());
      }
    });
    return out;
  }
}
