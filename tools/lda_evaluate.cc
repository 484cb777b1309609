// lda_evaluate: scores topic matrices produced elsewhere (e.g. scikit-learn's online
// variational LDA in bench/lda_vs_sklearn.py) or saved by the `lda` tool (its snapshots) with
// exactly the `lda` tool's corpus, held-out split and evaluators, so peers are compared on the
// same protocol. It can also export the training part of the split as a UCI corpus for them.
//
// Two scores per matrix, in separate columns, never mixed: fold_in_perplexity, the point
// estimate's perplexity by fold-in (eval/fold_in.h: θ of each test document from its observed
// half by fixed-point iterations with φ fixed, scored on the held-out half; deterministic), the
// one evaluator of bench/lda_vs_sklearn.py; and gibbs_perplexity (unless --gibbs=false), the
// `lda` tool's Gibbs-based document completion (eval/perplexity.h) for this matrix alone.
//
// The corpus and split come from --config (an LdaConfig, tools/lda_config.proto: corpus,
// test_documents, seed, eval_sweeps, threads), as in the `lda` tool. --topics lists topic
// matrices (K x V, rows normalised here; data/topic_matrix.h): ".phi" (the `lda` tool's
// binary), ".tsv" (K lines of V tab- or space-separated values, like topic_matrix_RUN.tsv) or
// ".f64" files (K*V little-endian doubles, row-major; K from the size). They are evaluated in
// order (for the Gibbs column by one evaluator: the test documents' Gibbs chains continue from
// one matrix to the next, as between the evaluations of a run); each line of the output CSV
// is that matrix's scores alone.
//
// The config is checked as the `lda` tool checks it (threads in [1, 1024], eval_sweeps >= 2);
// at least one of --topics and --export_train_dir must be given.
//
// Usage:
//   lda_evaluate --config=cfg.textpb --export_train_dir=/tmp/train   # docword.txt, vocab.txt
//   lda_evaluate --config=cfg.textpb --alpha=0.02 --topics=a.f64,b.phi --output=scores.csv
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/topic_matrix.h"
#include "data/uci_writer.h"
#include "eval/evaluation_schedule.h"
#include "eval/fold_in.h"
#include "eval/perplexity.h"
#include "models/lda/lda.h"
#include "parallel/thread_pool.h"
#include "tools/lda_run.h"
#include "tools/lda_transform_run.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, config, "", "LdaConfig textproto naming the corpus and split.");
ABSL_FLAG(std::string, export_train_dir, "",
          "Write the training documents of the split here as docword.txt + vocab.txt (UCI).");
ABSL_FLAG(std::string, topics, "", "Comma-separated topic matrices (.tsv or .f64) to score.");
ABSL_FLAG(double, alpha, 0,
          "Document-topic Dirichlet parameter used for completion (> 0); 0: the lda tool's "
          "default for the matrices' K (models::DefaultLdaAlpha: K alpha = 0.05 K within "
          "[5, 10], alpha <= 0.1). Set it to compare matrices of different samplers.");
ABSL_FLAG(std::string, output, "",
          "CSV of the scores (file,fold_in_perplexity,gibbs_perplexity); empty: stdout.");
ABSL_FLAG(bool, gibbs, true,
          "Also score each matrix with the Gibbs-based document completion (second column).");

