// The modified Bessel function of the first kind in log space, and the two von Mises-Fisher
// quantities built from it: the log normaliser log c_d(κ) and the mean resultant length
// A_d(κ) = I_{d/2}(κ) / I_{d/2-1}(κ).
//
// vMF models on text (SAM, Reisinger et al. 2010; the SGGMC experiments of Liu, Zhu & Song
// 2016) need orders ν = d/2 - 1 in the thousands, where I_ν itself under- or overflows; every
// function here works with log I_ν and never forms I_ν. Regions (ν ≥ 0, κ ≥ 0):
//  - ν ≥ 25: Debye's uniform asymptotic expansion (DLMF 10.41.3, Abramowitz & Stegun 9.7.7)
//      I_ν(ν z) ~ e^{ν η} / (√(2π ν) (1 + z²)^{1/4}) Σ_k U_k(p) / ν^k,
//    p = 1/√(1 + z²), η = √(1 + z²) + log(z / (1 + √(1 + z²))), with up to 17 terms U_0..U_16
//    (generated once by the recurrence DLMF 10.41.9), as many as needed for 1e-17: uniform in
//    κ from 1e-300 to 1e300.
//  - ν < 25, κ ≤ 2: the power series Σ_k (κ/2)^{2k+ν} / (k! Γ(ν+k+1)) summed in log space.
//  - ν < 25, 2 < κ < 500: Boost.Math's cyl_bessel_i.
//  - ν < 25, κ ≥ 500: Hankel's large-argument expansion (DLMF 10.40.1).
// LogBesselIRatio (hence A_d) evaluates log(I_{ν+1} / I_ν) with the same expansions but
// differenced analytically, so its absolute error is a few ulp even where log I ~ 1e6.
//
// Accuracy (against 40-digit mpmath values in math/testdata/bessel_reference.inc, for ν in
// [0, 1e5] and κ in [1e-6, 1e6]): |error| ≤ 1e-10 · max(|log I|, 1) is what the tests demand;
// the measured maximum is printed by //math:bessel_test (about 1e-15 relative).
//
// Cost: O(number of terms) per call, at most 17 (Debye), independent of ν and κ; the Boost
// region (ν < 25, 2 < κ < 500) is the dearest. Measured: math/bessel_benchmark.cc.
//
// Example:
//   double log_i = sgmcmc::math::LogBesselI(2499.0, 3000.0);         // no overflow
//   double log_c = sgmcmc::math::VmfLogNormalizer(/*dim=*/5000, 3000.0);
//   double a = sgmcmc::math::VmfMeanResultantLength(/*dim=*/5000, 3000.0);
#ifndef SGMCMC_MATH_BESSEL_H_
#define SGMCMC_MATH_BESSEL_H_

namespace sgmcmc::math {

// log I_ν(κ) for ν >= 0 and κ >= 0 (checked). κ = 0 gives 0 for ν = 0 and -inf otherwise;
// κ = +inf gives +inf.
double LogBesselI(double nu, double kappa);

// log(I_{ν+1}(κ) / I_ν(κ)) for ν >= 0 and κ >= 0 (checked); -inf at κ = 0, 0 at κ = +inf.
double LogBesselIRatio(double nu, double kappa);

// log c_d(κ), the log normaliser of the von Mises-Fisher density c_d(κ) exp(κ μᵀx) on the
// unit sphere S^{d-1} ⊂ R^d (density with respect to surface measure):
//   log c_d(κ) = (d/2 - 1) log κ - (d/2) log 2π - log I_{d/2-1}(κ),
// and at κ = 0 the uniform density log(Γ(d/2) / (2 π^{d/2})). dim >= 2, κ finite and >= 0
// (checked).
double VmfLogNormalizer(int dim, double kappa);

// A_d(κ) = I_{d/2}(κ) / I_{d/2-1}(κ) = E[μᵀx] under vMF(μ, κ) on S^{d-1}, in [0, 1);
// also -d log c_d(κ)/dκ. dim >= 2, κ >= 0 (checked).
double VmfMeanResultantLength(int dim, double kappa);

}  // namespace sgmcmc::math

#endif  // SGMCMC_MATH_BESSEL_H_
