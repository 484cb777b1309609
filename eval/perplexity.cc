#include "eval/perplexity.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "eval/topic_columns.h"

namespace sgmcmc::eval {
absl::Status PerplexityOptions::Validate() const {
  if (num_topics < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("PerplexityOptions.num_topics must be >= 1, got ", num_topics));
  }
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(
        absl::StrCat("PerplexityOptions.alpha must be finite and > 0, got ", alpha));
  }
  // The Gibbs conditional's normaliser n_d + K alpha: an overflow made the perplexity inf.
  if (!std::isfinite(num_topics * alpha)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "PerplexityOptions: num_topics x alpha = ", num_topics, " x ", alpha, " must be finite"));
  }
  if (num_sweeps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("PerplexityOptions.num_sweeps must be >= 1, got ", num_sweeps));
  }
  if (burn_in < 0 || burn_in >= num_sweeps) {
    return absl::InvalidArgumentError(absl::StrCat(
        "PerplexityOptions.burn_in must be in [0, num_sweeps = ", num_sweeps, "), got ",
        burn_in));
  }
  return absl::OkStatus();
}

absl::StatusOr<DocumentCompletionPerplexity> DocumentCompletionPerplexity::Create(
    const data::DocumentCompletionSplit& test, const PerplexityOptions& options) {
  if (absl::Status valid = options.Validate(); !valid.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("DocumentCompletionPerplexity: ", valid.message()));
  }
  if (test.observed.num_documents() != test.held_out.num_documents()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DocumentCompletionPerplexity: observed and held-out parts have ",
        test.observed.num_documents(), " and ", test.held_out.num_documents(), " documents"));
  }
  if (test.observed.vocabulary_size() != test.held_out.vocabulary_size()) {
    return absl::InvalidArgumentError(
        "DocumentCompletionPerplexity: observed and held-out vocabularies differ in size");
  }
  return DocumentCompletionPerplexity(test, options);
}

DocumentCompletionPerplexity::DocumentCompletionPerplexity(
    const data::DocumentCompletionSplit& test, const PerplexityOptions& options)
    : options_(options),
      observed_(test.observed),
      held_out_(test.held_out),
      observed_words_(DistinctWords(test.observed.tokens)),
      local_observed_(test.observed.tokens),
      perplexity_(std::numeric_limits<double>::quiet_NaN()),
      last_perplexity_(std::numeric_limits<double>::quiet_NaN()) {
  ToLocalIds(observed_words_, absl::MakeSpan(local_observed_));
  const int num_docs = observed_.num_documents();
  const int k = options_.num_topics;
  assignments_.assign(observed_.num_tokens(), -1);
  engines_.reserve(num_docs);
  for (int j = 0; j < num_docs; ++j) engines_.emplace_back(options_.seed, j);
  doc_topics_.assign(static_cast<size_t>(num_docs) * k, 0.0);
  probability_sum_.assign(held_out_.num_tokens(), 0.0);
  doc_log_sum_.assign(num_docs, 0.0);
  doc_last_log_sum_.assign(num_docs, 0.0);
}

void DocumentCompletionPerplexity::ResetRunningMean() {
  std::fill(probability_sum_.begin(), probability_sum_.end(), 0.0);
  num_evaluations_ = 0;
  perplexity_ = last_perplexity_ = std::numeric_limits<double>::quiet_NaN();
}

void DocumentCompletionPerplexity::EstimateDocument(int j, std::vector<int64_t>& count_sums) {
  const int num_topics = options_.num_topics;
  const absl::Span<const int32_t> words = absl::MakeConstSpan(
      local_observed_.data() + observed_.doc_offsets[j], observed_.document_size(j));
  const absl::Span<int32_t> z = absl::MakeSpan(
      assignments_.data() + observed_.doc_offsets[j], observed_.document_size(j));
  double* eta = doc_topics_.data() + static_cast<size_t>(j) * num_topics;
  rng::Engine& engine = engines_[j];
  const int n = static_cast<int>(words.size());
  if (n == 0) {
    std::fill(eta, eta + num_topics, 1.0 / num_topics);
    return;
  }
  DocumentGibbsState state(words, num_topics);
  if (z[0] < 0) {  // first evaluation: sequential initialisation
    InitializeAssignments(table_, engine, state);
  } else {
    state.SetAssignments(z);
  }
  // Σ over the kept sweeps of n_dk, exact in integers and summed over the topics present.
  std::fill(count_sums.begin(), count_sums.end(), 0);
  for (int sweep = 0; sweep < options_.num_sweeps; ++sweep) {
    GibbsSweep(table_, engine, state);
    if (sweep >= options_.burn_in) {
      for (const SparseTopicCounts::Entry& e : state.counts().entries()) {
        count_sums[e.topic] += e.count;
      }
    }
  }
  std::copy(state.assignments().begin(), state.assignments().end(), z.begin());
  // η̂_dk = mean over the kept sweeps of (n_dk + α) / (n_d + K α).
  const double kept = options_.num_sweeps - options_.burn_in;
  const double denominator = n + num_topics * options_.alpha;
  for (int k = 0; k < num_topics; ++k) {
    eta[k] = (static_cast<double>(count_sums[k]) / kept + options_.alpha) / denominator;
  }
}

