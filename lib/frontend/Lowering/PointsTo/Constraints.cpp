//===- Constraints.cpp - Python semantics as inclusion constraints --------===//

#include "Constraints.h"
#include "ResultImpl.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::pta;
using Kind = AbstractObject::Kind;
using llvm::ArrayRef;
using llvm::StringRef;

Builder::Builder(Program &program, const ApiModel &api, DiagnosticEngine &diags,
                 PointsToResult::Impl &out)
    : program(program), api(api), diags(diags), out(out), solver(out.solver) {}

// ---- Objects -----------------------------------------------------------------

Obj Builder::newObject(Kind kind, std::string label, const ast::Node *site,
                       const ProgramModule *m) {
  AbstractObject o{kind, out.labels.save(label), site,
                   m ? llvm::StringRef(m->path) : llvm::StringRef()};
  out.objects.push_back(std::move(o));
  return Obj(out.objects.size() - 1);
}

Obj Builder::objectAt(Kind kind, StringRef label, const ast::Node *site,
                      const ProgramModule *m) {
  auto key = std::make_tuple(site, label.str(), int(kind));
  auto it = sited.find(key);
  if (it != sited.end())
    return it->second;
  Obj o = newObject(kind, label.str(), site, m);
  sited[key] = o;
  // What is stored into a library's object, library code may call
  // (`dataset.transform = fn`).
  if (kind == Kind::Library)
    escapeObject(o);
  return o;
}

void Builder::registered(Node functions, StringRef module) {
  solver.onObject(functions, [this, module = module.str()](Obj fn) {
    auto it = this->functions.find(fn);
    if (it == this->functions.end() || it->second.isGenerator)
      return;
    // Into the module's package and each package above it: what a call of
    // `timm.models.create_model` hands back includes what was registered
    // with `timm.models.registry.register_model`.
    for (StringRef m = module; !m.empty(); m = m.rsplit('.').first) {
      solver.addCopy(it->second.frame->returns, registryOf(m));
      if (!m.contains('.'))
        break;
    }
  });
}

Node Builder::registryOf(StringRef module) {
  auto [it, added] = registries.try_emplace(module, 0);
  if (added)
    it->second = solver.newNode();
  return it->second;
}

bool Builder::unmodelledLibraryCode(StringRef label) const {
  return !label.starts_with("builtins.") && !label.starts_with("<") &&
         !api.describes(label) && !quietLibrary(label);
}

bool Builder::quietLibrary(StringRef label) const {
  // Not an object a table models (functools.partial: what it holds is
  // the program's).
  return !label.starts_with("*.") && !label.starts_with("<") &&
         api.classifyUnmodelled(label) == ApiModel::Unmodelled::Quiet &&
         !api.describes(label);
}

Obj Builder::constant(StringRef text) {
  auto it = constants.find(text);
  if (it != constants.end())
    return it->second;
  Obj o = newObject(Kind::Constant, text.str(), nullptr, nullptr);
  constants[text] = o;
  return o;
}

Obj Builder::libName(StringRef qualName) {
  // Names under a library the API tables model keep their name (up to a
  // depth no table entry reaches); so do names of other libraries up to
  // the depth an import path has (`timm.loss.SoftTargetCrossEntropy`:
  // api/python.api may declare a part of a library quiet). Deeper ones
  // are one unknown object per top-level module, `<attribute of os>`: the
  // set of names stays finite (`x = x.attr` in a loop), nothing modelled
  // is lost, and a call of it still says whose code it runs. Top-level
  // names and builtins keep theirs.
  constexpr size_t kMaxLibNameParts = 12;
  constexpr size_t kMaxOtherNameParts = 4;
  std::string canonical = api.canonicalize(qualName);
  size_t dots = size_t(llvm::count(canonical, '.'));
  bool builtin = StringRef(canonical).starts_with("builtins.") && dots == 1;
  bool modelled = api.isLibraryName(canonical);
  std::string collapsed;
  if (dots >= kMaxLibNameParts ||
      (dots > 0 && !builtin && !modelled &&
       (dots >= kMaxOtherNameParts || StringRef(canonical).starts_with("<")))) {
    StringRef c = canonical;
    // `<attribute of os>.path` is `<attribute of os>` again.
    collapsed = c.starts_with("<")
                    ? c.take_front(c.find('>') + 1).str()
                    : "<attribute of " + c.ltrim('.').split('.').first.str() +
                          ">";
    qualName = collapsed;
  }
  std::string q = api.canonicalize(qualName);
  auto it = libNames.find(q);
  if (it != libNames.end())
    return it->second;
  Obj o = newObject(Kind::LibName, q, nullptr, nullptr);
  libNames[q] = o;
  escapeObject(o); // `sys.excepthook = fn`
  return o;
}

// ---- Nodes -------------------------------------------------------------------

Node Builder::scopeNode(StringRef scope, StringRef name) {
  auto &byName = out.vars[scope];
  auto it = byName.find(name);
  if (it != byName.end())
    return it->second;
  pta::Node n = solver.newNode();
  byName[name] = n;
  return n;
}

Node Builder::varNode(Frame &f, StringRef name) {
  if (f.scope.globals.count(name)) {
    Frame *m = &f;
    while (m->parent)
      m = m->parent;
    return scopeNode(m->symbol, name);
  }
  if (f.scope.locals.count(name) && !f.isClassBody)
    return scopeNode(f.symbol, name);
  if (f.isClassBody && f.scope.locals.count(name))
    return field(f.classObj, name);
  // Free: the nearest enclosing function that binds it (class bodies do
  // not enclose), else the module, else a builtin.
  for (Frame *p = f.parent; p; p = p->parent) {
    if (p->isClassBody)
      continue;
    if (p->isModule)
      break;
    if (p->scope.locals.count(name))
      return scopeNode(p->symbol, name);
  }
  Frame *m = &f;
  while (m->parent)
    m = m->parent;
  // A module global, also one only functions assign (`def setup(): global
  // model; model = ...`): where those functions write it.
  if (m->scope.locals.count(name) ||
      bindingsOf(*m->module).declaredGlobal.contains(name))
    return scopeNode(m->symbol, name);
  // A builtin (`len`, `dict`, `enumerate`): a library name.
  if (readsUnbound(name) || bindingsOf(*m->module).bindsUnseen) {
    pta::Node n = scopeNode("<builtins>", name);
    solver.addObject(n, libName(("builtins." + name).str()));
    return n;
  }
  // Bound nowhere (expr() warns where it is read): NameError at run time,
  // and, as an unresolved import's name, may be anything — not a quiet
  // builtin (a training loop over it was no loop at all).
  pta::Node n = scopeNode("<undefined>", name);
  solver.addObject(n, libName(name));
  return n;
}

bool Builder::readsUnbound(StringRef name) const {
  // CheckHint's `_checkpoint()` hint is detc's own name: the JIT transform
  // inserts it into a script that does not define it (docs/checkhint.md).
  return api.isBuiltinName(name) || name == "_checkpoint";
}

bool Builder::undefinedIn(Frame &f, StringRef name) {
  if (readsUnbound(name) || f.scope.globals.count(name) ||
      f.scope.locals.count(name))
    return false;
  Frame *m = &f;
  for (Frame *p = f.parent; p; p = p->parent) {
    if (!p->isClassBody && p->scope.locals.count(name))
      return false;
    m = p;
  }
  if (m->scope.locals.count(name))
    return false;
  const ModuleBindings &b = bindingsOf(*m->module);
  return !b.declaredGlobal.contains(name) && !b.typeParams.contains(name) &&
         !b.bindsUnseen;
}

