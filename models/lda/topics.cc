#include "models/lda/topics.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"

namespace sgmcmc::models {

std::vector<TopicSummary> SummarizeTopics(absl::Span<const double> topics, int num_topics,
                                          int vocabulary_size, int top_n) {
  SGMCMC_CHECK(num_topics >= 1 && vocabulary_size >= 1 &&
               topics.size() == static_cast<size_t>(num_topics) * vocabulary_size)
      << "SummarizeTopics: topics has " << topics.size() << " values, expected " << num_topics
      << " x " << vocabulary_size;
  SGMCMC_CHECK(top_n >= 1) << "SummarizeTopics: top_n must be >= 1, got " << top_n;
  top_n = std::min(top_n, vocabulary_size);
  const double threshold = 0.01 / vocabulary_size;
  std::vector<TopicSummary> summaries(num_topics);
  std::vector<int> order(vocabulary_size);
  for (int k = 0; k < num_topics; ++k) {
    const double* row = topics.data() + static_cast<size_t>(k) * vocabulary_size;
    const auto before = [row](int a, int b) {
      return row[a] != row[b] ? row[a] > row[b] : a < b;
    };
    TopicSummary& summary = summaries[k];
    double total = 0;
    int below = 0;
    for (int w = 0; w < vocabulary_size; ++w) {
      total += row[w];
      below += row[w] < threshold;
    }
    summary.sparsity = static_cast<double>(below) / vocabulary_size;
    // Only a sorted prefix is needed: the top_n words and the words up to 90% of the mass.
    // order[0, sorted) is the prefix (unique: `before` is a strict total order), grown by
    // doubling: select the next words (nth_element), sort them, add their masses in order.
    std::iota(order.begin(), order.end(), 0);
    int sorted = 0;
    int want = std::min(vocabulary_size, std::max(top_n, 256));
    double mass = 0;
    summary.mass_90_words = vocabulary_size;
    for (int i = 0;;) {
      if (want < vocabulary_size) {
        std::nth_element(order.begin() + sorted, order.begin() + want, order.end(), before);
      }
      std::sort(order.begin() + sorted, order.begin() + want, before);
      sorted = want;
      for (; i < sorted; ++i) {
        mass += row[order[i]];
        if (mass >= 0.9 * total) break;
      }
      if (i < sorted) {
        summary.mass_90_words = i + 1;
        break;
      }
      if (sorted == vocabulary_size) break;
      want = static_cast<int>(std::min<int64_t>(vocabulary_size, 2 * static_cast<int64_t>(want)));
    }
    for (int i = 0; i < top_n; ++i) {
      summary.top_words.push_back(order[i]);
      summary.top_probabilities.push_back(row[order[i]]);
    }
  }
  return summaries;
}

std::string FormatTopics(absl::Span<const TopicSummary> summaries,
                         absl::Span<const std::string> vocabulary) {
  std::string out;
  for (size_t k = 0; k < summaries.size(); ++k) {
    const TopicSummary& s = summaries[k];
    absl::StrAppend(&out, "topic ", k, " (90% mass in ", s.mass_90_words, " words, sparsity ",
                    absl::StrFormat("%.3f", s.sparsity), "):");
    for (size_t i = 0; i < s.top_words.size(); ++i) {
      SGMCMC_CHECK(s.top_words[i] >= 0 && s.top_words[i] < static_cast<int>(vocabulary.size()))
          << "FormatTopics: word id " << s.top_words[i] << " outside the vocabulary of size "
          << vocabulary.size();
      absl::StrAppend(&out, " ", vocabulary[s.top_words[i]],
                      absl::StrFormat(" %.4f", s.top_probabilities[i]));
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace sgmcmc::models
