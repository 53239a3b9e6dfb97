// liedyn — algorithm: the workspace of the kinematic passes (kinematics.hpp, common.hpp), held
// by Data as data.kinematics and read by every kernel that needs the tree's poses and twists.
#pragma once

#include <vector>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// The poses and twists of every body. Per-body entries are indexed by body (0 = base) and
/// expressed in that body's frame unless their comment says otherwise.
template <class S>
struct KinematicsWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nb = model.num_bodies(), nq = model.nq_joints();
    H_parent.assign(nb, SE3<S>());
    joint_q.setZero(nq);
    joint_sin.setZero(nq);
    joint_cos.setZero(nq);
    H_world.assign(nb, SE3<S>());
    H_base.assign(nb, SE3<S>());
    v.assign(nb, Motion<S>());
    vJ.assign(nb, Motion<S>());
  }

  std::vector<SE3<S>> H_parent;  ///< ^{λ(i)}H_i(s_i); its inverse action is the paper's ^iX_{λ(i)}
  VectorX<S> joint_q;            ///< s, copied contiguous for the batched sin/cos
  VectorX<S> joint_sin;          ///< sin of each entry of s (joint i's at q_index(i))
  VectorX<S> joint_cos;          ///< cos of each entry of s
  std::vector<SE3<S>> H_world;   ///< ^A H_i (forward kinematics)
  std::vector<SE3<S>> H_base;    ///< ^0 H_i: body i in the base frame (crba, derivatives)
  std::vector<Motion<S>> v;      ///< twist of body i, ^i v_{A,i}
  std::vector<Motion<S>> vJ;     ///< joint velocity Γ_i r_i
};

}  // namespace liedyn
