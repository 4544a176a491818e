//===- ProjectLayout.h - What `detc transform PATH... -o DIR` writes -*- C++ -*-===//
//
// A project is transformed into a copy of itself: each script (a file
// named on the command line, or one that runs as a program: a module-level
// `if __name__ == "__main__":`) is transformed, each other file (a module
// the scripts import) is copied as it is. That is what one script's
// transform does to the modules it imports: they are not edited, the
// script keys at run time what they build (dropout layers, loaders,
// datasets). A transformed module would configure the runtime a second
// time, in the middle of the script's run.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_PROJECTLAYOUT_H
#define DETC_CODEGEN_PROJECTLAYOUT_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace detc::codegen {

/// Whether the module runs as a program: a statement of its body is
/// `if __name__ == "__main__":` (either operand order, either quote).
bool runsAsScript(const ast::Module &module);

/// Whether the module is detc's output: it imports detc_runtime at its
/// top level (a walk over a project leaves such files out: an earlier
/// transform's copy is not part of the project).
bool writtenByDetc(const ast::Module &module);

/// Where file `spelled` (as the project walk spells it, relative to where
/// detc runs) goes in `outDir`: the same relative path. An absolute path or
/// one that leaves the current folder (`..`) is an error: the copy must
/// keep the project's package layout.
llvm::Expected<std::string> projectOutputPath(llvm::StringRef spelled,
                                              llvm::StringRef outDir);

} // namespace detc::codegen

#endif // DETC_CODEGEN_PROJECTLAYOUT_H
