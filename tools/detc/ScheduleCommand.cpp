//===- ScheduleCommand.cpp - `detc schedule` ------------------------------===//
//
// `detc schedule TASKS.json [--overhead=O] [--ckpt-cost=S]
// [--failure-rate=P] [--algorithm=fast|naive] [--format=text|json]
// [--stats]`: the CheckHint schedule of a task file (TaskFile.h): which
// hints get a checkpoint, the expected recovery time and the overhead.
// Command-line parameters override the file's.
//
//===----------------------------------------------------------------------===//

#include "ScheduleCommand.h"

#include "detc/base/Process.h"
#include "SchedulePlot.h"
#include "TaskFile.h"

#include "detc/base/FileIO.h"
#include "detc/base/NumberFlags.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <numeric>

using namespace llvm;
using namespace detc;

cl::SubCommand detc::tool::scheduleCommand(
    "schedule", "Choose the checkpoint hints of a task file (CheckHint)");

namespace {
enum class Algorithm { Auto, Fast, Naive, Labels, Z3 };
enum class Format { Text, JSON };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<tasks.json>"),
                               cl::Required, cl::sub(tool::scheduleCommand));
base::NumberFlag overhead("overhead",
                         cl::desc("Allowance o: checkpoint time as a fraction "
                                  "of the run time (overrides the file)"),
                         cl::value_desc("fraction"),
                         cl::sub(tool::scheduleCommand));
base::NumberFlag ckptCost("ckpt-cost",
                         cl::desc("Checkpoint cost t_c in seconds (overrides "
                                  "the file)"),
                         cl::value_desc("seconds"),
                         cl::sub(tool::scheduleCommand));
base::NumberFlag failureRate("failure-rate",
                            cl::desc("Failure probability per second p "
                                     "(overrides the file)"),
                            cl::value_desc("p"),
                            cl::sub(tool::scheduleCommand));
cl::opt<Algorithm> algorithm(
    "algorithm", cl::desc("Scheduler"), cl::init(Algorithm::Auto),
    cl::values(
        clEnumValN(Algorithm::Auto, "auto",
                   "fast with equal hint costs, labels otherwise (default)"),
        clEnumValN(Algorithm::Fast, "fast",
                   "exact Lagrangian algorithm (equal hint costs)"),
        clEnumValN(Algorithm::Naive, "naive",
                   "the O(m*n^2) DP as written (equal hint costs)"),
        clEnumValN(Algorithm::Labels, "labels",
                   "exact label setting for per-hint costs"),
        clEnumValN(Algorithm::Z3, "z3",
                   "exact 0-1 program in Z3's Optimize (small instances)")),
    cl::sub(tool::scheduleCommand));
cl::opt<Format> outputFormat(
    "format", cl::desc("Output format"), cl::init(Format::Text),
    cl::values(clEnumValN(Format::Text, "text", "readable summary"),
               clEnumValN(Format::JSON, "json", "every chosen hint")),
    cl::sub(tool::scheduleCommand));
cl::opt<bool> stats("stats", cl::desc("Print the solver's time and steps"),
                    cl::sub(tool::scheduleCommand));
cl::opt<std::string> plot("plot",
                          cl::desc("Also draw the timeline and the curve of "
                                   "expected recovery vs allowance as SVG"),
                          cl::value_desc("file.svg"),
                          cl::sub(tool::scheduleCommand));

/// A number as %g prints it (formatv has no general format).
std::string num(double x) {
  char buffer[32];
  snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

void fail(const Twine &message) {
  WithColor::error(errs(), "detc schedule") << message << "\n";
}

/// A command-line parameter in its range, or the file's value.
bool override(base::NumberFlag &opt, double max, double &into, bool &has) {
  if (opt.getNumOccurrences() == 0)
    return true;
  if (!base::checkFlagRange(opt, 0, max, "detc schedule", errs()))
    return false;
  into = opt;
  has = true;
  return true;
}

/// A number for --format=json: JSON has no inf or NaN.
json::Value jsonNumber(double x) {
  return std::isfinite(x) ? json::Value(x) : json::Value(nullptr);
}

std::string taskName(const tool::TaskFile &f, size_t task) {
  if (task < f.names.size() && !f.names[task].empty())
    return f.names[task];
  return "task " + std::to_string(task);
}
} // namespace

/// Writes --plot (atomically); false after reporting an error.
bool writePlot(const tool::PlotInput &in) {
  if (plot.empty())
    return true;
  std::string svg = tool::renderSchedulePlot(in);
  if (Error e = base::writeOutputFile(plot, svg, {inputFile})) {
    fail("cannot write '" + plot + "': " + toString(std::move(e)));
    return false;
  }
  return true;
}

