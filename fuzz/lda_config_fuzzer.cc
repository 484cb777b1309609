// Fuzz target: the textproto configs of the lda tool (tools/lda_run.h ParseLdaConfig,
// ResolveLdaRuns, FitLdaRunsToData; tools/configs/*.textpb are the seeds). Contract: an error
// naming the source, or runs with distinct names of [A-Za-z0-9_.-] whose options pass
// LdaOptions::Validate, with iterations >= 1 and 0 <= burn_in; fitting them to a corpus
// either fails naming the source or gives full-batch runs the corpus's size, and leaves every
// run valid for that corpus except a minibatch larger than it (refused naming the field).
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "base/check.h"
#include "fuzz/fuzz_support.h"
#include "tools/lda_config.pb.h"
#include "tools/lda_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sgmcmc;
  const std::string text(fuzz::AsText(data, size));
  const absl::StatusOr<tools::LdaConfig> config = tools::ParseLdaConfig(text, "fuzz.textpb");
  if (!config.ok()) {
    fuzz::CheckInputError(config.status(), "fuzz.textpb");
    return 0;
  }
  absl::StatusOr<std::vector<tools::ResolvedLdaRun>> runs =
      tools::ResolveLdaRuns(*config, "fuzz.textpb");
  if (!runs.ok()) {
    fuzz::CheckInputError(runs.status(), "fuzz.textpb");
    return 0;
  }
  SGMCMC_CHECK(!runs->empty());
  std::set<std::string> names;
  for (const tools::ResolvedLdaRun& run : *runs) {
    SGMCMC_CHECK(!run.name.empty());
    for (const char c : run.name) {
      SGMCMC_CHECK(absl::ascii_isalnum(c) || c == '_' || c == '.' || c == '-') << run.name;
    }
    SGMCMC_CHECK(names.insert(run.name).second) << "repeated run name " << run.name;
    SGMCMC_CHECK(run.options.Validate().ok()) << run.options.Validate();
    SGMCMC_CHECK_GE(run.iterations, 1);
    SGMCMC_CHECK_GE(run.burn_in, 0);
  }
  const int num_documents = 1 + (size == 0 ? 0 : data[0]) * 7;
  const absl::Status fitted = tools::FitLdaRunsToData(num_documents, "fuzz.textpb", *runs);
  if (!fitted.ok()) {
    fuzz::CheckInputError(fitted, "fuzz.textpb");
    return 0;
  }
  for (const tools::ResolvedLdaRun& run : *runs) {
    if (run.full_batch) SGMCMC_CHECK_EQ(run.options.minibatch_size, num_documents);
    // Other runs keep their minibatch size; the tool refuses one above D when it builds the
    // sampler, through this check, naming the field.
    const absl::Status valid = run.options.Validate(num_documents);
    if (!valid.ok()) {
      SGMCMC_CHECK(valid.code() == absl::StatusCode::kInvalidArgument &&
                   absl::StrContains(valid.message(), "minibatch_size"))
          << run.name << ": " << valid;
    }
  }
  return 0;
}
