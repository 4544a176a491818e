//===- PythonVersion.h - The Python versions detc reads ---------*- C++ -*-===//
//
// detc parses the newest syntax it knows (Python 3.13) for every file and
// notes where a file uses syntax newer than 3.11. A target version (like
// ruff's `target-version`) turns the uses newer than the target into
// errors naming the version, so that a project on Python 3.11 hears about
// a `type X = ...` before its interpreter does.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_PYTHONVERSION_H
#define DETC_FRONTEND_PYTHONVERSION_H

#include "detc/frontend/AST.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace detc::frontend {

/// A Python 3 minor version: 11, 12, 13.
enum class PythonVersion : unsigned { Py311 = 11, Py312 = 12, Py313 = 13 };

constexpr PythonVersion kOldestPythonVersion = PythonVersion::Py311;
constexpr PythonVersion kNewestPythonVersion = PythonVersion::Py313;

/// "3.12" (also "py312", "312"), or none.
std::optional<PythonVersion> parsePythonVersion(llvm::StringRef text);
/// "3.12".
std::string pythonVersionName(PythonVersion v);
/// What --target-version accepts, for messages: "3.11, 3.12 or 3.13".
std::string knownPythonVersions();

/// A use of syntax that needs a Python newer than 3.11.
struct NewerSyntax {
  ast::SourcePos pos;
  PythonVersion since;
  std::string what; ///< "type parameters (PEP 695)"
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_PYTHONVERSION_H
