// SGNHT: the stochastic gradient Nose-Hoover thermostat (Ding, Fang, Babbush, Chen, Skeel &
// Neven 2014, "Bayesian sampling using stochastic gradient thermostats", Algorithm 1), unit
// mass:
//   p     <- p - zeta h p - h grad U~(theta) + sqrt(2 A h) xi,   xi ~ N(0, I)
//   theta <- theta + h p
//   zeta  <- zeta + (p'p / D - 1) h
// The thermostat zeta adapts the friction until the kinetic energy per coordinate is 1/2,
// absorbing the unknown gradient-noise variance; A > 0 is the injected diffusion. The
// momentum starts at p ~ N(0, I) (drawn from the chain's engine at creation), zeta at
// `initial_thermostat` (Ding et al. start it at A).
//
// Cost per iteration: one stochastic gradient plus O(D): one normal draw and ~8 flops per
// coordinate. Measured: samplers/sgnht_benchmark.cc.
//
// Example:
//   SgnhtOptions options;
//   options.chain.step_size = StepSizeOptions::Constant(0.01);
//   options.diffusion = 1.0;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sgnht> sampler,
//                           Sgnht::Create(model, theta0, options));
#ifndef SGMCMC_SAMPLERS_SGNHT_H_
#define SGMCMC_SAMPLERS_SGNHT_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct SgnhtOptions {
  // Step size, minibatch size, seed and stream.
  ChainOptions chain;
  // Diffusion A; finite, > 0. Default 1.
  double diffusion = 1.0;
  // zeta at iteration 0; finite. Default 1 (= the default A).
  double initial_thermostat = 1.0;

  absl::Status Validate(int64_t num_items) const;
};

class Sgnht final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or initial_theta.
  static absl::StatusOr<std::unique_ptr<Sgnht>> Create(const GradientModel& model,
                                                       absl::Span<const double> initial_theta,
                                                       const SgnhtOptions& options);

  absl::string_view name() const override { return "sgnht"; }
  void Step() override;

  absl::Span<const double> momentum() const { return momentum_; }
  double thermostat() const { return thermostat_; }

 private:
  Sgnht(const GradientModel& model, absl::Span<const double> initial_theta,
        const SgnhtOptions& options);

  void SaveExtra(SamplerState& state) const override;
  absl::Status RestoreExtra(const SamplerState& state) override;

  double diffusion_;
  double thermostat_;
  std::vector<double> momentum_;
  std::vector<double> grad_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SGNHT_H_
