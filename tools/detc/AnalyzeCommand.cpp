//===- AnalyzeCommand.cpp - `detc analyze` --------------------------------===//
//
// Lowers the script (or reads a detc .mlir module), runs the analyses and
// reports: unsafe generator uses and lint findings as warnings, a replay
// summary per checkpoint, liveness at checkpoint hints. Exit status: 0, 1
// when there are findings and --werror is given, 2 on bad input, 3 when
// --verify finds that a dataflow solution does not satisfy its constraint
// system (a bug in detc, never in the user's script).
//
//===----------------------------------------------------------------------===//

#include "AnalyzeCommand.h"

#include "ApiTableFlag.h"
#include "TargetVersionFlag.h"
#include "ConfigFlags.h"

#include "EntryOptions.h"
#include "ReportWriters.h"
#include "ScriptSchedule.h"
#include "detc/base/Process.h"

#include "detc/analysis/FailureModel.h"
#include "detc/analysis/Findings.h"
#include "detc/analysis/HintProgram.h"
#include "detc/analysis/Suppressions.h"
#include "detc/analysis/Verify.h"
#include "detc/base/FileIO.h"
#include "detc/frontend/Lowering.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <map>

using namespace llvm;
using namespace detc;

cl::SubCommand detc::tool::analyzeCommand(
    "analyze", "Report unsafe RNG uses, replay state and lint findings");

namespace {
enum class Format { Text, Json, Sarif };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<script.py|.mlir>"),
                               cl::sub(tool::analyzeCommand));
cl::opt<std::string> failureModel(
    "failure-model", cl::value_desc("N=..,f=..,o=..,r=..,m=..[,ojit=..]"),
    cl::desc("Print the wasted work of periodic checkpointing at its optimum "
             "c* = sqrt(N*f/(2*o)) and of just-in-time checkpointing for N "
             "workers failing at rate f (per s, or f=2e-3/day), checkpoint "
             "cost o, restart cost r, minibatch time m (seconds) and JIT "
             "overhead ojit (a fraction), and for N = 4, 1024, 8192 (no "
             "script needed)"),
    cl::sub(tool::analyzeCommand));
cl::opt<Format> outputFormat(
    "format", cl::desc("Output format"), cl::init(Format::Text),
    cl::values(clEnumValN(Format::Text, "text", "compiler-style diagnostics"),
               clEnumValN(Format::Json, "json",
                          "JSON (schema in docs/analysis.md)"),
               clEnumValN(Format::Sarif, "sarif", "SARIF 2.1.0")),
    cl::sub(tool::analyzeCommand));
cl::list<std::string>
    searchPath("path",
               cl::desc("Also look for the script's local modules in DIR "
                        "(repeatable; then PYTHONPATH)"),
               cl::value_desc("DIR"), cl::sub(tool::analyzeCommand));
tool::EntryFlag entries(tool::analyzeCommand);
cl::opt<bool> werror("werror", cl::desc("Exit with status 1 on findings"),
                     cl::sub(tool::analyzeCommand));
tool::ConfigFlags config(tool::analyzeCommand);
tool::ApiTableFlag apiTables(tool::analyzeCommand, nullptr);
tool::TargetVersionFlag targetVersion(tool::analyzeCommand);
cl::opt<std::string> baseline(
    "baseline", cl::value_desc("FILE"),
    cl::desc("Do not report the findings FILE lists (written by "
             "--write-baseline); they count as suppressed"),
    cl::sub(tool::analyzeCommand));
cl::opt<std::string> writeBaselineFile(
    "write-baseline", cl::value_desc("FILE"),
    cl::desc("Write the findings reported now to FILE as a baseline (rule, "
             "file, fingerprint), then report as usual"),
    cl::sub(tool::analyzeCommand));
cl::opt<bool> stats("stats",
                    cl::desc("Print the time of lowering and of each analysis "
                             "phase, and the graph size, on stderr"),
                    cl::sub(tool::analyzeCommand));
cl::opt<bool> verify(
    "verify",
    cl::desc("Check with Z3 that the ThreadSafe and Needed solutions satisfy "
             "the constraints of SPEC Tables 1 and 3 and are extremal; "
             "prints one line per system on stderr"),
    cl::sub(tool::analyzeCommand));
tool::CheckHintFlags checkhint(tool::analyzeCommand,
                               "Allowance o: checkpoint time as a fraction of "
                               "the run; prints the best schedule of the "
                               "script's _checkpoint() hints");
} // namespace

