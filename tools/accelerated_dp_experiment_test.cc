#include "tools/accelerated_dp_experiment.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "gtest/gtest.h"
#include "parallel/communicator.h"
#include "testing/file_testing.h"

namespace sgmcmc::tools {
namespace {

AcceleratedDpExperimentOptions Small() {
  AcceleratedDpExperimentOptions o;
  o.train_points = 300;
  o.test_points = 40;
  o.iterations = 60;
  o.accelerated_iterations = 20;
  o.initial_clusters = 20;
  return o;
}

AcceleratedDpResult RunOn(int workers, const AcceleratedDpExperimentOptions& options) {
  AcceleratedDpResult result;
  const absl::Status status =
      parallel::RunOnThreads(workers, [&](parallel::Communicator& comm) -> absl::Status {
        SGMCMC_ASSIGN_OR_RETURN(AcceleratedDpResult r, RunAcceleratedDpExperiment(options, comm));
        if (comm.rank() == 0) result = r;
        return absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  return result;
}

std::vector<std::string> WithoutSeconds(const AcceleratedDpResult& r) {
  std::vector<std::string> rows;
  for (const AcceleratedDpTracePoint& p : r.trace) {
    rows.push_back(absl::StrCat(p.method, p.init, p.iteration, ",", p.test_log_likelihood, ",",
                                p.features, ",", p.alpha));
  }
  return rows;
}

TEST(AcceleratedDpExperimentTest, ExactSamplersAgreeAndRunsAreReproducible) {
  AcceleratedDpExperimentOptions options = Small();
  options.inits = {"random"};
  const AcceleratedDpResult a = RunOn(2, options), b = RunOn(2, options);
  EXPECT_EQ(WithoutSeconds(a), WithoutSeconds(b));
  std::map<std::string, double> final_ll;
  for (const AcceleratedDpTracePoint& p : a.trace) final_ll[p.method] = p.test_log_likelihood;
  ASSERT_EQ(final_ll.size(), 4u);
  // Every sampler ends within 2% of Algorithm 8 on this easy, well-separated problem (the
  // spread between chains at stationarity is well under 1% here).
  for (const auto& [method, ll] : final_ll) {
    EXPECT_NEAR(ll, final_ll["collapsed"], 0.02 * std::abs(final_ll["collapsed"])) << method;
  }
  const std::string csv = AcceleratedDpTraceCsv(a);
  EXPECT_TRUE(absl::StartsWith(csv, "method,init,iteration,seconds,test_log_likelihood"));
  const std::string summary = AcceleratedDpSummary(a);
  EXPECT_TRUE(absl::StrContains(summary, "# speedup random ")) << summary;
}

TEST(AcceleratedDpExperimentTest, CpuClockChangesOnlyTheSeconds) {
  AcceleratedDpExperimentOptions options = Small();
  options.iterations = 20;
  options.inits = {"one"};
  const AcceleratedDpResult wall = RunOn(3, options);
  options.clock = "cpu";
  const AcceleratedDpResult cpu = RunOn(3, options);
  EXPECT_EQ(WithoutSeconds(wall), WithoutSeconds(cpu));
  // Per run, the CPU seconds start at 0, never decrease and end > 0 (every run did work).
  for (size_t j = 0; j < cpu.trace.size(); ++j) {
    const AcceleratedDpTracePoint& p = cpu.trace[j];
    const bool first = j == 0 || cpu.trace[j - 1].method != p.method;
    if (first && p.iteration == 0) EXPECT_EQ(p.seconds, 0) << p.method;
    if (!first) EXPECT_GE(p.seconds, cpu.trace[j - 1].seconds) << p.method;
    const bool last = j + 1 == cpu.trace.size() || cpu.trace[j + 1].method != p.method;
    if (last) EXPECT_GT(p.seconds, 0) << p.method;
  }
  EXPECT_TRUE(absl::StrContains(AcceleratedDpSummary(cpu), "# clock cpu"));
  EXPECT_FALSE(absl::StrContains(AcceleratedDpSummary(wall), "# clock"));
}

TEST(AcceleratedDpExperimentTest, KMeansSeparatesDisjointSupports) {
  models::CountMatrix data{4, {9, 1, 0, 0, 0, 0, 8, 2, 10, 0, 0, 0, 0, 0, 1, 9}};
  const std::vector<int32_t> labels = KMeansLabels(data, 2, 5, 3);
  EXPECT_EQ(labels[0], labels[2]);
  EXPECT_EQ(labels[1], labels[3]);
  EXPECT_NE(labels[0], labels[1]);
}

TEST(AcceleratedDpExperimentTest, ValidateNamesTheField) {
  AcceleratedDpExperimentOptions o;
  o.methods = {"gibbs"};
  EXPECT_TRUE(absl::StrContains(o.Validate().message(), "unknown method 'gibbs'"));
  o = AcceleratedDpExperimentOptions();
  o.clock = "cycles";
  EXPECT_TRUE(absl::StrContains(o.Validate().message(), "clock: expected wall or cpu"));
  o = AcceleratedDpExperimentOptions();
  o.sync_every = 0;
  EXPECT_TRUE(absl::StrContains(o.Validate().message(), "sync_every must be >= 1"));
  o = AcceleratedDpExperimentOptions();
  o.methods = {};
  EXPECT_TRUE(absl::StrContains(o.Validate().message(), "methods must name at least one"));
  o = AcceleratedDpExperimentOptions();
  o.inits = {};
  EXPECT_TRUE(absl::StrContains(o.Validate().message(), "inits must name at least one"));
}

TEST(AcceleratedDpExperimentTest, ProgressLinesFromRankZeroAndNoNanSpeedup) {
  AcceleratedDpExperimentOptions options = Small();
  options.train_points = 100;
  options.iterations = 5;  // < sync_every: accelerated has only its starting trace point
  options.methods = {"accelerated", "collapsed"};
  options.inits = {"one"};
  std::ostringstream progress;
  options.progress = &progress;
  const AcceleratedDpResult r = RunOn(2, options);
  // Collapsed: one line per iteration here (a tenth of 5 is 1); accelerated: none before its
  // first synchronisation, one at the end.
  EXPECT_TRUE(absl::StrContains(progress.str(), "[collapsed one] iteration 5/5")) << progress.str();
  EXPECT_TRUE(absl::StrContains(progress.str(), "[collapsed one] iteration 1/5"));
  EXPECT_FALSE(absl::StrContains(progress.str(), "[accelerated one] iteration 5/5"));
  const std::string summary = AcceleratedDpSummary(r);
  // (seconds_to_1pct is NaN in the CSV row, as documented; the speedup line says n/a.)
  EXPECT_FALSE(absl::StrContains(summary, "nans")) << summary;
  EXPECT_TRUE(absl::StrContains(summary, "# speedup one n/a (accelerated never within 1%)"))
      << summary;
}

// One training point: every run is within 1% from its first evaluation (0 s), so there is no
// finite ratio; the summary says so instead of "speedup >= inf".
TEST(AcceleratedDpExperimentTest, NoInfiniteSpeedupWhenWithinOnePercentAtTheStart) {
  AcceleratedDpExperimentOptions options = Small();
  options.train_points = 1;
  options.methods = {"accelerated", "collapsed"};
  options.inits = {"one"};
  const std::string summary = AcceleratedDpSummary(RunOn(1, options));
  EXPECT_FALSE(absl::StrContains(summary, "inf")) << summary;
  EXPECT_TRUE(absl::StrContains(
      summary, "# speedup one n/a (accelerated within 1% at its first evaluation, 0 s)"))
      << summary;
}

}  // namespace
}  // namespace sgmcmc::tools

namespace sgmcmc::tools {
namespace {

TEST(AcceleratedDpExperimentTest, LogisticNormalLikelihoodRunsReproduciblyAndKeepsFeatures) {
  AcceleratedDpExperimentOptions options = Small();
  options.train_points = 120;
  options.iterations = 20;
  options.accelerated_iterations = 10;
  options.likelihood = "logistic_normal";
  options.logistic_normal_rank = 2;
  options.methods = {"accelerated", "collapsed"};
  options.inits = {"kmeans"};
  options.max_features_kept = 3;
  const AcceleratedDpResult a = RunOn(2, options), b = RunOn(2, options);
  EXPECT_EQ(WithoutSeconds(a), WithoutSeconds(b));
  ASSERT_EQ(a.features.size(), 2u);
  for (const AcceleratedDpFeatures& f : a.features) {
    ASSERT_EQ(f.sizes.size(), 3u) << f.method;
    EXPECT_GE(f.sizes[0], f.sizes[1]);
    EXPECT_GE(f.sizes[1], f.sizes[2]);
    double total = 0;  // θ_k sums to one
    for (int j = 0; j < f.dimension; ++j) total += f.probabilities[j];
    EXPECT_NEAR(total, 1.0, 1e-9) << f.method;
  }
  for (const AcceleratedDpTracePoint& p : a.trace) {
    EXPECT_TRUE(std::isfinite(p.test_log_likelihood)) << p.method << " " << p.iteration;
  }
}

TEST(AcceleratedDpExperimentTest, MissingFashionMnistNamesTheFile) {
  AcceleratedDpExperimentOptions options = Small();
  options.fashion_mnist_dir = "/nonexistent/fashion";
  const absl::Status status = LoadAcceleratedDpData(options).status();
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "/nonexistent/fashion/train-images-idx3-ubyte"))
      << status;
  options.fashion_mnist_dir.clear();
  options.likelihood = "gaussian";
  EXPECT_TRUE(absl::StrContains(options.Validate().message(), "likelihood"));
}

// Writes an IDX images file (magic 0x00000803, sizes count x rows x cols, every pixel `pixel`)
// to TempDir()/name, plain under the .gz name (zlib passes plain files through).
void WriteIdxImages(const std::string& name, int count, int rows, int cols, char pixel = 100) {
  std::string bytes = {0, 0, 8, 3};
  for (const int size : {count, rows, cols}) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>(size >> shift));
  }
  bytes.append(static_cast<size_t>(count) * rows * cols, pixel);
  testing::WriteRawTestFile(name, bytes);
}

