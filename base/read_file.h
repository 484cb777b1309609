// ReadFileBytes: the whole contents of a file as bytes, with the errors a reader of user input
// needs (the path in every message). A directory is refused before it is opened: std::ifstream
// opens one and then either throws std::ios_failure from its stream buffer (an uncaught
// exception: abort) or, read through `out << in.rdbuf()`, yields an empty string that parses
// as an empty file.
//
// Cost: O(file size) time and memory.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, base::ReadFileBytes(path));

#ifndef SGMCMC_BASE_READ_FILE_H_
#define SGMCMC_BASE_READ_FILE_H_

#include <string>

#include "absl/status/statusor.h"

namespace sgmcmc::base {

// NotFound "path: cannot open: <reason>" if the file cannot be opened, InvalidArgument
// "path: is a directory, not a file", DataLoss "path: read error: <reason>" if reading fails.
absl::StatusOr<std::string> ReadFileBytes(const std::string& path);

}  // namespace sgmcmc::base

#endif  // SGMCMC_BASE_READ_FILE_H_
