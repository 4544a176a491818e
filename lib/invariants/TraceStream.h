//===- TraceStream.h - Reading traces one record at a time ------*- C++ -*-===//

#ifndef DETC_LIB_INVARIANTS_TRACESTREAM_H
#define DETC_LIB_INVARIANTS_TRACESTREAM_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace detc::invariants {

/// Calls `fn(record, line)` for each JSON-lines record of `path`, reading
/// one line at a time. A line that is not a JSON object, or a trace of
/// another format version, is an error naming `path:line`.
llvm::Error
forEachRecord(const std::string &path,
              llvm::function_ref<void(const llvm::json::Object &, unsigned)> fn);

/// A scalar attribute as text (`true`, `3`, `"x"` -> `x`); "" when absent
/// or not a scalar.
std::string scalar(const llvm::json::Object &o, llvm::StringRef key);

} // namespace detc::invariants

#endif // DETC_LIB_INVARIANTS_TRACESTREAM_H
