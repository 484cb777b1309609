// Step-size schedules for stochastic-gradient MCMC.
//
// Four schedules, all evaluated at the zero-based iteration index m (the number of updates
// already made, i.e. the schedule position stored in a sampler checkpoint); where a paper
// writes its schedule in a one-based t we use t = m + 1:
//   kConstant          h_m = h
//   kPolynomialDecay   h_m = h (1 + m/tau)^(-kappa)        Baker et al. 2018 (SCIR), App. F;
//                                                         Patterson & Teh 2013, Sec. 5
//   kHamcmc            h_m = (a / t)^0.51                  Simsekli et al. 2016 (HAMCMC), Sec. 4.1
//   kPolynomial        h_m = a (b + t)^(-c)                Welling & Teh 2011 (SGLD), Sec. 5
// Every schedule is stateless: the step at iteration m depends on m alone, so a resumed run
// continues the schedule exactly from the stored iteration.
//
// Cost: O(1), one pow() per call for the decaying schedules, nothing for kConstant. Measured:
// samplers/step_size_benchmark.cc.
//
// Example:
//   StepSizeOptions options = StepSizeOptions::PolynomialDecay(/*h=*/0.5, /*tau=*/10,
//                                                              /*kappa=*/0.33);
//   SGMCMC_ASSIGN_OR_RETURN(StepSize step_size, StepSize::Create(options));
//   for (int64_t m = 0; m < iterations; ++m) Update(step_size(m));
#ifndef SGMCMC_SAMPLERS_STEP_SIZE_H_
#define SGMCMC_SAMPLERS_STEP_SIZE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sgmcmc::samplers {

struct StepSizeOptions {
  enum class Schedule {
    kConstant,         // h
    kPolynomialDecay,  // h (1 + m/tau)^(-kappa)
    kHamcmc,           // (a / t)^0.51, t = m + 1
    kPolynomial,       // a (b + t)^(-c), t = m + 1
  };

  // Which formula; default kConstant.
  Schedule schedule = Schedule::kConstant;
  // Base step h for kConstant and kPolynomialDecay; finite, > 0. Default 1e-3.
  double h = 1e-3;
  // Decay time scale tau of kPolynomialDecay; finite, > 0. Default 1.
  double tau = 1.0;
  // Decay exponent kappa of kPolynomialDecay; finite, >= 0 (0 gives a constant step;
  // (0.5, 1] satisfies the Robbins-Monro conditions). Default 0.5.
  double kappa = 0.5;
  // Scale a of kHamcmc and kPolynomial; finite, > 0. Default 1e-3.
  double a = 1e-3;
  // Offset b of kPolynomial; finite, > -1 so that b + t > 0 for every t >= 1. Default 0.
  double b = 0.0;
  // Exponent c of kPolynomial; finite, >= 0. Default 0.55.
  double c = 0.55;

  static StepSizeOptions Constant(double h);
  static StepSizeOptions PolynomialDecay(double h, double tau, double kappa);
  static StepSizeOptions Hamcmc(double a);
  static StepSizeOptions Polynomial(double a, double b, double c);

  // OK if every field the chosen schedule reads is in its range; the message names the field.
  absl::Status Validate() const;
  // E.g. "(0.1 / t)^0.51".
  std::string ToString() const;
};

// A validated schedule; cheap to copy.
class StepSize {
 public:
  static absl::StatusOr<StepSize> Create(const StepSizeOptions& options);

  // Step size at zero-based iteration m >= 0.
  double operator()(int64_t m) const;

  const StepSizeOptions& options() const { return options_; }

 private:
  explicit StepSize(const StepSizeOptions& options) : options_(options) {}

  StepSizeOptions options_;
};

}  // namespace sgmcmc::samplers

#endif  // SGMCMC_SAMPLERS_STEP_SIZE_H_
