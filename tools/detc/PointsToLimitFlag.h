//===- PointsToLimitFlag.h - --points-to-limit: the model's budget -*- C++ -*-===//
//
// `--points-to-limit N`: how many objects the points-to analysis's sets may
// hold in all before it stops (and the lowering refuses the program, rather
// than report findings of an incomplete object model). The default suits
// every real script tried but those where a coarse model merges the
// program into one blob; raising it trades memory and time for an answer.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_POINTSTOLIMITFLAG_H
#define DETC_TOOLS_DETC_POINTSTOLIMITFLAG_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

struct PointsToLimitFlag {
  explicit PointsToLimitFlag(llvm::cl::SubCommand &sub);
  /// 0: the analysis's default.
  llvm::cl::opt<unsigned long long> members;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_POINTSTOLIMITFLAG_H
