// Renders learned mixture features (probability vectors over the pixels of an image, e.g. the
// θ_k = softmax(η_k) of length 784 of a Fashion-MNIST mixture, Zhang, Williamson &
// Perez-Cruz Figs. 8-20) as one grayscale grid image, and as PNG bytes (data/png_writer.h).
//
// Each feature is drawn as its own image_rows x image_cols tile with intensity
// round(255 · w_d / max_d w_d): scaled by its own largest weight, so a feature's shape shows
// whatever its spread (a θ over 784 pixels has entries ~1e-3). Tiles are laid out row by row,
// `columns` per row (default ceil(sqrt(K))), each pixel enlarged to scale x scale, separated
// and framed by `border` pixels of `background`; unused cells of the last row are background.
//
// Errors: InvalidArgument for invalid options, a weight count that is not K · rows · cols,
// or a negative or non-finite weight (naming the feature and pixel). A feature of all zeros
// renders black.
//
// Cost: O(K · rows · cols · scale²).
//
// Example:
//   std::vector<double> theta;  // K features of 784 probabilities, row-major
//   SGMCMC_ASSIGN_OR_RETURN(std::string png, FeatureGridPng(theta, 28, 28, {}));
//   SGMCMC_RETURN_IF_ERROR(tools::WriteFile(output_dir + "/features.png", png));
#ifndef SGMCMC_DATA_FEATURE_GRID_H_
#define SGMCMC_DATA_FEATURE_GRID_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace sgmcmc::data {

struct FeatureGridOptions {
  // Tiles per grid row; >= 0, 0 = ceil(sqrt(K)). Default 0.
  int columns = 0;
  // Output pixels per image pixel along each axis; in [1, 64]. Default 3.
  int scale = 3;
  // Width in output pixels of the frame between and around tiles; in [0, 64]. Default 2.
  int border = 2;
  // Gray level of the frame and of unused cells. Default 128.
  uint8_t background = 128;

  absl::Status Validate() const;
};

// An 8-bit grayscale image, row-major, top row first.
struct GrayImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;
};

// `weights` holds K = weights.size() / (image_rows · image_cols) >= 1 features, row-major.
absl::StatusOr<GrayImage> RenderFeatureGrid(absl::Span<const double> weights, int image_rows,
                                            int image_cols, const FeatureGridOptions& options);

// RenderFeatureGrid encoded as PNG.
absl::StatusOr<std::string> FeatureGridPng(absl::Span<const double> weights, int image_rows,
                                           int image_cols, const FeatureGridOptions& options);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_FEATURE_GRID_H_
