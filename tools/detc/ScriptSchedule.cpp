//===- ScriptSchedule.cpp - The CheckHint schedule of a script ------------===//

#include "ScriptSchedule.h"
#include "ProfileFile.h"

#include "detc/base/FileIO.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

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
                  cl::value_desc("p"), cl::init(1e-5), cl::sub(sub)),
      profile("profile",
              cl::desc("Task and checkpoint costs measured by a run of the "
                       "transformed script with --detc-profile FILE (a "
                       "'# detc: cost=' annotation still wins)"),
              cl::value_desc("file"), cl::sub(sub)) {}

bool CheckHintFlags::consistent(raw_ostream &errs) const {
  if (!base::checkFlagRange(overhead, 0, analysis::kMaxAllowance, "detc",
                               errs) ||
      !base::checkFlagRange(ckptCost, 0, analysis::kMaxCheckpointSeconds,
                               "detc", errs) ||
      !base::checkFlagRange(failureRate, 0, analysis::kMaxFailureRate,
                               "detc", errs))
    return false;
  if (overhead.getNumOccurrences())
    return true;
  for (const cl::Option *o :
       {static_cast<const cl::Option *>(&ckptCost),
        static_cast<const cl::Option *>(&failureRate),
        static_cast<const cl::Option *>(&profile)})
    if (o->getNumOccurrences()) {
      errs << "detc: error: --" << o->ArgStr
           << " is for the CheckHint schedule; give --overhead too\n";
      return false;
    }
  return true;
}

/// `# detc: cost=SECONDS` comments of the script, by line.
static std::map<unsigned, double> costAnnotations(StringRef text) {
  std::map<unsigned, double> costs;
  Regex annotation("#[ \t]*detc:[ \t]*cost[ \t]*=[ \t]*"
                   "([0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?)");
  SmallVector<StringRef, 2> lines;
  text.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    SmallVector<StringRef, 4> m;
    if (annotation.match(lines[i], &m))
      costs[unsigned(i + 1)] = std::strtod(m[1].str().c_str(), nullptr);
  }
  return costs;
}

namespace {
/// The costs of the script's statements: annotations and a profile are
/// per line; an op is charged through its statement (the first op lowered
/// from a statement carries its cost, the others none).
class StatementCosts {
public:
  StatementCosts(mlir::ModuleOp module, StringRef file, StringRef text,
                 std::map<unsigned, double> annotations,
                 const ScriptProfile *profile)
      : file(file), annotations(std::move(annotations)), profile(profile) {
    lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(uint32_t(i + 1));
    module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
      if (std::optional<ir::SourceSpan> s = spanOf(op))
        if (first.try_emplace(s->stmtBegin, op).second)
          begins.push_back(s->stmtBegin);
    });
    llvm::sort(begins);
  }

  analysis::CostSources sources() {
    analysis::CostSources c;
    c.annotated = [this](mlir::Operation *op) { return annotated(op); };
    if (profile) {
      c.measured = [this](mlir::Operation *op) { return measured(op); };
      c.measuredLoop = [this](mlir::Operation *op) { return loop(op); };
    }
    return c;
  }

