//===- ReplayPlan.cpp - Instrumenting checkpoints for faithful replay -----===//
//
// For every user checkpoint, from the Needed analysis:
//  * the call goes through `_detc_rt.checkpoint(SITE, save, {values})`,
//    which writes the sidecar; `values` holds thunks for what detc must
//    save (needed, not re-derivable) and for generator states skipped work
//    advanced;
//  * after it, restore code runs once when resuming from that site: the
//    user's own state is loaded back the way it was saved (`X.state_dict()`
//    under a key becomes `X.load_state_dict(ckpt[key])`, a plain variable
//    is reassigned), then detc's values, then fast-forward ends;
//  * in the loops around it (and in the functions only they call, also in
//    the modules the script imports, whose edited copies the script's
//    header installs), every statement fast-forward does not re-execute
//    is guarded: a simple statement becomes `if _detc_rt.guard(): stmt`
//    on its own line, a compound one skipped as a whole gets its header
//    guarded (`if`/`while` tests and `for` iterables), so that its `else`
//    parts are skipped too;
//  * loops over a keyed loader name their target's shape
//    (`_detc_rt.batches(loader, 2)`), so placeholder batches unpack.
// Guards are shared by all sites: a statement runs in fast-forward when any
// site needs it (each site's re-executed set is closed under what it
// reads, so their union is too).
//
// Anything that cannot be instrumented exactly is a warning, and the script
// is left without sidecars (or that site, for a site-local reason): a
// resume that might be wrong is never emitted.
//
//===----------------------------------------------------------------------===//

#include "CallerNames.h"
#include "FunctionScope.h"
#include "GuardWriter.h"
#include "PlanContext.h"
#include "StatementIndex.h"
#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ASTDump.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <map>
#include <set>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {
namespace {

using analysis::NodeId;

struct FilePlan;

/// The plain names an assignment target binds, into `out` (`_` left
/// out); false for any other target (an attribute, a subscript, a
/// starred name).
bool assignedNames(const ast::Expr *target, std::vector<std::string> &out) {
  if (auto *n = dyn_cast<ast::Name>(target)) {
    if (n->id != "_")
      out.push_back(n->id.str());
    return true;
  }
  if (auto *seq = dyn_cast<ast::Sequence>(target))
    return llvm::all_of(seq->elts, [&](const ast::Expr *e) {
      return assignedNames(e, out);
    });
  return false;
}

/// `if _detc_rt.has_value("KEY"): STATEMENT`: a restore that leaves a
/// value the checkpoint did not hold (unbound when it was written) alone.
std::string ifSaved(StringRef key, StringRef statement) {
  return formatv("if {0}.has_value(\"{1}\"): {2}", kRuntimeAlias, key,
                 statement)
      .str();
}

/// One checkpoint site that will be instrumented.
struct SitePlan {
  const analysis::CheckpointReplay *cp;
  unsigned site;
  Span span;             ///< The save call's statement (`torch.save(...)`).
  const ast::Call *call; ///< The save call.
  /// The statement the restore code follows: the save's own, or, for a
  /// helper that saves its parameter (`save_checkpoint(state, is_best)`),
  /// the helper's call in its caller; or the `if` around either that only
  /// decides whether it runs (hoistOverTests: `if rank == 0: ...`).
  Span resume;
  /// Outermost loop around `resume` in its function (null: none).
  const ast::Stmt *nest;
  /// The loops fast-forward goes through to reach the site: the nest, or,
  /// for a save after the loops (a final save), the loops before it in its
  /// block.
  std::vector<const ast::Stmt *> roots;
  /// A save in a helper: the call in the caller announces the site (and
  /// detc's values, read in the caller's scope) just before it runs.
  NodeId caller = analysis::kNoNode;
  std::string values;               ///< `{"name": lambda: name, ...}` or empty.
  std::vector<std::string> restore; ///< Statements, without indentation.
  /// The plain names those statements rebind (`acc = _detc_ckpt['acc']`).
  std::vector<std::string> rebound;
  /// `{key: lambda: X.state_dict(), ...}` (`None` for a whole-object save):
  /// what the restore loaded, re-read for the runtime's digest check.
  std::string verify;
  /// The save is announced on the line before it (as a helper's is) and
  /// skipped in fast-forward, its argument unevaluated: a save behind a
  /// logged test (CheckpointReplay::logged: what it saves is computed by
  /// the training fast-forward skips), or of a dict built just before it
  /// (`state = {..., 'accuracy': test_acc}; torch.save(state, path)`:
  /// building it there would read what skipped work computes —
  /// RepDistiller's regular save read a validation accuracy fast-forward
  /// never computed).
  bool announced = false;
  /// The announcement and the restore go around the `if`s the save (or the
  /// helper's call) is the last statement of (hoistOverTests); the save
  /// itself reads detc's values, where it runs.
  bool hoisted = false;
  /// planValues failed for a value not visible where the restore is (a
  /// caller's: `opt` of the function calling `save_state(model, path)`).
  bool needsCallers = false;
  /// The helper's call statement in the caller (fast-forward skips it).
  uint32_t callStmt = 0;
  /// The file of the save call: the script, or a module holding the helper
  /// (its edited copy wraps the save).
  FilePlan *saveFile = nullptr;
  /// What is saved was built in a module's function that the script's
  /// call reaches (MAE's `misc.save_model(args=args, model=model, ...)`
  /// building `to_save = {...}` for `save_on_master(to_save, path)`): the
  /// file of that dict, and the script's argument for each parameter of
  /// the function it reads (restore code names the script's variables).
  const FilePlan *objFile = nullptr;
  std::map<std::string, std::string, std::less<>> rename;
  /// Parameters the call passes a literal (ConvNeXt's `save_model(...,
  /// epoch="best")` for its best checkpoint): the entries holding them are
  /// no state; the restore leaves them alone.
  llvm::StringSet<> literalParams;
  /// What the checkpoint holds in a form the restore cannot load back
  /// (DINO's `save_dict['fp16_scaler'] = fp16_scaler.state_dict()` after
  /// the display): saved in the sidecar too, where the checkpoint can see
  /// them.
  std::vector<analysis::VarId> unloaded;
  /// The variable holding the dict display whose entries the restore
  /// loads (`to_save` of MAE's `save_model`): nothing else to load for it.
  std::string loadedDict;
  /// The variables whose objects the restore loads in place
  /// (`X.load_state_dict(...)`): their other names are restored with them.
  llvm::StringSet<> inPlace;
  /// Those objects as the restore spells them (`saver.model`).
  llvm::StringSet<> inPlacePaths;
  /// Where a resume cannot be bit-identical (a helper's call whose rest
  /// draws after the save): the statement that stops it, first in the
  /// restore code.
  std::string refusal;
  /// A helper's call that changes what the restore sets after its save, or
  /// assigns what it returns (timm's `best_metric, best_epoch =
  /// saver.save_checkpoint(...)`): its text. The run records the values
  /// again when the call returns (`call_returned`); a resume needs that
  /// record (`returned_recorded`). Empty for other sites.
  std::string returnedCall;
  /// The rest of that call may change what the restore loads from the
  /// checkpoint (`self.model`, or its holder through an opaque call): the
  /// record holds its digests as the call left them (`verify`), and the
  /// resume compares the restored state with them.
  bool verifiesAtReturn = false;
  /// Values of a function on the way to the save that the restore cannot
  /// see (timm's `best_metric`, a local of `main`, which calls
  /// `train_one_epoch`, where the recovery checkpoint is written): handed
  /// to the runtime before that function's call on the way
  /// (`outer_values`), restored at the resume (an object's saved state
  /// loaded into it there, before the run goes on training it), and bound
  /// to the function's variables once that call returns, in the frame the
  /// resume came through (`restoring_outer`). By the begin offset of the
  /// call's statement in the script.
  struct OuterCall {
    std::string values;               ///< `"key": lambda: name, ...`
    /// An attribute path's state is set at the resume, on the object the
    /// run goes on with: `"key": lambda v: setattr(obj, "attr", v), ...`.
    std::string setters;
    std::vector<std::string> restore; ///< Statements, without indentation.
    llvm::StringSet<> keys;           ///< Those `values` holds.
  };
  std::map<uint32_t, OuterCall> outer;
};

bool isLoop(const ast::Stmt *s) { return isa<ast::For, ast::While>(s); }

/// Whether `pred` holds for `root` or a node under it, lambdas' bodies
/// aside (they run later, if at all).
bool anyOutsideLambdas(const ast::Node *root,
                       llvm::function_ref<bool(const ast::Node *)> pred) {
  std::vector<const ast::Node *> work{root};
  while (!work.empty()) {
    const ast::Node *n = work.back();
    work.pop_back();
    if (isa<ast::Lambda>(n))
      continue;
    if (pred(n))
      return true;
    ast::forEachChild(n, [&](llvm::StringRef, const ast::Node *c) {
      work.push_back(c);
    });
  }
  return false;
}

/// Whether node `n` runs inside one of the loop nests (`nestLoops`: their
/// loops' nodes, ReplayPlanner::nestLoopNodes), in its expansion.
bool inNestLoops(const analysis::StatementGraph &g, NodeId n,
                 const llvm::DenseSet<NodeId> &nestLoops) {
  return llvm::any_of(g.loops(n),
                      [&](NodeId l) { return nestLoops.count(l); });
}

/// A file whose statements fast-forward skips: the script, or a module it
/// imports that holds a training loop the nests call (DeiT's, MAE's and
/// DETR's `train_one_epoch` in `engine.py`, RepDistiller's
/// `helper/loops.py`), edited as a copy the script's header installs
/// (PlanContext::moduleContext, runtime overlay.py).
struct FilePlan {
  explicit FilePlan(PlanContext &ctx)
      : ctx(ctx), places(ctx.tree),
        guards(ctx, {formatv("{0}.guard()", kRuntimeAlias).str(),
                     formatv("{0}.guard() and (", kRuntimeAlias).str(),
                     "(",
                     formatv(") if {0}.guard() else ()", kRuntimeAlias).str(),
                     "skipped in fast-forward"}),
        fedGuards(ctx,
                  {formatv("{0}.fed()", kRuntimeAlias).str(),
                   formatv("{0}.fed() and (", kRuntimeAlias).str(), "(",
                   formatv(") if {0}.fed() else ()", kRuntimeAlias).str(),
                   "skipped while it feeds a loop fast-forward skips"}),
        nestGuards(ctx, {formatv("{0}.nest_guard()", kRuntimeAlias).str(),
                         formatv("{0}.nest_guard() and (", kRuntimeAlias)
                             .str(),
                         "(",
                         formatv(") if {0}.nest_guard() else ()",
                                 kRuntimeAlias)
                             .str(),
                         "skipped in fast-forward when the training loop "
                         "calls it"}) {}

  PlanContext &ctx;
  StatementIndex places;
  GuardWriter guards;
  /// Statements of a generator fast-forward runs in full, around its
  /// `yield` (ReplayPlanner::guardFeedingGenerators).
  GuardWriter fedGuards;
  /// Statements of a function called both in the loop nests and outside
  /// them (ImageNet's and DeiT's validation): skipped only in a call the
  /// nests make (ReplayPlanner::guardCallees).
  GuardWriter nestGuards;
  /// Statements (by begin offset) with an op fast-forward runs in a call
  /// the nests make (of mustRun, those of the nests' expansions).
  std::vector<uint32_t> nestMustRun;
  /// The ops lowered from each statement (by its begin offset).
  llvm::DenseMap<uint32_t, SmallVector<Operation *, 2>> opsAt;
  /// Statements (by begin offset) with an op fast-forward runs.
  std::vector<uint32_t> mustRun;
  llvm::DenseSet<const ast::For *> plannedLoops;
  /// Statements fast-forward skips whole: the loops in them never run there.
  std::vector<const ast::Stmt *> skippedWhole;

  StringRef text(const ast::Node *n) const {
    return ctx.src.slice(n->getRange().begin.offset, n->getRange().end.offset);
  }
  bool runsItself(const ast::Stmt *s, bool nested = false) const {
    const std::vector<uint32_t> &run = nested ? nestMustRun : mustRun;
    return std::binary_search(run.begin(), run.end(),
                              s->getRange().begin.offset);
  }
  bool runsInside(const ast::Stmt *s, bool nested = false) const {
    const std::vector<uint32_t> &run = nested ? nestMustRun : mustRun;
    auto it = std::lower_bound(run.begin(), run.end(),
                               s->getRange().begin.offset);
    return it != run.end() && *it < s->getRange().end.offset;
  }
};

class ReplayPlanner {
public:
  explicit ReplayPlanner(PlanContext &ctx)
      : ctx(ctx), g(ctx.a.graph), src(ctx.src),
        script(*files.emplace_back(std::make_unique<FilePlan>(ctx))),
        places(script.places), guards(script.guards) {}

  void run() {
    indexOps();
    for (const analysis::CheckpointReplay &cp : ctx.a.replay.checkpoints)
      planSites(cp);
    if (sites.empty()) {
      // Restarts from detc's own hint or JIT checkpoints (a JIT boundary
      // is a hint) replay the clock reads too; with no checkpoint of the
      // script's to tell its nests, those of its module-level code.
      if (ctx.options.hint)
        recordVaryingReads(/*moduleCodeOnly=*/true);
      return;
    }
    collectMustRun();
    for (const std::unique_ptr<FilePlan> &f : files)
      keepIterableInputs(*f);
    for (const ast::Stmt *root : nestRoots())
      visit(script, root);
    guardCallees();
    for (const SitePlan &p : sites)
      if (p.announced || p.hoisted)
        if (const StmtPlace *save = places.at(p.span.stmtBegin))
          guards.guardSimple(save->stmt);
    guardFeedingGenerators();
    loadRealBatchesElsewhere();
    recordVaryingReads(/*moduleCodeOnly=*/false);
    llvm::SmallPtrSet<const ast::Call *, 8> saveCalls;
    for (const SitePlan &p : sites)
      saveCalls.insert(p.call);
    std::map<const FilePlan *, llvm::StringSet<>> functionNames;
    for (auto [f, s, nested] : keptCalls) {
      auto [names, fresh] = functionNames.try_emplace(f);
      if (fresh)
        for (const ast::FunctionDef *d : f->places.functions())
          names->second.insert(d->name);
      passNoneForUnbound(*f, s, nested, saveCalls, names->second);
    }
    bool problems = false;
    for (const std::unique_ptr<FilePlan> &f : files)
      for (GuardWriter *w : {&f->guards, &f->fedGuards, &f->nestGuards})
        for (auto &[offset, message] : w->getProblems()) {
          f->ctx.warning(offset, "detc writes no checkpoint sidecars for "
                                 "this script: " +
                                     message + " [detc-replay]");
          problems = true;
        }
    if (problems)
      return;
    for (SitePlan &p : sites)
      instrumentSite(p);
    for (const std::unique_ptr<FilePlan> &f : files) {
      f->guards.apply();
      f->fedGuards.apply();
      f->nestGuards.apply();
    }
  }

private:
  // ---- Indexes --------------------------------------------------------------
  /// Indexes the ops of the script and of the modules detc may edit
  /// (TransformOptions::modules; a module lowered from an installed
  /// package is never edited).
  void indexOps() {
    ctx.module.walk([&](Operation *op) {
      std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
      if (!s || !s->file)
        return;
      if (FilePlan *f = fileNamed(s->file.getValue()))
        f->opsAt[s->stmtBegin].push_back(op);
    });
  }

  /// The plan of the file named `name`, made on first use; null for a file
  /// detc does not edit.
  FilePlan *fileNamed(StringRef name) {
    auto [it, inserted] = fileByName.try_emplace(name, nullptr);
    if (!inserted)
      return it->second;
    if (name == ctx.file.getName())
      return it->second = &script;
    if (name.contains("/site-packages/") || name.contains("/dist-packages/"))
      return nullptr;
    PlanContext *c = ctx.moduleContext(name);
    if (!c || c == &ctx)
      return nullptr;
    files.push_back(std::make_unique<FilePlan>(*c));
    return it->second = files.back().get();
  }

  /// The file and statement `op` was lowered from, in a file detc edits.
  std::pair<FilePlan *, const StmtPlace *> placeOf(Operation *op) {
    std::optional<ir::SourceSpan> s =
        op ? ir::getSourceSpan(op->getLoc()) : std::nullopt;
    FilePlan *f = s && s->file ? fileNamed(s->file.getValue()) : nullptr;
    if (!f)
      return {nullptr, nullptr};
    return {f, f->places.at(s->stmtBegin)};
  }

  // ---- Sites ----------------------------------------------------------------
  /// The outermost loop around `stmt` in its function, or null.
  const ast::Stmt *nestOf(const StmtPlace &place) const {
    const ast::Stmt *nest = nullptr;
    for (const ast::Stmt *p = place.parent; p && !isa<ast::FunctionDef>(p);
         p = places.of(p)->parent)
      if (isLoop(p))
        nest = p;
    return nest;
  }

  /// The loops fast-forward goes through to reach the statement at `place`
  /// (see SitePlan::roots).
  std::vector<const ast::Stmt *> rootsOf(const StmtPlace &place,
                                         const ast::Stmt *nest) const {
    if (nest)
      return {nest};
    std::vector<const ast::Stmt *> loops;
    auto scan = [&](ast::NodeList<ast::Stmt> body) {
      if (!llvm::is_contained(body, place.stmt))
        return;
      for (const ast::Stmt *s : body) {
        if (s == place.stmt)
          break;
        if (isLoop(s))
          loops.push_back(s);
      }
    };
    if (place.parent)
      ast::forEachBody(place.parent, scan);
    else
      scan(ctx.tree.body);
    return loops;
  }

