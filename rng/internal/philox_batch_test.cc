#include "rng/internal/philox_batch.h"

#include <cstdint>

#include "Random123/philox.h"
#include "gtest/gtest.h"

namespace sgmcmc::rng_internal {
namespace {

using Kernel = void (*)(uint64_t, uint64_t, uint64_t, uint64_t*);

// Random123 itself, block by block, as the reference.
void ExpectMatchesRandom123(Kernel kernel, uint64_t seed, uint64_t stream, uint64_t first_block) {
  using Philox = r123::Philox4x32_R<10>;
  uint64_t out[kPhiloxBatchWords];
  kernel(seed, stream, first_block, out);
  const Philox::key_type key = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  for (int b = 0; b < kPhiloxBatchBlocks; ++b) {
    const uint64_t block = first_block + b;
    const Philox::ctr_type x =
        Philox()({{static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32),
                   static_cast<uint32_t>(stream), static_cast<uint32_t>(stream >> 32)}},
                 key);
    ASSERT_EQ(out[2 * b], x[0] | (uint64_t{x[1]} << 32)) << b;
    ASSERT_EQ(out[2 * b + 1], x[2] | (uint64_t{x[3]} << 32)) << b;
  }
}

void ExpectKernelMatchesRandom123(Kernel kernel) {
  const uint64_t seeds[] = {0, 1, 42, 0xFFFFFFFF, 0x123456789ABCDEF0, ~uint64_t{0}};
  // Streams and first blocks with high words set, and batches that carry across 2^32 and
  // wrap around 2^64.
  const uint64_t counters[] = {
      0, 8, 0xFFFFFFFC, 0x1'0000'0000, 0xDEADBEEF'CAFEF00D, ~uint64_t{0} - 3};
  for (uint64_t seed : seeds) {
    for (uint64_t stream : counters) {
      for (uint64_t first_block : counters) {
        SCOPED_TRACE(::testing::Message() << std::hex << "seed=" << seed << " stream=" << stream
                                        << " first_block=" << first_block);
        ExpectMatchesRandom123(kernel, seed, stream, first_block);
      }
    }
  }
}

TEST(PhiloxBatchTest, PortableMatchesRandom123) {
  ExpectKernelMatchesRandom123(PhiloxBatchPortable);
}

// The kernel PhiloxBatch dispatches to on this CPU: the AVX2 one where the CPU has AVX2, else
// the portable one. The tests below check it on every CPU (on one without AVX2 they check the
// portable kernel and the dispatch to it), so no test depends on the CPU to run.
Kernel FastestKernel() { return HasPhiloxBatchAvx2() ? PhiloxBatchAvx2 : PhiloxBatchPortable; }

TEST(PhiloxBatchTest, FastestKernelMatchesRandom123) {
  ExpectKernelMatchesRandom123(FastestKernel());
}

// SplitMix64 (Steele, Lea & Flood 2014), a generator independent of Philox for the test's
// keys and counters.
uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
  return z ^ (z >> 31);
}

// The fastest kernel (AVX2 where the CPU has it) and the dispatched PhiloxBatch equal the
// portable kernel bit for bit over 2^17 random (seed, stream, first_block) triples, a quarter of
// them with first_block just below a 2^32 carry.
TEST(PhiloxBatchTest, FastestAndDispatchedKernelsMatchPortableOnRandomKeysAndCounters) {
  const Kernel fastest = FastestKernel();
  uint64_t state = 20240611;
  for (int i = 0; i < (1 << 17); ++i) {
    const uint64_t seed = SplitMix64(state);
    const uint64_t stream = SplitMix64(state);
    uint64_t first_block = SplitMix64(state);
    if (i % 4 == 0) first_block |= 0xFFFFFFF8;
    uint64_t vector[kPhiloxBatchWords];
    uint64_t dispatched[kPhiloxBatchWords];
    uint64_t portable[kPhiloxBatchWords];
    fastest(seed, stream, first_block, vector);
    PhiloxBatch(seed, stream, first_block, dispatched);
    PhiloxBatchPortable(seed, stream, first_block, portable);
    for (int w = 0; w < kPhiloxBatchWords; ++w) {
      ASSERT_EQ(vector[w], portable[w]) << std::hex << "seed=" << seed << " stream=" << stream
                                        << " first_block=" << first_block << " word=" << w;
      ASSERT_EQ(dispatched[w], portable[w]) << std::hex << "seed=" << seed
                                            << " stream=" << stream
                                            << " first_block=" << first_block << " word=" << w;
    }
  }
}

TEST(PhiloxBatchTest, DispatchedKernelMatchesRandom123) {
  ExpectKernelMatchesRandom123(PhiloxBatch);
}

// Known-answer test from Random123's kat_vectors: philox4x32 10 rounds,
// counter 243f6a88 85a308d3 13198a2e 03707344, key a4093822 299f31d0.
TEST(PhiloxBlockTest, KnownAnswer) {
  const auto x = PhiloxBlock(0x299f31d0a4093822, 0x0370734413198a2e, 0x85a308d3243f6a88);
  EXPECT_EQ(x[0], 0xd16cfe09u);
  EXPECT_EQ(x[1], 0x94fdccebu);
  EXPECT_EQ(x[2], 0x5001e420u);
  EXPECT_EQ(x[3], 0x24126ea1u);
}

}  // namespace
}  // namespace sgmcmc::rng_internal
