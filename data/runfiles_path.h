// Locating files shipped as runfiles (a library's `data` dependency) from the running binary
// or test, for the embedded data sets (data/embedded_corpus.h, data/embedded_msweb.h).
//
// Bazel's C++ runfiles library: under `bazel test` (argv0 == "") the test's runfiles
// environment; otherwise the manifest or <argv0>.runfiles directory; with argv0 == "" outside
// `bazel test` (e.g. a benchmark run from bazel-bin) the runfiles of /proc/self/exe.
//
// Cost: creating the runfiles object and one stat per file.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(
//       std::vector<std::string> paths,
//       RunfilesPaths(argv0, {"sgmcmc/data/kos/vocab.kos.txt"}, "embedded KOS corpus",
//                     "; does the target depend on //data:embedded_corpus?"));
#ifndef SGMCMC_DATA_RUNFILES_PATH_H_
#define SGMCMC_DATA_RUNFILES_PATH_H_

#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::data {

// The absolute paths of `rlocations` (runfiles paths such as "sgmcmc/data/kos/vocab.kos.txt"),
// in order. `argv0` is the program's argv[0], or "" from a test or benchmark. NotFound if no
// runfiles are found ("<what>: no runfiles found for '<argv0>': <reason>") or a path is not a
// regular file ("<what>: '<path>' is not a file<missing_hint>").
absl::StatusOr<std::vector<std::string>> RunfilesPaths(
    const std::string& argv0, std::initializer_list<absl::string_view> rlocations,
    absl::string_view what, absl::string_view missing_hint);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_RUNFILES_PATH_H_
