//===- Lowering.cpp - Program structure and statements --------------------===//
//
// Loads the script and the local modules it imports, and lowers modules,
// functions, classes and statements. Expressions and calls are in
// LowerCalls.cpp.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"
#include "PointsTo/Program.h"

#include <chrono>
#include <cstdlib>

#include "detc/frontend/ASTDump.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;

static constexpr unsigned kMaxPasses = 8;

/// Drops from each forward the builds the module does not make. The facts
/// a pass reads are those the passes before it gathered, and a build one
/// pass made may be gone from the last: a call one pass saw construct one
/// class names its build by the call alone, by call and class once it may
/// construct several; a call whose candidates outgrew the alternatives
/// detc follows constructs none (which it reports), or leaves its classes
/// to the alternatives at the result's calls (the instances' forwards, run
/// through their classes: `inst:` facts). A build the module does not make
/// has no region a forward could run.
static void dropBuildsNotMade(ModuleOp module) {
  llvm::StringSet<> made;
  module.walk([&](ir::BuildOp b) { made.insert(b.getId()); });
  module.walk([&](ir::ForwardOp fw) {
    ArrayAttr builds = fw.getBuilds();
    if (llvm::all_of(builds, [&](Attribute a) {
          return made.contains(cast<StringAttr>(a).getValue());
        }))
      return;
    llvm::SmallVector<Attribute> kept;
    for (Attribute a : builds)
      if (made.contains(cast<StringAttr>(a).getValue()))
        kept.push_back(a);
    fw.setBuildsAttr(ArrayAttr::get(module.getContext(), kept));
  });
}

Lowerer::Lowerer(MLIRContext &ctx, DiagnosticEngine &diags,
                 const LoweringOptions &options)
    : ctx(ctx), spans(ir::newSourceSpanRegion(&ctx)), diags(diags),
      options(options),
      api(options.api ? *options.api : ApiModel::getBuiltin()),
      librarySource(api, options.librarySource), builder(&ctx),
      ownParseCache(options.parseCache ? nullptr
                                       : std::make_unique<ParseCache>(
                                             options.targetVersion)),
      parseCache(options.parseCache ? *options.parseCache : *ownParseCache) {
  ctx.getOrLoadDialect<ir::DetcDialect>();
}

OwningOpRef<ModuleOp>
detc::frontend::lowerScript(MLIRContext &context, StringRef path,
                            DiagnosticEngine &diags,
                            const LoweringOptions &options) {
  Lowerer lowerer(context, diags, options);
  return lowerer.run(path);
}

LogicalResult detc::frontend::verifyLoweredModule(ModuleOp module,
                                                  StringRef path,
                                                  DiagnosticEngine &diags) {
  // The verifier's messages at the ops' source positions (MLIR would print
  // a lowered op's location as `loc(unknown)`: its span is not in the
  // context, SourceSpans.h).
  DiagnosticEngine found;
  {
    ScopedDiagnosticHandler handler(
        module.getContext(), [&](mlir::Diagnostic &d) {
          if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
            return success();
          Diagnostic out;
          out.message = "internal error: " + d.str();
          if (std::optional<ir::SourcePosition> at =
                  ir::getSourcePosition(d.getLocation())) {
            out.file = at->file.str();
            out.pos.line = at->line;
            out.pos.column = at->column - 1;
          } else {
            out.file = path.str();
          }
          found.add(std::move(out));
          return success();
        });
    if (succeeded(verify(module)) &&
        succeeded(ir::verifyBuildReferences(module)))
      return success();
  }
  for (const Diagnostic &d : found.getDiagnostics())
    diags.add(d);
  diags.fileError(path, "internal error: the lowered module does not verify "
                          "(please report this)");
  return failure();
}

Unit *Lowerer::loadUnit(StringRef path, StringRef moduleName,
                        bool mustParse) {
  if (auto it = unitsByModule.find(moduleName); it != unitsByModule.end()) {
    it->second->everyRun |= mustParse;
    return it->second;
  }
  auto unit = std::make_unique<Unit>();
  unit->everyRun = mustParse;
  unit->moduleName = moduleName.str();
  unit->dir = llvm::sys::path::parent_path(path).str();
  // The script's own syntax errors are errors, and so are those of a
  // module every run imports. A module imported where only some runs go
  // that does not parse (FixMatch-pytorch's models/resnext.py, imported
  // only when `--arch resnext` is given) fails only there: a warning,
  // once, and its names are unknown (calls of them may draw), not the end
  // of the analysis.
  DiagnosticEngine parseDiags;
  const ParseCache::Entry &e =
      parseCache.get(path, mustParse ? diags : parseDiags);
  if (!e.file || !e.parsed) {
    if (!mustParse && unparsableModules.insert(moduleName).second)
      for (const Diagnostic &d : parseDiags.getDiagnostics())
        if (d.severity == Severity::Error) {
          Diagnostic w = d;
          w.severity = Severity::Warning;
          w.message = "module '" + moduleName.str() +
                      "' does not parse (" + d.message +
                      "): importing it raises SyntaxError, and what it "
                      "defines is unknown to detc "
                      "[detc-unparsable-module]";
          diags.add(std::move(w));
          break;
        }
    return nullptr;
  }
  unit->file = e.file.get();
  unit->parsed = e.parsed.get();
  Unit *raw = unit.get();
  unitsByModule[moduleName] = raw;
  units.push_back(std::move(unit));
  return raw;
}

