#include "eval/fold_in.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "eval/topic_columns.h"

namespace sgmcmc::eval {
namespace {

int NumThreads(const parallel::ThreadPool* pool) {
  return pool == nullptr ? 1 : pool->num_threads();
}

// Σ_k a_k b_k in eight interleaved partial sums, combined pairwise: eight independent chains
// of additions instead of one, which at K = 1000 left the fold-in waiting on each addition's
// latency (bench/README.md, "The fold-in at large K").
__attribute__((always_inline)) inline double Dot(const double* a, const double* b, int n) {
  double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int k = 0;
  for (; k + 8 <= n; k += 8) {
    for (int i = 0; i < 8; ++i) s[i] += a[k + i] * b[k + i];
  }
  for (; k < n; ++k) s[k % 8] += a[k] * b[k];
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// Dot(a, b[w], n) for kDotWords vectors b[w] at once, each with Dot's partial sums in Dot's
// order (so the same bits): one Dot is a single chain of K / 8 dependent additions (one
// register of eight partial sums at AVX-512), and kDotWords of them interleaved keep the adder
// busy. Eight lanes as a GCC vector type (one register at AVX-512, two at AVX2, four at
// SSE2); every lane does the IEEE operations of Dot's partial sum.
constexpr int kDotWords = 4;
typedef double Lanes8 __attribute__((vector_size(64)));
// Eight doubles copied in and out of a Lanes8 (any alignment; memcpy, which compiles to one
// unaligned vector load or store), by reference: no function here takes or returns a Lanes8 by
// value, whose calling convention would differ between the builds (-Wpsabi).
__attribute__((always_inline)) inline void Load(const double* p, Lanes8& v) {
  __builtin_memcpy(&v, p, sizeof(v));
}
__attribute__((always_inline)) inline void Store(const Lanes8& v, double* p) {
  __builtin_memcpy(p, &v, sizeof(v));
}

__attribute__((always_inline)) inline void Dots(const double* a, const double* const* b, int n,
                                                double* out) {
  Lanes8 s[kDotWords] = {};
  int k = 0;
  for (; k + 8 <= n; k += 8) {
    Lanes8 x, y;
    Load(a + k, x);
    for (int w = 0; w < kDotWords; ++w) {
      Load(b[w] + k, y);
      s[w] += x * y;
    }
  }
  for (; k < n; ++k) {
    for (int w = 0; w < kDotWords; ++w) s[w][k % 8] += a[k] * b[w][k];
  }
  for (int w = 0; w < kDotWords; ++w) {
    out[w] = ((s[w][0] + s[w][1]) + (s[w][2] + s[w][3])) +
             ((s[w][4] + s[w][5]) + (s[w][6] + s[w][7]));
  }
}

// One document's fixed-point iterations (FoldIn::TransformDocument): θ (K, started by the
// caller) updated in place, 4 K doubles of scratch; returns the EM steps used.
struct DocumentFoldIn {
  const int32_t* words;  // distinct, with their counts
  const double* counts;
  int64_t size;
  const double* topics_by_word;  // V x K
  int num_topics;
  double alpha;
  double inverse_total;  // 1 / (n + K α)
  int max_iterations;
  double tolerance;
};

// One EM step of the fixed point: next = F(θ); returns max_k |next_k − θ_k|. `acc` (K) is
// scratch.
__attribute__((always_inline)) inline double EmStep(const DocumentFoldIn& f, const double* theta,
                                                    double* next, double* acc) {
  const int K = f.num_topics;
  auto column = [&](int64_t j) { return f.topics_by_word + static_cast<size_t>(f.words[j]) * K; };
  auto add_word = [&](int64_t word, double s) {
    const double* phi = column(word);
    if (s > 0) {
      const double c = f.counts[word] / s;
      for (int k = 0; k < K; ++k) acc[k] += c * phi[k];
    } else {  // a column of zeros: r_wk = θ_k
      for (int k = 0; k < K; ++k) acc[k] += f.counts[word];
    }
  };
  static_assert(kDotWords == 4, "the accumulation below names four words");
  std::fill(acc, acc + K, 0.0);
  // Four words at a time: their s_w = Σ_k θ_k φ_kw (Dots), then, where all four are > 0,
  // acc_k + c_0 φ_0k + ... + c_3 φ_3k added in word order (the same operations as four
  // add_word calls) with one load and one store of acc_k instead of four each, while the
  // four columns are still in L1. The stores of acc were the bound.
  int64_t j = 0;
  for (; j + kDotWords <= f.size; j += kDotWords) {
    const double* p[kDotWords];
    for (int w = 0; w < kDotWords; ++w) p[w] = column(j + w);
    double sums[kDotWords];
    Dots(theta, p, K, sums);
    if (!((sums[0] > 0) & (sums[1] > 0) & (sums[2] > 0) & (sums[3] > 0))) {
      for (int w = 0; w < kDotWords; ++w) add_word(j + w, sums[w]);
      continue;
    }
    const double c0 = f.counts[j] / sums[0], c1 = f.counts[j + 1] / sums[1];
    const double c2 = f.counts[j + 2] / sums[2], c3 = f.counts[j + 3] / sums[3];
    int k = 0;
    for (; k + 8 <= K; k += 8) {
      Lanes8 a, x0, x1, x2, x3;
      Load(acc + k, a);
      Load(p[0] + k, x0);
      Load(p[1] + k, x1);
      Load(p[2] + k, x2);
      Load(p[3] + k, x3);
      a += c0 * x0;
      a += c1 * x1;
      a += c2 * x2;
      a += c3 * x3;
      Store(a, acc + k);
    }
    for (; k < K; ++k) {
      double a = acc[k];
      a += c0 * p[0][k];
      a += c1 * p[1][k];
      a += c2 * p[2][k];
      a += c3 * p[3][k];
      acc[k] = a;
    }
  }
  for (; j < f.size; ++j) add_word(j, Dot(theta, column(j), K));
  double change = 0;
  for (int k = 0; k < K; ++k) {
    next[k] = (f.alpha + theta[k] * acc[k]) * f.inverse_total;
    change = std::max(change, std::abs(next[k] - theta[k]));
  }
  return change;
}

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// SQUAREM (Varadhan & Roland 2008, Scand. J. Statist. 35, scheme S3) around EmStep: from θ0,
// θ1 = F(θ0), θ2 = F(θ1), r = θ1 − θ0, v = θ2 − 2θ1 + θ0, a = −|r|/|v| (at most −1), the
// extrapolation θ' = θ0 − 2a r + a² v (a = −1 gives θ2), halved towards a = −1 while some
// θ'_k <= 0, then θ0 ← F(θ'). It stops as plain iteration does, when one EM step moves no θ_k
// by more than the tolerance, returning that step's result; at most max_iterations EM steps
// (the count returned). `work` holds 4 K doubles.
__attribute__((always_inline)) inline int FoldInIterations(const DocumentFoldIn& f,
                                                            double* theta, double* work) {
  const int K = f.num_topics;
  double* acc = work;
  double* t1 = work + K;
  double* t2 = work + 2 * K;
  double* extrapolated = work + 3 * K;
  int steps = 0;
  while (true) {
    ++steps;
    if (EmStep(f, theta, t1, acc) <= f.tolerance || steps == f.max_iterations) {
      std::copy(t1, t1 + K, theta);
      return steps;
    }
    ++steps;
    if (EmStep(f, t1, t2, acc) <= f.tolerance || steps == f.max_iterations) {
      std::copy(t2, t2 + K, theta);
      return steps;
    }
    double rr = 0, vv = 0;
    for (int k = 0; k < K; ++k) {
      const double r = t1[k] - theta[k];
      const double v = (t2[k] - t1[k]) - r;
      rr += r * r;
      vv += v * v;
    }
    double a = vv > 0 ? -std::sqrt(rr / vv) : -1.0;
    if (!(a < -1) || !std::isfinite(a)) a = -1;
    const double* next = t2;
    for (int halving = 0; a < -1 && halving < 30; ++halving) {
      bool feasible = true;  // every entry > 0 and finite (NaN fails both)
      for (int k = 0; k < K; ++k) {
        const double r = t1[k] - theta[k];
        const double v = (t2[k] - t1[k]) - r;
        extrapolated[k] = theta[k] - 2 * a * r + a * a * v;
        feasible &= (extrapolated[k] > 0) & (extrapolated[k] < kInfinity);
      }
      if (feasible) {
        next = extrapolated;
        break;
      }
      a = (a - 1) / 2;
    }
    ++steps;
    EmStep(f, next, theta, acc);
    if (steps == f.max_iterations) return steps;
  }
}

// The same code compiled for AVX-512 (eight doubles per instruction: the eight partial sums of
// Dot in one register), for AVX2 (four) and for the x86-64 baseline. None fuses a multiply
// with an add (the file is compiled with -ffp-contract=off, as AVX-512 has fused
// multiply-adds) and every partial sum is formed in the same order, so all three give the same
// bits; the widest the CPU has is used.
__attribute__((target("avx512f"))) int FoldInIterationsAvx512(
    const DocumentFoldIn& f, double* theta, double* acc) {
  return FoldInIterations(f, theta, acc);
}

__attribute__((target("avx2"))) int FoldInIterationsAvx2(const DocumentFoldIn& f,
                                                         double* theta, double* acc) {
  return FoldInIterations(f, theta, acc);
}

int FoldInIterationsBaseline(const DocumentFoldIn& f, double* theta, double* acc) {
  return FoldInIterations(f, theta, acc);
}

std::atomic<int> forced_isa{-1};

}  // namespace

namespace internal {

FoldInIsa FoldInInstructionSet() {
  static const FoldInIsa widest = __builtin_cpu_supports("avx512f") ? FoldInIsa::kAvx512
                                  : __builtin_cpu_supports("avx2")  ? FoldInIsa::kAvx2
                                                                    : FoldInIsa::kBaseline;
  const int forced = forced_isa.load(std::memory_order_relaxed);
  return forced < 0 ? widest : static_cast<FoldInIsa>(std::min(forced, static_cast<int>(widest)));
}

void SetFoldInInstructionSetForTesting(std::optional<FoldInIsa> isa) {
  forced_isa.store(isa.has_value() ? static_cast<int>(*isa) : -1, std::memory_order_relaxed);
}

}  // namespace internal

absl::Status FoldInOptions::Validate() const {
  if (!(alpha > 0) || !std::isfinite(alpha)) {
    return absl::InvalidArgumentError(
        absl::StrCat("FoldInOptions.alpha must be finite and > 0, got ", alpha));
  }
  if (max_iterations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("FoldInOptions.max_iterations must be >= 1, got ", max_iterations));
  }
  if (!(tolerance >= 0) || !std::isfinite(tolerance)) {
    return absl::InvalidArgumentError(
        absl::StrCat("FoldInOptions.tolerance must be finite and >= 0, got ", tolerance));
  }
  return absl::OkStatus();
}

absl::StatusOr<FoldIn> FoldIn::Create(const data::Corpus& documents, int num_topics,
                                      const FoldInOptions& options) {
  if (num_topics < 1) {
    return absl::InvalidArgumentError(absl::StrCat("FoldIn: num_topics must be >= 1, got ",
                                                   num_topics));
  }
  if (absl::Status s = options.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("FoldIn: ", s.message()));
  }
  // theta's normaliser N + K alpha: an overflow made every theta 0 and the perplexity inf.
  if (!std::isfinite(num_topics * options.alpha)) {
    return absl::InvalidArgumentError(absl::StrCat("FoldIn: K x alpha = ", num_topics, " x ",
                                                   options.alpha, " must be finite"));
  }
  return FoldIn(documents, num_topics, options);
}

