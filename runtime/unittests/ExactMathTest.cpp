//===- ExactMathTest.cpp - The libm-free functions against libm -----------===//

#include "detc/runtime/ExactMath.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace detc::runtime;

/// |a - b| within `ulps` units in the last place of b.
static bool closeUlps(double a, double b, double ulps) {
  double scale = std::ldexp(1.0, std::ilogb(b == 0 ? 1e-300 : b) - 52);
  return std::fabs(a - b) <= ulps * scale;
}

TEST(ExactMath, LogMatchesLibm) {
  for (double x : {1.0, 2.0, 0.5, 1e-16, 1.1102230246251565e-16, 0.75,
                   1.4142135623730951, 0.7071067811865476, 3.0, 1e300,
                   123456.789, 0.999999999999}) {
    if (x == 1.0) {
      EXPECT_EQ(exact::log(x), 0.0);
      continue;
    }
    EXPECT_TRUE(closeUlps(exact::log(x), std::log(x), 4))
        << x << ": " << exact::log(x) << " vs " << std::log(x);
  }
  // Across (0, 1] as the distributions use it.
  for (int i = 1; i <= 10000; ++i) {
    double x = i / 10000.0;
    ASSERT_TRUE(closeUlps(exact::log(x), std::log(x), 4) ||
                std::fabs(exact::log(x) - std::log(x)) < 1e-16)
        << x;
  }
}

TEST(ExactMath, ExpMatchesLibm) {
  for (int i = -7000; i <= 7000; ++i) {
    double x = i / 10.0;
    ASSERT_TRUE(closeUlps(exact::exp(x), std::exp(x), 4))
        << x << ": " << exact::exp(x) << " vs " << std::exp(x);
  }
  EXPECT_EQ(exact::exp(0.0), 1.0);
}

TEST(ExactMath, SqrtIsWithinAnUlpOfIeee) {
  // Box-Muller's range: -2 log u1 for u1 in (0, 1], i.e. [0, ~75], and
  // beyond; exact squares come out exact.
  for (int i = 0; i <= 200000; ++i) {
    double x = i / 2000.0;
    ASSERT_TRUE(closeUlps(exact::sqrt(x), std::sqrt(x), 1))
        << x << ": " << exact::sqrt(x) << " vs " << std::sqrt(x);
  }
  for (double x : {1e-300, 2.2250738585072014e-308, 1e-16, 0.25, 4.0, 9.0,
                   1e16, 1e300}) {
    EXPECT_TRUE(closeUlps(exact::sqrt(x), std::sqrt(x), 1)) << x;
  }
  EXPECT_EQ(exact::sqrt(0.0), 0.0);
  EXPECT_TRUE(std::signbit(exact::sqrt(-0.0))); // as IEEE's sqrt(-0)
  EXPECT_EQ(exact::sqrt(2.25), 1.5);
}

TEST(ExactMath, SinCos2PiMatchesLibm) {
  // The reference rounds its argument 2πu (up to ulp(2π) ≈ 8.9e-16 of
  // error, times the derivative); exact::sinCos2Pi reduces u exactly first.
  for (int i = 0; i < 100000; ++i) {
    double u = i / 100000.0;
    double s, c;
    exact::sinCos2Pi(u, s, c);
    ASSERT_NEAR(s, std::sin(2 * M_PI * u), 1.5e-15) << u;
    ASSERT_NEAR(c, std::cos(2 * M_PI * u), 1.5e-15) << u;
  }
  double s, c;
  exact::sinCos2Pi(0.25, s, c);
  EXPECT_EQ(s, 1.0);
  EXPECT_EQ(c, 0.0);
}
