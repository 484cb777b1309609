// accelerated_dp: the synthetic experiment of Zhang, Williamson & Perez-Cruz §4.1 (Figure 1;
// tools/accelerated_dp_experiment.h): test predictive log likelihood and number of features
// against time for the accelerated, hybrid, collapsed (Algorithm 8) and uncollapsed (slice)
// samplers of a DP mixture of multinomials, from one cluster, random and k-means starts.
// Runs on threads (--backend=threads --workers=P) or one rank per process under Open MPI
// (--backend=mpi; `mpirun --allow-run-as-root --oversubscribe -np P ...`); the outputs are
// bit-identical for a seed and worker count on both back ends, except the seconds. Data:
// synthetic (§4.1, the default), Fashion-MNIST images (--fashion_mnist_dir), or a corpus as
// the dp_mixture tool reads it (--train/--test: UCI docword files with --vocab, msweb DST
// files without; raw text with --text). Rank 0
// prints the summary and writes trace.csv and summary.csv to --output_dir (if given), and
// progress lines (about ten per run) to stderr. A rank
// that fails ends the job on every rank (MPI_Abort; threads: the other ranks' collectives
// return Aborted). With --output_dir it also draws trace.png (tools/plots/accelerated_dp.gp:
// test log predictive and features vs log seconds) and, for each accelerated / hybrid /
// collapsed run, its most popular features: for images as features_<method>_<init>.png in the
// images' shape (data/feature_grid.h), for other data as features_<method>_<init>.csv (feature,
// size, its --top_items most probable items by name).
//
// Checkpoint: with --output_dir, rank 0 rewrites checkpoint.pb there after each run (method x
// start) and every --checkpoint_every iterations of a run, with the run's sampler state;
// --resume skips the finished runs and continues the run under way from its state,
// bit-identically (tools/accelerated_dp_experiment.h); --stop_after_runs and --stop_after
// interrupt.
//
// Examples:
//   bazel run -c opt //tools:accelerated_dp -- --workers=2 --output_dir=/tmp/adp
//   mpirun --allow-run-as-root --oversubscribe -np 2 bazel-bin/tools/accelerated_dp
//     --backend=mpi --output_dir=/tmp/adp_mpi   (one line)
//   bazel-bin/tools/accelerated_dp --workers=10 --fashion_mnist_dir=/usr/share/datasets/
//     fashion-mnist --train_points=2000 --test_points=500 --output_dir=/tmp/adp_fm (one line)
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/feature_grid.h"
#include "parallel/communicator.h"
#include "parallel/mpi_communicator.h"
#include "tools/accelerated_dp_experiment.h"
#include "tools/gnuplot.h"
#include "tools/tool_support.h"

using sgmcmc::tools::AcceleratedDpExperimentOptions;

ABSL_FLAG(std::string, backend, "threads",
          "threads (one process, --workers ranks as threads) or mpi (one rank per process "
          "under mpirun; spell it --backend=mpi).");
ABSL_FLAG(int, workers, 1,
          "Worker threads (ranks) with --backend=threads, >= 1; the accelerated and hybrid "
          "samplers' approximate stages depend on it, the output is bit-identical for a given "
          "count (and to --backend=mpi with as many ranks).");
ABSL_FLAG(std::string, output_dir, "",
          "Directory for trace.csv and summary.csv (created, with its parents, before the "
          "run); empty: none.");
ABSL_FLAG(std::string, methods, "accelerated,hybrid,collapsed,uncollapsed",
          "Comma-separated samplers: accelerated (accelerated then exact hybrid stage), hybrid "
          "(exact hybrid stage only), collapsed (Algorithm 8, serial on rank 0), uncollapsed "
          "(distributed slice).");
ABSL_FLAG(std::string, inits, "one,random,kmeans",
          "Comma-separated starts: one (one cluster), random (random labels over "
          "--initial_clusters), kmeans (k-means with --initial_clusters centres).");
ABSL_FLAG(int, iterations, AcceleratedDpExperimentOptions().iterations,
          "Iterations per run (method x start), >= 1.");
ABSL_FLAG(int, sync_every, AcceleratedDpExperimentOptions().sync_every,
          "L, iterations between synchronisations of the parallel samplers (one trace point "
          "each), >= 1.");
