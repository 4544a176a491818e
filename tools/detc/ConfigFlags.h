//===- ConfigFlags.h - Project configuration for analyze/transform -*- C++ -*-===//
//
// Applies the project configuration (base/ProjectConfig.h: `[tool.detc]` in
// the nearest pyproject.toml, or detc.toml) to a subcommand's options: a
// configured flag takes effect unless the command line gives it (the
// command line wins). `--show-config` prints the effective settings and
// where each comes from; `--config FILE` names the file, `--no-config`
// reads none.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_CONFIGFLAGS_H
#define DETC_TOOLS_DETC_CONFIGFLAGS_H

#include "detc/base/ProjectConfig.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace detc::tool {

struct ConfigFlags {
  explicit ConfigFlags(llvm::cl::SubCommand &sub);
  llvm::cl::opt<bool> showConfig;
  llvm::cl::opt<std::string> configFile;
  llvm::cl::opt<bool> noConfig;

  /// Reads the configuration of `script` and applies it to the options of
  /// the subcommand; nullopt after an error on `errs`.
  std::optional<base::ProjectConfig> apply(llvm::StringRef script,
                                           llvm::raw_ostream &errs);

  /// apply(), then --show-config: the exit status when the command is done
  /// (2 after an error, 0 after printing the settings), else nullopt with
  /// the configuration in `out`.
  std::optional<int> start(llvm::StringRef script,
                           std::optional<base::ProjectConfig> &out);

  /// Whether the command line gave flag `name` (the configuration's value
  /// was not used).
  bool givenOnCommandLine(llvm::StringRef name) const;

  /// The effective settings (--show-config), TOML-like, with their source.
  void print(llvm::raw_ostream &os, const base::ProjectConfig &config) const;

private:
  llvm::cl::SubCommand &sub;
  /// Flags the command line gave (before the configuration was applied).
  std::vector<std::string> fromCommandLine;
};

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_CONFIGFLAGS_H