double DocumentCompletionPerplexity::Evaluate(absl::Span<const double> topics,
                                              parallel::ThreadPool* pool) {
  const int num_topics = options_.num_topics;
  const int vocabulary_size = observed_.vocabulary_size();
  SGMCMC_CHECK(topics.size() == static_cast<size_t>(num_topics) * vocabulary_size)
      << "DocumentCompletionPerplexity::Evaluate: topics must have K * V = " << num_topics
      << " * " << vocabulary_size << " entries, got " << topics.size();
  // The sparse Gibbs kernel's table: φ's columns at the observed words, word-major, with
  // their α tables (eval/lda_gibbs.h); rebuilt in place each evaluation.
  table_.Reset(num_topics, static_cast<int>(observed_words_.size()), options_.alpha);
  table_.GatherColumns(topics, vocabulary_size, observed_words_);
  auto estimate = [&](int64_t begin, int64_t end, int) {
    std::vector<int64_t> count_sums(num_topics);
    for (int64_t j = begin; j < end; ++j) EstimateDocument(static_cast<int>(j), count_sums);
  };
  if (pool != nullptr) {
    pool->ParallelForChunks(0, observed_.num_documents(), estimate);
  } else {
    estimate(0, observed_.num_documents(), 0);
  }
  return Accumulate(topics, pool);
}

double DocumentCompletionPerplexity::AddEstimate(absl::Span<const double> doc_topics,
                                                 absl::Span<const double> topics,
                                                 parallel::ThreadPool* pool) {
  SGMCMC_CHECK(doc_topics.size() == doc_topics_.size())
      << "DocumentCompletionPerplexity::AddEstimate: doc_topics must have D_test * K = "
      << doc_topics_.size() << " entries, got " << doc_topics.size();
  SGMCMC_CHECK(topics.size() ==
               static_cast<size_t>(options_.num_topics) * held_out_.vocabulary_size())
      << "DocumentCompletionPerplexity::AddEstimate: topics must have K * V entries, got "
      << topics.size();
  std::copy(doc_topics.begin(), doc_topics.end(), doc_topics_.begin());
  return Accumulate(topics, pool);
}

double DocumentCompletionPerplexity::Accumulate(absl::Span<const double> topics,
                                                parallel::ThreadPool* pool) {
  const int num_topics = options_.num_topics;
  const int vocabulary_size = held_out_.vocabulary_size();
  ++num_evaluations_;
  const double evaluations = num_evaluations_;
  auto score = [&](int64_t begin, int64_t end, int) {
    for (int64_t j = begin; j < end; ++j) {
      const double* eta = doc_topics_.data() + static_cast<size_t>(j) * num_topics;
      const absl::Span<const int32_t> words = held_out_.document(j);
      double* sums = probability_sum_.data() + held_out_.doc_offsets[j];
      double log_sum = 0, last_log_sum = 0;
      for (size_t i = 0; i < words.size(); ++i) {
        double p = 0;
        for (int k = 0; k < num_topics; ++k) {
          p += eta[k] * topics[static_cast<size_t>(k) * vocabulary_size + words[i]];
        }
        sums[i] += p;
        last_log_sum += std::log(p);
        log_sum += std::log(sums[i] / evaluations);
      }
      doc_log_sum_[j] = log_sum;
      doc_last_log_sum_[j] = last_log_sum;
    }
  };
  if (pool != nullptr) {
    pool->ParallelForChunks(0, held_out_.num_documents(), score);
  } else {
    score(0, held_out_.num_documents(), 0);
  }
  double log_sum = 0, last_log_sum = 0;
  for (int j = 0; j < held_out_.num_documents(); ++j) {
    log_sum += doc_log_sum_[j];
    last_log_sum += doc_last_log_sum_[j];
  }
  const double n = static_cast<double>(held_out_.num_tokens());
  perplexity_ = std::exp(-log_sum / n);
  last_perplexity_ = std::exp(-last_log_sum / n);
  return perplexity_;
}

