//===- LowerLoops.cpp - Assignments, loops and loader iteration -----------===//

#include "Lowerer.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;

/// Splits assignment targets into whole-variable definitions and in-place
/// updates (`x[i] = v`, `f().a = v`), lowering the expressions they read.
static void collectTargets(Lowerer &l, FuncCtx &f, const ast::Expr *t,
                           std::vector<std::string> &defs, Effects &eff) {
  if (auto *seq = llvm::dyn_cast<ast::Sequence>(t)) {
    for (const ast::Expr *e : seq->elts)
      collectTargets(l, f, e, defs, eff);
    return;
  }
  if (auto *st = llvm::dyn_cast<ast::Starred>(t))
    return collectTargets(l, f, st->value, defs, eff);
  std::string path = l.varPath(f, t);
  if (!path.empty() &&
      (llvm::isa<ast::Name>(t) || llvm::isa<ast::Attribute>(t))) {
    defs.push_back(path);
    return;
  }
  if (auto *sub = llvm::dyn_cast<ast::Subscript>(t)) {
    std::string base = l.varPath(f, sub->value);
    eff.merge(l.lowerExpr(f, sub->slice));
    if (!base.empty()) {
      eff.updates.insert(base);
      eff.uses.insert(base);
    } else {
      eff.merge(l.lowerExpr(f, sub->value));
    }
    return;
  }
  if (auto *a = llvm::dyn_cast<ast::Attribute>(t)) {
    Effects inner = l.lowerExpr(f, a->value);
    eff.merge(inner);
    return;
  }
  eff.merge(l.lowerExpr(f, t));
}

bool frontend::isWithin(const ast::Expr *e, const ast::Expr *within) {
  llvm::SmallVector<const ast::Node *, 8> work{within};
  while (!work.empty()) {
    const ast::Node *x = work.pop_back_val();
    if (x == e)
      return true;
    if (x && !isa<ast::Lambda>(x))
      forEachChild(x, [&](StringRef, const ast::Node *c) { work.push_back(c); });
  }
  return false;
}

void Lowerer::lowerAssign(FuncCtx &f, const ast::Stmt *s,
                          llvm::ArrayRef<ast::Expr *> targets,
                          const ast::Expr *value) {
  StringRef kind = llvm::isa<ast::AnnAssign>(s) ? "annassign" : "assign";
  // `pbar = enumerate(loader)`, `pbar = tqdm(pbar)`: a loop over `pbar` is
  // a loop over the loader (unwrapIterable); any other value forgets it.
  if (targets.size() == 1 && llvm::isa<ast::Name>(targets[0]) && value) {
    std::string path = varPath(f, targets[0]);
    llvm::SmallVector<unsigned, 2> position;
    bool throughUnread = false;
    const ast::Expr *items =
        unwrapIterable(*this, f, value, position, &throughUnread);
    // (A progress bar alone, `pbar = tqdm(DataLoader(D()))`, too; but not
    // one of code detc does not read, yolov5's `TQDM(dataloader)`: a loop
    // over it iterates what that code yields, which runs there.)
    if (items != value && !path.empty() &&
        (!position.empty() || !throughUnread)) {
      f.wrappedIterables[path] = {items, position};
      // The loader made inside the wrapper (`it = enumerate(DataLoader(
      // D()))`) runs first, into the variable a loop over `it` keys its
      // batches by (as in a loop's header).
      if (!objectsOf(factsOf(f, items), ObjectInfo::Loader).empty()) {
        Effects ahead;
        lowerLoaderAhead(f, items, value, ahead);
      }
    } else {
      f.wrappedIterables.erase(path);
    }
    auto *call = llvm::dyn_cast<ast::Call>(value);
    const ApiEntry *entry =
        call ? api.lookup(qualName(f, call->func)) : nullptr;
    if (entry && entry->role == "bind" && !call->args.empty() &&
        !path.empty())
      f.partialsMade[path] = call;
    else
      f.partialsMade.erase(path);
  }
  // `x = call(...)`: a call with its own op defines the target directly.
  if (auto *call = llvm::dyn_cast<ast::Call>(value);
      call && targets.size() == 1) {
    std::string path = varPath(f, targets[0]);
    if (!path.empty() && (llvm::isa<ast::Name>(targets[0]) ||
                          llvm::isa<ast::Attribute>(targets[0]))) {
      std::string target = path;
      Effects eff;
      if (lowerCall(f, call, target, eff)) {
        assignFacts(f, targets[0], factsOf(f, value));
        // The op defined something else (a generator): the target is a
        // copy of it. The op defined nothing (`z = loss.backward()`, a
        // call whose result is None): the target is defined from nothing.
        if (target.empty())
          emit(ir::StmtOp::getOperationName(), s, {path}, Effects(),
               {strAttr("kind", kind)});
        else if (target != path)
          emit(ir::StmtOp::getOperationName(), s, {path},
               [&] {
                 Effects e;
                 e.uses.insert(target);
                 return e;
               }(),
               {strAttr("kind", kind), attr("copy", builder.getUnitAttr())});
        notePrepared(f, s, targets, value);
        return;
      }
      std::vector<std::string> defs{path};
      llvm::SmallVector<NamedAttribute> attrs{strAttr("kind", kind)};
      addRestores(f, value, attrs);
      emit(ir::StmtOp::getOperationName(), s, defs, eff, attrs);
      assignFacts(f, targets[0], factsOf(f, value));
      notePrepared(f, s, targets, value);
      return;
    }
  }

  Effects eff = lowerExpr(f, value);
  std::vector<std::string> defs;
  for (const ast::Expr *t : targets)
    collectTargets(*this, f, t, defs, eff);

  // Facts: whole values, tuple unpacking of displays, and dict entries
  // stored by subscript (`kw["num_workers"] = 2`).
  FactSet vf = factsOf(f, value);
  // A call handing back its arguments in order (`returns=args`:
  // accelerate's `model, opt = accelerator.prepare(model, opt)`): each
  // target is its argument.
  auto *vcall = llvm::dyn_cast<ast::Call>(value);
  const ApiEntry *ventry =
      vcall ? api.lookup(qualName(f, vcall->func)) : nullptr;
  if (vcall && !ventry)
    if (auto *m = llvm::dyn_cast<ast::Attribute>(vcall->func))
      for (const std::string &fact : factsOf(f, m->value))
        if (StringRef(fact).starts_with("type:") &&
            (ventry = api.lookupMethod(StringRef(fact).drop_front(5),
                                       m->attr)))
          break;
  bool returnsArgs = ventry && ventry->get("returns") == "args" &&
                     vcall->keywords.empty() &&
                     llvm::none_of(vcall->args, [](const ast::Expr *a) {
                       return llvm::isa<ast::Starred>(a);
                     });
  for (const ast::Expr *t : targets) {
    auto *seq = llvm::dyn_cast<ast::Sequence>(t);
    auto *vseq = llvm::dyn_cast<ast::Sequence>(value);
    if (seq && vseq && seq->elts.size() == vseq->elts.size()) {
      for (size_t i = 0; i < seq->elts.size(); ++i)
        assignFacts(f, seq->elts[i], factsOf(f, vseq->elts[i]));
      continue;
    }
    if (seq && returnsArgs && seq->elts.size() == vcall->args.size()) {
      for (size_t i = 0; i < seq->elts.size(); ++i)
        assignFacts(f, seq->elts[i], factsOf(f, vcall->args[i]));
      continue;
    }
    if (auto *sub = llvm::dyn_cast<ast::Subscript>(t)) {
      auto *k = llvm::dyn_cast<ast::Constant>(sub->slice);
      std::string base = varPath(f, sub->value);
      if (k && k->kind == ast::ConstantKind::Str && !base.empty()) {
        FactSet entries;
        for (const std::string &v : vf)
          if (!StringRef(v).starts_with("key:"))
            entries.insert("key:" + k->value.str() + "=" + v);
        if (entries.empty())
          entries.insert("key:" + k->value.str() + "=?");
        assignVarFacts(f, base, entries);
      }
      continue;
    }
    assignFacts(f, t, vf);
  }

  llvm::SmallVector<NamedAttribute> attrs{strAttr("kind", kind)};
  bool isCopy = defs.size() == 1 && eff.uses.size() == 1 &&
                eff.updates.empty() && targets.size() == 1 &&
                !varPath(f, value).empty() &&
                eff.uses.front() == varPath(f, value);
  if (isCopy)
    attrs.push_back(attr("copy", builder.getUnitAttr()));
  // `state = {...}` and `state["opt"] = opt.state_dict()`: what a
  // checkpoint saving `state` restores.
  if (targets.size() == 1 && !isCopy &&
      isa<ast::Name, ast::Attribute, ast::Subscript>(targets[0]) &&
      !(defs.empty() && eff.updates.empty()))
    addRestores(f, value, attrs);
  emit(ir::StmtOp::getOperationName(), s, defs, eff, attrs);
  notePrepared(f, s, targets, value);
}

