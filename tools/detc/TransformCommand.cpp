//===- TransformCommand.cpp - `detc transform` ----------------------------===//
//
// `detc transform FILE --emit-python [-o OUT] [--diff] [--seed N]
// [--overhead=O --ckpt-cost=S --failure-rate=P]`: lowers and analyses the
// script, chooses the CheckHint schedule of its hints (with --overhead;
// printed on stderr), plans the rewrite and prints the transformed
// script (or writes it to OUT with base::writeOutputFile: atomically,
// through symlinks, never over the input, a device or a read-only file).
// Exit status 2 on bad input or when something cannot be rewritten; then
// nothing is written. `detc transform PATH... -o OUTDIR` transforms a
// project into a copy of itself (codegen/ProjectLayout.h).
//
//===----------------------------------------------------------------------===//

#include "TransformCommand.h"

#include "ApiTableFlag.h"
#include "LibraryFlags.h"
#include "PointsToLimitFlag.h"
#include "TargetVersionFlag.h"
#include "detc/base/BoundedJSON.h"
#include "detc/invariants/Invariants.h"
#include "ConfigFlags.h"

#include "EntryOptions.h"
#include "ProjectFlags.h"

#include "detc/base/Process.h"
#include "ScriptSchedule.h"

#include "detc/analysis/Findings.h"
#include "detc/base/FileIO.h"
#include "detc/codegen/LineSplit.h"
#include "detc/codegen/ProjectLayout.h"
#include "detc/codegen/PythonScan.h"
#include "detc/codegen/Transform.h"
#include "detc/frontend/Lowering.h"
#include "detc/frontend/Parser.h"
#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "mlir/IR/MLIRContext.h"
#include <set>
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace detc;

cl::SubCommand detc::tool::transformCommand(
    "transform", "Emit the deterministic version of a training script");

