//===- Lint.cpp - Static training-loop misuse checks (SPEC §9) ------------===//
//
// The gradient-event analysis: forward, may (union at joins). Its state is
// a bit set:
//  * "the last gradient event" on some path reaching here, program-wide:
//    Start (none yet), Grad (a backward that accumulates into `.grad`),
//    Value (a gradient returned as a value: `tape.gradient`,
//    `torch.autograd.grad`), Zero (a zero_grad with no backward before it
//    since the last step), ZeroAfterGrad, Step;
//  * per optimizer, as two sparse sets (most optimizers are clean — zeroed
//    since their last step — at most points, and a script may build one
//    optimizer per training stage): Stepped, and SteppedThenGrad (a backward
//    accumulated on top of gradients it already applied).
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Lint.h"
#include "TrainingChecks.h"

#include "detc/analysis/DataflowSolver.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SparseBitVector.h"

#include <bitset>

using namespace detc;
using namespace detc::analysis;
using llvm::BitVector;
using llvm::dyn_cast_or_null;

namespace {
enum Event : unsigned { Start, Grad, Value, Zero, ZeroAfterGrad, Step, Last };

struct GradientState {
  /// A bitset, not a BitVector: a BitVector's inline words made a state
  /// 136 bytes (the solver keeps one per chain, and copies them often).
  std::bitset<Last> last;
  llvm::SparseBitVector<> stepped, steppedThenGrad;
  bool operator==(const GradientState &o) const {
    return last == o.last && stepped == o.stepped &&
           steppedThenGrad == o.steppedThenGrad;
  }
  bool operator!=(const GradientState &o) const { return !(*this == o); }
  void join(const GradientState &o) {
    last |= o.last;
    stepped |= o.stepped;
    steppedThenGrad |= o.steppedThenGrad;
  }
};

enum class Kind { None, GradAcc, GradValue, ZeroGrad, Update };

struct GradientEvents {
  const StatementGraph &g;
  /// Optimizers by their canonical variable.
  llvm::MapVector<VarId, unsigned> optimizers;
  std::vector<Kind> kind;
  std::vector<unsigned> slot; ///< Update/ZeroGrad: optimizer slot or ~0u.
  /// Per optimizer slot: the models whose parameters it was given (empty
  /// when its construction is not seen: then every backward concerns it).
  std::vector<llvm::SmallVector<VarId, 2>> models;

  /// A parameter copied from one variable only (`optimizer` of a helper
  /// that steps it, bound to the caller's `optimizer`): that variable.
  llvm::DenseMap<VarId, VarId> copiedFrom;

  explicit GradientEvents(const StatementGraph &g) : g(g) {
    kind.assign(g.numNodes(), Kind::None);
    slot.assign(g.numNodes(), ~0u);
    findCopies();
    for (NodeId n = 0; n < g.numNodes(); ++n)
      classify(n);
    markHandZeroing();
  }

  /// One optimizer, whatever a helper calls it: a step in `scaler(loss,
  /// optimizer)`'s body and the caller's `optimizer.zero_grad()` are of
  /// the same optimizer. A variable copied from several (a helper called
  /// with the generator's and the discriminator's optimizers) stays its
  /// own: the two are not merged.
  void findCopies() {
    llvm::DenseSet<VarId> several;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const Node &node = g.node(n);
      if (!node.copy || node.defs.size() != 1 || node.uses.size() != 1)
        continue;
      auto [it, added] = copiedFrom.try_emplace(node.defs[0], node.uses[0]);
      if (!added && it->second != node.uses[0])
        several.insert(node.defs[0]);
    }
    for (VarId v : several)
      copiedFrom.erase(v);
  }

  /// `v`, or the first of `vars` when `v` is none (an op's variable spelled
  /// in a way detc does not see: its first use).
  static VarId firstIfNone(llvm::ArrayRef<VarId> vars, VarId v) {
    return v != ~0u || vars.empty() ? v : vars.front();
  }

