#include "models/simplex/categorical_dirichlet.h"

#include <cmath>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "math/special_functions.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/scir.h"
#include "samplers/simplex_testing.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::models {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The model ignores the parameters; a stand-in satisfies the interface.
class NoParameters : public samplers::SimplexParameters {
 public:
  int rows() const override { return 1; }
  int cols() const override { return 10; }
  void Simplex(int, absl::Span<double>) const override {}
  void LogSimplex(int, absl::Span<double>) const override {}
};

TEST(CategoricalDirichletTest, PaperExperimentsHaveTheirPosteriors) {
  absl::StatusOr<CategoricalDirichlet> sparse =
      CategoricalDirichlet::Create(CategoricalDirichletOptions::Sparse());
  ASSERT_TRUE(sparse.ok()) << sparse.status();
  EXPECT_EQ(sparse->num_items(), 1000);
  EXPECT_EQ(sparse->dimension(), 10);
  EXPECT_EQ(sparse->num_simplices(), 1);
  EXPECT_THAT(sparse->PriorConcentration(), ElementsAre(0.1));
  EXPECT_THAT(sparse->PosteriorConcentration(),
              ElementsAre(800.1, 100.1, 100.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1));
  absl::StatusOr<CategoricalDirichlet> dense =
      CategoricalDirichlet::Create(CategoricalDirichletOptions::Dense());
  ASSERT_TRUE(dense.ok()) << dense.status();
  EXPECT_EQ(dense->num_items(), 1000);
  // Appendix E.2: Dir[112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1].
  EXPECT_THAT(dense->PosteriorConcentration(),
              ElementsAre(112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1));
}

TEST(CategoricalDirichletTest, CountsItemsOfTheBatchScaledByNOverN) {
  CategoricalDirichletOptions options;
  options.category_counts = {2, 0, 3};  // items 0,1 -> 0; items 2,3,4 -> 2
  const CategoricalDirichlet model = *CategoricalDirichlet::Create(options);
  rng::Engine engine(1);
  samplers::SimplexCounts counts;
  const std::vector<int64_t> batch = {4, 0, 3, 2};
  model.ScaledCounts(engine, batch, NoParameters(), counts);
  ASSERT_EQ(counts.rows(), 1);
  ASSERT_EQ(counts.cols(), 3);
  const samplers::SparseCountsRow row = counts.row(0);
  EXPECT_THAT(std::vector<int32_t>(row.cols.begin(), row.cols.end()), ElementsAre(0, 2));
  EXPECT_THAT(std::vector<double>(row.values.begin(), row.values.end()),
              ElementsAre(5.0 / 4 * 1, 5.0 / 4 * 3));
  EXPECT_DOUBLE_EQ(row.total, 5.0);  // always N
}

// With uniform minibatches without replacement, â_j = α + ĉ_j has mean α + n_j and the
// hypergeometric variance ScaledCountVariance. z-tests over 20000 minibatches, several
// categories, batch sizes and seeds; false-failure rate 1e-6 per test.
TEST(CategoricalDirichletTest, ScaledCountsAreUnbiasedWithTheStatedVariance) {
  const CategoricalDirichlet model =
      *CategoricalDirichlet::Create(CategoricalDirichletOptions::Sparse());
  constexpr int kDraws = 20000;
  for (int64_t batch_size : {1, 10, 100, 500}) {
    for (uint64_t seed : {1u, 2u}) {
      samplers::Minibatch minibatch = *samplers::Minibatch::Create(1000, batch_size);
      rng::Engine engine(seed);
      samplers::SimplexCounts counts;
      std::vector<std::vector<double>> draws(3);
      for (int i = 0; i < kDraws; ++i) {
        model.ScaledCounts(engine, minibatch.Draw(engine), NoParameters(), counts);
        std::vector<double> dense(10);
        counts.ToDense(absl::MakeSpan(dense));
        for (int j = 0; j < 3; ++j) draws[j].push_back(dense[j]);
        // Categories with no data never get counts.
        ASSERT_EQ(std::accumulate(dense.begin() + 3, dense.end(), 0.0), 0.0);
      }
      for (int j = 0; j < 3; ++j) {
        const double n_j = model.options().category_counts[j];
        const double variance = model.ScaledCountVariance(j, batch_size);
        const testing::TestResult mean = testing::MeanZTest(draws[j], n_j, variance);
        EXPECT_TRUE(mean.Passed()) << "n=" << batch_size << " j=" << j << " " << mean;
        // Var of s^2 from the sample fourth moment (asymptotic z-test).
        const testing::TestResult var =
            testing::VarianceZTest(draws[j], variance, samplers::FourthCentralMoment(draws[j]));
        EXPECT_TRUE(var.Passed()) << "n=" << batch_size << " j=" << j << " " << var;
      }
    }
  }
}