FoldIn::FoldIn(const data::Corpus& documents, int num_topics, const FoldInOptions& options)
    : options_(options), num_topics_(num_topics), vocabulary_size_(documents.vocabulary_size()) {
  offsets_.reserve(documents.num_documents() + 1);
  offsets_.push_back(0);
  std::vector<int32_t> sorted;
  for (int d = 0; d < documents.num_documents(); ++d) {
    const absl::Span<const int32_t> doc = documents.document(d);
    sorted.assign(doc.begin(), doc.end());
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size();) {
      size_t j = i;
      while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
      words_.push_back(sorted[i]);
      counts_.push_back(static_cast<double>(j - i));
      i = j;
    }
    offsets_.push_back(static_cast<int64_t>(words_.size()));
  }
  // The words that occur, ascending, and each document's words as indices into them (still
  // ascending within a document).
  needed_words_ = DistinctWords(words_);
  ToLocalIds(needed_words_, absl::MakeSpan(words_));
}

absl::Status FoldIn::GatherColumns(absl::Span<const double> topics) const {
  const size_t K = static_cast<size_t>(num_topics_);
  const size_t V = static_cast<size_t>(vocabulary_size_);
  if (topics.size() != K * V) {
    return absl::InvalidArgumentError(absl::StrCat("topic matrix has ", topics.size(),
                                                   " entries, expected K x V = ", num_topics_,
                                                   " x ", vocabulary_size_));
  }
  // Every entry is checked (in row-major order, so the first bad one is named), also those of
  // words no document has.
  for (size_t i = 0; i < topics.size(); ++i) {
    if (!(topics[i] >= 0) || !std::isfinite(topics[i])) {
      return absl::InvalidArgumentError(absl::StrCat("topic matrix entry (", i / V, ", ", i % V,
                                                      ") is ", topics[i],
                                                      ", expected finite and >= 0"));
    }
  }
  GatherTopicColumns(topics, num_topics_, vocabulary_size_, needed_words_, topics_by_word_);
  return absl::OkStatus();
}

