//===- ProjectFiles.cpp - The Python files of a project -------------------===//

#include "detc/base/ProjectFiles.h"

#include "detc/base/FileIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>

using namespace llvm;

namespace detc::base {

ArrayRef<StringRef> foldersWithoutProjectCode() {
  // Installed packages, build outputs of packaging tools and caches: code
  // the project did not write, or copies of it. Hidden folders (`.git`,
  // `.venv`, `.tox`, `.mypy_cache`, ...) are left out by their dot.
  static const StringRef kFolders[] = {
      "__pycache__", "__pypackages__", "_build",   "buck-out",
      "dist",        "node_modules",   "site-packages", "venv"};
  return kFolders;
}

Error PathPatterns::add(StringRef pattern, StringRef baseDir,
                        StringRef origin) {
  // Trailing blanks are not part of a pattern unless escaped.
  while (pattern.ends_with(" ") && !pattern.ends_with("\\ "))
    pattern = pattern.drop_back();
  if (pattern.empty() || pattern.starts_with("#"))
    return Error::success();
  Pattern p;
  p.baseDir = baseDir.str();
  if (pattern.consume_front("!"))
    p.negated = true;
  if (pattern.ends_with("/")) {
    p.dirOnly = true;
    pattern = pattern.rtrim('/');
  }
  // A pattern with no slash but at its end names a file or folder at any
  // depth; one with a slash is a path from the base folder.
  bool anchored = pattern.contains('/');
  pattern.consume_front("/");
  if (pattern.empty())
    return Error::success();
  if (!anchored)
    p.segments.push_back(Segment{true, std::nullopt});
  SmallVector<StringRef, 8> parts;
  pattern.split(parts, '/', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    if (part == "**") {
      if (p.segments.empty() || !p.segments.back().anyFolders)
        p.segments.push_back(Segment{true, std::nullopt});
      continue;
    }
    Expected<GlobPattern> glob =
        GlobPattern::create(StringSaver(*texts).save(part));
    if (!glob)
      return createStringError(inconvertibleErrorCode(),
                               origin + ": error: bad pattern '" + pattern +
                                   "': " + toString(glob.takeError()));
    p.segments.push_back(Segment{false, std::move(*glob)});
  }
  patterns.push_back(std::move(p));
  return Error::success();
}

Error PathPatterns::addLines(StringRef text, StringRef baseDir,
                             StringRef file) {
  SmallVector<StringRef, 32> lines;
  text.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i)
    if (Error e = add(lines[i].rtrim('\r'), baseDir,
                      (file + ":" + Twine(i + 1)).str()))
      return e;
  return Error::success();
}

bool PathPatterns::matchFrom(ArrayRef<Segment> segments,
                             ArrayRef<StringRef> parts, size_t i, size_t j) {
  if (i == segments.size())
    return j == parts.size();
  if (segments[i].anyFolders) {
    // `**` takes any number of parts.
    for (size_t k = j; k <= parts.size(); ++k)
      if (matchFrom(segments, parts, i + 1, k))
        return true;
    return false;
  }
  return j < parts.size() && segments[i].glob->match(parts[j]) &&
         matchFrom(segments, parts, i + 1, j + 1);
}

PathPatterns::Match PathPatterns::match(StringRef path, bool isDir) const {
  for (const Pattern &p : llvm::reverse(patterns)) {
    if (p.dirOnly && !isDir)
      continue;
    StringRef rel = path;
    if (!rel.consume_front(p.baseDir) ||
        !(StringRef(p.baseDir).ends_with("/") || rel.consume_front("/")))
      continue;
    SmallVector<StringRef, 16> parts;
    rel.split(parts, '/', -1, /*KeepEmpty=*/false);
    if (matchFrom(p.segments, parts, 0, 0))
      return p.negated ? Match::Included : Match::Excluded;
  }
  return Match::None;
}

namespace {
std::string absolute(StringRef path) {
  SmallString<256> abs(path);
  sys::fs::make_absolute(abs);
  sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return std::string(abs);
}

class Walker {
public:
  Walker(const ProjectFileOptions &options, std::vector<std::string> &out,
         std::vector<std::string> *others)
      : options(options), out(out), others(others) {}

  /// Reads the `.gitignore` of `dir` into `ignores`.
  Error readGitignore(StringRef dir, PathPatterns &ignores) {
    SmallString<256> file(dir);
    sys::path::append(file, ".gitignore");
    if (!sys::fs::is_regular_file(file))
      return Error::success();
    Expected<std::string> text = readInputFile(file);
    if (!text)
      return createStringError(inconvertibleErrorCode(),
                               file + ": error: cannot read: " +
                                   toString(text.takeError()));
    return ignores.addLines(*text, dir, file);
  }

