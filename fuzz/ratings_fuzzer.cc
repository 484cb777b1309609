// Fuzz target: ratings files (data/ratings.h: MovieLens "u.data" tab-separated, "ratings.dat"
// with "::", Jester), plain or gzip (first byte). Contract: an error naming the file, or a
// non-empty matrix that passes RatingMatrix::Validate, whose size is the largest ids seen,
// within the documented bound on ids, with no (user, item) pair twice.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/check.h"
#include "data/ratings.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* plain = new fuzz::ScratchFile("ratings.dat");
  static fuzz::ScratchFile* gzip = new fuzz::ScratchFile("ratings.dat.gz");
  const absl::string_view text = fuzz::AsText(data + 1, size - 1);
  const std::string& path = fuzz::WritePlainOrGzip(data[0], text, *plain, *gzip);
  const absl::StatusOr<data::RatingMatrix> matrix = data::ReadRatings(path);
  if (!matrix.ok()) {
    fuzz::CheckInputError(matrix.status(), path);
    return 0;
  }
  SGMCMC_CHECK(matrix->Validate().ok()) << matrix->Validate();
  SGMCMC_CHECK(!matrix->ratings.empty());
  const int64_t n = static_cast<int64_t>(matrix->ratings.size());
  const int64_t bound = std::max(data::kRatingIdFloor, data::kRatingIdsPerRating * n);
  SGMCMC_CHECK_LE(matrix->num_rows, bound);
  SGMCMC_CHECK_LE(matrix->num_cols, bound);
  int32_t max_row = -1, max_col = -1;
  std::vector<std::pair<int32_t, int32_t>> pairs;
  for (const data::Rating& r : matrix->ratings) {
    max_row = std::max(max_row, r.row);
    max_col = std::max(max_col, r.col);
    pairs.emplace_back(r.row, r.col);
  }
  SGMCMC_CHECK_EQ(matrix->num_rows, max_row + 1);
  SGMCMC_CHECK_EQ(matrix->num_cols, max_col + 1);
  std::sort(pairs.begin(), pairs.end());
  SGMCMC_CHECK(std::adjacent_find(pairs.begin(), pairs.end()) == pairs.end())
      << "a (user, item) pair rated twice was accepted";
  return 0;
}
