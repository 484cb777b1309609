// The `lda` tool's engine (tools/lda.cc is its command line): reads an LdaConfig textproto,
// loads the corpus and the held-out split, trains every configured run (models::Lda with SCIR
// or SGRLD), evaluates the document-completion perplexity (eval/perplexity.h) on the same
// split for all runs, prints progress, and writes the outputs and checkpoints.
//
// Outputs in the output directory, per run NAME:
//   trace_NAME.csv        iteration, train_seconds, documents, tokens, step_size, perplexity
//                         (this evaluation alone), running_perplexity (running mean of p_dw
//                         over the evaluations after burn-in; before it, = perplexity)
//   topics_NAME.txt       top words of every topic, with its 90%-mass size and sparsity
//   topic_matrix_NAME.phi the final π (last sample), binary and bit-exact (data/topic_matrix.h)
//   topic_matrix_NAME.tsv the same as text, K lines of V tab-separated probabilities, when
//                         LdaWritesTsv (by default only when K x V <= 10^7)
//   topic_matrix_mean_NAME.phi, topic_matrix_mean_NAME.tsv
//                         the posterior-mean topic matrix: the mean of π over the samples
//                         kept from burn_in on (every mean_every iterations), streamed during
//                         training (models::Lda::PosteriorMeanTopics); once it has samples
//   point_trace_NAME.csv  iteration, train_seconds, fold_in_perplexity_last,
//                         fold_in_perplexity_mean (the headline figure: the posterior-mean
//                         topics), mean_samples (point estimates scored by
//                         fold-in, eval/fold_in.h), gibbs_running_predictive_perplexity (=
//                         trace's running_perplexity, the SG-MCMC predictive: a different
//                         quantity, in its own column), train_cpu_seconds (CPU time of the
//                         process in training, all threads), documents (trained on so
//                         far), heldout_perplexity (the headline figure: the posterior
//                         mean's fold-in perplexity, the last sample's before burn-in ends)
//   checkpoint_NAME.pb    an LdaCheckpoint (tools/lda_checkpoint.proto) in a checksummed
//                         frame (tools/checkpoint_file.h): a damaged one is refused
//   snapshots_NAME/, snapshots_NAME.csv
//                         with write_snapshots: the last sample and the posterior mean at
//                         every evaluation, as .phi files, and their training seconds
// and vocabulary.txt (the training vocabulary, the columns of every topic matrix, one word
// per line), perplexity.png (the headline figure, the fold-in perplexity of the posterior-mean
// topics, against iterations, training seconds and documents seen for all the runs; gnuplot,
// tools/plots/lda_perplexity.gp, which reads the run names from runs.txt) and summary.txt
// (two lines per run: the headline figure, then the other perplexities, each named).
//
// Resume: with `resume`, a run whose checkpoint exists in the output directory continues from
// it (the settings must match) up to the configured iterations; the continuation is
// bit-identical to an uninterrupted run (tested in lda_run_test.cc), timings aside.
//
// Cost: dominated by the runs (models/lda/lda.h) and the evaluations (eval/perplexity.h).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(LdaConfig config, ReadLdaConfig("tools/configs/kos_scir.textpb"));
//   SGMCMC_RETURN_IF_ERROR(RunLda(config, {.argv0 = argv[0]}));
#ifndef SGMCMC_TOOLS_LDA_RUN_H_
#define SGMCMC_TOOLS_LDA_RUN_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "data/corpus.h"
#include "data/split.h"
#include "data/uci_stream.h"
#include "models/lda/lda.h"
#include "tools/lda_checkpoint.pb.h"
#include "tools/lda_config.pb.h"

