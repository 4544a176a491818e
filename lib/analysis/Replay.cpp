//===- Replay.cpp - Liveness and Analysis B (Needed) ----------------------===//

#include "detc/analysis/Replay.h"

#include "RestoredAliases.h"

#include "detc/ir/DetcOps.h"

#include "llvm/ADT/MapVector.h"

#include <functional>
#include <memory>
#include <optional>

using namespace detc;
using namespace detc::analysis;
using llvm::ArrayRef;
using llvm::BitVector;
using llvm::isa;
using llvm::SmallVector;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Effects of a node
//===----------------------------------------------------------------------===//

static bool isPassThrough(NodeKind k) {
  switch (k) {
  case NodeKind::Entry:
  case NodeKind::Exit:
  case NodeKind::ParBegin:
  case NodeKind::ParEnd:
  case NodeKind::Join:
  case NodeKind::FuncExit:
  case NodeKind::CallEnter:
  case NodeKind::Hint:
  case NodeKind::Checkpoint:
    return true;
  default:
    return false;
  }
}

NodeEffects detc::analysis::nodeEffects(const StatementGraph &g,
                                        const GeneratorAliases &gens,
                                        const ReplayVars &ids, NodeId n) {
  NodeEffects e;
  const Node &node = g.node(n);
  const VarTable &vars = g.vars;
  auto add = [](SmallVector<unsigned, 4> &to, unsigned v) {
    if (!llvm::is_contained(to, v))
      to.push_back(v);
  };
  // Reading `a.b` reads the object `a`; writing `a.b` updates it.
  auto read = [&](VarId v) {
    add(e.reads, v);
    if (vars.objectOf(v) != v)
      add(e.reads, vars.objectOf(v));
  };
  auto write = [&](VarId v) {
    add(e.lhs, v);
    if (vars.objectOf(v) != v) {
      add(e.lhs, vars.objectOf(v));
      add(e.reads, vars.objectOf(v));
    }
  };
  for (VarId v : node.uses)
    read(v);
  for (VarId v : node.updates) {
    read(v);
    write(v);
  }
  for (VarId v : node.defs)
    write(v);
  if (node.kind == NodeKind::Draw) {
    read(node.genVar);
    bool stateless = n < ids.keyed.size() && ids.keyed.test(n);
    for (unsigned o : gens.drawn(n)) {
      if (stateless) {
        add(e.reads, ids.seed(o));
        continue;
      }
      add(e.reads, ids.generator(o));
      add(e.lhs, ids.generator(o));
    }
  }
  if (node.kind == NodeKind::Create)
    for (unsigned o : gens.created(n))
      for (unsigned id : {ids.generator(o), ids.seed(o)}) {
        add(e.lhs, id);
        add(e.kills, id);
      }
  // A call starts a fresh frame: the callee's locals hold nothing from an
  // earlier run of the same expansion (a loop around the call). A local
  // read before it is bound (YOLOv3's `except: print(img_path)` when
  // computing img_path raised) is unbound there, not the last call's value
  // that a checkpoint before the call would have to save.
  if (node.kind == NodeKind::CallEnter)
    if (auto it = g.enteredAt.find(n); it != g.enteredAt.end())
      for (VarId v : vars.localsOf(g.instances[it->second].qualifier))
        if (!llvm::is_contained(e.reads, v) && !llvm::is_contained(e.lhs, v))
          add(e.kills, v);
  // A variable defined without being read is new, with all its attributes.
  for (VarId d : node.defs) {
    if (llvm::is_contained(e.reads, d))
      continue;
    add(e.kills, d);
    for (VarId a : vars.attributesOf(d))
      if (!llvm::is_contained(e.reads, a)) {
        add(e.kills, a);
        add(e.lhs, a);
      }
  }
  return e;
}

bool detc::analysis::isJump(const StatementGraph &g, NodeId n) {
  return g.node(n).op && isa<ir::BreakOp, ir::ContinueOp>(g.node(n).op);
}

NodeEffects detc::analysis::replayEffects(const StatementGraph &g,
                                          const GeneratorAliases &gens,
                                          const ReplayVars &ids, NodeId n) {
  if (isPassThrough(g.node(n).kind))
    return {};
  return nodeEffects(g, gens, ids, n);
}

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

namespace {
/// A set of ids with the sum of its members' hashes kept as members come
/// and go: interning the live sets of a large program (cifar100's
/// train.py: 146k nodes, 35k sets of ~1,500 variables) hashed each from
/// scratch, most of liveness's time. Copies share their members until one
/// changes (copy on write): the solver keeps one set per chain, most
/// chains are one or two nodes long in the backward graph, and most nodes
/// leave the set as they found it, so a chain's set is most often its
/// successor's (YOLOX: 200k chains, 80k distinct sets; timm's train.py
/// peaked at 7.8 GB with a copy each).
class HashedSet {
public:
  const VarSet &members() const { return data ? data->members : none(); }
  uint64_t hash() const { return data ? data->hash : 0; }

