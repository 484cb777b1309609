#include "tools/dp_mixture_run.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "data/embedded_msweb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "parallel/thread_pool.h"
#include "testing/file_testing.h"
#include "tools/checkpoint_file.h"
#include "tools/dp_mixture_checkpoint.pb.h"

namespace sgmcmc::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(DpMixtureRunTest, MethodsAndOptions) {
  EXPECT_EQ(ParseDpMethod("gibbs").value(), DpMethod::kGibbs);
  EXPECT_THAT(ParseDpMethod("hmc").status().message(), HasSubstr("scir, sgrld or gibbs"));
  DpExperimentOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.burn_in_fraction = 1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("burn_in_fraction"));
  options = DpExperimentOptions();
  const models::DpStochasticOptions sgrld = DpMethodOptions(DpMethod::kSgrld, 3, options);
  EXPECT_EQ(sgrld.sampler, models::DpSimplexSampler::kSgrld);
  EXPECT_EQ(sgrld.atom_step, 0.001);
  EXPECT_EQ(sgrld.model.seed, 3u);
}

// --atom_concentration, --atom_step and --stick_step replace Table 3's values for every method
// they apply to (the atom prior for Gibbs too); 0 keeps them; negative or NaN is rejected.
TEST(DpMixtureRunTest, AtomPriorAndStepOverrides) {
  DpExperimentOptions options;
  EXPECT_EQ(DpMethodOptions(DpMethod::kSgrld, 1, options).model.atom_concentration, 0.001);
  EXPECT_EQ(DpMethodOptions(DpMethod::kSgrld, 1, options).stick_step, 0.005);
  EXPECT_EQ(DpMethodOptions(DpMethod::kScir, 1, options).model.atom_concentration, 0.5);
  options.atom_concentration = 0.5;
  options.atom_step = 0.002;
  options.stick_step = 0.01;
  ASSERT_TRUE(options.Validate().ok());
  const models::DpStochasticOptions sgrld = DpMethodOptions(DpMethod::kSgrld, 1, options);
  EXPECT_EQ(sgrld.model.atom_concentration, 0.5);
  EXPECT_EQ(sgrld.atom_step, 0.002);
  EXPECT_EQ(sgrld.stick_step, 0.01);
  EXPECT_EQ(sgrld.model.initial_components, 30);
  options.initial_components = 20;
  EXPECT_EQ(DpMethodOptions(DpMethod::kSgrld, 1, options).model.initial_components, 20);
  options.atom_concentration = 0.001;
  EXPECT_EQ(DpMethodOptions(DpMethod::kGibbs, 1, options).model.atom_concentration, 0.001);
  options.atom_concentration = -1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("atom_concentration"));
  options.atom_concentration = 0;
  options.stick_step = std::nan("");
  EXPECT_THAT(options.Validate().message(), HasSubstr("stick_step"));
  options.stick_step = 0;
  options.initial_components = -1;
  EXPECT_THAT(options.Validate().message(), HasSubstr("initial_components"));
}

// The summary notes when SCIR and SGRLD sampled different atom priors (Table 3's settings).
TEST(DpMixtureRunTest, SummaryNotesDifferentAtomPriors) {
  auto fake = [](DpMethod method, double a) {
    DpRunResult run;
    run.method = method;
    run.seed = 1;
    run.atom_concentration = a;
    run.users_per_iteration = 10;
    DpTracePoint point;
    point.iteration = 10;
    point.seconds = 1;
    point.log_predictive = -9;
    point.running_log_predictive = -8.9;
    point.occupied = 3;
    point.components = 4;
    point.alpha = 1;
    run.trace.push_back(point);
    return run;
  };
  const std::string table_mixed =
      DpSummaryTable({fake(DpMethod::kScir, 0.5), fake(DpMethod::kSgrld, 0.001)});
  EXPECT_THAT(table_mixed, HasSubstr("different atom priors (SCIR a = 0.5, SGRLD a = 0.001"));
  // The paper's ordering and msweb's measurements are msweb's: said only there.
  EXPECT_THAT(table_mixed, Not(HasSubstr("paper's ordering")));
  EXPECT_THAT(table_mixed, HasSubstr("--atom_concentration sets one prior for both"));
  EXPECT_THAT(DpSummaryTable({fake(DpMethod::kScir, 0.5), fake(DpMethod::kSgrld, 0.001)},
                             /*msweb=*/true),
              HasSubstr("The paper's ordering is the single-draw score's; on msweb"));
  const std::string table_same =
      DpSummaryTable({fake(DpMethod::kScir, 0.5), fake(DpMethod::kSgrld, 0.5)});
  EXPECT_THAT(table_same, HasSubstr("SCIR above SGRLD in log predictive for 0 of 1 seeds"));
  EXPECT_THAT(table_same, Not(HasSubstr("different atom priors")));
}

