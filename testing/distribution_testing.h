// Statistical goodness-of-fit helpers for tests of random variates and samplers (testonly).
//
// Every test here returns a TestResult with a p-value; a test asserts
//   EXPECT_TRUE(result.Passed()) << result;
// which fails with probability kFalseFailureRate when the draws do come from the claimed
// distribution. Failures print the statistic, p-value and sample moments.
//
//  - KolmogorovSmirnovTest: one-sample KS against a continuous CDF (asymptotic Kolmogorov
//    distribution with Stephens' small-sample correction; fine for n >= 100).
//  - ChiSquaredQuantileTest: counts of F(x) in `bins` equiprobable bins, chi-squared with
//    bins - 1 degrees of freedom.
//  - DiscreteChiSquaredTest: counts of integer draws against a pmf on [lo, hi]; cells with
//    expected count < 5 are pooled with their neighbours and the two tails.
//  - MeanZTest: z-test of the sample mean against a known mean and variance.
//  - VarianceZTest: z-test of the sample variance given the true variance and fourth central
//    moment (variance of s^2 is (mu4 - sigma^4) / n asymptotically).
//
// Cost: O(n log n) for KS (it sorts a copy), O(n) otherwise.
#ifndef SGMCMC_TESTING_DISTRIBUTION_TESTING_H_
#define SGMCMC_TESTING_DISTRIBUTION_TESTING_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"

namespace sgmcmc::testing {

// Default probability that a correct generator fails one test.
inline constexpr double kFalseFailureRate = 1e-6;

struct TestResult {
  std::string name;      // which test, e.g. "KS"
  double statistic = 0;  // D, chi^2 or z
  double p_value = 1;
  std::string detail;  // sample size, moments, degrees of freedom

  bool Passed(double alpha = kFalseFailureRate) const { return p_value >= alpha; }
  std::string ToString() const;
};
std::ostream& operator<<(std::ostream& os, const TestResult& result);

TestResult KolmogorovSmirnovTest(absl::Span<const double> draws,
                                 absl::FunctionRef<double(double)> cdf);

// Two-sample Kolmogorov-Smirnov test that `a` and `b` (each non-empty) come from the same
// continuous distribution: D = sup |F_a − F_b| and the asymptotic p-value
// KolmogorovPValue(D √(n m / (n + m))) (accurate for n, m in the hundreds and above).
TestResult TwoSampleKolmogorovSmirnovTest(absl::Span<const double> a, absl::Span<const double> b);

TestResult ChiSquaredQuantileTest(absl::Span<const double> draws,
                                  absl::FunctionRef<double(double)> cdf, int bins = 100);

TestResult DiscreteChiSquaredTest(absl::Span<const int64_t> draws,
                                  absl::FunctionRef<double(int64_t)> pmf, int64_t lo,
                                  int64_t hi);

TestResult MeanZTest(absl::Span<const double> draws, double mean, double variance);

TestResult VarianceZTest(absl::Span<const double> draws, double variance,
                         double fourth_central_moment);

// Two-sided normal tail probability P(|Z| > |z|).
double TwoSidedNormalPValue(double z);

// Upper tail of the chi-squared distribution with `df` degrees of freedom.
double ChiSquaredPValue(double statistic, double df);

// A band for the mean of `replicates` independent copies of a statistic whose fluctuation is
// (asymptotically) sum_j lambda_j (Z_j^2 - 1) with lambda_j >= 0 (a degenerate V-statistic,
// e.g. n times a kernel Stein discrepancy of exact draws): in units of the mean's standard
// deviation it lies in [-low, high] except with probability at most false_failure_rate / 2 on
// each side, from the most skewed case (one lambda_j), (chi^2_R - R) / sqrt(2R).
struct ChiSquaredBand {
  double low = 0;
  double high = 0;
};
ChiSquaredBand WorstCaseChiSquaredBand(int replicates, double false_failure_rate);

// Asymptotic Kolmogorov distribution tail P(K > lambda).
double KolmogorovPValue(double lambda);

// Sample mean and (n - 1)-normalised variance.
struct SampleMoments {
  double mean = 0;
  double variance = 0;
};
SampleMoments ComputeMoments(absl::Span<const double> draws);

}  // namespace sgmcmc::testing

#endif  // SGMCMC_TESTING_DISTRIBUTION_TESTING_H_
