//===- TraceDescriptors.cpp - What a traced call is -----------------------===//
//
// The names a trace gives the calls it wraps (docs/traincheck.md,
// "Descriptors by role"): what a call is in the program — the model, a
// part of it, the loss — never the script's variable for it, so that
// invariants inferred on other people's pipelines apply.
//
//===----------------------------------------------------------------------===//

#include "TraceDescriptors.h"

#include "detc/ir/DetcOps.h"

#include <set>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {

/// What a forward calls, by its role in the program rather than by the
/// script's name for it, so that invariants inferred on one pipeline apply
/// to another (`criterion`, `loss_fn`; `model`, `net`, `netD`): `loss` (a
/// loss class's forward, or a forward whose result a backward
/// differentiates), `forward:layer.CLASS` (a part that a method of a model
/// class calls: `self.fc1(x)` is `forward:layer.Linear`, the class added
/// at run time), else `forward:model` (a model the training code calls).
std::string forwardDescriptor(ir::ForwardOp fw,
                              const llvm::StringMap<ir::BuildOp> &builds) {
  SmallVector<ir::BuildOp> built;
  for (Attribute id : fw.getBuilds())
    if (ir::BuildOp b = builds.lookup(cast<StringAttr>(id).getValue()))
      built.push_back(b);
  if (!built.empty() && llvm::all_of(built, [](ir::BuildOp b) {
        return b->hasAttr("loss");
      }))
    return "loss";
  auto func = fw->getParentOfType<ir::FuncOp>();
  auto cls = func ? func->getParentOfType<ir::ClassOp>() : nullptr;
  // A part: the runtime adds the class of the module it gets (the points-to
  // may not tell one class: `self.fc1` of a method several classes share).
  if (cls && cls.getRole() == ir::ClassRole::Model)
    return "forward:layer";
  // What a backward differentiates is the loss, whoever wrote its class
  // (`loss = criterion(out, y); loss.backward()` with the script's own
  // `class FocalLoss(nn.Module)`).
  ArrayAttr defs = fw.getDefsAttr();
  if (func && defs && defs.size() == 1) {
    StringRef result = cast<StringAttr>(defs[0]).getValue();
    bool differentiated = false;
    func.walk([&](ir::GradOp grad) {
      ArrayAttr uses = grad->getAttrOfType<ArrayAttr>("uses");
      differentiated |= uses && llvm::any_of(uses, [&](Attribute u) {
                          return cast<StringAttr>(u).getValue() == result;
                        });
    });
    if (differentiated)
      return "loss";
  }
  return "forward:model";
}

/// The loss of `op` (a loss forward or functional call), spelled so that a
/// loss class and its function agree (`nn.NLLLoss` and `F.nll_loss` are
/// `nll`); empty when `op` is no loss.
static std::string lossName(Operation *op,
                            const llvm::StringMap<ir::BuildOp> &builds) {
  std::string api;
  if (auto call = dyn_cast<ir::LibCallOp>(op);
      call && call.getRole() == "loss")
    api = call->getAttrOfType<StringAttr>("api").getValue().str();
  if (auto fw = dyn_cast<ir::ForwardOp>(op);
      fw && !fw.getBuilds().empty() && forwardDescriptor(fw, builds) == "loss")
    if (ir::BuildOp b = builds.lookup(
            cast<StringAttr>(fw.getBuilds()[0]).getValue()))
      api = b.getApi()   ? b.getApi()->str()
            : b.getCls() ? b.getCls()->str() // the script's own loss class
                         : "";
  std::string name;
  StringRef leaf = StringRef(api).contains('.')
                       ? StringRef(api).rsplit('.').second
                       : StringRef(api);
  for (char c : leaf)
    if (c != '_')
      name += llvm::toLower(c);
  return StringRef(name).consume_back("loss") ? name.substr(0, name.size() - 4)
                                              : name;
}

/// The loss a model's result goes into in the same function (`out =
/// net(x); loss = F.nll_loss(out, y)`, `criterion(netD(real), ones)`), by
/// lossName; empty when none does. A bound on what a model returns holds
/// for the pipelines whose model feeds that loss (log-probabilities for
/// nll_loss, logits for cross_entropy), so the trace scopes it with this.
/// `call`: the forward, or a statement whose only result is the call's.
std::string lossFed(Operation *call,
                    const llvm::StringMap<ir::BuildOp> &builds) {
  ArrayAttr defs = call->getAttrOfType<ArrayAttr>("defs");
  auto func = call->getParentOfType<ir::FuncOp>();
  if (!defs || defs.size() != 1 || !func)
    return "";
  StringRef out = cast<StringAttr>(defs[0]).getValue();
  std::string fed;
  func.walk([&](Operation *op) {
    ArrayAttr uses = op->getAttrOfType<ArrayAttr>("uses");
    if (!fed.empty() || op == call || !uses ||
        !llvm::any_of(uses, [&](Attribute u) {
          return cast<StringAttr>(u).getValue() == out;
        }))
      return;
    fed = lossName(op, builds);
  });
  return fed;
}

/// A plain dotted name (`net`, `self.model`): evaluating it twice changes
/// nothing, so the trace may pass it along or wrap it.
bool isDottedName(StringRef text) {
  return !text.empty() &&
         text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR"
                                "STUVWXYZ0123456789_.") == StringRef::npos;
}

/// Calls of code detc could not read (`net(x)` of a model from an import
/// it did not find) in a loop: (callee begin, callee text). Such a callee
/// may be a model; the runtime traces it as one if it is a module
/// (`forward:any`), and calls it untraced otherwise.
std::vector<std::pair<uint32_t, std::string>>
unreadCallees(Operation *op, StringRef src, const EditList &edits) {
  std::vector<std::pair<uint32_t, std::string>> out;
  auto calls = op->getAttrOfType<ArrayAttr>("unread_calls");
  if (!calls || !op->getParentOfType<ir::ForOp>())
    return out;
  for (Attribute a : calls) {
    auto d = dyn_cast<DictionaryAttr>(a);
    auto callee = d ? d.getAs<StringAttr>("callee") : nullptr;
    auto line = d ? d.getAs<IntegerAttr>("line") : nullptr;
    auto column = d ? d.getAs<IntegerAttr>("column") : nullptr;
    std::optional<uint32_t> start =
        line ? edits.lineStart(line.getInt()) : std::nullopt;
    if (!callee || !start || !column || column.getInt() < 1)
      continue;
    StringRef text = callee.getValue();
    if (!isDottedName(text))
      continue;
    uint64_t at = *start + column.getInt() - 1;
    // Where the text is (columns count bytes; anything else: left alone).
    if (at + text.size() <= src.size() && src.substr(at).starts_with(text) &&
        src.substr(at + text.size()).ltrim(" \t").starts_with("("))
      out.push_back({uint32_t(at), text.str()});
  }
  return out;
}

} // namespace detc::codegen
