//===- ScheduleTest.cpp - CheckHint scheduler: naive DP vs fast -----------===//
//
// The naive DP against every partition on tiny instances; the Lagrangian
// algorithm against the naive DP on thousands of random instances (task
// times uniform, equal — many ties —, heavy-tailed, with zero-length
// tasks; failure rates from negligible to large; every block count).
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

using namespace detc::analysis;

namespace {

double relativeGap(double a, double b) {
  if (a == b)
    return 0;
  return std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
}

/// The cost of the partition a result describes, recomputed.
double recomputed(const ScheduleProblem &p, const ScheduleResult &r) {
  double sum = 0, block = 0;
  size_t next = 0;
  for (size_t i = 0; i < p.taskSeconds.size(); ++i) {
    block += p.taskSeconds[i];
    if (next < r.checkpointAfter.size() && r.checkpointAfter[next] == i) {
      sum += blockCost(block, p.failureRate);
      block = 0;
      ++next;
    }
  }
  return sum + blockCost(block, p.failureRate);
}

void expectWellFormed(const ScheduleProblem &p, const ScheduleResult &r,
                      size_t blocks) {
  size_t n = p.taskSeconds.size();
  ASSERT_EQ(r.checkpointAfter.size(), std::min(blocks, n) - 1);
  for (size_t k = 0; k < r.checkpointAfter.size(); ++k) {
    EXPECT_LT(r.checkpointAfter[k], n - 1);
    if (k) {
      EXPECT_LT(r.checkpointAfter[k - 1], r.checkpointAfter[k]);
    }
  }
  EXPECT_LE(relativeGap(r.expectedRecovery, recomputed(p, r)), 1e-10);
}

/// Minimum over every partition of the tasks into `blocks` blocks.
double bruteForce(const ScheduleProblem &p, size_t blocks) {
  size_t n = p.taskSeconds.size();
  double best = INFINITY;
  // Bit k set: a checkpoint after task k (k < n − 1).
  for (uint32_t mask = 0; mask < (1u << (n - 1)); ++mask) {
    if (size_t(__builtin_popcount(mask)) != blocks - 1)
      continue;
    double sum = 0, block = 0;
    for (size_t i = 0; i < n; ++i) {
      block += p.taskSeconds[i];
      if (i + 1 == n || (mask >> i & 1)) {
        sum += blockCost(block, p.failureRate);
        block = 0;
      }
    }
    best = std::min(best, sum);
  }
  return best;
}

ScheduleProblem randomProblem(std::mt19937_64 &rng, size_t n) {
  ScheduleProblem p;
  std::uniform_int_distribution<int> shape(0, 4);
  int kind = shape(rng);
  std::uniform_real_distribution<double> uniform(0.1, 10);
  std::exponential_distribution<double> heavy(0.05);
  std::uniform_int_distribution<int> small(0, 3);
  double equal = uniform(rng);
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
    case 0:
      p.taskSeconds.push_back(uniform(rng));
      break;
    case 1: // equal tasks: ties everywhere
      p.taskSeconds.push_back(equal);
      break;
    case 2:
      p.taskSeconds.push_back(heavy(rng));
      break;
    case 3: // small integers, some zero
      p.taskSeconds.push_back(small(rng));
      break;
    default: // one long task among short ones
      p.taskSeconds.push_back(i == n / 3 ? 50 * equal : uniform(rng) / 10);
    }
  }
  const double rates[] = {1e-7, 1e-5, 1e-3, 1e-2, 0.05};
  p.failureRate = rates[std::uniform_int_distribution<int>(0, 4)(rng)];
  return p;
}

TEST(Schedule, BlockCostIsTheExpectedRecoveryOfTheModel) {
  // ½·T·p(T)/(1 − p(T)) with p(T) = 1 − (1 − p)^T.
  double p = 0.01, t = 7;
  double pt = 1 - std::pow(1 - p, t);
  EXPECT_NEAR(blockCost(t, p), 0.5 * t * pt / (1 - pt), 1e-12);
  EXPECT_EQ(blockCost(0, p), 0);
  EXPECT_TRUE(std::isinf(blockCost(1, 1.0)));
}

