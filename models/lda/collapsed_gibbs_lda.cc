#include "models/lda/collapsed_gibbs_lda.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "rng/uniform.h"

namespace sgmcmc::models {

absl::Status CollapsedGibbsLdaOptions::Validate() const {
  if (num_topics < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("CollapsedGibbsLdaOptions.num_topics must be >= 1, got ", num_topics));
  }
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(
        absl::StrCat("CollapsedGibbsLdaOptions.alpha must be finite and > 0, got ", alpha));
  }
  if (!(beta > 0) || !std::isfinite(beta)) {
    return absl::InvalidArgumentError(
        absl::StrCat("CollapsedGibbsLdaOptions.beta must be finite and > 0, got ", beta));
  }
  return absl::OkStatus();
}

absl::StatusOr<CollapsedGibbsLda> CollapsedGibbsLda::Create(
    const data::Corpus& corpus, const CollapsedGibbsLdaOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_RETURN_IF_ERROR(corpus.Validate());
  if (corpus.vocabulary_size() == 0) {
    return absl::InvalidArgumentError("CollapsedGibbsLda: the corpus has no vocabulary");
  }
  if (corpus.num_tokens() >= (int64_t{1} << 31)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CollapsedGibbsLda: 32-bit counts hold at most 2^31 - 1 tokens, the corpus has ",
        corpus.num_tokens()));
  }
  // The document-topic and word-topic count tables, 4 bytes an entry: a mistyped K must be
  // an error, not an allocation that aborts (std::bad_alloc) or exhausts memory.
  const int64_t table_entries =
      (int64_t{corpus.num_documents()} + corpus.vocabulary_size()) * options.num_topics;
  if (table_entries > (int64_t{1} << 31)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CollapsedGibbsLda: (D + V) x K = (", corpus.num_documents(), " + ",
        corpus.vocabulary_size(), ") x ", options.num_topics, " count-table entries, more "
        "than 2^31 (8 GiB)"));
  }
  return CollapsedGibbsLda(corpus, options);
}

CollapsedGibbsLda::CollapsedGibbsLda(const data::Corpus& corpus,
                                     const CollapsedGibbsLdaOptions& options)
    : options_(options),
      num_topics_(options.num_topics),
      vocabulary_size_(corpus.vocabulary_size()),
      doc_offsets_(corpus.doc_offsets.empty() ? std::vector<int64_t>{0} : corpus.doc_offsets),
      words_(corpus.tokens),
      weights_(options.num_topics),
      engine_(options.seed, 0) {
  documents_.resize(words_.size());
  for (int d = 0; d < num_documents(); ++d) {
    for (int64_t i = doc_offsets_[d]; i < doc_offsets_[d + 1]; ++i) documents_[i] = d;
  }
  assignments_.resize(words_.size());
  for (int32_t& z : assignments_) z = static_cast<int32_t>(rng::UniformInt(engine_, num_topics_));
  RecomputeCounts();
}

void CollapsedGibbsLda::RecomputeCounts() {
  doc_topic_.assign(static_cast<size_t>(num_documents()) * num_topics_, 0);
  word_topic_.assign(static_cast<size_t>(vocabulary_size_) * num_topics_, 0);
  topic_.assign(num_topics_, 0);
  for (size_t i = 0; i < words_.size(); ++i) {
    const int k = assignments_[i];
    ++doc_topic_[static_cast<size_t>(documents_[i]) * num_topics_ + k];
    ++word_topic_[static_cast<size_t>(words_[i]) * num_topics_ + k];
    ++topic_[k];
  }
  const double v_beta = vocabulary_size_ * options_.beta;
  inverse_topic_denominator_.resize(num_topics_);
  for (int k = 0; k < num_topics_; ++k) inverse_topic_denominator_[k] = 1.0 / (topic_[k] + v_beta);
}

void CollapsedGibbsLda::SetAssignments(absl::Span<const int32_t> assignments) {
  SGMCMC_CHECK(assignments.size() == words_.size())
      << "CollapsedGibbsLda::SetAssignments: need " << words_.size() << " assignments, got "
      << assignments.size();
  for (int32_t z : assignments) {
    SGMCMC_CHECK(z >= 0 && z < num_topics_)
        << "CollapsedGibbsLda::SetAssignments: topic " << z << " outside [0, " << num_topics_
        << ")";
  }
  assignments_.assign(assignments.begin(), assignments.end());
  RecomputeCounts();
}

