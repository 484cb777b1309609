#include "data/line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"

namespace sgmcmc::data {
namespace {

using ::sgmcmc::testing::ReadRawTestFile;
using ::sgmcmc::testing::WriteRawTestFile;
using ::sgmcmc::testing::WriteTestFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> ReadAll(LineReader& reader) {
  std::vector<std::string> lines;
  absl::string_view line;
  while (reader.Next(&line)) lines.emplace_back(line);
  return lines;
}

TEST(LineReaderTest, ReadsPlainAndGzipAlike) {
  for (const char* name : {"lines.txt", "lines.txt.gz"}) {
    auto reader = LineReader::Open(WriteTestFile(name, "a b\r\n\nlast"));
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_THAT(ReadAll(*reader), ElementsAre("a b", "", "last")) << name;
    EXPECT_TRUE(reader->status().ok());
    EXPECT_EQ(reader->line_number(), 3);
    EXPECT_EQ(reader->bytes_consumed(), 10);
  }
}

// Runs `body` with standard input read from `path`, then restores it.
template <typename Body>
void WithStandardInputFrom(const std::string& path, Body body) {
  const int saved = dup(STDIN_FILENO);
  const int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(dup2(fd, STDIN_FILENO), STDIN_FILENO);
  close(fd);
  body();
  dup2(saved, STDIN_FILENO);
  close(saved);
}

TEST(LineReaderTest, DashReadsStandardInputPlainOrGzipAndRefusesRewind) {
  for (const char* name : {"stdin.txt", "stdin.txt.gz"}) {
    WithStandardInputFrom(WriteTestFile(name, "one\ntwo\n"), [&] {
      auto reader = LineReader::Open(kStandardInput);
      ASSERT_TRUE(reader.ok()) << reader.status();
      EXPECT_THAT(ReadAll(*reader), ElementsAre("one", "two")) << name;
      const absl::Status rewound = reader->Rewind();
      EXPECT_EQ(rewound.code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_THAT(rewound.message(), HasSubstr("cannot be rewound"));
    });
  }
}

TEST(LineReaderTest, EmptyFileHasNoLines) {
  auto reader = LineReader::Open(WriteTestFile("empty.txt", ""));
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE(ReadAll(*reader).empty());
  EXPECT_TRUE(reader->status().ok());
}

TEST(LineReaderTest, LinesLongerThanTheBlockSurvive) {
  const std::string long_line(3 << 20, 'x');
  auto reader = LineReader::Open(WriteTestFile("long.txt.gz", long_line + "\nend\n"));
  ASSERT_TRUE(reader.ok());
  const std::vector<std::string> lines = ReadAll(*reader);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], long_line);
  EXPECT_EQ(lines[1], "end");
}

TEST(LineReaderTest, ManyLinesAcrossBlocks) {
  std::string text;
  for (int i = 0; i < 300000; ++i) text += std::to_string(i) + "\n";
  auto reader = LineReader::Open(WriteTestFile("many.txt", text));
  ASSERT_TRUE(reader.ok());
  const std::vector<std::string> lines = ReadAll(*reader);
  ASSERT_EQ(lines.size(), 300000u);
  for (int i = 0; i < 300000; i += 999) ASSERT_EQ(lines[i], std::to_string(i));
}

// The lines of `text` as LineReader returns them (split at "\n", a trailing "\r" dropped, a
// last line without "\n" kept).
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    const size_t next = end == std::string::npos ? text.size() : end + 1;
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    begin = next;
  }
  return lines;
}

