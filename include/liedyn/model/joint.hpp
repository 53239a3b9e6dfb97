// liedyn — model: joints as Lie groups.
//
// Joint i connects parent body λ(i) to body i: with the constant placement ^{λ(i)}H_{λ(i)|i} of
// the joint frame in the parent frame, the child pose is ^{λ(i)}H_i(q_i) = ^{λ(i)}H_{λ(i)|i}
// X_J(q_i), where q_i (nq coordinates) lives on the joint's configuration group and its velocity
// (nv coordinates, nv ≤ 6) acts through the motion subspace Γ (6 × nv, child frame; linear first,
// docs/conventions.md §2). Each type owns its group in its own file under joints/:
//   revolute, prismatic, helical   R, Γ = [0; e], [e; 0], [p e; e]      joints/screw.hpp
//   spherical                      SO(3), quaternion, Γ = [0; 1₃]       joints/spherical.hpp
//   free                           SE(3), position + quaternion, 1₆     joints/free.hpp
//   planar                         SE(2) in the joint frame's xy-plane   joints/planar.hpp
//   universal                      R², Γ(q) = [0, 0; R2ᵀa1, a2]         joints/universal.hpp
// Joint dispatches to them: one switch per operation, here and nowhere else. The 1-DoF screws'
// fast cases (axes along ±e_k, the kernels' hot path) are Joint's own members below; the types
// whose Γ is a selection of unit vectors state which (subspace_rows), and the products with Γ
// read coefficients for them.
#pragma once

#include <limits>
#include <random>
#include <string>

#include "liedyn/arithmetic/sincos.hpp"
#include "liedyn/model/joints/free.hpp"
#include "liedyn/model/joints/planar.hpp"
#include "liedyn/model/joints/screw.hpp"
#include "liedyn/model/joints/spherical.hpp"
#include "liedyn/model/joints/universal.hpp"
#include "liedyn/spatial.hpp"

namespace liedyn {

/// The kind of joint: the 1-DoF screws with unit axis e and pitch p (revolute Γ = [0; e],
/// prismatic Γ = [e; 0], helical Γ = [p e; e]), spherical (SO(3)), free (SE(3)), planar (SE(2)
/// in the joint frame's xy-plane) and universal (two revolute axes a1, a2).
enum class JointType { Revolute, Prismatic, Helical, Spherical, Free, Planar, Universal };

/// "revolute", "prismatic", "helical", "spherical", "free", "planar" or "universal" ("unknown"
/// for an out-of-range value).
inline const char* to_string(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Helical: return "helical";
    case JointType::Spherical: return "spherical";
    case JointType::Free: return "free";
    case JointType::Planar: return "planar";
    case JointType::Universal: return "universal";
  }
  return "unknown";
}

/// A joint's tangent vector (velocity, deviation): at most 6 entries, on the stack.
template <class S>
using JointTangent = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 6, 1>;
/// A joint's nv × nv map (Jacobians of its group operations, ad): at most 6 × 6, on the stack.
template <class S>
using JointTangentMap = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

/// How a joint's columns act (docs/design/joint-types.md §2). Simultaneous: every column hangs
/// from the parent and Γ is constant in the child frame (all joints but the universal).
/// Successive: column d hangs from column d − 1 like a chain of revolutes (the universal joint,
/// whose Γ depends on q).
enum class ColumnRule { simultaneous, successive };

/// Which coordinate axis (±e_X, ±e_Y, ±e_Z) a joint's unit axis is, if any; the sign is the
/// axis's own. Joint::transform takes a cheaper path for these (most real robots have only them).
enum class AxisAlignment { X = 0, Y = 1, Z = 2, General = 3 };

