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
