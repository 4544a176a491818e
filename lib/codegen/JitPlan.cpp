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

/// The callee when `op` calls a method `step` of an object detc cannot
/// read (an optimizer of a library it does not read: timm's, an
/// unresolved import's), else "".
static StringRef unreadStep(Operation *op) {
  auto calls = op->getAttrOfType<ArrayAttr>("unread_calls");
  if (!calls)
    return "";
  for (Attribute a : calls) {
    auto d = dyn_cast<DictionaryAttr>(a);
    auto callee = d ? d.getAs<StringAttr>("callee") : StringAttr();
    if (callee && callee.getValue().ends_with(".step"))
      return callee.getValue();
  }
  return "";
}

/// Whether `op` may step an optimizer detc cannot wrap: the JIT runtime
/// sees whether it did (the parameters' version counters) and then writes
/// no checkpoint.
static bool mayStep(Operation *op) { return !unreadStep(op).empty(); }

/// Whether `root` (a loop, a function) steps an optimizer: an update op
/// (also the `step` of an optimizer class of the script: the lowering adds
/// its update), or a call of a function in `stepping`.
static bool stepsIn(Operation *root, ModuleOp module,
                    const llvm::DenseSet<Operation *> &stepping) {
  bool steps = false;
  root->walk([&](Operation *op) {
    if (isa<ir::UpdateOp>(op) || mayStep(op)) {
      steps = true;
    } else if (auto call = dyn_cast<ir::CallOp>(op)) {
      Operation *callee = module.lookupSymbol(call.getCallee());
      steps |= callee && stepping.contains(callee);
    }
  });
  return steps;
}

/// The script's functions for which `steps(f, found)` holds, `found` being
/// those found so far (a fixpoint over the call graph: a function that
/// calls one of them may be one too).
static llvm::DenseSet<Operation *> functionsWhere(
    ModuleOp module,
    llvm::function_ref<bool(Operation *, const llvm::DenseSet<Operation *> &)>
        steps) {
  llvm::DenseSet<Operation *> found;
  std::vector<ir::FuncOp> funcs;
  module.walk([&](ir::FuncOp f) { funcs.push_back(f); });
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::FuncOp f : funcs) {
      if (found.contains(f) || !steps(f, found))
        continue;
      found.insert(f);
      changed = true;
    }
  }
  return found;
}

/// The script's functions that step an optimizer, directly or through the
/// functions they call.
static llvm::DenseSet<Operation *> steppingFunctions(ModuleOp module) {
  return functionsWhere(module, [&](Operation *f, const auto &stepping) {
    return stepsIn(f, module, stepping);
  });
}

/// Whether each iteration of `loop` steps an optimizer itself: an update op
/// or a call of a function in `steppingOnce` in its body, not inside a
/// loop nested in it (whose iterations would be the minibatches).
static bool stepsEachIteration(Operation *loop, ModuleOp module,
                               const llvm::DenseSet<Operation *> &steppingOnce) {
  bool steps = false;
  for (Region &region : loop->getRegions())
    region.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<ir::ForOp, ir::WhileOp>(op))
        return WalkResult::skip();
      if (isa<ir::UpdateOp>(op)) {
        steps = true;
      } else if (auto call = dyn_cast<ir::CallOp>(op)) {
        Operation *callee = module.lookupSymbol(call.getCallee());
        steps |= callee && steppingOnce.contains(callee);
      }
      return WalkResult::advance();
    });
  return steps;
}

/// The script's functions that step an optimizer outside any loop of
/// theirs, directly or through the functions they call: a call of one
/// is one step (`loss = train_step(batch)`).
static llvm::DenseSet<Operation *> steppingOnceFunctions(ModuleOp module) {
  return functionsWhere(module, [&](Operation *f, const auto &stepping) {
    return stepsEachIteration(f, module, stepping);
  });
}

