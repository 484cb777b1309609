// Saddle-point pieces of Loader's accurate discrete log-probabilities (C. Loader, 2000,
// "Fast and accurate computation of binomial probabilities", eqs. 2-5), used by the
// Poisson and binomial log-pmfs and by the rejection steps of PTRS/BTRS.
//
//  - StirlingError(n) = log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula
//    (table for n <= 15, Loader's truncated series above).
//  - DevianceTerm(x, mean, x_minus_mean) = x log(x / mean) + mean - x (Loader's bd0), taking
//    x - mean separately so callers can form it without cancellation for huge arguments.
//  - ExactDifference(k, x) = k - x, formed by splitting x into whole and fractional parts so
//    that it stays exact to double precision for k, x up to 2^63.
//
// With these, log Poisson(k; mean) = -StirlingError(k) - DevianceTerm(k, mean, k - mean)
// - log(2 pi k) / 2 has a relative error of a few ulps even for mean = 1e12, where the
// textbook k log(mean) - mean - lgamma(k + 1) loses ~4 digits to cancellation.
//
// Cost: StirlingError a few ns (no division but the last); DevianceTerm <= 10 multiply-adds
// near the mean, a log1p away from it.
//
// Example:
//   double d = ExactDifference(k, mean);
//   double log_pmf = -StirlingError(k) - DevianceTerm(k, mean, d) - 0.5 * std::log(2 * M_PI * k);
#ifndef SGMCMC_RNG_INTERNAL_SADDLE_POINT_H_
#define SGMCMC_RNG_INTERNAL_SADDLE_POINT_H_

#include <cmath>
#include <cstdint>

#include "rng/internal/reciprocal_table.h"

namespace sgmcmc::rng_internal {

// log(n!) - log(sqrt(2 pi n) (n/e)^n) for n >= 0 (0 at n = 0 by convention).
inline double StirlingError(int64_t n) {
  // mpmath at 50 digits for n <= 15, where the series below is not yet accurate.
  static constexpr double kSmall[16] = {
      0.0,
      0.08106146679532725821967026,
      0.04134069595540929409382208,
      0.02767792568499833914878929,
      0.02079067210376509311152277,
      0.01664469118982119216319487,
      0.01387612882307074799874573,
      0.01189670994589177009505572,
      0.01041126526197209649747857,
      0.009255462182712732917728637,
      0.008330563433362871256469319,
      0.007573675487951840794972024,
      0.006942840107209529865664153,
      0.006408994188004207068439631,
      0.005951370112758847735624416,
      0.00555473355196280137103869,
  };
  if (n <= 15) return kSmall[n];
  // Asymptotic series 1/(12n) - 1/(360n^3) + 1/(1260n^5) - 1/(1680n^7) + 1/(1188n^9),
  // truncated where the next term is below 1.2e-16 (Loader, eq. 4).
  constexpr double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
  const double x = static_cast<double>(n);
  const double xx = x * x;
  if (n > 500) return (s0 - s1 / xx) / x;
  if (n > 80) return (s0 - (s1 - s2 / xx) / xx) / x;
  if (n > 35) return (s0 - (s1 - (s2 - s3 / xx) / xx) / xx) / x;
  return (s0 - (s1 - (s2 - (s3 - s4 / xx) / xx) / xx) / xx) / x;
}

// x log(x / mean) + mean - x >= 0, for x >= 0 and mean > 0, given d = x - mean (Loader's
// bd0). Near x = mean it sums the series 2x sum_j v^(2j+1) / (2j+1) - d with
// v = d / (x + mean), which has no cancellation.
inline double DevianceTerm(double x, double mean, double d) {
  if (std::fabs(d) < 0.1 * (x + mean)) {
    double v = d / (x + mean);
    double s = d * v;
    double ej = 2 * x * v;
    v *= v;
    // |v| < 0.1, so the terms fall by 100x per step: ~8 steps to converge.
    for (int j = 1; 2 * j + 1 < kReciprocalTableSize; ++j) {
      ej *= v;
      const double next = s + ej * kReciprocals[2 * j + 1];
      if (next == s) break;
      s = next;
    }
    return s;
  }
  if (x == 0) return mean;
  return x * std::log1p(d / mean) - d;
}

// k - x for k >= 0 and 0 <= x < 2^63, exact up to one rounding (the int64 difference of
// the whole parts is exact; the fractional part of x is exact).
inline double ExactDifference(int64_t k, double x) {
  const double whole = std::floor(x);
  return static_cast<double>(k - static_cast<int64_t>(whole)) - (x - whole);
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_SADDLE_POINT_H_
