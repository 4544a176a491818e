//===- TrainingChecks.cpp - Silent training errors found statically -------===//

#include "TrainingChecks.h"
#include "TrainingLoops.h"

#include "detc/analysis/DataflowSolver.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <array>
#include <map>
#include <optional>
#include <set>

using namespace detc;
using namespace detc::analysis;
using llvm::dyn_cast_or_null;

namespace {

bool under(llvm::StringRef inner, llvm::StringRef outer) {
  return inner.size() > outer.size() && inner.starts_with(outer) &&
         (inner[outer.size()] == '.' || inner[outer.size()] == '[');
}

std::string lineOf(const StatementGraph &g, NodeId n) {
  return "line " + std::to_string(sourcePoint(g.node(n).op).line);
}

/// Whether two model variables may be the same model: one variable, one
/// object, one a part of the other (`model.fc`), or one wrapping the other
/// (what a build such as DistributedDataParallel(model) defines from).
class ModelRelation {
public:
  explicit ModelRelation(const StatementGraph &g) : g(g) {
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const Node &node = g.node(n);
      if (llvm::isa_and_nonnull<ir::BuildOp>(node.op) &&
          node.kind != NodeKind::CallEnter)
        for (VarId d : node.defs) {
          addModel(d);
          for (VarId u : node.uses) {
            wraps.insert({d, u});
            wrappedByModel.insert(u);
          }
        }
      // `self.model = model` in a trainer's __init__: the attribute is the
      // model it was given.
      if (node.copy && node.defs.size() == 1 && node.uses.size() == 1)
        wraps.insert({node.defs[0], node.uses[0]});
      // `generator = Net().to(device)` (also `.cuda()`, `.eval()`): the
      // call returns the module it is called on, so the variable is that
      // model (ESRGAN's optimizers, over such variables, were taken for
      // unknown ones, and its frozen feature extractor for a model some
      // optimizer may train).
      if (auto call = llvm::dyn_cast_or_null<ir::LibCallOp>(node.op);
          call && call.getReturnsReceiver() &&
          node.kind != NodeKind::CallEnter)
        for (VarId u : node.updates)
          if (isModel(u))
            for (VarId d : node.defs) {
              addModel(d);
              wraps.insert({d, u});
            }
    }
  }
  /// A variable holding a built module (or a part of one): related() to
  /// some model, asked of indexes instead of every model (one optimizer
  /// step per training stage would make it quadratic).
  bool isModel(VarId v) const {
    if (models.contains(v) || modelObjects.contains(g.vars.objectOf(v)) ||
        wrappedByModel.contains(v))
      return true;
    llvm::StringRef name = g.vars.name(v);
    // A model under `v`: `v` is a proper prefix of a model's name.
    if (modelPrefixes.contains(name))
      return true;
    // `v` under a model: one of its own proper prefixes is a model's name.
    for (size_t i = 1; i < name.size(); ++i)
      if ((name[i] == '.' || name[i] == '[') &&
          modelNames.contains(name.take_front(i)))
        return true;
    return false;
  }
  bool related(VarId a, VarId b) const {
    return same(a, b) || partOf(a, b) || partOf(b, a);
  }

private:
  /// One model: the same variable or object, or one wrapping the other.
  bool same(VarId a, VarId b) const {
    return a == b || g.vars.objectOf(a) == g.vars.objectOf(b) ||
           wraps.count({a, b}) || wraps.count({b, a});
  }
  /// `part` is a part of `whole`, or of a model `whole` is: `whole` or a
  /// variable the same as it is a proper prefix of its name
  /// (`agent.actor_critic.base` of `actor_critic`, which the trainer keeps
  /// as `self.actor_critic`).
  bool partOf(VarId part, VarId whole) const {
    llvm::StringRef name = g.vars.name(part);
    if (under(name, g.vars.name(whole)))
      return true;
    for (size_t i = 1; i < name.size(); ++i)
      if (name[i] == '.' || name[i] == '[')
        if (VarId p = g.vars.lookup(name.take_front(i));
            p != ~0u && same(p, whole))
          return true;
    return false;
  }

