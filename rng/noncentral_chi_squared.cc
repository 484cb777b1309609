#include "rng/noncentral_chi_squared.h"

#include <cmath>
#include <cstdint>

#include "base/check.h"
#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"
#include "rng/poisson.h"

namespace sgmcmc::rng {
namespace {

// Gamma shape df / 2 + P with P ~ Poisson(noncentrality / 2), after checking the arguments.
double MixtureShape(Engine& engine, const char* function, double df, double noncentrality) {
  rng_internal::CheckPositiveFinite(function, "df", df);
  SGMCMC_CHECK(noncentrality >= 0 && noncentrality <= 2 * kMaxPoissonMean)
      << function << ": noncentrality must be in [0, 2^63] (not NaN), got " << noncentrality;
  const int64_t p = PoissonSample(engine, 0.5 * noncentrality);
  return 0.5 * df + static_cast<double>(p);
}

}  // namespace

double NoncentralChiSquaredSample(Engine& engine, double df, double noncentrality) {
  return 2 *
         GammaSample(engine, MixtureShape(engine, "NoncentralChiSquaredSample", df, noncentrality));
}

double LogNoncentralChiSquaredSample(Engine& engine, double df, double noncentrality) {
  return M_LN2 + LogGammaSample(engine, MixtureShape(engine, "LogNoncentralChiSquaredSample", df,
                                                     noncentrality));
}

}  // namespace sgmcmc::rng