// A run whose occupied count stayed near its start is flagged; starts whose post-burn-in
// ranges do not overlap are flagged; overlapping ones that moved are not.
TEST(DpMixtureRunTest, SummaryWarnsWhenTheClusterCountFollowsTheStart) {
  auto fake = [](int start, std::vector<int> occupied) {
    DpRunResult run;
    run.method = DpMethod::kGibbs;
    run.seed = 1;
    run.initial_components = start;
    run.explicit_start = true;
    run.users_per_iteration = 10;
    DpTracePoint point;
    point.iteration = 10;
    point.occupied = occupied.back();
    run.trace.push_back(point);
    run.occupied_draws = std::move(occupied);
    return run;
  };
  // 20 -> 19..22: within 10% (±2) of 20.
  const std::string stuck = DpSummaryTable({fake(20, {19, 22, 20})});
  EXPECT_THAT(stuck, HasSubstr("warning: gibbs seed 1: the occupied clusters stayed at 19-22 "
                               "after burn-in, within 10% of the start's 20"));
  EXPECT_THAT(stuck, HasSubstr("--initial_components=5,20,60"));
  EXPECT_THAT(DpSummaryTable({fake(20, {19, 23, 20})}), Not(HasSubstr("warning")));
  // Starts 5 and 60 moved (no "stayed" warning) but to disjoint ranges.
  const std::string disagree = DpSummaryTable({fake(5, {6, 8}), fake(60, {40, 44})});
  EXPECT_THAT(disagree, Not(HasSubstr("stayed")));
  EXPECT_THAT(disagree, HasSubstr("warning: gibbs seed 1: the starts disagree on the occupied "
                                  "clusters after burn-in (start 5: 6-8, start 60: 40-44)"));
  EXPECT_THAT(disagree, HasSubstr("gibbs  start 5: mean log predictive"));
  EXPECT_THAT(DpSummaryTable({fake(5, {9, 30}), fake(60, {30, 44})}), Not(HasSubstr("warning")));
}

// The clusters of a hand-made draw: occupied ones only, largest first (ties by weight), their
// top items by θ (ties by id), sizes counted from the allocations.
TEST(DpMixtureRunTest, ClustersOfDraw) {
  models::DpMixtureDraw draw;
  draw.vocabulary_size = 3;
  draw.weights = {0.2, 0.3, 0.1, 0.3};
  const std::vector<std::vector<double>> theta = {
      {0.5, 0.3, 0.2}, {0.1, 0.1, 0.8}, {0.2, 0.2, 0.6}, {0.6, 0.2, 0.2}};
  for (const auto& row : theta) {
    for (double p : row) draw.log_atoms.push_back(std::log(p));
  }
  const std::vector<DpCluster> clusters = DpClustersOfDraw(draw, {3, 1, 0, 3, 1, 1, 0}, 2);
  ASSERT_EQ(clusters.size(), 3u);  // component 2 is empty
  EXPECT_EQ(clusters[0].component, 1);
  EXPECT_EQ(clusters[0].size, 3);
  EXPECT_EQ(clusters[0].weight, 0.3);
  EXPECT_THAT(clusters[0].top_items, ::testing::ElementsAre(2, 0));  // 0.1 tie: smaller id
  EXPECT_NEAR(clusters[0].top_probabilities[0], 0.8, 1e-15);
  EXPECT_EQ(clusters[1].component, 3);  // size 2, weight 0.3 before component 0's 0.2
  EXPECT_EQ(clusters[2].component, 0);
  EXPECT_THAT(clusters[2].top_items, ::testing::ElementsAre(0, 1));
  // More top items than words: all of them.
  EXPECT_EQ(DpClustersOfDraw(draw, {0}, 10)[0].top_items.size(), 3u);
}

