// liedyn — model: the spherical (ball) joint as the Lie group SO(3).
//
// Configuration: a quaternion (x, y, z, w), w last (nq = 4), of unit norm (the operations read
// the rotation of q/‖q‖, and integrate and difference are blind to the scale); velocity: the
// child's angular velocity relative to the parent in the child frame (nv = 3). X_J(q) = (R(q), 0),
// Γ = [0₃; 1₃] constant, c_J = 0. Perturbations on the right (docs/conventions.md §3): q ⊕ δ = q ⊗
// exp(δ), so a deviation η obeys η̇ = −ω̄^ η + δω, and one step q⁺ = q ⊕ Δt ω⁺ has the Jacobians
// ∂η⁺/∂η = exp(Δt ω⁺^)ᵀ, ∂η⁺/∂(Δt ω⁺) = Jr(Δt ω⁺) (Solà et al., A micro Lie theory, 2018).
#pragma once

#include "liedyn/spatial.hpp"

namespace liedyn {

/// The group operations of a spherical joint (SO(3), quaternion coordinates).
template <class S>
struct SphericalJoint {
  static constexpr int nq = 4;                ///< quaternion (x, y, z, w)
  static constexpr int nv = 3;                ///< angular velocity, child frame
  static constexpr int quaternion_index = 0;  ///< where (x, y, z, w) starts in q

  /// X_J(q) = (R(q/‖q‖), 0): a quaternion off unit norm (by integration round-off, say) still
  /// gives a rotation; a zero or non-finite one throws.
  template <class Q>
  static SE3<S> motion(const Eigen::MatrixBase<Q>& q) {
    return SE3<S>(SO3<S>::from_quaternion(q(0), q(1), q(2), q(3)), Vector3<S>::Zero());
  }
  /// Γ = [0₃; 1₃] (6 × 3, child frame): column a is the unit vector e_r, r = subspace_rows[a]
  /// (Joint::subspace_row).
  static constexpr int subspace_rows[nv] = {3, 4, 5};
  /// q ⊕ δ = q ⊗ exp(δ) (quaternion product; no renormalization). `out` may be q.
  template <class Q, class D, class O>
  static void integrate(const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<D>& delta,
                        const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) = quaternion_product(q, quaternion_exp(delta));
  }
  /// q1 ⊖ q0 = log(R(q0)ᵀ R(q1)), |·| ≤ π.
  template <class Q0, class Q1, class O>
  static void difference(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                         const Eigen::MatrixBase<O>& out) {
    const_cast<Eigen::MatrixBase<O>&>(out) =
        quaternion_log(quaternion_product(quaternion_conjugate(q0), q1));
  }
  /// q = (0, 0, 0, 1).
  template <class O>
  static void neutral(const Eigen::MatrixBase<O>& out) {
    // Through a fixed-size view: on a dynamic block GCC 12 with AVX-512 warns that Eigen's
    // 8-wide store (never taken for 4 entries) reads past the 4-vector.
    const_cast<Eigen::MatrixBase<O>&>(out).template head<4>() = Vector4<S>(S(0), S(0), S(0), S(1));
  }
  /// ad(ω) = ω^ (3 × 3): the deviation η of q = q̄ ⊕ η obeys η̇ = −ad(ω̄) η + δω.
  template <class V, class A>
  static void ad(const Eigen::MatrixBase<V>& omega, const Eigen::MatrixBase<A>& out) {
    const_cast<Eigen::MatrixBase<A>&>(out) = hat(Vector3<S>(omega));
  }
  /// ∂(q ⊕ δ)/∂q = exp(δ^)ᵀ and ∂(q ⊕ δ)/∂δ = Jr(δ) (3 × 3 each, left-trivialized).
  template <class D, class Jq, class Jd>
  static void integrate_jacobians(const Eigen::MatrixBase<D>& delta,
                                  const Eigen::MatrixBase<Jq>& J_q,
                                  const Eigen::MatrixBase<Jd>& J_delta) {
    const Vector3<S> d = delta;
    const_cast<Eigen::MatrixBase<Jq>&>(J_q) = SO3<S>::exp(d).matrix().transpose();
    const_cast<Eigen::MatrixBase<Jd>&>(J_delta) = SO3<S>::right_jacobian(d);
  }
  /// ∂(q1 ⊖ q0)/∂q0 = −Jl⁻¹(η) and ∂(q1 ⊖ q0)/∂q1 = Jr⁻¹(η), η = q1 ⊖ q0 (3 × 3 each).
  template <class Q0, class Q1, class J0, class J1>
  static void difference_jacobians(const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                                   const Eigen::MatrixBase<J0>& J_q0,
                                   const Eigen::MatrixBase<J1>& J_q1) {
    Vector3<S> eta;
    difference(q0, q1, eta);
    const_cast<Eigen::MatrixBase<J0>&>(J_q0) = -SO3<S>::left_jacobian_inverse(eta);
    const_cast<Eigen::MatrixBase<J1>&>(J_q1) = SO3<S>::right_jacobian_inverse(eta);
  }
};

}  // namespace liedyn
