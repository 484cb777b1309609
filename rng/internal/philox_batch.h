// Philox4x32-10 (Salmon et al. 2011, "Parallel random numbers: as easy as 1, 2, 3", SC'11;
// the counter-based generator of Random123) evaluated on a batch of 8 consecutive counters at
// once: the refill kernel of rng::Engine.
//
// Block b of the batch is the Philox4x32-10 image of the 128-bit counter
// (first_block + b, stream) (low 64 bits count blocks, high 64 bits hold the stream) under the
// 64-bit key `seed`, written as the two 64-bit words x0 | x1 << 32 and x2 | x3 << 32. Every
// kernel here is bit-identical to Random123's r123::Philox4x32_R<10> (philox_batch_test).
//
// PhiloxBatch dispatches once, at load time (GCC function multiversioning), to the AVX2 kernel
// when the CPU has AVX2, otherwise to the portable one.
//
// Cost: O(1) per batch of 8 blocks = 16 words (~210 vector ops with AVX2). Measured:
// rng/engine_benchmark.cc.
//
// Example:
//   uint64_t words[kPhiloxBatchWords];
//   PhiloxBatch(seed, stream, /*first_block=*/0, words);
#ifndef SGMCMC_RNG_INTERNAL_PHILOX_BATCH_H_
#define SGMCMC_RNG_INTERNAL_PHILOX_BATCH_H_

#include <array>
#include <cstdint>

namespace sgmcmc::rng_internal {

// One Philox4x32-10 block for counter (block, stream) under key seed, as four 32-bit words
// (Random123's r123::Philox4x32_R<10>).
std::array<uint32_t, 4> PhiloxBlock(uint64_t seed, uint64_t stream, uint64_t block);

inline constexpr int kPhiloxBatchBlocks = 8;
inline constexpr int kPhiloxBatchWords = 2 * kPhiloxBatchBlocks;

// The fastest kernel this CPU supports.
void PhiloxBatch(uint64_t seed, uint64_t stream, uint64_t first_block,
                 uint64_t out[kPhiloxBatchWords]);

// PhiloxBlock for each block in turn; runs anywhere.
void PhiloxBatchPortable(uint64_t seed, uint64_t stream, uint64_t first_block,
                         uint64_t out[kPhiloxBatchWords]);

// True when PhiloxBatchAvx2 may be called on this CPU.
bool HasPhiloxBatchAvx2();

// The 8 blocks as structure of arrays in AVX2 registers: 4 blocks per register, each 32-bit
// counter word in the low half of a 64-bit lane, so that each Philox multiplication is one
// vpmuludq. Only call when HasPhiloxBatchAvx2().
void PhiloxBatchAvx2(uint64_t seed, uint64_t stream, uint64_t first_block,
                     uint64_t out[kPhiloxBatchWords]);

}  // namespace sgmcmc::rng_internal

#endif  // SGMCMC_RNG_INTERNAL_PHILOX_BATCH_H_
