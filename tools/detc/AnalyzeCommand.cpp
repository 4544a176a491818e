//===- AnalyzeCommand.cpp - `detc analyze` --------------------------------===//
//
// Lowers the script (or reads a detc .mlir module), runs the analyses and
// reports: unsafe generator uses and lint findings as warnings, a replay
// summary per checkpoint, liveness at checkpoint hints. Given folders or
// several files, a project: the files base::collectPythonFiles chooses,
// analysed on -j threads (one IR each), one report (analysis::mergeReports).
// Exit status: 0, 1 when there are findings and --werror is given, 2 on bad
// input (in any file of a project), 3 when --verify finds that a dataflow
// solution does not satisfy its constraint system (a bug in detc, never in
// the user's script).
//
//===----------------------------------------------------------------------===//

#include "AnalyzeCommand.h"

#include "ApiTableFlag.h"
#include "LibraryFlags.h"
#include "PointsToLimitFlag.h"
#include "TargetVersionFlag.h"
#include "ConfigFlags.h"

#include "EntryOptions.h"
#include "ProjectFlags.h"
#include "ReportWriters.h"
#include "ScriptSchedule.h"
#include "detc/base/Process.h"

#include "detc/analysis/FailureModel.h"
#include "detc/analysis/Findings.h"
#include "detc/analysis/HintProgram.h"
#include "detc/analysis/Suppressions.h"
#include "detc/analysis/Verify.h"
#include "detc/base/DiagnosticBlocks.h"
#include "detc/base/FileIO.h"
#include "detc/frontend/Lowering.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
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

cl::list<std::string> inputs(cl::Positional,
                             cl::desc("<script.py|.mlir|folder>..."),
                             cl::sub(tool::analyzeCommand));
tool::ProjectFlags projectFlags(tool::analyzeCommand, "Analyse");
cl::opt<unsigned> jobs("j",
                       cl::desc("Analyse N files at a time (default: one per "
                                "core)"),
                       cl::value_desc("N"), cl::init(0), cl::Prefix,
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
tool::LibraryFlags libraries(tool::analyzeCommand);
tool::PointsToLimitFlag pointsToLimit(tool::analyzeCommand);
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
    cl::desc("Check with Z3 that the unsafe-draw and checkpoint-state "
             "solutions satisfy their dataflow constraints and are the "
             "least ones (a self-check of detc; one line per system on "
             "stderr)"),
    cl::sub(tool::analyzeCommand));
tool::CheckHintFlags checkhint(tool::analyzeCommand,
                               "Allowance o: checkpoint time as a fraction of "
                               "the run; prints the best schedule of the "
                               "script's _checkpoint() hints");
} // namespace

/// Lowers the script, or reads a .mlir module (verified as it is parsed).
/// A lowered module is not verified yet: analyzeFile verifies it alongside
/// the statement graph.
static mlir::OwningOpRef<mlir::ModuleOp>
load(mlir::MLIRContext &ctx, StringRef file, const frontend::ApiModel *model,
     frontend::PythonVersion target, frontend::LoweringStats &stats,
     raw_ostream &err) {
  if (file.ends_with(".mlir")) {
    llvm::SourceMgr sm;
    mlir::SourceMgrDiagnosticHandler handler(sm, &ctx, err);
    auto module = mlir::parseSourceFile<mlir::ModuleOp>(file, &ctx);
    if (module && failed(ir::verifyBuildReferences(*module)))
      return nullptr;
    return module;
  }
  frontend::DiagnosticEngine diags;
  frontend::LoweringOptions options;
  options.api = model;
  options.targetVersion = target;
  options.searchPath.assign(searchPath.begin(), searchPath.end());
  options.librarySource = libraries.get();
  options.pointsToMemberLimit = pointsToLimit.members;
  options.stats = &stats;
  options.verify = false;
  auto module = frontend::lowerScript(ctx, file, diags, options);
  diags.printAll(err);
  return module;
}

/// Runs the Z3 checks; true when every system checks.
static bool verifyAnalyses(const analysis::ProgramAnalysis &a, StringRef file,
                           raw_ostream &err) {
  std::vector<analysis::VerifyOutcome> outcomes;
  outcomes.push_back(analysis::verifyThreadSafety(a.graph, *a.gens, a.ts));
  for (const analysis::CheckpointReplay &cp : a.replay.checkpoints)
    outcomes.push_back(
        analysis::verifyNeeded(a.graph, *a.gens, a.replay.ids, cp));
  bool ok = true;
  for (const analysis::VerifyOutcome &o : outcomes) {
    err << "verify: " << o.system << ": " << o.booleans << " booleans, "
        << o.constraints << " constraints: ";
    if (o.ok()) {
      err << "the solution satisfies every constraint and is "
          << (o.system == "ThreadSafe/ERR" ? "the greatest" : "the least")
          << "\n";
      continue;
    }
    ok = false;
    err << "FAILED: " << o.failure << "\n";
  }
  if (!ok)
    WithColor::error(err, "detc")
        << file << ": internal error: an analysis result does not "
        << "satisfy its constraint system (please report this)\n";
  return ok;
}

