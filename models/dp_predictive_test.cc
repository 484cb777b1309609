#include "models/dp_predictive.h"

#include <cmath>
#include <vector>

#include "data/corpus.h"
#include "gtest/gtest.h"

namespace sgmcmc::models {
namespace {

// Two draws over V = 2 words with a = 1, computed by hand:
//   draw 1: ω = (0.5, 0.3), leftover 0.2, θ_1 = (0.9, 0.1), θ_2 = (0.2, 0.8);
//   draw 2: ω = (0.6), leftover 0.4, θ_1 = (0.5, 0.5).
// User A, tokens {0, 0, 1}: C = 3; Mult under θ_1 = 3 · 0.81 · 0.1 = 0.243, θ_2 = 3 · 0.04 ·
// 0.8 = 0.096; under Dir(1, 1) the count of word 0 in 3 tokens is uniform on {0..3}, so
// C · DM = 1/4. p_1 = 0.5 · 0.243 + 0.3 · 0.096 + 0.2 · 0.25 = 0.2003, p_2 = 0.6 · 0.375 +
// 0.4 · 0.25 = 0.325. User B, tokens {1}: p_1 = 0.05 + 0.24 + 0.1 = 0.39, p_2 = 0.3 + 0.2 = 0.5.
DpMixtureDraw Draw(std::vector<double> weights, std::vector<double> atoms) {
  DpMixtureDraw draw;
  draw.vocabulary_size = 2;
  double total = 0;
  for (double w : weights) total += w;
  draw.log_leftover = std::log(1 - total);
  draw.weights = weights;
  for (double t : atoms) draw.log_atoms.push_back(std::log(t));
  return draw;
}

TEST(DpPredictiveTest, MatchesHandComputedValues) {
  const DpMixtureDraw first = Draw({0.5, 0.3}, {0.9, 0.1, 0.2, 0.8});
  const DpMixtureDraw second = Draw({0.6}, {0.5, 0.5});
  EXPECT_NEAR(DpLogPredictive(first, 1.0, {0, 0, 1}), std::log(0.2003), 1e-13);
  EXPECT_NEAR(DpLogPredictive(first, 1.0, {1, 0, 0}), std::log(0.2003), 1e-13);
  EXPECT_NEAR(DpLogPredictive(second, 1.0, {1}), std::log(0.5), 1e-13);

  data::Corpus test;
  test.vocabulary = {"x", "y"};
  test.AddDocument({0, 0, 1});
  test.AddDocument({1});
  DpPredictiveAverage average(&test, 1.0);
  EXPECT_EQ(average.MeanLogPredictive(), 0.0);
  average.Add(first);
  average.Add(second);
  EXPECT_EQ(average.num_draws(), 2);
  EXPECT_EQ(average.num_users(), 2);
  const double expected =
      0.5 * (std::log((0.2003 + 0.325) / 2) + std::log((0.39 + 0.5) / 2));
  EXPECT_NEAR(average.MeanLogPredictive(), expected, 1e-13);
  average.Reset();
  average.Add(second);
  EXPECT_NEAR(average.MeanLogPredictive(), 0.5 * (std::log(0.325) + std::log(0.5)), 1e-13);
}

}  // namespace
}  // namespace sgmcmc::models
