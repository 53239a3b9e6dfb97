// liedyn — spatial algebra: the rigid-motion group SE(3).
//
// An SE3 ^A H_B = (R, p) holds the orientation R = ^A R_B and origin p = ^A o_B of frame B in
// frame A; it maps B-coordinates of a point to A-coordinates: x_A = R x_B + p.
// Tangent vectors are LINEAR FIRST, ξ = [ρ; φ], and exp(ξ^) with ξ^ = [φ^ ρ; 0 0].
// Perturbations are on the right (left-trivialized): H exp(η^) — docs/conventions.md §3.
// Acting on a Motion applies the velocity transform ^A X_B = [R, p^ R; 0, R]; acting on a Force
// applies the wrench transform _A X^B = [R, 0; p^ R, R] = (^B X_A)ᵀ. Neither forms a 6×6.
#pragma once

#include "liedyn/spatial/motion.hpp"
#include "liedyn/spatial/so3/so3.hpp"

namespace liedyn {

namespace detail {

// Q(ρ, φ): the top-right block of the SE(3) left Jacobian [[Jl(φ), Q], [0, Jl(φ)]] (Barfoot's
// form, linear-first ordering), with a series branch for small |φ|.
//
// Its switch is θ_q = ε^(1/16) (θ_q² = √small_angle_threshold_squared), not the ε^(1/8) of the
// SO(3) coefficients: the closed forms of a1, a2, a3 cancel to O(θ³), O(θ⁴), O(θ⁵) and carry
// absolute errors ε/θ², ε/θ⁴, ε/θ⁴, which multiply matrices of size θ, θ², θ³ — so Q is off by
// ~ε/θ², i.e. ε^(3/4) ≈ 2e-12 (double) at θ = ε^(1/8), but only ε^(7/8) ≈ 2e-14 at θ_q. The
// series (terms to θ⁶) is still far below ε there: its first omitted terms times their matrices
// are O(θ⁹) ≈ 1e-18 (double, θ_q = 0.105).
template <class S>
Matrix3<S> se3_q_block(const Vector3<S>& rho, const Vector3<S>& phi) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S t2 = phi.squaredNorm();
  S a1, a2, a3;
  if (t2 < S(sqrt(small_angle_threshold_squared<S>()))) {
    const S t4 = t2 * t2, t6 = t4 * t2;
    a1 = S(1) / S(6) - t2 / S(120) + t4 / S(5040) - t6 / S(362880);
    a2 = S(1) / S(24) - t2 / S(720) + t4 / S(40320) - t6 / S(3628800);
    a3 = S(1) / S(120) - t2 / S(2520) + t4 / S(120960) - t6 / S(9979200);
  } else {
    const S t = sqrt(t2);
    const S s = sin(t), c = cos(t);
    a1 = (t - s) / (t2 * t);
    a2 = (t2 + S(2) * c - S(2)) / (S(2) * t2 * t2);
    a3 = (S(2) * t - S(3) * s + t * c) / (S(2) * t2 * t2 * t);
  }
  const Matrix3<S> P = hat(phi), Rh = hat(rho);
  const Matrix3<S> PR = P * Rh, RP = Rh * P, PRP = PR * P;
  return S(0.5) * Rh + a1 * (PR + RP + PRP) + a2 * (P * PR + RP * P - S(3) * PRP) +
         a3 * (PRP * P + P * PRP);
}

}  // namespace detail

/// A rigid transform ^A H_B = (R, p), R = ^A R_B, p = ^A o_B: x_A = R x_B + p. It acts on
/// motions by ^A X_B = [R, p^ R; 0, R] and on forces by _A X^B = [R, 0; p^ R, R]; tangent vectors
/// are [ρ; φ], linear first.
template <class S>
class SE3 {
 public:
  using Scalar = S;

  SE3() : R_(Matrix3<S>::Identity()), p_(Vector3<S>::Zero()) {}
  /// From a rotation matrix R = ^A R_B (assumed orthonormal, not checked) and p = ^A o_B.
  template <class DR, class Dp>
  SE3(const Eigen::MatrixBase<DR>& R, const Eigen::MatrixBase<Dp>& p) : R_(R), p_(p) {}
  /// From the rotation R = ^A R_B and the origin p = ^A o_B of B in A.
  SE3(const SO3<S>& R, const Vector3<S>& p) : R_(R.matrix()), p_(p) {}
  /// From a 4×4 homogeneous matrix.
  template <class Derived>
  static SE3 from_matrix(const Eigen::MatrixBase<Derived>& H) {
    return SE3(Matrix3<S>(H.template topLeftCorner<3, 3>()),
               Vector3<S>(H.template topRightCorner<3, 1>()));
  }
  /// The identity transform (R = I, p = 0).
  static SE3 Identity() { return SE3(); }

