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
//  * in the loops around it (and in the functions only they call), every
//    statement fast-forward does not re-execute is guarded: a simple
//    statement becomes `if _detc_rt.guard(): stmt` on its own line, a
//    compound one skipped as a whole gets its header guarded (`if`/`while`
//    tests and `for` iterables), so that its `else` parts are skipped too;
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

#include "GuardWriter.h"
#include "PlanContext.h"
#include "StatementIndex.h"
#include "detc/codegen/PythonScan.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {
namespace {

using analysis::NodeId;

/// One checkpoint site that will be instrumented.
struct SitePlan {
  const analysis::CheckpointReplay *cp;
  unsigned site;
  Span span;
  const ast::Call *call;
  /// Outermost loop around it in its function (null: none).
  const ast::Stmt *nest;
  std::string values;               ///< `{"name": lambda: name, ...}` or empty.
  std::vector<std::string> restore; ///< Statements, without indentation.
};

bool isLoop(const ast::Stmt *s) { return isa<ast::For, ast::While>(s); }

class ReplayPlanner {
public:
  explicit ReplayPlanner(PlanContext &ctx)
      : ctx(ctx), g(ctx.a.graph), src(ctx.src), places(ctx.tree),
        guards(ctx, {formatv("{0}.guard()", kRuntimeAlias).str(),
                     formatv("{0}.guard() and (", kRuntimeAlias).str(),
                     formatv("{0}.skippable(", kRuntimeAlias).str(),
                     "skipped in fast-forward"}) {}

  void run() {
    indexOps();
    for (const analysis::CheckpointReplay &cp : ctx.a.replay.checkpoints)
      if (std::optional<SitePlan> p = planSite(cp))
        sites.push_back(std::move(*p));
    if (sites.empty())
      return;
    collectMustRun();
    for (const ast::Stmt *root : nestRoots())
      visit(root);
    guardCallees();
    if (!guards.getProblems().empty()) {
      for (auto &[offset, message] : guards.getProblems())
        ctx.warning(offset, "detc writes no checkpoint sidecars for this "
                            "script: " +
                                message + " [detc-replay]");
      return;
    }
    for (SitePlan &p : sites)
      instrumentSite(p);
    guards.apply();
  }

private:
  // ---- Indexes --------------------------------------------------------------
  void indexOps() {
    ctx.module.walk([&](Operation *op) {
      if (std::optional<Span> s = ctx.spanOf(op))
        opsAt[s->stmtBegin].push_back(op);
    });
  }

