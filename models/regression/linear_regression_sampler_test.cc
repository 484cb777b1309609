// Tests of the EuclideanSampler base (samplers/sampler.h) through Sgld on linear regression:
// state round trips and restore validation.
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "models/regression/linear_regression.h"
#include "models/regression/posterior_moments_testing.h"
#include "samplers/sampler.h"
#include "samplers/sgld.h"

namespace sgmcmc::samplers {
namespace {

std::unique_ptr<Sgld> Make(const GradientModel& model, uint64_t seed) {
  SgldOptions options;
  options.chain.step_size = StepSizeOptions::PolynomialDecay(1e-3, 10, 0.5);
  options.chain.batch_size = 10;
  options.chain.seed = seed;
  options.chain.stream = 3;
  return *Sgld::Create(model, std::vector<double>(model.dimension(), 0.0), options);
}

TEST(SamplerTest, SaveStateRecordsEverything) {
  const models::LinearRegression model = models::TestModel(2, 100, 0.5, 1);
  std::unique_ptr<Sgld> sgld = Make(model, 9);
  for (int m = 0; m < 5; ++m) sgld->Step();
  const SamplerState state = sgld->SaveState();
  EXPECT_EQ(state.sampler(), "sgld");
  EXPECT_EQ(state.dimension(), 2);
  EXPECT_EQ(state.iteration(), 5);
  EXPECT_EQ(state.rng().seed(), 9u);
  EXPECT_EQ(state.rng().stream(), 3u);
  EXPECT_GT(state.rng().position(), 0u);
  EXPECT_EQ(state.theta_size(), 2);
  EXPECT_EQ(state.theta(1), sgld->theta()[1]);
  // h_4 = 1e-3 (1 + 4/10)^-0.5 was the last step.
  EXPECT_DOUBLE_EQ(state.last_step_size(), 1e-3 / std::sqrt(1.4));
}

TEST(SamplerTest, RestoreRejectsForeignOrMalformedStates) {
  const models::LinearRegression model = models::TestModel(2, 100, 0.5, 1);
  std::unique_ptr<Sgld> sgld = Make(model, 9);
  sgld->Step();
  const SamplerState good = sgld->SaveState();
  const std::vector<double> before(sgld->theta().begin(), sgld->theta().end());

  SamplerState bad = good;
  bad.set_sampler("psgld");
  EXPECT_EQ(sgld->RestoreState(bad).message(),
            "SamplerState.sampler is \"psgld\", expected \"sgld\"");
  bad = good;
  bad.set_dimension(3);
  EXPECT_EQ(sgld->RestoreState(bad).message(), "SamplerState.dimension is 3, expected 2");
  bad = good;
  bad.add_theta(1.0);
  EXPECT_EQ(sgld->RestoreState(bad).message(), "SamplerState.theta has length 3, expected 2");
  bad = good;
  bad.set_iteration(-1);
  EXPECT_EQ(sgld->RestoreState(bad).code(), absl::StatusCode::kInvalidArgument);
  // Failed restores changed nothing.
  EXPECT_EQ(std::vector<double>(sgld->theta().begin(), sgld->theta().end()), before);
  EXPECT_EQ(sgld->iteration(), 1);
  EXPECT_TRUE(sgld->RestoreState(good).ok());
}

}  // namespace
}  // namespace sgmcmc::samplers
