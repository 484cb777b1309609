#include "tools/sam_experiment.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "eval/ess.h"
#include "eval/kernel_stein_discrepancy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "samplers/geodesic_toys.h"
#include "testing/file_testing.h"
#include "tools/checkpoint_file.h"
#include "tools/sam_checkpoint.pb.h"

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

// `files` without the lines holding wall-clock times (CmdStan's "Elapsed Time" footer).
OutputFiles WithoutTimes(OutputFiles files) {
  for (auto& [name, text] : files) {
    std::string kept;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (!absl::StrContains(line, " seconds (")) absl::StrAppend(&kept, line, "\n");
    }
    text = std::move(kept);
  }
  return files;
}

// Rows of draws (lines not starting with '#' after the header row) of a CmdStan CSV.
int DrawRows(const std::string& csv) {
  int rows = -1;  // the header
  for (absl::string_view line : absl::StrSplit(csv, '\n', absl::SkipEmpty())) {
    if (line[0] != '#') ++rows;
  }
  return rows;
}

// The KSD reference for exact samplers. For n independent exact draws the V statistic has
// E[n KSD^2] = E_p k0(x, x) (eval/kernel_stein_discrepancy.h), and n KSD^2 converges to a
// Gaussian quadratic form sum_j lambda_j Z_j^2 with that mean; for such forms Szekely &
// Bakirov (2003, Probab. Theory Relat. Fields 126) show P(Q >= x E Q) <= P(chi^2_1 >= x) at
// every level <= 0.215, so P(n KSD^2 > 23.93 E_p k0) <= 1e-6 (chi^2_1's upper 1e-6 quantile).
// A stationary chain's draws give a quadratic form with covariance at most tau times the
// identity (tau the integrated autocorrelation time in draws), hence the bound
//   KSD <= sqrt(tau * 23.93 * E_p k0(x, x) / n)
// at a false-failure rate of 1e-6, with tau = n / ESS (eval/ess.h: the smallest ESS of the
// chain's angles, their cosines and sines; estimated from the CSV's every 10th draw, which
// can only lower it). A biased sampler adds its KSD^2 of the limit, which does not shrink
// with n.
constexpr double kChiSquaredOneQuantile = 23.928;  // P(chi^2_1 > q) = 1e-6

// E_p k0(x, x) over a product of circles, k0(x, x) = SphereDrawsKsd({x})^2 (the V statistic
// of one draw), by the midpoint rule on a grid of `grid` angles per circle; `log_density`
// of the angles up to a constant.
template <typename LogDensity>
double ExpectedSteinDiagonal(const samplers::SpherePotentialModel& model, int circles, int grid,
                             LogDensity log_density) {
  const double width = 2 * M_PI / grid;
  std::vector<int> index(circles, 0);
  std::vector<double> angles(circles), point(2 * circles), log_weights, diagonals;
  while (true) {
    for (int c = 0; c < circles; ++c) {
      angles[c] = -M_PI + (index[c] + 0.5) * width;
      point[2 * c] = std::cos(angles[c]);
      point[2 * c + 1] = std::sin(angles[c]);
    }
    const double ksd = SphereDrawsKsd(model, point).value();
    log_weights.push_back(log_density(angles));
    diagonals.push_back(ksd * ksd);
    int c = 0;
    while (c < circles && ++index[c] == grid) index[c++] = 0;
    if (c == circles) break;
  }
  const double max_log = *std::max_element(log_weights.begin(), log_weights.end());
  double mass = 0, sum = 0;
  for (size_t i = 0; i < log_weights.size(); ++i) {
    const double w = std::exp(log_weights[i] - max_log);
    mass += w;
    sum += w * diagonals[i];
  }
  return sum / mass;
}

