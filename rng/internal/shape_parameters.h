// Shared handling of the positive shape/scale parameters of the continuous generators in
// //rng (gamma, beta, Dirichlet, chi-squared, generalised gamma): argument validation with
// messages naming function and argument, and the (shape - 1) log x term of their densities.
//
// Cost: a compare per check; the log term is one multiply.
//
// Example:
//   CheckPositiveFinite("GammaSample", "shape", shape);
//   double lp = ShapeLogTerm(shape, std::log(x)) - x - LogGamma(shape);
#ifndef SGMCMC_RNG_INTERNAL_SHAPE_PARAMETERS_H_
#define SGMCMC_RNG_INTERNAL_SHAPE_PARAMETERS_H_

#include <limits>

#include "base/check.h"

namespace sgmcmc::rng_internal {

// The failing branch of CheckPositiveFinite, kept out of line so that the check itself is two
// compares inlined into the generators.
[[gnu::cold, gnu::noinline]] inline void FailPositiveFinite(const char* function,
                                                            const char* argument, double value) {
  SGMCMC_CHECK(value > 0 && value < std::numeric_limits<double>::infinity())
      << function << ": " << argument << " must be finite and > 0, got " << value;
}

// Checks 0 < value < inf (NaN fails), reporting e.g.
// "GammaSample: shape must be finite and > 0, got -1".
inline void CheckPositiveFinite(const char* function, const char* argument, double value) {
  if (__builtin_expect(!(value > 0 && value < std::numeric_limits<double>::infinity()), 0)) {
    FailPositiveFinite(function, argument, value);
  }
}

// (shape - 1) * log_x with the convention 0 * log(0) = 0 at shape = 1, so that densities
// with a power x^(shape - 1) are right at x = 0 (+inf, finite, -inf for shape <, =, > 1).
inline double ShapeLogTerm(double shape, double log_x) {
  return shape == 1 ? 0 : (shape - 1) * log_x;
}

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_SHAPE_PARAMETERS_H_
