// SphereSampler: the shared base of the samplers on a product of K unit spheres S^{d-1}
// (SGGMC and gSGNHT, samplers/sggmc.h; GMC, samplers/gmc.h; the embedded SGHMC/SGNHT peers,
// samplers/embedded_sphere.h), and GeodesicSamplerOptions, the options of the
// stochastic-gradient ones.
//
// The state is the point x (d×K, columns unit), the velocity v (d×K, columns tangent), an
// optional scalar thermostat ξ, the iteration count (the step-size schedule position), the
// engine position and, for GMC, the acceptance count. It round-trips through
// SphereSamplerState (samplers/sphere_sampler_state.proto): a chain saved at iteration m and
// restored into a fresh sampler with the same model and options continues bit-identically.
// Nothing in the base renormalises x; the geodesic samplers keep ‖x‖ = 1 and xᵀv = 0 to
// rounding by construction (see linalg/sphere.h).
//
// The sampler owns its rng::Engine (ChainOptions::seed, ::stream) and draws its minibatches
// from it (samplers/minibatch.h); each subclass documents its engine order.
//
// Cost: O(1) per iteration plus the minibatch draw; StochasticGradient is one model call.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sggmc> s, Sggmc::Create(model, x0, options));
//   for (int m = 0; m < 1000; ++m) s->Step();
//   SphereSamplerState checkpoint = s->SaveState();
#ifndef SGMCMC_SAMPLERS_SPHERE_SAMPLER_H_
#define SGMCMC_SAMPLERS_SPHERE_SAMPLER_H_

#include <cstdint>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/minibatch.h"
#include "samplers/sampler.h"
#include "samplers/sphere_model.h"
#include "samplers/sphere_sampler_state.pb.h"
#include "samplers/step_size.h"

namespace sgmcmc::samplers {

// Options of SGGMC, gSGNHT and the embedded SGHMC/SGNHT peers.
struct GeodesicSamplerOptions {
  // Step size ε_m, minibatch size, seed and stream.
  ChainOptions chain;
  // Scalar friction C; finite, > 0. Default 1. gSGNHT also starts its thermostat at C.
  double friction = 1.0;
  // Gradient-noise estimate V̂ (variance of ∇Ũ per coordinate); finite, >= 0, and
  // ε_0 V̂ <= 2C so that the injected variance (2C - ε V̂) ε is >= 0 at every step (the
  // schedules never increase). Default 0.
  double gradient_noise = 0.0;
  // L, the inner steps per minibatch; >= 1. Default 1.
  int inner_steps = 1;

  absl::Status Validate(int64_t num_items) const;
};

// Bounds on a restored state (SphereSampler::RestoreState) that no chain comes near and that
// keep the next iterations finite (found by //fuzz:sam_checkpoint_fuzzer: a thermostat of
// -5e234 scaled the velocity by e^{-ξ ε/2} = inf, and the next geodesic step gave NaN):
//  - the velocity's squared norm |v|² <= 1e200 (a chain's |v|² is about m = K(d - 1): the
//    friction or thermostat keeps v near N(0, Λ(x)));
//  - the thermostat ξ ε_0 >= -64, with ε_0 the schedule's largest step: a chain's ξ starts at
//    the friction C > 0 and falls by at most ε per inner step (its update adds
//    (|v|²/m - 1) ε/2 twice, gSGNHT, or (|v|²/m - 1) ε once, the embedded SGNHT), while each
//    O step injects noise. Within the bound a gSGNHT B half-step scales v by at most e^{32}
//    and an embedded SGNHT step by at most 65, so an inner step multiplies |v|² by at most
//    e^{128} < 4e55 before the thermostat's update turns positive: 1e200 x 4e55 is finite.
inline constexpr double kMaxRestoredVelocitySquaredNorm = 1e200;
inline constexpr double kMinRestoredThermostatTimesStep = -64;

class SphereSampler {
 public:
  virtual ~SphereSampler() = default;
  SphereSampler(const SphereSampler&) = delete;
  SphereSampler& operator=(const SphereSampler&) = delete;

