// The `dp_mixture` tool's engine (tools/dp_mixture.cc is its command line): runs the DP
// mixture of multinomials (models/dp/mixture.h) on user/Vroot data with the stochastic slice
// sampler under SCIR and under SGRLD (models/dp/stochastic_slice.h, Table 3 settings of Baker
// et al. 2018) and with the exact Gibbs slice sampler, several seeds each, and traces the
// held-out log predictive (models/dp/predictive.h) and the number of occupied components
// against iterations and sampler seconds: Figure 3(b) / 4(b) of the paper.
//
// Evaluation schedule: eval::EvaluationCadence (eval/evaluation_schedule.h, the LDA tool's
// schedule and burn-in rule): every eval_every iterations and after the last, the current draw
// is scored alone (log_predictive) and, after burn-in (the first burn_in = ⌊burn_in_fraction ×
// iterations⌋ iterations), added to the running average of predictive probabilities over draws
// (running_log_predictive, models::DpPredictiveAverage; before burn-in each evaluation stands
// alone and it equals log_predictive). Sampler seconds exclude evaluation.
//
// Checkpoints (DpCheckpointOptions): checkpoint_METHOD_seedS.pb, a DpMixtureCheckpoint
// (tools/dp_mixture_checkpoint.proto) in the checksummed frame of tools/checkpoint_file.h (a
// damaged one is refused), every `every` iterations and when the run ends or
// stops; with `resume` a run continues from its checkpoint and its results, the outputs below
// included, are bit-identical to the uninterrupted run's for any thread count (tested in
// dp_mixture_run_test.cc and dp_mixture_smoke_test.sh), the wall-clock columns aside.
//
// Outputs (WriteDpOutputs) in the output directory:
//   trace.csv       method, seed, iteration, seconds, log_predictive, running_log_predictive,
//                   occupied, components, alpha, initial_components (one row per
//                   evaluation, all runs)
//   summary.csv     method, seed, final running log predictive, mean single-draw log
//                   predictive after burn-in, occupied, components, alpha, seconds per
//                   iteration, ns per user per iteration (users touched: N or n),
//                   initial_components
//   draws_RUN.csv   α and the occupied/instantiated component counts of every
//                   post-burn-in iteration in the CmdStan CSV layout (eval/cmdstan_csv.h;
//                   lp__ is not computed and written as 0)
//   runs.txt        the method names, for tools/plots/dp_mixture.gp (log_predictive.png)
//   clusters.csv    the clusters of every run's last draw: method, seed, initial_components,
//                   cluster (0 = the largest), size (training users), weight ω_j, and
//                   top_items, the `top_items` items of largest atom probability θ_jw as
//                   "name (θ); ..." (names from DpOutputNames, else the item's 0-based id)
//   allocations_RUN.csv  user (DpOutputNames::user_ids, else the 1-based row of the training
//                   file), cluster (clusters.csv's number) of the last draw, per run
// RUN is METHOD_seedS, or METHOD_seedS_kK for a run started with initial_components = K > 0
// (several starts write apart).
//
// Several starts: the slice samplers' number of occupied clusters moves slowly (on the embedded
// msweb subset, 300 Gibbs iterations from 5, 20 and 60 clusters end with 5, 12.5 and 17
// occupied on average over two seeds: bench/dp_mixture_results.md, "Choosing the start"), so a
// single run's count can reflect its start more than the data. DpSummaryTable warns when a
// run's post-burn-in occupied counts stay within 10% (at least ±1) of its start, and when the
// runs of one method and seed from several starts end in ranges that do not overlap.
//
// Cost: the runs (see the samplers) plus O(test users × K) per evaluation.
//
// Example:
//   DpExperimentOptions options;
//   SGMCMC_ASSIGN_OR_RETURN(DpRunResult run,
//       RunDpChain(train, test, DpMethod::kScir, /*seed=*/1, options, nullptr, &std::cerr));
//   // With checkpoints every 100 iterations, continuing an interrupted run:
//   SGMCMC_ASSIGN_OR_RETURN(run, RunDpChain(train, test, DpMethod::kScir, 1, options,
//       {.directory = "out", .every = 100, .resume = true}, nullptr, &std::cerr));
#ifndef SGMCMC_TOOLS_DP_MIXTURE_RUN_H_
#define SGMCMC_TOOLS_DP_MIXTURE_RUN_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/mixture.h"
#include "models/dp/stochastic_slice.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::tools {