private:
  std::optional<ir::SourceSpan> spanOf(mlir::Operation *op) const {
    std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
    if (!s || s->file != file)
      return std::nullopt;
    return s;
  }
  unsigned lineOf(uint32_t offset) const {
    return unsigned(llvm::upper_bound(lineStarts, offset) - lineStarts.begin());
  }
  /// The op's statement lines; `other`: the op is not the one that
  /// carries its statement's cost.
  std::optional<std::pair<unsigned, unsigned>> lines(mlir::Operation *op,
                                                     bool &other) const {
    std::optional<ir::SourceSpan> s = spanOf(op);
    other = false;
    if (!s)
      return std::nullopt;
    other = first.lookup(s->stmtBegin) != op;
    uint32_t end = s->stmtEnd;
    // A statement without regions whose source holds others (a `def`):
    // its own lines end where the first of them begins.
    if (op->getNumRegions() == 0) {
      auto next = llvm::upper_bound(begins, s->stmtBegin);
      if (next != begins.end() && *next < end)
        end = std::max(*next, lineStarts[lineOf(s->stmtBegin) - 1] + 1);
    }
    return std::make_pair(lineOf(s->stmtBegin), lineOf(std::max(end, 1u) - 1));
  }

  std::optional<double> annotated(mlir::Operation *op) const {
    analysis::SourcePoint at = analysis::sourcePoint(op);
    if (at.file != file)
      return std::nullopt;
    auto it = annotations.find(at.line);
    if (it == annotations.end())
      return std::nullopt;
    bool other;
    lines(op, other);
    return other ? 0.0 : it->second;
  }

  std::optional<double> measured(mlir::Operation *op) const {
    bool other;
    std::optional<std::pair<unsigned, unsigned>> l = lines(op, other);
    if (!l)
      return std::nullopt;
    if (isa<ir::HintOp>(op)) {
      auto it = profile->checkpointSeconds.find(l->first);
      if (it == profile->checkpointSeconds.end())
        return std::nullopt;
      return it->second;
    }
    if (other)
      return 0.0;
    uint64_t runs = executions(op);
    if (!runs)
      return 0.0; // it never ran in the profiled run
    return profile->range(l->first, l->second).seconds / double(runs);
  }

  /// How often the op's statement started in the profiled run: its first
  /// line's events, less a loop header's events for iterations; a `with`
  /// or `try` starts as often as its first statement.
  uint64_t executions(mlir::Operation *op) const {
    bool other;
    std::optional<std::pair<unsigned, unsigned>> l = lines(op, other);
    if (!l)
      return 0;
    uint64_t events = profile->events(l->first);
    if (isa<ir::ForOp, ir::WhileOp>(op)) {
      uint64_t n = iterations(op);
      return events > n ? events - n : 0;
    }
    if (op->getNumRegions() && !isa<ir::IfOp>(op)) {
      mlir::Operation *body = firstStatementIn(op);
      return body ? executions(body) : 0;
    }
    return events;
  }

  /// All iterations of a loop in the profiled run: how often its body's
  /// first statement started.
  uint64_t iterations(mlir::Operation *loop) const {
    mlir::Operation *body = firstStatementIn(loop);
    return body ? executions(body) : 0;
  }

  /// The op carrying the cost of the first statement inside `op` (through
  /// ops lowered from `op`'s own statement, such as a loop's fetch).
  mlir::Operation *firstStatementIn(mlir::Operation *op) const {
    std::optional<ir::SourceSpan> own = spanOf(op);
    for (mlir::Region &r : op->getRegions())
      for (mlir::Block &b : r)
        for (mlir::Operation &inner : b) {
          std::optional<ir::SourceSpan> s = spanOf(&inner);
          if (!s)
            continue;
          if (own && s->stmtBegin == own->stmtBegin) {
            if (mlir::Operation *deeper = firstStatementIn(&inner))
              return deeper;
            continue;
          }
          return first.lookup(s->stmtBegin);
        }
    return nullptr;
  }

  std::optional<analysis::MeasuredLoop> loop(mlir::Operation *op) const {
    bool other;
    std::optional<std::pair<unsigned, unsigned>> l = lines(op, other);
    if (!l || other)
      return std::nullopt;
    uint64_t header = profile->events(l->first);
    uint64_t n = iterations(op);
    if (!n || header <= n)
      return std::nullopt;
    return analysis::MeasuredLoop{double(n) / double(header - n),
                                  profile->range(l->first, l->first).seconds /
                                      double(n)};
  }

  StringRef file;
  std::map<unsigned, double> annotations;
  const ScriptProfile *profile;
  std::vector<uint32_t> lineStarts;
  llvm::DenseMap<uint32_t, mlir::Operation *> first;
  std::vector<uint32_t> begins; ///< Statement begin offsets, sorted.
};
} // namespace

std::optional<ScriptSchedule>
detc::tool::scheduleScript(mlir::ModuleOp module, StringRef file,
                           const CheckHintFlags &flags, raw_ostream &errs) {
  Expected<std::string> buffer = base::readInputFile(file);
  if (!buffer) {
    errs << file << ": error: cannot read the script: "
         << toString(buffer.takeError()) << "\n";
    return std::nullopt;
  }
  StringRef text = *buffer;
  std::optional<ScriptProfile> profile;
  if (!flags.profile.empty() &&
      !(profile = readProfile(flags.profile, text, errs)))
    return std::nullopt;
  StatementCosts costs(module, file, text, costAnnotations(text),
                       profile ? &*profile : nullptr);
  ScriptSchedule s;
  s.hints = analysis::buildHintProgram(module, costs.sources());
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
  // Measured checkpoint costs replace the default t_c (hints the profile
  // did not reach, and the budget's slack of one checkpoint): the dearest.
  if (profile && !profile->checkpointSeconds.empty() &&
      !flags.ckptCost.getNumOccurrences()) {
    program.checkpointSeconds = 0;
    for (auto [line, seconds] : profile->checkpointSeconds)
      program.checkpointSeconds = std::max(program.checkpointSeconds, seconds);
  }
  s.checkpointSeconds = program.checkpointSeconds;
  program.failureRate = flags.failureRate;
  if (std::optional<std::string> why = program.unschedulable()) {
    errs << file << ": error: " << *why << "\n";
    return std::nullopt;
  }
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
     << ", t_c = " << format("%g", s.checkpointSeconds)
     << " s, p = " << format("%g", double(flags.failureRate)) << "/s): ";
  if (s.best.period)
    os << "at hint '" << s.best.hint << "' every " << s.best.period
       << " arrivals, " << s.best.checkpoints << " checkpoints over "
       << s.best.arrivals << " arrivals\n";
  else
    os << "no checkpoint\n";
  os << "  estimated run " << format("%g", total) << " s ("
     << s.hints.annotatedTasks << " annotated costs, ";
  if (s.hints.measuredTasks)
    os << s.hints.measuredTasks << " measured, ";
  os << s.hints.modelledTasks << " from the default model); expected recovery "
     << format("%g", s.best.expectedRecovery) << " s";
  if (flat)
    os << " (unrolled optimum "
       << format("%g", analysis::unrolledOptimum(*flat)) << " s)";
  os << ", without checkpoints "
     << format("%g", analysis::blockCost(total, program.failureRate)) << " s\n";
}
