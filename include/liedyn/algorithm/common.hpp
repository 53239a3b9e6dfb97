// liedyn — algorithm: what every kernel shares — input checks, the joint transforms pass and
// the external-wrench type.
#pragma once

#include <vector>

#include "liedyn/config.hpp"
#include "liedyn/model/data.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// External wrenches, one per body (index 0 = base), each applied to its body and expressed in
/// that body's frame, linear first: [force; moment about the body origin]. Kernels taking a
/// pointer to one treat nullptr as "no external wrench".
template <class S>
using ExternalWrenches = std::vector<Force<S>>;

namespace detail {

template <class S>
void check_state(const char* who, const Model<S>& model, const State<S>& x) {
  LIEDYN_CHECK_SIZE(who, "state.s", x.s, model.num_joints());
  LIEDYN_CHECK_SIZE(who, "state.r", x.r, model.num_joints());
  (void)who;
  (void)model;
  (void)x;
}

template <class S>
void check_wrenches(const char* who, const Model<S>& model, const ExternalWrenches<S>* fext) {
  LIEDYN_CHECK(fext == nullptr || static_cast<int>(fext->size()) == model.num_bodies(),
               std::string(who) + ": external wrenches must have one entry per body (" +
                   std::to_string(model.num_bodies()) + ")");
  (void)who;
  (void)model;
  (void)fext;
}

/// data.joint_sin, data.joint_cos = sin s, cos s, all joints in one batch (vectorized for double:
/// the sines and cosines are a tenth of a small robot's RNEA when taken one joint at a time).
template <class S, class Derived>
void update_joint_sin_cos(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  const int n = model.num_joints();
  data.joint_q = s;
  sin_cos(n, data.joint_q.data(), data.joint_sin.data(), data.joint_cos.data());
}

/// data.H_parent[i] = ^{λ(i)}H_i(s_i) for every joint (and data.joint_sin, data.joint_cos).
template <class S, class Derived>
void update_joint_transforms(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  update_joint_sin_cos(model, data, s);
  for (int i = 1; i < model.num_bodies(); ++i)
    model.joint(i).transform(data.joint_q(i - 1), data.joint_sin(i - 1), data.joint_cos(i - 1), data.H_parent[i]);
}

/// data.H_base[i] = ^0H_i (pose of body i in the base frame) from data.H_parent.
template <class S>
void update_base_poses(const Model<S>& model, Data<S>& data) {
  data.H_base[0] = SE3<S>::Identity();
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int p = model.parent(i);
    data.H_base[i] = p == 0 ? data.H_parent[i] : data.H_base[p] * data.H_parent[i];
  }
}

/// data.H_parent and data.H_base at the joint positions s.
template <class S, class Derived>
void update_poses(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  update_joint_transforms(model, data, s);
  update_base_poses(model, data);
}

/// Zeros in the joint columns of m where a tree has no entry: column first_col + j − 1 belongs to
/// joint j, row offset() + b − 1 to joint b, and the entry vanishes when b is neither an ancestor
/// nor a descendant of j (different branches). M, D2 and D4 share this pattern; their kernels
/// compute only the entries on it, and write these zeros on every call so that no output relies
/// on a value left by an earlier one (a user may overwrite any output). Base rows are not touched.
/// In the regular (depth-first) numbering the unrelated bodies of j are contiguous runs: those
/// after j's subtree, and those strictly between consecutive ancestors of j.
template <class S, class Derived>
void zero_between_branches(const Model<S>& model, Eigen::DenseBase<Derived>& m, int first_col) {
  const int off = model.offset(), nb = model.num_bodies();
  for (int j = 1; j < nb; ++j) {
    auto column = m.col(first_col + j - 1);
    const int end = model.subtree_end(j);
    if (end < nb) column.segment(off + end - 1, nb - end).setZero();
    for (int a = j, p = model.parent(j); a > 0; a = p, p = model.parent(p)) {
      const int first = p + 1;  // bodies p + 1 .. a − 1 hang from p before a's subtree
      if (a > first) column.segment(off + first - 1, a - first).setZero();
    }
  }
}

/// The fictitious base acceleration of gravity, ^0X_A (−[g; 0]), in the base frame.
template <class S>
Motion<S> gravity_in_base(const Model<S>& model, const SE3<S>& H) {
  return H.act_inverse(Motion<S>(Vector3<S>(-model.gravity()), Vector3<S>::Zero()));
}

}  // namespace detail
}  // namespace liedyn
