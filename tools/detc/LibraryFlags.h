//===- LibraryFlags.h - --python: where library source is read -*- C++ -*-===//
//
// Libraries no API table models are read from their source on the search
// path of the interpreter the user trains with: `--python PATH` (an
// interpreter or a venv's), else DETC_PYTHON, else `python3`. Their
// summaries are cached in DETC_CACHE_DIR (or ~/.cache/detc);
// `--no-library-cache` reads every file again.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_LIBRARYFLAGS_H
#define DETC_TOOLS_DETC_LIBRARYFLAGS_H

#include "detc/frontend/LibrarySource.h"

#include "llvm/Support/CommandLine.h"

namespace detc::tool {

struct LibraryFlags {
  explicit LibraryFlags(llvm::cl::SubCommand &sub);
  llvm::cl::opt<std::string> python;
  llvm::cl::opt<bool> noCache;

  frontend::LibrarySourceOptions get() const;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_LIBRARYFLAGS_H
