//===- ScriptSchedule.h - The CheckHint schedule of a script ----*- C++ -*-===//
//
// `detc analyze --overhead=…` prints it; `detc transform --overhead=…`
// instruments the hint it chooses. Both read the script's `# detc: cost=`
// annotations, build the hint program (HintProgram.h), take the flags, and
// pick the best periodic schedule.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_SCRIPTSCHEDULE_H
#define DETC_TOOLS_DETC_SCRIPTSCHEDULE_H

#include "detc/analysis/HintProgram.h"
#include "detc/base/NumberFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace detc::tool {

/// --overhead, --ckpt-cost and --failure-rate of one subcommand.
struct CheckHintFlags {
  CheckHintFlags(llvm::cl::SubCommand &sub, llvm::StringRef overheadHelp);
  base::NumberFlag overhead, ckptCost, failureRate;
  llvm::cl::opt<std::string> profile;

  /// False (after an error on `errs`) when a CheckHint flag comes without
  /// --overhead, which alone asks for a schedule, or is out of its range
  /// (the ranges of `detc schedule`).
  bool consistent(llvm::raw_ostream &errs) const;
};

struct ScriptSchedule {
  analysis::HintProgram hints;
  analysis::PeriodicSchedule best;
  double checkpointSeconds = 0; ///< t_c: --ckpt-cost, or measured.
  /// The chosen hint's op (null: no checkpoint fits).
  mlir::Operation *hintOp = nullptr;
};

/// The schedule of `file`'s hints under `flags`; reports warnings and
/// errors on `errs` (then returns nothing).
std::optional<ScriptSchedule> scheduleScript(mlir::ModuleOp module,
                                             llvm::StringRef file,
                                             const CheckHintFlags &flags,
                                             llvm::raw_ostream &errs);

/// The report `detc analyze --overhead` prints.
void printScriptSchedule(const ScriptSchedule &s, llvm::StringRef file,
                         const CheckHintFlags &flags, llvm::raw_ostream &os);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_SCRIPTSCHEDULE_H
