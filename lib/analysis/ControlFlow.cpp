//===- ControlFlow.cpp - Dominators and loop nesting ----------------------===//

#include "detc/analysis/ControlFlow.h"
#include "detc/analysis/DataflowSolver.h"

#include <boost/graph/dominator_tree.hpp>

#include <functional>

using namespace detc::analysis;

ControlFlow::ControlFlow(const StatementGraph &g) : g(g), entry(g.entry) {
  size_t n = g.numNodes();
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  const Vertex none = boost::graph_traits<Graph>::null_vertex();
  std::vector<Vertex> dom(n, none);
  if (entry != kNoNode)
    boost::lengauer_tarjan_dominator_tree(
        g.graph, entry,
        boost::make_iterator_property_map(
            dom.begin(), boost::get(boost::vertex_index, g.graph)));
  idoms.assign(n, kNoNode);
  std::vector<std::vector<NodeId>> children(n);
  for (NodeId v = 0; v < n; ++v)
    if (dom[v] != none) {
      idoms[v] = dom[v];
      children[dom[v]].push_back(v);
    }

  // Pre/post numbering of the dominator tree (iteratively: the tree is as
  // deep as the program is long).
  pre.assign(n, 0);
  post.assign(n, 0);
  unsigned clock = 1;
  if (entry != kNoNode) {
    std::vector<std::pair<NodeId, size_t>> stack{{entry, 0}};
    pre[entry] = clock++;
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      if (next < children[v].size()) {
        NodeId c = children[v][next++];
        pre[c] = clock++;
        stack.push_back({c, 0});
        continue;
      }
      post[v] = clock++;
      stack.pop_back();
    }
  }

  // Reverse post-order (reachable nodes first, then the others).
  rpo.assign(n, ~0u);
  std::vector<NodeId> order = postOrder(g);
  for (unsigned i = 0; i < order.size(); ++i)
    rpo[order[order.size() - 1 - i]] = i;

  // Natural loops, one per header (all its back edges). Bodies are node
  // lists, not bit sets: a program with a loop per training stage has as
  // many loops as it has lines / 15.
  for (NodeId v = 0; v < n; ++v)
    for (NodeId s : g.successors(v))
      if (isBackEdge(v, s)) {
        auto [it, added] = loopOf.try_emplace(s, loopList.size());
        if (added) {
          loopList.emplace_back();
          loopList.back().header = s;
        }
        loopList[it->second].latches.push_back(v);
      }
  llvm::BitVector inBody(n);
  for (NaturalLoop &loop : loopList) {
    loop.body.push_back(loop.header);
    inBody.set(loop.header);
    std::vector<NodeId> work;
    for (NodeId l : loop.latches)
      if (!inBody.test(l)) {
        inBody.set(l);
        loop.body.push_back(l);
        work.push_back(l);
      }
    while (!work.empty()) {
      NodeId v = work.back();
      work.pop_back();
      for (NodeId p : g.predecessors(v))
        if (reachable(p) && !inBody.test(p)) {
          inBody.set(p);
          loop.body.push_back(p);
          work.push_back(p);
        }
    }
    for (NodeId b : loop.body)
      inBody.reset(b);
    llvm::sort(loop.body);
  }
  // Nesting: visiting loops from the smallest, each node's first loop is
  // its innermost one, and a loop's parent is the first larger loop whose
  // body holds its header.
  std::vector<unsigned> bySize(loopList.size());
  for (unsigned i = 0; i < bySize.size(); ++i)
    bySize[i] = i;
  llvm::stable_sort(bySize, [&](unsigned a, unsigned b) {
    return loopList[a].body.size() < loopList[b].body.size();
  });
  innermost.assign(n, ~0u);
  std::vector<char> done(loopList.size(), 0);
  for (unsigned i : bySize) {
    for (NodeId v : loopList[i].body) {
      if (innermost[v] == ~0u)
        innermost[v] = i;
      auto it = loopOf.find(v);
      if (it != loopOf.end() && it->second != i && done[it->second] &&
          loopList[it->second].parent == ~0u)
        loopList[it->second].parent = i;
    }
    done[i] = 1;
  }
  // Depths, outermost first.
  for (auto it = bySize.rbegin(); it != bySize.rend(); ++it) {
    NaturalLoop &loop = loopList[*it];
    loop.depth = loop.parent == ~0u ? 1 : loopList[loop.parent].depth + 1;
  }
}

bool ControlFlow::dominates(NodeId a, NodeId b) const {
  if (!reachable(a) || !reachable(b))
    return false;
  return pre[a] <= pre[b] && post[b] <= post[a];
}

/// Program-order search from `from`: forward edges, and for a back edge the
/// exits of the loop it closes (which may themselves close an outer
/// iteration). `admit(n)` filters the nodes explored; `stop(n)` ends the
/// search early.
template <typename AdmitFn, typename StopFn>
static void programOrderSearch(const StatementGraph &g, const ControlFlow &cf,
                               NodeId from, llvm::BitVector &seen,
                               AdmitFn admit, StopFn stop) {
  std::vector<NodeId> work{from};
  seen.set(from);
  bool done = false;
  auto visit = [&](NodeId s) {
    if (seen.test(s) || !admit(s))
      return;
    seen.set(s);
    work.push_back(s);
    done |= stop(s);
  };
  std::function<void(NodeId, NodeId)> follow = [&](NodeId v, NodeId s) {
    if (!cf.isBackEdge(v, s)) {
      visit(s);
      return;
    }
    unsigned loop = cf.loopHeadedBy(s);
    for (NodeId exit : g.successors(s))
      if (!cf.inLoop(loop, exit))
        follow(s, exit);
  };
  while (!work.empty() && !done) {
    NodeId v = work.back();
    work.pop_back();
    for (NodeId s : g.successors(v))
      follow(v, s);
  }
}

llvm::BitVector ControlFlow::forwardReachable(NodeId from) const {
  llvm::BitVector seen(g.numNodes());
  programOrderSearch(
      g, *this, from, seen, [](NodeId) { return true; },
      [](NodeId) { return false; });
  return seen;
}

bool ControlFlow::followsInProgramOrder(NodeId from, NodeId to) const {
  if (!reachable(from) || !reachable(to) || rpo[to] <= rpo[from])
    return false;
  llvm::BitVector seen(g.numNodes());
  programOrderSearch(
      g, *this, from, seen,
      [&](NodeId n) { return reachable(n) && rpo[n] <= rpo[to]; },
      [&](NodeId n) { return n == to; });
  return seen.test(to);
}
