// Alpha-stable matrix factorisation (alphaMF; Simsekli, Liutkus & Cemgil 2015) sampled by
// Metropolis-and-SG-MCMC-within-Gibbs, the HAMCMC paper's Sec. 4.2 (Simsekli et al. 2016,
// eq. 14-15). For one source (eq. 15), with V = W H:
//   W_ik ~ GG(a_w, b_w, -2/alpha),  H_kj ~ GG(a_h, b_h, -2/alpha),
//   Phi_ij ~ S(alpha/2, 1, 2 cos(pi alpha / 4)^(2/alpha), 0),
//   X_ij | W, H, Phi ~ N_c(0, Phi_ij V_ij^(2/alpha)),
// GG(a, b, c) the law with X^c ~ Gamma(a, rate b) (rng/generalized_gamma.h) and N_c(0, s) the
// circular complex Gaussian with density exp(-|x|^2 / s) / (pi s), so only P = |X|^2 enters.
// Marginally over Phi, X_ij is complex isotropic SalphaS (the product property, Samorodnitsky
// & Taqqu 1994, Prop. 1.3.1; Phi = 2 A with A's Laplace transform exp(-s^(alpha/2))).
// Several sources s = 1..S (the speech-denoising model of Simsekli et al. 2015: speech with
// alpha = 1.2 and K = 100, noise with alpha = 1.89 and K = 5) add their conditionally Gaussian
// parts: X_ij ~ N_c(0, sigma2_ij), sigma2_ij = sum_s Phi^s_ij (V^s_ij)^(2/alpha_s), and the
// Wiener gain of source s is E[sigma2^s_ij / sigma2_ij | X]. A source's W may be fixed (trained
// beforehand on clean speech); it is then not a parameter.
//
// Parameters and mirroring: theta = for each source [W_s row-major (I x K_s), unless fixed |
// H_s^T row-major (J x K_s)]; the model evaluates every density at |theta| (the even extension
// of the posterior to R^D), so W = |theta_W| and H = |theta_H|. For SGLD and pSGLD this chain,
// read through |.|, is the same chain in law as the paper's "replace negative elements by their
// absolute values after each step" (Patterson & Teh 2013, mirroring): the increments are
// symmetric and the gradients odd. For HAMCMC it keeps the L-BFGS pairs consistent with the
// base point theta_{t-M} (mirroring the current point only would break the pairs).
// With AlphaStableParametrization::kLog, theta = [log W_s | log H_s^T] instead and the densities
// carry the Jacobians W_ik, H_kj: the same posterior of W, H, with a geometry in which one
// constant step fits every entry (see the enum).
//
// Items: the N = I J entries, id n = i J + j. The Gibbs sweep (AlphaStableMfGibbs) is one
// Metropolis update of every Phi^s_ij with the prior as proposal (acceptance probability
// min(1, p(X_ij | Phi') / p(X_ij | Phi))) followed by one SG-MCMC step on W, H given Phi,
// with minibatches of entries (the paper: N_Omega = I J / 10).
//
// Checkpoints: RunAlphaStableMf saves the chain's state in the middle of its sweeps
// (AlphaStableMfChainState, models/mf/alpha_stable_mf_state.proto: the SG-MCMC sampler's
// SamplerState, the Metropolis stream's position, Phi and the running sums) and continues a
// run from it bit-identically (AlphaStableMfRunOptions::checkpoint_every, resume, stop_after).
//
// Cost: AddLikelihoodPotentialGradient O(n K_total) per call, PriorPotentialGradient O(D);
// Gibbs sweep: O(I J K_total) for V plus I J S stable draws for the Metropolis step, plus the
// SG-MCMC step. Not thread-safe. Measured by tools/alpha_stable_mf (time per sample).
//
// Example:
//   AlphaStableMfOptions options;
//   options.sources = {AlphaStableSource{.alpha = 1.2, .rank = 10}};
//   SGMCMC_ASSIGN_OR_RETURN(auto model, AlphaStableMf::Create(power, options));
//   SGMCMC_ASSIGN_OR_RETURN(AlphaStableMfResult result, RunAlphaStableMf(*model, run));
#ifndef SGMCMC_MODELS_MF_ALPHA_STABLE_MF_H_
#define SGMCMC_MODELS_MF_ALPHA_STABLE_MF_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "models/mf/alpha_stable_mf_state.pb.h"
#include "models/mf/matrix_factorization.h"
#include "rng/engine.h"
#include "samplers/gradient_model.h"