  /// The statement around `at` (a save, or a helper's call) whose
  /// announcement and restore every process reaches: the outermost `if`
  /// that only decides whether `at` runs — `at` is the last statement of
  /// its body (with `alone`, the only one), it has no `else`, and fast-forward
  /// evaluates its test as the run did (not a logged one). Under DDP only
  /// rank 0 writes (`if rank == 0: torch.save(...)`): announced inside the
  /// test, the other ranks never counted the site's instances nor reached
  /// the restore, and every resume of theirs failed. Nothing after the save
  /// runs between it and the restore, so the restore still follows the
  /// state the checkpoint holds.
  Span hoistOverTests(const analysis::CheckpointReplay &cp, Span at,
                      bool alone) const {
    llvm::SmallPtrSet<const ast::Stmt *, 4> logged;
    for (NodeId n : cp.logged)
      if (std::optional<Span> s =
              g.node(n).op ? ctx.spanOf(g.node(n).op) : std::nullopt)
        if (const StmtPlace *p = places.at(s->stmtBegin))
          logged.insert(p->stmt);
    const StmtPlace *place = places.at(at.stmtBegin);
    while (place && place->parent) {
      auto *test = dyn_cast<ast::If>(place->parent);
      if (!test || test->isElif || !test->orelse.empty() ||
          test->body.empty() || test->body.back() != place->stmt ||
          (alone && test->body.size() != 1) || logged.contains(test) ||
          // The script's entry (`if __name__ == "__main__":`): what a
          // worker that imports the script runs is not the run.
          text(test->test).contains("__name__"))
        break;
      ast::SourceRange r = test->getRange();
      Span s{static_cast<uint32_t>(r.begin.offset),
             static_cast<uint32_t>(r.end.offset),
             static_cast<uint32_t>(r.begin.offset),
             static_cast<uint32_t>(r.end.offset)};
      if (!ownLines(script, s))
        break;
      at = s;
      place = places.of(test);
    }
    return at;
  }

  /// The loops around the calls that lead to a save in a function
  /// (pytorch-cifar's module-level `for epoch ...: train(epoch);
  /// test(epoch)`, the save in `test`): fast-forward goes through them as
  /// through a nest around the save, skipping `train(epoch)`.
  void addCallerNests(const analysis::CheckpointReplay &cp,
                      std::vector<const ast::Stmt *> &roots) const {
    for (NodeId i : cp.instances)
      for (NodeId c = g.node(i).caller; c != analysis::kNoNode;
           c = g.node(c).caller) {
        std::optional<Span> s =
            g.node(c).op ? ctx.spanOf(g.node(c).op) : std::nullopt;
        const StmtPlace *call = s ? places.at(s->stmtBegin) : nullptr;
        if (!call)
          continue;
        if (const ast::Stmt *nest = nestOf(*call);
            nest && !llvm::is_contained(roots, nest))
          roots.push_back(nest);
      }
  }

  /// Whether detc can put its own lines before or after the statement
  /// (after the file's last line too: the edit list appends them).
  static bool ownLines(const FilePlan &f, const Span &s) {
    return f.ctx.indentAt(s.stmtBegin) && f.guards.endsLine(s.stmtEnd);
  }

  void planSites(const analysis::CheckpointReplay &cp) {
    // The save is in the script, or in a module it imports (a helper the
    // script calls: DeiT's `utils.save_on_master`, whose save the edited
    // copy of the module wraps).
    auto [saveFile, at] = placeOf(cp.op);
    if (!at)
      return;
    FilePlan &sf = *saveFile;
    std::optional<Span> span = sf.ctx.spanOf(cp.op);
    const StmtPlace &place = *at;
    // A checkpoint outside the loops (a final save) is written atomically
    // with a sidecar too: the user's file is never torn, and resuming from
    // it fast-forwards through the loops to the end.
    auto skip = [&](uint32_t at, const Twine &why) {
      sf.ctx.warning(at, "detc writes no sidecar for this checkpoint: " +
                             why + " [detc-replay]");
    };
    auto *stmt = dyn_cast<ast::ExprStmt>(place.stmt);
    auto *call = stmt ? dyn_cast_or_null<ast::Call>(stmt->value) : nullptr;
    if (!call || call->getRange().begin.offset != span->exprBegin)
      return skip(span->exprBegin, "it is not a call statement of its own");
    if (!ownLines(sf, *span)) {
      if (&sf == &script)
        ctx.needOwnLine(span->stmtBegin);
      return skip(span->exprBegin, "it shares its line with other statements");
    }
    const ast::Expr *obj = savedObject(call);
    if (&sf != &script && savesIntoMemory(sf, place, call))
      return; // DeiT's `torch.save(state, mem_file)` (an io.BytesIO)
    // What fast-forward must re-derive needs a forward or backward it
    // would run on placeholder batches: the resume would crash there
    // (DINO's main_dino.py; refused, naming the step). (An optimizer step
    // re-executed alone, SAM's `base_optimizer.step()` over parameters
    // without gradients, changes nothing: e2e-kill-resume-sam.)
    if (cp.retrains)
      for (NodeId n : cp.reexecuted)
        if (Operation *op = g.node(n).op;
            g.node(n).expensive && isa<ir::ForwardOp, ir::GradOp>(op)) {
          auto [stepFile, stepPlace] = placeOf(op);
          std::string where =
              stepPlace ? stepFile->ctx.where(op) : ctx.where(op);
          return skip(span->exprBegin,
                      "fast-forward would run the training again to "
                      "re-derive what the run needs after it (the forward "
                      "or backward at " +
                          where + ")");
        }
    if (std::optional<unsigned> param = parameterIndex(place.function, obj))
      return planHelperSites(cp, sf, *span, call, param, skip);
    // A module's helper saving a dict it builds from its parameters
    // (Swin's `save_checkpoint(config, epoch, model, max_accuracy,
    // optimizer, ...)`): restored in the script after each call, in the
    // names the call passes.
    // Or a state dict of its parameter (early-stopping-pytorch's
    // `EarlyStopping.save_checkpoint(self, val_loss, model)`:
    // `torch.save(model.state_dict(), self.path)`).
    if (&sf != &script && place.function) {
      const ast::Expr *built = resolveLocalDict(sf, place, obj);
      if (isa_and_nonnull<ast::Dict>(built) ||
          isa_and_nonnull<ast::Name, ast::Attribute>(stateDictOf(built)))
        return planHelperSites(cp, sf, *span, call, std::nullopt, skip);
    }
    if (&sf != &script)
      return skip(span->exprBegin,
                  "it saves what a module the script imports holds; detc "
                  "restores the script's checkpoints and those of helpers "
                  "the script calls with what they save "
                  "(`save_checkpoint(state, path)`)");
    Span resume = hoistOverTests(cp, *span, /*alone=*/false);
    const StmtPlace &resumePlace = *places.at(resume.stmtBegin);
    SitePlan p{&cp,     0, *span, call, resume, nestOf(resumePlace), {},
               analysis::kNoNode, "", {}};
    p.saveFile = &script;
    p.hoisted = resume.stmtBegin != span->stmtBegin;
    p.roots = rootsOf(resumePlace, p.nest);
    addCallerNests(cp, p.roots);
    // `state = {...}; torch.save(state, path)`: the dict's entries are
    // restored, and the variable holds the loaded dict; fast-forward does
    // not build it (announced).
    const ast::Expr *dict = resolveLocalDict(script, place, obj);
    if (dict != obj) {
      p.restore.push_back((text(obj) + " = _detc_ckpt").str());
      p.announced = true;
    }
    std::string why;
    // A helper of the script saving what its parameters hold, whose
    // callers hold values that must be saved too (`def save_state(model,
    // path): torch.save(model.state_dict(), path)`, with the caller's
    // optimizer): restored after each call, where those are visible, and
    // fast-forward skips the call (its arguments may read what skipped
    // work computes).
    bool helper = place.function && dict == obj &&
                  (isa<ast::Dict>(obj) || stateDictOf(obj));
    bool planned = planRestore(p, dict, why) && planValues(p, why);
    if (helper && (planned ? !p.outer.empty() : p.needsCallers))
      return planHelperSites(cp, sf, *span, call, std::nullopt, skip);
    if (!planned)
      return skip(span->exprBegin, why);
    if (!cp.logged.empty()) {
      if (!logTests(cp, why))
        return skip(span->exprBegin, why);
      p.announced = true;
    }
    p.site = ctx.newSite();
    sites.push_back(std::move(p));
  }

  /// Logs the decisions of the tests fast-forward takes from the sidecar
  /// (CheckpointReplay::logged): `if T:` becomes `if _detc_rt.decide(K,
  /// (T)) if _detc_rt.guard() else _detc_rt.decision(K):`.
  /// `aroundCalls`: the save is a helper's, announced where the script
  /// calls it: fast-forward skips the call, so only the tests around the
  /// calls (in the script) decide what it reaches; a test inside the
  /// helper (MAE's `if loss_scaler is not None:` in `save_model`) is
  /// never evaluated there.
  bool logTests(const analysis::CheckpointReplay &cp, std::string &why,
                bool aroundCalls = false) {
    std::vector<const ast::If *> tests;
    for (NodeId n : cp.logged) {
      if (aroundCalls && placeOf(g.node(n).op).first != &script)
        continue;
      std::optional<Span> s =
          g.node(n).op ? ctx.spanOf(g.node(n).op) : std::nullopt;
      const StmtPlace *place = s ? places.at(s->stmtBegin) : nullptr;
      auto *test = place ? dyn_cast<ast::If>(place->stmt) : nullptr;
      if (!test || !test->test) {
        why = "whether it is written depends on a test that only the "
              "training decides, in a file detc does not edit";
        return false;
      }
      tests.push_back(test);
    }
    for (const ast::If *test : tests) {
      if (loggedTests.count(test))
        continue;
      unsigned k = ctx.newSite();
      loggedTests[test] = k;
      guards.wrapLater(
          test->test, formatv("{0}.decide({1}, (", kRuntimeAlias, k).str(),
          formatv(")) if {0}.guard() else {0}.decision({1})", kRuntimeAlias,
                  k)
              .str(),
          formatv("the run logs this decision; fast-forward takes it from "
                  "the sidecar (test {0})",
                  k)
              .str());
    }
    return true;
  }
  std::map<const ast::If *, unsigned> loggedTests;

  /// Whether `torch.save(obj, f)` at `place` writes into memory: `f` is
  /// `io.BytesIO()`, or a name assigned it before in the function (a copy
  /// kept in memory, not a checkpoint; the runtime passes such saves
  /// through too).
  static bool savesIntoMemory(const FilePlan &f, const StmtPlace &place,
                              const ast::Call *call) {
    const ast::Expr *file = call->args.size() > 1 ? call->args[1] : nullptr;
    for (const ast::Keyword *k : call->keywords)
      if (k->arg == "f")
        file = k->value;
    auto isBuffer = [&](const ast::Expr *e) {
      auto *c = dyn_cast_or_null<ast::Call>(e);
      return c && f.text(c->func).ends_with("BytesIO");
    };
    if (isBuffer(file))
      return true;
    auto *name = dyn_cast_or_null<ast::Name>(file);
    const ast::Assign *bound =
        name ? lastAssignmentBefore(f, place.stmt, name->id) : nullptr;
    return bound && isBuffer(bound->value);
  }

  /// What `torch.save(obj, f)` saves.
  static const ast::Expr *savedObject(const ast::Call *call) {
    const ast::Expr *obj = call->args.empty() ? nullptr : call->args[0];
    for (const ast::Keyword *k : call->keywords)
      if (k->arg == "obj")
        obj = k->value;
    return obj;
  }

  /// The position of parameter `e` (a plain name) of `fn`, or none.
  static std::optional<unsigned> parameterIndex(const ast::FunctionDef *fn,
                                                const ast::Expr *e) {
    // `torch.save(*args, **kwargs)` in a helper forwarding its arguments:
    // the object is the first of `*args`, the position after the named
    // positional parameters.
    if (auto *star = dyn_cast_or_null<ast::Starred>(e))
      if (auto *n = dyn_cast_or_null<ast::Name>(star->value);
          n && fn && fn->args->vararg && fn->args->vararg->arg == n->id)
        return unsigned(positionalParams(fn).size());
    auto *name = dyn_cast_or_null<ast::Name>(e);
    if (!fn || !name)
      return std::nullopt;
    for (auto [i, a] : llvm::enumerate(positionalParams(fn)))
      if (a->arg == name->id)
        return unsigned(i);
    return std::nullopt;
  }

  /// A save in a helper (`def save_checkpoint(state, is_best, filename):
  /// torch.save(state, filename)`): one site per call of the helper, whose
  /// argument says what is saved and where the restore goes. Each call is
  /// announced (`announce_checkpoint(site)`, which counts the site's
  /// instances); fast-forward skips the call itself (its arguments may not
  /// be computed) and the announcement of the target instance starts the
  /// restore after it. All of the helper's calls get sites, or none: a
  /// save reached without an announcement would count under another site.
  template <typename Skip>
  void planHelperSites(const analysis::CheckpointReplay &cp, FilePlan &sf,
                       Span span, const ast::Call *save,
                       std::optional<unsigned> param, Skip skip) {
    const ast::FunctionDef *helper = sf.places.at(span.stmtBegin)->function;
    // At the helper's calls, in the script.
    auto skipCall = [&](uint32_t at, const Twine &why) {
      ctx.warning(at, "detc writes no sidecar for this checkpoint: " + why +
                          " [detc-replay]");
    };
    // (the script's call, the module's call of the helper when the
    // script's call reaches it through a module's function, else none)
    llvm::SmallVector<std::pair<NodeId, NodeId>, 2> callers;
    for (NodeId i : cp.instances) {
      NodeId c = g.node(i).caller, inner = analysis::kNoNode;
      auto inScript = [&](NodeId n) {
        return n != analysis::kNoNode && g.node(n).op &&
               ctx.spanOf(g.node(n).op);
      };
      if (!inScript(c) && c != analysis::kNoNode &&
          inScript(g.node(c).caller)) {
        inner = c;
        c = g.node(c).caller;
      }
      if (!inScript(c))
        return skip(span.exprBegin,
                    "'" + helper->name.str() +
                        "' is called where detc cannot place the restore");
      if (llvm::none_of(callers, [&](auto &o) {
            return g.node(o.first).op == g.node(c).op;
          }))
        callers.push_back({c, inner});
    }
    std::vector<SitePlan> planned;
    std::vector<std::pair<uint32_t, std::string>> refused;
    for (auto [c, inner] : callers) {
      Span at = *ctx.spanOf(g.node(c).op);
      const StmtPlace *place = places.at(at.stmtBegin);
      // `helper(...)`, or `x, y = helper(...)` (timm's `best_metric,
      // best_epoch = saver.save_checkpoint(...)`): what it assigns is what
      // the rest of the call computes after the save, which fast-forward
      // skips; a resume from this site is refused at run time, the
      // others' stay (they were all refused, for want of a site here).
      const ast::Expr *value = nullptr;
      std::string assigned;
      // The plain names it assigns (`_` aside); false for another target
      // (`self.best = ...`, `d[k] = ...`), which the restore cannot set.
      std::vector<std::string> targets;
      bool plainTargets = true;
      if (auto *e = place ? dyn_cast<ast::ExprStmt>(place->stmt) : nullptr) {
        value = e->value;
      } else if (auto *a = place ? dyn_cast<ast::Assign>(place->stmt)
                                 : nullptr) {
        value = a->value;
        for (const ast::Expr *t : a->targets) {
          if (text(t) != "_")
            assigned += (assigned.empty() ? "" : " = ") + text(t).str();
          plainTargets &= assignedNames(t, targets);
        }
      }
      auto *call = dyn_cast_or_null<ast::Call>(value);
      if (!call || !ownLines(script, at))
        return skipCall(at.stmtBegin, "the call of '" + helper->name.str() +
                                          "' is not a statement of its own");
      // Its values are read in the caller where it is announced: over an
      // `if` whose body is the call alone (nothing before it changes
      // them).
      Span resume = hoistOverTests(cp, at, /*alone=*/true);
      const StmtPlace *resumePlace = places.at(resume.stmtBegin);
      SitePlan p{&cp, 0, span, save, resume, nestOf(*resumePlace), {}, c, "",
                 {}};
      p.callStmt = at.stmtBegin;
      p.hoisted = resume.stmtBegin != at.stmtBegin;
      auto refuse = [&](const std::string &names, const std::string &what) {
        p.refusal = formatv("{0}.unrestorable({1}, {2})", kRuntimeAlias,
                            pyString(names),
                            pyString(what + "it was written"))
                        .str();
        refused.push_back({at.stmtBegin, "'" + names + "' " + what +
                                             "the checkpoint is written"});
      };
      if (!plainTargets)
        refuse(assigned,
               "take what '" + text(call->func).str() + "' returns after ");
      const ast::Expr *obj = nullptr, *dict = nullptr;
      if (!param) {
        // The helper builds what it saves (a dict of its parameters).
        obj = savedObject(save);
        const StmtPlace &savePlace = *sf.places.at(span.stmtBegin);
        if (inner == analysis::kNoNode
                ? !displayOfParameters(p, sf, savePlace, obj, helper, call,
                                       place, dict)
                : !builtFromSelf(p, sf, savePlace, inner, call, helper, obj,
                                 dict))
          return skipCall(at.stmtBegin,
                          "what it saves is built in '" + helper->name.str() +
                              "' from values other than its parameters");
      } else if (inner == analysis::kNoNode) {
        obj = argumentFor(helper, call, *param);
        dict = resolveLocalDict(script, *place, obj);
      } else if (!reachedThrough(p, inner, call, helper, *param, obj, dict)) {
        return skipCall(at.stmtBegin,
                        "what it saves is built in '" +
                            text(call->func) +
                            "' from values other than its parameters");
      }
      if (auto *n = dyn_cast_or_null<ast::Name>(obj); n && dict != obj)
        p.loadedDict = n->id.str();
      p.roots = rootsOf(*resumePlace, p.nest);
      // `state = {...}; save_checkpoint(state, ...)`: its entries are
      // restored, and the variable holds the loaded dict.
      if (dict != obj && inner == analysis::kNoNode && param)
        p.restore.push_back((text(obj) + " = _detc_ckpt").str());
      p.saveFile = &sf;
      std::string why;
      if (!planRestore(p, dict, why))
        return skipCall(at.stmtBegin, why);
      // What the rest of the call does after the save: fast-forward skips
      // the whole call, and the restore after it sets what the run had at
      // the save unless the run records it again when the call returns.
      AfterSave after = afterSave(p);
      std::string callText = text(call->func).str();
      ValuesAtReturn atReturn;
      for (const std::string &t : targets)
        if (analysis::VarId v = g.vars.lookup(
                g.instances[g.node(c).instance].qualifier + "/" + t);
            v != ~0u)
          atReturn.assigned.push_back(v);
      for (analysis::VarId w : after.writes) {
        std::string shown = g.displayName(w);
        // The model the restore loads from the checkpoint, changed after
        // the save (or an opaque call on its holder, which may): the run
        // digests it again when the call returns, and the resume compares.
        p.verifiesAtReturn |= changesLoadedObject(p, shown);
        if (g.vars.objectOf(w) != w)
          atReturn.changedObjects.push_back(g.vars.objectOf(w));
        else if (g.vars.name(w).starts_with("@"))
          atReturn.assigned.push_back(w);
      }
      if (after.draws && p.refusal.empty())
        refuse(callText, "draws from a random generator after ");
      if (!planValues(p, why, &atReturn))
        return skipCall(at.stmtBegin, why);
      if ((atReturn.recorded || p.verifiesAtReturn) && p.refusal.empty())
        p.returnedCall = callText;
      // The tests on the way to it that only the training decides (DeiT's
      // `if max_accuracy < test_stats["acc1"]:` around its best save): the
      // run logs their decisions as for a save in the script. Not logged,
      // fast-forward evaluated them on its untrained model and announced
      // the best checkpoint at other epochs than the run did.
      if (!cp.logged.empty() && !logTests(cp, why, /*aroundCalls=*/true))
        return skipCall(at.stmtBegin, why);
      // The statements on the way from the call to the save run only
      // when the call does, and fast-forward skips it.
      onTheWay.insert({&sf, span.stmtBegin});
      if (inner != analysis::kNoNode)
        if (auto [mf, innerAt] = placeOf(g.node(inner).op); mf && innerAt)
          onTheWay.insert({mf, innerAt->stmt->getRange().begin.offset});
      planned.push_back(std::move(p));
    }
    for (SitePlan &p : planned) {
      p.site = ctx.newSite();
      sites.push_back(std::move(p));
    }
    for (auto &[at, why] : refused)
      ctx.warning(at, "a resume from the checkpoint this call writes is "
                      "refused: " +
                          why + " [detc-replay]");
  }

