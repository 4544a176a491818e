//===- DetcOps.cpp - Operations of the detc dialect -----------------------===//

#include "detc/ir/DetcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace detc::ir;

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

static bool isIdentStart(unsigned char c) {
  // Non-ASCII bytes belong to Unicode identifiers, which the parser has
  // already validated.
  return c == '_' || std::isalpha(c) || c >= 0x80;
}

static bool isIdentChar(unsigned char c) {
  return isIdentStart(c) || std::isdigit(c);
}

/// Consumes one identifier from the front of `s`.
static bool consumeIdent(StringRef &s) {
  if (s.empty() || !isIdentStart(s.front()))
    return false;
  size_t n = 1;
  while (n < s.size() && isIdentChar(s[n]))
    ++n;
  s = s.drop_front(n);
  return true;
}

bool detc::ir::isValidVarName(StringRef name) {
  StringRef rest = name;
  if (rest.consume_front("$")) {
    // Temporaries: `$<digits>`, optionally followed by an attribute path.
    size_t n = 0;
    while (n < rest.size() && std::isdigit((unsigned char)rest[n]))
      ++n;
    if (n == 0)
      return false;
    rest = rest.drop_front(n);
  } else if (rest.consume_front("<")) {
    size_t close = rest.find('>');
    if (close == StringRef::npos || !isKnownRngLibrary(rest.take_front(close)))
      return false;
    rest = rest.drop_front(close + 1);
  } else {
    (void)(rest.consume_front("@") || rest.consume_front("^"));
    if (!consumeIdent(rest))
      return false;
  }
  while (rest.consume_front("."))
    if (!consumeIdent(rest))
      return false;
  return rest.empty();
}

bool detc::ir::takesBatches(Operation *loop) {
  if (!isa_and_nonnull<ForOp, WhileOp>(loop))
    return false;
  for (Operation &op : loop->getRegion(0).front()) {
    auto region = dyn_cast<ParallelOp>(op);
    // A counted step's region takes no batches: its loop is found as one
    // that steps (JitPlan's steppingLoops), not ahead of a loader's.
    if (isa<FetchOp>(op) || (region && !region.getCounted() &&
                             region.getKind() == ParallelKind::PerBatch))
      return true;
  }
  return false;
}

bool detc::ir::isKnownRngLibrary(StringRef library) {
  return library == "torch" || library == "numpy" || library == "random" ||
         library == "tensorflow";
}

std::string detc::ir::globalGeneratorVar(StringRef library) {
  return ("<" + library + ">").str();
}

ArrayRef<Attribute> detc::ir::detail::getVarList(Operation *op,
                                                 StringRef name) {
  if (auto list = op->getAttrOfType<ArrayAttr>(name))
    return list.getValue();
  return {};
}

static LogicalResult verifyVarNames(Operation *op, StringRef listName,
                                    ArrayRef<Attribute> vars) {
  for (Attribute a : vars) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s || !isValidVarName(s.getValue()))
      return op->emitOpError() << "'" << listName << "' entry " << a
                               << " is not a variable name";
  }
  return success();
}

LogicalResult detc::ir::detail::verifyVarAccess(Operation *op) {
  for (StringRef list : {"defs", "updates", "uses"})
    if (failed(verifyVarNames(op, list, getVarList(op, list))))
      return failure();
  return success();
}

static LogicalResult verifyLibrary(Operation *op, StringRef library) {
  if (!isKnownRngLibrary(library))
    return op->emitOpError() << "unknown generator library '" << library
                             << "' (expected torch, numpy, random or "
                                "tensorflow)";
  return success();
}