namespace sgmcmc::models {

// One alpha-stable source of the mixture.
struct AlphaStableSource {
  // Characteristic exponent; in (0, 2). Default 1.2 (the paper's speech).
  double alpha = 1.2;
  // K_s; >= 1. Default 10.
  int rank = 10;
  // GG shape and rate of the W and H priors; finite, > 0. Default 2 and 1 (prior mode of
  // W, H near 1).
  double a_w = 2;
  double b_w = 1;
  double a_h = 2;
  double b_h = 1;
  // If non-empty, the fixed W (I x K_s, column-major as Eigen stores it); entries > 0.
  Eigen::MatrixXd fixed_w;
};

// How theta holds the sampled factors (see the file comment).
enum class AlphaStableParametrization {
  // theta = W, H read through |.| (the paper's mirroring).
  kMirrored,
  // theta = log W, log H, with the Jacobian W (resp. H) in the density. The likelihood's
  // curvature in W_ik is O(J / W_ik^2) (and the GG prior's gradient ~ x^(c - 1) is unbounded at
  // 0), so no constant step suits both small and large entries of W; in log W it is O(J) for
  // every entry, and the prior's gradient -a c + b c x^c is bounded for x >= 1.
  kLog,
};

struct AlphaStableMfOptions {
  // The sources; non-empty. Default: one source with the defaults above.
  std::vector<AlphaStableSource> sources = {AlphaStableSource()};
  // Default kMirrored (the paper's scheme).
  AlphaStableParametrization parametrization = AlphaStableParametrization::kMirrored;

  absl::Status Validate() const;
};

// The dispersion 2 cos(pi alpha / 4)^(2 / alpha) of Phi ~ S(alpha/2, 1, ., 0) (eq. 15).
double AlphaStableMixingScale(double alpha);
// A draw of Phi (eq. 15); alpha in (0, 2).
double AlphaStableMixingSample(rng::Engine& engine, double alpha);

// -log GG(x; a, b, c) up to a constant, -(a c - 1) log x + b x^c, and its derivative in x;
// x > 0.
double GeneralizedGammaPotential(double x, double a, double b, double c);
double GeneralizedGammaPotentialDerivative(double x, double a, double b, double c);
// -log N_c(x; 0, variance) as a function of power = |x|^2: log(pi variance) + power / variance,
// and its derivative in the variance.
double ComplexGaussianPotential(double power, double variance);
double ComplexGaussianPotentialDerivative(double power, double variance);

class AlphaStableMf final : public samplers::GradientModel {
 public:
  // `power` is P = |X|^2 (I x J), finite and >= 0. Phi^s starts at the dispersion
  // AlphaStableMixingScale(alpha_s) everywhere (RunAlphaStableMf redraws it from the prior). InvalidArgument on bad options or data (a fixed W of the wrong shape
  // or with entries <= 0).
  static absl::StatusOr<std::unique_ptr<AlphaStableMf>> Create(const Eigen::MatrixXd& power,
                                                               const AlphaStableMfOptions& options);

  int dimension() const override { return dimension_; }
  int64_t num_items() const override { return static_cast<int64_t>(rows_) * cols_; }
  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override;
  void AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                      absl::Span<const int64_t> batch, double scale,
                                      absl::Span<double> out) const override;

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int num_sources() const { return static_cast<int>(options_.sources.size()); }
  const AlphaStableSource& source(int s) const { return options_.sources[s]; }
  const Eigen::MatrixXd& power() const { return power_; }

  // W_s = |theta_W| (or the fixed W) and H_s = |theta_H| (K_s x J).
  Eigen::MatrixXd W(absl::Span<const double> theta, int s) const;
  Eigen::MatrixXd H(absl::Span<const double> theta, int s) const;
  // theta with W_s and H_s set (entries of a fixed W are ignored); theta has length D.
  void SetFactors(int s, const Eigen::MatrixXd& w, const Eigen::MatrixXd& h,
                  absl::Span<double> theta) const;

  // Phi^s (I x J); settable for tests and initialisation (entries > 0).
  const Eigen::MatrixXd& phi(int s) const { return phi_[s]; }
  Eigen::MatrixXd& mutable_phi(int s) { return phi_[s]; }

  // One Metropolis update, proposal = prior, of the Phi^s_ij whose column-major index
  // n = i + I j satisfies n mod stride = phase mod stride (stride 1: every entry), given theta;
  // returns the fraction of accepted proposals. Draws one stable variate and one uniform per
  // updated entry and source from `engine`, entries in column-major order, sources in order.
  // A cycle of phases 0..stride-1 is a deterministic-scan Gibbs sweep over blocks of Phi.
  double MetropolisPhi(absl::Span<const double> theta, rng::Engine& engine, int stride = 1,
                       int64_t phase = 0);

  // sigma2^s = Phi^s (W_s H_s)^(2 / alpha_s) for every entry (I x J).
  Eigen::MatrixXd SourceVariance(absl::Span<const double> theta, int s) const;
  // log p(theta) + sum_ij log p(X_ij | theta, Phi) up to a constant (for tests).
  double LogJoint(absl::Span<const double> theta) const;

 private:
  AlphaStableMf(const Eigen::MatrixXd& power, const AlphaStableMfOptions& options);

