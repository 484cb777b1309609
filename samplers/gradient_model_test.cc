#include "samplers/gradient_model.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::samplers {
namespace {

// U(theta) = sum_j theta_j^2 / 2 - sum_i w_i . theta with item "data" w_i = (i, -i): the
// prior potential gradient is theta, item i contributes -w_i.
class LinearItems : public GradientModel {
 public:
  int dimension() const override { return 2; }
  int64_t num_items() const override { return 10; }
  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override {
    std::copy(theta.begin(), theta.end(), out.begin());
  }
  void AddLikelihoodPotentialGradient(absl::Span<const double>, absl::Span<const int64_t> batch,
                                      double scale, absl::Span<double> out) const override {
    for (int64_t i : batch) {
      out[0] -= scale * i;
      out[1] += scale * i;
    }
  }
};

TEST(GradientModelTest, ScalesTheMinibatchByNOverN) {
  const LinearItems model;
  const std::vector<double> theta = {0.5, -1.5};
  std::vector<double> grad(2);
  const int64_t batch[] = {2, 7};
  StochasticPotentialGradient(model, theta, batch, absl::MakeSpan(grad));
  // theta - (10 / 2) * (w_2 + w_7) = (0.5 - 45, -1.5 + 45).
  EXPECT_EQ(grad[0], 0.5 - 45);
  EXPECT_EQ(grad[1], -1.5 + 45);
  // The full batch gives the exact gradient theta - sum_i w_i = theta - (45, -45).
  std::vector<int64_t> all(10);
  for (int i = 0; i < 10; ++i) all[i] = i;
  StochasticPotentialGradient(model, theta, all, absl::MakeSpan(grad));
  EXPECT_EQ(grad[0], 0.5 - 45);
  EXPECT_EQ(grad[1], -1.5 + 45);
}

TEST(GradientModelTest, RepeatedIdsCountTwice) {
  const LinearItems model;
  std::vector<double> grad(2);
  const int64_t batch[] = {3, 3};
  StochasticPotentialGradient(model, std::vector<double>{0, 0}, batch, absl::MakeSpan(grad));
  EXPECT_EQ(grad[0], -5.0 * 6);
}

}  // namespace
}  // namespace sgmcmc::samplers