void Lowerer::notePrepared(FuncCtx &f, const ast::Stmt *s,
                           llvm::ArrayRef<ast::Expr *> targets,
                           const ast::Expr *value) {
  // `model, opt, loader = accelerator.prepare(model, opt, loader)`: the
  // accelerator's save_state saves what prepare returned.
  auto *call = dyn_cast<ast::Call>(value);
  auto *fn = call ? dyn_cast<ast::Attribute>(call->func) : nullptr;
  if (!fn || fn->attr != "prepare" || targets.size() != 1)
    return;
  std::string recv = varPath(f, fn->value);
  if (recv.empty() ||
      !factsOf(f, fn->value).count("type:accelerate.Accelerator"))
    return;
  std::vector<std::string> prepared;
  if (auto *seq = dyn_cast<ast::Sequence>(targets[0])) {
    for (const ast::Expr *e : seq->elts)
      if (std::string v = varPath(f, e); !v.empty())
        prepared.push_back(v);
  } else if (std::string v = varPath(f, targets[0]); !v.empty()) {
    prepared.push_back(v);
  }
  if (prepared.empty())
    return;
  Effects eff;
  eff.updates.insert(recv);
  eff.uses.insert(prepared.begin(), prepared.end());
  llvm::SmallVector<NamedAttribute> attrs{
      strAttr("kind", "assign"), attr("restores", strArray(prepared))};
  // prepare makes a new DataLoader over a loader's sampler (the one the
  // script then iterates): the transform keys torch's DataLoader where
  // the library constructs it (`rebuilds_loaders`).
  if (llvm::any_of(call->args, [&](const ast::Expr *a) {
        return !objectsOf(factsOf(f, a), ObjectInfo::Loader).empty();
      }))
    attrs.push_back(attr("rebuilds_loaders", builder.getUnitAttr()));
  emit(ir::StmtOp::getOperationName(), s, {}, eff, attrs);
}

void Lowerer::addRestores(FuncCtx &f, const ast::Expr *value,
                          llvm::SmallVectorImpl<NamedAttribute> &attrs) {
  // Only values that hold state: a display or dict(...) of state dicts, a
  // state dict (also a library's of its argument: timm's
  // `get_state_dict(model_ema)`, API key `state_of`). `a = b` is a copy,
  // `n = epoch + 1` restores nothing.
  auto *call = dyn_cast<ast::Call>(value);
  auto *callee = call ? dyn_cast<ast::Attribute>(call->func) : nullptr;
  auto *name = call ? dyn_cast<ast::Name>(call->func) : nullptr;
  const ApiEntry *entry = call ? api.lookup(qualName(f, call->func)) : nullptr;
  if (!isa<ast::Dict>(value) && !(callee && callee->attr == "state_dict") &&
      !(name && name->id == "dict") &&
      !(entry && !entry->getArg("state_of").empty()))
    return;
  std::vector<std::string> restored = restoredBy(f, value);
  if (!restored.empty())
    attrs.push_back(attr("restores", strArray(restored)));
}

/// `enumerate(x)`, `tqdm(x)`, `iter(x)`, `islice(x, n)` iterate `x`'s
/// items, and `zip(a, x)` pairs them with another's: the expression whose
/// items the loop gets, and in `position` the path through the loop's
/// target tuples to the item (`for i, (a, batch) in enumerate(zip(a,
/// loader))`: {1, 1}).
const ast::Expr *
frontend::unwrapIterable(Lowerer &l, FuncCtx &f, const ast::Expr *iter,
                         llvm::SmallVectorImpl<unsigned> &position,
                         bool *throughUnread) {
  position.clear();
  if (throughUnread)
    *throughUnread = false;
  auto builtin = [&](const ast::Call *call, StringRef name) {
    auto *n = llvm::dyn_cast<ast::Name>(call->func);
    return n && n->id == name && l.qualName(f, call->func).empty() &&
           l.varPath(f, call->func).rfind("@", 0) == 0 &&
           !f.unit->moduleScope.locals.contains(name);
  };
  for (int depth = 0; depth < 4; ++depth) {
    // A variable holding such an iterator (`pbar = enumerate(loader)`).
    if (auto *n = llvm::dyn_cast<ast::Name>(iter))
      if (auto it = f.wrappedIterables.find(l.varPath(f, n));
          it != f.wrappedIterables.end()) {
        position.append(it->second.position.begin(),
                        it->second.position.end());
        iter = it->second.items;
        continue;
      }
    auto *call = llvm::dyn_cast<ast::Call>(iter);
    if (!call || call->args.empty())
      return iter;
    std::string q = l.qualName(f, call->func);
    auto *n = llvm::dyn_cast<ast::Name>(call->func);
    bool isWrapper = builtin(call, "iter") ||
                     (!q.empty() && iteratesItsArgument(l.api, q));
    if (!isWrapper && l.callsUnknownCode(call->func)) {
      // A callable detc cannot read given the loader (yolov5's `TQDM`,
      // a progress bar from a package that is not installed): it may
      // iterate it, so the loop may be over the loader's batches.
      llvm::SmallVector<unsigned, 2> inner;
      const ast::Expr *items = unwrapIterable(l, f, call->args[0], inner);
      isWrapper =
          !l.objectsOf(l.factsOf(f, items), ObjectInfo::Loader).empty();
      if (isWrapper && throughUnread)
        *throughUnread = true;
    }
    if (builtin(call, "enumerate")) {
      position.push_back(1);
    } else if (builtin(call, "zip")) {
      // The first argument that is (or wraps) a loader.
      unsigned k = 0;
      for (; k < call->args.size(); ++k) {
        llvm::SmallVector<unsigned, 2> inner;
        const ast::Expr *items = unwrapIterable(l, f, call->args[k], inner);
        if (!l.objectsOf(l.factsOf(f, items), ObjectInfo::Loader).empty())
          break;
      }
      if (k == call->args.size() || llvm::isa<ast::Starred>(call->args[k]))
        return iter;
      position.push_back(k);
      iter = call->args[k];
      continue;
    } else if (!isWrapper) {
      return iter;
    }
    iter = call->args[0];
  }
  return iter;
}

std::optional<std::string>
Lowerer::libraryPipelineLoader(const ast::For *loop, const ast::Expr *items) {
  if (!pointsTo || !trainsInBody(loop->body))
    return std::nullopt;
  // The library objects the loop may iterate, and those they were made
  // from, a few levels down (WebLoader <- DataPipeline <- map(fn)).
  std::vector<PointsToResult::ObjectId> stages;
  llvm::DenseSet<PointsToResult::ObjectId> seen;
  for (PointsToResult::ObjectId o : pointsTo->pointsTo(items))
    if (pointsTo->object(o).kind == AbstractObject::Kind::Library &&
        seen.insert(o).second)
      stages.push_back(o);
  if (stages.empty())
    return std::nullopt;
  FactSet held;
  for (size_t i = 0, level = 0, end = stages.size();
       i < stages.size() && level < 4; ++i) {
    if (i == end) {
      ++level;
      end = stages.size();
    }
    llvm::ArrayRef<PointsToResult::ObjectId> given = heldObjects(stages[i]);
    addCallables(given, held);
    for (PointsToResult::ObjectId g : given)
      if (pointsTo->object(g).kind == AbstractObject::Kind::Library &&
          seen.insert(g).second)
        stages.push_back(g);
  }
  std::optional<UnreadReason> why = whyObjectsUnread(stages, "");
  std::vector<std::string> fns;
  std::vector<ObjectInfo::BoundMethod> callables;
  for (const std::string &fact : held)
    if (StringRef(fact).starts_with("func:"))
      fns.push_back(fact.substr(5));
    else if (StringRef(fact).starts_with("inst:"))
      callables.push_back({fact.substr(5), "__call__", FactSet{fact}});
  if (fns.empty() && callables.empty() && !why)
    return std::nullopt;
  // A loader of that pipeline: its examples run the program's callables
  // it was made from, and code detc does not read, in workers it does not
  // know the number of.
  std::string id = objectId('l', loop);
  ObjectInfo &o = object(id, ObjectInfo::Loader);
  o.workers = "unknown";
  o.perExampleFns = fns;
  o.perExampleMethods = callables;
  if (why && currentUnit) {
    std::string dsId = objectId('d', loop);
    ObjectInfo &ds = object(dsId, ObjectInfo::Dataset);
    UnreadReason r = *why;
    r.why = "the examples of a pipeline of " + r.why;
    ds.unreadTransform = unreadEntry(*currentUnit, items, r, false);
    objects[id].datasetFacts.insert("obj:" + dsId);
  }
  return id;
}

