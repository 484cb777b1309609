#include "models/lda.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "data/corpus.h"
#include "gtest/gtest.h"
#include "parallel/thread_pool.h"
#include "rng/uniform.h"
#include "samplers/count_model.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::models {
namespace {

// A corpus from LDA with `num_topics` topics on disjoint blocks of `block` words (uniform
// within the block); document d draws each token from topic d % K with probability
// 1 - `mixing`, else from topic (d + 1) % K.
data::Corpus BlockCorpus(int num_topics, int block, int num_documents, int length,
                         uint64_t seed, double mixing = 0.2) {
  data::Corpus corpus;
  for (int w = 0; w < num_topics * block; ++w) corpus.vocabulary.push_back("w" + std::to_string(w));
  rng::Engine engine(seed, 3);
  std::vector<int32_t> doc(length);
  for (int d = 0; d < num_documents; ++d) {
    for (int i = 0; i < length; ++i) {
      const int k = (d + (rng::UniformDouble(engine) < mixing ? 1 : 0)) % num_topics;
      doc[i] = static_cast<int32_t>(k * block + rng::UniformInt(engine, block));
    }
    corpus.AddDocument(doc);
  }
  return corpus;
}

LdaOptions SmallOptions(LdaSampler sampler) {
  LdaOptions options = LdaPresetOptions(sampler == LdaSampler::kScir ? LdaPreset::kScirFast
                                                                       : LdaPreset::kSgrldFast);
  options.num_topics = 4;
  options.minibatch_size = 10;
  options.gibbs_sweeps = 6;
  options.seed = 99;
  return options;
}

std::vector<double> TopicsOf(const Lda& lda) {
  std::vector<double> topics(static_cast<size_t>(lda.num_topics()) * lda.vocabulary_size());
  lda.Topics(absl::MakeSpan(topics));
  return topics;
}

TEST(LdaOptionsTest, ValidateNamesTheField) {
  EXPECT_TRUE(LdaOptions().Validate(100).ok());
  auto message = [](LdaOptions o, int d = 100) { return std::string(o.Validate(d).message()); };
  LdaOptions o;
  o.num_topics = 0;
  EXPECT_NE(message(o).find("LdaOptions.num_topics"), std::string::npos) << message(o);
  o = LdaOptions();
  o.alpha = -1;
  EXPECT_NE(message(o).find("LdaOptions.alpha"), std::string::npos);
  o = LdaOptions();
  o.beta = std::nan("");
  EXPECT_NE(message(o).find("LdaOptions.beta"), std::string::npos);
  o = LdaOptions();
  o.step_size.h = 0;
  EXPECT_NE(message(o).find("LdaOptions.step_size"), std::string::npos);
  o = LdaOptions();
  o.minibatch_size = 101;
  EXPECT_NE(message(o).find("LdaOptions.minibatch_size must be in [1, D = 100]"),
            std::string::npos);
  EXPECT_TRUE(o.Validate(-1).ok());
  o = LdaOptions();
  o.gibbs_sweeps = 0;
  EXPECT_NE(message(o).find("LdaOptions.gibbs_sweeps"), std::string::npos);
}

// Every setting a preset fixes, in one comparison per field.
struct PresetSettings {
  LdaSampler sampler;
  double h, tau, kappa, alpha, beta;
  int num_topics, minibatch_size, gibbs_sweeps;
};

void ExpectPreset(LdaPreset preset, const PresetSettings& want) {
  const LdaOptions o = LdaPresetOptions(preset);
  const std::string name(LdaPresetName(preset));
  EXPECT_EQ(o.sampler, want.sampler) << name;
  EXPECT_EQ(o.step_size.schedule, samplers::StepSizeOptions::Schedule::kPolynomialDecay) << name;
  EXPECT_EQ(o.step_size.h, want.h) << name;
  EXPECT_EQ(o.step_size.tau, want.tau) << name;
  EXPECT_EQ(o.step_size.kappa, want.kappa) << name;
  EXPECT_EQ(o.alpha, want.alpha) << name;
  EXPECT_EQ(o.beta, want.beta) << name;
  EXPECT_EQ(o.num_topics, want.num_topics) << name;
  EXPECT_EQ(o.minibatch_size, want.minibatch_size) << name;
  EXPECT_EQ(o.gibbs_sweeps, want.gibbs_sweeps) << name;
}

TEST(LdaPresetTest, PaperSettingsOfBakerEtAlTable2AndTunedSettings) {
  ExpectPreset(LdaPreset::kScirPaper, {LdaSampler::kScir, 0.5, 10, 0.33, 0.1, 0.5, 100, 50, 200});
  ExpectPreset(LdaPreset::kSgrldPaper,
               {LdaSampler::kSgrld, 0.01, 1000, 0.6, 0.01, 1e-4, 100, 50, 200});
  // The tuned presets (grid search on KOS, bench/README.md).
  ExpectPreset(LdaPreset::kScirFast,
               {LdaSampler::kScir, 0.5, 10, 0.33, 0.1, 0.1, 100, 50, kFastGibbsSweeps});
  ExpectPreset(LdaPreset::kSgrldFast,
               {LdaSampler::kSgrld, 0.1, 100, 0.6, 0.1, 0.01, 100, 50, kFastGibbsSweeps});
  EXPECT_EQ(kFastGibbsSweeps, 20);
  for (LdaPreset p : {LdaPreset::kScirPaper, LdaPreset::kSgrldPaper, LdaPreset::kScirFast,
                      LdaPreset::kSgrldFast}) {
    EXPECT_EQ(*ParseLdaPreset(LdaPresetName(p)), p);
    EXPECT_TRUE(LdaPresetOptions(p).Validate(50).ok());
  }
  EXPECT_NE(ParseLdaPreset("scir").status().message().find("valid: scir_paper"),
            std::string::npos);
}

// Totals of the scaled expected counts are exact: every kept sweep counts every token once,
// so column w sums to (D/n) x (occurrences of w in the batch) and nothing else is non-zero.
TEST(LdaCountModelTest, CountsConserveTokens) {
  const data::Corpus corpus = BlockCorpus(3, 5, 40, 25, 1);
  auto model = LdaCountModel::Create(&corpus, 3, 0.1, 0.5, 5, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  samplers::SimplexSamplerOptions so;
  so.rows = 3;
  so.cols = corpus.vocabulary_size();
  so.alpha = {0.5};
  samplers::Scir scir = *samplers::Scir::Create(so);
  const std::vector<int64_t> batch = {3, 17, 0, 39};
  samplers::SimplexCounts counts;
  rng::Engine engine(5);
  (*model)->ScaledCounts(engine, batch, scir, counts);
  std::vector<double> dense(3 * corpus.vocabulary_size());
  counts.ToDense(absl::MakeSpan(dense));
  std::vector<double> expected(corpus.vocabulary_size(), 0.0);
  for (int64_t d : batch) {
    for (int32_t w : corpus.document(static_cast<int>(d))) expected[w] += 40.0 / 4;
  }
  for (int w = 0; w < corpus.vocabulary_size(); ++w) {
    double column = 0;
    for (int k = 0; k < 3; ++k) column += dense[k * corpus.vocabulary_size() + w];
    EXPECT_NEAR(column, expected[w], 1e-9) << "word " << w;
  }
  const auto& stats = (*model)->last_stats();
  EXPECT_EQ(stats.documents, 4);
  EXPECT_EQ(stats.tokens, 100);
  EXPECT_EQ(stats.token_updates, 600);
  EXPECT_GE(stats.mean_topics_per_document, 1.0);
  EXPECT_LE(stats.mean_topics_per_document, 3.0);
}

// A one-token document has E[count_k] = (D/n) π_kw / Σ_k' π_k'w. z-test of the mean of the
// averaged counts over many calls (each a fresh engine word as key).
TEST(LdaCountModelTest, OneTokenDocumentCountsHaveExactMean) {
  data::Corpus corpus;
  corpus.vocabulary = {"a", "b", "c"};
  corpus.AddDocument(std::vector<int32_t>{1});
  corpus.AddDocument(std::vector<int32_t>{0, 2});
  auto model = LdaCountModel::Create(&corpus, 3, 0.3, 0.5, 4, nullptr);
  ASSERT_TRUE(model.ok());
  samplers::SimplexSamplerOptions so;
  so.rows = 3;
  so.cols = 3;
  so.alpha = {0.5};
  samplers::Scir scir = *samplers::Scir::Create(so);
  const std::vector<std::vector<double>> theta = {{1, 2, 3}, {4, 1, 1}, {1, 1, 0.5}};
  std::vector<double> pi(3);
  double pi_sum = 0;
  for (int k = 0; k < 3; ++k) {
    ASSERT_TRUE(scir.SetTheta(k, theta[k]).ok());
    pi[k] = theta[k][1] / (theta[k][0] + theta[k][1] + theta[k][2]);
    pi_sum += pi[k];
  }
  // With S = 4 sweeps the last 2 are kept, and D/n = 2, so the count of topic k for the token
  // is (2 / 2) (I_1 + I_2): a lone token's draws ignore each other, so the I_s are i.i.d.
  // Bernoulli(p_k), p_k = pi[k] / pi_sum. Mean 2 p_k, variance 2 p_k (1 - p_k).
  constexpr int kCalls = 20000;
  std::vector<std::vector<double>> draws(3, std::vector<double>(kCalls));
  samplers::SimplexCounts counts;
  rng::Engine engine(17);
  const std::vector<int64_t> batch = {0};
  for (int r = 0; r < kCalls; ++r) {
    (*model)->ScaledCounts(engine, batch, scir, counts);
    std::vector<double> dense(9);
    counts.ToDense(absl::MakeSpan(dense));
    for (int k = 0; k < 3; ++k) draws[k][r] = dense[k * 3 + 1];
  }
  for (int k = 0; k < 3; ++k) {
    const double p = pi[k] / pi_sum;
    const auto result = testing::MeanZTest(draws[k], 2 * p, 2 * p * (1 - p));
    EXPECT_TRUE(result.Passed()) << "topic " << k << " " << result;
  }
}

// Wraps a sampler so LdaCountModel must take its generic SimplexParameters path.
class OpaqueParameters final : public samplers::SimplexParameters {
 public:
  explicit OpaqueParameters(const samplers::SimplexParameters& inner) : inner_(inner) {}
  int rows() const override { return inner_.rows(); }
  int cols() const override { return inner_.cols(); }
  void Simplex(int row, absl::Span<double> out) const override { inner_.Simplex(row, out); }
  void LogSimplex(int row, absl::Span<double> out) const override {
    inner_.LogSimplex(row, out);
  }

 private:
  const samplers::SimplexParameters& inner_;
};

std::vector<double> DenseCounts(const samplers::SimplexCounts& counts) {
  std::vector<double> dense(static_cast<size_t>(counts.rows()) * counts.cols());
  counts.ToDense(absl::MakeSpan(dense));
  return dense;
}

TEST(LdaCountModelTest, SameCountsForAnyThreadCountAndParameterPath) {
  const data::Corpus corpus = BlockCorpus(4, 6, 60, 40, 2);
  samplers::SimplexSamplerOptions so;
  so.rows = 4;
  so.cols = corpus.vocabulary_size();
  so.alpha = {0.5};
  so.seed = 4;
  for (LdaSampler which : {LdaSampler::kScir, LdaSampler::kSgrld}) {
    // Non-uniform topics: a few steps of the sampler with arbitrary counts.
    std::vector<double> fake(4 * corpus.vocabulary_size());
    for (size_t i = 0; i < fake.size(); ++i) fake[i] = (i * 7919) % 13;
    const samplers::DenseCountsView view{4, corpus.vocabulary_size(), fake};
    std::unique_ptr<samplers::SimplexSampler> sampler;
    if (which == LdaSampler::kScir) {
      sampler = std::make_unique<samplers::Scir>(*samplers::Scir::Create(so));
    } else {
      sampler = std::make_unique<samplers::Sgrld>(*samplers::Sgrld::Create(so));
    }
    for (int m = 0; m < 3; ++m) sampler->Step(view, 0.05);

    const std::vector<int64_t> batch = {5, 59, 12, 30, 31, 0, 44};
    std::vector<double> reference;
    // 5 threads > K = 4 rows: a thread with no rows of the count assembly.
    for (int threads : {0, 1, 2, 3, 5}) {
      std::unique_ptr<parallel::ThreadPool> pool;
      if (threads > 0) pool = std::make_unique<parallel::ThreadPool>(threads);
      auto model = LdaCountModel::Create(&corpus, 4, 0.1, 0.5, 7, pool.get());
      ASSERT_TRUE(model.ok());
      for (bool opaque : {false, true}) {
        rng::Engine engine(123);
        samplers::SimplexCounts counts;
        if (opaque) {
          (*model)->ScaledCounts(engine, batch, OpaqueParameters(*sampler), counts);
        } else {
          (*model)->ScaledCounts(engine, batch, *sampler, counts);
        }
        const std::vector<double> dense = DenseCounts(counts);
        if (reference.empty()) {
          reference = dense;
        } else {
          EXPECT_EQ(dense, reference) << "threads=" << threads << " opaque=" << opaque
                                      << " sampler=" << LdaSamplerName(which);
        }
      }
    }
  }
}

TEST(LdaCountModelTest, CreateRejectsBadArguments) {
  const data::Corpus corpus = BlockCorpus(2, 3, 5, 4, 3);
  EXPECT_FALSE(LdaCountModel::Create(nullptr, 2, 0.1, 0.1, 2, nullptr).ok());
  EXPECT_NE(LdaCountModel::Create(&corpus, 0, 0.1, 0.1, 2, nullptr).status().message().find(
                "num_topics"),
            std::string::npos);
  EXPECT_FALSE(LdaCountModel::Create(&corpus, 2, 0.0, 0.1, 2, nullptr).ok());
  EXPECT_FALSE(LdaCountModel::Create(&corpus, 2, 0.1, -1, 2, nullptr).ok());
  EXPECT_NE(LdaCountModel::Create(&corpus, 2, 0.1, 0.1, 0, nullptr).status().message().find(
                "gibbs_sweeps"),
            std::string::npos);
}

TEST(LdaTest, BitIdenticalForAnyThreadCount) {
  const data::Corpus corpus = BlockCorpus(4, 8, 80, 30, 4);
  for (LdaSampler which : {LdaSampler::kScir, LdaSampler::kSgrld}) {
    std::vector<double> reference;
    for (int threads : {0, 1, 2, 3}) {
      std::unique_ptr<parallel::ThreadPool> pool;
      if (threads > 0) pool = std::make_unique<parallel::ThreadPool>(threads);
      auto lda = Lda::Create(corpus, SmallOptions(which), pool.get());
      ASSERT_TRUE(lda.ok()) << lda.status();
      for (int m = 0; m < 5; ++m) lda->Step();
      EXPECT_EQ(lda->iteration(), 5);
      const std::vector<double> topics = TopicsOf(*lda);
      if (reference.empty()) {
        reference = topics;
      } else {
        EXPECT_EQ(topics, reference) << "threads=" << threads << " " << LdaSamplerName(which);
      }
    }
  }
}

TEST(LdaTest, RestoredRunContinuesBitIdentically) {
  // V = 600 > Sgrld::kNoiseBlock, so SGRLD's row sums are accumulated over several blocks.
  const data::Corpus corpus = BlockCorpus(4, 150, 80, 30, 5);
  for (LdaSampler which : {LdaSampler::kScir, LdaSampler::kSgrld}) {
    parallel::ThreadPool pool(2);
    auto uninterrupted = Lda::Create(corpus, SmallOptions(which), &pool);
    ASSERT_TRUE(uninterrupted.ok());
    for (int m = 0; m < 8; ++m) uninterrupted->Step();

    auto first = Lda::Create(corpus, SmallOptions(which), &pool);
    ASSERT_TRUE(first.ok());
    for (int m = 0; m < 3; ++m) first->Step();
    const LdaState state = first->State();
    EXPECT_EQ(state.iteration, 3);

    auto resumed = Lda::Create(corpus, SmallOptions(which), nullptr);
    ASSERT_TRUE(resumed.ok());
    ASSERT_TRUE(resumed->Restore(state).ok());
    EXPECT_EQ(resumed->iteration(), 3);
    // The restored row normalisers (SGRLD's row sums, SCIR's log-normalisers) are the
    // chain's own to the last bit, so ω is too.
    EXPECT_EQ(TopicsOf(*resumed), TopicsOf(*first)) << LdaSamplerName(which);
    for (int m = 3; m < 8; ++m) resumed->Step();
    EXPECT_EQ(TopicsOf(*resumed), TopicsOf(*uninterrupted)) << LdaSamplerName(which);
    const LdaState a = resumed->State(), b = uninterrupted->State();
    EXPECT_EQ(a.parameters, b.parameters);
    EXPECT_EQ(a.row_steps, b.row_steps);
    EXPECT_EQ(a.driver_position, b.driver_position);
  }
}

TEST(LdaTest, RestoreRejectsMismatchedState) {
  const data::Corpus corpus = BlockCorpus(4, 8, 20, 10, 6);
  auto lda = Lda::Create(corpus, SmallOptions(LdaSampler::kScir), nullptr);
  ASSERT_TRUE(lda.ok());
  LdaState state = lda->State();
  state.row_steps.pop_back();
  EXPECT_NE(lda->Restore(state).message().find("Lda::Restore"), std::string::npos);
  state = lda->State();
  state.parameters[3] = std::nan("");
  EXPECT_FALSE(lda->Restore(state).ok());
}

// On separated synthetic topics (single-topic documents) both samplers recover them: every
// learned topic puts almost all its mass on one block, and the blocks are distinct. (The
// prior alone leaves 24 β / (n_k + 32 β) < 1% off-block; minibatch noise a few percent.)
TEST(LdaTest, RecoversSeparatedTopics) {
  constexpr int kTopics = 4, kBlock = 8;
  const data::Corpus corpus = BlockCorpus(kTopics, kBlock, 200, 40, 7, /*mixing=*/0.0);
  for (LdaSampler which : {LdaSampler::kScir, LdaSampler::kSgrld}) {
    LdaOptions options = SmallOptions(which);
    options.minibatch_size = 20;
    options.gibbs_sweeps = 10;
    if (which == LdaSampler::kSgrld) options.step_size.h = 0.1;
    auto lda = Lda::Create(corpus, options, nullptr);
    ASSERT_TRUE(lda.ok());
    for (int m = 0; m < 150; ++m) lda->Step();
    const std::vector<double> topics = TopicsOf(*lda);
    std::vector<int> owner(kTopics, -1);
    for (int k = 0; k < kTopics; ++k) {
      std::vector<double> block_mass(kTopics, 0.0);
      for (int w = 0; w < kTopics * kBlock; ++w) {
        block_mass[w / kBlock] += topics[k * kTopics * kBlock + w];
      }
      int best = 0;
      for (int b = 1; b < kTopics; ++b) best = block_mass[b] > block_mass[best] ? b : best;
      EXPECT_GT(block_mass[best], 0.9) << LdaSamplerName(which) << " topic " << k;
      owner[k] = best;
    }
    std::sort(owner.begin(), owner.end());
    EXPECT_EQ(owner, (std::vector<int>{0, 1, 2, 3})) << LdaSamplerName(which);
  }
}

}  // namespace
}  // namespace sgmcmc::models
