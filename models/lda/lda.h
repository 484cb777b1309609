// Online LDA by stochastic-gradient MCMC on the topics: SCIR (Baker et al. 2018, §5.1) or
// SGRLD (Patterson & Teh 2013, §4, eqs. 9-11), with the document-topic proportions collapsed.
//
// One iteration m (docs/ALGORITHMS.md, "LDA with SGRLD / SCIR"):
//  1. draw a minibatch D_t of n documents uniformly without replacement (samplers::Minibatch);
//  2. the expected counts (D/n) Σ_{d∈D_t} E[n_dkw] by Gibbs sweeps with the topics π fixed
//     (LdaCountModel, models/lda/count_model.h);
//  3. one step of the topic sampler (any samplers::SimplexSampler: SCIR or SGRLD) with those
//     counts and step size h_m = h (1 + m/τ)^(-κ).
// Lda drives the three steps, owns the sampler and checkpoints the run (models/lda/state.proto).
//
// Threads: step 2 is bit-identical for any number of threads (models/lda/count_model.h), its
// key is one word of the driver's engine, and step 3 and the posterior mean run row by row
// inside step 2's call of the pool, as its count merge completes each row
// (LdaCountModel::ScaledCountsByRow, the threads taking the rows one at a time, costliest
// first by the last iteration's seconds per row; the samplers' per-(step, row) streams make a row's draws
// independent of its thread and turn); so a run is bit-identical for any pool (tested), and
// an iteration wakes the workers once (twice with kLazy, whose materialisation before step 2
// is a call of its own) and has four barriers, all inside step 2.
//
// The topic update (LdaOptions.topic_update): kEager moves every one of the K x V entries every
// iteration (the samplers' zero-count fast path); kLazy (SCIR only) keeps the zero-count
// entries in exact per-topic pools (samplers/scir_lazy.h) and materialises the minibatch's
// words before step 2, the same chain in law.
//
// Posterior mean: with LdaOptions::mean_burn_in >= 0, Step() also keeps the running mean of π
// over the kept samples (every mean_every-th state from iteration mean_burn_in on), streamed
// as mean += (π - mean) / n after the step, no extra pass and no stored samples; it is part of
// the checkpoint, so a restored run continues it bit-identically. Off by default.
//
// Cost per iteration: that of LdaCountModel::ScaledCounts (O(K U + S N_t nnz), see there) plus
// O(K V) for the eager topic update, O(K (U + r S_pool)) for the lazy one (r = e^{-h}/(1 −
// e^{-h}), S_pool the pooled mass of a topic), plus O(K V) per kept sample when the posterior
// mean is on. Measured: models/lda/lda_benchmark.cc.
//
// Example:
//   parallel::ThreadPool pool(2);
//   SGMCMC_ASSIGN_OR_RETURN(Lda lda, Lda::Create(train, LdaPresetOptions(LdaPreset::kScirFast),
//                                                &pool));
//   for (int m = 0; m < 1000; ++m) lda.Step();
//   std::vector<double> topics(lda.num_topics() * lda.vocabulary_size());
//   lda.Topics(absl::MakeSpan(topics));
//   // With options.mean_burn_in = 500 set before Create: the posterior mean over 500 samples.
//   lda.PosteriorMeanTopics(absl::MakeSpan(topics));
#ifndef SGMCMC_MODELS_LDA_LDA_H_
#define SGMCMC_MODELS_LDA_LDA_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/lda/count_model.h"
#include "models/lda/state.pb.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/scir_lazy.h"
#include "samplers/simplex_sampler.h"
#include "samplers/step_size.h"