OwningOpRef<ModuleOp> Lowerer::run(StringRef path) {
  // Errors of the lowering come from its last pass; a local module's syntax
  // errors are reported (once) by the pass that first imports it.
  unsigned errorsBefore = diags.getNumErrors();
  LoweringStats ownStats;
  LoweringStats &stats = options.stats ? *options.stats : ownStats;
  base::PhaseClock clock(stats.phases);
  if (!loadUnit(path, "__main__", /*mustParse=*/true))
    return nullptr;
  clock.lap("parse");
  // What each variable may hold, for the calls the facts cannot see
  // through (dicts built up, lists appended to, helpers' returns). Its
  // warnings (unresolved imports) are the lowering's.
  auto analysePointsTo = [&](bool evalAnyNameAsUnknown) {
    pointsTo.reset(); // one result at a time annotates the ASTs
    DiagnosticEngine ptDiags;
    PointsToOptions ptOptions;
    ptOptions.searchPath = options.searchPath;
    ptOptions.installedPath = librarySource.interpreterPath();
    ptOptions.parseCache = &parseCache;
    ptOptions.memberLimit = options.pointsToMemberLimit;
    ptOptions.evalAnyNameAsUnknown = evalAnyNameAsUnknown;
    pointsTo = analyzePointsTo(path, ptOptions, api, ptDiags);
    return ptDiags;
  };
  // Warnings, each with its notes (where an import was looked for);
  // `limitOnly`: only the one saying the analysis stopped at its limit.
  auto keepWarnings = [&](const DiagnosticEngine &ptDiags, bool limitOnly) {
    bool kept = false;
    for (const Diagnostic &d : ptDiags.getDiagnostics()) {
      if (d.severity != Severity::Note)
        kept = d.severity == Severity::Warning &&
               (!limitOnly ||
                StringRef(d.message).ends_with("[detc-points-to-limit]"));
      if (kept)
        diags.add(d);
    }
  };
  DiagnosticEngine ptDiags = analysePointsTo(false);
  // `eval` of a computed name taken as any name of its module, called
  // with such names, can merge the whole program into one set (yolov7):
  // again, with those results unknown (their calls are may-draw findings).
  bool again = pointsTo && pointsTo->truncated() && pointsTo->evalsOfAnyName();
  keepWarnings(ptDiags, again);
  if (again) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = path.str();
    d.message = "analysed again taking the result of each 'eval' of a "
                "computed string as unknown, not as any name its module "
                "defines or imports: calls of it are findings of code detc "
                "cannot see [detc-points-to-limit]";
    diags.add(std::move(d));
    keepWarnings(analysePointsTo(true), false);
  }
  // An incomplete object model would make the findings miss what the
  // rest of the program does, silently; and the lowering's questions
  // about sets of thousands of objects take hours. Said, and stopped.
  if (pointsTo && pointsTo->truncated()) {
    diags.fileError(path, "detc does not analyse a program whose "
                          "points-to analysis stopped before its end: "
                          "findings would be missing (the warning above "
                          "says where the constraints came from; "
                          "--points-to-limit=N raises the limit) "
                          "[detc-points-to-limit]");
    return nullptr;
  }
  // Modules loaded by a name the source shows (`importlib.import_module(
  // "models." + name + "_model")`): the program's, lowered as imported
  // ones are.
  if (pointsTo && options.followLocalImports)
    for (const auto &[file, name] : pointsTo->modulesImportedByName())
      if (!unitsByModule.count(name) && !pta::isInstalledLibrary(file))
        loadUnit(file, name, /*mustParse=*/false);
  clock.lap("points-to");
  // Lower until the facts stop growing. A pass that changed no fact read
  // only final facts: its IR and its diagnostics (held per pass until
  // then) are the result. The first pass only gathers facts (callees come
  // before their callers, so it always misses some): it makes no ops.
  // Past the pass limit, one more pass gives the result.
  for (passNumber = 0; passNumber < kMaxPasses; ++passNumber) {
    factsChanged = false;
    forgetTemporaryFacts();
    emitIR = passNumber > 0;
    passDiags = DiagnosticEngine();
    lowerProgram();
    clock.lap("lowering-pass");
    if (!factsChanged && emitIR)
      break;
  }
  if (factsChanged || !emitIR) {
    forgetTemporaryFacts();
    emitIR = true;
    passDiags = DiagnosticEngine();
    lowerProgram();
    clock.lap("lowering-pass");
  }
  dropBuildsNotMade(*module);
  for (const Diagnostic &d : passDiags.getDiagnostics())
    diags.add(d);
  stats.libraryFiles = librarySource.filesSummarised();
  stats.libraryFilesCached = librarySource.filesFromCache();
  if (diags.getNumErrors() != errorsBefore)
    return nullptr;
  if (options.verify) {
    if (failed(verifyLoweredModule(*module, path, diags)))
      return nullptr;
    clock.lap("verify");
  }
  return std::move(module);
}

void Lowerer::lowerProgram() {
  module = ModuleOp::create(builder.getUnknownLoc());
  // The last pass's module is gone, and with it every op using its spans.
  spans.restart();
  recentSpans.fill({});
  (*module)->setAttr("detc.source",
                     builder.getStringAttr(units[0]->file->getName()));
  moduleSymbols.clear();
  classSymbols.clear();
  lambdaSymbols.clear();
  lambdasThisPass.clear();
  rngLibraries.clear();
  foreignImports.clear();
  varyingReads.clear();
  // Local modules may be discovered while lowering; the list grows.
  for (size_t i = 0; i < units.size(); ++i)
    lowerUnit(*units[i]);
  // The modules the program imports that are not part of it and whose
  // draws detc cannot see: neither modelled by a table (whose draws are
  // ops) nor declared quiet (api/python.api). The transform reseeds the
  // global generators they may draw from in every example scope.
  std::vector<Attribute> names;
  for (const std::string &m : foreignImports)
    if (!api.isLibraryName(m) &&
        api.classifyUnmodelled(m) != ApiModel::Unmodelled::Quiet)
      names.push_back(builder.getStringAttr(m));
  (*module)->setAttr("detc.unread_imports", builder.getArrayAttr(names));
  std::vector<Attribute> reads;
  for (const auto &[file, stmt, begin, end, name] : varyingReads)
    reads.push_back(builder.getArrayAttr(
        {builder.getStringAttr(file), builder.getI64IntegerAttr(stmt),
         builder.getI64IntegerAttr(begin), builder.getI64IntegerAttr(end),
         builder.getStringAttr(name)}));
  if (!reads.empty())
    (*module)->setAttr("detc.varying_reads", builder.getArrayAttr(reads));
}

