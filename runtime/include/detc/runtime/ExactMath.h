//===- ExactMath.h - Platform-independent log, exp, sin/cos -----*- C++ -*-===//
//
// libm's log/exp/sin (and torch's sqrt) differ in the last bit between C libraries and
// versions; detc's random values must not. These functions use only IEEE-754
// +, -, *, / and exact bit manipulation, in a fixed order (the runtime is
// compiled with -ffp-contract=off), so they give the same bits everywhere.
// They are accurate to a few ulp on the ranges the distributions use; they
// are not general-purpose replacements (no NaN/infinity handling beyond what
// the callers need).
//
// Speed: the series are evaluated by Horner's rule with coefficients that
// are compile-time constants (each a correctly rounded 1/k or ±1/k!, so the
// constant is the same on every compiler), one multiply and one add per
// term, no data-dependent branches — the Box-Muller loop over a chunk of
// values runs at several tens of millions of normals per second.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_EXACTMATH_H
#define DETC_RUNTIME_EXACTMATH_H

#include <cstdint>
#include <cstring>

namespace detc::runtime::exact {

namespace detail {
inline uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double fromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kPi = 3.14159265358979311600e+00;
// Bits of sqrt(1/2) rounded down: x's mantissa is reduced to
// [sqrt(1/2), sqrt(2)) by subtracting this before taking the exponent.
constexpr uint64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdULL;

/// k! as a double; exact for k <= 18 (below 2^53).
constexpr double factorial(int k) {
  return k <= 1 ? 1.0 : k * factorial(k - 1);
}

// Horner coefficients, highest degree first. Each entry is one correctly
// rounded division of exact integers, evaluated by the compiler; IEEE
// division is correctly rounded, so every compiler produces the same bits.

/// log(m) = 2s (1 + s²/3 + s⁴/5 + ... + s¹⁸/19), |s| < 0.1716: the first
/// omitted term is below 2^-55 relative.
constexpr double kLogCoeff[] = {1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13,
                                1.0 / 11, 1.0 / 9,  1.0 / 7,  1.0 / 5,
                                1.0 / 3,  1.0};
/// e^r = Σ r^k / k!, k = 0..13, |r| <= ln2/2: the first omitted term is
/// below 2^-57.
constexpr double kExpCoeff[] = {1.0 / factorial(13),
                                1.0 / factorial(12),
                                1.0 / factorial(11),
                                1.0 / factorial(10),
                                1.0 / factorial(9),
                                1.0 / factorial(8),
                                1.0 / factorial(7),
                                1.0 / factorial(6),
                                1.0 / factorial(5),
                                1.0 / factorial(4),
                                1.0 / factorial(3),
                                1.0 / factorial(2),
                                1.0,
                                1.0};
/// sin a = a Σ (-1)^k a^2k / (2k+1)!, k = 0..7, and cos a = Σ (-1)^k
/// a^2k / (2k)!, k = 0..8, on |a| <= π/4: first omitted terms below 2^-54.
constexpr double kSinCoeff[] = {-1.0 / factorial(15), 1.0 / factorial(13),
                                -1.0 / factorial(11), 1.0 / factorial(9),
                                -1.0 / factorial(7),  1.0 / factorial(5),
                                -1.0 / factorial(3),  1.0};
constexpr double kCosCoeff[] = {
    1.0 / factorial(16),  -1.0 / factorial(14), 1.0 / factorial(12),
    -1.0 / factorial(10), 1.0 / factorial(8),   -1.0 / factorial(6),
    1.0 / factorial(4),   -1.0 / factorial(2),  1.0};

template <size_t N> inline double horner(const double (&c)[N], double x) {
  double p = c[0];
  for (size_t i = 1; i < N; ++i)
    p = p * x + c[i];
  return p;
}
} // namespace detail

/// Natural logarithm of a positive, finite, normal x.
inline double log(double x) {
  using namespace detail;
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)): e is the exponent of
  // x / sqrt(1/2), taken from the bits without a branch.
  // (32-bit integer steps where possible: they vectorise on every x86-64.)
  uint64_t b = bits(x);
  int32_t e = int32_t(uint32_t((b - kSqrtHalfBits) >> 32)) >> 20;
  double m = fromBits(b - (uint64_t(int64_t(e)) << 52));
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1).
  double s = (m - 1.0) / (m + 1.0);
  double logm = 2.0 * s * horner(kLogCoeff, s * s);
  double de = double(e);
  return de * kLn2Lo + logm + de * kLn2Hi;
}

/// e^x for |x| < 700.
inline double exp(double x) {
  using namespace detail;
  // x = k ln2 + r, |r| <= ln2 / 2; e^r by its Taylor series, then scaled
  // by 2^k exactly.
  double kd = x * 1.44269504088896338700 + (x >= 0 ? 0.5 : -0.5);
  int k = int(kd);
  double r = (x - double(k) * kLn2Hi) - double(k) * kLn2Lo;
  return horner(kExpCoeff, r) * fromBits(uint64_t(k + 1023) << 52);
}

/// The square root of a finite x >= 0 by four Newton steps from the
/// halved-exponent guess (relative error below 6.1%, so below 2^-80 after
/// four steps, before rounding): within an ulp, and the same bits wherever
/// + and / are IEEE's. Hardware square roots are correctly rounded, but
/// torch's vectorised CPU sqrt (torch 2.x) is not, and the device path of
/// the keyed draws (device_streams.py) computes these values with torch.
inline double sqrt(double x) {
  using namespace detail;
  double g = fromBits((bits(x) >> 1) + 0x1FF8000000000000ULL);
  for (int step = 0; step < 4; ++step)
    g = 0.5 * (g + x / g);
  return x == 0.0 ? x : g;
}

/// sin(2πu) and cos(2πu) for u in [0, 1): the quadrant comes from u
/// exactly (4u's nearest integer), the rest is a series on [-π/4, π/4].
inline void sinCos2Pi(double u, double &sinOut, double &cosOut) {
  using namespace detail;
  // Nearest multiple of 1/4: u = q/4 + f, |f| <= 1/8, both exact.
  double q4 = u * 4.0;
  int q = int(q4 + 0.5);
  double f = (q4 - double(q)) * 0.25;
  double a = f * (2.0 * kPi); // |a| <= π/4
  double a2 = a * a;
  double s = a * horner(kSinCoeff, a2), c = horner(kCosCoeff, a2);
  // Quadrant q: (sin, cos) of a + qπ/2 is (s, c), (c, -s), (-s, -c),
  // (-c, s) — selected, not branched on.
  bool odd = q & 1;
  double sinAbs = odd ? c : s, cosAbs = odd ? s : c;
  sinOut = (q & 2) ? -sinAbs : sinAbs;
  cosOut = ((q + 1) & 2) ? -cosAbs : cosAbs;
}

} // namespace detc::runtime::exact

#endif // DETC_RUNTIME_EXACTMATH_H
