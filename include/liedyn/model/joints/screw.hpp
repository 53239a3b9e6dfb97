// liedyn — model: the 1-DoF screw joints (revolute, prismatic, helical) as a Lie group.
//
// Configuration s ∈ R (nq = nv = 1), one constant column Γ in the child frame (joint.hpp lists
// Γ per kind): X_J(s) = exp((Γ s)^). The group is R under +, so integrate and difference are
// + and −, every Jacobian is ±1 and ad = 0. The kernels' fast cases for axes along ±e_k live in
// Joint (joint.hpp).
#pragma once

#include "liedyn/model/joints/vector_space.hpp"
#include "liedyn/spatial.hpp"

namespace liedyn {

/// The group operations of a 1-DoF screw joint with column Γ (child frame).
template <class S>
struct ScrewJoint : VectorSpaceGroup<S, 1> {
  /// X_J(s) = exp((Γ s)^): the child frame in the joint frame.
  template <class Q>
  static SE3<S> motion(const Motion<S>& screw, const Eigen::MatrixBase<Q>& q) {
    return SE3<S>::exp(Vector6<S>(screw.vector() * q(0)));
  }
  /// Γ (6 × 1, child frame), constant.
  template <class G>
  static void subspace(const Motion<S>& screw, const Eigen::MatrixBase<G>& gamma) {
    const_cast<Eigen::MatrixBase<G>&>(gamma).col(0) = screw.vector();
  }
};

}  // namespace liedyn
