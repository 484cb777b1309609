#include "rng/engine.h"

#include "rng/internal/philox_batch.h"

namespace sgmcmc::rng {

static_assert(Engine::kBlocksPerBatch == rng_internal::kPhiloxBatchBlocks);

std::array<uint32_t, 4> Engine::Block(uint64_t seed, uint64_t stream, uint64_t block) {
  return rng_internal::PhiloxBlock(seed, stream, block);
}

void Engine::Seek(uint64_t position) {
  next_batch_ = position / kWordsPerBatch;
  Refill();
  index_ = static_cast<int>(position % kWordsPerBatch);
}

void Engine::Refill() {
  rng_internal::PhiloxBatch(seed_, stream_, next_batch_ * kBlocksPerBatch, buffer_.data());
  ++next_batch_;
  index_ = 0;
}

}  // namespace sgmcmc::rng
