#include "tools/lda_distributed_main.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/minibatch.h"
#include "data/split.h"
#include "data/topic_matrix.h"
#include "data/uci_reader.h"
#include "data/uci_stream.h"
#include "eval/fold_in.h"
#include "eval/topic_recovery.h"
#include "models/lda/distributed_lda.h"
#include "models/lda/lda.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "tools/checkpoint_file.h"
#include "tools/lda_checkpoint.pb.h"
#include "tools/lda_stream_state.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, stream_docword, "", "UCI docword file (plain or .gz) to stream; required.");
ABSL_FLAG(std::string, test_docword, "",
          "UCI docword file of held-out documents (same V) for the fold-in perplexity; empty: "
          "none.");
ABSL_FLAG(std::string, true_topics, "",
          "The true K x V topics (.phi/.tsv/.f64, e.g. from lda_generate_corpus) to score the "
          "posterior mean's recovery against; empty: none.");
ABSL_FLAG(std::string, output_dir, "", "Directory for summary.txt, trace.csv, topics.phi.");
ABSL_FLAG(std::string, preset, "",
          "LDA settings (scir_paper, sgrld_paper, scir_fast, sgrld_fast, sgrld_fast_early); "
          "empty: from the stream's entries per topic-word cell, NNZ / (K V): sgrld_fast from "
          "2 on, else scir_fast with beta 0.2 x NNZ / (K V) within [0.01, 0.1] "
          "(models::DefaultLdaSettingsByDensity).");
ABSL_FLAG(int, num_topics, 100, "Topics K (overrides the preset's).");
ABSL_FLAG(int, minibatch_size, 1000, "Documents per minibatch (all ranks together).");
ABSL_FLAG(int, gibbs_sweeps, 0, "Gibbs sweeps per document; 0: the preset's.");
ABSL_FLAG(double, alpha, 0,
          "Document-topic Dirichlet parameter α (> 0); 0: the preset's, or without --preset "
          "by K (models::DefaultLdaAlpha: K α = 0.05 K within [5, 10], α <= 0.1).");
ABSL_FLAG(double, beta, 0, "Topic-word Dirichlet parameter β (> 0); 0: the preset's.");
ABSL_FLAG(int, passes, 1, "Passes over the stream (>= 1).");
ABSL_FLAG(int64_t, max_iterations, 0, "Stop after this many iterations; 0: when the stream ends.");
ABSL_FLAG(int, shuffle_buffer, 1000, "Documents in the stream's shuffle buffer (>= 1).");
ABSL_FLAG(int, block_width, 256, "Vocabulary columns per block of the topic update (>= 2).");
ABSL_FLAG(int, ranks, 1, "Ranks as threads of this process (lda_distributed only).");
ABSL_FLAG(int, threads, 1, "Threads per rank.");
ABSL_FLAG(int64_t, mean_burn_in, -1,
          "Iterations before the posterior mean starts; -1: half of the run.");
ABSL_FLAG(int64_t, eval_every, 0,
          "Evaluate the current sample's held-out perplexity every this many iterations; 0: "
          "only at the end.");
ABSL_FLAG(uint64_t, seed, 1, "Key of every random stream.");
ABSL_FLAG(int64_t, checkpoint_every, 0,
          "Write every rank's checkpoint (output_dir/checkpoint_rank<r>_of<P>.pb) every this "
          "many iterations; 0: never.");
ABSL_FLAG(bool, resume, false,
          "Continue from output_dir's checkpoints (every rank's; none: start afresh); the "
          "result is bit-identical to an uninterrupted run.");
ABSL_FLAG(int64_t, stop_after, 0,
          "Stop after this many iterations without writing results (e.g. to test --resume); "
          "0: never.");

namespace sgmcmc::tools {
namespace {

// Peak resident set size of this process in MiB (VmHWM), 0 if unknown.
double PeakRssMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  }
  return 0;
}