// The draws' rows (after the header) of a CmdStan CSV, comma-separated numbers.
std::vector<std::vector<double>> CsvDraws(const std::string& csv) {
  std::vector<std::vector<double>> rows;
  bool header = true;
  for (absl::string_view line : absl::StrSplit(csv, '\n', absl::SkipEmpty())) {
    if (line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<double> row;
    for (absl::string_view field : absl::StrSplit(line, ',')) {
      double value = 0;
      EXPECT_TRUE(absl::SimpleAtod(field, &value)) << line;
      row.push_back(value);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The smallest ESS of the angles in `columns` of `rows`, their cosines and sines, scaled
// by `thin` (the CSV holds every thin-th of the KSD's draws).
double SmallestAngleEss(const std::vector<std::vector<double>>& rows,
                        const std::vector<int>& columns, int thin) {
  double ess = std::numeric_limits<double>::infinity();
  for (const int column : columns) {
    std::vector<double> angle, cosine, sine;
    for (const std::vector<double>& row : rows) {
      angle.push_back(row[column]);
      cosine.push_back(std::cos(row[column]));
      sine.push_back(std::sin(row[column]));
    }
    for (const std::vector<double>* series : {&angle, &cosine, &sine}) {
      ess = std::min(ess, eval::EffectiveSampleSize(*series) * thin);
    }
  }
  return ess;
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
  // Infinite concentrations and steps reached the variate generators' CHECKs (abort).
  for (double SamOptions::*field : {&SamOptions::kappa, &SamOptions::sigma, &SamOptions::kappa0,
                                    &SamOptions::alpha, &SamOptions::theta_step,
                                    &SamOptions::step, &SamOptions::gmc_step}) {
    options = SamOptions();
    options.*field = std::numeric_limits<double>::infinity();
    EXPECT_THAT(options.Validate().message(), HasSubstr("must be finite, got inf"));
  }
  options = SamOptions();
  options.num_topics = 100000;  // K x K Gram matrices: bad_alloc
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("num_topics must be <= 4096, got 100000"));
  options = SamOptions();
  options.num_threads = 100000;  // std::system_error (abort) starting the threads
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("num_threads must be in [1, 1024], got 100000"));
  // Empty lists ran nothing and exited 0.
  options = SamOptions();
  options.methods.clear();
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("methods must name at least one method"));
  options = SamOptions();
  options.experiments.clear();
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("experiments must name at least one experiment"));
  // The samplers' checks named StepSizeOptions.h and GeodesicSamplerOptions.friction, and
  // only once the sam experiment had loaded its data.
  options = SamOptions();
  options.step = 0;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("step must be finite and > 0, got 0"));
  options = SamOptions();
  options.friction = -1;
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("friction must be finite and > 0, got -1"));
  options = SamOptions();
  options.inner_steps = 0;
  EXPECT_EQ(options.Validate(), absl::InvalidArgumentError("inner_steps must be >= 1, got 0"));
  options = SamOptions();
  options.gmc_step = -1;
  EXPECT_EQ(options.Validate(),
            absl::InvalidArgumentError("gmc_step must be finite and > 0, got -1"));
  options = SamOptions();
  options.eval_every = 0;
  EXPECT_EQ(RunSamToy(options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunSamSynthetic(options).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LoadSamData(options).status().code(), absl::StatusCode::kInvalidArgument);
}

// Training and held-out files over different vocabularies ran silently (Eigen products of
// mismatched sizes), and an empty file (D = 0) divided by zero or failed a CHECK.
TEST(SamDataTest, RejectsMismatchedOrEmptyTfidfFiles) {
  const std::string train = testing::WriteTestFile("train.data", "4 2\n1 0 0:1\n1 0 3:1\n");
  const std::string test5 = testing::WriteTestFile("test5.data", "5 1\n1 0 4:1\n");
  const std::string empty = testing::WriteTestFile("empty.data", "4 0\n");
  SamOptions options = ShortOptions();
  options.train = train;
  options.test = test5;
  EXPECT_EQ(LoadSamData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(
                test5, ":1: V = 5, but the training file ", train, " has V = 4")));
  options.test = empty;
  EXPECT_EQ(LoadSamData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(empty, ":1: no documents (D = 0)")));
  options.train = empty;
  options.test = train;
  EXPECT_EQ(LoadSamData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(empty, ":1: no documents (D = 0)")));
  SamData data;
  data.train.resize(4, 2);
  data.test.resize(5, 1);
  EXPECT_EQ(RunSamPerplexity(ShortOptions(), data).status().code(),
            absl::StatusCode::kInvalidArgument);
  data.test.resize(4, 0);
  EXPECT_EQ(RunSamPerplexity(ShortOptions(), data).status().code(),
            absl::StatusCode::kInvalidArgument);
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
  }
  // Every draw (2000 < kSamKsdDraws), and as many exact ones.
  EXPECT_EQ(result->ksd_draws, options.toy_iterations);
}

