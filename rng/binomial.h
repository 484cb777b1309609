// Binomial variates and the binomial log-pmf.
//
// BinomialSample(engine, n, p) draws K ~ Binomial(n, p) exactly (to double precision),
// using the symmetry K(n, p) = n - K(n, 1 - p) to work with p' = min(p, 1 - p):
//  - n p' < 10: inversion by sequential search from k = 0 (Kachitvichyanukul & Schmeiser
//    1988, "Binomial random variate generation", algorithm BINV): one uniform, (1 - p')^n,
//    then about n p' + 1 multiply-subtract steps with a table of reciprocals.
//  - n p' >= 10: Hoermann's BTRS, transformed rejection with squeeze (W. Hoermann 1993,
//    "The generation of binomial random variates", J. Statist. Comput. Simul. 46, algorithm
//    BTRS). Two uniforms per trial, acceptance about 0.9 or more; the exact acceptance step
//    uses Loader's saddle-point log-pmf, accurate for any n up to 2^62.
// BinomialLogPmf(k, n, p) = log(C(n, k) p^k (1 - p)^(n - k)) by Loader (2000), accurate to a
// few ulps also for n = 1e12.
//
// Cost: O(n p' + 1) for inversion (a log1p and an exp dominate), O(1) expected for BTRS
// (slowest just above the switch, n p' ~ 10-50, where ~40% of trials need the exact log-pmf
// test). Measured: rng/binomial_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(7);
//   int64_t successes = sgmcmc::rng::BinomialSample(engine, 1000, 0.3);
//   double lp = sgmcmc::rng::BinomialLogPmf(successes, 1000, 0.3);
#ifndef SGMCMC_RNG_BINOMIAL_H_
#define SGMCMC_RNG_BINOMIAL_H_

#include <cstdint>

#include "rng/engine.h"

namespace sgmcmc::rng {

// Largest number of trials BinomialSample and BinomialLogPmf accept (2^62).
inline constexpr int64_t kMaxBinomialTrials = int64_t{1} << 62;

// K ~ Binomial(n, p). Requires 0 <= n <= kMaxBinomialTrials and 0 <= p <= 1 (NaN is
// rejected). n = 0, p = 0 and p = 1 return 0, 0 and n without consuming randomness.
int64_t BinomialSample(Engine& engine, int64_t n, double p);

// log P(K = k) for K ~ Binomial(n, p); -inf for k outside [0, n]. Same requirements on n, p.
double BinomialLogPmf(int64_t k, int64_t n, double p);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_BINOMIAL_H_
