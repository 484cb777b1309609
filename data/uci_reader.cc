#include "data/uci_reader.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"

namespace sgmcmc::data {
namespace {

// Largest count accepted for one entry: guards the int64 token total and memory.
constexpr int64_t kMaxEntryCount = int64_t{1} << 31;

// Most tokens and documents ReadUciCorpus reserves room for up front on the header's word;
// beyond these the vectors grow as tokens actually arrive.
constexpr int64_t kMaxReservedTokens = int64_t{1} << 26;
constexpr int64_t kMaxReservedDocuments = int64_t{1} << 20;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Parses whitespace-separated non-negative decimal integers from `line` into `values`.
// Returns the number of fields found, or -1 - i if field i is not a non-negative integer
// that fits in int64 (its text goes to *bad_field).
int ParseUnsignedFields(absl::string_view line, int64_t* values, int max_fields,
                        absl::string_view* bad_field) {
  const char* p = line.data();
  const char* const end = p + line.size();
  int n = 0;
  while (true) {
    while (p < end && IsSpace(*p)) ++p;
    if (p == end) return n;
    const char* start = p;
    while (p < end && !IsSpace(*p)) ++p;
    if (n == max_fields) return n + 1;  // too many fields; the caller reports the count
    int64_t value = 0;
    bool ok = true;
    for (const char* q = start; q < p; ++q) {
      const unsigned digit = static_cast<unsigned char>(*q) - '0';
      if (digit > 9 || value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        ok = false;
        break;
      }
      value = value * 10 + digit;
    }
    if (!ok) {
      *bad_field = absl::string_view(start, p - start);
      return -1 - n;
    }
    values[n++] = value;
  }
}

// `limit` names the UciLimits field that sets max_value.
absl::StatusOr<int64_t> ParseHeaderLine(LineReader& reader, absl::string_view what,
                                        int64_t min_value, int64_t max_value,
                                        absl::string_view limit) {
  absl::string_view line;
  if (!reader.Next(&line)) {
    SGMCMC_RETURN_IF_ERROR(reader.status());
    return absl::InvalidArgumentError(absl::StrCat(
        reader.path(), ":", reader.line_number() + 1, ": file ends before the header line ",
        what));
  }
  int64_t value = 0;
  absl::string_view bad;
  const int fields = ParseUnsignedFields(line, &value, 1, &bad);
  if (fields != 1) {
    return reader.Error(absl::StrCat("expected the header line ", what,
                                     " (one non-negative integer), got '", line, "'"));
  }
  if (value < min_value || value > max_value) {
    return reader.Error(absl::StrCat("header ", what, " must be in [", min_value, ", ",
                                     max_value, "] (", limit, "), got ", value));
  }
  return value;
}

}  // namespace

bool IsBlankLine(absl::string_view line) {
  for (char c : line) {
    if (!IsSpace(c)) return false;
  }
  return true;
}

absl::Status UciLimits::Validate() const {
  if (max_tokens < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciLimits.max_tokens must be >= 1, got ", max_tokens));
  }
  if (max_documents < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciLimits.max_documents must be >= 0, got ", max_documents));
  }
  if (max_vocabulary_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("UciLimits.max_vocabulary_size must be >= 1, got ", max_vocabulary_size));
  }
  return absl::OkStatus();
}

absl::StatusOr<UciHeader> ReadUciHeader(LineReader& reader, const UciLimits& limits) {
  UciHeader header;
  SGMCMC_ASSIGN_OR_RETURN(
      header.num_documents,
      ParseHeaderLine(reader, "D (number of documents)", 0, limits.max_documents,
                      "UciLimits.max_documents"));
  SGMCMC_ASSIGN_OR_RETURN(
      header.vocabulary_size,
      ParseHeaderLine(reader, "W (vocabulary size)", 1, limits.max_vocabulary_size,
                      "UciLimits.max_vocabulary_size"));
  SGMCMC_ASSIGN_OR_RETURN(header.num_entries,
                          ParseHeaderLine(reader, "NNZ (number of entries)", 0,
                                          limits.max_tokens, "UciLimits.max_tokens"));
  return header;
}

