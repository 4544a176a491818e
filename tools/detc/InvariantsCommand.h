//===- InvariantsCommand.h - `detc infer` and `detc check` -----*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_INVARIANTSCOMMAND_H
#define DETC_TOOLS_DETC_INVARIANTSCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

extern llvm::cl::SubCommand inferCommand;
extern llvm::cl::SubCommand checkCommand;

/// `detc infer TRACE... -o invariants.json`; returns the exit status.
int runInfer();
/// `detc check TRACE... --invariants FILE`; returns the exit status (1:
/// violations with --werror).
int runCheck();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_INVARIANTSCOMMAND_H
