// Engine: the counter-based random engine of sgmcmc, Philox4x32-10 (Salmon et al. 2011,
// "Parallel random numbers: as easy as 1, 2, 3"; Random123's philox4x32 with 10 rounds).
//
// An engine is keyed by (seed, stream): the 64-bit seed is the Philox key and the 64-bit
// stream id fills the upper half of the 128-bit counter, the lower half counting blocks.
// Distinct (seed, stream) pairs therefore give non-overlapping sequences of 2^64 blocks, and
// creating a stream costs nothing: give every thread, process, document or chain its own id
// and results no longer depend on scheduling.
//
// The engine is a C++ UniformRandomBitGenerator with 64-bit output. Blocks are generated
// kBlocksPerBatch at a time into a buffer, so one output costs a load and a compare; the
// position (number of 64-bit words consumed) can be saved and restored for checkpoints.
//
// Cost: O(1) per 64-bit word (a load and a compare; one batched Philox refill every
// kBlocksPerBatch blocks). Measured: rng/engine_benchmark.cc.
//
// Example:
//   sgmcmc::rng::Engine engine(/*seed=*/42, /*stream=*/document_id);
//   double u = sgmcmc::rng::UniformDouble(engine);
#ifndef SGMCMC_RNG_ENGINE_H_
#define SGMCMC_RNG_ENGINE_H_

#include <array>
#include <cstdint>
#include <limits>

#include "absl/types/span.h"

namespace sgmcmc::rng {

class Engine {
 public:
  using result_type = uint64_t;

  // Philox blocks (4 x 32 bits each) generated per refill.
  static constexpr int kBlocksPerBatch = 8;
  // 64-bit words per refill.
  static constexpr int kWordsPerBatch = 2 * kBlocksPerBatch;

  // Starts stream `stream` of key `seed` at position 0.
  explicit Engine(uint64_t seed, uint64_t stream = 0) : seed_(seed), stream_(stream) {
    Seek(0);
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  // Next 64 uniformly random bits.
  result_type operator()() {
    if (__builtin_expect(index_ == kWordsPerBatch, 0)) Refill();
    return buffer_[index_++];
  }

  // Fills `out` with the next out.size() words: the same words, and the same position()
  // afterwards, as out.size() calls of operator(). Whole batches are generated straight into
  // `out`, so a long fill costs the Philox kernel alone.
  void Fill(absl::Span<uint64_t> out);

  uint64_t seed() const { return seed_; }
  uint64_t stream() const { return stream_; }

  // Number of 64-bit words drawn since position 0; Seek(position()) on an engine with the
  // same (seed, stream) continues the sequence exactly.
  uint64_t position() const { return (next_batch_ - 1) * kWordsPerBatch + index_; }
  void Seek(uint64_t position);

  // Skips `n` words (cost independent of n).
  void Discard(uint64_t n) { Seek(position() + n); }

  // The raw Philox4x32-10 block for counter (block, stream) under key `seed`, as four
  // 32-bit words. Exposed for tests and for callers that want counter-based access.
  static std::array<uint32_t, 4> Block(uint64_t seed, uint64_t stream, uint64_t block);

 private:
  void Refill();

  uint64_t seed_;
  uint64_t stream_;
  uint64_t next_batch_ = 0;  // index of the batch the next Refill() generates
  int index_ = kWordsPerBatch;
  alignas(64) std::array<uint64_t, kWordsPerBatch> buffer_;
};

}  // namespace sgmcmc::rng

#endif  // SGMCMC_RNG_ENGINE_H_
