#include "models/regression/linear_regression.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/normal.h"

namespace sgmcmc::models {
namespace {

// log(2 pi)
constexpr double kLog2Pi = 1.83787706640934548356065947281123527;

}  // namespace

absl::Status CorrelatedDataOptions::Validate() const {
  if (dimension < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("CorrelatedDataOptions.dimension must be >= 1, got ", dimension));
  }
  if (num_items < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("CorrelatedDataOptions.num_items must be >= 1, got ", num_items));
  }
  if (!(std::isfinite(noise_variance) && noise_variance > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CorrelatedDataOptions.noise_variance must be finite and > 0, got ", noise_variance));
  }
  const double lowest =
      structure == Structure::kEquicorrelated && dimension > 1 ? -1.0 / (dimension - 1) : -1.0;
  if (!(correlation > lowest && correlation < 1)) {
    return absl::InvalidArgumentError(absl::StrCat("CorrelatedDataOptions.correlation must be in (",
                                                   lowest, ", 1), got ", correlation));
  }
  if (structure != Structure::kEquicorrelated && structure != Structure::kAutoregressive) {
    return absl::InvalidArgumentError("CorrelatedDataOptions.structure is not a known value");
  }
  if (!(std::isfinite(scale_ratio) && scale_ratio >= 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CorrelatedDataOptions.scale_ratio must be finite and >= 1, got ", scale_ratio));
  }
  return absl::OkStatus();
}

absl::StatusOr<LinearRegressionData> GenerateCorrelatedData(rng::Engine& engine,
                                                            const CorrelatedDataOptions& options) {
  absl::Status status = options.Validate();
  if (!status.ok()) return status;
  const int d = options.dimension;
  Eigen::VectorXd scales(d);
  for (int i = 0; i < d; ++i) {
    scales[i] = d == 1 ? 1.0 : std::pow(options.scale_ratio, static_cast<double>(i) / (d - 1));
  }
  Eigen::MatrixXd covariance(d, d);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      const double r = i == j ? 1.0
                       : options.structure == CorrelatedDataOptions::Structure::kEquicorrelated
                           ? options.correlation
                           : std::pow(options.correlation, std::abs(i - j));
      covariance(i, j) = scales[i] * scales[j] * r;
    }
  }
  const Eigen::MatrixXd factor = covariance.llt().matrixL();

  LinearRegressionData data;
  data.dimension = d;
  data.noise_variance = options.noise_variance;
  data.true_theta.resize(d);
  rng::FillNormal(engine, absl::MakeSpan(data.true_theta));
  const Eigen::Map<const Eigen::VectorXd> theta(data.true_theta.data(), d);
  const double noise_sd = std::sqrt(options.noise_variance);
  data.covariates.resize(options.num_items * d);
  data.observations.resize(options.num_items);
  Eigen::VectorXd z(d);
  for (int64_t n = 0; n < options.num_items; ++n) {
    rng::FillNormal(engine, absl::MakeSpan(z.data(), d));
    Eigen::Map<Eigen::VectorXd> a(data.covariates.data() + n * d, d);
    a.noalias() = factor * z;
    data.observations[n] = a.dot(theta) + noise_sd * rng::NormalSample(engine);
  }
  return data;
}