namespace sgmcmc::models {

enum class LdaSampler { kScir, kSgrld };

// How SCIR's topic update moves the entries with a zero count (docs/ALGORITHMS.md, "Lazy
// SCIR"): kEager moves all K x V entries every iteration (samplers::Scir); kLazy keeps them in
// per-topic pools with exact sums (samplers::LazyScir: the same chain in law, tested against
// kEager), materialising only the minibatch's words before the Gibbs sweeps, so an iteration
// costs O(K (U + r S_pool)) instead of O(K V) (samplers/scir_lazy.h).
enum class LdaTopicUpdate { kEager, kLazy };

// "eager" / "lazy".
absl::string_view LdaTopicUpdateName(LdaTopicUpdate update);

// "scir" / "sgrld".
absl::string_view LdaSamplerName(LdaSampler sampler);

struct LdaOptions {
  // Topic update. Default kScir.
  LdaSampler sampler = LdaSampler::kScir;
  // Number of topics K, in [1, 2^24). Default 100.
  int num_topics = 100;
  // Symmetric document-topic Dirichlet parameter α; finite, > 0, K α finite. Default 0.1.
  double alpha = 0.1;
  // Symmetric topic-word Dirichlet parameter β; finite, > 0, V β finite (checked by Create).
  // Default 0.5.
  double beta = 0.5;
  // Step size h_m; any valid samplers::StepSizeOptions. Default h (1 + m/τ)^(-κ) with
  // h = 0.5, τ = 10, κ = 0.33 (SCIR's LDA setting, Baker et al. 2018, Table 2).
  samplers::StepSizeOptions step_size = samplers::StepSizeOptions::PolynomialDecay(0.5, 10, 0.33);
  // Documents per minibatch n, in [1, D] (D the training documents). Default 50.
  int minibatch_size = 50;
  // Gibbs sweeps S per document per iteration, >= 1; the last S - floor(S/2) are averaged.
  // Default 200 (the papers' setting).
  int gibbs_sweeps = 200;
  // Early sweep schedule (docs/ALGORITHMS.md, "Fewer sweeps while the topics are far from
  // settled"): the first early_iterations iterations (zero-based m < early_iterations) run
  // early_gibbs_sweeps sweeps per document instead of gibbs_sweeps, the same estimator
  // (kSweepAverage: the last S - floor(S/2) of those averaged); from iteration
  // early_iterations on, gibbs_sweeps. Each iteration's per-document chain stays a valid
  // MCMC kernel for p(z_d | π): fewer sweeps change the bias and variance of the counts
  // handed to the topic sampler during the early iterations only; after them the chain is
  // the one without a schedule. Both >= 0; early_gibbs_sweeps = 0 or early_iterations = 0
  // means no schedule. Defaults 0 (every preset's but kSgrldFastEarly).
  int early_gibbs_sweeps = 0;
  int64_t early_iterations = 0;
  // Which counts the Gibbs sweeps report to the topic sampler (models/lda/count_model.h):
  // kSweepAverage (the average of the kept sweeps, the papers' estimator and every preset's)
  // or kLastSweep (one assignment's counts). Averaged counts bias SCIR's stationary law for
  // any step size (docs/ALGORITHMS.md, "LDA with SGRLD / SCIR"). kPersistentJoint (the
  // exact scheme at any h: persistent assignments z of the whole corpus, Gibbs on the joint's
  // conditional with SCIR's θ) is valid only with sampler kScir and minibatch_size == D (full
  // batch), which Validate(D) checks; its z is part of the checkpoint (LdaState.assignments),
  // and its sweeps run on one thread. Default kSweepAverage.
  LdaCountEstimator count_estimator = LdaCountEstimator::kSweepAverage;
  // SCIR's topic update (LdaTopicUpdate); kLazy needs sampler kScir and a count estimator
  // other than kPersistentJoint (Validate checks). Both are exact (the same chain in law).
  // Default kEager: kLazy's update is 2.1-3.3x faster at V = 60k-100k and 1.1-1.4x at KOS's
  // V = 6906 (models/lda/lda_benchmark.cc, BM_LdaTopicUpdate), but reading all of π (Topics,
  // checkpoints, and every sample the posterior mean keeps) materialises every row, O(K V)
  // per read, so a run that reads π every iteration (mean_every = 1 after mean_burn_in) loses
  // the saving and more; and the lazy chain's draws differ from the eager one's.
  LdaTopicUpdate topic_update = LdaTopicUpdate::kEager;
  // Key of every random stream of the run (minibatches, Gibbs, topic update). Default 1.
  uint64_t seed = 1;
  // Posterior-mean topic matrix (Lda::PosteriorMeanTopics): the running mean of π over the
  // kept samples, the states after m completed iterations with m >= max(mean_burn_in, 1) and
  // (m - mean_burn_in) % mean_every == 0. >= -1; -1 keeps no mean (and costs nothing).
  // Default -1.
  int64_t mean_burn_in = -1;
  // Keep every this many iterations after mean_burn_in; >= 1. Default 1.
  int64_t mean_every = 1;
  // The burn-in a driver should use (for mean_burn_in and its running-mean perplexity) when
  // its user sets none: an iteration >= 0, or -1 for half of the run. Lda itself never reads
  // it; the lda tool does (tools/lda_run.h, ResolveLdaRuns: used when below the run's
  // iterations, else half of the run). >= -1. Default -1; kSgrldFastEarly's is
  // kEarlyIterations, where its early sweep schedule and large early steps end.
  int64_t default_burn_in = -1;
  // The D of the expected counts' (D/n) scale (step 2): 0 for the training corpus' number of
  // documents, else this many (online fitting on a chunk of a corpus of this size, like
  // scikit-learn's total_samples); >= 0, and 0 with kPersistentJoint. Default 0.
  int64_t corpus_documents = 0;

