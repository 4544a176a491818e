//===- ParseCommand.h - `detc parse` --------------------------------------===//

#ifndef DETC_TOOLS_DETC_PARSECOMMAND_H
#define DETC_TOOLS_DETC_PARSECOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

extern llvm::cl::SubCommand parseCommand;

/// Runs `detc parse`; returns the process exit status.
int runParse();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_PARSECOMMAND_H
