// Fold-in of LDA document-topic proportions with the topics fixed, and the point-estimate
// perplexity built on it: the one evaluator every topic-matrix point estimate is scored with
// (the `lda` tool's posterior mean and last sample, scikit-learn's components_ in
// bench/lda_vs_sklearn.py; docs/ALGORITHMS.md, "Point-estimate evaluation by fold-in").
//
// Fold-in. For a document with word counts n_w (n = Σ_w n_w), topics φ (K x V, rows on the
// simplex) and a symmetric Dirichlet(α) prior on θ, θ̂ is the fixed point of
//   r_wk = θ_k φ_kw / Σ_j θ_j φ_jw,        θ_k ← (α + Σ_w n_w r_wk) / (n + K α),
// started from θ_k = 1/K and iterated (each step an EM step θ ← F(θ)) until one step moves no
// θ_k by more than the tolerance (its result is returned) or max_iterations EM steps have run.
// The steps are accelerated by SQUAREM (Varadhan & Roland 2008, scheme S3): two EM steps
// θ1 = F(θ0), θ2 = F(θ1) give r = θ1 − θ0, v = θ2 − 2θ1 + θ0 and a = −|r|/|v| (at most −1);
// θ0 ← F(θ0 − 2a r + a² v), with a moved halfway to −1 while the extrapolation has an entry
// <= 0 (a = −1 is θ2). At K = 1000 plain EM took ~635 steps per document to meet the default
// tolerance (so the default cap of 200 stopped short of the fixed point: 0.025 in L1), SQUAREM
// ~104; at K = 50 (KOS) 60 and 21 (bench/README.md, "The fold-in's fixed point").
// Its fixed point is the unique maximiser over the simplex of the strictly concave
//   L(θ) = Σ_w n_w log(Σ_k θ_k φ_kw) + α Σ_k log θ_k
// (the stationarity condition ∂L/∂θ_k = λ, multiplied by θ_k and summed over k, gives
// λ = n + Kα and then exactly the update above), i.e. the posterior mode under Dirichlet(α+1),
// with the form (n̂_dk + α)/(n_d + Kα) of Patterson & Teh 2013 eq. 15 with expected counts in
// place of sampled ones. Each step is an EM step for L, so L never decreases. It is
// deterministic (no randomness; documents are independent, so any thread count gives the same
// bits). A word whose column of φ is all zero carries no information: r_wk = θ_k, and the
// fixed point is that of the document without it.
//
// Averaged fold-in: with several samples φ^(s) of the topics (e.g. kept samples of a chain),
// θ̂ = (1/S) Σ_s θ̂(φ^(s)), each term a fold-in as above.
//
// Point-estimate perplexity. The test documents are split by data::SplitForDocumentCompletion
// into observed and held-out parts; θ̂_d is folded in from the observed part with φ fixed and
//   perplexity = exp(-Σ_{d,i} log Σ_k θ̂_dk φ_{k,w_di} / N_held_out)
// over the held-out tokens. Unlike eval/perplexity.h (Gibbs sampling of θ and a running mean
// of p_dw over evaluations, the SG-MCMC predictive), it scores one φ as a point estimate, with
// no randomness and no memory between evaluations; the two are never mixed.
//
// Cost: O(EM steps * U * K) per document (U its distinct words; at most max_iterations; the
// per-word sums in eight partial sums, four words at a time, each group's accumulation then
// adding four words per load and store of its K sums; AVX-512 or AVX2 where the CPU has it, the same bits
// on every path and as one word at a time; measured: eval/fold_in_benchmark.cc), O(N_held_out K) for the scoring, O(K V) to check φ's entries and O(K W) to copy
// the columns of the W distinct words of all documents word-major (kept between calls);
// memory O(W K).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(FoldIn fold_in, FoldIn::Create(documents, /*num_topics=*/50, {}));
//   std::vector<double> theta(documents.num_documents() * 50);
//   SGMCMC_RETURN_IF_ERROR(fold_in.Transform(topics, absl::MakeSpan(theta), &pool));
//   SGMCMC_ASSIGN_OR_RETURN(FoldInPerplexity evaluator,
//                           FoldInPerplexity::Create(split.test, 50, {.alpha = 0.1}));
//   SGMCMC_ASSIGN_OR_RETURN(double perplexity, evaluator.Evaluate(topics, &pool));
#ifndef SGMCMC_EVAL_FOLD_IN_H_
#define SGMCMC_EVAL_FOLD_IN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "data/split.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::eval {

struct FoldInOptions {
  // Symmetric document-topic Dirichlet parameter α of the model; finite, > 0, with K α
  // finite (Create). Default 0.1.
  double alpha = 0.1;
  // EM steps per document at most (SQUAREM's included); >= 1. Default 200.
  int max_iterations = 200;
  // Stop when one EM step moves no θ_k by more than this; finite, >= 0 (0: until a step
  // changes nothing, or max_iterations). Default 1e-6.
  double tolerance = 1e-6;

