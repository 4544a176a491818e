//===- Philox.h - Philox4x32-10 and detc's keyed example streams -*- C++ -*-===//
//
// The counter-based generator of Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3" (SC'11): 10 rounds of a multiply-xor bijection on a
// 128-bit counter under a 64-bit key. A block is a pure function of
// (counter, key), so any draw of any stream is computed directly: O(1) seek,
// no state to carry between workers, threads or processes.
//
// detc's streams (SPEC §3). The draw for example `i` in epoch `e` from
// generator site `g` under seed `s` depends only on (s, g, e, i, k), k the
// index of the draw within that example's stream:
//
//   key     = { low 32 bits of s, high 32 bits of s }
//   counter = { k / 4, i, e, g }      (word 0 first)
//   value   = word k % 4 of Philox4x32-10(counter, key)
//
// Two different (s, g, e, i) differ in the key or in counter words 1..3, so
// their streams never share a block; a stream holds 2^32 blocks (2^34
// 32-bit values) before its block counter would wrap, which StreamPosition
// reports instead of wrapping.
//
// No MLIR, no libm: this header is the whole core, usable from the Python
// module and from tests alike.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_PHILOX_H
#define DETC_RUNTIME_PHILOX_H

#include <array>
#include <cstdint>

namespace detc::runtime {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;
using PhiloxBlock = std::array<uint32_t, 4>;

namespace philox_detail {
constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;

inline void mulhilo(uint32_t a, uint32_t b, uint32_t &hi, uint32_t &lo) {
  uint64_t p = uint64_t(a) * uint64_t(b);
  hi = uint32_t(p >> 32);
  lo = uint32_t(p);
}
} // namespace philox_detail

/// One Philox4x32-10 block.
inline PhiloxBlock philox4x32_10(PhiloxCounter c, PhiloxKey k) {
  using namespace philox_detail;
  for (int round = 0; round < 10; ++round) {
    if (round) {
      k[0] += kWeyl0;
      k[1] += kWeyl1;
    }
    uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kMul0, c[0], hi0, lo0);
    mulhilo(kMul1, c[2], hi1, lo1);
    c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  }
  return c;
}

/// Which stream: SPEC §3's (seed, generator site, epoch, example).
struct StreamId {
  uint64_t seed = 0;
  uint32_t site = 0;
  uint32_t epoch = 0;
  uint32_t example = 0;

  PhiloxKey key() const {
    return {uint32_t(seed), uint32_t(seed >> 32)};
  }
  PhiloxCounter counter(uint32_t block) const {
    return {block, example, epoch, site};
  }
};

/// The 32-bit values of one stream, in order, with O(1) seek.
class Stream {
public:
  /// Draws a stream holds: 2^32 blocks of four.
  static constexpr uint64_t kCapacity = uint64_t(1) << 34;

  explicit Stream(StreamId id, uint64_t position = 0) : id(id) {
    seek(position);
  }

  const StreamId &identity() const { return id; }
  /// Index of the next value.
  uint64_t position() const { return pos; }
  /// Whether `count` more values fit before the stream is exhausted.
  bool has(uint64_t count) const { return count <= kCapacity - pos; }

  /// Moves to value `k` (k <= kCapacity).
  void seek(uint64_t k) {
    pos = k;
    cachedBlock = ~uint64_t(0);
  }

  /// The next value. The caller checks has() for long runs; past the end
  /// the block index wraps, which has() exists to prevent.
  uint32_t next() {
    uint64_t block = pos >> 2;
    if (block != cachedBlock) {
      cache = philox4x32_10(id.counter(uint32_t(block)), id.key());
      cachedBlock = block;
    }
    return cache[pos++ & 3];
  }

  /// Value `k` of the stream without moving.
  uint32_t at(uint64_t k) const {
    return philox4x32_10(id.counter(uint32_t(k >> 2)), id.key())[k & 3];
  }

private:
  StreamId id;
  uint64_t pos = 0;
  uint64_t cachedBlock = ~uint64_t(0);
  PhiloxBlock cache{};
};

} // namespace detc::runtime

#endif // DETC_RUNTIME_PHILOX_H
