// The outputs of the linear-regression experiments (tools/linear_regression_experiment.h): the
// CSV files of both figures, their tables and the paper's claims checked on a run's numbers.
#ifndef SGMCMC_TOOLS_LINEAR_REGRESSION_REPORT_H_
#define SGMCMC_TOOLS_LINEAR_REGRESSION_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/linear_regression_types.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

// fig1_contours.csv, fig1_<method>.csv, fig1_summary.csv and fig1_trace.csv (the eq. 12 error
// against iterations and seconds: mean, min and max over the chains); the draws' CmdStan header
// records its path in `output_dir`.
absl::StatusOr<OutputFiles> LinearRegressionFigure1Files(const LinearRegressionOptions& options,
                                                         const LinearRegressionFigure1& figure1,
                                                         const std::string& output_dir);

// fig2_D<d>.csv (mean error and seconds per method), fig2_D<d>_spread.csv (their min and max
// over the replications) per dimension and fig2_summary.csv.
OutputFiles LinearRegressionFigure2Files(const LinearRegressionOptions& options,
                                         const std::vector<LinearRegressionFigure2>& figure2);

// The tables of both figures (either may be empty) with the paper's claim checked: HAMCMC
// below SGLD and pSGLD in error versus iterations.
std::string LinearRegressionSummary(const LinearRegressionOptions& options,
                                    const LinearRegressionFigure1* figure1,
                                    const std::vector<LinearRegressionFigure2>& figure2);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_REPORT_H_
