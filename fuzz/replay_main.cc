// A plain main for a fuzz target (no libFuzzer): runs LLVMFuzzerTestOneInput on every file
// given (directories: every regular file under them, sorted) and then on --mutations=N
// deterministic mutations of them (a fixed-seed mix of bit flips, byte and token insertions
// such as "-1" or "2147483648", deletions, duplications, truncations and splices of two
// inputs, stacked 1-4 deep), so `bazel test` exercises every target in seconds with the
// default compiler. A failed contract check aborts, naming the input; with --write_failure=P
// the failing bytes are written to P first, to be checked in as a regression seed.
//
//   bazel-bin/fuzz/uci_docword_fuzzer_test fuzz/corpus/uci_docword --mutations=3000
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

constexpr const char* kTokens[] = {
    "0",  "-1", "1",    "2147483647", "2147483648", "4294967296", "99999999999999999999",
    "1e308", "-1e308", "nan", "inf", "-0", "0.5", "\n", "\t", " ", "\r\n", "::", ":", ",",
    "#",  "\0", "\xff", "=", "\"", "e", "x"};
constexpr char kBytes[] = "0123456789-+.:,\t\n \r#eE=\"\xff";

const std::string* g_current = nullptr;
std::string g_label;
std::string g_failure_path;

// On an abort (a failed contract check, or a sanitizer's report): name the input and write
// its bytes to --write_failure, then die as before.
void OnAbort(int signal) {
  const std::string message = "\nreplay: the input that failed: " + g_label + "\n";
  (void)!write(2, message.data(), message.size());
  if (g_current != nullptr && !g_failure_path.empty()) {
    const int fd = open(g_failure_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!write(fd, g_current->data(), g_current->size());
      close(fd);
    }
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void Run(const std::string& input, const std::string& label) {
  const std::string copy = input;  // the target sees exactly size bytes, nothing after them
  g_current = &copy;
  g_label = label;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(copy.data()), copy.size());
  g_current = nullptr;
}

std::string Mutate(const std::vector<std::string>& seeds, const std::string& input,
                   std::mt19937_64& rng) {
  std::string out = input;
  const int depth = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < depth; ++k) {
    const size_t n = out.size();
    const size_t pos = n == 0 ? 0 : rng() % (n + 1);
    switch (rng() % 8) {
      case 0:
        if (n > 0) out[rng() % n] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:
        if (n > 0) out[rng() % n] = kBytes[rng() % (sizeof(kBytes) - 1)];
        break;
      case 2: {
        const char* token = kTokens[rng() % std::size(kTokens)];
        out.insert(pos, token[0] == '\0' ? std::string(1, '\0') : std::string(token));
        break;
      }
      case 3:
        if (n > 0) out.erase(pos == n ? n - 1 : pos, 1 + rng() % 16);
        break;
      case 4:
        if (n > 0) {
          const size_t from = rng() % n;
          const size_t length = std::min<size_t>(1 + rng() % 64, n - from);
          out.insert(pos, out.substr(from, length));
        }
        break;
      case 5:
        out.resize(pos);
        break;
      case 6: {
        const std::string& other = seeds[rng() % seeds.size()];
        if (!other.empty()) {
          const size_t from = rng() % other.size();
          out = out.substr(0, pos) + other.substr(from);
        }
        break;
      }
      default:
        if (n > 0) out[rng() % n] = static_cast<char>(rng() % 256);
        break;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t mutations = 0;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--mutations=", 0) == 0) {
      mutations = std::stoll(arg.substr(12));
    } else if (arg.rfind("--write_failure=", 0) == 0) {
      g_failure_path = arg.substr(16);
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) found.push_back(entry.path().string());
      }
      std::sort(found.begin(), found.end());
      paths.insert(paths.end(), found.begin(), found.end());
    } else if (std::filesystem::is_regular_file(arg)) {
      paths.push_back(arg);
    } else {
      std::cerr << "replay: no such file or directory: " << arg << "\n";
      return 2;
    }
  }
  std::signal(SIGABRT, OnAbort);
  std::vector<std::string> seeds;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::cerr << "replay: " << path << " (" << seeds.back().size() << " bytes)\n";
    Run(seeds.back(), path);
  }
  if (seeds.empty()) seeds.emplace_back();
  std::mt19937_64 rng(20261128);
  for (int64_t i = 0; i < mutations; ++i) {
    const std::string input = Mutate(seeds, seeds[i % seeds.size()], rng);
    Run(input, "mutation " + std::to_string(i));
  }
  std::cerr << "replay: " << paths.size() << " inputs and " << mutations
            << " mutations passed\n";
  return 0;
}
