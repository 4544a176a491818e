//===- TaskFile.h - The task files `detc schedule` reads -------*- C++ -*-===//
//
// A JSON object, with either a flat task list:
//
//   {"tasks": [12.5, {"name": "epoch 1 step 3", "seconds": 0.8}, ...],
//    "checkpoint_seconds": 30, "allowance": 0.05, "failure_rate": 1e-6}
//
// or a program with rolled loops (LoopSchedule.h):
//
//   {"program": [{"task": 30}, {"loop": 100, "body": [{"task": 0.5},
//                {"hint": "step"}]}, {"hint": "end"}], ...}
//
// (a bare number is a task too; a hint may carry its own
// "checkpoint_seconds").
// Each task is its duration in seconds (a number, or an object with
// "seconds", an optional "name" and an optional "checkpoint_seconds": the
// cost of a checkpoint at the hint after it, when it differs from the
// default); a checkpoint hint follows every task but the last. The three
// parameters are optional here (the command line can give them) but must be
// known before scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_TASKFILE_H
#define DETC_TOOLS_DETC_TASKFILE_H

#include "detc/analysis/LoopSchedule.h"
#include "detc/analysis/Schedule.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace detc::tool {

struct TaskFile {
  analysis::ScheduleProblem problem;
  /// Set when the file gives a "program" (its parameters are `problem`'s).
  std::unique_ptr<analysis::LoopProgram> program;
  std::vector<std::string> names; ///< Per task; empty when unnamed.
  /// Per hint: its own checkpoint cost, or NaN for the default (t_c).
  std::vector<double> hintOverrides;
  /// Which parameters the file gave.
  bool hasCheckpointSeconds = false, hasAllowance = false,
       hasFailureRate = false;
};

/// Reads `path`; on bad input prints `path[:line:col]: error: ...` to
/// stderr and returns nothing.
std::optional<TaskFile> readTaskFile(llvm::StringRef path);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_TASKFILE_H
