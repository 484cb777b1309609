// Uniform variates from an Engine: doubles on the open interval (0, 1) and integers on
// [0, n) without modulo bias.
//
// UniformDouble uses the top 52 bits of one engine word and adds half a grid step, so it
// never returns 0 or 1 (exactly representable: k + 1/2 needs 53 bits) and log(u), 1/u are
// always finite. The smallest value is 2^-53, the largest 1 - 2^-53. UniformInt uses Lemire's multiply-shift
// method with rejection (Lemire 2019, "Fast random integer generation in an interval").
// Cost: one engine word per draw (UniformInt rejects with probability < n / 2^64).
//
// Example:
//   double u = UniformDouble(engine);          // in (0, 1)
//   uint64_t i = UniformInt(engine, n);        // in [0, n), n >= 1
#ifndef SGMCMC_RNG_UNIFORM_H_
#define SGMCMC_RNG_UNIFORM_H_

#include <cstdint>

#include "base/check.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

// Uniform on (0, 1): (k + 1/2) / 2^52 for k uniform on {0, ..., 2^52 - 1}.
inline double UniformDouble(Engine& engine) {
  return (static_cast<double>(engine() >> 12) + 0.5) * 0x1p-52;
}

// Uniform on (lo, hi).
inline double UniformDouble(Engine& engine, double lo, double hi) {
  return lo + (hi - lo) * UniformDouble(engine);
}

// Uniform on {0, ..., n - 1}; n must be at least 1.
inline uint64_t UniformInt(Engine& engine, uint64_t n) {
  SGMCMC_DCHECK(n >= 1) << "UniformInt: n must be >= 1";
  unsigned __int128 m = static_cast<unsigned __int128>(engine()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (__builtin_expect(low < n, 0)) {
    const uint64_t threshold = -n % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(engine()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_UNIFORM_H_
