// The naive peers of SGGMC and gSGNHT: SGHMC (Chen, Fox & Guestrin 2014) and SGNHT (Ding et
// al. 2014) run in the embedded space R^d with an Euler step and then pulled back onto the
// sphere by projection and renormalisation, as in the comparisons of Liu, Zhu & Song (2016).
// Per inner step (L per minibatch), with g = Λ(x)∇Ũ_H(x) and ζ ~ N(0, Λ(x)):
//   SGHMC: v ← (1 - εC) v - ε g + √((2C - εV̂) ε) ζ
//   SGNHT: v ← (1 - εξ) v - ε g + √((2C - εV̂) ε) ζ,  ξ ← ξ + (vᵀv/m - 1) ε   (ξ starts at C)
//   x ← (x + ε v) / ‖x + ε v‖ (per column),  v ← Λ(x) v.
// The renormalisation is the method (it is first order and biased); the geodesic samplers do
// not need it.
//
// Engine order per iteration: the minibatch ids, then d·K normals per inner step; at creation
// d·K normals for v ~ N(0, Λ(x)).
//
// Cost per iteration: L gradients plus O(L d K).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(auto s, EmbeddedSghmc::Create(model, x0, options));
#ifndef SGMCMC_SAMPLERS_EMBEDDED_SPHERE_H_
#define SGMCMC_SAMPLERS_EMBEDDED_SPHERE_H_

#include <memory>

#include "Eigen/Dense"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "samplers/sphere_model.h"
#include "samplers/sphere_sampler.h"

namespace sgmcmc::samplers {

class EmbeddedSphereSampler final : public SphereSampler {
 public:
  enum class Method { kSghmc, kSgnht };

  // `model` must outlive the sampler; InvalidArgument for bad options or x0.
  static absl::StatusOr<std::unique_ptr<EmbeddedSphereSampler>> Create(
      Method method, const SphereGradientModel& model,
      const Eigen::Ref<const Eigen::MatrixXd>& x0, const GeodesicSamplerOptions& options);

  // "embedded_sghmc" or "embedded_sgnht".
  absl::string_view name() const override;
  void Step() override;

 private:
  EmbeddedSphereSampler(Method method, const SphereGradientModel& model,
                        const Eigen::Ref<const Eigen::MatrixXd>& x0,
                        const GeodesicSamplerOptions& options);

  Method method_;
  GeodesicSamplerOptions options_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_EMBEDDED_SPHERE_H_