  // The factor W_ik (or H_kj) of a coordinate of theta, its derivative, and the inverse.
  double Factor(double t) const { return log_parametrized_ ? std::exp(t) : std::fabs(t); }
  double FactorDerivative(double t) const {
    return log_parametrized_ ? std::exp(t) : (t < 0 ? -1.0 : 1.0);
  }
  double Coordinate(double x) const { return log_parametrized_ ? std::log(x) : x; }
  // -log of the GG(a, b, c) prior density of the coordinate t (with the Jacobian when log).
  double CoordinatePriorPotential(double t, double a, double b, double c) const;

  AlphaStableMfOptions options_;
  bool log_parametrized_;
  Eigen::MatrixXd power_;
  int rows_;
  int cols_;
  int dimension_ = 0;
  // Offsets in theta of W_s (-1 when fixed) and of H_s^T.
  std::vector<int> w_offset_;
  std::vector<int> h_offset_;
  std::vector<Eigen::MatrixXd> phi_;
};

// Data drawn from the one-source model: W, H from the priors, Phi from its law and complex X;
// `power` = |X|^2 and the true V = W H.
struct SyntheticAlphaStableData {
  Eigen::MatrixXd power;
  Eigen::MatrixXd w;
  Eigen::MatrixXd h;
};
SyntheticAlphaStableData GenerateAlphaStableData(int rows, int cols,
                                                 const AlphaStableSource& source,
                                                 rng::Engine& engine);

struct AlphaStableMfRunOptions {
  // Method, constant step size, seed, HAMCMC memory etc. (models/mf/matrix_factorization.h);
  // batch_size 0 means N / 10 (the paper's N_Omega = I J / 10). Defaults: SGLD, step 1e-4,
  // 500 iterations.
  MfRunOptions sampler;
  // Monte Carlo averages over the last `average_last` samples; in [1, iterations].
  // Default 50.
  int average_last = 50;
  // Metropolis sweeps of Phi at the initial W, H before the first SG-MCMC step, so that the
  // first gradients do not see prior draws of Phi that contradict the data (which throws W, H
  // far off); >= 0. Default 20.
  int phi_warmup_sweeps = 20;
  // If non-empty (length D), the start of W, H instead of the default below.
  std::vector<double> initial_theta;
  // Sweep t updates the Phi's with column-major index n = t mod phi_stride (a cyclic scan);
  // 1 (the default, the paper's scheme) updates every Phi in every sweep. >= 1. Larger
  // strides cut the cost of the Metropolis step, which dominates (one stable draw per entry
  // and source), at the price of slower mixing of Phi.
  int phi_stride = 1;

  // Mid-run checkpoints (models/mf/alpha_stable_mf_state.proto). With `resume` non-null the
  // chain continues from that state, saved by a run of the same model (data, options) and
  // run options, and ends bit-identical to the uninterrupted run (the seconds aside); the
  // start and the Phi warm-up are skipped. Every `checkpoint_every` sweeps (>= 0; 0, the
  // default: never) and when `stop_after` stops the run, `checkpoint` (if set) is called with
  // the state; an error it returns ends the run. `stop_after` (>= 0; 0, the default: run to
  // the end) stops the run once that many sweeps are done in all (a resumed run at or past
  // it stops at once), as if interrupted: the result is then incomplete.
  int checkpoint_every = 0;
  std::function<absl::Status(const AlphaStableMfChainState&)> checkpoint;
  const AlphaStableMfChainState* resume = nullptr;
  int stop_after = 0;

  absl::Status Validate() const;
};

struct AlphaStableMfResult {
  // False when stop_after stopped the run; the other fields are then unset.
  bool complete = true;
  // Per source: the averages of V_s = W_s H_s, of W_s and of the Wiener gain
  // sigma2^s / sigma2 over the last samples.
  std::vector<Eigen::MatrixXd> mean_v;
  std::vector<Eigen::MatrixXd> mean_w;
  std::vector<Eigen::MatrixXd> mean_gain;
  // Fraction of accepted Metropolis proposals over all sweeps and sources.
  double acceptance_rate = 0;
  // Wall time of the sweeps (Metropolis + SG-MCMC step), total and per sample.
  double seconds = 0;
  double seconds_per_sample = 0;
};

// Runs the Gibbs sampler for sampler.iterations sweeps. Start: Phi from its prior; every
// sampled W_ik, H_kj equal to (m_s / K_s)^(1/2) (1 + 0.1 |z|), z ~ N(0, 1), with
// m_s = (median P / (S log 2 median Phi_s))^(alpha_s / 2) (the median of an Exp(1) |X|^2 / sigma2
// is log 2; median Phi_s from 1001 prior draws), so that the initial variances match the
// data's scale (the mean of P is useless: Phi has no mean) (a sampled H of a source with fixed W starts at
// m_s / (K_s mean W) instead). Streams of sampler.seed: 0 the SG-MCMC chain, 1 the start,
// 2 the Metropolis step. InvalidArgument on bad options or a `resume` state that does not fit
// the model (naming the field); Internal if the chain diverges (a non-finite theta).
absl::StatusOr<AlphaStableMfResult> RunAlphaStableMf(AlphaStableMf& model,
                                                     const AlphaStableMfRunOptions& run);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_MF_ALPHA_STABLE_MF_H_
