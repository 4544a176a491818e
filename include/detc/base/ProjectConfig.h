//===- ProjectConfig.h - [tool.detc] in pyproject.toml or detc.toml -*- C++ -*-===//
//
// A project's detc settings, so that a team does not repeat its options on
// every command line (the convention of ruff and mypy): the nearest
// `detc.toml` (its top level) or `pyproject.toml` with a `[tool.detc]`
// table, searched from the analysed script's directory upward. Keys are
// the command-line flags' names (`path`, `entry`, `seed`, `werror`,
// `strict`, `format`, `overhead`, `ckpt-cost`, `failure-rate`, `api-table`)
// plus `[tool.detc.rules]`, the severity of each rule ("error", "warning"
// or "off"). Paths are relative to the file's directory. Parsed with
// toml++; an unknown key or a value of the wrong type is an error at its
// file:line:col.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_PROJECTCONFIG_H
#define DETC_BASE_PROJECTCONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace detc::base {

struct ConfigSetting {
  /// The flag's value(s), as they would be written on the command line.
  std::vector<std::string> values;
  std::string where; ///< `pyproject.toml:12:11`.
};

struct ProjectConfig {
  std::string file; ///< The file read ("" when there is none).
  /// By flag name (`path`, `ckpt-cost`, ...).
  std::map<std::string, ConfigSetting> flags;
  /// Rule -> "error", "warning" or "off".
  std::map<std::string, ConfigSetting> rules;
};

/// The flag names a configuration file may set.
llvm::ArrayRef<llvm::StringRef> configurableFlags();

/// Finds and reads the configuration for a script in `startDir` (nullopt
/// settings when no file is found). `knownRules` validates the rule table.
/// Errors are `file:line:col: error: ...` messages.
llvm::Expected<ProjectConfig>
loadProjectConfig(llvm::StringRef startDir,
                  llvm::ArrayRef<llvm::StringRef> knownRules);

/// Reads the configuration file `path` itself.
llvm::Expected<ProjectConfig>
readProjectConfig(llvm::StringRef path,
                  llvm::ArrayRef<llvm::StringRef> knownRules);

} // namespace detc::base

#endif // DETC_BASE_PROJECTCONFIG_H
