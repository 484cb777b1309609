#include "samplers/sgnht.h"

#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "models/regression/linear_regression.h"
#include "models/regression/posterior_moments_testing.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/checkpoint_testing.h"

namespace sgmcmc::samplers {
namespace {

using models::TestModel;

SgnhtOptions Options(double h, int64_t batch, uint64_t seed, double diffusion) {
  SgnhtOptions options;
  options.chain.step_size = StepSizeOptions::Constant(h);
  options.chain.batch_size = batch;
  options.chain.seed = seed;
  options.diffusion = diffusion;
  options.initial_thermostat = diffusion;
  return options;
}

// Long-run moments against the exact posterior (N = 100, n = 10, two data sets, four chains).
// At equilibrium the thermostat zeta fluctuates around the friction zeta-bar that balances the
// injected noise 2 A h plus the gradient noise, so SGNHT behaves like SGHMC with friction
// zeta-bar and injected noise 2 A h (C = zeta-bar, B = zeta-bar - A): its covariance bias is
// that chain's Lyapunov solution, with zeta-bar measured on a pilot chain. The thermostat's
// own fluctuation adds an O(h) term of the same order, so the allowance is
// 2 |Sigma_h - Sigma|. The stationary mean of theta is exact by symmetry (the dynamics are
// odd in theta - mu for fixed zeta).
// Why an allowance and not the exact Sigma_h that the SGLD, pSGLD, SGHMC and dense SGRLD
// tests use: the thermostat makes the chain nonlinear (zeta p is a product of two state
// variables, and zeta is driven by p'p / D). The equations for the second moments of
// (theta, p, zeta) involve third moments, those fourth moments, and so on, so no finite
// linear (Lyapunov) system gives the stationary covariance; only the frozen-zeta-bar SGHMC
// approximation exists, hence the allowance centred on Sigma.
TEST(SgnhtTest, StationaryMomentsMatchPosterior) {
  for (uint64_t data_seed : {1, 2}) {
    const models::LinearRegression model = TestModel(2, 100, 0.5, data_seed);
    const models::GaussianPosterior exact = model.ExactPosterior();
    const double h = 2e-3, diffusion = 30.0;
    const int64_t batch = 10;
    const std::vector<double> start(exact.mean.data(), exact.mean.data() + 2);
    std::unique_ptr<Sgnht> pilot = *Sgnht::Create(model, start, Options(h, batch, 99, diffusion));
    double zeta_bar = 0;
    const int pilot_steps = 200000;
    for (int m = 0; m < pilot_steps; ++m) {
      pilot->Step();
      if (m >= pilot_steps / 2) zeta_bar += pilot->thermostat() / (pilot_steps / 2);
    }
    const Eigen::MatrixXd biased = models::SghmcCovariance(
        exact.covariance.inverse(), models::MinibatchGradientNoise(model, batch, exact),
        h, zeta_bar, zeta_bar - diffusion);
    const Eigen::MatrixXd allowance = 2 * (biased - exact.covariance).cwiseAbs();
    const models::Chains chains = models::RunChains(
        [&](uint64_t seed) {
          return std::unique_ptr<Sampler>(
              *Sgnht::Create(model, start, Options(h, batch, seed, diffusion)));
        },
        {11, 12, 13, 14}, /*burn_in=*/50000, /*iterations=*/1000000, /*thin=*/50);
    const ::testing::AssertionResult result =
        models::CheckGaussianMoments(chains, exact, Eigen::Vector2d::Zero(), allowance);
    EXPECT_TRUE(result) << "data seed " << data_seed;
    std::cerr << result.message();
  }
}

// One full-batch step by hand, from the momentum drawn at creation.
TEST(SgnhtTest, UpdateRuleFullBatch) {
  const models::LinearRegression model = TestModel(2, 20, 0.4, 3);
  const std::vector<double> theta0 = {0.1, -0.2};
  SgnhtOptions options = Options(0.01, 20, 5, 2.0);
  options.initial_thermostat = 1.5;
  std::unique_ptr<Sgnht> sgnht = *Sgnht::Create(model, theta0, options);
  rng::Engine engine(5);
  const double p0[] = {rng::NormalSample(engine), rng::NormalSample(engine)};
  sgnht->Step();
  std::vector<int64_t> all(20);
  for (int i = 0; i < 20; ++i) all[i] = i;
  std::vector<double> grad(2);
  StochasticPotentialGradient(model, theta0, all, absl::MakeSpan(grad));
  double kinetic = 0;
  for (int j = 0; j < 2; ++j) {
    const double p = (1 - 0.01 * 1.5) * p0[j] - 0.01 * grad[j] +
                     std::sqrt(2 * 2.0 * 0.01) * rng::NormalSample(engine);
    kinetic += p * p;
    EXPECT_NEAR(sgnht->momentum()[j], p, 1e-14);
    EXPECT_NEAR(sgnht->theta()[j], theta0[j] + 0.01 * p, 1e-14);
  }
  EXPECT_NEAR(sgnht->thermostat(), 1.5 + (kinetic / 2 - 1) * 0.01, 1e-14);
}

TEST(SgnhtTest, CheckpointResumeIsBitIdentical) {
  const models::LinearRegression model = TestModel(3, 50, 0.5, 4);
  for (int64_t at : {0, 1, 37}) {
    ExpectResumeIsBitIdentical(
        [&](uint64_t seed) {
          return std::unique_ptr<Sampler>(*Sgnht::Create(model, std::vector<double>(3, seed * 0.01),
                                                         Options(1e-3, 5, seed, 2.0)));
        },
        at, 100);
  }
}

TEST(SgnhtTest, InvalidOptionsAreClearErrors) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  EXPECT_EQ(Sgnht::Create(model, {0.0, 0.0}, Options(-1e-3, 10, 1, 1)).status().message(),
            "Sgnht: StepSizeOptions.h must be finite and > 0, got -0.001");
  EXPECT_EQ(Sgnht::Create(model, {0.0, 0.0}, Options(1e-3, 10, 1, -2)).status().message(),
            "SgnhtOptions.diffusion must be finite and > 0, got -2");
  SgnhtOptions options = Options(1e-3, 10, 1, 1);
  options.initial_thermostat = INFINITY;
  EXPECT_EQ(Sgnht::Create(model, {0.0, 0.0}, options).status().message(),
            "SgnhtOptions.initial_thermostat must be finite, got inf");
}

}  // namespace
}  // namespace sgmcmc::samplers
