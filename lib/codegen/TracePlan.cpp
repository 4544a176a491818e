//===- TracePlan.cpp - Training traces (--trace) --------------------------===//
//
// TrainCheck's traces (SPEC §9, issue 21, docs/traincheck.md), chosen
// statically from the IR instead of patching whole library namespaces:
// every call the analysis classifies — a model's forward, a backward, an
// optimizer step, zero_grad, train()/eval(), gradient clipping, a
// torch.distributed collective — is wrapped in
// `_detc_rt.trace.api(SITE, "KIND", API, callee)(args)`, which writes its
// entry and exit; so are the script's own functions a training step calls
// (kind "function") and each batch's fetch (`trace.batches` around the
// loop's iterable), as context records the relations do not read; the
// first statement of each training loop calls `_detc_rt.trace.step(EPOCH)`
// with the enclosing loop's variable, so that every record carries the
// epoch and step the IR knows rather than guesses.
//
//===----------------------------------------------------------------------===//

#include "PlanContext.h"
#include "StatementIndex.h"
#include "TraceDescriptors.h"
#include "detc/codegen/PythonScan.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {

namespace {

/// What the trace calls an op, or empty for ops it does not trace.
StringRef traceKind(Operation *op) {
  if (isa<ir::ForwardOp>(op))
    return "forward";
  if (isa<ir::GradOp>(op))
    return "backward";
  if (isa<ir::UpdateOp>(op))
    return "step";
  if (auto call = dyn_cast<ir::LibCallOp>(op))
    return llvm::StringSwitch<StringRef>(call.getRole())
        .Case("zero_grad", "zero_grad")
        .Case("train_mode", "train")
        .Case("eval_mode", "eval")
        .Case("clip_grad", "clip_grad")
        .Case("lr_step", "lr_step")
        .Case("collective", "collective")
        .Case("loss", "loss")
        .Default("");
  return "";
}

/// A training loop: a loop over batches whose iterations step an optimizer
/// (directly or in a function they call); evaluation loops are not steps.
bool isTrainingLoop(ir::ForOp loop) {
  bool steps = false;
  loop.walk([&](Operation *op) { steps |= isa<ir::UpdateOp, ir::CallOp>(op); });
  return ir::takesBatches(loop) && steps;
}

/// Whether `op` runs in a training step: inside a training loop's body.
bool inTrainingStep(Operation *op) {
  for (auto loop = op->getParentOfType<ir::ForOp>(); loop;
       loop = loop->getParentOfType<ir::ForOp>())
    if (isTrainingLoop(loop))
      return true;
  return false;
}


} // namespace

