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

void Engine::Fill(absl::Span<uint64_t> out) {
  size_t i = 0;
  const size_t n = out.size();
  // The rest of the buffered batch.
  while (i < n && index_ < kWordsPerBatch) out[i++] = buffer_[index_++];
  // Whole batches straight into `out` (the buffer stays exhausted: index_ == kWordsPerBatch).
  for (; n - i >= kWordsPerBatch; i += kWordsPerBatch) {
    rng_internal::PhiloxBatch(seed_, stream_, next_batch_ * kBlocksPerBatch, out.data() + i);
    ++next_batch_;
  }
  if (i == n) return;
  Refill();
  while (i < n) out[i++] = buffer_[index_++];
}

void Engine::Refill() {
  rng_internal::PhiloxBatch(seed_, stream_, next_batch_ * kBlocksPerBatch, buffer_.data());
  ++next_batch_;
  index_ = 0;
}

}  // namespace sgmcmc::rng
