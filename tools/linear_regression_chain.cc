#include "tools/linear_regression_chain.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/status_macros.h"
#include "eval/running_moments.h"
#include "eval/squared_error.h"
#include "rng/engine.h"
#include "samplers/dense_sgrld.h"
#include "samplers/hamcmc.h"
#include "samplers/psgld.h"
#include "samplers/sampler.h"
#include "samplers/sgld.h"
#include "samplers/step_size.h"

namespace sgmcmc::tools::linear_regression_internal {
namespace {

samplers::ChainOptions ChainFor(const Config& config, const Tuning& tuning, uint64_t seed,
                                uint64_t stream) {
  samplers::ChainOptions chain;
  chain.step_size = samplers::StepSizeOptions::Hamcmc(tuning.a);
  chain.batch_size = config.batch_size();
  chain.seed = seed;
  chain.stream = stream;
  return chain;
}

}  // namespace

absl::StatusOr<Problem> MakeProblem(const Config& config, const Experiment& experiment) {
  // Each experiment's data has its own stream, so adding an experiment changes no other.
  rng::Engine engine(config.seed, /*stream=*/1000 + experiment.dimension);
  models::CorrelatedDataOptions options;
  options.dimension = experiment.dimension;
  options.num_items = config.num_items;
  options.noise_variance = config.noise_variance;
  options.structure = config.structure;
  options.correlation = config.correlation;
  options.scale_ratio = config.scale_ratio;
  SGMCMC_ASSIGN_OR_RETURN(models::LinearRegressionData data,
                          models::GenerateCorrelatedData(engine, options));
  SGMCMC_ASSIGN_OR_RETURN(models::LinearRegression model,
                          models::LinearRegression::Create(std::move(data)));
  models::GaussianPosterior exact = model.ExactPosterior();
  return Problem{experiment, std::move(model), std::move(exact),
                 config.noise_variance / config.num_items};
}

absl::StatusOr<std::unique_ptr<samplers::Hamcmc>> MakeHamcmc(const Config& config,
                                                             const Problem& problem, Method method,
                                                             const Tuning& tuning, uint64_t seed,
                                                             uint64_t stream) {
  samplers::HamcmcOptions options;
  options.chain = ChainFor(config, tuning, seed, stream);
  options.memory = method == Method::kHamcmc2 ? 2 : 3;
  options.gamma = tuning.gamma * problem.variance_scale;
  options.damping = tuning.lambda;
  options.warmup_step = tuning.warmup_step;
  options.curvature_threshold = config.hamcmc_curvature_threshold;
  const std::vector<double> start(problem.experiment.dimension, 0.0);
  return samplers::Hamcmc::Create(problem.model, start, options);
}

absl::StatusOr<std::unique_ptr<samplers::Sampler>> MakeSampler(const Config& config,
                                                               const Problem& problem,
                                                               Method method, const Tuning& tuning,
                                                               uint64_t seed, uint64_t stream) {
  const samplers::ChainOptions chain = ChainFor(config, tuning, seed, stream);
  const std::vector<double> start(problem.experiment.dimension, 0.0);
  switch (method) {
    case Method::kSgld: {
      samplers::SgldOptions options;
      options.chain = chain;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler, samplers::Sgld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kPsgld: {
      samplers::PsgldOptions options;
      options.chain = chain;
      options.alpha = config.psgld_alpha;
      options.lambda = config.psgld_lambda;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler, samplers::Psgld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kSgrld: {
      samplers::DenseSgrldOptions options;
      options.chain = chain;
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              samplers::DenseSgrld::Create(problem.model, start, options));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
    case Method::kHamcmc2:
    case Method::kHamcmc3: {
      SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                              MakeHamcmc(config, problem, method, tuning, seed, stream));
      return std::unique_ptr<samplers::Sampler>(std::move(sampler));
    }
  }
  return absl::InternalError("unknown method");
}

// A Figure 2 run (see LinearRegressionTrace).
// The estimate restarts after iteration `burn_in` (0: the paper's eq. 12 from t = 1).
Trace RunTrace(samplers::Sampler& sampler, const Problem& problem, int64_t iterations,
               int eval_every, int64_t burn_in, Progress* progress) {
  const int d = problem.experiment.dimension;
  const std::vector<double> truth(problem.exact.mean.data(), problem.exact.mean.data() + d);
  eval::RunningMoments moments(d, /*track_covariance=*/false);
  Trace trace;
  double seconds = 0;
  for (int64_t t = 1; t <= iterations; ++t) {
    const Clock::time_point start = Clock::now();
    sampler.Step();
    seconds += SecondsSince(start);
    if (t == burn_in + 1 && burn_in > 0) moments = eval::RunningMoments(d, false);
    moments.Add(sampler.theta(), sampler.last_step_size());
    if (t % eval_every == 0) {
      const double error = eval::SquaredError(moments.mean(), truth);
      trace.iterations.push_back(t);
      trace.seconds.push_back(seconds);
      trace.errors.push_back(error);
      if (progress != nullptr) progress->Update(t, error);
    }
  }
  return trace;
}

// Mean, min and max over `traces` (same recorded iterations), the mean summed in chain order.
Trace AverageTraces(const std::vector<Trace>& traces) {
  const double n = static_cast<double>(traces.size());
  Trace mean = traces[0];
  for (double& e : mean.errors) e /= n;
  for (double& s : mean.seconds) s /= n;
  mean.errors_min = mean.errors_max = traces[0].errors;
  mean.seconds_min = mean.seconds_max = traces[0].seconds;
  for (size_t r = 1; r < traces.size(); ++r) {
    const Trace& trace = traces[r];
    for (size_t i = 0; i < trace.errors.size(); ++i) {
      mean.errors[i] += trace.errors[i] / n;
      mean.seconds[i] += trace.seconds[i] / n;
      mean.errors_min[i] = std::min(mean.errors_min[i], trace.errors[i]);
      mean.errors_max[i] = std::max(mean.errors_max[i], trace.errors[i]);
      mean.seconds_min[i] = std::min(mean.seconds_min[i], trace.seconds[i]);
      mean.seconds_max[i] = std::max(mean.seconds_max[i], trace.seconds[i]);
    }
  }
  return mean;
}

}  // namespace sgmcmc::tools::linear_regression_internal
