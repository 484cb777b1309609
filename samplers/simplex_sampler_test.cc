// Tests of what SGRLD and SCIR share: options, the stream layout, row-range stepping
// (bit-identical for every split and thread count), the simplex accessors and argument checks.
#include "samplers/simplex_sampler.h"

#include <cmath>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_testing.h"

namespace sgmcmc::samplers {
namespace {

using ::testing::HasSubstr;

TEST(SimplexSamplerOptionsTest, ValidateNamesTheField) {
  SimplexSamplerOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.rows = 0;
  EXPECT_THAT(options.Validate().message(), HasSubstr("rows must be in [1, 2^24)"));
  options.rows = 1 << 24;
  EXPECT_THAT(options.Validate().message(), HasSubstr("rows must be in [1, 2^24)"));
  options.rows = 3;
  options.cols = 1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("cols must be >= 2"));
  options.cols = 4;
  options.alpha = {0.1, 0.2};
  EXPECT_THAT(options.Validate().message(), HasSubstr("alpha must have 1 or cols = 4"));
  options.alpha = {0.1, 0.2, -1, 0.3};
  EXPECT_THAT(options.Validate().message(), HasSubstr("alpha[2] must be finite and > 0"));
  options.alpha = {std::nan("")};
  EXPECT_THAT(options.Validate().message(), HasSubstr("alpha[0]"));
  options.alpha = {1e-300};
  EXPECT_TRUE(options.Validate().ok());
  EXPECT_FALSE(Scir::Create(SimplexSamplerOptions{0, 2, {0.1}, 0}).ok());
  EXPECT_FALSE(Sgrld::Create(SimplexSamplerOptions{1, 1, {0.1}, 0}).ok());
}

TEST(SimplexStreamIdTest, Layout) {
  EXPECT_EQ(SimplexStreamId(0, 0), 0x5C00000000000000ull);
  EXPECT_EQ(SimplexStreamId(1, 2), 0x5C00000001000002ull);
  EXPECT_EQ(SimplexStreamId(0xFFFFFFFFull, 0xFFFFFF), 0x5CFFFFFFFFFFFFFFull);
}

TEST(SimplexStreamIdDeathTest, OutOfRangeDies) {
  EXPECT_DEATH(SimplexStreamId(uint64_t{1} << 32, 0), "step must be < 2\\^32");
  EXPECT_DEATH(SimplexStreamId(0, 1 << 24), "row must be in \\[0, 2\\^24\\)");
}

// Sparse counts with about 5% non-zeros.
SimplexCounts MakeCounts(int rows, int cols) { return RandomSparseCounts(rows, cols, 0.05, 77); }

template <typename T>
class SimplexSamplerTypedTest : public ::testing::Test {
 protected:
  static T Make(int rows, int cols, std::vector<double> alpha, uint64_t seed) {
    return MakeSimplexSampler<T>(rows, cols, std::move(alpha), seed);
  }
  static std::vector<double> AllLogSimplex(const T& sampler) {
    std::vector<double> out(static_cast<size_t>(sampler.rows()) * sampler.cols());
    for (int r = 0; r < sampler.rows(); ++r) {
      sampler.LogSimplex(r, absl::MakeSpan(out).subspan(r * sampler.cols(), sampler.cols()));
    }
    return out;
  }
};

using SamplerTypes = ::testing::Types<Sgrld, Scir>;
TYPED_TEST_SUITE(SimplexSamplerTypedTest, SamplerTypes);

TYPED_TEST(SimplexSamplerTypedTest, AnyRowSplitAndThreadCountIsBitIdentical) {
  constexpr int kRows = 13, kCols = 600;  // > Sgrld::kNoiseBlock: several noise blocks
  const SimplexCounts counts = MakeCounts(kRows, kCols);
  for (const std::vector<double>& alpha :
       {std::vector<double>{0.05}, std::vector<double>(kCols, 0.3)}) {
    TypeParam whole = this->Make(kRows, kCols, alpha, 99);
    TypeParam split = this->Make(kRows, kCols, alpha, 99);
    TypeParam threaded = this->Make(kRows, kCols, alpha, 99);
    for (int step = 0; step < 4; ++step) {
      const double h = 0.05 * (step + 1);
      whole.Step(counts, h);
      // Uneven pieces, in reverse order.
      split.StepRows(counts, h, 9, kRows);
      split.StepRows(counts, h, 2, 9);
      split.StepRows(counts, h, 0, 2);
      std::vector<std::thread> threads;
      for (int t = 0; t < 4; ++t) {
        threads.emplace_back(
            [&, t] { threaded.StepRows(counts, h, t * kRows / 4, (t + 1) * kRows / 4); });
      }
      for (std::thread& t : threads) t.join();
    }
    const std::vector<double> reference = this->AllLogSimplex(whole);
    EXPECT_EQ(this->AllLogSimplex(split), reference);
    EXPECT_EQ(this->AllLogSimplex(threaded), reference);
    for (int r = 0; r < kRows; ++r) EXPECT_EQ(whole.steps(r), 4);
    // Another seed differs.
    TypeParam other = this->Make(kRows, kCols, alpha, 100);
    for (int step = 0; step < 4; ++step) other.Step(counts, 0.05 * (step + 1));
    EXPECT_NE(this->AllLogSimplex(other), reference);
  }
}

// StepRow with a row's sparse counts is StepRows with a SimplexCounts holding them, bit for
// bit, for any order of the rows; its checks name the row and the offending entry.
TYPED_TEST(SimplexSamplerTypedTest, StepRowEqualsStepRows) {
  constexpr int kRows = 5, kCols = 700;
  const SimplexCounts counts = MakeCounts(kRows, kCols);
  TypeParam whole = this->Make(kRows, kCols, {0.1}, 21);
  TypeParam by_row = this->Make(kRows, kCols, {0.1}, 21);
  for (int step = 0; step < 3; ++step) {
    const double h = 0.1 * (step + 1);
    whole.Step(counts, h);
    for (int r : {3, 0, 4, 1, 2}) by_row.StepRow(r, counts.row(r), h);
  }
  EXPECT_EQ(this->AllLogSimplex(by_row), this->AllLogSimplex(whole));
  for (int r = 0; r < kRows; ++r) EXPECT_EQ(by_row.steps(r), 3);

  const std::vector<int32_t> cols = {1, 4};
  const std::vector<double> values = {2.0, 3.0};
  const SparseCountsRow good{cols, values, 5.0};
  EXPECT_DEATH(by_row.StepRow(kRows, good, 0.1), "row range \\[5, 6\\) is not inside");
  EXPECT_DEATH(by_row.StepRow(0, good, -1.0), "h must be finite and > 0");
  const std::vector<int32_t> unsorted = {4, 1};
  EXPECT_DEATH(by_row.StepRow(0, SparseCountsRow{unsorted, values, 5.0}, 0.1),
               "row 0 column 1 at entry 1 is out of \\[0, 700\\) or not above");
  const std::vector<int32_t> outside = {1, kCols};
  EXPECT_DEATH(by_row.StepRow(0, SparseCountsRow{outside, values, 5.0}, 0.1),
               "column 700 at entry 1 is out of");
  const std::vector<double> negative = {2.0, -3.0};
  EXPECT_DEATH(by_row.StepRow(2, SparseCountsRow{cols, negative, -1.0}, 0.1),
               "value at \\(2, 4\\) must be finite and > 0, got -3");
  EXPECT_DEATH(by_row.StepRow(0, SparseCountsRow{cols, values, 6.0}, 0.1),
               "row 0 total 6 is not the sum of its values in column order, 5");
  EXPECT_DEATH(by_row.StepRow(0, SparseCountsRow{cols, absl::MakeConstSpan(values).first(1), 2.0},
                              0.1),
               "row 0 has 2 columns and 1 values");
}

// A row's trajectory depends only on its own steps: stepping other rows does not change it.
TYPED_TEST(SimplexSamplerTypedTest, RowsAreIndependentStreams) {
  const SimplexCounts counts = MakeCounts(3, 20);
  TypeParam a = this->Make(3, 20, {0.2}, 5);
  TypeParam b = this->Make(3, 20, {0.2}, 5);
  for (int i = 0; i < 3; ++i) a.Step(counts, 0.1);
  for (int i = 0; i < 3; ++i) b.StepRows(counts, 0.1, 1, 2);
  std::vector<double> row_a(20), row_b(20);
  a.LogSimplex(1, absl::MakeSpan(row_a));
  b.LogSimplex(1, absl::MakeSpan(row_b));
  EXPECT_EQ(row_a, row_b);
  EXPECT_EQ(b.steps(0), 0);
  EXPECT_EQ(b.steps(1), 3);
}

TYPED_TEST(SimplexSamplerTypedTest, SimplexIsNormalisedAndConsistentWithLogSimplex) {
  constexpr int kRows = 4, kCols = 300;
  const SimplexCounts counts = MakeCounts(kRows, kCols);
  TypeParam sampler = this->Make(kRows, kCols, {0.5}, 3);
  for (int i = 0; i < 20; ++i) sampler.Step(counts, 0.02);
  std::vector<double> all(kRows * kCols);
  sampler.SimplexRows(0, kRows, absl::MakeSpan(all));
  std::vector<double> log_omega(kCols);
  for (int r = 0; r < kRows; ++r) {
    sampler.LogSimplex(r, absl::MakeSpan(log_omega));
    double sum = 0;
    for (int c = 0; c < kCols; ++c) {
      const double omega = all[r * kCols + c];
      ASSERT_TRUE(std::isfinite(log_omega[c]));
      ASSERT_GE(omega, 0);
      EXPECT_NEAR(omega, std::exp(log_omega[c]), 1e-14 + 1e-12 * omega);
      sum += omega;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TYPED_TEST(SimplexSamplerTypedTest, SetThetaValidatesAndIsObserved) {
  TypeParam sampler = this->Make(2, 3, {1.0}, 1);
  const std::vector<double> theta = {1.0, 2.0, 5.0};
  ASSERT_TRUE(sampler.SetTheta(1, theta).ok());
  std::vector<double> omega(3);
  sampler.Simplex(1, absl::MakeSpan(omega));
  EXPECT_NEAR(omega[0], 0.125, 1e-15);
  EXPECT_NEAR(omega[2], 0.625, 1e-15);
  const std::vector<double> log_theta = {0.0, std::log(3.0), 0.0};
  ASSERT_TRUE(sampler.SetLogTheta(0, log_theta).ok());
  sampler.Simplex(0, absl::MakeSpan(omega));
  EXPECT_NEAR(omega[1], 0.6, 1e-15);
  // Fresh rows are uniform.
  TypeParam fresh = this->Make(1, 4, {1.0}, 1);
  std::vector<double> uniform(4);
  fresh.Simplex(0, absl::MakeSpan(uniform));
  for (double w : uniform) EXPECT_DOUBLE_EQ(w, 0.25);

  EXPECT_THAT(sampler.SetTheta(2, theta).message(), HasSubstr("row 2 outside [0, 2)"));
  EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{1, 2}).message(),
              HasSubstr("2 values, expected cols = 3"));
  if constexpr (std::is_same_v<TypeParam, Scir>) {
    EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{1, 0, 2}).message(),
                HasSubstr("theta[1] must be finite and > 0"));
  } else {  // SGRLD can reach θ_j = 0 (sgrld_test.cc: a checkpoint holding it restores)
    EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{1, -1, 2}).message(),
                HasSubstr("theta[1] must be finite and >= 0"));
    EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{0, 0, 0}).message(),
                HasSubstr("must have a finite, positive sum"));
  }
  EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{1, NAN, 2}).message(),
              HasSubstr("theta[1] must be finite"));
  EXPECT_THAT(sampler.SetLogTheta(0, std::vector<double>{1, 0, INFINITY}).message(),
              HasSubstr("log_theta[2]"));
  // Found by //fuzz:lda_checkpoint_fuzzer: a finite log θ far above any chain's made θ = inf
  // and every later draw NaN. The bound is exact: e^512 restores, the next double does not.
  EXPECT_THAT(sampler.SetLogTheta(0, std::vector<double>{1, std::nextafter(512.0, 1e3), 0})
                  .message(),
              HasSubstr("theta[1] must be finite"));
  EXPECT_THAT(sampler.SetLogTheta(0, std::vector<double>{1, 3.8e8, 0}).message(),
              HasSubstr("log_theta[1]"));
  EXPECT_TRUE(sampler.SetTheta(0, std::vector<double>{1, kMaxSimplexTheta, 2}).ok());
  EXPECT_THAT(sampler.SetTheta(0, std::vector<double>{1, std::nextafter(kMaxSimplexTheta, 1e300),
                                                      2})
                  .message(),
              HasSubstr("theta[1] must be finite and >"));
}

