#include "data/idx_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "zlib.h"

namespace sgmcmc::data {
namespace {

constexpr uint8_t kUnsignedByte = 0x08;
constexpr int kMaxDimensions = 8;
constexpr uint32_t kImagesMagic = 0x00000803;
constexpr uint32_t kLabelsMagic = 0x00000801;

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};

// The whole decompressed contents of `path`.
absl::StatusOr<std::string> ReadDecompressed(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory, not an IDX file"));
  }
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  }
  // The first read asks for the file's size plus one byte (a plain file then ends on the second
  // read without a second large block; a gzip file's contents are larger, and each block that
  // comes back full doubles the next), 4 KiB to 1 MiB: a fixed 1 MiB block per read made small
  // files cost two fresh 1 MiB zero-filled buffers each.
  constexpr size_t kMinBlock = 4096, kMaxBlock = size_t{1} << 20;
  const std::uintmax_t file_size = std::filesystem::file_size(path, error);
  size_t block = error ? kMinBlock
                       : static_cast<size_t>(std::clamp<std::uintmax_t>(file_size + 1, kMinBlock,
                                                                        kMaxBlock));
  std::string contents;
  while (true) {
    const size_t old_size = contents.size();
    contents.resize(old_size + block);
    const int read = gzread(file.get(), &contents[old_size], static_cast<unsigned>(block));
    if (read < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      return absl::DataLossError(
          absl::StrCat(path, ": byte ", old_size, ": corrupt gzip stream: ", message));
    }
    contents.resize(old_size + static_cast<size_t>(read));
    if (static_cast<size_t>(read) == block) block = std::min(2 * block, kMaxBlock);
    if (read == 0) {
      // gzread returns 0 at the end and on a truncated stream; gzerror tells them apart.
      int code = Z_OK;
      const char* message = gzerror(file.get(), &code);
      if (code != Z_OK) {
        return absl::DataLossError(absl::StrCat(path, ": byte ", old_size,
                                                ": truncated or corrupt gzip stream: ", message));
      }
      return contents;
    }
  }
}

uint32_t BigEndian32(const std::string& bytes, size_t offset) {
  uint32_t value = 0;
  for (int k = 0; k < 4; ++k) value = (value << 8) | static_cast<uint8_t>(bytes[offset + k]);
  return value;
}

absl::Status ParseError(const std::string& path, size_t offset, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": byte ", offset, ": ", what));
}

absl::StatusOr<IdxArray> ParseIdx(const std::string& path, const std::string& bytes,
                                  const IdxLimits& limits) {
  if (bytes.size() < 4) {
    return ParseError(path, bytes.size(),
                      absl::StrCat("truncated header: expected a 4-byte magic number, file has ",
                                   bytes.size(), " bytes"));
  }
  const uint32_t magic = BigEndian32(bytes, 0);
  if ((magic >> 16) != 0) {
    return ParseError(path, 0,
                      absl::StrFormat("bad magic number 0x%08x: an IDX file starts with two "
                                      "zero bytes",
                                      magic));
  }
  const uint8_t type = static_cast<uint8_t>(bytes[2]);
  if (type != kUnsignedByte) {
    return ParseError(path, 2,
                      absl::StrFormat("unsupported data type 0x%02x (only 0x08, unsigned byte)",
                                      type));
  }
  const int ndims = static_cast<uint8_t>(bytes[3]);
  if (ndims < 1 || ndims > kMaxDimensions) {
    return ParseError(path, 3,
                      absl::StrCat("number of dimensions ", ndims, " not in [1, ",
                                   kMaxDimensions, "]"));
  }
  const size_t header_size = 4 + 4 * static_cast<size_t>(ndims);
  if (bytes.size() < header_size) {
    return ParseError(path, bytes.size(),
                      absl::StrCat("truncated header: ", ndims, " sizes need ", header_size,
                                   " bytes, file has ", bytes.size()));
  }
  IdxArray array;
  // `items` is the product of the sizes; `extent`, the product with a size of 0 counted as 1,
  // bounds every size and every partial product as well, so an empty array (one size 0) cannot
  // declare items of billions of bytes each (ImagesToCounts sizes its columns by them).
  int64_t items = 1, extent = 1;
  for (int k = 0; k < ndims; ++k) {
    const int64_t size = BigEndian32(bytes, 4 + 4 * k);
    array.sizes.push_back(size);
    const int64_t factor = std::max<int64_t>(size, 1);
    if (extent > limits.max_items / factor) {  // extent * factor > max_items
      return ParseError(path, 4 + 4 * k,
                        absl::StrCat("sizes multiply past IdxLimits.max_items = ",
                                     limits.max_items, " (a size of 0 counted as 1)"));
    }
    extent *= factor;
    items *= size;
  }
  const size_t data_size = bytes.size() - header_size;
  if (data_size < static_cast<size_t>(items)) {
    return ParseError(path, bytes.size(),
                      absl::StrCat("truncated data: sizes need ", items, " bytes after the ",
                                   header_size, "-byte header, file has ", data_size));
  }
  if (data_size > static_cast<size_t>(items)) {
    return ParseError(path, header_size + items,
                      absl::StrCat(data_size - items, " unexpected bytes after the ", items,
                                   " bytes of data"));
  }
  array.data.assign(bytes.begin() + header_size, bytes.end());
  return array;
}

