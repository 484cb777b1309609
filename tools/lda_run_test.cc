#include "tools/lda_run.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "data/corpus.h"
#include "data/topic_matrix.h"
#include "data/uci_writer.h"
#include "gtest/gtest.h"
#include "testing/file_testing.h"
#include "tools/checkpoint_file.h"
#include "tools/lda_checkpoint.pb.h"

namespace sgmcmc::tools {
namespace {

std::string TempDir(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(root != nullptr ? root : "/tmp") + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A small UCI corpus: 60 documents over 24 words in 3 blocks.
std::pair<std::string, std::string> WriteCorpus(const std::string& dir) {
  data::Corpus corpus;
  for (int w = 0; w < 24; ++w) corpus.vocabulary.push_back("word" + std::to_string(w));
  for (int d = 0; d < 60; ++d) {
    std::vector<int32_t> doc;
    for (int i = 0; i < 30; ++i) doc.push_back((d % 3) * 8 + (i * 7 + d) % 8);
    corpus.AddDocument(doc);
  }
  const std::string docword = dir + "/docword.small.txt.gz", vocab = dir + "/vocab.small.txt";
  EXPECT_TRUE(data::WriteUciCorpus(corpus, docword, vocab).ok());
  return {docword, vocab};
}

LdaConfig SmallConfig(const std::string& corpus_dir, const std::string& output_dir,
                      int64_t iterations) {
  const auto [docword, vocab] = WriteCorpus(corpus_dir);
  LdaConfig config = *ParseLdaConfig(
      "test_documents: 10 seed: 7 threads: 2 eval_every: 3 eval_sweeps: 4 "
      "runs { preset: 'scir_fast' num_topics: 3 minibatch_size: 8 gibbs_sweeps: 4 burn_in: 5 } "
      "runs { preset: 'sgrld_fast' num_topics: 3 minibatch_size: 8 gibbs_sweeps: 4 burn_in: 5 "
      "       step_size { h: 0.05 } }",
      "inline");
  config.mutable_corpus()->mutable_uci()->set_docword(docword);
  config.mutable_corpus()->mutable_uci()->set_vocab(vocab);
  config.set_output_dir(output_dir);
  for (LdaRunConfig& run : *config.mutable_runs()) run.set_iterations(iterations);
  return config;
}

LdaRunOptions Quiet(std::ostringstream& log, bool resume = false) {
  LdaRunOptions options;
  options.source = "test.textpb";
  options.resume = resume;
  options.plot = false;
  options.progress = &log;
  return options;
}

LdaCheckpoint ReadCheckpoint(const std::string& path) {
  LdaCheckpoint checkpoint;
  EXPECT_TRUE(checkpoint.ParseFromString(UnframeCheckpoint(path, "lda", Slurp(path)).value()))
      << path;
  return checkpoint;
}

TEST(ParseLdaConfigTest, ErrorsNameSourceLineAndColumn) {
  const auto config = ParseLdaConfig("seed: 3\nruns { alpah: 0.1 }\n", "my.textpb");
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("my.textpb:2:"), std::string::npos)
      << config.status();
  EXPECT_NE(config.status().message().find("alpah"), std::string::npos);
  EXPECT_TRUE(ParseLdaConfig("", "empty").ok());
  const auto missing = ReadLdaConfig("/nonexistent/lda.textpb");
  EXPECT_NE(missing.status().message().find("/nonexistent/lda.textpb"), std::string::npos);
}

TEST(ResolveLdaRunsTest, DefaultRunPresetsAndOverrides) {
  auto runs = ResolveLdaRuns(LdaConfig(), "cfg");
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].name, "scir_fast");
  EXPECT_EQ((*runs)[0].options.num_topics, kDefaultLdaNumTopics);
  EXPECT_EQ((*runs)[0].options.gibbs_sweeps, models::kFastGibbsSweeps);
  EXPECT_EQ((*runs)[0].options.count_estimator, models::LdaCountEstimator::kSweepAverage);
  EXPECT_EQ((*runs)[0].iterations, kDefaultLdaIterations);
  EXPECT_EQ((*runs)[0].burn_in, kDefaultLdaIterations / 2);

  const LdaConfig config = *ParseLdaConfig(
      "seed: 11 runs { preset: 'sgrld_paper' } "
      "runs { preset: 'scir_paper' sampler: SGRLD alpha: 0.2 beta: 0.3 num_topics: 7 "
      "step_size { h: 0.02 tau: 5 kappa: 0.5 } minibatch_size: 9 gibbs_sweeps: 3 "
      "iterations: 40 burn_in: 10 max_seconds: 2.5 count_estimator: LAST_SWEEP }",
      "cfg");
  runs = ResolveLdaRuns(config, "cfg");
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].name, "sgrld_paper");
  EXPECT_EQ((*runs)[0].options.num_topics, 100);
  EXPECT_EQ((*runs)[0].options.beta, 1e-4);
  EXPECT_EQ((*runs)[0].options.seed, 11u);
  const ResolvedLdaRun& r = (*runs)[1];
  EXPECT_EQ(r.name, "scir_paper_sgrld");
  EXPECT_EQ(r.options.sampler, models::LdaSampler::kSgrld);
  EXPECT_EQ(r.options.alpha, 0.2);
  EXPECT_EQ(r.options.beta, 0.3);
  EXPECT_EQ(r.options.num_topics, 7);
  EXPECT_EQ(r.options.step_size.h, 0.02);
  EXPECT_EQ(r.options.step_size.tau, 5);
  EXPECT_EQ(r.options.step_size.kappa, 0.5);
  EXPECT_EQ(r.options.minibatch_size, 9);
  EXPECT_EQ(r.options.gibbs_sweeps, 3);
  EXPECT_EQ(r.options.count_estimator, models::LdaCountEstimator::kLastSweep);
  EXPECT_EQ(r.iterations, 40);
  EXPECT_EQ(r.burn_in, 10);
  EXPECT_EQ(r.max_seconds, 2.5);
  // No early sweep schedule unless asked for: the presets' chains are unchanged.
  EXPECT_EQ(r.options.early_gibbs_sweeps, 0);
  EXPECT_EQ(r.options.early_iterations, 0);
}

// A run that names no preset, sampler or SCIR-only setting gets the default for the
// corpus' mean document length once it is known (models::DefaultLdaPreset), with the reason;
// the others keep kDefaultLdaPreset, without one.
TEST(ResolveLdaRunsTest, DefaultPresetByMeanDocumentLength) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { name: 'rule' } runs { name: 'named' preset: 'scir_fast' } "
      "runs { name: 'sampler' sampler: SCIR } runs { name: 'lazy' topic_update: LAZY }",
      "cfg");
  for (double length : {5.0, 68.0, 136.0}) {
    auto runs = ResolveLdaRuns(config, "cfg", length);
    ASSERT_TRUE(runs.ok()) << runs.status();
    const bool long_documents = length >= models::kScirMinMeanDocumentLength;
    EXPECT_EQ((*runs)[0].options.sampler,
              long_documents ? models::LdaSampler::kScir : models::LdaSampler::kSgrld);
    EXPECT_EQ((*runs)[0].options.beta, long_documents ? 0.1 : 0.01);
    const std::string want = std::string("preset ") +
                             (long_documents ? "scir_fast" : "sgrld_fast") +
                             " (default for a mean document length of ";
    EXPECT_NE((*runs)[0].preset_reason.find(want), std::string::npos)
        << (*runs)[0].preset_reason;
    for (int i = 1; i < 4; ++i) {
      EXPECT_EQ((*runs)[i].options.sampler, models::LdaSampler::kScir) << (*runs)[i].name;
      EXPECT_EQ((*runs)[i].preset_reason, "") << (*runs)[i].name;
    }
  }
  // The default run's name is its preset's; before the corpus is known, kDefaultLdaPreset.
  EXPECT_EQ((*ResolveLdaRuns(LdaConfig(), "cfg", 5.0))[0].name, "sgrld_fast");
  EXPECT_EQ((*ResolveLdaRuns(LdaConfig(), "cfg", 136.0))[0].name, "scir_fast");
  EXPECT_EQ((*ResolveLdaRuns(LdaConfig(), "cfg"))[0].preset_reason, "");
}

