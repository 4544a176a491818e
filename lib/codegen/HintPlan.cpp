//===- HintPlan.cpp - Checkpoints at the chosen hint, with restart --------===//
//
// The CheckHint schedule chose one `_checkpoint()` hint and a period k
// (docs/checkhint.md). This instruments it:
//
//  * the hint call goes through `hints.hint(SITE, k, {values}, _checkpoint)`:
//    every k-th arrival writes the values live after the hint that the
//    loop nest changes (liveness, SPEC §4), the generator states live there,
//    and the loop positions, atomically (hints.py);
//  * the `for` loops on the path from the outermost loop to the hint
//    iterate through `hints.loop(SITE, LEVEL, iterable)`, which counts
//    items and re-enters at the saved one on restart (`enumerate` gets its
//    start moved along);
//  * on the way in, the statements before the path in each body are
//    skipped (`hints.guard(SITE)`), and the `if`/`while` tests on the path
//    are taken without evaluation (`hints.entering(SITE)`);
//  * after the hint, restore code puts the saved values back: into the
//    script's own objects when the nest never rebinds the variable (other
//    objects may hold it, e.g. an optimizer holds a parameter tensor), by
//    assignment otherwise.
//
// What is outside the nest is not saved: the restarted script runs its
// setup again. What this cannot restore exactly is an error naming the
// construct; values that cannot be saved are reported at their definition.
//
//===----------------------------------------------------------------------===//

#include "GuardWriter.h"
#include "PlanContext.h"
#include "StatementIndex.h"
#include "detc/codegen/GeneratorShapes.h"
#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ASTDump.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {
namespace {

using analysis::NodeId;

StringRef rootOf(StringRef path) {
  // `qualifier/name.attr`: a qualifier names a function and may hold dots
  // (`model.RNNModel::__init__#2/self.rnn` for a local module's class).
  size_t slash = path.rfind('/');
  size_t from = slash == StringRef::npos ? 0 : slash + 1;
  return path.take_front(
      from + path.drop_front(from)
                 .take_until([](char c) { return c == '.' || c == '['; })
                 .size());
}

/// What a value built by `e` is, when it cannot be saved.
std::optional<std::string> unsaveableKind(const ast::Expr *e, StringRef src,
                                          const StatementIndex &places) {
  if (isa_and_nonnull<ast::GeneratorExp>(e))
    return std::string("a generator expression");
  auto *call = dyn_cast_or_null<ast::Call>(e);
  if (!call)
    return std::nullopt;
  StringRef callee = src.slice(call->func->getRange().begin.offset,
                               call->func->getRange().end.offset);
  std::optional<std::string> kind =
      llvm::StringSwitch<std::optional<std::string>>(callee)
          .Cases("open", "io.open", "gzip.open", "bz2.open", "lzma.open",
                 "an open file")
          .Cases("socket.socket", "socket.create_connection", "a socket")
          .Cases("iter", "zip", "map", "filter", "reversed", "enumerate",
                 "an iterator")
          .Cases("subprocess.Popen", "multiprocessing.Process", "a process")
          .Cases("threading.Thread", "threading.Lock", "a thread or lock")
          .Default(std::nullopt);
  if (kind)
    return kind;
  // A call of a generator function defined in this script.
  for (const ast::FunctionDef *def : places.functions()) {
    if (def->name != callee)
      continue;
    bool yields = false;
    std::function<void(const ast::Node *)> scan = [&](const ast::Node *n) {
      if (isa<ast::Yield, ast::YieldFrom>(n))
        yields = true;
      if (!isa<ast::FunctionDef, ast::ClassDef, ast::Lambda>(n) || n == def)
        ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
          if (c)
            scan(c);
        });
    };
    scan(def);
    if (yields)
      return "a generator of '" + def->name.str() + "'";
  }
  return std::nullopt;
}

/// A function on the way to the hint: its statements from the outermost
/// loop (in the outermost function) or from its start, down to the call
/// into the next function, or to the hint in the last.
struct FilePlan;

struct Frame {
  FilePlan *file = nullptr; ///< The script's, or an imported module's.
  const ast::FunctionDef *function = nullptr; ///< Null: the module.
  std::string qualifier;                      ///< Its locals' prefix.
  std::vector<const ast::Stmt *> path;        ///< Around `child`.
  const ast::Stmt *child = nullptr; ///< The call (or the hint) statement.
  unsigned depth = 0;               ///< Calls between it and the hint's.
  unsigned instance = 0;            ///< Its expansion in the graph.
  /// Its other expansions, through other calls above the loops (their
  /// variables are this expansion's: see HintPlanner::primaryRoot).
  std::vector<unsigned> others;
  /// Outer frames: the names the hint saves from it, and their restore
  /// statements (before `child` on restart).
  std::vector<std::string> saved, restoreLines;
};

/// A file the frames are in: the script, or an imported module the
/// transform edits too (a JIT boundary in DeiT's `engine.py`:
/// PlanContext::moduleContext).
struct FilePlan {
  explicit FilePlan(PlanContext &ctx)
      : ctx(ctx), src(ctx.src), places(ctx.tree) {}
  PlanContext &ctx;
  StringRef src;
  StatementIndex places;
  std::optional<GuardWriter> guards;
};

class HintPlanner {
public:
  /// `quiet`: only find what a checkpoint there saves (keysToSave), no
  /// diagnostics, no edits.
  HintPlanner(PlanContext &ctx, Operation *hintOp, uint64_t period,
              bool quiet = false, bool jit = false)
      : ctx(ctx), g(ctx.a.graph), hintOp(hintOp), period(period),
        quiet(quiet), jit(jit) {
    files.push_back(std::make_unique<FilePlan>(ctx));
  }

  bool run() {
    if (!analyze())
      return false;
    site = ctx.newSite();
    for (std::unique_ptr<FilePlan> &file : files)
      file->guards.emplace(
          file->ctx,
          GuardSyntax{
              formatv("{0}.hints.guard({1})", kRuntimeAlias, site).str(),
              formatv("{0}.hints.guard({1}) and (", kRuntimeAlias, site).str(),
              "(",
              formatv(") if {0}.hints.guard({1}) else ()", kRuntimeAlias,
                      site)
                  .str(),
              "skipped on restart at the hint"});
    if (!checkIterables())
      return false;
    planEntry();
    bool problems = false;
    for (std::unique_ptr<FilePlan> &file : files)
      for (auto &[offset, message] :
           file->guards ? file->guards->getProblems()
                        : decltype(file->guards->getProblems()){}) {
        file->ctx.diags.error(&file->ctx.file, file->ctx.posAt(offset),
                              "cannot restart at the chosen hint: " + message +
                                  " [detc-hint]");
        problems = true;
      }
    if (problems)
      return false;
    instrumentHint();
    for (std::unique_ptr<FilePlan> &file : files)
      if (file->guards)
        file->guards->apply();
    return true;
  }

  /// The keys of what a checkpoint at the hint saves (variables, and
  /// `gen:X` for generator states), when it can be instrumented.
  std::optional<std::vector<std::string>> keysToSave() {
    if (!analyze())
      return std::nullopt;
    return keys;
  }

private:
  /// Finds the hint's statement, path, nest and what it saves.
  bool analyze() {
    hintFile = fileOf(hintOp);
    std::optional<Span> span =
        hintFile ? hintFile->ctx.spanOf(hintOp) : std::nullopt;
    const StmtPlace *place =
        span ? hintFile->places.at(span->stmtBegin) : nullptr;
    if (!place) {
      hintFile = nullptr;
      return fail("the chosen checkpoint hint is not in this script");
    }
    hintSpan = *span;
    hintStmt = place->stmt;
    fileOfStatement[hintStmt] = hintFile;
    PlanContext &hc = hintFile->ctx;
    auto *stmt = dyn_cast<ast::ExprStmt>(hintStmt);
    auto *call = stmt ? dyn_cast_or_null<ast::Call>(stmt->value) : nullptr;
    if (!call || call->getRange().begin.offset != span->exprBegin)
      return fail("the chosen hint is not a call statement of its own");
    GuardWriter probe(hc, {});
    if (!hc.indentAt(span->stmtBegin) || !probe.endsLine(span->stmtEnd)) {
      hc.needOwnLine(span->stmtBegin);
      return fail("the chosen hint shares its line with other statements");
    }
    if (hc.edits.lineOf(span->stmtEnd) >=
        hc.edits.lineOf(uint32_t(hintFile->src.size())))
      return fail("the chosen hint ends the file (restore code follows it)");
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (g.node(n).op == hintOp)
        hintNodes.push_back(n);
    if (hintNodes.empty())
      return fail("the chosen hint is never reached from the script's entry");
    if (!planFrames())
      return false;
    collectRerun();
    collectChanged();
    return planValues();
  }

