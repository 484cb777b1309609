// Implementation notes (the contract and the derivation summary are in scir_lazy.h, the full
// derivation in docs/ALGORITHMS.md "Lazy SCIR").
//
// Order of the draws of one step of a row (its engine, stream SimplexStreamId(t, k)):
//  1. departures of the pooled entries with a non-zero count (Depart);
//  2. the pool's Poisson total N ~ Poisson(S r) (CirPoissonSample) and the Pólya urn over the
//     pool as it stands (before any entry joins): draw t = 0 .. N-1 takes one uniform u on
//     (0, n α + M + t) (n pooled entries, M old balls): u < n α picks pooled entry
//     floor(u / α) (the α part of its weight α + P_j + new_j, uniform over the entries);
//     otherwise ball floor(u − n α) of the old balls followed by the balls drawn so far (the
//     P_j + new_j part). The drawn balls are the new generation's P'.
//  3. the materialised entries in list order: with a zero count and θ r < kJoinMaxPoissonMean,
//     P'_j ~ Poisson(θ_j r) and the entry joins the pool (its P'_j balls appended); otherwise
//     Scir's LogCirTransition with its count;
//  4. S' = c Gamma(n' α + Σ P') over the new pool (rng::LogGammaSample, log space).
// log θ· = log(S' + Σ_materialised θ_j) by one max-shifted sum.
//
// Departure of a set A of pooled entries (aggregation property of the Dirichlet): one
// log Gamma(α + P_i) per entry (rng::LogGammaTable for P_i = 0), one log Gamma(B − Σ_A (α +
// P_i)) for the rest (none when the pool empties), all in log space, so a θ_i far below
// DBL_MIN (α = 0.01) stays finite.

#include "samplers/scir_lazy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/gamma.h"
#include "rng/poisson.h"
#include "rng/uniform.h"
#include "samplers/scir_internal.h"

