//===- ProjectFiles.h - The Python files of a project -----------*- C++ -*-===//
//
// What `detc analyze PATH...` analyses, chosen as ruff and mypy choose: a
// file named on the command line is taken as it is; a directory is walked
// for `*.py` files, leaving out what the project's `.gitignore` files
// ignore, what `--exclude` and `[tool.detc] exclude` name, hidden folders
// and the folders no project keeps code of its own in (virtual
// environments, caches, `node_modules`, `site-packages`, ...). Symbolic
// links to folders are not followed (a link cycle must not hang the walk).
//
// Patterns use `.gitignore` syntax (git-scm.com/docs/gitignore), each
// anchored at the folder of the file that declares it: `*.py` (a name at
// any depth), `/setup.py` and `doc/conf.py` (a path from that folder),
// `build/` (folders only), `**` (any number of folders), `!keep.py` (taken
// back in). The last pattern that matches a path decides.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_PROJECTFILES_H
#define DETC_BASE_PROJECTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace detc::base {

/// Patterns in `.gitignore` syntax.
class PathPatterns {
public:
  enum class Match { None, Excluded, Included };

  /// Adds one pattern anchored at `baseDir` (an absolute folder). Blank
  /// lines and `#` comments add nothing. An invalid glob (`[]`) is an
  /// error naming `origin` ("pyproject.toml:4:11", ".gitignore:3").
  llvm::Error add(llvm::StringRef pattern, llvm::StringRef baseDir,
                  llvm::StringRef origin);
  /// Adds each line of a `.gitignore` file's text.
  llvm::Error addLines(llvm::StringRef text, llvm::StringRef baseDir,
                       llvm::StringRef file);

  /// What the last matching pattern says of `path` (absolute, without `.`
  /// or `..` parts); `isDir` for folders (`build/` matches only those).
  Match match(llvm::StringRef path, bool isDir) const;
  bool empty() const { return patterns.empty(); }

private:
  struct Segment {
    bool anyFolders = false;             ///< `**`
    std::optional<llvm::GlobPattern> glob; ///< Otherwise.
  };
  struct Pattern {
    std::string baseDir;
    std::vector<Segment> segments;
    bool negated = false;
    bool dirOnly = false;
  };
  /// Whether segments[i...] match parts[j...].
  static bool matchFrom(llvm::ArrayRef<Segment> segments,
                        llvm::ArrayRef<llvm::StringRef> parts, size_t i,
                        size_t j);

  std::vector<Pattern> patterns;
  /// The patterns' text: a GlobPattern points into it. Shared by copies.
  std::shared_ptr<llvm::BumpPtrAllocator> texts =
      std::make_shared<llvm::BumpPtrAllocator>();
};

struct ProjectFileOptions {
  /// `--exclude` and `[tool.detc] exclude`.
  PathPatterns exclude;
  /// Read `.gitignore` files (from the repository's top folder down).
  bool gitignore = true;
};

/// The Python files `paths` name, in order: each file as given, then each
/// directory's files sorted by path. A path is spelled as the user spelled
/// its argument (`src/pkg/a.py` for `src/`). A path that does not exist is
/// an error; so is a `.gitignore` with an invalid pattern. With
/// `otherFiles`, the walk also appends there the folders' other files (not
/// hidden, not ignored or excluded): what a transformed copy of the
/// project needs beside its code (configurations, small data).
llvm::Expected<std::vector<std::string>>
collectPythonFiles(llvm::ArrayRef<std::string> paths,
                   const ProjectFileOptions &options,
                   std::vector<std::string> *otherFiles = nullptr);

/// The folder names a walk never enters (besides hidden ones).
llvm::ArrayRef<llvm::StringRef> foldersWithoutProjectCode();

} // namespace detc::base

#endif // DETC_BASE_PROJECTFILES_H
