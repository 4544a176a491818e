//===- PhiloxTest.cpp - Known answers, layout and seeking -----------------===//

#include "detc/runtime/Philox.h"

#include "gtest/gtest.h"

#include <set>
#include <tuple>
#include <vector>

using namespace detc::runtime;

// The published known-answer vectors of Philox4x32-10 (Random123's
// kat_vectors; the first two are quoted in SPEC §3).
TEST(Philox, KnownAnswerVectors) {
  struct Vector {
    PhiloxCounter counter;
    PhiloxKey key;
    PhiloxBlock expected;
  } vectors[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
  };
  for (const Vector &v : vectors)
    EXPECT_EQ(philox4x32_10(v.counter, v.key), v.expected);
}

TEST(Philox, StreamLayout) {
  StreamId id{0x0123456789abcdefULL, /*site=*/7, /*epoch=*/3, /*example=*/42};
  EXPECT_EQ(id.key(), (PhiloxKey{0x89abcdef, 0x01234567}));
  EXPECT_EQ(id.counter(5), (PhiloxCounter{5, 42, 3, 7}));
  Stream s(id);
  PhiloxBlock b0 = philox4x32_10(id.counter(0), id.key());
  PhiloxBlock b1 = philox4x32_10(id.counter(1), id.key());
  for (uint32_t w : b0)
    EXPECT_EQ(s.next(), w);
  for (uint32_t w : b1)
    EXPECT_EQ(s.next(), w);
  EXPECT_EQ(s.position(), 8u);
}

TEST(Philox, SeekIsRandomAccess) {
  StreamId id{2026, 1, 9, 123456};
  Stream sequential(id);
  std::vector<uint32_t> values;
  for (int i = 0; i < 1000; ++i)
    values.push_back(sequential.next());
  for (uint64_t k : {0, 1, 3, 4, 5, 511, 999}) {
    Stream s(id, k);
    EXPECT_EQ(s.next(), values[k]) << "seek to " << k;
    EXPECT_EQ(s.at(k), values[k]);
  }
  // Far positions: block index in the high counter word, no iteration.
  Stream far(id);
  far.seek((uint64_t(1) << 33) + 2);
  EXPECT_EQ(far.next(),
            philox4x32_10(id.counter(uint32_t(1) << 31), id.key())[2]);
  EXPECT_TRUE(far.has(Stream::kCapacity - far.position()));
  EXPECT_FALSE(far.has(Stream::kCapacity));
}

TEST(Philox, DistinctStreamsNeverShareABlock) {
  // Streams differing in any one coordinate use different (counter words
  // 1..3, key) pairs, so no block of one is a block of another.
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>> seen;
  for (uint64_t seed : {uint64_t(0), uint64_t(1), uint64_t(1) << 32})
    for (uint32_t site : {0u, 1u})
      for (uint32_t epoch : {0u, 1u, 2u})
        for (uint32_t example : {0u, 1u, 65535u}) {
          StreamId id{seed, site, epoch, example};
          PhiloxCounter c = id.counter(0);
          PhiloxKey k = id.key();
          EXPECT_TRUE(seen.insert({c[1], c[2], c[3], k[0], k[1]}).second);
        }
  // And their first values differ (a collision would be a 2^-32 accident).
  EXPECT_NE(Stream({1, 0, 0, 0}).next(), Stream({1, 0, 0, 1}).next());
  EXPECT_NE(Stream({1, 0, 0, 0}).next(), Stream({1, 0, 1, 0}).next());
  EXPECT_NE(Stream({1, 0, 0, 0}).next(), Stream({1, 1, 0, 0}).next());
  EXPECT_NE(Stream({1, 0, 0, 0}).next(), Stream({2, 0, 0, 0}).next());
}

TEST(Philox, BulkFillEqualsSingleValues) {
  // The lane-parallel bulk path must give exactly the values of at(), for
  // every alignment of start and length (partial first and last blocks,
  // fewer and more than one lane group) and across the 2^32-block wrap of
  // counter word 0's low part.
  Stream s({0x0123456789abcdefULL, 7, 3, 11});
  std::vector<uint32_t> out;
  for (uint64_t start : {uint64_t(0), uint64_t(1), uint64_t(3), uint64_t(5),
                         uint64_t(4) * 1000 + 2})
    for (uint64_t n : {0, 1, 3, 4, 7, 31, 32, 33, 100, 257}) {
      out.assign(n, 0);
      s.fill(start, out.data(), n);
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], s.at(start + i)) << "start " << start << " i " << i;
    }
}
