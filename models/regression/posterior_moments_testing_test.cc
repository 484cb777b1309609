#include "models/regression/posterior_moments_testing.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::models {
namespace {

Eigen::MatrixXd Scalar(double x) { return Eigen::MatrixXd::Constant(1, 1, x); }

// One dimension: sigma_h^2 = (2h + h^2 v) / (1 - (1 - h p)^2).
TEST(PosteriorMomentsTestingTest, LangevinScalarClosedForm) {
  const double p = 3, v = 5, h = 0.01;
  const double expected = (2 * h + h * h * v) / (1 - (1 - h * p) * (1 - h * p));
  EXPECT_NEAR(PreconditionedLangevinCovariance(Scalar(p), Scalar(v), Scalar(1), h)(0, 0), expected,
              1e-12);
  // With a preconditioner g the chain is SGLD on (P g, V g^2) with step h g... same formula.
  const double g = 0.2;
  const double expected_g =
      (2 * h * g + h * h * g * g * v) / (1 - (1 - h * g * p) * (1 - h * g * p));
  EXPECT_NEAR(PreconditionedLangevinCovariance(Scalar(p), Scalar(v), Scalar(g), h)(0, 0),
              expected_g, 1e-12);
}

// The SGHMC covariance solves the Lyapunov equation of the linear recursion it describes:
// simulate that recursion (Gaussian nu) and compare the variance within 6 standard errors
// (ESS of the squared deviations is at least n / (2 tau) with tau ~ 1 / (h C); we use the
// variance of block means of 1000 blocks instead, which needs no tau).
TEST(PosteriorMomentsTestingTest, SghmcMatchesSimulatedRecursion) {
  const double p = 2, v = 4, h = 0.05, c = 1.5, b = 0.2;
  const double predicted = SghmcCovariance(Scalar(p), Scalar(v), h, c, b)(0, 0);
  rng::Engine engine(3);
  double x = 0, mom = 0;
  const int blocks = 1000, block = 2000;
  std::vector<double> block_means(blocks);
  for (int k = 0; k < blocks; ++k) {
    double s = 0;
    for (int t = 0; t < block; ++t) {
      const double nu = std::sqrt(v) * rng::NormalSample(engine);
      mom = (1 - h * c) * mom - h * (p * x + nu) +
            std::sqrt(2 * (c - b) * h) * rng::NormalSample(engine);
      x += h * mom;
      s += x * x;
    }
    block_means[k] = s / block;
  }
  double mean = 0, var = 0;
  for (double m : block_means) mean += m / blocks;
  for (double m : block_means) var += (m - mean) * (m - mean) / (blocks - 1);
  EXPECT_NEAR(mean, predicted, 6 * std::sqrt(var / blocks));
  // And h -> 0 recovers the target variance 1/p.
  EXPECT_NEAR(SghmcCovariance(Scalar(p), Scalar(v), 1e-6, c, 0)(0, 0), 1 / p, 1e-5);
}

// The averaged minibatch noise equals brute force: enumerate all 2-subsets of N = 5 items
// and average over theta at the unscented sigma points mu +- sqrt(D) L e_k, which reproduce
// the posterior's first two moments exactly (the noise covariance is quadratic in theta).
TEST(PosteriorMomentsTestingTest, MinibatchNoiseMatchesEnumeration) {
  const models::LinearRegression model = TestModel(2, 5, 0.3, 1);
  const models::GaussianPosterior exact = model.ExactPosterior();
  const Eigen::MatrixXd noise = MinibatchGradientNoise(model, 2, exact);
  const Eigen::MatrixXd chol = exact.covariance.llt().matrixL();
  Eigen::MatrixXd brute = Eigen::MatrixXd::Zero(2, 2);
  std::vector<Eigen::VectorXd> points;
  for (int k = 0; k < 2; ++k) {
    points.push_back(exact.mean + std::sqrt(2.0) * chol.col(k));
    points.push_back(exact.mean - std::sqrt(2.0) * chol.col(k));
  }
  for (const Eigen::VectorXd& theta : points) {
    std::vector<Eigen::VectorXd> grads;
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(2);
    for (int64_t i = 0; i < 5; ++i) {
      for (int64_t j = i + 1; j < 5; ++j) {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(2);
        const int64_t batch[] = {i, j};
        model.AddLikelihoodPotentialGradient(absl::MakeConstSpan(theta.data(), 2), batch, 5.0 / 2,
                                             absl::MakeSpan(g.data(), 2));
        grads.push_back(g);
        mean += g / 10;
      }
    }
    for (const Eigen::VectorXd& g : grads) {
      brute += (g - mean) * (g - mean).transpose() / 10 / points.size();
    }
  }
  EXPECT_TRUE(noise.isApprox(brute, 1e-10)) << noise << "\nvs\n" << brute;
}

// The check passes for exact independent draws and fails for draws with a 5% wrong scale.
TEST(PosteriorMomentsTestingTest, CheckAcceptsExactDrawsAndRejectsWrongOnes) {
  models::GaussianPosterior exact;
  exact.mean = Eigen::Vector2d(1, -2);
  exact.covariance.resize(2, 2);
  exact.covariance << 2, -1, -1, 3;
  const Eigen::MatrixXd chol = exact.covariance.llt().matrixL();
  for (double scale : {1.0, 1.05}) {
    Chains chains;
    chains.dimension = 2;
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      rng::Engine engine(seed);
      std::vector<double> draws;
      for (int t = 0; t < 50000; ++t) {
        Eigen::Vector2d z(rng::NormalSample(engine), rng::NormalSample(engine));
        const Eigen::Vector2d x = exact.mean + scale * chol * z;
        draws.push_back(x[0]);
        draws.push_back(x[1]);
      }
      chains.draws.push_back(draws);
    }
    const ::testing::AssertionResult result =
        CheckGaussianMoments(chains, exact, Eigen::Vector2d::Zero(), Eigen::Matrix2d::Zero());
    EXPECT_EQ(static_cast<bool>(result), scale == 1.0) << result.message();
  }
}

