#include "samplers/hamcmc.h"

#include <cmath>
#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "linalg/lbfgs.h"
#include "models/regression/linear_regression.h"
#include "models/regression/posterior_moments_testing.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "samplers/checkpoint_testing.h"
#include "samplers/minibatch.h"

namespace sgmcmc::samplers {
namespace {

using models::TestModel;

HamcmcOptions Options(const StepSizeOptions& step, int64_t batch, uint64_t seed, int memory,
                      double gamma = 1.0, double damping = 1.0) {
  HamcmcOptions options;
  options.chain.step_size = step;
  options.chain.batch_size = batch;
  options.chain.seed = seed;
  options.memory = memory;
  options.gamma = gamma;
  options.damping = damping;
  return options;
}

Eigen::VectorXd FullGradient(const GradientModel& model, const Eigen::VectorXd& theta) {
  std::vector<int64_t> all(model.num_items());
  for (int64_t i = 0; i < model.num_items(); ++i) all[i] = i;
  Eigen::VectorXd grad(theta.size());
  StochasticPotentialGradient(model, absl::MakeConstSpan(theta.data(), theta.size()), all,
                              absl::MakeSpan(grad.data(), grad.size()));
  return grad;
}

// Eq. 6 of the paper with dense matrices, from H^0 = gamma I, oldest pair first.
Eigen::MatrixXd DenseBfgs(const std::vector<Eigen::VectorXd>& s,
                          const std::vector<Eigen::VectorXd>& y, double gamma) {
  const int d = static_cast<int>(s[0].size());
  const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(d, d);
  Eigen::MatrixXd h = gamma * eye;
  for (size_t m = 0; m < s.size(); ++m) {
    const double rho = 1 / s[m].dot(y[m]);
    h = (eye - rho * s[m] * y[m].transpose()) * h * (eye - rho * y[m] * s[m].transpose()) +
        rho * s[m] * s[m].transpose();
  }
  return h;
}

// With the full data set the minibatch uses no randomness, so the engine's normals are z_1,
// z_2, ... in order and every draw can be recomputed from the recorded trajectory with the
// paper's formulas: SGLD with the constant warm-up step for t <= 2M, then theta_t = theta_{t-M} -
// eps_t H_t grad U(theta_{t-M})
// + sqrt(2 eps_t) S_t z_t with H_t the dense eq. 6 matrix of the pairs t-M+1 ... t-1
// (s_tau = theta_tau - theta_{tau-M}, y_tau = grad U(theta_tau) - grad U(theta_{tau-M}) +
// lambda s_tau) and S_t S_t' = H_t (checked densely; S_t z_t from linalg::Lbfgs).
TEST(HamcmcTest, FullBatchTrajectoryFollowsEquation10) {
  for (int memory : {2, 3, 5}) {
    const models::LinearRegression model = TestModel(3, 30, 0.7, 5);
    const double gamma = 0.7, lambda = 0.5;
    const StepSizeOptions step = StepSizeOptions::Hamcmc(2e-3);
    const StepSize eps = *StepSize::Create(step);
    const std::vector<double> theta0 = {0.3, -0.1, 0.2};
    const double warmup_step = 3e-3;
    HamcmcOptions options = Options(step, 30, 8, memory, gamma, lambda);
    options.warmup_step = warmup_step;
    std::unique_ptr<Hamcmc> hamcmc = *Hamcmc::Create(model, theta0, options);
    const int total = 6 * memory + 5;
    std::vector<Eigen::VectorXd> theta = {Eigen::Map<const Eigen::VectorXd>(theta0.data(), 3)};
    for (int t = 1; t <= total; ++t) {
      hamcmc->Step();
      theta.push_back(Eigen::Map<const Eigen::VectorXd>(hamcmc->theta().data(), 3));
    }
    rng::Engine engine(8);
    for (int t = 1; t <= total; ++t) {
      Eigen::VectorXd z(3);
      for (int j = 0; j < 3; ++j) z[j] = rng::NormalSample(engine);
      Eigen::VectorXd expected;
      if (t <= 2 * memory) {
        const double h = warmup_step;
        expected = theta[t - 1] - h * FullGradient(model, theta[t - 1]) + std::sqrt(2 * h) * z;
      } else {
        std::vector<Eigen::VectorXd> s, y;
        linalg::LbfgsOptions lbfgs_options;
        lbfgs_options.max_pairs = memory - 1;
        lbfgs_options.gamma = gamma;
        lbfgs_options.damping = lambda;
        linalg::Lbfgs lbfgs(3, lbfgs_options);
        for (int tau = t - memory + 1; tau <= t - 1; ++tau) {
          s.push_back(theta[tau] - theta[tau - memory]);
          const Eigen::VectorXd raw_y =
              FullGradient(model, theta[tau]) - FullGradient(model, theta[tau - memory]);
          y.push_back(raw_y + lambda * s.back());
          lbfgs.AddPair(s.back(), raw_y);
        }
        const Eigen::MatrixXd h_dense = DenseBfgs(s, y, gamma);
        Eigen::MatrixXd sqrt_h(3, 3);
        for (int j = 0; j < 3; ++j) {
          Eigen::VectorXd out(3);
          lbfgs.ApplySqrtH(Eigen::VectorXd::Unit(3, j), out);
          sqrt_h.col(j) = out;
        }
        ASSERT_TRUE((sqrt_h * sqrt_h.transpose()).isApprox(h_dense, 1e-10));
        const double h = eps(t - 1);
        const Eigen::VectorXd& base = theta[t - memory];
        expected = base - h * h_dense * FullGradient(model, base) + std::sqrt(2 * h) * sqrt_h * z;
      }
      for (int j = 0; j < 3; ++j) {
        ASSERT_NEAR(theta[t][j], expected[j], 1e-10 * (1 + std::abs(expected[j])))
            << "M = " << memory << ", t = " << t << ", coordinate " << j;
      }
    }
  }
}

// With minibatches, the newest pair after step t must use the minibatch Omega_t for both
// gradients: recover Omega_t from the engine position before the step and recompute.
TEST(HamcmcTest, PairsUseTheSameMinibatchForBothGradients) {
  const models::LinearRegression model = TestModel(3, 200, 0.6, 6);
  const int memory = 3;
  std::unique_ptr<Hamcmc> hamcmc = *Hamcmc::Create(
      model, {0.0, 0.0, 0.0}, Options(StepSizeOptions::Constant(1e-3), 7, 21, memory));
  std::vector<Eigen::VectorXd> theta = {Eigen::VectorXd::Zero(3)};
  Minibatch minibatch = *Minibatch::Create(200, 7);
  for (int t = 1; t <= 30; ++t) {
    const RngState before = hamcmc->SaveState().rng();
    hamcmc->Step();
    theta.push_back(Eigen::Map<const Eigen::VectorXd>(hamcmc->theta().data(), 3));
    const SamplerState state = hamcmc->SaveState();
    if (t < memory + 2) {
      EXPECT_EQ(state.lbfgs_pairs_size(), 0);
      continue;
    }
    rng::Engine engine(before.seed(), before.stream());
    engine.Seek(before.position());
    const absl::Span<const int64_t> omega = minibatch.Draw(engine);
    Eigen::VectorXd g_new(3), g_base(3);
    StochasticPotentialGradient(model, absl::MakeConstSpan(theta[t].data(), 3), omega,
                                absl::MakeSpan(g_new.data(), 3));
    StochasticPotentialGradient(model, absl::MakeConstSpan(theta[t - memory].data(), 3), omega,
                                absl::MakeSpan(g_base.data(), 3));
    const LbfgsPair& newest = state.lbfgs_pairs(state.lbfgs_pairs_size() - 1);
    ASSERT_EQ(newest.iteration(), t);
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(newest.s(j), theta[t][j] - theta[t - memory][j]) << "t " << t;
      EXPECT_EQ(newest.y(j), g_new[j] - g_base[j]) << "t " << t;
    }
    // The memory holds exactly the pairs t-M+2 ... t for the next step t+1.
    EXPECT_EQ(state.lbfgs_pairs(0).iteration(), std::max<int64_t>(memory + 2, t - memory + 2));
  }
}

// H_{t+1} must not depend on the base point theta_{t+1-M}: moving the base by delta leaves
// H unchanged and moves theta_{t+1} by exactly (I - eps H F) delta (full batch, so
// grad U(base + delta) - grad U(base) = F delta).
TEST(HamcmcTest, InverseHessianDoesNotDependOnTheBasePoint) {
  const models::LinearRegression model = TestModel(3, 30, 0.7, 5);
  const int memory = 3;
  const double h = 1e-3;
  const HamcmcOptions options =
      Options(StepSizeOptions::Constant(h), 30, 3, memory, /*gamma=*/1, /*damping=*/0.2);
  std::unique_ptr<Hamcmc> original = *Hamcmc::Create(model, {0.1, 0.2, 0.3}, options);
  for (int t = 0; t < 20; ++t) original->Step();
  SamplerState state = original->SaveState();
  // history holds theta_{t-M+1} ... theta_t; the base of step t+1 is the oldest.
  const Eigen::Vector3d delta(0.05, -0.02, 0.01);
  for (int j = 0; j < 3; ++j) {
    state.mutable_history(0)->set_values(j, state.history(0).values(j) + delta[j]);
  }
  std::unique_ptr<Hamcmc> moved = *Hamcmc::Create(model, {0.0, 0.0, 0.0}, options);
  ASSERT_TRUE(moved->RestoreState(state).ok());
  Eigen::MatrixXd h_original(3, 3), h_moved(3, 3);
  for (int j = 0; j < 3; ++j) {
    Eigen::VectorXd out(3);
    original->lbfgs().ApplyH(Eigen::VectorXd::Unit(3, j), out);
    h_original.col(j) = out;
    moved->lbfgs().ApplyH(Eigen::VectorXd::Unit(3, j), out);
    h_moved.col(j) = out;
  }
  EXPECT_EQ(h_original, h_moved);
  original->Step();
  moved->Step();
  Eigen::MatrixXd fisher(3, 3);
  model.ExpectedFisherInformation(original->theta(), absl::MakeSpan(fisher.data(), 9));
  const Eigen::Vector3d expected = (Eigen::Matrix3d::Identity() - h * h_original * fisher) * delta;
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(moved->theta()[j] - original->theta()[j], expected[j], 1e-12);
  }
}