const Builder::ModuleBindings &Builder::bindingsOf(ProgramModule &m) {
  auto [it, added] = moduleBindings.try_emplace(&m);
  ModuleBindings &b = it->second;
  if (!added)
    return b;
  // The names its functions declare `global`; and whether it binds names
  // no statement shows: a star import, `globals()[k] = v`, `exec`,
  // `vars()`, an assignment into `builtins`.
  std::function<void(const ast::Node *)> visit = [&](const ast::Node *n) {
    if (!n)
      return;
    if (auto *g = llvm::dyn_cast<ast::Global>(n)) {
      for (StringRef name : g->names)
        b.declaredGlobal.insert(name);
    } else if (auto *t = llvm::dyn_cast<ast::TypeVar>(n)) {
      b.typeParams.insert(t->name);
    } else if (auto *t = llvm::dyn_cast<ast::ParamSpec>(n)) {
      b.typeParams.insert(t->name);
    } else if (auto *t = llvm::dyn_cast<ast::TypeVarTuple>(n)) {
      b.typeParams.insert(t->name);
    } else if (auto *imp = llvm::dyn_cast<ast::ImportFrom>(n)) {
      // (Also a program module's: where it is found may depend on a
      // `sys.path.insert` the analysis has not reached yet.)
      b.bindsUnseen |= llvm::any_of(
          imp->names, [](const ast::Alias *a) { return a->name == "*"; });
    } else if (auto *name = llvm::dyn_cast<ast::Name>(n)) {
      b.bindsUnseen |= llvm::is_contained(
          {"globals", "exec", "eval", "vars", "locals", "__builtins__",
           "builtins", "__builtin__", "__import__"},
          name->id);
    }
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) { visit(c); });
  };
  visit(m.parsed->module);
  return b;
}

/// The constant text a computed string key starts with: `'aug_' + name`,
/// `f'aug_{name}'` (nullopt when it starts with no constant text).
static std::optional<std::string> constantPrefix(const ast::Expr *key) {
  using namespace ast;
  if (auto *b = llvm::dyn_cast<BinOp>(key); b && b->op == BinOpKind::Add) {
    if (auto *c = llvm::dyn_cast<Constant>(b->left);
        c && c->kind == ConstantKind::Str && !c->value.empty())
      return c->value.str();
    if (llvm::isa<BinOp, JoinedStr>(b->left))
      return constantPrefix(b->left);
  }
  if (auto *j = llvm::dyn_cast<JoinedStr>(key); j && !j->values.empty())
    if (auto *c = llvm::dyn_cast<Constant>(j->values[0]);
        c && c->kind == ConstantKind::Str && !c->value.empty())
      return c->value.str();
  return std::nullopt;
}

void Builder::load(Node base, StringRef name, Node dst) {
  FieldId fid = solver.fieldId(name);
  solver.onObject(base, [this, fid, dst](Obj o) {
    solver.addCopy(solver.fieldNode(o, fid), dst);
  });
}

void Builder::loadAttribute(Node base, FieldId fid, Node n) {
  // One handler (its closure fits in the std::function), not two.
  solver.onObject(base, [this, n, fid](Obj o) {
    solver.addCopy(solver.fieldNode(o, fid), n);
    StringRef attr = solver.fieldName(fid);
    const AbstractObject &ob = out.objects[o];
    if (ob.kind == Kind::Instance) {
      loadClassData(o, attr, n);
      loadBoundMethod(o, attr, n);
      if (propertyNames.contains(attr))
        loadProperty(o, attr, n);
    }
    if (ob.kind == Kind::Class)
      loadSubclassCall(o, attr, n);
    // An attribute of some library value is some library value: the one
    // object (its name would grow with each attribute read, and each
    // name is an object every reader of a variable holding it sees).
    if (ob.kind == Kind::LibName && ob.label() == kRuntimeModule)
      loadRuntimeModuleAttribute(attr, n);
    if (ob.kind == Kind::LibName && ob.label() == "<library attribute>")
      solver.addObject(n, o);
    else if (ob.kind == Kind::LibName)
      solver.addObject(n, libName((ob.label() + "." + attr).str()));
    else if (ob.kind == Kind::Library &&
             (StringRef(ob.label()).starts_with("*.") ||
              quietLibrary(ob.label())))
      solver.addObject(n, libName("<library attribute>"));
  });
}

void Builder::loadRuntimeModuleAttribute(StringRef name, Node n) {
  // More candidates than this: a name too common to say which (`main`).
  constexpr size_t kMaxCandidates = 16;
  for (ProgramModule *m : program.modulesDefining(name, kMaxCandidates)) {
    solver.addCopy(field(moduleObject(m), name), n);
    program.noteImportByName(nullptr, m);
  }
}

void Builder::loadProperty(Obj instance, StringRef name, Node dst) {
  Obj cls = classOf(out.objects[instance].label());
  if (cls == ~0u)
    return;
  solver.onObject(methodNode(cls, name), [this, instance, dst](Obj fn) {
    auto it = functions.find(fn);
    auto *def = it == functions.end()
                    ? nullptr
                    : llvm::dyn_cast_or_null<ast::FunctionDef>(it->second.def);
    if (!ast::isPropertyGetter(def))
      return;
    // The getter runs with the instance (once per instance and getter):
    // what it returns is the attribute's value (YOLOX's WandbLogger.run,
    // wandb's run object, made on first read).
    auto [at, made] = propertyValues.try_emplace({instance, fn}, 0);
    if (made) {
      CallSite *cs = &callSites.emplace_back();
      cs->frame = it->second.frame;
      cs->result = solver.newNode();
      at->second = cs->result;
      Node self = solver.newNode();
      solver.addObject(self, instance);
      callFunction(*cs, fn, self);
    }
    solver.addCopy(at->second, dst);
  });
}

const ast::Attribute *Builder::namespaceOf(const ast::Expr *e) {
  auto *a = llvm::dyn_cast<ast::Attribute>(e);
  return a && a->attr == "__dict__" ? a : nullptr;
}

Node Builder::ownerNode(Frame &f, const ast::Attribute *a) {
  // Evaluated already with the subscript's base (`obj.__dict__`): its node,
  // not a second evaluation (a call would be made twice).
  uint32_t node = a->value->getPointsToNode();
  return node != ~0u ? node : expr(f, a->value);
}

Node Builder::anyNamedAttribute(Obj o) {
  auto [it, inserted] = anyAttributeNodes.try_emplace(o, 0);
  if (!inserted)
    return it->second;
  Node all = solver.newNode();
  it->second = all;
  // Of a class: not its special methods (`__init__`, `__call__`): a name
  // computed from data (`getattr(self, name)` over the layer names
  // StyleGAN3's synthesis network keeps) is no dunder, and calling every
  // constructor from the forward ran every layer's setup code per batch.
  bool cls = out.objects[o].kind == Kind::Class;
  solver.onField(o, [this, o, all, cls](FieldId fid) {
    StringRef name = solver.fieldName(fid);
    if (name.starts_with("[") ||
        (cls && name.starts_with("__") && name.ends_with("__")))
      return;
    solver.addCopy(solver.fieldNode(o, fid), all);
  });
  return all;
}

void Builder::store(Node base, StringRef name, Node src) {
  FieldId fid = solver.fieldId(name);
  solver.onObject(base, [this, fid, src](Obj o) {
    solver.addCopy(src, solver.fieldNode(o, fid));
  });
}

void Builder::elements(Node iterable, Node dst) {
  load(iterable, "[*]", dst);
}

void Builder::mergeFields(Node src, Node dst) {
  solver.onObject(src, [this, dst](Obj s) {
    solver.onObject(dst, [this, s](Obj d) {
      if (s == d)
        return;
      solver.onField(s, [this, s, d](FieldId f) {
        solver.addCopy(solver.fieldNode(s, f), solver.fieldNode(d, f));
      });
    });
  });
}

bool Builder::warn(const ProgramModule *m, const ast::Node *at,
                   const std::string &message) {
  std::string key = (m ? m->path : "") + ":" +
                    std::to_string(at ? at->getRange().begin.offset : 0) +
                    message;
  if (!warned.insert(key).second)
    return false;
  diags.report(Severity::Warning, m ? m->file : nullptr,
               at ? at->getRange().begin : ast::SourcePos{}, message);
  return true;
}

// ---- Program -----------------------------------------------------------------

