//===- ExactMath.h - Platform-independent log, exp, sin/cos ------*- C++ -*-===//
//
// libm's log/exp/sin differ in the last bit between C libraries and
// versions; detc's random values must not. These functions use only IEEE-754
// +, -, *, / and exact bit manipulation, in a fixed order (the runtime is
// compiled with -ffp-contract=off), so they give the same bits everywhere.
// They are accurate to a few ulp on the ranges the distributions use; they
// are not general-purpose replacements (no NaN/infinity handling beyond what
// the callers need).
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
} // namespace detail

/// Natural logarithm of a positive, finite, normal x.
inline double log(double x) {
  using namespace detail;
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)).
  uint64_t b = bits(x);
  int e = int((b >> 52) & 0x7ff) - 1023;
  double m = fromBits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e += 1;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.1716:
  // 2 (s + s^3/3 + s^5/5 + ...), 13 terms reach 2^-60.
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 1; k -= 2)
    p = p * s2 + 1.0 / double(k);
  double logm = 2.0 * s * p;
  return double(e) * kLn2Lo + logm + double(e) * kLn2Hi;
}

/// e^x for |x| < 700.
inline double exp(double x) {
  using namespace detail;
  // x = k ln2 + r, |r| <= ln2 / 2; e^r by its Taylor series (18 terms are
  // below 2^-60 on that range), then scaled by 2^k exactly.
  double kd = x * 1.44269504088896338700 + (x >= 0 ? 0.5 : -0.5);
  int k = int(kd);
  double r = (x - double(k) * kLn2Hi) - double(k) * kLn2Lo;
  double term = 1.0, sum = 1.0;
  for (int n = 1; n <= 18; ++n) {
    term = term * r / double(n);
    sum = sum + term;
  }
  return sum * fromBits(uint64_t(k + 1023) << 52);
}

/// sin(2πu) and cos(2πu) for u in [0, 1): the quadrant comes from u
/// exactly (4u's integer part), the rest is a Taylor series on
/// [-π/4, π/4].
inline void sinCos2Pi(double u, double &sinOut, double &cosOut) {
  using namespace detail;
  // Nearest multiple of 1/4: u = q/4 + f, |f| <= 1/8, both exact.
  double q4 = u * 4.0;
  int q = int(q4 + 0.5);
  double f = (q4 - double(q)) * 0.25;
  double a = f * (2.0 * kPi); // |a| <= π/4
  double a2 = a * a;
  // sin a = a (1 - a^2/3! + a^4/5! - ...), cos a = 1 - a^2/2! + ...
  double sp = 0.0, cp = 0.0;
  for (int n = 12; n >= 1; --n) {
    sp = 1.0 - a2 * sp / double((2 * n) * (2 * n + 1));
    cp = 1.0 - a2 * cp / double((2 * n - 1) * (2 * n));
  }
  double s = a * sp, c = cp;
  switch (q & 3) {
  case 0:
    sinOut = s, cosOut = c;
    break;
  case 1:
    sinOut = c, cosOut = -s;
    break;
  case 2:
    sinOut = -s, cosOut = -c;
    break;
  default:
    sinOut = -c, cosOut = s;
  }
}

} // namespace detc::runtime::exact

#endif // DETC_RUNTIME_EXACTMATH_H
