// The distributed matrix-factorisation experiment of Simsekli et al. (2016), Sec. 4.3 / Fig. 5:
// test RMSE of the running average of the predictions versus iteration and wall time for
// DSGLD (SGLD on the Fig. 4 blocks), pSGLD and HAMCMC (M = 2), with constant step sizes and
// 50 burn-in samples, on a seeded 90/10 split of a ratings file, or (the default, since
// MovieLens may not be redistributed) on ratings generated from the model, whose noise level
// sigma_x is the best achievable RMSE.
//
// Centring (center_ratings, default off): the model becomes X_ij - mu ~ N(sum_k W_ik H_kj,
// sigma_x^2) with mu the mean of the TRAINING ratings, a fixed offset computed from the data
// (not a parameter, no prior): mu is subtracted from the training and the test ratings before
// sampling, so the prediction of X_ij is mu + (W H)_ij and its residual
// X_ij - (mu + (W H)_ij) is computed as (X_ij - mu) - (W H)_ij; the RMSEs stay on the
// original scale. Every rank reads the whole file and draws the same split, so every rank
// computes the same mu (one sum over the training ratings in file order, before the ratings
// are split into blocks), and a resumed run recomputes it bit for bit; checkpoints record it.
//
// The chains are models::DistributedMfChain (models/mf/distributed_matrix_factorization.h): each
// rank of `comm` owns its row blocks of W and their ratings, the H column blocks travel
// between the ranks (ring shift) per subset, and HAMCMC reduces only its inner products. A
// run is bit-identical for a given seed and rank count, whether the ranks are threads or MPI
// processes; other rank counts give statistically equivalent chains (their own noise streams).
//
// Checkpoints (checkpoint_dir): each rank writes checkpoint_METHOD_rankR_ofS.pb (an
// models::MfChainState with the trace so far, in the checksummed frame of
// tools/checkpoint_file.h: a damaged one is refused) every checkpoint_every iterations and when a
// method ends or stops; with `resume` every method continues from its checkpoints, and the
// resumed run's traces are bit-identical (except seconds) to an uninterrupted run's.
//
// Cost: per method and rank, iterations x (one or two subset gradients O(N K / P / ranks) +
// O(D / ranks) update and noise + one Shift of the held H blocks), plus per averaged sample
// an H gather (AllReduceSum of J K doubles, not timed) and O(|test| K / ranks) predictions.
//
// Example:
//   MatrixFactorizationExperimentOptions options;  // synthetic, 3 methods, ~10 s
//   std::unique_ptr<parallel::Communicator> comm = parallel::MakeSingleProcessCommunicator();
//   SGMCMC_ASSIGN_OR_RETURN(MatrixFactorizationResult r,
//                           RunMatrixFactorizationExperiment(options, *comm));
//   std::cout << MatrixFactorizationTraceCsv(r);
#ifndef SGMCMC_TOOLS_MATRIX_FACTORIZATION_EXPERIMENT_H_
#define SGMCMC_TOOLS_MATRIX_FACTORIZATION_EXPERIMENT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/mf/matrix_factorization.h"
#include "parallel/communicator.h"

