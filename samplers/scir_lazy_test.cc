#include "samplers/scir_lazy.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::samplers {
namespace {

using ::testing::HasSubstr;

constexpr int kRows = 2;
constexpr int kCols = 5;
constexpr int kSteps = 7;

// The step sizes of the run: a polynomial decay, so every step has its own h.
double StepSize(int m) { return 0.6 * std::pow(1.0 + m, -0.33); }

// The counts of step m given ω at column 3 (read just before the step): column 0 always
// counted in row 0; column 1 only at steps 2 and 5 (absent in between); column 2 counted only
// when the read ω_k3 is above 0.1 (counts that depend on the row sums, as LDA's do); columns 3
// and 4 never counted.
SimplexCounts CountsOfStep(int m, absl::Span<const double> omega3) {
  SimplexCounts counts(kRows, kCols);
  for (int k = 0; k < kRows; ++k) {
    if (k == 0) counts.Append(k, 0, 3.0);
    if (m == 2 || m == 5) counts.Append(k, 1, 2.0 + k);
    if (omega3[k] > 0.1) counts.Append(k, 2, 1.5);
  }
  return counts;
}

// What one replicate reports at the end: log θ_kj, log ω_kj, log θ_k·, two joint statistics
// (a within-row difference of log θ, and ω_03 + ω_13 across rows) and how often the read
// ω led to a count.
std::vector<std::string> OutcomeNames() {
  std::vector<std::string> names;
  for (int k = 0; k < kRows; ++k) {
    for (int j = 0; j < kCols; ++j) names.push_back(absl::StrCat("log_theta[", k, "][", j, "]"));
  }
  for (int k = 0; k < kRows; ++k) {
    for (int j = 0; j < kCols; ++j) names.push_back(absl::StrCat("log_omega[", k, "][", j, "]"));
  }
  for (int k = 0; k < kRows; ++k) names.push_back(absl::StrCat("log_row_sum[", k, "]"));
  names.push_back("log_theta[0][2] - log_theta[0][3]");
  names.push_back("omega[0][3] + omega[1][3]");
  names.push_back("number of steps with a column-2 count");
  return names;
}

// Runs kSteps steps of `sampler` (Scir or LazyScir) with the feedback counts and returns the
// outcome; `materialize` is called before each read of column 3.
template <typename Sampler, typename Materialize>
std::vector<double> RunReplicate(Sampler& sampler, Materialize materialize) {
  const std::vector<int32_t> column3 = {3};
  std::vector<double> omega3(kRows);
  int column2_counts = 0;
  for (int m = 0; m < kSteps; ++m) {
    materialize(sampler, column3);
    sampler.SimplexColumns(column3, absl::MakeSpan(omega3));
    const SimplexCounts counts = CountsOfStep(m, omega3);
    for (int k = 0; k < kRows; ++k) {
      for (int32_t j : counts.row(k).cols) column2_counts += j == 2;
    }
    sampler.Step(counts, StepSize(m));
  }
  std::vector<double> out;
  std::vector<double> log_omega(kRows * kCols);
  for (int k = 0; k < kRows; ++k) {
    for (double v : sampler.log_theta(k)) out.push_back(v);
  }
  for (int k = 0; k < kRows; ++k) {
    sampler.LogSimplex(k, absl::MakeSpan(log_omega).subspan(k * kCols, kCols));
  }
  out.insert(out.end(), log_omega.begin(), log_omega.end());
  for (int k = 0; k < kRows; ++k) out.push_back(sampler.log_normalizer(k));
  out.push_back(sampler.log_theta(0)[2] - sampler.log_theta(0)[3]);
  out.push_back(std::exp(log_omega[3]) + std::exp(log_omega[kCols + 3]));
  out.push_back(column2_counts);
  return out;
}

// The joint law of the K x V matrix after kSteps steps (log θ of every entry, log ω, the row
// sums and two joint statistics), with step sizes varying per step, columns absent from some
// or all steps and counts that depend on a read of ω (hence on the row sums) before each step,
// is the same under LazyScir as under Scir: two-sample KS tests over kReplicates independent
// chains of each, each at testing::kFalseFailureRate (1e-6), 25 statistics x 3 priors: a
// false failure with probability < 1e-4.
class LazyScirLawTest : public ::testing::TestWithParam<double> {};

TEST_P(LazyScirLawTest, JointLawEqualsEagerScir) {
  constexpr int kReplicates = 25000;
  const double alpha = GetParam();
  const std::vector<std::string> names = OutcomeNames();
  std::vector<std::vector<double>> eager(names.size()), lazy(names.size());
  for (int r = 0; r < kReplicates; ++r) {
    const SimplexSamplerOptions options{kRows, kCols, {alpha}, /*seed=*/static_cast<uint64_t>(r)};
    Scir scir = *Scir::Create(options);
    const std::vector<double> e = RunReplicate(scir, [](Scir&, absl::Span<const int32_t>) {});
    LazyScir lazy_scir = *LazyScir::Create(options);
    const std::vector<double> l =
        RunReplicate(lazy_scir, [](LazyScir& s, absl::Span<const int32_t> columns) {
          s.MaterializeColumns(columns, 0, s.rows());
        });
    ASSERT_EQ(e.size(), names.size());
    ASSERT_EQ(l.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      eager[i].push_back(e[i]);
      lazy[i].push_back(l[i]);
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const testing::TestResult result = testing::TwoSampleKolmogorovSmirnovTest(eager[i], lazy[i]);
    EXPECT_TRUE(result.Passed()) << names[i] << " at alpha = " << alpha << ": " << result;
  }
}

INSTANTIATE_TEST_SUITE_P(Priors, LazyScirLawTest, ::testing::Values(0.1, 0.5, 1.3));

// The pool is used: after a few steps with zero counts, most entries are pooled and nothing
// is lost (log θ· stays finite and every ω sums to 1 after materialising).
TEST(LazyScirTest, ZeroCountEntriesArePooled) {
  LazyScir scir = *LazyScir::Create({3, 1000, {0.1}, 5});
  SimplexCounts counts(3, 1000);
  counts.Append(0, 10, 50.0);
  counts.Append(2, 999, 7.0);
  for (int m = 0; m < 5; ++m) scir.Step(counts, 0.5);
  for (int k = 0; k < 3; ++k) {
    EXPECT_GT(scir.pooled(k), 900) << k;
    EXPECT_TRUE(std::isfinite(scir.log_normalizer(k)));
  }
  std::vector<double> omega(1000);
  scir.Simplex(0, absl::MakeSpan(omega));
  double sum = 0;
  for (double w : omega) sum += w;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_EQ(scir.pooled(0), 0);
}

// Same seed, same calls: the same bits, for any split of the rows (threads), and a chain
// restored from a checkpoint continues bit-identically.
TEST(LazyScirTest, DeterministicOverRowSplitsAndCheckpoints) {
  const SimplexSamplerOptions options{4, 300, {0.05}, 9};
  SimplexCounts counts(4, 300);
  for (int k = 0; k < 4; ++k) counts.Append(k, 7 * k, 20.0);
  const std::vector<int32_t> read = {1, 2, 150};
  auto run = [&](LazyScir& s, int first_step, int last_step, int split) {
    for (int m = first_step; m < last_step; ++m) {
      s.MaterializeColumns(read, split, 4);
      s.MaterializeColumns(read, 0, split);
      s.StepRows(counts, StepSize(m), split, 4);
      s.StepRows(counts, StepSize(m), 0, split);
    }
  };
  LazyScir a = *LazyScir::Create(options);
  LazyScir b = *LazyScir::Create(options);
  run(a, 0, 6, 0);
  run(b, 0, 3, 3);
  const SimplexSamplerState checkpoint = b.SaveState();
  LazyScir c = *LazyScir::Create(options);
  ASSERT_TRUE(c.RestoreState(checkpoint).ok());
  run(b, 3, 6, 1);
  run(c, 3, 6, 2);
  // a did not checkpoint: b and c materialised every entry at step 3, a did not, so a follows
  // another (equally exact) factorisation; b and c must agree bit for bit.
  for (int k = 0; k < 4; ++k) {
    const absl::Span<const double> lb = b.log_theta(k), lc = c.log_theta(k);
    for (int j = 0; j < 300; ++j) ASSERT_EQ(lb[j], lc[j]) << k << " " << j;
    EXPECT_EQ(b.log_normalizer(k), c.log_normalizer(k));
  }
  // Row splits alone: a and a re-run with another split agree.
  LazyScir d = *LazyScir::Create(options);
  run(d, 0, 6, 3);
  for (int k = 0; k < 4; ++k) {
    const absl::Span<const double> la = a.log_theta(k), ld = d.log_theta(k);
    for (int j = 0; j < 300; ++j) ASSERT_EQ(la[j], ld[j]) << k << " " << j;
  }
}

TEST(LazyScirTest, RejectsAsymmetricPrior) {
  const absl::StatusOr<LazyScir> s = LazyScir::Create({1, 3, {0.1, 0.2, 0.3}, 1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("symmetric"));
}

TEST(LazyScirDeathTest, ReadingAPooledEntryFails) {
  LazyScir scir = *LazyScir::Create({1, 50, {0.1}, 3});
  scir.Step(SimplexCounts(1, 50), 0.5);
  std::vector<double> out(1);
  const std::vector<int32_t> column = {4};
  EXPECT_DEATH(scir.SimplexColumns(column, absl::MakeSpan(out)), "not materialised");
}

}  // namespace
}  // namespace sgmcmc::samplers