  VarId rootOf(VarId v) const {
    for (int depth = 0; depth < 16; ++depth) {
      auto it = copiedFrom.find(v);
      if (it == copiedFrom.end() || it->second == v)
        break;
      v = it->second;
    }
    return v;
  }

  /// Gradients cleared by hand: `for p in model.parameters(): p.grad =
  /// None` (or `p.grad.zero_()`, under an `if` too) zeroes the model's
  /// gradients. The loop's header is the event, so that the path that
  /// skips the body (no parameters) does not count as "not zeroed". Only
  /// for loops over a model (a variable some forward runs), so that
  /// clearing an input's gradient (PGD's `delta.grad.zero_()`) is not
  /// taken for a zero_grad.
  void markHandZeroing() {
    llvm::DenseSet<VarId> models;
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (auto f = dyn_cast_or_null<ir::ForwardOp>(g.node(n).op))
        if (VarId m = firstIfNone(g.node(n).uses,
                                  g.spelledIn(n, g.node(n).uses,
                                              f.getModel()));
            m != ~0u)
          models.insert(m);
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const Node &node = g.node(n);
      if (kind[n] != Kind::None || node.kind == NodeKind::CallEnter ||
          g.loops(n).empty())
        continue;
      auto clearsGrad = [&](VarId v) {
        return llvm::StringRef(g.vars.name(v)).ends_with(".grad");
      };
      if (llvm::none_of(node.defs, clearsGrad) &&
          llvm::none_of(node.updates, clearsGrad))
        continue;
      NodeId header = g.loops(n).back();
      const Node &loop = g.node(header);
      bool overModel =
          llvm::any_of(loop.uses, [&](VarId v) { return models.contains(v); });
      bool ofItsVariable = llvm::any_of(
          llvm::concat<const VarId>(node.defs, node.updates), [&](VarId v) {
            return clearsGrad(v) && llvm::any_of(loop.defs, [&](VarId target) {
                     return llvm::StringRef(g.vars.name(v))
                         .starts_with((g.vars.name(target) + ".").str());
                   });
          });
      if (overModel && ofItsVariable && !selective(node.op, loop.op) &&
          kind[header] == Kind::None)
        kind[header] = Kind::ZeroGrad; // slot ~0u: every optimizer
    }
  }

  /// Whether `op`, in the body of `loop`, runs for some parameters only,
  /// chosen by something other than their gradient: DINO's
  /// `if "last_layer" in n: p.grad = None` freezes one layer, it does not
  /// zero the model's gradients (`if p.grad is not None: p.grad.zero_()`
  /// does).
  static bool selective(mlir::Operation *op, mlir::Operation *loop) {
    for (mlir::Operation *p = op ? op->getParentOp() : nullptr;
         p && p != loop; p = p->getParentOp()) {
      if (!llvm::isa<ir::IfOp>(p))
        continue;
      bool testsGrad = false;
      for (mlir::Attribute a : ir::detail::getVarList(p, "uses"))
        if (llvm::cast<mlir::StringAttr>(a).getValue().ends_with(".grad"))
          testsGrad = true;
      if (!testsGrad)
        return true;
    }
    return false;
  }

  /// Gradients accumulate into `.grad` (and need zero_grad) in PyTorch
  /// only; TensorFlow's tape returns them.
  static bool isTensorFlow(mlir::Operation *op) {
    auto api = op->getAttrOfType<mlir::StringAttr>("api");
    return api && api.getValue().starts_with("tensorflow");
  }

  void classify(NodeId n) {
    const Node &node = g.node(n);
    mlir::Operation *op = node.op;
    if (!op || node.kind == NodeKind::CallEnter || isTensorFlow(op))
      return;
    if (llvm::isa<ir::GradOp>(op)) {
      // `.backward()` accumulates into `.grad` even where detc cannot tell
      // which model the loss came from (yolov5's `loss, items =
      // compute_loss(pred, targets)`): only `torch.autograd.grad` returns
      // its gradients.
      auto api = op->getAttrOfType<mlir::StringAttr>("api");
      bool accumulates = api && api.getValue().ends_with(".backward");
      kind[n] = node.updates.empty() && !accumulates ? Kind::GradValue
                                                     : Kind::GradAcc;
      return;
    }
    if (auto update = dyn_cast_or_null<ir::UpdateOp>(op)) {
      kind[n] = Kind::Update;
      VarId opt = rootOf(firstIfNone(
          node.uses, g.spelledIn(n, node.uses, update.getOptimizer())));
      slot[n] = optimizers.try_emplace(opt, optimizers.size()).first->second;
      return;
    }
    if (auto call = dyn_cast_or_null<ir::LibCallOp>(op))
      if (call.getRole() == "zero_grad")
        kind[n] = Kind::ZeroGrad;
  }

  /// Zero-grad receivers and optimizer models are resolved once every
  /// optimizer is known.
  void resolve() {
    models.assign(optimizers.size(), {});
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const Node &node = g.node(n);
      if (kind[n] == Kind::ZeroGrad)
        for (VarId v : node.uses)
          if (auto it = optimizers.find(rootOf(v)); it != optimizers.end())
            slot[n] = it->second;
      auto call = dyn_cast_or_null<ir::LibCallOp>(node.op);
      if (call && call.getRole() == "optimizer" &&
          node.kind != NodeKind::CallEnter)
        for (VarId d : node.defs)
          if (auto it = optimizers.find(rootOf(d)); it != optimizers.end())
            models[it->second].append(node.uses.begin(), node.uses.end());
    }
  }

  /// Whether the backward at `n` fills gradients optimizer `k` applies. A
  /// backward of a loss detc cannot trace to a model concerns none: that
  /// it adds to gradients a step already applied is not known (a lint's
  /// choice: guided-diffusion zeroes its parameter list by hand).
  bool concerns(NodeId n, unsigned k) const {
    if (g.node(n).updates.empty())
      return false;
    if (models[k].empty())
      return true;
    for (VarId v : g.node(n).updates)
      if (llvm::is_contained(models[k], v) ||
          llvm::is_contained(models[k], g.vars.objectOf(v)))
        return true;
    return false;
  }

  void transfer(NodeId n, const GradientState &in, GradientState &out) const {
    out = in;
    auto only = [&](unsigned b) {
      out.last.reset();
      out.last.set(b);
    };
    const std::bitset<Last> &last = in.last;
    switch (kind[n]) {
    case Kind::None:
      return;
    case Kind::GradAcc:
      only(Grad);
      for (unsigned k : in.stepped)
        if (concerns(n, k)) {
          out.stepped.reset(k);
          out.steppedThenGrad.set(k);
        }
      return;
    case Kind::GradValue: {
      bool afterGrad = last.test(Grad) || last.test(ZeroAfterGrad);
      only(Value);
      if (afterGrad)
        out.last.set(last.test(Grad) ? Grad : ZeroAfterGrad);
      return;
    }
    case Kind::ZeroGrad: {
      bool afterGrad = last.test(Grad) || last.test(ZeroAfterGrad);
      bool otherwise = last.test(Start) || last.test(Value) ||
                       last.test(Zero) || last.test(Step);
      out.last.reset();
      if (afterGrad)
        out.last.set(ZeroAfterGrad);
      if (otherwise)
        out.last.set(Zero);
      if (slot[n] == ~0u) {
        out.stepped.clear();
        out.steppedThenGrad.clear();
      } else {
        out.stepped.reset(slot[n]);
        out.steppedThenGrad.reset(slot[n]);
      }
      return;
    }
    case Kind::Update:
      only(Step);
      out.steppedThenGrad.reset(slot[n]);
      out.stepped.set(slot[n]);
      return;
    }
  }

  /// Walks the graph backwards from `from` (never through `from` again):
  /// `visit(p)` for each node reached, which says whether to walk on
  /// through it. Stops when `visit` says `Done`.
  enum class Walk { On, Stop, Done };
  template <typename Visit> void walkBackwards(NodeId from, Visit visit) const {
    std::vector<NodeId> work(1, from);
    llvm::DenseSet<NodeId> seen{from};
    while (!work.empty()) {
      NodeId x = work.back();
      work.pop_back();
      for (NodeId p : g.predecessors(x)) {
        if (!seen.insert(p).second)
          continue;
        Walk w = visit(p);
        if (w == Walk::Done)
          return;
        if (w == Walk::On)
          work.push_back(p);
      }
    }
  }

  /// Whether a backward reaches `n` on a path through no step and no
  /// zero_grad of optimizer `k`: another optimizer's step does not use up
  /// `k`'s gradients (DualGAN steps both discriminators after one
  /// backward).
  bool backwardSinceOwnStep(NodeId n, unsigned k) const {
    bool found = false;
    walkBackwards(n, [&](NodeId p) {
      if (kind[p] == Kind::GradAcc || kind[p] == Kind::GradValue) {
        found = true;
        return Walk::Done;
      }
      bool own = slot[p] == k || slot[p] == ~0u;
      return (kind[p] == Kind::Update || kind[p] == Kind::ZeroGrad) && own
                 ? Walk::Stop
                 : Walk::On;
    });
    return found;
  }

  /// Whether a backward may run on a path from `from` to `to` through no
  /// step: one reached walking backwards from `to`, not through a step nor
  /// `from`, from which walking backwards reaches `from`.
  bool backwardBetween(NodeId from, NodeId to) const {
    std::vector<NodeId> grads;
    walkBackwards(to, [&](NodeId p) {
      if (p == from || kind[p] == Kind::Update)
        return Walk::Stop;
      if (kind[p] == Kind::GradAcc)
        grads.push_back(p);
      return Walk::On;
    });
    for (NodeId grad : grads) {
      bool reached = false;
      walkBackwards(grad, [&](NodeId p) {
        if (p == from) {
          reached = true;
          return Walk::Done;
        }
        return kind[p] == Kind::Update ? Walk::Stop : Walk::On;
      });
      if (reached)
        return true;
    }
    return false;
  }

  /// Nodes of the given kinds reached walking backwards from `from`
  /// without going through a node of a `stop` kind (nor `from` again).
  std::vector<NodeId> reachedBackwards(NodeId from, llvm::ArrayRef<Kind> wanted,
                                       llvm::ArrayRef<Kind> stop) const {
    std::vector<NodeId> found;
    walkBackwards(from, [&](NodeId p) {
      if (llvm::is_contained(wanted, kind[p]))
        found.push_back(p);
      return llvm::is_contained(stop, kind[p]) ? Walk::Stop : Walk::On;
    });
    llvm::sort(found);
    return found;
  }
};

