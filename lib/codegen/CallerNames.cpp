//===- CallerNames.cpp - What a callee's local is called by its callers ---===//

#include "CallerNames.h"

#include "detc/ir/DetcOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace llvm;
using namespace mlir;
using namespace detc;
using namespace detc::codegen;
using analysis::NodeId;
using analysis::VarId;

static StringRef rootName(StringRef path) {
  return path.take_until([](char c) { return c == '.' || c == '['; });
}

/// Whether `name` is a parameter of `fn` that its body never rebinds: every
/// call's argument is the object the parameter holds throughout.
static bool isFixedParam(ir::FuncOp fn, StringRef name) {
  if (!llvm::any_of(fn.getParams(), [&](Attribute a) {
        return cast<StringAttr>(a).getValue() == name;
      }))
    return false;
  bool rebound = false;
  fn.walk([&](Operation *op) {
    for (Attribute a : ir::detail::getVarList(op, "defs"))
      rebound |= cast<StringAttr>(a).getValue() == name;
  });
  return !rebound;
}

SmallVector<VarId, 2>
CallerNames::ownersOf(VarId v, llvm::function_ref<bool(VarId)> visible) const {
  StringRef path = g.vars.name(v);
  while (path.contains('.')) {
    path = path.rsplit('.').first;
    VarId owner = g.vars.lookup(path);
    if (owner == ~0u)
      continue;
    SmallVector<VarId, 2> ws = namesOf(owner, visible);
    if (!ws.empty())
      return ws;
  }
  return {};
}

SmallVector<VarId, 2>
CallerNames::namesOf(VarId v, llvm::function_ref<bool(VarId)> visible,
                     int depth) const {
  SmallVector<VarId, 2> out;
  if (depth > 8)
    return out;
  auto [qualifier, path] = g.vars.name(v).rsplit('/');
  if (path.empty())
    return out; // a global
  StringRef local = rootName(path);
  StringRef suffix = path.drop_front(local.size());
  unsigned instId = ~0u;
  for (auto [k, i] : llvm::enumerate(g.instances))
    if (i.qualifier == qualifier)
      instId = k;
  if (instId == ~0u)
    return out;
  ir::FuncOp fn = analysis::findFunction(module, g.instances[instId].function);
  if (!fn)
    return out;
  SmallVector<std::string, 2> outers;
  // A local put in a container, or stored in another object, is named as
  // that is (its own path in a container is not a variable): `layer` of
  // `self.layers.append(layer)` is known as the caller's `model.layers`.
  std::string container;
  bool named = false;
  for (int hops = 0; hops < 4 && !named; ++hops) {
    if (isFixedParam(fn, local)) {
      named = passedTo(instId, fn, local, suffix, outers);
      break;
    }
    named = returnedBy(instId, fn, local, suffix, outers);
    if (named)
      break;
    container = heldBy(fn, local);
    if (container.empty())
      container = storedBy(fn, local);
    if (container.empty())
      break;
    local = rootName(container);
    suffix = StringRef(container).drop_front(local.size());
  }
  if (!named)
    return out;
  for (const std::string &outer : outers) {
    // The variable itself, else the nearest object holding it (an
    // attribute path of a module global, `@criterion.memory.bank`, named
    // where the checkpoint is by its root only; `model.layers` of the
    // caller of a factory): saved whole, or named by its own callers. Only
    // the path after the instance's qualifier is walked up (a qualifier
    // such as `Net.__init__#1` has dots of its own).
    SmallVector<VarId, 2> up;
    size_t slash = outer.rfind('/');
    size_t pathStart = slash == std::string::npos ? 0 : slash + 1;
    for (StringRef owner = outer;;) {
      VarId w = g.vars.lookup(owner);
      if (w != ~0u && visible(w)) {
        up.push_back(w);
        break;
      }
      if (w != ~0u)
        up = namesOf(w, visible, depth + 1);
      if (!up.empty())
        break;
      size_t dot = owner.rfind('.');
      if (dot == StringRef::npos || dot < pathStart)
        break;
      owner = owner.take_front(dot);
    }
    if (up.empty())
      return {};
    out.append(up.begin(), up.end());
  }
  return out;
}

