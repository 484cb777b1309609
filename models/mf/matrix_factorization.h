// Bayesian matrix factorisation (HAMCMC paper, Simsekli et al. 2016, Sec. 4.3; Salakhutdinov &
// Mnih 2008) as a block-sparse GradientModel for SGLD, pSGLD and HAMCMC, with the DSGLD-style
// block partitioning of the paper's Fig. 4 (Ahn et al. 2015):
//   W_ik ~ N(0, sigma_w^2),  H_kj ~ N(0, sigma_h^2),
//   X_ij | W, H ~ N(sum_k W_ik H_kj, sigma_x^2)   on the observed entries (i, j) only.
//
// Parameter layout (D = (I + J) K): theta = [W row-major (I x K) | H^T row-major (J x K)], so
// row i of W is theta[i K, (i+1) K) and column j of H is theta[(I + j) K, (I + j + 1) K).
//
// Blocks: rows are cut into P contiguous ranges R_0..R_{P-1} and columns into C_0..C_{P-1}
// (sizes differ by at most one). Subset s (s = 0..P-1) is the P blocks (R_b, C_{(b+s) mod P}),
// b = 0..P-1: disjoint in rows and in columns, so the P blocks of a subset touch disjoint
// parts of W and of H and can be processed by P workers at once; the P subsets partition the
// matrix.
//
// Items: the model has N = #ratings items, and item i stands for "the subset s(i) that holds
// rating i, weighted 1 / |Omega_s|": its likelihood gradient is g_s / |Omega_s| with g_s the
// gradient of sum_{(i,j) in Omega_s} -log p(X_ij | W, H). Summed over all N items this is the
// full likelihood gradient, so the GradientModel contract holds; a sampler with batch_size 1
// draws rating i uniformly, i.e. subset s with probability |Omega_s| / N, and the usual N/n
// scaling gives (N / |Omega_s|) g_s, the DSGLD estimate of the paper. Larger batches are valid
// but cost a full subset per id; use batch_size = 1.
//
// Distribution (replicated-parameter mode; the distributed design, where each rank
// owns its W rows and the H blocks travel, is models/mf/distributed_matrix_factorization.h,
// which the tools use): with a Communicator of size S the blocks b with b mod S = rank are
// computed on this rank, the partial gradients (disjoint supports) are summed with AllReduceSum, and every
// rank gets the same gradient. Each coordinate is produced by one block in a fixed order and
// the sum adds only zeros to it, so gradients, and hence chains run with the same seed, are
// bit-identical for every rank count (including 1). Every rank must call the model in the
// same sequence (same sampler, same seed). A failed AllReduceSum is fatal (SGMCMC_CHECK),
// which under MPI ends the job on every rank.
//
// Cost: AddLikelihoodPotentialGradient O(D + |Omega_s| K / S) per id plus one AllReduceSum of
// D doubles when S > 1; PriorPotentialGradient O(D). Not thread-safe (a per-model scratch
// vector). Measured: models/mf/matrix_factorization_benchmark.cc.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<MatrixFactorization> model,
//                           MatrixFactorization::Create(split.train, MatrixFactorizationOptions()));
//   SGMCMC_ASSIGN_OR_RETURN(auto sampler, MakeMatrixFactorizationSampler(*model, theta0, run));
#ifndef SGMCMC_MODELS_MF_MATRIX_FACTORIZATION_H_
#define SGMCMC_MODELS_MF_MATRIX_FACTORIZATION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/ratings.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "samplers/gradient_model.h"
#include "samplers/sampler.h"

namespace sgmcmc::models {

// Start of block p of the P near-equal contiguous ranges of [0, n) (rows or columns).
int MfBlockBegin(int n, int num_blocks, int p);
// Which of the P near-equal ranges of [0, n) holds x.
int MfBlockOf(int n, int num_blocks, int x);

// The likelihood-gradient kernel of one block: for each rating, e = c (w_row . h_col - x),
// grad_w[row] += e h_col and grad_h[col] += e w_row, where w_row = w + row K and
// h_col = h + col K (row and col relative to w and h). O(|ratings| K).
void AddMfBlockGradient(absl::Span<const data::Rating> ratings, int rank, const double* w,
                        const double* h, double c, double* grad_w, double* grad_h);

struct MatrixFactorizationOptions {
  // K, the rank; >= 1. Default 10 (the paper's).
  int rank = 10;
  // Prior and noise standard deviations; finite, > 0. Default 1 (the paper's).
  double sigma_w = 1;
  double sigma_h = 1;
  double sigma_x = 1;
  // P, the number of row (and column) blocks and of subsets; in [1, min(I, J)]. Default 4.
  int num_blocks = 4;

