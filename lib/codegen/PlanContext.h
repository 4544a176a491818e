//===- PlanContext.h - What the rewrite planners share ----------*- C++ -*-===//
//
// The determinism rewrite (Transform.cpp) and the replay instrumentation
// (ReplayPlan.cpp) both turn analysis results on IR ops into edits of the
// original bytes: they need the op's source span, diagnostics at it, and
// one numbering of sites (the `site` word of streams and checkpoints).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_PLANCONTEXT_H
#define DETC_LIB_CODEGEN_PLANCONTEXT_H

#include "detc/codegen/Transform.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>

namespace detc::codegen {

/// Byte offsets of an op's statement and expression in the source file.
struct Span {
  uint32_t stmtBegin, stmtEnd, exprBegin, exprEnd;
};

class StatementIndex;

class PlanContext {
public:
  PlanContext(const frontend::SourceFile &file, const ast::Module &tree,
              mlir::ModuleOp module, const analysis::ProgramAnalysis &a,
              const TransformOptions &options,
              frontend::DiagnosticEngine &diags, EditList &edits)
      : file(file), src(file.getBytes()), tree(tree), module(module), a(a),
        options(options), diags(diags), edits(edits) {}

  /// The span of `op` when it was lowered from this file (not from an
  /// imported module).
  std::optional<Span> spanOf(mlir::Operation *op) const;
  ast::SourcePos posAt(uint32_t offset) const;
  void error(mlir::Operation *op, const llvm::Twine &message);
  void warning(mlir::Operation *op, const llvm::Twine &message);
  /// What the transform did at `op` that the user should know.
  void note(mlir::Operation *op, const llvm::Twine &message);
  /// A random call detc cannot make deterministic: an error with
  /// `--strict`; else a warning, the call stays as it is and is listed in
  /// leftNondeterministic (the script is still emitted).
  void unrewritable(mlir::Operation *op, const llvm::Twine &message);
  /// `file:line` of each call unrewritable() left as it is.
  std::vector<std::string> leftNondeterministic;
  /// Draws the determinism planner made leave their generator's state as
  /// it was: keyed calls and modules, per-batch keyed calls (they draw
  /// from generators of their own) and draws in example scopes (which
  /// restore the states they reseed). A JIT boundary need not copy the
  /// state of a generator that only such draws use in the loops: the state
  /// at a failure is the one at the boundary.
  llvm::DenseSet<mlir::Operation *> stateKeepingDraws;
  void warning(uint32_t offset, const llvm::Twine &message);
  /// `file:line` of `op` for the report, in the user's lines.
  std::string where(mlir::Operation *op) const;
  /// The user's line of `op` (before detc split statements onto lines of
  /// their own).
  unsigned userLine(mlir::Operation *op) const;
  /// The user's line of byte `offset` of the source being edited.
  unsigned userLineAt(uint32_t offset) const;
  /// Wraps the callee of `op`'s call: `callee(args)` becomes
  /// `prefix callee suffix(args)`, and notes the line. A call not written
  /// in this script (calleeWrappable false) is reported unrewritable.
  bool wrapCallee(mlir::Operation *op, const std::string &prefix,
                  llvm::StringRef what, llvm::StringRef note,
                  llvm::StringRef suffix = ")");
  /// Whether wrapCallee can rewrite `op`'s call.
  bool calleeWrappable(mlir::Operation *op) const;
  /// How the script names generator object `o` where the variables
  /// prefixed `qualifier` are in scope: `"torch"` (a library's global
  /// generator, quoted) or a variable holding it; empty when none does.
  /// `moduleName`: the module whose function the variables are in (the
  /// lowering's name of an imported module; empty: the script).
  std::string generatorHandle(unsigned o, llvm::StringRef qualifier,
                              llvm::StringRef moduleName = "") const;
  /// The whitespace before byte `offset` on its line, or None when other
  /// text precedes it there.
  std::optional<llvm::StringRef> indentAt(uint32_t offset) const;
  /// A planner needs the statement beginning at `stmtBegin` on lines of
  /// its own and left it out (with the diagnostic it gives when that
  /// cannot be): the transform splits its line and plans again
  /// (LineSplit.h).
  void needOwnLine(uint32_t stmtBegin) { ownLineRequests.push_back(stmtBegin); }
  /// The last line of the file's leading block (its docstring, `from
  /// __future__` imports, or the shebang and coding comments): imports of
  /// detc's go after it; 0 when there is none.
  unsigned leadingBlockEnd() const;
  /// The statements planners asked to have on lines of their own.
  std::vector<uint32_t> ownLineRequests;
  unsigned newSite() { return nextSite++; }
  /// The key of the random streams a rewritten call draws from: what the
  /// call is — `role`, the qualified name of the function or class around
  /// it (`Net.__init__`; none at the module's top level), its source text
  /// without blanks, and how often that text occurs in the function
  /// before it — never the planning order. So transforming, vaccinating
  /// or tracing the script, or editing another function, leaves every
  /// other call's streams as they were; a loader's text leaves out the
  /// arguments that say only how it loads (`num_workers=8`). `op` without
  /// a span in this file
  /// (built in an imported module): `role` alone names it. Keys have the
  /// top bit set (they never meet newSite()'s small numbers).
  unsigned streamSite(mlir::Operation *op, llvm::StringRef role);
  /// The same for the call at span `s` of this file.
  unsigned streamSite(std::optional<Span> s, llvm::StringRef role);
  /// Runtime calls a planner needs after `configure(...)` in the header.
  std::vector<std::string> extraHeader;

