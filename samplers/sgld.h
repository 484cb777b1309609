// SGLD: stochastic gradient Langevin dynamics (Welling & Teh 2011, eq. 4; HAMCMC paper,
// Simsekli et al. 2016, eq. 3):
//   theta <- theta - h grad U~(theta) + sqrt(2 h) xi,   xi ~ N(0, I),
// with grad U~ the minibatch estimate of samplers/gradient_model.h and h from the schedule.
// (This is the HAMCMC paper's convention: drift h, noise variance 2h.)
//
// Cost per iteration: one stochastic gradient plus O(D): D normal draws and 2 flops per
// coordinate. Measured: samplers/sgld_benchmark.cc.
//
// Example:
//   SgldOptions options;
//   options.chain.step_size = StepSizeOptions::Hamcmc(/*a=*/1e-3);
//   options.chain.batch_size = 100;
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sgld> sgld, Sgld::Create(model, theta0, options));
//   for (int m = 0; m < 10000; ++m) sgld->Step();
#ifndef SGMCMC_SAMPLERS_SGLD_H_
#define SGMCMC_SAMPLERS_SGLD_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::samplers {

struct SgldOptions {
  // Step size, minibatch size, seed and stream.
  ChainOptions chain;

  absl::Status Validate(int64_t num_items) const { return chain.Validate(num_items); }
};

class Sgld final : public EuclideanSampler {
 public:
  // `model` must outlive the sampler; InvalidArgument for bad options or initial_theta.
  static absl::StatusOr<std::unique_ptr<Sgld>> Create(const GradientModel& model,
                                                      absl::Span<const double> initial_theta,
                                                      const SgldOptions& options);

  absl::string_view name() const override { return "sgld"; }
  void Step() override;

 private:
  Sgld(const GradientModel& model, absl::Span<const double> initial_theta,
       const SgldOptions& options);

  void SaveExtra(SamplerState&) const override {}
  absl::Status RestoreExtra(const SamplerState&) override { return absl::OkStatus(); }

  std::vector<double> grad_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SGLD_H_
