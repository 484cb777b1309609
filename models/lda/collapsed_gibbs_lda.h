// Collapsed Gibbs sampling for LDA (Griffiths & Steyvers 2004, "Finding scientific topics",
// PNAS 101, eq. 5): the exact baseline of the SG-MCMC LDA samplers.
//
// With θ_d ~ Dir(α) and φ_k ~ Dir(β) integrated out, each token's topic is resampled from
//   p(z_i = k | z_\i, w) ∝ (n_dk^\i + α) (n_kw^\i + β) / (n_k^\i + V β),
// n_dk the tokens of document d on topic k, n_kw the tokens of word w on topic k, n_k their
// sum; all "\i" counts exclude token i. Sweep() visits every token once in corpus order
// (systematic scan) with one rng::Engine(seed), so a run is reproducible bit for bit.
// TopicWordDistributions() gives the posterior mean of φ given z, (n_kw + β)/(n_k + V β),
// which the document-completion perplexity (//eval:perplexity) evaluates; LogJoint() is
// log p(w, z | α, β) (Griffiths & Steyvers eq. 2-3), a convergence monitor.
//
// Threads: the sampler itself is sequential and exact (every token sees every other token's
// current topic). Parallelism is for the evaluation (the perplexity's per-document Gibbs
// chains are independent); AD-LDA-style parallel sweeps would approximate the chain and are
// not implemented.
//
// Cost: O(K) per token update (a dense scan; counts stored word-major so n_·w is contiguous),
// O(N K) per sweep; memory O(N + (D + V) K) 32-bit counts. Measured:
// models/lda/collapsed_gibbs_lda_benchmark.cc.
//
// Example:
//   CollapsedGibbsLdaOptions options;
//   options.num_topics = 50;
//   SGMCMC_ASSIGN_OR_RETURN(CollapsedGibbsLda lda, CollapsedGibbsLda::Create(train, options));
//   for (int s = 0; s < 1000; ++s) lda.Sweep();
//   std::vector<double> phi(50 * train.vocabulary_size());
//   lda.TopicWordDistributions(absl::MakeSpan(phi));
#ifndef SGMCMC_MODELS_LDA_COLLAPSED_GIBBS_LDA_H_
#define SGMCMC_MODELS_LDA_COLLAPSED_GIBBS_LDA_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "rng/engine.h"

namespace sgmcmc::models {

struct CollapsedGibbsLdaOptions {
  // Number of topics K; >= 1. Default 50.
  int num_topics = 50;
  // Symmetric document-topic Dirichlet parameter α; finite, > 0. Default 0.1.
  double alpha = 0.1;
  // Symmetric topic-word Dirichlet parameter β; finite, > 0. Default 0.01.
  double beta = 0.01;
  // Seed of the sampler's engine (stream 0); the initial topics are uniform draws from it.
  // Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const;
};

class CollapsedGibbsLda {
 public:
  // Copies the corpus tokens and draws every topic uniformly. InvalidArgument naming the
  // option, or the corpus problem (Corpus::Validate, no vocabulary), or count tables of more
  // than 2^31 entries ((D + V) x K, 4 bytes each).
  static absl::StatusOr<CollapsedGibbsLda> Create(const data::Corpus& corpus,
                                                  const CollapsedGibbsLdaOptions& options);

  // One systematic-scan sweep over all tokens.
  void Sweep();

  // Redraws the topic of token i (an index into the corpus tokens) from its conditional.
  void ResampleToken(int64_t i);

  // The normalised conditional p(z_i = k | z_\i, w) of token i, k = 0..K-1, into `out`
  // (size K, checked).
  void TokenConditional(int64_t i, absl::Span<double> out) const;

  // φ_kw = (n_kw + β) / (n_k + V β), row-major K x V into `out` (size K V, checked).
  void TopicWordDistributions(absl::Span<double> out) const;

  // log p(w, z | α, β) =
  //   Σ_k [log Γ(Vβ) - log Γ(n_k + Vβ) + Σ_w (log Γ(n_kw + β) - log Γ(β))]
  // + Σ_d [log Γ(Kα) - log Γ(n_d + Kα) + Σ_k (log Γ(n_dk + α) - log Γ(α))].
  double LogJoint() const;

  int num_topics() const { return num_topics_; }
  int num_documents() const { return static_cast<int>(doc_offsets_.size()) - 1; }
  int vocabulary_size() const { return vocabulary_size_; }
  int64_t num_tokens() const { return static_cast<int64_t>(words_.size()); }
  int64_t num_sweeps() const { return num_sweeps_; }
  const CollapsedGibbsLdaOptions& options() const { return options_; }

  absl::Span<const int32_t> assignments() const { return assignments_; }
  int32_t doc_topic_count(int d, int k) const {
    return doc_topic_[static_cast<size_t>(d) * num_topics_ + k];
  }
  int32_t word_topic_count(int w, int k) const {
    return word_topic_[static_cast<size_t>(w) * num_topics_ + k];
  }
  int32_t topic_count(int k) const { return topic_[k]; }

  // Replaces every assignment (size num_tokens(), each in [0, K), checked) and recomputes
  // the counts. For tests and for resuming from saved assignments.
  void SetAssignments(absl::Span<const int32_t> assignments);

 private:
  CollapsedGibbsLda(const data::Corpus& corpus, const CollapsedGibbsLdaOptions& options);
  void RecomputeCounts();
  // Fills weights_ with the unnormalised conditional of a token of document d and word w
  // (its own assignment already removed from the counts); returns their sum.
  double ConditionalWeights(int d, int w, double* weights) const;

  CollapsedGibbsLdaOptions options_;
  int num_topics_;
  int vocabulary_size_;
  std::vector<int64_t> doc_offsets_;
  std::vector<int32_t> words_;        // word of every token
  std::vector<int32_t> documents_;    // document of every token
  std::vector<int32_t> assignments_;  // topic of every token
  std::vector<int32_t> doc_topic_;    // D x K
  std::vector<int32_t> word_topic_;   // V x K (word-major)
  std::vector<int32_t> topic_;        // K
  std::vector<double> inverse_topic_denominator_;  // K: 1 / (n_k + V β)
  std::vector<double> weights_;       // K scratch
  rng::Engine engine_;
  int64_t num_sweeps_ = 0;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_COLLAPSED_GIBBS_LDA_H_
