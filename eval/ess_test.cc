#include "eval/ess.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::eval {
namespace {

// Stationary AR(1): x_0 ~ N(0, 1/(1 - phi^2)), x_t = phi x_{t-1} + N(0, 1). Its integrated
// autocorrelation time is tau = (1 + phi) / (1 - phi), so ESS = n (1 - phi) / (1 + phi).
std::vector<double> Ar1(double phi, int n, uint64_t seed, double shift = 0) {
  rng::Engine engine(seed);
  std::vector<double> x(n);
  x[0] = rng::NormalSample(engine) / std::sqrt(1 - phi * phi);
  for (int t = 1; t < n; ++t) x[t] = phi * x[t - 1] + rng::NormalSample(engine);
  for (double& v : x) v += shift;
  return x;
}

// Tolerance: for a truncated autocorrelation sum with window K the estimator of tau has
// relative standard deviation about sqrt(2 (2K + 1) / n) (Sokal 1997, "Monte Carlo methods
// in statistical mechanics", eq. 3.19). Geyer's window stays below K = 10 tau for AR(1) with
// overwhelming probability, so 5 such standard deviations (two-sided tail 6e-7, below the
// project's 1e-6) bound the relative error by 5 sqrt(2 (20 tau + 1) / n).
double RelativeTolerance(double tau, double n) { return 5 * std::sqrt(2 * (20 * tau + 1) / n); }

TEST(EssTest, Ar1MatchesAnalyticValue) {
  const int n = 1 << 19;
  for (double phi : {0.0, 0.5, 0.9, -0.5}) {
    for (uint64_t seed : {1, 2}) {
      const double tau = (1 + phi) / (1 - phi);
      const double expected = n / tau;
      const double ess = EffectiveSampleSize(Ar1(phi, n, seed));
      EXPECT_NEAR(ess / expected, 1.0, RelativeTolerance(std::max(tau, 1.0), n))
          << "phi " << phi << " seed " << seed << ": ESS " << ess << " vs " << expected;
    }
  }
}

TEST(EssTest, MultiChainAddsUp) {
  const int n = 1 << 17;
  const double phi = 0.8, tau = 9;
  std::vector<std::vector<double>> chains;
  for (uint64_t seed = 10; seed < 14; ++seed) chains.push_back(Ar1(phi, n, seed));
  const std::vector<absl::Span<const double>> spans(chains.begin(), chains.end());
  const double ess = EffectiveSampleSize(spans);
  EXPECT_NEAR(ess / (4.0 * n / tau), 1.0, RelativeTolerance(tau, 4.0 * n)) << ess;
}

// Chains that sample different places must not look like independent draws: shifting one
// chain by 3 stationary sds makes var+ far exceed W, so the pooled ESS collapses.
TEST(EssTest, DisagreeingChainsHaveSmallEss) {
  const int n = 1 << 14;
  const std::vector<double> a = Ar1(0.5, n, 1), b = Ar1(0.5, n, 2, /*shift=*/3 / std::sqrt(0.75));
  const absl::Span<const double> spans[] = {a, b};
  EXPECT_LT(EffectiveSampleSize(spans), 0.01 * n);
}

TEST(EssTest, ConstantChainIsNan) {
  const std::vector<double> x(100, 2.0);
  EXPECT_TRUE(std::isnan(EffectiveSampleSize(x)));
}

TEST(EssDeathTest, BadInput) {
  const std::vector<double> short_chain = {1, 2, 3};
  EXPECT_DEATH(EffectiveSampleSize(short_chain), "chains need >= 4 draws");
  const std::vector<double> a = {1, 2, 3, 4, 5}, b = {1, 2, 3, 4};
  const absl::Span<const double> spans[] = {a, b};
  EXPECT_DEATH(EffectiveSampleSize(spans), "equal length");
}

}  // namespace
}  // namespace sgmcmc::eval
