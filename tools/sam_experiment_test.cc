#include "tools/sam_experiment.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

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
  }
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

TEST(SamExperimentTest, DeterministicForASeed) {
  SamOptions options = ShortOptions();
  options.toy_iterations = 200;
  options.methods = {"gsgnht"};
  const absl::StatusOr<SamToyResult> a = RunSamToy(options), b = RunSamToy(options);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->ks[0], b->ks[0]);
  EXPECT_EQ(a->ks[1], b->ks[1]);
  EXPECT_EQ(SamToyOutputFiles(*a)[2], SamToyOutputFiles(*b)[2]);
  const absl::StatusOr<SamSyntheticResult> c = RunSamSynthetic(options),
                                            d = RunSamSynthetic(options);
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_EQ(WithoutTimes(SamSyntheticOutputFiles(*c)),
            WithoutTimes(SamSyntheticOutputFiles(*d)));
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

}  // namespace
}  // namespace sgmcmc::tools
