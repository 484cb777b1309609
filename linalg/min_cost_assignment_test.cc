#include "linalg/min_cost_assignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "testing/random_inputs.h"

namespace sgmcmc::linalg {
namespace {

// The least total cost over all matchings of min(R, C) pairs, by enumerating the
// permutations of the larger side.
double BruteForceMinCost(const std::vector<double>& c, int rows, int columns) {
  const bool by_rows = rows <= columns;
  const int n = by_rows ? rows : columns, m = by_rows ? columns : rows;
  std::vector<int> perm(m);
  std::iota(perm.begin(), perm.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do {
    double total = 0;
    for (int i = 0; i < n; ++i) {
      total += by_rows ? c[i * columns + perm[i]] : c[perm[i] * columns + i];
    }
    best = std::min(best, total);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

// Distinct columns, the right number of matched rows, and total_cost equal to their sum.
void ExpectValidMatching(const Assignment& a, const std::vector<double>& c, int rows,
                         int columns) {
  ASSERT_EQ(a.column_for_row.size(), static_cast<size_t>(rows));
  std::vector<int> seen(columns, 0);
  int matched = 0;
  double total = 0;
  for (int r = 0; r < rows; ++r) {
    const int col = a.column_for_row[r];
    if (col < 0) continue;
    ASSERT_LT(col, columns);
    EXPECT_EQ(seen[col]++, 0) << "column " << col << " used twice";
    ++matched;
    total += c[r * columns + col];
  }
  EXPECT_EQ(matched, std::min(rows, columns));
  EXPECT_EQ(a.total_cost, total);
}

TEST(MinCostAssignmentTest, HeaderExample) {
  const std::vector<double> c = {4, 1, 4, 2, 0, 5};
  absl::StatusOr<Assignment> a = MinCostAssignment(c, 2, 3);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->column_for_row, (std::vector<int>{1, 0}));
  EXPECT_EQ(a->total_cost, 3);
}

// Greedy (take the cheapest entry first) picks 1 + 9 = 10; the optimum is 2 + 2 = 4.
TEST(MinCostAssignmentTest, BeatsGreedy) {
  absl::StatusOr<Assignment> a = MinCostAssignment({1, 2, 2, 9}, 2, 2);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->column_for_row, (std::vector<int>{1, 0}));
  EXPECT_EQ(a->total_cost, 4);
}

TEST(MinCostAssignmentTest, MoreRowsThanColumnsLeavesRowsOver) {
  // Rows 0 and 2 are the cheap ones for columns 1 and 0.
  const std::vector<double> c = {5, 0, 7, 7, 1, 6};
  absl::StatusOr<Assignment> a = MinCostAssignment(c, 3, 2);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->column_for_row, (std::vector<int>{1, -1, 0}));
  EXPECT_EQ(a->total_cost, 1);
}

TEST(MinCostAssignmentTest, MatchesBruteForceOnRandomMatrices) {
  testing::RandomInputs inputs(/*seed=*/29);
  for (int rows = 1; rows <= 6; ++rows) {
    for (int columns = 1; columns <= 6; ++columns) {
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<double> c(rows * columns);
        // Half the trials on a coarse integer grid, so ties between matchings occur.
        for (double& x : c) x = trial % 2 ? inputs.Uniform(-3, 10) : inputs.UniformInt(4);
        absl::StatusOr<Assignment> a = MinCostAssignment(c, rows, columns);
        ASSERT_TRUE(a.ok()) << a.status();
        ExpectValidMatching(*a, c, rows, columns);
        EXPECT_NEAR(a->total_cost, BruteForceMinCost(c, rows, columns), 1e-12)
            << rows << " x " << columns << " trial " << trial;
      }
    }
  }
}

TEST(MinCostAssignmentTest, EmptyMatrix) {
  absl::StatusOr<Assignment> a = MinCostAssignment({}, 3, 0);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->column_for_row, (std::vector<int>{-1, -1, -1}));
  EXPECT_EQ(a->total_cost, 0);
}

TEST(MinCostAssignmentTest, RejectsBadInput) {
  absl::StatusOr<Assignment> a = MinCostAssignment({1, 2, 3}, 2, 2);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(a.status().message().find("3 costs for a 2 x 2"), absl::string_view::npos);
  a = MinCostAssignment({1, 2, std::nan(""), 4}, 2, 2);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(a.status().message().find("cost[1, 0]"), absl::string_view::npos) << a.status();
  a = MinCostAssignment({1, std::numeric_limits<double>::infinity()}, 1, 2);
  EXPECT_NE(a.status().message().find("cost[0, 1]"), absl::string_view::npos) << a.status();
}

}  // namespace
}  // namespace sgmcmc::linalg
