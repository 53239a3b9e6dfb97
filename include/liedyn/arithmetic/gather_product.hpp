// liedyn — arithmetic: the dense kernel shared by the inverse mass matrix from its sparse factors
// (ltdl.hpp) and the linearization's M⁻¹ K product (linearization.hpp): two output columns, each
// a combination of the same few gathered columns of a matrix.
#pragma once

#include <cstddef>
#include <type_traits>

#include "liedyn/arithmetic/types.hpp"
#include "liedyn/config.hpp"

#if LIEDYN_HAVE_X86_AVX2_DISPATCH  // config.hpp
#include <immintrin.h>
#endif

namespace liedyn {
namespace detail {

// ya = sign · Σ_t M[:, rows[t]] a[t] and yb likewise with b, for the first m rows of M (column-
// major, leading dimension ld ≥ m: M⁻¹ itself has m = ld = nv; a pointer into a column and
// m < ld select a lower block of rows). Both output columns are summed
// four rows at a time in registers (Eigen's fixed-size 4-vectors: two SSE2 packets), so each
// coefficient of M loaded feeds two multiply–adds and each output is stored once; column-by-
// column axpys (or small GEMVs) load and store the output once per term. No allocation.
template <class S>
void gather_product2_generic(int m, int ld, const S* M, const int* rows, const S* a, const S* b,
                             int p, const S& sign, S* ya, S* yb) {
  using Block4 = Eigen::Matrix<S, 4, 1>;
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    Block4 sa = Block4::Zero(), sb = Block4::Zero();
    for (int t = 0; t < p; ++t) {
      const Eigen::Map<const Block4> c(M + static_cast<std::ptrdiff_t>(rows[t]) * ld + i);
      sa.noalias() += c * a[t];
      sb.noalias() += c * b[t];
    }
    Eigen::Map<Block4>(ya + i) = sign * sa;
    Eigen::Map<Block4>(yb + i) = sign * sb;
  }
  for (; i < m; ++i) {
    S sa(0), sb(0);
    for (int t = 0; t < p; ++t) {
      const S c = M[static_cast<std::ptrdiff_t>(rows[t]) * ld + i];
      sa += c * a[t];
      sb += c * b[t];
    }
    ya[i] = sign * sa;
    yb[i] = sign * sb;
  }
}

#if LIEDYN_HAVE_X86_AVX2_DISPATCH
// The same for double with 256-bit fused multiply–adds, for processors that have them (chosen
// at run time, so a portable binary built without -march flags still uses them). This product
// is a large part of the linearization's time on large robots; AVX2 and FMA do four
// multiply–adds per instruction where SSE2 does one (two lanes, separate multiply and add).
// Results differ from the generic kernel's only by rounding (fused multiply–adds, the same
// summation order per output).
__attribute__((target("avx2,fma"))) inline void gather_product2_avx2(
    int m, int ld, const double* M, const int* rows, const double* a, const double* b, int p,
    double sign, double* ya, double* yb) {
  int i = 0;
  const __m256d sgn = _mm256_set1_pd(sign);
  // 16 rows at a time: each broadcast of a[t], b[t] feeds four fused multiply–adds.
  for (; i + 16 <= m; i += 16) {
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(),
            a3 = _mm256_setzero_pd();
    __m256d b0 = _mm256_setzero_pd(), b1 = _mm256_setzero_pd(), b2 = _mm256_setzero_pd(),
            b3 = _mm256_setzero_pd();
    for (int t = 0; t < p; ++t) {
      const double* c = M + static_cast<std::ptrdiff_t>(rows[t]) * ld + i;
      const __m256d c0 = _mm256_loadu_pd(c), c1 = _mm256_loadu_pd(c + 4);
      const __m256d c2 = _mm256_loadu_pd(c + 8), c3 = _mm256_loadu_pd(c + 12);
      const __m256d at = _mm256_set1_pd(a[t]), bt = _mm256_set1_pd(b[t]);
      a0 = _mm256_fmadd_pd(c0, at, a0);
      a1 = _mm256_fmadd_pd(c1, at, a1);
      a2 = _mm256_fmadd_pd(c2, at, a2);
      a3 = _mm256_fmadd_pd(c3, at, a3);
      b0 = _mm256_fmadd_pd(c0, bt, b0);
      b1 = _mm256_fmadd_pd(c1, bt, b1);
      b2 = _mm256_fmadd_pd(c2, bt, b2);
      b3 = _mm256_fmadd_pd(c3, bt, b3);
    }
    _mm256_storeu_pd(ya + i, _mm256_mul_pd(sgn, a0));
    _mm256_storeu_pd(ya + i + 4, _mm256_mul_pd(sgn, a1));
    _mm256_storeu_pd(ya + i + 8, _mm256_mul_pd(sgn, a2));
    _mm256_storeu_pd(ya + i + 12, _mm256_mul_pd(sgn, a3));
    _mm256_storeu_pd(yb + i, _mm256_mul_pd(sgn, b0));
    _mm256_storeu_pd(yb + i + 4, _mm256_mul_pd(sgn, b1));
    _mm256_storeu_pd(yb + i + 8, _mm256_mul_pd(sgn, b2));
    _mm256_storeu_pd(yb + i + 12, _mm256_mul_pd(sgn, b3));
  }
  // The last 1–15 rows, four at a time; the final 1–3 through a lane mask (masked-out lanes are
  // neither read nor written, so nothing past the column's end is touched).
  for (; i < m; i += 4) {
    const int r = m - i;
    const __m256i mask = _mm256_setr_epi64x(-1, r > 1 ? -1 : 0, r > 2 ? -1 : 0, r > 3 ? -1 : 0);
    __m256d a0 = _mm256_setzero_pd(), b0 = _mm256_setzero_pd();
    for (int t = 0; t < p; ++t) {
      const __m256d c0 =
          _mm256_maskload_pd(M + static_cast<std::ptrdiff_t>(rows[t]) * ld + i, mask);
      a0 = _mm256_fmadd_pd(c0, _mm256_set1_pd(a[t]), a0);
      b0 = _mm256_fmadd_pd(c0, _mm256_set1_pd(b[t]), b0);
    }
    _mm256_maskstore_pd(ya + i, mask, _mm256_mul_pd(sgn, a0));
    _mm256_maskstore_pd(yb + i, mask, _mm256_mul_pd(sgn, b0));
  }
}

#endif

// gather_product2_generic, or its AVX2 form for double where the processor has it.
template <class S>
void gather_product2(int m, int ld, const S* M, const int* rows, const S* a, const S* b, int p,
                     const S& sign, S* ya, S* yb) {
#if LIEDYN_HAVE_X86_AVX2_DISPATCH
  if constexpr (std::is_same<S, double>::value) {
    if (cpu_has_avx2_fma()) return gather_product2_avx2(m, ld, M, rows, a, b, p, sign, ya, yb);
  }
#endif
  gather_product2_generic(m, ld, M, rows, a, b, p, sign, ya, yb);
}

/// The same on Eigen objects: ya = sign · Σ_t M(first_row:, rows(t)) a(t), yb likewise with b,
/// for t < rows.size() (a and b at least that long; ya and yb contiguous, M.rows() − first_row
/// long; yb may be ya when only one column is wanted).
template <class S>
void gather_product2(const MatrixX<S>& M, Eigen::Index first_row,
                     const Eigen::Ref<const Eigen::VectorXi>& rows,
                     const Eigen::Ref<const VectorX<S>>& a, const Eigen::Ref<const VectorX<S>>& b,
                     const S& sign, Eigen::Ref<VectorX<S>> ya, Eigen::Ref<VectorX<S>> yb) {
  gather_product2(static_cast<int>(M.rows() - first_row), static_cast<int>(M.outerStride()),
                  M.data() + first_row, rows.data(), a.data(), b.data(),
                  static_cast<int>(rows.size()), sign, ya.data(), yb.data());
}

}  // namespace detail
}  // namespace liedyn
