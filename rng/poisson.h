// Poisson variates and the Poisson log-pmf.
//
// PoissonSample(engine, mean) draws K ~ Poisson(mean) exactly (to double precision):
//  - mean < 10: inversion by sequential search from k = 0 (Devroye 1986, "Non-Uniform
//    Random Variate Generation", sec. X.3.3): one uniform, exp(-mean), then about mean + 1
//    multiply-subtract steps using a table of reciprocals 1/k (no divisions).
//  - mean >= 10: Hoermann's PTRS, transformed rejection with squeeze (W. Hoermann 1993,
//    "The transformed rejection method for generating Poisson random variables", Insurance:
//    Mathematics and Economics 12, algorithm PTRS). Two uniforms per trial, acceptance about
//    0.9 or more; the exact acceptance step uses Loader's saddle-point log-pmf, so it stays
//    accurate for means up to kMaxPoissonMean.
// PoissonLogPmf(k, mean) = log(mean^k e^-mean / k!), via Loader (2000) for k >= 1, accurate
// to a few ulps for all means (no cancellation for mean = 1e12).
//
// Cost (//rng:poisson_benchmark, CPU time on the shared 2-core dev VM, where one engine word
// is ~3 ns and std::exp ~10 ns): ~20 ns per draw for mean <= 1, 35-45 ns for mean 5-10,
// 40-70 ns for PTRS (mean 30: 70 ns; 1e3-1e6: 40-50 ns).
//
// Example:
//   sgmcmc::rng::Engine engine(7);
//   int64_t k = sgmcmc::rng::PoissonSample(engine, 3.5);
//   double lp = sgmcmc::rng::PoissonLogPmf(k, 3.5);
#ifndef SGMCMC_RNG_POISSON_H_
#define SGMCMC_RNG_POISSON_H_

#include <cstdint>

#include "rng/engine.h"

namespace sgmcmc::rng {

// Largest mean PoissonSample accepts (2^62): draws then stay far inside int64 range.
inline constexpr double kMaxPoissonMean = 0x1p62;

// K ~ Poisson(mean). Requires 0 <= mean <= kMaxPoissonMean (NaN and inf are rejected);
// mean 0 returns 0 without consuming randomness.
int64_t PoissonSample(Engine& engine, double mean);

// log P(K = k) for K ~ Poisson(mean); -inf for k < 0. Requires 0 <= mean < 2^63
// (mean 0: 0 at k = 0, -inf elsewhere).
double PoissonLogPmf(int64_t k, double mean);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_POISSON_H_
