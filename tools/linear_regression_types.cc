#include "tools/linear_regression_types.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "samplers/hamcmc.h"
#include "samplers/psgld.h"
#include "tools/tool_support.h"

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
  // The library's own checks, naming this struct's fields (they named PsgldOptions.alpha,
  // HamcmcOptions.curvature_threshold and CorrelatedDataOptions.correlation).
  samplers::PsgldOptions psgld;
  psgld.alpha = psgld_alpha;
  psgld.lambda = psgld_lambda;
  if (absl::Status s = NameFlags(psgld.Validate(/*num_items=*/1),
                                 {{"PsgldOptions.alpha", "psgld_alpha"},
                                  {"PsgldOptions.lambda", "psgld_lambda"}});
      !s.ok()) {
    return s;
  }
  samplers::HamcmcOptions hamcmc_options;
  hamcmc_options.curvature_threshold = hamcmc_curvature_threshold;
  if (absl::Status s =
          NameFlags(hamcmc_options.Validate(/*num_items=*/1),
                    {{"HamcmcOptions.curvature_threshold", "hamcmc_curvature_threshold"}});
      !s.ok()) {
    return s;
  }
  // Figure 1's D = 2 and every Figure 2 dimension (the correlation's range depends on D).
  std::vector<int> all_dimensions = dimensions;
  all_dimensions.push_back(2);
  for (const int d : all_dimensions) {
    models::CorrelatedDataOptions data;
    data.dimension = d;
    data.num_items = num_items;
    data.noise_variance = noise_variance;
    data.structure = structure;
    data.correlation = correlation;
    data.scale_ratio = scale_ratio;
    if (absl::Status s = NameFlags(data.Validate(),
                                   {{"CorrelatedDataOptions.noise_variance", "noise_variance"},
                                    {"CorrelatedDataOptions.correlation", "correlation"},
                                    {"CorrelatedDataOptions.scale_ratio", "scale_ratio"}});
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