// The options from the flags; the same on every rank. Without --preset, the settings follow
// the stream's density (`entries`, its NNZ, over K x `vocabulary` cells), and `reason` says
// why; otherwise `reason` is left empty, and `note` says so when the preset is an SGRLD one
// where the density rule would run SCIR (SGRLD measured 10-57% worse there).
absl::StatusOr<models::DistributedLdaOptions> OptionsFromFlags(int64_t documents,
                                                               int64_t entries, int vocabulary,
                                                               std::string& reason,
                                                               std::string& note) {
  models::DistributedLdaOptions options;
  if (absl::GetFlag(FLAGS_preset).empty()) {
    if (absl::GetFlag(FLAGS_num_topics) < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("--num_topics must be >= 1, got ", absl::GetFlag(FLAGS_num_topics)));
    }
    const models::LdaDensityDefault chosen = models::DefaultLdaSettingsByDensity(
        entries, absl::GetFlag(FLAGS_num_topics), vocabulary);
    options.lda = models::LdaPresetOptions(chosen.preset);
    options.lda.beta = chosen.beta;
    reason = chosen.reason;
    const double alpha = models::DefaultLdaAlpha(absl::GetFlag(FLAGS_num_topics));
    if (alpha != options.lda.alpha && absl::GetFlag(FLAGS_alpha) == 0) {
      options.lda.alpha = alpha;
      absl::StrAppend(&reason, "; alpha ", alpha, " (K alpha = ", models::kDefaultAlphaMidK,
                      " K within [", models::kDefaultMinTopicMass, ", ",
                      models::kDefaultMaxTopicMass, "]: models::DefaultLdaAlpha)");
    }
  } else {
    SGMCMC_ASSIGN_OR_RETURN(const models::LdaPreset preset,
                            models::ParseLdaPreset(absl::GetFlag(FLAGS_preset)));
    options.lda = models::LdaPresetOptions(preset);
    if (options.lda.sampler == models::LdaSampler::kSgrld &&
        absl::GetFlag(FLAGS_num_topics) >= 1) {
      const models::LdaDensityDefault chosen = models::DefaultLdaSettingsByDensity(
          entries, absl::GetFlag(FLAGS_num_topics), vocabulary);
      if (chosen.preset != models::LdaPreset::kSgrldFast) {
        note = absl::StrCat(
            "--preset=", absl::GetFlag(FLAGS_preset), " runs SGRLD at ", chosen.reason,
            "; without --preset it would run that (SCIR ended 10-57% better than SGRLD below 2 "
            "entries per cell on 20 Newsgroups + Reuters, bench/README.md, \"The default by "
            "density on real text\")");
      }
    }
  }
  options.lda.num_topics = absl::GetFlag(FLAGS_num_topics);
  if (absl::GetFlag(FLAGS_gibbs_sweeps) != 0) {
    options.lda.gibbs_sweeps = absl::GetFlag(FLAGS_gibbs_sweeps);
  }
  if (absl::GetFlag(FLAGS_alpha) != 0) options.lda.alpha = absl::GetFlag(FLAGS_alpha);
  if (absl::GetFlag(FLAGS_beta) != 0) {
    options.lda.beta = absl::GetFlag(FLAGS_beta);
    if (!reason.empty()) absl::StrAppend(&reason, "; --beta replaces its beta: ", options.lda.beta);
  }
  options.lda.seed = absl::GetFlag(FLAGS_seed);
  options.lda.corpus_documents = documents;
  options.block_width = absl::GetFlag(FLAGS_block_width);
  const int n = absl::GetFlag(FLAGS_minibatch_size);
  int64_t iterations = (documents + n - 1) / std::max(n, 1) * absl::GetFlag(FLAGS_passes);
  if (absl::GetFlag(FLAGS_max_iterations) > 0) {
    iterations = std::min(iterations, absl::GetFlag(FLAGS_max_iterations));
  }
  options.lda.mean_burn_in = absl::GetFlag(FLAGS_mean_burn_in) >= 0
                                 ? absl::GetFlag(FLAGS_mean_burn_in)
                                 : iterations / 2;
  SGMCMC_RETURN_IF_ERROR(NameFlags(options.Validate(),
                                   {{"LdaOptions.num_topics", "--num_topics"},
                                    {"LdaOptions.gibbs_sweeps", "--gibbs_sweeps"},
                                    {"LdaOptions.alpha", "--alpha"},
                                    {"LdaOptions.beta", "--beta"},
                                    {"DistributedLdaOptions.block_width", "--block_width"}}));
  return options;
}

