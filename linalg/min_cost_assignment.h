// MinCostAssignment: the linear assignment problem on a rectangular cost matrix, solved
// exactly by the Hungarian algorithm (Kuhn 1955, "The Hungarian method for the assignment
// problem"; Munkres 1957) in its O(n² m) shortest-augmenting-path form with row and column
// potentials (Tomizawa 1971; Jonker & Volgenant 1987).
//
// For an R x C cost matrix c (row-major), a matching pairs min(R, C) rows with as many
// distinct columns; the function returns one minimising the total cost Σ c[r, col(r)] over
// the matched pairs:
//   R <= C: every row is matched, C - R columns are left over;
//   R >  C: every column is matched, R - C rows are left over (column_for_row = -1).
// Ties between optimal matchings are broken deterministically (the same input gives the same
// matching).
//
// Cost: O(n² m) time with n = min(R, C), m = max(R, C); O(R + C) extra memory (plus a
// transposed copy of the matrix when R > C).
//
// Example:
//   // 2 workers x 3 jobs
//   SGMCMC_ASSIGN_OR_RETURN(Assignment a, MinCostAssignment({4, 1, 4, 2, 0, 5}, 2, 3));
//   // a.column_for_row == {1, 0}, a.total_cost == 3
#ifndef SGMCMC_LINALG_MIN_COST_ASSIGNMENT_H_
#define SGMCMC_LINALG_MIN_COST_ASSIGNMENT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sgmcmc::linalg {

struct Assignment {
  // For each row, its column, or -1 if the row is left over (only when rows > columns).
  std::vector<int> column_for_row;
  // Σ cost[r, column_for_row[r]] over the matched rows (summed in row order).
  double total_cost = 0;
};

// `costs`: rows x columns entries, row-major; rows, columns >= 0 (a matrix with no rows or
// no columns gives an empty matching). InvalidArgument if costs.size() != rows * columns or
// an entry is NaN or infinite (naming the row and column).
absl::StatusOr<Assignment> MinCostAssignment(absl::Span<const double> costs, int rows,
                                             int columns);

}  // namespace sgmcmc::linalg

#endif  // SGMCMC_LINALG_MIN_COST_ASSIGNMENT_H_
