//===- LibrarySource.cpp - What library code draws, read from its source -===//
//
// A name is resolved the way CPython imports it (the longest dotted prefix
// that is a module file on the search path, then the module's definitions,
// imports, aliases and star imports), and its summary is the set of
// definitions reachable from it over the files' events, searched breadth
// first so that the chain reported for a draw is a shortest one. A search
// stops at the first draw; without one, the first thing it could not
// follow makes the answer Unknown. Tables first: a name a table models or
// a `quiet` declaration covers is never read.
//
//===----------------------------------------------------------------------===//

#include "detc/frontend/LibrarySource.h"

#include "CacheFile.h"
#include "FileSummary.h"
#include "../PointsTo/Program.h"

#include "detc/base/FileIO.h"
#include "detc/frontend/ApiModel.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"


using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::library;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

#ifndef DETC_VERSION
#define DETC_VERSION "dev"
#endif

/// Bump when FileSummary.cpp changes what it records: cached summaries of
/// an older summariser are then never read. A summary also records the
/// draws the API tables give any receiver (`*.bernoulli_`): the built-in
/// tables change with detc's version, which is in the key; a table added
/// with --api-table that declares a new one is not (--no-library-cache).
static constexpr unsigned kSummariserVersion = 4;

/// The most library files one search reads, and definitions it visits: a
/// name reaching further is Unknown (never reached by torchvision-sized
/// packages; a framework pulling in half of the standard library is).
static constexpr unsigned kMaxFilesPerSearch = 400;
static constexpr unsigned kMaxDefinitionsPerSearch = 20000;

std::string frontend::defaultLibraryCacheDir() {
  if (const char *d = std::getenv("DETC_CACHE_DIR"))
    return d;
  llvm::SmallString<256> dir;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = x;
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    dir = home;
    path::append(dir, ".cache");
  } else {
    return "";
  }
  path::append(dir, "detc");
  return std::string(dir);
}

// ---- Resolution ----

struct LibrarySource::Resolved {
  enum class Kind { Definition, Module, External, Unknown, NotFound };
  Kind kind = Kind::NotFound;
  const FileSummary *file = nullptr;
  std::string name; ///< Definition: its name; External: qualified.
  std::string why;  ///< Unknown.
  bool missingName = false; ///< Unknown: the module has no such name.
  /// Unknown: the module is a compiled extension (its names unknown).
  bool compiledModule = false;
};

LibrarySource::LibrarySource(const ApiModel &api, LibrarySourceOptions opts)
    : api(api), options(std::move(opts)) {}

LibrarySource::~LibrarySource() = default;

bool LibrarySource::findModuleFile(StringRef dotted, std::string &file,
                                   bool &isPackage) const {
  for (const std::string &dir : searchPath)
    if (pta::findIn(dir, dotted, file, isPackage))
      return true;
  return false;
}

/// The cache file for `module`'s file holding `bytes`.
static std::string cacheFile(StringRef dir, StringRef module, bool isPackage,
                             StringRef bytes) {
  std::string key = std::string(DETC_VERSION) + "\n" +
                    std::to_string(kSummariserVersion) + "\n" + module.str() +
                    (isPackage ? "\n1\n" : "\n0\n");
  uint64_t h = llvm::xxh3_64bits(llvm::arrayRefFromStringRef(key)) ^
               llvm::xxh3_64bits(llvm::arrayRefFromStringRef(bytes));
  llvm::SmallString<256> f(dir);
  path::append(f, "library-summaries", llvm::utohexstr(h, true, 16) + ".txt");
  return std::string(f);
}

std::optional<LibrarySummaryStore::Entry>
LibrarySummaryStore::find(StringRef module) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(module);
  if (it == entries.end())
    return std::nullopt;
  return it->second;
}

LibrarySummaryStore::Entry LibrarySummaryStore::keep(StringRef module,
                                                     Entry entry) {
  std::lock_guard<std::mutex> lock(mutex);
  return entries.try_emplace(module, std::move(entry)).first->second;
}