absl::StatusOr<LinearRegression> LinearRegression::Create(LinearRegressionData data) {
  const int d = data.dimension;
  if (d < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("LinearRegressionData.dimension must be >= 1, got ", d));
  }
  const int64_t n_items = static_cast<int64_t>(data.observations.size());
  if (n_items < 1) {
    return absl::InvalidArgumentError("LinearRegressionData.observations must not be empty");
  }
  if (data.covariates.size() != static_cast<size_t>(n_items * d)) {
    return absl::InvalidArgumentError(
        absl::StrCat("LinearRegressionData.covariates has ", data.covariates.size(),
                     " entries, expected N * D = ", n_items, " * ", d));
  }
  if (!(std::isfinite(data.noise_variance) && data.noise_variance > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LinearRegressionData.noise_variance must be finite and > 0, got ", data.noise_variance));
  }
  for (size_t i = 0; i < data.covariates.size(); ++i) {
    if (!std::isfinite(data.covariates[i])) {
      return absl::InvalidArgumentError(absl::StrCat("LinearRegressionData.covariates[item ", i / d,
                                                     ", coordinate ", i % d, "] is not finite"));
    }
  }
  for (int64_t n = 0; n < n_items; ++n) {
    if (!std::isfinite(data.observations[n])) {
      return absl::InvalidArgumentError(
          absl::StrCat("LinearRegressionData.observations[", n, "] is not finite"));
    }
  }
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> a(
      data.covariates.data(), n_items, d);
  const Eigen::Map<const Eigen::VectorXd> x(data.observations.data(), n_items);
  const double inv_var = 1.0 / data.noise_variance;
  Eigen::MatrixXd fisher = Eigen::MatrixXd::Identity(d, d);
  fisher.selfadjointView<Eigen::Lower>().rankUpdate(a.transpose(), inv_var);
  fisher.triangularView<Eigen::StrictlyUpper>() = fisher.transpose();
  Eigen::VectorXd b = a.transpose() * x * inv_var;
  return LinearRegression(std::move(data), std::move(fisher), std::move(b));
}

void LinearRegression::PriorPotentialGradient(absl::Span<const double> theta,
                                              absl::Span<double> out) const {
  SGMCMC_DCHECK_EQ(theta.size(), static_cast<size_t>(dimension()));
  SGMCMC_DCHECK_EQ(out.size(), static_cast<size_t>(dimension()));
  std::copy(theta.begin(), theta.end(), out.begin());
}

void LinearRegression::AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                                      absl::Span<const int64_t> batch, double scale,
                                                      absl::Span<double> out) const {
  const int d = dimension();
  SGMCMC_DCHECK_EQ(theta.size(), static_cast<size_t>(d));
  SGMCMC_DCHECK_EQ(out.size(), static_cast<size_t>(d));
  const double factor = scale / data_.noise_variance;
  const double* th = theta.data();
  double* o = out.data();
  for (const int64_t n : batch) {
    SGMCMC_DCHECK(n >= 0 && n < num_items()) << "LinearRegression: item id " << n;
    const double* a = data_.covariates.data() + n * d;
    double dot = 0;
    for (int j = 0; j < d; ++j) dot += a[j] * th[j];
    const double r = factor * (dot - data_.observations[n]);
    for (int j = 0; j < d; ++j) o[j] += r * a[j];
  }
}

void LinearRegression::ExpectedFisherInformation(absl::Span<const double> theta,
                                                 absl::Span<double> fisher) const {
  const int d = dimension();
  SGMCMC_DCHECK_EQ(fisher.size(), static_cast<size_t>(d) * d);
  // fisher_ is symmetric, so its column-major storage is also its row-major layout.
  std::copy(fisher_.data(), fisher_.data() + fisher_.size(), fisher.begin());
}

double LinearRegression::LogJoint(absl::Span<const double> theta) const {
  const int d = dimension();
  SGMCMC_CHECK_EQ(theta.size(), static_cast<size_t>(d));
  double log_prior = -0.5 * d * kLog2Pi;
  for (double t : theta) log_prior -= 0.5 * t * t;
  double sum_sq = 0;
  for (int64_t n = 0; n < num_items(); ++n) {
    const double* a = data_.covariates.data() + n * d;
    double dot = 0;
    for (int j = 0; j < d; ++j) dot += a[j] * theta[j];
    const double r = data_.observations[n] - dot;
    sum_sq += r * r;
  }
  const double log_likelihood = -0.5 * num_items() * (kLog2Pi + std::log(data_.noise_variance)) -
                                0.5 * sum_sq / data_.noise_variance;
  return log_prior + log_likelihood;
}

GaussianPosterior LinearRegression::ExactPosterior() const {
  const Eigen::LLT<Eigen::MatrixXd> llt(fisher_);
  GaussianPosterior posterior;
  posterior.mean = llt.solve(b_);
  posterior.covariance = llt.solve(Eigen::MatrixXd::Identity(dimension(), dimension()));
  return posterior;
}

}  // namespace sgmcmc::models
