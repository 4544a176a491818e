//===- ApiTableFlag.h - --api-table: extra API model tables -----*- C++ -*-===//
//
// `--api-table FILE.api` (repeatable) adds a table to the built-in API model
// (lib/frontend/Lowering/api/README.md) for one subcommand: a project's own
// library wrappers, modelled as data.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_APITABLEFLAG_H
#define DETC_TOOLS_DETC_APITABLEFLAG_H

#include "detc/frontend/ApiModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace detc::tool {

struct ApiTableFlag {
  ApiTableFlag(llvm::cl::SubCommand &sub, llvm::cl::OptionCategory *category);
  llvm::cl::list<std::string> tables;

  /// The built-in model plus the tables; nullopt after an error on `errs`.
  std::optional<frontend::ApiModel> load(llvm::raw_ostream &errs) const;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_APITABLEFLAG_H
