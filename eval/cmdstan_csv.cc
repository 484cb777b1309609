#include "eval/cmdstan_csv.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sgmcmc::eval {
namespace {

bool HasWhitespace(absl::string_view s) {
  return s.find_first_of(" \t\r\n") != absl::string_view::npos;
}

absl::Status CheckToken(absl::string_view field, absl::string_view value, bool allow_empty) {
  if ((!allow_empty && value.empty()) || HasWhitespace(value)) {
    return absl::InvalidArgumentError(absl::StrCat("CmdStanCsvOptions.", field, " must be ",
                                                   allow_empty ? "" : "non-empty and ",
                                                   "free of whitespace, got \"", value, "\""));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CmdStanCsvOptions::Validate() const {
  absl::Status status = CheckToken("model", model, /*allow_empty=*/false);
  if (status.ok()) status = CheckToken("algorithm", algorithm, false);
  if (status.ok()) status = CheckToken("output_file", output_file, true);
  if (!status.ok()) return status;
  if (num_samples < 0 || num_warmup < 0 || thin < 1 || chain_id < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CmdStanCsvOptions: need num_samples >= 0, num_warmup >= 0, thin >= 1, chain_id >= 1; "
        "got ",
        num_samples, ", ", num_warmup, ", ", thin, ", ", chain_id));
  }
  if (significant_digits < 1 || significant_digits > 17) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CmdStanCsvOptions.significant_digits must be in [1, 17], got ", significant_digits));
  }
  for (const auto& [key, value] : extra) {
    if (key.empty() || HasWhitespace(key) || absl::StrContains(key, "=") ||
        absl::StrContains(value, "\n")) {
      return absl::InvalidArgumentError(
          absl::StrCat("CmdStanCsvOptions.extra has a bad line \"", key, " = ", value, "\""));
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> VectorParameterNames(absl::string_view name, int size) {
  std::vector<std::string> names;
  names.reserve(size);
  for (int i = 1; i <= size; ++i) names.push_back(absl::StrCat(name, ".", i));
  return names;
}

absl::StatusOr<CmdStanCsvWriter> CmdStanCsvWriter::Create(std::ostream* out,
                                                          std::vector<std::string> parameter_names,
                                                          const CmdStanCsvOptions& options) {
  absl::Status status = options.Validate();
  if (!status.ok()) return status;
  std::set<std::string> seen = {"lp__"};
  for (const std::string& name : parameter_names) {
    if (name.empty() || name.find_first_of(",# \t\r\n") != std::string::npos ||
        absl::EndsWith(name, "__") || !seen.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("CmdStanCsvWriter: bad or repeated parameter name \"", name, "\""));
    }
  }
  CmdStanCsvWriter writer(out, std::move(parameter_names), options);
  std::ostream& os = *out;
  os << "# model = " << options.model << "\n"
     << "# method = sample\n"
     << "#   sample\n"
     << "#     num_samples = " << options.num_samples << "\n"
     << "#     num_warmup = " << options.num_warmup << "\n"
     << "#     save_warmup = 0\n"
     << "#     thin = " << options.thin << "\n"
     << "#     algorithm = " << options.algorithm << "\n"
     << "# id = " << options.chain_id << "\n"
     << "# random\n"
     << "#   seed = " << options.seed << "\n"
     << "# output\n"
     << "#   file = " << options.output_file << "\n"
     << "#   sig_figs = " << options.significant_digits << "\n";
  for (const auto& [key, value] : options.extra) os << "# " << key << " = " << value << "\n";
  os << "lp__";
  for (const std::string& name : writer.names_) os << "," << name;
  os << "\n";
  status = writer.StreamStatus();
  if (!status.ok()) return status;
  return writer;
}

absl::Status CmdStanCsvWriter::StreamStatus() const {
  if (out_->good()) return absl::OkStatus();
  return absl::DataLossError(
      absl::StrCat("CmdStanCsvWriter: writing \"", options_.output_file, "\" failed"));
}

absl::Status CmdStanCsvWriter::WriteDraw(double lp, absl::Span<const double> parameters) {
  if (parameters.size() != names_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("CmdStanCsvWriter::WriteDraw: got ",
                                                   parameters.size(), " values for ", names_.size(),
                                                   " parameters"));
  }
  if (finished_) {
    return absl::FailedPreconditionError("CmdStanCsvWriter::WriteDraw: called after Finish");
  }
  const int digits = options_.significant_digits;
  line_.clear();
  absl::StrAppendFormat(&line_, "%.*g", digits, lp);
  for (double value : parameters) absl::StrAppendFormat(&line_, ",%.*g", digits, value);
  line_ += '\n';
  *out_ << line_;
  ++draws_written_;
  return StreamStatus();
}

absl::Status CmdStanCsvWriter::Finish(double warmup_seconds, double sampling_seconds) {
  if (finished_) {
    return absl::FailedPreconditionError("CmdStanCsvWriter::Finish: called twice");
  }
  finished_ = true;
  *out_ << absl::StrFormat(
      "# \n"
      "#  Elapsed Time: %g seconds (Warm-up)\n"
      "#                %g seconds (Sampling)\n"
      "#                %g seconds (Total)\n"
      "# \n",
      warmup_seconds, sampling_seconds, warmup_seconds + sampling_seconds);
  out_->flush();
  return StreamStatus();
}

}  // namespace sgmcmc::eval
