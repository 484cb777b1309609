#include "rng/chi_squared.h"

#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"

namespace sgmcmc::rng {

double ChiSquaredSample(Engine& engine, double df) {
  rng_internal::CheckPositiveFinite("ChiSquaredSample", "df", df);
  return 2 * GammaSample(engine, 0.5 * df);
}

}  // namespace sgmcmc::rng