namespace sgmcmc::tools {

// Defaults of the fields an LdaConfig leaves unset.
inline constexpr int64_t kDefaultLdaIterations = 1000;
inline constexpr int kDefaultLdaNumTopics = 50;
// The preset of a run that names none when the rule below does not apply: the run sets its
// sampler, or the corpus is not known yet (ResolveLdaRuns without a mean document length).
inline constexpr char kDefaultLdaPreset[] = "scir_fast";

// Parses a textproto file. Errors name the file, line and column ("cfg.textpb:3:7: ...").
absl::StatusOr<LdaConfig> ReadLdaConfig(const std::string& path);
// Parses textproto text; `source` names it in errors.
absl::StatusOr<LdaConfig> ParseLdaConfig(const std::string& text, const std::string& source);

// A run with every setting resolved (preset, then the config's overrides).
struct ResolvedLdaRun {
  std::string name;
  models::LdaOptions options;
  int64_t iterations = 0;
  int64_t burn_in = 0;
  double max_seconds = 0;
  // minibatch_size is the number of training documents, set by FitLdaRunsToData (a
  // PERSISTENT_JOINT run that leaves minibatch_size unset).
  bool full_batch = false;
  // Whether the config set iterations / burn_in (else FitLdaRunsToData sets a streamed run's
  // from the stream's length).
  bool iterations_set = false;
  bool burn_in_set = false;
  // Whether the config set minibatch_size (else FitLdaRunsToData gives a streamed run
  // DefaultStreamedMinibatchSize, and says why in minibatch_reason).
  bool minibatch_size_set = false;
  std::string minibatch_reason;
  // Why the preset was chosen, when the config names none and the default rule chose it
  // (models::DefaultLdaPreset); empty otherwise.
  std::string preset_reason;
  // Why α is not the preset's, when the run names neither preset nor alpha and
  // models::DefaultLdaAlpha gives another (K > 100); empty otherwise.
  std::string alpha_reason;
};

// The runs of `config` (one default run if it lists none). InvalidArgument naming `source`
// and the field, e.g. "cfg.textpb: runs[1].alpha must be finite and > 0, got -1". Run names
// must be distinct and made of [A-Za-z0-9_.-].
// A run without a preset, sampler or SCIR-only setting (topic_update LAZY, count_estimator
// PERSISTENT_JOINT) gets models::DefaultLdaPreset(mean_document_length) (the training
// corpus' tokens per document: scir_fast for long documents, sgrld_fast for short ones) with
// its reason in preset_reason; with mean_document_length < 0 (corpus not read yet) and for
// the other runs without a preset, kDefaultLdaPreset. A stream's runs follow its density
// instead: with `stream_entries` >= 0 (the docword header's NNZ, or raw text's estimate,
// LdaData.streamed_entries) and `vocabulary_size` V, a run that the rule above would set (K its
// num_topics) gets models::DefaultLdaSettingsByDensity's choice and says so in preset_reason:
// below models::kSgrldMinEntriesPerCell entries per cell (NNZ / (K V)) scir_fast with the
// rule's β (unless the run sets beta), where SGRLD ended up to 57% worse; from it on
// sgrld_fast, also for long documents, where SCIR ended up to 7% worse after one pass
// (bench/README.md, "The default by density on real text"). A corpus in memory with
// `in_memory_entries` >= 0 (its training documents' NNZ) gets
// models::DefaultInMemoryLdaPreset: scir_fast with the density rule's β (unless the run sets
// beta) below models::kScirMaxInMemoryEntriesPerCell entries per cell, where SGRLD ended 3-11%
// worse, whatever the document length. A run that names neither preset nor alpha gets
// models::DefaultLdaAlpha(K) (K α = 0.05 K within [5, 10], α <= 0.1), with its reason in
// alpha_reason
// where that is not the preset's α.
absl::StatusOr<std::vector<ResolvedLdaRun>> ResolveLdaRuns(const LdaConfig& config,
                                                           const std::string& source,
                                                           double mean_document_length = -1,
                                                           int64_t stream_entries = -1,
                                                           int vocabulary_size = 0,
                                                           int64_t in_memory_entries = -1);

// The minibatch size of a streamed run that sets none: D / 100 documents (a pass of at least
// 100 topic updates), at least the preset's size and at most 1000. Measured (bench/README.md,
// "LDA against gensim and scikit-learn"): one pass over 10^5 documents, K = 100, sgrld_fast:
// n = 250, 500 and 1000 end at the same held-out perplexity (354-357) and recovery
// (0.357-0.362), n = 1000 in the least time (12.0 CPU s, where the topic update no longer
// dominates), n = 50 (the preset's, made for corpora held in memory) at 375 / 0.499 in 31 s,
// and n = 2000 / 4000 (50 / 25 updates) worse (367 / 424).
int DefaultStreamedMinibatchSize(int64_t documents_per_pass, int preset_minibatch_size);

// Fits `runs` to a training corpus of `num_documents` documents: full_batch runs get
// minibatch_size = num_documents; a kPersistentJoint run whose minibatch_size differs is an
// InvalidArgument naming `source` and the run ("needs the full batch"). With `passes` > 0 the
// documents are streamed that many times: every run's (D/n) scale is num_documents, a run
// without minibatch_size gets DefaultStreamedMinibatchSize, a run without iterations gets
// ceil(passes x D / minibatch_size) (and its default burn-in), and PERSISTENT_JOINT is refused.
absl::Status FitLdaRunsToData(int num_documents, const std::string& source,
                              std::vector<ResolvedLdaRun>& runs, int passes = 0);

// Sets every run's count_estimator (adding the default run if `config` lists none) from its
// name: sweep_average, last_sweep or persistent_joint (models::LdaCountEstimatorName).
// InvalidArgument naming `flag` and the valid names for any other name.
absl::Status SetLdaCountEstimator(absl::string_view name, const std::string& flag,
                                  LdaConfig& config);

// Sets every run's topic_update (adding the default run if `config` lists none) from its name:
// eager or lazy (models::LdaTopicUpdateName). InvalidArgument naming `flag` and the valid
// names for any other name; a lazy run's sampler and estimator are checked by ResolveLdaRuns.
absl::Status SetLdaTopicUpdate(absl::string_view name, const std::string& flag,
                               LdaConfig& config);

// The training corpus and the document-completion split of the test documents.
struct LdaData {
  data::Corpus train;
  data::DocumentCompletionSplit test;
  std::string description;  // one line for the log
  // A streamed run (LdaConfig.stream): `train` holds the vocabulary only; the documents are
  // streamed (OpenLdaStream), `streamed_documents` per pass.
  bool streamed = false;
  int streamed_documents = 0;
  // A UCI stream's NNZ (its header's, held-out documents included); for raw text, which has
  // no header, an estimate: the held-out documents' mean number of distinct words times the
  // stream's documents (-1 without held-out documents).
  int64_t streamed_entries = -1;
};

// Loads the corpus of `config` (the embedded KOS corpus by default; `argv0` locates it) and
// splits it with rng::Engine(seed, data::kSplitStream), or reads the test corpus. Errors name
// `source` and the field.
absl::StatusOr<LdaData> LoadLdaData(const LdaConfig& config, const std::string& source,
                                    const std::string& argv0);

struct LdaRunOptions {
  std::string argv0;            // for the embedded corpus and the plot script's runfiles
  std::string source = "config";  // names the config in errors
  bool resume = false;          // continue from the checkpoints in the output directory
  bool plot = true;             // draw perplexity.png (needs gnuplot on PATH)
  std::ostream* progress = nullptr;  // progress lines; null = std::cerr
};

// Trains every run of `config` and writes the outputs (see above).
absl::Status RunLda(const LdaConfig& config, const LdaRunOptions& options);

// A run's lines in summary.txt: first the headline figure, the held-out perplexity of the
// posterior-mean topics by fold-in, then the other perplexities, each said what it is.
std::string SummaryLines(const std::string& name, const LdaTracePoint& last);

// Whether the run writes its topic matrices as .tsv too: config.write_tsv if set, else
// K x V <= kLdaAutoTsvMaxEntries.
inline constexpr int64_t kLdaAutoTsvMaxEntries = 10'000'000;
bool LdaWritesTsv(const LdaConfig& config, int num_topics, int vocabulary_size);

// The output directory of `config`: output_dir (default "lda_output"), relative paths taken
// from BUILD_WORKING_DIRECTORY when set (bazel run), as every input path of a config is
// (FromWorkingDirectory, tools/tool_support.h).
std::string LdaOutputDirectory(const LdaConfig& config);

// The training stream of `config.stream` (whose held-out documents, if any, are excluded),
// minibatches of `minibatch_size` documents. Errors name `source` and the field, or the file
// and line.
absl::StatusOr<data::UciMinibatchStream> OpenLdaStream(const LdaConfig& config,
                                                       int minibatch_size,
                                                       const std::string& source);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LDA_RUN_H_