// Expects the resolved `run` to use `sampler`, with `reason` part of its preset_reason.
void ExpectDefault(const ResolvedLdaRun& run, models::LdaSampler sampler,
                   const std::string& reason) {
  EXPECT_EQ(run.options.sampler, sampler) << run.name;
  EXPECT_NE(run.preset_reason.find(reason), std::string::npos) << run.preset_reason;
}

// A UCI stream's runs without a preset follow its density (models::DefaultLdaSettingsByDensity):
// sparse counts get scir_fast with β = 0.2 x the density within [0.01, 0.1] (the run's beta if
// it sets one), dense ones sgrld_fast, whatever the document length; without NNZ (a corpus in
// memory) the rule by document length.
TEST(ResolveLdaRunsTest, StreamedRunsWithoutPresetFollowTheDensity) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { name: 'k1000' num_topics: 1000 } runs { name: 'beta' num_topics: 1000 beta: 0.2 } "
      "runs { name: 'k10' num_topics: 10 } runs { name: 'named' preset: 'sgrld_fast' "
      "num_topics: 1000 }",
      "cfg");
  // NNZ 7,901,267 over V = 50,000: 0.16 entries per cell at K = 1000, 15.8 at K = 10.
  auto runs = ResolveLdaRuns(config, "cfg", 68.0, 7901267, 50000);
  ASSERT_TRUE(runs.ok()) << runs.status();
  ExpectDefault((*runs)[0], models::LdaSampler::kScir,
                "preset scir_fast with beta 0.0316051 (default for a stream of 0.158 "
                "document-word entries per topic-word cell, NNZ / (K V) = 7901267 / (1000 x "
                "50000), < 2, where SGRLD over-weights the rare words; beta 0.2 x the density, "
                "within [0.01, 0.1];");
  EXPECT_NEAR((*runs)[0].options.beta, 0.031605068, 1e-15);
  ExpectDefault((*runs)[1], models::LdaSampler::kScir,
                "preset scir_fast (default for a stream of 0.158");
  EXPECT_EQ((*runs)[1].options.beta, 0.2);
  // Dense: sgrld_fast, for the density.
  ExpectDefault((*runs)[2], models::LdaSampler::kSgrld,
                "preset sgrld_fast (default for a stream of 15.8 document-word entries per "
                "topic-word cell, NNZ / (K V) = 7901267 / (10 x 50000), >= 2,");
  EXPECT_EQ((*runs)[3].options.sampler, models::LdaSampler::kSgrld);
  EXPECT_EQ((*runs)[3].preset_reason, "");
  // No NNZ (raw text, or a corpus in memory): the rule by document length for every run.
  runs = ResolveLdaRuns(config, "cfg", 68.0);
  ASSERT_TRUE(runs.ok()) << runs.status();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*runs)[i].options.sampler, models::LdaSampler::kSgrld) << (*runs)[i].name;
  }
  // The default run's K (kDefaultLdaNumTopics = 50): 1,000,000 / (50 x 50,000) = 0.4 < 2,
  // β = 0.08; 7,901,267 / (50 x 50,000) = 3.2 >= 2: sgrld_fast with its β, although the
  // documents are long (136 tokens; in memory the rule by length would give scir_fast).
  runs = ResolveLdaRuns(LdaConfig(), "cfg", 136.0, 1000000, 50000);
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].name, "scir_fast");
  EXPECT_NEAR((*runs)[0].options.beta, 0.08, 1e-15);
  runs = ResolveLdaRuns(LdaConfig(), "cfg", 136.0, 7901267, 50000);
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].name, "sgrld_fast");
  EXPECT_EQ((*runs)[0].options.beta,
            models::LdaPresetOptions(models::LdaPreset::kSgrldFast).beta);
  ExpectDefault((*runs)[0], models::LdaSampler::kSgrld,
                "(default for a stream of 3.16 document-word entries");
  EXPECT_EQ((*ResolveLdaRuns(LdaConfig(), "cfg", 136.0))[0].name, "scir_fast");
}

// A run that names neither preset nor alpha gets α by K (models::DefaultLdaAlpha) and says so
// where that is not the preset's; a preset or an alpha keeps its α.
TEST(ResolveLdaRunsTest, RunsWithoutPresetOrAlphaGetAlphaByNumberOfTopics) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { name: 'k1000' num_topics: 1000 } runs { name: 'k50' num_topics: 50 } "
      "runs { name: 'set' num_topics: 1000 alpha: 0.3 } "
      "runs { name: 'named' preset: 'scir_fast' num_topics: 1000 } "
      "runs { name: 'sampler' sampler: SGRLD num_topics: 500 }",
      "cfg");
  for (const int64_t stream_entries : {int64_t{-1}, int64_t{7901267}}) {
    auto runs = ResolveLdaRuns(config, "cfg", 68.0, stream_entries, 50000);
    ASSERT_TRUE(runs.ok()) << runs.status();
    EXPECT_EQ((*runs)[0].options.alpha, 0.01);
    EXPECT_EQ((*runs)[0].alpha_reason,
              "alpha 0.01 (default for K = 1000: a document's prior pseudo-counts K alpha = 10, "
              "0.05 K within [5, 10]; against the preset's 0.1 it ended up to 7% lower in "
              "held-out perplexity at K = 100-200 and 13-22% lower on text at K = 500-1000; set "
              "the run's alpha to choose; bench/README.md)");
    EXPECT_EQ((*runs)[1].options.alpha, 0.1);
    EXPECT_EQ((*runs)[1].alpha_reason, "");
    EXPECT_EQ((*runs)[2].options.alpha, 0.3);
    EXPECT_EQ((*runs)[2].alpha_reason, "");
    EXPECT_EQ((*runs)[3].options.alpha, 0.1);
    EXPECT_EQ((*runs)[3].alpha_reason, "");
    EXPECT_EQ((*runs)[4].options.alpha, 0.02);
    EXPECT_NE((*runs)[4].alpha_reason, "");
  }
  // The default run (K = 50) keeps the preset's α.
  auto runs = ResolveLdaRuns(LdaConfig(), "cfg", 136.0);
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].options.alpha, 0.1);
  EXPECT_EQ((*runs)[0].alpha_reason, "");
  // K < 1 is still the field's error, not a crash.
  const absl::Status zero =
      ResolveLdaRuns(*ParseLdaConfig("runs { num_topics: 0 }", "cfg"), "cfg").status();
  EXPECT_EQ(zero.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(zero.message().find("num_topics"), std::string::npos) << zero;
}

