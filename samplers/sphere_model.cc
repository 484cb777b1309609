#include "samplers/sphere_model.h"

#include "base/check.h"

namespace sgmcmc::samplers {

void StochasticSphereGradient(const SphereGradientModel& model,
                              const Eigen::Ref<const Eigen::MatrixXd>& x,
                              absl::Span<const int64_t> batch, Eigen::Ref<Eigen::MatrixXd> grad) {
  SGMCMC_CHECK(!batch.empty());
  SGMCMC_CHECK(grad.rows() == x.rows() && grad.cols() == x.cols());
  model.PriorPotentialGradient(x, grad);
  const double scale =
      static_cast<double>(model.num_items()) / static_cast<double>(batch.size());
  model.AddLikelihoodPotentialGradient(x, batch, scale, grad);
}

}  // namespace sgmcmc::samplers
