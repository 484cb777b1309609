#include "data/tfidf_reader.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

TEST(TfidfReaderTest, ReadsDocumentsAsUnitColumns) {
  const std::string path = testing::WriteTestFile(
      "tfidf.data", "4 2\n2 1 0:0.6 3:0.8\n1 0 2:1.0\n3\n");
  absl::StatusOr<TfidfCorpus> corpus = ReadTfidfCorpus(path);
  ASSERT_TRUE(corpus.ok()) << corpus.status();
  ASSERT_EQ(corpus->documents.rows(), 4);
  ASSERT_EQ(corpus->documents.cols(), 2);
  EXPECT_EQ(corpus->documents.coeff(0, 0), 0.6);
  EXPECT_EQ(corpus->documents.coeff(3, 0), 0.8);
  EXPECT_EQ(corpus->documents.coeff(2, 1), 1.0);
  EXPECT_EQ(corpus->documents.nonZeros(), 3);
  EXPECT_EQ(corpus->labels, (std::vector<int>{1, 0}));

  absl::StatusOr<TfidfCorpus> gz = ReadTfidfCorpus(
      testing::WriteTestFile("tfidf.data.gz", "4 2\n2 1 0:0.6 3:0.8\n1 0 2:1.0\n3\n"));
  ASSERT_TRUE(gz.ok()) << gz.status();
  EXPECT_EQ(gz->documents.coeff(3, 0), 0.8);
}

TEST(TfidfReaderTest, RejectsMalformedInput) {
  for (const char* contents : {
           "4\n",                          // header
           "4 2\n2 1 0:0.6 3:0.8\n",       // too few documents
           "4 1\n2 1 0:0.6\n",             // n does not match
           "4 1\n2 1 0:0.6 4:0.8\n",       // id out of range
           "4 1\n2 1 0:0.6 0:0.8\n",       // repeated id
           "4 1\n2 1 0:0.6 1:0.6\n",       // not unit
           "4 1\n0 1\n",                   // empty document
           "4 1\n1 1 0:1\nextra words\n",  // trailing content
           "4 3000000000\n1 1 0:1\n",      // D beyond the bound (was reserved: bad_alloc)
           "20000000 1\n1 1 0:1\n",        // V beyond the bound
       }) {
    const std::string path = testing::WriteTestFile("bad.data", contents);
    EXPECT_FALSE(ReadTfidfCorpus(path).ok()) << contents;
  }
  EXPECT_FALSE(ReadTfidfCorpus("/nonexistent/tfidf.data").ok());
}

}  // namespace
}  // namespace sgmcmc::data
