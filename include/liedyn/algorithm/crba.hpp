// liedyn — algorithm: the composite-rigid-body algorithm (CRBA) for the mass matrix of a
// moving-base (or welded-base) tree.
//
// Frames and order (conventions.md §2): M is (nv × nv), BASE FIRST,
//   M = [ M^c_0  F ; Fᵀ  M_JJ ]   (moving base)      M = M_JJ   (welded base)
// with M^c_0 the composite inertia of the whole tree in the base frame (the 6×6 matrix of
// data.Ic[0]), F = _0F the base–joint block (column j−1: the wrench _0X^j M^c_j Γ_j that
// joint j's unit acceleration needs, in the base frame — EIDAmb's lines 32–38**), and M_JJ the
// classic joint-space block
//   M_ij = Γ_iᵀ (_iX^j M^c_j Γ_j)  for i an ancestor of j (or i = j),  0 off the branch,
// plus the armature on the diagonal. M depends on the joint positions s only (base-frame
// coordinates), never on H, ν or r.
//
// Algorithm (Featherstone, RBDA §6.2; seed 001): the composite inertias M^c_i are accumulated
// in the body frames, as in the textbook, and the diagonal entry Γ_iᵀ M^c_i Γ_i is formed there:
// about the joint, along its own axis, so a light body far from the base keeps its digits (in
// the base frame its m·|p|² terms cancel, losing ~|p|²/d² of them: 1e-12 relative on talos'
// fingers, where Pinocchio's world-frame CRBA lands). Then the wrench M^c_j Γ_j and the axis
// move to the base frame 0 once (^0H_j from the same pass) and every entry above the diagonal
// is one 6-term dot product, M_kj = S_kᵀ (^0X_j M^c_j Γ_j) with S_k = ^0X_k Γ_k, for k an ancestor
// of j — no transform per (ancestor, joint) pair as in the body-frame version. Both triangles
// are written; entries between different branches stay zero.
//
// Writes data.H_parent, data.H_base (^0H_i), data.ground_axis (S_i), data.Ic (composite
// inertias, body frames; Ic[0], in the base frame, is the whole robot's), data.F (moving base)
// and data.M.
// Cost O(n·d) (d = tree depth) plus the O(nv²) zeroing of M. No allocation.
#pragma once

#include "liedyn/algorithm/common.hpp"

namespace liedyn {

/// The joint-space mass matrix M(s) (both triangles), into data.M (nv × nv).
template <class S, class Derived>
const MatrixX<S>& crba(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("crba", "s", s, model.num_joints());
  const int nb = model.num_bodies();
  const int off = model.offset();
  const bool moving = model.has_moving_base();
  MatrixX<S>& M = data.M;

  // Forward: body poses and axes in the base frame.
  data.H_base[0] = SE3<S>::Identity();
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    data.H_parent[i] = j.transform(S(s(i - 1)));
    data.H_base[i] = data.H_base[model.parent(i)] * data.H_parent[i];
    data.ground_axis[i] = data.H_base[i].act(j.screw);
  }
  // Backward: composite inertias in the body frames.
  for (int i = 0; i < nb; ++i) data.Ic[i] = model.inertia(i);
  for (int i = nb - 1; i >= 1; --i) data.Ic[model.parent(i)] += data.Ic[i].transformed(data.H_parent[i]);

  M.setZero();
  if (moving) M.template topLeftCorner<6, 6>() = data.Ic[0].matrix();

  for (int j = 1; j < nb; ++j) {
    const int vj = off + j - 1;
    const Joint<S>& joint = model.joint(j);
    const Force<S> Fj = data.Ic[j] * joint.screw;  // M^c_j Γ_j, frame j
    M(vj, vj) = dot(joint.screw, Fj) + joint.armature;
    const Force<S> F = data.H_base[j].act(Fj);
    for (int k = model.parent(j); k > 0; k = model.parent(k)) {
      const S Mkj = dot(data.ground_axis[k], F);
      M(off + k - 1, vj) = Mkj;
      M(vj, off + k - 1) = Mkj;
    }
    if (moving) {
      data.F.col(j - 1) = F.vector();
      M.col(vj).template head<6>() = F.vector();
      M.row(vj).template head<6>() = F.vector().transpose();
    }
  }
  return M;
}

/// The mass matrix at the joint positions of the state x (H, ν and r are not used).
template <class S>
const MatrixX<S>& crba(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("crba", model, x);
  return crba(model, data, x.s);
}

}  // namespace liedyn