const FileSummary *LibrarySource::summaryOf(const std::string &module,
                                            bool *found) {
  *found = false;
  if (auto it = files.find(module); it != files.end()) {
    *found = true;
    return it->second.get();
  }
  // Resolution asks for the longest prefix of a name first
  // (`pandas.core.frame.DataFrame` before `pandas.core.frame`): a module
  // that is not there is looked for in every folder of the search path
  // once, not at every name (7 s of yolov5's hubconf.py, warm).
  if (missing.contains(module))
    return nullptr;
  // Another analysis of this process read it already.
  if (options.shared)
    if (std::optional<LibrarySummaryStore::Entry> e =
            options.shared->find(module)) {
      if (!e->found) {
        missing.insert(module);
        return nullptr;
      }
      *found = true;
      return (files[module] = e->summary).get();
    }
  LibrarySummaryStore::Entry entry = readSummary(module);
  if (options.shared)
    entry = options.shared->keep(module, std::move(entry));
  if (!entry.found) {
    missing.insert(module);
    return nullptr;
  }
  *found = true;
  return (files[module] = entry.summary).get();
}

LibrarySummaryStore::Entry
LibrarySource::readSummary(const std::string &module) {
  LibrarySummaryStore::Entry entry;
  std::string file;
  bool isPackage = false;
  if (!findModuleFile(module, file, isPackage))
    return entry;
  entry.found = true;
  llvm::Expected<std::string> bytes = base::readInputFile(file);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return entry;
  }
  ++summarised;
  std::string cached = options.cacheDir.empty()
                           ? std::string()
                           : cacheFile(options.cacheDir, module, isPackage,
                                       *bytes);
  if (!cached.empty()) {
    llvm::Expected<std::string> text = base::readInputFile(cached);
    if (text) {
      if (std::optional<FileSummary> s = deserialise(*text);
          s && s->module == module) {
        s->path = file;
        ++fromCache;
        entry.summary = std::make_shared<const FileSummary>(std::move(*s));
        return entry;
      }
    } else {
      llvm::consumeError(text.takeError());
    }
  }
  // Library code is read, not checked: its syntax errors are no user's.
  DiagnosticEngine quiet;
  std::unique_ptr<SourceFile> src =
      SourceFile::fromBytes(file, std::move(*bytes), quiet);
  if (!src)
    return entry;
  std::unique_ptr<ParsedModule> parsed = parseModule(*src, quiet);
  if (!parsed)
    return entry;
  auto summary = std::make_shared<const FileSummary>(
      summariseFile(*parsed, file, module, isPackage, api));
  if (!cached.empty())
    writeCacheFile(cached, serialise(*summary));
  entry.summary = std::move(summary);
  return entry;
}

/// True when the tables decide `qualified` (a modelled library's name, or
/// one under a `quiet` declaration): its source is never read.
static bool tablesDecide(const ApiModel &api, StringRef qualified) {
  return api.isLibraryName(qualified) || api.lookup(qualified) ||
         api.classifyUnmodelled(qualified) == ApiModel::Unmodelled::Quiet;
}

/// Whether package `pkg` holds a compiled module `name` (`name.so`,
/// `name.cpython-311-x86_64-linux-gnu.so`, `name.pyd`). Each package's
/// folder is listed once (a name missing from torch's `__init__` was a
/// listing of torch's folder each time: 25,000 directory reads for
/// yolov5's val.py).
bool LibrarySource::compiledExtension(const FileSummary &pkg, StringRef name) {
  if (!pkg.isPackage)
    return false;
  StringRef dir = path::parent_path(pkg.path);
  auto [it, added] = extensionModules.try_emplace(dir);
  if (added)
    pta::addCompiledModules(dir, it->second);
  return it->second.contains(name);
}

