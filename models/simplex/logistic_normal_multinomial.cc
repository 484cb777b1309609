#include "models/simplex/logistic_normal_multinomial.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "Eigen/Dense"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/special_functions.h"
#include "rng/normal.h"
#include "samplers/elliptical_slice.h"

namespace sgmcmc::models {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstRowMatrixMap = Eigen::Map<const RowMatrix>;

constexpr double kLog2Pi = 1.8378770664093454835606594728112;

absl::Status CheckFinite(double value, const char* field, bool allow_zero) {
  if (!std::isfinite(value) || value < 0 || (!allow_zero && value == 0)) {
    return absl::InvalidArgumentError(absl::StrCat("LogisticNormalMultinomialOptions.", field,
                                                   " must be finite and ",
                                                   allow_zero ? ">= 0" : "> 0", ", got ",
                                                   value));
  }
  return absl::OkStatus();
}

// The Cholesky factor L (r × r, lower) of M = s² I_r + Λᵀ Λ, for Σ = Λ Λᵀ + s² I; returns
// log |Σ| = 2 (D − r) log s + log |M| (matrix determinant lemma).
double WoodburyFactor(ConstRowMatrixMap lambda, double s, RowMatrix* cholesky) {
  Eigen::MatrixXd m = lambda.transpose() * lambda;
  m.diagonal().array() += s * s;
  *cholesky = Eigen::LLT<Eigen::MatrixXd>(m).matrixL();
  return 2 * (lambda.rows() - lambda.cols()) * std::log(s) +
         2 * cholesky->diagonal().array().log().sum();
}

// log N(η; m, Σ) with Σ⁻¹ = (I − Λ M⁻¹ Λᵀ) / s² (Woodbury): the quadratic form is
// (|e|² − |L⁻¹ Λᵀ e|²) / s² for e = η − m.
double WoodburyLogDensity(ConstRowMatrixMap lambda, ConstRowMatrixMap cholesky,
                          double log_det, double s, const double* mean, const double* eta) {
  const int d = static_cast<int>(lambda.rows());
  const Eigen::VectorXd e =
      Eigen::Map<const Eigen::VectorXd>(eta, d) - Eigen::Map<const Eigen::VectorXd>(mean, d);
  double quad = e.squaredNorm();
  if (lambda.cols() > 0) {
    quad -= cholesky.triangularView<Eigen::Lower>().solve(lambda.transpose() * e).squaredNorm();
  }
  return -0.5 * (d * kLog2Pi + log_det + quad / (s * s));
}

}  // namespace

absl::Status LogisticNormalMultinomialOptions::Validate() const {
  if (dimension < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogisticNormalMultinomialOptions.dimension must be >= 2, got ", dimension));
  }
  if (rank < 0 || rank > dimension) {
    return absl::InvalidArgumentError(
        absl::StrCat("LogisticNormalMultinomialOptions.rank must be in [0, dimension = ",
                     dimension, "], got ", rank));
  }
  if (absl::Status s = CheckFinite(loading_prior_sd, "loading_prior_sd", false); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckFinite(noise_sd, "noise_sd", false); !s.ok()) return s;
  if (absl::Status s = CheckFinite(mean_prior_sd, "mean_prior_sd", true); !s.ok()) return s;
  if (atom_steps < 1 || base_steps < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogisticNormalMultinomialOptions.atom_steps and base_steps must be >= 1, got ",
        atom_steps, " and ", base_steps));
  }
  return absl::OkStatus();
}

void LogSoftmax(absl::Span<const double> eta, absl::Span<double> out) {
  SGMCMC_CHECK(out.size() == eta.size() && !eta.empty())
      << "LogSoftmax: sizes " << eta.size() << " and " << out.size();
  const double lse = math::LogSumExp(eta);
  for (size_t d = 0; d < eta.size(); ++d) out[d] = eta[d] - lse;
}

