//===- LibrarySource.h - What library code draws, from source -*- C++ -*-===//
//
// The API tables describe torch, numpy, random and the standard library: C
// code and the primitives everything else is written with. Every other
// library a script imports (albumentations, timm, kornia, a company's own
// package) is read from its Python source, found on the search path of the
// interpreter the user trains with, and summarised: may calling this name
// (or constructing this class and using the object) draw from a random
// generator, and through which chain of calls? A summary is
//  - Draws, with the first chain found to a primitive draw (`random.random`,
//    `torch.rand`, a dropout layer, a new generator),
//  - Unknown, when the code reaches something detc cannot follow (a callee
//    chosen at run time, a module without Python source, a name of a
//    modelled library no table describes), or
//  - Pure, only when every call reachable from it was followed to code or a
//    table that draws nothing.
// Per-file summaries are cached on disk, keyed by the file's contents and
// detc's version (docs/analysis.md, "Library source").
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_LIBRARYSOURCE_H
#define DETC_FRONTEND_LIBRARYSOURCE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorOr.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace detc::frontend {

class ApiModel;
struct ApiEntry;

namespace library {
struct FileSummary;
} // namespace library

/// What running a library name may draw.
struct LibraryEffect {
  enum class Kind {
    NotFound, ///< No Python source for it on the interpreter's path.
    Pure,     ///< Every reachable call followed; none draws.
    Draws,    ///< `detail`: the draw and the chain of calls to it.
    Unknown   ///< `detail`: what the callee is and where reading stopped.
  };
  Kind kind = Kind::NotFound;
  std::string detail;
  /// Draws: the draw found makes a generator of the library's own
  /// (`np.random.default_rng()`), which reseeding the global generators
  /// per example does not key.
  bool ownGenerator = false;
};

/// Library file summaries shared by the LibrarySource objects of one
/// process that read the same interpreter's libraries (a project's files,
/// analysed on worker threads): each library file is read from the disk
/// cache, or summarised, once per process instead of once per file
/// analysed. Thread-safe; summaries are immutable once kept.
class LibrarySummaryStore {
public:
  struct Entry {
    /// Null when the module's file could not be read or parsed.
    std::shared_ptr<const library::FileSummary> summary;
    /// False: the search path has no such module.
    bool found = false;
  };
  /// The entry kept for `module`, if any.
  std::optional<Entry> find(llvm::StringRef module);
  /// Keeps `entry` for `module` unless another thread kept one first;
  /// returns the one kept.
  Entry keep(llvm::StringRef module, Entry entry);

private:
  std::mutex mutex;
  llvm::StringMap<Entry> entries;
};

/// Where library source is looked for and its summaries kept.
struct LibrarySourceOptions {
  /// The interpreter whose `sys.path` is searched (`--python`,
  /// DETC_PYTHON, `python3`); empty: no library is read.
  std::string python;
  /// The folder of the on-disk summary cache; empty: none.
  std::string cacheDir;
  /// Summaries shared with the other analyses of this process that read
  /// with the same options (null: this object's own).
  std::shared_ptr<LibrarySummaryStore> shared;
};

/// The interpreter the user trains with when no `--python` names one:
/// DETC_PYTHON, else `python3`.
std::string defaultPythonInterpreter();

/// `python` as a program: itself when it names a path, else found on PATH.
llvm::ErrorOr<std::string> findPythonInterpreter(llvm::StringRef python);

/// `DETC_CACHE_DIR`, else `$XDG_CACHE_HOME/detc`, else `~/.cache/detc`;
/// empty when DETC_CACHE_DIR is set to the empty string (no cache).
std::string defaultLibraryCacheDir();

/// The interpreter's module search path (directories only), asked once per
/// process and interpreter; empty when it cannot be run. With a
/// `cacheDir`, the answer is kept there for the next process, valid while
/// the interpreter, the environment it reads and the folders of the answer
/// are unchanged (SearchPath.cpp).
std::vector<std::string> interpreterSearchPath(llvm::StringRef python,
                                               llvm::StringRef cacheDir = "");

/// What else decides which modules the interpreter can import, asked with
/// its search path (and cached with it).
struct InterpreterModules {
  /// sys.builtin_module_names: modules with no file.
  std::vector<std::string> builtins;
  /// A sys.path entry that is no folder (a zip or egg) or a meta-path
  /// finder beyond CPython's own (an editable install's): modules may come
  /// from where detc does not look.
  bool elsewhere = true;
};
InterpreterModules interpreterModules(llvm::StringRef python,
                                      llvm::StringRef cacheDir = "");

