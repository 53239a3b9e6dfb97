// liedyn — algorithm: the kinetic and potential energy of a moving-base (or welded-base) tree.
//
// Kinetic energy T = ½ Σ_i v_iᵀ I_i v_i with v_i = ^i v_{A,i} the body twists (body frames), equal
// to ½ ν̄ᵀ M ν̄ (joint armature, a rotor's inertia, is not a body: it is in M, not in T).
// Potential energy of gravity U = −gᵀ Σ_i m_i p_i = −m gᵀ p_com, zero with the CoM at the
// inertial origin A (g: the model's gravity, inertial frame). No allocation; O(n).
#pragma once

#include "liedyn/algorithm/kinematics.hpp"

namespace liedyn {

/// Kinetic energy ½ Σ v_iᵀ I_i v_i of the bodies (armature excluded) at state x. Writes data's
/// kinematics fields (H_parent, joint_*, v, vJ).
template <class S>
S kinetic_energy(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("kinetic_energy", model, x);
  detail::check_data_pairing("kinetic_energy", model, data);
  detail::update_joint_transforms(model, data, x.s);
  forward_velocity(model, data, x);
  S T(0);
  for (int i = 0; i < model.num_bodies(); ++i)
    T += dot(data.kinematics.v[i], model.inertia(i) * data.kinematics.v[i]);
  return S(0.5) * T;
}

/// Potential energy −gᵀ Σ m_i p_i of gravity (zero at the inertial origin, p_i in A). Writes
/// data.kinematics.H_parent, data.kinematics.H_world, joint_*.
template <class S>
S potential_energy(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("potential_energy", model, x);
  detail::check_data_pairing("potential_energy", model, data);
  forward_poses(model, data, x);
  Vector3<S> moment = Vector3<S>::Zero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    const SpatialInertia<S>& I = model.inertia(i);
    const SE3<S>& X = data.kinematics.H_world[i];
    moment += X.rotation() * I.first_moment() + I.mass() * X.translation();
  }
  return -model.gravity().dot(moment);
}

}  // namespace liedyn
