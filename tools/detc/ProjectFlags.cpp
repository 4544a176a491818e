//===- ProjectFlags.cpp - PATH... arguments of analyze/transform ----------===//

#include "ProjectFlags.h"

#include "detc/base/ProjectFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace detc;

tool::ProjectFlags::ProjectFlags(cl::SubCommand &sub, StringRef verb)
    : noGitignoreHelp(
          (verb + " in folders also what .gitignore files ignore").str()),
      excludes("exclude", cl::value_desc("PATTERN"),
               cl::desc("Leave out of folders the files and folders PATTERN "
                        "matches (.gitignore syntax, from the current "
                        "folder; repeatable; replaces [tool.detc] exclude)"),
               cl::sub(sub)),
      noGitignore("no-gitignore", cl::desc(noGitignoreHelp), cl::sub(sub)) {}

bool tool::ProjectFlags::isProject(ArrayRef<std::string> paths) {
  if (paths.size() > 1)
    return true;
  return llvm::any_of(paths, [](const std::string &p) {
    return sys::fs::is_directory(p);
  });
}

std::optional<std::vector<std::string>>
tool::ProjectFlags::files(ArrayRef<std::string> paths,
                          const base::ProjectConfig &cfg,
                          const ConfigFlags &config, raw_ostream &errs,
                          std::vector<std::string> *otherFiles) const {
  base::ProjectFileOptions options;
  options.gitignore = !noGitignore;
  bool fromCommandLine = config.givenOnCommandLine("exclude");
  SmallString<256> anchor;
  if (fromCommandLine || cfg.file.empty())
    sys::fs::current_path(anchor);
  else
    anchor = sys::path::parent_path(cfg.file);
  sys::fs::make_absolute(anchor);
  sys::path::remove_dots(anchor, /*remove_dot_dot=*/true);
  auto where = cfg.flags.find("exclude");
  for (const std::string &pattern : excludes) {
    std::string origin = fromCommandLine || where == cfg.flags.end()
                             ? std::string("--exclude")
                             : where->second.where;
    if (Error e = options.exclude.add(pattern, anchor, origin)) {
      errs << toString(std::move(e)) << "\n";
      return std::nullopt;
    }
  }
  Expected<std::vector<std::string>> found =
      base::collectPythonFiles(paths, options, otherFiles);
  if (!found) {
    errs << toString(found.takeError()) << "\n";
    return std::nullopt;
  }
  return std::move(*found);
}

std::string tool::configurationStart(ArrayRef<std::string> paths) {
  std::string start = paths.empty() ? std::string(".") : paths.front();
  if (sys::fs::is_directory(start))
    start = (Twine(start) + "/.").str();
  return start;
}