void Lowerer::lowerUnit(Unit &unit) {
  Unit *savedUnit = currentUnit;
  currentUnit = &unit;
  unit.imports.clear();
  unit.starModules.clear();
  bool isMain = unit.moduleName == "__main__";
  std::string symbol = isMain ? "__main__" : unit.moduleName + ".<module>";

  builder.setInsertionPointToEnd(module->getBody());
  OpBuilder::InsertionGuard guard(builder);
  createFunc(unit.parsed->module, uniqueSymbol(moduleSymbols, symbol),
             ir::FuncKind::Module, std::nullopt);

  FuncCtx f;
  f.unit = &unit;
  f.symbol = symbol;
  f.isModule = true;
  // An imported module's `if __name__ == "__main__":` block does not run
  // (RepDistiller's models/ShuffleNetv1.py builds a `net` there: counted as
  // running, it was a module global the checkpoints had to save); its
  // `else` does.
  std::vector<ast::Stmt *> stmts =
      ast::runningBody(*unit.parsed->module, isMain);
  llvm::SmallVector<const ast::Node *> nodes(stmts.begin(), stmts.end());
  unit.moduleScope = computeFunctionScope(nullptr, nodes);
  Block *body = builder.getInsertionBlock();
  lowerBody(f, stmts);

  // The global generators of the libraries the program imports exist from
  // the start: put them first in the main body.
  if (isMain) {
    builder.setInsertionPointToStart(body);
    for (const std::string &lib : rngLibraries) {
      Effects none;
      emit(ir::GlobalGeneratorOp::getOperationName(), unit.parsed->module,
           {ir::globalGeneratorVar(lib)}, none, {strAttr("library", lib)});
    }
  }
  currentUnit = savedUnit;
}

void Lowerer::lowerBody(FuncCtx &f, llvm::ArrayRef<ast::Stmt *> body) {
  for (const ast::Stmt *s : body)
    lowerStmt(f, s);
}

/// Whether an `if` test depends on the process's rank in a distributed
/// job: a name or attribute spelled like one (`rank`, `args.local_rank`,
/// `global_rank`), `dist.get_rank()`, `is_main_process()`-style helpers,
/// `os.environ["RANK"]` (the lint detc-rank-conditional-update reads it).
/// `if p:`, `if not p:`, `if p is None:`, `if p is not None:` with `p` a
/// name: `p`, and whether the `then` branch is the one that runs when `p`
/// is None.
static std::optional<std::pair<StringRef, bool>>
testsNone(const ast::Expr *test) {
  bool negated = false;
  if (auto *u = llvm::dyn_cast<ast::UnaryOp>(test);
      u && u->op == ast::UnaryOpKind::Not) {
    negated = true;
    test = u->operand;
  }
  if (auto *n = llvm::dyn_cast<ast::Name>(test))
    return std::make_pair(n->id, negated);
  auto *c = llvm::dyn_cast<ast::Compare>(test);
  if (negated || !c || c->ops.size() != 1 || c->comparators.size() != 1)
    return std::nullopt;
  auto *n = llvm::dyn_cast<ast::Name>(c->left);
  auto *none = llvm::dyn_cast<ast::Constant>(c->comparators[0]);
  if (!n || !none || none->kind != ast::ConstantKind::None ||
      (c->ops[0] != ast::CmpOpKind::Is && c->ops[0] != ast::CmpOpKind::IsNot))
    return std::nullopt;
  return std::make_pair(n->id, c->ops[0] == ast::CmpOpKind::Is);
}

/// `if p == "train":`, `if p != "train":` (or the literal first) with `p`
/// a name: `p`, the literal, and whether the `then` branch is the one that
/// runs when they are equal.
static std::optional<std::tuple<StringRef, StringRef, bool>>
testsString(const ast::Expr *test) {
  auto *c = llvm::dyn_cast<ast::Compare>(test);
  if (!c || c->ops.size() != 1 || c->comparators.size() != 1 ||
      (c->ops[0] != ast::CmpOpKind::Eq && c->ops[0] != ast::CmpOpKind::NotEq))
    return std::nullopt;
  const ast::Expr *a = c->left, *b = c->comparators[0];
  if (llvm::isa<ast::Constant>(a))
    std::swap(a, b);
  auto *n = llvm::dyn_cast<ast::Name>(a);
  auto *k = llvm::dyn_cast<ast::Constant>(b);
  if (!n || !k || k->kind != ast::ConstantKind::Str)
    return std::nullopt;
  return std::make_tuple(n->id, StringRef(k->value),
                         c->ops[0] == ast::CmpOpKind::Eq);
}

static bool testsRank(const ast::Expr *test) {
  std::vector<const ast::Node *> work{test};
  while (!work.empty()) {
    const ast::Node *n = work.back();
    work.pop_back();
    StringRef word;
    if (auto *name = llvm::dyn_cast<ast::Name>(n))
      word = name->id;
    else if (auto *a = llvm::dyn_cast<ast::Attribute>(n))
      word = a->attr;
    else if (auto *c = llvm::dyn_cast<ast::Constant>(n);
             c && c->kind == ast::ConstantKind::Str)
      word = c->value;
    std::string lower = word.lower();
    StringRef w = lower;
    if (w == "rank" || w.ends_with("_rank") || w.starts_with("rank_") ||
        w == "get_rank" || w.starts_with("is_main") ||
        w.starts_with("is_master") || w.starts_with("is_primary"))
      return true;
    ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
      if (child)
        work.push_back(child);
    });
  }
  return false;
}

static bool isName(const ast::Expr *e, StringRef id) {
  auto *n = llvm::dyn_cast_or_null<ast::Name>(e);
  return n && n->id == id;
}

