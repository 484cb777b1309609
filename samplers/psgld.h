// pSGLD: preconditioned SGLD with an RMSprop preconditioner (Li, Chen, Carlson & Carin 2016,
// "Preconditioned stochastic gradient Langevin dynamics", Algorithm 1), in the form the
// HAMCMC paper writes it (Simsekli et al. 2016, Sec. 3.1):
//   g-bar = (1/n) sum_{i in S} grad log p(x_i | theta)          (minibatch mean)
//   V     <- alpha V + (1 - alpha) g-bar o g-bar                  (V starts at 0)
//   G     =  diag(1 / (lambda + sqrt(V)))
//   theta <- theta - h G grad U~(theta) + sqrt(2 h) G^(1/2) xi,    xi ~ N(0, I).
// V is updated with the current iteration's gradient before it is used.
//
// Bias: the correction term Gamma_i = sum_j d G_ij / d theta_j is dropped, as Li et al.'s
// practical algorithm and the HAMCMC paper's peers do. Because G depends on the chain's
// recent gradients this leaves an O(h) and O(1 - alpha) bias in the stationary distribution
// that does not vanish with more iterations at a fixed step (Li et al. 2016, Sec. 4); it is
// small when alpha is close to 1 (G then varies slowly).
//
// Cost per iteration: one stochastic gradient plus O(D): per coordinate one normal draw, two
// square roots and ~10 flops. Measured: samplers/psgld_benchmark.cc.
//
// Example:
//   PsgldOptions options;
//   options.chain.step_size = StepSizeOptions::Hamcmc(/*a=*/1e-3);
//   options.chain.batch_size = 100;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Psgld> sampler,
//                           Psgld::Create(model, theta0, options));
#ifndef SGMCMC_SAMPLERS_PSGLD_H_
#define SGMCMC_SAMPLERS_PSGLD_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct PsgldOptions {
  // Step size, minibatch size, seed and stream.
  ChainOptions chain;
  // alpha, the decay of the running average V; in [0, 1). Default 0.99 (Li et al.).
  double alpha = 0.99;
  // lambda, the regulariser added to sqrt(V); finite, > 0. Default 1e-5 (Li et al.).
  double lambda = 1e-5;

  absl::Status Validate(int64_t num_items) const;
};

class Psgld final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or initial_theta.
  static absl::StatusOr<std::unique_ptr<Psgld>> Create(const GradientModel& model,
                                                       absl::Span<const double> initial_theta,
                                                       const PsgldOptions& options);

  absl::string_view name() const override { return "psgld"; }
  void Step() override;

  // The running average V (length D).
  absl::Span<const double> second_moment() const { return second_moment_; }

 private:
  Psgld(const GradientModel& model, absl::Span<const double> initial_theta,
        const PsgldOptions& options);

  void SaveExtra(SamplerState& state) const override;
  absl::Status RestoreExtra(const SamplerState& state) override;

  double alpha_;
  double lambda_;
  std::vector<double> second_moment_;  // V
  std::vector<double> mean_grad_;      // g-bar
  std::vector<double> grad_;           // -grad log p(theta), then grad U~
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_PSGLD_H_
