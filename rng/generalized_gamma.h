// Generalised gamma variates (Stacy 1962, "A generalization of the gamma distribution", Ann.
// Math. Statist. 33(3)): density p x^(d-1) exp(-(x/a)^p) / (a^d Gamma(d/p)) on (0, inf).
//
// If G ~ Gamma(d/p, 1) then a G^(1/p) has this density; the power is taken in log space,
// X = a exp(log G / p) with log G from LogGammaSample, so small d/p (where G underflows but X
// may not, e.g. p < 1) is handled. Special cases: p = 1 is Gamma(d, scale a), d = p is
// Weibull(shape p, scale a), p = 2 and a = sqrt(2) is the chi distribution with d degrees of
// freedom.
//
// Cost: O(1), a LogGammaSample plus an exp. Measured: rng/generalized_gamma_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double x = sgmcmc::rng::GeneralizedGammaSample(engine, /*a=*/2.0, /*d=*/3.0, /*p=*/1.5);
#ifndef SGMCMC_RNG_GENERALIZED_GAMMA_H_
#define SGMCMC_RNG_GENERALIZED_GAMMA_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Stacy's generalised gamma with scale a and shapes d, p (density proportional to
// x^(d-1) exp(-(x/a)^p)); a, d, p finite and > 0. May underflow to 0 or overflow to +inf
// where the draw is outside the range of a double.
double GeneralizedGammaSample(Engine& engine, double a, double d, double p);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_GENERALIZED_GAMMA_H_