// Long-run moments against the exact posterior (N = 100, n = 50, M = 2 and 3, two data sets,
// four chains). Every draw theta_t is a preconditioned SGLD step from theta_{t-M} with a
// matrix H_t that does not depend on it, so the stationary covariance is, to O(h), that of
// the linear chain with G = H-bar, the average of H_t over a pilot chain (Lyapunov equation,
// posterior_moments_testing.h); H_t fluctuates around H-bar, so the allowance is
// 2 |Sigma_h - Sigma|, and the mean gets none. The draws form M interleaved subchains (theta_t
// depends on theta_{t-M}), so each run is split into its M subchains before the ESS is
// estimated: across subchains the autocorrelation is periodic, not decreasing, and Geyer's
// truncation would overestimate the ESS. gamma = 0.005 is of the order of the posterior
// variances, lambda = 1 is small against the precision (eigenvalues ~ 70 and ~ 430).
// Why an allowance and not the exact Sigma_h that the SGLD, pSGLD, SGHMC and dense SGRLD
// tests use: H_t is the L-BFGS matrix built from the chain's own last M draws and their
// stochastic gradient differences, so theta_t = theta_{t-M} - h H_t grad U~ + sqrt(2 h)
// H_t^(1/2) xi has a random coefficient H_t that depends on (and is correlated with) the
// states it multiplies. E[H_t x x' H_t'] does not factor into moments of H_t and of x, and
// the second moments of the chain couple to ever higher joint moments of H_t and theta: no
// finite linear (Lyapunov) system gives the stationary covariance. Only the frozen-H-bar
// approximation exists, hence the allowance centred on Sigma.
// The check above for one configuration; `diagonal` (may be empty) is H^0's diagonal.
void ExpectStationaryMomentsMatchPosterior(uint64_t data_seed, int memory,
                                           const std::vector<double>& diagonal) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, data_seed);
  const models::GaussianPosterior exact = model.ExactPosterior();
  const double h = 0.02, lambda = 1.0, gamma = 0.005;
  const int64_t batch = 50;
  const std::vector<double> start(exact.mean.data(), exact.mean.data() + 2);
  HamcmcOptions options = Options(StepSizeOptions::Constant(h), batch, 99, memory, gamma, lambda);
  options.initial_diagonal = diagonal;
  std::unique_ptr<Hamcmc> pilot = *Hamcmc::Create(model, start, options);
  Eigen::MatrixXd h_bar = Eigen::MatrixXd::Zero(2, 2);
  const int pilot_steps = 20000;
  for (int m = 0; m < pilot_steps; ++m) {
    pilot->Step();
    for (int j = 0; j < 2; ++j) {
      Eigen::VectorXd out(2);
      pilot->lbfgs().ApplyH(Eigen::VectorXd::Unit(2, j), out);
      h_bar.col(j) += out / pilot_steps;
    }
  }
  const Eigen::MatrixXd biased = models::PreconditionedLangevinCovariance(
      exact.covariance.inverse(), models::MinibatchGradientNoise(model, batch, exact),
      (h_bar + h_bar.transpose()) / 2, h);
  const Eigen::MatrixXd allowance = 2 * (biased - exact.covariance).cwiseAbs();
  const models::Chains chains = models::RunChains(
      [&](uint64_t seed) {
        HamcmcOptions chain_options = options;
        chain_options.chain.seed = seed;
        return std::unique_ptr<Sampler>(*Hamcmc::Create(model, start, chain_options));
      },
      {11, 12, 13, 14}, /*burn_in=*/5000, /*iterations=*/200000, /*thin=*/5,
      /*interleave=*/memory);
  const ::testing::AssertionResult result =
      models::CheckGaussianMoments(chains, exact, Eigen::Vector2d::Zero(), allowance);
  EXPECT_TRUE(result) << "data seed " << data_seed << ", M = " << memory
                      << (diagonal.empty() ? "" : ", diagonal H^0");
  std::cerr << result.message();
}

