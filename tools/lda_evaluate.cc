// lda_evaluate: scores topic matrices produced elsewhere (e.g. scikit-learn's online
// variational LDA in bench/lda_vs_sklearn.py) with exactly the `lda` tool's corpus, held-out
// split and document-completion perplexity (eval/perplexity.h), so peers are compared on the
// same protocol. It can also export the training part of the split as a UCI corpus for them.
//
// The corpus and split come from --config (an LdaConfig, tools/lda_config.proto: corpus,
// test_documents, seed, eval_sweeps, threads), as in the `lda` tool. --topics lists topic
// matrices (K x V, rows normalised here): ".tsv" files (K lines of V tab- or space-separated
// values, like the tool's topic_matrix_RUN.tsv) or ".f64" files (K*V little-endian doubles,
// row-major; K from the size). They are evaluated in order by one evaluator (the test
// documents' Gibbs chains continue from one matrix to the next, as between the evaluations of
// a run); each line of the output CSV is that matrix's perplexity alone.
//
// Usage:
//   lda_evaluate --config=cfg.textpb --export_train_dir=/tmp/train   # docword.txt, vocab.txt
//   lda_evaluate --config=cfg.textpb --alpha=0.02 --topics=a.f64,b.f64 --output=scores.csv
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/uci_writer.h"
#include "eval/evaluation_schedule.h"
#include "eval/perplexity.h"
#include "parallel/thread_pool.h"
#include "tools/lda_run.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, config, "", "LdaConfig textproto naming the corpus and split.");
ABSL_FLAG(std::string, export_train_dir, "",
          "Write the training documents of the split here as docword.txt + vocab.txt (UCI).");
ABSL_FLAG(std::string, topics, "", "Comma-separated topic matrices (.tsv or .f64) to score.");
ABSL_FLAG(double, alpha, 0.1, "Document-topic Dirichlet parameter used for completion (> 0).");
ABSL_FLAG(std::string, output, "", "CSV of the scores (file,perplexity); empty: stdout.");

namespace sgmcmc::tools {
namespace {

// A K x V matrix with rows normalised to sum to 1.
absl::StatusOr<std::vector<double>> ReadTopics(const std::string& path, int vocabulary_size,
                                               int* num_topics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::vector<double> values;
  if (absl::EndsWith(path, ".f64")) {
    in.seekg(0, std::ios::end);
    const std::streamoff bytes = in.tellg();
    in.seekg(0);
    if (bytes <= 0 || bytes % (8 * static_cast<std::streamoff>(vocabulary_size)) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": ", bytes, " bytes is not a whole number of rows of V = ", vocabulary_size,
          " doubles"));
    }
    values.resize(bytes / 8);
    in.read(reinterpret_cast<char*>(values.data()), bytes);
    if (!in) return absl::DataLossError(absl::StrCat(path, ": read error"));
  } else {
    std::string line;
    int line_number = 0;
    while (std::getline(in, line)) {
      ++line_number;
      if (line.empty()) continue;
      const size_t before = values.size();
      for (absl::string_view field : absl::StrSplit(line, absl::ByAnyChar(" \t,"), absl::SkipEmpty())) {
        double x;
        if (!absl::SimpleAtod(field, &x)) {
          return absl::InvalidArgumentError(
              absl::StrCat(path, ":", line_number, ": not a number: '", field, "'"));
        }
        values.push_back(x);
      }
      if (values.size() - before != static_cast<size_t>(vocabulary_size)) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": ",
                                                       values.size() - before,
                                                       " values, expected V = ", vocabulary_size));
      }
    }
  }
  *num_topics = static_cast<int>(values.size() / vocabulary_size);
  if (*num_topics < 1) return absl::InvalidArgumentError(absl::StrCat(path, ": no rows"));
  for (int k = 0; k < *num_topics; ++k) {
    double* row = values.data() + static_cast<size_t>(k) * vocabulary_size;
    double sum = 0;
    for (int w = 0; w < vocabulary_size; ++w) {
      if (!(row[w] >= 0) || !std::isfinite(row[w])) {
        return absl::InvalidArgumentError(absl::StrCat(path, ": row ", k, " column ", w, " is ",
                                                       row[w], ", expected finite >= 0"));
      }
      sum += row[w];
    }
    if (!(sum > 0)) return absl::InvalidArgumentError(absl::StrCat(path, ": row ", k, " is zero"));
    for (int w = 0; w < vocabulary_size; ++w) row[w] /= sum;
  }
  return values;
}

absl::Status Main(const char* argv0) {
  const std::string config_path = FromWorkingDirectory(absl::GetFlag(FLAGS_config));
  LdaConfig config;
  if (!config_path.empty()) {
    SGMCMC_ASSIGN_OR_RETURN(config, ReadLdaConfig(config_path));
  }
  const std::string source = config_path.empty() ? "default config" : config_path;
  SGMCMC_ASSIGN_OR_RETURN(const LdaData data, LoadLdaData(config, source, argv0));
  std::cerr << data.description << "\n";

  const std::string export_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_export_train_dir));
  if (!export_dir.empty()) {
    SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(export_dir, "--export_train_dir"));
    SGMCMC_RETURN_IF_ERROR(data::WriteUciCorpus(data.train, export_dir + "/docword.txt",
                                                export_dir + "/vocab.txt"));
    std::cerr << "wrote " << data.train.num_documents() << " training documents to "
              << export_dir << "\n";
  }
  if (absl::GetFlag(FLAGS_topics).empty()) return absl::OkStatus();

  const double alpha = absl::GetFlag(FLAGS_alpha);
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(absl::StrCat("--alpha must be finite and > 0, got ", alpha));
  }
  const int vocabulary_size = data.train.vocabulary_size();
  parallel::ThreadPool pool(config.has_threads() ? config.threads() : 1);
  std::unique_ptr<eval::DocumentCompletionPerplexity> perplexity;
  int first_num_topics = 0;
  std::ostringstream csv;
  csv << "file,perplexity\n";
  for (absl::string_view file : absl::StrSplit(absl::GetFlag(FLAGS_topics), ',', absl::SkipEmpty())) {
    const std::string path = FromWorkingDirectory(std::string(file));
    int num_topics = 0;
    SGMCMC_ASSIGN_OR_RETURN(const std::vector<double> topics,
                            ReadTopics(path, vocabulary_size, &num_topics));
    if (perplexity == nullptr) {
      first_num_topics = num_topics;
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
    perplexity->ResetRunningMean();
    perplexity->Evaluate(topics, &pool);
    csv << path << "," << absl::StrFormat("%.9g", perplexity->last_perplexity()) << "\n";
    std::cerr << path << ": perplexity " << absl::StrFormat("%.2f", perplexity->last_perplexity())
              << "\n";
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