void LogisticNormalAtom::SetEta(absl::Span<const double> new_eta) {
  eta.assign(new_eta.begin(), new_eta.end());
  log_probs.resize(eta.size());
  LogSoftmax(eta, absl::MakeSpan(log_probs));
}

void MultinomialStatistics::Add(absl::Span<const int32_t> point) {
  SGMCMC_CHECK(point.size() == counts.size())
      << "MultinomialStatistics::Add: point of size " << point.size() << ", expected "
      << counts.size();
  for (size_t d = 0; d < point.size(); ++d) {
    counts[d] += point[d];
    total += point[d];
  }
  ++members;
}

void MultinomialStatistics::Remove(absl::Span<const int32_t> point) {
  SGMCMC_CHECK(point.size() == counts.size() && members > 0)
      << "MultinomialStatistics::Remove: point of size " << point.size() << " (expected "
      << counts.size() << ") from " << members << " members";
  for (size_t d = 0; d < point.size(); ++d) {
    counts[d] -= point[d];
    total -= point[d];
    SGMCMC_DCHECK(counts[d] >= 0) << "MultinomialStatistics::Remove: point was not added";
  }
  --members;
}

void MultinomialStatistics::Merge(const MultinomialStatistics& other) {
  SGMCMC_CHECK(other.counts.size() == counts.size())
      << "MultinomialStatistics::Merge: sizes " << counts.size() << " and "
      << other.counts.size();
  for (size_t d = 0; d < counts.size(); ++d) counts[d] += other.counts[d];
  total += other.total;
  members += other.members;
}

double LogMultinomialCoefficient(absl::Span<const int32_t> point) {
  int64_t n = 0;
  double sum = 0;
  for (int32_t x : point) {
    SGMCMC_DCHECK(x >= 0) << "LogMultinomialCoefficient: negative count " << x;
    n += x;
    if (x > 1) sum += math::LogGamma(x + 1.0);
  }
  return math::LogGamma(n + 1.0) - sum;
}

double LogLikelihoodKernel(const MultinomialStatistics& statistics,
                           absl::Span<const double> log_probs) {
  SGMCMC_CHECK(log_probs.size() == statistics.counts.size())
      << "LogLikelihoodKernel: " << log_probs.size() << " log-probabilities for "
      << statistics.counts.size() << " counts";
  double sum = 0;
  for (size_t d = 0; d < log_probs.size(); ++d) {
    if (statistics.counts[d] != 0) sum += statistics.counts[d] * log_probs[d];
  }
  return sum;
}

LogisticNormalMultinomial::LogisticNormalMultinomial(
    const LogisticNormalMultinomialOptions& options)
    : options_(options),
      loadings_(static_cast<size_t>(options.dimension) * options.rank, 0.0),
      mean_(options.dimension, 0.0),
      noise_sd_(options.dimension, options.noise_sd) {}

absl::StatusOr<LogisticNormalMultinomial> LogisticNormalMultinomial::Create(
    const LogisticNormalMultinomialOptions& options, rng::Engine& engine) {
  if (absl::Status status = options.Validate(); !status.ok()) return status;
  LogisticNormalMultinomial model(options);
  rng::FillNormal(engine, absl::MakeSpan(model.loadings_));
  for (double& v : model.loadings_) v *= options.loading_prior_sd;
  if (options.mean_prior_sd > 0) {
    rng::FillNormal(engine, absl::MakeSpan(model.mean_));
    for (double& v : model.mean_) v *= options.mean_prior_sd;
  }
  model.RefreshBaseCache();
  return model;
}

