// Goodness-of-fit checks of integer draws against a Boost.Math discrete distribution
// (poisson_distribution, binomial_distribution), shared by the //rng discrete generator
// tests (testonly).
//
// ExpectFitsPmf runs testing::DiscreteChiSquaredTest over [lo, hi], with hi the largest k whose
// upper tail P(K > k) still holds >= 5 expected draws and lo the smallest k with >= 5
// expected at or below it, so that every pooled cell (including the tail cell, which also
// takes the mass below lo) expects >= 5 and the chi-squared limit is accurate.
// When even P(K > 0) expects fewer than 5 draws (tiny means), a chi-squared is meaningless;
// it then tests the number of nonzero draws exactly against Binomial(n, P(K > 0)) (upper
// tail). Either way it is one check with false-failure rate testing::kFalseFailureRate.
//
// Cost: O(n + hi - lo) plus ~40 Boost CDF evaluations.
//
// Example:
//   ExpectFitsPmf(draws, boost::math::poisson_distribution<double>(3.5), "mean=3.5");
#ifndef SGMCMC_RNG_INTERNAL_DISCRETE_VARIATE_TESTING_H_
#define SGMCMC_RNG_INTERNAL_DISCRETE_VARIATE_TESTING_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "boost/math/distributions/binomial.hpp"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng_internal {

template <typename Distribution>
void ExpectFitsPmf(absl::Span<const int64_t> draws, const Distribution& dist,
                   const std::string& label) {
  const double n = draws.size();
  const double support_max = boost::math::range(dist).second;
  for (int64_t k : draws) {
    ASSERT_TRUE(k >= 0 && k <= support_max) << label << ": draw " << k << " outside support";
  }
  // Expected number of draws above k.
  const auto expected_above = [&](int64_t k) {
    return n * boost::math::cdf(boost::math::complement(dist, static_cast<double>(k)));
  };
  if (expected_above(0) < 5) {
    const int64_t nonzero =
        std::count_if(draws.begin(), draws.end(), [](int64_t k) { return k > 0; });
    const boost::math::binomial_distribution<double> count_dist(
        n, boost::math::cdf(boost::math::complement(dist, 0.0)));
    const double p_value =
        nonzero == 0 ? 1.0 : boost::math::cdf(boost::math::complement(count_dist, nonzero - 1.0));
    EXPECT_GE(p_value, testing::kFalseFailureRate)
        << label << ": " << nonzero << " nonzero draws of " << n
        << ", P(K > 0) = " << boost::math::cdf(boost::math::complement(dist, 0.0));
    return;
  }
  const double mean = boost::math::mean(dist);
  const double sd = boost::math::standard_deviation(dist);
  // Both ends by bisection on monotone tails: lo is the smallest k with >= 5 expected draws
  // at or below it (the < 5 below lo join the tail cell), hi the largest k with >= 5
  // expected draws above it.
  const auto expected_at_or_below = [&](int64_t k) {
    return n * boost::math::cdf(dist, static_cast<double>(k));
  };
  int64_t lo_bad = std::max(-1.0, std::floor(mean - 12 * sd) - 1);  // < 5 at or below
  int64_t lo_good = std::ceil(mean);                                // >= 5 at or below
  while (lo_good - lo_bad > 1) {
    const int64_t mid = lo_bad + (lo_good - lo_bad) / 2;
    (expected_at_or_below(mid) >= 5 ? lo_good : lo_bad) = mid;
  }
  const int64_t lo = lo_good;
  int64_t good = lo;
  int64_t bad = std::min(support_max, std::ceil(mean + 12 * sd + 20));
  while (bad - good > 1) {
    const int64_t mid = good + (bad - good) / 2;
    (expected_above(mid) >= 5 ? good : bad) = mid;
  }
  const auto result = testing::DiscreteChiSquaredTest(
      draws, [&](int64_t k) { return boost::math::pdf(dist, static_cast<double>(k)); }, lo, good);
  EXPECT_TRUE(result.Passed()) << label << " " << result;
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_DISCRETE_VARIATE_TESTING_H_