namespace {
cl::list<std::string> inputs(cl::Positional, cl::desc("<script.py|folder>..."),
                             cl::OneOrMore, cl::sub(tool::transformCommand));
tool::ProjectFlags projectFlags(tool::transformCommand, "Transform");
cl::opt<bool> emitPython("emit-python",
                         cl::desc("Emit the transformed Python script"),
                         cl::sub(tool::transformCommand));
cl::opt<std::string> outputFile("o",
                               cl::desc("Output file (default: stdout); for "
                                        "a project, the folder its "
                                        "transformed copy goes to"),
                                cl::value_desc("file"),
                                cl::sub(tool::transformCommand));
cl::opt<bool> showDiff("diff",
                       cl::desc("Print a unified diff of the edits instead"),
                       cl::sub(tool::transformCommand));
cl::opt<std::string>
    seed("seed",
         cl::desc("Key every stream with this seed instead of the script's "
                  "own seeds (DETC_SEED at run time overrides it)"),
         cl::value_desc("N"), cl::sub(tool::transformCommand));
cl::opt<bool> noDeterministicKernels(
    "no-deterministic-kernels",
    cl::desc("Do not set torch.use_deterministic_algorithms and the "
             "cuDNN/cuBLAS switches"),
    cl::sub(tool::transformCommand));
cl::opt<std::string> runtimePath(
    "runtime-path",
    cl::desc("Directory of the detc_runtime package, added to sys.path by "
             "the emitted script (default: rely on PYTHONPATH)"),
    cl::value_desc("dir"), cl::sub(tool::transformCommand));
tool::ConfigFlags config(tool::transformCommand);
tool::ApiTableFlag apiTables(tool::transformCommand, nullptr);
tool::TargetVersionFlag targetVersion(tool::transformCommand);
tool::LibraryFlags libraries(tool::transformCommand);
tool::PointsToLimitFlag pointsToLimit(tool::transformCommand);
cl::list<std::string>
    searchPath("path",
               cl::desc("Also look for the script's local modules in DIR "
                        "(repeatable; then PYTHONPATH)"),
               cl::value_desc("DIR"), cl::sub(tool::transformCommand));
tool::EntryFlag entries(tool::transformCommand);
cl::opt<bool> strict(
    "strict",
    cl::desc("Refuse (exit 2, nothing written) a script with a random call "
             "detc cannot make deterministic, instead of leaving it with a "
             "warning"),
    cl::sub(tool::transformCommand));
cl::opt<std::string> jitCheckpoint(
    "jit-checkpoint", cl::ValueOptional, cl::value_desc("guard-step"),
    cl::desc("Just-in-time checkpointing (docs/jit.md): a checkpoint only "
             "when a failure happens (an exception before the optimizer "
             "step, a hang, SIGTERM/SIGUSR1), as of the start of the "
             "minibatch; --detc-restart redoes at most that minibatch. "
             "=guard-step also keeps a copy of what each optimizer step "
             "changes, so a failure inside the step is covered in a single "
             "process too"),
    cl::sub(tool::transformCommand));
cl::opt<std::string> vaccinate(
    "vaccinate", cl::ValueOptional, cl::value_desc("NAME,..."),
    cl::desc("In-situ crash recovery (docs/vaccinate.md): the entry function "
             "and the functions it calls (or the NAMEs given) run behind "
             "crash barriers; an exception is fixed in place (a policy "
             "file, --detc-recovery=policy.py, or a prompt) and execution "
             "continues from the statement that raised"),
    cl::sub(tool::transformCommand));
cl::opt<std::string> traceFlag(
    "trace", cl::ValueOptional, cl::value_desc("DIR"),
    cl::desc("Training traces (docs/traincheck.md): the script writes JSON "
             "lines of its forward/backward/step/zero_grad/train/eval calls "
             "and per-step parameter state to DIR (default detc-trace), one "
             "file per process, for `detc infer`"),
    cl::sub(tool::transformCommand));
cl::opt<std::string> checkFlag(
    "check", cl::value_desc("invariants.json"),
    cl::desc("Online invariant checking (docs/traincheck.md): the script "
             "checks the invariants `detc infer` wrote as it trains and "
             "reports each violation within the iteration that caused it"),
    cl::sub(tool::transformCommand));
tool::CheckHintFlags checkhint(
    tool::transformCommand,
    "Allowance o: checkpoint at the _checkpoint() hint the CheckHint "
    "schedule chooses for this fraction of the run, with restart there");
/// The script being transformed (one of `inputs`, or a script of a project).
std::string inputFile;
} // namespace

static std::vector<std::string> &commandLine() {
  static std::vector<std::string> args;
  return args;
}

void detc::tool::recordCommandLine(int argc, char **argv) {
  commandLine().assign(argv, argv + argc);
}

/// The command that transforms another script as this run transforms the
/// input: this binary, the same flags, `{script}` for the input, `-o
/// {out}` for the output (no --diff).
static std::vector<std::string> retransformCommand() {
  std::vector<std::string> out;
  const std::vector<std::string> &args = commandLine();
  std::string self = sys::fs::getMainExecutable(
      args.empty() ? nullptr : args[0].c_str(),
      reinterpret_cast<void *>(&retransformCommand));
  out.push_back(self.empty() && !args.empty() ? args[0] : self);
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef a = args[i];
    if (a == "-o" || a == "--o") {
      ++i;
      continue;
    }
    if (a.starts_with("-o=") || a.starts_with("--o=") || a == "--diff")
      continue;
    out.push_back(a == inputFile ? "{script}" : a.str());
  }
  out.push_back("-o");
  out.push_back("{out}");
  return out;
}

static void fail(const Twine &message) {
  WithColor::error(errs(), "detc") << message << "\n";
}

namespace {
/// What the transform of one script makes: the emitted text (or its diff)
/// and the files it must never be written over.
struct Emitted {
  std::string text;
  std::vector<runtime::ProtectedFile> protect;
};
} // namespace