/// One finding per (rule, op): expansions of the same statement on several
/// call paths report once.
class FindingSet {
public:
  std::vector<LintFinding> findings;
  bool add(const StatementGraph &g, LintFinding f) {
    if (!seen.insert({f.rule, g.node(f.at).op}).second)
      return false;
    findings.push_back(std::move(f));
    return true;
  }

private:
  std::set<std::pair<std::string, mlir::Operation *>> seen;
};
} // namespace

static std::string lineOf(const StatementGraph &g, NodeId n) {
  return "line " + std::to_string(sourcePoint(g.node(n).op).line);
}

/// " in the loop at line N" for the innermost loop around `n`.
static std::string inLoop(const StatementGraph &g, const ControlFlow &cf,
                          NodeId n) {
  unsigned loop = cf.innermostLoop(n);
  if (loop == ~0u || !g.node(cf.loops()[loop].header).op)
    return "";
  return " in the loop at " + lineOf(g, cf.loops()[loop].header);
}

/// Whether `op` runs only when a test in its own function says so (an `if`
/// between it and its loop or function).
static bool isConditional(mlir::Operation *op) {
  for (mlir::Operation *p = op ? op->getParentOp() : nullptr; p;
       p = p->getParentOp()) {
    if (llvm::isa<ir::IfOp>(p))
      return true;
    if (llvm::isa<ir::ForOp, ir::WhileOp, ir::FuncOp>(p))
      return false;
  }
  return false;
}

