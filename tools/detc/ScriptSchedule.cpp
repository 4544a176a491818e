//===- ScriptSchedule.cpp - The CheckHint schedule of a script ------------===//

#include "ScriptSchedule.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <map>

using namespace llvm;
using namespace detc;
using namespace detc::tool;

CheckHintFlags::CheckHintFlags(cl::SubCommand &sub, StringRef overheadHelp)
    : overhead("overhead", cl::desc(overheadHelp), cl::value_desc("fraction"),
               cl::sub(sub)),
      ckptCost("ckpt-cost",
               cl::desc("Checkpoint cost t_c in seconds (a hint's own "
                        "'# detc: cost=' overrides it there)"),
               cl::value_desc("seconds"), cl::init(1.0), cl::sub(sub)),
      failureRate("failure-rate", cl::desc("Failure probability per second"),
                  cl::value_desc("p"), cl::init(1e-5), cl::sub(sub)) {}

/// `# detc: cost=SECONDS` comments of the input file, by line.
static std::map<unsigned, double> costAnnotations(StringRef file) {
  std::map<unsigned, double> costs;
  auto buffer = MemoryBuffer::getFile(file);
  if (!buffer)
    return costs;
  Regex annotation("#[ \t]*detc:[ \t]*cost[ \t]*=[ \t]*"
                   "([0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?)");
  SmallVector<StringRef, 2> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    SmallVector<StringRef, 4> m;
    if (annotation.match(lines[i], &m))
      costs[unsigned(i + 1)] = std::strtod(m[1].str().c_str(), nullptr);
  }
  return costs;
}

std::optional<ScriptSchedule>
detc::tool::scheduleScript(mlir::ModuleOp module, StringRef file,
                           const CheckHintFlags &flags, raw_ostream &errs) {
  if (flags.overhead < 0 || flags.ckptCost < 0 || flags.failureRate < 0 ||
      flags.failureRate > 1) {
    errs << "detc: error: --overhead, --ckpt-cost and --failure-rate must be "
            ">= 0 (the failure rate at most 1)\n";
    return std::nullopt;
  }
  std::map<unsigned, double> costs = costAnnotations(file);
  ScriptSchedule s;
  s.hints = analysis::buildHintProgram(
      module, [&](mlir::Operation *op) -> std::optional<double> {
        analysis::SourcePoint at = analysis::sourcePoint(op);
        if (at.file != file)
          return std::nullopt;
        auto it = costs.find(at.line);
        if (it == costs.end())
          return std::nullopt;
        return it->second;
      });
  auto where = [&](const analysis::SourcePoint &p) {
    return p.valid() ? p.file + ":" + std::to_string(p.line) + ":" +
                           std::to_string(p.column) + ": "
                     : file.str() + ": ";
  };
  for (const analysis::HintProgramNote &w : s.hints.warnings)
    errs << where(w.at) << "warning: " << w.message << " [detc-schedule]\n";
  if (s.hints.error) {
    errs << where(s.hints.error->at) << "error: " << s.hints.error->message
         << " [detc-schedule]\n";
    return std::nullopt;
  }
  analysis::LoopProgram &program = s.hints.program;
  program.allowance = flags.overhead;
  program.checkpointSeconds = flags.ckptCost;
  program.failureRate = flags.failureRate;
  s.best = analysis::schedulePeriodic(program);
  if (s.best.period)
    s.hintOp = s.hints.hintOps.at(s.best.hint);
  return s;
}

void detc::tool::printScriptSchedule(const ScriptSchedule &s, StringRef file,
                                     const CheckHintFlags &flags,
                                     raw_ostream &os) {
  const analysis::LoopProgram &program = s.hints.program;
  std::optional<analysis::ScheduleProblem> flat = program.unroll(1000000);
  double total = program.totalSeconds();
  os << file << ": checkpoint schedule (CheckHint, o = "
     << format("%g", double(flags.overhead))
     << ", t_c = " << format("%g", double(flags.ckptCost))
     << " s, p = " << format("%g", double(flags.failureRate)) << "/s): ";
  if (s.best.period)
    os << "at hint '" << s.best.hint << "' every " << s.best.period
       << " arrivals, " << s.best.checkpoints << " checkpoints over "
       << s.best.arrivals << " arrivals\n";
  else
    os << "no checkpoint\n";
  os << "  estimated run " << format("%g", total) << " s ("
     << s.hints.annotatedTasks << " annotated costs, " << s.hints.modelledTasks
     << " from the default model); expected recovery "
     << format("%g", s.best.expectedRecovery) << " s";
  if (flat)
    os << " (unrolled optimum "
       << format("%g", analysis::unrolledOptimum(*flat)) << " s)";
  os << ", without checkpoints "
     << format("%g", analysis::blockCost(total, program.failureRate)) << " s\n";
}
