#include "models/regression/linear_regression.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/gradient_model.h"

namespace sgmcmc::models {
namespace {

LinearRegression MakeModel(int d, int64_t n, uint64_t seed, double rho = 0.9,
                           double scale_ratio = 1) {
  rng::Engine engine(seed);
  CorrelatedDataOptions options;
  options.dimension = d;
  options.num_items = n;
  options.structure = CorrelatedDataOptions::Structure::kAutoregressive;
  options.correlation = rho;
  options.scale_ratio = scale_ratio;
  return *LinearRegression::Create(*GenerateCorrelatedData(engine, options));
}

std::vector<int64_t> AllItems(int64_t n) {
  std::vector<int64_t> ids(n);
  for (int64_t i = 0; i < n; ++i) ids[i] = i;
  return ids;
}

// grad U from the model's two methods over the full data set.
std::vector<double> FullGradient(const LinearRegression& model, absl::Span<const double> theta) {
  std::vector<double> grad(model.dimension());
  model.PriorPotentialGradient(theta, absl::MakeSpan(grad));
  model.AddLikelihoodPotentialGradient(theta, AllItems(model.num_items()), 1.0,
                                       absl::MakeSpan(grad));
  return grad;
}

// Central differences of U = -LogJoint with step 1e-5 have truncation error ~ h^2 |U'''| = 0
// (U is quadratic) and rounding error ~ eps |U| / h ~ 1e-16 * 1e4 / 1e-5 = 1e-7 here, so a
// relative-with-absolute-floor tolerance of 1e-5 is safe and still catches any wrong term.
TEST(LinearRegressionTest, GradientMatchesFiniteDifferences) {
  for (uint64_t seed : {1, 2, 3}) {
    const LinearRegression model = MakeModel(4, 50, seed, 0.7, 3);
    rng::Engine engine(100 + seed);
    std::vector<double> theta(4);
    rng::FillNormal(engine, absl::MakeSpan(theta));
    const std::vector<double> grad = FullGradient(model, theta);
    for (int j = 0; j < 4; ++j) {
      const double h = 1e-5;
      std::vector<double> plus = theta, minus = theta;
      plus[j] += h;
      minus[j] -= h;
      const double fd = -(model.LogJoint(plus) - model.LogJoint(minus)) / (2 * h);
      EXPECT_NEAR(grad[j], fd, 1e-5 * std::max(1.0, std::abs(fd))) << "seed " << seed << " j " << j;
    }
  }
}

TEST(LinearRegressionTest, StochasticGradientAveragesToFullGradient) {
  // The average of (N/n)-scaled minibatch gradients over every 2-subset of 6 items is the
  // full gradient (each item is in n/N of the subsets).
  const LinearRegression model = MakeModel(3, 6, 4);
  const std::vector<double> theta = {0.3, -1.2, 0.8};
  const std::vector<double> full = FullGradient(model, theta);
  std::vector<double> mean(3, 0.0), grad(3);
  int subsets = 0;
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = i + 1; j < 6; ++j) {
      const int64_t batch[] = {i, j};
      samplers::StochasticPotentialGradient(model, theta, batch, absl::MakeSpan(grad));
      for (int k = 0; k < 3; ++k) mean[k] += grad[k];
      ++subsets;
    }
  }
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(mean[k] / subsets, full[k], 1e-12 * (1 + std::abs(full[k])));
}

// One dimension by hand: F = 1 + sum a^2 / s2, mean = (sum a x / s2) / F.
TEST(LinearRegressionTest, ExactPosteriorOneDimension) {
  LinearRegressionData data;
  data.dimension = 1;
  data.covariates = {1.0, 2.0, -0.5};
  data.observations = {0.5, 1.5, 0.25};
  data.noise_variance = 2.0;
  const LinearRegression model = *LinearRegression::Create(data);
  const double precision = 1 + (1 + 4 + 0.25) / 2.0;          // 3.625
  const double mean = (0.5 + 3.0 - 0.125) / 2.0 / precision;  // 1.6875 / 3.625
  const GaussianPosterior posterior = model.ExactPosterior();
  EXPECT_NEAR(posterior.mean[0], mean, 1e-15);
  EXPECT_NEAR(posterior.covariance(0, 0), 1 / precision, 1e-15);
  std::vector<double> fisher(1);
  model.ExpectedFisherInformation({0.0}, absl::MakeSpan(fisher));
  EXPECT_NEAR(fisher[0], precision, 1e-15);
}

