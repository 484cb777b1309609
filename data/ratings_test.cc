#include "data/ratings.h"

#include <set>
#include <string>
#include <tuple>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::testing::HasSubstr;

TEST(ReadRatingsTest, ReadsTabSeparatedMovieLens100k) {
  const std::string path =
      sgmcmc::testing::WriteTestFile("u.data", "196\t242\t3\t881250949\n186\t302\t3.5\t1\n\n");
  absl::StatusOr<RatingMatrix> m = ReadRatings(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_rows, 196);
  EXPECT_EQ(m->num_cols, 302);
  ASSERT_EQ(m->ratings.size(), 2u);
  EXPECT_EQ(m->ratings[0].row, 195);
  EXPECT_EQ(m->ratings[0].col, 241);
  EXPECT_EQ(m->ratings[0].value, 3.0f);
  EXPECT_EQ(m->ratings[1].value, 3.5f);
  EXPECT_TRUE(m->Validate().ok());
}

TEST(ReadRatingsTest, ReadsDoubleColonMovieLens1m) {
  const std::string path =
      sgmcmc::testing::WriteTestFile("ratings.dat", "1::1193::5::978300760\n2::3::4::1\n");
  absl::StatusOr<RatingMatrix> m = ReadRatings(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->num_rows, 2);
  EXPECT_EQ(m->num_cols, 1193);
  ASSERT_EQ(m->ratings.size(), 2u);
  EXPECT_EQ(m->ratings[1].row, 1);
  EXPECT_EQ(m->ratings[1].col, 2);
  EXPECT_EQ(m->ratings[1].value, 4.0f);
}

TEST(ReadRatingsTest, ReadsJesterDecimalsWithoutTimestamp) {
  const std::string path =
      sgmcmc::testing::WriteTestFile("jester.txt", "1\t5\t-3.54\n1\t7\t9.9\n");
  absl::StatusOr<RatingMatrix> m = ReadRatings(path);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->ratings.size(), 2u);
  EXPECT_FLOAT_EQ(m->ratings[0].value, -3.54f);
  EXPECT_EQ(m->num_cols, 7);
}

TEST(ReadRatingsTest, MalformedRowsNameFileAndLine) {
  struct Case {
    std::string contents;
    std::string message;
  };
  const Case cases[] = {
      {"1\t2\t3\n1\t2\n", ":2: expected user<TAB>item<TAB>rating, got 2 field(s)"},
      {"1\t2\t3\nx\t2\t3\n", ":2: user id must be an integer in [1, 2147483647], got \"x\""},
      {"1\t0\t3\n", ":1: item id must be an integer in [1, 2147483647], got \"0\""},
      {"1\t2\tfive\n", ":1: rating must be a finite number, got \"five\""},
      {"1\t2\tnan\n", ":1: rating must be a finite number"},
      {"1::2::3\n\n1::99999999999::3\n", ":3: item id must be an integer in [1, 2147483647], got \"99999999999\""},
      {"1::2::3\n1\t2\t3\n", ":2: expected user::item::rating, got 1 field(s)"},
      // Stored as float: became inf, reported later by its index, not its line.
      {"1\t2\t1e300\n",
       ":1: rating must be a finite number, got \"1e300\" (beyond single precision)"},
      // Rated twice: counted twice by the likelihood, silently.
      {"1\t2\t3\n2\t2\t4\n\n1\t2\t5\n", ":4: user 1 rated item 2 again (first on line 1)"},
      // An id far above the ratings: gigabytes of factors (bad_alloc) or "dimension exceeds".
      {"1\t2\t3\n\n100000000\t1\t4\n2\t2\t3\n",
       ":3: user id 100000000 is far above the 3 ratings (ids index the rows of dense factors; "
       "at most max(2^20, 16 x ratings) = 1048576): renumber the ids"},
      {"1::2000000::3\n", ":1: item id 2000000 is far above the 1 ratings"},
  };
  for (const Case& c : cases) {
    const std::string path = sgmcmc::testing::WriteTestFile("bad.data", c.contents);
    absl::StatusOr<RatingMatrix> m = ReadRatings(path);
    ASSERT_FALSE(m.ok()) << c.contents;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(m.status().message()), HasSubstr(path + ":"));
    EXPECT_THAT(std::string(m.status().message()), HasSubstr(c.message)) << c.contents;
  }
}

TEST(ReadRatingsTest, EmptyAndMissingFilesFail) {
  const std::string path = sgmcmc::testing::WriteTestFile("empty.data", "\n");
  EXPECT_THAT(std::string(ReadRatings(path).status().message()), HasSubstr("no ratings"));
  EXPECT_EQ(ReadRatings(path + ".missing").status().code(), absl::StatusCode::kNotFound);
}

RatingMatrix Grid(int n) {
  RatingMatrix m;
  m.num_rows = n;
  m.num_cols = n;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) m.ratings.push_back({i, j, static_cast<float>(i * n + j)});
  }
  return m;
}

TEST(SplitRatingsTest, HoldsOutTheFractionDisjointlyAndDeterministically) {
  const RatingMatrix m = Grid(20);
  rng::Engine e1(7, 1), e2(7, 1), e3(8, 1);
  absl::StatusOr<RatingSplit> a = SplitRatings(m, 0.1, e1);
  absl::StatusOr<RatingSplit> b = SplitRatings(m, 0.1, e2);
  absl::StatusOr<RatingSplit> c = SplitRatings(m, 0.1, e3);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->test.ratings.size(), 40u);
  EXPECT_EQ(a->train.ratings.size(), 360u);
  EXPECT_EQ(a->train.num_rows, 20);
  EXPECT_EQ(a->test.num_cols, 20);
  std::set<float> seen;
  for (const Rating& r : a->train.ratings) seen.insert(r.value);
  for (const Rating& r : a->test.ratings) seen.insert(r.value);
  EXPECT_EQ(seen.size(), 400u);  // a partition of the input
  bool same = true, differs = false;
  for (size_t i = 0; i < a->test.ratings.size(); ++i) {
    same = same && a->test.ratings[i].value == b->test.ratings[i].value;
    differs = differs || a->test.ratings[i].value != c->test.ratings[i].value;
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs);
}

TEST(SplitRatingsTest, RejectsBadFractions) {
  const RatingMatrix m = Grid(3);
  rng::Engine engine(1);
  EXPECT_FALSE(SplitRatings(m, 0.0, engine).ok());
  EXPECT_FALSE(SplitRatings(m, 1.0, engine).ok());
  EXPECT_FALSE(SplitRatings(m, 0.01, engine).ok());  // rounds to no test rating
}

}  // namespace
}  // namespace sgmcmc::data