/// Whether statements `body` yield (outside nested functions and classes).
static bool yieldsIn(ast::NodeList<ast::Stmt> body) {
  llvm::SmallVector<const ast::Node *, 16> work(body.begin(), body.end());
  while (!work.empty()) {
    const ast::Node *x = work.pop_back_val();
    if (!x || isa<ast::FunctionDef, ast::ClassDef, ast::Lambda>(x))
      continue;
    if (isa<ast::Yield>(x))
      return true;
    forEachChild(x, [&](StringRef, const ast::Node *c) { work.push_back(c); });
  }
  return false;
}

void Lowerer::lowerLoaderAhead(FuncCtx &f, const ast::Expr *items,
                               const ast::Expr *holder, Effects &out) {
  if (!llvm::isa<ast::Call>(items) || !isWithin(items, holder) ||
      f.loweredAhead.count(items))
    return;
  if (std::string var = lowerToVar(f, items, out); !var.empty())
    f.loweredAhead[items] = var;
}

void Lowerer::lowerFor(FuncCtx &f, const ast::For *loop) {
  llvm::SmallVector<unsigned, 2> position;
  const ast::Expr *items = unwrapIterable(*this, f, loop->iter, position);
  FactSet itemFacts = factsOf(f, items);
  // A training loop over a library's pipeline detc has no loader model of
  // (webdataset's WebLoader over a DataPipeline of the program's map
  // functions): a loader whose examples run what the pipeline was made
  // of (sound by default: they were silent).
  if (objectsOf(itemFacts, ObjectInfo::Loader).empty())
    if (std::optional<std::string> id = libraryPipelineLoader(loop, items))
      itemFacts.insert("obj:" + *id);
  // An instance of the program's class whose `__iter__` yields a loader's
  // batches (pix2pix's, CycleGAN's and CUT's CustomDatasetDataLoader:
  // `for i, data in enumerate(dataset)`): iterating it iterates that
  // loader, as calling a generator function that yields one does.
  if (objectsOf(itemFacts, ObjectInfo::Loader).empty()) {
    for (const std::string &sym : iterMethodsOf(f, items)) {
      if (!facts.count("yields-batches:" + sym))
        continue;
      if (auto it = facts.find("ret:" + sym); it != facts.end())
        itemFacts.insert(it->second.begin(), it->second.end());
    }
  }
  if (!objectsOf(itemFacts, ObjectInfo::Loader).empty()) {
    // The batch's target, and the other names the loop binds (the index
    // of enumerate, the items zip pairs the batch with).
    std::vector<const ast::Expr *> otherTargets;
    const ast::Expr *target = loop->target;
    for (unsigned at : position) {
      auto *tuple = llvm::dyn_cast<ast::Tuple>(target);
      if (!tuple || at >= tuple->elts.size() ||
          llvm::any_of(tuple->elts, [](const ast::Expr *e) {
            return llvm::isa<ast::Starred>(e);
          }))
        break;
      for (unsigned i = 0; i < tuple->elts.size(); ++i)
        if (i != at)
          otherTargets.push_back(tuple->elts[i]);
      target = tuple->elts[at];
    }
    // A loader made in the loop's header (`for x in DataLoader(D(), ...)`,
    // also inside its wrappers: `enumerate(tqdm(DataLoader(...)))`) is the
    // call's temporary, whose dataset is the object the call was given: a
    // generator the dataset's constructor made is that one (a fresh name
    // had no dataset detc saw made, and such a generator was "not created
    // by the program"). The call runs first, as Python runs it.
    Effects iterEff;
    lowerLoaderAhead(f, items, loop->iter, iterEff);
    iterEff.merge(lowerExpr(f, loop->iter));
    std::string loaderVar = loaderHolder(f, items);
    return lowerLoaderLoop(f, loop, loaderVar, itemFacts, otherTargets,
                           target, iterEff);
  }

  Effects eff = lowerExpr(f, loop->iter);
  std::vector<std::string> defs;
  collectTargets(*this, f, loop->target, defs, eff);
  Operation *op = emit(ir::ForOp::getOperationName(), loop, defs, eff, {}, 2);
  bool batches = isManualBatchLoop(f, loop, items);
  bool counted =
      !batches && batchRegionDepth == 0 && isCountedStepLoop(f, loop, items);
  // A generator whose own loop cuts the batches it yields (hlb-CIFAR10's
  // `get_batches`: `yield images.index_select(0, shuffled[i*bs:(i+1)*bs])`
  // over GPU-resident tensors, no loader): its callers' loops over it are
  // batch loops, as over one yielding a loader's batches.
  if (batches && yieldsIn(loop->body))
    noteYieldsBatches(f, {});
  // Its variables stand for parameters of the objects it goes over, while
  // its body is lowered (elementRoots).
  auto outer = elementRoots;
  if (std::vector<std::string> roots = elementRootsOf(f, loop->iter);
      !roots.empty())
    for (const std::string &d : defs)
      if (!d.empty() && d[0] != '$')
        elementRoots[d].append(roots.begin(), roots.end());
  lowerLoopRegions(
      f, op,
      [&] {
        if (!batches && !counted)
          return lowerBody(f, loop->body);
        // One batch, cut by hand (or one counted step's): like a loader's
        // batch, its examples may be processed concurrently.
        emitBatchRegion(
            loop, defs, [&] { lowerBody(f, loop->body); }, counted);
      },
      loop->orelse);
  elementRoots = std::move(outer);
}

std::vector<std::string> Lowerer::elementRootsOf(FuncCtx &f,
                                                 const ast::Expr *iter) {
  // The methods of a module or optimizer whose items are its own tensors
  // or submodules (in place, a change of one changes the object), and the
  // views of a state dict.
  static constexpr llvm::StringLiteral kParts[] = {
      "parameters", "named_parameters", "buffers", "named_buffers",
      "modules",    "named_modules",    "children", "named_children",
      "state_dict", "values",           "items"};
  std::vector<std::string> roots;
  std::function<void(const ast::Expr *)> visit = [&](const ast::Expr *e) {
    // An optimizer's groups (`for g in optimizer.param_groups: g['lr'] =
    // lr`, the learning-rate schedules written by hand).
    if (auto *a = llvm::dyn_cast_or_null<ast::Attribute>(e);
        a && a->attr == "param_groups") {
      std::string v = varPath(f, a->value);
      if (!v.empty() && v[0] != '$' && !llvm::is_contained(roots, v))
        roots.push_back(v);
      return;
    }
    auto *c = llvm::dyn_cast_or_null<ast::Call>(e);
    if (!c)
      return;
    if (auto *m = llvm::dyn_cast<ast::Attribute>(c->func);
        m && llvm::is_contained(kParts, m->attr)) {
      if (llvm::isa<ast::Call>(m->value))
        return visit(m->value); // `model.state_dict().values()`
      std::string v = varPath(f, m->value);
      if (!v.empty() && v[0] != '$' && !llvm::is_contained(roots, v))
        roots.push_back(v);
      return;
    }
    // Through the builtins that pair or count items.
    if (auto *n = llvm::dyn_cast<ast::Name>(c->func);
        n && !isBoundName(f, n->id) &&
        (n->id == "zip" || n->id == "enumerate" || n->id == "list" ||
         n->id == "reversed"))
      for (const ast::Expr *a : c->args)
        visit(a);
  };
  visit(iter);
  return roots;
}

