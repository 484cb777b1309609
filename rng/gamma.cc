#include "rng/gamma.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/special_functions.h"
#include "rng/internal/shape_parameters.h"
#include "rng/normal.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Marsaglia & Tsang's sampler for shape a >= 1 with d = a - 1/3: returns v such that d * v is
// a Gamma(a, 1) draw (x ~ N(0, 1), v = (1 + c x)^3 with c = 1 / sqrt(9 d), accepted with
// probability exp(x^2 / 2 + d - d v + d log v), tried first by the squeeze 1 - 0.0331 x^4).
[[gnu::always_inline]] inline double MarsagliaTsangFactor(Engine& engine, double d) {
  const double c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = NormalSample(engine);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = UniformDouble(engine);
    const double x2 = x * x;
    if (u < 1 - 0.0331 * x2 * x2) return v;
    if (std::log(u) < 0.5 * x2 + d * (1 - v + std::log(v))) return v;
  }
}

// d for Marsaglia & Tsang's sampler at shape a >= 1, or at a + 1 for the boost of a < 1.
double BoostedD(double shape) { return shape >= 1 ? shape - 1.0 / 3 : shape + 2.0 / 3; }

}  // namespace

double GammaSample(Engine& engine, double shape) {
  rng_internal::CheckPositiveFinite("GammaSample", "shape", shape);
  const double d = BoostedD(shape);
  const double g = d * MarsagliaTsangFactor(engine, d);
  if (shape >= 1) return g;
  return g * std::exp(std::log(UniformDouble(engine)) / shape);
}

double LogGammaSample(Engine& engine, double shape) {
  rng_internal::CheckPositiveFinite("LogGammaSample", "shape", shape);
  const double d = BoostedD(shape);
  const double v = MarsagliaTsangFactor(engine, d);
  // d * v overflows only for shapes near DBL_MAX.
  const double log_g = d * v < kInfinity ? std::log(d * v) : std::log(d) + std::log(v);
  if (shape >= 1) return log_g;
  // log(U) / shape is -inf only once shape < -log(U) / DBL_MAX (shape < ~2e-307).
  return std::max(log_g + std::log(UniformDouble(engine)) / shape,
                  std::numeric_limits<double>::lowest());
}

double GammaLogPdf(double x, double shape, double rate) {
  rng_internal::CheckPositiveFinite("GammaLogPdf", "shape", shape);
  rng_internal::CheckPositiveFinite("GammaLogPdf", "rate", rate);
  if (x < 0 || x == kInfinity) return -kInfinity;
  return shape * std::log(rate) - linalg::LogGamma(shape) +
         rng_internal::ShapeLogTerm(shape, std::log(x)) - rate * x;
}

}  // namespace sgmcmc::rng