enum class DpMethod { kScir, kSgrld, kGibbs };
// "scir", "sgrld", "gibbs".
absl::string_view DpMethodName(DpMethod method);
// Inverse of DpMethodName; InvalidArgument listing the names.
absl::StatusOr<DpMethod> ParseDpMethod(absl::string_view name);

struct DpExperimentOptions {
  // Iterations per run, >= 1. Default 300.
  int64_t iterations = 300;
  // Evaluate every this many iterations (and at the last), >= 1. Default 10.
  int64_t eval_every = 10;
  // Fraction of the iterations before draws enter the running average, in [0, 1). Default 0.5.
  double burn_in_fraction = 0.5;
  // Minibatch n of the stochastic samplers, >= 1 (capped at the number of users). Default 1000.
  int minibatch_size = 1000;
  // Gamma(shape b1, rate b2) prior of the DP concentration α for every method; each finite
  // and > 0. Default Gamma(1, 1) (mean 1, variance 1), as models::DpMixtureOptions: Baker et
  // al. 2018 (§5.2, Appendix D.3) call the prior uninformative but give no values, so b1 and
  // b2 are our choice, not the paper's.
  double alpha_shape = 1.0;
  double alpha_rate = 1.0;
  // The atoms' Dirichlet prior a for every method (and the held-out predictive's leftover
  // term), finite and > 0; 0 keeps each method's Table 3 value (SCIR and Gibbs 0.5, SGRLD
  // 0.001). Default 0. With one a the methods sample the same model.
  double atom_concentration = 0;
  // Step sizes h_θ (atoms) and h_DP (sticks) of the stochastic methods, each finite and > 0;
  // 0 keeps each method's Table 3 value (SCIR 0.1 and 0.1, SGRLD 0.001 and 0.005). Default 0.
  double atom_step = 0;
  double stick_step = 0;
  // Components the run starts with (K of Table 3: allocations start uniform over them; the
  // samplers are truncation-free), >= 0; 0 keeps Table 3's (SCIR and Gibbs 20, SGRLD 30).
  // Default 0.
  int initial_components = 0;
  // Items listed per cluster in clusters.csv, >= 1. Default 10.
  int top_items = 10;

  absl::Status Validate() const;
};

// The sampler options of a method and seed: Table 3 (SCIR: h_θ = h_DP = 0.1, a = 0.5, K = 20;
// SGRLD: h_θ = 0.001, h_DP = 0.005, a = 0.001, K = 30; Gibbs: a = 0.5, K = 20), with the
// experiment's α prior, minibatch size and, where set, atom prior a, step sizes and K.
models::DpStochasticOptions DpMethodOptions(DpMethod method, uint64_t seed,
                                            const DpExperimentOptions& options);

struct DpTracePoint {
  int64_t iteration = 0;
  double seconds = 0;  // sampler time so far
  double log_predictive = 0;
  double running_log_predictive = 0;
  int occupied = 0;
  int components = 0;
  double alpha = 0;
};

// One occupied cluster of a run's last draw.
struct DpCluster {
  int component = 0;  // the sampler's component index j
  int64_t size = 0;   // training users allocated to it
  double weight = 0;  // ω_j
  // The items of largest θ_jw, largest first, and their θ_jw.
  std::vector<int32_t> top_items;
  std::vector<double> top_probabilities;
};

// The occupied clusters of `draw` given the allocations (one per training user, each in
// [0, draw.num_components())): largest first (ties: larger weight, then smaller index), each
// with its `top_items` (>= 1) most probable items. O(N + K V log top_items).
std::vector<DpCluster> DpClustersOfDraw(const models::DpMixtureDraw& draw,
                                        absl::Span<const int32_t> allocations, int top_items);

struct DpRunResult {
  DpMethod method = DpMethod::kScir;
  uint64_t seed = 0;
  // The start's components: Table 3's K of the method or the options' initial_components, and
  // whether the options set it (then the run's file names carry _kK).
  int initial_components = 0;
  bool explicit_start = false;
  // The atoms' Dirichlet prior a the run sampled (and scored) with.
  double atom_concentration = 0;
  int64_t num_users = 0;
  int64_t users_per_iteration = 0;  // N (Gibbs) or the minibatch n
  // Iterations completed: options.iterations, or fewer for a run stopped by stop_after.
  int64_t iterations_completed = 0;
  std::vector<DpTracePoint> trace;
  // Every post-burn-in iteration: α, occupied and instantiated components.
  std::vector<double> alpha_draws;
  std::vector<int> occupied_draws;
  std::vector<int> component_draws;
  int64_t burn_in = 0;
  double burn_in_seconds = 0;
  double seconds = 0;  // all sampler time
  // The last draw's occupied clusters (DpClustersOfDraw) and every training user's component
  // index (DpCluster::component); filled when the run has finished.
  std::vector<DpCluster> clusters;
  std::vector<int32_t> allocations;