inline constexpr char kCheckpointKind[] = "lda_distributed";

// The settings that fix the chain, compared on resume.
std::string Settings(const std::string& docword, int vocabulary, int documents, int ranks,
                     const models::DistributedLdaOptions& options) {
  return absl::StrCat("stream ", docword, " D ", documents, " V ", vocabulary, " ranks ", ranks,
                      " K ", options.lda.num_topics, " sampler ",
                      models::LdaSamplerName(options.lda.sampler), " alpha ", options.lda.alpha,
                      " beta ", options.lda.beta, " sweeps ", options.lda.gibbs_sweeps,
                      " mean_burn_in ", options.lda.mean_burn_in, " seed ", options.lda.seed,
                      " block_width ", options.block_width, " minibatch ",
                      absl::GetFlag(FLAGS_minibatch_size), " passes ", absl::GetFlag(FLAGS_passes),
                      " shuffle_buffer ", absl::GetFlag(FLAGS_shuffle_buffer));
}

}  // namespace

int DistributedLdaThreadRanks() { return absl::GetFlag(FLAGS_ranks); }

absl::Status RunDistributedLda(const char* /*argv0*/, parallel::Communicator& comm) {
  const bool root = comm.rank() == 0;
  const std::string docword = FromWorkingDirectory(absl::GetFlag(FLAGS_stream_docword));
  const std::string output_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (docword.empty()) return absl::InvalidArgumentError("--stream_docword is required");
  if (output_dir.empty()) return absl::InvalidArgumentError("--output_dir is required");
  SGMCMC_RETURN_IF_ERROR(CheckThreadCount("--threads", absl::GetFlag(FLAGS_threads)));
  if (absl::GetFlag(FLAGS_passes) < 1 || absl::GetFlag(FLAGS_minibatch_size) < 1 || absl::GetFlag(FLAGS_max_iterations) < 0 ||
      absl::GetFlag(FLAGS_eval_every) < 0 || absl::GetFlag(FLAGS_checkpoint_every) < 0 ||
      absl::GetFlag(FLAGS_stop_after) < 0) {
    return absl::InvalidArgumentError(
        "--passes and --minibatch_size must be >= 1, --max_iterations, --eval_every, "
        "--checkpoint_every and --stop_after >= 0");
  }
  // Every rank opens the stream; a rank that cannot is an error on every rank.
  data::UciStreamOptions stream_options;
  stream_options.batch_size = absl::GetFlag(FLAGS_minibatch_size);
  stream_options.shuffle_buffer_documents = absl::GetFlag(FLAGS_shuffle_buffer);
  stream_options.max_epochs = absl::GetFlag(FLAGS_passes);
  absl::StatusOr<data::UciMinibatchStream> stream =
      data::UciMinibatchStream::Open(docword, stream_options);
  SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(stream.status()));
  const int vocabulary = stream->reader().vocabulary_size();
  // UciMinibatchStream::Open(path) reads through a UciDocumentReader: its header has NNZ.
  const auto* uci = dynamic_cast<const data::UciDocumentReader*>(&stream->reader());
  SGMCMC_CHECK(uci != nullptr) << "lda_distributed: the stream's reader is not a UCI reader";
  std::string settings_reason, settings_note;
  SGMCMC_ASSIGN_OR_RETURN(
      const models::DistributedLdaOptions options,
      OptionsFromFlags(stream->num_streamed_documents(), uci->header().num_entries, vocabulary,
                       settings_reason, settings_note));
  const int K = options.lda.num_topics;

  // Rank 0's evaluators: the held-out split and the true topics.
  std::unique_ptr<eval::FoldInPerplexity> fold_in;
  data::TopicMatrix truth;
  absl::Status local = absl::OkStatus();
  if (root && !absl::GetFlag(FLAGS_test_docword).empty()) {
    const std::string path = FromWorkingDirectory(absl::GetFlag(FLAGS_test_docword));
    absl::StatusOr<data::UciDocumentReader> reader = data::UciDocumentReader::Open(path);
    data::Corpus test;
    test.vocabulary.resize(vocabulary);
    if (reader.ok() && reader->vocabulary_size() != vocabulary) {
      local = absl::InvalidArgumentError(absl::StrCat(path, ": V = ", reader->vocabulary_size(),
                                                      " in its header, the stream's is ", vocabulary));
    } else if (!reader.ok()) {
      local = reader.status();
    }
    int d = 0;
    std::vector<int32_t> tokens;
    while (local.ok()) {
      absl::StatusOr<bool> more = reader->Next(&d, &tokens);
      if (!more.ok()) local = more.status();
      if (!local.ok() || !*more) break;
      test.AddDocument(tokens);
    }
    if (local.ok()) {
      eval::FoldInOptions fold_in_options;
      fold_in_options.alpha = options.lda.alpha;
      absl::StatusOr<eval::FoldInPerplexity> created =
          eval::FoldInPerplexity::Create(data::SplitForDocumentCompletion(test), K, fold_in_options);
      if (created.ok()) {
        fold_in = std::make_unique<eval::FoldInPerplexity>(*std::move(created));
      } else {
        local = created.status();
      }
    }
  }
  if (root && local.ok() && !absl::GetFlag(FLAGS_true_topics).empty()) {
    absl::StatusOr<data::TopicMatrix> read =
        data::ReadTopicMatrix(FromWorkingDirectory(absl::GetFlag(FLAGS_true_topics)), vocabulary);
    if (read.ok()) {
      truth = *std::move(read);
    } else {
      local = read.status();
    }
  }
  if (root && local.ok()) local = CreateOutputDirectory(output_dir, "--output_dir");
  SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(local));

  std::unique_ptr<parallel::ThreadPool> pool;
  if (absl::GetFlag(FLAGS_threads) > 1) {
    pool = std::make_unique<parallel::ThreadPool>(absl::GetFlag(FLAGS_threads));
  }
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DistributedLda> lda,
                          models::DistributedLda::Create(vocabulary, options, &comm, pool.get()));
  if (root) {
    std::printf("lda_distributed: %d rank(s) x %d thread(s); %s: %d documents per pass, V = %d; "
                "K = %d, %s, alpha %g, beta %g, minibatch %d, %d column blocks of %d\n",
                comm.size(), absl::GetFlag(FLAGS_threads), docword.c_str(),
                stream->num_streamed_documents(), vocabulary, K,
                std::string(models::LdaSamplerName(options.lda.sampler)).c_str(),
                options.lda.alpha, options.lda.beta, stream_options.batch_size, lda->num_blocks(),
                options.block_width);
    if (!settings_reason.empty()) {
      std::printf("settings (no --preset): %s\n", settings_reason.c_str());
    }
    if (!settings_note.empty()) std::printf("note: %s\n", settings_note.c_str());
    std::fflush(stdout);
  }

  std::vector<double> topics(root ? static_cast<size_t>(K) * vocabulary : 0);
  std::vector<std::string> trace_rows;
  double eval_seconds = 0;
  double seconds_before = 0;  // training seconds of the run before a resume
  rng::Engine engine(options.lda.seed, models::kDistributedLdaStream | (uint64_t{2} << 48));
  data::DocumentMinibatch batch;
  int64_t documents = 0;

  // Checkpoints: one file per rank; a resume needs every rank's (or none: a fresh start).
  const std::string settings = Settings(docword, vocabulary, stream->num_streamed_documents(),
                                        comm.size(), options);
  const int64_t checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  const std::string checkpoint_path = absl::StrCat(
      output_dir, "/checkpoint_rank", comm.rank(), "_of", comm.size(), ".pb");
  if (absl::GetFlag(FLAGS_resume)) {
    const bool exists = std::filesystem::exists(checkpoint_path);
    std::vector<double> found(comm.size(), 0.0);
    found[comm.rank()] = exists ? 1 : 0;
    SGMCMC_RETURN_IF_ERROR(comm.AllReduceSum(absl::MakeSpan(found)));
    int count = 0;
    for (double f : found) count += f > 0;
    if (count != 0 && count != comm.size()) {
      std::string missing;
      for (int r = 0; r < comm.size(); ++r) {
        if (found[r] == 0) absl::StrAppend(&missing, missing.empty() ? "" : ", ", r);
      }
      return absl::FailedPreconditionError(absl::StrCat(
          output_dir, ": --resume found the checkpoints of ", count, " of ", comm.size(),
          " ranks (missing: rank ", missing, "); resume needs all of them, or remove them"));
    }
    if (count == 0) {
      // Another rank count's set would be silently ignored: refuse it instead.
      absl::Status other = absl::OkStatus();
      std::error_code error;
      for (const auto& entry : std::filesystem::directory_iterator(output_dir, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("checkpoint_rank", 0) == 0 && other.ok()) {
          other = absl::FailedPreconditionError(absl::StrCat(
              output_dir, "/", name, ": a checkpoint of another rank count; resume with the "
              "rank count that wrote it (this run has ", comm.size(), ")"));
        }
      }
      SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(other));
    }
    if (count == comm.size()) {
      LdaDistributedCheckpoint checkpoint;
      absl::Status read = [&]() -> absl::Status {
        SGMCMC_ASSIGN_OR_RETURN(const std::string bytes,
                                ReadCheckpoint(checkpoint_path, kCheckpointKind));
        if (!checkpoint.ParseFromString(bytes)) {
          return absl::DataLossError(absl::StrCat(checkpoint_path, ": not an lda_distributed checkpoint"));
        }
        if (checkpoint.settings() != settings) {
          return absl::InvalidArgumentError(absl::StrCat(
              checkpoint_path, ": written by a run with other settings (", checkpoint.settings(),
              "; this run: ", settings, ")"));
        }
        return RestoreLdaStreamState(checkpoint.stream(), checkpoint_path, *stream, engine);
      }();
      SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(read));
      SGMCMC_RETURN_IF_ERROR(lda->RestoreState(checkpoint.model()));
      documents = checkpoint.documents();
      models::DistributedLda::Timings timings;
      timings.sweep_seconds = checkpoint.sweep_seconds();
      timings.communication_seconds = checkpoint.communication_seconds();
      timings.topic_update_seconds = checkpoint.topic_update_seconds();
      timings.mean_seconds = checkpoint.mean_seconds();
      timings.token_updates = checkpoint.token_updates();
      timings.tokens = checkpoint.tokens();
      lda->set_timings(timings);
      eval_seconds = checkpoint.eval_seconds();
      seconds_before = checkpoint.train_seconds();
      trace_rows.assign(checkpoint.trace_rows().begin(), checkpoint.trace_rows().end());
      if (root) {
        std::printf("resumed at iteration %lld (%lld documents) from %s\n",
                    static_cast<long long>(lda->iteration()), static_cast<long long>(documents),
                    checkpoint_path.c_str());
      }
    }
  }

  const auto start = std::chrono::steady_clock::now();
  const double eval_seconds_before = eval_seconds;
  auto train_seconds = [&] {
    return seconds_before + SecondsSince(start) - (eval_seconds - eval_seconds_before);
  };
  auto last_progress = start;
  const int64_t max_iterations = absl::GetFlag(FLAGS_max_iterations);
  const int64_t eval_every = absl::GetFlag(FLAGS_eval_every);
  const int64_t stop_after = absl::GetFlag(FLAGS_stop_after);
  auto evaluate = [&](bool mean) -> absl::StatusOr<double> {
    const auto eval_start = std::chrono::steady_clock::now();
    if (mean) {
      SGMCMC_RETURN_IF_ERROR(lda->GatherPosteriorMean(absl::MakeSpan(topics)));
    } else {
      SGMCMC_RETURN_IF_ERROR(lda->GatherTopics(absl::MakeSpan(topics)));
    }
    // NaN without held-out documents: written as an empty field and "no held-out
    // perplexity", never as a number.
    double perplexity = std::numeric_limits<double>::quiet_NaN();
    if (root && fold_in != nullptr) {
      SGMCMC_ASSIGN_OR_RETURN(perplexity, fold_in->Evaluate(topics, pool.get()));
    }
    eval_seconds += SecondsSince(eval_start);
    return perplexity;
  };
  auto trace_row = [&](double perplexity) {
    const models::DistributedLda::Timings& t = lda->timings();
    trace_rows.push_back(absl::StrFormat(
        "%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n", lda->iteration(), documents,
        train_seconds(), t.sweep_seconds, t.communication_seconds, t.topic_update_seconds,
        t.mean_seconds, eval_seconds,
        std::isnan(perplexity) ? "" : absl::StrFormat("%.9g", perplexity)));
  };
  while (max_iterations == 0 || lda->iteration() < max_iterations) {
    absl::StatusOr<bool> more = stream->Next(engine, &batch);
    // A read error on any rank ends every rank with it.
    SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(more.status()));
    if (!*more) break;
    SGMCMC_RETURN_IF_ERROR(lda->StepOn(batch.documents));
    documents += batch.documents.num_documents();
    if (eval_every > 0 && lda->iteration() % eval_every == 0) {
      SGMCMC_ASSIGN_OR_RETURN(const double perplexity, evaluate(false));
      trace_row(perplexity);
    }
    if (checkpoint_every > 0 && lda->iteration() % checkpoint_every == 0) {
      LdaDistributedCheckpoint checkpoint;
      checkpoint.set_settings(settings);
      *checkpoint.mutable_model() = lda->SaveState();
      SaveLdaStreamState(*stream, engine, *checkpoint.mutable_stream());
      checkpoint.set_documents(documents);
      const models::DistributedLda::Timings& t = lda->timings();
      checkpoint.set_sweep_seconds(t.sweep_seconds);
      checkpoint.set_communication_seconds(t.communication_seconds);
      checkpoint.set_topic_update_seconds(t.topic_update_seconds);
      checkpoint.set_mean_seconds(t.mean_seconds);
      checkpoint.set_token_updates(t.token_updates);
      checkpoint.set_tokens(t.tokens);
      checkpoint.set_eval_seconds(eval_seconds);
      checkpoint.set_train_seconds(train_seconds());
      for (const std::string& row : trace_rows) checkpoint.add_trace_rows(row);
      // A rank that cannot write ends every rank with its error.
      SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(
          WriteCheckpointMessage(checkpoint_path, kCheckpointKind, checkpoint)));
    }
    if (stop_after > 0 && lda->iteration() >= stop_after) {
      if (root) {
        std::printf("stopped (stop_after) at iteration %lld\n",
                    static_cast<long long>(lda->iteration()));
      }
      return absl::OkStatus();
    }
    if (root && SecondsSince(last_progress) >= 10) {
      last_progress = std::chrono::steady_clock::now();
      const double seconds = SecondsSince(start);
      std::printf("  iteration %lld, %lld documents, %s token updates/s on rank 0, %.0f s\n",
                  static_cast<long long>(lda->iteration()), static_cast<long long>(documents),
                  HumanRate(lda->timings().token_updates / train_seconds()).c_str(), seconds);
      std::fflush(stdout);
    }
  }
  if (lda->iteration() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(docword, ": no document to train on"));
  }
  const double total_train_seconds = train_seconds();
  SGMCMC_ASSIGN_OR_RETURN(const double final_perplexity, evaluate(true));
  trace_row(final_perplexity);

  // Every rank's split and RSS (each rank fills its own slots: exact sums).
  constexpr int kFields = 6;
  std::vector<double> per_rank(static_cast<size_t>(kFields) * comm.size(), 0.0);
  const models::DistributedLda::Timings& t = lda->timings();
  double* mine = per_rank.data() + kFields * comm.rank();
  mine[0] = t.sweep_seconds;
  mine[1] = t.communication_seconds;
  mine[2] = t.topic_update_seconds;
  mine[3] = t.mean_seconds;
  mine[4] = static_cast<double>(t.token_updates);
  mine[5] = PeakRssMiB();
  SGMCMC_RETURN_IF_ERROR(comm.AllReduceSum(absl::MakeSpan(per_rank)));
  if (!root) return absl::OkStatus();

  std::string recovery_line;
  if (!truth.values.empty()) {
    SGMCMC_ASSIGN_OR_RETURN(const eval::TopicRecovery recovery,
                            eval::TopicRecoveryScore(truth.values, truth.num_topics, topics, K,
                                                     vocabulary));
    recovery_line = absl::StrFormat(
        "topic recovery: mean Hellinger distance %.4f over %d matched topics (0 = exact)\n",
        recovery.mean_hellinger, static_cast<int>(recovery.matches.size()));
  }
  std::string summary =
      std::isnan(final_perplexity)
          ? absl::StrFormat(
                "lda_distributed: no held-out perplexity (no --test_docword); posterior-mean "
                "topics over %lld samples after %lld iterations, %.2f s of training\n",
                static_cast<long long>(lda->mean_samples()),
                static_cast<long long>(lda->iteration()), total_train_seconds)
          : absl::StrFormat(
                "lda_distributed: held-out perplexity %.6g (posterior-mean topics over %lld "
                "samples, fold-in) after %lld iterations, %.2f s of training\n",
                final_perplexity, static_cast<long long>(lda->mean_samples()),
                static_cast<long long>(lda->iteration()), total_train_seconds);
  absl::StrAppend(&summary, recovery_line);
  absl::StrAppendFormat(&summary,
                        "%d rank(s) x %d thread(s), K = %d, V = %d, minibatch %d, %lld documents "
                        "seen, %lld tokens, block width %d\n",
                        comm.size(), absl::GetFlag(FLAGS_threads), K, vocabulary,
                        stream_options.batch_size, static_cast<long long>(documents),
                        static_cast<long long>(t.tokens), options.block_width);
  absl::StrAppendFormat(&summary, "evaluation (rank 0, not in training time): %.2f s\n",
                        eval_seconds);
  absl::StrAppend(&summary,
                  "rank,sweep_s,communication_s,topic_update_s,mean_s,token_updates,"
                  "token_updates_per_s,peak_rss_mib\n");
  for (int r = 0; r < comm.size(); ++r) {
    const double* f = per_rank.data() + kFields * r;
    absl::StrAppendFormat(&summary, "%d,%.3f,%.3f,%.3f,%.3f,%.0f,%.4g,%.1f\n", r, f[0], f[1],
                          f[2], f[3], f[4], f[4] / total_train_seconds, f[5]);
  }
  std::string csv =
      "iteration,documents,seconds,sweep_seconds,communication_seconds,topic_update_seconds,"
      "mean_seconds,eval_seconds,heldout_perplexity\n";
  for (const std::string& row : trace_rows) csv += row;
  SGMCMC_RETURN_IF_ERROR(WriteFile(output_dir + "/summary.txt", summary));
  SGMCMC_RETURN_IF_ERROR(WriteFile(output_dir + "/trace.csv", csv));
  // Encoded as it is written: no 8 K V-byte string is held.
  SGMCMC_RETURN_IF_ERROR(WriteFileWith(output_dir + "/topics.phi", [&](std::ostream& out) {
    data::WriteTopicMatrixPhi(topics, K, vocabulary,
                              static_cast<uint64_t>(std::max<int64_t>(lda->mean_samples(), 1)),
                              out);
    return true;
  }));
  std::fputs(summary.c_str(), stdout);
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