  void set(unsigned v) {
    if (members().test(v))
      return;
    own().members.set(v);
    data->hash += InternedSets::hashOf(v);
  }
  void reset(unsigned v) {
    if (!members().test(v))
      return;
    own().members.reset(v);
    data->hash -= InternedSets::hashOf(v);
  }
  void unite(const HashedSet &o) {
    if (!o.data || o.data == data)
      return;
    if (!data || data->members.empty()) {
      data = o.data;
      return;
    }
    VarSet added = o.data->members;
    added.intersectWithComplement(data->members);
    if (added.empty())
      return;
    Data &d = own();
    for (unsigned v : added)
      d.hash += InternedSets::hashOf(v);
    d.members |= added;
  }
  bool operator==(const HashedSet &o) const {
    return data == o.data || (hash() == o.hash() && members() == o.members());
  }
  bool operator!=(const HashedSet &o) const { return !(*this == o); }

private:
  struct Data {
    VarSet members;
    uint64_t hash = 0;
  };
  std::shared_ptr<Data> data;

  static const VarSet &none() {
    static const VarSet empty;
    return empty;
  }
  /// The members, this set's own to change.
  Data &own() {
    if (!data)
      data = std::make_shared<Data>();
    else if (data.use_count() > 1)
      data = std::make_shared<Data>(*data);
    return *data;
  }
};

/// Taint's state: the tainted ids, and the live set (InternedSets id)
/// they were last filtered by.
struct TaintSet {
  static constexpr unsigned kUnfiltered = ~0u;
  VarSet members;
  unsigned filteredBy = kUnfiltered;
  bool operator==(const TaintSet &o) const { return members == o.members; }
  bool operator!=(const TaintSet &o) const { return !(*this == o); }
};
} // namespace

/// Backward liveness over `effects`, of the ids `tracked` accepts.
template <typename TrackedFn>
static auto solveLiveness(const DataGraph &dg, const EffectsTable &effects,
                          TrackedFn tracked) {
  return solveDataflow<HashedSet>(
      dg, HashedSet(), [](NodeId, HashedSet &) {},
      [](HashedSet &acc, const HashedSet &o) { acc.unite(o); },
      // In place: live after n becomes live before it.
      [&effects, tracked](NodeId n, HashedSet &live) {
        for (unsigned k : effects[n].kills)
          live.reset(k);
        for (unsigned r : effects[n].reads)
          if (tracked(r))
            live.set(r);
      });
}

/// Live after each node (the backward problem's `in`), interned.
template <typename TrackedFn>
static InternedSets liveAfter(const StatementGraph &g,
                              const EffectsTable &effects, TrackedFn tracked) {
  DataGraph dg = backwardDataGraph(g);
  InternedSets sets(g.numNodes());
  // Most nodes leave the live set as they found it: a set equal to the
  // last one interned (its hash, then its elements compared) is that one.
  HashedSet last;
  solveLiveness(dg, effects, tracked)
      .forEach([&](NodeId n, const HashedSet &after) {
        if (after == last) {
          sets.assignLast(n);
          return;
        }
        sets.assign(n, after.members(), after.hash());
        last = after;
      });
  sets.finish();
  return sets;
}

InternedSets::InternedSets(size_t numNodes) {
  // Set 0 is the empty set.
  starts.push_back(0);
  index.assign(numNodes, 0);
  firstByHash[hashOf(VarSet())] = 0;
  nextSameHash.push_back(~0u);
}

InternedSets::InternedSets(std::vector<VarSet> perNode)
    : InternedSets(perNode.size()) {
  for (NodeId n = 0; n < perNode.size(); ++n)
    assign(n, perNode[n]);
  finish();
}

uint64_t InternedSets::hashOf(const VarSet &set) {
  uint64_t h = 0;
  for (unsigned v : set)
    h += hashOf(v);
  return h;
}

void InternedSets::assign(NodeId n, const VarSet &set) {
  // Most often the set assigned last (straight-line code).
  if (holds(last, set)) {
    index[n] = last;
    return;
  }
  assign(n, set, hashOf(set));
}