void Lowerer::lowerStmt(FuncCtx &f, const ast::Stmt *s) {
  using namespace ast;
  const Node *savedStmt = currentStmt;
  currentStmt = s;
  auto restore = llvm::make_scope_exit([&] { currentStmt = savedStmt; });

  switch (s->getKind()) {
  case NodeKind::FunctionDef:
    return lowerFunctionDef(f, llvm::cast<FunctionDef>(s));
  case NodeKind::ClassDef:
    return lowerClassDef(f, llvm::cast<ClassDef>(s));
  case NodeKind::Import:
  case NodeKind::ImportFrom:
    return lowerImport(f, s);
  case NodeKind::Global:
  case NodeKind::Nonlocal:
  case NodeKind::Pass:
    return;
  case NodeKind::Return: {
    auto *r = llvm::cast<Return>(s);
    if (f.isModule || f.isClassBody)
      return error(f, s, "'return' outside function");
    Effects eff;
    if (r->value) {
      eff = lowerExpr(f, r->value);
      addFacts("ret:" + f.symbol, factsOf(f, r->value));
    }
    emit(ir::ReturnOp::getOperationName(), s, {}, eff);
    return;
  }
  case NodeKind::Break:
  case NodeKind::Continue: {
    bool isBreak = s->getKind() == NodeKind::Break;
    if (f.loopDepth == 0)
      return error(f, s,
                   isBreak ? "'break' outside loop"
                           : "'continue' not properly in loop");
    emit(isBreak ? ir::BreakOp::getOperationName()
                 : ir::ContinueOp::getOperationName(),
         s, {}, Effects());
    return;
  }
  case NodeKind::Raise: {
    auto *r = llvm::cast<Raise>(s);
    Effects eff;
    if (r->exc)
      eff.merge(lowerExpr(f, r->exc));
    if (r->cause)
      eff.merge(lowerExpr(f, r->cause));
    emit(ir::RaiseOp::getOperationName(), s, {}, eff);
    return;
  }
  case NodeKind::Delete: {
    Effects eff;
    std::vector<std::string> defs;
    for (const Expr *t : llvm::cast<Delete>(s)->targets) {
      if (auto *n = llvm::dyn_cast<Name>(t))
        defs.push_back(varName(f, n->id));
      else
        eff.merge(lowerExpr(f, t)); // `del x[i]`, `del x.a` update x.
    }
    emit(ir::StmtOp::getOperationName(), s, defs, eff,
         {strAttr("kind", "del")});
    return;
  }
  case NodeKind::Assign: {
    auto *a = llvm::cast<Assign>(s);
    return lowerAssign(f, s, a->targets, a->value);
  }
  case NodeKind::AugAssign: {
    auto *a = llvm::cast<AugAssign>(s);
    Effects eff = lowerExpr(f, a->value);
    std::vector<std::string> defs;
    std::string path = varPath(f, a->target);
    if (llvm::isa<Name>(a->target)) {
      defs.push_back(path);
      eff.uses.insert(path);
    } else {
      // `x[i] += v`, `self.n += 1`: reads and updates in place.
      Effects t = lowerExpr(f, a->target);
      eff.merge(t);
      if (!path.empty())
        eff.updates.insert(path);
      else
        eff.updates.insert(t.uses.begin(), t.uses.end());
    }
    emit(ir::StmtOp::getOperationName(), s, defs, eff,
         {strAttr("kind", "augassign")});
    return;
  }
  case NodeKind::AnnAssign: {
    auto *a = llvm::cast<AnnAssign>(s);
    if (isName(a->target, "_iterations")) {
      // CheckHint's loop bound annotation: `_iterations: N`.
      auto *c = llvm::dyn_cast<Constant>(a->annotation);
      int64_t n = 0;
      if (!c || c->kind != ConstantKind::Int ||
          StringRef(c->value).getAsInteger(0, n) || n < 1)
        return error(f, a->annotation,
                     "'_iterations' needs a positive integer literal");
      if (f.loopDepth == 0)
        return error(f, s, "'_iterations' annotation outside a loop");
      if (!f.innermostLoop) // A pass that only gathers facts.
        return;
      f.innermostLoop->setAttr("iterations", builder.getI64IntegerAttr(n));
      return;
    }
    if (a->value) {
      Expr *targets[] = {a->target};
      return lowerAssign(f, s, targets, a->value);
    }
    return;
  }
  case NodeKind::ExprStmt: {
    const Expr *v = llvm::cast<ExprStmt>(s)->value;
    if (auto *call = llvm::dyn_cast<Call>(v)) {
      Effects eff;
      std::string result;
      if (lowerCall(f, call, result, eff, /*wantValue=*/false))
        return; // The call became its own op.
      emit(ir::StmtOp::getOperationName(), s, {}, eff,
           {strAttr("kind", "expr")});
      return;
    }
    if (llvm::isa<Constant>(v))
      return; // Docstrings and bare literals do nothing.
    Effects eff = lowerExpr(f, v);
    emit(ir::StmtOp::getOperationName(), s, {}, eff, {strAttr("kind", "expr")});
    return;
  }
  case NodeKind::If: {
    auto *i = llvm::cast<If>(s);
    Effects eff = lowerExpr(f, i->test);
    Operation *op = emit(ir::IfOp::getOperationName(), s, {}, eff, {}, 2);
    if (op && testsRank(i->test))
      op->setAttr("per_rank", builder.getUnitAttr());
    // A test of whether a parameter is None: an expansion of the function
    // whose call gives it None takes one branch only (StatementGraph).
    if (auto none = testsNone(i->test); op && none)
      if (auto params = funcParams.find(f.symbol);
          params != funcParams.end() &&
          llvm::any_of(params->second, [&](mlir::Attribute a) {
            return cast<StringAttr>(a).getValue() == none->first;
          })) {
        op->setAttr("none_param", builder.getStringAttr(none->first));
        op->setAttr("if_none",
                    builder.getStringAttr(none->second ? "then" : "else"));
      }
    // A test of a parameter against a string (CenterNet's `if phase ==
    // 'train':` in the run_epoch that train() and val() call with 'train'
    // and 'val'): an expansion whose call gives it a string takes one
    // branch only.
    if (auto str = testsString(i->test); op && str)
      if (auto params = funcParams.find(f.symbol);
          params != funcParams.end() &&
          llvm::any_of(params->second, [&](mlir::Attribute a) {
            return cast<StringAttr>(a).getValue() == std::get<0>(*str);
          })) {
        op->setAttr("str_param", builder.getStringAttr(std::get<0>(*str)));
        op->setAttr("str_value", builder.getStringAttr(std::get<1>(*str)));
        op->setAttr("if_equal", builder.getStringAttr(std::get<2>(*str)
                                                          ? "then"
                                                          : "else"));
      }
    inRegion(op, 0, [&] { lowerBody(f, i->body); });
    lowerElse(f, op, i->orelse);
    return;
  }
  case NodeKind::While: {
    auto *w = llvm::cast<While>(s);
    Effects eff = lowerExpr(f, w->test);
    Operation *op = emit(ir::WhileOp::getOperationName(), s, {}, eff, {}, 2);
    // `while True: x, y = next(it)` over a loader's iterator (StyleGAN2's
    // training loop): each iteration is one batch, its body a per-batch
    // region as a loader loop's is.
    bool batches = fetchesBatch(f, w->body, {}, /*ownLoopsOnly=*/true);
    // A `while` whose own body takes a training step (`while step <
    // max_steps:` around a batch picked from tensors in memory): one
    // counted step's region, as a `for` over a count's
    // (isCountedStepLoop).
    bool counted = !batches && batchRegionDepth == 0 && stepsInBody(w->body);
    lowerLoopRegions(
        f, op,
        [&] {
          if (!batches && !counted)
            return lowerBody(f, w->body);
          emitBatchRegion(
              w, {}, [&] { lowerBody(f, w->body); }, counted);
        },
        w->orelse);
    return;
  }
  case NodeKind::For:
    return lowerFor(f, llvm::cast<For>(s));
  case NodeKind::With: {
    auto *w = llvm::cast<With>(s);
    Effects eff;
    std::vector<std::string> defs, managers;
    for (const WithItem *item : w->items) {
      const Expr *ctxExpr = item->contextExpr;
      std::string q;
      if (auto *call = llvm::dyn_cast<Call>(ctxExpr))
        q = qualName(f, call->func);
      if (!q.empty() && api.isLibraryName(q)) {
        managers.push_back(q);
        for (const Expr *arg : llvm::cast<Call>(ctxExpr)->args)
          eff.merge(lowerExpr(f, arg));
      } else {
        eff.merge(lowerExpr(f, ctxExpr));
      }
      if (item->optionalVars) {
        std::string p = varPath(f, item->optionalVars);
        if (!p.empty())
          defs.push_back(p);
        // `with trange(n) as pbar:` binds what `__enter__` returns: for a
        // library call whose table gives its result a type (a progress
        // bar), the object itself, of that type.
        if (const ApiEntry *e = q.empty() ? nullptr : api.lookup(q);
            e && !e->get("type").empty())
          assignVarFacts(f, p, {("type:" + e->get("type")).str()});
      }
    }
    Operation *op = emit(ir::WithOp::getOperationName(), s, defs, eff,
                         {attr("managers", strArray(managers))}, 1);
    inRegion(op, 0, [&] { lowerBody(f, w->body); });
    return;
  }
  case NodeKind::Try: {
    auto *t = llvm::cast<Try>(s);
    // Regions: body, orelse, finalbody, then one per handler.
    Operation *op = emit(ir::TryOp::getOperationName(), s, {}, Effects(), {},
                         3 + t->handlers.size());
    inRegion(op, 0, [&] { lowerBody(f, t->body); });
    if (!t->orelse.empty())
      inRegion(op, 1, [&] { lowerBody(f, t->orelse); });
    else
      dropRegion(op, 1);
    if (!t->finalbody.empty())
      inRegion(op, 2, [&] { lowerBody(f, t->finalbody); });
    else
      dropRegion(op, 2);
    for (auto [i, h] : llvm::enumerate(t->handlers)) {
      inRegion(op, 3 + i, [&] {
        Effects eff;
        if (h->type)
          eff = lowerExpr(f, h->type);
        std::vector<std::string> defs;
        if (!h->name.empty())
          defs.push_back(varName(f, h->name));
        emit(ir::StmtOp::getOperationName(), h, defs, eff,
             {strAttr("kind", "except")});
        lowerBody(f, h->body);
      });
    }
    return;
  }
  case NodeKind::Assert: {
    auto *a = llvm::cast<Assert>(s);
    Effects eff = lowerExpr(f, a->test);
    if (a->msg)
      eff.merge(lowerExpr(f, a->msg));
    emit(ir::StmtOp::getOperationName(), s, {}, eff,
         {strAttr("kind", "assert")});
    return;
  }
  case NodeKind::TypeAlias: {
    // `type X = v` (PEP 695) binds X to a TypeAliasType; `v` (and the
    // parameters' bounds and defaults) run only when the alias's
    // `__value__` is read, which detc models as not at all: typing code.
    auto *a = llvm::cast<TypeAlias>(s);
    emit(ir::StmtOp::getOperationName(), s,
         {varName(f, llvm::cast<Name>(a->name)->id)}, Effects(),
         {strAttr("kind", "type_alias")});
    return;
  }
  case NodeKind::Match: {
    auto *m = llvm::cast<Match>(s);
    Effects eff = lowerExpr(f, m->subject);
    emit(ir::StmtOp::getOperationName(), s, {}, eff,
         {strAttr("kind", "match")});
    lowerMatch(f, m, 0);
    return;
  }
  default:
    break;
  }
  warnUnknown(f, s, "statement '" + s->pythonName() + "' is not modelled");
}

