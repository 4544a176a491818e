//===- CacheFile.h - Files of detc's on-disk cache --------------*- C++ -*-===//
//
// Library summaries and interpreters' search paths are kept between runs
// in detc's cache folder (LibrarySource.h). The cache is an optimisation:
// what cannot be written is remade next time, never an error.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_CACHEFILE_H
#define DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_CACHEFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace detc::frontend::library {

/// Writes `text` to `file` (its folder made if missing) through a
/// temporary file renamed over it, so a concurrent reader sees all of it or
/// none; a failure leaves no file.
void writeCacheFile(const std::string &file, llvm::StringRef text);

} // namespace detc::frontend::library

#endif // DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_CACHEFILE_H
