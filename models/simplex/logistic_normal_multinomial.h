// The multinomial likelihood with a low-rank logistic-normal base measure, the non-conjugate
// DP-mixture component of Zhang, Williamson & Perez-Cruz, §4.3, eq. (9):
//   x_i | θ_k ~ Multinomial(Σ_d x_id, θ_k),   θ_k = softmax(η_k),
//   η_k ~ H = N(m, Σ),   Σ = Λ Λᵀ + s² I,   Λ (D × r) with iid N(0, σ_Λ²) entries,
//   m ~ N(0, σ_m² I) (σ_m = 0: m = 0 fixed, as in the paper).
// The paper's Σ = Λ Λᵀ is singular (rank r < D); the diagonal s² I (noise_sd s > 0) makes H a
// density on R^D, i.e. η = m + Λ z + ε with z ~ N(0, I_r), ε ~ N(0, s² I), so Λ and m can be
// moved given the atoms. Atoms (η_k) and the base (Λ, m) are moved by elliptical slice
// sampling (Murray, Adams & MacKay 2010; samplers/elliptical_slice.h), as in the paper.
//
// Interface for an Algorithm-8-style sampler (Neal 2000 Alg. 8; the paper's Alg. 1) and the
// exact/accelerated stages, with Point = a dense count vector of length D
// (absl::Span<const int32_t>, e.g. a row of data::CountMatrix):
//   LogisticNormalAtom DrawFromBase(engine)          a new component's atom, η ~ H
//   double LogLikelihood(point, atom)                log Mult(x | softmax(η)), with the
//                                                    multinomial coefficient
//   void LogLikelihoods(point, atoms, out)           the same for many atoms (coefficient once)
//   MultinomialStatistics                            a component's sufficient statistics:
//                                                    summed counts, Add/Remove/Merge a point
//   void UpdateAtom(statistics, &atom, engine)       η_k | members by atom_steps ESS steps
//   void UpdateBase(atoms, engine)                   (Λ, m) | all atoms by base_steps ESS steps
//   double LogBaseDensity(eta)                       log H(η) (Woodbury), for MH ratios/tests
// The likelihood of a component's members depends on η only through the summed counts S
// (log Π_i Mult(x_i | θ) = Σ_d S_d log θ_d + Σ_i log coefficient_i), so UpdateAtom needs S
// alone and the parallel stages can all-reduce statistics as integer vectors.
// An atom carries η and its log-probabilities log softmax(η), kept consistent by every
// function here (SetEta recomputes them), so LogLikelihood is one dot product.
//
// Contract: all numerics in log space; log softmax is computed with the max subtracted, so any
// finite η works (|η| ~ 1e3 included). Randomness only from the engine passed in, in the
// order documented per function; the object holds no RNG, and const methods are thread-safe
// (UpdateAtom is const: each thread passes its own engine and atom). UpdateBase and SetBase
// change Λ and m (not thread-safe).
//
// Cost: LogLikelihood O(D); LogLikelihoods O(D (K + 1)); DrawFromBase O(D r); UpdateAtom
// O(atom_steps · (D r + P D)) with P ≈ 3-10 proposals per ESS step (more when the summed
// counts are large: the ESS bracket must shrink to the posterior's scale); LogBaseDensity
// O(D r + r³) after O(D r²) per base change; UpdateBase O(base_steps · P · (D r² + r³ + K D r)).
//
// Example:
//   LogisticNormalMultinomialOptions options;
//   options.dimension = 784;
//   rng::Engine engine(seed, stream);
//   SGMCMC_ASSIGN_OR_RETURN(LogisticNormalMultinomial model,
//                           LogisticNormalMultinomial::Create(options, engine));
//   LogisticNormalAtom atom = model.DrawFromBase(engine);
//   MultinomialStatistics stats(options.dimension);
//   stats.Add(counts.row(0));
//   model.UpdateAtom(stats, &atom, engine);
//   double ll = model.LogLikelihood(counts.row(1), atom);
#ifndef SGMCMC_MODELS_SIMPLEX_LOGISTIC_NORMAL_MULTINOMIAL_H_
#define SGMCMC_MODELS_SIMPLEX_LOGISTIC_NORMAL_MULTINOMIAL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rng/engine.h"

namespace sgmcmc::models {

struct LogisticNormalMultinomialOptions {
  // D, the number of categories (pixels); >= 2. No default (0 is invalid).
  int dimension = 0;
  // r, the number of columns of Λ; in [0, D]. Default 5.
  int rank = 5;
  // σ_Λ, the prior standard deviation of each entry of Λ; finite, > 0. Default 1.
  double loading_prior_sd = 1.0;
  // s, the standard deviation of the isotropic part of Σ; finite, > 0. Default 0.1 (the
  // paper's singular Σ = Λ Λᵀ is the limit s -> 0, where Λ cannot move given the atoms).
  double noise_sd = 0.1;
  // σ_m, the prior standard deviation of each entry of the base mean m; finite, >= 0.
  // Default 0: m = 0 and not moved (the paper's H = MVN(0, Σ)).
  double mean_prior_sd = 0.0;
  // Elliptical slice steps per UpdateAtom call; >= 1. Default 1.
  int atom_steps = 1;
  // Elliptical slice steps per UpdateBase call; >= 1. Default 1.
  int base_steps = 1;