/// Transforms `inputFile`: 0 with `out` filled, or the exit status after
/// saying why.
static int transformScript(const std::optional<base::ProjectConfig> &cfg,
                           Emitted &out) {
  base::PhaseScope phase("transforming " + inputFile);
  std::optional<frontend::ApiModel> model = apiTables.load(errs());
  if (!model)
    return 2;
  std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
  if (!target)
    return 2;
  if (!checkhint.consistent(errs()))
    return 2;
  bool jit = jitCheckpoint.getNumOccurrences() > 0;
  if (jit && !jitCheckpoint.empty() && jitCheckpoint != "guard-step") {
    fail("--jit-checkpoint=" + jitCheckpoint +
         ": unknown mode (the one mode is guard-step)");
    return 2;
  }
  if (jit && checkhint.overhead.getNumOccurrences()) {
    fail("--jit-checkpoint and --overhead each choose the script's "
         "checkpoint hint; pass one of them");
    return 2;
  }
  codegen::TransformOptions options;
  if (!seed.empty()) {
    uint64_t value;
    if (StringRef(seed).getAsInteger(0, value)) {
      fail("--seed expects an unsigned 64-bit integer, got '" + seed + "'");
      return 2;
    }
    options.seed = value;
  }
  options.deterministicKernels = !noDeterministicKernels;
  options.strict = strict;
  options.runtimePath = runtimePath;
  if (traceFlag.getNumOccurrences())
    options.trace = traceFlag;
  if (checkFlag.getNumOccurrences()) {
    // The script may run elsewhere: an absolute path.
    SmallString<256> abs(checkFlag.getValue());
    sys::fs::make_absolute(abs);
    if (!sys::fs::exists(abs)) {
      fail("--check: no invariants file '" + checkFlag + "'");
      return 2;
    }
    // Read as `detc check` reads it: a file it refuses (or a relation it
    // does not know) is refused here, not a KeyError mid-training.
    Expected<std::string> text = base::readInputFile(abs);
    Expected<json::Value> parsed =
        text ? base::parseBoundedJSON(*text)
             : Expected<json::Value>(text.takeError());
    Expected<std::vector<invariants::Invariant>> invs =
        parsed ? invariants::fromJSON(*parsed)
               : Expected<std::vector<invariants::Invariant>>(
                     parsed.takeError());
    if (!invs) {
      fail("--check: " + checkFlag + ": " + toString(invs.takeError()));
      return 2;
    }
    options.check = std::string(abs);
  }
  if (vaccinate.getNumOccurrences()) {
    std::vector<std::string> names;
    SmallVector<StringRef> parts;
    StringRef(vaccinate).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef p : parts)
      names.push_back(p.trim().str());
    options.vaccinate = std::move(names);
    options.retransform = retransformCommand();
    SmallString<256> abs(inputFile);
    sys::fs::make_absolute(abs);
    options.sourcePath = std::string(abs);
  }

  frontend::DiagnosticEngine diags;
  // The lowering reads the same parse (and reports its errors).
  frontend::ParseCache parseCache(*target);
  const frontend::ParseCache::Entry &source =
      parseCache.get(inputFile, diags);
  if (!source.parsed || !source.parsed->module || diags.hasErrors()) {
    diags.printAll(errs());
    return 2;
  }
  // The script as planned: the user's, with statements sharing a line that
  // a planner needs on lines of their own split (a second pass), and the
  // JIT minibatch boundary.
  codegen::Relayout layout(source.file->getBytes());
  // A script indented by 2 or with tabs has no room for vaccination's
  // cells: it is planned re-indented (the user's bytes otherwise).
  auto roomForCells = [&](codegen::Relayout &l) {
    if (options.vaccinate)
      l.widenIndentation(codegen::TransformOptions::kVaccineIndentStep);
  };
  roomForCells(layout);
  // Diagnostics are told in the user's lines.
  auto printDiags = [&] {
    for (const frontend::Diagnostic &d : diags.getDiagnostics())
      frontend::DiagnosticEngine::print(errs(), layout.toUser(d, inputFile));
  };

  mlir::MLIRContext ctx;
  ctx.loadDialect<ir::DetcDialect>();
  frontend::LoweringOptions loweringOptions;
  loweringOptions.api = &*model;
  loweringOptions.searchPath.assign(searchPath.begin(), searchPath.end());
  loweringOptions.librarySource = libraries.get();
  loweringOptions.pointsToMemberLimit = pointsToLimit.members;
  loweringOptions.parseCache = &parseCache;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<analysis::ProgramAnalysis> analysed;
  const frontend::SourceFile *file = nullptr;
  const frontend::ParsedModule *parsed = nullptr;
  std::optional<codegen::EditList> edits;
  codegen::TransformSummary summary;
  bool ok = false;
  std::optional<codegen::HintCheckpoint> chosenHint = options.hint;
  std::set<uint32_t> wanted; // user offsets of statements to split out
  // Splits the lines of the statements at `offsets` (of the text planned)
  // too; false when that changes nothing. The caller plans again.
  auto splitOut = [&](ArrayRef<uint32_t> offsets) {
    size_t before = wanted.size();
    for (uint32_t offset : offsets)
      wanted.insert(layout.userOffset(offset));
    codegen::Relayout split(layout.userText());
    if (wanted.size() == before ||
        !split.splitShared(std::vector<uint32_t>(wanted.begin(), wanted.end())))
      return false;
    roomForCells(split);
    layout = std::move(split);
    return true;
  };
  const unsigned kPasses = 3; // the last may not split again
  // Lowers and analyses the script as `entry` has it; false after saying
  // why. `version`: what detc made of the user's script, for an internal
  // error (null: the user's own).
  auto lowerAndAnalyse = [&](const frontend::ParseCache::Entry &entry,
                             const char *version) {
    file = entry.file.get();
    parsed = entry.parsed.get();
    // A second lowering in a pass (with the JIT boundary) says again what
    // the first said about the same program.
    size_t reported = diags.getDiagnostics().size();
    if (parsed && parsed->module && !diags.hasErrors())
      module = frontend::lowerScript(ctx, inputFile, diags, loweringOptions);
    diags.dropRepeatsSince(reported);
    if (!module || diags.hasErrors()) {
      printDiags();
      if (version)
        fail(std::string("internal error: the script ") + version +
             " does not lower (please report this)");
      return false;
    }
    analysed = entries.analyse(*module, inputFile, errs());
    return analysed.has_value();
  };
  for (unsigned pass = 0;; ++pass) {
    analysed.reset();
    module = nullptr;
    edits.reset();
    summary = {};
    options.hint = chosenHint;
    // A module the JIT boundary went into on an earlier pass is read as
    // the user wrote it again.
    for (auto &[path, text] : options.moduleSources)
      parseCache.put(path, text, diags);
    // What an earlier pass reported is about a text no longer planned.
    if (pass > 0)
      diags.clear();
    if (!lowerAndAnalyse(pass == 0 && layout.identity()
                             ? source
                             : parseCache.put(inputFile, layout.text(), diags),
                         pass > 0 ? "with its statements on lines of their own"
                                  : nullptr))
      return diags.hasInternalErrors() ? 3 : 2;
    std::optional<uint32_t> boundaryOffset; // of the hint detc placed
    std::string boundaryModule;             // its file, when not the script
    // The planners may edit the modules the script imports (a training
    // loop in `engine.py`: its fast-forward guards, a JIT boundary); the
    // script carries the edited copies (runtime overlay.py).
    options.modules = &parseCache;
    if (jit) {
      // The script with the minibatch boundary hint, lowered and analysed
      // again; the boundary is instrumented like a CheckHint hint.
      std::optional<codegen::JitBoundary> boundary = codegen::placeJitBoundary(
          *file, *parsed->module, *module, diags,
          /*inlineBodyIsError=*/pass == kPasses, &parseCache);
      if (!boundary) {
        printDiags();
        return 2;
      }
      if (boundary->inlineBody) {
        // `for x, y in loader: step(x, y)`: split first.
        if (!splitOut({*boundary->inlineBody}))
          pass = kPasses - 1; // the next pass reports it
        continue;
      }
      boundaryOffset = boundary->lineStart + boundary->indent.size();
      std::string boundaryLine = boundary->indent + codegen::kJitHint.str();
      analysed.reset();
      module = nullptr;
      if (boundary->module.empty()) {
        codegen::Relayout placed = layout;
        placed.insertLine(boundary->lineStart, boundaryLine);
        layout = std::move(placed);
        if (!lowerAndAnalyse(parseCache.put(inputFile, layout.text(), diags),
                             "with the minibatch boundary"))
          return 2;
      } else {
        // The training loop is an imported module's (DeiT's `engine.py`):
        // the module gets the boundary, and the planners edit it too; the
        // emitted script carries the edited module (docs/jit.md).
        std::string user =
            parseCache.get(boundary->module, diags).file->getBytes().str();
        options.moduleSources[boundary->module] = user;
        std::string placed = user;
        placed.insert(boundary->lineStart, boundaryLine + "\n");
        parseCache.put(boundary->module, placed, diags);
        if (!lowerAndAnalyse(parseCache.get(inputFile, diags),
                             "with the minibatch boundary in a module"))
          return 2;
      }
      boundaryModule = boundary->module;
      module->walk([&](ir::HintOp hint) {
        std::optional<ir::SourceSpan> span =
            ir::getSourceSpan(hint->getLoc());
        if (span && span->exprBegin == *boundaryOffset &&
            (boundaryModule.empty() ? span->file == file->getName()
                                    : span->file == boundaryModule))
          options.hint = codegen::HintCheckpoint{
              hint, 0, /*jit=*/true,
              /*guardStep=*/jitCheckpoint == "guard-step"};
      });
      if (!options.hint) {
        fail("internal error: the minibatch boundary hint was not lowered "
             "(please report this)");
        return 2;
      }
    }
    analysis::ProgramAnalysis &a = *analysed;
    if (a.graph.truncated) {
      fail(inputFile + ": " + a.graph.truncationMessage());
      return 2;
    }
    if (checkhint.overhead.getNumOccurrences()) {
      std::optional<tool::ScriptSchedule> s =
          tool::scheduleScript(*module, inputFile, checkhint, errs());
      if (!s)
        return 2;
      if (pass == 0) // the schedule does not change with the layout
        tool::printScriptSchedule(*s, inputFile, checkhint, errs());
      if (s->hintOp)
        options.hint = codegen::HintCheckpoint{s->hintOp, s->best.period};
    }
    options.userSource.clear();
    options.userLines.clear();
    if (!layout.identity()) {
      options.userSource = layout.userText().str();
      for (unsigned line = 1; line <= layout.origins().size(); ++line)
        options.userLines.push_back(layout.userLine(line));
    }
    edits.emplace(file->getBytes());
    for (unsigned line = 1, last = 0; line <= layout.origins().size();
         ++line) {
      // A line of detc's own, or a later part of a split line: added.
      unsigned user = layout.userLine(line);
      if (!user || user == last)
        edits->markAdded(line);
      else if (layout.userLineText(user) != file->getLineText(line))
        edits->setUserLine(line, layout.userLineText(user).str());
      last = user ? user : last;
    }
    ok = codegen::planDeterminism(*file, *parsed->module, *module, a, options,
                                  diags, *edits, &summary);
    // Statements a planner needs on lines of their own: split their lines
    // and plan again (the JIT boundary is placed again too). A plan that
    // gets further may ask for more: a few passes at most.
    if (pass == kPasses || !splitOut(summary.ownLineRequests))
      break;
  }
  for (unsigned line : layout.movedLines()) {
    // The note goes where a comment can (not in a string it starts).
    uint32_t begin = layout.lineStart(line) + layout.origins()[line - 1].inserted;
    uint32_t end = codegen::commentableLineEnd(layout.text(), begin, begin);
    if (edits->lineOf(end) == line)
      edits->note(line, "a statement of a shared line, on a line of its own");
  }
  const std::vector<std::string> &leftAsIs = summary.leftAsIs;
  printDiags();
  if (!ok)
    return 2;
  if (!leftAsIs.empty()) {
    std::string list;
    for (const std::string &at : leftAsIs)
      list += (list.empty() ? "" : ", ") + at;
    WithColor::note(errs(), "detc")
        << inputFile << ": " << leftAsIs.size()
        << " random call(s) left nondeterministic (" << list
        << "; warnings above): the emitted script is deterministic except "
           "for what they draw, and says so when it runs; --strict refuses "
           "such scripts\n";
  }
  if (!summary.batchKeyed.empty()) {
    std::string list;
    for (const std::string &at : summary.batchKeyed)
      list += (list.empty() ? "" : ", ") + at;
    WithColor::note(errs(), "detc")
        << inputFile << ": " << summary.batchKeyed.size()
        << " per-batch draw(s) keyed by their batch (" << list
        << "): identical for any worker count, thread count and resume "
           "point, but a per-batch value cannot be invariant to the batch "
           "size\n";
  }

  StringRef sep = StringRef(inputFile).starts_with("/") ? "" : "/";
  std::string text = showDiff ? edits->diff(("a" + sep + inputFile).str(),
                                           ("b" + sep + inputFile).str())
                              : edits->apply();
  // The edits of the imported modules the script carries copies of.
  if (showDiff)
    for (const codegen::EditedModule &m : summary.modules)
      text += m.diff;
  if (!showDiff)
    if (std::optional<std::string> why =
            codegen::emittedSyntaxError(inputFile, text)) {
      fail("internal error: the transformed script is not valid Python (" +
           *why + "); nothing was written. This is a bug in detc: please "
           "report it with the script");
      return 3;
    }
  // The imported modules the script carries edited copies of: checked too.
  for (const codegen::EditedModule &m : summary.modules)
    if (std::optional<std::string> why =
            codegen::emittedSyntaxError(m.path, m.text)) {
      fail("internal error: the edited copy of " + m.path +
           " is not valid Python (" + *why +
           "); nothing was written. This is a bug in detc: please report "
           "it with the script");
      return 3;
    }
  out.text = std::move(text);
  // The output is never a file the transform read or that configures it.
  std::vector<runtime::ProtectedFile> &protect = out.protect;
  protect.emplace_back(inputFile, "the input file");
  if (cfg && !cfg->file.empty())
    protect.emplace_back(cfg->file, "the configuration in use");
  for (const std::string &table : apiTables.tables)
    protect.emplace_back(table, "an --api-table file");
  if (options.check)
    protect.emplace_back(*options.check, "the --check invariants file");
  for (std::string &module : parseCache.files())
    protect.emplace_back(std::move(module), "a module the script imports");
  return 0;
}

