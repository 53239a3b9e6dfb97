// liedyn — interop: MuJoCo's qpos and qvel for a model loaded from MJCF (load_mjcf_robot_file),
// where liedyn's joints are MuJoCo's hinge and slide joints in MuJoCo's order and the base frame
// is the free body's frame (docs/interop.md, "MJCF models and MuJoCo's state").
//
// What this adds to the MuJoCo convention of floating_base.hpp is the joint zero: liedyn's
// s = qpos − qpos0 per joint (MuJoCo's qpos0 is the joint's ref, MjcfRobot::qpos0). Velocities,
// accelerations, forces and matrices have no offset: velocity_to, acceleration_from/to,
// force_from/to and matrix_to with Library::MuJoCo convert them as they are.
#pragma once

#include "liedyn/interop/floating_base.hpp"

namespace liedyn {
namespace interop {

/// liedyn's state from MuJoCo's qpos (size 7 + n with a free base: [p; qw qx qy qz; joints],
/// else n) and qvel (nv: [ṗ in the world; ω in the base frame; joints]); qpos0 holds the n
/// joints' MuJoCo qpos0 (MjcfRobot::qpos0). The quaternion is normalized.
template <class S, class Dq, class Dv>
State<S> state_from_mujoco(const Model<S>& model, const VectorX<S>& qpos0,
                           const Eigen::MatrixBase<Dq>& qpos, const Eigen::MatrixBase<Dv>& qvel) {
  liedyn::detail::require_one_dof_joints("state_from_mujoco", model);
  detail::require_size("state_from_mujoco", "qpos0", qpos0.size(), model.nq_joints());
  detail::require_size("state_from_mujoco", "qpos", qpos.size(),
                       configuration_size<S>(Library::MuJoCo, model));
  VectorX<S> q = qpos;
  q.tail(model.nq_joints()) -= qpos0;
  return state_from(Library::MuJoCo, model, q, qvel);
}

/// MuJoCo's qpos of the state x (quaternion with w ≥ 0; joints s + qpos0), qpos0 as for
/// state_from_mujoco. Its qvel is velocity_to(Library::MuJoCo, model, x).
template <class S>
VectorX<S> mujoco_qpos(const Model<S>& model, const VectorX<S>& qpos0, const State<S>& x) {
  liedyn::detail::require_one_dof_joints("mujoco_qpos", model);
  detail::require_size("mujoco_qpos", "qpos0", qpos0.size(), model.nq_joints());
  VectorX<S> q = configuration_to(Library::MuJoCo, model, x);
  q.tail(model.nq_joints()) += qpos0;
  return q;
}

}  // namespace interop
}  // namespace liedyn