  /// The context of the imported module `fileName` (the file name its ops
  /// carry), made on first use, for a planner that edits a module too (a
  /// JIT boundary in an imported module's training loop: docs/jit.md);
  /// null where the transform edits the script only
  /// (TransformOptions::modules unset) or the file is not a module it
  /// read. Its report lines are the user's.
  PlanContext *moduleContext(llvm::StringRef fileName);
  /// An imported module's context: the name the script imports it under
  /// (`engine`, `util.engine`), as the lowering names its globals
  /// (`@engine.steps`). Empty: the script's.
  std::string moduleName;
  /// Whether this is an imported module's context (moduleContext).
  bool isModule() const { return owner != nullptr; }
  /// The modules edited, their guards flushed and the runtime imported at
  /// their top (the script's context only).
  std::vector<EditedModule> finishModules();

  const frontend::SourceFile &file;
  llvm::StringRef src;
  const ast::Module &tree;
  mlir::ModuleOp module;
  const analysis::ProgramAnalysis &a;
  const TransformOptions &options;
  frontend::DiagnosticEngine &diags;
  EditList &edits;
  /// Registers a guard on the simple statement spanning [begin, end): it
  /// runs only when `condition` holds. Replay and a hint restart may both
  /// guard a statement; flushGuards() writes one `if A and B:` per
  /// statement.
  void guardStatement(uint32_t begin, uint32_t end, std::string condition,
                      std::string note);
  void flushGuards();

private:
  /// A diagnostic at `op` (in the script, or in the module it came from).
  void report(frontend::Severity severity, mlir::Operation *op,
              const llvm::Twine &message);
  struct StatementGuard {
    uint32_t end;
    std::vector<std::string> conditions, notes;
  };
  std::map<uint32_t, StatementGuard> statementGuards;
  unsigned nextSite = 1;
  /// Built on the first streamSite() call.
  std::shared_ptr<StatementIndex> statements;
  struct ModulePlan;
  /// The script's context: the modules it edits (moduleContext).
  std::shared_ptr<std::vector<std::unique_ptr<ModulePlan>>> modulePlans;
  /// A module's context: the script's.
  PlanContext *owner = nullptr;
};

/// Instruments the script for faithful replay (SPEC §5, docs/replay.md):
/// checkpoint calls write sidecars, the statements fast-forward skips are
/// guarded, loader loops hand out placeholder batches in fast-forward, and
/// restore code follows each checkpoint. Sites it cannot instrument get a
/// warning and keep the plain checkpoint call.
void planReplay(PlanContext &ctx);

/// Instruments the hint `options.hint` chose (docs/checkhint.md): the hint
/// writes the values live there, generator states and the loop positions
/// every `period`-th arrival; the loops around it can re-enter at a saved
/// item, and the statements before it are skipped on the way in. Returns
/// false after an error (the hint cannot be instrumented exactly).
bool planHints(PlanContext &ctx);

/// `--jit-checkpoint`: wraps the optimizer steps in `_detc_rt.jit.step`
/// (JitPlan.cpp); false after an error (a step detc cannot see).
bool planJitSteps(PlanContext &ctx);

/// `--vaccinate`: splits the chosen functions into cells behind crash
/// barriers (VaccinePlan.cpp); false after an error (a block detc cannot
/// split, an unknown function).
bool planVaccination(PlanContext &ctx);

/// `--trace`: wraps the calls the IR classifies (forward, backward, step,
/// zero_grad, train/eval, clipping) in trace records and marks the start
/// of each training step (TracePlan.cpp).
bool planTrace(PlanContext &ctx);

/// For `--detc-profile` (the runtime's profile.py): what a checkpoint at
/// each hint that can be instrumented would save, by the hint's line.
std::map<unsigned, std::vector<std::string>> hintSaveTable(PlanContext &ctx);

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_PLANCONTEXT_H