  // OK, or InvalidArgument naming the first field out of range (num_documents is D, for
  // minibatch_size; pass a negative value to skip that check).
  absl::Status Validate(int num_documents = -1) const;
};

// Settings: the papers' (Baker et al. 2018, Table 2, shared with Patterson & Teh 2013 for
// SGRLD; tuned there on Wikipedia) and ours, tuned with equal effort for both samplers by a
// grid search over held-out perplexity on KOS at K = 50 (α, β, h, τ, κ; bench/README.md,
// "Tuning"), with the sweeps tuned for time-to-perplexity on one core.
enum class LdaPreset {
  kScirPaper,   // SCIR h = 0.5, τ = 10, κ = 0.33, α = 0.1, β = 0.5, K = 100, n = 50, S = 200
  kSgrldPaper,  // SGRLD h = 0.02 (Table 2's 0.01 in the released code's half-step
                // convention, converted to ours: samplers/sgrld.h), τ = 1000, κ = 0.6,
                // α = 0.01, β = 1e-4, K = 100, n = 50, S = 200
  kScirFast,    // SCIR h = 0.5, τ = 10, κ = 0.33, α = 0.1, β = 0.1, K = 100, n = 50,
                // S = kFastGibbsSweeps
  kSgrldFast,   // SGRLD h = 0.1, τ = 100, κ = 0.6, α = 0.1, β = 0.01, K = 100, n = 50,
                // S = kFastGibbsSweeps
  kSgrldFastEarly,  // SGRLD h = kEarlyH = 0.4, τ = 10, κ = 0.6, α = 0.1, β = 0.01, K = 100,
                    // n = 50, S = kEarlyGibbsSweeps = 6 for the first kEarlyIterations = 60
                    // iterations, then kFastGibbsSweeps: tuned for the time to a given
                    // fold-in perplexity (bench/README.md, issue 22); default_burn_in =
                    // kEarlyIterations (the posterior mean starts there)
};
// Gibbs sweeps per document of the tuned presets: on KOS (K = 50, one core) 20 sweeps reach a
// given perplexity sooner than 5, 10 or 50 (bench/README.md).
inline constexpr int kFastGibbsSweeps = 20;
// kSgrldFastEarly (bench/README.md, issue 22): kEarlyGibbsSweeps sweeps per document for the
// first kEarlyIterations iterations, then kFastGibbsSweeps; step size h (1 + m/τ)^(-κ) with
// (h, τ, κ) = (kEarlyH, kEarlyTau, kEarlyKappa).
inline constexpr int kEarlyGibbsSweeps = 6;
inline constexpr int64_t kEarlyIterations = 60;
inline constexpr double kEarlyH = 0.4;
inline constexpr double kEarlyTau = 10;
inline constexpr double kEarlyKappa = 0.6;

LdaOptions LdaPresetOptions(LdaPreset preset);

// The default preset for a training corpus whose documents hold `mean_document_length`
// tokens on average (bench/README.md, "The default preset by document length", measured on
// KOS, AP, 20 Newsgroups, Reuters-21578 and Reuters headlines at K = 50, one thread):
// kScirFast from kScirMinMeanDocumentLength tokens per document on (on the long-document
// corpora its posterior mean ended lower after the same passes, at 2-4x the time per pass),
// kSgrldFast below it (on the short-document corpora SCIR's O(K V) topic update dominates:
// SGRLD ended lower at a third to a quarter of the time). Any mean_document_length >= 0.
inline constexpr double kScirMinMeanDocumentLength = 100;
LdaPreset DefaultLdaPreset(double mean_document_length);

// The default preset for a corpus held in memory (the lda tool without a stream, the Python
// estimator's fit): kScirFast when its counts are sparse for K, fewer than
// kScirMaxInMemoryEntriesPerCell document-word entries (`entries`, the training documents'
// distinct (document, word) pairs) per topic-word cell, else
// DefaultLdaPreset(mean_document_length). Measured in memory (bench/README.md, "The default
// preset by document length", sparse counts): Reuters-21578 (68 tokens per document), 5 passes,
// K = 200 / 300 / 500 (0.44 / 0.29 / 0.18 entries per cell): sgrld_fast 875.8 / 939.6 / 1083.7,
// scir_fast 850.5 / 881.4 / 966.2 (SCIR 2.9-10.8% lower at 3.6-4.2x the time), where at K = 50
// (1.76 per cell) SGRLD ended 1.7% lower, and on Reuters headlines at K = 50 (about 0.52 per
// cell) 4.3% lower. The lda tool gives that SCIR ScirBetaByDensity's β, as Python does
// (Reuters at K = 500: 880.8 against 966.2 with the preset's 0.1; KOS at K = 100 / 200,
// 0.46 / 0.23 per cell: 1534.9 / 1502.6 against 1552.6 / 1570.5; AP at K = 100 / 200, 0.26 /
// 0.13 per cell, mean of two seeds: 2605.8 / 2536.1 against 2576.0 / 2599.0). Requires
// entries >= 0, K, V >= 1.
inline constexpr double kScirMaxInMemoryEntriesPerCell = 0.5;
LdaPreset DefaultInMemoryLdaPreset(double mean_document_length, int64_t entries, int num_topics,
                                   int vocabulary_size);

// The settings for a streamed run over many topics and words when the user names none (the
// lda_distributed tool, and the lda tool on a stream), from the density of the counts:
// `entries` distinct (document, word) pairs (a docword file's NNZ) per topic-word cell,
// d = entries / (K V).
//  - From kSgrldMinEntriesPerCell on: kSgrldFast with its β.
//  - Below it: kScirFast with β = kScirBetaPerEntryPerCell x d, clamped to
//    [kScirMinDensityBeta, the preset's β = 0.1]: a topic's prior pseudo-counts β V are then
//    a fifth of its share of the entries, entries / K.
// Measured (bench/README.md, "The default by density on real text"), one pass, posterior-mean
// fold-in perplexity, mean of 3 seeds: 20 Newsgroups + Reuters-21578 as one stream (V = 10^4,
// NNZ 2.32 x 10^6) at K = 100 / 200 / 500 / 1000, d = 2.32 / 1.16 / 0.46 / 0.23: sgrld_fast
// 720.7 / 763.2 / 923.1 / 1154.8, scir_fast (β 0.1) 727.9 / 694.3 / 710.4 / 792.5, scir_fast
// with β 0.01 841.3 / 782.4 / 750.5 / 740.3; on the 20 Newsgroups' bag of words (V = 61,188,
// 245 tokens per document, its test half held out) at K = 5 / 8 / 12 / 16 / 25 / 50 / 100,
// d = 4.80 / 3.00 / 2.00 / 1.50 / 0.96 / 0.48 / 0.24: sgrld_fast
// 1698 / 1630 / 1604 / 1602 / 1596 / 1628 / 1667, scir_fast (β 0.1)
// 1828 / 1740 / 1669 / 1624 / 1577 / 1536 / 1534 (so its crossover lies lower, near 1.2); on
// the synthetic corpora of "K = 1000: where the mass goes" (d = 7.9: sgrld_fast 355 against
// scir_fast 373; d = 0.16: β 0.0158 1497, β 0.01 1489, β 0.1 1740, sgrld_fast 2227; d = 1.58:
// β 0.1 1471, β 0.01 1469, sgrld_fast 1542). SGRLD's Euler step over-weights the rare words
// when the counts per cell are few; a β too large for the counts swamps them, one too small
// leaves SCIR's topics too sparse. The threshold: on the text stream SCIR leads from 1.93 down
// (by 2.0%, 3.7% at 1.66, 10% at 1.16), with a tie at 2.32, where SGRLD is 1.8x faster; on
// the bag of words SGRLD still leads at 2.00 and 1.50 (3.9%, 1.3%). The factor 0.2 (bench/
// README.md, "β by density on seven corpora"): against 0.1 it ended 0.3-4.9% lower on
// AP, Cora, 20 Newsgroups' bag of words, KOS at K = 100, poliblog at K = 100 and Reuters at
// K = 500, whose vocabularies keep their rare words or whose counts are only moderately
// sparse, and 0.7-1.8% higher on the text stream at K = 500 / 1000 (d = 0.46 / 0.23), KOS at
// K = 200 and poliblog at K = 200, whose pruned vocabularies favour less smoothing; the
// most either factor lost against the better of the two: 1.8% for 0.2, 5.1% for 0.1 (AP,
// K = 200); on the synthetic corpus drawn with β = 0.01 (d = 0.158) 0.2 ended 2.3% higher, with
// the same recovery. `reason` says which rule applied. Requires entries >= 0, K, V >= 1.
inline constexpr double kSgrldMinEntriesPerCell = 2;
inline constexpr double kScirBetaPerEntryPerCell = 0.2;
inline constexpr double kScirMinDensityBeta = 0.01;
struct LdaDensityDefault {
  LdaPreset preset;
  double beta;         // the preset's β, or SCIR's β by density
  std::string reason;  // e.g. "0.16 document-word entries per topic-word cell (< 2): ..."
};
LdaDensityDefault DefaultLdaSettingsByDensity(int64_t entries, int num_topics,
                                              int vocabulary_size);
// The β of the rule's SCIR side for these counts, whatever the density:
// kScirBetaPerEntryPerCell x entries / (K V) within [kScirMinDensityBeta, scir_fast's β]
// (the Python estimator's default β for SCIR). Requires entries >= 0, K, V >= 1.
double ScirBetaByDensity(int64_t entries, int num_topics, int vocabulary_size);
// The document-topic α of a run that sets none and names no preset (the lda tool's runs
// without preset or alpha, lda_distributed without --preset, lda_transform's and
// lda_evaluate's --alpha=0, the Python estimator's alpha=None): a document's prior
// pseudo-counts over its topics, K α, are kDefaultAlphaMidK x K kept within
// [kDefaultMinTopicMass, kDefaultMaxTopicMass] = [5, 10], and α at most the fast presets' 0.1.
// So α = 0.1 up to K = 50 (the presets' tuned value), 5 / K up to K = 100, 0.05 up to
// K = 200, then 10 / K (K = 500: 0.02, K = 1000: 0.01). Measured (bench/README.md, "α at
// large K"; posterior-mean fold-in perplexity, each run under its own α; means over 2-3
// seeds, the rule against 0.1): K = 100 (α 0.05): 20 Newsgroups + Reuters-21578 as one stream
// (89 tokens per document) -3.9%, Cora -3.0%, KOS -0.6%, poliblog 0.0%, AP +0.2%; K = 200
// (0.05): the stream -6.1%, Reuters-21578 -5.2%, AP -1.7%, KOS -1.2%, poliblog -0.7%, Cora
// 0.0%; K = 500 (0.02): the stream -15.3%, Reuters -13.7%, KOS -2.6%, AP -0.4%; K = 1000
// (0.01): the stream -21.2% (589.2 against 748.1; 0.005 and 0.002 worse). Every α tried
// (0.1 to 0.002) was at most 3.1% below the rule in any cell. Not the evaluator's doing
// alone: the K = 1000 stream's topics trained with α = 0.1 score 653.3 folded in with
// α = 0.01, the rule's 593.1. The cost: on a synthetic corpus drawn with α = 0.1 at K = 1000
// (100 tokens per document, about 70 topics each) the rule ends at 1668.8 against 1531.7,
// recovery 0.862 against 0.757. A smaller α also makes the sparse Gibbs sweep cheaper
// (eval/lda_gibbs.h: O(topics present) per token). Requires K >= 1.
inline constexpr double kDefaultAlphaMidK = 0.05;
inline constexpr double kDefaultMinTopicMass = 5;
inline constexpr double kDefaultMaxTopicMass = 10;
double DefaultLdaAlpha(int num_topics);
// "scir_paper", "sgrld_paper", "scir_fast", "sgrld_fast", "sgrld_fast_early".
absl::string_view LdaPresetName(LdaPreset preset);
// Inverse of LdaPresetName; InvalidArgument listing the valid names.
absl::StatusOr<LdaPreset> ParseLdaPreset(absl::string_view name);

// The topic sampler of `options` (sampler, topic_update, β, seed) for K = options.num_topics
// rows of `vocabulary_size` columns: Scir, LazyScir or Sgrld.
absl::StatusOr<std::unique_ptr<samplers::SimplexSampler>> MakeLdaTopicSampler(
    const LdaOptions& options, int vocabulary_size);

// Stream ids of the LDA driver under the run's seed; their top byte (0x1D) differs from the
// simplex samplers' (0x5C) and from data::kSplitStream.
inline constexpr uint64_t kLdaDriverStream = uint64_t{0x1D} << 56;

class Lda {
 public:
  // InvalidArgument naming the field if options.Validate(D) fails or the corpus has fewer
  // than 2 words. The corpus and pool (may be null) must outlive the Lda.
  static absl::StatusOr<Lda> Create(const data::Corpus& train, const LdaOptions& options,
                                    parallel::ThreadPool* pool);
  // Streaming (online) LDA over a corpus that is never held in memory (Patterson & Teh 2013,
  // §5): no training corpus; each StepOn(documents) is one iteration on a minibatch the
  // caller drew (e.g. from data/uci_stream.h), its counts scaled by options.corpus_documents
  // / n, which must be > 0 (the D of the stream). Step() must not be called. Same errors as
  // Create, and kPersistentJoint (full batch) is refused. Memory: O(K V) for the topics, plus
  // the minibatch; independent of D.
  static absl::StatusOr<Lda> CreateStreaming(int vocabulary_size, const LdaOptions& options,
                                             parallel::ThreadPool* pool);

