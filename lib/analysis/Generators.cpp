//===- Generators.cpp - Generator objects and aliasing ---------------------===//

#include "detc/analysis/Generators.h"

#include "detc/ir/DetcOps.h"

#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace detc;
using namespace detc::analysis;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

std::string GeneratorObject::describe(const StatementGraph &g) const {
  if (kind == Global)
    return "'" + std::string(library == "numpy" ? "np.random" : library) +
           "' (global)";
  std::string shown = var != ~0u ? g.displayName(var) : "?";
  // An object the program made without naming it (`DataLoader(D(), ...)`:
  // `$0.rng`): the name the creating statement wrote (`self.rng`).
  if (kind == Site && StringRef(shown).starts_with("$") && site != kNoNode)
    if (mlir::Operation *op = g.node(site).op)
      if (auto defs = ir::detail::getVarList(op, "defs"); !defs.empty())
        shown = llvm::cast<mlir::StringAttr>(defs.front())
                    .getValue()
                    .ltrim('@')
                    .str();
  std::string name = "'" + shown + "'";
  return kind == Unknown ? name + " (not created by the program)" : name;
}

static void addUnique(SmallVector<unsigned, 1> &set, unsigned v) {
  if (!llvm::is_contained(set, v))
    set.push_back(v);
}

GeneratorAliases::GeneratorAliases(const StatementGraph &g) {
  size_t numVars = g.vars.size();
  pts.assign(numVars, {});
  // Copy edges: from -> to.
  std::vector<SmallVector<VarId, 2>> flowsTo(numVars);
  llvm::StringMap<unsigned> globals;
  auto globalObject = [&](StringRef var) {
    StringRef lib = var.drop_front().drop_back(); // "<torch>" -> "torch"
    auto [it, inserted] = globals.try_emplace(lib, objs.size());
    if (inserted) {
      GeneratorObject o;
      o.kind = GeneratorObject::Global;
      o.library = lib.str();
      objs.push_back(o);
    }
    return it->second;
  };
  // A new object created at node n, held by the variable it defines.
  auto newSite = [&](NodeId n) {
    const Node &node = g.node(n);
    GeneratorObject o;
    o.kind = GeneratorObject::Site;
    o.site = n;
    o.var = node.genVar;
    if (auto cg = llvm::dyn_cast_or_null<ir::CreateGeneratorOp>(node.op))
      o.library = cg.getLibrary().str();
    unsigned id = objs.size();
    objs.push_back(o);
    addUnique(pts[node.genVar], id);
    return id;
  };
  std::vector<NodeId> reseeds;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.kind == NodeKind::Create) {
      if (node.global) {
        unsigned o = globalObject(g.vars.name(node.genVar));
        addUnique(pts[node.genVar], o);
        createdBy[n].push_back(o);
      } else if (node.reseed) {
        for (VarId u : node.uses)
          flowsTo[u].push_back(node.genVar);
        reseeds.push_back(n);
      } else {
        createdBy[n].push_back(newSite(n));
      }
      continue;
    }
    if (node.kind == NodeKind::Draw &&
        g.vars.name(node.genVar).starts_with("<"))
      addUnique(pts[node.genVar], globalObject(g.vars.name(node.genVar)));
    if (node.copy && node.defs.size() == 1 && node.uses.size() == 1)
      flowsTo[node.uses[0]].push_back(node.defs[0]);
  }

  // `a = b` makes a and b the same object, so `a.rng` and `b.rng` are the
  // same attribute: unify objects through copies and let attribute paths
  // with the same (object, path) share their generators.
  std::vector<VarId> parent(numVars);
  for (VarId v = 0; v < numVars; ++v)
    parent[v] = v;
  std::function<VarId(VarId)> find = [&](VarId v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.copy && node.defs.size() == 1 && node.uses.size() == 1)
      parent[find(node.defs[0])] = find(node.uses[0]);
  }
  // Every split of `a.b.c` at a dot whose prefix is a variable names it.
  llvm::DenseMap<std::pair<VarId, StringRef>, VarId> sameAttribute;
  for (VarId v = 0; v < numVars; ++v) {
    if (g.vars.objectOf(v) == v)
      continue;
    StringRef name = g.vars.name(v);
    for (size_t dot = name.find('.', name.find('/') + 1);
         dot != StringRef::npos; dot = name.find('.', dot + 1)) {
      VarId prefix = g.vars.lookup(name.take_front(dot));
      if (prefix == ~0u)
        continue;
      auto [it, inserted] =
          sameAttribute.try_emplace({find(prefix), name.drop_front(dot)}, v);
      if (!inserted && it->second != v) {
        flowsTo[v].push_back(it->second);
        flowsTo[it->second].push_back(v);
      }
    }
  }

  auto propagate = [&] {
    std::vector<VarId> work;
    for (VarId v = 0; v < numVars; ++v)
      if (!pts[v].empty())
        work.push_back(v);
    while (!work.empty()) {
      VarId v = work.back();
      work.pop_back();
      for (VarId to : flowsTo[v]) {
        bool grew = false;
        for (unsigned o : pts[v])
          if (!llvm::is_contained(pts[to], o)) {
            pts[to].push_back(o);
            grew = true;
          }
        if (grew)
          work.push_back(to);
      }
    }
  };
  propagate();
  // A reseed whose receiver holds no known generator creates one.
  bool added = false;
  for (NodeId n : reseeds) {
    const Node &node = g.node(n);
    if (!pts[node.genVar].empty())
      continue;
    newSite(n);
    added = true;
  }
  if (added)
    propagate();
  for (NodeId n : reseeds) {
    ArrayRef<unsigned> held = pts[g.node(n).genVar];
    if (held.size() == 1)
      createdBy[n].push_back(held[0]);
  }

  // Name site objects after a variable the program names them by.
  for (VarId v = 0; v < numVars; ++v) {
    if (g.displayName(v).front() == '$')
      continue;
    for (unsigned o : pts[v])
      if (objs[o].kind == GeneratorObject::Site &&
          g.displayName(objs[o].var).front() == '$')
        objs[o].var = v;
  }

  // Draws on a variable nothing put a generator in.
  llvm::DenseMap<VarId, unsigned> unknown;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.kind != NodeKind::Draw)
      continue;
    if (pts[node.genVar].empty()) {
      auto [it, inserted] = unknown.try_emplace(node.genVar, objs.size());
      if (inserted) {
        GeneratorObject o;
        o.kind = GeneratorObject::Unknown;
        o.var = node.genVar;
        objs.push_back(o);
      }
      drawnBy[n].push_back(it->second);
    } else {
      drawnBy[n] = pts[node.genVar];
    }
  }
}

ArrayRef<unsigned> GeneratorAliases::pointsTo(VarId var) const {
  return var < pts.size() ? ArrayRef<unsigned>(pts[var]) : ArrayRef<unsigned>();
}

ArrayRef<unsigned> GeneratorAliases::drawn(NodeId draw) const {
  auto it = drawnBy.find(draw);
  return it == drawnBy.end() ? ArrayRef<unsigned>() : ArrayRef(it->second);
}

ArrayRef<unsigned> GeneratorAliases::created(NodeId create) const {
  auto it = createdBy.find(create);
  return it == createdBy.end() ? ArrayRef<unsigned>() : ArrayRef(it->second);
}
