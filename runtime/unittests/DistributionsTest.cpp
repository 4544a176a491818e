//===- DistributionsTest.cpp - The exactly specified transforms -----------===//
//
// Exact values pin the transforms (a change to one is a change to every
// transformed program's random numbers); statistical checks with fixed
// streams and generous bounds catch broken distributions.
//
//===----------------------------------------------------------------------===//

#include "detc/runtime/Distributions.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace detc::runtime;

TEST(Distributions, UniformFloatIsExact) {
  EXPECT_EQ(uniformFloat(0), 0.0f);
  EXPECT_EQ(uniformFloat(0xffffffffu), 16777215.0f / 16777216.0f);
  EXPECT_LT(uniformFloat(0xffffffffu), 1.0f);
  EXPECT_EQ(uniformFloat(0x80000000u), 0.5f);
  EXPECT_EQ(uniformFloat(0x6627e8d5u), float(0x6627e8) / 16777216.0f);
}

TEST(Distributions, UniformDoubleIsExact) {
  EXPECT_EQ(uniformDouble(0, 0), 0.0);
  double top = uniformDouble(0xffffffffu, 0xffffffffu);
  EXPECT_LT(top, 1.0);
  EXPECT_EQ(top, 9007199254740991.0 / 9007199254740992.0);
  EXPECT_EQ(uniformDouble(0x80000000u, 0), 0.5);
  // 27 bits from the first value, 26 from the second.
  EXPECT_EQ(uniformDouble(0x6627e8d5u, 0xe169c58du),
            double((uint64_t(0x6627e8d5u >> 5) << 26) |
                   (0xe169c58du >> 6)) /
                9007199254740992.0);
}

TEST(Distributions, BoundedIntExactValuesAndBounds) {
  // The first values of stream (seed 0, site 0, epoch 0, example 0) are the
  // all-zero known-answer block: 0x6627e8d5 * 10 >> 32 == 3, and so on.
  Stream s(StreamId{});
  EXPECT_EQ(boundedInt(s, 10), uint32_t((uint64_t(0x6627e8d5) * 10) >> 32));
  EXPECT_EQ(boundedInt(s, 10), uint32_t((uint64_t(0xe169c58d) * 10) >> 32));
  EXPECT_EQ(s.position(), 2u) << "no rejection for these values";
  Stream t(StreamId{5, 1, 2, 3});
  std::vector<unsigned> counts(7);
  for (int i = 0; i < 70000; ++i) {
    uint32_t v = boundedInt(t, 7);
    ASSERT_LT(v, 7u);
    ++counts[v];
  }
  for (unsigned c : counts)
    EXPECT_NEAR(c, 10000, 500);
  Stream one(StreamId{});
  EXPECT_EQ(boundedInt(one, 1), 0u);
}

TEST(Distributions, BernoulliThresholdIsExact) {
  EXPECT_EQ(bernoulliThreshold(0.0), 0u);
  EXPECT_EQ(bernoulliThreshold(-1.0), 0u);
  EXPECT_EQ(bernoulliThreshold(1.0), 1u << 24);
  EXPECT_EQ(bernoulliThreshold(0.5), 1u << 23);
  EXPECT_EQ(bernoulliThreshold(0.1), 1677722u); // 1677721.6 rounded
  EXPECT_TRUE(bernoulli(0x000000ffu, 1));
  EXPECT_FALSE(bernoulli(0x00000100u, 1));
  Stream s(StreamId{9, 9, 9, 9});
  uint32_t threshold = bernoulliThreshold(0.3);
  int hits = 0;
  for (int i = 0; i < 100000; ++i)
    hits += bernoulli(s.next(), threshold);
  EXPECT_NEAR(hits, 30000, 600);
}

TEST(Distributions, PermutationIsAPermutationAndKeyed) {
  std::vector<uint32_t> p(1000), q(1000), r(1000);
  Stream a(StreamId{1, 2, 3, 0}), b(StreamId{1, 2, 3, 0}),
      c(StreamId{1, 2, 4, 0});
  permutation(a, p.data(), p.size());
  permutation(b, q.data(), q.size());
  permutation(c, r.data(), r.size());
  EXPECT_EQ(p, q) << "same key, same permutation";
  EXPECT_NE(p, r) << "another epoch, another permutation";
  std::vector<uint32_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < sorted.size(); ++i)
    ASSERT_EQ(sorted[i], i);
  // Position 0 ends up anywhere: across epochs, its image is spread out.
  std::vector<unsigned> where(4);
  for (uint32_t e = 0; e < 4000; ++e) {
    std::vector<uint32_t> small(4);
    Stream s(StreamId{1, 2, e, 0});
    permutation(s, small.data(), 4);
    ++where[small[0]];
  }
  for (unsigned w : where)
    EXPECT_NEAR(w, 1000, 150);
}

