#include "tools/lda_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/types/span.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "data/corpus_loader.h"
#include "data/document_reader.h"
#include "data/text_reader.h"
#include "data/text_stream.h"
#include "data/uci_reader.h"
#include "data/topic_matrix.h"
#include "eval/evaluation_schedule.h"
#include "eval/fold_in.h"
#include "eval/perplexity.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "models/lda/topics.h"
#include "parallel/thread_pool.h"
#include "tools/checkpoint_file.h"
#include "tools/gnuplot.h"
#include "tools/lda_checkpoint.pb.h"
#include "tools/lda_stream_state.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

// The .phi file of a K x V topic matrix, encoded as it is written (data::WriteTopicMatrixPhi),
// atomically: no 8 K V-byte string is held.
absl::Status WritePhi(const std::string& path, absl::Span<const double> values, int num_topics,
                      int vocabulary_size, uint64_t num_samples) {
  return WriteFileWith(path, [&](std::ostream& out) {
    data::WriteTopicMatrixPhi(values, num_topics, vocabulary_size, num_samples, out);
    return true;
  });
}

// The kind of this tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "lda";

using Clock = std::chrono::steady_clock;

// The distinct (document, word) pairs of `corpus`: a docword file's NNZ.
int64_t DistinctDocumentWords(const data::Corpus& corpus) {
  int64_t distinct = 0;
  std::vector<int32_t> words;
  for (int d = 0; d < corpus.num_documents(); ++d) {
    const absl::Span<const int32_t> document = corpus.document(d);
    words.assign(document.begin(), document.end());
    std::sort(words.begin(), words.end());
    distinct += std::unique(words.begin(), words.end()) - words.begin();
  }
  return distinct;
}

// Collects protobuf's text-format errors as "source:line:column: message".
class ErrorCollector final : public google::protobuf::io::ErrorCollector {
 public:
  explicit ErrorCollector(std::string source) : source_(std::move(source)) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (first_.empty()) first_ = absl::StrCat(source_, ":", line + 1, ":", column + 1, ": ", message);
  }
  const std::string& first() const { return first_; }

 private:
  std::string source_;
  std::string first_;
};

absl::Status ConfigError(const std::string& source, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(source, ": ", message));
}

// "LdaOptions.alpha must ..." -> "source: runs[1].alpha must ...".
absl::Status RunOptionsError(const std::string& source, int run, const absl::Status& status) {
  return ConfigError(source, absl::StrReplaceAll(status.message(),
                                                 {{"LdaOptions.", absl::StrCat("runs[", run, "].")}}));
}

// The burn-in of a run of `iterations` iterations whose config sets none: the preset's own
// (models::LdaOptions::default_burn_in) if the run is longer than it, else half of the run.
int64_t DefaultRunBurnIn(const models::LdaOptions& o, int64_t iterations) {
  return o.default_burn_in >= 0 && o.default_burn_in < iterations
             ? o.default_burn_in
             : eval::DefaultBurnIn(iterations);
}

bool ValidRunName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') {
      return false;
    }
  }
  return true;
}

// A streamed run's source and shuffling, for its settings line.
std::string StreamSettings(const LdaConfig& config) {
  const LdaStreamConfig& stream = config.stream();
  return absl::StrCat(stream.docword().empty() ? stream.text() : stream.docword(),
                      " passes=", stream.has_passes() ? stream.passes() : 1, " buffer=",
                      stream.has_shuffle_buffer_documents() ? stream.shuffle_buffer_documents()
                                                            : data::UciStreamOptions()
                                                                  .shuffle_buffer_documents);
}

// The stream id of a streamed run's minibatch engine under the run's seed (beside
// models::kLdaDriverStream and data::kSplitStream).
constexpr uint64_t kLdaMinibatchStream = models::kLdaDriverStream + 1;

std::string Settings(const LdaConfig& config, const ResolvedLdaRun& run, const LdaData& data) {
  const models::LdaOptions& o = run.options;
  return absl::StrCat("sampler=", models::LdaSamplerName(o.sampler), " K=", o.num_topics,
                      " alpha=", o.alpha, " beta=", o.beta, " step=", o.step_size.ToString(),
                      " minibatch=", o.minibatch_size, " sweeps=", o.gibbs_sweeps,
                      " seed=", o.seed, " burn_in=", run.burn_in, " D=",
                      data.streamed ? data.streamed_documents : data.train.num_documents(),
                      " V=", data.train.vocabulary_size(),
                      data.streamed ? absl::StrCat(" stream=", StreamSettings(config))
                                    : absl::StrCat(" N=", data.train.num_tokens()),
                      " test=", data.test.observed.num_documents(),
                      "/", data.test.held_out.num_tokens(), " eval_sweeps=",
                      config.has_eval_sweeps() ? config.eval_sweeps() : eval::kDefaultEvalSweeps,
                      // Only when not the presets' estimator: older checkpoints stay valid.
                      o.count_estimator == models::LdaCountEstimator::kSweepAverage
                          ? ""
                          : absl::StrCat(" counts=",
                                         models::LdaCountEstimatorName(o.count_estimator)),
                      // Likewise only when not the default.
                      o.mean_every == 1 ? "" : absl::StrCat(" mean_every=", o.mean_every),
                      o.early_gibbs_sweeps == 0 || o.early_iterations == 0
                          ? ""
                          : absl::StrCat(" early_sweeps=", o.early_gibbs_sweeps, " until ",
                                         o.early_iterations),
                      o.topic_update == models::LdaTopicUpdate::kEager
                          ? ""
                          : absl::StrCat(" topic_update=",
                                         models::LdaTopicUpdateName(o.topic_update)));
}

std::string TraceCsv(const LdaCheckpoint& checkpoint) {
  std::string out =
      "iteration,train_seconds,documents,tokens,step_size,perplexity,running_perplexity\n";
  for (const LdaTracePoint& p : checkpoint.trace()) {
    absl::StrAppend(&out, p.iteration(), ",", absl::StrFormat("%.6f", p.train_seconds()), ",",
                    p.documents(), ",", p.tokens(), ",", absl::StrFormat("%.9g", p.step_size()),
                    ",", absl::StrFormat("%.9g", p.perplexity()), ",",
                    absl::StrFormat("%.9g", p.running_perplexity()), "\n");
  }
  return out;
}

// The headline figure of a trace point: the fold-in perplexity of the posterior-mean topics,
// or of the last sample while the mean has no samples (burn-in not reached).
double HeadlinePerplexity(const LdaTracePoint& p) {
  return p.mean_samples() > 0 ? p.fold_in_perplexity_mean() : p.fold_in_perplexity_last();
}

// The point-estimate columns: fold-in perplexity of the last sample and of the posterior
// mean, kept apart from trace.csv's Gibbs predictive (which they never mix with).
std::string PointTraceCsv(const LdaCheckpoint& checkpoint) {
  std::string out =
      "iteration,train_seconds,fold_in_perplexity_last,fold_in_perplexity_mean,mean_samples,"
      "gibbs_running_predictive_perplexity,train_cpu_seconds,documents,heldout_perplexity\n";
  for (const LdaTracePoint& p : checkpoint.trace()) {
    absl::StrAppend(&out, p.iteration(), ",", absl::StrFormat("%.6f", p.train_seconds()), ",",
                    absl::StrFormat("%.9g", p.fold_in_perplexity_last()), ",",
                    absl::StrFormat("%.9g", p.fold_in_perplexity_mean()), ",",
                    p.mean_samples(), ",", absl::StrFormat("%.9g", p.running_perplexity()), ",",
                    absl::StrFormat("%.6f", p.train_cpu_seconds()), ",", p.documents(), ",",
                    absl::StrFormat("%.9g", HeadlinePerplexity(p)), "\n");
  }
  return out;
}

