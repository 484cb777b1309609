#include "samplers/minibatch.h"

#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "rng/uniform.h"

namespace sgmcmc::samplers {

absl::StatusOr<Minibatch> Minibatch::Create(int64_t num_items, int64_t batch_size) {
  if (num_items < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Minibatch: num_items must be >= 1, got ", num_items));
  }
  if (batch_size < 1 || batch_size > num_items) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Minibatch: batch_size must be in [1, num_items = ", num_items, "], got ", batch_size));
  }
  return Minibatch(num_items, batch_size);
}

Minibatch::Minibatch(int64_t num_items, int64_t batch_size)
    : num_items_(num_items), batch_(batch_size) {
  if (full_batch()) {
    std::iota(batch_.begin(), batch_.end(), int64_t{0});
  } else {
    taken_.assign((num_items + 63) / 64, 0);
  }
}

absl::Span<const int64_t> Minibatch::Draw(rng::Engine& engine) {
  if (full_batch()) return batch_;
  const int64_t n = batch_size();
  int64_t* out = batch_.data();
  for (int64_t j = num_items_ - n; j < num_items_; ++j) {
    int64_t t = static_cast<int64_t>(rng::UniformInt(engine, static_cast<uint64_t>(j) + 1));
    if (taken_[t >> 6] & (uint64_t{1} << (t & 63))) t = j;
    taken_[t >> 6] |= uint64_t{1} << (t & 63);
    *out++ = t;
  }
  for (int64_t id : batch_) taken_[id >> 6] = 0;
  return batch_;
}

}  // namespace sgmcmc::samplers
