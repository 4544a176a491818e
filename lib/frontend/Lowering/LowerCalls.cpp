//===- LowerCalls.cpp - Calls: the API model and user functions -----------===//
//
// A call becomes a dedicated op when the API model gives its callee a role
// (draw, build, loader, step, ...), when it calls a function or class of the
// analysed program, or when it calls a model; otherwise it is opaque and its
// effects go to the enclosing statement.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "detc/frontend/ASTDump.h"

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;

namespace {
/// The lowered arguments of one call.
struct CallArgs {
  const ast::Call *call = nullptr;
  std::vector<std::string> posVars;                  ///< "" if not a var.
  std::vector<std::vector<std::string>> posElements; ///< List/tuple elements.
  std::vector<std::pair<std::string, std::string>> kwVars;
  std::vector<const ast::Expr *> doubleStar;       ///< `**kwargs` expressions.
  std::map<const ast::Expr *, Effects> argEffects; ///< Per argument.
  Effects eff;

  /// True when positional argument `position` is the expression written
  /// there: no `*iterable` before or at it (CPython binds those at run
  /// time).
  bool positionKnown(int position) const {
    if (position < 0 || (size_t)position >= call->args.size())
      return false;
    for (int i = 0; i <= position; ++i)
      if (llvm::isa<ast::Starred>(call->args[i]))
        return false;
    return true;
  }
  /// True when a `*iterable` at or before the parameter's position may
  /// supply it: its value is unknown, not absent.
  bool starredCovers(const ArgRef &ref) const {
    for (int i = 0; ref.position >= 0 && i <= ref.position &&
                    (size_t)i < call->args.size();
         ++i)
      if (llvm::isa<ast::Starred>(call->args[i]))
        return true;
    return false;
  }
  const ast::Expr *find(const ArgRef &ref) const {
    if (positionKnown(ref.position))
      return call->args[ref.position];
    if (!ref.keyword.empty())
      for (const ast::Keyword *k : call->keywords)
        if (k->arg == ref.keyword)
          return k->value;
    return nullptr;
  }
  std::string varOf(const ArgRef &ref) const {
    if (positionKnown(ref.position) && (size_t)ref.position < posVars.size())
      return posVars[ref.position];
    if (!ref.keyword.empty())
      for (const auto &[k, v] : kwVars)
        if (k == ref.keyword)
          return v;
    return "";
  }
};
} // namespace

static bool isName(const ast::Expr *e, StringRef id) {
  auto *n = llvm::dyn_cast_or_null<ast::Name>(e);
  return n && n->id == id;
}

/// Facts saying which model builds a value was computed from: from their
/// parameters (`from:`) or from what their forwards returned (`out:`).
static FactSet fromFacts(const FactSet &fs) {
  FactSet out;
  for (const std::string &f : fs) {
    StringRef s = f;
    if (s.starts_with("from:") || s.starts_with("out:"))
      out.insert(f);
    else if (s.starts_with("obj:"))
      out.insert("from:" + f.substr(4));
  }
  return out;
}

/// The number of workers an argument's facts allow: a number, or "unknown".
static std::string workersFromFacts(const FactSet &fs) {
  if (fs.empty())
    return "unknown";
  long best = 0;
  for (const std::string &f : fs) {
    StringRef s = f;
    long n;
    if (!s.consume_front("const:") || s.getAsInteger(0, n) || n < 0)
      return "unknown";
    best = std::max(best, n);
  }
  return std::to_string(best);
}

/// Values of `key` in the `**kwargs` dicts passed to a call; `present` is set
/// if any dict may contain it, `unknownDict` if a dict's keys are unknown.
static FactSet kwargsValue(Lowerer &l, FuncCtx &f, const CallArgs &args,
                           StringRef key, bool &present, bool &unknownDict) {
  FactSet out;
  std::string prefix = ("key:" + key + "=").str();
  for (const ast::Expr *d : args.doubleStar) {
    FactSet fs = l.factsOf(f, d);
    bool anyKey = false;
    for (const std::string &fact : fs) {
      if (!StringRef(fact).starts_with("key:"))
        continue;
      anyKey = true;
      if (!StringRef(fact).starts_with(prefix))
        continue;
      present = true;
      std::string v = fact.substr(prefix.size());
      if (v == "?")
        out.insert("unknown:");
      else
        out.insert(v);
    }
    if (!anyKey)
      unknownDict = true;
  }
  return out;
}

/// What calling an instance of a model class runs, the first it defines
/// (a Keras-style model's `call`).
static constexpr StringRef kModelCallMethods[] = {"forward", "call",
                                                  "__call__"};

void Lowerer::emitModelForward(FuncCtx &f, const std::string &cls,
                               const std::string &selfVar) {
  for (StringRef m : kModelCallMethods) {
    std::string owner = findMethod(cls, m);
    if (owner.empty())
      continue;
    // Bind the instance to the method's first parameter, whatever its name.
    llvm::SmallVector<NamedAttribute> attrs{
        attr("callee", classMethodRef(owner, m))};
    auto params = funcParams.find(owner + "::" + m.str());
    if (params != funcParams.end() && !params->second.empty())
      attrs.push_back(attr(
          "bind",
          builder.getDictionaryAttr({builder.getNamedAttr(
              paramName(params->second, 0), builder.getStringAttr(selfVar))})));
    Effects eff;
    eff.uses.insert(selfVar);
    emit(ir::CallOp::getOperationName(), currentStmt, {}, eff, attrs);
    return;
  }
  // No forward of its own: its library base's.
  emitLibraryBaseDraw(cls, currentStmt);
}

bool Lowerer::emitLibraryBaseDraw(const std::string &cls,
                                  const ast::Node *at) {
  const ApiEntry *layer = nullptr;
  std::string base = libraryBaseOf(cls, [&](const std::string &lb) {
    const ApiEntry *e = api.lookup(api.canonicalize(lb));
    if (e && e->role == "layer" &&
        (!e->get("dist").empty() || e->has("random")))
      layer = e;
    return layer != nullptr;
  });
  if (!layer)
    return false;
  // Its dropout probability goes to the base's __init__, which detc does
  // not bind: it may be anything but zero.
  // The draw happens inside the library's forward, reached through the
  // program's class: detc cannot key it there (`library_draw`, as inside
  // torch's own code); the transform says it is left nondeterministic.
  std::string lib = layer->get("lib").empty() ? "torch" : layer->get("lib").str();
  rngLibraries.insert(lib);
  llvm::SmallVector<NamedAttribute> drawAttrs{
      strAttr("gen", ir::globalGeneratorVar(lib)),
      strAttr("dist", "library_draw"),
      strAttr("api", api.canonicalize(base))};
  if (layer->has("train_only"))
    drawAttrs.push_back(attr("module_mode", builder.getUnitAttr()));
  emit(ir::DrawOp::getOperationName(), at, {}, Effects(), drawAttrs);
  return true;
}

void Lowerer::emitUserCall(
    FuncCtx &f, const ast::Node *at, const std::string &sym, SymbolRefAttr ref,
    const std::string &selfVar, const FactSet &selfFacts, const ast::Call *call,
    llvm::ArrayRef<std::string> argVars,
    llvm::ArrayRef<std::pair<std::string, std::string>> kwVars,
    llvm::ArrayRef<std::string> defs, llvm::ArrayRef<std::string> updates,
    const Effects &argEff) {
  emitUserCall(f, at, sym, ref, selfVar, selfFacts,
               call ? call->args : ast::NodeList<ast::Expr>(),
               call ? call->keywords : ast::NodeList<ast::Keyword>(), argVars,
               kwVars, defs, updates, argEff);
}

void Lowerer::emitUserCall(
    FuncCtx &f, const ast::Node *at, const std::string &sym, SymbolRefAttr ref,
    const std::string &selfVar, const FactSet &selfFacts,
    ast::NodeList<ast::Expr> posArgs, ast::NodeList<ast::Keyword> keywords,
    llvm::ArrayRef<std::string> argVars,
    llvm::ArrayRef<std::pair<std::string, std::string>> kwVars,
    llvm::ArrayRef<std::string> defs, llvm::ArrayRef<std::string> updates,
    const Effects &argEff) {
  std::vector<std::string> params;
  if (auto it = funcParams.find(sym); it != funcParams.end())
    for (size_t i = 0; i < it->second.size(); ++i)
      params.push_back(paramName(it->second, i).str());
  llvm::SmallVector<NamedAttribute> bind;
  llvm::StringSet<> bound;
  size_t first = 0;
  auto bindParam = [&](const std::string &param, const std::string &var,
                       const FactSet &fs) {
    addFacts(sym + "|" + param, fs);
    if (!var.empty() && bound.insert(param).second)
      bind.push_back(builder.getNamedAttr(param, builder.getStringAttr(var)));
  };
  const ast::FunctionDef *def = funcDefs.lookup(sym);
  // A static method takes no receiver: `Data.wiggle(x)` or
  // `self.wiggle(x)` binds `x` to the argument, not to the instance (whose
  // facts made `x` a dataset, and a library call given `x` a loader).
  bool takesReceiver = !ast::hasNamedDecorator(def, "staticmethod");
  if (!selfVar.empty() && !params.empty() && takesReceiver) {
    bindParam(params[0], selfVar, selfFacts);
    first = 1;
  }
  // The parameters a call fills by position and by name: those before
  // `*args` and the keyword-only ones (all of `params` when the def is not
  // known).
  const ast::Arguments *sig = def ? def->args : nullptr;
  size_t positional =
      sig ? sig->posonlyargs.size() + sig->args.size() : params.size();
  auto byName = [&](StringRef name) {
    if (!llvm::is_contained(params, name.str()))
      return false;
    return !sig || ((!sig->vararg || sig->vararg->arg != name) &&
                    (!sig->kwarg || sig->kwarg->arg != name));
  };
  // What `*args` and `**kwargs` receive: the arguments no other parameter
  // takes, through a temporary reading them all, so what the callee makes
  // of them derives from those variables. (Unbound, DeiT's
  // `metric_logger.update(loss=loss_value)` read nothing: fast-forward
  // re-ran it without computing `loss_value`, a NameError.)
  // (With the variable the caller lowered an argument to, if any: a dict
  // display's temporary restores what it holds, lowerArgToVar.)
  std::vector<std::pair<const ast::Expr *, std::string>> toVararg, toKwarg;
  {
    for (size_t i = 0; i < posArgs.size(); ++i) {
      if (llvm::isa<ast::Starred>(posArgs[i]) ||
          first + i >= std::min(positional, params.size())) {
        toVararg.push_back(
            {posArgs[i], i < argVars.size() ? argVars[i] : std::string()});
        continue;
      }
      std::string var = i < argVars.size() ? argVars[i] : "";
      if (var.empty())
        var = expressionArgument(f, posArgs[i], argEff);
      bindParam(params[first + i], var, factsOf(f, posArgs[i]));
    }
    for (const ast::Keyword *k : keywords) {
      if (k->arg.empty() || !byName(k->arg)) {
        std::string given;
        for (const auto &[name, v] : kwVars)
          if (name == k->arg)
            given = v;
        toKwarg.push_back({k->value, given});
        continue;
      }
      std::string var;
      for (const auto &[name, v] : kwVars)
        if (name == k->arg)
          var = v;
      if (var.empty())
        var = expressionArgument(f, k->value, argEff);
      bindParam(k->arg.str(), var, factsOf(f, k->value));
    }
    auto gather =
        [&](const ast::Arg *param,
            llvm::ArrayRef<std::pair<const ast::Expr *, std::string>> values) {
      if (!param || values.empty() || bound.count(param->arg))
        return;
      Effects reads;
      // (A dict display's own temporary; any other value through one that
      // reads it: `**kwargs` is a new dict, no alias of the caller's.)
      for (const auto &[e, given] : values)
        if (std::string v = !given.empty() && isa<ast::Dict>(e)
                                 ? given
                                 : expressionArgument(f, e, argEff);
            !v.empty())
          reads.uses.insert(v);
      if (reads.uses.empty())
        return;
      std::string var = *reads.uses.begin();
      if (reads.uses.size() > 1) {
        var = newTemp(f);
        // What the gathered values restore, it restores: DeiT's
        // `save_on_master({'model': ..., 'optimizer': ...}, path)` saves
        // the dict through `torch.save(*args, **kwargs)`, and what the
        // dict holds is restored from the checkpoint (not saved twice in
        // its sidecar).
        llvm::SmallVector<NamedAttribute> attrs{strAttr("kind", "assign")};
        // (A dict display's temporary, or a variable holding a dict:
        // DINO's `save_on_master(save_dict, path)`; not the path.)
        std::vector<std::string> restoring;
        for (const auto &[e, given] : values) {
          if (!given.empty() && isa<ast::Dict>(e)) {
            restoring.push_back(given);
            continue;
          }
          if (!isa<ast::Name, ast::Attribute>(e) || !pointsTo)
            continue;
          std::string v = varPath(f, e);
          if (!v.empty() &&
              llvm::any_of(pointsTo->pointsTo(e),
                           [&](PointsToResult::ObjectId o) {
                             return pointsTo->object(o).kind ==
                                    AbstractObject::Kind::Dict;
                           }))
            restoring.push_back(v);
        }
        if (!restoring.empty())
          attrs.push_back(attr("restores", strArray(restoring)));
        emit(ir::StmtOp::getOperationName(), values.front().first, {var},
             reads, attrs);
      }
      bindParam(param->arg.str(), var, {});
    };
    if (sig) {
      gather(sig->vararg, toVararg);
      gather(sig->kwarg, toKwarg);
    }
  }
  // A call of a function that fetches one batch fetches one batch.
  if (facts.count("fetches-batch:" + sym))
    noteFetchesBatch(f);
  Effects eff = argEff;
  eff.updates.insert(updates.begin(), updates.end());
  llvm::SmallVector<NamedAttribute> attrs{attr("callee", ref)};
  if (!bind.empty())
    attrs.push_back(attr("bind", builder.getDictionaryAttr(bind)));
  std::vector<std::string> none;
  llvm::SmallVector<NamedAttribute> strings;
  for (const auto &[param, value] :
       constantParameters(sym, first, posArgs, keywords, params)) {
    if (value->kind == ast::ConstantKind::None)
      none.push_back(param);
    else if (value->kind == ast::ConstantKind::Str)
      strings.push_back(
          builder.getNamedAttr(param, builder.getStringAttr(value->value)));
  }
  if (!none.empty())
    attrs.push_back(attr("none_params", strArray(none)));
  if (!strings.empty())
    attrs.push_back(attr("str_params", builder.getDictionaryAttr(strings)));
  emit(ir::CallOp::getOperationName(), at, defs, eff, attrs);
}

bool Lowerer::isProperty(const std::string &owner, StringRef method) const {
  auto def = funcDefs.find(owner + "::" + method.str());
  return def != funcDefs.end() && ast::isPropertyGetter(def->second);
}

