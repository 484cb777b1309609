#include "rng/internal/transformed_rejection.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::rng_internal {
namespace {

// The proposal equals floor((2a/us + b) U + centre + offset) computed in exact arithmetic:
// check against the direct double formula where doubles are exact (small centres) and
// against the split formula for a centre beyond 2^53.
TEST(TransformedRejectionProposalTest, MatchesDirectFormula) {
  const double a = 0.2, b = 10;
  for (double centre : {0.0, 12.25, 1000.5}) {
    const TransformedRejectionProposal proposal(a, b, centre, 0.43);
    rng::Engine engine(1), replay(1);
    for (int i = 0; i < 10000; ++i) {
      TransformedRejectionProposal::Trial t;
      ASSERT_TRUE(proposal.Draw(engine, t));
      const double u = rng::UniformDouble(replay) - 0.5;
      const double v = rng::UniformDouble(replay);
      const double us = 0.5 - std::fabs(u);
      EXPECT_EQ(t.v, v);
      EXPECT_EQ(t.us, us);
      EXPECT_EQ(t.k, static_cast<int64_t>(std::floor((2 * a / us + b) * u + centre + 0.43)));
      EXPECT_DOUBLE_EQ(proposal.LogHat(t, 1.5), std::log(v * 1.5 / (a / (us * us) + b)));
    }
  }
}

TEST(TransformedRejectionProposalTest, ExactBeyondTwoToTheFiftyThree) {
  // With centre 2^62 every integer near it must be reachable: odd values included.
  const TransformedRejectionProposal proposal(1e6, 4e9, 0x1p62, 0.5);
  rng::Engine engine(2);
  int odd = 0, drawn = 0;
  for (int i = 0; i < 1000; ++i) {
    TransformedRejectionProposal::Trial t;
    if (!proposal.Draw(engine, t)) continue;
    ++drawn;
    odd += t.k & 1;
  }
  // Binomial(drawn ~ 1000, 1/2): outside (0.4, 0.6) with probability < 1e-9.
  EXPECT_GT(odd, 0.4 * drawn);
  EXPECT_LT(odd, 0.6 * drawn);
}

TEST(TransformedRejectionProposalTest, RejectsInsteadOfOverflowing) {
  // A huge a makes 2a/us overflow int64 for small us: such trials report false.
  const TransformedRejectionProposal proposal(1e300, 1, 0x1p62, 0.5);
  rng::Engine engine(3);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    TransformedRejectionProposal::Trial t;
    rejected += !proposal.Draw(engine, t);
  }
  EXPECT_GT(rejected, 990);
}

}  // namespace
}  // namespace sgmcmc::rng_internal
