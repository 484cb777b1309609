// Poisson variates and the Poisson log-pmf.
//
// PoissonSample(engine, mean) draws K ~ Poisson(mean) exactly (to double precision):
//  - mean < 10: inversion of one uniform u (Devroye 1986, "Non-Uniform Random Variate
//    Generation", sec. X.3.3), K = the smallest k with u <= F(k), on the unnormalised cdf
//    S_k = sum_{j <= k} mean^j / j! = e^mean F(k) against u e^mean (e^mean from an inline
//    table-driven exp, rng/internal/bounded_exp.h):
//     - mean < 3: sequential search from k = 0, four terms per step, about mean + 1
//       multiply-adds using a table of reciprocals 1/k (no divisions);
//     - 3 <= mean < 10: branch-free: S_0 .. S_{n-1} by two-wide vector arithmetic and
//       K = #{k : S_k < u e^mean}, with no data-dependent branch (the sequential search's
//       exit mispredicts at these means), n = 12 terms for mean < 5.5 and 16 above; K >= n
//       (probability < 0.011, resp. < 0.049) continues the sequential search from k = n.
//    Both are the same monotone map u -> K, so the stream of draws for a given seed does not
//    depend on which path a mean takes (and is unchanged from the sequential-only version).
//  - mean >= 10: Hoermann's PTRS, transformed rejection with squeeze (W. Hoermann 1993,
//    "The transformed rejection method for generating Poisson random variables", Insurance:
//    Mathematics and Economics 12, algorithm PTRS). Two uniforms per trial, acceptance about
//    0.9 or more; the exact acceptance step uses Loader's saddle-point log-pmf, so it stays
//    accurate for means up to kMaxPoissonMean.
// PoissonSampleUnbounded(engine, mean) draws the same K for every finite mean >= 0, as a double:
// PoissonSample's draw up to kMaxPoissonMean (the same engine words, so the same bits), and
// above it Ahrens & Dieter's gamma reduction (J. H. Ahrens and U. Dieter 1974, "Computer
// methods for sampling from gamma, beta, Poisson and binomial distributions", Computing 12;
// Knuth, TAOCP vol. 2, 3.4.1 F(b)): K counts the arrivals of a unit-rate Poisson process in
// [0, mean]; with n = floor(7 mean / 8), the n-th arrival time is G ~ Gamma(n), and given
// G < mean, K = n + (the arrivals in (G, mean]) = n + Poisson(mean - G), which repeats until
// the mean is at most kMaxPoissonMean (the mean falls to about mean / 8 per round: one round up to
// about 2^65, some 235 at 1e230). The other case, G >= mean, has probability below e^{-0.009 n} <
// 10^{-10^16} and cannot occur with rng::GammaSample (it needs a normal deviate above 10^8),
// so it is a CHECK. The result is exact in distribution up to its rounding to double (integers
// above 2^53 are not all representable).
// PoissonLogPmf(k, mean) = log(mean^k e^-mean / k!), via Loader (2000) for k >= 1, accurate
// to a few ulps for all means (no cancellation for mean = 1e12).
//
// Cost: O(mean + 1) for the sequential search (mean < 3), O(1) for the branch-free inversion
// (3 <= mean < 10) and for PTRS (expected, acceptance about 0.9 or more);
// PoissonSampleUnbounded adds one gamma draw per round above 2^62 (O(log(mean / 2^62))). Measured:
// rng/poisson_benchmark.cc.
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

// K ~ Poisson(mean) as a double, for any finite mean >= 0 (NaN and inf are rejected); bit for bit
// double(PoissonSample(engine, mean)) up to kMaxPoissonMean. For callers whose means are not
// bounded (SCIR's Poisson mean θ e^{-h} / (1 - e^{-h}) for a large θ or a tiny step h).
double PoissonSampleUnbounded(Engine& engine, double mean);

// log P(K = k) for K ~ Poisson(mean); -inf for k < 0. Requires 0 <= mean < 2^63
// (mean 0: 0 at k = 0, -inf elsewhere).
double PoissonLogPmf(int64_t k, double mean);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_POISSON_H_
