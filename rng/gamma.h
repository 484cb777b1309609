// Gamma variates for every shape > 0, in linear and in log space, and the gamma log density.
//
//  - shape >= 1: Marsaglia & Tsang 2000, "A simple method for generating gamma variables",
//    ACM TOMS 26(3): a squeezed rejection from a transformed normal, acceptance >= 95%.
//  - 0.25 <= shape < 1: the boost G(a) = G(a + 1) U^(1/a) given in the same paper, with U
//    uniform on (0, 1) independent of G(a + 1).
//  - shape < 0.25: Liu, Martin & Syring 2017, "Simulating from a gamma distribution with
//    small shape parameter", Comput. Stat. 33(3), sec. 2: exact rejection sampling of
//    z = -a log G from a two-piece exponential envelope (one uniform and one Exp(1) per trial,
//    acceptance 0.99 at a = 0.01, 0.91 at 0.1, 0.81 at 0.25), in log space; GammaSample
//    returns exp of that draw. The switch at 0.25 is where it stops beating the boost
//    (measured in rng/gamma_benchmark.cc).
//  - LogGammaSample returns log G directly (for 0.25 <= shape < 1: log G(a + 1) + log(U) / a),
//    which stays finite for tiny shapes where G itself underflows (shape 1e-2 already gives
//    G < 1e-308 with probability 1e-3; SCIR's Gamma(a) draws with a ~ 1e-300 need this; see
//    Baker et al. 2018, section 3 and docs/ALGORITHMS.md "SCIR").
//
// GammaSample(engine, shape) may return 0 (underflow) when shape is small; use
// LogGammaSample there. Both consume the same engine words for the same shape, so
// log(GammaSample) and LogGammaSample agree draw for draw wherever G is representable.
//
// Cost: O(1) expected per draw for every shape (acceptance >= 0.81); 0.25 <= shape < 1 adds a
// second uniform, a log and an exp, and LogGammaSample a log there. Measured:
// rng/gamma_benchmark.cc.
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
