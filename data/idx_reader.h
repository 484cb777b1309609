// Reader for the IDX format of MNIST and Fashion-MNIST (LeCun et al., "The MNIST database",
// http://yann.lecun.com/exdb/mnist/; Xiao, Rasul & Vollgraf 2017, "Fashion-MNIST"), plain or
// gzip-compressed, and the conversion of images to count vectors for the multinomial mixtures
// of Zhang, Williamson & Perez-Cruz ("accelerated parallel DP mixture sampler", §4: the image
// data sets are modelled "as counts").
//
// Format: a 4-byte magic {0, 0, type, ndims}, then ndims big-endian uint32 sizes, then the
// product of the sizes in items of `type`, row-major. Only type 0x08 (unsigned byte, the one
// MNIST and Fashion-MNIST use) is supported. Images are magic 0x00000803 (count, rows, cols),
// labels 0x00000801 (count). zlib's gzread reads gzip input and passes plain files through,
// so "train-images-idx3-ubyte" and "train-images-idx3-ubyte.gz" read alike.
//
// Errors: a missing file is NotFound, a directory InvalidArgument ("path: is a directory");
// anything malformed is InvalidArgument (DataLoss for a corrupt or truncated gzip stream)
// with the message "path: byte N: what was expected, what was found", N being the offset in
// the decompressed stream: a wrong magic, an unsupported type or dimension count, truncated
// sizes or data, trailing bytes after the data, a product of sizes (a size of 0 counted as 1)
// beyond IdxLimits::max_items. Sizes are checked against the bytes actually read before
// anything sized by them is allocated.
//
// Counts (ImagesToCounts): pixel intensity p in [0, 255] becomes the count
//   c = floor(p (levels) / 256),   levels = IdxCountOptions::max_count + 1,
// i.e. [0, 256) cut into max_count + 1 equal-width bins numbered 0..max_count. Black pixels
// (p < 256 / levels) contribute nothing, white ones max_count. An image is then the bag of
// N_i = Σ_d c_d "ink quanta" over the rows·cols pixel positions, the multinomial data of the
// paper's eq. (9). max_count = 255 keeps the raw intensities; the paper does not state its
// quantisation, and coarse levels keep N_i (hence the likelihood's sharpness) moderate.
//
// Cost: O(file size) time and memory; ImagesToCounts O(count · rows · cols).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(IdxImages images,
//       ReadIdxImages("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"));
//   SGMCMC_ASSIGN_OR_RETURN(std::vector<uint8_t> labels,
//       ReadIdxLabels("/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz"));
//   IdxCountOptions options;
//   options.max_count = 4;
//   CountMatrix counts = ImagesToCounts(images, options);
//   absl::Span<const int32_t> first = counts.row(0);  // 784 counts
#ifndef SGMCMC_DATA_IDX_READER_H_
#define SGMCMC_DATA_IDX_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/corpus.h"

namespace sgmcmc::data {

// Bounds on what an IDX header may ask for.
struct IdxLimits {
  // Largest product of the sizes (items of data) accepted; > 0. Default 2^31 - 1, far above
  // the 47 M bytes of MNIST's training images.
  int64_t max_items = (int64_t{1} << 31) - 1;
};

// An IDX file of unsigned bytes: sizes and the row-major data.
struct IdxArray {
  std::vector<int64_t> sizes;  // one per dimension, ndims in [1, 8]
  std::vector<uint8_t> data;   // product of sizes bytes
};

// Reads any unsigned-byte IDX file (plain or gzip).
absl::StatusOr<IdxArray> ReadIdxFile(const std::string& path, const IdxLimits& limits = {});

// count images of rows x cols pixels, image i in pixels[i rows cols, (i + 1) rows cols).
struct IdxImages {
  int64_t count = 0;
  int rows = 0;
  int cols = 0;
  std::vector<uint8_t> pixels;

  int pixels_per_image() const { return rows * cols; }
  // Pixels of image i, 0 <= i < count (checked).
  absl::Span<const uint8_t> image(int64_t i) const;
};

// Reads an images file: magic 0x00000803 and three sizes (count, rows, cols), else
// InvalidArgument "path: byte 0: ...".
absl::StatusOr<IdxImages> ReadIdxImages(const std::string& path, const IdxLimits& limits = {});

// Reads a labels file: magic 0x00000801 and one size (count).
absl::StatusOr<std::vector<uint8_t>> ReadIdxLabels(const std::string& path,
                                                   const IdxLimits& limits = {});

// How intensities become counts (see the file comment).
struct IdxCountOptions {
  // Count of a white pixel (255); in [1, 255]. Default 4 (five equal-width intensity bins).
  int max_count = 4;

  absl::Status Validate() const;
};

// A dense rows x cols matrix of non-negative counts, row-major: one row per image.
struct CountMatrix {
  int64_t rows = 0;
  int cols = 0;
  std::vector<int32_t> counts;

  // Counts of row i, 0 <= i < rows (checked).
  absl::Span<const int32_t> row(int64_t i) const;
};

// c = floor(p (max_count + 1) / 256) for every pixel; options must be valid (checked).
CountMatrix ImagesToCounts(const IdxImages& images, const IdxCountOptions& options);

// The count matrix as a bag-of-words corpus for the existing multinomial mixtures
// (models/dp/mixture.h): row i is document i, column d is word d (named "pixel_<d>"), and a
// count c becomes c consecutive tokens d, columns in increasing order.
Corpus CountsToCorpus(const CountMatrix& counts);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_IDX_READER_H_
