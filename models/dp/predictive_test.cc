#include "models/dp/predictive.h"

#include <cmath>
#include <vector>

#include "data/corpus.h"
#include "gmock/gmock.h"
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

// A state taken after one draw and restored into a new average continues bit-identically;
// states that do not fit the test set are refused naming the field.
TEST(DpPredictiveTest, RestoredStateContinuesBitIdentically) {
  data::Corpus test;
  test.vocabulary = {"x", "y"};
  test.AddDocument({0, 0, 1});
  test.AddDocument({1});
  DpPredictiveAverage full(&test, 1.0), resumed(&test, 1.0);
  full.Add(Draw({0.5, 0.3}, {0.9, 0.1, 0.2, 0.8}));
  const DpPredictiveState state = full.GetState();
  EXPECT_EQ(state.num_draws(), 1);
  full.Add(Draw({0.6}, {0.5, 0.5}));
  ASSERT_TRUE(resumed.RestoreState(state).ok());
  resumed.Add(Draw({0.6}, {0.5, 0.5}));
  EXPECT_EQ(resumed.num_draws(), 2);
  EXPECT_EQ(resumed.MeanLogPredictive(), full.MeanLogPredictive());
  EXPECT_EQ(resumed.GetState().SerializeAsString(), full.GetState().SerializeAsString());

  DpPredictiveState bad = state;
  bad.add_log_sum(0);
  EXPECT_THAT(resumed.RestoreState(bad).message(), testing::HasSubstr("log_sum has 3 entries"));
  bad = state;
  bad.set_num_draws(-1);
  EXPECT_THAT(resumed.RestoreState(bad).message(), testing::HasSubstr("num_draws"));
  bad = state;
  bad.set_log_sum(1, std::nan(""));
  EXPECT_THAT(resumed.RestoreState(bad).message(), testing::HasSubstr("log_sum[1]"));
  EXPECT_EQ(resumed.num_draws(), 2);
}

}  // namespace
}  // namespace sgmcmc::models