  absl::Status Validate() const;
};

// A component's atom: η and log softmax(η), both of length D.
struct LogisticNormalAtom {
  std::vector<double> eta;
  std::vector<double> log_probs;

  // Sets η (size D) and recomputes log_probs.
  void SetEta(absl::Span<const double> new_eta);
};

// log softmax(η) into `out` (same size), max-subtracted log-sum-exp.
void LogSoftmax(absl::Span<const double> eta, absl::Span<double> out);

// The sufficient statistics of a component's members: summed counts S (length D), their
// total n = Σ_d S_d and the number of members.
struct MultinomialStatistics {
  explicit MultinomialStatistics(int dimension) : counts(dimension, 0) {}

  std::vector<int64_t> counts;
  int64_t total = 0;
  int64_t members = 0;

  // Adds / removes one point (a count vector of length D; sizes checked). Remove requires
  // the point to have been added (counts stay >= 0, DCHECKed).
  void Add(absl::Span<const int32_t> point);
  void Remove(absl::Span<const int32_t> point);
  // Adds another component's statistics (e.g. a worker's, at synchronisation).
  void Merge(const MultinomialStatistics& other);
};

// log of the multinomial coefficient (Σ_d x_d)! / Π_d x_d! of a count vector.
double LogMultinomialCoefficient(absl::Span<const int32_t> point);

// Σ_d S_d log θ_d: the log-likelihood of a component's members up to their coefficients.
double LogLikelihoodKernel(const MultinomialStatistics& statistics,
                           absl::Span<const double> log_probs);

class LogisticNormalMultinomial {
 public:
  // Validates the options and draws Λ (then m, if σ_m > 0) from their priors: D r normals
  // (row-major Λ) then D normals.
  static absl::StatusOr<LogisticNormalMultinomial> Create(
      const LogisticNormalMultinomialOptions& options, rng::Engine& engine);

  const LogisticNormalMultinomialOptions& options() const { return options_; }
  int dimension() const { return options_.dimension; }
  int rank() const { return options_.rank; }
  // Λ row-major D × r (loadings()[d * r + j] = Λ_dj) and m (length D).
  absl::Span<const double> loadings() const { return loadings_; }
  absl::Span<const double> mean() const { return mean_; }

  // Replaces Λ and m (e.g. restoring a checkpoint); InvalidArgument on wrong sizes, a
  // non-finite value, or a nonzero m when σ_m = 0.
  absl::Status SetBase(absl::Span<const double> loadings, absl::Span<const double> mean);

  // η ~ H: r normals, then D normals (samplers/elliptical_slice.h LowRankGaussianNoise).
  LogisticNormalAtom DrawFromBase(rng::Engine& engine) const;

  // log Mult(x | softmax(η)) = log coefficient(x) + Σ_d x_d log θ_d; x of length D.
  double LogLikelihood(absl::Span<const int32_t> point, const LogisticNormalAtom& atom) const;
  // out[k] = LogLikelihood(point, atoms[k]); out.size() == atoms.size().
  void LogLikelihoods(absl::Span<const int32_t> point,
                      absl::Span<const LogisticNormalAtom> atoms, absl::Span<double> out) const;

  // log N(η; m, Λ Λᵀ + s² I) by the Woodbury identity and the matrix determinant lemma.
  double LogBaseDensity(absl::Span<const double> eta) const;

  // atom_steps elliptical slice steps on η given the members' statistics (possibly empty:
  // then a draw-preserving move under H). Randomness: per step, as EllipticalSlice::Step.
  void UpdateAtom(const MultinomialStatistics& statistics, LogisticNormalAtom* atom,
                  rng::Engine& engine) const;

  // base_steps elliptical slice steps on (vec Λ, m) (m only if σ_m > 0) under their iid
  // Gaussian priors and the likelihood Π_k H(η_k) of the atoms. Randomness: per step, the
  // prior draw of (Λ, m) (D r, then D normals), then as EllipticalSlice::StepWithNoise.
  void UpdateBase(absl::Span<const LogisticNormalAtom> atoms, rng::Engine& engine);

  // Σ_k log H(η_k) for a candidate base φ = (vec Λ, m) laid out as UpdateBase moves it.
  double LogBaseLikelihood(absl::Span<const double> base,
                           absl::Span<const LogisticNormalAtom> atoms) const;

 private:
  explicit LogisticNormalMultinomial(const LogisticNormalMultinomialOptions& options);
  // Recomputes the Woodbury factors of the current Λ.
  void RefreshBaseCache();

  LogisticNormalMultinomialOptions options_;
  std::vector<double> loadings_;  // D x r row-major
  std::vector<double> mean_;      // D
  std::vector<double> noise_sd_;  // D copies of s, the prior view's diagonal
  // Cached for LogBaseDensity: Cholesky factor of M = s² I_r + Λᵀ Λ (r × r, row-major
  // lower) and log |Σ|.
  std::vector<double> woodbury_cholesky_;
  double log_det_sigma_ = 0;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_SIMPLEX_LOGISTIC_NORMAL_MULTINOMIAL_H_