/// Writes the baseline when asked, then applies --baseline. Nonzero: the
/// exit status of a bad input.
static int applyBaselines(analysis::Report &report,
                          const base::ProjectConfig &cfg,
                          ArrayRef<std::string> files) {
  if (!writeBaselineFile.empty()) {
    std::string text;
    raw_string_ostream os(text);
    analysis::writeBaseline(os, report,
                            llvm::sys::path::parent_path(writeBaselineFile));
    // Never a file the analysis read or that configures it.
    std::vector<runtime::ProtectedFile> protect;
    for (const std::string &file : files)
      protect.emplace_back(file, files.size() == 1 ? "the input file" : "an input file");
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

namespace {
/// What analysing one file gave.
struct FileOutcome {
  int status = 0;
  std::optional<analysis::Report> report;
  /// The --overhead schedule (text), printed after the report.
  std::string schedule;
  /// The --stats figures, printed after the diagnostics (in a project,
  /// those of a module several files import are printed once: figures
  /// mixed into them were lost).
  std::string stats;
};

/// What every file's analysis shares.
struct AnalyzeSetup {
  const frontend::ApiModel *model = nullptr;
  frontend::PythonVersion target;
  /// One script: its IR and analyses live until the process exits (freeing
  /// them object by object takes a tenth of the run on a large script). A
  /// project frees each file's.
  bool keepUntilExit = true;
};
} // namespace

/// Lowers and analyses one file; its diagnostics go to `err`.
static FileOutcome analyzeFile(const std::string &file,
                               const AnalyzeSetup &setup, raw_ostream &err) {
  FileOutcome out;
  auto context = std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  mlir::MLIRContext &ctx = *context;
  ctx.loadDialect<ir::DetcDialect>();
  // Destroyed in reverse: the analyses, then the IR they point into, then
  // the context.
  mlir::OwningOpRef<mlir::ModuleOp> owned;
  auto analysedOwner =
      std::make_unique<std::optional<analysis::ProgramAnalysis>>();
  auto keep = llvm::make_scope_exit([&] {
    if (!setup.keepUntilExit)
      return;
    base::keepUntilExit(std::move(analysedOwner));
    (void)owned.release();
    base::keepUntilExit(std::move(context));
  });
  auto start = std::chrono::steady_clock::now();
  frontend::LoweringStats loweringStats;
  owned = load(ctx, file, setup.model, setup.target, loweringStats, err);
  if (!owned) {
    out.status = 2;
    return out;
  }
  mlir::ModuleOp module = *owned;
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
    verified =
        succeeded(frontend::verifyLoweredModule(module, file, verifyDiags));
    clock.lap("verify");
  };
  bool lowered = !StringRef(file).ends_with(".mlir");
  start = std::chrono::steady_clock::now();
  std::optional<analysis::ProgramAnalysis> &analysed = *analysedOwner;
  analysed = entries.analyse(module, file, err,
                             lowered ? llvm::function_ref<void()>(verifyModule)
                                     : llvm::function_ref<void()>(),
                             /*keepSolutions=*/verify);
  double analysisSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!verified) {
    // The input parsed and lowered: a module that does not verify is
    // detc's bug, not the script's.
    verifyDiags.printAll(err);
    out.status = 3;
    return out;
  }
  if (!analysed) {
    out.status = 2;
    return out;
  }
  analysis::ProgramAnalysis &a = *analysed;
  if (stats) {
    raw_string_ostream os(out.stats);
    os << "nodes: " << a.graph.numNodes() << "\n"
        << "variables: " << a.graph.vars.size() << "\n"
        << "seconds lower: " << llvm::format("%.6f", loadSeconds) << "\n"
        << "library files: " << loweringStats.libraryFiles << " ("
        << loweringStats.libraryFilesCached << " from the cache)\n";
    base::printPhaseStats(os, loweringStats.phases, "  ");
    base::printPhaseStats(os, a.phases);
    // Wall time: verification and some analyses run on two threads.
    os << "seconds analysis: " << llvm::format("%.6f", analysisSeconds)
        << "\n";
  }
  if (a.graph.truncated) {
    WithColor::error(err, "detc")
        << file << ": " << a.graph.truncationMessage() << "\n";
    out.status = 2;
    return out;
  }
  if (verify && !verifyAnalyses(a, file, err)) {
    out.status = 3;
    return out;
  }
  // The analyses' transient sets are gone; the report's strings need not
  // take pages beside them.
  base::releaseFreedMemory();
  analysis::Report report = analysis::buildReport(a, file);
  analysis::assignFingerprints(report);
  std::vector<analysis::SuppressionError> errors =
      analysis::applySuppressions(report);
  for (const analysis::SuppressionError &e : errors)
    WithColor::error(err, (e.at.file + ":" + Twine(e.at.line) + ":" +
                           Twine(e.at.column))
                              .str())
        << e.message << "\n";
  if (!errors.empty()) {
    out.status = 2;
    return out;
  }
  if (checkhint.overhead.getNumOccurrences()) {
    std::optional<tool::ScriptSchedule> s =
        tool::scheduleScript(module, file, checkhint, err);
    if (!s) {
      out.status = 2;
      return out;
    }
    raw_string_ostream os(out.schedule);
    tool::printScriptSchedule(*s, file, checkhint, os);
  }
  out.report = std::move(report);
  return out;
}