void Lowerer::emitBatchRegion(const ast::Node *at,
                              llvm::ArrayRef<std::string> uses,
                              llvm::function_ref<void()> body, bool counted) {
  Effects pe;
  pe.uses.insert(uses.begin(), uses.end());
  llvm::SmallVector<mlir::NamedAttribute, 2> attrs{attr(
      "kind", ir::ParallelKindAttr::get(&ctx, ir::ParallelKind::PerBatch))};
  if (counted)
    attrs.push_back(attr("counted", mlir::UnitAttr::get(&ctx)));
  Operation *par =
      emit(ir::ParallelOp::getOperationName(), at, {}, pe, attrs, 1);
  ++batchRegionDepth;
  inRegion(par, 0, body);
  --batchRegionDepth;
}

/// Whether `e` reads one of `names`.
static bool mentions(const ast::Expr *e, const llvm::StringSet<> &names) {
  llvm::SmallVector<const ast::Node *, 8> work{e};
  while (!work.empty()) {
    const ast::Node *x = work.pop_back_val();
    if (auto *n = dyn_cast_or_null<ast::Name>(x); n && names.contains(n->id))
      return true;
    if (x)
      forEachChild(x, [&](StringRef, const ast::Node *c) { work.push_back(c); });
  }
  return false;
}

/// Whether `e` is an offset computed from one of `names` by arithmetic
/// (`i`, `i * bs`, `(i + 1) * bs`): where a batch starts. A call of it
/// (`sum(depths[:i])`, how Swin's constructor cuts its drop-path rates per
/// layer) computes something else.
static bool offsetOf(const ast::Expr *e, const llvm::StringSet<> &names) {
  if (auto *n = dyn_cast_or_null<ast::Name>(e))
    return names.contains(n->id);
  if (auto *b = dyn_cast_or_null<ast::BinOp>(e))
    return offsetOf(b->left, names) || offsetOf(b->right, names);
  if (auto *u = dyn_cast_or_null<ast::UnaryOp>(e))
    return offsetOf(u->operand, names);
  return false;
}

/// Whether a callee's name says it fetches a batch: `get_batch`,
/// `next_batch`, `self.loadBatch`, `batches` — a word `batch` or
/// `batches` of its last name, not one of a batch's properties or layers
/// (`freeze_batch_norm_2d(child)` over a model's children, open_clip's,
/// is no batch loop; nor `batch_size(i)`).
static bool namesBatchFetch(StringRef callee) {
  StringRef last = callee.rsplit('.').second;
  if (last.empty())
    last = callee;
  // Words split at `_` and at a lower-to-upper case change.
  llvm::SmallVector<std::string, 4> words(1);
  for (size_t i = 0; i < last.size(); ++i) {
    char c = last[i];
    if (c == '_' || (i > 0 && llvm::isUpper(c) && llvm::isLower(last[i - 1])))
      words.emplace_back();
    if (c != '_')
      words.back().push_back(llvm::toLower(c));
  }
  bool batch = false;
  for (const std::string &w : words) {
    if (w == "norm" || w == "normalization" || w == "size" || w == "sizes" ||
        w == "stats")
      return false;
    batch |= w == "batch" || w == "batches";
  }
  return batch;
}

bool Lowerer::isManualBatchLoop(FuncCtx &f, const ast::For *loop,
                                const ast::Expr *items) {
  auto *call = dyn_cast<ast::Call>(items);
  // A generator of the script that yields a loader's batches
  // (`for x, y in log_every(loader, 10)`), or a method of the script's
  // class that does (`metric_logger.log_every(loader, 10)`, as DINO and
  // DeiT iterate their loaders).
  if (call && calleeHasFact(f, call, "yields-batches:"))
    return true;
  // An iterator of code detc cannot read (torchtext's BucketIterator, a
  // package that is not installed) whose loop trains (its own body calls
  // `backward`): sound by default, its items are batches.
  bool trains = trainsInBody(loop->body);
  if (pointsTo && trains && whyObjectsUnread(pointsTo->pointsTo(items), ""))
    return true;
  // A generator of the program, whatever it yields, whose loop trains:
  // each item is one step's batch.
  if (pointsTo && trains &&
      llvm::any_of(pointsTo->pointsTo(items), [&](PointsToResult::ObjectId o) {
        return pointsTo->object(o).kind == AbstractObject::Kind::Generator;
      }))
    return true;
  // The same through an instance of the program's class whose `__iter__`
  // is such a generator (airbench's CifarLoader cuts GPU-resident batches
  // in its `__iter__`: `for inputs, labels in train_loader`).
  for (const std::string &sym : iterMethodsOf(f, items)) {
    if (facts.count("yields-batches:" + sym))
      return true;
    if (auto def = funcDefs.find(sym);
        trains && def != funcDefs.end() && yieldsIn(def->second->body))
      return true;
  }
  llvm::SmallVector<StringRef, 4> bound;
  ast::appendBoundNames(loop->target, bound);
  llvm::StringSet<> vars;
  vars.insert(bound.begin(), bound.end());
  // `for i in range(n)` whose body (or a loop in it) cuts or fetches
  // batches. Any other iterable counts its steps some other way (StyleGAN2's
  // `pbar = tqdm(range(n))`, `for idx in pbar: real_img = next(loader)`):
  // one batch an iteration when its own body fetches one, not a loop
  // nested in it (an epoch loop around a `while` that fetches).
  auto *callee = call ? dyn_cast<ast::Name>(call->func) : nullptr;
  bool overRange = callee && callee->id == "range";
  // `range(n)`, `range(a, b)`: no step (a batch loop's `range(0, n, bs)`
  // has one).
  bool stepsByOne = overRange && call->args.size() <= 2 &&
                    call->keywords.empty() &&
                    llvm::none_of(call->args, [](const ast::Expr *a) {
                      return isa<ast::Starred>(a);
                    });
  return fetchesBatch(f, loop->body, vars, /*ownLoopsOnly=*/!overRange,
                      stepsByOne);
}

std::vector<std::string> Lowerer::iterMethodsOf(FuncCtx &f,
                                                const ast::Expr *items) {
  FactSet instances = factsOf(f, items);
  addInstanceFacts(items, instances);
  std::vector<std::string> syms;
  for (const auto &[owner, fact] : methodOwners(instances, "__iter__"))
    syms.push_back(owner + "::__iter__");
  return syms;
}

/// Whether `body`, not counting its loops and definitions, calls a method
/// named `method`.
static bool callsInOwnBody(ast::NodeList<ast::Stmt> body, StringRef method) {
  llvm::SmallVector<const ast::Node *, 16> work(body.begin(), body.end());
  while (!work.empty()) {
    const ast::Node *x = work.pop_back_val();
    if (!x || isa<ast::FunctionDef, ast::ClassDef, ast::Lambda, ast::For,
                  ast::While>(x))
      continue;
    if (auto *c = dyn_cast<ast::Call>(x))
      if (auto *m = dyn_cast<ast::Attribute>(c->func);
          m && m->attr == method)
        return true;
    forEachChild(x, [&](StringRef, const ast::Node *c) { work.push_back(c); });
  }
  return false;
}

bool Lowerer::trainsInBody(ast::NodeList<ast::Stmt> body) {
  return callsInOwnBody(body, "backward");
}

bool Lowerer::stepsInBody(ast::NodeList<ast::Stmt> body) {
  return callsInOwnBody(body, "backward") && callsInOwnBody(body, "step");
}

bool Lowerer::isCountedStepLoop(FuncCtx &f, const ast::For *loop,
                                const ast::Expr *items) {
  // Over a count: `range(...)` (the builtin), or a progress bar over one
  // (`trange(n)`; `tqdm(range(n))` is unwrapped to its range).
  auto *call = dyn_cast<ast::Call>(items);
  if (!call)
    return false;
  auto *callee = dyn_cast<ast::Name>(call->func);
  bool counts = callee && callee->id == "range" && !isBoundName(f, "range");
  if (!counts) {
    std::string q = qualName(f, call->func);
    const ApiEntry *entry = q.empty() ? nullptr : api.lookup(q);
    counts = entry && entry->get("kind") == "progress_bar";
  }
  // Each iteration takes a training step of its own.
  return counts && stepsInBody(loop->body);
}

