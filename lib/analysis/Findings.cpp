//===- Findings.cpp - From analysis results to the report model ----------===//

#include "detc/analysis/Findings.h"

#include "TrainingLoops.h"

#include "detc/base/Process.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace detc;
using namespace detc::analysis;
using llvm::StringRef;

namespace {
/// Turns the context's multithreading on while it lives (the analyses that
/// run at once may look up attributes: a symbol table's name, a symbol).
class ThreadedContext {
public:
  explicit ThreadedContext(mlir::MLIRContext *ctx)
      : ctx(ctx), was(ctx->isMultithreadingEnabled()) {
    if (!was)
      ctx->enableMultithreading(true);
  }
  ~ThreadedContext() {
    if (!was)
      ctx->enableMultithreading(false);
  }

private:
  mlir::MLIRContext *ctx;
  bool was;
};
} // namespace

ProgramAnalysis ProgramAnalysis::run(mlir::ModuleOp module,
                                     const StatementGraphOptions &options,
                                     llvm::function_ref<void()> alongside) {
  ProgramAnalysis a;
  ThreadedContext threaded(module.getContext());
  // Where MLIR's own option keeps the context single-threaded
  // (--mlir-disable-threading in a tool that registers it), one thread.
  auto both = [&](llvm::function_ref<void()> here,
                  llvm::function_ref<void()> there) {
    if (module.getContext()->isMultithreadingEnabled()) {
      base::runConcurrently(here, there);
    } else {
      here();
      there();
    }
  };
  // Each thread times its own phases; they are listed in the order the
  // analyses would run one after the other.
  std::vector<base::PhaseStat> graphPhases, neededPhases, lintPhases;
  base::PhaseClock graphClock(graphPhases);
  auto buildGraph = [&] {
    a.graph = StatementGraph::build(module, options);
    graphClock.lap("statement-graph");
    if (a.graph.truncated)
      return; // The caller reports it; the analyses would mean nothing.
    a.gens = std::make_unique<GeneratorAliases>(a.graph);
    graphClock.lap("generator-aliases");
    a.ts = analyzeThreadSafety(a.graph, *a.gens, options.keepSolutions);
    graphClock.lap("thread-safety");
  };
  if (alongside)
    both(buildGraph, alongside);
  else
    buildGraph();
  if (a.graph.truncated) {
    a.phases = graphPhases;
    return a;
  }
  // The statement graph's and the verifier's temporaries (two threads'
  // worth) are gone: their pages go back, or the sets below take new ones
  // beside them (at 300k lines the analyses' peak was 10-20 MB above the
  // lowering's with 90 MB less live heap). Liveness waits for the verifier
  // for the same reason (it finishes before the graph anyway).
  base::releaseFreedMemory();
  a.live = computeLiveness(a.graph, *a.gens);
  graphClock.lap("liveness");
  base::releaseFreedMemory(); // Liveness's transient sets, likewise.
  // Needed, then the lints. (They only read the graph, the aliases and
  // liveness, and once ran on two threads; but each solves its dataflow
  // problems with transient sets as large as the live sets, and the two at
  // once set the process's peak: 17 MB more at 300k lines, for 0.3 s.)
  {
    base::PhaseClock clock(neededPhases);
    a.replay = analyzeReplay(a.graph, *a.gens, a.live,
                             keyedDraws(a.graph, a.ts), options.keepSolutions);
    clock.lap("needed");
  }
  base::releaseFreedMemory(); // Needed's transient sets, likewise.
  {
    base::PhaseClock clock(lintPhases);
    // Only the lints read the dominators and loops: gone before the report
    // (13 MB at 300k lines).
    ControlFlow cfg(a.graph);
    clock.lap("dominators-loops");
    a.lints = runLints(a.graph, cfg, a.live);
    clock.lap("lints");
  }
  for (auto *phases : {&graphPhases, &neededPhases, &lintPhases})
    a.phases.insert(a.phases.end(), phases->begin(), phases->end());
  return a;
}