ABSL_FLAG(int, accelerated_iterations, AcceleratedDpExperimentOptions().accelerated_iterations,
          "Iterations of the accelerated (approximate) stage before the exact hybrid stage, "
          ">= 0 (method accelerated only).");
ABSL_FLAG(int, num_auxiliary, AcceleratedDpExperimentOptions().num_auxiliary,
          "m, unoccupied atoms proposed per row (Algorithm 8 and the hybrid stage), >= 1.");
ABSL_FLAG(int, initial_clusters, AcceleratedDpExperimentOptions().initial_clusters,
          "Clusters of the random and k-means starts (at most the training rows), >= 1.");
ABSL_FLAG(int, train_points, AcceleratedDpExperimentOptions().train_points,
          "Synthetic training rows, >= 1.");
ABSL_FLAG(int, test_points, AcceleratedDpExperimentOptions().test_points,
          "Synthetic test rows (the trace's test log predictive), >= 1.");
ABSL_FLAG(int, dimension, AcceleratedDpExperimentOptions().dimension,
          "D, categories of each count vector, >= 2.");
ABSL_FLAG(int, counts_per_point, AcceleratedDpExperimentOptions().counts_per_point,
          "N_i, multinomial counts per synthetic row, >= 1.");
ABSL_FLAG(int, true_components, AcceleratedDpExperimentOptions().true_components,
          "Components of the generating mixture (weights ~ Dir(1)), >= 1.");
ABSL_FLAG(double, gamma, AcceleratedDpExperimentOptions().gamma,
          "Symmetric Dirichlet(gamma) base measure of the atoms, of the data and the model, > 0.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the data and the samplers.");
ABSL_FLAG(std::string, fashion_mnist_dir, "",
          "Directory of Debian's dataset-fashion-mnist (e.g. /usr/share/datasets/fashion-mnist): "
          "fit the first --train_points / --test_points images as counts; empty: synthetic.");
ABSL_FLAG(int, max_count, AcceleratedDpExperimentOptions().max_count,
          "Count of a white pixel with --fashion_mnist_dir (255: raw intensities).");
ABSL_FLAG(std::string, train, "",
          "Training corpus instead of synthetic data: a UCI docword file with --vocab, raw text "
          "with --text (one document per line, or a directory of files), else an msweb DST "
          "file (anonymous-msweb.data), as the dp_mixture tool reads them. Its first "
          "--train_points rows with a count are fitted (0: all).");
ABSL_FLAG(std::string, test, "", "Test corpus (with --train, same format; --test_points rows).");
ABSL_FLAG(std::string, vocab, "", "UCI vocabulary file: --train and --test are docword files.");
ABSL_FLAG(bool, text, false,
          "--train and --test are raw text; the vocabulary is the --max_vocabulary most frequent "
          "words of the training text (test words outside it are dropped, and counted).");
ABSL_FLAG(int, max_vocabulary, AcceleratedDpExperimentOptions().max_vocabulary,
          "Words kept from the training text with --text, >= 1.");
ABSL_FLAG(int, top_items, 10,
          "Items per feature in features_<method>_<init>.csv (non-image data), >= 1.");
ABSL_FLAG(std::string, likelihood, "dirichlet",
          "dirichlet (multinomial-Dirichlet) or logistic_normal (the low-rank base of §4.3).");
ABSL_FLAG(std::string, clock, AcceleratedDpExperimentOptions().clock,
          "What the trace's seconds measure: wall (rank 0's wall-clock seconds of the sampling "
          "steps) or cpu (every rank's CPU seconds of its sampling steps, summed over the ranks: "
          "the work done, unchanged by the machine's load; meant for --backend=threads, as an "
          "MPI rank busy-polling in a collective counts as working). Draws are the same.");
ABSL_FLAG(bool, plot, true, "With --output_dir, draw trace.png with gnuplot.");
ABSL_FLAG(int, stop_after_runs, 0,
          "Stop after this many runs (method x start) done in all, writing the checkpoint and "
          "no other output, as if interrupted; continue with --resume (0: run them all).");
ABSL_FLAG(int, stop_after, 0,
          "Stop when a run has done this many iterations in all (the parallel samplers: at "
          "their first synchronisation at or after it), writing the checkpoint with its state "
          "and no other output, as if interrupted; continue with --resume (0: never).");
