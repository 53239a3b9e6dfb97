// liedyn — algorithm: the articulated-body steps shared by ABA (aba.hpp), AZA's factorization
// and solves (aza.hpp) and IMMAmb (immamb.hpp): moving an articulated inertia to the parent by
// a translation, a joint's k columns, pivot and rates as stack-sized matrices, the products with
// them, and the k-column pivot's inverse (RBDA §7.3).
#pragma once

#include <cmath>
#include <type_traits>

#include "liedyn/algorithm/common.hpp"

namespace liedyn {
namespace detail {

/// out += Tᵀ Ia T for a symmetric 6×6 Ia read entry by entry through `Ia(r, c)`, and
/// T = [1 −d^; 0 1]: an articulated inertia about point p moved to point p − d without rotating
/// (motion at p is v + ω × d from motion at p − d). With blocks [A B; Bᵀ C] (linear first):
/// B' = B − A d^, C' = C + (d^ B)ᵀ + d^ B'. Each d^ product is three cross products, a quarter of
/// a general congruence's multiplications.
template <class S, class Entry>
LIEDYN_ALWAYS_INLINE void add_translated(const Vector3<S>& d_, const Entry& Ia, Matrix6<S>& out) {
  // Coefficient by coefficient in registers (arithmetic/registers.hpp says why): Eigen's 3×3 blocks
  // and cross products of columns went through memory.
  auto A = [&](int r, int c) { return Ia(r, c); };
  auto B = [&](int r, int c) { return Ia(r, c + 3); };
  auto C = [&](int r, int c) { return Ia(r + 3, c + 3); };
  const Vec3<S> d{d_(0), d_(1), d_(2)};
  Vec3<S> Bp[3];  // Bp[c] = column c of B'
  {
    // (A d^) row k = −(d × A_k)ᵀ with A_k row k = column k (A symmetric), so −A d^ has rows d ×
    // A_k.
    const Vec3<S> x0 = cross3(d, Vec3<S>{A(0, 0), A(1, 0), A(2, 0)});
    const Vec3<S> x1 = cross3(d, Vec3<S>{A(0, 1), A(1, 1), A(2, 1)});
    const Vec3<S> x2 = cross3(d, Vec3<S>{A(0, 2), A(1, 2), A(2, 2)});
    Bp[0] = Vec3<S>{B(0, 0) + x0.x, B(1, 0) + x1.x, B(2, 0) + x2.x};
    Bp[1] = Vec3<S>{B(0, 1) + x0.y, B(1, 1) + x1.y, B(2, 1) + x2.y};
    Bp[2] = Vec3<S>{B(0, 2) + x0.z, B(1, 2) + x1.z, B(2, 2) + x2.z};
  }
  S dB[3][3];  // dB[r][c] = (d × B_col c)_r
  for (int c = 0; c < 3; ++c) {
    const Vec3<S> y = cross3(d, Vec3<S>{B(0, c), B(1, c), B(2, c)});
    dB[0][c] = y.x;
    dB[1][c] = y.y;
    dB[2][c] = y.z;
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out(r, c) += A(r, c);
  for (int c = 0; c < 3; ++c) {
    const S bp[3] = {Bp[c].x, Bp[c].y, Bp[c].z};
    for (int r = 0; r < 3; ++r) {
      out(r, 3 + c) += bp[r];
      out(3 + c, r) += bp[r];
    }
  }
  // C' = C + (d^ B)ᵀ + d^ B'. Symmetric in exact arithmetic; the upper triangle is mirrored so
  // M^A stays exactly so.
  for (int c = 0; c < 3; ++c) {
    const Vec3<S> z = cross3(d, Bp[c]);
    const S zc[3] = {z.x, z.y, z.z};
    for (int r = 0; r <= c; ++r) {
      out(3 + r, 3 + c) += C(r, c) + dB[c][r] + zc[r];
      if (r != c) out(3 + c, 3 + r) = out(3 + r, 3 + c);
    }
  }
}

/// out += Tᵀ (M − U D⁻¹ Uᵀ) T (add_translated): the articulated inertia a 1-DoF child passes to
/// its parent (ABA's I^a). The rank-one term is subtracted entry by entry as it is read, for the
/// entries the formulas read (not a 6×6 temporary).
template <class S>
void add_articulated_translated(const Vector3<S>& d, const Matrix6<S>& M, const Vector6<S>& U,
                                S Dinv, Matrix6<S>& out) {
  const S UD[6] = {U(0) * Dinv, U(1) * Dinv, U(2) * Dinv, U(3) * Dinv, U(4) * Dinv, U(5) * Dinv};
  add_translated(
      d, [&](int r, int c) { return M(r, c) - UD[r] * U(c); }, out);
}

/// A joint's columns (6 × k), pivot (k × k), rows (k × 6) and rates (k) in the articulated-body
/// kernels: fixed sizes for a 1-DoF joint (K = 1), at most 6 on the stack otherwise.
template <class S, int K = Eigen::Dynamic>
using JointColumns = Eigen::Matrix<S, 6, K, 0, 6, K == Eigen::Dynamic ? 6 : K>;
template <class S, int K = Eigen::Dynamic>
using JointPivot =
    Eigen::Matrix<S, K, K, 0, K == Eigen::Dynamic ? 6 : K, K == Eigen::Dynamic ? 6 : K>;
template <class S, int K = Eigen::Dynamic>
using JointRows = Eigen::Matrix<S, K, 6, Eigen::RowMajor, K == Eigen::Dynamic ? 6 : K, 6>;
template <class S, int K = Eigen::Dynamic>
using JointRates = Eigen::Matrix<S, K, 1, 0, K == Eigen::Dynamic ? 6 : K, 1>;

/// step(std::integral_constant<int, K>{}) for a joint of k degrees of freedom: K = 3 for the
/// common multi-DoF joints (spherical, planar), whose fixed trip counts let the compiler unroll
/// the 6 × 3 products and the pivot's Cholesky factorization; K = Eigen::Dynamic (at most 6 on
/// the stack) for the others. Each fixed width is one more instance of the step (compile time):
/// aba's k-column steps and aza's factorization step use it.
template <class Step>
LIEDYN_ALWAYS_INLINE void with_joint_width(int k, Step&& step) {
  if (k == 3) step(std::integral_constant<int, 3>{});
  else step(std::integral_constant<int, Eigen::Dynamic>{});
}

/// Joint i's columns r…r+k−1 of a 6 × nv_joints matrix (data.aza.S, U, Pset[i], …) as a map
/// of at most 6 columns, so that the temporaries of products with them live on the stack.
template <int K, class S>
Eigen::Map<JointColumns<S, K>> joint_columns(Matrix6X<S>& m, int r, int k) {
  return {m.col(r).data(), 6, k};
}
template <int K, class S>
Eigen::Map<const JointColumns<S, K>> joint_columns(const Matrix6X<S>& m, int r, int k) {
  return {m.col(r).data(), 6, k};
}

/// Aᵀ v for a joint's columns A (6 × k) and a 6-vector v: k dot products, one plain dot product
/// for K = 1.
template <int K, class S, class Columns, class V>
LIEDYN_ALWAYS_INLINE JointRates<S, K> columns_dot(const Columns& A, const V& v) {
  if constexpr (K == 1) return JointRates<S, 1>::Constant(A.col(0).dot(v));
  else return A.transpose() * v;
}

/// A m for a joint's columns A (6 × k) and k rates m: one scaled column for K = 1.
template <int K, class S, class Columns>
LIEDYN_ALWAYS_INLINE Vector6<S> columns_times(const Columns& A, const JointRates<S, K>& m) {
  if constexpr (K == 1) return A.col(0) * m(0);
  else return A * m;
}

/// A joint's degrees of freedom k in a step of width K: the constant 1 when K = 1, so that the
/// step's loops over columns unroll.
template <int K, class S>
LIEDYN_ALWAYS_INLINE int joint_width(const Model<S>& model, int i) {
  return K == 1 ? 1 : model.joint_nv(i);
}

/// X = D⁻¹ for a pivot D = Sᵀ M^A S + armature 1 of k > 1 rows (symmetric positive definite;
/// plain arrays, k ≤ 6, its lower triangle read), by Cholesky D = L Lᵀ (LLT's unblocked algorithm,
/// written out as Cholesky6 is) and D⁻¹ = L⁻ᵀ L⁻¹ formed in its lower triangle and mirrored, so
/// that the blocks of M⁻¹ built from it are exactly symmetric. Eigen's LLT of a Dynamic-size
/// pivot instantiated its blocked factorization and matrix triangular solves (GEMM kernels) for
/// k ≤ 6: most of what aba, immamb and linearize cost to compile. k is K when K is fixed.
template <int K, class S>
void invert_pivot(const S (&D)[6][6], int k_, S (&X)[6][6]) {
  using std::sqrt;
  const int k = K == Eigen::Dynamic ? k_ : K;
  S L[6][6], W[6][6];  // D = L Lᵀ, W = L⁻¹ (lower triangles)
  for (int j = 0; j < k; ++j) {
    S d = D[j][j];
    for (int m = 0; m < j; ++m) d -= L[j][m] * L[j][m];
    L[j][j] = sqrt(d);
    for (int i = j + 1; i < k; ++i) {
      S s = D[i][j];
      for (int m = 0; m < j; ++m) s -= L[i][m] * L[j][m];
      L[i][j] = s / L[j][j];
    }
  }
  for (int j = 0; j < k; ++j) {
    W[j][j] = S(1) / L[j][j];
    for (int i = j + 1; i < k; ++i) {
      S s = S(0);
      for (int m = j; m < i; ++m) s -= L[i][m] * W[m][j];
      W[i][j] = s / L[i][i];
    }
  }
  for (int j = 0; j < k; ++j)
    for (int i = j; i < k; ++i) {  // (Wᵀ W)(i, j) = Σ_{m ≥ i} W[m][i] W[m][j]
      S s = S(0);
      for (int m = i; m < k; ++m) s += W[m][i] * W[m][j];
      X[i][j] = s;
      X[j][i] = s;
    }
}

/// A joint's k columns (k > 1) in the articulated-body factorization, as plain arrays (A[t] =
/// column t): U = M^A S and D⁻¹ = (Sᵀ U + armature 1)⁻¹. Plain loops of trip count K when it is
/// fixed: Eigen's products at K = Dynamic were the larger part of the k-column steps' compile
/// time. Out of line, as add_articulated_translated_arrays: aba's and aza's steps share one
/// compiled copy at each width.
template <int K, class S>
LIEDYN_NEVER_INLINE void articulated_columns(const Matrix6<S>& IA, const S (&Sv)[6][6], int k_,
                                             const S& armature, S (&U)[6][6], S (&Dinv)[6][6]) {
  const int k = K == Eigen::Dynamic ? k_ : K;
  for (int t = 0; t < k; ++t)
    for (int row = 0; row < 6; ++row) {
      S sum = S(0);
      for (int col = 0; col < 6; ++col) sum += IA(row, col) * Sv[t][col];
      U[t][row] = sum;
    }
  S D[6][6];
  for (int a = 0; a < k; ++a) {
    for (int b = 0; b < k; ++b) {
      S sum = S(0);
      for (int row = 0; row < 6; ++row) sum += Sv[a][row] * U[b][row];
      D[a][b] = sum;
    }
    D[a][a] += armature;
  }
  invert_pivot<K>(D, k, Dinv);
}

/// out += Tᵀ (M − U D⁻¹ Uᵀ) T (add_translated) for a joint's k columns as plain arrays
/// (articulated_columns).
template <int K, class S>
LIEDYN_NEVER_INLINE void add_articulated_translated_arrays(const Vector3<S>& d, const Matrix6<S>& M,
                                                           const S (&U)[6][6],
                                                           const S (&Dinv)[6][6], int k_,
                                                           Matrix6<S>& out) {
  const int k = K == Eigen::Dynamic ? k_ : K;
  S UD[6][6];  // UD[b] = column b of U D⁻¹
  for (int b = 0; b < k; ++b)
    for (int row = 0; row < 6; ++row) {
      S sum = S(0);
      for (int a = 0; a < k; ++a) sum += U[a][row] * Dinv[a][b];
      UD[b][row] = sum;
    }
  Matrix6<S> Ma;
  for (int col = 0; col < 6; ++col)
    for (int row = 0; row < 6; ++row) {
      S sum = S(0);
      for (int b = 0; b < k; ++b) sum += UD[b][row] * U[b][col];
      Ma(row, col) = M(row, col) - sum;
    }
  add_translated(
      d, [&](int row, int col) { return Ma(row, col); }, out);
}

/// The forward step of a joint of k columns, shared by ABA and AZA (RBDA Table 7.1's last
/// loop): ddr = D⁻¹ (u − Uᵀ a_in) and a_out = a_in + S ddr, with the joint's columns r.. of U
/// and S (6 × ·), its k × k block of D⁻¹ (rows r..) and its entries of u; a_in the parent's
/// acceleration brought to the child. Plain loops: Eigen's expressions at each width were most of
/// the multi-DoF steps' compile time. K fixes the trip count where it is known.
template <int K, class S, class Dinv>
LIEDYN_ALWAYS_INLINE void joint_acceleration_columns(const Matrix6X<S>& U, const Dinv& D_inv,
                                                     const VectorX<S>& u, const Matrix6X<S>& S_cols,
                                                     int r, int k, const Vector6<S>& a_in, S* ddr,
                                                     Vector6<S>& a_out) {
  if constexpr (K != Eigen::Dynamic) k = K;
  S uc[6];  // u_i − U_iᵀ a_in
  for (int b = 0; b < k; ++b) {
    S sum = S(0);
    for (int row = 0; row < 6; ++row) sum += U(row, r + b) * a_in(row);
    uc[b] = u(r + b) - sum;
  }
  for (int a = 0; a < k; ++a) {
    S sum = S(0);
    for (int b = 0; b < k; ++b) sum += D_inv(r + a, b) * uc[b];
    ddr[a] = sum;
  }
  for (int row = 0; row < 6; ++row) {
    S sum = S(0);
    for (int a = 0; a < k; ++a) sum += S_cols(row, r + a) * ddr[a];
    a_out(row) = a_in(row) + sum;
  }
}

}  // namespace detail
}  // namespace liedyn
