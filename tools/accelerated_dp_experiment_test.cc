#include "tools/accelerated_dp_experiment.h"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "gtest/gtest.h"
#include "parallel/communicator.h"
#include "rng/categorical.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/multinomial.h"
#include "testing/file_testing.h"
#include "tools/accelerated_dp_checkpoint.pb.h"
#include "tools/checkpoint_file.h"

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

// The generating mixture of SyntheticMixtureCounts (models::SyntheticMultinomialMixture's
// draws, in its order: the atoms θ_c ~ Dir(γ), the weights ~ Dir(1), then the rows), redrawn
// here so that the test has the truth; the rows are redrawn too and must equal the data.
struct TrueMixture {
  std::vector<double> atoms, weights;  // components x dimension, components
};

TrueMixture RedrawTrueMixture(const AcceleratedDpExperimentOptions& o,
                              const models::CountMatrix& train,
                              const models::CountMatrix& test) {
  rng::Engine engine(o.data_seed);
  const int d = o.dimension, k = o.true_components;
  TrueMixture truth{std::vector<double>(static_cast<size_t>(k) * d), std::vector<double>(k)};
  const std::vector<double> base(d, o.gamma), ones(k, 1.0);
  for (int c = 0; c < k; ++c) {
    rng::DirichletSample(engine, base, absl::MakeSpan(truth.atoms.data() + c * d, d));
  }
  rng::DirichletSample(engine, ones, absl::MakeSpan(truth.weights));
  std::vector<int64_t> counts(d);
  for (const models::CountMatrix* m : {&train, &test}) {
    for (int64_t i = 0; i < m->rows(); ++i) {
      const int c = rng::CategoricalSample(engine, truth.weights);
      rng::MultinomialSample(engine, o.counts_per_point,
                             absl::MakeConstSpan(truth.atoms.data() + c * d, d),
                             absl::MakeSpan(counts));
      for (int j = 0; j < d; ++j) EXPECT_EQ(m->row(i)[j], counts[j]) << "row " << i;
    }
  }
  return truth;
}

// log Σ_c w_c Mult(x | N, θ_c) of one row, multinomial coefficient included.
double OracleLogLikelihood(const TrueMixture& truth, const double* x, int d) {
  double n = 0, log_coefficient = 0;
  for (int j = 0; j < d; ++j) {
    n += x[j];
    log_coefficient -= std::lgamma(x[j] + 1);
  }
  log_coefficient += std::lgamma(n + 1);
  double max_term = -std::numeric_limits<double>::infinity();
  std::vector<double> terms;
  for (size_t c = 0; c < truth.weights.size(); ++c) {
    double term = std::log(truth.weights[c]);
    for (int j = 0; j < d; ++j) {
      if (x[j] > 0) term += x[j] * std::log(truth.atoms[c * d + j]);
    }
    terms.push_back(term);
    max_term = std::max(max_term, term);
  }
  double sum = 0;
  for (const double t : terms) sum += std::exp(t - max_term);
  return log_coefficient + max_term + std::log(sum);
}