namespace sgmcmc::samplers {
namespace {

using scir_internal::CirConstants;
using scir_internal::CirPoissonSample;
using scir_internal::kLowest;
using scir_internal::LogCirTransition;
using scir_internal::PoissonMean;

constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();

// log Σ_i exp(x_i) over the listed entries plus exp(extra) (extra may be −inf; not every
// term −inf).
double LogSumExpListed(const double* log_theta, absl::Span<const int32_t> entries,
                       double extra) {
  double max = extra;
  for (int32_t j : entries) max = std::max(max, log_theta[j]);
  double sum = extra == kNegativeInfinity ? 0.0 : std::exp(extra - max);
  for (int32_t j : entries) sum += std::exp(log_theta[j] - max);
  return max + std::log(sum);
}

}  // namespace

uint64_t LazyScirReadStreamId(uint64_t step, int row) {
  return (SimplexStreamId(step, row) & ~(uint64_t{0xFF} << 56)) | (kLazyScirReadStreamTag << 56);
}

LazyScir::LazyScir(SimplexSamplerOptions options)
    : SimplexSampler(std::move(options)), alpha_(alpha(0)), rows_(rows()) {
  departure_table_ = scir_internal::LogGammaTableOrNull(alpha_);
  zero_count_table_ = scir_internal::ZeroCountTable(alpha_);
  const std::vector<double> zeros(cols(), 0.0);
  for (int k = 0; k < rows(); ++k) SGMCMC_CHECK(SetLogTheta(k, zeros).ok());
}

absl::StatusOr<LazyScir> LazyScir::Create(SimplexSamplerOptions options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (options.alpha.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LazyScir: the prior must be symmetric (one alpha), got ", options.alpha.size()));
  }
  return LazyScir(std::move(options));
}

rng::Engine& LazyScir::ReadEngine(int index) const {
  Row& row = rows_[index];
  if (!row.read_engine.has_value() || row.read_step != steps(index)) {
    row.read_engine.emplace(options().seed,
                            LazyScirReadStreamId(static_cast<uint64_t>(steps(index)), index));
    row.read_step = steps(index);
  }
  return *row.read_engine;
}

void LazyScir::Depart(Row& row, absl::Span<const int32_t> entries, rng::Engine& engine) const {
  if (entries.empty()) return;
  thread_local std::vector<double> log_g;
  log_g.resize(entries.size());
  int64_t departing_balls = 0;
  double max = kNegativeInfinity;
  for (size_t i = 0; i < entries.size(); ++i) {
    const int32_t b = row.slots[entries[i]].balls;
    departing_balls += b;
    log_g[i] = b == 0 && departure_table_ != nullptr
                   ? departure_table_->Sample(engine)
                   : rng::LogGammaSample(engine, alpha_ + static_cast<double>(b));
    max = std::max(max, log_g[i]);
  }
  const int64_t rest_members = static_cast<int64_t>(row.members.size() - entries.size());
  SGMCMC_DCHECK(rest_members >= 0);
  double log_rest = kNegativeInfinity;
  if (rest_members > 0) {
    const double rest_shape = static_cast<double>(rest_members) * alpha_ +
                              static_cast<double>(row.live_balls - departing_balls);
    log_rest = rng::LogGammaSample(engine, rest_shape);
    max = std::max(max, log_rest);
  }
  double sum = rest_members > 0 ? std::exp(log_rest - max) : 0.0;
  for (double g : log_g) sum += std::exp(g - max);
  const double log_total = max + std::log(sum);
  for (size_t i = 0; i < entries.size(); ++i) {
    const int32_t j = entries[i];
    row.log_theta[j] = std::max(row.log_pool_sum + (log_g[i] - log_total), kLowest);
    // Swap-remove j from the members.
    const int32_t position = row.slots[j].position;
    SGMCMC_DCHECK(position >= 0);
    const int32_t last = row.members.back();
    row.members[position] = last;
    row.slots[last].position = position;
    row.members.pop_back();
    row.slots[j].position = -1;
    row.slots[j].balls = 0;
    row.materialized.push_back(j);
  }
  row.live_balls -= departing_balls;
  row.log_pool_sum =
      rest_members > 0 ? row.log_pool_sum + (log_rest - log_total) : kNegativeInfinity;
  if (rest_members == 0) row.ball_list.clear();
}

void LazyScir::MaterializeColumns(absl::Span<const int32_t> columns, int row_begin,
                                  int row_end) {
  SGMCMC_CHECK(0 <= row_begin && row_begin <= row_end && row_end <= rows())
      << "LazyScir::MaterializeColumns: row range [" << row_begin << ", " << row_end
      << ") is not inside [0, " << rows() << "]";
  for (size_t i = 0; i < columns.size(); ++i) {
    SGMCMC_CHECK(columns[i] >= 0 && columns[i] < cols() && (i == 0 || columns[i] > columns[i - 1]))
        << "LazyScir::MaterializeColumns: columns must be strictly increasing in [0, " << cols()
        << "), got " << columns[i] << " at " << i;
  }
  thread_local std::vector<int32_t> departing;
  for (int k = row_begin; k < row_end; ++k) {
    Row& row = rows_[k];
    departing.clear();
    for (int32_t j : columns) {
      if (row.slots[j].position >= 0) departing.push_back(j);
    }
    if (!departing.empty()) Depart(row, departing, ReadEngine(k));
  }
}

void LazyScir::MaterializeRow(int index) const {
  Row& row = rows_[index];
  if (!row.members.empty()) {
    std::vector<int32_t> all = row.members;
    std::sort(all.begin(), all.end());
    Depart(row, all, ReadEngine(index));
  }
  // Canonical state: the list in column order and log θ· from log θ, as SetLogTheta leaves it.
  row.materialized.resize(cols());
  for (int j = 0; j < cols(); ++j) row.materialized[j] = j;
  row.log_normalizer =
      LogSumExpListed(row.log_theta.data(), row.materialized, kNegativeInfinity);
  row.canonical = true;
}

void LazyScir::MaterializeRows(int row_begin, int row_end) {
  SGMCMC_CHECK(0 <= row_begin && row_begin <= row_end && row_end <= rows())
      << "LazyScir::MaterializeRows: row range [" << row_begin << ", " << row_end
      << ") is not inside [0, " << rows() << "]";
  for (int k = row_begin; k < row_end; ++k) MaterializeRow(k);
}

absl::Span<const double> LazyScir::log_theta(int row) const {
  SGMCMC_CHECK(row >= 0 && row < rows()) << "LazyScir::log_theta: row " << row;
  if (!rows_[row].canonical) MaterializeRow(row);
  return rows_[row].log_theta;
}

void LazyScir::Simplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "LazyScir::Simplex: out has size " << out.size() << ", expected " << cols();
  const absl::Span<const double> lt = log_theta(row);
  const double log_norm = rows_[row].log_normalizer;
  for (int j = 0; j < cols(); ++j) out[j] = std::exp(lt[j] - log_norm);
}

