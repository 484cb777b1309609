#include "linalg/stft.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::linalg {
namespace {

std::vector<double> TestSignal(int length) {
  std::vector<double> x(length);
  for (int n = 0; n < length; ++n) {
    x[n] = 0.5 * std::sin(0.031 * n) + 0.3 * std::cos(0.7 * n + 1) + 0.1 * ((n * 7919) % 13 - 6);
  }
  return x;
}

// sin^2 + sin^2 shifted by half a period sums to 1, so the inverse reproduces the signal to
// rounding (a few ulps times log2(510) butterflies).
TEST(StftTest, PerfectReconstruction) {
  for (int length : {1, 254, 255, 256, 1000, 16000}) {
    const std::vector<double> x = TestSignal(length);
    const Eigen::MatrixXcd s = Stft(x, 256);
    EXPECT_EQ(s.rows(), 256);
    EXPECT_EQ(s.cols(), (length + 254) / 255 + 1);
    const std::vector<double> y = InverseStft(s, length);
    ASSERT_EQ(y.size(), x.size());
    for (int n = 0; n < length; ++n) EXPECT_NEAR(y[n], x[n], 1e-12) << length << " " << n;
  }
}

// A sinusoid at bin 32 of a 510-sample frame (frequency 32/510 cycles per sample) puts its
// energy in bin 32 (and its Hann-window neighbours); Parseval for the sqrt-Hann frames:
// sum_i |S_ij|^2 (with the mirrored half) = L sum_n (w x)^2.
TEST(StftTest, SinusoidLandsInItsBinAndParsevalHolds) {
  const int length = 5100;
  std::vector<double> x(length);
  for (int n = 0; n < length; ++n) x[n] = std::cos(2 * M_PI * 32 * n / 510.0);
  const Eigen::MatrixXcd s = Stft(x, 256);
  const int j = 5;  // an interior frame
  Eigen::Index peak;
  s.col(j).cwiseAbs().maxCoeff(&peak);
  EXPECT_EQ(peak, 32);
  double energy = std::norm(s(0, j)) + std::norm(s(255, j));
  for (int i = 1; i < 255; ++i) energy += 2 * std::norm(s(i, j));
  double time_energy = 0;
  for (int n = 0; n < 510; ++n) {
    const double w = std::sin(M_PI * n / 510);
    time_energy += std::pow(w * x[j * 255 - 255 + n], 2);
  }
  EXPECT_NEAR(energy, 510 * time_energy, 1e-8 * energy);
}

}  // namespace
}  // namespace sgmcmc::linalg
