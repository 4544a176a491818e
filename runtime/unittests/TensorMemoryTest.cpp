//===- TensorMemoryTest.cpp - Finiteness and hashes of raw memory ---------===//

#include "detc/runtime/TensorMemory.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace detc::runtime;

namespace {
template <typename T>
void expectFinitenessOf(FloatKind kind) {
  std::vector<T> values(37, T(1.5));
  values[0] = std::numeric_limits<T>::max();
  values[1] = -std::numeric_limits<T>::denorm_min();
  EXPECT_TRUE(allFinite(values.data(), values.size(), kind));
  for (T bad : {std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity(),
                std::numeric_limits<T>::quiet_NaN()}) {
    for (size_t at : {size_t(0), size_t(17), values.size() - 1}) {
      std::vector<T> copy = values;
      copy[at] = bad;
      EXPECT_FALSE(allFinite(copy.data(), copy.size(), kind)) << at;
      // Elements past `count` are not read.
      EXPECT_EQ(allFinite(copy.data(), at, kind), true) << at;
    }
  }
}
} // namespace

TEST(TensorMemory, FiniteFloat32AndFloat64) {
  expectFinitenessOf<float>(FloatKind::Float32);
  expectFinitenessOf<double>(FloatKind::Float64);
}

TEST(TensorMemory, FiniteHalfAndBFloat16ByBits) {
  // float16: exponent 0x7c00; bfloat16: exponent 0x7f80. The largest
  // finite values have all but the lowest exponent bit set.
  std::vector<uint16_t> half = {0x3c00, 0x7bff, 0xfbff, 0x0001};
  EXPECT_TRUE(allFinite(half.data(), half.size(), FloatKind::Float16));
  for (uint16_t bad : {0x7c00, 0xfc00, 0x7e00}) {
    half[2] = bad;
    EXPECT_FALSE(allFinite(half.data(), half.size(), FloatKind::Float16));
  }
  std::vector<uint16_t> bf16 = {0x3f80, 0x7f7f, 0xff7f, 0x0001};
  EXPECT_TRUE(allFinite(bf16.data(), bf16.size(), FloatKind::BFloat16));
  for (uint16_t bad : {0x7f80, 0xff80, 0x7fc0}) {
    bf16[1] = bad;
    EXPECT_FALSE(allFinite(bf16.data(), bf16.size(), FloatKind::BFloat16));
  }
}

TEST(TensorMemory, HashIsXXH3OfTheBytes) {
  // XXH3-64 of the empty input, as published with xxHash.
  EXPECT_EQ(memoryHash(nullptr, 0), 0x2D06800538D394C2ull);
  std::vector<float> a(64, 0.25f), b = a;
  EXPECT_EQ(memoryHash(a.data(), 256), memoryHash(b.data(), 256));
  b[63] = 0.5f;
  EXPECT_NE(memoryHash(a.data(), 256), memoryHash(b.data(), 256));
  EXPECT_EQ(memoryHash(a.data(), 252), memoryHash(b.data(), 252));
}

TEST(TensorMemory, SampleHashSeesTheSampledBytesAndTheSize) {
  std::vector<uint8_t> a(1 << 20, 7), b = a;
  // Small inputs are hashed whole.
  EXPECT_EQ(memorySampleHash(a.data(), 1000, 4, 256),
            XXH3_64bits_withSeed(a.data(), 1000, 1000));
  uint64_t h = memorySampleHash(a.data(), a.size(), 64, 256);
  EXPECT_EQ(h, memorySampleHash(b.data(), b.size(), 64, 256));
  // The first and the last byte are always in a window.
  b.front() = 8;
  EXPECT_NE(h, memorySampleHash(b.data(), b.size(), 64, 256));
  b = a;
  b.back() = 8;
  EXPECT_NE(h, memorySampleHash(b.data(), b.size(), 64, 256));
  // A byte between windows is not seen (the sample's documented limit).
  b = a;
  b[(a.size() - 256) / 63 / 2 + 300] = 8;
  EXPECT_EQ(h, memorySampleHash(b.data(), b.size(), 64, 256));
  // The size is part of the digest.
  EXPECT_NE(memorySampleHash(a.data(), 5000, 4, 256),
            memorySampleHash(a.data(), 5001, 4, 256));
}