// Images of one pixel reached the model's CHECK (dimension >= 2, abort), and test images of
// another size than the training images ran silently with mismatched rows.
TEST(AcceleratedDpExperimentTest, RejectsDegenerateOrMismatchedImages) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/idx_shapes");
  std::filesystem::create_directories(dir);
  const std::string train_path = dir + "/train-images-idx3-ubyte.gz";
  const std::string test_path = dir + "/t10k-images-idx3-ubyte.gz";
  AcceleratedDpExperimentOptions options = Small();
  options.fashion_mnist_dir = dir;
  options.train_points = 3;
  options.test_points = 2;
  WriteIdxImages("idx_shapes/train-images-idx3-ubyte.gz", 3, 1, 1);
  WriteIdxImages("idx_shapes/t10k-images-idx3-ubyte.gz", 2, 1, 1);
  EXPECT_EQ(LoadAcceleratedDpData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(
                train_path, ": byte 8: images of 1 x 1 pixels, need >= 2 pixels (the counts' "
                            "dimension)")));
  WriteIdxImages("idx_shapes/train-images-idx3-ubyte.gz", 3, 4, 4);
  WriteIdxImages("idx_shapes/t10k-images-idx3-ubyte.gz", 2, 2, 4);
  EXPECT_EQ(LoadAcceleratedDpData(options).status(),
            absl::InvalidArgumentError(
                absl::StrCat(test_path, ": byte 8: images of 2 x 4 = 8 pixels, but the training "
                                        "images have 16")));
  WriteIdxImages("idx_shapes/t10k-images-idx3-ubyte.gz", 2, 4, 4);
  absl::StatusOr<AcceleratedDpData> data = LoadAcceleratedDpData(options);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->test.dimension, 16);
  // The features are rendered in the loader's shape, not an assumed 28 x 28.
  EXPECT_EQ(data->image_rows, 4);
  EXPECT_EQ(data->image_cols, 4);
  // 0 images: all of them.
  options.train_points = 0;
  EXPECT_EQ(LoadAcceleratedDpData(options)->train.rows(), 3);
  // All-zero images were accepted: refused, naming the image and its byte offset; so are
  // images whose every pixel falls below the first count level at a small max_count.
  WriteIdxImages("idx_shapes/t10k-images-idx3-ubyte.gz", 2, 4, 4, 0);
  EXPECT_EQ(LoadAcceleratedDpData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(
                test_path, ": byte 16: image 0 has no count (every pixel below 1 at "
                           "--max_count=255): an all-zero image")));
  WriteIdxImages("idx_shapes/t10k-images-idx3-ubyte.gz", 2, 4, 4, 100);
  options.max_count = 1;  // counts from pixel 128 on
  EXPECT_EQ(LoadAcceleratedDpData(options).status(),
            absl::InvalidArgumentError(absl::StrCat(
                train_path, ": byte 16: image 0 has no count (every pixel below 128 at "
                            "--max_count=1): an all-zero image")));
}

