// liedyn — model: the base as the tree's root joint, between the inertial frame A and body 0.
//
// A moving base is a free joint: its coordinates are the state's (H, ν), six velocity
// coordinates heading every generalized vector, Γ_0 = 1₆ in the base frame (RBDA §9.3). A
// welded base is a fixed joint: no coordinates, the pose Model::welded_base_pose(), zero twist
// (docs/conventions.md §2). BaseJoint answers what the kernels ask of the root, so that the
// choice between the two is made here once and the kernels read as the tables: v_0 = Γ_0 ν,
// a_0 += Γ_0 ν̇, τ̄_b = Γ_0ᵀ f_0, and ABA's root a_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0).
#pragma once

#include "liedyn/arithmetic/cholesky6.hpp"
#include "liedyn/spatial.hpp"

namespace liedyn {

/// Moving: the base is a free 6-DoF body (pose and body twist in the state, its 6 coordinates
/// first in velocity-sized vectors). Welded: fixed to the inertial frame at
/// Model::welded_base_pose().
enum class BaseType { Moving, Welded };

template <class S>
struct State;

/// The root joint of the tree: free (a moving base) or fixed (a welded base). See the header.
template <class S>
class BaseJoint {
 public:
  BaseJoint() = default;
  /// A root joint of kind `type`; `welded_pose` = ^A H_0, used by the fixed joint only.
  BaseJoint(BaseType type, const SE3<S>& welded_pose) : type_(type), welded_pose_(welded_pose) {}

  /// Moving (free joint) or Welded (fixed joint).
  BaseType type() const { return type_; }
  /// True for the free joint.
  bool moving() const { return type_ == BaseType::Moving; }
  /// Its velocity coordinates, heading every generalized vector: 6 (free) or 0 (fixed).
  int nv() const { return moving() ? 6 : 0; }
  /// The fixed joint's pose ^A H_0 (unused by the free joint, whose pose is the state's H).
  const SE3<S>& welded_pose() const { return welded_pose_; }

  /// ^A H_0: x.H (free) or the welded pose (fixed).
  const SE3<S>& pose(const State<S>& x) const { return moving() ? x.H : welded_pose_; }
  /// v_0 = Γ_0 ν: the body twist ν (free) or zero (fixed).
  Motion<S> twist(const State<S>& x) const {
    return moving() ? Motion<S>(x.nu) : Motion<S>::Zero();
  }
  /// Γ_0 ν̇ from a generalized acceleration [ν̇; ṙ]: its head (free) or zero (fixed).
  template <class D>
  Motion<S> acceleration(const Eigen::MatrixBase<D>& ddq) const {
    return moving() ? Motion<S>(Vector6<S>(ddq.template head<6>())) : Motion<S>::Zero();
  }
  /// a += Γ_0 ν̇ (see acceleration).
  template <class D>
  void add_acceleration(const Eigen::MatrixBase<D>& ddq, Motion<S>& a) const {
    if (moving()) a += Motion<S>(Vector6<S>(ddq.template head<6>()));
  }
  /// τ̄_b = Γ_0ᵀ f_0 into the head of a generalized force (nothing for the fixed joint).
  template <class D>
  void project(const Force<S>& f, const Eigen::MatrixBase<D>& tau_) const {
    if (moving()) const_cast<Eigen::MatrixBase<D>&>(tau_).template head<6>() = f.vector();
  }

  /// The generalized velocity [ν; r] (free) or r (fixed) of x into v (size Model::nv()).
  void velocity(const State<S>& x, VectorX<S>& v) const {
    if (moving()) v << x.nu, x.r;
    else v = x.r;
  }
  /// The inverse of velocity: ν and r of x from a generalized velocity v.
  void set_velocity(const VectorX<S>& v, State<S>& x) const {
    if (moving()) x.nu = v.template head<6>();
    x.r = v.tail(v.size() - nv());
  }

  /// ^A X_0 Γ_0, the root's columns of an inertial-frame Jacobian, times `sign`, added to the
  /// first nv() columns of `cols` (nothing for the fixed joint).
  template <class D>
  void add_inertial_columns(const SE3<S>& H0, const S& sign,
                            const Eigen::MatrixBase<D>& cols_) const {
    if (moving())
      const_cast<Eigen::MatrixBase<D>&>(cols_).template leftCols<6>() +=
          sign * H0.velocity_transform();
  }

  /// ABA's root (RBDA Table 9.5 for the free joint): factors the articulated inertia M^A_0 into
  /// `chol` (nothing for the fixed joint, whose M^A_0 is never used).
  void factor_articulated(const Matrix6<S>& IA0, detail::Cholesky6<S>& chol) const {
    if (moving()) chol.compute(IA0);
  }
  /// Whether factor_articulated has run (always true for the fixed joint).
  bool articulated_factored(const detail::Cholesky6<S>& chol) const {
    return !moving() || chol.ok();
  }
  /// ABA's root acceleration from the factors of M^A_0: a_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0) and
  /// ddq's head a_0 − a_fixed (free), or a_0 = a_fixed, the acceleration the fixed joint
  /// imposes (−[g; 0] in the base frame, or zero without gravity).
  template <class T, class D>
  void articulated_acceleration(const detail::Cholesky6<S>& chol, const Vector6<S>& pA0,
                                const Eigen::MatrixBase<T>& tau, const Motion<S>& a_fixed,
                                Motion<S>& a0, const Eigen::MatrixBase<D>& ddq_) const {
    if (moving()) {
      a0 = Motion<S>(chol.solve(Vector6<S>(tau.template head<6>()) - pA0));
      const_cast<Eigen::MatrixBase<D>&>(ddq_).template head<6>() = (a0 - a_fixed).vector();
    } else {
      a0 = a_fixed;
    }
  }

  /// The same, factoring M^A_0 itself (a single solve).
  template <class T, class D>
  void articulated_acceleration(const Matrix6<S>& IA0, const Vector6<S>& pA0,
                                const Eigen::MatrixBase<T>& tau, const Motion<S>& a_fixed,
                                Motion<S>& a0, const Eigen::MatrixBase<D>& ddq) const {
    if (moving()) articulated_acceleration(detail::Cholesky6<S>(IA0), pA0, tau, a_fixed, a0, ddq);
    else a0 = a_fixed;
  }

  /// The same joint in scalar type T.
  template <class T>
  BaseJoint<T> cast() const {
    return BaseJoint<T>(type_, welded_pose_.template cast<T>());
  }

 private:
  BaseType type_ = BaseType::Moving;
  SE3<S> welded_pose_;
};

}  // namespace liedyn