absl::Status ParseUciEntry(const LineReader& reader, absl::string_view line,
                           const UciHeader& header, UciEntry* entry) {
  int64_t values[3];
  absl::string_view bad;
  const int fields = ParseUnsignedFields(line, values, 3, &bad);
  if (fields < 0) {
    static constexpr const char* kNames[] = {"docID", "wordID", "count"};
    return reader.Error(absl::StrCat("field ", -fields, " (", kNames[-1 - fields],
                                     ") is not a non-negative integer: '", bad,
                                     "'; expected \"docID wordID count\""));
  }
  if (fields != 3) {
    return reader.Error(absl::StrCat("expected 3 fields \"docID wordID count\", got ",
                                     fields > 3 ? "more than 3" : absl::StrCat(fields),
                                     ": '", line, "'"));
  }
  if (values[0] < 1 || values[0] > header.num_documents) {
    return reader.Error(absl::StrCat("docID ", values[0], " is outside [1, D = ",
                                     header.num_documents, "]"));
  }
  if (values[1] < 1 || values[1] > header.vocabulary_size) {
    return reader.Error(absl::StrCat("wordID ", values[1], " is outside [1, W = ",
                                     header.vocabulary_size, "]"));
  }
  if (values[2] > kMaxEntryCount) {
    return reader.Error(absl::StrCat("count ", values[2], " exceeds the limit ",
                                     kMaxEntryCount));
  }
  entry->document = static_cast<int>(values[0] - 1);
  entry->word = static_cast<int>(values[1] - 1);
  entry->count = values[2];
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ReadUciVocabulary(const std::string& path,
                                                           int expected_size,
                                                           int64_t* num_blank_lines) {
  SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(path));
  std::vector<std::string> words;
  int64_t pending_blank = 0;  // blank lines since the last word
  int64_t first_blank_line = 0;
  absl::string_view line;
  while (reader.Next(&line)) {
    const absl::string_view word = absl::StripAsciiWhitespace(line);
    if (word.empty()) {
      if (pending_blank++ == 0) first_blank_line = reader.line_number();
      continue;
    }
    if (pending_blank > 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", first_blank_line, ": blank line inside the vocabulary (word ",
          words.size() + 1, " is missing; every later word id would shift)"));
    }
    words.emplace_back(word);
  }
  SGMCMC_RETURN_IF_ERROR(reader.status());
  if (expected_size >= 0 && static_cast<int64_t>(words.size()) != expected_size) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": has ", words.size(),
                                                   " words, the docword header says W = ",
                                                   expected_size));
  }
  if (num_blank_lines != nullptr) *num_blank_lines += pending_blank;
  return words;
}

absl::StatusOr<UciDocumentReader> UciDocumentReader::Open(const std::string& docword_path,
                                                         const UciLimits& limits) {
  SGMCMC_RETURN_IF_ERROR(limits.Validate());
  SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(docword_path));
  SGMCMC_ASSIGN_OR_RETURN(const UciHeader header, ReadUciHeader(reader, limits));
  return UciDocumentReader(std::move(reader), header, limits);
}

UciDocumentReader::UciDocumentReader(LineReader reader, const UciHeader& header,
                                     const UciLimits& limits)
    : reader_(std::move(reader)),
      header_(header),
      limits_(limits),
      last_document_of_word_(header.vocabulary_size, -1) {}

absl::StatusOr<bool> UciDocumentReader::ReadEntry() {
  absl::string_view line;
  while (reader_.Next(&line)) {
    if (IsBlankLine(line)) {
      ++num_blank_lines_;
      continue;
    }
    if (entries_read_ == header_.num_entries) {
      return reader_.Error(absl::StrCat("more entries than NNZ = ", header_.num_entries,
                                        " given in the header: '", line, "'"));
    }
    SGMCMC_RETURN_IF_ERROR(ParseUciEntry(reader_, line, header_, &pending_));
    ++entries_read_;
    if (pending_.document < last_document_seen_) {
      return reader_.Error(absl::StrCat("docID ", pending_.document + 1, " after docID ",
                                        last_document_seen_ + 1,
                                        ": entries must be sorted by docID"));
    }
    last_document_seen_ = pending_.document;
    if (pending_.count == 0) ++num_zero_count_entries_;
    return true;
  }
  SGMCMC_RETURN_IF_ERROR(reader_.status());
  at_end_ = true;
  if (entries_read_ < header_.num_entries) {
    return absl::InvalidArgumentError(absl::StrCat(
        reader_.path(), ":", reader_.line_number(), ": file ends after ", entries_read_,
        " entries but the header says NNZ = ", header_.num_entries, " (truncated?)"));
  }
  return false;
}

