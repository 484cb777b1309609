// Generalised gamma variates (Stacy 1962, "A generalization of the gamma distribution", Ann.
// Math. Statist. 33(3)): density p x^(d-1) exp(-(x/a)^p) / (a^d Gamma(d/p)) on (0, inf).
//
// If G ~ Gamma(d/p, 1) then a G^(1/p) has this density; the power is taken in log space,
// X = a exp(log G / p) with log G from LogGammaSample, so small d/p (where G underflows but X
// may not, e.g. p < 1) is handled. Special cases: p = 1 is Gamma(d, scale a), d = p is
// Weibull(shape p, scale a), p = 2 and a = sqrt(2) is the chi distribution with d degrees of
// freedom.
//
// GeneralizedGammaPowerSample(shape a, rate b, power c) is the parametrisation of the alpha-stable
// matrix factorisation prior (Simsekli, Liutkus & Cemgil 2015; HAMCMC paper, Simsekli et al.
// 2016, eq. 14-15, W_ik ~ GG(a_w, b_w, -2/alpha)): X^c ~ Gamma(a, rate b) for any real c != 0,
// i.e. density |c| b^a x^(a c - 1) exp(-b x^c) / Gamma(a) on (0, inf). It is drawn as
// X = exp((log G - log b) / c), G ~ Gamma(a, 1); for c > 0 it is Stacy's law with scale
// b^(-1/c), d = a c, p = c, and for c < 0 the reciprocal of Stacy's law with power -c (an
// inverse-gamma-like law with a hard floor at 0 and a polynomial right tail x^(a c - 1)).
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

// X with X^power ~ Gamma(shape, rate); shape, rate finite and > 0, power finite and != 0.
double GeneralizedGammaPowerSample(Engine& engine, double shape, double rate, double power);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_GENERALIZED_GAMMA_H_
