#include "eval/rhat.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::eval {
namespace {

std::vector<double> Normals(int n, uint64_t seed, double shift = 0) {
  rng::Engine engine(seed);
  std::vector<double> x(n);
  for (double& v : x) v = shift + rng::NormalSample(engine);
  return x;
}

// Hand computation: chain (1, 2, 3, 4, 5, 6) splits into (1, 2, 3) and (4, 5, 6): means 2 and
// 5, variances 1 and 1, so W = 1, B/n' = var(2, 5) = 4.5, var+ = (2/3) 1 + 4.5 = 31/6,
// R-hat = sqrt(31/6).
TEST(RhatTest, HandValue) {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  const absl::Span<const double> chains[] = {x};
  EXPECT_NEAR(SplitRHat(chains), std::sqrt(31.0 / 6), 1e-15);
  // An odd length drops the middle draw.
  const std::vector<double> y = {1, 2, 3, 100, 4, 5, 6};
  const absl::Span<const double> odd[] = {y};
  EXPECT_NEAR(SplitRHat(odd), std::sqrt(31.0 / 6), 1e-15);
}

// For m' = 8 half-chains of n' = 5000 iid draws, R-hat^2 - 1 = (B/n' - W/n') / W is about
// (chi^2_7 / 7 - 1) / n' with standard deviation sqrt(2/7) / n' ~ 1.1e-4, so R-hat - 1 stays
// below 5.5e-4 at 10 standard deviations; 1.001 is a safe bound.
TEST(RhatTest, IndependentChainsFromTheSameDistributionGiveOne) {
  const std::vector<double> a = Normals(10000, 1), b = Normals(10000, 2), c = Normals(10000, 3),
                            d = Normals(10000, 4);
  const absl::Span<const double> chains[] = {a, b, c, d};
  const double rhat = SplitRHat(chains);
  EXPECT_LT(rhat, 1.001);
  EXPECT_GT(rhat, 0.999);
}

TEST(RhatTest, IdenticalChainsGiveOne) {
  const std::vector<double> a = Normals(10000, 5);
  const absl::Span<const double> chains[] = {a, a, a, a};
  EXPECT_NEAR(SplitRHat(chains), 1.0, 1e-3);
}

// One of four chains shifted by 2 sds: the eight half-chain means have variance
// 4 * (2 * 6) / (8 * 7) = 6/7, so R-hat ~ sqrt(1 + 6/7) = 1.36 > 1.1.
// The ±0.05: with n' = 1000 draws per half-chain, R-hat^2 = (n'-1)/n' + (B/n')/W has
// E ≈ 1 + 6/7 (the -1/n' and the noise variance 1/n' of the means cancel). B/n' = 6/7 + a
// cross term (2/7) Σ_j (μ_j - μ̄) e_j with e_j ~ N(0, 1/n') and Σ (μ_j - μ̄)^2 = 6, sd
// (2/7) sqrt(6/1000) = 0.022; W has relative sd sqrt(2 / (8 * 999)) = 0.016, moving (6/7)/W by
// 0.014. So sd(R-hat^2) ≈ 0.026 and sd(R-hat) ≈ 0.026 / (2 * 1.363) = 0.0095 (a simulation
// of 400 replicates gives 0.0092), and 0.05 is 5.2 sd: a false-failure rate of ~2e-7.
// Reporting var+/W without the square root (1.857) fails it.
TEST(RhatTest, ShiftedChainsExceedThreshold) {
  const std::vector<double> a = Normals(2000, 1), b = Normals(2000, 2), c = Normals(2000, 3),
                            d = Normals(2000, 4, /*shift=*/2.0);
  const absl::Span<const double> chains[] = {a, b, c, d};
  const double rhat = SplitRHat(chains);
  EXPECT_GT(rhat, 1.1);
  EXPECT_NEAR(rhat, std::sqrt(1 + 6.0 / 7), 0.05);
}

// A single chain that drifts is caught by the split.
TEST(RhatTest, TrendingChainExceedsThreshold) {
  std::vector<double> a = Normals(2000, 7);
  for (int t = 0; t < 2000; ++t) a[t] += 3.0 * t / 2000;
  const absl::Span<const double> chains[] = {a};
  EXPECT_GT(SplitRHat(chains), 1.1);
}

TEST(RhatDeathTest, BadInput) {
  const std::vector<double> a = {1, 2, 3};
  const absl::Span<const double> chains[] = {a};
  EXPECT_DEATH(SplitRHat(chains), "chains need >= 4 draws");
}

}  // namespace
}  // namespace sgmcmc::eval
