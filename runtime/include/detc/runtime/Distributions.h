//===- Distributions.h - Exact transforms of a stream -----------*- C++ -*-===//
//
// Every transform here uses integer arithmetic and exact IEEE-754 operations
// only (products of integers below 2^24 / 2^53 by powers of two), so a value
// is bit-identical on every platform and compiler. The transforms are part
// of detc's contract (docs/runtime.md): changing one changes every
// transformed program's random values.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_DISTRIBUTIONS_H
#define DETC_RUNTIME_DISTRIBUTIONS_H

#include "detc/runtime/ExactMath.h"
#include "detc/runtime/Philox.h"

#include <cmath>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace detc::runtime {

/// [0, 1) with 24 random bits: (u >> 8) * 2^-24.
inline float uniformFloat(uint32_t u) {
  return float(u >> 8) * (1.0f / 16777216.0f);
}

/// [0, 1) with 53 random bits from two values: (a >> 5) * 2^26 + (b >> 6),
/// times 2^-53.
inline double uniformDouble(uint32_t a, uint32_t b) {
  // Computed as (a >> 5) * 2^26 + (b >> 6) in double — every step exact,
  // so equal to converting the 53-bit integer — from signed 32-bit
  // conversions, which vectorise where 64-bit ones do not.
  double hi = double(int32_t(a >> 5)), lo = double(int32_t(b >> 6));
  return (hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0);
}

/// An integer in [0, n), n >= 1, unbiased: Lemire's multiply-and-reject
/// (draws again only when the low product word falls in the biased zone, so
/// the number of values a call consumes depends on the values).
inline uint32_t boundedInt(Stream &s, uint32_t n) {
  uint64_t m = uint64_t(s.next()) * n;
  uint32_t low = uint32_t(m);
  if (low < n) {
    uint32_t threshold = uint32_t(-n) % n;
    while (low < threshold) {
      m = uint64_t(s.next()) * n;
      low = uint32_t(m);
    }
  }
  return uint32_t(m >> 32);
}

/// The keep/drop threshold of a Bernoulli(p) in 2^-24 steps: value u is a
/// success iff (u >> 8) < bernoulliThreshold(p). p is clamped to [0, 1].
inline uint32_t bernoulliThreshold(double p) {
  if (!(p > 0.0))
    return 0;
  if (p >= 1.0)
    return 1u << 24;
  // p * 2^24 is exact; adding one half and truncating rounds to nearest.
  return uint32_t(p * 16777216.0 + 0.5);
}
inline bool bernoulli(uint32_t u, uint32_t threshold) {
  return (u >> 8) < threshold;
}

/// Fills `perm[0..n)` with a uniformly random permutation of 0..n-1
/// (Fisher-Yates from the last position down, one boundedInt per swap).
inline void permutation(Stream &s, uint32_t *perm, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    perm[i] = i;
  for (uint32_t i = n; i > 1; --i) {
    uint32_t j = boundedInt(s, i);
    std::swap(perm[i - 1], perm[j]);
  }
}

/// The next uniform double in [0, 1) (two values of the stream).
inline double nextUniformDouble(Stream &s) {
  uint32_t a = s.next();
  return uniformDouble(a, s.next());
}

/// Two independent standard normals from four raw values (Box-Muller):
/// u1 = 1 - uniformDouble(v0, v1) in (0, 1], u2 = uniformDouble(v2, v3),
/// r = sqrt(-2 log u1) (exact::sqrt and exact::log), z0 = r cos 2πu2,
/// z1 = r sin 2πu2.
inline void normalPairFromRaw(const uint32_t *v, double &z0, double &z1) {
  double u1 = 1.0 - uniformDouble(v[0], v[1]);
  double u2 = uniformDouble(v[2], v[3]);
  double r = exact::sqrt(-2.0 * exact::log(u1));
  double sn, cs;
  exact::sinCos2Pi(u2, sn, cs);
  z0 = r * cs;
  z1 = r * sn;
}

/// The next pair of standard normals of `s` (four values).
inline void normalPair(Stream &s, double &z0, double &z1) {
  uint32_t v[4];
  for (uint32_t &x : v)
    x = s.next();
  normalPairFromRaw(v, z0, z1);
}

/// Box-Muller over `pairs` pairs: pair i from raw[4i..4i+4) into z[2i],
/// z[2i+1]. The loop has no calls or branches, so the compiler vectorises
/// it (exact operations only: the vector lanes give the scalar bits).
inline void normalPairsFromRaw(const uint32_t *__restrict raw,
                               double *__restrict z, size_t pairs) {
  for (size_t i = 0; i < pairs; ++i) {
    double z0, z1;
    normalPairFromRaw(raw + 4 * i, z0, z1);
    z[2 * i] = z0;
    z[2 * i + 1] = z1;
  }
}

/// Pairs computed at a time: raw values from Stream::fill (eight Philox
/// blocks side by side) and the normals stay in stack buffers.
constexpr size_t kNormalChunkPairs = 256;

/// n values scale(z) for the normals z of `s`, in pairs as normalPair takes
/// them; an odd n drops the last pair's second value (the stream still
/// advances by four values per pair). Requires s.has(4 * ceil(n / 2)).
template <typename T, typename Scale>
void transformedNormals(Stream &s, T *out, size_t n, Scale scale) {
  uint32_t raw[4 * kNormalChunkPairs];
  double z[2 * kNormalChunkPairs];
  uint64_t pos = s.position();
  for (size_t first = 0; first < n; first += 2 * kNormalChunkPairs) {
    size_t count =
        n - first < 2 * kNormalChunkPairs ? n - first : 2 * kNormalChunkPairs;
    size_t pairs = (count + 1) / 2;
    s.fill(pos, raw, 4 * pairs);
    pos += 4 * pairs;
    normalPairsFromRaw(raw, z, pairs);
    for (size_t i = 0; i < count; ++i)
      out[first + i] = scale(z[i]);
  }
  s.seek(pos);
}

/// n standard normals, equal to normalPair's values.
template <typename T> void normals(Stream &s, T *out, size_t n) {
  transformedNormals(s, out, n, [](double z) { return T(z); });
}

/// Gamma(alpha, 1), alpha > 0 (Marsaglia-Tsang). For alpha >= 1, each try
/// takes a normal (the first of a fresh pair) and a uniform double; for
/// alpha < 1, Gamma(alpha + 1) * u^(1/alpha) with one more uniform, the
/// power computed as exp(log(u) / alpha).
inline double gamma(Stream &s, double alpha) {
  if (alpha < 1.0) {
    double g = gamma(s, alpha + 1.0);
    double u = 1.0 - nextUniformDouble(s); // (0, 1]
    return g * exact::exp(exact::log(u) / alpha);
  }
  double d = alpha - 1.0 / 3.0;
  double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, unused;
    normalPair(s, x, unused);
    double t = 1.0 + c * x;
    if (t <= 0.0)
      continue;
    double v = t * t * t;
    double u = 1.0 - nextUniformDouble(s); // (0, 1]
    double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2)
      return d * v;
    if (exact::log(u) < 0.5 * x2 + d * (1.0 - v + exact::log(v)))
      return d * v;
  }
}

/// Beta(a, b) = X / (X + Y), X ~ Gamma(a), Y ~ Gamma(b), drawn in that
/// order (mixup's λ).
inline double beta(Stream &s, double a, double b) {
  double x = gamma(s, a);
  double y = gamma(s, b);
  return x / (x + y);
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_DISTRIBUTIONS_H
