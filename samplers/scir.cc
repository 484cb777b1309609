// Implementation notes (moved here from the header, which states the contract; the update and
// its pitfalls are in docs/ALGORITHMS.md "SCIR").
//
// How the transition is drawn (all exact; scir_test.cc KS-tests every path against χ'²):
//  - a = â >= 1/2: a noncentral χ² with df = 2a >= 1 is (Z + √nc)² + χ²(2a − 1), so
//      θ'/(1 − e^{-h}) = (Z + √(2λ))²/2 + Gamma(a − 1/2),   λ = θ e^{-h}/(1 − e^{-h}),
//    one normal and, for a > 1/2, one gamma draw (none for a = 1/2: SCIR's LDA β = 0.5 with
//    a zero count is a single normal), with no Poisson draw;
//  - a < 1/2: P ~ Poisson(λ) (no draw when λ < 2^-54, where P(P >= 1) is below double
//    resolution; for λ < 1 a Bernoulli(1 − e^{−λ}) then a zero-truncated Poisson), then
//    Gamma(a + P).
// The zero-count gamma draws of a symmetric prior α all have ONE shape (α − 1/2 or α), drawn
// by rng::LogGammaTable (exact table-hat rejection, built once in Create) instead of
// rng::LogGammaSample.
//
// Log space: with β = 0.01 and zero counts, Gamma(â + P) draws underflow to 0 in double, and
// log ω = −∞ breaks LDA's likelihood. So SCIR's state is log θ: the gamma factor is drawn in
// log space (rng::LogGammaTable / rng::LogGammaSample, finite for every shape > 0) and
//   log θ' = log(1 − e^{-h}) + log Gamma(â + P)   (a < 1/2), or
//   log θ' = log(1 − e^{-h}) + log((Z + √(2λ))²/2 + Gamma(a − 1/2))   (a >= 1/2, log-add-exp
//   when a term is tiny or huge).
// log ω = log θ − log θ· is finite for every component, always; ω itself (Simplex) is flushed
// to 0 below DBL_MIN (~2.2e-308). The row log-normaliser log θ· is refreshed by every step.
// A cache θ = exp(log θ) per entry (0 below DBL_MIN, and after an a < 1/2 step where below
// 2^-60 max θ / cols, i.e. negligible in Σθ) gives λ = c θ and Σθ without exps; entries
// cached as 0 use log θ.
//
// Inner loops, per block of 256 coordinates: every α_j >= 1/2 (LDA's β = 0.5): √(2λ) by one
// vectorised sqrt, the block's normals by rng::FillNormal, w = (Z + √(2λ))²/2 and
// log θ' = log(1 − e^{-h}) + log w by one vectorised log (linalg::LogArray), then the few gamma
// draws (count entries, or every entry for α > 1/2). Otherwise: a branch-free pass marks the
// zero-count entries whose Poisson mean is negligible (P = 0 without a draw) and lists the other
// zero-count entries and the rest; the listed zero-count entries get one uniform each, drawn in
// bulk, which settles P = 0 without a branch when λ < 1 and u >= λ; the unsettled ones (λ >= 1,
// or u < λ) and then the rest are drawn in column order (Poisson, then gamma); every P = 0 entry
// takes its log Gamma(α) from one rng::LogGammaTable::Fill (a ziggurat: one engine word per
// draw); last the cache: exp(log θ) of the entries that matter to Σθ, gathered and exp'd by one
// vectorised pass. The vectorised log and exp (//linalg:vector_math) use AVX2 + FMA when the CPU
// has them and give the same bits on every x86-64 CPU, so a seed gives the same chain everywhere.
//
// Per-coordinate work (zero count, symmetric prior): α >= 1/2: one normal, a sqrt, a log and
// an exp (the θ cache; plus a table draw and an exp for α > 1/2);
// α < 1/2: one table draw (one engine word, rng::LogGammaTable), a compare with the Poisson
// threshold (a bulk uniform for the entries whose mean is not negligible: ~30% at α = 0.01,
// ~98% at α = 0.1), a Poisson and a gamma draw for the P >= 1 events (~9% of entries at
// α = 0.1), and a vectorised exp for the entries that matter to Σθ.
// The θ cache is exp(log θ) (not the linear draw) so that a chain restored from log θ
// continues bit-identically.
//
// Measured timings are in scir_benchmark.cc.

