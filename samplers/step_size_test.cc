#include "samplers/step_size.h"

#include <cmath>

#include "gtest/gtest.h"

namespace sgmcmc::samplers {
namespace {

// Relative tolerance for values computed with one pow() in double precision.
constexpr double kRelTol = 1e-15;

double Eval(const StepSizeOptions& options, int64_t m) {
  absl::StatusOr<StepSize> step_size = StepSize::Create(options);
  EXPECT_TRUE(step_size.ok()) << step_size.status();
  return (*step_size)(m);
}

TEST(StepSizeTest, Constant) {
  const StepSizeOptions options = StepSizeOptions::Constant(0.25);
  for (int64_t m : {0, 1, 1000, 1000000000}) EXPECT_EQ(Eval(options, m), 0.25);
}

// References computed with mpmath at 30 digits (python3-mpmath), e.g.
//   mp.mpf('0.5') * (1 + mp.mpf(7)/10) ** mp.mpf('-0.33').
TEST(StepSizeTest, PolynomialDecayMatchesReference) {
  const StepSizeOptions options = StepSizeOptions::PolynomialDecay(0.5, 10, 0.33);
  EXPECT_EQ(Eval(options, 0), 0.5);  // m is zero-based: the first step is h.
  EXPECT_NEAR(Eval(options, 7), 0.41968346634159705481905314379, kRelTol * 0.42);
}

TEST(StepSizeTest, HamcmcMatchesReference) {
  const StepSizeOptions options = StepSizeOptions::Hamcmc(0.1);
  EXPECT_NEAR(Eval(options, 0), std::pow(0.1, 0.51), kRelTol);  // t = m + 1 = 1
  // (0.1 / 5)^0.51 at m = 4 (t = 5).
  EXPECT_NEAR(Eval(options, 4), 0.135995737891757922222431684406, kRelTol * 0.14);
}

TEST(StepSizeTest, PolynomialMatchesReference) {
  const StepSizeOptions options = StepSizeOptions::Polynomial(0.2, 3, 0.55);
  // 0.2 (3 + 10)^-0.55 at m = 9 (t = 10).
  EXPECT_NEAR(Eval(options, 9), 0.0487934079110346733636274704403, kRelTol * 0.05);
}

TEST(StepSizeTest, DecayingSchedulesAreMonotone) {
  for (const StepSizeOptions& options :
       {StepSizeOptions::PolynomialDecay(1, 5, 0.6), StepSizeOptions::Hamcmc(0.3),
        StepSizeOptions::Polynomial(1, 0, 0.55)}) {
    double previous = Eval(options, 0);
    for (int64_t m = 1; m < 1000; ++m) {
      const double current = Eval(options, m);
      ASSERT_LT(current, previous) << options.ToString() << " at m = " << m;
      previous = current;
    }
  }
}

TEST(StepSizeTest, ZeroKappaIsConstant) {
  EXPECT_EQ(Eval(StepSizeOptions::PolynomialDecay(0.3, 2, 0), 12345), 0.3);
}

TEST(StepSizeTest, InvalidOptionsNameTheField) {
  struct Case {
    StepSizeOptions options;
    const char* field;
  };
  const Case cases[] = {
      {StepSizeOptions::Constant(-0.1), "h"},
      {StepSizeOptions::Constant(0), "h"},
      {StepSizeOptions::Constant(NAN), "h"},
      {StepSizeOptions::PolynomialDecay(0.1, 0, 0.5), "tau"},
      {StepSizeOptions::PolynomialDecay(0.1, 1, -0.5), "kappa"},
      {StepSizeOptions::Hamcmc(-1), "a"},
      {StepSizeOptions::Polynomial(1, -1, 0.5), "b"},
      {StepSizeOptions::Polynomial(1, 0, -0.5), "c"},
      {StepSizeOptions::Polynomial(INFINITY, 0, 0.5), "a"},
  };
  for (const Case& c : cases) {
    const absl::Status status = c.options.Validate();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.options.ToString();
    EXPECT_NE(status.message().find(std::string("StepSizeOptions.") + c.field + " "),
              std::string::npos)
        << status;
    EXPECT_FALSE(StepSize::Create(c.options).ok());
  }
}

TEST(StepSizeTest, ToString) {
  EXPECT_EQ(StepSizeOptions::Constant(0.01).ToString(), "0.01");
  EXPECT_EQ(StepSizeOptions::PolynomialDecay(0.5, 10, 0.33).ToString(), "0.5 (1 + m/10)^-0.33");
  EXPECT_EQ(StepSizeOptions::Hamcmc(0.1).ToString(), "(0.1 / t)^0.51");
  EXPECT_EQ(StepSizeOptions::Polynomial(0.2, 3, 0.55).ToString(), "0.2 (3 + t)^-0.55");
}

TEST(StepSizeDeathTest, NegativeIteration) {
  const StepSize step_size = *StepSize::Create(StepSizeOptions::Constant(0.1));
  EXPECT_DEATH(step_size(-1), "StepSize: iteration m must be >= 0");
}

}  // namespace
}  // namespace sgmcmc::samplers