// Reads `path` and checks its magic number and number of dimensions.
absl::StatusOr<IdxArray> ReadIdxWithMagic(const std::string& path, uint32_t expected_magic,
                                          const IdxLimits& limits) {
  SGMCMC_ASSIGN_OR_RETURN(std::string bytes, ReadDecompressed(path));
  if (bytes.size() >= 4 && BigEndian32(bytes, 0) != expected_magic) {
    return ParseError(path, 0,
                      absl::StrFormat("magic number 0x%08x, expected 0x%08x (%s)",
                                      BigEndian32(bytes, 0), expected_magic,
                                      expected_magic == kImagesMagic
                                          ? "images: unsigned bytes, 3 dimensions"
                                          : "labels: unsigned bytes, 1 dimension"));
  }
  return ParseIdx(path, bytes, limits);
}

}  // namespace

absl::StatusOr<IdxArray> ReadIdxFile(const std::string& path, const IdxLimits& limits) {
  SGMCMC_CHECK(limits.max_items > 0) << "ReadIdxFile: IdxLimits.max_items must be > 0";
  SGMCMC_ASSIGN_OR_RETURN(std::string bytes, ReadDecompressed(path));
  return ParseIdx(path, bytes, limits);
}

absl::Span<const uint8_t> IdxImages::image(int64_t i) const {
  SGMCMC_CHECK(i >= 0 && i < count) << "IdxImages::image: index " << i << " not in [0, "
                                    << count << ")";
  const int64_t size = pixels_per_image();
  return absl::MakeConstSpan(pixels).subspan(i * size, size);
}

absl::StatusOr<IdxImages> ReadIdxImages(const std::string& path, const IdxLimits& limits) {
  SGMCMC_ASSIGN_OR_RETURN(IdxArray array, ReadIdxWithMagic(path, kImagesMagic, limits));
  if (array.sizes[1] > (1 << 15) || array.sizes[2] > (1 << 15)) {
    return ParseError(path, 8,
                      absl::StrCat("image of ", array.sizes[1], " x ", array.sizes[2],
                                   " pixels: rows and cols must be at most 32768"));
  }
  IdxImages images;
  images.count = array.sizes[0];
  images.rows = static_cast<int>(array.sizes[1]);
  images.cols = static_cast<int>(array.sizes[2]);
  images.pixels = std::move(array.data);
  return images;
}

absl::StatusOr<std::vector<uint8_t>> ReadIdxLabels(const std::string& path,
                                                   const IdxLimits& limits) {
  SGMCMC_ASSIGN_OR_RETURN(IdxArray array, ReadIdxWithMagic(path, kLabelsMagic, limits));
  return std::move(array.data);
}

absl::Status IdxCountOptions::Validate() const {
  if (max_count < 1 || max_count > 255) {
    return absl::InvalidArgumentError(
        absl::StrCat("IdxCountOptions.max_count must be in [1, 255], got ", max_count));
  }
  return absl::OkStatus();
}

absl::Span<const int32_t> CountMatrix::row(int64_t i) const {
  SGMCMC_CHECK(i >= 0 && i < rows) << "CountMatrix::row: index " << i << " not in [0, "
                                   << rows << ")";
  return absl::MakeConstSpan(counts).subspan(i * cols, cols);
}

CountMatrix ImagesToCounts(const IdxImages& images, const IdxCountOptions& options) {
  const absl::Status valid = options.Validate();
  SGMCMC_CHECK(valid.ok()) << valid;
  CountMatrix matrix;
  matrix.rows = images.count;
  matrix.cols = images.pixels_per_image();
  matrix.counts.resize(images.pixels.size());
  const int levels = options.max_count + 1;
  for (size_t k = 0; k < images.pixels.size(); ++k) {
    matrix.counts[k] = (images.pixels[k] * levels) >> 8;
  }
  return matrix;
}

Corpus CountsToCorpus(const CountMatrix& counts) {
  Corpus corpus;
  corpus.vocabulary.reserve(counts.cols);
  for (int d = 0; d < counts.cols; ++d) corpus.vocabulary.push_back(absl::StrCat("pixel_", d));
  corpus.doc_offsets.reserve(counts.rows + 1);
  corpus.doc_offsets.push_back(0);
  for (int64_t i = 0; i < counts.rows; ++i) {
    const absl::Span<const int32_t> row = counts.row(i);
    for (int d = 0; d < counts.cols; ++d) corpus.tokens.insert(corpus.tokens.end(), row[d], d);
    corpus.doc_offsets.push_back(static_cast<int64_t>(corpus.tokens.size()));
  }
  return corpus;
}

}  // namespace sgmcmc::data