void LazyScir::LogSimplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "LazyScir::LogSimplex: out has size " << out.size() << ", expected " << cols();
  const absl::Span<const double> lt = log_theta(row);
  const double log_norm = rows_[row].log_normalizer;
  for (int j = 0; j < cols(); ++j) out[j] = lt[j] - log_norm;
}

void LazyScir::SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const {
  const size_t width = columns.size();
  SGMCMC_CHECK(out.size() == static_cast<size_t>(rows()) * width)
      << "LazyScir::SimplexColumns: out has size " << out.size() << ", expected " << rows()
      << " x " << width;
  for (int k = 0; k < rows(); ++k) {
    const Row& row = rows_[k];
    double* out_row = out.data() + static_cast<size_t>(k) * width;
    for (size_t i = 0; i < width; ++i) {
      SGMCMC_CHECK(row.slots[columns[i]].position < 0)
          << "LazyScir::SimplexColumns: entry (" << k << ", " << columns[i]
          << ") is not materialised; call MaterializeColumns first";
      out_row[i] = std::exp(row.log_theta[columns[i]] - row.log_normalizer);
    }
  }
}

absl::Status LazyScir::SetTheta(int row, absl::Span<const double> theta) {
  if (absl::Status s = ValidateRowInput("LazyScir::SetTheta", row, theta); !s.ok()) return s;
  std::vector<double> log_theta(cols());
  for (int j = 0; j < cols(); ++j) {
    if (!(theta[j] > 0) || !std::isfinite(theta[j])) {
      return absl::InvalidArgumentError(absl::StrCat("LazyScir::SetTheta: row ", row,
                                                     " theta[", j,
                                                     "] must be finite and > 0, got ", theta[j]));
    }
    log_theta[j] = std::log(theta[j]);
  }
  return SetLogTheta(row, log_theta);
}

absl::Status LazyScir::SetLogTheta(int row, absl::Span<const double> log_theta) {
  if (absl::Status s = ValidateRowInput("LazyScir::SetLogTheta", row, log_theta); !s.ok()) {
    return s;
  }
  for (int j = 0; j < cols(); ++j) {
    if (!std::isfinite(log_theta[j]) || log_theta[j] > kMaxSimplexLogTheta) {
      return absl::InvalidArgumentError(
          absl::StrCat("LazyScir::SetLogTheta: row ", row, " log_theta[", j,
                       "] must be finite (at most ", kMaxSimplexLogTheta, "), got ", log_theta[j]));
    }
  }
  Row& r = rows_[row];
  r.log_theta.assign(log_theta.begin(), log_theta.end());
  r.slots.assign(cols(), Slot{-1, 0});
  r.members.clear();
  r.ball_list.clear();
  r.log_pool_sum = kNegativeInfinity;
  r.live_balls = 0;
  MaterializeRow(row);
  return absl::OkStatus();
}

void LazyScir::StepRowSparse(int row, const SparseCountsRow& counts, double h,
                             rng::Engine& engine) {
  AdvanceRow(row, counts.cols, counts.values, h, engine);
}

void LazyScir::StepRowDense(int row, absl::Span<const double> counts, double h,
                            rng::Engine& engine) {
  std::vector<int32_t> cols;
  std::vector<double> values;
  for (int j = 0; j < this->cols(); ++j) {
    if (counts[j] != 0) {
      cols.push_back(j);
      values.push_back(counts[j]);
    }
  }
  AdvanceRow(row, cols, values, h, engine);
}

