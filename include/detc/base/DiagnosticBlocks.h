//===- DiagnosticBlocks.h - One report of several files' diagnostics ------===//
//
// `detc analyze PATH...` analyses each file on its own, and a module that
// several scripts import is lowered with each: its warnings (an unresolved
// import, `setattr`) would be printed once per script. A project's report
// prints each diagnostic once: text split into blocks, each a located
// `FILE:LINE:COL: warning|error|remark: ...` line with the lines that
// follow it (its source excerpt, caret and notes), kept the first time
// they are seen.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_DIAGNOSTICBLOCKS_H
#define DETC_BASE_DIAGNOSTICBLOCKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace detc::base {

/// The blocks of compiler-style diagnostic text, in order. Lines before
/// the first located diagnostic form a block of their own.
std::vector<llvm::StringRef> splitDiagnosticBlocks(llvm::StringRef text);

/// Appends to `out` the blocks of `text` whose first line (the place and
/// the message) is not in `seen`, adding it: one diagnostic per place and
/// message, with the notes of its first occurrence.
void appendNewDiagnostics(llvm::StringRef text, llvm::StringSet<> &seen,
                          std::string &out);

} // namespace detc::base

#endif // DETC_BASE_DIAGNOSTICBLOCKS_H
