// The sampler hyper-parameters of the linear-regression experiments
// (tools/linear_regression_experiment.h): the built-in defaults (the output of `tune` for the
// default settings), the grid search of `tune`, and the flag overrides.
#ifndef SGMCMC_TOOLS_LINEAR_REGRESSION_TUNING_H_
#define SGMCMC_TOOLS_LINEAR_REGRESSION_TUNING_H_

#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/linear_regression_chain.h"
#include "tools/linear_regression_types.h"

namespace sgmcmc::tools::linear_regression_internal {

// Hyper-parameters of every method in one experiment: defaults, then --tune, then flag
// overrides. SGLD must come first: HAMCMC's warm-up uses SGLD's step.
absl::StatusOr<std::map<Method, Tuning>> ResolveTunings(const Config& config,
                                                        const Problem& problem,
                                                        const std::vector<Method>& methods);

}  // namespace sgmcmc::tools::linear_regression_internal

#endif  // SGMCMC_TOOLS_LINEAR_REGRESSION_TUNING_H_
