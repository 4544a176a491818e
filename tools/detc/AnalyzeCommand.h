//===- AnalyzeCommand.h - `detc analyze` -----------------------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_ANALYZECOMMAND_H
#define DETC_TOOLS_DETC_ANALYZECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

extern llvm::cl::SubCommand analyzeCommand;

/// Runs `detc analyze`; returns the process exit status.
int runAnalyze();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_ANALYZECOMMAND_H
