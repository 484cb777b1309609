#include "rng/categorical.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/uniform.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

using ::testing::HasSubstr;

// Each chi-squared check fails a correct sampler with probability testing::kFalseFailureRate
// = 1e-6 (every cell expects >= 40 draws, so the chi-squared limit is accurate); this file
// runs 60 of them: false-failure rate < 1e-4 per run (Bonferroni). The zero-weight checks
// are exact (a correct sampler never fails them).

constexpr uint64_t kSeeds[] = {1, 2, 3};
constexpr int kDraws = 100000;

// Weights uniform on [0.5, 1.5) with every fifth entry zero (K >= 2), so each non-zero cell
// expects at least kDraws / (2 K) draws.
std::vector<double> TestWeights(int k, uint64_t seed) {
  Engine engine(seed, 1000 + k);
  std::vector<double> weights(k);
  for (int i = 0; i < k; ++i)
    weights[i] = (k >= 2 && i % 5 == 3) ? 0.0 : UniformDouble(engine, 0.5, 1.5);
  return weights;
}

void ExpectMatchesWeights(const std::vector<int64_t>& draws, const std::vector<double>& weights,
                          const std::string& label) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  const int k = static_cast<int>(weights.size());
  std::vector<int64_t> counts(k, 0);
  for (int64_t d : draws) {
    ASSERT_TRUE(d >= 0 && d < k) << label << ": draw " << d << " out of range";
    ++counts[d];
  }
  for (int i = 0; i < k; ++i) {
    if (weights[i] == 0) {
      EXPECT_EQ(counts[i], 0) << label << ": zero-weight entry " << i << " drawn";
    }
  }
  const auto result = testing::DiscreteChiSquaredTest(
      draws, [&](int64_t i) { return weights[i] / total; }, 0, k - 1);
  EXPECT_TRUE(result.Passed()) << label << " " << result;
}

template <typename Sampler>
std::vector<int64_t> DrawMany(Sampler sample) {
  std::vector<int64_t> draws(kDraws);
  for (int64_t& d : draws) d = sample();
  return draws;
}

std::string Label(int k, uint64_t seed) {
  return "K=" + std::to_string(k) + " seed=" + std::to_string(seed);
}

TEST(CategoricalSampleTest, MatchesWeightsWithAndWithoutTotal) {
  // K = 7 and 1001 exercise the one-at-a-time tail after the four-wide blocks.
  for (int k : {1, 2, 7, 100, 1001}) {
    for (uint64_t seed : kSeeds) {
      const std::vector<double> weights = TestWeights(k, seed);
      const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
      Engine engine(seed);
      ExpectMatchesWeights(DrawMany([&] { return CategoricalSample(engine, weights); }), weights,
                           Label(k, seed));
      ExpectMatchesWeights(DrawMany([&] { return CategoricalSample(engine, weights, total); }),
                           weights, Label(k, seed) + " with total");
    }
  }
}

TEST(CategoricalSampleTest, SameDrawWithAndWithoutTotal) {
  const std::vector<double> weights = TestWeights(50, 4);
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  Engine a(5), b(5);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(CategoricalSample(a, weights), CategoricalSample(b, weights, total));
  }
}

TEST(CategoricalSampleTest, ZeroWeightsAtEdgesNeverDrawn) {
  // Zero weights first, last, and in runs; scanning must not stop on them even when the
  // uniform is at its extremes.
  const std::vector<double> weights = {0, 0, 1e-300, 0, 3, 0, 0, 0, 0, 2, 0};
  Engine engine(6);
  for (int i = 0; i < 100000; ++i) {
    const int d = CategoricalSample(engine, weights);
    ASSERT_TRUE(d == 2 || d == 4 || d == 9) << d;
  }
  // u * total at the largest uniform, 1 - 2^-53, and a total rounded slightly high, land
  // on the last positive weight.
  EXPECT_EQ(CategoricalSample(engine, {{0.0, 1.0, 0.0}}, 1.0 + 1e-15), 1);
}