TYPED_TEST(SimplexSamplerTypedTest, SimplexColumnsGathersSimplex) {
  constexpr int kRows = 5, kCols = 40;
  TypeParam sampler = this->Make(kRows, kCols, {0.3}, 8);
  for (int m = 0; m < 3; ++m) sampler.Step(MakeCounts(kRows, kCols), 0.1);
  const std::vector<int32_t> columns = {0, 3, 4, 17, 39};
  std::vector<double> gathered(kRows * columns.size());
  sampler.SimplexColumns(columns, absl::MakeSpan(gathered));
  // The generic path of SimplexParameters, through Simplex.
  std::vector<double> generic(gathered.size());
  sampler.SimplexParameters::SimplexColumns(columns, absl::MakeSpan(generic));
  std::vector<double> row(kCols);
  for (int k = 0; k < kRows; ++k) {
    sampler.Simplex(k, absl::MakeSpan(row));
    for (size_t j = 0; j < columns.size(); ++j) {
      const double expected = row[columns[j]];
      EXPECT_EQ(generic[k * columns.size() + j], expected);
      EXPECT_NEAR(gathered[k * columns.size() + j], expected, 4e-16 * expected)
          << "row " << k << " column " << columns[j];
    }
  }
  std::vector<double> wrong(3);
  EXPECT_DEATH(sampler.SimplexColumns(columns, absl::MakeSpan(wrong)),
               "out has size 3, expected 5 x 5");
}

