// The synthetic experiment of Zhang, Williamson & Perez-Cruz §4.1 (Figure 1) for the
// accelerated_dp tool: D-dimensional counts (default 1,000 train / 100 test rows, D = 10,
// N_i = 100) from a finite mixture of multinomials with Dirichlet(γ = 1) atoms, fitted by
// the DP mixture of multinomials (models/dp/component_model.h) with four samplers:
//   accelerated  models/dp/parallel.h, accelerated stage then the exact hybrid stage;
//   hybrid       models/dp/parallel.h with no accelerated stage (Dubey et al. alone);
//   collapsed    Neal's Algorithm 8 (models/dp/neal8.h, ρ = 0), serial on rank 0;
//   uncollapsed  the distributed slice sampler (models/dp/distributed_slice.h, Ge et al.);
// each from one of three starts: "one" cluster, "random" labels over initial_clusters, or
// "kmeans" (Lloyd's algorithm on the rows' proportions, initial_clusters centres). The trace
// records the test-set log predictive (sum over test rows, multinomial coefficients
// included) and the number of features against the sampling seconds (evaluation excluded):
// by default rank 0's wall-clock seconds; with clock = "cpu" the CPU seconds of every rank's
// sampling steps summed over the ranks (the work done, which the machine's load does not
// change; a wall-clock speed-up on C idle cores is at most min(P, C) times the CPU one).
//
// The parallel samplers run on every rank of the communicator (threads or MPI); collapsed on
// rank 0 while the others wait. Everything but the seconds is bit-identical for a
// seed and worker count on threads and under MPI.
//
// Summary: the reference is the best, over runs, of the mean test log predictive over the
// second half of a run's trace points (every sampler targets the same posterior; one stuck in
// a poor mode must not set it); for each run, the first time its trace is within 1% of the
// reference, and the accelerated speed-up over collapsed for the same start (a lower bound,
// collapsed's whole run time, when collapsed never gets within 1%).
//
// Image data (fashion_mnist_dir set): the first train_points / test_points images of
// Debian's dataset-fashion-mnist (train-images-idx3-ubyte.gz / t10k-images-idx3-ubyte.gz) as
// 784-D counts (data/idx_reader.h ImagesToCounts, max_count per white pixel), as in §4.2.
// likelihood "logistic_normal" fits the low-rank logistic-normal base of §4.3
// (models/dp/logistic_normal_model.h) instead of the Dirichlet. The final features of the
// accelerated, hybrid and collapsed runs (θ_k, most popular first) are returned for rendering.
//
// Cost: per iteration O(N K D) (see the samplers); the default run takes seconds.
//
// Example:
//   AcceleratedDpExperimentOptions options;
//   SGMCMC_ASSIGN_OR_RETURN(AcceleratedDpResult r, RunAcceleratedDpExperiment(options, comm));
//   std::cout << AcceleratedDpSummary(r);
#ifndef SGMCMC_TOOLS_ACCELERATED_DP_EXPERIMENT_H_
#define SGMCMC_TOOLS_ACCELERATED_DP_EXPERIMENT_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/dp/component_model.h"
#include "parallel/communicator.h"

