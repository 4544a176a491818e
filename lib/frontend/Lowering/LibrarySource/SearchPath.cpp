//===- SearchPath.cpp - The module search path of the user's Python -------===//
//
// Starting an interpreter to print its sys.path takes 15 ms for a venv's
// python and over 100 ms through a pyenv shim, once per detc process: a
// project or a test corpus analysed file by file pays it thousands of
// times. The answer is kept in the cache, keyed by what it depends on (the
// interpreter found, its modification time, the folder detc runs in and
// the environment variables Python and its managers read), and is used
// only while every folder of it has the modification time it had then:
// installing or removing a package (a `.pth` file included) changes its
// site-packages folder, and the interpreter is asked again.
//
//===----------------------------------------------------------------------===//

#include "CacheFile.h"

#include "detc/base/FileIO.h"
#include "detc/frontend/LibrarySource.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <map>
#include <mutex>

using namespace detc;
using namespace detc::frontend;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static constexpr StringRef kMagic = "detc-search-path 2";

/// What sys.path depends on besides the interpreter's own files.
static const char *const kEnvironment[] = {
    "PYTHONPATH",    "PYTHONHOME",  "PYTHONNOUSERSITE", "PYTHONUSERBASE",
    "PYTHONSAFEPATH", "PYENV_VERSION", "VIRTUAL_ENV",    "CONDA_PREFIX",
    "HOME",          "PATH"};

/// The modification time of `p` in nanoseconds, or -1.
static int64_t modified(StringRef p) {
  fs::file_status st;
  if (fs::status(p, st))
    return -1;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             st.getLastModificationTime().time_since_epoch())
      .count();
}

static std::string cacheKeyFile(StringRef cacheDir, StringRef python,
                                StringRef program) {
  std::string key = kMagic.str() + "\n" + python.str() + "\n" +
                    program.str() + "\n" +
                    std::to_string(modified(program)) + "\n";
  llvm::SmallString<256> cwd;
  if (!fs::current_path(cwd))
    key += std::string(cwd) + "\n";
  for (const char *var : kEnvironment) {
    const char *v = std::getenv(var);
    key += std::string(var) + "=" + (v ? v : "\x01") + "\n";
  }
  llvm::SmallString<256> f(cacheDir);
  path::append(f, "search-paths",
               llvm::utohexstr(llvm::xxh3_64bits(
                                   llvm::arrayRefFromStringRef(key)),
                               true, 16) +
                   ".txt");
  return std::string(f);
}

namespace {
/// What one interpreter answers: its search path and the rest of
/// InterpreterModules.
struct Probe {
  std::vector<std::string> dirs;
  InterpreterModules modules;
};
} // namespace

/// The cached answer, if every folder of it is as it was.
static std::optional<Probe> readCached(const std::string &file) {
  llvm::Expected<std::string> text = base::readInputFile(file, 1 << 20);
  if (!text) {
    llvm::consumeError(text.takeError());
    return std::nullopt;
  }
  StringRef rest = *text, first;
  std::tie(first, rest) = rest.split('\n');
  if (first != kMagic)
    return std::nullopt;
  Probe p;
  while (!rest.empty()) {
    StringRef line;
    std::tie(line, rest) = rest.split('\n');
    auto [time, dir] = line.split('\t');
    if (time == "builtins") {
      llvm::SmallVector<StringRef> names;
      dir.split(names, ' ', -1, false);
      for (StringRef n : names)
        p.modules.builtins.push_back(n.str());
      continue;
    }
    if (time == "elsewhere") {
      p.modules.elsewhere = dir == "1";
      continue;
    }
    int64_t was;
    if (time.getAsInteger(10, was) || dir.empty() || modified(dir) != was)
      return std::nullopt;
    p.dirs.push_back(dir.str());
  }
  return p;
}