TEST(LogCategoricalSampleTest, MatchesWeightsIncludingHugeAndTinyLogWeights) {
  for (int k : {1, 2, 7, 100}) {
    for (uint64_t seed : kSeeds) {
      const std::vector<double> weights = TestWeights(k, seed);
      for (double shift : {0.0, -1e5, 1e5}) {
        std::vector<double> log_weights(k);
        for (int i = 0; i < k; ++i) log_weights[i] = std::log(weights[i]) + shift;  // log 0 = -inf
        Engine engine(seed);
        ExpectMatchesWeights(DrawMany([&] { return LogCategoricalSample(engine, log_weights); }),
                             weights, Label(k, seed) + " shift=" + std::to_string(shift));
      }
    }
  }
}

TEST(LogCategoricalSampleTest, WidelySpreadLogWeights) {
  // exp(-1e5 - 1e5) underflows to 0 after max-subtraction: entry 0 is never drawn.
  const std::vector<double> log_weights = {-1e5, 1e5, 1e5 + std::log(3.0)};
  Engine engine(7);
  const std::vector<int64_t> draws =
      DrawMany([&] { return LogCategoricalSample(engine, log_weights); });
  ExpectMatchesWeights(draws, {0.0, 1.0, 3.0}, "spread");
}

TEST(AliasTableTest, MatchesWeights) {
  for (int k : {1, 2, 7, 100, 1000}) {
    for (uint64_t seed : kSeeds) {
      const std::vector<double> weights = TestWeights(k, seed);
      const absl::StatusOr<AliasTable> table = AliasTable::Create(weights);
      ASSERT_TRUE(table.ok()) << table.status();
      EXPECT_EQ(table->size(), k);
      Engine engine(seed);
      ExpectMatchesWeights(DrawMany([&] { return table->Sample(engine); }), weights,
                           Label(k, seed));
    }
  }
}

TEST(AliasTableTest, SkewedWeightsAndZerosNeverDrawn) {
  // One dominant weight, many tiny ones and zeros: Vose's pairing must not hand mass to
  // the zeros. 1e-12-weight entries are drawn with total probability ~1e-10: never here.
  std::vector<double> weights(1000, 1e-12);
  for (int i = 0; i < 1000; i += 3) weights[i] = 0;
  weights[500] = 1;
  weights[501] = 2;
  const absl::StatusOr<AliasTable> table = AliasTable::Create(weights);
  ASSERT_TRUE(table.ok()) << table.status();
  Engine engine(8);
  std::vector<int64_t> draws = DrawMany([&] { return table->Sample(engine); });
  std::vector<int64_t> as_binary(draws.size());
  for (size_t i = 0; i < draws.size(); ++i) {
    ASSERT_TRUE(draws[i] == 500 || draws[i] == 501) << draws[i];
    as_binary[i] = draws[i] - 500;
  }
  const auto result = testing::DiscreteChiSquaredTest(
      as_binary, [](int64_t i) { return i == 0 ? 1.0 / 3 : 2.0 / 3; }, 0, 1);
  EXPECT_TRUE(result.Passed()) << result;
}

TEST(AliasTableTest, CreateRejectsInvalidWeights) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<double> weights;
    std::string message;
  };
  const Case cases[] = {
      {{}, "weights must not be empty"},
      {{1, -0.5, 2}, "weights[1] must be finite and >= 0, got -0.5"},
      {{1, 2, nan}, "weights[2] must be finite and >= 0, got nan"},
      {{inf}, "weights[0] must be finite and >= 0, got inf"},
      {{0, 0, 0}, "all 3 weights are zero"},
      {{1e308, 1e308}, "the sum of the weights overflows"},
  };
  for (const Case& c : cases) {
    const absl::StatusOr<AliasTable> table = AliasTable::Create(c.weights);
    ASSERT_FALSE(table.ok());
    EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(table.status().message(), HasSubstr("AliasTable::Create: " + c.message));
  }
}

