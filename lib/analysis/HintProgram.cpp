//===- HintProgram.cpp - A script with hints as a CheckHint program -------===//

#include "detc/analysis/HintProgram.h"

#include "detc/ir/DetcOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>

using namespace detc;
using namespace detc::analysis;
using namespace mlir;
using Kind = ProgramItem::Kind;

namespace {

class ProgramBuilder {
public:
  ProgramBuilder(const CostSources &costs, HintProgram &out)
      : costs(costs), out(out) {}

  void items(Region &region, std::vector<ProgramItem> &into) {
    for (Block &block : region)
      for (Operation &op : block)
        item(&op, into);
  }

private:
  const CostSources &costs;
  HintProgram &out;

  std::optional<double> annotated(Operation *op) const {
    return costs.annotated ? costs.annotated(op) : std::nullopt;
  }
  std::optional<double> measured(Operation *op) const {
    return costs.measured ? costs.measured(op) : std::nullopt;
  }
  std::optional<MeasuredLoop> measuredLoop(Operation *op) const {
    return costs.measuredLoop ? costs.measuredLoop(op) : std::nullopt;
  }
  DenseMap<Operation *, bool> hintsIn;
  DenseMap<Operation *, double> funcCost;
  DenseSet<Operation *> visiting;

  Operation *callee(Operation *op) {
    auto call = dyn_cast<ir::CallOp>(op);
    return call ? SymbolTable::lookupNearestSymbolFrom(op, call.getCallee())
                : nullptr;
  }

  /// Whether a hint runs inside `op` (its regions, or a function it calls).
  bool hasHints(Operation *op) {
    if (isa<ir::HintOp>(op))
      return true;
    if (Operation *fn = callee(op))
      return hasHints(fn);
    if (auto it = hintsIn.find(op); it != hintsIn.end())
      return it->second;
    hintsIn[op] = false; // recursion: not through this path
    bool found = false;
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Operation &inner : b)
          if (!isa<ir::FuncOp, ir::ClassOp>(inner) && hasHints(&inner))
            found = true;
    hintsIn[op] = found;
    return found;
  }

  void warn(Operation *op, const std::string &message) {
    out.warnings.push_back({sourcePoint(op), message});
  }

  /// The default model: seconds per kind of work.
  static double modelled(Operation *op) {
    if (isa<ir::ForwardOp>(op))
      return 10e-3;
    if (isa<ir::GradOp>(op))
      return 20e-3;
    if (isa<ir::UpdateOp, ir::FetchOp>(op))
      return 5e-3;
    if (isa<ir::DrawOp>(op))
      return 0.1e-3;
    if (isa<ir::HintOp, ir::FuncOp, ir::ClassOp, ir::ReturnOp, ir::BreakOp,
            ir::ContinueOp>(op))
      return 0;
    return 10e-6;
  }

