#include "samplers/count_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sgmcmc::samplers {
namespace {

bool ValidCount(double value) { return std::isfinite(value) && value >= 0; }

absl::Status ValidateShape(const char* function, int rows, int cols) {
  if (rows < 1 || cols < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(function, ": rows and cols must be >= 1, got ", rows, " x ", cols));
  }
  return absl::OkStatus();
}

}  // namespace

void SimplexParameters::SimplexColumns(absl::Span<const int32_t> columns,
                                       absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(rows()) * columns.size())
      << "SimplexParameters::SimplexColumns: out has size " << out.size() << ", expected "
      << rows() << " x " << columns.size();
  std::vector<double> row(cols());
  for (int k = 0; k < rows(); ++k) {
    Simplex(k, absl::MakeSpan(row));
    double* out_row = out.data() + static_cast<size_t>(k) * columns.size();
    for (size_t j = 0; j < columns.size(); ++j) out_row[j] = row[columns[j]];
  }
}

void SimplexCounts::Reset(int rows, int cols) {
  SGMCMC_CHECK(rows >= 1 && cols >= 1)
      << "SimplexCounts::Reset: rows and cols must be >= 1, got " << rows << " x " << cols;
  cols_ = cols;
  last_row_ = -1;
  last_col_ = -1;
  row_begin_.assign(rows, 0);
  row_totals_.assign(rows, 0.0);
  cols_index_.clear();
  values_.clear();
}

void SimplexCounts::Append(int row, int col, double value) {
  SGMCMC_CHECK(row >= 0 && row < rows())
      << "SimplexCounts::Append: row " << row << " outside [0, " << rows() << ")";
  SGMCMC_CHECK(col >= 0 && col < cols_)
      << "SimplexCounts::Append: col " << col << " outside [0, " << cols_ << ")";
  SGMCMC_CHECK(row > last_row_ || (row == last_row_ && col > last_col_))
      << "SimplexCounts::Append: entries must come in increasing (row, col) order, got (" << row
      << ", " << col << ") after (" << last_row_ << ", " << last_col_ << ")";
  SGMCMC_CHECK(ValidCount(value)) << "SimplexCounts::Append: value at (" << row << ", " << col
                                  << ") must be finite and >= 0, got " << value;
  if (value == 0) return;
  for (int r = last_row_ + 1; r <= row; ++r) row_begin_[r] = static_cast<int64_t>(values_.size());
  last_row_ = row;
  last_col_ = col;
  cols_index_.push_back(col);
  values_.push_back(value);
  row_totals_[row] += value;
}

void SimplexCounts::ResetRowSizes(int rows, int cols, absl::Span<const int64_t> row_sizes) {
  SGMCMC_CHECK(rows >= 1 && cols >= 1)
      << "SimplexCounts::ResetRowSizes: rows and cols must be >= 1, got " << rows << " x " << cols;
  SGMCMC_CHECK(row_sizes.size() == static_cast<size_t>(rows))
      << "SimplexCounts::ResetRowSizes: " << row_sizes.size() << " row sizes for " << rows
      << " rows";
  cols_ = cols;
  row_begin_.resize(rows);
  int64_t total = 0;
  for (int r = 0; r < rows; ++r) {
    SGMCMC_CHECK(row_sizes[r] >= 0)
        << "SimplexCounts::ResetRowSizes: row " << r << " has size " << row_sizes[r];
    row_begin_[r] = total;
    total += row_sizes[r];
  }
  row_totals_.assign(rows, 0.0);
  // Every slot is written by SetRow, so growing needs no particular value and shrinking or
  // keeping the size writes nothing.
  cols_index_.resize(total);
  values_.resize(total);
  // Append's order check then refuses every entry: the matrix is filled by SetRow only.
  last_row_ = rows - 1;
  last_col_ = cols;
}