LibrarySource::Resolved LibrarySource::resolve(StringRef qualified,
                                               unsigned depth) {
  Resolved r;
  if (depth > 32) {
    r.kind = Resolved::Kind::Unknown;
    r.why = "'" + qualified.str() + "' is re-exported too many times";
    return r;
  }
  std::string canon = api.canonicalize(qualified);
  if (tablesDecide(api, canon)) {
    r.kind = Resolved::Kind::External;
    r.name = canon;
    return r;
  }
  llvm::SmallVector<StringRef> parts;
  StringRef(canon).split(parts, '.');
  for (size_t k = parts.size(); k > 0; --k) {
    std::string module = llvm::join(llvm::ArrayRef(parts).take_front(k), ".");
    bool found = false;
    const FileSummary *fsum = summaryOf(module, &found);
    if (!found)
      continue;
    if (!fsum) {
      r.kind = Resolved::Kind::Unknown;
      r.why = "module '" + module + "', whose source detc could not parse";
      return r;
    }
    if (k == parts.size()) {
      r.kind = Resolved::Kind::Module;
      r.file = fsum;
      return r;
    }
    StringRef name = parts[k];
    std::string rest;
    for (StringRef p : llvm::ArrayRef(parts).drop_front(k + 1))
      rest += "." + p.str();
    if (fsum->definitions.count(name)) {
      r.kind = Resolved::Kind::Definition;
      r.file = fsum;
      r.name = name.str();
      return r;
    }
    if (auto it = fsum->bindings.find(name); it != fsum->bindings.end())
      return resolve(it->second + rest, depth + 1);
    if (fsum->definitions.count("=" + name.str())) {
      r.kind = Resolved::Kind::Definition;
      r.file = fsum;
      r.name = "=" + name.str();
      return r;
    }
    // A compiled submodule of the package (`scipy.linalg.
    // _cythonized_array_utils`, whose names `__init__` star-imports): its
    // own name, not one the package's star imports re-export. Searching
    // them for it made `..._cythonized_array_utils._cythonized_array_utils
    // .logm` until "re-exported too many times".
    bool compiled = compiledExtension(*fsum, name);
    std::string compiledStar;
    for (size_t i = 0; !compiled && i < fsum->starModules.size(); ++i) {
      const std::string &star = fsum->starModules[i];
      Resolved s = resolve(star + "." + name.str() + rest, depth + 1);
      if (s.kind != Resolved::Kind::NotFound && !s.missingName)
        return s;
      if (s.compiledModule && compiledStar.empty())
        compiledStar = star;
    }
    r.kind = Resolved::Kind::Unknown;
    r.missingName = true;
    r.compiledModule = compiled;
    r.why = compiled ? "'" + module + "." + name.str() +
                           "', a compiled extension module, whose code detc "
                           "cannot read"
            : !compiledStar.empty()
                ? "'" + name.str() + "', which module '" + module +
                      "' may take from '" + compiledStar +
                      "', a compiled extension module it star-imports, "
                      "whose code detc cannot read"
                : "'" + name.str() + "', which module '" + module +
                      "' does not define where detc can see (made at run "
                      "time)";
    return r;
  }
  return r; // NotFound
}

LibraryEffect LibrarySource::classifyExternal(StringRef qualified) const {
  LibraryEffect e;
  if (const ApiEntry *entry = api.lookup(qualified)) {
    if (entry->role == "draw" || entry->role == "generator" ||
        (entry->role == "layer" && entry->has("dist"))) {
      e.kind = LibraryEffect::Kind::Draws;
      e.ownGenerator = entry->role == "generator";
      e.detail = entry->role == "generator"
                     ? "makes a generator of its own, '" + qualified.str() +
                           "'"
                     : "'" + qualified.str() + "'";
      return e;
    }
    e.kind = LibraryEffect::Kind::Pure;
    return e;
  }
  if (api.classifyUnmodelled(qualified) == ApiModel::Unmodelled::Quiet ||
      api.describes(qualified)) {
    e.kind = LibraryEffect::Kind::Pure;
    return e;
  }
  e.kind = LibraryEffect::Kind::Unknown;
  e.detail = "'" + qualified.str() + "', a name no API table describes";
  return e;
}

struct LibrarySource::Node {
  const FileSummary *file;
  std::string name;
  int parent; ///< Index in the search's node list; -1 for the start.
};

/// `HorizontalFlip` in `albumentations.augmentations.transforms`.
static std::string nodeName(const FileSummary &f, StringRef name) {
  return f.module + "." + (name.starts_with("=") ? name.drop_front() : name)
                              .str();
}