  // ---- Sites ----------------------------------------------------------------
  std::optional<SitePlan> planSite(const analysis::CheckpointReplay &cp) {
    std::optional<Span> span = ctx.spanOf(cp.op);
    if (!span || !places.at(span->stmtBegin))
      return std::nullopt;
    const StmtPlace &place = *places.at(span->stmtBegin);
    const ast::Stmt *nest = nullptr;
    for (const ast::Stmt *p = place.parent; p && !isa<ast::FunctionDef>(p);
         p = places.of(p)->parent)
      if (isLoop(p))
        nest = p;
    // A checkpoint outside the loops (a final save) is written atomically
    // with a sidecar too: the user's file is never torn, and resuming from
    // it fast-forwards through the loops to the end.
    auto skip = [&](const Twine &why) -> std::optional<SitePlan> {
      ctx.warning(span->exprBegin, "detc writes no sidecar for this "
                                   "checkpoint: " +
                                       why + " [detc-replay]");
      return std::nullopt;
    };
    auto *stmt = dyn_cast<ast::ExprStmt>(place.stmt);
    auto *call = stmt ? dyn_cast_or_null<ast::Call>(stmt->value) : nullptr;
    if (!call || call->getRange().begin.offset != span->exprBegin)
      return skip("it is not a call statement of its own");
    if (!ctx.indentAt(span->stmtBegin) || !guards.endsLine(span->stmtEnd))
      return skip("it shares its line with other statements");
    if (ctx.edits.lineOf(span->stmtEnd) >=
        ctx.edits.lineOf(uint32_t(src.size())))
      return skip("it ends the file");
    SitePlan p{&cp, 0, *span, call, nest, "", {}};
    std::string why;
    if (!planRestore(p, why) || !planValues(p, why))
      return skip(why);
    p.site = ctx.newSite();
    return p;
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

  /// The saved object's restore statements; every variable the analysis
  /// counts as saved must be restored by them.
  bool planRestore(SitePlan &p, std::string &why) {
    const ast::Expr *obj = p.call->args.empty() ? nullptr : p.call->args[0];
    for (const ast::Keyword *k : p.call->keywords)
      if (k->arg == "obj")
        obj = k->value;
    std::vector<std::string> restored;
    if (const ast::Expr *recv = stateDictOf(obj)) {
      p.restore.push_back((text(recv) + ".load_state_dict(_detc_ckpt)").str());
      restored.push_back(rootName(text(recv)).str());
    } else if (auto *dict = dyn_cast_or_null<ast::Dict>(obj)) {
      for (size_t i = 0; i < dict->keys.size(); ++i) {
        const ast::Expr *key = dict->keys[i], *value = dict->values[i];
        if (!key)
          continue; // `**mapping`: what it holds is not restored
        std::string item = ("_detc_ckpt[" + text(key) + "]").str();
        if (const ast::Expr *recv = stateDictOf(value)) {
          p.restore.push_back(
              (text(recv) + ".load_state_dict(" + item + ")").str());
          restored.push_back(rootName(text(recv)).str());
        } else if (isa<ast::Name, ast::Attribute>(value)) {
          p.restore.push_back((text(value) + " = " + item).str());
          restored.push_back(rootName(text(value)).str());
        }
      }
    } else {
      why = "detc restores a checkpoint saved as `X.state_dict()` or as a "
            "dict literal of those and variables";
      return false;
    }
    for (analysis::VarId v : p.cp->userSaved) {
      std::string name = g.displayName(v);
      if (!llvm::is_contained(restored, rootName(name)) &&
          changedInside(v, p.nest)) {
        why = "'" + name + "' is saved in a form detc cannot load back";
        return false;
      }
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
  bool planValues(SitePlan &p, std::string &why) {
    const analysis::Node &at = g.node(p.cp->instances.front());
    std::string qualifier = g.instances[at.instance].qualifier + "/";
    auto inScope = [&](analysis::VarId v) {
      return g.vars.name(v).starts_with(qualifier);
    };
    std::string values;
    auto add = [&](StringRef key, StringRef thunk, StringRef restore) {
      values += formatv("{0}\"{1}\": lambda: {2}", values.empty() ? "" : ", ",
                        key, thunk)
                    .str();
      p.restore.push_back(
          formatv("if {0}.has_value(\"{1}\"): {2}", kRuntimeAlias, key, restore)
              .str());
    };
    for (auto [v, from] : p.cp->notRederivable) {
      std::string name = g.displayName(v);
      if (StringRef(name).starts_with("$"))
        continue;
      if (!inScope(v)) {
        why = "'" + name +
              "' must be saved but is not visible where the "
              "checkpoint is written";
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

  void instrumentSite(const SitePlan &p) {
    std::optional<uint32_t> end =
        calleeEnd(src, p.span.exprBegin, p.span.exprEnd);
    if (!end)
      return;
    ctx.edits.wrap(p.span.exprBegin, *end,
                   formatv("{0}.checkpoint({1}, ", kRuntimeAlias, p.site),
                   p.values.empty() ? ")" : ", " + p.values + ")");
    ctx.edits.note(
        ctx.edits.lineOf(commentableLineEnd(src, p.span.stmtBegin, *end)),
        formatv("checkpoint with sidecar (site {0})", p.site).str());
    StringRef indent = *ctx.indentAt(p.span.stmtBegin);
    std::string inner = indent.str() + (indent.contains('\t') ? "\t" : "    ");
    std::vector<std::string> lines;
    lines.push_back(
        formatv("{0}if {1}.restoring({2}):", indent, kRuntimeAlias, p.site));
    lines.push_back(
        formatv("{0}_detc_ckpt = {1}.user_checkpoint()", inner, kRuntimeAlias));
    for (const std::string &r : p.restore)
      lines.push_back(inner + r);
    lines.push_back(formatv("{0}{1}.resumed()", inner, kRuntimeAlias));
    ctx.edits.insertLines(ctx.edits.lineOf(p.span.stmtEnd - 1) + 1, lines,
                          formatv("resume here (site {0})", p.site).str());
  }

  // ---- What fast-forward runs ----------------------------------------------
  /// Statements (by begin offset) with an op fast-forward runs: the
  /// re-executed ones, the calls leading to them, and the checkpoints.
  void collectMustRun() {
    llvm::DenseSet<Operation *> ops;
    for (const SitePlan &p : sites) {
      ops.insert(p.cp->op);
      for (NodeId n : p.cp->reexecuted)
        for (NodeId c = n; c != analysis::kNoNode; c = g.node(c).caller)
          if (g.node(c).op)
            ops.insert(g.node(c).op);
    }
    for (Operation *op : ops)
      if (std::optional<Span> s = ctx.spanOf(op))
        mustRun.push_back(s->stmtBegin);
    llvm::sort(mustRun);
  }

  bool runsItself(const ast::Stmt *s) const {
    return std::binary_search(mustRun.begin(), mustRun.end(),
                              s->getRange().begin.offset);
  }
  bool runsInside(const ast::Stmt *s) const {
    auto it = std::lower_bound(mustRun.begin(), mustRun.end(),
                               s->getRange().begin.offset);
    return it != mustRun.end() && *it < s->getRange().end.offset;
  }

  std::vector<const ast::Stmt *> nestRoots() const {
    std::vector<const ast::Stmt *> roots;
    for (const SitePlan &p : sites)
      if (p.nest && !llvm::is_contained(roots, p.nest))
        roots.push_back(p.nest);
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
  /// `s` is in a loop nest (or a function only the nests call).
  void visit(const ast::Stmt *s) {
    if (isa<ast::FunctionDef, ast::ClassDef>(s))
      return;
    bool compound =
        isa<ast::For, ast::While, ast::If, ast::With, ast::Try, ast::Match>(s);
    if (!compound) {
      // A jump reached in fast-forward is taken as in the original run:
      // the tests before it decide (Needed re-runs them).
      if (!runsItself(s) &&
          !isa<ast::Break, ast::Continue, ast::Return, ast::Raise>(s))
        guards.guardSimple(s);
      return;
    }
    if (!runsInside(s)) {
      guards.skipWhole(s);
      return;
    }
    if (auto *f = dyn_cast<ast::For>(s))
      nameBatchShape(f);
    StatementIndex::forEachBody(s, [&](ast::NodeList<ast::Stmt> body) {
      for (const ast::Stmt *c : body)
        visit(c);
    });
  }

  /// Functions whose statements fast-forward partly runs, called only from
  /// the loop nests: guarded like the nests. A function also called
  /// elsewhere runs in full in fast-forward.
  void guardCallees() {
    llvm::DenseSet<NodeId> nestLoops;
    for (const ast::Stmt *root : nestRoots())
      for (Operation *op : opsAt.lookup(root->getRange().begin.offset))
        for (NodeId n = 0; n < g.numNodes(); ++n)
          if (g.node(n).op == op)
            nestLoops.insert(n);
    for (const ast::FunctionDef *def : places.functions()) {
      if (!runsInside(def) || containsNest(def))
        continue;
      NestUse use = nestUse(def, nestLoops);
      if (use == NestUse::Never)
        continue; // setup code: runs as in the original run
      if (use == NestUse::Partly) {
        ctx.warning(def->getRange().begin.offset,
                    "fast-forward runs '" + def->name.str() +
                        "' in full: it is also called outside the training "
                        "loop [detc-replay]");
        continue;
      }
      for (const ast::Stmt *s : def->body)
        visit(s);
    }
  }

  bool containsNest(const ast::FunctionDef *def) const {
    for (const SitePlan &p : sites)
      if (p.nest &&
          def->getRange().begin.offset <= p.nest->getRange().begin.offset &&
          p.nest->getRange().end.offset <= def->getRange().end.offset)
        return true;
    return false;
  }

  enum class NestUse { Never, Partly, Only };
  /// Whether the statements of `def` run inside the loop nests.
  NestUse nestUse(const ast::FunctionDef *def,
                  const llvm::DenseSet<NodeId> &nestLoops) const {
    uint32_t b = def->getRange().begin.offset, e = def->getRange().end.offset;
    bool inside = false, outside = false;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const analysis::Node &node = g.node(n);
      if (!node.op)
        continue;
      std::optional<Span> s = ctx.spanOf(node.op);
      if (!s || s->stmtBegin <= b || s->stmtBegin >= e)
        continue;
      bool in = llvm::any_of(node.loops,
                             [&](NodeId l) { return nestLoops.count(l); });
      (in ? inside : outside) = true;
    }
    if (!inside)
      return NestUse::Never;
    return outside ? NestUse::Partly : NestUse::Only;
  }

  /// `for x, y in loader` over a DataLoader: `batches(loader, 2)`.
  void nameBatchShape(const ast::For *f) {
    bool overLoader = false;
    for (Operation *op : opsAt.lookup(f->getRange().begin.offset))
      if (auto loop = dyn_cast<ir::ForOp>(op))
        for (Operation &inner : loop.getBody().front())
          overLoader |= isa<ir::FetchOp>(inner);
    if (!overLoader)
      return;
    const ast::Expr *iter = f->iter, *target = f->target;
    if (auto *c = dyn_cast<ast::Call>(iter)) {
      StringRef callee = text(c->func);
      if ((callee == "enumerate" || callee.ends_with("tqdm")) &&
          !c->args.empty()) {
        iter = c->args[0];
        if (callee == "enumerate") {
          auto *t = dyn_cast<ast::Tuple>(target);
          target = t && t->elts.size() == 2 ? t->elts[1] : nullptr;
        }
      }
    }
    std::string arity = "None";
    if (auto *t = dyn_cast_or_null<ast::Tuple>(target))
      arity = std::to_string(t->elts.size());
    else if (auto *l = dyn_cast_or_null<ast::List>(target))
      arity = std::to_string(l->elts.size());
    guards.wrapLater(iter, formatv("{0}.batches(", kRuntimeAlias).str(),
                     ", " + arity + ")", "placeholder batches in fast-forward");
  }

  PlanContext &ctx;
  const analysis::StatementGraph &g;
  StringRef src;
  StatementIndex places;
  GuardWriter guards;
  llvm::DenseMap<uint32_t, SmallVector<Operation *, 2>> opsAt;
  std::vector<SitePlan> sites;
  std::vector<uint32_t> mustRun;
};

} // namespace

void planReplay(PlanContext &ctx) { ReplayPlanner(ctx).run(); }

} // namespace detc::codegen
