// matrix_factorization_mpi: //tools:matrix_factorization over Open MPI, one rank per process
// (parallel/mpi_communicator.h); same flags except --threads. Rank 0 prints the summary,
// writes the outputs and prints an error once; the traces are bit-identical to //tools:matrix_factorization with
// --threads=P (the seconds are not), and reproducible for a given seed and P. Checkpoints
// are per rank (checkpoint_METHOD_rankR_ofP.pb). A rank that fails ends the job on every rank
// (MPI_Abort).
//
// Example:
//   mpirun --allow-run-as-root --oversubscribe -np 4 bazel-bin/tools/matrix_factorization_mpi \
//     --ratings=../shared/data/movielens-100k/u.data.gz --output_dir=/tmp/mf_mpi
#include <iostream>
#include <memory>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "parallel/mpi_communicator.h"
#include "tools/matrix_factorization_experiment.h"
#include "tools/matrix_factorization_flags.h"
#include "tools/tool_support.h"

ABSL_FLAG(bool, plot, true, "Draw rmse.png with gnuplot when it is installed (rank 0).");

int main(int argc, char** argv) {
  std::unique_ptr<sgmcmc::parallel::MpiCommunicator> comm =
      sgmcmc::parallel::MpiCommunicator::Create(&argc, &argv);
  const bool is_root = comm->rank() == 0;
  // Every error that returns here is the same on every rank (flags, agreed reads and
  // checkpoints, collective divergence checks): rank 0 prints it once.
  return sgmcmc::tools::MpiToolMain(
      argc, argv, "mpirun -np P matrix_factorization_mpi [--ratings=FILE] [flags]", comm->rank(),
      [&](const char* argv0) -> absl::Status {
        absl::StatusOr<sgmcmc::tools::MatrixFactorizationExperimentOptions> options =
            sgmcmc::tools::MatrixFactorizationOptionsFromFlags();
        if (!options.ok()) return options.status();
        absl::StatusOr<sgmcmc::tools::MatrixFactorizationResult> result =
            sgmcmc::tools::RunMatrixFactorizationExperiment(*options, *comm);
        if (!result.ok()) return sgmcmc::tools::MatrixFactorizationRunError(result.status());
        // A diverged method is an error on every rank; rank 0 writes the others' results.
        if (!is_root) return sgmcmc::tools::MatrixFactorizationDivergence(*result);
        return sgmcmc::tools::WriteMatrixFactorizationOutputs(argv0, *result,
                                                              absl::GetFlag(FLAGS_plot));
      });
}
