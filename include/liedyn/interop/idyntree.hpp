// liedyn — interop: iDynTree's robot state (KinDynComputations::setRobotState).
//
// iDynTree has no configuration vector: its state is the base pose as a 4×4 homogeneous
// transform world_T_base (= our ^A H_0), the joint positions s, the base velocity and the joint
// velocities ṡ. Its default frame-velocity representation is MIXED, linear first:
// [^A ȯ_0; ^A ω] (BaseVelocity::MixedLinearFirst, floating_base.hpp); the base acceleration it
// takes is the time derivative of that vector, and its generalized forces are [base force;
// base moment about the base origin], both in world orientation, then the joint torques. Use
// the generic functions of floating_base.hpp with Library::iDynTree for accelerations, forces,
// mass matrices (interop/derivatives.hpp for Jacobians) — iDynTree is set to the mixed
// representation; for its body-fixed or inertial-fixed options use BaseVelocity::Body or
// convert with state.hpp (TwistRepresentation::Inertial).
#pragma once

#include "liedyn/interop/floating_base.hpp"

namespace liedyn {
namespace interop {

/// The arguments of iDynTree's KinDynComputations::setRobotState in the mixed representation,
/// joints in iDynTree's order (gravity is set separately, as the model's g).
template <class S>
struct IDynTreeState {
  Matrix4<S> world_T_base = Matrix4<S>::Identity();  ///< ^A H_0 as a homogeneous matrix
  VectorX<S> s;                                      ///< joint positions, iDynTree's joint order
  Vector6<S> base_velocity = Vector6<S>::Zero();     ///< mixed twist [^A ȯ_0; ^A ω]
  VectorX<S> s_dot;                                  ///< joint velocities, iDynTree's joint order
};

/// iDynTree's state from ours (a welded-base model gives the welded pose and a zero base velocity).
template <class S>
IDynTreeState<S> to_idyntree_state(const Model<S>& model, const State<S>& x,
                                   const JointPermutation& perm = JointPermutation()) {
  detail::require_permutation("to_idyntree_state", model, perm);
  detail::require_size("to_idyntree_state", "x.s", x.s.size(), model.nq_joints());
  detail::require_size("to_idyntree_state", "x.r", x.r.size(), model.nv_joints());
  IDynTreeState<S> out;
  out.world_T_base = x.H.matrix();
  out.s = perm.vector_to_theirs(x.s, 0);
  out.s_dot = perm.vector_to_theirs(x.r, 0);
  if (model.has_moving_base())
    out.base_velocity = base_velocity_matrix(Convention(Library::iDynTree), x.H.rotation()) * x.nu;
  return out;
}

/// Our state from iDynTree's. The rotation block of world_T_base must be a rotation within
/// rotation_tolerance (InvalidArgument otherwise).
template <class S>
State<S> from_idyntree_state(const Model<S>& model, const IDynTreeState<S>& st,
                             const JointPermutation& perm = JointPermutation()) {
  detail::require_permutation("from_idyntree_state", model, perm);
  detail::require_size("from_idyntree_state", "s", st.s.size(), model.nq_joints());
  detail::require_size("from_idyntree_state", "s_dot", st.s_dot.size(), model.nv_joints());
  State<S> x(model);
  x.s = perm.vector_to_ours(st.s, 0);
  x.r = perm.vector_to_ours(st.s_dot, 0);
  if (model.has_moving_base()) {
    liedyn::detail::check_rotation("from_idyntree_state", "the rotation of world_T_base",
                                   st.world_T_base.template topLeftCorner<3, 3>());
    x.H = SE3<S>::from_matrix(st.world_T_base);
    x.nu = base_velocity_matrix(Convention(Library::iDynTree), x.H.rotation()).transpose() *
           st.base_velocity;
  }
  return x;
}

}  // namespace interop
}  // namespace liedyn
