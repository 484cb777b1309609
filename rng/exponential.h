// Exponential variates with rate 1: a 256-layer ziggurat (Marsaglia & Tsang 2000, "The
// ziggurat method for generating random variables", J. Stat. Softw. 5(8)), exact; the tail
// beyond r = 7.697 is r plus a fresh Exp(1) draw (memorylessness).
//
// Draws are strictly positive (the position in a layer is offset by half a grid step), so
// log(ExponentialSample(engine)) is always finite.
//
// Cost: O(1), one engine word on the fast path. Measured: rng/exponential_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double e = sgmcmc::rng::ExponentialSample(engine);   // Exp(1)
//   double t = sgmcmc::rng::ExponentialSample(engine) / rate;
#ifndef SGMCMC_RNG_EXPONENTIAL_H_
#define SGMCMC_RNG_EXPONENTIAL_H_

#include <cstdint>

#include "rng/engine.h"
#include "rng/internal/ziggurat.h"

namespace sgmcmc::rng_internal {

// The exponential ziggurat for f(x) = exp(-x); defined (constant-initialised) in
// exponential.cc.
extern const ZigguratTable kExponentialZiggurat;

// Exp(1) for a word that missed the fast path.
double ExponentialSlowPath(rng::Engine& engine, uint64_t bits);

}  // namespace sgmcmc::rng_internal

namespace sgmcmc::rng {

// Exp(1): density exp(-x) on (0, inf).
inline double ExponentialSample(Engine& engine) {
  uint64_t bits;
  return rng_internal::ZigguratSample<rng_internal::ExponentialSlowPath>(
      engine, rng_internal::kExponentialZiggurat, bits);
}

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_EXPONENTIAL_H_