#include "samplers/scir.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "linalg/vector_math.h"
#include "rng/gamma.h"
#include "rng/log_gamma_table.h"
#include "rng/normal.h"
#include "rng/poisson.h"
#include "rng/uniform.h"
#include "samplers/scir_internal.h"

namespace sgmcmc::samplers {
namespace {

using scir_internal::kMinNormalLog;
using scir_internal::kLog2;
using scir_internal::kLowest;
using scir_internal::CirConstants;
using scir_internal::kNegligiblePoissonMean;
using scir_internal::kLogNegligiblePoissonMean;
using scir_internal::LogAddExp;
using scir_internal::LogHalfSquare;
using scir_internal::RootTwoLambda;
using scir_internal::kLinearFloor;
using scir_internal::PoissonMean;
using scir_internal::CirPoissonSampleSmall;
using scir_internal::CirPoissonSampleReal;
using scir_internal::LogCirTransition;

// Coordinates per block of the row loops (buffers on the stack, vectorised passes).
constexpr int kBlock = 256;

// out_j = exp(scale x_j + shift) by linalg::ExpArray (vectorised, the same bits on every
// CPU), flushing results below DBL_MIN (~2.2e-308) to exactly 0; returns Σ_j out_j.
double ShiftedExp(const double* x, int n, double scale, double shift, double* out) {
  for (int i = 0; i < n; ++i) out[i] = x[i] * scale + shift;
  linalg::ExpArray(out, out, n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] * scale + shift < kMinNormalLog) out[i] = 0;
    sum += out[i];
  }
  return sum;
}

// The row's counts, read in column order: dense (every column) or sparse (only the entries;
// the columns in between are zero counts, found with one compare against the next entry).
class RowCounts {
 public:
  RowCounts(const double* dense, const SparseCountsRow* sparse)
      : dense_(dense),
        sparse_(sparse),
        next_col_(sparse != nullptr && !sparse->cols.empty() ? sparse->cols[0]
                                                              : std::numeric_limits<int>::max()) {}

  // The count of column j; columns must be visited in increasing order (each once).
  double Next(int j) {
    if (dense_ != nullptr) return dense_[j];
    if (__builtin_expect(j != next_col_, 1)) return 0;
    const double value = sparse_->values[next_entry_];
    ++next_entry_;
    next_col_ = next_entry_ < sparse_->cols.size() ? sparse_->cols[next_entry_]
                                                   : std::numeric_limits<int>::max();
    return value;
  }

  // The next column with a (possibly) non-zero count, >= j: j itself for dense counts.
  int NextCandidate(int j) const { return dense_ != nullptr ? j : next_col_; }

 private:
  const double* dense_;
  const SparseCountsRow* sparse_;
  size_t next_entry_ = 0;
  int next_col_;
};

// The state of one row: log θ (the sampler's state) and its cache θ = exp(log θ), or 0 below
// DBL_MIN or (sequential rows) where negligible in Σθ; both are rewritten by a step, which
// returns Σ_j θ_j of the new cache.
struct RowState {
  double* log_theta;
  double* theta;
  int cols;
};

// The θ cache must be a function of log θ alone, computed the same way by a step and by
// SetLogTheta, so that a chain restored from log θ continues bit-identically. Two rules, by
// the row's kernel:
//  - CacheBlock (rows with every α_j >= 1/2), per block of kBlock: θ = exp(log θ) by one
//    vectorised exp (linalg::ExpArray, flushed to 0 below DBL_MIN); returns the block's Σθ.
//  - CacheRowSequential (the other rows): θ = exp(log θ) (linalg::ExpArray, within an
//    ulp of std::exp) only for the entries that can matter to Σθ: those below
//    max − 60 log 2 − log(cols) sum to < 2^-60 of the largest term (below the sum's own
//    rounding) and are cached as 0, like those below DBL_MIN;
//    PoissonMean recomputes their λ from log θ when it is not negligible. With α = 0.01 this
//    skips ~60% of the exps. Returns Σθ.
double CacheBlock(const double* log_theta, int n, double* theta) {
  return ShiftedExp(log_theta, n, 1, 0, theta);
}

