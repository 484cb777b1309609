// DenseSgrld: stochastic gradient Riemannian Langevin dynamics with a dense metric, the
// SGRLD baseline of the HAMCMC paper's linear-Gaussian experiments (Simsekli et al. 2016,
// Sec. 4.1; Patterson & Teh 2013, eq. 8 with a full matrix):
//   G     = F(theta)^(-1),  F the expected Fisher information (samplers/fisher_model.h)
//   L L'  = G               (Cholesky)
//   theta <- theta - h G grad U~(theta) + sqrt(2 h) L xi,   xi ~ N(0, I).
// As in the paper, F is inverted and the inverse Cholesky-factored at every iteration, even
// when F is constant, so that the wall-clock comparison with HAMCMC is fair (paper,
// footnote 2). The correction term Gamma(theta) = sum_j d G_ij / d theta_j is not computed:
// the sampler is exact (up to the O(h) discretisation) only for a theta-independent Fisher
// information, as in Bayesian linear regression (models/regression/linear_regression.h).
//
// Cost per iteration: one stochastic gradient, one Fisher evaluation, two D x D Cholesky
// factorisations and a triangular inverse (~D^3 flops), and two D x D matrix-vector
// products: O(D^3) time; O(D^2) memory, allocated once. Measured:
// models/regression/linear_regression_dense_sgrld_benchmark.cc.
//
// Example:
//   DenseSgrldOptions options;
//   options.chain.step_size = StepSizeOptions::Hamcmc(/*a=*/0.1);
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<DenseSgrld> sampler,
//                           DenseSgrld::Create(linear_regression_model, theta0, options));
#ifndef SGMCMC_SAMPLERS_DENSE_SGRLD_H_
#define SGMCMC_SAMPLERS_DENSE_SGRLD_H_

#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/fisher_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct DenseSgrldOptions {
  // Step size, minibatch size, seed and stream.
  ChainOptions chain;

  absl::Status Validate(int64_t num_items) const { return chain.Validate(num_items); }
};

class DenseSgrld final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or initial_theta.
  static absl::StatusOr<std::unique_ptr<DenseSgrld>> Create(const FisherModel& model,
                                                            absl::Span<const double> initial_theta,
                                                            const DenseSgrldOptions& options);

  absl::string_view name() const override { return "dense_sgrld"; }
  // Checks (SGMCMC_CHECK) that the Fisher information is positive definite.
  void Step() override;

 private:
  DenseSgrld(const FisherModel& model, absl::Span<const double> initial_theta,
             const DenseSgrldOptions& options);

  void SaveExtra(SamplerState&) const override {}
  absl::Status RestoreExtra(const SamplerState&) override { return absl::OkStatus(); }

  const FisherModel& fisher_model_;
  Eigen::MatrixXd fisher_;  // F, then overwritten by G = F^-1
  Eigen::LLT<Eigen::MatrixXd> fisher_llt_;
  Eigen::LLT<Eigen::MatrixXd> metric_llt_;  // of G
  Eigen::VectorXd grad_;
  Eigen::VectorXd noise_;
  Eigen::VectorXd step_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_DENSE_SGRLD_H_