TEST(HamcmcTest, StationaryMomentsMatchPosterior) {
  for (const auto& [data_seed, memory] : std::vector<std::pair<uint64_t, int>>{{1, 2}, {2, 3}}) {
    ExpectStationaryMomentsMatchPosterior(data_seed, memory, {});
  }
}

// The same with H^0 = 0.3 diag(precision)^-1 (the inverse diagonal of the expected Fisher
// information; the two coordinates' curvatures differ by the model's scale ratio 2, i.e. 4x):
// the derivation and the allowance are the same, with H-bar measured on this chain.
TEST(HamcmcTest, StationaryMomentsMatchPosteriorWithDiagonalH0) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  const Eigen::MatrixXd precision = model.ExactPosterior().covariance.inverse();
  const std::vector<double> diagonal = {0.3 / precision(0, 0), 0.3 / precision(1, 1)};
  ExpectStationaryMomentsMatchPosterior(1, 2, diagonal);
}

TEST(HamcmcTest, CheckpointResumeIsBitIdentical) {
  const models::LinearRegression model = TestModel(3, 50, 0.5, 4);
  for (int memory : {2, 3, 4}) {
    for (int64_t at : {0, 1, memory + 1, memory + 2, 2 * memory, 2 * memory + 1, 37}) {
      ExpectResumeIsBitIdentical(
          [&](uint64_t seed) {
            return std::unique_ptr<Sampler>(
                *Hamcmc::Create(model, std::vector<double>(3, seed * 0.01),
                                Options(StepSizeOptions::Hamcmc(1e-3), 5, seed, memory, 0.5, 0.3)));
          },
          at, 60);
    }
  }
}

