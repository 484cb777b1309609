#include "data/png_writer.h"

#include <vector>

#include "base/check.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

void AppendBigEndian32(uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

// Length, type, data, CRC-32 of type and data.
void AppendChunk(const char type[4], const std::string& data, std::string* out) {
  AppendBigEndian32(static_cast<uint32_t>(data.size()), out);
  const size_t type_start = out->size();
  out->append(type, 4);
  out->append(data);
  const uLong crc = crc32(crc32(0L, Z_NULL, 0),
                          reinterpret_cast<const Bytef*>(out->data() + type_start),
                          static_cast<uInt>(4 + data.size()));
  AppendBigEndian32(static_cast<uint32_t>(crc), out);
}

}  // namespace

std::string EncodeGrayscalePng(int width, int height, absl::Span<const uint8_t> pixels) {
  SGMCMC_CHECK(width >= 1 && height >= 1 &&
               pixels.size() == static_cast<size_t>(width) * static_cast<size_t>(height))
      << "EncodeGrayscalePng: " << width << " x " << height << " image with " << pixels.size()
      << " pixels";
  std::string png("\x89PNG\r\n\x1a\n", 8);

  std::string header;
  AppendBigEndian32(static_cast<uint32_t>(width), &header);
  AppendBigEndian32(static_cast<uint32_t>(height), &header);
  header += std::string("\x08\x00\x00\x00\x00", 5);  // depth 8, gray, deflate, filter, no interlace
  AppendChunk("IHDR", header, &png);

  std::vector<uint8_t> scanlines;
  scanlines.reserve(static_cast<size_t>(height) * (width + 1));
  for (int y = 0; y < height; ++y) {
    scanlines.push_back(0);  // filter type None
    const uint8_t* row = pixels.data() + static_cast<size_t>(y) * width;
    scanlines.insert(scanlines.end(), row, row + width);
  }
  uLongf compressed_size = compressBound(static_cast<uLong>(scanlines.size()));
  std::string compressed(compressed_size, '\0');
  const int code = compress2(reinterpret_cast<Bytef*>(&compressed[0]), &compressed_size,
                             scanlines.data(), static_cast<uLong>(scanlines.size()), 9);
  SGMCMC_CHECK(code == Z_OK) << "EncodeGrayscalePng: zlib compress2 failed with " << code;
  compressed.resize(compressed_size);
  AppendChunk("IDAT", compressed, &png);
  AppendChunk("IEND", "", &png);
  return png;
}

}  // namespace sgmcmc::data
