#include "rng/stable.h"

#include <cmath>

#include "base/check.h"
#include "rng/exponential.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

double StableSample(Engine& engine, double alpha, double beta) {
  SGMCMC_CHECK(alpha > 0 && alpha <= 2) << "StableSample: alpha must be in (0, 2], got " << alpha;
  SGMCMC_CHECK(beta >= -1 && beta <= 1) << "StableSample: beta must be in [-1, 1], got " << beta;
  // UniformDouble is in (0, 1), so |v| < pi/2 and cos(v) > 0; w > 0.
  const double v = kPi * (UniformDouble(engine) - 0.5);
  const double w = ExponentialSample(engine);
  if (alpha == 1) {
    const double shifted = kPi / 2 + beta * v;
    return (2 / kPi) *
           (shifted * std::tan(v) - beta * std::log((kPi / 2) * w * std::cos(v) / shifted));
  }
  // The three powers of Weron's formula in one exp:
  // X = sin(alpha (v + b)) exp([log(1 + t^2) / 2 + (1 - alpha) log(cos(v - alpha (v + b)) / w)
  //                             - log(cos v)] / alpha),  t = beta tan(pi alpha / 2).
  const double t = beta * std::tan(kPi * alpha / 2);
  const double angle = alpha * v + std::atan(t);
  const double log_magnitude =
      (0.5 * std::log1p(t * t) + (1 - alpha) * std::log(std::cos(v - angle) / w) -
       std::log(std::cos(v))) /
      alpha;
  return std::sin(angle) * std::exp(log_magnitude);
}

}  // namespace sgmcmc::rng
