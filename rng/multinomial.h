// Multinomial variates: counts of n independent categorical draws, by conditional binomials
// (Devroye 1986, "Non-Uniform Random Variate Generation", sec. XI.1.5):
//   X_i ~ Binomial(n - X_0 - ... - X_{i-1}, p_i / (p_i + ... + p_{K-1})).
// The tail sums are formed once by a backward pass (no cancellation, unlike subtracting
// from the total), so the conditional probabilities are accurate even when a few large
// probabilities are followed by tiny ones; the last positive entry gets probability exactly 1.
//
// Cost: O(K) plus one BinomialSample per category until the count is exhausted (each O(1)
// expected, independent of n); no allocation for K <= 63. Measured:
// rng/multinomial_benchmark.cc.
//
// Example:
//   std::vector<int64_t> counts(probs.size());
//   sgmcmc::rng::MultinomialSample(engine, 1000, probs, absl::MakeSpan(counts));
#ifndef SGMCMC_RNG_MULTINOMIAL_H_
#define SGMCMC_RNG_MULTINOMIAL_H_

#include <cstdint>

#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

// Fills counts[i] with the number of n draws that fell in category i, where category i has
// probability probs[i] / sum(probs) (probs need not be normalised). Requires
// 0 <= n <= kMaxBinomialTrials, non-empty probs with finite entries >= 0 and a positive
// finite sum, and counts.size() == probs.size() (all checked). sum(counts) == n exactly and
// categories with probability 0 get 0.
void MultinomialSample(Engine& engine, int64_t n, absl::Span<const double> probs,
                       absl::Span<int64_t> counts);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_MULTINOMIAL_H_