int FoldIn::TransformDocument(int d, const double* topics_by_word, double* theta,
                              double* scratch) const {
  const int K = num_topics_;
  double n = 0;
  for (int64_t j = offsets_[d]; j < offsets_[d + 1]; ++j) n += counts_[j];
  const DocumentFoldIn f{words_.data() + offsets_[d],
                         counts_.data() + offsets_[d],
                         offsets_[d + 1] - offsets_[d],
                         topics_by_word,
                         K,
                         options_.alpha,
                         1.0 / (n + K * options_.alpha),
                         options_.max_iterations,
                         options_.tolerance};
  std::fill(theta, theta + K, 1.0 / K);
  switch (internal::FoldInInstructionSet()) {
    case internal::FoldInIsa::kAvx512:
      return FoldInIterationsAvx512(f, theta, scratch);
    case internal::FoldInIsa::kAvx2:
      return FoldInIterationsAvx2(f, theta, scratch);
    case internal::FoldInIsa::kBaseline:
      break;
  }
  return FoldInIterationsBaseline(f, theta, scratch);
}

absl::Status FoldIn::TransformAveraged(absl::Span<const absl::Span<const double>> topic_samples,
                                       absl::Span<double> doc_topics,
                                       parallel::ThreadPool* pool) const {
  const size_t K = static_cast<size_t>(num_topics_);
  if (topic_samples.empty()) {
    return absl::InvalidArgumentError("FoldIn: no topic matrices to fold in with");
  }
  if (doc_topics.size() != static_cast<size_t>(num_documents()) * K) {
    return absl::InvalidArgumentError(absl::StrCat("FoldIn: doc_topics has ", doc_topics.size(),
                                                   " entries, expected D x K = ",
                                                   num_documents(), " x ", K));
  }
  std::vector<int64_t> iterations(NumThreads(pool), 0);
  last_iterations_ = 0;
  const double weight = 1.0 / static_cast<double>(topic_samples.size());
  for (size_t s = 0; s < topic_samples.size(); ++s) {
    if (absl::Status st = GatherColumns(topic_samples[s]); !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "FoldIn: ", topic_samples.size() > 1 ? absl::StrCat("sample ", s, ": ") : "",
          st.message()));
    }
    parallel::ForChunksOnPool(pool, num_documents(), [&](int64_t begin, int64_t end, int t) {
      std::vector<double> theta(K), scratch(4 * K);
      for (int64_t d = begin; d < end; ++d) {
        iterations[t] += TransformDocument(static_cast<int>(d), topics_by_word_.data(),
                                           theta.data(), scratch.data());
        double* out = doc_topics.data() + d * K;
        for (size_t k = 0; k < K; ++k) {
          out[k] = topic_samples.size() == 1 ? theta[k]
                   : s == 0                  ? weight * theta[k]
                                             : out[k] + weight * theta[k];
        }
      }
    });
  }
  for (int64_t i : iterations) last_iterations_ += i;
  return absl::OkStatus();
}

