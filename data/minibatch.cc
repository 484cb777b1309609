#include "data/minibatch.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "data/shuffle.h"

namespace sgmcmc::data {

void GatherDocuments(const Corpus& corpus, absl::Span<const int> ids, DocumentMinibatch* out) {
  out->ids.assign(ids.begin(), ids.end());
  Corpus& documents = out->documents;
  documents.vocabulary.clear();
  documents.tokens.clear();
  documents.doc_offsets.assign(1, 0);
  for (int id : ids) {
    const absl::Span<const int32_t> doc = corpus.document(id);  // checks the range
    documents.tokens.insert(documents.tokens.end(), doc.begin(), doc.end());
    documents.doc_offsets.push_back(documents.num_tokens());
  }
}

absl::StatusOr<EpochMinibatcher> EpochMinibatcher::Create(std::vector<int> pool,
                                                          int batch_size) {
  if (pool.empty()) {
    return absl::InvalidArgumentError("EpochMinibatcher: the pool of document ids is empty");
  }
  if (batch_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("EpochMinibatcher: batch_size must be >= 1, got ", batch_size));
  }
  return EpochMinibatcher(std::move(pool), batch_size);
}

EpochMinibatcher::EpochMinibatcher(std::vector<int> pool, int batch_size)
    : batch_size_(batch_size), sorted_pool_(pool), batch_(batch_size) {
  std::sort(sorted_pool_.begin(), sorted_pool_.end());
  state_.permutation = std::move(pool);
  state_.position = static_cast<int64_t>(state_.permutation.size());  // no epoch drawn yet
}

absl::Span<const int> EpochMinibatcher::Next(rng::Engine& engine) {
  const int64_t n = static_cast<int64_t>(state_.permutation.size());
  for (int j = 0; j < batch_size_; ++j) {
    if (state_.position == n) {
      Shuffle(engine, absl::MakeSpan(state_.permutation));
      state_.position = 0;
      ++state_.epochs_started;
    }
    batch_[j] = state_.permutation[state_.position++];
  }
  return batch_;
}

absl::Status EpochMinibatcher::Restore(const State& state) {
  std::vector<int> sorted = state.permutation;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != sorted_pool_) {
    return absl::InvalidArgumentError(
        "EpochMinibatcher::Restore: the saved permutation is not a permutation of the pool");
  }
  if (state.position < 0 || state.position > static_cast<int64_t>(sorted.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "EpochMinibatcher::Restore: position must be in [0, ", sorted.size(), "], got ",
        state.position));
  }
  state_ = state;
  return absl::OkStatus();
}

}  // namespace sgmcmc::data