// A UCI corpus as dense rows over its vocabulary: the count-0 entry and the empty document are
// said, not dropped silently; the cap on rows is said; the names come from the vocabulary.
TEST(AcceleratedDpExperimentTest, ReadsUciCorporaAndSaysWhatItDrops) {
  const std::string train = testing::WriteTestFile(
      "adp_docword.train.txt", "4\n3\n5\n1 1 2\n1 2 1\n2 3 0\n3 3 4\n4 1 1\n");
  const std::string test = testing::WriteTestFile("adp_docword.test.txt", "1\n3\n1\n1 2 5\n");
  const std::string vocab = testing::WriteTestFile("adp_vocab.txt", "apple\nbanana\ncherry\n");
  AcceleratedDpExperimentOptions options = Small();
  options.train_path = train;
  options.test_path = test;
  options.vocab_path = vocab;
  options.train_points = 2;
  options.test_points = 0;
  ASSERT_TRUE(options.Validate().ok()) << options.Validate();
  absl::StatusOr<AcceleratedDpData> data = LoadAcceleratedDpData(options);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->image_rows, 0);
  EXPECT_EQ(data->item_names, (std::vector<std::string>{"apple", "banana", "cherry"}));
  EXPECT_EQ(data->train.dimension, 3);
  EXPECT_EQ(data->train.values, (std::vector<double>{2, 1, 0, 0, 0, 4}));
  EXPECT_EQ(data->test.values, (std::vector<double>{0, 5, 0}));
  const std::string notes = absl::StrJoin(data->notes, "\n");
  EXPECT_TRUE(absl::StrContains(notes, "(1 with count 0)")) << notes;
  EXPECT_TRUE(absl::StrContains(notes, train + ": 1 of 4 rows without a count dropped")) << notes;
  EXPECT_TRUE(absl::StrContains(
      notes, train + ": the first 2 of 3 rows with counts used (--train_points; 0: all)"))
      << notes;
  // The dense rows are bounded before they are allocated.
  options.vocab_path = testing::WriteTestFile("adp_vocab_big.txt", "a\nb\nc\n");
  options.max_vocabulary = 0;
  EXPECT_TRUE(absl::StrContains(options.Validate().message(), "max_vocabulary must be >= 1"));
  options.max_vocabulary = 1000;
  options.text = true;
  EXPECT_TRUE(absl::StrContains(options.Validate().message(), "text: raw text builds"));
  options.text = false;
  options.test_path.clear();
  EXPECT_EQ(options.Validate().message(), "train: needs --test (both corpus files, or neither)");
}

