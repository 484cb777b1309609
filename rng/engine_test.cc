#include "rng/engine.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "Random123/philox.h"
#include "absl/types/span.h"
#include "testing/distribution_testing.h"
#include "gtest/gtest.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

static_assert(std::is_same_v<Engine::result_type, uint64_t>);

// Known-answer test from Random123's kat_vectors: philox4x32 10 rounds,
// counter 243f6a88 85a308d3 13198a2e 03707344, key a4093822 299f31d0.
TEST(EngineTest, PhiloxKnownAnswer) {
  const uint64_t seed = 0x299f31d0a4093822ull;
  const uint64_t stream = 0x0370734413198a2eull;
  const uint64_t block = 0x85a308d3243f6a88ull;
  const auto out = Engine::Block(seed, stream, block);
  EXPECT_EQ(out[0], 0xd16cfe09u);
  EXPECT_EQ(out[1], 0x94fdccebu);
  EXPECT_EQ(out[2], 0x5001e420u);
  EXPECT_EQ(out[3], 0x24126ea1u);
}

TEST(EngineTest, OutputIsPhiloxBlocksInOrder) {
  Engine engine(7, 3);
  for (uint64_t block = 0; block < 40; ++block) {
    const auto b = Engine::Block(7, 3, block);
    EXPECT_EQ(engine(), b[0] | (uint64_t{b[1]} << 32));
    EXPECT_EQ(engine(), b[2] | (uint64_t{b[3]} << 32));
  }
}

// Stream stability: these values are pinned so that a change of the stream is deliberate.
TEST(EngineTest, PinnedDraws) {
  Engine engine(42, 0);
  const uint64_t first = engine();
  const uint64_t second = engine();
  const auto b = Engine::Block(42, 0, 0);
  EXPECT_EQ(first, b[0] | (uint64_t{b[1]} << 32));
  EXPECT_EQ(second, b[2] | (uint64_t{b[3]} << 32));
  EXPECT_EQ(first, 0x77f5493b9ceaf053ull) << std::hex << first;
}

TEST(EngineTest, SameSeedAndStreamAreBitIdentical) {
  Engine a(123, 9), b(123, 9);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a(), b());
}

TEST(EngineTest, StreamsAndSeedsDiffer) {
  std::set<uint64_t> firsts;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    for (uint64_t stream = 0; stream < 20; ++stream) {
      firsts.insert(Engine(seed, stream)());
    }
  }
  EXPECT_EQ(firsts.size(), 400u);
}

TEST(EngineTest, SeekAndPositionRoundTrip) {
  Engine engine(5, 1);
  std::vector<uint64_t> reference(100);
  for (auto& x : reference) x = engine();
  EXPECT_EQ(engine.position(), 100u);
  for (uint64_t pos : {0u, 1u, 15u, 16u, 17u, 63u, 99u}) {
    Engine other(5, 1);
    other.Seek(pos);
    EXPECT_EQ(other.position(), pos);
    for (uint64_t i = pos; i < 100; ++i) ASSERT_EQ(other(), reference[i]) << pos;
  }
  Engine skipper(5, 1);
  skipper.Discard(37);
  EXPECT_EQ(skipper(), reference[37]);
}

// Fill from every offset within a batch and for sizes around the batch length: the same words
// and the same position as repeated operator() calls, and the sequence continues seamlessly.
TEST(EngineTest, FillEqualsRepeatedCalls) {
  constexpr int kBatch = Engine::kWordsPerBatch;
  for (int offset = 0; offset <= kBatch; ++offset) {
    for (int size : {0, 1, kBatch - offset, kBatch, kBatch + 1, 3 * kBatch - 1, 5 * kBatch}) {
      Engine filler(8, 2), caller(8, 2);
      filler.Discard(offset);
      caller.Discard(offset);
      std::vector<uint64_t> filled(size);
      filler.Fill(absl::MakeSpan(filled));
      for (uint64_t word : filled) ASSERT_EQ(word, caller()) << offset << " " << size;
      ASSERT_EQ(filler.position(), caller.position()) << offset << " " << size;
      ASSERT_EQ(filler(), caller()) << offset << " " << size;
    }
  }
}

