//===- LowerCommand.h - `detc FILE --emit=mlir` ---------------------------===//

#ifndef DETC_TOOLS_DETC_LOWERCOMMAND_H
#define DETC_TOOLS_DETC_LOWERCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

/// The options of `detc FILE.py` (the top-level command); everything else
/// at the top level is LLVM's and hidden from --help.
extern llvm::cl::OptionCategory loweringCategory;

/// True if the top-level command line names an input file.
bool hasTopLevelInput();

/// Runs `detc FILE --emit=mlir`; returns the process exit status.
int runLower();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_LOWERCOMMAND_H
