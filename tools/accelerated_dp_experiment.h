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
// All-zero images (no count at max_count) are refused, naming the image and its byte offset.
// Corpora (train_path set): the rows of a UCI bag-of-words pair (vocab_path set: docword files
// over that vocabulary, as the dp_mixture tool reads them), of msweb DST files (no vocab_path,
// as dp_mixture), or of raw text (text: one document per line or a directory of files; the
// vocabulary, the max_vocabulary most frequent words of the training text, names the test
// text's words, others dropped), as dense counts over the vocabulary; the first train_points /
// test_points rows (0: all). Rows without a count are dropped, and every drop (count-0 entries,
// empty rows, unknown words, rows beyond the cap) is said in AcceleratedDpData::notes. The
// dense rows are bounded by kMaxDenseCells.
// likelihood "logistic_normal" fits the low-rank logistic-normal base of §4.3
// (models/dp/logistic_normal_model.h) instead of the Dirichlet. The final features of the
// accelerated, hybrid and collapsed runs (θ_k, most popular first) are returned for rendering:
// as images of the loader's shape (image_rows x image_cols) for image data, else as a table
// of each feature's most probable items by name (AcceleratedDpFeatureTable).
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

// Most dense count cells (rows x dimension, training and test together) read from a corpus:
// 2^28 doubles, 2 GiB.
inline constexpr int64_t kMaxDenseCells = int64_t{1} << 28;
// Largest num_auxiliary: each auxiliary atom holds D (or more) values per worker and the
// new-cluster weight is split α / m among them; the paper uses m = 3.
inline constexpr int kMaxAuxiliary = 10000;

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
  // A corpus instead (see the header comment): training and test files (both or neither;
  // not with fashion_mnist_dir), the UCI vocabulary, whether they are raw text, and the words
  // kept from training text (>= 1). Defaults: empty, false, 1000.
  std::string train_path, test_path, vocab_path;
  bool text = false;
  int max_vocabulary = 1000;
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
  // Checkpoint file (tools/accelerated_dp_checkpoint.proto), rewritten by rank 0 after each
  // run (method x start) and, with the run under way (its trace so far and its sampler's
  // state), every checkpoint_every iterations of a run (>= 0; 0, the default: only after
  // runs): for the parallel samplers at the first synchronisation at or after each multiple,
  // where their state is saved; empty (default): none. With `resume`, the runs it holds are
  // not run again (their trace and features come from it) and the run under way continues
  // from its state, bit-identically: the job's outputs equal an uninterrupted job's, the
  // seconds aside. A checkpoint of other settings, data or worker count is refused
  // (FailedPrecondition naming it), a damaged one or a saved state that does not fit the run
  // too (DataLoss naming it). Default false.
  std::string checkpoint_path;
  bool resume = false;
  int checkpoint_every = 0;
  // Stop after this many runs done in all (finished before the resume included), as if the
  // job were interrupted there, the checkpoint written; >= 0, 0 (default): run them all.
  int stop_after_runs = 0;
  // Stop when a run has done this many iterations in all (the parallel samplers: at the
  // first synchronisation at or after it), its state written, as if interrupted; a resumed
  // run at or past it stops at once. >= 0, 0 (default): never.
  int stop_after = 0;
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
  // Whether every run is done (false after stop_after_runs or stop_after stopped the job).
  bool complete = true;
  // The data's image shape (0 x 0: not images), item names (empty for images and synthetic
  // data) and what the loading and the starts dropped or changed, for the user.
  int image_rows = 0, image_cols = 0;
  std::vector<std::string> item_names;
  std::vector<std::string> notes;
  std::string clock = "wall";  // the options' clock
  std::vector<AcceleratedDpTracePoint> trace;   // complete on rank 0 only
  std::vector<AcceleratedDpFeatures> features;  // rank 0 only
};

// The rows an experiment fits, and what describes them.
struct AcceleratedDpData {
  models::CountMatrix train, test;
  int image_rows = 0, image_cols = 0;    // images: their shape (rows x cols = dimension)
  std::vector<std::string> item_names;   // corpora: the vocabulary (dimension words)
  std::vector<std::string> notes;        // what was dropped, capped or changed
};

// The train and test rows: the synthetic mixture, the Fashion-MNIST images as counts, or a
// corpus (NotFound / InvalidArgument with the file's path when they cannot be read, have fewer
// than 2 pixels per image, an all-zero image, test images of another size than the training
// images', no row with a count, or more than kMaxDenseCells cells).
absl::StatusOr<AcceleratedDpData> LoadAcceleratedDpData(
    const AcceleratedDpExperimentOptions& options);

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
// "feature,size,top_items" and one row per kept feature of `features`: its `top_items` most
// probable items as "name (θ); ..." (names from `item_names`, else 0-based ids), CSV-quoted.
std::string AcceleratedDpFeatureTable(const AcceleratedDpFeatures& features,
                                      const std::vector<std::string>& item_names, int top_items);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_ACCELERATED_DP_EXPERIMENT_H_
