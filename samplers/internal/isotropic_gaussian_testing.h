// IsotropicGaussian (testonly): the cheapest possible GradientModel, U(theta) = |theta|^2/2
// with a single data item whose likelihood is flat, so a stochastic gradient is one copy of
// theta. Benchmarks use it to time a sampler's own per-iteration work with the gradient
// (nearly) excluded; BM_IsotropicGaussianGradient in each benchmark reports what remains.
// It is also a FisherModel (Fisher information I) for the dense-metric samplers' tests.
//
// Cost: PriorPotentialGradient copies D doubles; AddLikelihoodPotentialGradient does nothing;
// ExpectedFisherInformation writes D^2 doubles.
//
// Example:
//   const IsotropicGaussian model(/*dimension=*/100000);
//   auto sgld = *samplers::Sgld::Create(model, std::vector<double>(100000, 0.0), options);
#ifndef SGMCMC_SAMPLERS_INTERNAL_ISOTROPIC_GAUSSIAN_TESTING_H_
#define SGMCMC_SAMPLERS_INTERNAL_ISOTROPIC_GAUSSIAN_TESTING_H_

#include <algorithm>
#include <cstdint>

#include "absl/types/span.h"
#include "samplers/fisher_model.h"

namespace sgmcmc::samplers_internal {

class IsotropicGaussian final : public samplers::FisherModel {
 public:
  explicit IsotropicGaussian(int dimension) : dimension_(dimension) {}

  int dimension() const override { return dimension_; }
  int64_t num_items() const override { return 1; }
  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override {
    std::copy(theta.begin(), theta.end(), out.begin());
  }
  void AddLikelihoodPotentialGradient(absl::Span<const double>, absl::Span<const int64_t>, double,
                                      absl::Span<double>) const override {}
  void ExpectedFisherInformation(absl::Span<const double>,
                                 absl::Span<double> fisher) const override {
    for (int i = 0; i < dimension_; ++i) {
      for (int j = 0; j < dimension_; ++j) fisher[i * dimension_ + j] = i == j ? 1 : 0;
    }
  }

 private:
  int dimension_;
};

}  // namespace sgmcmc::samplers_internal

#endif  // SGMCMC_SAMPLERS_INTERNAL_ISOTROPIC_GAUSSIAN_TESTING_H_