void InternedSets::assign(NodeId n, const VarSet &set, uint64_t hash) {
  auto [it, inserted] = firstByHash.try_emplace(hash, ~0u);
  unsigned found = ~0u, tail = ~0u;
  for (unsigned d = it->second; d != ~0u; d = nextSameHash[d]) {
    if (holds(d, set)) {
      found = d;
      break;
    }
    tail = d;
  }
  if (found == ~0u) {
    found = numDistinct();
    (tail == ~0u ? it->second : nextSameHash[tail]) = found;
    nextSameHash.push_back(~0u);
    for (unsigned v : set)
      building.push_back(v);
    starts.push_back(building.size());
  }
  index[n] = last = found;
}

void InternedSets::finish() {
  decltype(firstByHash)().swap(firstByHash);
  std::vector<unsigned>().swap(nextSameHash);
  items.assign(building.begin(), building.end());
  std::deque<unsigned>().swap(building);
  // To an exact fit (shrink_to_fit does nothing without exceptions).
  std::vector<unsigned>(starts.begin(), starts.end()).swap(starts);
}

EffectsTable::EffectsTable(const StatementGraph &g,
                           llvm::function_ref<NodeEffects(NodeId)> effectsOf) {
  offsets.reserve(3 * g.numNodes() + 1);
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    NodeEffects e = effectsOf(n);
    for (const auto *list : {&e.kills, &e.lhs, &e.reads}) {
      offsets.push_back(items.size());
      items.insert(items.end(), list->begin(), list->end());
    }
  }
  offsets.push_back(items.size());
  // To an exact fit (shrink_to_fit does nothing without exceptions).
  std::vector<unsigned>(items.begin(), items.end()).swap(items);
}

Liveness detc::analysis::computeLiveness(const StatementGraph &g,
                                         const GeneratorAliases &gens) {
  ReplayVars ids;
  ids.numVars = g.vars.size();
  ids.numObjects = gens.objects().size();
  EffectsTable effects(g,
                       [&](NodeId n) { return nodeEffects(g, gens, ids, n); });
  Liveness l;
  l.after =
      liveAfter(g, effects, [&](unsigned id) { return !ids.isGenerator(id); });
  return l;
}

//===----------------------------------------------------------------------===//
// Needed
//===----------------------------------------------------------------------===//

namespace {
/// The outermost loops around a checkpoint's expansions.
using Nests = llvm::SmallVector<NodeId, 2>;

class NeededSolver {
public:
  NeededSolver(const StatementGraph &g, const GeneratorAliases &gens,
               const Liveness &live, const ReplayVars &ids)
      : g(g), gens(gens), live(live), ids(ids),
        effects(g, [&](NodeId n) { return replayEffects(g, gens, ids, n); }) {
    generatorLiveness();
  }

  /// `keepSolutions`: keep the per-node Needed sets in the result.
  CheckpointReplay run(mlir::Operation *op, ArrayRef<NodeId> instances,
                       bool keepSolutions);

private:
  const StatementGraph &g;
  const GeneratorAliases &gens;
  const Liveness &live;
  const ReplayVars &ids;
  EffectsTable effects;
  /// Generator ids live after each node: a later (stateful or keyed) draw
  /// reads the state or seed.
  InternedSets generatorsLiveAfter;
  /// The generator objects the variables of each interned live set (by
  /// its id) may hold, computed when first asked: the taint filter asks
  /// for each generator member, and a pass over the live set each time
  /// was most of timm's train.py's Needed (43 s, 18 s with this).
  llvm::DenseMap<unsigned, BitVector> heldByLiveSet;
  const BitVector &generatorsHeld(unsigned liveId, IdSetView liveAfter) {
    auto [it, inserted] = heldByLiveSet.try_emplace(liveId);
    if (inserted) {
      it->second.resize(unsigned(gens.objects().size()));
      for (unsigned holder : liveAfter)
        for (unsigned object : gens.pointsTo(holder))
          it->second.set(object);
    }
    return it->second;
  }

