//===- WorkerState.cpp - Datasets that carry state between examples -------===//
//
// detc-worker-state: a dataset's `__getitem__` (or a method of the same
// instance it calls) rebinds an attribute of the dataset that a later call
// reads before writing it — hifi-gan's MelDataset keeps the waveform it
// loaded last (`self.cached_wav`) and a countdown (`self._cache_ref_count`)
// and serves the next examples from it. Each DataLoader worker holds its
// own copy of the dataset, so what an example is depends on which worker
// made it and on what that worker made before: the data change with
// `num_workers`, and a resumed run (whose workers start with fresh copies)
// does not see what the uninterrupted one saw. No keyed stream fixes that:
// the state is the program's, not a generator's.
//
// A structured walk over each method's body: an attribute read where no
// write in this call precedes it on every path is a read of what an
// earlier call left. Only rebinding writes count (`self.x = ...`,
// `self.x += ...`); a store into a container (`self.cache[i] = load(i)`,
// a memo of what an index loads) is not taken for carried state.
//
//===----------------------------------------------------------------------===//

#include "TrainingChecks.h"

#include "detc/ir/DetcOps.h"

#include "mlir/IR/SymbolTable.h"

#include <map>
#include <optional>
#include <set>

using namespace detc;
using namespace detc::analysis;

namespace {

using Attrs = std::set<std::string>;

/// The dataset attribute `name` reads or writes (`self.cached.size` →
/// `cached`), or "" when it is no attribute of `self`.
std::string attributeOf(llvm::StringRef name) {
  if (!name.consume_front("self."))
    return "";
  return name.take_until([](char c) { return c == '.' || c == '['; }).str();
}

/// The variables of `op`'s `defs`, `updates` or `uses` list (the dialect's
/// accessor, as strings: the walk keeps them past the op).
std::vector<std::string> names(mlir::Operation *op, llvm::StringRef list) {
  std::vector<std::string> out;
  for (mlir::Attribute v : ir::detail::getVarList(op, list))
    if (auto s = llvm::dyn_cast<mlir::StringAttr>(v))
      out.push_back(s.str());
  return out;
}

/// Whether `func` has a `return` under an `if` or in a loop.
bool returnsEarly(mlir::Operation *func) {
  bool early = false;
  func->walk([&](ir::ReturnOp r) {
    if (r->getParentOp() != func)
      early = true;
  });
  return early;
}

/// What the methods of one dataset instance do with its attributes, made
/// from one example's call.
struct InstanceWalk {
  /// Where callees are looked up (`@Clips::@load` is the module's path).
  mlir::ModuleOp module;
  /// Attributes rebound, with the first statement rebinding each.
  std::map<std::string, mlir::Operation *> written;
  /// Attributes read before this call wrote them, with the first read.
  std::map<std::string, mlir::Operation *> carried;
  /// Attributes opened lazily (`if self.h5 is None: self.h5 =
  /// h5py.File(...)`, the idiom for a file handle per worker): the same
  /// whatever was made before.
  std::set<std::string> lazy;
  std::set<mlir::Operation *> active; ///< methods being walked (recursion)

  void method(mlir::Operation *func, Attrs &surely) {
    if (!func || !active.insert(func).second || active.size() > 8)
      return;
    for (mlir::Region &r : func->getRegions())
      region(r, surely);
    active.erase(func);
  }

  void region(mlir::Region &r, Attrs &surely) {
    for (mlir::Block &b : r)
      for (mlir::Operation &op : b)
        statement(&op, surely);
  }

  void noteLazyInit(mlir::Operation *ifOp) {
    std::string text = statementText(ifOp);
    llvm::StringRef test = llvm::StringRef(text).split('\n').first;
    for (const std::string &u : names(ifOp, "uses")) {
      std::string a = attributeOf(u);
      if (a.empty())
        continue;
      for (std::string idiom :
           {"self." + a + " is None", "not self." + a,
            "hasattr(self, '" + a + "')", "hasattr(self, \"" + a + "\")"})
        if (test.contains(idiom))
          lazy.insert(a);
    }
  }