namespace {
struct Moments {
  double mean = 0, var = 0;
};
template <typename Draw> Moments moments(int n, Draw draw) {
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    double x = draw();
    sum += x;
    sum2 += x * x;
  }
  Moments m;
  m.mean = sum / n;
  m.var = sum2 / n - m.mean * m.mean;
  return m;
}
} // namespace

TEST(Distributions, NormalsArePinnedAndStandard) {
  // Pinned: the first pair of stream (0, 0, 0, 0) from the all-zero
  // known-answer block, computed by the specified transform.
  Stream s(StreamId{});
  double z0, z1;
  normalPair(s, z0, z1);
  double u1 = 1.0 - uniformDouble(0x6627e8d5u, 0xe169c58du);
  double u2 = uniformDouble(0xbc57ac4cu, 0x9b00dbd8u);
  double sn, cs;
  exact::sinCos2Pi(u2, sn, cs);
  double r = exact::sqrt(-2.0 * exact::log(u1));
  EXPECT_EQ(z0, r * cs);
  EXPECT_EQ(z1, r * sn);
  EXPECT_EQ(s.position(), 4u);

  Stream t(StreamId{3, 1, 4, 1});
  std::vector<float> many(200001);
  normals(t, many.data(), many.size());
  EXPECT_EQ(t.position(), 4u * 100001);
  Moments m = moments(many.size(), [&, i = 0]() mutable {
    return double(many[i++]);
  });
  EXPECT_NEAR(m.mean, 0.0, 0.01);
  EXPECT_NEAR(m.var, 1.0, 0.01);
}

TEST(Distributions, GammaAndBetaMoments) {
  for (double alpha : {0.3, 1.0, 2.5, 9.0}) {
    Stream s(StreamId{11, 2, 0, 0});
    Moments m = moments(100000, [&] { return gamma(s, alpha); });
    EXPECT_NEAR(m.mean, alpha, 0.03 * alpha + 0.01) << alpha;
    EXPECT_NEAR(m.var, alpha, 0.06 * alpha + 0.02) << alpha;
  }
  Stream s(StreamId{11, 3, 0, 0});
  // Beta(0.4, 0.4), mixup's usual λ: mean 1/2, variance ab/((a+b)^2(a+b+1)).
  Moments m = moments(100000, [&] { return beta(s, 0.4, 0.4); });
  EXPECT_NEAR(m.mean, 0.5, 0.01);
  EXPECT_NEAR(m.var, 0.16 / (0.64 * 1.8), 0.01);
  // Same stream, same values: a draw is a function of the stream only.
  Stream a(StreamId{5, 5, 5, 5}), b(StreamId{5, 5, 5, 5});
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(beta(a, 2.0, 3.0), beta(b, 2.0, 3.0));
}

// Golden bits: the same on GCC 12 and Clang 14, -O0 to -O3 -march=native, as long
// as floating-point contraction is off (with FMA contraction the Beta value
// below changes in its last bits — why the runtime is built with
// -ffp-contract=off). A failure here on another platform means the
// transformed programs' random values differ there.
TEST(Distributions, GoldenBits) {
  Stream n(StreamId{});
  double z0, z1;
  normalPair(n, z0, z1);
  EXPECT_EQ(z0, -0x1.7293de159849ep-4);
  EXPECT_EQ(z1, -0x1.015051a0107f6p+0);
  Stream g(StreamId{11, 2, 0, 0});
  double g1 = gamma(g, 0.3);
  double g2 = gamma(g, 2.5);
  EXPECT_EQ(g1, 0x1.5dd1caa7e8755p-10);
  EXPECT_EQ(g2, 0x1.d5f9d314cdc0bp+0);
  Stream b(StreamId{11, 3, 0, 0});
  EXPECT_EQ(beta(b, 0.4, 0.4), 0x1.0235b48d93581p-3);
  EXPECT_EQ(exact::log(0.1), -0x1.26bb1bbb55515p+1);
  EXPECT_EQ(exact::exp(-1.5), 0x1.c8f87724b5c1dp-3);
  EXPECT_EQ(exact::log(3.0), 0x1.193ea7aad030bp+0);
}
