#include "linalg/min_cost_assignment.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sgmcmc::linalg {
namespace {

// The Hungarian algorithm for n <= m (rows <= columns): one shortest augmenting path per
// row, Dijkstra-like over the columns with reduced costs c[i, j] - u[i] - v[j] >= 0. Indices
// are 1-based inside; column 0 is the virtual start of each path. Returns the row matched to
// each column (1-based; 0 for a free column), index 0 unused.
std::vector<int> Hungarian(absl::Span<const double> c, int n, int m) {
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0.0), v(m + 1, 0.0), min_slack(m + 1);
  std::vector<int> row_of(m + 1, 0), previous(m + 1, 0);
  std::vector<char> used(m + 1);
  for (int i = 1; i <= n; ++i) {
    row_of[0] = i;
    int j0 = 0;
    std::fill(min_slack.begin(), min_slack.end(), kInf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      const int i0 = row_of[j0];
      const double* row = c.data() + static_cast<int64_t>(i0 - 1) * m;
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j) {
        if (used[j]) continue;
        const double slack = row[j - 1] - u[i0] - v[j];
        if (slack < min_slack[j]) {
          min_slack[j] = slack;
          previous[j] = j0;
        }
        if (min_slack[j] < delta) {
          delta = min_slack[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= m; ++j) {
        if (used[j]) {
          u[row_of[j]] += delta;
          v[j] -= delta;
        } else {
          min_slack[j] -= delta;
        }
      }
      j0 = j1;
    } while (row_of[j0] != 0);
    // Flip the augmenting path back to the start.
    do {
      const int j1 = previous[j0];
      row_of[j0] = row_of[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  return row_of;
}

}  // namespace

absl::StatusOr<Assignment> MinCostAssignment(absl::Span<const double> costs, int rows,
                                             int columns) {
  if (rows < 0 || columns < 0 ||
      costs.size() != static_cast<size_t>(rows) * static_cast<size_t>(columns)) {
    return absl::InvalidArgumentError(absl::StrCat("MinCostAssignment: ", costs.size(),
                                                   " costs for a ", rows, " x ", columns,
                                                   " matrix"));
  }
  for (size_t k = 0; k < costs.size(); ++k) {
    if (!std::isfinite(costs[k])) {
      return absl::InvalidArgumentError(absl::StrCat("MinCostAssignment: cost[", k / columns,
                                                     ", ", k % columns, "] = ", costs[k],
                                                     " is not finite"));
    }
  }
  Assignment result;
  result.column_for_row.assign(rows, -1);
  if (rows == 0 || columns == 0) return result;
  if (rows <= columns) {
    const std::vector<int> row_of = Hungarian(costs, rows, columns);
    for (int j = 1; j <= columns; ++j) {
      if (row_of[j] != 0) result.column_for_row[row_of[j] - 1] = j - 1;
    }
  } else {
    std::vector<double> transposed(costs.size());
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        transposed[static_cast<int64_t>(c) * rows + r] = costs[static_cast<int64_t>(r) * columns + c];
      }
    }
    const std::vector<int> column_of = Hungarian(transposed, columns, rows);
    for (int r = 1; r <= rows; ++r) {
      if (column_of[r] != 0) result.column_for_row[r - 1] = column_of[r] - 1;
    }
  }
  for (int r = 0; r < rows; ++r) {
    const int c = result.column_for_row[r];
    if (c >= 0) result.total_cost += costs[static_cast<int64_t>(r) * columns + c];
  }
  return result;
}

}  // namespace sgmcmc::linalg
