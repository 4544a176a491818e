//===- TaskFile.h - The task files `detc schedule` reads -------*- C++ -*-===//
//
// A JSON object:
//
//   {"tasks": [12.5, {"name": "epoch 1 step 3", "seconds": 0.8}, ...],
//    "checkpoint_seconds": 30, "allowance": 0.05, "failure_rate": 1e-6}
//
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

#include "detc/analysis/Schedule.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace detc::tool {

struct TaskFile {
  analysis::ScheduleProblem problem;
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