// An empty held-out file scored a log predictive of exactly 0 for every method and seed.
TEST(DpMixtureRunTest, CheckDpDataRefusesCorporaWithoutVisits) {
  const data::EmbeddedMsweb msweb = data::LoadEmbeddedMsweb().value();
  const data::Corpus& train = msweb.train.corpus;
  EXPECT_TRUE(CheckDpData(train, msweb.test.corpus, "train.data", "test.data").ok());
  data::Corpus empty;
  empty.vocabulary = train.vocabulary;
  EXPECT_EQ(CheckDpData(train, empty, "train.data", "test.data"),
            absl::InvalidArgumentError("test.data: no visits (0 users, none with a visit)"));
  empty.AddDocument({});
  EXPECT_EQ(CheckDpData(empty, train, "train.data", "test.data"),
            absl::InvalidArgumentError("train.data: no visits (1 users, none with a visit)"));
  data::Corpus narrow = msweb.test.corpus;
  narrow.vocabulary.pop_back();
  EXPECT_THAT(CheckDpData(train, narrow, "train.data", "test.data").message(),
              HasSubstr("test.data: 293 words, but train.data has 294"));
}

// Short runs of every method on the embedded subset: the trace has one point per evaluation,
// the running average starts after burn-in, identical seeds give identical traces (timings
// aside), the outputs are written.
TEST(DpMixtureRunTest, RunsEveryMethodAndWritesOutputs) {
  const data::EmbeddedMsweb msweb = data::LoadEmbeddedMsweb().value();
  DpExperimentOptions options;
  options.iterations = 40;
  options.eval_every = 10;
  options.minibatch_size = 500;
  std::vector<DpRunResult> runs;
  for (DpMethod method : {DpMethod::kScir, DpMethod::kSgrld, DpMethod::kGibbs}) {
    DpRunResult run = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 1, options,
                                 nullptr, nullptr)
                          .value();
    ASSERT_EQ(run.trace.size(), 4u);
    EXPECT_EQ(run.burn_in, 20);
    EXPECT_EQ(run.alpha_draws.size(), 20u);
    // Before burn-in the running value is the draw's own.
    EXPECT_EQ(run.trace[0].running_log_predictive, run.trace[0].log_predictive);
    for (const DpTracePoint& p : run.trace) {
      EXPECT_TRUE(std::isfinite(p.log_predictive));
      EXPECT_LT(p.log_predictive, 0);
      EXPECT_GE(p.components, p.occupied);
      EXPECT_GE(p.occupied, 1);
    }
    DpRunResult again = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 1, options,
                                   nullptr, nullptr)
                            .value();
    EXPECT_EQ(again.final_point().running_log_predictive,
              run.final_point().running_log_predictive);
    EXPECT_EQ(again.occupied_draws, run.occupied_draws);
    runs.push_back(std::move(run));
  }
  const std::string table = DpSummaryTable(runs);
  EXPECT_THAT(table, HasSubstr("SCIR above SGRLD in log predictive for"));
  EXPECT_THAT(table, HasSubstr("gibbs  mean log predictive"));

  const std::string dir = absl::StrCat(::testing::TempDir(), "/dp_out");
  DpOutputNames names;
  names.item_names = msweb.train.vroots.titles;
  names.user_ids = msweb.train.case_ids;
  ASSERT_TRUE(WriteDpOutputs(runs, dir, names).ok());
  const std::string trace = ReadFile(dir + "/trace.csv");
  EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 3 * 4);
  // clusters.csv: per run the occupied clusters of the last draw, their sizes summing to the
  // users, named items; the allocation files number every user's cluster.
  const std::string clusters = ReadFile(dir + "/clusters.csv");
  EXPECT_THAT(clusters, ::testing::StartsWith(
                            "method,seed,initial_components,cluster,size,weight,top_items\n"));
  for (const DpRunResult& run : runs) {
    ASSERT_EQ(static_cast<int>(run.clusters.size()), run.final_point().occupied);
    int64_t users = 0;
    for (const DpCluster& c : run.clusters) users += c.size;
    EXPECT_EQ(users, msweb.train.corpus.num_documents());
    EXPECT_THAT(clusters, HasSubstr(absl::StrCat(DpMethodName(run.method), ",1,",
                                                 run.initial_components, ",0,",
                                                 run.clusters[0].size, ",")));
    const std::string allocations =
        ReadFile(absl::StrCat(dir, "/allocations_", DpMethodName(run.method), "_seed1.csv"));
    std::vector<std::string> lines = absl::StrSplit(allocations, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 1u + msweb.train.corpus.num_documents());
    EXPECT_EQ(lines[0], "user,cluster");
    std::vector<int64_t> sizes(run.clusters.size(), 0);
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> fields = absl::StrSplit(lines[i], ',');
      EXPECT_EQ(fields[0], absl::StrCat(msweb.train.case_ids[i - 1]));
      const int c = std::stoi(fields[1]);
      ASSERT_TRUE(c >= 0 && c < static_cast<int>(sizes.size())) << lines[i];
      ++sizes[c];
    }
    for (size_t c = 0; c < sizes.size(); ++c) EXPECT_EQ(sizes[c], run.clusters[c].size);
  }
  // The items by title, e.g. msweb's most visited Vroot.
  EXPECT_THAT(clusters, HasSubstr("Free Downloads ("));
  EXPECT_THAT(ReadFile(dir + "/draws_scir_seed1.csv"), HasSubstr("lp__,alpha,occupied,components"));
  EXPECT_EQ(ReadFile(dir + "/runs.txt"), "scir\nsgrld\ngibbs\n");
}