void Builder::run() {
  // Modules are discovered while their importers are analysed, and while
  // solving (an import in a function that becomes reachable).
  size_t done = 0;
  while (done < program.modules().size() && !solver.truncated) {
    for (; done < program.modules().size(); ++done)
      module(*program.modules()[done]);
    solver.solve();
  }
  // The lowering only asks what nodes hold.
  solver.releaseConstraints();
  if (!solver.truncated)
    return;
  // Where the constraints came from: where a coarse model (an `eval` of
  // any name, called with any name) lands, and so where to look.
  std::string from;
  for (const auto &[where, count] : topSources(3))
    from += (from.empty() ? "" : ", ") + where + " (" +
            std::to_string(count) + ")";
  warn(program.modules().front().get(), nullptr,
       (solver.members > solver.memberLimit
            ? "the points-to analysis stopped when its sets held " +
                  std::to_string(solver.members) +
                  " objects in all (its limit is " +
                  std::to_string(solver.memberLimit) +
                  ", --points-to-limit)"
            : "the points-to analysis stopped after " +
                  std::to_string(solver.copyEdges + solver.handlers) +
                  " constraints (its limit is " +
                  std::to_string(solver.constraintLimit) + ")") +
           ": what variables may hold is incomplete; most constraints "
           "came from " +
           from + " [detc-points-to-limit]");
}

static std::vector<const ast::Node *> asNodes(llvm::ArrayRef<ast::Stmt *> s) {
  return std::vector<const ast::Node *>(s.begin(), s.end());
}

void Builder::module(ProgramModule &m) {
  if (!out.claim(*m.parsed->context, m.parsed->module)) {
    diags.fileError(m.path, "internal error: another points-to analysis of "
                            "this file is still in use");
    return;
  }
  auto frame = std::make_unique<Frame>();
  frame->symbol = m.name;
  frame->module = &m;
  frame->isModule = true;
  const ast::Module *tree = m.parsed->module;
  // An imported module's `if __name__ == "__main__":` block does not run
  // (its `else` does): as the lowering reads it (Lowerer::lowerUnit).
  std::vector<ast::Stmt *> stmts =
      ast::runningBody(*tree, m.name == "__main__");
  frame->scope = computeFunctionScope(nullptr, asNodes(stmts));
  // Names a star import of a program module binds are this module's
  // globals (not builtins, which every module shares).
  for (const std::string &name : starImported(m))
    frame->scope.locals.insert(name);
  frame->returns = solver.newNode();
  frame->yields = solver.newNode();
  Frame *f = frame.get();
  frames.push_back(std::move(frame));
  moduleFrames[m.name] = f;
  Obj mo = moduleObject(&m);
  // A module object's attributes are its globals, and so are the entries
  // of its `__dict__` (`vits.__dict__[args.arch]`: any of its names).
  for (const auto &name : f->scope.locals)
    solver.addCopy(scopeNode(m.name, name.getKey()), field(mo, name.getKey()));
  Obj names = objectAt(Kind::Dict, "dict", tree, &m);
  fillGlobals(names, *f);
  solver.addObject(field(mo, "__dict__"), names);
  body(*f, stmts);
}

void Builder::fillGlobals(Obj dict, const Frame &module) {
  for (const auto &global : module.scope.locals) {
    Node value = scopeNode(module.module->name, global.getKey());
    solver.addCopy(value, field(dict, "['" + global.getKey().str() + "']"));
    solver.addCopy(value, field(dict, "[*]"));
  }
}

void Builder::body(Frame &f, llvm::ArrayRef<ast::Stmt *> stmts) {
  // A nested list's straight-line values end with it; a statement that
  // may bind a name (anywhere inside it: a loop body rebinding it before
  // the next iteration's reads, a `try` body before its handlers) ends
  // that name's before it runs.
  llvm::StringMap<Node> entering = f.current;
  for (const ast::Stmt *s : stmts) {
    unsigned outer = solver.source;
    if (solver.profile) {
      solver.source = sources.size();
      sources.push_back({f.module, s});
    }
    if (!f.current.empty()) {
      const ast::Node *one[] = {s};
      for (const auto &bound : computeFunctionScope(nullptr, one).locals)
        f.current.erase(bound.getKey());
    }
    stmt(f, s);
    solver.source = outer;
  }
  f.current = std::move(entering);
}

bool Builder::straightLine(Frame &f, StringRef name) {
  if (!f.def || f.isModule || f.isClassBody || !f.scope.locals.count(name))
    return false;
  if (!f.straightLine) {
    // Every local, but those a comprehension or a walrus binds (they bind
    // inside expressions) and those a nested function rebinds; none in a
    // function that reads its locals as a dict (yolov5's DetectMultiBackend
    // keeps its model by `self.__dict__.update(locals())`: the variable's
    // every value, which the points-to does not follow there) or runs code
    // from text.
    f.straightLine.emplace();
    for (const auto &local : f.scope.locals)
      f.straightLine->insert(local.getKey());
    std::vector<const ast::Node *> work(f.def->body.begin(),
                                        f.def->body.end());
    llvm::SmallVector<StringRef> names;
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      names.clear();
      if (auto *c = llvm::dyn_cast<ast::Comprehension>(n))
        appendBoundNames(c->target, names);
      else if (auto *w = llvm::dyn_cast<ast::NamedExpr>(n))
        appendBoundNames(w->target, names);
      else if (auto *nl = llvm::dyn_cast<ast::Nonlocal>(n))
        names.append(nl->names.begin(), nl->names.end());
      else if (auto *c = llvm::dyn_cast<ast::Call>(n))
        if (auto *fn = llvm::dyn_cast<ast::Name>(c->func);
            fn && (fn->id == "locals" || fn->id == "exec" ||
                   fn->id == "eval" || (fn->id == "vars" && c->args.empty()))) {
          f.straightLine->clear();
          break;
        }
      for (StringRef name : names)
        f.straightLine->erase(name);
      forEachChild(n, [&](StringRef, const ast::Node *c) {
        work.push_back(c);
      });
    }
  }
  return f.straightLine->contains(name);
}

std::vector<std::pair<std::string, size_t>>
Builder::topSources(size_t n) const {
  std::vector<std::pair<size_t, unsigned>> counts;
  for (unsigned i = 1; i < solver.bySource.size(); ++i)
    if (solver.bySource[i])
      counts.push_back({solver.bySource[i], i});
  std::sort(counts.begin(), counts.end(), std::greater<>());
  std::vector<std::pair<std::string, size_t>> top;
  for (const auto &[count, id] : llvm::ArrayRef(counts).take_front(n)) {
    const auto &[m, at] = sources[id];
    top.push_back({m->path + ":" + std::to_string(at->getRange().begin.line),
                   count});
  }
  return top;
}

