#include "data/png_writer.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

struct Chunk {
  std::string type;
  std::string data;
  uint32_t crc = 0;
};

uint32_t BigEndian32(const std::string& bytes, size_t offset) {
  uint32_t value = 0;
  for (int k = 0; k < 4; ++k) value = (value << 8) | static_cast<uint8_t>(bytes[offset + k]);
  return value;
}

// Splits a PNG datastream after its signature into chunks; fails the test on a bad CRC.
std::vector<Chunk> ParseChunks(const std::string& png) {
  std::vector<Chunk> chunks;
  size_t offset = 8;
  while (offset < png.size()) {
    EXPECT_LE(offset + 12, png.size());
    Chunk chunk;
    const uint32_t length = BigEndian32(png, offset);
    chunk.type = png.substr(offset + 4, 4);
    chunk.data = png.substr(offset + 8, length);
    chunk.crc = BigEndian32(png, offset + 8 + length);
    const uLong crc = crc32(crc32(0L, Z_NULL, 0),
                            reinterpret_cast<const Bytef*>(png.data() + offset + 4), 4 + length);
    EXPECT_EQ(chunk.crc, static_cast<uint32_t>(crc)) << "chunk " << chunk.type;
    chunks.push_back(chunk);
    offset += 12 + length;
  }
  EXPECT_EQ(offset, png.size());
  return chunks;
}

TEST(PngWriterTest, HeaderChunksAndScanlines) {
  const int width = 5, height = 3;
  std::vector<uint8_t> pixels(width * height);
  for (size_t k = 0; k < pixels.size(); ++k) pixels[k] = static_cast<uint8_t>(17 * k);
  const std::string png = EncodeGrayscalePng(width, height, pixels);
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const std::vector<Chunk> chunks = ParseChunks(png);
  ASSERT_EQ(chunks.size(), 3u);

  EXPECT_EQ(chunks[0].type, "IHDR");
  ASSERT_EQ(chunks[0].data.size(), 13u);
  EXPECT_EQ(BigEndian32(chunks[0].data, 0), 5u);
  EXPECT_EQ(BigEndian32(chunks[0].data, 4), 3u);
  EXPECT_EQ(chunks[0].data.substr(8), std::string("\x08\x00\x00\x00\x00", 5));

  EXPECT_EQ(chunks[1].type, "IDAT");
  std::vector<uint8_t> raw(height * (width + 1) + 16);
  uLongf raw_size = raw.size();
  ASSERT_EQ(uncompress(raw.data(), &raw_size,
                       reinterpret_cast<const Bytef*>(chunks[1].data.data()),
                       chunks[1].data.size()),
            Z_OK);
  ASSERT_EQ(raw_size, static_cast<uLongf>(height * (width + 1)));
  for (int y = 0; y < height; ++y) {
    EXPECT_EQ(raw[y * (width + 1)], 0) << "filter byte of row " << y;
    for (int x = 0; x < width; ++x) {
      EXPECT_EQ(raw[y * (width + 1) + 1 + x], pixels[y * width + x]) << y << ", " << x;
    }
  }

  // IEND is empty, and its CRC is the constant AE 42 60 82 of every PNG file.
  EXPECT_EQ(chunks[2].type, "IEND");
  EXPECT_TRUE(chunks[2].data.empty());
  EXPECT_EQ(chunks[2].crc, 0xAE426082u);
}

TEST(PngWriterTest, DeterministicAndOnePixel) {
  const std::vector<uint8_t> pixel = {200};
  EXPECT_EQ(EncodeGrayscalePng(1, 1, pixel), EncodeGrayscalePng(1, 1, pixel));
  EXPECT_EQ(ParseChunks(EncodeGrayscalePng(1, 1, pixel)).size(), 3u);
}

TEST(PngWriterDeathTest, ChecksSizes) {
  const std::vector<uint8_t> pixels(6);
  EXPECT_DEATH(EncodeGrayscalePng(2, 2, pixels), "EncodeGrayscalePng: 2 x 2 image with 6");
  EXPECT_DEATH(EncodeGrayscalePng(0, 6, pixels), "EncodeGrayscalePng");
}

}  // namespace
}  // namespace sgmcmc::data