static std::string where(const SourcePoint &p) {
  if (!p.valid())
    return "?";
  return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

/// A variable as the user wrote it: no instance qualifier, no `@`.
static std::string userName(const StatementGraph &g, VarId v) {
  return g.displayName(v);
}

static bool isTemporary(StringRef name) { return name.starts_with("$"); }

static std::string parallelKind(mlir::Operation *op) {
  if (auto p = llvm::dyn_cast_or_null<ir::ParallelOp>(op))
    return p.getKind() == ir::ParallelKind::PerExample ? "per-example"
                                                       : "per-batch";
  return "";
}

/// The region a finding names for a draw in region `r`: a wrapper's own
/// (a `DataParallel`'s replicas, a region inside a build) gives way to the
/// region of the same kind around it, where the wrapped model is run: the
/// training loop is the line to look at, not the wrapper's construction.
static NodeId namedRegion(const StatementGraph &g, NodeId r) {
  if (r == kNoNode)
    return r;
  std::string kind = parallelKind(g.node(r).op);
  for (NodeId outer = g.node(r).region;
       outer != kNoNode && g.node(r).op->getParentOfType<ir::BuildOp>() &&
       parallelKind(g.node(outer).op) == kind &&
       sourcePoint(g.node(outer).op).valid();
       outer = g.node(outer).region)
    r = outer;
  return r;
}

static std::string callNote(mlir::Operation *op) {
  if (auto call = llvm::dyn_cast<ir::CallOp>(op)) {
    std::string callee = call.getCallee().getRootReference().str();
    for (auto n : call.getCallee().getNestedReferences())
      callee += "." + n.getValue().str();
    return "reached through the call to '" + callee + "' here";
  }
  if (auto fw = llvm::dyn_cast<ir::ForwardOp>(op))
    return "reached through the forward of '" +
           StringRef(fw.getModel()).ltrim('@').str() + "' here";
  return "reached through here";
}

/// The first statement that seeds a global generator, for the note.
static SourcePoint globalSeedSite(const StatementGraph &g,
                                  const GeneratorAliases &gens, unsigned o) {
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (g.node(n).kind == NodeKind::Create &&
        llvm::isa_and_nonnull<ir::CreateGeneratorOp>(g.node(n).op) &&
        llvm::is_contained(gens.created(n), o))
      return sourcePoint(g.node(n).op);
  return {};
}

static void addUnsafeRngFindings(const ProgramAnalysis &a, Report &r) {
  const StatementGraph &g = a.graph;
  // One finding per (draw statement, generator); one call path is shown,
  // the others counted: the first found through a training loop (a layer's
  // dropout is shown reached from the loop that trains, not from a
  // validation loop under `model.eval()` that happens to come first), else
  // the first found. Generators one statement creates are one generator
  // here (a class whose `__init__` makes `self.rng`, constructed on two
  // branches: two objects, one line of code to change).
  llvm::MapVector<std::tuple<mlir::Operation *, mlir::Operation *, unsigned>,
                  std::vector<const UnsafeUse *>>
      groups;
  for (const UnsafeUse &u : a.ts.unsafe) {
    const GeneratorObject &obj = a.gens->objects()[u.object];
    mlir::Operation *creation =
        obj.kind == GeneratorObject::Site ? g.node(obj.site).op : nullptr;
    groups[{g.node(u.draw).op, creation, creation ? ~0u : u.object}]
        .push_back(&u);
  }
  // Exactly (a finding is ~250 bytes before its strings; a large program
  // has tens of thousands, and a doubling vector's slack and last copy
  // set the report's peak).
  r.findings.reserve(r.findings.size() + groups.size() + a.lints.size());
  // The nearest region that ended before each node (see below), computed
  // once for all findings: the region begins with the largest ParBegin
  // whose ParEnd comes before the node.
  std::vector<NodeId> endedBefore;
  auto nearestEndedRegion = [&](NodeId n) {
    if (endedBefore.empty()) {
      endedBefore.assign(g.numNodes() + 1, kNoNode);
      for (NodeId p = 0; p < g.numNodes(); ++p)
        if (g.node(p).kind == NodeKind::ParBegin && g.node(p).pair != kNoNode &&
            sourcePoint(g.node(p).op).valid()) {
          NodeId &slot = endedBefore[std::max(p, g.node(p).pair) + 1];
          slot = slot == kNoNode ? p : std::max(slot, p);
        }
      for (NodeId d = 1; d <= g.numNodes(); ++d)
        if (endedBefore[d - 1] != kNoNode &&
            (endedBefore[d] == kNoNode || endedBefore[d - 1] > endedBefore[d]))
          endedBefore[d] = endedBefore[d - 1];
    }
    return endedBefore[n];
  };
  std::map<unsigned, SourcePoint> seedSites;
  TrainingLoops training(g);
  for (auto &[key, uses] : groups) {
    const UnsafeUse *shown = uses.front();
    for (const UnsafeUse *candidate : uses)
      if (candidate->region != kNoNode &&
          training.inTraining(candidate->region)) {
        shown = candidate;
        break;
      }
    const UnsafeUse &u = *shown;
    const GeneratorObject &obj = a.gens->objects()[u.object];
    NodeId region = namedRegion(g, u.region);
    mlir::Operation *regionOp = region != kNoNode ? g.node(region).op : nullptr;
    // A draw outside every region is unsafe because a region before it
    // left the generator in a state that depends on how it ran: name the
    // nearest region that ended before the draw (never "region at ?").
    bool after = false;
    if (!regionOp)
      if (NodeId p = nearestEndedRegion(u.draw); p != kNoNode) {
        regionOp = g.node(p).op;
        after = true;
      }
    Finding f;
    f.rule = "detc-unsafe-rng";
    f.at = sourcePoint(std::get<0>(key));
    if (!regionOp || parallelKind(regionOp).empty() ||
        !sourcePoint(regionOp).valid())
      f.message = "generator " + obj.describe(g) +
                  " is used where its state depends on how earlier "
                  "data-parallel work ran (not thread-safe here)";
    else if (after)
      f.message = "generator " + obj.describe(g) + " is used after the " +
                  parallelKind(regionOp) +
                  " data-parallel region that starts at " +
                  where(sourcePoint(regionOp)) +
                  ": its state depends on how that region ran";
    else
      f.message = "generator " + obj.describe(g) + " is used inside the " +
                  parallelKind(regionOp) +
                  " data-parallel region that starts at " +
                  where(sourcePoint(regionOp));
    if (obj.kind == GeneratorObject::Site)
      f.notes.push_back({sourcePoint(g.node(obj.site).op),
                         "generator " + obj.describe(g) + " created here"});
    else if (obj.kind == GeneratorObject::Global) {
      auto [it, added] = seedSites.try_emplace(u.object);
      if (added)
        it->second = globalSeedSite(g, *a.gens, u.object);
      const SourcePoint &seed = it->second;
      if (seed.valid())
        f.notes.push_back({seed, "global generator seeded here"});
    }
    if (regionOp && !parallelKind(regionOp).empty())
      f.notes.push_back({sourcePoint(regionOp),
                         "the " + parallelKind(regionOp) +
                             " data-parallel region begins here"});
    // The silent error behind many of these (TrainCheck's "workers share
    // a seed"): a generator object made before the loader's workers start
    // is copied into each of them in the same state (torch reseeds only
    // its own global generator, `random` and numpy's global one per
    // worker), so the workers draw the same sequence.
    if (!after && regionOp && parallelKind(regionOp) == "per-example" &&
        obj.kind == GeneratorObject::Site)
      f.notes.push_back(
          {f.at, "each DataLoader worker process gets a copy of generator " +
                     obj.describe(g) +
                     " in the state it had when the workers started (torch "
                     "reseeds only the global generators per worker): with "
                     "num_workers > 0 every worker draws the same sequence "
                     "(identical augmentations across workers)"});
    NodeId end = region != kNoNode ? g.node(region).pair : kNoNode;
    for (NodeId c : g.callPath(u.draw))
      if (region != kNoNode && c > region && c < end &&
          !g.node(c).op->getParentOfType<ir::BuildOp>())
        f.notes.push_back({sourcePoint(g.node(c).op), callNote(g.node(c).op)});
    if (uses.size() > 1)
      f.notes.push_back({f.at, "also unsafe on " +
                                   std::to_string(uses.size() - 1) +
                                   " other call path(s)"});
    r.findings.push_back(std::move(f));
  }
  for (unsigned o = 0; o < a.ts.err.size(); ++o)
    if (a.ts.err.test(o))
      if (std::string name = a.gens->objects()[o].describe(g);
          !llvm::is_contained(r.err, name))
        r.err.push_back(std::move(name));
}

namespace {
/// One entry of an op's `unread_calls` (the lowering's record of a call of
/// code detc does not read).
struct UnreadCall {
  SourcePoint at;
  std::string callee, why;
  mlir::DictionaryAttr fields; ///< Its flags: `draws`, `own_generator`, ...
};
} // namespace

/// `entry` as an UnreadCall of the statement at `stmt`; nullopt for a
/// malformed one. An entry names its own file when its op may sit in
/// another (a dataset's transform, called in the loop's per-example
/// region).
static std::optional<UnreadCall> unreadCall(mlir::Attribute entry,
                                            const SourcePoint &stmt) {
  auto d = llvm::cast<mlir::DictionaryAttr>(entry);
  auto line = d.getAs<mlir::IntegerAttr>("line");
  auto column = d.getAs<mlir::IntegerAttr>("column");
  auto callee = d.getAs<mlir::StringAttr>("callee");
  auto why = d.getAs<mlir::StringAttr>("why");
  auto file = d.getAs<mlir::StringAttr>("file");
  if (!line || !column || !callee || !why)
    return std::nullopt;
  return UnreadCall{{file ? file.getValue().str() : stmt.file,
                     unsigned(line.getInt()), unsigned(column.getInt())},
                    callee.getValue().str(),
                    why.getValue().str(),
                    d};
}

/// detc-may-draw: a call of code detc does not read (the lowering's
/// `unread_calls`: a library no table models, a module it could not find,
/// a callee it cannot trace) inside a data-parallel region may draw from a
/// generator made outside it. One finding per call, with the first region
/// and call path it was reached on.
static void addMayDrawFindings(const ProgramAnalysis &a, Report &r) {
  const StatementGraph &g = a.graph;
  std::set<std::tuple<std::string, int64_t, int64_t>> seen;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (!node.op || node.region == kNoNode)
      continue;
    auto calls = node.op->getAttrOfType<mlir::ArrayAttr>("unread_calls");
    NodeId region = namedRegion(g, node.region);
    mlir::Operation *regionOp = g.node(region).op;
    if (!calls || parallelKind(regionOp).empty())
      continue;
    // Code a build's forward runs (a `DataParallel`'s replicas of a model
    // detc cannot read) reached through a forward that is itself an
    // unread call inside a data-parallel region: that forward's finding
    // names the same code, at the line that runs it.
    if (node.op->getParentOfType<ir::BuildOp>() &&
        llvm::any_of(g.callPath(n), [&](NodeId c) {
          const Node &call = g.node(c);
          return llvm::isa_and_nonnull<ir::ForwardOp>(call.op) &&
                 call.op->hasAttr("unread_calls") &&
                 call.region != kNoNode &&
                 !parallelKind(g.node(call.region).op).empty();
        }))
      continue;
    SourcePoint stmt = sourcePoint(node.op);
    for (mlir::Attribute entry : calls) {
      std::optional<UnreadCall> call = unreadCall(entry, stmt);
      if (!call)
        continue;
      mlir::DictionaryAttr d = call->fields;
      // Library code whose source shows a draw: an unsafe use of a
      // generator like one in the script (the chain says which).
      bool draws = d.get("draws") != nullptr;
      Finding f;
      f.rule = draws ? "detc-unsafe-rng" : "detc-may-draw";
      f.at = call->at;
      if (!seen.insert({f.at.file, f.at.line, f.at.column}).second)
        continue;
      std::string kind = parallelKind(regionOp);
      f.message = (draws ? "draws: '" + call->callee +
                               "' runs library code that draws from a "
                               "generator made outside the "
                         : "may draw: '" + call->callee +
                               "' calls code detc could not read, inside "
                               "the ") +
                  kind + " data-parallel region that starts at " +
                  where(sourcePoint(regionOp));
      f.notes.push_back({f.at, "'" + call->callee + "' is " + call->why});
      f.notes.push_back({sourcePoint(regionOp),
                         "the " + kind + " data-parallel region begins here"});
      NodeId end = g.node(region).pair;
      for (NodeId c : g.callPath(n))
        if (c > region && c < end &&
            !g.node(c).op->getParentOfType<ir::BuildOp>())
          f.notes.push_back(
              {sourcePoint(g.node(c).op), callNote(g.node(c).op)});
      if (kind == "per-example" && d.get("own_generator"))
        f.notes.push_back(
            {f.at, "the library draws from a generator it makes for "
                   "itself, which detc transform cannot key: its values "
                   "depend on which worker makes which example, also in "
                   "the transformed script; seed that generator per "
                   "example (the library's seed option, or in the "
                   "dataset's __getitem__) or use a transform detc keys"});
      else if (kind == "per-example")
        f.notes.push_back(
            {f.at, "detc transform reseeds torch's, numpy's and random's "
                   "global generators for every example, which keys draws "
                   "the call makes from them; a generator of its own stays "
                   "unkeyed"});
      r.findings.push_back(std::move(f));
    }
  }
}

