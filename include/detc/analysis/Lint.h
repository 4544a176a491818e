//===- Lint.h - Static training-loop misuse checks (SPEC §9) ------*- C++ -*-===//
//
// TrainCheck's study lists API misuse that silently corrupts training. The
// ones the IR makes easy are checked on the statement graph:
//  * detc-missing-zero-grad: a backward runs after an optimizer step and the
//    next step of that optimizer follows, with no zero_grad in between: the
//    step applies the previous iteration's gradients again;
//  * detc-misplaced-zero-grad: zero_grad runs after the backward and before
//    the step, so the step applies zeroed gradients;
//  * detc-step-without-backward: no path to an optimizer step computes a
//    gradient since the last zero_grad / step (or since the start);
//  * detc-optimizer-before-move: an optimizer is built on a model's
//    parameters before the model is moved (`.to`, `.cuda`) or wrapped
//    (DistributedDataParallel), so it holds stale parameter tensors —
//    "before" along forward edges only (ControlFlow's back edges excluded),
//    so a model moved at the top of a loop is not "after" an optimizer
//    built at the bottom of the previous iteration.
// The first three come from one forward may-analysis over "the last
// gradient events" (solved by the shared worklist engine). Gradient
// accumulation (`backward` every iteration, `step(); zero_grad()` every k
// iterations) and the adversarial-training pattern (a backward for the
// attack, then zero_grad, backward, step) are silent by construction.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_LINT_H
#define DETC_ANALYSIS_LINT_H

#include "detc/analysis/ControlFlow.h"
#include "detc/analysis/Replay.h"

#include <string>
#include <vector>

namespace detc::analysis {

struct LintFinding {
  std::string rule;
  NodeId at;
  std::string message;
  /// Related statements, with what they are.
  std::vector<std::pair<NodeId, std::string>> notes;
};

/// One finding per (rule, statement), whatever the number of call paths.
std::vector<LintFinding> runLints(const StatementGraph &g,
                                  const ControlFlow &cf, const Liveness &live);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_LINT_H
