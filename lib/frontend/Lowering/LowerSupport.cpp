//===- LowerSupport.cpp - Names, facts, locations and op emission ---------===//

#include "Lowerer.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static std::string globalVar(const Unit &unit, StringRef id) {
  if (unit.moduleName == "__main__")
    return ("@" + id).str();
  return "@" + unit.moduleName + "." + id.str();
}

std::string Lowerer::varName(FuncCtx &f, StringRef id) {
  if (f.isClassBody)
    return id.str();
  if (f.isModule || f.scope.globals.contains(id))
    return globalVar(*f.unit, id);
  if (f.scope.locals.contains(id))
    return id.str();
  if (f.scope.nonlocals.contains(id))
    return ("^" + id).str();
  for (FuncCtx *p = f.parent; p; p = p->parent)
    if (p->scope.locals.contains(id))
      return ("^" + id).str();
  return globalVar(*f.unit, id);
}

bool detc::frontend::iteratesItsArgument(const ApiModel &api,
                                         StringRef qualName) {
  const ApiEntry *entry = api.lookup(qualName);
  return entry && entry->role == "iterate";
}

bool detc::frontend::isBoundName(const FuncCtx &f, StringRef id) {
  if (f.scope.locals.contains(id) || f.scope.nonlocals.contains(id) ||
      f.unit->moduleScope.locals.contains(id))
    return true;
  for (FuncCtx *p = f.parent; p; p = p->parent)
    if (p->scope.locals.contains(id))
      return true;
  return false;
}

std::string Lowerer::qualName(FuncCtx &f, const ast::Expr *e) {
  if (auto *n = llvm::dyn_cast<ast::Name>(e)) {
    if (auto it = f.localImports.find(n->id); it != f.localImports.end())
      return it->second;
    // A local (a parameter) the points-to says holds one library callable
    // (`encoder(num_classes=10)`, given `models.__dict__[args.arch]` or a
    // functools.partial of it): a call of that callable.
    if (f.scope.locals.contains(n->id) && !f.isModule)
      return libraryNamed(n, /*throughPartials=*/true);
    if (auto it = f.unit->imports.find(n->id); it != f.unit->imports.end())
      return it->second;
    if (isBoundName(f, n->id))
      return "";
    // `from torchvision.transforms import *` then `from .transforms
    // import *` (ResNeSt): a library's wildcard entry claims every name,
    // but a class the program's module defines is what Python binds.
    if (!f.unit->starModules.empty() && namesProgramCode(n))
      return "";
    // The last star import that has the name binds it: one of the names
    // its `exports` line lists, else (a module without one) any name a
    // table line describes there, but a builtin (`print`, `set`) only
    // where a line of its own names it. A wildcard (`random.*`, every
    // function of random draws) claims names the module has not:
    // graykode/nlp-tutorial's BERT, after `from random import *`, had
    // its `print`, `set` and `super` reported as draws from random's
    // generator.
    for (const std::string &m : llvm::reverse(f.unit->starModules)) {
      std::string name = m + "." + n->id.str();
      if (const llvm::StringSet<> *names = api.exportsOf(m)) {
        if (!names->contains(n->id))
          continue;
      } else if (api.isBuiltinName(n->id) && !api.hasExactEntry(name)) {
        continue;
      }
      if (api.lookup(name))
        return name;
    }
    return libraryNamed(n);
  }
  if (auto *a = llvm::dyn_cast<ast::Attribute>(e)) {
    std::string base = qualName(f, a->value);
    // An attribute of a value the program made that the points-to says
    // holds one library callable (a folder dataset's `self.loader`,
    // torchvision's image loader): a call of that callable, which is no
    // method of the value and cannot change it.
    if (base.empty())
      return libraryNamed(a);
    return api.canonicalize(base + "." + a->attr.str());
  }
  // `models.__dict__[args.arch]`: some name of that library module, which
  // the tables may model as `<module>.__dict__`.
  if (auto *sub = llvm::dyn_cast<ast::Subscript>(e)) {
    std::string table = qualName(f, sub->value);
    if (!StringRef(table).ends_with(".__dict__"))
      return "";
    // A name written out (`nn.__dict__["ReLU"]`) is that name.
    if (auto *c = llvm::dyn_cast<ast::Constant>(sub->slice);
        c && c->kind == ast::ConstantKind::Str)
      return api.canonicalize(StringRef(table).rsplit('.').first.str() +
                              "." + c->value.str());
    if (api.lookup(table))
      return table;
  }
  // `getattr(nn, "LSTM")` is `nn.LSTM`; `getattr(nn, args.rnn_type)` is
  // some name of the module, only known at run time: `<module>.__dict__`,
  // which the tables model as whatever any of its names may do (an
  // `nn.LSTM` with dropout, an `nn.Dropout`: a layer that may draw).
  if (auto *call = llvm::dyn_cast<ast::Call>(e)) {
    auto *fn = llvm::dyn_cast<ast::Name>(call->func);
    if (!fn || fn->id != "getattr" || isBoundName(f, "getattr") ||
        call->args.size() != 2 || !call->keywords.empty())
      return "";
    std::string base = qualName(f, call->args[0]);
    if (base.empty() || !api.isKnownModule(base))
      return "";
    if (auto *c = llvm::dyn_cast<ast::Constant>(call->args[1]);
        c && c->kind == ast::ConstantKind::Str)
      return api.canonicalize(base + "." + c->value.str());
    std::string table = api.canonicalize(base) + ".__dict__";
    if (api.lookup(table))
      return table;
  }
  return "";
}

