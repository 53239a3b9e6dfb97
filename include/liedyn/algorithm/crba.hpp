// liedyn — algorithm: the composite-rigid-body algorithm (CRBA) for the mass matrix of a
// moving-base (or welded-base) tree.
//
// Frames and order (conventions.md §2): M is (nv × nv), BASE FIRST,
//   M = [ M^c_0  F ; Fᵀ  M_JJ ]   (moving base)      M = M_JJ   (welded base)
// with M^c_0 the composite inertia of the whole tree in the base frame (the 6×6 matrix of
// data.Ic[0]), F = _0F the base–joint block (column j−1: the wrench _0X^j M^c_j Γ_j that joint
// j's unit acceleration needs, in the base frame — EIDAmb's lines 32–38**, the same matrix as
// eidamb's data.F) and M_JJ the classic joint-space block
//   M_ij = Γ_iᵀ (_iX^j M^c_j Γ_j)  for i an ancestor of j (or i = j),  0 off the branch,
// plus the armature on the diagonal. M depends on the joint positions s only (base-frame
// coordinates), never on H, ν or r.
//
// Algorithm (Featherstone, RBDA §6.2; seed 001): backward pass of composite inertias
// M^c_λ(i) += _λX^i M^c_i ^iX_λ (structured SpatialInertia sums, no 6×6 products); then for
// each joint j the wrench F = M^c_j Γ_j is carried up its support chain with the structured
// wrench transform, one dot product per ancestor. Both triangles are written; entries
// between different branches stay zero.
//
// Writes data.H_parent, data.Ic (composite inertias, frame i), data.F (moving base) and data.M.
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

  // Forward: joint transforms and the bodies' own inertias.
  detail::update_joint_transforms(model, data, s);
  for (int i = 0; i < nb; ++i) data.Ic[i] = model.inertia(i);
  // Backward: composite inertias M^c_λ(i) += _λX^i M^c_i ^iX_λ.
  for (int i = nb - 1; i >= 1; --i) data.Ic[model.parent(i)] += data.Ic[i].transformed(data.H_parent[i]);

  M.setZero();
  if (moving) M.template topLeftCorner<6, 6>() = data.Ic[0].matrix();

  for (int j = 1; j < nb; ++j) {
    const Motion<S>& Gj = model.joint(j).screw;
    const int vj = off + j - 1;
    Force<S> F = data.Ic[j] * Gj;  // _jF_j = M^c_j Γ_j
    M(vj, vj) = dot(Gj, F) + model.joint(j).armature;
    // Up the support chain: _λ(k)F = _λ(k)X^k _kF, M_{k', j} = Γ_k'ᵀ _k'F for every ancestor k'.
    int k = j;
    while (model.parent(k) > 0) {
      F = data.H_parent[k].act(F);
      k = model.parent(k);
      const S Mkj = dot(model.joint(k).screw, F);
      M(off + k - 1, vj) = Mkj;
      M(vj, off + k - 1) = Mkj;
    }
    if (moving) {
      F = data.H_parent[k].act(F);  // into the base frame
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
