#include "math/bessel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "boost/math/policies/policy.hpp"
#include "boost/math/special_functions/bessel.hpp"
#include "math/special_functions.h"

namespace sgmcmc::math {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLog2Pi = 1.8378770664093454835606594728112;
constexpr double kLogPi = 1.1447298858494001741434273513531;

// Region boundaries (see the header); the reference grid straddles each of them.
constexpr double kDebyeMinOrder = 25;
constexpr double kSeriesMaxKappa = 2;
constexpr double kHankelMinKappa = 500;
// Relative size of the last term kept in every series.
constexpr double kTolerance = 1e-17;

// Debye's polynomials u_k(t) = Σ_e c[k][e] t^e (e = k, k+2, ..., 3k), DLMF 10.41.9:
//   u_{k+1}(t) = t²(1 - t²) u_k'(t) / 2 + (1/8) ∫_0^t (1 - 5s²) u_k(s) ds,
// and bound[k] >= max_{0 <= t <= 1} |u_k(t)|, used to stop the sum as soon as the remaining
// terms are below kTolerance for the given order.
class DebyeTable {
 public:
  static constexpr int kTerms = 17;
  static constexpr int kDegree = 3 * (kTerms - 1);

  static const DebyeTable& Get() {
    static const DebyeTable* const table = new DebyeTable();
    return *table;
  }

  // Σ_{k=0}^{K} u_k(p) / ν^k with K the first index whose bound is below kTolerance.
  double Sum(double nu, double p) const {
    const double inv_nu = 1 / nu;
    double sum = 1;
    double nu_power = 1;
    for (int k = 1; k < kTerms; ++k) {
      nu_power *= inv_nu;
      sum += Polynomial(k, p) * nu_power;
      if (bound_[k] * nu_power < kTolerance) break;
    }
    return sum;
  }

 private:
  DebyeTable() {
    for (auto& row : c_) row.fill(0);
    c_[0][0] = 1;
    for (int k = 0; k + 1 < kTerms; ++k) {
      for (int e = k; e <= 3 * k; e += 2) {
        const double a = c_[k][e];
        c_[k + 1][e + 1] += a * (0.5 * e + 1.0 / (8 * (e + 1)));
        c_[k + 1][e + 3] -= a * (0.5 * e + 5.0 / (8 * (e + 3)));
      }
    }
    constexpr int kGrid = 4000;
    for (int k = 0; k < kTerms; ++k) {
      double max_abs = 0;
      for (int i = 0; i <= kGrid; ++i) {
        max_abs = std::max(max_abs, std::fabs(Polynomial(k, static_cast<double>(i) / kGrid)));
      }
      bound_[k] = 1.25 * max_abs;  // margin for the maximum between grid points
    }
  }

  // u_k(t) = t^k Σ_j c[k][k + 2j] (t²)^j by Horner's rule in t².
  double Polynomial(int k, double t) const {
    const double t2 = t * t;
    double sum = 0;
    for (int e = 3 * k; e >= k; e -= 2) sum = sum * t2 + c_[k][e];
    double power = 1;
    for (int i = 0; i < k; ++i) power *= t;
    return sum * power;
  }