std::string Lowerer::varPath(FuncCtx &f, const ast::Expr *e) {
  if (auto *n = llvm::dyn_cast<ast::Name>(e)) {
    // An imported library name is not a variable; an imported item of a
    // local module is that module's global.
    std::string q = qualName(f, e);
    if (!q.empty()) {
      if (!programModuleOf(q).empty())
        return "@" + q;
      if (!unitsByModule.count(q))
        return "";
    }
    return varName(f, n->id);
  }
  if (auto *a = llvm::dyn_cast<ast::Attribute>(e)) {
    std::string q = qualName(f, e);
    if (!q.empty()) {
      // An attribute of a local module is that module's global (the
      // module may be a package's, `pkg.sub.mod`, whose package itself
      // was never imported as a unit).
      if (!programModuleOf(q).empty() || unitsByModule.count(q))
        return "@" + q;
      return "";
    }
    std::string base = varPath(f, a->value);
    if (base.empty())
      return "";
    return base + "." + a->attr.str();
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

std::string Lowerer::factKey(FuncCtx &f, const std::string &var) {
  if (var.empty() || var[0] == '@' || var[0] == '<')
    return var;
  if (var[0] == '^') {
    StringRef id = StringRef(var).drop_front().split('.').first;
    for (FuncCtx *p = f.parent; p; p = p->parent)
      if (p->scope.locals.contains(id))
        return p->symbol + "|" + var.substr(1);
    return globalVar(*f.unit, var.substr(1));
  }
  return f.symbol + "|" + var;
}

void Lowerer::addFacts(const std::string &key, const FactSet &newFacts) {
  // Facts are a finite lattice only if they stay small: a variable may hold
  // at most kMaxFacts different things (beyond that we stop distinguishing,
  // which only makes later questions more conservative), and dict entries
  // do not nest (see factsOf).
  constexpr size_t kMaxFacts = 48;
  if (newFacts.empty())
    return;
  FactSet &set = facts[key];
  // A temporary's facts are made again in each pass from the others (it is
  // defined before it is used, in one pass): they cannot change the fixpoint.
  bool temporary = isTemporaryKey(key);
  for (const std::string &fact : newFacts) {
    if (set.size() >= kMaxFacts)
      break;
    if (!set.insert(fact).second)
      continue;
    if (!temporary)
      factsChanged = true;
    if (StringRef(fact).starts_with("obj:"))
      holders[fact].insert(key);
  }
}

void Lowerer::forgetTemporaryFacts() {
  llvm::SmallVector<StringRef, 0> temporaries;
  for (const auto &entry : facts)
    if (isTemporaryKey(entry.getKey()))
      temporaries.push_back(entry.getKey());
  for (StringRef key : temporaries)
    facts.erase(key);
}

FactSet Lowerer::factsOfVar(FuncCtx &f, const std::string &var) {
  FactSet result;
  if (var.empty())
    return result;
  StringRef rest = var;
  StringRef root = rest.split('.').first;
  if (root.starts_with("@") && rest.contains('.')) {
    // `@m.x` may be a local module's global.
    auto it = facts.find(var);
    if (it != facts.end())
      return it->second;
  }
  auto lookup = [&](const std::string &key) {
    auto it = facts.find(key);
    return it == facts.end() ? FactSet() : it->second;
  };
  FactSet cur = lookup(factKey(f, root.str()));
  // What the facts lose (a loader returned in a tuple by a helper of another
  // module, a model from a factory chosen by a string), the points-to
  // analysis may know.
  addPointsToFacts(f, root, cur);
  std::string path = root.str();
  rest = rest.drop_front(root.size());
  while (rest.consume_front(".")) {
    StringRef attr = rest.split('.').first;
    rest = rest.drop_front(attr.size());
    path += "." + attr.str();
    FactSet next = lookup(factKey(f, path));
    for (const std::string &fact : cur) {
      if (!StringRef(fact).starts_with("inst:"))
        continue;
      // Instance attributes are keyed by the class (and its user bases).
      std::vector<std::string> work{fact.substr(5)};
      for (size_t i = 0; i < work.size() && i < 32; ++i) {
        FactSet fromClass = lookup(work[i] + "." + attr.str());
        next.insert(fromClass.begin(), fromClass.end());
        if (const ClassInfo *ci = classOf(work[i]))
          work.insert(work.end(), ci->userBases.begin(), ci->userBases.end());
      }
    }
    cur = std::move(next);
  }
  return cur;
}

void Lowerer::assignVarFacts(FuncCtx &f, const std::string &var,
                             const FactSet &newFacts) {
  if (var.empty() || newFacts.empty())
    return;
  addFacts(factKey(f, var), newFacts);
  StringRef v = var;
  if (!v.contains('.') || v.starts_with("@"))
    return;
  auto [head, attr] = v.rsplit('.');
  for (const std::string &fact : factsOfVar(f, head.str()))
    if (StringRef(fact).starts_with("inst:"))
      addFacts(fact.substr(5) + "." + attr.str(), newFacts);
}

void Lowerer::assignFacts(FuncCtx &f, const ast::Expr *target,
                          const FactSet &newFacts) {
  assignVarFacts(f, varPath(f, target), newFacts);
}

std::string Lowerer::objectId(char prefix, const ast::Node *n) {
  const ast::SourcePos &p = n->getRange().begin;
  std::string unitTag;
  if (currentUnit && currentUnit->moduleName != "__main__")
    unitTag = currentUnit->moduleName + ":";
  return unitTag + prefix + std::to_string(p.line) + "_" +
         std::to_string(p.column);
}

ObjectInfo &Lowerer::object(const std::string &id, ObjectInfo::Kind kind) {
  ObjectInfo &info = objects[id];
  info.kind = kind;
  return info;
}

const ObjectInfo *Lowerer::findObject(const std::string &id) const {
  auto it = objects.find(id);
  return it == objects.end() ? nullptr : &it->second;
}

std::vector<std::string> Lowerer::objectsOf(const FactSet &fs,
                                            ObjectInfo::Kind kind) const {
  std::vector<std::string> ids;
  for (const std::string &fact : fs) {
    if (!StringRef(fact).starts_with("obj:"))
      continue;
    const ObjectInfo *o = findObject(fact.substr(4));
    if (o && o->kind == kind)
      ids.push_back(fact.substr(4));
  }
  return ids;
}

std::vector<std::string>
Lowerer::varsHolding(FuncCtx &f, const std::vector<std::string> &ids) {
  std::set<std::string> vars;
  // Through the reverse index: only this function's locals (`symbol|var`)
  // and the globals (`@var`) can hold the objects here.
  std::string localPrefix = f.symbol + "|";
  for (const std::string &id : ids) {
    auto it = holders.find("obj:" + id);
    if (it == holders.end())
      continue;
    for (const std::string &key : it->second) {
      std::string var;
      if (StringRef(key).starts_with(localPrefix))
        var = key.substr(localPrefix.size());
      else if (StringRef(key).starts_with("@"))
        var = key;
      if (!var.empty() && var[0] != '$')
        vars.insert(var);
    }
  }
  return {vars.begin(), vars.end()};
}

const ClassInfo *Lowerer::classOf(const std::string &symbol) const {
  auto it = classes.find(symbol);
  return it == classes.end() ? nullptr : &it->second;
}

std::string Lowerer::findMethod(const std::string &cls,
                                StringRef method) const {
  std::vector<std::string> work{cls};
  for (size_t i = 0; i < work.size() && i < 32; ++i) {
    const ClassInfo *ci = classOf(work[i]);
    if (!ci)
      continue;
    if (ci->methods.contains(method))
      return work[i];
    work.insert(work.end(), ci->userBases.begin(), ci->userBases.end());
  }
  return "";
}

std::string Lowerer::userClassOf(const FactSet &fs, ir::ClassRole role) const {
  for (const std::string &fact : fs) {
    if (!StringRef(fact).starts_with("inst:"))
      continue;
    const ClassInfo *ci = classOf(fact.substr(5));
    if (ci && ci->role == role)
      return ci->symbol;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

Location Lowerer::loc(const ast::Node *stmt, const ast::Node *expr) {
  if (!expr)
    expr = stmt;
  const ast::Node *s = currentStmt ? currentStmt : stmt;
  // A statement op's own statement range is its node's.
  if (expr == stmt)
    s = stmt;
  // Ops of one statement often share a span (a call and the statement it
  // is): the span and its location are made once.
  RecentSpan &recent =
      recentSpans[(llvm::hash_value(s) ^ llvm::hash_value(expr) * 31) %
                  recentSpans.size()];
  if (recent.stmt == s && recent.expr == expr)
    return recent.loc;
  const ast::SourceRange &sr = s->getRange();
  const ast::SourceRange &er = expr->getRange();
  uint32_t sb = std::min(sr.begin.offset, er.begin.offset);
  uint32_t se = std::max(sr.end.offset, er.end.offset);
  StringAttr file;
  if (currentUnit) {
    if (!currentUnit->fileAttr)
      currentUnit->fileAttr = StringAttr::get(&ctx, currentUnit->file->getName());
    file = currentUnit->fileAttr;
  } else {
    file = StringAttr::get(&ctx, "<input>");
  }
  recent = {s, expr,
            spans.get(ir::SourceSpan{file, er.begin.line, er.begin.column + 1,
                                     sb, se, er.begin.offset, er.end.offset})};
  return recent.loc;
}

ArrayAttr Lowerer::strArray(llvm::ArrayRef<std::string> items) {
  llvm::SmallVector<Attribute> attrs;
  for (const std::string &s : items)
    attrs.push_back(builder.getStringAttr(s));
  return builder.getArrayAttr(attrs);
}

/// The receivers `X` of the calls `X.module(...)` in a simple statement
/// (the wrapped model of a DistributedDataParallel, called around its
/// wrapper: the lint detc-ddp-module-forward reads them), or null.
ArrayAttr Lowerer::moduleCalls(const ast::Node *stmt) {
  if (!stmt || !llvm::isa<ast::Assign, ast::AugAssign, ast::AnnAssign,
                          ast::ExprStmt, ast::Return>(stmt))
    return nullptr;
  // The ops of a statement are emitted one after another: remember the
  // last statement's answer only (one per statement of the program cost
  // more than the walk).
  if (stmt == moduleCallsOf)
    return moduleCallsValue;
  moduleCallsOf = stmt;
  moduleCallsValue = nullptr;
  VarSet receivers;
  std::vector<const ast::Node *> work{stmt};
  while (!work.empty()) {
    const ast::Node *n = work.back();
    work.pop_back();
    if (llvm::isa<ast::Lambda>(n))
      continue;
    if (auto *c = llvm::dyn_cast<ast::Call>(n)) {
      const ast::Expr *callee = c->func;
      // `X.module(...)` and `X.module.forward(...)`.
      if (auto *a = llvm::dyn_cast<ast::Attribute>(callee);
          a && a->attr == "forward")
        callee = a->value;
      if (auto *a = llvm::dyn_cast<ast::Attribute>(callee);
          a && a->attr == "module") {
        std::string path;
        for (const ast::Expr *e = a->value; e;) {
          if (auto *name = llvm::dyn_cast<ast::Name>(e)) {
            path = name->id.str() + path;
            break;
          }
          auto *inner = llvm::dyn_cast<ast::Attribute>(e);
          if (!inner) {
            path.clear();
            break;
          }
          path = "." + inner->attr.str() + path;
          e = inner->value;
        }
        if (!path.empty())
          receivers.insert(path);
      }
    }
    ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
      if (child)
        work.push_back(child);
    });
  }
  if (!receivers.empty())
    moduleCallsValue = strArray(receivers.getArrayRef());
  return moduleCallsValue;
}

Operation *Lowerer::emit(StringRef opName, const ast::Node *at,
                         llvm::ArrayRef<std::string> defs, const Effects &eff,
                         llvm::ArrayRef<NamedAttribute> attrs,
                         unsigned numRegions) {
  // A pass that only gathers facts makes no ops: its callers lower their
  // regions' contents all the same (inRegion), for the facts. Placeholder
  // ops would be thrown away with the pass's module, and the facts would
  // sit among them in the allocator's pages: once the facts are freed,
  // pages that still held an op of the next pass could not be returned
  // (hundreds of MB at 50 MB of script).
  if (!emitIR)
    return nullptr;
  OperationState state(loc(currentStmt ? currentStmt : at, at), opName);
  auto addList = [&](StringRef name, llvm::ArrayRef<std::string> vars) {
    // Drop duplicates and "" (no variable), keep first-occurrence order.
    VarSet unique;
    for (const std::string &v : vars)
      if (!v.empty())
        unique.insert(v);
    if (unique.empty())
      return;
    state.addAttribute(name, strArray(unique.getArrayRef()));
  };
  addList("defs", defs);
  // A change of a loop variable over an object's parameters is a change of
  // that object (elementRoots): a hand-written EMA (`for e, p in
  // zip(ema.parameters(), model.parameters()): e.mul_(d).add_(p)`, MoCo's
  // momentum encoder, a mean teacher) changes the EMA model.
  if (!elementRoots.empty()) {
    VarSet changed(eff.updates.begin(), eff.updates.end());
    auto through = [&](StringRef v) {
      auto it = elementRoots.find(v.split('.').first);
      if (it != elementRoots.end())
        changed.insert(it->second.begin(), it->second.end());
    };
    for (const std::string &v : eff.updates)
      through(v);
    for (const std::string &v : defs)
      if (StringRef(v).contains('.'))
        through(v);
    addList("updates", changed.getArrayRef());
  } else {
    addList("updates", eff.updates.getArrayRef());
  }
  addList("uses", eff.uses.getArrayRef());
  for (const NamedAttribute &a : attrs)
    state.addAttribute(a.getName(), a.getValue());
  if (ArrayAttr calls = moduleCalls(currentStmt))
    state.addAttribute("module_calls", calls);
  if (ArrayAttr calls = unreadCallsOfStmt();
      calls && !state.attributes.get("unread_calls"))
    state.addAttribute("unread_calls", calls);
  for (unsigned i = 0; i < numRegions; ++i) {
    Region *r = state.addRegion();
    r->push_back(new Block);
  }
  Operation *op = createOp(state);
  for (Region &r : op->getRegions()) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&r.front());
    builder.create<ir::YieldOp>(op->getLoc());
  }
  return op;
}