/// The files the command line names: a project when it names a folder or
/// more than one file.
static std::optional<std::vector<std::string>>
projectFiles(const base::ProjectConfig &cfg, bool &project) {
  project = tool::ProjectFlags::isProject(inputs);
  if (!project)
    return std::vector<std::string>(inputs.begin(), inputs.end());
  return projectFlags.files(inputs, cfg, config, errs());
}

/// Analyses `files` on `jobs` threads; each file's diagnostics are printed
/// together, in the files' order.
static std::vector<FileOutcome> analyzeFiles(ArrayRef<std::string> files,
                                             const AnalyzeSetup &setup) {
  std::vector<FileOutcome> outcomes(files.size());
  if (files.size() == 1) {
    outcomes[0] = analyzeFile(files[0], setup, errs());
    errs() << outcomes[0].stats;
    return outcomes;
  }
  std::vector<std::string> diagnostics(files.size());
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(jobs));
  for (size_t i = 0; i < files.size(); ++i)
    pool.async([&, i] {
      raw_string_ostream err(diagnostics[i]);
      outcomes[i] = analyzeFile(files[i], setup, err);
    });
  pool.wait();
  // A module several scripts import is lowered with each: its warnings
  // are printed once.
  llvm::StringSet<> seen;
  std::string report;
  for (const std::string &d : diagnostics)
    base::appendNewDiagnostics(d, seen, report);
  errs() << report;
  for (size_t i = 0; i < files.size(); ++i)
    if (!outcomes[i].stats.empty())
      errs() << "statistics of " << files[i] << ":\n" << outcomes[i].stats;
  return outcomes;
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
  if (inputs.empty()) {
    WithColor::error(errs(), "detc")
        << "analyze needs a script or a folder (detc analyze FILE.py)\n";
    return 2;
  }
  // The configuration is the one of the first path (for a folder, the one
  // found from inside it).
  std::optional<base::ProjectConfig> cfg;
  if (std::optional<int> status =
          config.start(tool::configurationStart(inputs), cfg))
    return *status;
  if (!checkhint.consistent(errs()))
    return 2;
  bool project = false;
  std::optional<std::vector<std::string>> files = projectFiles(*cfg, project);
  if (!files)
    return 2;
  if (project && checkhint.overhead.getNumOccurrences()) {
    WithColor::error(errs(), "detc")
        << "--overhead schedules one script's hints; name one script\n";
    return 2;
  }
  if (checkhint.overhead.getNumOccurrences() && outputFormat != Format::Text) {
    WithColor::error(errs(), "detc")
        << "--overhead prints the schedule as text; use --format=text\n";
    return 2;
  }
  if (files->empty())
    WithColor::warning(errs(), "detc")
        << "no Python files to analyse in the paths given\n";
  base::PhaseScope phase(project ? "analysing " + Twine(files->size()).str() +
                                       " files"
                                 : "analysing " + files->front());
  AnalyzeSetup setup;
  setup.keepUntilExit = !project;
  std::optional<frontend::ApiModel> model;
  if (llvm::any_of(*files, [](StringRef f) { return !f.ends_with(".mlir"); })) {
    model = apiTables.load(errs());
    if (!model)
      return 2;
    std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
    if (!target)
      return 2;
    setup.model = &*model;
    setup.target = *target;
  }
  std::vector<FileOutcome> outcomes = analyzeFiles(*files, setup);

  std::vector<base::PhaseStat> reportPhases;
  base::PhaseClock reportClock(reportPhases);
  int inputStatus = 0;
  std::vector<analysis::Report> reports;
  std::vector<analysis::AnalysedFile> analysedFiles;
  for (size_t i = 0; i < files->size(); ++i) {
    FileOutcome &o = outcomes[i];
    inputStatus = std::max(inputStatus, o.status);
    analysis::AnalysedFile f{(*files)[i], o.status, {}, false};
    if (o.report) {
      f.entries = o.report->entries;
      f.libraryEntries = o.report->libraryEntries;
      reports.push_back(std::move(*o.report));
    }
    analysedFiles.push_back(std::move(f));
  }
  // One script: its status is the command's, and it has no report.
  if (!project && inputStatus)
    return inputStatus;
  analysis::Report report =
      project ? analysis::mergeReports(std::move(reports),
                                       std::move(analysedFiles))
              : std::move(reports.front());
  if (int status = applyBaselines(report, *cfg, *files))
    return status;
  applyRuleSeverities(report, *cfg);
  reportClock.lap("report");
  bool errors = llvm::any_of(report.findings,
                             [](const analysis::Finding &f) { return f.isError; });
  int status = (werror && !report.findings.empty()) || errors ? 1 : 0;
  // A file that could not be analysed makes the project's status that of
  // a bad input (or an internal error): its findings are missing.
  status = std::max(status, inputStatus);
  switch (outputFormat) {
  case Format::Text:
    writeText(outs(), report);
    if (!project)
      outs() << outcomes.front().schedule;
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
