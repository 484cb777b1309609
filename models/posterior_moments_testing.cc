#include "models/posterior_moments_testing.h"

#include <cmath>
#include <sstream>

#include "absl/strings/str_format.h"
#include "boost/math/distributions/normal.hpp"
#include "eval/ess.h"
#include "rng/engine.h"

namespace sgmcmc::models {
namespace {

// Solves X = A X A' + Q by vectorisation: (I - A kron A) vec X = vec Q.
Eigen::MatrixXd SolveDiscreteLyapunov(const Eigen::MatrixXd& a, const Eigen::MatrixXd& q) {
  const int n = static_cast<int>(a.rows());
  Eigen::MatrixXd system = Eigen::MatrixXd::Identity(n * n, n * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      // Column-major vec: (A X A')_{(r, c)} = sum_{i, j} A_ri X_ij A_cj.
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) system(c * n + r, j * n + i) -= a(r, i) * a(c, j);
      }
    }
  }
  const Eigen::VectorXd vec_q = Eigen::Map<const Eigen::VectorXd>(q.data(), n * n);
  const Eigen::VectorXd vec_x = system.partialPivLu().solve(vec_q);
  Eigen::MatrixXd x = Eigen::Map<const Eigen::MatrixXd>(vec_x.data(), n, n);
  return (x + x.transpose()) / 2;
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
  const models::LinearRegressionData& data = model.data();
  const double inv_var = 1 / data.noise_variance;
  // Per-item gradient g_i(theta) = B_i theta - c_i with B_i = a_i a_i' / s2, c_i = a_i x_i / s2.
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
  const Eigen::VectorXd& mu = posterior.mean;
  const Eigen::MatrixXd second = posterior.covariance + mu * mu.transpose();
  Eigen::MatrixXd s2 = Eigen::MatrixXd::Zero(d, d);
  for (int64_t i = 0; i < n_items; ++i) {
    const Eigen::MatrixXd db = b[i] - b_mean;
    const Eigen::VectorXd dc = c[i] - c_mean;
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

}  // namespace sgmcmc::models
