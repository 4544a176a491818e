//===- FileList.h - `--files-from` lists ------------------------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_FILELIST_H
#define DETC_TOOLS_DETC_FILELIST_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace detc::tool {

/// Appends the paths listed in `listPath` (one per line, blank lines
/// ignored) to `files`. Reports an unreadable list and returns false.
bool appendFileList(llvm::StringRef listPath, std::vector<std::string> &files);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_FILELIST_H