double CacheRowSequential(RowState row) {
  const double max = Eigen::Map<const Eigen::ArrayXd>(row.log_theta, row.cols).maxCoeff();
  const double floor =
      std::max(max - (60 * kLog2 + std::log(static_cast<double>(row.cols))), kMinNormalLog);
  // Branch-free: the entries at or above the floor are listed (their column indices, in
  // order) and gathered, exp'd by one vectorised pass (linalg::ExpArray; the floor is
  // >= kMinNormalLog, so no result is below DBL_MIN) and scattered back over a zeroed row.
  // The sum adds them in column order (the zeros in between add nothing).
  alignas(64) double gathered[kBlock];
  alignas(64) double exps[kBlock];
  int listed_cols[kBlock];
  double sum = 0;
  for (int begin = 0; begin < row.cols; begin += kBlock) {
    const int n = std::min(kBlock, row.cols - begin);
    const double* lt = row.log_theta + begin;
    double* theta = row.theta + begin;
    std::fill(theta, theta + n, 0.0);
    int listed = 0;
    for (int i = 0; i < n; ++i) {
      listed_cols[listed] = i;
      gathered[listed] = lt[i];
      listed += lt[i] >= floor;
    }
    linalg::ExpArray(gathered, exps, listed);
    for (int k = 0; k < listed; ++k) {
      theta[listed_cols[k]] = exps[k];
      sum += exps[k];
    }
  }
  return sum;
}

// One SCIR step of a row, entry by entry (LogCirTransition); kSymmetric reads alpha[0] for
// every column. Used when some α_j < 1/2. Per block, passes that draw what one column-order
// pass would, in a fixed order of their own (same law, entry by entry):
//  1. branch-free classification of the entries: (a) zero count, α_j < 1/2 and a negligible
//     Poisson mean (no draw, P = 0: ~70% of a sparse row at α = 0.01): a log Gamma(table
//     shape) draw; (b) zero count, α_j < 1/2, λ_j not negligible (most of a row at α = 0.1):
//     listed for pass 2; (c) every other entry: listed for pass 4;
//  2. for the (b) entries, one uniform each, drawn in bulk (rng::FillUniformDouble), and
//     without branches the common outcome P = 0 (λ < 1 and u >= λ: then a table draw);
//  3. the (b) entries pass 2 did not settle, in column order: CirPoissonSample's λ < 1
//     case with the same uniform, or (λ >= 1) a Poisson draw; P = 0: a table draw, else
//     Gamma(α + P), whose logs are then taken by one linalg::LogArray;
//  4. the (c) entries in column order: LogCirTransition;
//  5. the table entries, gathered in column order, drawn together by
//     rng::LogGammaTable::Fill.
// The new θ of the row are cached last (CacheRowSequential).
template <bool kSymmetric>
double ScirRowStepSequential(rng::Engine& engine, RowState row, absl::Span<const double> alpha,
                             RowCounts counts, const rng::LogGammaTable* zero_count_table,
                             const CirConstants& cir) {
  alignas(64) double table_draws[kBlock];
  alignas(64) double block_counts[kBlock];
  alignas(64) double uniforms[kBlock];
  alignas(64) double lambdas[kBlock];
  alignas(64) double gamma_draws[kBlock];
  int gamma_entries[kBlock];
  int table_entries[kBlock];
  int poisson_entries[kBlock];  // (b): entry indices; pass 3 reuses the front for the unsettled
  int other_entries[kBlock];    // (c)
  bool from_table[kBlock];
  const bool has_table = zero_count_table != nullptr;
  for (int begin = 0; begin < row.cols; begin += kBlock) {
    const int n = std::min(kBlock, row.cols - begin);
    double* lt = row.log_theta + begin;
    const double* theta = row.theta + begin;
    int poissons = 0, others = 0;
    for (int i = 0; i < n; ++i) {
      const double a = kSymmetric ? alpha[0] : alpha[begin + i];
      const double count = counts.Next(begin + i);
      block_counts[i] = count;
      // λ < 2^-54 as PoissonMean computes it: from the cached θ when that is not below
      // kLinearFloor, else from log θ.
      const double lambda = cir.rate * theta[i];
      const bool negligible =
          (lambda < kNegligiblePoissonMean) &
          ((lambda >= kLinearFloor) | (lt[i] + cir.log_rate < kLogNegligiblePoissonMean));
      const bool zero = has_table & (count == 0) & (a < 0.5);
      from_table[i] = zero & negligible;
      poisson_entries[poissons] = i;
      poissons += zero & !negligible;
      other_entries[others] = i;
      others += !zero;
    }
    rng::FillUniformDouble(engine, absl::MakeSpan(uniforms, poissons));
    int unsettled = 0;
    for (int k = 0; k < poissons; ++k) {
      const int i = poisson_entries[k];
      // λ exactly as PoissonMean computes it (from log θ when the cached θ is below the
      // linear floor: an entry cached as 0 in a row with a huge maximum).
      const double linear = cir.rate * theta[i];
      const double lambda =
          linear >= kLinearFloor ? linear : PoissonMean(theta[i], lt[i], cir).lambda;
      const bool p_zero = (lambda < 1) & (uniforms[k] >= lambda);
      from_table[i] = p_zero;
      lambdas[k] = lambda;
      // Compacts (entry, uniform, λ) of the unsettled ones to the front (k >= unsettled).
      poisson_entries[unsettled] = i;
      uniforms[unsettled] = uniforms[k];
      lambdas[unsettled] = lambda;
      unsettled += !p_zero;
    }
    int gammas = 0;
    for (int k = 0; k < unsettled; ++k) {
      const int i = poisson_entries[k];
      const double a = kSymmetric ? alpha[0] : alpha[begin + i];
      const double lambda = lambdas[k];
      const double p =
          lambda >= 1 ? rng::PoissonSampleUnbounded(engine, lambda)
                      : static_cast<double>(CirPoissonSampleSmall(engine, lambda, uniforms[k]));
      if (p == 0) {
        from_table[i] = true;
      } else {
        // a + P > 1: rng::GammaSample draws what rng::LogGammaSample would (Marsaglia-Tsang,
        // finite and > 0); the logs are taken below in one vectorised pass.
        gamma_draws[gammas] = rng::GammaSample(engine, a + p);
        gamma_entries[gammas] = i;
        ++gammas;
      }
    }
    linalg::LogArray(gamma_draws, gamma_draws, gammas);
    for (int k = 0; k < gammas; ++k) lt[gamma_entries[k]] = cir.log_scale + gamma_draws[k];
    for (int k = 0; k < others; ++k) {
      const int i = other_entries[k];
      const double a = kSymmetric ? alpha[0] : alpha[begin + i];
      lt[i] = LogCirTransition(engine, PoissonMean(theta[i], lt[i], cir), a, block_counts[i],
                               cir, zero_count_table);
    }
    int listed = 0;
    for (int i = 0; i < n; ++i) {
      table_entries[listed] = i;
      listed += from_table[i];
    }
    if (listed > 0) zero_count_table->Fill(engine, absl::MakeSpan(table_draws, listed));
    for (int k = 0; k < listed; ++k) lt[table_entries[k]] = cir.log_scale + table_draws[k];
  }
  return CacheRowSequential(row);
}