// Stream stability: a change here changes every HAMCMC chain.
TEST(HamcmcTest, PinnedDraws) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  std::unique_ptr<Hamcmc> hamcmc = *Hamcmc::Create(
      model, {0.0, 0.0}, Options(StepSizeOptions::Hamcmc(1e-6), 10, 42, 2, 0.005, 1.0));
  for (int m = 0; m < 10; ++m) hamcmc->Step();
  EXPECT_EQ(hamcmc->theta()[0], -0.1138257474579898);
  EXPECT_EQ(hamcmc->theta()[1], -1.2063875202572631);
}

TEST(HamcmcTest, InvalidOptionsAreClearErrors) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  const std::vector<double> zero = {0.0, 0.0};
  EXPECT_EQ(Hamcmc::Create(model, zero, Options(StepSizeOptions::Constant(1e-3), 10, 1, 1))
                .status()
                .message(),
            "HamcmcOptions.memory must be in [2, 65], got 1");
  EXPECT_EQ(Hamcmc::Create(model, zero, Options(StepSizeOptions::Hamcmc(-0.1), 10, 1, 2))
                .status()
                .message(),
            "Hamcmc: StepSizeOptions.a must be finite and > 0, got -0.1");
  EXPECT_EQ(Hamcmc::Create(model, zero, Options(StepSizeOptions::Constant(1e-3), 10, 1, 2, 0.0))
                .status()
                .message(),
            "HamcmcOptions.gamma must be finite and > 0, got 0");
  EXPECT_EQ(Hamcmc::Create(model, zero, Options(StepSizeOptions::Constant(1e-3), 10, 1, 2, 1, -1))
                .status()
                .message(),
            "HamcmcOptions.damping must be finite and >= 0, got -1");
  HamcmcOptions options = Options(StepSizeOptions::Constant(1e-3), 10, 1, 2);
  options.warmup_step = 0;
  EXPECT_EQ(Hamcmc::Create(model, zero, options).status().message(),
            "HamcmcOptions.warmup_step must be finite and > 0, got 0");
  options = Options(StepSizeOptions::Constant(1e-3), 10, 1, 2);
  options.initial_diagonal = {1.0, -1.0};
  EXPECT_EQ(Hamcmc::Create(model, zero, options).status().message(),
            "HamcmcOptions.initial_diagonal[1] must be finite and > 0, got -1");
  options.initial_diagonal = {1.0, 1.0, 1.0};
  EXPECT_EQ(Hamcmc::Create(model, zero, options).status().message(),
            "HamcmcOptions.initial_diagonal has 3 entries; the model's dimension is 2");
}