  /// Seconds `op` takes (a loop: all its iterations).
  double cost(Operation *op) {
    std::optional<double> given = annotated(op);
    auto loopIterations = [&]() -> std::optional<uint64_t> {
      if (auto f = dyn_cast<ir::ForOp>(op))
        return f.getIterations();
      if (auto w = dyn_cast<ir::WhileOp>(op))
        return w.getIterations();
      return std::nullopt;
    };
    bool isLoop = isa<ir::ForOp, ir::WhileOp>(op);
    if (given && !isLoop) {
      ++out.annotatedTasks;
      return *given;
    }
    if (!given)
      if (std::optional<double> m = measured(op)) {
        ++out.measuredTasks;
        return *m;
      }
    double body = 0;
    if (given) { // a loop header's annotation: one iteration
      ++out.annotatedTasks;
      body = *given;
    } else if (Operation *fn = callee(op)) {
      body = calleeCost(fn);
    } else {
      if (op->getNumRegions() == 0)
        ++out.modelledTasks;
      body = op->getNumRegions() ? 0 : modelled(op);
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Operation &inner : b)
            body += cost(&inner);
      if (!isLoop && op->getNumRegions())
        body += modelled(op);
    }
    if (!isLoop)
      return body;
    std::optional<uint64_t> n = loopIterations();
    if (!n) {
      warn(op, "this loop has no `_iterations: N` bound; its body is "
               "counted once");
      return body;
    }
    return double(*n) * body;
  }

  double calleeCost(Operation *fn) {
    if (auto it = funcCost.find(fn); it != funcCost.end())
      return it->second;
    if (!visiting.insert(fn).second)
      return 0; // recursion: counted once
    double sum = 0;
    for (Region &r : fn->getRegions())
      for (Block &b : r)
        for (Operation &inner : b)
          sum += cost(&inner);
    visiting.erase(fn);
    funcCost[fn] = sum;
    return sum;
  }

  void task(double seconds, std::vector<ProgramItem> &into) {
    if (seconds == 0)
      return;
    if (!into.empty() && into.back().kind == Kind::Task) {
      into.back().seconds += seconds;
      return;
    }
    ProgramItem t;
    t.seconds = seconds;
    into.push_back(std::move(t));
  }

  void item(Operation *op, std::vector<ProgramItem> &into) {
    if (out.error || isa<ir::FuncOp, ir::ClassOp>(op))
      return;
    if (!hasHints(op)) {
      task(cost(op), into);
      return;
    }
    if (auto hint = dyn_cast<ir::HintOp>(op)) {
      ProgramItem h;
      h.kind = Kind::Hint;
      SourcePoint at = sourcePoint(op);
      h.name = hint.getLabel() ? hint.getLabel()->str()
                               : "line " + std::to_string(at.line);
      // Two hints with one label stay apart (a call inlined twice is one
      // hint reached twice).
      auto [it, inserted] = out.hintOps.try_emplace(h.name, op);
      if (!inserted && it->second != op) {
        h.name += " (line " + std::to_string(at.line) + ")";
        out.hintOps.try_emplace(h.name, op);
      }
      // A hint takes no time: its annotation is the checkpoint's cost.
      if (std::optional<double> c = annotated(op))
        h.checkpointSeconds = *c;
      else if (std::optional<double> m = measured(op))
        h.checkpointSeconds = *m;
      into.push_back(std::move(h));
      return;
    }
    if (Operation *fn = callee(op)) {
      if (!visiting.insert(fn).second) {
        out.error = {sourcePoint(op), "a recursive call reaches checkpoint "
                                      "hints"};
        return;
      }
      for (Region &r : fn->getRegions())
        items(r, into);
      visiting.erase(fn);
      return;
    }
    if (isa<ir::ForOp, ir::WhileOp>(op)) {
      std::optional<uint64_t> n = isa<ir::ForOp>(op)
                                      ? cast<ir::ForOp>(op).getIterations()
                                      : cast<ir::WhileOp>(op).getIterations();
      std::optional<MeasuredLoop> m = measuredLoop(op);
      if (!n && m)
        n = uint64_t(std::max(1.0, std::round(m->iterations)));
      if (!n) {
        out.error = {sourcePoint(op),
                     "this loop holds checkpoint hints but has no "
                     "`_iterations: N` bound"};
        return;
      }
      if (annotated(op))
        warn(op, "the cost annotation of a loop that holds hints is ignored; "
                 "annotate the statements of its body");
      ProgramItem loop;
      loop.kind = Kind::Loop;
      loop.iterations = *n;
      if (m) {
        ++out.measuredTasks;
        task(m->headerSeconds, loop.body);
      }
      items(op->getRegion(0), loop.body);
      into.push_back(std::move(loop));
      return;
    }
    if (auto branch = dyn_cast<ir::IfOp>(op)) {
      bool thenHints = false, elseHints = false;
      for (Operation &inner : branch.getThenRegion().getOps())
        thenHints |= hasHints(&inner);
      for (Operation &inner : branch.getElseRegion().getOps())
        elseHints |= hasHints(&inner);
      if (thenHints && elseHints) {
        out.error = {sourcePoint(op), "both branches of this `if` hold "
                                      "checkpoint hints"};
        return;
      }
      items(thenHints ? branch.getThenRegion() : branch.getElseRegion(), into);
      return;
    }
    // `with`, `try`, parallel regions...: their regions in order.
    for (Region &r : op->getRegions())
      items(r, into);
  }
};

} // namespace

HintProgram detc::analysis::buildHintProgram(ModuleOp module,
                                             const CostSources &costs) {
  HintProgram out;
  Operation *entry = module.lookupSymbol("__main__");
  if (!entry) {
    out.error = {SourcePoint(), "no module entry (@__main__) to start from"};
    return out;
  }
  ProgramBuilder builder(costs, out);
  for (Region &r : entry->getRegions())
    builder.items(r, out.program.body);
  return out;
}
