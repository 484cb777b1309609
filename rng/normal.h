// Normal variates: a 256-layer ziggurat (Marsaglia & Tsang 2000, "The ziggurat method for
// generating random variables", J. Stat. Softw. 5(8)), exact including the tail beyond
// r = 3.654 (Marsaglia 1964's tail method, section 5 of the paper), and the normal log density.
//
// One engine word gives the layer, the sign and a 53-bit position, all from disjoint bits, so
// sign and magnitude are independent (the defect of the original 32-bit version pointed out
// by Doornik 2005 does not arise). About 99% of draws take the inlined fast path.
//
// Cost: O(1), one engine word on the fast path. Measured: rng/normal_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/1);
//   double z = sgmcmc::rng::NormalSample(engine);              // N(0, 1)
//   double x = sgmcmc::rng::NormalSample(engine, 2.0, 0.5);    // N(2, 0.25)
//   std::vector<double> noise(n);
//   sgmcmc::rng::FillNormal(engine, absl::MakeSpan(noise));
#ifndef SGMCMC_RNG_NORMAL_H_
#define SGMCMC_RNG_NORMAL_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/base/casts.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"
#include "rng/internal/ziggurat.h"

namespace sgmcmc::rng_internal {

// The normal ziggurat for f(x) = exp(-x^2 / 2); defined (constant-initialised) in normal.cc.
extern const ZigguratTable kNormalZiggurat;

// |Z| for a word that missed the fast path.
double HalfNormalSlowPath(rng::Engine& engine, uint64_t bits);

}  // namespace sgmcmc::rng_internal

namespace sgmcmc::rng {

// Standard normal N(0, 1).
inline double NormalSample(Engine& engine) {
  uint64_t bits;
  const double magnitude = rng_internal::ZigguratSample<rng_internal::HalfNormalSlowPath>(
      engine, rng_internal::kNormalZiggurat, bits);
  // Bit 8 of the first word becomes the sign bit; it is independent of the magnitude.
  const uint64_t sign = (bits & rng_internal::kZigguratSignBit)
                        << (63 - rng_internal::kZigguratLayerBits);
  return absl::bit_cast<double>(absl::bit_cast<uint64_t>(magnitude) ^ sign);
}

// N(mean, sd^2); mean finite, sd finite and >= 0 (sd = 0 returns mean).
inline double NormalSample(Engine& engine, double mean, double sd) {
  SGMCMC_CHECK(std::isfinite(mean)) << "NormalSample: mean must be finite, got " << mean;
  SGMCMC_CHECK(sd >= 0 && sd < std::numeric_limits<double>::infinity())
      << "NormalSample: sd must be finite and >= 0, got " << sd;
  return mean + sd * NormalSample(engine);
}

// Fills `out` with independent N(0, 1) draws (the same values as repeated NormalSample calls).
void FillNormal(Engine& engine, absl::Span<double> out);

// log of the N(mean, sd^2) density at x; sd > 0.
double NormalLogPdf(double x, double mean, double sd);

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_NORMAL_H_
