// HAMCMC: Hessian-approximated MCMC, the stochastic quasi-Newton Langevin sampler of
// Simsekli, Badeau, Cemgil & Richard (2016), "Stochastic Quasi-Newton Langevin Monte Carlo",
// Sec. 3.2, eq. 10 and Algorithm 1. At iteration t (one-based; theta_0 is the initial point),
// with memory M >= 2:
//   Omega_t  a fresh minibatch;  z_t ~ N(0, I)
//   xi_t     = H_t grad U~_{Omega_t}(theta_{t-M})                      (two-loop recursion)
//   eta_t    = S_t z_t,  S_t S_t' = H_t                                 (eq. 11 product form)
//   theta_t  = theta_{t-M} - eps_t xi_t + sqrt(2 eps_t) eta_t          (eq. 10)
//   s_t      = theta_t - theta_{t-M}
//   y_t      = grad U~_{Omega_t}(theta_t) - grad U~_{Omega_t}(theta_{t-M}) + lambda s_t
// H_t is the L-BFGS matrix (eq. 6) from H^0 = gamma I (or the fixed options.initial_diagonal)
// and the M-1 pairs tau = t-M+1, ..., t-1 (linalg/lbfgs.h), so it never involves theta_{t-M}, the base point of the move: this is
// what makes the correction term Gamma vanish (paper, Sec. 3.2-3.3). Both gradients of y_t
// use the same minibatch Omega_t (data consistency); lambda damps towards
// (hess U + lambda I)^-1, which keeps H_t positive definite; a pair with
// s'y <= curvature_threshold |s| |y| is skipped but still takes its slot, so an old pair is
// never reused (docs/ALGORITHMS.md, "HAMCMC pitfalls").
//
// Warm-up: theta_1 ... theta_2M come from plain SGLD steps with their own constant step h_w
// (options.warmup_step),
//   theta_t = theta_{t-1} - h_w grad U~(theta_{t-1}) + sqrt(2 h_w) z_t,
// because the paper takes these 2M + 1 samples as given (Algorithm 1, input) and the steps
// eps_t that suit the preconditioned moves are far too large for SGLD on a stiff posterior;
// from t = M + 2 on the warm-up steps also record the pairs (s_t, y_t) above, so the first
// HAMCMC step t = 2M + 1 has its M - 1 pairs. The schedule eps_t is still indexed by t.
//
// Randomness per iteration: the minibatch ids, then D normals (in coordinate order).
//
// Cost per iteration: two stochastic gradients (three during warm-up steps t >= M + 2), plus
// O(M^2 D) for the L-BFGS products and the pair update, D normal draws and ~10 flops per
// coordinate; memory (3M - 2) D + 5 D doubles besides the L-BFGS store. Measured:
// samplers/hamcmc_benchmark.cc.
//
// Example:
//   HamcmcOptions options;
//   options.chain.step_size = StepSizeOptions::Hamcmc(/*a=*/0.1);
//   options.chain.batch_size = N / 100;
//   options.memory = 3;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Hamcmc> sampler,
//                           Hamcmc::Create(model, theta0, options));
//   for (int t = 0; t < 20000; ++t) sampler->Step();
#ifndef SGMCMC_SAMPLERS_HAMCMC_H_
#define SGMCMC_SAMPLERS_HAMCMC_H_

#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "linalg/lbfgs.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct HamcmcOptions {
  // Step size eps_t, minibatch size, seed and stream. The paper uses
  // StepSizeOptions::Hamcmc(a), eps_t = (a / t)^0.51.
  ChainOptions chain;
  // M, the lag of the base point and one more than the number of L-BFGS pairs; in
  // [2, linalg::LbfgsOptions::kMaxPairs + 1]. Default 2. The paper finds 2-5 adequate.
  int memory = 2;
  // gamma, the initial inverse-Hessian scale H^0 = gamma I; finite, > 0; of the order of
  // the posterior variances works well. Default 1.
  double gamma = 1.0;
  // H^0 = diag(initial_diagonal) instead of gamma I when not empty (then gamma is unused):
  // size = the model's dimension, entries finite and > 0 (a fixed preconditioner, e.g. the
  // inverse diagonal of the expected Fisher information; docs/ALGORITHMS.md, "HAMCMC with a
  // diagonal H^0"). Default empty.
  std::vector<double> initial_diagonal;
  // lambda, the damping y <- y + lambda s; finite, >= 0. Default 1.
  double damping = 1.0;
  // Pairs with s'y <= curvature_threshold |s| |y| are skipped; in [0, 1). Default 1e-10.
  double curvature_threshold = 1e-10;
  // h_w, the constant step of the 2M SGLD warm-up iterations; finite, > 0, and below
  // 2 / lambda_max(hess U) for a stable start. Default 1e-3.
  double warmup_step = 1e-3;

  absl::Status Validate(int64_t num_items) const;
};

class Hamcmc final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument (naming the field) for bad options,
  // e.g. memory < 2 or a negative step size, or a bad initial_theta.
  static absl::StatusOr<std::unique_ptr<Hamcmc>> Create(const GradientModel& model,
                                                        absl::Span<const double> initial_theta,
                                                        const HamcmcOptions& options);

  absl::string_view name() const override { return "hamcmc"; }
  void Step() override;

  int memory() const { return memory_; }
  // The L-BFGS memory the next HAMCMC step will use (pairs iteration()-M+2 ... iteration()).
  const linalg::Lbfgs& lbfgs() const { return lbfgs_; }

 private:
  Hamcmc(const GradientModel& model, absl::Span<const double> initial_theta,
         const HamcmcOptions& options);

  void SaveExtra(SamplerState& state) const override;
  absl::Status RestoreExtra(const SamplerState& state) override;

  // grad U~_batch(theta) into out.
  void Gradient(const double* theta, absl::Span<const int64_t> batch, Eigen::VectorXd& out);
  // First iteration whose pair a HAMCMC step can use: M + 2.
  int64_t first_pair_iteration() const { return memory_ + 2; }

  int memory_;
  double warmup_step_;
  linalg::Lbfgs lbfgs_;
  // theta_tau in column tau mod M, for tau = t-M ... t-1 (those >= 0).
  Eigen::MatrixXd history_;
  // The raw pairs (s_tau, y_tau without damping) in column tau mod (M-1), and tau (-1 while
  // empty): replayed into lbfgs_ on restore.
  Eigen::MatrixXd pair_s_;
  Eigen::MatrixXd pair_y_;
  std::vector<int64_t> pair_iteration_;
  Eigen::VectorXd grad_base_;  // grad U~_{Omega_t}(theta_{t-M}) (or theta_{t-1} in warm-up)
  Eigen::VectorXd grad_new_;   // grad U~_{Omega_t}(theta_t)
  Eigen::VectorXd drift_;      // H_t grad
  Eigen::VectorXd noise_;      // z_t, then S_t z_t
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_HAMCMC_H_
