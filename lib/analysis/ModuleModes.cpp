//===- ModuleModes.cpp - Dropout that evaluation mode switches off --------===//
//
// A dropout *module* (`nn.Dropout`, an LSTM's dropout between layers, a
// torchvision model's dropout and stochastic depth: the layers the API
// tables mark `train_only`) draws only in training mode. A forward of a
// model that is certainly in evaluation mode (`model.eval()` on every path
// to it, not undone) draws nothing there, so those draws become plain
// statements: they are not unsafe uses (ThreadSafe/ERR), do not advance
// torch's generator (Needed, liveness), and need no keyed stream in the
// validation loop.
//
// The analysis is a forward must-analysis over the statement graph: the
// set of canonical variables certainly in evaluation mode. `X.eval()` adds
// X (and the variable its result is bound to: eval() returns the module;
// so does a move to a device, which keeps the mode); `X.train()` (on
// anything: it may be a submodule of another model) empties the set;
// rebinding a variable, assigning to a `training`
// attribute under it, or any other library call that updates it (it may
// call train() inside) removes it. The lowering marks the draws that follow
// a module's mode `module_mode`: those of `train_only` layers, and
// functional dropout whose `training` argument is a module's `.training`;
// `F.dropout(x, p)` (training=True by default) always draws.
//
//===----------------------------------------------------------------------===//

#include "ModuleModes.h"

#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>

using namespace detc;
using namespace detc::analysis;

namespace {
using Set = llvm::SmallVector<VarId, 4>; // sorted

bool under(llvm::StringRef inner, llvm::StringRef outer) {
  return inner.size() > outer.size() && inner.starts_with(outer) &&
         (inner[outer.size()] == '.' || inner[outer.size()] == '[');
}

class ModeAnalysis {
public:
  explicit ModeAnalysis(StatementGraph &g) : g(g) {}

  void run() {
    solve();
    // A forward is a CallEnter (its expansion follows) and, after the
    // expansion, a statement that carries its uses (the model).
    llvm::DenseMap<std::pair<mlir::Operation *, unsigned>, NodeId> statement;
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (g.node(n).kind == NodeKind::Stmt &&
          llvm::isa_and_nonnull<ir::ForwardOp>(g.node(n).op))
        statement[{g.node(n).op, g.node(n).instance}] = n;
    llvm::DenseSet<NodeId> evalForwards;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      const Node &node = g.node(n);
      auto fw = llvm::dyn_cast_or_null<ir::ForwardOp>(node.op);
      if (!fw || node.kind != NodeKind::CallEnter || !in[n])
        continue;
      auto it = statement.find({node.op, node.instance});
      if (it == statement.end())
        continue;
      VarId model = modelOf(g.node(it->second), fw);
      if (model != ~0u && llvm::is_contained(*in[n], model))
        evalForwards.insert(n);
    }
    if (evalForwards.empty())
      return;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      Node &node = g.node(n);
      if (node.kind != NodeKind::Draw || !followsModuleMode(node.op))
        continue;
      for (NodeId c = node.caller; c != kNoNode; c = g.node(c).caller)
        if (evalForwards.contains(c)) {
          node.kind = NodeKind::Stmt;
          node.genVar = ~0u;
          break;
        }
    }
  }

private:
  static bool followsModuleMode(mlir::Operation *op) {
    return llvm::isa_and_nonnull<ir::DrawOp>(op) &&
           op->hasAttr("module_mode");
  }

  VarId modelOf(const Node &node, ir::ForwardOp fw) const {
    llvm::StringRef name = llvm::StringRef(fw.getModel()).ltrim('@');
    for (VarId v : node.uses)
      if (g.displayName(v) == name)
        return v;
    return ~0u;
  }

  Set transfer(const Node &node, Set set) const {
    auto call = llvm::dyn_cast_or_null<ir::LibCallOp>(node.op);
    auto kill = [&](VarId changed) {
      llvm::StringRef c = g.vars.name(changed);
      llvm::erase_if(set, [&](VarId v) {
        llvm::StringRef name = g.vars.name(v);
        return v == changed || (under(c, name) && c.ends_with(".training")) ||
               under(name, c);
      });
    };
    auto add = [&](VarId v) {
      if (!llvm::is_contained(set, v))
        set.insert(llvm::upper_bound(set, v), v);
    };
    if (call && node.kind != NodeKind::CallEnter) {
      if (call.getRole() == "train_mode")
        return {};
      // eval() and a call returning its receiver (a move to a device)
      // return the module itself, in the mode it is in: `lpips =
      // LPIPS().eval().to(device)` (stargan-v2's metrics) binds `lpips` to
      // a module in evaluation mode. A move calls no train() inside.
      bool evalMode = call.getRole() == "eval_mode";
      if (evalMode || call.getReturnsReceiver()) {
        bool inEval =
            evalMode || (!node.updates.empty() &&
                         llvm::all_of(node.updates, [&](VarId v) {
                           return llvm::is_contained(set, v);
                         }));
        for (VarId v : node.defs)
          kill(v);
        if (inEval) {
          for (VarId v : node.updates)
            add(v);
          for (VarId v : node.defs)
            add(v);
        }
        return set;
      }
    }
    for (VarId v : node.defs)
      kill(v);
    if (call)
      for (VarId v : node.updates) {
        kill(v);
        llvm::StringRef c = g.vars.name(v);
        llvm::erase_if(set, [&](VarId m) { return under(c, g.vars.name(m)); });
      }
    return set;
  }

  static Set meet(const Set &a, const Set &b) {
    Set out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                          std::back_inserter(out));
    return out;
  }

  void solve() {
    in.assign(g.numNodes(), std::nullopt);
    std::deque<NodeId> work;
    std::vector<bool> queued(g.numNodes(), false);
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (g.node(n).kind == NodeKind::Entry) {
        in[n] = Set();
        work.push_back(n);
        queued[n] = true;
      }
    while (!work.empty()) {
      NodeId n = work.front();
      work.pop_front();
      queued[n] = false;
      Set out = transfer(g.node(n), *in[n]);
      for (NodeId s : g.successors(n)) {
        Set next = in[s] ? meet(*in[s], out) : out;
        if (in[s] && *in[s] == next)
          continue;
        in[s] = std::move(next);
        if (!queued[s]) {
          queued[s] = true;
          work.push_back(s);
        }
      }
    }
  }

  StatementGraph &g;
  /// Variables certainly in evaluation mode before each node (none: not
  /// reached from the entry).
  std::vector<std::optional<Set>> in;
};
} // namespace

void detc::analysis::switchOffEvalDropout(StatementGraph &g) {
  ModeAnalysis(g).run();
}
