#include "data/idx_reader.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
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
using ::testing::Not;

// IDX bytes: magic {0, 0, type, sizes.size()}, big-endian sizes, then `data`.
std::string IdxBytes(const std::vector<uint32_t>& sizes, const std::vector<uint8_t>& data,
                     uint8_t type = 0x08) {
  std::string bytes = {0, 0, static_cast<char>(type), static_cast<char>(sizes.size())};
  for (uint32_t size : sizes) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>(size >> shift));
  }
  bytes.append(data.begin(), data.end());
  return bytes;
}

// Two 2 x 3 images with pixels 0..11 times 20.
std::string TwoImages() {
  std::vector<uint8_t> pixels;
  for (int k = 0; k < 12; ++k) pixels.push_back(static_cast<uint8_t>(20 * k));
  return IdxBytes({2, 2, 3}, pixels);
}

TEST(IdxReaderTest, ReadsPlainImages) {
  const std::string path = WriteRawTestFile("images-idx3-ubyte", TwoImages());
  const absl::StatusOr<IdxImages> images = ReadIdxImages(path);
  ASSERT_TRUE(images.ok()) << images.status();
  EXPECT_EQ(images->count, 2);
  EXPECT_EQ(images->rows, 2);
  EXPECT_EQ(images->cols, 3);
  EXPECT_EQ(images->pixels_per_image(), 6);
  EXPECT_THAT(images->image(1), ElementsAre(120, 140, 160, 180, 200, 220));
}

TEST(IdxReaderTest, GzipReadsLikePlain) {
  const std::string plain = WriteRawTestFile("plain-idx3-ubyte", TwoImages());
  const std::string gzip = WriteTestFile("gzip-idx3-ubyte.gz", TwoImages());
  ASSERT_NE(ReadRawTestFile(gzip), TwoImages());  // really compressed
  const absl::StatusOr<IdxImages> a = ReadIdxImages(plain);
  const absl::StatusOr<IdxImages> b = ReadIdxImages(gzip);
  ASSERT_TRUE(a.ok() && b.ok()) << a.status() << " " << b.status();
  EXPECT_EQ(a->pixels, b->pixels);
}

TEST(IdxReaderTest, ReadsLabelsAndGenericArrays) {
  const std::string path = WriteTestFile("labels-idx1-ubyte.gz", IdxBytes({4}, {3, 1, 4, 1}));
  const absl::StatusOr<std::vector<uint8_t>> labels = ReadIdxLabels(path);
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_THAT(*labels, ElementsAre(3, 1, 4, 1));

  const std::string cube = WriteRawTestFile("cube", IdxBytes({2, 1, 2, 1}, {7, 8, 9, 10}));
  const absl::StatusOr<IdxArray> array = ReadIdxFile(cube);
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_THAT(array->sizes, ElementsAre(2, 1, 2, 1));
  EXPECT_THAT(array->data, ElementsAre(7, 8, 9, 10));
}

TEST(IdxReaderTest, ZeroImagesIsValid) {
  const std::string path = WriteRawTestFile("empty-idx3", IdxBytes({0, 28, 28}, {}));
  const absl::StatusOr<IdxImages> images = ReadIdxImages(path);
  ASSERT_TRUE(images.ok()) << images.status();
  EXPECT_EQ(images->count, 0);
  EXPECT_EQ(images->rows, 28);
}

TEST(IdxReaderTest, MissingFileIsNotFound) {
  const absl::StatusOr<IdxImages> images =
      ReadIdxImages(::testing::TempDir() + "/no-such-idx3-ubyte");
  EXPECT_EQ(images.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(images.status().message(), HasSubstr("no-such-idx3-ubyte"));
}

// A directory (say, the data set's instead of a file in it) was a "corrupt gzip stream".
TEST(IdxReaderTest, DirectoryIsInvalidArgumentNamingIt) {
  const std::string dir = ::testing::TempDir();
  const absl::Status status = ReadIdxImages(dir).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr(dir + ": is a directory, not an IDX file"));
  EXPECT_THAT(status.message(), Not(HasSubstr("gzip")));
}

