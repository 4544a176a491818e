//===- ControlFlow.cpp - Dominators and loop nesting ----------------------===//

#include "detc/analysis/ControlFlow.h"

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

  // Natural loops, one per header (all its back edges).
  for (NodeId v = 0; v < n; ++v)
    for (NodeId s : g.successors(v))
      if (isBackEdge(v, s)) {
        auto [it, added] = loopOf.try_emplace(s, loopList.size());
        if (added) {
          loopList.emplace_back();
          loopList.back().header = s;
          loopList.back().body.resize(n);
          loopList.back().body.set(s);
        }
        loopList[it->second].latches.push_back(v);
      }
  for (NaturalLoop &loop : loopList) {
    std::vector<NodeId> work;
    for (NodeId l : loop.latches)
      if (!loop.body.test(l)) {
        loop.body.set(l);
        work.push_back(l);
      }
    while (!work.empty()) {
      NodeId v = work.back();
      work.pop_back();
      for (NodeId p : g.predecessors(v))
        if (reachable(p) && !loop.body.test(p)) {
          loop.body.set(p);
          work.push_back(p);
        }
    }
  }
  // Nesting: visiting loops from the smallest, each node's first loop is
  // its innermost one, and a loop's parent is the innermost loop of its
  // header among the larger ones.
  std::vector<unsigned> bySize(loopList.size()), size(loopList.size());
  for (unsigned i = 0; i < bySize.size(); ++i) {
    bySize[i] = i;
    size[i] = loopList[i].body.count();
  }
  llvm::stable_sort(bySize,
                    [&](unsigned a, unsigned b) { return size[a] < size[b]; });
  innermost.assign(n, ~0u);
  std::vector<char> done(loopList.size(), 0);
  for (unsigned i : bySize) {
    for (int v = loopList[i].body.find_first(); v != -1;
         v = loopList[i].body.find_next(v)) {
      if (innermost[v] == ~0u)
        innermost[v] = i;
      // A smaller loop's header inside this body: this is its parent
      // unless a smaller enclosing loop came first.
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

llvm::BitVector ControlFlow::forwardReachable(NodeId from) const {
  llvm::BitVector seen(g.numNodes());
  std::vector<NodeId> work{from};
  seen.set(from);
  auto visit = [&](NodeId s) {
    if (!seen.test(s)) {
      seen.set(s);
      work.push_back(s);
    }
  };
  // The end of an iteration: what follows in program order is the loop's
  // exit through its header (which may itself end an outer iteration), not
  // the next iteration.
  std::function<void(NodeId, NodeId)> follow = [&](NodeId v, NodeId s) {
    if (!isBackEdge(v, s)) {
      visit(s);
      return;
    }
    const NaturalLoop &loop = loopList[loopOf.lookup(s)];
    for (NodeId exit : g.successors(s))
      if (!loop.body.test(exit))
        follow(s, exit);
  };
  while (!work.empty()) {
    NodeId v = work.back();
    work.pop_back();
    for (NodeId s : g.successors(v))
      follow(v, s);
  }
  return seen;
}