/// detc-unseen-training: a script in which detc sees no training step —
/// no gradient, no optimizer step, no data-parallel region — but which
/// calls, in code detc could not read, a name training libraries run
/// their training by (an `entry-method` of the API tables: torchtitan's
/// `config.build().train()`, detectron2's `trainer.train()`). Its
/// training may run there, where detc sees none of its draws: one
/// finding, at the first such call, the script's other calls of code detc
/// could not read in notes. Only where the module body is what
/// runs: not for library-style modules (a helper file trains nothing) nor
/// for functions picked with --entry (an `evaluate` trains nothing).
std::optional<Finding> detc::analysis::unseenTraining(const ProgramAnalysis &a,
                                                     StringRef file) {
  const StatementGraph &g = a.graph;
  if (g.libraryEntries || !g.entries.empty())
    return std::nullopt;
  std::vector<UnreadCall> calls;
  // A name libraries run their training by (`train`).
  auto isEntry = [](const UnreadCall &c) {
    return c.fields.get("entry") != nullptr;
  };
  std::set<std::tuple<std::string, unsigned, unsigned>> seen;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (!node.op)
      continue;
    if (llvm::isa<ir::GradOp, ir::UpdateOp>(node.op) ||
        (node.region != kNoNode &&
         !parallelKind(g.node(node.region).op).empty()))
      return std::nullopt;
    auto entries = node.op->getAttrOfType<mlir::ArrayAttr>("unread_calls");
    if (!entries)
      continue;
    SourcePoint stmt = sourcePoint(node.op);
    for (mlir::Attribute entry : entries)
      if (std::optional<UnreadCall> call = unreadCall(entry, stmt))
        if (seen.insert({call->at.file, call->at.line, call->at.column})
                .second)
          calls.push_back(std::move(*call));
  }
  // The calls of a name libraries train by first (an inference or
  // data-preparation script calls unread code too, and trains nothing);
  // then the script's own calls (what its user wrote), in line order.
  llvm::stable_sort(calls, [&](const UnreadCall &x, const UnreadCall &y) {
    return std::make_tuple(!isEntry(x), x.at.file != file, x.at.file,
                           x.at.line, x.at.column) <
           std::make_tuple(!isEntry(y), y.at.file != file, y.at.file,
                           y.at.line, y.at.column);
  });
  if (calls.empty() || !isEntry(calls.front()))
    return std::nullopt;
  Finding f;
  f.rule = "detc-unseen-training";
  f.at = calls.front().at;
  f.message = "detc found no training step in the code it could read (no "
              "backward, no optimizer step, no loop over a DataLoader); the "
              "training may run in code it could not read, such as '" +
              calls.front().callee +
              "' here: its random draws and data loading are unseen, and "
              "the transformed script neither keys nor resumes them";
  f.notes.push_back({f.at, "'" + calls.front().callee + "' is " +
                               calls.front().why});
  constexpr size_t kListed = 5;
  for (size_t i = 1; i < calls.size() && i <= kListed; ++i)
    f.notes.push_back({calls[i].at, "also code detc could not read: '" +
                                        calls[i].callee + "', " +
                                        calls[i].why});
  if (calls.size() > kListed + 1)
    f.notes.push_back({f.at, std::to_string(calls.size() - kListed - 1) +
                                 " more call(s) of code detc could not "
                                 "read"});
  return f;
}