  Lda(Lda&&) = default;
  Lda& operator=(Lda&&) = default;

  // One iteration: minibatch, Gibbs sweeps, topic update. Not for a streaming Lda.
  void Step();
  // One iteration on `documents` (every one of them the minibatch; word ids in [0, V)), for
  // a streaming Lda (CreateStreaming; CHECKed). InvalidArgument naming the document and word
  // for an id outside [0, V) or an empty minibatch, with nothing changed. The draws depend
  // only on the documents, their order and the state, so a stream that replays the same
  // minibatches after a Restore continues bit-identically.
  absl::Status StepOn(const data::Corpus& documents);
  bool streaming() const { return stream_batch_ != nullptr; }

  int64_t iteration() const { return iteration_; }
  const LdaOptions& options() const { return options_; }
  int num_topics() const { return options_.num_topics; }
  int vocabulary_size() const { return count_model_->dimension(); }
  // Step size of iteration m (the one Step() uses next is step_size(iteration())).
  double step_size(int64_t m) const { return step_size_(m); }
  // Gibbs sweeps per document of iteration m (the early schedule, then gibbs_sweeps).
  int gibbs_sweeps(int64_t m) const {
    return m < options_.early_iterations && options_.early_gibbs_sweeps > 0
               ? options_.early_gibbs_sweeps
               : options_.gibbs_sweeps;
  }
  const LdaCountModel::Stats& last_stats() const { return count_model_->last_stats(); }
  // Seconds of the last topic update (with kLazy, the materialisation of the minibatch's words
  // included). The update and the mean run inside the counts' pool call, row by row as the
  // merge completes each row, each thread on its share of the rows: this is the wall time of
  // that phase (LdaCountModel::Stats::rows_seconds less the merge's share) split between the
  // update and the mean in the proportions of the calling thread's own seconds in each (on one
  // thread, exactly the update's seconds).
  double last_update_seconds() const { return update_seconds_; }
  // Seconds the last Step() spent adding π to the posterior mean (0 when it kept no sample;
  // with kLazy, the materialisation of every row included), counted the same way.
  double last_mean_seconds() const { return mean_seconds_; }
  const samplers::SimplexSampler& sampler() const { return *sampler_; }

