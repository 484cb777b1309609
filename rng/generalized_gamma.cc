#include "rng/generalized_gamma.h"

#include <cmath>

#include "base/check.h"
#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"

namespace sgmcmc::rng {

double GeneralizedGammaSample(Engine& engine, double a, double d, double p) {
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "a", a);
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "d", d);
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "p", p);
  return a * std::exp(LogGammaSample(engine, d / p) / p);
}

double GeneralizedGammaPowerSample(Engine& engine, double shape, double rate, double power) {
  rng_internal::CheckPositiveFinite("GeneralizedGammaPowerSample", "shape", shape);
  rng_internal::CheckPositiveFinite("GeneralizedGammaPowerSample", "rate", rate);
  SGMCMC_CHECK(std::isfinite(power) && power != 0)
      << "GeneralizedGammaPowerSample: power must be finite and != 0, got " << power;
  return std::exp((LogGammaSample(engine, shape) - std::log(rate)) / power);
}

}  // namespace sgmcmc::rng