TEST(LinearRegressionTest, PosteriorMeanIsTheStationaryPoint) {
  const LinearRegression model = MakeModel(5, 300, 5, 0.95, 4);
  const GaussianPosterior posterior = model.ExactPosterior();
  const std::vector<double> mean(posterior.mean.data(), posterior.mean.data() + 5);
  for (double g : FullGradient(model, mean)) EXPECT_NEAR(g, 0, 1e-9);
  // The covariance inverts the Fisher information.
  std::vector<double> fisher(25);
  model.ExpectedFisherInformation(mean, absl::MakeSpan(fisher));
  const Eigen::Map<const Eigen::MatrixXd> f(fisher.data(), 5, 5);
  EXPECT_TRUE((f * posterior.covariance).isApprox(Eigen::MatrixXd::Identity(5, 5), 1e-10));
  EXPECT_TRUE(f.isApprox(f.transpose(), 0));
}

TEST(LinearRegressionTest, FisherIsTheHessianOfThePotential) {
  // U is quadratic, so grad U(theta + e_j) - grad U(theta) is column j of F exactly.
  const LinearRegression model = MakeModel(3, 40, 6, 0.5, 2);
  const std::vector<double> theta = {0.1, 0.2, -0.3};
  std::vector<double> fisher(9);
  model.ExpectedFisherInformation(theta, absl::MakeSpan(fisher));
  const std::vector<double> g0 = FullGradient(model, theta);
  for (int j = 0; j < 3; ++j) {
    std::vector<double> shifted = theta;
    shifted[j] += 1;
    const std::vector<double> g1 = FullGradient(model, shifted);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(g1[i] - g0[i], fisher[i * 3 + j], 1e-9);
  }
}

TEST(LinearRegressionTest, LogJointMatchesNormalLogPdfs) {
  LinearRegressionData data;
  data.dimension = 2;
  data.covariates = {1.0, 0.5, -1.0, 2.0};
  data.observations = {0.3, -0.7};
  data.noise_variance = 0.5;
  const LinearRegression model = *LinearRegression::Create(data);
  const std::vector<double> theta = {0.4, -0.2};
  const double sd = std::sqrt(0.5);
  const double expected = rng::NormalLogPdf(0.4, 0, 1) + rng::NormalLogPdf(-0.2, 0, 1) +
                          rng::NormalLogPdf(0.3, 0.4 - 0.1, sd) +
                          rng::NormalLogPdf(-0.7, -0.4 - 0.4, sd);
  EXPECT_NEAR(model.LogJoint(theta), expected, 1e-14);
}

// Sample (uncentred: the covariates have mean 0) correlation of covariates i and j, and the
// ratio of their second moments.
struct CovariateMoments {
  double correlation = 0;
  double variance_ratio = 0;  // E[a_j^2] / E[a_i^2]
};
CovariateMoments Moments(const LinearRegressionData& data, int i, int j) {
  double sii = 0, sjj = 0, sij = 0;
  const int d = data.dimension;
  for (size_t n = 0; n < data.observations.size(); ++n) {
    const double ai = data.covariates[d * n + i], aj = data.covariates[d * n + j];
    sii += ai * ai;
    sjj += aj * aj;
    sij += ai * aj;
  }
  return {sij / std::sqrt(sii * sjj), sjj / sii};
}

