// Test helper (testonly): checks that a sampler checkpointed at iteration m and resumed in a
// fresh sampler produces bit-identical draws to an uninterrupted run (samplers/sampler.h).
//
// The checkpoint goes through the protobuf wire format (SerializeToString, ParseFromString),
// and the fresh sampler is created with a different seed and initial point, so nothing but
// the SamplerState can carry the chain across.
//
// Cost: 2 x total_iterations sampler steps.
//
// Example:
//   ExpectResumeIsBitIdentical(
//       [&](uint64_t seed) { return MakeSgld(model, seed); }, /*checkpoint_at=*/37,
//       /*total_iterations=*/100);
#ifndef SGMCMC_SAMPLERS_CHECKPOINT_TESTING_H_
#define SGMCMC_SAMPLERS_CHECKPOINT_TESTING_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "samplers/sampler.h"

namespace sgmcmc::samplers {

// make(seed) must create the sampler from the same model and options for every seed (only
// the chain's seed may differ). Records gtest failures.
void ExpectResumeIsBitIdentical(
    const std::function<std::unique_ptr<samplers::Sampler>(uint64_t seed)>& make,
    int64_t checkpoint_at, int64_t total_iterations);

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_CHECKPOINT_TESTING_H_
