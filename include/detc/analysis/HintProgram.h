//===- HintProgram.h - A hinted script as a CheckHint program -*- C++ -*-===//
//
// From the lowered script to LoopProgram (LoopSchedule.h): starting at the
// module's entry, `detc.hint` ops become hints, loops that contain hints
// (directly or through the functions they call) stay loops — they need
// their `_iterations: N` bound —, calls into functions with hints are
// inlined, and everything else becomes tasks with a cost in seconds:
//
//  * an annotation on the statement's line (`# detc: cost=SECONDS`; on a
//    loop header without hints: per iteration; on a hint: the cost of a
//    checkpoint there — what is live there to save), given by the caller;
//  * a profile (`--detc-profile` run of the transformed script): measured
//    seconds per execution of each statement and per checkpoint at each
//    hint, loops' iterations and header (fetch) time;
//  * otherwise the default model: a rough cost per kind of work (a forward
//    10 ms, a gradient 20 ms, an optimizer step 5 ms, a batch fetch 5 ms, a
//    random draw 0.1 ms, any other statement 10 µs) — enough to rank hints
//    in a script nobody annotated, not to predict wall time.
//
// A loop without hints or a bound counts once (with a warning); an `if`
// whose branches both hold hints is not a program of this shape (error);
// an `if` with hints in one branch is taken to run it (the `__main__`
// guard).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_HINTPROGRAM_H
#define DETC_ANALYSIS_HINTPROGRAM_H

#include "detc/analysis/LoopSchedule.h"
#include "detc/analysis/StatementGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace detc::analysis {

struct HintProgramNote {
  SourcePoint at;
  std::string message;
};

struct HintProgram {
  LoopProgram program;
  std::vector<HintProgramNote> warnings;
  std::optional<HintProgramNote> error;
  unsigned annotatedTasks = 0, modelledTasks = 0, measuredTasks = 0;
  /// The `detc.hint` op of each hint name in `program`.
  std::map<std::string, mlir::Operation *> hintOps;
};

/// A loop with hints, as a profile measured it.
struct MeasuredLoop {
  double iterations;    ///< Mean iterations per execution.
  double headerSeconds; ///< Per iteration: getting the next item.
};

/// Where costs come from; the first that knows wins, then the default
/// model. Each returns nothing for an op it does not know, and 0 for all
/// but one op of a statement lowered to several.
struct CostSources {
  /// `# detc: cost=SECONDS` on the op's statement: one execution (a loop
  /// header without hints: one iteration; a hint: a checkpoint there).
  std::function<std::optional<double>(mlir::Operation *)> annotated;
  /// A profile: one execution of the op's statement (a loop without
  /// hints: all its iterations; a hint: a checkpoint there).
  std::function<std::optional<double>(mlir::Operation *)> measured;
  /// A profile, for a loop with hints (its iterations stand in for a
  /// missing `_iterations:` bound; its header time is a task per
  /// iteration).
  std::function<std::optional<MeasuredLoop>(mlir::Operation *)> measuredLoop;
};

HintProgram buildHintProgram(mlir::ModuleOp module, const CostSources &costs);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_HINTPROGRAM_H
