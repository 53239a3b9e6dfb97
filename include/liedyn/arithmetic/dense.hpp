// liedyn — arithmetic: small dense factorizations written out (Cholesky, LU with partial
// pivoting, Householder QR) on blocks of preallocated matrices, for the constrained solvers.
// Eigen's decompositions allocate their own storage on every compute(); these work in place in a
// workspace, so a solver call allocates nothing, and they instantiate for any scalar type.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Core>

#include "liedyn/arithmetic/types.hpp"

namespace liedyn {
namespace detail {

namespace dense {

/// Every coefficient of a stored matrix set to zero. For double and float GCC turns this loop into
/// one memset call, and glibc's memset picks the widest stores of the machine it runs on; Eigen's
/// setZero() is a packet loop compiled for the build's instruction set (SSE2 in a portable
/// build), and on a block of rows one call per column.
template <class S, int R, int C, int O, int MR, int MC>
void set_zero(Eigen::Matrix<S, R, C, O, MR, MC>& m) {
  S* const first = m.data();
  std::fill(first, first + m.size(), S(0));
}

/// The last `count` columns of a column-major matrix set to zero: one contiguous stretch of its
/// storage, cleared as set_zero clears the whole (a block's setZero() stores column by column).
template <class S, int R, int C, int O, int MR, int MC>
void set_zero_right_columns(Eigen::Matrix<S, R, C, O, MR, MC>& m, Eigen::Index count) {
  static_assert(!(O & Eigen::RowMajor), "set_zero_right_columns: column-major storage only");
  S* const last = m.data() + m.size();
  std::fill(last - m.rows() * count, last, S(0));
}

/// The machine epsilon of S's real type, as an S.
template <class S>
S epsilon() {
  return S(std::numeric_limits<S>::epsilon());
}

/// ‖x‖_∞ of a matrix or vector (0 for an empty one).
template <class Derived>
typename Derived::Scalar max_abs(const Eigen::MatrixBase<Derived>& x) {
  using S = typename Derived::Scalar;
  using std::abs;
  S out(0);
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      if (abs(x(i, j)) > out) out = abs(x(i, j));
  return out;
}

/// ‖A‖_∞ (largest absolute row sum).
template <class Derived>
typename Derived::Scalar max_row_sum(const Eigen::MatrixBase<Derived>& A) {
  using S = typename Derived::Scalar;
  using std::abs;
  S out(0);
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    S sum(0);
    for (Eigen::Index j = 0; j < A.cols(); ++j) sum += abs(A(i, j));
    if (sum > out) out = sum;
  }
  return out;
}

/// In-place Cholesky A = L Lᵀ of a symmetric positive-definite block (lower triangle read and
/// written, upper left as is). Returns false when a pivot falls to `relative_floor` times its
/// diagonal entry or below: the rows are then linearly dependent to that precision (a pivot is
/// the squared distance of a row from the span of the rows before it, in the matrix's metric);
/// `dependent_row`, if given, then receives that row.
template <class S>
bool cholesky_in_place(Eigen::Ref<MatrixX<S>> A, const S& relative_floor,
                       Eigen::Index* dependent_row = nullptr) {
  using std::sqrt;
  const Eigen::Index n = A.rows();
  for (Eigen::Index j = 0; j < n; ++j) {
    const S diagonal = A(j, j);
    S pivot = diagonal;
    for (Eigen::Index k = 0; k < j; ++k) pivot -= A(j, k) * A(j, k);
    if (!(pivot > relative_floor * diagonal) || !(pivot > S(0))) {
      if (dependent_row) *dependent_row = j;
      return false;
    }
    const S l = sqrt(pivot);
    A(j, j) = l;
    const S inverse = S(1) / l;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      S sum = A(i, j);
      for (Eigen::Index k = 0; k < j; ++k) sum -= A(i, k) * A(j, k);
      A(i, j) = sum * inverse;
    }
  }
  return true;
}

/// X ← (L Lᵀ)⁻¹ X, L the lower triangle of a cholesky_in_place result (X: n × k).
template <class S, class Derived>
void cholesky_solve_in_place(const Eigen::Ref<const MatrixX<S>>& L,
                             const Eigen::MatrixBase<Derived>& X_out) {
  Eigen::MatrixBase<Derived>& X = const_cast<Eigen::MatrixBase<Derived>&>(X_out);
  const Eigen::Index n = L.rows();
  // Multiplying by the pivots' reciprocals takes the divisions off the substitutions' chain of
  // dependent operations (the reciprocals depend on L alone and are computed ahead).
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const S inverse = S(1) / L(i, i);
      S sum = X(i, c);
      for (Eigen::Index k = 0; k < i; ++k) sum -= L(i, k) * X(k, c);
      X(i, c) = sum * inverse;
    }
    for (Eigen::Index i = n - 1; i >= 0; --i) {
      const S inverse = S(1) / L(i, i);
      S sum = X(i, c);
      for (Eigen::Index k = i + 1; k < n; ++k) sum -= L(k, i) * X(k, c);
      X(i, c) = sum * inverse;
    }
  }
}

/// In-place LU with partial (row) pivoting, P A = L U, of a square block: L (unit) strictly
/// below the diagonal, U on and above, pivot(k) the row swapped with row k at step k. Returns
/// false on an exactly zero pivot (the factors are then unusable).
template <class S>
bool lu_in_place(Eigen::Ref<MatrixX<S>> A, Eigen::Ref<Eigen::VectorXi> pivot) {
  using std::abs;
  const Eigen::Index n = A.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index p = k;
    for (Eigen::Index i = k + 1; i < n; ++i)
      if (abs(A(i, k)) > abs(A(p, k))) p = i;
    pivot(k) = static_cast<int>(p);
    if (p != k) A.row(k).swap(A.row(p));
    if (A(k, k) == S(0)) return false;
    const S inverse = S(1) / A(k, k);
    for (Eigen::Index i = k + 1; i < n; ++i) {
      A(i, k) *= inverse;
      const S f = A(i, k);
      for (Eigen::Index j = k + 1; j < n; ++j) A(i, j) -= f * A(k, j);
    }
  }
  return true;
}