Operation *Lowerer::createOp(OperationState &state) {
  if (!emitIR)
    return nullptr;
  // builder.create(state) uniques a dictionary of all the attributes before
  // it moves the inherent ones into the op's properties, and the context
  // keeps it: one dictionary per op, a tenth of the module's memory. Only
  // the discardable ones go through a dictionary here.
  llvm::SmallVector<NamedAttribute> inherent;
  if (std::optional<RegisteredOperationName> info =
          state.name.getRegisteredInfo()) {
    ArrayRef<StringAttr> names = info->getAttributeNames();
    NamedAttrList discardable;
    for (const NamedAttribute &a : state.attributes) {
      if (llvm::is_contained(names, a.getName()))
        inherent.push_back(a);
      else
        discardable.push_back(a);
    }
    state.attributes = std::move(discardable);
  }
  Operation *op = builder.create(state);
  for (const NamedAttribute &a : inherent)
    op->setInherentAttr(a.getName(), a.getValue());
  return op;
}

void Lowerer::inRegion(Operation *op, unsigned index,
                       llvm::function_ref<void()> fn) {
  if (!op) { // A pass that only gathers facts (emit).
    fn();
    return;
  }
  OpBuilder::InsertionGuard guard(builder);
  Region &r = op->getRegion(index);
  builder.setInsertionPoint(r.front().getTerminator());
  fn();
}

