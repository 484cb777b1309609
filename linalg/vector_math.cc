#include "linalg/vector_math.h"

#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
#define SGMCMC_VECTOR_MATH_AVX2 1
#include <immintrin.h>
#else
#define SGMCMC_VECTOR_MATH_AVX2 0
#endif

namespace sgmcmc::linalg {
namespace {

// Inputs are clamped to [kMinInput, kMaxInput] (results 0 and +inf beyond), which keeps
// n = round(x / ln 2) in [-1077, 1025] and both halves of n in [-539, 513].
constexpr double kMinInput = -746.0;
constexpr double kMaxInput = 710.0;
constexpr double kLog2E = 0x1.71547652b82fep+0;
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;  // ln 2 rounded to double
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;  // ln 2 - kLn2Hi
// 1/k! for k = 13, 12, ..., 2 (Horner order), each rounded to double.
constexpr double kTaylor[12] = {
    0x1.6124613a86d09p-33, 0x1.1eed8eff8d898p-29, 0x1.ae64567f544e4p-26, 0x1.27e4fb7789f5cp-22,
    0x1.71de3a556c734p-19, 0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-13, 0x1.6c16c16c16c17p-10,
    0x1.1111111111111p-7,  0x1.5555555555555p-5,  0x1.5555555555555p-3,  0x1.0000000000000p-1};

// 2^e for an integer e in [-1022, 1023], built from its bits.
inline double PowerOfTwo(int64_t e) {
  const uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

inline double ExpPortable(double x) {
  if (std::isnan(x)) return x;
  const double clamped = std::fmin(std::fmax(x, kMinInput), kMaxInput);
  const double n = std::nearbyint(clamped * kLog2E);  // ties to even, as _mm256_round_pd
  double r = std::fma(-n, kLn2Hi, clamped);
  r = std::fma(-n, kLn2Lo, r);
  double p = kTaylor[0];
  for (int i = 1; i < 12; ++i) p = std::fma(p, r, kTaylor[i]);
  p = std::fma(p, r, 1.0);
  p = std::fma(p, r, 1.0);
  const int64_t e = static_cast<int64_t>(n);
  const int64_t e1 = e >> 1;  // floor(e / 2)
  return (p * PowerOfTwo(e1)) * PowerOfTwo(e - e1);
}

// log: fdlibm's __ieee754_log reduction and polynomial (Sun Microsystems, 1993). x = 2^k m
// with m in [√2/2, √2), f = m − 1, s = f/(2 + f), log(1 + f) = f − f²/2 + s (f²/2 + R(s²)),
// R(z) = Σ_{i=1..7} Lg_i z^i (|error| < 2^-58.45), and k ln 2 with ln 2 split in two parts
// (kLn2HiShort has 21 trailing zero bits, so k kLn2HiShort is exact). R is evaluated by
// Horner with FMAs.
constexpr double kLg[7] = {6.666666666666735130e-01, 3.999999999940941908e-01,
                           2.857142874366239149e-01, 2.222219843214978396e-01,
                           1.818357216161805012e-01, 1.531383769920937332e-01,
                           1.479819860511658591e-01};
constexpr double kLn2HiShort = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000
constexpr double kLn2LoShort = 1.90821492927058770002e-10;  // 0x3dea39ef35793c76
constexpr double kMinNormal = 0x1p-1022;
constexpr double kTwo54 = 0x1p54;
// Bits of 1.0 minus the bits of √2/2 (rounded down): adding it to the bits u of a positive
// x gives t >= 0 with t >> 52 = k + 1023 for x = 2^k m, m in [√2/2, √2).
constexpr uint64_t kOneBits = 0x3ff0000000000000;
constexpr uint64_t kReductionOffset = kOneBits - 0x3fe6a09e667f3bcd;

// log(x) for finite x > 0, subnormals included, by the operations of Log4 in the same order.
inline double LogPositive(double x) {
  double k_adjust = 0;
  if (x < kMinNormal) {
    x *= kTwo54;
    k_adjust = -54;
  }
  uint64_t u;
  std::memcpy(&u, &x, sizeof(u));
  const uint64_t biased_k = (u + kReductionOffset) >> 52;
  const uint64_t m_bits = u - (biased_k << 52) + kOneBits;
  double m;
  std::memcpy(&m, &m_bits, sizeof(m));
  const double k = static_cast<double>(static_cast<int64_t>(biased_k) - 1023) + k_adjust;
  const double f = m - 1.0;
  const double two_plus_f = 2.0 + f;
  const double s = f / two_plus_f;
  const double z = s * s;
  double r = kLg[6];
  for (int i = 5; i >= 0; --i) r = std::fma(r, z, kLg[i]);
  r = r * z;
  const double half_f2 = 0.5 * f;
  const double hfsq = half_f2 * f;
  const double sum_hr = hfsq + r;
  const double s_term = s * sum_hr;
  const double k_lo = k * kLn2LoShort;
  const double tail = s_term + k_lo;
  const double inner = hfsq - tail;
  const double correction = inner - f;
  const double k_hi = k * kLn2HiShort;
  return k_hi - correction;
}

inline double LogPortable(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  return LogPositive(x);
}

#if SGMCMC_VECTOR_MATH_AVX2

// Whether the CPU has AVX2 and FMA (checked once).
bool HasAvx2Fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

// 2^e for 4 integer-valued doubles e in [-1022, 1023]: e + 1.5 * 2^52 holds e in the low
// mantissa bits, from which the exponent field is formed.
__attribute__((target("avx2,fma"))) inline __m256d PowerOfTwo4(__m256d e) {
  const __m256d magic = _mm256_set1_pd(0x1.8p52);
  const __m256i bits = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(e, magic)),
                                        _mm256_castpd_si256(magic));
  return _mm256_castsi256_pd(
      _mm256_slli_epi64(_mm256_add_epi64(bits, _mm256_set1_epi64x(1023)), 52));
}

__attribute__((target("avx2,fma"))) inline __m256d Exp4(__m256d x) {
  const __m256d clamped = _mm256_min_pd(_mm256_max_pd(x, _mm256_set1_pd(kMinInput)),
                                        _mm256_set1_pd(kMaxInput));
  const __m256d n = _mm256_round_pd(_mm256_mul_pd(clamped, _mm256_set1_pd(kLog2E)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Hi), clamped);
  r = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Lo), r);
  __m256d p = _mm256_set1_pd(kTaylor[0]);
  for (int i = 1; i < 12; ++i) p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(kTaylor[i]));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  // floor(n / 2) and the rest; n / 2 is exact.
  const __m256d e1 = _mm256_floor_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)));
  const __m256d e2 = _mm256_sub_pd(n, e1);
  const __m256d result = _mm256_mul_pd(_mm256_mul_pd(p, PowerOfTwo4(e1)), PowerOfTwo4(e2));
  // NaN inputs (clamped to a number by min/max above) pass through.
  return _mm256_blendv_pd(result, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
}