void SaveState(const models::Lda& lda, const eval::EvaluationSchedule& schedule,
               LdaCheckpoint& checkpoint) {
  *checkpoint.mutable_lda() = lda.State();
  *checkpoint.mutable_evaluation() = schedule.GetState();
}

absl::Status RestoreState(const LdaCheckpoint& checkpoint, const std::string& path,
                          models::Lda& lda, eval::EvaluationSchedule& schedule) {
  absl::Status s = lda.Restore(checkpoint.lda());
  if (s.ok()) s = schedule.RestoreState(checkpoint.evaluation(), lda.iteration());
  if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", s.message()));
  return absl::OkStatus();
}

// Trains one run; fills `checkpoint` (trace included) and writes the run's files.
class RunTrainer {
 public:
  RunTrainer(const LdaConfig& config, const ResolvedLdaRun& run, const LdaData& data,
             const std::string& directory, parallel::ThreadPool* pool, std::ostream& progress)
      : config_(config),
        run_(run),
        data_(data),
        directory_(directory),
        pool_(pool),
        progress_(progress) {}

  // `opened`: the run's stream when it is open already (standard input); moved from.
  absl::Status Train(const LdaRunOptions& options, LdaCheckpoint& checkpoint,
                     std::optional<data::UciMinibatchStream>& opened) {
    SGMCMC_ASSIGN_OR_RETURN(models::Lda lda, CreateLda(options.source));
    std::optional<data::UciMinibatchStream> stream = std::move(opened);
    opened.reset();
    rng::Engine stream_engine(run_.options.seed, kLdaMinibatchStream);
    if (data_.streamed && !stream.has_value()) {
      SGMCMC_ASSIGN_OR_RETURN(
          stream, OpenLdaStream(config_, run_.options.minibatch_size, options.source));
    }
    eval::EvaluationScheduleOptions eval_options;
    eval_options.iterations = run_.iterations;
    eval_options.eval_every = config_.eval_every();  // 0 when unset: the default
    eval_options.burn_in = run_.burn_in;
    eval_options.eval_sweeps =
        config_.has_eval_sweeps() ? config_.eval_sweeps() : eval::kDefaultEvalSweeps;
    eval_options.num_topics = run_.options.num_topics;
    eval_options.alpha = run_.options.alpha;
    eval_options.seed = run_.options.seed;
    SGMCMC_ASSIGN_OR_RETURN(eval::EvaluationSchedule schedule,
                            eval::EvaluationSchedule::Create(data_.test, eval_options));
    eval::FoldInOptions fold_in_options;
    fold_in_options.alpha = run_.options.alpha;
    SGMCMC_ASSIGN_OR_RETURN(
        eval::FoldInPerplexity fold_in,
        eval::FoldInPerplexity::Create(data_.test, run_.options.num_topics, fold_in_options));
    fold_in_ = std::make_unique<eval::FoldInPerplexity>(std::move(fold_in));
    if (config_.write_snapshots()) {
      SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(File("snapshots_", ""), "snapshots"));
    }