  void generatorLiveness();
  BitVector prefixOf(ArrayRef<NodeId> instances);
  /// What the checkpoint restores: the user-saved roots and their
  /// attribute paths, the attribute paths of their other names
  /// (`aliases`: RestoredAliases), generators, the loops' variables.
  VarSet checkedAt(const CheckpointReplay &cp,
                   ArrayRef<std::pair<VarId, VarId>> aliases);
  /// The tainted ids among `seeds` before the instances of L, and for
  /// each tainted id one skipped statement it derives from.
  struct Taint {
    VarSet atL;
    const llvm::DenseMap<unsigned, NodeId> *sources = nullptr;
  };
  Taint taint(const BitVector &prefix, const Nests &nests,
              ArrayRef<NodeId> instances, const VarSet &seeds);
  /// The taint problem solved on one prefix; checkpoints in the same loop
  /// share their prefix (everything that may run before them), so it is
  /// solved once for them (on yolov5's train.py, 1.2 s a checkpoint).
  struct TaintFacts {
    BitVector prefix;
    Nests nests;
    std::unique_ptr<DataGraph> dg;
    /// The tainted ids before a node.
    std::function<VarSet(NodeId)> inAt;
    /// For each tainted id one skipped statement it derives from
    /// (computed when first asked).
    std::function<llvm::DenseMap<unsigned, NodeId>()> findSources;
    std::optional<llvm::DenseMap<unsigned, NodeId>> sources;
  };
  std::vector<std::unique_ptr<TaintFacts>> taintFacts;
  TaintFacts &taintFactsOf(const BitVector &prefix, const Nests &nests);
  /// A `for` or `while` statement's header among a node's loop positions
  /// (CheckpointReplay::loops; not a comprehension's).
  bool isStatementLoop(NodeId loop) const {
    return g.node(loop).op && isa<ir::ForOp, ir::WhileOp>(g.node(loop).op);
  }
  /// The outermost loop around each expansion of a checkpoint (ImageNet's
  /// `main_worker` runs directly and through mp.spawn: two epoch loops);
  /// empty when one expansion is in no loop.
  Nests nestsOf(ArrayRef<NodeId> instances) const {
    Nests nests;
    for (NodeId n : instances) {
      auto outer = llvm::find_if(g.loops(n), [&](NodeId loop) {
        return isStatementLoop(loop);
      });
      if (outer == g.loops(n).end())
        return {};
      if (!llvm::is_contained(nests, *outer))
        nests.push_back(*outer);
    }
    return nests;
  }
  /// Whether node `n` runs inside the loops around the checkpoint (in any
  /// loop, when some expansion of it is in none).
  bool inNest(NodeId n, const Nests &nests) const {
    if (nests.empty())
      return !g.loops(n).empty();
    return llvm::any_of(g.loops(n), [&](NodeId loop) {
      return llvm::is_contained(nests, loop);
    });
  }
  /// Whether fast-forward skips the expensive node `n` (so what it writes
  /// cannot be re-derived) for a checkpoint in `nests`: the rewrite guards
  /// statements in the loops around a checkpoint only, so work before them
  /// (RepDistiller's setup forward `model_s(torch.randn(2, 3, 32, 32))`,
  /// which sizes `opt.s_dim`) runs again as it ran. With no loop around the
  /// checkpoint, every expensive node counts.
  bool skippedWork(NodeId n, const Nests &nests) const {
    return g.node(n).expensive && (nests.empty() || inNest(n, nests));
  }
  bool selected(NodeId n, const VarSet &after, const BitVector &forced) {
    if (forced.test(n))
      return true;
    for (unsigned v : effects[n].lhs)
      if (after.test(v))
        return true;
    return false;
  }
};
} // namespace

void NeededSolver::generatorLiveness() {
  const ReplayVars &ids = this->ids;
  generatorsLiveAfter = liveAfter(
      g, effects, [&ids](unsigned id) { return ids.isGenerator(id); });
}

BitVector NeededSolver::prefixOf(ArrayRef<NodeId> instances) {
  BitVector in(g.numNodes());
  std::vector<NodeId> work(instances.begin(), instances.end());
  for (NodeId n : work)
    in.set(n);
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    for (NodeId p : g.predecessors(n))
      if (!in.test(p)) {
        in.set(p);
        work.push_back(p);
      }
  }
  return in;
}

/// What is restored at L: the user's saved state (and what it reaches),
/// loop positions. Variables holding a generator are set up again by
/// fast-forward with the generator; its state is a Needed id of its own.
VarSet NeededSolver::checkedAt(
    const CheckpointReplay &cp,
    ArrayRef<std::pair<VarId, VarId>> aliases) {
  VarSet checked;
  llvm::SmallVector<StringRef, 4> roots, aliasRoots;
  for (VarId v : cp.userSaved)
    roots.push_back(g.vars.name(v));
  for (auto [alias, root] : aliases)
    aliasRoots.push_back(g.vars.name(alias));
  auto under = [](StringRef name, StringRef r) {
    return name.starts_with(r) && name.size() > r.size() &&
           name[r.size()] == '.';
  };
  for (VarId v = 0; v < g.vars.size(); ++v) {
    StringRef name = g.vars.name(v);
    bool covered = !gens.pointsTo(v).empty();
    for (StringRef r : roots)
      covered |= name == r || under(name, r);
    for (StringRef r : aliasRoots)
      covered |= under(name, r);
    if (covered)
      checked.set(v);
  }
  for (NodeId loop : cp.loops)
    for (VarId v : g.node(loop).defs)
      checked.set(v);
  return checked;
}

