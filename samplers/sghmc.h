// SGHMC: stochastic gradient Hamiltonian Monte Carlo with friction (Chen, Fox & Guestrin
// 2014, "Stochastic gradient Hamiltonian Monte Carlo", eq. 15 / Algorithm 2), unit mass:
//   p     <- p - h grad U~(theta) - h C p + N(0, 2 (C - B) h I)
//   theta <- theta + h p
// with friction C > 0 and B >= 0 an estimate of the gradient-noise variance (B = 0 uses all
// of C as injected noise, the common choice). The momentum starts at p ~ N(0, I), drawn from
// the chain's engine at creation. The stationary distribution of the continuous dynamics is
// p(theta | x) x N(p; 0, I); the discretisation adds an O(h) bias.
//
// Cost per iteration: one stochastic gradient plus O(D): one normal draw and ~6 flops per
// coordinate. Measured: samplers/sghmc_benchmark.cc.
//
// Example:
//   SghmcOptions options;
//   options.chain.step_size = StepSizeOptions::Constant(0.01);
//   options.friction = 1.0;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sghmc> sampler,
//                           Sghmc::Create(model, theta0, options));
#ifndef SGMCMC_SAMPLERS_SGHMC_H_
#define SGMCMC_SAMPLERS_SGHMC_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct SghmcOptions {
  // Step size, minibatch size, seed and stream.
  ChainOptions chain;
  // Friction C; finite, > 0. Default 1.
  double friction = 1.0;
  // Gradient-noise estimate B; in [0, friction]. Default 0.
  double gradient_noise = 0.0;

  absl::Status Validate(int64_t num_items) const;
};

class Sghmc final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or initial_theta.
  static absl::StatusOr<std::unique_ptr<Sghmc>> Create(const GradientModel& model,
                                                       absl::Span<const double> initial_theta,
                                                       const SghmcOptions& options);

  absl::string_view name() const override { return "sghmc"; }
  void Step() override;

  absl::Span<const double> momentum() const { return momentum_; }

 private:
  Sghmc(const GradientModel& model, absl::Span<const double> initial_theta,
        const SghmcOptions& options);

  void SaveExtra(SamplerState& state) const override;
  absl::Status RestoreExtra(const SamplerState& state) override;

  double friction_;
  double gradient_noise_;
  std::vector<double> momentum_;
  std::vector<double> grad_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SGHMC_H_
