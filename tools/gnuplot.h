// RunGnuplotScript: draws a tool's figures by running a gnuplot script shipped in the tool's
// runfiles (tools/plots/*.gp, listed as `data` of the binary) on its output directory, so
// `bazel run //tools:x` and `bazel-bin/tools/x` both find the script.
//
// The script is run as  gnuplot -e "dir='<output_dir>'" <script>  and reads its CSVs from
// `dir` and writes its PNGs there (`set terminal pngcairo`).
//
// Cost: one gnuplot process per call (a fraction of a second to a second).
//
// Example:
//   absl::Status status = RunGnuplotScript(argv[0], "sgmcmc/tools/plots/linear_regression.gp",
//                                          output_dir);
//   if (!status.ok()) std::cout << "figures skipped: " << status.message() << "\n";
#ifndef SGMCMC_TOOLS_GNUPLOT_H_
#define SGMCMC_TOOLS_GNUPLOT_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::tools {

// `runfile` is the script's runfiles path, e.g. "sgmcmc/tools/plots/x.gp". Returns
// FailedPrecondition if gnuplot is not on PATH, the script is not in the runfiles, or a path
// holds quote or shell characters; Internal if gnuplot fails.
// The path of the runfile `runfile` (e.g. "sgmcmc/tools/plots/x.gp") of the binary `argv0`;
// FailedPrecondition if it is not in the runfiles.
absl::StatusOr<std::string> FindRunfile(const std::string& argv0, absl::string_view runfile);

absl::Status RunGnuplotScript(const std::string& argv0, absl::string_view runfile,
                              const std::string& output_dir);

// RunGnuplotScript, then one line on `out`: "figure: <output_dir>/<figure>", or
// "figure skipped: <why>" if gnuplot could not draw it (never an error: figures are extras).
void DrawFigure(const std::string& argv0, absl::string_view runfile,
                const std::string& output_dir, absl::string_view figure, std::ostream& out);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_GNUPLOT_H_