TYPED_TEST(SimplexSamplerTypedTest, RestoredStateContinuesBitIdentically) {
  constexpr int kRows = 4, kCols = 300;
  TypeParam uninterrupted = this->Make(kRows, kCols, {0.2}, 5);
  TypeParam first = this->Make(kRows, kCols, {0.2}, 5);
  for (int m = 0; m < 3; ++m) {
    uninterrupted.Step(MakeCounts(kRows, kCols), 0.1);
    first.Step(MakeCounts(kRows, kCols), 0.1);
  }
  const SimplexSamplerState state = first.SaveState();
  EXPECT_EQ(state.rows(), kRows);
  EXPECT_EQ(state.parameters_size(), kRows * kCols);
  EXPECT_EQ(state.row_steps(0), 3);
  TypeParam resumed = this->Make(kRows, kCols, {0.2}, 5);
  ASSERT_TRUE(resumed.RestoreState(state).ok());
  EXPECT_EQ(this->AllLogSimplex(resumed), this->AllLogSimplex(first));
  for (int m = 0; m < 2; ++m) {
    uninterrupted.Step(MakeCounts(kRows, kCols), 0.1);
    resumed.Step(MakeCounts(kRows, kCols), 0.1);
  }
  EXPECT_EQ(resumed.SaveState().SerializeAsString(), uninterrupted.SaveState().SerializeAsString());

  SimplexSamplerState bad = state;
  bad.mutable_row_steps()->RemoveLast();
  EXPECT_THAT(std::string(resumed.RestoreState(bad).message()),
              HasSubstr("SimplexSamplerState.row_steps has 3 entries, expected 4"));
  bad = state;
  bad.set_cols(kCols + 1);
  EXPECT_THAT(std::string(resumed.RestoreState(bad).message()),
              HasSubstr("shape is 4 x 301, expected 4 x 300"));
  bad = state;
  bad.set_parameterization("other");
  EXPECT_THAT(std::string(resumed.RestoreState(bad).message()),
              HasSubstr("parameterization is \"other\""));
  bad = state;
  bad.set_parameters(7, std::nan(""));
  EXPECT_EQ(resumed.RestoreState(bad).code(), absl::StatusCode::kInvalidArgument);
}