  std::array<std::array<double, kDegree + 1>, kTerms> c_;
  std::array<double, kTerms> bound_;
};

// log((ν + r)/κ) with r = √(ν² + κ²): for κ >= ν through log1p of
// (ν + r - κ)/κ = (ν + ν²/(r + κ))/κ, so that it keeps its relative accuracy when it is as
// small as ν/κ; for κ < ν as one rounded quotient unless that overflows (κ ~ 1e-300).
double LogNuPlusROverKappa(double nu, double r, double kappa) {
  if (kappa >= nu) return std::log1p((nu + nu * (nu / (r + kappa))) / kappa);
  const double quotient = (nu + r) / kappa;
  if (quotient < kInf) return std::log(quotient);
  return std::log(nu + r) - std::log(kappa);
}

// Debye's expansion in the form log I_ν(κ) = f - log(2π r)/2 + log Σ, with r = √(ν² + κ²),
// p = ν / r and f = ν η = r - ν log((ν + r)/κ) (since √(2πν) (1 + z²)^{1/4} = √(2π r)).
double DebyeLogBesselI(double nu, double kappa) {
  const double r = std::hypot(nu, kappa);
  const double f = r - nu * LogNuPlusROverKappa(nu, r, kappa);
  return f - 0.5 * (kLog2Pi + std::log(r)) + std::log(DebyeTable::Get().Sum(nu, nu / r));
}

// log(I_{ν+1}/I_ν) from Debye's expansion, differenced analytically: with r1 = √((ν+1)² + κ²),
// r1 - r = (2ν + 1)/(r + r1) and (ν + 1 + r1) - (ν + r) = 1 + (r1 - r), so
//   f(ν+1) - f(ν) = (r1 - r) - log((ν + 1 + r1)/κ) - ν log1p((1 + r1 - r)/(ν + r)):
// every piece is at most O(log(ν/κ)) and the result has a small absolute error, i.e.
// exp(result) has a small relative error.
double DebyeLogBesselIRatio(double nu, double kappa) {
  const double nu1 = nu + 1;
  const double r = std::hypot(nu, kappa);
  const double r1 = std::hypot(nu1, kappa);
  const double dr = (2 * nu + 1) / (r + r1);
  const double df =
      dr - LogNuPlusROverKappa(nu1, r1, kappa) - nu * std::log1p((1 + dr) / (nu + r));
  const DebyeTable& table = DebyeTable::Get();
  return df - 0.5 * std::log1p(dr / r) +
         std::log(table.Sum(nu1, nu1 / r1) / table.Sum(nu, nu / r));
}

// Σ_k (κ²/4)^k / (k! (ν+1)_k): the power series of I_ν(κ) / ((κ/2)^ν / Γ(ν+1)).
double PowerSeriesSum(double nu, double kappa) {
  const double q = 0.25 * kappa * kappa;
  double term = 1;
  double sum = 1;
  for (int k = 1; term > kTolerance * sum; ++k) {
    term *= q / (k * (nu + k));
    sum += term;
  }
  return sum;
}

double SeriesLogBesselI(double nu, double kappa) {
  return nu * std::log(0.5 * kappa) - LogGamma(nu + 1) + std::log(PowerSeriesSum(nu, kappa));
}

// Σ_{k>=1} (-1)^k a_k(ν) / κ^k, a_k(ν) = Π_{j<=k} (4ν² - (2j-1)²) / (k! 8^k): Hankel's
// expansion of I_ν(κ) √(2πκ) e^{-κ} is 1 + HankelTail(ν, κ). For ν < 26 and κ >= 500 the
// terms fall below 1e-17 long before they would start to grow; the loop still stops at the
// smallest term to be safe.
double HankelTail(double nu, double kappa) {
  const double mu = 4 * nu * nu;
  double term = 1;
  double tail = 0;
  for (int k = 1; k < 200; ++k) {
    const double odd = 2 * k - 1;
    const double next = -term * (mu - odd * odd) / (8 * k * kappa);
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    tail += term;
    if (std::fabs(term) <= kTolerance * (1 + tail)) break;
  }
  return tail;
}

double HankelLogBesselI(double nu, double kappa) {
  return kappa - 0.5 * (kLog2Pi + std::log(kappa)) + std::log1p(HankelTail(nu, kappa));
}

// log((1 + t1)/(1 + t0)) = log1p((t1 - t0)/(1 + t0)): keeps its relative accuracy when the
// ratio is as close to 1 as 1 - (ν + 1/2)/κ with κ = 1e300.
double HankelLogRatio(double nu, double kappa) {
  const double tail0 = HankelTail(nu, kappa);
  const double tail1 = HankelTail(nu + 1, kappa);
  return std::log1p((tail1 - tail0) / (1 + tail0));
}

using BoostPolicy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
    boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;

double BoostBesselI(double nu, double kappa) {
  return boost::math::cyl_bessel_i(nu, kappa, BoostPolicy());
}

void CheckArguments(const char* function, double nu, double kappa) {
  SGMCMC_CHECK(nu >= 0 && nu < kInf) << function << ": nu must be finite and >= 0, got " << nu;
  SGMCMC_CHECK(kappa >= 0) << function << ": kappa must be >= 0, got " << kappa;
}

double Order(int dim) { return 0.5 * dim - 1; }

}  // namespace

double LogBesselI(double nu, double kappa) {
  CheckArguments("LogBesselI", nu, kappa);
  if (kappa == 0) return nu == 0 ? 0 : -kInf;
  if (kappa == kInf) return kInf;
  if (nu >= kDebyeMinOrder) return DebyeLogBesselI(nu, kappa);
  if (kappa <= kSeriesMaxKappa) return SeriesLogBesselI(nu, kappa);
  if (kappa >= kHankelMinKappa) return HankelLogBesselI(nu, kappa);
  return std::log(BoostBesselI(nu, kappa));
}

double LogBesselIRatio(double nu, double kappa) {
  CheckArguments("LogBesselIRatio", nu, kappa);
  if (kappa == 0) return -kInf;
  if (kappa == kInf) return 0;
  if (nu >= kDebyeMinOrder) return DebyeLogBesselIRatio(nu, kappa);
  if (kappa <= kSeriesMaxKappa) {
    return std::log(0.5 * kappa / (nu + 1)) +
           std::log(PowerSeriesSum(nu + 1, kappa) / PowerSeriesSum(nu, kappa));
  }
  if (kappa >= kHankelMinKappa) {
    return HankelLogRatio(nu, kappa);
  }
  return std::log(BoostBesselI(nu + 1, kappa) / BoostBesselI(nu, kappa));
}

double VmfLogNormalizer(int dim, double kappa) {
  SGMCMC_CHECK(dim >= 2) << "VmfLogNormalizer: dim must be >= 2, got " << dim;
  SGMCMC_CHECK(kappa >= 0 && kappa < kInf)
      << "VmfLogNormalizer: kappa must be finite and >= 0, got " << kappa;
  const double half_dim = 0.5 * dim;
  if (kappa == 0) return LogGamma(half_dim) - std::log(2.0) - half_dim * kLogPi;
  const double nu = Order(dim);
  return nu * std::log(kappa) - half_dim * kLog2Pi - LogBesselI(nu, kappa);
}

double VmfMeanResultantLength(int dim, double kappa) {
  SGMCMC_CHECK(dim >= 2) << "VmfMeanResultantLength: dim must be >= 2, got " << dim;
  SGMCMC_CHECK(kappa >= 0) << "VmfMeanResultantLength: kappa must be >= 0, got " << kappa;
  return std::exp(LogBesselIRatio(Order(dim), kappa));
}

}  // namespace sgmcmc::math