// Stream stability: the first draws for seed 42 are pinned for each sampler.
TEST(CategoricalTest, PinnedDraws) {
  const std::vector<double> weights = {0.5, 0, 2, 1, 0.25, 3, 0.1};
  std::vector<double> log_weights;
  for (double w : weights) log_weights.push_back(std::log(w));
  const absl::StatusOr<AliasTable> table = AliasTable::Create(weights);
  ASSERT_TRUE(table.ok());
  Engine engine(42);
  std::vector<int> got;
  for (int i = 0; i < 4; ++i) got.push_back(CategoricalSample(engine, weights));
  for (int i = 0; i < 4; ++i) got.push_back(LogCategoricalSample(engine, log_weights));
  for (int i = 0; i < 4; ++i) got.push_back(table->Sample(engine));
  const std::vector<int> expected = {3, 2, 2, 3, 5, 5, 5, 3, 3, 5, 2, 0};
  EXPECT_EQ(got, expected);
}

TEST(CategoricalDeathTest, RejectsInvalidArguments) {
  Engine engine(1);
  const std::vector<double> empty;
  EXPECT_DEATH(CategoricalSample(engine, empty), "CategoricalSample: weights must not be empty");
  EXPECT_DEATH(CategoricalSample(engine, {{1.0, -2.0}}),
               "CategoricalSample: weights\\[1\\] must be finite and >= 0, got -2");
  EXPECT_DEATH(CategoricalSample(engine, {{std::nan("")}}),
               "CategoricalSample: weights\\[0\\] must be finite and >= 0, got nan");
  EXPECT_DEATH(CategoricalSample(engine, {{0.0, 0.0}}),
               "CategoricalSample: weights must have a finite positive sum, got 0");
  EXPECT_DEATH(CategoricalSample(engine, {{1e308, 1e308}}),
               "CategoricalSample: weights must have a finite positive sum, got inf");
  EXPECT_DEATH(CategoricalSample(engine, {{1.0}}, 0.0),
               "CategoricalSample: total must be finite and > 0, got 0");
  EXPECT_DEATH(CategoricalSample(engine, empty, 1.0),
               "CategoricalSample: weights must not be empty");
  EXPECT_DEATH(LogCategoricalSample(engine, empty),
               "LogCategoricalSample: log_weights must not be empty");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DEATH(LogCategoricalSample(engine, {{0.0, inf}}),
               "LogCategoricalSample: log_weights\\[1\\] must be < \\+inf and not NaN, got inf");
  EXPECT_DEATH(LogCategoricalSample(engine, {{std::nan("")}}),
               "LogCategoricalSample: log_weights\\[0\\] .* got nan");
  EXPECT_DEATH(LogCategoricalSample(engine, {{-inf, -inf}}),
               "LogCategoricalSample: log_weights must not all be -inf");
}

#ifndef NDEBUG
TEST(CategoricalDeathTest, DebugBuildsCheckTotalAgainstWeights) {
  Engine engine(1);
  // A total far above the sum makes the scan run off the end.
  EXPECT_DEATH(
      {
        for (int i = 0; i < 100; ++i) CategoricalSample(engine, {{1.0, 1.0}}, 10.0);
      },
      "CategoricalSample: total 10 exceeds the sum of the weights");
  EXPECT_DEATH(CategoricalSample(engine, {{1.0, -1.0, 5.0}}, 5.0),
               "CategoricalSample: weights\\[1\\] is -1");
  EXPECT_DEATH(CategoricalSample(engine, {{1.0, 2.0, -1.0, 5.0, 1.0}}, 8.0),
               "CategoricalSample: negative weight among weights\\[0..3\\]");
}
#endif

}  // namespace
}  // namespace sgmcmc::rng
