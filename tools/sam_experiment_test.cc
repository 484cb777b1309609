#include "tools/sam_experiment.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "eval/kernel_stein_discrepancy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "models/geodesic_toys.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A short run of every experiment (well under a second each).
SamOptions ShortOptions() {
  SamOptions options;
  options.seed = 3;
  options.iterations = 20;
  options.burn_in = 10;
  options.eval_every = 10;
  options.theta_samples = 5;
  options.toy_iterations = 2000;
  options.synthetic_iterations = 200;
  options.output_dir = "/out";
  return options;
}

int Lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(SamOptionsTest, ValidateNamesTheField) {
  EXPECT_TRUE(SamOptions().Validate().ok());
  SamOptions options;
  options.num_topics = 1;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("num_topics must be >= 2, got 1"));
  options = SamOptions();
  options.sigma = 0;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("sigma must be > 0, got 0"));
  options = SamOptions();
  options.methods = {"sggmc", "nuts"};
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("methods: unknown method nuts"));
  options = SamOptions();
  options.experiments = {"toy", "lda"};
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("experiments: unknown experiment lda"));
  options = SamOptions();
  options.toy_iterations = 9;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("toy_iterations must be >= 10, got 9"));
  options = SamOptions();
  options.train = "a.data";
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("train and test go together"));
  options = SamOptions();
  options.uci_docword = "docword.txt";
  options.test_every = 1;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("test_every must be >= 2"));
  options = SamOptions();
  options.eval_every = 0;
  EXPECT_EQ(RunSamToy(options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunSamSynthetic(options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LoadSamData(options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SamOptionsTest, Wants) {
  SamOptions options;
  options.experiments = {"toy", "sam"};
  EXPECT_TRUE(options.Wants("toy"));
  EXPECT_FALSE(options.Wants("synthetic"));
}

TEST(SamToyTest, OutputStructureAndKsBelowBound) {
  const SamOptions options = ShortOptions();
  const absl::StatusOr<SamToyResult> result = RunSamToy(options);
  ASSERT_TRUE(result.ok()) << result.status();
  const OutputFiles files = SamToyOutputFiles(*result);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].first, "sam_toy_sggmc.csv");
  EXPECT_EQ(files[1].first, "sam_toy_gsgnht.csv");
  EXPECT_EQ(files[2].first, "sam_toy_angles.csv");
  EXPECT_THAT(files[0].second, HasSubstr("\nlp__,x.1,x.2,angle\n"));
  EXPECT_THAT(files[0].second, HasSubstr("/out/sam_toy_sggmc.csv"));
  EXPECT_THAT(files[2].second, StartsWith("angle,exact,sggmc,gsgnht\n"));
  EXPECT_EQ(Lines(files[2].second), 1 + kSamAngleBins);
  for (int which = 0; which < 2; ++which) {
    EXPECT_EQ(result->histogram.col(which).sum(), options.toy_iterations);
    // DKW at a false-failure rate δ = 1e-6, with the chain's n draws counted as n / 20
    // independent ones (integrated autocorrelation time of the angle at most 20 iterations of
    // L = 100 inner steps), plus nothing for the discretisation bias (ε = 0.002 is small):
    // sqrt(log(2 / δ) / (2 n_eff)) = 0.27 at n = 2000. A sampler that does not reach the
    // bimodal exact law (modes of mass 1/3 and 2/3; stuck in one of them) has KS >= ~1/3.
    const double n_eff = options.toy_iterations / 20.0;
    const double bound = std::sqrt(std::log(2 / 1e-6) / (2 * n_eff));
    EXPECT_GT(result->ks[which], 0);
    EXPECT_LT(result->ks[which], bound) << "sampler " << which;
    EXPECT_GT(result->ksd[which], 0);
    EXPECT_TRUE(std::isfinite(result->ksd[which]));
  }
  // Every draw (2000 < kSamKsdDraws), and as many exact ones.
  EXPECT_EQ(result->ksd_draws, options.toy_iterations);
  EXPECT_GT(result->ksd_exact, 0);
}

// SphereDrawsKsd is the sphere KSD with the score -grad U: on the toy circle against the
// score written out, kappa (e1 mu1 + 2 e2 mu2) / (e1 + 2 e2) with e_i = exp(kappa mu_i'x)
// (a flipped sign or a stochastic gradient would differ by far more than rounding).
TEST(SphereDrawsKsdTest, UsesTheExactScoreAndTheColumnMajorLayout) {
  const double kappa = models::ToyCircle::kKappa;
  const double mu[2][2] = {{0.5, std::sqrt(3.0) / 2}, {0.5, -std::sqrt(3.0) / 2}};
  std::vector<double> draws, scores;
  for (int i = 0; i < 300; ++i) {
    const double angle = -3.1 + 0.0207 * i;
    const double x[2] = {std::cos(angle), std::sin(angle)};
    const double e1 = std::exp(kappa * (mu[0][0] * x[0] + mu[0][1] * x[1]));
    const double e2 = std::exp(kappa * (mu[1][0] * x[0] + mu[1][1] * x[1]));
    for (int k = 0; k < 2; ++k) {
      draws.push_back(x[k]);
      scores.push_back(kappa * (e1 * mu[0][k] + 2 * e2 * mu[1][k]) / (e1 + 2 * e2));
    }
  }
  eval::KernelSteinOptions options;
  options.sphere_dimension = 2;
  const double want = eval::KernelSteinDiscrepancy(draws, scores, 2, {}, options)->value();
  const absl::StatusOr<double> got = SphereDrawsKsd(models::ToyCircle(), draws);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_NEAR(*got, want, 1e-12 * want);
  // The two-vMF posterior's 2 x 2 point (v1, v2) is read column by column: v1 = (0.6, 0.8),
  // v2 = (1, 0) (read by rows, (0.6, 1) would be off the circle and refused).
  const models::TwoVmfPosterior model(models::TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 10, 1),
                                      1.0, 4.0);
  const std::vector<double> point = {0.6, 0.8, 1.0, 0.0, 0.0, 1.0, 0.8, -0.6};
  const absl::StatusOr<double> two = SphereDrawsKsd(model, point);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_GT(*two, 0);
  const std::vector<double> off = {0.6, 1.0, 0.8, 0.0};
  EXPECT_FALSE(SphereDrawsKsd(model, off).ok());
}

