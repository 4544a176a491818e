//===- ScheduleBlocks.h - Block costs shared by the schedulers -*- C++ -*-===//
//
// Every scheduler reads block costs from the same prefix sums through the
// same formula, so they agree on every w(i, j) bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_ANALYSIS_SCHEDULEBLOCKS_H
#define DETC_LIB_ANALYSIS_SCHEDULEBLOCKS_H

#include "detc/analysis/Schedule.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace detc::analysis {

/// Prefix sums of the task times and the cost of blocks between them.
class Blocks {
public:
  explicit Blocks(const ScheduleProblem &p)
      : rate(p.failureRate >= 1 ? std::numeric_limits<double>::infinity()
                                : -std::log1p(-p.failureRate)) {
    prefix.reserve(p.taskSeconds.size() + 1);
    prefix.push_back(0);
    for (double t : p.taskSeconds)
      prefix.push_back(prefix.back() + t);
  }
  uint32_t size() const { return uint32_t(prefix.size() - 1); }
  double total() const { return prefix.back(); }
  /// The block of tasks [i, j) (0-based task indices).
  double cost(uint32_t i, uint32_t j) const {
    double t = prefix[j] - prefix[i];
    if (t <= 0)
      return 0;
    double x = rate * t;
    // Most blocks fail rarely (cT ≪ 1): there the series of e^x − 1 is
    // exact to the last bit in a few multiplications, 5x cheaper than
    // expm1 — the penalized DP evaluates costs ~40 times per task.
    if (x < 0.01)
      return 0.5 * t *
             (x * (1 + x * (1.0 / 2 +
                            x * (1.0 / 6 +
                                 x * (1.0 / 24 + x * (1.0 / 120 + x / 720))))));
    return 0.5 * t * std::expm1(x);
  }

private:
  std::vector<double> prefix;
  double rate;
};

/// The schedule whose blocks end at `ends` (ascending, the last one n):
/// its checkpoints, expected recovery and overhead (Σ of the chosen hints'
/// costs).
ScheduleResult scheduleFromEnds(const Blocks &b, const ScheduleProblem &p,
                                const std::vector<uint32_t> &ends,
                                unsigned lagrangeSteps = 0);
/// The same from the chosen hints (hint k follows task k).
ScheduleResult scheduleFromHints(const Blocks &b, const ScheduleProblem &p,
                                 const std::vector<size_t> &hints);

} // namespace detc::analysis

#endif // DETC_LIB_ANALYSIS_SCHEDULEBLOCKS_H