absl::Status FoldIn::Transform(absl::Span<const double> topics, absl::Span<double> doc_topics,
                               parallel::ThreadPool* pool) const {
  const absl::Span<const double> samples[] = {topics};
  return TransformAveraged(samples, doc_topics, pool);
}

absl::StatusOr<FoldInPerplexity> FoldInPerplexity::Create(
    const data::DocumentCompletionSplit& test, int num_topics, const FoldInOptions& options) {
  if (test.observed.num_documents() != test.held_out.num_documents()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FoldInPerplexity: observed and held-out parts have ", test.observed.num_documents(),
        " and ", test.held_out.num_documents(), " documents"));
  }
  if (test.observed.vocabulary_size() != test.held_out.vocabulary_size()) {
    return absl::InvalidArgumentError(
        "FoldInPerplexity: observed and held-out vocabularies differ in size");
  }
  absl::StatusOr<FoldIn> fold_in = FoldIn::Create(test.observed, num_topics, options);
  if (!fold_in.ok()) return fold_in.status();
  return FoldInPerplexity(*std::move(fold_in), test.held_out);
}

FoldInPerplexity::FoldInPerplexity(FoldIn fold_in, const data::Corpus& held_out)
    : fold_in_(std::move(fold_in)),
      held_out_(held_out),
      doc_topics_(static_cast<size_t>(held_out.num_documents()) * fold_in_.num_topics()),
      doc_log_sum_(held_out.num_documents()) {}

absl::StatusOr<double> FoldInPerplexity::Evaluate(absl::Span<const double> topics,
                                                  parallel::ThreadPool* pool) {
  if (absl::Status s = fold_in_.Transform(topics, absl::MakeSpan(doc_topics_), pool); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("FoldInPerplexity: ", absl::StripPrefix(s.message(), "FoldIn: ")));
  }
  const size_t K = static_cast<size_t>(fold_in_.num_topics());
  const size_t V = static_cast<size_t>(fold_in_.vocabulary_size());
  parallel::ForChunksOnPool(pool, held_out_.num_documents(), [&](int64_t begin, int64_t end,
                                                                  int) {
    for (int64_t d = begin; d < end; ++d) {
      const double* theta = doc_topics_.data() + d * K;
      double sum = 0;
      for (int32_t w : held_out_.document(static_cast<int>(d))) {
        double p = 0;
        for (size_t k = 0; k < K; ++k) p += theta[k] * topics[k * V + w];
        sum += std::log(p);
      }
      doc_log_sum_[d] = sum;
    }
  });
  double total = 0;
  for (double s : doc_log_sum_) total += s;
  return std::exp(-total / static_cast<double>(held_out_.num_tokens()));
}

}  // namespace sgmcmc::eval
