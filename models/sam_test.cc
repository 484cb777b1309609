#include "models/sam.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "eval/ess.h"
#include "eval/ks_dirichlet.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/sphere_uniform.h"
#include "samplers/gmc.h"

namespace sgmcmc::models {
namespace {

constexpr int kV = 6;
constexpr int kK = 3;

Eigen::MatrixXd RandomUnitColumns(int rows, int cols, uint64_t seed) {
  rng::Engine engine(seed);
  Eigen::MatrixXd x(rows, cols);
  Eigen::VectorXd col(rows);
  for (int k = 0; k < cols; ++k) {
    rng::SphereUniformSample(engine, col);
    x.col(k) = col;
  }
  return x;
}

SamTopicModel MakeModel() {
  Eigen::MatrixXd dense = RandomUnitColumns(kV, 4, 3).cwiseAbs();
  for (int d = 0; d < 4; ++d) {
    dense(d, d) = 0;  // some zeros, as in tf-idf
    dense.col(d).normalize();
  }
  SamHyperparameters hyper;
  hyper.num_topics = kK;
  hyper.kappa0 = 3;
  hyper.sigma = 4;
  hyper.kappa = 7;
  hyper.alpha = 0.5;
  hyper.m = Eigen::VectorXd::Constant(kV, 1 / std::sqrt(double{kV}));
  SamTopicModel model(dense.sparseView(), hyper);
  Eigen::MatrixXd draws(kK, 2);
  draws << 0.2, 0.5, 0.3, 0.1, 0.5, 0.4;
  model.SetThetaDraws(1, draws);
  return model;
}

// Central difference of f along the ambient direction w in column k.
template <typename F>
double Directional(F f, const Eigen::MatrixXd& x, int k, const Eigen::VectorXd& w) {
  const double h = 1e-6;
  Eigen::MatrixXd plus = x, minus = x;
  plus.col(k) += h * w;
  minus.col(k) -= h * w;
  return (f(plus) - f(minus)) / (2 * h);
}

TEST(SamTest, TopicGradientsMatchFiniteDifferences) {
  const SamTopicModel model = MakeModel();
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  Eigen::MatrixXd prior(kV, kK), like = Eigen::MatrixXd::Zero(kV, kK);
  model.PriorPotentialGradient(beta, prior);
  const std::vector<int64_t> batch = {1, 2, 1};
  model.AddLikelihoodPotentialGradient(beta, batch, 0.5, like);
  const Eigen::MatrixXd w = RandomUnitColumns(kV, kK, 9);
  for (int k = 0; k < kK; ++k) {
    const double fd_prior = Directional(
        [&](const Eigen::MatrixXd& b) { return model.PriorPotential(b); }, beta, k, w.col(k));
    EXPECT_NEAR(prior.col(k).dot(w.col(k)), fd_prior, 1e-6 * (1 + std::abs(fd_prior)));
    const double fd_like = Directional(
        [&](const Eigen::MatrixXd& b) {
          return 0.5 * (2 * model.DocumentPotential(b, 1) + model.DocumentPotential(b, 2));
        },
        beta, k, w.col(k));
    EXPECT_NEAR(like.col(k).dot(w.col(k)), fd_like, 1e-6 * (1 + std::abs(fd_like)));
  }
}

TEST(SamTest, ThetaPosteriorGradientMatchesFiniteDifferences) {
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  const Eigen::VectorXd v = RandomUnitColumns(kV, 1, 6).col(0);
  const SamThetaPosterior model(beta, v, 7.0, 0.8);
  const Eigen::MatrixXd x = Eigen::Vector3d(0.6, -0.48, 0.64);
  Eigen::MatrixXd grad(kK, 1);
  model.PriorPotentialGradient(x, grad);
  const Eigen::VectorXd w = Eigen::Vector3d(0.3, 0.7, -0.2);
  const double fd = Directional([&](const Eigen::MatrixXd& y) { return model.Potential(y); },
                                x, 0, w);
  EXPECT_NEAR(grad.col(0).dot(w), fd, 1e-6 * (1 + std::abs(fd)));
}

// κ = 0: π(θ | β, v) is Dir(α); with α = 2, K = 3, θ₁ ~ Beta(2, 4), whose CDF is
// 1 - (1 - t)⁵ - 5t(1 - t)⁴. GMC through the squared map, KS with the ESS as sample size.
TEST(SamTest, GmcThroughSquaredMapSamplesDirichletWhenFlat) {
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  const Eigen::VectorXd v = RandomUnitColumns(kV, 1, 6).col(0);
  const SamThetaPosterior model(beta, v, 0.0, 2.0);
  samplers::GmcOptions options;
  options.step_size = samplers::StepSizeOptions::Constant(0.1);
  options.leapfrog_steps = 8;
  options.seed = 41;
  auto gmc = samplers::Gmc::Create(model, Eigen::MatrixXd(Eigen::Vector3d::Constant(
                                              1 / std::sqrt(3.0))),
                                   options);
  ASSERT_TRUE(gmc.ok());
  const int n = 50000;
  std::vector<double> theta1(n), u(n);
  for (int m = 0; m < n; ++m) {
    (*gmc)->Step();
    const double t = (*gmc)->x()(0, 0) * (*gmc)->x()(0, 0);
    theta1[m] = t;
    u[m] = 1 - std::pow(1 - t, 5) - 5 * t * std::pow(1 - t, 4);
  }
  const double ess = std::min<double>(eval::EffectiveSampleSize(theta1), n);
  const double ks = eval::KsDistanceToUniform(absl::MakeSpan(u));
  std::printf("SAM theta via GMC, kappa = 0: KS of theta_1 vs Beta(2, 4) = %.4f, ESS = %.0f, "
              "acceptance %.3f\n",
              ks, ess, static_cast<double>((*gmc)->accepted()) / n);
  EXPECT_LT(std::sqrt(ess) * ks, 2.5);
}

}  // namespace
}  // namespace sgmcmc::models