void Lowerer::lowerMatch(FuncCtx &f, const ast::Match *m, size_t caseIndex) {
  if (caseIndex == m->cases.size())
    return;
  const ast::MatchCase *c = m->cases[caseIndex];
  // The names a pattern captures are defined when the case matches.
  std::vector<std::string> defs;
  std::function<void(const ast::Node *)> collect = [&](const ast::Node *n) {
    if (auto *as = llvm::dyn_cast<ast::MatchAs>(n); as && !as->name.empty())
      defs.push_back(varName(f, as->name));
    if (auto *st = llvm::dyn_cast<ast::MatchStar>(n); st && !st->name.empty())
      defs.push_back(varName(f, st->name));
    if (auto *mm = llvm::dyn_cast<ast::MatchMapping>(n);
        mm && !mm->rest.empty())
      defs.push_back(varName(f, mm->rest));
    ast::forEachChild(n, [&](StringRef, const ast::Node *ch) {
      if (llvm::isa<ast::Pattern>(ch))
        collect(ch);
    });
  };
  collect(c->pattern);
  Effects test;
  if (c->guard)
    test = lowerExpr(f, c->guard);
  Operation *op = emit(ir::IfOp::getOperationName(), c, {}, test, {}, 2);
  inRegion(op, 0, [&] {
    if (!defs.empty())
      emit(ir::StmtOp::getOperationName(), c->pattern, defs, Effects(),
           {strAttr("kind", "match_case")});
    lowerBody(f, c->body);
  });
  if (caseIndex + 1 < m->cases.size())
    inRegion(op, 1, [&] { lowerMatch(f, m, caseIndex + 1); });
  else
    dropRegion(op, 1);
}

