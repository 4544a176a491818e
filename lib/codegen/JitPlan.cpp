//===- JitPlan.cpp - Just-in-time checkpointing (--jit-checkpoint) --------===//
//
// Two steps (docs/jit.md):
//  1. placeJitBoundary: where a `_checkpoint("detc-jit")` hint goes, as
//     the first statement of the training loop's minibatch — the body of
//     the first loop over a DataLoader (a `for`, or a `while` taking
//     batches with next()) whose iteration steps an optimizer.
//     That version of the script is lowered and analysed again, and the
//     CheckHint machinery (HintPlan.cpp) instruments the hint, in JIT mode:
//     never written periodically, `_detc_rt.jit.boundary(...)` instead of
//     `hints.hint(...)`, with the same restart at the hint;
//  2. planJitSteps: the optimizer steps are wrapped in `_detc_rt.jit.step`
//     so that the runtime knows whether a failure came before the step
//     (the parameters still describe the minibatch start) or not.
//
//===----------------------------------------------------------------------===//

#include "PlanContext.h"
#include "StatementIndex.h"
#include "detc/codegen/Transform.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir;

namespace detc::codegen {

/// The span of `op` when it is in `file` (not an imported module).
static std::optional<std::pair<uint32_t, uint32_t>>
stmtRange(Operation *op, StringRef fileName) {
  std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
  if (!s || s->file != fileName)
    return std::nullopt;
  return std::make_pair(s->stmtBegin, s->stmtEnd);
}

/// Whether `root` (a loop, a function) steps an optimizer: an update op
/// (also the `step` of an optimizer class of the script: the lowering adds
/// its update), or a call of a function in `stepping`.
static bool stepsIn(Operation *root, ModuleOp module,
                    const llvm::DenseSet<Operation *> &stepping) {
  bool steps = false;
  root->walk([&](Operation *op) {
    if (isa<ir::UpdateOp>(op)) {
      steps = true;
    } else if (auto call = dyn_cast<ir::CallOp>(op)) {
      Operation *callee = module.lookupSymbol(call.getCallee());
      steps |= callee && stepping.contains(callee);
    }
  });
  return steps;
}

/// The script's functions that step an optimizer, directly or through the
/// functions they call (a fixpoint over the call graph).
static llvm::DenseSet<Operation *> steppingFunctions(ModuleOp module) {
  llvm::DenseSet<Operation *> stepping;
  std::vector<ir::FuncOp> funcs;
  module.walk([&](ir::FuncOp f) { funcs.push_back(f); });
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::FuncOp f : funcs) {
      if (stepping.contains(f) || !stepsIn(f, module, stepping))
        continue;
      stepping.insert(f);
      changed = true;
    }
  }
  return stepping;
}