  /// The `.gitignore` files from the repository's top folder (the nearest
  /// one holding `.git`) down to `dir`.
  Error readEnclosingGitignores(StringRef dir, PathPatterns &ignores) {
    std::vector<StringRef> chain;
    bool inRepository = false;
    for (StringRef d = dir; !d.empty(); d = sys::path::parent_path(d)) {
      chain.push_back(d);
      SmallString<256> git(d);
      sys::path::append(git, ".git");
      if (sys::fs::exists(git)) {
        inRepository = true;
        break;
      }
      if (d == sys::path::root_path(d))
        break;
    }
    if (!inRepository)
      chain.resize(1);
    for (StringRef d : llvm::reverse(chain))
      if (Error e = readGitignore(d, ignores))
        return e;
    return Error::success();
  }

  bool excluded(StringRef path, bool isDir, const PathPatterns &ignores) {
    return ignores.match(path, isDir) == PathPatterns::Match::Excluded ||
           options.exclude.match(path, isDir) == PathPatterns::Match::Excluded;
  }

  Error walk(StringRef dir, StringRef shown, const PathPatterns &ignores) {
    struct Entry {
      std::string name;
      bool isDir;
      bool isPython;
    };
    std::vector<Entry> entries;
    std::error_code ec;
    for (sys::fs::directory_iterator it(dir, ec, /*follow_symlinks=*/false),
         end;
         it != end && !ec; it.increment(ec)) {
      StringRef name = sys::path::filename(it->path());
      sys::fs::file_type type = it->type();
      if (type == sys::fs::file_type::symlink_file) {
        // A link to a file counts as the file; one to a folder is not
        // followed.
        sys::fs::file_status st;
        if (sys::fs::status(it->path(), st) ||
            st.type() != sys::fs::file_type::regular_file)
          continue;
        type = st.type();
      }
      if (type == sys::fs::file_type::directory_file)
        entries.push_back({name.str(), true, true});
      else if (type == sys::fs::file_type::regular_file &&
               (name.ends_with(".py") || (others && !name.starts_with("."))))
        entries.push_back({name.str(), false, name.ends_with(".py")});
    }
    if (ec)
      return createStringError(inconvertibleErrorCode(),
                               shown + ": error: cannot list the folder: " +
                                   ec.message());
    llvm::sort(entries,
               [](const Entry &a, const Entry &b) { return a.name < b.name; });
    for (const Entry &e : entries) {
      SmallString<256> path(dir), shownPath(shown == "." ? "" : shown);
      sys::path::append(path, e.name);
      sys::path::append(shownPath, e.name);
      if (!e.isDir) {
        if (!excluded(path, false, ignores))
          (e.isPython ? out : *others).push_back(std::string(shownPath));
        continue;
      }
      if (StringRef(e.name).starts_with(".") ||
          llvm::is_contained(foldersWithoutProjectCode(), e.name) ||
          excluded(path, true, ignores))
        continue;
      if (!options.gitignore) {
        if (Error err = walk(path, shownPath, ignores))
          return err;
        continue;
      }
      PathPatterns inner = ignores;
      if (Error err = readGitignore(path, inner))
        return err;
      if (Error err = walk(path, shownPath, inner))
        return err;
    }
    return Error::success();
  }

private:
  const ProjectFileOptions &options;
  std::vector<std::string> &out;
  std::vector<std::string> *others;
};
} // namespace

Expected<std::vector<std::string>>
collectPythonFiles(ArrayRef<std::string> paths,
                   const ProjectFileOptions &options,
                   std::vector<std::string> *otherFiles) {
  std::vector<std::string> files, others;
  Walker walker(options, files, otherFiles ? &others : nullptr);
  for (const std::string &path : paths) {
    sys::fs::file_status st;
    if (std::error_code ec = sys::fs::status(path, st))
      return createStringError(inconvertibleErrorCode(),
                               path + ": error: " + ec.message());
    if (st.type() != sys::fs::file_type::directory_file) {
      // Named on the command line: analysed whatever its name or the
      // patterns say.
      files.push_back(path);
      continue;
    }
    std::string dir = absolute(path);
    PathPatterns ignores;
    if (options.gitignore)
      if (Error e = walker.readEnclosingGitignores(dir, ignores))
        return std::move(e);
    StringRef shown = path;
    while (shown.size() > 1 && shown.ends_with("/"))
      shown = shown.drop_back();
    if (Error e = walker.walk(dir, shown, ignores))
      return std::move(e);
  }
  // A file named twice, or inside two folders named, is analysed once.
  std::vector<std::string> unique;
  StringSet<> seen;
  for (std::string &f : files)
    if (seen.insert(absolute(f)).second)
      unique.push_back(std::move(f));
  if (otherFiles)
    for (std::string &f : others)
      if (seen.insert(absolute(f)).second)
        otherFiles->push_back(std::move(f));
  return unique;
}

} // namespace detc::base