    const std::string path = File("checkpoint_", ".pb");
    checkpoint.Clear();
    checkpoint.set_settings(Settings(config_, run_, data_));
    checkpoint.set_run_name(run_.name);
    if (options.resume && std::filesystem::exists(path)) {
      SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, ReadCheckpoint(path, kCheckpointKind));
      if (!checkpoint.ParseFromString(bytes)) {
        return absl::DataLossError(absl::StrCat(path, ": not an LdaCheckpoint"));
      }
      if (checkpoint.settings() != Settings(config_, run_, data_)) {
        return absl::FailedPreconditionError(absl::StrCat(
            path, ": written with different settings; checkpoint: ", checkpoint.settings(),
            "; config: ", Settings(config_, run_, data_)));
      }
      SGMCMC_RETURN_IF_ERROR(RestoreState(checkpoint, path, lda, schedule));
      if (stream.has_value()) {
        SGMCMC_RETURN_IF_ERROR(RestoreLdaStreamState(checkpoint.stream(), path, *stream, stream_engine));
      }
      progress_ << absl::StrFormat("[%s] resumed from %s at iteration %d\n", run_.name, path,
                                   lda.iteration());
    }

    const int64_t start_iteration = lda.iteration();
    const auto start = Clock::now();
    auto last_print = Clock::now();
    bool stream_ended = false;
    data::DocumentMinibatch batch;
    while (lda.iteration() < run_.iterations && !stream_ended &&
           !(run_.max_seconds > 0 && checkpoint.train_seconds() >= run_.max_seconds)) {
      const auto step_start = Clock::now();
      const double cpu_start = ProcessCpuSeconds();
      if (stream.has_value()) {
        // Reading the minibatch counts as training time: streaming is part of the method.
        SGMCMC_ASSIGN_OR_RETURN(const bool more, stream->Next(stream_engine, &batch));
        if (!more) {
          stream_ended = true;
          break;
        }
        SGMCMC_RETURN_IF_ERROR(lda.StepOn(batch.documents));
        // A stream that ends with this minibatch ends the run with it.
        stream_ended = stream->passes_completed() >= StreamPasses() &&
                       stream->documents_emitted() >=
                           static_cast<int64_t>(StreamPasses()) * data_.streamed_documents;
      } else {
        lda.Step();
      }
      const double step_seconds = SecondsSince(step_start);
      phases_.steps += step_seconds;
      phases_.update += lda.last_update_seconds();
      phases_.mean += lda.last_mean_seconds();
      checkpoint.set_train_seconds(checkpoint.train_seconds() + step_seconds);
      checkpoint.set_train_cpu_seconds(checkpoint.train_cpu_seconds() + ProcessCpuSeconds() -
                                       cpu_start);
      const models::LdaCountModel::Stats& stats = lda.last_stats();
      checkpoint.set_documents(checkpoint.documents() + stats.documents);
      checkpoint.set_tokens(checkpoint.tokens() + stats.tokens);
      checkpoint.set_token_updates(checkpoint.token_updates() + stats.token_updates);
      const int64_t m = lda.iteration();
      const bool last = m == run_.iterations || stream_ended ||
                        (run_.max_seconds > 0 && checkpoint.train_seconds() >= run_.max_seconds);
      if (schedule.IsDue(m) || last) {
        const auto eval_start = Clock::now();
        SGMCMC_RETURN_IF_ERROR(Evaluate(lda, schedule, checkpoint));
        phases_.evaluations += SecondsSince(eval_start);
        Print(lda, checkpoint, start_iteration, start);
        last_print = Clock::now();
      } else if (SecondsSince(last_print) >= 2) {
        Print(lda, checkpoint, start_iteration, start);
        last_print = Clock::now();
      }
      if (config_.checkpoint_every() > 0 && m % config_.checkpoint_every() == 0 && !last) {
        SaveState(lda, schedule, checkpoint);
        if (stream.has_value()) SaveLdaStreamState(*stream, stream_engine, *checkpoint.mutable_stream());
        SGMCMC_RETURN_IF_ERROR(WriteCheckpointMessage(path, kCheckpointKind, checkpoint));
      }
    }
    if (schedule.last_iteration() != lda.iteration()) {
      SGMCMC_RETURN_IF_ERROR(Evaluate(lda, schedule, checkpoint));  // e.g. resumed at the end
    }
    SaveState(lda, schedule, checkpoint);
    if (stream.has_value()) SaveLdaStreamState(*stream, stream_engine, *checkpoint.mutable_stream());
    SGMCMC_RETURN_IF_ERROR(WriteCheckpointMessage(path, kCheckpointKind, checkpoint));
    if (stream_ended && lda.iteration() < run_.iterations) {
      progress_ << absl::StrFormat("[%s] the stream ended after %d iteration(s) (%d passes)\n",
                                   run_.name, lda.iteration(), StreamPasses());
    }
    // Where this session's wall time went (progress only; no output file changes).
    progress_ << absl::StrFormat(
        "[%s] time: %d steps %.2f s (topic update %.2f s, posterior mean %.2f s, Gibbs sweeps "
        "and the rest %.2f s), evaluations %.2f s (snapshots %.2f s), not in training "
        "seconds\n",
        run_.name, lda.iteration() - start_iteration, phases_.steps, phases_.update,
        phases_.mean, phases_.steps - phases_.update - phases_.mean, phases_.evaluations,
        phases_.snapshots);
    return WriteOutputs(lda, checkpoint);
  }

  std::string File(const std::string& prefix, const std::string& suffix) const {
    return absl::StrCat(directory_, "/", prefix, run_.name, suffix);
  }

 private:
  int StreamPasses() const {
    return config_.stream().has_passes() ? config_.stream().passes() : 1;
  }

  absl::StatusOr<models::Lda> CreateLda(const std::string& source) {
    absl::StatusOr<models::Lda> lda =
        data_.streamed
            ? models::Lda::CreateStreaming(data_.train.vocabulary_size(), run_.options, pool_)
            : models::Lda::Create(data_.train, run_.options, pool_);
    if (!lda.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          source, ": run ", run_.name, ": ",
          absl::StrReplaceAll(lda.status().message(), {{"LdaOptions.", ""}})));
    }
    return lda;
  }

  absl::Status Evaluate(const models::Lda& lda, eval::EvaluationSchedule& schedule,
                        LdaCheckpoint& checkpoint) {
    topics_.resize(static_cast<size_t>(lda.num_topics()) * lda.vocabulary_size());
    lda.Topics(absl::MakeSpan(topics_));
    SGMCMC_ASSIGN_OR_RETURN(const double fold_in_last, fold_in_->Evaluate(topics_, pool_));
    double fold_in_mean = std::numeric_limits<double>::quiet_NaN();
    if (lda.posterior_mean_samples() > 0) {
      mean_topics_.resize(topics_.size());
      lda.PosteriorMeanTopics(absl::MakeSpan(mean_topics_));
      SGMCMC_ASSIGN_OR_RETURN(fold_in_mean, fold_in_->Evaluate(mean_topics_, pool_));
    }
    if (config_.write_snapshots()) {
      const auto start = Clock::now();
      SGMCMC_RETURN_IF_ERROR(WriteSnapshot(lda, checkpoint));
      phases_.snapshots += SecondsSince(start);
    }
    schedule.Evaluate(lda.iteration(), topics_, pool_);
    const eval::DocumentCompletionPerplexity& perplexity = schedule.perplexity();
    LdaTracePoint& point = *checkpoint.add_trace();
    point.set_iteration(lda.iteration());
    point.set_train_seconds(checkpoint.train_seconds());
    point.set_train_cpu_seconds(checkpoint.train_cpu_seconds());
    point.set_documents(checkpoint.documents());
    point.set_tokens(checkpoint.tokens());
    point.set_step_size(lda.step_size(lda.iteration() - 1));
    point.set_perplexity(perplexity.last_perplexity());
    point.set_running_perplexity(perplexity.perplexity());
    point.set_fold_in_perplexity_last(fold_in_last);
    point.set_fold_in_perplexity_mean(fold_in_mean);
    point.set_mean_samples(lda.posterior_mean_samples());
    return absl::OkStatus();
  }

  // snapshots_RUN/last_<iteration>.phi and mean_<iteration>.phi (when the mean has samples)
  // and their line in snapshots_RUN.csv (rewritten whole, so a resume keeps it consistent).
  absl::Status WriteSnapshot(const models::Lda& lda, const LdaCheckpoint& checkpoint) {
    const int K = lda.num_topics(), V = lda.vocabulary_size();
    const std::string dir = File("snapshots_", "");
    const std::string last = absl::StrCat(dir, "/last_", lda.iteration(), ".phi");
    SGMCMC_RETURN_IF_ERROR(WritePhi(last, topics_, K, V, 1));
    std::string mean;
    if (lda.posterior_mean_samples() > 0) {
      mean = absl::StrCat(dir, "/mean_", lda.iteration(), ".phi");
      SGMCMC_RETURN_IF_ERROR(WritePhi(mean, mean_topics_, K, V, lda.posterior_mean_samples()));
    }
    const std::string index = File("snapshots_", ".csv");
    std::string csv = "iteration,train_seconds,last,mean,mean_samples\n";
    if (checkpoint.trace_size() > 0 && std::filesystem::exists(index)) {
      SGMCMC_ASSIGN_OR_RETURN(csv, ReadFile(index));
    }
    absl::StrAppend(&csv, lda.iteration(), ",", absl::StrFormat("%.6f", checkpoint.train_seconds()),
                    ",", last, ",", mean, ",", lda.posterior_mean_samples(), "\n");
    return WriteFile(index, csv);
  }

  void Print(const models::Lda& lda, const LdaCheckpoint& checkpoint, int64_t start_iteration,
             Clock::time_point start) {
    const double seconds = checkpoint.train_seconds();
    const double wall = SecondsSince(start);
    const int64_t done = lda.iteration() - start_iteration;
    const double eta = done > 0 ? wall / done * (run_.iterations - lda.iteration()) : 0;
    std::string line = absl::StrFormat(
        "[%s] iter %d/%d  %s docs/s  %s tokens/s  %s updates/s  ETA %s", run_.name,
        lda.iteration(), run_.iterations, HumanRate(checkpoint.documents() / seconds),
        HumanRate(checkpoint.tokens() / seconds), HumanRate(checkpoint.token_updates() / seconds),
        HumanSeconds(eta));
    if (!checkpoint.trace().empty()) {
      const LdaTracePoint& p = checkpoint.trace(checkpoint.trace_size() - 1);
      // The headline of summary.txt first, then the Gibbs predictive's running mean, each
      // named (they measure different things).
      absl::StrAppend(
          &line, absl::StrFormat("  held-out perplexity %.1f (%s, fold-in; Gibbs predictive "
                                 "%.1f; iter %d)",
                                 HeadlinePerplexity(p),
                                 p.mean_samples() > 0 ? "posterior mean" : "last sample",
                                 p.running_perplexity(), p.iteration()));
    }
    progress_ << line << "\n" << std::flush;
  }

  absl::Status WriteOutputs(const models::Lda& lda, const LdaCheckpoint& checkpoint) {
    SGMCMC_RETURN_IF_ERROR(WriteFile(File("trace_", ".csv"), TraceCsv(checkpoint)));
    topics_.resize(static_cast<size_t>(lda.num_topics()) * lda.vocabulary_size());
    lda.Topics(absl::MakeSpan(topics_));
    const int top_words = config_.has_top_words() ? config_.top_words() : 10;
    const std::vector<models::TopicSummary> summaries = models::SummarizeTopics(
        topics_, lda.num_topics(), lda.vocabulary_size(), std::max(1, top_words));
    SGMCMC_RETURN_IF_ERROR(WriteFile(File("topics_", ".txt"),
                                     models::FormatTopics(summaries, data_.train.vocabulary)));
    const int K = lda.num_topics(), V = lda.vocabulary_size();
    SGMCMC_RETURN_IF_ERROR(WriteFile(File("point_trace_", ".csv"), PointTraceCsv(checkpoint)));
    SGMCMC_RETURN_IF_ERROR(WritePhi(File("topic_matrix_", ".phi"), topics_, K, V, 1));
    const bool tsv = LdaWritesTsv(config_, K, V);
    if (!tsv && !config_.has_write_tsv()) {
      progress_ << absl::StrFormat(
          "[%s] topic matrices written as .phi only: K x V = %d x %d is above %d entries "
          "(write_tsv: true in the config for the .tsv text too)\n",
          run_.name, K, V, kLdaAutoTsvMaxEntries);
    }
    if (lda.posterior_mean_samples() > 0) {
      mean_topics_.resize(topics_.size());
      lda.PosteriorMeanTopics(absl::MakeSpan(mean_topics_));
      if (tsv) {
        SGMCMC_RETURN_IF_ERROR(WriteFile(File("topic_matrix_mean_", ".tsv"),
                                         data::FormatTopicMatrixTsv(mean_topics_, K, V)));
      }
      SGMCMC_RETURN_IF_ERROR(WritePhi(File("topic_matrix_mean_", ".phi"), mean_topics_, K, V,
                                      lda.posterior_mean_samples()));
    }
    if (!tsv) return absl::OkStatus();
    return WriteFile(File("topic_matrix_", ".tsv"), data::FormatTopicMatrixTsv(topics_, K, V));
  }

  const LdaConfig& config_;
  const ResolvedLdaRun& run_;
  const LdaData& data_;
  const std::string directory_;
  parallel::ThreadPool* pool_;
  std::ostream& progress_;
  std::unique_ptr<eval::FoldInPerplexity> fold_in_;
  std::vector<double> topics_;
  std::vector<double> mean_topics_;
  // Wall seconds of this session (a resume counts from its start): Lda::Step in all, its
  // topic updates and posterior-mean updates, and the evaluations with their snapshots.
  struct {
    double steps = 0, update = 0, mean = 0, evaluations = 0, snapshots = 0;
  } phases_;
};

}  // namespace