/// `v[i:i + k]` with `i` one of `names` and `k` anything but 1: a window
/// of k items starting at `i` (`x[i:i + 1]` is one item, a batch of one).
static bool windowAt(const ast::Slice *sl, const llvm::StringSet<> &names) {
  auto *lower = dyn_cast<ast::Name>(sl->lower);
  auto *upper = dyn_cast<ast::BinOp>(sl->upper);
  if (!lower || !names.contains(lower->id) || !upper ||
      upper->op != ast::BinOpKind::Add)
    return false;
  const ast::Expr *width = nullptr;
  if (auto *l = dyn_cast<ast::Name>(upper->left); l && l->id == lower->id)
    width = upper->right;
  else if (auto *r = dyn_cast<ast::Name>(upper->right);
           r && r->id == lower->id)
    width = upper->left;
  if (!width)
    return false;
  auto *c = dyn_cast<ast::Constant>(width);
  return !(c && c->kind == ast::ConstantKind::Int && c->value == "1");
}

bool Lowerer::fetchesBatch(FuncCtx &f, ast::NodeList<ast::Stmt> body,
                           const llvm::StringSet<> &vars, bool ownLoopsOnly,
                           bool stepsByOne) {
  // A batch is fetched by hand (`next(it)`) or cut with the loop variable:
  // `data[i:i + bs]`,
  // `x[i * bs:(i + 1) * bs]`, or fetched by a helper named for it
  // (`get_batch(source, i)`).
  llvm::SmallVector<const ast::Node *, 16> work(body.begin(), body.end());
  while (!work.empty()) {
    const ast::Node *x = work.pop_back_val();
    if (!x || isa<ast::FunctionDef, ast::ClassDef, ast::Lambda>(x))
      continue;
    if (ownLoopsOnly && isa<ast::For, ast::While>(x))
      continue;
    // (With an end: `self.transforms[i:]`, the rest of a list from the
    // loop's position, is no batch — 3D-ResNets' temporal Compose.)
    if (auto *sub = dyn_cast<ast::Subscript>(x))
      if (auto *sl = dyn_cast<ast::Slice>(sub->slice);
          sl && sl->lower && sl->upper && offsetOf(sl->lower, vars) &&
          !(stepsByOne && windowAt(sl, vars)))
        return true;
    if (auto *c = dyn_cast<ast::Call>(x)) {
      // `x, y = next(it)` (or `it.next()`) of a loader's iterator.
      if (isa<ast::Name>(c->func) && cast<ast::Name>(c->func)->id == "next" &&
          !c->args.empty() &&
          !objectsOf(factsOf(f, c->args[0]), ObjectInfo::Loader).empty())
        return true;
      if (auto *m = dyn_cast<ast::Attribute>(c->func);
          m && (m->attr == "next" || m->attr == "__next__") &&
          c->args.empty() &&
          !objectsOf(factsOf(f, m->value), ObjectInfo::Loader).empty())
        return true;
      // `batch = prefetcher.next()`: a method that fetches one batch.
      if (callsBatchFetcher(f, c))
        return true;
      if (namesBatchFetch(varPath(f, c->func)))
        for (const ast::Expr *a : c->args)
          if (mentions(a, vars))
            return true;
    }
    forEachChild(x, [&](StringRef, const ast::Node *c) { work.push_back(c); });
  }
  return false;
}

void Lowerer::lowerLoopRegions(FuncCtx &f, Operation *loop,
                               llvm::function_ref<void()> body,
                               ast::NodeList<ast::Stmt> orelse) {
  Operation *savedLoop = f.innermostLoop;
  f.innermostLoop = loop;
  ++f.loopDepth;
  inRegion(loop, 0, body);
  --f.loopDepth;
  f.innermostLoop = savedLoop;
  lowerElse(f, loop, orelse);
}

void Lowerer::lowerElse(FuncCtx &f, Operation *op,
                        ast::NodeList<ast::Stmt> orelse) {
  if (!orelse.empty())
    inRegion(op, 1, [&] { lowerBody(f, orelse); });
  else
    dropRegion(op, 1);
}

void Lowerer::noteFetchesBatch(FuncCtx &f) {
  // Inside a loop of its own, the function consumes batches (a training
  // epoch written as `while True: x = next(it)`): a loop calling it is
  // not one batch an iteration.
  if (f.loopDepth == 0)
    addFacts("fetches-batch:" + f.symbol, {"yes"});
}

bool Lowerer::callsBatchFetcher(FuncCtx &f, const ast::Call *call) {
  if (calleeHasFact(f, call, "fetches-batch:"))
    return true;
  // `inputs = next(fetcher)` of a class whose `__next__` fetches one
  // (stargan-v2's InputFetcher).
  return llvm::any_of(nextMethodOwners(f, call), [&](const auto &owner) {
    return facts.count("fetches-batch:" + owner.first + "::__next__") > 0;
  });
}

std::vector<std::pair<std::string, std::string>>
Lowerer::nextMethodOwners(FuncCtx &f, const ast::Call *call) {
  std::vector<std::pair<std::string, std::string>> owners;
  auto *fn = dyn_cast<ast::Name>(call->func);
  if (!fn || fn->id != "next" || call->args.empty() ||
      isa<ast::Starred>(call->args[0]) || isBoundName(f, "next"))
    return owners;
  FactSet of = factsOf(f, call->args[0]);
  addInstanceFacts(call->args[0], of);
  return methodOwners(of, "__next__");
}

std::vector<std::pair<std::string, std::string>>
Lowerer::methodOwners(const FactSet &of, StringRef method) const {
  std::vector<std::pair<std::string, std::string>> owners;
  for (const std::string &fact : of)
    if (StringRef(fact).starts_with("inst:"))
      if (std::string owner = findMethod(fact.substr(5), method);
          !owner.empty() && llvm::none_of(owners, [&](const auto &o) {
            return o.first == owner;
          }))
        owners.emplace_back(owner, fact);
  return owners;
}

bool Lowerer::calleeHasFact(FuncCtx &f, const ast::Call *call,
                            StringRef prefix) {
  for (const std::string &fact : factsOf(f, call->func))
    if (StringRef(fact).starts_with("func:") &&
        facts.count((prefix + fact.substr(5)).str()))
      return true;
  auto *method = dyn_cast<ast::Attribute>(call->func);
  if (!method)
    return false;
  FactSet receiver = factsOf(f, method->value);
  addInstanceFacts(method->value, receiver);
  for (const std::string &fact : receiver)
    if (StringRef(fact).starts_with("inst:"))
      if (std::string owner = findMethod(fact.substr(5), method->attr);
          !owner.empty() &&
          facts.count((prefix + owner + "::" + method->attr).str()))
        return true;
  return false;
}

void Lowerer::noteYieldsBatches(FuncCtx &f, const FactSet &loaderFacts) {
  addFacts("yields-batches:" + f.symbol, {"yes"});
  // Calling the generator gives what iterates the loader's batches: to the
  // program (`data = load_data(...)`, `next(self.data)`) it is the loader.
  FactSet loaders;
  for (const std::string &id : objectsOf(loaderFacts, ObjectInfo::Loader))
    loaders.insert("obj:" + id);
  addFacts("ret:" + f.symbol, loaders);
}

