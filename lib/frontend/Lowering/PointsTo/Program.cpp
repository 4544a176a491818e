//===- Program.cpp - The Python files the points-to analysis reads --------===//

#include "Program.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace detc::frontend;
using namespace detc::frontend::pta;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

bool pta::isInstalledLibrary(llvm::StringRef file) {
  llvm::SmallString<256> real;
  if (fs::real_path(file, real))
    real = file;
  llvm::StringRef r = real;
  return r.contains("/site-packages/") || r.contains("/dist-packages/") ||
         r.starts_with("/usr/lib/python3") ||
         r.starts_with("/usr/local/lib/python3");
}

ProgramModule *Program::load(const std::string &file, const std::string &name,
                             bool isPackage) {
  lastFile = file;
  lastName = name;
  llvm::SmallString<256> real;
  std::string key = fs::real_path(file, real) ? file : std::string(real);
  if (auto it = byPath.find(key); it != byPath.end()) {
    brokenFile = !it->second;
    return it->second;
  }
  if (!all.empty() && isInstalledLibrary(file)) {
    skippedLibrary = true;
    return nullptr;
  }
  auto m = std::make_unique<ProgramModule>();
  m->name = name;
  m->path = file;
  m->isPackage = isPackage;
  byPath[key] = nullptr; // a module that fails to load is tried once
  // An imported module that does not parse is a module detc cannot see
  // (the lowering warns about it once); only the script's own syntax
  // errors stop the analysis.
  DiagnosticEngine imported;
  const ParseCache::Entry &e =
      cache.get(file, name == "__main__" ? diags : imported);
  if (!e.file || !e.parsed) {
    brokenFile = true;
    return nullptr;
  }
  m->file = e.file.get();
  m->parsed = e.parsed.get();
  ProgramModule *raw = m.get();
  byPath[key] = raw;
  all.push_back(std::move(m));
  return raw;
}

/// How many folders up from `dir` the project holding it lies (the nearest
/// folder with pyproject.toml, setup.py, setup.cfg or .git), or -1.
static int projectLevelsUp(llvm::StringRef dir) {
  llvm::SmallString<256> d(dir);
  if (fs::make_absolute(d))
    return -1;
  path::remove_dots(d, /*remove_dot_dot=*/true);
  for (int up = 0; up < 16 && !d.empty(); ++up) {
    for (const char *marker :
         {"pyproject.toml", "setup.py", "setup.cfg", ".git"}) {
      llvm::SmallString<256> m(d);
      path::append(m, marker);
      if (fs::exists(m))
        return up;
    }
    llvm::StringRef parent = path::parent_path(d);
    if (parent == d || parent.empty())
      break;
    d = parent;
  }
  return -1;
}

ProgramModule *Program::loadMain(llvm::StringRef file) {
  mainDir = path::parent_path(file).str();
  if (mainDir.empty())
    mainDir = ".";
  projectDir = mainDir;
  // A script in a subfolder of a project imports the project's packages
  // as its users have them, installed from the project (`pip install -e
  // .`: minGPT's projects/adder/adder.py imports `mingpt`): the project's
  // folder and its src/ (a src layout) come after the search path, named
  // from the script's folder as the user wrote it.
  if (int up = projectLevelsUp(mainDir); up >= 0) {
    llvm::SmallString<256> root(mainDir);
    for (int i = 0; i < up; ++i)
      path::append(root, "..");
    path::remove_dots(root, /*remove_dot_dot=*/true);
    if (root.empty())
      root = ".";
    projectDir = std::string(root);
    llvm::SmallString<256> src(root);
    path::append(src, "src");
    for (llvm::StringRef d : {llvm::StringRef(root), llvm::StringRef(src)})
      if ((up > 0 || d == src) && fs::is_directory(d) &&
          !llvm::is_contained(searchPath, d))
        searchPath.push_back(d.str());
  } else {
    // No project folder marked (a downloaded archive has no .git): the
    // script's src/, the folder above the script's and its src/, where a
    // script in a subfolder finds its project's packages when its `import
    // _init_paths` puts `..` on sys.path through a helper detc does not
    // follow (bearpaw/pytorch-pose's example/main.py importing `pose`),
    // or its users run it with PYTHONPATH=.. .
    llvm::SmallString<256> above(mainDir);
    path::append(above, "..");
    path::remove_dots(above, /*remove_dot_dot=*/true);
    llvm::SmallString<256> ownSrc(mainDir), aboveSrc(above);
    path::append(ownSrc, "src");
    path::append(aboveSrc, "src");
    for (llvm::StringRef d : {ownSrc.str(), above.str(), aboveSrc.str()})
      if (!d.empty() && fs::is_directory(d) &&
          !llvm::is_contained(searchPath, d))
        searchPath.push_back(d.str());
  }
  // The `lib/` layout of detection and pose-estimation projects (Detectron,
  // HRNet, fast_adversarial's ImageNet): `import _init_paths` (or
  // `init_paths`, a file often left out of the repository) puts a `lib/`
  // beside the script or beside its folder on sys.path, through a helper
  // detc does not follow; then `from utils import *` is lib/utils.py. Last:
  // only what nothing before finds.
  llvm::SmallVector<llvm::SmallString<256>, 2> libs;
  libs.emplace_back(mainDir);
  libs.emplace_back(mainDir);
  path::append(libs[0], "lib");
  path::append(libs[1], "..", "lib");
  for (llvm::SmallString<256> &d : libs) {
    path::remove_dots(d, /*remove_dot_dot=*/true);
    if (fs::is_directory(d) && !llvm::is_contained(searchPath, d.str()))
      searchPath.push_back(d.str().str());
  }
  return load(file.str(), "__main__", false);
}

