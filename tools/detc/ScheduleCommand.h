//===- ScheduleCommand.h - `detc schedule` ---------------------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_SCHEDULECOMMAND_H
#define DETC_TOOLS_DETC_SCHEDULECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

extern llvm::cl::SubCommand scheduleCommand;

/// Runs `detc schedule`; returns the process exit status.
int runSchedule();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_SCHEDULECOMMAND_H
