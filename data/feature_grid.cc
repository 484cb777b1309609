#include "data/feature_grid.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "data/png_writer.h"

namespace sgmcmc::data {

absl::Status FeatureGridOptions::Validate() const {
  if (columns < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("FeatureGridOptions.columns must be >= 0, got ", columns));
  }
  if (scale < 1 || scale > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("FeatureGridOptions.scale must be in [1, 64], got ", scale));
  }
  if (border < 0 || border > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("FeatureGridOptions.border must be in [0, 64], got ", border));
  }
  return absl::OkStatus();
}

absl::StatusOr<GrayImage> RenderFeatureGrid(absl::Span<const double> weights, int image_rows,
                                            int image_cols, const FeatureGridOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  if (image_rows < 1 || image_cols < 1 || image_rows > 4096 || image_cols > 4096) {
    return absl::InvalidArgumentError(absl::StrCat("RenderFeatureGrid: image of ", image_rows,
                                                   " x ", image_cols,
                                                   " pixels, expected 1 to 4096 each"));
  }
  const size_t tile = static_cast<size_t>(image_rows) * image_cols;
  if (weights.empty() || weights.size() % tile != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("RenderFeatureGrid: ", weights.size(),
                     " weights are not a positive multiple of ", image_rows, " x ", image_cols));
  }
  const int features = static_cast<int>(weights.size() / tile);
  const int columns = options.columns > 0
                          ? options.columns
                          : static_cast<int>(std::ceil(std::sqrt(static_cast<double>(features))));
  const int grid_rows = (features + columns - 1) / columns;
  const int tile_width = image_cols * options.scale;
  const int tile_height = image_rows * options.scale;
  const int64_t width = int64_t{columns} * (tile_width + options.border) + options.border;
  const int64_t height = int64_t{grid_rows} * (tile_height + options.border) + options.border;
  if (width > (1 << 15) || height > (1 << 15)) {
    return absl::InvalidArgumentError(absl::StrCat("RenderFeatureGrid: grid of ", width, " x ",
                                                   height, " pixels exceeds 32768 x 32768"));
  }
  GrayImage image;
  image.width = static_cast<int>(width);
  image.height = static_cast<int>(height);
  image.pixels.assign(static_cast<size_t>(width) * height, options.background);
  for (int k = 0; k < features; ++k) {
    const absl::Span<const double> w = weights.subspan(k * tile, tile);
    double largest = 0;
    for (size_t p = 0; p < tile; ++p) {
      if (!(w[p] >= 0) || !std::isfinite(w[p])) {
        return absl::InvalidArgumentError(absl::StrCat("RenderFeatureGrid: feature ", k,
                                                       ", pixel ", p, ": weight ", w[p],
                                                       " is not finite and >= 0"));
      }
      largest = std::max(largest, w[p]);
    }
    const int left = options.border + (k % columns) * (tile_width + options.border);
    const int top = options.border + (k / columns) * (tile_height + options.border);
    for (int y = 0; y < tile_height; ++y) {
      uint8_t* out = image.pixels.data() + static_cast<size_t>(top + y) * width + left;
      const double* row = w.data() + static_cast<size_t>(y / options.scale) * image_cols;
      for (int x = 0; x < tile_width; ++x) {
        const double v = largest > 0 ? row[x / options.scale] / largest : 0.0;
        out[x] = static_cast<uint8_t>(std::lround(255 * v));
      }
    }
  }
  return image;
}

absl::StatusOr<std::string> FeatureGridPng(absl::Span<const double> weights, int image_rows,
                                           int image_cols, const FeatureGridOptions& options) {
  SGMCMC_ASSIGN_OR_RETURN(GrayImage image,
                          RenderFeatureGrid(weights, image_rows, image_cols, options));
  return EncodeGrayscalePng(image.width, image.height, image.pixels);
}

}  // namespace sgmcmc::data