// The toy's KSDs against the exact sampler's range (see kChiSquaredOneQuantile): n = 10^4
// draws (every iteration), the iid exact draws within the bound at tau = 1, each chain within
// it at its own tau (ESS from the CSV's every 10th draw). Measured: SGGMC 0.045, gSGNHT 0.046
// (bounds 0.35, 0.26; the iid exact draws 0.019, sqrt(E k0 / n) 0.024). Planted in SGGMC:
// ignoring the gradient-noise estimate (6x temperature) gives 0.34 > 0.22 and fails; a 2x
// temperature (0.10) is within the range at this n.
TEST(SamToyTest, KsdWithinTheExactSamplersRange) {
  SamOptions options = ShortOptions();
  options.toy_iterations = 10000;
  const absl::StatusOr<SamToyResult> result = RunSamToy(options);
  ASSERT_TRUE(result.ok()) << result.status();
  const int n = result->ksd_draws;
  ASSERT_EQ(n, options.toy_iterations);
  const double diagonal =
      ExpectedSteinDiagonal(samplers::ToyCircle(), 1, 2001, [](const std::vector<double>& a) {
        return std::log(samplers::ToyCircle::AngleDensity(a[0]));
      });
  const double iid_bound = std::sqrt(kChiSquaredOneQuantile * diagonal / n);
  EXPECT_LT(result->ksd_exact, iid_bound);
  const int thin = 10 * n / options.toy_iterations;
  for (int which = 0; which < 2; ++which) {
    const double ess =
        std::min<double>(n, SmallestAngleEss(CsvDraws(result->draws_csv[which]), {3}, thin));
    const double bound = std::sqrt(n / ess) * iid_bound;
    EXPECT_LT(result->ksd[which], bound) << "sampler " << which << ", ESS " << ess;
    std::cout << "toy sampler " << which << ": KSD " << result->ksd[which] << ", ESS " << ess
              << ", bound " << bound << " (exact iid draws: " << result->ksd_exact
              << ", sqrt(E k0 / n) " << std::sqrt(diagonal / n) << ")\n";
  }
}

// SphereDrawsKsd is the sphere KSD with the score -grad U: on the toy circle against the
// score written out, kappa (e1 mu1 + 2 e2 mu2) / (e1 + 2 e2) with e_i = exp(kappa mu_i'x)
// (a flipped sign or a stochastic gradient would differ by far more than rounding).
TEST(SphereDrawsKsdTest, UsesTheExactScoreAndTheColumnMajorLayout) {
  const double kappa = samplers::ToyCircle::kKappa;
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
  const absl::StatusOr<double> got = SphereDrawsKsd(samplers::ToyCircle(), draws);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_NEAR(*got, want, 1e-12 * want);
  // The two-vMF posterior's 2 x 2 point (v1, v2) is read column by column: v1 = (0.6, 0.8),
  // v2 = (1, 0) (read by rows, (0.6, 1) would be off the circle and refused).
  const samplers::TwoVmfPosterior model(samplers::TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 10, 1),
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
  ASSERT_EQ(files.size(), 4u);
  const char* names[] = {"gmc", "sggmc", "gsgnht"};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(files[i].first, absl::StrCat("sam_synthetic_", names[i], ".csv"));
    EXPECT_THAT(files[i].second, HasSubstr("\nlp__,x.1.1,x.2.1,x.1.2,x.2.2,theta.1,theta.2\n"));
    EXPECT_THAT(files[i].second, HasSubstr(absl::StrCat("algorithm = ", names[i])));
    EXPECT_EQ(DrawRows(files[i].second), 200 / 10);  // synthetic_iterations / 10
  }
  EXPECT_EQ(files[3].first, "sam_synthetic_marginals.csv");
  EXPECT_THAT(files[3].second, StartsWith("angle,exact_v1,gmc_v1,sggmc_v1,gsgnht_v1,exact_v2,"));
  EXPECT_EQ(Lines(files[3].second), 1 + kSamAngleBins);
  // Densities over (-π, π] integrate to 1.
  const double width = 2 * M_PI / kSamAngleBins;
  for (int c = 0; c < 6; ++c) EXPECT_NEAR(result->histograms.col(c).sum() * width, 1, 1e-9);
  EXPECT_GT(result->exact_mode_fraction, 0);
  EXPECT_LT(result->exact_mode_fraction, 1);
  // The KSDs are comparable: as many draws of SGGMC's 10x longer chain as of the others
  // (was 2000 against 200, a V statistic of another n).
  for (int which = 0; which < 3; ++which) EXPECT_EQ(result->ksd_draws[which], 200) << which;
}