std::vector<std::pair<std::string, const ast::Constant *>>
Lowerer::constantParameters(const std::string &sym, size_t first,
                            ast::NodeList<ast::Expr> posArgs,
                            ast::NodeList<ast::Keyword> keywords,
                            llvm::ArrayRef<std::string> params) const {
  auto constant = [](const ast::Expr *e) -> const ast::Constant * {
    auto *c = llvm::dyn_cast_or_null<ast::Constant>(e);
    return c && (c->kind == ast::ConstantKind::None ||
                 c->kind == ast::ConstantKind::Str)
               ? c
               : nullptr;
  };
  // A `*xs` or `**d` may give any parameter: nothing is known.
  if (llvm::any_of(posArgs, [](const ast::Expr *a) {
        return llvm::isa<ast::Starred>(a);
      }) ||
      llvm::any_of(keywords,
                   [](const ast::Keyword *k) { return k->arg.empty(); }))
    return {};
  std::vector<std::pair<std::string, const ast::Constant *>> found;
  llvm::StringSet<> given;
  // Only the parameters a call fills by position (not `*args` and
  // `**kwargs`, which `params` lists too: `save(state, "out.pt")` of
  // `def save(*args, **kwargs)` gave `kwargs` the string).
  auto def = funcDefs.find(sym);
  const ast::Arguments *sig =
      def == funcDefs.end() ? nullptr : def->second->args;
  size_t byPosition =
      sig ? std::min(params.size(), sig->posonlyargs.size() + sig->args.size())
          : params.size();
  auto starName = [&](StringRef name) {
    return sig && ((sig->vararg && sig->vararg->arg == name) ||
                   (sig->kwarg && sig->kwarg->arg == name));
  };
  for (size_t i = 0; i < posArgs.size() && first + i < byPosition; ++i) {
    given.insert(params[first + i]);
    if (const ast::Constant *c = constant(posArgs[i]))
      found.push_back({params[first + i], c});
  }
  for (const ast::Keyword *k : keywords) {
    given.insert(k->arg);
    if (const ast::Constant *c = constant(k->value);
        c && llvm::is_contained(params, k->arg.str()) && !starName(k->arg))
      found.push_back({k->arg.str(), c});
  }
  // Parameters left to their defaults.
  if (!sig)
    return found;
  const ast::Arguments &a = *sig;
  std::vector<const ast::Arg *> positional(a.posonlyargs.begin(),
                                           a.posonlyargs.end());
  positional.insert(positional.end(), a.args.begin(), a.args.end());
  size_t withDefault = positional.size() - a.defaults.size();
  for (size_t i = withDefault; i < positional.size(); ++i)
    if (const ast::Constant *c = constant(a.defaults[i - withDefault]);
        c && !given.count(positional[i]->arg))
      found.push_back({positional[i]->arg.str(), c});
  for (size_t i = 0; i < a.kwonlyargs.size() && i < a.kwDefaults.size(); ++i)
    if (const ast::Constant *c = constant(a.kwDefaults[i]);
        c && !given.count(a.kwonlyargs[i]->arg))
      found.push_back({a.kwonlyargs[i]->arg.str(), c});
  return found;
}

/// Which argument of a call of builtin `name` is a function the builtin
/// calls: an index into the positional arguments, then the keywords.
static std::optional<unsigned> calledArgument(StringRef name,
                                              const ast::Call *call) {
  if ((name == "map" || name == "filter") && call->args.size() >= 2)
    return 0;
  if (name == "sorted" || name == "min" || name == "max")
    for (size_t i = 0; i < call->keywords.size(); ++i)
      if (call->keywords[i]->arg == "key")
        return call->args.size() + i;
  return std::nullopt;
}

