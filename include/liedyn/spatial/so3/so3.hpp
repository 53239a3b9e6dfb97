// liedyn — spatial algebra: the rotation group SO(3).
//
// An SO3 ^A R_B maps coordinates in frame B to frame A. Tangent vectors ω ∈ R³ are
// perturbations on the right unless a function says otherwise: R exp(ω^). Quaternions are
// ordered (x, y, z, w) — w LAST, as in Pinocchio and Eigen's coeffs(); MuJoCo and Drake put w
// first (see the interop headers).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "liedyn/arithmetic/registers.hpp"
#include "liedyn/config.hpp"
#include "liedyn/spatial/fwd.hpp"
#include "liedyn/spatial/skew.hpp"

namespace Eigen {
template <typename DerivativeType>
class AutoDiffScalar;
}  // namespace Eigen

namespace liedyn {

namespace detail {

// atan2 for any scalar. Eigen's overload for AutoDiffScalar returns dynamic-size derivatives
// (a heap allocation per call); the chain rule written out here keeps fixed-size derivative
// vectors on the stack: d atan2(y, x) = (x dy − y dx) / (x² + y²).
template <class S>
S atan2(const S& y, const S& x) {
  using std::atan2;
  return atan2(y, x);
}
template <class D>
Eigen::AutoDiffScalar<D> atan2(const Eigen::AutoDiffScalar<D>& y,
                               const Eigen::AutoDiffScalar<D>& x) {
  using std::atan2;
  const auto yv = y.value(), xv = x.value();
  const auto r2 = xv * xv + yv * yv;
  return Eigen::AutoDiffScalar<D>(atan2(yv, xv),
                                  D((xv * y.derivatives() - yv * x.derivatives()) / r2));
}

// Coefficients of the SO(3) series, each with its Taylor branch (terms up to θ⁶) for small
// θ; see small_angle_threshold_squared for the switch.
template <class S>
struct SO3Coefficients {
  S A;  // sin θ / θ
  S B;  // (1 − cos θ) / θ²
  S C;  // (θ − sin θ) / θ³

  explicit SO3Coefficients(const S& theta2) {
    using std::cos;
    using std::sin;
    using std::sqrt;
    if (theta2 < small_angle_threshold_squared<S>()) {
      const S t2 = theta2, t4 = t2 * t2, t6 = t4 * t2;
      A = S(1) - t2 / S(6) + t4 / S(120) - t6 / S(5040);
      B = S(0.5) - t2 / S(24) + t4 / S(720) - t6 / S(40320);
      C = S(1) / S(6) - t2 / S(120) + t4 / S(5040) - t6 / S(362880);
    } else {
      const S t = sqrt(theta2);
      const S s = sin(t), c = cos(t);
      A = s / t;
      B = (S(1) - c) / theta2;
      C = (t - s) / (theta2 * t);
    }
  }
};

// D(θ) = (1 − (θ/2) cot(θ/2)) / θ², the W² coefficient of the inverse Jacobians. Written with
// cot(θ/2) so that it stays accurate at θ = π, where sin θ vanishes.
template <class S>
S so3_inverse_jacobian_coefficient(const S& theta2) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (theta2 < small_angle_threshold_squared<S>()) {
    const S t2 = theta2, t4 = t2 * t2, t6 = t4 * t2;
    return S(1) / S(12) + t2 / S(720) + t4 / S(30240) + t6 / S(1209600);
  }
  const S half = sqrt(theta2) * S(0.5);
  return (S(1) - half * cos(half) / sin(half)) / theta2;
}

/// SO3::from_quaternion's refusal, out of line (see there).
[[noreturn]] LIEDYN_NEVER_INLINE inline void throw_not_a_quaternion() {
  throw std::invalid_argument("liedyn: SO3::from_quaternion: the quaternion is zero or not finite");
}

}  // namespace detail

/// A rotation ^A R_B, stored as a 3×3 matrix: maps B-coordinates to A-coordinates.
/// Tangent perturbations are on the right, R exp(ω^).
template <class S>
class SO3 {
 public:
  using Scalar = S;

  SO3() : R_(Matrix3<S>::Identity()) {}
  /// Wraps a rotation matrix; it is taken as orthonormal (not checked in release builds).
  template <class Derived>
  explicit SO3(const Eigen::MatrixBase<Derived>& R) : R_(R) {}
  /// The identity rotation.
  static SO3 Identity() { return SO3(); }

