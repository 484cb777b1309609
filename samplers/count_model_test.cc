#include "samplers/count_model.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::samplers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<int32_t> Cols(const SparseCountsRow& row) {
  return std::vector<int32_t>(row.cols.begin(), row.cols.end());
}
std::vector<double> Values(const SparseCountsRow& row) {
  return std::vector<double>(row.values.begin(), row.values.end());
}

TEST(SimplexCountsTest, AppendBuildsRowsWithTotalsAndSkipsZeros) {
  SimplexCounts counts(4, 6);
  counts.Append(0, 1, 2.0);
  counts.Append(0, 4, 3.0);
  counts.Append(2, 0, 0.0);  // zero: not stored
  counts.Append(2, 5, 7.5);
  EXPECT_EQ(counts.rows(), 4);
  EXPECT_EQ(counts.cols(), 6);
  EXPECT_EQ(counts.nonzeros(), 3);
  EXPECT_THAT(Cols(counts.row(0)), ElementsAre(1, 4));
  EXPECT_THAT(Values(counts.row(0)), ElementsAre(2.0, 3.0));
  EXPECT_DOUBLE_EQ(counts.row_total(0), 5.0);
  EXPECT_TRUE(counts.row(1).cols.empty());
  EXPECT_EQ(counts.row_total(1), 0.0);
  EXPECT_THAT(Cols(counts.row(2)), ElementsAre(5));
  EXPECT_DOUBLE_EQ(counts.row(2).total, 7.5);
  EXPECT_TRUE(counts.row(3).cols.empty());

  std::vector<double> dense(24, -1.0);
  counts.ToDense(absl::MakeSpan(dense));
  EXPECT_EQ(dense[1], 2.0);
  EXPECT_EQ(dense[4], 3.0);
  EXPECT_EQ(dense[2 * 6 + 5], 7.5);
  double sum = 0;
  for (double v : dense) sum += v;
  EXPECT_DOUBLE_EQ(sum, 12.5);
}

TEST(SimplexCountsTest, ResetKeepsNothingButShape) {
  SimplexCounts counts(2, 3);
  counts.Append(1, 2, 4.0);
  counts.Reset(3, 5);
  EXPECT_EQ(counts.rows(), 3);
  EXPECT_EQ(counts.cols(), 5);
  EXPECT_EQ(counts.nonzeros(), 0);
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(counts.row(r).cols.empty());
  counts.Append(0, 0, 1.0);  // order restarts after Reset
  EXPECT_EQ(counts.nonzeros(), 1);
}

TEST(SimplexCountsTest, FromTripletsSortsAndMergesDuplicates) {
  absl::StatusOr<SimplexCounts> counts = SimplexCounts::FromTriplets(
      3, 4, {{2, 1, 1.0}, {0, 3, 2.0}, {2, 1, 0.5}, {0, 0, 1.0}, {1, 2, 0.0}});
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_THAT(Cols(counts->row(0)), ElementsAre(0, 3));
  EXPECT_THAT(Values(counts->row(0)), ElementsAre(1.0, 2.0));
  EXPECT_TRUE(counts->row(1).cols.empty());
  EXPECT_THAT(Cols(counts->row(2)), ElementsAre(1));
  EXPECT_THAT(Values(counts->row(2)), ElementsAre(1.5));
}

TEST(SimplexCountsTest, FromDenseRoundTrips) {
  const std::vector<double> dense = {0, 1, 0, 2.5, 0, 0};
  absl::StatusOr<SimplexCounts> counts = SimplexCounts::FromDense(2, 3, dense);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nonzeros(), 2);
  std::vector<double> back(6);
  counts->ToDense(absl::MakeSpan(back));
  EXPECT_EQ(back, dense);
}

TEST(SimplexCountsTest, BadInputIsRejectedWithItsLocation) {
  absl::StatusOr<SimplexCounts> bad_triplet =
      SimplexCounts::FromTriplets(2, 2, {{0, 0, 1.0}, {1, 2, 1.0}});
  EXPECT_THAT(bad_triplet.status().message(), HasSubstr("triplet 1"));
  absl::StatusOr<SimplexCounts> negative = SimplexCounts::FromTriplets(2, 2, {{0, 0, -1.0}});
  EXPECT_THAT(negative.status().message(), HasSubstr("triplet 0"));
  absl::StatusOr<SimplexCounts> bad_shape = SimplexCounts::FromDense(0, 2, {});
  EXPECT_THAT(bad_shape.status().message(), HasSubstr("rows and cols"));
  const std::vector<double> nan_entry = {1.0, std::nan("")};
  absl::StatusOr<SimplexCounts> nan = SimplexCounts::FromDense(1, 2, nan_entry);
  EXPECT_THAT(nan.status().message(), HasSubstr("entry (0, 1)"));
  absl::StatusOr<SimplexCounts> wrong_size = SimplexCounts::FromDense(1, 3, nan_entry);
  EXPECT_THAT(wrong_size.status().message(), HasSubstr("size 2"));
}

