#include "math/special_functions.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <math.h>  // lgamma_r (glibc)

#include "base/check.h"
#include "boost/math/distributions/non_central_chi_squared.hpp"
#include "boost/math/policies/policy.hpp"
#include "boost/math/special_functions/beta.hpp"
#include "boost/math/special_functions/digamma.hpp"
#include "boost/math/special_functions/gamma.hpp"

namespace sgmcmc::math {
namespace {

namespace bmp = boost::math::policies;

// Never throw: domain and pole errors give NaN, overflow gives ±inf, and a series that fails
// to converge returns its best value instead of throwing.
using AccuratePolicy =
    bmp::policy<bmp::domain_error<bmp::errno_on_error>, bmp::pole_error<bmp::errno_on_error>,
                bmp::overflow_error<bmp::errno_on_error>,
                bmp::evaluation_error<bmp::errno_on_error>,
                bmp::rounding_error<bmp::errno_on_error>>;
// For the cheap functions called in inner loops: evaluate in double instead of promoting to
// long double (Boost's double rational approximations are accurate to a few ulp; ~4x faster).
using FastPolicy =
    bmp::policy<bmp::domain_error<bmp::errno_on_error>, bmp::pole_error<bmp::errno_on_error>,
                bmp::overflow_error<bmp::errno_on_error>,
                bmp::evaluation_error<bmp::errno_on_error>,
                bmp::rounding_error<bmp::errno_on_error>, bmp::promote_double<false>>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLogSqrt2Pi = 0.91893853320467274178032973640562;

bool IsNonPositiveInteger(double x) { return x <= 0 && x == std::floor(x); }

// lgamma(x) - [(x - 1/2) log x - x + log √(2π)] for x >= 10: the Stirling series
// Σ_k B_2k / (2k (2k - 1) x^{2k-1}) to k = 8; the next term is < 2e-18 at x = 10.
double StirlingRemainder(double x) {
  static constexpr double kCoefficients[] = {
      1.0 / 12,  -1.0 / 360,      1.0 / 1260,    -1.0 / 1680,
      1.0 / 1188, -691.0 / 360360, 1.0 / 156,     -3617.0 / 122400,
  };
  const double inv_x2 = 1 / (x * x);
  double sum = 0;
  for (int k = 7; k >= 0; --k) sum = sum * inv_x2 + kCoefficients[k];
  return sum / x;
}

}  // namespace

double LogGamma(double x) {
  if (std::isnan(x)) return x;
  if (IsNonPositiveInteger(x)) return kInf;
  int sign;  // lgamma_r, unlike lgamma, does not write the global signgam: thread-safe
  return ::lgamma_r(x, &sign);
}

double Digamma(double x) {
  if (std::isnan(x) || IsNonPositiveInteger(x)) return kNaN;
  return boost::math::digamma(x, FastPolicy());
}

double LogBeta(double a, double b) {
  SGMCMC_CHECK(a > 0) << "LogBeta: a must be > 0, got " << a;
  SGMCMC_CHECK(b > 0) << "LogBeta: b must be > 0, got " << b;
  const double p = std::min(a, b);
  const double q = std::max(a, b);
  if (q == kInf) return -kInf;
  // TOMS 708 (BETALN) as used by R's lbeta: separate the Stirling parts analytically so
  // that nothing of size log Γ(q) is ever subtracted.
  const double log1p_term = std::log1p(-p / (p + q));
  if (p >= 10) {
    const double correction =
        StirlingRemainder(p) + StirlingRemainder(q) - StirlingRemainder(p + q);
    return -0.5 * std::log(q) + kLogSqrt2Pi + correction + (p - 0.5) * std::log(p / (p + q)) +
           q * log1p_term;
  }
  if (q >= 10) {
    const double correction = StirlingRemainder(q) - StirlingRemainder(p + q);
    return LogGamma(p) + correction + p - p * std::log(p + q) + (q - 0.5) * log1p_term;
  }
  return LogGamma(p) + LogGamma(q) - LogGamma(p + q);
}

double RegularizedIncompleteBeta(double a, double b, double x) {
  SGMCMC_CHECK(a > 0) << "RegularizedIncompleteBeta: a must be > 0, got " << a;
  SGMCMC_CHECK(b > 0) << "RegularizedIncompleteBeta: b must be > 0, got " << b;
  SGMCMC_CHECK(x >= 0 && x <= 1) << "RegularizedIncompleteBeta: x must be in [0, 1], got " << x;
  return boost::math::ibeta(a, b, x, AccuratePolicy());
}

double RegularizedGammaP(double a, double x) {
  SGMCMC_CHECK(a > 0) << "RegularizedGammaP: a must be > 0, got " << a;
  SGMCMC_CHECK(x >= 0) << "RegularizedGammaP: x must be >= 0, got " << x;
  return boost::math::gamma_p(a, x, AccuratePolicy());
}

double RegularizedGammaQ(double a, double x) {
  SGMCMC_CHECK(a > 0) << "RegularizedGammaQ: a must be > 0, got " << a;
  SGMCMC_CHECK(x >= 0) << "RegularizedGammaQ: x must be >= 0, got " << x;
  return boost::math::gamma_q(a, x, AccuratePolicy());
}

double LogSumExp(absl::Span<const double> values) {
  double max = -kInf;
  bool has_nan = false;
  for (const double v : values) {
    if (v > max) {
      max = v;
    } else if (std::isnan(v)) {
      has_nan = true;
    }
  }
  if (has_nan) return kNaN;
  if (std::isinf(max)) return max;  // empty, all -inf, or some +inf
  double sum = 0;
  for (const double v : values) sum += std::exp(v - max);
  return max + std::log(sum);
}

double NoncentralChiSquaredCdf(double x, double df, double noncentrality) {
  SGMCMC_CHECK(df > 0 && std::isfinite(df))
      << "NoncentralChiSquaredCdf: df must be finite and > 0, got " << df;
  SGMCMC_CHECK(noncentrality >= 0 && std::isfinite(noncentrality))
      << "NoncentralChiSquaredCdf: noncentrality must be finite and >= 0, got " << noncentrality;
  SGMCMC_CHECK(!std::isnan(x)) << "NoncentralChiSquaredCdf: x is NaN";
  if (x <= 0) return 0;
  if (x == kInf) return 1;
  if (noncentrality == 0) return boost::math::gamma_p(df / 2, x / 2, AccuratePolicy());
  const boost::math::non_central_chi_squared_distribution<double, AccuratePolicy> dist(
      df, noncentrality);
  return boost::math::cdf(dist, x);
}

}  // namespace sgmcmc::math