  // Short lowercase name, e.g. "sggmc"; also the SphereSamplerState::sampler tag.
  virtual absl::string_view name() const = 0;
  // Advances the chain by one iteration.
  virtual void Step() = 0;

  // The current point, d×K; column k is on S^{d-1}.
  const Eigen::MatrixXd& x() const { return x_; }
  // The current velocity, d×K; column k is tangent at x.col(k).
  const Eigen::MatrixXd& velocity() const { return v_; }
  double thermostat() const { return thermostat_; }
  int64_t iteration() const { return iteration_; }
  double last_step_size() const { return last_step_size_; }
  // GMC: accepted proposals; 0 for the others.
  int64_t accepted() const { return accepted_; }
  int dimension() const { return static_cast<int>(x_.rows()); }
  int num_spheres() const { return static_cast<int>(x_.cols()); }
  const SphereGradientModel& model() const { return model_; }

  SphereSamplerState SaveState() const;
  // InvalidArgument, naming the field, for a state of another sampler or shape, a non-finite
  // value, a column of x off the unit sphere by more than 1e-6, a velocity whose squared norm
  // exceeds kMaxRestoredVelocitySquaredNorm, a velocity column not tangent to x
  // (|x . v| > 1e-6 max(1, |v|)), a thermostat below kMinRestoredThermostatTimesStep / ε_0 or a
  // negative count. A failed restore leaves the chain unchanged.
  absl::Status RestoreState(const SphereSamplerState& state);

 protected:
  // `model` must outlive the sampler. Call ValidateChain() first. v starts at 0.
  SphereSampler(const SphereGradientModel& model, const Eigen::Ref<const Eigen::MatrixXd>& x0,
                const StepSizeOptions& step_size, int64_t batch_size, uint64_t seed,
                uint64_t stream);

  // OK if the model's shape is valid, x0 is d×K with finite unit columns (to 1e-6) and the
  // schedule and batch size are valid; messages start with `sampler_name`.
  static absl::Status ValidateChain(absl::string_view sampler_name,
                                    const SphereGradientModel& model,
                                    const Eigen::Ref<const Eigen::MatrixXd>& x0,
                                    const StepSizeOptions& step_size, int64_t batch_size);

  // Step size of the iteration about to run; records it as last_step_size().
  double BeginIteration();

  // The start shared by the friction/thermostat samplers (gSGNHT, embedded SGHMC/SGNHT):
  // BeginIteration(), a minibatch drawn and prepared at x, the injected-noise scale
  // sqrt((2 D - h B̂) h) for friction D and gradient-noise estimate B̂, and the number of
  // momentum degrees of freedom K (d - 1) that the thermostat's (|v|² / m - 1) update uses.
  struct NoisyIteration {
    double step_size;
    absl::Span<const int64_t> batch;
    double noise_scale;
    double degrees_of_freedom;
  };
  NoisyIteration BeginNoisyIteration(double friction, double gradient_noise);
  absl::Span<const int64_t> DrawMinibatch() { return minibatch_.Draw(engine_); }
  void EndIteration() { ++iteration_; }
  // ∇Ũ_H at the current x for `batch` (StochasticSphereGradient) into gradient().
  void ComputeGradient(absl::Span<const int64_t> batch);

  rng::Engine& engine() { return engine_; }
  Eigen::MatrixXd& mutable_x() { return x_; }
  Eigen::MatrixXd& mutable_velocity() { return v_; }
  Eigen::MatrixXd& gradient() { return grad_; }
  Eigen::MatrixXd& noise() { return noise_; }
  void set_thermostat(double xi) { thermostat_ = xi; }
  void CountAccepted() { ++accepted_; }
  // The step schedule's first value (its maximum).
  double initial_step_size() const { return step_size_(0); }

 private:
  const SphereGradientModel& model_;
  rng::Engine engine_;
  Minibatch minibatch_;
  StepSize step_size_;
  Eigen::MatrixXd x_;
  Eigen::MatrixXd v_;
  Eigen::MatrixXd grad_;
  Eigen::MatrixXd noise_;
  double thermostat_ = 0;
  int64_t iteration_ = 0;
  double last_step_size_ = 0;
  int64_t accepted_ = 0;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SPHERE_SAMPLER_H_