/// Gradient accumulation (`if (i + 1) % accum == 0: step(); zero_grad()`),
/// often with the step behind a test of its own that agrees with the
/// zero_grad's (timm's and MAE's scaler: `loss_scaler(loss, opt,
/// update_grad=(i + 1) % accum == 0)` steps under `if update_grad:`): the
/// graph has a path that steps and then skips the zero_grad, which no run
/// takes. When every previous step of optimizer `k` that reaches step `n`
/// is conditional and a zero_grad of it runs between them on some path,
/// the tests are taken to agree (a lint, not a guarantee: two tests that
/// disagree are missed; docs/lints.md).
static bool accumulatesGradients(const GradientEvents &ev,
                                 const StatementGraph &g, NodeId n,
                                 unsigned k) {
  std::vector<NodeId> steps = ev.reachedBackwards(n, {Kind::Update},
                                                  {Kind::Update});
  if (!g.loops(n).empty()) // the same step, an iteration earlier
    steps.push_back(n);
  bool any = false;
  for (NodeId p : steps) {
    if (ev.slot[p] != k)
      continue;
    if (!isConditional(g.node(p).op))
      return false;
    any = true;
  }
  if (!any)
    return false;
  for (NodeId z : ev.reachedBackwards(n, {Kind::ZeroGrad}, {Kind::Update}))
    if (ev.slot[z] == k || ev.slot[z] == ~0u)
      return true;
  return false;
}

