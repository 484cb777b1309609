// DistributedMfChain: the distributed DSGLD / pSGLD / HAMCMC chain of the HAMCMC paper's
// matrix-factorisation experiment (Simsekli et al. 2016, Sec. 4.3 and Fig. 4; DSGLD: Ahn,
// Korattikara, Liu, Rajan & Welling 2015), for the model of models/mf/matrix_factorization.h,
// over a parallel::Communicator of S ranks (one process, threads, or Open MPI).
//
// Ownership: with P blocks per side (P a multiple of S, m = P / S), rank r owns the row blocks
// b = r, r + S, ..., r + (m-1) S: their W rows and the training ratings in those rows never
// move. In subset s (the P blocks (b, (b + s) mod P)) its H slot l holds the column block
// (r + l S + s) mod P. Moving to subset s' shifts every column block by (s' - s) column
// positions, i.e. rank r sends all its H slots to rank (r - (s' - s)) mod S with one
// Communicator::Shift; each block carries its per-coordinate sampler state (pSGLD's second
// moments; HAMCMC's x_{t-2} and its L-BFGS pair s, y).
//
// Iteration t: every rank draws the same subset s_t with probability |Omega_s| / N from a
// shared stream (seed, kMfSubsetStream); the H blocks move to s_t; each rank computes the
// gradient of its m blocks (b, (b + s_t) mod P), the DSGLD estimate
//   grad U~(x) = x / sigma^2 (prior) + (N / |Omega_s|) sum_{Omega_s} (w.h - X) (h | w) / sigma_x^2,
// and updates its own coordinates with noise from its own stream
// (seed, kMfNoiseStreamBase + rank):
//  - SGLD:   x += sqrt(2 h) z - h grad U~.
//  - pSGLD (Li et al. 2016): v = alpha v + (1 - alpha) g^2 with g = grad / |Omega_s| of the
//    likelihood part, P = 1 / (lambda + sqrt(v)), x += sqrt(2 h P) z - h P grad U~.
//  - HAMCMC with M = 2 (samplers/hamcmc.h, eq. 10; the same warm-up, pair and damping rules):
//    x_t = x_{t-2} - eps H_t grad U~_{s_t}(x_{t-2}) + sqrt(2 eps) S_t z with H_t the L-BFGS
//    matrix of the single pair (s_{t-1}, y_{t-1} + lambda s_{t-1}), H^0 = gamma I; the pair
//    y_t = grad U~_{s_t}(x_t) - grad U~_{s_t}(x_{t-2}) uses the same subset for both
//    gradients. The two-loop recursion and the eq. 11 square-root factor with one pair need
//    the inner products s'g, y'g, s'z, y'z (one AllReduceSum of 4 scalars per iteration) and
//    the pair's s'y, s's, y'y (one AllReduceSum of 3 scalars per iteration); nothing else of
//    HAMCMC is communicated. With run.hamcmc_block_memory the L-BFGS matrix is instead
//    block-diagonal, one pair per W row block and per H column block (its s'y, s's, y'y
//    travel with the block): H_t is still built from the pair t-1 only, so the chain is as
//    valid, and nothing is reduced; each block gets its own curvature scale.
//    With run.hamcmc_initial_metric = kDiagonalDegree, H^0 = D is the constant diagonal of
//    models::MfInitialMetric (computed at Create from the data every rank reads; it travels
//    with the H blocks as a fifth field), the pair is damped in D's metric,
//    y + lambda gamma D^-1 s, and the reduced products become s'g, y'D g, s'D^-1/2 z,
//    y'D^1/2 z and s'y, s'D^-1 s, y'D y (the same counts); then
//      H g = D (g - alpha y) + (alpha - beta) s,   S z = D^1/2 z - z_coefficient s
//    with ComputeOnePairLbfgsCoefficients(..., gamma = 1) of those products (tested against
//    linalg::Lbfgs with Lbfgs::SetInitialDiagonal).
//
// Determinism: the same seed, data, options and rank count give bit-identical chains on
// every back end (threads or MPI). Different rank counts give different chains (their noise
// streams differ, and HAMCMC's reductions round differently) from the same initial point
// theta0 (models::InitialMatrixFactorizationTheta) and the same posterior; they agree in
// RMSE only statistically.
//
// Evaluation: the test ratings live on the rank that owns their row. AddToAverage and
// Evaluate gather H (one AllReduceSum of J K doubles, disjoint supports, so exact) and reduce
// two squared-error sums; evaluation cost is not part of Step.
//
// Errors: every method is collective; a communicator error is returned (the caller fails
// its rank, which ends the run on every rank). Create returns InvalidArgument on bad options
// or data, or when P is not a multiple of S.
//
// Cost per Step and rank: O(|Omega_s| K / S) for the gradient (two for HAMCMC), O(D / S)
// for the update and the noise, one Shift of F (J / S) K doubles when the subset changes
// (F = 1, 2, 4 fields for SGLD, pSGLD, HAMCMC; 5 with a diagonal H^0) and, for HAMCMC, two
// AllReduceSums of <= 4 scalars. Memory O(F D / S + N / S) per rank (every rank reads the whole data set).
//
// Example (each rank):
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<DistributedMfChain> chain,
//       DistributedMfChain::Create(split.train, split.test, MatrixFactorizationOptions(), run,
//                                  comm));
//   for (int t = 1; t <= run.iterations; ++t) {
//     SGMCMC_RETURN_IF_ERROR(chain->Step());
//     if (t > run.burn_in) SGMCMC_RETURN_IF_ERROR(chain->AddToAverage());
//   }
//   SGMCMC_ASSIGN_OR_RETURN(MfEvaluation e, chain->Evaluate());
#ifndef SGMCMC_MODELS_MF_DISTRIBUTED_MATRIX_FACTORIZATION_H_
#define SGMCMC_MODELS_MF_DISTRIBUTED_MATRIX_FACTORIZATION_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "data/ratings.h"
#include "models/mf/matrix_factorization.h"
#include "models/mf/matrix_factorization_state.pb.h"
#include "parallel/communicator.h"
#include "rng/engine.h"