/// Forward may-analysis: which values (may) come from skipped work.
NeededSolver::TaintFacts &
NeededSolver::taintFactsOf(const BitVector &prefix, const Nests &nests) {
  for (auto &facts : taintFacts)
    if (facts->nests == nests && facts->prefix == prefix)
      return *facts;
  auto facts = std::make_unique<TaintFacts>();
  facts->prefix = prefix;
  facts->nests = nests;
  facts->dg = std::make_unique<DataGraph>(forwardDataGraph(g, &prefix));
  const DataGraph &dg = *facts->dg;
  auto solution = solveDataflow<TaintSet>(
      dg, TaintSet(), [](NodeId, TaintSet &) {},
      [](TaintSet &acc, const TaintSet &o) {
        acc.members |= o.members;
        acc.filteredBy = TaintSet::kUnfiltered;
      },
      // In place: tainted before n becomes tainted after it.
      [this, nests](NodeId n, TaintSet &s) {
        EffectsTable::View e = effects[n];
        bool tainted = skippedWork(n, nests);
        for (unsigned r : e.reads)
          tainted |= s.members.test(r);
        // Only what may still be read matters: a variable dead after n
        // carries no taint, nor does the state of a generator no live
        // variable holds (library globals excepted: any later library draw
        // reads them). This keeps the sets as small as the live sets
        // instead of growing with every function the program has run.
        IdSetView liveAfter = live.liveAfter(n);
        unsigned liveId = live.after.idOf(n);
        const BitVector *held = nullptr;
        auto keep = [&](unsigned v) {
          if (!ids.isGenerator(v))
            return liveAfter.test(v);
          unsigned object = ids.objectOf(v);
          if (gens.objects()[object].kind == GeneratorObject::Global)
            return true;
          if (!held)
            held = &generatorsHeld(liveId, liveAfter);
          return held->test(object);
        };
        // Every member passed the filter of the live set it was last
        // filtered by (what n adds passes n's): along straight-line code
        // the live set is often the same one, and the filter, a pass over
        // every member, was most of the analysis on large programs.
        // One merge of the two sorted sequences (members, the live set),
        // not a search of the live set per member: on YOLOX, 470k
        // filters of ~750 members against live sets of ~1800.
        if (s.filteredBy != liveId) {
          VarSet kept;
          const unsigned *l = liveAfter.begin(), *lEnd = liveAfter.end();
          for (unsigned v : s.members) {
            while (l != lEnd && *l < v)
              ++l;
            bool isLive = l != lEnd && *l == v;
            if (ids.isGenerator(v) ? keep(v) : isLive)
              kept.set(v);
          }
          s.members = std::move(kept);
          s.filteredBy = liveId;
        }
        for (unsigned k : e.kills)
          s.members.reset(k);
        if (tainted)
          for (unsigned l : e.lhs)
            if (keep(l))
              s.members.set(l);
      });
  auto solved = std::make_shared<decltype(solution)>(std::move(solution));
  facts->inAt = [solved](NodeId n) { return solved->inAt(n).members; };
  facts->findSources = [this, solved, &dg, nests]() {
    // The reads each node takes tainted, then sources by propagation
    // along the program order until nothing changes.
    llvm::DenseMap<NodeId, llvm::SmallVector<unsigned, 1>> taintedReads;
    solved->forEach([&](NodeId n, const TaintSet &in) {
      for (unsigned r : effects[n].reads)
        if (in.members.test(r))
          taintedReads[n].push_back(r);
    });
    llvm::DenseMap<unsigned, NodeId> src;
    for (bool changed = true; changed;) {
      changed = false;
      for (NodeId n : dg.order) {
        EffectsTable::View e = effects[n];
        NodeId from = kNoNode;
        if (skippedWork(n, nests) && g.node(n).op)
          from = n;
        else if (auto it = taintedReads.find(n); it != taintedReads.end())
          for (unsigned r : it->second)
            if (auto s = src.find(r); s != src.end()) {
              from = s->second;
              break;
            }
        if (from == kNoNode)
          continue;
        for (unsigned l : e.lhs)
          changed |= src.try_emplace(l, from).second;
      }
    }
    return src;
  };
  taintFacts.push_back(std::move(facts));
  return *taintFacts.back();
}

NeededSolver::Taint NeededSolver::taint(const BitVector &prefix,
                                        const Nests &nests,
                                        ArrayRef<NodeId> instances,
                                        const VarSet &seeds) {
  TaintFacts &facts = taintFactsOf(prefix, nests);
  Taint t;
  for (NodeId n : instances)
    t.atL |= facts.inAt(n);
  t.atL &= seeds;
  if (t.atL.empty())
    return t;
  if (!facts.sources)
    facts.sources = facts.findSources();
  t.sources = &*facts.sources;
  return t;
}

