// Special functions used by the variate generators, their tests and the models: log Γ,
// digamma, log B, the regularised incomplete beta and gamma functions, log-sum-exp over a
// span and the noncentral chi-squared CDF.
//
// Most are thin wrappers around Boost.Math (Debian's libboost-math-dev 1.74) called with a
// policy that never throws: a domain error returns NaN, an overflow returns ±inf. LogGamma
// calls glibc's lgamma_r instead (thread-safe, as accurate on the reference values, and
// faster). Arguments outside the documented domain are programmer errors and
// fail an SGMCMC_CHECK naming the function and argument. LogBeta uses the Stirling-difference
// formulation of TOMS 708 (Didonato & Morris 1992, BETALN as in R's lbeta) so that log B(a, b)
// keeps full relative accuracy when one argument is huge, where
// lgamma(a) + lgamma(b) - lgamma(a + b) cancels.
// Reference values (mpmath, 50 digits) are in math/testdata/special_functions_reference.inc.
//
// Cost: O(1) for LogGamma, Digamma and LogBeta; LogSumExp O(n) (one exp per element); the
// incomplete functions and the noncentral chi-squared CDF are iterative, much dearer (not for
// inner loops). Measured: math/special_functions_benchmark.cc.
//
// Example:
//   double lg = sgmcmc::math::LogGamma(0.5);              // log √π
//   double p = sgmcmc::math::RegularizedGammaP(2.0, 1.0);  // P(2, 1)
//   double lse = sgmcmc::math::LogSumExp(log_weights);     // log Σ exp(w_i)
#ifndef SGMCMC_MATH_SPECIAL_FUNCTIONS_H_
#define SGMCMC_MATH_SPECIAL_FUNCTIONS_H_

#include "absl/types/span.h"

namespace sgmcmc::math {

// log |Γ(x)|. Finite for every x except the poles x = 0, -1, -2, ..., where it is +inf;
// NaN for NaN. For x > 0 this is log Γ(x).
double LogGamma(double x);

// ψ(x) = d/dx log Γ(x). NaN at the poles x = 0, -1, -2, ... and for NaN.
double Digamma(double x);

// log B(a, b) = log Γ(a) + log Γ(b) - log Γ(a + b); a > 0 and b > 0 (checked). Relative
// accuracy ~1e-15 for all a, b, including a = 1e15, b = 1 (where the naive sum cancels).
double LogBeta(double a, double b);

// I_x(a, b), the regularised incomplete beta function (the Beta(a, b) CDF at x);
// a > 0, b > 0, 0 <= x <= 1 (checked).
double RegularizedIncompleteBeta(double a, double b, double x);

// P(a, x) = γ(a, x) / Γ(a) (the Gamma(a, 1) CDF at x); a > 0, x >= 0 (checked).
double RegularizedGammaP(double a, double x);

// Q(a, x) = 1 - P(a, x), computed directly (accurate in the upper tail); a > 0, x >= 0.
double RegularizedGammaQ(double a, double x);

// log Σ_i exp(values[i]) without overflow: max + log Σ exp(values[i] - max).
// Empty span or all -inf: -inf. Any +inf: +inf. Any NaN: NaN.
double LogSumExp(absl::Span<const double> values);

// CDF at x of the noncentral chi-squared distribution with `df` > 0 degrees of freedom and
// noncentrality `noncentrality` >= 0 (checked); 0 for x <= 0. noncentrality = 0 gives the
// central chi-squared CDF P(df / 2, x / 2).
double NoncentralChiSquaredCdf(double x, double df, double noncentrality);

}  // namespace sgmcmc::math

#endif  // SGMCMC_MATH_SPECIAL_FUNCTIONS_H_
