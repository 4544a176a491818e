//===- SchedulePlot.h - `detc schedule --plot=FILE.svg` --------*- C++ -*-===//
//
// Two panels in one SVG: the run as a timeline (tasks as ticks when there
// are few, the blocks between chosen checkpoints shaded by their expected
// recovery, checkpoints as red marks), and the expected recovery time
// against the allowance o (the schedule recomputed at each o, the chosen o
// marked).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_SCHEDULEPLOT_H
#define DETC_TOOLS_DETC_SCHEDULEPLOT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace detc::tool {

struct PlotInput {
  std::string title;
  std::vector<double> tasks;       ///< Task times in run order.
  std::vector<double> checkpoints; ///< Times (from the start) of checkpoints.
  double failureRate = 0;
  double allowance = 0;
  /// Expected recovery at allowance o (the curve).
  llvm::function_ref<double(double)> recoveryAt;
};

/// The SVG text.
std::string renderSchedulePlot(const PlotInput &in);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_SCHEDULEPLOT_H
