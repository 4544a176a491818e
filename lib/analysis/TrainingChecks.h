//===- TrainingChecks.h - Silent training errors, statically -*- C++ -*-===//
//
// TrainCheck's static checks (SPEC §9, issue 21) that join the lint
// (Lint.cpp runs them):
//  * detc-eval-not-restored: a training forward (in a loop that runs a
//    backward) may run while its model is in evaluation mode — a
//    `model.eval()` (typically in the validation) reaches it on some path
//    with no `model.train()` after it: dropout and batch-norm updates are
//    off for the rest of training;
//  * detc-rank-conditional-update: an optimizer step, a backward or a
//    gradient clipping under a test of the process's rank in a distributed
//    job: the replicas step with different gradients and drift apart (or
//    the others hang in the all-reduce);
//  * detc-ddp-module-forward: a training forward through `X.module` of a
//    DistributedDataParallel `X`: it bypasses the wrapper, so no gradient
//    is all-reduced and the replicas drift apart;
//  * detc-optimizer-not-on-model: a training loop steps an optimizer built
//    over the parameters of a model none of the loop's forwards runs, so
//    the trained model's parameters never change;
//  * detc-layer-never-run (LayersNeverRun.cpp): a model class builds a
//    layer with parameters that nothing runs, while an optimizer over the
//    whole model holds its parameters;
//  * detc-worker-state (WorkerState.cpp): a dataset carries state from one
//    example to the next (each DataLoader worker has its own copy).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_ANALYSIS_TRAININGCHECKS_H
#define DETC_LIB_ANALYSIS_TRAININGCHECKS_H

#include "detc/analysis/Lint.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace detc::analysis {

std::vector<LintFinding> trainingChecks(const StatementGraph &g);

/// The statement node of each op of the program (the map is made on the
/// first question: one pass, not one per finding), and the module.
class StatementNodes {
public:
  explicit StatementNodes(const StatementGraph &g) : g(g) {}
  mlir::ModuleOp module();
  NodeId of(mlir::Operation *op);

private:
  const StatementGraph &g;
  mlir::ModuleOp mod;
  llvm::DenseMap<mlir::Operation *, NodeId> nodes;
};

/// The statement's text of an op (a class: the whole class) with its
/// comments blanked out, read from its file ("" when it cannot be read).
std::string statementText(mlir::Operation *op);

/// detc-layer-never-run; `inTraining` tells a statement in a training loop.
void layersNeverRun(const StatementGraph &g, StatementNodes &nodes,
                    llvm::function_ref<bool(NodeId)> inTraining,
                    std::vector<LintFinding> &out);

/// detc-worker-state (WorkerState.cpp).
void workerState(const StatementGraph &g, StatementNodes &nodes,
                 std::vector<LintFinding> &out);

} // namespace detc::analysis

#endif // DETC_LIB_ANALYSIS_TRAININGCHECKS_H
