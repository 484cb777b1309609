#include "tools/top_items.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::tools {
namespace {

using ::testing::ElementsAre;

TEST(TopItemsTest, LargestFirstTiesBySmallerIndex) {
  const std::vector<double> scores = {0.1, 0.4, 0.1, 0.4, 0.0};
  EXPECT_THAT(TopItems(scores, 3), ElementsAre(1, 3, 0));
  EXPECT_THAT(TopItems(scores, 9), ElementsAre(1, 3, 0, 2, 4));
  EXPECT_TRUE(TopItems(scores, 0).empty());
}

TEST(TopItemsTest, TextNamesItemsAndFallsBackToTheIndex) {
  const std::vector<std::string> names = {"apple", "banana"};
  EXPECT_EQ(TopItemsText({1, 2}, {0.5, 0.123456}, names), "banana (0.5); 2 (0.1235)");
  EXPECT_EQ(TopItemsText({}, {}, names), "");
}

TEST(TopItemsTest, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("a (0.5); b (0.2)"), "a (0.5); b (0.2)");
  EXPECT_EQ(CsvField("C++, runtime"), "\"C++, runtime\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

}  // namespace
}  // namespace sgmcmc::tools