bool Lowerer::lowerCall(FuncCtx &f, const ast::Call *call, std::string &target,
                        Effects &out, bool wantValue) {
  const ast::Expr *fn = call->func;
  auto *attrFn = llvm::dyn_cast<ast::Attribute>(fn);
  std::string q = qualName(f, fn);
  // A method of a global of the program's module (`Shake.apply(a, b)`,
  // Shake an autograd Function imported from the program's `fn.py`): a
  // method call on that global, not a name of a library called `fn`.
  if (attrFn && !q.empty())
    if (StringRef m = programModuleOf(q);
        !m.empty() && StringRef(q).drop_front(m.size() + 1).contains('.'))
      q.clear();
  // A read of a value that differs from run to run (the clock: a run's
  // folder named `datetime.now().strftime(...)`): noted for the transform,
  // which records it for fast-forward.
  if (!q.empty() && !api.variesWith(q).empty() && currentUnit &&
      currentUnit->file) {
    const ast::Node *stmt = currentStmt ? currentStmt : call;
    varyingReads.insert({currentUnit->file->getName().str(),
                         stmt->getRange().begin.offset,
                         call->getRange().begin.offset,
                         call->getRange().end.offset, q});
  }
  // `InfiniteDataLoader(...)` (a subclass of DataLoader the program
  // defines), `loader = DataLoader if w else InfiniteDataLoader;
  // loader(...)`: a loader is constructed, with DataLoader's arguments
  // (such subclasses pass theirs on). `loaderSubclass` names the program's
  // class, which the transform does not key.
  std::string loaderSubclass;
  // A program class that is a library container with methods added: its
  // construction is the container's (containerSubclassCalled).
  bool containerSubclass = false;
  // (Also when imported from the program's module by name: YOLOX's
  // `from yolox.data import DataLoader` inside get_data_loader.)
  if (q.empty() || !programModuleOf(q).empty()) {
    FactSet calleeClasses;
    if (std::string path = varPath(f, fn); !path.empty())
      for (const std::string &fact : factsOfVar(f, path))
        if (StringRef(fact).starts_with("class:"))
          calleeClasses.insert(fact.substr(6));
    if (std::string loader =
            loaderClassCalled(fn, calleeClasses, loaderSubclass);
        !loader.empty() || q.empty())
      q = loader;
    if (q.empty() || !programModuleOf(q).empty())
      if (std::string base = containerSubclassCalled(fn, calleeClasses);
          !base.empty()) {
        q = base;
        containerSubclass = true;
      }
    // A library name held in a variable (`dataset_class =
    // torchvision.datasets.CIFAR10`, or CIFAR100 in another branch, then
    // `dataset_class(root, transform=...)`): the call is that library
    // call (before: a call of nothing detc knew, and the dataset's
    // transforms were never run in the per-example region).
    if (q.empty())
      q = libraryNameHeld(fn);
  } else if (std::string base = librarySource.baseOfRole(q, "loader");
             !base.empty()) {
    // A subclass of DataLoader a library defines, read from its source
    // (timm's MultiEpochsDataLoader): a loader, as the program's own
    // subclasses are (it was a plain call: its dataset's draws unseen,
    // the loader unkeyed). (A name the tables describe is not asked.)
    loaderSubclass = q;
    q = base;
  }

  // CheckHint's `_checkpoint()` hint.
  // Scripts define `_checkpoint` as a no-op so that they run without detc.
  if (isName(fn, "_checkpoint") && q.empty()) {
    if (emitIR) {
      llvm::SmallVector<NamedAttribute> attrs;
      if (!call->args.empty())
        if (auto *c = llvm::dyn_cast<ast::Constant>(call->args[0]);
            c && c->kind == ast::ConstantKind::Str)
          attrs.push_back(strAttr("label", c->value));
      OperationState state(loc(currentStmt, call),
                           ir::HintOp::getOperationName());
      state.addAttributes(attrs);
      createOp(state);
    }
    target.clear();
    return true;
  }

  // Receiver and arguments, in evaluation order.
  CallArgs args;
  args.call = call;
  std::string recvVar;
  FactSet recvFacts;
  bool isMethod = attrFn && q.empty();
  if (isMethod) {
    recvVar = lowerToVar(f, attrFn->value, args.eff);
    // An instance of the program's classes held in a container (DeiT's and
    // MAE's `self.meters[k].update(v)`): the container stands for it, as
    // the object the method changes and the `self` it binds. (With no receiver variable, the call bound
    // its first argument to `self`, and what the meters summed was lost to
    // the analysis: a resume re-ran the epoch's return with meters never
    // updated and divided by zero.)
    recvFacts = factsOf(f, attrFn->value);
    if (recvVar.empty() && isa<ast::Subscript>(attrFn->value) && pointsTo &&
        llvm::any_of(pointsTo->pointsTo(attrFn->value),
                     [&](PointsToResult::ObjectId o) {
                       return pointsTo->object(o).kind ==
                              AbstractObject::Kind::Instance;
                     })) {
      const ast::Expr *base = attrFn->value;
      while (auto *s = dyn_cast<ast::Subscript>(base))
        base = s->value;
      if (std::string p = varPath(f, base);
          !p.empty() && args.eff.uses.count(p))
        recvVar = p;
    }
    // Instances of the program's classes the facts do not know of (`self`
    // of a method a library calls, as a DataLoader calls `__getitem__`):
    // what the points-to analysis says the receiver is.
    if (llvm::none_of(recvFacts, [](const std::string &fact) {
          return StringRef(fact).starts_with("inst:");
        }))
      addInstanceFacts(attrFn->value, recvFacts);
  }
  // A call that may be the program's (a local name, a method, or a
  // function of one of its modules: DeiT's `utils.save_on_master({...},
  // path)`) gets its dict displays as temporaries that restore what they
  // hold (lowerArgToVar).
  bool programCall = q.empty() || !programModuleOf(q).empty();
  for (const ast::Expr *a : call->args) {
    std::vector<std::string> elems;
    Effects &ae = args.argEffects[a];
    if (auto *seq = llvm::dyn_cast<ast::Sequence>(a)) {
      for (const ast::Expr *el : seq->elts)
        elems.push_back(lowerToVar(f, el, ae));
      args.posVars.push_back("");
    } else {
      args.posVars.push_back(programCall ? lowerArgToVar(f, a, ae)
                                         : lowerToVar(f, a, ae));
      elems.push_back(args.posVars.back());
    }
    args.eff.merge(ae);
    args.posElements.push_back(std::move(elems));
  }
  for (const ast::Keyword *k : call->keywords) {
    Effects &ae = args.argEffects[k->value];
    if (k->arg.empty()) {
      ae = lowerExpr(f, k->value);
      args.eff.merge(ae);
      args.doubleStar.push_back(k->value);
      continue;
    }
    args.kwVars.emplace_back(k->arg.str(),
                             programCall ? lowerArgToVar(f, k->value, ae)
                                         : lowerToVar(f, k->value, ae));
    args.eff.merge(ae);
  }

  auto result = [&]() -> std::string & {
    if (target.empty() && wantValue)
      target = newTemp(f);
    return target;
  };
  auto defsOfResult = [&]() -> std::vector<std::string> {
    if (!wantValue && target.empty())
      return {};
    return {result()};
  };
  auto setFacts = [&](const FactSet &fs) {
    setCallFacts(call, fs);
    if (!target.empty())
      assignVarFacts(f, target, fs);
  };
  // A call of a model (`model(x)`, or `model.forward(x)` written out): a
  // forward of the builds it may hold. False when it holds none.
  auto lowerForward = [&](const FactSet &modelFacts,
                          const std::string &modelVar) {
    std::vector<std::string> builds = objectsOf(modelFacts, ObjectInfo::Build);
    if (builds.empty() || modelVar.empty())
      return false;
    // The callee may also be a model detc does not read (one branch
    // builds a torchvision model, another loads one through torch.hub).
    noteUnreadCall(f, call, q, isMethod ? attrFn->value : nullptr);
    Effects eff = args.eff;
    eff.uses.insert(modelVar);
    auto defs = defsOfResult();
    emit(ir::ForwardOp::getOperationName(), call, defs, eff,
         {strAttr("model", modelVar), attr("builds", strArray(builds))});
    // Its output: the backward reaches the model's parameters through it,
    // but an optimizer over it (`Adam([out.clone()])`) updates that
    // tensor, not the model (`out:`, not `from:`).
    FactSet fs;
    for (const std::string &b : builds)
      fs.insert("out:" + b);
    for (const ast::Expr *a : call->args) {
      FactSet af = fromFacts(factsOf(f, a));
      fs.insert(af.begin(), af.end());
    }
    // The forward of a user model sees its instance.
    for (const std::string &fact : modelFacts)
      if (StringRef(fact).starts_with("inst:")) {
        std::string owner = findMethod(fact.substr(5), "forward");
        if (!owner.empty())
          addFacts(owner + "::forward|self", modelFacts);
      }
    setFacts(fs);
    return true;
  };
  auto opaque = [&](bool updatesReceiver, const std::string &changed) {
    out.merge(args.eff);
    if (!isMethod && q.empty()) {
      std::string p = varPath(f, fn);
      Effects calleeEff = lowerExpr(f, fn);
      out.merge(calleeEff);
      (void)p;
    }
    if (updatesReceiver && !changed.empty() && changed[0] != '$')
      out.updates.insert(changed);
    FactSet fs = fromFacts(recvFacts);
    for (const ast::Expr *a : call->args) {
      FactSet af = fromFacts(factsOf(f, a));
      fs.insert(af.begin(), af.end());
    }
    setCallFacts(call, fs);
    return false;
  };

  // `it = iter(loader)` holds the loader's batches; `next(it)` (also
  // `next(iter(loader))`) fetches one; `list(loader)` fetches them all.
  // `pbar = tqdm(loader)` holds the loader's batches too: a progress bar
  // iterates what it wraps.
  bool progressBar = !isMethod && call->args.size() >= 1 && !q.empty() &&
                     iteratesItsArgument(api, q);
  // `it.next()`: the iterator's own method, as torch's loader iterators
  // had it and FixMatch-pytorch still calls it.
  bool nextMethod = isMethod && call->args.empty() &&
                    call->keywords.empty() &&
                    (attrFn->attr == "next" || attrFn->attr == "__next__");
  if ((progressBar || nextMethod ||
       (!isMethod && q.empty() && call->args.size() >= 1 &&
        (isName(fn, "iter") || isName(fn, "next") || isName(fn, "list")) &&
        f.unit->moduleScope.locals.count(cast<ast::Name>(fn)->id) == 0))) {
    const ast::Expr *arg = nextMethod ? attrFn->value : call->args[0];
    if (auto *inner = dyn_cast<ast::Call>(arg); inner && isName(fn, "next") &&
                                                isName(inner->func, "iter") &&
                                                inner->args.size() == 1)
      arg = inner->args[0];
    FactSet lf = factsOf(f, arg);
    std::string loaderVar = varPath(f, arg);
    bool holds = progressBar || isName(fn, "iter");
    bool isLoader = !objectsOf(lf, ObjectInfo::Loader).empty();
    // `list(DataLoader(...))`: a fetch from a loader no variable holds.
    if (isLoader && !holds)
      loaderVar = loaderHolder(f, arg);
    if (isLoader && !loaderVar.empty()) {
      if (holds) {
        auto defs = defsOfResult();
        llvm::SmallVector<NamedAttribute> attrs{strAttr("kind", "assign")};
        if (defs.size() == 1 && args.eff.uses.size() == 1 &&
            args.eff.updates.empty())
          attrs.push_back(attr("copy", builder.getUnitAttr()));
        emit(ir::StmtOp::getOperationName(), call, defs, args.eff, attrs);
      } else {
        // `next(it)` advances `it`: a restart must restore where the
        // iterator stood, so the iterator is state the loop changes.
        bool advances =
            nextMethod || (isName(fn, "next") && arg == call->args[0]);
        emitFetch(f, call, loaderVar, lf, defsOfResult(), advances);
        // `next(self.data)` of a kept iterator fetches the next batch;
        // `next(iter(loader))` only peeks at a first one (the DDP
        // tutorial's batch size), whatever loop calls it.
        if (advances)
          noteFetchesBatch(f);
      }
      setFacts(holds ? lf : FactSet());
      return true;
    }
    // `next(it)` of any other iterator (a zip of loaders, a list's, a
    // generator's) advances it as well: state the loops change, which a
    // checkpoint saves or refuses to (HintPlan), never starts over.
    if (isName(fn, "next") && arg == call->args[0])
      if (std::string it = varPath(f, arg); !it.empty() && it[0] != '$')
        args.eff.updates.insert(it);
  }

  // Calls `method` of each of `owners` (methodOwners) on `self`, as
  // alternatives: with the call's arguments (`obj(x)` runs `__call__`) or
  // none (`next(obj)` runs `__next__`); the result is what they return.
  auto callMethodOf = [&](std::vector<std::pair<std::string, std::string>>
                              owners,
                          StringRef method, const std::string &self,
                          const FactSet &selfFacts, bool withArgs,
                          StringRef what) {
    if (!followsAlternatives(f, call, owners.size(), what, "classes"))
      owners.resize(kMaxCallAlternatives);
    auto defs = defsOfResult();
    FactSet returned;
    emitAlternatives(owners.size(), call, [&](size_t i) {
      const std::string &owner = owners[i].first;
      std::string sym = owner + "::" + method.str();
      // One class: all the receiver is known to be; else that class's.
      FactSet bound = owners.size() == 1 && !selfFacts.empty()
                          ? selfFacts
                          : FactSet{owners[i].second};
      if (withArgs)
        emitUserCall(f, call, sym, classMethodRef(owner, method), self,
                     bound, call, args.posVars, args.kwVars, defs, {},
                     args.eff);
      else
        emitUserCall(f, call, sym, classMethodRef(owner, method), self,
                     bound, ast::NodeList<ast::Expr>(),
                     ast::NodeList<ast::Keyword>(), {}, {}, defs, {},
                     args.eff);
      if (auto it = facts.find("ret:" + sym); it != facts.end())
        returned.insert(it->second.begin(), it->second.end());
    });
    setFacts(returned);
  };

  // `next(x)` of an instance of the program's class runs its `__next__`
  // (stargan-v2's InputFetcher draws the latent codes there).
  if (!isMethod && q.empty())
    if (std::vector<std::pair<std::string, std::string>> owners =
            nextMethodOwners(f, call);
        !owners.empty()) {
      callMethodOf(std::move(owners), "__next__", varPath(f, call->args[0]),
                   FactSet{}, /*withArgs=*/false,
                   "the iterator may be an instance of");
      return true;
    }

  // Builtins that call a function they are given: map(fn, xs) and
  // filter(fn, xs) call fn on each element, sorted/min/max(xs, key=fn) fn.
  // The program's functions and callable objects the argument may hold
  // (`map(lambda t: t(x), self.transforms)`) are called here.
  if (!isMethod && q.empty() && isa<ast::Name>(fn) &&
      !isBoundName(f, cast<ast::Name>(fn)->id))
    if (std::optional<unsigned> given =
            calledArgument(cast<ast::Name>(fn)->id, call)) {
      const ast::Expr *function =
          *given < call->args.size()
              ? call->args[*given]
              : call->keywords[*given - call->args.size()]->value;
      std::string functionVar = varPath(f, function);
      FactSet facts = factsOf(f, function);
      if (llvm::none_of(facts, [](const std::string &fact) {
            return StringRef(fact).starts_with("func:") ||
                   StringRef(fact).starts_with("inst:");
          }))
        addCalleeFacts(function, facts);
      std::set<std::string> called;
      callProgramParts(call, functionVar, facts, called, Effects());
    }

  // A call to a function or class of the analysed program.
  // What the callee expression holds: a function, a class, a model (also
  // for `self.fc(x)`, which calls the attribute, not a method).
  FactSet calleeFacts;
  std::string calleePath = varPath(f, fn);
  if (!calleePath.empty()) {
    calleeFacts = factsOfVar(f, calleePath);
    // The facts follow assignments by name; an attribute may also be set
    // where they do not look (`setattr(self, name, layer)`,
    // `add_module`): every model or layer the points-to says it holds.
    if (isa<ast::Attribute>(fn))
      addBuildFacts(fn, calleeFacts);
  } else if (!q.empty())
    calleeFacts = factsOfVar(f, "@" + q);
  // A loader subclass is constructed as the loader it derives from.
  if (!loaderSubclass.empty())
    calleeFacts.clear();
  // Every function or class the points-to analysis says the callee
  // expression may be (it reads the same AST): those the facts do not know
  // (a star import's name, an attribute of a module object) and the other
  // alternatives of a name bound more than once (`from model import
  // Generator` in one branch, `from swagan import Generator` in another:
  // the facts keep the last).
  if (!isMethod && loaderSubclass.empty())
    addCalleeFacts(fn, calleeFacts);
  // A factory given the dotted name of what it builds
  // (`construct_class_by_name(class_name='training.loss.Loss', ...)`):
  // the classes and functions the names name are what the call runs (the
  // factory's own code only looks them up by name; a name detc could not
  // resolve stays in what the points-to says the result may be).
  if (pointsTo && loaderSubclass.empty())
    if (std::vector<PointsToResult::ObjectId> named =
            pointsTo->namedDefinitions(call);
        !named.empty()) {
      calleeFacts.clear();
      addProgramCallables(named, calleeFacts);
    }
  // An instance the facts do not know of (`for t in self.transforms:
  // t(img)`, DETR's and torchvision's Compose of the program's own
  // transforms): what the points-to says the callee may be.
  if (!isMethod && loaderSubclass.empty() &&
      llvm::none_of(calleeFacts, [](const std::string &fact) {
        return StringRef(fact).starts_with("func:") ||
               StringRef(fact).starts_with("class:") ||
               StringRef(fact).starts_with("inst:") ||
               StringRef(fact).starts_with("obj:");
      }))
    addInstanceFacts(fn, calleeFacts);
  // `super().m(...)` in a method of class C: the first of C's bases (in
  // order, then theirs) that defines m, with the method's own `self`.
  if (isMethod)
    if (auto *sc = llvm::dyn_cast<ast::Call>(attrFn->value);
        sc && isName(sc->func, "super") && !isBoundName(f, "super")) {
      auto [cls, method] = StringRef(f.symbol).split("::");
      auto params = funcParams.find(f.symbol);
      const ClassInfo *ci = classOf(cls.str());
      if (ci && !method.empty() && !method.contains('.') &&
          params != funcParams.end() && !params->second.empty()) {
        std::string self = paramName(params->second, 0).str();
        for (const std::string &base : ci->userBases) {
          std::string owner = findMethod(base, attrFn->attr);
          if (owner.empty())
            continue;
          auto defs = defsOfResult();
          std::string sym = owner + "::" + attrFn->attr.str();
          emitUserCall(f, call, sym, classMethodRef(owner, attrFn->attr), self,
                       factsOfVar(f, self), call, args.posVars, args.kwVars,
                       defs, {}, args.eff);
          auto it = facts.find("ret:" + sym);
          setFacts(it == facts.end() ? FactSet() : it->second);
          return true;
        }
        // The forward of a library layer the class derives from
        // (`super().forward(x)` in a dropout subclass): its draw.
        if (llvm::is_contained(kModelCallMethods, attrFn->attr))
          emitLibraryBaseDraw(cls.str(), call);
      }
    }
  // A library base's method that runs one of the subclass's own (role
  // `subclass_call`: `CheckpointFunction.apply(fn, n, *args)` runs the
  // program's `forward(ctx, fn, n, *args)`, torch making `ctx`).
  if (isMethod)
    for (const std::string &fact : recvFacts) {
      if (!StringRef(fact).starts_with("class:"))
        continue;
      std::string cls = fact.substr(6);
      const ClassInfo *ci = classOf(cls);
      if (!ci || !findMethod(cls, attrFn->attr).empty())
        continue;
      for (const std::string &base : ci->libBases) {
        const ApiEntry *e = api.lookup(api.canonicalize(base + "." +
                                                        attrFn->attr.str()));
        if (!e || e->role != "subclass_call")
          continue;
        std::string owner = findMethod(cls, e->get("method"));
        if (owner.empty())
          continue;
        auto defs = defsOfResult();
        std::string sym = owner + "::" + e->get("method").str();
        // The first parameter (torch's `ctx`) stands for the class; it is
        // of the type the entry names.
        std::string receiver = varPath(f, attrFn->value);
        FactSet ctxFacts;
        if (StringRef type = e->get("ctx"); !type.empty())
          ctxFacts.insert(("type:" + type).str());
        emitUserCall(f, call, sym, classMethodRef(owner, e->get("method")),
                     receiver, ctxFacts, call, args.posVars, args.kwVars,
                     defs, {}, args.eff);
        // What the library calls afterwards (`backward`, in the backward
        // pass), after it here, where its draws count in the same region;
        // its arguments are the library's, unknown.
        if (StringRef later = e->get("later"); !later.empty())
          if (std::string laterOwner = findMethod(cls, later);
              !laterOwner.empty())
            emitUserCall(f, call, laterOwner + "::" + later.str(),
                         classMethodRef(laterOwner, later), receiver,
                         ctxFacts, ast::NodeList<ast::Expr>(),
                         ast::NodeList<ast::Keyword>(), {}, {}, {}, {},
                         Effects());
        auto it = facts.find("ret:" + sym);
        setFacts(it == facts.end() ? FactSet() : it->second);
        return true;
      }
    }
  if (isMethod) {
    bool realMethod = false;
    for (const std::string &fact : recvFacts)
      if (StringRef(fact).starts_with("inst:"))
        if (std::string owner = findMethod(fact.substr(5), attrFn->attr);
            !owner.empty() && !isProperty(owner, attrFn->attr)) {
          calleeFacts.clear(); // A real method of a user class.
          realMethod = true;
        }
    // Not a method the receiver's class defines: also everything the
    // points-to analysis says the attribute holds — a static or unbound
    // method through its class (`Data.wiggle(x)`), a callable object kept
    // as a class attribute (`blur = Blur()` in the class body), a function
    // or class a functools.partial wraps, an instance (a model). The facts
    // may name only some of them (`self.norm = get_norm(kind)` returns a
    // class in one branch, a partial of another in the next: the facts
    // follow the first), and a pass must not lose what an earlier one
    // found.
    if (!realMethod) {
      addCalleeFacts(fn, calleeFacts);
      addInstanceFacts(fn, calleeFacts);
    }
    // A model kept in a field whose builds the facts lost (a trainer's
    // `self.model`, given a model a factory function built).
    if (!realMethod && objectsOf(calleeFacts, ObjectInfo::Build).empty())
      addBuildFacts(fn, calleeFacts);
  }
  // The functions the callee may be: one call, or alternatives (`op` taken
  // out of a list of functions).
  std::vector<std::string> funcs;
  for (const std::string &fact : calleeFacts)
    if (StringRef(fact).starts_with("func:"))
      funcs.push_back(fact.substr(5));
  // Methods among the candidates of `getattr(obj, name)` with a computed
  // name: called on `obj`.
  std::vector<std::string> methods;
  std::string methodSelf;
  const ast::Call *partialArgs = nullptr;
  if (auto *g = llvm::dyn_cast<ast::Call>(fn);
      g && isName(g->func, "getattr") && !g->args.empty() &&
      !isBoundName(f, "getattr")) {
    methodSelf = varPath(f, g->args[0]);
    if (!methodSelf.empty())
      for (const std::string &fact : calleeFacts)
        if (StringRef(fact).starts_with("method:"))
          methods.push_back(fact.substr(7));
  } else if (boundByPartial(fn)) {
    // A bound method kept as a value, or a functools.partial of one
    // (`compute_losses = partial(self.diffusion.training_losses, model,
    // x)`), also in an attribute (`ctx.run_function = self._forward`,
    // then `ctx.run_function(x)`; a method the receiver's class defines
    // left no `method:` facts): called on what it is bound to — the
    // partial's `obj.method`'s object and arguments when this function
    // made it, else the callee, which stands for it.
    methodSelf = varPath(f, fn);
    // `self.padding = self._same_padding`, then `self.padding(x)` (VITS):
    // bound to the receiver itself.
    if (isMethod && boundTo(fn, attrFn->value))
      methodSelf = varPath(f, attrFn->value);
    if (auto *n = llvm::dyn_cast<ast::Name>(fn))
      if (auto it = f.partialsMade.find(varPath(f, n));
          it != f.partialsMade.end()) {
        const ast::Call *made = it->second;
        if (auto *bound = llvm::dyn_cast<ast::Attribute>(made->args[0]))
          if (std::string self = varPath(f, bound->value); !self.empty())
            methodSelf = self;
        partialArgs = made;
      }
    if (!methodSelf.empty())
      for (const std::string &fact : calleeFacts)
        if (StringRef(fact).starts_with("method:"))
          methods.push_back(fact.substr(7));
  }
  // A method reached through its class (`Data.wiggle(x)`, a static or
  // unbound method): called with no receiver bound, its first parameter
  // taking the first argument.
  std::vector<std::string> unbound;
  if (isMethod && methods.empty())
    for (const std::string &fact : calleeFacts)
      if (StringRef(fact).starts_with("method:")) {
        if (llvm::any_of(recvFacts, [](const std::string &r) {
              return StringRef(r).starts_with("class:");
            }))
          unbound.push_back(fact.substr(7));
      }
  // A class called: constructed. `AUGS[name]()`, `REGISTRY[k](...)`: the
  // callee may be any of several classes, each constructed as an
  // alternative; the result may be an instance of any of them.
  std::vector<std::string> classes;
  for (const std::string &fact : calleeFacts)
    if (StringRef(fact).starts_with("class:"))
      classes.push_back(fact.substr(6));
  // Beside functions (`getattr(module, name)` over a zoo of models and
  // helpers), too many classes are left to the functions' alternatives
  // (and the points-to's instances at the result's uses), as before
  // classes were followed there at all.
  bool besideFunctions = !funcs.empty() || !methods.empty();
  if (containerSubclass ||
      (besideFunctions && classes.size() > kMaxClassesBesideFunctions) ||
      !followsAlternatives(f, call, classes.size(), "the callee may be",
                           "classes"))
    classes.clear();
  FactSet made;
  // Objects made at this call are told apart by class when it may
  // construct several.
  auto idFor = [&](char kind, const std::string &cls) {
    std::string id = objectId(kind, call);
    return classes.size() > 1 ? id + "_" + cls : id;
  };
  // An earlier pass may have seen one class here and named its object
  // by the call alone: that object is not made in this pass.
  if (classes.size() > 1)
    for (char kind : {'b', 'd', 'o'})
      objects.erase(objectId(kind, call));
  auto construct = [&](const std::string &cls) {
    const ClassInfo *ci = classOf(cls);
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    FactSet fs{"inst:" + cls};
    std::string init = findMethod(cls, "__init__");
    if (ci && ci->role == ir::ClassRole::Model) {
      std::string id = idFor('b', cls);
      object(id, ObjectInfo::Build).cls = cls;
      fs.insert("obj:" + id);
      Operation *b = emit(
          ir::BuildOp::getOperationName(), call, {t}, Effects(),
          {strAttr("id", id), attr("cls", FlatSymbolRefAttr::get(&ctx, cls))},
          1);
      inRegion(b, 0, [&] { emitModelForward(f, cls, t); });
    } else if (ci && ci->role == ir::ClassRole::Dataset) {
      std::string id = idFor('d', cls);
      object(id, ObjectInfo::Dataset).cls = cls;
      fs.insert("obj:" + id);
      emit(ir::LoadDataOp::getOperationName(), call, {t}, Effects(),
           {attr("cls", FlatSymbolRefAttr::get(&ctx, cls))});
    } else if (isOptimizerClass(cls)) {
      // An optimizer the script defines (`class Plain(Optimizer)`): its
      // parameters come first, as torch.optim.Optimizer's own.
      std::string id = idFor('o', cls);
      ObjectInfo &o = object(id, ObjectInfo::Optimizer);
      o.cls = cls;
      const ast::Expr *params = !call->args.empty() ? call->args[0] : nullptr;
      for (const ast::Keyword *k : call->keywords)
        if (k->arg == "params")
          params = k->value;
      if (params)
        o.modelFacts = factsOf(f, params);
      fs.insert("obj:" + id);
    }
    setFacts(fs);
    made.insert(fs.begin(), fs.end());
    if (!init.empty()) {
      bool constructed = ci && (ci->role == ir::ClassRole::Model ||
                                ci->role == ir::ClassRole::Dataset);
      std::vector<std::string> defs, updates;
      (constructed ? updates : defs).push_back(t);
      emitUserCall(f, call, init + "::__init__",
                   classMethodRef(init, "__init__"), t, fs, call,
                   args.posVars, args.kwVars, defs, updates, args.eff);
    } else if (!(ci && (ci->role == ir::ClassRole::Model ||
                        ci->role == ir::ClassRole::Dataset))) {
      emit(ir::StmtOp::getOperationName(), call, {t}, args.eff,
           {strAttr("kind", "assign")});
    }
  };
  // Instances of the program's classes among the candidates (a diffusion
  // loss's `model` is a wrapped model in one call, a lambda in another; a
  // list of layers built from config names by `eval` holds a layer class
  // too): their forwards are alternatives beside the functions called and
  // the classes constructed. A larger candidate set must never drop one.
  // Library parts among them (a dataset's `self.transform` is the
  // program's function for one dataset, a torchvision Compose for
  // another): their forwards are one more alternative.
  std::string calleeVar = varPath(f, fn);
  bool builds =
      !calleeVar.empty() && !objectsOf(calleeFacts, ObjectInfo::Build).empty();
  std::vector<std::string> models;
  if (!calleeVar.empty())
    for (const std::string &fact : calleeFacts)
      if (StringRef(fact).starts_with("inst:") &&
          !llvm::is_contained(models, fact.substr(5)))
        models.push_back(fact.substr(5));
  size_t plainFuncs = funcs.size();
  funcs.insert(funcs.end(), unbound.begin(), unbound.end());
  if ((!funcs.empty() || !methods.empty()) &&
      followsAlternatives(f, call, funcs.size(), "the callee may be",
                          "functions")) {
    auto defs = defsOfResult();
    FactSet returned;
    FactSet selfFacts = methods.empty() ? FactSet() : factsOfVar(f, methodSelf);
    // The other candidates of a getattr (the object's fields) may be
    // anything, and a parameter given the program's builders in some
    // calls may be given a library's in others: the call may also run
    // code detc does not read, or a library's that draws.
    if (!methods.empty() || mayCallLibrary(fn))
      noteUnreadCall(f, call, q, nullptr);
    size_t callables = funcs.size() + methods.size() + models.size();
    // Classes among the candidates (`globals()[model_type](...)` in EDM's
    // preconditioners: any class or function of the module): each
    // constructed, as one more alternative.
    size_t firstClass = callables + (builds ? 1 : 0);
    emitAlternatives(firstClass + classes.size(), call, [&](size_t i) {
      std::string sym;
      if (i >= firstClass) {
        construct(classes[i - firstClass]);
        return;
      }
      if (i == callables) {
        lowerForward(calleeFacts, calleeVar);
        return;
      }
      if (i >= funcs.size() + methods.size()) {
        emitModelForward(f, models[i - funcs.size() - methods.size()],
                         calleeVar);
        return;
      }
      if (i < funcs.size()) {
        sym = funcs[i];
        auto [owner, method] = StringRef(sym).rsplit("::");
        emitUserCall(f, call, sym,
                     i < plainFuncs ? FlatSymbolRefAttr::get(&ctx, sym)
                                    : classMethodRef(owner.str(), method),
                     "", {}, call, args.posVars, args.kwVars, defs, {},
                     args.eff);
      } else {
        sym = methods[i - funcs.size()];
        auto [owner, method] = StringRef(sym).rsplit("::");
        // The partial's arguments come first, its keywords beside the
        // call's.
        if (!partialArgs) {
          emitUserCall(f, call, sym, classMethodRef(owner.str(), method),
                       methodSelf, selfFacts, call, args.posVars, args.kwVars,
                       defs, {}, args.eff);
        } else {
          std::vector<ast::Expr *> posArgs(partialArgs->args.begin() + 1,
                                           partialArgs->args.end());
          std::vector<std::string> posVars;
          for (const ast::Expr *a : posArgs)
            posVars.push_back(varPath(f, a));
          posArgs.insert(posArgs.end(), call->args.begin(), call->args.end());
          posVars.insert(posVars.end(), args.posVars.begin(),
                         args.posVars.end());
          std::vector<ast::Keyword *> keywords(partialArgs->keywords.begin(),
                                               partialArgs->keywords.end());
          auto kwVars = args.kwVars;
          for (const ast::Keyword *k : keywords)
            if (!k->arg.empty())
              kwVars.push_back({k->arg.str(), varPath(f, k->value)});
          keywords.insert(keywords.end(), call->keywords.begin(),
                          call->keywords.end());
          emitUserCall(f, call, sym, classMethodRef(owner.str(), method),
                       methodSelf, selfFacts, posArgs, keywords, posVars,
                       kwVars, defs, {}, args.eff);
        }
      }
      if (auto it = facts.find("ret:" + sym); it != facts.end())
        returned.insert(it->second.begin(), it->second.end());
    });
    returned.insert(made.begin(), made.end());
    setFacts(returned);
    return true;
  }
  if (!classes.empty()) {
    size_t forwardAt = classes.size() + (builds ? 1 : 0);
    FactSet forwarded;
    emitAlternatives(forwardAt + models.size(), call, [&](size_t i) {
      if (i < classes.size()) {
        construct(classes[i]);
      } else if (i < forwardAt) {
        lowerForward(calleeFacts, calleeVar);
        if (auto it = callFacts.find(call); it != callFacts.end())
          forwarded = it->second;
      } else {
        emitModelForward(f, models[i - forwardAt], calleeVar);
      }
    });
    made.insert(forwarded.begin(), forwarded.end());
    setFacts(made);
    return true;
  }

  // Which API entry applies.
  const ApiEntry *entry = nullptr;
  std::string apiName = q;
  if (!q.empty()) {
    entry = api.lookup(q);
  } else if (isMethod &&
             // A callable of the program kept in an attribute (a class
             // attribute, a field) shadows a library base's method.
             llvm::none_of(calleeFacts, [](const std::string &fact) {
               return StringRef(fact).starts_with("inst:") ||
                      StringRef(fact).starts_with("func:");
             })) {
    StringRef method = attrFn->attr;
    // The program's classes the receiver may be an instance of that define
    // the method: each is called, as an alternative (`self.aug.apply(x)`
    // for an augmentation picked from a registry).
    std::vector<std::string> owners;
    for (const std::string &fact : recvFacts)
      if (StringRef(fact).starts_with("inst:"))
        if (std::string o = findMethod(fact.substr(5), method);
            !o.empty() && !isProperty(o, method) &&
            !llvm::is_contained(owners, o))
          owners.push_back(o);
    if (!followsAlternatives(f, call, owners.size(),
                             "the receiver may be an instance of", "classes"))
      owners.resize(kMaxCallAlternatives);
    // Otherwise a library base's method, or a library type's.
    for (const std::string &fact : owners.empty() ? recvFacts : FactSet()) {
      StringRef s = fact;
      if (s.consume_front("inst:")) {
        // Library bases of the user class (nn.Module.to, ...).
        std::vector<std::string> work{s.str()};
        for (size_t i = 0; i < work.size() && !entry && i < 32; ++i)
          if (const ClassInfo *ci = classOf(work[i])) {
            for (const std::string &lb : ci->libBases)
              if ((entry = api.lookupMethod(lb, method))) {
                apiName = lb + "." + method.str();
                break;
              }
            work.insert(work.end(), ci->userBases.begin(), ci->userBases.end());
          }
      } else if (s.consume_front("type:")) {
        if ((entry = api.lookupMethod(s, method)))
          apiName = s.str() + "." + method.str();
      }
      if (entry)
        break;
    }
    // The facts name a library type, but the receiver may also hold a value
    // that code no table describes returned (`model, optimizer, loader =
    // privacy_engine.make_private(...)` rebinds the script's optimizer to
    // opacus's DPOptimizer, whose step() adds noise): the call may run that
    // code too (a may-draw in a region), besides the type's method.
    // (Only those values: the type's method is what the facts found, and
    // a name a tensor, an array or an image has, or one a table gives any
    // receiver, is taken as that type's, as on any value of unknown type.)
    if (entry && owners.empty() && pointsTo && emitIR &&
        !api.isKnownResultMethod(method)) {
      std::vector<PointsToResult::ObjectId> returned;
      for (PointsToResult::ObjectId o : pointsTo->pointsTo(attrFn->value))
        if (pointsTo->object(o).label().starts_with(kReturnedBy))
          returned.push_back(o);
      if (std::optional<UnreadReason> why = whyObjectsUnread(returned, ""))
        recordUnreadCall(*f.unit, call, *why);
    }
    // `model.forward(x)` written out is the model's forward, as
    // `model(x)` is (without the module's hooks, which detc does not model).
    if (method == "forward" && lowerForward(recvFacts, recvVar))
      return true;
    if (!owners.empty()) {
      auto defs = defsOfResult();
      FactSet returned;
      emitAlternatives(owners.size(), call, [&](size_t i) {
        std::string sym = owners[i] + "::" + method.str();
        emitUserCall(f, call, sym, classMethodRef(owners[i], method), recvVar,
                     recvFacts, call, args.posVars, args.kwVars, defs, {},
                     args.eff);
        // The `step` of an optimizer class of the script: its body is the
        // script's (parameter arithmetic), and what it does is the update
        // of the models whose parameters the optimizer got.
        if (method == "step" &&
            !objectsOf(recvFacts, ObjectInfo::Optimizer).empty())
          emitOptimizerUpdate(f, call, recvVar, recvFacts, Effects(),
                              owners[i] + ".step");
        if (auto it = facts.find("ret:" + sym); it != facts.end())
          returned.insert(it->second.begin(), it->second.end());
      });
      setFacts(returned);
      return true;
    }
    if (!entry && (entry = api.lookupAnyReceiver(method)))
      apiName = "*." + method.str();
  }

  {
    // Calling a model runs its forward. `self.heads["drop"](x)`,
    // `self.layers[i](x)`: an entry of a container module, which may be any
    // of them (sound for draws: every entry's forward may run), used
    // through the container's variable.
    // A library part or an object of the program's class (a dataset's
    // `self.transform`: a Compose for one dataset, FixMatch's
    // TransformFixMatch for another): each is an alternative.
    std::vector<std::string> callables;
    if (!calleePath.empty() &&
        !objectsOf(calleeFacts, ObjectInfo::Build).empty())
      for (const std::string &fact : calleeFacts) {
        // (A model of the program is a build of its own: its forward is
        // the build's.)
        const ClassInfo *ci = StringRef(fact).starts_with("inst:")
                                  ? classOf(fact.substr(5))
                                  : nullptr;
        if (ci && ci->role != ir::ClassRole::Model &&
            !llvm::is_contained(callables, fact.substr(5)) &&
            !findMethod(fact.substr(5), "__call__").empty())
          callables.push_back(fact.substr(5));
      }
    if (!callables.empty()) {
      emitAlternatives(callables.size() + 1, call, [&](size_t i) {
        if (i == callables.size())
          lowerForward(calleeFacts, calleePath);
        else
          emitModelForward(f, callables[i], calleePath);
      });
      return true;
    }
    if (lowerForward(calleeFacts, calleePath))
      return true;
    if (auto *sub = llvm::dyn_cast<ast::Subscript>(fn);
        sub && calleePath.empty()) {
      std::string container = varPath(f, sub->value);
      // A container that is an instance of the program's class deriving
      // from a library container (DETR's `class Joiner(nn.Sequential)`
      // calls `self[0](x)`, its backbone): the entries the points-to names
      // that are the program's models or callables each run, as an
      // alternative to the container's own forward (a library container's
      // forward already runs its parts).
      FactSet containerFacts =
          container.empty() ? FactSet() : factsOfVar(f, container);
      bool programContainer =
          llvm::any_of(containerFacts, [](const std::string &fact) {
            return StringRef(fact).starts_with("inst:");
          });
      std::vector<std::string> entries;
      for (const std::string &fact : programContainer ? calleeFacts
                                                      : FactSet())
        if (StringRef(fact).starts_with("inst:") &&
            llvm::any_of(kModelCallMethods, [&](StringRef m) {
              return !findMethod(fact.substr(5), m).empty();
            }))
          entries.push_back(fact.substr(5));
      if (!container.empty() && !entries.empty()) {
        emitAlternatives(entries.size() + 1, call, [&](size_t i) {
          if (i == entries.size())
            lowerForward(containerFacts, container);
          else
            emitModelForward(f, entries[i], container);
        });
        return true;
      }
      if (!container.empty() && lowerForward(containerFacts, container))
        return true;
    }
    // `get_model()(x)`, `build(cfg)(x)`, `getattr(self, name)(x)`: a model
    // or layer the callee's own call returns (the points-to says what it
    // builds), held by a temporary. Also an entry of a plain dict or list
    // (`self.heads = {"drop": nn.Dropout(p)}`, then `self.heads["drop"](x)`:
    // not a module container, so no forward of the container runs it).
    // Lowered only then: otherwise the callee is lowered as before.
    if ((isa<ast::Call>(fn) || isa<ast::Subscript>(fn)) && !isMethod &&
        q.empty()) {
      FactSet returned;
      addBuildFacts(fn, returned);
      if (!objectsOf(returned, ObjectInfo::Build).empty()) {
        std::string held = lowerToHeldVar(f, fn, args.eff);
        FactSet heldFacts = factsOfVar(f, held);
        heldFacts.insert(returned.begin(), returned.end());
        if (lowerForward(heldFacts, held))
          return true;
      }
    }
  }
  if (!entry) {
    FactSet modelFacts = calleeFacts;
    std::string modelVar = calleePath;
    // Calling an instance of a user class with `__call__`: each class it
    // may be an instance of, as an alternative. Also one picked out of a
    // list or by a call (AutoAugment's `self.policies[i](img)`,
    // `random.choice(self.ops)(img)`: the points-to says which), held by
    // a temporary: the callee runs first, as Python runs it (the call
    // was silently no one's).
    if (std::vector<std::pair<std::string, std::string>> owners =
            methodOwners(modelFacts, "__call__");
        !owners.empty()) {
      if (modelVar.empty() && !isMethod && q.empty() &&
          (isa<ast::Subscript>(fn) || isa<ast::Call>(fn))) {
        modelVar = lowerToHeldVar(f, fn, args.eff);
      }
      if (!modelVar.empty()) {
        callMethodOf(std::move(owners), "__call__", modelVar, modelFacts,
                     /*withArgs=*/true, "the callee may be an instance of");
        return true;
      }
    }
    if (!isMethod && q.empty()) {
      if (auto *n = llvm::dyn_cast<ast::Name>(fn)) {
        static const char *const dynamic[] = {
            "exec",    "eval",   "compile", "__import__",
            "globals", "locals", "setattr", "delattr"};
        // `eval("models." + name + ".get_cls_net")` the points-to resolved
        // to the attribute of the modules it may name: no unknown code.
        bool resolvedEval = n->id == "eval" && pointsTo &&
                            !pointsTo->modulesImportedByName(call).empty();
        // A function's `locals()` is a snapshot of its variables: writing
        // into it rebinds none of them (spinningup's
        // `logger.save_config(locals())` reads them). A module's is its
        // globals(), a class body's its namespace.
        bool snapshot = n->id == "locals" && !f.isModule && !f.isClassBody;
        if (llvm::is_contained(dynamic, n->id) && !resolvedEval && !snapshot &&
            f.unit->moduleScope.locals.count(n->id) == 0)
          warnUnknown(f, call,
                      "'" + n->id +
                          "' changes the program in ways detc "
                          "cannot see");
      }
    }
    if (q == "importlib.import_module" && !call->args.empty() &&
        !isa<ast::Constant>(call->args[0]) &&
        (!pointsTo || pointsTo->modulesImportedByName(call).empty()))
      warnUnknown(f, call,
                  "modules imported by name at run time are unknown "
                  "to detc");
    // A function of a library no table models whose source makes a
    // DataLoader (timm's create_loader): a loader, its worker count
    // unknown, whose examples run the library's per-example code and the
    // program's datasets given to it.
    if (!q.empty() && !isMethod && emitIR)
      if (std::optional<UnreadReason> why = whyUnread(q))
        if (std::optional<std::string> made =
                loaderMadeBy(q, *why, call, f)) {
          // The call runs the library's code now as well: inside a region
          // it may draw there (a registry's `apply(name, x)` given what
          // may be a dataset), whatever loader it makes.
          recordUnreadCall(*f.unit, call, *why);
          std::string dsId = objectId('d', call);
          ObjectInfo &ds = object(dsId, ObjectInfo::Dataset);
          ds.api = q;
          ds.unreadTransform = unreadEntry(*f.unit, call->func, *why, true);
          std::string id = objectId('l', call);
          ObjectInfo &o = object(id, ObjectInfo::Loader);
          o.api = q;
          o.workers = "unknown";
          o.datasetFacts.insert("obj:" + dsId);
          for (const ast::Expr *a : call->args) {
            FactSet given = factsOf(f, a);
            o.datasetFacts.insert(given.begin(), given.end());
          }
          for (const ast::Keyword *k : call->keywords) {
            FactSet given = factsOf(f, k->value);
            o.datasetFacts.insert(given.begin(), given.end());
          }
          std::string &t = result();
          if (t.empty())
            t = newTemp(f);
          emit(ir::BatchesOp::getOperationName(), call, {t}, args.eff,
               {strAttr("dataset", t + ".dataset"),
                strAttr("workers", "unknown"), strAttr("api", q),
                attr("library_loader", builder.getStringAttr(*made))});
          setFacts({"obj:" + id, "type:" + q});
          return true;
        }
    // A library call no table describes, given the program's functions
    // or callable objects (`trainer.run(step_fn)`, a hook, a callback):
    // it may call them, here (sound by default; a table entry says
    // otherwise). Models given to it are not run: a forward is a table's
    // decision (`apply`).
    if (!q.empty() || isMethod) {
      std::set<std::string> called;
      auto passOn = [&](const ast::Expr *a) {
        FactSet given = factsOf(f, a);
        if (llvm::none_of(given, [](const std::string &fact) {
              return StringRef(fact).starts_with("func:") ||
                     StringRef(fact).starts_with("inst:");
            }))
          addCalleeFacts(a, given);
        FactSet callable;
        for (const std::string &fact : given)
          if (StringRef(fact).starts_with("func:") ||
              (StringRef(fact).starts_with("inst:") &&
               !findMethod(fact.substr(5), "__call__").empty()))
            callable.insert(fact);
        callProgramParts(call, varPath(f, a), callable, called, Effects());
        // A bound method (`retry_call(trainer.train, tries=3)`, `fire.
        // Fire(obj.run)`): called on its receiver, which it binds.
        auto *bound = llvm::dyn_cast<ast::Attribute>(a);
        std::string receiver = bound ? varPath(f, bound->value) : "";
        if (receiver.empty())
          return;
        FactSet receiverFacts = factsOf(f, bound->value);
        addInstanceFacts(bound->value, receiverFacts);
        for (const std::string &fact : given) {
          StringRef sym = fact;
          if (!sym.consume_front("method:") || !called.insert(fact).second)
            continue;
          auto [cls, method] = sym.rsplit("::");
          if (method == bound->attr)
            emitMethodCallOn(call, cls.str(), method, receiver, receiverFacts);
        }
      };
      for (const ast::Expr *a : call->args)
        passOn(a);
      for (const ast::Keyword *k : call->keywords)
        passOn(k->value);
      // An object such a call made, called (or its method): the program's
      // callables it was given when it was made (`Chain([noise])`, kept
      // and called later), as a library's container calls its parts.
      callHeldCallables(f, call, isMethod ? attrFn->value : nullptr, called);
    }
    // Code detc does not read given a loader may iterate it (code it
    // reads and finds free of draws, `list.append`, `os.path.join`, is
    // taken at its word).
    bool unread = noteUnreadCall(f, call, q, isMethod ? attrFn->value : nullptr);
    if (unread && (!q.empty() || isMethod)) {
      std::vector<std::string> argVars = args.posVars;
      for (const auto &kw : args.kwVars)
        argVars.push_back(kw.second);
      emitLibraryLoop(f, call, argVars, recvVar, recvFacts);
    }
    // A receiver reached through a subscript (`self.model[0].weight
    // .mul_(0.5)`, `history['loss'].append(x)`) has no variable of its
    // own: the container it is an element of changes (it was left
    // unchanged) — for an in-place method by torch's naming (`mul_`), or a
    // list, dict or set of the program's. (Not any method of any element:
    // `self.images[index].copy()` in a dataset's `__getitem__` would make
    // every dataset state its examples change.)
    std::string changed = recvVar;
    auto changesElement = [&] {
      StringRef m = attrFn->attr;
      if (m.ends_with("_") && !m.starts_with("__"))
        return true;
      using Kind = AbstractObject::Kind;
      return pointsTo &&
             llvm::any_of(pointsTo->pointsTo(attrFn->value),
                          [&](PointsToResult::ObjectId o) {
                            Kind k = pointsTo->object(o).kind;
                            return k == Kind::List || k == Kind::Dict ||
                                   k == Kind::Set;
                          });
    };
    if (isMethod && changed.empty() && changesElement()) {
      const ast::Expr *container = nullptr;
      for (const ast::Expr *e = attrFn->value; e;) {
        if (auto *s = dyn_cast<ast::Subscript>(e))
          e = container = s->value;
        else if (auto *a = dyn_cast<ast::Attribute>(e))
          e = a->value;
        else
          break;
      }
      if (container)
        if (std::string p = varPath(f, container);
            !p.empty() && args.eff.uses.count(p))
          changed = p;
    }
    bool result = opaque(isMethod && !changed.empty() &&
                             !immutableReceiver(attrFn->value),
                         changed);
    // Code detc does not read may change the objects it is given, and a
    // callable object itself: timm's `loss_scaler(loss, optimizer,
    // parameters=model.parameters())` runs the backward and the
    // optimizer's step (`quiet`: it draws nothing, which says nothing of
    // what it changes). Without this, what DeiT's `model_ema.update(model)`
    // read was taken for the model as it was before the training, and a
    // resume re-derived the EMA from it. Not a builtin (`print(model)`),
    // a tensor's, array's or image's own method (`x.add_(y)` changes `x`,
    // the receiver), nor the standard library's (`os.path.join(folder,
    // name)`, stdlib.api).
    auto *name = dyn_cast<ast::Name>(fn);
    bool builtin = !isMethod && q.empty() && name && !isBoundName(f, name->id);
    bool valueMethod = isMethod && api.isKnownValueMethod(attrFn->attr);
    if ((unread || (!builtin && !valueMethod)) &&
        !keepsArguments(call, q, isMethod ? attrFn->value : nullptr)) {
      for (const std::string &v : mutableArguments(f, call))
        out.updates.insert(v);
      if (!isMethod)
        for (const std::string &v : mutableRoots(f, fn))
          out.updates.insert(v);
    }
    return result;
  }

  // ---- The API model's roles ----
  StringRef role = entry->role;
  // A draw with a `training` parameter (`F.dropout(x, p, training)`) draws
  // nothing when that argument is the constant False, or is absent and
  // defaults to False (`F.alpha_dropout(x, 0.2)`); a layer with one draws
  // nothing in its forward (`nn.LSTM(...)`, whose dropout= is 0 unless
  // given).
  bool modeGated = false;
  bool layerDrawsOff = false;
  if ((role == "draw" || role == "layer") && entry->has("training")) {
    ArgRef ref = entry->getArg("training");
    const ast::Expr *given = args.find(ref);
    // `training=self.training`: the draw follows the module's mode, as a
    // dropout module's does (evaluation mode switches it off).
    if (auto *a = llvm::dyn_cast_or_null<ast::Attribute>(given))
      modeGated = a->attr == "training";
    // A probability parameter (`dropout_p=`) is off at a literal zero.
    auto zero = [](StringRef text) {
      text = text.trim();
      return !text.empty() && text.find_first_not_of("0._") ==
                                  StringRef::npos && text.contains('0');
    };
    // Absent, it takes its default, unless a `*args` or `**kwargs` may
    // supply it (then it may be anything).
    bool mayBeSupplied =
        args.starredCovers(ref) ||
        llvm::any_of(call->keywords,
                     [](const ast::Keyword *k) { return k->arg.empty(); }) ||
        boundByPartial(call->func);
    // Positional arguments past those every supported version binds alike
    // (`stable_positions=`): one of them may be the parameter.
    unsigned stable;
    bool pastStable =
        !entry->get("stable_positions").getAsInteger(10, stable) &&
        call->args.size() > stable;
    bool off = false;
    if (pastStable) {
      off = false;
    } else if (auto *c = llvm::dyn_cast_or_null<ast::Constant>(given)) {
      off = c->kind == ast::ConstantKind::False ||
            ((c->kind == ast::ConstantKind::Int ||
              c->kind == ast::ConstantKind::Float) &&
             zero(c->value));
    } else if (!given) {
      off = !mayBeSupplied &&
            (ref.defaultValue == std::string("False") ||
             (ref.defaultValue && zero(*ref.defaultValue)));
    }
    if (off && role == "draw")
      role = "pure";
    layerDrawsOff = off && role == "layer";
  }
  StringRef lib = entry->get("lib");
  auto apiAttr = [&] { return strAttr("api", apiName); };
  auto allArgs = [&] {
    Effects eff = args.eff;
    return eff;
  };
  auto libType = [&](StringRef fallback) -> std::string {
    StringRef t = entry->get("type");
    return (t.empty() ? fallback : t).str();
  };
  auto moduleType = [&]() -> std::string {
    StringRef n = apiName;
    return n.starts_with("tensorflow") ? "tensorflow.keras.Model"
                                       : "torch.nn.Module";
  };

  if (role == "pure") {
    out.merge(args.eff);
    // `model.parameters()` still designates the model; `F.relu(h)` is still
    // computed from the model `h` came from.
    FactSet fs;
    for (const std::string &fact : recvFacts)
      if (StringRef(fact).starts_with("obj:") ||
          StringRef(fact).starts_with("from:") ||
          StringRef(fact).starts_with("out:"))
        fs.insert(fact);
    for (const ast::Expr *a : call->args) {
      FactSet af = fromFacts(factsOf(f, a));
      fs.insert(af.begin(), af.end());
    }
    setCallFacts(call, fs);
    return false;
  }
  if (role == "seed_global" || role == "generator" || role == "seed_method") {
    const ast::Expr *seedArg = entry->getArg("seed").empty()
                                   ? nullptr
                                   : args.find(entry->getArg("seed"));
    auto *literal = dyn_cast_or_null<ast::Constant>(seedArg);
    // `random.seed(None)` seeds from the operating system's entropy, as
    // `random.seed()` does.
    bool seeded =
        seedArg && !(literal && literal->kind == ast::ConstantKind::None);
    Effects eff = allArgs();
    std::string gen;
    FactSet fs;
    if (role == "seed_global") {
      // `lib=torch,numpy,random`: one call seeds several libraries
      // (Lightning's seed_everything): the others first.
      llvm::SmallVector<StringRef, 4> libs;
      lib.split(libs, ',');
      lib = libs.back();
      for (StringRef other : llvm::ArrayRef(libs).drop_back()) {
        rngLibraries.insert(other.str());
        llvm::SmallVector<NamedAttribute> attrs{strAttr("library", other),
                                                apiAttr()};
        if (seeded)
          attrs.push_back(attr("seeded", builder.getUnitAttr()));
        emit(ir::CreateGeneratorOp::getOperationName(), call,
             {ir::globalGeneratorVar(other)}, eff, attrs);
      }
      gen = ir::globalGeneratorVar(lib);
      rngLibraries.insert(lib.str());
    } else if (role == "seed_method") {
      gen = !target.empty() ? target : recvVar;
      if (gen.empty())
        gen = result();
      if (!recvVar.empty() && recvVar != gen)
        eff.uses.insert(recvVar);
      fs = recvFacts;
    } else {
      gen = result();
      fs.insert("type:" + libType(apiName));
    }
    llvm::SmallVector<NamedAttribute> attrs{strAttr("library", lib), apiAttr()};
    if (seeded)
      attrs.push_back(attr("seeded", builder.getUnitAttr()));
    // Made or seeded from the operating system's entropy when its seed is
    // missing or None (`np.random.default_rng()`, `random.seed(args.seed)`
    // with `--seed` defaulting to None): the transform seeds it from the
    // run's seed when it is (a literal seed never is).
    if (entry->has("entropy") &&
        !(literal && literal->kind != ast::ConstantKind::None)) {
      attrs.push_back(attr("entropy", builder.getUnitAttr()));
      if (!entry->getArg("seed").keyword.empty())
        attrs.push_back(strAttr("seed_param", entry->getArg("seed").keyword));
    }
    if (role == "seed_method")
      attrs.push_back(attr("reseed", builder.getUnitAttr()));
    emit(ir::CreateGeneratorOp::getOperationName(), call, {gen}, eff, attrs);
    if (role == "seed_global" && !target.empty())
      emit(ir::StmtOp::getOperationName(), call, {target},
           [&] {
             Effects e;
             e.uses.insert(gen);
             return e;
           }(),
           {strAttr("kind", "assign"), attr("copy", builder.getUnitAttr())});
    if (role != "seed_global" && target.empty())
      target = gen;
    setFacts(fs);
    return true;
  }
  if (role == "draw") {
    ArgRef genRef = entry->getArg("gen");
    std::string gen;
    if (genRef.receiver)
      gen = recvVar;
    else if (!genRef.empty())
      gen = args.varOf(genRef);
    if (gen.empty()) {
      gen = ir::globalGeneratorVar(lib.empty() ? "torch" : lib);
      rngLibraries.insert(lib.empty() ? "torch" : lib.str());
    }
    Effects eff = allArgs();
    if (!recvVar.empty())
      eff.uses.insert(recvVar);
    if (entry->has("inplace")) {
      std::string updated = (isMethod && !genRef.receiver)
                                ? recvVar
                                : (args.posVars.empty() ? "" : args.posVars[0]);
      if (!updated.empty() && updated != gen)
        eff.updates.insert(updated);
    }
    auto defs = defsOfResult();
    llvm::SmallVector<NamedAttribute> drawAttrs{
        strAttr("gen", gen), strAttr("dist", entry->get("dist")), apiAttr()};
    if (modeGated)
      drawAttrs.push_back(attr("module_mode", builder.getUnitAttr()));
    emit(ir::DrawOp::getOperationName(), call, defs, eff, drawAttrs);
    FactSet drawn = fromFacts(recvFacts);
    // `elements=ARG`: what it returns holds views of that argument
    // (`random_split(dataset, ...)`'s subsets get examples from `dataset`).
    if (const ast::Expr *of = args.find(entry->getArg("elements"))) {
      FactSet ef = factsOf(f, of);
      drawn.insert(ef.begin(), ef.end());
    }
    setFacts(drawn);
    return true;
  }
  if (role == "layer" || role == "container" || role == "wrapper") {
    std::string id = objectId('b', call);
    object(id, ObjectInfo::Build).api = apiName;
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    llvm::SmallVector<NamedAttribute> buildAttrs{strAttr("id", id),
                                                 apiAttr()};
    // A loss (`nn.CrossEntropyLoss()`): its forward is the training step's
    // loss, whatever the script calls it (traces name it by that role).
    if (entry->has("loss"))
      buildAttrs.push_back(attr("loss", builder.getUnitAttr()));
    // A wrapper whose parameters are new tensors (FSDP's flat parameters).
    if (entry->has("new_parameters"))
      buildAttrs.push_back(attr("new_parameters", builder.getUnitAttr()));
    // A wrapper whose state is its module's (DDP, DataParallel), or a
    // container that is one (torch.compile's OptimizedModule).
    else if ((role == "wrapper" || entry->has("same_state")) &&
             !args.posVars.empty() && !args.posVars[0].empty())
      buildAttrs.push_back(strAttr("wraps", args.posVars[0]));
    Operation *b = emit(ir::BuildOp::getOperationName(), call, {t}, args.eff,
                        buildAttrs, 1);
    inRegion(b, 0, [&] {
      StringRef dist = entry->get("dist");
      std::string genLib = lib.empty() ? "torch" : lib.str();
      if ((!dist.empty() || entry->has("random")) && !layerDrawsOff) {
        rngLibraries.insert(genLib);
        llvm::SmallVector<NamedAttribute> drawAttrs{
            strAttr("gen", ir::globalGeneratorVar(genLib)),
            strAttr("dist", dist.empty() ? "choice" : dist), apiAttr()};
        // A layer that draws only in training mode (`train_only`: dropout
        // modules, a torchvision model): evaluation mode switches it off.
        if (entry->has("train_only"))
          drawAttrs.push_back(attr("module_mode", builder.getUnitAttr()));
        emit(ir::DrawOp::getOperationName(), call, {}, Effects(), drawAttrs);
      }
      std::set<std::string> forwarded;
      auto forwardOf = [&](const std::string &var) {
        if (var.empty())
          return;
        std::vector<std::string> ids =
            objectsOf(factsOfVar(f, var), ObjectInfo::Build);
        if (ids.empty())
          return;
        forwarded.insert(ids.begin(), ids.end());
        Effects e;
        e.uses.insert(var);
        emit(ir::ForwardOp::getOperationName(), call, {}, e,
             {strAttr("model", var), attr("builds", strArray(ids))});
      };
      // A part of the program's own (a transform object with `__call__`,
      // a module of the script's class, a function): the container calls
      // it (`Compose([RandomCrop(32), GaussianBlur(0.5)])`).
      std::set<std::string> called;
      auto callPart = [&](const std::string &var, const FactSet &facts) {
        callProgramParts(call, var, facts, called, Effects());
      };
      if (role == "container") {
        for (const auto &elems : args.posElements)
          for (const std::string &v : elems) {
            forwardOf(v);
            if (!v.empty())
              callPart(v, factsOfVar(f, v));
          }
        // Parts the facts cannot see: a list built up with append/+=/
        // insert/extend, `Compose([])` whose `transforms` list is appended
        // to later (the points-to analysis knows the container's parts).
        std::vector<PointsToResult::ObjectId> parts;
        for (PointsToResult::ObjectId c : pointsToAt(call))
          for (PointsToResult::ObjectId p : pointsTo->field(c, "[*]"))
            parts.push_back(p);
        std::vector<std::string> more;
        for (const std::string &id : loweredIds(parts, 'b', ObjectInfo::Build))
          if (!forwarded.count(id))
            more.push_back(id);
        std::string var = args.posVars.empty() || args.posVars[0].empty()
                              ? t
                              : args.posVars[0];
        FactSet partFacts;
        addProgramCallables(parts, partFacts);
        addInstanceFacts(parts, partFacts);
        callPart(var, partFacts);
        if (!more.empty()) {
          Effects e;
          e.uses.insert(var);
          emit(ir::ForwardOp::getOperationName(), call, {}, e,
               {strAttr("model", var), attr("builds", strArray(more))});
        }
      } else if (role == "wrapper" && !args.posVars.empty()) {
        Effects e;
        e.uses.insert(args.posVars[0]);
        Operation *par = emit(
            ir::ParallelOp::getOperationName(), call, {}, e,
            {attr("kind",
                  ir::ParallelKindAttr::get(&ctx, ir::ParallelKind::PerBatch))},
            1);
        inRegion(par, 0, [&] {
          forwardOf(args.posVars[0]);
          // A model of no class detc knows (ResNeSt's
          // `get_model(name)(**kwargs)` through a registry of a library it
          // does not read): its forward may draw.
          if (emitIR && !call->args.empty())
            if (std::optional<UnreadReason> why = untraceableValue(
                    f, call->args[0], id, "a model", call)) {
              Effects u;
              u.uses.insert(args.posVars[0]);
              emit(ir::StmtOp::getOperationName(), call, {}, u,
                   {strAttr("kind", "expr"),
                    attr("unread_calls",
                         builder.getArrayAttr({unreadEntry(
                             *f.unit, call->args[0], *why, true)}))});
            }
        });
      }
    });
    setFacts({"obj:" + id, "type:" + moduleType()});
    return true;
  }
  if (role == "dataset") {
    std::string id = objectId('d', call);
    ObjectInfo &o = object(id, ObjectInfo::Dataset);
    o.api = apiName;
    // The library's __getitem__ runs each of them on every example: the
    // transform, the target transform (torchvision's datasets keep both),
    // or the joint `transforms` given instead.
    static constexpr llvm::StringLiteral kExampleTransforms[] = {
        "transform", "target_transform", "transforms"};
    for (StringRef part : kExampleTransforms) {
      const ast::Expr *tr = args.find(entry->getArg(part));
      if (tr) {
        FactSet given = factsOf(f, tr);
        o.transformFacts.insert(given.begin(), given.end());
      }
      // Transforms the facts lose (kept in a dict, passed through helpers,
      // stored on the dataset later): what the dataset's field may hold.
      for (PointsToResult::ObjectId d : pointsToAt(call)) {
        std::vector<PointsToResult::ObjectId> held = pointsTo->field(d, part);
        for (const std::string &id :
             loweredIds(held, 'b', ObjectInfo::Build))
          o.transformFacts.insert("obj:" + id);
        // The program's own transform objects and functions.
        addProgramCallables(held, o.transformFacts);
        addInstanceFacts(held, o.transformFacts);
        // One of a library detc does not read: the dataset calls it on
        // every example (detc-may-draw in the per-example region).
        if (emitIR && tr && !o.unreadTransform)
          if (std::optional<UnreadReason> why = whyObjectsUnread(held, ""))
            o.unreadTransform = unreadEntry(*f.unit, tr, *why, true);
      }
    }
    // The datasets it wraps (a list of them for ConcatDataset): the
    // program's, or library datasets.
    if (const ast::Expr *w = args.find(entry->getArg("wraps"))) {
      o.wrappedFacts = factsOf(f, w);
      if (auto *seq = llvm::dyn_cast<ast::Sequence>(w))
        for (const ast::Expr *e : seq->elts) {
          FactSet ef = factsOf(f, e);
          o.wrappedFacts.insert(ef.begin(), ef.end());
        }
      if (pointsTo) {
        std::vector<PointsToResult::ObjectId> held = pointsTo->pointsTo(w);
        for (PointsToResult::ObjectId h : pointsTo->pointsTo(w)) {
          std::vector<PointsToResult::ObjectId> elems =
              pointsTo->field(h, "[*]");
          held.insert(held.end(), elems.begin(), elems.end());
        }
        addInstanceFacts(held, o.wrappedFacts);
        for (const std::string &id :
             loweredIds(held, 'd', ObjectInfo::Dataset))
          o.wrappedFacts.insert("obj:" + id);
      }
    }
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    emit(ir::LoadDataOp::getOperationName(), call, {t}, args.eff, {apiAttr()});
    setFacts({"obj:" + id,
              "type:" + libType(StringRef(apiName).starts_with("tensorflow")
                                    ? "tensorflow.data.Dataset"
                                    : apiName)});
    return true;
  }
  if (role == "loader") {
    std::string id = objectId('l', call);
    ObjectInfo &o = object(id, ObjectInfo::Loader);
    o.api = apiName;
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    std::string dsVar = args.varOf(entry->getArg("dataset"));
    auto unknownDataset = [&](const ast::Expr *shown, UnreadReason why) {
      why.why += ": its __getitem__ may draw";
      o.datasetFacts.insert("obj:" + unknownDatasetObject(f, call, shown, why));
    };
    if (const ast::Expr *ds = args.find(entry->getArg("dataset"))) {
      o.datasetFacts = factsOf(f, ds);
      // Datasets the facts lose (unpacked from a call's result: the
      // subsets of `train_set, val_set = random_split(dataset, ...)`):
      // what the points-to says the argument holds.
      addInstanceFacts(ds, o.datasetFacts);
      if (pointsTo) {
        o.datasetObjects = pointsTo->pointsTo(ds);
        for (const std::string &d :
             loweredIds(o.datasetObjects, 'd', ObjectInfo::Dataset))
          o.datasetFacts.insert("obj:" + d);
      }
      // `get_dataset(name)(root=...)` through a registry of a library
      // detc does not read, as ResNeSt builds its datasets.
      if (emitIR)
        if (std::optional<UnreadReason> why =
                untraceableValue(f, ds, "", "a dataset", nullptr))
          unknownDataset(ds, *why);
    } else if (pointsTo) {
      // The dataset in a `**mapping` (BasicSR's `DataLoader(**args)` with
      // `args = dict(dataset=dataset, ...)`), or a `*iterable`: what the
      // points-to says the loader's `dataset` holds.
      const ast::Expr *mapping = nullptr;
      for (const ast::Keyword *k : call->keywords)
        if (k->arg.empty())
          mapping = k->value;
      std::vector<PointsToResult::ObjectId> given;
      for (PointsToResult::ObjectId l : pointsToAt(call))
        llvm::append_range(given, pointsTo->field(l, "dataset"));
      // A loader subclass of the program's (BasicSR's PrefetchDataLoader,
      // `super().__init__(**kwargs)`) keeps no `dataset` field of its
      // own: the mapping's `dataset` entry.
      if (given.empty() && mapping)
        for (PointsToResult::ObjectId d : pointsTo->pointsTo(mapping))
          llvm::append_range(given, pointsTo->field(d, "['dataset']"));
      addInstanceFacts(given, o.datasetFacts);
      o.datasetObjects = given;
      for (const std::string &d :
           loweredIds(given, 'd', ObjectInfo::Dataset))
        o.datasetFacts.insert("obj:" + d);
      std::optional<UnreadReason> why;
      if (o.datasetFacts.empty() && (mapping || !call->args.empty()))
        why = given.empty()
                  ? UnreadReason{"a dataset made where detc cannot see (a "
                                 "dynamic lookup, or a value of code detc "
                                 "does not read)"}
                  : whyObjectsUnread(given, "");
      if (emitIR && why)
        unknownDataset(mapping ? mapping : call->args.front(), *why);
    }
    if (dsVar.empty())
      dsVar = t + ".dataset";
    // Workers: an argument, a `**kwargs` entry, or the default 0.
    bool present = false, unknownDict = false;
    FactSet wf;
    if (const ast::Expr *w = args.find(entry->getArg("workers"))) {
      present = true;
      wf = factsOf(f, w);
    } else {
      wf = kwargsValue(*this, f, args, entry->getArg("workers").keyword,
                       present, unknownDict);
      unknownDict |= args.starredCovers(entry->getArg("workers"));
    }
    o.workers =
        present ? workersFromFacts(wf) : (unknownDict ? "unknown" : "0");
    // Worker counts built up in dicts (update, dict(a, **b), {**a, **b},
    // setdefault, a helper's dict): what the loader's num_workers may hold.
    for (PointsToResult::ObjectId l : pointsToAt(call)) {
      std::vector<PointsToResult::ObjectId> w =
          pointsTo->field(l, "num_workers");
      if (w.empty())
        continue;
      FactSet fromPointsTo;
      for (PointsToResult::ObjectId v : w)
        fromPointsTo.insert(pointsTo->object(v).kind ==
                                    AbstractObject::Kind::Constant
                                ? "const:" + pointsTo->object(v).label().str()
                                : "unknown:");
      std::string counted = workersFromFacts(fromPointsTo);
      if (o.workers == "0" || counted == "unknown")
        o.workers = counted;
      else if (counted != "0" && o.workers != "unknown") {
        long a = 0, b = 0;
        StringRef(o.workers).getAsInteger(10, a);
        StringRef(counted).getAsInteger(10, b);
        o.workers = std::to_string(std::max(a, b));
      }
    }
    // Shuffle: `shuffle=` (unknown counts as yes) or a random sampler.
    bool shuffle = false;
    ArgRef sref = entry->getArg("shuffle");
    if (const ast::Expr *s = args.find(sref)) {
      FactSet sf = factsOf(f, s);
      shuffle = !(sf.size() == 1 && (*sf.begin() == "const:False" ||
                                     *sf.begin() == "const:None"));
    } else {
      bool p = false, u = false;
      FactSet sf = kwargsValue(*this, f, args, sref.keyword, p, u);
      shuffle = (p && !(sf.size() == 1 && *sf.begin() == "const:False")) ||
                args.starredCovers(sref);
    }
    // A sampler (or batch sampler) of the program's classes may draw its
    // order when the loader's iteration starts (a GroupedBatchSampler's
    // torch.randperm): the loader is keyed with it, and fast-forward
    // iterates it as the run did.
    for (StringRef key : {"sampler", "batch_sampler"})
      if (const ast::Expr *s = args.find(entry->getArg(key))) {
        FactSet sf = factsOf(f, s);
        if (sf.count("random-sampler") ||
            llvm::any_of(sf, [](const std::string &fact) {
              return StringRef(fact).starts_with("inst:");
            }))
          shuffle = true;
      }
    // A collate_fn of the script runs in the workers too, once per batch
    // (after the batch's examples): its draws are theirs.
    if (entry->has("collate"))
      if (const ast::Expr *c = args.find(entry->getArg("collate"))) {
        FactSet cf = factsOf(f, c);
        addCalleeFacts(c, cf);
        addInstanceFacts(c, cf);
        for (const std::string &fact : cf) {
          if (StringRef(fact).starts_with("func:") &&
              !llvm::is_contained(o.perExampleFns, fact.substr(5)))
            o.perExampleFns.push_back(fact.substr(5));
          // An object of the program's class with `__call__`
          // (`collate_fn=MixupCollator(cfg)`, hysts'
          // pytorch_image_classification: the mixup's draws).
          if (StringRef(fact).starts_with("inst:") &&
              !findMethod(fact.substr(5), "__call__").empty())
            o.perExampleMethods.push_back({fact.substr(5), "__call__", cf});
        }
        // A method of the program's class bound to its instance
        // (PyTorch-YOLOv3's `collate_fn=dataset.collate_fn`, which picks
        // the next image size with random.choice).
        if (auto *a = llvm::dyn_cast<ast::Attribute>(c)) {
          FactSet self = factsOf(f, a->value);
          addInstanceFacts(a->value, self);
          for (const std::string &fact : self)
            if (StringRef(fact).starts_with("inst:") &&
                !findMethod(fact.substr(5), a->attr).empty())
              o.perExampleMethods.push_back(
                  {fact.substr(5), a->attr.str(), self});
        }
      }
    if (shuffle) {
      std::string g = args.varOf(entry->getArg("generator"));
      o.shuffleGen = g.empty() ? ir::globalGeneratorVar("torch") : g;
      if (g.empty())
        rngLibraries.insert("torch");
    } else {
      o.shuffleGen.clear();
    }
    llvm::SmallVector<NamedAttribute> attrs{
        strAttr("dataset", dsVar), strAttr("workers", o.workers), apiAttr()};
    if (shuffle)
      attrs.push_back(strAttr("shuffle", o.shuffleGen));
    if (!loaderSubclass.empty())
      attrs.push_back(strAttr("loader_subclass", loaderSubclass));
    emit(ir::BatchesOp::getOperationName(), call, {t}, args.eff, attrs);
    setFacts({"obj:" + id, "type:" + apiName});
    return true;
  }
  if (role == "launcher" &&
      lowerLauncher(f, call, args.find(entry->getArg("fn")),
                    args.find(entry->getArg("args")), entry->has("rank"),
                    entry->has("shared"))) {
    emit(ir::StmtOp::getOperationName(), call, defsOfResult(), args.eff,
         {strAttr("kind", "assign"), apiAttr()});
    return true;
  }
  // A library function that calls its first argument with the others
  // (torch.utils.checkpoint.checkpoint(self.block, x)): a model's forward,
  // the program's function or callable object.
  if (role == "apply" && !call->args.empty()) {
    const ast::Expr *function = call->args[0];
    std::string functionVar = varPath(f, function);
    FactSet facts = factsOf(f, function);
    addCalleeFacts(function, facts);
    addInstanceFacts(function, facts);
    addBuildFacts(function, facts);
    std::vector<std::string> builds = objectsOf(facts, ObjectInfo::Build);
    if (!builds.empty() && !functionVar.empty()) {
      Effects e = args.eff;
      e.uses.insert(functionVar);
      emit(ir::ForwardOp::getOperationName(), call, defsOfResult(), e,
           {strAttr("model", functionVar), attr("builds", strArray(builds))});
    } else {
      std::set<std::string> called;
      callProgramParts(call, functionVar, facts, called, Effects());
      emit(ir::StmtOp::getOperationName(), call, defsOfResult(), args.eff,
           {strAttr("kind", "assign"), apiAttr()});
    }
    return true;
  }
  if (role == "sampler") {
    out.merge(args.eff);
    FactSet fs{"type:" + apiName};
    if (entry->has("random"))
      fs.insert("random-sampler");
    setCallFacts(call, fs);
    return false;
  }
  if (role == "pipeline") {
    std::string id = objectId('l', call);
    ObjectInfo o;
    o.kind = ObjectInfo::Loader;
    // Facts are flow-insensitive: the receiver may be any earlier stage of
    // the pipeline, so merge them all.
    std::vector<std::string> prev = objectsOf(recvFacts, ObjectInfo::Loader);
    if (prev.empty())
      o.datasetFacts = recvFacts;
    for (const std::string &pid : prev) {
      const ObjectInfo &p = objects[pid];
      o.datasetFacts.insert(p.datasetFacts.begin(), p.datasetFacts.end());
      for (const std::string &fnSym : p.perExampleFns)
        if (!llvm::is_contained(o.perExampleFns, fnSym))
          o.perExampleFns.push_back(fnSym);
      if (p.workers == "unknown" || o.workers == "unknown")
        o.workers = "unknown";
      else if (std::stol(p.workers.str()) > std::stol(o.workers.str()))
        o.workers = p.workers;
      if (!p.shuffleGen.empty())
        o.shuffleGen = p.shuffleGen;
    }
    o.api = apiName;
    StringRef op = entry->get("op");
    if (op == "map") {
      if (const ast::Expr *fnArg = args.find(entry->getArg("fn")))
        for (const std::string &fact : factsOf(f, fnArg))
          if (StringRef(fact).starts_with("func:") &&
              !llvm::is_contained(o.perExampleFns, fact.substr(5)))
            o.perExampleFns.push_back(fact.substr(5));
      if (const ast::Expr *w = args.find(entry->getArg("workers"))) {
        std::string n = workersFromFacts(factsOf(f, w));
        o.workers = n == "1" ? "0" : n;
      }
    } else if (op == "shuffle") {
      o.shuffleGen = ir::globalGeneratorVar("tensorflow");
      rngLibraries.insert("tensorflow");
    }
    objects[id] = o;
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    llvm::SmallVector<NamedAttribute> attrs{
        strAttr("dataset", recvVar.empty() ? t + ".dataset" : recvVar),
        strAttr("workers", o.workers), apiAttr()};
    if (!o.shuffleGen.empty())
      attrs.push_back(strAttr("shuffle", o.shuffleGen));
    emit(ir::BatchesOp::getOperationName(), call, {t}, args.eff, attrs);
    setFacts({"obj:" + id, "type:tensorflow.data.Dataset"});
    return true;
  }
  if (role == "fit") {
    // `model.fit(data, epochs=E)`: the whole training loop.
    std::string dataVar = args.varOf(entry->getArg("data"));
    FactSet dataFacts;
    if (const ast::Expr *d = args.find(entry->getArg("data")))
      dataFacts = factsOf(f, d);
    Effects loopEff;
    if (const ast::Expr *e = args.find(entry->getArg("epochs")))
      loopEff = lowerExpr(f, e);
    std::vector<std::string> loaders = objectsOf(dataFacts, ObjectInfo::Loader);
    std::string shuffleGen = ir::globalGeneratorVar("tensorflow");
    if (!loaders.empty())
      shuffleGen = objects[loaders.front()].shuffleGen.str();
    rngLibraries.insert("tensorflow");
    if (dataVar.empty())
      dataVar = recvVar + ".data";
    Operation *loop =
        emit(ir::ForOp::getOperationName(), call, {}, loopEff, {}, 2);
    dropRegion(loop, 1);
    inRegion(loop, 0, [&] {
      if (!shuffleGen.empty()) {
        Effects e;
        e.updates.insert(dataVar);
        e.uses.insert(dataVar);
        emit(ir::DrawOp::getOperationName(), call, {}, e,
             {strAttr("gen", shuffleGen), strAttr("dist", "permutation"),
              apiAttr()});
      }
      std::string batch = newTemp(f);
      emitFetch(f, call, dataVar, dataFacts, {batch});
      Effects pe;
      pe.uses.insert(batch);
      Operation *par = emit(
          ir::ParallelOp::getOperationName(), call, {}, pe,
          {attr("kind",
                ir::ParallelKindAttr::get(&ctx, ir::ParallelKind::PerBatch))},
          1);
      inRegion(par, 0, [&] {
        std::string outVar = newTemp(f);
        Effects fe;
        fe.uses.insert(recvVar);
        fe.uses.insert(batch);
        emit(ir::ForwardOp::getOperationName(), call, {outVar}, fe,
             {strAttr("model", recvVar),
              attr("builds",
                   strArray(objectsOf(recvFacts, ObjectInfo::Build)))});
        Effects ge;
        ge.uses.insert(outVar);
        ge.updates.insert(recvVar);
        emit(ir::GradOp::getOperationName(), call, {}, ge, {apiAttr()});
        Effects ue;
        ue.uses.insert(recvVar);
        ue.updates.insert(recvVar);
        emit(ir::UpdateOp::getOperationName(), call, {}, ue,
             {strAttr("optimizer", recvVar), apiAttr()});
      });
    });
    if (wantValue)
      emit(ir::StmtOp::getOperationName(), call, {result()}, args.eff,
           {strAttr("kind", "assign")});
    setFacts({});
    return true;
  }
  if (role == "optimizer") {
    std::string id = objectId('o', call);
    ObjectInfo &o = object(id, ObjectInfo::Optimizer);
    o.api = apiName;
    if (const ast::Expr *p = args.find(entry->getArg("params"))) {
      o.modelFacts = factsOf(f, p);
      // `list(model.parameters())`, `filter(f, model.parameters())`, a
      // variable holding either: values computed from the model's
      // parameters, which the optimizer may update (sound: it may).
      FactSet derived;
      for (const std::string &fact : o.modelFacts)
        if (StringRef(fact).starts_with("from:"))
          derived.insert("obj:" + fact.substr(5));
      o.modelFacts.insert(derived.begin(), derived.end());
    }
    // The optimizer is built over those models (the lints relate its steps
    // to their gradients through what the construction uses).
    Effects eff = args.eff;
    for (const std::string &m :
         varsHolding(f, objectsOf(o.modelFacts, ObjectInfo::Build)))
      eff.uses.insert(m);
    std::string &t = result();
    if (t.empty())
      t = newTemp(f);
    emit(ir::LibCallOp::getOperationName(), call, {t}, eff,
         {strAttr("role", "optimizer"), apiAttr()});
    setFacts({"obj:" + id, "type:" + apiName});
    return true;
  }
  if (role == "step") {
    // `opt.step(closure)` (LBFGS and friends) runs the closure first: its
    // forward and backward happen before the update.
    const ast::Expr *closure = !call->args.empty() ? call->args[0] : nullptr;
    for (const ast::Keyword *k : call->keywords)
      if (k->arg == "closure")
        closure = k->value;
    if (closure)
      for (const std::string &fact : factsOf(f, closure))
        if (StringRef(fact).starts_with("func:")) {
          std::string sym = fact.substr(5);
          emitUserCall(f, call, sym, FlatSymbolRefAttr::get(&ctx, sym), "", {},
                       call, {}, {}, {}, {}, Effects());
        }
    // `scaler.step(opt)`: the update is the step of the optimizer given,
    // and the scaler records whether the gradients overflowed (its next
    // scale depends on them).
    if (const ast::Expr *o = args.find(entry->getArg("optimizer"))) {
      Effects eff = args.eff;
      if (!recvVar.empty()) {
        eff.uses.insert(recvVar);
        eff.updates.insert(recvVar);
      }
      emitOptimizerUpdate(f, call, args.varOf(entry->getArg("optimizer")),
                          factsOf(f, o), eff, apiName);
    } else {
      emitOptimizerUpdate(f, call, recvVar, recvFacts, args.eff, apiName);
    }
    setFacts({});
    target.clear();
    return true;
  }
  if (role == "backward") {
    std::string loss =
        isMethod ? recvVar : (args.posVars.empty() ? "" : args.posVars[0]);
    FactSet lf =
        isMethod ? recvFacts
                 : (call->args.empty() ? FactSet() : factsOf(f, call->args[0]));
    std::vector<std::string> builds;
    for (const std::string &fact : lf) {
      if (!StringRef(fact).starts_with("from:") &&
          !StringRef(fact).starts_with("out:"))
        continue;
      // A value computed with a loader or dataset derives `from:` it too
      // (MoCo v3's momentum from `len(train_loader)`, passed to the
      // model), but a backward changes no loader or dataset: only what
      // holds parameters gets gradients (its `scaler.scale(loss).
      // backward()` counted as changing `train_loader`, and the JIT
      // refused the loop over it).
      std::string id = fact.substr(StringRef(fact).find(':') + 1);
      auto obj = objects.find(id);

      if (obj != objects.end() && (obj->second.kind == ObjectInfo::Loader ||
                                   obj->second.kind == ObjectInfo::Dataset))
        continue;
      builds.push_back(id);
    }
    Effects eff = args.eff;
    if (!loss.empty())
      eff.uses.insert(loss);
    for (const std::string &m : varsHolding(f, builds))
      eff.updates.insert(m);
    auto defs = isMethod ? std::vector<std::string>() : defsOfResult();
    emit(ir::GradOp::getOperationName(), call, defs, eff, {apiAttr()});
    setFacts({});
    if (isMethod)
      target.clear();
    return true;
  }
  if (role == "checkpoint") {
    // What the checkpoint can restore (restoredBy); a value it cannot see
    // into restores the variables it reads.
    std::vector<std::string> saved;
    if (const ast::Expr *obj = args.find(entry->getArg("obj"))) {
      saved = restoredBy(f, obj);
      if (saved.empty() && !isa<ast::Dict>(obj))
        for (const std::string &v : args.argEffects[obj].uses)
          if (v[0] != '$' && !llvm::is_contained(saved, v))
            saved.push_back(v);
    } else if (!recvVar.empty()) {
      saved.push_back(recvVar);
    } else if (!call->args.empty() && isa<ast::Starred>(call->args[0])) {
      // `torch.save(*args, **kwargs)` in a helper (DeiT's, DINO's and
      // MAE's save_on_master): what its callers gather into `args` (their
      // dict display's temporary restores what it holds).
      if (std::string v =
              varPath(f, cast<ast::Starred>(call->args[0])->value);
          !v.empty())
        saved.push_back(v);
    }
    Effects eff = args.eff;
    if (!recvVar.empty())
      eff.uses.insert(recvVar);
    emit(ir::CheckpointOp::getOperationName(), call, {}, eff,
         {attr("saved", strArray(saved)), apiAttr()});
    setFacts({});
    target.clear();
    return true;
  }
  if (role == "load" || role == "load_state") {
    Effects eff = args.eff;
    std::vector<std::string> defs;
    if (role == "load_state") {
      if (!recvVar.empty()) {
        eff.uses.insert(recvVar);
        eff.updates.insert(recvVar);
      }
      if (!target.empty())
        defs.push_back(target);
    } else {
      defs = defsOfResult();
    }
    emit(ir::RestoreOp::getOperationName(), call, defs, eff, {apiAttr()});
    setFacts({});
    return true;
  }
  // role == "call": a known call without a dedicated op.
  Effects eff = args.eff;
  if (!recvVar.empty()) {
    eff.uses.insert(recvVar);
    if (!entry->has("pure"))
      eff.updates.insert(recvVar);
  }
  auto defs = defsOfResult();
  StringRef kind = entry->get("kind").empty() ? "call" : entry->get("kind");
  // `model.train(False)` is `model.eval()` (the `mode` argument, bound as
  // the table's signature says).
  if (kind == "train_mode" && entry->has("mode"))
    if (auto *c = llvm::dyn_cast_or_null<ast::Constant>(
            args.find(entry->getArg("mode")));
        c && c->kind == ast::ConstantKind::False)
      kind = "eval_mode";
  llvm::SmallVector<NamedAttribute> callAttrs{strAttr("role", kind),
                                              apiAttr()};
  if (kind == "to_device" && movesToXla(call))
    callAttrs.push_back(attr("new_parameters", builder.getUnitAttr()));
  if (entry->has("self") && !recvVar.empty())
    callAttrs.push_back(attr("returns_receiver", builder.getUnitAttr()));
  emit(ir::LibCallOp::getOperationName(), call, defs, eff, callAttrs);
  if (entry->has("self")) {
    setFacts(recvFacts);
  } else if (entry->has("returns")) {
    // The argument itself (`convert_sync_batchnorm(model)`): its facts;
    // where a `*iterable` or `**mapping` may supply it, any argument's.
    ArgRef ref = entry->getArg("returns");
    const ast::Expr *given = args.find(ref);
    FactSet fs;
    if (given && !args.starredCovers(ref)) {
      fs = factsOf(f, given);
    } else {
      for (const ast::Expr *a : call->args) {
        FactSet af = factsOf(f, a);
        fs.insert(af.begin(), af.end());
      }
      for (const ast::Keyword *k : call->keywords) {
        FactSet kf = factsOf(f, k->value);
        fs.insert(kf.begin(), kf.end());
      }
    }
    setFacts(fs);
  } else if (entry->has("pure")) {
    // Computed from its receiver and arguments, as role `pure`:
    // `F.nll_loss(out, y)` is still computed from the model `out` came
    // from (the backward of it fills that model's gradients).
    FactSet fs = fromFacts(recvFacts);
    for (const ast::Expr *a : call->args) {
      FactSet af = fromFacts(factsOf(f, a));
      fs.insert(af.begin(), af.end());
    }
    setFacts(fs);
  } else if (entry->has("type")) { // a constructor: its methods resolve
    setFacts({"type:" + entry->get("type").str()});
  } else {
    setFacts({});
  }
  return true;
}

