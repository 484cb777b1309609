// Test helpers shared by the //rng generator tests (testonly): draw a sample, then check it
// against a CDF (Kolmogorov-Smirnov and chi-squared over equiprobable quantile bins) and
// against known moments (z-tests of mean and variance), all through
// //testing:distribution_testing. Each check fails a correct generator with probability
// testing::kFalseFailureRate (1e-6); a caller making m checks has a false-failure rate of at
// most m * 1e-6 (Bonferroni), which each test file states.
//
// Cost: O(n log n) for the KS sort.
//
// Example:
//   Engine engine(7);
//   auto draws = DrawMany(100000, [&] { return GammaSample(engine, 2.5); });
//   ExpectFitsCdf(draws, [](double x) { return boost::math::gamma_p(2.5, x); }, "shape=2.5");
//   ExpectMoments(draws, 2.5, 2.5, 3 * 2.5 * 2.5 + 6 * 2.5, "shape=2.5");
#ifndef SGMCMC_RNG_INTERNAL_VARIATE_TESTING_H_
#define SGMCMC_RNG_INTERNAL_VARIATE_TESTING_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"

namespace sgmcmc::rng_internal {

// n draws of sample().
template <typename Sampler>
std::vector<double> DrawMany(int n, Sampler sample) {
  std::vector<double> draws(n);
  for (double& x : draws) x = sample();
  return draws;
}

// KS and chi-squared (`bins` equiprobable bins) tests of `draws` against `cdf`: 2 checks.
// `label` names the case in failure messages.
void ExpectFitsCdf(absl::Span<const double> draws, absl::FunctionRef<double(double)> cdf,
                   const std::string& label, int bins = 100);

// z-tests of the sample mean and variance against the true mean, variance and fourth central
// moment: 2 checks.
void ExpectMoments(absl::Span<const double> draws, double mean, double variance,
                   double fourth_central_moment, const std::string& label);

// P(log G <= t) for G ~ Gamma(shape, 1) (Boost's regularised P). Below t = -700, x = e^t is
// tiny and P(a, x) = x^a / Gamma(a + 1) (1 + O(x)) with O(x) < 1e-304, computed in log space.
double LogGammaCdf(double shape, double t);

// `draws` of log G, G ~ Gamma(shape, 1): KS + chi-squared against LogGammaCdf and z-tests of
// mean and variance (the cumulants of log G: mean psi(a), variance psi'(a), fourth central
// moment psi'''(a) + 3 psi'(a)^2): 4 checks.
void ExpectLogGammaLaw(absl::Span<const double> draws, double shape, const std::string& label);

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_VARIATE_TESTING_H_