absl::Status LogisticNormalMultinomial::SetBase(absl::Span<const double> loadings,
                                                absl::Span<const double> mean) {
  if (loadings.size() != loadings_.size() || mean.size() != mean_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LogisticNormalMultinomial::SetBase: loadings of size ", loadings.size(),
        " (expected ", loadings_.size(), ") and mean of size ", mean.size(), " (expected ",
        mean_.size(), ")"));
  }
  for (size_t k = 0; k < loadings.size() + mean.size(); ++k) {
    const double v = k < loadings.size() ? loadings[k] : mean[k - loadings.size()];
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LogisticNormalMultinomial::SetBase: non-finite value ", v, " at index ", k));
    }
    if (k >= loadings.size() && options_.mean_prior_sd == 0 && v != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LogisticNormalMultinomial::SetBase: mean_prior_sd = 0 fixes m = 0, got m[",
          k - loadings.size(), "] = ", v));
    }
  }
  loadings_.assign(loadings.begin(), loadings.end());
  mean_.assign(mean.begin(), mean.end());
  RefreshBaseCache();
  return absl::OkStatus();
}

void LogisticNormalMultinomial::RefreshBaseCache() {
  RowMatrix cholesky;
  log_det_sigma_ = WoodburyFactor(ConstRowMatrixMap(loadings_.data(), dimension(), rank()),
                                  options_.noise_sd, &cholesky);
  woodbury_cholesky_.assign(cholesky.data(), cholesky.data() + cholesky.size());
}

LogisticNormalAtom LogisticNormalMultinomial::DrawFromBase(rng::Engine& engine) const {
  const int d = dimension();
  const samplers::LowRankGaussianView prior{mean_, loadings_, rank(), noise_sd_};
  std::vector<double> z(rank());
  std::vector<double> eta(d);
  samplers::LowRankGaussianNoise(prior, engine, absl::MakeSpan(z), absl::MakeSpan(eta));
  for (int i = 0; i < d; ++i) eta[i] += mean_[i];
  LogisticNormalAtom atom;
  atom.SetEta(eta);
  return atom;
}

double LogisticNormalMultinomial::LogLikelihood(absl::Span<const int32_t> point,
                                                const LogisticNormalAtom& atom) const {
  double out = 0;
  LogLikelihoods(point, absl::MakeConstSpan(&atom, 1), absl::MakeSpan(&out, 1));
  return out;
}

void LogisticNormalMultinomial::LogLikelihoods(absl::Span<const int32_t> point,
                                               absl::Span<const LogisticNormalAtom> atoms,
                                               absl::Span<double> out) const {
  const size_t d = dimension();
  SGMCMC_CHECK(point.size() == d && out.size() == atoms.size())
      << "LogLikelihoods: point of size " << point.size() << " (dimension " << d << "), "
      << atoms.size() << " atoms, " << out.size() << " outputs";
  const double coefficient = LogMultinomialCoefficient(point);
  for (size_t k = 0; k < atoms.size(); ++k) {
    const double* log_probs = atoms[k].log_probs.data();
    SGMCMC_DCHECK(atoms[k].log_probs.size() == d) << "LogLikelihoods: atom " << k;
    // Four partial sums break the add dependency chain (a fixed order: same bits everywhere).
    double sum[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 4 <= d; i += 4) {
      for (int lane = 0; lane < 4; ++lane) sum[lane] += point[i + lane] * log_probs[i + lane];
    }
    for (; i < d; ++i) sum[0] += point[i] * log_probs[i];
    out[k] = coefficient + ((sum[0] + sum[1]) + (sum[2] + sum[3]));
  }
}

double LogisticNormalMultinomial::LogBaseDensity(absl::Span<const double> eta) const {
  const int d = dimension();
  SGMCMC_CHECK(static_cast<int>(eta.size()) == d)
      << "LogBaseDensity: eta of size " << eta.size() << ", expected " << d;
  return WoodburyLogDensity(ConstRowMatrixMap(loadings_.data(), d, rank()),
                            ConstRowMatrixMap(woodbury_cholesky_.data(), rank(), rank()),
                            log_det_sigma_, options_.noise_sd, mean_.data(), eta.data());
}

