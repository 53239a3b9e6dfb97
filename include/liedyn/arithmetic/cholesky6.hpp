// liedyn — arithmetic: Cholesky factorization of a symmetric positive definite 6×6 matrix
// (a spatial or articulated inertia), written out. Eigen's LLT/LDLT on Matrix6 cost seconds of
// compile time per scalar type and instantiation; this costs a fraction, runs as fast, and is
// the same algorithm as LLT (unblocked, unpivoted: backward stable for SPD input).
// Frames: none of its own. It factors the matrix it is given; solve(b) returns A⁻¹ b in the
// frame A maps from (for an inertia in frame i, a wrench in i gives a motion in i).
#pragma once

#include <cmath>

#include "liedyn/spatial/fwd.hpp"

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
      for (int i = j + 1; i < 6; ++i) {
        S s = A(i, j);
        for (int k = 0; k < j; ++k) s -= L_(i, k) * L_(j, k);
        L_(i, j) = s / L_(j, j);
      }
    }
  }
  /// False if A was not (numerically) positive definite.
  bool ok() const { return ok_; }
  /// The smallest pivot d_j = L_jj² (the D of A = L D Lᵀ): ≤ 0, or tiny against A's scale,
  /// when A is singular.
  S min_pivot() const { return min_pivot_; }
  /// A⁻¹ b.
  Vector6<S> solve(const Vector6<S>& b) const {
    Vector6<S> y;
    for (int i = 0; i < 6; ++i) {
      S s = b(i);
      for (int k = 0; k < i; ++k) s -= L_(i, k) * y(k);
      y(i) = s / L_(i, i);
    }
    for (int i = 5; i >= 0; --i) {
      S s = y(i);
      for (int k = i + 1; k < 6; ++k) s -= L_(k, i) * y(k);
      y(i) = s / L_(i, i);
    }
    return y;
  }
  /// A⁻¹, exactly symmetric.
  Matrix6<S> inverse() const {
    Matrix6<S> X;
    for (int j = 0; j < 6; ++j) X.col(j) = solve(Vector6<S>::Unit(j));
    for (int j = 0; j < 6; ++j)
      for (int i = j + 1; i < 6; ++i) X(j, i) = X(i, j);
    return X;
  }

 private:
  Matrix6<S> L_ = Matrix6<S>::Zero();
  S min_pivot_ = S(0);
  bool ok_ = false;
};

}  // namespace detail
}  // namespace liedyn