void Lowerer::lowerLoaderLoop(FuncCtx &f, const ast::For *loop,
                              const std::string &loaderVar,
                              const FactSet &loaderFacts,
                              llvm::ArrayRef<const ast::Expr *> otherTargets,
                              const ast::Expr *target,
                              const Effects &iterEff) {
  // Starting the iteration draws the epoch's permutation.
  std::string shuffleGen, loaderApi = "iter";
  for (const std::string &id : objectsOf(loaderFacts, ObjectInfo::Loader))
    if (!objects[id].shuffleGen.empty()) {
      shuffleGen = objects[id].shuffleGen.str();
      loaderApi = objects[id].api + ".__iter__";
    }
  if (!shuffleGen.empty()) {
    // Drawn by iterating the iterable as written (`pbar` too).
    Effects e;
    e.uses = iterEff.uses;
    e.updates.insert(loaderVar);
    e.uses.insert(loaderVar);
    emit(ir::DrawOp::getOperationName(), loop->iter, {}, e,
         {strAttr("gen", shuffleGen), strAttr("dist", "permutation"),
          strAttr("api", loaderApi)});
  }
  // A generator that yields the loader's batches: its callers' loops over
  // it are batch loops (isManualBatchLoop).
  if (yieldsIn(loop->body))
    noteYieldsBatches(f, loaderFacts);
  // The loop reads its iterable as written, not only the loader in it:
  // `pbar = enumerate(loader); for i, b in pbar:` needs `pbar` (a resume's
  // fast-forward runs the loop, so the statement making `pbar` is kept).
  Effects loopEff = iterEff;
  loopEff.uses.insert(loaderVar);
  Operation *op = emit(ir::ForOp::getOperationName(), loop, {}, loopEff, {}, 2);
  lowerLoopRegions(
      f, op,
      [&] {
        std::vector<std::string> defs;
        Effects targetEff;
        for (const ast::Expr *other : otherTargets)
          collectTargets(*this, f, other, defs, targetEff);
        std::vector<std::string> batchVars;
        collectTargets(*this, f, target, batchVars, targetEff);
        defs.insert(defs.end(), batchVars.begin(), batchVars.end());
        Operation *fetch =
            emitFetch(f, loop, loaderVar, loaderFacts, defs, false, &iterEff);
        // How many parts a batch unpacks into (`x, y`, also behind
        // `pbar = enumerate(loader)`): fast-forward's placeholder batches
        // need it where the loop's text does not show it.
        const ast::NodeList<ast::Expr> *parts = nullptr;
        if (auto *t = llvm::dyn_cast_or_null<ast::Tuple>(target))
          parts = &t->elts;
        else if (auto *l = llvm::dyn_cast_or_null<ast::List>(target))
          parts = &l->elts;
        // `x, y, *rest` takes any batch of two parts or more: two. A batch
        // bound whole (`for i, batch in pbar`) is -1: not unpacked.
        if (fetch && target)
          fetch->setAttr("arity",
                         builder.getI64IntegerAttr(
                             parts ? llvm::count_if(*parts,
                                                    [](const ast::Expr *e) {
                                                      return !llvm::isa<
                                                          ast::Starred>(e);
                                                    })
                                   : -1));
        // One batch: its examples may be processed concurrently.
        emitBatchRegion(loop, batchVars, [&] { lowerBody(f, loop->body); });
      },
      loop->orelse);
}

void Lowerer::callProgramParts(const ast::Node *at, const std::string &var,
                               const FactSet &facts,
                               std::set<std::string> &called,
                               const Effects &funcEff) {
  for (const std::string &fact : facts) {
    StringRef s = fact;
    if (s.consume_front("func:")) {
      if (called.insert(fact).second)
        emit(ir::CallOp::getOperationName(), at, {}, funcEff,
             {attr("callee", FlatSymbolRefAttr::get(&ctx, s))});
    } else if (s.consume_front("inst:") && !var.empty() &&
               called.insert(fact).second) {
      if (!emitMethodCallOn(at, s.str(), "__call__", var, {fact}))
        emitMethodCallOn(at, s.str(), "forward", var, {fact});
    }
  }
}

std::string Lowerer::unknownDatasetObject(FuncCtx &f, const ast::Node *at,
                                          const ast::Expr *shown,
                                          const UnreadReason &why) {
  std::string id = objectId('d', at);
  ObjectInfo &unknown = object(id, ObjectInfo::Dataset);
  unknown.api = "<unknown dataset>";
  unknown.unreadTransform = unreadEntry(*f.unit, shown, why, true);
  return id;
}

std::set<std::string>
Lowerer::methodsLibrariesCall(const std::string &cls) const {
  std::set<std::string> methods;
  std::vector<std::string> work{cls};
  for (size_t i = 0; i < work.size() && i < 32; ++i)
    if (const ClassInfo *ci = classOf(work[i])) {
      for (const auto &m : ci->methods)
        if (!m.getKey().starts_with("__") || m.getKey() == "__call__")
          methods.insert(m.getKey().str());
      llvm::append_range(work, ci->userBases);
    }
  return methods;
}

Lowerer::LibraryGiven Lowerer::libraryGiven(FuncCtx &f, const ast::Call *call,
                                            llvm::ArrayRef<std::string> argVars,
                                            const std::string &recvVar,
                                            const FactSet &recvFacts) {
  LibraryGiven out;
  auto &loaders = out.loaders;
  auto &instances = out.instances;
  auto &functions = out.functions;
  std::vector<const ast::Expr *> given(call->args.begin(), call->args.end());
  for (const ast::Keyword *k : call->keywords)
    given.push_back(k->value);
  if (!recvVar.empty() && !objectsOf(recvFacts, ObjectInfo::Loader).empty())
    loaders.emplace_back(recvVar, recvFacts);
  auto isDataset = [&](const std::string &fact) {
    StringRef s = fact;
    if (s.consume_front("inst:")) {
      const ClassInfo *ci = classOf(s.str());
      return ci && ci->role == ir::ClassRole::Dataset;
    }
    const ObjectInfo *o =
        s.consume_front("obj:") ? findObject(s.str()) : nullptr;
    return o && o->kind == ObjectInfo::Dataset;
  };
  // The library methods this call may be (`pytorch_lightning.Trainer.fit`
  // of `trainer.fit`), for the tables' `data-argument` lines.
  std::vector<std::string> methods;
  if (const auto *m = dyn_cast<ast::Attribute>(call->func); m && pointsTo)
    for (PointsToResult::ObjectId r : pointsTo->pointsTo(m->value))
      if (pointsTo->object(r).kind == AbstractObject::Kind::Library)
        methods.push_back(
            api.canonicalize(pointsTo->object(r).label()) + "." +
            m->attr.str());
  auto isDataArgument = [&](size_t i) {
    if (i >= call->args.size())
      return api.isDataKeyword(call->keywords[i - call->args.size()]->arg);
    return llvm::any_of(methods, [&](const std::string &m) {
      return api.isDataArgument(m, unsigned(i));
    });
  };
  for (size_t i = 0; i < given.size(); ++i) {
    const ast::Expr *a = given[i];
    FactSet facts = factsOf(f, a);
    std::string var = varPath(f, a);
    if (var.empty() && i < argVars.size())
      var = argVars[i];
    for (const std::string &fact : facts)
      if (StringRef(fact).starts_with("func:"))
        functions.insert(fact);
    if (!objectsOf(facts, ObjectInfo::Loader).empty()) {
      if (var.empty())
        var = loaderHolder(f, a);
      if (!var.empty())
        loaders.emplace_back(var, facts);
    } else if (!var.empty() && llvm::any_of(facts, isDataset)) {
      // The loader the library may make over it.
      std::string id = objectId('l', a);
      ObjectInfo &o = object(id, ObjectInfo::Loader);
      o.workers = "unknown";
      o.datasetFacts = facts;
      std::string loaderVar = newTemp(f);
      Effects e;
      e.uses.insert(var);
      emit(ir::BatchesOp::getOperationName(), call, {loaderVar}, e,
           {strAttr("dataset", var), strAttr("workers", "unknown"),
            attr("library_loader",
                 builder.getStringAttr("a loader the library may make over "
                                       "the dataset it is given"))});
      loaders.emplace_back(loaderVar, FactSet{"obj:" + id});
    } else if (!var.empty() &&
               llvm::any_of(facts, [](const std::string &fact) {
                 return StringRef(fact).starts_with("inst:");
               })) {
      instances.emplace_back(var, facts);
    } else if (!var.empty() && isDataArgument(i)) {
      // `trainer.fit(model, datamodule=dm)` (or `trainer.fit(model, dm)`)
      // with `dm` made where detc cannot see (hydra's instantiate, a
      // registry, a config's `target`): the library iterates data whose
      // examples may draw.
      if (std::optional<UnreadReason> why =
              untraceableValue(f, a, "", "data", nullptr)) {
        why->why += ": its examples may draw";
        std::string id = objectId('l', a);
        ObjectInfo &o = object(id, ObjectInfo::Loader);
        o.workers = "unknown";
        o.datasetFacts.insert("obj:" + unknownDatasetObject(f, a, a, *why));
        loaders.emplace_back(var, FactSet{"obj:" + id});
      }
    } else {
      // A model made where detc cannot see (`instantiate_from_config(
      // config.model)`): the library runs its methods every batch.
      if (std::optional<UnreadReason> why =
              untraceableValue(f, a, "", "an object", nullptr))
        out.untraced.emplace_back(a, why->why);
    }
  }
  // What a library receiver was given when it was made (`Trainer(model=
  // net, ...)`, `Engine(step)`), as its own arguments are.
  if (const auto *method = dyn_cast<ast::Attribute>(call->func);
      method && pointsTo && !recvVar.empty())
    for (PointsToResult::ObjectId r : pointsTo->pointsTo(method->value))
      if (pointsTo->object(r).kind == AbstractObject::Kind::Library) {
        FactSet held;
        addInstanceFacts(heldObjects(r), held);
        for (const std::string &fact : held)
          instances.emplace_back(recvVar, FactSet{fact});
        addProgramCallables(heldObjects(r), functions);
      }
  // A method of an object it was given that returns a loader
  // (Lightning's `train_dataloader()` of a LightningDataModule or of the
  // module itself): the library calls it and iterates what it returns.
  for (const auto &[var, facts] : instances)
    for (const std::string &fact : facts) {
      if (!StringRef(fact).starts_with("inst:"))
        continue;
      std::string cls = fact.substr(5);
      for (const std::string &m : methodsLibrariesCall(cls)) {
        // (A private helper returning a loader, fastMRI's
        // `_create_data_loader(self, data_transform, ...)`, is the
        // program's own, reached through the hooks that call it with its
        // arguments: called here with none, its dataset's transform was
        // no object, and its generators "not created by the program".)
        if (StringRef(m).starts_with("_") && !StringRef(m).starts_with("__"))
          continue;
        std::string owner = findMethod(cls, m);
        auto it = this->facts.find("ret:" + owner + "::" + m);
        if (it == this->facts.end() ||
            objectsOf(it->second, ObjectInfo::Loader).empty())
          continue;
        // The loader it returns is the one the library iterates (its
        // dataset's generators are those the program made and gave it).
        emitMethodCallOn(call, cls, m, var, {fact}, var + "." + m);
        loaders.emplace_back(var + "." + m, it->second);
      }
    }
  return out;
}

