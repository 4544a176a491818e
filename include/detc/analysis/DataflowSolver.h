//===- DataflowSolver.h - The one worklist engine of the analyses -*- C++ -*-===//
//
// Every analysis of detc (ThreadSafe, Needed, liveness, the taint that finds
// values fast-forward cannot re-derive) is a monotone problem over the
// StatementGraph and is solved by this engine: a chaotic-iteration worklist
// visiting the graph in a given priority order (reverse post-order for
// forward problems, post-order for backward ones).
//
// Why not MLIR's dataflow framework: the constraint systems of SPEC §2/§4
// are stated on labelled statements with pred/succ, with calls "followed"
// (expanded per call path); the Z3 check encodes exactly those constraints.
// Solving on the same explicit graph keeps one notion of "statement" for
// the solver, the verifier and the reports.
//
// Terminology: for each node, `in` is the side computed from the node's
// inputs (forward: before the statement, from the predecessors; backward:
// after it, from the successors) and `out` the side the transfer function
// computes from `in`.
//
// Memory: states are kept per *chain*, not per node. A chain is a maximal
// path n1 -> n2 -> ... -> nk where each ni (i < k) feeds only n(i+1) and
// n(i+1) reads only ni: straight-line code, which in the expanded program
// is most of it (~12 nodes a chain on the bench's scripts). The solver
// keeps the `out` of each chain's last node; the state at any node is
// recomputed by running the transfer function from its chain's head
// (Solution::forEach, inAt, outAt), and only the Z3 checks and the test
// passes materialize per-node states (Solution::materialize). A per-node
// pair of sparse sets cost a third of the analyses' memory.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_DATAFLOWSOLVER_H
#define DETC_ANALYSIS_DATAFLOWSOLVER_H

#include "detc/analysis/StatementGraph.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <type_traits>
#include <utility>
#include <vector>

namespace detc::analysis {

/// The graph a problem is solved on, as compressed adjacency arrays: for
/// each node, the nodes whose `out` feeds its `in` (`inputs`), and the
/// reverse (`dependents`), each in the order the edges were given.
/// Problems may rewire (e.g. data_parallel_end reads the state before its
/// data_parallel_begin) or restrict them to a subgraph.
class DataGraph {
public:
  /// Calls `inputsOf(n, add)` for every node n < `numNodes`; `add(p)` makes
  /// p an input of n. `order`: the visiting priority; nodes not in it take
  /// no part (their states stay at the initial value).
  static DataGraph
  build(size_t numNodes,
        llvm::function_ref<void(NodeId, llvm::function_ref<void(NodeId)>)>
            inputsOf,
        std::vector<NodeId> order);

  size_t size() const {
    return inputOffset.empty() ? 0 : inputOffset.size() - 1;
  }
  llvm::ArrayRef<NodeId> inputs(NodeId n) const {
    return llvm::ArrayRef<NodeId>(inputList).slice(
        inputOffset[n], inputOffset[n + 1] - inputOffset[n]);
  }
  llvm::ArrayRef<NodeId> dependents(NodeId n) const {
    return llvm::ArrayRef<NodeId>(dependentList)
        .slice(dependentOffset[n], dependentOffset[n + 1] - dependentOffset[n]);
  }

  /// Visiting priority: nodes in the order the worklist should prefer.
  std::vector<NodeId> order;

private:
  std::vector<unsigned> inputOffset, dependentOffset;
  std::vector<NodeId> inputList, dependentList;
};

/// Post-order of the nodes reachable from the entry (iterative DFS), then
/// of the unreachable ones.
std::vector<NodeId> postOrder(const StatementGraph &g);

/// Forward data graph: inputs are predecessors, visited in reverse
/// post-order from the entry. When `within` is given, only edges between
/// nodes with within[n] set are kept (every node stays in the order).
DataGraph forwardDataGraph(const StatementGraph &g,
                           const llvm::BitVector *within = nullptr);
/// Backward data graph: inputs are successors, visited in post-order.
/// When `within` is given, only nodes with within[n] set take part.
DataGraph backwardDataGraph(const StatementGraph &g,
                            const llvm::BitVector *within = nullptr);

/// The chains of a data graph (see the file comment), in the order their
/// heads appear in the graph's visiting order.
struct Chains {
  explicit Chains(const DataGraph &dg);