PerplexityState DocumentCompletionPerplexity::GetState() const {
  PerplexityState state;
  *state.mutable_assignments() = {assignments_.begin(), assignments_.end()};
  for (const rng::Engine& engine : engines_) state.add_engine_positions(engine.position());
  *state.mutable_probability_sum() = {probability_sum_.begin(), probability_sum_.end()};
  *state.mutable_doc_topics() = {doc_topics_.begin(), doc_topics_.end()};
  state.set_num_evaluations(num_evaluations_);
  state.set_perplexity(perplexity_);
  state.set_last_perplexity(last_perplexity_);
  return state;
}

absl::Status DocumentCompletionPerplexity::RestoreState(const PerplexityState& state) {
  auto size_error = [](const char* field, size_t got, size_t expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("DocumentCompletionPerplexity::RestoreState: ", field, " has ", got,
                     " entries, expected ", expected));
  };
  if (static_cast<size_t>(state.assignments_size()) != assignments_.size()) {
    return size_error("assignments", state.assignments_size(), assignments_.size());
  }
  if (static_cast<size_t>(state.engine_positions_size()) != engines_.size()) {
    return size_error("engine_positions", state.engine_positions_size(), engines_.size());
  }
  if (static_cast<size_t>(state.probability_sum_size()) != probability_sum_.size()) {
    return size_error("probability_sum", state.probability_sum_size(), probability_sum_.size());
  }
  if (static_cast<size_t>(state.doc_topics_size()) != doc_topics_.size()) {
    return size_error("doc_topics", state.doc_topics_size(), doc_topics_.size());
  }
  if (state.num_evaluations() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DocumentCompletionPerplexity::RestoreState: num_evaluations must be >= 0, got ",
        state.num_evaluations()));
  }
  // Found by //fuzz:lda_checkpoint_fuzzer: a negative sum made every later perplexity NaN.
  // Each entry sums one probability per evaluation; the estimates are convex weights.
  const double most = static_cast<double>(state.num_evaluations()) * (1 + 1e-9);
  for (int i = 0; i < state.probability_sum_size(); ++i) {
    if (!(state.probability_sum(i) >= 0 && state.probability_sum(i) <= most)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DocumentCompletionPerplexity::RestoreState: probability_sum[", i, "] = ",
          state.probability_sum(i), " must be in [0, num_evaluations = ",
          state.num_evaluations(), "]"));
    }
  }
  for (int i = 0; i < state.doc_topics_size(); ++i) {
    if (!(state.doc_topics(i) >= 0 && state.doc_topics(i) <= 1 + 1e-9)) {
      return absl::InvalidArgumentError(
          absl::StrCat("DocumentCompletionPerplexity::RestoreState: doc_topics[", i, "] = ",
                       state.doc_topics(i), " must be in [0, 1]"));
    }
  }
  const int num_topics = options_.num_topics;
  for (int j = 0; j < observed_.num_documents(); ++j) {
    const int64_t begin = observed_.doc_offsets[j], end = observed_.doc_offsets[j + 1];
    for (int64_t i = begin; i < end; ++i) {
      const int32_t z = state.assignments(static_cast<int>(i));
      const bool initialised = state.assignments(static_cast<int>(begin)) >= 0;
      if (z < -1 || z >= num_topics || (z >= 0) != initialised) {
        return absl::InvalidArgumentError(absl::StrCat(
            "DocumentCompletionPerplexity::RestoreState: assignments[", i, "] = ", z,
            " must be in [0, ", num_topics, ") (or -1 for the whole of an uninitialised "
            "document)"));
      }
    }
  }
  assignments_.assign(state.assignments().begin(), state.assignments().end());
  for (size_t j = 0; j < engines_.size(); ++j) {
    engines_[j].Seek(state.engine_positions(static_cast<int>(j)));
  }
  probability_sum_.assign(state.probability_sum().begin(), state.probability_sum().end());
  doc_topics_.assign(state.doc_topics().begin(), state.doc_topics().end());
  num_evaluations_ = state.num_evaluations();
  perplexity_ = state.perplexity();
  last_perplexity_ = state.last_perplexity();
  return absl::OkStatus();
}

}  // namespace sgmcmc::eval
