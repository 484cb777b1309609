#include "samplers/sgrld.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "rng/normal.h"

namespace sgmcmc::samplers {
namespace {

using ArrayMap = Eigen::Map<Eigen::ArrayXd>;
using ConstArrayMap = Eigen::Map<const Eigen::ArrayXd>;

// What a row step adds to the drift besides the θ terms: (h/2)(α_j + ĉ_j), with ĉ either a
// dense row or sparse entries (null when absent).
struct RowInputs {
  absl::Span<const double> alpha;  // cols entries
  bool symmetric = true;           // alpha[j] == alpha[0] for all j
  const double* dense_counts = nullptr;
  const SparseCountsRow* sparse_counts = nullptr;
  double count_total = 0;  // ĉ_·
};

// θ ← |θ + (h/2)(α − θ + ĉ − ω ĉ_·) + √(hθ) ξ| over one row; returns the new row sum.
// Written as θ(1 − (h/2)(1 + ĉ_·/θ_·)) + (h/2)(α + ĉ) + √(hθ) ξ before mirroring.
double SgrldRowStep(double* theta, int cols, double row_sum, const RowInputs& in, double h,
                    rng::Engine& engine) {
  const double half_h = 0.5 * h;
  // ĉ_·/θ_· overflows for a row of almost no mass (a subnormal θ_·, e.g. a restored stick row
  // of 8e-320 and 8e-320: θ became inf, then NaN; found by //fuzz:dp_checkpoint_fuzzer). The
  // term ω_j ĉ_· (ω_j <= 1) is then taken entry by entry as (θ_j / θ_·) ĉ_·.
  const double count_per_mass = in.count_total / row_sum;
  const bool tiny_row = !std::isfinite(count_per_mass);
  const double theta_coefficient = 1.0 - half_h * (1.0 + (tiny_row ? 0.0 : count_per_mass));
  const double symmetric_offset = half_h * in.alpha[0];
  alignas(64) double noise[Sgrld::kNoiseBlock];
  size_t next_entry = 0;
  double new_sum = 0;
  for (int begin = 0; begin < cols; begin += Sgrld::kNoiseBlock) {
    const int n = std::min(Sgrld::kNoiseBlock, cols - begin);
    rng::FillNormal(engine, absl::MakeSpan(noise, n));
    ArrayMap t(theta + begin, n);
    ArrayMap z(noise, n);
    if (in.symmetric) {
      z = theta_coefficient * t + symmetric_offset + (h * t).sqrt() * z;
    } else {
      z = theta_coefficient * t + half_h * ConstArrayMap(in.alpha.data() + begin, n) +
          (h * t).sqrt() * z;
    }
    if (tiny_row) z -= (half_h * in.count_total) * (t / row_sum);
    if (in.dense_counts != nullptr) {
      z += half_h * ConstArrayMap(in.dense_counts + begin, n);
    }
    if (in.sparse_counts != nullptr) {
      const SparseCountsRow& s = *in.sparse_counts;
      for (; next_entry < s.cols.size() && s.cols[next_entry] < begin + n; ++next_entry) {
        noise[s.cols[next_entry] - begin] += half_h * s.values[next_entry];
      }
    }
    t = z.abs();
    new_sum += t.sum();
  }
  return new_sum;
}

// Σ_j θ_j of a stored row, summed block by block over the same memory exactly as
// SgrldRowStep sums a new row, so SetTheta of a checkpointed row restores the bit-identical
// row sum (a one-pass sum would round differently and a resumed chain would drift apart).
double StoredRowSum(const double* theta, int cols) {
  double sum = 0;
  for (int begin = 0; begin < cols; begin += Sgrld::kNoiseBlock) {
    sum += ConstArrayMap(theta + begin, std::min(Sgrld::kNoiseBlock, cols - begin)).sum();
  }
  return sum;
}

}  // namespace

Sgrld::Sgrld(SimplexSamplerOptions options)
    : SimplexSampler(std::move(options)),
      theta_(static_cast<size_t>(rows()) * cols(), 1.0),
      row_sum_(rows(), static_cast<double>(cols())) {}

absl::StatusOr<Sgrld> Sgrld::Create(SimplexSamplerOptions options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return Sgrld(std::move(options));
}

void Sgrld::StepRowSparse(int row, const SparseCountsRow& counts, double h, rng::Engine& engine) {
  RowInputs in;
  in.alpha = alpha_vector();
  in.symmetric = symmetric_prior();
  in.sparse_counts = &counts;
  in.count_total = counts.total;
  row_sum_[row] = SgrldRowStep(mutable_theta(row), cols(), row_sum_[row], in, h, engine);
}

// θ's coefficient 1 − (h/2)(1 + ĉ_·/θ_·) takes the whole row's ĉ_· and θ_·; the block's new
// Σθ is kept as its row_sum.
void Sgrld::StepRowSparseBlock(int row, const SparseCountsRow& counts, double h,
                               double whole_row_sum, double whole_count_total,
                               rng::Engine& engine) {
  RowInputs in;
  in.alpha = alpha_vector();
  in.symmetric = symmetric_prior();
  in.sparse_counts = &counts;
  in.count_total = whole_count_total;
  row_sum_[row] = SgrldRowStep(mutable_theta(row), cols(), whole_row_sum, in, h, engine);
}

void Sgrld::StepRowDense(int row, absl::Span<const double> counts, double h, rng::Engine& engine) {
  RowInputs in;
  in.alpha = alpha_vector();
  in.symmetric = symmetric_prior();
  in.dense_counts = counts.data();
  in.count_total = ConstArrayMap(counts.data(), cols()).sum();
  row_sum_[row] = SgrldRowStep(mutable_theta(row), cols(), row_sum_[row], in, h, engine);
}

void Sgrld::Simplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Sgrld::Simplex: out has size " << out.size() << ", expected " << cols();
  ArrayMap(out.data(), cols()) = ConstArrayMap(theta(row).data(), cols()) * (1.0 / row_sum_[row]);
}

