#include "tools/tool_support.h"

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;

std::string TempDir() { return std::getenv("TEST_TMPDIR"); }

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

TEST(FromWorkingDirectoryTest, RelativePathsAreTakenFromTheBazelRunDirectory) {
  ASSERT_EQ(setenv("BUILD_WORKING_DIRECTORY", "/home/me/src", 1), 0);
  EXPECT_EQ(FromWorkingDirectory("out/x.csv"), "/home/me/src/out/x.csv");
  EXPECT_EQ(FromWorkingDirectory("/abs/x.csv"), "/abs/x.csv");
  EXPECT_EQ(FromWorkingDirectory(""), "");
  ASSERT_EQ(unsetenv("BUILD_WORKING_DIRECTORY"), 0);
  EXPECT_EQ(FromWorkingDirectory("out/x.csv"), "out/x.csv");
}

TEST(CreateOutputDirectoryTest, CreatesParentsAndNamesTheFlagOnError) {
  const std::string dir = TempDir() + "/a/b/c";
  ASSERT_TRUE(CreateOutputDirectory(dir, "--output_dir").ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_TRUE(CreateOutputDirectory(dir, "--output_dir").ok());  // already there

  const std::string file = TempDir() + "/plain_file";
  ASSERT_TRUE(WriteFile(file, "x").ok());
  const absl::Status status = CreateOutputDirectory(file + "/sub", "--output_dir");
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(status.message(), HasSubstr("--output_dir: cannot create " + file + "/sub"));
}

TEST(WriteFileTest, ReplacesTheContentsAndLeavesNoTemporary) {
  const std::string path = TempDir() + "/w.csv";
  ASSERT_TRUE(WriteFile(path, "first, longer contents\n").ok());
  ASSERT_TRUE(WriteFile(path, std::string("a\0b\n", 4)).ok());
  EXPECT_EQ(ReadAll(path), std::string("a\0b\n", 4));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(WriteFileTest, PiecesAreWrittenInOrder) {
  const std::string path = TempDir() + "/pieces.bin";
  const absl::string_view pieces[] = {"head|", "", absl::string_view("a\0b", 3), "|tail"};
  ASSERT_TRUE(WriteFilePieces(path, pieces).ok());
  EXPECT_EQ(ReadAll(path), std::string("head|a\0b|tail", 13));
  ASSERT_TRUE(WriteFilePieces(path, {}).ok());
  EXPECT_EQ(ReadAll(path), "");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  const absl::string_view one[] = {"x"};
  EXPECT_THAT(WriteFilePieces(TempDir() + "/missing_dir/p.bin", one).message(),
              HasSubstr("missing_dir/p.bin"));
}

TEST(WriteFileTest, ErrorNamesThePath) {
  const std::string path = TempDir() + "/missing_dir/w.csv";
  const absl::Status status = WriteFile(path, "x");
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(status.message(), HasSubstr(path));
}

// 100000 threads ended in std::system_error from std::thread (abort) in every tool.
TEST(CheckThreadCountTest, AcceptsOneToTheMaximum) {
  EXPECT_TRUE(CheckThreadCount("--threads", 1).ok());
  EXPECT_TRUE(CheckThreadCount("--threads", kMaxThreads).ok());
  EXPECT_EQ(CheckThreadCount("--threads", 0),
            absl::InvalidArgumentError("--threads must be in [1, 1024], got 0"));
  EXPECT_EQ(CheckThreadCount("--workers", 100000),
            absl::InvalidArgumentError("--workers must be in [1, 1024], got 100000"));
}

TEST(ReadFileTest, ReadsTheBytesAndRefusesADirectory) {
  const std::string path = TempDir() + "/r.pb";
  ASSERT_TRUE(WriteFile(path, std::string("a\0b\n", 4)).ok());
  EXPECT_EQ(ReadFile(path).value(), std::string("a\0b\n", 4));
  EXPECT_EQ(ReadFile(TempDir() + "/absent.pb").status().code(), absl::StatusCode::kNotFound);
  // A directory read as the empty string: a checkpoint "of other settings", or an empty proto.
  const std::string dir = TempDir() + "/checkpoint_dir.pb";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(ReadFile(dir).status(),
            absl::InvalidArgumentError(dir + ": is a directory, not a file"));
}

TEST(WriteFilesTest, WritesEveryFileIntoTheDirectory) {
  const std::string dir = TempDir() + "/files";
  ASSERT_TRUE(CreateOutputDirectory(dir, "dir").ok());
  ASSERT_TRUE(WriteFiles(dir, {{"a.csv", "a\n"}, {"b.txt", "b\n"}}).ok());
  EXPECT_EQ(ReadAll(dir + "/a.csv"), "a\n");
  EXPECT_EQ(ReadAll(dir + "/b.txt"), "b\n");
  EXPECT_EQ(WriteFiles(dir + "/missing", {{"a.csv", "a\n"}}).code(),
            absl::StatusCode::kUnavailable);
}

TEST(SecondsSinceTest, IsNonNegativeAndSmallRightAway) {
  const double seconds = SecondsSince(std::chrono::steady_clock::now());
  EXPECT_GE(seconds, 0);
  EXPECT_LT(seconds, 1);
}

TEST(HumanRateTest, PicksTheSuffix) {
  EXPECT_EQ(HumanRate(0), "0");
  EXPECT_EQ(HumanRate(950.4), "950");
  EXPECT_EQ(HumanRate(12345), "12.3k");
  EXPECT_EQ(HumanRate(2.345e6), "2.35M");
}

TEST(HumanSecondsTest, PicksTheUnit) {
  EXPECT_EQ(HumanSeconds(42.4), "42s");
  EXPECT_EQ(HumanSeconds(210), "3.5min");
  EXPECT_EQ(HumanSeconds(4320), "1.2h");
}

TEST(RateAndEtaTest, ExtrapolatesTheRemainingUnits) {
  EXPECT_EQ(RateAndEta(500, 1000, 2, "it"), "250 it/s  ETA 2s");
  EXPECT_EQ(RateAndEta(3000, 1e6, 1, "docs"), "3.0k docs/s  ETA 5.5min");
  EXPECT_EQ(RateAndEta(0, 10, 0, "chains"), "0 chains/s  ETA 0s");
}

TEST(AsFlagErrorTest, PutsTheFlagDashesBeforeTheFieldName) {
  const absl::Status status = AsFlagError(absl::InvalidArgumentError("num_seeds must be >= 1"));
  EXPECT_EQ(status, absl::InvalidArgumentError("--num_seeds must be >= 1"));
  EXPECT_TRUE(AsFlagError(absl::OkStatus()).ok());
}

TEST(NameFlagsTest, ReplacesTheStructFieldsByTheFlagsTheUserWrote) {
  const absl::Status status =
      NameFlags(absl::InvalidArgumentError(
                    "Sggmc: StepSizeOptions.h must be finite and > 0, got 0"),
                {{"GeodesicSamplerOptions.friction", "--friction"}, {"StepSizeOptions.h", "--step"}});
  EXPECT_EQ(status, absl::InvalidArgumentError("Sggmc: --step must be finite and > 0, got 0"));
  // Every occurrence; the code is kept.
  EXPECT_EQ(NameFlags(absl::OutOfRangeError("a and a, not b"), {{"a", "--x"}}),
            absl::OutOfRangeError("--x and --x, not b"));
  EXPECT_TRUE(NameFlags(absl::OkStatus(), {{"a", "--x"}}).ok());
}

TEST(NameFlagsTest, MatchesWholeWordsOnly) {
  const std::initializer_list<FlagName> names = {{"h", "--step"}, {"step_size", "--sgld_step"}};
  // Inside a longer name, after a '.', after "--", or followed by a word: unchanged.
  for (const char* message :
       {"StepSizeOptions.h must be > 0", "--h must be > 0", "hamcmc_step_size is 0",
        "step_size_max is 0", "step_size.x is 0", "gmc_step_size is 0"}) {
    EXPECT_EQ(NameFlags(absl::InvalidArgumentError(message), names),
              absl::InvalidArgumentError(message))
        << message;
  }
  // A sentence's full stop ends the word.
  EXPECT_EQ(NameFlags(absl::InvalidArgumentError("bad step_size."), names),
            absl::InvalidArgumentError("bad --sgld_step."));
  EXPECT_EQ(NameFlags(absl::InvalidArgumentError("(step_size) h"), names),
            absl::InvalidArgumentError("(--sgld_step) --step"));
}

TEST(NameFlagsTest, KeepsPayloads) {
  absl::Status error = absl::InvalidArgumentError("x must be > 0");
  error.SetPayload("type.example/line", absl::Cord("12"));
  const absl::Status renamed = NameFlags(error, {{"x", "--y"}});
  EXPECT_EQ(renamed.message(), "--y must be > 0");
  EXPECT_EQ(renamed.GetPayload("type.example/line"), absl::Cord("12"));
}

TEST(ReportToolStatusTest, ZeroIfOkElseOneWithTheProgramAndStatusOnStderr) {
  EXPECT_EQ(ReportToolStatus("/x/bazel-bin/tools/my_tool", absl::OkStatus()), 0);
  testing::internal::CaptureStderr();
  EXPECT_EQ(ReportToolStatus("/x/bazel-bin/tools/my_tool",
                             absl::InvalidArgumentError("--flag must be >= 1")),
            1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "my_tool: INVALID_ARGUMENT: --flag must be >= 1\n");
}

TEST(ToolMainTest, ParsesTheFlagsAndRunsTheBodyWithArgv0) {
  char program[] = "/x/tools/my_tool";
  char* argv[] = {program, nullptr};
  std::string seen;
  testing::internal::CaptureStderr();
  const int code = ToolMain(1, argv, "usage", [&](const char* argv0) {
    seen = argv0;
    return absl::NotFoundError("no input");
  });
  EXPECT_EQ(code, 1);
  EXPECT_EQ(seen, "/x/tools/my_tool");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "my_tool: NOT_FOUND: no input\n");
}

}  // namespace
}  // namespace sgmcmc::tools