absl::StatusOr<LdaConfig> ParseLdaConfig(const std::string& text, const std::string& source) {
  LdaConfig config;
  google::protobuf::TextFormat::Parser parser;
  ErrorCollector errors(source);
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &config)) {
    return absl::InvalidArgumentError(
        errors.first().empty() ? absl::StrCat(source, ": not a valid LdaConfig textproto")
                               : errors.first());
  }
  return config;
}

absl::StatusOr<LdaConfig> ReadLdaConfig(const std::string& path) {
  SGMCMC_ASSIGN_OR_RETURN(const std::string text, ReadFile(path));
  return ParseLdaConfig(text, path);
}

absl::StatusOr<std::vector<ResolvedLdaRun>> ResolveLdaRuns(const LdaConfig& config,
                                                           const std::string& source,
                                                           double mean_document_length,
                                                           int64_t stream_entries,
                                                           int vocabulary_size,
                                                           int64_t in_memory_entries) {
  std::vector<LdaRunConfig> runs(config.runs().begin(), config.runs().end());
  const bool default_run = runs.empty();
  if (default_run) runs.emplace_back();
  std::vector<ResolvedLdaRun> resolved;
  for (int i = 0; i < static_cast<int>(runs.size()); ++i) {
    const LdaRunConfig& run = runs[i];
    const std::string field = absl::StrCat("runs[", i, "]");
    std::string preset_name = run.preset().empty() ? kDefaultLdaPreset : run.preset();
    std::string preset_reason;
    double density_beta = 0;  // > 0: the β of the density rule
    if (run.preset().empty() && run.sampler() == LdaRunConfig::SAMPLER_UNSPECIFIED &&
        run.topic_update() != LdaRunConfig::LAZY &&
        run.count_estimator() != LdaRunConfig::PERSISTENT_JOINT && mean_document_length >= 0) {
      const int num_topics = run.has_num_topics()
                                 ? run.num_topics()
                                 : (default_run ? kDefaultLdaNumTopics
                                                : models::LdaPresetOptions(
                                                      models::LdaPreset::kScirFast)
                                                      .num_topics);
      const bool by_density = stream_entries >= 0 && vocabulary_size > 0 && num_topics >= 1;
      const models::LdaDensityDefault chosen =
          by_density
              ? models::DefaultLdaSettingsByDensity(stream_entries, num_topics, vocabulary_size)
              : models::LdaDensityDefault{models::LdaPreset::kSgrldFast, 0, ""};
      // "0.16 document-word entries per topic-word cell, NNZ / (K V) = 7901267 / (1000 x
      // 50000), < 2".
      auto per_cell = [&](int64_t entries, bool below, double threshold) {
        return absl::StrFormat(
            "%.3g document-word entries per topic-word cell, NNZ / (K V) = %d / (%d x %d), %s %g",
            static_cast<double>(entries) /
                (static_cast<double>(num_topics) * static_cast<double>(vocabulary_size)),
            entries, num_topics, vocabulary_size, below ? "<" : ">=", threshold);
      };
      // "; beta 0.2 x the density, within [0.01, 0.1]" unless the run sets its beta.
      const std::string beta_note =
          run.has_beta() ? ""
                         : absl::StrCat("; beta ", models::kScirBetaPerEntryPerCell,
                                        " x the density, within [", models::kScirMinDensityBeta,
                                        ", 0.1]");
      // A stream: the density rule, SCIR for sparse counts and SGRLD for dense ones; a corpus
      // in memory: the rule by document length, except SCIR for sparse counts.
      if (by_density && chosen.preset == models::LdaPreset::kSgrldFast) {
        preset_name = std::string(models::LdaPresetName(chosen.preset));
        preset_reason = absl::StrFormat(
            "preset %s (default for a stream of %s, where SGRLD matches or beats SCIR in "
            "about half of its time; set the run's preset to choose; bench/README.md)",
            preset_name, per_cell(stream_entries, false, models::kSgrldMinEntriesPerCell));
      } else if (by_density) {
        preset_name = std::string(models::LdaPresetName(chosen.preset));
        density_beta = chosen.beta;
        preset_reason = absl::StrFormat(
            "preset %s%s (default for a stream of %s, where SGRLD over-weights the rare "
            "words%s; set the run's preset to choose; bench/README.md)",
            preset_name,
            run.has_beta() ? "" : absl::StrCat(" with beta ", absl::SixDigits(chosen.beta)),
            per_cell(stream_entries, true, models::kSgrldMinEntriesPerCell), beta_note);
      } else if (in_memory_entries >= 0 && vocabulary_size > 0 &&
                 static_cast<double>(in_memory_entries) <
                     models::kScirMaxInMemoryEntriesPerCell * num_topics * vocabulary_size) {
        // Sparse counts in memory: SCIR whatever the document length, with β by density.
        preset_name = std::string(models::LdaPresetName(models::DefaultInMemoryLdaPreset(
            mean_document_length, in_memory_entries, num_topics, vocabulary_size)));
        density_beta =
            models::ScirBetaByDensity(in_memory_entries, num_topics, vocabulary_size);
        preset_reason = absl::StrFormat(
            "preset %s%s (default for a corpus of %s, where SGRLD ended 3-11%% worse after the "
            "same passes, in a third to a half of SCIR's time%s; set the run's preset to "
            "choose; bench/README.md)",
            preset_name,
            run.has_beta() ? "" : absl::StrCat(" with beta ", absl::SixDigits(density_beta)),
            per_cell(in_memory_entries, true, models::kScirMaxInMemoryEntriesPerCell),
            beta_note);
      } else {
        preset_name =
            std::string(models::LdaPresetName(models::DefaultLdaPreset(mean_document_length)));
        preset_reason = absl::StrFormat(
            "preset %s (default for a mean document length of %.1f tokens, %s %g; set the run's "
            "preset to choose; bench/README.md)",
            preset_name, mean_document_length,
            mean_document_length >= models::kScirMinMeanDocumentLength ? ">=" : "<",
            models::kScirMinMeanDocumentLength);
      }
    }
    absl::StatusOr<models::LdaPreset> preset = models::ParseLdaPreset(preset_name);
    if (!preset.ok()) {
      return ConfigError(source, absl::StrCat(field, ".preset: ", preset.status().message()));
    }
    ResolvedLdaRun r;
    r.options = models::LdaPresetOptions(*preset);
    if (default_run) r.options.num_topics = kDefaultLdaNumTopics;
    models::LdaOptions& o = r.options;
    std::string name = preset_name;
    if (run.sampler() == LdaRunConfig::SCIR || run.sampler() == LdaRunConfig::SGRLD) {
      o.sampler = run.sampler() == LdaRunConfig::SCIR ? models::LdaSampler::kScir
                                                      : models::LdaSampler::kSgrld;
      name = absl::StrCat(preset_name, "_", models::LdaSamplerName(o.sampler));
    } else if (run.sampler() != LdaRunConfig::SAMPLER_UNSPECIFIED) {
      return ConfigError(source, absl::StrCat(field, ".sampler: unknown value ", run.sampler()));
    }
    if (run.has_num_topics()) o.num_topics = run.num_topics();
    if (run.has_alpha()) o.alpha = run.alpha();
    // K < 1 is refused below, by Validate.
    if (run.preset().empty() && !run.has_alpha() && o.num_topics >= 1 &&
        models::DefaultLdaAlpha(o.num_topics) != o.alpha) {
      o.alpha = models::DefaultLdaAlpha(o.num_topics);
      r.alpha_reason = absl::StrFormat(
          "alpha %g (default for K = %d: a document's prior pseudo-counts K alpha = %g, %g K "
          "within [%g, %g]; against the preset's %g it ended up to 7%% lower in held-out "
          "perplexity at K = 100-200 and 13-22%% lower on text at K = 500-1000; set the run's "
          "alpha to choose; bench/README.md)",
          o.alpha, o.num_topics, o.alpha * o.num_topics, models::kDefaultAlphaMidK,
          models::kDefaultMinTopicMass, models::kDefaultMaxTopicMass,
          models::LdaPresetOptions(*preset).alpha);
    }
    if (density_beta > 0) o.beta = density_beta;
    if (run.has_beta()) o.beta = run.beta();
    if (run.step_size().has_h()) o.step_size.h = run.step_size().h();
    if (run.step_size().has_tau()) o.step_size.tau = run.step_size().tau();
    if (run.step_size().has_kappa()) o.step_size.kappa = run.step_size().kappa();
    if (run.has_minibatch_size()) o.minibatch_size = run.minibatch_size();
    if (run.has_gibbs_sweeps()) o.gibbs_sweeps = run.gibbs_sweeps();
    if (run.has_early_gibbs_sweeps()) o.early_gibbs_sweeps = run.early_gibbs_sweeps();
    if (run.has_early_iterations()) o.early_iterations = run.early_iterations();
    switch (run.count_estimator()) {
      case LdaRunConfig::COUNT_ESTIMATOR_UNSPECIFIED:
        break;
      case LdaRunConfig::SWEEP_AVERAGE:
        o.count_estimator = models::LdaCountEstimator::kSweepAverage;
        break;
      case LdaRunConfig::LAST_SWEEP:
        o.count_estimator = models::LdaCountEstimator::kLastSweep;
        break;
      case LdaRunConfig::PERSISTENT_JOINT:
        o.count_estimator = models::LdaCountEstimator::kPersistentJoint;
        if (o.sampler != models::LdaSampler::kScir) {
          return ConfigError(
              source, absl::StrCat(field, ".count_estimator PERSISTENT_JOINT (the exact "
                                          "full-batch scheme) needs sampler SCIR, got ",
                                   absl::AsciiStrToUpper(models::LdaSamplerName(o.sampler))));
        }
        r.full_batch = !run.has_minibatch_size();
        break;
      default:
        return ConfigError(source, absl::StrCat(field, ".count_estimator: unknown value ",
                                                run.count_estimator()));
    }
    switch (run.topic_update()) {
      case LdaRunConfig::TOPIC_UPDATE_UNSPECIFIED:
        break;
      case LdaRunConfig::EAGER:
        o.topic_update = models::LdaTopicUpdate::kEager;
        break;
      case LdaRunConfig::LAZY:
        o.topic_update = models::LdaTopicUpdate::kLazy;
        if (o.sampler != models::LdaSampler::kScir) {
          return ConfigError(
              source, absl::StrCat(field, ".topic_update LAZY (SCIR's lazy update) needs "
                                          "sampler SCIR, got ",
                                   absl::AsciiStrToUpper(models::LdaSamplerName(o.sampler))));
        }
        if (o.count_estimator == models::LdaCountEstimator::kPersistentJoint) {
          return ConfigError(source, absl::StrCat(field, ".topic_update LAZY does not support "
                                                         "count_estimator PERSISTENT_JOINT"));
        }
        break;
      default:
        return ConfigError(source, absl::StrCat(field, ".topic_update: unknown value ",
                                                run.topic_update()));
    }
    o.seed = config.has_seed() ? config.seed() : 1;
    if (absl::Status s = o.Validate(); !s.ok()) return RunOptionsError(source, i, s);
    r.iterations = run.has_iterations() ? run.iterations() : kDefaultLdaIterations;
    r.iterations_set = run.has_iterations();
    r.burn_in_set = run.has_burn_in();
    r.minibatch_size_set = run.has_minibatch_size();
    if (r.iterations < 1) {
      return ConfigError(source,
                         absl::StrCat(field, ".iterations must be >= 1, got ", r.iterations));
    }
    r.burn_in = run.has_burn_in() ? run.burn_in() : DefaultRunBurnIn(o, r.iterations);
    if (r.burn_in < 0) {
      return ConfigError(source, absl::StrCat(field, ".burn_in must be >= 0, got ", r.burn_in));
    }
    o.mean_burn_in = r.burn_in;
    if (run.has_mean_every()) o.mean_every = run.mean_every();
    if (o.mean_every < 1) {
      return ConfigError(source,
                         absl::StrCat(field, ".mean_every must be >= 1, got ", o.mean_every));
    }
    r.max_seconds = run.max_seconds();
    if (!(r.max_seconds >= 0)) {
      return ConfigError(source,
                         absl::StrCat(field, ".max_seconds must be >= 0, got ", r.max_seconds));
    }
    r.name = run.name().empty() ? name : run.name();
    r.preset_reason = preset_reason;
    if (!ValidRunName(r.name)) {
      return ConfigError(source, absl::StrCat(field, ".name \"", r.name,
                                              "\" must be non-empty and made of letters, "
                                              "digits, '_', '-' and '.'"));
    }
    for (const ResolvedLdaRun& other : resolved) {
      if (other.name == r.name) {
        return ConfigError(source, absl::StrCat(field, ".name \"", r.name,
                                                "\" is used by another run; set distinct names"));
      }
    }
    resolved.push_back(std::move(r));
  }
  if (config.has_threads() && config.threads() < 1) {
    return ConfigError(source, absl::StrCat("threads must be >= 1, got ", config.threads()));
  }
  // The limit of every tool (tools::CheckThreadCount): beyond it starting the threads fails
  // or exhausts the machine.
  if (config.has_threads()) {
    if (absl::Status s = CheckThreadCount("threads", config.threads()); !s.ok()) {
      return ConfigError(source, std::string(s.message()));
    }
  }
  if (config.has_eval_every() && config.eval_every() < 1) {
    return ConfigError(source,
                       absl::StrCat("eval_every must be >= 1, got ", config.eval_every()));
  }
  if (config.has_eval_sweeps() && config.eval_sweeps() < 2) {
    return ConfigError(source,
                       absl::StrCat("eval_sweeps must be >= 2, got ", config.eval_sweeps()));
  }
  if (config.checkpoint_every() < 0) {
    return ConfigError(source, absl::StrCat("checkpoint_every must be >= 0, got ",
                                            config.checkpoint_every()));
  }
  if (config.has_top_words() && config.top_words() < 1) {
    return ConfigError(source, absl::StrCat("top_words must be >= 1, got ", config.top_words()));
  }
  return resolved;
}

