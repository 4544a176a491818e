//===- Philox.h - Philox4x32-10 and keyed example streams -------*- C++ -*-===//
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

/// Blocks `first .. first + n - 1` of the counter sequence {b, c1, c2, c3}
/// under `key`, written in order to `out` (4n values). Eight blocks are
/// computed side by side in separate lanes so the compiler can vectorise
/// the rounds (32x32->64 multiplies); the result equals n calls of
/// philox4x32_10.
inline void philoxBlocks(uint32_t first, uint32_t c1, uint32_t c2, uint32_t c3,
                         PhiloxKey key, uint64_t n, uint32_t *out) {
  using namespace philox_detail;
  constexpr unsigned kLanes = 8;
  uint64_t done = 0;
  for (; done + kLanes <= n; done += kLanes) {
    uint32_t x0[kLanes], x1[kLanes], x2[kLanes], x3[kLanes];
    for (unsigned l = 0; l < kLanes; ++l) {
      x0[l] = first + uint32_t(done) + l;
      x1[l] = c1;
      x2[l] = c2;
      x3[l] = c3;
    }
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
      for (unsigned l = 0; l < kLanes; ++l) {
        uint64_t p0 = uint64_t(kMul0) * x0[l];
        uint64_t p1 = uint64_t(kMul1) * x2[l];
        uint32_t y0 = uint32_t(p1 >> 32) ^ x1[l] ^ k0;
        uint32_t y1 = uint32_t(p1);
        uint32_t y2 = uint32_t(p0 >> 32) ^ x3[l] ^ k1;
        uint32_t y3 = uint32_t(p0);
        x0[l] = y0;
        x1[l] = y1;
        x2[l] = y2;
        x3[l] = y3;
      }
      k0 += kWeyl0;
      k1 += kWeyl1;
    }
    for (unsigned l = 0; l < kLanes; ++l) {
      uint32_t *o = out + 4 * (done + l);
      o[0] = x0[l];
      o[1] = x1[l];
      o[2] = x2[l];
      o[3] = x3[l];
    }
  }
  for (uint32_t *o = out + 4 * done; done < n; ++done, o += 4) {
    PhiloxBlock b = philox4x32_10({first + uint32_t(done), c1, c2, c3}, key);
    o[0] = b[0];
    o[1] = b[1];
    o[2] = b[2];
    o[3] = b[3];
  }
}

/// Which stream: SPEC §3's (seed, generator site, epoch, example).
struct StreamId {
  uint64_t seed = 0;
  uint32_t site = 0;
  uint32_t epoch = 0;
  uint32_t example = 0;

  PhiloxKey key() const { return {uint32_t(seed), uint32_t(seed >> 32)}; }
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

  /// Values k .. k + n - 1 of the stream into `out`, without moving (the
  /// bulk path: whole blocks go through philoxBlocks). Requires
  /// k + n <= kCapacity.
  void fill(uint64_t k, uint32_t *out, uint64_t n) const {
    while (n && (k & 3)) {
      *out++ = at(k++);
      --n;
    }
    uint64_t blocks = n >> 2;
    philoxBlocks(uint32_t(k >> 2), id.example, id.epoch, id.site, id.key(),
                 blocks, out);
    k += 4 * blocks;
    out += 4 * blocks;
    for (n &= 3; n; --n)
      *out++ = at(k++);
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
