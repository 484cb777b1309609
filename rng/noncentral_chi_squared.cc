#include "rng/noncentral_chi_squared.h"

#include <cmath>
#include <cstdint>

#include "base/check.h"
#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"
#include "rng/normal.h"
#include "rng/poisson.h"

namespace sgmcmc::rng {
namespace {

// From this df on, the draw is split as (Z + sqrt(lambda))^2 + ChiSquared(df - 1); below it
// the Poisson mixture is used (ChiSquared(df - 1) does not exist for df < 1).
constexpr double kSplitMinDf = 1;

void CheckArguments(const char* function, double df, double noncentrality) {
  rng_internal::CheckPositiveFinite(function, "df", df);
  SGMCMC_CHECK(noncentrality >= 0 && noncentrality <= 2 * kMaxPoissonMean)
      << function << ": noncentrality must be in [0, 2^63] (not NaN), got " << noncentrality;
}

// Gamma shape df / 2 + P with P ~ Poisson(noncentrality / 2): the mixture for df < 1.
double MixtureShape(Engine& engine, double df, double noncentrality) {
  const int64_t p = PoissonSample(engine, 0.5 * noncentrality);
  return 0.5 * df + static_cast<double>(p);
}

// Z + sqrt(noncentrality), Z ~ N(0, 1): its square is noncentral chi-squared with 1 df.
double ShiftedNormal(Engine& engine, double noncentrality) {
  return NormalSample(engine) + std::sqrt(noncentrality);
}

}  // namespace

double NoncentralChiSquaredSample(Engine& engine, double df, double noncentrality) {
  CheckArguments("NoncentralChiSquaredSample", df, noncentrality);
  if (df < kSplitMinDf) {
    return 2 * GammaSample(engine, MixtureShape(engine, df, noncentrality));
  }
  const double shifted = ShiftedNormal(engine, noncentrality);
  const double central = df == 1 ? 0.0 : 2 * GammaSample(engine, 0.5 * (df - 1));
  return shifted * shifted + central;
}

double LogNoncentralChiSquaredSample(Engine& engine, double df, double noncentrality) {
  CheckArguments("LogNoncentralChiSquaredSample", df, noncentrality);
  if (df < kSplitMinDf) {
    return M_LN2 + LogGammaSample(engine, MixtureShape(engine, df, noncentrality));
  }
  // log of (Z + sqrt(lambda))^2: -inf only if Z + sqrt(lambda) is exactly 0.
  const double log_shifted = 2 * std::log(std::fabs(ShiftedNormal(engine, noncentrality)));
  if (df == 1) return log_shifted;
  const double log_central = M_LN2 + LogGammaSample(engine, 0.5 * (df - 1));
  // log(e^a + e^b) without overflow or underflow: max + log1p(e^(min - max)).
  const double hi = std::fmax(log_shifted, log_central);
  const double lo = std::fmin(log_shifted, log_central);
  return hi + std::log1p(std::exp(lo - hi));
}

}  // namespace sgmcmc::rng