int DefaultStreamedMinibatchSize(int64_t documents_per_pass, int preset_minibatch_size) {
  constexpr int64_t kMaxStreamedMinibatch = 1000;
  constexpr int64_t kMinUpdatesPerPass = 100;
  return static_cast<int>(std::max<int64_t>(
      preset_minibatch_size,
      std::min(kMaxStreamedMinibatch, documents_per_pass / kMinUpdatesPerPass)));
}

absl::Status FitLdaRunsToData(int num_documents, const std::string& source,
                              std::vector<ResolvedLdaRun>& runs, int passes) {
  for (ResolvedLdaRun& run : runs) {
    models::LdaOptions& o = run.options;
    if (passes > 0) {
      if (o.count_estimator == models::LdaCountEstimator::kPersistentJoint) {
        return ConfigError(source, absl::StrCat("run ", run.name, ": count_estimator "
                                                "PERSISTENT_JOINT needs the corpus in memory; "
                                                "it cannot train from a stream"));
      }
      o.corpus_documents = num_documents;
      if (!run.minibatch_size_set) {
        const int preset_minibatch_size = o.minibatch_size;
        o.minibatch_size = DefaultStreamedMinibatchSize(num_documents, preset_minibatch_size);
        run.minibatch_reason = absl::StrFormat(
            "minibatch_size %d (default for a stream of %d documents: D / 100, between the "
            "preset's %d and 1000; set the run's minibatch_size to choose; bench/README.md)",
            o.minibatch_size, num_documents, preset_minibatch_size);
      }
      if (!run.iterations_set) {
        run.iterations = (static_cast<int64_t>(passes) * num_documents + o.minibatch_size - 1) /
                         o.minibatch_size;
        if (!run.burn_in_set) {
          run.burn_in = DefaultRunBurnIn(o, run.iterations);
          o.mean_burn_in = run.burn_in;
        }
      }
      continue;
    }
    if (run.full_batch) o.minibatch_size = num_documents;
    if (o.count_estimator == models::LdaCountEstimator::kPersistentJoint &&
        o.minibatch_size != num_documents) {
      return ConfigError(
          source, absl::StrCat("run ", run.name, ": count_estimator PERSISTENT_JOINT needs the "
                               "full batch: minibatch_size must equal the ", num_documents,
                               " training documents (or be left unset), got ",
                               o.minibatch_size));
    }
  }
  return absl::OkStatus();
}