TEST(HamcmcTest, RestoreValidatesTheMemory) {
  const models::LinearRegression model = TestModel(2, 100, 0.5, 1);
  const HamcmcOptions options = Options(StepSizeOptions::Constant(1e-3), 10, 1, 3);
  std::unique_ptr<Hamcmc> hamcmc = *Hamcmc::Create(model, {0.0, 0.0}, options);
  for (int m = 0; m < 10; ++m) hamcmc->Step();
  const SamplerState good = hamcmc->SaveState();
  ASSERT_EQ(good.history_size(), 3);
  ASSERT_EQ(good.lbfgs_pairs_size(), 2);
  SamplerState bad = good;
  bad.mutable_history()->RemoveLast();
  EXPECT_EQ(hamcmc->RestoreState(bad).message(),
            "SamplerState.history has 2 samples, expected 3 for M = 3");
  bad = good;
  bad.mutable_lbfgs_pairs(0)->set_iteration(4);
  EXPECT_EQ(hamcmc->RestoreState(bad).message(),
            "SamplerState.lbfgs_pairs[0].iteration is 4, expected 9");
  bad = good;
  bad.mutable_lbfgs_pairs()->RemoveLast();
  EXPECT_EQ(hamcmc->RestoreState(bad).message(),
            "SamplerState.lbfgs_pairs has 1 pairs, expected 2 at iteration 10 for M = 3");
  bad = good;
  bad.set_theta(0, 123.0);
  EXPECT_EQ(hamcmc->RestoreState(bad).message(),
            "SamplerState.history: the newest sample must equal SamplerState.theta");
  EXPECT_TRUE(hamcmc->RestoreState(good).ok());
}

}  // namespace
}  // namespace sgmcmc::samplers