static std::string workKind(mlir::Operation *op) {
  if (llvm::isa<ir::ForwardOp>(op))
    return "forward";
  if (llvm::isa<ir::GradOp>(op))
    return "gradient";
  if (llvm::isa<ir::UpdateOp>(op))
    return "optimizer step";
  if (llvm::isa<ir::FetchOp>(op))
    return "batch loading";
  if (llvm::isa<ir::DrawOp>(op))
    return "random draw inside a forward or a batch fetch";
  return "skipped work";
}

static ReplaySummary summarize(const ProgramAnalysis &a,
                               const CheckpointReplay &cp) {
  const StatementGraph &g = a.graph;
  ReplaySummary s;
  s.at = sourcePoint(cp.op);
  llvm::StringSet<> seen;
  auto once = [&](StringRef kind, const std::string &name) {
    return seen.insert((kind + ":" + name).str()).second;
  };
  // A temporary (a dict display passed to a helper) shows as what it
  // restores, which follows it in the list.
  for (VarId v : cp.userSaved)
    if (!isTemporary(userName(g, v)) && once("user", userName(g, v)))
      s.userSaved.push_back(userName(g, v));
  auto derivedFrom = [&](NamedAt &n, NodeId from, StringRef verb) {
    if (from == kNoNode)
      return;
    SourcePoint at = sourcePoint(g.node(from).op);
    n.why = (verb + " the " + workKind(g.node(from).op) + " at " + where(at))
                .str();
  };
  for (auto [o, from] : cp.generators) {
    const GeneratorObject &obj = a.gens->objects()[o];
    std::string name = obj.describe(g);
    if (!once("gen", name))
      continue;
    SourcePoint at = obj.kind == GeneratorObject::Site
                         ? sourcePoint(g.node(obj.site).op)
                         : SourcePoint();
    NamedAt n{name, at, ""};
    derivedFrom(n, from, "advanced by");
    s.generators.push_back(n);
  }
  for (NodeId loop : cp.loops) {
    std::string name;
    for (VarId v : g.node(loop).defs)
      name += (name.empty() ? "" : ", ") + userName(g, v);
    // `for x, y in loader` binds its targets in the fetch: the position is
    // the loop's place in its iterable.
    if (name.empty() && llvm::isa<ir::ForOp>(g.node(loop).op))
      for (VarId v : g.node(loop).uses)
        name += (name.empty() ? "position in " : ", ") + userName(g, v);
    if (name.empty())
      name = "while loop";
    s.loops.push_back({name, sourcePoint(g.node(loop).op), ""});
  }
  for (auto [v, from] : cp.notRederivable) {
    std::string name = userName(g, v);
    if (isTemporary(name) || !once("detc", name))
      continue;
    NamedAt n{name, {}, ""};
    derivedFrom(n, from, "derived from");
    s.detcSaved.push_back(n);
  }
  for (unsigned v : cp.fastForwarded) {
    std::string name = describeReplayId(v, g, *a.gens, a.replay.ids);
    if (!isTemporary(name) && once("ff", name))
      s.fastForwarded.push_back({name, {}, ""});
  }
  llvm::DenseSet<mlir::Operation *> ops;
  for (NodeId n : cp.reexecuted)
    if (ops.insert(g.node(n).op).second)
      s.reexecuted.push_back(sourcePoint(g.node(n).op));
  for (NodeId n : cp.skipped) {
    SourcePoint at = sourcePoint(g.node(n).op);
    std::string kind = workKind(g.node(n).op);
    if (once("skip", kind + "@" + std::to_string(at.line)))
      s.skipped.push_back({kind, at, ""});
  }
  auto byLine = [](const SourcePoint &x, const SourcePoint &y) {
    return std::tie(x.file, x.line, x.column) <
           std::tie(y.file, y.line, y.column);
  };
  llvm::sort(s.reexecuted, byLine);
  llvm::sort(s.skipped, [&](const NamedAt &x, const NamedAt &y) {
    return byLine(x.at, y.at);
  });
  return s;
}