// Below this, log((Z + √(2λ))²/2 [+ Gamma(a − 1/2)]) is redone in log space (w could
// underflow, and the gamma term's exp could be lost).
constexpr double kTinyHalfSquare = 1e-280;

// One SCIR step of a row with every α_j >= 1/2 (so every a_j >= 1/2), vectorised by block: √(2λ_j)
// = √(2 c θ_j) from the cached θ (one vectorised sqrt), the block's normals Z_j (rng::FillNormal),
// w_j = (Z_j + √(2λ_j))²/2 and log θ'_j = log(1 − e^{-h}) + log w_j (one vectorised log,
// linalg::LogArray); then, in column order, the Gamma(a_j − 1/2) draws of the entries that need one
// (a_j > 1/2: the count entries when α = 1/2, SCIR's LDA β; every entry otherwise), added to w_j;
// entries with a tiny w_j or a huge gamma draw are redone in log space; last the block's cache
// (CacheBlock). Same law as LogCirTransition, different stream order.
template <bool kSymmetric>
double ScirRowStepNormal(rng::Engine& engine, RowState row, absl::Span<const double> alpha,
                         RowCounts counts, const rng::LogGammaTable* zero_count_table,
                         const CirConstants& cir) {
  alignas(64) double root[kBlock];
  alignas(64) double z[kBlock];
  alignas(64) double w[kBlock];
  // Under a symmetric α = 1/2 only the count entries draw a gamma.
  const bool every_entry = !kSymmetric || alpha[0] != 0.5;
  double sum = 0;
  for (int begin = 0; begin < row.cols; begin += kBlock) {
    const int n = std::min(kBlock, row.cols - begin);
    double* lt = row.log_theta + begin;
    double* theta = row.theta + begin;
    Eigen::Map<Eigen::ArrayXd> root_block(root, n), w_block(w, n);
    root_block = (Eigen::Map<const Eigen::ArrayXd>(theta, n) * (2 * cir.rate)).sqrt();
    for (int i = 0; i < n; ++i) {
      if (!(cir.rate * theta[i] >= kLinearFloor)) root[i] = RootTwoLambda(lt[i] + cir.log_rate);
    }
    rng::FillNormal(engine, absl::MakeSpan(z, n));
    w_block = 0.5 * (Eigen::Map<const Eigen::ArrayXd>(z, n) + root_block).square();
    linalg::LogArray(w, lt, n);
    Eigen::Map<Eigen::ArrayXd>(lt, n) += cir.log_scale;
    for (int i = 0; i < n; ++i) {
      if (__builtin_expect(!(w[i] >= kTinyHalfSquare), 0)) {
        lt[i] = std::max(cir.log_scale + LogHalfSquare(z[i] + root[i]), kLowest);
      }
    }
    for (int j = every_entry ? begin : counts.NextCandidate(begin); j < begin + n;
         j = every_entry ? j + 1 : counts.NextCandidate(j + 1)) {
      const double count = counts.Next(j);
      const double rest = ((kSymmetric ? alpha[0] : alpha[j]) - 0.5) + count;
      if (rest <= 0) continue;
      const double log_gamma = count == 0 && zero_count_table != nullptr
                                   ? zero_count_table->Sample(engine)
                                   : rng::LogGammaSample(engine, rest);
      const int i = j - begin;
      if (w[i] >= kTinyHalfSquare && log_gamma < 700) {
        lt[i] = cir.log_scale + std::log(w[i] + std::exp(log_gamma));
      } else {
        lt[i] = std::max(
            cir.log_scale + LogAddExp(LogHalfSquare(z[i] + root[i]), log_gamma), kLowest);
      }
    }
    sum += CacheBlock(lt, n, theta);
  }
  return sum;
}