  /// The rotation matrix ^A R_B.
  const Matrix3<S>& matrix() const { return R_; }
  /// Writable rotation matrix ^A R_B (the caller keeps it orthonormal).
  Matrix3<S>& matrix() { return R_; }

  /// ^A R_B * ^B R_C = ^A R_C.
  SO3 operator*(const SO3& o) const { return SO3(Matrix3<S>(R_ * o.R_)); }
  /// ^B R_A = Rᵀ.
  SO3 inverse() const { return SO3(Matrix3<S>(R_.transpose())); }
  /// R u: a vector of frame B expressed in frame A.
  template <class Derived>
  Vector3<S> act(const Eigen::MatrixBase<Derived>& u) const {
    return R_ * u;
  }
  /// Rᵀ u: a vector of frame A expressed in frame B.
  template <class Derived>
  Vector3<S> act_inverse(const Eigen::MatrixBase<Derived>& u) const {
    return R_.transpose() * u;
  }

  /// exp(ω^) by Rodrigues' formula.
  template <class Derived>
  static SO3 exp(const Eigen::MatrixBase<Derived>& omega) {
    const detail::SO3Coefficients<S> k(omega.squaredNorm());
    const Matrix3<S> W = hat(omega);
    return SO3(Matrix3<S>(Matrix3<S>::Identity() + k.A * W + k.B * (W * W)));
  }

  /// log: the ω with exp(ω^) = R and |ω| ≤ π. Accurate near 0 (Taylor) and near π, where the
  /// axis is read from the symmetric part of R instead of the vanishing skew part.
  Vector3<S> log() const {
    using std::sqrt;
    const Vector3<S> skew = vee(R_);  // sin θ · n
    const S sin2 = skew.squaredNorm();
    const S cos_t = (R_.trace() - S(1)) * S(0.5);
    if (cos_t > S(0) && sin2 < small_angle_threshold_squared<S>()) {
      // θ/sin θ = asin(s)/s as a series in s² = sin²θ: no square root, so it is smooth (and
      // differentiable by automatic differentiation) at the identity.
      const S factor =
          S(1) + sin2 / S(6) + S(3) * sin2 * sin2 / S(40) + S(5) * sin2 * sin2 * sin2 / S(112);
      return skew * factor;
    }
    const S sin_t = sqrt(sin2);
    const S theta = detail::atan2(sin_t, cos_t);
    if (cos_t > S(-0.5)) return skew * (theta / sin_t);  // θ < 2π/3: well conditioned
    // θ ≥ 2π/3: (R + Rᵀ)/2 − cos θ I = (1 − cos θ) n nᵀ; take the largest diagonal entry.
    const Matrix3<S> B = (R_ + R_.transpose()) * S(0.5) - cos_t * Matrix3<S>::Identity();
    int k = 0;
    if (B(1, 1) > B(k, k)) k = 1;
    if (B(2, 2) > B(k, k)) k = 2;
    const S one_minus_cos = S(1) - cos_t;
    Vector3<S> n = B.col(k) / sqrt(B(k, k) * one_minus_cos);
    if (n.dot(skew) < S(0)) n = -n;
    return n * theta;
  }

  /// Right Jacobian: exp(ω + δ) ≈ exp(ω) exp(Jr(ω) δ).
  template <class Derived>
  static Matrix3<S> right_jacobian(const Eigen::MatrixBase<Derived>& omega) {
    const detail::SO3Coefficients<S> k(omega.squaredNorm());
    const Matrix3<S> W = hat(omega);
    return Matrix3<S>::Identity() - k.B * W + k.C * (W * W);
  }
  /// Left Jacobian: exp(ω + δ) ≈ exp(Jl(ω) δ) exp(ω). Jl(ω) = Jr(−ω) = Jr(ω)ᵀ.
  template <class Derived>
  static Matrix3<S> left_jacobian(const Eigen::MatrixBase<Derived>& omega) {
    const detail::SO3Coefficients<S> k(omega.squaredNorm());
    const Matrix3<S> W = hat(omega);
    return Matrix3<S>::Identity() + k.B * W + k.C * (W * W);
  }
  /// Inverse of the right Jacobian: Jr⁻¹(ω) = I + ω^/2 + D(θ) ω^², θ = |ω|,
  /// D(θ) = (1 − (θ/2) cot(θ/2)) / θ².
  template <class Derived>
  static Matrix3<S> right_jacobian_inverse(const Eigen::MatrixBase<Derived>& omega) {
    const S D = detail::so3_inverse_jacobian_coefficient(S(omega.squaredNorm()));
    const Matrix3<S> W = hat(omega);
    return Matrix3<S>::Identity() + S(0.5) * W + D * (W * W);
  }
  /// Inverse of the left Jacobian: Jl⁻¹(ω) = I − ω^/2 + D(θ) ω^² = Jr⁻¹(ω)ᵀ.
  template <class Derived>
  static Matrix3<S> left_jacobian_inverse(const Eigen::MatrixBase<Derived>& omega) {
    const S D = detail::so3_inverse_jacobian_coefficient(S(omega.squaredNorm()));
    const Matrix3<S> W = hat(omega);
    return Matrix3<S>::Identity() - S(0.5) * W + D * (W * W);
  }

