#include "models/regression/posterior_moments_testing.h"

#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

#include "absl/strings/str_format.h"
#include "boost/math/distributions/normal.hpp"
#include "eval/ess.h"
#include "rng/engine.h"

namespace sgmcmc::models {
namespace {

// Solves X = A X A' + Q + sum_k M_k X M_k' by vectorisation (column-major vec):
// (I - A kron A - sum_k M_k kron M_k) vec X = vec Q, using vec(M X M') = (M kron M) vec X.
Eigen::MatrixXd SolveDiscreteLyapunov(const Eigen::MatrixXd& a, const Eigen::MatrixXd& q,
                                      const std::vector<Eigen::MatrixXd>& extra = {}) {
  const int n = static_cast<int>(a.rows());
  Eigen::MatrixXd system = Eigen::MatrixXd::Identity(n * n, n * n);
  auto subtract_kron = [&](const Eigen::MatrixXd& m) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        // Column-major vec: (M X M')_{(r, c)} = sum_{i, j} M_ri X_ij M_cj.
        for (int r = 0; r < n; ++r) {
          for (int c = 0; c < n; ++c) system(c * n + r, j * n + i) -= m(r, i) * m(c, j);
        }
      }
    }
  };
  subtract_kron(a);
  for (const Eigen::MatrixXd& m : extra) subtract_kron(m);
  const Eigen::VectorXd vec_q = Eigen::Map<const Eigen::VectorXd>(q.data(), n * n);
  const Eigen::VectorXd vec_x = system.partialPivLu().solve(vec_q);
  Eigen::MatrixXd x = Eigen::Map<const Eigen::MatrixXd>(vec_x.data(), n, n);
  return (x + x.transpose()) / 2;
}

// Per-item gradient g_i(theta) = B_i theta - c_i with B_i = a_i a_i' / s2, c_i = a_i x_i / s2,
// centred on the means B-bar, c-bar over the N items: dB_i = B_i - B-bar, dc_i = c_i - c-bar.
struct CentredGradients {
  std::vector<Eigen::MatrixXd> db;
  std::vector<Eigen::VectorXd> dc;
};

CentredGradients PerItemGradients(const models::LinearRegression& model) {
  const int d = model.dimension();
  const int64_t n_items = model.num_items();
  const models::LinearRegressionData& data = model.data();
  const double inv_var = 1 / data.noise_variance;
  std::vector<Eigen::MatrixXd> b(n_items);
  std::vector<Eigen::VectorXd> c(n_items);
  Eigen::MatrixXd b_mean = Eigen::MatrixXd::Zero(d, d);
  Eigen::VectorXd c_mean = Eigen::VectorXd::Zero(d);
  for (int64_t i = 0; i < n_items; ++i) {
    const Eigen::Map<const Eigen::VectorXd> a(data.covariates.data() + i * d, d);
    b[i] = a * a.transpose() * inv_var;
    c[i] = a * data.observations[i] * inv_var;
    b_mean += b[i] / n_items;
    c_mean += c[i] / n_items;
  }
  CentredGradients g;
  g.db.resize(n_items);
  g.dc.resize(n_items);
  for (int64_t i = 0; i < n_items; ++i) {
    g.db[i] = b[i] - b_mean;
    g.dc[i] = c[i] - c_mean;
  }
  return g;
}

// The minibatch noise covariance averaged over theta with mean mu and covariance S:
// V(S) = v0 + sum_i F_i S F_i' (see the header).
struct NoiseModel {
  Eigen::MatrixXd v0;
  std::vector<Eigen::MatrixXd> factors;
};