void Lowerer::dropRegion(Operation *op, unsigned index) {
  if (op) // Null in a pass that only gathers facts.
    op->getRegion(index).getBlocks().clear();
}

void Lowerer::warnUnknown(FuncCtx &f, const ast::Node *n,
                          const llvm::Twine &msg) {
  passDiags.report(Severity::Warning, f.unit->file, n->getRange().begin,
                   (msg + " [detc-unknown-construct]").str());
}

void Lowerer::error(FuncCtx &f, const ast::Node *n, const llvm::Twine &msg) {
  if (f.unit->everyRun)
    return passDiags.error(f.unit->file, n->getRange().begin, msg.str());
  // A module only some runs load (imported in a branch, or by a name the
  // source computes): those runs fail there, the others do not; the
  // analysis goes on, as for a module that does not parse.
  passDiags.report(Severity::Warning, f.unit->file, n->getRange().begin,
                   (msg + " (in module '" + f.unit->moduleName +
                    "', which not every run loads) [detc-invalid-module]")
                       .str());
}

std::vector<PointsToResult::ObjectId>
Lowerer::pointsToAt(const ast::Node *call) const {
  if (!pointsTo || !currentUnit)
    return {};
  const ast::SourcePos &p = call->getRange().begin;
  return pointsTo->objectsAt(currentUnit->file->getName(), p.line, p.column);
}

