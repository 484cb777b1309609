// Test helpers (testonly) for the Euclidean samplers' acceptance tests on Bayesian linear
// regression (models/linear_regression.h), whose posterior N(mu, Sigma) is known exactly.
//
// 1. The discretisation bias each test allows is derived, not guessed. For a Gaussian
//    target with precision P a preconditioned Langevin step
//      theta' = theta - h G (P theta - c + nu) + sqrt(2 h) G^(1/2) xi
//    (G = I: SGLD; G = F^-1: dense SGRLD; G = diag(...): pSGLD with a settled V; G ~ H_t:
//    HAMCMC) is a linear autoregression whose stationary covariance solves the discrete
//    Lyapunov equation Sigma_h = A Sigma_h A' + Q with A = I - h G P and
//    Q = 2 h G + h^2 G V G, where V is the covariance of the minibatch gradient noise nu,
//    averaged over the posterior (MinibatchGradientNoise: exact for sampling without
//    replacement). Sigma_h - Sigma is the O(h) bias of the chain; the part the constant-V
//    approximation misses is O(h^2). SghmcCovariance does the same for the (theta, p) chain
//    of SGHMC (and SGNHT at its equilibrium friction). The stationary mean of these linear
//    chains is exactly mu.
// 2. CheckGaussianMoments compares pooled chain averages of theta_j and of
//    (theta_i - mu_i)(theta_j - mu_j) with mu and Sigma. Each statistic's Monte Carlo standard
//    error is sd / sqrt(ESS) with the multi-chain ESS of eval/ess.h; with K statistics the
//    per-statistic threshold is the two-sided normal quantile at false_failure_rate / K
//    (Bonferroni), so a correct sampler fails with probability <= false_failure_rate. The
//    allowance for the discretisation bias is added on top; the table of estimates,
//    targets, standard errors and allowances is printed on failure (and by
//    PrintMomentTable).
//
// Cost: O(D^6) for the Lyapunov solves (tests use D <= 3); O(chains x T log T) for the ESS.
//
// Example:
//   const Eigen::MatrixXd v = MinibatchGradientNoise(model, /*batch_size=*/10, exact);
//   const Eigen::MatrixXd biased = PreconditionedLangevinCovariance(precision, v, I, h);
//   EXPECT_TRUE(CheckGaussianMoments(chains, exact, MeanAllowance(0), CovarianceAllowance(...)));
#ifndef SGMCMC_MODELS_POSTERIOR_MOMENTS_TESTING_H_
#define SGMCMC_MODELS_POSTERIOR_MOMENTS_TESTING_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "models/linear_regression.h"
#include "samplers/sampler.h"

namespace sgmcmc::models {

// A correlated 2-D or 3-D linear regression small enough that chains of 10^6 iterations
// run in about a second: N items, sigma^2 = 1, AR(1) covariate correlation rho and scale
// ratio 2.
models::LinearRegression TestModel(int dimension, int64_t num_items, double rho, uint64_t seed);

// Covariance of the N/n-scaled minibatch gradient of `model` (n = batch_size, sampled
// without replacement), averaged over theta ~ posterior: (N^2/n)(1 - n/N) E[S^2(theta)]
// with S^2 the (N-1)-normalised covariance of the per-item gradients.
Eigen::MatrixXd MinibatchGradientNoise(const models::LinearRegression& model, int64_t batch_size,
                                       const models::GaussianPosterior& posterior);

// Stationary covariance of theta' = (I - h G P) theta + noise with noise covariance
// 2 h G + h^2 G V G. G symmetric positive definite.
Eigen::MatrixXd PreconditionedLangevinCovariance(const Eigen::MatrixXd& precision,
                                                 const Eigen::MatrixXd& gradient_noise,
                                                 const Eigen::MatrixXd& preconditioner, double h);

// Stationary covariance of theta under p' = (1 - h C) p - h (P theta - c + nu) +
// N(0, 2 (C - B) h I), theta' = theta + h p'.
Eigen::MatrixXd SghmcCovariance(const Eigen::MatrixXd& precision,
                                const Eigen::MatrixXd& gradient_noise, double h, double friction,
                                double gradient_noise_estimate);

// Draws of several chains: chains[c] holds T draws of length D, row-major.
struct Chains {
  int dimension = 0;
  std::vector<std::vector<double>> draws;
};

// Runs one chain per seed: make(seed) creates the sampler; `burn_in` iterations are
// discarded, then `iterations` run and every `thin`-th draw is kept. With interleave = M > 1
// each run is split into its M interleaved subchains (draws t = r, r + M, r + 2M, ...), each
// thinned by `thin` and returned as its own chain: HAMCMC moves theta_t from theta_{t-M}, so
// its draws form M nearly independent subchains, and an autocorrelation taken across them
// (period-M, not decreasing) would break Geyer's ESS estimator.
Chains RunChains(const std::function<std::unique_ptr<samplers::Sampler>(uint64_t)>& make,
                 const std::vector<uint64_t>& seeds, int64_t burn_in, int64_t iterations, int thin,
                 int interleave = 1);

// The checks described above. mean_allowance (length D) and covariance_allowance (D x D)
// are the absolute bias allowances.
::testing::AssertionResult CheckGaussianMoments(const Chains& chains,
                                              const models::GaussianPosterior& exact,
                                              const Eigen::VectorXd& mean_allowance,
                                              const Eigen::MatrixXd& covariance_allowance,
                                              double false_failure_rate = 1e-6);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_POSTERIOR_MOMENTS_TESTING_H_
