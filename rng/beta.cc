#include "rng/beta.h"

#include <cmath>
#include <limits>

#include "math/special_functions.h"
#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"

namespace sgmcmc::rng {
namespace {

using rng_internal::CheckPositiveFinite;
using rng_internal::ShapeLogTerm;

void CheckShapes(const char* function, double a, double b) {
  CheckPositiveFinite(function, "a", a);
  CheckPositiveFinite(function, "b", b);
}

}  // namespace

double BetaSample(Engine& engine, double a, double b) {
  CheckShapes("BetaSample", a, b);
  if (a >= 1 && b >= 1) {
    const double x = GammaSample(engine, a);
    const double y = GammaSample(engine, b);
    return x / (x + y);
  }
  const double log_x = LogGammaSample(engine, a);
  const double log_y = LogGammaSample(engine, b);
  return 1 / (1 + std::exp(log_y - log_x));
}

double BetaLogPdf(double x, double a, double b) {
  CheckShapes("BetaLogPdf", a, b);
  if (x < 0 || x > 1) return -std::numeric_limits<double>::infinity();
  return ShapeLogTerm(a, std::log(x)) + ShapeLogTerm(b, std::log1p(-x)) - math::LogBeta(a, b);
}

}  // namespace sgmcmc::rng
