#include "data/text_reader.h"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "data/line_reader.h"
#include "data/uci_reader.h"

namespace sgmcmc::data {
namespace {

// Documents as ids into a growing dictionary of the distinct tokens.
class DocumentCollector {
 public:
  DocumentCollector(const Tokenizer& tokenizer, TextReadSummary& summary)
      : tokenizer_(tokenizer), summary_(summary) {}

  // Tokenizes `text` into the current document.
  void AddText(absl::string_view text) {
    tokenizer_.ForEachToken(text, &summary_.tokenizer, [&](absl::string_view token) {
      const auto [it, inserted] = ids_.try_emplace(token, static_cast<int32_t>(words_.size()));
      if (inserted) words_.emplace_back(token);
      tokens_.push_back(it->second);
    });
  }
  void EndDocument() {
    offsets_.push_back(static_cast<int64_t>(tokens_.size()));
    ++summary_.documents_read;
  }

  std::vector<std::string>& words() { return words_; }
  std::vector<int32_t>& tokens() { return tokens_; }
  std::vector<int64_t>& offsets() { return offsets_; }

 private:
  const Tokenizer& tokenizer_;
  TextReadSummary& summary_;
  absl::flat_hash_map<std::string, int32_t> ids_;
  std::vector<std::string> words_;
  std::vector<int32_t> tokens_;
  std::vector<int64_t> offsets_{0};
};

// new_id[old] for a vocabulary built by document frequency and cap; -1 = dropped with the
// reason in `reason` (1 rare, 2 capped).
std::vector<int32_t> BuildVocabulary(const TextCorpusOptions& options,
                                     const std::vector<std::string>& words,
                                     const std::vector<int32_t>& tokens,
                                     const std::vector<int64_t>& offsets,
                                     std::vector<std::string>* vocabulary,
                                     std::vector<int8_t>* reason) {
  const int n = static_cast<int>(words.size());
  std::vector<int64_t> document_frequency(n, 0), total(n, 0);
  std::vector<int64_t> last_document(n, -1);
  for (size_t d = 0; d + 1 < offsets.size(); ++d) {
    for (int64_t i = offsets[d]; i < offsets[d + 1]; ++i) {
      const int32_t w = tokens[i];
      ++total[w];
      if (last_document[w] != static_cast<int64_t>(d)) {
        last_document[w] = d;
        ++document_frequency[w];
      }
    }
  }
  reason->assign(n, 0);
  std::vector<int32_t> candidates;
  for (int w = 0; w < n; ++w) {
    if (document_frequency[w] < options.min_document_frequency) {
      (*reason)[w] = 1;
    } else {
      candidates.push_back(w);
    }
  }
  if (options.max_vocabulary_size > 0 &&
      static_cast<int>(candidates.size()) > options.max_vocabulary_size) {
    std::sort(candidates.begin(), candidates.end(), [&](int32_t a, int32_t b) {
      return total[a] != total[b] ? total[a] > total[b] : words[a] < words[b];
    });
    for (size_t i = options.max_vocabulary_size; i < candidates.size(); ++i) {
      (*reason)[candidates[i]] = 2;
    }
    candidates.resize(options.max_vocabulary_size);
  }
  std::sort(candidates.begin(), candidates.end(),
            [&](int32_t a, int32_t b) { return words[a] < words[b]; });
  std::vector<int32_t> new_id(n, -1);
  vocabulary->clear();
  for (int32_t w : candidates) {
    new_id[w] = static_cast<int32_t>(vocabulary->size());
    vocabulary->push_back(words[w]);
  }
  return new_id;
}

absl::StatusOr<Corpus> Finish(const TextCorpusOptions& options, DocumentCollector& collector,
                              TextReadSummary& summary) {
  const std::vector<std::string>& words = collector.words();
  summary.distinct_words = static_cast<int64_t>(words.size());
  Corpus corpus;
  std::vector<int32_t> new_id;
  std::vector<int8_t> reason;  // per old id: 0 kept, 1 rare, 2 capped, 3 out of vocabulary
  if (options.vocabulary_path.empty()) {
    new_id = BuildVocabulary(options, words, collector.tokens(), collector.offsets(),
                             &corpus.vocabulary, &reason);
  } else {
    SGMCMC_ASSIGN_OR_RETURN(FixedVocabulary vocabulary,
                            ReadFixedVocabulary(options.vocabulary_path));
    corpus.vocabulary = std::move(vocabulary.words);
    const absl::flat_hash_map<std::string, int32_t>& fixed = vocabulary.ids;
    new_id.assign(words.size(), -1);
    reason.assign(words.size(), 3);
    for (size_t w = 0; w < words.size(); ++w) {
      const auto it = fixed.find(words[w]);
      if (it != fixed.end()) new_id[w] = it->second, reason[w] = 0;
    }
  }
  const std::vector<int32_t>& tokens = collector.tokens();
  const std::vector<int64_t>& offsets = collector.offsets();
  corpus.doc_offsets.assign(1, 0);
  std::vector<int32_t> document;
  for (size_t d = 0; d + 1 < offsets.size(); ++d) {
    document.clear();
    for (int64_t i = offsets[d]; i < offsets[d + 1]; ++i) {
      const int32_t w = tokens[i];
      switch (reason[w]) {
        case 0: document.push_back(new_id[w]); break;
        case 1: ++summary.dropped_rare; break;
        case 2: ++summary.dropped_by_cap; break;
        default: ++summary.dropped_out_of_vocabulary; break;
      }
    }
    if (static_cast<int64_t>(document.size()) < options.min_document_tokens) {
      ++summary.documents_dropped;
      summary.dropped_in_dropped_documents += static_cast<int64_t>(document.size());
      continue;
    }
    corpus.AddDocument(document);
  }
  summary.documents_kept = corpus.num_documents();
  summary.tokens_kept = corpus.num_tokens();
  summary.vocabulary_size = corpus.vocabulary_size();
  return corpus;
}

}  // namespace

absl::StatusOr<FixedVocabulary> ReadFixedVocabulary(const std::string& path) {
  FixedVocabulary vocabulary;
  SGMCMC_ASSIGN_OR_RETURN(vocabulary.words, ReadUciVocabulary(path));
  vocabulary.ids.reserve(vocabulary.words.size());
  for (size_t w = 0; w < vocabulary.words.size(); ++w) {
    if (!vocabulary.ids.try_emplace(vocabulary.words[w], static_cast<int32_t>(w)).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", w + 1, ": word '", vocabulary.words[w], "' appears twice"));
    }
  }
  return vocabulary;
}

absl::Status TextCorpusOptions::Validate() const {
  SGMCMC_RETURN_IF_ERROR(tokenizer.Validate());
  if (min_document_frequency < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TextCorpusOptions.min_document_frequency must be >= 1, got ", min_document_frequency));
  }
  if (max_vocabulary_size < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TextCorpusOptions.max_vocabulary_size must be >= 0, got ", max_vocabulary_size));
  }
  if (!vocabulary_path.empty() && (min_document_frequency != 1 || max_vocabulary_size != 0)) {
    return absl::InvalidArgumentError(
        "TextCorpusOptions: vocabulary_path fixes the vocabulary; min_document_frequency must "
        "be 1 and max_vocabulary_size 0 with it");
  }
  if (min_document_tokens < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TextCorpusOptions.min_document_tokens must be >= 0, got ", min_document_tokens));
  }
  return absl::OkStatus();
}

namespace {

// Validates the options, tokenizes the documents that `feed` passes to the collector, and
// builds the corpus; fills *summary (or a local one).
absl::StatusOr<Corpus> ReadDocuments(
    const TextCorpusOptions& options, TextReadSummary* summary,
    absl::FunctionRef<absl::Status(DocumentCollector&)> feed) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_ASSIGN_OR_RETURN(const Tokenizer tokenizer, Tokenizer::Create(options.tokenizer));
  TextReadSummary local;
  TextReadSummary& s = summary != nullptr ? *summary : local;
  s = TextReadSummary();
  DocumentCollector collector(tokenizer, s);
  SGMCMC_RETURN_IF_ERROR(feed(collector));
  return Finish(options, collector, s);
}

}  // namespace