std::optional<JitBoundary> placeJitBoundary(const frontend::SourceFile &file,
                                            const ast::Module &tree,
                                            ModuleOp module,
                                            frontend::DiagnosticEngine &diags,
                                            bool inlineBodyIsError,
                                            frontend::ParseCache *modules) {
  llvm::DenseSet<Operation *> stepping = steppingFunctions(module);
  // Loops over a loader, in source order; the first whose iterations step
  // an optimizer (directly or in a function they call) is the training
  // loop: the script's first, then an imported module's (DeiT's, MAE's
  // and DETR's `train_one_epoch` in `engine.py`), where `modules` lets the
  // planners edit one; a loop that steps nothing (an evaluation's) only
  // when none steps.
  struct Candidate {
    Operation *loop;
    ir::SourceSpan at;
    bool steps, inScript;
  };
  std::vector<Candidate> loops, steppingLoops;
  llvm::DenseSet<Operation *> steppingOnce = steppingOnceFunctions(module);
  module.walk([&](Operation *loop) {
    std::optional<ir::SourceSpan> at = ir::getSourceSpan(loop->getLoc());
    if (!at || !at->file)
      return;
    // A loop over a loader, or over batches cut by hand (`range` with a
    // slice, `get_batch(source, i)`), or a `while` taking batches with
    // next() (minGPT's `while True: batch = next(data_iter)`): its body
    // is a per-batch region.
    if (ir::takesBatches(loop)) {
      loops.push_back({loop, *at, stepsIn(loop, module, stepping),
                       at->file == file.getName()});
      return;
    }
    // Else a loop each iteration of which steps an optimizer, whatever its
    // batches come from (nanoGPT's `while True:` over `X, Y =
    // get_batch('train')`, which draws the examples' offsets from torch's
    // generator): its iterations are the minibatches. Only when no loop
    // takes batches.
    if (isa<ir::ForOp, ir::WhileOp>(loop) &&
        stepsEachIteration(loop, module, steppingOnce))
      steppingLoops.push_back({loop, *at, true, at->file == file.getName()});
  });
  if (llvm::none_of(loops, [](const Candidate &c) { return c.steps; }))
    loops.insert(loops.begin(), steppingLoops.begin(), steppingLoops.end());
  std::stable_sort(loops.begin(), loops.end(), [&](auto &a, auto &b) {
    if (!modules) // the script's loops only; a module's is named below
      return a.inScript > b.inScript ||
             (a.inScript == b.inScript && a.steps > b.steps);
    return a.steps > b.steps || (a.steps == b.steps && a.inScript > b.inScript);
  });
  if (loops.empty()) {
    diags.error(&file, {1, 0, 0},
                "--jit-checkpoint: no loop over batches in this script or "
                "the modules it imports (a DataLoader, or batches cut by "
                "hand): the minibatch boundary goes at the start of its "
                "body");
    return std::nullopt;
  }
  const Candidate &chosen = loops.front();
  // The file the loop is in: the script, or an imported module.
  const frontend::SourceFile *in = &file;
  const ast::Module *inTree = &tree;
  if (!chosen.inScript) {
    const frontend::ParseCache::Entry *entry =
        modules ? &modules->get(chosen.at.file.getValue(), diags) : nullptr;
    if (!entry || !entry->file || !entry->parsed || !entry->parsed->module) {
      diags.error(&file, {1, 0, 0},
                  ("--jit-checkpoint: the training loop is in another file, " +
                   chosen.at.file.getValue() + ":" + Twine(chosen.at.line) +
                   " (a module this script imports), which detc cannot edit")
                      .str());
      return std::nullopt;
    }
    in = entry->file.get();
    inTree = entry->parsed->module;
  }
  StringRef src = in->getBytes();
  uint32_t begin = chosen.at.stmtBegin;
  StatementIndex places(*inTree);
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
      diags.error(in, {at.line, at.column, at.offset},
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
  std::string moduleName = chosen.inScript ? "" : in->getName().str();
  if (indent.find_first_not_of(" \t") != StringRef::npos) {
    // The script's lines are split and planned again; a module's are not.
    if (!inlineBodyIsError && chosen.inScript)
      return JitBoundary{moduleName, 0, "", first};
    diags.error(in, {loop->getRange().begin.line,
                     loop->getRange().begin.column,
                     loop->getRange().begin.offset},
                "--jit-checkpoint: the body of the training loop starts on "
                "its header's line; put it on lines of its own");
    return std::nullopt;
  }
  return JitBoundary{moduleName, lineStart, indent.str(), std::nullopt};
}

bool planJitSteps(PlanContext &ctx) {
  if (!ctx.options.hint || !ctx.options.hint->jit)
    return true;
  bool ok = true;
  std::vector<Operation *> steps;
  ctx.module.walk([&](Operation *op) {
    if (isa<ir::UpdateOp>(op))
      steps.push_back(op);
    else if (StringRef callee = unreadStep(op); !callee.empty())
      // Said now rather than at the failure.
      ctx.warning(op, "--jit-checkpoint: '" + callee +
                          "' calls code detc cannot read and may step an "
                          "optimizer, which detc cannot wrap: a failure "
                          "after it writes no just-in-time checkpoint (the "
                          "runtime sees the parameters change) [detc-jit]");
  });
  for (Operation *step : steps) {
    // A step in an imported module detc edits (the training loop's there:
    // DeiT's `engine.py`) is wrapped there.
    std::optional<ir::SourceSpan> at = ir::getSourceSpan(step->getLoc());
    PlanContext *in =
        at && at->file ? ctx.moduleContext(at->file.getValue()) : nullptr;
    if (!in || !in->spanOf(step)) {
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
    ok &= in->wrapCallee(step, formatv("{0}.jit.step(", kRuntimeAlias).str(),
                         "the optimizer step",
                         "a failure before it writes a just-in-time "
                         "checkpoint");
  }
  return ok;
}

} // namespace detc::codegen