// Each sampler's KSD on the torus within the exact sampler's range at its own
// autocorrelation time (see kChiSquaredOneQuantile; false-failure rate 1e-6 per chain).
// The posterior is the one RunSamSynthetic builds (50 points, seed 2016). Measured: GMC 0.095
// (bound 2.4), SGGMC 0.79 (ESS 98 of 2000: bound 4.7), gSGNHT 0.23 (bound 3.4): SGGMC's KSD,
// 8x GMC's, is what an exact sampler that mixes as slowly would give. The power is limited
// by that slow mixing: planted in SGGMC, a flipped potential (KSD 7.6) fails the check, but a
// doubled temperature (1.6), a minibatch gradient not scaled by N / n (4.1) or scaled twice
// (1.3) do not at this run length; the toy check above catches a 6x temperature.
TEST(SamSyntheticTest, KsdWithinTheExactSamplersRange) {
  SamOptions options = ShortOptions();
  options.synthetic_iterations = 2000;
  const absl::StatusOr<SamSyntheticResult> result = RunSamSynthetic(options);
  ASSERT_TRUE(result.ok()) << result.status();
  const samplers::TwoVmfPosterior model(
      samplers::TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 50, 2016), 1.0, 4.0);
  // The score is singular on the line v2 = -v1 (the mean direction (v1 + v2) / |v1 + v2|
  // flips there), where the posterior has almost no mass: odd grids never hit it, and two of
  // them must agree (the line's neighbourhood contributes nothing noticeable).
  const auto log_density = [&model](const std::vector<double>& a) {
    return -model.AnglePotential(a[0], a[1]);
  };
  const double diagonal = ExpectedSteinDiagonal(model, 2, 151, log_density);
  const double coarse = ExpectedSteinDiagonal(model, 2, 101, log_density);
  EXPECT_NEAR(coarse, diagonal, 0.02 * diagonal);
  for (int which = 0; which < 3; ++which) {
    const int n = result->ksd_draws[which];
    ASSERT_EQ(n, 2000);
    const double ess = std::min<double>(
        n, SmallestAngleEss(CsvDraws(result->draws_csv[which]), {5, 6}, /*thin=*/10));
    const double bound = std::sqrt(n / ess * kChiSquaredOneQuantile * diagonal / n);
    EXPECT_LT(result->ksd[which], bound) << "sampler " << which << ", ESS " << ess;
    std::cout << "synthetic sampler " << which << ": KSD " << result->ksd[which] << ", ESS "
              << ess << ", bound " << bound << " (sqrt(E k0 / n) " << std::sqrt(diagonal / n)
              << ")\n";
  }
}