/// Whether --emit-python was asked for (on the command line or in the
/// configuration), after saying so when not.
static bool emitsPython() {
  if (!emitPython)
    fail("nothing to emit; pass --emit-python");
  return emitPython;
}

/// `detc transform FILE.py`: the transformed script on stdout or in -o.
static int transformOne() {
  inputFile = inputs.front();
  std::optional<base::ProjectConfig> cfg;
  if (std::optional<int> status = config.start(inputFile, cfg))
    return *status;
  if (!emitsPython())
    return 2;
  Emitted emitted;
  if (int status = transformScript(cfg, emitted))
    return status;
  if (outputFile.empty() || outputFile == "-") {
    outs() << emitted.text;
    return 0;
  }
  if (Error e =
          base::writeOutputFile(outputFile, emitted.text, emitted.protect)) {
    fail("cannot write '" + outputFile + "': " + toString(std::move(e)));
    return 2;
  }
  return 0;
}

/// The largest file of a project that is not Python `detc transform -o
/// OUTDIR` copies: configurations and small data, not data sets or weights.
static constexpr uint64_t kLargestCopiedFile = 64ull << 20;

/// `detc transform PATH... -o OUTDIR` (or --diff): the project's scripts
/// transformed, its other files copied (codegen/ProjectLayout.h). Every
/// script is transformed before anything is written: one that cannot be
/// leaves the output folder as it was.
static int transformProject() {
  std::optional<base::ProjectConfig> cfg;
  if (std::optional<int> status =
          config.start(tool::configurationStart(inputs), cfg))
    return *status;
  if (!emitsPython())
    return 2;
  if (vaccinate.getNumOccurrences() || checkhint.profile.getNumOccurrences()) {
    fail(std::string(vaccinate.getNumOccurrences() ? "--vaccinate" : "--profile") +
         " is for one script: name one script, not a project");
    return 2;
  }
  if (!showDiff && (outputFile.empty() || outputFile == "-")) {
    fail("a project (a folder or several files) is transformed into a "
         "folder: pass -o OUTDIR (or --diff to see the edits)");
    return 2;
  }
  SmallString<256> outDir(outputFile);
  if (!showDiff) {
    sys::fs::make_absolute(outDir);
    sys::path::remove_dots(outDir, /*remove_dot_dot=*/true);
    if (sys::fs::exists(outDir) && !sys::fs::is_directory(outDir)) {
      fail("-o " + outputFile + ": not a folder (a project is transformed "
           "into a folder)");
      return 2;
    }
  }
  // The output folder may lie inside the project (`-o build/det`): what an
  // earlier run wrote there is not part of the project.
  auto insideOutput = [&](StringRef file) {
    SmallString<256> abs(file);
    sys::fs::make_absolute(abs);
    sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
    return !showDiff && StringRef(abs).starts_with(outDir) &&
           (abs.size() == outDir.size() ||
            sys::path::is_separator(abs[outDir.size()]));
  };
  // Not the other way round: `-o .` would be the project itself.
  for (const std::string &path : inputs)
    if (insideOutput(path)) {
      fail("-o " + outputFile + " holds '" + path +
           "': a project is transformed into a copy, in a folder of its "
           "own (such as -o det/)");
      return 2;
    }
  std::vector<std::string> others;
  std::optional<std::vector<std::string>> files =
      projectFlags.files(inputs, *cfg, config, errs(), &others);
  if (!files)
    return 2;
  std::optional<frontend::PythonVersion> target = targetVersion.get(errs());
  if (!target)
    return 2;
  frontend::ParseCache kinds(*target);
  struct Planned {
    std::string source, destination;
    bool script = false;
    /// A file that is not Python: copied byte for byte when written.
    bool copied = false;
    Emitted emitted;
  };
  std::vector<Planned> planned;
  std::vector<std::string> failed;
  int worst = 0;
  unsigned alreadyTransformed = 0;
  for (const std::string &file : *files) {
    if (insideOutput(file))
      continue;
    Planned p;
    p.source = file;
    if (!showDiff) {
      Expected<std::string> to = codegen::projectOutputPath(file, outDir);
      if (!to) {
        fail(toString(to.takeError()));
        return 2;
      }
      p.destination = std::move(*to);
    }
    // A file named on the command line is a script; one found in a folder
    // is a script when it runs as a program.
    p.script = llvm::is_contained(inputs, file);
    if (!p.script) {
      frontend::DiagnosticEngine diags;
      const frontend::ParseCache::Entry &entry = kinds.get(file, diags);
      if (!entry.parsed || !entry.parsed->module || diags.hasErrors()) {
        diags.printAll(errs());
        failed.push_back(file);
        worst = std::max(worst, 2);
        continue;
      }
      if (codegen::writtenByDetc(*entry.parsed->module)) {
        ++alreadyTransformed;
        continue;
      }
      p.script = codegen::runsAsScript(*entry.parsed->module);
      if (!p.script)
        p.emitted.text = entry.file->getBytes().str();
    }
    if (p.script) {
      inputFile = file;
      if (int status = transformScript(cfg, p.emitted)) {
        failed.push_back(file);
        worst = std::max(worst, status);
        continue;
      }
    }
    planned.push_back(std::move(p));
  }
  if (planned.empty() && failed.empty() && !alreadyTransformed) {
    WithColor::warning(errs(), "detc")
        << "no Python files to transform in the paths given\n";
    return 0;
  }
  if (!failed.empty()) {
    std::string list;
    for (const std::string &f : failed)
      list += (list.empty() ? "" : ", ") + f;
    fail(Twine(failed.size()) + " file(s) of the project could not be "
         "transformed (" + list + "; errors above): nothing was written");
    return worst;
  }
  if (alreadyTransformed)
    WithColor::note(errs(), "detc")
        << "left out " << alreadyTransformed
        << " file(s) detc transform wrote (they import detc_runtime)\n";
  // The folders' other files (configurations, small data) go beside the
  // code, so the copy runs as the project does; the large ones (data sets,
  // weights) are left where they are, named.
  std::vector<std::string> tooLarge;
  if (!showDiff)
    for (const std::string &file : others) {
      if (insideOutput(file))
        continue;
      // Read when written; one that cannot be read is named now, so a
      // failure never leaves the folder half written.
      uint64_t size = 0;
      int fd = -1;
      if (sys::fs::file_size(file, size) || size > kLargestCopiedFile ||
          sys::fs::openFileForRead(file, fd)) {
        tooLarge.push_back(file);
        continue;
      }
      sys::fs::closeFile(fd);
      Expected<std::string> to = codegen::projectOutputPath(file, outDir);
      if (!to) {
        fail(toString(to.takeError()));
        return 2;
      }
      Planned p;
      p.source = file;
      p.destination = std::move(*to);
      p.copied = true;
      planned.push_back(std::move(p));
    }
  unsigned scripts = 0;
  for (const Planned &p : planned)
    scripts += p.script;
  if (showDiff) {
    for (const Planned &p : planned)
      if (p.script)
        outs() << p.emitted.text;
    return 0;
  }
  // Never over a file of the project (`-o .` would replace the sources).
  std::vector<runtime::ProtectedFile> sources;
  for (const Planned &p : planned)
    sources.emplace_back(p.source, "a file of the project");
  for (const Planned &p : planned) {
    std::vector<runtime::ProtectedFile> protect = p.emitted.protect;
    protect.insert(protect.end(), sources.begin(), sources.end());
    std::error_code ec =
        sys::fs::create_directories(sys::path::parent_path(p.destination));
    if (ec) {
      fail("cannot create the folder of '" + p.destination +
           "': " + ec.message());
      return 2;
    }
    std::unique_ptr<MemoryBuffer> bytes;
    if (p.copied) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> read =
          MemoryBuffer::getFile(p.source, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
      if (!read) {
        fail("cannot read '" + p.source + "': " + read.getError().message());
        return 2;
      }
      bytes = std::move(*read);
    }
    if (Error e = base::writeOutputFile(
            p.destination, bytes ? bytes->getBuffer() : p.emitted.text,
            protect)) {
      fail("cannot write '" + p.destination + "': " + toString(std::move(e)));
      return 2;
    }
  }
  WithColor::note(errs(), "detc")
      << "transformed " << scripts << " script(s) and copied "
      << planned.size() - scripts << " other file(s) into " << outputFile
      << "\n";
  if (!tooLarge.empty()) {
    std::string list;
    for (const std::string &f : tooLarge)
      list += (list.empty() ? "" : ", ") + f;
    WithColor::note(errs(), "detc")
        << "not copied (over " << (kLargestCopiedFile >> 20)
        << " MiB, or unreadable): " << list
        << "; copy or link them into " << outputFile
        << " if the scripts read them from their own folder\n";
  }
  return 0;
}

int detc::tool::runTransform() {
  if (!ProjectFlags::isProject(inputs))
    return transformOne();
  return transformProject();
}