  void addModel(VarId m) {
    models.insert(m);
    modelObjects.insert(g.vars.objectOf(m));
    llvm::StringRef name = g.vars.name(m);
    modelNames.insert(name);
    for (size_t i = 1; i < name.size(); ++i)
      if (name[i] == '.' || name[i] == '[')
        modelPrefixes.insert(name.take_front(i));
  }

  const StatementGraph &g;
  std::set<std::pair<VarId, VarId>> wraps;
  llvm::DenseSet<VarId> models, modelObjects, wrappedByModel;
  llvm::StringSet<> modelNames, modelPrefixes;
};

// ---- detc-eval-not-restored ------------------------------------------------

/// May-analysis: the variables possibly in evaluation mode, each with the
/// eval() that put it there (the latest on a path; the first, by node
/// order, where paths join).
using Modes = std::map<VarId, NodeId>;

class EvalModes {
public:
  explicit EvalModes(const StatementGraph &g) : g(g) { solve(); }

  /// The modes before a forward (empty elsewhere).
  const Modes &in(NodeId n) const {
    auto it = state.find(n);
    return it == state.end() ? none : it->second;
  }

private:
  Modes transfer(NodeId n, Modes m) const {
    const Node &node = g.node(n);
    auto call = dyn_cast_or_null<ir::LibCallOp>(node.op);
    if (call && node.kind != NodeKind::CallEnter) {
      if (call.getRole() == "eval_mode") {
        // The latest eval() on the path is the one that decides.
        for (VarId v : node.updates)
          m[v] = n;
        return m;
      }
      if (call.getRole() == "train_mode") {
        for (VarId v : node.updates) {
          // `model.to(device).train()`: the receiver is a temporary that
          // may be any model (`.to()` returns the module itself).
          if (llvm::StringRef(g.displayName(v)).starts_with("$"))
            return {};
          erase(m, v);
        }
        return m;
      }
    }
    for (VarId v : node.defs)
      erase(m, v);
    return m;
  }

  /// `v` and what lies under it or above it leave evaluation mode.
  void erase(Modes &m, VarId v) const {
    llvm::StringRef name = g.vars.name(v);
    for (auto it = m.begin(); it != m.end();) {
      llvm::StringRef other = g.vars.name(it->first);
      if (it->first == v || under(other, name) || under(name, other))
        it = m.erase(it);
      else
        ++it;
    }
  }

  void solve() {
    // May problem: bottom (nothing in evaluation mode) everywhere, union
    // at joins keeping the first eval() per variable.
    DataGraph dg = forwardDataGraph(g);
    auto solution = solveDataflow(
        dg, Modes(), [](NodeId, Modes &) {},
        [](Modes &acc, const Modes &other) {
          for (auto [v, at] : other) {
            auto [it, added] = acc.try_emplace(v, at);
            if (!added)
              it->second = std::min(it->second, at);
          }
        },
        [&](NodeId n, const Modes &in, Modes &out) { out = transfer(n, in); });
    // Only forwards' states are read.
    solution.forEach([&](NodeId n, const Modes &in) {
      if (!in.empty() && llvm::isa_and_nonnull<ir::ForwardOp>(g.node(n).op))
        state.try_emplace(n, in);
    });
  }

  const StatementGraph &g;
  llvm::DenseMap<NodeId, Modes> state; ///< Before each forward, if any.
  const Modes none = {};
};

/// The variables optimizers are built over that are models (what they
/// train), and whether every optimizer's are known.
struct TrainedModels {
  llvm::SmallVector<VarId, 4> models;
  bool allKnown = true;

  TrainedModels(const StatementGraph &g, const ModelRelation &rel) {
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      auto call = dyn_cast_or_null<ir::LibCallOp>(g.node(n).op);
      if (!call || call.getRole() != "optimizer" ||
          g.node(n).kind == NodeKind::CallEnter)
        continue;
      bool any = false;
      for (VarId u : g.node(n).uses)
        if (rel.isModel(u)) {
          models.push_back(u);
          any = true;
        }
      allKnown &= any;
    }
  }
  /// Whether `v` may be trained: related to a model an optimizer is built
  /// over, or some optimizer's models are not known.
  bool mayBeTrained(const ModelRelation &rel, VarId v) const {
    return !allKnown || llvm::any_of(models, [&](VarId m) {
      return rel.related(v, m);
    });
  }
};