/// Lowers the script, or reads a .mlir module (verified as it is parsed).
/// A lowered module is not verified yet: runAnalyze verifies it alongside
/// the statement graph.
static mlir::OwningOpRef<mlir::ModuleOp> load(mlir::MLIRContext &ctx,
                                              frontend::LoweringStats &stats) {
  if (StringRef(inputFile).ends_with(".mlir")) {
    llvm::SourceMgr sm;
    mlir::SourceMgrDiagnosticHandler handler(sm, &ctx);
    auto module = mlir::parseSourceFile<mlir::ModuleOp>(inputFile, &ctx);
    if (module && failed(ir::verifyBuildReferences(*module)))
      return nullptr;
    return module;
  }
  std::optional<frontend::ApiModel> model = apiTables.load(errs());
  if (!model)
    return nullptr;
  std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
  if (!target)
    return nullptr;
  frontend::DiagnosticEngine diags;
  frontend::LoweringOptions options;
  options.api = &*model;
  options.targetVersion = *target;
  options.searchPath.assign(searchPath.begin(), searchPath.end());
  options.stats = &stats;
  options.verify = false;
  auto module = frontend::lowerScript(ctx, inputFile, diags, options);
  diags.printAll(errs());
  return module;
}

/// Runs the Z3 checks; true when every system checks.
static bool verifyAnalyses(const analysis::ProgramAnalysis &a) {
  std::vector<analysis::VerifyOutcome> outcomes;
  outcomes.push_back(analysis::verifyThreadSafety(a.graph, *a.gens, a.ts));
  for (const analysis::CheckpointReplay &cp : a.replay.checkpoints)
    outcomes.push_back(
        analysis::verifyNeeded(a.graph, *a.gens, a.replay.ids, cp));
  bool ok = true;
  for (const analysis::VerifyOutcome &o : outcomes) {
    errs() << "verify: " << o.system << ": " << o.booleans << " booleans, "
           << o.constraints << " constraints: ";
    if (o.ok()) {
      errs() << "the solution satisfies every constraint and is "
             << (o.system == "ThreadSafe/ERR" ? "the greatest" : "the least")
             << "\n";
      continue;
    }
    ok = false;
    errs() << "FAILED: " << o.failure << "\n";
  }
  if (!ok)
    WithColor::error(errs(), "detc")
        << inputFile << ": internal error: an analysis result does not "
        << "satisfy its constraint system (please report this)\n";
  return ok;
}

/// --overhead: the CheckHint schedule of the script's hints.
static int printSchedule(mlir::ModuleOp module) {
  std::optional<tool::ScriptSchedule> s =
      tool::scheduleScript(module, inputFile, checkhint, errs());
  if (!s)
    return 2;
  tool::printScriptSchedule(*s, inputFile, checkhint, outs());
  return 0;
}

/// Fingerprints, `# detc: ignore[...]` comments, the baseline; writes the
/// baseline when asked. Nonzero: the exit status of a bad input.
static int filterFindings(analysis::Report &report,
                          const base::ProjectConfig &cfg) {
  analysis::assignFingerprints(report);
  std::vector<analysis::SuppressionError> errors =
      analysis::applySuppressions(report);
  for (const analysis::SuppressionError &e : errors)
    WithColor::error(errs(), (e.at.file + ":" + Twine(e.at.line) + ":" +
                              Twine(e.at.column))
                                 .str())
        << e.message << "\n";
  if (!errors.empty())
    return 2;
  if (!writeBaselineFile.empty()) {
    std::string text;
    raw_string_ostream os(text);
    analysis::writeBaseline(os, report,
                            llvm::sys::path::parent_path(writeBaselineFile));
    // Never a file the analysis read or that configures it.
    std::vector<runtime::ProtectedFile> protect = {
        {inputFile.getValue(), "the input file"}};
    if (!cfg.file.empty())
      protect.emplace_back(cfg.file, "the configuration in use");
    for (const std::string &table : apiTables.tables)
      protect.emplace_back(table, "an --api-table file");
    if (Error e = base::writeOutputFile(writeBaselineFile, text, protect)) {
      WithColor::error(errs(), writeBaselineFile)
          << "cannot write the baseline: " << toString(std::move(e)) << "\n";
      return 2;
    }
  }
  // After the baseline is written: it holds every current finding, also
  // when it is the file read here (--baseline b --write-baseline b
  // refreshes it; filtered first, it came out empty).
  if (!baseline.empty())
    if (Error e = analysis::applyBaseline(report, baseline)) {
      WithColor::error(errs(), baseline) << toString(std::move(e)) << "\n";
      return 2;
    }
  return 0;
}

/// `[tool.detc.rules]`: "off" drops a rule's findings, "error" makes them
/// errors (exit status 1 without --werror).
static void applyRuleSeverities(analysis::Report &report,
                                const base::ProjectConfig &cfg) {
  auto severity = [&](const analysis::Finding &f) -> StringRef {
    auto it = cfg.rules.find(f.rule);
    return it == cfg.rules.end() ? "warning" : StringRef(it->second.values[0]);
  };
  llvm::erase_if(report.findings, [&](const analysis::Finding &f) {
    return severity(f) == "off";
  });
  for (analysis::Finding &f : report.findings)
    f.isError = severity(f) == "error";
}

