// Inversion of a discrete distribution on {0, 1, ..., k_max} by sequential search from 0
// (Devroye 1986, "Non-Uniform Random Variate Generation", sec. III.2.1), for pmfs given by
// p_0 and the ratios p_k / p_{k-1} (Poisson: mean / k; binomial: (n + 1 - k) p / (k q)).
//
// Four terms are taken per iteration: their partial sums are compared with u without
// branches (the count of sums below u is the offset of the answer), so there is one
// data-dependent branch per four terms, and the loop-carried dependency is one
// multiplication and one subtraction per four terms (p_{k+4} = p_k (r_{k+1} ... r_{k+4})).
//
// Cost: about (mean + 1) / 4 iterations of a few cycles, plus one branch misprediction.
//
// Example:
//   int64_t k;
//   do {
//     k = SequentialSearch(UniformDouble(engine), std::exp(-mean), kUnbounded,
//                          [mean](int64_t j) { return mean / j; });
//   } while (k < 0);
#ifndef SGMCMC_RNG_INTERNAL_SEQUENTIAL_SEARCH_H_
#define SGMCMC_RNG_INTERNAL_SEQUENTIAL_SEARCH_H_

#include <cstdint>
#include <limits>

namespace sgmcmc::rng_internal {

inline constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max() - 8;

// The smallest k <= k_max with u <= p_0 + ... + p_k, where p_k = p_{k-1} ratio(k); ratio(k)
// is only called for 1 <= k <= k_max. Returns -1 when u exceeds the mass accumulated before
// the terms underflow to 0 or k_max is passed, which rounding allows with probability
// ~1e-16: the caller then draws a new u (an exact rejection step).
template <typename Ratio>
int64_t SequentialSearch(double u, double p0, int64_t k_max, Ratio ratio) {
  double p = p0;  // p_k
  for (int64_t k = 0;; k += 4) {
    // Ratios past k_max are 0, so the partial sums stay flat there and are never chosen
    // unless u exceeds the whole mass.
    const double r1 = k + 1 <= k_max ? ratio(k + 1) : 0;
    const double r2 = k + 2 <= k_max ? ratio(k + 2) : 0;
    const double r3 = k + 3 <= k_max ? ratio(k + 3) : 0;
    const double r12 = r1 * r2;
    const double r123 = r12 * r3;
    const double sum1 = p + p * r1;
    const double sum2 = sum1 + p * r12;
    const double sum3 = sum2 + p * r123;
    // The sums are non-decreasing, so the number below u is the offset of the first one
    // at or above u.
    const int below = (u > p) + (u > sum1) + (u > sum2) + (u > sum3);
    if (below < 4) return k + below;
    if (k + 4 > k_max) return -1;
    u -= sum3;
    p *= r123 * ratio(k + 4);
    if (p == 0) return -1;
  }
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_SEQUENTIAL_SEARCH_H_
