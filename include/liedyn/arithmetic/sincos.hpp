// liedyn — arithmetic: sine and cosine, for the joint transforms.
//
// Every kernel starts with one sin/cos per joint. glibc's sin and cos are accurate but branchy and
// table-driven, one call at a time, and the O(n) kernels on small robots do little else per
// joint. For double and |q| ≤ 2¹⁶ π/2, sin_cos reduces the angle by
// π/2 in extended precision and evaluates both polynomials branch-free (sin_cos_lanes), so the
// batched form runs 2 angles per SSE2 step or 4 per AVX2 step (chosen at run time); every result is
// within 1 ulp of the true value (tests/test_spatial_numeric.cpp measures it against long double).
// Other scalar types, larger angles and non-finite ones take std::sin and std::cos.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "liedyn/arithmetic/registers.hpp"
#include "liedyn/config.hpp"

namespace liedyn {

namespace detail {

// Lanes of doubles and of their bit patterns: a plain double, or (GCC and Clang) a vector of 2 or
// 4. sin_cos_lanes is written once for all three; every operation on V is lane-wise.
template <class V>
struct LaneBits {
  using type = std::uint64_t;
};
// By reference: a 32-byte vector passed by value outside an AVX function changes the ABI.
template <class V>
LIEDYN_ALWAYS_INLINE void to_bits(const V& x, typename LaneBits<V>::type& u) {
  std::memcpy(&u, &x, sizeof u);
}
template <class V>
LIEDYN_ALWAYS_INLINE void from_bits(const typename LaneBits<V>::type& u, V& x) {
  std::memcpy(&x, &u, sizeof x);
}
#if defined(__GNUC__) && defined(__x86_64__)
#define LIEDYN_SIN_COS_VECTORS 1
typedef double Double2 __attribute__((vector_size(16)));
typedef std::uint64_t Bits2 __attribute__((vector_size(16)));
typedef double Double4 __attribute__((vector_size(32)));
typedef std::uint64_t Bits4 __attribute__((vector_size(32)));
template <>
struct LaneBits<Double2> {
  using type = Bits2;
};
template <>
struct LaneBits<Double4> {
  using type = Bits4;
};
#endif

// sin q and cos q per lane, for |q| ≤ 2¹⁶ π/2 (not checked). Branch-free.
//
// Reduction: q = n·π/2 + r with n the nearest integer to q·2/π and r = r_hi + r_lo, |r| ≤ π/4,
// carried in two doubles. π/2 = P1 + P2 + P3, P1 and P2 with 33 significant bits so that n·P1
// and n·P2 are exact for |n| < 2²⁰ and q − n·P1 is exact (Sterbenz); P3 is the rest.
// Polynomials: the Taylor series of sin to r¹⁷ and of cos to r¹⁸ (the first omitted terms are
// < 1e-19 relative for |r| ≤ π/4, far below rounding; coefficients 1/k! rounded to double),
// evaluated by Estrin's scheme (a tree of depth 4, not Horner's chain of 8: the latency is what a
// joint transform waits for). r_lo enters to first order; cos keeps the rounding error of
// 1 − r²/2 (fdlibm's trick). The result is then turned a quarter per unit of n, on the bits.
template <class V>
LIEDYN_ALWAYS_INLINE void sin_cos_lanes(const V& q, V& s, V& c) {
  using U = typename LaneBits<V>::type;
  constexpr double P1 = 1.5707963267341256, P2 = 6.077100506303966e-11, P3 = 2.0222662487959506e-21;
  constexpr double two_over_pi = 0.6366197723675814;
  constexpr double shifter = 6755399441055744.0;  // 1.5·2⁵²: adding it rounds to an integer
  const V shifted = q * two_over_pi + shifter;
  const V n = shifted - shifter;  // nearest integer to q·2/π (ties to even)
  U quadrant;
  to_bits(shifted, quadrant);  // its low bits are n's two's complement
  const V r1 = q - n * P1;
  const V t = n * P2;
  const V r = r1 - t;
  const V r_lo = ((r1 - r) - t) - n * P3;  // Fast2Sum: |r1| ≥ |t|

  const V z = r * r, z2 = z * z, z4 = z2 * z2;
  const V ps = ((-1.0 / 6 + z * (1.0 / 120)) + z2 * (-1.0 / 5040 + z * (1.0 / 362880))) +
               z4 * ((-2.505210838544172e-08 + z * 1.6059043836821613e-10) +
                     z2 * (-7.647163731819816e-13 + z * 2.8114572543455206e-15));
  const V pc = ((1.0 / 24 + z * (-1.0 / 720)) + z2 * (1.0 / 40320 + z * -2.755731922398589e-07)) +
               z4 * ((2.08767569878681e-09 + z * -1.1470745597729725e-11) +
                     z2 * (4.779477332387385e-14 + z * -1.5619206968586225e-16));
  const V sr = r + (r * z * ps + r_lo * (1.0 - 0.5 * z));
  const V hz = 0.5 * z;
  const V w = 1.0 - hz;
  const V cr = w + (((1.0 - w) - hz) + (z2 * pc - r * r_lo));

  // (sin q, cos q) = (sin r, cos r) turned by n quarters: swap for odd n, then the signs. On the
  // bits, not by branches: the quadrant of random joint angles is unpredictable.
  U us, uc;
  to_bits(sr, us);
  to_bits(cr, uc);
  const U one = us - us + 1;  // 1 in every lane
  const U swap = (us - us) - (quadrant & one);
  const U a = (us & ~swap) | (uc & swap), b = (uc & ~swap) | (us & swap);
  from_bits<V>(a ^ ((quadrant & (one + one)) << 62), s);
  from_bits<V>(b ^ (((quadrant + one) & (one + one)) << 62), c);
}

// The largest |q| sin_cos_lanes takes: 2¹⁶ π/2, rounded down.
constexpr double sin_cos_fast_limit = 102943.70801;

#if defined(LIEDYN_SIN_COS_VECTORS) && LIEDYN_HAVE_X86_AVX2_DISPATCH
#define LIEDYN_SIN_COS_AVX2 1
// AVX2 without FMA: every path (scalar, SSE2, AVX2) performs the same roundings, so a joint's
// sine and cosine are the same bits whichever kernel computed them, on whichever processor (one
// source for a joint's rotation), unless the whole build may fuse (-mfma, -march=native): the
// bit-identical results are worth more than what fused multiply–adds would save here.
__attribute__((target("avx2"))) inline void sin_cos_avx2(int n, const double* q, double* s,
                                                         double* c) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    Double4 x, sv, cv;
    std::memcpy(&x, q + i, sizeof x);
    sin_cos_lanes(x, sv, cv);
    std::memcpy(s + i, &sv, sizeof sv);
    std::memcpy(c + i, &cv, sizeof cv);
  }
  if (i == n) return;
  // The last 1–3 angles in one more step, padded with zeros.
  double qt[4] = {0, 0, 0, 0}, st[4], ct[4];
  for (int k = i; k < n; ++k) qt[k - i] = q[k];
  Double4 x, sv, cv;
  std::memcpy(&x, qt, sizeof x);
  sin_cos_lanes(x, sv, cv);
  std::memcpy(st, &sv, sizeof sv);
  std::memcpy(ct, &cv, sizeof cv);
  for (int k = i; k < n; ++k) {
    s[k] = st[k - i];
    c[k] = ct[k - i];
  }
}
#endif

}  // namespace detail