/// Starts `program` to print its sys.path (the absolute folders, in
/// order), its built-in modules, and whether modules may come from
/// elsewhere (a zip or egg on sys.path, a meta-path finder of a package's:
/// setuptools' editable installs).
static Probe askInterpreter(StringRef program) {
  Probe p;
  std::vector<std::string> &dirs = p.dirs;
  llvm::SmallString<128> out;
  if (fs::createTemporaryFile("detc-sys-path", "txt", out))
    return p;
  // sys.path as the interpreter starts (site-packages, .pth files,
  // PYTHONPATH); no module of the user's is imported (`-c` puts the
  // current folder on sys.path after startup, so a `sitecustomize.py`
  // there is not run either). Of the meta-path finders, CPython's own and
  // setuptools' distutils shim (it provides `distutils` alone) find modules
  // only where the search path says.
  llvm::SmallVector<StringRef, 4> args{
      program, "-c",
      "import os, sys\n"
      "print('\\x01builtins\\t' + ' '.join(sys.builtin_module_names))\n"
      "own = {'BuiltinImporter', 'FrozenImporter', 'PathFinder',\n"
      "       'DistutilsMetaFinder'}\n"
      "other = any(type(f).__name__ not in own and\n"
      "            getattr(f, '__name__', '') not in own\n"
      "            for f in sys.meta_path)\n"
      "other = other or any(p and os.path.exists(p) and not os.path.isdir(p)\n"
      "                     for p in sys.path)\n"
      "print('\\x01elsewhere\\t' + ('1' if other else '0'))\n"
      "for p in sys.path: print(p)"};
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(out),
                                          StringRef("")};
  int status = llvm::sys::ExecuteAndWait(program, args, std::nullopt,
                                         redirects, /*SecondsToWait=*/30);
  llvm::Expected<std::string> text = base::readInputFile(out, 1 << 20);
  fs::remove(out);
  if (status != 0 || !text) {
    if (!text)
      llvm::consumeError(text.takeError());
    return p;
  }
  llvm::SmallVector<StringRef> lines;
  StringRef(*text).split(lines, '\n', -1, false);
  for (StringRef l : lines) {
    l = l.rtrim("\r");
    if (l.consume_front("\x01" "builtins\t")) {
      llvm::SmallVector<StringRef> names;
      l.split(names, ' ', -1, false);
      for (StringRef n : names)
        p.modules.builtins.push_back(n.str());
    } else if (l.consume_front("\x01" "elsewhere\t")) {
      p.modules.elsewhere = l == "1";
    } else if (path::is_absolute(l) && fs::is_directory(l) &&
               !llvm::is_contained(dirs, l)) {
      dirs.push_back(l.str());
    }
  }
  return p;
}

std::string frontend::defaultPythonInterpreter() {
  if (const char *env = std::getenv("DETC_PYTHON"); env && *env)
    return env;
  return "python3";
}

llvm::ErrorOr<std::string> frontend::findPythonInterpreter(StringRef python) {
  return python.contains('/') ? llvm::ErrorOr<std::string>(python.str())
                              : llvm::sys::findProgramByName(python);
}

/// The interpreter's answer, asked once per process and interpreter.
static const Probe &probe(StringRef python, StringRef cacheDir) {
  static std::mutex lock;
  static std::map<std::string, Probe> known;
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = known.find(python.str()); it != known.end())
    return it->second;
  Probe &p = known[python.str()];
  llvm::ErrorOr<std::string> program = findPythonInterpreter(python);
  if (!program)
    return p;
  std::string cached =
      cacheDir.empty() ? "" : cacheKeyFile(cacheDir, python, *program);
  if (!cached.empty())
    if (std::optional<Probe> c = readCached(cached)) {
      p = std::move(*c);
      return p;
    }
  p = askInterpreter(*program);
  if (!cached.empty() && !p.dirs.empty()) {
    std::string text = kMagic.str() + "\n";
    text += "builtins\t" + llvm::join(p.modules.builtins, " ") + "\n";
    text += std::string("elsewhere\t") + (p.modules.elsewhere ? "1" : "0") +
            "\n";
    for (const std::string &d : p.dirs)
      text += std::to_string(modified(d)) + "\t" + d + "\n";
    library::writeCacheFile(cached, text);
  }
  return p;
}

std::vector<std::string> frontend::interpreterSearchPath(StringRef python,
                                                         StringRef cacheDir) {
  return probe(python, cacheDir).dirs;
}

InterpreterModules frontend::interpreterModules(StringRef python,
                                                StringRef cacheDir) {
  return probe(python, cacheDir).modules;
}
