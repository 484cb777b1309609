#include "samplers/checkpoint_testing.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sgmcmc::samplers {

void ExpectResumeIsBitIdentical(
    const std::function<std::unique_ptr<samplers::Sampler>(uint64_t seed)>& make,
    int64_t checkpoint_at, int64_t total_iterations) {
  // Uninterrupted reference run.
  std::unique_ptr<samplers::Sampler> reference = make(/*seed=*/77);
  std::vector<std::vector<double>> expected;
  std::vector<double> expected_steps;
  for (int64_t m = 0; m < total_iterations; ++m) {
    reference->Step();
    expected.emplace_back(reference->theta().begin(), reference->theta().end());
    expected_steps.push_back(reference->last_step_size());
  }

  // Interrupted run: checkpoint, serialise, restore into a sampler with another seed.
  std::unique_ptr<samplers::Sampler> first = make(/*seed=*/77);
  for (int64_t m = 0; m < checkpoint_at; ++m) first->Step();
  std::string wire;
  ASSERT_TRUE(first->SaveState().SerializeToString(&wire));
  first.reset();
  samplers::SamplerState state;
  ASSERT_TRUE(state.ParseFromString(wire));
  EXPECT_EQ(state.iteration(), checkpoint_at);
  std::unique_ptr<samplers::Sampler> resumed = make(/*seed=*/12345);
  resumed->Step();  // move it away from its own start, so the restore must overwrite all
  const absl::Status status = resumed->RestoreState(state);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(resumed->iteration(), checkpoint_at);
  for (int64_t m = checkpoint_at; m < total_iterations; ++m) {
    resumed->Step();
    const absl::Span<const double> theta = resumed->theta();
    ASSERT_EQ(theta.size(), expected[m].size());
    ASSERT_EQ(std::memcmp(theta.data(), expected[m].data(), theta.size() * sizeof(double)), 0)
        << resumed->name() << ": draw " << m + 1 << " differs after resuming at " << checkpoint_at
        << ": " << theta[0] << " vs " << expected[m][0];
    ASSERT_EQ(resumed->last_step_size(), expected_steps[m]);
  }
  EXPECT_EQ(resumed->iteration(), total_iterations);
}

}  // namespace sgmcmc::samplers