absl::StatusOr<Corpus> ReadTextLines(const std::string& path, const TextCorpusOptions& options,
                                     TextReadSummary* summary) {
  return ReadDocuments(options, summary, [&](DocumentCollector& collector) -> absl::Status {
    SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(path));
    absl::string_view line;
    while (reader.Next(&line)) {
      collector.AddText(line);
      collector.EndDocument();
    }
    return reader.status();
  });
}

absl::StatusOr<Corpus> ReadTextFiles(const std::vector<std::string>& paths,
                                     const TextCorpusOptions& options,
                                     TextReadSummary* summary) {
  return ReadDocuments(options, summary, [&](DocumentCollector& collector) -> absl::Status {
    for (const std::string& path : paths) {
      SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(path));
      absl::string_view line;
      // Lines are tokenized separately: a newline always separates tokens.
      while (reader.Next(&line)) collector.AddText(line);
      SGMCMC_RETURN_IF_ERROR(reader.status());
      collector.EndDocument();
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> ListFilesRecursively(const std::string& directory) {
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) {
    return absl::NotFoundError(absl::StrCat(directory, ": not a directory"));
  }
  std::vector<std::string> paths;
  for (auto it = std::filesystem::recursive_directory_iterator(directory, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file(error)) paths.push_back(it->path().string());
  }
  if (error) {
    return absl::DataLossError(absl::StrCat(directory, ": cannot list: ", error.message()));
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

absl::StatusOr<Corpus> ReadTextCorpus(const std::string& path, const TextCorpusOptions& options,
                                      TextReadSummary* summary) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    SGMCMC_ASSIGN_OR_RETURN(const std::vector<std::string> paths, ListFilesRecursively(path));
    return ReadTextFiles(paths, options, summary);
  }
  return ReadTextLines(path, options, summary);
}

std::string TextReadSummary::BriefReport() const {
  return absl::StrFormat(
      "documents: %d read, %d kept, %d dropped (fewer tokens than the minimum)\n"
      "tokens: %d candidates, %d kept; dropped: %d stop words, %d too short, %d too long, "
      "%d non-ASCII, %d rare, %d beyond the vocabulary cap, %d out of vocabulary, %d in "
      "dropped documents; vocabulary %d of %d distinct words",
      documents_read, documents_kept, documents_dropped, tokenizer.candidates(), tokens_kept,
      tokenizer.stop_words, tokenizer.too_short, tokenizer.too_long, tokenizer.non_ascii,
      dropped_rare, dropped_by_cap, dropped_out_of_vocabulary, dropped_in_dropped_documents,
      vocabulary_size, distinct_words);
}

}  // namespace sgmcmc::data