void LazyScir::AdvanceRow(int index, absl::Span<const int32_t> cols,
                          absl::Span<const double> values, double h, rng::Engine& engine) {
  Row& row = rows_[index];
  row.canonical = false;
  const CirConstants cir(h);
  // 1. The pooled entries with a count depart.
  thread_local std::vector<int32_t> scratch;
  scratch.clear();
  for (int32_t j : cols) {
    if (row.slots[j].position >= 0) scratch.push_back(j);
  }
  Depart(row, scratch, engine);

  // 2. The pool's balls: N ~ Poisson(S r), split by the Pólya urn over the pool.
  thread_local std::vector<int32_t> new_balls;
  new_balls.clear();
  const int64_t pooled = static_cast<int64_t>(row.members.size());
  if (pooled > 0) {
    std::vector<int32_t>& old_balls = scratch;  // the old balls of the current members
    old_balls.clear();
    for (int32_t j : row.ball_list) {
      if (row.slots[j].position >= 0) old_balls.push_back(j);
    }
    SGMCMC_DCHECK(static_cast<int64_t>(old_balls.size()) == row.live_balls);
    for (int32_t j : old_balls) row.slots[j].balls = 0;
    const double log_lambda = row.log_pool_sum + cir.log_rate;
    SGMCMC_CHECK(log_lambda <= std::log(rng::kMaxPoissonMean))
        << "LazyScir: the pool's Poisson mean exp(" << log_lambda << ") of row " << index
        << " exceeds rng::kMaxPoissonMean";
    const int64_t n = CirPoissonSample(engine, std::exp(log_lambda));
    const double alpha_mass = static_cast<double>(pooled) * alpha_;
    const int64_t old = static_cast<int64_t>(old_balls.size());
    // The uniforms in blocks (rng::FillUniformDouble: the words sequential draws would take).
    constexpr int kUniformBlock = 256;
    alignas(64) double uniforms[kUniformBlock];
    const double inverse_alpha = 1 / alpha_;
    new_balls.resize(n);
    int32_t* drawn = new_balls.data();
    const int32_t* members = row.members.data();
    for (int64_t first = 0; first < n; first += kUniformBlock) {
      const int block = static_cast<int>(std::min<int64_t>(kUniformBlock, n - first));
      rng::FillUniformDouble(engine, absl::MakeSpan(uniforms, block));
      for (int i = 0; i < block; ++i) {
        const int64_t t = first + i;
        const double u = uniforms[i] * (alpha_mass + static_cast<double>(old + t));
        if (u < alpha_mass || old + t == 0) {
          drawn[t] = members[std::min(static_cast<int64_t>(u * inverse_alpha), pooled - 1)];
        } else {
          const int64_t ball = std::min(static_cast<int64_t>(u - alpha_mass), old + t - 1);
          drawn[t] = ball < old ? old_balls[ball] : drawn[ball - old];
        }
      }
    }
    for (int32_t j : new_balls) ++row.slots[j].balls;
  }
  row.live_balls = static_cast<int64_t>(new_balls.size());

  // 3. The materialised entries: join the pool, or Scir's transition with their count.
  thread_local std::vector<double> count_of;
  count_of.resize(this->cols());
  for (size_t i = 0; i < cols.size(); ++i) count_of[cols[i]] = values[i];
  std::vector<int32_t>& kept = scratch;
  kept.clear();
  for (int32_t j : row.materialized) {
    const double count = count_of[j];
    const PoissonMean mean(0, row.log_theta[j], cir);
    if (count == 0 && mean.lambda < kJoinMaxPoissonMean) {
      const int64_t p = CirPoissonSample(engine, mean.lambda);
      row.slots[j].position = static_cast<int32_t>(row.members.size());
      row.members.push_back(j);
      row.slots[j].balls = static_cast<int32_t>(p);
      for (int64_t b = 0; b < p; ++b) new_balls.push_back(j);
      row.live_balls += p;
    } else {
      row.log_theta[j] =
          LogCirTransition(engine, mean, alpha_, count, cir, zero_count_table_.get());
      kept.push_back(j);
    }
  }
  for (int32_t j : cols) count_of[j] = 0;
  row.materialized.swap(kept);

  // 4. The new pool sum.
  row.ball_list.swap(new_balls);
  row.log_pool_sum =
      row.members.empty()
          ? kNegativeInfinity
          : cir.log_scale +
                rng::LogGammaSample(engine, static_cast<double>(row.members.size()) * alpha_ +
                                                static_cast<double>(row.live_balls));
  row.log_normalizer = LogSumExpListed(row.log_theta.data(), row.materialized, row.log_pool_sum);
}

}  // namespace sgmcmc::samplers