  absl::Status Validate() const;
};

// InvalidArgument unless the options are valid, `train` is valid and non-empty, P <= I, J
// and (I + J) K < 2^31.
absl::Status ValidateMatrixFactorizationData(const data::RatingMatrix& train,
                                             const MatrixFactorizationOptions& options);

class MatrixFactorization final : public samplers::GradientModel {
 public:
  // `train` must be valid and non-empty; `comm` (may be null: one process) must outlive the
  // model. InvalidArgument on bad options or data.
  static absl::StatusOr<std::unique_ptr<MatrixFactorization>> Create(
      const data::RatingMatrix& train, const MatrixFactorizationOptions& options,
      parallel::Communicator* comm = nullptr);

  int dimension() const override { return (num_rows_ + num_cols_) * rank_; }
  int64_t num_items() const override { return static_cast<int64_t>(ratings_.size()); }
  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override;
  void AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                      absl::Span<const int64_t> batch, double scale,
                                      absl::Span<double> out) const override;

  int num_rows() const { return num_rows_; }
  int num_cols() const { return num_cols_; }
  int rank() const { return rank_; }
  int num_blocks() const { return num_blocks_; }
  const MatrixFactorizationOptions& options() const { return options_; }
  // |Omega_s|, s in [0, P).
  int64_t subset_size(int s) const { return block_offsets_[(s + 1) * num_blocks_] - block_offsets_[s * num_blocks_]; }
  // The subset of item (rating) id in [0, N).
  int SubsetOfItem(int64_t id) const;
  // The training ratings reordered by subset, then block; item i is ratings()[i].
  absl::Span<const data::Rating> ratings() const { return ratings_; }

  // sum_k W_ik H_kj.
  double Predict(absl::Span<const double> theta, int32_t row, int32_t col) const;
  // log p(theta) + sum_{all ratings} log p(X_ij | theta), up to a constant; one process only
  // (ignores the communicator). For tests.
  double LogJoint(absl::Span<const double> theta) const;

 private:
  MatrixFactorization(const MatrixFactorizationOptions& options, int num_rows, int num_cols,
                      parallel::Communicator* comm);
  // scratch_ += c * gradient of the block (b, (b + s) mod P) of subset s.
  void AddBlockGradient(absl::Span<const double> theta, int s, int b, double c) const;

  MatrixFactorizationOptions options_;
  int num_rows_;
  int num_cols_;
  int rank_;
  int num_blocks_;
  parallel::Communicator* comm_;
  std::vector<data::Rating> ratings_;
  // Ratings of block b of subset s are ratings_[block_offsets_[s P + b], ..[s P + b + 1]).
  std::vector<int64_t> block_offsets_;
  mutable std::vector<double> scratch_;
};

// The running average of the predictions of the samples, for the RMSE of the posterior
// predictive mean on held-out ratings (the paper's Fig. 5 metric).
class PredictionAverage {
 public:
  // `test` ratings must lie inside the model's matrix.
  PredictionAverage(const MatrixFactorization& model, const data::RatingMatrix& test);

  // Adds the predictions of one sample. O(|test| K).
  void Add(absl::Span<const double> theta);
  int64_t num_samples() const { return num_samples_; }
  // RMSE of the averaged predictions against the test ratings; NaN before the first Add.
  double Rmse() const;
  // RMSE of the predictions of `theta` alone.
  double SampleRmse(absl::Span<const double> theta) const;

 private:
  const MatrixFactorization& model_;
  std::vector<data::Rating> test_;
  std::vector<double> sum_;
  int64_t num_samples_ = 0;
};

// Ratings generated from the model: W, H drawn from the priors, each entry observed with
// probability `density`, X_ij = (W H)_ij + sigma_x z. `truth` is theta in the layout above.
struct SyntheticRatings {
  data::RatingMatrix matrix;
  std::vector<double> truth;
};
SyntheticRatings GenerateSyntheticRatings(int num_rows, int num_cols, double density,
                                          const MatrixFactorizationOptions& options,
                                          rng::Engine& engine);

enum class MfMethod { kSgld, kPsgld, kHamcmc };
// "sgld" (DSGLD), "psgld", "hamcmc".
absl::StatusOr<MfMethod> ParseMfMethod(const std::string& name);
const char* MfMethodName(MfMethod method);
// A comma-separated list of ParseMfMethod names (empty items skipped); ParseMfMethod's error for
// the first bad name.
absl::StatusOr<std::vector<MfMethod>> ParseMfMethods(const std::string& names);