std::optional<JitBoundary> placeJitBoundary(const frontend::SourceFile &file,
                                            const ast::Module &tree,
                                            ModuleOp module,
                                            frontend::DiagnosticEngine &diags,
                                            bool inlineBodyIsError) {
  StringRef src = file.getBytes();
  llvm::DenseSet<Operation *> stepping = steppingFunctions(module);
  // Loops over a loader, in source order; the first whose iterations step
  // an optimizer (directly or in a function they call) is the training
  // loop.
  std::vector<std::pair<Operation *, bool>> loops;
  // The first loop over batches in another file (an imported module's
  // `train_one_epoch`), stepping ones first: named when the script has
  // none.
  std::optional<ir::SourceSpan> elsewhere;
  bool elsewhereSteps = false;
  module.walk([&](Operation *loop) {
    // A loop over a loader, or over batches cut by hand (`range` with a
    // slice, `get_batch(source, i)`), or a `while` taking batches with
    // next() (minGPT's `while True: batch = next(data_iter)`): its body
    // is a per-batch region.
    if (!ir::takesBatches(loop))
      return;
    if (!stmtRange(loop, file.getName())) {
      std::optional<ir::SourceSpan> at = ir::getSourceSpan(loop->getLoc());
      bool steps = stepsIn(loop, module, stepping);
      if (at && at->file && (!elsewhere || (steps && !elsewhereSteps))) {
        elsewhere = at;
        elsewhereSteps = steps;
      }
      return;
    }
    loops.push_back({loop, stepsIn(loop, module, stepping)});
  });
  std::stable_sort(loops.begin(), loops.end(), [](auto &a, auto &b) {
    return a.second > b.second;
  });
  if (loops.empty() && elsewhere) {
    diags.error(&file, {1, 0, 0},
                ("--jit-checkpoint: the training loop is in another file, " +
                 elsewhere->file.getValue() + ":" + Twine(elsewhere->line) +
                 " (a module this script imports); detc puts the minibatch "
                 "boundary in a loop of the script it transforms and does "
                 "not edit imported modules: move the loop into the script "
                 "to use --jit-checkpoint")
                    .str());
    return std::nullopt;
  }
  if (loops.empty()) {
    diags.error(&file, {1, 0, 0},
                "--jit-checkpoint: no loop over batches in this script (a "
                "DataLoader, or batches cut by hand): the minibatch boundary "
                "goes at the start of its body");
    return std::nullopt;
  }
  uint32_t begin = stmtRange(loops.front().first, file.getName())->first;
  StatementIndex places(tree);
  const StmtPlace *place = places.at(begin);
  const ast::Stmt *loop = place ? place->stmt : nullptr;
  ast::NodeList<ast::Stmt> body;
  if (auto *f = dyn_cast_or_null<ast::For>(loop))
    body = f->body;
  else if (auto *w = dyn_cast_or_null<ast::While>(loop))
    body = w->body;
  else
    loop = nullptr;
  if (!loop || body.empty()) {
    // A loop a library call runs (`trainer.fit(module, loader)`):
    // the minibatch boundary would be inside the library.
    if (place && place->stmt) {
      const ast::SourcePos &at = place->stmt->getRange().begin;
      diags.error(&file, {at.line, at.column, at.offset},
                  "--jit-checkpoint: the training loop runs inside code "
                  "this statement calls (a library's, detc does not edit "
                  "it): the minibatch boundary goes at the start of a "
                  "loop of this script");
      return std::nullopt;
    }
    diags.error(&file, {1, 0, 0},
                "--jit-checkpoint: the training loop is not a `for` or "
                "`while` statement of this script");
    return std::nullopt;
  }
  uint32_t first = body[0]->getRange().begin.offset;
  uint32_t lineStart = first;
  while (lineStart > 0 && src[lineStart - 1] != '\n')
    --lineStart;
  StringRef indent = src.slice(lineStart, first);
  if (indent.find_first_not_of(" \t") != StringRef::npos) {
    if (!inlineBodyIsError)
      return JitBoundary{0, "", first};
    diags.error(&file, {loop->getRange().begin.line,
                        loop->getRange().begin.column,
                        loop->getRange().begin.offset},
                "--jit-checkpoint: the body of the training loop starts on "
                "its header's line; put it on lines of its own");
    return std::nullopt;
  }
  return JitBoundary{lineStart, indent.str(), std::nullopt};
}

bool planJitSteps(PlanContext &ctx) {
  if (!ctx.options.hint || !ctx.options.hint->jit)
    return true;
  bool ok = true;
  std::vector<Operation *> steps;
  ctx.module.walk([&](Operation *op) {
    if (isa<ir::UpdateOp>(op))
      steps.push_back(op);
  });
  for (Operation *step : steps) {
    if (!ctx.spanOf(step)) {
      analysis::SourcePoint p = analysis::sourcePoint(step);
      ctx.diags.error(&ctx.file, {1, 0, 0},
                      "--jit-checkpoint: the optimizer step at " + p.file +
                          ":" + std::to_string(p.line) +
                          " is in a module the script imports; detc must "
                          "see every step to tell a failure before it "
                          "from one after it");
      ok = false;
      continue;
    }
    ok &= ctx.wrapCallee(step, formatv("{0}.jit.step(", kRuntimeAlias).str(),
                         "the optimizer step",
                         "a failure before it writes a just-in-time "
                         "checkpoint");
  }
  return ok;
}

} // namespace detc::codegen
