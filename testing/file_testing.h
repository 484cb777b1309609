// Test helpers for file readers: write a string to a fresh file under the test's temporary
// directory, plain or gzip-compressed (by the ".gz" suffix of the name); damage a file.
//
// Example:
//   const std::string path = WriteTestFile("bad.txt.gz", "3\n5\n1\n1 9 2\n");
#ifndef SGMCMC_TESTING_FILE_TESTING_H_
#define SGMCMC_TESTING_FILE_TESTING_H_

#include <string>

#include "absl/strings/string_view.h"

namespace sgmcmc::testing {

// Writes `contents` to TempDir()/name (gzip if name ends in ".gz") and returns the path.
// Aborts on an I/O error.
std::string WriteTestFile(absl::string_view name, absl::string_view contents);

// Writes the bytes `contents` unchanged to TempDir()/name and returns the path.
std::string WriteRawTestFile(absl::string_view name, absl::string_view contents);

// The raw bytes of the file at `path`; aborts if it cannot be read.
std::string ReadRawTestFile(const std::string& path);

// The whole (decompressed) contents of the file at `path`; aborts if it cannot be read.
std::string ReadTestFile(const std::string& path);

// Flips the lowest bit of the byte at offset size / 2 of the file at `path`, in place: damage
// as a disk or a copy makes it, for tests that a reader refuses it. Aborts if the file cannot be
// read or written, or is empty.
void FlipMiddleByte(const std::string& path);

}  // namespace sgmcmc::testing

#endif  // SGMCMC_TESTING_FILE_TESTING_H_
