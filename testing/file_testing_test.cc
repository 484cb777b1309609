#include "testing/file_testing.h"

#include <string>

#include "gtest/gtest.h"

namespace sgmcmc::testing {
namespace {

TEST(FileTestingTest, PlainFilesRoundTrip) {
  const std::string path = WriteTestFile("plain.txt", "a b\nc\n");
  EXPECT_EQ(ReadTestFile(path), "a b\nc\n");
  EXPECT_EQ(ReadRawTestFile(path), "a b\nc\n");
}

TEST(FileTestingTest, GzipFilesAreCompressedAndReadBackDecompressed) {
  const std::string path = WriteTestFile("packed.txt.gz", "3\n5\n1\n1 9 2\n");
  EXPECT_EQ(ReadTestFile(path), "3\n5\n1\n1 9 2\n");
  const std::string raw = ReadRawTestFile(path);
  ASSERT_GE(raw.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0x1f);  // the gzip magic number
  EXPECT_EQ(static_cast<unsigned char>(raw[1]), 0x8b);
}

TEST(FileTestingTest, RawWriteKeepsBytesUnchanged) {
  const std::string path = WriteRawTestFile("raw.gz", "not gzip");
  EXPECT_EQ(ReadRawTestFile(path), "not gzip");
}

TEST(FileTestingTest, FlipMiddleByteChangesOneBitOfTheMiddleByte) {
  const std::string path = WriteRawTestFile("flip.bin", "abcde");
  FlipMiddleByte(path);
  EXPECT_EQ(ReadRawTestFile(path), "abbde");  // 'c' ^ 1
}

}  // namespace
}  // namespace sgmcmc::testing