  static constexpr unsigned kNone = ~0u;
  size_t size() const { return start.size() - 1; }
  /// The nodes of chain c, head first.
  llvm::ArrayRef<NodeId> nodesOf(unsigned c) const {
    return llvm::ArrayRef<NodeId>(nodes).slice(start[c],
                                               start[c + 1] - start[c]);
  }
  NodeId tail(unsigned c) const { return nodes[start[c + 1] - 1]; }
  /// The chain of a node, kNone for nodes outside the visiting order.
  unsigned chainOf(NodeId n) const { return chain[n]; }

private:
  std::vector<NodeId> nodes;   ///< Chain by chain.
  std::vector<unsigned> start; ///< Chain c is nodes[start[c], start[c+1]).
  std::vector<unsigned> chain; ///< By node.
};

/// Per-node states, materialized (the Z3 checks and test passes read them).
template <typename State> struct DataflowResult { std::vector<State> in, out; };

/// The fixpoint of a problem: the `out` of each chain's last node, and
/// the problem's functions to recompute every other state from them. It
/// refers to the data graph and to whatever the functions capture: read
/// it while they live (materialize() to keep the states longer).
///
/// The transfer function is either `transfer(n, in, out)` (computes `out`,
/// given as `init`, from `in`) or `transfer(n, state)` (turns the `in`
/// into the `out` in place). Problems whose state is a large set give the
/// second: along a chain the state is then updated where it is, instead
/// of copied node by node (a sparse set's copy is an allocation per
/// element; on a 146k-node program, most of liveness's time).
template <typename State, typename BoundaryFn, typename MeetFn,
          typename TransferFn>
class Solution {
  static constexpr bool kInPlace =
      std::is_invocable_v<const TransferFn &, NodeId, State &>;

public:
  /// `start`: the chain tails' states to start from (another solution's,
  /// taken with takeTails(), of the same data graph), else `init`.
  /// `changed` (with `start`): the nodes whose transfer or boundary
  /// differs from that solution's problem; only their chains are run
  /// first (the others' equations still hold, until an input changes).
  /// Null: every chain is.
  Solution(const DataGraph &dg, State init, BoundaryFn boundary, MeetFn meet,
           TransferFn transfer, std::vector<State> start = {},
           const std::vector<NodeId> *changed = nullptr)
      : dg(&dg), chains(dg), init(std::move(init)),
        boundary(std::move(boundary)), meet(std::move(meet)),
        transfer(std::move(transfer)) {
    solve(std::move(start), changed);
  }

  /// The chain tails' states, to start a larger problem from (a monotone
  /// problem whose functions only grew: its least fixpoint lies above this
  /// one, so iterating from here reaches it, in fewer sweeps). The
  /// solution is unusable afterwards.
  std::vector<State> takeTails() { return std::move(tailOut); }

  /// Calls fn(n, in) for every node of the visiting order, chain by chain;
  /// each node's state is computed once.
  template <typename Fn> void forEach(Fn fn) const {
    State state = init, scratch = init;
    for (unsigned c = 0; c < chains.size(); ++c)
      runChain(c, state, scratch, [&](NodeId n, const State &in) {
        fn(n, in);
        return true;
      });
  }

  /// The state before / after one node (recomputed along its chain).
  State inAt(NodeId n) const { return at(n).first; }
  State outAt(NodeId n) const { return at(n).second; }

  DataflowResult<State> materialize() const {
    DataflowResult<State> r;
    r.in.assign(dg->size(), init);
    r.out.assign(dg->size(), init);
    State scratch = init;
    forEach([&](NodeId n, const State &in) {
      r.in[n] = in;
      r.out[n] = in;
      apply(n, r.out[n], scratch);
    });
    return r;
  }

private:
  const DataGraph *dg;
  Chains chains;
  State init;
  BoundaryFn boundary;
  MeetFn meet;
  TransferFn transfer;
  /// The `out` of each chain's tail.
  std::vector<State> tailOut;

