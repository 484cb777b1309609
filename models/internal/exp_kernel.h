// exp over an array, vectorised (AVX2 + FMA when the CPU has them), for the K x U gather of
// π_kw = exp(log θ_kw - log Σ_w θ_kw) that builds every LDA minibatch's word tables
// (models/lda.cc; Baker et al. 2018 keep the SCIR topics in log space).
//
// Algorithm (Cody & Waite range reduction, Taylor polynomial): n = round(x / ln 2),
// r = x - n ln 2 with ln 2 split in two parts and FMAs (|r| <= ln 2 / 2), exp(r) by its
// degree-13 Taylor polynomial in Horner form with FMAs (truncation error < 1e-17 relative),
// and 2^n applied as two exact power-of-two factors 2^floor(n/2) 2^ceil(n/2), so subnormal
// results are rounded once and n = 1024 does not overflow early. Error at most 1 ulp against
// the exact exp (tested against std::exp: results differ from the correctly rounded value by
// at most 1 ulp). exp(NaN) = NaN, exp(-inf) = 0, exp(+inf) = +inf; x > 709.79 gives +inf,
// x < -745.14 gives 0, as std::exp.
//
// The portable path (CPUs without AVX2/FMA) evaluates the same operations with std::fma and
// std::nearbyint, so every CPU gives bit-identical results (tested).
//
// Cost: ~0.5 ns per element with AVX2 + FMA, against ~5-8 ns for glibc's scalar exp
// (//models/internal:exp_kernel_benchmark).
//
// Example:
//   std::vector<double> x = ..., y(x.size());
//   models_internal::ExpArray(x.data(), y.data(), x.size());  // y[i] = exp(x[i]); in-place OK
#ifndef SGMCMC_MODELS_INTERNAL_EXP_KERNEL_H_
#define SGMCMC_MODELS_INTERNAL_EXP_KERNEL_H_

#include <cstdint>

namespace sgmcmc::models_internal {

// out[i] = exp(in[i]) for i in [0, n); out may equal in (in place), but the ranges must not
// otherwise overlap. Dispatches to the AVX2 + FMA path when available.
void ExpArray(const double* in, double* out, int64_t n);

// The portable path alone (for tests: must equal ExpArray bit for bit).
void ExpArrayPortable(const double* in, double* out, int64_t n);

}  // namespace sgmcmc::models_internal

#endif  // SGMCMC_MODELS_INTERNAL_EXP_KERNEL_H_