/// The top-level class and function names `text` defines (lines
/// `class N`, `def N`, `async def N` at column 0).
static void topLevelDefinitions(llvm::StringRef text,
                                llvm::SmallVectorImpl<llvm::StringRef> &out) {
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    for (llvm::StringRef kw : {"class ", "def ", "async def "}) {
      if (!line.consume_front(kw))
        continue;
      llvm::StringRef name = line.take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_'; });
      if (!name.empty())
        out.push_back(name);
      break;
    }
  }
}

std::vector<ProgramModule *> Program::modulesDefining(llvm::StringRef name,
                                                      size_t limit) {
  if (!definitionsIndexed) {
    definitionsIndexed = true;
    // Bounded: a project is not its virtual environment or its data (a
    // folder of a million images is walked no further than this).
    constexpr size_t kMaxFiles = 20000, kMaxEntries = 200000,
                     kMaxBytes = 4 << 20;
    size_t files = 0, entries = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(projectDir, ec), end;
         it != end && !ec && files < kMaxFiles && entries < kMaxEntries;
         it.increment(ec), ++entries) {
      llvm::StringRef p = it->path();
      llvm::StringRef leaf = path::filename(p);
      if (it->type() == fs::file_type::directory_file) {
        llvm::SmallString<256> venv(p);
        path::append(venv, "pyvenv.cfg");
        if (leaf.starts_with(".") || leaf == "__pycache__" ||
            leaf == "site-packages" || leaf == "node_modules" ||
            it.level() > 8 || fs::exists(venv))
          it.no_push();
        continue;
      }
      if (!leaf.ends_with(".py"))
        continue;
      ++files;
      auto buf = llvm::MemoryBuffer::getFile(p, /*IsText=*/true);
      if (!buf || (*buf)->getBufferSize() > kMaxBytes)
        continue;
      llvm::SmallVector<llvm::StringRef, 32> names;
      topLevelDefinitions((*buf)->getBuffer(), names);
      for (llvm::StringRef n : names) {
        std::vector<std::string> &in = definedIn[n];
        if (in.empty() || in.back() != p)
          in.push_back(p.str());
      }
    }
    for (auto &entry : definedIn)
      llvm::sort(entry.second); // one order, whatever the folders'
  }
  std::vector<ProgramModule *> out;
  auto it = definedIn.find(name);
  if (it == definedIn.end() || it->second.size() > limit || all.empty())
    return out;
  for (const std::string &file : it->second) {
    // Its name as an import from the script's folder or the search path
    // finds it; else its file name (the folder put on sys.path first:
    // `sys.path.append(os.path.dirname(f))`, YOLOX's experiment files).
    ProgramModule *m = nullptr;
    llvm::SmallString<256> real;
    if (fs::real_path(file, real))
      real = file;
    std::vector<std::string> bases{mainDir};
    bases.insert(bases.end(), searchPath.begin(), searchPath.end());
    bases.push_back(projectDir);
    for (const std::string &b : bases) {
      llvm::SmallString<256> base;
      if (fs::real_path(b, base))
        continue;
      llvm::StringRef rel = real;
      if (!rel.consume_front(base) || !rel.consume_front("/"))
        continue;
      rel.consume_back(".py");
      rel.consume_back("/__init__");
      if (rel.contains('.') || rel.contains('-'))
        continue;
      std::string dotted = rel.str();
      std::replace(dotted.begin(), dotted.end(), '/', '.');
      ProgramModule *r = resolve(*all.front(), dotted, 0, nullptr);
      llvm::SmallString<256> found;
      if (r && !fs::real_path(r->path, found) && found == real) {
        m = r;
        break;
      }
    }
    if (!m && !isInstalledLibrary(file))
      m = load(file, path::stem(file).str(), false);
    if (m && !llvm::is_contained(out, m))
      out.push_back(m);
  }
  return out;
}