void Builder::stmt(Frame &f, const ast::Stmt *s) {
  using namespace ast;
  switch (s->getKind()) {
  case NodeKind::FunctionDef: {
    auto *d = llvm::cast<FunctionDef>(s);
    std::vector<pta::Node> decorators;
    for (const Expr *dec : d->decoratorList)
      decorators.push_back(expr(f, dec));
    pta::Node into = f.isClassBody ? field(f.classObj, d->name)
                              : varNode(f, d->name);
    functionDef(f, d, d->name, d->args, asNodes(d->body), nullptr, into);
    applyDecorators(f, d->decoratorList, decorators, into);
    // A decorator of a library no table models is given the function
    // (timm's `@register_model` keeps it in a registry that
    // `create_model` calls): it escapes. The name stays bound to the
    // function itself, as a wrapper calls it. (Not a modelled library's:
    // torch's `@torch.jit.ignore` on 325 of timm's methods hands the
    // method back, and escaping them multiplied the analysis's work.)
    for (pta::Node dec : decorators)
      solver.onObject(dec, [this, into](Obj o) {
        const AbstractObject &ob = out.objects[o];
        if ((ob.kind != Kind::LibName && ob.kind != Kind::Library) ||
            !unmodelledLibraryCode(ob.label()) ||
            api.isLibraryName(ob.label()))
          return;
        escape(into);
        registered(into, ob.label().rsplit('.').first);
      });
    return;
  }
  case NodeKind::ClassDef:
    classDef(f, llvm::cast<ClassDef>(s));
    return;
  case NodeKind::Return: {
    auto *r = llvm::cast<Return>(s);
    if (r->value)
      solver.addCopy(expr(f, r->value), f.returns);
    return;
  }
  case NodeKind::Assign: {
    auto *a = llvm::cast<Assign>(s);
    pta::Node v = expr(f, a->value);
    for (const Expr *t : a->targets) {
      assign(f, t, v);
      if (auto *n = llvm::dyn_cast<Name>(t); n && straightLine(f, n->id))
        f.current[n->id] = v;
    }
    return;
  }
  case NodeKind::AugAssign: {
    auto *a = llvm::cast<AugAssign>(s);
    pta::Node v = expr(f, a->value);
    pta::Node t = expr(f, a->target);
    // `lst += xs` extends in place; `d |= e` updates in place; so does
    // `+=` on a library container (OSNet's `self.conv2 += [block]` on a
    // ModuleList).
    solver.onObject(t, [this, v](Obj o) {
      Kind k = out.objects[o].kind;
      const ApiEntry *entry =
          k == Kind::Library ? api.lookup(out.objects[o].label()) : nullptr;
      if (k == Kind::List || k == Kind::Set ||
          (entry && entry->role == "container"))
        elements(v, field(o, "[*]"));
    });
    if (a->op == BinOpKind::BitOr)
      mergeFields(v, t);
    return;
  }
  case NodeKind::AnnAssign: {
    auto *a = llvm::cast<AnnAssign>(s);
    if (!a->value)
      return;
    pta::Node v = expr(f, a->value);
    assign(f, a->target, v);
    if (auto *n = llvm::dyn_cast<Name>(a->target); n && straightLine(f, n->id))
      f.current[n->id] = v;
    return;
  }
  case NodeKind::For: {
    auto *l = llvm::cast<For>(s);
    pta::Node items = solver.newNode();
    elements(expr(f, l->iter), items);
    assign(f, l->target, items);
    body(f, l->body);
    body(f, l->orelse);
    return;
  }
  case NodeKind::While: {
    auto *w = llvm::cast<While>(s);
    expr(f, w->test);
    body(f, w->body);
    body(f, w->orelse);
    return;
  }
  case NodeKind::If: {
    auto *i = llvm::cast<If>(s);
    expr(f, i->test);
    body(f, i->body);
    body(f, i->orelse);
    return;
  }
  case NodeKind::With: {
    auto *w = llvm::cast<With>(s);
    for (const WithItem *item : w->items) {
      pta::Node v = expr(f, item->contextExpr);
      if (item->optionalVars)
        assign(f, item->optionalVars, v);
    }
    body(f, w->body);
    return;
  }
  case NodeKind::Try: {
    auto *t = llvm::cast<Try>(s);
    body(f, t->body);
    for (const ExceptHandler *h : t->handlers) {
      if (h->type)
        expr(f, h->type);
      body(f, h->body);
    }
    body(f, t->orelse);
    body(f, t->finalbody);
    return;
  }
  case NodeKind::Import:
  case NodeKind::ImportFrom:
    importStmt(f, s);
    return;
  case NodeKind::ExprStmt:
    if (auto *e = llvm::cast<ExprStmt>(s)->value)
      expr(f, e);
    return;
  case NodeKind::Match: {
    auto *m = llvm::cast<Match>(s);
    expr(f, m->subject);
    for (const MatchCase *c : m->cases)
      body(f, c->body);
    return;
  }
  default:
    // Raise, Assert, Delete, Global, Nonlocal, Pass, Break, Continue:
    // their expressions hold no flow that matters beyond being evaluated.
    forEachChild(s, [&](StringRef, const ast::Node *c) {
      if (auto *e = llvm::dyn_cast_or_null<Expr>(c))
        expr(f, e);
    });
    return;
  }
}

void Builder::assign(Frame &f, const ast::Expr *target, Node value) {
  using namespace ast;
  if (auto *n = llvm::dyn_cast<Name>(target)) {
    solver.addCopy(value, varNode(f, n->id));
    return;
  }
  if (auto *a = llvm::dyn_cast<Attribute>(target)) {
    store(expr(f, a->value), a->attr, value);
    return;
  }
  if (auto *sub = llvm::dyn_cast<Subscript>(target)) {
    pta::Node base = expr(f, sub->value);
    auto *c = llvm::dyn_cast<Constant>(sub->slice);
    // `obj.__dict__["name"] = v` binds attribute `name` of obj (OFA's run
    // config caches its data provider so); a computed name may bind any
    // attribute, which no read by name could then see: such reads stay
    // what they were, as for setattr with a computed name.
    if (auto *a = namespaceOf(sub->value); a && c &&
                                           c->kind == ConstantKind::Str)
      store(ownerNode(f, a), c->value, value);
    if (c && c->kind == ConstantKind::Str) {
      store(base, ("['" + c->value + "']").str(), value);
    } else {
      if (!c)
        expr(f, sub->slice);
      store(base, "[?]", value);
    }
    store(base, "[*]", value);
    return;
  }
  if (auto *seq = llvm::dyn_cast<Sequence>(target)) {
    bool afterStar = false;
    for (auto [i, elt] : llvm::enumerate(seq->elts)) {
      pta::Node part = solver.newNode();
      if (auto *st = llvm::dyn_cast<Starred>(elt)) {
        afterStar = true;
        Obj rest = objectAt(Kind::List, "list", st, f.module);
        solver.addObject(part, rest);
        elements(value, field(rest, "[*]"));
        assign(f, st->value, part);
        continue;
      }
      // A tuple whose positions are known gives the i-th; anything else
      // (a list, a tuple built with a star) may give any element.
      std::string position = "[" + std::to_string(i) + "]";
      solver.onObject(value, [this, part, position, afterStar](Obj o) {
        if (!afterStar && exactTuples.count(o))
          solver.addCopy(field(o, position), part);
        else
          solver.addCopy(field(o, "[*]"), part);
        // An object of a module declared quiet (api/python.api:
        // matplotlib's `fig, ax = plt.subplots()`): its parts are its
        // library's objects too, whose code draws nothing. (Given as the
        // unpacked parts only: a `[*]` field every reader of its elements
        // sees multiplied timm's objects forty times.)
        const AbstractObject &ob = out.objects[o];
        if (ob.kind == Kind::Library && quietLibrary(ob.label()))
          solver.addObject(part, libName("<library attribute>"));
        // Of code no table describes (opacus's `model, optimizer, loader
        // = privacy_engine.make_private(...)`): a value that code returned,
        // of a type detc does not know. Before, the parts held nothing, and
        // the variables kept only what they held before (the script's own
        // optimizer: DPOptimizer's noise was silent).
        else if (ob.kind == Kind::Library &&
                 unmodelledLibraryCode(ob.label()))
          solver.addObject(part,
                           libName((kReturnedBy + ob.label() + ">").str()));
        // The same of what a method of such code returned (`model, opt,
        // loader = engine.make_private(...)` on an engine the library
        // made): the parts are values that code returned.
        else if (ob.kind == Kind::LibName &&
                 ob.label().starts_with(kReturnedBy))
          solver.addObject(part, o);
      });
      assign(f, elt, part);
    }
    return;
  }
  if (auto *st = llvm::dyn_cast<Starred>(target))
    assign(f, st->value, value);
}