ABSL_FLAG(int, checkpoint_every, 50,
          "With --output_dir, also write the checkpoint every this many iterations of a run, "
          "with the run's state (the parallel samplers: at their first synchronisation at or "
          "after each multiple), so that --resume continues the run from there (0: only after "
          "each run).");
ABSL_FLAG(bool, resume, false,
          "Continue the job whose checkpoint.pb is in --output_dir (same data, settings and "
          "worker count): the runs (method x start) it finished are not run again and the run "
          "under way continues from its last --checkpoint_every state, and the outputs equal "
          "an uninterrupted job's, the seconds aside. With --output_dir, rank 0 rewrites the "
          "checkpoint after each run and every --checkpoint_every iterations.");

namespace sgmcmc::tools {
namespace {

AcceleratedDpExperimentOptions OptionsFromFlags() {
  AcceleratedDpExperimentOptions o;
  o.methods = absl::StrSplit(absl::GetFlag(FLAGS_methods), ',', absl::SkipEmpty());
  o.inits = absl::StrSplit(absl::GetFlag(FLAGS_inits), ',', absl::SkipEmpty());
  o.iterations = absl::GetFlag(FLAGS_iterations);
  o.sync_every = absl::GetFlag(FLAGS_sync_every);
  o.accelerated_iterations = absl::GetFlag(FLAGS_accelerated_iterations);
  o.num_auxiliary = absl::GetFlag(FLAGS_num_auxiliary);
  o.initial_clusters = absl::GetFlag(FLAGS_initial_clusters);
  o.train_points = absl::GetFlag(FLAGS_train_points);
  o.test_points = absl::GetFlag(FLAGS_test_points);
  o.dimension = absl::GetFlag(FLAGS_dimension);
  o.counts_per_point = absl::GetFlag(FLAGS_counts_per_point);
  o.true_components = absl::GetFlag(FLAGS_true_components);
  o.gamma = absl::GetFlag(FLAGS_gamma);
  o.data_seed = o.seed = absl::GetFlag(FLAGS_seed);
  o.fashion_mnist_dir = FromWorkingDirectory(absl::GetFlag(FLAGS_fashion_mnist_dir));
  o.train_path = FromWorkingDirectory(absl::GetFlag(FLAGS_train));
  o.test_path = FromWorkingDirectory(absl::GetFlag(FLAGS_test));
  o.vocab_path = FromWorkingDirectory(absl::GetFlag(FLAGS_vocab));
  o.text = absl::GetFlag(FLAGS_text);
  o.max_vocabulary = absl::GetFlag(FLAGS_max_vocabulary);
  o.max_count = absl::GetFlag(FLAGS_max_count);
  o.likelihood = absl::GetFlag(FLAGS_likelihood);
  o.clock = absl::GetFlag(FLAGS_clock);
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (!dir.empty()) o.checkpoint_path = dir + "/checkpoint.pb";
  o.resume = absl::GetFlag(FLAGS_resume);
  o.stop_after_runs = absl::GetFlag(FLAGS_stop_after_runs);
  o.stop_after = absl::GetFlag(FLAGS_stop_after);
  o.checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  return o;
}

absl::Status Report(const char* argv0, const AcceleratedDpResult& result, int top_items) {
  if (!result.complete) {
    std::cout << "stopped (--stop_after_runs=" << absl::GetFlag(FLAGS_stop_after_runs)
              << ", --stop_after=" << absl::GetFlag(FLAGS_stop_after) << "); checkpoint in "
              << FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir))
              << "; continue with --resume\n";
    return absl::OkStatus();
  }
  const std::string summary = AcceleratedDpSummary(result);
  std::cout << "accelerated_dp: " << result.workers << " rank(s)\n" << summary;
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty()) return absl::OkStatus();
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(dir, "--output_dir"));
  SGMCMC_RETURN_IF_ERROR(
      WriteFiles(dir, {{"trace.csv", AcceleratedDpTraceCsv(result)}, {"summary.csv", summary}}));
  // Images: each run's most popular features as a grid of the images' shape; other data: a
  // table of their most probable items.
  const bool images = result.image_rows > 0;
  for (const AcceleratedDpFeatures& f : result.features) {
    if (f.sizes.empty()) continue;
    const std::string name =
        absl::StrCat("features_", f.method, "_", f.init, images ? ".png" : ".csv");
    if (images) {
      SGMCMC_ASSIGN_OR_RETURN(std::string png, data::FeatureGridPng(f.probabilities,
                                                                    result.image_rows,
                                                                    result.image_cols, {}));
      SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, {{name, png}}));
    } else {
      SGMCMC_RETURN_IF_ERROR(WriteFiles(
          dir, {{name, AcceleratedDpFeatureTable(f, result.item_names, top_items)}}));
    }
    std::cout << "features: " << dir << "/" << name << " (" << f.sizes.size()
              << " most popular)\n";
  }
  if (absl::GetFlag(FLAGS_plot)) {
    DrawFigure(argv0, "sgmcmc/tools/plots/accelerated_dp.gp", dir, "trace.png", std::cout);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  using sgmcmc::tools::AcceleratedDpResult;
  // MPI_Init must see the arguments before flag parsing; only with --backend=mpi.
  std::unique_ptr<sgmcmc::parallel::MpiCommunicator> mpi;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--backend=mpi") {
      mpi = sgmcmc::parallel::MpiCommunicator::Create(&argc, &argv);
    }
  }
  // Under mpirun the errors that return from the body (flags, the output directory) are the
  // same on every rank: rank 0 prints them once (a failed run ends through mpi->Fail).
  return sgmcmc::tools::MpiToolMain(
      argc, argv, "accelerated_dp [--backend=threads --workers=P | --backend=mpi] [flags]",
      mpi != nullptr ? mpi->rank() : 0, [&](const char* argv0) -> absl::Status {
        AcceleratedDpExperimentOptions options = sgmcmc::tools::OptionsFromFlags();
        options.progress = &std::cerr;
        SGMCMC_RETURN_IF_ERROR(sgmcmc::tools::AsFlagError(options.Validate()));
        if ((options.resume || options.stop_after_runs > 0 || options.stop_after > 0) &&
            options.checkpoint_path.empty()) {
          return absl::InvalidArgumentError(absl::StrCat(
              options.resume                  ? "--resume"
              : options.stop_after_runs > 0 ? "--stop_after_runs"
                                              : "--stop_after",
              ": needs --output_dir, where the checkpoint is"));
        }
        if (absl::GetFlag(FLAGS_top_items) < 1) {
          return absl::InvalidArgumentError(absl::StrCat(
              "--top_items must be >= 1, got ", absl::GetFlag(FLAGS_top_items)));
        }
        const std::string backend = absl::GetFlag(FLAGS_backend);
        if (backend == "threads") {
          SGMCMC_RETURN_IF_ERROR(
              sgmcmc::tools::CheckThreadCount("--workers", absl::GetFlag(FLAGS_workers)));
        }
        // The output directory before the run, not after it (every rank checks, so that all
        // report the error like a bad flag).
        if (const std::string dir = sgmcmc::tools::FromWorkingDirectory(
                absl::GetFlag(FLAGS_output_dir));
            !dir.empty()) {
          SGMCMC_RETURN_IF_ERROR(sgmcmc::tools::CreateOutputDirectory(dir, "--output_dir"));
        }
        if (backend == "mpi") {
          if (mpi == nullptr) return absl::InvalidArgumentError("--backend=mpi: spell it exactly");
          absl::StatusOr<AcceleratedDpResult> result =
              sgmcmc::tools::RunAcceleratedDpExperiment(options, *mpi);
          if (!result.ok()) mpi->Fail(result.status());
          if (mpi->rank() != 0) return absl::OkStatus();
          return sgmcmc::tools::Report(argv0, *result, absl::GetFlag(FLAGS_top_items));
        }
        if (backend != "threads") {
          return absl::InvalidArgumentError(
              absl::StrCat("--backend: expected threads or mpi, got '", backend, "'"));
        }
        AcceleratedDpResult result;
        SGMCMC_RETURN_IF_ERROR(sgmcmc::parallel::RunOnThreads(
            absl::GetFlag(FLAGS_workers),
            [&](sgmcmc::parallel::Communicator& comm) -> absl::Status {
              absl::StatusOr<AcceleratedDpResult> r =
                  sgmcmc::tools::RunAcceleratedDpExperiment(options, comm);
              if (!r.ok()) return r.status();
              if (comm.rank() == 0) result = *std::move(r);
              return absl::OkStatus();
            }));
        return sgmcmc::tools::Report(argv0, result, absl::GetFlag(FLAGS_top_items));
      });
}
