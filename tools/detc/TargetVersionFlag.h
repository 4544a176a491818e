//===- TargetVersionFlag.h - --target-version: the Python to read -*- C++ -*-===//
//
// `--target-version 3.11|3.12|3.13` (or `target-version` in [tool.detc]),
// like ruff's: detc reads the newest syntax it knows, and a file using
// syntax newer than the target is an error naming the version it needs.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_TARGETVERSIONFLAG_H
#define DETC_TOOLS_DETC_TARGETVERSIONFLAG_H

#include "detc/frontend/PythonVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace detc::tool {

struct TargetVersionFlag {
  TargetVersionFlag(llvm::cl::SubCommand &sub,
                    llvm::cl::OptionCategory *category = nullptr);
  llvm::cl::opt<std::string> value;

  /// The version asked for; nullopt after an error on `errs`.
  std::optional<frontend::PythonVersion> get(llvm::raw_ostream &errs) const;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_TARGETVERSIONFLAG_H