TEST(SimplexSamplerStateTest, SamplersStoreTheirOwnParameterization) {
  EXPECT_EQ(MakeSimplexSampler<Scir>(2, 3, {0.5}, 1).SaveState().parameterization(),
            "log_theta");
  const SimplexSamplerState sgrld = MakeSimplexSampler<Sgrld>(2, 3, {0.5}, 1).SaveState();
  EXPECT_EQ(sgrld.parameterization(), "theta");
  Scir scir = MakeSimplexSampler<Scir>(2, 3, {0.5}, 1);
  EXPECT_THAT(std::string(scir.RestoreState(sgrld).message()),
              HasSubstr("parameterization is \"theta\", expected \"log_theta\""));
}

TYPED_TEST(SimplexSamplerTypedTest, BadStepArgumentsDie) {
  TypeParam sampler = this->Make(2, 3, {1.0}, 1);
  const SimplexCounts wrong_shape(2, 4);
  const SimplexCounts counts(2, 3);
  EXPECT_DEATH(sampler.Step(wrong_shape, 0.1), "counts are 2 x 4, sampler is 2 x 3");
  EXPECT_DEATH(sampler.Step(counts, 0.0), "h must be finite and > 0, got 0");
  EXPECT_DEATH(sampler.Step(counts, NAN), "h must be finite and > 0");
  EXPECT_DEATH(sampler.StepRows(counts, 0.1, 1, 3), "row range \\[1, 3\\) is not inside");
  EXPECT_DEATH(sampler.StepRows(counts, 0.1, 2, 1), "row range \\[2, 1\\) is not inside");
  // Bad dense counts die in every build, not only with DCHECKs on.
  const std::vector<double> negative = {1, 2, 3, 0, -1, 0};
  EXPECT_DEATH(sampler.Step(DenseCountsView{2, 3, negative}, 0.1), "dense count -1 in row 1");
  const std::vector<double> nan = {1, 2, 3, 0, NAN, 0};
  EXPECT_DEATH(sampler.Step(DenseCountsView{2, 3, nan}, 0.1), "dense count nan in row 1");
  const std::vector<double> inf = {INFINITY, 2, 3, 0, 1, 0};
  EXPECT_DEATH(sampler.StepRows(DenseCountsView{2, 3, inf}, 0.1, 0, 1), "dense count inf in row 0");
  // Only the rows in range are read (and checked).
  sampler.StepRows(DenseCountsView{2, 3, negative}, 0.1, 0, 1);
  const std::vector<double> too_few = {1, 2};
  EXPECT_DEATH(sampler.Step(DenseCountsView{2, 3, too_few}, 0.1), "dense counts have 2 values");
  std::vector<double> out(5);
  EXPECT_DEATH(sampler.SimplexRows(0, 2, absl::MakeSpan(out)), "out has size 5, expected 2 x 3");
  EXPECT_DEATH(sampler.Simplex(0, absl::MakeSpan(out)), "out has size 5, expected 3");
}

}  // namespace
}  // namespace sgmcmc::samplers
