//===- detc.cpp - The detc driver -----------------------------------------===//
//
// `detc <command> ...`: one subcommand per job (parse, analyze, transform,
// schedule). Exit status: 0 success, 1 findings with --werror (or of a rule
// the project made an error), 2 bad input, 3 an internal check failed.
//
//===----------------------------------------------------------------------===//

#include "AnalyzeCommand.h"
#include "AuditCommand.h"
#include "InvariantsCommand.h"
#include "LowerCommand.h"
#include "ParseCommand.h"
#include "ScheduleCommand.h"
#include "TransformCommand.h"

#include "DetcCommit.inc" // DETC_COMMIT, written at build time

#include "detc/base/Process.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

/// `detc tranform ...`: a word that is neither a command nor a file is a
/// mistyped command (not a script to lower), with a suggestion.
static bool unknownCommand(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    return false;
  StringRef word = argv[1];
  static const char *const commands[] = {"analyze", "transform", "schedule",
                                         "parse",   "infer",     "check",
                                         "audit"};
  if (is_contained(commands, word) || word.contains('.') ||
      word.contains('/') || sys::fs::exists(word))
    return false;
  StringRef best;
  unsigned bestDistance = 3;
  for (StringRef c : commands)
    if (unsigned d = word.edit_distance(c); d < bestDistance)
      best = c, bestDistance = d;
  WithColor::error(errs(), "detc")
      << "unknown command '" << word << "'"
      << (best.empty() ? "" : ("; did you mean '" + best + "'?").str())
      << " (commands: analyze, transform, schedule, parse, infer, check, "
         "audit; or a FILE.py to lower)\n";
  return true;
}

/// Spellings other tools accept: `detc -V` (`--version`), `detc help`
/// (`--help`) and `detc help COMMAND` (`COMMAND --help`).
static std::vector<char *> usualSpellings(int argc, char **argv) {
  static char version[] = "--version", help[] = "--help";
  std::vector<char *> args(argv, argv + argc);
  if (argc == 2 && StringRef(argv[1]) == "-V")
    args[1] = version;
  else if (argc == 2 && StringRef(argv[1]) == "help")
    args[1] = help;
  else if (argc == 3 && StringRef(argv[1]) == "help")
    args = {argv[0], argv[2], help};
  return args;
}

static int runCommand(int rawArgc, char **rawArgv) {
  std::vector<char *> args = usualSpellings(rawArgc, rawArgv);
  int argc = int(args.size());
  char **argv = args.data();
  if (unknownCommand(argc, argv))
    return 2;
  // The script's own arguments follow it: not detc's options.
  // (`detc audit --help` is the audit's own, printed by the interpreter.)
  if (argc >= 2 && StringRef(argv[1]) == "audit")
    return detc::tool::runAudit(argc, argv);
  // LLVM's own options (code generation, debugging) are not detc's.
  cl::HideUnrelatedOptions(detc::tool::loweringCategory);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "detc " << DETC_VERSION << " (commit " << DETC_COMMIT
       << "), built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
  });
  detc::tool::recordCommandLine(argc, argv);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "detc: deterministic, replayable, recoverable deep-learning "
          "training\n\n"
          "  detc FILE.py [--emit=mlir|none]   lower to the detc dialect\n"
          "  detc analyze FILE.py|FOLDER... [--format=text|json|sarif] "
          "[--werror] [--exclude=PATTERN] [-j N] [--overhead=O]\n"
          "  detc transform FILE.py|FOLDER... --emit-python [-o OUT|OUTDIR] "
          "[--diff] "
          "[--seed N] [--overhead=O [--profile=F]]\n"
          "  detc schedule TASKS.json [--overhead=O] [--ckpt-cost=S] "
          "[--failure-rate=P]\n"
          "  detc parse FILE... [--emit=ast|json|none]\n"
          "  detc infer TRACE... -o invariants.json\n"
          "  detc check TRACE... --invariants=FILE [--format=text|json|sarif] "
          "[--werror]\n"
          "  detc audit [--python=PATH] [--steps N] [--format=text|json] "
          "FILE.py [ARGS...]   run it, report its random draws\n\n"
          "Exit status: 0 success (findings are warnings); 1 findings with "
          "--werror or of a rule the project made an error; 2 bad input or "
          "options; 3 an internal check failed (a bug in detc); 74 the "
          "output was closed before detc finished writing it (a pipe into "
          "`head`)\n",
          &errs()))
    return 2;
  if (detc::tool::analyzeCommand)
    return detc::tool::runAnalyze();
  if (detc::tool::transformCommand)
    return detc::tool::runTransform();
  if (detc::tool::parseCommand)
    return detc::tool::runParse();
  if (detc::tool::scheduleCommand)
    return detc::tool::runSchedule();
  if (detc::tool::inferCommand)
    return detc::tool::runInfer();
  if (detc::tool::checkCommand)
    return detc::tool::runCheck();
  if (detc::tool::hasTopLevelInput())
    return detc::tool::runLower();
  WithColor::error(errs(), "detc") << "no command given; try 'detc --help'\n";
  return 2;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  detc::base::installOutOfMemoryHandler("detc");
  detc::base::ignoreFileSizeLimitSignal();
  // The passes recurse over the input's nesting, which the frontend bounds
  // (kMaxNestingDepth): give them a stack that holds that bound, whatever
  // `ulimit -s` says.
  return detc::base::runOnLargeStack([&] { return runCommand(argc, argv); });
}