//===----------------------------------------------------------------------===//
// Functions and classes
//===----------------------------------------------------------------------===//

std::string Lowerer::uniqueSymbol(llvm::StringSet<> &used, StringRef name) {
  std::string candidate = name.str();
  for (unsigned n = 2; !used.insert(candidate).second; ++n)
    candidate = (name + "." + llvm::Twine(n)).str();
  return candidate;
}

SymbolRefAttr Lowerer::classMethodRef(const std::string &cls,
                                      StringRef method) {
  return SymbolRefAttr::get(builder.getStringAttr(cls),
                            {FlatSymbolRefAttr::get(&ctx, method)});
}

void Lowerer::lowerFunctionDef(FuncCtx &f, const ast::FunctionDef *def) {
  Effects eff;
  auto unreadSoFar = [&] {
    return unreadCallsOf == currentStmt ? unreadCalls.size() : 0;
  };
  size_t unreadBefore = unreadSoFar();
  for (const ast::Expr *d : def->decoratorList)
    eff.merge(lowerExpr(f, d));
  // A decorator detc cannot read is given the function: its library may
  // run it (click's `@cli.command()`), which the analysis must know.
  bool unreadDecorator = unreadSoFar() > unreadBefore;
  for (const ast::Expr *d : def->args->defaults)
    eff.merge(lowerExpr(f, d));
  for (const ast::Expr *d : def->args->kwDefaults)
    if (d)
      eff.merge(lowerExpr(f, d));

  // Methods live in their class; everything else is hoisted to the module
  // under a qualified name.
  bool isMethod = f.isClassBody;
  std::string symbol;
  if (isMethod) {
    symbol = uniqueSymbol(classSymbols[f.className], def->name);
    classes[f.className].methods.insert(symbol);
  } else {
    std::string prefix;
    if (!f.isModule)
      prefix = f.symbol + ".";
    else if (f.unit->moduleName != "__main__")
      prefix = f.unit->moduleName + ".";
    symbol = uniqueSymbol(moduleSymbols, prefix + def->name.str());
  }

  std::string fullSymbol = isMethod ? f.className + "::" + symbol : symbol;
  SymbolRefAttr ref = isMethod
                          ? classMethodRef(f.className, symbol)
                          : SymbolRefAttr(FlatSymbolRefAttr::get(&ctx, symbol));
  // (Not one defined in a function that never runs: nothing holds it.)
  if (!isMethod && !(pointsTo && pointsTo->neverMade(def)))
    assignVarFacts(f, varName(f, def->name), {"func:" + symbol});
  llvm::SmallVector<NamedAttribute, 3> defAttrs{strAttr("kind", "def"),
                                                 attr("symbol", ref)};
  if (unreadDecorator)
    defAttrs.push_back(attr("unread_decorator", builder.getUnitAttr()));
  emit(ir::StmtOp::getOperationName(), def,
       {isMethod ? def->name.str() : varName(f, def->name)}, eff, defAttrs);

  FuncCtx inner;
  inner.unit = f.unit;
  inner.parent = (f.isModule || f.isClassBody) ? nullptr : &f;
  inner.symbol = fullSymbol;
  inner.className = isMethod ? f.className : "";
  llvm::SmallVector<const ast::Node *> bodyNodes(def->body.begin(),
                                                 def->body.end());
  inner.scope = computeFunctionScope(def->args, bodyNodes);
  auto params = getParamNames(def->args);
  std::vector<std::string> paramStrs(params.begin(), params.end());
  ArrayAttr paramAttr = strArray(paramStrs);
  funcParams[fullSymbol] = paramAttr;
  funcDefs[fullSymbol] = def;
  ir::FuncKind kind = ir::FuncKind::Function;
  if (isMethod) {
    kind = ir::FuncKind::Method;
    bool isStatic = ast::hasNamedDecorator(def, "staticmethod") ||
                    ast::hasNamedDecorator(def, "classmethod");
    if (!paramStrs.empty() && !isStatic)
      addFacts(inner.symbol + "|" + paramStrs[0], {"inst:" + f.className});
  }

  OpBuilder::InsertionGuard guard(builder);
  if (!emitIR) {
    // A pass that only gathers facts has no ops to put the function in.
  } else if (isMethod) {
    // The class op is the parent of the class body's insertion block.
    Operation *classOp = builder.getInsertionBlock()->getParentOp();
    while (classOp && !isa<ir::ClassOp>(classOp))
      classOp = classOp->getParentOp();
    builder.setInsertionPointToEnd(&classOp->getRegion(0).front());
  } else {
    builder.setInsertionPointToEnd(module->getBody());
  }
  createFunc(def, symbol, kind, paramAttr);
  const ast::Node *savedStmt = currentStmt;
  lowerBody(inner, def->body);
  currentStmt = savedStmt;
}