  bool fail(const Twine &message) {
    if (quiet)
      return false;
    PlanContext &at = hintFile ? hintFile->ctx : ctx;
    at.diags.error(
        &at.file, at.posAt(hintSpan.exprBegin),
        ("cannot checkpoint at the chosen hint: " + message + " [detc-hint]")
            .str());
    return false;
  }
  bool failAt(const FilePlan &file, const ast::Node *at,
              const Twine &message) {
    if (quiet)
      return false;
    file.ctx.diags.error(&file.ctx.file,
                         file.ctx.posAt(at->getRange().begin.offset),
                         (message + " [detc-hint]").str());
    return false;
  }
  static StringRef text(const FilePlan &file, const ast::Node *n) {
    return file.src.slice(n->getRange().begin.offset,
                          n->getRange().end.offset);
  }
  static unsigned lineOf(const FilePlan &file, const ast::Node *n) {
    return file.ctx.edits.lineOf(n->getRange().begin.offset);
  }

  /// The file `op` was lowered from, when the transform may edit it (the
  /// script; an imported module with --jit-checkpoint), else null.
  FilePlan *fileOf(Operation *op) {
    std::optional<ir::SourceSpan> s =
        op ? ir::getSourceSpan(op->getLoc()) : std::nullopt;
    PlanContext *c =
        s && s->file ? ctx.moduleContext(s->file.getValue()) : nullptr;
    if (!c)
      return nullptr;
    for (std::unique_ptr<FilePlan> &file : files)
      if (&file->ctx == c)
        return file.get();
    files.push_back(std::make_unique<FilePlan>(*c));
    return files.back().get();
  }

  // ---- The frames from the outermost loop to the hint ----------------------
  /// The statement an op was lowered from, in a file the transform edits.
  const ast::Stmt *statementOf(Operation *op) {
    FilePlan *file = fileOf(op);
    std::optional<Span> s = file ? file->ctx.spanOf(op) : std::nullopt;
    const StmtPlace *at = s ? file->places.at(s->stmtBegin) : nullptr;
    if (!at)
      return nullptr;
    fileOfStatement[at->stmt] = file;
    return at->stmt;
  }

  /// The statements around `s` (found by statementOf) in its function,
  /// outermost first.
  std::vector<const ast::Stmt *> enclosing(const ast::Stmt *s) {
    const StatementIndex &places = fileOfStatement.lookup(s)->places;
    std::vector<const ast::Stmt *> out;
    for (const ast::Stmt *p = places.of(s)->parent;
         p && !isa<ast::FunctionDef>(p); p = places.of(p)->parent)
      out.insert(out.begin(), p);
    return out;
  }

  /// Fills `frames`: from the call chain of the hint (the same for all its
  /// expansions), the functions from the outermost one whose statements
  /// on the way loop down to the hint's; and `nest`, that outermost loop.
  bool planFrames() {
    // (statement, instance) from the hint up to the module.
    std::vector<std::pair<const ast::Stmt *, unsigned>> chain;
    for (unsigned inst = g.node(hintNodes.front()).instance, at = ~0u;;
         at = inst, inst = g.instances[inst].parent) {
      const ast::Stmt *stmt =
          at == ~0u ? hintStmt
                    : statementOf(g.node(g.instances[at].callSite).op);
      if (!stmt)
        return fail("it is reached through a call detc cannot place in this "
                    "script" +
                    Twine(ctx.options.modules
                              ? " or the module it imports"
                              : ""));
      chain.push_back({stmt, inst});
      if (g.instances[inst].parent == ~0u)
        break;
    }
    size_t top = chain.size();
    for (size_t i = chain.size(); i-- > 0;)
      if (llvm::any_of(enclosing(chain[i].first), [](const ast::Stmt *p) {
            return isa<ast::For, ast::While>(p);
          })) {
        top = i;
        break;
      }
    if (top == chain.size())
      return fail("it is outside any loop: detc restarts inside the loops "
                  "around a hint (a hint outside them saves nothing a rerun "
                  "would not redo)");
    // Every expansion of the hint must come through the same statements
    // down from the outermost loop's function; above it (the setup, which
    // a restart runs again) the calls may differ: hifi-gan's `train` is
    // called through mp.spawn or directly. Each frame keeps the other
    // expansions of its function (`others`, by chain level).
    std::vector<std::vector<unsigned>> others(top + 1);
    for (NodeId n : hintNodes) {
      // `inst`: the expansion at chain level i - 1, called at level i.
      unsigned inst = g.node(n).instance;
      for (size_t i = 1; i <= top + 1; ++i, inst = g.instances[inst].parent) {
        if (inst != chain[i - 1].second &&
            !llvm::is_contained(others[i - 1], inst))
          others[i - 1].push_back(inst);
        if (i > top)
          break;
        if (g.instances[inst].parent == ~0u ||
            statementOf(g.node(g.instances[inst].callSite).op) !=
                chain[i].first)
          return fail("its function is reached through several calls; detc "
                      "restarts at a hint reached through one");
      }
    }
    for (size_t i = top + 1; i-- > 0;) {
      Frame f;
      f.child = chain[i].first;
      f.file = fileOfStatement.lookup(f.child);
      f.function = f.file->places.of(f.child)->function;
      f.qualifier = g.instances[chain[i].second].qualifier + "/";
      f.instance = chain[i].second;
      f.others = others[i];
      f.depth = unsigned(i);
      f.path = enclosing(f.child);
      if (i == top) { // the setup before the outermost loop reruns
        auto loop = llvm::find_if(f.path, [](const ast::Stmt *p) {
          return isa<ast::For, ast::While>(p);
        });
        nest = *loop;
        nestFile = f.file;
        f.path.erase(f.path.begin(), loop);
      }
      if (!checkPath(f))
        return false;
      if (i > 0 && !f.file->ctx.indentAt(f.child->getRange().begin.offset)) {
        f.file->ctx.needOwnLine(f.child->getRange().begin.offset);
        return failAt(*f.file, f.child,
                      "cannot restart at the chosen hint: the call on the "
                      "way to it shares its line with another statement");
      }
      frames.push_back(std::move(f));
    }
    return true;
  }

  bool checkPath(const Frame &f) {
    for (size_t i = 0; i < f.path.size(); ++i) {
      const ast::Stmt *p = f.path[i];
      const ast::Node *child = i + 1 < f.path.size() ? f.path[i + 1] : f.child;
      auto inList = [&](ast::NodeList<ast::Stmt> body) {
        return llvm::is_contained(body, child);
      };
      if (auto *x = dyn_cast<ast::For>(p); x && !inList(x->body))
        return failAt(*f.file, child, "cannot restart at the chosen hint: it is in "
                             "the `else` of a `for` loop");
      if (auto *w = dyn_cast<ast::While>(p); w && !inList(w->body))
        return failAt(*f.file, child, "cannot restart at the chosen hint: it is in "
                             "the `else` of a `while` loop");
      if (auto *t = dyn_cast<ast::Try>(p); t && !inList(t->body))
        return failAt(*f.file, child, "cannot restart at the chosen hint: it is in an "
                             "`except`, `else` or `finally` part of a `try`");
      if (isa<ast::ClassDef, ast::Match>(p))
        return failAt(*f.file, p, "cannot restart at the chosen hint inside this "
                         "statement");
    }
    return true;
  }

  /// rootOf for a variable's canonical name, where a global of an imported
  /// module the planners edit is named after it (`@engine.steps.x`: the
  /// variable `steps` of module `engine`, not `@engine`).
  std::string varRoot(StringRef path) const {
    for (const std::unique_ptr<FilePlan> &file : files) {
      if (!file->ctx.isModule())
        continue;
      std::string prefix = "@" + file->ctx.moduleName + ".";
      if (path.starts_with(prefix))
        return prefix + rootOf(path.drop_front(prefix.size())).str();
    }
    return rootOf(path).str();
  }