/// Whether eval() at `evalAt` is a function's own choice for its training
/// loop around `n` (MoCo's linear classification trains the head of a
/// frozen backbone after `model.eval()`, written just before the loop, so
/// that batch-norm statistics stay as pre-trained): in the same call,
/// before the loop, with nothing between them that runs a model or calls
/// the program (a validation there would be the usual mistake).
static bool evalForOwnLoop(const StatementGraph &g, NodeId evalAt,
                           NodeId n) {
  const Node &eval = g.node(evalAt);
  const IdList &evalLoops = g.loops(evalAt);
  const IdList &loops = g.loops(n);
  if (eval.instance != g.node(n).instance || evalAt > n ||
      evalLoops.size() >= loops.size() ||
      !std::equal(evalLoops.begin(), evalLoops.end(), loops.begin()))
    return false;
  NodeId header = loops[evalLoops.size()];
  if (header < evalAt)
    return false;
  for (NodeId m = evalAt + 1; m < header; ++m) {
    const Node &between = g.node(m);
    if (between.kind == NodeKind::CallEnter ||
        llvm::isa_and_nonnull<ir::ForwardOp>(between.op))
      return false;
  }
  return true;
}

void evalNotRestored(const StatementGraph &g, const TrainingLoops &training,
                     std::vector<LintFinding> &out) {
  EvalModes modes(g);
  ModelRelation rel(g);
  TrainedModels trained(g, rel);
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    auto fw = dyn_cast_or_null<ir::ForwardOp>(node.op);
    // A forward in a build's body says what the built wrapper's forward
    // does (DistributedDataParallel's); it runs where the wrapper is
    // called, not where it is built.
    if (!fw || node.kind == NodeKind::CallEnter || !training.inTraining(n) ||
        fw->getParentOfType<ir::BuildOp>())
      continue;
    const Modes *in = &modes.in(n);
    if (in->empty())
      continue;
    llvm::StringRef model = llvm::StringRef(fw.getModel()).ltrim('@');
    // A closure's forward of its enclosing function's model (`^model`).
    VarId enclosing = model.starts_with("^")
                          ? g.spelledIn(n, node.uses, model)
                          : ~0u;
    model = model.ltrim('^');
    for (VarId v : node.uses) {
      if (g.displayName(v) != model && v != enclosing)
        continue;
      auto it = in->find(v);
      if (it == in->end())
        continue;
      // A model no optimizer trains, kept in evaluation mode on purpose
      // (ESRGAN's VGG feature extractor for the perceptual loss).
      if (!trained.mayBeTrained(rel, v))
        break;
      // Switched to evaluation mode just before, in the same block of the
      // same call (CycleGAN's sample_images(): `G.eval(); G(x)`): an
      // evaluation forward that the training loop calls, not a training
      // forward left in evaluation mode.
      const Node &eval = g.node(it->second);
      if (eval.instance == node.instance && eval.control == node.control &&
          it->second < n && g.loops(it->second).size() == g.loops(n).size())
        break;
      if (evalForOwnLoop(g, it->second, n))
        break;
      out.push_back(
          {"detc-eval-not-restored", n,
           "the model may still be in evaluation mode in this training "
           "forward: `" + model.str() + ".eval()` at " +
               lineOf(g, it->second) +
               " reaches it (e.g. in the next epoch after the validation) "
               "with no `" + model.str() +
               ".train()` after it on that path, so dropout and batch-norm "
               "updates are off for the rest of training; call `" +
               model.str() + ".train()` before the training loop's body",
           {{it->second, "switched to evaluation mode here"}}});
      break;
    }
  }
}

// ---- detc-rank-conditional-update
// --------------------------------------------

