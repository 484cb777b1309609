#include "testing/distribution_testing.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "testing/random_inputs.h"

namespace sgmcmc::testing {
namespace {

std::vector<double> Uniforms(int n, uint64_t seed) {
  RandomInputs inputs(seed);
  std::vector<double> draws(n);
  for (double& x : draws) x = inputs.Uniform();
  return draws;
}

TEST(DistributionTestingTest, AcceptsCorrectDistribution) {
  const auto draws = Uniforms(100000, 1);
  auto cdf = [](double x) { return x; };
  EXPECT_TRUE(KolmogorovSmirnovTest(draws, cdf).Passed()) << KolmogorovSmirnovTest(draws, cdf);
  EXPECT_TRUE(ChiSquaredQuantileTest(draws, cdf).Passed());
  EXPECT_TRUE(MeanZTest(draws, 0.5, 1.0 / 12).Passed());
  EXPECT_TRUE(VarianceZTest(draws, 1.0 / 12, 1.0 / 80).Passed());
}

// The tests must be able to fail: a slightly wrong distribution is rejected.
TEST(DistributionTestingTest, RejectsWrongDistribution) {
  auto draws = Uniforms(100000, 2);
  for (double& x : draws) x = std::pow(x, 1.05);
  auto cdf = [](double x) { return x; };
  EXPECT_FALSE(KolmogorovSmirnovTest(draws, cdf).Passed());
  EXPECT_FALSE(ChiSquaredQuantileTest(draws, cdf).Passed());
  EXPECT_FALSE(MeanZTest(draws, 0.5, 1.0 / 12).Passed());
}

// Two samples of one law pass; a slightly different law is rejected (fixed seeds).
TEST(DistributionTestingTest, TwoSampleKolmogorovSmirnov) {
  const auto a = Uniforms(50000, 4), b = Uniforms(40000, 5);
  EXPECT_TRUE(TwoSampleKolmogorovSmirnovTest(a, b).Passed()) << TwoSampleKolmogorovSmirnovTest(a, b);
  auto c = Uniforms(40000, 6);
  for (double& x : c) x = std::pow(x, 1.05);
  EXPECT_FALSE(TwoSampleKolmogorovSmirnovTest(a, c).Passed()) << TwoSampleKolmogorovSmirnovTest(a, c);
  // D of two disjoint samples is 1; of a sample with itself 0.
  EXPECT_EQ(TwoSampleKolmogorovSmirnovTest({0.1, 0.2}, {0.3, 0.4, 0.5}).statistic, 1.0);
  EXPECT_EQ(TwoSampleKolmogorovSmirnovTest(a, a).statistic, 0.0);
}

TEST(DistributionTestingTest, DiscreteChiSquared) {
  RandomInputs inputs(3);
  std::vector<int64_t> draws(60000);
  for (auto& d : draws) d = inputs.UniformInt(6);
  auto fair = [](int64_t k) { return (k >= 0 && k < 6) ? 1.0 / 6 : 0.0; };
  EXPECT_TRUE(DiscreteChiSquaredTest(draws, fair, 0, 5).Passed());
  auto loaded = [](int64_t k) { return k == 0 ? 0.18 : 0.164; };
  EXPECT_FALSE(DiscreteChiSquaredTest(draws, loaded, 0, 5).Passed());
  // Draws outside the support of the pmf are an immediate failure.
  auto five_sided = [](int64_t k) { return (k >= 0 && k < 5) ? 0.2 : 0.0; };
  EXPECT_FALSE(DiscreteChiSquaredTest(draws, five_sided, 0, 5).Passed());
}

// A rare value in a sparse last cell must not fail a correct generator: the leftover cells
// are pooled into their neighbour instead of forming a cell that expects almost nothing.
TEST(DistributionTestingTest, DiscreteChiSquaredPoolsSparseTail) {
  // 1000 draws from a pmf putting 1e-6 on the value 1: one observed 1 is unremarkable.
  std::vector<int64_t> draws(1000, 0);
  draws[17] = 1;
  auto pmf = [](int64_t k) { return k == 0 ? 1 - 1e-6 : (k == 1 ? 1e-6 : 0.0); };
  EXPECT_TRUE(DiscreteChiSquaredTest(draws, pmf, 0, 1).Passed())
      << DiscreteChiSquaredTest(draws, pmf, 0, 1);
}

TEST(DistributionTestingTest, PValueHelpers) {
  EXPECT_NEAR(TwoSidedNormalPValue(1.959963984540054), 0.05, 1e-12);
  EXPECT_NEAR(ChiSquaredPValue(3.841458820694124, 1), 0.05, 1e-12);
  EXPECT_NEAR(KolmogorovPValue(1.3580986393225507), 0.05, 1e-6);
}

// Against scipy.stats.chi2 quantiles: (R - ppf(a/2, R)) / sqrt(2R), (isf(a/2, R) - R) / sqrt(2R).
TEST(DistributionTestingTest, WorstCaseChiSquaredBand) {
  const ChiSquaredBand r32 = WorstCaseChiSquaredBand(32, 1e-6);
  EXPECT_NEAR(r32.low, 3.1655132627242666, 1e-9);
  EXPECT_NEAR(r32.high, 6.915118972722508, 1e-9);
  const ChiSquaredBand r1 = WorstCaseChiSquaredBand(1, 2e-6);
  EXPECT_NEAR(r1.low, 0.7071067811854368, 1e-9);
  EXPECT_NEAR(r1.high, 16.212634065296832, 1e-9);
}

}  // namespace
}  // namespace sgmcmc::testing