/// sin q and cos q. For double, a branch-free polynomial path within 1 ulp of the true values for
/// |q| ≤ 2¹⁶ π/2 (about 1e5 rad); std::sin and std::cos otherwise and for every other scalar type.
template <class S>
inline void sin_cos(const S& q, S& s, S& c) {
  using std::cos;
  using std::sin;
  s = sin(q);
  c = cos(q);
}

/// The double overload: see the header comment.
inline void sin_cos(const double& q, double& s, double& c) {
  if (std::fabs(q) <= detail::sin_cos_fast_limit) {
    detail::sin_cos_lanes(q, s, c);
  } else {  // also NaN and ±inf
    s = std::sin(q);
    c = std::cos(q);
  }
}

/// s_i = sin q_i, c_i = cos q_i for i < n, with sin_cos's accuracy.
template <class S>
inline void sin_cos(int n, const S* q, S* s, S* c) {
  for (int i = 0; i < n; ++i) sin_cos(q[i], s[i], c[i]);
}

/// The double overload, for all joints at once: two (SSE2) or four (AVX2, chosen at run time)
/// angles per step, the same bits either way, then std::sin/std::cos for the rare angle outside
/// the fast range.
inline void sin_cos(int n, const double* q, double* s, double* c) {
  bool in_range = true;
  for (int i = 0; i < n; ++i) in_range &= std::fabs(q[i]) <= detail::sin_cos_fast_limit;
#ifdef LIEDYN_SIN_COS_VECTORS
#ifdef LIEDYN_SIN_COS_AVX2
  if (detail::cpu_has_avx2_fma()) {
    detail::sin_cos_avx2(n, q, s, c);
  } else
#endif
  {
    int i = 0;
    for (; i + 2 <= n; i += 2) {
      detail::Double2 x, sv, cv;
      std::memcpy(&x, q + i, sizeof x);
      detail::sin_cos_lanes(x, sv, cv);
      std::memcpy(s + i, &sv, sizeof sv);
      std::memcpy(c + i, &cv, sizeof cv);
    }
    // At most one angle left: the scalar lanes run the same operations, so it gets the bits a
    // vector step would give it.
    for (; i < n; ++i) detail::sin_cos_lanes(q[i], s[i], c[i]);
  }
#else
  for (int i = 0; i < n; ++i) detail::sin_cos_lanes(q[i], s[i], c[i]);
#endif
  if (in_range) return;
  for (int i = 0; i < n; ++i)
    if (!(std::fabs(q[i]) <= detail::sin_cos_fast_limit)) {
      s[i] = std::sin(q[i]);
      c[i] = std::cos(q[i]);
    }
}

}  // namespace liedyn
