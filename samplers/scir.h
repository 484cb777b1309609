// SCIR: the stochastic Cox-Ingersoll-Ross sampler on the probability simplex (Baker, Fearnhead,
// Fox & Nemeth 2018, §3 Algorithm 1, eq. 3.3), and its two extensions of §3.3: a positive
// parameter with a gamma posterior, and a lognormal target via an exact Ornstein-Uhlenbeck
// transition in log space. ALGORITHMS.md "SCIR" has the update and the pitfalls.
//
// Simplex (class Scir): each row k keeps θ_k with θ_kj targeting Gamma(a_kj, 1),
// a_kj = α_j + Σ_i z_ikj, and ω_k = θ_k / θ_k· ~ Dir(a_k). One step of size h > 0 replaces
// a_kj by the minibatch estimate â_kj = α_j + ĉ_kj (ĉ scaled by N/n) and moves every θ_kj by
// the EXACT CIR transition for time h, dθ = (â − θ)dt + √(2θ) dW (eq. 3.2 with â for a):
//   P ~ Poisson(θ e^{-h} / (1 − e^{-h})),   θ' = (1 − e^{-h}) · Gamma(â + P, 1),
// the Poisson mixture form of θ' = (1 − e^{-h})/2 · χ'²(2â, 2θ e^{-h}/(1 − e^{-h})). There is
// no discretisation error: with â = a (full batch) the chain is exact for every h, and with
// minibatches E[θ_M] and Var[θ_M] follow Corollary 4.2 (tested in scir_test.cc).
//
// Log space: with β = 0.01 and zero counts, Gamma(â + P) draws underflow to 0 in double, and
// log ω = −∞ breaks LDA's likelihood. So SCIR keeps log θ only: the gamma factor is drawn by
// rng::LogGammaSample (finite for every shape > 0) and
//   log θ' = log(1 − e^{-h}) + log Gamma(â + P),   λ = exp(log θ + log(e^{-h}/(1 − e^{-h}))).
// log ω = log θ − log θ· is finite for every component, always; ω itself (Simplex) is flushed
// to 0 below DBL_MIN (~2.2e-308). The row log-normaliser log θ· is refreshed by every step.
//
// Inner loop: per block of 256 coordinates the Poisson means λ_j are computed with one
// vectorised exp (Eigen), then the draws run sequentially from the row's stream. Zero counts
// (most of an LDA topic) take the fast path: shape α_j with no count look-up (one compare with
// the next sparse column), and no Poisson draw at all when λ_j < 2^-54, where
// P(P >= 1) < 2^-54 is below double resolution and rng::PoissonSample's inversion returns 0
// for every uniform anyway (with β = 0.01, ~70% of the stationary zero-count θ).
//
// Positive-real SCIR: ScirGammaStep / ScirLogGammaStep move a scalar θ towards Gamma(â, rate)
// exactly (for a fixed â): the CIR transition above applied to rate·θ. Lognormal:
// LognormalOuStep moves x = log θ by the exact OU transition for time h towards N(μ, σ²),
// x' = μ + (x − μ) e^{-h} + σ √(1 − e^{-2h}) ξ; a minibatch estimate μ̂ gives E[x_M] =
// x_0 e^{-Mh} + E[μ̂](1 − e^{-Mh}), unbiased like SCIR.
//
// Cost: O(W) per row: per coordinate one rng::LogGammaSample, one rng::PoissonSample (unless
// λ < 2^-54) and two exps (λ, vectorised; the normaliser, linalg::LogSumExp). Measured by
// //samplers:scir_benchmark (100 x 10,000, 99% zero counts, h = 0.5, --config=bench, one
// core of a loaded 2-core VM): ~82-90 ns CPU per coordinate at α = 0.01 and ~95-110 ns at
// α = 0.5 — NOT the 25 ns target: rng::LogGammaSample alone measures ~54 ns for shape 0.1
// on the same machine (//rng:gamma_benchmark), and it and rng::PoissonSample are ~75% of the
// profile. Requires θ e^{-h}/(1 − e^{-h}) <= rng::kMaxPoissonMean (2^62) per coordinate.
//
// Example:
//   SimplexSamplerOptions options;
//   options.rows = 100; options.cols = 10000; options.alpha = {0.01}; options.seed = 7;
//   SGMCMC_ASSIGN_OR_RETURN(Scir scir, Scir::Create(options));
//   scir.Step(counts, /*h=*/0.5);             // or StepRows(counts, h, begin, end) per thread
//   scir.LogSimplex(/*row=*/3, absl::MakeSpan(log_omega));   // finite
//
//   double log_tau = 0;                       // positive-real: a precision with Gamma posterior
//   log_tau = ScirLogGammaStep(engine, log_tau, shape_hat, rate, /*h=*/0.1);
#ifndef SGMCMC_SAMPLERS_SCIR_H_
#define SGMCMC_SAMPLERS_SCIR_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::samplers {