CheckpointReplay NeededSolver::run(mlir::Operation *op,
                                   ArrayRef<NodeId> instances,
                                   bool keepSolutions) {
  CheckpointReplay cp;
  cp.op = op;
  cp.instances.assign(instances.begin(), instances.end());
  cp.prefix = prefixOf(instances);
  // What the user's checkpoint saves: the same dict in each expansion's
  // namespace (ImageNet's and SimSiam's `main_worker`, run directly and
  // through mp.spawn, saves `model` of both: the second was saved again in
  // the sidecar, the whole model a second time). An expansion saving
  // other names (a helper called with another dict) adds nothing: what it
  // saves is not taken as restored.
  auto namesOf = [&](NodeId n) {
    llvm::SmallVector<std::string, 4> names;
    for (VarId v : g.saved(n))
      names.push_back(g.displayName(v));
    llvm::sort(names);
    return names;
  };
  auto firstNames = namesOf(instances.front());
  for (NodeId n : instances)
    if (n == instances.front() || namesOf(n) == firstNames)
      for (VarId v : g.saved(n))
        if (!llvm::is_contained(cp.userSaved, v))
          cp.userSaved.push_back(v);
  for (NodeId loop : g.loops(instances.front()))
    if (isStatementLoop(loop))
      cp.loops.push_back(loop);

  // Other names of what the user's checkpoint holds (RestoredAliases):
  // their attribute paths are restored with it, as the roots' own are
  // (timm's `optimizer.param_groups`, of the optimizer that its saver's
  // `self.optimizer.state_dict()` loads back, was taken for re-derived).
  std::vector<std::pair<VarId, VarId>> aliases =
      restoredAliases(g, cp.prefix, instances, cp.userSaved);
  VarSet checked = checkedAt(cp, aliases);
  // Seeds: live after L (at any of its expansions), not restored.
  VarSet seeds;
  for (NodeId n : instances) {
    live.liveAfter(n).addTo(seeds);
    generatorsLiveAfter[n].addTo(seeds);
  }
  seeds.intersectWithComplement(checked);

  Nests nests = nestsOf(instances);
  Taint tainted = taint(cp.prefix, nests, instances, seeds);
  const VarSet &bad = tainted.atL;
  if (!bad.empty()) {
    const llvm::DenseMap<unsigned, NodeId> &src = *tainted.sources;
    for (unsigned v : bad) {
      if (ids.isGenerator(v)) {
        unsigned o = ids.objectOf(v);
        if (llvm::none_of(cp.generators,
                          [&](auto &entry) { return entry.first == o; }))
          cp.generators.push_back({o, src.lookup(v)});
      } else
        cp.notRederivable.push_back({v, src.lookup(v)});
    }
    seeds.intersectWithComplement(bad);
  }
  // What detc would save may be another name of what the user's checkpoint
  // holds (ReplayPlan asks, for the roots its restore loads in place).
  if (!cp.notRederivable.empty())
    for (auto pair : aliases)
      cp.restoredAliases.push_back(pair);
  for (unsigned v : seeds)
    cp.fastForwarded.push_back(v);
  cp.seeds = seeds;

  // Solve, then add control dependences of what is re-executed, until
  // nothing new is forced. `logged`: `if` tests on the way to L that
  // fast-forward does not evaluate: it takes the decisions the run logged
  // (CheckpointReplay::logged).
  DataGraph dg = backwardDataGraph(g, &cp.prefix);
  BitVector isInstance(g.numNodes());
  for (NodeId n : instances)
    isInstance.set(n);
  // Loops fast-forward runs whatever Needed selects: those around L, and
  // loops over a loader (they go round on placeholder batches, and the
  // loader's position at L is checked). A `break` in one decides how far
  // the loop goes; a `continue` does not change how many times it goes
  // round.
  BitVector runLoops(g.numNodes()), batchLoops(g.numNodes());
  for (NodeId n : instances)
    for (NodeId loop : g.loops(n))
      runLoops.set(loop);
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (g.node(n).op && isa<ir::FetchOp>(g.node(n).op) && !g.loops(n).empty())
      batchLoops.set(g.loops(n).back());
  auto breaksRunLoop = [&](NodeId jump) {
    NodeId loop = g.loops(jump).back();
    return runLoops.test(loop) ||
           (batchLoops.test(loop) && isa<ir::BreakOp>(g.node(jump).op));
  };
  // A forward, backward or step in the loops around L is the training (or
  // an evaluation): re-run in fast-forward, it would run on placeholder
  // batches, or all over again (nanoGPT's `get_batch`). One before them
  // runs in the setup, as fast-forward runs it anyway (RepDistiller's
  // `model_t(torch.randn(2, 3, 32, 32), is_feat=True)`, sizing the
  // distillation heads, with the loops of the model's own forward): it
  // re-runs on what it ran on. With no loop around L, any loop counts.
  auto inLoop = [&](NodeId n) { return inNest(n, nests); };
  struct Solution {
    std::vector<NodeId> reexecuted, skipped;
    DataflowResult<VarSet> needed;
    /// Forward, backward or optimizer steps re-executed in a loop.
    bool trains = false;
  };
  auto solve = [&](const BitVector &logged) {
    BitVector forced(g.numNodes());
    // The nodes forced since the last solve: only their chains' equations
    // changed, so the next solve starts from them.
    std::vector<NodeId> newlyForced;
    auto forceChain = [&](NodeId n) {
      bool grew = false;
      for (NodeId c = g.node(n).control; c != kNoNode;
           c = g.node(c).control) {
        if (logged.test(c))
          continue; // reached, not evaluated: its controllers still run
        if (forced.test(c))
          break;
        forced.set(c);
        newlyForced.push_back(c);
        grew = true;
      }
      return grew;
    };
    for (NodeId n : instances)
      forceChain(n);
    // A `break` or `continue` decides which statements of its loop run
    // after it: the tests guarding it re-run like those of a re-executed
    // statement (a `break` itself may not reach L: it leaves the loop) —
    // when its loop runs in fast-forward (`breaksRunLoop`), or a statement
    // in it re-runs (its head is then forced) or its variable is needed.
    // A `continue` in a loop of a skipped forward (DINO's loss) re-ran the
    // whole training step.
    BitVector liveLoops(g.numNodes());
    std::vector<NodeId> pendingJumps;
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (isJump(g, n) && g.node(n).control != kNoNode &&
          cp.prefix.test(g.node(n).control) && !g.loops(n).empty())
        pendingJumps.push_back(n);
    auto forceJumpsOfLiveLoops = [&]() {
      bool grew = false;
      llvm::erase_if(pendingJumps, [&](NodeId n) {
        if (!breaksRunLoop(n) && !liveLoops.test(g.loops(n).back()))
          return false;
        grew |= forceChain(n);
        return true;
      });
      return grew;
    };
    forceJumpsOfLiveLoops();
    // In place: needed after n becomes needed before it.
    auto transfer = [&](NodeId n, VarSet &needed) {
      if (isInstance.test(n)) {
        needed |= seeds;
        return;
      }
      EffectsTable::View e = effects[n];
      bool sel = selected(n, needed, forced);
      for (unsigned k : e.kills)
        needed.reset(k);
      if (sel)
        for (unsigned r : e.reads)
          needed.set(r);
    };
    // Forcing more tests only adds to what is needed: each solve starts
    // from the last one's states, at the chains of the tests it forced.
    std::vector<VarSet> start;
    for (;;) {
      std::vector<NodeId> changed = std::move(newlyForced);
      newlyForced.clear();
      bool resumed = !start.empty();
      auto needed = solveDataflow<VarSet>(
          dg, VarSet(), [](NodeId, VarSet &) {},
          [](VarSet &acc, const VarSet &o) { acc |= o; }, transfer,
          std::move(start), resumed ? &changed : nullptr);
      // Statements selected under the current control dependences; forcing
      // their tests may select more, so solve again until nothing grows
      // (every test forced is forced in the least solution: all of it is
      // monotone). When nothing grows, this pass's answer is the result.
      std::vector<NodeId> selectedNodes, skipped;
      needed.forEach([&](NodeId n, const VarSet &after) {
        if (isInstance.test(n))
          return;
        if (selected(n, after, forced))
          selectedNodes.push_back(n);
        else if (g.node(n).expensive && g.node(n).op &&
                 isa<ir::ForwardOp, ir::GradOp, ir::UpdateOp, ir::FetchOp>(
                     g.node(n).op))
          skipped.push_back(n);
      });
      bool grew = false;
      for (NodeId n : selectedNodes) {
        grew |= forceChain(n);
        liveLoops.set(n); // only loop heads are asked about (forced too)
      }
      grew |= forceJumpsOfLiveLoops();
      if (grew) {
        start = needed.takeTails();
        continue;
      }
      Solution sol;
      for (NodeId n : selectedNodes)
        if (mlir::Operation *op = g.node(n).op) {
          sol.reexecuted.push_back(n);
          sol.trains |= g.node(n).expensive &&
                        isa<ir::ForwardOp, ir::GradOp, ir::UpdateOp>(op) &&
                        inLoop(n);
        }
      sol.skipped = std::move(skipped);
      // The solution reads `forced`: materialized while it lives.
      if (keepSolutions)
        sol.needed = needed.materialize();
      return sol;
    }
  };
  BitVector logged(g.numNodes());
  Solution sol = solve(logged);
  // A test on the way to L that only the training decides (pytorch-cifar's
  // `if acc > best_acc:` around its save): evaluating it would re-run the
  // training, which fast-forward skips. The run logs its decisions instead
  // and fast-forward takes them from the sidecar.
  // Only tests that read what skipped work derives (the taint problem's
  // facts) are logged: a test of the epoch number re-runs as before, and a
  // program whose re-executed training has another cause is not solved
  // again (retinanet: a second solve for nothing).
  // The tests that decide a `break` or `continue` of a loop around L
  // decide whether L is reached too (pytorch-cifar100: `if best_acc < acc:
  // save best; continue` before the regular save): they are logged alike.
  // So are those of a `break` of a batch loop (a loss that stops the
  // epoch early: the loader's position at L depends on it). A `continue`
  // of a loop L is not in (a batch loop's `continue` on a NaN loss, the
  // save after that loop) decides nothing about L: not a candidate
  // (retinanet paid a second solve for them).
  if (sol.trains) {
    TaintFacts &facts = taintFactsOf(cp.prefix, nests);
    std::vector<NodeId> decidedFrom(instances.begin(), instances.end());
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      if (!isJump(g, n) || g.node(n).control == kNoNode ||
          !cp.prefix.test(g.node(n).control) || g.loops(n).empty())
        continue;
      if (breaksRunLoop(n))
        decidedFrom.push_back(n);
    }
    for (NodeId n : decidedFrom)
      for (NodeId c = g.node(n).control; c != kNoNode;
           c = g.node(c).control) {
        if (!g.node(c).op || !isa<ir::IfOp>(g.node(c).op))
          continue;
        VarSet tainted = facts.inAt(c);
        if (llvm::any_of(effects[c].reads,
                         [&](unsigned r) { return tainted.test(r); }))
          logged.set(c);
      }
    if (logged.any()) {
      Solution withLog = solve(logged);
      if (!withLog.trains) {
        sol = std::move(withLog);
        for (NodeId c : logged.set_bits())
          cp.logged.push_back(c);
      }
    }
  }
  cp.retrains = sol.trains;
  cp.reexecuted = std::move(sol.reexecuted);
  cp.skipped = std::move(sol.skipped);
  cp.needed = std::move(sol.needed);
  auto byPosition = [](std::vector<NodeId> &v) { llvm::sort(v); };
  byPosition(cp.reexecuted);
  byPosition(cp.skipped);
  return cp;
}