std::string CallerNames::heldBy(ir::FuncOp fn, StringRef local) const {
  // The builds that assign `local` in `fn` (`layer = Block(...)`).
  llvm::SmallVector<StringRef, 2> ids;
  fn.walk([&](ir::BuildOp b) {
    ArrayAttr defs = b->getAttrOfType<ArrayAttr>("defs");
    if (defs && defs.size() == 1 &&
        cast<StringAttr>(defs[0]).getValue() == local)
      ids.push_back(b.getId());
  });
  if (ids.empty())
    return {};
  // A container built in `fn` whose forward may run one of them
  // (`self.layers.append(layer)` of an `nn.ModuleList`, an
  // `nn.Sequential` of it): its build region forwards the element.
  std::string container;
  fn.walk([&](ir::ForwardOp fw) {
    auto built = dyn_cast_or_null<ir::BuildOp>(fw->getParentOp());
    ArrayAttr defs =
        built ? built->getAttrOfType<ArrayAttr>("defs") : ArrayAttr();
    if (!container.empty() || !defs || defs.size() != 1 ||
        cast<StringAttr>(defs[0]).getValue() != fw.getModel() ||
        fw.getModel() == local ||
        llvm::none_of(fw.getBuilds(), [&](Attribute a) {
          return llvm::is_contained(ids, cast<StringAttr>(a).getValue());
        }))
      return;
    container = fw.getModel().str();
  });
  return container;
}

std::string CallerNames::storedBy(ir::FuncOp fn, StringRef local) const {
  // `model = SimMIM(encoder=encoder)`, whose `__init__` does
  // `self.encoder = encoder`, holds it as `model.encoder`.
  std::string container;
  fn.walk([&](ir::CallOp call) {
    DictionaryAttr bind = call.getBindAttr();
    ir::FuncOp callee =
        analysis::findFunction(module, analysis::calleeSymbol(call));
    if (!container.empty() || !bind || !callee)
      return;
    for (NamedAttribute param : bind) {
      if (cast<StringAttr>(param.getValue()).getValue() != local ||
          !isFixedParam(callee, param.getName()))
        continue;
      callee.walk([&](ir::StmtOp st) {
        ArrayAttr defs = st->getAttrOfType<ArrayAttr>("defs");
        ArrayAttr uses = st->getAttrOfType<ArrayAttr>("uses");
        if (!container.empty() || !st->hasAttr("copy") || !defs ||
            defs.size() != 1 || !uses || uses.size() != 1 ||
            cast<StringAttr>(uses[0]).getValue() != param.getName())
          return;
        auto [holder, field] = cast<StringAttr>(defs[0]).getValue().split('.');
        auto outer = bind.getAs<StringAttr>(holder);
        if (!field.empty() && !field.contains('.') && outer &&
            isFixedParam(callee, holder))
          container = (outer.getValue() + "." + field).str();
      });
    }
  });
  return container;
}

bool CallerNames::passedTo(unsigned instId, ir::FuncOp fn, StringRef local,
                           StringRef suffix,
                           SmallVectorImpl<std::string> &outers) const {
  // The argument of the call at `enter`, read in the caller's instance.
  auto argumentOf = [&](NodeId enter) {
    auto call = dyn_cast_or_null<ir::CallOp>(g.node(enter).op);
    DictionaryAttr bind = call ? call.getBindAttr() : DictionaryAttr();
    auto arg = bind ? bind.getAs<StringAttr>(local) : StringAttr();
    if (!arg)
      return false;
    std::string outer =
        g.canonicalName(g.node(enter).instance, arg.getValue()) + suffix.str();
    if (!llvm::is_contained(outers, outer))
      outers.push_back(outer);
    return true;
  };
  const analysis::Instance &inst = g.instances[instId];
  if (inst.callSite != analysis::kNoNode)
    return argumentOf(inst.callSite);
  // A stand-in instance (the function summarized after many expansions,
  // or a build region's namespace): the local is each call's argument
  // (RepDistiller's `self.contrast.params` of a summarized
  // `CRDLoss.__init__`, the script's `criterion_kd = CRDLoss(opt)`).
  bool any = false;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const analysis::Node &node = g.node(n);
    auto call = dyn_cast_or_null<ir::CallOp>(node.op);
    if (node.kind != analysis::NodeKind::CallEnter || !call ||
        analysis::calleeSymbol(call) != inst.function)
      continue;
    if (!argumentOf(n))
      return false;
    any = true;
  }
  if (any)
    return true;
  // No call of it was expanded (its caller is a stand-in too: the blocks
  // a model's `__init__` builds in a loop, Swin's `BasicLayer(...)`): the
  // argument of each call in the code, in each instance of the caller.
  ModuleOp code = module;
  code.walk([&](ir::CallOp call) {
    if (analysis::calleeSymbol(call) != inst.function)
      return WalkResult::advance();
    auto caller = call->getParentOfType<ir::FuncOp>();
    if (!caller)
      return WalkResult::advance();
    std::string symbol = analysis::functionSymbol(caller);
    DictionaryAttr bind = call.getBindAttr();
    auto arg = bind ? bind.getAs<StringAttr>(local) : StringAttr();
    // A caller the program never runs (a subclass's `super().__init__`
    // no script builds) has no instance and names nothing.
    for (auto [k, i] : llvm::enumerate(g.instances)) {
      if (i.function != symbol)
        continue;
      if (!arg) {
        any = false;
        return WalkResult::interrupt();
      }
      std::string outer = g.canonicalName(k, arg.getValue()) + suffix.str();
      if (!llvm::is_contained(outers, outer))
        outers.push_back(outer);
      any = true;
    }
    return WalkResult::advance();
  });
  return any;
}

