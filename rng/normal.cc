#include "rng/normal.h"

#include <cmath>

#include "rng/uniform.h"

namespace sgmcmc::rng_internal {
namespace {

// Tail start and layer area of the 256-layer normal ziggurat: the r for which the recursion
// x[i+1] = f^-1(f(x[i]) + v / x[i]) closes with v = r f(r) + sqrt(pi/2) erfc(r / sqrt(2)),
// solved in 50-digit arithmetic (mpmath): r = 3.65415288536100877164543,
// v = 0.004928673233974655347361775 (Marsaglia & Tsang 2000 give r = 3.6541528853610088).
constexpr double kNormalR = 3.65415288536100877164543;
constexpr double kNormalV = 0.004928673233974655347361775;

// Marsaglia's exact tail method: with a = E1 / r and b = E2 (E1, E2 ~ Exp(1)), r + a
// conditioned on 2b > a^2 has the normal density restricted to [r, inf).
double NormalTail(rng::Engine& engine) {
  for (;;) {
    const double a = -std::log(rng::UniformDouble(engine)) / kNormalR;
    const double b = -std::log(rng::UniformDouble(engine));
    if (b + b > a * a) return kNormalR + a;
  }
}

}  // namespace

constexpr ZigguratTable kNormalZiggurat = MakeZigguratTable(
    kNormalR, kNormalV, [](double x) { return ConstexprExp(-0.5 * x * x); },
    [](double y) { return ConstexprSqrt(-2 * ConstexprLog(y)); });

double HalfNormalSlowPath(rng::Engine& engine, uint64_t bits) {
  return ZigguratSlowPath(
      engine, kNormalZiggurat, bits, [](double x) { return std::exp(-0.5 * x * x); }, NormalTail);
}

}  // namespace sgmcmc::rng_internal

namespace sgmcmc::rng {

void FillNormal(Engine& engine, absl::Span<double> out) {
  for (double& x : out) x = NormalSample(engine);
}

double NormalLogPdf(double x, double mean, double sd) {
  SGMCMC_CHECK(sd > 0) << "NormalLogPdf: sd must be > 0, got " << sd;
  // log(sqrt(2 pi))
  constexpr double kLogSqrt2Pi = 0.91893853320467274178032973640562;
  const double z = (x - mean) / sd;
  return -0.5 * z * z - std::log(sd) - kLogSqrt2Pi;
}

}  // namespace sgmcmc::rng
