#include "models/dp/collapsed_gibbs_testing.h"

#include <cmath>

#include "base/check.h"
#include "models/dp/component_model.h"
#include "rng/categorical.h"

namespace sgmcmc::models {

CollapsedDpGibbs::CollapsedDpGibbs(const data::Corpus* corpus, const DpMixtureOptions& options)
    : corpus_(corpus),
      options_(options),
      engine_(options.seed, /*stream=*/0x7E57),
      alpha_(options.initial_alpha),
      vocab_(corpus->vocabulary_size()),
      z_(corpus->num_documents(), 0),
      zeros_(corpus->vocabulary_size(), 0.0) {
  SGMCMC_CHECK(options.Validate().ok()) << options.Validate();
  cluster_sizes_.assign(1, 0);
  cluster_word_counts_.assign(vocab_, 0.0);
  cluster_totals_.assign(1, 0.0);
  for (int i = 0; i < corpus->num_documents(); ++i) Add(i, 0);
}

double CollapsedDpGibbs::LogPredictive(int point, const double* counts, double total) const {
  const double a = options_.atom_concentration;
  absl::Span<const int32_t> tokens = corpus_->document(point);
  double log_p = 0;
  for (size_t k = 0; k < tokens.size(); ++k) {
    int earlier = 0;
    for (size_t l = 0; l < k; ++l) earlier += tokens[l] == tokens[k];
    log_p += std::log((a + counts[tokens[k]] + earlier) / (vocab_ * a + total + k));
  }
  return log_p;
}

void CollapsedDpGibbs::Remove(int point) {
  const int c = z_[point];
  --cluster_sizes_[c];
  for (int32_t w : corpus_->document(point)) cluster_word_counts_[c * vocab_ + w] -= 1;
  cluster_totals_[c] -= corpus_->document_size(point);
  if (cluster_sizes_[c] == 0) {  // move the last cluster into slot c
    const int last = num_clusters() - 1;
    if (c != last) {
      cluster_sizes_[c] = cluster_sizes_[last];
      cluster_totals_[c] = cluster_totals_[last];
      for (int w = 0; w < vocab_; ++w) {
        cluster_word_counts_[c * vocab_ + w] = cluster_word_counts_[last * vocab_ + w];
      }
      for (int32_t& z : z_) {
        if (z == last) z = c;
      }
    }
    cluster_sizes_.pop_back();
    cluster_totals_.pop_back();
    cluster_word_counts_.resize(static_cast<size_t>(last) * vocab_);
  }
}

void CollapsedDpGibbs::Add(int point, int cluster) {
  if (cluster == num_clusters()) {
    cluster_sizes_.push_back(0);
    cluster_totals_.push_back(0);
    cluster_word_counts_.resize(cluster_word_counts_.size() + vocab_, 0.0);
  }
  z_[point] = cluster;
  ++cluster_sizes_[cluster];
  for (int32_t w : corpus_->document(point)) cluster_word_counts_[cluster * vocab_ + w] += 1;
  cluster_totals_[cluster] += corpus_->document_size(point);
}

void CollapsedDpGibbs::Sweep() {
  const int n = corpus_->num_documents();
  for (int i = 0; i < n; ++i) {
    Remove(i);
    const int k = num_clusters();
    log_weights_.resize(k + 1);
    for (int c = 0; c < k; ++c) {
      log_weights_[c] = std::log(static_cast<double>(cluster_sizes_[c])) +
                        LogPredictive(i, &cluster_word_counts_[c * vocab_], cluster_totals_[c]);
    }
    log_weights_[k] = std::log(alpha_) + LogPredictive(i, zeros_.data(), 0.0);
    Add(i, rng::LogCategoricalSample(engine_, log_weights_));
  }
  if (options_.sample_alpha) {
    alpha_ = SampleAlphaWest(engine_, alpha_, num_clusters(), n,
                             options_.alpha_shape, options_.alpha_rate);
  }
}

}  // namespace sgmcmc::models