  /// The `out` of an input: inputs of a chain head are chain tails.
  const State &outOf(NodeId p) const {
    unsigned c = chains.chainOf(p);
    return c == Chains::kNone ? init : tailOut[c];
  }
  /// The `in` of a chain head: the meet of its inputs, then the boundary.
  State entering(NodeId head) const {
    State acc = init;
    bool first = true;
    for (NodeId p : dg->inputs(head)) {
      if (first)
        acc = outOf(p);
      else
        meet(acc, outOf(p));
      first = false;
    }
    boundary(head, acc);
    return acc;
  }
  /// Turns `state`, n's `in`, into n's `out` (`scratch`: room for a
  /// transfer that is not in place).
  void apply(NodeId n, State &state, State &scratch) const {
    if constexpr (kInPlace) {
      transfer(n, state);
    } else {
      scratch = init;
      transfer(n, static_cast<const State &>(state), scratch);
      std::swap(state, scratch);
    }
  }
  /// Runs chain c from its head's inputs: `visit(node, in)` is called with
  /// each node's `in` before its transfer and says whether to go on. When
  /// the whole chain ran, `state` is its tail's `out`.
  template <typename Visit>
  void runChain(unsigned c, State &state, State &scratch, Visit visit) const {
    bool head = true;
    for (NodeId n : chains.nodesOf(c)) {
      if (head)
        state = entering(n);
      else
        boundary(n, state);
      head = false;
      if (!visit(n, static_cast<const State &>(state)))
        return;
      apply(n, state, scratch);
    }
  }
  std::pair<State, State> at(NodeId n) const {
    State in = init, scratch = init;
    if (unsigned c = chains.chainOf(n); c != Chains::kNone)
      runChain(c, in, scratch,
               [n](NodeId m, const State &) { return m != n; });
    State out = in;
    if (chains.chainOf(n) != Chains::kNone)
      apply(n, out, scratch);
    return {std::move(in), std::move(out)};
  }

  void solve(std::vector<State> start, const std::vector<NodeId> *changed) {
    bool resumed = start.size() == chains.size();
    if (resumed)
      tailOut = std::move(start);
    else
      tailOut.assign(chains.size(), init);
    // Worklist as a bit set over chains (in visiting order): always take
    // the earliest pending one.
    llvm::BitVector pending(chains.size(), !(resumed && changed));
    if (resumed && changed)
      for (NodeId n : *changed)
        if (unsigned c = chains.chainOf(n); c != Chains::kNone)
          pending.set(c);
    State state = init, scratch = init;
    int next = pending.find_first();
    while (next != -1) {
      pending.reset(next);
      runChain(next, state, scratch,
               [](NodeId, const State &) { return true; });
      if (state != tailOut[next]) {
        std::swap(tailOut[next], state);
        for (NodeId d : dg->dependents(chains.tail(next))) {
          unsigned dc = chains.chainOf(d);
          if (dc != Chains::kNone)
            pending.set(dc);
        }
      }
      // Continue from the earliest pending chain at or after this one, so
      // a loop body is swept in order before its header is revisited.
      int after = pending.find_next(next);
      next = after != -1 ? after : pending.find_first();
    }
  }
};

/// Solves a monotone problem to its fixpoint.
///  - `init`: initial value of every `in`/`out` (top for must problems,
///    bottom for may problems);
///  - `boundary(n, state)`: lets the problem fix the `in` of nodes without
///    inputs (program entry / exit) or add seeds;
///  - `meet(acc, other)`: combines inputs into `acc`;
///  - `transfer(n, in, out)`: computes `out` (given as `init`); or
///    `transfer(n, state)`: turns `in` into `out` in place.
/// Chains are revisited until no chain's `out` changes.
/// `start`, `changed`: as Solution's.
template <typename State, typename BoundaryFn, typename MeetFn,
          typename TransferFn>
Solution<State, BoundaryFn, MeetFn, TransferFn>
solveDataflow(const DataGraph &dg, const State &init, BoundaryFn boundary,
              MeetFn meet, TransferFn transfer, std::vector<State> start = {},
              const std::vector<NodeId> *changed = nullptr) {
  return Solution<State, BoundaryFn, MeetFn, TransferFn>(
      dg, init, std::move(boundary), std::move(meet), std::move(transfer),
      std::move(start), changed);
}

} // namespace detc::analysis

#endif // DETC_ANALYSIS_DATAFLOW_SOLVER_H
