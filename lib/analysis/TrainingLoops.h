//===- TrainingLoops.h - Which loops train a model --------------*- C++ -*-===//
//
// The loops (their header nodes) whose iterations run a backward: the
// training loops, as the lints and the findings' call paths see them. A
// gradient taken with `torch.autograd.grad` counts only in a loop that
// also steps an optimizer: alone it is most often a gradient with respect
// to the input (an adversarial attack in a validation loop, with the model
// in evaluation mode on purpose: fast_adversarial's validate_pgd), not a
// training step.
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
    llvm::DenseSet<NodeId> inputGradients, updates;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      if (g.node(n).kind == NodeKind::CallEnter)
        continue;
      if (llvm::isa_and_nonnull<ir::UpdateOp>(g.node(n).op))
        updates.insert(g.loops(n).begin(), g.loops(n).end());
      auto grad = llvm::dyn_cast_or_null<ir::GradOp>(g.node(n).op);
      if (!grad)
        continue;
      auto &into = grad.getApi() == "torch.autograd.grad" ? inputGradients
                                                          : headers;
      into.insert(g.loops(n).begin(), g.loops(n).end());
    }
    for (NodeId loop : inputGradients)
      if (updates.contains(loop))
        headers.insert(loop);
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