// Log4: LogPositive on 4 lanes; zero, negative, infinite and NaN lanes are patched last.
__attribute__((target("avx2,fma"))) inline __m256d Log4(__m256d x) {
  const __m256d tiny = _mm256_cmp_pd(x, _mm256_set1_pd(kMinNormal), _CMP_LT_OQ);
  const __m256d y = _mm256_blendv_pd(x, _mm256_mul_pd(x, _mm256_set1_pd(kTwo54)), tiny);
  const __m256d k_adjust = _mm256_and_pd(tiny, _mm256_set1_pd(-54.0));
  const __m256i u = _mm256_castpd_si256(y);
  const __m256i biased_k =
      _mm256_srli_epi64(_mm256_add_epi64(u, _mm256_set1_epi64x(kReductionOffset)), 52);
  const __m256d m = _mm256_castsi256_pd(_mm256_add_epi64(
      _mm256_sub_epi64(u, _mm256_slli_epi64(biased_k, 52)), _mm256_set1_epi64x(kOneBits)));
  // biased_k (< 2^12) as a double: its bits ORed into 2^52's mantissa, minus 2^52 + 1023
  // (exact, as the scalar int-to-double conversion).
  const __m256d two52 = _mm256_set1_pd(0x1p52);
  const __m256d k_biased = _mm256_sub_pd(
      _mm256_castsi256_pd(_mm256_or_si256(biased_k, _mm256_castpd_si256(two52))), two52);
  const __m256d k = _mm256_add_pd(_mm256_sub_pd(k_biased, _mm256_set1_pd(1023.0)), k_adjust);
  const __m256d f = _mm256_sub_pd(m, _mm256_set1_pd(1.0));
  const __m256d s = _mm256_div_pd(f, _mm256_add_pd(_mm256_set1_pd(2.0), f));
  const __m256d z = _mm256_mul_pd(s, s);
  __m256d r = _mm256_set1_pd(kLg[6]);
  for (int i = 5; i >= 0; --i) r = _mm256_fmadd_pd(r, z, _mm256_set1_pd(kLg[i]));
  r = _mm256_mul_pd(r, z);
  const __m256d hfsq = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), f), f);
  const __m256d tail = _mm256_add_pd(_mm256_mul_pd(s, _mm256_add_pd(hfsq, r)),
                                     _mm256_mul_pd(k, _mm256_set1_pd(kLn2LoShort)));
  const __m256d correction = _mm256_sub_pd(_mm256_sub_pd(hfsq, tail), f);
  __m256d result = _mm256_sub_pd(_mm256_mul_pd(k, _mm256_set1_pd(kLn2HiShort)), correction);
  // Special lanes, as LogPortable: NaN -> itself, x < 0 -> NaN, 0 -> -inf, +inf -> +inf.
  const __m256d inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
  result = _mm256_blendv_pd(result, _mm256_set1_pd(std::numeric_limits<double>::quiet_NaN()),
                            _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_LT_OQ));
  result = _mm256_blendv_pd(result, _mm256_sub_pd(_mm256_setzero_pd(), inf),
                            _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_EQ_OQ));
  result = _mm256_blendv_pd(result, inf, _mm256_cmp_pd(x, inf, _CMP_EQ_OQ));
  return _mm256_blendv_pd(result, x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
}