  /// The file whose global `root` is (varRoot), or null for a local.
  FilePlan *globalOwner(StringRef root) const {
    if (!root.starts_with("@"))
      return nullptr;
    for (const std::unique_ptr<FilePlan> &file : files)
      if (file->ctx.isModule() &&
          root.starts_with("@" + file->ctx.moduleName + "."))
        return file.get();
    return files.front().get();
  }

  /// The name of global `root` in its own file.
  std::string globalName(StringRef root) const {
    FilePlan *owner = globalOwner(root);
    root = root.drop_front(1);
    if (owner && owner->ctx.isModule())
      root = root.drop_front(owner->ctx.moduleName.size() + 1);
    return root.str();
  }

  /// The frame whose locals `root` (a canonical name) is, or null.
  Frame *frameOf(StringRef root) {
    for (Frame &f : frames)
      if (root.starts_with(f.qualifier))
        return &f;
    return nullptr;
  }

  /// `root` as the frames' first expansion names it: a local of another
  /// expansion of a frame's function is that frame's local, a caller's
  /// variable given to a parameter of one is what the first expansion
  /// gives that parameter. Globals are everyone's.
  std::string primaryRoot(StringRef root) const {
    if (root.starts_with("@"))
      return root.str();
    for (const Frame &f : frames)
      for (unsigned other : f.others) {
        const analysis::Instance &inst = g.instances[other];
        std::string q = inst.qualifier + "/";
        if (root.starts_with(q))
          return f.qualifier + root.drop_front(q.size()).str();
        for (const auto &alias : inst.aliases) {
          if (varRoot(alias.getValue()) != root)
            continue;
          const auto &mine = g.instances[f.instance].aliases;
          auto it = mine.find(alias.getKey());
          return it != mine.end() ? varRoot(it->second)
                                  : f.qualifier + alias.getKey().str();
        }
      }
    return root.str();
  }

  /// A variable of a caller outside the path that a frame on the path
  /// receives as a parameter it never rebinds (`train(model, loader)`
  /// called from `main`): that frame and the parameter's name.
  std::optional<std::pair<Frame *, std::string>> parameterFor(StringRef root) {
    for (Frame &f : frames) {
      if (f.instance >= g.instances.size())
        continue;
      for (const auto &alias : g.instances[f.instance].aliases)
        if (varRoot(alias.getValue()) == root)
          return std::make_pair(&f, alias.getKey().str());
    }
    return std::nullopt;
  }

  // ---- What the hint saves --------------------------------------------------
  bool inNest(NodeId n) const {
    for (NodeId c = n; c != analysis::kNoNode; c = g.node(c).caller) {
      if (!g.node(c).op)
        continue;
      std::optional<ir::SourceSpan> s =
          ir::getSourceSpan(g.node(c).op->getLoc());
      if (s && s->file == nestFile->ctx.file.getName() &&
          s->stmtBegin >= nest->getRange().begin.offset &&
          s->stmtBegin < nest->getRange().end.offset)
        return true;
    }
    return false;
  }

  /// Roots (canonical names) of the variables the nest defines or updates,
  /// those it changes other than by iterating them, and those it rebinds.
  /// Whether node `n` is, or runs inside, a call `X.sampler.set_epoch(...)`.
  bool setsSamplerEpoch(NodeId n) {
    for (NodeId c = n; c != analysis::kNoNode; c = g.node(c).caller) {
      FilePlan *file = g.node(c).op ? fileOf(g.node(c).op) : nullptr;
      std::optional<Span> span =
          file ? file->ctx.spanOf(g.node(c).op) : std::nullopt;
      if (span && file->src.slice(span->exprBegin, span->exprEnd)
                      .contains(".sampler.set_epoch("))
        return true;
    }
    return false;
  }

