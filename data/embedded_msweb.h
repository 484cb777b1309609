// The embedded msweb subset (//data/msweb: the first 4,000 training and 1,000 test users of the
// UCI Anonymous Microsoft Web Data, CC BY 4.0): locates its DST files in the runfiles of the
// running binary or test and reads them with //data:msweb_reader, the test users over the
// training file's Vroots.
//
// Cost: a few stat calls and ~5 ms of parsing.
//
// Example (in main):
//   SGMCMC_ASSIGN_OR_RETURN(data::EmbeddedMsweb msweb, data::LoadEmbeddedMsweb(argv[0]));
#ifndef SGMCMC_DATA_EMBEDDED_MSWEB_H_
#define SGMCMC_DATA_EMBEDDED_MSWEB_H_

#include <string>

#include "absl/status/statusor.h"
#include "data/msweb_reader.h"

namespace sgmcmc::data {

inline constexpr int kEmbeddedMswebTrainUsers = 4000;
inline constexpr int kEmbeddedMswebTestUsers = 1000;
inline constexpr int kMswebVroots = 294;

struct EmbeddedMsweb {
  MswebData train;
  MswebData test;
};

// `argv0` is the program's argv[0], or "" from a test (then the test's runfiles are used).
// NotFound if the files are missing (the target must depend on //data:embedded_msweb).
absl::StatusOr<EmbeddedMsweb> LoadEmbeddedMsweb(const std::string& argv0 = "");

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_EMBEDDED_MSWEB_H_
