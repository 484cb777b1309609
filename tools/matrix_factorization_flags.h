// The flags shared by //tools:matrix_factorization and //tools:matrix_factorization_mpi
// (fields of MatrixFactorizationExperimentOptions), and the tool's outputs.
#ifndef SGMCMC_TOOLS_MATRIX_FACTORIZATION_FLAGS_H_
#define SGMCMC_TOOLS_MATRIX_FACTORIZATION_FLAGS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/matrix_factorization_experiment.h"

namespace sgmcmc::tools {

absl::StatusOr<MatrixFactorizationExperimentOptions> MatrixFactorizationOptionsFromFlags();

// Prints the summary to stdout and writes --output_dir/rmse.csv (+ rmse.png when `plot` and
// gnuplot is installed; a missing gnuplot is reported on stdout, not an error). Then
// MatrixFactorizationDivergence(result): an error if a method diverged (after writing the
// others' results).
absl::Status WriteMatrixFactorizationOutputs(const char* argv0,
                                             const MatrixFactorizationResult& result,
                                             bool plot);

// `status` of MatrixFactorizationExperimentOptions::Validate naming this tool's flags:
// "--sgld_step", "--rank", "--blocks" for the fields sgld_step, model.rank, model.num_blocks
// (tools/tool_support.h NameFlags).
absl::Status MatrixFactorizationFlagError(const absl::Status& status);

// `status` of RunMatrixFactorizationExperiment naming --rank for model.rank (a rank above the
// ratings file's matrix) and --blocks for num_blocks (not a multiple of the ranks); its other
// errors name files and checkpoints, not flags.
absl::Status MatrixFactorizationRunError(const absl::Status& status);

// Internal naming every diverged method of `result`, its iteration and the flag of its step
// ("hamcmc diverged at iteration 40 (test RMSE nan): lower --hamcmc_step; ..."); OK if none.
absl::Status MatrixFactorizationDivergence(const MatrixFactorizationResult& result);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_MATRIX_FACTORIZATION_FLAGS_H_