/// A distributed job: the program wraps a model in DistributedDataParallel
/// or calls torch.distributed.
bool distributed(const StatementGraph &g) {
  for (NodeId n = 0; n < g.numNodes(); ++n)
    if (mlir::Operation *op = g.node(n).op)
      if (auto api = op->getAttrOfType<mlir::StringAttr>("api"))
        if (api.getValue().contains("DistributedDataParallel") ||
            api.getValue().starts_with("torch.distributed."))
          return true;
  return false;
}

/// The training work a rank test may keep from some ranks.
enum RankWork : unsigned { NoWork = 0, Step = 1, Backward = 2, Clip = 4 };

RankWork rankWorkOf(mlir::Operation *op) {
  if (llvm::isa<ir::UpdateOp>(op))
    return Step;
  if (llvm::isa<ir::GradOp>(op))
    return Backward;
  if (auto call = dyn_cast_or_null<ir::LibCallOp>(op);
      call && call.getRole() == "clip_grad")
    return Clip;
  return NoWork;
}

/// Which branch of the rank test `c` node `n` runs in (0: the test holds,
/// 1: its else), following `n`'s calls out to the statement the test
/// holds; or -1.
int branchOf(const StatementGraph &g, NodeId n, NodeId c) {
  mlir::Operation *test = g.node(c).op;
  for (NodeId m = n; m != kNoNode; m = g.node(m).caller)
    if (mlir::Operation *op = g.node(m).op; op && test->isProperAncestor(op))
      return op->getParentRegion() == &test->getRegion(0) ? 0 : 1;
  return -1;
}

void rankConditional(const StatementGraph &g, std::vector<LintFinding> &out) {
  // Work done on both sides of a rank test is done on every rank (vits:
  // `if rank == 0: train_and_evaluate(..., logger, writers) else:
  // train_and_evaluate(..., None, None)`): per test, the work each branch
  // does.
  std::map<NodeId, std::array<unsigned, 2>> doneIn;
  auto rankTests = [&](NodeId n, auto &&visit) {
    for (NodeId c = g.node(n).control; c != kNoNode; c = g.node(c).control)
      if (auto test = dyn_cast_or_null<ir::IfOp>(g.node(c).op);
          test && test->hasAttr("per_rank"))
        if (int branch = branchOf(g, n, c); branch >= 0 &&
                                            visit(c, unsigned(branch)))
          return;
  };
  std::vector<std::pair<NodeId, RankWork>> work;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (!node.op || node.kind == NodeKind::CallEnter)
      continue;
    if (RankWork w = rankWorkOf(node.op)) {
      work.push_back({n, w});
      rankTests(n, [&](NodeId c, unsigned branch) {
        doneIn[c][branch] |= w;
        return false;
      });
    }
  }
  for (auto [n, w] : work) {
    const char *what = w == Step       ? "the optimizer step"
                       : w == Backward ? "the backward"
                                       : "gradient clipping";
    rankTests(n, [&, n = n, w = w](NodeId c, unsigned branch) {
      if (doneIn[c][1 - branch] & w)
        return false;
      out.push_back(
          {"detc-rank-conditional-update", n,
           std::string(what) +
               " runs on some ranks only (under the test of the rank at " +
               lineOf(g, c) +
               "): the replicas then step with different gradients and "
               "drift apart" +
               (w == Backward
                    ? " (or the other ranks wait for its all-reduce forever)"
                    : "") +
               "; run it on every rank and keep rank-only work (logging, "
               "saving) under the test",
           {{c, "the test of the rank"}}});
      return true;
    });
  }
}

// ---- detc-ddp-module-forward
// ---------------------------------------------------