  /// A helper's save reached through a module's function `fn` (MAE's
  /// `save_model(args, epoch, model, model_without_ddp, ...)`, which
  /// builds `to_save = {...}` and calls `save_on_master(to_save, path)`)
  /// from the script's `call`: `dict` is the display built there, `obj`
  /// what the helper's call passes, and `p.rename` maps each parameter of
  /// `fn` the display reads to the script's argument. False when the
  /// display reads anything else (a restore in the script could not name
  /// it).
  bool reachedThrough(SitePlan &p, NodeId inner, const ast::Call *call,
                      const ast::FunctionDef *helper, unsigned param,
                      const ast::Expr *&obj, const ast::Expr *&dict) {
    auto [mf, at] = placeOf(g.node(inner).op);
    auto *stmt = at ? dyn_cast<ast::ExprStmt>(at->stmt) : nullptr;
    auto *innerCall = stmt ? dyn_cast_or_null<ast::Call>(stmt->value) : nullptr;
    const ast::FunctionDef *fn = at ? at->function : nullptr;
    if (!innerCall || !fn)
      return false;
    obj = argumentFor(helper, innerCall, param);
    return displayOfParameters(p, *mf, *at, obj, fn, call, nullptr, dict);
  }

  /// A helper that builds what it saves from its `self` (timm's
  /// CheckpointSaver `_save`: `self.model`, `self.optimizer`), called as
  /// `self.<helper>(...)` by a module's method `fn` of the same object that
  /// the script's `call` calls (`saver.save_checkpoint(...)`): `self` is the
  /// script call's receiver, and each parameter of `fn` the helper's call
  /// passes on is the script's argument for it. False when the display
  /// reads anything a restore in the script could not name.
  bool builtFromSelf(SitePlan &p, FilePlan &hf, const StmtPlace &savePlace,
                     NodeId inner, const ast::Call *call,
                     const ast::FunctionDef *helper, const ast::Expr *obj,
                     const ast::Expr *&dict) {
    auto [mf, at] = placeOf(g.node(inner).op);
    auto *stmt = at ? dyn_cast<ast::ExprStmt>(at->stmt) : nullptr;
    auto *innerCall = stmt ? dyn_cast_or_null<ast::Call>(stmt->value) : nullptr;
    const ast::FunctionDef *fn = at ? at->function : nullptr;
    auto *method =
        innerCall ? dyn_cast<ast::Attribute>(innerCall->func) : nullptr;
    const ast::Expr *receiver = fn ? receiverFor(fn, call) : nullptr;
    if (!method || !isa_and_nonnull<ast::Name>(method->value) ||
        mf->text(method->value) != "self" || !receiverFor(fn, innerCall) ||
        !isa_and_nonnull<ast::Name, ast::Attribute>(receiver))
      return false;
    dict = resolveLocalDict(hf, savePlace, obj);
    if (!isa_and_nonnull<ast::Dict>(dict) &&
        !isa_and_nonnull<ast::Name, ast::Attribute>(stateDictOf(dict)))
      return false;
    llvm::StringMap<unsigned> fnParams;
    for (auto [i, a] : llvm::enumerate(positionalParams(fn)))
      fnParams[a->arg] = unsigned(i);
    // Each parameter of the helper: what `fn` passes (in the module's
    // text), then, where that is a parameter of `fn`, what the script's
    // call passes for it (a local of `fn` has no name in the script).
    for (auto [i, a] : llvm::enumerate(positionalParams(helper))) {
      const ast::Expr *inFn = argumentFor(helper, innerCall, i);
      if (!inFn && i == 0)
        inFn = receiverFor(helper, innerCall);
      // No state of the script's: a default or a literal, a local of
      // `fn` (a path it builds), or a scalar the script's call computes
      // (`metric=float(loss)`): its entry is left alone (planRestore).
      if (!inFn || isa<ast::Constant>(inFn)) {
        p.literalParams.insert(a->arg);
        continue;
      }
      if (!isa<ast::Name, ast::Attribute>(inFn))
        continue;
      StringRef path = mf->text(inFn), root = rootName(path);
      auto it = fnParams.find(root);
      if (it == fnParams.end()) {
        p.literalParams.insert(a->arg);
        continue;
      }
      const ast::Expr *arg =
          it->second == 0 ? receiver : argumentFor(fn, call, it->second);
      // Anything but a name or attribute path is a value the call
      // computes (`metric=eval_metrics['loss']`, `float(loss)`): no
      // object a restore in the script could name; its plain entry is
      // left alone, and a state dict of it refuses (planRestore).
      if (isa_and_nonnull<ast::Name, ast::Attribute>(arg))
        p.rename[a->arg.str()] =
            (text(arg) + path.drop_front(root.size())).str();
      else
        p.literalParams.insert(a->arg);
    }
    // Every restorable entry names something the script has.
    return readsRenamed(p, hf, dict);
  }

  /// Whether `obj` (at `at` in `fn` of file `mf`) is a dict display whose
  /// restorable entries read only `fn`'s parameters (`dict`); `p.rename`
  /// then maps each of them to what the script's `call` of `fn` passes.
  bool displayOfParameters(SitePlan &p, FilePlan &mf, const StmtPlace &at,
                           const ast::Expr *obj, const ast::FunctionDef *fn,
                           const ast::Call *call, const StmtPlace *callPlace,
                           const ast::Expr *&dict) {
    dict = resolveLocalDict(mf, at, obj);
    auto *display = dyn_cast_or_null<ast::Dict>(dict);
    // Or a parameter's state dict (`torch.save(model.state_dict(), path)`).
    const ast::Expr *recv = stateDictOf(dict);
    if (!display && !isa_and_nonnull<ast::Name, ast::Attribute>(recv))
      return false;
    for (auto [i, a] : llvm::enumerate(positionalParams(fn))) {
      const ast::Expr *arg = argumentFor(fn, call, i);
      if (!arg && i == 0)
        arg = receiverFor(fn, call);
      if (isa_and_nonnull<ast::Name, ast::Attribute>(arg))
        p.rename[a->arg.str()] = text(arg).str();
      else if (isa_and_nonnull<ast::Constant>(arg))
        p.literalParams.insert(a->arg);
    }
    // A function nested in the one that calls it (DeepLabV3Plus-Pytorch's
    // `def save_ckpt(path)` in main(), saving main's model, optimizer,
    // scheduler, best score and iteration): a name it reads and does not
    // bind is the caller's variable, under the same name at the call.
    const StmtPlace *def = &mf == &script ? mf.places.of(fn) : nullptr;
    if (def && callPlace && def->function &&
        def->function == callPlace->function)
      for (const ast::Expr *value :
           display ? ArrayRef<ast::Expr *>(display->values)
                   : ArrayRef<ast::Expr *>()) {
        const ast::Expr *e = stateDictOf(value) ? stateDictOf(value) : value;
        if (!isa_and_nonnull<ast::Name, ast::Attribute>(e))
          continue;
        StringRef root = rootName(mf.text(e));
        if (!p.rename.count(root) && !p.literalParams.contains(root) &&
            !bindsName(fn, root))
          p.rename[root.str()] = root.str();
      }
    return readsRenamed(p, mf, dict);
  }

  /// Whether what `dict` (a display, or a state dict, in file `mf`) would
  /// restore reads only the names `p.rename` maps; it becomes `p`'s.
  bool readsRenamed(SitePlan &p, FilePlan &mf, const ast::Expr *dict) {
    auto *display = dyn_cast_or_null<ast::Dict>(dict);
    if (!display) {
      if (!p.rename.count(rootName(mf.text(stateDictOf(dict)))))
        return false;
      p.objFile = &mf;
      return true;
    }
    for (const ast::Expr *value : display->values) {
      const ast::Expr *e = stateDictOf(value) ? stateDictOf(value) : value;
      if (!isa_and_nonnull<ast::Name, ast::Attribute>(e) ||
          (e == value && p.literalParams.contains(rootName(mf.text(e)))))
        continue; // not restored (planRestore)
      if (!p.rename.count(rootName(mf.text(e))))
        return false;
    }
    p.objFile = &mf;
    return true;
  }

  /// The source of `n` of what a site saves, naming the script's variables
  /// (SitePlan::rename).
  std::string objText(const SitePlan &p, const ast::Node *n) const {
    StringRef t = (p.objFile ? *p.objFile : script).text(n);
    StringRef root = rootName(t);
    auto it = p.rename.find(root);
    if (it == p.rename.end())
      return t.str();
    return it->second + t.drop_front(root.size()).str();
  }

  /// A state dict's receiver as the restore statement's: parenthesized
  /// where it is not a primary (hifi-gan's `(mpd.module if h.num_gpus > 1
  /// else mpd).state_dict()`, written over two lines: its parentheses are
  /// not part of the expression).
  std::string receiverText(const SitePlan &p, const ast::Expr *recv) const {
    std::string t = objText(p, recv);
    if (isa<ast::Name, ast::Attribute, ast::Subscript, ast::Call>(recv))
      return t;
    return "(" + t + ")";
  }

  /// The variables a receiver may be: each alternative's of a conditional.
  void receiverRoots(const SitePlan &p, const ast::Expr *recv,
                     std::vector<std::string> &out) const {
    if (auto *c = dyn_cast<ast::IfExp>(recv)) {
      receiverRoots(p, c->body, out);
      receiverRoots(p, c->orelse, out);
      return;
    }
    out.push_back(rootName(objText(p, recv)).str());
  }

  /// `fn`'s positional parameters in order, positional-only first: the
  /// one a call's I-th positional argument binds is the I-th.
  static SmallVector<const ast::Arg *, 8>
  positionalParams(const ast::FunctionDef *fn) {
    SmallVector<const ast::Arg *, 8> params;
    for (const ast::NodeList<ast::Arg> *list :
         {&fn->args->posonlyargs, &fn->args->args})
      for (const ast::Arg *a : *list)
        params.push_back(a);
    return params;
  }

  /// `fn`'s first positional parameter, or null.
  static const ast::Arg *firstParam(const ast::FunctionDef *fn) {
    if (!fn->args->posonlyargs.empty())
      return fn->args->posonlyargs[0];
    return fn->args->args.empty() ? nullptr : fn->args->args[0];
  }

  /// The object a bound method's call passes as its `self` (`self` of
  /// `self._save(...)`: timm's CheckpointSaver builds what it saves from
  /// `self.model`), or null.
  static const ast::Expr *receiverFor(const ast::FunctionDef *fn,
                                      const ast::Call *call) {
    const ast::Arg *first = firstParam(fn);
    auto *method = dyn_cast<ast::Attribute>(call->func);
    if (!first || first->arg != "self")
      return nullptr;
    // An object called (`early_stopping(valid_loss, model)` runs its
    // `__call__`): the receiver is the callee itself.
    if (fn->name == "__call__" && (!method || method->attr != "__call__"))
      return call->func;
    return method ? method->value : nullptr;
  }

  /// The argument `call` passes for parameter `param` of `fn` (null when
  /// it passes it through `*args`/`**kwargs` or not at all).
  static const ast::Expr *argumentFor(const ast::FunctionDef *fn,
                                      const ast::Call *call, unsigned param) {
    unsigned shift = 0;
    const ast::Arg *first = firstParam(fn);
    if (first && (first->arg == "self" || first->arg == "cls") &&
        (isa<ast::Attribute>(call->func) || fn->name == "__call__"))
      shift = 1; // a bound method: the receiver is the first parameter
    if (param < shift)
      return nullptr;
    unsigned pos = param - shift;
    for (unsigned i = 0; i < call->args.size() && i <= pos; ++i)
      if (isa<ast::Starred>(call->args[i]))
        return nullptr;
    if (pos < call->args.size())
      return call->args[pos];
    if (pos + shift >=
        fn->args->posonlyargs.size() + fn->args->args.size())
      return nullptr; // an element of `*args` that the call does not pass
    const ast::Arg *a = pos + shift < fn->args->posonlyargs.size()
                            ? fn->args->posonlyargs[pos + shift]
                            : fn->args->args[pos + shift -
                                             fn->args->posonlyargs.size()];
    for (const ast::Keyword *k : call->keywords)
      if (k->arg == a->arg)
        return k->value;
    return nullptr;
  }

  /// `state = {...}` (or `dict(...)`, or `X.state_dict()`: the DDP tutorial
  /// series' `ckp = self.model.state_dict()`) before the statement at
  /// `place`: in its block or the blocks around it, up to its function
  /// (DINO's `if args.saveckp_freq ...: save_on_master(save_dict, ...)` of
  /// the dict built before the `if`); otherwise `e`. Not across a loop
  /// that binds the name again anywhere in its body: an earlier iteration
  /// may have rebound it.
  static const ast::Expr *resolveLocalDict(const FilePlan &f,
                                           const StmtPlace &place,
                                           const ast::Expr *e) {
    auto *name = dyn_cast_or_null<ast::Name>(e);
    if (!name)
      return e;
    for (const StmtPlace *at = &place; at;) {
      if (const ast::Assign *bound =
              assignmentInBlock(f, *at, name->id, /*singleTarget=*/true))
        return isa<ast::Dict>(bound->value) || keywordDict(bound->value) ||
                       stateDictOf(bound->value)
                   ? bound->value
                   : e;
      if (!at->parent || isa<ast::FunctionDef, ast::ClassDef>(at->parent))
        break;
      if (isa<ast::For, ast::While>(at->parent) &&
          bindsName(at->parent, name->id))
        break;
      at = f.places.of(at->parent);
    }
    return e;
  }