NoiseModel MinibatchNoiseModel(const models::LinearRegression& model, int64_t batch_size,
                               const Eigen::VectorXd& mu) {
  const int d = model.dimension();
  const int64_t n_items = model.num_items();
  const CentredGradients g = PerItemGradients(model);
  // Cov(nu | theta) = k S^2(theta), k = (N^2 / n)(1 - n / N), S^2 the (N - 1)-normalised
  // covariance of g_i(theta) = (B_i - B-bar) theta - (c_i - c-bar) + const. Averaged over
  // theta: k / (N - 1) sum_i [(dB_i mu - dc_i)(dB_i mu - dc_i)' + dB_i S dB_i'].
  const double n = static_cast<double>(batch_size), big_n = static_cast<double>(n_items);
  const double k = big_n * big_n / n * (1 - n / big_n) / (big_n - 1);
  NoiseModel noise;
  noise.v0 = Eigen::MatrixXd::Zero(d, d);
  for (int64_t i = 0; i < n_items; ++i) {
    const Eigen::MatrixXd& db = g.db[i];
    const Eigen::VectorXd r = db * mu - g.dc[i];
    noise.v0 += k * r * r.transpose();
    noise.factors.push_back(std::sqrt(k) * db);
  }
  return noise;
}

}  // namespace

models::LinearRegression TestModel(int dimension, int64_t num_items, double rho, uint64_t seed) {
  rng::Engine engine(seed, /*stream=*/1000);
  models::CorrelatedDataOptions options;
  options.dimension = dimension;
  options.num_items = num_items;
  options.noise_variance = 1.0;
  options.correlation = rho;
  options.structure = models::CorrelatedDataOptions::Structure::kAutoregressive;
  options.scale_ratio = 2.0;
  return *models::LinearRegression::Create(*models::GenerateCorrelatedData(engine, options));
}

Eigen::MatrixXd MinibatchGradientNoise(const models::LinearRegression& model, int64_t batch_size,
                                       const models::GaussianPosterior& posterior) {
  const int d = model.dimension();
  const int64_t n_items = model.num_items();
  const CentredGradients g = PerItemGradients(model);
  const Eigen::VectorXd& mu = posterior.mean;
  const Eigen::MatrixXd second = posterior.covariance + mu * mu.transpose();
  Eigen::MatrixXd s2 = Eigen::MatrixXd::Zero(d, d);
  for (int64_t i = 0; i < n_items; ++i) {
    const Eigen::MatrixXd& db = g.db[i];
    const Eigen::VectorXd& dc = g.dc[i];
    const Eigen::VectorXd db_mu = db * mu;
    s2 += db * second * db.transpose() - db_mu * dc.transpose() - dc * db_mu.transpose() +
          dc * dc.transpose();
  }
  s2 /= static_cast<double>(n_items - 1);
  const double n = static_cast<double>(batch_size), big_n = static_cast<double>(n_items);
  return big_n * big_n / n * (1 - n / big_n) * s2;
}

Eigen::MatrixXd PreconditionedLangevinCovariance(const Eigen::MatrixXd& precision,
                                                 const Eigen::MatrixXd& gradient_noise,
                                                 const Eigen::MatrixXd& preconditioner, double h) {
  const int d = static_cast<int>(precision.rows());
  const Eigen::MatrixXd a = Eigen::MatrixXd::Identity(d, d) - h * preconditioner * precision;
  const Eigen::MatrixXd q =
      2 * h * preconditioner + h * h * preconditioner * gradient_noise * preconditioner;
  return SolveDiscreteLyapunov(a, q);
}

Eigen::MatrixXd SghmcCovariance(const Eigen::MatrixXd& precision,
                                const Eigen::MatrixXd& gradient_noise, double h, double friction,
                                double gradient_noise_estimate) {
  const int d = static_cast<int>(precision.rows());
  const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(d, d);
  const double keep = 1 - h * friction;
  // State (x, p), x = theta - mu: p' = keep p - h P x - h nu + eta, x' = x + h p'.
  Eigen::MatrixXd a(2 * d, 2 * d);
  a << eye - h * h * precision, h * keep * eye, -h * precision, keep * eye;
  const Eigen::MatrixXd s = 2 * (friction - gradient_noise_estimate) * h * eye;  // Cov(eta)
  // Noise (-h^2 nu + h eta, -h nu + eta).
  Eigen::MatrixXd q(2 * d, 2 * d);
  q << std::pow(h, 4) * gradient_noise + h * h * s, std::pow(h, 3) * gradient_noise + h * s,
      std::pow(h, 3) * gradient_noise + h * s, h * h * gradient_noise + s;
  return SolveDiscreteLyapunov(a, q).topLeftCorner(d, d);
}