void ddpModuleForward(const StatementGraph &g, const TrainingLoops &training,
                      std::vector<LintFinding> &out) {
  // The wrappers: what DistributedDataParallel builds define.
  llvm::DenseSet<VarId> wrappers;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    auto build = dyn_cast_or_null<ir::BuildOp>(g.node(n).op);
    if (!build || g.node(n).kind == NodeKind::CallEnter)
      continue;
    auto api = build->getAttrOfType<mlir::StringAttr>("api");
    if (api && api.getValue().contains("DistributedDataParallel"))
      for (VarId v : g.node(n).defs)
        wrappers.insert(v);
  }
  if (wrappers.empty())
    return;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (!node.op || node.kind == NodeKind::CallEnter ||
        !training.inTraining(n))
      continue;
    auto calls = node.op->getAttrOfType<mlir::ArrayAttr>("module_calls");
    if (!calls)
      continue;
    for (mlir::Attribute a : calls) {
      llvm::StringRef receiver = llvm::cast<mlir::StringAttr>(a).getValue();
      bool wrapped = llvm::any_of(node.uses, [&](VarId v) {
        return g.displayName(v) == receiver &&
               (wrappers.contains(v) || wrappers.contains(g.vars.objectOf(v)));
      });
      if (!wrapped)
        continue;
      out.push_back(
          {"detc-ddp-module-forward", n,
           "the training forward calls `" + receiver.str() +
               ".module` around its DistributedDataParallel wrapper: no "
               "gradient is all-reduced, so the replicas drift apart; call `" +
               receiver.str() + "(...)` itself",
           {}});
      break;
    }
  }
}

// ---- detc-optimizer-not-on-model
// ---------------------------------------------


VarId forwardModel(const StatementGraph &g, NodeId n) {
  auto fw = dyn_cast_or_null<ir::ForwardOp>(g.node(n).op);
  if (!fw)
    return ~0u;
  // Through a method of the model (`self.forward(x)` in `D.compute_loss`)
  // `self` is the caller's model.
  return g.spelledIn(n, g.node(n).uses, fw.getModel());
}

/// Whether `n` runs inside a model's forward: a forward op encloses it or
/// is on its call path (a layer a module's forward runs).
bool insideForward(const StatementGraph &g, NodeId n) {
  if (g.node(n).op->getParentOfType<ir::BuildOp>())
    return true;
  for (NodeId c = g.node(n).caller; c != kNoNode; c = g.node(c).caller)
    if (llvm::isa_and_nonnull<ir::ForwardOp>(g.node(c).op))
      return true;
  return false;
}