TEST(TensorMemory, SampleHashOfGatheredWindowsIsSeededWithTheSize) {
  // What fingerprint.py computes for a tensor on a GPU: the windows
  // gathered there into one buffer, hashed here seeded with the size.
  std::vector<uint8_t> a(1000003);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<uint8_t>((i * 2654435761u) >> 13);
  for (size_t size : {size_t(16385), size_t(70000), a.size()}) {
    std::vector<uint8_t> gathered;
    size_t span = size - 256;
    for (size_t i = 0; i < 64; ++i) {
      size_t at = span * i / 63;
      gathered.insert(gathered.end(), a.begin() + at, a.begin() + at + 256);
    }
    EXPECT_EQ(memorySampleHash(a.data(), size, 64, 256),
              memoryHashWithSeed(gathered.data(), gathered.size(), size));
  }
  EXPECT_EQ(memorySampleHash(a.data(), 16384, 64, 256),
            memoryHashWithSeed(a.data(), 16384, 16384));
}

TEST(TensorMemory, RangeOfFiniteElements) {
  std::vector<float> f = {0.5f, -3.25f, 7.0f, 0.0f, -0.0f, 1e-30f};
  ValueRange r = valueRange(f.data(), f.size(), FloatKind::Float32);
  EXPECT_TRUE(r.finite);
  EXPECT_FALSE(r.empty);
  EXPECT_EQ(r.lo, -3.25);
  EXPECT_EQ(r.hi, 7.0);
  // A prefix: only `count` elements are read.
  r = valueRange(f.data(), 1, FloatKind::Float32);
  EXPECT_EQ(r.lo, 0.5);
  EXPECT_EQ(r.hi, 0.5);
  std::vector<double> d = {-1e300, 2.5, 1e-300};
  r = valueRange(d.data(), d.size(), FloatKind::Float64);
  EXPECT_EQ(r.lo, -1e300);
  EXPECT_EQ(r.hi, 2.5);
  // No elements: finite, no range.
  r = valueRange(d.data(), 0, FloatKind::Float64);
  EXPECT_TRUE(r.finite);
  EXPECT_TRUE(r.empty);
  // A non-finite element: no range either (finiteness is its own check).
  f[2] = std::numeric_limits<float>::infinity();
  r = valueRange(f.data(), f.size(), FloatKind::Float32);
  EXPECT_FALSE(r.finite);
  EXPECT_TRUE(r.empty);
}

TEST(TensorMemory, RangeOfHalfAndBFloat16IsExact) {
  // 1.0, -2.0, the smallest subnormal 2^-24, the largest finite 65504, a
  // subnormal with its top mantissa bit clear (0x0155 = 341 * 2^-24), and
  // 0x3555 = 1365/4096 = 0.333251953125.
  std::vector<uint16_t> half = {0x3c00, 0xc000, 0x0001, 0x3555};
  ValueRange r = valueRange(half.data(), half.size(), FloatKind::Float16);
  EXPECT_EQ(r.lo, -2.0);
  EXPECT_EQ(r.hi, 1.0);
  r = valueRange(half.data() + 2, 1, FloatKind::Float16);
  EXPECT_EQ(r.lo, std::ldexp(1.0, -24));
  r = valueRange(half.data() + 3, 1, FloatKind::Float16);
  EXPECT_EQ(r.lo, 0.333251953125);
  uint16_t more[] = {0x0155, 0x7bff, 0x8000};
  r = valueRange(more, 1, FloatKind::Float16);
  EXPECT_EQ(r.lo, std::ldexp(341.0, -24));
  r = valueRange(more, 3, FloatKind::Float16);
  EXPECT_EQ(r.hi, 65504.0);
  EXPECT_EQ(r.lo, 0.0);
  std::vector<uint16_t> bf16 = {0x3f80, 0xc040, 0x4120};
  r = valueRange(bf16.data(), bf16.size(), FloatKind::BFloat16);
  EXPECT_EQ(r.lo, -3.0);
  EXPECT_EQ(r.hi, 10.0);
}
