//===- Lowerer.h - State of the AST-to-detc lowering ------------*- C++ -*-===//
//
// The lowering walks the AST of the script (and of the local modules it
// imports) and emits detc ops. To resolve what a call means it keeps
// flow-insensitive *facts* about variables: the user class of an instance
// (`inst:Net`), a library type (`type:torch.Generator`), a model build or
// loader object (`obj:b12_4`), a function (`func:helper`), a constant
// (`const:4`), a dict entry (`key:num_workers=const:2`), or a value computed
// from a model's parameters (`from:b12_4`) or from its forward's output
// (`out:b12_4`). Facts flow through
// assignments, call arguments into parameters, return values and instance
// attributes (`self.fc` of class Net is keyed `Net.fc`).
//
// Because a function may be lowered before its callers give its parameters
// facts, the whole program is lowered repeatedly until the facts stop
// growing; the last pass's IR is the result.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_LOWERER_H
#define DETC_LIB_FRONTEND_LOWERING_LOWERER_H

#include "FactSet.h"
#include "Scopes.h"

#include "detc/frontend/ApiModel.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/Lowering.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/PointsTo.h"
#include "detc/frontend/SourceFile.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <map>
#include <set>
#include <unordered_map>

namespace detc::frontend {

/// An object the lowering tracks by identity: a model build, a dataset, a
/// loader (or tf.data pipeline) or an optimizer.
struct ObjectInfo {
  // Strings pooled (FactSet.h): ~200 bytes less an object.
  enum Kind : uint8_t { Build, Dataset, Loader, Optimizer } kind = Build;
  PooledString cls; ///< User class symbol, if any.
  PooledString api; ///< Resolved library constructor, if any.
  // Dataset: facts of its per-example transform; the `unread_calls` entry
  // of a transform detc does not read (a timm or albumentations object).
  FactSet transformFacts;
  mlir::DictionaryAttr unreadTransform;
  // Dataset of datasets (`Subset`, `ConcatDataset`): what the wrapped
  // dataset(s) may be.
  FactSet wrappedFacts;
  // Loader: the dataset, the worker count, the shuffle generator (empty: no
  // shuffle) and functions mapped over each example (tf.data).
  FactSet datasetFacts;
  /// Loader: the points-to objects its dataset may be (the instances whose
  /// kept transforms a library base's `__getitem__` runs).
  std::vector<unsigned> datasetObjects;
  PooledString workers = "0";
  PooledString shuffleGen;
  std::vector<std::string> perExampleFns;
  // Loader: methods of the program's classes it calls per batch, bound to
  // an instance (`collate_fn=dataset.collate_fn`): class, method, and the
  // facts of the instance (its `self`).
  struct BoundMethod {
    std::string cls, method;
    FactSet selfFacts;
  };
  std::vector<BoundMethod> perExampleMethods;
  // Optimizer: facts of the models whose parameters it updates.
  FactSet modelFacts;
};

struct ClassInfo {
  std::string symbol;
  ir::ClassRole role = ir::ClassRole::Plain;
  std::vector<std::string> userBases; ///< Symbols of user base classes.
  std::vector<std::string> libBases;  ///< Qualified library bases.
  llvm::StringSet<> methods;
};

/// One Python file taking part in the lowering.
struct Unit {
  std::string moduleName; ///< "__main__" or the dotted module name.
  std::string dir;        ///< Directory, for relative imports.
  const SourceFile *file = nullptr;     ///< Owned by the parse cache.
  const ParsedModule *parsed = nullptr; ///< Owned by the parse cache.
  mlir::StringAttr fileAttr; ///< The file's name, once a location needs it.
  /// Import bindings of module-level names: local name -> qualified name.
  llvm::StringMap<std::string> imports;
  std::vector<std::string> starModules;
  /// Whether every run executes the module: the script, and modules its
  /// body imports. Errors in the others (imported in a branch, or loaded
  /// by a name) are warnings: only the runs that load them fail.
  bool everyRun = false;
  /// Names bound at module level (to tell globals from builtins).
  Scope moduleScope;
};

/// The function (or class body) whose statements are being lowered.
struct FuncCtx {
  Unit *unit = nullptr;
  FuncCtx *parent = nullptr; ///< Enclosing function, for closures.
  std::string symbol;        ///< Qualified symbol: `train`, `Net::forward`.
  std::string className;     ///< For methods and class bodies.
  bool isModule = false;
  bool isClassBody = false;
  Scope scope;
  llvm::StringMap<std::string> localImports; ///< Imports inside a function.
  unsigned nextTemp = 0;
  unsigned loopDepth = 0;
  mlir::Operation *innermostLoop = nullptr;
  /// Variables holding an iterator over another's items (`pbar =
  /// enumerate(loader)`, then `pbar = tqdm(pbar)`): what unwrapIterable
  /// gives for the value last assigned, in the order the lowering walks
  /// the function.
  struct Wrapped {
    const ast::Expr *items = nullptr;
    llvm::SmallVector<unsigned, 2> position;
  };
  llvm::StringMap<Wrapped> wrappedIterables;
  /// Variables last assigned a functools.partial in this function
  /// (`compute_losses = partial(self.diffusion.training_losses, model,
  /// x)`): a call of the variable binds the partial's arguments first.
  llvm::StringMap<const ast::Call *> partialsMade;
  /// Expressions lowered ahead of the expression holding them, and the
  /// variable that holds each one's value (the loader a loop header or a
  /// wrapper's assignment makes inside the wrapper, `enumerate(DataLoader(
  /// D()))`: the loop keys its batches by it, loaderHolder). Lowering the
  /// holder reads the variable.
  llvm::DenseMap<const ast::Expr *, std::string> loweredAhead;
};

/// An ordered set of variable names.
using VarSet = llvm::SetVector<std::string, std::vector<std::string>,
                               std::set<std::string>>;

/// Variables a (sub)expression reads and modifies.
struct Effects {
  VarSet uses, updates;
  void merge(const Effects &o) {
    uses.insert(o.uses.begin(), o.uses.end());
    updates.insert(o.updates.begin(), o.updates.end());
  }
};

/// True if `id` in `f` names something the program binds (not a builtin).
bool isBoundName(const FuncCtx &f, llvm::StringRef id);
/// Whether the library callable `qualName` returns an iterator over its
/// first argument's items (role `iterate`: a progress bar).
bool iteratesItsArgument(const ApiModel &api, llvm::StringRef qualName);

/// Whether `e` is `within` or one of its subexpressions (lambdas' bodies
/// left out).
bool isWithin(const ast::Expr *e, const ast::Expr *within);

class Lowerer;
/// The expression whose items a loop over `iter` gets (`loader` of
/// `enumerate(tqdm(loader))`, of `zip(range(n), loader)`), and in
/// `position` the path through the loop's target tuples to the item.
/// `throughUnread`, when given, says whether the way there passes through
/// a callable detc does not read (yolov5's `TQDM(loader)`: what a loop
/// over it gets, that code yields).
const ast::Expr *unwrapIterable(Lowerer &l, FuncCtx &f, const ast::Expr *iter,
                                llvm::SmallVectorImpl<unsigned> &position,
                                bool *throughUnread = nullptr);

class Lowerer {
public:
  Lowerer(mlir::MLIRContext &ctx, DiagnosticEngine &diags,
          const LoweringOptions &options);
  mlir::OwningOpRef<mlir::ModuleOp> run(llvm::StringRef path);

