#include "samplers/minibatch.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::samplers {
namespace {

TEST(MinibatchTest, IdsAreDistinctAndInRange) {
  for (const auto& [n_items, n] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {10, 1}, {10, 9}, {100, 37}, {1000, 999}, {130, 64}}) {
    Minibatch minibatch = *Minibatch::Create(n_items, n);
    rng::Engine engine(5, n_items);
    for (int draw = 0; draw < 200; ++draw) {
      const absl::Span<const int64_t> batch = minibatch.Draw(engine);
      ASSERT_EQ(batch.size(), n);
      std::set<int64_t> ids(batch.begin(), batch.end());
      ASSERT_EQ(ids.size(), n) << "duplicate id, N = " << n_items << ", n = " << n;
      ASSERT_GE(*ids.begin(), 0);
      ASSERT_LT(*ids.rbegin(), n_items);
    }
  }
}

TEST(MinibatchTest, FullBatchIsEveryItemAndUsesNoRandomness) {
  Minibatch minibatch = *Minibatch::Create(5, 5);
  EXPECT_TRUE(minibatch.full_batch());
  rng::Engine engine(1);
  const absl::Span<const int64_t> batch = minibatch.Draw(engine);
  EXPECT_EQ(std::vector<int64_t>(batch.begin(), batch.end()),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(engine.position(), 0u);
}

// Every 2-subset of {0, ..., 5} must be equally likely (15 cells): a chi-squared test at the
// project's false-failure rate 1e-6. Then the same for 3-subsets of {0, ..., 6} (35 cells).
TEST(MinibatchTest, SubsetsAreUniform) {
  for (const auto& [n_items, n] : std::vector<std::pair<int, int>>{{6, 2}, {7, 3}}) {
    // Rank every n-subset by its bitmask among the masks with n bits set.
    std::vector<int> rank(1 << n_items, -1);
    int num_subsets = 0;
    for (int mask = 0; mask < (1 << n_items); ++mask) {
      if (__builtin_popcount(mask) == n) rank[mask] = num_subsets++;
    }
    Minibatch minibatch = *Minibatch::Create(n_items, n);
    rng::Engine engine(11, n);
    std::vector<int64_t> draws(200000);
    for (int64_t& d : draws) {
      int mask = 0;
      for (int64_t id : minibatch.Draw(engine)) mask |= 1 << id;
      d = rank[mask];
    }
    const testing::TestResult result = testing::DiscreteChiSquaredTest(
        draws, [&](int64_t) { return 1.0 / num_subsets; }, 0, num_subsets - 1);
    EXPECT_TRUE(result.Passed()) << result;
  }
}

// Each id of a large population is included with probability n/N: a z-test on the
// inclusion count of a few ids (binomial variance), false-failure rate 1e-6 each.
TEST(MinibatchTest, InclusionProbability) {
  const int64_t n_items = 100000, n = 1000;
  Minibatch minibatch = *Minibatch::Create(n_items, n);
  rng::Engine engine(3);
  const int64_t watched[] = {0, 1, 50000, n_items - n - 1, n_items - n, n_items - 1};
  const int draws = 20000;
  std::vector<std::vector<double>> included(std::size(watched), std::vector<double>(draws));
  for (int d = 0; d < draws; ++d) {
    const absl::Span<const int64_t> batch = minibatch.Draw(engine);
    for (size_t w = 0; w < std::size(watched); ++w) {
      included[w][d] = std::find(batch.begin(), batch.end(), watched[w]) != batch.end();
    }
  }
  const double p = static_cast<double>(n) / n_items;
  for (size_t w = 0; w < std::size(watched); ++w) {
    const testing::TestResult result = testing::MeanZTest(included[w], p, p * (1 - p));
    EXPECT_TRUE(result.Passed()) << "id " << watched[w] << ": " << result;
  }
}

TEST(MinibatchTest, ReproducibleFromEnginePosition) {
  Minibatch a = *Minibatch::Create(1000, 10);
  Minibatch b = *Minibatch::Create(1000, 10);
  rng::Engine engine_a(9, 2);
  for (int i = 0; i < 7; ++i) a.Draw(engine_a);
  rng::Engine engine_b(9, 2);
  engine_b.Seek(engine_a.position());
  for (int i = 0; i < 5; ++i) {
    const absl::Span<const int64_t> x = a.Draw(engine_a);
    const std::vector<int64_t> copy(x.begin(), x.end());
    const absl::Span<const int64_t> y = b.Draw(engine_b);
    ASSERT_EQ(copy, std::vector<int64_t>(y.begin(), y.end()));
  }
}

// Stream stability: a change in these ids is a change of every chain's minibatches.
TEST(MinibatchTest, PinnedDraw) {
  Minibatch minibatch = *Minibatch::Create(1000, 5);
  rng::Engine engine(42);
  const absl::Span<const int64_t> batch = minibatch.Draw(engine);
  EXPECT_EQ(std::vector<int64_t>(batch.begin(), batch.end()),
            (std::vector<int64_t>{466, 339, 326, 453, 658}));
}

TEST(MinibatchTest, InvalidArguments) {
  EXPECT_EQ(Minibatch::Create(0, 1).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(Minibatch::Create(10, 0).status().message().find("batch_size"), std::string::npos);
  EXPECT_NE(Minibatch::Create(10, 11).status().message().find("batch_size"), std::string::npos);
}

}  // namespace
}  // namespace sgmcmc::samplers
