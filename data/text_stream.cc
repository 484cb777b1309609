#include "data/text_stream.h"

#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace sgmcmc::data {

absl::StatusOr<std::unique_ptr<TextDocumentReader>> TextDocumentReader::Open(
    const std::string& path, const TextCorpusOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  if (options.vocabulary_path.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": a streamed text corpus needs a fixed vocabulary (TextCorpusOptions."
              "vocabulary_path: one word per line)"));
  }
  if (path == kStandardInput) {
    return absl::InvalidArgumentError(
        "standard input cannot be a text stream (its documents cannot be counted before "
        "training); convert it to a UCI docword file (tools/text_to_uci) or give a file");
  }
  SGMCMC_ASSIGN_OR_RETURN(Tokenizer tokenizer, Tokenizer::Create(options.tokenizer));
  SGMCMC_ASSIGN_OR_RETURN(FixedVocabulary vocabulary,
                          ReadFixedVocabulary(options.vocabulary_path));
  if (vocabulary.words.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.vocabulary_path, ": a vocabulary needs at least 2 words, got ",
        vocabulary.words.size()));
  }
  std::vector<std::string> files;
  std::optional<LineReader> lines;
  int64_t num_documents = 0;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    SGMCMC_ASSIGN_OR_RETURN(files, ListFilesRecursively(path));
    num_documents = static_cast<int64_t>(files.size());
  } else {
    SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(path));
    absl::string_view line;
    while (reader.Next(&line)) ++num_documents;
    SGMCMC_RETURN_IF_ERROR(reader.status());
    SGMCMC_RETURN_IF_ERROR(reader.Rewind());
    lines.emplace(std::move(reader));
  }
  if (num_documents == 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no documents to stream"));
  }
  if (num_documents > std::numeric_limits<int>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", num_documents,
                                                   " documents, more than 2^31 - 1"));
  }
  return std::unique_ptr<TextDocumentReader>(new TextDocumentReader(
      path, std::move(tokenizer), std::move(vocabulary), std::move(files), std::move(lines),
      static_cast<int>(num_documents)));
}

TextDocumentReader::TextDocumentReader(std::string path, Tokenizer tokenizer,
                                       FixedVocabulary vocabulary,
                                       std::vector<std::string> files,
                                       std::optional<LineReader> lines, int num_documents)
    : path_(std::move(path)),
      tokenizer_(std::move(tokenizer)),
      vocabulary_(std::move(vocabulary)),
      files_(std::move(files)),
      lines_(std::move(lines)),
      num_documents_(num_documents) {}

void TextDocumentReader::AddText(absl::string_view text, std::vector<int32_t>* tokens) {
  tokenizer_.ForEachToken(text, &token_counts_, [&](absl::string_view token) {
    const auto it = vocabulary_.ids.find(token);
    if (it == vocabulary_.ids.end()) {
      ++tokens_out_of_vocabulary_;
    } else {
      tokens->push_back(it->second);
      ++tokens_kept_;
    }
  });
}

absl::StatusOr<bool> TextDocumentReader::Next(int* document, std::vector<int32_t>* tokens) {
  tokens->clear();
  if (next_document_ >= num_documents_) return false;
  absl::string_view line;
  if (lines_.has_value()) {
    if (!lines_->Next(&line)) {
      SGMCMC_RETURN_IF_ERROR(lines_->status());
      // The file shrank since Open counted its lines.
      return absl::DataLossError(absl::StrCat(path_, ": ended after ", next_document_,
                                              " lines; it had ", num_documents_,
                                              " when opened (changed while streaming?)"));
    }
    AddText(line, tokens);
  } else {
    SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(files_[next_document_]));
    while (reader.Next(&line)) AddText(line, tokens);
    SGMCMC_RETURN_IF_ERROR(reader.status());
  }
  *document = next_document_++;
  return true;
}

absl::Status TextDocumentReader::Rewind() {
  if (lines_.has_value()) SGMCMC_RETURN_IF_ERROR(lines_->Rewind());
  next_document_ = 0;
  return absl::OkStatus();
}

}  // namespace sgmcmc::data