// Raw text: the vocabulary of the training text names the test text's words; words outside it
// are dropped and counted; the run fits and writes a feature table by name.
TEST(AcceleratedDpExperimentTest, ReadsRawTextAndWritesFeatureTables) {
  const std::string train = testing::WriteTestFile(
      "adp_train.txt",
      "apple banana apple\ncherry cherry grape\napple banana banana\ngrape cherry grape\n");
  const std::string test =
      testing::WriteTestFile("adp_test.txt", "apple kiwi banana\ncherry grape\n");
  AcceleratedDpExperimentOptions options = Small();
  options.train_path = train;
  options.test_path = test;
  options.text = true;
  options.train_points = 0;
  options.test_points = 0;
  options.methods = {"collapsed"};
  options.inits = {"random"};
  options.initial_clusters = 50;
  options.iterations = 5;
  absl::StatusOr<AcceleratedDpData> data = LoadAcceleratedDpData(options);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->item_names,
            (std::vector<std::string>{"apple", "banana", "cherry", "grape"}));
  EXPECT_EQ(data->test.values, (std::vector<double>{1, 1, 0, 0, 0, 0, 1, 1}));
  EXPECT_TRUE(absl::StrContains(absl::StrJoin(data->notes, "\n"),
                                test + ": 1 tokens of words outside the training vocabulary "
                                       "dropped"));
  const AcceleratedDpResult result = RunOn(1, options);
  // --initial_clusters above the rows: said, not clamped silently.
  EXPECT_TRUE(absl::StrContains(absl::StrJoin(result.notes, "\n"),
                                "--initial_clusters=50 exceeds the 4 training rows: the random "
                                "and k-means starts use 4 clusters"));
  ASSERT_EQ(result.features.size(), 1u);
  const std::string table = AcceleratedDpFeatureTable(result.features[0], result.item_names, 2);
  EXPECT_TRUE(absl::StartsWith(table, "feature,size,top_items\n0,")) << table;
  EXPECT_TRUE(absl::StrContains(table, "apple (") || absl::StrContains(table, "grape (")) << table;
}

