#include "tools/hamcmc_stiff_direction.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/linear_regression_types.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;

// With every pair skipped H_t = gamma I, so the curvature ratio is 1 / (gamma (lambda_1 +
// lambda)) at every step and the stiff gain eps_t gamma lambda_1 falls with eps_t; with the
// pairs, H_t differs along v from step to step.
TEST(HamcmcStiffDirectionTest, MeasuresTheInverseHessianAlongTheStiffDirection) {
  LinearRegressionOptions options;
  options.seed = 3;
  options.iterations = 2000;
  options.dimensions = {3};
  options.eval_every = 10;
  options.a_hamcmc = 0.1;
  options.hamcmc_lambda = 2;
  options.hamcmc_gamma = 0.5;
  options.hamcmc_curvature_threshold = 0.999999;
  const absl::StatusOr<HamcmcStiffDirection> skipped =
      DiagnoseHamcmcStiffDirection(options, 3, LinearRegressionMethod::kHamcmc2);
  ASSERT_TRUE(skipped.ok()) << skipped.status();
  EXPECT_EQ(skipped->steps, 2000 - 4);
  EXPECT_EQ(skipped->diverged_at, 0);
  const double gamma = 0.5 * options.noise_variance / options.num_items;
  const double ratio = 1 / (gamma * (skipped->stiff_eigenvalue + 2));
  for (int q = 0; q < 5; ++q) EXPECT_NEAR(skipped->ratio[q], ratio, 1e-12 * ratio) << q;
  // The 1% quantile is the gain of a step t in (1900, 2000].
  const double gain_per_eps = gamma * skipped->stiff_eigenvalue;
  EXPECT_GE(skipped->stiff_gain[0], std::pow(0.1 / 2000, 0.51) * gain_per_eps * (1 - 1e-12));
  EXPECT_LE(skipped->stiff_gain[0], std::pow(0.1 / 1900, 0.51) * gain_per_eps);
  EXPECT_GT(skipped->stiff_eigenvalue, 10 * skipped->bulk_eigenvalue);
  EXPECT_TRUE(std::isfinite(skipped->final_error));

  options.hamcmc_curvature_threshold = 1e-10;
  const absl::StatusOr<HamcmcStiffDirection> used =
      DiagnoseHamcmcStiffDirection(options, 3, LinearRegressionMethod::kHamcmc3);
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_EQ(used->steps, 2000 - 6);
  EXPECT_LT(used->ratio[0], used->ratio[4]);
  for (int q = 0; q + 1 < 5; ++q) {
    EXPECT_LE(used->stiff_gain[q], used->stiff_gain[q + 1]);
    EXPECT_LE(used->alignment[q], used->alignment[q + 1]);
  }
  EXPECT_GE(used->overshoot_fraction, 0);
  EXPECT_LE(used->overshoot_fraction, 1);
  EXPECT_THAT(HamcmcStiffDirectionTable({*skipped, *used}), HasSubstr("D = 3 HAMCMC (M=3)"));
  EXPECT_EQ(DiagnoseHamcmcStiffDirection(options, 3, LinearRegressionMethod::kSgld).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Issue 15's mechanism at D = 100, rho = 0.9 (one eigenvalue ~9000, the others ~11): the
// pairs often miss the stiff direction v, so H_t = gamma I along v at some steps (the ratio's
// 1% quantile sits at the floor 1 / (gamma (lambda_1 + lambda))); with the tuned gamma = 0.1
// sigma^2/N no step overshoots along v after the first ones, while gamma = 1 sigma^2/N
// overshoots on the poorly aligned pairs and diverges within the first steps.
TEST(HamcmcStiffDirectionTest, PairsMissTheStiffDirectionSoGammaMustBeSmall) {
  LinearRegressionOptions options;
  options.iterations = 2000;
  options.dimensions = {100};
  const absl::StatusOr<HamcmcStiffDirection> tuned =
      DiagnoseHamcmcStiffDirection(options, 100, LinearRegressionMethod::kHamcmc2);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  EXPECT_EQ(tuned->diverged_at, 0);
  EXPECT_GT(tuned->stiff_eigenvalue, 500 * tuned->bulk_eigenvalue);
  const double gamma = tuned->tuning.gamma * options.noise_variance / options.num_items;
  const double floor = 1 / (gamma * (tuned->stiff_eigenvalue + tuned->tuning.lambda));
  EXPECT_NEAR(tuned->ratio[0], floor, 0.05 * floor);
  EXPECT_LT(tuned->alignment[2], 1);  // the median pair is less aligned with v than at random
  EXPECT_LT(tuned->overshoot_fraction, 0.01);
  EXPECT_LT(tuned->bulk_progress, 0.1 * tuned->sgrld_progress);

  options.hamcmc_gamma = 1;
  const absl::StatusOr<HamcmcStiffDirection> large =
      DiagnoseHamcmcStiffDirection(options, 100, LinearRegressionMethod::kHamcmc2);
  ASSERT_TRUE(large.ok()) << large.status();
  EXPECT_GT(large->diverged_at, 0);
  EXPECT_LT(large->diverged_at, 100);
  EXPECT_GT(large->overshoot_fraction_low_alignment, large->overshoot_fraction_high_alignment);
  EXPECT_FALSE(std::isfinite(large->final_error));
}

// A NaN --hamcmc_lambda was taken for "not given" and ran the tuned lambda silently; a chain
// that diverges before the first measured step printed quantiles of 0.
TEST(HamcmcStiffDirectionTest, RejectsNanSettingsAndPrintsNoQuantilesWithoutSteps) {
  LinearRegressionOptions options;
  options.iterations = 200;
  options.dimensions = {5};
  options.hamcmc_lambda = std::nan("");
  const absl::StatusOr<HamcmcStiffDirection> nan_lambda =
      DiagnoseHamcmcStiffDirection(options, 5, LinearRegressionMethod::kHamcmc2);
  EXPECT_EQ(nan_lambda.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(nan_lambda.status().message(),
              HasSubstr("hamcmc_lambda must be finite and >= 0 (0: the tuned default), got nan"));

  options.hamcmc_lambda = 0;
  options.a_hamcmc = 1e300;
  const absl::StatusOr<HamcmcStiffDirection> diverged =
      DiagnoseHamcmcStiffDirection(options, 5, LinearRegressionMethod::kHamcmc2);
  ASSERT_TRUE(diverged.ok()) << diverged.status();
  ASSERT_EQ(diverged->steps, 0);
  EXPECT_THAT(HamcmcStiffDirectionTable({*diverged}),
              HasSubstr("  ratio           -          -          -          -          -\n"));
}

}  // namespace
}  // namespace sgmcmc::tools