static void gradientFindings(const StatementGraph &g, const ControlFlow &cf,
                             const Liveness &live, const GradientEvents &ev,
                             FindingSet &out) {
  if (ev.optimizers.empty())
    return;
  DataGraph dg = forwardDataGraph(g);
  auto result = solveDataflow<GradientState>(
      dg, GradientState(),
      [&](NodeId n, GradientState &state) {
        if (n == g.entry)
          state.last.set(Start);
      },
      [](GradientState &acc, const GradientState &o) { acc.join(o); },
      [&](NodeId n, const GradientState &in, GradientState &o) {
        ev.transfer(n, in, o);
        // An optimizer no live variable holds takes no further step: drop
        // it, so the sets do not grow with every training stage run.
        IdSetView after = live.liveAfter(n);
        auto dead = [&](unsigned k) {
          return !after.test(ev.optimizers.begin()[k].first);
        };
        for (llvm::SparseBitVector<> *set : {&o.stepped, &o.steppedThenGrad})
          for (unsigned k : llvm::SparseBitVector<>(*set))
            if (dead(k))
              set->reset(k);
      });

  // The state before each step; other nodes' states are recomputed when
  // a finding asks for them.
  llvm::DenseMap<NodeId, GradientState> atUpdate;
  result.forEach([&](NodeId n, const GradientState &in) {
    if (ev.kind[n] == Kind::Update)
      atUpdate.try_emplace(n, in);
  });
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    if (ev.kind[n] != Kind::Update)
      continue;
    const GradientState &before = atUpdate[n];
    const std::bitset<Last> &in = before.last;
    if (in.none())
      continue; // Unreachable.
    if (in.test(ZeroAfterGrad)) {
      // Report at the zero_grad that runs between a backward and the step.
      for (NodeId z : ev.reachedBackwards(n, {Kind::ZeroGrad},
                                          {Kind::GradAcc, Kind::Update})) {
        std::bitset<Last> atZero = result.inAt(z).last;
        if (!atZero.test(Grad) && !atZero.test(ZeroAfterGrad))
          continue;
        // A backward that may run between this zero_grad and the step
        // makes it the clearing before gradients are computed (llm.c's
        // `zero_grad(); for micro_step in range(k): ...backward()` after a
        // one-off backward that wrote reference tensors): what reaches the
        // step with no backward since is a loop run no time or a backward
        // skipped, not this zero_grad misplaced.
        if (ev.backwardBetween(z, n))
          continue;
        std::vector<NodeId> grads = ev.reachedBackwards(
            z, {Kind::GradAcc}, {Kind::GradAcc, Kind::Update});
        LintFinding f{"detc-misplaced-zero-grad",
                      z,
                      "zero_grad() runs after backward() and before the "
                      "optimizer step at " +
                          lineOf(g, n) + ": the step applies zeroed gradients",
                      {}};
        if (!grads.empty())
          f.notes.push_back({grads.front(), "the gradients are computed here"});
        f.notes.push_back({n, "and the optimizer step is here"});
        out.add(g, std::move(f));
        break;
      }
    } else if (!in.test(Grad) && !in.test(Value) &&
               !ev.backwardSinceOwnStep(n, ev.slot[n])) {
      LintFinding f{"detc-step-without-backward",
                    n,
                    "optimizer step with no backward() since the previous "
                    "step or zero_grad() on any path that reaches it",
                    {}};
      std::vector<NodeId> before = ev.reachedBackwards(
          n, {Kind::ZeroGrad, Kind::Update}, {Kind::ZeroGrad, Kind::Update});
      if (!before.empty())
        f.notes.push_back({before.back(), ev.kind[before.back()] == Kind::Update
                                              ? "the previous step is here"
                                              : "gradients are reset here"});
      out.add(g, std::move(f));
    }
    if (before.steppedThenGrad.test(ev.slot[n]) &&
        !accumulatesGradients(ev, g, n, ev.slot[n])) {
      LintFinding f{"detc-missing-zero-grad",
                    n,
                    "gradients are not reset between optimizer steps" +
                        inLoop(g, cf, n) +
                        ": the backward() before this step adds to the "
                        "gradients the previous step already applied (call "
                        "zero_grad() before backward())",
                    {}};
      std::vector<NodeId> grads =
          ev.reachedBackwards(n, {Kind::GradAcc}, {Kind::ZeroGrad});
      if (!grads.empty())
        f.notes.push_back({grads.front(), "the gradients accumulate here"});
      out.add(g, std::move(f));
    }
  }
}