LibraryEffect LibrarySource::reach(const Resolved &start, StringRef role) {
  std::vector<Node> nodes{{start.file, start.name, -1}};
  llvm::StringSet<> seen{nodeName(*start.file, start.name)};
  llvm::StringSet<> filesRead{start.file->path};
  std::optional<LibraryEffect> unknown;
  auto chain = [&](int at) {
    std::vector<std::string> names;
    for (int i = at; i >= 0; i = nodes[i].parent)
      names.push_back(nodeName(*nodes[i].file, nodes[i].name));
    std::string s;
    for (const std::string &n : llvm::reverse(names))
      s += (s.empty() ? "" : " -> ") + n;
    return s;
  };
  auto where = [](const FileSummary &f, unsigned line) {
    return f.path + ":" + std::to_string(line);
  };
  auto noteUnknown = [&](const std::string &what, const FileSummary &f,
                         unsigned line, int at) {
    if (unknown)
      return;
    unknown = LibraryEffect{LibraryEffect::Kind::Unknown,
                            "library code that detc followed until " + what +
                                " at " + where(f, line) + " (through " +
                                chain(at) + ")"};
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes.size() > kMaxDefinitionsPerSearch ||
        filesRead.size() > kMaxFilesPerSearch)
      return {LibraryEffect::Kind::Unknown,
              "more library code than detc follows for one call (" +
                  std::to_string(filesRead.size()) + " files)"};
    const FileSummary &file = *nodes[i].file;
    auto def = file.definitions.find(nodes[i].name);
    if (def == file.definitions.end())
      continue;
    for (const Event &ev : def->getValue().events) {
      auto draws = [&](const std::string &what, bool own = false) {
        return LibraryEffect{LibraryEffect::Kind::Draws,
                             what + " at " + where(file, ev.line) +
                                 " (through " + chain(int(i)) + ")",
                             own};
      };
      Resolved r;
      switch (ev.kind) {
      case Event::Kind::Draw:
        // A draw is no call of the role looked for (a model class whose
        // weight initialisation draws makes no loader).
        if (!role.empty())
          continue;
        return draws("'" + ev.text + "'");
      case Event::Kind::Unknown:
        noteUnknown(ev.text, file, ev.line, int(i));
        continue;
      case Event::Kind::Local:
        r.kind = Resolved::Kind::Definition;
        r.file = &file;
        r.name = ev.text;
        break;
      case Event::Kind::External:
        r = resolve(ev.text, 0);
        break;
      case Event::Kind::Star: {
        r.kind = Resolved::Kind::NotFound;
        for (const std::string &star : file.starModules) {
          Resolved s = resolve(star + "." + ev.text, 0);
          if (s.kind != Resolved::Kind::NotFound && !s.missingName) {
            r = s;
            break;
          }
        }
        if (r.kind == Resolved::Kind::NotFound) // a builtin
          continue;
        break;
      }
      }
      switch (r.kind) {
      case Resolved::Kind::Definition: {
        std::string key = nodeName(*r.file, r.name);
        if (seen.insert(key).second) {
          nodes.push_back({r.file, r.name, int(i)});
          filesRead.insert(r.file->path);
        }
        break;
      }
      case Resolved::Kind::Module:
        break; // a module mentioned runs nothing
      case Resolved::Kind::External: {
        if (!role.empty()) { // looking for a call of that role
          const ApiEntry *entry = api.lookup(r.name);
          if (entry && entry->role == role)
            return draws("'" + r.name + "'");
          break;
        }
        LibraryEffect e = classifyExternal(r.name);
        if (e.kind == LibraryEffect::Kind::Draws)
          return draws(e.detail, e.ownGenerator);
        if (e.kind == LibraryEffect::Kind::Unknown)
          noteUnknown(e.detail, file, ev.line, int(i));
        break;
      }
      case Resolved::Kind::Unknown:
        noteUnknown(r.why, file, ev.line, int(i));
        break;
      case Resolved::Kind::NotFound:
        // A module the interpreter cannot import at all (six's Python 2
        // branch: `import StringIO; BytesIO = StringIO.StringIO`): that
        // import raised where this code ran, so nothing past it ran.
        if (absentModule(StringRef(ev.text).split('.').first))
          break;
        noteUnknown("'" + ev.text + "', which has no Python source on " +
                        options.python + "'s search path",
                    file, ev.line, int(i));
        break;
      }
    }
  }
  if (unknown)
    return *unknown;
  return {LibraryEffect::Kind::Pure, ""};
}

bool LibrarySource::absentModule(StringRef top) {
  ensureSearchPath();
  if (!modulesWithoutSourceKnown) {
    modulesWithoutSourceKnown = true;
    InterpreterModules im =
        interpreterModules(options.python, options.cacheDir);
    anyModuleMayExist = im.elsewhere || searchPath.empty();
    for (const std::string &b : im.builtins)
      modulesWithoutSource.insert(b);
    for (const std::string &dir : searchPath) {
      pta::addCompiledModules(dir, modulesWithoutSource);
      // Folders: packages without `__init__.py` (namespace packages).
      std::error_code ec;
      for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
           it.increment(ec))
        if (it->type() == fs::file_type::directory_file)
          modulesWithoutSource.insert(path::filename(it->path()));
    }
  }
  if (anyModuleMayExist || modulesWithoutSource.contains(top))
    return false;
  bool found = false;
  summaryOf(top.str(), &found);
  return !found;
}

void LibrarySource::ensureSearchPath() {
  if (searchPathKnown)
    return;
  searchPath = interpreterSearchPath(options.python, options.cacheDir);
  searchPathKnown = true;
}

