#include "data/feature_grid.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "data/png_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

TEST(FeatureGridTest, LaysOutTilesScaledByTheirMaximum) {
  // Two 2 x 2 features; 2 columns (ceil(sqrt(2))), border 1 of gray 9, scale 1:
  // 7 x 4 pixels. Feature 0 = (0, 1, 2, 4) / 7 -> 255 (0, 1/4, 1/2, 1) rounded; feature 1 = 0.
  const std::vector<double> weights = {0, 1 / 7.0, 2 / 7.0, 4 / 7.0, 0, 0, 0, 0};
  FeatureGridOptions options;
  options.scale = 1;
  options.border = 1;
  options.background = 9;
  const absl::StatusOr<GrayImage> image = RenderFeatureGrid(weights, 2, 2, options);
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->width, 7);
  EXPECT_EQ(image->height, 4);
  const std::vector<uint8_t> expected = {
      9, 9,   9,   9, 9, 9, 9,  //
      9, 0,   64,  9, 0, 0, 9,  //
      9, 128, 255, 9, 0, 0, 9,  //
      9, 9,   9,   9, 9, 9, 9,
  };
  EXPECT_THAT(image->pixels, ElementsAreArray(expected));
}

TEST(FeatureGridTest, ScaleColumnsAndUnusedCells) {
  const std::vector<double> weights(3 * 4 * 2, 0.5);  // three 4 x 2 features, all white
  FeatureGridOptions options;
  options.columns = 2;
  options.scale = 3;
  options.border = 2;
  const absl::StatusOr<GrayImage> image = RenderFeatureGrid(weights, 4, 2, options);
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->width, 2 * (2 * 3 + 2) + 2);
  EXPECT_EQ(image->height, 2 * (4 * 3 + 2) + 2);
  auto at = [&](int x, int y) { return image->pixels[y * image->width + x]; };
  EXPECT_EQ(at(2, 2), 255);                          // first tile's corner
  EXPECT_EQ(at(2 + 5, 2 + 11), 255);                 // its last enlarged pixel
  EXPECT_EQ(at(2 + 6, 2), 128);                      // the border after it
  EXPECT_EQ(at(2 + 8 + 2, 2 + 14 + 2), 128);         // the unused fourth cell
  EXPECT_EQ(at(2, 2 + 14), 255);                     // third tile, second grid row
}

TEST(FeatureGridTest, RejectsBadInput) {
  FeatureGridOptions options;
  EXPECT_THAT(RenderFeatureGrid(std::vector<double>(5), 2, 2, options).status().message(),
              HasSubstr("5 weights are not a positive multiple of 2 x 2"));
  EXPECT_FALSE(RenderFeatureGrid({}, 2, 2, options).ok());
  EXPECT_THAT(RenderFeatureGrid({0.1, -0.2, 0.3, 0.4}, 2, 2, options).status().message(),
              HasSubstr("feature 0, pixel 1"));
  EXPECT_THAT(RenderFeatureGrid({0.1, 0.2, 0.3, NAN}, 2, 2, options).status().message(),
              HasSubstr("pixel 3"));
  options.scale = 0;
  EXPECT_THAT(RenderFeatureGrid({1, 1, 1, 1}, 2, 2, options).status().message(),
              HasSubstr("FeatureGridOptions.scale"));
}

TEST(FeatureGridTest, PngEncodesTheRenderedGrid) {
  std::vector<double> weights(2 * 28 * 28);
  for (size_t k = 0; k < weights.size(); ++k) weights[k] = std::fmod(k * 0.37, 1.0);
  const FeatureGridOptions options;
  const absl::StatusOr<GrayImage> image = RenderFeatureGrid(weights, 28, 28, options);
  const absl::StatusOr<std::string> png = FeatureGridPng(weights, 28, 28, options);
  ASSERT_TRUE(image.ok() && png.ok());
  EXPECT_EQ(*png, EncodeGrayscalePng(image->width, image->height, image->pixels));
}

}  // namespace
}  // namespace sgmcmc::data