void optimizerNotOnModel(const StatementGraph &g,
                         const TrainingLoops &training,
                         std::vector<LintFinding> &out) {
  ModelRelation rel(g);
  // The models each loop's iterations run forwards of (by loop header).
  // Not the dataset's transforms, which a batch fetch runs in the loader.
  llvm::DenseMap<NodeId, llvm::SmallVector<VarId, 4>> forwardsIn;
  // Those of them the program's own code runs (not a module's forward,
  // which a build region describes: `self.pi.logits_net`).
  llvm::DenseMap<NodeId, llvm::SmallVector<VarId, 4>> writtenIn;
  // The modules (builds) each variable's forwards may run, by the points-
  // to: `model_s = module_list[0]` and a ModuleList the same model was
  // appended to (RepDistiller's trainable_list) share one.
  llvm::DenseMap<VarId, llvm::SmallVector<mlir::Attribute, 2>> buildsOf;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    VarId m = forwardModel(g, n);
    if (m == ~0u)
      continue;
    auto fw = llvm::cast<ir::ForwardOp>(g.node(n).op);
    if (fw->getParentOfType<ir::FetchOp>())
      continue;
    // (A forward of a model with builds enters their regions: its own
    // node is the call's entry.)
    if (!insideForward(g, n))
      for (NodeId loop : g.loops(n))
        if (!llvm::is_contained(writtenIn[loop], m))
          writtenIn[loop].push_back(m);
    if (g.node(n).kind == NodeKind::CallEnter)
      continue;
    for (mlir::Attribute b : fw.getBuilds())
      if (!llvm::is_contained(buildsOf[m], b))
        buildsOf[m].push_back(b);
    for (NodeId loop : g.loops(n))
      if (!llvm::is_contained(forwardsIn[loop], m))
        forwardsIn[loop].push_back(m);
  }
  // What a module built into a variable holds: its build, and the builds
  // its forward may run (a ModuleList's appended elements).
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    auto build = dyn_cast_or_null<ir::BuildOp>(g.node(n).op);
    if (!build || g.node(n).kind == NodeKind::CallEnter)
      continue;
    for (VarId d : g.node(n).defs) {
      llvm::SmallVector<mlir::Attribute, 2> &held = buildsOf[d];
      auto add = [&](mlir::Attribute b) {
        if (!llvm::is_contained(held, b))
          held.push_back(b);
      };
      add(build.getIdAttr());
      build.walk([&](ir::ForwardOp fw) {
        for (mlir::Attribute b : fw.getBuilds())
          add(b);
      });
    }
  }
  auto runsSameModule = [&](VarId a, VarId b) {
    auto ia = buildsOf.find(a), ib = buildsOf.find(b);
    return ia != buildsOf.end() && ib != buildsOf.end() &&
           llvm::any_of(ia->second, [&](mlir::Attribute x) {
             return llvm::is_contained(ib->second, x);
           });
  };
  // The optimizers' constructions: what their parameters came from.
  std::map<VarId, NodeId> built;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    auto call = dyn_cast_or_null<ir::LibCallOp>(g.node(n).op);
    if (call && call.getRole() == "optimizer" &&
        g.node(n).kind != NodeKind::CallEnter)
      for (VarId d : g.node(n).defs)
        built[d] = n;
  }
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    auto update = dyn_cast_or_null<ir::UpdateOp>(g.node(n).op);
    if (!update || g.node(n).kind == NodeKind::CallEnter ||
        !training.inTraining(n))
      continue;
    auto inLoop = forwardsIn.find(g.loops(n).back());
    if (inLoop == forwardsIn.end())
      continue;
    llvm::ArrayRef<VarId> loopModels = inLoop->second;
    for (VarId opt : g.node(n).uses) {
      auto it = built.find(opt);
      if (it == built.end())
        continue;
      // Only optimizers built from modules (not from a parameter list
      // detc cannot follow, nor from a value it can only name by a
      // temporary: `$5.master_params` of a trainer object an expression
      // made).
      llvm::SmallVector<VarId, 2> models;
      for (VarId u : g.node(it->second).uses)
        if (rel.isModel(u) &&
            !llvm::StringRef(g.displayName(u)).contains('$'))
          models.push_back(u);
      if (models.empty() ||
          llvm::any_of(models, [&](VarId u) {
            return llvm::any_of(loopModels, [&](VarId m) {
              return rel.related(u, m) || runsSameModule(u, m);
            });
          }))
        continue;
      // Name the model as the user wrote it (`features`, `ac.pi`), not a
      // layer its forward calls (`$1.conv`, `self.pi.logits_net`).
      VarId shown = loopModels.front();
      llvm::SmallVector<VarId, 4> written = writtenIn.lookup(g.loops(n).back());
      for (llvm::ArrayRef<VarId> candidates :
           {llvm::ArrayRef<VarId>(written), loopModels}) {
        auto it = llvm::find_if(candidates, [&](VarId m) {
          return !llvm::StringRef(g.displayName(m)).contains('$');
        });
        if (it != candidates.end()) {
          shown = *it;
          break;
        }
      }
      out.push_back(
          {"detc-optimizer-not-on-model", n,
           "this optimizer step updates the parameters of `" +
               g.displayName(models.front()) +
               "` (the optimizer built at " + lineOf(g, it->second) +
               "), but the training loop's forward runs `" +
               g.displayName(shown) +
               "`: its parameters are never updated; build the optimizer "
               "over the parameters of the model being trained",
           {{it->second, "the optimizer is built here"}}});
      break;
    }
  }
}

} // namespace

std::vector<LintFinding>
detc::analysis::trainingChecks(const StatementGraph &g) {
  std::vector<LintFinding> out;
  TrainingLoops training(g);
  evalNotRestored(g, training, out);
  if (distributed(g))
    rankConditional(g, out);
  ddpModuleForward(g, training, out);
  optimizerNotOnModel(g, training, out);
  StatementNodes nodes(g);
  layersNeverRun(
      g, nodes, [&](NodeId n) { return training.inTraining(n); }, out);
  workerState(g, nodes, out);
  return out;
}
