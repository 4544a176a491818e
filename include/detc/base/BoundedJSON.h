//===- BoundedJSON.h - JSON parsing with a nesting limit --------*- C++ -*-===//
//
// llvm::json::parse recurses once per nesting level; a hostile file of
// 50,000 '[' overflows any stack. parseBoundedJSON checks the nesting with
// a linear scan first and reports too-deep input as a JSON error in
// llvm::json's own "[line:col, byte=N]: message" form.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_BOUNDEDJSON_H
#define DETC_BASE_BOUNDEDJSON_H

#include "llvm/Support/JSON.h"

namespace detc::base {

/// Deeper JSON than any detc file format needs.
constexpr unsigned kMaxJSONDepth = 4000;

llvm::Expected<llvm::json::Value>
parseBoundedJSON(llvm::StringRef text, unsigned maxDepth = kMaxJSONDepth);

} // namespace detc::base

#endif // DETC_BASE_BOUNDEDJSON_H
