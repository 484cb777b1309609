// The columns of a topic matrix φ (K x V, row-major) at the words some documents use, copied
// word-major: what the evaluators read per token (Σ_k θ_k φ_kw, Gibbs masses over k), in
// place of a transpose of all V columns. At K = 1000, V = 50,000 a whole transpose was 400 MB
// of fresh pages per evaluation, written with a stride of K; the 1,000 test documents of the
// synthetic corpus use at most 18,488 of the words.
//
// Cost: O(K W) for W words, by tiles of kTileWords words (each row read at the tile's words,
// kTileWords x K doubles written, in L1 at K = 1000); `out` keeps its storage between calls.
#ifndef SGMCMC_EVAL_TOPIC_COLUMNS_H_
#define SGMCMC_EVAL_TOPIC_COLUMNS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace sgmcmc::eval {

// The distinct values of `words`, ascending.
std::vector<int32_t> DistinctWords(absl::Span<const int32_t> words);

// `words[i]` replaced by its index in `distinct` (ascending, holding every value of `words`).
void ToLocalIds(absl::Span<const int32_t> distinct, absl::Span<int32_t> words);

// out[i K + k] = topics[k V + words[i]] for every i < |words|, k < K (out resized to |words| K).
// Requires topics.size() == K V and every word in [0, V) (CHECKed).
void GatherTopicColumns(absl::Span<const double> topics, int num_topics, int vocabulary_size,
                        absl::Span<const int32_t> words, std::vector<double>& out);
// The same into `out` of exactly |words| K entries (CHECKed), e.g. storage owned by a table.
void GatherTopicColumns(absl::Span<const double> topics, int num_topics, int vocabulary_size,
                        absl::Span<const int32_t> words, absl::Span<double> out);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_TOPIC_COLUMNS_H_
