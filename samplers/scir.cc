#include "samplers/scir.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "Eigen/Core"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "linalg/special_functions.h"
#include "rng/gamma.h"
#include "rng/normal.h"
#include "rng/poisson.h"

namespace sgmcmc::samplers {
namespace {

// Just above log(DBL_MIN) = −708.396: ShiftedExp flushes results below the normal range to 0.
constexpr double kMinNormalLog = -708.39;

// The h-dependent constants of the CIR transition: log(1 − e^{-h}) scales the gamma draw and
// log(e^{-h}/(1 − e^{-h})) turns log θ into the log of the Poisson mean.
struct CirConstants {
  explicit CirConstants(double h)
      : log_scale(std::log(-std::expm1(-h))), log_rate(-h - log_scale) {}
  double log_scale;
  double log_rate;
};

// Below this Poisson mean, P(P >= 1) = 1 − e^{−λ} < 2^-54 is below double resolution:
// e^{−λ} rounds to 1 and rng::PoissonSample's inversion returns 0 for every uniform, so the
// draw is skipped (the zero-count fast path of sparse rows: with β = 0.01 about 70% of the
// stationary θ are below 1e-16).
constexpr double kNegligiblePoissonMean = 0x1p-54;

// log θ' of the exact CIR transition towards Gamma(shape, 1), given the Poisson mean
// λ = θ e^{-h}/(1 − e^{-h}).
inline double LogCirTransition(rng::Engine& engine, double poisson_mean, double shape,
                               const CirConstants& cir) {
  const int64_t p =
      poisson_mean < kNegligiblePoissonMean ? 0 : rng::PoissonSample(engine, poisson_mean);
  return cir.log_scale + rng::LogGammaSample(engine, shape + static_cast<double>(p));
}

// Coordinates per block of the row loop: the Poisson means of a block are computed with one
// vectorised exp before the (sequential) random draws.
constexpr int kBlock = 256;

// out_j = exp(x_j + shift), vectorised (Eigen), flushing results below DBL_MIN (~2.2e-308) to
// exactly 0: Eigen's exp clamps its argument at −709.78, so it cannot produce subnormals and
// would return ~1e-308 for anything smaller.
void ShiftedExp(const double* x, int n, double shift, double* out) {
  const Eigen::Map<const Eigen::ArrayXd> in(x, n);
  Eigen::Map<Eigen::ArrayXd>(out, n) = (in + shift < kMinNormalLog).select(0.0, (in + shift).exp());
}

// One SCIR step of a row: shape α_j + ĉ_j with ĉ from `dense_counts` or, if that is null, the
// sparse entries; kSymmetric reads α_0 for every column. Zero counts (all columns between
// sparse entries) only compare j with the next sparse column.
template <bool kSymmetric>
void ScirRowStep(rng::Engine& engine, double* log_theta, int cols, absl::Span<const double> alpha,
                 const double* dense_counts, const SparseCountsRow* sparse_counts,
                 const CirConstants& cir) {
  alignas(64) double lambda[kBlock];
  const double symmetric_alpha = alpha[0];
  size_t next_entry = 0;
  int next_col =
      sparse_counts != nullptr && !sparse_counts->cols.empty() ? sparse_counts->cols[0] : cols;
  for (int begin = 0; begin < cols; begin += kBlock) {
    const int n = std::min(kBlock, cols - begin);
    double* lt = log_theta + begin;
    ShiftedExp(lt, n, cir.log_rate, lambda);  // λ_j = θ_j e^{-h}/(1 − e^{-h})
    for (int i = 0; i < n; ++i) {
      const int j = begin + i;
      double shape = kSymmetric ? symmetric_alpha : alpha[j];
      if (dense_counts != nullptr) {
        shape += dense_counts[j];
      } else if (__builtin_expect(j == next_col, 0)) {
        shape += sparse_counts->values[next_entry];
        ++next_entry;
        next_col = next_entry < sparse_counts->cols.size() ? sparse_counts->cols[next_entry] : cols;
      }
      lt[i] = LogCirTransition(engine, lambda[i], shape, cir);
    }
  }
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
      log_normalizer_(rows(), std::log(static_cast<double>(cols()))) {}

absl::StatusOr<Scir> Scir::Create(SimplexSamplerOptions options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  return Scir(std::move(options));
}

void Scir::RefreshNormalizer(int row) { log_normalizer_[row] = linalg::LogSumExp(log_theta(row)); }

void Scir::StepRowSparse(int row, const SparseCountsRow& counts, double h, rng::Engine& engine) {
  const CirConstants cir(h);
  if (symmetric_prior()) {
    ScirRowStep<true>(engine, mutable_log_theta(row), cols(), alpha_vector(), nullptr, &counts,
                      cir);
  } else {
    ScirRowStep<false>(engine, mutable_log_theta(row), cols(), alpha_vector(), nullptr, &counts,
                       cir);
  }
  RefreshNormalizer(row);
}

void Scir::StepRowDense(int row, absl::Span<const double> counts, double h, rng::Engine& engine) {
  const CirConstants cir(h);
  if (symmetric_prior()) {
    ScirRowStep<true>(engine, mutable_log_theta(row), cols(), alpha_vector(), counts.data(),
                      nullptr, cir);
  } else {
    ScirRowStep<false>(engine, mutable_log_theta(row), cols(), alpha_vector(), counts.data(),
                       nullptr, cir);
  }
  RefreshNormalizer(row);
}

void Scir::Simplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Scir::Simplex: out has size " << out.size() << ", expected " << cols();
  ShiftedExp(log_theta(row).data(), cols(), -log_normalizer_[row], out.data());
}

void Scir::LogSimplex(int row, absl::Span<double> out) const {
  SGMCMC_CHECK(out.size() == static_cast<size_t>(cols()))
      << "Scir::LogSimplex: out has size " << out.size() << ", expected " << cols();
  const absl::Span<const double> lt = log_theta(row);
  const double log_norm = log_normalizer_[row];
  for (int j = 0; j < cols(); ++j) out[j] = lt[j] - log_norm;
}

absl::Status Scir::SetTheta(int row, absl::Span<const double> theta) {
  if (absl::Status s = ValidateRowInput("Scir::SetTheta", row, theta); !s.ok()) return s;
  std::vector<double> log_theta(cols());
  for (int j = 0; j < cols(); ++j) {
    if (!(theta[j] > 0) || !std::isfinite(theta[j])) {
      return absl::InvalidArgumentError(absl::StrCat("Scir::SetTheta: row ", row, " theta[", j,
                                                     "] must be finite and > 0, got ", theta[j]));
    }
    log_theta[j] = std::log(theta[j]);
  }
  return SetLogTheta(row, log_theta);
}

absl::Status Scir::SetLogTheta(int row, absl::Span<const double> log_theta) {
  if (absl::Status s = ValidateRowInput("Scir::SetLogTheta", row, log_theta); !s.ok()) return s;
  for (int j = 0; j < cols(); ++j) {
    if (!std::isfinite(log_theta[j])) {
      return absl::InvalidArgumentError(absl::StrCat("Scir::SetLogTheta: row ", row, " log_theta[",
                                                     j, "] must be finite, got ", log_theta[j]));
    }
  }
  std::copy(log_theta.begin(), log_theta.end(), mutable_log_theta(row));
  RefreshNormalizer(row);
  return absl::OkStatus();
}

double ScirGammaStep(rng::Engine& engine, double theta, double shape, double rate, double h) {
  CheckShape("ScirGammaStep", shape);
  CheckRateAndStep("ScirGammaStep", rate, h);
  SGMCMC_CHECK(theta >= 0 && std::isfinite(theta))
      << "ScirGammaStep: theta must be finite and >= 0, got " << theta;
  const double one_minus_decay = -std::expm1(-h);
  const double poisson_mean = rate * theta * std::exp(-h) / one_minus_decay;
  const int64_t p = rng::PoissonSample(engine, poisson_mean);
  return one_minus_decay / rate * rng::GammaSample(engine, shape + static_cast<double>(p));
}

double ScirLogGammaStep(rng::Engine& engine, double log_theta, double shape, double rate,
                        double h) {
  CheckShape("ScirLogGammaStep", shape);
  CheckRateAndStep("ScirLogGammaStep", rate, h);
  SGMCMC_CHECK(std::isfinite(log_theta))
      << "ScirLogGammaStep: log_theta must be finite, got " << log_theta;
  const double log_rate = std::log(rate);
  const CirConstants cir(h);
  return LogCirTransition(engine, std::exp(log_theta + log_rate + cir.log_rate), shape, cir) -
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
