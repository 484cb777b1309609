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
// gnuplot is installed; a missing gnuplot is reported on stdout, not an error).
absl::Status WriteMatrixFactorizationOutputs(const char* argv0,
                                             const MatrixFactorizationResult& result,
                                             bool plot);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_MATRIX_FACTORIZATION_FLAGS_H_
