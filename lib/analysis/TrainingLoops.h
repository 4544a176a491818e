//===- TrainingLoops.h - Which loops train a model --------------*- C++ -*-===//
//
// The loops (their header nodes) whose iterations run a backward, up to
// the innermost loop over batches around it (the epoch loop around that one
// is no training loop: a forward in its own body is no training step): the
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
      // The loops around it up to the innermost loop over batches: an
      // epoch loop around the batch loop runs the backward only in that
      // nested loop, and a forward directly in its body (real-nvp's
      // `sample(net, ...)` after the validation, each epoch) is no training
      // forward. Loops inside the batch loop (BigGAN's discriminator steps,
      // gradient accumulation) and a loop over no loader (full-batch
      // training) count.
      auto &into = grad.getApi() == "torch.autograd.grad" ? inputGradients
                                                          : headers;
      const IdList &loops = g.loops(n);
      for (size_t i = loops.size(); i-- > 0;) {
        into.insert(loops[i]);
        if (ir::takesBatches(g.node(loops[i]).op))
          break;
      }
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
