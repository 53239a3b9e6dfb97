// liedyn — model: the universal joint, two intersecting revolute axes, as a Lie group.
//
// Configuration (q1, q2) ∈ R² (nq = nv = 2), X_J(q) = (exp(a1^ q1) exp(a2^ q2), 0) with unit
// axes a1 (joint frame) and a2 (the frame after the first rotation), not necessarily
// orthogonal. In the child frame the columns are Γ(q) = [0, 0; R2ᵀ a1, a2], R2 = exp(a2^ q2):
// the only joint whose subspace depends on q, hence its bias c_J = Γ̇ q̇ = (Γ_1 q̇1) × (Γ_2 q̇2)
// (Featherstone, Rigid Body Dynamics Algorithms, §4.4). Its columns act successively: column 2
// hangs from column 1 as a revolute from its parent (docs/design/joint-types.md §2). The group
// is R² under +.
#pragma once

#include "liedyn/model/joints/vector_space.hpp"
#include "liedyn/spatial.hpp"

namespace liedyn {

/// The group operations of a universal joint with unit axes a1, a2.
template <class S>
struct UniversalJoint : VectorSpaceGroup<S, 2> {
  /// X_J(q) = (exp(a1^ q1) exp(a2^ q2), 0): the child frame in the joint frame.
  template <class Q>
  static SE3<S> motion(const Vector3<S>& a1, const Vector3<S>& a2, const Eigen::MatrixBase<Q>& q) {
    const Matrix3<S> R =
        SO3<S>::exp(Vector3<S>(a1 * q(0))).matrix() * SO3<S>::exp(Vector3<S>(a2 * q(1))).matrix();
    return SE3<S>(R, Vector3<S>::Zero());
  }
  /// Γ(q) = [0, 0; R2ᵀ a1, a2] (6 × 2, child frame).
  template <class Q, class G>
  static void subspace(const Vector3<S>& a1, const Vector3<S>& a2, const Eigen::MatrixBase<Q>& q,
                       const Eigen::MatrixBase<G>& gamma_) {
    auto& gamma = const_cast<Eigen::MatrixBase<G>&>(gamma_);
    gamma.template topRows<3>().setZero();
    gamma.col(0).template tail<3>() = first_axis_in_child(a1, a2, q(1));
    gamma.col(1).template tail<3>() = a2;
  }
  /// c_J = Γ̇(q) q̇ = [0; q̇1 q̇2 (R2ᵀ a1 × a2)]: the child's acceleration relative to the joint
  /// frame at q̈ = 0, in the child frame.
  template <class Q, class V>
  static Motion<S> bias(const Vector3<S>& a1, const Vector3<S>& a2, const Eigen::MatrixBase<Q>& q,
                        const Eigen::MatrixBase<V>& v) {
    const Vector3<S> w = first_axis_in_child(a1, a2, q(1)).cross(a2) * (v(0) * v(1));
    return Motion<S>(Vector3<S>::Zero(), w);
  }

 private:
  // R2ᵀ a1, R2 = exp(a2^ q2): the first axis seen from the child frame.
  static Vector3<S> first_axis_in_child(const Vector3<S>& a1, const Vector3<S>& a2, const S& q2) {
    return SO3<S>::exp(Vector3<S>(a2 * q2)).matrix().transpose() * a1;
  }
};

}  // namespace liedyn
