//===- Lint.cpp - Static training-loop misuse checks (SPEC §9) ------------===//
//
// The gradient-event analysis: forward, may (union at joins). Its state is
// a bit set:
//  * "the last gradient event" on some path reaching here, program-wide:
//    Start (none yet), Grad (a backward that accumulates into `.grad`),
//    Value (a gradient returned as a value: `tape.gradient`,
//    `torch.autograd.grad`), Zero (a zero_grad with no backward before it
//    since the last step), ZeroAfterGrad, Step;
//  * per optimizer: Clean (zeroed since its last step), Stepped, and
//    SteppedThenGrad (a backward accumulated on top of gradients it already
//    applied).
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Lint.h"

#include "detc/analysis/DataflowSolver.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace detc;
using namespace detc::analysis;
using llvm::BitVector;
using llvm::dyn_cast_or_null;

namespace {
enum Event : unsigned { Start, Grad, Value, Zero, ZeroAfterGrad, Step, Last };
enum PerOptimizer : unsigned { Clean, Stepped, SteppedThenGrad, Width };

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

  explicit GradientEvents(const StatementGraph &g) : g(g) {
    kind.assign(g.numNodes(), Kind::None);
    slot.assign(g.numNodes(), ~0u);
    for (NodeId n = 0; n < g.numNodes(); ++n)
      classify(n);
  }

  unsigned bit(unsigned optimizer, PerOptimizer b) const {
    return Last + optimizer * Width + b;
  }
  unsigned width() const { return Last + optimizers.size() * Width; }

