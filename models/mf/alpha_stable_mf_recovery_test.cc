// Synthetic recovery of V = W H by Metropolis-and-SG-MCMC-within-Gibbs (models/mf/alpha_stable_mf.h)
// over several seeds, against an error rate derived from the noise level of the data.
#include <cmath>
#include <cstdint>
#include <iostream>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "models/mf/alpha_stable_mf.h"
#include "models/mf/matrix_factorization.h"
#include "rng/engine.h"

namespace sgmcmc::models {
namespace {

// Data from the one-source model, 100 x 100, K = 1, alpha = 1.2, for seeds 1, 2, 3. One |X_ij|^2
// pins log V_ij only to a standard deviation sigma = pi / sqrt(6) = 1.28 for every alpha
// (derived and checked in alpha_stable_mf_test, SyntheticLogPowerNoiseHasTheDerivedLaw); an
// efficient estimate of a rank-K matrix from I J such entries has relative error about
// e* = sigma sqrt(K (I + J - K) / (I J)) = 0.18 here, which an oracle log-domain fit attains
// (LogDomainOracleFitAttainsTheDerivedErrorRate: 0.16-0.20 on these seeds). The posterior mean
// of V is such an estimate, so each sampler's average of W H over the last 400 of 800 sweeps
// (log parametrisation, N_Omega = I J / 10) must have relative Frobenius error below 2 e* =
// 0.36 (the margin covers the Monte Carlo error of 400 correlated samples and the step-size
// bias) and below half the best constant matrix's (0.70-0.73 on these seeds), for every seed.
// The Metropolis acceptance rate must be in (0.1, 0.9). Measured, seeds 1 / 2 / 3: SGLD 0.18,
// 0.17, 0.18; pSGLD 0.18, 0.17, 0.18; HAMCMC 0.18, 0.17, 0.20; acceptance 0.53. Step sizes: the
// likelihood's curvature in log W_i is about (2 / alpha)^2 J = 280, so SGLD's 1e-3 moves a
// coordinate by ~0.04 per sweep against a posterior standard deviation ~0.06 (stable, small
// bias); HAMCMC's 0.3 scales its L-BFGS inverse Hessian.
constexpr int kSize = 100;
constexpr int kSweeps = 800;
constexpr int kAverageLast = 400;

void ExpectRecovery(MfMethod method, double step_size) {
  const double e_star = M_PI / std::sqrt(6.0) * std::sqrt((2.0 * kSize - 1) / (kSize * kSize));
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    AlphaStableSource source;
    source.alpha = 1.2;
    source.rank = 1;
    rng::Engine engine(seed, /*stream=*/3);
    const SyntheticAlphaStableData data = GenerateAlphaStableData(kSize, kSize, source, engine);
    const Eigen::MatrixXd truth = data.w * data.h;
    const double constant_error = (truth.array() - truth.mean()).matrix().norm() / truth.norm();
    AlphaStableMfOptions options;
    options.sources = {source};
    options.parametrization = AlphaStableParametrization::kLog;
    auto model = AlphaStableMf::Create(data.power, options);
    ASSERT_TRUE(model.ok()) << model.status();
    AlphaStableMfRunOptions run;
    run.sampler.method = method;
    run.sampler.seed = seed;
    run.sampler.iterations = kSweeps;
    run.sampler.batch_size = 0;
    run.sampler.step_size = step_size;
    run.sampler.psgld_lambda = 1;
    run.sampler.hamcmc_memory = 5;
    run.sampler.hamcmc_gamma = 1e-3;
    run.sampler.hamcmc_damping = 100;
    run.sampler.hamcmc_warmup_step = 1e-3;
    run.average_last = kAverageLast;
    auto result = RunAlphaStableMf(**model, run);
    ASSERT_TRUE(result.ok()) << result.status();
    const double error = (result->mean_v[0] - truth).norm() / truth.norm();
    EXPECT_LT(error, 2 * e_star) << MfMethodName(method) << " seed " << seed;
    EXPECT_LT(error, constant_error / 2) << MfMethodName(method) << " seed " << seed;
    EXPECT_GT(result->acceptance_rate, 0.1);
    EXPECT_LT(result->acceptance_rate, 0.9);
    std::cout << MfMethodName(method) << " seed " << seed << ": relative error " << error
              << " (e* " << e_star << ", constant " << constant_error << "), acceptance "
              << result->acceptance_rate << "\n";
  }
}

TEST(AlphaStableMfRecoveryTest, Sgld) { ExpectRecovery(MfMethod::kSgld, 1e-3); }
TEST(AlphaStableMfRecoveryTest, Psgld) { ExpectRecovery(MfMethod::kPsgld, 1e-3); }
TEST(AlphaStableMfRecoveryTest, Hamcmc) { ExpectRecovery(MfMethod::kHamcmc, 0.3); }

}  // namespace
}  // namespace sgmcmc::models