TEST(Schedule, MaxCheckpointsIsTheCeilingOfAllowanceOverCost) {
  ScheduleProblem p;
  p.taskSeconds.assign(100, 1.0); // Σt = 100
  p.checkpointSeconds = 2;
  p.allowance = 0.05; // 5 s of checkpoints: ⌈5/2⌉ = 3
  EXPECT_EQ(p.maxCheckpoints(), 3u);
  EXPECT_EQ(p.blocks(), 4u);
  p.allowance = 10; // more than there are hints
  EXPECT_EQ(p.maxCheckpoints(), 99u);
  p.allowance = 0;
  EXPECT_EQ(p.maxCheckpoints(), 0u);
}

TEST(Schedule, NaiveDPIsTheMinimumOverAllPartitions) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    size_t n = 1 + rng() % 9;
    ScheduleProblem p = randomProblem(rng, n);
    for (size_t m = 1; m <= n; ++m) {
      ScheduleResult r = scheduleNaive(p, m);
      expectWellFormed(p, r, m);
      ASSERT_LE(relativeGap(r.expectedRecovery, bruteForce(p, m)), 1e-12)
          << "n=" << n << " m=" << m << " trial " << trial;
    }
  }
}

TEST(Schedule, FastEqualsNaiveOnRandomInstances) {
  std::mt19937_64 rng(2026);
  int instances = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    size_t n = 1 + rng() % 80;
    ScheduleProblem p = randomProblem(rng, n);
    // Every block count on some instances, a random one on the others.
    std::vector<size_t> counts;
    if (trial % 10 == 0)
      for (size_t m = 1; m <= n; ++m)
        counts.push_back(m);
    else
      counts.push_back(1 + rng() % n);
    for (size_t m : counts) {
      ScheduleResult naive = scheduleNaive(p, m);
      ScheduleResult fast = scheduleFast(p, m);
      expectWellFormed(p, fast, m);
      ASSERT_LE(relativeGap(fast.expectedRecovery, naive.expectedRecovery),
                1e-9)
          << "n=" << n << " m=" << m << " trial " << trial << " rate "
          << p.failureRate;
      ++instances;
    }
  }
  EXPECT_GT(instances, 3000);
}

TEST(Schedule, FastEqualsNaiveOnLargerInstances) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 12; ++trial) {
    size_t n = 400 + rng() % 400;
    ScheduleProblem p = randomProblem(rng, n);
    size_t m = 2 + rng() % 60;
    ScheduleResult naive = scheduleNaive(p, m);
    ScheduleResult fast = scheduleFast(p, m);
    expectWellFormed(p, fast, m);
    EXPECT_LE(relativeGap(fast.expectedRecovery, naive.expectedRecovery), 1e-9)
        << "n=" << n << " m=" << m << " trial " << trial;
  }
}

TEST(Schedule, EqualTasksAreSplitEvenly) {
  // 12 equal tasks, 4 blocks: 3 tasks each.
  ScheduleProblem p;
  p.taskSeconds.assign(12, 5.0);
  p.failureRate = 1e-3;
  ScheduleResult r = scheduleFast(p, 4);
  EXPECT_EQ(r.checkpointAfter, (std::vector<size_t>{2, 5, 8}));
}

} // namespace