namespace {

// Sets `set(run, value)` on every run of `config` (adding the default run if it lists none)
// for the value whose name is `name`; InvalidArgument naming `flag`, `what` and the valid
// names for any other name.
template <typename Value>
absl::Status SetOnEveryRun(absl::string_view name, const std::string& flag, const char* what,
                           absl::Span<const std::pair<absl::string_view, Value>> values,
                           void (LdaRunConfig::*set)(Value), LdaConfig& config) {
  std::vector<std::string> valid;
  for (const auto& [value_name, value] : values) {
    valid.emplace_back(value_name);
    if (name != value_name) continue;
    // The default run, made explicit (K as in ResolveLdaRuns' default run).
    if (config.runs().empty()) config.add_runs()->set_num_topics(kDefaultLdaNumTopics);
    for (LdaRunConfig& run : *config.mutable_runs()) (run.*set)(value);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(flag, ": unknown ", what, " \"", name,
                                                 "\" (valid: ", absl::StrJoin(valid, ", "), ")"));
}

}  // namespace

absl::Status SetLdaCountEstimator(absl::string_view name, const std::string& flag,
                                  LdaConfig& config) {
  using models::LdaCountEstimator;
  using models::LdaCountEstimatorName;
  const std::pair<absl::string_view, LdaRunConfig::CountEstimator> values[] = {
      {LdaCountEstimatorName(LdaCountEstimator::kSweepAverage), LdaRunConfig::SWEEP_AVERAGE},
      {LdaCountEstimatorName(LdaCountEstimator::kLastSweep), LdaRunConfig::LAST_SWEEP},
      {LdaCountEstimatorName(LdaCountEstimator::kPersistentJoint),
       LdaRunConfig::PERSISTENT_JOINT}};
  return SetOnEveryRun<LdaRunConfig::CountEstimator>(
      name, flag, "count estimator", values, &LdaRunConfig::set_count_estimator, config);
}

absl::Status SetLdaTopicUpdate(absl::string_view name, const std::string& flag,
                               LdaConfig& config) {
  using models::LdaTopicUpdate;
  using models::LdaTopicUpdateName;
  const std::pair<absl::string_view, LdaRunConfig::TopicUpdate> values[] = {
      {LdaTopicUpdateName(LdaTopicUpdate::kEager), LdaRunConfig::EAGER},
      {LdaTopicUpdateName(LdaTopicUpdate::kLazy), LdaRunConfig::LAZY}};
  return SetOnEveryRun<LdaRunConfig::TopicUpdate>(name, flag, "topic update", values,
                                                  &LdaRunConfig::set_topic_update, config);
}

namespace {

// A path of the stream config as the user wrote it: relative to the working directory, and
// standard input ("-") as it is.
std::string StreamPath(const std::string& path) {
  return path == data::kStandardInput ? path : FromWorkingDirectory(path);
}

// The reader of config.stream's source; the vocabulary is read as well when `vocabulary` is
// not null.
absl::StatusOr<std::unique_ptr<data::DocumentReader>> OpenStreamReader(
    const LdaStreamConfig& stream, const std::string& source) {
  const bool docword = !stream.docword().empty();
  if (docword == !stream.text().empty()) {
    return ConfigError(source, "stream: set exactly one of stream.docword (a UCI docword "
                               "file, or \"-\" for standard input) and stream.text");
  }
  if (stream.vocab().empty()) {
    return ConfigError(source, "stream.vocab (the vocabulary file, one word per line) is "
                               "required");
  }
  if (docword) {
    SGMCMC_ASSIGN_OR_RETURN(data::UciDocumentReader reader,
                            data::UciDocumentReader::Open(StreamPath(stream.docword())));
    return std::unique_ptr<data::DocumentReader>(
        std::make_unique<data::UciDocumentReader>(std::move(reader)));
  }
  data::TextCorpusOptions text;
  text.vocabulary_path = FromWorkingDirectory(stream.vocab());
  if (!stream.stop_words().empty()) {
    text.tokenizer.stop_words_path = FromWorkingDirectory(stream.stop_words());
  }
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<data::TextDocumentReader> reader,
                          data::TextDocumentReader::Open(StreamPath(stream.text()), text));
  return std::unique_ptr<data::DocumentReader>(std::move(reader));
}

