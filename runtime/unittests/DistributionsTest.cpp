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