// Every sampler against an independent reference: the test log-likelihood under the true
// generating mixture (the oracle). A posterior draw's predictive falls short of the oracle by
// its KL to the truth, about (parameters) / (training rows) nats per test row for a
// well-specified model (half from the posterior mean's error, half from the draw's spread):
// 10 components x (9 + 1) parameters / 300 rows = 0.33 nats, 13 nats over 40 test rows. The
// allowance is 3x that, 40 nats, for the test rows' own chance fluctuation and the DP's
// spare small clusters; measured 11-24 nats short. A sampler stuck in one cluster, or with
// its clusters mixed up, is hundreds of nats short (one multinomial fitted to all training
// rows: checked below). Above the oracle by more than 10 nats (a sum of 40 rows' log ratios
// whose mean is negative) would mean an overfitted or wrongly normalised predictive.
TEST(AcceleratedDpExperimentTest, ExactSamplersReachTheOracleLogLikelihood) {
  AcceleratedDpExperimentOptions options = Small();
  options.inits = {"random"};
  const AcceleratedDpResult a = RunOn(2, options), b = RunOn(2, options);
  EXPECT_EQ(WithoutSeconds(a), WithoutSeconds(b));
  models::CountMatrix train, test;
  SyntheticMixtureCounts(options, &train, &test);
  const TrueMixture truth = RedrawTrueMixture(options, train, test);
  double oracle = 0;
  for (int64_t i = 0; i < test.rows(); ++i) {
    oracle += OracleLogLikelihood(truth, test.row(i), options.dimension);
  }
  // The check has power: one multinomial fitted to all training rows is far below.
  std::vector<double> pooled(options.dimension, 0.0);
  for (size_t j = 0; j < train.values.size(); ++j) pooled[j % options.dimension] += train.values[j];
  double total = 0;
  for (const double c : pooled) total += c;
  const TrueMixture one_cluster{[&] {
    std::vector<double> atom = pooled;
    for (double& x : atom) x /= total;
    return atom;
  }(), {1.0}};
  double one_cluster_ll = 0;
  for (int64_t i = 0; i < test.rows(); ++i) {
    one_cluster_ll += OracleLogLikelihood(one_cluster, test.row(i), options.dimension);
  }
  EXPECT_LT(one_cluster_ll, oracle - 400);
  std::map<std::string, double> final_ll;
  for (const AcceleratedDpTracePoint& p : a.trace) final_ll[p.method] = p.test_log_likelihood;
  ASSERT_EQ(final_ll.size(), 4u);
  for (const auto& [method, ll] : final_ll) {
    std::cout << method << ": test log-likelihood " << ll << ", oracle " << oracle
              << ", one cluster " << one_cluster_ll << "\n";
    EXPECT_GT(ll, oracle - 40) << method;
    EXPECT_LT(ll, oracle + 10) << method;
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
  // The reader's check named IdxCountOptions.max_count (the tool said
  // "--IdxCountOptions.max_count"): now this struct's field, the tool's --max_count.
  o = AcceleratedDpExperimentOptions();
  o.max_count = 0;
  EXPECT_EQ(o.Validate(), absl::InvalidArgumentError("max_count must be in [1, 255], got 0"));
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

// Every trace point's numbers, bit for bit (not printed), the seconds aside.
void ExpectSameTrace(const AcceleratedDpResult& a, const AcceleratedDpResult& b) {
  ASSERT_EQ(a.trace.size(), b.trace.size());
  for (size_t i = 0; i < a.trace.size(); ++i) {
    EXPECT_EQ(a.trace[i].method, b.trace[i].method) << i;
    EXPECT_EQ(a.trace[i].iteration, b.trace[i].iteration) << i;
    EXPECT_EQ(a.trace[i].test_log_likelihood, b.trace[i].test_log_likelihood) << i;
    EXPECT_EQ(a.trace[i].features, b.trace[i].features) << i;
    EXPECT_EQ(a.trace[i].alpha, b.trace[i].alpha) << i;
  }
  ASSERT_EQ(a.features.size(), b.features.size());
  for (size_t f = 0; f < a.features.size(); ++f) {
    EXPECT_EQ(a.features[f].probabilities, b.features[f].probabilities) << f;
    EXPECT_EQ(a.features[f].sizes, b.features[f].sizes) << f;
  }
}

// Each method interrupted inside its run (stop_after 7: the parallel samplers stop at their
// synchronisation at 8, inside the accelerated stage; then, resumed, at 13 -> 16, in the exact
// stage), its state saved every 3 iterations on the way, and resumed to the end on 2 workers,
// ends bit-identical to the uninterrupted job: every trace point and the final features.
TEST(AcceleratedDpExperimentTest, InterruptedInsideRunsAndResumedEqualsTheUninterruptedJob) {
  AcceleratedDpExperimentOptions options = Small();
  options.train_points = 150;
  options.iterations = 20;
  options.accelerated_iterations = 10;
  options.sync_every = 4;
  options.inits = {"random"};
  const std::string dir = absl::StrCat(::testing::TempDir(), "/adp_inside");
  std::filesystem::create_directories(dir);
  // The accelerated sampler twice: with the Dirichlet base, and with the logistic-normal one,
  // whose parameters the synchronisations move (saved as the model's global state).
  const std::pair<std::string, std::string> cases[] = {{"accelerated", "dirichlet"},
                                                       {"hybrid", "dirichlet"},
                                                       {"collapsed", "dirichlet"},
                                                       {"uncollapsed", "dirichlet"},
                                                       {"accelerated", "logistic_normal"}};
  for (const auto& [method, likelihood] : cases) {
    options.likelihood = likelihood;
    options.methods = {method};
    options.checkpoint_path.clear();
    options.checkpoint_every = options.stop_after = 0;
    options.resume = false;
    const AcceleratedDpResult whole = RunOn(2, options);
    options.checkpoint_path = absl::StrCat(dir, "/", method, "_", options.likelihood, ".pb");
    options.checkpoint_every = 3;
    options.stop_after = 7;
    EXPECT_FALSE(RunOn(2, options).complete) << method;
    options.resume = true;
    options.stop_after = 13;
    std::ostringstream log;
    options.progress = &log;
    EXPECT_FALSE(RunOn(2, options).complete) << method;
    options.progress = nullptr;
    const int64_t first_stop = method == "collapsed" || method == "uncollapsed" ? 7 : 8;
    EXPECT_TRUE(absl::StrContains(log.str(), absl::StrCat(": 0 run(s) done; ", method,
                                                          "/random at iteration ", first_stop)))
        << log.str();
    options.stop_after = 0;
    const AcceleratedDpResult resumed = RunOn(2, options);
    EXPECT_TRUE(resumed.complete) << method;
    ExpectSameTrace(resumed, whole);
  }
}

// A saved state that does not fit the run (a well-formed file from another version or by hand)
// is refused naming the file and the run, not resumed from or crashed on.
TEST(AcceleratedDpExperimentTest, ASavedStateThatDoesNotFitIsRefused) {
  AcceleratedDpExperimentOptions options = Small();
  options.train_points = 100;
  options.iterations = 10;
  options.methods = {"collapsed"};
  options.inits = {"one"};
  options.checkpoint_path = absl::StrCat(::testing::TempDir(), "/adp_misfit.pb");
  options.stop_after = 5;
  EXPECT_FALSE(RunOn(1, options).complete);
  AcceleratedDpCheckpoint checkpoint;
  ASSERT_TRUE(checkpoint.ParseFromString(
      ReadCheckpoint(options.checkpoint_path, "accelerated_dp").value()));
  ASSERT_EQ(checkpoint.in_progress().run(), "collapsed/one");
  checkpoint.mutable_in_progress()->mutable_collapsed()->mutable_allocations()->RemoveLast();
  ASSERT_TRUE(WriteCheckpoint(options.checkpoint_path, "accelerated_dp",
                              checkpoint.SerializeAsString())
                  .ok());
  options.resume = true;
  options.stop_after = 0;
  auto model = parallel::MakeSingleProcessCommunicator();
  const absl::Status status = RunAcceleratedDpExperiment(options, *model).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_EQ(status.message(),
            options.checkpoint_path +
                ": the saved state of collapsed/one does not fit: DpNeal8State.allocations has "
                "99 labels for 100 rows");
}

}  // namespace
}  // namespace sgmcmc::tools