// A corpus in memory follows the rule by document length unless its counts are sparse for
// the run's K, fewer than 0.5 document-word entries per topic-word cell: then scir_fast with
// β by density (as a stream's), whatever the length.
TEST(ResolveLdaRunsTest, InMemoryRunsWithSparseCountsGetScir) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { name: 'k1000' num_topics: 1000 } runs { name: 'k10' num_topics: 10 } "
      "runs { name: 'named' preset: 'sgrld_fast' num_topics: 1000 }",
      "cfg");
  // 1,000,000 entries over V = 50,000: 0.02 per cell at K = 1000, 2 at K = 10; 68 tokens.
  auto runs = ResolveLdaRuns(config, "cfg", 68.0, /*stream_entries=*/-1, 50000,
                             /*in_memory_entries=*/1000000);
  ASSERT_TRUE(runs.ok()) << runs.status();
  // β by density as for a stream: 0.2 x 0.02, clamped to 0.01.
  ExpectDefault((*runs)[0], models::LdaSampler::kScir,
                "preset scir_fast with beta 0.01 (default for a corpus of 0.02 document-word "
                "entries per topic-word cell, NNZ / (K V) = 1000000 / (1000 x 50000), < 0.5,");
  EXPECT_EQ((*runs)[0].options.beta, 0.01);
  ExpectDefault((*runs)[1], models::LdaSampler::kSgrld,
                "(default for a mean document length of 68.0");
  EXPECT_EQ((*runs)[2].options.sampler, models::LdaSampler::kSgrld);
  EXPECT_EQ((*runs)[2].preset_reason, "");
  // Long documents: scir_fast either way, with β by density where the counts are sparse
  // and the preset's β (and the length's reason) where they are not.
  runs = ResolveLdaRuns(config, "cfg", 136.0, -1, 50000, 1000000);
  ASSERT_TRUE(runs.ok()) << runs.status();
  ExpectDefault((*runs)[0], models::LdaSampler::kScir, "(default for a corpus of 0.02");
  EXPECT_EQ((*runs)[0].options.beta, 0.01);
  ExpectDefault((*runs)[1], models::LdaSampler::kScir,
                "(default for a mean document length of 136.0");
  EXPECT_EQ((*runs)[1].options.beta, models::LdaPresetOptions(models::LdaPreset::kScirFast).beta);
}

// The tool says which preset the rule chose and why, and names the outputs after it: the
// small corpus has 30 tokens per document, so SGRLD.
TEST(RunLdaTest, RunWithoutPresetUsesTheDefaultForTheCorpus) {
  const std::string corpus_dir = TempDir("rule_corpus"), out = TempDir("rule");
  LdaConfig config = SmallConfig(corpus_dir, out, 3);
  config.mutable_runs()->DeleteSubrange(1, 1);
  config.mutable_runs(0)->clear_preset();
  std::ostringstream log;
  ASSERT_TRUE(RunLda(config, Quiet(log)).ok()) << log.str();
  EXPECT_NE(log.str().find("[sgrld_fast] preset sgrld_fast (default for a mean document length "
                           "of 30.0 tokens, < 100;"),
            std::string::npos)
      << log.str();
  EXPECT_TRUE(std::filesystem::exists(out + "/checkpoint_sgrld_fast.pb"));
}

// A preset's own burn-in (models::LdaOptions::default_burn_in; sgrld_fast_early's ends with its
// early schedule, iteration 60) is the run's unless the config sets one or the run is not
// longer than it; the other presets use half of the run. The posterior mean starts there too.
TEST(ResolveLdaRunsTest, PresetCarriesItsBurnIn) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { preset: 'sgrld_fast_early' iterations: 200 } "
      "runs { name: 'short' preset: 'sgrld_fast_early' iterations: 60 } "
      "runs { name: 'set' preset: 'sgrld_fast_early' iterations: 200 burn_in: 150 } "
      "runs { preset: 'sgrld_fast' iterations: 200 }",
      "cfg");
  auto runs = ResolveLdaRuns(config, "cfg");
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->size(), 4u);
  EXPECT_EQ(models::kEarlyIterations, 60);
  const int64_t want[] = {60, 30, 150, 100};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ((*runs)[i].burn_in, want[i]) << (*runs)[i].name;
    EXPECT_EQ((*runs)[i].options.mean_burn_in, want[i]) << (*runs)[i].name;
  }
}

TEST(ResolveLdaRunsTest, EarlySweepSchedule) {
  const LdaConfig config = *ParseLdaConfig(
      "runs { preset: 'sgrld_fast_early' } "
      "runs { name: 'b' early_gibbs_sweeps: 3 early_iterations: 7 } "
      "runs { name: 'c' preset: 'sgrld_fast_early' early_iterations: 0 }",
      "cfg");
  const auto runs = ResolveLdaRuns(config, "cfg");
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].name, "sgrld_fast_early");
  EXPECT_EQ((*runs)[0].options.sampler, models::LdaSampler::kSgrld);
  EXPECT_EQ((*runs)[0].options.early_gibbs_sweeps, models::kEarlyGibbsSweeps);
  EXPECT_EQ((*runs)[0].options.early_iterations, models::kEarlyIterations);
  EXPECT_EQ((*runs)[1].options.sampler, models::LdaSampler::kScir);
  EXPECT_EQ((*runs)[1].options.early_gibbs_sweeps, 3);
  EXPECT_EQ((*runs)[1].options.early_iterations, 7);
  EXPECT_EQ((*runs)[2].options.early_gibbs_sweeps, models::kEarlyGibbsSweeps);
  EXPECT_EQ((*runs)[2].options.early_iterations, 0);

  auto message = [](const std::string& text) {
    return std::string(ResolveLdaRuns(*ParseLdaConfig(text, "cfg"), "cfg").status().message());
  };
  EXPECT_EQ(message("runs { } runs { name: 'b' early_gibbs_sweeps: -2 }"),
            "cfg: runs[1].early_gibbs_sweeps must be >= 0, got -2");
  EXPECT_EQ(message("runs { early_iterations: -1 }"),
            "cfg: runs[0].early_iterations must be >= 0, got -1");
  // A misspelt field is refused by the parser with the file, line and column.
  const auto typo = ParseLdaConfig("seed: 3\nruns { early_sweeps: 4 }\n", "my.textpb");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("my.textpb:2:"), std::string::npos) << typo.status();
}

TEST(ResolveLdaRunsTest, ErrorsNameSourceAndField) {
  auto message = [](const std::string& text) {
    return std::string(ResolveLdaRuns(*ParseLdaConfig(text, "cfg"), "cfg").status().message());
  };
  EXPECT_EQ(message("runs { } runs { alpha: -1 }"),
            "cfg: runs[1].alpha must be finite and > 0, got -1");
  EXPECT_NE(message("runs { preset: 'fast' }").find("cfg: runs[0].preset: unknown LDA preset"),
            std::string::npos);
  EXPECT_NE(message("runs { gibbs_sweeps: 0 }").find("cfg: runs[0].gibbs_sweeps must be >= 1"),
            std::string::npos);
  EXPECT_NE(message("runs { step_size { h: 0 } }").find("cfg: runs[0].step_size"),
            std::string::npos);
  EXPECT_NE(message("runs { iterations: 0 }").find("cfg: runs[0].iterations must be >= 1"),
            std::string::npos);
  EXPECT_NE(message("runs { } runs { }").find("cfg: runs[1].name \"scir_fast\" is used"),
            std::string::npos);
  EXPECT_NE(message("runs { name: 'a b' }").find("cfg: runs[0].name \"a b\" must be"),
            std::string::npos);
  EXPECT_EQ(message("threads: 0"), "cfg: threads must be >= 1, got 0");
  // Above the other tools' limit: refused before any thread starts (none was).
  EXPECT_EQ(message("threads: 1025"), "cfg: threads must be in [1, 1024], got 1025");
  EXPECT_TRUE(ResolveLdaRuns(*ParseLdaConfig("threads: 1024", "cfg"), "cfg").ok());
  EXPECT_EQ(message("eval_sweeps: 1"), "cfg: eval_sweeps must be >= 2, got 1");
}