//===----------------------------------------------------------------------===//
// Optimizer built before the model is moved or wrapped
//===----------------------------------------------------------------------===//

/// A move or wrap of one of `models` (any model when `models` is empty)
/// that makes new parameter tensors (`new_parameters` on the op): a
/// `.to()` to an XLA device, FullyShardedDataParallel. A parallel wrapper
/// that shares the model's parameters (DistributedDataParallel,
/// DataParallel, `amp.initialize`) is not one, so an optimizer built
/// before it is correct.
static bool movesOrWraps(const StatementGraph &g, NodeId n,
                         llvm::ArrayRef<VarId> models, std::string &what) {
  const Node &node = g.node(n);
  if (!node.op || node.kind == NodeKind::CallEnter)
    return false;
  auto touches = [&] {
    if (models.empty())
      return true;
    for (VarId v : node.uses)
      if (llvm::is_contained(models, v) ||
          llvm::is_contained(models, g.vars.objectOf(v)))
        return true;
    return false;
  };
  // Only what makes new parameter tensors: a move to an XLA device, a
  // wrapper that flattens them (FSDP). A move to the CPU or CUDA converts
  // each parameter in place (torch's Module._apply sets `param.data`), so
  // the optimizer's references stay the module's: it was reported, wrongly
  // (the image-captioning tutorial's `decoder.to(device)` after its Adam).
  if (auto call = dyn_cast_or_null<ir::LibCallOp>(node.op))
    if (call.getRole() == "to_device" && call.getNewParameters() &&
        touches()) {
      what = "moved to an XLA device";
      return true;
    }
  if (auto build = dyn_cast_or_null<ir::BuildOp>(node.op))
    if (build.getNewParameters() && touches()) {
      what = "wrapped";
      return true;
    }
  return false;
}

