//===- TensorMemory.h - Checks over a tensor's raw memory ------*- C++ -*-===//
//
// The online invariant checker (docs/traincheck.md) asks two things of a
// CPU tensor at every traced call: are all its elements finite (APIOutput),
// and what is its hash (APIArg: the same batch twice). Asked through torch
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

/// XXH3-64 of `size` bytes at `data`.
inline uint64_t memoryHash(const void *data, size_t size) {
  return XXH3_64bits(data, size);
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_TENSORMEMORY_H