// log Σ_j exp(x_j) for finite x (a row of log θ), vectorised: the max, then one Eigen exp
// over the shifted row. Eigen's exp returns ~1e-308 instead of 0 below exp(−709.78); over
// at most 2^31 terms next to the max's term 1 that changes the sum by < 1e-298 relative.
double RowLogSumExp(const double* x, int n) {
  const Eigen::Map<const Eigen::ArrayXd> row(x, n);
  const double max = row.maxCoeff();
  return max + std::log((row - max).exp().sum());
}

// log θ· from Σ θ_j of the cache when that sum is safe: every flushed entry is below DBL_MIN,
// so at most cols x 2.2e-308 < 1e-298 is missing, negligible next to a sum >= 1e-270; else
// (or on overflow) from log θ.
double RowLogNormalizer(double theta_sum, const double* log_theta, int cols) {
  if (theta_sum >= 1e-270 && theta_sum < std::numeric_limits<double>::infinity()) {
    return std::log(theta_sum);
  }
  return RowLogSumExp(log_theta, cols);
}

void CheckShape(const char* function, double shape) {
  SGMCMC_CHECK(shape > 0 && std::isfinite(shape))
      << function << ": shape must be finite and > 0, got " << shape;
}

void CheckRateAndStep(const char* function, double rate, double h) {
  SGMCMC_CHECK(rate > 0 && std::isfinite(rate))
      << function << ": rate must be finite and > 0, got " << rate;
  SGMCMC_CHECK(h > 0 && std::isfinite(h)) << function << ": h must be finite and > 0, got " << h;
}

}  // namespace

Scir::Scir(SimplexSamplerOptions options)
    : SimplexSampler(std::move(options)),
      log_theta_(static_cast<size_t>(rows()) * cols(), 0.0),
      theta_(static_cast<size_t>(rows()) * cols(), 1.0),
      log_normalizer_(rows(), std::log(static_cast<double>(cols()))) {
  const absl::Span<const double> alpha = alpha_vector();
  min_alpha_ = *std::min_element(alpha.begin(), alpha.end());
  if (symmetric_prior()) zero_count_table_ = scir_internal::ZeroCountTable(alpha[0]);
}

absl::StatusOr<Scir> Scir::Create(SimplexSamplerOptions options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return Scir(std::move(options));
}

