#include "base/read_file.h"

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace sgmcmc::base {
namespace {

TEST(ReadFileBytesTest, ReadsEveryByte) {
  const std::string path = ::testing::TempDir() + "/bytes.bin";
  const std::string contents("a\0b\n\xff", 5);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(contents.data(), 1, contents.size(), file), contents.size());
  ASSERT_EQ(std::fclose(file), 0);
  const absl::StatusOr<std::string> bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, contents);
}

TEST(ReadFileBytesTest, NamesThePathOfAMissingFileOrADirectory) {
  EXPECT_EQ(ReadFileBytes("/nonexistent/x.pb").status(),
            absl::NotFoundError("/nonexistent/x.pb: cannot open: No such file or directory"));
  // std::ifstream opened a directory and threw from its stream buffer, or read it as empty.
  const std::string dir = ::testing::TempDir() + "/a_directory.pb";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(ReadFileBytes(dir).status(),
            absl::InvalidArgumentError(dir + ": is a directory, not a file"));
}

}  // namespace
}  // namespace sgmcmc::base
