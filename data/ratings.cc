#include "data/ratings.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/line_reader.h"
#include "data/shuffle.h"

namespace sgmcmc::data {
namespace {

// Parses a 1-based id into a 0-based int32; false if not an integer in [1, 2^31 - 1].
bool ParseId(absl::string_view field, int32_t* id) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(field, &value)) return false;
  if (value < 1 || value > std::numeric_limits<int32_t>::max()) return false;
  *id = static_cast<int32_t>(value - 1);
  return true;
}

}  // namespace

absl::Status RatingMatrix::Validate() const {
  if (num_rows < 0 || num_cols < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("RatingMatrix size must be >= 0, got ", num_rows, " x ", num_cols));
  }
  for (size_t i = 0; i < ratings.size(); ++i) {
    const Rating& r = ratings[i];
    if (r.row < 0 || r.row >= num_rows || r.col < 0 || r.col >= num_cols ||
        !std::isfinite(r.value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "RatingMatrix.ratings[", i, "] = (", r.row, ", ", r.col, ", ", r.value,
          ") is outside the ", num_rows, " x ", num_cols, " matrix or not finite"));
    }
  }
  return absl::OkStatus();
}

namespace {

// The rating on a non-blank `line` of `reader` (fields split by "::" or TAB), or the
// reader's "path:line: ..." error.
absl::StatusOr<Rating> ParseRating(absl::string_view line, bool double_colon,
                                   const LineReader& reader) {
  std::vector<absl::string_view> fields;
  if (double_colon) {
    fields = absl::StrSplit(line, "::");
  } else {
    fields = absl::StrSplit(line, '\t');
  }
  if (fields.size() < 3) {
    return reader.Error(absl::StrCat("expected user", double_colon ? "::" : "<TAB>", "item",
                                     double_colon ? "::" : "<TAB>", "rating, got ",
                                     fields.size(), " field(s)"));
  }
  Rating rating;
  if (!ParseId(absl::StripAsciiWhitespace(fields[0]), &rating.row)) {
    return reader.Error(
        absl::StrCat("user id must be an integer in [1, 2147483647], got \"", fields[0], "\""));
  }
  if (!ParseId(absl::StripAsciiWhitespace(fields[1]), &rating.col)) {
    return reader.Error(
        absl::StrCat("item id must be an integer in [1, 2147483647], got \"", fields[1], "\""));
  }
  double value = 0;
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(fields[2]), &value) ||
      !std::isfinite(value)) {
    return reader.Error(absl::StrCat("rating must be a finite number, got \"", fields[2], "\""));
  }
  // Stored as float: a finite double beyond its range would become inf.
  if (!(std::abs(value) <= std::numeric_limits<float>::max())) {
    return reader.Error(absl::StrCat("rating must be a finite number, got \"", fields[2],
                                     "\" (beyond single precision)"));
  }
  rating.value = static_cast<float>(value);
  return rating;
}

// Calls `visit(rating)` for every rating of `reader` (from its current line) until it returns
// a non-OK status or the file ends; the first line decides the separator.
template <typename Visit>
absl::Status ForEachRating(LineReader& reader, Visit visit) {
  absl::string_view line;
  bool first = true;
  bool double_colon = false;
  while (reader.Next(&line)) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    if (first) {
      double_colon = absl::StrContains(line, "::");
      first = false;
    }
    absl::StatusOr<Rating> rating = ParseRating(line, double_colon, reader);
    if (!rating.ok()) return rating.status();
    if (absl::Status s = visit(*rating); !s.ok()) return s;
  }
  return reader.status();
}

uint64_t PairKey(const Rating& r) {
  return (static_cast<uint64_t>(r.row) << 32) | static_cast<uint32_t>(r.col);
}

// Second pass, once the sorted keys showed a (user, item) pair twice: the line that repeats a
// pair and the line that gave it first.
absl::Status DuplicateError(LineReader& reader) {
  if (absl::Status s = reader.Rewind(); !s.ok()) return s;
  absl::flat_hash_map<uint64_t, int64_t> first_line;
  absl::Status found = ForEachRating(reader, [&](const Rating& r) {
    const auto [it, inserted] = first_line.emplace(PairKey(r), reader.line_number());
    if (inserted) return absl::OkStatus();
    return reader.Error(absl::StrCat("user ", r.row + 1, " rated item ", r.col + 1,
                                     " again (first on line ", it->second, ")"));
  });
  if (!found.ok()) return found;
  return absl::InternalError(absl::StrCat(reader.path(), ": duplicate rating not found again"));
}

}  // namespace

absl::StatusOr<RatingMatrix> ReadRatings(const std::string& path) {
  absl::StatusOr<LineReader> reader = LineReader::Open(path);
  if (!reader.ok()) return reader.status();
  RatingMatrix matrix;
  // The lines of the largest user and item ids, for the density check below.
  int64_t row_line = 0, col_line = 0;
  absl::Status read = ForEachRating(*reader, [&](const Rating& rating) {
    if (rating.row + 1 > matrix.num_rows) {
      matrix.num_rows = rating.row + 1;
      row_line = reader->line_number();
    }
    if (rating.col + 1 > matrix.num_cols) {
      matrix.num_cols = rating.col + 1;
      col_line = reader->line_number();
    }
    matrix.ratings.push_back(rating);
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  if (matrix.ratings.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no ratings"));
  }
  const int64_t max_id = std::max<int64_t>(
      kRatingIdFloor, kRatingIdsPerRating * static_cast<int64_t>(matrix.ratings.size()));
  for (const auto& [what, id, line] : {std::tuple{"user", matrix.num_rows, row_line},
                                      std::tuple{"item", matrix.num_cols, col_line}}) {
    if (id > max_id) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", line, ": ", what, " id ", id, " is far above the ", matrix.ratings.size(),
          " ratings (ids index the rows of dense factors; at most max(2^20, ",
          kRatingIdsPerRating, " x ratings) = ", max_id, "): renumber the ids"));
    }
  }
  std::vector<uint64_t> keys(matrix.ratings.size());
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = PairKey(matrix.ratings[i]);
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return DuplicateError(*reader);
  return matrix;
}

absl::StatusOr<RatingSplit> SplitRatings(const RatingMatrix& matrix, double test_fraction,
                                         rng::Engine& engine) {
  if (!(test_fraction > 0 && test_fraction < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("test_fraction must be in (0, 1), got ", test_fraction));
  }
  const size_t n = matrix.ratings.size();
  const size_t num_test =
      static_cast<size_t>(std::llround(test_fraction * static_cast<double>(n)));
  if (num_test == 0 || num_test >= n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "test_fraction ", test_fraction, " of ", n, " ratings leaves an empty part"));
  }
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  PartialShuffle(engine, absl::MakeSpan(order), num_test);
  std::vector<char> is_test(n, 0);
  for (size_t i = 0; i < num_test; ++i) is_test[order[i]] = 1;
  RatingSplit split;
  split.train.num_rows = split.test.num_rows = matrix.num_rows;
  split.train.num_cols = split.test.num_cols = matrix.num_cols;
  split.test.ratings.reserve(num_test);
  split.train.ratings.reserve(n - num_test);
  for (size_t i = 0; i < n; ++i) {
    (is_test[i] ? split.test : split.train).ratings.push_back(matrix.ratings[i]);
  }
  return split;
}

}  // namespace sgmcmc::data
