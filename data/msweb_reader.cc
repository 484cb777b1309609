#include "data/msweb_reader.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "data/line_reader.h"

namespace sgmcmc::data {
namespace {

// Splits a DST line at commas outside double quotes; quotes are removed. False on an
// unterminated quote.
bool SplitFields(absl::string_view line, std::vector<std::string>* fields) {
  fields->clear();
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields->push_back(std::move(field));
      field.clear();
    } else {
      field.push_back(c);
    }
  }
  fields->push_back(std::move(field));
  return !quoted;
}

absl::Status ExpectFields(const LineReader& reader, const std::vector<std::string>& fields,
                          size_t expected, absl::string_view record) {
  if (fields.size() == expected) return absl::OkStatus();
  return reader.Error(absl::StrCat("a ", record, " line has ", expected, " fields, found ",
                                   fields.size()));
}

absl::Status ParseInt(const LineReader& reader, const std::string& text, absl::string_view what,
                      int64_t* value) {
  if (absl::SimpleAtoi(text, value)) return absl::OkStatus();
  return reader.Error(absl::StrCat("expected an integer ", what, ", found \"", text, "\""));
}

}  // namespace

absl::StatusOr<MswebData> ReadMsweb(const std::string& path, const MswebVroots* vroots) {
  absl::StatusOr<LineReader> opened = LineReader::Open(path);
  if (!opened.ok()) return opened.status();
  LineReader& reader = *opened;

  struct Attribute {
    int id;
    std::string title, url;
  };
  std::vector<Attribute> attributes;
  absl::flat_hash_map<int64_t, int> declared;  // Vroot id -> line
  struct Visit {
    int id;
    int64_t line;
  };
  std::vector<std::vector<Visit>> visits;       // per case
  std::vector<int64_t> case_ids;
  std::vector<std::string> fields;
  absl::string_view line;
  while (reader.Next(&line)) {
    if (line.empty()) continue;
    if (!SplitFields(line, &fields)) return reader.Error("unterminated double quote");
    const std::string& type = fields[0];
    if (type == "I" || type == "T" || type == "N") continue;
    if (type == "A") {
      if (auto s = ExpectFields(reader, fields, 5, "A (Vroot)"); !s.ok()) return s;
      int64_t id, one;
      if (auto s = ParseInt(reader, fields[1], "Vroot id", &id); !s.ok()) return s;
      if (auto s = ParseInt(reader, fields[2], "A field 3", &one); !s.ok()) return s;
      if (id < 0 || id > (int64_t{1} << 30)) {
        return reader.Error(absl::StrCat("Vroot id ", id, " out of range [0, 2^30]"));
      }
      if (auto [it, inserted] = declared.emplace(id, reader.line_number()); !inserted) {
        return reader.Error(absl::StrCat("Vroot ", id, " already declared on line ", it->second));
      }
      attributes.push_back({static_cast<int>(id), fields[3], fields[4]});
    } else if (type == "C") {
      if (auto s = ExpectFields(reader, fields, 3, "C (case)"); !s.ok()) return s;
      int64_t id, id_again;
      if (auto s = ParseInt(reader, fields[1], "case id", &id); !s.ok()) return s;
      if (auto s = ParseInt(reader, fields[2], "case id", &id_again); !s.ok()) return s;
      if (id != id_again) {
        return reader.Error(absl::StrCat("the two case ids differ: ", id, " and ", id_again));
      }
      case_ids.push_back(id);
      visits.emplace_back();
    } else if (type == "V") {
      if (auto s = ExpectFields(reader, fields, 3, "V (vote)"); !s.ok()) return s;
      if (visits.empty()) return reader.Error("a V line before the first C (case) line");
      int64_t id, vote;
      if (auto s = ParseInt(reader, fields[1], "Vroot id", &id); !s.ok()) return s;
      if (auto s = ParseInt(reader, fields[2], "vote", &vote); !s.ok()) return s;
      if (vote != 1) return reader.Error(absl::StrCat("expected vote 1, found ", vote));
      std::vector<Visit>& user = visits.back();
      for (const Visit& earlier : user) {
        if (earlier.id == id) {
          return reader.Error(absl::StrCat("Vroot ", id, " repeated in case ", case_ids.back(),
                                           " (first on line ", earlier.line, ")"));
        }
      }
      if (id < 0 || id > (int64_t{1} << 30)) {
        return reader.Error(absl::StrCat("Vroot id ", id, " out of range [0, 2^30]"));
      }
      user.push_back({static_cast<int>(id), reader.line_number()});
    } else {
      return reader.Error(absl::StrCat("unknown record type \"", type,
                                       "\" (expected I, T, N, A, C or V)"));
    }
  }
  if (!reader.status().ok()) return reader.status();

  MswebData data;
  if (vroots != nullptr) {
    data.vroots = *vroots;
  } else {
    std::sort(attributes.begin(), attributes.end(),
              [](const Attribute& a, const Attribute& b) { return a.id < b.id; });
    for (Attribute& a : attributes) {
      data.vroots.ids.push_back(a.id);
      data.vroots.titles.push_back(std::move(a.title));
      data.vroots.urls.push_back(std::move(a.url));
    }
  }
  absl::flat_hash_map<int, int32_t> word_of;
  for (size_t k = 0; k < data.vroots.ids.size(); ++k) {
    word_of[data.vroots.ids[k]] = static_cast<int32_t>(k);
    data.corpus.vocabulary.push_back(absl::StrCat(data.vroots.ids[k]));
  }
  std::vector<int32_t> words;
  data.corpus.doc_offsets = {0};
  for (size_t d = 0; d < visits.size(); ++d) {
    words.clear();
    for (const Visit& visit : visits[d]) {
      auto it = word_of.find(visit.id);
      if (it == word_of.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ":", visit.line, ": case ", case_ids[d], " visits Vroot ", visit.id,
            vroots == nullptr ? ", which no A line declares"
                              : ", which is not among the given Vroots"));
      }
      words.push_back(it->second);
    }
    data.corpus.AddDocument(words);
  }
  data.case_ids = std::move(case_ids);
  return data;
}

}  // namespace sgmcmc::data
