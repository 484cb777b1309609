// Ratings: a sparse matrix of (row, column, value) triples read from MovieLens and Jester
// files, and the seeded random train/test split of the matrix-factorisation experiments
// (HAMCMC paper, Simsekli et al. 2016, Sec. 4.3: 10% of the ratings held out at random).
//
// File formats (plain or gzip, detected by LineReader), one rating per line, ids 1-based:
//   MovieLens 100k `u.data`:   user<TAB>item<TAB>rating<TAB>timestamp
//   MovieLens 1M `ratings.dat`: user::item::rating::timestamp
//   Jester 5k (../shared/data/jester5k): user<TAB>joke<TAB>rating   (decimal ratings)
// The separator of a file is "::" if its first line contains "::", else TAB. Fields after the
// third are ignored; blank lines are skipped. Rows are users, columns items; ids are stored
// 0-based (id - 1), and the matrix's size is the largest id seen. A bad line fails the read
// with InvalidArgument "path:line: message".
//
// Cost: O(N log N) to read (the duplicate check sorts the N (user, item) pairs), O(N) to
// split.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(RatingMatrix all, ReadRatings(".../u.data.gz"));
//   rng::Engine engine(seed, kSplitStream);
//   SGMCMC_ASSIGN_OR_RETURN(RatingSplit split, SplitRatings(all, 0.1, engine));
#ifndef SGMCMC_DATA_RATINGS_H_
#define SGMCMC_DATA_RATINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rng/engine.h"

namespace sgmcmc::data {

struct Rating {
  int32_t row = 0;  // 0-based user
  int32_t col = 0;  // 0-based item
  float value = 0;
};

struct RatingMatrix {
  int32_t num_rows = 0;
  int32_t num_cols = 0;
  std::vector<Rating> ratings;

  // OK if num_rows, num_cols >= 0 and every rating lies inside and is finite.
  absl::Status Validate() const;
};

// Ids index the rows and columns of dense factors (O(id · rank) memory), so they must be
// nearly dense: the largest id may be at most max(kRatingIdFloor, kRatingIdsPerRating · N),
// N the file's ratings (MovieLens and Jester are far below; an id of 10^8 among a few
// thousand ratings is refused instead of allocating gigabytes).
inline constexpr int64_t kRatingIdFloor = int64_t{1} << 20;
inline constexpr int64_t kRatingIdsPerRating = 16;

// Reads a ratings file (formats above). NotFound if it cannot be opened; InvalidArgument
// "path:line: ..." for a line with fewer than three fields, a non-integer or non-positive id,
// an id above 2^31 - 1, a non-finite rating or one beyond float range, the largest user or
// item id above the bound above, or a (user, item) pair rated twice (naming both lines);
// InvalidArgument if the file has no ratings.
absl::StatusOr<RatingMatrix> ReadRatings(const std::string& path);

struct RatingSplit {
  RatingMatrix train;  // same num_rows/num_cols as the input
  RatingMatrix test;
};

// Holds out round(test_fraction * N) ratings chosen uniformly at random (a partial
// Fisher-Yates shuffle of the indices with `engine`); both parts keep the input order.
// InvalidArgument unless test_fraction is in (0, 1) and both parts are non-empty.
absl::StatusOr<RatingSplit> SplitRatings(const RatingMatrix& matrix, double test_fraction,
                                         rng::Engine& engine);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_RATINGS_H_
