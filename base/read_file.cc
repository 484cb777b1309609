#include "base/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sgmcmc::base {

absl::StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory, not a file"));
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  }
  std::string bytes;
  char buffer[1 << 16];
  size_t read;
  while ((read = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
    bytes.append(buffer, read);
  }
  if (std::ferror(file.get())) {
    return absl::DataLossError(absl::StrCat(path, ": read error: ", std::strerror(errno)));
  }
  return bytes;
}

}  // namespace sgmcmc::base
