// Document-completion perplexity of LDA topics, with the running mean over evaluations
// (Wallach et al. 2009, "Evaluation methods for topic models"; Patterson & Teh 2013, §5.1
// eqs. 12-15; docs/ALGORITHMS.md, "Evaluation protocol shared by all LDA samplers").
//
// The test documents are split by data::SplitForDocumentCompletion into an observed part and
// a held-out part. Each evaluation gets topics φ (K x V, rows on the simplex), and for every
// test document d
//   1. runs Gibbs sampling of the observed tokens' assignments with φ fixed,
//        p(z_i = k | z_\i) ∝ (n_dk^\i + α) φ_{k,w_i},
//      for `num_sweeps` systematic sweeps, and averages over the sweeps after `burn_in`
//        η̂_dk = (n_dk + α) / (n_d + K α)                                         (eq. 15);
//   2. scores every held-out token w with p_dw = Σ_k η̂_dk φ_kw                     (eq. 14).
// The running estimate of p(w_di) is the mean of p_dw over all evaluations so far (the samples
// of φ from the chain, eq. 14's outer expectation), and
//   perplexity = exp(-Σ_{d,i} log mean_e p^e_dw / N_held_out)                       (eq. 12).
// AddEstimate() takes η̂ directly, for methods that estimate it otherwise (e.g. variational
// peers). The assignments of each test document persist from one evaluation to the next (the
// chain continues under the new φ; each evaluation still discards `burn_in` sweeps). They are
// initialised by sequential sampling, token i from p(z_i = k | z_<i). A word whose column of φ
// is all zero (possible only through underflow) is treated as equally likely under every
// topic while sampling; it scores p_dw = 0 and then the perplexity is +inf, as it should be.
//
// The sweeps are the sparse exact Gibbs kernel LDA trains with (eval/lda_gibbs.h): a table of
// φ's columns at the observed words, rebuilt each evaluation, then O(topics in the document)
// per token instead of O(K).
//
// Randomness: test document j always uses rng::Engine(seed, j), so results do not depend on
// the number of threads; per-document outputs are reduced in document order.
//
// Cost per evaluation: O(K W) for the table (W distinct observed words), O(num_sweeps *
// N_observed * nnz_d) for the sweeps (nnz_d: topics present in document d) plus O(K) per kept
// sweep and document for η̂, O(N_held_out * K) to score; memory O(N_test + D_test K + K W).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(DocumentCompletionPerplexity perplexity,
//                           DocumentCompletionPerplexity::Create(split.test, {.alpha = 0.1}));
//   for (...) {
//     ... train; fill topics (K x V) ...
//     const double running = perplexity.Evaluate(topics, &pool);
//   }
#ifndef SGMCMC_EVAL_PERPLEXITY_H_
#define SGMCMC_EVAL_PERPLEXITY_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "data/split.h"
#include "eval/lda_gibbs.h"
#include "eval/perplexity_state.pb.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"

namespace sgmcmc::eval {

struct PerplexityOptions {
  // Number of topics K; >= 1. Default 50.
  int num_topics = 50;
  // Symmetric document-topic Dirichlet parameter α of the model being evaluated; finite,
  // > 0, with num_topics α finite. Default 0.1.
  double alpha = 0.1;
  // Gibbs sweeps over each test document's observed tokens per evaluation; >= 1. Default 20.
  int num_sweeps = 20;
  // Sweeps discarded before averaging η̂; in [0, num_sweeps). Default 10 (half).
  int burn_in = 10;
  // Seed of the per-document engines (document j uses stream j). Default 1.
  uint64_t seed = 1;

  absl::Status Validate() const;
};

class DocumentCompletionPerplexity {
 public:
  // Keeps copies of both parts of `test`. InvalidArgument if options.Validate() fails or the
  // two parts differ in their number of documents or vocabulary size.
  static absl::StatusOr<DocumentCompletionPerplexity> Create(
      const data::DocumentCompletionSplit& test, const PerplexityOptions& options);

  // One evaluation with topics φ, row-major K x V (entries finite and >= 0 at the observed
  // words, CHECKed by the sweeps' table: validate outside input first, as FoldIn does; rows
  // normally sum to 1), V = the split's vocabulary size (checked). Adds the evaluation to the
  // running mean and returns the running perplexity. `pool` may be null (single-threaded).
  double Evaluate(absl::Span<const double> topics, parallel::ThreadPool* pool = nullptr);

  // One evaluation with the document-topic estimates given: row j of `doc_topics` (D_test x
  // K) is η̂ of test document j (entries >= 0, summing to 1). No Gibbs sampling.
  double AddEstimate(absl::Span<const double> doc_topics, absl::Span<const double> topics,
                     parallel::ThreadPool* pool = nullptr);

  // exp(-mean log of the running-mean p_dw); NaN before the first evaluation.
  double perplexity() const { return perplexity_; }
  // Perplexity of the last evaluation alone.
  double last_perplexity() const { return last_perplexity_; }
  int num_evaluations() const { return num_evaluations_; }
  int64_t num_held_out_tokens() const { return held_out_.num_tokens(); }
  // η̂ of the last evaluation, D_test x K.
  absl::Span<const double> doc_topics() const { return doc_topics_; }
  // Forgets all evaluations (e.g. at the end of a burn-in); assignments are kept.
  void ResetRunningMean();

  // Everything later evaluations depend on, for checkpoints (eval/perplexity_state.proto): an
  // evaluator made from the same split and options continues bit-identically after
  // RestoreState(GetState()).
  PerplexityState GetState() const;
  // InvalidArgument naming the field if a size does not match this split and options or an
  // assignment is outside [-1, K) (a document is either initialised or not, as a whole).
  absl::Status RestoreState(const PerplexityState& state);

 private:
  DocumentCompletionPerplexity(const data::DocumentCompletionSplit& test,
                               const PerplexityOptions& options);

  // Gibbs sweeps on the observed part of test document j with table_; writes η̂_j into
  // doc_topics_. `count_sums` is K entries of scratch.
  void EstimateDocument(int j, std::vector<int64_t>& count_sums);
  // Adds p_dw for the held-out tokens of every document to the running sums, updates the
  // perplexities.
  double Accumulate(absl::Span<const double> topics, parallel::ThreadPool* pool);

  PerplexityOptions options_;
  data::Corpus observed_;
  data::Corpus held_out_;
  std::vector<int32_t> assignments_;    // per observed token; -1 before initialisation
  std::vector<rng::Engine> engines_;    // one per test document
  std::vector<double> doc_topics_;      // D_test x K, η̂ of the last evaluation
  std::vector<double> probability_sum_; // per held-out token: Σ_e p^e_dw
  std::vector<double> doc_log_sum_;     // per test document, scratch of Accumulate
  std::vector<double> doc_last_log_sum_;
  // The distinct words of the observed parts (W, ascending), the observed tokens as indices
  // into them, and the sweeps' table of φ's columns at them (K x W, rebuilt each evaluation).
  std::vector<int32_t> observed_words_;
  std::vector<int32_t> local_observed_;
  MinibatchTopicTable table_;
  int num_evaluations_ = 0;
  double perplexity_;
  double last_perplexity_;
};

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_PERPLEXITY_H_