  // ---- Program structure (Lowering.cpp) ----
  /// Imported modules that did not parse (warned about once).
  llvm::StringSet<> unparsableModules;
  /// `mustParse`: a syntax error is an error of the run (the script, a
  /// module every run imports), else a warning (Lowering.cpp).
  Unit *loadUnit(llvm::StringRef path, llvm::StringRef moduleName,
                 bool mustParse);
  void lowerProgram();
  void lowerUnit(Unit &unit);
  void lowerBody(FuncCtx &f, llvm::ArrayRef<ast::Stmt *> body);
  void lowerStmt(FuncCtx &f, const ast::Stmt *s);
  void lowerFunctionDef(FuncCtx &f, const ast::FunctionDef *def);
  void lowerClassDef(FuncCtx &f, const ast::ClassDef *def);
  void lowerImport(FuncCtx &f, const ast::Stmt *s);
  void lowerAssign(FuncCtx &f, const ast::Stmt *s,
                   llvm::ArrayRef<ast::Expr *> targets, const ast::Expr *value);
  void lowerFor(FuncCtx &f, const ast::For *loop);
  /// Lowers a loop's body into region 0 of `loop` (the innermost loop and
  /// loop depth set while it runs) and its `else:` into region 1.
  void lowerLoopRegions(FuncCtx &f, mlir::Operation *loop,
                        llvm::function_ref<void()> body,
                        ast::NodeList<ast::Stmt> orelse);
  /// Region 1 of `op` (an `if` or loop) from `orelse`, or no region.
  void lowerElse(FuncCtx &f, mlir::Operation *op,
                 ast::NodeList<ast::Stmt> orelse);
  void lowerLoaderLoop(FuncCtx &f, const ast::For *loop,
                       const std::string &loaderVar, const FactSet &loaderFacts,
                       llvm::ArrayRef<const ast::Expr *> otherTargets,
                       const ast::Expr *target,
                       const Effects &iterEff);
  mlir::Operation *emitFetch(FuncCtx &f, const ast::Node *at,
                            const std::string &loaderVar,
                            const FactSet &loaderFacts,
                            const std::vector<std::string> &defs,
                            bool advances = false,
                            const Effects *iterable = nullptr);
  void lowerMatch(FuncCtx &f, const ast::Match *m, size_t caseIndex);
  std::string lowerLambda(FuncCtx &f, const ast::Lambda *lambda);
  void emitUserCall(FuncCtx &f, const ast::Node *at, const std::string &sym,
                    mlir::SymbolRefAttr ref, const std::string &selfVar,
                    const FactSet &selfFacts, const ast::Call *call,
                    llvm::ArrayRef<std::string> argVars,
                    llvm::ArrayRef<std::pair<std::string, std::string>> kwVars,
                    llvm::ArrayRef<std::string> defs,
                    llvm::ArrayRef<std::string> updates, const Effects &eff);
  /// The same with the positional and keyword arguments given apart (a
  /// call made by the library: `Process(target=f, args=(a, b))`).
  void emitUserCall(FuncCtx &f, const ast::Node *at, const std::string &sym,
                    mlir::SymbolRefAttr ref, const std::string &selfVar,
                    const FactSet &selfFacts, ast::NodeList<ast::Expr> posArgs,
                    ast::NodeList<ast::Keyword> keywords,
                    llvm::ArrayRef<std::string> argVars,
                    llvm::ArrayRef<std::pair<std::string, std::string>> kwVars,
                    llvm::ArrayRef<std::string> defs,
                    llvm::ArrayRef<std::string> updates, const Effects &eff);
  /// A launcher (API role `launcher`) of a function of the script:
  /// `mp.spawn(fn, args=(a,))` calls `fn(rank, a)` (`rank`: the process
  /// index comes first), `Process(target=fn, args=(a,))` calls `fn(a)` in a
  /// per-batch data-parallel region (`shared`: its processes run it at once
  /// on shared arguments, hogwild) unless every argument is a plain value
  /// (mayBeSharedWithProcesses). False when `fn` is not the script's.
  bool lowerLauncher(FuncCtx &f, const ast::Call *call,
                     const ast::Expr *targetFn, const ast::Expr *argTuple,
                     bool rankFirst, bool shared);
  /// Whether the argument `e` of a process the script starts may hold
  /// what the processes then share: tensors and modules (torch moves them
  /// into shared memory) or objects holding them. Numbers, constants and
  /// command-line values are copied into each process.
  bool mayBeSharedWithProcesses(const ast::Expr *e) const;
  /// What the `__getitem__` of a library dataset that the program's class
  /// `cls` derives from runs on each example, when no class of the program
  /// defines one (`class MyCelebA(CelebA)`): the transforms its instances
  /// keep (PointsTo's storeDatasetArguments), called on `dsVar`'s: those
  /// among `datasetObjects` (the loader's dataset), else every instance of
  /// `cls`. False when `cls` has no library dataset base.
  bool emitLibraryGetitem(const ast::Node *at, const std::string &cls,
                          const std::string &dsVar,
                          llvm::ArrayRef<unsigned> datasetObjects);
  /// Whether a module move (`model.to(device)`) may go to an XLA device,
  /// whose tensors cannot share a CPU tensor's storage: the move then makes
  /// new parameter tensors (torch's Module._apply), where a move to the
  /// CPU or CUDA converts them in place.
  bool movesToXla(const ast::Call *call) const;
  /// A dataset's transform in `var` run on an example: a forward of the
  /// library `builds` it may be, the `unread` entries (a transform of a
  /// library detc does not read), and the program's callables among
  /// `facts` (callProgramParts, each once across `called`).
  void emitTransformRun(const ast::Node *at, const std::string &var,
                        llvm::ArrayRef<std::string> builds,
                        llvm::ArrayRef<mlir::Attribute> unread,
                        const FactSet &facts, std::set<std::string> &called);
  /// A call of `method` of the program's class `cls` (or a base) on the
  /// object in `selfVar`, as a library makes it (a dataset's
  /// `__getitem__`, a transform's `__call__`): `self` bound, with facts
  /// `selfFacts`; what it returns into `result` when given. False when the
  /// class has no such method.
  bool emitMethodCallOn(const ast::Node *at, const std::string &cls,
                        llvm::StringRef method, const std::string &selfVar,
                        const FactSet &selfFacts,
                        const std::string &result = "");
  /// Calls the program's callables a library object reaching `call`'s
  /// callee (or `receiver`) holds: given to the call that made it, in its
  /// arguments or their elements (callProgramParts).
  void callHeldCallables(FuncCtx &f, const ast::Call *call,
                         const ast::Expr *receiver,
                         std::set<std::string> &called);
  /// What a library object was given (its arguments and their elements),
  /// each object once; kept per object: every call on the object asks.
  llvm::ArrayRef<PointsToResult::ObjectId>
  heldObjects(PointsToResult::ObjectId o);
  llvm::DenseMap<PointsToResult::ObjectId,
                 std::vector<PointsToResult::ObjectId>>
      heldByLibraryObject;
  /// The program's callables the library objects of a callee or receiver
  /// hold (callHeldCallables), per set of those objects: where a value may
  /// be anything (yolov5's `eval` of layer names from its config) every
  /// call on it has the same thousands of holders, and merging their
  /// callables again at each call did not finish.
  std::map<std::vector<PointsToResult::ObjectId>, FactSet> heldCallables;
  /// Calls the program's callables among `facts` as a library calls the
  /// parts it holds (a dataset its transform, `Compose` its entries): a
  /// function, or an instance's `__call__` (else `forward`) with `self`
  /// bound to `var` (a function's call has effects `funcEff`). `called`
  /// keeps each part to one call.
  void callProgramParts(const ast::Node *at, const std::string &var,
                        const FactSet &facts, std::set<std::string> &called,
                        const Effects &funcEff);
  /// A library call no table describes that is given a data loader
  /// (`trainer.fit(model, train_dataloaders=loader)`, `engine.run(loader)`)
  /// may iterate it: a loop, here, whose fetches make the loader's
  /// examples (a per-example region) and whose batches run the library's
  /// code (the call's unread entries) and any method of the program's
  /// objects it was given (`training_step`, hooks), in a per-batch region.
  /// A dataset of the program given to it may be iterated by a loader the
  /// library makes (`Trainer(train_dataset=ds)`), its workers unknown; a
  /// method of a library loader (`trainer.train()` of a trainer whose
  /// source makes one) iterates it. `argVars`: the variables the arguments
  /// were lowered to, positional then keywords ("" where none). Nothing
  /// when neither a loader nor a dataset is given.
  void emitLibraryLoop(FuncCtx &f, const ast::Call *call,
                       llvm::ArrayRef<std::string> argVars,
                       const std::string &recvVar, const FactSet &recvFacts);
  /// What a library call was given, as emitLibraryLoop reads it: the
  /// loaders it may iterate and the program's objects and functions it
  /// may call per batch (each with the variable that holds it).
  struct LibraryGiven {
    std::vector<std::pair<std::string, FactSet>> loaders, instances;
    FactSet functions;
    /// Arguments detc cannot trace (a model instantiated from a config):
    /// the library may run their code every batch.
    std::vector<std::pair<const ast::Expr *, std::string>> untraced;
  };
  LibraryGiven libraryGiven(FuncCtx &f, const ast::Call *call,
                            llvm::ArrayRef<std::string> argVars,
                            const std::string &recvVar,
                            const FactSet &recvFacts);
  /// The methods of the program's class `cls` and its bases a library
  /// may call on an object of it: all but how objects are made and
  /// destroyed (special methods other than `__call__`).
  std::set<std::string> methodsLibrariesCall(const std::string &cls) const;
  /// A `per_batch` data-parallel region reading `uses`, its body emitted
  /// by `body`.
  void emitBatchRegion(const ast::Node *at, llvm::ArrayRef<std::string> uses,
                       llvm::function_ref<void()> body, bool counted = false);
  /// How many `per_batch` regions enclose the statements being lowered: a
  /// loop over a count nested in one (a GAN's critic steps in a loader's
  /// loop) is no counted region of its own; its draws stay the
  /// enclosing batch's, keyed as before.
  unsigned batchRegionDepth = 0;
  /// Emits `n` alternatives (`emitOne(i)` each), as nested `detc.if`s: one
  /// of them runs.
  void emitAlternatives(size_t n, const ast::Node *at,
                        llvm::function_ref<void(size_t)> emitOne);
  /// Calls through a variable that may hold more functions than this are
  /// opaque (with a warning).
  static constexpr size_t kMaxCallAlternatives = 64;
  /// Classes a callee may be beside functions (`globals()[name](...)` of a
  /// module of a few classes and helpers, EDM's networks.py: 13) that are
  /// constructed as alternatives; more (a registry module's every model
  /// and helper, BasicSR's archs: 62 classes and 15 functions) are left
  /// to the functions' alternatives and the points-to's instances where
  /// the result is used, as before classes were followed there at all:
  /// constructing each made every method call on the result a choice
  /// among them, and the draws the instances' own methods make were lost.
  static constexpr size_t kMaxClassesBesideFunctions = 16;
  /// Emits the forward region body of a user model class `cls`.
  /// The draw of the forward a program class inherits from a library layer
  /// that draws (`class LockedDropout(nn.Dropout)`: its own forward, or
  /// one calling `super().forward(x)`), at `at`; whether there was one.
  bool emitLibraryBaseDraw(const std::string &cls, const ast::Node *at);
  void emitModelForward(FuncCtx &f, const std::string &cls,
                        const std::string &selfVar);

