//===- DataflowSolver.cpp - Data graphs and visiting orders ---------------===//

#include "detc/analysis/DataflowSolver.h"

using namespace detc::analysis;

std::vector<NodeId> detc::analysis::postOrder(const StatementGraph &g) {
  size_t n = g.numNodes();
  std::vector<NodeId> order;
  order.reserve(n);
  std::vector<char> seen(n, 0);
  // (node, index of the next successor to look at)
  std::vector<std::pair<NodeId, unsigned>> stack;
  auto visit = [&](NodeId root) {
    seen[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      llvm::ArrayRef<NodeId> succs = g.successors(node);
      if (next == succs.size()) {
        order.push_back(node);
        stack.pop_back();
        continue;
      }
      // Last successor first, as the original visiting order did.
      NodeId s = succs[succs.size() - 1 - next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, 0});
      }
    }
  };
  if (g.entry != kNoNode)
    visit(g.entry);
  for (NodeId i = 0; i < n; ++i)
    if (!seen[i])
      visit(i);
  return order;
}

DataGraph detc::analysis::forwardDataGraph(const StatementGraph &g) {
  DataGraph dg;
  dg.resize(g.numNodes());
  for (NodeId n = 0; n < g.numNodes(); ++n)
    for (NodeId p : g.predecessors(n))
      dg.addInput(n, p);
  dg.order = postOrder(g);
  std::reverse(dg.order.begin(), dg.order.end());
  return dg;
}

DataGraph detc::analysis::backwardDataGraph(const StatementGraph &g,
                                            const llvm::BitVector *within) {
  DataGraph dg;
  dg.resize(g.numNodes());
  auto in = [&](NodeId n) { return !within || within->test(n); };
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    if (!in(n))
      continue;
    for (NodeId s : g.successors(n))
      if (in(s))
        dg.addInput(n, s);
  }
  for (NodeId n : postOrder(g))
    if (in(n))
      dg.order.push_back(n);
  return dg;
}
