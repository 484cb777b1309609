// The hot operations of the low-rank logistic-normal multinomial component (§4.3) at
// Fashion-MNIST size, D = 784, rank r = 5:
//  - BM_LogisticNormalMultinomialLogLikelihoods: one point against K atoms, Algorithm 8's
//    inner loop; items = atoms.
//  - BM_LogisticNormalMultinomialUpdateAtom: one ESS step on η given summed counts of
//    members with n tokens in total; items = steps.
//  - BM_LogisticNormalMultinomialUpdateBase: one ESS step on Λ given K atoms; items = steps.
// Measured 2026-11-25 on the shared 2-core development machine (load ~9; CPU time, wall time
// ~2-3x higher), --benchmark_repetitions=3 medians:
//   ./bazelw run --config=bench //models/simplex:logistic_normal_multinomial_benchmark
//   LogLikelihoods, K = 10 / 100         6.0 / 36.8 us per point (370 ns per atom; 567 ns
//                                        before the four-lane dot product)
//   UpdateAtom, n = 10^3 / 10^5 tokens   77 / 105 us per ESS step
//   UpdateBase, K = 10 / 100 atoms       0.49 / 3.5 ms per ESS step
#include <cmath>
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "rng/engine.h"
#include "rng/multinomial.h"

namespace sgmcmc::models {
namespace {

constexpr int kDimension = 784;

LogisticNormalMultinomial FashionSizedModel() {
  LogisticNormalMultinomialOptions options;
  options.dimension = kDimension;
  options.rank = 5;
  rng::Engine engine(1);
  return *LogisticNormalMultinomial::Create(options, engine);
}

// Counts of `n` tokens drawn from the atom's probabilities.
std::vector<int64_t> CountsFrom(const LogisticNormalAtom& atom, int64_t n, rng::Engine& engine) {
  std::vector<double> probs(kDimension);
  for (int d = 0; d < kDimension; ++d) probs[d] = std::exp(atom.log_probs[d]);
  std::vector<int64_t> counts(kDimension);
  rng::MultinomialSample(engine, n, probs, absl::MakeSpan(counts));
  return counts;
}

void BM_LogisticNormalMultinomialLogLikelihoods(benchmark::State& state) {
  const LogisticNormalMultinomial model = FashionSizedModel();
  rng::Engine engine(2);
  std::vector<LogisticNormalAtom> atoms;
  for (int k = 0; k < state.range(0); ++k) atoms.push_back(model.DrawFromBase(engine));
  const std::vector<int64_t> counts = CountsFrom(atoms[0], 930, engine);
  const std::vector<int32_t> point(counts.begin(), counts.end());
  std::vector<double> out(atoms.size());
  for (auto _ : state) {
    model.LogLikelihoods(point, atoms, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LogisticNormalMultinomialLogLikelihoods)->Arg(10)->Arg(100);

void BM_LogisticNormalMultinomialUpdateAtom(benchmark::State& state) {
  const LogisticNormalMultinomial model = FashionSizedModel();
  rng::Engine engine(3);
  LogisticNormalAtom atom = model.DrawFromBase(engine);
  MultinomialStatistics stats(kDimension);
  stats.counts = CountsFrom(atom, state.range(0), engine);
  stats.total = state.range(0);
  stats.members = 1;
  for (int t = 0; t < 100; ++t) model.UpdateAtom(stats, &atom, engine);  // warm up
  for (auto _ : state) model.UpdateAtom(stats, &atom, engine);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogisticNormalMultinomialUpdateAtom)->Arg(1000)->Arg(100000);

void BM_LogisticNormalMultinomialUpdateBase(benchmark::State& state) {
  LogisticNormalMultinomial model = FashionSizedModel();
  rng::Engine engine(4);
  std::vector<LogisticNormalAtom> atoms;
  for (int k = 0; k < state.range(0); ++k) atoms.push_back(model.DrawFromBase(engine));
  for (auto _ : state) model.UpdateBase(atoms, engine);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LogisticNormalMultinomialUpdateBase)->Arg(10)->Arg(100);

}  // namespace
}  // namespace sgmcmc::models
