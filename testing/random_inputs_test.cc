#include "testing/random_inputs.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::testing {
namespace {

TEST(RandomInputsTest, SameSeedAndStreamGiveTheSameDraws) {
  RandomInputs a(5, 2), b(5, 2), other_stream(5, 3);
  int differing = 0;
  for (int i = 0; i < 100; ++i) {
    const double x = a.Uniform();
    EXPECT_EQ(x, b.Uniform());
    differing += x != other_stream.Uniform();
  }
  EXPECT_GT(differing, 90);
}

TEST(RandomInputsTest, DrawsStayInTheirRanges) {
  RandomInputs inputs(1);
  for (int i = 0; i < 10000; ++i) {
    const double u = inputs.Uniform(-2, 3);
    EXPECT_GE(u, -2);
    EXPECT_LT(u, 3);
    const int64_t k = inputs.UniformInt(7);
    EXPECT_GE(k, 0);
    EXPECT_LT(k, 7);
  }
}

// Sample mean and variance of 10⁵ normals within 6 standard errors of 0 and 1.
TEST(RandomInputsTest, NormalsHaveStandardMoments) {
  RandomInputs inputs(2);
  std::vector<double> x(100000);
  inputs.FillNormal(absl::MakeSpan(x));
  double sum = 0, sum_squares = 0;
  for (double v : x) {
    sum += v;
    sum_squares += v * v;
  }
  const double n = x.size();
  EXPECT_NEAR(sum / n, 0, 6 / std::sqrt(n));
  EXPECT_NEAR(sum_squares / n, 1, 6 * std::sqrt(2 / n));
  EXPECT_TRUE(std::isfinite(inputs.Normal()));
}

TEST(RandomInputsTest, DiscardSkipsDraws) {
  RandomInputs a(9), b(9);
  a.Uniform();
  b.Discard(1);
  EXPECT_EQ(a.Uniform(), b.Uniform());
}

TEST(RandomInputsDeathTest, ChecksArguments) {
  RandomInputs inputs(1);
  EXPECT_DEATH(inputs.Uniform(1, 1), "need lo < hi");
  EXPECT_DEATH(inputs.UniformInt(0), "n must be >= 1");
}

}  // namespace
}  // namespace sgmcmc::testing
