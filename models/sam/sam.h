// The spherical admixture model (SAM; Reisinger, Waters, Silverthorn & Mooney 2010,
// "Spherical Topic Models") in the form the geodesic samplers use (Liu, Zhu & Song 2016,
// Sec. 4, eq. 13-14):
//   μ ~ vMF(m, κ₀),  β_k ~ vMF(μ, σ) (k = 1..K),  θ_d ~ Dir(α),
//   v_d ~ vMF(β θ_d / ‖β θ_d‖, κ),
// with m, μ, β_k ∈ S^{V−1} and v_d a unit (tf-idf) document vector. Collapsing μ:
//   log p(β) = K log c_V(σ) + log c_V(κ₀) − log c_V(‖κ₀ m + σ Σ_k β_k‖).
//
// Pieces here:
//  - SamTopicModel, a samplers::SphereGradientModel on (S^{V−1})^K (β as the V×K matrix of
//    columns β_k): the collapsed prior's gradient, and eq. 14's likelihood gradient
//    −κ θ_k (I − ūūᵀ) v_d / ‖βθ‖ (ū = βθ/‖βθ‖) averaged over the N stored draws θ_d⁽ⁿ⁾ of each
//    document (SetThetaDraws). Refreshing the draws (by GMC from π(θ_d | β, v_d), Algorithm 3)
//    is the caller's job, or PrepareBatch's after EnableThetaSampling (optionally on a thread
//    pool). SaveState/RestoreState: its θ side as models/sam/state.proto's SamTopicModelState.
//  - SamThetaPosterior, a samplers::SpherePotentialModel on S^{K−1} for one document's θ_d
//    through the squared map θ = x∘x (linalg/simplex_maps.h): U(x) = −Σ_i (2α − 1) log|x_i|
//    − κ v_dᵀβθ / ‖βθ‖, the Dirichlet density with its Jacobian Π|x_i| (constants dropped);
//    run samplers::Gmc on it to draw θ_d.
//
//  - SamLogPerplexity: the slides' evaluation, −(1/|D|) Σ_d log((1/M) Σ_m π(v_d | β⁽ᵐ⁾)) with
//    π(v_d | β) = E_{θ~Dir(α)} vMF(v_d | βθ/‖βθ‖, κ) by Monte Carlo in log space;
//    SamPerplexityAccumulator, its running form (one pass per draw; state SamPerplexityState).
//
// The experiments (toy, synthetic, SAM perplexity): tools/sam_experiment.h.
//
// Cost: the prior gradient O(VK) plus two Bessel ratios; the likelihood gradient
// O(V K²) per call (G = βᵀβ and the dense part β M, M = Σ_d Σ_n c_dn θθᵀ) plus
// O(nnz(v_d) K + N K²) per document (the draws enter only through θᵀGθ and aᵀθ);
// SamThetaPosterior precomputes a = βᵀv_d and G = βᵀβ once (O(V K²)), then O(K²) per
// evaluation.
//
// Example:
//   SamTopicModel model(documents, SamHyperparameters{...});
//   model.SetThetaDraws(d, draws);                 // K×N for document d
//   Sggmc::Create(model, beta0, options);
#ifndef SGMCMC_MODELS_SAM_SAM_H_
#define SGMCMC_MODELS_SAM_SAM_H_

#include <cstdint>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "models/sam/state.pb.h"
#include "parallel/thread_pool.h"
#include "samplers/gmc.h"
#include "samplers/sphere_model.h"

