//===- Replay.h - Liveness and Analysis B (Needed) ----------------*- C++ -*-===//
//
// Liveness: backward may-analysis; a variable is live after a node if some
// path reads it before redefining it. Reported at every checkpoint hint
// (what CheckHint must save) and used to seed Needed.
//
// Needed (SPEC §4, the paper's Table 3), per user checkpoint L. Fast-forward
// re-runs the program from the start to the moment L is reached, executing
// only the statements whose left-hand side is needed, then restores the
// user's checkpoint and detc's sidecar. Needed analyses the program as
// `detc transform` leaves it: keyed draws read their generator's seed but
// do not advance its state. So, on the part of the program that can reach
// L:
//  * at (every expansion of) L, what is live after L and not restored is
//    needed: Needed[v@b L] = Needed[v@a L] or (v live after L, v not
//    checked), where checked = saved by the user (with everything their
//    state_dict reaches: `model` covers `model.fc`), loop positions (saved
//    by detc), and values detc must save because they cannot be re-derived
//    (below). A generator's state is live where a later draw reads it;
//  * every other statement follows Table 3: if a variable it writes is
//    needed after it, what it reads is needed before it; a variable it
//    must define and does not read is not needed before it;
//  * a statement re-executed in fast-forward needs the tests of the
//    branches and loops that decide whether it runs (control dependence);
//  * values (and generator states) whose derivation goes through work
//    fast-forward skips (a forward, gradient, optimizer step or batch fetch
//    — found by a forward taint analysis) cannot be re-derived: detc saves
//    them, and says why.
// Deviation from the paper, on purpose: the checkpoint statement restores
// only at the last arrival, so at earlier arrivals (earlier iterations)
// it does not kill the saved variables.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_REPLAY_H
#define DETC_ANALYSIS_REPLAY_H

#include "detc/analysis/DataflowSolver.h"
#include "detc/analysis/Generators.h"
#include "detc/analysis/ThreadSafety.h"

#include "llvm/ADT/SparseBitVector.h"

#include <algorithm>
#include <deque>

namespace detc::analysis {

using VarSet = llvm::SparseBitVector<>;

/// A set of ids read from an InternedSets: sorted, each once.
class IdSetView {
public:
  IdSetView() = default;
  explicit IdSetView(llvm::ArrayRef<unsigned> ids) : ids(ids) {}
  const unsigned *begin() const { return ids.begin(); }
  const unsigned *end() const { return ids.end(); }
  size_t size() const { return ids.size(); }
  bool empty() const { return ids.empty(); }
  bool test(unsigned id) const { return std::binary_search(begin(), end(), id); }
  /// Adds the ids to `set`.
  void addTo(VarSet &set) const {
    for (unsigned id : ids)
      set.set(id);
  }
  bool operator==(const VarSet &set) const { return equals(ids, set); }
  /// Whether the sorted `ids` are the members of `set`.
  /// `ids`: any random-access range of ids.
  template <typename Ids>
  static bool equals(const Ids &ids, const VarSet &set) {
    // (SparseBitVector's iterator is not a standard one: no llvm::equal.)
    size_t i = 0;
    for (unsigned v : set)
      if (i == ids.size() || ids[i++] != v)
        return false;
    return i == ids.size();
  }

private:
  llvm::ArrayRef<unsigned> ids;
};

/// Per node, a set of variables, each distinct set stored once: along a
/// straight line of statements the live set rarely changes, and a set per
/// node is most of an analysis's memory on a large program. The distinct
/// sets are sorted arrays in one pool: a sparse bit vector cost ~100 bytes
/// for the handful of variables a live set holds.
class InternedSets {
public:
  InternedSets() = default;
  /// Takes the per-node sets (one per node, in node order).
  explicit InternedSets(std::vector<VarSet> perNode);
  /// `numNodes` empty sets, to be given node by node with assign() (in any
  /// order), then finish().
  explicit InternedSets(size_t numNodes);
  void assign(NodeId n, const VarSet &set);
  /// The same, with `set`'s hashOf() known.
  void assign(NodeId n, const VarSet &set, uint64_t hash);
  /// n's set is the one assigned last.
  void assignLast(NodeId n) { index[n] = last; }

