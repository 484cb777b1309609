#include "tools/linear_regression_types.h"

#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sgmcmc::tools {
namespace linear_regression_internal {

using Method = LinearRegressionMethod;

const MethodInfo& Info(Method method) {
  for (const MethodInfo& info : kMethods) {
    if (info.method == method) return info;
  }
  return kMethods[0];
}

bool IsHamcmc(Method method) { return method == Method::kHamcmc2 || method == Method::kHamcmc3; }

}  // namespace linear_regression_internal

using linear_regression_internal::Info;

const char* LinearRegressionMethodLabel(LinearRegressionMethod method) {
  return Info(method).label;
}

absl::Status LinearRegressionOptions::Validate() const {
  if (iterations < 100) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 100, got ", iterations));
  }
  if (num_items < 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_items must be >= 100 (the minibatch is N/100), got ", num_items));
  }
  if (replications < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("replications must be >= 1, got ", replications));
  }
  if (eval_every < 1 || eval_every > iterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("eval_every must be in [1, iterations], got ", eval_every));
  }
  if (estimate_burn_in < 0 || estimate_burn_in >= iterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("estimate_burn_in must be in [0, iterations), got ", estimate_burn_in));
  }
  for (const int d : dimensions) {
    if (d < 1 || d > 2000) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimensions: bad dimension ", d, " (want integers in [1, 2000])"));
    }
  }
  const std::pair<const char*, double> steps[] = {
      {"a_sgld", a_sgld}, {"a_psgld", a_psgld}, {"a_sgrld", a_sgrld}, {"a_hamcmc", a_hamcmc}};
  for (const auto& [name, a] : steps) {
    if (a < 0 || !std::isfinite(a)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": step scale must be finite and >= 0, got ", a));
    }
  }
  // NaN fails these too: it was taken for "not given" (0) and silently ran the tuned value.
  const std::pair<const char*, double> hamcmc[] = {{"hamcmc_lambda", hamcmc_lambda},
                                                   {"hamcmc_gamma", hamcmc_gamma}};
  for (const auto& [name, value] : hamcmc) {
    if (!(value >= 0) || !std::isfinite(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, " must be finite and >= 0 (0: the tuned default), got ", value));
    }
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
