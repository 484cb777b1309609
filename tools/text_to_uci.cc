// text_to_uci: raw text -> UCI bag-of-words files, with the tokenizer and vocabulary rules of
// //data:text_reader (lower-case alphabetic tokens, stop words removed, minimum document
// frequency, vocabulary cap or fixed vocabulary). The input is a file with one document per
// line or a directory with one document per file (recursive, sorted by path); plain or gzip.
// The summary of what was kept and dropped (by reason) goes to stderr.
//
// Usage (each command on one line):
//   bazel run -c opt //tools:text_to_uci -- --input=/tmp/20news-bydate/20news-bydate-train
//       --docword=/tmp/docword.20news.txt.gz --vocab_out=/tmp/vocab.20news.txt
//       --min_document_frequency=5 --max_vocabulary_size=20000
//   Then, for a test set over the same vocabulary:
//   ... --input=.../20news-bydate-test --vocabulary=/tmp/vocab.20news.txt
//       --docword=/tmp/docword.20news.test.txt.gz --vocab_out=/tmp/vocab.20news.test.txt
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "base/status_macros.h"
#include "data/text_reader.h"
#include "data/uci_writer.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, input, "", "A text file (one document per line) or a directory.");
ABSL_FLAG(std::string, docword, "", "Output docword file (gzip if it ends in .gz).");
ABSL_FLAG(std::string, vocab_out, "", "Output vocabulary file.");
ABSL_FLAG(std::string, stop_words, "", "Stop-word file; empty: the built-in English list.");
ABSL_FLAG(bool, keep_stop_words, false, "Keep stop words.");
ABSL_FLAG(int, min_token_length, 2, "Shortest token kept (letters).");
ABSL_FLAG(int, min_document_frequency, 1, "Keep words in at least this many documents.");
ABSL_FLAG(int, max_vocabulary_size, 0, "Keep at most this many words (most frequent); 0: all.");
ABSL_FLAG(std::string, vocabulary, "", "Fixed vocabulary file instead of building one.");
ABSL_FLAG(int, min_document_tokens, 1, "Drop documents with fewer tokens.");

namespace sgmcmc::tools {
namespace {

absl::Status Run(const char* /*argv0*/) {
  const std::string input = FromWorkingDirectory(absl::GetFlag(FLAGS_input));
  const std::string docword = FromWorkingDirectory(absl::GetFlag(FLAGS_docword));
  const std::string vocab = FromWorkingDirectory(absl::GetFlag(FLAGS_vocab_out));
  if (input.empty() || docword.empty() || vocab.empty()) {
    return absl::InvalidArgumentError("--input, --docword and --vocab_out are required");
  }
  data::TextCorpusOptions options;
  options.tokenizer.stop_words_path = FromWorkingDirectory(absl::GetFlag(FLAGS_stop_words));
  options.tokenizer.remove_stop_words = !absl::GetFlag(FLAGS_keep_stop_words);
  options.tokenizer.min_token_length = absl::GetFlag(FLAGS_min_token_length);
  options.min_document_frequency = absl::GetFlag(FLAGS_min_document_frequency);
  options.max_vocabulary_size = absl::GetFlag(FLAGS_max_vocabulary_size);
  options.vocabulary_path = FromWorkingDirectory(absl::GetFlag(FLAGS_vocabulary));
  options.min_document_tokens = absl::GetFlag(FLAGS_min_document_tokens);
  data::TextReadSummary summary;
  SGMCMC_ASSIGN_OR_RETURN(const data::Corpus corpus,
                          data::ReadTextCorpus(input, options, &summary));
  std::cerr << input << ":\n" << summary.BriefReport() << "\n";
  // An empty input (or one whose every word was dropped) gave a corpus with W = 0 words, which
  // no UCI reader (data/uci_reader.h) accepts, and exit status 0.
  if (corpus.num_documents() == 0 || corpus.vocabulary_size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        input, ": no document kept (D = ", corpus.num_documents(), ", W = ",
        corpus.vocabulary_size(), "; the reasons are in the summary above); nothing written"));
  }
  SGMCMC_RETURN_IF_ERROR(data::WriteUciCorpus(corpus, docword, vocab));
  std::cerr << "wrote " << docword << " (D = " << corpus.num_documents()
            << ", W = " << corpus.vocabulary_size() << ", N = " << corpus.num_tokens()
            << ") and " << vocab << "\n";
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv,
      "Converts raw text to UCI bag-of-words files; see the header of tools/text_to_uci.cc.",
      sgmcmc::tools::Run);
}
