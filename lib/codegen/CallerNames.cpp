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
  bool named = isFixedParam(fn, local)
                   ? passedTo(instId, fn, local, suffix, outers)
                   : returnedBy(instId, fn, local, suffix, outers);
  if (!named)
    return out;
  for (const std::string &outer : outers) {
    VarId w = g.vars.lookup(outer);
    if (w != ~0u && visible(w)) {
      out.push_back(w);
      continue;
    }
    SmallVector<VarId, 2> up;
    if (w != ~0u)
      up = namesOf(w, visible, depth + 1);
    // Else the object holding it, saved whole: an attribute path of a
    // module global (`@criterion.memory.bank`), named where the checkpoint
    // is by its root only.
    for (StringRef owner = outer; up.empty() && owner.contains('.');) {
      owner = owner.rsplit('.').first;
      VarId o = g.vars.lookup(owner);
      if (o != ~0u && visible(o))
        up.push_back(o);
    }
    if (up.empty())
      return {};
    out.append(up.begin(), up.end());
  }
  return out;
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
        call.getCallee().getLeafReference() != fn.getSymNameAttr() ||
        SymbolTable::lookupNearestSymbolFrom<ir::FuncOp>(
            call, call.getCallee()) != fn)
      continue;
    if (!argumentOf(n))
      return false;
    any = true;
  }
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