namespace sgmcmc::models {

// The shared subset stream and the base of the per-rank noise streams.
inline constexpr uint64_t kMfSubsetStream = 0x4D46535542;          // "MFSUB"
inline constexpr uint64_t kMfNoiseStreamBase = 0x4D464E0000000000;  // "MFN" << 40

// HAMCMC's one-pair (M = 2) L-BFGS products, from inner products only. With the damped pair
// (s, y), H^0 = gamma I and the inner products s'g, y'g, s'z, y'z, s'y, s's, y'y:
//   H g = gamma (g - alpha y) + (alpha - beta) s   (two-loop recursion),
//   S z = sqrt(gamma) (z - z_coefficient s)          (eq. 11, S S' = H),
// which is what linalg::Lbfgs computes with one pair (tested against it).
struct OnePairLbfgsCoefficients {
  double alpha = 0;
  double beta = 0;
  double z_coefficient = 0;
};
OnePairLbfgsCoefficients ComputeOnePairLbfgsCoefficients(double sg, double yg, double sz,
                                                          double yz, double sy, double ss,
                                                          double yy, double gamma);

struct MfEvaluation {
  double sample_rmse = 0;   // RMSE of the current sample's predictions
  double average_rmse = 0;  // RMSE of the averaged predictions; NaN before AddToAverage
};

class DistributedMfChain {
 public:
  // Collective. `train` and `test` are the whole data on every rank; `comm` must outlive the
  // chain. run.method, step sizes and HAMCMC's gamma / damping / warm-up step are used;
  // run.iterations and burn_in are the caller's. HAMCMC uses M = 2.
  static absl::StatusOr<std::unique_ptr<DistributedMfChain>> Create(
      const data::RatingMatrix& train, const data::RatingMatrix& test,
      const MatrixFactorizationOptions& model, const MfRunOptions& run,
      parallel::Communicator& comm);

  // One iteration (collective).
  absl::Status Step();
  // Adds the current sample's test predictions to the running average (collective).
  absl::Status AddToAverage();
  // Test RMSEs of the current sample and of the average (collective; the same on every rank).
  absl::StatusOr<MfEvaluation> Evaluate();

  int64_t iteration() const { return iteration_; }
  int64_t num_averaged() const { return num_averaged_; }
  // The subset of the last Step (0 before the first).
  int subset() const { return subset_; }
  // |Omega_s|.
  int64_t subset_size(int s) const { return subset_size_[s]; }
  int64_t num_train() const { return num_train_; }