void Builder::functionDef(Frame &f, const ast::Node *def, StringRef name,
                          const ast::Arguments *args,
                          llvm::ArrayRef<const ast::Node *> bodyNodes,
                          const ast::Expr *lambdaBody, Node into) {
  // Defaults are evaluated where the def is.
  std::vector<Node> defaults, kwDefaults;
  if (args) {
    for (const ast::Expr *d : args->defaults)
      defaults.push_back(expr(f, d));
    for (const ast::Expr *d : args->kwDefaults)
      kwDefaults.push_back(d ? expr(f, d) : ~0u);
  }
  std::string base = f.isModule && f.module->name == "__main__"
                         ? std::string()
                         : f.isModule ? f.module->name + "."
                                      : f.symbol + ".";
  std::string symbol = base + name.str();
  if (lambdaBody) {
    const ast::SourcePos &p = def->getRange().begin;
    symbol += "@" + std::to_string(p.line) + ":" + std::to_string(p.column + 1);
  }
  for (unsigned n = 2; !usedSymbols.insert(symbol).second; ++n)
    symbol = base + name.str() + "#" + std::to_string(n);

  Obj fo = newObject(Kind::Function, symbol, def, f.module);
  defObjects[def] = fo;
  if (f.ran != ~0u) {
    solver.onObject(f.ran, [this, into, fo, def](Obj) {
      out.made.insert(def);
      solver.addObject(into, fo);
    });
  } else {
    out.made.insert(def);
    solver.addObject(into, fo);
  }

  auto frame = std::make_unique<Frame>();
  Frame *inner = frame.get();
  frames.push_back(std::move(frame));
  inner->symbol = symbol;
  inner->module = f.module;
  inner->def = llvm::dyn_cast<ast::FunctionDef>(def);
  inner->parent = f.isClassBody ? f.parent : &f;
  if (f.isClassBody)
    inner->enclosingClass = out.objects[f.classObj].label();
  std::vector<const ast::Node *> scopeBody(bodyNodes.begin(), bodyNodes.end());
  if (lambdaBody)
    scopeBody.push_back(lambdaBody);
  inner->scope = computeFunctionScope(args, scopeBody);
  inner->returns = solver.newNode();
  inner->yields = solver.newNode();
  inner->ran = solver.newNode();

  FunctionInfo info;
  info.args = args;
  info.frame = inner;
  for (StringRef p : getParamNames(args))
    info.params.push_back(scopeNode(symbol, p));
  if (args) {
    // Positional defaults belong to the last parameters.
    size_t positional = args->posonlyargs.size() + args->args.size();
    for (size_t i = 0; i < defaults.size(); ++i)
      solver.addCopy(defaults[i],
                     info.params[positional - defaults.size() + i]);
    size_t kwStart = positional + (args->vararg ? 1 : 0);
    for (size_t i = 0; i < kwDefaults.size(); ++i)
      if (kwDefaults[i] != ~0u)
        solver.addCopy(kwDefaults[i], info.params[kwStart + i]);
  }
  if (!info.params.empty() && f.isClassBody)
    inner->selfNode = info.params.front();
  info.def = def;
  info.lambdaBody = lambdaBody;
  functions[fo] = info;
  if (auto *fd = llvm::dyn_cast_or_null<ast::FunctionDef>(def);
      fd && f.isClassBody && ast::isPropertyGetter(fd))
    propertyNames.insert(fd->name);
  // The script's own functions are all analysed (findings in a function
  // it never calls are still the user's); a module's, once they may run.
  // Its top-level functions may run, called from where detc does not see
  // (a script analysed alone that another imports: DeiT's engine.py);
  // its methods and nested functions run when called, and what they
  // define exists only then.
  if (f.module->name == "__main__")
    activate(fo, /*runs=*/f.isModule);
  // A generator function returns a generator over what it yields.
  bool yields = false;
  for (const ast::Node *n : scopeBody) {
    std::vector<const ast::Node *> work{n};
    while (!work.empty() && !yields) {
      const ast::Node *x = work.back();
      work.pop_back();
      if (llvm::isa<ast::Yield, ast::YieldFrom>(x))
        yields = true;
      if (llvm::isa<ast::FunctionDef, ast::Lambda, ast::ClassDef>(x) && x != n)
        continue;
      ast::forEachChild(x, [&](StringRef, const ast::Node *c) {
        if (c)
          work.push_back(c);
      });
    }
  }
  if (yields) {
    FunctionInfo &fi = functions[fo];
    fi.isGenerator = true;
    fi.generator = newObject(Kind::Generator, symbol, def, f.module);
    solver.addCopy(inner->yields, field(fi.generator, "[*]"));
  }
}

void Builder::activate(Obj fn, bool runs) {
  auto it = functions.find(fn);
  if (it == functions.end())
    return;
  if (runs)
    solver.addObject(it->second.frame->ran, constant("<ran>"));
  if (it->second.active)
    return;
  it->second.active = true;
  // A copy: the body's nested definitions grow `functions`.
  FunctionInfo info = it->second;
  if (info.lambdaBody)
    solver.addCopy(expr(*info.frame, info.lambdaBody), info.frame->returns);
  else
    body(*info.frame, llvm::cast<ast::FunctionDef>(info.def)->body);
}

void Builder::escape(Node node) {
  if (escapingNodes.insert(node).second)
    solver.onObject(node, [this](Obj o) { escapeObject(o); });
}

void Builder::escapeObject(Obj o) {
  if (!escapedObjects.insert(o).second)
    return;
  if (out.objects[o].kind == Kind::Function)
    activate(o);
  // Attributes, elements and entries (fields), a class's methods (its
  // fields) and bases.
  solver.onField(o, [this, o](FieldId f) { escape(solver.fieldNode(o, f)); });
  if (auto ci = classes.find(o); ci != classes.end())
    for (Node base : ci->second.bases)
      escape(base);
}

void Builder::classDef(Frame &f, const ast::ClassDef *c) {
  std::string base = f.isModule && f.module->name == "__main__"
                         ? std::string()
                         : f.isModule ? f.module->name + "."
                                      : f.symbol + ".";
  Obj co = newObject(Kind::Class, base + c->name.str(), c, f.module);
  ClassInfo ci;
  ci.symbol = base + c->name.str();
  for (const ast::Expr *b : c->bases)
    ci.bases.push_back(expr(f, b));
  for (const ast::Keyword *k : c->keywords)
    expr(f, k->value);
  for (const ast::Expr *d : c->decoratorList)
    ci.decorators.push_back(expr(f, d));
  ci.def = c;
  classBySymbol[ci.symbol] = co;
  classes[co] = ci;
  if (!c->decoratorList.empty()) {
    Node held = solver.newNode();
    solver.addObject(held, co);
    applyDecorators(f, c->decoratorList, ci.decorators, held);
  }
  solver.addObject(f.isClassBody ? field(f.classObj, c->name)
                                 : varNode(f, c->name),
                   co);
  auto frame = std::make_unique<Frame>();
  Frame *inner = frame.get();
  frames.push_back(std::move(frame));
  inner->symbol = ci.symbol;
  inner->module = f.module;
  inner->parent = &f;
  inner->isClassBody = true;
  inner->classObj = co;
  inner->scope = computeFunctionScope(nullptr, asNodes(c->body));
  body(*inner, c->body);
}

void Builder::applyDecorators(Frame &f,
                              llvm::ArrayRef<const ast::Expr *> exprs,
                              llvm::ArrayRef<Node> nodes, Node decorated) {
  for (size_t i = 0; i < exprs.size() && i < nodes.size(); ++i) {
    // Only a decorator written as a call: its call is the site, one per
    // decoration (a bare `@register` has none to key the call by).
    auto *made = llvm::dyn_cast<ast::Call>(exprs[i]);
    if (!made)
      continue;
    CallSite *cs = &callSites.emplace_back();
    cs->call = made;
    cs->frame = &f;
    cs->result = solver.newNode();
    Node args[] = {decorated};
    cs->args = keep<Node>(args);
    bool starred[] = {false};
    cs->starred = keep<bool>(starred);
    solver.onObject(nodes[i], [this, cs](Obj o) {
      const AbstractObject &ob = out.objects[o];
      if (ob.kind == Kind::Function ||
          (ob.kind == Kind::Library && ob.label() == "functools.partial"))
        callObject(*cs, o, ~0u);
    });
  }
}

Obj Builder::moduleObject(ProgramModule *m) {
  auto it = moduleObjects.find(m->name);
  if (it != moduleObjects.end())
    return it->second;
  Obj o = newObject(Kind::Module, m->name, nullptr, m);
  moduleObjects[m->name] = o;
  auto [parent, leaf] = StringRef(m->name).rsplit('.');
  if (!leaf.empty())
    if (auto p = moduleObjects.find(parent); p != moduleObjects.end())
      solver.addObject(field(p->second, leaf), o);
  // Submodules loaded before their package's object was made.
  for (const auto &entry : moduleObjects) {
    StringRef name = entry.getKey();
    if (name.size() > m->name.size() + 1 && name.starts_with(m->name) &&
        name[m->name.size()] == '.' &&
        !name.drop_front(m->name.size() + 1).contains('.'))
      solver.addObject(field(o, name.drop_front(m->name.size() + 1)),
                       entry.getValue());
  }
  return o;
}

