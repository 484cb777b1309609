#include "eval/autocovariance.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::eval {
namespace {

std::vector<double> Direct(const std::vector<double>& x) {
  const size_t n = x.size();
  double mean = 0;
  for (double v : x) mean += v;
  mean /= n;
  std::vector<double> acov(n);
  for (size_t k = 0; k < n; ++k) {
    double s = 0;
    for (size_t t = 0; t + k < n; ++t) s += (x[t] - mean) * (x[t + k] - mean);
    acov[k] = s / n;
  }
  return acov;
}

TEST(AutocovarianceTest, MatchesDirectSum) {
  for (size_t n : {1, 2, 3, 7, 64, 65, 1000}) {
    rng::Engine engine(n);
    std::vector<double> x(n);
    rng::FillNormal(engine, absl::MakeSpan(x));
    for (size_t t = 1; t < n; ++t) x[t] += 0.8 * x[t - 1];  // correlated
    const std::vector<double> fft = Autocovariance(x);
    const std::vector<double> direct = Direct(x);
    ASSERT_EQ(fft.size(), n);
    for (size_t k = 0; k < n; ++k) {
      ASSERT_NEAR(fft[k], direct[k], 1e-12 * (1 + std::abs(direct[0]))) << "n " << n << " k " << k;
    }
  }
}

TEST(AutocovarianceTest, HandValues) {
  // x = (1, 2, 3, 4): mean 2.5, deviations (-1.5, -0.5, 0.5, 1.5).
  const std::vector<double> acov = Autocovariance({1, 2, 3, 4});
  EXPECT_NEAR(acov[0], 5.0 / 4, 1e-15);
  EXPECT_NEAR(acov[1], (0.75 - 0.25 + 0.75) / 4, 1e-15);
  EXPECT_NEAR(acov[2], (-0.75 - 0.75) / 4, 1e-15);
  EXPECT_NEAR(acov[3], -2.25 / 4, 1e-15);
  EXPECT_TRUE(Autocovariance({}).empty());
  EXPECT_EQ(Autocovariance({3.0})[0], 0.0);
}

}  // namespace
}  // namespace sgmcmc::eval