  // ---- Expressions and calls (LowerCalls.cpp) ----
  /// Lowers `e`, emitting ops for the calls it contains; returns what it
  /// reads and modifies.
  Effects lowerExpr(FuncCtx &f, const ast::Expr *e);
  /// Lowers `e` and returns a variable holding its value: the variable path
  /// itself, the temporary of a call, or "" for other expressions.
  std::string lowerToVar(FuncCtx &f, const ast::Expr *e, Effects &out);
  /// The same, never "": other expressions get a temporary they define.
  std::string lowerToHeldVar(FuncCtx &f, const ast::Expr *e, Effects &out);
  /// A loader made inside `holder` (a loop header's or a comprehension's
  /// iterable, a wrapper a variable is given: `enumerate(DataLoader(D()))`
  /// with `items` the DataLoader call) runs first, into the variable
  /// loaderHolder gives for `items` (f.loweredAhead): its dataset is the
  /// object the call was given (LowerLoops.cpp).
  void lowerLoaderAhead(FuncCtx &f, const ast::Expr *items,
                        const ast::Expr *holder, Effects &out);
  /// Lowers a call. Returns true if it became an op of its own; then
  /// `target` holds its result (a fresh temporary if it was empty and
  /// `wantValue`). Returns false for an opaque call, whose reads and updates
  /// are added to `out`.
  bool lowerCall(FuncCtx &f, const ast::Call *call, std::string &target,
                 Effects &out, bool wantValue = true);
  FactSet factsOf(FuncCtx &f, const ast::Expr *e);
  /// Records what `call`'s value may hold (for factsOf).
  void setCallFacts(const ast::Node *call, const FactSet &fs) {
    if (fs.empty())
      callFacts.erase(call);
    else
      callFacts[call] = fs;
  }
  /// `detc.update` of an optimizer step: `optVar` and the models whose
  /// parameters the optimizers in `optFacts` were given.
  void emitOptimizerUpdate(FuncCtx &f, const ast::Call *call,
                           const std::string &optVar, const FactSet &optFacts,
                           Effects eff, llvm::StringRef apiName);
  /// A class of the script deriving (through its bases) from
  /// torch.optim.Optimizer or a library optimizer.
  bool isOptimizerClass(const std::string &cls) const;
  /// The first library base of program class `cls` (its own, then its
  /// program bases') that `accept` takes, or "".
  std::string
  libraryBaseOf(const std::string &cls,
                llvm::function_ref<bool(const std::string &)> accept) const;
  /// The loader API (a table entry of role `loader`) program class `cls`
  /// derives from, or "".
  std::string loaderBaseOf(const std::string &cls) const;
  /// The library name a callee expression that is no attribute holds (a
  /// variable given a library class or function): the one name the
  /// points-to says it may be, or the first of names of one constructing
  /// role (dataset, loader, optimizer); empty otherwise.
  std::string libraryNameHeld(const ast::Expr *callee) const;
  /// The library names (canonical, with their table entries, null when a
  /// table has none) among what the points-to says `callee` may be;
  /// `others` is set when it may be anything else too.
  std::vector<std::pair<std::string, const ApiEntry *>>
  libraryNamesOf(const ast::Expr *callee, bool &others) const;
  /// Whether `callee` is code of a library no table describes and the
  /// search path does not have (an unresolved import's name).
  bool callsUnknownCode(const ast::Expr *callee) const;
  /// The library module or callable `e` names by the points-to (a name a
  /// star import of the program's module binds: its `import torch.nn as
  /// nn`), or empty when it may be anything else (or is a builtin).
  /// With `throughPartials`, a functools.partial names what it wraps.
  std::string libraryNamed(const ast::Expr *e,
                           bool throughPartials = false) const;
  /// `objs`, each functools.partial replaced by what it wraps (kept when
  /// the analysis sees nothing it wraps).
  std::vector<PointsToResult::ObjectId>
  partialTargets(llvm::ArrayRef<PointsToResult::ObjectId> objs) const;
  /// Whether `o` is a functools.partial (a bound method is one too).
  bool isPartial(PointsToResult::ObjectId o) const;
  /// Whether `callee` may be a functools.partial: it may bind arguments
  /// the call does not show.
  /// Whether every object `receiver` may hold is of a library type whose
  /// methods change nothing of it (api `immutable`).
  bool immutableReceiver(const ast::Expr *receiver) const;
  /// Whether every functools.partial (bound method) `callee` may hold is
  /// bound to an object `self` may hold, and there is one.
  bool boundTo(const ast::Expr *callee, const ast::Expr *self) const;
  bool boundByPartial(const ast::Expr *callee) const;
  /// Whether the points-to says `e` may hold a function, class or module of
  /// the program (a name a star import of the program's module binds).
  bool namesProgramCode(const ast::Expr *e) const;
  /// The loader API every class `callee` may be (the points-to's
  /// candidates, and `calleeClasses`, the program's classes the facts
  /// say) derives from or is, else ""; `subclass`: a program class among
  /// them.
  std::string loaderClassCalled(const ast::Expr *callee,
                                const FactSet &calleeClasses,
                                std::string &subclass) const;
  /// The library container (role `container`: a Compose) that every
  /// program class `callee` may be (from the points-to, and
  /// `calleeClasses`) derives from without defining `__init__`,
  /// `__call__` or `forward` of its own, or "": a subclass adding methods
  /// only (3D-ResNets' `Compose(transforms.Compose)` with
  /// `randomize_parameters`) is that container, its calls the container's.
  std::string containerSubclassCalled(const ast::Expr *callee,
                                      const FactSet &calleeClasses) const;
  /// What both of those ask: the one library class every candidate of
  /// `callee` is (a library name of role `libraryRole`; none when empty)
  /// or derives from (`baseOfClass` of a program class, "" when it does
  /// not), else ""; `subclass`, when given, gets a program class among
  /// them.
  std::string agreedLibraryBase(
      const ast::Expr *callee, const FactSet &calleeClasses,
      llvm::function_ref<std::string(const std::string &)> baseOfClass,
      llvm::StringRef libraryRole, std::string *subclass) const;
  /// The variables a value restores when it is saved in a checkpoint and
  /// loaded back: `X.state_dict()` restores X (`X.module.state_dict()` too),
  /// a variable itself, a dict display or `dict(...)` what its values
  /// restore; anything else (`epoch + 1`) nothing.
  std::vector<std::string> restoredBy(FuncCtx &f, const ast::Expr *e);
  /// Whether the object `var` (the expression `owner`) holds may have
  /// state of its own beside the model its `.module` keeps: an instance of
  /// the program's class with a `.module` (a hand-written EMA and its
  /// update counter), or a library module that
  /// keeps a copy (the tables' `module_copy`: AveragedModel).
  /// `var.module.state_dict()` does not restore all of it.
  bool holdsStateBesidesModule(FuncCtx &f, const std::string &var,
                               const ast::Expr *owner);
  /// A `for` whose iterations are batches though it iterates no loader:
  /// over `range(...)` with a body that cuts a batch with the loop
  /// variable (`x = data[i:i + bs]`, `get_batch(source, i)`) or fetches
  /// one (`next(it)`), over a generator yielding a loader's batches, or
  /// over an iterator of code detc cannot read whose own body trains (calls
  /// `backward`). Its body is a per-batch data-parallel region, as a
  /// loader's loop body is.
  /// Adds the program's callables among `objs` to `out`: `func:` facts of
  /// its functions, `inst:` facts of instances whose class has `__call__`.
  void addCallables(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                    FactSet &out);
  /// The id of a loader object standing for a library pipeline a training
  /// loop iterates (no table models it as a loader), when the pipeline
  /// runs the program's callables or code detc does not read per example.
  std::optional<std::string> libraryPipelineLoader(const ast::For *loop,
                                                   const ast::Expr *items);
  bool isManualBatchLoop(FuncCtx &f, const ast::For *loop,
                         const ast::Expr *items);
  /// A loop over a count (`range`, `trange`) whose own body takes a
  /// training step (`backward` and a `step`), its batches from no loader
  /// and no slice by the loop variable (NeRF's rays picked with
  /// np.random.choice; full-batch epochs): its body is a per-batch region
  /// marked `counted` (a step's draws; the loop takes no batches).
  bool isCountedStepLoop(FuncCtx &f, const ast::For *loop,
                         const ast::Expr *items);
  /// Function `f` is a generator that yields the batches of the loaders in
  /// `loaderFacts`: loops over its calls are batch loops, and what a call
  /// returns is iterated as those loaders are.
  void noteYieldsBatches(FuncCtx &f, const FactSet &loaderFacts);
  /// Whether statements `body` fetch a batch by hand: `next(it)` of a
  /// loader's iterator, or a batch cut with one of `vars` (a range loop's
  /// variable). Nested functions and classes are not the body; with
  /// `ownLoopsOnly`, nor are nested loops (they are checked themselves).
  /// With `stepsByOne` (the variables count one by one), `v[i:i + k]` is
  /// a sliding window, not a batch: the next iteration's overlaps it.
  bool fetchesBatch(FuncCtx &f, ast::NodeList<ast::Stmt> body,
                    const llvm::StringSet<> &vars, bool ownLoopsOnly,
                    bool stepsByOne = false);
  /// Whether statements `body` call a `backward` (`loss.backward()`,
  /// `scaler.scale(loss).backward()`, `accelerator.backward(loss)`), not
  /// counting nested loops, functions and classes.
  static bool trainsInBody(ast::NodeList<ast::Stmt> body);
  /// Whether statements `body` take a training step of their own: a
  /// `backward` and a `step`, not counting nested loops, functions and
  /// classes (a gradient accumulation loop steps after it, an epoch loop
  /// in the loop it runs).
  static bool stepsInBody(ast::NodeList<ast::Stmt> body);
  /// Function `f` fetches one batch of a loader each time it runs: a
  /// `next(it)` of a kept iterator (not `next(iter(loader))`) outside any
  /// loop of its own, or a call of such a function
  /// (a prefetcher's `next()` that calls its `preload()`, as NVIDIA's
  /// data_prefetcher and SRGAN-PyTorch's CUDAPrefetcher do). Fact
  /// `fetches-batch:<symbol>`.
  void noteFetchesBatch(FuncCtx &f);
  /// Whether `call` calls a function or method of the program that
  /// fetches one batch (noteFetchesBatch).
  bool callsBatchFetcher(FuncCtx &f, const ast::Call *call);
  /// Whether a function `call` may call (`func:` facts of its callee, or
  /// the method of the receiver's class) has the fact `<prefix><symbol>`.
  bool calleeHasFact(FuncCtx &f, const ast::Call *call,
                     llvm::StringRef prefix);
  /// The classes of the program defining `method` for the instances
  /// `of` holds (`inst:` facts), once per owner, as (owner, fact) pairs.
  std::vector<std::pair<std::string, std::string>>
  methodOwners(const FactSet &of, llvm::StringRef method) const;
  /// The `__iter__` methods (`Owner::__iter__`) of the program's classes
  /// that iterating `items` may run (the instances it may hold).
  std::vector<std::string> iterMethodsOf(FuncCtx &f, const ast::Expr *items);
  /// `next(x)` of the builtin: the classes of the program defining the
  /// `__next__` it may run (methodOwners).
  std::vector<std::pair<std::string, std::string>>
  nextMethodOwners(FuncCtx &f, const ast::Call *call);
  /// After `a, b = accelerator.prepare(a, b)`: the accelerator restores
  /// what prepare returned (its save_state saves them).
  void notePrepared(FuncCtx &f, const ast::Stmt *s,
                    llvm::ArrayRef<ast::Expr *> targets,
                    const ast::Expr *value);
  /// lowerToVar for a call's argument; a dict display holding state is
  /// bound through a temporary that restores it.
  std::string lowerArgToVar(FuncCtx &f, const ast::Expr *e, Effects &out);
  /// Adds `restores` (see detc.stmt) to an assignment of `value` that holds
  /// state: a dict display, `dict(...)`, `X.state_dict()`.
  void addRestores(FuncCtx &f, const ast::Expr *value,
                   llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs);