TEST(SamPerplexityTest, OneRowPerMethodAndEvaluation) {
  SamOptions options = ShortOptions();
  options.methods = {"sggmc", "gmc_bgibbs"};
  options.beta_thin = 5;
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
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].first, "sam_beta_sggmc.csv");
  EXPECT_EQ(files[1].first, "sam_beta_gmc_bgibbs.csv");
  for (int i = 0; i < 2; ++i) {
    // V = 50, K = 4: 200 columns beta.i.k, column-major; (20 - 10) / 5 kept draws.
    EXPECT_THAT(files[i].second, HasSubstr("\nlp__,beta.1.1,beta.2.1,"));
    EXPECT_THAT(files[i].second, HasSubstr(",beta.50.1,beta.1.2,"));
    EXPECT_THAT(files[i].second, HasSubstr(",beta.50.4\n"));
    EXPECT_THAT(files[i].second, HasSubstr("num_warmup = 10\n"));
    EXPECT_EQ(DrawRows(files[i].second), 2);
  }
  EXPECT_EQ(files[2].first, "sam_perplexity.csv");
  EXPECT_THAT(files[2].second, StartsWith("method,iteration,seconds,log_perplexity\nsggmc,10,"));
  EXPECT_EQ(Lines(files[2].second), 5);
}

// --inner_steps is the samplers' L (it had no flag: the authors' settings use 10): another
// chain than L = 1, the same for the same L, and a checkpoint of one L does not resume the
// other.
TEST(SamPerplexityTest, InnerStepsReachTheSamplers) {
  SamOptions options = ShortOptions();
  options.methods = {"sggmc", "gsgnht"};
  options.beta_thin = 0;
  const absl::StatusOr<SamData> data = LoadSamData(options);
  ASSERT_TRUE(data.ok()) << data.status();
  const absl::StatusOr<SamPerplexityResult> one = RunSamPerplexity(options, *data);
  options.inner_steps = 3;
  const absl::StatusOr<SamPerplexityResult> three = RunSamPerplexity(options, *data);
  const absl::StatusOr<SamPerplexityResult> again = RunSamPerplexity(options, *data);
  ASSERT_TRUE(one.ok() && three.ok() && again.ok());
  ASSERT_EQ(one->rows.size(), 4u);
  ASSERT_EQ(three->rows.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NE(one->rows[i].log_perplexity, three->rows[i].log_perplexity) << i;
    EXPECT_EQ(again->rows[i].log_perplexity, three->rows[i].log_perplexity) << i;
  }
  const std::string dir = ::testing::TempDir() + "/inner_steps";
  std::filesystem::create_directories(dir);
  options.output_dir = dir;
  options.methods = {"sggmc"};
  options.stop_after = 10;
  ASSERT_TRUE(RunSamPerplexity(options, *data).ok());
  options.stop_after = 0;
  options.resume = true;
  options.inner_steps = 1;
  const absl::Status status = RunSamPerplexity(options, *data).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("inner_steps=3"));
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
  EXPECT_EQ(WithoutTimes(SamSyntheticOutputFiles(*c)), WithoutTimes(SamSyntheticOutputFiles(*d)));
  for (int which = 0; which < 3; ++which) EXPECT_EQ(c->ksd[which], d->ksd[which]);
  const absl::StatusOr<SamData> data = LoadSamData(options);
  ASSERT_TRUE(data.ok());
  const absl::StatusOr<SamPerplexityResult> e = RunSamPerplexity(options, *data),
                                             f = RunSamPerplexity(options, *data);
  ASSERT_TRUE(e.ok() && f.ok());
  ASSERT_EQ(e->rows.size(), f->rows.size());
  for (size_t i = 0; i < e->rows.size(); ++i) {
    EXPECT_EQ(e->rows[i].log_perplexity, f->rows[i].log_perplexity);
  }
  // The θ_d GMC runs on 2 threads: the same draws and perplexities, bit for bit.
  options.num_threads = 2;
  options.beta_thin = 2;
  options.methods = {"gsgnht", "gmc_bgibbs"};
  const absl::StatusOr<SamPerplexityResult> two = RunSamPerplexity(options, *data);
  options.num_threads = 1;
  const absl::StatusOr<SamPerplexityResult> one = RunSamPerplexity(options, *data);
  ASSERT_TRUE(one.ok() && two.ok());
  ASSERT_EQ(one->rows.size(), two->rows.size());
  for (size_t i = 0; i < one->rows.size(); ++i) {
    EXPECT_EQ(one->rows[i].log_perplexity, two->rows[i].log_perplexity);
  }
  EXPECT_EQ(WithoutTimes(one->beta_csv), WithoutTimes(two->beta_csv));
  // Another seed, other draws.
  options.seed = 4;
  const absl::StatusOr<SamToyResult> g = RunSamToy(options);
  ASSERT_TRUE(g.ok());
  EXPECT_NE(SamToyOutputFiles(*g)[2], SamToyOutputFiles(*a)[2]);
}