Eigen::MatrixXd ExactLangevinCovariance(const models::LinearRegression& model, int64_t batch_size,
                                        const Eigen::MatrixXd& preconditioner, double h) {
  const models::GaussianPosterior exact = model.ExactPosterior();
  const int d = model.dimension();
  const Eigen::MatrixXd& g = preconditioner;
  const NoiseModel noise = MinibatchNoiseModel(model, batch_size, exact.mean);
  const Eigen::MatrixXd a = Eigen::MatrixXd::Identity(d, d) - h * g * exact.covariance.inverse();
  const Eigen::MatrixXd q = 2 * h * g + h * h * g * noise.v0 * g;
  std::vector<Eigen::MatrixXd> extra;
  for (const Eigen::MatrixXd& f : noise.factors) extra.push_back(h * g * f);
  return SolveDiscreteLyapunov(a, q, extra);
}

Eigen::MatrixXd ExactSghmcCovariance(const models::LinearRegression& model, int64_t batch_size,
                                     double h, double friction, double gradient_noise_estimate) {
  const models::GaussianPosterior exact = model.ExactPosterior();
  const int d = model.dimension();
  const Eigen::MatrixXd precision = exact.covariance.inverse();
  const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(d, d);
  const double keep = 1 - h * friction;
  const NoiseModel noise = MinibatchNoiseModel(model, batch_size, exact.mean);
  // State (x, p): x' = (I - h^2 P) x + h keep p + (-h^2 nu + h eta), p' = -h P x + keep p +
  // (-h nu + eta).
  Eigen::MatrixXd a(2 * d, 2 * d);
  a << eye - h * h * precision, h * keep * eye, -h * precision, keep * eye;
  const Eigen::MatrixXd s = 2 * (friction - gradient_noise_estimate) * h * eye;  // Cov(eta)
  const Eigen::MatrixXd& v0 = noise.v0;
  Eigen::MatrixXd q(2 * d, 2 * d);
  q << std::pow(h, 4) * v0 + h * h * s, std::pow(h, 3) * v0 + h * s, std::pow(h, 3) * v0 + h * s,
      h * h * v0 + s;
  // The nu part of the noise is E nu with E = (-h^2 I; -h I) and nu's theta-dependent
  // covariance F_i x x' F_i': M_i = E F_i [I 0].
  Eigen::MatrixXd e(2 * d, d);
  e << -h * h * eye, -h * eye;
  std::vector<Eigen::MatrixXd> extra;
  for (const Eigen::MatrixXd& f : noise.factors) {
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(2 * d, 2 * d);
    m.leftCols(d) = e * f;
    extra.push_back(m);
  }
  return SolveDiscreteLyapunov(a, q, extra).topLeftCorner(d, d);
}

Chains RunChains(const std::function<std::unique_ptr<samplers::Sampler>(uint64_t)>& make,
                 const std::vector<uint64_t>& seeds, int64_t burn_in, int64_t iterations, int thin,
                 int interleave) {
  Chains chains;
  const int64_t stride = static_cast<int64_t>(thin) * interleave;
  for (uint64_t seed : seeds) {
    std::unique_ptr<samplers::Sampler> sampler = make(seed);
    chains.dimension = static_cast<int>(sampler->theta().size());
    for (int64_t m = 0; m < burn_in; ++m) sampler->Step();
    std::vector<std::vector<double>> sub(interleave);
    for (std::vector<double>& draws : sub) draws.reserve(iterations / stride * chains.dimension);
    for (int64_t m = 0; m < iterations / stride * stride; ++m) {
      sampler->Step();
      if ((m / interleave) % thin == thin - 1) {
        std::vector<double>& draws = sub[m % interleave];
        draws.insert(draws.end(), sampler->theta().begin(), sampler->theta().end());
      }
    }
    for (std::vector<double>& draws : sub) chains.draws.push_back(std::move(draws));
  }
  return chains;
}