  /// A set's hash: the sum of its members' (so that it can be kept up to
  /// date as members come and go).
  static uint64_t hashOf(unsigned member) {
    // splitmix64's finalizer.
    uint64_t x = member + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  static uint64_t hashOf(const VarSet &set);
  /// Frees what only assign() needs and the pool's spare capacity.
  void finish();

  IdSetView operator[](NodeId n) const {
    unsigned d = index[n];
    return IdSetView(llvm::ArrayRef<unsigned>(items).slice(
        starts[d], starts[d + 1] - starts[d]));
  }
  size_t numDistinct() const { return starts.size() - 1; }
  /// Which distinct set n has (equal ids, equal sets).
  unsigned idOf(NodeId n) const { return index[n]; }

private:
  /// Distinct set d is items[starts[d] .. starts[d + 1]).
  std::vector<unsigned> items;
  /// The same while sets are assigned: a deque grows without a doubling
  /// vector's second copy (the pool is the largest thing liveness builds);
  /// finish() packs it into `items`.
  std::deque<unsigned> building;
  std::vector<unsigned> starts{0};
  std::vector<unsigned> index;
  /// Distinct sets by a hash of their members, equal hashes compared: the
  /// first set of each hash, then a chain through nextSameHash (~0u ends
  /// it). A small vector per hash took 32 bytes a bucket, twice the
  /// pool's own size while a large program's liveness was interned.
  llvm::DenseMap<uint64_t, unsigned> firstByHash;
  std::vector<unsigned> nextSameHash;
  unsigned last = 0; ///< The set assigned last.
  bool holds(unsigned d, const VarSet &set) const {
    struct Slice {
      const std::deque<unsigned> &pool;
      unsigned begin, end;
      size_t size() const { return end - begin; }
      unsigned operator[](size_t i) const { return pool[begin + i]; }
    };
    return IdSetView::equals(Slice{building, starts[d], starts[d + 1]}, set);
  }
};

struct Liveness {
  /// Live after each node (the backward problem's `in`; its `out`, live
  /// before, nothing asks for).
  InternedSets after;
  IdSetView liveAfter(NodeId n) const { return after[n]; }
};

Liveness computeLiveness(const StatementGraph &g,
                         const GeneratorAliases &gens);

/// The id space of Needed: variables first, then per generator object the
/// state it is in, then the seed it was last seeded with. A stateful draw
/// reads and advances the state; a keyed draw reads only the seed; a seed
/// call defines both.
struct ReplayVars {
  size_t numVars = 0;
  size_t numObjects = 0;
  /// Draw nodes `detc transform` makes stateless (keyed): they read their
  /// generator's recorded seed and leave its state alone. Needed analyses
  /// the transformed program, so these do not advance the state.
  llvm::BitVector keyed;
  unsigned generator(unsigned object) const { return numVars + object; }
  unsigned seed(unsigned object) const {
    return numVars + numObjects + object;
  }
  bool isGenerator(unsigned id) const { return id >= numVars; }
  bool isSeed(unsigned id) const { return id >= numVars + numObjects; }
  unsigned objectOf(unsigned id) const {
    return (id - numVars) % numObjects;
  }
};

/// An id as the reports print it: a variable as the user wrote it, or
/// "generator 'g'" / "seed of generator 'g'".
std::string describeReplayId(unsigned id, const StatementGraph &g,
                             const GeneratorAliases &gens,
                             const ReplayVars &ids);

struct CheckpointReplay {
  mlir::Operation *op = nullptr;
  llvm::SmallVector<NodeId, 1> instances;
  /// The part of the program fast-forward runs: nodes that reach L.
  llvm::BitVector prefix;
  llvm::SmallVector<VarId, 4> userSaved;
  /// Generator objects whose state is needed after L but advanced by
  /// skipped work (a dropout outside any batch region): detc saves the
  /// state, with the skipped statement it comes from. The states of the
  /// other generators are re-derived (or, keyed, never change).
  llvm::SmallVector<std::pair<unsigned, NodeId>, 1> generators;
  llvm::SmallVector<NodeId, 2> loops; ///< Loop positions detc saves.
  /// Variables needed after L but derived through skipped work: detc saves
  /// them, with the skipped statement they come from.
  llvm::SmallVector<std::pair<VarId, NodeId>, 2> notRederivable;
  /// Other names at L of what the user saves (alias, saved variable):
  /// `model` of `model_without_ddp = model` when the checkpoint holds
  /// `model_without_ddp.state_dict()` (RestoredAliases). A restore that
  /// loads the saved object in place restores them too.
  llvm::SmallVector<std::pair<VarId, VarId>, 2> restoredAliases;
  /// Needed after L and re-derived by fast-forward (variables and
  /// generator ids).
  llvm::SmallVector<unsigned, 4> fastForwarded;
  /// What is needed at L itself (Needed[v@b L] beyond what flows through
  /// it): live after L, not restored, re-derivable. The boundary of the
  /// Needed system; the Z3 verifier takes it as given.
  VarSet seeds;
  /// Statements fast-forward re-executes / skips (expensive ones only).
  std::vector<NodeId> reexecuted, skipped;
  /// `if` tests on the way to L that fast-forward does not evaluate: only
  /// re-running the training could (`if acc > best_acc:` around the save).
  /// The run logs their decisions, and fast-forward takes them from the
  /// sidecar. Empty unless evaluating them would re-execute a training
  /// step; only tests that read what skipped work derives are logged.
  std::vector<NodeId> logged;
  /// Fast-forward would run a forward, backward or optimizer step in a loop
  /// again to re-derive what is needed (the training it exists to skip; a
  /// forward outside any loop re-runs): no sidecar can make this
  /// checkpoint a resume point (ReplayPlan refuses it).
  bool retrains = false;
  /// Needed: `in` after each node, `out` before it (ids: ReplayVars).
  DataflowResult<VarSet> needed;
};

struct ReplayResult {
  ReplayVars ids;
  std::vector<CheckpointReplay> checkpoints;
};

/// The draws the transform keys: every unsafe draw (ThreadSafety), and the
/// shuffles of DataLoaders (the keyed sampler's permutation is a function
/// of the seed and the epoch).
llvm::BitVector keyedDraws(const StatementGraph &g,
                           const ThreadSafetyResult &ts);

/// `keepSolutions`: keep each checkpoint's per-node Needed sets
/// (CheckpointReplay::needed) once its summary is computed; only the Z3
/// checks (`--verify`) and the test passes read them.
ReplayResult analyzeReplay(const StatementGraph &g,
                           const GeneratorAliases &gens, const Liveness &live,
                           llvm::BitVector keyed, bool keepSolutions = true);

/// Variables and generator states a node defines anew (`kills`), writes
/// (its left-hand side) and reads, in the Needed id space. Attribute paths
/// follow their object: reading `a.b` reads `a`, writing `a.b` updates
/// `a`, defining `a` defines every `a.b`.
struct NodeEffects {
  llvm::SmallVector<unsigned, 4> kills, lhs, reads;
};
NodeEffects nodeEffects(const StatementGraph &g, const GeneratorAliases &gens,
                        const ReplayVars &ids, NodeId n);
/// A `break` or `continue`: it decides what runs after it, so fast-forward
/// re-runs the tests that guard it.
bool isJump(const StatementGraph &g, NodeId n);

/// nodeEffects, except that statements Table 3 passes through (region
/// markers, checkpoints, hints, call boundaries) have none.
NodeEffects replayEffects(const StatementGraph &g, const GeneratorAliases &gens,
                          const ReplayVars &ids, NodeId n);

/// Every node's effects in three flat arrays (most lists hold zero to two
/// ids: ~20 bytes a node instead of a NodeEffects' 96).
class EffectsTable {
public:
  struct View {
    llvm::ArrayRef<unsigned> kills, lhs, reads;
  };
  /// `effectsOf(n)` for every node of `g`.
  EffectsTable(const StatementGraph &g,
               llvm::function_ref<NodeEffects(NodeId)> effectsOf);
  View operator[](NodeId n) const {
    const unsigned *o = &offsets[3 * n];
    llvm::ArrayRef<unsigned> all(items);
    return {all.slice(o[0], o[1] - o[0]), all.slice(o[1], o[2] - o[1]),
            all.slice(o[2], o[3] - o[2])};
  }

private:
  /// Node n's kills start at offsets[3n], lhs at 3n+1, reads at 3n+2;
  /// the next list's start ends each.
  std::vector<unsigned> offsets;
  std::vector<unsigned> items;
};

} // namespace detc::analysis

#endif // DETC_ANALYSIS_REPLAY_H
