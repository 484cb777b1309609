#include "samplers/psgld.h"

#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "models/linear_regression.h"
#include "models/posterior_moments_testing.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/checkpoint_testing.h"

namespace sgmcmc::samplers {
namespace {

using models::TestModel;

PsgldOptions Options(double h, int64_t batch, uint64_t seed, double alpha = 0.99) {
  PsgldOptions options;
  options.chain.step_size = StepSizeOptions::Constant(h);
  options.chain.batch_size = batch;
  options.chain.seed = seed;
  options.alpha = alpha;
  return options;
}

// Long-run moments against the exact posterior (N = 100, n = 10, two data sets, four chains).
// pSGLD is a preconditioned SGLD with a slowly varying diagonal G = diag(1/(lambda +
// sqrt(V))): its O(h) bias is that of the linear chain with G frozen at the settled V
// (Lyapunov equation, posterior_moments_testing.h). The dropped Gamma term adds a bias of
// order (1 - alpha) h; with alpha = 0.999 (V averages ~2000 gradients) it is below the Monte
// Carlo error, so the mean gets no allowance (the linear chain's stationary mean is exact).
// Covariance allowance: 1.5 |Sigma_h - Sigma| (the factor covers the O(h^2) remainder).
TEST(PsgldTest, StationaryMomentsMatchPosterior) {
  for (uint64_t data_seed : {1, 2}) {
    const models::LinearRegression model = TestModel(2, 100, 0.5, data_seed);
    const models::GaussianPosterior exact = model.ExactPosterior();
    const double h = 3e-5;
    const int64_t batch = 10;
    const std::vector<double> start(exact.mean.data(), exact.mean.data() + 2);
    // Settle V on a pilot chain to freeze G for the bias computation.
    std::unique_ptr<Psgld> pilot = *Psgld::Create(model, start, Options(h, batch, 99, 0.999));
    for (int m = 0; m < 100000; ++m) pilot->Step();
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(2, 2);
    for (int j = 0; j < 2; ++j) g(j, j) = 1 / (1e-5 + std::sqrt(pilot->second_moment()[j]));
    const Eigen::MatrixXd biased = models::PreconditionedLangevinCovariance(
        exact.covariance.inverse(), models::MinibatchGradientNoise(model, batch, exact),
        g, h);
    const Eigen::MatrixXd allowance = 1.5 * (biased - exact.covariance).cwiseAbs();
    const models::Chains chains = models::RunChains(
        [&](uint64_t seed) {
          return std::unique_ptr<Sampler>(
              *Psgld::Create(model, start, Options(h, batch, seed, 0.999)));
        },
        {11, 12, 13, 14}, /*burn_in=*/20000, /*iterations=*/1500000, /*thin=*/50);
    const ::testing::AssertionResult result =
        models::CheckGaussianMoments(chains, exact, Eigen::Vector2d::Zero(), allowance);
    EXPECT_TRUE(result) << "data seed " << data_seed;
    std::cerr << result.message();
  }
}

// One full-batch step by hand: V = (1 - alpha) g-bar^2, G = 1/(lambda + sqrt(V)).
TEST(PsgldTest, UpdateRuleFullBatch) {
  const models::LinearRegression model = TestModel(2, 20, 0.4, 3);
  const std::vector<double> theta0 = {0.1, -0.2};
  PsgldOptions options = Options(0.01, 20, 5);
  options.lambda = 0.5;
  std::unique_ptr<Psgld> psgld = *Psgld::Create(model, theta0, options);
  psgld->Step();
  std::vector<int64_t> all(20);
  for (int i = 0; i < 20; ++i) all[i] = i;
  std::vector<double> gbar(2, 0.0);  // (1/N) sum grad log p(x_i | theta)
  model.AddLikelihoodPotentialGradient(theta0, all, -1.0 / 20, absl::MakeSpan(gbar));
  rng::Engine engine(5);
  for (int j = 0; j < 2; ++j) {
    const double v = 0.01 * gbar[j] * gbar[j];
    EXPECT_NEAR(psgld->second_moment()[j], v, 1e-15 * v);
    const double g = 1 / (0.5 + std::sqrt(v));
    const double grad_u = theta0[j] - 20 * gbar[j];
    const double expected =
        theta0[j] + std::sqrt(0.02 * g) * rng::NormalSample(engine) - 0.01 * g * grad_u;
    EXPECT_NEAR(psgld->theta()[j], expected, 1e-14);
  }
}

TEST(PsgldTest, CheckpointResumeIsBitIdentical) {
  const models::LinearRegression model = TestModel(3, 50, 0.5, 4);
  for (int64_t at : {0, 1, 37}) {
    ExpectResumeIsBitIdentical(
        [&](uint64_t seed) {
          PsgldOptions options = Options(1e-3, 5, seed);
          options.chain.step_size = StepSizeOptions::Hamcmc(1e-3);
          return std::unique_ptr<Sampler>(
              *Psgld::Create(model, std::vector<double>(3, seed * 0.01), options));
        },
        at, 100);
  }
}

TEST(PsgldTest, InvalidOptionsAreClearErrors) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  PsgldOptions options = Options(-1, 10, 1);
  EXPECT_EQ(Psgld::Create(model, {0.0, 0.0}, options).status().message(),
            "Psgld: StepSizeOptions.h must be finite and > 0, got -1");
  options = Options(0.1, 10, 1, /*alpha=*/1.0);
  EXPECT_EQ(Psgld::Create(model, {0.0, 0.0}, options).status().message(),
            "PsgldOptions.alpha must be in [0, 1), got 1");
  options = Options(0.1, 10, 1);
  options.lambda = 0;
  EXPECT_EQ(Psgld::Create(model, {0.0, 0.0}, options).status().message(),
            "PsgldOptions.lambda must be finite and > 0, got 0");
}

TEST(PsgldTest, RestoreValidatesSecondMoment) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  std::unique_ptr<Psgld> psgld = *Psgld::Create(model, {0.0, 0.0}, Options(1e-3, 10, 1));
  psgld->Step();
  SamplerState state = psgld->SaveState();
  state.set_second_moment(0, -1);
  EXPECT_EQ(psgld->RestoreState(state).message(),
            "SamplerState.second_moment must be finite and >= 0, got -1");
  state.clear_second_moment();
  EXPECT_EQ(psgld->RestoreState(state).message(),
            "SamplerState.second_moment has length 0, expected 2");
}

}  // namespace
}  // namespace sgmcmc::samplers
