#include "eval/running_moments.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/uniform.h"

namespace sgmcmc::eval {
namespace {

// Two-pass reference: weighted mean, then sum w (x - mean)(x - mean)' / sum w.
TEST(RunningMomentsTest, MatchesTwoPassWeighted) {
  const int d = 3, n = 500;
  rng::Engine engine(1);
  std::vector<std::vector<double>> xs(n, std::vector<double>(d));
  std::vector<double> ws(n);
  RunningMoments moments(d, /*track_covariance=*/true);
  for (int t = 0; t < n; ++t) {
    for (double& v : xs[t]) v = 100 + rng::NormalSample(engine);  // offset tests stability
    xs[t][1] += 0.5 * xs[t][0];
    ws[t] = rng::UniformDouble(engine, 0.1, 2.0);
    moments.Add(xs[t], ws[t]);
  }
  double total = 0;
  std::vector<double> mean(d, 0.0);
  for (int t = 0; t < n; ++t) {
    total += ws[t];
    for (int j = 0; j < d; ++j) mean[j] += ws[t] * xs[t][j];
  }
  for (double& m : mean) m /= total;
  EXPECT_EQ(moments.count(), n);
  EXPECT_NEAR(moments.total_weight(), total, 1e-12);
  for (int j = 0; j < d; ++j) EXPECT_NEAR(moments.mean()[j], mean[j], 1e-12);
  const std::vector<double> cov = moments.covariance();
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      double c = 0;
      for (int t = 0; t < n; ++t) c += ws[t] * (xs[t][i] - mean[i]) * (xs[t][j] - mean[j]);
      EXPECT_NEAR(cov[i * d + j], c / total, 1e-10) << i << "," << j;
      EXPECT_EQ(cov[i * d + j], moments.covariance(j, i));
    }
  }
}

TEST(RunningMomentsTest, UnitWeightsHandValues) {
  RunningMoments moments(2, true);
  moments.Add({1, 2});
  moments.Add({3, 6});
  EXPECT_EQ(moments.mean()[0], 2);
  EXPECT_EQ(moments.mean()[1], 4);
  EXPECT_EQ(moments.covariance(0, 0), 1);  // ((1-2)^2 + (3-2)^2) / 2
  EXPECT_EQ(moments.covariance(0, 1), 2);  // ((-1)(-2) + (1)(2)) / 2
  EXPECT_EQ(moments.covariance(1, 1), 4);
}

TEST(RunningMomentsTest, MeanOnly) {
  RunningMoments moments(4, /*track_covariance=*/false);
  moments.Add({1, 2, 3, 4}, 1);
  moments.Add({3, 2, 1, 0}, 3);
  EXPECT_EQ(std::vector<double>(moments.mean().begin(), moments.mean().end()),
            (std::vector<double>{2.5, 2, 1.5, 1}));
}

TEST(RunningMomentsDeathTest, BadUse) {
  RunningMoments moments(2, false);
  EXPECT_DEATH(moments.Add({1, 2, 3}), "draw has length 3, expected 2");
  EXPECT_DEATH(moments.Add({1, 2}, 0), "weight must be finite and > 0");
  moments.Add({1, 2});
  EXPECT_DEATH(moments.covariance(0, 0), "covariance not tracked");
  EXPECT_DEATH(RunningMoments(0, true), "dimension must be >= 1");
}

}  // namespace
}  // namespace sgmcmc::eval
