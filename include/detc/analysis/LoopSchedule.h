//===- LoopSchedule.h - CheckHint schedules for rolled loops ---*- C++ -*-===//
//
// SPEC §6 without unrolling. A program is a sequence of tasks, hints and
// loops (`_iterations: N` bounds); unrolled, it is the task sequence of
// Schedule.h. A periodic schedule checkpoints at one hint h every k-th time
// the run reaches it (counted over the whole run) and keeps the loops
// rolled. Its cost is computed in closed form:
//
// let L_1..L_d be the loops around h (outermost first, N_q iterations),
// T the time of one iteration of L_d, and E_q the time L_{q−1}'s body
// spends outside L_q (E_1: the top level's). Between two arrivals at h the
// run spends T, plus E_q for every q whose loop L_q wraps in between — a
// wrap of L_q follows arrival i exactly when M_q = N_q·…·N_d divides i. So
// the block between arrivals i0 and i1 lasts (i1 − i0)·T + Σ_q
// (⌊i1/M_q⌋ − ⌊i0/M_q⌋)·E_q: when k ≤ N_d a block holds at most one wrap,
// and the blocks are counted per wrap level in O(d); otherwise the blocks
// repeat with period M_2/gcd(k, M_2) and one period is summed.
//
// The best periodic schedule: for every hint, the periods that fit the
// allowance (at most ℓ checkpoints), the smallest ones first. It is not
// always the unrolled optimum (which may mix periods); tests compare it
// with the unrolled optimum on small nests and check the bound
// periodic ≤ optimum · f(max block)/f(Σt/m) (SPEC §6: cost convex).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_LOOPSCHEDULE_H
#define DETC_ANALYSIS_LOOPSCHEDULE_H

#include "detc/analysis/Schedule.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace detc::analysis {

struct ProgramItem {
  enum class Kind { Task, Hint, Loop } kind = Kind::Task;
  std::string name;
  double seconds = 0; ///< Task
  /// Hint: the cost of a checkpoint there (what is live there); NaN: the
  /// program's checkpointSeconds.
  double checkpointSeconds = std::numeric_limits<double>::quiet_NaN();
  uint64_t iterations = 0;       ///< Loop
  std::vector<ProgramItem> body; ///< Loop
};

struct LoopProgram {
  std::vector<ProgramItem> body;
  double checkpointSeconds = 1;
  double allowance = 0.05;
  double failureRate = 1e-5;

  /// Σt of the unrolled run.
  double totalSeconds() const;
  /// Why the run cannot be scheduled, if it cannot: its total time
  /// overflows a double, or a hint's arrivals overflow 2^62.
  std::optional<std::string> unschedulable() const;
  /// ℓ = ⌈o·Σt/t_c⌉ (not bounded by the hint count: loops have many).
  uint64_t maxCheckpoints() const;
  /// How many checkpoints costing `cost` each fit: k·cost < o·Σt + t_c
  /// (ScheduleProblem::fits; ℓ when cost = t_c).
  uint64_t affordable(double cost) const;
  /// Items an unroll() visits at most before it gives up (as past `limit`
  /// hints): about a second.
  static constexpr uint64_t kMaxUnrollVisits = 100000000;
  /// The unrolled problem (tasks merged between hints; per-hint costs when
  /// hints have their own), when it has at most `limit` tasks; also the
  /// hints at each task boundary (adjacent hints share one, at the cheaper
  /// cost).
  std::optional<ScheduleProblem>
  unroll(size_t limit,
         std::vector<std::vector<std::string>> *hintNames = nullptr) const;
};

struct PeriodicSchedule {
  std::string hint;      ///< Name of the chosen hint
  uint64_t period = 0;   ///< checkpoint every `period`-th arrival
  uint64_t arrivals = 0; ///< times the run reaches the hint
  /// arrivals / period, less one when the last arrival ends the run (less
  /// than a millionth of it follows).
  uint64_t checkpoints = 0;
  double expectedRecovery = 0;
  double overheadSeconds = 0;
};

/// The optimum of an unrolled program: the fast path with equal hint
/// costs, label setting otherwise (NaN when that gives up).
double unrolledOptimum(const ScheduleProblem &flat);

/// The cost of checkpointing at hint `name` every `period` arrivals, or
/// nothing when the hint does not exist or the sum would take too long.
std::optional<PeriodicSchedule> evaluatePeriodic(const LoopProgram &program,
                                                 const std::string &hint,
                                                 uint64_t period);

/// The best periodic schedule within the allowance (none: no hint, or no
/// checkpoint fits — then the whole run is one block). A hint's own
/// checkpoint cost decides how many fit there and the overhead.
PeriodicSchedule schedulePeriodic(const LoopProgram &program);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_LOOPSCHEDULE_H