  bool finished(const DpExperimentOptions& options) const {
    return iterations_completed == options.iterations;
  }
  double seconds_per_iteration() const;
  // The mean of the single-draw log predictive over the evaluations after burn-in (the
  // final draw's if there is none).
  double mean_draw_log_predictive() const;
  const DpTracePoint& final_point() const { return trace.back(); }
};

struct DpCheckpointOptions {
  // Directory of the checkpoints, checkpoint_METHOD_seedS.pb (created if missing); empty: no
  // checkpoints. Default empty.
  std::string directory;
  // Write the checkpoint every this many iterations, >= 0 (0: only when the run ends or
  // stops). Default 0.
  int64_t every = 0;
  // Continue from the run's checkpoint if it exists; FailedPrecondition if it was written with
  // other settings or data. Default false.
  bool resume = false;
  // Stop after this many iterations in all, >= 0, writing the checkpoint, as if the run were
  // interrupted there (0: run to the end). Default 0.
  int64_t stop_after = 0;

  absl::Status Validate() const;
};

// InvalidArgument "<source>: ..." unless the training and the held-out corpus (read from
// `train_source` and `test_source`) each have a visit (token) and share the vocabulary size:
// an empty held-out set scored a log predictive of exactly 0.
absl::Status CheckDpData(const data::Corpus& train, const data::Corpus& test,
                         absl::string_view train_source, absl::string_view test_source);

// The checkpoint file of a run in `directory`: checkpoint_METHOD_seedS.pb, or with
// initial_components = K > 0 checkpoint_METHOD_seedS_kK.pb.
std::string DpCheckpointPath(const std::string& directory, DpMethod method, uint64_t seed,
                             int initial_components = 0);

// One run. `pool` may be null (the results do not depend on the thread count); `progress`
// (may be null) gets a line per 10% of the run.
absl::StatusOr<DpRunResult> RunDpChain(const data::Corpus& train, const data::Corpus& test,
                                       DpMethod method, uint64_t seed,
                                       const DpExperimentOptions& options,
                                       parallel::ThreadPool* pool, std::ostream* progress);
// The same with checkpoints.
absl::StatusOr<DpRunResult> RunDpChain(const data::Corpus& train, const data::Corpus& test,
                                       DpMethod method, uint64_t seed,
                                       const DpExperimentOptions& options,
                                       const DpCheckpointOptions& checkpoints,
                                       parallel::ThreadPool* pool, std::ostream* progress);

// The summary table (one line per run, then per method and start the mean and range), and
// the comparisons the paper reports: for how many seeds SCIR ends above SGRLD, by the running
// (draw-averaged) log predictive and by the mean single-draw log predictive, and the mean
// occupied components of each. Then the warnings on starts (see "Several starts" above).
// With `msweb` (the data are the paper's msweb), where SCIR and SGRLD ran with different atom
// priors a (Table 3's settings), a note says so and which score the paper's ordering holds for
// (bench/dp_mixture_results.md: on msweb SGRLD's draw-averaged lead at a = 0.001 comes from
// its bias, not from a better model or a better approximation of the posterior); on other
// data only that the priors differ.
std::string DpSummaryTable(const std::vector<DpRunResult>& runs, bool msweb = false);

// The names written to clusters.csv and the allocation files; either may be empty.
struct DpOutputNames {
  std::vector<std::string> item_names;  // per item (word id), e.g. msweb's Vroot titles
  std::vector<int64_t> user_ids;        // per training user, e.g. msweb's case ids
};

// Writes trace.csv, summary.csv, draws_*.csv, clusters.csv, allocations_*.csv and runs.txt
// into `output_dir` (created if missing) for finished runs (each with a trace). Errors name
// the file.
absl::Status WriteDpOutputs(const std::vector<DpRunResult>& runs, const std::string& output_dir,
                            const DpOutputNames& names = {});

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_DP_MIXTURE_RUN_H_