  // ---- Names, facts and emission helpers ----
  std::string varName(FuncCtx &f, llvm::StringRef id);
  /// The variable path of `a.b.c` ("" if not a pure attribute chain).
  std::string varPath(FuncCtx &f, const ast::Expr *e);
  /// The variables holding the objects `call` is given that it may change:
  /// the arguments' roots (`model` of `model.parameters()`) that may hold
  /// a mutable object (an instance, a library object, a container).
  std::vector<std::string> mutableArguments(FuncCtx &f, const ast::Call *call);
  /// The same for one expression.
  std::vector<std::string> mutableRoots(FuncCtx &f, const ast::Expr *e);
  /// Whether `call` (of `qualified`, or of what the callee or `receiver`
  /// holds) is the standard library's, which changes no object it is given
  /// (ApiModel::keepsArguments).
  bool keepsArguments(const ast::Call *call, llvm::StringRef qualified,
                      const ast::Expr *receiver) const;
  /// The qualified library or local-module name `e` denotes, if any.
  std::string qualName(FuncCtx &f, const ast::Expr *e);
  /// A temporary assigned from the variables expression argument `e`
  /// reads (and the temporaries among `callReads`, the call's), for the
  /// parameter it binds; empty when it reads none.
  std::string expressionArgument(FuncCtx &f, const ast::Expr *e,
                                 const Effects &callReads);
  std::string factKey(FuncCtx &f, const std::string &var);
  FactSet factsOfVar(FuncCtx &f, const std::string &var);
  void addFacts(const std::string &key, const FactSet &facts);
  void assignFacts(FuncCtx &f, const ast::Expr *target, const FactSet &facts);
  void assignVarFacts(FuncCtx &f, const std::string &var, const FactSet &facts);
  std::string newTemp(FuncCtx &f) { return "$" + std::to_string(f.nextTemp++); }
  std::string objectId(char prefix, const ast::Node *n);
  ObjectInfo &object(const std::string &id, ObjectInfo::Kind kind);
  const ObjectInfo *findObject(const std::string &id) const;
  std::vector<std::string> objectsOf(const FactSet &facts,
                                     ObjectInfo::Kind kind) const;
  /// Variables of the current scope (and globals) holding any of `ids`.
  std::vector<std::string> varsHolding(FuncCtx &f,
                                       const std::vector<std::string> &ids);
  const ClassInfo *classOf(const std::string &symbol) const;
  /// The class defining `method` for an instance of `cls` (user bases
  /// searched depth-first), or "".
  std::string findMethod(const std::string &cls, llvm::StringRef method) const;
  std::string userClassOf(const FactSet &facts, ir::ClassRole role) const;