namespace sgmcmc::models {

struct SamHyperparameters {
  int num_topics = 20;   // K >= 1
  double kappa0 = 10;    // κ₀ > 0, concentration of μ about m
  double sigma = 5000;   // σ > 0, concentration of β_k about μ
  double kappa = 5000;   // κ >= 0, concentration of v_d about its mean direction
  double alpha = 1;      // symmetric Dirichlet α > 0
  Eigen::VectorXd m;     // unit, length V
};

// How SamTopicModel::PrepareBatch draws θ_d ~ π(θ_d | β, v_d) by GMC (Algorithm 3).
struct SamThetaSampling {
  int draws = 5;           // N >= 1 draws kept per document and minibatch visit
  int burn_in = 5;         // GMC iterations discarded first (each visit restarts from the
                           // document's last point)
  samplers::GmcOptions gmc = {samplers::StepSizeOptions::Constant(0.05), 5, 1, 0};
};

class SamTopicModel final : public samplers::SphereGradientModel {
 public:
  // `documents`: V×D, each column a unit vector (not checked). Every document starts with one
  // draw θ = (1/K, ..., 1/K). Hyperparameters checked.
  SamTopicModel(Eigen::SparseMatrix<double> documents, SamHyperparameters hyper);

  int dimension() const override { return static_cast<int>(documents_.rows()); }
  int num_spheres() const override { return hyper_.num_topics; }
  int64_t num_items() const override { return documents_.cols(); }

  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                              Eigen::Ref<Eigen::MatrixXd> out) const override;
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                      absl::Span<const int64_t> batch, double scale,
                                      Eigen::Ref<Eigen::MatrixXd> out) const override;

  // −log p(β) up to a constant: log c_V(‖κ₀ m + σ Σ_k β_k‖).
  double PriorPotential(const Eigen::Ref<const Eigen::MatrixXd>& beta) const;
  // −(1/N) Σ_n κ v_dᵀ βθ⁽ⁿ⁾/‖βθ⁽ⁿ⁾‖: document d's potential given its stored draws, up to
  // a constant.
  double DocumentPotential(const Eigen::Ref<const Eigen::MatrixXd>& beta, int64_t d) const;

  // Algorithm 3's θ step: for every distinct document d in `batch`, runs GMC on
  // SamThetaPosterior(β, v_d) from d's last point (start: x_i = 1/√K), discards `burn_in`
  // iterations and keeps `draws`; each visit uses Engine(gmc.seed, stream = d·2³² + visit).
  // Does nothing unless EnableThetaSampling was called. With a thread pool (SetThreadPool)
  // the documents are split over its threads; every document has its own stream and writes
  // only its own state, so the result is bit-identical for any number of threads.
  void PrepareBatch(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                    absl::Span<const int64_t> batch) const override;
  void EnableThetaSampling(const SamThetaSampling& sampling);
  // PrepareBatch's documents run on `pool` (not owned, must outlive the model; null: the
  // calling thread only). The pool must not be running another loop during PrepareBatch.
  void SetThreadPool(parallel::ThreadPool* pool) { pool_ = pool; }

  // Replaces document d's θ draws by the columns of `draws` (K×N, N >= 1; each column on the
  // simplex, not checked).
  void SetThetaDraws(int64_t d, const Eigen::Ref<const Eigen::MatrixXd>& draws);
  const Eigen::MatrixXd& theta_draws(int64_t d) const { return theta_draws_[d]; }
  const Eigen::SparseMatrix<double>& documents() const { return documents_; }
  const SamHyperparameters& hyper() const { return hyper_; }

  // The θ side of the model (every document's draws, GMC points and visit counters): with the
  // β sampler's SphereSamplerState, all a run needs to continue bit-identically.
  SamTopicModelState SaveState() const;
  // InvalidArgument naming the field if `state` does not fit this model (K, D, sizes; θ
  // sampling enabled here iff the state has GMC points) or holds non-finite numbers, draws
  // off the simplex or points off the sphere; the model is unchanged then.
  absl::Status RestoreState(const SamTopicModelState& state);

 private:
  // One document's GMC visit: burn_in + draws iterations from its last point.
  void SampleTheta(const Eigen::Ref<const Eigen::MatrixXd>& beta, const Eigen::MatrixXd& gram,
                   int64_t d) const;

  Eigen::SparseMatrix<double> documents_;
  SamHyperparameters hyper_;
  // Mutable: refreshed by PrepareBatch (the sampler holds the model const).
  mutable std::vector<Eigen::MatrixXd> theta_draws_;
  bool sample_theta_ = false;
  SamThetaSampling sampling_;
  mutable Eigen::MatrixXd theta_points_;      // K×D, each document's GMC point on S^{K−1}
  mutable std::vector<uint32_t> visits_;
  parallel::ThreadPool* pool_ = nullptr;
};