void Sgrld::LogSimplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Sgrld::LogSimplex: out has size " << out.size() << ", expected " << cols();
  ArrayMap(out.data(), cols()) =
      ConstArrayMap(theta(row).data(), cols()).log() - std::log(row_sum_[row]);
}

void Sgrld::SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const {
  const size_t width = columns.size();
  SGMCMC_CHECK(out.size() == static_cast<size_t>(rows()) * width)
      << "Sgrld::SimplexColumns: out has size " << out.size() << ", expected " << rows()
      << " x " << width;
  for (int k = 0; k < rows(); ++k) {
    const double* t = theta(k).data();
    const double inverse_sum = 1.0 / row_sum_[k];
    double* out_row = out.data() + static_cast<size_t>(k) * width;
    for (size_t j = 0; j < width; ++j) out_row[j] = t[columns[j]] * inverse_sum;
  }
}

absl::Status Sgrld::SetTheta(int row, absl::Span<const double> theta) {
  if (absl::Status s = ValidateRowInput("Sgrld::SetTheta", row, theta); !s.ok()) return s;
  // θ_j = 0 is a state the chain itself can reach (an exact mirror hit), so a checkpoint
  // holding it must restore; only a row without mass has no ω.
  for (int j = 0; j < cols(); ++j) {
    if (!(theta[j] >= 0) || !(theta[j] <= kMaxSimplexTheta)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Sgrld::SetTheta: row ", row, " theta[", j, "] must be finite and >= 0 (at most e^",
                       kMaxSimplexLogTheta, "), got ", theta[j]));
    }
  }
  const double sum = StoredRowSum(theta.data(), cols());
  if (!(sum > 0) || !std::isfinite(sum)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Sgrld::SetTheta: row ", row, " must have a finite, positive sum, got ", sum));
  }
  std::copy(theta.begin(), theta.end(), mutable_theta(row));
  row_sum_[row] = StoredRowSum(mutable_theta(row), cols());
  return absl::OkStatus();
}

absl::Status Sgrld::SetLogTheta(int row, absl::Span<const double> log_theta) {
  if (absl::Status s = ValidateRowInput("Sgrld::SetLogTheta", row, log_theta); !s.ok()) return s;
  std::vector<double> theta(cols());
  for (int j = 0; j < cols(); ++j) {
    theta[j] = std::exp(log_theta[j]);
    // −inf is θ_j = 0 (LogSimplex's value there), which SetTheta accepts.
    const bool zero = log_theta[j] == -std::numeric_limits<double>::infinity();
    if (!zero && (!std::isfinite(log_theta[j]) || !(theta[j] > 0) || !std::isfinite(theta[j]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("Sgrld::SetLogTheta: row ", row, " log_theta[", j, "] = ", log_theta[j],
                       " must be -inf or finite with exp() a positive finite double"));
    }
  }
  return SetTheta(row, theta);
}

}  // namespace sgmcmc::samplers