  mlir::Location loc(const ast::Node *stmt, const ast::Node *expr = nullptr);
  /// Creates a statement op with the standard variable lists, `numRegions`
  /// regions (each with a block and terminator), at the builder's point.
  /// Null in a pass that only gathers facts (!emitIR): nothing is created.
  mlir::Operation *emit(llvm::StringRef opName, const ast::Node *at,
                        llvm::ArrayRef<std::string> defs, const Effects &eff,
                        llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                        unsigned numRegions = 0);
  /// Creates a `detc.func` for `at` at the insertion point (with its
  /// terminator) and leaves the builder inside it, before the terminator.
  /// Null, the builder untouched, in a pass that only gathers facts.
  mlir::Operation *createFunc(const ast::Node *at, llvm::StringRef symbol,
                              ir::FuncKind kind,
                              std::optional<mlir::ArrayAttr> params);
  /// builder.create(state), the inherent attributes set as properties
  /// without a dictionary of them all. Null in a pass that only gathers
  /// facts.
  mlir::Operation *createOp(mlir::OperationState &state);
  /// Empties region `index` of `op` (an absent `else`); nothing for a null
  /// `op`.
  void dropRegion(mlir::Operation *op, unsigned index);
  /// Runs `fn` with the builder inside region `index` of `op` (a null `op`:
  /// the pass only gathers facts, `fn` runs where the builder is).
  void inRegion(mlir::Operation *op, unsigned index,
                llvm::function_ref<void()> fn);
  mlir::ArrayAttr strArray(llvm::ArrayRef<std::string> items);
  mlir::ArrayAttr moduleCalls(const ast::Node *stmt);
  const ast::Node *moduleCallsOf = nullptr;
  mlir::ArrayAttr moduleCallsValue;