// Auxiliary atoms without bound grew to 7.8 GB; max_count's error named IdxCountOptions.
TEST(AcceleratedDpExperimentTest, BoundsAuxiliaryAtomsAndNamesMaxCount) {
  AcceleratedDpExperimentOptions options = Small();
  options.num_auxiliary = 100000000;
  EXPECT_TRUE(absl::StartsWith(options.Validate().message(),
                               "num_auxiliary must be <= 10000, got 100000000"))
      << options.Validate();
  options.num_auxiliary = kMaxAuxiliary;
  EXPECT_TRUE(options.Validate().ok());
  options.max_count = 0;
  EXPECT_EQ(options.Validate().message(), "max_count must be in [1, 255], got 0");
}

// Synthetic sizes of billions of counts were allocated (bad_alloc).
TEST(AcceleratedDpExperimentTest, RejectsAbsurdSyntheticSizes) {
  AcceleratedDpExperimentOptions options = Small();
  options.dimension = 100000000;
  EXPECT_TRUE(absl::StrContains(options.Validate().message(),
                                "train_points + test_points times dimension must be <= 2147483647"))
      << options.Validate();
}

// A job stopped after 1 and after 3 of its 4 runs (method x start) and resumed, on 2 workers,
// ends where the uninterrupted job ends: the same trace (the seconds of the runs done before the
// stop kept from the checkpoint, the others re-measured) and the same features. A resume with
// other settings or another worker count is refused, naming the file; so is a damaged file.
TEST(AcceleratedDpExperimentTest, StoppedAndResumedJobEqualsTheUninterruptedJob) {
  AcceleratedDpExperimentOptions options = Small();
  options.iterations = 20;
  options.accelerated_iterations = 10;
  options.methods = {"accelerated", "collapsed"};
  options.inits = {"one", "kmeans"};
  const std::string dir = absl::StrCat(::testing::TempDir(), "/adp_checkpoint");
  std::filesystem::create_directories(dir);
  options.checkpoint_path = dir + "/whole.pb";
  const AcceleratedDpResult whole = RunOn(2, options);
  ASSERT_TRUE(whole.complete);
  for (const int stop : {1, 3}) {
    options.checkpoint_path = absl::StrCat(dir, "/parts", stop, ".pb");
    options.stop_after_runs = stop;
    const AcceleratedDpResult stopped = RunOn(2, options);
    EXPECT_FALSE(stopped.complete);
    options.stop_after_runs = 0;
    options.resume = true;
    std::ostringstream log;
    options.progress = &log;
    const AcceleratedDpResult resumed = RunOn(2, options);
    options.progress = nullptr;
    options.resume = false;
    EXPECT_TRUE(absl::StrContains(log.str(), absl::StrCat("resumed from ", options.checkpoint_path,
                                                          ": ", stop, " run(s) done")))
        << log.str();
    EXPECT_TRUE(resumed.complete);
    EXPECT_EQ(WithoutSeconds(resumed), WithoutSeconds(whole)) << stop;
    ASSERT_EQ(resumed.features.size(), whole.features.size());
    for (size_t f = 0; f < whole.features.size(); ++f) {
      EXPECT_EQ(resumed.features[f].method, whole.features[f].method);
      EXPECT_EQ(resumed.features[f].probabilities, whole.features[f].probabilities);
      EXPECT_EQ(resumed.features[f].sizes, whole.features[f].sizes);
    }
    // The runs done before the stop keep the seconds the stopped job measured.
    for (size_t i = 0; i < stopped.trace.size(); ++i) {
      EXPECT_EQ(resumed.trace[i].seconds, stopped.trace[i].seconds) << i;
    }
  }
  // Other settings, another worker count: refused, naming the checkpoint.
  options.resume = true;
  options.iterations = 21;
  auto fails = [&](int workers) {
    absl::Status status = parallel::RunOnThreads(workers, [&](parallel::Communicator& comm) {
      return RunAcceleratedDpExperiment(options, comm).status();
    });
    return status;
  };
  absl::Status refused = fails(2);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_TRUE(absl::StrContains(refused.message(),
                                options.checkpoint_path + ": written with different settings"));
  options.iterations = 20;
  EXPECT_EQ(fails(3).code(), absl::StatusCode::kFailedPrecondition);
  testing::FlipMiddleByte(options.checkpoint_path);
  EXPECT_EQ(fails(2).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace sgmcmc::tools