// π(θ_d | β, v_d) on S^{K−1} through θ = x∘x. `beta` V×K, `document` V-vector.
class SamThetaPosterior final : public samplers::SpherePotentialModel {
 public:
  SamThetaPosterior(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                    const Eigen::Ref<const Eigen::VectorXd>& document, double kappa,
                    double alpha);
  // From a = βᵀv_d and G = βᵀβ (K×K), precomputed once per β.
  static SamThetaPosterior FromGram(Eigen::VectorXd beta_t_document, Eigen::MatrixXd gram,
                                    double kappa, double alpha);

  int dimension() const override { return static_cast<int>(a_.size()); }
  int64_t num_items() const override { return 1; }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override;
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      absl::Span<const int64_t> batch, double scale,
                                      Eigen::Ref<Eigen::MatrixXd> out) const override;
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override;

 private:
  struct GramTag {};
  SamThetaPosterior(GramTag, Eigen::VectorXd beta_t_document, Eigen::MatrixXd gram,
                    double kappa, double alpha);

  Eigen::VectorXd a_;  // βᵀ v_d
  Eigen::MatrixXd g_;  // βᵀ β
  double kappa_;
  double alpha_;
};

// The running form of SamLogPerplexity: Add folds one β draw in, O(V K² + D (nnz K + S K²));
// LogPerplexity() is that of all draws added so far. Holds the S Dirichlet draws of every
// document (K·S·D doubles) and, per document, log Σ_m π(v_d | β⁽ᵐ⁾).
class SamPerplexityAccumulator {
 public:
  // `documents` V×D (unit columns; not owned, must outlive the accumulator); S >= 1, D >= 1
  // (checked). θ_s of document d from Engine(seed, stream = d).
  SamPerplexityAccumulator(const Eigen::SparseMatrix<double>& documents,
                           const SamHyperparameters& hyper, int theta_samples, uint64_t seed);

  // β V×K (checked).
  void Add(const Eigen::Ref<const Eigen::MatrixXd>& beta);
  // −(1/D) Σ_d log((1/M) Σ_m π(v_d | β⁽ᵐ⁾)); at least one draw added (checked).
  double LogPerplexity() const;
  int64_t draws() const { return draws_; }

  SamPerplexityState SaveState() const;
  // InvalidArgument naming the field for a state of another D, a negative count or
  // non-finite sums; the accumulator is unchanged then.
  absl::Status RestoreState(const SamPerplexityState& state);

 private:
  const Eigen::SparseMatrix<double>& documents_;
  SamHyperparameters hyper_;
  std::vector<Eigen::MatrixXd> thetas_;  // K×S per document
  Eigen::VectorXd log_sums_;             // per document
  int64_t draws_ = 0;
  double log_c_;  // log c_V(κ)
};

// Log-perplexity of `documents` (V×D, unit columns) under the topic draws `betas` (each
// V×K): S draws θ_s ~ Dir(α) per document, from Engine(seed, stream = d), shared by all β.
// betas nonempty, S >= 1 (checked). SamPerplexityAccumulator with every β added.
double SamLogPerplexity(absl::Span<const Eigen::MatrixXd> betas,
                        const Eigen::SparseMatrix<double>& documents,
                        const SamHyperparameters& hyper, int theta_samples, uint64_t seed);

// `count` documents drawn from SAM at the topics `beta` (V×K, unit columns): θ_d ~ Dir(1, ..., 1),
// v_d ~ vMF(βθ_d/‖βθ_d‖, κ), from Engine(seed); returned as the V×count matrix of unit
// columns. Used for generated data and tests. Cost: O(count (V K + vMF draw)).
Eigen::SparseMatrix<double> SampleSamDocuments(const Eigen::MatrixXd& beta, int count,
                                               double kappa, uint64_t seed);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_SAM_SAM_H_
