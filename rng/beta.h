// Beta variates and the beta log density.
//
// X = G_a / (G_a + G_b) with independent G_a ~ Gamma(a, 1), G_b ~ Gamma(b, 1) (e.g. Devroye
// 1986, "Non-Uniform Random Variate Generation", IX.4). When a or b is below 1 the gammas are
// drawn in log space (LogGammaSample) and X = 1 / (1 + exp(log G_b - log G_a)), so tiny
// shapes, whose gammas underflow, still give the right split between the ends of (0, 1).
//
// Draws lie in [0, 1]: for tiny a or b the exact value may be closer to 0 or 1 than a double
// can resolve, and is then rounded to 0 or 1. Doubles resolve 1e-308 near 0 but only 1.1e-16
// near 1, so for small b about eps^b / (b B(a, b)) of the mass lands on exactly 1 (8% at
// a = b = 0.05); where the distance to 1 matters, draw 1 - X = BetaSample(engine, b, a).
//
// Cost: O(1): two gamma draws (in log space when a or b < 1). Measured: rng/beta_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double x = sgmcmc::rng::BetaSample(engine, 2.0, 5.0);
//   double lp = sgmcmc::rng::BetaLogPdf(x, 2.0, 5.0);
#ifndef SGMCMC_RNG_BETA_H_
#define SGMCMC_RNG_BETA_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Beta(a, b), density x^(a-1) (1-x)^(b-1) / B(a, b) on (0, 1); a, b finite and > 0.
double BetaSample(Engine& engine, double a, double b);

// log of the Beta(a, b) density at x: -inf outside [0, 1]; at x = 0 (x = 1) +inf, -log B(a, b)
// or -inf for a (b) <, =, > 1. a, b finite and > 0.
double BetaLogPdf(double x, double a, double b);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_BETA_H_
