// SCIR: the stochastic Cox-Ingersoll-Ross sampler on the probability simplex (Baker, Fearnhead,
// Fox & Nemeth 2018, §3 Algorithm 1, eq. 3.3), and its two extensions of §3.3: a positive
// parameter with a gamma posterior, and a lognormal target via an exact Ornstein-Uhlenbeck
// transition in log space. docs/ALGORITHMS.md "SCIR" has the update and the pitfalls.
//
// Simplex (class Scir): each row k keeps θ_k with θ_kj targeting Gamma(a_kj, 1),
// a_kj = α_j + Σ_i z_ikj, and ω_k = θ_k / θ_k· ~ Dir(a_k). One step of size h > 0 replaces
// a_kj by the minibatch estimate â_kj = α_j + ĉ_kj (ĉ scaled by N/n) and moves every θ_kj by
// the EXACT CIR transition for time h, dθ = (â − θ)dt + √(2θ) dW (eq. 3.2 with â for a):
//   P ~ Poisson(θ e^{-h} / (1 − e^{-h})),   θ' = (1 − e^{-h}) · Gamma(â + P, 1),
// the Poisson mixture form of θ' = (1 − e^{-h})/2 · χ'²(2â, 2θ e^{-h}/(1 − e^{-h})). There is
// no discretisation error: with â = a (full batch) the chain is exact for every h, and with
// minibatches E[θ_M] and Var[θ_M] follow Corollary 4.2 (tested in scir_test.cc). Every way
// the transition is drawn (normal decomposition for â >= 1/2, Poisson mixture below, a
// fixed-shape rng::LogGammaTable for the zero-count entries) is exact; scir.cc describes them.
//
// Log space: SCIR's state is log θ, and the gamma factor is drawn in log space, so
// LogSimplex's log ω = log θ − log θ· is finite for every component and every α > 0 (with
// β = 0.01 and zero counts, linear Gamma(â + P) draws underflow to 0). Simplex's ω is flushed
// to 0 below DBL_MIN. A chain restored from log θ (SetLogTheta, SetSteps) continues
// bit-identically, and a seed gives the same chain on every x86-64 CPU.
//
// Positive-real SCIR: ScirGammaStep / ScirLogGammaStep move a scalar θ towards Gamma(â, rate)
// exactly (for a fixed â): the CIR transition above applied to rate·θ. Lognormal:
// LognormalOuStep moves x = log θ by the exact OU transition for time h towards N(μ, σ²),
// x' = μ + (x − μ) e^{-h} + σ √(1 − e^{-2h}) ξ; a minibatch estimate μ̂ gives E[x_M] =
// x_0 e^{-Mh} + E[μ̂](1 − e^{-Mh}), unbiased like SCIR.
//
// Cost: O(W) per row per step, O(1) draws per coordinate (a zero count under a symmetric
// prior: one normal, or one table draw plus a Poisson-threshold compare; a Poisson and a gamma
// draw only for the P >= 1 events), plus O(rows) engine set-ups; memory two doubles per entry
// (log θ and a θ cache). Requires θ e^{-h}/(1 − e^{-h}) <= rng::kMaxPoissonMean (2^62) per
// coordinate. Measured timings: samplers/scir_benchmark.cc.
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
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "rng/log_gamma_table.h"
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
  double LogRowMass(int row) const override { return log_normalizer_[row]; }

  // ω_row = exp(log θ_row − log θ_row·) (may contain exact zeros by underflow) and
  // log ω_row = log θ_row − log θ_row· (always finite).
  void Simplex(int row, absl::Span<double> out) const override;
  void LogSimplex(int row, absl::Span<double> out) const override;
  void SimplexColumns(absl::Span<const int32_t> columns, absl::Span<double> out) const override;

  absl::Status SetTheta(int row, absl::Span<const double> theta) override;
  absl::Status SetLogTheta(int row, absl::Span<const double> log_theta) override;

 private:
  explicit Scir(SimplexSamplerOptions options);

  const char* stored_parameterization() const override { return "log_theta"; }
  absl::Span<const double> StoredRow(int row) const override { return log_theta(row); }
  absl::Status SetStoredRow(int row, absl::Span<const double> values) override {
    return SetLogTheta(row, values);
  }

  void StepRowSparse(int row, const SparseCountsRow& counts, double h,
                     rng::Engine& engine) override;
  void StepRowDense(int row, absl::Span<const double> counts, double h,
                    rng::Engine& engine) override;
  // The step of one row with dense (cols entries) or sparse counts (the other one null).
  void AdvanceRow(int row, const double* dense_counts, const SparseCountsRow* sparse_counts,
                  double h, rng::Engine& engine);

  std::vector<double> log_theta_;       // rows x cols
  // exp(log θ) (rows x cols), or 0 below DBL_MIN or where below 2^-60 max_j θ_j / cols: the
  // step reads λ = c θ and sums θ for the normaliser without recomputing exp(log θ); entries
  // cached as 0 fall back to log θ.
  std::vector<double> theta_;
  std::vector<double> log_normalizer_;  // rows
  double min_alpha_;                    // min_j α_j: >= 1/2 selects the vectorised step
  // Under a symmetric prior α != 1/2: the fixed-shape sampler of the zero-count gamma draws,
  // shape α − 1/2 (α > 1/2) or α (α < 1/2); empty otherwise (rng::LogGammaSample is used).
  std::shared_ptr<const rng::LogGammaTable> zero_count_table_;  // null: no table
};

// One exact CIR transition for time h > 0 of a positive θ >= 0 towards Gamma(shape, rate)
// (shape > 0, e.g. a minibatch estimate â; rate > 0):
//   θ' = (1 − e^{-h})/rate · Gamma(shape + P, 1),  P ~ Poisson(rate θ e^{-h}/(1 − e^{-h})),
// drawn as in Scir (for shape >= 1/2 by the normal decomposition, see the header comment).
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
