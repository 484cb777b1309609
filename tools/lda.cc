// lda: online LDA with SCIR or SGRLD topic updates (Baker et al. 2018, §5.1; Patterson & Teh
// 2013, §4-5) — the README's main job.
//
// With no arguments it trains SCIR (preset scir_fast, the default for KOS's long documents:
// a run without a preset gets scir_fast from 100 tokens per document on, else sgrld_fast;
// models::DefaultLdaPreset; K = 50) on the embedded KOS corpus for
// 1000 iterations of 50 documents, evaluating the document-completion perplexity on 10% of the
// documents held out, and finishes in well under a minute. Progress (iteration, documents,
// tokens and Gibbs token updates per second, ETA, the latest held-out perplexity as
// summary.txt's headline names it, and the Gibbs predictive's running mean) goes to stderr.
//
// With --config=FILE (an LdaConfig textproto, tools/lda_config.proto; examples in
// tools/configs/) it runs any corpus (UCI bag-of-words or raw text), samplers and settings.
// Outputs (tools/lda_run.h): trace_RUN.csv, topics_RUN.txt, topic_matrix_RUN.phi (and .tsv up
// to 10^7 entries, LdaConfig.write_tsv), checkpoint_RUN.pb, summary.txt and perplexity.png in
// the output directory.
//
// Usage:
//   ./bazelw run -c opt //tools:lda
//   ./bazelw run -c opt //tools:lda -- --config=tools/configs/kos_scir.textpb
//   ./bazelw run -c opt //tools:lda -- --config=tools/configs/kos_scir.textpb --resume
#include <cstdint>
#include <string>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tools/lda_run.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, config, "",
          "LdaConfig textproto (tools/lda_config.proto). Empty: SCIR on the embedded KOS "
          "corpus. Relative paths are taken from where `bazel run` was started.");
ABSL_FLAG(std::string, output_dir, "", "Overrides the config's output_dir.");
ABSL_FLAG(bool, resume, false,
          "Continue every run from its checkpoint in the output directory (same config; the "
          "iterations may be raised).");
ABSL_FLAG(int, threads, 0, "Overrides the config's threads, in [1, 1024] (0: keep).");
ABSL_FLAG(int64_t, iterations, 0, "Overrides every run's iterations (0: keep).");
ABSL_FLAG(std::string, count_estimator, "",
          "Overrides every run's count estimator: sweep_average, last_sweep or "
          "persistent_joint (the exact scheme: SCIR, full batch; minibatch_size unset means "
          "every training document). Empty: keep.");
ABSL_FLAG(std::string, topic_update, "",
          "Overrides every run's SCIR topic update: eager (every K x V entry each iteration) or "
          "lazy (zero-count entries pooled, samplers::LazyScir: the same chain in law, other "
          "draws; SCIR only, not with persistent_joint). Lazy pays O(K V) whenever all of the "
          "topic matrix is read: at every evaluation (and snapshot), checkpoint, and every "
          "sample the posterior mean keeps, so with the default mean_every = 1 an iteration "
          "after burn_in costs more than an eager one (AP, K = 50, mean from 5% of the run: "
          "18.0 CPU s against eager's 11.9 for 10 passes; bench/README.md); raise runs' "
          "mean_every (lda_vs_sklearn.py --mean_every). Empty: keep.");
ABSL_FLAG(bool, plot, true, "Draw perplexity.png with gnuplot (if gnuplot is on PATH).");
ABSL_FLAG(std::string, stream_docword, "",
          "Train from a stream (LdaConfig.stream) read from this UCI docword file (plain or "
          "gzip; - for standard input, one pass): the corpus is never held in memory. Needs "
          "--vocab and one of --held_out_documents and --test_docword.");
ABSL_FLAG(std::string, stream_text, "",
          "Train from a stream of raw text: a file with one document per line or a directory "
          "with one per file, tokenized over the fixed vocabulary --vocab.");
ABSL_FLAG(std::string, vocab, "", "The stream's vocabulary file, one word per line.");
ABSL_FLAG(int, held_out_documents, 0,
          "Hold out the stream's first N documents (document completion); 0: keep the "
          "config's.");
ABSL_FLAG(std::string, test_docword, "",
          "Held-out documents of a stream: a separate UCI docword file over --vocab.");
ABSL_FLAG(int, passes, 0, "Passes over the stream, >= 1 (0: keep the config's; default 1).");