// Expects `status` to be `code` with "path: byte <offset>:" and `what` in its message.
void ExpectError(const absl::Status& status, absl::StatusCode code, const std::string& path,
                 int64_t offset, const std::string& what) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_THAT(status.message(), HasSubstr(path + ": byte " + std::to_string(offset) + ": "));
  EXPECT_THAT(status.message(), HasSubstr(what));
}

TEST(IdxReaderTest, WrongMagicForTheKindOfFile) {
  const std::string labels = WriteRawTestFile("labels", IdxBytes({2}, {1, 2}));
  ExpectError(ReadIdxImages(labels).status(), absl::StatusCode::kInvalidArgument, labels, 0,
              "magic number 0x00000801, expected 0x00000803");
  const std::string images = WriteRawTestFile("images", TwoImages());
  ExpectError(ReadIdxLabels(images).status(), absl::StatusCode::kInvalidArgument, images, 0,
              "magic number 0x00000803, expected 0x00000801");
}

TEST(IdxReaderTest, CorruptHeaders) {
  std::string bytes = TwoImages();
  bytes[0] = 0x1f;
  const std::string bad_magic = WriteRawTestFile("bad_magic", bytes);
  ExpectError(ReadIdxFile(bad_magic).status(), absl::StatusCode::kInvalidArgument, bad_magic,
              0, "bad magic number 0x1f000803");
  ExpectError(ReadIdxImages(bad_magic).status(), absl::StatusCode::kInvalidArgument, bad_magic,
              0, "expected 0x00000803");

  const std::string floats = WriteRawTestFile("floats", IdxBytes({1}, {0, 0, 0, 0}, 0x0D));
  ExpectError(ReadIdxFile(floats).status(), absl::StatusCode::kInvalidArgument, floats, 2,
              "unsupported data type 0x0d");

  const std::string no_dims = WriteRawTestFile("no_dims", IdxBytes({}, {}));
  ExpectError(ReadIdxFile(no_dims).status(), absl::StatusCode::kInvalidArgument, no_dims, 3,
              "number of dimensions 0");

  const std::string short_magic = WriteRawTestFile("short_magic", std::string("\0\0\x08", 3));
  ExpectError(ReadIdxFile(short_magic).status(), absl::StatusCode::kInvalidArgument,
              short_magic, 3, "truncated header");
  ExpectError(ReadIdxImages(short_magic).status(), absl::StatusCode::kInvalidArgument,
              short_magic, 3, "truncated header");

  // Three sizes announced, one and a half present: header needs 16 bytes, file has 10.
  const std::string short_sizes = WriteRawTestFile("short_sizes", TwoImages().substr(0, 10));
  ExpectError(ReadIdxImages(short_sizes).status(), absl::StatusCode::kInvalidArgument,
              short_sizes, 10, "3 sizes need 16 bytes, file has 10");

  const std::string huge = WriteRawTestFile("huge", IdxBytes({0x10000, 0x10000, 2}, {}));
  IdxLimits limits;
  limits.max_items = 1 << 20;
  ExpectError(ReadIdxFile(huge, limits).status(), absl::StatusCode::kInvalidArgument, huge, 8,
              "past IdxLimits.max_items = 1048576");
  // The default limit, 2^31 - 1 items, rejects the 2^33 announced too.
  ExpectError(ReadIdxFile(huge).status(), absl::StatusCode::kInvalidArgument, huge, 8,
              "past IdxLimits.max_items");
  // Zero items of 16 x 1677721720 bytes each (a libFuzzer find): the product is 0, but the
  // image size alone is past the limit, and ImagesToCounts would size its columns by it.
  const std::string empty_but_huge =
      WriteRawTestFile("empty_but_huge", IdxBytes({0, 16, 0x64000078}, {}));
  ExpectError(ReadIdxImages(empty_but_huge, limits).status(), absl::StatusCode::kInvalidArgument,
              empty_but_huge, 12, "past IdxLimits.max_items = 1048576 (a size of 0 counted as 1)");
}

