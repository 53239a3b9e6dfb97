// liedyn — algorithm: what every kernel shares — input checks, the joint transforms pass and
// the external-wrench type.
#pragma once

#include <vector>

#include "liedyn/algorithm/data.hpp"
#include "liedyn/config.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// External wrenches, one per body (index 0 = base), each applied to its body and expressed in
/// that body's frame, linear first: [force; moment about the body origin]. Kernels taking a
/// pointer to one treat nullptr as "no external wrench".
template <class S>
using ExternalWrenches = std::vector<Force<S>>;

namespace detail {

/// Whether a pass includes gravity (the base's −a_g): the Coriolis terms are computed without.
enum class GravityTerm { Included, Excluded };

/// The state's joint vectors have the model's sizes (check_state_sizes, named "state").
template <class S>
void check_state(const char* who, const Model<S>& model, const State<S>& x) {
  check_state_sizes(who, "state", model, x);
}

/// The Data was sized (Data::resize) for this very model: a Data of another model of the same
/// size would otherwise run and return a plausible wrong answer.
template <class S>
void check_data_pairing(const char* who, const Model<S>& model, const Data<S>& data) {
  LIEDYN_CHECK(data.model_id == model.id(),
               std::string(who) +
                   ": data was sized for another model (build it with Data(model) or call " +
                   "data.resize(model))");
}

/// An external-wrench vector, when given, has one entry per body.
template <class S>
void check_wrenches(const char* who, const Model<S>& model, const ExternalWrenches<S>* fext) {
  LIEDYN_CHECK(fext == nullptr || static_cast<int>(fext->size()) == model.num_bodies(),
               std::string(who) + ": external wrenches has size " +
                   std::to_string(fext ? fext->size() : 0) + ", expected " +
                   std::to_string(model.num_bodies()) + " (one entry per body)");
}

/// data.kinematics.joint_sin, data.kinematics.joint_cos = sin s, cos s, all joints in one batch
/// (vectorized for double: taken one joint at a time they weigh on a small robot's O(n) kernels,
/// see sincos.hpp).
template <class S, class Derived>
void update_joint_sin_cos(const Model<S>& model, Data<S>& data,
                          const Eigen::MatrixBase<Derived>& s) {
  data.kinematics.joint_q = s;
  sin_cos(model.nq_joints(), data.kinematics.joint_q.data(), data.kinematics.joint_sin.data(),
          data.kinematics.joint_cos.data());
}

/// data.kinematics.H_parent[i] = ^{λ(i)}H_i(s_i) for every joint (and data.kinematics.joint_sin,
/// data.kinematics.joint_cos).
template <class S, class Derived>
void update_joint_transforms(const Model<S>& model, Data<S>& data,
                             const Eigen::MatrixBase<Derived>& s) {
  update_joint_sin_cos(model, data, s);
  // Unswitched on one_dof_joints_only(), as the kernels' loops are: a tree of 1-DoF joints runs
  // their transform alone, whose code then does not depend on how much of the multi-DoF types'
  // (quaternions, exponential maps) the compiler inlined next to it.
  if (model.one_dof_joints_only()) {
    for (int i = 1; i < model.num_bodies(); ++i) {
      const int k = model.q_index(i);
      model.joint(i).transform(data.kinematics.joint_q(k), data.kinematics.joint_sin(k),
                               data.kinematics.joint_cos(k), data.kinematics.H_parent[i]);
    }
    return;
  }
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int k = model.q_index(i);
    model.joint(i).transform(data.kinematics.joint_q.segment(k, model.joint_nq(i)),
                             data.kinematics.joint_sin(k), data.kinematics.joint_cos(k),
                             data.kinematics.H_parent[i]);
  }
}

/// data.kinematics.H_base[i] = ^0H_i (pose of body i in the base frame) from
/// data.kinematics.H_parent.
template <class S>
void update_base_poses(const Model<S>& model, Data<S>& data) {
  data.kinematics.H_base[0] = SE3<S>::Identity();
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int p = model.parent(i);
    if (p == 0) data.kinematics.H_base[i] = data.kinematics.H_parent[i];
    else
      model.joint(i).child_pose(data.kinematics.H_base[p], data.kinematics.H_parent[i],
                                data.kinematics.H_base[i]);
  }
}

/// data.kinematics.H_parent and data.kinematics.H_base at the joint positions s.
template <class S, class Derived>
void update_poses(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  update_joint_transforms(model, data, s);
  update_base_poses(model, data);
}

/// The fictitious base acceleration of gravity, ^0X_A (−[g; 0]), in the base frame.
template <class S>
Motion<S> gravity_in_base(const Model<S>& model, const SE3<S>& H) {
  return H.act_inverse(Motion<S>(Vector3<S>(-model.gravity()), Vector3<S>::Zero()));
}

}  // namespace detail
}  // namespace liedyn