// Reads dir/sam_checkpoint_<method>.pb with its wall-clock seconds cleared.
SamRunCheckpoint ReadCheckpoint(const std::string& dir, const std::string& method) {
  SamRunCheckpoint checkpoint;
  const std::string path = absl::StrCat(dir, "/sam_checkpoint_", method, ".pb");
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  EXPECT_TRUE(checkpoint.ParseFromString(UnframeCheckpoint(path, "sam", bytes.str()).value()))
      << dir << " " << method;
  checkpoint.set_seconds(0);
  for (SamRunCheckpoint::Row& row : *checkpoint.mutable_rows()) row.set_seconds(0);
  return checkpoint;
}

SamOptions CheckpointOptions(const std::string& dir) {
  SamOptions options = ShortOptions();
  options.iterations = 20;
  options.burn_in = 6;
  options.eval_every = 5;
  options.beta_thin = 3;
  options.checkpoint_every = 4;
  options.output_dir = dir;
  std::filesystem::create_directories(dir);
  return options;
}

// Every method, run straight through and interrupted twice (after iterations 7 and 13, i.e.
// between checkpoints, with θ sampling, the perplexity average and β draws under way):
// the same rows, β draws and final checkpoint (sampler, model θ state, perplexity sums),
// bit for bit, wall-clock seconds aside.
TEST(SamCheckpointTest, InterruptedAndResumedRunIsBitIdentical) {
  const std::string root = ::testing::TempDir() + "/sam_checkpoint";
  const absl::StatusOr<SamData> data = LoadSamData(CheckpointOptions(root));
  ASSERT_TRUE(data.ok());
  for (const std::string method : {"sggmc", "gsgnht_full", "gmc_bgibbs"}) {
    SamOptions straight = CheckpointOptions(absl::StrCat(root, "/straight_", method));
    straight.methods = {method};
    const absl::StatusOr<SamPerplexityResult> a = RunSamPerplexity(straight, *data);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_FALSE(a->stopped);

    SamOptions interrupted = CheckpointOptions(absl::StrCat(root, "/interrupted_", method));
    interrupted.methods = {method};
    interrupted.stop_after = 7;
    const absl::StatusOr<SamPerplexityResult> b = RunSamPerplexity(interrupted, *data);
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_TRUE(b->stopped);
    interrupted.resume = true;
    interrupted.stop_after = 13;
    const absl::StatusOr<SamPerplexityResult> c = RunSamPerplexity(interrupted, *data);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_TRUE(c->stopped);
    EXPECT_EQ(ReadCheckpoint(interrupted.output_dir, method).iteration(), 13);
    interrupted.stop_after = 0;
    const absl::StatusOr<SamPerplexityResult> d = RunSamPerplexity(interrupted, *data);
    ASSERT_TRUE(d.ok()) << d.status();
    ASSERT_FALSE(d->stopped);

    ASSERT_EQ(a->rows.size(), 4u);
    ASSERT_EQ(d->rows.size(), a->rows.size());
    for (size_t i = 0; i < a->rows.size(); ++i) {
      EXPECT_EQ(d->rows[i].iteration, a->rows[i].iteration);
      EXPECT_EQ(d->rows[i].log_perplexity, a->rows[i].log_perplexity) << method << " row " << i;
    }
    // The CSV headers record their directory ("# file = ..."): compare with it masked.
    const auto masked = [](const std::string& text, const std::string& dir) {
      return absl::StrReplaceAll(text, {{dir, "DIR"}});
    };
    ASSERT_EQ(a->beta_csv.size(), 1u);
    ASSERT_EQ(d->beta_csv.size(), 1u);
    EXPECT_EQ(masked(WithoutTimes(d->beta_csv)[0].second, interrupted.output_dir),
              masked(WithoutTimes(a->beta_csv)[0].second, straight.output_dir));
    EXPECT_EQ(DrawRows(a->beta_csv[0].second), (20 - 6) / 3);
    SamRunCheckpoint end_a = ReadCheckpoint(straight.output_dir, method);
    SamRunCheckpoint end_d = ReadCheckpoint(interrupted.output_dir, method);
    EXPECT_EQ(end_a.iteration(), 20);
    EXPECT_EQ(masked(end_d.beta_csv(), interrupted.output_dir),
              masked(end_a.beta_csv(), straight.output_dir));
    end_a.clear_beta_csv();
    end_d.clear_beta_csv();
    EXPECT_EQ(end_d.SerializeAsString(), end_a.SerializeAsString()) << method;
  }
}

