#include "eval/fold_in.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "parallel/thread_pool.h"
#include "rng/categorical.h"
#include "rng/engine.h"
#include "rng/uniform.h"

namespace sgmcmc::eval {
namespace {

using ::testing::HasSubstr;

data::Corpus MakeCorpus(int vocabulary_size, const std::vector<std::vector<int32_t>>& docs) {
  data::Corpus corpus;
  corpus.vocabulary.resize(vocabulary_size);
  for (const auto& doc : docs) corpus.AddDocument(doc);
  return corpus;
}

FoldIn MakeFoldIn(const data::Corpus& corpus, int num_topics, const FoldInOptions& options) {
  absl::StatusOr<FoldIn> fold_in = FoldIn::Create(corpus, num_topics, options);
  SGMCMC_CHECK(fold_in.ok()) << fold_in.status();
  return *std::move(fold_in);
}

std::vector<double> Transform(const FoldIn& fold_in, const std::vector<double>& topics,
                              parallel::ThreadPool* pool = nullptr) {
  std::vector<double> theta(static_cast<size_t>(fold_in.num_documents()) *
                            fold_in.num_topics());
  const absl::Status s = fold_in.Transform(topics, absl::MakeSpan(theta), pool);
  SGMCMC_CHECK(s.ok()) << s;
  return theta;
}

FoldInOptions Exact(double alpha) {
  FoldInOptions options;
  options.alpha = alpha;
  options.max_iterations = 1000000;
  options.tolerance = 1e-15;
  return options;
}

// K x V topics whose rows are uniform draws normalised to sum 1.
std::vector<double> UniformRows(int K, int V, rng::Engine& engine) {
  std::vector<double> phi(static_cast<size_t>(K) * V);
  for (int k = 0; k < K; ++k) {
    double sum = 0;
    for (int w = 0; w < V; ++w) {
      sum += phi[static_cast<size_t>(k) * V + w] = rng::UniformDouble(engine);
    }
    for (int w = 0; w < V; ++w) phi[static_cast<size_t>(k) * V + w] /= sum;
  }
  return phi;
}

// The distinct words of an ascending token list and their counts.
void DistinctWithCounts(const std::vector<int32_t>& sorted, std::vector<int>& words,
                        std::vector<double>& counts) {
  for (int32_t w : sorted) {
    if (!words.empty() && words.back() == w) {
      counts.back() += 1;
    } else {
      words.push_back(w);
      counts.push_back(1);
    }
  }
}

// One EM step of the header's fixed point written out plainly for one document (words
// ascending, distinct, with their counts), in fold_in.cc's order of operations: each
// Σ_k θ_k φ_kw as eight partial sums (entry k in sum k mod 8) combined pairwise, no fused
// multiply-adds. Returns max_k |next_k − θ_k|.
double ReferenceEmStep(const std::vector<int>& words, const std::vector<double>& counts,
                       const std::vector<double>& phi, int K, int V, double alpha,
                       double inverse_total, const std::vector<double>& theta,
                       std::vector<double>& next) {
  std::vector<double> acc(K, 0.0), column(K);
  for (size_t j = 0; j < words.size(); ++j) {
    for (int k = 0; k < K; ++k) column[k] = phi[static_cast<size_t>(k) * V + words[j]];
    double part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < K; ++k) {
      const double product = theta[k] * column[k];
      part[k % 8] = part[k % 8] + product;
    }
    const double s = ((part[0] + part[1]) + (part[2] + part[3])) +
                     ((part[4] + part[5]) + (part[6] + part[7]));
    const double c = counts[j] / s;
    for (int k = 0; k < K; ++k) {
      const double product = c * column[k];
      acc[k] = acc[k] + product;
    }
  }
  double change = 0;
  next.resize(K);
  for (int k = 0; k < K; ++k) {
    const double product = theta[k] * acc[k];
    next[k] = (alpha + product) * inverse_total;
    change = std::max(change, std::abs(next[k] - theta[k]));
  }
  return change;
}

// The header's SQUAREM iterations written out plainly, with tolerance 0 (stop when an EM
// step changes no proportion) and at most `max_steps` EM steps, added to `*used`.
std::vector<double> ReferenceFoldIn(const std::vector<int>& words,
                                    const std::vector<double>& counts,
                                    const std::vector<double>& phi, int K, int V, double alpha,
                                    int max_steps, int* used) {
  double n = 0;
  for (double c : counts) n += c;
  const double inverse_total = 1.0 / (n + K * alpha);
  std::vector<double> theta(K, 1.0 / K), t1, t2, extrapolated(K);
  auto step = [&](const std::vector<double>& from, std::vector<double>& to) {
    ++*used;
    return ReferenceEmStep(words, counts, phi, K, V, alpha, inverse_total, from, to);
  };
  int steps = 0;
  while (true) {
    ++steps;
    if (step(theta, t1) == 0 || steps == max_steps) return t1;
    ++steps;
    if (step(t1, t2) == 0 || steps == max_steps) return t2;
    double rr = 0, vv = 0;
    for (int k = 0; k < K; ++k) {
      const double r = t1[k] - theta[k];
      const double v = (t2[k] - t1[k]) - r;
      rr = rr + r * r;
      vv = vv + v * v;
    }
    double a = vv > 0 ? -std::sqrt(rr / vv) : -1.0;
    if (!(a < -1) || !std::isfinite(a)) a = -1;
    std::vector<double> next = t2;
    for (int halving = 0; a < -1 && halving < 30; ++halving) {
      bool positive = true;
      for (int k = 0; k < K; ++k) {
        const double r = t1[k] - theta[k];
        const double v = (t2[k] - t1[k]) - r;
        const double scaled_r = 2 * a * r;
        const double scaled_v = a * a * v;
        extrapolated[k] = (theta[k] - scaled_r) + scaled_v;
        positive &= extrapolated[k] > 0 && std::isfinite(extrapolated[k]);
      }
      if (positive) {
        next = extrapolated;
        break;
      }
      a = (a - 1) / 2;
    }
    ++steps;
    step(next, theta);
    if (steps == max_steps) return theta;
  }
}

// At large K the fold-in's sums are split into partial sums and run in AVX-512 or AVX2 where
// the CPU has it: the result is still a fixed function of its input on every path, the same
// bits as the plain loops above (a fused multiply-add or another order of the partial sums
// would differ in the last bits somewhere among these 3 x 1003 proportions after up to 40 EM
// steps; without -ffp-contract=off the AVX-512 path fails here).
TEST(FoldInTest, LargeKGivesTheBitsOfThePlainIterations) {
  constexpr int K = 1003, V = 40;  // K not a multiple of 8: the partial sums' remainder
  rng::Engine engine(91);
  const std::vector<double> phi = UniformRows(K, V, engine);
  const std::vector<std::vector<int32_t>> docs = {
      {3, 3, 7, 12, 12, 12, 39}, {0}, {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22}};
  FoldInOptions options;
  options.alpha = 0.01;
  options.max_iterations = 40;
  options.tolerance = 0;
  const FoldIn fold_in = MakeFoldIn(MakeCorpus(V, docs), K, options);
  // Every path the CPU has (asking for a wider one than it has gives the widest it has).
  for (internal::FoldInIsa isa : {internal::FoldInIsa::kAvx512, internal::FoldInIsa::kAvx2,
                                  internal::FoldInIsa::kBaseline}) {
    internal::SetFoldInInstructionSetForTesting(isa);
    SCOPED_TRACE(::testing::Message()
                 << "instruction set " << static_cast<int>(internal::FoldInInstructionSet()));
    const std::vector<double> theta = Transform(fold_in, phi);
    int used = 0;
    for (size_t d = 0; d < docs.size(); ++d) {
      std::vector<int> words;
      std::vector<double> counts;
      DistinctWithCounts(docs[d], words, counts);
      const std::vector<double> expected =
          ReferenceFoldIn(words, counts, phi, K, V, 0.01, 40, &used);
      for (int k = 0; k < K; ++k) {
        ASSERT_EQ(theta[d * K + k], expected[k]) << "document " << d << " topic " << k;
      }
    }
    EXPECT_EQ(fold_in.last_iterations(), used);
    EXPECT_GT(used, 2 * 40);  // the two longer documents ran every iteration
  }
  internal::SetFoldInInstructionSetForTesting(std::nullopt);
}

// The extrapolation pays: at K = 300 with topics that overlap (each a random draw, so every
// word is likely under many topics) plain EM steps converge slowly. SQUAREM reaches the
// tolerance in under half the plain iteration's steps, at a point where one more EM step moves
// no proportion by more than the tolerance, within 1e-6 of the plain iteration's.
TEST(FoldInTest, ExtrapolationConvergesInFewerStepsToThePlainFixedPoint) {
  constexpr int K = 300, V = 60;
  rng::Engine engine(17);
  const std::vector<double> phi = UniformRows(K, V, engine);
  std::vector<int32_t> doc;
  for (int i = 0; i < 80; ++i) doc.push_back(static_cast<int32_t>(rng::UniformDouble(engine) * V));
  std::sort(doc.begin(), doc.end());
  std::vector<int> words;
  std::vector<double> counts;
  DistinctWithCounts(doc, words, counts);
  FoldInOptions options;
  options.alpha = 0.05;
  options.max_iterations = 100000;
  options.tolerance = 1e-9;
  const FoldIn fold_in = MakeFoldIn(MakeCorpus(V, {doc}), K, options);
  const std::vector<double> theta = Transform(fold_in, phi);
  const double inverse_total = 1.0 / (80 + K * options.alpha);
  std::vector<double> plain(K, 1.0 / K), next;
  int plain_steps = 0;
  while (true) {
    ++plain_steps;
    const double change =
        ReferenceEmStep(words, counts, phi, K, V, 0.05, inverse_total, plain, next);
    plain.swap(next);
    if (change <= 1e-9) break;
  }
  EXPECT_LT(2 * fold_in.last_iterations(), plain_steps);
  EXPECT_LE(ReferenceEmStep(words, counts, phi, K, V, 0.05, inverse_total, theta, next), 1e-9);
  for (int k = 0; k < K; ++k) ASSERT_NEAR(theta[k], plain[k], 1e-6) << k;
}

// L'(t) of the header's L for K = 2, θ = (t, 1 - t).
double Derivative2(double t, const std::vector<double>& counts, const std::vector<double>& phi,
                   int V, double alpha) {
  double g = alpha / t - alpha / (1 - t);
  for (int w = 0; w < V; ++w) {
    g += counts[w] * (phi[w] - phi[V + w]) / (t * phi[w] + (1 - t) * phi[V + w]);
  }
  return g;
}
// The maximiser of the strictly concave L(t) on (0, 1), by bisection on L' (decreasing).
double Argmax2(const std::vector<double>& counts, const std::vector<double>& phi, int V,
               double alpha) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (Derivative2(mid, counts, phi, V, alpha) > 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

TEST(FoldInTest, IdentityTopicsGiveSmoothedCountsExactly) {
  // φ = I: every token's topic is known, so θ̂_k = (α + n_k) / (n + K α).
  const int K = 3;
  const std::vector<double> topics = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const data::Corpus corpus = MakeCorpus(3, {{0, 0, 1, 2, 0}, {2, 2}, {}});
  const double alpha = 0.3;
  const FoldIn fold_in = MakeFoldIn(corpus, K, Exact(alpha));
  const std::vector<double> theta = Transform(fold_in, topics);
  const double expected[3][3] = {{(3 + alpha) / (5 + 3 * alpha), (1 + alpha) / (5 + 3 * alpha),
                                  (1 + alpha) / (5 + 3 * alpha)},
                                 {alpha / (2 + 3 * alpha), alpha / (2 + 3 * alpha),
                                  (2 + alpha) / (2 + 3 * alpha)},
                                 {1.0 / 3, 1.0 / 3, 1.0 / 3}};
  for (int d = 0; d < 3; ++d) {
    for (int k = 0; k < K; ++k) EXPECT_NEAR(theta[d * K + k], expected[d][k], 1e-15);
  }
}

TEST(FoldInTest, TwoTopicsMatchTheMaximiserFoundByBisection) {
  const int V = 4;
  const std::vector<double> phi = {0.4, 0.3, 0.2, 0.1,  //
                                   0.1, 0.2, 0.3, 0.4};
  const data::Corpus corpus = MakeCorpus(V, {{0, 0, 1, 3}, {3, 3, 3, 2, 1}, {0}});
  for (double alpha : {0.01, 0.1, 1.0}) {
    const FoldIn fold_in = MakeFoldIn(corpus, 2, Exact(alpha));
    const std::vector<double> theta = Transform(fold_in, phi);
    for (int d = 0; d < corpus.num_documents(); ++d) {
      std::vector<double> counts(V, 0);
      for (int32_t w : corpus.document(d)) counts[w] += 1;
      const double t = Argmax2(counts, phi, V, alpha);
      EXPECT_NEAR(theta[2 * d], t, 1e-9) << "alpha " << alpha << " doc " << d;
      EXPECT_NEAR(theta[2 * d] + theta[2 * d + 1], 1.0, 1e-14);
    }
  }
}

TEST(FoldInTest, ThreeTopicsBeatEveryPointOfAGridOnTheSimplex) {
  // Enumeration: L(θ̂) >= L(θ) at every θ of a grid of step 1/300 on the 2-simplex (interior),
  // and the best grid point lies within a few grid steps of θ̂.
  const int K = 3, V = 5;
  const std::vector<double> phi = {0.5, 0.2, 0.1, 0.1, 0.1,  //
                                   0.1, 0.1, 0.5, 0.2, 0.1,  //
                                   0.2, 0.2, 0.2, 0.2, 0.2};
  const data::Corpus corpus = MakeCorpus(V, {{0, 1, 2, 2, 3, 4, 0, 2}});
  const double alpha = 0.5;
  const std::vector<double> theta = Transform(MakeFoldIn(corpus, K, Exact(alpha)), phi);
  auto objective = [&](const double* t) {
    double l = 0;
    for (int k = 0; k < K; ++k) l += alpha * std::log(t[k]);
    for (int32_t w : corpus.document(0)) {
      double p = 0;
      for (int k = 0; k < K; ++k) p += t[k] * phi[k * V + w];
      l += std::log(p);
    }
    return l;
  };
  const double best_value = objective(theta.data());
  const int n = 300;
  double grid_best = -std::numeric_limits<double>::infinity();
  double grid_argmax[3] = {0, 0, 0};
  for (int i = 1; i < n; ++i) {
    for (int j = 1; i + j < n; ++j) {
      const double t[3] = {static_cast<double>(i) / n, static_cast<double>(j) / n,
                           static_cast<double>(n - i - j) / n};
      const double value = objective(t);
      ASSERT_LE(value, best_value + 1e-12) << t[0] << " " << t[1] << " " << t[2];
      if (value > grid_best) {
        grid_best = value;
        for (int k = 0; k < K; ++k) grid_argmax[k] = t[k];
      }
    }
  }
  for (int k = 0; k < K; ++k) EXPECT_NEAR(theta[k], grid_argmax[k], 3.0 / n);
}

TEST(FoldInTest, ZeroColumnCarriesNoInformationAndEmptyDocumentIsUniform) {
  const std::vector<double> phi = {0.5, 0.5, 0.0,  //
                                   0.0, 1.0, 0.0};
  // Word 2 has a zero column: its tokens add n_w θ_k to every topic's expected count, so the
  // fixed point satisfies θ_k (n + Kα) = α + θ_k (Σ_{informative w} n_w φ_kw / s_w + n_zero).
  const data::Corpus corpus = MakeCorpus(3, {{0, 1, 2, 2}, {0, 1}, {}});
  const std::vector<double> theta = Transform(MakeFoldIn(corpus, 2, Exact(0.1)), phi);
  for (int d : {0, 1}) {
    const double n_zero = d == 0 ? 2 : 0;
    const double s0 = theta[2 * d] * 0.5;                           // word 0
    const double s1 = theta[2 * d] * 0.5 + theta[2 * d + 1] * 1.0;  // word 1
    const double acc0 = 0.5 / s0 + 0.5 / s1 + n_zero;
    EXPECT_NEAR(theta[2 * d] * (2 + n_zero + 0.2), 0.1 + theta[2 * d] * acc0, 1e-12);
  }
  // So the fixed point is that of the document without them.
  EXPECT_NEAR(theta[0], theta[2], 1e-12);
  EXPECT_DOUBLE_EQ(theta[4], 0.5);
  EXPECT_DOUBLE_EQ(theta[5], 0.5);
}

// Documents drawn from known topics: θ̂ recovers θ within 5.3 standard errors plus a bias
// bound. K = 2, θ = (t, 1 - t): the fold-in is the maximiser of the log-likelihood plus
// α Σ log θ_k, so as N grows it is asymptotically normal around t with variance 1/(N I(t)),
// I(t) = Σ_w (φ_1w - φ_2w)² / p_w, p_w = t φ_1w + (1 - t) φ_2w (the Fisher information of one
// token), and the prior term shifts the maximiser by at most α |1/t - 1/(1-t)| / (N I(t)).
// |z| > 5.3 has probability 1.2e-7 per document, 6e-6 for the 50 documents.
TEST(FoldInTest, RecoversProportionsOfDocumentsDrawnFromKnownTopics) {
  const int V = 20, N = 2000, D = 50;
  std::vector<double> phi(2 * V);
  for (int w = 0; w < V; ++w) {
    phi[w] = (w + 1.0) / (V * (V + 1) / 2.0);       // increasing in w
    phi[V + w] = (V - w + 0.0) / (V * (V + 1) / 2.0);  // decreasing
  }
  rng::Engine engine(7, 0);
  data::Corpus corpus;
  corpus.vocabulary.resize(V);
  std::vector<double> truth(D);
  for (int d = 0; d < D; ++d) {
    truth[d] = 0.2 + 0.6 * rng::UniformDouble(engine);
    std::vector<double> p(V);
    for (int w = 0; w < V; ++w) p[w] = truth[d] * phi[w] + (1 - truth[d]) * phi[V + w];
    std::vector<int32_t> doc(N);
    for (int i = 0; i < N; ++i) doc[i] = rng::CategoricalSample(engine, p);
    corpus.AddDocument(doc);
  }
  const double alpha = 0.1;
  FoldInOptions options;  // the defaults' tolerance, as the tools use it
  options.alpha = alpha;
  const std::vector<double> theta = Transform(MakeFoldIn(corpus, 2, options), phi);
  for (int d = 0; d < D; ++d) {
    const double t = truth[d];
    double info = 0;
    for (int w = 0; w < V; ++w) {
      const double diff = phi[w] - phi[V + w];
      info += diff * diff / (t * phi[w] + (1 - t) * phi[V + w]);
    }
    const double se = 1 / std::sqrt(N * info);
    const double bias = alpha * std::abs(1 / t - 1 / (1 - t)) / (N * info);
    EXPECT_NEAR(theta[2 * d], t, 5.3 * se + bias + 1e-5) << "document " << d;
  }
}

TEST(FoldInTest, SameBitsOnAnyNumberOfThreadsAndAveragedSamples) {
  const int V = 6, K = 3;
  rng::Engine engine(3, 0);
  std::vector<double> phi_a(K * V), phi_b(K * V);
  for (double& x : phi_a) x = rng::UniformDouble(engine);
  for (double& x : phi_b) x = rng::UniformDouble(engine);
  std::vector<std::vector<int32_t>> docs;
  for (int d = 0; d < 17; ++d) {
    std::vector<int32_t> doc;
    for (int i = 0; i < 3 + d; ++i) doc.push_back((d * 7 + i * 3) % V);
    docs.push_back(doc);
  }
  const data::Corpus corpus = MakeCorpus(V, docs);
  const FoldIn fold_in = MakeFoldIn(corpus, K, FoldInOptions());
  parallel::ThreadPool pool(3);
  const std::vector<double> one = Transform(fold_in, phi_a);
  EXPECT_EQ(Transform(fold_in, phi_a, &pool), one);
  EXPECT_GT(fold_in.last_iterations(), 17);
  const std::vector<double> other = Transform(fold_in, phi_b);
  std::vector<double> averaged(one.size());
  const absl::Span<const double> samples[] = {phi_a, phi_b};
  ASSERT_TRUE(fold_in.TransformAveraged(samples, absl::MakeSpan(averaged), &pool).ok());
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_NEAR(averaged[i], 0.5 * (one[i] + other[i]), 1e-15);
  }
}

TEST(FoldInTest, RejectsBadArguments) {
  const data::Corpus corpus = MakeCorpus(2, {{0, 1}});
  EXPECT_THAT(FoldIn::Create(corpus, 0, {}).status().message(), HasSubstr("num_topics"));
  FoldInOptions bad;
  bad.alpha = -1;
  EXPECT_THAT(FoldIn::Create(corpus, 2, bad).status().message(), HasSubstr("alpha"));
  bad = FoldInOptions();
  bad.max_iterations = 0;
  EXPECT_THAT(FoldIn::Create(corpus, 2, bad).status().message(), HasSubstr("max_iterations"));
  bad = FoldInOptions();
  bad.tolerance = std::nan("");
  EXPECT_THAT(FoldIn::Create(corpus, 2, bad).status().message(), HasSubstr("tolerance"));
  bad = FoldInOptions();
  bad.alpha = 1e308;  // N + K alpha overflowed: every theta 0, perplexity inf
  EXPECT_THAT(FoldIn::Create(corpus, 2, bad).status().message(),
              HasSubstr("K x alpha = 2 x 1e+308 must be finite"));
  const FoldIn fold_in = MakeFoldIn(corpus, 2, {});
  std::vector<double> theta(2);
  EXPECT_THAT(fold_in.Transform({0.5, 0.5, 0.5}, absl::MakeSpan(theta)).message(),
              HasSubstr("expected K x V = 2 x 2"));
  EXPECT_THAT(fold_in.Transform({0.5, 0.5, -0.5, 1.5}, absl::MakeSpan(theta)).message(),
              HasSubstr("entry (1, 0) is -0.5"));
  std::vector<double> small(1);
  EXPECT_THAT(fold_in.Transform({0.5, 0.5, 0.5, 0.5}, absl::MakeSpan(small)).message(),
              HasSubstr("doc_topics"));
}

// Perplexity on a tiny split, against the value computed by hand from the exact θ̂.
TEST(FoldInPerplexityTest, MatchesHandComputedValue) {
  const int V = 4;
  const std::vector<double> phi = {0.4, 0.3, 0.2, 0.1,  //
                                   0.1, 0.2, 0.3, 0.4};
  data::DocumentCompletionSplit split;
  split.observed = MakeCorpus(V, {{0, 0, 1}, {3, 2}});
  split.held_out = MakeCorpus(V, {{1, 3}, {2}});
  const double alpha = 0.1;
  absl::StatusOr<FoldInPerplexity> evaluator = FoldInPerplexity::Create(split, 2, Exact(alpha));
  ASSERT_TRUE(evaluator.ok()) << evaluator.status();
  absl::StatusOr<double> perplexity = evaluator->Evaluate(phi);
  ASSERT_TRUE(perplexity.ok()) << perplexity.status();
  const double t0 = Argmax2({2, 1, 0, 0}, phi, V, alpha);
  const double t1 = Argmax2({0, 0, 1, 1}, phi, V, alpha);
  auto p = [&](double t, int w) { return t * phi[w] + (1 - t) * phi[V + w]; };
  const double log_sum = std::log(p(t0, 1)) + std::log(p(t0, 3)) + std::log(p(t1, 2));
  EXPECT_NEAR(*perplexity, std::exp(-log_sum / 3), 1e-9);
  EXPECT_NEAR(evaluator->doc_topics()[0], t0, 1e-9);
  // Deterministic: a second evaluation gives the same bits.
  EXPECT_EQ(*evaluator->Evaluate(phi), *perplexity);
  // A held-out word no topic can produce: infinite perplexity.
  const std::vector<double> no_word3 = {0.5, 0.3, 0.2, 0.0,  //
                                        0.2, 0.5, 0.3, 0.0};
  EXPECT_EQ(*evaluator->Evaluate(no_word3), std::numeric_limits<double>::infinity());
  EXPECT_THAT(evaluator->Evaluate({1.0}).status().message(),
              HasSubstr("FoldInPerplexity: topic matrix has 1 entries"));
}

TEST(FoldInPerplexityTest, RejectsInconsistentSplit) {
  data::DocumentCompletionSplit split;
  split.observed = MakeCorpus(3, {{0}, {1}});
  split.held_out = MakeCorpus(3, {{0}});
  EXPECT_THAT(FoldInPerplexity::Create(split, 2, {}).status().message(),
              HasSubstr("2 and 1 documents"));
}

}  // namespace
}  // namespace sgmcmc::eval