  // OK, or InvalidArgument naming the first field out of range.
  absl::Status Validate() const;
};

// Fold-in of the documents of a corpus (their word counts, kept in compressed form).
class FoldIn {
 public:
  // InvalidArgument if num_topics < 1 or options.Validate() fails.
  static absl::StatusOr<FoldIn> Create(const data::Corpus& documents, int num_topics,
                                       const FoldInOptions& options);

  // θ̂ of every document into `doc_topics` (D x K row-major, rows on the simplex) for topics
  // φ (K x V row-major, V = the corpus' vocabulary size). InvalidArgument if a size does not
  // match or an entry of φ is negative or not finite. `pool` may be null.
  absl::Status Transform(absl::Span<const double> topics, absl::Span<double> doc_topics,
                         parallel::ThreadPool* pool = nullptr) const;

  // The averaged fold-in: (1/S) Σ_s θ̂(φ^(s)) over the S >= 1 samples (each K x V).
  absl::Status TransformAveraged(absl::Span<const absl::Span<const double>> topic_samples,
                                 absl::Span<double> doc_topics,
                                 parallel::ThreadPool* pool = nullptr) const;

  int num_documents() const { return static_cast<int>(offsets_.size()) - 1; }
  int num_topics() const { return num_topics_; }
  int vocabulary_size() const { return vocabulary_size_; }
  const FoldInOptions& options() const { return options_; }
  // Fixed-point iterations of the last Transform, summed over its documents.
  int64_t last_iterations() const { return last_iterations_; }

 private:
  FoldIn(const data::Corpus& documents, int num_topics, const FoldInOptions& options);

  // Checks every entry of φ (K x V; InvalidArgument naming the first negative or non-finite
  // one) and copies the columns of needed_words_ into topics_by_word_ (U x K).
  absl::Status GatherColumns(absl::Span<const double> topics) const;
  // θ̂ of document d into `theta` (K); `topics_by_word` holds the columns of needed_words_
  // (U x K); `scratch` holds 4 K doubles; returns the EM steps used.
  int TransformDocument(int d, const double* topics_by_word, double* theta,
                        double* scratch) const;

  FoldInOptions options_;
  int num_topics_;
  int vocabulary_size_;
  std::vector<int64_t> offsets_;       // size D + 1, into words_ / counts_
  std::vector<int32_t> words_;         // distinct words of every document, ascending, as
                                       // indices into needed_words_
  std::vector<double> counts_;         // their counts n_w
  std::vector<int32_t> needed_words_;  // the words of all documents, ascending (U)
  // Scratch of Transform (kept between calls: at K = 1000 it is tens of MB, whose fresh pages
  // the kernel would zero on every evaluation). So a FoldIn is not for concurrent use.
  mutable std::vector<double> topics_by_word_;
  mutable int64_t last_iterations_ = 0;
};

namespace internal {

// The instruction sets the fold-in's iterations are compiled for (the same bits on each).
enum class FoldInIsa { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };
// The one used: the widest the CPU has, or at most the one set for testing.
FoldInIsa FoldInInstructionSet();
// Tests only: use at most `isa` (nullopt: the widest again), so that a test can check every
// path the CPU has against the same reference.
void SetFoldInInstructionSetForTesting(std::optional<FoldInIsa> isa);

}  // namespace internal

// The point-estimate perplexity of topic matrices on a document-completion split.
class FoldInPerplexity {
 public:
  // Keeps copies of both parts of `test`. InvalidArgument if num_topics < 1, the options are
  // invalid or the two parts differ in their number of documents or vocabulary size.
  static absl::StatusOr<FoldInPerplexity> Create(const data::DocumentCompletionSplit& test,
                                                 int num_topics, const FoldInOptions& options);

  // The perplexity of φ (K x V; InvalidArgument as FoldIn::Transform). Fills doc_topics().
  absl::StatusOr<double> Evaluate(absl::Span<const double> topics,
                                  parallel::ThreadPool* pool = nullptr);

  // θ̂ of the last evaluation, D_test x K.
  absl::Span<const double> doc_topics() const { return doc_topics_; }
  int64_t num_held_out_tokens() const { return held_out_.num_tokens(); }
  const FoldIn& fold_in() const { return fold_in_; }

 private:
  FoldInPerplexity(FoldIn fold_in, const data::Corpus& held_out);

  FoldIn fold_in_;
  data::Corpus held_out_;
  std::vector<double> doc_topics_;
  std::vector<double> doc_log_sum_;
};

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_FOLD_IN_H_