::testing::AssertionResult CheckGaussianMoments(const Chains& chains,
                                              const models::GaussianPosterior& exact,
                                              const Eigen::VectorXd& mean_allowance,
                                              const Eigen::MatrixXd& covariance_allowance,
                                              double false_failure_rate) {
  const int d = chains.dimension;
  const size_t num_chains = chains.draws.size();
  const size_t length = chains.draws[0].size() / d;
  struct Statistic {
    std::string name;
    int i, j;  // j < 0: mean of theta_i
    double target, allowance;
  };
  std::vector<Statistic> stats;
  for (int i = 0; i < d; ++i) {
    stats.push_back(
        {absl::StrFormat("E[theta_%d]", i + 1), i, -1, exact.mean[i], mean_allowance[i]});
  }
  for (int i = 0; i < d; ++i) {
    for (int j = i; j < d; ++j) {
      stats.push_back({absl::StrFormat("Cov[%d,%d]", i + 1, j + 1), i, j, exact.covariance(i, j),
                       covariance_allowance(i, j)});
    }
  }
  const double k = static_cast<double>(stats.size());
  const double z = boost::math::quantile(
      boost::math::complement(boost::math::normal(), false_failure_rate / (2 * k)));

  bool ok = true;
  std::ostringstream table;
  table << absl::StrFormat("%zu chains x %zu kept draws, z = %.3f (Bonferroni over %d stats)\n",
                           num_chains, length, z, static_cast<int>(k))
        << absl::StrFormat("%-12s %12s %12s %10s %10s %10s %12s\n", "statistic", "estimate",
                           "exact", "MC se", "ESS", "allowance", "|err|/tol");
  std::vector<std::vector<double>> series(num_chains, std::vector<double>(length));
  for (const Statistic& stat : stats) {
    double sum = 0;
    for (size_t c = 0; c < num_chains; ++c) {
      const std::vector<double>& x = chains.draws[c];
      for (size_t t = 0; t < length; ++t) {
        const double* theta = x.data() + t * d;
        series[c][t] = stat.j < 0 ? theta[stat.i]
                                  : (theta[stat.i] - exact.mean[stat.i]) *
                                        (theta[stat.j] - exact.mean[stat.j]);
        sum += series[c][t];
      }
    }
    const double total = static_cast<double>(num_chains * length);
    const double estimate = sum / total;
    double ss = 0;
    for (const std::vector<double>& s : series) {
      for (double v : s) ss += (v - estimate) * (v - estimate);
    }
    const std::vector<absl::Span<const double>> spans(series.begin(), series.end());
    const double ess = eval::EffectiveSampleSize(spans);
    const double se = std::sqrt(ss / (total - 1) / ess);
    const double tolerance = z * se + stat.allowance;
    const double ratio = std::abs(estimate - stat.target) / tolerance;
    if (!(ratio <= 1)) ok = false;
    table << absl::StrFormat("%-12s %12.6g %12.6g %10.3g %10.0f %10.3g %12.3f%s\n", stat.name,
                             estimate, stat.target, se, ess, stat.allowance, ratio,
                             ratio <= 1 ? "" : "  FAIL");
  }
  if (ok) return ::testing::AssertionSuccess() << table.str();
  return ::testing::AssertionFailure() << table.str();
}

MeanEstimate QuadraticFormMean(const Chains& chains, const Eigen::VectorXd& mean,
                               const Eigen::MatrixXd& weight) {
  const int d = chains.dimension;
  std::vector<std::vector<double>> series;
  double sum = 0, total = 0;
  for (const std::vector<double>& x : chains.draws) {
    const size_t length = x.size() / d;
    std::vector<double>& q = series.emplace_back(length);
    for (size_t t = 0; t < length; ++t) {
      const Eigen::VectorXd dev = Eigen::Map<const Eigen::VectorXd>(x.data() + t * d, d) - mean;
      q[t] = dev.dot(weight * dev);
      sum += q[t];
    }
    total += static_cast<double>(length);
  }
  MeanEstimate estimate;
  estimate.mean = sum / total;
  double ss = 0;
  for (const std::vector<double>& q : series) {
    for (double v : q) ss += (v - estimate.mean) * (v - estimate.mean);
  }
  const std::vector<absl::Span<const double>> spans(series.begin(), series.end());
  estimate.ess = eval::EffectiveSampleSize(spans);
  estimate.standard_error = std::sqrt(ss / (total - 1) / estimate.ess);
  return estimate;
}