void Scir::AdvanceRow(int row, const double* dense_counts, const SparseCountsRow* sparse_counts,
                      double h, rng::Engine& engine) {
  const CirConstants cir(h);
  RowCounts counts(dense_counts, sparse_counts);
  const rng::LogGammaTable* table = zero_count_table_.get();
  const size_t offset = static_cast<size_t>(row) * cols();
  const RowState state{log_theta_.data() + offset, theta_.data() + offset, cols()};
  const absl::Span<const double> alpha = alpha_vector();
  double theta_sum;
  if (min_alpha_ >= 0.5) {
    theta_sum = symmetric_prior()
                    ? ScirRowStepNormal<true>(engine, state, alpha, counts, table, cir)
                    : ScirRowStepNormal<false>(engine, state, alpha, counts, table, cir);
  } else {
    theta_sum = symmetric_prior()
                    ? ScirRowStepSequential<true>(engine, state, alpha, counts, table, cir)
                    : ScirRowStepSequential<false>(engine, state, alpha, counts, table, cir);
  }
  log_normalizer_[row] = RowLogNormalizer(theta_sum, state.log_theta, cols());
}

void Scir::StepRowSparse(int row, const SparseCountsRow& counts, double h, rng::Engine& engine) {
  AdvanceRow(row, nullptr, &counts, h, engine);
}

void Scir::StepRowDense(int row, absl::Span<const double> counts, double h, rng::Engine& engine) {
  AdvanceRow(row, counts.data(), nullptr, h, engine);
}

void Scir::Simplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Scir::Simplex: out has size " << out.size() << ", expected " << cols();
  ShiftedExp(log_theta(row).data(), cols(), 1, -log_normalizer_[row], out.data());
}

void Scir::LogSimplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Scir::LogSimplex: out has size " << out.size() << ", expected " << cols();
  const absl::Span<const double> lt = log_theta(row);
  const double log_norm = log_normalizer_[row];
  for (int j = 0; j < cols(); ++j) out[j] = lt[j] - log_norm;
}

// exp(log θ_kw − log θ_k·) for the block, exponentiated in one vectorised pass.
void Scir::SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const {
  const size_t width = columns.size();
  SGMCMC_CHECK(out.size() == static_cast<size_t>(rows()) * width)
      << "Scir::SimplexColumns: out has size " << out.size() << ", expected " << rows()
      << " x " << width;
  for (int k = 0; k < rows(); ++k) {
    const double* lt = log_theta(k).data();
    const double log_norm = log_normalizer_[k];
    double* out_row = out.data() + static_cast<size_t>(k) * width;
    for (size_t j = 0; j < width; ++j) out_row[j] = lt[columns[j]] - log_norm;
  }
  linalg::ExpArray(out.data(), out.data(), out.size());
}

absl::Status Scir::SetTheta(int row, absl::Span<const double> theta) {
  if (absl::Status s = ValidateRowInput("Scir::SetTheta", row, theta); !s.ok()) return s;
  std::vector<double> log_theta(cols());
  for (int j = 0; j < cols(); ++j) {
    if (!(theta[j] > 0) || !(theta[j] <= kMaxSimplexTheta)) {
      return absl::InvalidArgumentError(absl::StrCat("Scir::SetTheta: row ", row, " theta[", j,
                                                     "] must be finite and > 0 (at most e^",
                                                     kMaxSimplexLogTheta, "), got ", theta[j]));
    }
    log_theta[j] = std::log(theta[j]);
  }
  return SetLogTheta(row, log_theta);
}

absl::Status Scir::SetLogTheta(int row, absl::Span<const double> log_theta) {
  if (absl::Status s = ValidateRowInput("Scir::SetLogTheta", row, log_theta); !s.ok()) return s;
  for (int j = 0; j < cols(); ++j) {
    if (!std::isfinite(log_theta[j]) || log_theta[j] > kMaxSimplexLogTheta) {
      return absl::InvalidArgumentError(
          absl::StrCat("Scir::SetLogTheta: row ", row, " log_theta[", j,
                       "] must be finite (at most ", kMaxSimplexLogTheta, "), got ", log_theta[j]));
    }
  }
  const size_t offset = static_cast<size_t>(row) * cols();
  const RowState state{log_theta_.data() + offset, theta_.data() + offset, cols()};
  std::copy(log_theta.begin(), log_theta.end(), state.log_theta);
  // The cache and normaliser exactly as a step leaves them (see CacheBlock).
  double theta_sum = 0;
  if (min_alpha_ >= 0.5) {
    for (int begin = 0; begin < cols(); begin += kBlock) {
      theta_sum += CacheBlock(state.log_theta + begin, std::min(kBlock, cols() - begin),
                              state.theta + begin);
    }
  } else {
    theta_sum = CacheRowSequential(state);
  }
  log_normalizer_[row] = RowLogNormalizer(theta_sum, state.log_theta, cols());
  return absl::OkStatus();
}

