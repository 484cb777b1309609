#include "rng/multinomial.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "boost/math/distributions/binomial.hpp"
#include "gtest/gtest.h"
#include "rng/internal/discrete_variate_testing.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

// Each statistical check fails a correct sampler with probability testing::kFalseFailureRate
// = 1e-6; this file runs 63 of them: false-failure rate < 1e-4 per run (Bonferroni). The
// sum and zero-probability checks are exact.

constexpr uint64_t kSeeds[] = {1, 2, 3};

// Unnormalised, with zeros first, in the middle and last.
const std::vector<double> kProbs = {0, 2, 0.5, 0, 1e-3, 4, 1.5, 0};

// Each marginal X_i ~ Binomial(n, p_i); every draw sums to n and leaves zero-probability
// categories empty.
TEST(MultinomialSampleTest, MarginalsAreBinomialAndCountsSumToN) {
  const double total = std::accumulate(kProbs.begin(), kProbs.end(), 0.0);
  const int k = static_cast<int>(kProbs.size());
  for (int64_t n : {1, 17, 1000, 100000}) {
    for (uint64_t seed : kSeeds) {
      Engine engine(seed, n);
      const int draws = 20000;
      std::vector<std::vector<int64_t>> marginals(k, std::vector<int64_t>(draws));
      std::vector<int64_t> counts(k);
      for (int d = 0; d < draws; ++d) {
        MultinomialSample(engine, n, kProbs, absl::MakeSpan(counts));
        ASSERT_EQ(std::accumulate(counts.begin(), counts.end(), int64_t{0}), n);
        for (int i = 0; i < k; ++i) marginals[i][d] = counts[i];
      }
      for (int i = 0; i < k; ++i) {
        const std::string label =
            "n=" + std::to_string(n) + " seed=" + std::to_string(seed) + " i=" + std::to_string(i);
        if (kProbs[i] == 0) {
          EXPECT_EQ(*std::max_element(marginals[i].begin(), marginals[i].end()), 0) << label;
          continue;
        }
        rng_internal::ExpectFitsPmf(
            marginals[i], boost::math::binomial_distribution<double>(n, kProbs[i] / total), label);
      }
    }
  }
}

// The joint law, not just the marginals: for K = 3 and n = 10 every outcome (x0, x1) is a
// cell of a chi-squared test against the multinomial pmf n! / (x0! x1! x2!) p0^x0 p1^x1 p2^x2.
TEST(MultinomialSampleTest, JointPmfForThreeCategories) {
  const std::vector<double> probs = {0.2, 0.5, 0.3};
  const int n = 10;
  const auto pmf = [&](int64_t cell) {
    const int x0 = cell / (n + 1), x1 = cell % (n + 1), x2 = n - x0 - x1;
    if (x2 < 0) return 0.0;
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(x0 + 1.0) - std::lgamma(x1 + 1.0) -
                    std::lgamma(x2 + 1.0) + x0 * std::log(probs[0]) + x1 * std::log(probs[1]) +
                    x2 * std::log(probs[2]));
  };
  for (uint64_t seed : kSeeds) {
    Engine engine(seed);
    std::vector<int64_t> cells(200000);
    std::vector<int64_t> counts(3);
    for (int64_t& cell : cells) {
      MultinomialSample(engine, n, probs, absl::MakeSpan(counts));
      cell = counts[0] * (n + 1) + counts[1];
    }
    const auto result = testing::DiscreteChiSquaredTest(cells, pmf, 0, (n + 1) * (n + 1) - 1);
    EXPECT_TRUE(result.Passed()) << "seed=" << seed << " " << result;
  }
}

// A large probability followed by tiny ones: the conditional probabilities come from tail
// sums, not from total - prefix (which would leave 1e-7 relative error here).
TEST(MultinomialSampleTest, TinyProbabilitiesAfterALargeOne) {
  const std::vector<double> probs = {1, 1e-10, 1e-10};
  Engine engine(4);
  std::vector<int64_t> counts(3);
  int64_t first = 0, second = 0;
  for (int d = 0; d < 1000; ++d) {
    MultinomialSample(engine, 1000000000000, probs, absl::MakeSpan(counts));
    first += counts[1];
    second += counts[2];
  }
  // Each of the two tiny categories gets Poisson(100) per draw; their totals over 1000
  // draws are ~N(1e5, 1e5): a 6-sd band fails with probability < 1e-8.
  EXPECT_NEAR(first, 1e5, 6 * std::sqrt(1e5));
  EXPECT_NEAR(second, 1e5, 6 * std::sqrt(1e5));
}

TEST(MultinomialSampleTest, EdgeCases) {
  Engine engine(5);
  std::vector<int64_t> counts(3, -7);
  MultinomialSample(engine, 0, {{1.0, 2.0, 3.0}}, absl::MakeSpan(counts));
  EXPECT_EQ(counts, (std::vector<int64_t>{0, 0, 0}));
  MultinomialSample(engine, 12345, {{0.0, 5.0, 0.0}}, absl::MakeSpan(counts));
  EXPECT_EQ(counts, (std::vector<int64_t>{0, 12345, 0}));
  std::vector<int64_t> one(1);
  MultinomialSample(engine, 99, {{0.3}}, absl::MakeSpan(one));
  EXPECT_EQ(one[0], 99);
}

// Stream stability: pinned counts for seed 42.
TEST(MultinomialSampleTest, PinnedDraws) {
  Engine engine(42);
  std::vector<int64_t> counts(kProbs.size());
  std::vector<int64_t> got;
  for (int64_t n : {10, 1000000}) {
    MultinomialSample(engine, n, kProbs, absl::MakeSpan(counts));
    got.insert(got.end(), counts.begin(), counts.end());
  }
  const std::vector<int64_t> expected = {0, 2,      0,     0, 0,   6,      2,      0,
                                         0, 250167, 62595, 0, 138, 499935, 187165, 0};
  EXPECT_EQ(got, expected);
}

TEST(MultinomialDeathTest, RejectsInvalidArguments) {
  Engine engine(1);
  std::vector<int64_t> counts(2);
  EXPECT_DEATH(MultinomialSample(engine, -1, {{0.5, 0.5}}, absl::MakeSpan(counts)),
               "MultinomialSample: n must be in \\[0, 2\\^62\\], got -1");
  EXPECT_DEATH(MultinomialSample(engine, 5, {{0.5, 0.2, 0.3}}, absl::MakeSpan(counts)),
               "MultinomialSample: counts and probs must have the same size");
  std::vector<int64_t> none;
  EXPECT_DEATH(MultinomialSample(engine, 5, {}, absl::MakeSpan(none)),
               "MultinomialSample: probs must not be empty");
  EXPECT_DEATH(MultinomialSample(engine, 5, {{0.5, -0.1}}, absl::MakeSpan(counts)),
               "MultinomialSample: probs\\[1\\] must be finite and >= 0, got -0.1");
  EXPECT_DEATH(MultinomialSample(engine, 5, {{std::nan(""), 1.0}}, absl::MakeSpan(counts)),
               "MultinomialSample: probs\\[0\\] must be finite and >= 0, got nan");
  EXPECT_DEATH(MultinomialSample(engine, 5, {{0.0, 0.0}}, absl::MakeSpan(counts)),
               "MultinomialSample: probs must have a finite positive sum, got 0");
}

}  // namespace
}  // namespace sgmcmc::rng
