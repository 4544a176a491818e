//===- TensorMemory.h - Checks over a tensor's raw memory ------*- C++ -*-===//
//
// The online invariant checker (docs/traincheck.md) asks three things of a
// CPU tensor at every traced call: are all its elements finite (APIOutput),
// what are its least and greatest elements (APIOutput bounds: a result
// that should be >= 0, <= 0 or in [0, 1]), and what is its hash (APIArg:
// the same batch twice). Asked through torch
// (`t.detach().sum(dtype=float64)`, `t.numpy()` + SHA-1) each costs several
// dispatcher calls, ~6 to 25 us apiece inside a training loop whose caches
// the model's own work keeps cold: a third of the checker's cost per step.
// Read directly from the tensor's contiguous storage, each is one call.
//
// The caller guarantees the memory: a contiguous CPU tensor it holds, its
// data_ptr() and its size in elements.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_TENSORMEMORY_H
#define DETC_RUNTIME_TENSORMEMORY_H

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace detc::runtime {

/// Floating element types, as torch names them.
enum class FloatKind { Float32, Float64, Float16, BFloat16 };

namespace detail {
/// True when no element has its exponent bits all set (an infinity or a
/// NaN), for elements of `Bits` with exponent mask `Mask`. Branch-free per
/// element, so the loop vectorises.
template <typename Bits, Bits Mask>
bool noneAllOnes(const void *data, size_t count) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  Bits bad = 0;
  for (size_t i = 0; i < count; ++i) {
    Bits v;
    std::memcpy(&v, bytes + i * sizeof(Bits), sizeof(Bits));
    bad |= static_cast<Bits>((v & Mask) == Mask);
  }
  return bad == 0;
}
} // namespace detail

/// Whether each of the `count` elements of kind `kind` at `data` is finite.
inline bool allFinite(const void *data, size_t count, FloatKind kind) {
  switch (kind) {
  case FloatKind::Float32:
    return detail::noneAllOnes<uint32_t, 0x7f800000u>(data, count);
  case FloatKind::Float64:
    return detail::noneAllOnes<uint64_t, 0x7ff0000000000000ull>(data, count);
  case FloatKind::Float16:
    return detail::noneAllOnes<uint16_t, 0x7c00u>(data, count);
  case FloatKind::BFloat16:
    return detail::noneAllOnes<uint16_t, 0x7f80u>(data, count);
  }
  return false;
}

/// A tensor's elements at a glance: whether all are finite and, when they
/// are and there is at least one, the least and the greatest.
struct ValueRange {
  bool finite = true;
  bool empty = true;
  double lo = 0, hi = 0;
};

namespace detail {
inline float bf16ToFloat(uint16_t v) {
  uint32_t bits = uint32_t(v) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// IEEE binary16 to binary32, exactly (finite values only: the range is
/// read after the finiteness test).
inline float halfToFloat(uint16_t v) {
  uint32_t sign = uint32_t(v & 0x8000u) << 16;
  uint32_t exponent = (v >> 10) & 0x1fu, mantissa = v & 0x3ffu;
  uint32_t bits;
  if (exponent == 0 && mantissa == 0) {
    bits = sign;
  } else if (exponent == 0) {
    // Subnormal: normalise the mantissa into binary32's implicit bit.
    int shift = 0;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      ++shift;
    }
    bits =
        sign | uint32_t(127 - 15 - shift + 1) << 23 | (mantissa & 0x3ffu) << 13;
  } else {
    bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// The least and greatest of `count` (> 0) finite elements of type `T`,
/// each widened by `widen`. Plain comparisons (no NaN to propagate), so
/// the loop vectorises for float and double.
template <typename T, typename Wide, Wide (*widen)(T)>
void minMax(const void *data, size_t count, ValueRange &r) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  auto load = [bytes](size_t i) {
    T v;
    std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
    return widen(v);
  };
  Wide lo = load(0), hi = lo;
  for (size_t i = 1; i < count; ++i) {
    Wide v = load(i);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  r.lo = lo;
  r.hi = hi;
  r.empty = false;
}

template <typename T> T same(T v) { return v; }
} // namespace detail

/// The range of the `count` elements of kind `kind` at `data`.
inline ValueRange valueRange(const void *data, size_t count, FloatKind kind) {
  ValueRange r;
  r.finite = allFinite(data, count, kind);
  if (!r.finite || count == 0)
    return r;
  switch (kind) {
  case FloatKind::Float32:
    detail::minMax<float, float, detail::same<float>>(data, count, r);
    break;
  case FloatKind::Float64:
    detail::minMax<double, double, detail::same<double>>(data, count, r);
    break;
  case FloatKind::Float16:
    detail::minMax<uint16_t, float, detail::halfToFloat>(data, count, r);
    break;
  case FloatKind::BFloat16:
    detail::minMax<uint16_t, float, detail::bf16ToFloat>(data, count, r);
    break;
  }
  return r;
}

/// XXH3-64 of `size` bytes at `data`.
inline uint64_t memoryHash(const void *data, size_t size) {
  return XXH3_64bits(data, size);
}

/// XXH3-64 of `size` bytes at `data`, seeded with `seed`. A sample's
/// windows gathered into one buffer elsewhere (on a GPU) hash with the
/// tensor's size as the seed to memorySampleHash's value: XXH3's streaming
/// digest equals its one-shot digest of the same bytes.
inline uint64_t memoryHashWithSeed(const void *data, size_t size,
                                   uint64_t seed) {
  return XXH3_64bits_withSeed(data, size, seed);
}

/// XXH3-64 of a sample of the `size` bytes at `data`: `windows` evenly
/// spaced windows of `window` bytes (the first at the start, the last
/// ending at the end), streamed together with the size; all of the bytes
/// when they fit in the windows. A restore check compares such digests of
/// the state before and after: the cost follows the number of tensors,
/// not their size.
inline uint64_t memorySampleHash(const void *data, size_t size,
                                 size_t windows, size_t window) {
  if (windows == 0 || window == 0 || size <= windows * window)
    return XXH3_64bits_withSeed(data, size, size);
  XXH3_state_t state;
  XXH3_INITSTATE(&state); // reset_withSeed reads the seed it had
  XXH3_64bits_reset_withSeed(&state, size);
  const auto *bytes = static_cast<const unsigned char *>(data);
  size_t span = size - window;
  for (size_t i = 0; i < windows; ++i) {
    // i * span / (windows - 1) without overflow for any realistic size.
    size_t at = windows == 1 ? 0
                             : static_cast<size_t>(
                                   static_cast<unsigned __int128>(span) * i /
                                   (windows - 1));
    XXH3_64bits_update(&state, bytes + at, window);
  }
  return XXH3_64bits_digest(&state);
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_TENSORMEMORY_H