std::vector<std::string>
Lowerer::loweredIds(llvm::ArrayRef<PointsToResult::ObjectId> objs, char prefix,
                    ObjectInfo::Kind kind) const {
  std::vector<std::string> ids;
  if (!pointsTo)
    return ids;
  for (PointsToResult::ObjectId o : objs) {
    const AbstractObject &ob = pointsTo->object(o);
    if (!ob.site || (ob.kind != AbstractObject::Kind::Library &&
                     ob.kind != AbstractObject::Kind::Instance))
      continue;
    // The unit the object was made in: its tag prefixes the lowering's id.
    // It is kept per object (the lowering asks about the same objects for
    // every name it reads, in every pass); an object of a unit not loaded
    // yet is asked again.
    if (siteUnits.size() <= o)
      siteUnits.resize(o + 1);
    const Unit *&unit = siteUnits[o];
    if (!unit)
      unit = unitOfFile(ob.file());
    if (!unit)
      continue;
    const ast::SourcePos &p = ob.site->getRange().begin;
    std::string id = unit->moduleName == "__main__" ? std::string()
                                                    : unit->moduleName + ":";
    id += prefix;
    id += std::to_string(p.line);
    id += '_';
    id += std::to_string(p.column);
    // A call that may construct several classes tells its objects apart
    // by class (construct's idFor).
    const ObjectInfo *info = nullptr;
    if (ob.kind == AbstractObject::Kind::Instance) {
      std::string byClass = id + "_" + ob.label().str();
      if ((info = findObject(byClass)))
        id = std::move(byClass);
    }
    if (!info)
      info = findObject(id);
    if (info && info->kind == kind && !llvm::is_contained(ids, id))
      ids.push_back(id);
  }
  return ids;
}