  void collectChanged() {
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if ((node.defs.empty() && node.updates.empty()) || !inNest(n))
        continue;
      bool loopHeader = isa_and_nonnull<ir::ForOp, ir::FetchOp>(node.op);
      // A constant the restart assigns again (rerun) holds its value
      // before the loops' iterables are evaluated.
      bool rerunDef = rerun.count(statementOf(node.op)) > 0;
      // The call entering a frame on the path binds its parameters: the
      // way in makes that call again, from restored arguments (a
      // parameter rebound to its own bar, `data_loader = tqdm(
      // data_loader)`, is the callee's variable, bound there:
      // reboundBesidesEntry).
      const Frame *entered = nullptr;
      for (size_t k = 1; k < frames.size(); ++k)
        if (frames[k - 1].child && frames[k - 1].child == statementOf(node.op))
          entered = &frames[k];
      // `train_loader.sampler.set_epoch(epoch)` (SwAV's; DeiT's RASampler
      // of its own, whose method sets `self.epoch`): the epoch of a
      // loader's sampler, which re-entering the loader's loop on restart
      // sets from the saved position (the keyed loader forwards it to the
      // sampler), as iterating it advances it.
      bool samplerEpoch = setsSamplerEpoch(n);
      for (analysis::VarId v : node.defs) {
        std::string root = varRoot(g.vars.name(v));
        changed.insert(root);
        bool entryBinding =
            entered && root == g.vars.name(v) &&
            StringRef(root).starts_with(entered->qualifier) &&
            isParameter(entered->function,
                        StringRef(root).drop_front(entered->qualifier.size()));
        if (!entryBinding && !rerunDef && root == g.vars.name(v))
          reboundBesidesEntry.insert(root);
        if (rerunDef ||
            (samplerEpoch && StringRef(g.vars.name(v)).contains(".sampler.")))
          continue;

        changedOtherwise.emplace(root, n);
        changedPaths.insert(g.vars.name(v).str());
        if (!loopHeader)
          changedBesidesLoopTargets.insert(root);
        if (root == g.vars.name(v))
          rebound.insert(root);
      }
      // Iterating a loader advances it: loop positions (and a keyed
      // loader's state_dict) cover that; other changes make it state.
      auto api =
          node.op ? node.op->getAttrOfType<StringAttr>("api") : StringAttr();
      bool iterates = isa_and_nonnull<ir::ForOp, ir::FetchOp>(node.op) ||
                      (api && api.getValue().ends_with(".__iter__"));
      for (analysis::VarId v : node.updates) {
        changed.insert(varRoot(g.vars.name(v)));
        if (samplerEpoch && (StringRef(g.vars.name(v)).ends_with(".sampler") ||
                             StringRef(g.vars.name(v)).contains(".sampler.")))
          continue;
        if (!iterates) {
          changedOtherwise.emplace(varRoot(g.vars.name(v)), n);
          changedPaths.insert(g.vars.name(v).str());
          changedBesidesLoopTargets.insert(varRoot(g.vars.name(v)));
        }
      }
    }
  }

  /// Whether every draw from generator `o` is inside a per-example
  /// region (a DataLoader's examples).
  bool drawnOnlyPerExample(unsigned o) const {
    if (ctx.a.gens->objects()[o].kind == analysis::GeneratorObject::Global)
      return false;
    bool any = false;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (node.kind != analysis::NodeKind::Draw ||
          !llvm::is_contained(ctx.a.gens->drawn(n), o))
        continue;
      auto region = node.region == analysis::kNoNode
                        ? ir::ParallelOp()
                        : dyn_cast_or_null<ir::ParallelOp>(
                              g.node(node.region).op);
      if (!region || region.getKind() != ir::ParallelKind::PerExample)
        return false;
      any = true;
    }
    return any;
  }

  bool planValues() {
    Frame &hintFrame = frames.back();
    std::set<std::string> roots;
    std::set<unsigned> generators;
    for (NodeId n : hintNodes)
      for (analysis::VarId v : ctx.a.live.liveAfter(n)) {
        for (unsigned o : ctx.a.gens->pointsTo(v))
          generators.insert(o);
        std::string root = primaryRoot(varRoot(g.vars.name(v)));
        std::string shown = rootOf(g.displayName(v)).str();
        if (StringRef(shown).starts_with("$") ||
            StringRef(shown).starts_with("<") || !changed.count(root))
          continue;
        // A bar the way in builds again around the restored loader: not
        // saved (its state is the loader's position).
        if (bars.count(root))
          continue;
        // A global of another file than the hint's (the script's `model`
        // at a boundary in `engine.py`): restored through a parameter of
        // the function there that receives it, else through its module
        // (HRNet's `logger` of `dataset/coco.py`, read by the dataset).
        FilePlan *owner = globalOwner(root);
        if (owner && owner != hintFrame.file) {
          std::optional<std::pair<Frame *, std::string>> param =
              parameterFor(root);
          if (param && param->first->file == hintFrame.file)
            parameters[root] = *param;
          else
            foreignGlobals.insert(root);
        } else if (!frameOf(root) && !StringRef(root).starts_with("@")) {
          std::optional<std::pair<Frame *, std::string>> param =
              parameterFor(root);
          // A local of a function that is not running at the hint (a
          // function the loops call, a model's constructor or the factory
          // that built it) has no value there: liveness reaches it only
          // through a use before an assignment on another path (`hidden`
          // assigned under one branch and read under another), and what
          // it held lives on in the variables of the running functions.
          if (!param && StringRef(root).contains('/'))
            continue;
          // A closure's variable (`^self`: a nested function's `self`,
          // an enclosing function's) is shown by its name and said so.
          if (!param && StringRef(shown).starts_with("^"))
            return fail("'" + shown.substr(1) +
                        "' (a variable a nested function reads from the "
                        "function enclosing it) is live there and changed "
                        "by the loops, but is not a variable of a function "
                        "on the way to the hint");
          if (!param)
            return fail("'" + shown +
                        "' is live there and changed by the loops, but is "
                        "not a variable of a function on the way to the "
                        "hint");
          parameters[root] = *param;
        }
        roots.insert(root);
      }
    for (const std::string &root : roots) {
      if (foreignGlobals.count(root)) {
        addForeignGlobal(root);
        continue;
      }
      auto param = parameters.find(root);
      bool viaParam = param != parameters.end();
      bool global = StringRef(root).starts_with("@") && !viaParam;
      Frame &f = global ? hintFrame
                 : viaParam ? *param->second.first
                            : *frameOf(root);
      std::string name =
          viaParam ? param->second.second
          : global ? globalName(root)
                   : StringRef(root).rsplit('/').second.str();
      const ast::Node *def = nullptr;
      std::optional<std::string> kind =
          definitionKind(*f.file, global ? nullptr : f.function, name, def);
      // An iterator over a loader the loops take batches from with next()
      // (MixMatch's `labeled_iter = iter(labeled_loader)`, made again in
      // `except StopIteration:`): saved by its position in the loader's
      // epoch, and made again there on restart (values.py; an iterator of
      // a loader detc did not key cannot be saved, said at the failure).
      if (kind &&
          loaderIterator(*f.file, global ? nullptr : f.function, name, root))
        kind.reset();
      if (kind) {
        std::string message =
            formatv("'{0}' ({1}, line {2}) is live at the chosen hint (line "
                    "{3}) and cannot be saved",
                    name, *kind, lineOf(*f.file, def),
                    hintFile->ctx.edits.lineOf(hintSpan.stmtBegin))
                .str();
        if (f.file == nestFile && encloses(nest, def))
          return failAt(*f.file, def,
                        message + ": the loops rebuild it, so a restart "
                                  "could not resume exactly");
        // Live and changed by the loops: an iterator or generator they
        // advance (`batch = next(it)`). Reopened by the setup, a restart
        // would start it over: other batches, other weights, exit 0.
        if (StringRef(*kind).starts_with("an iterator") ||
            StringRef(*kind).starts_with("a generator"))
          return failAt(*f.file, def,
                        message + ": the loops advance it (next()), so "
                                       "a restart could not continue where "
                                       "it stood; loop over the loader with "
                                       "`for`, or take its batches with "
                                       "next() from `iter(loader)` (detc "
                                       "restores a loop's position and such "
                                       "an iterator's) instead");
        if (!quiet)
          f.file->ctx.warning(def->getRange().begin.offset,
                      message + "; a restart reopens it (the setup reruns) "
                                "without the state it had at the checkpoint "
                                "[detc-hint]");
        continue;
      }
      std::string key =
          f.depth ? formatv("{0}:{1}", f.depth, name).str() : name;
      // A loop around the hint binds it again when the restart re-enters
      // the loop at the saved item (a batch): a rank restarting from
      // another replica's checkpoint keeps its own (jit_replicas.py).
      bool loopBound = boundByLoop(f, name);
      StringRef loopFlag = loopBound ? ", loop=True" : "";
      std::string value =
          formatv("{0}.hints.value(\"{1}\", lambda: {2}{3}{4})",
                  kRuntimeAlias, key, name,
                  rebound.count(root) ? "" : ", inplace=True", loopFlag)
              .str();
      // A module variable: assigned through globals() (an assignment in a
      // function would make it local there).
      std::string restore =
          global && hintFrame.function
              ? formatv("globals()[\"{0}\"] = {1}", name, value).str()
              : name + " = " + value;
      if (f.depth == 0) {
        // A JIT boundary is the first statement of the loop's body: what
        // the loops bind there is what their re-entry binds on restart,
        // so the boundary need not read it (it runs every minibatch).
        addValue(key, name, restore, /*restoreOnly=*/jit && loopBound);
        continue;
      }
      keys.push_back(key);
      f.saved.push_back(name);
      f.restoreLines.push_back(formatv("if {0}.hints.has_value(\"{1}\"): {2}",
                                       kRuntimeAlias, key, restore)
                                   .str());
    }
    for (unsigned o : generators) {
      const analysis::GeneratorObject &obj = ctx.a.gens->objects()[o];
      std::string handle = ctx.generatorHandle(
          o, hintFrame.qualifier, hintFrame.file->ctx.moduleName);
      // A generator drawn from only in a loader's examples (a dataset's
      // own `self.rng`, its dataset made in the loop's header so that no
      // variable at the hint holds it): the keyed loader reseeds it for
      // each example and puts its state back after, so the run never
      // advances it and a restart needs none of it.
      if (handle.empty() && drawnOnlyPerExample(o))
        continue;
      if (handle.empty())
        return fail("the state of generator " + obj.describe(g) +
                    " is live there but no variable at the hint holds it");
      std::string key = "gen:" + StringRef(handle).trim('"').str();
      if (jit && !drawnInNestChangingState(o))
        liveAtFailure.push_back(key);
      addValue(key,
               formatv("{0}.generator_state({1})", kRuntimeAlias, handle).str(),
               formatv("{0}.hints.restore_generator(\"{1}\", {2})",
                       kRuntimeAlias, key, handle)
                   .str());
    }
    return true;
  }

  /// Saves and restores global `root` of another file than the hint's
  /// through its module object (`sys.modules["dataset.coco"].logger`; the
  /// script's is `__main__`), in place when the loops never rebind it.
  void addForeignGlobal(StringRef root) {
    FilePlan *owner = globalOwner(root);
    std::string module =
        owner->ctx.isModule() ? owner->ctx.moduleName : "__main__";
    std::string name = globalName(root);
    std::string object =
        formatv("__import__(\"sys\").modules[\"{0}\"]", module).str();
    std::string key = "@" + module + "." + name;
    std::string value =
        formatv("{0}.hints.value(\"{1}\", lambda: {2}.{3}{4})", kRuntimeAlias,
                key, object, name, rebound.count(root.str()) ? "" : ", inplace=True")
            .str();
    addValue(key, object + "." + name,
             formatv("setattr({0}, \"{1}\", {2})", object, name, value).str());
  }

  /// Whether a draw in the loop nest (in the script or a function it
  /// calls) advances generator object `o`: one the determinism planner did
  /// not key (a draw outside any parallel region, one left
  /// nondeterministic, one a batch scope reseeds around).
  bool drawnInNestChangingState(unsigned o) const {
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (node.kind != analysis::NodeKind::Draw ||
          !llvm::is_contained(ctx.a.gens->drawn(n), o) || !inNest(n))
        continue;
      if (!node.op || !ctx.stateKeepingDraws.contains(node.op))
        return true;
    }
    return false;
  }

  /// Whether a `for` on `frame`'s path to the hint binds `name`.
  static bool boundByLoop(const Frame &frame, StringRef name) {
    SmallVector<StringRef, 4> bound;
    for (const ast::Stmt *s : frame.path)
      if (auto *loop = dyn_cast<ast::For>(s))
        ast::appendBoundNames(loop->target, bound);
    return llvm::is_contained(bound, name);
  }

  /// `restoreOnly`: the hint does not save it (the restore line stays for
  /// checkpoints that have it).
  void addValue(StringRef key, StringRef thunk, StringRef restore,
                bool restoreOnly = false) {
    keys.push_back(key.str());
    if (!restoreOnly)
      values += formatv("{0}\"{1}\": lambda: {2}",
                        values.empty() ? "" : ", ", key, thunk)
                    .str();
    restoreLines.push_back(formatv("if {0}.hints.has_value(\"{1}\"): {2}",
                                   kRuntimeAlias, key, restore)
                               .str());
  }

  /// Calls `fn(value, statement)` for each assignment of `name` in
  /// `function` (null: the module) by a statement that names it alone as
  /// a target (`x = v`, `x: T = v`, `with v as x`).
  void forEachDefinition(
      const FilePlan &file, const ast::FunctionDef *function, StringRef name,
      llvm::function_ref<void(const ast::Expr *, const ast::Node *)> fn) {
    auto check = [&](const ast::Expr *target, const ast::Expr *value,
                     const ast::Node *at) {
      auto *n = dyn_cast_or_null<ast::Name>(target);
      if (n && n->id == name)
        fn(value, at);
    };
    for (const ast::Stmt *s : file.places.statementsIn(function)) {
      if (auto *a = dyn_cast<ast::Assign>(s))
        for (const ast::Expr *t : a->targets)
          check(t, a->value, s);
      else if (auto *a = dyn_cast<ast::AnnAssign>(s))
        check(a->target, a->value, s);
      else if (auto *w = dyn_cast<ast::With>(s))
        for (const ast::WithItem *item : w->items)
          check(item->optionalVars, item->contextExpr, s);
    }
  }

  /// What `name` is when one of its definitions in `function` (null: the
  /// module) builds something that cannot be saved (`def` set to it).
  std::optional<std::string> definitionKind(const FilePlan &file,
                                            const ast::FunctionDef *function,
                                            StringRef name,
                                            const ast::Node *&def) {
    std::optional<std::string> found;
    forEachDefinition(
        file, function, name, [&](const ast::Expr *value, const ast::Node *at) {
          if (!found && (found = unsaveableKind(value, file.src, file.places)))
            def = at;
        });
    return found;
  }

  /// Whether `name` (variable `root`) holds an iterator the loops fetch
  /// batches from (a FetchOp of the nest advances it: the analysis took
  /// it for a loader's) and every definition of it is `iter(x)`.
  bool loaderIterator(const FilePlan &file, const ast::FunctionDef *function,
                      StringRef name, StringRef root) {
    bool allIter = true, any = false;
    forEachDefinition(file, function, name,
                      [&](const ast::Expr *value, const ast::Node *) {
                        auto *call = dyn_cast_or_null<ast::Call>(value);
                        any = true;
                        allIter &= call && call->args.size() == 1 &&
                                   call->keywords.empty() &&
                                   (text(file, call->func) == "iter" ||
                                    repeatsLoader(moduleFunction(
                                        file, text(file, call->func))));
                      });
    if (!any || !allIter)
      return false;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (!isa_and_nonnull<ir::FetchOp>(node.op) || !inNest(n))
        continue;
      for (analysis::VarId v : node.updates)
        if (primaryRoot(varRoot(g.vars.name(v))) == root)
          return true;
    }
    return false;
  }

  /// The function `name` that `file`'s module defines at its top level.
  static const ast::FunctionDef *moduleFunction(const FilePlan &file,
                                                StringRef name) {
    const ast::FunctionDef *found = nullptr;
    for (const ast::Stmt *s : file.ctx.tree.body)
      if (auto *fn = dyn_cast<ast::FunctionDef>(s); fn && fn->name == name)
        found = fn; // the last definition is the one called
    return found;
  }

  /// A generator function whose only state is where a loader's iteration
  /// stands (`def sample_data(loader): while True: for batch in loader:
  /// yield batch`, rosinality's stylegan2 and many GANs; also without the
  /// `while True`, or with `yield from loader`): a restart makes it again
  /// and the runtime starts its loader's iteration where it stood
  /// (values.py, `loader_generator`; it checks the function's shape too).
  static bool repeatsLoader(const ast::FunctionDef *fn) {
    if (!fn || fn->isAsync || !fn->decoratorList.empty() || !fn->args ||
        fn->args->args.size() != 1 || !fn->args->posonlyargs.empty() ||
        fn->args->vararg || fn->args->kwarg ||
        !fn->args->kwonlyargs.empty())
      return false;
    StringRef param = fn->args->args[0]->arg;
    llvm::ArrayRef<ast::Stmt *> body(fn->body.begin(), fn->body.end());
    if (body.size() == 2)
      if (auto *doc = dyn_cast<ast::ExprStmt>(body[0]))
        if (auto *c = dyn_cast_or_null<ast::Constant>(doc->value);
            c && c->kind == ast::ConstantKind::Str)
          body = body.drop_front();
    if (body.size() != 1)
      return false;
    if (auto *w = dyn_cast<ast::While>(body[0])) {
      auto *test = dyn_cast_or_null<ast::Constant>(w->test);
      if (!test || test->kind != ast::ConstantKind::True || !w->orelse.empty())
        return false;
      body = llvm::ArrayRef<ast::Stmt *>(w->body.begin(), w->body.end());
      if (body.size() != 1)
        return false;
    }
    auto isName = [](const ast::Expr *e, StringRef id) {
      auto *n = dyn_cast_or_null<ast::Name>(e);
      return n && n->id == id;
    };
    if (auto *e = dyn_cast<ast::ExprStmt>(body[0])) {
      auto *from = dyn_cast_or_null<ast::YieldFrom>(e->value);
      return from && isName(from->value, param);
    }
    auto *loop = dyn_cast<ast::For>(body[0]);
    auto *target = loop ? dyn_cast_or_null<ast::Name>(loop->target) : nullptr;
    if (!target || loop->isAsync || !loop->orelse.empty() ||
        !isName(loop->iter, param) || loop->body.size() != 1)
      return false;
    auto *e = dyn_cast<ast::ExprStmt>(loop->body[0]);
    auto *yield = e ? dyn_cast_or_null<ast::Yield>(e->value) : nullptr;
    return yield && isName(yield->value, target->id);
  }

  /// A `for` on the path re-evaluates its iterable on restart, before the
  /// hint restores anything: it must not read what the nest changes
  /// (unless it is a `range`, whose bounds the position keeps).
  bool checkIterables() {
    // The targets of the loops around a loop on the path are bound again
    // when the restart re-enters them, before its iterable is evaluated
    // (VICReg's `for epoch in ...: for step, b in enumerate(loader,
    // start=epoch * len(loader))`).
    std::set<std::string> reentered;
    for (const Frame &frame : frames)
      for (const ast::Stmt *p : frame.path) {
        if (!checkIterable(p, frame, reentered))
          return false;
        if (auto *f = dyn_cast<ast::For>(p)) {
          llvm::SmallVector<StringRef, 4> bound;
          ast::appendBoundNames(f->target, bound);
          for (StringRef name : bound)
            reentered.insert(canonical(frame, name));
        }
      }
    return true;
  }

  /// Whether the nest changes `path` (a canonical attribute path) other
  /// than by iterating it: the path itself, an object on the way to it
  /// (`self` rebound), or a part of what it holds.
  bool changesPath(StringRef path) const {
    for (const std::string &p : changedPaths) {
      StringRef changedPath = p;
      if (changedPath == path ||
          (path.starts_with(changedPath) && path[changedPath.size()] == '.') ||
          (changedPath.starts_with(path) &&
           changedPath[path.size()] == '.'))
        return true;
    }
    return false;
  }

  /// The canonical name of `name` in `frame` (a parameter the function
  /// never rebinds is its caller's variable).
  std::string canonical(const Frame &frame, StringRef name) const {
    const analysis::Instance &inst = g.instances[frame.instance];
    auto alias = inst.aliases.find(name);
    return alias != inst.aliases.end() ? alias->second
                                       : frame.qualifier + name.str();
  }

  /// Whether `name` is a parameter of `fn`.
  static bool isParameter(const ast::FunctionDef *fn, StringRef name) {
    if (!fn || !fn->args)
      return false;
    const ast::Arguments &a = *fn->args;
    auto named = [&](const ast::Arg *arg) { return arg && arg->arg == name; };
    return llvm::any_of(a.posonlyargs, named) || llvm::any_of(a.args, named) ||
           llvm::any_of(a.kwonlyargs, named) || named(a.vararg) ||
           named(a.kwarg);
  }

  bool checkIterable(const ast::Stmt *p, const Frame &frame,
                     const std::set<std::string> &reentered) {
    {
      auto *f = dyn_cast<ast::For>(p);
      if (!f)
        return true;
      // A range's bounds are saved with the loop's position.
      if (auto *c = dyn_cast<ast::Call>(f->iter);
          c && text(*frame.file, c->func) == "range")
        return true;
      std::optional<std::string> bad;
      std::string badVar; // its canonical root
      std::function<void(const ast::Node *)> scan = [&](const ast::Node *n) {
        // A generator passing the loader's items through (`metric_logger.
        // log_every(data_loader, ...)`): which items come depends on the
        // loader alone; its logger only prints.
        if (auto *c = dyn_cast<ast::Call>(n)) {
          const ast::Expr *items = nullptr;
          if (passThrough(*frame.file, c, items)) {
            scan(items);
            return;
          }
          // A method may read anything its receiver holds.
          if (auto *method = dyn_cast<ast::Attribute>(c->func)) {
            scan(method->value);
            for (const ast::Expr *arg : c->args)
              if (!bad)
                scan(arg);
            for (const ast::Keyword *kw : c->keywords)
              if (!bad)
                scan(kw->value);
            return;
          }
        }
        // An attribute path (`self.train_data`, the DDP tutorial's
        // Trainer): what the nest changes through the same root elsewhere
        // (`self.model`, `self.optimizer`) is not what the loop iterates.
        if (auto *path = dyn_cast<ast::Attribute>(n)) {
          llvm::SmallVector<StringRef, 4> attrs;
          const ast::Expr *base = path;
          while (auto *a = dyn_cast<ast::Attribute>(base)) {
            attrs.push_back(a->attr);
            base = a->value;
          }
          if (auto *name = dyn_cast<ast::Name>(base)) {
            std::string var = canonical(frame, name->id);
            std::string full = var;
            for (StringRef attr : llvm::reverse(attrs))
              full += "." + attr.str();
            if (changedOtherwise.count(var) &&
                (!reentered.count(var) ||
                 changedBesidesLoopTargets.count(var)) &&
                changesPath(full)) {
              bad = text(*frame.file, path).str();
              badVar = var;
            }
            return;
          }
        }
        if (auto *name = dyn_cast<ast::Name>(n)) {
          // A progress bar the way in builds again (`train_bar =
          // tqdm(train_loader)` before the loop, collectRerun): a restart
          // iterates a new one over the loader, whatever the loops did to
          // the old one (`train_bar.desc = ...`, WZMIAOMIAO's scripts):
          // what the loop reads is the loader.
          if (auto it = bars.find(canonical(frame, name->id));
              it != bars.end()) {
            auto *wrapped = dyn_cast<ast::Name>(it->second->args[0]);
            if (!wrapped || wrapped->id != name->id) {
              scan(it->second->args[0]);
              return;
            }
            // A parameter rebound to its own bar (`data_loader =
            // tqdm(data_loader)`): the bar wraps what the call on the way
            // in binds again; what the loops change through the name is
            // the old bar, unless they bind the name anew.
            if (isParameter(frame.function, name->id) &&
                !reboundBesidesEntry.count(canonical(frame, name->id)))
              return;
          }
          std::string var = canonical(frame, name->id);
          if (changedOtherwise.count(var) &&
              (!reentered.count(var) || changedBesidesLoopTargets.count(var))) {
            bad = name->id.str();
            badVar = var;
          }
        }
        ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
          if (c && !bad)
            scan(c);
        });
      };
      scan(f->iter);
      if (bad) {
        // Where: what detc saw changing it (a call it cannot see into may
        // be the reason, which the user can judge).
        std::string where;
        if (auto it = changedOtherwise.find(badVar);
            it != changedOtherwise.end())
          if (Operation *op = g.node(it->second).op)
            if (std::optional<ir::SourceSpan> at =
                    ir::getSourceSpan(op->getLoc()))
              where = formatv(" (at {0}:{1})",
                              llvm::sys::path::filename(at->file.getValue()),
                              at->line)
                          .str();
        return failAt(*frame.file, f->iter,
                      formatv("cannot restart at the chosen hint: the loop "
                              "at line {0} iterates over '{1}', which the "
                              "loops change{2}, and a restart evaluates it "
                              "before restoring anything",
                              lineOf(*frame.file, f), *bad, where)
                          .str());
      }
    }
    return true;
  }

  // ---- The way in -----------------------------------------------------------
  void planEntry() {
    std::string entering =
        formatv("{0}.hints.entering({1})", kRuntimeAlias, site).str();
    // The loops and tests on the path: loops re-entered at their saved
    // positions, tests taken without evaluation.
    unsigned level = 0;
    for (const Frame &frame : frames) {
      const std::vector<const ast::Stmt *> &path = frame.path;
      GuardWriter &guards = *frame.file->guards;
      for (size_t i = 0; i < path.size(); ++i) {
        const ast::Stmt *p = path[i];
        const ast::Stmt *child =
            i + 1 < path.size() ? path[i + 1] : frame.child;
        if (auto *f = dyn_cast<ast::For>(p)) {
          wrapLoop(frame, f, level++);
        } else if (auto *w = dyn_cast<ast::While>(p)) {
          guards.wrapLater(w->test, entering + " or (", ")",
                            "entered on restart at the hint");
        } else if (auto *x = dyn_cast<ast::If>(p)) {
          bool inBody = llvm::is_contained(x->body, child);
          guards.wrapLater(x->test,
                            inBody ? entering + " or ("
                                   : "not " + entering + " and (",
                            ")", "entered on restart at the hint");
        }
      }
    }
    // The statements before the path in each body are skipped (in the
    // outer functions, those before the call on the way; an inner
    // function's from its first statement), but for constants (rerun).
    forEachSkippedBody([&](const Frame &frame, ast::NodeList<ast::Stmt> body,
                           const ast::Stmt *child) {
      for (const ast::Stmt *s : body) {
        if (s == child)
          break;
        if (!rerun.count(s))
          frame.file->guards->skipWhole(s);
      }
    });
  }

  /// The bodies on the way in whose statements before the path a restart
  /// skips, each with the path's statement in it (the outermost frame's
  /// setup reruns).
  template <typename Fn> void forEachSkippedBody(Fn fn) const {
    for (const Frame &frame : frames) {
      const std::vector<const ast::Stmt *> &path = frame.path;
      for (size_t i = 0; i <= path.size(); ++i) {
        const ast::Stmt *child = i < path.size() ? path[i] : frame.child;
        if (i == 0) {
          if (&frame == &frames.front() || !frame.function)
            continue;
          fn(frame, frame.function->body, child);
          continue;
        }
        const ast::Stmt *p = path[i - 1];
        if (auto *f = dyn_cast<ast::For>(p))
          fn(frame, f->body, child);
        else if (auto *w = dyn_cast<ast::While>(p))
          fn(frame, w->body, child);
        else if (auto *x = dyn_cast<ast::If>(p))
          fn(frame, llvm::is_contained(x->body, child) ? x->body : x->orelse,
             child);
        else if (auto *x = dyn_cast<ast::With>(p))
          fn(frame, x->body, child);
        else if (auto *x = dyn_cast<ast::Try>(p))
          fn(frame, x->body, child);
      }
    }
  }

  /// The statements on the way in that bind names to constants
  /// (`desc = '  - (Training)   '` before `for batch in tqdm(data,
  /// desc=desc)`, attention-is-all-you-need's): a restart runs them again
  /// instead of skipping them, so a loop's iterable may read them (a
  /// value also live at the hint is restored there, after them).
  void collectRerun() {
    // Only those the loops' iterables read: any other is skipped as before.
    llvm::StringSet<> read;
    std::function<void(const ast::Node *)> names = [&](const ast::Node *n) {
      if (auto *name = dyn_cast<ast::Name>(n))
        read.insert(name->id);
      ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
        if (c)
          names(c);
      });
    };
    for (const Frame &frame : frames)
      for (const ast::Stmt *p : frame.path)
        if (auto *f = dyn_cast<ast::For>(p))
          names(f->iter);
    forEachSkippedBody([&](const Frame &frame, ast::NodeList<ast::Stmt> body,
                           const ast::Stmt *child) {
      const FilePlan &file = *frame.file;
      for (const ast::Stmt *s : body) {
        if (s == child)
          break;
        llvm::SmallVector<StringRef, 4> bound;
        if (assignsConstant(s) || wrapsInBar(file, s) ||
            buildsQuietly(file, s))
          for (const ast::Expr *t : cast<ast::Assign>(s)->targets)
            ast::appendBoundNames(t, bound);
        if (llvm::any_of(bound,
                         [&](StringRef b) { return read.contains(b); })) {
          rerun.insert(s);
          if (wrapsInBar(file, s))
            for (StringRef b : bound)
              bars[canonical(frame, b)] =
                  cast<ast::Call>(cast<ast::Assign>(s)->value);
        }
      }
    });
  }

  static bool isConstant(const ast::Expr *e) {
    if (isa_and_nonnull<ast::Constant>(e))
      return true;
    if (auto *u = dyn_cast_or_null<ast::UnaryOp>(e))
      return isConstant(u->operand);
    if (auto *t = dyn_cast_or_null<ast::Tuple>(e))
      return llvm::all_of(t->elts, isConstant);
    return false;
  }
  static bool namesOnly(const ast::Expr *e) {
    if (isa<ast::Name>(e))
      return true;
    auto *t = dyn_cast<ast::Tuple>(e);
    return t && llvm::all_of(t->elts, namesOnly);
  }
  /// `bar = tqdm(loader, ...)` each time round the loops (ViT-pytorch's
  /// `epoch_iterator`): a progress bar over an iterable the loops go
  /// through, built again on the way in (it cannot be saved, and what it
  /// yields is the loader's, whose position the restart restores).
  static bool wrapsInBar(const FilePlan &file, const ast::Stmt *s) {
    auto *a = dyn_cast<ast::Assign>(s);
    const ast::Call *c = a ? barCall(file, a->value) : nullptr;
    return c && isa<ast::Name>(c->args[0]) &&
           llvm::all_of(a->targets, [](const ast::Expr *t) {
             return isa<ast::Name>(t);
           });
  }

  /// `e` when it is a progress bar's call over a plain first argument
  /// (`tqdm(loader, ...)`), else null.
  static const ast::Call *barCall(const FilePlan &file, const ast::Expr *e) {
    auto *c = dyn_cast_or_null<ast::Call>(e);
    return c && text(file, c->func).ends_with("tqdm") && !c->args.empty() &&
                   !isa<ast::Starred>(c->args[0])
               ? c
               : nullptr;
  }

  static bool assignsConstant(const ast::Stmt *s) {
    auto *a = dyn_cast<ast::Assign>(s);
    return a && isConstant(a->value) && llvm::all_of(a->targets, namesOnly);
  }

  /// The call op lowered from `c` in `file`.
  ir::CallOp callOpOf(const FilePlan &file, const ast::Call *c) const {
    ir::CallOp found;
    ctx.module.walk([&](ir::CallOp op) {
      std::optional<Span> s = file.ctx.spanOf(op);
      if (s && s->exprBegin == c->getRange().begin.offset &&
          s->exprEnd == c->getRange().end.offset)
        found = op;
    });
    return found;
  }

  /// `e` when it calls a generator function of the program that yields
  /// each item of one argument once, in order, whatever else it does
  /// (DeiT's, DETR's and MAE's `metric_logger.log_every(data_loader,
  /// print_freq, header)`: GeneratorShapes.h); that argument (a loader,
  /// whose position a restart restores) in `items`.
  const ast::Call *passThrough(FilePlan &file, const ast::Expr *e,
                               const ast::Expr *&items) {
    auto *c = dyn_cast_or_null<ast::Call>(e);
    ir::CallOp call = c ? callOpOf(file, c) : ir::CallOp();
    auto fn = call ? dyn_cast_or_null<ir::FuncOp>(
                         ctx.module.lookupSymbol(call.getCallee()))
                   : ir::FuncOp();
    FilePlan *in = fn ? fileOf(fn) : nullptr;
    std::optional<Span> span = in ? in->ctx.spanOf(fn) : std::nullopt;
    const StmtPlace *at = span ? in->places.at(span->stmtBegin) : nullptr;
    auto *def = at ? dyn_cast<ast::FunctionDef>(at->stmt) : nullptr;
    if (!def)
      return nullptr;
    std::optional<StringRef> param = passedThroughParameter(*def);
    if (!param)
      return nullptr;
    // The argument the parameter receives.
    std::vector<StringRef> params;
    for (const ast::Arg *a : def->args->args)
      params.push_back(a->arg);
    size_t position = llvm::find(params, *param) - params.begin();
    if (call.getBind() && call.getBind()->get("self") && position > 0)
      --position; // a method: `self` is the receiver
    for (const ast::Keyword *k : c->keywords)
      if (k->arg == *param)
        items = k->value;
    if (!items && position < c->args.size() &&
        !llvm::any_of(llvm::ArrayRef(c->args).take_front(position + 1),
                      [](const ast::Expr *a) { return isa<ast::Starred>(a); }))
      items = c->args[position];
    return items ? c : nullptr;
  }

  /// `s` assigns names a value whose rerun on a restart gives what the
  /// skipped statement gave (header strings, a logger the loop's iterable
  /// calls): a string formatted from names, or an instance of a class of
  /// the program, drawing nothing.
  bool buildsQuietly(const FilePlan &file, const ast::Stmt *s) {
    auto *a = dyn_cast<ast::Assign>(s);
    if (!a || !llvm::all_of(a->targets, namesOnly))
      return false;
    bool fits = isa<ast::JoinedStr>(a->value);
    if (auto *c = dyn_cast<ast::Call>(a->value)) {
      auto *attr = dyn_cast<ast::Attribute>(c->func);
      auto *str = attr ? dyn_cast<ast::Constant>(attr->value) : nullptr;
      fits |= str && str->kind == ast::ConstantKind::Str &&
              attr->attr == "format";
      if (ir::CallOp op = callOpOf(file, c))
        fits |= op.getCallee().getLeafReference() == "__init__";
    }
    if (!fits)
      return false;
    // Nothing under it draws.
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      if (g.node(n).kind != analysis::NodeKind::Draw)
        continue;
      for (NodeId c = n; c != analysis::kNoNode; c = g.node(c).caller) {
        std::optional<Span> at =
            g.node(c).op ? file.ctx.spanOf(g.node(c).op) : std::nullopt;
        if (at && at->stmtBegin >= s->getRange().begin.offset &&
            at->stmtBegin < s->getRange().end.offset)
          return false;
      }
    }
    return true;
  }

  void wrapLoop(const Frame &frame, const ast::For *f, unsigned level) {
    FilePlan &file = *frame.file;
    GuardWriter &guards = *file.guards;
    std::string loop =
        formatv("{0}.hints.loop({1}, {2}, ", kRuntimeAlias, site, level).str();
    std::string note = formatv("loop level {0} of hint site {1}", level, site);
    if (const ast::Call *bar = barCall(file, f->iter)) {
      guards.wrapLater(bar->args[0], loop, ")", note);
      return;
    }
    // `metric_logger.log_every(data_loader, ...)`: the level goes around
    // the loader it passes through.
    if (const ast::Expr *items = nullptr; passThrough(file, f->iter, items)) {
      guards.wrapLater(barInput(frame, items), loop, ")", note);
      return;
    }
    auto *c = dyn_cast<ast::Call>(f->iter);
    if (c && text(file, c->func) == "enumerate" && !c->args.empty() &&
        !isa<ast::Starred>(c->args[0])) {
      // enumerate's count restarts too: its start moves to the saved item.
      std::string start =
          formatv("{0}.hints.start({1}, {2}, ", kRuntimeAlias, site, level)
              .str();
      const ast::Expr *first = c->args.size() > 1 ? c->args[1] : nullptr;
      for (const ast::Keyword *k : c->keywords)
        if (k->arg == "start")
          first = k->value;
      if (first)
        guards.wrapLater(first, start, ")", note);
      else // from enumerate's `(`: outside every wrap of the argument
        guards.wrapLater(c->func->getRange().end.offset,
                          c->args[0]->getRange().end.offset, "",
                          ", " + start + "0)", note);
      // `enumerate(tqdm(loader))`: the level goes around the loader, so
      // a restart finds the keyed loader (its epoch, its position).
      const ast::Expr *inner = c->args[0];
      for (const ast::Expr *items = nullptr;; items = nullptr) {
        if (const ast::Call *w = barCall(file, inner))
          inner = w->args[0];
        else if (passThrough(file, inner, items))
          inner = items;
        else
          break;
      }
      guards.wrapLater(barInput(frame, inner), loop, ")", note);
      return;
    }
    guards.wrapLater(barInput(frame, f->iter), loop, ")", note);
  }

  /// The loader a bar the loops build again wraps (`epoch_iterator =
  /// tqdm(train_loader)`, then `for step, b in enumerate(epoch_iterator)`):
  /// the level goes around it, in the bar's construction, so that a
  /// restart finds the keyed loader; `e` itself otherwise.
  const ast::Expr *barInput(const Frame &frame, const ast::Expr *e) const {
    auto *n = dyn_cast<ast::Name>(e);
    auto it = n ? bars.find(canonical(frame, n->id)) : bars.end();
    return it == bars.end() ? e : it->second->args[0];
  }

  // ---- The hint -------------------------------------------------------------
  void instrumentHint() {
    PlanContext &hc = hintFile->ctx;
    StringRef src = hintFile->src;
    std::optional<uint32_t> end =
        calleeEnd(src, hintSpan.exprBegin, hintSpan.exprEnd);
    std::string outer;
    for (const Frame &f : frames) {
      if (f.saved.empty())
        continue;
      std::string names;
      for (const std::string &n : f.saved)
        names += "\"" + n + "\", ";
      outer +=
          formatv("{0}{1}: ({2})", outer.empty() ? "" : ", ", f.depth, names)
              .str();
    }
    if (jit) {
      // The callee's name becomes a string: the boundary calls nothing of
      // the script's (which need not define `_checkpoint`).
      hc.edits.wrap(hintSpan.exprBegin, *end,
                     formatv("{0}.jit.boundary({1}, {{{2}}, {3}{4}name=\"",
                             kRuntimeAlias, site, values,
                             outer.empty() ? "" : "outer={" + outer + "}, ",
                             liveArgument()),
                     "\")");
      hc.edits.note(
          hc.edits.lineOf(commentableLineEnd(src, hintSpan.stmtBegin, *end)),
          formatv("minibatch boundary: a just-in-time checkpoint on a "
                  "failure (hint site {0})",
                  site)
              .str());
    } else {
      hc.edits.wrap(hintSpan.exprBegin, *end,
                     formatv("{0}.hints.hint({1}, {2}, {{{3}}, ",
                             kRuntimeAlias, site, period, values),
                     outer.empty() ? ")" : ", outer={" + outer + "})");
      hc.edits.note(
          hc.edits.lineOf(commentableLineEnd(src, hintSpan.stmtBegin, *end)),
          formatv("checkpoint every {0} arrivals (hint site {1})", period,
                  site)
              .str());
    }
    StringRef indent = *hc.indentAt(hintSpan.stmtBegin);
    std::string inner = indent.str() + (indent.contains('\t') ? "\t" : "    ");
    std::vector<std::string> lines;
    lines.push_back(formatv("{0}if {1}.hints.restoring({2}):", indent,
                            kRuntimeAlias, site));
    for (const std::string &r : restoreLines)
      lines.push_back(inner + r);
    lines.push_back(formatv("{0}{1}.hints.resumed()", inner, kRuntimeAlias));
    hc.edits.insertLines(hc.edits.lineOf(hintSpan.stmtEnd - 1) + 1, lines,
                          formatv("restart here (hint site {0})", site).str());
    // An outer function's values, restored on the way in, before its call
    // (what the call reads; what it changes in place is restored again at
    // the hint's time by the same values).
    for (const Frame &f : frames) {
      if (f.restoreLines.empty())
        continue;
      PlanContext &fc = f.file->ctx;
      StringRef indent = *fc.indentAt(f.child->getRange().begin.offset);
      std::string in = indent.str() + (indent.contains('\t') ? "\t" : "    ");
      std::vector<std::string> block{formatv(
          "{0}if {1}.hints.entering({2}):", indent, kRuntimeAlias, site)};
      for (const std::string &r : f.restoreLines)
        block.push_back(in + r);
      fc.edits.insertLines(
          fc.edits.lineOf(f.child->getRange().begin.offset), block,
          formatv("restart: values of this function (hint site {0})", site)
              .str());
    }
  }

  PlanContext &ctx; ///< The script's.
  const analysis::StatementGraph &g;
  /// The files the frames are in, the script's first (fileOf).
  std::vector<std::unique_ptr<FilePlan>> files;
  llvm::DenseMap<const ast::Stmt *, FilePlan *> fileOfStatement;
  FilePlan *hintFile = nullptr, *nestFile = nullptr;
  Operation *hintOp = nullptr;
  uint64_t period = 0;
  bool quiet = false;
  bool jit = false;
  std::vector<std::string> keys;
  /// Caller variables the hint saves through a parameter (parameterFor).
  std::map<std::string, std::pair<Frame *, std::string>> parameters;
  Span hintSpan{};
  const ast::Stmt *hintStmt = nullptr;
  std::vector<NodeId> hintNodes;
  /// JIT: generator states the boundary does not copy (no draw in the nest
  /// changes them); a failure's checkpoint reads them as they are then.
  std::vector<std::string> liveAtFailure;

  /// `live=("gen:torch", ), ` for the boundary call, or nothing.
  std::string liveArgument() const {
    if (liveAtFailure.empty())
      return "";
    std::string names;
    for (const std::string &key : liveAtFailure)
      names += "\"" + key + "\", ";
    return "live=(" + names + "), ";
  }
  std::vector<Frame> frames; ///< Outermost first; the hint's is last.
  const ast::Stmt *nest = nullptr;
  unsigned site = 0;
  std::set<const ast::Stmt *> rerun;
  /// The bars built again on the way in, by the variables they are bound
  /// to (canonical: `main::pbar` and `train::pbar` are two bars).
  llvm::StringMap<const ast::Call *> bars;
  /// Roots the nest binds anew other than by the call entering their frame
  /// (a parameter's binding) or a statement the restart runs again.
  std::set<std::string> reboundBesidesEntry;
  std::set<std::string> changed, rebound;
  /// Roots the nest changes other than by iterating them, each with the
  /// first statement found changing it (named in a refusal, so the user
  /// sees what detc saw).
  std::map<std::string, NodeId> changedOtherwise;
  /// Live globals of another file than the hint's that no parameter there
  /// receives (addForeignGlobal).
  std::set<std::string> foreignGlobals;
  /// Changed by the nest other than as a loop's target.
  std::set<std::string> changedBesidesLoopTargets;
  /// The full canonical names (attribute paths) behind changedOtherwise.
  std::set<std::string> changedPaths;
  std::string values;
  std::vector<std::string> restoreLines;
};

} // namespace

bool planHints(PlanContext &ctx) {
  if (!ctx.options.hint)
    return true;
  return HintPlanner(ctx, ctx.options.hint->hint, ctx.options.hint->period,
                     /*quiet=*/false, ctx.options.hint->jit)
      .run();
}

std::map<unsigned, std::vector<std::string>> hintSaveTable(PlanContext &ctx) {
  std::map<unsigned, std::vector<std::string>> table;
  ctx.module.walk([&](ir::HintOp op) {
    std::optional<Span> s = ctx.spanOf(op);
    if (!s)
      return;
    if (std::optional<std::vector<std::string>> keys =
            HintPlanner(ctx, op, 0, /*quiet=*/true).keysToSave())
      table[ctx.edits.lineOf(s->exprBegin)] = std::move(*keys);
  });
  return table;
}

} // namespace detc::codegen