  /// The rotation R = ^A R_B.
  const Matrix3<S>& rotation() const { return R_; }
  /// Writable rotation R = ^A R_B (the caller keeps it orthonormal).
  Matrix3<S>& rotation() { return R_; }
  /// The translation p = ^A o_B: the origin of B in A-coordinates.
  const Vector3<S>& translation() const { return p_; }
  /// Writable translation p = ^A o_B.
  Vector3<S>& translation() { return p_; }
  /// The 4×4 homogeneous matrix [R, p; 0, 1].
  Matrix4<S> matrix() const {
    Matrix4<S> H = Matrix4<S>::Identity();
    H.template topLeftCorner<3, 3>() = R_;
    H.template topRightCorner<3, 1>() = p_;
    return H;
  }

  /// ^A H_B * ^B H_C = ^A H_C.
  SE3 operator*(const SE3& o) const {
    using namespace detail;
    SE3 r;
    for (int c = 0; c < 3; ++c) store3(r.R_.data() + 3 * c, mul3(R_, load3(o.R_.data() + 3 * c)));
    store3(r.p_.data(), mul3(R_, load3(o.p_.data())) + load3(p_.data()));
    return r;
  }
  /// ^B H_A = (Rᵀ, −Rᵀ p).
  SE3 inverse() const {
    const Matrix3<S> Rt = R_.transpose();
    return SE3(Rt, Vector3<S>(-(Rt * p_)));
  }
  /// ^A H_B⁻¹ * ^A H_C = ^B H_C without forming the inverse.
  SE3 inverse_times(const SE3& o) const {
    using namespace detail;
    SE3 r;
    for (int c = 0; c < 3; ++c)
      store3(r.R_.data() + 3 * c, mul3_transpose(R_, load3(o.R_.data() + 3 * c)));
    store3(r.p_.data(), mul3_transpose(R_, load3(o.p_.data()) - load3(p_.data())));
    return r;
  }

  /// A point of frame B in frame A: R x + p.
  template <class Derived>
  Vector3<S> act_point(const Eigen::MatrixBase<Derived>& x) const {
    return R_ * x + p_;
  }
  /// A point of frame A in frame B: Rᵀ (x − p).
  template <class Derived>
  Vector3<S> act_inverse_point(const Eigen::MatrixBase<Derived>& x) const {
    return R_.transpose() * (x - p_);
  }

  /// ^A v = ^A X_B ^B v.
  LIEDYN_ALWAYS_INLINE Motion<S> act(const Motion<S>& v) const {
    Vector6<S> r;
    motion_act(v.vector().data(), r.data());
    return Motion<S>(r);
  }
  /// ^B v = ^B X_A ^A v.
  LIEDYN_ALWAYS_INLINE Motion<S> act_inverse(const Motion<S>& v) const {
    Vector6<S> r;
    motion_act_inverse(v.vector().data(), r.data());
    return Motion<S>(r);
  }
  /// _A f = _A X^B _B f.
  LIEDYN_ALWAYS_INLINE Force<S> act(const Force<S>& f) const {
    Vector6<S> r;
    force_act(f.vector().data(), r.data());
    return Force<S>(r);
  }
  /// _B f = _B X^A _A f.
  LIEDYN_ALWAYS_INLINE Force<S> act_inverse(const Force<S>& f) const {
    Vector6<S> r;
    force_act_inverse(f.vector().data(), r.data());
    return Force<S>(r);
  }

  // The same actions written into `out` (which may alias the argument), and one added to it, for
  // a kernel that keeps the result in its Data: no temporary to copy out of
  // (arithmetic/registers.hpp says why that matters).

  /// out = ^A X_B v.
  LIEDYN_ALWAYS_INLINE void act(const Motion<S>& v, Motion<S>& out) const {
    motion_act(v.vector().data(), out.vector().data());
  }
  /// out = ^B X_A v.
  LIEDYN_ALWAYS_INLINE void act_inverse(const Motion<S>& v, Motion<S>& out) const {
    motion_act_inverse(v.vector().data(), out.vector().data());
  }
  /// out = _A X^B f.
  LIEDYN_ALWAYS_INLINE void act(const Force<S>& f, Force<S>& out) const {
    force_act(f.vector().data(), out.vector().data());
  }
  /// out = _B X^A f.
  LIEDYN_ALWAYS_INLINE void act_inverse(const Force<S>& f, Force<S>& out) const {
    force_act_inverse(f.vector().data(), out.vector().data());
  }
  /// out += _A X^B f (out may not alias f).
  LIEDYN_ALWAYS_INLINE void add_act(const Force<S>& f, Force<S>& out) const {
    using namespace detail;
    S* o = out.vector().data();
    const Vec3<S> fl = mul3(R_, load3(f.vector().data()));
    store3(o + 3, load3(o + 3) + force_act_angular(f.vector().data(), fl));
    store3(o, load3(o) + fl);
  }

