// Chi-squared variates: X = 2 G with G ~ Gamma(df / 2, 1), for any real df > 0 (so small df,
// whose draws underflow, behave as GammaSample does for small shapes).
//
// Cost: O(1), one gamma draw. Measured: rng/chi_squared_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double q = sgmcmc::rng::ChiSquaredSample(engine, 3.0);
#ifndef SGMCMC_RNG_CHI_SQUARED_H_
#define SGMCMC_RNG_CHI_SQUARED_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Chi-squared with df degrees of freedom, density x^(df/2-1) e^(-x/2) / (2^(df/2) Gamma(df/2));
// df finite and > 0.
double ChiSquaredSample(Engine& engine, double df);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_CHI_SQUARED_H_
