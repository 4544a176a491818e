//===- LowerCommand.h - `detc FILE --emit=mlir` ---------------------------===//

#ifndef DETC_TOOLS_DETC_LOWERCOMMAND_H
#define DETC_TOOLS_DETC_LOWERCOMMAND_H

namespace detc::tool {

/// True if the top-level command line names an input file.
bool hasTopLevelInput();

/// Runs `detc FILE --emit=mlir`; returns the process exit status.
int runLower();

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_LOWERCOMMAND_H