void SimplexCounts::SetRow(int row, absl::Span<const int32_t> cols,
                           absl::Span<const double> values) {
  SGMCMC_CHECK(row >= 0 && row < rows())
      << "SimplexCounts::SetRow: row " << row << " outside [0, " << rows() << ")";
  const int64_t begin = RowBegin(row), size = RowEnd(row) - begin;
  SGMCMC_CHECK(static_cast<int64_t>(cols.size()) == size &&
               static_cast<int64_t>(values.size()) == size)
      << "SimplexCounts::SetRow: row " << row << " has " << size << " slots, got "
      << cols.size() << " columns and " << values.size() << " values";
  double total = 0;
  for (int64_t e = 0; e < size; ++e) {
    SGMCMC_CHECK(cols[e] >= (e == 0 ? 0 : cols[e - 1] + 1) && cols[e] < cols_)
        << "SimplexCounts::SetRow: row " << row << " column " << cols[e] << " at entry " << e
        << " is out of [0, " << cols_ << ") or not above the previous one";
    SGMCMC_CHECK(ValidCount(values[e]) && values[e] > 0)
        << "SimplexCounts::SetRow: value at (" << row << ", " << cols[e]
        << ") must be finite and > 0, got " << values[e];
    cols_index_[begin + e] = cols[e];
    values_[begin + e] = values[e];
    total += values[e];
  }
  row_totals_[row] = total;
}

absl::StatusOr<SimplexCounts> SimplexCounts::FromTriplets(int rows, int cols,
                                                          std::vector<Triplet> triplets) {
  if (absl::Status s = ValidateShape("SimplexCounts::FromTriplets", rows, cols); !s.ok()) return s;
  for (size_t i = 0; i < triplets.size(); ++i) {
    const Triplet& t = triplets[i];
    if (t.row < 0 || t.row >= rows || t.col < 0 || t.col >= cols || !ValidCount(t.value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "SimplexCounts::FromTriplets: triplet ", i, " = (", t.row, ", ", t.col, ", ", t.value,
          ") needs row in [0, ", rows, "), col in [0, ", cols, ") and a finite value >= 0"));
    }
  }
  std::sort(triplets.begin(), triplets.end(), [](const Triplet& a, const Triplet& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  SimplexCounts counts(rows, cols);
  for (size_t i = 0; i < triplets.size();) {
    double sum = 0;
    size_t j = i;
    for (; j < triplets.size() && triplets[j].row == triplets[i].row &&
           triplets[j].col == triplets[i].col;
         ++j) {
      sum += triplets[j].value;
    }
    counts.Append(triplets[i].row, triplets[i].col, sum);
    i = j;
  }
  return counts;
}

absl::StatusOr<SimplexCounts> SimplexCounts::FromDense(int rows, int cols,
                                                       absl::Span<const double> values) {
  if (absl::Status s = ValidateShape("SimplexCounts::FromDense", rows, cols); !s.ok()) return s;
  if (values.size() != static_cast<size_t>(rows) * cols) {
    return absl::InvalidArgumentError(absl::StrCat("SimplexCounts::FromDense: values has size ",
                                                   values.size(), ", expected ", rows, " x ",
                                                   cols));
  }
  SimplexCounts counts(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const double v = values[static_cast<size_t>(r) * cols + c];
      if (!ValidCount(v)) {
        return absl::InvalidArgumentError(absl::StrCat("SimplexCounts::FromDense: entry (", r, ", ",
                                                       c, ") = ", v, " must be finite and >= 0"));
      }
      counts.Append(r, c, v);
    }
  }
  return counts;
}

void SimplexCounts::ToDense(absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(rows()) * cols_)
      << "SimplexCounts::ToDense: out has size " << out.size() << ", expected " << rows() << " x "
      << cols_;
  std::fill(out.begin(), out.end(), 0.0);
  for (int r = 0; r < rows(); ++r) {
    const SparseCountsRow entries = row(r);
    double* dense_row = out.data() + static_cast<size_t>(r) * cols_;
    for (size_t e = 0; e < entries.cols.size(); ++e) dense_row[entries.cols[e]] = entries.values[e];
  }
}

}  // namespace sgmcmc::samplers