bool Lowerer::holdsStateBesidesModule(FuncCtx &f, const std::string &var,
                                      const ast::Expr *owner) {
  // An instance of the program's class keeping a model in `.module` (a
  // hand-written EMA with an update counter beside its copy): what else it
  // holds is its own, not the module's. (One without a `.module`, as a
  // model that may or may not be wrapped in DataParallel, is no such
  // owner: `model.module` is the wrapper's.)
  if (pointsTo && owner)
    for (PointsToResult::ObjectId o : pointsTo->pointsTo(owner))
      if (pointsTo->object(o).kind == AbstractObject::Kind::Instance &&
          !pointsTo->field(o, "module").empty())
        return true;
  for (const std::string &id :
       objectsOf(factsOfVar(f, var), ObjectInfo::Build)) {
    auto it = objects.find(id);
    if (it == objects.end())
      continue;
    StringRef built = it->second.api;
    const ApiEntry *e = built.empty() ? nullptr : api.lookup(built);
    if (e && e->has("module_copy"))
      return true;
  }
  return false;
}

std::vector<std::string> Lowerer::restoredBy(FuncCtx &f, const ast::Expr *e) {
  std::vector<std::string> out;
  auto add = [&](const std::string &v) {
    if (!v.empty() && v[0] != '$' && !llvm::is_contained(out, v))
      out.push_back(v);
  };
  // Nested displays are walked with an explicit stack (no recursion a deep
  // input could overflow).
  llvm::SmallVector<const ast::Expr *, 8> work{e};
  while (!work.empty()) {
    const ast::Expr *x = work.pop_back_val();
    if (auto *dict = dyn_cast_or_null<ast::Dict>(x)) {
      // Pushed last to first: popped in source order.
      for (size_t i = dict->keys.size(); i-- > 0;)
        work.push_back(dict->values[i]);
      continue;
    }
    auto *c = dyn_cast_or_null<ast::Call>(x);
    if (auto *n = c ? dyn_cast<ast::Name>(c->func) : nullptr;
        n && n->id == "dict") {
      for (const ast::Keyword *k : llvm::reverse(c->keywords))
        work.push_back(k->value);
      for (const ast::Expr *a : llvm::reverse(c->args))
        work.push_back(a);
      continue;
    }
    // A library function returning the state dict of an argument (timm's
    // `get_state_dict(model_ema)`, API key `state_of`).
    if (const ApiEntry *e = c ? api.lookup(qualName(f, c->func)) : nullptr)
      if (ArgRef of = e->getArg("state_of"); !of.empty()) {
        const ast::Expr *arg = nullptr;
        if (of.position >= 0 && size_t(of.position) < c->args.size() &&
            llvm::none_of(llvm::ArrayRef(c->args).take_front(of.position + 1),
                          [](const ast::Expr *a) {
                            return isa<ast::Starred>(a);
                          }))
          arg = c->args[of.position];
        for (const ast::Keyword *k : c->keywords)
          if (!of.keyword.empty() && k->arg == of.keyword)
            arg = k->value;
        if (isa_and_nonnull<ast::Name, ast::Attribute>(arg)) {
          add(varPath(f, arg));
          continue;
        }
      }
    if (c && c->args.empty())
      if (auto *a = dyn_cast<ast::Attribute>(c->func);
          a && a->attr == "state_dict") {
        // `model.module.state_dict()` of a DataParallel/DDP wrapper holds
        // the wrapper's parameters. Not so of a library module that keeps
        // a copy of another in `.module` and has state of its own (an
        // AveragedModel's `n_averaged`: restoring only the copy, a resume
        // averaged from scratch, exit 0): then what is restored is the
        // copy, and the rest of the object is saved beside.
        std::string v = varPath(f, a->value);
        auto *owner = dyn_cast<ast::Attribute>(a->value);
        if (StringRef(v).ends_with(".module") &&
            !holdsStateBesidesModule(f, v.substr(0, v.size() - 7),
                                     owner ? owner->value : nullptr))
          v.resize(v.size() - 7);
        add(v);
        continue;
      }
    if (isa_and_nonnull<ast::Name, ast::Attribute>(x))
      add(varPath(f, x));
  }
  return out;
}

