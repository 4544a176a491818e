//===- ControlFlow.h - Dominators and loop nesting ----------------*- C++
//-*-===//
//
// Structure of the statement graph that reports and codegen need beyond
// pred/succ: the dominator tree (Cooper-Harvey-Kennedy), the back
// edges it identifies (an edge n -> h where h dominates n) and the natural
// loops they close, nested into a forest. Retreating edges whose target
// does not dominate their source (irreducible flow, which detc's lowering
// does not produce) close no loop.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_CONTROLFLOW_H
#define DETC_ANALYSIS_CONTROLFLOW_H

#include "detc/analysis/StatementGraph.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace detc::analysis {

struct NaturalLoop {
  NodeId header;
  std::vector<NodeId> latches; ///< Sources of the back edges.
  std::vector<NodeId> body;    ///< Sorted; includes the header.
  unsigned parent = ~0u;       ///< Enclosing loop, or ~0u.
  unsigned depth = 1;          ///< 1 for an outermost loop.
};

class ControlFlow {
public:
  explicit ControlFlow(const StatementGraph &g);

  /// Immediate dominator (kNoNode for the entry and unreachable nodes).
  NodeId idom(NodeId n) const { return idoms[n]; }
  bool reachable(NodeId n) const { return n == entry || idoms[n] != kNoNode; }
  /// Whether `a` dominates `b` (reflexive); O(1).
  bool dominates(NodeId a, NodeId b) const;
  bool isBackEdge(NodeId from, NodeId to) const {
    return reachable(from) && dominates(to, from);
  }

  const std::vector<NaturalLoop> &loops() const { return loopList; }
  /// The loop whose header is `n`, or ~0u.
  unsigned loopHeadedBy(NodeId n) const {
    auto it = loopOf.find(n);
    return it == loopOf.end() ? ~0u : it->second;
  }
  /// The innermost loop containing `n`, or ~0u.
  unsigned innermostLoop(NodeId n) const { return innermost[n]; }
  /// Whether `n` is in loop `loop` (or a loop nested in it); O(depth).
  bool inLoop(unsigned loop, NodeId n) const {
    for (unsigned l = innermost[n]; l != ~0u; l = loopList[l].parent)
      if (l == loop)
        return true;
    return false;
  }
  unsigned loopDepth(NodeId n) const {
    return innermost[n] == ~0u ? 0 : loopList[innermost[n]].depth;
  }

  /// Nodes after `from` in program order: later in the same iteration or
  /// after the enclosing loops (a back edge leads only to its loop's exits),
  /// never in a later iteration.
  llvm::BitVector forwardReachable(NodeId from) const;
  /// Whether `to` is in forwardReachable(from), exploring only nodes whose
  /// reverse post-order number lies between the two: forward edges always
  /// increase it, so the search stays within that window.
  bool followsInProgramOrder(NodeId from, NodeId to) const;

private:
  /// Fills `idoms` from the post-order `order` (postOrder(g)).
  void computeIdoms(llvm::ArrayRef<NodeId> order);

  const StatementGraph &g;
  NodeId entry;
  std::vector<NodeId> idoms;
  /// Pre/post order numbers in the dominator tree, for dominates().
  std::vector<unsigned> pre, post;
  /// Reverse post-order number of each reachable node (from the entry).
  std::vector<unsigned> rpo;
  std::vector<NaturalLoop> loopList;
  std::vector<unsigned> innermost;
  llvm::DenseMap<NodeId, unsigned> loopOf; ///< By header.
};

} // namespace detc::analysis

#endif // DETC_ANALYSIS_CONTROLFLOW_H