bool CallerNames::returnedBy(unsigned instId, ir::FuncOp fn, StringRef local,
                             StringRef suffix,
                             SmallVectorImpl<std::string> &outers) const {
  // Every `return` of the function returns that local.
  bool returnsIt = false, other = false;
  fn.walk([&](ir::ReturnOp r) {
    ArrayAttr uses = r->getAttrOfType<ArrayAttr>("uses");
    bool it = uses && uses.size() == 1 &&
              cast<StringAttr>(uses[0]).getValue() == local;
    (it ? returnsIt : other) = true;
  });
  if (!returnsIt || other)
    return false;
  // The variable a call of the function assigns its result to, in the
  // caller's instance.
  auto assignedBy = [&](const analysis::Instance &i) -> bool {
    if (i.callSite == analysis::kNoNode || i.parent == ~0u)
      return false;
    auto call = dyn_cast_or_null<ir::CallOp>(g.node(i.callSite).op);
    auto defs = call ? call->getAttrOfType<ArrayAttr>("defs") : ArrayAttr();
    if (!defs || defs.size() != 1)
      return false;
    std::string outer =
        g.canonicalName(i.parent, cast<StringAttr>(defs[0]).getValue()) +
        suffix.str();
    if (!llvm::is_contained(outers, outer))
      outers.push_back(outer);
    return true;
  };
  const analysis::Instance &inst = g.instances[instId];
  if (inst.callSite != analysis::kNoNode)
    return assignedBy(inst);
  // A forward made the factory's build region run (no call of its own):
  // the local stands for what every call of the factory assigns (DINO's
  // student and teacher, both built by `vits.__dict__[args.arch](...)`:
  // each is saved).
  bool called = false;
  for (const analysis::Instance &i : g.instances)
    if (i.function == inst.function && i.callSite != analysis::kNoNode) {
      if (!assignedBy(i))
        return false;
      called = true;
    }
  if (called)
    return true;
  // No call at all: a factory only a registry reaches (timm's
  // `create_model(args.model)` picking one of DeiT's `@register_model`
  // functions). The object it returns is what the forwards that ran its
  // build region were called on.
  for (std::string &m : forwardedAs(instId))
    outers.push_back(m + suffix.str());
  return !outers.empty();
}

std::vector<std::string> CallerNames::forwardedAs(unsigned instId) const {
  llvm::SetVector<NodeId> enters;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const analysis::Node &node = g.node(n);
    if (node.instance == instId && node.caller != analysis::kNoNode &&
        isa_and_nonnull<ir::ForwardOp>(g.node(node.caller).op))
      enters.insert(node.caller);
  }
  std::vector<std::string> names;
  for (NodeId e : enters) {
    auto fw = cast<ir::ForwardOp>(g.node(e).op);
    // The forward's own statement, with its variables resolved in the
    // caller's instance.
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (node.op != fw.getOperation() ||
          node.kind != analysis::NodeKind::Stmt ||
          node.instance != g.node(e).instance)
        continue;
      for (auto [k, u] : llvm::enumerate(fw.getUsesAttr()))
        if (cast<StringAttr>(u).getValue() == fw.getModel() &&
            k < node.uses.size()) {
          std::string name = g.vars.name(node.uses[k]).str();
          if (!llvm::is_contained(names, name))
            names.push_back(name);
        }
      break;
    }
  }
  return names;
}