TEST(LdaConfigsTest, ExampleConfigsParseAndResolve) {
  const std::string dir = std::string(std::getenv("TEST_SRCDIR")) + "/sgmcmc/tools/configs";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    const auto config = ReadLdaConfig(path);
    ASSERT_TRUE(config.ok()) << config.status();
    const auto runs = ResolveLdaRuns(*config, path);
    ASSERT_TRUE(runs.ok()) << runs.status();
    // The stream config is the papers' online setting, K = 100; the others K = 50.
    const int k = config->has_stream() ? 100 : 50;
    for (const ResolvedLdaRun& run : *runs) EXPECT_EQ(run.options.num_topics, k) << path;
    ++count;
  }
  EXPECT_EQ(count, 10);
}

TEST(LoadLdaDataTest, ErrorsNameTheField) {
  LdaConfig config;
  config.mutable_corpus()->mutable_uci()->set_docword("/nonexistent/docword.txt");
  auto data = LoadLdaData(config, "cfg", "");
  EXPECT_NE(data.status().message().find("corpus.uci.docword and corpus.uci.vocab"),
            std::string::npos);
  config.mutable_corpus()->mutable_uci()->set_vocab("/nonexistent/vocab.txt");
  data = LoadLdaData(config, "cfg", "");
  EXPECT_NE(data.status().message().find("cfg: corpus: "), std::string::npos) << data.status();
  EXPECT_NE(data.status().message().find("/nonexistent/"), std::string::npos);

  const std::string dir = TempDir("load_data");
  const auto [docword, vocab] = WriteCorpus(dir);
  config.mutable_corpus()->mutable_uci()->set_docword(docword);
  config.mutable_corpus()->mutable_uci()->set_vocab(vocab);
  config.set_test_documents(60);
  data = LoadLdaData(config, "cfg", "");
  EXPECT_NE(data.status().message().find("cfg: test_documents: "), std::string::npos)
      << data.status();
  config.set_test_documents(10);
  data = LoadLdaData(config, "cfg", "");
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->train.num_documents(), 50);
  EXPECT_EQ(data->test.observed.num_documents(), 10);
  // Every 10th token held out: 3 of each 30-token test document.
  EXPECT_EQ(data->test.held_out.num_tokens(), 30);
}

// Raw text has no header NNZ: the stream's entries are estimated from the held-out documents
// (their distinct words per document times the documents), and runs without a preset follow
// the density with it, as for a UCI stream.
TEST(LoadLdaDataTest, TextStreamEstimatesItsEntriesFromTheHeldOutDocuments) {
  const std::string dir = TempDir("text_entries");
  std::string text;
  // Document d: "alpha beta" three times, and "gamma" when d is odd: 2 or 3 distinct words.
  for (int d = 0; d < 20; ++d) {
    text += "alpha beta alpha beta alpha beta";
    if (d % 2 == 1) text += " gamma";
    text += "\n";
  }
  std::ofstream(dir + "/docs.txt") << text;
  std::ofstream(dir + "/vocab.txt") << "alpha\nbeta\ngamma\ndelta\n";
  LdaConfig config = *ParseLdaConfig(
      "stream { held_out_documents: 5 } runs { num_topics: 10 } runs { num_topics: 2 }", "cfg");
  config.mutable_stream()->set_text(dir + "/docs.txt");
  config.mutable_stream()->set_vocab(dir + "/vocab.txt");
  const absl::StatusOr<LdaData> data = LoadLdaData(config, "cfg", "");
  ASSERT_TRUE(data.ok()) << data.status();
  // Held out: documents 0-4 with 2, 3, 2, 3, 2 distinct words: 2.4 x 20 documents.
  EXPECT_EQ(data->streamed_entries, 48);
  EXPECT_NE(data->description.find("NNZ estimated at 48 (2.4 distinct words per held-out "
                                   "document x 20 documents)"),
            std::string::npos)
      << data->description;
  // 48 / (10 x 4) = 1.2 < 2: scir_fast with β 0.2 x 1.2, clamped to 0.1; 48 / (2 x 4) = 6:
  // sgrld_fast.
  const auto runs = ResolveLdaRuns(config, "cfg", 6.5, data->streamed_entries, 4);
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].options.sampler, models::LdaSampler::kScir);
  EXPECT_EQ((*runs)[0].options.beta, 0.1);
  EXPECT_EQ((*runs)[1].options.sampler, models::LdaSampler::kSgrld);
}

// A streamed run without minibatch_size gets D / 100 documents, between the preset's size and
// 1000, and says so; a set one is kept, and the corpus in memory keeps the preset's.
TEST(FitLdaRunsToDataTest, StreamedRunsDefaultToAHundredUpdatesAPass) {
  EXPECT_EQ(DefaultStreamedMinibatchSize(1000000, 50), 1000);
  EXPECT_EQ(DefaultStreamedMinibatchSize(100000, 50), 1000);
  EXPECT_EQ(DefaultStreamedMinibatchSize(25000, 50), 250);
  EXPECT_EQ(DefaultStreamedMinibatchSize(3000, 50), 50);
  EXPECT_EQ(DefaultStreamedMinibatchSize(10, 50), 50);
  const LdaConfig config = *ParseLdaConfig(
      "runs { name: 'a' preset: 'sgrld_fast' } runs { name: 'b' minibatch_size: 7 }", "cfg");
  auto runs = ResolveLdaRuns(config, "cfg");
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_TRUE(FitLdaRunsToData(25000, "cfg", *runs, /*passes=*/2).ok());
  EXPECT_EQ((*runs)[0].options.minibatch_size, 250);
  EXPECT_EQ((*runs)[0].iterations, 200);  // two passes of 25000 / 250
  EXPECT_EQ((*runs)[0].minibatch_reason,
            "minibatch_size 250 (default for a stream of 25000 documents: D / 100, between the "
            "preset's 50 and 1000; set the run's minibatch_size to choose; bench/README.md)");
  EXPECT_EQ((*runs)[1].options.minibatch_size, 7);
  EXPECT_EQ((*runs)[1].minibatch_reason, "");
  runs = ResolveLdaRuns(config, "cfg");
  ASSERT_TRUE(FitLdaRunsToData(25000, "cfg", *runs).ok());  // in memory
  EXPECT_EQ((*runs)[0].options.minibatch_size, 50);
  EXPECT_EQ((*runs)[0].minibatch_reason, "");
}