  // Gathers the current theta = [W | H^T] (models/mf/matrix_factorization.h layout) on every
  // rank (collective).
  absl::StatusOr<std::vector<double>> GatherTheta();

  // This rank's state; a chain created with the same data, options and communicator size and
  // rank continues bit-identically after RestoreState(SaveState()). FailedPrecondition if the
  // state is of another method, rank count or rank; InvalidArgument if its lengths are wrong.
  MfChainState SaveState() const;
  absl::Status RestoreState(const MfChainState& state);

 private:
  // A block of rows or columns: coordinates [begin K, (begin + count) K) of W or H^T, with
  // F fields of count K doubles each (field 0 is x).
  struct Block {
    int id = 0;
    int begin = 0;
    int count = 0;
    std::vector<double> data;
    // HAMCMC with per-block memory: the block's pair (used, s'y, s's, y'y); travels with it.
    std::array<double, 4> pair{};
    double* field(int f, int rank) { return data.data() + static_cast<size_t>(f) * count * rank; }
  };
  // A test rating with its W slot and row relative to the slot.
  struct LocalTest {
    int slot;
    int row;
    int col;
    float value;
  };

  DistributedMfChain(const MatrixFactorizationOptions& model, const MfRunOptions& run,
                     parallel::Communicator& comm, int num_rows, int num_cols);

  int num_fields() const;
  bool diagonal_metric() const {
    return run_.method == MfMethod::kHamcmc &&
           run_.hamcmc_initial_metric != MfInitialMetric::kScalar;
  }
  // Doubles of per-block pair state that travel with a block: 4 for HAMCMC with per-block
  // memory, else 0.
  int pair_tail() const;
  // Column block held in H slot l in subset s.
  int ColumnBlockOf(int rank, int slot, int s) const;
  // Moves the H blocks to subset s (collective).
  absl::Status MoveTo(int s);
  // grad U~_s at field f into grad_ (per local block: W slots then H slots). `prior` adds the
  // prior term; the likelihood term is scaled by c / sigma_x^2.
  void Gradient(int f, int s, double c, bool prior, std::vector<std::vector<double>>& out);
  void StepSgld(int s, double h);
  void StepPsgld(int s, double h);
  absl::Status StepHamcmc(int s);
  // All local blocks, W slots then H slots.
  std::vector<Block*> LocalBlocks();
  absl::Status GatherH();

  MatrixFactorizationOptions model_;
  MfRunOptions run_;
  parallel::Communicator& comm_;
  int num_ranks_;
  int rank_id_;
  int num_blocks_;
  int slots_;  // m = P / S
  int k_;
  int num_rows_;
  int num_cols_;
  int64_t num_train_ = 0;
  int64_t num_test_ = 0;
  std::vector<int64_t> subset_size_;
  std::vector<int64_t> subset_end_;  // cumulative sizes
  std::vector<Block> w_;
  std::vector<Block> h_;
  // ratings_[s][l]: the ratings of block (r + l S, (r + l S + s) mod P), rows and columns
  // relative to the blocks.
  std::vector<std::vector<std::vector<data::Rating>>> ratings_;
  std::vector<LocalTest> test_;
  std::vector<double> prediction_sum_;
  int64_t num_averaged_ = 0;
  int subset_ = 0;
  int64_t iteration_ = 0;
  rng::Engine subset_engine_;
  rng::Engine noise_engine_;
  // HAMCMC's pair (global inner products of the damped pair).
  bool pair_used_ = false;
  double pair_sy_ = 0;
  double pair_ss_ = 0;
  double pair_yy_ = 0;
  // Scratch.
  std::vector<std::vector<double>> grad_;
  std::vector<std::vector<double>> grad_base_;
  std::vector<std::vector<double>> noise_;
  // Diagonal H^0: max over the subsets s of (N / |Omega_s|) x (the row's or column's ratings
  // in subset s), for every row and column (from the data every rank reads).
  std::vector<double> row_degree_;
  std::vector<double> col_degree_;
  std::vector<double> send_;
  std::vector<double> receive_;
  std::vector<double> full_h_;
  int64_t gathered_iteration_ = -1;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_MF_DISTRIBUTED_MATRIX_FACTORIZATION_H_
