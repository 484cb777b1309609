// The chains of the linear-regression experiments (tools/linear_regression_experiment.h): the
// data and exact posterior of one experiment, the samplers of each method, and the run of the
// step-weighted running mean's error (the paper's eq. 12) with its timing.
#ifndef SGMCMC_TOOLS_LINEAR_REGRESSION_CHAIN_H_
#define SGMCMC_TOOLS_LINEAR_REGRESSION_CHAIN_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "models/regression/linear_regression.h"
#include "samplers/hamcmc.h"
#include "samplers/sampler.h"
#include "tools/linear_regression_types.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools::linear_regression_internal {

using Clock = std::chrono::steady_clock;
using Config = LinearRegressionOptions;
using Method = LinearRegressionMethod;
using Trace = LinearRegressionTrace;
using Tuning = LinearRegressionTuning;

// One experiment: Figure 1 (D = 2) or one panel row of Figure 2.
struct Experiment {
  std::string name;  // "fig1", "D10", "D100"
  int dimension = 2;
};

struct Problem {
  Experiment experiment;
  models::LinearRegression model;
  models::GaussianPosterior exact;
  // sigma^2 / N, the scale of the posterior variances: HAMCMC's gamma is in these units.
  double variance_scale = 1;
};

// The data of `experiment` (stream 1000 + D of the seed) and its exact posterior.
absl::StatusOr<Problem> MakeProblem(const Config& config, const Experiment& experiment);

// HAMCMC with M = 2 (kHamcmc2) or 3 (kHamcmc3) at `tuning`, started at 0.
absl::StatusOr<std::unique_ptr<samplers::Hamcmc>> MakeHamcmc(const Config& config,
                                                             const Problem& problem, Method method,
                                                             const Tuning& tuning, uint64_t seed,
                                                             uint64_t stream);

// The sampler of `method` at `tuning`, started at 0, on chain (seed, stream).
absl::StatusOr<std::unique_ptr<samplers::Sampler>> MakeSampler(const Config& config,
                                                               const Problem& problem,
                                                               Method method, const Tuning& tuning,
                                                               uint64_t seed, uint64_t stream);

// Writes "[label] 12000/20000 ..." lines to `out` (null: none) at most every half second.
class Progress {
 public:
  Progress(std::ostream* out, std::string label, int64_t total)
      : out_(out), label_(std::move(label)), total_(total) {}

  void Update(int64_t done, double error) {
    const Clock::time_point now = Clock::now();
    if (out_ == nullptr || (done < total_ && now - last_ < std::chrono::milliseconds(500))) return;
    last_ = now;
    *out_ << absl::StrFormat("[%s] %d/%d (%3.0f%%) %s  error %.3e\n", label_, done, total_,
                             100.0 * done / total_,
                             RateAndEta(done, total_, SecondsSince(start_), "it"), error);
  }

 private:
  std::ostream* out_;
  std::string label_;
  int64_t total_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

// A Figure 2 run (see LinearRegressionTrace).
// The estimate restarts after iteration `burn_in` (0: the paper's eq. 12 from t = 1).
Trace RunTrace(samplers::Sampler& sampler, const Problem& problem, int64_t iterations,
               int eval_every, int64_t burn_in, Progress* progress);

// Mean, min and max over `traces` (same recorded iterations), the mean summed in chain order.
Trace AverageTraces(const std::vector<Trace>& traces);

}  // namespace sgmcmc::tools::linear_regression_internal

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_CHAIN_H_