  /// The canonical variable among `vars` that is spelled `name` in the
  /// source, or the first one.
  VarId pick(llvm::ArrayRef<VarId> vars, llvm::StringRef name) const {
    for (VarId v : vars)
      if (g.displayName(v) == name.ltrim('@'))
        return v;
    return vars.empty() ? ~0u : vars.front();
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
      kind[n] = node.updates.empty() ? Kind::GradValue : Kind::GradAcc;
      return;
    }
    if (auto update = dyn_cast_or_null<ir::UpdateOp>(op)) {
      kind[n] = Kind::Update;
      VarId opt = pick(node.uses, update.getOptimizer());
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
          if (auto it = optimizers.find(v); it != optimizers.end())
            slot[n] = it->second;
      auto call = dyn_cast_or_null<ir::LibCallOp>(node.op);
      if (call && call.getRole() == "optimizer" &&
          node.kind != NodeKind::CallEnter)
        for (VarId d : node.defs)
          if (auto it = optimizers.find(d); it != optimizers.end())
            models[it->second].append(node.uses.begin(), node.uses.end());
    }
  }

  /// Whether the backward at `n` fills gradients optimizer `k` applies.
  bool concerns(NodeId n, unsigned k) const {
    if (models[k].empty())
      return true;
    for (VarId v : g.node(n).updates)
      if (llvm::is_contained(models[k], v) ||
          llvm::is_contained(models[k], g.vars.objectOf(v)))
        return true;
    return false;
  }

  void transfer(NodeId n, const BitVector &in, BitVector &out) const {
    out = in;
    auto only = [&](unsigned b) {
      for (unsigned e = 0; e < Last; ++e)
        out.reset(e);
      out.set(b);
    };
    switch (kind[n]) {
    case Kind::None:
      return;
    case Kind::GradAcc:
      only(Grad);
      for (unsigned k = 0; k < optimizers.size(); ++k)
        if (in.test(bit(k, Stepped)) && concerns(n, k)) {
          out.reset(bit(k, Stepped));
          out.set(bit(k, SteppedThenGrad));
        }
      return;
    case Kind::GradValue: {
      bool afterGrad = in.test(Grad) || in.test(ZeroAfterGrad);
      only(Value);
      if (afterGrad)
        out.set(in.test(Grad) ? Grad : ZeroAfterGrad);
      return;
    }
    case Kind::ZeroGrad: {
      bool afterGrad = in.test(Grad) || in.test(ZeroAfterGrad);
      bool otherwise = in.test(Start) || in.test(Value) || in.test(Zero) ||
                       in.test(Step);
      for (unsigned e = 0; e < Last; ++e)
        out.reset(e);
      if (afterGrad)
        out.set(ZeroAfterGrad);
      if (otherwise)
        out.set(Zero);
      for (unsigned k = 0; k < optimizers.size(); ++k) {
        if (slot[n] != ~0u && slot[n] != k)
          continue;
        out.reset(bit(k, Stepped));
        out.reset(bit(k, SteppedThenGrad));
        out.set(bit(k, Clean));
      }
      return;
    }
    case Kind::Update:
      only(Step);
      out.reset(bit(slot[n], Clean));
      out.reset(bit(slot[n], SteppedThenGrad));
      out.set(bit(slot[n], Stepped));
      return;
    }
  }

  /// Nodes of the given kinds reached walking backwards from `from`
  /// without going through a node of a `stop` kind (nor `from` again).
  std::vector<NodeId> reachedBackwards(NodeId from,
                                       llvm::ArrayRef<Kind> wanted,
                                       llvm::ArrayRef<Kind> stop) const {
    std::vector<NodeId> found, work(1, from);
    llvm::DenseSet<NodeId> seen{from};
    while (!work.empty()) {
      NodeId n = work.back();
      work.pop_back();
      for (NodeId p : g.predecessors(n)) {
        if (!seen.insert(p).second)
          continue;
        if (llvm::is_contained(wanted, kind[p]))
          found.push_back(p);
        if (!llvm::is_contained(stop, kind[p]))
          work.push_back(p);
      }
    }
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

static void gradientFindings(const StatementGraph &g, const ControlFlow &cf,
                             FindingSet &out) {
  GradientEvents ev(g);
  ev.resolve();
  if (ev.optimizers.empty())
    return;
  DataGraph dg = forwardDataGraph(g);
  unsigned width = ev.width();
  auto result = solveDataflow<BitVector>(
      dg, BitVector(width),
      [&](NodeId n, BitVector &state) {
        if (n != g.entry)
          return;
        state.set(Start);
        for (unsigned k = 0; k < ev.optimizers.size(); ++k)
          state.set(ev.bit(k, Clean));
      },
      [](BitVector &acc, const BitVector &o) { acc |= o; },
      [&](NodeId n, const BitVector &in, BitVector &o) {
        ev.transfer(n, in, o);
      });

  for (NodeId n = 0; n < g.numNodes(); ++n) {
    if (ev.kind[n] != Kind::Update)
      continue;
    const BitVector &in = result.in[n];
    if (in.none())
      continue; // Unreachable.
    if (in.test(ZeroAfterGrad)) {
      // Report at the zero_grad that runs between a backward and the step.
      for (NodeId z : ev.reachedBackwards(n, {Kind::ZeroGrad},
                                          {Kind::GradAcc, Kind::Update})) {
        if (!result.in[z].test(Grad) && !result.in[z].test(ZeroAfterGrad))
          continue;
        std::vector<NodeId> grads = ev.reachedBackwards(
            z, {Kind::GradAcc}, {Kind::GradAcc, Kind::Update});
        LintFinding f{"detc-misplaced-zero-grad", z,
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
    } else if (!in.test(Grad) && !in.test(Value)) {
      LintFinding f{"detc-step-without-backward", n,
                    "optimizer step with no backward() since the previous "
                    "step or zero_grad() on any path that reaches it",
                    {}};
      std::vector<NodeId> before = ev.reachedBackwards(
          n, {Kind::ZeroGrad, Kind::Update}, {Kind::ZeroGrad, Kind::Update});
      if (!before.empty())
        f.notes.push_back({before.back(), ev.kind[before.back()] ==
                                                  Kind::Update
                                              ? "the previous step is here"
                                              : "gradients are reset here"});
      out.add(g, std::move(f));
    }
    if (in.test(ev.bit(ev.slot[n], SteppedThenGrad))) {
      LintFinding f{"detc-missing-zero-grad", n,
                    "gradients are not reset between optimizer steps" +
                        inLoop(g, cf, n) +
                        ": the backward() before this step adds to the "
                        "gradients the previous step already applied (call "
                        "zero_grad() before backward())",
                    {}};
      std::vector<NodeId> grads =
          ev.reachedBackwards(n, {Kind::GradAcc}, {Kind::ZeroGrad});
      if (!grads.empty())
        f.notes.push_back(
            {grads.front(), "the gradients accumulate here"});
      out.add(g, std::move(f));
    }
  }
}

//===----------------------------------------------------------------------===//
// Optimizer built before the model is moved or wrapped
//===----------------------------------------------------------------------===//

/// A `.to()`/`.cuda()` on, or a parallel wrapper around, one of `models`.
static bool movesOrWraps(const StatementGraph &g, NodeId n,
                         llvm::ArrayRef<VarId> models, std::string &what) {
  const Node &node = g.node(n);
  if (!node.op || node.kind == NodeKind::CallEnter)
    return false;
  auto touches = [&] {
    for (VarId v : node.uses)
      if (llvm::is_contained(models, v) ||
          llvm::is_contained(models, g.vars.objectOf(v)))
        return true;
    return false;
  };
  if (auto call = dyn_cast_or_null<ir::LibCallOp>(node.op))
    if (call.getRole() == "to_device" && touches()) {
      what = "moved";
      return true;
    }
  if (auto build = dyn_cast_or_null<ir::BuildOp>(node.op)) {
    bool wrapper = false;
    build.getBody().walk([&](ir::ParallelOp) { wrapper = true; });
    if (wrapper && touches()) {
      what = "wrapped";
      return true;
    }
  }
  return false;
}

static void optimizerBeforeMoveFindings(const StatementGraph &g,
                                        const ControlFlow &cf,
                                        FindingSet &out) {
  for (NodeId o = 0; o < g.numNodes(); ++o) {
    auto call = dyn_cast_or_null<ir::LibCallOp>(g.node(o).op);
    if (!call || call.getRole() != "optimizer" ||
        g.node(o).kind == NodeKind::CallEnter)
      continue;
    llvm::ArrayRef<VarId> models = g.node(o).uses;
    // The first move or wrap after the construction, in program order
    // (forward edges only).
    llvm::BitVector later = cf.forwardReachable(o);
    for (int n = later.find_first(); n != -1; n = later.find_next(n)) {
      std::string what;
      if (NodeId(n) == o || !movesOrWraps(g, n, models, what))
        continue;
      out.add(g, {"detc-optimizer-before-move", o,
                  "the optimizer is created before the model is " + what +
                      " at " + lineOf(g, n) +
                      ": it keeps references to the old parameter "
                      "tensors; create it after the model is " + what,
                  {{NodeId(n), "the model is " + what + " here"}}});
      break;
    }
  }
}

std::vector<LintFinding> detc::analysis::runLints(const StatementGraph &g,
                                                  const ControlFlow &cf) {
  FindingSet out;
  gradientFindings(g, cf, out);
  optimizerBeforeMoveFindings(g, cf, out);
  return std::move(out.findings);
}
