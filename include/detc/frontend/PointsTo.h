//===- PointsTo.h - What each Python variable may hold ----------*- C++ -*-===//
//
// An Andersen-style (inclusion-based, flow-insensitive, context-insensitive)
// points-to analysis of a Python training program: the main script and the
// local modules it imports. It answers "which objects may this variable,
// attribute, container element or expression hold?" — the question every
// later stage asks (is this a loader, with how many workers; which
// transforms does this dataset run; which model does this optimizer
// update). It replaces the lowering's bounded facts (docs/pointsto.md).
//
// Abstract objects are allocation sites: a user-class instance per
// instantiating call, a library object per library call (named by the API
// name it resolves to), a container per literal or constructor call, a
// function per def/lambda, a class per class statement, a module, and
// interned constants (`4`, `True`, `'train'`). Objects have fields:
// attributes (`fc`), container elements (`[*]`), tuple positions (`[0]`)
// and dict entries with constant keys (`['num_workers']`).
//
// Constraints are generated from the AST once and solved to a fixpoint
// with calls resolved on the fly: a call's targets are whatever functions,
// classes, bound methods and library callables reach its callee
// expression, and arguments are bound to parameters as CPython binds them.
// No cap drops information silently: sets are sparse bit vectors and the
// object count is bounded by the program's allocation sites; the one limit
// (50 million constraints) is reported as a warning when it is reached.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_POINTSTO_H
#define DETC_FRONTEND_POINTSTO_H

#include "detc/frontend/AST.h"
#include "detc/frontend/ApiModel.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/ParseCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace detc::frontend {

/// The label of what `importlib.import_module(name)` gives for a name
/// computed at run time (any module), and the prefix of the labels of
/// its attributes (`<module imported at run time>.Network`).
inline constexpr llvm::StringLiteral kRuntimeModule =
    "<module imported at run time>";
/// The prefix of the label of a part unpacked from what library code no
/// table describes returned (`<value returned by opacus.X.make_private>`),
/// and of its attributes' (`...>.step`): a value of unknown type.
inline constexpr llvm::StringLiteral kReturnedBy = "<value returned by ";

struct PointsToOptions {
  /// Directories searched for local modules after the script's own
  /// (`--path`, then PYTHONPATH's entries).
  std::vector<std::string> searchPath;
  /// The interpreter's search path (the standard library,
  /// site-packages): a module found there is installed library code, not
  /// an unresolved import, though the analysis does not follow it.
  std::vector<std::string> installedPath;
  /// Parse through this cache (shared with the lowering); null: the
  /// analysis's own, kept alive by the result.
  ParseCache *parseCache = nullptr;
  /// Attribute the constraints to the statements that made them
  /// (PointsToStats::topSources).
  bool profileSources = false;
  /// Stop when the sets hold this many objects in all (0: the default,
  /// 20 million; `--points-to-limit`).
  size_t memberLimit = 0;
  /// Take the result of `eval` of a computed name as unknown only, not as
  /// also any name its module defines or imports: calls on it are calls of
  /// code detc does not see (may-draw findings) instead of calls of every
  /// function and class of the module with every such name (yolov7's
  /// parse_model, whose `eval(m)(*args)` over `args[j] = eval(a)` then
  /// merges the program into one blob past any limit).
  bool evalAnyNameAsUnknown = false;
};

/// An abstract object.
struct AbstractObject {
  enum class Kind : uint8_t {
    Instance, ///< of a user class (label: class symbol)
    Library,  ///< made by a library call (label: API name)
    LibName,  ///< a library module or callable itself (`torch.nn.Linear`)
    List,
    Tuple,
    Dict,
    Set,
    Function, ///< a def or lambda (label: symbol)
    Class,    ///< a user class (label: symbol)
    Module,   ///< a local module (label: module name)
    Constant, ///< label: the value as Python writes it
    Generator ///< what calling a generator function returns
  };
  /// `label` and `file` must outlive the object (the result owns them;
  /// `file` is NUL-terminated or empty).
  AbstractObject(Kind kind, llvm::StringRef label, const ast::Node *site,
                 llvm::StringRef file)
      : site(site), labelData(label.data()),
        fileName(file.empty() ? nullptr : file.data()),
        labelSize(uint32_t(label.size())), kind(kind) {}

  /// Owned by the result (labels repeat: one copy each).
  llvm::StringRef label() const { return {labelData, labelSize}; }
  /// File of the site (owned by the result).
  llvm::StringRef file() const { return fileName ? fileName : ""; }

  const ast::Node *site = nullptr; ///< Allocation site (null: interned).

private:
  // 32 bytes where a StringRef for the file took 16 more (a program has an
  // object per allocation site and call).
  const char *labelData;
  const char *fileName;
  uint32_t labelSize;

public:
  Kind kind;
};

