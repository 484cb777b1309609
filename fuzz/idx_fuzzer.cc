// Fuzz target: IDX files (data/idx_reader.h), plain or gzip (first byte), read as any array,
// as images and as labels. Contract: an error naming the file, or sizes whose product is the
// data's length (1 to 8 dimensions, within IdxLimits), images whose pixel count is
// count x rows x cols, labels one per item; and the three readers agree with each other.
#include <cstdint>
#include <string>
#include <vector>

#include "base/check.h"
#include "data/idx_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  if (size == 0) return 0;
  static fuzz::ScratchFile* plain = new fuzz::ScratchFile("images-idx3-ubyte");
  static fuzz::ScratchFile* gzip = new fuzz::ScratchFile("images-idx3-ubyte.gz");
  const absl::string_view bytes = fuzz::AsText(data + 1, size - 1);
  const std::string& path = fuzz::WritePlainOrGzip(data[0], bytes, *plain, *gzip);
  data::IdxLimits limits;
  limits.max_items = 1 << 20;

  const absl::StatusOr<data::IdxArray> array = data::ReadIdxFile(path, limits);
  if (!array.ok()) {
    fuzz::CheckInputError(array.status(), path);
  } else {
    SGMCMC_CHECK(!array->sizes.empty() && array->sizes.size() <= 8);
    int64_t items = 1;
    for (const int64_t s : array->sizes) {
      SGMCMC_CHECK_GE(s, 0);
      items *= s;
      SGMCMC_CHECK_LE(items, limits.max_items);
    }
    SGMCMC_CHECK_EQ(static_cast<int64_t>(array->data.size()), items);
  }

  const absl::StatusOr<data::IdxImages> images = data::ReadIdxImages(path, limits);
  if (!images.ok()) {
    fuzz::CheckInputError(images.status(), path);
  } else {
    SGMCMC_CHECK(array.ok() && array->sizes.size() == 3);
    SGMCMC_CHECK_EQ(images->count, array->sizes[0]);
    SGMCMC_CHECK_EQ(images->rows, array->sizes[1]);
    SGMCMC_CHECK_EQ(images->cols, array->sizes[2]);
    SGMCMC_CHECK(images->pixels == array->data);
    for (int64_t i = 0; i < images->count; ++i) {
      SGMCMC_CHECK_EQ(static_cast<int>(images->image(i).size()), images->pixels_per_image());
    }
    data::IdxCountOptions options;
    const data::CountMatrix counts = data::ImagesToCounts(*images, options);
    SGMCMC_CHECK_EQ(counts.rows, images->count);
    for (const int32_t c : counts.counts) SGMCMC_CHECK(c >= 0 && c <= options.max_count);
    const data::Corpus corpus = data::CountsToCorpus(counts);
    SGMCMC_CHECK(corpus.Validate().ok());
    SGMCMC_CHECK_EQ(corpus.num_documents(), static_cast<int>(images->count));
  }

  const absl::StatusOr<std::vector<uint8_t>> labels = data::ReadIdxLabels(path, limits);
  if (!labels.ok()) {
    fuzz::CheckInputError(labels.status(), path);
  } else {
    SGMCMC_CHECK(array.ok() && array->sizes.size() == 1);
    SGMCMC_CHECK(*labels == array->data);
  }
  return 0;
}
