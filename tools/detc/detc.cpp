//===- detc.cpp - The detc driver -----------------------------------------===//
//
// `detc <command> ...`: one subcommand per job (parse, analyze, transform,
// schedule). Exit status: 0 success, 1 findings with --werror, 2 bad input.
//
//===----------------------------------------------------------------------===//

#include "AnalyzeCommand.h"
#include "LowerCommand.h"
#include "ParseCommand.h"
#include "ScheduleCommand.h"
#include "TransformCommand.h"

#include "detc/base/Process.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static int runCommand(int argc, char **argv) {
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "detc: deterministic, replayable, recoverable deep-learning "
          "training\n\n"
          "  detc FILE.py [--emit=mlir|none]   lower to the detc dialect\n"
          "  detc analyze FILE.py [--format=text|json|sarif] [--werror] "
          "[--overhead=O [--profile=F]]\n"
          "  detc transform FILE.py --emit-python [-o OUT] [--diff] "
          "[--seed N] [--overhead=O [--profile=F]]\n"
          "  detc schedule TASKS.json [--overhead=O] [--ckpt-cost=S] "
          "[--failure-rate=P]\n"
          "  detc parse FILE... [--emit=ast|json|none]\n",
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
  if (detc::tool::hasTopLevelInput())
    return detc::tool::runLower();
  WithColor::error(errs(), "detc") << "no command given; try 'detc --help'\n";
  return 2;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  detc::base::installOutOfMemoryHandler("detc");
  // The passes recurse over the input's nesting, which the frontend bounds
  // (kMaxNestingDepth): give them a stack that holds that bound, whatever
  // `ulimit -s` says.
  return detc::base::runOnLargeStack([&] { return runCommand(argc, argv); });
}
