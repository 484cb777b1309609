#include "samplers/elliptical_slice.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "rng/normal.h"
#include "rng/uniform.h"

namespace sgmcmc::samplers {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

void CheckPrior(const LowRankGaussianView& prior) {
  const size_t d = prior.diagonal_sd.size();
  SGMCMC_CHECK(prior.rank >= 0) << "LowRankGaussianView: rank must be >= 0, got " << prior.rank;
  SGMCMC_CHECK(prior.mean.empty() || prior.mean.size() == d)
      << "LowRankGaussianView: mean has size " << prior.mean.size() << ", expected 0 or " << d;
  SGMCMC_CHECK(prior.factor.size() == d * static_cast<size_t>(prior.rank))
      << "LowRankGaussianView: factor has size " << prior.factor.size() << ", expected " << d
      << " x " << prior.rank;
}

void CheckLogLikelihood(double value) {
  SGMCMC_CHECK(!std::isnan(value) && value < std::numeric_limits<double>::infinity())
      << "EllipticalSlice: log-likelihood must be < +inf and not NaN, got " << value;
}

}  // namespace

void LowRankGaussianNoise(const LowRankGaussianView& prior, rng::Engine& engine,
                          absl::Span<double> z, absl::Span<double> out) {
  CheckPrior(prior);
  const int d = prior.dimension();
  const int r = prior.rank;
  SGMCMC_CHECK(static_cast<int>(z.size()) == r && static_cast<int>(out.size()) == d)
      << "LowRankGaussianNoise: z has size " << z.size() << " (rank " << r << "), out "
      << out.size() << " (dimension " << d << ")";
  rng::FillNormal(engine, z);
  rng::FillNormal(engine, out);
  for (int i = 0; i < d; ++i) {
    const double* f = prior.factor.data() + static_cast<size_t>(i) * r;
    double sum = prior.diagonal_sd[i] * out[i];
    for (int j = 0; j < r; ++j) sum += f[j] * z[j];
    out[i] = sum;
  }
}

EllipticalSlice::EllipticalSlice(EllipticalSliceOptions options) : options_(options) {
  SGMCMC_CHECK(options_.min_bracket > 0 && options_.min_bracket < kTwoPi)
      << "EllipticalSliceOptions.min_bracket must be in (0, 2 pi), got " << options_.min_bracket;
}

EllipticalSliceResult EllipticalSlice::Step(const LowRankGaussianView& prior,
                                            LogLikelihoodRef log_likelihood,
                                            double log_likelihood_x, absl::Span<double> x,
                                            rng::Engine& engine) {
  z_.resize(prior.rank);
  noise_.resize(prior.diagonal_sd.size());
  LowRankGaussianNoise(prior, engine, absl::MakeSpan(z_), absl::MakeSpan(noise_));
  return StepWithNoise(prior.mean, noise_, log_likelihood, log_likelihood_x, x, engine);
}

EllipticalSliceResult EllipticalSlice::StepWithNoise(absl::Span<const double> mean,
                                                     absl::Span<const double> noise,
                                                     LogLikelihoodRef log_likelihood,
                                                     double log_likelihood_x,
                                                     absl::Span<double> x,
                                                     rng::Engine& engine) {
  const size_t d = x.size();
  SGMCMC_CHECK(noise.size() == d && (mean.empty() || mean.size() == d))
      << "EllipticalSlice: x has size " << d << ", noise " << noise.size() << ", mean "
      << mean.size() << " (0 for a zero mean)";
  SGMCMC_CHECK(std::isfinite(log_likelihood_x))
      << "EllipticalSlice: log L at the current point must be finite, got " << log_likelihood_x;
  // ν may alias noise_ (Step): read it only through `noise`, write only proposal_.
  proposal_.resize(d);
  const double log_y = log_likelihood_x + std::log(rng::UniformDouble(engine));
  double theta = kTwoPi * rng::UniformDouble(engine);
  double theta_min = theta - kTwoPi;
  double theta_max = theta;
  EllipticalSliceResult result;
  while (true) {
    const double c = std::cos(theta);
    const double s = std::sin(theta);
    if (mean.empty()) {
      for (size_t i = 0; i < d; ++i) proposal_[i] = x[i] * c + noise[i] * s;
    } else {
      for (size_t i = 0; i < d; ++i) {
        proposal_[i] = (x[i] - mean[i]) * c + noise[i] * s + mean[i];
      }
    }
    const double value = log_likelihood(proposal_);
    CheckLogLikelihood(value);
    ++result.proposals;
    if (value > log_y) {
      std::copy(proposal_.begin(), proposal_.end(), x.begin());
      result.log_likelihood = value;
      return result;
    }
    if (theta < 0) {
      theta_min = theta;
    } else {
      theta_max = theta;
    }
    if (theta_max - theta_min < options_.min_bracket) {
      result.log_likelihood = log_likelihood_x;
      result.collapsed = true;
      return result;
    }
    theta = rng::UniformDouble(engine, theta_min, theta_max);
  }
}

}  // namespace sgmcmc::samplers