Operation *Lowerer::createFunc(const ast::Node *at, StringRef symbol,
                               ir::FuncKind kind,
                               std::optional<ArrayAttr> params) {
  if (!emitIR)
    return nullptr;
  OperationState state(loc(at), ir::FuncOp::getOperationName());
  state.addAttribute("sym_name", builder.getStringAttr(symbol));
  state.addAttribute("kind", ir::FuncKindAttr::get(&ctx, kind));
  if (params)
    state.addAttribute("params", *params);
  state.addRegion()->push_back(new Block);
  Operation *func = createOp(state);
  builder.setInsertionPointToEnd(&func->getRegion(0).front());
  builder.create<ir::YieldOp>(func->getLoc());
  builder.setInsertionPoint(func->getRegion(0).front().getTerminator());
  return func;
}

static ir::ClassRole roleOfLibraryBase(StringRef q) {
  if (q == "torch.nn.Module" || q == "tensorflow.keras.Model" ||
      q == "tensorflow.keras.layers.Layer" || q.starts_with("torch.nn."))
    return ir::ClassRole::Model;
  if (q == "torch.utils.data.Dataset" ||
      q == "torch.utils.data.IterableDataset" ||
      q.starts_with("torchvision.datasets.") ||
      q == "tensorflow.keras.utils.Sequence")
    return ir::ClassRole::Dataset;
  return ir::ClassRole::Plain;
}

void Lowerer::lowerClassDef(FuncCtx &f, const ast::ClassDef *def) {
  Effects eff;
  for (const ast::Expr *d : def->decoratorList)
    eff.merge(lowerExpr(f, d));
  std::string prefix;
  if (!f.isModule && !f.isClassBody)
    prefix = f.symbol + ".";
  else if (f.unit->moduleName != "__main__")
    prefix = f.unit->moduleName + ".";
  if (f.isClassBody)
    prefix = f.className + ".";
  std::string symbol = uniqueSymbol(moduleSymbols, prefix + def->name.str());

  ClassInfo &info = classes[symbol];
  info.symbol = symbol;
  info.userBases.clear();
  info.libBases.clear();
  info.methods.clear();
  // The methods the body defines, before it is lowered: a method calls
  // one defined below it (`self.helper()` in `__getitem__`).
  for (const ast::Stmt *st : def->body)
    if (auto *m = llvm::dyn_cast<ast::FunctionDef>(st))
      info.methods.insert(m->name);
  ir::ClassRole role = ir::ClassRole::Plain;
  std::vector<std::string> baseNames;
  for (const ast::Expr *b : def->bases) {
    eff.merge(lowerExpr(f, b));
    FactSet bf = factsOf(f, b);
    // A base the facts lose (OFA's `from ofa.utils import MyModule`
    // through the package's star re-exports, from a module of that
    // package lowered before the base's): the class the points-to says
    // the name holds (named as the lowering will name it).
    if (pointsTo && llvm::none_of(bf, [](const std::string &fact) {
          return StringRef(fact).starts_with("class:");
        }))
      for (PointsToResult::ObjectId o : pointsTo->pointsTo(b))
        if (const AbstractObject &ob = pointsTo->object(o);
            ob.kind == AbstractObject::Kind::Class)
          bf.insert("class:" + ob.label().str());
    std::string userBase;
    for (const std::string &fact : bf)
      if (StringRef(fact).starts_with("class:"))
        userBase = fact.substr(6);
    if (!userBase.empty()) {
      info.userBases.push_back(userBase);
      baseNames.push_back(userBase);
      if (const ClassInfo *bi = classOf(userBase);
          bi && role == ir::ClassRole::Plain)
        role = bi->role;
      continue;
    }
    std::string q = qualName(f, b);
    if (q.empty())
      continue;
    info.libBases.push_back(q);
    baseNames.push_back(q);
    if (role == ir::ClassRole::Plain)
      role = roleOfLibraryBase(q);
    // A class of a library read from source derives from what a table
    // describes (timm's VisionTransformer is an nn.Module: calling an
    // instance of a program subclass runs its forward).
    if (role == ir::ClassRole::Plain && !api.isLibraryName(q))
      role = roleOfLibraryBase(librarySource.describedBase(q));
  }
  bool hasCall = llvm::any_of(def->body, [](const ast::Stmt *s) {
    auto *fd = llvm::dyn_cast<ast::FunctionDef>(s);
    return fd && fd->name == "__call__";
  });
  if (role == ir::ClassRole::Plain && hasCall)
    role = ir::ClassRole::Transform;
  info.role = role;

  assignVarFacts(f, varName(f, def->name), {"class:" + symbol});
  emit(ir::StmtOp::getOperationName(), def, {varName(f, def->name)}, eff,
       {strAttr("kind", "class"),
        attr("symbol", FlatSymbolRefAttr::get(&ctx, symbol))});

  OpBuilder::InsertionGuard guard(builder);
  if (emitIR) {
    builder.setInsertionPointToEnd(module->getBody());
    OperationState state(loc(def), ir::ClassOp::getOperationName());
    state.addAttribute("sym_name", builder.getStringAttr(symbol));
    state.addAttribute("role", ir::ClassRoleAttr::get(&ctx, role));
    state.addAttribute("bases", strArray(baseNames));
    state.addRegion()->push_back(new Block);
    Operation *classOp = createOp(state);
    builder.setInsertionPointToEnd(&classOp->getRegion(0).front());
  }

  FuncCtx body;
  body.unit = f.unit;
  body.symbol = symbol;
  body.className = symbol;
  body.isClassBody = true;
  llvm::SmallVector<const ast::Node *> nodes(def->body.begin(),
                                             def->body.end());
  body.scope = computeFunctionScope(nullptr, nodes);
  const ast::Node *savedStmt = currentStmt;
  lowerBody(body, def->body);
  currentStmt = savedStmt;
}

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

/// The file of local module `dotted` under `dir` (`a.b` -> a/b.py or
/// a/b/__init__.py), or "".
static std::string findLocalModule(StringRef dir, StringRef dotted) {
  llvm::SmallString<256> base(dir.empty() ? "." : dir);
  llvm::SmallVector<StringRef, 4> parts;
  dotted.split(parts, '.');
  for (StringRef p : parts)
    llvm::sys::path::append(base, p);
  std::string asFile = (base + ".py").str();
  if (llvm::sys::fs::is_regular_file(asFile))
    return asFile;
  llvm::SmallString<256> init(base);
  llvm::sys::path::append(init, "__init__.py");
  if (llvm::sys::fs::is_regular_file(init))
    return init.str().str();
  return "";
}

