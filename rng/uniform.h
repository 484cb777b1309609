// Uniform variates from an Engine: doubles on the open interval (0, 1) and integers on
// [0, n) without modulo bias.
//
// UniformDouble uses the top 52 bits of one engine word and adds half a grid step, so it
// never returns 0 or 1 (exactly representable: k + 1/2 needs 53 bits) and log(u), 1/u are
// always finite. The smallest value is 2^-53, the largest 1 - 2^-53. UniformInt uses
// Lemire's multiply-shift method with rejection (Lemire 2019, "Fast random integer generation
// in an interval").
// Cost: O(1), one engine word per draw (UniformInt rejects with probability < n / 2^64).
// FillUniformDouble writes whole Philox batches straight into the output (no per-word buffer
// check). Measured: rng/uniform_benchmark.cc.
//
// Example:
//   double u = UniformDouble(engine);          // in (0, 1)
//   FillUniformDouble(engine, absl::MakeSpan(buffer));  // buffer.size() uniforms
//   uint64_t i = UniformInt(engine, n);        // in [0, n), n >= 1
#ifndef SGMCMC_RNG_UNIFORM_H_
#define SGMCMC_RNG_UNIFORM_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "absl/base/casts.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "rng/engine.h"

namespace sgmcmc::rng {

// The uniform double of one 64-bit word: (k + 1/2) / 2^52 with k = bits >> 12, its top 52
// bits. Computed without an int-to-double conversion: k as the mantissa of a double with
// exponent 0 is 1 + k 2^-52, and subtracting 1 - 2^-53 is exact (Sterbenz), giving
// k 2^-52 + 2^-53 bit for bit (two integer ops, a move and one subtraction, where the
// conversion took a 2-uop cvtsi2sd, an add and a multiply).
inline double UniformDoubleFromBits(uint64_t bits) {
  const uint64_t one_plus_k = (bits >> 12) | uint64_t{0x3FF0000000000000};
  return absl::bit_cast<double>(one_plus_k) - (1 - 0x1p-53);
}

// Uniform on (0, 1): UniformDoubleFromBits of the next engine word.
inline double UniformDouble(Engine& engine) { return UniformDoubleFromBits(engine()); }

// Fills `out` with independent uniforms on (0, 1): the same values, and the same engine
// position afterwards, as out.size() repeated UniformDouble calls.
// Draws the words in chunks with Engine::Fill and converts them (a loop the compiler
// vectorises).
inline void FillUniformDouble(Engine& engine, absl::Span<double> out) {
  constexpr size_t kChunk = 256;
  uint64_t words[kChunk];
  for (size_t start = 0; start < out.size(); start += kChunk) {
    const size_t size = std::min(kChunk, out.size() - start);
    engine.Fill(absl::MakeSpan(words, size));
    for (size_t i = 0; i < size; ++i) out[start + i] = UniformDoubleFromBits(words[i]);
  }
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
