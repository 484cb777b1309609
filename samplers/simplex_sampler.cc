#include "samplers/simplex_sampler.h"

#include <cmath>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace sgmcmc::samplers {

absl::Status SimplexSamplerOptions::Validate() const {
  if (rows < 1 || rows >= (1 << kSimplexStreamRowBits)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SimplexSamplerOptions.rows must be in [1, 2^24), got ", rows));
  }
  if (cols < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("SimplexSamplerOptions.cols must be >= 2, got ", cols));
  }
  if (alpha.size() != 1 && alpha.size() != static_cast<size_t>(cols)) {
    return absl::InvalidArgumentError(
        absl::StrCat("SimplexSamplerOptions.alpha must have 1 or cols = ", cols, " entries, got ",
                     alpha.size()));
  }
  for (size_t j = 0; j < alpha.size(); ++j) {
    if (!(alpha[j] > 0) || !std::isfinite(alpha[j])) {
      return absl::InvalidArgumentError(absl::StrCat("SimplexSamplerOptions.alpha[", j,
                                                     "] must be finite and > 0, got ", alpha[j]));
    }
  }
  return absl::OkStatus();
}

uint64_t SimplexStreamId(uint64_t step, int row) {
  SGMCMC_CHECK(step < (uint64_t{1} << kSimplexStreamStepBits))
      << "SimplexStreamId: step must be < 2^32, got " << step;
  SGMCMC_CHECK(row >= 0 && row < (1 << kSimplexStreamRowBits))
      << "SimplexStreamId: row must be in [0, 2^24), got " << row;
  return (kSimplexStreamTag << (kSimplexStreamStepBits + kSimplexStreamRowBits)) |
         (step << kSimplexStreamRowBits) | static_cast<uint64_t>(row);
}

SimplexSampler::SimplexSampler(SimplexSamplerOptions options)
    : options_(std::move(options)),
      alpha_(options_.alpha.size() == 1 ? std::vector<double>(options_.cols, options_.alpha[0])
                                        : options_.alpha),
      steps_(options_.rows, 0) {
  SGMCMC_CHECK(options_.Validate().ok())
      << "SimplexSampler: invalid options: " << options_.Validate().message();
}

void SimplexSampler::CheckStepArguments(const char* what, int counts_rows, int counts_cols,
                                        double h, int row_begin, int row_end) const {
  SGMCMC_CHECK(counts_rows == rows() && counts_cols == cols())
      << what << ": counts are " << counts_rows << " x " << counts_cols << ", sampler is " << rows()
      << " x " << cols();
  SGMCMC_CHECK(h > 0 && std::isfinite(h)) << what << ": h must be finite and > 0, got " << h;
  SGMCMC_CHECK(0 <= row_begin && row_begin <= row_end && row_end <= rows())
      << what << ": row range [" << row_begin << ", " << row_end << ") is not inside [0, " << rows()
      << "]";
}

void SimplexSampler::CheckDenseCounts(absl::Span<const double> counts, int row) {
  // In every build, by one vectorised reduction over the row just before the step reads it
  // (so it is then in cache): Σ_j (c_j − |c_j|) is 0 exactly when every c_j is finite and
  // >= 0 (a finite c >= 0 adds 0, a negative one 2c < 0, NaN and +inf add NaN, −inf adds
  // −inf). Only otherwise are the entries checked one by one, to name the offender.
  const Eigen::Map<const Eigen::ArrayXd> values(counts.data(),
                                                static_cast<Eigen::Index>(counts.size()));
  if ((values - values.abs()).sum() == 0) return;
  for (double c : counts) {
    SGMCMC_CHECK(c >= 0 && std::isfinite(c))
        << "SimplexSampler::StepRows: dense count " << c << " in row " << row
        << " must be finite and >= 0";
  }
}

rng::Engine SimplexSampler::NextEngine(int row) {
  const int64_t step = ++steps_[row];
  return rng::Engine(options_.seed, SimplexStreamId(step, row));
}

void SimplexSampler::StepRows(const SimplexCounts& counts, double h, int row_begin, int row_end) {
  CheckStepArguments("SimplexSampler::StepRows", counts.rows(), counts.cols(), h, row_begin,
                     row_end);
  for (int row = row_begin; row < row_end; ++row) {
    rng::Engine engine = NextEngine(row);
    StepRowSparse(row, counts.row(row), h, engine);
  }
}

void SimplexSampler::CheckSparseRow(const char* what, int row,
                                    const SparseCountsRow& counts) const {
  SGMCMC_CHECK(counts.cols.size() == counts.values.size())
      << what << ": row " << row << " has " << counts.cols.size() << " columns and "
      << counts.values.size() << " values";
  double total = 0;
  for (size_t e = 0; e < counts.cols.size(); ++e) {
    const int32_t col = counts.cols[e];
    SGMCMC_CHECK(col >= (e == 0 ? 0 : counts.cols[e - 1] + 1) && col < cols())
        << what << ": row " << row << " column " << col << " at entry " << e
        << " is out of [0, " << cols() << ") or not above the previous one";
    SGMCMC_CHECK(counts.values[e] > 0 && std::isfinite(counts.values[e]))
        << what << ": value at (" << row << ", " << col << ") must be finite and > 0, got "
        << counts.values[e];
    total += counts.values[e];
  }
  SGMCMC_CHECK(total == counts.total)
      << what << ": row " << row << " total " << counts.total
      << " is not the sum of its values in column order, " << total;
}

