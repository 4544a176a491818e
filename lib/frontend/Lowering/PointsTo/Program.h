//===- Program.h - The Python files the points-to analysis reads -*- C++ -*-===//
//
// The main script and the local modules it imports, found the way CPython
// finds them: next to the importing file (and the script), in packages
// (`pkg/__init__.py`, relative imports), in `--path` directories and
// PYTHONPATH entries, and in directories a script adds with a constant
// `sys.path.insert(0, 'dir')` / `sys.path.append('dir')`.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H

#include "detc/frontend/ParseCache.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace detc::frontend::pta {

/// Installed library code (the standard library, site/dist-packages): not
/// part of the user's program. The API tables model what matters of it, or
/// its source is summarised (LibrarySource.h); analysing it as the
/// program's own code would analyse half of Python.
bool isInstalledLibrary(llvm::StringRef file);

/// Adds to `out` the compiled modules of folder `dir` (`zlib` for
/// `zlib.cpython-311-x86_64-linux-gnu.so`, `name.so`, `name.pyd`).
void addCompiledModules(llvm::StringRef dir, llvm::StringSet<> &out);

/// `dir/a/b/__init__.py` (a package) or `dir/a/b.py` for dotted `a.b`.
bool findIn(llvm::StringRef dir, llvm::StringRef dotted, std::string &file,
            bool &isPackage);

struct ProgramModule {
  std::string name; ///< "__main__" or the dotted module name.
  std::string path;
  bool isPackage = false; ///< An `__init__.py`.
  const SourceFile *file = nullptr;     ///< Owned by the parse cache.
  const ParsedModule *parsed = nullptr; ///< Owned by the parse cache.
};

class Program {
public:
  /// Files are parsed through `cache` (shared with the lowering), or a
  /// cache of the program's own when it is null.
  Program(DiagnosticEngine &diags, std::vector<std::string> searchPath,
          ParseCache *cache = nullptr)
      : diags(diags), searchPath(std::move(searchPath)),
        ownCache(cache ? nullptr : std::make_unique<ParseCache>()),
        cache(cache ? *cache : *ownCache) {}

  /// Loads the main script; null after a read or syntax error.
  ProgramModule *loadMain(llvm::StringRef path);

  /// The local module `dotted` imported from `from` (relative imports
  /// count `level` leading dots), loaded on first use; null when it is not
  /// a local module. `looked` receives the directories searched.
  ProgramModule *resolve(const ProgramModule &from, llvm::StringRef dotted,
                         unsigned level, std::vector<std::string> *looked);

  /// resolve() for an import statement: the module found is remembered
  /// for importedModule() (also a file found that does not parse).
  ProgramModule *resolveImport(const ast::Stmt *import,
                               const ProgramModule &from,
                               llvm::StringRef dotted, unsigned level,
                               std::vector<std::string> *looked) {
    ProgramModule *m = resolve(from, dotted, level, looked);
    noteImport(import, dotted, m);
    return m;
  }
  /// Remembers what the last resolve(), which gave `m`, found for
  /// `dotted` in `import`.
  void noteImport(const ast::Stmt *import, llvm::StringRef dotted,
                  const ProgramModule *m) {
    if (m)
      imported[{import, dotted.str()}] = {m->path, m->name};
    else if (brokenFile)
      imported[{import, dotted.str()}] = {lastFile, lastName};
  }
  /// The file and module name of the local module `dotted`, written in
  /// `import` (`a.b` of `import a.b`, `pkg` and `pkg.mod` of `from pkg
  /// import mod`), was found at; null when it was not found.
  const std::pair<std::string, std::string> *
  importedModule(const ast::Stmt *import, llvm::StringRef dotted) const {
    auto it = imported.find({import, dotted.str()});
    return it == imported.end() ? nullptr : &it->second;
  }

