// CmdStanCsvWriter: writes MCMC draws in the CmdStan CSV layout (CmdStan User's Guide,
// "MCMC Sampling" output file): '#' comment lines with the run configuration in CmdStan's
// "key = value" form, one header row "lp__,<param>,...", one row per draw, and the
// "Elapsed Time" footer. Vector parameters are named "theta.1", "theta.2", ... as CmdStan
// does, so ArviZ (arviz.from_cmdstan), R's posterior/cmdstanr tools and bayesplot read the
// files; columns ending in "__" are sampler statistics there, so parameter names may not.
//
// Only post-warm-up draws are written (save_warmup = 0); num_warmup records how many
// iterations were discarded. Numbers are printed with `significant_digits` significant
// digits (%g), CmdStan's default being 6.
//
// Cost: O(D) formatting per draw.
//
// Example:
//   std::ofstream file(path);
//   CmdStanCsvOptions options;
//   options.model = "linear_regression";
//   options.algorithm = "hamcmc";
//   options.output_file = path;
//   SGMCMC_ASSIGN_OR_RETURN(CmdStanCsvWriter writer,
//       CmdStanCsvWriter::Create(&file, VectorParameterNames("theta", 2), options));
//   SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(log_density, theta));
//   SGMCMC_RETURN_IF_ERROR(writer.Finish(warmup_seconds, sampling_seconds));
#ifndef SGMCMC_EVAL_CMDSTAN_CSV_H_
#define SGMCMC_EVAL_CMDSTAN_CSV_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sgmcmc::eval {

struct CmdStanCsvOptions {
  // "# model = ..."; non-empty, no whitespace. Default "model".
  std::string model = "model";
  // "#     algorithm = ..." (the sampler, e.g. "sgld"); non-empty, no whitespace.
  // Default "sgmcmc".
  std::string algorithm = "sgmcmc";
  // Number of draws that will be written; >= 0. Default 0.
  int64_t num_samples = 0;
  // Number of burn-in iterations discarded (not written); >= 0. Default 0.
  int64_t num_warmup = 0;
  // Thinning interval; >= 1. Default 1.
  int64_t thin = 1;
  // Chain id ("# id = ..."); >= 1. Default 1.
  int chain_id = 1;
  // Seed of the run ("#   seed = ..."). Default 0.
  uint64_t seed = 0;
  // Path recorded as "#   file = ..." and named in error messages; no whitespace, may be
  // empty. Default "".
  std::string output_file;
  // Significant digits of every number; in [1, 17]. Default 6 (CmdStan's default).
  int significant_digits = 6;
  // More "# key = value" lines after the standard ones; keys non-empty without whitespace
  // or '=', values without newlines. Default none.
  std::vector<std::pair<std::string, std::string>> extra;

  absl::Status Validate() const;
};

// {"<name>.1", ..., "<name>.<size>"}: CmdStan's column names of a vector parameter.
std::vector<std::string> VectorParameterNames(absl::string_view name, int size);

class CmdStanCsvWriter {
 public:
  // Writes the comment header and the column row to `out` (not owned; must outlive the
  // writer). InvalidArgument for bad options or parameter names (empty, containing ',',
  // whitespace or '#', ending in "__", or repeated); DataLoss if the stream fails.
  static absl::StatusOr<CmdStanCsvWriter> Create(std::ostream* out,
                                                 std::vector<std::string> parameter_names,
                                                 const CmdStanCsvOptions& options);

  // Writes one draw: lp__ (the log density up to a constant) then the parameters, whose
  // length must equal the number of names (InvalidArgument otherwise).
  absl::Status WriteDraw(double lp, absl::Span<const double> parameters);

  // Writes CmdStan's "Elapsed Time" footer and flushes; call once, after the last draw.
  absl::Status Finish(double warmup_seconds, double sampling_seconds);

  int64_t draws_written() const { return draws_written_; }

 private:
  CmdStanCsvWriter(std::ostream* out, std::vector<std::string> names,
                   const CmdStanCsvOptions& options)
      : out_(out), names_(std::move(names)), options_(options) {}

  absl::Status StreamStatus() const;

  std::ostream* out_;
  std::vector<std::string> names_;
  CmdStanCsvOptions options_;
  int64_t draws_written_ = 0;
  bool finished_ = false;
  std::string line_;  // reused row buffer
};

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_CMDSTAN_CSV_H_
