// A compile-time table of reciprocals 1/k, k = 0 .. kReciprocalTableSize - 1 (entry 0 is 0),
// for the sequential-search inversion loops of the Poisson and binomial generators: the
// recurrence p_k = p_{k-1} * mean / k then costs one multiplication instead of a division
// (about 4 rather than 13+ cycles of latency on the loop's critical path).
//
// Cost: one load per use; the table is 1 KiB of read-only data.
//
// Example:
//   p *= mean * kReciprocals[k];  // k < kReciprocalTableSize
#ifndef SGMCMC_RNG_INTERNAL_RECIPROCAL_TABLE_H_
#define SGMCMC_RNG_INTERNAL_RECIPROCAL_TABLE_H_

#include <array>

namespace sgmcmc::rng_internal {

inline constexpr int kReciprocalTableSize = 128;

// Each entry is the correctly rounded double 1.0 / k (one IEEE division at compile time).
inline constexpr std::array<double, kReciprocalTableSize> kReciprocals = [] {
  std::array<double, kReciprocalTableSize> table{};
  for (int k = 1; k < kReciprocalTableSize; ++k) table[k] = 1.0 / k;
  return table;
}();

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_RECIPROCAL_TABLE_H_
