#include "rng/generalized_gamma.h"

#include <cmath>

#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"

namespace sgmcmc::rng {

double GeneralizedGammaSample(Engine& engine, double a, double d, double p) {
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "a", a);
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "d", d);
  rng_internal::CheckPositiveFinite("GeneralizedGammaSample", "p", p);
  return a * std::exp(LogGammaSample(engine, d / p) / p);
}

}  // namespace sgmcmc::rng