// The model driving SCIR end to end: Corollary 4.2 with the model's hypergeometric Var[â]
// (sparse experiment, n = 10: e.g. Var[â_2] = 8919 for n_2 = 100). R = 20000 independent
// chains (rows of one Scir, each fed its own minibatches) run M = 6 steps of h = 0.3 from
// θ_0 = 1. z-tests at false-failure rate 1e-6 for the mean (standard error from the corollary)
// and the variance (standard error from the sample fourth moment, ~1% of Var[θ_M]); the empty
// category (a = 0.1, too heavy-tailed for the variance z-test) is KS-tested on its exact law.
TEST(CategoricalDirichletTest, ScirOnThisModelFollowsCorollary42) {
  const CategoricalDirichlet model =
      *CategoricalDirichlet::Create(CategoricalDirichletOptions::Sparse());
  constexpr int kReplicates = 20000, kSteps = 6, kBatch = 10;
  constexpr double kH = 0.3;
  for (uint64_t seed : {3u, 4u}) {
    samplers::Scir scir =
        *samplers::Scir::Create(samplers::SimplexSamplerOptions{kReplicates, 10, {0.1}, seed});
    samplers::Minibatch minibatch = *samplers::Minibatch::Create(model.num_items(), kBatch);
    rng::Engine engine(seed, /*stream=*/0);
    samplers::SimplexCounts one;
    for (int m = 0; m < kSteps; ++m) {
      std::vector<samplers::SimplexCounts::Triplet> triplets;
      for (int r = 0; r < kReplicates; ++r) {
        model.ScaledCounts(engine, minibatch.Draw(engine), scir, one);
        for (size_t e = 0; e < one.row(0).cols.size(); ++e) {
          triplets.push_back({r, one.row(0).cols[e], one.row(0).values[e]});
        }
      }
      scir.Step(*samplers::SimplexCounts::FromTriplets(kReplicates, 10, std::move(triplets)), kH);
    }
    for (int j : {0, 1, 3}) {  // n_j = 800, 100, 0
      std::vector<double> theta(kReplicates);
      for (int r = 0; r < kReplicates; ++r) theta[r] = std::exp(scir.log_theta(r)[j]);
      const samplers::ScirMoments expected =
          samplers::ScirCorollary42Moments(1.0, 0.1 + model.options().category_counts[j],
                                           model.ScaledCountVariance(j, kBatch), kH, kSteps);
      const testing::TestResult mean = testing::MeanZTest(theta, expected.mean, expected.variance);
      EXPECT_TRUE(mean.Passed()) << "seed " << seed << " j=" << j << " " << mean;
      if (model.options().category_counts[j] > 0) {
        const testing::TestResult var =
            testing::VarianceZTest(theta, expected.variance, samplers::FourthCentralMoment(theta));
        EXPECT_TRUE(var.Passed()) << "seed " << seed << " j=" << j << " " << var;
      } else {
        // n_j = 0: â = α = 0.1 at every step, whose kurtosis (3 + 6/0.1) breaks the variance
        // z-test's normal approximation (rng/gamma_test.cc); the law is exact instead: M CIR
        // steps with a fixed shape are one of time M h, so 2θ_M/(1 − e^{-Mh}) ~
        // χ'²(0.2, 2 e^{-Mh}/(1 − e^{-Mh})) from θ_0 = 1. KS at false-failure rate 1e-6.
        const double t = kH * kSteps, scale = -std::expm1(-t);
        std::vector<double> w(kReplicates);
        for (int r = 0; r < kReplicates; ++r) w[r] = 2 * theta[r] / scale;
        const testing::TestResult ks = testing::KolmogorovSmirnovTest(w, [&](double x) {
          return math::NoncentralChiSquaredCdf(x, 2 * 0.1, 2 * std::exp(-t) / scale);
        });
        EXPECT_TRUE(ks.Passed()) << "seed " << seed << " j=" << j << " " << ks;
      }
    }
  }
}

TEST(CategoricalDirichletTest, FullBatchVarianceIsZero) {
  const CategoricalDirichlet model =
      *CategoricalDirichlet::Create(CategoricalDirichletOptions::Dense());
  EXPECT_EQ(model.ScaledCountVariance(0, 1000), 0.0);
  EXPECT_GT(model.ScaledCountVariance(0, 999), 0.0);
}

TEST(CategoricalDirichletTest, BadOptionsAreRejected) {
  CategoricalDirichletOptions options;
  EXPECT_THAT(options.Validate().message(), HasSubstr(">= 2 categories"));
  options.category_counts = {3, -1};
  EXPECT_THAT(options.Validate().message(), HasSubstr("category_counts[1] must be >= 0"));
  options.category_counts = {0, 0};
  EXPECT_THAT(options.Validate().message(), HasSubstr("total at least 1"));
  options.category_counts = {1, 0};
  options.alpha = 0;
  EXPECT_THAT(options.Validate().message(), HasSubstr("alpha must be finite and > 0"));
  EXPECT_FALSE(CategoricalDirichlet::Create(options).ok());
  options.alpha = 0.5;
  EXPECT_TRUE(options.Validate().ok());
}

TEST(CategoricalDirichletDeathTest, BadArgumentsDie) {
  const CategoricalDirichlet model =
      *CategoricalDirichlet::Create(CategoricalDirichletOptions::Sparse());
  rng::Engine engine(1);
  samplers::SimplexCounts counts;
  EXPECT_DEATH(model.ScaledCounts(engine, {}, NoParameters(), counts), "empty batch");
  EXPECT_DEATH(model.ScaledCountVariance(10, 5), "category 10 outside");
  EXPECT_DEATH(model.ScaledCountVariance(0, 0), "batch_size 0 outside");
}

}  // namespace
}  // namespace sgmcmc::models
