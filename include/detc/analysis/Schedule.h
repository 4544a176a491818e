//===- Schedule.h - CheckHint: optimal checkpoint placement -*- C++ -*-===//
//
// SPEC §6. The program is a sequence of tasks t_1..t_n with a checkpoint
// hint after each (the last one ends the run). Checkpoints split it into
// blocks; a block of length T fails with probability p(T) = 1 − (1 − p)^T
// and costs, in expectation, cost(T) = ½·T·p(T)/(1 − p(T)) = ½·T·(e^{cT} − 1)
// with c = −ln(1 − p) to recover. With checkpoint cost t_c and allowance o
// (a fraction of the run time), at most ℓ = ⌈o·Σt / t_c⌉ checkpoints fit;
// cost is convex with cost(0) = 0, so more blocks never cost more, and the
// best schedule uses m = min(ℓ + 1, n) blocks:
//
//   OPT(1, j) = cost(t_1..t_j)
//   OPT(β, j) = min_{β−1 ≤ j' < j} OPT(β−1, j') + cost(t_{j'+1}..t_j)
//
// scheduleNaive solves that DP as written, O(m·n²): the reference.
// scheduleFast gives the same optimum in O(n log n) per Lagrange step: the
// weights w(i, j) = cost(S_j − S_i) are Monge (cost is convex), so the
// optimal cost g(k) with exactly k blocks is convex in k (Aggarwal, Schieber
// and Tokuyama). Adding a penalty λ per block removes the block count from
// the DP (one pass with a monotone argmin, decided by binary search over a
// deque of candidates); λ is found by walking the lower hull of g (each
// step's λ is the slope of the chord between the best solutions found with
// fewer and more than m blocks: a new hull vertex, or the chord supports g
// at m); when the chord supports, a solution with exactly m blocks is
// spliced from the two ends at a block of one nested in a block of the
// other (the Monge inequality makes both splices optimal).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_SCHEDULE_H
#define DETC_ANALYSIS_SCHEDULE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace detc::analysis {

struct ScheduleProblem {
  /// t_1..t_n in seconds; a hint follows every task but the last.
  std::vector<double> taskSeconds;
  double checkpointSeconds = 1; ///< t_c
  /// Per-hint checkpoint costs (hint k follows task k; n − 1 entries), from
  /// the sizes of what is live there; empty: t_c at every hint.
  std::vector<double> hintSeconds;
  double allowance = 0.05;   ///< o, a fraction of Σt
  double failureRate = 1e-5; ///< p, per second

  /// ℓ = ⌈o·Σt / t_c⌉, and never more than the n − 1 hints.
  size_t maxCheckpoints() const;
  /// m = ℓ + 1 blocks.
  size_t blocks() const { return maxCheckpoints() + 1; }
  /// Whether every hint costs the same (then ℓ bounds the count and the
  /// fast path is exact).
  bool uniformHintCosts() const;
  /// The cost of a checkpoint at hint k.
  double hintCost(size_t k) const {
    return hintSeconds.empty() ? checkpointSeconds : hintSeconds[k];
  }
  /// Whether checkpoints at `hints` fit the allowance: their total cost
  /// stays below o·Σt + t_c — with equal costs exactly ℓ = ⌈o·Σt/t_c⌉
  /// checkpoints, the last of which may overshoot o·Σt by less than t_c.
  bool fits(const std::vector<size_t> &hints) const;
  /// The bound fits() puts on the total: o·Σt + t_c.
  double budgetLimit() const;
};

struct ScheduleResult {
  /// Checkpoint after these tasks (0-based, ascending): the block ends but
  /// the last.
  std::vector<size_t> checkpointAfter;
  double expectedRecovery = 0; ///< Σ over blocks of cost(T)
  double overheadSeconds = 0;  ///< checkpoints × t_c
  /// scheduleFast: the Lagrange steps it took (penalized DP passes).
  unsigned lagrangeSteps = 0;
};

/// cost(T) = ½·T·p(T)/(1 − p(T)); +inf when a block almost surely fails.
double blockCost(double seconds, double failureRate);

/// The optimum with exactly `blocks` blocks (at most n), by the DP as
/// written: O(blocks · n²).
ScheduleResult scheduleNaive(const ScheduleProblem &problem, size_t blocks);
/// The naive DP's back-pointer table has (blocks + 1)·(n + 1) entries; a
/// driver refuses problems past this many (100 MB).
constexpr uint64_t kMaxNaiveTableEntries = 25000000;
/// ... and past this many inner steps (blocks · n², 2-3 ns each): 20k tasks
/// within the table limit ran for half an hour.
constexpr uint64_t kMaxNaiveWork = 10000000000;
/// The same optimum by the Lagrangian algorithm.
ScheduleResult scheduleFast(const ScheduleProblem &problem, size_t blocks);

/// Per-hint checkpoint costs make the allowance a knapsack: the exact
/// optimum over every set of hints that fits(), by Z3's Optimize over the
/// shortest-path formulation (a boolean per block (i, j], flow
/// conservation, the knapsack row). Branch and bound: small instances
/// (a dozen hints in about a second).
struct KnapsackResult {
  ScheduleResult schedule;
  bool optimal = false; ///< Z3 proved it (false: gave up, see `why`)
  std::string why;
};
/// The ranges every CheckHint front end accepts (task files, --overhead,
/// --ckpt-cost, --failure-rate).
constexpr double kMaxAllowance = 1e6;
constexpr double kMaxCheckpointSeconds = 1e12;
constexpr double kMaxFailureRate = 1;

/// Z3's program has n²/2 booleans: beyond this many tasks it is refused
/// (optimal = false, `why` says so) instead of growing to gigabytes.
constexpr size_t kMaxKnapsackZ3Tasks = 400;
KnapsackResult scheduleKnapsack(const ScheduleProblem &problem,
                                unsigned timeoutMs = 60000);
/// The same optimum by label setting: per position, the Pareto-optimal
/// (recovery so far, hint cost spent) of the partial schedules ending
/// there, pruned by a bound from a feasible schedule (the fast path at the
/// most expensive hint's cost). Exact; gives up (optimal = false) after
/// `maxExtensions` label extensions (hundreds of hints take milliseconds,
/// thousands with very unequal costs may not finish).
KnapsackResult scheduleKnapsackLabels(const ScheduleProblem &problem,
                                      size_t maxExtensions = 50000000);

inline ScheduleResult scheduleNaive(const ScheduleProblem &problem) {
  return scheduleNaive(problem, problem.blocks());
}
inline ScheduleResult scheduleFast(const ScheduleProblem &problem) {
  return scheduleFast(problem, problem.blocks());
}

} // namespace detc::analysis

#endif // DETC_ANALYSIS_SCHEDULE_H
