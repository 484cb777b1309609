// ReadCmdStanCsv: reads MCMC draws from a file in the CmdStan CSV layout (CmdStan User's
// Guide, "MCMC Sampling" output file), as eval/cmdstan_csv.h writes it and as CmdStan does:
// '#' comment lines (the "key = value" lines before the header are the run configuration),
// one header row of column names (lp__, sampler statistics ending in "__", then the
// parameters, vector entries as "theta.1", "theta.2", ...), one row of numbers per draw, and
// comment lines between or after the draws (adaptation info, the "Elapsed Time" footer),
// which are skipped. Blank lines are skipped too.
//
// Errors are InvalidArgument with "source:line: ..." (the file name and 1-based line): a
// header with an empty or repeated name, a row with the wrong number of values, a value that
// is not a number (CmdStan's "inf", "-inf" and "nan" are numbers); "source: no header row"
// for a file without one. ReadCmdStanCsv returns NotFound if the file cannot be opened.
//
// Cost: O(file size).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(CmdStanCsv csv, ReadCmdStanCsv("out/draws.csv"));
//   const int theta1 = csv.ColumnIndex("theta.1");
//   for (int64_t i = 0; i < csv.num_draws(); ++i) use(csv.value(i, theta1));
#ifndef SGMCMC_EVAL_CMDSTAN_CSV_READER_H_
#define SGMCMC_EVAL_CMDSTAN_CSV_READER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::eval {

struct CmdStanCsv {
  // The "key = value" comment lines before the header, in order, trimmed ("algorithm",
  // "sgld"); a key may repeat (CmdStan nests sections).
  std::vector<std::pair<std::string, std::string>> config;
  std::vector<std::string> columns;  // the header row
  std::vector<double> values;        // num_draws() x columns.size(), row-major

  int64_t num_draws() const {
    return columns.empty() ? 0 : static_cast<int64_t>(values.size() / columns.size());
  }
  double value(int64_t draw, int column) const { return values[draw * columns.size() + column]; }
  // Index of the column named `name`, or -1.
  int ColumnIndex(absl::string_view name) const;
  // The first config value of `key`, or "" if absent.
  std::string ConfigValue(absl::string_view key) const;
};

// Parses the text of a CmdStan CSV file; `source` names it in errors.
absl::StatusOr<CmdStanCsv> ParseCmdStanCsv(absl::string_view text, absl::string_view source);

// Reads and parses the file at `path` (errors name the path).
absl::StatusOr<CmdStanCsv> ReadCmdStanCsv(const std::string& path);

}  // namespace sgmcmc::eval

#endif  // SGMCMC_EVAL_CMDSTAN_CSV_READER_H_