LibraryEffect LibrarySource::effectOfCall(StringRef qualified) {
  if (options.python.empty())
    return {};
  if (auto it = memo.find(qualified); it != memo.end())
    return it->second;
  ensureSearchPath();
  LibraryEffect e;
  Resolved r = resolve(qualified, 0);
  switch (r.kind) {
  case Resolved::Kind::NotFound:
    break;
  case Resolved::Kind::External:
    e = classifyExternal(r.name);
    break;
  case Resolved::Kind::Module:
    e = {LibraryEffect::Kind::Unknown,
         "module '" + r.file->module + "', called as a function"};
    break;
  case Resolved::Kind::Unknown:
    e = {LibraryEffect::Kind::Unknown, "library code: " + r.why};
    break;
  case Resolved::Kind::Definition:
    e = reach(r);
    break;
  }
  memo[qualified] = e;
  return e;
}

std::optional<std::string> LibrarySource::callOfRole(StringRef qualified,
                                                     StringRef role) {
  if (options.python.empty())
    return std::nullopt;
  ensureSearchPath();
  Resolved r = resolve(qualified, 0);
  if (r.kind != Resolved::Kind::Definition)
    return std::nullopt;
  LibraryEffect e = reach(r, role);
  if (e.kind != LibraryEffect::Kind::Draws)
    return std::nullopt;
  return e.detail;
}

std::string LibrarySource::baseOfRole(StringRef qualified, StringRef role) {
  return baseWhere(
      qualified, [&](const ApiEntry &e) { return e.role == role; }, 0);
}

std::string LibrarySource::describedBase(StringRef qualified) {
  return baseWhere(qualified, [](const ApiEntry &) { return true; }, 0);
}

std::string
LibrarySource::baseWhere(StringRef qualified,
                         llvm::function_ref<bool(const ApiEntry &)> accept,
                         unsigned depth) {
  if (options.python.empty() || depth > 16)
    return "";
  ensureSearchPath();
  Resolved r = resolve(qualified, 0);
  if (r.kind != Resolved::Kind::Definition)
    return "";
  const Definition &d = r.file->definitions.find(r.name)->getValue();
  if (d.kind != Definition::Kind::Class)
    return "";
  for (const Event &b : d.bases) {
    std::string base;
    if (b.kind == Event::Kind::External)
      base = b.text;
    else if (b.kind == Event::Kind::Local)
      base = r.file->module + "." + b.text;
    else
      continue;
    std::string canon = api.canonicalize(base);
    if (const ApiEntry *e = api.lookup(canon); e && accept(*e))
      return canon;
    if (std::string deeper = baseWhere(base, accept, depth + 1);
        !deeper.empty())
      return deeper;
  }
  return "";
}

LibraryEffect LibrarySource::effectOfResult(StringRef qualified) {
  if (options.python.empty())
    return {};
  ensureSearchPath();
  Resolved r = resolve(qualified, 0);
  std::string name = qualified.str();
  // A value assigned from one name (six's `BytesIO = io.BytesIO`, its
  // Python 2 alternative importing a module this interpreter lacks): what
  // that name returns.
  for (unsigned depth = 0; depth < 8 && r.kind == Resolved::Kind::Definition;
       ++depth) {
    const Definition &d = r.file->definitions.find(r.name)->getValue();
    if (d.kind != Definition::Kind::Value)
      break;
    std::vector<StringRef> names;
    for (const Event &ev : d.events)
      if (ev.kind != Event::Kind::External)
        names.push_back(""); // not a name alone
      else if (!absentModule(StringRef(ev.text).split('.').first))
        names.push_back(ev.text);
    if (names.size() != 1 || names.front().empty())
      break;
    name = names.front().str();
    r = resolve(name, 0);
  }
  if (r.kind == Resolved::Kind::NotFound)
    return {};
  // A name the tables decide: a quiet module's value, whose methods run
  // that module's code, or a described type's.
  if (r.kind == Resolved::Kind::External &&
      classifyExternal(r.name).kind == LibraryEffect::Kind::Pure)
    return {LibraryEffect::Kind::Pure, ""};
  // A class's instance: what constructing it and using it may do (the
  // memoised answer for calling the class).
  if (r.kind == Resolved::Kind::Definition &&
      r.file->definitions.find(r.name)->getValue().kind ==
          Definition::Kind::Class)
    return effectOfCall(name);
  return {LibraryEffect::Kind::Unknown,
          "a value '" + qualified.str() +
              "' returned, of a type detc does not know"};
}