// out[i] = kKernel(in[i]) over the array, 4 lanes at a time (the tail padded with 1s).
template <__m256d (*kKernel)(__m256d)>
__attribute__((target("avx2,fma"))) void MapAvx2(const double* in, double* out, int64_t n) {
  int64_t i = 0;
  // Two independent vectors per step, so their dependency chains overlap.
  for (; i + 8 <= n; i += 8) {
    const __m256d a = kKernel(_mm256_loadu_pd(in + i));
    const __m256d b = kKernel(_mm256_loadu_pd(in + i + 4));
    _mm256_storeu_pd(out + i, a);
    _mm256_storeu_pd(out + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, kKernel(_mm256_loadu_pd(in + i)));
  if (i < n) {
    double tail_in[4] = {1, 1, 1, 1}, tail_out[4];
    for (int64_t j = i; j < n; ++j) tail_in[j - i] = in[j];
    _mm256_storeu_pd(tail_out, kKernel(_mm256_loadu_pd(tail_in)));
    for (int64_t j = i; j < n; ++j) out[j] = tail_out[j - i];
  }
}

#endif  // SGMCMC_VECTOR_MATH_AVX2

}  // namespace

void ExpArrayPortable(const double* in, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = ExpPortable(in[i]);
}

void ExpArray(const double* in, double* out, int64_t n) {
#if SGMCMC_VECTOR_MATH_AVX2
  if (HasAvx2Fma()) return MapAvx2<Exp4>(in, out, n);
#endif
  ExpArrayPortable(in, out, n);
}

void LogArrayPortable(const double* in, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = LogPortable(in[i]);
}

void LogArray(const double* in, double* out, int64_t n) {
#if SGMCMC_VECTOR_MATH_AVX2
  if (HasAvx2Fma()) return MapAvx2<Log4>(in, out, n);
#endif
  LogArrayPortable(in, out, n);
}

}  // namespace sgmcmc::linalg