  /// A module `importlib.import_module` at `call` may load.
  void noteImportByName(const ast::Node *call, const ProgramModule *m) {
    auto &at = importedByName[call];
    if (!llvm::is_contained(at, std::make_pair(m->path, m->name)))
      at.push_back({m->path, m->name});
  }
  /// The modules (file, name) noteImportByName recorded at `call`.
  const std::vector<std::pair<std::string, std::string>> *
  modulesImportedByName(const ast::Node *call) const {
    auto it = importedByName.find(call);
    return it == importedByName.end() ? nullptr : &it->second;
  }
  const std::map<const ast::Node *,
                 std::vector<std::pair<std::string, std::string>>> &
  allImportedByName() const {
    return importedByName;
  }

  /// True when the last resolve() found the module in installed library
  /// code (the standard library, site/dist-packages), which is not
  /// analysed: the API tables model it.
  bool resolvedToLibrary() const { return skippedLibrary; }
  /// Whether `dotted` is a module of the interpreter's search path (the
  /// standard library, site-packages): installed library code.
  bool isInstalledModule(llvm::StringRef dotted) const;
  void setInstalledPath(std::vector<std::string> dirs) {
    installedPath = std::move(dirs);
  }
  /// Says whether a top-level module is one of the standard library's
  /// (the interpreter always has it, also where detc is given no
  /// interpreter: `--python none`).
  void setStandardLibrary(std::function<bool(llvm::StringRef)> isStdlib) {
    standardLibrary = std::move(isStdlib);
  }
  /// True when the last resolve() found the module's file but could not
  /// read or parse it (the error is reported where the file is loaded).
  bool resolvedToBrokenFile() const { return brokenFile; }

  /// A directory the program adds to sys.path (relative to the script's).
  void addSearchDir(llvm::StringRef dir);

  /// The project's modules whose top level defines class or function
  /// `name` (a line `class name` or `def name` at column 0), in the files
  /// under the project's folder (the script's when it has none), loaded:
  /// what `getattr(importlib.import_module(unknown), name)` may be when
  /// the module is the program's. Empty when more than `limit` do (a name
  /// that common says nothing). The files are read once.
  std::vector<ProgramModule *> modulesDefining(llvm::StringRef name,
                                               size_t limit);

  const std::vector<std::unique_ptr<ProgramModule>> &modules() const {
    return all;
  }
  llvm::StringRef scriptDir() const { return mainDir; }
  /// `--path`, PYTHONPATH and the directories the program adds to sys.path.
  const std::vector<std::string> &searchDirs() const { return searchPath; }

private:
  ProgramModule *load(const std::string &path, const std::string &name,
                      bool isPackage);
  /// resolve() of `dotted` alone (not its parent packages).
  ProgramModule *resolveOne(const ProgramModule &from, llvm::StringRef dotted,
                            unsigned level, std::vector<std::string> *looked);
  /// Loads the `__init__.py` of each package enclosing `m`.
  void loadEnclosingPackages(const ProgramModule &m);

  DiagnosticEngine &diags;
  std::map<std::pair<const ast::Stmt *, std::string>,
           std::pair<std::string, std::string>>
      imported;
  std::map<const ast::Node *, std::vector<std::pair<std::string, std::string>>>
      importedByName;
  /// The file and name the last load() was asked for.
  std::string lastFile, lastName;
  std::vector<std::string> searchPath;
  std::unique_ptr<ParseCache> ownCache;
  ParseCache &cache;
  std::string mainDir;
  /// The project's folder (above the script's, with a project marker), or
  /// the script's.
  std::string projectDir;
  /// modulesDefining's index: top-level class and function names, and
  /// the files defining each; built on first use.
  bool definitionsIndexed = false;
  llvm::StringMap<std::vector<std::string>> definedIn;
  bool skippedLibrary = false;
  std::vector<std::string> installedPath;
  std::function<bool(llvm::StringRef)> standardLibrary;
  mutable bool compiledListed = false;
  mutable llvm::StringSet<> compiledModules;
  bool brokenFile = false;
  std::vector<std::unique_ptr<ProgramModule>> all;
  llvm::StringMap<ProgramModule *> byPath;
};

} // namespace detc::frontend::pta

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_PROGRAM_H
