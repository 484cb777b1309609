#include "tools/dp_mixture_run.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "data/embedded_msweb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(DpMixtureRunTest, MethodsAndOptions) {
  EXPECT_EQ(ParseDpMethod("gibbs").value(), DpMethod::kGibbs);
  EXPECT_THAT(ParseDpMethod("hmc").status().message(), HasSubstr("scir, sgrld or gibbs"));
  DpExperimentOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.burn_in_fraction = 1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("burn_in_fraction"));
  options = DpExperimentOptions();
  const models::DpStochasticOptions sgrld = DpMethodOptions(DpMethod::kSgrld, 3, options);
  EXPECT_EQ(sgrld.sampler, models::DpSimplexSampler::kSgrld);
  EXPECT_EQ(sgrld.atom_step, 0.001);
  EXPECT_EQ(sgrld.model.seed, 3u);
}

// Short runs of every method on the embedded subset: the trace has one point per evaluation,
// the running average starts after burn-in, identical seeds give identical traces (timings
// aside), the outputs are written.
TEST(DpMixtureRunTest, RunsEveryMethodAndWritesOutputs) {
  const data::EmbeddedMsweb msweb = data::LoadEmbeddedMsweb().value();
  DpExperimentOptions options;
  options.iterations = 40;
  options.eval_every = 10;
  options.minibatch_size = 500;
  std::vector<DpRunResult> runs;
  for (DpMethod method : {DpMethod::kScir, DpMethod::kSgrld, DpMethod::kGibbs}) {
    DpRunResult run = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 1, options,
                                 nullptr, nullptr)
                          .value();
    ASSERT_EQ(run.trace.size(), 4u);
    EXPECT_EQ(run.burn_in, 20);
    EXPECT_EQ(run.alpha_draws.size(), 20u);
    // Before burn-in the running value is the draw's own.
    EXPECT_EQ(run.trace[0].running_log_predictive, run.trace[0].log_predictive);
    for (const DpTracePoint& p : run.trace) {
      EXPECT_TRUE(std::isfinite(p.log_predictive));
      EXPECT_LT(p.log_predictive, 0);
      EXPECT_GE(p.components, p.occupied);
      EXPECT_GE(p.occupied, 1);
    }
    DpRunResult again = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 1, options,
                                   nullptr, nullptr)
                            .value();
    EXPECT_EQ(again.final_point().running_log_predictive,
              run.final_point().running_log_predictive);
    EXPECT_EQ(again.occupied_draws, run.occupied_draws);
    runs.push_back(std::move(run));
  }
  const std::string table = DpSummaryTable(runs);
  EXPECT_THAT(table, HasSubstr("SCIR above SGRLD in log predictive for"));
  EXPECT_THAT(table, HasSubstr("gibbs  mean log predictive"));

  const std::string dir = absl::StrCat(testing::TempDir(), "/dp_out");
  ASSERT_TRUE(WriteDpOutputs(runs, dir).ok());
  const std::string trace = ReadFile(dir + "/trace.csv");
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 3 * 4);
  EXPECT_THAT(ReadFile(dir + "/draws_scir_seed1.csv"), HasSubstr("lp__,alpha,occupied,components"));
  EXPECT_EQ(ReadFile(dir + "/runs.txt"), "scir\nsgrld\ngibbs\n");
}

}  // namespace
}  // namespace sgmcmc::tools