namespace {

/// A random instance with a random cost per hint and `budget` seconds of
/// allowance.
ScheduleProblem randomKnapsack(std::mt19937_64 &rng, size_t n, double budget) {
  ScheduleProblem p = randomProblem(rng, n);
  std::uniform_real_distribution<double> cost(0.5, 8);
  for (size_t k = 0; k + 1 < n; ++k)
    p.hintSeconds.push_back(cost(rng));
  double total = 0;
  for (double t : p.taskSeconds)
    total += t;
  p.allowance = total > 0 ? budget / total : 0;
  return p;
}

/// A random instance where every hint costs the same (1–4 s), with
/// `budget` seconds of allowance.
ScheduleProblem randomEqualCosts(std::mt19937_64 &rng, size_t n,
                                 double budget) {
  ScheduleProblem p = randomProblem(rng, n);
  p.checkpointSeconds = 1 + rng() % 4;
  double total = 0;
  for (double t : p.taskSeconds)
    total += t;
  p.allowance = total > 0 ? budget / total : 0;
  return p;
}

/// Minimum over every set of hints that fits the allowance.
double bruteForceKnapsack(const ScheduleProblem &p) {
  size_t n = p.taskSeconds.size();
  double best = INFINITY;
  for (uint32_t mask = 0; mask < (1u << (n - 1)); ++mask) {
    std::vector<size_t> hints;
    for (size_t k = 0; k + 1 < n; ++k)
      if (mask >> k & 1)
        hints.push_back(k);
    if (!p.fits(hints))
      continue;
    ScheduleResult r;
    r.checkpointAfter = hints;
    best = std::min(best, recomputed(p, r));
  }
  return best;
}

TEST(Schedule, FitsIsTheCeilingRuleForEqualCosts) {
  ScheduleProblem p;
  p.taskSeconds.assign(40, 1.0);
  p.checkpointSeconds = 3;
  for (double o : {0.0, 0.05, 0.15, 0.2, 0.5}) {
    p.allowance = o;
    std::vector<size_t> hints;
    for (size_t k = 0; k <= p.maxCheckpoints(); ++k) {
      EXPECT_EQ(p.fits(hints), k <= p.maxCheckpoints()) << o << " " << k;
      hints.push_back(k);
    }
    EXPECT_FALSE(p.fits(hints)) << o;
  }
}

TEST(Schedule, KnapsackIsTheMinimumOverEveryFittingSet) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    size_t n = 2 + rng() % 9;
    ScheduleProblem p = randomKnapsack(rng, n, 10);
    KnapsackResult r = scheduleKnapsack(p);
    ASSERT_TRUE(r.optimal) << r.why;
    EXPECT_TRUE(p.fits(r.schedule.checkpointAfter));
    EXPECT_LE(relativeGap(r.schedule.expectedRecovery, bruteForceKnapsack(p)),
              1e-9)
        << "n=" << n << " trial " << trial;
  }
}

TEST(Schedule, KnapsackWithEqualCostsEqualsTheFastPath) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 30; ++trial) {
    size_t n = 2 + rng() % 11; // Z3's branch and bound: small instances
    ScheduleProblem p = randomEqualCosts(rng, n, double(rng() % 12));
    KnapsackResult z3 = scheduleKnapsack(p);
    ASSERT_TRUE(z3.optimal) << z3.why;
    ScheduleResult fast = scheduleFast(p);
    EXPECT_LE(relativeGap(z3.schedule.expectedRecovery, fast.expectedRecovery),
              1e-9)
        << "n=" << n << " trial " << trial;
  }
}

} // namespace

namespace {

TEST(Schedule, LabelSettingEqualsZ3AndBruteForce) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    size_t n = 2 + rng() % 11;
    ScheduleProblem p = randomKnapsack(rng, n, double(rng() % 20));
    KnapsackResult labels = scheduleKnapsackLabels(p);
    ASSERT_TRUE(labels.optimal) << labels.why;
    EXPECT_TRUE(p.fits(labels.schedule.checkpointAfter));
    EXPECT_LE(relativeGap(labels.schedule.expectedRecovery,
                          recomputed(p, labels.schedule)),
              1e-10);
    EXPECT_LE(
        relativeGap(labels.schedule.expectedRecovery, bruteForceKnapsack(p)),
        1e-9)
        << "n=" << n << " trial " << trial;
    if (trial % 10 == 0) {
      KnapsackResult z3 = scheduleKnapsack(p);
      ASSERT_TRUE(z3.optimal) << z3.why;
      EXPECT_LE(relativeGap(labels.schedule.expectedRecovery,
                            z3.schedule.expectedRecovery),
                1e-9);
    }
  }
}

TEST(Schedule, LabelSettingWithEqualCostsEqualsTheFastPath) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < 60; ++trial) {
    size_t n = 2 + rng() % 150;
    ScheduleProblem p = randomEqualCosts(rng, n, double(rng() % 30));
    p.hintSeconds.assign(n - 1, p.checkpointSeconds);
    KnapsackResult labels = scheduleKnapsackLabels(p);
    ASSERT_TRUE(labels.optimal) << labels.why;
    EXPECT_LE(relativeGap(labels.schedule.expectedRecovery,
                          scheduleFast(p).expectedRecovery),
              1e-9)
        << "n=" << n << " trial " << trial;
  }
}

} // namespace
