// liedyn — model: the planar joint as the Lie group SE(2), in the joint frame's xy-plane.
//
// Configuration (x, y, cos θ, sin θ) (nq = 4): the child origin in the plane and its turn about
// the joint frame's z; velocity: the SE(2) body twist (v_x, v_y, ω) in the child frame (nv = 3).
// X_J(q) = (Rot_z(θ), (x, y, 0)); the columns of Γ are e_x (linear), e_y (linear), e_z
// (angular), constant; c_J = 0. SE(2) is the subgroup of SE(3) that Γ spans: its exponential,
// logarithm, Ad and Jr are SE(3)'s restricted, Γᵀ (·) Γ (Γ has orthonormal columns and spans a
// subalgebra), so they are computed through SE(3)'s. Perturbations on the right.
#pragma once

#include "liedyn/spatial.hpp"

namespace liedyn {

/// The group operations of a planar joint (SE(2), (x, y, cos θ, sin θ) coordinates).
template <class S>
struct PlanarJoint {
  static constexpr int nq = 4;  ///< (x, y, cos θ, sin θ)
  static constexpr int nv = 3;  ///< (v_x, v_y, ω), child frame

  /// X_J(q) = (Rot_z(θ), (x, y, 0)), (cos θ, sin θ) = (q₂, q₃)/‖(q₂, q₃)‖.
  template <class Q>
  static SE3<S> motion(const Eigen::MatrixBase<Q>& q) {
    using std::sqrt;
    const S norm = sqrt(q(2) * q(2) + q(3) * q(3));
    const S c = q(2) / norm, s = q(3) / norm;
    Matrix3<S> R;
    R << c, -s, S(0), s, c, S(0), S(0), S(0), S(1);
    return SE3<S>(R, Vector3<S>(q(0), q(1), S(0)));
  }
  /// Γ = [e_x, e_y, 0; 0, 0, e_z] (6 × 3, child frame): column a is the unit vector e_r, r =
  /// subspace_rows[a] (Joint::subspace_row).
  static constexpr int subspace_rows[nv] = {0, 1, 5};
  /// q ⊕ δ = H(q) exp((Γ δ)^), with a unit (cos θ, sin θ). `out` may be q.
  template <class Q, class D, class O>
  static void integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<D>& delta,
                        const Eigen::MatrixBase<O>& out_) {
    auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
    const SE3<S> step = SE3<S>::exp(embed(delta));
    const Matrix3<S> R = motion(q).rotation();
    const S c = R(0, 0), s = R(1, 0), dc = step.rotation()(0, 0), ds = step.rotation()(1, 0);
    const S tx = step.translation()(0), ty = step.translation()(1);
    const S x = q(0) + c * tx - s * ty, y = q(1) + s * tx + c * ty;
    out(0) = x;
    out(1) = y;
    out(2) = c * dc - s * ds;
    out(3) = s * dc + c * ds;
  }
  /// q1 ⊖ q0 = Γᵀ log(H(q0)⁻¹ H(q1)).
  template <class Q0, class Q1, class O>
  static void difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                         const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) = restrict(motion(q0).inverse_times(motion(q1)).log());
  }
  /// q = (0, 0, 1, 0).
  template <class O>
  static void neutral(const Eigen::MatrixBase<O>& out) {
    // Through a fixed-size view, as SphericalJoint::neutral.
    const_cast<Eigen::MatrixBase<O>&>(out).template head<4>() = Vector4<S>(S(0), S(0), S(1), S(0));
  }
  /// ad(v) = Γᵀ (Γ v)× Γ = [0, −ω, v_y; ω, 0, −v_x; 0, 0, 0]: the deviation η of q = q̄ ⊕ η
  /// obeys η̇ = −ad(v̄) η + δv.
  template <class V, class A>
  static void ad(const Eigen::MatrixBase<V>& v, const Eigen::MatrixBase<A>& out) {
    const_cast<Eigen::MatrixBase<A>&>(out) = restrict(Motion<S>(embed(v)).cross_matrix());
  }
  /// ∂(q ⊕ δ)/∂q = Γᵀ Ad(exp((Γδ)^))⁻¹ Γ and ∂(q ⊕ δ)/∂δ = Γᵀ Jr(Γ δ) Γ (3 × 3 each).
  template <class D, class Jq, class Jd>
  static void integrate_jacobians(const Eigen::MatrixBase<D>& delta,
                                  const Eigen::MatrixBase<Jq>& J_q,
                                  const Eigen::MatrixBase<Jd>& J_delta) {
    const Vector6<S> d = embed(delta);
    const_cast<Eigen::MatrixBase<Jq>&>(J_q) =
        restrict(SE3<S>::exp(d).inverse().velocity_transform());
    const_cast<Eigen::MatrixBase<Jd>&>(J_delta) = restrict(SE3<S>::right_jacobian(d));
  }
  /// ∂(q1 ⊖ q0)/∂q0 = −Γᵀ Jl⁻¹(Γη) Γ and ∂(q1 ⊖ q0)/∂q1 = Γᵀ Jr⁻¹(Γη) Γ, η = q1 ⊖ q0.
  template <class Q0, class Q1, class J0, class J1>
  static void difference_jacobians(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                                   const Eigen::MatrixBase<J0>& J_q0,
                                   const Eigen::MatrixBase<J1>& J_q1) {
    Vector3<S> eta;
    difference(q0, q1, eta);
    const Vector6<S> e = embed(eta);
    const_cast<Eigen::MatrixBase<J0>&>(J_q0) = -restrict(SE3<S>::left_jacobian_inverse(e));
    const_cast<Eigen::MatrixBase<J1>&>(J_q1) = restrict(SE3<S>::right_jacobian_inverse(e));
  }

 private:
  // Γ v: (v_x, v_y, ω) as the twist (v_x, v_y, 0, 0, 0, ω).
  template <class V>
  static Vector6<S> embed(const Eigen::MatrixBase<V>& v) {
    Vector6<S> t;
    t << v(0), v(1), S(0), S(0), S(0), v(2);
    return t;
  }
  // Γᵀ t: the plane's coordinates (0, 1, 5) of a twist.
  static Vector3<S> restrict(const Vector6<S>& t) { return Vector3<S>(t(0), t(1), t(5)); }
  // Γᵀ A Γ: rows and columns (0, 1, 5) of a 6 × 6 map.
  static Matrix3<S> restrict(const Matrix6<S>& A) {
    constexpr int k[3] = {0, 1, 5};
    Matrix3<S> B;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) B(r, c) = A(k[r], k[c]);
    return B;
  }
};

}  // namespace liedyn