TEST(SamSyntheticTest, OutputStructure) {
  const absl::StatusOr<SamSyntheticResult> result = RunSamSynthetic(ShortOptions());
  ASSERT_TRUE(result.ok()) << result.status();
  const OutputFiles files = SamSyntheticOutputFiles(*result);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].first, "sam_synthetic_marginals.csv");
  EXPECT_THAT(files[0].second, StartsWith("angle,exact_v1,gmc_v1,sggmc_v1,gsgnht_v1,exact_v2,"));
  EXPECT_EQ(Lines(files[0].second), 1 + kSamAngleBins);
  // Densities over (-π, π] integrate to 1.
  const double width = 2 * M_PI / kSamAngleBins;
  for (int c = 0; c < 6; ++c) EXPECT_NEAR(result->histograms.col(c).sum() * width, 1, 1e-9);
  EXPECT_GT(result->exact_mode_fraction, 0);
  EXPECT_LT(result->exact_mode_fraction, 1);
  // The KSDs are comparable: as many draws of SGGMC's 10x longer chain as of the others
  // (was 2000 against 200, a V statistic of another n).
  for (int which = 0; which < 3; ++which) EXPECT_EQ(result->ksd_draws[which], 200) << which;
}

TEST(SamPerplexityTest, OneRowPerMethodAndEvaluation) {
  SamOptions options = ShortOptions();
  options.methods = {"sggmc", "gmc_bgibbs"};
  const absl::StatusOr<SamData> data = LoadSamData(options);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->train.rows(), 50);
  EXPECT_EQ(data->train.cols(), 500);
  EXPECT_EQ(data->test.cols(), 200);
  const absl::StatusOr<SamPerplexityResult> result = RunSamPerplexity(options, *data);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->rows.size(), 4u);
  EXPECT_EQ(result->rows[0].method, "sggmc");
  EXPECT_EQ(result->rows[1].iteration, 20);
  EXPECT_EQ(result->rows[3].method, "gmc_bgibbs");
  for (const SamPerplexityRow& row : result->rows) EXPECT_TRUE(std::isfinite(row.log_perplexity));
  const OutputFiles files = SamPerplexityOutputFiles(*result);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].first, "sam_perplexity.csv");
  EXPECT_THAT(files[0].second, StartsWith("method,iteration,seconds,log_perplexity\nsggmc,10,"));
  EXPECT_EQ(Lines(files[0].second), 5);
}

TEST(SamExperimentTest, DeterministicForASeed) {
  SamOptions options = ShortOptions();
  options.toy_iterations = 200;
  options.methods = {"gsgnht"};
  const absl::StatusOr<SamToyResult> a = RunSamToy(options), b = RunSamToy(options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->ks[0], b->ks[0]);
  EXPECT_EQ(a->ks[1], b->ks[1]);
  EXPECT_EQ(a->ksd[0], b->ksd[0]);
  EXPECT_EQ(a->ksd[1], b->ksd[1]);
  EXPECT_EQ(a->ksd_exact, b->ksd_exact);
  EXPECT_EQ(SamToyOutputFiles(*a)[2], SamToyOutputFiles(*b)[2]);
  const absl::StatusOr<SamSyntheticResult> c = RunSamSynthetic(options),
                                            d = RunSamSynthetic(options);
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_EQ(SamSyntheticOutputFiles(*c), SamSyntheticOutputFiles(*d));
  for (int which = 0; which < 3; ++which) {
    EXPECT_EQ(c->ksd[which], d->ksd[which]);
    EXPECT_GT(c->ksd[which], 0);
  }
  const absl::StatusOr<SamData> data = LoadSamData(options);
  ASSERT_TRUE(data.ok());
  const absl::StatusOr<SamPerplexityResult> e = RunSamPerplexity(options, *data),
                                             f = RunSamPerplexity(options, *data);
  ASSERT_TRUE(e.ok() && f.ok());
  ASSERT_EQ(e->rows.size(), f->rows.size());
  for (size_t i = 0; i < e->rows.size(); ++i) {
    EXPECT_EQ(e->rows[i].log_perplexity, f->rows[i].log_perplexity);
  }
  // Another seed, other draws.
  options.seed = 4;
  const absl::StatusOr<SamToyResult> g = RunSamToy(options);
  ASSERT_TRUE(g.ok());
  EXPECT_NE(SamToyOutputFiles(*g)[2], SamToyOutputFiles(*a)[2]);
}

}  // namespace
}  // namespace sgmcmc::tools