const Unit *Lowerer::unitOfFile(llvm::StringRef file) const {
  // Real paths are resolved once per file name (a syscall each).
  auto realOf = [&](llvm::StringRef name) -> const std::string & {
    auto [it, added] = realPaths.try_emplace(name);
    if (added) {
      llvm::SmallString<256> real;
      it->second =
          llvm::sys::fs::real_path(name, real) ? name.str() : std::string(real);
    }
    return it->second;
  };
  const std::string &target = realOf(file);
  for (const auto &unit : units)
    if (realOf(unit->file->getName()) == target)
      return unit.get();
  return nullptr;
}

std::string Lowerer::pointsToScope(const FuncCtx &f) const {
  std::string scope = f.isModule ? f.unit->moduleName : f.symbol;
  for (size_t at; (at = scope.find("::")) != std::string::npos;)
    scope.replace(at, 2, ".");
  return scope;
}

void Lowerer::addPointsToFacts(FuncCtx &f, llvm::StringRef name, FactSet &out) {
  if (!pointsTo || name.empty() || name.starts_with("$") ||
      name.starts_with("^"))
    return;
  // `@x`: a global of the unit being lowered (`@m.x`, another module's, is
  // not asked for).
  std::string scope = pointsToScope(f);
  if (name.consume_front("@")) {
    if (name.contains('.'))
      return;
    scope = f.unit->moduleName;
  }
  addPointsToFacts(pointsTo->pointsTo(scope, name), out);
}

void Lowerer::addPointsToFacts(const ast::Expr *e, FactSet &out) {
  if (!pointsTo)
    return;
  std::vector<PointsToResult::ObjectId> objs = pointsTo->pointsTo(e);
  addPointsToFacts(objs, out);
  addInstanceFacts(objs, out);
}

void Lowerer::addPointsToFacts(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                               FactSet &out) const {
  if (objs.empty())
    return;
  static const std::pair<char, ObjectInfo::Kind> kinds[] = {
      {'b', ObjectInfo::Build},
      {'d', ObjectInfo::Dataset},
      {'l', ObjectInfo::Loader},
      {'o', ObjectInfo::Optimizer}};
  for (auto [prefix, kind] : kinds)
    for (const std::string &id : loweredIds(objs, prefix, kind))
      out.insert("obj:" + id);
  addProgramCallables(objs, out);
}