/// Whether the move at `move` may run before optimizer `k`'s first step
/// after its construction at `o`: a path from `o` reaches it through no
/// step of `k`. A move once the optimizer has stepped (pix2pix's and
/// CycleGAN's save_networks: `net.cpu()` to save, then `net.cuda()`) is
/// not the mistake this lint is about: it is a round trip of a model in
/// training, not a model set up on one device and trained on another.
static bool beforeFirstStep(const GradientEvents &ev, NodeId o, NodeId move,
                            unsigned k) {
  bool reached = false;
  ev.walkBackwards(move, [&](NodeId p) {
    if (p == o) {
      reached = true;
      return GradientEvents::Walk::Done;
    }
    bool ownStep = ev.kind[p] == Kind::Update && ev.slot[p] == k;
    return ownStep ? GradientEvents::Walk::Stop : GradientEvents::Walk::On;
  });
  return reached;
}

static void optimizerBeforeMoveFindings(const StatementGraph &g,
                                        const ControlFlow &cf,
                                        const GradientEvents &ev,
                                        FindingSet &out) {
  // Moves and wraps by the variables they touch, so each optimizer looks
  // only at the ones on its models.
  llvm::DenseMap<VarId, llvm::SmallVector<NodeId, 2>> byVar;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    std::string what;
    if (!movesOrWraps(g, n, {}, what))
      continue;
    for (VarId v : g.node(n).uses) {
      byVar[v].push_back(n);
      if (g.vars.objectOf(v) != v)
        byVar[g.vars.objectOf(v)].push_back(n);
    }
  }
  for (NodeId o = 0; o < g.numNodes(); ++o) {
    auto call = dyn_cast_or_null<ir::LibCallOp>(g.node(o).op);
    if (!call || call.getRole() != "optimizer" ||
        g.node(o).kind == NodeKind::CallEnter)
      continue;
    // The first move or wrap of one of its models after the construction,
    // in program order.
    std::vector<NodeId> candidates;
    for (VarId m : g.node(o).uses)
      if (auto it = byVar.find(m); it != byVar.end())
        candidates.insert(candidates.end(), it->second.begin(),
                          it->second.end());
    llvm::sort(candidates);
    // The optimizer's slot among those that step (none: it never steps).
    unsigned k = ~0u;
    for (VarId d : g.node(o).defs)
      if (auto it = ev.optimizers.find(ev.rootOf(d));
          it != ev.optimizers.end())
        k = it->second;
    // A model moved before the optimizer was built and moved again later
    // (SCAN's `model = model.cuda()`, then `model.cuda()` once a
    // checkpoint is loaded) is moved where it already is: the optimizer's
    // tensors are the model's.
    if (llvm::any_of(candidates, [&](NodeId p) {
          return p != o && cf.followsInProgramOrder(p, o);
        }))
      continue;
    for (NodeId n : candidates) {
      std::string what;
      movesOrWraps(g, n, {}, what);
      if (!cf.followsInProgramOrder(o, n))
        continue;
      if (k != ~0u && !beforeFirstStep(ev, o, n, k))
        continue;
      out.add(g, {"detc-optimizer-before-move",
                  o,
                  "the optimizer is created before the model is " + what +
                      " at " + lineOf(g, n) +
                      ", which makes new parameter tensors: the optimizer "
                      "keeps updating the old ones; create it after the "
                      "model is " +
                      what,
                  {{n, "the model is " + what + " here"}}});
      break;
    }
  }
}

std::vector<LintFinding> detc::analysis::runLints(const StatementGraph &g,
                                                  const ControlFlow &cf,
                                                  const Liveness &live) {
  FindingSet out;
  // The steps, backwards and zero_grads, found once for both rules.
  GradientEvents ev(g);
  ev.resolve();
  gradientFindings(g, cf, live, ev, out);
  optimizerBeforeMoveFindings(g, cf, ev, out);
  for (LintFinding &f : trainingChecks(g))
    out.add(g, std::move(f));
  return std::move(out.findings);
}