  /// From a quaternion given as (x, y, z, w); it is normalized first.
  static SO3 from_quaternion(const S& x, const S& y, const S& z, const S& w) {
    using std::sqrt;
    const S n = sqrt(x * x + y * y + z * z + w * w);
    // Refused always, a zero quaternion would give NaNs; the throw out of line, so that the
    // spherical and free joints' poses in the kernels' pose loop inline the rest.
    if (!(n > S(0)) || !(n < std::numeric_limits<S>::infinity())) detail::throw_not_a_quaternion();
    return from_unit_quaternion(x / n, y / n, z / n, w / n);
  }
  /// From a quaternion (x, y, z, w) already of unit norm (not checked, not normalized): the
  /// kernels' form, for a spherical or free joint's coordinates.
  static SO3 from_unit_quaternion(const S& x, const S& y, const S& z, const S& w) {
    Matrix3<S> R;
    R << S(1) - S(2) * (y * y + z * z), S(2) * (x * y - z * w), S(2) * (x * z + y * w),
        S(2) * (x * y + z * w), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - x * w),
        S(2) * (x * z - y * w), S(2) * (y * z + x * w), S(1) - S(2) * (x * x + y * y);
    return SO3(R);
  }
  /// From a quaternion stored as a 4-vector (x, y, z, w), w last; it is normalized first.
  template <class Derived>
  static SO3 from_quaternion(const Eigen::MatrixBase<Derived>& xyzw) {
    return from_quaternion(xyzw(0), xyzw(1), xyzw(2), xyzw(3));
  }
  /// The unit quaternion (x, y, z, w) with w ≥ 0 (Shepperd's method: the largest of the four
  /// squares is extracted first, so no branch divides by a small number).
  Vector4<S> to_quaternion() const {
    using std::sqrt;
    const Matrix3<S>& R = R_;
    const S t = R.trace();
    Vector4<S> q;  // x y z w
    if (t >= R(0, 0) && t >= R(1, 1) && t >= R(2, 2)) {
      const S r = sqrt(S(1) + t);
      const S s = S(0.5) / r;
      q << (R(2, 1) - R(1, 2)) * s, (R(0, 2) - R(2, 0)) * s, (R(1, 0) - R(0, 1)) * s, S(0.5) * r;
    } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
      const S r = sqrt(S(1) + R(0, 0) - R(1, 1) - R(2, 2));
      const S s = S(0.5) / r;
      q << S(0.5) * r, (R(0, 1) + R(1, 0)) * s, (R(0, 2) + R(2, 0)) * s, (R(2, 1) - R(1, 2)) * s;
    } else if (R(1, 1) >= R(2, 2)) {
      const S r = sqrt(S(1) - R(0, 0) + R(1, 1) - R(2, 2));
      const S s = S(0.5) / r;
      q << (R(0, 1) + R(1, 0)) * s, S(0.5) * r, (R(1, 2) + R(2, 1)) * s, (R(0, 2) - R(2, 0)) * s;
    } else {
      const S r = sqrt(S(1) - R(0, 0) - R(1, 1) + R(2, 2));
      const S s = S(0.5) / r;
      q << (R(0, 2) + R(2, 0)) * s, (R(1, 2) + R(2, 1)) * s, S(0.5) * r, (R(1, 0) - R(0, 1)) * s;
    }
    if (q(3) < S(0)) q = -q;
    return q;
  }

  /// The same rotation in scalar type T.
  template <class T>
  SO3<T> cast() const {
    return SO3<T>(R_.template cast<T>());
  }

 private:
  Matrix3<S> R_;
};