void Lowerer::addCalleeFacts(const ast::Expr *callee, FactSet &out) {
  if (pointsTo)
    addProgramCallables(pointsTo->pointsTo(callee), out);
}

void Lowerer::addBuildFacts(const ast::Expr *e, FactSet &out) {
  if (pointsTo)
    for (const std::string &id :
         loweredIds(pointsTo->pointsTo(e), 'b', ObjectInfo::Build))
      out.insert("obj:" + id);
}

void Lowerer::addInstanceFacts(const ast::Expr *e, FactSet &out) {
  if (pointsTo)
    addInstanceFacts(pointsTo->pointsTo(e), out);
}

void Lowerer::addInstanceFacts(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                               FactSet &out) const {
  for (PointsToResult::ObjectId o : objs) {
    const AbstractObject &ob = pointsTo->object(o);
    if (ob.kind == AbstractObject::Kind::Instance &&
        classes.count(ob.label().str()))
      for (const std::string &sym : definitionsOf(ob.label(), classes))
        out.insert("inst:" + sym);
  }
}

bool Lowerer::callsUnknownCode(const ast::Expr *callee) const {
  if (!pointsTo)
    return false;
  std::vector<PointsToResult::ObjectId> objs = pointsTo->pointsTo(callee);
  return !objs.empty() &&
         llvm::all_of(objs, [&](PointsToResult::ObjectId o) {
           const AbstractObject &ob = pointsTo->object(o);
           return ob.kind == AbstractObject::Kind::LibName &&
                  !api.lookup(api.canonicalize(ob.label())) &&
                  !api.isLibraryName(ob.label());
         });
}

std::string Lowerer::libraryNamed(const ast::Expr *e,
                                  bool throughPartials) const {
  if (!pointsTo)
    return "";
  std::string name;
  std::vector<PointsToResult::ObjectId> objs = pointsTo->pointsTo(e);
  if (throughPartials)
    objs = partialTargets(objs);
  for (PointsToResult::ObjectId o : objs) {
    const AbstractObject &ob = pointsTo->object(o);
    if (ob.kind != AbstractObject::Kind::LibName ||
        ob.label().starts_with("<") || ob.label().starts_with("*.") ||
        ob.label().starts_with("builtins.") ||
        (!name.empty() && name != ob.label()))
      return "";
    name = ob.label().str();
  }
  return name.empty() ? "" : api.canonicalize(name);
}

std::vector<PointsToResult::ObjectId> Lowerer::partialTargets(
    llvm::ArrayRef<PointsToResult::ObjectId> objs) const {
  std::vector<PointsToResult::ObjectId> out;
  llvm::SmallVector<PointsToResult::ObjectId, 4> work(objs.rbegin(),
                                                       objs.rend());
  llvm::DenseSet<PointsToResult::ObjectId> seen;
  while (!work.empty()) {
    PointsToResult::ObjectId o = work.pop_back_val();
    if (!seen.insert(o).second)
      continue;
    std::vector<PointsToResult::ObjectId> wrapped;
    if (isPartial(o))
      wrapped = pointsTo->field(o, "arg0");
    // A partial of nothing the analysis sees stays: it may be anything.
    if (wrapped.empty())
      out.push_back(o);
    work.append(wrapped.begin(), wrapped.end());
  }
  return out;
}

bool Lowerer::isPartial(PointsToResult::ObjectId o) const {
  const AbstractObject &ob = pointsTo->object(o);
  if (ob.kind != AbstractObject::Kind::Library)
    return false;
  const ApiEntry *entry = api.lookup(ob.label());
  return entry && entry->role == "bind";
}

bool Lowerer::boundByPartial(const ast::Expr *callee) const {
  if (!pointsTo)
    return false;
  return llvm::any_of(pointsTo->pointsTo(callee),
                      [&](PointsToResult::ObjectId o) { return isPartial(o); });
}

bool Lowerer::immutableReceiver(const ast::Expr *receiver) const {
  if (!pointsTo)
    return false;
  std::vector<PointsToResult::ObjectId> objs = pointsTo->pointsTo(receiver);
  return !objs.empty() &&
         llvm::all_of(objs, [&](PointsToResult::ObjectId o) {
           const AbstractObject &ob = pointsTo->object(o);
           return ob.kind == AbstractObject::Kind::Library &&
                  api.isImmutable(api.canonicalize(ob.label()));
         });
}