// Prefixes a status with the config's name.
absl::Status InConfig(const std::string& source, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(source, ": ", status.message()));
}

// `opened`: the training stream's reader when it is already open (standard input, which can
// be opened once), else null.
absl::StatusOr<LdaData> LoadStreamedLdaData(const LdaConfig& config, const std::string& source,
                                            const data::DocumentReader* opened) {
  const LdaStreamConfig& stream = config.stream();
  if (config.has_corpus() || config.has_test_documents()) {
    return ConfigError(source, "stream replaces corpus and test_documents: leave them unset "
                               "(held-out documents: stream.held_out_documents or "
                               "stream.test_docword)");
  }
  if (stream.has_passes() && stream.passes() < 1) {
    return ConfigError(source, absl::StrCat("stream.passes must be >= 1, got ", stream.passes()));
  }
  if (stream.has_shuffle_buffer_documents() && stream.shuffle_buffer_documents() < 1) {
    return ConfigError(source, absl::StrCat("stream.shuffle_buffer_documents must be >= 1, got ",
                                            stream.shuffle_buffer_documents()));
  }
  const bool first_documents = stream.has_held_out_documents();
  if (first_documents == !stream.test_docword().empty()) {
    return ConfigError(source, "stream: set exactly one of stream.held_out_documents (the "
                               "first N documents of the stream, set aside) and "
                               "stream.test_docword (a separate UCI docword file)");
  }
  if (first_documents && stream.held_out_documents() < 1) {
    return ConfigError(source, absl::StrCat("stream.held_out_documents must be >= 1, got ",
                                            stream.held_out_documents()));
  }
  LdaData data;
  data.streamed = true;
  absl::StatusOr<std::unique_ptr<data::DocumentReader>> owned;
  const data::DocumentReader* reader = opened;
  if (reader == nullptr) {
    owned = OpenStreamReader(stream, source);
    if (!owned.ok()) return InConfig(source, owned.status());
    reader = owned->get();
  }
  const std::string vocab = FromWorkingDirectory(stream.vocab());
  absl::StatusOr<std::vector<std::string>> vocabulary = data::ReadUciVocabulary(vocab);
  if (!vocabulary.ok()) return InConfig(source, vocabulary.status());
  data.train.vocabulary = *std::move(vocabulary);
  const int num_documents = reader->num_documents();
  if (reader->vocabulary_size() != data.train.vocabulary_size()) {
    return ConfigError(source, absl::StrCat(reader->path(), ": its header says W = ",
                                            reader->vocabulary_size(), " words but ", vocab,
                                            " has ", data.train.vocabulary_size(),
                                            " (stream.vocab must be this corpus's vocabulary)"));
  }
  data::Corpus test;
  test.vocabulary = data.train.vocabulary;
  if (first_documents) {
    const int held_out = stream.held_out_documents();
    if (held_out >= num_documents) {
      return ConfigError(source, absl::StrCat("stream.held_out_documents = ", held_out,
                                              " leaves no training document of the ",
                                              num_documents, " in ", reader->path()));
    }
    if (opened != nullptr) {
      return ConfigError(source, "stream.held_out_documents cannot be read from standard "
                                 "input (it is read twice); use stream.test_docword");
    }
    int d = 0;
    std::vector<int32_t> tokens;
    for (int j = 0; j < held_out; ++j) {
      absl::StatusOr<bool> more = (*owned)->Next(&d, &tokens);
      if (!more.ok()) return InConfig(source, more.status());
      test.AddDocument(tokens);
    }
    data.streamed_documents = num_documents - held_out;
  } else {
    absl::StatusOr<data::Corpus> read = data::ReadUciCorpus(
        FromWorkingDirectory(stream.test_docword()), vocab);
    if (!read.ok()) return InConfig(source, read.status());
    test.doc_offsets = std::move(read->doc_offsets);
    test.tokens = std::move(read->tokens);
    data.streamed_documents = num_documents;
  }
  std::string entries_note;
  if (const auto* uci = dynamic_cast<const data::UciDocumentReader*>(reader)) {
    data.streamed_entries = uci->header().num_entries;
  } else if (test.num_documents() > 0) {
    // Raw text has no header NNZ and is not read in advance: its held-out documents' distinct
    // words per document times the stream's documents, a sample as for the mean length.
    const int64_t distinct = DistinctDocumentWords(test);
    data.streamed_entries = static_cast<int64_t>(std::llround(
        static_cast<double>(distinct) / test.num_documents() * num_documents));
    entries_note = absl::StrCat("; NNZ estimated at ", data.streamed_entries, " (",
                                absl::SixDigits(static_cast<double>(distinct) /
                                                test.num_documents()),
                                " distinct words per held-out document x ", num_documents,
                                " documents)");
  }
  data.test = data::SplitForDocumentCompletion(test);
  data.description = absl::StrCat(
      "stream: ", reader->path(), ", ", num_documents, " documents per pass, V = ",
      data.train.vocabulary_size(), "; held out: ",
      first_documents ? absl::StrCat("its first ", stream.held_out_documents(), " documents")
                      : FromWorkingDirectory(stream.test_docword()),
      entries_note);
  return data;
}

}  // namespace

absl::StatusOr<data::UciMinibatchStream> OpenLdaStream(const LdaConfig& config,
                                                       int minibatch_size,
                                                       const std::string& source) {
  const LdaStreamConfig& stream = config.stream();
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<data::DocumentReader> reader,
                          OpenStreamReader(stream, source));
  data::UciStreamOptions options;
  options.batch_size = minibatch_size;
  if (stream.has_shuffle_buffer_documents()) {
    options.shuffle_buffer_documents = stream.shuffle_buffer_documents();
  }
  options.max_epochs = stream.has_passes() ? stream.passes() : 1;
  for (int d = 0; d < stream.held_out_documents(); ++d) options.excluded_documents.push_back(d);
  absl::StatusOr<data::UciMinibatchStream> opened =
      data::UciMinibatchStream::Open(std::move(reader), options);
  if (!opened.ok()) {
    return InConfig(source, absl::Status(opened.status().code(),
                                         absl::StrReplaceAll(opened.status().message(),
                                                             {{"UciStreamOptions.max_epochs",
                                                               "stream.passes"}})));
  }
  return opened;
}

absl::StatusOr<LdaData> LoadLdaData(const LdaConfig& config, const std::string& source,
                                    const std::string& argv0) {
  if (config.has_stream()) return LoadStreamedLdaData(config, source, nullptr);
  data::HeldOutOptions held_out;
  if (config.has_test_documents() && !config.corpus().has_test_uci()) {
    if (config.test_documents() < 1) {
      return ConfigError(source, absl::StrCat("test_documents must be >= 1, got ",
                                              config.test_documents()));
    }
    held_out.num_test_documents = config.test_documents();
  }
  data::CorpusConfig corpus = config.corpus();
  auto resolve = [](std::string* path) { *path = FromWorkingDirectory(*path); };
  for (data::UciCorpusConfig* uci : {corpus.has_uci() ? corpus.mutable_uci() : nullptr,
                                     corpus.has_test_uci() ? corpus.mutable_test_uci() : nullptr}) {
    if (uci == nullptr) continue;
    resolve(uci->mutable_docword());
    resolve(uci->mutable_vocab());
  }
  if (corpus.has_text()) {
    resolve(corpus.mutable_text()->mutable_path());
    resolve(corpus.mutable_text()->mutable_stop_words());
    resolve(corpus.mutable_text()->mutable_vocabulary());
  }
  const uint64_t seed = config.has_seed() ? config.seed() : 1;
  absl::StatusOr<data::CorpusAndSplit> loaded =
      data::LoadCorpusAndSplit(corpus, held_out, seed, argv0);
  if (!loaded.ok()) {
    return absl::Status(loaded.status().code(),
                        absl::StrCat(source, ": ", loaded.status().message()));
  }
  return LdaData{std::move(loaded->train), std::move(loaded->test),
                 std::move(loaded->description)};
}

