// Smoke check of data/idx_reader on Debian's dataset-fashion-mnist (tagged manual: it reads
// /usr/share/datasets/fashion-mnist, which the default test suite does not assume).
//   ./bazelw test //data:idx_reader_fashion_mnist_test
// Fashion-MNIST (Xiao, Rasul & Vollgraf 2017): 60,000 training and 10,000 test images of
// 28 x 28 pixels, ten classes of exactly 6,000 and 1,000 images each. The test also renders
// the ten class means of the counts (data/feature_grid.h) to
// $TEST_UNDECLARED_OUTPUTS_DIR/<split>_class_means.png for a look with any PNG viewer.
#include <array>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <cstdint>
#include <string>
#include <vector>

#include "data/feature_grid.h"
#include "data/idx_reader.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

constexpr char kDirectory[] = "/usr/share/datasets/fashion-mnist/";

void CheckSplit(const std::string& split, int64_t count) {
  const absl::StatusOr<IdxImages> images =
      ReadIdxImages(kDirectory + split + "-images-idx3-ubyte.gz");
  ASSERT_TRUE(images.ok()) << images.status()
                           << " (install Debian's dataset-fashion-mnist)";
  const absl::StatusOr<std::vector<uint8_t>> labels =
      ReadIdxLabels(kDirectory + split + "-labels-idx1-ubyte.gz");
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(images->count, count);
  EXPECT_EQ(images->rows, 28);
  EXPECT_EQ(images->cols, 28);
  ASSERT_EQ(static_cast<int64_t>(labels->size()), count);
  std::array<int64_t, 10> per_class = {};
  for (uint8_t label : *labels) {
    ASSERT_LT(label, 10);
    ++per_class[label];
  }
  for (int64_t n : per_class) EXPECT_EQ(n, count / 10);

  const CountMatrix counts = ImagesToCounts(*images, IdxCountOptions());
  int64_t total = 0;
  for (int32_t c : counts.counts) total += c;
  // Mean ink per image at max_count 4; every image has some ink.
  std::cout << split << ": " << count << " images, mean count per image "
            << static_cast<double>(total) / count << "\n";
  std::vector<double> class_means(10 * 784, 0.0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t n = 0;
    for (int d = 0; d < 784; ++d) {
      n += counts.row(i)[d];
      class_means[(*labels)[i] * 784 + d] += counts.row(i)[d];
    }
    ASSERT_GT(n, 0) << "image " << i;
  }
  const absl::StatusOr<std::string> png = FeatureGridPng(class_means, 28, 28, {});
  ASSERT_TRUE(png.ok()) << png.status();
  if (const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    std::ofstream(std::string(dir) + "/" + split + "_class_means.png", std::ios::binary) << *png;
  }
}

TEST(IdxReaderFashionMnistTest, Train) { CheckSplit("train", 60000); }
TEST(IdxReaderFashionMnistTest, Test) { CheckSplit("t10k", 10000); }

}  // namespace
}  // namespace sgmcmc::data
