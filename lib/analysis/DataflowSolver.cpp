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

DataGraph DataGraph::build(
    size_t numNodes,
    llvm::function_ref<void(NodeId, llvm::function_ref<void(NodeId)>)> inputsOf,
    std::vector<NodeId> order) {
  DataGraph dg;
  dg.order = std::move(order);
  dg.inputOffset.reserve(numNodes + 1);
  for (NodeId n = 0; n < numNodes; ++n) {
    dg.inputOffset.push_back(dg.inputList.size());
    inputsOf(n, [&](NodeId p) { dg.inputList.push_back(p); });
  }
  dg.inputOffset.push_back(dg.inputList.size());
  // Dependents by counting sort over the inputs, each node's in the order
  // its edges were given.
  dg.dependentOffset.assign(numNodes + 1, 0);
  for (NodeId p : dg.inputList)
    ++dg.dependentOffset[p + 1];
  for (size_t i = 0; i < numNodes; ++i)
    dg.dependentOffset[i + 1] += dg.dependentOffset[i];
  dg.dependentList.resize(dg.inputList.size());
  std::vector<unsigned> fill(dg.dependentOffset.begin(),
                             dg.dependentOffset.end() - 1);
  for (NodeId n = 0; n < numNodes; ++n)
    for (NodeId p : dg.inputs(n))
      dg.dependentList[fill[p]++] = n;
  return dg;
}

/// The graph whose inputs are `g`'s predecessors (forward) or successors,
/// keeping only edges between nodes `within` holds.
static DataGraph restricted(const StatementGraph &g,
                            const llvm::BitVector *within, bool forward,
                            std::vector<NodeId> order) {
  auto in = [&](NodeId n) { return !within || within->test(n); };
  return DataGraph::build(
      g.numNodes(),
      [&](NodeId n, llvm::function_ref<void(NodeId)> add) {
        if (!in(n))
          return;
        for (NodeId m : forward ? g.predecessors(n) : g.successors(n))
          if (in(m))
            add(m);
      },
      std::move(order));
}

DataGraph detc::analysis::forwardDataGraph(const StatementGraph &g,
                                           const llvm::BitVector *within) {
  std::vector<NodeId> order = postOrder(g);
  std::reverse(order.begin(), order.end());
  return restricted(g, within, /*forward=*/true, std::move(order));
}

DataGraph detc::analysis::backwardDataGraph(const StatementGraph &g,
                                            const llvm::BitVector *within) {
  std::vector<NodeId> order;
  for (NodeId n : postOrder(g))
    if (!within || within->test(n))
      order.push_back(n);
  return restricted(g, within, /*forward=*/false, std::move(order));
}

Chains::Chains(const DataGraph &dg) : chain(dg.size(), kNone) {
  size_t n = dg.size();
  std::vector<char> inOrder(n, 0);
  for (NodeId v : dg.order)
    inOrder[v] = 1;
  // n continues the chain of its only input p when p feeds only n.
  auto interior = [&](NodeId v) {
    if (!inOrder[v] || dg.inputs(v).size() != 1)
      return false;
    NodeId p = dg.inputs(v)[0];
    return p != v && inOrder[p] && dg.dependents(p).size() == 1;
  };
  std::vector<char> isInterior(n, 0);
  for (NodeId v : dg.order)
    isInterior[v] = interior(v);
  nodes.reserve(dg.order.size());
  start.reserve(dg.order.size() / 4 + 2);
  auto grow = [&](NodeId head) {
    unsigned c = start.size();
    start.push_back(nodes.size());
    for (NodeId v = head;;) {
      chain[v] = c;
      nodes.push_back(v);
      if (dg.dependents(v).size() != 1)
        break;
      NodeId d = dg.dependents(v)[0];
      if (!isInterior[d] || chain[d] != kNone)
        break;
      v = d;
    }
  };
  for (NodeId v : dg.order)
    if (!isInterior[v])
      grow(v);
  // A cycle of interior nodes has no head (nothing outside enters it):
  // start its chain anywhere.
  for (NodeId v : dg.order)
    if (chain[v] == kNone)
      grow(v);
  start.push_back(nodes.size());
}
