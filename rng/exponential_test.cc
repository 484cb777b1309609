#include "rng/exponential.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Statistical checks below each fail a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 14 of them, so it fails spuriously with
// probability < 2e-5.
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

// 3 seeds x (KS + chi-squared over 1000 bins + mean + variance): 12 checks. Exp(1) has
// variance 1 and fourth central moment 9.
TEST(ExponentialSampleTest, MatchesExponentialAcrossSeeds) {
  for (uint64_t seed : {1, 2, 3}) {
    Engine engine(seed, 5);
    const auto draws = DrawMany(400000, [&] { return ExponentialSample(engine); });
    const std::string label = "seed=" + std::to_string(seed);
    ExpectFitsCdf(
        draws, [](double x) { return -std::expm1(-x); }, label, 1000);
    ExpectMoments(draws, 1, 1, 9, label);
  }
}

// Beyond r = 7.697 the sampler recurses; X - r given X > r is Exp(1): the visit count and a
// conditional KS test, 2 checks.
TEST(ExponentialSampleTest, TailBeyondZigguratBaseIsExact) {
  const double r = rng_internal::kExponentialZiggurat.r;
  const double tail_mass = std::exp(-r);
  Engine engine(4);
  constexpr int kDraws = 6000000;
  std::vector<double> excess;
  for (int i = 0; i < kDraws; ++i) {
    const double x = ExponentialSample(engine);
    if (x > r) excess.push_back(x - r);
  }
  const double expected = kDraws * tail_mass;
  const double z = (excess.size() - expected) / std::sqrt(expected * (1 - tail_mass));
  EXPECT_GT(testing::TwoSidedNormalPValue(z), testing::kFalseFailureRate)
      << "tail count " << excess.size() << " expected " << expected;
  const auto ks = testing::KolmogorovSmirnovTest(excess, [](double x) { return -std::expm1(-x); });
  EXPECT_TRUE(ks.Passed()) << ks;
}

TEST(ExponentialSampleTest, StrictlyPositiveSoLogIsFinite) {
  Engine engine(6);
  double min = INFINITY;
  for (int i = 0; i < 2000000; ++i) {
    const double x = ExponentialSample(engine);
    ASSERT_GT(x, 0);
    ASSERT_TRUE(std::isfinite(std::log(x)));
    min = std::min(min, x);
  }
  // P(min of 2e6 draws > 1e-4) = exp(-200).
  EXPECT_LT(min, 1e-4);
}

TEST(ExponentialSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(10, 3), b(10, 3);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(ExponentialSample(a), ExponentialSample(b));
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(ExponentialSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.16bf1a4e2bf7cp+0, 0x1.9299e68886c21p-2, 0x1.18ab63b6c4f7fp+0,
                             0x1.bba826f1a39e1p-1, 0x1.203f4cc348e3p+1,  0x1.101703b0b7d8ap+0};
  for (double x : expected) EXPECT_EQ(ExponentialSample(engine), x);
}

}  // namespace
}  // namespace sgmcmc::rng
