// Fuzz target: text corpora, one document per line (data/text_reader.h ReadTextLines), plain
// or gzip. The first byte picks the options (minimum document frequency, vocabulary cap,
// minimum document length, a fixed vocabulary file, gzip). Contract: an error naming the
// file, or a corpus that passes Corpus::Validate, whose vocabulary is distinct lower-case
// words within the options' bounds, whose documents all have min_document_tokens tokens, and
// whose summary adds up (documents read = kept + dropped, tokens kept = the corpus's tokens,
// the tokenizer's kept tokens = tokens kept + every counted drop).
#include <cstdint>
#include <set>
#include <string>

#include "absl/strings/ascii.h"
#include "base/check.h"
#include "data/corpus.h"
#include "data/text_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* plain = new fuzz::ScratchFile("corpus.txt");
  static fuzz::ScratchFile* gzip = new fuzz::ScratchFile("corpus.txt.gz");
  static fuzz::ScratchFile* vocabulary = new fuzz::ScratchFile("vocab.txt");
  const uint8_t mode = data[0];
  const absl::string_view text = fuzz::AsText(data + 1, size - 1);
  data::TextCorpusOptions options;
  options.min_document_tokens = mode & 3;
  if (mode & 4) {
    options.vocabulary_path =
        vocabulary->Write("cat\nhat\ndog\nsat\nmat\nthe\nfish\nzebra\nquick\nbrown\n");
  } else {
    options.min_document_frequency = 1 + ((mode >> 3) & 1);
    options.max_vocabulary_size = (mode >> 4) & 3;
  }
  const std::string& path = (mode & 0x80) ? gzip->Write(fuzz::Gzip(text)) : plain->Write(text);
  data::TextReadSummary summary;
  const absl::StatusOr<data::Corpus> corpus = data::ReadTextLines(path, options, &summary);
  if (!corpus.ok()) {
    fuzz::CheckInputError(corpus.status(), path);
    return 0;
  }
  SGMCMC_CHECK(corpus->Validate().ok()) << corpus->Validate();
  std::set<std::string> distinct;
  for (const std::string& word : corpus->vocabulary) {
    SGMCMC_CHECK(!word.empty());
    for (const char c : word) SGMCMC_CHECK(absl::ascii_islower(c)) << word;
    SGMCMC_CHECK(distinct.insert(word).second) << "repeated word " << word;
  }
  if (options.max_vocabulary_size > 0) {
    SGMCMC_CHECK_LE(corpus->vocabulary_size(), options.max_vocabulary_size);
  }
  for (int d = 0; d < corpus->num_documents(); ++d) {
    SGMCMC_CHECK_GE(static_cast<int>(corpus->document(d).size()), options.min_document_tokens);
  }
  SGMCMC_CHECK_EQ(summary.documents_kept, corpus->num_documents());
  SGMCMC_CHECK_EQ(summary.documents_read, summary.documents_kept + summary.documents_dropped);
  SGMCMC_CHECK_EQ(summary.tokens_kept, corpus->num_tokens());
  SGMCMC_CHECK_EQ(summary.vocabulary_size, corpus->vocabulary_size());
  SGMCMC_CHECK_EQ(summary.tokenizer.kept,
                  summary.tokens_kept + summary.dropped_rare + summary.dropped_by_cap +
                      summary.dropped_out_of_vocabulary + summary.dropped_in_dropped_documents);
  return 0;
}
