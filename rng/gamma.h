// Gamma variates for every shape > 0, in linear and in log space, and the gamma log density.
//
//  - shape >= 1: Marsaglia & Tsang 2000, "A simple method for generating gamma variables",
//    ACM TOMS 26(3): a squeezed rejection from a transformed normal, acceptance >= 95%.
//  - shape < 1: the boost G(a) = G(a + 1) U^(1/a) given in the same paper, with U uniform on
//    (0, 1) independent of G(a + 1).
//  - LogGammaSample returns log G directly: for shape < 1 it is log G(a + 1) + log(U) / a,
//    which stays finite for tiny shapes where G itself underflows (shape 1e-2 already gives
//    G < 1e-308 with probability 1e-3; SCIR's Gamma(a) draws with a ~ 1e-300 need this; see
//    Baker et al. 2018, section 3 and docs/ALGORITHMS.md).
//
// GammaSample(engine, shape) may return 0 (underflow) when shape is small; use
// LogGammaSample there. Both consume the same engine words for the same shape, so
// log(GammaSample) and LogGammaSample agree draw for draw wherever G is representable.
//
// Cost (one core, see //rng:gamma_benchmark): ~20-25 ns per draw for shape >= 1; ~50 ns for
// shape < 1 (a second uniform, a log and an exp); LogGammaSample adds a log (~30 ns, ~50 ns).
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double g = sgmcmc::rng::GammaSample(engine, 2.5);            // Gamma(2.5, 1)
//   double y = sgmcmc::rng::GammaSample(engine, 2.5) / rate;     // Gamma(2.5, rate)
//   double log_g = sgmcmc::rng::LogGammaSample(engine, 1e-30);   // log of a Gamma(1e-30, 1)
#ifndef SGMCMC_RNG_GAMMA_H_
#define SGMCMC_RNG_GAMMA_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Gamma(shape, 1), density x^(shape-1) e^-x / Gamma(shape); shape finite and > 0. Returns 0
// when the draw underflows (only for small shapes: P(G < 1e-308) = 1e-308^a / Gamma(a + 1)).
double GammaSample(Engine& engine, double shape);

// log of a Gamma(shape, 1) draw; shape finite and > 0. Finite for every such shape: for
// shapes below ~2e-307 the exact value can be below -DBL_MAX and is then clamped to -DBL_MAX.
double LogGammaSample(Engine& engine, double shape);

// log of the Gamma(shape, rate) density rate^shape x^(shape-1) e^(-rate x) / Gamma(shape) at
// x (-inf for x < 0; at x = 0: +inf, log(rate) or -inf for shape <, =, > 1); shape and rate
// finite and > 0.
double GammaLogPdf(double x, double shape, double rate);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_GAMMA_H_
