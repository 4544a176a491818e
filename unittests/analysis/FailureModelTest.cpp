//===- FailureModelTest.cpp - The JIT paper's wasted-work model -----------===//
//
// Reproduces the BERT-L-PT rows of Table 8 of the Just-In-Time
// Checkpointing paper from its inputs (o = 5 s and r = 9.9 s, m = 0.418 s
// from its Table 4, f = 2 failures per day on ~1000 GPUs, JIT overhead
// 0.0076 from its Table 3), truncated to the digits the paper prints. Two
// discrepancies in the paper are pinned down here rather than papered
// over: its JIT row follows when Table 3's JIT-C overhead (0.0076, a
// percentage) is used as a fraction; and its N = 8192 periodic entry
// (4.5%) is w* itself (eq 5: 4.54%), not the fraction w*/(1+w*) of eq 6
// (4.35%) that its other entries show.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/FailureModel.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace detc::analysis;

namespace {

/// `x` truncated to `digits` decimals, as the paper prints its table.
double truncated(double x, int digits) {
  double scale = std::pow(10.0, digits);
  return std::floor(x * scale + 1e-9) / scale;
}

FailureModel bertLargePretraining() {
  llvm::Expected<FailureModel> m =
      parseFailureModel("N=4,f=2e-3/day,o=5,r=9.9,m=0.418,ojit=0.0076");
  EXPECT_TRUE(bool(m)) << llvm::toString(m.takeError());
  return *m;
}

TEST(FailureModel, OptimalFrequencyMatchesTable8) {
  FailureModel m = bertLargePretraining();
  EXPECT_DOUBLE_EQ(truncated(m.withWorkers(4).optimalFrequency() * 3600, 2),
                   0.34);
  EXPECT_DOUBLE_EQ(
      truncated(m.withWorkers(1024).optimalFrequency() * 3600, 2), 5.54);
  EXPECT_DOUBLE_EQ(
      truncated(m.withWorkers(8192).optimalFrequency() * 3600, 1), 15.6);
  // Eq 9: c* ~ sqrt(N) / 6 h.
  EXPECT_NEAR(m.withWorkers(1024).optimalFrequency() * 6 * 3600,
              std::sqrt(1024.0), 0.1 * std::sqrt(1024.0));
}

TEST(FailureModel, PeriodicWasteMatchesTable8) {
  FailureModel m = bertLargePretraining();
  auto percent = [&](double n) {
    return 100 * wastedFraction(m.withWorkers(n).optimalPeriodicWaste());
  };
  EXPECT_DOUBLE_EQ(truncated(percent(4), 3), 0.096);
  EXPECT_DOUBLE_EQ(truncated(percent(1024), 2), 1.53);
  EXPECT_DOUBLE_EQ(truncated(percent(8192), 2), 4.34);
  EXPECT_DOUBLE_EQ(
      truncated(100 * m.withWorkers(8192).optimalPeriodicWaste(), 1), 4.5);
  // Eq 10: w* = 4.8e-4 sqrt(N) + 2.3e-7 N.
  FailureModel n1024 = m.withWorkers(1024);
  EXPECT_NEAR(n1024.optimalPeriodicWaste(),
              4.8e-4 * std::sqrt(1024.0) + 2.3e-7 * 1024, 2e-4);
}

TEST(FailureModel, JitWasteMatchesTable8) {
  FailureModel m = bertLargePretraining();
  auto percent = [&](double n) {
    return 100 * wastedFraction(m.withWorkers(n).jitWaste());
  };
  EXPECT_DOUBLE_EQ(truncated(percent(4), 2), 0.75);
  EXPECT_DOUBLE_EQ(truncated(percent(1024), 2), 0.77);
  EXPECT_DOUBLE_EQ(truncated(percent(8192), 2), 0.94);
}

TEST(FailureModel, OptimumMinimisesThePeriodicWaste) {
  FailureModel m = bertLargePretraining().withWorkers(1024);
  double c = m.optimalFrequency();
  EXPECT_NEAR(m.periodicWaste(c), m.optimalPeriodicWaste(), 1e-12);
  for (double factor : {0.5, 0.9, 1.1, 2.0})
    EXPECT_GT(m.periodicWaste(c * factor), m.periodicWaste(c));
}

TEST(FailureModel, ParsesUnitsAndRejectsBadInput) {
  llvm::Expected<FailureModel> m =
      parseFailureModel("N=8, f=1/h, o=2min, r=1h, m=500e-3");
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  EXPECT_DOUBLE_EQ(m->failureRate, 1.0 / 3600);
  EXPECT_DOUBLE_EQ(m->checkpointCost, 120);
  EXPECT_DOUBLE_EQ(m->restartCost, 3600);
  EXPECT_DOUBLE_EQ(m->minibatchSeconds, 0.5);
  for (const char *bad :
       {"N=4,f=1e-6,o=5,r=1", "N=4,f=1e-6,o=5,r=1,m=1,x=2",
        "N=4,f=1e-6/week,o=5,r=1,m=1", "N=4,f=1e-6,o=-5,r=1,m=1",
        "N=0,f=1e-6,o=5,r=1,m=1", "N=4,f=1e-6,o=5,r=1,m=1,ojit=1s"}) {
    llvm::Expected<FailureModel> e = parseFailureModel(bad);
    EXPECT_FALSE(bool(e)) << bad;
    if (!e)
      llvm::consumeError(e.takeError());
  }
}

} // namespace