void Lowerer::emitLibraryLoop(FuncCtx &f, const ast::Call *call,
                              llvm::ArrayRef<std::string> argVars,
                              const std::string &recvVar,
                              const FactSet &recvFacts) {
  if (!emitIR)
    return;
  // Named references, not a structured binding: the lambdas below
  // capture them (C++17 does not capture bindings).
  LibraryGiven given = libraryGiven(f, call, argVars, recvVar, recvFacts);
  const auto &loaders = given.loaders;
  const auto &instances = given.instances;
  const FactSet &functions = given.functions;
  if (loaders.empty())
    return;
  // The fetches make examples in the loader's workers: the library's own
  // per-batch code (this call's unread entries) is not among them.
  std::vector<Attribute> unread;
  if (unreadCallsOf == currentStmt)
    unread = std::exchange(unreadCalls, {});
  Effects loopEff;
  for (const auto &[var, facts] : loaders)
    loopEff.uses.insert(var);
  // `library_loop`: the library may also make a loader of its own over
  // what it was given (accelerate's prepare rebuilds it): the transform
  // keys torch's DataLoader where libraries construct it.
  Operation *loop =
      emit(ir::ForOp::getOperationName(), call, {}, loopEff,
           {attr("library_loop", builder.getUnitAttr())}, 2);
  dropRegion(loop, 1);
  inRegion(loop, 0, [&] {
    std::vector<std::string> batches;
    for (const auto &[var, facts] : loaders) {
      batches.push_back(newTemp(f));
      emitFetch(f, call, var, facts, {batches.back()});
    }
    emitBatchRegion(call, batches, [&] {
      if (!unread.empty()) {
        unreadCallsOf = currentStmt;
        for (Attribute a : unread)
          if (!llvm::is_contained(unreadCalls, a))
            unreadCalls.push_back(a);
      }
      // What it was given and detc cannot trace (a model made from a
      // config) runs here too: the library calls its methods.
      if (!given.untraced.empty()) {
        unreadCallsOf = currentStmt;
        for (const auto &[value, why] : given.untraced) {
          Attribute a = unreadEntry(
              *f.unit, value,
              UnreadReason{why + ", whose methods the library may call "
                                 "every batch"},
              false);
          if (!llvm::is_contained(unreadCalls, a))
            unreadCalls.push_back(a);
        }
      }
      Effects e = loopEff;
      e.uses.insert(batches.begin(), batches.end());
      for (const auto &[var, facts] : instances)
        e.uses.insert(var);
      emit(ir::StmtOp::getOperationName(), call, {}, e,
           {strAttr("kind", "expr")});
      std::set<std::string> called;
      callProgramParts(call, "", functions, called, Effects());
      for (const auto &[var, facts] : instances)
        for (const std::string &fact : facts)
          if (StringRef(fact).starts_with("inst:"))
            for (const std::string &m : methodsLibrariesCall(fact.substr(5)))
              emitMethodCallOn(call, fact.substr(5), m, var, {fact});
    });
  });
}

void Lowerer::callHeldCallables(FuncCtx &f, const ast::Call *call,
                                const ast::Expr *receiver,
                                std::set<std::string> &called) {
  if (!pointsTo)
    return;
  std::vector<PointsToResult::ObjectId> holders;
  auto addHolders = [&](const ast::Expr *e) {
    for (PointsToResult::ObjectId o : pointsTo->pointsTo(e))
      if (pointsTo->object(o).kind == AbstractObject::Kind::Library)
        holders.push_back(o);
  };
  addHolders(call->func);
  if (receiver)
    addHolders(receiver);
  if (holders.empty())
    return;
  llvm::sort(holders);
  holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
  auto [it, added] = heldCallables.try_emplace(holders);
  if (added) {
    // The objects they hold, each once, made facts once.
    std::vector<PointsToResult::ObjectId> held;
    llvm::DenseSet<PointsToResult::ObjectId> seen;
    for (PointsToResult::ObjectId o : it->first)
      for (PointsToResult::ObjectId x : heldObjects(o))
        if (seen.insert(x).second)
          held.push_back(x);
    llvm::sort(held);
    addCallables(held, it->second);
  }
  callProgramParts(call, varPath(f, call->func), it->second, called,
                   Effects());
}

void Lowerer::addCallables(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                           FactSet &out) {
  addProgramCallables(objs, out);
  FactSet instances;
  addInstanceFacts(objs, instances);
  for (const std::string &fact : instances)
    if (!findMethod(fact.substr(5), "__call__").empty())
      out.insert(fact);
}

llvm::ArrayRef<PointsToResult::ObjectId>
Lowerer::heldObjects(PointsToResult::ObjectId o) {
  auto [it, added] = heldByLibraryObject.try_emplace(o);
  if (!added)
    return it->second;
  // Its arguments (`arg0`, keywords) and their elements: two levels reach
  // a list of callables passed to it.
  // Each object once, each argument's elements read once: the same
  // objects fill many fields (timm's efficientnet.py sorted vectors of
  // repeats for 18 s of its lowering).
  std::vector<PointsToResult::ObjectId> given;
  llvm::DenseSet<PointsToResult::ObjectId> seen, read;
  auto add = [&](PointsToResult::ObjectId x) {
    if (seen.insert(x).second)
      given.push_back(x);
  };
  for (StringRef name : pointsTo->fieldNames(o))
    for (PointsToResult::ObjectId g : pointsTo->field(o, name)) {
      add(g);
      if (!read.insert(g).second)
        continue;
      for (StringRef element : pointsTo->fieldNames(g))
        if (element.starts_with("["))
          for (PointsToResult::ObjectId e : pointsTo->field(g, element))
            add(e);
    }
  llvm::sort(given);
  it->second = std::move(given);
  return it->second;
}

bool Lowerer::emitMethodCallOn(const ast::Node *at, const std::string &cls,
                               StringRef method, const std::string &selfVar,
                               const FactSet &selfFacts,
                               const std::string &result) {
  std::string owner = findMethod(cls, method);
  if (owner.empty())
    return false;
  llvm::SmallVector<NamedAttribute> attrs{
      attr("callee", classMethodRef(owner, method))};
  auto params = funcParams.find(owner + "::" + method.str());
  if (params != funcParams.end() && !params->second.empty()) {
    StringRef self = paramName(params->second, 0);
    addFacts(owner + "::" + method.str() + "|" + self.str(), selfFacts);
    attrs.push_back(
        attr("bind", builder.getDictionaryAttr({builder.getNamedAttr(
                         self, builder.getStringAttr(selfVar))})));
  }
  Effects e;
  e.uses.insert(selfVar);
  std::vector<std::string> defs;
  if (!result.empty())
    defs.push_back(result);
  emit(ir::CallOp::getOperationName(), at, defs, e, attrs);
  return true;
}