bool Lowerer::lowerLauncher(FuncCtx &f, const ast::Call *call,
                            const ast::Expr *targetFn,
                            const ast::Expr *argTuple, bool rankFirst,
                            bool shared) {
  std::string path = targetFn ? varPath(f, targetFn) : "";
  if (path.empty())
    return false;
  std::string sym;
  for (const std::string &fact : factsOfVar(f, path))
    if (StringRef(fact).starts_with("func:"))
      sym = fact.substr(5);
  if (sym.empty())
    return false;
  ast::NodeList<ast::Expr> elts;
  if (auto *seq = dyn_cast_or_null<ast::Sequence>(argTuple))
    elts = seq->elts;
  std::vector<std::string> vars;
  for (const ast::Expr *e : elts)
    vars.push_back(varPath(f, e));
  Effects pe;
  for (const std::string &v : vars)
    if (!v.empty())
      pe.uses.insert(v);
  // The process index (spawn's first argument to fn): a value the library
  // makes, bound like a receiver to the first parameter.
  std::string rank;
  if (rankFirst) {
    rank = newTemp(f);
    emit(ir::StmtOp::getOperationName(), call, {rank}, Effects(),
         {strAttr("kind", "assign")});
  }
  auto callTarget = [&] {
    emitUserCall(f, call, sym, FlatSymbolRefAttr::get(&ctx, sym), rank, {},
                 elts, {}, vars, {}, {}, {}, pe);
  };
  // Processes started with copies of plain values (I-JEPA's
  // `Process(target=main, args=(rank, args.fname, n, args.devices))`, each
  // rank's job of its own) share nothing: each runs the target as spawn's
  // ranks do. Arguments not spelled out here may share anything.
  if (shared && argTuple && isa<ast::Sequence>(argTuple) &&
      llvm::none_of(elts, [&](const ast::Expr *e) {
        return mayBeSharedWithProcesses(e);
      }))
    shared = false;
  if (shared)
    emitBatchRegion(call, pe.uses.getArrayRef(), callTarget);
  else
    callTarget();
  return true;
}

