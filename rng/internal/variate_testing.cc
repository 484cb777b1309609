#include "rng/internal/variate_testing.h"

#include <cmath>

#include "boost/math/special_functions/digamma.hpp"
#include "boost/math/special_functions/gamma.hpp"
#include "boost/math/special_functions/polygamma.hpp"
#include "boost/math/special_functions/trigamma.hpp"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng_internal {

void ExpectFitsCdf(absl::Span<const double> draws, absl::FunctionRef<double(double)> cdf,
                   const std::string& label, int bins) {
  const testing::TestResult ks = testing::KolmogorovSmirnovTest(draws, cdf);
  EXPECT_TRUE(ks.Passed()) << label << ": " << ks;
  const testing::TestResult chi2 = testing::ChiSquaredQuantileTest(draws, cdf, bins);
  EXPECT_TRUE(chi2.Passed()) << label << ": " << chi2;
}

void ExpectMoments(absl::Span<const double> draws, double mean, double variance,
                   double fourth_central_moment, const std::string& label) {
  const testing::TestResult m = testing::MeanZTest(draws, mean, variance);
  EXPECT_TRUE(m.Passed()) << label << ": " << m;
  const testing::TestResult v = testing::VarianceZTest(draws, variance, fourth_central_moment);
  EXPECT_TRUE(v.Passed()) << label << ": " << v;
}

double LogGammaCdf(double shape, double t) {
  if (t > -700) return boost::math::gamma_p(shape, std::exp(t));
  return std::exp(shape * t - boost::math::lgamma(shape + 1));
}

void ExpectLogGammaLaw(absl::Span<const double> draws, double shape, const std::string& label) {
  ExpectFitsCdf(
      draws, [&](double t) { return LogGammaCdf(shape, t); }, label);
  const double variance = boost::math::trigamma(shape);
  ExpectMoments(draws, boost::math::digamma(shape), variance,
                boost::math::polygamma(3, shape) + 3 * variance * variance, label);
}

}  // namespace sgmcmc::rng_internal
