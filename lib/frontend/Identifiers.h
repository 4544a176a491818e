//===- Identifiers.h - Identifiers as CPython reads them --------*- C++ -*-===//
//
// Internal to lib/frontend.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_IDENTIFIERS_H
#define DETC_LIB_FRONTEND_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace detc::frontend {

/// `utf8` in Unicode normalization form NFKC (PEP 3131: CPython normalizes
/// every identifier so), by ICU. False when ICU cannot (the caller keeps
/// the text as written).
bool normalizeIdentifier(llvm::StringRef utf8, std::string &out);

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_IDENTIFIERS_H