double ScirGammaStep(rng::Engine& engine, double theta, double shape, double rate, double h) {
  CheckShape("ScirGammaStep", shape);
  CheckRateAndStep("ScirGammaStep", rate, h);
  SGMCMC_CHECK(theta >= 0 && std::isfinite(theta))
      << "ScirGammaStep: theta must be finite and >= 0, got " << theta;
  // The decomposition of LogCirTransition in linear space, drawing the same engine words (and
  // rng::GammaSample the same as rng::LogGammaSample), so exp(ScirLogGammaStep) agrees.
  const CirConstants cir(h);
  const double one_minus_decay = -std::expm1(-h);
  // λ and √(2λ) exactly as ScirLogGammaStep computes them from log θ (θ = 0: λ = 0).
  const PoissonMean mean(0, std::log(theta) + std::log(rate), cir);
  const double rest = shape - 0.5;
  double g;
  if (rest >= 0) {
    const double root = rng::NormalSample(engine) + mean.Root();
    g = 0.5 * root * root + (rest > 0 ? rng::GammaSample(engine, rest) : 0.0);
  } else {
    g = rng::GammaSample(engine, shape + CirPoissonSampleReal(engine, mean.lambda));
  }
  return one_minus_decay / rate * g;
}

double ScirLogGammaStep(rng::Engine& engine, double log_theta, double shape, double rate,
                        double h) {
  CheckShape("ScirLogGammaStep", shape);
  CheckRateAndStep("ScirLogGammaStep", rate, h);
  SGMCMC_CHECK(std::isfinite(log_theta))
      << "ScirLogGammaStep: log_theta must be finite, got " << log_theta;
  const double log_rate = std::log(rate);
  const CirConstants cir(h);
  // θ itself is not cached here: PoissonMean works from log θ alone when given θ = 0.
  return LogCirTransition(engine, PoissonMean(0, log_theta + log_rate, cir), shape,
                          /*count=*/0, cir, /*zero_count_table=*/nullptr) -
         log_rate;
}

ScirMoments ScirCorollary42Moments(double theta0, double a, double var_a_hat, double h,
                                   int64_t steps) {
  SGMCMC_CHECK(theta0 >= 0 && a > 0 && var_a_hat >= 0 && h > 0 && steps >= 0)
      << "ScirCorollary42Moments: need theta0 >= 0, a > 0, var_a_hat >= 0, h > 0, steps >= 0; got "
      << theta0 << ", " << a << ", " << var_a_hat << ", " << h << ", " << steps;
  const double decay = std::exp(-static_cast<double>(steps) * h);  // e^{-Mh}
  const double decay2 = decay * decay;                             // e^{-2Mh}
  const double step_decay = std::exp(-h);
  return {theta0 * decay + a * (1 - decay),
          2 * theta0 * (decay - decay2) + a * (1 - decay) * (1 - decay) +
              (1 - decay2) * (1 - step_decay) / (1 + step_decay) * var_a_hat};
}

double LognormalOuStep(rng::Engine& engine, double log_theta, double mu, double sigma, double h) {
  SGMCMC_CHECK(std::isfinite(log_theta))
      << "LognormalOuStep: log_theta must be finite, got " << log_theta;
  SGMCMC_CHECK(std::isfinite(mu)) << "LognormalOuStep: mu must be finite, got " << mu;
  SGMCMC_CHECK(sigma > 0 && std::isfinite(sigma))
      << "LognormalOuStep: sigma must be finite and > 0, got " << sigma;
  SGMCMC_CHECK(h > 0 && std::isfinite(h)) << "LognormalOuStep: h must be finite and > 0, got " << h;
  const double decay = std::exp(-h);
  const double sd = sigma * std::sqrt(-std::expm1(-2 * h));
  return mu + (log_theta - mu) * decay + sd * rng::NormalSample(engine);
}

}  // namespace sgmcmc::samplers
