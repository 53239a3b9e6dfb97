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

namespace detail {

// Three scalars, for the spatial operators' inner arithmetic. Eigen evaluates a 3×3 matrix times
// a 3-vector (or a cross product of 3-segments of a 6-vector) as 2-wide packets plus horizontal
// adds and passes the halves through the stack, where a 16-byte reload of two 8-byte stores
// stalls store forwarding. Written out coefficient by coefficient the same arithmetic stays in
// registers; SE3's actions and the motion cross product use this form. Which operators use it
// was decided by timing each (BENCHMARKS.md, design measurements), not by taste: SpatialInertia *
// Motion and the wrench cross product were faster in Eigen's form inside the derivative pass, so
// they keep it. Any scalar type works (AD too).
template <class S>
struct Vec3 {
  S x, y, z;
};
template <class S>
inline Vec3<S> load3(const S* a) { return {a[0], a[1], a[2]}; }
template <class S>
inline void store3(S* out, const Vec3<S>& a) {
  out[0] = a.x;
  out[1] = a.y;
  out[2] = a.z;
}
template <class S>
inline Vec3<S> operator+(const Vec3<S>& a, const Vec3<S>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class S>
inline Vec3<S> operator-(const Vec3<S>& a, const Vec3<S>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class S>
inline Vec3<S> operator*(const S& s, const Vec3<S>& a) { return {s * a.x, s * a.y, s * a.z}; }
template <class S>
inline Vec3<S> cross3(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// R a.
template <class S>
inline Vec3<S> mul3(const Matrix3<S>& R, const Vec3<S>& a) {
  return {R(0, 0) * a.x + R(0, 1) * a.y + R(0, 2) * a.z, R(1, 0) * a.x + R(1, 1) * a.y + R(1, 2) * a.z,
          R(2, 0) * a.x + R(2, 1) * a.y + R(2, 2) * a.z};
}
/// Rᵀ a.
template <class S>
inline Vec3<S> mul3_transpose(const Matrix3<S>& R, const Vec3<S>& a) {
  return {R(0, 0) * a.x + R(1, 0) * a.y + R(2, 0) * a.z, R(0, 1) * a.x + R(1, 1) * a.y + R(2, 1) * a.z,
          R(0, 2) * a.x + R(1, 2) * a.y + R(2, 2) * a.z};
}

}  // namespace detail

}  // namespace liedyn