// The buffers are sized to the input (first block = the file's size, 4 KiB to 1 MiB, doubling
// when a block comes back full; zlib's buffer the file's size up to 128 KiB): files whose size
// falls on and around every block size, plain and gzip (whose first block is the compressed
// size, so it doubles several times), with lines of 0 to 10^4 bytes and "\r\n" ends crossing
// the block boundaries, read back line for line and byte for byte.
TEST(LineReaderTest, BuffersSizedToTheInputReadEveryLayout) {
  std::string text;
  uint64_t state = 12345;
  while (text.size() < (size_t{1} << 21)) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const size_t length = (state >> 33) % 97 == 0 ? 10000 : (state >> 40) % 300;
    text += std::string(length, static_cast<char>('a' + (state >> 50) % 26));
    text += (state >> 20) % 3 == 0 ? "\r\n" : "\n";
  }
  for (size_t size : {size_t{1}, size_t{4095}, size_t{4096}, size_t{4097}, size_t{8193},
                      size_t{65537}, size_t{131073}, size_t{200000}, (size_t{1} << 20) - 1,
                      (size_t{1} << 20) + 1, size_t{1} << 21}) {
    const std::string prefix = text.substr(0, size);
    for (const char* name : {"sized.txt", "sized.txt.gz"}) {
      auto reader = LineReader::Open(WriteTestFile(name, prefix));
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_EQ(ReadAll(*reader), SplitLines(prefix)) << name << " size " << size;
      EXPECT_TRUE(reader->status().ok());
      EXPECT_EQ(reader->bytes_consumed(), static_cast<int64_t>(size)) << name;
    }
  }
}

// A file that grows after it was opened (its first block sized to 10 bytes) is read to its
// new end, and so is standard input (unknown size: 64 KiB blocks, doubling).
TEST(LineReaderTest, InputLargerThanItsSizeAtOpenIsReadToTheEnd) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + "\n";
  const std::string path = WriteTestFile("growing.txt", "first\nxx\n");
  auto reader = LineReader::Open(path);
  ASSERT_TRUE(reader.ok());
  WriteTestFile("growing.txt", "first\nxx\n" + text);
  std::vector<std::string> expected = {"first", "xx"};
  for (const std::string& line : SplitLines(text)) expected.push_back(line);
  EXPECT_EQ(ReadAll(*reader), expected);
  WithStandardInputFrom(WriteTestFile("stdin_large.txt.gz", text), [&] {
    auto in = LineReader::Open(kStandardInput);
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(ReadAll(*in), SplitLines(text));
  });
}

TEST(LineReaderTest, RewindRestarts) {
  auto reader = LineReader::Open(WriteTestFile("rewind.txt.gz", "1\n2\n"));
  ASSERT_TRUE(reader.ok());
  EXPECT_THAT(ReadAll(*reader), ElementsAre("1", "2"));
  ASSERT_TRUE(reader->Rewind().ok());
  EXPECT_EQ(reader->line_number(), 0);
  EXPECT_THAT(ReadAll(*reader), ElementsAre("1", "2"));
}

TEST(LineReaderTest, ErrorNamesFileAndLine) {
  const std::string path = WriteTestFile("error.txt", "a\nb\n");
  auto reader = LineReader::Open(path);
  ASSERT_TRUE(reader.ok());
  absl::string_view line;
  ASSERT_TRUE(reader->Next(&line));
  ASSERT_TRUE(reader->Next(&line));
  const absl::Status status = reader->Error("bad thing");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), path + ":2: bad thing");
}

TEST(LineReaderTest, MissingFileIsNotFound) {
  auto reader = LineReader::Open("/nonexistent/dir/file.txt");
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(reader.status().message()), HasSubstr("/nonexistent/dir/file.txt"));
}

TEST(LineReaderTest, TruncatedGzipIsDataLoss) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919 % 10007) + " x y\n";
  const std::string compressed = ReadRawTestFile(WriteTestFile("full.txt.gz", text));
  ASSERT_GT(compressed.size(), 100u);
  const std::string path =
      WriteRawTestFile("cut.txt.gz", compressed.substr(0, compressed.size() / 2));
  auto reader = LineReader::Open(path);
  ASSERT_TRUE(reader.ok());
  const std::vector<std::string> lines = ReadAll(*reader);
  EXPECT_LT(lines.size(), 20000u);
  EXPECT_EQ(reader->status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(reader->status().message()), HasSubstr(path));
}

}  // namespace
}  // namespace sgmcmc::data