  void statement(mlir::Operation *op, Attrs &surely) {
    for (const std::string &u : names(op, "uses"))
      if (std::string a = attributeOf(u); !a.empty() && !surely.count(a))
        carried.try_emplace(a, op);
    if (llvm::isa<ir::IfOp>(op)) {
      noteLazyInit(op);
      // What both branches surely write (a missing else writes nothing).
      std::optional<Attrs> both;
      for (mlir::Region &r : op->getRegions()) {
        Attrs branch = surely;
        region(r, branch);
        if (!both)
          both = branch;
        else
          for (auto it = both->begin(); it != both->end();)
            it = branch.count(*it) ? std::next(it) : both->erase(it);
      }
      if (both && op->getNumRegions() == 2)
        surely = *both;
    } else {
      // Loops, `with`, `try`: their bodies may not run (or not to the end).
      for (mlir::Region &r : op->getRegions()) {
        Attrs inside = surely;
        region(r, inside);
      }
    }
    if (auto call = llvm::dyn_cast<ir::CallOp>(op))
      if (auto bind = call.getBindAttr())
        if (auto self = bind.getAs<mlir::StringAttr>("self");
            self && self.getValue() == "self") {
          mlir::Operation *callee =
              mlir::SymbolTable::lookupSymbolIn(module, call.getCallee());
          Attrs inCallee = surely;
          method(callee, inCallee);
          // What the callee surely writes counts after the call, unless it
          // may return before the end.
          if (callee && !returnsEarly(callee))
            surely = inCallee;
        }
    std::vector<std::string> rebound = names(op, "defs");
    if (auto stmt = llvm::dyn_cast<ir::StmtOp>(op);
        stmt && stmt.getKind() == "augassign")
      for (const std::string &u : names(op, "updates"))
        rebound.push_back(u);
    for (const std::string &d : rebound) {
      llvm::StringRef rest(d);
      // `self.x = ...` rebinds x; `self.x.y = ...` changes x's object.
      if (std::string a = attributeOf(d);
          !a.empty() && rest.drop_front(5) == a) {
        written.try_emplace(a, op);
        surely.insert(a);
      }
    }
  }
};

} // namespace

void detc::analysis::workerState(const StatementGraph &g,
                                 StatementNodes &nodes,
                                 std::vector<LintFinding> &out) {
  mlir::ModuleOp module = nodes.module();
  if (!module)
    return;
  std::set<mlir::Operation *> reported;
  module.walk([&](ir::ParallelOp region) {
    if (region.getKind() != ir::ParallelKind::PerExample)
      return;
    region.walk([&](ir::CallOp call) {
      auto bind = call.getBindAttr();
      auto self = bind ? bind.getAs<mlir::StringAttr>("self") : nullptr;
      mlir::Operation *method =
          mlir::SymbolTable::lookupSymbolIn(module, call.getCallee());
      if (!self || !method || !reported.insert(method).second)
        return;
      InstanceWalk walk{module};
      Attrs surely;
      walk.method(method, surely);
      for (auto &[attr, read] : walk.carried) {
        auto w = walk.written.find(attr);
        if (w == walk.written.end() || walk.lazy.count(attr))
          continue;
        NodeId at = nodes.of(w->second), readAt = nodes.of(read);
        if (at == kNoNode || readAt == kNoNode)
          continue;
        std::string cls =
            call.getCallee().getRootReference().getValue().str();
        out.push_back(
            {"detc-worker-state", at,
             "`self." + attr + "` of `" + cls +
                 "` is rebound here while a DataLoader worker makes an "
                 "example (or a batch), and the next one reads it: each "
                 "worker has its own copy of the object, so what it makes "
                 "depends on which worker made it and what that worker "
                 "made before — the data change with num_workers, and a "
                 "resumed run's fresh workers do not see what the "
                 "uninterrupted run saw; make each example from its index "
                 "alone (load what it needs, or keep a cache keyed by the "
                 "index)",
             {{readAt, "read here before this call writes it"}}});
      }
    });
  });
}