void Builder::importStmt(Frame &f, const ast::Stmt *s) {
  ProgramModule &from = *f.module;
  auto bind = [&](StringRef name) {
    return f.isClassBody ? field(f.classObj, name) : varNode(f, name);
  };
  auto unresolved = [&](const ast::Node *at, StringRef name,
                        const std::vector<std::string> &looked) {
    // Modules api/python.api declares (common packages) and the standard
    // library's (stdlib.api: a module no line declares is still there,
    // `mmap`) are known: calls of them are judged there, not here.
    if (api.isLibraryName(name) || api.isStandardLibrary(name) ||
        api.classifyUnmodelled(name) != ApiModel::Unmodelled::Unknown ||
        program.resolvedToLibrary() || program.resolvedToBrokenFile() ||
        program.isInstalledModule(name))
      return;
    std::string where;
    for (const std::string &d : looked)
      where += (where.empty() ? "" : ", ") + d;
    // The folders searched depend on the script being run (its folder
    // comes first on sys.path): a note, so that a project's report prints
    // a module's unresolved import once, not once per script importing it.
    if (!warn(&from, at,
              "cannot resolve import '" + name.str() +
                  "': not a local module nor a library detc models; what "
                  "it defines is unknown [detc-unresolved-import]"))
      return;
    diags.report(Severity::Note, from.file,
                 at ? at->getRange().begin : ast::SourcePos{},
                 "looked for it in " + where);
  };

  if (auto *imp = llvm::dyn_cast<ast::Import>(s)) {
    for (const ast::Alias *a : imp->names) {
      std::vector<std::string> looked;
      ProgramModule *m = program.resolveImport(s, from, a->name, 0, &looked);
      if (!m) {
        unresolved(a, a->name, looked);
        StringRef bound = a->asname.empty() ? a->name.split('.').first
                                            : a->name;
        solver.addObject(bind(a->asname.empty() ? bound : a->asname),
                         libName(bound));
        continue;
      }
      if (!a->asname.empty()) {
        solver.addObject(bind(a->asname), moduleObject(m));
        continue;
      }
      // `import a.b` binds `a`; `a.b` is an attribute of the package.
      StringRef top = a->name.split('.').first;
      ProgramModule *topModule =
          top == a->name ? m : program.resolveImport(s, from, top, 0, nullptr);
      Obj topObj = topModule ? moduleObject(topModule) : moduleObject(m);
      solver.addObject(bind(top), topObj);
      if (topModule && top != a->name)
        solver.addObject(field(topObj, a->name.drop_front(top.size() + 1)),
                         moduleObject(m));
    }
    return;
  }
  auto *imp = llvm::cast<ast::ImportFrom>(s);
  std::vector<std::string> looked;
  ProgramModule *m =
      program.resolveImport(s, from, imp->module, imp->level, &looked);
  if (!m && imp->level == 0 && imp->module == "__future__")
    return;
  for (const ast::Alias *a : imp->names) {
    if (a->name == "*") {
      if (m) {
        // Every public global of the module, as its analysis binds them,
        // but those this module defines again further down (a script's
        // own `def test()` after `from models import *`, whose modules
        // each define a `test()`): later code sees its own.
        llvm::StringSet<> redefined;
        if (f.isModule) {
          llvm::ArrayRef<ast::Stmt *> top = from.parsed->module->body;
          for (const ast::Stmt *later :
               llvm::make_range(llvm::find(top, s), top.end())) {
            if (auto *d = llvm::dyn_cast<ast::FunctionDef>(later))
              redefined.insert(d->name);
            else if (auto *c = llvm::dyn_cast<ast::ClassDef>(later))
              redefined.insert(c->name);
          }
        }
        for (const std::string &name : starNames(*m))
          if (!redefined.contains(name))
            solver.addCopy(scopeNode(m->name, name), bind(name));
      } else if (api.isKnownModule(api.canonicalize(imp->module))) {
        for (const std::string &n : api.namesUnder(imp->module))
          solver.addObject(bind(n), libName(imp->module.str() + "." + n));
      } else {
        unresolved(a, imp->module, looked);
      }
      continue;
    }
    StringRef local = a->asname.empty() ? a->name : a->asname;
    if (m) {
      // A submodule of a package (`from pkg import mod`) or a name the
      // module defines.
      std::vector<std::string> sub;
      ProgramModule *child =
          m->isPackage ? program.resolve(*m, a->name, 1, nullptr) : nullptr;
      program.noteImport(s,
                         imp->module.empty()
                             ? a->name.str()
                             : (imp->module + "." + a->name).str(),
                         child);
      if (child && child != m)
        solver.addObject(bind(local), moduleObject(child));
      solver.addCopy(scopeNode(m->name, a->name), bind(local));
      continue;
    }
    if (imp->level > 0) {
      // `from . import transforms` in a folder without `__init__.py` (a
      // namespace package, PEP 420: torchvision's detection references
      // copied into a project's `tool/tv_reference/`): the module there.
      std::string dotted = imp->module.empty()
                               ? a->name.str()
                               : (imp->module + "." + a->name).str();
      if (ProgramModule *child =
              program.resolveImport(s, from, dotted, imp->level, nullptr)) {
        solver.addObject(bind(local), moduleObject(child));
        continue;
      }
      unresolved(a, (std::string(imp->level, '.') + imp->module.str()), looked);
      continue;
    }
    // A folder without `__init__.py` is a namespace package (PEP 420):
    // `from training import loop` imports training/loop.py. (Not asked of
    // an installed library's module, which the library reader reads: the
    // question would forget the answer, and `from timm.data import
    // create_loader` was reported as an import detc cannot resolve.)
    if (!imp->module.empty() && !program.resolvedToLibrary() &&
        !program.resolvedToBrokenFile())
      if (ProgramModule *child = program.resolveImport(
              s, from, (imp->module + "." + a->name).str(), 0, nullptr)) {
        solver.addObject(bind(local), moduleObject(child));
        continue;
      }
    unresolved(a, imp->module, looked);
    solver.addObject(bind(local),
                     libName((imp->module + "." + a->name).str()));
  }
}

/// The names a module's `__all__` lists, when its body assigns it a list or
/// tuple of strings (and extends it with `+=` such a list), else nullopt.
static std::optional<std::vector<llvm::StringRef>>
literalAll(const ast::Module &module) {
  std::optional<std::vector<llvm::StringRef>> all;
  auto isAll = [](const ast::Expr *e) {
    auto *n = llvm::dyn_cast_or_null<ast::Name>(e);
    return n && n->id == "__all__";
  };
  auto strings = [](const ast::Expr *e, std::vector<llvm::StringRef> &out) {
    auto *seq = llvm::dyn_cast_or_null<ast::Sequence>(e);
    if (!seq)
      return false;
    for (const ast::Expr *elt : seq->elts) {
      auto *c = llvm::dyn_cast<ast::Constant>(elt);
      if (!c || c->kind != ast::ConstantKind::Str)
        return false;
      out.push_back(c->value);
    }
    return true;
  };
  for (const ast::Stmt *s : module.body) {
    if (auto *a = llvm::dyn_cast<ast::Assign>(s);
        a && llvm::any_of(a->targets, isAll)) {
      std::vector<llvm::StringRef> names;
      if (a->targets.size() != 1 || !strings(a->value, names))
        return std::nullopt;
      all = std::move(names);
    } else if (auto *aug = llvm::dyn_cast<ast::AugAssign>(s);
               aug && isAll(aug->target)) {
      if (!all || aug->op != ast::BinOpKind::Add || !strings(aug->value, *all))
        return std::nullopt;
    }
  }
  return all;
}

const std::vector<std::string> &Builder::starNames(ProgramModule &m) {
  // Asked by every module that star-imports m, and by m's own frame.
  auto [cached, added] = starNamesOf.try_emplace(&m);
  if (!added)
    return cached->second;
  llvm::StringSet<> seen;
  llvm::SmallPtrSet<ProgramModule *, 4> visited;
  llvm::SmallVector<ProgramModule *, 4> work{&m};
  while (!work.empty()) {
    ProgramModule *at = work.pop_back_val();
    if (!visited.insert(at).second || !at->parsed)
      continue;
    // A module's `__all__` names what a star import of it binds, names
    // with a leading underscore too (awesome-semantic-segmentation's
    // core/nn/basic.py exports `_ConvBNReLU`, which its package
    // re-exports: `from core.nn import _ConvBNReLU` was unresolved).
    if (std::optional<std::vector<llvm::StringRef>> all =
            literalAll(*at->parsed->module)) {
      for (llvm::StringRef name : *all)
        seen.insert(name);
      continue;
    }
    Scope scope =
        computeFunctionScope(nullptr, asNodes(at->parsed->module->body));
    for (const auto &name : scope.locals)
      if (!name.getKey().starts_with("_"))
        seen.insert(name.getKey());
    for (const auto &[imp, from] : starImports(*at)) {
      if (from)
        work.push_back(from);
      else
        for (const std::string &n : api.namesUnder(imp->module))
          seen.insert(n);
    }
  }
  std::vector<std::string> names;
  for (const auto &name : seen)
    names.push_back(name.getKey().str());
  // Sorted: the constraints do not depend on the order files were read.
  llvm::sort(names);
  std::vector<std::string> &kept = starNamesOf[&m];
  kept = std::move(names);
  return kept;
}

