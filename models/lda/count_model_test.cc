#include "models/lda/count_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "base/check.h"
#include "data/corpus.h"
#include "gtest/gtest.h"
#include "models/lda/testing.h"
#include "parallel/thread_pool.h"
#include "rng/engine.h"
#include "samplers/count_model.h"
#include "samplers/scir.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_sampler.h"
#include "testing/distribution_testing.h"

namespace sgmcmc::models {
namespace {

// Sampler options of rows x cols simplices with prior 0.5.
samplers::SimplexSamplerOptions SamplerOptions(int rows, int cols) {
  samplers::SimplexSamplerOptions so;
  so.rows = rows;
  so.cols = cols;
  so.alpha = {0.5};
  return so;
}

// Totals of the scaled expected counts are exact: every kept sweep counts every token once,
// so column w sums to (D/n) x (occurrences of w in the batch) and nothing else is non-zero.
TEST(LdaCountModelTest, CountsConserveTokens) {
  const data::Corpus corpus = BlockCorpus(3, 5, 40, 25, 1);
  auto model = LdaCountModel::Create(&corpus, 3, 0.1, 0.5, 5, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  samplers::Scir scir = *samplers::Scir::Create(SamplerOptions(3, corpus.vocabulary_size()));
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
  // (mean_topics_per_document: TopicsPerDocumentIsExactUnderDisjointTopics.)
}

// set_scale_documents replaces D in the (D/n) scale and nothing else: with the same engine the
// Gibbs draws are the same, and doubling D doubles every count exactly (a power of 2).
TEST(LdaCountModelTest, ScaleDocumentsReplacesTheCorpusSize) {
  const data::Corpus corpus = BlockCorpus(3, 5, 40, 25, 1);
  samplers::Scir scir = *samplers::Scir::Create(SamplerOptions(3, corpus.vocabulary_size()));
  const std::vector<int64_t> batch = {3, 17, 0, 39};
  std::vector<std::vector<double>> dense;
  for (int64_t documents : {0, 80, 0}) {
    auto model = LdaCountModel::Create(&corpus, 3, 0.1, 0.5, 5, nullptr);
    ASSERT_TRUE(model.ok()) << model.status();
    (*model)->set_scale_documents(documents);
    samplers::SimplexCounts counts;
    rng::Engine engine(5);
    (*model)->ScaledCounts(engine, batch, scir, counts);
    dense.emplace_back(3 * corpus.vocabulary_size());
    counts.ToDense(absl::MakeSpan(dense.back()));
  }
  double total = 0;
  for (size_t i = 0; i < dense[0].size(); ++i) {
    EXPECT_EQ(dense[1][i], 2 * dense[0][i]) << i;
    EXPECT_EQ(dense[2][i], dense[0][i]) << i;
    total += dense[0][i];
  }
  EXPECT_NEAR(total, 40.0 / 4 * 100, 1e-9);  // 100 tokens in the batch, scaled by D/n = 10
}

// With topics on disjoint blocks (π_kw = 0 off block k, by log θ = -1000 there, which
// underflows to exactly 0) a token of block b can only take topic b, whatever the sweeps do,
// so the topics used by a document are exactly the blocks its words come from.
TEST(LdaCountModelTest, TopicsPerDocumentIsExactUnderDisjointTopics) {
  constexpr int kTopics = 3, kBlock = 5;
  const data::Corpus corpus = BlockCorpus(kTopics, kBlock, 40, 25, 1);
  auto model = LdaCountModel::Create(&corpus, kTopics, 0.1, 0.5, 5, nullptr);
  ASSERT_TRUE(model.ok()) << model.status();
  samplers::SimplexSamplerOptions so;
  so.rows = kTopics;
  so.cols = corpus.vocabulary_size();
  so.alpha = {0.5};
  samplers::Scir scir = *samplers::Scir::Create(so);
  for (int k = 0; k < kTopics; ++k) {
    std::vector<double> log_theta(corpus.vocabulary_size(), -1000.0);
    for (int w = k * kBlock; w < (k + 1) * kBlock; ++w) log_theta[w] = 0;
    ASSERT_TRUE(scir.SetLogTheta(k, log_theta).ok());
  }
  const std::vector<int64_t> batch = {3, 17, 0, 39, 22};
  double expected = 0;
  for (int64_t d : batch) {
    std::vector<bool> used(kTopics, false);
    for (int32_t w : corpus.document(static_cast<int>(d))) used[w / kBlock] = true;
    expected += std::count(used.begin(), used.end(), true);
  }
  expected /= batch.size();
  // Mixing 0.2 over 25 tokens: most documents use 2 blocks, not all of them 1 or 3.
  EXPECT_GT(expected, 1.0);
  EXPECT_LT(expected, 3.0);
  samplers::SimplexCounts counts;
  rng::Engine engine(5);
  (*model)->ScaledCounts(engine, batch, scir, counts);
  EXPECT_EQ((*model)->last_stats().mean_topics_per_document, expected);
  // And every count sits on its word's block.
  std::vector<double> dense(kTopics * corpus.vocabulary_size());
  counts.ToDense(absl::MakeSpan(dense));
  for (int k = 0; k < kTopics; ++k) {
    for (int w = 0; w < corpus.vocabulary_size(); ++w) {
      if (w / kBlock != k) EXPECT_EQ(dense[k * corpus.vocabulary_size() + w], 0.0) << k << " " << w;
    }
  }
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

// The sampler's ω stored word-major (every word, in word order), for WordMajorColumns.
std::vector<double> WordMajor(const samplers::SimplexParameters& sampler) {
  std::vector<double> columns(static_cast<size_t>(sampler.rows()) * sampler.cols());
  std::vector<double> row(sampler.cols());
  for (int k = 0; k < sampler.rows(); ++k) {
    sampler.Simplex(k, absl::MakeSpan(row));
    for (int w = 0; w < sampler.cols(); ++w) {
      columns[static_cast<size_t>(w) * sampler.rows() + k] = row[w];
    }
  }
  return columns;
}

TEST(WordMajorColumnsDeathTest, RowReadsAndUnstoredWordsDie) {
  const std::vector<double> columns = {0.25, 0.75, 0.5, 0.5};  // K = 2, words 2 and 0
  const std::vector<int32_t> column_of_word = {1, -1, 0};
  const WordMajorColumns pi(2, 3, columns.data(), column_of_word.data());
  EXPECT_EQ(pi.ContiguousColumn(2), columns.data());
  EXPECT_EQ(pi.ContiguousColumn(0), columns.data() + 2);
  EXPECT_DEATH(pi.ContiguousColumn(1), "WordMajorColumns: word 1 not stored");
  EXPECT_DEATH(pi.ContiguousColumn(3), "word 3 outside \\[0, 3\\)");
  std::vector<double> row(3);
  EXPECT_DEATH(pi.Simplex(1, absl::MakeSpan(row)), "WordMajorColumns: row 1 read by row");
  std::vector<double> out(2);
  EXPECT_DEATH(pi.SimplexColumns(std::vector<int32_t>{0}, absl::MakeSpan(out)), "read by row");
}

std::vector<double> DenseCounts(const samplers::SimplexCounts& counts) {
  std::vector<double> dense(static_cast<size_t>(counts.rows()) * counts.cols());
  counts.ToDense(absl::MakeSpan(dense));
  return dense;
}

TEST(LdaCountModelTest, SameCountsForAnyThreadCountAndParameterPath) {
  const data::Corpus corpus = BlockCorpus(4, 6, 60, 40, 2);
  samplers::SimplexSamplerOptions so = SamplerOptions(4, corpus.vocabulary_size());
  so.seed = 4;
  for (bool scir : {true, false}) {
    // Non-uniform topics: a few steps of the sampler with arbitrary counts.
    std::vector<double> fake(4 * corpus.vocabulary_size());
    for (size_t i = 0; i < fake.size(); ++i) fake[i] = (i * 7919) % 13;
    const samplers::DenseCountsView view{4, corpus.vocabulary_size(), fake};
    std::unique_ptr<samplers::SimplexSampler> sampler;
    if (scir) {
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
      // The sampler's own gather, the generic path through Simplex, and whole columns
      // (WordMajorColumns fails if read by row, so that path must be the copies).
      const OpaqueParameters opaque(*sampler);
      const std::vector<double> columns = WordMajor(*sampler);
      std::vector<int32_t> column_of_word(corpus.vocabulary_size());
      std::iota(column_of_word.begin(), column_of_word.end(), 0);
      const WordMajorColumns word_major(4, corpus.vocabulary_size(), columns.data(),
                                        column_of_word.data());
      for (int path = 0; path < 3; ++path) {
        const samplers::SimplexParameters& parameters =
            path == 0 ? static_cast<const samplers::SimplexParameters&>(*sampler)
            : path == 1 ? static_cast<const samplers::SimplexParameters&>(opaque)
                        : word_major;
        rng::Engine engine(123);
        samplers::SimplexCounts counts;
        (*model)->ScaledCounts(engine, batch, parameters, counts);
        const std::vector<double> dense = DenseCounts(counts);
        if (reference.empty()) {
          reference = dense;
        } else {
          EXPECT_EQ(dense, reference) << "threads=" << threads << " path=" << path
                                      << " sampler=" << (scir ? "scir" : "sgrld");
        }
      }
    }
  }
}

// The sparse rows themselves (columns, values, totals: what the samplers read), call after
// call on one model, equal a one-thread model's bit for bit on any thread count: the merge
// leaves every thread's accumulator zero for the next call, and the rows written by chunks
// (SimplexCounts::SetRow) carry the same totals as appending them in order would.
TEST(LdaCountModelTest, RepeatedCallsGiveTheSameSparseRowsOnAnyThreadCount) {
  const data::Corpus corpus = BlockCorpus(5, 6, 60, 40, 2);
  samplers::SimplexSamplerOptions so = SamplerOptions(5, corpus.vocabulary_size());
  so.seed = 9;
  samplers::Scir sampler = *samplers::Scir::Create(so);
  std::vector<double> fake(5 * corpus.vocabulary_size());
  for (size_t i = 0; i < fake.size(); ++i) fake[i] = (i * 104729) % 11;
  sampler.Step(samplers::DenseCountsView{5, corpus.vocabulary_size(), fake}, 0.05);
  const std::vector<std::vector<int64_t>> batches = {
      {5, 59, 12, 30, 31, 0, 44}, {1, 2, 3}, {58, 57, 20, 21, 22, 23, 24, 25, 40}};
  auto run = [&](parallel::ThreadPool* pool) {
    auto model = LdaCountModel::Create(&corpus, 5, 0.1, 0.5, 6, pool);
    SGMCMC_CHECK(model.ok());
    rng::Engine engine(77);
    samplers::SimplexCounts counts;
    std::vector<std::vector<double>> rows;  // per call and row: columns, values, total
    for (int call = 0; call < 6; ++call) {
      (*model)->ScaledCounts(engine, batches[call % 3], sampler, counts);
      for (int k = 0; k < counts.rows(); ++k) {
        const samplers::SparseCountsRow row = counts.row(k);
        std::vector<double> flat(row.cols.begin(), row.cols.end());
        flat.insert(flat.end(), row.values.begin(), row.values.end());
        flat.push_back(row.total);
        rows.push_back(flat);
      }
    }
    return rows;
  };
  const std::vector<std::vector<double>> reference = run(nullptr);
  for (int threads : {1, 2, 3, 7}) {
    parallel::ThreadPool pool(threads);
    EXPECT_EQ(run(&pool), reference) << threads << " threads";
  }
}

// ScaledCountsByRow hands over exactly ScaledCounts' rows (columns, values, totals), each
// once, on any thread count and for any row costs (which only move rows between threads), call
// after call; row_fn may step its row of π (read only before the sweeps), so a run that steps
// each row inside row_fn equals one that steps them all after ScaledCounts.
TEST(LdaCountModelTest, ByRowGivesScaledCountsRowsOnAnyThreadCountAndRowCosts) {
  const data::Corpus corpus = BlockCorpus(5, 6, 60, 40, 2);
  const std::vector<std::vector<int64_t>> batches = {
      {5, 59, 12, 30, 31, 0, 44}, {1, 2, 3}, {58, 57, 20, 21, 22, 23, 24, 25, 40}};
  using Rows = std::vector<std::vector<double>>;  // per call and row: columns, values, total
  auto flatten = [](const samplers::SparseCountsRow& row) {
    std::vector<double> flat(row.cols.begin(), row.cols.end());
    flat.insert(flat.end(), row.values.begin(), row.values.end());
    flat.push_back(row.total);
    return flat;
  };
  auto make_sampler = [&] {
    samplers::SimplexSamplerOptions so = SamplerOptions(5, corpus.vocabulary_size());
    so.seed = 9;
    return *samplers::Scir::Create(so);
  };
  // Reference: ScaledCounts, then the whole step, on one thread.
  Rows reference;
  std::vector<double> reference_pi(5 * corpus.vocabulary_size());
  {
    auto model = LdaCountModel::Create(&corpus, 5, 0.1, 0.5, 6, nullptr);
    SGMCMC_CHECK(model.ok());
    samplers::Scir sampler = make_sampler();
    rng::Engine engine(77);
    samplers::SimplexCounts counts;
    for (int call = 0; call < 6; ++call) {
      (*model)->ScaledCounts(engine, batches[call % 3], sampler, counts);
      for (int k = 0; k < counts.rows(); ++k) reference.push_back(flatten(counts.row(k)));
      sampler.Step(counts, 0.3);
    }
    sampler.SimplexRows(0, 5, absl::MakeSpan(reference_pi));
  }
  const std::vector<std::vector<double>> costs = {{}, {0, 0, 0, 0, 0}, {5, 1, 4, 2, 3},
                                                  {0, 0, 9, 0, 1}};
  for (int threads : {0, 1, 2, 3, 7}) {
    for (const std::vector<double>& row_costs : costs) {
      std::unique_ptr<parallel::ThreadPool> pool;
      if (threads > 0) pool = std::make_unique<parallel::ThreadPool>(threads);
      auto model = LdaCountModel::Create(&corpus, 5, 0.1, 0.5, 6, pool.get());
      SGMCMC_CHECK(model.ok());
      samplers::Scir sampler = make_sampler();
      rng::Engine engine(77);
      Rows rows;
      for (int call = 0; call < 6; ++call) {
        Rows call_rows(5);
        std::vector<int> seen(5, 0);
        (*model)->ScaledCountsByRow(
            engine, batches[call % 3], sampler, row_costs,
            [&](int t, int k, const samplers::SparseCountsRow& row) {
              EXPECT_GE(t, 0);
              EXPECT_LT(t, std::max(threads, 1));
              ++seen[k];
              call_rows[k] = flatten(row);
              sampler.StepRow(k, row, 0.3);
            });
        EXPECT_EQ(seen, std::vector<int>(5, 1));
        rows.insert(rows.end(), call_rows.begin(), call_rows.end());
      }
      EXPECT_EQ(rows, reference) << threads << " threads, " << row_costs.size() << " costs";
      std::vector<double> pi(reference_pi.size());
      sampler.SimplexRows(0, 5, absl::MakeSpan(pi));
      EXPECT_EQ(pi, reference_pi) << threads << " threads";
    }
  }
}

// kLastSweep reports one assignment's counts: (n/D) x counts are integers, each column sums
// to the word's occurrences in the batch. With S <= 2 both estimators keep one sweep and give
// the same counts, bit for bit; with more sweeps the average is not integral.
TEST(LdaCountModelTest, LastSweepCountsAreOneAssignmentsCounts) {
  const data::Corpus corpus = BlockCorpus(3, 5, 40, 25, 1);
  const int cols = corpus.vocabulary_size();
  samplers::SimplexSamplerOptions so;
  so.rows = 3;
  so.cols = cols;
  so.alpha = {0.5};
  samplers::Scir scir = *samplers::Scir::Create(so);
  const std::vector<int64_t> batch = {3, 17, 0, 39};
  auto dense_counts = [&](int sweeps, LdaCountEstimator estimator) {
    auto model = *LdaCountModel::Create(&corpus, 3, 0.1, 0.5, sweeps, nullptr, estimator);
    samplers::SimplexCounts counts;
    rng::Engine engine(5);
    model->ScaledCounts(engine, batch, scir, counts);
    std::vector<double> dense(3 * cols);
    counts.ToDense(absl::MakeSpan(dense));
    return dense;
  };
  const std::vector<double> last = dense_counts(7, LdaCountEstimator::kLastSweep);
  bool average_integral = true;
  const std::vector<double> average = dense_counts(7, LdaCountEstimator::kSweepAverage);
  for (int j = 0; j < 3 * cols; ++j) {
    const double n = last[j] * 4 / 40;
    EXPECT_EQ(n, std::round(n)) << "entry " << j;
    average_integral &= average[j] * 4 / 40 == std::round(average[j] * 4 / 40);
  }
  EXPECT_FALSE(average_integral);
  for (int w = 0; w < cols; ++w) {
    double column = 0, expected = 0;
    for (int k = 0; k < 3; ++k) column += last[k * cols + w];
    for (int64_t d : batch) {
      for (int32_t v : corpus.document(static_cast<int>(d))) expected += v == w ? 10.0 : 0.0;
    }
    EXPECT_EQ(column, expected) << "word " << w;
  }
  for (int sweeps : {1, 2}) {
    EXPECT_EQ(dense_counts(sweeps, LdaCountEstimator::kLastSweep),
              dense_counts(sweeps, LdaCountEstimator::kSweepAverage))
        << sweeps << " sweeps";
  }
  EXPECT_EQ(LdaCountEstimatorName(LdaCountEstimator::kSweepAverage), "sweep_average");
  EXPECT_EQ(LdaCountEstimatorName(LdaCountEstimator::kLastSweep), "last_sweep");
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

}  // namespace
}  // namespace sgmcmc::models
