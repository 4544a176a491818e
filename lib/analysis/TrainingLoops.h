//===- TrainingLoops.h - Which loops train a model --------------*- C++ -*-===//
//
// The loops (their header nodes) whose iterations run a backward: the
// training loops, as the lints and the findings' call paths see them.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_ANALYSIS_TRAININGLOOPS_H
#define DETC_LIB_ANALYSIS_TRAININGLOOPS_H

#include "detc/analysis/StatementGraph.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseSet.h"

namespace detc::analysis {

/// The loops whose iterations run a backward, and whether a node's
/// innermost loop is one: a training loop.
class TrainingLoops {
public:
  explicit TrainingLoops(const StatementGraph &g) : g(g) {
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (llvm::isa_and_nonnull<ir::GradOp>(g.node(n).op) &&
          g.node(n).kind != NodeKind::CallEnter)
        headers.insert(g.loops(n).begin(), g.loops(n).end());
  }
  bool inTraining(NodeId n) const {
    const IdList &loops = g.loops(n);
    return !loops.empty() && headers.contains(loops.back());
  }

private:
  const StatementGraph &g;
  llvm::DenseSet<NodeId> headers;
};

} // namespace detc::analysis

#endif // DETC_LIB_ANALYSIS_TRAININGLOOPS_H