  // π, K x V row-major (each row on the simplex), computed over the pool.
  void Topics(absl::Span<double> out) const;

  // Samples kept in the posterior mean so far (0 when off or before mean_burn_in).
  int64_t posterior_mean_samples() const { return mean_samples_; }
  // The posterior-mean topic matrix, K x V row-major (rows on the simplex up to rounding): the
  // mean of π over the posterior_mean_samples() kept samples; the current π while there are
  // none.
  void PosteriorMeanTopics(absl::Span<double> out) const;

  // A checkpoint (models/lda/state.proto): everything Step() reads, so a restored run
  // continues bit-identically (the options and corpus are not stored; restore with the same).
  LdaState State() const;
  // InvalidArgument (naming what) if the state does not fit the options.
  absl::Status Restore(const LdaState& state);

 private:
  Lda(const data::Corpus& train, const LdaOptions& options, parallel::ThreadPool* pool,
      std::unique_ptr<LdaCountModel> count_model, samplers::Minibatch minibatch,
      samplers::StepSize step_size, std::unique_ptr<samplers::SimplexSampler> sampler);
  // Create's work on a training corpus (for streaming: the holder of the minibatches).
  static absl::StatusOr<Lda> CreateOn(const data::Corpus& train, const LdaOptions& options,
                                      int num_documents, parallel::ThreadPool* pool);
  // One iteration on the documents `batch` of *train_.
  void StepBatch(absl::Span<const int64_t> batch);
  // Whether the state after m completed iterations is a posterior-mean sample.
  bool KeepsSample(int64_t m) const;
  // Counts the sample about to be added (sizing the mean and `threads` scratch rows) and
  // returns its weight 1 / (samples kept, this one included).
  double BeginPosteriorMeanSample(int threads);
  // Adds row `row` of the current π to the posterior mean with weight `inverse` (1 / the
  // samples kept, this one included), through thread `thread`'s row of mean_scratch_ (so the
  // row stays in cache); different rows may run concurrently on different threads.
  void AddToPosteriorMean(int row, int thread, double inverse);

