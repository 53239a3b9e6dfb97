// liedyn — spatial algebra: the 3D hat (skew) map and its inverse.
#pragma once

#include "liedyn/spatial/fwd.hpp"

namespace liedyn {

/// u^ : the skew-symmetric matrix with u^ w = u × w.
template <class Derived>
Matrix3<typename Derived::Scalar> hat(const Eigen::MatrixBase<Derived>& u) {
  using S = typename Derived::Scalar;
  Matrix3<S> m;
  m << S(0), -u(2), u(1),  //
      u(2), S(0), -u(0),   //
      -u(1), u(0), S(0);
  return m;
}

/// Inverse of hat for a skew-symmetric matrix. For a general matrix it returns the vee of its
/// skew part, (m - mᵀ)/2, which is what log maps need.
template <class Derived>
Vector3<typename Derived::Scalar> vee(const Eigen::MatrixBase<Derived>& m) {
  using S = typename Derived::Scalar;
  return Vector3<S>(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1)) * S(0.5);
}

}  // namespace liedyn