namespace sgmcmc::tools {

struct AcceleratedDpExperimentOptions {
  // Synthetic data: rows, dimension D, counts per row N_i, generating components (weights ~
  // Dir(1)), Dirichlet(γ) atoms. Defaults: §4.1's 1,000 / 100 / 10 / 100, 10 components, γ = 1.
  // (train_points + test_points) x dimension <= 2^31 - 1 (data::IdxLimits, as image files).
  int train_points = 1000;
  int test_points = 100;
  int dimension = 10;
  int counts_per_point = 100;
  int true_components = 10;
  double gamma = 1.0;
  uint64_t data_seed = 1;
  // Samplers: iterations per run; L; accelerated iterations; m; starts' clusters. Defaults:
  // 150; 10 and 50 (§4.2); 3; 100 (§4.2's K = 100 starts).
  int iterations = 150;
  int sync_every = 10;
  int accelerated_iterations = 50;
  int num_auxiliary = 3;
  int initial_clusters = 100;
  // Non-empty subsets of {accelerated, hybrid, collapsed, uncollapsed} and {one, random,
  // kmeans}.
  std::vector<std::string> methods = {"accelerated", "hybrid", "collapsed", "uncollapsed"};
  std::vector<std::string> inits = {"one", "random", "kmeans"};
  uint64_t seed = 1;
  // Image data instead of the synthetic mixture: the directory of Debian's
  // dataset-fashion-mnist files; empty (default) for the synthetic data. D = 784 then.
  std::string fashion_mnist_dir;
  // Count of a white pixel (data::IdxCountOptions); in [1, 255]. Default 255: the raw
  // intensities 0-255 of §4.2 ("each entry x_id is an integer from 0 to 255").
  int max_count = 255;
  // "dirichlet" (default; γ above) or "logistic_normal" (§4.3; rank r below, m = 0).
  std::string likelihood = "dirichlet";
  int logistic_normal_rank = 5;
  // Most popular final features kept per run for rendering; >= 0. Default 64.
  int max_features_kept = 64;
  // What the trace's seconds measure: "wall" (default): rank 0's wall-clock seconds of the
  // sampling steps (with P ranks, a synchronisation waits for the slowest); "cpu": each rank's
  // thread CPU seconds of its sampling steps, summed over the ranks at every trace point (one
  // extra collective there, outside the timed steps; draws unchanged). Under MPI a rank
  // busy-polling in a collective counts as working (Open MPI's default), so "cpu" is meant for
  // the thread back end.
  std::string clock = "wall";
  // Progress lines from rank 0 (about ten per run and one when it ends: method, start,
  // iteration, sampling seconds, test log predictive, features); null: none.
  std::ostream* progress = nullptr;

  absl::Status Validate() const;
};

// A run's final features: θ_k (probabilities, D each), most popular first, with their sizes.
struct AcceleratedDpFeatures {
  std::string method, init;
  int dimension = 0;
  std::vector<double> probabilities;  // features x dimension
  std::vector<int64_t> sizes;
};

struct AcceleratedDpTracePoint {
  std::string method, init;
  int64_t iteration = 0;
  double seconds = 0;
  double test_log_likelihood = 0;
  int features = 0;
  double alpha = 0;
};

struct AcceleratedDpResult {
  int workers = 1;
  std::string clock = "wall";  // the options' clock
  std::vector<AcceleratedDpTracePoint> trace;   // complete on rank 0 only
  std::vector<AcceleratedDpFeatures> features;  // rank 0 only
};

// The train and test rows: the synthetic mixture, or the Fashion-MNIST images as counts
// (NotFound / InvalidArgument with the file's path when they cannot be read, have fewer than
// 2 pixels per image, or the test images' size differs from the training images').
absl::Status LoadAcceleratedDpData(const AcceleratedDpExperimentOptions& options,
                                   models::CountMatrix* train, models::CountMatrix* test);

// A fresh component model for `dimension` (the options' likelihood; its own stream).
absl::StatusOr<std::unique_ptr<models::DpComponentModel>> MakeAcceleratedDpModel(
    const AcceleratedDpExperimentOptions& options, int dimension);

// The train and test rows of the synthetic data (one generating mixture).
void SyntheticMixtureCounts(const AcceleratedDpExperimentOptions& options,
                            models::CountMatrix* train, models::CountMatrix* test);

// Lloyd's k-means on the rows' proportions: k (<= rows) centres from distinct random rows
// (rng::Engine(seed)), `iterations` rounds; the label of each row. Deterministic.
std::vector<int32_t> KMeansLabels(const models::CountMatrix& data, int k, int iterations,
                                  uint64_t seed);

// Collective over `comm` (every rank, same options).
absl::StatusOr<AcceleratedDpResult> RunAcceleratedDpExperiment(
    const AcceleratedDpExperimentOptions& options, parallel::Communicator& comm);

// "method,init,iteration,seconds,test_log_likelihood,features,alpha" and one row per point.
std::string AcceleratedDpTraceCsv(const AcceleratedDpResult& result);
// "method,init,final_test_log_likelihood,final_features,seconds,seconds_to_1pct,
// iterations_to_1pct" per run (NaN and -1 if never within 1%),
// then "# reference ..." and "# speedup <init> [>=] ..." comment lines (and "# clock cpu ..."
// last when the seconds are CPU seconds).
std::string AcceleratedDpSummary(const AcceleratedDpResult& result);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_ACCELERATED_DP_EXPERIMENT_H_
