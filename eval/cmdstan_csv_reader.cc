#include "eval/cmdstan_csv_reader.h"

#include <set>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/read_file.h"
#include "base/status_macros.h"

namespace sgmcmc::eval {
namespace {

absl::Status LineError(absl::string_view source, int line, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(source, ":", line, ": ", message));
}

}  // namespace

int CmdStanCsv::ColumnIndex(absl::string_view name) const {
  for (int i = 0; i < static_cast<int>(columns.size()); ++i) {
    if (columns[i] == name) return i;
  }
  return -1;
}

std::string CmdStanCsv::ConfigValue(absl::string_view key) const {
  for (const auto& [k, v] : config) {
    if (k == key) return v;
  }
  return "";
}

absl::StatusOr<CmdStanCsv> ParseCmdStanCsv(absl::string_view text, absl::string_view source) {
  CmdStanCsv csv;
  int line_number = 0;
  bool header_seen = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const absl::string_view trimmed = absl::StripAsciiWhitespace(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      if (header_seen) continue;
      const absl::string_view comment = trimmed.substr(1);
      const size_t equals = comment.find('=');
      if (equals == absl::string_view::npos) continue;
      const absl::string_view key = absl::StripAsciiWhitespace(comment.substr(0, equals));
      if (key.empty() || key.find(' ') != absl::string_view::npos) continue;
      csv.config.emplace_back(std::string(key),
                              std::string(absl::StripAsciiWhitespace(comment.substr(equals + 1))));
      continue;
    }
    std::vector<absl::string_view> fields = absl::StrSplit(trimmed, ',');
    if (!header_seen) {
      std::set<std::string> seen;
      for (size_t i = 0; i < fields.size(); ++i) {
        const absl::string_view name = absl::StripAsciiWhitespace(fields[i]);
        if (name.empty()) {
          return LineError(source, line_number, absl::StrCat("column ", i + 1, " has no name"));
        }
        if (!seen.insert(std::string(name)).second) {
          return LineError(source, line_number,
                           absl::StrCat("column name \"", name, "\" is repeated"));
        }
        csv.columns.emplace_back(name);
      }
      header_seen = true;
      continue;
    }
    if (fields.size() != csv.columns.size()) {
      return LineError(source, line_number,
                       absl::StrCat("expected ", csv.columns.size(), " values, got ",
                                    fields.size()));
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      double value;
      if (!absl::SimpleAtod(absl::StripAsciiWhitespace(fields[i]), &value)) {
        return LineError(source, line_number,
                         absl::StrCat("column ", i + 1, " (", csv.columns[i], "): \"", fields[i],
                                      "\" is not a number"));
      }
      csv.values.push_back(value);
    }
  }
  if (!header_seen) return absl::InvalidArgumentError(absl::StrCat(source, ": no header row"));
  return csv;
}

absl::StatusOr<CmdStanCsv> ReadCmdStanCsv(const std::string& path) {
  SGMCMC_ASSIGN_OR_RETURN(const std::string text, base::ReadFileBytes(path));
  return ParseCmdStanCsv(text, path);
}

}  // namespace sgmcmc::eval
