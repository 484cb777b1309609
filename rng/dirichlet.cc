#include "rng/dirichlet.h"

#include <cmath>
#include <limits>

#include "base/check.h"
#include "math/special_functions.h"
#include "rng/gamma.h"
#include "rng/internal/shape_parameters.h"

namespace sgmcmc::rng {
namespace {

// Checks alpha and returns whether some alpha_i < 1.
bool CheckAlpha(const char* function, absl::Span<const double> alpha, size_t out_size) {
  SGMCMC_CHECK(!alpha.empty()) << function << ": alpha must be non-empty";
  SGMCMC_CHECK_EQ(out_size, alpha.size()) << function << ": output and alpha sizes differ";
  bool small = false;
  for (size_t i = 0; i < alpha.size(); ++i) {
    SGMCMC_CHECK(alpha[i] > 0 && alpha[i] < std::numeric_limits<double>::infinity())
        << function << ": alpha[" << i << "] must be finite and > 0, got " << alpha[i];
    small |= alpha[i] < 1;
  }
  return small;
}

void LogDirichletSampleUnchecked(Engine& engine, absl::Span<const double> alpha,
                                 absl::Span<double> log_out) {
  for (size_t i = 0; i < alpha.size(); ++i) log_out[i] = LogGammaSample(engine, alpha[i]);
  const double log_total = math::LogSumExp(log_out);
  for (double& l : log_out) l -= log_total;
}

}  // namespace

void DirichletSample(Engine& engine, absl::Span<const double> alpha, absl::Span<double> out) {
  if (CheckAlpha("DirichletSample", alpha, out.size())) {
    LogDirichletSampleUnchecked(engine, alpha, out);
    for (double& x : out) x = std::exp(x);
    return;
  }
  double total = 0;
  for (size_t i = 0; i < alpha.size(); ++i) {
    out[i] = GammaSample(engine, alpha[i]);
    total += out[i];
  }
  const double inverse_total = 1 / total;
  for (double& x : out) x *= inverse_total;
}

void LogDirichletSample(Engine& engine, absl::Span<const double> alpha,
                        absl::Span<double> log_out) {
  CheckAlpha("LogDirichletSample", alpha, log_out.size());
  LogDirichletSampleUnchecked(engine, alpha, log_out);
}

double DirichletLogPdf(absl::Span<const double> x, absl::Span<const double> alpha) {
  CheckAlpha("DirichletLogPdf", alpha, x.size());
  double x_total = 0, alpha_total = 0, log_density = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0) return -std::numeric_limits<double>::infinity();
    x_total += x[i];
    alpha_total += alpha[i];
    log_density +=
        rng_internal::ShapeLogTerm(alpha[i], std::log(x[i])) - math::LogGamma(alpha[i]);
  }
  SGMCMC_CHECK(std::fabs(x_total - 1) <= 1e-6)
      << "DirichletLogPdf: x must lie on the simplex, but sums to " << x_total;
  return log_density + math::LogGamma(alpha_total);
}

}  // namespace sgmcmc::rng
