// matrix_factorization: the distributed Bayesian matrix-factorisation experiment of Simsekli
// et al. (2016), Sec. 4.3 / Fig. 5 (tools/matrix_factorization_experiment.h): test RMSE of the
// averaged predictions versus iteration and wall time for DSGLD, pSGLD and HAMCMC (M = 2).
//
// The default run uses ratings generated from the model (MovieLens may not be redistributed)
// and takes seconds; --ratings reads a MovieLens u.data / ratings.dat or the Jester file.
// HAMCMC's initial L-BFGS matrix is by default the degree-based diagonal
// (--hamcmc_initial_metric=diagonal_degree, models::MfInitialMetric); scalar is the paper's
// gamma I (then use --hamcmc_gamma=5e-4 --hamcmc_damping=1000).
// --center_ratings fits X - mu ~ N(W H, sigma_x^2) with mu the training ratings' mean, a
// fixed offset (not a parameter) added back to every prediction; RMSEs on the original scale.
// --threads=S runs S ranks as threads in this process (S must divide --blocks): each owns
// its W row blocks, the H column blocks travel between them per subset
// (models/mf/distributed_matrix_factorization.h). A run is bit-identical for a given seed and S,
// and to //tools:matrix_factorization_mpi under `mpirun -np S` (same flags); other S give
// statistically equivalent chains. --checkpoint_dir / --checkpoint_every / --resume /
// --stop_after checkpoint and resume runs bit-identically for a given S.
//
// Outputs in --output_dir: rmse.csv (method, iteration, seconds, sample and averaged RMSE)
// and, if gnuplot is installed, rmse.png (tools/plots/matrix_factorization.gp).
//
// Example:
//   bazel run //tools:matrix_factorization
//   bazel-bin/tools/matrix_factorization --ratings=../shared/data/movielens-100k/u.data.gz \
//     --iterations=2000 --output_dir=/tmp/mf_ml100k --checkpoint_dir=/tmp/mf_ml100k/ckpt
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "parallel/communicator.h"
#include "tools/gnuplot.h"
#include "tools/matrix_factorization_experiment.h"
#include "tools/matrix_factorization_flags.h"
#include "tools/tool_support.h"

ABSL_FLAG(int, threads, 1, "Ranks, run as threads in this process.");
ABSL_FLAG(bool, plot, true, "Draw rmse.png with gnuplot when it is installed.");

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv, "matrix_factorization [--ratings=FILE] [--threads=P] [flags]",
      [](const char* argv0) -> absl::Status {
        absl::StatusOr<sgmcmc::tools::MatrixFactorizationExperimentOptions> options =
            sgmcmc::tools::MatrixFactorizationOptionsFromFlags();
        if (!options.ok()) return options.status();
        const int threads = absl::GetFlag(FLAGS_threads);
        if (absl::Status s = sgmcmc::tools::CheckThreadCount("--threads", threads); !s.ok()) {
          return s;
        }
        absl::StatusOr<sgmcmc::tools::MatrixFactorizationResult> rank0;
        absl::Status status = sgmcmc::parallel::RunOnThreads(
            threads, [&](sgmcmc::parallel::Communicator& comm) -> absl::Status {
              auto result = sgmcmc::tools::RunMatrixFactorizationExperiment(*options, comm);
              if (comm.rank() == 0) rank0 = result;
              return result.status();
            });
        if (!status.ok()) return status;
        return sgmcmc::tools::WriteMatrixFactorizationOutputs(
            argv0, *rank0, absl::GetFlag(FLAGS_plot));
      });
}