void pta::addCompiledModules(llvm::StringRef dir, llvm::StringSet<> &out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef f = path::filename(it->path());
    if (f.ends_with(".so") || f.ends_with(".pyd"))
      out.insert(f.split('.').first);
  }
}

bool Program::isInstalledModule(llvm::StringRef dotted) const {
  if (standardLibrary && standardLibrary(dotted.split('.').first))
    return true;
  std::string file;
  bool isPackage = false;
  for (const std::string &d : installedPath)
    if (findIn(d, dotted, file, isPackage))
      return true;
  // A compiled module (`zlib`, `array` in the standard library's
  // lib-dynload, `name.cpython-311-x86_64-linux-gnu.so`): the folders'
  // compiled top-level modules, listed once. (A module built into the
  // interpreter has no file: it stays unresolved unless a table knows it.)
  if (!compiledListed) {
    compiledListed = true;
    for (const std::string &d : installedPath)
      addCompiledModules(d, compiledModules);
  }
  return compiledModules.contains(dotted.split('.').first);
}

void Program::addSearchDir(llvm::StringRef dir) {
  llvm::SmallString<256> full;
  if (path::is_absolute(dir)) {
    full = dir;
  } else {
    full = mainDir;
    path::append(full, dir);
  }
  path::remove_dots(full, /*remove_dot_dot=*/true);
  for (const std::string &d : searchPath)
    if (d == full)
      return;
  searchPath.push_back(std::string(full));
}

bool pta::findIn(llvm::StringRef dir, llvm::StringRef dotted,
                   std::string &file, bool &isPackage) {
  llvm::SmallString<256> base(dir);
  llvm::SmallVector<llvm::StringRef> parts;
  dotted.split(parts, '.');
  for (llvm::StringRef p : parts)
    path::append(base, p);
  // `conf/x.py`, not `./conf/x.py`: one spelling per file, so that a
  // project's report merges what several scripts find in one module.
  path::remove_dots(base, /*remove_dot_dot=*/false);
  llvm::SmallString<256> init(base);
  path::append(init, "__init__.py");
  if (fs::is_regular_file(init)) {
    file = std::string(init);
    isPackage = true;
    return true;
  }
  base += ".py";
  if (fs::is_regular_file(base)) {
    file = std::string(base);
    isPackage = false;
    return true;
  }
  return false;
}

/// The folder above the outermost package holding `dir` (`.` for
/// `conf/` with a `conf/__init__.py`), or empty when `dir` is no package:
/// where CPython finds the package's absolute imports (`import
/// conf.global_settings` inside `conf/__init__.py`) when a script of the
/// project imports it.
static std::string packageRoot(llvm::StringRef dir) {
  llvm::SmallString<256> d(dir);
  bool inPackage = false;
  for (int depth = 0; depth < 64; ++depth) {
    llvm::SmallString<256> init(d);
    path::append(init, "__init__.py");
    if (!fs::is_regular_file(init))
      break;
    inPackage = true;
    // Up one folder, also from the folder detc runs in (a script inside
    // its package, run there: PyTorch-YOLOv3's `pytorchyolo/train.py`
    // imports `pytorchyolo.models`, found from `..`).
    llvm::StringRef name = path::filename(d);
    if (name == ".")
      d = "..";
    else if (name == "..")
      path::append(d, "..");
    else if (path::parent_path(d).empty())
      d = ".";
    else
      d = path::parent_path(d).str();
  }
  return inPackage ? std::string(d) : std::string();
}

ProgramModule *Program::resolve(const ProgramModule &from,
                                llvm::StringRef dotted, unsigned level,
                                std::vector<std::string> *looked) {
  ProgramModule *m = resolveOne(from, dotted, level, looked);
  if (m)
    loadEnclosingPackages(*m);
  return m;
}