// The generator's covariates have correlation rho between neighbours: the sample
// correlation of N = 20000 pairs has standard error (1 - rho^2) / sqrt(N) ~ 1.4e-3 for
// rho = 0.9; 6 standard errors (false-failure rate ~ 2e-9) is 8.4e-3.
TEST(LinearRegressionTest, GeneratorCorrelation) {
  rng::Engine engine(7);
  CorrelatedDataOptions options;
  options.dimension = 2;
  options.num_items = 20000;
  options.correlation = 0.9;
  options.scale_ratio = 3;
  const LinearRegressionData data = *GenerateCorrelatedData(engine, options);
  const CovariateMoments moments = Moments(data, 0, 1);
  EXPECT_NEAR(moments.correlation, 0.9, 8.4e-3);
  // Scales 1 and 3: the variance ratio is 9 (relative standard error ~ 2 sqrt(1/N) = 1.4%).
  EXPECT_NEAR(moments.variance_ratio, 9, 9 * 6 * 0.0142);
  EXPECT_EQ(data.true_theta.size(), 2u);
  // The posterior of this data is strongly negatively correlated.
  const GaussianPosterior posterior = LinearRegression::Create(data)->ExactPosterior();
  const double corr = posterior.covariance(0, 1) /
                      std::sqrt(posterior.covariance(0, 0) * posterior.covariance(1, 1));
  EXPECT_LT(corr, -0.85);
}

// Equicorrelated covariates: coordinates 0 and 2 correlate with rho (AR(1) would give
// rho^2). The sample correlation has standard error (1 - rho^2) / sqrt(N) = 0.51 / 200 for
// rho = 0.7 and N = 40000; we allow 6 standard errors.
TEST(LinearRegressionTest, GeneratorEquicorrelated) {
  rng::Engine engine(8);
  CorrelatedDataOptions options;
  options.dimension = 3;
  options.num_items = 40000;
  options.structure = CorrelatedDataOptions::Structure::kEquicorrelated;
  options.correlation = 0.7;
  const LinearRegressionData data = *GenerateCorrelatedData(engine, options);
  EXPECT_NEAR(Moments(data, 0, 2).correlation, 0.7, 6 * 0.51 / std::sqrt(40000.0));
  options.correlation = -0.5;  // below -1/(D-1): not positive definite
  EXPECT_NE(GenerateCorrelatedData(engine, options).status().message().find("(-0.5, 1)"),
            std::string::npos);
}

TEST(LinearRegressionTest, GeneratorIsDeterministic) {
  rng::Engine a(9), b(9);
  CorrelatedDataOptions options;
  const LinearRegressionData x = *GenerateCorrelatedData(a, options);
  const LinearRegressionData y = *GenerateCorrelatedData(b, options);
  EXPECT_EQ(x.covariates, y.covariates);
  EXPECT_EQ(x.observations, y.observations);
}

TEST(LinearRegressionTest, InvalidInputsNameTheField) {
  rng::Engine engine(1);
  CorrelatedDataOptions options;
  options.structure = CorrelatedDataOptions::Structure::kAutoregressive;
  options.correlation = 1;
  EXPECT_NE(GenerateCorrelatedData(engine, options).status().message().find("correlation"),
            std::string::npos);
  options = CorrelatedDataOptions();
  options.noise_variance = -1;
  EXPECT_NE(GenerateCorrelatedData(engine, options).status().message().find("noise_variance"),
            std::string::npos);
  options = CorrelatedDataOptions();
  options.dimension = 0;
  EXPECT_FALSE(GenerateCorrelatedData(engine, options).ok());

  LinearRegressionData data;
  data.dimension = 2;
  data.covariates = {1, 2, 3};
  data.observations = {1, 2};
  EXPECT_NE(LinearRegression::Create(data).status().message().find("covariates"),
            std::string::npos);
  data.covariates = {1, 2, 3, NAN};
  EXPECT_NE(LinearRegression::Create(data).status().message().find("item 1, coordinate 1"),
            std::string::npos);
  data.covariates = {1, 2, 3, 4};
  data.noise_variance = 0;
  EXPECT_NE(LinearRegression::Create(data).status().message().find("noise_variance"),
            std::string::npos);
}

}  // namespace
}  // namespace sgmcmc::models