void Lowerer::lowerImport(FuncCtx &f, const ast::Stmt *s) {
  auto bindName = [&](StringRef local, const std::string &qual) {
    std::string canon = api.canonicalize(qual);
    if (f.isModule)
      f.unit->imports[local] = canon;
    else
      f.localImports[local] = canon;
    StringRef root = StringRef(canon).split('.').first;
    for (StringRef lib : {"torch", "numpy", "random", "tensorflow"})
      if (root == lib)
        rngLibraries.insert(lib.str());
    if (root == "torchvision")
      rngLibraries.insert("torch");
  };
  // The absolute name of `dotted` imported `level` dots up (the
  // importer's package, as CPython names it: `from .util import f` in
  // pkg/__init__.py imports `pkg.util`, so `pkg.util.f` is found).
  auto absoluteName = [&](unsigned level, StringRef dotted) -> std::string {
    if (level == 0)
      return dotted.str();
    StringRef package = f.unit->moduleName;
    bool isPackage = f.unit->file && llvm::sys::path::filename(
                                         f.unit->file->getName()) ==
                                         "__init__.py";
    for (unsigned i = isPackage ? 1 : 0; i < level; ++i)
      package = package.contains('.') ? package.rsplit('.').first : "";
    if (package.empty() || package == "__main__")
      return dotted.str();
    return dotted.empty() ? package.str() : (package + "." + dotted).str();
  };
  // Follows a local module; returns its module name or "".
  auto followLocal = [&](StringRef dir, StringRef dotted,
                         unsigned level = 0) -> std::string {
    if (!options.followLocalImports)
      return "";
    // The module the points-to analysis found for this import, by the
    // name it gave it: one search, as CPython's (the importer's folder
    // before installed modules only when it is the script's, the folder
    // above a package, namespace packages, the folders the program adds
    // to sys.path), and one name per file.
    std::string path, modName = absoluteName(level, dotted);
    if (pointsTo) {
      if (auto found = pointsTo->importedModule(s, dotted))
        std::tie(path, modName) = *found;
    } else {
      path = findLocalModule(dir, dotted);
      if (path.empty() && dir == f.unit->dir)
        path = findLocalModule(units.front()->dir, dotted);
    }
    // Installed library code is the tables' or LibrarySource's, as for the
    // points-to analysis (a PYTHONPATH may name a site-packages).
    if (path.empty() || pta::isInstalledLibrary(path))
      return "";
    // An import every run executes (a statement of the module's own
    // body): a module that does not parse stops the script, an error. One
    // inside a function or a branch runs when that does (FixMatch's
    // `import models.resnext as models` under `if args.arch ==
    // 'resnext'`).
    bool everyRun = f.isModule && f.unit->parsed && f.unit->parsed->module &&
                    llvm::is_contained(f.unit->parsed->module->body, s);
    if (!loadUnit(path, modName, everyRun))
      return "";
    return modName;
  };

  std::vector<std::string> localDefs;
  if (auto *imp = llvm::dyn_cast<ast::Import>(s)) {
    for (const ast::Alias *a : imp->names) {
      std::string local = followLocal(f.unit->dir, a->name);
      if (local.empty())
        foreignImports.insert(a->name.split('.').first.str());
      if (!local.empty())
        localDefs.push_back(varName(
            f, a->asname.empty() ? a->name.split('.').first : a->asname));
      if (a->asname.empty()) {
        StringRef head = a->name.split('.').first;
        bindName(head, head.str());
      } else {
        bindName(a->asname, a->name.str());
      }
    }
  } else {
    auto *from = llvm::cast<ast::ImportFrom>(s);
    std::string modName = from->module.str();
    bool isLocal = false;
    if (from->level > 0 || api.isLibraryName(modName) == false) {
      StringRef dir = f.unit->dir;
      std::string up = dir.str();
      for (unsigned i = 1; i < from->level; ++i)
        up = llvm::sys::path::parent_path(up).str();
      if (!modName.empty())
        isLocal = !followLocal(up, modName, from->level).empty();
    }
    // Names bound from a local module are qualified by its absolute name.
    std::string qualBase = modName;
    if (isLocal)
      qualBase = absoluteName(from->level, modName);
    for (const ast::Alias *a : from->names) {
      if (a->name == "*") {
        if (api.isKnownModule(api.canonicalize(modName)) || isLocal) {
          f.unit->starModules.push_back(api.canonicalize(qualBase));
          bindName("", modName); // records the library as imported
          f.unit->imports.erase("");
        } else {
          warnUnknown(f, a,
                      "names imported by 'from " + modName +
                          " import *' are unknown to detc");
        }
        continue;
      }
      StringRef local = a->asname.empty() ? a->name : a->asname;
      // `from pkg import mod` may name a local submodule.
      std::string sub =
          modName.empty() ? a->name.str() : modName + "." + a->name.str();
      bool localSub = false;
      if (from->level > 0 || !api.isLibraryName(sub)) {
        std::string up = f.unit->dir;
        for (unsigned i = 1; i < from->level; ++i)
          up = llvm::sys::path::parent_path(up).str();
        if (!followLocal(up, sub, from->level).empty())
          isLocal = localSub = true;
      }
      if (localSub)
        bindName(local, absoluteName(from->level, sub));
      else
        bindName(local, qualBase.empty() ? a->name.str()
                                         : qualBase + "." + a->name.str());
      if (isLocal)
        localDefs.push_back(varName(f, local));
    }
    // An unresolved relative import keeps its dots: it is no library. (A
    // namespace package is local once a submodule of it was found.)
    if (!isLocal)
      foreignImports.insert(std::string(from->level, '.') +
                            StringRef(modName).split('.').first.str());
  }
  if (!localDefs.empty())
    emit(ir::StmtOp::getOperationName(), s, localDefs, Effects(),
         {strAttr("kind", "import")});
}