absl::StatusOr<bool> UciDocumentReader::Next(int* document, std::vector<int32_t>* tokens) {
  if (next_document_ == header_.num_documents) {
    // Every document is out: the rest of the file must be blank (ReadEntry reports any entry
    // as beyond NNZ or out of docID order, since all docIDs <= D have been consumed).
    if (!at_end_) {
      SGMCMC_ASSIGN_OR_RETURN(const bool more, ReadEntry());
      if (more) {
        return reader_.Error(absl::StrCat("entry for docID ", pending_.document + 1,
                                          " after the last document's entries"));
      }
    }
    return false;
  }
  *document = next_document_;
  tokens->clear();
  while (true) {
    if (!has_pending_) {
      if (at_end_) break;
      SGMCMC_ASSIGN_OR_RETURN(has_pending_, ReadEntry());
      if (!has_pending_) break;
    }
    if (pending_.document != next_document_) break;  // a later document's entry
    if (last_document_of_word_[pending_.word] == pending_.document) {
      return reader_.Error(absl::StrCat("wordID ", pending_.word + 1, " appears twice in docID ",
                                        pending_.document + 1));
    }
    last_document_of_word_[pending_.word] = pending_.document;
    // pending_ is the entry of the line last read, so the error points at it.
    if (pending_.count > limits_.max_tokens - tokens_read_) {
      return reader_.Error(absl::StrCat("count ", pending_.count,
                                        " brings the tokens of this pass to ",
                                        tokens_read_ + pending_.count,
                                        ", more than UciLimits.max_tokens = ", limits_.max_tokens));
    }
    tokens_read_ += pending_.count;
    tokens->insert(tokens->end(), static_cast<size_t>(pending_.count),
                   static_cast<int32_t>(pending_.word));
    has_pending_ = false;
  }
  ++next_document_;
  return true;
}

absl::Status UciDocumentReader::Rewind() {
  SGMCMC_RETURN_IF_ERROR(reader_.Rewind());
  SGMCMC_ASSIGN_OR_RETURN(const UciHeader header, ReadUciHeader(reader_, limits_));
  if (header.num_documents != header_.num_documents ||
      header.vocabulary_size != header_.vocabulary_size ||
      header.num_entries != header_.num_entries) {
    return absl::DataLossError(absl::StrCat(reader_.path(), ": the header changed between passes"));
  }
  std::fill(last_document_of_word_.begin(), last_document_of_word_.end(), -1);
  has_pending_ = false;
  at_end_ = false;
  next_document_ = 0;
  last_document_seen_ = 0;
  entries_read_ = 0;
  tokens_read_ = 0;
  return absl::OkStatus();
}

absl::StatusOr<Corpus> ReadUciCorpus(const std::string& docword_path,
                                     const std::string& vocab_path, UciReadSummary* summary,
                                     const UciLimits& limits) {
  const absl::Time start = absl::Now();
  UciReadSummary local;
  UciReadSummary& s = summary != nullptr ? *summary : local;
  s = UciReadSummary();
  s.docword_path = docword_path;
  s.vocab_path = vocab_path;

  SGMCMC_ASSIGN_OR_RETURN(UciDocumentReader reader,
                          UciDocumentReader::Open(docword_path, limits));
  const UciHeader& header = reader.header();
  s.num_documents = header.num_documents;
  s.vocabulary_size = header.vocabulary_size;
  s.num_entries = header.num_entries;

  Corpus corpus;
  SGMCMC_ASSIGN_OR_RETURN(
      corpus.vocabulary,
      ReadUciVocabulary(vocab_path, header.vocabulary_size, &s.num_blank_lines));
  corpus.doc_offsets.reserve(static_cast<size_t>(
      std::min<int64_t>(int64_t{header.num_documents} + 1, kMaxReservedDocuments)));
  corpus.doc_offsets.push_back(0);
  corpus.tokens.reserve(
      static_cast<size_t>(std::min<int64_t>(header.num_entries * 2, kMaxReservedTokens)));
  int document;
  std::vector<int32_t> tokens;
  while (true) {
    SGMCMC_ASSIGN_OR_RETURN(const bool more, reader.Next(&document, &tokens));
    if (!more) break;
    if (tokens.empty()) ++s.num_empty_documents;
    corpus.tokens.insert(corpus.tokens.end(), tokens.begin(), tokens.end());
    corpus.doc_offsets.push_back(corpus.num_tokens());
  }
  s.num_blank_lines += reader.num_blank_lines();
  s.num_zero_count_entries = reader.num_zero_count_entries();
  s.num_tokens = corpus.num_tokens();
  s.uncompressed_bytes = reader.bytes_consumed();
  s.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return corpus;
}

std::string UciReadSummary::BriefReport() const {
  return absl::StrFormat(
      "%s: %d documents (%d empty), %d words, %d entries (%d with count 0), %d tokens, "
      "%d blank lines skipped; %.1f MB read in %.3f s",
      docword_path, num_documents, num_empty_documents, vocabulary_size, num_entries,
      num_zero_count_entries, num_tokens, num_blank_lines, uncompressed_bytes / 1e6, seconds);
}

}  // namespace sgmcmc::data
