#include "data/runfiles_path.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace sgmcmc::data {
namespace {

TEST(RunfilesPathTest, FindsDataDependencies) {
  absl::StatusOr<std::vector<std::string>> paths =
      RunfilesPaths("", {"sgmcmc/data/kos/vocab.kos.txt", "sgmcmc/data/kos/docword.kos.txt.gz"},
                    "test", "");
  ASSERT_TRUE(paths.ok()) << paths.status();
  ASSERT_EQ(paths->size(), 2u);
  EXPECT_TRUE(absl::EndsWith((*paths)[0], "data/kos/vocab.kos.txt")) << (*paths)[0];
  EXPECT_TRUE(absl::EndsWith((*paths)[1], "data/kos/docword.kos.txt.gz")) << (*paths)[1];
}

TEST(RunfilesPathTest, MissingFileIsNotFoundWithHint) {
  absl::StatusOr<std::vector<std::string>> paths = RunfilesPaths(
      "", {"sgmcmc/data/kos/vocab.kos.txt", "sgmcmc/data/no_such_file"}, "what", "; hint");
  ASSERT_EQ(paths.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StartsWith(paths.status().message(), "what: '")) << paths.status();
  EXPECT_TRUE(absl::EndsWith(paths.status().message(), "no_such_file' is not a file; hint"))
      << paths.status();
}

}  // namespace
}  // namespace sgmcmc::data
