// Noncentral chi-squared variates, exactly, by one of two representations of the law
// (e.g. Johnson, Kotz & Balakrishnan 1995, "Continuous Univariate Distributions" vol. 2,
// ch. 29, eqs. 29.1 and 29.5):
//  - df >= 1: X = (Z + sqrt(noncentrality))^2 + ChiSquared(df - 1), Z ~ N(0, 1) independent of
//    the central part, which is 2 Gamma((df - 1) / 2, 1) (absent at df = 1). This is the
//    definition sum_i (Z_i + mu_i)^2 with all of the noncentrality put on one coordinate,
//    extended to real df - 1 >= 0 by the additivity of chi-squared in df: one normal and one
//    gamma draw, no Poisson.
//  - df < 1: the Poisson mixture P ~ Poisson(noncentrality / 2), X = 2 Gamma(df / 2 + P, 1).
// This is the exact CIR transition used by SCIR (Baker et al. 2018, eq. 3.3, with
// df = 2 a and noncentrality = 2 theta e^-h / (1 - e^-h); see docs/ALGORITHMS.md "SCIR"), where df
// can be tiny (1e-3 and below). Any real df > 0 is supported.
//
// For small df the draw can underflow to 0 (when P = 0, as GammaSample does for small
// shapes; df = 0.01 gives X = 0 with probability ~2.4% at noncentrality 0).
// LogNoncentralChiSquaredSample returns log X instead, finite for every df > 0 (via
// LogGammaSample, and for df >= 1 the log-sum of the two terms' logs; the one exception is
// Z + sqrt(noncentrality) == 0 exactly at df = 1, where log X = -inf is the right answer). It
// consumes the same engine words as NoncentralChiSquaredSample, so the two agree draw for
// draw wherever X is representable.
//
// Cost: O(1): df >= 1: a normal and a gamma draw (no gamma at df = 1); df < 1: one Poisson
// and one gamma draw. Measured: rng/noncentral_chi_squared_benchmark.cc.
//
// Example:
//   double w = sgmcmc::rng::NoncentralChiSquaredSample(engine, 2 * a, 2 * theta * c);
//   double log_w = sgmcmc::rng::LogNoncentralChiSquaredSample(engine, 2 * a, 2 * theta * c);
#ifndef SGMCMC_RNG_NONCENTRAL_CHI_SQUARED_H_
#define SGMCMC_RNG_NONCENTRAL_CHI_SQUARED_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Noncentral chi-squared with df degrees of freedom and noncentrality lambda: the law of
// sum_i (Z_i + mu_i)^2 with sum_i mu_i^2 = lambda, for real df. Requires df finite and > 0,
// 0 <= noncentrality <= 2^63 (NaN rejected). May return 0 for small df (see above).
double NoncentralChiSquaredSample(Engine& engine, double df, double noncentrality);

// log of a noncentral chi-squared draw; same requirements. Finite for every df > 0 (save the
// exact-zero case at df = 1 noted above).
double LogNoncentralChiSquaredSample(Engine& engine, double df, double noncentrality);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_NONCENTRAL_CHI_SQUARED_H_