class Scir final : public SimplexSampler {
 public:
  // InvalidArgument if options.Validate() fails. Every row starts at θ = 1 (log θ = 0).
  static absl::StatusOr<Scir> Create(SimplexSamplerOptions options);

  // log θ_row (finite) and log θ_row· = log Σ_j θ_row,j.
  absl::Span<const double> log_theta(int row) const {
    return absl::MakeConstSpan(log_theta_.data() + static_cast<size_t>(row) * cols(), cols());
  }
  double log_normalizer(int row) const { return log_normalizer_[row]; }

  // ω_row = exp(log θ_row − log θ_row·) (may contain exact zeros by underflow) and
  // log ω_row = log θ_row − log θ_row· (always finite).
  void Simplex(int row, absl::Span<double> out) const override;
  void LogSimplex(int row, absl::Span<double> out) const override;

  absl::Status SetTheta(int row, absl::Span<const double> theta) override;
  absl::Status SetLogTheta(int row, absl::Span<const double> log_theta) override;

 private:
  explicit Scir(SimplexSamplerOptions options);

  void StepRowSparse(int row, const SparseCountsRow& counts, double h,
                     rng::Engine& engine) override;
  void StepRowDense(int row, absl::Span<const double> counts, double h,
                    rng::Engine& engine) override;
  double* mutable_log_theta(int row) {
    return log_theta_.data() + static_cast<size_t>(row) * cols();
  }
  void RefreshNormalizer(int row);

  std::vector<double> log_theta_;       // rows x cols
  std::vector<double> log_normalizer_;  // rows
};

// One exact CIR transition for time h > 0 of a positive θ >= 0 towards Gamma(shape, rate)
// (shape > 0, e.g. a minibatch estimate â; rate > 0):
//   θ' = (1 − e^{-h})/rate · Gamma(shape + P, 1),  P ~ Poisson(rate θ e^{-h}/(1 − e^{-h})).
// For tiny shapes the result may underflow to 0 (rng::GammaSample); use ScirLogGammaStep then.
double ScirGammaStep(rng::Engine& engine, double theta, double shape, double rate, double h);

// The same transition in log space: log θ' from log θ (finite); the result is finite for
// every shape > 0.
double ScirLogGammaStep(rng::Engine& engine, double log_theta, double shape, double rate, double h);

// Mean and variance of θ_M after M = `steps` >= 0 SCIR steps of size h > 0 from θ_0 >= 0 when
// the shapes â_m are i.i.d. with mean a > 0 and variance var_a_hat >= 0 (Baker et al. 2018,
// Corollary 4.2; unit rate):
//   E[θ_M]   = θ_0 e^{-Mh} + a (1 − e^{-Mh}),
//   Var[θ_M] = 2θ_0 (e^{-Mh} − e^{-2Mh}) + a (1 − e^{-Mh})²
//              + (1 − e^{-2Mh}) (1 − e^{-h})/(1 + e^{-h}) Var[â].
// As M → ∞: mean a (no bias for any h) and variance a + (1 − e^{-h})/(1 + e^{-h}) Var[â].
struct ScirMoments {
  double mean = 0;
  double variance = 0;
};
ScirMoments ScirCorollary42Moments(double theta0, double a, double var_a_hat, double h,
                                   int64_t steps);

// Exact Ornstein-Uhlenbeck transition for time h > 0 of x = log θ towards N(mu, sigma²)
// (θ lognormal; mu finite, sigma > 0 finite): x' = mu + (x − mu)e^{-h} + sigma √(1 − e^{-2h}) ξ.
double LognormalOuStep(rng::Engine& engine, double log_theta, double mu, double sigma, double h);

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SCIR_H_