struct PointsToStats {
  size_t objects = 0, nodes = 0, copyEdges = 0, complexConstraints = 0;
  size_t iterations = 0; ///< Worklist node visits.
  size_t members = 0;    ///< The sets' sizes, all nodes together.
  double seconds = 0;    ///< Loading, parsing and solving.
  /// With PointsToOptions::profileSources: the statements that made the
  /// most constraints (copy edges and handlers, including those their
  /// handlers made while solving), as `file:line` and count, most first.
  std::vector<std::pair<std::string, size_t>> topSources;
};

class PointsToResult {
public:
  using ObjectId = unsigned;

  /// Objects the variable `name` of scope `scope` may hold. Scopes are the
  /// module (`__main__`, `helpers`) and function symbols (`train`,
  /// `Net.forward`, `main.<lambda>@3:9`).
  std::vector<ObjectId> pointsTo(llvm::StringRef scope,
                                 llvm::StringRef name) const;
  /// Objects the expression may evaluate to (calls, names, attributes,
  /// subscripts, literals of the analysed program).
  std::vector<ObjectId> pointsTo(const ast::Expr *e) const;
  /// The objects allocated at the node starting at `line`:`column`
  /// (1-based line, 0-based column, as ast::SourcePos) of `file`.
  std::vector<ObjectId> objectsAt(llvm::StringRef file, unsigned line,
                                  unsigned column) const;
  /// Objects field `field` of `object` may hold.
  std::vector<ObjectId> field(ObjectId object, llvm::StringRef field) const;
  /// The names of the fields `object` has (attributes, `[*]`, `arg0`, a
  /// library call's keywords), in no particular order.
  std::vector<llvm::StringRef> fieldNames(ObjectId object) const;
  const AbstractObject &object(ObjectId id) const;
  /// "list@12:5", "torchvision.transforms.RandomCrop@14:20", "Net@20:9",
  /// "4", "def train", "module helpers".
  std::string describe(ObjectId id) const;

  /// Every scope's variables with what they may hold, then every object's
  /// fields (the --emit=points-to format, docs/pointsto.md).
  void print(llvm::raw_ostream &os) const;

  const PointsToStats &getStats() const;
  /// The local module the import statement `import` found for `dotted`
  /// (`a.b` of `import a.b`; `pkg`, and `pkg.mod` for a submodule, of
  /// `from pkg import mod`; without the leading dots of a relative one):
  /// its file and module name, or nothing when it found none.
  std::optional<std::pair<std::string, std::string>>
  importedModule(const ast::Stmt *import, llvm::StringRef dotted) const;
  /// The program's modules (file, name) `importlib.import_module` may load
  /// at `call` (a name the source shows); empty when none or any.
  std::vector<std::pair<std::string, std::string>>
  modulesImportedByName(const ast::Node *call) const;
  /// The same for every such call, in no particular order.
  std::vector<std::pair<std::string, std::string>>
  modulesImportedByName() const;
  /// What a call of a function that finds what it calls by a dotted name
  /// (`construct_class_by_name(class_name='training.loss.Loss', ...)`)
  /// also calls: the classes and functions the strings given to it name.
  std::vector<ObjectId> namedDefinitions(const ast::Node *call) const;
  /// Whether the function or lambda defined at `def` (a def or lambda of
  /// the analysed program) is never made: the function defining it never
  /// runs (a subclass's override of a class never instantiated), so no
  /// value holds it and no call runs it. False when the analysis stopped
  /// at its limit.
  bool neverMade(const ast::Node *def) const;
  /// The analysis stopped at a limit: what nodes hold is incomplete.
  bool truncated() const;
  /// How many `eval`s of a computed string were taken as any name of
  /// their module (none with PointsToOptions::evalAnyNameAsUnknown).
  unsigned evalsOfAnyName() const;
  /// Where the program's local modules were looked for after the script's
  /// directory: `--path`, PYTHONPATH, then the directories the program
  /// adds to `sys.path` (constant or built from `__file__`).
  const std::vector<std::string> &searchDirs() const;

  PointsToResult();
  ~PointsToResult();
  PointsToResult(PointsToResult &&);
  PointsToResult &operator=(PointsToResult &&);

  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Loads the script at `path` and every local module it imports (found
/// next to it, in packages, in `options.searchPath`), and analyses them.
/// An import that is neither a local module nor a library the API tables
/// know gets a warning naming the module and where it was looked for.
/// Returns nothing after a syntax error (reported to `diags`).
std::optional<PointsToResult> analyzePointsTo(llvm::StringRef path,
                                              const PointsToOptions &options,
                                              const ApiModel &api,
                                              DiagnosticEngine &diags);

} // namespace detc::frontend

#endif // DETC_FRONTEND_POINTSTO_H