/// How far a matrix or a quaternion handed in by a user (Python, batch rows, the interop
/// converters, the command-line tool) may be from a rotation: the largest entry of |RᵀR − I|, or
/// |‖q‖ − 1|, at most this. Far above the rounding of a computed rotation (about 1e-15) and of
/// float32 data (about 1e-7); an input further off is a different input (a scaled, sheared or
/// reflected matrix, an unnormalized quaternion), refused rather than silently used or repaired.
inline constexpr double rotation_tolerance = 1e-6;

/// How far R is from a rotation: the largest entry of |RᵀR − I| when det R > 0, +infinity when
/// det R ≤ 0 (a reflection or a singular matrix) or an entry is not finite.
template <class Derived>
typename Derived::Scalar rotation_defect(const Eigen::MatrixBase<Derived>& R) {
  using S = typename Derived::Scalar;
  const S inf = std::numeric_limits<S>::infinity();
  const S det = R(0, 0) * (R(1, 1) * R(2, 2) - R(1, 2) * R(2, 1)) -
                R(0, 1) * (R(1, 0) * R(2, 2) - R(1, 2) * R(2, 0)) +
                R(0, 2) * (R(1, 0) * R(2, 1) - R(1, 1) * R(2, 0));
  if (!(det > S(0))) return inf;  // NaN compares false too
  const S defect = (R.transpose() * R - Matrix3<S>::Identity()).cwiseAbs().maxCoeff();
  return defect == defect ? defect : inf;
}

/// How far a quaternion is from a unit one: |‖q‖ − 1|, +infinity when an entry is not finite.
template <class Derived>
typename Derived::Scalar quaternion_defect(const Eigen::MatrixBase<Derived>& q) {
  using S = typename Derived::Scalar;
  using std::abs;
  const S defect = abs(q.norm() - S(1));
  return defect == defect && defect < std::numeric_limits<S>::infinity()
             ? defect
             : std::numeric_limits<S>::infinity();
}

namespace detail {

/// A scalar for an error message, in printf's %g with `digits` significant digits ("?" for a
/// scalar type that has no such value, e.g. an automatic-differentiation one).
template <class S>
std::string printable(const S& value, int digits) {
  if constexpr (std::is_arithmetic<S>::value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    return text;
  } else {
    return "?";
  }
}

/// Throws InvalidArgument ("liedyn: <who>: <what> is not a rotation: ...", with its defect) unless
/// rotation_defect(R) ≤ rotation_tolerance. Every build: a boundary check, not a kernel's.
template <class Derived>
void check_rotation(const char* who, const char* what, const Eigen::MatrixBase<Derived>& R) {
  using S = typename Derived::Scalar;
  const S defect_s = rotation_defect(R);
  if (LIEDYN_UNLIKELY(!(defect_s <= S(rotation_tolerance)))) {
    const std::string how =
        defect_s < std::numeric_limits<S>::infinity()
            ? "R^T R differs from the identity by " + printable(defect_s, 3)
            : std::string(
                  "its determinant is not positive (a reflection, a singular or a "
                  "non-finite matrix)");
    throw_invalid_argument(std::string(who) + ": " + what + " is not a rotation matrix: " + how +
                           " (a rotation must be orthonormal with det +1 within " +
                           printable(rotation_tolerance, 3) +
                           "; project it onto the rotations first if that is meant)");
  }
}

/// Throws InvalidArgument unless quaternion_defect(q) ≤ rotation_tolerance: liedyn takes a
/// quaternion as it is given, and one of another norm is a mistake to report, not to repair.
template <class Derived>
void check_unit_quaternion(const char* who, const char* what, const Eigen::MatrixBase<Derived>& q) {
  using S = typename Derived::Scalar;
  if (LIEDYN_UNLIKELY(!(quaternion_defect(q) <= S(rotation_tolerance)))) {
    throw_invalid_argument(std::string(who) + ": " + what +
                           " is not a unit quaternion: its norm is " + printable(S(q.norm()), 10) +
                           " (it must be 1 within " + printable(rotation_tolerance, 3) +
                           "; liedyn does not normalize it silently)");
  }
}

}  // namespace detail
}  // namespace liedyn
