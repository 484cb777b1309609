// FisherModel: a GradientModel that also provides the expected Fisher information of the
// posterior, E[-hess log p(theta, x)] (prior included), the metric of Riemannian Langevin
// dynamics (Girolami & Calderhead 2011; Patterson & Teh 2013, eq. 8). Consumed by
// DenseSgrld (samplers/dense_sgrld.h), the dense-metric SGRLD of the HAMCMC paper, Sec. 4.1.
//
// Cost: model-defined; the linear-regression model copies a precomputed D x D matrix, O(D^2).
//
// Example:
//   std::vector<double> fisher(D * D);
//   model.ExpectedFisherInformation(theta, absl::MakeSpan(fisher));  // row-major
#ifndef SGMCMC_SAMPLERS_FISHER_MODEL_H_
#define SGMCMC_SAMPLERS_FISHER_MODEL_H_

#include "absl/types/span.h"
#include "samplers/gradient_model.h"

namespace sgmcmc::samplers {

class FisherModel : public GradientModel {
 public:
  // fisher (D x D, row-major, symmetric positive definite) = the expected Fisher information
  // of the full posterior at theta (overwrites). theta has length D, fisher D * D.
  virtual void ExpectedFisherInformation(absl::Span<const double> theta,
                                         absl::Span<double> fisher) const = 0;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_FISHER_MODEL_H_