TEST(SimplexCountsDeathTest, OutOfOrderOrInvalidAppendDies) {
  SimplexCounts counts(2, 3);
  counts.Append(1, 1, 1.0);
  EXPECT_DEATH(counts.Append(1, 1, 1.0), "increasing \\(row, col\\) order");
  EXPECT_DEATH(counts.Append(0, 2, 1.0), "increasing \\(row, col\\) order");
  EXPECT_DEATH(counts.Append(1, 3, 1.0), "col 3 outside");
  EXPECT_DEATH(counts.Append(1, 2, -1.0), "finite and >= 0");
  EXPECT_DEATH(SimplexCounts(0, 3), "rows and cols must be >= 1");
}

TEST(SimplexCountsTest, SetRowEqualsAppendBitForBit) {
  // Rows written out of order (as concurrent threads may) over a previously larger matrix.
  SimplexCounts appended(4, 9), by_rows(3, 2);
  by_rows.Append(2, 1, 5.0);
  const std::vector<int32_t> cols0 = {0, 3, 8}, cols2 = {2};
  const std::vector<double> values0 = {0.1, 0.2, 0.3}, values2 = {1e-3};
  for (size_t e = 0; e < cols0.size(); ++e) appended.Append(0, cols0[e], values0[e]);
  appended.Append(2, cols2[0], values2[0]);
  const std::vector<int64_t> sizes = {3, 0, 1, 0};
  by_rows.ResetRowSizes(4, 9, sizes);
  by_rows.SetRow(2, cols2, values2);
  by_rows.SetRow(1, {}, {});
  by_rows.SetRow(0, cols0, values0);
  EXPECT_EQ(by_rows.rows(), 4);
  EXPECT_EQ(by_rows.cols(), 9);
  EXPECT_EQ(by_rows.nonzeros(), 4);
  for (int r = 0; r < 4; ++r) {
    EXPECT_THAT(Cols(by_rows.row(r)), ::testing::ElementsAreArray(Cols(appended.row(r))));
    EXPECT_THAT(Values(by_rows.row(r)), ::testing::ElementsAreArray(Values(appended.row(r))));
    // 0.1 + 0.2 + 0.3 is not 0.6 in floating point: the sums must round the same way.
    EXPECT_EQ(by_rows.row_total(r), appended.row_total(r)) << "row " << r;
  }
}

TEST(SimplexCountsDeathTest, BadSetRowDies) {
  SimplexCounts counts;
  const std::vector<int64_t> sizes = {2, 1};
  counts.ResetRowSizes(2, 4, sizes);
  const std::vector<int32_t> unsorted = {3, 1}, outside = {4};
  const std::vector<double> two = {1.0, 1.0}, one = {1.0}, zero = {0.0};
  EXPECT_DEATH(counts.SetRow(0, unsorted, two), "not above the previous one");
  EXPECT_DEATH(counts.SetRow(1, outside, one), "column 4 at entry 0 is out of");
  EXPECT_DEATH(counts.SetRow(1, {0}, zero), "finite and > 0");
  EXPECT_DEATH(counts.SetRow(0, {0}, one), "row 0 has 2 slots");
  EXPECT_DEATH(counts.Append(1, 3, 1.0), "increasing \\(row, col\\) order");
  EXPECT_DEATH(counts.ResetRowSizes(2, 4, {1}), "1 row sizes for 2 rows");
}

TEST(DenseCountsViewTest, VectorAndRows) {
  const std::vector<double> values = {1, 2, 3, 4, 5, 6};
  const DenseCountsView vector = DenseCountsView::Vector(values);
  EXPECT_EQ(vector.rows, 1);
  EXPECT_EQ(vector.cols, 6);
  const DenseCountsView matrix{2, 3, values};
  EXPECT_THAT(std::vector<double>(matrix.row(1).begin(), matrix.row(1).end()),
              ElementsAre(4, 5, 6));
}

}  // namespace
}  // namespace sgmcmc::samplers