std::string SummaryLines(const std::string& name, const LdaTracePoint& last) {
  // The headline: the held-out perplexity of the posterior-mean topics by fold-in, the point
  // estimate every comparison uses (bench/README.md); the last sample's while the mean has
  // no samples (burn-in not reached).
  const bool mean = last.mean_samples() > 0;
  std::string headline = absl::StrFormat(
      "%s: held-out perplexity %.2f (%s, fold-in) after %d iterations, %.1f s of training",
      name, HeadlinePerplexity(last),
      mean ? absl::StrCat("posterior-mean topics over ", last.mean_samples(), " samples")
           : "the last sample: burn-in not reached, no posterior mean",
      last.iteration(), last.train_seconds());
  return absl::StrCat(
      headline, "\n", std::string(name.size() + 2, ' '),
      absl::StrFormat("other figures: fold-in perplexity of the last sample %.2f; Gibbs "
                      "predictive perplexity %.2f (document completion, p_dw averaged over the "
                      "evaluations after burn-in; the last evaluation alone %.2f)",
                      last.fold_in_perplexity_last(), last.running_perplexity(),
                      last.perplexity()));
}

bool LdaWritesTsv(const LdaConfig& config, int num_topics, int vocabulary_size) {
  if (config.has_write_tsv()) return config.write_tsv();
  return static_cast<int64_t>(num_topics) * vocabulary_size <= kLdaAutoTsvMaxEntries;
}

std::string LdaOutputDirectory(const LdaConfig& config) {
  return FromWorkingDirectory(config.output_dir().empty() ? "lda_output" : config.output_dir());
}

absl::Status RunLda(const LdaConfig& config, const LdaRunOptions& options) {
  std::ostream& progress = options.progress == nullptr ? std::cerr : *options.progress;
  SGMCMC_ASSIGN_OR_RETURN(std::vector<ResolvedLdaRun> runs,
                          ResolveLdaRuns(config, options.source));
  // Standard input can be opened once: its stream is opened first, for the one run.
  std::optional<data::UciMinibatchStream> stdin_stream;
  if (config.has_stream() && config.stream().docword() == data::kStandardInput) {
    if (runs.size() != 1) {
      return ConfigError(options.source, absl::StrCat("a stream from standard input trains one "
                                                      "run, not ", runs.size()));
    }
    SGMCMC_ASSIGN_OR_RETURN(
        stdin_stream, OpenLdaStream(config, runs[0].options.minibatch_size, options.source));
  }
  SGMCMC_ASSIGN_OR_RETURN(
      const LdaData data,
      stdin_stream.has_value()
          ? LoadStreamedLdaData(config, options.source, &stdin_stream->reader())
          : LoadLdaData(config, options.source, options.argv0));
  // Runs without a preset get the default for the training documents' mean length; a
  // stream is not read in advance, so there that of its held-out documents (the stream's
  // first documents, or a test file of the same corpus), both parts of their split.
  const double mean_document_length =
      data.streamed
          ? static_cast<double>(data.test.observed.num_tokens() + data.test.held_out.num_tokens()) /
                std::max(1, data.test.observed.num_documents())
          : static_cast<double>(data.train.num_tokens()) / std::max(1, data.train.num_documents());
  SGMCMC_ASSIGN_OR_RETURN(
      runs, ResolveLdaRuns(config, options.source, mean_document_length,
                           data.streamed ? data.streamed_entries : -1,
                           data.train.vocabulary_size(),
                           data.streamed ? -1 : DistinctDocumentWords(data.train)));
  SGMCMC_RETURN_IF_ERROR(FitLdaRunsToData(
      data.streamed ? data.streamed_documents : data.train.num_documents(), options.source, runs,
      data.streamed ? (config.stream().has_passes() ? config.stream().passes() : 1) : 0));
  // Standard input's stream was opened before the fit, with the unfitted minibatch size.
  if (stdin_stream.has_value()) stdin_stream->set_batch_size(runs[0].options.minibatch_size);
  const std::string directory = LdaOutputDirectory(config);
  SGMCMC_RETURN_IF_ERROR(
      CreateOutputDirectory(directory, absl::StrCat(options.source, ": output_dir")));
  // Results do not depend on the number of threads, so the default uses every core.
  const int threads = config.has_threads()
                          ? config.threads()
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  parallel::ThreadPool pool(threads);
  progress << data.description << "\n";
  if (data.streamed) {
    progress << absl::StrFormat("training: %d documents streamed per pass (never in memory), "
                                "V = %d; test: %d documents, %d held-out tokens; %d thread(s); "
                                "outputs in %s\n",
                                data.streamed_documents, data.train.vocabulary_size(),
                                data.test.observed.num_documents(),
                                data.test.held_out.num_tokens(), threads, directory);
  } else {
    progress << absl::StrFormat("training: %d documents, %d tokens, V = %d; test: %d documents, "
                                "%d held-out tokens; %d thread(s); outputs in %s\n",
                                data.train.num_documents(), data.train.num_tokens(),
                                data.train.vocabulary_size(), data.test.observed.num_documents(),
                                data.test.held_out.num_tokens(), threads, directory);
  }

  std::vector<std::string> names, summary;
  for (const ResolvedLdaRun& run : runs) {
    for (const std::string* reason :
         {&run.preset_reason, &run.alpha_reason, &run.minibatch_reason}) {
      if (!reason->empty()) progress << absl::StrFormat("[%s] %s\n", run.name, *reason);
    }
    progress << absl::StrFormat("[%s] %s\n", run.name, Settings(config, run, data));
    RunTrainer trainer(config, run, data, directory, &pool, progress);
    LdaCheckpoint checkpoint;
    SGMCMC_RETURN_IF_ERROR(trainer.Train(options, checkpoint, stdin_stream));
    const LdaTracePoint& last = checkpoint.trace(checkpoint.trace_size() - 1);
    summary.push_back(SummaryLines(run.name, last));
    progress << summary.back() << "\n";
    names.push_back(run.name);
  }
  SGMCMC_RETURN_IF_ERROR(WriteFiles(
      directory, {{"summary.txt", absl::StrJoin(summary, "\n") + "\n"},
                  // The runs to draw, for tools/plots/lda_perplexity.gp.
                  {"runs.txt", absl::StrJoin(names, " ") + "\n"},
                  // The columns of the topic matrices, for lda_transform --vocab.
                  {"vocabulary.txt", absl::StrJoin(data.train.vocabulary, "\n") + "\n"}}));
  if (options.plot) {
    const absl::Status plotted =
        RunGnuplotScript(options.argv0, "sgmcmc/tools/plots/lda_perplexity.gp", directory);
    progress << (plotted.ok() ? absl::StrCat("plot: ", directory, "/perplexity.png")
                              : absl::StrCat("perplexity.png skipped: ", plotted.message()))
             << "\n";
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
