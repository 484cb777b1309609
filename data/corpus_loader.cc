#include "data/corpus_loader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "data/embedded_corpus.h"
#include "data/text_reader.h"
#include "data/uci_reader.h"
#include "rng/engine.h"

namespace sgmcmc::data {
namespace {

// `corpus`, or its error with "field: " before the message (the code kept).
absl::StatusOr<Corpus> NamingField(const char* field, absl::StatusOr<Corpus> corpus) {
  if (corpus.ok()) return corpus;
  return absl::Status(corpus.status().code(), absl::StrCat(field, ": ", corpus.status().message()));
}

// The corpus of config.source and one line (or more) for the log.
absl::StatusOr<Corpus> ReadSource(const CorpusConfig& config, const std::string& argv0,
                                  std::string& log) {
  switch (config.source_case()) {
    case CorpusConfig::kUci: {
      const UciCorpusConfig& uci = config.uci();
      if (uci.docword().empty() || uci.vocab().empty()) {
        return absl::InvalidArgumentError(
            "corpus.uci.docword and corpus.uci.vocab are both required");
      }
      UciReadSummary summary;
      absl::StatusOr<Corpus> corpus = ReadUciCorpus(uci.docword(), uci.vocab(), &summary);
      log = summary.BriefReport();
      return NamingField("corpus", std::move(corpus));
    }
    case CorpusConfig::kText: {
      const TextCorpusConfig& text = config.text();
      if (text.path().empty()) return absl::InvalidArgumentError("corpus.text.path is required");
      TextCorpusOptions options;
      options.tokenizer.stop_words_path = text.stop_words();
      options.tokenizer.remove_stop_words = !text.keep_stop_words();
      if (text.has_min_token_length()) options.tokenizer.min_token_length = text.min_token_length();
      if (text.has_max_token_length()) options.tokenizer.max_token_length = text.max_token_length();
      if (text.has_min_document_frequency()) {
        options.min_document_frequency = text.min_document_frequency();
      }
      options.max_vocabulary_size = text.max_vocabulary_size();
      options.vocabulary_path = text.vocabulary();
      if (text.has_min_document_tokens()) options.min_document_tokens = text.min_document_tokens();
      if (absl::Status s = options.Validate(); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("corpus.text: ", s.message()));
      }
      TextReadSummary summary;
      absl::StatusOr<Corpus> corpus = ReadTextCorpus(text.path(), options, &summary);
      log = summary.BriefReport();
      return NamingField("corpus", std::move(corpus));
    }
    case CorpusConfig::SOURCE_NOT_SET:
      break;
  }
  UciReadSummary summary;
  absl::StatusOr<Corpus> corpus = LoadEmbeddedKos(argv0, &summary);
  log = absl::StrCat("embedded KOS corpus (UCI, CC BY 4.0): ", summary.BriefReport());
  return NamingField("corpus", std::move(corpus));
}

}  // namespace

absl::StatusOr<CorpusAndSplit> LoadCorpusAndSplit(const CorpusConfig& config,
                                                  const HeldOutOptions& held_out, uint64_t seed,
                                                  const std::string& argv0) {
  std::string log;
  absl::StatusOr<Corpus> corpus = ReadSource(config, argv0, log);
  if (!corpus.ok()) return corpus.status();
  CorpusAndSplit result;
  if (config.has_test_uci()) {
    const UciCorpusConfig& test = config.test_uci();
    if (test.docword().empty() || test.vocab().empty()) {
      return absl::InvalidArgumentError(
          "corpus.test_uci.docword and corpus.test_uci.vocab are both required");
    }
    UciReadSummary summary;
    absl::StatusOr<Corpus> test_corpus =
        NamingField("corpus.test_uci", ReadUciCorpus(test.docword(), test.vocab(), &summary));
    if (!test_corpus.ok()) return test_corpus.status();
    if (test_corpus->vocabulary != corpus->vocabulary) {
      return absl::InvalidArgumentError(
          "corpus.test_uci: its vocabulary differs from the training corpus's (use the same "
          "vocabulary file)");
    }
    absl::StrAppend(&log, "\n", summary.BriefReport());
    result.train = *std::move(corpus);
    result.test = SplitForDocumentCompletion(*test_corpus);
    result.description = absl::StrCat(log, "\ntest corpus ", test.docword());
    return result;
  }
  rng::Engine engine(seed, kSplitStream);
  absl::StatusOr<HeldOutSplit> split = SplitCorpus(*corpus, held_out, engine);
  if (!split.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("test_documents: ", split.status().message()));
  }
  result.description =
      absl::StrCat(log, "\n", split->test_ids.size(), " held-out test documents (seed ", seed, ")");
  result.train = std::move(split->train);
  result.test = std::move(split->test);
  return result;
}

}  // namespace sgmcmc::data