bool Lowerer::boundTo(const ast::Expr *callee, const ast::Expr *self) const {
  if (!pointsTo)
    return false;
  std::vector<PointsToResult::ObjectId> selves = pointsTo->pointsTo(self);
  bool any = false;
  for (PointsToResult::ObjectId o : pointsTo->pointsTo(callee)) {
    if (!isPartial(o))
      continue;
    for (PointsToResult::ObjectId bound : pointsTo->field(o, "arg1")) {
      if (!llvm::is_contained(selves, bound))
        return false;
      any = true;
    }
  }
  return any;
}

bool Lowerer::namesProgramCode(const ast::Expr *e) const {
  if (!pointsTo)
    return false;
  for (PointsToResult::ObjectId o : pointsTo->pointsTo(e)) {
    AbstractObject::Kind k = pointsTo->object(o).kind;
    if (k == AbstractObject::Kind::Class ||
        k == AbstractObject::Kind::Function ||
        k == AbstractObject::Kind::Module)
      return true;
  }
  return false;
}

void Lowerer::addProgramCallables(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                                  FactSet &out) const {
  // Functions and classes of the program (a star import's, a package's
  // re-export): the points-to symbol is the lowering's. A partial adds
  // the objects of its `arg0` to the work list, once: `f = partial(f, **kw)`
  // makes a partial that holds itself.
  llvm::SmallVector<PointsToResult::ObjectId, 8> work(objs.rbegin(),
                                                       objs.rend());
  llvm::DenseSet<PointsToResult::ObjectId> partials;
  while (!work.empty()) {
    PointsToResult::ObjectId o = work.pop_back_val();
    const AbstractObject &ob = pointsTo->object(o);
    std::string label = ob.label().str();
    // A function nested in a method (`Data.__init__.<lambda>@8:26`,
    // `Data.__getitem__.jitter`) is the lowering's `Data::__init__...`.
    // A lambda only once this pass has lowered it: it is named (and its
    // function made) when its expression is lowered.
    if (ob.label().contains("<lambda>")) {
      std::string sym = label;
      for (size_t dot = label.find('.'); dot != std::string::npos &&
                                         !lambdasThisPass.count(sym);
           dot = label.find('.', dot + 1))
        sym = label.substr(0, dot) + "::" + label.substr(dot + 1);
      if (lambdasThisPass.count(sym))
        out.insert("func:" + sym);
      continue;
    }
    std::string nested;
    if (ob.kind == AbstractObject::Kind::Function && !funcParams.count(label))
      for (size_t dot = label.find('.'); dot != std::string::npos;
           dot = label.find('.', dot + 1)) {
        std::string sym = label.substr(0, dot) + "::" + label.substr(dot + 1);
        if (classes.count(label.substr(0, dot)) && funcParams.count(sym) &&
            StringRef(label).substr(dot + 1).contains('.')) {
          nested = sym;
          break;
        }
      }
    if (!nested.empty()) {
      out.insert("func:" + nested);
    } else if (ob.kind == AbstractObject::Kind::Function &&
               funcParams.count(label)) {
      for (const std::string &sym : definitionsOf(label, funcParams))
        out.insert("func:" + sym);
    } else if (ob.kind == AbstractObject::Kind::Function &&
               !ob.label().contains("<lambda>")) {
      // A method (`Net.noise` is the lowering's `Net::noise`), reached as
      // a value (`getattr(self, name)`): called with its receiver bound.
      auto [cls, method] = ob.label().rsplit('.');
      std::string sym = (cls + "::" + method).str();
      if (!method.empty() && funcParams.count(sym) && classes.count(cls.str()))
        out.insert("method:" + sym);
    }
    else if (ob.kind == AbstractObject::Kind::Class && classes.count(label))
      for (const std::string &sym : definitionsOf(label, classes))
        out.insert("class:" + sym);
    // A functools.partial of the program's function: calling it calls
    // that function.
    else if (const ApiEntry *entry = ob.kind == AbstractObject::Kind::Library
                                         ? api.lookup(ob.label())
                                         : nullptr;
             entry && entry->role == "bind") {
      if (partials.insert(o).second)
        for (PointsToResult::ObjectId f : pointsTo->field(o, "arg0"))
          work.push_back(f);
    }
  }
}