bool Lowerer::emitLibraryGetitem(const ast::Node *at, const std::string &cls,
                                 const std::string &dsVar,
                                 llvm::ArrayRef<unsigned> datasetObjects) {
  std::string base = libraryBaseOf(cls, [&](const std::string &lb) {
    const ApiEntry *e = api.lookup(api.canonicalize(lb));
    return e && e->role == "dataset";
  });
  if (base.empty() || !pointsTo)
    return false;
  // The class's instances (a class defined again in its module is
  // `Name.2` here, `Name` there: definitionsOf).
  auto instancesAmong = [&](auto objects) {
    std::vector<PointsToResult::ObjectId> found;
    for (PointsToResult::ObjectId o : objects) {
      const AbstractObject &ob = pointsTo->object(o);
      if (ob.kind == AbstractObject::Kind::Instance &&
          llvm::is_contained(definitionsOf(ob.label(), classes), cls))
        found.push_back(o);
    }
    return found;
  };
  std::vector<PointsToResult::ObjectId> instances =
      instancesAmong(datasetObjects);
  if (instances.empty())
    instances = instancesAmong(
        llvm::seq<PointsToResult::ObjectId>(0, pointsTo->getStats().objects));
  std::set<std::string> called;
  for (StringRef part : {"transform", "target_transform", "transforms"}) {
    std::vector<PointsToResult::ObjectId> held;
    for (PointsToResult::ObjectId inst : instances)
      llvm::append_range(held, pointsTo->field(inst, part));
    if (held.empty())
      continue;
    // Kept objects of a library detc does not read: called on every
    // example (detc-may-draw), shown where they were made.
    std::vector<mlir::Attribute> unread;
    for (PointsToResult::ObjectId h : held) {
      std::optional<UnreadReason> why = whyObjectsUnread({h}, "");
      const AbstractObject &ob = pointsTo->object(h);
      auto *shown = llvm::dyn_cast_or_null<ast::Expr>(ob.site);
      if (const Unit *unit = unitOfFile(ob.file()); why && shown && unit)
        unread.push_back(unreadEntry(*unit, shown, *why, true));
    }
    FactSet facts;
    addProgramCallables(held, facts);
    addInstanceFacts(held, facts);
    emitTransformRun(at, dsVar + "." + part.str(),
                     loweredIds(held, 'b', ObjectInfo::Build), unread, facts,
                     called);
  }
  return true;
}

void Lowerer::emitTransformRun(const ast::Node *at, const std::string &var,
                               llvm::ArrayRef<std::string> builds,
                               llvm::ArrayRef<mlir::Attribute> unread,
                               const FactSet &facts,
                               std::set<std::string> &called) {
  Effects e;
  e.uses.insert(var);
  if (!builds.empty())
    emit(ir::ForwardOp::getOperationName(), at, {}, e,
         {strAttr("model", var), attr("builds", strArray(builds))});
  for (mlir::Attribute u : unread)
    emit(ir::StmtOp::getOperationName(), at, {}, e,
         {strAttr("kind", "expr"),
          attr("unread_calls", builder.getArrayAttr({u}))});
  callProgramParts(at, var, facts, called, e);
}

Operation *Lowerer::emitFetch(FuncCtx &f, const ast::Node *at,
                        const std::string &loaderVar,
                        const FactSet &loaderFacts,
                        const std::vector<std::string> &defs,
                        bool advances, const Effects *iterable) {
  // What producing one example runs, and with how many workers.
  std::string workers = "0";
  FactSet datasetFacts;
  std::vector<unsigned> datasetObjects;
  std::vector<std::string> fns;
  std::vector<ObjectInfo::BoundMethod> methods;
  for (const std::string &id : objectsOf(loaderFacts, ObjectInfo::Loader)) {
    const ObjectInfo &o = objects[id];
    if (o.workers == "unknown" || workers == "unknown")
      workers = o.workers == "unknown" ? "unknown" : workers;
    else if (std::stol(o.workers.str()) > std::stol(workers))
      workers = o.workers.str();
    datasetFacts.insert(o.datasetFacts.begin(), o.datasetFacts.end());
    llvm::append_range(datasetObjects, o.datasetObjects);
    for (const std::string &fn : o.perExampleFns)
      if (!llvm::is_contained(fns, fn))
        fns.push_back(fn);
    methods.insert(methods.end(), o.perExampleMethods.begin(),
                   o.perExampleMethods.end());
  }
  Effects eff;
  // A loop's fetch reads the iterable as the loop wrote it (`pbar` of
  // `pbar = enumerate(loader)`): fast-forward's placeholder batches come
  // from it, so a resume must make it again.
  if (iterable)
    eff.uses = iterable->uses;
  eff.uses.insert(loaderVar);
  if (advances)
    eff.updates.insert(loaderVar);
  Operation *fetch = emit(ir::FetchOp::getOperationName(), at, defs, eff,
                          {strAttr("loader", loaderVar)}, 1);
  std::string dsVar = loaderVar + ".dataset";
  // What producing one example of a dataset runs: the program's
  // `__getitem__`, a library dataset's transform, and the examples of the
  // datasets it wraps (`Subset`, `ConcatDataset`), a few levels deep.
  std::function<void(const FactSet &, const std::string &, unsigned)>
      examplesOf = [&](const FactSet &datasetFacts, const std::string &dsVar,
                       unsigned depth) {
    for (const std::string &fact : datasetFacts) {
      StringRef s = fact;
      if (s.consume_front("inst:")) {
        if (!emitMethodCallOn(at, s.str(), "__getitem__", dsVar,
                              datasetFacts))
          emitLibraryGetitem(at, s.str(), dsVar, datasetObjects);
      } else if (s.consume_front("obj:")) {
        const ObjectInfo *o = findObject(s.str());
        if (!o || o->kind != ObjectInfo::Dataset)
          continue;
        if (depth < 4 && !o->wrappedFacts.empty())
          examplesOf(o->wrappedFacts, dsVar + ".dataset", depth + 1);
        // Its transform: library parts, one of a library detc does not
        // read, a transform of the program (a class with `__call__`, as
        // DINO's multi-crop augmentation object, or a function).
        std::vector<mlir::Attribute> unread;
        if (o->unreadTransform)
          unread.push_back(o->unreadTransform);
        std::set<std::string> called;
        emitTransformRun(at, dsVar + ".transform",
                         objectsOf(o->transformFacts, ObjectInfo::Build),
                         unread, o->transformFacts, called);
      }
    }
  };
  auto perExample = [&] {
    examplesOf(datasetFacts, dsVar, 0);
    for (const std::string &fn : fns)
      emit(ir::CallOp::getOperationName(), at, {}, Effects(),
           {attr("callee", FlatSymbolRefAttr::get(&ctx, fn))});
    // The instance a bound method runs on: the loader's dataset when it is
    // one of the dataset's (a collate_fn of the dataset's class), else the
    // one the loader holds through its collate_fn.
    for (const ObjectInfo::BoundMethod &m : methods) {
      bool ofDataset = datasetFacts.count("inst:" + m.cls);
      // A bound method's instance (`collate_fn=dataset.collate_fn`), or
      // the callable object itself (`collate_fn=MixupCollator(cfg)`).
      std::string self = ofDataset ? dsVar
                         : m.method == "__call__"
                             ? loaderVar + ".collate_fn"
                             : loaderVar + ".collate_fn.__self__";
      emitMethodCallOn(at, m.cls, m.method, self, m.selfFacts);
    }
  };
  // A fetch inside a minibatch's region (`x = next(it)` in the loop's
  // body, not its header) with no workers: its examples are still made
  // one by one in the keyed loader's example scopes, not by the
  // minibatch — a per-example region (with "0" workers), as a loop over
  // the loader would have them outside its body. In the batch region,
  // stylegan2's RandomHorizontalFlip was "left nondeterministic".
  bool inBatchRegion = false;
  for (Operation *op = builder.getInsertionBlock()->getParentOp(); op;
       op = op->getParentOp())
    if (auto par = dyn_cast<ir::ParallelOp>(op);
        par && par.getKind() == ir::ParallelKind::PerBatch)
      inBatchRegion = true;
  inRegion(fetch, 0, [&] {
    if (workers == "0" && !inBatchRegion)
      return perExample();
    Effects pe;
    pe.uses.insert(loaderVar);
    Operation *par = emit(
        ir::ParallelOp::getOperationName(), at, {}, pe,
        {attr("kind",
              ir::ParallelKindAttr::get(&ctx, ir::ParallelKind::PerExample)),
         strAttr("workers", workers)},
        1);
    inRegion(par, 0, perExample);
  });
  return fetch;
}