Report detc::analysis::buildReport(const ProgramAnalysis &a, StringRef file) {
  Report r;
  r.file = file.str();
  for (const std::string &sym : a.graph.entries)
    r.entries.push_back(entryDisplayName(sym));
  r.libraryEntries = a.graph.libraryEntries;
  addUnsafeRngFindings(a, r);
  addMayDrawFindings(a, r);
  if (std::optional<Finding> f = unseenTraining(a, file))
    r.findings.push_back(std::move(*f));
  for (const LintFinding &l : a.lints) {
    Finding f;
    f.rule = l.rule;
    f.at = sourcePoint(a.graph.node(l.at).op);
    f.message = l.message;
    for (auto &[n, text] : l.notes)
      f.notes.push_back({sourcePoint(a.graph.node(n).op), text});
    r.findings.push_back(std::move(f));
  }
  for (const CheckpointReplay &cp : a.replay.checkpoints)
    r.checkpoints.push_back(summarize(a, cp));
  const StatementGraph &g = a.graph;
  // Per hint op (all its expansions): live variables and generator states.
  llvm::MapVector<mlir::Operation *,
                  std::pair<std::set<std::string>, std::set<std::string>>>
      hints;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    if (g.node(n).kind != NodeKind::Hint)
      continue;
    auto &[names, generators] = hints[g.node(n).op];
    for (unsigned v : a.live.liveAfter(n)) {
      for (unsigned o : a.gens->pointsTo(v))
        generators.insert(a.gens->objects()[o].describe(g));
      std::string name = userName(g, v);
      // `<torch>` is the library's generator itself, listed as a state.
      if (!isTemporary(name) && !StringRef(name).starts_with("<"))
        names.insert(name);
    }
  }
  for (auto &[op, sets] : hints) {
    HintLiveness h;
    h.at = sourcePoint(op);
    h.live.assign(sets.first.begin(), sets.first.end());
    h.generators.assign(sets.second.begin(), sets.second.end());
    r.hints.push_back(std::move(h));
  }
  return r;
}