bool Lowerer::mayBeSharedWithProcesses(const ast::Expr *e) const {
  if (!pointsTo || isa<ast::Starred>(e))
    return true;
  using Kind = AbstractObject::Kind;
  auto constant = [&](PointsToResult::ObjectId o) {
    return pointsTo->object(o).kind == Kind::Constant;
  };
  // A command-line value: argparse makes strings, numbers and lists of
  // them (a default of the program's own is a constant it shows).
  if (auto *attr = dyn_cast<ast::Attribute>(e)) {
    std::vector<PointsToResult::ObjectId> base = pointsTo->pointsTo(
        attr->value);
    if (!base.empty() && llvm::all_of(base, [&](PointsToResult::ObjectId o) {
          const AbstractObject &ob = pointsTo->object(o);
          return ob.kind == Kind::Library &&
                 ob.label().ends_with(".parse_args");
        }))
      return false;
  }
  // No object: a number the program computes (`rank`, `len(devices)`).
  for (PointsToResult::ObjectId o : pointsTo->pointsTo(e)) {
    const AbstractObject &ob = pointsTo->object(o);
    if (ob.kind == Kind::Constant)
      continue;
    if ((ob.kind == Kind::Tuple || ob.kind == Kind::List) &&
        llvm::all_of(pointsTo->field(o, "[*]"), constant))
      continue;
    return true;
  }
  return false;
}

