// liedyn — model: the free joint (six degrees of freedom) as the Lie group SE(3).
//
// Configuration: the child origin p in the joint frame, then the unit quaternion (x, y, z, w) of
// the child's orientation R (nq = 7); velocity: the child's body twist [v; ω] relative to the
// parent, in the child frame (nv = 6). X_J(q) = (R, p), Γ = 1₆, c_J = 0. Perturbations on the
// right with the SE(3) exponential, translation and rotation coupled (not SO(3) × R³):
// q ⊕ δ = H(q) exp(δ^), so a deviation obeys η̇ = −ad(v̄) η + δv, the same rows as the moving
// base's (docs/conventions.md §4).
#pragma once

#include "liedyn/spatial.hpp"

namespace liedyn {

/// The group operations of a free joint (SE(3), position and quaternion coordinates).
template <class S>
struct FreeJoint {
  static constexpr int nq = 7;                ///< p (3), quaternion (x, y, z, w)
  static constexpr int nv = 6;                ///< body twist [v; ω], child frame
  static constexpr int quaternion_index = 3;  ///< where (x, y, z, w) starts in q

  /// X_J(q) = (R(quaternion/‖quaternion‖), p); a zero or non-finite quaternion throws.
  template <class Q>
  static SE3<S> motion(const Eigen::MatrixBase<Q>& q) {
    return SE3<S>(SO3<S>::from_quaternion(q(3), q(4), q(5), q(6)),
                  Vector3<S>(q.template head<3>()));
  }
  /// Γ = 1₆ (child frame): column a is the unit vector e_r, r = subspace_rows[a]
  /// (Joint::subspace_row).
  static constexpr int subspace_rows[nv] = {0, 1, 2, 3, 4, 5};
  /// q ⊕ δ = H(q) exp(δ^): p + R t with t the translation of exp(δ^), quaternion ⊗ exp(ω).
  /// `out` may be q.
  template <class Q, class D, class O>
  static void integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<D>& delta,
                        const Eigen::MatrixBase<O>& out_) {
    auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
    const SE3<S> step = SE3<S>::exp(Vector6<S>(delta));
    const Vector3<S> p =
        Vector3<S>(q.template head<3>()) + motion(q).rotation() * step.translation();
    const Vector4<S> r =
        quaternion_product(q.template tail<4>(), quaternion_exp(delta.template tail<3>()));
    out.template head<3>() = p;
    out.template tail<4>() = r;
  }
  /// q1 ⊖ q0 = log(H(q0)⁻¹ H(q1)).
  template <class Q0, class Q1, class O>
  static void difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                         const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) = motion(q0).inverse_times(motion(q1)).log();
  }
  /// q = (0, 0, 0, 0, 0, 0, 1).
  template <class O>
  static void neutral(const Eigen::MatrixBase<O>& out_) {
    auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
    out.setZero();
    out(6) = S(1);
  }
  /// ad(v) = v× (6 × 6): the deviation η of q = q̄ ⊕ η obeys η̇ = −ad(v̄) η + δv.
  template <class V, class A>
  static void ad(const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& out) {
    const_cast<Eigen::MatrixBase<A>&>(out) = Motion<S>(Vector6<S>(v)).cross_matrix();
  }
  /// ∂(q ⊕ δ)/∂q = Ad(exp(δ^))⁻¹ and ∂(q ⊕ δ)/∂δ = Jr(δ) (6 × 6 each, left-trivialized).
  template <class D, class Jq, class Jd>
  static void integrate_jacobians(const Eigen::MatrixBase<D>& delta,
                                  const Eigen::MatrixBase<Jq>& J_q,
                                  const Eigen::MatrixBase<Jd>& J_delta) {
    const Vector6<S> d = delta;
    const_cast<Eigen::MatrixBase<Jq>&>(J_q) = SE3<S>::exp(d).inverse().velocity_transform();
    const_cast<Eigen::MatrixBase<Jd>&>(J_delta) = SE3<S>::right_jacobian(d);
  }
  /// ∂(q1 ⊖ q0)/∂q0 = −Jl⁻¹(η) and ∂(q1 ⊖ q0)/∂q1 = Jr⁻¹(η), η = q1 ⊖ q0 (6 × 6 each).
  template <class Q0, class Q1, class J0, class J1>
  static void difference_jacobians(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                                   const Eigen::MatrixBase<J0>& J_q0,
                                   const Eigen::MatrixBase<J1>& J_q1) {
    Vector6<S> eta;
    difference(q0, q1, eta);
    const_cast<Eigen::MatrixBase<J0>&>(J_q0) = -SE3<S>::left_jacobian_inverse(eta);
    const_cast<Eigen::MatrixBase<J1>&>(J_q1) = SE3<S>::right_jacobian_inverse(eta);
  }
};

}  // namespace liedyn
