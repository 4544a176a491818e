//===- ControlFlow.cpp - Dominators and loop nesting ----------------------===//

#include "detc/analysis/ControlFlow.h"
#include "detc/analysis/DataflowSolver.h"

#include <functional>

using namespace detc::analysis;

ControlFlow::ControlFlow(const StatementGraph &g) : g(g), entry(g.entry) {
  size_t n = g.numNodes();
  // Post-order from the entry first: the nodes it reaches are a prefix of
  // `order`, ending with the entry.
  std::vector<NodeId> order = postOrder(g);
  idoms.assign(n, kNoNode);
  if (entry != kNoNode)
    computeIdoms(order);
  std::vector<std::vector<NodeId>> children(n);
  for (NodeId v = 0; v < n; ++v)
    if (idoms[v] != kNoNode)
      children[idoms[v]].push_back(v);

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

// Immediate dominators by the iterative algorithm of Cooper, Harvey and
// Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over the reverse
// post-order. boost's Lengauer-Tarjan keeps a std::deque per vertex (~600
// bytes each: 80 MB at the peak of a 100k-line script's analysis); this
// keeps one number per node, and on the statement graphs of structured
// code it settles in two or three sweeps.
void ControlFlow::computeIdoms(llvm::ArrayRef<NodeId> order) {
  size_t reached = 0;
  while (order[reached] != entry)
    ++reached;
  ++reached; // the entry is the last node the walk from it finishes
  std::vector<unsigned> number(g.numNodes(), ~0u); // post-order number
  for (unsigned i = 0; i < reached; ++i)
    number[order[i]] = i;
  std::vector<NodeId> idom(g.numNodes(), kNoNode);
  idom[entry] = entry;
  auto intersect = [&](NodeId a, NodeId b) {
    while (a != b) {
      while (number[a] < number[b])
        a = idom[a];
      while (number[b] < number[a])
        b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = reached - 1; i-- > 0;) { // reverse post-order
      NodeId b = order[i];
      NodeId best = kNoNode;
      for (NodeId p : g.predecessors(b))
        if (idom[p] != kNoNode) // reached, and seen in this sweep or before
          best = best == kNoNode ? p : intersect(p, best);
      if (best != idom[b]) {
        idom[b] = best;
        changed = true;
      }
    }
  }
  for (unsigned i = 0; i + 1 < reached; ++i)
    idoms[order[i]] = idom[order[i]];
}