int detc::tool::runAnalyze() {
  if (!failureModel.empty()) {
    Expected<analysis::FailureModel> model =
        analysis::parseFailureModel(failureModel);
    if (!model) {
      WithColor::error(errs(), "detc") << toString(model.takeError()) << "\n";
      return 2;
    }
    analysis::printFailureModel(outs(), *model);
    return 0;
  }
  if (inputFile.empty()) {
    WithColor::error(errs(), "detc")
        << "analyze needs a script (detc analyze FILE.py)\n";
    return 2;
  }
  base::PhaseScope phase("analysing " + inputFile);
  std::optional<base::ProjectConfig> cfg;
  if (std::optional<int> status = config.start(inputFile, cfg))
    return *status;
  if (!checkhint.consistent(errs()))
    return 2;
  // The IR and the analyses live until the process exits: freeing them
  // object by object takes a tenth of the run on a large script.
  auto &ctx = *base::keepUntilExit(std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED));
  ctx.loadDialect<ir::DetcDialect>();
  auto start = std::chrono::steady_clock::now();
  frontend::LoweringStats loweringStats;
  mlir::ModuleOp module = load(ctx, loweringStats).release();
  if (!module)
    return 2;
  // The front end's AST, facts and points-to solution are gone.
  base::releaseFreedMemory();
  double loadSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // The lowered module is verified on a second thread while the statement
  // graph is built; nothing is reported before it has passed.
  bool verified = true;
  frontend::DiagnosticEngine verifyDiags;
  auto verifyModule = [&] {
    base::PhaseClock clock(loweringStats.phases);
    verified = succeeded(
        frontend::verifyLoweredModule(module, inputFile, verifyDiags));
    clock.lap("verify");
  };
  bool lowered = !StringRef(inputFile).ends_with(".mlir");
  start = std::chrono::steady_clock::now();
  auto &analysed = *base::keepUntilExit(
      std::make_unique<std::optional<analysis::ProgramAnalysis>>(
          entries.analyse(module, inputFile, errs(),
                          lowered ? llvm::function_ref<void()>(verifyModule)
                                  : llvm::function_ref<void()>(),
                          /*keepSolutions=*/verify)));
  double analysisSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!verified) {
    verifyDiags.printAll(errs());
    return 2;
  }
  if (!analysed)
    return 2;
  analysis::ProgramAnalysis &a = *analysed;
  if (stats) {
    errs() << "nodes: " << a.graph.numNodes() << "\n"
           << "variables: " << a.graph.vars.size() << "\n"
           << "seconds lower: " << llvm::format("%.6f", loadSeconds) << "\n";
    base::printPhaseStats(errs(), loweringStats.phases, "  ");
    base::printPhaseStats(errs(), a.phases);
    // Wall time: verification and some analyses run on two threads.
    errs() << "seconds analysis: " << llvm::format("%.6f", analysisSeconds)
           << "\n";
  }
  if (a.graph.truncated) {
    WithColor::error(errs(), "detc")
        << inputFile
        << ": the program is too large to expand (call graph too deep)\n";
    return 2;
  }
  if (verify && !verifyAnalyses(a))
    return 3;
  // The analyses' transient sets are gone; the report's strings need not
  // take pages beside them.
  base::releaseFreedMemory();
  std::vector<base::PhaseStat> reportPhases;
  base::PhaseClock reportClock(reportPhases);
  analysis::Report report = analysis::buildReport(a, inputFile);
  if (int status = filterFindings(report, *cfg))
    return status;
  applyRuleSeverities(report, *cfg);
  reportClock.lap("report");
  if (checkhint.overhead.getNumOccurrences() && outputFormat != Format::Text) {
    WithColor::error(errs(), "detc")
        << "--overhead prints the schedule as text; use --format=text\n";
    return 2;
  }
  bool errors = llvm::any_of(report.findings,
                             [](const analysis::Finding &f) { return f.isError; });
  int status = (werror && !report.findings.empty()) || errors ? 1 : 0;
  switch (outputFormat) {
  case Format::Text:
    writeText(outs(), report);
    if (checkhint.overhead.getNumOccurrences())
      if (int status = printSchedule(module))
        return status;
    break;
  case Format::Json:
    writeJson(outs(), report);
    break;
  case Format::Sarif:
    writeSarif(outs(), report, status);
    break;
  }
  if (stats) {
    outs().flush();
    reportClock.lap("write");
    base::printPhaseStats(errs(), reportPhases);
  }
  return status;
}
