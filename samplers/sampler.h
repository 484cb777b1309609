// Sampler: the interface every sgmcmc sampler follows, and EuclideanSampler, the shared base
// of the samplers on R^D (SGLD, pSGLD, SGHMC, SGNHT, dense SGRLD, HAMCMC).
//
// A sampler is a Markov chain advanced one iteration at a time by Step(). It owns its
// rng::Engine (keyed by ChainOptions::seed and ::stream), draws its own minibatches from it
// (samplers/minibatch.h) and reads the step size at its iteration count from a StepSize
// schedule. Its full state (parameters, momenta, preconditioner memory, iteration = schedule
// position, engine position) round-trips through the SamplerState protobuf: a chain saved at
// iteration m and restored into a freshly created sampler with the same model and options
// produces bit-identical draws to the uninterrupted chain.
//
// Within one iteration every EuclideanSampler consumes its engine in this order: the
// minibatch ids, then the Gaussian noise (coordinates in order).
//
// Cost: the base adds O(1) per iteration plus the minibatch draw (n engine words).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Sgld> sgld, Sgld::Create(model, theta0, options));
//   for (int m = 0; m < 1000; ++m) sgld->Step();
//   SamplerState checkpoint = sgld->SaveState();          // ... later, in another process:
//   SGMCMC_RETURN_IF_ERROR(resumed->RestoreState(checkpoint));
#ifndef SGMCMC_SAMPLERS_SAMPLER_H_
#define SGMCMC_SAMPLERS_SAMPLER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "rng/engine.h"
#include "samplers/gradient_model.h"
#include "samplers/minibatch.h"
#include "samplers/sampler_state.pb.h"
#include "samplers/step_size.h"

namespace sgmcmc::samplers {

// Options shared by every Euclidean sampler.
struct ChainOptions {
  // Step-size schedule h_m, evaluated at the zero-based iteration m. Default: constant 1e-3.
  StepSizeOptions step_size;
  // Minibatch size n, in [1, N] (N = GradientModel::num_items()); n = N is full batch.
  // Default 1.
  int64_t batch_size = 1;
  // Key and stream of the chain's rng::Engine; any values. Defaults 1 and 0.
  uint64_t seed = 1;
  uint64_t stream = 0;

  // Checks the schedule and batch_size against the model's N; messages name the field.
  absl::Status Validate(int64_t num_items) const;
};

class Sampler {
 public:
  virtual ~Sampler() = default;

  // Short lowercase name, e.g. "sgld"; also the SamplerState::sampler tag.
  virtual absl::string_view name() const = 0;
  // Advances the chain by one iteration.
  virtual void Step() = 0;
  // The current draw.
  virtual absl::Span<const double> theta() const = 0;
  // Completed iterations, i.e. the schedule position m of the next Step().
  virtual int64_t iteration() const = 0;
  // Step size used by the last Step() (0 before the first); the weight of the draw in the
  // step-weighted estimator of the HAMCMC paper, eq. 12.
  virtual double last_step_size() const = 0;

  virtual SamplerState SaveState() const = 0;
  // Replaces the chain's state by `state`; InvalidArgument (naming the field, and the index
  // of a bad entry) if it was written by another sampler or for another dimension, or is
  // malformed: every real-valued field (theta, momenta, thermostat, preconditioner memory,
  // history, L-BFGS pairs) must be finite. A failed restore leaves the chain unchanged.
  virtual absl::Status RestoreState(const SamplerState& state) = 0;
};

class EuclideanSampler : public Sampler {
 public:
  EuclideanSampler(const EuclideanSampler&) = delete;
  EuclideanSampler& operator=(const EuclideanSampler&) = delete;

  absl::Span<const double> theta() const final { return theta_; }
  int64_t iteration() const final { return iteration_; }
  double last_step_size() const final { return last_step_size_; }
  int dimension() const { return static_cast<int>(theta_.size()); }
  const GradientModel& model() const { return model_; }

  SamplerState SaveState() const final;
  absl::Status RestoreState(const SamplerState& state) final;

 protected:
  // `model` must outlive the sampler. Call ValidateChain() first.
  EuclideanSampler(const GradientModel& model, absl::Span<const double> initial_theta,
                   const ChainOptions& options);

  // OK if `options` are valid for `model` and `initial_theta` is a finite vector of length
  // D; messages start with `sampler_name`.
  static absl::Status ValidateChain(absl::string_view sampler_name, const GradientModel& model,
                                    absl::Span<const double> initial_theta,
                                    const ChainOptions& options);

  // Step size h of the iteration about to run; records it as last_step_size().
  double BeginIteration();
  // Records the step actually used when a sampler departs from the schedule.
  void set_last_step_size(double h) { last_step_size_ = h; }
  // Draws the iteration's minibatch from the chain's engine.
  absl::Span<const int64_t> DrawMinibatch() { return minibatch_.Draw(engine_); }
  // Counts the iteration as completed.
  void EndIteration() { ++iteration_; }

  rng::Engine& engine() { return engine_; }
  std::vector<double>& mutable_theta() { return theta_; }

  virtual void SaveExtra(SamplerState& state) const = 0;
  virtual absl::Status RestoreExtra(const SamplerState& state) = 0;

  // Subclass state beyond theta, iteration, engine and last step size. RestoreExtra must
  // validate every field it reads before writing any, so a failed restore changes nothing.
  // OK if a repeated field has length D; InvalidArgument naming `field` otherwise.
  absl::Status CheckLength(int size, absl::string_view field) const;
  // OK if every value is finite; otherwise InvalidArgument naming the first bad index, e.g.
  // "SamplerState.momentum[3] must be finite, got nan".
  static absl::Status CheckFinite(absl::Span<const double> values, absl::string_view field);

 private:
  const GradientModel& model_;
  rng::Engine engine_;
  Minibatch minibatch_;
  StepSize step_size_;
  std::vector<double> theta_;
  int64_t iteration_ = 0;
  double last_step_size_ = 0;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_SAMPLER_H_