/// Times (from the start) of checkpoints after the given tasks.
std::vector<double> checkpointTimes(const std::vector<double> &tasks,
                                    const std::vector<size_t> &after) {
  std::vector<double> times;
  double t = 0;
  size_t next = 0;
  for (size_t k = 0; k < tasks.size() && next < after.size(); ++k) {
    t += tasks[k];
    if (after[next] == k) {
      times.push_back(t);
      ++next;
    }
  }
  return times;
}

/// A program with rolled loops: the best periodic schedule, and the
/// unrolled optimum beside it when the run unrolls to at most a million
/// tasks.
int scheduleProgram(tool::TaskFile &file) {
  analysis::LoopProgram &program = *file.program;
  program.checkpointSeconds = file.problem.checkpointSeconds;
  program.allowance = file.problem.allowance;
  program.failureRate = file.problem.failureRate;
  if (std::optional<std::string> why = program.unschedulable()) {
    fail(inputFile + ": " + *why);
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  analysis::PeriodicSchedule s = analysis::schedulePeriodic(program);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::optional<analysis::ScheduleProblem> flat = program.unroll(1000000);
  std::optional<double> optimum;
  if (flat)
    optimum = analysis::unrolledOptimum(*flat);
  double total = program.totalSeconds();
  double unprotected = analysis::blockCost(total, program.failureRate);
  uint64_t budget = program.maxCheckpoints();
  if (!plot.empty()) {
    tool::PlotInput in;
    in.title = formatv("{0}: every {1} arrivals at '{2}'", inputFile, s.period,
                       s.hint);
    in.failureRate = program.failureRate;
    in.allowance = program.allowance;
    std::vector<std::vector<std::string>> names;
    std::optional<analysis::ScheduleProblem> small =
        program.unroll(200000, &names);
    if (small) {
      // The periodic checkpoints on the unrolled run.
      std::vector<size_t> after;
      uint64_t arrivals = 0;
      for (size_t k = 0; k < names.size() && s.period; ++k)
        if (std::find(names[k].begin(), names[k].end(), s.hint) !=
                names[k].end() &&
            ++arrivals % s.period == 0 && k + 1 < small->taskSeconds.size())
          after.push_back(k);
      in.tasks = small->taskSeconds;
      in.checkpoints = checkpointTimes(in.tasks, after);
      // One at the very end of the run is not taken.
      llvm::erase_if(in.checkpoints, [&](double t) { return t >= total; });
    } else {
      in.tasks = {total}; // too long to draw task by task
      in.title += " (run too long to draw its checkpoints)";
    }
    analysis::LoopProgram at = program;
    auto recoveryAt = [&](double o) {
      at.allowance = o;
      return analysis::schedulePeriodic(at).expectedRecovery;
    };
    in.recoveryAt = recoveryAt;
    if (!writePlot(in))
      return 2;
  }
  if (outputFormat == Format::JSON) {
    json::Object out{
        {"total_seconds", jsonNumber(total)},
        {"max_checkpoints", budget == UINT64_MAX
                                ? json::Value(nullptr)
                                : json::Value(int64_t(budget))},
        {"hint", s.period ? json::Value(s.hint) : json::Value(nullptr)},
        {"period", int64_t(s.period)},
        {"arrivals", int64_t(s.arrivals)},
        {"checkpoints", int64_t(s.checkpoints)},
        {"expected_recovery_seconds", jsonNumber(s.expectedRecovery)},
        {"expected_recovery_without_checkpoints", jsonNumber(unprotected)},
        {"overhead_seconds", jsonNumber(s.overheadSeconds)}};
    if (optimum)
      out["unrolled_optimum_seconds"] = jsonNumber(*optimum);
    if (stats)
      out["stats"] =
          json::Object{{"algorithm", "periodic"}, {"solver_seconds", seconds}};
    outs() << formatv("{0:2}", json::Value(std::move(out))) << "\n";
    return 0;
  }
  outs() << formatv("{0}: program with rolled loops, {1} s in all; "
                    "checkpoint cost {2} s, allowance {3}%, failure rate "
                    "{4}/s; at most {5} checkpoints\n",
                    inputFile, num(total), num(program.checkpointSeconds),
                    num(100 * program.allowance), num(program.failureRate),
                    budget == UINT64_MAX ? std::string("unlimited")
                                         : std::to_string(budget));
  if (s.period)
    outs() << formatv("periodic schedule: at hint '{0}' every {1} "
                      "arrivals ({2} checkpoints over {3} arrivals)\n",
                      s.hint, s.period, s.checkpoints, s.arrivals);
  else
    outs() << "periodic schedule: no checkpoint\n";
  outs() << formatv("expected recovery time: {0} s (without checkpoints: {1} "
                    "s)\n",
                    num(s.expectedRecovery), num(unprotected));
  if (optimum)
    outs() << formatv("unrolled optimum ({0} tasks, any placement): {1} s\n",
                      flat->taskSeconds.size(), num(*optimum));
  else
    outs() << "unrolled optimum: not computed (more than 10^6 tasks)\n";
  outs() << formatv("checkpoint overhead: {0} s ({1}% of the run)\n",
                    num(s.overheadSeconds),
                    num(total > 0 ? 100 * s.overheadSeconds / total : 0.0));
  if (stats)
    outs() << formatv("solver: periodic, {0:f4} s\n", seconds);
  return 0;
}

int detc::tool::runSchedule() {
  base::PhaseScope phase("scheduling " + inputFile);
  std::optional<TaskFile> file = readTaskFile(inputFile);
  if (!file)
    return 2;
  analysis::ScheduleProblem &p = file->problem;
  if (!override(overhead, analysis::kMaxAllowance, p.allowance,
                file->hasAllowance) ||
      !override(ckptCost, analysis::kMaxCheckpointSeconds, p.checkpointSeconds,
                file->hasCheckpointSeconds) ||
      !override(failureRate, analysis::kMaxFailureRate, p.failureRate,
                file->hasFailureRate))
    return 2;
  for (auto [has, what] :
       {std::pair(file->hasAllowance, "the allowance (--overhead)"),
        std::pair(file->hasCheckpointSeconds,
                  "the checkpoint cost (--ckpt-cost)"),
        std::pair(file->hasFailureRate, "the failure rate (--failure-rate)")})
    if (!has) {
      fail(inputFile + ": " + what +
           " is given neither in the file nor on "
           "the command line");
      return 2;
    }
  if (file->program)
    return scheduleProgram(*file);

  if (!file->hintOverrides.empty()) {
    p.hintSeconds.clear();
    for (double c : file->hintOverrides)
      p.hintSeconds.push_back(std::isnan(c) ? p.checkpointSeconds : c);
  }
  bool uniform = p.uniformHintCosts();
  Algorithm chosen = algorithm;
  if (chosen == Algorithm::Auto)
    chosen = uniform ? Algorithm::Fast : Algorithm::Labels;
  if (!uniform && (chosen == Algorithm::Fast || chosen == Algorithm::Naive)) {
    fail(inputFile + ": the hints have different checkpoint costs (a "
                     "knapsack): use --algorithm=labels or --algorithm=z3");
    return 2;
  }

  double total =
      std::accumulate(p.taskSeconds.begin(), p.taskSeconds.end(), 0.0);
  if (!std::isfinite(total)) {
    fail(inputFile + ": the run's total time overflows (the task seconds "
                     "add up past 1.8e308 s)");
    return 2;
  }
  if (chosen == Algorithm::Naive &&
      double(p.blocks() + 1) * double(p.taskSeconds.size() + 1) >
          double(analysis::kMaxNaiveTableEntries)) {
    fail(formatv("{0}: --algorithm=naive needs a table of (checkpoints + 1) "
                 "x (tasks + 1) = {1} x {2} entries, more than its limit of "
                 "{3}; --algorithm=fast finds the same optimum",
                 inputFile, p.blocks() + 1, p.taskSeconds.size() + 1,
                 analysis::kMaxNaiveTableEntries));
    return 2;
  }
  double naiveWork = double(p.blocks()) * double(p.taskSeconds.size()) *
                     double(p.taskSeconds.size());
  if (chosen == Algorithm::Naive &&
      naiveWork > double(analysis::kMaxNaiveWork)) {
    fail(formatv("{0}: --algorithm=naive takes checkpoints x tasks^2 = "
                 "{1:e2} steps here, more than its limit of {2:e0} (about "
                 "30 s); --algorithm=fast finds the same optimum",
                 inputFile, naiveWork, double(analysis::kMaxNaiveWork)));
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  analysis::ScheduleResult r;
  switch (chosen) {
  case Algorithm::Naive:
    r = analysis::scheduleNaive(p);
    break;
  case Algorithm::Labels:
  case Algorithm::Z3: {
    analysis::KnapsackResult k = chosen == Algorithm::Z3
                                     ? analysis::scheduleKnapsack(p)
                                     : analysis::scheduleKnapsackLabels(p);
    if (!k.optimal) {
      fail(inputFile + ": no exact schedule: " + k.why);
      return 2;
    }
    r = k.schedule;
    break;
  }
  default:
    r = analysis::scheduleFast(p);
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  double unprotected = analysis::blockCost(total, p.failureRate);
  if (!plot.empty()) {
    tool::PlotInput in;
    in.title =
        formatv("{0}: {1} checkpoints", inputFile, r.checkpointAfter.size());
    in.tasks = p.taskSeconds;
    in.checkpoints = checkpointTimes(p.taskSeconds, r.checkpointAfter);
    in.failureRate = p.failureRate;
    in.allowance = p.allowance;
    analysis::ScheduleProblem at = p;
    auto recoveryAt = [&](double o) {
      at.allowance = o;
      if (uniform)
        return analysis::scheduleFast(at).expectedRecovery;
      analysis::KnapsackResult k = analysis::scheduleKnapsackLabels(at);
      return k.optimal ? k.schedule.expectedRecovery : NAN;
    };
    in.recoveryAt = recoveryAt;
    if (!writePlot(in))
      return 2;
  }
  const char *name = chosen == Algorithm::Naive    ? "naive"
                     : chosen == Algorithm::Labels ? "labels"
                     : chosen == Algorithm::Z3     ? "z3"
                                                   : "fast";

  if (outputFormat == Format::JSON) {
    json::Array hints;
    for (size_t t : r.checkpointAfter) {
      json::Object h{{"after_task", int64_t(t)}};
      if (!file->names.empty())
        h["name"] = taskName(*file, t);
      hints.push_back(std::move(h));
    }
    json::Object out{
        {"tasks", int64_t(p.taskSeconds.size())},
        {"total_seconds", jsonNumber(total)},
        {"max_checkpoints", uniform ? json::Value(int64_t(p.maxCheckpoints()))
                                    : json::Value(nullptr)},
        {"checkpoints", std::move(hints)},
        {"expected_recovery_seconds", jsonNumber(r.expectedRecovery)},
        {"expected_recovery_without_checkpoints", jsonNumber(unprotected)},
        {"overhead_seconds", jsonNumber(r.overheadSeconds)}};
    if (stats)
      out["stats"] = json::Object{{"algorithm", name},
                                  {"solver_seconds", seconds},
                                  {"lagrange_steps", r.lagrangeSteps}};
    outs() << formatv("{0:2}", json::Value(std::move(out))) << "\n";
    return 0;
  }
  outs() << formatv("{0}: {1} tasks, {2} s in all; checkpoint cost {3} s, "
                    "allowance {4}%, failure rate {5}/s\n",
                    inputFile, p.taskSeconds.size(), num(total),
                    num(p.checkpointSeconds), num(100 * p.allowance),
                    num(p.failureRate));
  if (uniform)
    outs() << formatv("at most {0} checkpoints (ceil(o*sum(t)/t_c), one per "
                      "hint at most): {1} chosen\n",
                      p.maxCheckpoints(), r.checkpointAfter.size());
  else
    outs() << formatv("per-hint checkpoint costs: the best set costing less "
                      "than o*sum(t) + t_c = {0} s: {1} chosen\n",
                      num(p.budgetLimit()), r.checkpointAfter.size());
  const size_t shown = 40;
  outs() << "checkpoint after:";
  for (size_t i = 0; i < r.checkpointAfter.size() && i < shown; ++i)
    outs() << (i ? ", " : " ") << taskName(*file, r.checkpointAfter[i]);
  if (r.checkpointAfter.size() > shown)
    outs() << formatv(", ... ({0} more; --format=json lists all)",
                      r.checkpointAfter.size() - shown);
  if (r.checkpointAfter.empty())
    outs() << " (none)";
  outs() << "\n";
  outs() << formatv("expected recovery time: {0} s (without checkpoints: "
                    "{1} s)\n",
                    num(r.expectedRecovery), num(unprotected));
  outs() << formatv("checkpoint overhead: {0} s ({1}% of the run)\n",
                    num(r.overheadSeconds),
                    num(total > 0 ? 100 * r.overheadSeconds / total : 0.0));
  if (stats)
    outs() << formatv("solver: {0}, {1:f4} s, {2} Lagrange steps\n", name,
                      seconds, r.lagrangeSteps);
  return 0;
}