  // fn(k) for every topic k: on the calling thread, or over the pool's threads taking the
  // topics one at a time (rows cost unequally; a row's result does not depend on its thread).
  void ForEachTopic(absl::FunctionRef<void(int topic)> fn);

  LdaOptions options_;
  const data::Corpus* train_;
  // Streaming: the current minibatch's documents (train_ points here), and their slots.
  std::unique_ptr<data::Corpus> stream_batch_;
  std::vector<int64_t> stream_slots_;
  parallel::ThreadPool* pool_;
  std::unique_ptr<LdaCountModel> count_model_;
  samplers::Minibatch minibatch_;
  samplers::StepSize step_size_;
  std::unique_ptr<samplers::SimplexSampler> sampler_;
  rng::Engine driver_;
  // kLazy: the sampler as samplers::LazyScir (else null), and the minibatch's distinct words
  // (ascending) with their marks (V, scratch of Step).
  samplers::LazyScir* lazy_ = nullptr;
  std::vector<int32_t> words_;
  std::vector<char> word_marks_;
  // Each row's seconds (update and mean) in the last iteration, and their copy that the count
  // model reads to assign the rows to threads while row_seconds_ is rewritten; they affect
  // only which thread steps a row, never its draws.
  std::vector<double> row_seconds_;
  std::vector<double> row_costs_;
  int64_t iteration_ = 0;
  double update_seconds_ = 0;
  double mean_seconds_ = 0;
  std::vector<double> mean_;          // K x V running mean of π; empty before the first sample
  std::vector<double> mean_scratch_;  // threads x V, a row of π being added, per thread
  int64_t mean_samples_ = 0;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_LDA_LDA_H_
