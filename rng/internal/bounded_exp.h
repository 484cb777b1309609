// e^x for 0 <= x < kBoundedExpMax (= 10), inline and about twice as cheap as std::exp: the
// Poisson inversion (mean < 10) needs one per draw, where std::exp's call was a third of the
// cost. Table-driven (e.g. Tang 1989, "Table-driven implementation of the exponential
// function in IEEE floating-point arithmetic", ACM TOMS 15(2)): with n = round(16 x) and
// r = x - n / 16 in [-1/32, 1/32] (exact), e^x = e^(n/16) e^r, the first factor from a table
// and e^r from its degree-7 Taylor polynomial (truncation error < 2.3e-17 relative) evaluated
// by Estrin's scheme. The table is computed at compile time as powers of e^(1/16) in long
// double (relative error < 1e-17 before the final rounding to double). Result within 2 ulps of
// glibc's std::exp, itself within 0.502 ulps of e^x (bounded_exp_test, on a dense grid; 75%
// of results are identical, 2 ulps only where e^r < 1 takes the result below the power of 2
// under its table entry, doubling the entry's relative rounding in ulps).
//
// Cost: O(1): a table load and ~16 additions and multiplications, no call (measured against
// std::exp: bench/README.md, "Measured costs moved from headers").
//
// Example:
//   double p0 = 1 / BoundedExp(mean);  // e^-mean, mean in [0, 10)
#ifndef SGMCMC_RNG_INTERNAL_BOUNDED_EXP_H_
#define SGMCMC_RNG_INTERNAL_BOUNDED_EXP_H_

#include <array>
#include <cstdint>

#include "absl/base/casts.h"

namespace sgmcmc::rng_internal {

inline constexpr double kBoundedExpMax = 10;

// kExpSixteenths[i] = e^(i/16), i = 0 .. 160.
inline constexpr std::array<double, 161> kExpSixteenths = [] {
  // e^(1/16) to 40 digits (mpmath).
  constexpr long double kStep = 1.064494458917859429563390594642889673101L;
  std::array<double, 161> table{};
  long double power = 1;
  for (int i = 0; i < 161; ++i) {
    table[i] = static_cast<double>(power);
    power *= kStep;
  }
  return table;
}();

// e^x; requires 0 <= x < kBoundedExpMax (not checked: callers validate x first).
inline double BoundedExp(double x) {
  // n = round(16 x) by the 1.5 * 2^52 shift (16 x is exact and < 160, so the sum is exactly
  // 1.5 * 2^52 + n and its low mantissa bits are n), and r = x - n / 16 exactly (Sterbenz),
  // |r| <= 1/32. The shift keeps the conversions off the dependency chain.
  constexpr double kShift = 0x1.8p52;
  const double shifted = x * 16 + kShift;
  const double n = shifted - kShift;
  const double r = x - n * 0.0625;
  const int index = static_cast<int>(absl::bit_cast<uint64_t>(shifted) & 0xFF);
  // e^r - 1 by its degree-7 Taylor polynomial (truncation < 2.3e-17 relative), Estrin's
  // scheme; all terms are small, so the rounding of the final scale + scale (e^r - 1) is the
  // only large one.
  constexpr double c2 = 1.0 / 2, c3 = 1.0 / 6, c4 = 1.0 / 24, c5 = 1.0 / 120, c6 = 1.0 / 720,
                   c7 = 1.0 / 5040;
  const double r2 = r * r;
  const double low = r + r2 * (c2 + c3 * r);
  const double high = (c4 + c5 * r) + r2 * (c6 + c7 * r);
  const double expm1_r = low + (r2 * r2) * high;
  const double scale = kExpSixteenths[index];
  return scale + scale * expm1_r;
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_BOUNDED_EXP_H_
