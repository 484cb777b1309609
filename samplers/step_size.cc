#include "samplers/step_size.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"

namespace sgmcmc::samplers {
namespace {

// OK if value is finite and > 0 (>= 0 with allow_zero); the message names the field.
absl::Status CheckField(const char* field, double value, bool allow_zero) {
  if (std::isfinite(value) && (value > 0 || (allow_zero && value == 0))) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("StepSizeOptions.", field, " must be finite and ",
                                                 allow_zero ? ">=" : ">", " 0, got ", value));
}

}  // namespace

StepSizeOptions StepSizeOptions::Constant(double h) {
  StepSizeOptions options;
  options.schedule = Schedule::kConstant;
  options.h = h;
  return options;
}

StepSizeOptions StepSizeOptions::PolynomialDecay(double h, double tau, double kappa) {
  StepSizeOptions options;
  options.schedule = Schedule::kPolynomialDecay;
  options.h = h;
  options.tau = tau;
  options.kappa = kappa;
  return options;
}

StepSizeOptions StepSizeOptions::Hamcmc(double a) {
  StepSizeOptions options;
  options.schedule = Schedule::kHamcmc;
  options.a = a;
  return options;
}

StepSizeOptions StepSizeOptions::Polynomial(double a, double b, double c) {
  StepSizeOptions options;
  options.schedule = Schedule::kPolynomial;
  options.a = a;
  options.b = b;
  options.c = c;
  return options;
}

absl::Status StepSizeOptions::Validate() const {
  switch (schedule) {
    case Schedule::kConstant:
      return CheckField("h", h, false);
    case Schedule::kPolynomialDecay: {
      absl::Status status = CheckField("h", h, false);
      if (status.ok()) status = CheckField("tau", tau, false);
      if (status.ok()) status = CheckField("kappa", kappa, true);
      return status;
    }
    case Schedule::kHamcmc:
      return CheckField("a", a, false);
    case Schedule::kPolynomial: {
      absl::Status status = CheckField("a", a, false);
      if (status.ok() && !(std::isfinite(b) && b > -1)) {
        status = absl::InvalidArgumentError(
            absl::StrCat("StepSizeOptions.b must be finite and > -1, got ", b));
      }
      if (status.ok()) status = CheckField("c", c, true);
      return status;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("StepSizeOptions.schedule has unknown value ", static_cast<int>(schedule)));
}

std::string StepSizeOptions::ToString() const {
  switch (schedule) {
    case Schedule::kConstant:
      return absl::StrFormat("%g", h);
    case Schedule::kPolynomialDecay:
      return absl::StrFormat("%g (1 + m/%g)^-%g", h, tau, kappa);
    case Schedule::kHamcmc:
      return absl::StrFormat("(%g / t)^0.51", a);
    case Schedule::kPolynomial:
      return absl::StrFormat("%g (%g + t)^-%g", a, b, c);
  }
  return "unknown schedule";
}

absl::StatusOr<StepSize> StepSize::Create(const StepSizeOptions& options) {
  absl::Status status = options.Validate();
  if (!status.ok()) return status;
  return StepSize(options);
}

double StepSize::operator()(int64_t m) const {
  SGMCMC_CHECK(m >= 0) << "StepSize: iteration m must be >= 0, got " << m;
  const double t = static_cast<double>(m) + 1.0;
  switch (options_.schedule) {
    case StepSizeOptions::Schedule::kConstant:
      return options_.h;
    case StepSizeOptions::Schedule::kPolynomialDecay:
      return options_.h * std::pow(1.0 + static_cast<double>(m) / options_.tau, -options_.kappa);
    case StepSizeOptions::Schedule::kHamcmc:
      return std::pow(options_.a / t, 0.51);
    case StepSizeOptions::Schedule::kPolynomial:
      return options_.a * std::pow(options_.b + t, -options_.c);
  }
  return options_.h;
}

}  // namespace sgmcmc::samplers