// HAMCMC's initial L-BFGS matrix H^0 (models::DistributedMfChain only; docs/ALGORITHMS.md,
// "HAMCMC with a diagonal H^0"):
//  - kScalar: H^0 = gamma I (the paper's Sec. 2.2), pairs damped as y + lambda s.
//  - kDiagonalDegree: H^0 = gamma diag(1 / F) with, for W_ik, F = 1/sigma_w^2 +
//    max_s (N / |Omega_s|) n_i(s) / sigma_x^2 (n_i(s): row i's ratings in subset s; the
//    stiffest subset potential's Gauss-Newton diagonal with unit factors), and symmetrically
//    for H_kj with column j's ratings. A constant, so the chain stays exact for any value;
//    pairs are damped in H^0's metric, y + lambda gamma (H^0)^-1 s (= y + lambda s for
//    H^0 = gamma I), so that a large lambda shrinks H_t towards H^0's restriction rather
//    than mixing coordinates whose scales differ by orders of magnitude.
enum class MfInitialMetric { kScalar, kDiagonalDegree };
// "scalar", "diagonal_degree".
absl::StatusOr<MfInitialMetric> ParseMfInitialMetric(const std::string& name);
const char* MfInitialMetricName(MfInitialMetric metric);

struct MfRunOptions {
  MfMethod method = MfMethod::kSgld;
  // Constant step size (the paper's Sec. 4.3 setting); finite, > 0.
  double step_size = 1e-4;
  // Iterations (samples); >= 1. The first `burn_in` are not averaged; >= 0.
  int iterations = 500;
  int burn_in = 50;
  uint64_t seed = 1;
  // Standard deviation of the N(0, init_scale^2) initial W, H; >= 0.
  double init_scale = 0.1;
  // pSGLD's alpha and lambda.
  double psgld_alpha = 0.99;
  double psgld_lambda = 1e-5;
  // Minibatch size n (items per iteration); in [1, N]. Default 1 (one subset per iteration).
  int64_t batch_size = 1;
  // HAMCMC: memory M (default 2, the Sec. 4.3 setting), gamma, damping and the SGLD warm-up
  // step.
  int hamcmc_memory = 2;
  double hamcmc_gamma = 1;
  double hamcmc_damping = 1;
  double hamcmc_warmup_step = 1e-4;
  // models::DistributedMfChain only: one L-BFGS pair per block (block-diagonal H_t) instead
  // of one global pair. Default false (the paper's global inner products).
  bool hamcmc_block_memory = false;
  // models::DistributedMfChain only: HAMCMC's H^0 (see MfInitialMetric). Default kScalar.
  MfInitialMetric hamcmc_initial_metric = MfInitialMetric::kScalar;

  absl::Status Validate() const;
};

// The sampler `run.method` on `model` (a MatrixFactorization, or any GradientModel such as
// AlphaStableMf) from theta0 with batch size run.batch_size (1: one subset per iteration of a
// MatrixFactorization), constant step, seed run.seed, stream 0.
absl::StatusOr<std::unique_ptr<samplers::EuclideanSampler>> MakeMatrixFactorizationSampler(
    const samplers::GradientModel& model, absl::Span<const double> theta0,
    const MfRunOptions& run);

// theta0 ~ N(0, init_scale^2) from engine (seed, stream 1); the same on every rank.
std::vector<double> InitialMatrixFactorizationTheta(const MatrixFactorization& model,
                                                    const MfRunOptions& run);
// The same for a model of dimension (I + J) K.
std::vector<double> InitialMatrixFactorizationTheta(int64_t dimension, const MfRunOptions& run);

struct MfTracePoint {
  int iteration = 0;       // 1-based
  double seconds = 0;      // wall time in the sampler steps so far (evaluation excluded)
  double sample_rmse = 0;  // RMSE of this sample's predictions
  double average_rmse = 0; // RMSE of the running average (NaN during burn-in)
};

// Runs the chain, averaging predictions on `test` after burn-in, and records every
// `record_every`-th iteration (and the last). InvalidArgument on bad options; Internal if the
// chain diverges (a non-finite RMSE).
absl::StatusOr<std::vector<MfTracePoint>> RunMatrixFactorization(
    const MatrixFactorization& model, const data::RatingMatrix& test, const MfRunOptions& run,
    int record_every = 1);

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_MF_MATRIX_FACTORIZATION_H_
