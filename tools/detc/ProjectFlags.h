//===- ProjectFlags.h - PATH... arguments of analyze/transform --*- C++ -*-===//
//
// `detc analyze PATH...` and `detc transform PATH...` take files and
// folders as ruff and mypy do: a folder, or more than one path, is a
// project; its Python files are those base::collectPythonFiles chooses,
// leaving out what `--exclude` (or `[tool.detc] exclude`) and `.gitignore`
// name (`--no-gitignore`: not the latter).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_PROJECTFLAGS_H
#define DETC_TOOLS_DETC_PROJECTFLAGS_H

#include "ConfigFlags.h"

#include "detc/base/ProjectConfig.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace detc::tool {

struct ProjectFlags {
  /// `verb` starts the flags' help ("Analyse", "Transform").
  ProjectFlags(llvm::cl::SubCommand &sub, llvm::StringRef verb);
  /// The help of --no-gitignore: cl::desc keeps a reference to it, so it
  /// lives as long as the option (declared before it).
  std::string noGitignoreHelp;
  llvm::cl::list<std::string> excludes;
  llvm::cl::opt<bool> noGitignore;

  /// Whether `paths` are a project: a folder, or more than one path.
  static bool isProject(llvm::ArrayRef<std::string> paths);

  /// The project's Python files, in order (each file as named, then each
  /// folder's files sorted): patterns of the command line are anchored
  /// where detc runs, those of the configuration at its folder. nullopt
  /// after an error on `errs`. With `otherFiles`: the folders' other files
  /// too (base::collectPythonFiles).
  std::optional<std::vector<std::string>>
  files(llvm::ArrayRef<std::string> paths, const base::ProjectConfig &cfg,
        const ConfigFlags &config, llvm::raw_ostream &errs,
        std::vector<std::string> *otherFiles = nullptr) const;
};

/// Where the configuration of `paths` is searched from: the first path
/// (inside it, for a folder).
std::string configurationStart(llvm::ArrayRef<std::string> paths);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_PROJECTFLAGS_H