void LogisticNormalMultinomial::UpdateAtom(const MultinomialStatistics& statistics,
                                           LogisticNormalAtom* atom,
                                           rng::Engine& engine) const {
  const int d = dimension();
  SGMCMC_CHECK(atom != nullptr && static_cast<int>(atom->eta.size()) == d &&
               static_cast<int>(statistics.counts.size()) == d)
      << "UpdateAtom: atom and statistics must have dimension " << d;
  const double total = static_cast<double>(statistics.total);
  // Σ_d S_d η_d − n log Σ_d exp(η_d) = Σ_d S_d log softmax(η)_d.
  auto log_likelihood = [&](absl::Span<const double> eta) {
    if (statistics.total == 0) return 0.0;
    double dot = 0;
    for (int i = 0; i < d; ++i) {
      if (statistics.counts[i] != 0) dot += statistics.counts[i] * eta[i];
    }
    return dot - total * math::LogSumExp(eta);
  };
  const samplers::LowRankGaussianView prior{mean_, loadings_, rank(), noise_sd_};
  samplers::EllipticalSlice slice;
  double ll = log_likelihood(atom->eta);
  for (int t = 0; t < options_.atom_steps; ++t) {
    ll = slice.Step(prior, log_likelihood, ll, absl::MakeSpan(atom->eta), engine)
             .log_likelihood;
  }
  atom->log_probs.resize(d);
  LogSoftmax(atom->eta, absl::MakeSpan(atom->log_probs));
}

double LogisticNormalMultinomial::LogBaseLikelihood(
    absl::Span<const double> base, absl::Span<const LogisticNormalAtom> atoms) const {
  const int d = dimension();
  const size_t loading_size = loadings_.size();
  const bool moves_mean = options_.mean_prior_sd > 0;
  SGMCMC_CHECK(base.size() == loading_size + (moves_mean ? d : 0))
      << "LogBaseLikelihood: base of size " << base.size();
  const ConstRowMatrixMap lambda(base.data(), d, rank());
  const double* mean = moves_mean ? base.data() + loading_size : mean_.data();
  RowMatrix cholesky;
  const double log_det = WoodburyFactor(lambda, options_.noise_sd, &cholesky);
  const ConstRowMatrixMap l(cholesky.data(), rank(), rank());
  double sum = 0;
  for (const LogisticNormalAtom& atom : atoms) {
    SGMCMC_CHECK(static_cast<int>(atom.eta.size()) == d)
        << "LogBaseLikelihood: atom of size " << atom.eta.size() << ", expected " << d;
    sum += WoodburyLogDensity(lambda, l, log_det, options_.noise_sd, mean, atom.eta.data());
  }
  return sum;
}

void LogisticNormalMultinomial::UpdateBase(absl::Span<const LogisticNormalAtom> atoms,
                                           rng::Engine& engine) {
  const size_t loading_size = loadings_.size();
  const bool moves_mean = options_.mean_prior_sd > 0;
  std::vector<double> base(loadings_);
  std::vector<double> prior_sd(loading_size, options_.loading_prior_sd);
  if (moves_mean) {
    base.insert(base.end(), mean_.begin(), mean_.end());
    prior_sd.resize(base.size(), options_.mean_prior_sd);
  }
  auto log_likelihood = [&](absl::Span<const double> candidate) {
    return LogBaseLikelihood(candidate, atoms);
  };
  const samplers::LowRankGaussianView prior{{}, {}, 0, prior_sd};
  samplers::EllipticalSlice slice;
  double ll = log_likelihood(base);
  for (int t = 0; t < options_.base_steps; ++t) {
    ll = slice.Step(prior, log_likelihood, ll, absl::MakeSpan(base), engine).log_likelihood;
  }
  std::copy(base.begin(), base.begin() + loading_size, loadings_.begin());
  if (moves_mean) std::copy(base.begin() + loading_size, base.end(), mean_.begin());
  RefreshBaseCache();
}

}  // namespace sgmcmc::models