/// X ← A⁻¹ X from lu_in_place's factors.
template <class S, class Derived>
void lu_solve_in_place(const Eigen::Ref<const MatrixX<S>>& LU,
                       const Eigen::Ref<const Eigen::VectorXi>& pivot,
                       const Eigen::MatrixBase<Derived>& X_out) {
  Eigen::MatrixBase<Derived>& X = const_cast<Eigen::MatrixBase<Derived>&>(X_out);
  const Eigen::Index n = LU.rows();
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (Eigen::Index k = 0; k < n; ++k)
      if (pivot(k) != k) std::swap(X(k, c), X(pivot(k), c));
    for (Eigen::Index i = 0; i < n; ++i) {
      S sum = X(i, c);
      for (Eigen::Index k = 0; k < i; ++k) sum -= LU(i, k) * X(k, c);
      X(i, c) = sum;
    }
    for (Eigen::Index i = n - 1; i >= 0; --i) {
      S sum = X(i, c);
      for (Eigen::Index k = i + 1; k < n; ++k) sum -= LU(i, k) * X(k, c);
      X(i, c) = sum / LU(i, i);
    }
  }
}

/// x ← A⁻ᵀ x from lu_in_place's factors (Aᵀ = Uᵀ Lᵀ P).
template <class S, class Derived>
void lu_solve_transpose_in_place(const Eigen::Ref<const MatrixX<S>>& LU,
                                 const Eigen::Ref<const Eigen::VectorXi>& pivot,
                                 const Eigen::MatrixBase<Derived>& x_out) {
  Eigen::MatrixBase<Derived>& x = const_cast<Eigen::MatrixBase<Derived>&>(x_out);
  const Eigen::Index n = LU.rows();
  for (Eigen::Index i = 0; i < n; ++i) {
    S sum = x(i);
    for (Eigen::Index k = 0; k < i; ++k) sum -= LU(k, i) * x(k);
    x(i) = sum / LU(i, i);
  }
  for (Eigen::Index i = n - 1; i >= 0; --i) {
    S sum = x(i);
    for (Eigen::Index k = i + 1; k < n; ++k) sum -= LU(k, i) * x(k);
    x(i) = sum;
  }
  for (Eigen::Index k = n - 1; k >= 0; --k)
    if (pivot(k) != k) std::swap(x(k), x(pivot(k)));
}

/// In-place Householder QR of a rows × cols block (rows ≥ cols), A = Q R: R on and above the
/// diagonal, the reflectors' vectors v_k (v_k(0) = 1 implied) below it, their factors in tau
/// (H_k = I − tau_k v_k v_kᵀ, Q = H_0 ⋯ H_{cols−1}; LAPACK's dgeqr2 convention).
template <class S>
void householder_qr_in_place(Eigen::Ref<MatrixX<S>> A, Eigen::Ref<VectorX<S>> tau) {
  using std::sqrt;
  const Eigen::Index rows = A.rows(), cols = A.cols();
  for (Eigen::Index k = 0; k < cols; ++k) {
    const Eigen::Index below = rows - k - 1;
    const S alpha = A(k, k);
    const S tail = below > 0 ? S(A.col(k).tail(below).squaredNorm()) : S(0);
    if (tail == S(0)) {
      tau(k) = S(0);
      continue;
    }
    const S norm = sqrt(alpha * alpha + tail);
    const S beta = alpha >= S(0) ? S(-norm) : norm;
    tau(k) = (beta - alpha) / beta;
    A.col(k).tail(below) /= (alpha - beta);
    A(k, k) = beta;
    for (Eigen::Index j = k + 1; j < cols; ++j) {
      const S w = tau(k) * (A(k, j) + A.col(k).tail(below).dot(A.col(j).tail(below)));
      A(k, j) -= w;
      A.col(j).tail(below) -= w * A.col(k).tail(below);
    }
  }
}

/// Which of Q and Qᵀ apply_householder_q applies.
enum class HouseholderProduct { Q, QTransposed };

/// x ← Q x or Qᵀ x, Q from householder_qr_in_place's reflectors.
template <class S, class Derived>
void apply_householder_q(const Eigen::Ref<const MatrixX<S>>& QR,
                         const Eigen::Ref<const VectorX<S>>& tau, HouseholderProduct product,
                         const Eigen::MatrixBase<Derived>& x_out) {
  Eigen::MatrixBase<Derived>& x = const_cast<Eigen::MatrixBase<Derived>&>(x_out);
  const Eigen::Index rows = QR.rows(), cols = QR.cols();
  // Qᵀ = H_{n−1} ⋯ H_0 applies H_0 first; Q the reverse.
  for (Eigen::Index t = 0; t < cols; ++t) {
    const Eigen::Index k = product == HouseholderProduct::QTransposed ? t : cols - 1 - t;
    const Eigen::Index below = rows - k - 1;
    if (tau(k) == S(0)) continue;
    const S w = tau(k) * (x(k) + QR.col(k).tail(below).dot(x.tail(below)));
    x(k) -= w;
    x.tail(below) -= w * QR.col(k).tail(below);
  }
}

}  // namespace dense

}  // namespace detail
}  // namespace liedyn
