//===- HintProgram.h - A script with hints as a CheckHint program -*- C++
//-*-===//
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
  unsigned annotatedTasks = 0, modelledTasks = 0;
  /// The `detc.hint` op of each hint name in `program`.
  std::map<std::string, mlir::Operation *> hintOps;
};

/// `annotated(op)`: the `# detc: cost=` of the op's line, if any.
HintProgram buildHintProgram(
    mlir::ModuleOp module,
    llvm::function_ref<std::optional<double>(mlir::Operation *)> annotated);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_HINTPROGRAM_H