// The exact covariances are fixed points of the approximate solvers evaluated at the chain's
// own second moment: S = Lyapunov(V(mu, S)) with V the enumeration-tested
// MinibatchGradientNoise. Without minibatch noise (n = N) both reduce to the noiseless solve,
// and h -> 0 recovers the posterior.
TEST(PosteriorMomentsTestingTest, ExactCovariancesAreSelfConsistent) {
  const models::LinearRegression model = TestModel(2, 30, 0.5, 2);
  const models::GaussianPosterior exact = model.ExactPosterior();
  const Eigen::MatrixXd precision = exact.covariance.inverse();
  const Eigen::MatrixXd g = Eigen::Vector2d(1.0, 0.5).asDiagonal();
  const double h = 0.3 / precision.norm();
  const Eigen::MatrixXd langevin = ExactLangevinCovariance(model, 3, g, h);
  const Eigen::MatrixXd langevin_fixed_point = PreconditionedLangevinCovariance(
      precision, MinibatchGradientNoise(model, 3, {exact.mean, langevin}), g, h);
  EXPECT_TRUE(langevin.isApprox(langevin_fixed_point, 1e-12)) << langevin;
  // The chain's covariance differs from the one with the posterior's noise (O(h^2)).
  EXPECT_FALSE(langevin.isApprox(
      PreconditionedLangevinCovariance(precision, MinibatchGradientNoise(model, 3, exact), g, h),
      1e-6));
  EXPECT_TRUE(
      ExactLangevinCovariance(model, 30, g, h)
          .isApprox(PreconditionedLangevinCovariance(precision, Eigen::MatrixXd::Zero(2, 2), g, h),
                    1e-12));
  EXPECT_TRUE(ExactLangevinCovariance(model, 3, g, 1e-9).isApprox(exact.covariance, 1e-6));

  const double step = 0.01, friction = 15, estimate = 0.5;
  const Eigen::MatrixXd sghmc = ExactSghmcCovariance(model, 3, step, friction, estimate);
  const Eigen::MatrixXd sghmc_fixed_point = SghmcCovariance(
      precision, MinibatchGradientNoise(model, 3, {exact.mean, sghmc}), step, friction, estimate);
  EXPECT_TRUE(sghmc.isApprox(sghmc_fixed_point, 1e-12)) << sghmc;
  EXPECT_TRUE(ExactSghmcCovariance(model, 30, step, friction, estimate)
                  .isApprox(SghmcCovariance(precision, Eigen::MatrixXd::Zero(2, 2), step, friction,
                                            estimate),
                            1e-12));
}

// CheckBiasTrend: accepts the predicted ratio, rejects a bias that does not shrink, the
// opposite bias, no bias, and an unpowered design.
TEST(PosteriorMomentsTestingTest, BiasTrendCheck) {
  auto estimate = [](double mean, double se) {
    MeanEstimate e;
    e.mean = mean;
    e.standard_error = se;
    e.ess = 1000;
    return e;
  };
  const double exact = 2, b = 0.4, b_half = 0.19, se = 0.005;
  EXPECT_TRUE(CheckBiasTrend(estimate(exact + b, se), estimate(exact + b_half + 2 * se, se), exact,
                             b, b_half));
  EXPECT_FALSE(CheckBiasTrend(estimate(exact + b, se), estimate(exact + b, se), exact, b, b_half));
  EXPECT_FALSE(
      CheckBiasTrend(estimate(exact - b, se), estimate(exact - b_half, se), exact, b, b_half));
  EXPECT_FALSE(
      CheckBiasTrend(estimate(exact + se, se), estimate(exact - se, se), exact, b, b_half));
  const ::testing::AssertionResult unpowered =
      CheckBiasTrend(estimate(exact + b, 0.1), estimate(exact + b_half, 0.1), exact, b, b_half);
  EXPECT_FALSE(unpowered);
  EXPECT_NE(std::string(unpowered.message()).find("unpowered"), std::string::npos);
}

}  // namespace
}  // namespace sgmcmc::models