// `csv` without the columns `drop` (0-based) and without the CmdStan elapsed-time comment
// lines: the wall-clock parts of the outputs.
std::string WithoutWallClock(const std::string& csv, std::vector<int> drop) {
  std::vector<std::string> lines;
  bool timing = false;
  for (absl::string_view line : absl::StrSplit(csv, '\n')) {
    if (absl::StrContains(line, "Elapsed Time")) timing = true;
    if (timing && absl::StartsWith(line, "#")) continue;
    std::vector<absl::string_view> fields = absl::StrSplit(line, ',');
    for (auto it = drop.rbegin(); it != drop.rend(); ++it) {
      if (*it < static_cast<int>(fields.size())) fields.erase(fields.begin() + *it);
    }
    lines.push_back(absl::StrJoin(fields, ","));
  }
  return absl::StrJoin(lines, "\n");
}

DpMixtureCheckpoint ReadCheckpoint(const std::string& path) {
  DpMixtureCheckpoint checkpoint;
  EXPECT_TRUE(
      checkpoint.ParseFromString(UnframeCheckpoint(path, "dp_mixture", ReadFile(path)).value()))
      << path;
  return checkpoint;
}

// Each method stopped after k iterations (before burn-in and between evaluations, after
// burn-in, at an evaluation) and resumed, on 2 threads, ends where the uninterrupted
// single-threaded run ends: the same checkpoint (sampler, evaluation and running-average
// states byte for byte; trace and draws) and the same output files, the wall-clock columns
// aside. A resume with other settings is refused; resuming a finished run steps no further.
TEST(DpMixtureRunTest, StoppedAndResumedRunEqualsTheUninterruptedRun) {
  const data::EmbeddedMsweb msweb = data::LoadEmbeddedMsweb().value();
  DpExperimentOptions options;
  options.iterations = 40;
  options.eval_every = 10;
  options.minibatch_size = 500;
  const std::string whole = absl::StrCat(::testing::TempDir(), "/dp_whole");
  const std::string parts = absl::StrCat(::testing::TempDir(), "/dp_parts");
  parallel::ThreadPool pool(2);
  std::vector<DpRunResult> uninterrupted, resumed;
  std::ostringstream log;
  for (const auto& [method, k] : {std::pair{DpMethod::kScir, 13}, std::pair{DpMethod::kSgrld, 25},
                                  std::pair{DpMethod::kGibbs, 30}}) {
    DpCheckpointOptions checkpoints;
    checkpoints.directory = whole;
    uninterrupted.push_back(RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 2, options,
                                       checkpoints, nullptr, nullptr)
                                .value());
    checkpoints.directory = parts;
    checkpoints.every = 7;
    checkpoints.stop_after = k;
    const DpRunResult stopped = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 2,
                                           options, checkpoints, &pool, nullptr)
                                    .value();
    EXPECT_EQ(stopped.iterations_completed, k);
    EXPECT_FALSE(stopped.finished(options));
    checkpoints.stop_after = 0;
    checkpoints.resume = true;
    resumed.push_back(RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 2, options,
                                 checkpoints, &pool, &log)
                          .value());
    EXPECT_THAT(log.str(),
                HasSubstr(absl::StrCat("resumed from ", parts, "/checkpoint_", DpMethodName(method),
                                       "_seed2.pb at iteration ", k)));
    EXPECT_TRUE(resumed.back().finished(options));

    const DpMixtureCheckpoint a = ReadCheckpoint(DpCheckpointPath(whole, method, 2));
    const DpMixtureCheckpoint b = ReadCheckpoint(DpCheckpointPath(parts, method, 2));
    EXPECT_EQ(a.settings(), b.settings());
    EXPECT_EQ(a.gibbs().SerializeAsString(), b.gibbs().SerializeAsString());
    EXPECT_EQ(a.stochastic().SerializeAsString(), b.stochastic().SerializeAsString());
    EXPECT_EQ(a.has_gibbs(), method == DpMethod::kGibbs);
    EXPECT_EQ(a.evaluation().SerializeAsString(), b.evaluation().SerializeAsString());
    EXPECT_EQ(a.running_predictive().SerializeAsString(),
              b.running_predictive().SerializeAsString());
    EXPECT_EQ(a.running_predictive().num_draws(), 2);  // iterations 30 and 40
    ASSERT_EQ(a.trace_size(), 4);
    ASSERT_EQ(b.trace_size(), 4);
    for (int i = 0; i < 4; ++i) {
      DpMixtureCheckpoint::TracePoint p = a.trace(i), q = b.trace(i);
      p.clear_seconds();
      q.clear_seconds();
      EXPECT_EQ(p.SerializeAsString(), q.SerializeAsString()) << i;
    }
    EXPECT_THAT(b.alpha_draws(), ::testing::ElementsAreArray(a.alpha_draws()));
    EXPECT_THAT(b.occupied_draws(), ::testing::ElementsAreArray(a.occupied_draws()));
    EXPECT_THAT(b.component_draws(), ::testing::ElementsAreArray(a.component_draws()));
    EXPECT_EQ(uninterrupted.back().final_point().running_log_predictive,
              resumed.back().final_point().running_log_predictive);

    // Resuming the finished run again: nothing to do, the same results.
    const DpRunResult again = RunDpChain(msweb.train.corpus, msweb.test.corpus, method, 2, options,
                                         checkpoints, nullptr, nullptr)
                                  .value();
    EXPECT_EQ(again.trace.size(), 4u);
    EXPECT_EQ(again.alpha_draws, resumed.back().alpha_draws);
    EXPECT_EQ(again.seconds, resumed.back().seconds);
    EXPECT_EQ(again.allocations, resumed.back().allocations);
    ASSERT_EQ(again.clusters.size(), resumed.back().clusters.size());
    EXPECT_EQ(again.clusters[0].top_items, resumed.back().clusters[0].top_items);
    EXPECT_EQ(resumed.back().allocations, uninterrupted.back().allocations);
  }
  ASSERT_TRUE(WriteDpOutputs(uninterrupted, whole).ok());
  ASSERT_TRUE(WriteDpOutputs(resumed, parts).ok());
  EXPECT_EQ(WithoutWallClock(ReadFile(whole + "/trace.csv"), {3}),
            WithoutWallClock(ReadFile(parts + "/trace.csv"), {3}));
  EXPECT_EQ(WithoutWallClock(ReadFile(whole + "/summary.csv"), {8, 9}),
            WithoutWallClock(ReadFile(parts + "/summary.csv"), {8, 9}));
  for (const std::string run : {"scir_seed2", "sgrld_seed2", "gibbs_seed2"}) {
    const std::string name = "/draws_" + run + ".csv";
    const std::string draws = ReadFile(whole + name);
    EXPECT_THAT(draws, HasSubstr("Elapsed Time"));
    // The output_file line names the directory.
    EXPECT_EQ(absl::StrReplaceAll(WithoutWallClock(draws, {}), {{whole, "DIR"}}),
              absl::StrReplaceAll(WithoutWallClock(ReadFile(parts + name), {}), {{parts, "DIR"}}))
        << run;
  }
  EXPECT_EQ(ReadFile(whole + "/runs.txt"), ReadFile(parts + "/runs.txt"));
  EXPECT_EQ(ReadFile(whole + "/clusters.csv"), ReadFile(parts + "/clusters.csv"));
  for (const std::string run : {"scir_seed2", "sgrld_seed2", "gibbs_seed2"}) {
    const std::string name = "/allocations_" + run + ".csv";
    EXPECT_EQ(ReadFile(whole + name), ReadFile(parts + name)) << run;
  }

  // Other settings: refused, naming the checkpoint.
  DpCheckpointOptions checkpoints;
  checkpoints.directory = parts;
  checkpoints.resume = true;
  DpExperimentOptions changed = options;
  changed.alpha_rate = 2;
  const absl::Status refused = RunDpChain(msweb.train.corpus, msweb.test.corpus, DpMethod::kScir, 2,
                                          changed, checkpoints, nullptr, nullptr)
                                   .status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.message(), HasSubstr("checkpoint_scir_seed2.pb: written with different"));
  checkpoints.every = -1;
  EXPECT_THAT(RunDpChain(msweb.train.corpus, msweb.test.corpus, DpMethod::kScir, 2, options,
                         checkpoints, nullptr, nullptr)
                  .status()
                  .message(),
              HasSubstr("checkpoint_every must be >= 0"));
  // A damaged checkpoint (one bit of its middle byte flipped, inside the serialized state):
  // refused naming the file; it resumed silently with altered state before the checksum.
  checkpoints.every = 0;
  const std::string damaged = DpCheckpointPath(parts, DpMethod::kScir, 2);
  testing::FlipMiddleByte(damaged);
  const absl::Status refused_damaged = RunDpChain(msweb.train.corpus, msweb.test.corpus,
                                                  DpMethod::kScir, 2, options, checkpoints,
                                                  nullptr, nullptr)
                                           .status();
  EXPECT_EQ(refused_damaged.code(), absl::StatusCode::kDataLoss) << refused_damaged;
  EXPECT_EQ(refused_damaged.message(), damaged + ": checksum mismatch: the file is damaged");
}

}  // namespace
}  // namespace sgmcmc::tools