bool Lowerer::followsAlternatives(FuncCtx &f, const ast::Call *call,
                                  size_t n, StringRef what, StringRef kinds) {
  if (n <= kMaxCallAlternatives)
    return true;
  warnUnknown(f, call,
              what + " any of " + Twine(n) + " " + kinds +
                  "; detc follows calls with at most " +
                  Twine(kMaxCallAlternatives) + " possible targets");
  return false;
}

std::string Lowerer::loaderHolder(FuncCtx &f, const ast::Expr *items) {
  if (auto it = f.loweredAhead.find(items); it != f.loweredAhead.end())
    return it->second;
  std::string var = varPath(f, items);
  return var.empty() ? newTemp(f) : var;
}

void Lowerer::emitAlternatives(size_t n, const ast::Node *at,
                               llvm::function_ref<void(size_t)> emitOne) {
  // `if` ops nested in else regions, walked with an explicit position
  // rather than recursion; the guard restores the insertion point.
  OpBuilder::InsertionGuard guard(builder);
  for (size_t i = 0; i < n; ++i) {
    if (i + 1 == n) {
      emitOne(i);
      break;
    }
    Operation *op =
        emit(ir::IfOp::getOperationName(), at, {}, Effects(), {}, 2);
    inRegion(op, 0, [&] { emitOne(i); });
    if (op) // Null in a pass that only gathers facts.
      builder.setInsertionPoint(op->getRegion(1).front().getTerminator());
  }
}

