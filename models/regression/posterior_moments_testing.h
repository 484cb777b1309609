// Test helpers (testonly) for the Euclidean samplers' acceptance tests on Bayesian linear
// regression (models/regression/linear_regression.h), whose posterior N(mu, Sigma) is known exactly.
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
// 3. An allowance centred on Sigma cannot tell the predicted bias from none or from the
//    opposite one. Where the chain is linear at a fixed step (SGLD, pSGLD with a fixed
//    preconditioner, dense SGRLD, SGHMC) ExactLangevinCovariance / ExactSghmcCovariance give
//    its stationary covariance Sigma_h with no approximation (the minibatch noise evaluated
//    at the chain's own second moment), CheckGaussianMoments with zero allowances tests the
//    chain against (mu, Sigma_h), and CheckBiasTrend tests that halving h shrinks the bias by
//    the predicted factor. HAMCMC and SGNHT are not linear chains (see their tests), so they
//    keep the allowance.
//
// Cost: O(D^6) for the Lyapunov solves (tests use D <= 3); O(chains x T log T) for the ESS.
//
// Example:
//   const Eigen::MatrixXd v = MinibatchGradientNoise(model, /*batch_size=*/10, exact);
//   const Eigen::MatrixXd biased = PreconditionedLangevinCovariance(precision, v, I, h);
//   EXPECT_TRUE(CheckGaussianMoments(chains, exact, MeanAllowance(0), CovarianceAllowance(...)));
#ifndef SGMCMC_MODELS_REGRESSION_POSTERIOR_MOMENTS_TESTING_H_
#define SGMCMC_MODELS_REGRESSION_POSTERIOR_MOMENTS_TESTING_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "gtest/gtest.h"
#include "models/regression/linear_regression.h"
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

// The exact stationary covariances. Given theta the minibatch noise nu (sampling without
// replacement, N/n-scaled) has mean 0 and a covariance quadratic in theta, so its average
// over the chain's own stationary law is V(S) = V0 + sum_i F_i S F_i' with S the chain's
// stationary covariance of theta (its mean is exactly mu): the Lyapunov equation stays
// linear in S and is solved exactly (vectorised), with no constant-V approximation and no
// O(h^2) remainder. Exact also for non-Gaussian nu: only second moments enter.
//
// SGLD / dense SGRLD / pSGLD with a fixed diagonal G: theta' = (I - h G P) theta + h G c
// - h G nu + sqrt(2 h) G^(1/2) xi, so S = A S A' + 2 h G + h^2 G V(S) G, A = I - h G P.
Eigen::MatrixXd ExactLangevinCovariance(const models::LinearRegression& model, int64_t batch_size,
                                        const Eigen::MatrixXd& preconditioner, double h);

// SGHMC (samplers/sghmc.h): p' = (1 - h C) p - h (P x + nu) + eta, x' = x + h p', with
// x = theta - mu, Cov(eta) = 2 (C - B) h I and nu evaluated at x: the (x, p) chain's
// Lyapunov equation with the noise term V(S_xx) as above. Returns the theta block.
Eigen::MatrixXd ExactSghmcCovariance(const models::LinearRegression& model, int64_t batch_size,
                                     double h, double friction, double gradient_noise_estimate);

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

// The pooled chain average of q_t = (theta_t - mean)' W (theta_t - mean) with its Monte Carlo
// standard error sd / sqrt(ESS) (multi-chain ESS of eval/ess.h). With W = P (the target's
// precision) and mean = mu, E[q] = tr(P S): D at the exact posterior, D + tr(P (S - Sigma))
// under the chain, one scalar that sums the covariance bias over all directions in the
// target's own metric.
struct MeanEstimate {
  double mean = 0;
  double standard_error = 0;
  double ess = 0;
};
MeanEstimate QuadraticFormMean(const Chains& chains, const Eigen::VectorXd& mean,
                               const Eigen::MatrixXd& weight);

// The h -> 0 trend. b(h) = E_h[q] - exact_value is the chain's bias in q at step h;
// predicted_h and predicted_half_h are the exact b(h) and b(h/2) (from the Lyapunov
// solutions above). Two checks, each at false_failure_rate / 2 (Bonferroni; z the two-sided
// normal quantile), on two independent runs' averages:
//  1. halving h leaves the predicted fraction of the bias, r = predicted_half_h /
//     predicted_h (~1/2 for first-order schemes): |b^(h/2) / b^(h) - r| <= z se_r, with the
//     delta-method se_r = sqrt(se(h/2)^2 + r^2 se(h)^2) / |predicted_h|;
//  2. halving h removes the predicted amount: |(E_h[q] - E_h/2[q]) - (predicted_h -
//     predicted_half_h)| <= z sqrt(se(h)^2 + se(h/2)^2) (this one needs no exact value).
// The delta method needs b(h) many standard errors from 0: the check fails (as an unpowered
// design) unless |predicted_h| >= 3 z se(h). A bias that does not shrink with h, an unbiased
// chain (check 2; check 1 sees a ratio of two noises) and the opposite bias (check 2) fail.
::testing::AssertionResult CheckBiasTrend(const MeanEstimate& at_h, const MeanEstimate& at_half_h,
                                          double exact_value, double predicted_h,
                                          double predicted_half_h,
                                          double false_failure_rate = 1e-6);

// The test of a discretised chain at h and h/2 against its own exact stationary law: for each
// step s in {h, h/2}, chains from make(s, seed) (seeds 21..24, `burn_in` iterations, then
// iterations_at_h h / s kept every `thin`-th) against (mu, covariance(s)) by
// CheckGaussianMoments with zero
// allowances, then CheckBiasTrend of q = (theta - mu)' P (theta - mu) with the predicted
// biases tr(P covariance(s)) - D (mu, P = Sigma^-1 of model.ExactPosterior()). Each check is
// an EXPECT_TRUE of the calling test; its message goes to std::cerr.
void ExpectDiscretisedChainLaw(
    const models::LinearRegression& model, double h,
    const std::function<Eigen::MatrixXd(double step)>& covariance,
    const std::function<std::unique_ptr<samplers::Sampler>(double step, uint64_t seed)>& make,
    int64_t burn_in, int64_t iterations_at_h, int thin);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_REGRESSION_POSTERIOR_MOMENTS_TESTING_H_