// The exact scheme (LdaCountEstimator::kPersistentJoint) from the config and the flag: SCIR
// and the full batch only, each other combination refused with a message naming it.
TEST(ResolveLdaRunsTest, PersistentJointIsFullBatchScirOnly) {
  auto resolve = [](const std::string& text) { return ResolveLdaRuns(*ParseLdaConfig(text, "cfg"), "cfg"); };
  auto runs = resolve("runs { num_topics: 3 count_estimator: PERSISTENT_JOINT }");
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].options.count_estimator, models::LdaCountEstimator::kPersistentJoint);
  EXPECT_TRUE((*runs)[0].full_batch);
  ASSERT_TRUE(FitLdaRunsToData(37, "cfg", *runs).ok());
  EXPECT_EQ((*runs)[0].options.minibatch_size, 37);
  EXPECT_TRUE((*runs)[0].options.Validate(37).ok());
  // An explicit minibatch must be the full batch.
  runs = resolve("runs { minibatch_size: 9 count_estimator: PERSISTENT_JOINT }");
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_FALSE((*runs)[0].full_batch);
  EXPECT_EQ(FitLdaRunsToData(37, "cfg", *runs).message(),
            "cfg: run scir_fast: count_estimator PERSISTENT_JOINT needs the full batch: "
            "minibatch_size must equal the 37 training documents (or be left unset), got 9");
  runs = resolve("runs { minibatch_size: 37 count_estimator: PERSISTENT_JOINT }");
  EXPECT_TRUE(FitLdaRunsToData(37, "cfg", *runs).ok());
  // SGRLD, by the run's sampler or by its preset, is refused.
  for (const std::string text : {"runs { sampler: SGRLD count_estimator: PERSISTENT_JOINT }",
                                 "runs { preset: 'sgrld_fast' count_estimator: PERSISTENT_JOINT }"}) {
    EXPECT_EQ(resolve(text).status().message(),
              "cfg: runs[0].count_estimator PERSISTENT_JOINT (the exact full-batch scheme) "
              "needs sampler SCIR, got SGRLD")
        << text;
  }
  // The other estimators leave the minibatch alone.
  runs = resolve("runs { minibatch_size: 9 count_estimator: LAST_SWEEP }");
  ASSERT_TRUE(FitLdaRunsToData(37, "cfg", *runs).ok());
  EXPECT_EQ((*runs)[0].options.minibatch_size, 9);

  // The --count_estimator flag: every run, the default one made explicit.
  LdaConfig config;
  ASSERT_TRUE(SetLdaCountEstimator("persistent_joint", "--count_estimator", config).ok());
  ASSERT_EQ(config.runs_size(), 1);
  EXPECT_EQ(config.runs(0).count_estimator(), LdaRunConfig::PERSISTENT_JOINT);
  EXPECT_EQ(config.runs(0).num_topics(), kDefaultLdaNumTopics);
  config = *ParseLdaConfig("runs { } runs { name: 'b' count_estimator: LAST_SWEEP }", "cfg");
  ASSERT_TRUE(SetLdaCountEstimator("sweep_average", "--count_estimator", config).ok());
  EXPECT_EQ(config.runs(0).count_estimator(), LdaRunConfig::SWEEP_AVERAGE);
  EXPECT_EQ(config.runs(1).count_estimator(), LdaRunConfig::SWEEP_AVERAGE);
  ASSERT_TRUE(SetLdaCountEstimator("last_sweep", "--count_estimator", config).ok());
  EXPECT_EQ(config.runs(1).count_estimator(), LdaRunConfig::LAST_SWEEP);
  EXPECT_EQ(SetLdaCountEstimator("joint", "--count_estimator", config).message(),
            "--count_estimator: unknown count estimator \"joint\" (valid: sweep_average, "
            "last_sweep, persistent_joint)");
}