namespace sgmcmc::tools {
namespace {

absl::Status Main(const char* argv0) {
  const std::string config_path = FromWorkingDirectory(absl::GetFlag(FLAGS_config));
  LdaConfig config;
  if (!config_path.empty()) {
    SGMCMC_ASSIGN_OR_RETURN(config, ReadLdaConfig(config_path));
  }
  const std::string source = config_path.empty() ? "default config" : config_path;
  // The `lda` tool's checks of the config (threads in [1, 1024]: 0 was a CHECK abort in the
  // thread pool, 100000 a std::system_error; eval_sweeps >= 2; its runs, unused here).
  SGMCMC_RETURN_IF_ERROR(ResolveLdaRuns(config, source).status());
  const std::string topics_flag = absl::GetFlag(FLAGS_topics);
  const std::string export_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_export_train_dir));
  if (topics_flag.empty() && export_dir.empty()) {
    return absl::InvalidArgumentError(
        "nothing to do: give --topics (matrices to score) and/or --export_train_dir");
  }
  const std::vector<std::string> topic_files = absl::StrSplit(topics_flag, ',');
  for (const std::string& file : topic_files) {
    if (file.empty() && !topics_flag.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--topics has an empty file name: \"", topics_flag, "\""));
    }
  }
  SGMCMC_ASSIGN_OR_RETURN(const LdaData data, LoadLdaData(config, source, argv0));
  std::cerr << data.description << "\n";

  if (!export_dir.empty()) {
    SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(export_dir, "--export_train_dir"));
    SGMCMC_RETURN_IF_ERROR(data::WriteUciCorpus(data.train, export_dir + "/docword.txt",
                                                export_dir + "/vocab.txt"));
    std::cerr << "wrote " << data.train.num_documents() << " training documents to "
              << export_dir << "\n";
  }
  if (topics_flag.empty()) return absl::OkStatus();

  double alpha = absl::GetFlag(FLAGS_alpha);
  if (!(alpha >= 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--alpha must be finite and > 0 (0: by K), got ", alpha));
  }
  const int vocabulary_size = data.train.vocabulary_size();
  parallel::ThreadPool pool(config.has_threads() ? config.threads() : 1);
  std::unique_ptr<eval::DocumentCompletionPerplexity> perplexity;
  std::unique_ptr<eval::FoldInPerplexity> fold_in;
  int first_num_topics = 0;
  const bool gibbs = absl::GetFlag(FLAGS_gibbs);
  std::ostringstream csv;
  csv << "file,fold_in_perplexity,gibbs_perplexity\n";
  for (const std::string& file : topic_files) {
    const std::string path = FromWorkingDirectory(file);
    SGMCMC_ASSIGN_OR_RETURN(std::vector<data::TopicMatrix> read,
                            ReadNormalizedTopicMatrices({path}, vocabulary_size));
    const std::vector<double>& topics = read[0].values;
    const int num_topics = read[0].num_topics;
    if (perplexity == nullptr) {
      first_num_topics = num_topics;
      if (alpha == 0) {
        alpha = models::DefaultLdaAlpha(num_topics);
        std::cerr << absl::StrFormat(
            "alpha %g (default for K = %d: models::DefaultLdaAlpha, the alpha of an lda run "
            "that named neither preset nor alpha; set --alpha to the run's)\n",
            alpha, num_topics);
      }
      eval::FoldInOptions fold_in_options;
      fold_in_options.alpha = alpha;
      SGMCMC_ASSIGN_OR_RETURN(eval::FoldInPerplexity created_fold_in,
                              eval::FoldInPerplexity::Create(data.test, num_topics,
                                                             fold_in_options));
      fold_in = std::make_unique<eval::FoldInPerplexity>(std::move(created_fold_in));
      SGMCMC_ASSIGN_OR_RETURN(
          eval::DocumentCompletionPerplexity created,
          eval::DocumentCompletionPerplexity::Create(
              data.test, eval::ProtocolPerplexityOptions(
                             num_topics, alpha,
                             config.has_eval_sweeps() ? config.eval_sweeps()
                                                      : eval::kDefaultEvalSweeps,
                             config.has_seed() ? config.seed() : 1)));
      perplexity = std::make_unique<eval::DocumentCompletionPerplexity>(std::move(created));
    } else if (num_topics != first_num_topics) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": has ", num_topics,
                                                     " topics, the first matrix had ",
                                                     first_num_topics));
    }
    SGMCMC_ASSIGN_OR_RETURN(const double point, fold_in->Evaluate(topics, &pool));
    std::string gibbs_score;
    if (gibbs) {
      perplexity->ResetRunningMean();
      perplexity->Evaluate(topics, &pool);
      gibbs_score = absl::StrFormat("%.9g", perplexity->last_perplexity());
    }
    csv << path << "," << absl::StrFormat("%.9g", point) << "," << gibbs_score << "\n";
    std::cerr << path << ": fold-in perplexity " << absl::StrFormat("%.2f", point)
              << (gibbs ? absl::StrCat(", Gibbs perplexity ", gibbs_score) : "") << "\n";
  }
  const std::string output = FromWorkingDirectory(absl::GetFlag(FLAGS_output));
  if (output.empty()) {
    std::cout << csv.str();
    return absl::OkStatus();
  }
  return WriteFile(output, csv.str());
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Scores topic matrices with the lda tool's split and document-completion perplexity; "
      "exports the training documents for peers.",
      sgmcmc::tools::Main);
}
