#include "rng/von_mises_fisher.h"

#include <cmath>
#include <limits>

#include "absl/types/span.h"
#include "base/check.h"
#include "rng/beta.h"
#include "rng/normal.h"
#include "rng/uniform.h"

namespace sgmcmc::rng {
namespace {

// w = mu^T x for the vMF in dimension d (Wood 1994, steps 0-3), returned with 1 - w, which
// carries the precision when kappa is large and w is within 1e-5 of 1.
struct Component {
  double w;
  double one_minus_w;
};

Component SampleComponent(Engine& engine, int d, double kappa) {
  const double m1 = d - 1;
  // b = (-2 kappa + sqrt(4 kappa^2 + m1^2)) / m1, rationalised; hypot avoids overflow.
  const double b = m1 / (2 * kappa + std::hypot(2 * kappa, m1));
  const double x0 = (1 - b) / (1 + b);
  const double one_minus_x0 = 2 * b / (1 + b);
  const double log_one_minus_x0_sq = std::log(one_minus_x0) + std::log1p(x0);
  for (;;) {
    const double z = BetaSample(engine, 0.5 * m1, 0.5 * m1);
    const double denominator = 1 - (1 - b) * z;
    const Component c = {(1 - (1 + b) * z) / denominator, 2 * b * z / denominator};
    // Accept iff kappa w + m1 log(1 - x0 w) - (kappa x0 + m1 log(1 - x0^2)) >= log U, with
    // w - x0 = (1 - x0) - (1 - w) and 1 - x0 w = (1 - x0) + x0 (1 - w).
    const double log_ratio =
        kappa * (one_minus_x0 - c.one_minus_w) +
        m1 * (std::log(one_minus_x0 + x0 * c.one_minus_w) - log_one_minus_x0_sq);
    if (log_ratio >= std::log(UniformDouble(engine))) return c;
  }
}

}  // namespace

void VonMisesFisherSample(Engine& engine, absl::Span<const double> mean_direction, double kappa,
                          absl::Span<double> out) {
  const size_t d = mean_direction.size();
  SGMCMC_CHECK(d >= 2) << "VonMisesFisherSample: mean_direction must have dimension >= 2, got "
                       << d;
  SGMCMC_CHECK_EQ(out.size(), d) << "VonMisesFisherSample: out must have the dimension of "
                                    "mean_direction";
  SGMCMC_CHECK(out.data() + d <= mean_direction.data() || mean_direction.data() + d <= out.data())
      << "VonMisesFisherSample: out must not overlap mean_direction";
  SGMCMC_CHECK(kappa >= 0 && kappa <= std::numeric_limits<double>::max())
      << "VonMisesFisherSample: kappa must be finite and >= 0, got " << kappa;
  double norm_sq = 0;
  for (double m : mean_direction) norm_sq += m * m;
  const double norm = std::sqrt(norm_sq);
  SGMCMC_CHECK(std::fabs(norm - 1) <= 1e-6)
      << "VonMisesFisherSample: mean_direction must have unit norm, got norm " << norm;

  const Component c = SampleComponent(engine, static_cast<int>(d), kappa);

  // y = (w, sqrt(1 - w^2) v) with v uniform on S^(d-2), stored in out.
  double tangent_sq = 0;
  do {
    FillNormal(engine, out.subspan(1));
    tangent_sq = 0;
    for (size_t i = 1; i < d; ++i) tangent_sq += out[i] * out[i];
  } while (tangent_sq == 0);
  const double scale = std::sqrt(c.one_minus_w * (2 - c.one_minus_w) / tangent_sq);
  out[0] = c.w;
  for (size_t i = 1; i < d; ++i) out[i] *= scale;

  // Householder: with s = sign(mu_0), u = e_1 + s mu (|u_0| >= 1, ||u||^2 = 2 u_0),
  // H = I - 2 u u^T / ||u||^2 maps e_1 to -s mu, so x = -s H y has mean direction mu.
  const double s = mean_direction[0] >= 0 ? 1.0 : -1.0;
  const double inv_norm = 1 / norm;
  const double u0 = 1 + s * mean_direction[0] * inv_norm;
  double mu_dot_y = 0;
  for (size_t i = 0; i < d; ++i) mu_dot_y += mean_direction[i] * out[i];
  const double coefficient = (out[0] + s * inv_norm * mu_dot_y) / u0;  // 2 u^T y / ||u||^2
  out[0] = -s * (out[0] - coefficient * u0);
  const double along_mu = coefficient * inv_norm;
  for (size_t i = 1; i < d; ++i) out[i] = -s * out[i] + along_mu * mean_direction[i];
}

}  // namespace sgmcmc::rng
