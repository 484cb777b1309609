// Bayesian linear regression with a standard normal prior (HAMCMC paper, Simsekli et al.
// 2016, Sec. 4.1, eq. 13):
//   theta ~ N(0, I_D),   x_n | theta ~ N(a_n' theta, sigma^2),   n = 1..N,
// as a samplers::FisherModel (stochastic gradients for every Euclidean sampler, and the
// constant expected Fisher information F = sum_n a_n a_n' / sigma^2 + I for dense SGRLD), its
// exact Gaussian posterior N(F^-1 b, F^-1) with b = sum_n a_n x_n / sigma^2, and the
// synthetic data generator with correlated covariates that makes the posterior correlated.
//
// Potential gradients: -grad log p(theta) = theta; -grad log p(x_n | theta) =
// a_n (a_n' theta - x_n) / sigma^2.
//
// Cost: Create is O(N D^2) time and O(N D + D^2) memory (F is precomputed, as the paper
// did); a stochastic gradient over n items is O(n D); ExpectedFisherInformation copies F,
// O(D^2); ExactPosterior is O(D^3); LogJoint is O(N D).
//
// Example:
//   rng::Engine engine(/*seed=*/1);
//   CorrelatedDataOptions data_options;  // D = 2, N = 1000, sigma^2 = 10, rho = 0.9
//   SGMCMC_ASSIGN_OR_RETURN(LinearRegressionData data,
//                           GenerateCorrelatedData(engine, data_options));
//   SGMCMC_ASSIGN_OR_RETURN(LinearRegression model, LinearRegression::Create(std::move(data)));
//   GaussianPosterior exact = model.ExactPosterior();
#ifndef SGMCMC_MODELS_REGRESSION_LINEAR_REGRESSION_H_
#define SGMCMC_MODELS_REGRESSION_LINEAR_REGRESSION_H_

#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/fisher_model.h"

namespace sgmcmc::models {

struct LinearRegressionData {
  // D >= 1.
  int dimension = 0;
  // a_1, ..., a_N, row-major N x D; finite.
  std::vector<double> covariates;
  // x_1, ..., x_N; finite; its length is N >= 1.
  std::vector<double> observations;
  // sigma^2, the observation noise variance; finite, > 0.
  double noise_variance = 1.0;
  // The theta that generated the data, if synthetic (length D), else empty. Not used by
  // the model.
  std::vector<double> true_theta;
};

struct GaussianPosterior {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
};

// Covariates a_n ~ N(0, C) with C_ij = s_i s_j R_ij, theta drawn from the prior and x_n from
// the likelihood. R is a correlation matrix with parameter rho:
//   kEquicorrelated   R_ij = rho for i != j: one direction (the all-ones one) carries most of
//                     the covariate variance, so the posterior has one very stiff direction
//                     and is strongly correlated (any dimension);
//   kAutoregressive   R_ij = rho^|i-j|: a smooth spectrum from (1-rho)/(1+rho) to
//                     (1+rho)/(1-rho), i.e. many stiff directions.
// The scales s_i = scale_ratio^(i / (D - 1)) grow geometrically from 1 to scale_ratio. For
// D = 2 both structures coincide. With rho near 1 or a large scale_ratio the posterior is
// strongly correlated and badly conditioned, as in the paper's Figures 1-2.
struct CorrelatedDataOptions {
  enum class Structure { kEquicorrelated, kAutoregressive };

  // D, >= 1. Default 2.
  int dimension = 2;
  // N, >= 1. Default 1000.
  int64_t num_items = 1000;
  // sigma^2, finite, > 0. Default 10 (the paper's Figure 1).
  double noise_variance = 10.0;
  // Correlation structure of the covariates. Default kEquicorrelated.
  Structure structure = Structure::kEquicorrelated;
  // rho; in (-1, 1) for kAutoregressive, in (-1/(D-1), 1) for kEquicorrelated (positive
  // definiteness). Default 0.9.
  double correlation = 0.9;
  // Ratio of the largest to the smallest covariate scale; finite, >= 1. Default 1.
  double scale_ratio = 1.0;

  absl::Status Validate() const;
};

// Draws theta (D normals), then for each n the covariate (D normals) and the noise (one
// normal), in that order, from `engine`. InvalidArgument naming the field for bad options.
absl::StatusOr<LinearRegressionData> GenerateCorrelatedData(rng::Engine& engine,
                                                            const CorrelatedDataOptions& options);

class LinearRegression final : public samplers::FisherModel {
 public:
  // InvalidArgument naming the field if `data` is inconsistent or not finite.
  static absl::StatusOr<LinearRegression> Create(LinearRegressionData data);

  int dimension() const override { return data_.dimension; }
  int64_t num_items() const override { return static_cast<int64_t>(data_.observations.size()); }
  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override;
  void AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                      absl::Span<const int64_t> batch, double scale,
                                      absl::Span<double> out) const override;
  void ExpectedFisherInformation(absl::Span<const double> theta,
                                 absl::Span<double> fisher) const override;

  // log p(theta) + sum_n log p(x_n | theta), normalising constants included.
  double LogJoint(absl::Span<const double> theta) const;
  // The exact posterior N(F^-1 b, F^-1).
  GaussianPosterior ExactPosterior() const;

  const LinearRegressionData& data() const { return data_; }

 private:
  LinearRegression(LinearRegressionData data, Eigen::MatrixXd fisher, Eigen::VectorXd b)
      : data_(std::move(data)), fisher_(std::move(fisher)), b_(std::move(b)) {}

  LinearRegressionData data_;
  Eigen::MatrixXd fisher_;  // sum_n a_n a_n' / sigma^2 + I
  Eigen::VectorXd b_;       // sum_n a_n x_n / sigma^2
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_REGRESSION_LINEAR_REGRESSION_H_
