// liedyn — arithmetic: Cholesky factorization of a symmetric positive definite 6×6 matrix
// (a spatial or articulated inertia), written out: Eigen's LLT/LDLT on Matrix6 are heavy to
// compile for every scalar type and instantiation, and this is
// the same algorithm as LLT (unblocked, unpivoted: backward stable for SPD input).
// Frames: none of its own. It factors the matrix it is given; solve(b) returns A⁻¹ b in the
// frame A maps from (for an inertia in frame i, a wrench in i gives a motion in i).
#pragma once

#include <cmath>

#include "liedyn/arithmetic/types.hpp"

namespace liedyn {
namespace detail {

/// A = L Lᵀ for a symmetric positive definite 6×6 A (only its lower triangle is read).
template <class S>
class Cholesky6 {
 public:
  Cholesky6() = default;
  explicit Cholesky6(const Matrix6<S>& A) { compute(A); }

  void compute(const Matrix6<S>& A) {
    using std::sqrt;
    ok_ = true;
    L_.setZero();
    for (int j = 0; j < 6; ++j) {
      S d = A(j, j);
      for (int k = 0; k < j; ++k) d -= L_(j, k) * L_(j, k);
      if (j == 0 || d < min_pivot_) min_pivot_ = d;
      if (!(d > S(0))) ok_ = false;
      L_(j, j) = sqrt(d);
      inv_diag_[j] = S(1) / L_(j, j);
      for (int i = j + 1; i < 6; ++i) {
        S s = A(i, j);
        for (int k = 0; k < j; ++k) s -= L_(i, k) * L_(j, k);
        L_(i, j) = s * inv_diag_[j];
      }
    }
  }
  /// False if A was not (numerically) positive definite.
  bool ok() const { return ok_; }
  /// The smallest pivot d_j = L_jj² (the D of A = L D Lᵀ): ≤ 0, or tiny against A's scale,
  /// when A is singular.
  S min_pivot() const { return min_pivot_; }
  /// A⁻¹ b. The pivots' reciprocals are kept from compute(): a solve's twelve divisions were
  /// one dependent chain, the longest part of it.
  Vector6<S> solve(const Vector6<S>& b) const {
    Vector6<S> y;
    for (int i = 0; i < 6; ++i) {
      S s = b(i);
      for (int k = 0; k < i; ++k) s -= L_(i, k) * y(k);
      y(i) = s * inv_diag_[i];
    }
    for (int i = 5; i >= 0; --i) {
      S s = y(i);
      for (int k = i + 1; k < 6; ++k) s -= L_(k, i) * y(k);
      y(i) = s * inv_diag_[i];
    }
    return y;
  }
  /// A⁻¹ = L⁻ᵀ L⁻¹, exactly symmetric (the lower triangle is formed and mirrored).
  Matrix6<S> inverse() const {
    // W = L⁻¹ by forward substitution, column by column (W is lower triangular).
    S W[6][6] = {};
    for (int j = 0; j < 6; ++j) {
      W[j][j] = inv_diag_[j];
      for (int i = j + 1; i < 6; ++i) {
        S s = S(0);
        for (int k = j; k < i; ++k) s -= L_(i, k) * W[k][j];
        W[i][j] = s * inv_diag_[i];
      }
    }
    // (Wᵀ W)(i, j) = Σ_{k ≥ max(i, j)} W[k][i] W[k][j].
    Matrix6<S> X;
    for (int j = 0; j < 6; ++j)
      for (int i = j; i < 6; ++i) {
        S s = S(0);
        for (int k = i; k < 6; ++k) s += W[k][i] * W[k][j];
        X(i, j) = s;
        X(j, i) = s;
      }
    return X;
  }

 private:
  Matrix6<S> L_ = Matrix6<S>::Zero();
  S inv_diag_[6] = {};  // 1 / L_jj
  S min_pivot_ = S(0);
  bool ok_ = false;
};

}  // namespace detail
}  // namespace liedyn
