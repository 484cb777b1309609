#include "eval/topic_columns.h"

#include <algorithm>

#include "base/check.h"

namespace sgmcmc::eval {

std::vector<int32_t> DistinctWords(absl::Span<const int32_t> words) {
  std::vector<int32_t> distinct(words.begin(), words.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  return distinct;
}

void ToLocalIds(absl::Span<const int32_t> distinct, absl::Span<int32_t> words) {
  for (int32_t& w : words) {
    const auto found = std::lower_bound(distinct.begin(), distinct.end(), w);
    SGMCMC_CHECK(found != distinct.end() && *found == w)
        << "ToLocalIds: word " << w << " is not among the distinct words";
    w = static_cast<int32_t>(found - distinct.begin());
  }
}

void GatherTopicColumns(absl::Span<const double> topics, int num_topics, int vocabulary_size,
                        absl::Span<const int32_t> words, std::vector<double>& out) {
  out.resize(words.size() * static_cast<size_t>(num_topics));
  GatherTopicColumns(topics, num_topics, vocabulary_size, words, absl::MakeSpan(out));
}

void GatherTopicColumns(absl::Span<const double> topics, int num_topics, int vocabulary_size,
                        absl::Span<const int32_t> words, absl::Span<double> out) {
  const size_t K = static_cast<size_t>(num_topics);
  const size_t V = static_cast<size_t>(vocabulary_size);
  SGMCMC_CHECK(topics.size() == K * V) << "GatherTopicColumns: topics has " << topics.size()
                                       << " entries, expected K x V = " << K << " x " << V;
  for (int32_t w : words) {
    SGMCMC_CHECK(w >= 0 && static_cast<size_t>(w) < V)
        << "GatherTopicColumns: word " << w << " outside [0, " << V << ")";
  }
  constexpr size_t kTileWords = 8;
  const size_t W = words.size();
  SGMCMC_CHECK(out.size() == W * K) << "GatherTopicColumns: out has " << out.size()
                                    << " entries, expected |words| x K = " << W << " x " << K;
  for (size_t tile = 0; tile < W; tile += kTileWords) {
    const size_t width = std::min(kTileWords, W - tile);
    const int32_t* tile_words = words.data() + tile;
    double* tile_out = out.data() + tile * K;
    for (size_t k = 0; k < K; ++k) {
      const double* row = topics.data() + k * V;
      for (size_t j = 0; j < width; ++j) tile_out[j * K + k] = row[tile_words[j]];
    }
  }
}

}  // namespace sgmcmc::eval
