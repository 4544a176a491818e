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
  // with the same (object, path) share their generators. A path is a node
  // (a variable, or a prefix of one's name no variable has: `loader.dataset
  // .transform` of `loader.dataset.transform.mask_func.rng`), the field
  // `f` of the node its name ends `.f` after.
  std::vector<unsigned> pathParent(numVars, ~0u);
  std::vector<StringRef> pathField(numVars);
  llvm::StringMap<unsigned> prefixNodes;
  auto nodeOf = [&](StringRef name) -> unsigned {
    if (VarId v = g.vars.lookup(name); v != ~0u)
      return v;
    auto [it, added] = prefixNodes.try_emplace(name, pathParent.size());
    if (added) {
      pathParent.push_back(~0u);
      pathField.emplace_back();
    }
    return it->second;
  };
  // Names are `scope/a.b.c`; the scope holds no dots that matter.
  for (VarId v = 0; v < numVars; ++v) {
    StringRef name = g.vars.name(v);
    size_t root = name.find('.', name.find('/') + 1);
    if (g.vars.objectOf(v) == v || root == StringRef::npos)
      continue;
    unsigned child = v;
    for (size_t dot = name.rfind('.'); dot != StringRef::npos && dot >= root;
         dot = dot == root ? StringRef::npos : name.rfind('.', dot)) {
      if (pathParent[child] != ~0u)
        break; // this prefix's own chain is built
      unsigned up = nodeOf(name.take_front(dot));
      pathParent[child] = up;
      pathField[child] = name.slice(dot + 1, name.find('.', dot + 1));
      child = up;
    }
  }
  std::vector<unsigned> parent(pathParent.size());
  for (unsigned v = 0; v < parent.size(); ++v)
    parent[v] = v;
  std::function<unsigned(unsigned)> find = [&](unsigned v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.copy && node.defs.size() == 1 && node.uses.size() == 1)
      parent[find(node.defs[0])] = find(node.uses[0]);
  }
  // The same field of one object is one object: its own fields are the
  // same too (a mask function's `rng`, made where the script made the
  // mask, drawn from in a worker as `loader.dataset.transform.mask_func
  // .rng`). Repeated until no two classes merge (a congruence closure;
  // each round only merges, so it ends).
  auto fieldKey = [&](unsigned n) {
    return std::make_pair(find(pathParent[n]), pathField[n]);
  };
  for (bool merged = true; merged;) {
    merged = false;
    llvm::DenseMap<std::pair<unsigned, StringRef>, unsigned> sameField;
    for (unsigned n = 0; n < pathParent.size(); ++n) {
      if (pathParent[n] == ~0u)
        continue;
      auto [it, added] = sameField.try_emplace(fieldKey(n), n);
      if (!added && find(it->second) != find(n)) {
        parent[find(n)] = find(it->second);
        merged = true;
      }
    }
  }
  // Variables that are the same field of the same object share their
  // generators.
  llvm::DenseMap<std::pair<unsigned, StringRef>, VarId> fieldVar;
  for (VarId v = 0; v < numVars; ++v) {
    if (pathParent[v] == ~0u)
      continue;
    auto [it, added] = fieldVar.try_emplace(fieldKey(v), v);
    if (!added) {
      flowsTo[v].push_back(it->second);
      flowsTo[it->second].push_back(v);
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
