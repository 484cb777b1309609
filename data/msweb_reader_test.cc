#include "data/msweb_reader.h"

#include <string>

#include "testing/file_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::sgmcmc::testing::WriteTestFile;

constexpr char kHeader[] =
    "I,4,\"www.microsoft.com\",\"created by getlog.pl\"\n"
    "T,1,\"VRoot\",0,0,\"VRoot\"\n"
    "N,0,\"0\"\n"
    "A,1287,1,\"International AutoRoute\",\"/autoroute\"\n"
    "A,1000,1,\"regwiz\",\"/regwiz\"\n"
    "A,1001,1,\"Support, Desktop\",\"/support\"\n";

TEST(MswebReaderTest, ReadsUsersInFileOrderWithSortedVroots) {
  const std::string path = WriteTestFile(
      "good.data.gz", absl::StrCat(kHeader,
                                   "C,\"10001\",10001\n"
                                   "V,1000,1\n"
                                   "V,1287,1\n"
                                   "C,\"10002\",10002\n"
                                   "\n"
                                   "C,\"10003\",10003\n"
                                   "V,1001,1\n"));
  absl::StatusOr<MswebData> data = ReadMsweb(path);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_THAT(data->vroots.ids, ElementsAre(1000, 1001, 1287));
  EXPECT_EQ(data->vroots.titles[1], "Support, Desktop");  // comma inside quotes
  EXPECT_EQ(data->vroots.urls[2], "/autoroute");
  EXPECT_THAT(data->case_ids, ElementsAre(10001, 10002, 10003));
  ASSERT_EQ(data->corpus.num_documents(), 3);
  EXPECT_THAT(data->corpus.document(0), ElementsAre(0, 2));
  EXPECT_TRUE(data->corpus.document(1).empty());
  EXPECT_THAT(data->corpus.document(2), ElementsAre(1));
  EXPECT_THAT(data->corpus.vocabulary, ElementsAre("1000", "1001", "1287"));
  EXPECT_TRUE(data->corpus.Validate().ok());

  // A second file read with the first one's Vroots shares its word ids.
  const std::string test_path =
      WriteTestFile("good.test", "A,1001,1,\"x\",\"/x\"\nC,\"7\",7\nV,1001,1\n");
  absl::StatusOr<MswebData> test = ReadMsweb(test_path, &data->vroots);
  ASSERT_TRUE(test.ok()) << test.status();
  EXPECT_THAT(test->corpus.document(0), ElementsAre(1));
  EXPECT_EQ(test->corpus.vocabulary_size(), 3);
}

struct Malformed {
  const char* body;      // after kHeader
  const char* expected;  // substring of the error, after "path:line: "
  int line;
};

TEST(MswebReaderTest, MalformedLinesNameFileAndLine) {
  const Malformed cases[] = {
      {"X,1,2\n", "unknown record type \"X\"", 7},
      {"C,\"1\",1\nV,1000\n", "a V (vote) line has 3 fields, found 2", 8},
      {"V,1000,1\n", "a V line before the first C (case) line", 7},
      {"C,\"1\",1\nV,abc,1\n", "expected an integer Vroot id, found \"abc\"", 8},
      {"C,\"1\",2\n", "the two case ids differ: 1 and 2", 7},
      {"C,\"1\",1\nV,1000,1\nV,1000,1\n", "Vroot 1000 repeated in case 1 (first on line 8)", 9},
      {"C,\"1\",1\nV,1000,2\n", "expected vote 1, found 2", 8},
      {"A,1000,1,\"again\",\"/again\"\n", "Vroot 1000 already declared on line 5", 7},
      {"A,1500,1,\"unterminated,/u\n", "unterminated double quote", 7},
      {"A,1500,1,\"short\"\n", "a A (Vroot) line has 5 fields, found 4", 7},
      {"C,\"1\",1\nV,1999,1\n", "case 1 visits Vroot 1999, which no A line declares", 8},
  };
  int index = 0;
  for (const Malformed& c : cases) {
    const std::string path =
        WriteTestFile(absl::StrCat("bad", index++, ".data"), absl::StrCat(kHeader, c.body));
    absl::StatusOr<MswebData> data = ReadMsweb(path);
    ASSERT_FALSE(data.ok()) << c.body;
    EXPECT_EQ(data.status().code(), absl::StatusCode::kInvalidArgument) << c.body;
    EXPECT_THAT(data.status().message(), HasSubstr(absl::StrCat(path, ":", c.line, ": ")))
        << data.status();
    EXPECT_THAT(data.status().message(), HasSubstr(c.expected)) << data.status();
  }
}

TEST(MswebReaderTest, MissingFileIsNotFound) {
  EXPECT_EQ(ReadMsweb("/nonexistent/msweb.data").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace sgmcmc::data
