//===- Transform.h - `detc transform --emit-python` -------------*- C++ -*-===//
//
// Rewrites a training script so that it is deterministic (SPEC §3), from the
// analyses' results: every unsafe (ERR) random draw of a batch region draws
// from per-example keyed streams, `__getitem__` with unsafe draws runs in an
// example scope, every DataLoader gets the keyed sampler whose indices carry
// their epoch and whose batches carry their example keys, the seed calls of
// ERR generators are recorded, and the deterministic-kernel switches are
// set. The output is the input byte for byte except these edits, each line
// marked with a `# detc:` comment. What cannot be rewritten is an error
// naming the construct and line; nothing is left silently nondeterministic.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_TRANSFORM_H
#define DETC_CODEGEN_TRANSFORM_H

#include "detc/analysis/Findings.h"
#include "detc/codegen/SourceEdits.h"
#include "detc/frontend/AST.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/ParseCache.h"
#include "detc/frontend/SourceFile.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <optional>

namespace detc::codegen {

/// `--overhead`: where the CheckHint schedule checkpoints.
struct HintCheckpoint {
  mlir::Operation *hint = nullptr; ///< A `detc.hint` op.
  uint64_t period = 0;             ///< Every `period`-th arrival.
  /// `--jit-checkpoint`: the hint is the minibatch boundary detc placed
  /// (placeJitBoundary), written only on a failure (docs/jit.md).
  bool jit = false;
  /// `--jit-checkpoint=guard-step`: keep a copy of what each optimizer
  /// step changes before it runs, so a failure inside the step still
  /// writes the minibatch's checkpoint (single-process jobs).
  bool guardStep = false;
};

/// The hint placeJitBoundary puts at the start of the minibatch.
inline constexpr llvm::StringLiteral kJitHint = "_checkpoint(\"detc-jit\")";

/// Where the JIT boundary hint goes (see JitPlan.cpp): a line of its own
/// before the line starting at byte `lineStart`, indented by `indent`.
struct JitBoundary {
  /// The imported module whose loop it is (the file name its ops carry:
  /// DeiT's `engine.py` `train_one_epoch`); empty: the script.
  std::string module;
  uint32_t lineStart = 0;
  std::string indent;
  /// The training loop's body starts on its header's line, at this byte:
  /// there is no line to put the hint before until that line is split
  /// (Relayout::splitShared).
  std::optional<uint32_t> inlineBody;
};
/// `inlineBodyIsError`: the script's lines were split already; a body on
/// its header's line is an error. `modules`: where the imported modules'
/// parses are, when the boundary may go into a loop of one (null: the
/// script's loops only).
std::optional<JitBoundary>
placeJitBoundary(const frontend::SourceFile &file, const ast::Module &tree,
                 mlir::ModuleOp module, frontend::DiagnosticEngine &diags,
                 bool inlineBodyIsError,
                 frontend::ParseCache *modules = nullptr);

struct TransformOptions {
  /// `--seed`: keys every stream instead of the script's own seeds.
  std::optional<uint64_t> seed;
  /// Set torch.use_deterministic_algorithms and the cuDNN/cuBLAS switches.
  bool deterministicKernels = true;
  /// Directory holding the detc_runtime package, added to sys.path by the
  /// emitted script; empty: rely on PYTHONPATH.
  std::string runtimePath;
  /// Checkpoint at this hint, with restart there (docs/checkhint.md).
  std::optional<HintCheckpoint> hint;
  /// `--strict`: a random call detc cannot make deterministic is an error
  /// (nothing written), not a warning.
  bool strict = false;
  /// `--vaccinate[=NAME,...]`: in-situ crash recovery (docs/vaccinate.md)
  /// for these module-level functions; empty: the entry and every function
  /// it calls by name, and the module's top-level loops.
  std::optional<std::vector<std::string>> vaccinate;
  /// The columns a vaccinated block needs between its header's and its
  /// body's indentation: the cell's `def` and its guards go there
  /// (VaccinePlan). A script indented narrower is re-indented first
  /// (Relayout::widenIndentation).
  static constexpr unsigned kVaccineIndentStep = 3;
  /// With `vaccinate`: the absolute path of the input and the command that
  /// transforms an edited copy the same way (`{script}`, `{out}`), for the
  /// runtime's surgery on running functions.
  std::string sourcePath;
  std::vector<std::string> retransform;
  /// `--trace[=DIR]`: the script writes JSON-lines traces of its training
  /// calls and steps to DIR (docs/traincheck.md); empty: `detc-trace`.
  std::optional<std::string> trace;
  /// `--check=FILE`: the script checks these invariants online (docs/
  /// traincheck.md), with the same instrumentation as `trace`.
  std::optional<std::string> check;
  /// The script's bytes as the user wrote them, when the file planned is
  /// a re-laid-out version (split lines, the JIT boundary): the runtime's
  /// surgery checks the file on disk against them. Empty: the file's own.
  std::string userSource;
  /// With `userSource`: the user's line of each line of the file planned
  /// (0: a line of detc's own), for what the report and the script name.
  std::vector<unsigned> userLines;
  /// `--jit-checkpoint` with the training loop in an imported module: the
  /// parses of the modules (the one with the boundary as detc placed it),
  /// which the hint and step planners then edit too (docs/jit.md, "Loops
  /// in imported modules"). Null: planners edit the script only.
  frontend::ParseCache *modules = nullptr;
  /// With `modules`: the module files as the user wrote them (before the
  /// boundary was placed), by the file name their ops carry.
  std::map<std::string, std::string> moduleSources;
};

/// An imported module a planner edited: the emitted script carries its
/// edited text and installs it in place of the file when the file is the
/// one detc read (runtime overlay.py).
struct EditedModule {
  std::string path; ///< As the lowering named it.
  std::string name; ///< The name the script imports it under.
  std::string sha256; ///< Of the user's file (lowercase hex).
  std::string text;   ///< As edited.
  std::string diff;   ///< From the user's file, for `--diff`.
};

/// The identifier transformed scripts bind the runtime to (single
/// underscore: a double one would be mangled inside class bodies).
inline constexpr llvm::StringLiteral kRuntimeAlias = "_detc_rt";

/// What a transform guarantees beyond "deterministic", for the report.
struct TransformSummary {
  /// `file:line` of each random call left nondeterministic (no `strict`).
  std::vector<std::string> leftAsIs;
  /// `file:line` of each per-batch draw keyed by its batch: identical for
  /// any worker count, thread count or resume, not for another batch size.
  std::vector<std::string> batchKeyed;
  /// Statements a planner needs on lines of their own (their begin
  /// offsets): split their lines (Relayout::splitShared) and plan again.
  std::vector<uint32_t> ownLineRequests;
  /// The imported modules the planners edited (TransformOptions::modules).
  std::vector<EditedModule> modules;
};

/// Fills `edits` with the determinism rewrite of `file`. Returns false after
/// reporting errors (already transformed; with `strict`, unrewritable
/// random calls). `summary`, when given, receives what the report says.
bool planDeterminism(const frontend::SourceFile &file,
                     const ast::Module &tree, mlir::ModuleOp module,
                     const analysis::ProgramAnalysis &analysis,
                     const TransformOptions &options,
                     frontend::DiagnosticEngine &diags, EditList &edits,
                     TransformSummary *summary = nullptr);

/// Why the emitted script `text` is not Python (`line:col: message`), or
/// nullopt when it parses: checked before anything is written
/// (EmitCheck.cpp).
std::optional<std::string> emittedSyntaxError(llvm::StringRef name,
                                              llvm::StringRef text);

} // namespace detc::codegen

#endif // DETC_CODEGEN_TRANSFORM_H
