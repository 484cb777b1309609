#include "rng/log_gamma_table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "boost/math/special_functions/gamma.hpp"
#include "gtest/gtest.h"
#include "rng/internal/variate_testing.h"
#include "testing/distribution_testing.h"

// Every statistical check below fails a correct sampler with probability 1e-6
// (testing::kFalseFailureRate); this file makes 91 of them, so it fails spuriously with
// probability < 1e-4 (Bonferroni).
namespace sgmcmc::rng {
namespace {

using rng_internal::DrawMany;
using rng_internal::ExpectFitsCdf;
using rng_internal::ExpectLogGammaLaw;
using rng_internal::ExpectMoments;
using rng_internal::LogGammaCdf;

constexpr int kDraws = 50000;

std::string Label(double shape, uint64_t seed, int slot_bits) {
  return absl::StrCat("shape=", shape, " seed=", seed, " slot_bits=", slot_bits);
}

// KS + chi-squared (100 bins) + mean + variance of kDraws draws: 4 checks. The cumulants of
// log G are polygamma functions: mean psi(a), variance psi'(a), fourth central moment
// psi'''(a) + 3 psi'(a)^2.
void ExpectLogGammaFits(const LogGammaTable& table, uint64_t seed, int slot_bits) {
  Engine engine(seed, 21);
  const double shape = table.shape();
  const auto draws = DrawMany(kDraws, [&] { return table.Sample(engine); });
  const std::string label = Label(shape, seed, slot_bits);
  ExpectLogGammaLaw(draws, shape, label);
}

// The default table at SCIR's zero-count shapes (β, α < 1/2) and beyond: 6 shapes x 3 seeds
// x 4 checks = 72 checks.
TEST(LogGammaTableTest, MatchesLogGammaCdfAcrossShapesAndSeeds) {
  for (double shape : {1e-4, 0.01, 0.1, 0.3, 0.49, 3.0}) {
    const LogGammaTable table = *LogGammaTable::Create(shape);
    for (uint64_t seed : {1, 2, 3}) ExpectLogGammaFits(table, seed, LogGammaTable::kSlotBits);
  }
}

// A coarse table (4 slots: a base and a top layer per side, at most) sends a large share of
// the trials to the exponential tangent tails and to the exact test of the top layers, and
// rejects often: the tails and the exact acceptance test are exercised heavily. 4 shapes x
// 1 seed x 4 checks = 16 checks.
TEST(LogGammaTableTest, CoarseTableIsStillExact) {
  for (double shape : {1e-4, 0.01, 0.49, 3.0}) {
    const LogGammaTable table = *LogGammaTable::Create(shape, /*slot_bits=*/2);
    ExpectLogGammaFits(table, 4, 2);
  }
}

// Far tails of the default table on the log scale: bins between the quantiles
// 1e-5, 1e-4, ..., 1 - 1e-5 (found by bisection of LogGammaCdf), counts of 2e6 draws against
// the bin probabilities (expected counts from 20 up), one chi-squared check per shape: 2 checks
// (shapes 0.01 and 0.49).
TEST(LogGammaTableTest, FarTailBinsOnTheLogScale) {
  const std::vector<double> probabilities = {1e-5, 1e-4, 1e-3, 1e-2, 0.1,      0.5,
                                             0.9,  0.99, 0.999, 0.9999, 1 - 1e-5};
  for (double shape : {0.01, 0.49}) {
    std::vector<double> edges;
    for (double p : probabilities) {
      double lo = -1e7, hi = 10;
      for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (LogGammaCdf(shape, mid) < p ? lo : hi) = mid;
      }
      edges.push_back(0.5 * (lo + hi));
    }
    const LogGammaTable table = *LogGammaTable::Create(shape);
    Engine engine(5, 22);
    std::vector<int64_t> bins(2000000);
    for (int64_t& bin : bins) {
      const double y = table.Sample(engine);
      bin = std::upper_bound(edges.begin(), edges.end(), y) - edges.begin();
    }
    const auto result = testing::DiscreteChiSquaredTest(
        bins,
        [&](int64_t k) {
          const double lo = k == 0 ? 0 : LogGammaCdf(shape, edges[k - 1]);
          const double hi =
              k == static_cast<int64_t>(edges.size()) ? 1 : LogGammaCdf(shape, edges[k]);
          return hi - lo;
        },
        0, static_cast<int64_t>(edges.size()));
    EXPECT_TRUE(result.Passed()) << "shape=" << shape << ": " << result;
  }
}

// Shapes near the lower limit: the draw -a log G is Exp(1) to double precision (psi(a) ~ -1/a,
// see //rng:gamma_test); every draw finite.
TEST(LogGammaTableTest, TinyShapeIsFiniteAndScalesToExponential) {
  const LogGammaTable table = *LogGammaTable::Create(1e-300);
  Engine engine(6, 23);
  const auto draws = DrawMany(kDraws, [&] {
    const double y = table.Sample(engine);
    EXPECT_TRUE(std::isfinite(y));
    return -1e-300 * y;
  });
  const auto ks = testing::KolmogorovSmirnovTest(draws, [](double x) { return -std::expm1(-x); });
  EXPECT_TRUE(ks.Passed()) << ks;
}

TEST(LogGammaTableTest, SameSeedIsBitIdenticalAndPinned) {
  const LogGammaTable table = *LogGammaTable::Create(0.01);
  Engine a(7), b(7);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(table.Sample(a), table.Sample(b));
  Engine engine(8);
  // Pinned so that a change of the stream consumption is a visible diff.
  const std::vector<double> pinned = {table.Sample(engine), table.Sample(engine),
                                      table.Sample(engine)};
  EXPECT_EQ(pinned, (std::vector<double>{-114.06906109289294, -90.239577912630892,
                                          -181.98457787817014}))
      << absl::StrFormat("%.17g, %.17g, %.17g", pinned[0], pinned[1], pinned[2]);
}

TEST(LogGammaTableTest, SharedTableIsBuiltOnceAndDrawsAsCreate) {
  const auto shared = LogGammaTable::Shared(0.1);
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_EQ(shared->get(), LogGammaTable::Shared(0.1)->get());
  EXPECT_NE(shared->get(), LogGammaTable::Shared(0.2)->get());
  const LogGammaTable created = *LogGammaTable::Create(0.1);
  Engine a(9), b(9);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ((*shared)->Sample(a), created.Sample(b));
  EXPECT_FALSE(LogGammaTable::Shared(-1).ok());
  EXPECT_FALSE(LogGammaTable::Shared(-1).ok());  // a failure is not cached as a table
}

TEST(LogGammaTableTest, RejectsInvalidParameters) {
  for (double shape : {0.0, -1.0, 1e-301, 2e6, std::nan(""), HUGE_VAL}) {
    EXPECT_FALSE(LogGammaTable::Create(shape).ok()) << shape;
  }
  EXPECT_FALSE(LogGammaTable::Create(0.5, 1).ok());
  EXPECT_FALSE(LogGammaTable::Create(0.5, 12).ok());
  const auto status = LogGammaTable::Create(-2).status();
  EXPECT_NE(status.message().find("shape must be in"), std::string::npos) << status;
}

}  // namespace
}  // namespace sgmcmc::rng