/// Joint i of a model, placed at ^{λ(i)}H_{λ(i)|i} in the parent frame:
/// ^{λ(i)}H_i(q_i) = placement · X_J(q_i), its velocity acting through Γ (child frame).
template <class S>
struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  /// The unit axis e of a screw joint, a1 of a universal joint (joint frame); unused otherwise.
  Vector3<S> axis = Vector3<S>::UnitZ();
  /// The universal joint's second unit axis a2 (the frame after the first rotation).
  Vector3<S> axis2 = Vector3<S>::UnitY();
  S pitch = S(0);    ///< helical pitch (m/rad); 0 for other types
  Motion<S> screw;   ///< Γ of a 1-DoF screw joint, linear first
  SE3<S> placement;  ///< ^{λ(i)}H_{λ(i)|i}
  AxisAlignment alignment = AxisAlignment::General;
  /// The placement's rotation is exactly the identity (nearly every joint of real robots), so a
  /// revolute joint about ±e_k turns its child about the parent's own e_k: kernels move vectors
  /// across it with 4 multiplications per 3-vector instead of 9.
  bool placement_unrotated = false;
  S armature = S(0);  ///< rotor inertia reflected to the joint (added to M_ii)
  S lower = -std::numeric_limits<S>::infinity();  ///< position limits (±inf when unknown)
  S upper = std::numeric_limits<S>::infinity();
  S velocity_limit = std::numeric_limits<S>::infinity();
  S effort_limit = std::numeric_limits<S>::infinity();

  /// Number of configuration coordinates (entries of s).
  int nq() const {
    switch (type) {
      case JointType::Spherical: return SphericalJoint<S>::nq;
      case JointType::Free: return FreeJoint<S>::nq;
      case JointType::Planar: return PlanarJoint<S>::nq;
      case JointType::Universal: return UniversalJoint<S>::nq;
      default: return ScrewJoint<S>::nq;
    }
  }
  /// Number of velocity coordinates (entries of r and δs; columns of Γ).
  int nv() const {
    switch (type) {
      case JointType::Spherical: return SphericalJoint<S>::nv;
      case JointType::Free: return FreeJoint<S>::nv;
      case JointType::Planar: return PlanarJoint<S>::nv;
      case JointType::Universal: return UniversalJoint<S>::nv;
      default: return ScrewJoint<S>::nv;
    }
  }
  /// Where the joint's unit quaternion (x, y, z, w) starts among its coordinates: 0 for a
  /// spherical joint, 3 for a free joint (after the position); −1 for a joint without one.
  /// Converters to libraries that write w first (MuJoCo, Drake) reorder it there.
  int quaternion_index() const {
    switch (type) {
      case JointType::Spherical: return SphericalJoint<S>::quaternion_index;
      case JointType::Free: return FreeJoint<S>::quaternion_index;
      default: return -1;
    }
  }
  /// True for the 1-DoF screws (revolute, prismatic, helical): one coordinate, Γ = screw.
  bool one_dof() const {
    return type == JointType::Revolute || type == JointType::Prismatic ||
           type == JointType::Helical;
  }
  /// How the joint's columns act: successive for the universal joint, simultaneous otherwise.
  ColumnRule column_rule() const {
    return type == JointType::Universal ? ColumnRule::successive : ColumnRule::simultaneous;
  }

  // The joint's group, for q a segment of nq() coordinates and velocities or tangents of nv().

  /// X_J(q) = ^{λ(i)|i}H_i: the child frame in the joint frame.
  template <class Q>
  SE3<S> motion_transform(const Eigen::MatrixBase<Q>& q) const {
    switch (type) {
      case JointType::Spherical: return SphericalJoint<S>::motion(q);
      case JointType::Free: return FreeJoint<S>::motion(q);
      case JointType::Planar: return PlanarJoint<S>::motion(q);
      case JointType::Universal: return UniversalJoint<S>::motion(axis, axis2, q);
      default: return ScrewJoint<S>::motion(screw, q);
    }
  }
  /// ^{λ(i)}H_i(q) = placement · X_J(q).
  template <class Q>
  SE3<S> transform(const Eigen::MatrixBase<Q>& q) const {
    return placement * motion_transform(q);
  }
  /// ^{λ(i)}H_i(q) written into H, for the joint's coordinates q (nq of them) and the sine and
  /// cosine of the first (the kernels compute them for the whole configuration at once; the
  /// screws' fast cases read them, the other types ignore them).
  template <class Q>
  LIEDYN_ALWAYS_INLINE void transform(const Eigen::MatrixBase<Q>& q, const S& sin_q0,
                                      const S& cos_q0, SE3<S>& H) const {
    if (one_dof()) transform(S(q(0)), sin_q0, cos_q0, H);
    else H = transform(q);
  }
  /// Γ(q) v (child frame) for joint rates v (nv entries): the child's twist relative to the
  /// parent for velocities, the acceleration along the subspace for accelerations.
  // The 1-DoF forms below are inlined (the kernels' hot path); the multi-DoF ones are calls.
  template <class Q, class V>
  LIEDYN_ALWAYS_INLINE Motion<S> subspace_times(const Eigen::MatrixBase<Q>& q,
                                                const Eigen::MatrixBase<V>& v) const {
    if (one_dof()) return screw * S(v(0));
    return subspace_times_general(q, v);
  }
  /// out = Γ(q)ᵀ f (nv entries): the generalized forces on the joint of a wrench f on its child
  /// body, both in the child frame.
  template <class Q, class Out>
  LIEDYN_ALWAYS_INLINE void project(const Force<S>& f, const Eigen::MatrixBase<Q>& q,
                                    const Eigen::MatrixBase<Out>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_);
    if (one_dof()) out.coeffRef(0) = project(f);
    else project_general(f, q, out);
  }
  /// ^AX_i Γ(q) (6 × nv) written into `out`, given H = ^AH_i (i the child frame): the joint's
  /// columns in frame A.
  template <class Q, class Out>
  void subspace_in(const SE3<S>& H, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<Out>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_);
    if (one_dof()) {
      out.col(0) = subspace_in(H).vector();
      return;
    }
    // Unit columns: ^AX_i (e_k; 0) = (R e_k; 0) and ^AX_i (0; e_k) = (p × R e_k; R e_k).
    if (subspace_row(0) >= 0) {
      const Vector3<S>& p = H.translation();
      for (int a = 0; a < nv(); ++a) {
        const int row = subspace_row(a);
        const Vector3<S> axis_in_A = H.rotation().col(row % 3);
        if (row < 3) out.col(a) << axis_in_A, Vector3<S>::Zero();
        else out.col(a) << p.cross(axis_in_A), axis_in_A;
      }
      return;
    }
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> gamma(6, nv());
    subspace(q, gamma);
    H.act_motions(gamma, out);
  }
  /// The row of the unit vector that is Γ's column a, for the joints whose Γ is a selection of
  /// unit vectors (spherical, free, planar): products with Γ then read coefficients. −1 for the
  /// others.
  int subspace_row(int a) const {
    switch (type) {
      case JointType::Spherical: return SphericalJoint<S>::subspace_rows[a];
      case JointType::Free: return FreeJoint<S>::subspace_rows[a];
      case JointType::Planar: return PlanarJoint<S>::subspace_rows[a];
      default: return -1;
    }
  }
  /// Γ(q) (6 × nv, child frame) written into `gamma`; constant for all types but the universal.
  template <class Q, class G>
  void subspace(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<G>& gamma) const {
    if (subspace_row(0) >= 0) {  // spherical, free, planar: unit columns
      auto& g = const_cast<Eigen::MatrixBase<G>&>(gamma);
      g.setZero();
      for (int a = 0; a < nv(); ++a) g(subspace_row(a), a) = S(1);
      return;
    }
    if (type == JointType::Universal) UniversalJoint<S>::subspace(axis, axis2, q, gamma);
    else ScrewJoint<S>::subspace(screw, gamma);
  }
  /// c_J = Γ̇(q) q̇: the child's acceleration relative to the joint frame at q̈ = 0, child frame
  /// (zero for every joint whose Γ is constant).
  template <class Q, class V>
  Motion<S> bias(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v) const {
    if (type == JointType::Universal) return UniversalJoint<S>::bias(axis, axis2, q, v);
    return Motion<S>::Zero();
  }
  /// a += c_J (the kernels' form: nothing to add for a joint whose Γ is constant).
  template <class Q, class V>
  LIEDYN_ALWAYS_INLINE void add_bias(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v,
                                     Motion<S>& a) const {
    if (type == JointType::Universal) a += UniversalJoint<S>::bias(axis, axis2, q, v);
  }
  /// out = q ⊕ δ (right perturbation on the joint's group); `out` may be q.
  template <class Q, class D, class O>
  void integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<D>& delta,
                 const Eigen::MatrixBase<O>& out) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::integrate(q, delta, out); break;
      case JointType::Free: FreeJoint<S>::integrate(q, delta, out); break;
      case JointType::Planar: PlanarJoint<S>::integrate(q, delta, out); break;
      case JointType::Universal: UniversalJoint<S>::integrate(q, delta, out); break;
      default: ScrewJoint<S>::integrate(q, delta, out); break;
    }
  }
  /// out = q1 ⊖ q0, the δ with q0 ⊕ δ = q1 (nv entries).
  template <class Q0, class Q1, class O>
  void difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                  const Eigen::MatrixBase<O>& out) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::difference(q0, q1, out); break;
      case JointType::Free: FreeJoint<S>::difference(q0, q1, out); break;
      case JointType::Planar: PlanarJoint<S>::difference(q0, q1, out); break;
      case JointType::Universal: UniversalJoint<S>::difference(q0, q1, out); break;
      default: ScrewJoint<S>::difference(q0, q1, out); break;
    }
  }
  /// out = the group's identity (X_J = identity).
  template <class O>
  void neutral(const Eigen::MatrixBase<O>& out) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::neutral(out); break;
      case JointType::Free: FreeJoint<S>::neutral(out); break;
      case JointType::Planar: PlanarJoint<S>::neutral(out); break;
      case JointType::Universal: UniversalJoint<S>::neutral(out); break;
      default: ScrewJoint<S>::neutral(out); break;
    }
  }
  /// Projects q back onto the group: unit quaternions (spherical, free), a unit (cos θ, sin θ)
  /// (planar); nothing for the vector-space joints.
  template <class Q>
  void normalize(const Eigen::MatrixBase<Q>& q_) const {
    auto& q = const_cast<Eigen::MatrixBase<Q>&>(q_);
    switch (type) {
      case JointType::Spherical: q.template head<4>().normalize(); break;
      case JointType::Free: q.template tail<4>().normalize(); break;
      case JointType::Planar: q.template tail<2>().normalize(); break;
      default: break;
    }
  }
  /// ad(v) (nv × nv): the deviation η of q = q̄ ⊕ η, with q̄ moving at v̄ and q at v̄ + δv,
  /// obeys η̇ = −ad(v̄) η + δv (zero for the vector-space joints).
  template <class V, class A>
  void ad(const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& out) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::ad(v, out); break;
      case JointType::Free: FreeJoint<S>::ad(v, out); break;
      case JointType::Planar: PlanarJoint<S>::ad(v, out); break;
      case JointType::Universal: UniversalJoint<S>::ad(v, out); break;
      default: ScrewJoint<S>::ad(v, out); break;
    }
  }
  /// The Jacobians of y = q ⊕ δ, left-trivialized (nv × nv each): J_q = ∂y/∂q = Ad(exp δ)⁻¹,
  /// J_delta = ∂y/∂δ = Jr(δ).
  template <class D, class Jq, class Jd>
  void integrate_jacobians(const Eigen::MatrixBase<D>& delta, const Eigen::MatrixBase<Jq>& J_q,
                           const Eigen::MatrixBase<Jd>& J_delta) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::integrate_jacobians(delta, J_q, J_delta); break;
      case JointType::Free: FreeJoint<S>::integrate_jacobians(delta, J_q, J_delta); break;
      case JointType::Planar: PlanarJoint<S>::integrate_jacobians(delta, J_q, J_delta); break;
      case JointType::Universal: UniversalJoint<S>::integrate_jacobians(delta, J_q, J_delta); break;
      default: ScrewJoint<S>::integrate_jacobians(delta, J_q, J_delta); break;
    }
  }
  /// The Jacobians of η = q1 ⊖ q0, left-trivialized (nv × nv each): J_q0 = −Jl⁻¹(η),
  /// J_q1 = Jr⁻¹(η).
  template <class Q0, class Q1, class J0, class J1>
  void difference_jacobians(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                            const Eigen::MatrixBase<J0>& J_q0,
                            const Eigen::MatrixBase<J1>& J_q1) const {
    switch (type) {
      case JointType::Spherical: SphericalJoint<S>::difference_jacobians(q0, q1, J_q0, J_q1); break;
      case JointType::Free: FreeJoint<S>::difference_jacobians(q0, q1, J_q0, J_q1); break;
      case JointType::Planar: PlanarJoint<S>::difference_jacobians(q0, q1, J_q0, J_q1); break;
      case JointType::Universal: UniversalJoint<S>::difference_jacobians(q0, q1, J_q0, J_q1); break;
      default: ScrewJoint<S>::difference_jacobians(q0, q1, J_q0, J_q1); break;
    }
  }
  /// A random configuration written into `out`: a screw's or universal joint's coordinates
  /// uniform within [lower, upper] where both are finite (else in [−π, π]); a rotation uniform
  /// on SO(3) (spherical, free) or in (−π, π] (planar); a free joint's position and a planar
  /// joint's (x, y) uniform within [lower, upper] per coordinate where finite (else [−1, 1]).
  template <class Rng, class O>
  void random(Rng& rng, const Eigen::MatrixBase<O>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    switch (type) {
      case JointType::Spherical: out.template head<4>() = random_unit_quaternion(rng); break;
      case JointType::Free:
        for (int k = 0; k < 3; ++k) out(k) = length_in_limits(0.5 * (u(rng) + 1.0));
        out.template tail<4>() = random_unit_quaternion(rng);
        break;
      case JointType::Planar: {
        out(0) = length_in_limits(0.5 * (u(rng) + 1.0));
        out(1) = length_in_limits(0.5 * (u(rng) + 1.0));
        S sin_t, cos_t;
        sin_cos(S(M_PI * u(rng)), sin_t, cos_t);
        out(2) = cos_t;
        out(3) = sin_t;
        break;
      }
      default:
        for (int k = 0; k < nq(); ++k) out(k) = position_in_limits(0.5 * (u(rng) + 1.0));
        break;
    }
  }
  /// The coordinate at fraction t ∈ [0, 1] of the joint's range: lower + t (upper − lower) when
  /// both limits are finite, else −π + 2π t (an angle's full turn).
  S position_in_limits(double t) const { return in_limits(t, M_PI); }

  /// exp((Γ q)^): the motion of the joint frame, ^{λ(i)|i}H_i(q).
  SE3<S> motion_transform(const S& q) const {
    S s, c;
    sin_cos(q, s, c);
    return motion_transform(q, s, c);
  }
  /// motion_transform(q) given sin q and cos q (the kernels compute them for all joints at once).
  SE3<S> motion_transform(const S& q, const S& s, const S& c) const {
    if (type == JointType::Prismatic) return SE3<S>(Matrix3<S>::Identity(), Vector3<S>(axis * q));
    // Rotation about a unit axis through the origin; a helical joint also slides along it
    // (the axis is an eigenvector of the exp's V matrix, so the translation is p e q).
    const Matrix3<S> E = hat(axis);
    Matrix3<S> R = Matrix3<S>::Identity() + s * E + (S(1) - c) * (E * E);
    Vector3<S> p =
        (type == JointType::Helical) ? Vector3<S>(axis * (pitch * q)) : Vector3<S>::Zero();
    return SE3<S>(R, p);
  }
  /// ^{λ(i)}H_i(q) = placement · exp((Γ q)^).
  SE3<S> transform(const S& q) const {
    S s, c;
    sin_cos(q, s, c);
    return transform(q, s, c);
  }
  /// transform(q) given sin q and cos q (unused by a prismatic joint).
  SE3<S> transform(const S& q, const S& sin_q, const S& cos_q) const {
    SE3<S> H;
    transform(q, sin_q, cos_q, H);
    return H;
  }
  /// transform(q, sin q, cos q) written into H: the kernels' form, with no temporary to copy.
  void transform(const S& q, const S& sin_q, const S& cos_q, SE3<S>& H) const {
    if (alignment == AxisAlignment::General) {
      H = placement * motion_transform(q, sin_q, cos_q);
      return;
    }
    // Axis ±e_k (most real robots): turning about a coordinate axis changes two columns of the
    // placement's rotation, sliding moves its origin along column k — 12 multiplications instead
    // of a Rodrigues matrix and a 3×3 product. About −e_k by q is about e_k by −q.
    // Coefficient by coefficient, straight into H: the Eigen form copies the placement, assigns
    // columns at a run-time index and returns an SE3 the caller copies.
    const int k = static_cast<int>(alignment), a = k == 2 ? 0 : k + 1, b = a == 2 ? 0 : a + 1;
    const S sign = axis(k);
    const S* Rp = placement.rotation().data();
    const S* pp = placement.translation().data();
    S* R = H.rotation().data();
    S* p = H.translation().data();
    S slide = S(0);
    if (type == JointType::Prismatic) {
      slide = sign * q;
      for (int r = 0; r < 3; ++r) {
        R[3 * a + r] = Rp[3 * a + r];
        R[3 * b + r] = Rp[3 * b + r];
      }
    } else {
      const S c = cos_q, s = sign * sin_q;
      for (int r = 0; r < 3; ++r) {
        const S A = Rp[3 * a + r], B = Rp[3 * b + r];
        R[3 * a + r] = c * A + s * B;
        R[3 * b + r] = c * B - s * A;
      }
      if (type == JointType::Helical) slide = sign * pitch * q;
    }
    for (int r = 0; r < 3; ++r) {
      R[3 * k + r] = Rp[3 * k + r];
      p[r] = pp[r] + Rp[3 * k + r] * slide;
    }
  }

  // The motion subspace Γ in the kernels' operations. Each has a fast case for a revolute joint
  // about ±e_k, Γ = ±(0; e_k) (nearly every joint of real robots): a product with Γ reads one
  // column or one coefficient instead of summing six terms.

  /// k when the joint is revolute about ±e_k, −1 otherwise (the fast cases' test).
  int revolute_coordinate_axis() const {
    return type == JointType::Revolute && alignment != AxisAlignment::General
               ? static_cast<int>(alignment)
               : -1;
  }

  /// Γᵀ f: the generalized force on this joint of a wrench f = (force; moment) on its child body,
  /// both in the child frame.
  template <class Derived>
  S project(const Eigen::MatrixBase<Derived>& f) const {
    const int k = revolute_coordinate_axis();
    return k >= 0 ? S(axis(k) * f(3 + k)) : S(screw.vector().dot(f));
  }
  /// Γᵀ f for a Force in the child frame.
  S project(const Force<S>& f) const { return project(f.vector()); }
  /// sink(c, Γᵀ forces.col(c)) for every column c of a 6 × m block of wrenches (child frame).
  /// The fast case is chosen once for the whole block, so that the loop over columns streams, and
  /// `sink` writes each result where it belongs (no vector copied into M's row in a second pass).
  template <class Forces, class Sink>
  LIEDYN_ALWAYS_INLINE void project_each(const Eigen::MatrixBase<Forces>& forces,
                                         Sink&& sink) const {
    const int k = revolute_coordinate_axis();
    if (k >= 0) {
      const S sign = axis(k);
      for (Eigen::Index c = 0; c < forces.cols(); ++c) sink(c, S(sign * forces(3 + k, c)));
    } else {
      for (Eigen::Index c = 0; c < forces.cols(); ++c)
        sink(c, S(screw.vector().dot(forces.col(c))));
    }
  }
  /// sink(a, c, Γ(q)_aᵀ forces.col(c)) for every column a of Γ(q) and every column c of a 6 × m
  /// block of wrenches (child frame): the joint's rows of Γᵀ F. A 1-DoF joint streams through its
  /// fast case above (a = 0).
  template <class Q, class Forces, class Sink>
  LIEDYN_ALWAYS_INLINE void project_each(const Eigen::MatrixBase<Q>& q,
                                         const Eigen::MatrixBase<Forces>& forces,
                                         Sink&& sink) const {
    if (one_dof()) {
      project_each(forces, [&](Eigen::Index c, const S& value) { sink(0, c, value); });
      return;
    }
    if (subspace_row(0) >= 0) {  // Γ's columns are unit vectors: Γᵀ f reads rows of f
      for (int a = 0; a < nv(); ++a) {
        const int row = subspace_row(a);
        for (Eigen::Index c = 0; c < forces.cols(); ++c) sink(a, c, S(forces(row, c)));
      }
      return;
    }
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> gamma(6, nv());
    subspace(q, gamma);
    for (int a = 0; a < nv(); ++a)
      for (Eigen::Index c = 0; c < forces.cols(); ++c)
        sink(a, c, S(gamma.col(a).dot(forces.col(c))));
  }
  /// out = I Γ(q) (6 × nv, child frame): the wrenches that a body (or composite) of inertia I
  /// needs to accelerate along each of the joint's columns at unit rate.
  template <class Q, class Out>
  LIEDYN_ALWAYS_INLINE void inertia_times_subspace(const SpatialInertia<S>& I,
                                                   const Eigen::MatrixBase<Q>& q,
                                                   const Eigen::MatrixBase<Out>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<Out>&>(out_);
    if (one_dof()) {
      inertia_times_subspace(I, out.col(0));
      return;
    }
    if (subspace_row(0) >= 0) {  // Γ's columns are unit vectors: I Γ reads columns of I
      for (int a = 0; a < nv(); ++a) {
        const int row = subspace_row(a);
        if (row < 3) I.linear_column_into(row, out.col(a));
        else I.angular_column_into(row - 3, out.col(a));
      }
      return;
    }
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> gamma(6, nv());
    subspace(q, gamma);
    for (int a = 0; a < nv(); ++a) out.col(a) = (I * Motion<S>(Vector6<S>(gamma.col(a)))).vector();
  }
  /// out = I Γ: the wrench, in the child frame, that a body (or composite) of inertia I (child
  /// frame) needs to accelerate along the joint at unit rate. `out` is a 6-vector (or a column):
  /// written in place: crba calls it once per joint and column block, and a returned Force is a
  /// copy.
  template <class Derived>
  void inertia_times_subspace(const SpatialInertia<S>& I,
                              const Eigen::MatrixBase<Derived>& out_) const {
    auto& out = const_cast<Eigen::MatrixBase<Derived>&>(out_);
    const int k = revolute_coordinate_axis();
    if (k < 0) {
      out = (I * screw).vector();
      return;
    }
    I.angular_column_into(k, out, axis(k));  // ±(−h × e_k; I_o e_k)
  }
  /// A Γ for a 6×6 matrix A mapping child-frame motions to wrenches (an articulated inertia).
  Vector6<S> matrix_times_subspace(const Matrix6<S>& A) const {
    const int k = revolute_coordinate_axis();
    return k >= 0 ? Vector6<S>(axis(k) * A.col(3 + k)) : Vector6<S>(A * screw.vector());
  }

  /// ^AX_i Γ: the motion subspace in frame A, given H = ^AH_i (i the child frame).
  Motion<S> subspace_in(const SE3<S>& H) const {
    const int k = revolute_coordinate_axis();
    if (k < 0) return H.act(screw);
    // ±(p × r_k; r_k), r_k column k of H's rotation: a column and a cross product.
    using namespace detail;
    const Vec3<S> r = load3(H.rotation().col(k), 0), p = load3(H.translation(), 0);
    const S sign = axis(k);
    const Vec3<S> v = cross3(p, r);
    return Motion<S>(Vector3<S>(sign * v.x, sign * v.y, sign * v.z),
                     Vector3<S>(sign * r.x, sign * r.y, sign * r.z));
  }

  /// R Γ: the motion subspace in axes rotated by R = ^AR_i, about the child frame's origin (the
  /// mixed frames of aza and aba). For a revolute joint about ±e_k, ±(0; column k of R).
  Motion<S> subspace_rotated(const Matrix3<S>& R) const {
    const int k = revolute_coordinate_axis();
    if (k < 0) return screw.rotated(R);
    const S sign = axis(k);
    Vector6<S> m;
    m << S(0), S(0), S(0), sign * R(0, k), sign * R(1, k), sign * R(2, k);
    return Motion<S>(m);
  }
  /// A (R Γ) for a 6 × 6 A and rotated_gamma = subspace_rotated(R), the joint's column in axes
  /// turned by R about the child's origin (aba's and aza's U = M^A S): a revolute joint's column
  /// has no linear part (its axis passes through the origin) and a prismatic joint's no angular
  /// part, so half of A's columns are read. The skipped products are exact zeros.
  template <class V>
  Vector6<S> times_rotated_subspace(const Matrix6<S>& A,
                                    const Eigen::MatrixBase<V>& rotated_gamma) const {
    switch (type) {
      case JointType::Revolute: return A.template rightCols<3>() * rotated_gamma.template tail<3>();
      case JointType::Prismatic: return A.template leftCols<3>() * rotated_gamma.template head<3>();
      default: return A * rotated_gamma;
    }
  }
  /// out = H_λ H_parent: the child's pose from the parent's pose H_λ (in any frame A, ^AH_λ) and
  /// H_parent = ^λH_i = transform(q) at the joint's current position. For an unrotated revolute
  /// about ±e_k two columns of H_λ's rotation turn into each other (12 multiplications instead
  /// of 27). `out` must not be `H_lambda`.
  LIEDYN_ALWAYS_INLINE void child_pose(const SE3<S>& H_lambda, const SE3<S>& H_parent,
                                       SE3<S>& out) const {
    const int k = revolute_coordinate_axis();
    if (k < 0 || !placement_unrotated) {
      out = H_lambda * H_parent;
      return;
    }
    switch (k) {
      case 0: child_pose_about_axis<0>(H_lambda, H_parent, out); break;
      case 1: child_pose_about_axis<1>(H_lambda, H_parent, out); break;
      default: child_pose_about_axis<2>(H_lambda, H_parent, out); break;
    }
  }
  /// out = ^iX_λ m: a motion in the parent frame seen in the child frame i, for H_parent =
  /// ^λH_i = transform(q) at the joint's current position; the fast case as in
  /// forces_to_parent. `out` may be `m`. Written into `out`, not returned: a result returned
  /// from the switch's arms goes through a stack temporary.
  LIEDYN_ALWAYS_INLINE void motion_to_child(const SE3<S>& H_parent, const Motion<S>& m,
                                            Motion<S>& out) const {
    const int k = revolute_coordinate_axis();
    if (k < 0 || !placement_unrotated) {
      H_parent.act_inverse(m, out);
      return;
    }
    switch (k) {
      case 0: motion_to_child_about_axis<0>(H_parent, m, out); break;
      case 1: motion_to_child_about_axis<1>(H_parent, m, out); break;
      default: motion_to_child_about_axis<2>(H_parent, m, out); break;
    }
  }
  /// out += _λX^i f: a wrench on the child body i added to the parent's, in the parent frame.
  LIEDYN_ALWAYS_INLINE void add_force_to_parent(const SE3<S>& H_parent, const Force<S>& f,
                                                Force<S>& out) const {
    const int k = revolute_coordinate_axis();
    if (k < 0 || !placement_unrotated) {
      H_parent.add_act(f, out);
      return;
    }
    switch (k) {
      case 0: add_force_to_parent_about_axis<0>(H_parent, f, out); break;
      case 1: add_force_to_parent_about_axis<1>(H_parent, f, out); break;
      default: add_force_to_parent_about_axis<2>(H_parent, f, out); break;
    }
  }

  /// parent += _λX^i child ^iX_λ: a composite inertia of the child body i (child frame) added
  /// to its parent's (parent frame), for H_parent = ^λH_i = transform(q) at the joint's current
  /// position; the fast case as in forces_to_parent (its rotation about e_k mixes two axes).
  LIEDYN_ALWAYS_INLINE void add_inertia_to_parent(const SE3<S>& H_parent,
                                                  const SpatialInertia<S>& child,
                                                  SpatialInertia<S>& parent) const {
    const int k = revolute_coordinate_axis();
    if (k < 0 || !placement_unrotated) {
      parent.add_transformed(child, H_parent);
      return;
    }
    const Matrix3<S>& R = H_parent.rotation();  // Rot(e_k, θ): cos θ = R(a, a), sin θ = R(b, a)
    const Vector3<S>& p = H_parent.translation();
    switch (k) {
      case 0: parent.template add_transformed_about_axis<0>(child, R(1, 1), R(2, 1), p); break;
      case 1: parent.template add_transformed_about_axis<1>(child, R(2, 2), R(0, 2), p); break;
      default: parent.template add_transformed_about_axis<2>(child, R(0, 0), R(1, 0), p); break;
    }
  }

  /// Every column of `forces` (wrenches in the child frame i) moved to the parent frame in place,
  /// f ← _λX^i f, for H_parent = ^λH_i = transform(q) at the joint's current position. When the
  /// placement is unrotated and the joint revolute about ±e_k, H_parent's rotation turns about
  /// the parent's own e_k: each 3-vector mixes two coordinates (4 multiplications instead of 9).
  template <class Derived>
  void forces_to_parent(const SE3<S>& H_parent, const Eigen::MatrixBase<Derived>& forces_) const {
    auto& forces = const_cast<Eigen::MatrixBase<Derived>&>(forces_);
    const int k = revolute_coordinate_axis();
    if (k < 0 || !placement_unrotated) {
      H_parent.act_forces(forces, forces);
      return;
    }
    switch (k) {
      case 0: rotate_forces_about_axis<0>(H_parent, forces); break;
      case 1: rotate_forces_about_axis<1>(H_parent, forces); break;
      default: rotate_forces_about_axis<2>(H_parent, forces); break;
    }
  }

  /// The same joint in scalar type T.
  template <class T>
  Joint<T> cast() const {
    Joint<T> j;
    j.name = name;
    j.type = type;
    j.axis = axis.template cast<T>();
    j.axis2 = axis2.template cast<T>();
    j.pitch = T(pitch);
    j.screw = screw.template cast<T>();
    j.placement = placement.template cast<T>();
    j.alignment = alignment;
    j.placement_unrotated = placement_unrotated;
    j.armature = T(armature);
    j.lower = T(lower);
    j.upper = T(upper);
    j.velocity_limit = T(velocity_limit);
    j.effort_limit = T(effort_limit);
    return j;
  }

 private:
  template <class Q, class V>
  Motion<S> subspace_times_general(const Eigen::MatrixBase<Q>& q,
                                   const Eigen::MatrixBase<V>& v) const {
    if (subspace_row(0) >= 0) {  // unit columns: Γ v places v's entries
      Vector6<S> m = Vector6<S>::Zero();
      for (int a = 0; a < nv(); ++a) m(subspace_row(a)) = v(a);
      return Motion<S>(m);
    }
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> gamma(6, nv());
    subspace(q, gamma);
    return Motion<S>(Vector6<S>(gamma * v));
  }
  template <class Q, class Out>
  void project_general(const Force<S>& f, const Eigen::MatrixBase<Q>& q, Out& out) const {
    if (subspace_row(0) >= 0) {  // unit columns: Γᵀ f reads f's entries
      for (int a = 0; a < nv(); ++a) out.coeffRef(a) = f.vector()(subspace_row(a));
      return;
    }
    Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> gamma(6, nv());
    subspace(q, gamma);
    out = gamma.transpose() * f.vector();
  }

  // A free joint's position or a planar joint's (x, y) at fraction t of [lower, upper], or of
  // [−1, 1] m without finite limits.
  S length_in_limits(double t) const { return in_limits(t, 1.0); }
  S in_limits(double t, double half_width_without_limits) const {
    const bool limited = std::isfinite(double(lower)) && std::isfinite(double(upper));
    // The width upper − lower overflows for limits like ±DBL_MAX (Pinocchio's "no limit").
    const bool wide = limited && !std::isfinite(double(upper - lower));
    return !limited ? S(half_width_without_limits * (2.0 * t - 1.0))
           : wide   ? S(lower * S(1.0 - t) + upper * S(t))
                    : S(lower + (upper - lower) * S(t));
  }
  // Uniform on SO(3): four standard normal draws, normalized (uniform on S³).
  template <class Rng>
  static Vector4<S> random_unit_quaternion(Rng& rng) {
    std::normal_distribution<double> g(0.0, 1.0);
    Vector4<S> q;
    for (int k = 0; k < 4; ++k) q(k) = S(g(rng));
    return q / q.norm();
  }

  // forces_to_parent's fast case: H = (Rot(e_K, θ), p); cos θ and sin θ are read from H's
  // rotation (R(a, a), R(b, a)), the joint's one source for its pose.
  template <int K, class Derived>
  static void rotate_forces_about_axis(const SE3<S>& H, Eigen::MatrixBase<Derived>& forces) {
    using namespace detail;
    constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
    const S c = H.rotation()(a, a), s = H.rotation()(b, a);
    const Vec3<S> p = load3(H.translation(), 0);
    for (Eigen::Index col = 0; col < forces.cols(); ++col) {
      auto x = forces.col(col);
      const Vec3<S> f = rotate_about<K>(c, s, load3(x, 0));
      const Vec3<S> n = rotate_about<K>(c, s, load3(x, 3)) + cross3(p, f);
      store3(x, 0, f);
      store3(x, 3, n);
    }
  }
  // H_λ (Rot(e_K, θ), p): Rot's column a is c e_a + s e_b, column b is −s e_a + c e_b.
  template <int K>
  LIEDYN_ALWAYS_INLINE static void child_pose_about_axis(const SE3<S>& H, const SE3<S>& Hp,
                                                         SE3<S>& out) {
    using namespace detail;
    constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
    const S c = Hp.rotation()(a, a), s = Hp.rotation()(b, a);
    const Matrix3<S>& R = H.rotation();
    const Vec3<S> ra = load3(R.col(a), 0), rb = load3(R.col(b), 0);
    S* o = out.rotation().data();
    store3(o + 3 * a, c * ra + s * rb);
    store3(o + 3 * b, c * rb - s * ra);
    store3(o + 3 * K, load3(R.col(K), 0));
    store3(out.translation().data(),
           mul3(R, load3(Hp.translation().data())) + load3(H.translation().data()));
  }
  // ^iX_λ m = (Rᵀ (v − p × ω), Rᵀ ω) with R = Rot(e_K, θ): Rᵀ turns by −θ.
  template <int K>
  LIEDYN_ALWAYS_INLINE static void motion_to_child_about_axis(const SE3<S>& H, const Motion<S>& m,
                                                              Motion<S>& out) {
    using namespace detail;
    constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
    const S c = H.rotation()(a, a), s = -H.rotation()(b, a);
    const S* x = m.vector().data();
    const Vec3<S> w = load3(x + 3);
    const Vec3<S> v = load3(x) - cross3(load3(H.translation().data()), w);
    S* o = out.vector().data();
    store3(o, rotate_about<K>(c, s, v));
    store3(o + 3, rotate_about<K>(c, s, w));
  }
  // out += _λX^i f = (R f, R n + p × R f).
  template <int K>
  LIEDYN_ALWAYS_INLINE static void add_force_to_parent_about_axis(const SE3<S>& H,
                                                                  const Force<S>& f,
                                                                  Force<S>& out) {
    using namespace detail;
    constexpr int a = (K + 1) % 3, b = (K + 2) % 3;
    const S c = H.rotation()(a, a), s = H.rotation()(b, a);
    const S* x = f.vector().data();
    const Vec3<S> rf = rotate_about<K>(c, s, load3(x));
    const Vec3<S> n =
        rotate_about<K>(c, s, load3(x + 3)) + cross3(load3(H.translation().data()), rf);
    S* o = out.vector().data();
    store3(o, load3(o) + rf);
    store3(o + 3, load3(o + 3) + n);
  }
  // Rot(e_K, θ) v given cos θ and sin θ.
  template <int K>
  static detail::Vec3<S> rotate_about(const S& c, const S& s, const detail::Vec3<S>& v) {
    if constexpr (K == 0) return {v.x, c * v.y - s * v.z, s * v.y + c * v.z};
    else if constexpr (K == 1) return {s * v.z + c * v.x, v.y, c * v.z - s * v.x};
    else return {c * v.x - s * v.y, s * v.x + c * v.y, v.z};
  }
};

/// Γ of a 1-DoF screw joint type, unit axis and pitch; zero for the multi-DoF types (their
/// subspace comes from Joint::subspace).
template <class S>
Motion<S> joint_screw(JointType type, const Vector3<S>& axis, const S& pitch) {
  switch (type) {
    case JointType::Revolute: return Motion<S>(Vector3<S>::Zero(), axis);
    case JointType::Prismatic: return Motion<S>(axis, Vector3<S>::Zero());
    case JointType::Helical: return Motion<S>(Vector3<S>(pitch * axis), axis);
    default: return Motion<S>();
  }
}

}  // namespace liedyn
