// liedyn — spatial algebra: unit quaternions as coordinates of SO(3), stored (x, y, z, w), w last
// (Eigen's coeffs() order and Pinocchio's). The product, exponential and logarithm act on the
// four numbers directly: integrating a spherical joint keeps its quaternion continuous (a
// rotation matrix read back into a quaternion would flip its sign whenever w crosses zero).
#pragma once

#include "liedyn/spatial/so3/so3.hpp"

namespace liedyn {

/// The Hamilton product a ⊗ b of quaternions (x, y, z, w): the rotation R(a) R(b).
template <class Da, class Db>
Vector4<typename Da::Scalar> quaternion_product(const Eigen::MatrixBase<Da>& a,
                                                const Eigen::MatrixBase<Db>& b) {
  using S = typename Da::Scalar;
  Vector4<S> c;
  c(0) = a(3) * b(0) + a(0) * b(3) + a(1) * b(2) - a(2) * b(1);
  c(1) = a(3) * b(1) - a(0) * b(2) + a(1) * b(3) + a(2) * b(0);
  c(2) = a(3) * b(2) + a(0) * b(1) - a(1) * b(0) + a(2) * b(3);
  c(3) = a(3) * b(3) - a(0) * b(0) - a(1) * b(1) - a(2) * b(2);
  return c;
}

/// The conjugate (−x, −y, −z, w): for a unit quaternion, the inverse rotation.
template <class D>
Vector4<typename D::Scalar> quaternion_conjugate(const Eigen::MatrixBase<D>& q) {
  return Vector4<typename D::Scalar>(-q(0), -q(1), -q(2), q(3));
}

/// The unit quaternion of exp(ω^): (sin(θ/2) ω/θ, cos(θ/2)), θ = |ω|. Below the small-angle
/// switch sin(θ/2)/θ is a series in θ², so the map is smooth (and differentiable by automatic
/// differentiation) at ω = 0.
template <class D>
Vector4<typename D::Scalar> quaternion_exp(const Eigen::MatrixBase<D>& omega) {
  using S = typename D::Scalar;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S t2 = omega.squaredNorm();
  S half_sinc, cos_half;  // sin(θ/2)/θ and cos(θ/2)
  if (t2 < small_angle_threshold_squared<S>()) {
    const S t4 = t2 * t2;
    half_sinc = S(0.5) - t2 / S(48) + t4 / S(3840) - t4 * t2 / S(645120);
    cos_half = S(1) - t2 / S(8) + t4 / S(384) - t4 * t2 / S(46080);
  } else {
    const S t = sqrt(t2);
    half_sinc = sin(t / S(2)) / t;
    cos_half = cos(t / S(2));
  }
  return Vector4<S>(half_sinc * omega(0), half_sinc * omega(1), half_sinc * omega(2), cos_half);
}

/// log of a unit quaternion: the ω, |ω| ≤ π, with exp(ω^) = R(q). q and −q give the same ω (the
/// shorter way round): θ = 2 atan2(|v|, |w|), ω = θ v / |v| with the sign of w.
template <class D>
Vector3<typename D::Scalar> quaternion_log(const Eigen::MatrixBase<D>& q) {
  using S = typename D::Scalar;
  using std::sqrt;
  const S sign = q(3) < S(0) ? S(-1) : S(1);
  const Vector3<S> v(sign * q(0), sign * q(1), sign * q(2));
  const S w = sign * q(3);
  const S s2 = v.squaredNorm();
  // Near the identity (s = |v| small, w ≈ 1), 2 atan2(s, w)/s as a series in s²/w² (no square
  // root: smooth at s = 0).
  if (s2 < small_angle_threshold_squared<S>() * w * w) {
    const S r = s2 / (w * w);
    return v * (S(2) / w * (S(1) - r / S(3) + r * r / S(5) - r * r * r / S(7)));
  }
  const S s = sqrt(s2);
  return v * (S(2) * detail::atan2(s, w) / s);
}

}  // namespace liedyn