void SimplexSampler::StepRow(int row, const SparseCountsRow& counts, double h) {
  CheckStepArguments("SimplexSampler::StepRow", rows(), cols(), h, row, row + 1);
  CheckSparseRow("SimplexSampler::StepRow", row, counts);
  rng::Engine engine = NextEngine(row);
  StepRowSparse(row, counts, h, engine);
}

void SimplexSampler::StepRowBlock(int row, const SparseCountsRow& counts, double h,
                                  double whole_row_sum, double whole_count_total) {
  CheckStepArguments("SimplexSampler::StepRowBlock", rows(), cols(), h, row, row + 1);
  CheckSparseRow("SimplexSampler::StepRowBlock", row, counts);
  SGMCMC_CHECK(whole_row_sum > 0 && std::isfinite(whole_row_sum) && whole_count_total >= 0 &&
               std::isfinite(whole_count_total))
      << "SimplexSampler::StepRowBlock: row " << row << " whole row sum " << whole_row_sum
      << " and count total " << whole_count_total << " must be finite, > 0 and >= 0";
  rng::Engine engine = NextEngine(row);
  StepRowSparseBlock(row, counts, h, whole_row_sum, whole_count_total, engine);
}

void SimplexSampler::StepRows(const DenseCountsView& counts, double h, int row_begin, int row_end) {
  CheckStepArguments("SimplexSampler::StepRows", counts.rows, counts.cols, h, row_begin, row_end);
  SGMCMC_CHECK(counts.values.size() == static_cast<size_t>(counts.rows) * counts.cols)
      << "SimplexSampler::StepRows: dense counts have " << counts.values.size()
      << " values, expected " << counts.rows << " x " << counts.cols;
  for (int row = row_begin; row < row_end; ++row) {
    CheckDenseCounts(counts.row(row), row);
    rng::Engine engine = NextEngine(row);
    StepRowDense(row, counts.row(row), h, engine);
  }
}

void SimplexSampler::SimplexRows(int row_begin, int row_end, absl::Span<double> out) const {
  SGMCMC_CHECK(0 <= row_begin && row_begin <= row_end && row_end <= rows())
      << "SimplexSampler::SimplexRows: row range [" << row_begin << ", " << row_end
      << ") is not inside [0, " << rows() << "]";
  SGMCMC_CHECK(out.size() == static_cast<size_t>(row_end - row_begin) * cols())
      << "SimplexSampler::SimplexRows: out has size " << out.size() << ", expected "
      << (row_end - row_begin) << " x " << cols();
  for (int row = row_begin; row < row_end; ++row) {
    Simplex(row, out.subspan(static_cast<size_t>(row - row_begin) * cols(), cols()));
  }
}

absl::Status SimplexSampler::SetSteps(absl::Span<const int64_t> steps) {
  if (steps.size() != steps_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("SimplexSampler::SetSteps: got ", steps.size(),
                                                   " step counts, expected rows = ", rows()));
  }
  for (size_t row = 0; row < steps.size(); ++row) {
    if (steps[row] < 0 || steps[row] >= (int64_t{1} << kSimplexStreamStepBits)) {
      return absl::InvalidArgumentError(absl::StrCat("SimplexSampler::SetSteps: row ", row,
                                                     " has step count ", steps[row],
                                                     ", outside [0, 2^32)"));
    }
  }
  steps_.assign(steps.begin(), steps.end());
  return absl::OkStatus();
}

SimplexSamplerState SimplexSampler::SaveState() const {
  SimplexSamplerState state;
  state.set_parameterization(stored_parameterization());
  state.set_rows(rows());
  state.set_cols(cols());
  state.mutable_parameters()->Reserve(rows() * cols());
  for (int row = 0; row < rows(); ++row) {
    for (double value : StoredRow(row)) state.add_parameters(value);
  }
  *state.mutable_row_steps() = {steps_.begin(), steps_.end()};
  return state;
}

absl::Status SimplexSampler::RestoreState(const SimplexSamplerState& state) {
  auto error = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("SimplexSamplerState.", parts...));
  };
  if (state.parameterization() != stored_parameterization()) {
    return error("parameterization is \"", state.parameterization(), "\", expected \"",
                 stored_parameterization(), "\"");
  }
  if (state.rows() != rows() || state.cols() != cols()) {
    return error("shape is ", state.rows(), " x ", state.cols(), ", expected ", rows(), " x ",
                 cols());
  }
  const size_t size = static_cast<size_t>(rows()) * cols();
  if (static_cast<size_t>(state.parameters_size()) != size) {
    return error("parameters has ", state.parameters_size(), " entries, expected ", size);
  }
  if (state.row_steps_size() != rows()) {
    return error("row_steps has ", state.row_steps_size(), " entries, expected ", rows());
  }
  const absl::Span<const int64_t> steps(state.row_steps().data(), state.row_steps_size());
  for (int row = 0; row < rows(); ++row) {
    if (steps[row] < 0 || steps[row] >= (int64_t{1} << kSimplexStreamStepBits)) {
      return error("row_steps[", row, "] = ", steps[row], " is outside [0, 2^32)");
    }
  }
  for (int row = 0; row < rows(); ++row) {
    const absl::Span<const double> values(
        state.parameters().data() + static_cast<size_t>(row) * cols(), cols());
    if (absl::Status s = SetStoredRow(row, values); !s.ok()) return s;
  }
  return SetSteps(steps);
}

absl::Status SimplexSampler::ValidateRowInput(const char* what, int row,
                                              absl::Span<const double> values) const {
  if (row < 0 || row >= rows()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": row ", row, " outside [0, ", rows(), ")"));
  }
  if (values.size() != static_cast<size_t>(cols())) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": row ", row, " has ", values.size(),
                                                   " values, expected cols = ", cols()));
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::samplers