// A two-thread run with one stream per task equals the sequential run.
TEST(EngineTest, ThreadsWithStreamsMatchSequential) {
  constexpr int kTasks = 8;
  auto task = [](int t) {
    Engine engine(99, t);
    uint64_t acc = 0;
    for (int i = 0; i < 10000; ++i) acc ^= engine() * (i + 1);
    return acc;
  };
  std::vector<uint64_t> sequential(kTasks), parallel(kTasks);
  for (int t = 0; t < kTasks; ++t) sequential[t] = task(t);
  std::thread worker([&] {
    for (int t = 1; t < kTasks; t += 2) parallel[t] = task(t);
  });
  for (int t = 0; t < kTasks; t += 2) parallel[t] = task(t);
  worker.join();
  EXPECT_EQ(sequential, parallel);
}

// The engine drives the standard library's distributions correctly: 600000 rolls of
// std::uniform_int_distribution<int>(1, 6) fit the fair die (chi-squared with 5 degrees of
// freedom, expected count 1e5 per face), failing a correct engine with probability
// testing::kFalseFailureRate = 1e-6.
TEST(EngineTest, StandardUniformIntDistributionRollsAFairDie) {
  Engine engine(1);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<int64_t> rolls(600000);
  for (int64_t& roll : rolls) roll = die(engine);
  const testing::TestResult result =
      testing::DiscreteChiSquaredTest(rolls, [](int64_t) { return 1.0 / 6; }, 1, 6);
  EXPECT_TRUE(result.Passed()) << result;
}

// std::generate_canonical<double, 64> takes one 64-bit engine word w and returns w / 2^64
// rounded to double (clamped below 1); UniformDoubleFromBits(w) = (floor(w / 2^12) + 1/2) / 2^52.
// w / 2^64 lies within half a 2^-52 grid step of the latter, and the rounding adds at most
// 2^-53, so the two differ by at most 2^-52: the standard law and the engine's own agree word
// by word. Their
// common law is uniform on [0, 1): a KS and a chi-squared (100 bins) test of 1e5 draws,
// 2 checks at 1e-6 each.
TEST(EngineTest, GenerateCanonicalMatchesEngineUniformLaw) {
  Engine engine(5);
  Engine twin(5);
  std::vector<double> canonical(100000);
  for (double& u : canonical) {
    u = std::generate_canonical<double, 64>(engine);
    ASSERT_NEAR(u, UniformDoubleFromBits(twin()), 0x1p-52);
  }
  ASSERT_EQ(engine.position(), twin.position());
  auto uniform_cdf = [](double x) { return std::clamp(x, 0.0, 1.0); };
  const testing::TestResult ks = testing::KolmogorovSmirnovTest(canonical, uniform_cdf);
  EXPECT_TRUE(ks.Passed()) << ks;
  const testing::TestResult chi_squared = testing::ChiSquaredQuantileTest(canonical, uniform_cdf);
  EXPECT_TRUE(chi_squared.Passed()) << chi_squared;
}

TEST(EngineTest, BitsAreBalanced) {
  Engine engine(11);
  constexpr int kDraws = 100000;
  std::vector<int> ones(64, 0);
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t x = engine();
    for (int b = 0; b < 64; ++b) ones[b] += (x >> b) & 1;
  }
  // Each bit is Binomial(1e5, 1/2): sd 158; 6 sd bounds give a false-failure rate < 1e-7.
  for (int b = 0; b < 64; ++b) EXPECT_NEAR(ones[b], kDraws / 2, 6 * 158.2) << b;
}

}  // namespace
}  // namespace sgmcmc::rng
