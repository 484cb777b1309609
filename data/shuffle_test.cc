#include "data/shuffle.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::data {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAreArray;

TEST(ShuffleTest, IsAPermutation) {
  rng::Engine engine(3);
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), 0);
  const std::vector<int> original = values;
  Shuffle(engine, absl::MakeSpan(values));
  EXPECT_THAT(values, UnorderedElementsAreArray(original));
  EXPECT_NE(values, original);
}

TEST(ShuffleTest, PinnedStream) {
  // Pins the permutation so a change in the engine or the algorithm is a visible diff.
  rng::Engine engine(42);
  std::vector<int> values = {0, 1, 2, 3, 4, 5, 6, 7};
  Shuffle(engine, absl::MakeSpan(values));
  EXPECT_THAT(values, ElementsAre(3, 0, 1, 5, 6, 7, 2, 4));
}

TEST(ShuffleTest, SameSeedSameOrder) {
  std::vector<int> a(100), b(100);
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), 0);
  rng::Engine e1(9, 4), e2(9, 4);
  Shuffle(e1, absl::MakeSpan(a));
  Shuffle(e2, absl::MakeSpan(b));
  EXPECT_EQ(a, b);
}

// All 24 permutations of 4 elements are equally likely: DiscreteChiSquaredTest of the
// permutation's rank against the uniform pmf (23 degrees of freedom), false-failure rate 1e-6
// per seed, three seeds.
TEST(ShuffleTest, PermutationsAreUniform) {
  for (uint64_t seed : {1, 2, 3}) {
    rng::Engine engine(seed);
    std::vector<int64_t> ranks;
    for (int i = 0; i < 48000; ++i) {
      std::vector<int> values = {0, 1, 2, 3};
      Shuffle(engine, absl::MakeSpan(values));
      int64_t rank = 0;  // lexicographic rank: count the permutations that precede it
      std::vector<int> sorted = {0, 1, 2, 3};
      while (sorted != values && std::next_permutation(sorted.begin(), sorted.end())) ++rank;
      ranks.push_back(rank);
    }
    const testing::TestResult result =
        testing::DiscreteChiSquaredTest(ranks, [](int64_t) { return 1.0 / 24; }, 0, 23);
    EXPECT_TRUE(result.Passed()) << result;
  }
}

// The first 3 slots of a partial shuffle of 7 elements hold a uniform random 3-subset (35
// subsets, encoded as a 7-bit mask ranked among the masks with 3 bits), and the remaining
// slots keep the other elements.
TEST(ShuffleTest, PartialShuffleSamplesUniformSubsets) {
  std::vector<int> masks;
  for (int mask = 0; mask < 128; ++mask) {
    if (__builtin_popcount(mask) == 3) masks.push_back(mask);
  }
  ASSERT_EQ(masks.size(), 35u);
  for (uint64_t seed : {5, 6}) {
    rng::Engine engine(seed);
    std::vector<int64_t> ranks;
    for (int i = 0; i < 35000; ++i) {
      std::vector<int> values = {0, 1, 2, 3, 4, 5, 6};
      PartialShuffle(engine, absl::MakeSpan(values), 3);
      std::vector<int> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      ASSERT_EQ(sorted, std::vector<int>({0, 1, 2, 3, 4, 5, 6}));
      const int mask = (1 << values[0]) | (1 << values[1]) | (1 << values[2]);
      ranks.push_back(std::lower_bound(masks.begin(), masks.end(), mask) - masks.begin());
    }
    const testing::TestResult result =
        testing::DiscreteChiSquaredTest(ranks, [](int64_t) { return 1.0 / 35; }, 0, 34);
    EXPECT_TRUE(result.Passed()) << result;
  }
}

TEST(ShuffleDeathTest, CountTooLarge) {
  rng::Engine engine(1);
  std::vector<int> values(3);
  EXPECT_DEATH(PartialShuffle(engine, absl::MakeSpan(values), 4),
               "PartialShuffle: count must be <= values.size\\(\\) = 3, got 4");
}

}  // namespace
}  // namespace sgmcmc::data