  // ---- Calls into code detc does not read (UnreadCalls.cpp) ----
  /// Why a call may draw: `why` says what the callee is; `draws` when the
  /// library's source shows a draw (not only code detc could not read).
  struct UnreadReason {
    std::string why;
    bool draws = false;
    /// The draw is from a generator the library makes for itself.
    bool ownGenerator = false;
  };
  /// Why a call of `library` (a library name, `albumentations.Compose`)
  /// may draw, or nothing when the tables model it, declare its module
  /// quiet (api/python.api), or its source shows it draws nothing.
  /// `result`: a method of the value a call of `library` returned.
  std::optional<UnreadReason> whyUnread(llvm::StringRef library,
                                        bool result = false) const;
  /// What makes the loader a call of library `q` (unread: `why`) returns:
  /// the chain to the DataLoader its source constructs, or, when its
  /// source does not say, the reason when it is given a dataset (it may
  /// iterate it); nothing otherwise.
  std::optional<std::string> loaderMadeBy(llvm::StringRef q,
                                          const UnreadReason &why,
                                          const ast::Call *call,
                                          FuncCtx &f);
  /// Records `call` (an opaque call; `receiver` for a method call, and its
  /// callee's qualified name when the imports give one) as a call of code
  /// detc does not read, when it is one; the ops of the current statement
  /// emitted from now on carry it (`unread_calls`). Whether it is one.
  bool noteUnreadCall(FuncCtx &f, const ast::Call *call,
                      llvm::StringRef qualified, const ast::Expr *receiver);
  /// Records `call` as a call of code detc does not read, for `why`.
  bool recordUnreadCall(const Unit &unit, const ast::Call *call,
                        const UnreadReason &why);
  /// Why calling something that may be any of `objs` runs code detc does
  /// not read (`qualified`: the callee's imported name, when it has one).
  std::optional<UnreadReason>
  whyObjectsUnread(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                   llvm::StringRef qualified) const;
  /// Why calling something that may be any of `objs` draws through a
  /// library callable among them that the tables say draws (a
  /// torchvision model among the program's builders a parameter may
  /// hold), when the call is lowered as the other candidates.
  std::optional<UnreadReason>
  drawingLibraryCandidate(llvm::ArrayRef<PointsToResult::ObjectId> objs) const;
  /// Whether the points-to says `callee` may be a library callable (or a
  /// functools.partial of one).
  bool mayCallLibrary(const ast::Expr *callee) const;
  /// The longest prefix of `qualified` that is a module of the program
  /// (`utils.general` of `utils.general.LOGGER.info`), or empty.
  llvm::StringRef programModuleOf(llvm::StringRef qualified) const;
  /// Why `value` (a loader's dataset, a wrapper's model) may run code detc
  /// does not read when used (a value of no class detc knows: `noun` made
  /// where detc cannot see), or nothing. `ownObject` and the objects `call`
  /// makes do not count (`model = DDP(model)` holds itself).
  std::optional<UnreadReason> untraceableValue(FuncCtx &f,
                                               const ast::Expr *value,
                                               const std::string &ownObject,
                                               llvm::StringRef noun,
                                               const ast::Node *call);
  /// A dataset of no class detc knows (made at `at`, shown as `shown`):
  /// producing an example may run anything, its draws included
  /// (detc-may-draw in the per-example region, for `why`). Its object id.
  std::string unknownDatasetObject(FuncCtx &f, const ast::Node *at,
                                   const ast::Expr *shown,
                                   const UnreadReason &why);
  /// One `unread_calls` entry: `shown` as written, where it starts, why;
  /// with its file when the op carrying it may be in another one.
  mlir::DictionaryAttr unreadEntry(const Unit &unit, const ast::Expr *shown,
                                   const UnreadReason &why, bool withFile);
  /// "parameter 'x' of 'f', bound to nothing detc sees (...)" when `e` is
  /// a parameter of `f` that no call detc sees binds, else nothing.
  std::optional<std::string> unboundParameter(const FuncCtx &f,
                                              const ast::Expr *e) const;
  /// Why nothing the analysis tracks reaches `callee` (a parameter nothing
  /// binds, a dynamic lookup).
  std::string untraceableCallee(const FuncCtx &f,
                                const ast::Expr *callee) const;
  /// Why a method called on a receiver nothing the analysis tracks reaches
  /// may draw; nullopt for a name torch.Tensor has or a table gives any
  /// receiver.
  std::optional<std::string>
  untracedReceiverMethod(const FuncCtx &f,
                         const ast::Attribute *method) const;
  /// Whether `o` is what a `load`-role call returned (`torch.load`): an
  /// unpickled object, whose code is whatever was pickled.
  bool isUnpickled(PointsToResult::ObjectId o) const;
  /// Whether `o` is a value code detc cannot read returned: an unpacked
  /// part of an unmodelled library's result (`<value returned by X>`), or
  /// what a call of a module imported by a computed name returned (a
  /// compiled plugin's `_plugin.bias_act(x, ...)`). A method of one named
  /// as a tensor's, array's or image's is taken as that type's.
  bool isReturnedByUnreadCode(PointsToResult::ObjectId o) const;
  /// A method or attribute `attr` called on an instance of a program
  /// dataset class that neither defines it nor has it set anywhere the
  /// points-to sees: its library base's (torchvision's VisionDataset sets
  /// `self.transforms`), unless a table describes it there.
  std::optional<UnreadReason>
  libraryBaseAttribute(llvm::ArrayRef<PointsToResult::ObjectId> receivers,
                       llvm::StringRef attr) const;
  /// Why calling method `attr` of one of `receivers`, objects a call of a
  /// modelled library made (`accelerator = Accelerator()`), runs library
  /// code no table describes (`accelerator.log(...)`), or nothing.
  std::optional<UnreadReason>
  undescribedLibraryMethod(llvm::ArrayRef<PointsToResult::ObjectId> receivers,
                           llvm::StringRef attr) const;
  /// The loop variables of the loops being lowered that go over an
  /// object's parameters or state (`for e, p in zip(ema.parameters(),
  /// model.parameters())`), with the variables holding those objects: a
  /// change of a loop variable (`e.mul_(d).add_(p)`, `e.data = ...`) is a
  /// change of them (emit).
  llvm::StringMap<llvm::SmallVector<std::string, 2>> elementRoots;
  /// The variables holding the objects whose parameters or state `iter`
  /// goes over (ElementRoots).
  std::vector<std::string> elementRootsOf(FuncCtx &f, const ast::Expr *iter);
  /// The current statement's unread calls, or null.
  mlir::ArrayAttr unreadCallsOfStmt() const;
  const ast::Node *unreadCallsOf = nullptr;
  std::vector<mlir::Attribute> unreadCalls;
  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  mlir::NamedAttribute strAttr(llvm::StringRef name, llvm::StringRef value) {
    return builder.getNamedAttr(name, builder.getStringAttr(value));
  }
  void warnUnknown(FuncCtx &f, const ast::Node *n, const llvm::Twine &msg);
  /// Whether a call with `n` possible targets is followed: false past
  /// kMaxCallAlternatives, with a warning ("<what> any of N <kinds>; ...":
  /// "the callee may be any of 70 functions").
  bool followsAlternatives(FuncCtx &f, const ast::Call *call, size_t n,
                           llvm::StringRef what, llvm::StringRef kinds);
  /// The variable holding the loader `items` evaluates to, or a new
  /// temporary for a loader no variable holds (`DataLoader(...)` written
  /// in place).
  std::string loaderHolder(FuncCtx &f, const ast::Expr *items);
  void error(FuncCtx &f, const ast::Node *n, const llvm::Twine &msg);
  std::string uniqueSymbol(llvm::StringSet<> &used, llvm::StringRef name);
  mlir::SymbolRefAttr classMethodRef(const std::string &cls,
                                     llvm::StringRef method);

