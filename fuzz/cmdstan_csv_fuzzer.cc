// Fuzz target: the CmdStan CSV reader (eval/cmdstan_csv_reader.h ParseCmdStanCsv, and
// ReadCmdStanCsv on the same bytes). Contract: InvalidArgument naming the source, or a header
// of distinct non-empty column names, num_draws() x columns values, config keys in file
// order; reading the file agrees with parsing the text.
#include <cmath>
#include <cstdint>
#include <set>
#include <string>

#include "base/check.h"
#include "eval/cmdstan_csv_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  static fuzz::ScratchFile* file = new fuzz::ScratchFile("draws.csv");
  const absl::string_view text = fuzz::AsText(data, size);
  const absl::StatusOr<eval::CmdStanCsv> csv = eval::ParseCmdStanCsv(text, "fuzz.csv");
  const std::string& path = file->Write(text);
  const absl::StatusOr<eval::CmdStanCsv> read = eval::ReadCmdStanCsv(path);
  SGMCMC_CHECK_EQ(read.ok(), csv.ok()) << read.status() << " vs " << csv.status();
  if (!csv.ok()) {
    SGMCMC_CHECK(csv.status().code() == absl::StatusCode::kInvalidArgument) << csv.status();
    fuzz::CheckInputError(csv.status(), "fuzz.csv");
    fuzz::CheckInputError(read.status(), path);
    return 0;
  }
  SGMCMC_CHECK(!csv->columns.empty());
  std::set<std::string> names;
  for (int c = 0; c < static_cast<int>(csv->columns.size()); ++c) {
    const std::string& name = csv->columns[c];
    SGMCMC_CHECK(!name.empty());
    SGMCMC_CHECK(names.insert(name).second) << "repeated column " << name;
    SGMCMC_CHECK_EQ(csv->ColumnIndex(name), c);
  }
  SGMCMC_CHECK_EQ(csv->values.size() % csv->columns.size(), size_t{0});
  SGMCMC_CHECK_EQ(csv->num_draws() * static_cast<int64_t>(csv->columns.size()),
                  static_cast<int64_t>(csv->values.size()));
  SGMCMC_CHECK(read->columns == csv->columns);
  SGMCMC_CHECK(read->config == csv->config);
  SGMCMC_CHECK_EQ(read->values.size(), csv->values.size());
  for (size_t i = 0; i < csv->values.size(); ++i) {
    const double a = csv->values[i], b = read->values[i];
    SGMCMC_CHECK(a == b || (std::isnan(a) && std::isnan(b)));
  }
  std::set<std::string> keys;
  for (const auto& [key, value] : csv->config) {
    if (keys.insert(key).second) SGMCMC_CHECK_EQ(csv->ConfigValue(key), value);  // the first
  }
  return 0;
}
