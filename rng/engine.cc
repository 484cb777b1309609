#include "rng/engine.h"

#include "Random123/philox.h"

namespace sgmcmc::rng {
namespace {

using Philox = r123::Philox4x32_R<10>;

Philox::ctr_type Counter(uint64_t stream, uint64_t block) {
  return {{static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32),
           static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)}};
}

Philox::key_type Key(uint64_t seed) {
  return {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
}

}  // namespace

std::array<uint32_t, 4> Engine::Block(uint64_t seed, uint64_t stream, uint64_t block) {
  const Philox::ctr_type out = Philox()(Counter(stream, block), Key(seed));
  return {out[0], out[1], out[2], out[3]};
}

void Engine::Seek(uint64_t position) {
  next_batch_ = position / kWordsPerBatch;
  Refill();
  index_ = static_cast<int>(position % kWordsPerBatch);
}

void Engine::Refill() {
  const Philox philox;
  const Philox::key_type key = Key(seed_);
  const uint64_t first_block = next_batch_ * kBlocksPerBatch;
  for (int b = 0; b < kBlocksPerBatch; ++b) {
    const Philox::ctr_type out = philox(Counter(stream_, first_block + b), key);
    buffer_[2 * b] = out[0] | (static_cast<uint64_t>(out[1]) << 32);
    buffer_[2 * b + 1] = out[2] | (static_cast<uint64_t>(out[3]) << 32);
  }
  ++next_batch_;
  index_ = 0;
}

}  // namespace sgmcmc::rng