class LibrarySource {
public:
  LibrarySource(const ApiModel &api, LibrarySourceOptions options);
  ~LibrarySource();

  /// What calling `qualified` (`albumentations.HorizontalFlip`) may draw;
  /// for a class, what constructing it and calling any method of the
  /// object may draw.
  LibraryEffect effectOfCall(llvm::StringRef qualified);

  /// What calling a method of the value `qualified(...)` returned may
  /// draw: a class's instance is summarised as above; what a function
  /// returns is of a type detc does not know (Unknown).
  LibraryEffect effectOfResult(llvm::StringRef qualified);

  /// Whether calling `qualified` reaches a call of an API table entry of
  /// `role` (`loader`: timm's create_loader makes a DataLoader): the
  /// entry, where it is called and the chain to it; nothing when it does
  /// not, or detc cannot tell.
  std::optional<std::string> callOfRole(llvm::StringRef qualified,
                                        llvm::StringRef role);

  /// The API table entry of `role` that class `qualified` derives from,
  /// through the library's own classes (`torch.utils.data.DataLoader` for
  /// timm's MultiEpochsDataLoader); empty when it is no such class.
  std::string baseOfRole(llvm::StringRef qualified, llvm::StringRef role);

  /// The first class an API table describes that class `qualified` derives
  /// from, through the library's own classes (`torch.nn.Module` for timm's
  /// VisionTransformer); empty when there is none.
  std::string describedBase(llvm::StringRef qualified);

  /// The base found by baseOfRole and describedBase: the first (depth
  /// first) whose table entry `accept` takes.
  std::string baseWhere(llvm::StringRef qualified,
                        llvm::function_ref<bool(const ApiEntry &)> accept,
                        unsigned depth);

  /// The interpreter's module search path (asked on first use; empty
  /// without an interpreter).
  const std::vector<std::string> &interpreterPath() {
    if (!options.python.empty())
      ensureSearchPath();
    return searchPath;
  }

  /// Files summarised by this object (read or from the disk cache; not
  /// those another analysis sharing its store read first), and how many
  /// came from the disk cache: for tests and `--points-to-stats`.
  unsigned filesSummarised() const { return summarised; }
  unsigned filesFromCache() const { return fromCache; }

private:
  struct Node;
  struct Resolved;
  Resolved resolve(llvm::StringRef qualified, unsigned depth);
  const library::FileSummary *summaryOf(const std::string &module,
                                        bool *found);
  /// Finds `module` on the search path and summarises it (from the disk
  /// cache when it holds it).
  LibrarySummaryStore::Entry readSummary(const std::string &module);
  bool findModuleFile(llvm::StringRef dotted, std::string &file,
                      bool &isPackage) const;
  LibraryEffect classifyExternal(llvm::StringRef qualified) const;
  /// Asks the interpreter for its search path on first use.
  void ensureSearchPath();
  /// What `start` reaches: a draw, or with `role`, a call of an API
  /// table entry of that role (found: Kind::Draws).
  LibraryEffect reach(const Resolved &start, llvm::StringRef role = "");
  /// Whether top-level module `top` is nowhere the interpreter imports
  /// from: no source, no compiled module, not built in, and nothing else
  /// that could provide it. Code importing it raises ImportError there.
  bool absentModule(llvm::StringRef top);

  const ApiModel &api;
  LibrarySourceOptions options;
  std::vector<std::string> searchPath;
  bool searchPathKnown = false;
  llvm::StringMap<std::shared_ptr<const library::FileSummary>> files;
  /// Modules the search path does not have.
  llvm::StringSet<> missing;
  bool compiledExtension(const library::FileSummary &pkg,
                         llvm::StringRef name);
  /// Per package folder, the compiled modules in it.
  llvm::StringMap<llvm::StringSet<>> extensionModules;
  /// The top-level names that may be imported though no source of them is
  /// on the search path (built in, compiled, namespace folders), filled on
  /// first use; `anyModuleMayExist` when detc cannot know them all.
  llvm::StringSet<> modulesWithoutSource;
  bool modulesWithoutSourceKnown = false;
  bool anyModuleMayExist = false;
  llvm::StringMap<LibraryEffect> memo;
  unsigned summarised = 0;
  unsigned fromCache = 0;
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_LIBRARYSOURCE_H
