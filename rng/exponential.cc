#include "rng/exponential.h"

#include <cmath>

namespace sgmcmc::rng_internal {
namespace {

// Tail start and layer area of the 256-layer exponential ziggurat: the r for which the
// recursion x[i+1] = -log(exp(-x[i]) + v / x[i]) closes with v = (r + 1) exp(-r), solved in
// 50-digit arithmetic (mpmath): r = 7.697117470131049714044628,
// v = 0.003949659822581557219977572 (Marsaglia & Tsang 2000 give r = 7.69711747013104972).
constexpr double kExponentialR = 7.697117470131049714044628;
constexpr double kExponentialV = 0.003949659822581557219977572;

}  // namespace

constexpr ZigguratTable kExponentialZiggurat = MakeZigguratTable(
    kExponentialR, kExponentialV, [](double x) { return ConstexprExp(-x); },
    [](double y) { return -ConstexprLog(y); });

double ExponentialSlowPath(rng::Engine& engine, uint64_t bits) {
  return ZigguratSlowPath(
      engine, kExponentialZiggurat, bits, [](double x) { return std::exp(-x); },
      [](rng::Engine& e) { return kExponentialR + rng::ExponentialSample(e); });
}

}  // namespace sgmcmc::rng_internal
