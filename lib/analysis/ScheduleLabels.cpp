//===- ScheduleLabels.cpp - Per-hint checkpoint costs by label setting ----===//
//
// The knapsack-constrained schedule as a resource-constrained shortest
// path: a label is a partial schedule ending at a position (its recovery
// cost so far, the hint cost it spent). A label dominates another at the
// same position when it costs no more and spent no more: every completion
// of the other completes it as well and no worse. Labels whose cost plus the
// cheapest possible rest (every remaining task its own block) reaches the cost
// of a known feasible schedule are dropped.
//
//===----------------------------------------------------------------------===//

#include "ScheduleBlocks.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

using namespace detc::analysis;

namespace {
struct Label {
  double recovery, spent;
  uint32_t from;  ///< Position of the previous checkpoint.
  uint32_t index; ///< Its label there.
};
} // namespace

KnapsackResult
detc::analysis::scheduleKnapsackLabels(const ScheduleProblem &problem,
                                       size_t maxExtensions) {
  KnapsackResult out;
  size_t n = problem.taskSeconds.size();
  if (n == 0) {
    out.optimal = true;
    return out;
  }
  Blocks blocks(problem);
  double limit = problem.budgetLimit();
  auto w = [&](size_t i, size_t j) {
    return blocks.cost(uint32_t(i), uint32_t(j));
  };
  // The cheapest possible rest from each position, and the cheapest
  // possible start up to it: every task alone.
  std::vector<double> rest(n + 1, 0), before(n + 1, 0);
  for (size_t k = n; k-- > 0;)
    rest[k] = rest[k + 1] + w(k, k + 1);
  for (size_t k = 0; k < n; ++k)
    before[k + 1] = before[k] + w(k, k + 1);
  // A feasible schedule: as many checkpoints as fit at the most expensive
  // hint's price, placed by the fast path.
  double most = 0;
  for (size_t k = 0; k + 1 < n; ++k)
    most = std::max(most, problem.hintCost(k));
  size_t affordable = n - 1;
  if (most > 0)
    affordable = std::min<double>(n - 1, std::ceil(limit / most) - 1);
  ScheduleResult bound = scheduleFast(problem, affordable + 1);
  double best = bound.expectedRecovery * (1 + 1e-12);

  std::vector<std::vector<Label>> labels(n + 1);
  labels[0].push_back({0, 0, 0, 0});
  std::vector<Label> candidates;
  size_t extensions = 0;
  for (size_t j = 1; j <= n; ++j) {
    candidates.clear();
    double cost = j < n ? problem.hintCost(j - 1) : 0;
    // Latest start first: every label at i costs at least before[i] (each
    // earlier task alone), and before[i] + w(i, j) only grows as i moves
    // back (w is superadditive), so the first start past the bound ends
    // the search.
    for (size_t i = j; i-- > 0;) {
      if (before[i] + w(i, j) + rest[j] > best)
        break;
      extensions += labels[i].size();
      if (extensions > maxExtensions) {
        out.why = "the label search passed " + std::to_string(maxExtensions) +
                  " extensions" +
                  (problem.uniformHintCosts()
                       ? " (the hints' costs are equal: --algorithm=fast is "
                         "exact for them and fast)"
                       : " (too many hints with unequal costs for an exact "
                         "schedule)");
        return out;
      }
      for (uint32_t l = 0; l < labels[i].size(); ++l) {
        const Label &from = labels[i][l];
        Label next{from.recovery + w(i, j), from.spent + cost, uint32_t(i), l};
        if (j < n && !(next.spent < limit)) // a checkpoint at hint j − 1
          continue;
        if (next.recovery + rest[j] > best)
          continue;
        candidates.push_back(next);
      }
    }
    // Pareto filter: in order of recovery, a label survives when it spent
    // less than every label kept before it.
    std::sort(candidates.begin(), candidates.end(),
              [](const Label &a, const Label &b) {
                return std::tie(a.recovery, a.spent) <
                       std::tie(b.recovery, b.spent);
              });
    double leastSpent = INFINITY;
    for (const Label &c : candidates)
      if (c.spent < leastSpent) {
        labels[j].push_back(c);
        leastSpent = c.spent;
      }
  }
  // The bound's schedule is feasible, so labels[n] holds one at least as
  // good unless the bound itself was optimal and pruned to equality.
  if (labels[n].empty()) { // only the bound (optimal) reached the end
    out.schedule = bound;
    out.optimal = true;
    return out;
  }
  std::vector<size_t> hints;
  for (size_t j = n, l = 0; j > 0;) {
    const Label &label = labels[j][l];
    if (label.from > 0)
      hints.push_back(label.from - 1);
    l = label.index;
    j = label.from;
  }
  std::reverse(hints.begin(), hints.end());
  out.schedule = scheduleFromHints(blocks, problem, hints);
  out.optimal = true;
  return out;
}