void Program::loadEnclosingPackages(const ProgramModule &m) {
  // Importing `a.b.c` runs `a/__init__.py` and `a/b/__init__.py` too: a
  // package's `__init__` may register what the program looks up later
  // (Microsoft's USB imports every algorithm module from
  // `semilearn/core/__init__.py`). They are the folders above the module
  // found (a search by the parents' names could find another file:
  // x-transformers' `x_transformers/x_transformers.py` beside its
  // importer). What the caller asks of the last resolution stays the
  // module's.
  bool library = skippedLibrary, broken = brokenFile;
  std::string file = lastFile, name = lastName;
  llvm::StringRef package = m.name;
  llvm::SmallString<256> dir = path::parent_path(m.path);
  if (m.isPackage)
    dir = path::parent_path(dir);
  while (package.contains('.')) {
    package = package.rsplit('.').first;
    llvm::SmallString<256> init(dir);
    path::append(init, "__init__.py");
    if (dir.empty() || !fs::is_regular_file(init))
      break;
    load(std::string(init), package.str(), true);
    dir = path::parent_path(dir);
  }
  skippedLibrary = library;
  brokenFile = broken;
  lastFile = std::move(file);
  lastName = std::move(name);
}

ProgramModule *Program::resolveOne(const ProgramModule &from,
                                   llvm::StringRef dotted, unsigned level,
                                   std::vector<std::string> *looked) {
  skippedLibrary = false;
  brokenFile = false;
  std::string file;
  bool isPackage = false;
  if (level > 0) {
    // Relative: the importing module's package, `level - 1` levels up.
    llvm::SmallString<256> dir = path::parent_path(from.path);
    if (dir.empty())
      dir = ".";
    std::string package = from.name;
    if (!from.isPackage)
      package = llvm::StringRef(package).rsplit('.').first.str();
    for (unsigned i = 1; i < level; ++i) {
      dir = path::parent_path(dir);
      package = llvm::StringRef(package).rsplit('.').first.str();
    }
    if (looked)
      looked->push_back(std::string(dir));
    if (dotted.empty()) {
      llvm::SmallString<256> init(dir);
      path::append(init, "__init__.py");
      if (!fs::is_regular_file(init))
        return nullptr;
      return load(std::string(init), package.empty() ? "__pkg__" : package,
                  true);
    }
    if (!findIn(dir, dotted, file, isPackage))
      return nullptr;
    std::string name = package.empty() || package == "__main__"
                           ? dotted.str()
                           : package + "." + dotted.str();
    return load(file, name, isPackage);
  }
  // Absolute: the script's directory (CPython's sys.path[0]), the
  // importing file's directory (a module next to the importer is what
  // projects run from elsewhere mean), then the search path.
  std::vector<std::string> dirs{mainDir};
  std::string own = path::parent_path(from.path).str();
  if (own.empty())
    own = ".";
  // The importer's folder is not on sys.path unless it is the script's: a
  // module there comes after the script's folder (FastSpeech2's
  // utils/model.py imports the package `model` beside the script, not
  // itself), and after an installed module (i-jepa's
  // src/utils/distributed.py imports the standard library's `logging`,
  // not its neighbour src/utils/logging.py).
  if (!isInstalledModule(dotted.split('.').first) &&
      !llvm::is_contained(dirs, own))
    dirs.push_back(own);
  // The project's top folder as seen from a module inside a package.
  std::string root = packageRoot(own);
  if (!root.empty() && !llvm::is_contained(dirs, root))
    dirs.push_back(root);
  for (const std::string &d : searchPath)
    if (!llvm::is_contained(dirs, d))
      dirs.push_back(d);
  for (const std::string &d : dirs) {
    if (looked)
      looked->push_back(d);
    if (findIn(d, dotted, file, isPackage))
      return load(file, dotted.str(), isPackage);
  }
  // A package of the project further up than a marked project's folder
  // or the folder above the script (torchdistill's
  // examples/torchvision/image_classification.py importing `torchdistill`,
  // in a copy without setup.py or .git): the nearest folder above the
  // script holding a package of that name, then searched as the project's
  // (only a package: a module file of a common name further up is too
  // likely another's).
  llvm::StringRef top = dotted.split('.').first;
  if (isInstalledModule(top))
    return nullptr;
  llvm::SmallString<256> up(mainDir);
  for (int level = 0; level < 6; ++level) {
    path::append(up, "..");
    llvm::SmallString<256> dir(up);
    path::remove_dots(dir, /*remove_dot_dot=*/true);
    if (dir.empty() || llvm::is_contained(dirs, dir.str()))
      continue;
    llvm::SmallString<256> init(dir);
    path::append(init, top, "__init__.py");
    if (!fs::is_regular_file(init))
      continue;
    if (looked)
      looked->push_back(std::string(dir));
    searchPath.push_back(std::string(dir));
    if (findIn(dir, dotted, file, isPackage))
      return load(file, dotted.str(), isPackage);
    return nullptr;
  }
  return nullptr;
}
