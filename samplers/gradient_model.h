// GradientModel: the interface every Euclidean sampler (SGLD, pSGLD, SGHMC, SGNHT, dense
// SGRLD, HAMCMC) consumes, and StochasticPotentialGradient, the unbiased minibatch estimate
//   grad U~(theta) = -grad log p(theta) - (N/n) sum_{i in S} grad log p(x_i | theta)
// of the gradient of the potential U(theta) = -log p(theta) - sum_i log p(x_i | theta)
// (Welling & Teh 2011, eq. 4; HAMCMC paper, Simsekli et al. 2016, Sec. 2, eq. 1-3).
//
// A model is a thin interface in the spirit of Ceres' CostFunction: one virtual call per
// gradient evaluation (never per coordinate), outputs in caller-owned spans, and no
// allocation per call, so it scales to millions of coordinates. The prior and the likelihood
// are separate methods so that samplers that need the minibatch mean of the per-item
// log-likelihood gradients (pSGLD's g-bar) obtain it from the same single pass over the data.
// The minibatch S itself is drawn by the sampler from its own stream (samplers/minibatch.h).
//
// Cost: StochasticPotentialGradient = one PriorPotentialGradient + one
// AddLikelihoodPotentialGradient; for linear regression O(D + n D).
//
// Example (a standard normal prior and no data: U = |theta|^2 / 2):
//   class StandardNormal : public GradientModel {
//    public:
//     int dimension() const override { return 3; }
//     int64_t num_items() const override { return 1; }
//     void PriorPotentialGradient(absl::Span<const double> theta,
//                                 absl::Span<double> out) const override {
//       std::copy(theta.begin(), theta.end(), out.begin());
//     }
//     void AddLikelihoodPotentialGradient(absl::Span<const double>, absl::Span<const int64_t>,
//                                         double, absl::Span<double>) const override {}
//   };
//   StochasticPotentialGradient(model, theta, batch, absl::MakeSpan(grad));
#ifndef SGMCMC_SAMPLERS_GRADIENT_MODEL_H_
#define SGMCMC_SAMPLERS_GRADIENT_MODEL_H_

#include <cstdint>

#include "absl/types/span.h"

namespace sgmcmc::samplers {

class GradientModel {
 public:
  virtual ~GradientModel() = default;

  // D, the length of theta; >= 1.
  virtual int dimension() const = 0;
  // N, the number of data items the likelihood sums over; >= 1. Item ids are 0 .. N-1.
  virtual int64_t num_items() const = 0;

  // out = -grad log p(theta) (overwrites). theta and out have length D and do not alias.
  virtual void PriorPotentialGradient(absl::Span<const double> theta,
                                      absl::Span<double> out) const = 0;

  // out += scale * sum_{i in batch} -grad log p(x_i | theta). Every id in `batch` is in
  // [0, N); ids may repeat (each occurrence counts). theta and out have length D and do not
  // alias.
  virtual void AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                              absl::Span<const int64_t> batch, double scale,
                                              absl::Span<double> out) const = 0;
};

// grad_u = -grad log p(theta) - (N/n) sum_{i in batch} grad log p(x_i | theta), n =
// batch.size() >= 1: unbiased for grad U when `batch` is a uniform subset of size n.
void StochasticPotentialGradient(const GradientModel& model, absl::Span<const double> theta,
                                 absl::Span<const int64_t> batch, absl::Span<double> grad_u);

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_GRADIENT_MODEL_H_