  // The column-wise forms below work in registers (arithmetic/registers.hpp says why), one
  // column at a time, so `out` may alias `in`.

  /// Column-wise velocity transform of a 6×k block of motions: out = ^A X_B in. `out` may
  /// alias `in`.
  template <class DIn, class DOut>
  void act_motions(const Eigen::MatrixBase<DIn>& in, const Eigen::MatrixBase<DOut>& out_) const {
    using namespace detail;
    auto& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
    const Vec3<S> p = load3(p_, 0);
    for (Eigen::Index k = 0; k < in.cols(); ++k) {
      const Vec3<S> w = mul3(R_, load3(in.col(k), 3));
      const Vec3<S> l = mul3(R_, load3(in.col(k), 0)) + cross3(p, w);
      store3(out.col(k), 0, l);
      store3(out.col(k), 3, w);
    }
  }
  /// out = ^B X_A in, column-wise; `out` may alias `in`.
  template <class DIn, class DOut>
  void act_inverse_motions(const Eigen::MatrixBase<DIn>& in,
                           const Eigen::MatrixBase<DOut>& out_) const {
    using namespace detail;
    auto& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
    const Vec3<S> p = load3(p_, 0);
    for (Eigen::Index k = 0; k < in.cols(); ++k) {
      const Vec3<S> a = load3(in.col(k), 3);
      const Vec3<S> l = mul3_transpose(R_, load3(in.col(k), 0) - cross3(p, a));
      store3(out.col(k), 0, l);
      store3(out.col(k), 3, mul3_transpose(R_, a));
    }
  }
  /// out = _A X^B in, column-wise; `out` may alias `in`.
  template <class DIn, class DOut>
  void act_forces(const Eigen::MatrixBase<DIn>& in, const Eigen::MatrixBase<DOut>& out_) const {
    using namespace detail;
    auto& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
    const Vec3<S> p = load3(p_, 0);
    for (Eigen::Index k = 0; k < in.cols(); ++k) {
      const Vec3<S> f = mul3(R_, load3(in.col(k), 0));
      const Vec3<S> n = mul3(R_, load3(in.col(k), 3)) + cross3(p, f);
      store3(out.col(k), 0, f);
      store3(out.col(k), 3, n);
    }
  }
  /// out = _B X^A in, column-wise; `out` may alias `in`.
  template <class DIn, class DOut>
  void act_inverse_forces(const Eigen::MatrixBase<DIn>& in,
                          const Eigen::MatrixBase<DOut>& out_) const {
    using namespace detail;
    auto& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
    const Vec3<S> p = load3(p_, 0);
    for (Eigen::Index k = 0; k < in.cols(); ++k) {
      const Vec3<S> f = load3(in.col(k), 0);
      const Vec3<S> n = mul3_transpose(R_, load3(in.col(k), 3) - cross3(p, f));
      store3(out.col(k), 0, mul3_transpose(R_, f));
      store3(out.col(k), 3, n);
    }
  }

  /// ^A X_B = [R, p^ R; 0, R] (the adjoint matrix Ad_H).
  Matrix6<S> velocity_transform() const {
    Matrix6<S> X;
    X << R_, hat(p_) * R_, Matrix3<S>::Zero(), R_;
    return X;
  }
  /// _A X^B = [R, 0; p^ R, R] = (^B X_A)ᵀ.
  Matrix6<S> wrench_transform() const {
    Matrix6<S> X;
    X << R_, Matrix3<S>::Zero(), hat(p_) * R_, R_;
    return X;
  }

  /// exp(ξ^) with ξ = [ρ; φ]: R = exp(φ^), p = Jl(φ) ρ.
  template <class Derived>
  static SE3 exp(const Eigen::MatrixBase<Derived>& xi) {
    const Vector3<S> rho = xi.template head<3>();
    const Vector3<S> phi = xi.template tail<3>();
    const detail::SO3Coefficients<S> k(phi.squaredNorm());
    const Matrix3<S> W = hat(phi), W2 = W * W;
    const Matrix3<S> R = Matrix3<S>::Identity() + k.A * W + k.B * W2;
    const Matrix3<S> V = Matrix3<S>::Identity() + k.B * W + k.C * W2;
    return SE3(R, Vector3<S>(V * rho));
  }
  /// The ξ = [ρ; φ] with exp(ξ^) = H and |φ| ≤ π.
  Vector6<S> log() const {
    const Vector3<S> phi = SO3<S>(R_).log();
    Vector6<S> xi;
    xi << SO3<S>::left_jacobian_inverse(phi) * p_, phi;
    return xi;
  }