bool planTrace(PlanContext &ctx) {
  if (!ctx.options.trace && !ctx.options.check)
    return true;
  // Calls.
  std::vector<std::pair<Operation *, StringRef>> calls; // (op, kind)
  // `scheduler.step()` of a variable an lr_scheduler call defined (the
  // lowering leaves it a plain statement).
  std::set<std::string> schedulers;
  ctx.module.walk([&](ir::LibCallOp call) {
    if (call.getRole() == "lr_schedule")
      if (auto defs = call->getAttrOfType<ArrayAttr>("defs"))
        for (Attribute d : defs)
          schedulers.insert(cast<StringAttr>(d).getValue().str());
  });
  // Calls that are optimizer steps: the `step` of an optimizer class of the
  // script is a call of its method and the update the lowering adds, at
  // the same place; the update is traced (as `optimizer.step`).
  llvm::StringMap<ir::BuildOp> builds;
  ctx.module.walk([&](ir::BuildOp b) { builds[b.getId()] = b; });
  std::set<uint32_t> stepsAt;
  ctx.module.walk([&](ir::UpdateOp update) {
    if (std::optional<Span> s = ctx.spanOf(update))
      stepsAt.insert(s->exprBegin);
  });
  ctx.module.walk([&](Operation *op) {
    // A build's region models what the built object runs (the forward a
    // DistributedDataParallel wraps), not a call written there.
    std::optional<Span> s = ctx.spanOf(op);
    if (!s || op->getParentOfType<ir::BuildOp>())
      return;
    if (!traceKind(op).empty()) {
      calls.push_back({op, traceKind(op)});
      return;
    }
    // The script's own functions a training step calls (`pgd_attack(...)`,
    // `average_gradients(model)`): context records around what they call.
    // (Not the dataset's `__getitem__` a fetch models: no call written.)
    if (isa<ir::CallOp>(op) && !op->getParentOfType<ir::FetchOp>() &&
        inTrainingStep(op) && !stepsAt.count(s->exprBegin)) {
      calls.push_back({op, "function"});
      return;
    }
    if (isa<ir::StmtOp>(op))
      for (const std::string &var : schedulers)
        if (ctx.src.substr(s->exprBegin).starts_with(var + ".step("))
          calls.push_back({op, "lr_step"});
  });
  // site -> (the callee as written, its line): `names=` of enable().
  std::string names;
  for (auto [op, kind] : calls) {
    Span s = *ctx.spanOf(op);
    std::optional<uint32_t> end = calleeEnd(ctx.src, s.exprBegin, s.exprEnd);
    if (!end)
      continue; // not a call written here (a `with` manager, ...)
    // API descriptors, not library names: invariants inferred on a
    // pipeline with SGD hold for one with Adam.
    auto api = op->getAttrOfType<StringAttr>("api");
    std::string name = llvm::StringSwitch<std::string>(kind)
                           .Case("step", "optimizer.step")
                           .Case("zero_grad", "optimizer.zero_grad")
                           .Case("train", "module.train")
                           .Case("eval", "module.eval")
                           .Case("lr_step", "scheduler.step")
                           .Default(kind.str());
    if (api && api.getValue() == "torch.autograd.grad")
      name = "autograd.grad";
    if (kind == "collective" && api)
      name = "distributed." + api.getValue().rsplit('.').second.str();
    if (auto call = dyn_cast<ir::CallOp>(op); call && kind == "function")
      name = "call:" + call.getCallee().getLeafReference().str();
    if (auto fw = dyn_cast<ir::ForwardOp>(op))
      name = forwardDescriptor(fw, builds);
    // The receiver of a method (`opt` of `opt.step`), passed along when it
    // is a plain dotted name (evaluating it twice changes nothing): a
    // scheduler replaces `opt.step` by a function that has no __self__.
    StringRef callee = ctx.src.slice(s.exprBegin, *end);
    StringRef receiver = callee.rsplit('.').first;
    bool dotted = callee.contains('.') && isDottedName(receiver);
    std::string feeds;
    if (auto fw = dyn_cast<ir::ForwardOp>(op); fw && name == "forward:model")
      if (std::string loss = lossFed(fw, builds); !loss.empty())
        feeds = ", feeds=" + pyString(loss);
    unsigned site = ctx.newSite();
    // The script's own name for what the descriptor names, for reports.
    names += formatv("{0}: ({1}, {2}), ", site, pyString(callee),
                     ctx.userLine(op))
                 .str();
    ctx.edits.wrap(s.exprBegin, *end,
                   formatv("{0}.trace.api({1}, \"{2}\", {3}, ", kRuntimeAlias,
                           site, kind, pyString(name))
                       .str(),
                   (dotted ? (", " + receiver).str() : std::string()) + feeds +
                       ")");
    ctx.edits.note(
        ctx.edits.lineOf(commentableLineEnd(ctx.src, s.stmtBegin, *end)),
        "traced");
  }
  // Calls of code detc could not read, in loops: maybe models.
  std::set<uint32_t> wrapped;
  ctx.module.walk([&](Operation *op) {
    if (op->getParentOfType<ir::BuildOp>())
      return;
    for (auto &[begin, text] : unreadCallees(op, ctx.src, ctx.edits)) {
      if (!wrapped.insert(begin).second)
        continue;
      std::string loss = lossFed(op, builds);
      unsigned site = ctx.newSite();
      names += formatv("{0}: ({1}, {2}), ", site, pyString(text),
                       ctx.userLine(op))
                   .str();
      ctx.edits.wrap(begin, begin + text.size(),
                     formatv("{0}.trace.api({1}, \"forward\", 'forward:any', ",
                             kRuntimeAlias, site)
                         .str(),
                     (loss.empty() ? std::string()
                                   : ", feeds=" + pyString(loss)) +
                         ")");
      ctx.edits.note(ctx.edits.lineOf(begin), "traced");
    }
  });
  // Steps: the loops over batches, with the loop around them as the epoch.
  StatementIndex places(ctx.tree);
  ctx.module.walk([&](ir::ForOp loop) {
    std::optional<Span> span = ctx.spanOf(loop);
    if (!isTrainingLoop(loop) || !span)
      return;
    const StmtPlace *place = places.at(span->stmtBegin);
    auto *f = place ? dyn_cast<ast::For>(place->stmt) : nullptr;
    if (!f || f->body.empty())
      return;
    std::optional<StringRef> indent =
        ctx.indentAt(f->body.front()->getRange().begin.offset);
    if (!indent)
      return; // the body shares the header's line
    std::string epoch = "None";
    for (const StmtPlace *outer = places.of(f);
         outer && outer->parent;) {
      const StmtPlace *up = places.of(outer->parent);
      if (auto *of = dyn_cast<ast::For>(outer->parent))
        if (auto *name = dyn_cast<ast::Name>(of->target)) {
          epoch = name->id.str();
          break;
        }
      // A loop in `train_epoch(model, loader, epoch)`: the caller's epoch
      // comes in as a parameter.
      if (auto *def = dyn_cast<ast::FunctionDef>(outer->parent)) {
        if (def->args)
          for (const ast::Arg *a : def->args->args)
            if (StringRef(a->arg).contains("epoch"))
              epoch = a->arg.str();
        break;
      }
      outer = up;
    }
    ctx.edits.insertLines(
        ctx.edits.lineOf(f->body.front()->getRange().begin.offset),
        {formatv("{0}{1}.trace.step({2}, {3})", *indent, kRuntimeAlias,
                 ctx.newSite(), epoch)
             .str()},
        "traced: a training step begins");
    // Each batch's fetch (torch.utils.data): a context record around it.
    if (f->iter) {
      uint32_t b = f->iter->getRange().begin.offset,
               e = f->iter->getRange().end.offset;
      ctx.edits.wrap(b, e,
                     formatv("{0}.trace.batches({1}, ", kRuntimeAlias,
                             ctx.newSite())
                         .str(),
                     ")");
      ctx.edits.note(ctx.edits.lineOf(b), "traced");
    }
  });
  std::string dir = !ctx.options.trace            ? "None"
                    : ctx.options.trace->empty() ? pyString("detc-trace")
                                                 : pyString(*ctx.options.trace);
  std::string check =
      ctx.options.check ? ", check=" + pyString(*ctx.options.check) : "";
  ctx.extraHeader.push_back(formatv("{0}.trace.enable({1}{2}, names={{{3}})",
                                    kRuntimeAlias, dir, check, names)
                                .str());
  return true;
}

} // namespace detc::codegen
