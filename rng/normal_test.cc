#include "rng/normal.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "boost/math/distributions/normal.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Statistical checks below each fail a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 31 of them, so it fails spuriously with
// probability < 4e-5.
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectMoments;

double StandardNormalCdf(double x) { return boost::math::cdf(boost::math::normal(), x); }

// 3 seeds x (KS + chi-squared over 1000 bins + mean + variance): 12 checks. 1000 equiprobable
// bins of 1/1000 are finer than the ziggurat's 256 layers, so a wrong layer would show.
TEST(NormalSampleTest, MatchesStandardNormalAcrossSeeds) {
  for (uint64_t seed : {1, 2, 3}) {
    Engine engine(seed, 17);
    const auto draws = DrawMany(400000, [&] { return NormalSample(engine); });
    const std::string label = "seed=" + std::to_string(seed);
    ExpectFitsCdf(draws, StandardNormalCdf, label, 1000);
    ExpectMoments(draws, 0, 1, 3, label);
  }
}

// The tail beyond r = 3.654 (rarely visited, exact sampler of its own): conditional KS of
// |Z| given |Z| > r, and a z-test of how often it is visited: 2 checks.
TEST(NormalSampleTest, TailBeyondZigguratBaseIsExact) {
  const double r = rng_internal::kNormalZiggurat.r;
  const double tail_mass = 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), r));
  Engine engine(4);
  constexpr int kDraws = 6000000;
  std::vector<double> tail;
  for (int i = 0; i < kDraws; ++i) {
    const double z = std::fabs(NormalSample(engine));
    if (z > r) tail.push_back(z);
  }
  const double expected = kDraws * tail_mass;
  const double z_count = (tail.size() - expected) / std::sqrt(expected * (1 - tail_mass));
  EXPECT_TRUE(testing::TwoSidedNormalPValue(z_count) > testing::kFalseFailureRate)
      << "tail count " << tail.size() << " expected " << expected;
  auto conditional_cdf = [&](double t) {
    const double upper = boost::math::cdf(boost::math::complement(boost::math::normal(), t));
    return 1 - 2 * upper / tail_mass;
  };
  const auto ks = testing::KolmogorovSmirnovTest(tail, conditional_cdf);
  EXPECT_TRUE(ks.Passed()) << ks;
}

// Far tail: P(|Z| > 5) = 5.7e-7 is visited and nothing is infinite.
TEST(NormalSampleTest, FarTailIsReachedAndFinite) {
  Engine engine(5);
  double max_abs = 0;
  for (int i = 0; i < 20000000; ++i) {
    const double z = NormalSample(engine);
    ASSERT_TRUE(std::isfinite(z));
    max_abs = std::max(max_abs, std::fabs(z));
  }
  // P(max |Z| over 2e7 draws < 5) = (1 - 5.7e-7)^2e7 = 1e-5.
  EXPECT_GT(max_abs, 5);
}

// KS + chi-squared + mean + variance for two (mean, sd) pairs: 8 checks.
TEST(NormalSampleTest, MeanAndSd) {
  for (const auto& parameters : {std::pair{-3.0, 0.25}, std::pair{1e6, 1e3}}) {
    // Named variables, not structured bindings: C++17 lambdas cannot capture those (GCC
    // accepts it; clang, the compiler of --config=ubsan, tsan and fuzz, does not).
    const double mean = parameters.first, sd = parameters.second;
    Engine engine(6);
    const auto draws = DrawMany(100000, [&] { return NormalSample(engine, mean, sd); });
    const std::string label = "mean=" + std::to_string(mean) + " sd=" + std::to_string(sd);
    boost::math::normal dist(mean, sd);
    ExpectFitsCdf(
        draws, [&](double x) { return boost::math::cdf(dist, x); }, label);
    ExpectMoments(draws, mean, sd * sd, 3 * std::pow(sd, 4), label);
  }
  Engine engine(7);
  EXPECT_EQ(NormalSample(engine, 2.5, 0), 2.5);
}

TEST(NormalSampleTest, SignIsIndependentOfMagnitude) {
  // Doornik's (2005) critique of 32-bit ziggurats: sign and layer shared bits. Here, the
  // fraction of positive draws among large |Z| is 1/2 (binomial z-test, 1 check).
  Engine engine(8);
  int large = 0, positive = 0;
  for (int i = 0; i < 2000000; ++i) {
    const double z = NormalSample(engine);
    if (std::fabs(z) > 2) {
      ++large;
      positive += z > 0;
    }
  }
  const double z = (positive - 0.5 * large) / std::sqrt(0.25 * large);
  EXPECT_GT(testing::TwoSidedNormalPValue(z), testing::kFalseFailureRate) << positive << "/" << large;
}

TEST(FillNormalTest, EqualsRepeatedNormalSample) {
  Engine a(9, 1), b(9, 1);
  std::vector<double> filled(1000);
  FillNormal(a, absl::MakeSpan(filled));
  for (double x : filled) ASSERT_EQ(x, NormalSample(b));
  EXPECT_EQ(a.position(), b.position());
  FillNormal(a, absl::Span<double>());
  EXPECT_EQ(a.position(), b.position());
}

TEST(NormalSampleTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(10, 3), b(10, 3);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(NormalSample(a), NormalSample(b));
}

// Stream stability: a change of these values is a change of every downstream result.
TEST(NormalSampleTest, PinnedDraws) {
  Engine engine(42);
  const double expected[] = {0x1.beba766d773f1p-1, 0x1.ae0448a293c1fp-2, -0x1.80c4c2d32b9dcp-1,
                             0x1.821256498682bp-1, 0x1.87b678f3708a1p+0, -0x1.0ed890486729fp+0};
  for (double x : expected) EXPECT_EQ(NormalSample(engine), x);
}

TEST(NormalLogPdfTest, ReferenceValues) {
  // log(1 / sqrt(2 pi)) and -1/8 - log 2 - log(sqrt(2 pi)), to 20 digits (exact expressions).
  EXPECT_NEAR(NormalLogPdf(0, 0, 1), -0.91893853320467274178, 1e-15);
  EXPECT_NEAR(NormalLogPdf(1.5, 0.5, 2), -1.7370857137646180512, 1e-15);
  for (double x : {-40.0, -1.0, 0.3, 7.0}) {
    EXPECT_NEAR(NormalLogPdf(x, 0.7, 1.9),
                std::log(boost::math::pdf(boost::math::normal(0.7, 1.9), x)),
                1e-13 * (1 + std::fabs(x * x)))
        << x;
  }
}

TEST(NormalDeathTest, RejectsInvalidParameters) {
  Engine engine(1);
  EXPECT_DEATH(NormalSample(engine, 0, -1), "NormalSample: sd must be finite and >= 0, got -1");
  EXPECT_DEATH(NormalSample(engine, 0, NAN), "NormalSample: sd");
  EXPECT_DEATH(NormalSample(engine, 0, INFINITY), "NormalSample: sd");
  EXPECT_DEATH(NormalSample(engine, NAN, 1), "NormalSample: mean must be finite");
  EXPECT_DEATH(NormalLogPdf(0, 0, 0), "NormalLogPdf: sd must be > 0, got 0");
  EXPECT_DEATH(NormalLogPdf(0, 0, -2), "NormalLogPdf: sd must be > 0");
}

}  // namespace
}  // namespace sgmcmc::rng