  /// The distinct facts of this lowering, current on this thread while it
  /// lives (first: every set below points into it).
  FactPool factPool;
  FactPool::Activation activeFactPool{factPool};

  mlir::MLIRContext &ctx;
  /// The ops' source spans; restarted with every pass's module.
  ir::SourceSpanRegion &spans;
  /// The locations loc() made last, by (statement, expression): a direct-
  /// mapped cache (emptied with `spans`).
  struct RecentSpan {
    const ast::Node *stmt = nullptr, *expr = nullptr;
    mlir::LocationAttr loc;
  };
  std::array<RecentSpan, 64> recentSpans;
  DiagnosticEngine &diags;
  LoweringOptions options;
  const ApiModel &api;
  /// Libraries no table models, read from source (UnreadCalls.cpp);
  /// summaries are memoised as they are asked for.
  mutable LibrarySource librarySource;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  /// The lowering's own parse cache when the options give none.
  std::unique_ptr<ParseCache> ownParseCache;
  ParseCache &parseCache;
  std::vector<std::unique_ptr<Unit>> units;
  llvm::StringMap<Unit *> unitsByModule;
  /// Source statement currently being lowered, for locations.
  const ast::Node *currentStmt = nullptr;
  Unit *currentUnit = nullptr;

  // ---- The points-to analysis (docs/pointsto.md) ----
  /// Run once before the passes; null when it could not run (the lowering
  /// then reports the same syntax errors itself).
  std::optional<PointsToResult> pointsTo;
  /// The lowering's ids (`b12_4`, `helpers:d7_9`) of the builds, datasets
  /// or loaders (`prefix`) among points-to objects `objs`: library objects
  /// and user-class instances the lowering knows with that kind.
  std::vector<std::string> loweredIds(
      llvm::ArrayRef<PointsToResult::ObjectId> objs, char prefix,
      ObjectInfo::Kind kind) const;
  /// Per points-to object with a site: the unit it was made in, once
  /// known (see loweredIds).
  mutable std::vector<const Unit *> siteUnits;
  /// The unit lowered from `file` (compared by real path), or null.
  const Unit *unitOfFile(llvm::StringRef file) const;
  mutable llvm::StringMap<std::string> realPaths;
  /// The points-to scope of `f` (`Net.forward`, `__main__`, `helpers`).
  std::string pointsToScope(const FuncCtx &f) const;
  /// Adds `obj:ID` facts for the builds, datasets, loaders and optimizers
  /// the points-to analysis says variable `name` of `f` may hold.
  void addPointsToFacts(FuncCtx &f, llvm::StringRef name, FactSet &out);
  /// The same for an element or attribute the facts do not follow (a
  /// loader in a dict a comprehension built, `SimpleNamespace(src=loader)
  /// .src`), with the instances of the program's classes.
  void addPointsToFacts(const ast::Expr *e, FactSet &out);
  void addPointsToFacts(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                        FactSet &out) const;
  /// Adds `func:`/`class:` facts for the program's functions and classes
  /// the points-to analysis says `callee` may evaluate to.
  void addCalleeFacts(const ast::Expr *callee, FactSet &out);
  /// Adds `inst:` facts for the instances of the program's classes the
  /// points-to analysis says `e` may evaluate to.
  void addInstanceFacts(const ast::Expr *e, FactSet &out);
  /// The lowering's symbols of what the points-to names `label`: itself
  /// and, for a name a module defines again (DeepLabV3Plus's
  /// ext_transforms defines `ExtRandomHorizontalFlip` twice; the second
  /// is the one that runs), `label.2`, `label.3`, ... (uniqueSymbol),
  /// whose objects the points-to labels alike.
  template <typename Table>
  static std::vector<std::string> definitionsOf(llvm::StringRef label,
                                                const Table &table) {
    std::vector<std::string> out{label.str()};
    for (unsigned n = 2;; ++n) {
      std::string again = (label + "." + llvm::Twine(n)).str();
      if (!table.count(again))
        return out;
      out.push_back(std::move(again));
    }
  }
  /// Adds `obj:` facts for the model builds the points-to analysis says
  /// `e` may evaluate to (a model the facts lost on the way).
  void addBuildFacts(const ast::Expr *e, FactSet &out);
  void addInstanceFacts(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                        FactSet &out) const;
  void addProgramCallables(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                           FactSet &out) const;
  /// The points-to objects allocated by `call` (in the current unit).
  std::vector<PointsToResult::ObjectId> pointsToAt(const ast::Node *call) const;

