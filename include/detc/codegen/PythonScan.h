//===- PythonScan.h - Token-level facts about Python source -----*- C++ -*-===//
//
// The few things code generation needs to know about raw Python bytes that
// the IR's byte ranges do not say: where a call's callee ends, and whether a
// line break can take a trailing comment (not inside a string, not after a
// backslash continuation). A small scanner that knows strings (all prefixes,
// triple quotes, escapes), comments and brackets answers them.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_PYTHONSCAN_H
#define DETC_CODEGEN_PYTHONSCAN_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace detc::codegen {

/// For the call expression occupying bytes [begin, end) of `src` (its last
/// byte the closing parenthesis), the end of its callee: the offset just past
/// the callee's last non-blank byte before the call's `(`. None if the range
/// is not a call.
std::optional<uint32_t> calleeEnd(llvm::StringRef src, uint32_t begin,
                                  uint32_t end);

/// The first line break at or after `from` where a `#` comment may be
/// appended, scanning from `stmtBegin` (a position outside strings): one
/// not inside a string and not continued by a backslash. Returns the offset
/// of the break (of its '\r' for "\r\n"), or src.size().
uint32_t commentableLineEnd(llvm::StringRef src, uint32_t stmtBegin,
                            uint32_t from);

/// `s` as a one-line Python string literal in single quotes that means the
/// same path or text to Python (escapes for quotes, backslashes, control
/// characters and non-ASCII; bytes that are no UTF-8 as surrogate escapes),
/// for the runtime calls the planners emit.
std::string pyString(llvm::StringRef s);

} // namespace detc::codegen

#endif // DETC_CODEGEN_PYTHONSCAN_H
