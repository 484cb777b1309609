// Alpha-stable variates by the Chambers-Mallows-Stuck method (Chambers, Mallows & Stuck 1976,
// "A method for simulating stable random variables", JASA 71(354); in the form of Weron 1996,
// "On the Chambers-Mallows-Stuck method for simulating skewed stable random variables", Stat.
// Probab. Lett. 28, eqs. (3.1)-(3.2), which corrects the alpha = 1 case).
//
// StableSample(alpha, beta) is standard S_alpha(1, beta, 0) in the parametrisation of
// Samorodnitsky & Taqqu 1994, with characteristic function
//   E exp(itX) = exp(-|t|^alpha (1 - i beta sign(t) tan(pi alpha / 2)))   (alpha != 1),
//   E exp(itX) = exp(-|t| (1 + i beta (2/pi) sign(t) log|t|))              (alpha = 1).
// Scale by sigma and shift by mu for S_alpha(sigma, beta, mu) (for alpha = 1 the scaled
// variable also needs the shift (2/pi) beta sigma log sigma).
// Special cases: alpha = 2 is N(0, 2) (beta has no effect); alpha = 1, beta = 0 is the standard
// Cauchy; alpha = 1/2, beta = 1 is the Levy distribution with scale 1 (density
// (2 pi)^(-1/2) x^(-3/2) exp(-1 / (2x))).
//
// With V uniform on (-pi/2, pi/2) and W ~ Exp(1) independent, for alpha != 1
//   X = S sin(alpha (V + B)) / cos(V)^(1/alpha) (cos(V - alpha (V + B)) / W)^((1-alpha)/alpha)
// with B = arctan(beta tan(pi alpha / 2)) / alpha, S = (1 + beta^2 tan^2(pi alpha / 2))^(1/(2
// alpha)), and for alpha = 1
//   X = (2/pi) ((pi/2 + beta V) tan V - beta log((pi/2) W cos V / (pi/2 + beta V))).
// For beta != 0 this parametrisation is discontinuous at alpha = 1 (the mode runs off like
// beta tan(pi alpha / 2) as alpha -> 1); that is the distribution, not a numerical artefact.
// Heavy tails: for alpha < 2 the variance is infinite and for alpha <= 1 so is the mean; for
// small alpha a draw can overflow to +-inf.
//
// Cost: O(1): two engine words and a few transcendental functions. Measured:
// rng/stable_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double x = sgmcmc::rng::StableSample(engine, /*alpha=*/1.5, /*beta=*/0.0);
#ifndef SGMCMC_RNG_STABLE_H_
#define SGMCMC_RNG_STABLE_H_

#include "rng/engine.h"

namespace sgmcmc::rng {

// Standard alpha-stable S_alpha(1, beta, 0); alpha in (0, 2], beta in [-1, 1].
double StableSample(Engine& engine, double alpha, double beta);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_STABLE_H_
