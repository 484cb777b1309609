#include "rng/uniform.h"

#include <cmath>
#include <memory>
#include <vector>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::rng {
namespace {

TEST(UniformDoubleTest, MatchesUniformDistribution) {
  Engine engine(2024);
  std::vector<double> draws(200000);
  for (double& x : draws) x = UniformDouble(engine);
  auto cdf = [](double x) { return x; };
  const auto ks = testing::KolmogorovSmirnovTest(draws, cdf);
  EXPECT_TRUE(ks.Passed()) << ks;
  const auto chi2 = testing::ChiSquaredQuantileTest(draws, cdf, 200);
  EXPECT_TRUE(chi2.Passed()) << chi2;
  const auto mean = testing::MeanZTest(draws, 0.5, 1.0 / 12);
  EXPECT_TRUE(mean.Passed()) << mean;
}

// Across refill boundaries and from an odd starting position: the same values and the same
// final position as repeated UniformDouble calls; an empty span draws nothing.
TEST(FillUniformDoubleTest, EqualsRepeatedUniformDouble) {
  Engine a(9, 1), b(9, 1);
  EXPECT_EQ(UniformDouble(a), UniformDouble(b));
  for (size_t size : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{1000}}) {
    std::vector<double> filled(size);
    FillUniformDouble(a, absl::MakeSpan(filled));
    for (double u : filled) ASSERT_EQ(u, UniformDouble(b)) << size;
    EXPECT_EQ(a.position(), b.position());
  }
  FillUniformDouble(a, absl::Span<double>());
  EXPECT_EQ(a.position(), b.position());
}

// (k + 1/2) / 2^52 for k = bits >> 12, as the textbook conversion computes it.
double ReferenceUniform(uint64_t bits) {
  return (static_cast<double>(bits >> 12) + 0.5) * 0x1p-52;
}

TEST(UniformDoubleTest, FromBitsEqualsConversionExactly) {
  // The extreme words and their neighbours, then every low-bit pattern of a few high ones.
  EXPECT_EQ(UniformDoubleFromBits(0), 0x1p-53);
  EXPECT_EQ(UniformDoubleFromBits(~uint64_t{0}), 1 - 0x1p-53);
  for (uint64_t bits : {uint64_t{0}, uint64_t{1} << 12, uint64_t{0xFFF}, ~uint64_t{0},
                        ~uint64_t{0} - (uint64_t{1} << 12), uint64_t{1} << 63,
                        (uint64_t{1} << 63) - 1}) {
    EXPECT_EQ(UniformDoubleFromBits(bits), ReferenceUniform(bits)) << bits;
  }
  for (uint64_t high = 0; high < 4096; ++high) {
    for (uint64_t low = 0; low < 64; ++low) {
      const uint64_t bits = (high << 52) | (low << 12) | low;
      ASSERT_EQ(UniformDoubleFromBits(bits), ReferenceUniform(bits)) << bits;
    }
  }
  // And on the engine's own words.
  Engine engine(9), twin(9);
  for (int i = 0; i < 1000000; ++i) {
    ASSERT_EQ(UniformDouble(engine), ReferenceUniform(twin())) << i;
  }
}

TEST(UniformDoubleTest, OpenIntervalEvenAtExtremeWords) {
  // The smallest and largest 52-bit values map strictly inside (0, 1).
  EXPECT_GT(UniformDoubleFromBits(0), 0.0);
  EXPECT_LT(UniformDoubleFromBits(~uint64_t{0}), 1.0);
  Engine engine(3);
  for (int i = 0; i < 100000; ++i) {
    const double u = UniformDouble(engine);
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    ASSERT_TRUE(std::isfinite(std::log(u)));
  }
}

TEST(UniformDoubleTest, Range) {
  Engine engine(4);
  for (int i = 0; i < 1000; ++i) {
    const double x = UniformDouble(engine, -3, 5);
    ASSERT_GT(x, -3);
    ASSERT_LT(x, 5);
  }
}

TEST(UniformIntTest, ChiSquaredOverSmallAndAwkwardRanges) {
  for (uint64_t n : {1ull, 2ull, 7ull, 100ull, 1000ull}) {
    Engine engine(5, n);
    std::vector<int64_t> draws(100 * n + 10000);
    for (auto& d : draws) d = static_cast<int64_t>(UniformInt(engine, n));
    auto pmf = [n](int64_t k) { return 1.0 / n; };
    const auto result = testing::DiscreteChiSquaredTest(draws, pmf, 0, n - 1);
    EXPECT_TRUE(result.Passed()) << "n=" << n << " " << result;
  }
}

TEST(UniformIntTest, HugeRangeHasNoModuloBias) {
  // With n = 3 * 2^62, a modulo reduction would make the lowest third twice as likely.
  const uint64_t n = 3ull << 62;
  Engine engine(6);
  std::vector<int64_t> thirds(30000);
  for (auto& t : thirds) t = static_cast<int64_t>(UniformInt(engine, n) / (1ull << 62));
  auto pmf = [](int64_t) { return 1.0 / 3; };
  EXPECT_TRUE(testing::DiscreteChiSquaredTest(thirds, pmf, 0, 2).Passed());
}

// Stream stability: the first draws of seed 42 are pinned.
TEST(UniformTest, PinnedDraws) {
  Engine engine(42);
  EXPECT_EQ(UniformDouble(engine), ReferenceUniform(0x77f5493b9ceaf053ull));
  Engine other(42);
  other.Discard(1);
  EXPECT_EQ(UniformInt(other, 1000), UniformInt(*std::make_unique<Engine>(engine), 1000));
}

}  // namespace
}  // namespace sgmcmc::rng