  /// `dict(k=v, ...)`, keywords only (Barlow Twins' `state =
  /// dict(epoch=epoch + 1, model=model.state_dict(), ...)`): a dict
  /// display by another spelling.
  static bool keywordDict(const ast::Expr *e) {
    auto *c = dyn_cast_or_null<ast::Call>(e);
    auto *f = c ? dyn_cast<ast::Name>(c->func) : nullptr;
    return f && f->id == "dict" && c->args.empty() && !c->keywords.empty() &&
           llvm::all_of(c->keywords,
                        [](const ast::Keyword *k) { return !k->arg.empty(); });
  }

  /// Whether `n` stores to `name` anywhere inside it.
  static bool bindsName(const ast::Node *n, StringRef name) {
    if (auto *target = dyn_cast<ast::Name>(n))
      return target->id == name && target->ctx == ast::ExprContext::Store;
    bool found = false;
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
      found = found || (c && bindsName(c, name));
    });
    return found;
  }

  /// Text of an AST node.
  StringRef text(const ast::Node *n) const {
    return src.slice(n->getRange().begin.offset, n->getRange().end.offset);
  }

  /// The receiver of `X.state_dict()`, or null.
  static const ast::Expr *stateDictOf(const ast::Expr *e) {
    auto *c = dyn_cast_or_null<ast::Call>(e);
    if (!c || !c->args.empty() || !c->keywords.empty())
      return nullptr;
    auto *a = dyn_cast<ast::Attribute>(c->func);
    return a && a->attr == "state_dict" ? a->value : nullptr;
  }

  static StringRef rootName(StringRef path) {
    return path.take_until([](char c) { return c == '.' || c == '['; });
  }

  /// The argument `value` (a call in a checkpoint's dict) is a library's
  /// state dict of (`get_state_dict(model_ema)`), or null: its only
  /// positional argument, a variable the lowering counts as saved by the
  /// checkpoint where `value` is the call of a function whose API entry
  /// says `state_of` (Lowerer::restoredBy).
  const ast::Expr *stateOfArgument(const SitePlan &p,
                                   const ast::Expr *value) const {
    auto *c = dyn_cast<ast::Call>(value);
    if (!c || c->args.size() != 1 || !c->keywords.empty() ||
        !isa<ast::Name, ast::Attribute>(c->args[0]))
      return nullptr;
    std::string name = (p.objFile ? *p.objFile : script).text(c->args[0]).str();
    for (NodeId i : p.cp->instances)
      for (analysis::VarId v : g.saved(i))
        if (StringRef(g.displayName(v)) == name)
          return c->args[0];
    return nullptr;
  }

  /// The statements after the assignment of the dict display `display`
  /// (`state = {...}`) in its function that store a constant key into it
  /// (`state["scaler"] = scaler.state_dict()`), in source order.
  std::vector<const ast::Assign *> storesInto(const SitePlan &p,
                                              const ast::Expr *display) const {
    const FilePlan &f = p.objFile ? *p.objFile : script;
    std::vector<const ast::Assign *> out;
    const ast::Assign *bound = nullptr;
    const StmtPlace *at = nullptr;
    // The assignment holding the display: at the module's top level or in
    // a function.
    std::vector<const ast::FunctionDef *> scopes = f.places.functions();
    scopes.push_back(nullptr);
    for (const ast::FunctionDef *fn : scopes)
      for (const ast::Stmt *s : f.places.statementsIn(fn))
        if (auto *a = dyn_cast<ast::Assign>(s); a && a->value == display) {
          bound = a;
          at = f.places.of(s);
        }
    if (!bound || bound->targets.size() != 1)
      return out;
    auto *var = dyn_cast<ast::Name>(bound->targets[0]);
    if (!var)
      return out;
    for (const ast::Stmt *s : f.places.statementsIn(at->function)) {
      auto *a = dyn_cast<ast::Assign>(s);
      auto *sub = a && a->targets.size() == 1
                      ? dyn_cast<ast::Subscript>(a->targets[0])
                      : nullptr;
      auto *base = sub ? dyn_cast<ast::Name>(sub->value) : nullptr;
      auto *key = sub ? dyn_cast<ast::Constant>(sub->slice) : nullptr;
      if (base && base->id == var->id && key &&
          key->kind == ast::ConstantKind::Str &&
          s->getRange().begin.offset > bound->getRange().end.offset)
        out.push_back(a);
    }
    return out;
  }

  /// The saved object's restore statements; every variable the analysis
  /// counts as saved must be restored by them.
  bool planRestore(SitePlan &p, const ast::Expr *obj, std::string &why) {
    std::vector<std::string> restored;
    for (StringRef r : p.restore) // `state = _detc_ckpt`
      restored.push_back(rootName(r.split(" = ").first).str());
    std::vector<std::string> verify;
    // Entries fast-forward re-derives (`'iter_num': iter_num`): the
    // runtime compares them with the checkpoint's (check_rederived).
    std::vector<std::string> rederivedEntries;
    // One entry: its restore statement (`guard` prefixes it: an entry
    // added by a later statement, maybe under an `if`).
    // A name of the module's function that the script's call gives no
    // name of the script's (a local it computes, a parameter given a
    // computed value): the restore in the script cannot spell it.
    std::string unnamed;
    auto named = [&](const ast::Expr *e) {
      StringRef root = rootName(p.objFile ? p.objFile->text(e) : "");
      // (A conditional's other names are the function's: only its
      // first is renamed.)
      if (!p.objFile || (p.rename.count(root) &&
                         !isa<ast::IfExp>(e)))
        return true;
      if (unnamed.empty())
        unnamed = p.objFile->text(e).str();
      return false;
    };
    // `key`: the key's source text (a keyword of `dict(...)` quoted).
    auto entry = [&](const std::string &key, const ast::Expr *value,
                     StringRef guard) {
      std::string item = "_detc_ckpt[" + key + "]";
      if (const ast::Expr *recv = stateDictOf(value)) {
        if (!named(recv))
          return;
        p.restore.push_back(guard.str() + receiverText(p, recv) +
                            ".load_state_dict(" + item + ")");
        size_t before = restored.size();
        receiverRoots(p, recv, restored);
        p.inPlace.insert(restored.begin() + before, restored.end());
        p.inPlacePaths.insert(objText(p, recv));
        verify.push_back(key + ": lambda: " +
                         objText(p, value));
      } else if (isa<ast::Name, ast::Attribute>(value) &&
                 p.literalParams.contains(
                     rootName((p.objFile ? *p.objFile : script)
                                  .text(value)))) {
        return; // a literal the call passes: no state
      } else if (isa<ast::Name, ast::Attribute>(value)) {
        if (!named(value))
          return;
        restored.push_back(rootName(objText(p, value)).str());
        if (!rederived(*p.cp, objText(p, value))) {
          // A module, optimizer or scheduler saved whole as an entry
          // (mixup-cifar10's `{'net': net, ...}`) takes the entry's state
          // and stays the object the rest of the run holds: rebound, the
          // optimizer stepped the old model's parameters, and the resumed
          // run ended with other weights, exit 0. Other values are the
          // entry's (restore_object).
          std::string text = objText(p, value);
          p.restore.push_back(
              guard.str() + text + " = " +
              formatv("{0}.restore_value(lambda: {1}, {2})", kRuntimeAlias,
                      text, item)
                  .str());
          if (isa<ast::Name>(value))
            p.rebound.push_back(text);
        }
        else if (isa<ast::Name>(value) && guard.empty())
          rederivedEntries.push_back(key + ": lambda: " +
                                     objText(p, value));
      } else if (const ast::Expr *of = stateOfArgument(p, value)) {
        if (!named(of))
          return;
        // A library's state dict of its argument (timm's
        // `get_state_dict(model_ema)`: the lowering counts the argument
        // saved, API key `state_of`): loaded into the model it unwraps
        // to, and checked against the checkpoint's digest of the entry.
        p.restore.push_back(guard.str() +
                            formatv("{0}.load_unwrapped({1}, {2})",
                                    kRuntimeAlias, objText(p, of), item)
                                .str());
        restored.push_back(rootName(objText(p, of)).str());
        p.inPlace.insert(restored.back());
        p.inPlacePaths.insert(objText(p, of));
        verify.push_back(key + ": lambda: " +
                         objText(p, value));
      }
    };
    // A key a later statement stores (`if 'k' in _detc_ckpt:` prefixes
    // its restore: the statement may be under an `if`).
    auto stored = [&](const ast::Assign *store) {
      std::string key =
          objText(p, cast<ast::Subscript>(store->targets[0])->slice);
      entry(key, store->value, "if " + key + " in _detc_ckpt: ");
    };
    if (const ast::Expr *recv = stateDictOf(obj)) {
      // Entries of the script's own stored into the state dict before the
      // save (Pytorch-UNet's `state_dict['mask_values'] = ...`): the model
      // takes the others (its load is strict), each is restored as a dict
      // display's entry is.
      std::vector<const ast::Assign *> extra = storesInto(p, obj);
      std::string loaded = "_detc_ckpt";
      if (!extra.empty()) {
        std::vector<std::string> keys;
        for (const ast::Assign *store : extra)
          keys.push_back(
              objText(p, cast<ast::Subscript>(store->targets[0])->slice));
        loaded = "_detc_rt.entries_except(_detc_ckpt, (" +
                 llvm::join(keys, ", ") + ",))";
      }
      p.restore.push_back(receiverText(p, recv) + ".load_state_dict(" +
                          loaded + ")");
      size_t before = restored.size();
      receiverRoots(p, recv, restored);
      p.inPlace.insert(restored.begin() + before, restored.end());
      p.inPlacePaths.insert(objText(p, recv));
      verify.push_back("None: lambda: " + objText(p, obj));
      for (const ast::Assign *store : extra)
        stored(store);
    } else if (const ast::Expr *dict =
                   isa_and_nonnull<ast::Dict>(obj) || keywordDict(obj)
                       ? obj
                       : nullptr) {
      if (auto *display = dyn_cast<ast::Dict>(dict)) {
        for (size_t i = 0; i < display->keys.size(); ++i)
          if (display->keys[i]) // `**mapping`: what it holds is not restored
            entry(objText(p, display->keys[i]), display->values[i], "");
      } else {
        for (const ast::Keyword *k : cast<ast::Call>(dict)->keywords)
          entry("'" + k->arg.str() + "'", k->value, "");
      }
      // Entries stored after the display (DINO's `save_dict['fp16_scaler']
      // = fp16_scaler.state_dict()`, ConvNeXt's `if model_ema is not None:
      // to_save['model_ema'] = get_state_dict(model_ema)`): restored when
      // the checkpoint holds them.
      for (const ast::Assign *store : storesInto(p, dict))
        stored(store);
    } else if (auto *seq = dyn_cast_or_null<ast::Sequence>(obj);
               seq && !seq->elts.empty() &&
               llvm::none_of(seq->elts, [](const ast::Expr *e) {
                 return isa<ast::Starred>(e);
               })) {
      // A list or tuple display (awd-lstm-lm's `torch.save([model,
      // criterion, optimizer], f)`): each item is an entry at its index.
      // The checkpoint is digested whole (state_digests): so is the
      // display, re-read after the restore.
      for (size_t i = 0; i < seq->elts.size(); ++i)
        entry(std::to_string(i), seq->elts[i], "");
      verify.assign({"None: lambda: " + objText(p, obj)});
    } else if (isa_and_nonnull<ast::Name, ast::Attribute>(obj)) {
      // A whole object (`torch.save(model, path)`: a pickled module): its
      // state goes into the script's own object, which the optimizer
      // holds the parameters of (restore_object; other values are
      // assigned).
      // (A variable may be unbound there: only skipped statements assign
      // it, `sd = to_state(model)`; `bound` gives None for it.)
      std::string current =
          isa<ast::Name>(obj) ? formatv("{0}.bound(lambda: {1})",
                                        kRuntimeAlias, objText(p, obj))
                                    .str()
                              : objText(p, obj);
      p.restore.push_back(objText(p, obj) + " = " + kRuntimeAlias.str() +
                          ".restore_object(" + current + ", _detc_ckpt)");
      restored.push_back(rootName(objText(p, obj)).str());
      verify.push_back("None: lambda: " + objText(p, obj));
    } else {
      why = "detc restores a checkpoint saved as a variable, `X.state_dict()` "
            "or a dict, list or tuple display of those and variables";
      return false;
    }
    if (!unnamed.empty()) {
      why = "what it saves holds '" + unnamed +
            "', which names nothing of the script's where the restore is";
      return false;
    }
    if (!verify.empty())
      p.verify = "{" + llvm::join(verify, ", ") + "}";
    if (!rederivedEntries.empty())
      p.restore.push_back(formatv("{0}.check_rederived(_detc_ckpt, {{{1}})",
                                  kRuntimeAlias,
                                  llvm::join(rederivedEntries, ", "))
                              .str());
    // A helper's call restores what its own argument holds (the saved sets
    // of the instances it calls; another call may save other variables).
    llvm::SmallVector<analysis::VarId, 8> saved(p.cp->userSaved.begin(),
                                                p.cp->userSaved.end());
    if (p.caller != analysis::kNoNode) {
      saved.clear();
      for (NodeId i : p.cp->instances)
        if (reachedFrom(p, i))
          for (analysis::VarId v : g.saved(i))
            if (!llvm::is_contained(saved, v))
              saved.push_back(v);
    }
    for (analysis::VarId v : saved) {
      std::string name = g.displayName(v);
      // A temporary holding the dict display passed to a helper: what it
      // holds is saved (and checked) by name.
      if (StringRef(name).starts_with("$"))
        continue;
      // A parameter of the helper the call passes a literal (its own,
      // unaliased local).
      if (p.caller != analysis::kNoNode &&
          p.literalParams.contains(rootName(name)))
        continue;
      if (!llvm::is_contained(restored, rootName(name)) &&
          !restoredThrough(p, restored, v) &&
          rootName(name) != p.loadedDict && changedInside(v, p.nest))
        p.unloaded.push_back(v);
    }
    return true;
  }

  /// Whether saved variable `v` is a restored root under another name:
  /// `self` of a method whose object the caller holds (timm's
  /// CheckpointSaver restores `self.model`, which is `saver.model`).
  template <typename Names>
  bool restoredThrough(const SitePlan &p, const Names &restored,
                       analysis::VarId v) const {
    StringRef root = g.vars.name(v).split('.').first;
    for (NodeId i : p.cp->instances)
      for (const auto &r : restored)
        if (g.canonicalName(g.node(i).instance, r) == root)
          return true;
    return false;
  }

  /// Whether the variable `name` a checkpoint's dict saves already holds,
  /// when fast-forward reaches it, what it held when the run wrote it:
  /// every statement before L that writes it (or an attribute of it)
  /// re-runs. Such an entry is not assigned from the checkpoint: DINO's,
  /// DeiT's and MAE's `'args': args` would replace the command line of the
  /// resumed run by the checkpointed one's (a resume with another --out
  /// overwrote the first run's output).
  bool rederived(const analysis::CheckpointReplay &cp, StringRef name) const {
    const analysis::VarId *v =
        llvm::find_if(cp.userSaved, [&](analysis::VarId u) {
          return g.displayName(u) == name;
        });
    if (v == cp.userSaved.end())
      return false;
    // The variable, or an attribute path of its object (VarTable::objectOf).
    auto writesIt = [&](analysis::VarId w) {
      return w == *v || g.vars.objectOf(w) == *v;
    };
    for (NodeId n : cp.prefix.set_bits()) {
      const analysis::Node &node = g.node(n);
      if (!node.op || (llvm::none_of(node.defs, writesIt) &&
                       llvm::none_of(node.updates, writesIt)))
        continue;
      if (!std::binary_search(cp.reexecuted.begin(), cp.reexecuted.end(), n))
        return false;
    }
    return true;
  }

  /// Whether `w` is (a part of) an object the restore of `p` loads in
  /// place: what it holds is the checkpoint's after the restore.
  bool loadedInPlace(const SitePlan &p, analysis::VarId w) const {
    return p.inPlace.contains(rootName(g.displayName(w)));
  }

  /// Whether `v` (or the object it is an attribute of) is another name of
  /// an object the restore of `p` loads in place (RestoredAliases).
  bool aliasLoadedInPlace(const SitePlan &p, analysis::VarId v) const {
    StringRef name = g.vars.name(v);
    return llvm::any_of(p.cp->restoredAliases, [&](auto pair) {
      StringRef alias = g.vars.name(pair.first);
      return (name == alias ||
              (name.starts_with(alias) && name.size() > alias.size() &&
               name[alias.size()] == '.')) &&
             loadedInPlace(p, pair.second);
    });
  }

  /// Whether `v` is live where a helper's call `p.caller` reaches the
  /// checkpoint: a global, or a local of an instance on the way there. A
  /// helper called from two functions (timm's `_save`, reached by
  /// `save_recovery` in `train_one_epoch` and by `save_checkpoint` in
  /// `main`) needs at each call only what is live there, not the other
  /// function's loop variables.
  bool liveAtCaller(const SitePlan &p, analysis::VarId v) const {
    StringRef name = g.vars.name(v);
    if (p.caller == analysis::kNoNode || name.starts_with("@") ||
        !name.contains('/'))
      return true;
    StringRef qualifier = name.split('.').first.rsplit('/').first;
    for (NodeId i : p.cp->instances) {
      if (!reachedFrom(p, i))
        continue;
      for (unsigned k = g.node(i).instance; k != ~0u;
           k = g.instances[k].parent)
        if (g.instances[k].qualifier == qualifier)
          return true;
    }
    return false;
  }

  /// Whether the checkpoint's instance `i` is reached through the helper
  /// call `p.caller`: called there, or by a method that call calls
  /// (timm's `_save` through `save_recovery`).
  bool reachedFrom(const SitePlan &p, NodeId i) const {
    NodeId c = g.node(i).caller;
    return c == p.caller ||
           (c != analysis::kNoNode && g.node(c).caller == p.caller);
  }

  /// Whether writing `path` (`saver.model`, `saver.model.fc.weight`,
  /// `saver`) changes an object the restore of `p` loads from the
  /// checkpoint in place.
  static bool changesLoadedObject(const SitePlan &p, StringRef path) {
    auto under = [](StringRef a, StringRef b) { // a is b or a part of it
      return a.starts_with(b) &&
             (a.size() == b.size() || a[b.size()] == '.' ||
              a[b.size()] == '[');
    };
    return llvm::any_of(p.inPlacePaths, [&](const auto &e) {
      return under(path, e.getKey()) || under(e.getKey(), path);
    });
  }

  /// What the rest of a helper's call `p.caller` does after its save
  /// writes (timm's `save_checkpoint`: `os.replace(tmp, last)`, then
  /// `self.best_metric = metric`, and the best values returned).
  struct AfterSave {
    /// Variables seen outside the call that it writes or updates (an
    /// attribute of a parameter or of `self` is the caller's variable:
    /// StatementGraph), the call's own targets aside.
    llvm::SmallVector<analysis::VarId, 4> writes;
    bool draws = false;
  };
  AfterSave afterSave(const SitePlan &p) const {
    AfterSave out;
    auto inCall = [&](NodeId n) {
      for (NodeId c = g.node(n).caller; c != analysis::kNoNode;
           c = g.node(c).caller)
        if (c == p.caller)
          return true;
      return false;
    };
    // Everything the expansion reaches from an instance of the save
    // before the call's end (the whole body of a loop around the save).
    llvm::SmallVector<NodeId, 16> work;
    llvm::DenseSet<NodeId> seen;
    for (NodeId i : p.cp->instances)
      if (inCall(i))
        work.push_back(i);
    while (!work.empty()) {
      NodeId n = work.pop_back_val();
      for (NodeId s : g.successors(n))
        if (inCall(s) && seen.insert(s).second)
          work.push_back(s);
    }
    llvm::StringSet<> locals; // qualifiers of the call's own instances
    for (NodeId n : seen)
      locals.insert(g.instances[g.node(n).instance].qualifier + "/");
    auto isLocal = [&](analysis::VarId v) {
      StringRef name = g.vars.name(v);
      return llvm::any_of(locals, [&](const auto &q) {
        return name.starts_with(q.getKey());
      });
    };
    for (NodeId n : seen) {
      const analysis::Node &node = g.node(n);
      out.draws |= node.kind == analysis::NodeKind::Draw;
      for (const auto *list : {&node.defs, &node.updates})
        for (analysis::VarId v : *list)
          if (!isLocal(v) && !is_contained(out.writes, v))
            out.writes.push_back(v);
    }
    return out;
  }

  /// `v`, a local of a function that calls (directly or on the way) the
  /// function of instance `inst`, where the restore of `p` is: saved and
  /// restored around that call (SitePlan::outer), when it is a simple
  /// statement of the script's on lines of its own. Each instance of the
  /// restore's function reached from v's function gives its call.
  bool addOuter(SitePlan &p, unsigned inst, analysis::VarId v) {
    StringRef name = g.vars.name(v);
    if (name.starts_with("@") || !name.contains('/'))
      return false;
    StringRef qualifier = name.split('.').first.rsplit('/').first;
    std::string shown = g.displayName(v);
    auto isIdentifier = [](StringRef part) {
      return !part.empty() && !isDigit(part.front()) &&
             llvm::all_of(part, [](char c) { return isAlnum(c) || c == '_'; });
    };
    SmallVector<StringRef, 4> parts;
    StringRef(shown).split(parts, '.');
    if (!llvm::all_of(parts, isIdentifier))
      return false;
    std::string key =
        (qualifier.take_until([](char c) { return c == '#'; }) + "/" + shown)
            .str();
    llvm::SmallVector<uint32_t, 2> calls;
    for (unsigned i = 0; i < g.instances.size(); ++i) {
      if (g.instances[i].function != g.instances[inst].function)
        continue;
      for (unsigned k = i; g.instances[k].parent != ~0u;
           k = g.instances[k].parent) {
        if (g.instances[g.instances[k].parent].qualifier != qualifier)
          continue;
        NodeId c = g.instances[k].callSite;
        std::optional<Span> s = c != analysis::kNoNode && g.node(c).op
                                    ? ctx.spanOf(g.node(c).op)
                                    : std::nullopt;
        const StmtPlace *place = s ? places.at(s->stmtBegin) : nullptr;
        if (!place ||
            !isa<ast::ExprStmt, ast::Assign, ast::AugAssign, ast::AnnAssign>(
                place->stmt) ||
            !ownLines(script, *s))
          return false;
        calls.push_back(s->stmtBegin);
        break;
      }
    }
    if (calls.empty())
      return false;
    for (uint32_t at : calls) {
      SitePlan::OuterCall &o = p.outer[at];
      if (!o.keys.insert(key).second)
        continue;
      o.values += formatv("{0}\"{1}\": lambda: {2}",
                          o.values.empty() ? "" : ", ", key, shown)
                      .str();
      if (parts.size() > 1) {
        auto [owner, attr] = StringRef(shown).rsplit('.');
        o.setters += formatv("{0}\"{1}\": lambda v: setattr({2}, \"{3}\", v)",
                             o.setters.empty() ? "" : ", ", key, owner, attr)
                         .str();
        continue;
      }
      o.restore.push_back(ifSaved(
          key, formatv("{0} = {1}.outer_value(\"{2}\")", shown,
                       kRuntimeAlias, key)
                   .str()));
    }
    return true;
  }

  /// Whether a statement inside `nest` (or a function it calls) writes v.
  bool changedInside(analysis::VarId v, const ast::Stmt *nest) {
    if (!nest)
      return true; // not re-derived by any loop: must be restored
    uint32_t b = nest->getRange().begin.offset, e = nest->getRange().end.offset;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (!node.op ||
          (!is_contained(node.defs, v) && !is_contained(node.updates, v)))
        continue;
      std::optional<Span> s = ctx.spanOf(node.op);
      if (!s || (s->stmtBegin >= b && s->stmtBegin < e))
        return true;
    }
    return false;
  }

  /// detc's own values: thunks in the checkpoint call, restore statements.
  /// What a helper's call may change after its save (afterSave), for
  /// planValues: the variables it assigns (the call's targets, a global
  /// the helper rebinds) and the objects whose attributes it sets.
  struct ValuesAtReturn {
    std::vector<analysis::VarId> assigned, changedObjects;
    /// Set by planValues: one of them is a value the restore sets (the
    /// run must record them when the call returns).
    bool recorded = false;
  };

  bool planValues(SitePlan &p, std::string &why,
                  ValuesAtReturn *atReturn = nullptr) {
    const analysis::Node &at = g.node(
        p.caller == analysis::kNoNode ? p.cp->instances.front() : p.caller);
    std::string qualifier = g.instances[at.instance].qualifier + "/";
    // The restore code is the function's, whichever call got there: the
    // locals of every instance of it are visible (ImageNet's main_worker,
    // called directly and through mp.spawn).
    llvm::SmallVector<std::string, 2> qualifiers;
    for (const analysis::Instance &inst : g.instances)
      if (inst.function == g.instances[at.instance].function)
        qualifiers.push_back(inst.qualifier + "/");
    // A module global is read and assigned by name where the restore code
    // runs at module level (in a function, assigning would make it local).
    const StmtPlace *resumeAt = places.at(p.resume.stmtBegin);
    bool moduleLevel = resumeAt && !resumeAt->function;
    // In a function, a module global it does not bind itself is restored
    // there too: declareGlobals() declares it `global` first.
    std::optional<FunctionScope> fnScope;
    if (resumeAt && resumeAt->function)
      fnScope = scopeOf(resumeAt->function, ctx.tree);
    // A caller's local the function has as a parameter it never rebinds
    // (timm's `train_one_epoch(epoch, model, loader_train, ...,
    // loss_scaler=loss_scaler)`: main's `loader_train` is its `loader`).
    auto paramFor = [&](StringRef root) -> std::optional<std::string> {
      if (!fnScope || !root.contains('/'))
        return std::nullopt;
      const analysis::Instance &inst = g.instances[at.instance];
      for (const auto &param : fnScope->params) {
        auto alias = inst.aliases.find(param);
        if (alias != inst.aliases.end() && alias->second == root)
          return std::string(param);
      }
      return std::nullopt;
    };
    // How the restore code spells `v`.
    auto spelled = [&](analysis::VarId v) {
      StringRef raw = g.vars.name(v), root = raw.split('.').first;
      if (std::optional<std::string> param = paramFor(root))
        return *param + raw.drop_front(root.size()).str();
      return g.displayName(v);
    };
    auto inScope = [&](analysis::VarId v) {
      StringRef name = g.vars.name(v);
      if (llvm::any_of(qualifiers,
                       [&](StringRef q) { return name.starts_with(q); }))
        return true;
      if (!name.starts_with("@"))
        return paramFor(name.split('.').first).has_value();
      // An attribute path of a global (`@saver.model`: a checkpoint
      // written by a method of a module-level object, timm's
      // CheckpointSaver) is visible where its root is.
      StringRef root = name.split('.').first, bare = root.drop_front();
      // A parameter of the same name that the function never rebinds and
      // every call passes this global (stylegan2's `train(args, loader,
      // generator, ...)` called with the module's `generator`): the same
      // object, saved and restored in place through the parameter.
      if (fnScope && llvm::is_contained(fnScope->params, bare)) {
        const analysis::Instance &inst = g.instances[at.instance];
        auto alias = inst.aliases.find(bare);
        return alias != inst.aliases.end() && alias->second == root;
      }
      return moduleLevel ||
             (fnScope && !fnScope->locals.contains(bare) &&
              !fnScope->nonlocals.contains(bare));
    };
    // A parameter the restore rebinds where the checkpoint is written
    // (mixup-cifar10's `checkpoint(acc, epoch)`, saving `{'acc': acc,
    // ...}`) stands for the caller's variable (the helper never rebinds
    // it), which the caller may read once the call returns (`if acc >
    // best_acc:`): in a resumed run only the parameter was bound, and the
    // caller's read raised UnboundLocalError. The caller's variable is
    // restored as the callers' values are, when the call returns.
    if (fnScope)
      for (const std::string &name : p.rebound) {
        if (!llvm::is_contained(fnScope->params, name))
          continue;
        const analysis::Instance &inst = g.instances[at.instance];
        auto alias = inst.aliases.find(name);
        if (alias == inst.aliases.end() ||
            !StringRef(alias->second).contains('/'))
          continue;
        if (analysis::VarId v = g.vars.lookup(alias->second); v != ~0u)
          addOuter(p, at.instance, v);
      }
    // A global of the script that the function shadows with a local of
    // its own (SwAV's module-level `logger`, which `train` logs to, and
    // `main`'s own `logger, training_stats = initialize_exp(...)`): the
    // restore reaches it through the module's namespace,
    // `globals()["logger"]` (the script's: the restore code is in it).
    FunctionScope module = scopeOf(nullptr, ctx.tree);
    auto throughGlobals = [&](analysis::VarId v) -> std::optional<std::string> {
      StringRef name = g.vars.name(v), root = name.split('.').first;
      if (!fnScope || !root.consume_front("@") ||
          !module.locals.contains(root) ||
          !(fnScope->locals.contains(root) ||
            llvm::is_contained(fnScope->params, root)))
        return std::nullopt;
      return formatv("globals()[\"{0}\"]{1}", root,
                     name.drop_front(root.size() + 1))
          .str();
    };
    std::string values;
    // (A generator several objects may hold is one key: timm's optimizer,
    // any of the classes its factory may build.)
    llvm::StringSet<> keys;
    auto add = [&](StringRef key, StringRef thunk, StringRef restore) {
      if (!keys.insert(key).second)
        return;
      values += formatv("{0}\"{1}\": lambda: {2}", values.empty() ? "" : ", ",
                        key, thunk)
                    .str();
      p.restore.push_back(ifSaved(key, restore));
    };
    // An attribute path whose object is saved whole goes with it: values
    // of the script's classes are saved field by field (CycleGAN's replay
    // buffer `fake_A_buffer` and its `fake_A_buffer.data`).
    // A factory's local stands for the variable its caller assigns
    // (CallerNames).
    std::vector<analysis::VarId> needed;
    for (analysis::VarId v : p.unloaded) {
      if (!inScope(v)) {
        why = "'" + g.displayName(v) +
              "' is saved in a form detc cannot load back";
        return false;
      }
      needed.push_back(v);
    }
    for (auto [v, from] : p.cp->notRederivable) {
      // Another name of what the restore loads in place (`model` of
      // `model_without_ddp = model`, with the checkpoint holding
      // `model_without_ddp.state_dict()`): restored with it.
      if (aliasLoadedInPlace(p, v))
        continue;
      SmallVector<analysis::VarId, 2> ws;
      if (!inScope(v)) {
        // The variables whose objects the restore loads in place hold the
        // factory's object (DINO's student and teacher, built by one
        // factory: a second copy of each model went into the sidecar), and
        // so do the parts of them (RepDistiller's `model.block2.layer`).
        auto restored = [&](analysis::VarId w) {
          return loadedInPlace(p, w) || aliasLoadedInPlace(p, w);
        };
        ws = names.namesOf(v, inScope);
        // An attribute path of it (`model.cls_token`): what holds its
        // object; saved whole, unless restored.
        if (ws.empty())
          ws = names.ownersOf(v, inScope);
        if (!ws.empty()) {
          llvm::erase_if(ws, restored);
          if (ws.empty())
            continue;
        } else if (!liveAtCaller(p, v)) {
          continue; // a local of another call's way to the helper
        }
      }
      if (ws.empty())
        ws.push_back(v);
      needed.insert(needed.end(), ws.begin(), ws.end());
    }
    if (atReturn) {
      // What the call assigns is saved (its value at the save means
      // nothing: the record at its return replaces it); an object it
      // changes is one more reason to record, when the restore sets it.
      for (analysis::VarId v : atReturn->assigned)
        if (inScope(v) && !is_contained(needed, v)) {
          needed.push_back(v);
          atReturn->recorded = true;
        }
      for (analysis::VarId v : atReturn->assigned)
        atReturn->recorded |= is_contained(needed, v);
      for (analysis::VarId o : atReturn->changedObjects)
        atReturn->recorded |= is_contained(needed, o);
    }
    llvm::StringSet<> savedWhole;
    for (analysis::VarId v : needed)
      if (inScope(v))
        savedWhole.insert(spelled(v));
    llvm::StringSet<> added;
    for (analysis::VarId v : needed) {
      std::string name = inScope(v) ? spelled(v) : g.displayName(v);
      if (StringRef(name).starts_with("$"))
        continue;
      // The same local of two instances of the function.
      if (inScope(v) && !added.insert(name).second)
        continue;
      StringRef root = StringRef(name).split('.').first;
      if (root.size() != name.size() && savedWhole.contains(root))
        continue;
      if (!inScope(v) && addOuter(p, at.instance, v))
        continue;
      if (std::optional<std::string> through =
              inScope(v) ? std::nullopt : throughGlobals(v)) {
        // (Keyed by its global name: the function's own `logger` may be
        // saved too.)
        std::string key = g.vars.name(v).str();
        add(key, *through,
            formatv("{0} = {1}.saved_value(\"{2}\", lambda: {0})", *through,
                    kRuntimeAlias, key)
                .str());
        continue;
      }
      if (!inScope(v)) {
        // Name the function it belongs to (a factory's local the analysis
        // cannot tie to the script's variable: MAE's
        // `models_mae.__dict__[args.model](...)`).
        StringRef owner = g.vars.name(v).rsplit('/').first;
        owner = owner.take_until([](char c) { return c == '#'; });
        p.needsCallers = true;
        why = "'" + name + "'" +
              (owner.empty() || owner == g.vars.name(v)
                   ? std::string()
                   : " (of '" + owner.str() + "')") +
              " must be saved but is not visible where the checkpoint is "
              "written";
        return false;
      }
      // The thunk hands over the script's own object: a saved state_dict
      // (an optimizer's) is loaded into it.
      add(name, name,
          formatv("{0} = {1}.saved_value(\"{0}\", lambda: {0})", name,
                  kRuntimeAlias)
              .str());
    }
    for (auto [o, from] : p.cp->generators) {
      const analysis::GeneratorObject &obj = ctx.a.gens->objects()[o];
      std::string handle = ctx.generatorHandle(o, qualifier);
      // Held by a caller's object the function has as a parameter (timm's
      // optimizer, built in `main` with its own generator and passed to
      // `train_one_epoch`): through the parameter.
      for (analysis::VarId v = 0; handle.empty() && v < g.vars.size(); ++v)
        if (is_contained(ctx.a.gens->pointsTo(v), o) &&
            paramFor(g.vars.name(v).split('.').first))
          handle = spelled(v);
      if (handle.empty()) {
        why = "the state of generator " + obj.describe(g) +
              " must be saved but no variable at the checkpoint holds it";
        return false;
      }
      std::string key = "gen:" + StringRef(handle).trim('"').str();
      add(key, formatv("{0}.generator_state({1})", kRuntimeAlias, handle).str(),
          formatv("{0}.restore_generator(\"{1}\", {2})", kRuntimeAlias, key,
                  handle)
              .str());
    }
    if (!values.empty())
      p.values = "{" + values + "}";
    return true;
  }

  /// `loops=("epoch", "i")`: the variables of the loops around the
  /// statement at `stmtBegin`, as the runtime's checkpoint calls take
  /// them; empty when it is in none.
  static std::string loopsArgument(const StatementIndex &index,
                                   uint32_t stmtBegin) {
    std::vector<std::string> quoted;
    for (StringRef n : index.loopVariables(stmtBegin))
      quoted.push_back("\"" + n.str() + "\"");
    if (quoted.empty())
      return {};
    return "loops=(" + llvm::join(quoted, ", ") +
           (quoted.size() == 1 ? ",)" : ")");
  }

  void instrumentSite(const SitePlan &p) {
    PlanContext &saveCtx = p.saveFile->ctx;
    std::optional<uint32_t> end =
        calleeEnd(saveCtx.src, p.span.exprBegin, p.span.exprEnd);
    if (!end)
      return;
    bool helper = p.caller != analysis::kNoNode;
    bool announced = helper || p.announced || p.hoisted;
    // A helper's values are read by its caller's announcement; a save in
    // the script reads them itself (and the announcement for the record of
    // a rank that does not save: ranks.py).
    bool valuesAtSave = !helper && !p.values.empty();
    // The loops' variables where the run resumes: the runtime checks that
    // fast-forward reached the checkpoint where they stood when it was
    // written (a script's own auto-resume takes another path). An
    // announcement names those around it instead.
    std::string loopsAtSave =
        announced ? "" : loopsArgument(p.saveFile->places, p.span.stmtBegin);
    // A helper's save is wrapped once; the site its caller announced (and
    // the values read in the caller's scope) replace the default.
    if (!helper ||
        wrappedSaves.insert({p.saveFile, p.span.exprBegin}).second) {
      std::string tail = valuesAtSave ? ", " + p.values : std::string();
      if (!loopsAtSave.empty())
        tail += (valuesAtSave ? ", " : ", None, ") + loopsAtSave;
      saveCtx.edits.wrap(p.span.exprBegin, *end,
                     formatv("{0}.checkpoint({1}, ", kRuntimeAlias, p.site),
                     tail + ")");
      wrapCheckpointOpen(p);
      saveCtx.edits.note(
          saveCtx.edits.lineOf(
              commentableLineEnd(saveCtx.src, p.span.stmtBegin, *end)),
          helper ? "checkpoint with sidecar (the site its caller announces)"
          : p.announced || p.hoisted
              ? formatv("checkpoint with sidecar (site {0}, announced above)",
                        p.site)
                    .str()
              : formatv("checkpoint with sidecar (site {0})", p.site).str());
    }
    StringRef indent = *ctx.indentAt(p.resume.stmtBegin);
    if (announced)
      ctx.edits.insertLinesOfNext(
          ctx.edits.lineOf(p.resume.stmtBegin),
          {formatv("{0}{1}.announce_checkpoint({2}{3}{4})", indent,
                   kRuntimeAlias, p.site,
                   p.values.empty() ? "" : ", " + p.values,
                   [&] {
                     std::string loops =
                         loopsArgument(places, p.resume.stmtBegin);
                     return loops.empty() ? loops : ", " + loops;
                   }())
               .str()},
          formatv(p.hoisted ? "the checkpoint written below is site {0}"
                            : "the checkpoint it writes is site {0}",
                  p.site)
              .str());
    declareGlobals(p);
    std::string inner = indent.str() + (indent.contains('\t') ? "\t" : "    ");
    unsigned afterResume = ctx.edits.lineOf(p.resume.stmtEnd - 1) + 1;
    if (!p.returnedCall.empty())
      ctx.edits.insertLines(
          afterResume,
          {formatv("{0}{1}.call_returned({2}, {3}{4})", indent,
                   kRuntimeAlias, p.site, p.values.empty() ? "{}" : p.values,
                   p.verifiesAtReturn && !p.verify.empty() ? ", " + p.verify
                                                             : "")
               .str()},
          formatv("what the call changed after writing checkpoint site {0} "
                  "goes into its sidecar",
                  p.site)
              .str());
    std::vector<std::string> lines;
    lines.push_back(
        formatv("{0}if {1}.restoring({2}):", indent, kRuntimeAlias, p.site));
    if (!p.refusal.empty())
      lines.push_back(inner + p.refusal);
    if (!p.returnedCall.empty())
      lines.push_back(formatv("{0}{1}.returned_recorded({2})", inner,
                              kRuntimeAlias, pyString(p.returnedCall))
                          .str());
    lines.push_back(
        formatv("{0}_detc_ckpt = {1}.user_checkpoint()", inner, kRuntimeAlias));
    for (const std::string &r : p.restore)
      lines.push_back(inner + r);
    lines.push_back(
        formatv("{0}{1}.resumed({2})", inner, kRuntimeAlias, p.verify));
    ctx.edits.insertLines(afterResume, lines,
                          formatv("resume here (site {0})", p.site).str());
    for (const auto &[at, o] : p.outer) {
      const StmtPlace &place = *places.at(at);
      StringRef callIndent = *ctx.indentAt(at);
      std::string body =
          callIndent.str() + (callIndent.contains('\t') ? "\t" : "    ");
      ctx.edits.insertLinesOfNext(
          ctx.edits.lineOf(at),
          {formatv("{0}{1}.outer_values({2}, {{{3}}{4})", callIndent,
                   kRuntimeAlias, p.site, o.values,
                   o.setters.empty() ? "" : ", {" + o.setters + "}")
               .str()},
          formatv("checkpoint site {0}, written in this call, saves these "
                  "values too",
                  p.site)
              .str());
      if (o.restore.empty())
        continue;
      std::vector<std::string> after{formatv("{0}if {1}.restoring_outer({2}):",
                                             callIndent, kRuntimeAlias, p.site)
                                         .str()};
      for (const std::string &r : o.restore)
        after.push_back(body + r);
      ctx.edits.insertLines(
          ctx.edits.lineOf(place.stmt->getRange().end.offset - 1) + 1, after,
          formatv("resumed in this call at site {0}: its values here",
                  p.site)
              .str());
    }
  }
  /// A save into the file a `with` around it opens (`with open(args.save,
  /// "wb") as f: torch.save(model, f)`: pytorch/examples'
  /// word_language_model, awd-lstm-lm's model_save) writes the checkpoint
  /// in place, and fast-forward, which runs the `with` to reach the
  /// restore, would truncate the very checkpoint it resumes from: the
  /// builtin `open` goes through `checkpoint_file`, which opens nothing
  /// in fast-forward. So does `f = open(path, "wb")` before the save
  /// (`torch.save(model, f); f.close()`), which fast-forward re-executed.
  /// A file opened once for a loop's saves (before the loop, or in a
  /// `with` around it) goes through `checkpoint_file(open,
  /// across_saves=True)`: opened as written, but not in fast-forward when
  /// it is the checkpoint being resumed from.
  void wrapCheckpointOpen(const SitePlan &p) {
    const ast::Expr *file =
        p.call->args.size() >= 2 ? p.call->args[1] : nullptr;
    for (const ast::Keyword *k : p.call->keywords)
      if (k->arg == "f")
        file = k->value;
    auto *name = dyn_cast_or_null<ast::Name>(file);
    if (!name)
      return;
    const StatementIndex &index = p.saveFile->places;
    const ast::Module &tree = p.saveFile->ctx.tree;
    const StmtPlace *at = index.at(p.span.stmtBegin);
    if (!at)
      return;
    // `open` is the builtin unless the module or the function rebinds it.
    auto rebinds = [&](const ast::FunctionDef *fn) {
      FunctionScope scope = scopeOf(fn, tree);
      return llvm::is_contained(scope.params, "open") ||
             scope.locals.contains("open");
    };
    if (rebinds(nullptr) || (at->function && rebinds(at->function)))
      return;
    // `inWith`: the `with`'s own context manager; otherwise, the file
    // itself (CheckpointFile.opened).
    auto wrapOpen = [&](const ast::Expr *opener, bool inWith,
                        bool acrossSaves) {
      auto *call = dyn_cast_or_null<ast::Call>(opener);
      auto *callee = call ? dyn_cast<ast::Name>(call->func) : nullptr;
      if (!callee || callee->id != "open" || !wrappedOpens.insert(call).second)
        return;
      auto &edits = p.saveFile->ctx.edits;
      edits.wrap(callee->getRange().begin.offset,
                 callee->getRange().end.offset,
                 formatv("{0}.checkpoint_file(", kRuntimeAlias).str(),
                 acrossSaves ? ", across_saves=True)" : ")");
      if (!inWith && !acrossSaves)
        edits.wrap(call->getRange().begin.offset,
                   call->getRange().end.offset, "", ".opened()");
    };
    // The statements around the save, innermost first, each with whether
    // a loop lies between it and the save. A file opened outside a loop
    // around the save serves several saves: given nothing in fast-forward,
    // it would swallow the saves after the resume too (across_saves).
    llvm::DenseMap<const ast::Stmt *, bool> around;
    bool looped = false;
    for (const ast::Stmt *s = at->parent; s; s = index.of(s)->parent) {
      around[s] = looped;
      looped = looped || isa<ast::For, ast::While>(s);
      auto *with = dyn_cast<ast::With>(s);
      if (!with)
        continue;
      for (const ast::WithItem *item : with->items) {
        auto *var = dyn_cast_or_null<ast::Name>(item->optionalVars);
        if (!var || var->id != name->id)
          continue;
        wrapOpen(item->contextExpr, /*inWith=*/true, around[s]);
        return; // the nearest `with` binding the name decides
      }
    }
    // `f = open(path, "wb")` before the save, at its level or around it
    // (`f.close()` after): the file object itself, held until the save
    // commits it (CheckpointFile.opened).
    const ast::Assign *opened = nullptr;
    for (const ast::Stmt *s : index.statementsIn(at->function)) {
      if (s->getRange().begin.offset >= p.span.stmtBegin)
        break;
      const StmtPlace *sp = index.of(s);
      auto *assign = dyn_cast<ast::Assign>(s);
      if (!assign || assign->targets.size() != 1 || !sp ||
          (sp->parent && !around.count(sp->parent)))
        continue;
      if (auto *var = dyn_cast<ast::Name>(assign->targets[0]);
          var && var->id == name->id)
        opened = assign;
    }
    if (!opened)
      return;
    const ast::Stmt *level = index.of(opened)->parent;
    wrapOpen(opened->value, /*inWith=*/false,
             level ? around.lookup(level) : looped);
  }
  /// A restore in a function that assigns a variable the function only
  /// reads — a module-level one (`def save_all(epoch): torch.save({...,
  /// "step": step}, path)` with a global `step`), or one of the function
  /// it is nested in (DeepLabV3Plus-Pytorch's `def save_ckpt(path)` in
  /// main(), saving main's `best_score`) —: the assignment would make the
  /// name local to the whole function (UnboundLocalError at the save), so
  /// the function declares it `global` or `nonlocal` first (the name was
  /// that already: nothing else changes).
  void declareGlobals(const SitePlan &p) {
    const StmtPlace *place = places.at(p.resume.stmtBegin);
    const ast::FunctionDef *fn = place ? place->function : nullptr;
    if (!fn || fn->body.empty())
      return;
    FunctionScope scope = scopeOf(fn, ctx.tree);
    FunctionScope module = scopeOf(nullptr, ctx.tree);
    // The functions `fn` is nested in, nearest first, and their scopes.
    std::vector<FunctionScope> enclosing;
    for (const StmtPlace *at = places.of(fn); at && at->function;
         at = places.of(at->function))
      enclosing.push_back(scopeOf(at->function, ctx.tree));
    auto enclosed = [&](StringRef name) {
      return llvm::any_of(enclosing, [&](const FunctionScope &s) {
        return llvm::is_contained(s.params, name) || s.locals.contains(name);
      });
    };
    llvm::SmallVector<std::string, 4> names, outerNames;
    for (StringRef r : p.restore) {
      StringRef lhs = r.split(" = ").first;
      if (lhs.starts_with("if ") && lhs.contains(": "))
        lhs = lhs.rsplit(": ").second;
      if (lhs.empty() || lhs == r ||
          !llvm::all_of(lhs, [](char c) { return isAlnum(c) || c == '_'; }))
        continue;
      if (llvm::is_contained(scope.params, lhs) ||
          scope.locals.contains(lhs) || scope.globals.contains(lhs) ||
          scope.nonlocals.contains(lhs) ||
          (!module.locals.contains(lhs) && !enclosed(lhs)) ||
          declared[fn].count(lhs.str()))
        continue;
      declared[fn].insert(lhs.str());
      (enclosed(lhs) ? outerNames : names).push_back(lhs.str());
    }
    if (names.empty() && outerNames.empty())
      return;
    const ast::Stmt *first = fn->body.front();
    if (auto *e = dyn_cast<ast::ExprStmt>(first); e && fn->body.size() > 1)
      if (auto *c = dyn_cast_or_null<ast::Constant>(e->value);
          c && c->kind == ast::ConstantKind::Str)
        first = fn->body[1]; // after the docstring
    std::optional<StringRef> indent =
        ctx.indentAt(first->getRange().begin.offset);
    if (!indent)
      return; // the body shares the `def` line: the emit check refuses
    // Ahead of any line put before the first statement (an announcement
    // reading these names: Python refuses a name used before its `global`).
    std::vector<std::pair<std::string, std::string>> lines;
    if (!names.empty())
      lines.push_back({(*indent + "global " + llvm::join(names, ", ")).str(),
                       "the restore below assigns these module-level "
                       "variables"});
    if (!outerNames.empty())
      lines.push_back(
          {(*indent + "nonlocal " + llvm::join(outerNames, ", ")).str(),
           "the restore below assigns these variables of the function "
           "around"});
    ctx.edits.insertNotedLines(
        ctx.edits.lineOf(first->getRange().begin.offset), lines);
  }
  std::map<const ast::FunctionDef *, std::set<std::string>> declared;

  /// The loaders of looks at a first batch wrapped in real_batches.
  llvm::DenseSet<const ast::Expr *> peeked;

  /// Helper saves already wrapped (by the begin offset of the call).
  std::set<std::pair<const FilePlan *, uint32_t>> wrappedSaves;
  /// The `open` calls wrapCheckpointOpen wrapped (several saves may write
  /// into one file).
  llvm::DenseSet<const ast::Call *> wrappedOpens;

  // ---- What fast-forward runs ----------------------------------------------
  /// Statements (by begin offset, in their file) with an op fast-forward
  /// runs: the re-executed ones, the calls leading to them, and the
  /// checkpoints.
  void collectMustRun() {
    llvm::DenseSet<Operation *> ops;
    // Of those, the ones the nests' expansions run: what a call the nests
    // make of a function also called outside them must run.
    llvm::DenseSet<Operation *> nestOps;
    llvm::DenseSet<NodeId> nestLoops = nestLoopNodes();
    for (const SitePlan &p : sites) {
      ops.insert(p.cp->op);
      // The calls leading to a save in a function (`save_all(epoch)`
      // saving globals): fast-forward reaches the site through them. A
      // function the nests call and the rest of the script calls too (a
      // save every N steps in the loop and once after it) must reach its
      // save in the nests' calls as well: fast-forward skipped it there,
      // and a resume never reached its checkpoint. (An announced save is
      // reached at its announcement, and stays skipped.)
      bool reachedAtSave =
          p.caller == analysis::kNoNode && !p.announced && !p.callStmt;
      for (NodeId i : p.cp->instances) {
        bool inNest = reachedAtSave && inNestLoops(g, i, nestLoops);
        if (inNest)
          nestOps.insert(p.cp->op);
        for (NodeId c = g.node(i).caller; c != analysis::kNoNode;
             c = g.node(c).caller)
          if (g.node(c).op) {
            ops.insert(g.node(c).op);
            if (inNest)
              nestOps.insert(g.node(c).op);
          }
      }
      for (NodeId n : p.cp->reexecuted)
        for (NodeId c = n; c != analysis::kNoNode; c = g.node(c).caller)
          if (g.node(c).op) {
            ops.insert(g.node(c).op);
            if (inNestLoops(g, n, nestLoops))
              nestOps.insert(g.node(c).op);
          }
    }
    // A call into code detc does not read that is given a loader (a
    // training loop in a module detc could not find, a library's `fit`)
    // may iterate it: skipping it, fast-forward left the loader's epochs
    // behind the run's and the resume gave other weights with exit 0. It
    // runs; a loop over a keyed loader in code detc did not edit then
    // stops the resume with exit 3 naming it (replay.check_loop_edited).
    ctx.module.walk([&](ir::ForOp loop) {
      if (loop->hasAttr("library_loop")) {
        ops.insert(loop);
        nestOps.insert(loop);
      }
    });
    for (Operation *op : nestOps)
      if (auto [file, place] = placeOf(op); place)
        file->nestMustRun.push_back(place->stmt->getRange().begin.offset);
    for (const std::unique_ptr<FilePlan> &f : files)
      llvm::sort(f->nestMustRun);
    for (Operation *op : ops)
      if (auto [file, place] = placeOf(op); place)
        file->mustRun.push_back(place->stmt->getRange().begin.offset);
    for (const std::unique_ptr<FilePlan> &f : files)
      llvm::sort(f->mustRun);
  }

  /// A loop over a loader goes round in fast-forward (visit), so its
  /// iterable is evaluated there: the assignments before it that bind the
  /// names the iterable reads run too, and those their values read
  /// (DeiT's and MAE's `metric_logger = utils.MetricLogger(...)` before
  /// `for samples, targets in metric_logger.log_every(data_loader, ...)`:
  /// skipped, the resume stopped with a NameError). Only plain
  /// assignments in the blocks around the loop, in its function; a name
  /// bound otherwise is left as the run binds it.
  void keepIterableInputs(FilePlan &f) {
    // The loops fast-forward reaches: in the nests, and in the functions
    // it runs part of (a function it skips whole stays skipped).
    std::vector<const ast::FunctionDef *> scopes;
    for (const ast::FunctionDef *fn : f.places.functions())
      if (f.runsInside(fn))
        scopes.push_back(fn);
    scopes.push_back(nullptr);
    std::vector<const ast::Stmt *> roots = nestRoots();
    for (const ast::FunctionDef *fn : scopes)
      for (const ast::Stmt *s : f.places.statementsIn(fn)) {
        auto *loop = dyn_cast<ast::For>(s);
        if (!loop || isa<ast::Name, ast::Attribute>(loop->iter) ||
            !fetchOf(f, loop) ||
            (!fn && (&f != &script ||
                     llvm::none_of(roots, [&](const ast::Stmt *r) {
                       return encloses(r, loop);
                     }))))
          continue;
        llvm::SmallVector<StringRef, 8> names;
        namesIn(loop->iter, names);
        llvm::StringSet<> seen;
        while (!names.empty()) {
          StringRef name = names.pop_back_val();
          if (!seen.insert(name).second)
            continue;
          const ast::Assign *bound = lastAssignmentBefore(f, loop, name);
          if (!bound)
            continue;
          uint32_t at = bound->getRange().begin.offset;
          for (std::vector<uint32_t> *run : {&f.mustRun, &f.nestMustRun}) {
            auto it = llvm::lower_bound(*run, at);
            if (it == run->end() || *it != at)
              run->insert(it, at);
          }
          namesIn(bound->value, names);
        }
      }
  }

  /// Every name `n` reads (a lambda's parameters too: over-approximate).
  static void namesIn(const ast::Node *n, SmallVectorImpl<StringRef> &out) {
    if (auto *name = dyn_cast<ast::Name>(n))
      out.push_back(name->id);
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
      if (c)
        namesIn(c, out);
    });
  }

  /// The last `name = ...` (a plain assignment to that name) before `s` in
  /// the blocks around it, up to its function; null when none.
  static const ast::Assign *lastAssignmentBefore(const FilePlan &f,
                                                 const ast::Stmt *s,
                                                 StringRef name) {
    for (const StmtPlace *at = f.places.of(s); at;
         at = at->parent && !isa<ast::FunctionDef>(at->parent)
                  ? f.places.of(at->parent)
                  : nullptr)
      if (const ast::Assign *found = assignmentInBlock(f, *at, name))
        return found;
    return nullptr;
  }

  /// The last `name = ...` before `at`'s statement in its own block (with
  /// `singleTarget`, only one assigning that name alone); null when none.
  static const ast::Assign *assignmentInBlock(const FilePlan &f,
                                              const StmtPlace &at,
                                              StringRef name,
                                              bool singleTarget = false) {
    const ast::Assign *found = nullptr;
    auto scan = [&](ast::NodeList<ast::Stmt> body) {
      if (!llvm::is_contained(body, at.stmt))
        return;
      for (const ast::Stmt *b : body) {
        if (b == at.stmt)
          break;
        auto *assign = dyn_cast<ast::Assign>(b);
        if (!assign || (singleTarget && assign->targets.size() != 1))
          continue;
        if (llvm::any_of(assign->targets, [&](const ast::Expr *t) {
              auto *target = dyn_cast<ast::Name>(t);
              return target && target->id == name;
            }))
          found = assign;
      }
    };
    if (at.parent)
      ast::forEachBody(at.parent, scan);
    else
      scan(f.ctx.tree.body);
    return found;
  }

  /// A helper's call whose checkpoint is announced: fast-forward skips it
  /// (the announcement stands for it; the arguments, such as a dict display
  /// of the state, need not be computed).
  bool announcedCall(const FilePlan &f, const ast::Stmt *s) const {
    return &f == &script && llvm::any_of(sites, [&](const SitePlan &p) {
             return p.caller != analysis::kNoNode &&
                    p.callStmt == s->getRange().begin.offset;
           });
  }

  std::vector<const ast::Stmt *> nestRoots() const {
    std::vector<const ast::Stmt *> roots;
    for (const SitePlan &p : sites)
      for (const ast::Stmt *r : p.roots)
        if (!llvm::is_contained(roots, r))
          roots.push_back(r);
    // A nest inside another one is visited with it.
    llvm::erase_if(roots, [&](const ast::Stmt *r) {
      return llvm::any_of(roots, [&](const ast::Stmt *o) {
        return o != r &&
               o->getRange().begin.offset < r->getRange().begin.offset &&
               r->getRange().end.offset <= o->getRange().end.offset;
      });
    });
    return roots;
  }

  // ---- Guards ---------------------------------------------------------------
  /// `s` (of file `f`) is in a loop nest (or a function only the nests
  /// call).
  /// `nested`: `s` is in a function also called outside the nests, whose
  /// statements are skipped only in a call the nests make (nestGuards).
  void visit(FilePlan &f, const ast::Stmt *s, bool nested = false) {
    if (isa<ast::FunctionDef, ast::ClassDef>(s))
      return;
    GuardWriter &guards = nested ? f.nestGuards : f.guards;
    bool compound =
        isa<ast::For, ast::While, ast::If, ast::With, ast::Try, ast::Match>(s);
    if (!compound) {
      // A jump reached in fast-forward is taken as in the original run:
      // the tests before it decide (Needed re-runs them).
      // A generator's `yield` hands the loop consuming it its next batch
      // (DeiT's `metric_logger.log_every(data_loader, ...)`): skipped, the
      // consumer went round no times in fast-forward.
      if ((!f.runsItself(s, nested) || announcedCall(f, s)) &&
          !isa<ast::Break, ast::Continue, ast::Return, ast::Raise>(s) &&
          !isYield(s))
        guards.guardSimple(s);
      if (auto *r = dyn_cast<ast::Return>(s))
        guardReturn(f, r, nested);
      else if (f.runsItself(s, nested))
        keptCalls.push_back({&f, s, nested});
      return;
    }
    // A loop over a keyed loader goes round in fast-forward even when
    // nothing in it runs (a validation pass): its placeholder batches
    // advance the loader as the run did (`enumerate(val_loader)` starts
    // an epoch of it even when skipped), so the resumed run draws the
    // loader's next epochs, and fast-forward's positions, as the run did.
    auto *loop = dyn_cast<ast::For>(s);
    if (!f.runsInside(s, nested) && !holdsLoaderLoop(f, s)) {
      guards.skipWhole(s);
      // (Run whole in a call from outside the nests: its loops over a
      // loader get real batches there, loadRealBatchesElsewhere.)
      if (!nested)
        f.skippedWhole.push_back(s);
      return;
    }
    if (loop)
      nameBatchShape(f, loop, nested);
    ast::forEachBody(s, [&](ast::NodeList<ast::Stmt> body) {
      for (const ast::Stmt *c : body)
        visit(f, c, nested);
    });
  }

  static bool isYield(const ast::Stmt *s) {
    auto *e = dyn_cast<ast::ExprStmt>(s);
    return e && isa_and_nonnull<ast::Yield, ast::YieldFrom>(e->value);
  }

  /// The graph nodes of the nests' loops.
  llvm::DenseSet<NodeId> nestLoopNodes() const {
    llvm::DenseSet<NodeId> nestLoops;
    for (const ast::Stmt *root : nestRoots())
      for (Operation *op : script.opsAt.lookup(root->getRange().begin.offset))
        for (NodeId n = 0; n < g.numNodes(); ++n)
          if (g.node(n).op == op)
            nestLoops.insert(n);
    return nestLoops;
  }

  /// A helper's save and its callers' calls of it below the script's
  /// call (by file and begin offset): never run in fast-forward.
  std::set<std::pair<const FilePlan *, uint32_t>> onTheWay;

  /// Simple statements in the nests fast-forward runs (visit), for
  /// passNoneForUnbound once every guard is known.
  std::vector<std::tuple<FilePlan *, const ast::Stmt *, bool>> keptCalls;

  /// A call of the script's function fast-forward runs (for what it
  /// changes: timm's `_backward(loss)`, whose `optimizer.step()` runs; a
  /// validation's pass over its loader) given a local that only
  /// statements fast-forward skips assign (`loss, result = _forward()`):
  /// it gets None for it there. Nothing fast-forward runs reads that value
  /// (Needed), but evaluating the name raised UnboundLocalError, exit 1,
  /// on every such resume.
  /// `saves`: every site's save call; `defs`: the names of the file's
  /// functions.
  void passNoneForUnbound(FilePlan &f, const ast::Stmt *s, bool nested,
                          const llvm::SmallPtrSetImpl<const ast::Call *> &saves,
                          const llvm::StringSet<> &defs) {
    const ast::Expr *value = nullptr;
    if (auto *e = dyn_cast<ast::ExprStmt>(s))
      value = e->value;
    else if (auto *a = dyn_cast<ast::Assign>(s))
      value = a->value;
    const StmtPlace *at = f.places.of(s);
    GuardWriter &guards = nested ? f.nestGuards : f.guards;
    // (A save or a helper's call guarded since: its arguments are not
    // evaluated in fast-forward.)
    if (!value || !at || !at->function || guards.skips(f.places, s) ||
        onTheWay.count({&f, s->getRange().begin.offset}))
      return;
    // The arguments given to the program's own functions, in calls
    // anywhere in the statement (`print(epoch, validate(loss))`, where
    // `validate` runs for its pass over a loader; mixup-cifar10's
    // `progress_bar(i, n, 'Loss: %.3f' % (train_loss / (i + 1)))`, a
    // function of a module detc does not edit, run for the module globals
    // it sets): such a function's statements that read the parameter are
    // skipped (Needed), or read what fast-forward does not need. A
    // library's (`float(loss)`) would read it.
    // So is the object a checkpoint saves where fast-forward reaches its
    // site at the save (a helper's `sd = to_state(model); torch.save(sd,
    // path)`): the save returns without reading it there.
    llvm::StringSet<> programCallees;
    for (Operation *op : f.opsAt.lookup(s->getRange().begin.offset))
      if (auto c = dyn_cast<ir::CallOp>(op))
        programCallees.insert(
            c.getCallee().getLeafReference().getValue().rsplit('.').second);
    auto programCallee = [&](const ast::Expr *fn) {
      if (auto *n = dyn_cast<ast::Name>(fn))
        return defs.contains(n->id) || programCallees.contains(n->id);
      auto *a = dyn_cast<ast::Attribute>(fn);
      return a && programCallees.contains(a->attr);
    };
    auto callsProgram = [&](const ast::Expr *e) {
      return anyOutsideLambdas(e, [&](const ast::Node *n) {
        auto *c = dyn_cast<ast::Call>(n);
        return c && (programCallee(c->func) || saves.count(c));
      });
    };
    std::vector<const ast::Expr *> args;
    std::vector<const ast::Node *> work{value};
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (isa<ast::Lambda>(n))
        continue;
      if (auto *call = dyn_cast<ast::Call>(n);
          call && saves.count(call) && !call->args.empty()) {
        if (isa<ast::Name>(call->args[0]))
          args.push_back(call->args[0]);
      } else if (call && programCallee(call->func)) {
        // An argument is passed as None whole, unless it calls the
        // program's functions itself (`f(g(loss))`: g runs, given None).
        auto given = [&](const ast::Expr *a) {
          if (isa<ast::Name>(a) || !callsProgram(a))
            args.push_back(a);
          else
            work.push_back(a);
        };
        for (const ast::Expr *a : call->args)
          if (!isa<ast::Starred>(a))
            given(a);
        for (const ast::Keyword *k : call->keywords)
          if (k->value && !k->arg.empty())
            given(k->value);
        work.push_back(call->func);
        continue;
      }
      ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
        work.push_back(c);
      });
    }
    if (args.empty())
      return;
    FunctionScope scope = scopeOf(at->function, f.ctx.tree);
    std::vector<const ast::Stmt *> body = f.places.statementsIn(at->function);
    // A local only statements fast-forward skips assign: unbound there.
    auto unbound = [&](StringRef id) {
      return scope.locals.contains(id) &&
             llvm::none_of(body, [&](const ast::Stmt *t) {
               return statementBinds(t, id) && !guards.skips(f.places, t);
             });
    };
    for (const ast::Expr *a : args) {
      bool reads = anyOutsideLambdas(a, [&](const ast::Node *n) {
        auto *x = dyn_cast<ast::Name>(n);
        return x && unbound(x->id);
      });
      if (reads)
        guards.wrapLater(a, "(",
                         formatv(") if {0}.{1}() else None", kRuntimeAlias,
                                 nested ? "nest_guard" : "guard")
                             .str(),
                         "an argument not computed in fast-forward");
    }
  }

  /// A return whose value nothing fast-forward runs needs (nanoGPT's
  /// `return out` of estimate_loss, its loss dict built by skipped
  /// statements; the call still runs, for the model's train/eval mode): it
  /// returns, with None, without reading that value — or a tuple of as
  /// many Nones as its tuple display has items, which a caller unpacking
  /// it (`train_acc, train_loss = train(...)`, RepDistiller's loops)
  /// unpacks as before. Once the run resumes, it returns its value.
  void guardReturn(FilePlan &f, const ast::Return *r, bool nested) {
    if (!r->value || f.runsItself(r, nested))
      return;
    GuardWriter &guards = nested ? f.nestGuards : f.guards;
    std::string none = "None";
    if (auto *t = dyn_cast<ast::Tuple>(r->value);
        t && !t->elts.empty() && llvm::none_of(t->elts, [](const ast::Expr *e) {
          return isa<ast::Starred>(e);
        }))
      none = "(" +
             llvm::join(std::vector<std::string>(t->elts.size(), "None"),
                        ", ") +
             (t->elts.size() == 1 ? ",)" : ")");
    guards.wrapLater(r->value, "(",
                     formatv(") if {0}.{1}() else {2}", kRuntimeAlias,
                             nested ? "nest_guard" : "guard", none)
                         .str(),
                     "its value is not computed in fast-forward");
  }

  /// Functions whose statements fast-forward partly runs, called only from
  /// the loop nests — in the script or in a module it imports (a training
  /// loop in `engine.py`): guarded like the nests. A function also called
  /// elsewhere runs in full in fast-forward.
  void guardCallees() {
    llvm::DenseSet<NodeId> nestLoops = nestLoopNodes();
    // Functions only the nests call are guarded like the nests; those also
    // called outside them (ImageNet's `validate`, DeiT's `evaluate`, called
    // before the loop with --evaluate) are guarded for the calls the nests
    // make only: each such call says so (`from_nest`), and their
    // statements run unless a nest's call is under way in fast-forward.
    // Run in full there, a resume at epoch N re-ran N validation passes.
    std::vector<std::pair<FilePlan *, const ast::FunctionDef *>> only, partly;
    for (size_t i = 0; i < files.size(); ++i) {
      FilePlan &f = *files[i];
      for (const ast::FunctionDef *def : f.places.functions()) {
        if (!f.runsInside(def))
          continue;
        if (containsNest(f, def)) {
          // Its statements around the nest run, but a value it returns
          // after the nest is built by what fast-forward skipped there
          // (`return {'loss': loss.item()}` of a `train_one_epoch` that
          // holds a recovery checkpoint: the calls of the epochs before
          // the resume's read a loss no skipped step computed).
          for (const ast::Stmt *s : def->body)
            if (auto *r = dyn_cast<ast::Return>(s))
              guardReturn(f, r, /*nested=*/false);
          continue;
        }
        NestUse use = nestUse(f, def, nestLoops);
        if (use == NestUse::Never)
          continue; // setup code: runs as in the original run
        if (use == NestUse::Partly && holdsYieldIn(def)) {
          // A generator (DeiT's `log_every`): its items are taken after
          // its call returns; the loops it feeds tell it (`fed`).
          f.ctx.warning(def->getRange().begin.offset,
                        "fast-forward runs '" + def->name.str() +
                            "' in full: it is also called outside the "
                            "training loop [detc-replay]");
          continue;
        }
        (use == NestUse::Partly ? partly : only).push_back({&f, def});
      }
    }
    for (auto [f, def] : only)
      for (const ast::Stmt *s : def->body)
        visit(*f, s);
    for (auto [f, def] : partly) {
      for (const ast::Stmt *s : def->body)
        visit(*f, s, /*nested=*/true);
      markNestCalls(*f, def, nestLoops, only);
    }
  }

  static bool holdsYieldIn(const ast::FunctionDef *def) {
    return llvm::any_of(def->body,
                        [](const ast::Stmt *s) { return holdsYield(s); });
  }

  /// Wraps the calls of `def` (of `f`) that the nests make — in a nest, or
  /// in a function only the nests call — in `from_nest(...)`.
  void markNestCalls(
      FilePlan &f, const ast::FunctionDef *def,
      const llvm::DenseSet<NodeId> &nestLoops,
      ArrayRef<std::pair<FilePlan *, const ast::FunctionDef *>> only) {
    uint32_t b = def->getRange().begin.offset, e = def->getRange().end.offset;
    llvm::DenseSet<Operation *> calls;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (!node.op || node.caller == analysis::kNoNode ||
          !g.node(node.caller).op ||
          node.op->getParentOfType<ir::BuildOp>())
        continue;
      std::optional<Span> s = f.ctx.spanOf(node.op);
      if (!s || s->stmtBegin <= b || s->stmtBegin >= e ||
          !inNestLoops(g, n, nestLoops))
        continue;
      calls.insert(g.node(node.caller).op);
    }
    for (Operation *op : calls) {
      auto [cf, at] = placeOf(op);
      if (!at)
        continue;
      bool inNest =
          (cf == &script && llvm::any_of(nestRoots(), [&](const ast::Stmt *r) {
             return encloses(r, at->stmt);
           })) ||
          (at->function && llvm::any_of(only, [&](auto &o) {
             return o.first == cf && o.second == at->function;
           }));
      std::optional<Span> s = cf->ctx.spanOf(op);
      std::optional<uint32_t> end =
          s ? calleeEnd(cf->ctx.src, s->exprBegin, s->exprEnd) : std::nullopt;
      if (!inNest || !end ||
          !markedCalls.insert({cf, s->exprBegin}).second)
        continue;
      cf->guards.wrapLater(s->exprBegin, *end,
                           formatv("{0}.from_nest(", kRuntimeAlias).str(),
                           ")", "a call the training loop makes");
    }
  }
  std::set<std::pair<const FilePlan *, uint32_t>> markedCalls;

  /// A generator fast-forward runs in full (also called outside the
  /// training loop) that feeds a loop it skips: the statements of the
  /// generator's loops around a `yield` run only as the consumer's loop
  /// does (`fed`). After its `yield`, DeiT's `log_every` prints meters the
  /// skipped loop body never updated: the resume died dividing by zero.
  /// Statements the Needed analysis re-executes still run.
  void guardFeedingGenerators() {
    llvm::DenseSet<NodeId> nestLoops;
    for (size_t i = 0; i < files.size(); ++i) {
      FilePlan &f = *files[i];
      for (const ast::FunctionDef *def : f.places.functions()) {
        if (containsNest(f, def))
          continue;
        for (const ast::Stmt *s : f.places.statementsIn(def)) {
          auto *loop = dyn_cast<ast::For>(s);
          if (!loop || llvm::none_of(loop->body, isYield))
            continue;
          if (nestLoops.empty())
            nestLoops = nestLoopNodes();
          if (nestUse(f, def, nestLoops) != NestUse::Partly)
            break; // guarded with the nests, or setup code
          for (const ast::Stmt *c : loop->body)
            if (!isYield(c) && !f.runsInside(c) && !holdsYield(c))
              f.fedGuards.skipWhole(c);
        }
      }
    }
  }

  /// Whether a `yield` is among the statements in `s`.
  static bool holdsYield(const ast::Stmt *s) {
    bool found = isYield(s);
    ast::forEachBody(s, [&](ast::NodeList<ast::Stmt> body) {
      for (const ast::Stmt *c : body)
        found = found || holdsYield(c);
    });
    return found;
  }

  bool containsNest(const FilePlan &f, const ast::FunctionDef *def) const {
    if (&f != &script)
      return false; // the nests are the script's
    for (const SitePlan &p : sites)
      for (const ast::Stmt *r : p.roots)
        if (encloses(def, r))
          return true;
    return false;
  }

  enum class NestUse { Never, Partly, Only };
  /// Whether the statements of `def` (of file `f`) run inside the loop
  /// nests.
  NestUse nestUse(const FilePlan &f, const ast::FunctionDef *def,
                  const llvm::DenseSet<NodeId> &nestLoops) const {
    uint32_t b = def->getRange().begin.offset, e = def->getRange().end.offset;
    bool inside = false, outside = false;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (!node.op)
        continue;
      // What a layer built here does in its forward (`nn.Dropout(0.3)` in
      // `__init__` draws when the model runs in the loop) is not a
      // statement of `def` running there.
      if (node.op->getParentOfType<ir::BuildOp>())
        continue;
      std::optional<Span> s = f.ctx.spanOf(node.op);
      if (!s || s->stmtBegin <= b || s->stmtBegin >= e)
        continue;
      (inNestLoops(g, n, nestLoops) ? inside : outside) = true;
    }
    if (!inside)
      return NestUse::Never;
    return outside ? NestUse::Partly : NestUse::Only;
  }

  /// Whether `s` is a loop over a loader, or a `with` around one
  /// (`with torch.no_grad(): for x, y in val_loader:`).
  bool holdsLoaderLoop(const FilePlan &f, const ast::Stmt *s) const {
    if (auto *loop = dyn_cast<ast::For>(s))
      return bool(fetchOf(f, loop));
    auto *with = dyn_cast<ast::With>(s);
    return with && llvm::any_of(with->body, [&](const ast::Stmt *c) {
             return holdsLoaderLoop(f, c);
           });
  }

  /// `enumerate(loader)` or `tqdm(loader)` around a loop's loader, or null.
  static const ast::Call *iteratorWrapper(const FilePlan &f,
                                          const ast::Expr *iter) {
    auto *c = dyn_cast<ast::Call>(iter);
    if (!c || c->args.empty())
      return nullptr;
    StringRef callee = f.text(c->func);
    return callee == "enumerate" || callee.ends_with("tqdm") ? c : nullptr;
  }

  /// The fetch of the loop over a loader `loop` is, or null.
  static ir::FetchOp fetchOf(const FilePlan &f, const ast::For *loop) {
    ir::FetchOp fetch;
    for (Operation *op : f.opsAt.lookup(loop->getRange().begin.offset))
      if (auto l = dyn_cast<ir::ForOp>(op))
        for (Operation &inner : l.getBody().front())
          if (auto fe = dyn_cast<ir::FetchOp>(inner))
            fetch = fe;
    return fetch;
  }

  /// The loops over a loader that fast-forward runs in full (in setup
  /// code, or in a function also called outside the training loop:
  /// ImageNet's `validate`, called before the loop with --evaluate): their
  /// bodies are not skipped, so they get real batches in fast-forward too
  /// (placeholders there crashed the resume). Slower, never wrong. In a
  /// module detc edits too (the copy the script installs loads them).
  void loadRealBatchesElsewhere() {
    llvm::DenseSet<NodeId> nestLoops = nestLoopNodes();
    for (size_t i = 0; i < files.size(); ++i) {
      FilePlan &f = *files[i];
      std::vector<const ast::FunctionDef *> scopes = f.places.functions();
      scopes.push_back(nullptr);
      for (const ast::FunctionDef *fn : scopes) {
        // A function only the nests call runs in fast-forward only as they
        // run it: its loops were planned with them, or its calls skipped.
        if (fn && !containsNest(f, fn) &&
            nestUse(f, fn, nestLoops) == NestUse::Only)
          continue;
        for (const ast::Stmt *s : f.places.statementsIn(fn)) {
          for (const ast::Expr *loader : peekedLoaders(f, fn, s))
            if (peeked.insert(loader).second)
              f.guards.wrapLater(
                  loader, formatv("{0}.real_batches(", kRuntimeAlias), ")",
                  "real batches in fast-forward (a look at its first batch)");
          auto *loop = dyn_cast<ast::For>(s);
          if (!loop || f.plannedLoops.count(loop) || !fetchOf(f, loop) ||
              llvm::any_of(f.skippedWhole, [&](const ast::Stmt *skipped) {
                return encloses(skipped, loop);
              }))
            continue;
          const ast::Expr *iter = loop->iter;
          if (const ast::Call *c = iteratorWrapper(f, iter))
            iter = c->args[0];
          // A wrapper made earlier (`pbar = tqdm(loader)`) began its
          // iteration where it was made: left as it is.
          f.guards.wrapLater(iter,
                             formatv("{0}.real_batches(", kRuntimeAlias),
                             ")",
                             "real batches in fast-forward (it runs in full)");
        }
      }
    }
  }

  /// Reads of values that differ from run to run (the lowering's
  /// `detc.varying_reads`: `datetime.now()`, `time.time()`) outside any
  /// loop, in code fast-forward runs: `timestamp =
  /// datetime.now().strftime(...)` names the run's folder and checkpoints
  /// (pytorch/tutorials' Fashion-MNIST script), and a resume read a new
  /// time: its later checkpoints and logs went elsewhere, and a value
  /// saved with that name refused the resume. `_detc_rt.recorded(site,
  /// datetime.now)()` logs the value for the sidecars, and fast-forward
  /// gives the checkpointed run's. Inside a loop (per-step timings) they
  /// are left as written: the log would grow with the run; with
  /// `moduleCodeOnly`, so are those in functions (no nests known: a
  /// function may be a step's) and in imported modules.
  void recordVaryingReads(bool moduleCodeOnly) {
    auto reads = ctx.module->getAttrOfType<ArrayAttr>("detc.varying_reads");
    if (!reads)
      return;
    llvm::DenseSet<NodeId> nestLoops;
    if (!moduleCodeOnly)
      nestLoops = nestLoopNodes();
    for (Attribute a : reads) {
      auto r = dyn_cast<ArrayAttr>(a);
      if (!r || r.size() != 5)
        continue;
      auto num = [&](unsigned i) {
        return uint32_t(cast<IntegerAttr>(r[i]).getInt());
      };
      StringRef file = cast<StringAttr>(r[0]).getValue();
      if (moduleCodeOnly && file != ctx.file.getName())
        continue; // (an imported module would be edited for it alone)
      FilePlan *f = fileNamed(file);
      const StmtPlace *at = f ? f->places.at(num(1)) : nullptr;
      if (!at || (moduleCodeOnly && at->function))
        continue;
      if (at->function && !containsNest(*f, at->function) &&
          nestUse(*f, at->function, nestLoops) == NestUse::Only)
        continue;
      bool looped = false;
      for (const ast::Stmt *up = at->parent;
           up && !isa<ast::FunctionDef>(up); up = f->places.of(up)->parent)
        looped |= isa<ast::For, ast::While>(up);
      Span span{num(1), at->stmt->getRange().end.offset, num(2), num(3)};
      std::optional<uint32_t> end =
          looped ? std::nullopt
                 : calleeEnd(f->ctx.src, span.exprBegin, span.exprEnd);
      if (!end)
        continue;
      f->ctx.edits.wrap(
          span.exprBegin, *end,
          // (The module's name in the key: the same read in two files
          // logs apart.)
          formatv("{0}.recorded({1}, ", kRuntimeAlias,
                  f->ctx.streamSite(span, "recorded " + f->ctx.moduleName))
              .str(),
          ")");
      f->ctx.edits.note(
          f->ctx.edits.lineOf(
              commentableLineEnd(f->ctx.src, span.stmtBegin, *end)),
          formatv("{0}() recorded: a resume reads the checkpointed run's",
                  cast<StringAttr>(r[4]).getValue())
              .str());
    }
  }

  /// A look at a loader's first batch outside any loop, in code
  /// fast-forward runs in full: `x, y = next(iter(loader))`, or `it =
  /// iter(loader)` before `x, y = next(it)` (the CIFAR-10 and Fashion-MNIST
  /// tutorials show their data so before training; in fast-forward the
  /// placeholder they got crashed the resume: "cannot unpack non-iterable
  /// Skipped object"). The `loader` of those `iter` calls, which the
  /// statement's fetch (a FetchOp) reads batches from.
  SmallVector<const ast::Expr *, 1>
  peekedLoaders(const FilePlan &f, const ast::FunctionDef *fn,
                const ast::Stmt *s) const {
    const ast::Expr *value = nullptr;
    if (auto *a = dyn_cast<ast::Assign>(s))
      value = a->value;
    else if (auto *e = dyn_cast<ast::ExprStmt>(s))
      value = e->value;
    auto *call = dyn_cast_or_null<ast::Call>(value);
    if (!call)
      return {};
    auto named = [&](const ast::Expr *e, StringRef name) {
      auto *n = dyn_cast<ast::Name>(e);
      return n && n->id == name;
    };
    // `next(it)`, `it.next()`, `it.__next__()`.
    const ast::Expr *it = nullptr;
    if (named(call->func, "next") && !call->args.empty())
      it = call->args[0];
    else if (auto *m = dyn_cast<ast::Attribute>(call->func);
             m && call->args.empty() &&
             (m->attr == "next" || m->attr == "__next__"))
      it = m->value;
    if (!it || !llvm::any_of(f.opsAt.lookup(s->getRange().begin.offset),
                             [](Operation *op) { return isa<ir::FetchOp>(op); }))
      return {};
    for (const StmtPlace *at = f.places.of(s);
         at && at->parent && !isa<ast::FunctionDef>(at->parent);
         at = f.places.of(at->parent))
      if (isa<ast::For, ast::While>(at->parent))
        return {};
    auto iterOf = [&](const ast::Expr *e) -> const ast::Expr * {
      auto *c = dyn_cast_or_null<ast::Call>(e);
      return c && named(c->func, "iter") && c->args.size() == 1 &&
                     c->keywords.empty()
                 ? c->args[0]
                 : nullptr;
    };
    if (const ast::Expr *loader = iterOf(it))
      return {loader};
    auto *var = dyn_cast<ast::Name>(it);
    if (!var)
      return {};
    // The last `it = iter(loader)` before the statement, in its function.
    const ast::Expr *loader = nullptr;
    for (const ast::Stmt *before : f.places.statementsIn(fn)) {
      if (before->getRange().begin.offset >= s->getRange().begin.offset)
        break;
      auto *a = dyn_cast<ast::Assign>(before);
      if (a && a->targets.size() == 1 && named(a->targets[0], var->id))
        loader = iterOf(a->value);
    }
    if (!loader)
      return {};
    return {loader};
  }

  /// `for x, y in loader` over a DataLoader: `batches(loader, 2)`. Over a
  /// variable that wraps it (`pbar = enumerate(loader)`), the lowering's
  /// count of the batch's parts, and the loader itself (an `enumerate`
  /// does not show what it iterates): `batches(pbar, 4, lambda: loader)`.
  void nameBatchShape(FilePlan &f, const ast::For *loop, bool nested = false) {
    f.plannedLoops.insert(loop);
    ir::FetchOp fetch = fetchOf(f, loop);
    if (!fetch)
      return;
    // In a function also called outside the nests: placeholders only in a
    // call the nests make, real batches in the others.
    StringRef batches = nested ? "nest_batches" : "batches";
    StringRef note = nested ? "placeholder batches in fast-forward when the "
                              "training loop calls it, real ones otherwise"
                            : "placeholder batches in fast-forward";
    if (isa<ast::Name, ast::Attribute>(loop->iter)) {
      StringRef loader = fetch.getLoader();
      auto arity = fetch->getAttrOfType<IntegerAttr>("arity");
      // An enclosing function's variable (`^val_loader`, a closure's) is
      // spelled as the closure reads it: the lambda's code made
      // `lambda: ^val_loader`, which the check of emitted code refused
      // (an internal error, nothing written).
      loader.consume_front("^");
      std::string source;
      if (loader.consume_front("@") ? !loader.contains('.')
                                    : !loader.starts_with("$"))
        source = loader.str();
      if (arity && !source.empty() && source != f.text(loop->iter)) {
        f.guards.wrapLater(
            loop->iter, formatv("{0}.{1}(", kRuntimeAlias, batches).str(),
            formatv(", {0}, lambda: {1})",
                    arity.getInt() < 0 ? std::string("None")
                                       : std::to_string(arity.getInt()),
                    source)
                .str(),
            note.str());
        return;
      }
    }
    const ast::Expr *iter = loop->iter, *target = loop->target;
    if (const ast::Call *c = iteratorWrapper(f, iter)) {
      iter = c->args[0];
      if (f.text(c->func) == "enumerate") {
        auto *t = dyn_cast<ast::Tuple>(target);
        target = t && t->elts.size() == 2 ? t->elts[1] : nullptr;
      }
    }
    std::string arity = "None";
    if (auto *t = dyn_cast_or_null<ast::Tuple>(target))
      arity = std::to_string(t->elts.size());
    else if (auto *l = dyn_cast_or_null<ast::List>(target))
      arity = std::to_string(l->elts.size());
    f.guards.wrapLater(iter,
                       formatv("{0}.{1}(", kRuntimeAlias, batches).str(),
                       ", " + arity + ")", note.str());
  }

  PlanContext &ctx;
  const analysis::StatementGraph &g;
  /// Factory locals and constructor `self`s under their callers' names.
  CallerNames names{g, ctx.module};
  StringRef src;
  /// The script's plan first, then the modules' (fileNamed).
  std::vector<std::unique_ptr<FilePlan>> files;
  llvm::StringMap<FilePlan *> fileByName;
  FilePlan &script;
  /// The script's statements and guards (the checkpoint sites are there).
  StatementIndex &places;
  GuardWriter &guards;
  std::vector<SitePlan> sites;
};

} // namespace

void planReplay(PlanContext &ctx) { ReplayPlanner(ctx).run(); }

} // namespace detc::codegen
