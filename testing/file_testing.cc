#include "testing/file_testing.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "gtest/gtest.h"
#include "zlib.h"

namespace sgmcmc::testing {

std::string WriteTestFile(absl::string_view name, absl::string_view contents) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  gzFile file = gzopen(path.c_str(), absl::EndsWith(name, ".gz") ? "wb" : "wT");
  SGMCMC_CHECK(file != nullptr) << "WriteTestFile: cannot open " << path;
  if (!contents.empty()) {
    SGMCMC_CHECK(gzwrite(file, contents.data(), static_cast<unsigned>(contents.size())) ==
                 static_cast<int>(contents.size()))
        << "WriteTestFile: cannot write " << path;
  }
  SGMCMC_CHECK(gzclose(file) == Z_OK) << "WriteTestFile: cannot close " << path;
  return path;
}

std::string WriteRawTestFile(absl::string_view name, absl::string_view contents) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream out(path, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  SGMCMC_CHECK(out.good()) << "WriteRawTestFile: cannot write " << path;
  return path;
}

std::string ReadRawTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  SGMCMC_CHECK(in.good()) << "ReadRawTestFile: cannot open " << path;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

void FlipMiddleByte(const std::string& path) {
  std::string bytes = ReadRawTestFile(path);
  SGMCMC_CHECK(!bytes.empty()) << "FlipMiddleByte: empty file " << path;
  bytes[bytes.size() / 2] ^= 1;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  SGMCMC_CHECK(out.good()) << "FlipMiddleByte: cannot write " << path;
}

std::string ReadTestFile(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  SGMCMC_CHECK(file != nullptr) << "ReadTestFile: cannot open " << path;
  std::string contents;
  char buffer[1 << 16];
  int read;
  while ((read = gzread(file, buffer, sizeof(buffer))) > 0) contents.append(buffer, read);
  SGMCMC_CHECK(read == 0) << "ReadTestFile: cannot read " << path;
  gzclose(file);
  return contents;
}

}  // namespace sgmcmc::testing
