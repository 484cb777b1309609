#include "data/tfidf_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "data/line_reader.h"

namespace sgmcmc::data {

absl::StatusOr<TfidfCorpus> ReadTfidfCorpus(const std::string& path) {
  absl::StatusOr<LineReader> opened = LineReader::Open(path);
  if (!opened.ok()) return opened.status();
  LineReader& reader = *opened;
  absl::string_view line;
  if (!reader.Next(&line)) {
    if (!reader.status().ok()) return reader.status();
    return absl::InvalidArgumentError(absl::StrCat(path, ": empty file"));
  }
  std::vector<absl::string_view> header =
      absl::StrSplit(line, ' ', absl::SkipWhitespace());
  int64_t v = 0, d = 0;
  if (header.size() != 2 || !absl::SimpleAtoi(header[0], &v) ||
      !absl::SimpleAtoi(header[1], &d) || v < 1 || d < 0 || v > kMaxTfidfWords ||
      d > kMaxTfidfDocuments) {
    return reader.Error(absl::StrCat("expected the header \"V D\" with 1 <= V <= ",
                                     kMaxTfidfWords, ", 0 <= D <= ", kMaxTfidfDocuments));
  }
  std::vector<Eigen::Triplet<double>> triplets;
  TfidfCorpus corpus;
  // The documents are counted as they are read: nothing is sized by the header's D.
  std::vector<std::pair<int64_t, double>> entries;
  for (int64_t doc = 0; doc < d; ++doc) {
    if (!reader.Next(&line)) {
      if (!reader.status().ok()) return reader.status();
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": expected ", d, " documents, found ", doc));
    }
    std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    int64_t n = 0;
    int label = 0;
    if (fields.size() < 2 || !absl::SimpleAtoi(fields[0], &n) ||
        !absl::SimpleAtoi(fields[1], &label) || n != static_cast<int64_t>(fields.size()) - 2) {
      return reader.Error("expected \"n y\" followed by n word:value pairs");
    }
    if (n == 0) return reader.Error("empty document (no direction on the sphere)");
    entries.clear();
    double norm2 = 0;
    for (size_t i = 2; i < fields.size(); ++i) {
      std::pair<absl::string_view, absl::string_view> pair =
          absl::StrSplit(fields[i], absl::MaxSplits(':', 1));
      int64_t id = 0;
      double value = 0;
      if (!absl::SimpleAtoi(pair.first, &id) || !absl::SimpleAtod(pair.second, &value) ||
          id < 0 || id >= v || !std::isfinite(value)) {
        return reader.Error(absl::StrCat("bad pair \"", fields[i],
                                         "\" (want id:value, id in [0, ", v,
                                         "), value finite)"));
      }
      entries.emplace_back(id, value);
      norm2 += value * value;
    }
    std::sort(entries.begin(), entries.end());
    for (size_t i = 1; i < entries.size(); ++i) {
      if (entries[i].first == entries[i - 1].first) {
        return reader.Error(absl::StrCat("word id ", entries[i].first, " repeated"));
      }
    }
    if (!(std::abs(std::sqrt(norm2) - 1) <= 1e-6)) {
      return reader.Error(absl::StrCat("document norm ", std::sqrt(norm2), ", expected 1"));
    }
    for (const auto& [id, value] : entries) triplets.emplace_back(id, doc, value);
    corpus.labels.push_back(label);
  }
  // An optional last line with one integer (the number of labels), then nothing.
  while (reader.Next(&line)) {
    std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    int64_t k = 0;
    if (fields.empty()) continue;
    if (fields.size() != 1 || !absl::SimpleAtoi(fields[0], &k)) {
      return reader.Error(absl::StrCat("unexpected content after the ", d, " documents"));
    }
  }
  if (!reader.status().ok()) return reader.status();
  corpus.documents.resize(v, d);
  corpus.documents.setFromTriplets(triplets.begin(), triplets.end());
  return corpus;
}

}  // namespace sgmcmc::data