  // Persistent across passes: facts only grow. Except a temporary's
  // (`symbol|$N`): temporaries are numbered in lowering order, which moves
  // when a pass resolves a call differently, so `$3` of one pass is not the
  // `$3` of the next; forgetTemporaryFacts() drops them before each pass.
  llvm::StringMap<FactSet> facts;
  /// Whether `key` is a temporary's fact key (see `facts`).
  static bool isTemporaryKey(llvm::StringRef key) {
    return key.contains("|$");
  }
  /// Drops the facts of temporaries (see `facts`) before a pass.
  void forgetTemporaryFacts();
  /// Reverse index of the `obj:ID` facts: the keys holding each object.
  llvm::StringMap<FactSet> holders;
  /// Hashed, never iterated (the lowering asks for ids many times a pass).
  llvm::StringMap<ObjectInfo> objects;
  std::map<std::string, ClassInfo> classes;
  bool factsChanged = false;
  /// False in a pass that only gathers facts (the first): emit() and
  /// createOp() make no op and return null. The pass's module stays empty.
  bool emitIR = true;
  /// The current pass's own diagnostics; those of the last pass are the
  /// lowering's.
  DiagnosticEngine passDiags;

  // Per pass.
  llvm::StringSet<> moduleSymbols;
  std::map<std::string, llvm::StringSet<>> classSymbols;
  /// The symbol of each lambda lowered in this pass (a lambda's expression
  /// may be lowered more than once: it is one function).
  llvm::DenseMap<const ast::Node *, mlir::StringAttr> lambdaSymbols;
  /// The symbols of the lambdas lowered in this pass (their functions
  /// exist): only those may be called through the points-to's view.
  llvm::StringSet<> lambdasThisPass;
  std::set<std::string> rngLibraries;
  /// Top-level names of the modules imported from outside the program.
  std::set<std::string> foreignImports;
  /// The reads of values that differ from run to run (`varies` in the API
  /// tables: `datetime.now()`), each once: file, statement, call span and
  /// the name read. The module's `detc.varying_reads`: the transform
  /// records them for fast-forward (ReplayPlan).
  std::set<std::tuple<std::string, uint32_t, uint32_t, uint32_t, std::string>>
      varyingReads;
  /// What each call's value may hold (calls with no facts are absent).
  llvm::DenseMap<const ast::Node *, FactSet> callFacts;
  /// Parameter names of every function symbol (persistent; a call may be
  /// lowered before its callee): the array of strings its `detc.func`
  /// carries, uniqued in the context (a std::map of string vectors took
  /// ~150 bytes a function more).
  llvm::StringMap<mlir::ArrayAttr> funcParams;
  /// The parameters of `sym` a call with these arguments gives None or a
  /// string, with the literal: one given so, or left to such a default;
  /// none when the call has `*xs` or `**d` (either may give any
  /// parameter).
  std::vector<std::pair<std::string, const ast::Constant *>>
  constantParameters(const std::string &sym, size_t first,
                     ast::NodeList<ast::Expr> posArgs,
                     ast::NodeList<ast::Keyword> keywords,
                     llvm::ArrayRef<std::string> params) const;
  /// Whether method `method` of class `owner` is a `@property` (or
  /// `cached_property`) getter: `obj.method(x)` calls what it returns.
  bool isProperty(const std::string &owner, llvm::StringRef method) const;
  /// Each function's definition, by symbol (its parameters' defaults).
  llvm::StringMap<const ast::FunctionDef *> funcDefs;
  /// Parameter `i` of `params` (one of funcParams).
  static llvm::StringRef paramName(mlir::ArrayAttr params, size_t i) {
    return llvm::cast<mlir::StringAttr>(params[i]).getValue();
  }
  unsigned passNumber = 0;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_LOWERER_H
