// lda_transform: topic proportions θ of new documents under saved topic matrices (fold-in with
// φ fixed, eval/fold_in.h), written as a D x K tab-separated matrix (tools/lda_transform_run.h).
//
// Usage:
//   lda_transform --topics=lda_output/topic_matrix_mean_scir_fast.phi \
//       --docword=docword.new.txt --vocab=vocab.kos.txt --alpha=0.1 --output=theta.tsv
//   lda_transform --topics=snapshots_scir_fast/last_900.phi,snapshots_scir_fast/last_1000.phi \
//       --text=new_docs.txt --vocab=lda_output/vocabulary.txt --alpha=0.1 --output=theta.tsv
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "tools/lda_transform_run.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, topics, "",
          "Comma-separated topic matrices (.phi, .tsv or .f64); several: θ is the mean of "
          "their fold-ins (e.g. kept samples).");
ABSL_FLAG(std::string, docword, "", "UCI docword file of the documents (plain or gzip).");
ABSL_FLAG(std::string, text, "",
          "Raw text instead: one document per line, or a directory of files.");
ABSL_FLAG(std::string, vocab, "", "The vocabulary of the topic matrices, one word per line.");
ABSL_FLAG(std::string, output, "", "Where the D x K proportions go (tab-separated).");
ABSL_FLAG(double, alpha, 0,
          "Document-topic Dirichlet parameter of the model (> 0); 0: the lda tool's default "
          "for the topics' K (models::DefaultLdaAlpha: K alpha = 0.05 K within [5, 10], alpha "
          "<= 0.1).");
ABSL_FLAG(int, max_iterations, 200,
          "EM steps of the fixed point per document at most (>= 1; SQUAREM-accelerated).");
ABSL_FLAG(double, tolerance, 1e-6, "Stop when no proportion moves by more than this (>= 0).");
ABSL_FLAG(int, threads, 1, "Worker threads (>= 1); the output does not depend on it.");

namespace sgmcmc::tools {
namespace {

absl::Status Main(const char*) {
  LdaTransformOptions options;
  for (absl::string_view path :
       absl::StrSplit(absl::GetFlag(FLAGS_topics), ',', absl::SkipEmpty())) {
    options.topics.push_back(FromWorkingDirectory(std::string(path)));
  }
  options.docword = FromWorkingDirectory(absl::GetFlag(FLAGS_docword));
  options.text = FromWorkingDirectory(absl::GetFlag(FLAGS_text));
  options.vocab = FromWorkingDirectory(absl::GetFlag(FLAGS_vocab));
  options.output = FromWorkingDirectory(absl::GetFlag(FLAGS_output));
  options.fold_in.alpha = absl::GetFlag(FLAGS_alpha);
  options.fold_in.max_iterations = absl::GetFlag(FLAGS_max_iterations);
  options.fold_in.tolerance = absl::GetFlag(FLAGS_tolerance);
  options.threads = absl::GetFlag(FLAGS_threads);
  return RunLdaTransform(options, std::cerr);
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Topic proportions of new documents (UCI or text) under saved LDA topic matrices, by "
      "fold-in with the topics fixed; writes a D x K matrix.",
      sgmcmc::tools::Main);
}
