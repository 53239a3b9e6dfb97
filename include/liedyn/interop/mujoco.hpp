// liedyn — interop: MuJoCo's qpos and qvel for a model loaded from MJCF (load_mjcf_robot_file),
// where liedyn's joints are MuJoCo's hinge, slide and ball joints in MuJoCo's order and the base
// frame is the free body's frame (docs/interop.md, "MJCF models and MuJoCo's state").
//
// What this adds to the MuJoCo convention of floating_base.hpp is the joint zero: liedyn's
// s = qpos − qpos0 per hinge or slide joint (MuJoCo's qpos0 is the joint's ref,
// MjcfRobot::qpos0); a ball joint's quaternion is its rotation itself (its qpos0 is the
// identity), written w first by MuJoCo and w last by liedyn. Velocities, accelerations, forces
// and matrices have no offset: velocity_to, acceleration_from/to, force_from/to and matrix_to
// with Library::MuJoCo convert them as they are (a ball joint's angular velocity is in the
// child frame in both).
#pragma once

#include "liedyn/interop/floating_base.hpp"

namespace liedyn {
namespace interop {

namespace detail {
/// q(offset + k) += sign · qpos0(k) for every coordinate k of a 1-DoF joint.
template <class S>
void add_joint_zero(const Model<S>& model, const VectorX<S>& qpos0, const S& sign, VectorX<S>& q) {
  const int offset = model.has_moving_base() ? 7 : 0;
  for (int i = 1; i < model.num_bodies(); ++i)
    if (model.joint(i).one_dof()) q(offset + model.q_index(i)) += sign * qpos0(model.q_index(i));
}
}  // namespace detail

/// liedyn's state from MuJoCo's qpos (size 7 + nq_joints with a free base: [p; qw qx qy qz;
/// joints], else nq_joints) and qvel (nv: [ṗ in the world; ω in the base frame; joints]); qpos0
/// holds the joints' MuJoCo qpos0 (MjcfRobot::qpos0, nq_joints). The base quaternion is
/// normalized.
template <class S, class Dq, class Dv>
State<S> state_from_mujoco(const Model<S>& model, const VectorX<S>& qpos0,
                           const Eigen::MatrixBase<Dq>& qpos, const Eigen::MatrixBase<Dv>& qvel) {
  detail::require_size("state_from_mujoco", "qpos0", qpos0.size(), model.nq_joints());
  detail::require_size("state_from_mujoco", "qpos", qpos.size(),
                       configuration_size<S>(Library::MuJoCo, model));
  VectorX<S> q = qpos;
  detail::add_joint_zero(model, qpos0, S(-1), q);
  return state_from(Library::MuJoCo, model, q, qvel);
}

/// MuJoCo's qpos of the state x (base quaternion with w ≥ 0; hinge and slide joints s + qpos0,
/// ball joints' quaternions w first), qpos0 as for state_from_mujoco. Its qvel is
/// velocity_to(Library::MuJoCo, model, x).
template <class S>
VectorX<S> mujoco_qpos(const Model<S>& model, const VectorX<S>& qpos0, const State<S>& x) {
  detail::require_size("mujoco_qpos", "qpos0", qpos0.size(), model.nq_joints());
  VectorX<S> q = configuration_to(Library::MuJoCo, model, x);
  detail::add_joint_zero(model, qpos0, S(1), q);
  return q;
}

}  // namespace interop
}  // namespace liedyn