::testing::AssertionResult CheckBiasTrend(const MeanEstimate& at_h, const MeanEstimate& at_half_h,
                                          double exact_value, double predicted_h,
                                          double predicted_half_h, double false_failure_rate) {
  // Two checks, Bonferroni: each at false_failure_rate / 2, two-sided.
  const double z =
      boost::math::quantile(boost::math::complement(boost::math::normal(), false_failure_rate / 4));
  const double se_h = at_h.standard_error, se_half_h = at_half_h.standard_error;
  const double bias_h = at_h.mean - exact_value;
  const double bias_half_h = at_half_h.mean - exact_value;
  // 1. The fraction of the bias left: b(h/2) / b(h) = r.
  const double r = predicted_half_h / predicted_h;
  const double ratio = bias_half_h / bias_h;
  const double se_ratio =
      std::sqrt(se_half_h * se_half_h + r * r * se_h * se_h) / std::abs(predicted_h);
  // 2. The bias removed: b(h) - b(h/2) = E_h[q] - E_h/2[q] (needs no exact value).
  const double removed = bias_h - bias_half_h;
  const double predicted_removed = predicted_h - predicted_half_h;
  const double se_removed = std::sqrt(se_h * se_h + se_half_h * se_half_h);
  const double err_ratio = std::abs(ratio - r) / (z * se_ratio);
  const double err_removed = std::abs(removed - predicted_removed) / (z * se_removed);
  const std::string table = absl::StrFormat(
      "bias at h:   %.6g (predicted %.6g, se %.3g, ESS %.0f)\n"
      "bias at h/2: %.6g (predicted %.6g, se %.3g, ESS %.0f)\n"
      "z = %.3f (Bonferroni over 2 checks)\n"
      "ratio b(h/2)/b(h): %.4f, predicted %.4f, se %.3g, |err|/tol = %.3f%s\n"
      "removed b(h)-b(h/2): %.6g, predicted %.6g, se %.3g, |err|/tol = %.3f%s\n",
      bias_h, predicted_h, se_h, at_h.ess, bias_half_h, predicted_half_h, se_half_h, at_half_h.ess,
      z, ratio, r, se_ratio, err_ratio, err_ratio <= 1 ? "" : "  FAIL", removed, predicted_removed,
      se_removed, err_removed, err_removed <= 1 ? "" : "  FAIL");
  if (!(std::abs(predicted_h) >= 3 * z * se_h)) {
    return ::testing::AssertionFailure()
           << "unpowered design: the predicted bias at h is under 3 z standard errors\n"
           << table;
  }
  if (!(err_ratio <= 1 && err_removed <= 1)) return ::testing::AssertionFailure() << table;
  return ::testing::AssertionSuccess() << table;
}

void ExpectDiscretisedChainLaw(
    const models::LinearRegression& model, double h,
    const std::function<Eigen::MatrixXd(double step)>& covariance,
    const std::function<std::unique_ptr<samplers::Sampler>(double step, uint64_t seed)>& make,
    int64_t burn_in, int64_t iterations_at_h, int thin) {
  const int d = model.dimension();
  const models::GaussianPosterior exact = model.ExactPosterior();
  const Eigen::MatrixXd precision = exact.covariance.inverse();
  std::vector<MeanEstimate> q;
  std::vector<double> predicted_bias;
  for (double step : {h, h / 2}) {
    const models::GaussianPosterior chain_law = {exact.mean, covariance(step)};
    const Chains chains =
        RunChains([&](uint64_t seed) { return make(step, seed); }, {21, 22, 23, 24}, burn_in,
                  static_cast<int64_t>(static_cast<double>(iterations_at_h) * h / step), thin);
    const ::testing::AssertionResult result = CheckGaussianMoments(
        chains, chain_law, Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d));
    EXPECT_TRUE(result) << "step " << step;
    std::cerr << "step " << step << "\n" << result.message();
    q.push_back(QuadraticFormMean(chains, exact.mean, precision));
    predicted_bias.push_back((precision * chain_law.covariance).trace() - d);
  }
  const ::testing::AssertionResult trend =
      CheckBiasTrend(q[0], q[1], d, predicted_bias[0], predicted_bias[1]);
  EXPECT_TRUE(trend);
  std::cerr << trend.message();
}

}  // namespace sgmcmc::models
