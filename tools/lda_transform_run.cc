#include "tools/lda_transform_run.h"

#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/text_reader.h"
#include "data/uci_reader.h"
#include "models/lda/lda.h"
#include "parallel/thread_pool.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

absl::StatusOr<std::vector<data::TopicMatrix>> ReadNormalizedTopicMatrices(
    const std::vector<std::string>& paths, int vocabulary_size) {
  if (paths.empty()) return absl::InvalidArgumentError("no topic matrices given");
  std::vector<data::TopicMatrix> matrices;
  for (const std::string& path : paths) {
    SGMCMC_ASSIGN_OR_RETURN(data::TopicMatrix matrix,
                            data::ReadTopicMatrix(path, vocabulary_size));
    SGMCMC_RETURN_IF_ERROR(data::NormalizeTopicRows(matrix, path));
    if (!matrices.empty() && (matrix.num_topics != matrices[0].num_topics ||
                              matrix.vocabulary_size != matrices[0].vocabulary_size)) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": is ", matrix.num_topics, " x ", matrix.vocabulary_size, ", but ", paths[0],
          " is ", matrices[0].num_topics, " x ", matrices[0].vocabulary_size));
    }
    matrices.push_back(std::move(matrix));
  }
  return matrices;
}

absl::Status RunLdaTransform(const LdaTransformOptions& options, std::ostream& log) {
  if (options.docword.empty() == options.text.empty()) {
    return absl::InvalidArgumentError("give exactly one of --docword and --text");
  }
  if (options.vocab.empty()) return absl::InvalidArgumentError("--vocab is required");
  if (options.output.empty()) return absl::InvalidArgumentError("--output is required");
  SGMCMC_RETURN_IF_ERROR(CheckThreadCount("--threads", options.threads));
  SGMCMC_ASSIGN_OR_RETURN(const std::vector<data::TopicMatrix> topics,
                          ReadNormalizedTopicMatrices(options.topics));
  const int K = topics[0].num_topics, V = topics[0].vocabulary_size;
  log << absl::StrFormat("%d topic matri%s, K = %d, V = %d\n", topics.size(),
                         topics.size() == 1 ? "x" : "ces", K, V);

  data::Corpus documents;
  if (!options.docword.empty()) {
    data::UciReadSummary summary;
    SGMCMC_ASSIGN_OR_RETURN(documents,
                            data::ReadUciCorpus(options.docword, options.vocab, &summary));
    log << summary.BriefReport() << "\n";
  } else {
    data::TextCorpusOptions text;
    text.vocabulary_path = options.vocab;
    text.min_document_tokens = 0;  // a row for every document
    data::TextReadSummary summary;
    SGMCMC_ASSIGN_OR_RETURN(documents, data::ReadTextCorpus(options.text, text, &summary));
    log << summary.BriefReport() << "\n";
  }
  if (documents.vocabulary_size() != V) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.vocab, ": has ", documents.vocabulary_size(), " words, the topic matrix ",
        options.topics[0], " has V = ", V, " columns"));
  }

  eval::FoldInOptions fold_in_options = options.fold_in;
  if (!(fold_in_options.alpha >= 0) || !std::isfinite(fold_in_options.alpha)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--alpha must be finite and > 0 (0: the default for K), got ", fold_in_options.alpha));
  }
  if (fold_in_options.alpha == 0) {
    fold_in_options.alpha = models::DefaultLdaAlpha(K);
    log << absl::StrFormat(
        "alpha %g (default for K = %d: models::DefaultLdaAlpha, the alpha of an lda run that "
        "named neither preset nor alpha; set --alpha to the run's)\n",
        fold_in_options.alpha, K);
  }
  SGMCMC_ASSIGN_OR_RETURN(const eval::FoldIn fold_in,
                          eval::FoldIn::Create(documents, K, fold_in_options));
  std::vector<absl::Span<const double>> samples;
  for (const data::TopicMatrix& m : topics) samples.push_back(m.values);
  std::vector<double> theta(static_cast<size_t>(documents.num_documents()) * K);
  std::unique_ptr<parallel::ThreadPool> pool;
  if (options.threads > 1) pool = std::make_unique<parallel::ThreadPool>(options.threads);
  SGMCMC_RETURN_IF_ERROR(fold_in.TransformAveraged(samples, absl::MakeSpan(theta), pool.get()));
  log << absl::StrFormat("folded in %d documents (%d EM steps of the fixed point in all)\n",
                         documents.num_documents(), fold_in.last_iterations());
  SGMCMC_RETURN_IF_ERROR(WriteFile(
      options.output, data::FormatTopicMatrixTsv(theta, documents.num_documents(), K)));
  log << "wrote " << options.output << "\n";
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