std::vector<std::pair<const ast::ImportFrom *, ProgramModule *>>
Builder::starImports(ProgramModule &m) {
  std::vector<std::pair<const ast::ImportFrom *, ProgramModule *>> out;
  for (const ast::Stmt *s : m.parsed->module->body) {
    auto *imp = llvm::dyn_cast<ast::ImportFrom>(s);
    if (!imp || llvm::none_of(imp->names, [](const ast::Alias *a) {
          return a->name == "*";
        }))
      continue;
    ProgramModule *from = program.resolve(m, imp->module, imp->level, nullptr);
    if (from || api.isKnownModule(api.canonicalize(imp->module)))
      out.emplace_back(imp, from);
  }
  return out;
}

std::vector<std::string> Builder::starImported(ProgramModule &m) {
  std::vector<std::string> names;
  for (const auto &[imp, from] : starImports(m)) {
    if (from) {
      const std::vector<std::string> &more = starNames(*from);
      names.insert(names.end(), more.begin(), more.end());
    } else {
      std::vector<std::string> more = api.namesUnder(imp->module);
      names.insert(names.end(), more.begin(), more.end());
    }
  }
  return names;
}

// ---- Expressions ---------------------------------------------------------------

Node Builder::expr(Frame &f, const ast::Expr *e) {
  using namespace ast;
  auto remember = [&](pta::Node n) {
    e->setPointsToNode(n);
    return n;
  };
  switch (e->getKind()) {
  case NodeKind::Name: {
    auto *n = llvm::cast<Name>(e);
    if (n->ctx == ExprContext::Load)
      if (auto it = f.current.find(n->id); it != f.current.end())
        return remember(it->second);
    if (n->ctx == ExprContext::Load && undefinedIn(f, n->id))
      warn(f.module, n,
           "'" + n->id.str() +
               "' is not defined: no statement binds it and it is no "
               "builtin, so Python raises NameError here; detc takes it "
               "for an unknown object (it may be anything) "
               "[detc-undefined-name]");
    return remember(varNode(f, n->id));
  }
  case NodeKind::Constant: {
    auto *c = llvm::cast<Constant>(e);
    pta::Node n = solver.newNode();
    std::string text;
    switch (c->kind) {
    case ConstantKind::None:
      text = "None";
      break;
    case ConstantKind::True:
      text = "True";
      break;
    case ConstantKind::False:
      text = "False";
      break;
    case ConstantKind::Str:
      text = "'" + c->value.str() + "'";
      break;
    case ConstantKind::Int:
    case ConstantKind::Float:
      text = c->value.str();
      break;
    default:
      break;
    }
    if (!text.empty() && text.size() <= 64)
      solver.addObject(n, constant(text));
    return remember(n);
  }
  case NodeKind::Attribute: {
    auto *a = llvm::cast<Attribute>(e);
    pta::Node base = expr(f, a->value);
    pta::Node n = solver.newNode();
    FieldId fid = solver.fieldId(a->attr);
    // Where the expression is, for a bound method, beside it.
    valueAttributes[n] = {a, f.module};
    loadAttribute(base, fid, n);
    return remember(n);
  }
  case NodeKind::Subscript: {
    auto *sub = llvm::cast<Subscript>(e);
    pta::Node base = expr(f, sub->value);
    pta::Node n = solver.newNode();
    auto *c = llvm::dyn_cast<Constant>(sub->slice);
    if (!c)
      expr(f, sub->slice);
    if (llvm::isa<Slice>(sub->slice)) {
      // `self.maxpools[::-1]`, `layers[1:]`: a new list of (some of) the
      // sequence's elements, at any index (yolov4's SPP iterated the
      // elements' elements, and called none of its pooling layers). Of
      // anything else (a tensor, a string, an instance), any element, as
      // before.
      Obj slice = objectAt(Kind::List, "list", e, f.module);
      pta::Node elements = solver.fieldNode(slice, solver.fieldId("[*]"));
      solver.onObject(base, [this, n, slice, elements](Obj o) {
        const AbstractObject &ob = out.objects[o];
        bool sequence =
            ob.kind == Kind::List || ob.kind == Kind::Tuple ||
            (ob.kind == Kind::Library &&
             (ob.label() == "torch.nn.ModuleList" ||
              ob.label() == "torch.nn.Sequential" ||
              ob.label() == "torch.nn.ParameterList"));
        if (!sequence) {
          solver.addCopy(solver.fieldNode(o, solver.fieldId("[*]")), n);
          return;
        }
        solver.addObject(n, slice);
        solver.onField(o, [this, o, elements](FieldId fid) {
          if (solver.fieldName(fid).starts_with("["))
            solver.addCopy(solver.fieldNode(o, fid), elements);
        });
      });
      return remember(n);
    }
    // `obj.__dict__["name"]` is attribute `name` of obj (its namespace);
    // `obj.__dict__[key]` with a computed key, any attribute it has.
    if (auto *a = namespaceOf(sub->value)) {
      pta::Node owner = ownerNode(f, a);
      if (c && c->kind == ConstantKind::Str)
        load(owner, c->value, n);
      else
        solver.onObject(owner, [this, n](Obj o) {
          if (out.objects[o].kind == Kind::Instance)
            solver.addCopy(anyNamedAttribute(o), n);
        });
    }
    if (c && c->kind == ConstantKind::Str) {
      load(base, ("['" + c->value + "']").str(), n);
      load(base, "[?]", n);
    } else if (c && c->kind == ConstantKind::Int) {
      load(base, ("[" + c->value + "]").str(), n);
      load(base, "[*]", n);
    } else if (std::optional<std::string> prefix = constantPrefix(sub->slice)) {
      // `STEPS['aug_' + name]`, `globals()[f'shift_{k}']`: of a dict, the
      // entries whose key starts so (and those stored under computed
      // keys); of anything else, any element.
      std::string pre = "['" + *prefix;
      solver.onObject(base, [this, n, pre](Obj o) {
        if (out.objects[o].kind != Kind::Dict) {
          solver.addCopy(solver.fieldNode(o, solver.fieldId("[*]")), n);
          return;
        }
        solver.onField(o, [this, o, n, pre](FieldId fid) {
          StringRef name = solver.fieldName(fid);
          if (name.starts_with(pre) || name == "[?]")
            solver.addCopy(solver.fieldNode(o, fid), n);
        });
      });
    } else {
      load(base, "[*]", n);
    }
    // `models.__dict__['resnet18']`: that name of the library module. A
    // computed key (`models.__dict__[args.arch]`) is any of its names: the
    // table's entry for the name table itself when it has one (`a name
    // chosen at run time`: torchvision.models.__dict__ is any model,
    // dropout included), else any attribute of the library. (It was
    // `torchvision.models.*`, which the tables' wildcard of deterministic
    // builders then described.)
    std::optional<std::string> key;
    if (c && c->kind == ConstantKind::Str)
      key = c->value.str();
    solver.onObject(base, [this, n, key](Obj o) {
      const AbstractObject &ob = out.objects[o];
      StringRef label = ob.label();
      if (ob.kind != Kind::LibName || !label.ends_with(".__dict__"))
        return;
      if (key) {
        solver.addObject(n, libName((label.drop_back(9) + "." + *key).str()));
        return;
      }
      const ApiEntry *table = api.lookup(label);
      solver.addObject(n, libName(table && table->pattern == label
                                      ? label.str()
                                      : "<dynamic attribute of " +
                                            label.split('.').first.str() +
                                            ">"));
    });
    return remember(n);
  }
  case NodeKind::Call:
    return remember(call(f, llvm::cast<Call>(e)));
  case NodeKind::List:
  case NodeKind::Tuple:
  case NodeKind::Set: {
    ArrayRef<Expr *> elts =
        e->getKind() == NodeKind::Set
            ? ArrayRef<Expr *>(llvm::cast<Set>(e)->elts)
            : ArrayRef<Expr *>(llvm::cast<Sequence>(e)->elts);
    Kind k = e->getKind() == NodeKind::List    ? Kind::List
             : e->getKind() == NodeKind::Tuple ? Kind::Tuple
                                               : Kind::Set;
    StringRef label = k == Kind::List ? "list" : k == Kind::Tuple ? "tuple"
                                                                 : "set";
    Obj o = objectAt(k, label, e, f.module);
    pta::Node n = solver.newNode();
    solver.addObject(n, o);
    if (k == Kind::Tuple && llvm::none_of(elts, [](const Expr *x) {
          return llvm::isa<Starred>(x);
        }))
      exactTuples.insert(o);
    bool afterStar = false;
    for (auto [i, elt] : llvm::enumerate(elts)) {
      if (auto *st = llvm::dyn_cast<Starred>(elt)) {
        afterStar = true;
        elements(expr(f, st->value), field(o, "[*]"));
        continue;
      }
      pta::Node v = expr(f, elt);
      solver.addCopy(v, field(o, "[*]"));
      if (!afterStar)
        solver.addCopy(v, field(o, "[" + std::to_string(i) + "]"));
    }
    return remember(n);
  }
  case NodeKind::Dict: {
    auto *d = llvm::cast<Dict>(e);
    Obj o = objectAt(Kind::Dict, "dict", e, f.module);
    pta::Node n = solver.newNode();
    solver.addObject(n, o);
    for (size_t i = 0; i < d->values.size(); ++i) {
      pta::Node v = expr(f, d->values[i]);
      const Expr *k = d->keys[i];
      if (!k) { // `**mapping`
        mergeFields(v, n);
        continue;
      }
      auto *c = llvm::dyn_cast<Constant>(k);
      if (c && c->kind == ConstantKind::Str) {
        solver.addCopy(v, field(o, ("['" + c->value + "']").str()));
      } else {
        expr(f, k);
        solver.addCopy(v, field(o, "[?]"));
      }
      solver.addCopy(v, field(o, "[*]"));
    }
    return remember(n);
  }
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
  case NodeKind::DictComp: {
    ArrayRef<Comprehension *> gens =
        e->getKind() == NodeKind::DictComp
            ? ArrayRef<Comprehension *>(llvm::cast<DictComp>(e)->generators)
            : ArrayRef<Comprehension *>(llvm::cast<Comp>(e)->generators);
    for (const Comprehension *g : gens) {
      pta::Node items = solver.newNode();
      elements(expr(f, g->iter), items);
      assign(f, g->target, items);
      for (const Expr *cond : g->ifs)
        expr(f, cond);
    }
    Kind k = e->getKind() == NodeKind::DictComp       ? Kind::Dict
             : e->getKind() == NodeKind::GeneratorExp ? Kind::Generator
             : e->getKind() == NodeKind::SetComp      ? Kind::Set
                                                      : Kind::List;
    Obj o = objectAt(k, k == Kind::Dict ? "dict" : k == Kind::Generator
                                                       ? "generator"
                                                   : k == Kind::Set ? "set"
                                                                    : "list",
                     e, f.module);
    pta::Node n = solver.newNode();
    solver.addObject(n, o);
    if (auto *dc = llvm::dyn_cast<DictComp>(e)) {
      expr(f, dc->key);
      pta::Node v = expr(f, dc->value);
      solver.addCopy(v, field(o, "[?]"));
      solver.addCopy(v, field(o, "[*]"));
    } else {
      solver.addCopy(expr(f, llvm::cast<Comp>(e)->elt), field(o, "[*]"));
    }
    return remember(n);
  }
  case NodeKind::Lambda: {
    auto *l = llvm::cast<Lambda>(e);
    pta::Node n = solver.newNode();
    functionDef(f, l, "<lambda>", l->args, {}, l->body, n);
    return remember(n);
  }
  case NodeKind::IfExp: {
    auto *i = llvm::cast<IfExp>(e);
    expr(f, i->test);
    pta::Node n = solver.newNode();
    solver.addCopy(expr(f, i->body), n);
    solver.addCopy(expr(f, i->orelse), n);
    return remember(n);
  }
  case NodeKind::BoolOp: {
    pta::Node n = solver.newNode();
    for (const Expr *v : llvm::cast<BoolOp>(e)->values)
      solver.addCopy(expr(f, v), n);
    return remember(n);
  }
  case NodeKind::NamedExpr: {
    auto *ne = llvm::cast<NamedExpr>(e);
    pta::Node v = expr(f, ne->value);
    assign(f, ne->target, v);
    return remember(v);
  }
  case NodeKind::BinOp: {
    auto *b = llvm::cast<BinOp>(e);
    pta::Node l = expr(f, b->left), r = expr(f, b->right);
    pta::Node n = solver.newNode();
    if (b->op == BinOpKind::Add || b->op == BinOpKind::Mult) {
      // `xs + ys` of lists or tuples: a new one holding both's elements;
      // `[crop] * n` (SwAV's multi-crop transforms): a new one holding
      // the list's (the count holds none).
      for (pta::Node side : {l, r})
        solver.onObject(side, [this, e, f = &f, n, l, r](Obj o) {
          Kind k = out.objects[o].kind;
          if (k != Kind::List && k != Kind::Tuple)
            return;
          Obj joined = objectAt(k, k == Kind::List ? "list" : "tuple", e,
                                f->module);
          solver.addObject(n, joined);
          elements(l, field(joined, "[*]"));
          elements(r, field(joined, "[*]"));
        });
      // `train_a + train_b` of the program's datasets: torch's
      // Dataset.__add__ makes a ConcatDataset whose examples are either's,
      // so the sum may be either (deep-person-reid's combined training
      // sets; before, a dataset detc could not see). Any instance stays
      // in the sum so: what the program's own `__add__` returns is not
      // followed.
      if (b->op == BinOpKind::Add)
        for (pta::Node side : {l, r})
          solver.onObject(side, [this, n](Obj o) {
            if (out.objects[o].kind == Kind::Instance)
              solver.addObject(n, o);
          });
    } else if (b->op == BinOpKind::BitOr) {
      // `a | b` of dicts: a new dict with both's entries.
      solver.onObject(l, [this, e, f = &f, n, l, r](Obj o) {
        if (out.objects[o].kind != Kind::Dict)
          return;
        Obj joined = objectAt(Kind::Dict, "dict", e, f->module);
        solver.addObject(n, joined);
        mergeFields(l, n);
        mergeFields(r, n);
      });
    }
    // Arithmetic on a value of a module declared quiet (`datetime.now() -
    // start`, a timedelta; TorchSSL's writer then calls its
    // `total_seconds()` in the training loop): a value of that library
    // too, whose code draws nothing. Before, a value detc could not trace.
    for (pta::Node side : {l, r})
      solver.onObject(side, [this, n](Obj o) {
        const AbstractObject &ob = out.objects[o];
        if (ob.kind == Kind::Library && quietLibrary(ob.label()))
          solver.addObject(n, libName("<library attribute>"));
      });
    return remember(n);
  }
  case NodeKind::Starred:
    return remember(expr(f, llvm::cast<Starred>(e)->value));
  case NodeKind::Await:
    return remember(expr(f, llvm::cast<Await>(e)->value));
  case NodeKind::Yield: {
    auto *y = llvm::cast<Yield>(e);
    if (y->value)
      solver.addCopy(expr(f, y->value), f.yields);
    return remember(solver.newNode());
  }
  case NodeKind::YieldFrom: {
    elements(expr(f, llvm::cast<YieldFrom>(e)->value), f.yields);
    return remember(solver.newNode());
  }
  default: {
    // Compare, UnaryOp, JoinedStr, FormattedValue, Slice: values that hold
    // no objects the analysis tracks; their parts are still evaluated.
    forEachChild(e, [&](StringRef, const ast::Node *c) {
      if (auto *x = llvm::dyn_cast_or_null<Expr>(c))
        expr(f, x);
    });
    return remember(solver.newNode());
  }
  }
}