static LogicalResult verifyWorkers(Operation *op, StringRef workers) {
  unsigned n;
  if (workers != "unknown" && workers.getAsInteger(10, n))
    return op->emitOpError() << "workers must be a number or 'unknown', got '"
                             << workers << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult FuncOp::verify() {
  if (getKind() == FuncKind::Module && !getParams().empty())
    return emitOpError("of kind 'module' cannot have parameters");
  llvm::StringSet<> seen;
  for (Attribute p : getParams()) {
    StringRef name = cast<StringAttr>(p).getValue();
    StringRef rest = name;
    if (!consumeIdent(rest) || !rest.empty())
      return emitOpError() << "parameter '" << name
                           << "' is not an identifier";
    if (!seen.insert(name).second)
      return emitOpError() << "duplicate parameter '" << name << "'";
  }
  return success();
}

LogicalResult GlobalGeneratorOp::verify() {
  if (failed(verifyLibrary(*this, getLibrary())))
    return failure();
  if (getDefs().size() != 1 ||
      cast<StringAttr>(getDefs()[0]).getValue() !=
          globalGeneratorVar(getLibrary()))
    return emitOpError() << "must define exactly '"
                         << globalGeneratorVar(getLibrary()) << "'";
  return success();
}

LogicalResult CreateGeneratorOp::verify() {
  if (failed(verifyLibrary(*this, getLibrary())))
    return failure();
  if (getDefs().size() != 1)
    return emitOpError("must define exactly one generator");
  return success();
}

LogicalResult DrawOp::verify() {
  if (!isValidVarName(getGen()))
    return emitOpError() << "generator '" << getGen()
                         << "' is not a variable name";
  if (getDist().empty())
    return emitOpError("needs a distribution name");
  return success();
}

LogicalResult ParallelOp::verify() {
  if (auto workers = getWorkers())
    return verifyWorkers(*this, *workers);
  return success();
}

LogicalResult BatchesOp::verify() {
  if (!isValidVarName(getDataset()))
    return emitOpError() << "dataset '" << getDataset()
                         << "' is not a variable name";
  if (auto gen = getShuffle(); gen && !isValidVarName(*gen))
    return emitOpError() << "shuffle generator '" << *gen
                         << "' is not a variable name";
  return verifyWorkers(*this, getWorkers());
}

LogicalResult BuildOp::verify() {
  if (getId().empty())
    return emitOpError("needs a non-empty id");
  // The module a wrapper wraps is read by the build (the analysis finds it
  // among the reads: RestoredAliases).
  if (std::optional<StringRef> wraps = getWraps()) {
    if (getNewParameters())
      return emitOpError("a wrapper with new parameters does not share its "
                         "module's state: no 'wraps'");
    if (llvm::none_of(detail::getVarList(*this, "uses"), [&](Attribute a) {
          return cast<StringAttr>(a).getValue() == *wraps;
        }))
      return emitOpError() << "wraps '" << *wraps
                           << "', which it does not read";
  }
  return success();
}

LogicalResult ForwardOp::verify() {
  if (!isValidVarName(getModel()))
    return emitOpError() << "model '" << getModel()
                         << "' is not a variable name";
  // That every build named here exists is a module-wide property, checked
  // once per module by verifyBuildReferences (a walk per forward would make
  // verification quadratic).
  return success();
}

LogicalResult detc::ir::verifyBuildReferences(ModuleOp module) {
  llvm::StringSet<> ids;
  module.walk([&](BuildOp b) { ids.insert(b.getId()); });
  WalkResult r = module.walk([&](ForwardOp fw) {
    for (Attribute a : fw.getBuilds())
      if (!ids.contains(cast<StringAttr>(a).getValue())) {
        fw.emitOpError() << "refers to unknown build " << a;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

LogicalResult HintOp::verify() {
  if (!(*this)->getParentOfType<FuncOp>())
    return emitOpError("must be inside a function body");
  return success();
}

static LogicalResult verifyIterations(Operation *op,
                                      std::optional<uint64_t> iterations) {
  if (iterations && (int64_t)*iterations < 1)
    return op->emitOpError() << "iteration bound must be positive, got "
                             << (int64_t)*iterations;
  return success();
}

LogicalResult ForOp::verify() { return verifyIterations(*this, getIterations()); }
LogicalResult WhileOp::verify() {
  return verifyIterations(*this, getIterations());
}

LogicalResult StmtOp::verify() {
  if (getKind().empty())
    return emitOpError("needs a statement kind");
  if (getCopy() && (getDefs().size() != 1 || getUses().size() != 1))
    return emitOpError("'copy' needs exactly one def and one use");
  if (getRestores() && getDefs().empty() && getUpdates().empty())
    return emitOpError("'restores' needs a variable it defines or updates");
  return success();
}

/// The nearest enclosing loop of `op` within its function, if any.
static Operation *getEnclosingLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<FuncOp, ClassOp, BuildOp>(p))
      return nullptr;
    if (isa<ForOp, WhileOp>(p))
      return p;
  }
  return nullptr;
}

LogicalResult ReturnOp::verify() {
  auto func = (*this)->getParentOfType<FuncOp>();
  if (!func || func.getKind() == FuncKind::Module)
    return emitOpError("outside a function");
  return success();
}

LogicalResult BreakOp::verify() {
  if (!getEnclosingLoop(*this))
    return emitOpError("outside a loop");
  return success();
}

LogicalResult ContinueOp::verify() {
  if (!getEnclosingLoop(*this))
    return emitOpError("outside a loop");
  return success();
}

LogicalResult RaiseOp::verify() { return success(); }

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // Callees are named from the module: `@helper`, `@Net::@forward` (a method
  // calling a global function must not find a method of the same name).
  Operation *callee = nullptr;
  if (auto module = (*this)->getParentOfType<ModuleOp>())
    callee = symbols.lookupSymbolIn(module, getCallee());
  else // Not attached to a module yet (while parsing).
    callee = symbols.lookupNearestSymbolFrom(*this, getCallee());
  if (!callee)
    return emitOpError() << "refers to unknown function " << getCallee();
  auto func = dyn_cast<FuncOp>(callee);
  if (!func)
    return emitOpError() << "callee " << getCallee()
                         << " is not a 'detc.func'";
  if (auto bind = getBind()) {
    llvm::StringSet<> params;
    for (Attribute p : func.getParams())
      params.insert(cast<StringAttr>(p).getValue());
    for (NamedAttribute entry : *bind) {
      if (!params.contains(entry.getName().getValue()))
        return emitOpError() << "binds '" << entry.getName().getValue()
                             << "', which is not a parameter of "
                             << getCallee();
      auto arg = dyn_cast<StringAttr>(entry.getValue());
      if (!arg || !isValidVarName(arg.getValue()))
        return emitOpError() << "binds '" << entry.getName().getValue()
                             << "' to " << entry.getValue()
                             << ", which is not a variable name";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Region control flow
//===----------------------------------------------------------------------===//

static void addRegion(SmallVectorImpl<RegionSuccessor> &out, Region &r) {
  if (!r.empty())
    out.push_back(RegionSuccessor(&r));
}

static void addParent(SmallVectorImpl<RegionSuccessor> &out, Operation *op) {
  out.push_back(RegionSuccessor(op->getResults()));
}

/// Successors for a body that runs zero or more times followed by an
/// optional `else` region (Python's for/while).
static void getLoopSuccessors(Operation *op, Region &body, Region &orelse,
                              RegionBranchPoint point,
                              SmallVectorImpl<RegionSuccessor> &out) {
  if (point.getRegionOrNull() == &orelse) {
    addParent(out, op);
    return;
  }
  // From the parent or from the end of an iteration: run the body again, or
  // finish through `else` (when present) or straight to the parent.
  addRegion(out, body);
  if (orelse.empty())
    addParent(out, op);
  else
    addRegion(out, orelse);
}

void ForOp::getSuccessorRegions(RegionBranchPoint point,
                                SmallVectorImpl<RegionSuccessor> &regions) {
  getLoopSuccessors(*this, getBody(), getOrelse(), point, regions);
}

void WhileOp::getSuccessorRegions(RegionBranchPoint point,
                                  SmallVectorImpl<RegionSuccessor> &regions) {
  getLoopSuccessors(*this, getBody(), getOrelse(), point, regions);
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  if (!point.isParent()) {
    addParent(regions, *this);
    return;
  }
  addRegion(regions, getThenRegion());
  if (getElseRegion().empty())
    addParent(regions, *this);
  else
    addRegion(regions, getElseRegion());
}

/// A region that runs exactly once each time its op runs.
static void getOnceSuccessors(Operation *op, Region &body,
                              RegionBranchPoint point,
                              SmallVectorImpl<RegionSuccessor> &out) {
  if (point.isParent())
    addRegion(out, body);
  else
    addParent(out, op);
}

void ParallelOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  getOnceSuccessors(*this, getBody(), point, regions);
}

void FetchOp::getSuccessorRegions(RegionBranchPoint point,
                                  SmallVectorImpl<RegionSuccessor> &regions) {
  getOnceSuccessors(*this, getBody(), point, regions);
}

void WithOp::getSuccessorRegions(RegionBranchPoint point,
                                 SmallVectorImpl<RegionSuccessor> &regions) {
  getOnceSuccessors(*this, getBody(), point, regions);
}

void BuildOp::getSuccessorRegions(RegionBranchPoint point,
                                  SmallVectorImpl<RegionSuccessor> &regions) {
  // The forward region runs when the model is called (detc.forward), not
  // when it is built.
  addParent(regions, *this);
}

void TryOp::getSuccessorRegions(RegionBranchPoint point,
                                SmallVectorImpl<RegionSuccessor> &regions) {
  Region *from = point.getRegionOrNull();
  auto addFinallyOrParent = [&] {
    if (getFinalbody().empty())
      addParent(regions, *this);
    else
      addRegion(regions, getFinalbody());
  };
  if (!from) {
    addRegion(regions, getBody());
    return;
  }
  if (from == &getFinalbody()) {
    addParent(regions, *this);
    return;
  }
  if (from == &getBody()) {
    // Any statement of the body may raise into a handler; this is the
    // coarse region-level view (detc's CFG has the precise edges).
    for (Region &h : getHandlers())
      addRegion(regions, h);
    if (!getOrelse().empty()) {
      addRegion(regions, getOrelse());
      return;
    }
  }
  addFinallyOrParent();
}

#define GET_OP_CLASSES
#include "detc/ir/DetcOps.cpp.inc"

#include "detc/ir/DetcInterfaces.cpp.inc"
