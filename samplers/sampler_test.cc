// Tests of the chain options shared by every sampler. The state round trips and restore
// validation of the EuclideanSampler base run through Sgld on linear regression, in
// models/regression/linear_regression_sampler_test.cc (samplers do not depend on models).
#include "samplers/sampler.h"

#include "gtest/gtest.h"

namespace sgmcmc::samplers {
namespace {

TEST(SamplerTest, ChainOptionsValidate) {
  ChainOptions options;
  EXPECT_TRUE(options.Validate(1).ok());
  options.batch_size = 2;
  EXPECT_EQ(options.Validate(1).message(), "ChainOptions.batch_size must be in [1, N = 1], got 2");
  options.batch_size = 1;
  options.step_size.h = 0;
  EXPECT_EQ(options.Validate(1).message(), "StepSizeOptions.h must be finite and > 0, got 0");
}

}  // namespace
}  // namespace sgmcmc::samplers
