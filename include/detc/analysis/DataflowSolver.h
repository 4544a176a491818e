//===- DataflowSolver.h - The one worklist engine of the analyses -*- C++ -*-===//
//
// Every analysis of detc (ThreadSafe, Needed, liveness, the taint that finds
// values fast-forward cannot re-derive) is a monotone problem over the
// StatementGraph and is solved by this engine: a chaotic-iteration worklist
// over the nodes, visiting them in a given priority order (reverse post-
// order for forward problems, post-order for backward ones).
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
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_DATAFLOWSOLVER_H
#define DETC_ANALYSIS_DATAFLOWSOLVER_H

#include "detc/analysis/StatementGraph.h"

#include "llvm/ADT/BitVector.h"

#include <vector>

namespace detc::analysis {

/// Adjacency lists of the graph a problem is solved on: for each node, the
/// nodes whose `out` feeds its `in` (`inputs`), and the reverse
/// (`dependents`). Problems may rewire (e.g. data_parallel_end reads the
/// state before its data_parallel_begin) or restrict them to a subgraph.
struct DataGraph {
  std::vector<llvm::SmallVector<NodeId, 2>> inputs, dependents;
  /// Visiting priority: nodes in the order the worklist should prefer.
  std::vector<NodeId> order;

  void resize(size_t n) {
    inputs.assign(n, {});
    dependents.assign(n, {});
  }
  void addInput(NodeId node, NodeId input) {
    inputs[node].push_back(input);
    dependents[input].push_back(node);
  }
};

/// Post-order of the nodes reachable from the entry (iterative DFS), then
/// of the unreachable ones.
std::vector<NodeId> postOrder(const StatementGraph &g);

/// Forward data graph: inputs are predecessors, visited in reverse
/// post-order from the entry.
DataGraph forwardDataGraph(const StatementGraph &g);
/// Backward data graph: inputs are successors, visited in post-order.
/// When `within` is given, only nodes with within[n] set take part.
DataGraph backwardDataGraph(const StatementGraph &g,
                            const llvm::BitVector *within = nullptr);

template <typename State> struct DataflowResult {
  std::vector<State> in, out;
};

/// Solves a monotone problem to its fixpoint.
///  - `init`: initial value of every `in`/`out` (top for must problems,
///    bottom for may problems);
///  - `boundary(n, state)`: lets the problem fix the `in` of nodes without
///    inputs (program entry / exit) or add seeds;
///  - `meet(acc, other)`: combines inputs into `acc`;
///  - `transfer(n, in, out)`: computes `out`; returns nothing.
/// Nodes are revisited until no `out` changes.
template <typename State, typename BoundaryFn, typename MeetFn,
          typename TransferFn>
DataflowResult<State> solveDataflow(const DataGraph &dg, const State &init,
                                    BoundaryFn boundary, MeetFn meet,
                                    TransferFn transfer) {
  size_t n = dg.inputs.size();
  DataflowResult<State> r;
  r.in.assign(n, init);
  r.out.assign(n, init);
  std::vector<unsigned> priority(n, ~0u);
  for (unsigned i = 0; i < dg.order.size(); ++i)
    priority[dg.order[i]] = i;
  // Worklist as a bit set over priorities: always take the earliest node.
  llvm::BitVector pending(dg.order.size(), true);
  int next = pending.find_first();
  while (next != -1) {
    pending.reset(next);
    NodeId node = dg.order[next];
    State acc = init;
    bool first = true;
    for (NodeId p : dg.inputs[node]) {
      if (first)
        acc = r.out[p];
      else
        meet(acc, r.out[p]);
      first = false;
    }
    boundary(node, acc);
    r.in[node] = std::move(acc);
    State out = init;
    transfer(node, r.in[node], out);
    if (out != r.out[node]) {
      r.out[node] = std::move(out);
      for (NodeId d : dg.dependents[node])
        if (priority[d] != ~0u)
          pending.set(priority[d]);
    }
    // Continue from the earliest pending node at or after this one, so a
    // loop body is swept in order before its header is revisited.
    int after = pending.find_next(next);
    next = after != -1 ? after : pending.find_first();
  }
  return r;
}

} // namespace detc::analysis

#endif // DETC_ANALYSIS_DATAFLOW_SOLVER_H
