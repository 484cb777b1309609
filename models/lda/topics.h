// Summaries of LDA topics: the top words of each topic and its sparsity.
//
// For a K x V topic matrix π (rows on the simplex) and each topic k:
//  - the `top_n` words of largest π_kw, by decreasing probability (ties by word id);
//  - mass_90_words: the smallest number of words that together hold 90% of the topic's mass
//    (a topic concentrated on few words has a small value);
//  - sparsity: the fraction of the vocabulary with π_kw < 0.01 / V, i.e. below 1% of the
//    uniform probability (SCIR's topics put exact-zero-count words far below this; the
//    SCIR paper, §2.3, argues SGRLD cannot).
//
// Cost: O(V log m) per topic, m the words up to 90% of its mass (at least 256, at most V): the
// row is sorted only as far as the summary reads it.
//
// Example:
//   std::vector<TopicSummary> summary = SummarizeTopics(topics, K, V, /*top_n=*/10);
//   for (int w : summary[0].top_words) std::cout << vocabulary[w] << " ";
#ifndef SGMCMC_MODELS_LDA_TOPICS_H_
#define SGMCMC_MODELS_LDA_TOPICS_H_

#include <string>
#include <vector>

#include "absl/types/span.h"

namespace sgmcmc::models {

struct TopicSummary {
  std::vector<int> top_words;               // word ids, decreasing π_kw
  std::vector<double> top_probabilities;    // π_kw of top_words
  int mass_90_words = 0;                    // fewest words holding >= 90% of the mass
  double sparsity = 0;                      // fraction of words with π_kw < 0.01 / V
};

// One summary per row of `topics` (num_topics x vocabulary_size, row-major, entries >= 0,
// rows summing to ~1; checked: sizes, 1 <= top_n). top_n is capped at V.
std::vector<TopicSummary> SummarizeTopics(absl::Span<const double> topics, int num_topics,
                                          int vocabulary_size, int top_n);

// "topic 3 (90% mass in 120 words, sparsity 0.93): obama 0.031 bush 0.022 ..." per topic,
// one line each, words from `vocabulary` (size V, checked).
std::string FormatTopics(absl::Span<const TopicSummary> summaries,
                         absl::Span<const std::string> vocabulary);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_TOPICS_H_