std::string Lowerer::expressionArgument(FuncCtx &f, const ast::Expr *e,
                                        const Effects &callReads) {
  // An expression argument of the program's function (`top1.update(
  // prec1.item(), n)`, the meters of WRN's and ImageNet's scripts): a
  // temporary carries what it reads into the parameter, so what the callee
  // makes of the parameter derives from those variables. (Unbound, the
  // parameter came from nowhere: fast-forward re-ran the call without
  // computing `prec1`, and the resume crashed.)
  if (!e || isa<ast::Constant, ast::Lambda>(e))
    return "";
  std::set<std::string> reads;
  std::function<void(const ast::Node *)> scan = [&](const ast::Node *n) {
    if (isa<ast::Name, ast::Attribute>(n)) {
      std::string path = varPath(f, cast<ast::Expr>(n));
      auto *name = dyn_cast<ast::Name>(n);
      if (!path.empty() && (!name || isBoundName(f, name->id))) {
        reads.insert(path);
        return;
      }
    }
    if (isa<ast::Lambda>(n))
      return;
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
      if (c)
        scan(c);
    });
  };
  scan(e);
  // The values of the calls inside it (`i + random.random()`: the draw's
  // temporary) were lowered with the call's other arguments: all of them
  // count (more than it reads, never less).
  for (const std::string &v : callReads.uses)
    if (StringRef(v).starts_with("$"))
      reads.insert(v);
  if (reads.empty())
    return "";
  Effects eff;
  eff.uses.insert(reads.begin(), reads.end());
  std::string t = newTemp(f);
  emit(ir::StmtOp::getOperationName(), e, {t}, eff,
       {strAttr("kind", "assign")});
  return t;
}

std::string Lowerer::lowerToHeldVar(FuncCtx &f, const ast::Expr *e,
                                    Effects &out) {
  Effects eff;
  std::string held = lowerToVar(f, e, eff);
  if (held.empty()) {
    // An expression lowered as no op of its own (`getattr(self, "head" +
    // str(i))`, a builtin): a temporary it defines holds its value.
    held = newTemp(f);
    emit(ir::StmtOp::getOperationName(), e, {held}, eff,
         {strAttr("kind", "assign")});
    eff = Effects();
    eff.uses.insert(held);
  }
  out.merge(eff);
  return held;
}

std::string Lowerer::lowerArgToVar(FuncCtx &f, const ast::Expr *e,
                                   Effects &out) {
  // (Only for calls that may be the script's: a library's own checkpoint
  // call reads the display directly.)
  // `save_checkpoint({"state_dict": model.state_dict(), ...}, is_best)`:
  // the display becomes a temporary that restores what it holds, so the
  // helper's checkpoint saves it.
  if (isa<ast::Dict>(e)) {
    llvm::SmallVector<NamedAttribute> attrs{strAttr("kind", "assign")};
    addRestores(f, e, attrs);
    if (attrs.size() > 1) {
      Effects eff = lowerExpr(f, e);
      std::string t = newTemp(f);
      emit(ir::StmtOp::getOperationName(), e, {t}, eff, attrs);
      out.uses.insert(t);
      return t;
    }
  }
  return lowerToVar(f, e, out);
}

void Lowerer::emitOptimizerUpdate(FuncCtx &f, const ast::Call *call,
                                  const std::string &optVar,
                                  const FactSet &optFacts, Effects eff,
                                  llvm::StringRef apiName) {
  std::vector<std::string> builds;
  for (const std::string &oid : objectsOf(optFacts, ObjectInfo::Optimizer))
    for (const std::string &b :
         objectsOf(objects[oid].modelFacts, ObjectInfo::Build))
      builds.push_back(b);
  eff.uses.insert(optVar);
  for (const std::string &m : varsHolding(f, builds)) {
    eff.updates.insert(m);
    eff.uses.insert(m);
  }
  eff.updates.insert(optVar);
  emit(ir::UpdateOp::getOperationName(), call, {}, eff,
       {strAttr("optimizer", optVar), strAttr("api", apiName)});
}

bool Lowerer::movesToXla(const ast::Call *call) const {
  if (!pointsTo)
    return false;
  // A device of type "xla": torch_xla's `xm.xla_device()` /
  // `torch_xla.device()`, `torch.device("xla")`, or the string itself.
  auto isXla = [&](PointsToResult::ObjectId o) {
    const AbstractObject &ob = pointsTo->object(o);
    StringRef label = ob.label();
    if (ob.kind == AbstractObject::Kind::Constant)
      return label.trim("'\"").starts_with("xla");
    if (ob.kind != AbstractObject::Kind::Library &&
        ob.kind != AbstractObject::Kind::LibName)
      return false;
    if (label.starts_with("torch_xla"))
      return true;
    if (label != "torch.device")
      return false;
    for (StringRef given : {"arg0", "type"})
      for (PointsToResult::ObjectId a : pointsTo->field(o, given)) {
        const AbstractObject &ab = pointsTo->object(a);
        if (ab.kind == AbstractObject::Kind::Constant &&
            ab.label().trim("'\"").starts_with("xla"))
          return true;
      }
    return false;
  };
  std::vector<const ast::Expr *> given(call->args.begin(), call->args.end());
  for (const ast::Keyword *k : call->keywords)
    if (k->arg == "device")
      given.push_back(k->value);
  for (const ast::Expr *a : given)
    if (llvm::any_of(pointsTo->pointsTo(a), isXla))
      return true;
  return false;
}

std::string Lowerer::libraryBaseOf(
    const std::string &cls,
    llvm::function_ref<bool(const std::string &)> accept) const {
  std::vector<std::string> work{cls};
  for (size_t i = 0; i < work.size() && i < 32; ++i) {
    const ClassInfo *ci = classOf(work[i]);
    if (!ci)
      continue;
    for (const std::string &lb : ci->libBases)
      if (accept(lb))
        return lb;
    work.insert(work.end(), ci->userBases.begin(), ci->userBases.end());
  }
  return "";
}

std::optional<std::string>
Lowerer::loaderMadeBy(StringRef q, const UnreadReason &why,
                      const ast::Call *call, FuncCtx &f) {
  if (std::optional<std::string> made = librarySource.callOfRole(q, "loader"))
    return made;
  // Sound by default: code detc cannot read, given a dataset, may make a
  // loader of it (timm's create_loader where timm is not installed: the
  // dataset's draws went unreported, and the loop over the result was no
  // loop over batches). Its examples run where that loader runs them.
  auto isDataset = [&](const ast::Expr *a) {
    FactSet given = factsOf(f, a);
    return !objectsOf(given, ObjectInfo::Dataset).empty() ||
           !userClassOf(given, ir::ClassRole::Dataset).empty();
  };
  bool given = llvm::any_of(call->args, isDataset) ||
               llvm::any_of(call->keywords, [&](const ast::Keyword *k) {
                 return isDataset(k->value);
               });
  if (!given)
    return std::nullopt;
  return "given a dataset, " + why.why;
}

std::string Lowerer::loaderBaseOf(const std::string &cls) const {
  return libraryBaseOf(cls, [&](const std::string &lb) {
    const ApiEntry *e = api.lookup(lb);
    return e && e->role == "loader";
  });
}

std::string Lowerer::agreedLibraryBase(
    const ast::Expr *callee, const FactSet &calleeClasses,
    llvm::function_ref<std::string(const std::string &)> baseOfClass,
    StringRef libraryRole, std::string *subclass) const {
  std::string agreed;
  // Every candidate the same library class, or none.
  auto agree = [&](const std::string &base) {
    if (base.empty() || (!agreed.empty() && base != agreed))
      return false;
    agreed = base;
    return true;
  };
  auto programClass = [&](const std::string &cls) {
    std::string base = baseOfClass(cls);
    if (!base.empty() && subclass && subclass->empty())
      *subclass = cls;
    return agree(base);
  };
  auto none = [&] {
    if (subclass)
      subclass->clear();
    return std::string();
  };
  for (const std::string &cls : calleeClasses)
    if (!programClass(cls))
      return none();
  for (PointsToResult::ObjectId o :
       pointsTo ? pointsTo->pointsTo(callee)
                : std::vector<PointsToResult::ObjectId>()) {
    const AbstractObject &ob = pointsTo->object(o);
    bool ok = false;
    if (ob.kind == AbstractObject::Kind::LibName && !libraryRole.empty()) {
      std::string name = api.canonicalize(ob.label());
      const ApiEntry *e = api.lookup(name);
      ok = e && e->role == libraryRole && agree(name);
    } else if (ob.kind == AbstractObject::Kind::Class &&
               classes.count(ob.label().str())) {
      ok = programClass(ob.label().str());
    }
    if (!ok)
      return none();
  }
  return agreed;
}

std::string Lowerer::containerSubclassCalled(
    const ast::Expr *callee, const FactSet &calleeClasses) const {
  auto containerBase = [&](const std::string &cls) -> std::string {
    for (StringRef own : {"__init__", "__call__", "forward"})
      if (!findMethod(cls, own).empty())
        return "";
    return libraryBaseOf(cls, [&](const std::string &lb) {
      const ApiEntry *e = api.lookup(lb);
      return e && e->role == "container";
    });
  };
  return agreedLibraryBase(callee, calleeClasses, containerBase, "",
                           nullptr);
}

std::vector<std::pair<std::string, const ApiEntry *>>
Lowerer::libraryNamesOf(const ast::Expr *callee, bool &others) const {
  std::vector<std::pair<std::string, const ApiEntry *>> names;
  if (!pointsTo)
    return names;
  for (PointsToResult::ObjectId o : pointsTo->pointsTo(callee)) {
    const AbstractObject &ob = pointsTo->object(o);
    if (ob.kind != AbstractObject::Kind::LibName) {
      others = true;
      continue;
    }
    std::string name = api.canonicalize(ob.label());
    const ApiEntry *e = api.lookup(name);
    names.emplace_back(std::move(name), e);
  }
  return names;
}

std::string Lowerer::libraryNameHeld(const ast::Expr *callee) const {
  if (!pointsTo || isa<ast::Attribute>(callee))
    return "";
  // Every candidate a library name a table describes: one name, or names
  // that construct alike (datasets, loaders, optimizers: the role and its
  // arguments say what the call does; the first name stands for them).
  bool others = false;
  std::set<std::string> names;
  std::set<std::string> roles;
  for (const auto &[name, e] : libraryNamesOf(callee, others)) {
    if (!e || e->pattern != name)
      return "";
    names.insert(name);
    roles.insert(e->role);
  }
  if (others)
    return "";
  if (names.size() == 1)
    return *names.begin();
  static constexpr llvm::StringLiteral kConstructors[] = {"dataset", "loader",
                                                          "optimizer"};
  if (roles.size() == 1 && llvm::is_contained(kConstructors, *roles.begin()))
    return *names.begin();
  return "";
}

std::string Lowerer::loaderClassCalled(const ast::Expr *callee,
                                       const FactSet &calleeClasses,
                                       std::string &subclass) const {
  // A library loader among the candidates (`train_loader_class =
  // MyDataLoader if sizes else torch.utils.data.DataLoader`, OFA's): a
  // program class constructed in its place with the same arguments, its
  // `__init__` taking the dataset first, is a drop-in loader (OFA's
  // MyDataLoader is a copy of torch's DataLoader, deriving from object):
  // its instances are iterated as the library loader's are. Otherwise the
  // library alternative was lost, and with it the loop's data-parallel
  // region.
  std::string library;
  bool others = false;
  for (const auto &[name, e] : libraryNamesOf(callee, others))
    if (e && e->role == "loader")
      library = name;
  auto dropIn = [&](const std::string &cls) -> std::string {
    std::string init = findMethod(cls, "__init__");
    auto params = funcParams.find(init + "::__init__");
    if (library.empty() || params == funcParams.end() ||
        params->second.size() < 2 || paramName(params->second, 1) != "dataset")
      return "";
    return library;
  };
  return agreedLibraryBase(
      callee, calleeClasses,
      [&](const std::string &cls) {
        std::string base = loaderBaseOf(cls);
        return base.empty() ? dropIn(cls) : base;
      },
      "loader", &subclass);
}

bool Lowerer::isOptimizerClass(const std::string &cls) const {
  // torch.optim.Optimizer, or a library optimizer (SGD, Adam, ...); not
  // torch.optim.lr_scheduler's classes.
  return !libraryBaseOf(cls, [&](const std::string &lb) {
            const ApiEntry *e = api.lookup(lb);
            return lb == "torch.optim.Optimizer" ||
                   (e && e->role == "optimizer");
          }).empty();
}