// Resuming from a checkpoint that does not fit fails with the file and the reason.
TEST(SamCheckpointTest, ResumeRejectsBadCheckpoints) {
  const std::string dir = ::testing::TempDir() + "/sam_bad_checkpoint";
  SamOptions options = CheckpointOptions(dir);
  options.methods = {"sggmc"};
  options.stop_after = 5;
  const absl::StatusOr<SamData> data = LoadSamData(options);
  ASSERT_TRUE(data.ok());
  ASSERT_TRUE(RunSamPerplexity(options, *data).ok());
  const std::string path = dir + "/sam_checkpoint_sggmc.pb";
  const SamRunCheckpoint good = ReadCheckpoint(dir, "sggmc");
  options.resume = true;
  options.stop_after = 0;
  const auto resume_with = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return RunSamPerplexity(options, *data).status();
  };
  absl::Status status = resume_with("not a proto \xff\xff");
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("sam_checkpoint_sggmc.pb: not a SamRunCheckpoint"));

  SamRunCheckpoint bad = good;
  bad.set_seed(99);
  status = resume_with(bad.SerializeAsString());
  EXPECT_THAT(status.message(), HasSubstr("written by method sggmc seed 99"));

  bad = good;
  bad.mutable_model()->set_theta_draws(0, std::nan(""));
  status = resume_with(bad.SerializeAsString());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("SamTopicModelState: theta_draws[0]"));

  bad = good;
  bad.mutable_model()->mutable_visits()->RemoveLast();
  status = resume_with(bad.SerializeAsString());
  EXPECT_THAT(status.message(), HasSubstr("theta_points / visits have"));

  bad = good;
  bad.mutable_perplexity()->set_num_documents(3);
  bad.mutable_perplexity()->set_draws(1);
  status = resume_with(bad.SerializeAsString());
  EXPECT_THAT(status.message(), HasSubstr("SamPerplexityState: num_documents 3 != 200"));

  bad = good;
  bad.mutable_sampler()->set_x(0, std::numeric_limits<double>::infinity());
  status = resume_with(bad.SerializeAsString());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr(path));

  bad = good;
  bad.set_iteration(21);
  status = resume_with(bad.SerializeAsString());
  EXPECT_THAT(status.message(), HasSubstr("iteration 21 not in [0, 20]"));

  bad = good;
  bad.clear_beta_csv();
  status = resume_with(bad.SerializeAsString());
  EXPECT_THAT(status.message(), HasSubstr("beta_csv does not match --beta_thin"));

  // Other options or data were resumed silently: a chain of neither run.
  options.step *= 2;
  status = resume_with(good.SerializeAsString());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("sam_checkpoint_sggmc.pb: written with different "
                                          "settings or data; checkpoint: method=sggmc"));
  options.step /= 2;
  SamData other = *data;
  other.test.coeffRef(0, 0) += 1;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << good.SerializeAsString();
  EXPECT_EQ(RunSamPerplexity(options, other).status().code(),
            absl::StatusCode::kFailedPrecondition);

  // The good checkpoint still resumes.
  EXPECT_TRUE(resume_with(good.SerializeAsString()).ok());

  // The checkpoint that run wrote, with one bit of its middle byte flipped (inside the
  // serialized state): refused naming the file; it resumed silently with altered state before
  // the checksum.
  testing::FlipMiddleByte(path);
  status = RunSamPerplexity(options, *data).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_EQ(status.message(), path + ": checksum mismatch: the file is damaged");
}

}  // namespace
}  // namespace sgmcmc::tools
