// Cost of the kernel Stein discrepancy per Stein-kernel evaluation ("pair"): the quadratic V
// statistic over n draws (n (n + 1) / 2 pairs) and the linear statistic (n / 2 pairs, two
// passes), at dimension d, for the default beta = -1/2 (no pow) and beta = -0.3 (pow).
// Counters: items_per_second = pairs per second, time_per_pair its inverse.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "eval/kernel_stein_discrepancy.h"
#include "rng/engine.h"
#include "rng/normal.h"

namespace sgmcmc::eval {
namespace {

struct Sample {
  std::vector<double> draws;
  std::vector<double> scores;
};

// Standard normal draws and their scores -x.
Sample NormalSample(int64_t n, int d) {
  rng::Engine engine(1);
  Sample sample{std::vector<double>(n * d), std::vector<double>(n * d)};
  for (int64_t i = 0; i < n * d; ++i) {
    sample.draws[i] = rng::NormalSample(engine);
    sample.scores[i] = -sample.draws[i];
  }
  return sample;
}

using KsdFunction = absl::StatusOr<KsdEstimate> (*)(absl::Span<const double> draws,
                                                    absl::Span<const double> scores,
                                                    int dimension,
                                                    absl::Span<const double> weights,
                                                    const KernelSteinOptions& options);

// Times `ksd` on NormalSample(n, d), n = range(0), d = range(1), with equal weights.
void TimeKsd(benchmark::State& state, KsdFunction ksd, const KernelSteinOptions& options) {
  const int64_t n = state.range(0);
  const int d = static_cast<int>(state.range(1));
  const Sample sample = NormalSample(n, d);
  int64_t pairs = 0;
  for (auto _ : state) {
    const KsdEstimate estimate = *ksd(sample.draws, sample.scores, d, {}, options);
    benchmark::DoNotOptimize(estimate.squared);
    pairs = estimate.num_pairs;
  }
  const int64_t total_pairs = pairs * state.iterations();
  state.SetItemsProcessed(total_pairs);
  state.counters["time_per_pair"] =
      benchmark::Counter(static_cast<double>(total_pairs),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Args: n, d, 1000 * -beta.
void BM_KernelSteinDiscrepancyV(benchmark::State& state) {
  KernelSteinOptions options;
  options.beta = -state.range(2) / 1000.0;
  TimeKsd(state, KernelSteinDiscrepancy, options);
}
BENCHMARK(BM_KernelSteinDiscrepancyV)
    ->ArgsProduct({{1000, 4000}, {1, 2, 10, 100}, {500}})
    ->Args({4000, 2, 300});

void BM_KernelSteinDiscrepancyLinear(benchmark::State& state) {
  TimeKsd(state, LinearKernelSteinDiscrepancy, {});
}
BENCHMARK(BM_KernelSteinDiscrepancyLinear)->ArgsProduct({{1 << 18}, {1, 2, 10, 100}});

}  // namespace
}  // namespace sgmcmc::eval