TEST(IdxReaderTest, TruncatedAndTrailingData) {
  const std::string full = TwoImages();  // 16-byte header + 12 bytes
  const std::string truncated = WriteRawTestFile("truncated", full.substr(0, 25));
  ExpectError(ReadIdxImages(truncated).status(), absl::StatusCode::kInvalidArgument, truncated,
              25, "truncated data: sizes need 12 bytes after the 16-byte header, file has 9");

  const std::string trailing = WriteRawTestFile("trailing", full + "xy");
  ExpectError(ReadIdxImages(trailing).status(), absl::StatusCode::kInvalidArgument, trailing,
              28, "2 unexpected bytes after the 12 bytes of data");

  // A gzip stream cut inside its 8-byte trailer (CRC and length).
  const std::string gz = ReadRawTestFile(WriteTestFile("whole.gz", full));
  const std::string cut = WriteRawTestFile("cut.gz", gz.substr(0, gz.size() - 6));
  const absl::Status cut_status = ReadIdxImages(cut).status();
  EXPECT_EQ(cut_status.code(), absl::StatusCode::kDataLoss) << cut_status;
  EXPECT_THAT(cut_status.message(), HasSubstr(cut + ": byte "));
  EXPECT_THAT(cut_status.message(), HasSubstr("gzip stream"));
}

TEST(IdxReaderTest, CorruptGzipIsDataLoss) {
  std::vector<uint8_t> pixels(4000);
  for (size_t k = 0; k < pixels.size(); ++k) pixels[k] = static_cast<uint8_t>(k * k % 251);
  std::string gz = ReadRawTestFile(WriteTestFile("good.gz", IdxBytes({4000}, pixels)));
  for (size_t k = 20; k < gz.size() - 8; k += 7) gz[k] = static_cast<char>(gz[k] ^ 0x5a);
  const std::string corrupt = WriteRawTestFile("corrupt.gz", gz);
  const absl::Status status = ReadIdxFile(corrupt).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_THAT(status.message(), HasSubstr(corrupt + ": byte "));
}

TEST(IdxReaderTest, ImagesToCountsUsesEqualWidthBins) {
  IdxImages images;
  images.count = 1;
  images.rows = 1;
  images.cols = 8;
  images.pixels = {0, 51, 52, 102, 103, 204, 205, 255};
  IdxCountOptions options;  // max_count 4: bins of width 256 / 5 = 51.2
  const CountMatrix counts = ImagesToCounts(images, options);
  EXPECT_EQ(counts.rows, 1);
  EXPECT_EQ(counts.cols, 8);
  EXPECT_THAT(counts.row(0), ElementsAre(0, 0, 1, 1, 2, 3, 4, 4));

  options.max_count = 255;  // the raw intensities
  EXPECT_THAT(ImagesToCounts(images, options).row(0),
              ElementsAre(0, 51, 52, 102, 103, 204, 205, 255));
  options.max_count = 1;  // binary: p >= 128
  images.pixels = {0, 127, 128, 255, 1, 200, 90, 129};
  EXPECT_THAT(ImagesToCounts(images, options).row(0), ElementsAre(0, 0, 1, 1, 0, 1, 0, 1));
}

TEST(IdxReaderTest, CountOptionsValidate) {
  IdxCountOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.max_count = 0;
  EXPECT_THAT(options.Validate().message(), HasSubstr("IdxCountOptions.max_count"));
  options.max_count = 256;
  EXPECT_EQ(options.Validate().code(), absl::StatusCode::kInvalidArgument);
}

TEST(IdxReaderTest, CountsToCorpusExpandsCounts) {
  CountMatrix counts;
  counts.rows = 2;
  counts.cols = 3;
  counts.counts = {2, 0, 1, 0, 0, 0};
  const Corpus corpus = CountsToCorpus(counts);
  ASSERT_TRUE(corpus.Validate().ok());
  EXPECT_EQ(corpus.num_documents(), 2);
  EXPECT_EQ(corpus.vocabulary_size(), 3);
  EXPECT_EQ(corpus.vocabulary[2], "pixel_2");
  EXPECT_THAT(corpus.document(0), ElementsAre(0, 0, 2));
  EXPECT_TRUE(corpus.document(1).empty());
}

}  // namespace
}  // namespace sgmcmc::data