  /// Right Jacobian: exp(ξ + δ) ≈ exp(ξ) exp(Jr(ξ) δ).
  template <class Derived>
  static Matrix6<S> right_jacobian(const Eigen::MatrixBase<Derived>& xi) {
    return left_jacobian(Vector6<S>(-xi));
  }
  /// Left Jacobian: exp(ξ + δ) ≈ exp(Jl(ξ) δ) exp(ξ).
  template <class Derived>
  static Matrix6<S> left_jacobian(const Eigen::MatrixBase<Derived>& xi) {
    const Vector3<S> rho = xi.template head<3>();
    const Vector3<S> phi = xi.template tail<3>();
    const Matrix3<S> J = SO3<S>::left_jacobian(phi);
    Matrix6<S> out;
    out << J, detail::se3_q_block(rho, phi), Matrix3<S>::Zero(), J;
    return out;
  }
  /// Inverse of the right Jacobian: Jr⁻¹(ξ) = Jl⁻¹(−ξ).
  template <class Derived>
  static Matrix6<S> right_jacobian_inverse(const Eigen::MatrixBase<Derived>& xi) {
    return left_jacobian_inverse(Vector6<S>(-xi));
  }
  /// Inverse of the left Jacobian, ξ = [ρ; φ]: [Jl⁻¹(φ), −Jl⁻¹(φ) Q(ρ, φ) Jl⁻¹(φ); 0, Jl⁻¹(φ)].
  template <class Derived>
  static Matrix6<S> left_jacobian_inverse(const Eigen::MatrixBase<Derived>& xi) {
    const Vector3<S> rho = xi.template head<3>();
    const Vector3<S> phi = xi.template tail<3>();
    const Matrix3<S> Ji = SO3<S>::left_jacobian_inverse(phi);
    Matrix6<S> out;
    out << Ji, -(Ji * detail::se3_q_block(rho, phi) * Ji), Matrix3<S>::Zero(), Ji;
    return out;
  }

  /// The same transform in scalar type T.
  template <class T>
  SE3<T> cast() const {
    return SE3<T>(R_.template cast<T>(), p_.template cast<T>());
  }
  /// R: Eigen's relative test; p: ‖p − p_o‖ ≤ prec (1 + ‖p‖).
  bool isApprox(const SE3& o, const S& prec = Eigen::NumTraits<S>::dummy_precision()) const {
    return R_.isApprox(o.R_, prec) && (p_ - o.p_).norm() <= prec * (S(1) + p_.norm());
  }

 private:
  // The four actions on coordinates (6 in, 6 out, linear first), written in registers
  // (arithmetic/registers.hpp). `out` may alias `x`: every coordinate is read before the first
  // store. Featherstone's RBDA §2.8 with X = (R, p): ^A X_B v = (R v_l + p × R v_a, R v_a).
  LIEDYN_ALWAYS_INLINE void motion_act(const S* x, S* out) const {
    using namespace detail;
    const Vec3<S> w = mul3(R_, load3(x + 3));
    const Vec3<S> l = mul3(R_, load3(x)) + cross3(load3(p_.data()), w);
    store3(out, l);
    store3(out + 3, w);
  }
  LIEDYN_ALWAYS_INLINE void motion_act_inverse(const S* x, S* out) const {
    using namespace detail;
    const Vec3<S> w = load3(x + 3);
    const Vec3<S> l = mul3_transpose(R_, load3(x) - cross3(load3(p_.data()), w));
    store3(out, l);
    store3(out + 3, mul3_transpose(R_, w));
  }
  /// The angular part of _A X^B f, given its linear part fl = R f_l.
  LIEDYN_ALWAYS_INLINE detail::Vec3<S> force_act_angular(const S* x,
                                                         const detail::Vec3<S>& fl) const {
    using namespace detail;
    return mul3(R_, load3(x + 3)) + cross3(load3(p_.data()), fl);
  }
  LIEDYN_ALWAYS_INLINE void force_act(const S* x, S* out) const {
    using namespace detail;
    const Vec3<S> fl = mul3(R_, load3(x));
    const Vec3<S> n = force_act_angular(x, fl);
    store3(out, fl);
    store3(out + 3, n);
  }
  LIEDYN_ALWAYS_INLINE void force_act_inverse(const S* x, S* out) const {
    using namespace detail;
    const Vec3<S> fl = load3(x);
    const Vec3<S> n = mul3_transpose(R_, load3(x + 3) - cross3(load3(p_.data()), fl));
    store3(out, mul3_transpose(R_, fl));
    store3(out + 3, n);
  }
  Matrix3<S> R_;
  Vector3<S> p_;
};

/// ad_ξ = ξ×, the 6×6 adjoint of the Lie algebra (linear first).
template <class Derived>
Matrix6<typename Derived::Scalar> ad(const Eigen::MatrixBase<Derived>& xi) {
  return Motion<typename Derived::Scalar>(xi).cross_matrix();
}

}  // namespace liedyn