// A persistent-joint run trains, checkpoints its assignments and resumes bit-identically.
TEST(RunLdaTest, PersistentJointRunResumesBitIdentically) {
  const std::string corpus_dir = TempDir("pj_corpus");
  const std::string whole = TempDir("pj_whole"), parts = TempDir("pj_parts");
  auto config = [&](const std::string& output_dir, int64_t iterations) {
    LdaConfig c = SmallConfig(corpus_dir, output_dir, iterations);
    c.mutable_runs()->RemoveLast();
    c.mutable_runs(0)->clear_minibatch_size();
    c.mutable_runs(0)->set_count_estimator(LdaRunConfig::PERSISTENT_JOINT);
    return c;
  };
  std::ostringstream log;
  ASSERT_TRUE(RunLda(config(whole, 12), Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(config(parts, 6), Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(config(parts, 12), Quiet(log, /*resume=*/true)).ok()) << log.str();
  EXPECT_NE(log.str().find("minibatch=50 "), std::string::npos) << log.str();  // 60 - 10 test
  EXPECT_NE(log.str().find("counts=persistent_joint"), std::string::npos);
  const LdaCheckpoint a = ReadCheckpoint(whole + "/checkpoint_scir_fast.pb");
  const LdaCheckpoint b = ReadCheckpoint(parts + "/checkpoint_scir_fast.pb");
  EXPECT_EQ(a.lda().assignments_size(), 50 * 30);
  EXPECT_EQ(a.lda().iteration(), b.lda().iteration());
  EXPECT_EQ(a.lda().driver_position(), b.lda().driver_position());
  EXPECT_TRUE(std::equal(a.lda().assignments().begin(), a.lda().assignments().end(),
                         b.lda().assignments().begin(), b.lda().assignments().end()));
  EXPECT_EQ(a.lda().SerializeAsString(), b.lda().SerializeAsString());
  EXPECT_EQ(a.evaluation().SerializeAsString(), b.evaluation().SerializeAsString());
  // On the data, an explicit minibatch other than D is refused before training.
  LdaConfig minibatch = config(TempDir("pj_refused"), 8);
  minibatch.mutable_runs(0)->set_minibatch_size(8);
  EXPECT_NE(RunLda(minibatch, Quiet(log)).message().find("needs the full batch"),
            std::string::npos);
}

TEST(ResolveLdaRunsTest, LazyTopicUpdateIsScirOnly) {
  auto resolve = [](const std::string& text) {
    return ResolveLdaRuns(*ParseLdaConfig(text, "cfg"), "cfg");
  };
  auto runs = resolve("runs { num_topics: 3 } runs { name: 'l' topic_update: LAZY } "
                      "runs { name: 'e' topic_update: EAGER }");
  ASSERT_TRUE(runs.ok()) << runs.status();
  EXPECT_EQ((*runs)[0].options.topic_update, models::LdaTopicUpdate::kEager);  // the default
  EXPECT_EQ((*runs)[1].options.topic_update, models::LdaTopicUpdate::kLazy);
  EXPECT_EQ((*runs)[2].options.topic_update, models::LdaTopicUpdate::kEager);
  for (const std::string text : {"runs { sampler: SGRLD topic_update: LAZY }",
                                 "runs { preset: 'sgrld_fast' topic_update: LAZY }"}) {
    EXPECT_EQ(resolve(text).status().message(),
              "cfg: runs[0].topic_update LAZY (SCIR's lazy update) needs sampler SCIR, got SGRLD")
        << text;
  }
  EXPECT_EQ(resolve("runs { count_estimator: PERSISTENT_JOINT topic_update: LAZY }")
                .status()
                .message(),
            "cfg: runs[0].topic_update LAZY does not support count_estimator PERSISTENT_JOINT");
  // SGRLD with the default (eager) update is fine.
  EXPECT_TRUE(resolve("runs { sampler: SGRLD topic_update: EAGER }").ok());

  // The --topic_update flag: every run, the default one made explicit.
  LdaConfig config;
  ASSERT_TRUE(SetLdaTopicUpdate("lazy", "--topic_update", config).ok());
  ASSERT_EQ(config.runs_size(), 1);
  EXPECT_EQ(config.runs(0).topic_update(), LdaRunConfig::LAZY);
  EXPECT_EQ(config.runs(0).num_topics(), kDefaultLdaNumTopics);
  ASSERT_TRUE(SetLdaTopicUpdate("eager", "--topic_update", config).ok());
  EXPECT_EQ(config.runs(0).topic_update(), LdaRunConfig::EAGER);
  EXPECT_EQ(SetLdaTopicUpdate("fast", "--topic_update", config).message(),
            "--topic_update: unknown topic update \"fast\" (valid: eager, lazy)");
  // An SGRLD run given the flag is refused when resolved.
  config = *ParseLdaConfig("runs { preset: 'sgrld_fast' }", "cfg");
  ASSERT_TRUE(SetLdaTopicUpdate("lazy", "--topic_update", config).ok());
  EXPECT_FALSE(ResolveLdaRuns(config, "cfg").ok());
}

// A lazy SCIR run trains, and resumes from its checkpoint bit-identically: the checkpoint
// materialises every row, as the evaluation at the same iteration of the whole run does.
TEST(RunLdaTest, LazyScirRunResumesBitIdentically) {
  const std::string corpus_dir = TempDir("lazy_corpus");
  const std::string whole = TempDir("lazy_whole"), parts = TempDir("lazy_parts");
  const std::string eager = TempDir("lazy_eager");
  auto config = [&](const std::string& output_dir, int64_t iterations, bool lazy) {
    LdaConfig c = SmallConfig(corpus_dir, output_dir, iterations);
    c.mutable_runs()->RemoveLast();
    if (lazy) c.mutable_runs(0)->set_topic_update(LdaRunConfig::LAZY);
    return c;
  };
  std::ostringstream log;
  ASSERT_TRUE(RunLda(config(whole, 12, true), Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(config(parts, 6, true), Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(config(parts, 12, true), Quiet(log, /*resume=*/true)).ok()) << log.str();
  ASSERT_TRUE(RunLda(config(eager, 12, false), Quiet(log)).ok()) << log.str();
  EXPECT_NE(log.str().find("topic_update=lazy"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("resumed from"), std::string::npos);
  EXPECT_NE(log.str().find("] time: 12 steps"), std::string::npos) << log.str();
  const LdaCheckpoint a = ReadCheckpoint(whole + "/checkpoint_scir_fast.pb");
  const LdaCheckpoint b = ReadCheckpoint(parts + "/checkpoint_scir_fast.pb");
  EXPECT_EQ(a.lda().iteration(), 12);
  EXPECT_EQ(a.lda().SerializeAsString(), b.lda().SerializeAsString());
  EXPECT_EQ(a.evaluation().SerializeAsString(), b.evaluation().SerializeAsString());
  ASSERT_EQ(a.trace_size(), 4);  // iterations 3, 6, 9, 12
  ASSERT_EQ(b.trace_size(), 4);
  for (int i = 0; i < a.trace_size(); ++i) {
    EXPECT_EQ(a.trace(i).perplexity(), b.trace(i).perplexity());
    EXPECT_EQ(a.trace(i).fold_in_perplexity_last(), b.trace(i).fold_in_perplexity_last());
    EXPECT_EQ(a.trace(i).mean_samples(), b.trace(i).mean_samples());
  }
  EXPECT_EQ(a.trace(3).fold_in_perplexity_mean(), b.trace(3).fold_in_perplexity_mean());
  for (const char* file : {"/topic_matrix_scir_fast.phi", "/topic_matrix_mean_scir_fast.phi"}) {
    EXPECT_FALSE(Slurp(whole + file).empty()) << file;
    EXPECT_EQ(Slurp(whole + file), Slurp(parts + file)) << file;
  }
  // The same chain in law, other draws: the eager run's topic matrix differs.
  EXPECT_NE(Slurp(whole + "/topic_matrix_scir_fast.phi"),
            Slurp(eager + "/topic_matrix_scir_fast.phi"));
  // A checkpoint of the lazy run does not resume an eager one.
  EXPECT_EQ(RunLda(config(parts, 14, false), Quiet(log, /*resume=*/true)).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(RunLdaTest, WritesOutputsAndResumesBitIdentically) {
  const std::string corpus_dir = TempDir("corpus");
  const std::string whole = TempDir("whole"), parts = TempDir("parts");
  std::ostringstream log;
  ASSERT_TRUE(RunLda(SmallConfig(corpus_dir, whole, 12), Quiet(log)).ok()) << log.str();
  // Interrupted after 6 iterations, then resumed to 12 with the same settings.
  ASSERT_TRUE(RunLda(SmallConfig(corpus_dir, parts, 6), Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(SmallConfig(corpus_dir, parts, 12), Quiet(log, /*resume=*/true)).ok())
      << log.str();
  EXPECT_NE(log.str().find("resumed from"), std::string::npos);

  for (const std::string run : {"scir_fast", "sgrld_fast"}) {
    const LdaCheckpoint a = ReadCheckpoint(whole + "/checkpoint_" + run + ".pb");
    const LdaCheckpoint b = ReadCheckpoint(parts + "/checkpoint_" + run + ".pb");
    EXPECT_EQ(a.lda().iteration(), 12);
    EXPECT_EQ(b.lda().iteration(), 12);
    EXPECT_EQ(a.lda().driver_position(), b.lda().driver_position());
    EXPECT_TRUE(std::equal(a.lda().topics().parameters().begin(),
                           a.lda().topics().parameters().end(),
                           b.lda().topics().parameters().begin(),
                           b.lda().topics().parameters().end()))
        << run;
    EXPECT_EQ(a.evaluation().SerializeAsString(), b.evaluation().SerializeAsString()) << run;
    ASSERT_EQ(a.trace_size(), b.trace_size());
    ASSERT_EQ(a.trace_size(), 4);  // iterations 3, 6, 9, 12
    for (int i = 0; i < a.trace_size(); ++i) {
      EXPECT_EQ(a.trace(i).iteration(), b.trace(i).iteration());
      EXPECT_EQ(a.trace(i).perplexity(), b.trace(i).perplexity());
      EXPECT_EQ(a.trace(i).running_perplexity(), b.trace(i).running_perplexity());
      EXPECT_EQ(a.trace(i).documents(), b.trace(i).documents());
    }
    // Burn-in 5: evaluations at 3 and 6 stand alone; 6, 9 and 12 are averaged.
    EXPECT_EQ(a.trace(0).running_perplexity(), a.trace(0).perplexity());
    EXPECT_NE(a.trace(3).running_perplexity(), a.trace(3).perplexity());
    EXPECT_EQ(Slurp(whole + "/topic_matrix_" + run + ".tsv"),
              Slurp(parts + "/topic_matrix_" + run + ".tsv"));
    // The posterior mean (burn-in 5: iterations 5 ... 12, 8 samples) and the point-estimate
    // scores resume bit-identically too.
    for (const std::string& file : {"/topic_matrix_" + run + ".phi", "/topic_matrix_mean_" + run +
                                   ".phi", "/topic_matrix_mean_" + run + ".tsv"}) {
      EXPECT_FALSE(Slurp(whole + file).empty()) << file;
      EXPECT_EQ(Slurp(whole + file), Slurp(parts + file)) << file;
    }
    EXPECT_EQ(a.lda().posterior_mean_samples(), 8);
    for (int i = 0; i < a.trace_size(); ++i) {
      EXPECT_EQ(a.trace(i).fold_in_perplexity_last(), b.trace(i).fold_in_perplexity_last());
      EXPECT_EQ(a.trace(i).mean_samples(), b.trace(i).mean_samples());
      EXPECT_GT(a.trace(i).fold_in_perplexity_last(), 1);
      EXPECT_LT(a.trace(i).fold_in_perplexity_last(), 24);
    }
    EXPECT_GT(a.trace(3).train_cpu_seconds(), 0);
    EXPECT_TRUE(std::isnan(a.trace(0).fold_in_perplexity_mean()));  // iteration 3: no samples
    EXPECT_EQ(a.trace(1).mean_samples(), 2);                         // iterations 5, 6
    EXPECT_EQ(a.trace(3).fold_in_perplexity_mean(), b.trace(3).fold_in_perplexity_mean());
    const std::string point_trace = Slurp(whole + "/point_trace_" + run + ".csv");
    EXPECT_EQ(point_trace.substr(0, point_trace.find('\n')),
              "iteration,train_seconds,fold_in_perplexity_last,fold_in_perplexity_mean,"
              "mean_samples,gibbs_running_predictive_perplexity,train_cpu_seconds,documents,"
              "heldout_perplexity");
    EXPECT_EQ(std::count(point_trace.begin(), point_trace.end(), '\n'), 5);
    // heldout_perplexity, the headline: the last sample's before the mean has samples, then
    // the posterior mean's.
    const std::vector<std::string> lines = absl::StrSplit(point_trace, '\n');
    auto last_field = [](const std::string& line) { return line.substr(line.rfind(',') + 1); };
    EXPECT_EQ(last_field(lines[1]), absl::StrFormat("%.9g", a.trace(0).fold_in_perplexity_last()));
    EXPECT_EQ(last_field(lines[4]), absl::StrFormat("%.9g", a.trace(3).fold_in_perplexity_mean()));
    const std::string trace = Slurp(whole + "/trace_" + run + ".csv");
    EXPECT_EQ(trace.substr(0, trace.find('\n')),
              "iteration,train_seconds,documents,tokens,step_size,perplexity,running_perplexity");
    const std::string topics = Slurp(whole + "/topics_" + run + ".txt");
    EXPECT_EQ(std::count(topics.begin(), topics.end(), '\n'), 3) << topics;
  }
  const std::string summary = Slurp(whole + "/summary.txt");
  EXPECT_NE(summary.find("sgrld_fast: held-out perplexity "), std::string::npos) << summary;
  EXPECT_NE(summary.find("(posterior-mean topics over 8 samples, fold-in) after 12 iterations"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("other figures: fold-in perplexity of the last sample "),
            std::string::npos);
  // The headline is the posterior mean's fold-in perplexity the trace recorded last.
  const LdaCheckpoint sgrld = ReadCheckpoint(whole + "/checkpoint_sgrld_fast.pb");
  const LdaTracePoint& final_point = sgrld.trace(sgrld.trace_size() - 1);
  EXPECT_NE(summary.find(absl::StrFormat("held-out perplexity %.2f (",
                                         final_point.fold_in_perplexity_mean())),
            std::string::npos);
  EXPECT_EQ(SummaryLines("r", final_point).substr(0, 23), "r: held-out perplexity ");

  // A resume with different settings is refused.
  LdaConfig changed = SmallConfig(corpus_dir, parts, 14);
  changed.mutable_runs(0)->set_alpha(0.3);
  const absl::Status refused = RunLda(changed, Quiet(log, true));
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.message().find("written with different settings"), std::string::npos);
}

TEST(RunLdaTest, SnapshotsAreTheTopicMatricesTheTraceScored) {
  const std::string corpus_dir = TempDir("snap_corpus"), out = TempDir("snap");
  std::ostringstream log;
  LdaConfig config = SmallConfig(corpus_dir, out, 6);
  config.set_write_snapshots(true);
  config.mutable_runs()->DeleteSubrange(1, 1);
  config.mutable_runs(0)->set_mean_every(2);
  ASSERT_TRUE(RunLda(config, Quiet(log)).ok()) << log.str();
  const std::string index = Slurp(out + "/snapshots_scir_fast.csv");
  EXPECT_EQ(std::count(index.begin(), index.end(), '\n'), 3) << index;  // header, 3, 6
  EXPECT_NE(index.find("/snapshots_scir_fast/last_3.phi,,0\n"), std::string::npos) << index;
  EXPECT_NE(index.find("/snapshots_scir_fast/mean_6.phi,1\n"), std::string::npos) << index;
  // The last snapshots are the final outputs, bit for bit.
  EXPECT_EQ(Slurp(out + "/snapshots_scir_fast/last_6.phi"),
            Slurp(out + "/topic_matrix_scir_fast.phi"));
  EXPECT_EQ(Slurp(out + "/snapshots_scir_fast/mean_6.phi"),
            Slurp(out + "/topic_matrix_mean_scir_fast.phi"));
  config.mutable_runs(0)->set_mean_every(0);
  EXPECT_NE(RunLda(config, Quiet(log)).message().find("runs[0].mean_every must be >= 1"),
            std::string::npos);
}

// The .tsv topic matrices are the .phi ones as text; write_tsv: false leaves them out (the
// default leaves them out above 10^7 entries, with a line saying so).
TEST(RunLdaTest, TsvTopicMatricesFollowWriteTsv) {
  const std::string corpus_dir = TempDir("tsv_corpus"), out = TempDir("tsv");
  std::ostringstream log;
  LdaConfig config = SmallConfig(corpus_dir, out, 6);
  config.mutable_runs()->DeleteSubrange(1, 1);
  ASSERT_TRUE(RunLda(config, Quiet(log)).ok()) << log.str();
  for (const std::string name : {"topic_matrix_", "topic_matrix_mean_"}) {
    absl::StatusOr<data::TopicMatrix> text =
        data::ReadTopicMatrix(out + "/" + name + "scir_fast.tsv");
    absl::StatusOr<data::TopicMatrix> binary =
        data::ReadTopicMatrix(out + "/" + name + "scir_fast.phi");
    ASSERT_TRUE(text.ok() && binary.ok()) << text.status() << binary.status();
    ASSERT_EQ(text->values.size(), binary->values.size());
    // The .phi file written as it is encoded has EncodeTopicMatrixPhi's bytes.
    EXPECT_EQ(Slurp(out + "/" + name + "scir_fast.phi"),
              data::EncodeTopicMatrixPhi(binary->values, binary->num_topics,
                                         binary->vocabulary_size, binary->num_samples));
    for (size_t i = 0; i < text->values.size(); ++i) {
      ASSERT_NEAR(text->values[i], binary->values[i], 1e-8 * binary->values[i]) << i;
    }
  }
  const std::string without = TempDir("tsv_off");
  config.set_output_dir(without);
  config.set_write_tsv(false);
  ASSERT_TRUE(RunLda(config, Quiet(log)).ok()) << log.str();
  EXPECT_TRUE(std::filesystem::exists(without + "/topic_matrix_mean_scir_fast.phi"));
  EXPECT_FALSE(std::filesystem::exists(without + "/topic_matrix_scir_fast.tsv"));
  EXPECT_FALSE(std::filesystem::exists(without + "/topic_matrix_mean_scir_fast.tsv"));
  EXPECT_EQ(Slurp(without + "/topic_matrix_mean_scir_fast.phi"),
            Slurp(out + "/topic_matrix_mean_scir_fast.phi"));

  LdaConfig defaults;
  EXPECT_TRUE(LdaWritesTsv(defaults, 50, 6906));         // KOS, the main job
  EXPECT_TRUE(LdaWritesTsv(defaults, 1000, 10000));      // 10^7 entries
  EXPECT_FALSE(LdaWritesTsv(defaults, 1000, 10001));
  EXPECT_FALSE(LdaWritesTsv(defaults, 1000, 50000));
  defaults.set_write_tsv(true);
  EXPECT_TRUE(LdaWritesTsv(defaults, 1000, 50000));
  defaults.set_write_tsv(false);
  EXPECT_FALSE(LdaWritesTsv(defaults, 50, 6906));
}

// A damaged checkpoint (one bit of its middle byte flipped, inside the serialized state) is
// refused naming the file; it resumed silently with altered state before the checksum.
TEST(RunLdaTest, DamagedCheckpointIsRefused) {
  const std::string corpus_dir = TempDir("damaged_corpus"), out = TempDir("damaged");
  std::ostringstream log;
  ASSERT_TRUE(RunLda(SmallConfig(corpus_dir, out, 6), Quiet(log)).ok()) << log.str();
  const std::string path = out + "/checkpoint_scir_fast.pb";
  testing::FlipMiddleByte(path);
  const absl::Status refused = RunLda(SmallConfig(corpus_dir, out, 12), Quiet(log, true));
  EXPECT_EQ(refused.code(), absl::StatusCode::kDataLoss) << refused;
  EXPECT_EQ(refused.message(), path + ": checksum mismatch: the file is damaged");
}

// A streamed run (LdaConfig.stream) over the small corpus: its first 10 documents held out.
LdaConfig StreamConfig(const std::string& corpus_dir, const std::string& output_dir) {
  const auto [docword, vocab] = WriteCorpus(corpus_dir);
  LdaConfig config = *ParseLdaConfig(
      "seed: 7 threads: 2 eval_every: 3 eval_sweeps: 4 "
      "stream { held_out_documents: 10 passes: 2 shuffle_buffer_documents: 7 } "
      "runs { preset: 'scir_fast' num_topics: 3 minibatch_size: 8 gibbs_sweeps: 4 burn_in: 5 }",
      "inline");
  config.mutable_stream()->set_docword(docword);
  config.mutable_stream()->set_vocab(vocab);
  config.set_output_dir(output_dir);
  return config;
}

TEST(RunLdaStreamTest, StreamedRunEndsWithTheStreamAndResumesBitIdentically) {
  const std::string corpus_dir = TempDir("stream_corpus");
  const std::string whole = TempDir("stream_whole"), parts = TempDir("stream_parts");
  std::ostringstream log;
  // Two passes over the 50 training documents in minibatches of 8: ceil(100 / 8) = 13
  // iterations, the last of 4 documents.
  ASSERT_TRUE(RunLda(StreamConfig(corpus_dir, whole), Quiet(log)).ok()) << log.str();
  EXPECT_NE(log.str().find("D=50 V=24 stream="), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("never in memory"), std::string::npos);
  LdaConfig first = StreamConfig(corpus_dir, parts);
  first.mutable_runs(0)->set_iterations(6);
  ASSERT_TRUE(RunLda(first, Quiet(log)).ok()) << log.str();
  ASSERT_TRUE(RunLda(StreamConfig(corpus_dir, parts), Quiet(log, /*resume=*/true)).ok())
      << log.str();
  EXPECT_NE(log.str().find("resumed from"), std::string::npos);
  const LdaCheckpoint a = ReadCheckpoint(whole + "/checkpoint_scir_fast.pb");
  const LdaCheckpoint b = ReadCheckpoint(parts + "/checkpoint_scir_fast.pb");
  EXPECT_EQ(a.lda().iteration(), 13);
  EXPECT_EQ(a.documents(), 100);
  EXPECT_EQ(a.stream().documents_emitted(), 100);
  EXPECT_EQ(a.stream().passes_completed(), 2);
  EXPECT_EQ(a.lda().SerializeAsString(), b.lda().SerializeAsString());
  EXPECT_EQ(a.stream().SerializeAsString(), b.stream().SerializeAsString());
  EXPECT_EQ(a.evaluation().SerializeAsString(), b.evaluation().SerializeAsString());
  EXPECT_EQ(a.documents(), b.documents());
  EXPECT_EQ(Slurp(whole + "/topic_matrix_mean_scir_fast.phi"),
            Slurp(parts + "/topic_matrix_mean_scir_fast.phi"));
  // The same run from raw text over the same vocabulary: document d of the UCI corpus as
  // line d, its tokens in the order the docword lists them (by word id), so the same
  // documents and the same draws. The tokenizer keeps letters only: digits become letters.
  auto letters = [](int w) {
    std::string word = "word" + std::to_string(w);
    for (char& ch : word) {
      if (ch >= '0' && ch <= '9') ch = static_cast<char>('a' + (ch - '0'));
    }
    return word;
  };
  std::string letters_text, letters_vocab;
  for (int d = 0; d < 60; ++d) {
    std::vector<int> words;
    for (int i = 0; i < 30; ++i) words.push_back((d % 3) * 8 + (i * 7 + d) % 8);
    std::sort(words.begin(), words.end());
    for (int w : words) absl::StrAppend(&letters_text, letters(w), " ");
    letters_text += "\n";
  }
  for (int w = 0; w < 24; ++w) absl::StrAppend(&letters_vocab, letters(w), "\n");
  const std::string text_path = corpus_dir + "/docs.txt", vocab_path = corpus_dir + "/vocab.txt";
  std::ofstream(text_path) << letters_text;
  std::ofstream(vocab_path) << letters_vocab;
  LdaConfig from_text = StreamConfig(corpus_dir, TempDir("stream_text"));
  from_text.mutable_stream()->clear_docword();
  from_text.mutable_stream()->set_text(text_path);
  from_text.mutable_stream()->set_vocab(vocab_path);
  ASSERT_TRUE(RunLda(from_text, Quiet(log)).ok()) << log.str();
  const LdaCheckpoint c = ReadCheckpoint(from_text.output_dir() + "/checkpoint_scir_fast.pb");
  EXPECT_EQ(a.lda().SerializeAsString(), c.lda().SerializeAsString());
}

TEST(RunLdaStreamTest, BadStreamsAreErrorsNamingTheFileAndNothingLooksLikeAResult) {
  const std::string corpus_dir = TempDir("stream_bad_corpus");
  std::ostringstream log;
  auto error = [&](const LdaConfig& config) {
    const absl::Status status = RunLda(config, Quiet(log));
    EXPECT_FALSE(status.ok());
    EXPECT_FALSE(std::filesystem::exists(config.output_dir() + "/summary.txt"));
    EXPECT_FALSE(std::filesystem::exists(config.output_dir() + "/topic_matrix_scir_fast.phi"));
    return std::string(status.message());
  };
  // A vocabulary that does not match the docword's W.
  LdaConfig config = StreamConfig(corpus_dir, TempDir("stream_bad1"));
  const std::string short_vocab = corpus_dir + "/short_vocab.txt";
  std::ofstream(short_vocab) << "a\nb\nc\n";
  config.mutable_stream()->set_vocab(short_vocab);
  EXPECT_NE(error(config).find("its header says W = 24 words but"), std::string::npos);
  // A word id beyond W, in the middle of the stream: file and line.
  config = StreamConfig(corpus_dir, TempDir("stream_bad2"));
  const std::string bad = corpus_dir + "/docword.bad.txt";
  std::ofstream(bad) << "40\n24\n4\n1 1 1\n2 2 1\n30 25 1\n40 3 1\n";
  config.mutable_stream()->set_docword(bad);
  EXPECT_NE(error(config).find(bad + ":6: wordID 25 is outside [1, W = 24]"), std::string::npos);
  // A stream that ends mid-document (fewer entries than NNZ).
  std::ofstream(bad) << "40\n24\n5\n1 1 1\n2 2 1\n30 2 1\n40 3 1\n";
  EXPECT_NE(error(config).find("header says NNZ = 5"), std::string::npos);
  // A gzip cut short.
  const std::string gz = Slurp(StreamConfig(corpus_dir, TempDir("x")).stream().docword());
  const std::string cut = corpus_dir + "/docword.cut.txt.gz";
  std::ofstream(cut, std::ios::binary) << gz.substr(0, gz.size() / 2);
  config.mutable_stream()->set_docword(cut);
  EXPECT_NE(error(config).find(cut + ": truncated or corrupt"), std::string::npos);
  // A file that cannot be opened; both a corpus and a stream; no held-out documents.
  config.mutable_stream()->set_docword(corpus_dir + "/missing.txt");
  EXPECT_NE(error(config).find("missing.txt: cannot open"), std::string::npos);
  config = StreamConfig(corpus_dir, TempDir("stream_bad3"));
  config.mutable_corpus()->mutable_uci()->set_docword("x");
  EXPECT_NE(error(config).find("stream replaces corpus"), std::string::npos);
  config = StreamConfig(corpus_dir, TempDir("stream_bad4"));
  config.mutable_stream()->clear_held_out_documents();
  EXPECT_NE(error(config).find("set exactly one of stream.held_out_documents"),
            std::string::npos);
  config.mutable_stream()->set_held_out_documents(60);
  EXPECT_NE(error(config).find("leaves no training document"), std::string::npos);
  config.mutable_stream()->set_held_out_documents(10);
  config.mutable_runs(0)->set_count_estimator(LdaRunConfig::PERSISTENT_JOINT);
  EXPECT_NE(error(config).find("cannot train from a stream"), std::string::npos);
}

}  // namespace
}  // namespace sgmcmc::tools
