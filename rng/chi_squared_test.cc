#include "rng/chi_squared.h"

#include <cmath>
#include <string>

#include "boost/math/special_functions/gamma.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 48 of them, so it fails spuriously with
// probability < 5e-5 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

// Chi-squared(df) has CDF P(df/2, x/2), mean df, variance 2 df and fourth central moment
// 12 df^2 + 48 df. 6 df x 2 seeds x (KS + chi-squared + mean + variance) = 48 checks.
TEST(ChiSquaredSampleTest, MatchesChiSquaredCdfAcrossDfAndSeeds) {
  for (double df : {0.6, 1.0, 2.0, 3.5, 30.0, 1e4}) {
    for (uint64_t seed : {1, 2}) {
      Engine engine(seed, 51);
      const auto draws = DrawMany(50000, [&] { return ChiSquaredSample(engine, df); });
      const std::string label = "df=" + std::to_string(df) + " seed=" + std::to_string(seed);
      ExpectFitsCdf(
          draws, [&](double x) { return boost::math::gamma_p(df / 2, x / 2); }, label);
      ExpectMoments(draws, df, 2 * df, 12 * df * df + 48 * df, label);
    }
  }
}

TEST(ChiSquaredSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(10, 3), b(10, 3);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(ChiSquaredSample(a, 3), ChiSquaredSample(b, 3));
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(ChiSquaredSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.055107f36f13cp-1, 0x1.bd0b59ded3158p+2, 0x1.a3ac1647b9e02p-4,
                             0x1.0d77bdce9e7f8p+1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ChiSquaredSample(engine, i % 2 == 0 ? 1.0 : 5.0), expected[i]) << i;
  }
}

TEST(ChiSquaredDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(ChiSquaredSample(engine, 0), "ChiSquaredSample: df must be finite and > 0, got 0");
  EXPECT_DEATH(ChiSquaredSample(engine, -3), "ChiSquaredSample: df must be finite and > 0");
  EXPECT_DEATH(ChiSquaredSample(engine, NAN), "ChiSquaredSample: df");
  EXPECT_DEATH(ChiSquaredSample(engine, INFINITY), "ChiSquaredSample: df");
}

}  // namespace
}  // namespace sgmcmc::rng