std::string detc::analysis::describeReplayId(unsigned id,
                                            const StatementGraph &g,
                                            const GeneratorAliases &gens,
                                            const ReplayVars &ids) {
  if (!ids.isGenerator(id))
    return g.displayName(id);
  std::string object = gens.objects()[ids.objectOf(id)].describe(g);
  return (ids.isSeed(id) ? "seed of generator " : "generator ") + object;
}

BitVector detc::analysis::keyedDraws(const StatementGraph &g,
                                     const ThreadSafetyResult &ts) {
  BitVector keyed(g.numNodes());
  for (const UnsafeUse &u : ts.unsafe)
    if (!inCountedRegion(g, u))
      keyed.set(u.draw);
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (auto draw = llvm::dyn_cast_or_null<ir::DrawOp>(g.node(n).op))
      if (draw.getApi() &&
          *draw.getApi() == "torch.utils.data.DataLoader.__iter__")
        keyed.set(n);
  return keyed;
}

ReplayResult detc::analysis::analyzeReplay(const StatementGraph &g,
                                           const GeneratorAliases &gens,
                                           const Liveness &live,
                                           BitVector keyed,
                                           bool keepSolutions) {
  ReplayResult r;
  r.ids.numVars = g.vars.size();
  r.ids.numObjects = gens.objects().size();
  r.ids.keyed = std::move(keyed);
  llvm::MapVector<mlir::Operation *, SmallVector<NodeId, 1>> sites;
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (g.node(n).kind == NodeKind::Checkpoint)
      sites[g.node(n).op].push_back(n);
  NeededSolver solver(g, gens, live, r.ids);
  // Reserved: CheckpointReplay's move may throw (SparseBitVector), so a
  // growing vector would copy every lattice.
  r.checkpoints.reserve(sites.size());
  for (auto &[op, nodes] : sites) {
    r.checkpoints.push_back(solver.run(op, nodes, keepSolutions));
  }
  return r;
}