namespace sgmcmc::tools {

// Largest synthetic matrix (cells rows x cols, each drawn) and factor size ((rows + cols) x
// rank doubles): 2^31 - 1, the model's own bound on its dimension.
inline constexpr int64_t kMaxSyntheticCells = (int64_t{1} << 31) - 1;

struct MatrixFactorizationExperimentOptions {
  // A ratings file (data/ratings.h formats); empty: synthetic ratings from the model.
  std::string ratings_path;
  // Synthetic matrix: rows x cols, each entry observed with this probability; rows x cols and
  // (rows + cols) x rank at most kMaxSyntheticCells.
  int synthetic_rows = 1000;
  int synthetic_cols = 800;
  double synthetic_density = 0.15;
  // Held-out fraction of the seeded split; in (0, 1).
  double test_fraction = 0.1;
  // K, sigmas and the number of blocks P (the paper: K = 10, sigmas 1, P = 4).
  models::MatrixFactorizationOptions model;
  std::vector<models::MfMethod> methods = {models::MfMethod::kSgld, models::MfMethod::kPsgld,
                                           models::MfMethod::kHamcmc};
  // Constant step sizes per method; finite, > 0. The defaults are stable on MovieLens 100k
  // and on the default synthetic data (tuned by hand: 1e-3 diverges for DSGLD on
  // MovieLens; HAMCMC with H^0 = gamma I needs damping of the order of the curvature,
  // ~ ratings per row x |h|^2 / sigma_x^2, because the factorisation's non-convexity makes
  // s'(grad difference) small or negative).
  double sgld_step = 5e-4;
  double psgld_step = 1e-6;
  double hamcmc_step = 1;
  double hamcmc_warmup_step = 3e-4;
  // HAMCMC's H^0 scale gamma and damping lambda (samplers/hamcmc.h; models::MfInitialMetric).
  // The defaults suit the default diagonal_degree H^0 (tuned on MovieLens 100k with split
  // seed 2: gamma 0.3 diverges within 2500 iterations on seed 1; lambda < 3 diverges, and
  // lambda 3 ... 1000 give the same chain to 4 digits). For H^0 = gamma I use gamma 5e-4,
  // lambda 1000 (bench/matrix_factorization_results.md).
  double hamcmc_gamma = 0.25;
  double hamcmc_damping = 10;
  // HAMCMC's L-BFGS memory per block (block-diagonal H_t) instead of global.
  bool hamcmc_block_memory = false;
  // HAMCMC's initial L-BFGS matrix H^0 (models::MfInitialMetric).
  models::MfInitialMetric hamcmc_initial_metric = models::MfInitialMetric::kDiagonalDegree;
  // Subtract the training ratings' mean mu from the training and test ratings before
  // sampling (the model X - mu ~ N(W H, sigma_x^2), mu fixed; predictions mu + W H; see the
  // header comment). Default false: the ratings as read (or generated).
  bool center_ratings = false;
  // Standard deviation of the N(0, s^2) initial W and H.
  double init_scale = 0.1;
  int iterations = 5000;
  // Samples not averaged, >= 0. With burn_in >= iterations no prediction is averaged: the
  // summary says "no averaged prediction: burn-in B >= iterations I" and every average_rmse
  // of rmse.csv is empty (as on every row up to burn_in).
  int burn_in = 50;
  int record_every = 10;
  // Seed of the data, the split and the chains.
  uint64_t seed = 1;
  // Checkpoint directory (created if missing); empty: no checkpoints. Default empty.
  std::string checkpoint_dir;
  // Write checkpoints every this many iterations, >= 0 (0: only when a method ends or stops).
  int checkpoint_every = 0;
  // Continue every method from its checkpoints when they exist (all ranks' or none);
  // FailedPrecondition if they were written with other options, data or rank count.
  // resume, checkpoint_every > 0 and stop_after > 0 need a checkpoint_dir.
  bool resume = false;
  // Stop every method after this many iterations in all, >= 0, writing its checkpoints, as
  // if the run were interrupted there (0: run to the end).
  int stop_after = 0;
  // Progress lines from rank 0 (about ten per method, and one per resumed method); null:
  // none. Default null.
  std::ostream* progress = nullptr;

  absl::Status Validate() const;
};

struct MatrixFactorizationMethodResult {
  models::MfMethod method;
  std::vector<models::MfTracePoint> trace;
  // Training ratings processed per second of sampler time, per rank (the subset's ratings
  // are split over the ranks).
  double ratings_per_second_per_rank = 0;
};

struct MatrixFactorizationResult {
  int num_rows = 0;
  int num_cols = 0;
  int64_t num_train = 0;
  int64_t num_test = 0;
  int num_ranks = 1;
  // The options' iterations and burn_in (the summary names them when nothing was averaged).
  int iterations = 0;
  int burn_in = 0;
  // sigma_x for synthetic data (the RMSE of the true mean); NaN for a ratings file.
  double noise_level = 0;
  // With center_ratings: true, and mu, the training mean added to every prediction (else
  // false and 0).
  bool ratings_centered = false;
  double rating_offset = 0;
  std::vector<MatrixFactorizationMethodResult> methods;
  // True when stop_after ended the methods before `iterations`; `methods` is then empty.
  bool stopped = false;
};

// The checkpoint file of `method` for rank `rank` of `num_ranks` in `directory`.
std::string MatrixFactorizationCheckpointPath(const std::string& directory,
                                              models::MfMethod method, int rank, int num_ranks);

absl::StatusOr<MatrixFactorizationResult> RunMatrixFactorizationExperiment(
    const MatrixFactorizationExperimentOptions& options, parallel::Communicator& comm);

// "method,iteration,seconds,sample_rmse,average_rmse" and one row per trace point;
// average_rmse is empty on the rows without an averaged prediction (iteration <= burn_in).
std::string MatrixFactorizationTraceCsv(const MatrixFactorizationResult& result);
// One line per method: final averaged RMSE (or, when burn_in >= iterations, "no averaged
// prediction: burn-in B >= iterations I" and the last sample's RMSE), seconds, ratings/s.
std::string MatrixFactorizationSummary(const MatrixFactorizationResult& result);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_MATRIX_FACTORIZATION_EXPERIMENT_H_
