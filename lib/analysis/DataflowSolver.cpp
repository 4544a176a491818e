//===- DataflowSolver.cpp - Data graphs and visiting orders ---------------===//

#include "detc/analysis/DataflowSolver.h"

using namespace detc::analysis;

std::vector<NodeId> detc::analysis::postOrder(const StatementGraph &g) {
  size_t n = g.numNodes();
  std::vector<NodeId> order;
  order.reserve(n);
  std::vector<char> seen(n, 0);
  std::vector<std::pair<NodeId, llvm::SmallVector<NodeId, 2>>> stack;
  auto visit = [&](NodeId root) {
    seen[root] = 1;
    stack.push_back({root, g.successors(root)});
    while (!stack.empty()) {
      auto &[node, succs] = stack.back();
      if (succs.empty()) {
        order.push_back(node);
        stack.pop_back();
        continue;
      }
      NodeId s = succs.pop_back_val();
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, g.successors(s)});
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