namespace sgmcmc::tools {
namespace {

// The --stream_* flags into config.stream (they override its fields).
absl::Status ApplyStreamFlags(LdaConfig& config) {
  const std::string docword = absl::GetFlag(FLAGS_stream_docword);
  const std::string text = absl::GetFlag(FLAGS_stream_text);
  const bool any = !docword.empty() || !text.empty() || !absl::GetFlag(FLAGS_vocab).empty() ||
                   absl::GetFlag(FLAGS_held_out_documents) > 0 ||
                   !absl::GetFlag(FLAGS_test_docword).empty() || absl::GetFlag(FLAGS_passes) > 0;
  if (!any) return absl::OkStatus();
  if (!docword.empty() && !text.empty()) {
    return absl::InvalidArgumentError("--stream_docword and --stream_text: give one");
  }
  if (!config.has_stream() && docword.empty() && text.empty()) {
    return absl::InvalidArgumentError(
        "--vocab, --held_out_documents, --test_docword and --passes apply to a stream: give "
        "--stream_docword or --stream_text (or a config with a stream)");
  }
  LdaStreamConfig& stream = *config.mutable_stream();
  if (!docword.empty()) {
    stream.clear_text();
    stream.set_docword(docword);
  }
  if (!text.empty()) {
    stream.clear_docword();
    stream.set_text(text);
  }
  if (!absl::GetFlag(FLAGS_vocab).empty()) stream.set_vocab(absl::GetFlag(FLAGS_vocab));
  if (absl::GetFlag(FLAGS_held_out_documents) > 0) {
    stream.clear_test_docword();
    stream.set_held_out_documents(absl::GetFlag(FLAGS_held_out_documents));
  }
  if (!absl::GetFlag(FLAGS_test_docword).empty()) {
    stream.clear_held_out_documents();
    stream.set_test_docword(absl::GetFlag(FLAGS_test_docword));
  }
  if (absl::GetFlag(FLAGS_passes) > 0) stream.set_passes(absl::GetFlag(FLAGS_passes));
  return absl::OkStatus();
}

absl::Status Main(const char* argv0) {
  const std::string path = FromWorkingDirectory(absl::GetFlag(FLAGS_config));
  LdaConfig config;
  if (!path.empty()) {
    absl::StatusOr<LdaConfig> parsed = ReadLdaConfig(path);
    if (!parsed.ok()) return parsed.status();
    config = *std::move(parsed);
  }
  if (!absl::GetFlag(FLAGS_output_dir).empty()) {
    config.set_output_dir(absl::GetFlag(FLAGS_output_dir));
  }
  // Negative overrides were silently ignored (a full default run instead of an error).
  for (const auto& [flag, value] :
       {std::pair<const char*, int64_t>{"--threads", absl::GetFlag(FLAGS_threads)},
        {"--iterations", absl::GetFlag(FLAGS_iterations)},
        {"--held_out_documents", absl::GetFlag(FLAGS_held_out_documents)},
        {"--passes", absl::GetFlag(FLAGS_passes)}}) {
    if (value < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " must be >= 0 (0: keep the config's), got ", value));
    }
  }
  if (absl::GetFlag(FLAGS_threads) > 0) {
    SGMCMC_RETURN_IF_ERROR(CheckThreadCount("--threads", absl::GetFlag(FLAGS_threads)));
    config.set_threads(absl::GetFlag(FLAGS_threads));
  }
  if (absl::GetFlag(FLAGS_iterations) > 0) {
    // The default run, made explicit (K as in ResolveLdaRuns' default run).
    if (config.runs().empty()) config.add_runs()->set_num_topics(kDefaultLdaNumTopics);
    for (LdaRunConfig& run : *config.mutable_runs()) {
      run.set_iterations(absl::GetFlag(FLAGS_iterations));
    }
  }
  SGMCMC_RETURN_IF_ERROR(ApplyStreamFlags(config));
  if (const std::string estimator = absl::GetFlag(FLAGS_count_estimator); !estimator.empty()) {
    SGMCMC_RETURN_IF_ERROR(SetLdaCountEstimator(estimator, "--count_estimator", config));
  }
  if (const std::string update = absl::GetFlag(FLAGS_topic_update); !update.empty()) {
    SGMCMC_RETURN_IF_ERROR(SetLdaTopicUpdate(update, "--topic_update", config));
  }
  LdaRunOptions options;
  options.argv0 = argv0;
  options.source = path.empty() ? "default config" : path;
  options.resume = absl::GetFlag(FLAGS_resume);
  options.plot = absl::GetFlag(FLAGS_plot);
  return RunLda(config, options);
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Online LDA with SCIR / SGRLD topic updates. No arguments: SCIR on the embedded KOS "
      "corpus. --config=FILE for any corpus and settings (tools/lda_config.proto); "
      "--stream_docword=FILE (or -) or --stream_text=FILE|DIR with --vocab=FILE to train from "
      "a stream larger than memory.",
      sgmcmc::tools::Main);
}