double CollapsedGibbsLda::ConditionalWeights(int d, int w, double* weights) const {
  const int32_t* __restrict n_dk = doc_topic_.data() + static_cast<size_t>(d) * num_topics_;
  const int32_t* __restrict n_kw = word_topic_.data() + static_cast<size_t>(w) * num_topics_;
  const double* __restrict inverse = inverse_topic_denominator_.data();
  const double alpha = options_.alpha, beta = options_.beta;
  double total = 0;
  for (int k = 0; k < num_topics_; ++k) {
    weights[k] = (n_dk[k] + alpha) * (n_kw[k] + beta) * inverse[k];
    total += weights[k];
  }
  return total;
}

void CollapsedGibbsLda::ResampleToken(int64_t i) {
  const int d = documents_[i];
  const int w = words_[i];
  int32_t* n_dk = doc_topic_.data() + static_cast<size_t>(d) * num_topics_;
  int32_t* n_kw = word_topic_.data() + static_cast<size_t>(w) * num_topics_;
  const double v_beta = vocabulary_size_ * options_.beta;
  int k = assignments_[i];
  --n_dk[k];
  --n_kw[k];
  inverse_topic_denominator_[k] = 1.0 / (--topic_[k] + v_beta);

  double* weights = weights_.data();
  const double total = ConditionalWeights(d, w, weights);
  double u = rng::UniformDouble(engine_) * total;
  k = 0;
  while (k < num_topics_ - 1 && u >= weights[k]) u -= weights[k++];

  assignments_[i] = k;
  ++n_dk[k];
  ++n_kw[k];
  inverse_topic_denominator_[k] = 1.0 / (++topic_[k] + v_beta);
}

void CollapsedGibbsLda::Sweep() {
  const int64_t n = num_tokens();
  for (int64_t i = 0; i < n; ++i) ResampleToken(i);
  ++num_sweeps_;
}

void CollapsedGibbsLda::TokenConditional(int64_t i, absl::Span<double> out) const {
  SGMCMC_CHECK(i >= 0 && i < num_tokens())
      << "CollapsedGibbsLda::TokenConditional: token " << i << " outside [0, " << num_tokens()
      << ")";
  SGMCMC_CHECK(out.size() == static_cast<size_t>(num_topics_))
      << "CollapsedGibbsLda::TokenConditional: out must have K = " << num_topics_
      << " entries, got " << out.size();
  // The counts with token i removed, computed on copies of the three affected entries.
  const int d = documents_[i], w = words_[i], own = assignments_[i];
  const double alpha = options_.alpha, beta = options_.beta;
  const double v_beta = vocabulary_size_ * beta;
  double total = 0;
  for (int k = 0; k < num_topics_; ++k) {
    const int remove = k == own ? 1 : 0;
    out[k] = (doc_topic_count(d, k) - remove + alpha) * (word_topic_count(w, k) - remove + beta) /
             (topic_[k] - remove + v_beta);
    total += out[k];
  }
  for (double& p : out) p /= total;
}

void CollapsedGibbsLda::TopicWordDistributions(absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(num_topics_) * vocabulary_size_)
      << "CollapsedGibbsLda::TopicWordDistributions: out must have K * V = "
      << static_cast<size_t>(num_topics_) * vocabulary_size_ << " entries, got " << out.size();
  const double beta = options_.beta;
  for (int k = 0; k < num_topics_; ++k) {
    const double inverse = 1.0 / (topic_[k] + vocabulary_size_ * beta);
    double* row = out.data() + static_cast<size_t>(k) * vocabulary_size_;
    for (int w = 0; w < vocabulary_size_; ++w) row[w] = (word_topic_count(w, k) + beta) * inverse;
  }
}

double CollapsedGibbsLda::LogJoint() const {
  const double alpha = options_.alpha, beta = options_.beta;
  const int k_topics = num_topics_;
  const double v_beta = vocabulary_size_ * beta, k_alpha = k_topics * alpha;
  const double lgamma_alpha = std::lgamma(alpha), lgamma_beta = std::lgamma(beta);
  double total = 0;
  for (int k = 0; k < k_topics; ++k) total += std::lgamma(v_beta) - std::lgamma(topic_[k] + v_beta);
  for (int32_t n : word_topic_) {
    if (n > 0) total += std::lgamma(n + beta) - lgamma_beta;
  }
  for (int d = 0; d < num_documents(); ++d) {
    const double n_d = static_cast<double>(doc_offsets_[d + 1] - doc_offsets_[d]);
    total += std::lgamma(k_alpha) - std::lgamma(n_d + k_alpha);
    for (int k = 0; k < k_topics; ++k) {
      const int32_t n = doc_topic_count(d, k);
      if (n > 0) total += std::lgamma(n + alpha) - lgamma_alpha;
    }
  }
  return total;
}

}  // namespace sgmcmc::models
