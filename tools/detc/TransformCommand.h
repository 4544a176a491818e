//===- TransformCommand.h - `detc transform` -------------------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_TRANSFORMCOMMAND_H
#define DETC_TOOLS_DETC_TRANSFORMCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

extern llvm::cl::SubCommand transformCommand;

/// Runs `detc transform`; returns the process exit status.
int runTransform();

/// The process's command line, for `--vaccinate`'s surgery: the runtime
/// re-runs the same transform on an edited script (docs/vaccinate.md).
void recordCommandLine(int argc, char **argv);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_TRANSFORMCOMMAND_H
