#include "rng/internal/variate_testing.h"

#include "eval/distribution_testing.h"
#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {

void ExpectFitsCdf(absl::Span<const double> draws, absl::FunctionRef<double(double)> cdf,
                   const std::string& label, int bins) {
  const eval::TestResult ks = eval::KolmogorovSmirnovTest(draws, cdf);
  EXPECT_TRUE(ks.Passed()) << label << ": " << ks;
  const eval::TestResult chi2 = eval::ChiSquaredQuantileTest(draws, cdf, bins);
  EXPECT_TRUE(chi2.Passed()) << label << ": " << chi2;
}

void ExpectMoments(absl::Span<const double> draws, double mean, double variance,
                   double fourth_central_moment, const std::string& label) {
  const eval::TestResult m = eval::MeanZTest(draws, mean, variance);
  EXPECT_TRUE(m.Passed()) << label << ": " << m;
  const eval::TestResult v = eval::VarianceZTest(draws, variance, fourth_central_moment);
  EXPECT_TRUE(v.Passed()) << label << ": " << v;
}

}  // namespace sgmcmc::rng_internal
