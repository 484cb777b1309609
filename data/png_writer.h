// A minimal PNG encoder for 8-bit grayscale images (PNG specification, ISO/IEC 15948:2004 /
// W3C "Portable Network Graphics (PNG) Specification (Second Edition)", §5 datastream,
// §11.2.2 IHDR, §11.2.4 IDAT, §11.2.5 IEND): the 8-byte signature, IHDR (bit depth 8, colour
// type 0, no interlace), one IDAT holding the zlib stream of the scanlines, each preceded by
// filter type 0 (None), and IEND; every chunk with its CRC-32 (zlib's crc32). Used to render
// learned mixture features (data/feature_grid.h).
//
// Contract: width, height >= 1 and pixels.size() == width * height, row-major, top row
// first (checked). Deterministic: the same pixels give the same bytes (zlib level 9).
//
// Cost: O(width · height) time and memory.
//
// Example:
//   std::vector<uint8_t> pixels(28 * 28, 255);
//   const std::string png = EncodeGrayscalePng(28, 28, pixels);
//   SGMCMC_RETURN_IF_ERROR(tools::WriteFile(path, png));
#ifndef SGMCMC_DATA_PNG_WRITER_H_
#define SGMCMC_DATA_PNG_WRITER_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace sgmcmc::data {

// The PNG file bytes of a width x height 8-bit grayscale image.
std::string EncodeGrayscalePng(int width, int height, absl::Span<const uint8_t> pixels);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_PNG_WRITER_H_
