// liedyn — algorithm: IMMAmb, the analytic inverse of the mass matrix of a moving-base robot
// (Table 9 of Bos, Traversaro, Pucci, Saccon 2022; shared/seeds/000_…), with the table's three
// defects fixed (conventions.md §6):
//   1. M^A_0 = M_0 is initialized with the other bodies (lines 1–5 run from i = 0);
//   2. line 18 reads 𝓟_λ(i)[:, i+6:] (the table prints 𝓟_λ(i)[i:i+6:]);
//   3. the block Minv[joints, base] = Minv[base, joints]ᵀ is written (next to line 20).
// For a welded base it is the same recursion without the base (Carpentier's analytic inverse
// of the joint-space inertia matrix): 𝓟_0 = 0 and there are no base rows or columns.
//
// Frames and order (conventions.md §2): Minv = M(s)⁻¹, (nv × nv), BASE FIRST — the table's
// index i+6 (1-based, base in 1..6) is our row model.v_index(i) = offset() + i − 1, and the
// table's base block 1:6 is our 0..5. Both triangles are written. M^A_i, U_i, D_i live in body
// frame i; 𝓕_i (data.Fset[i]) and 𝓟_i (data.Pset[i]) are 6 × n, column j − 1 for joint j:
// 𝓕_i[:, j] is the wrench on body i from a unit generalized force at joint j in i's subtree,
// 𝓟_i[:, j] the acceleration of body i produced by a unit generalized force at joint j.
// Joint armature adds to D_i (so this inverts crba's M, armature included).
//
// Column sets: in our depth-first numbering the table's subtree(i)+6 is the contiguous range
// of joints [i, model.subtree_end(i)); lines 10–11 touch only those columns. Lines 17–18 run
// over joints [i, n] for a moving base (every pair couples through the base); for a welded
// base only over the subtree of i's top-most ancestor below the base (M is block diagonal
// across those subtrees). Minv is column-major, so each table row Minv[i+6, ·] of the upper
// triangle is built in column v_index(i) (the lower triangle) and mirrored at the end
// (lines 21–25): same numbers, contiguous memory.
//
// Refuses a model with singular joints (ModelError naming them). Writes data.H_parent,
// data.IA (M^A_i; M^a_i is a local), data.U, data.D, data.Dinv, data.Fset, data.Pset and
// data.Minv. Cost O(n²) (O(n·d) for the recursion plus the dense output). No allocation.
#pragma once

#include "liedyn/algorithm/aba.hpp"

namespace liedyn {

/// The inverse mass matrix M(s)⁻¹ (both triangles) by IMMAmb (Table 9), into data.Minv.
template <class S, class Derived>
const MatrixX<S>& immamb(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("immamb", "s", s, model.num_joints());
  model.require_invertible_mass_matrix("immamb");
  const int nb = model.num_bodies();
  const int n = model.num_joints();
  const int off = model.offset();
  const bool moving = model.has_moving_base();
  MatrixX<S>& Minv = data.Minv;
  Minv.setZero();

  // Lines 1–5: jcalc, ^iX_λ(i) (as ^λ(i)H_i) and M^A_i = M_i — for i = 0 too (defect 1).
  detail::update_joint_transforms(model, data, s);
  for (int i = 0; i < nb; ++i) data.IA[i] = model.inertia(i).matrix();
  // 𝓕_i starts at zero on the columns it accumulates (subtree(i); all joints for the base).
  if (moving) data.Fset[0].setZero();
  for (int i = 1; i < nb; ++i) data.Fset[i].middleCols(i - 1, model.subtree_end(i) - i).setZero();

  // Lines 6–14: backward pass.
  for (int i = nb - 1; i >= 1; --i) {
    const Joint<S>& j = model.joint(i);
    const Vector6<S>& G = j.screw.vector();
    const int p = model.parent(i);
    const int vi = off + i - 1;
    const int end = model.subtree_end(i);  // joints i..end−1 = subtree(i)
    Matrix6X<S>& Fi = data.Fset[i];
    data.U[i] = data.IA[i] * G;                                      // line 7
    data.D[i] = G.dot(data.U[i]) + j.armature;                       // line 8 (+ armature)
    data.Dinv[i] = S(1) / data.D[i];
    Minv(vi, vi) = data.Dinv[i];                                     // line 9
    // Line 10: Minv[i, subtree(i)] −= D⁻¹ Γᵀ 𝓕_i[:, subtree(i)] (column i of 𝓕_i is zero: only
    // the children's subtrees were accumulated into it).
    for (int k = i + 1; k < end; ++k) Minv(off + k - 1, vi) -= data.Dinv[i] * G.dot(Fi.col(k - 1));
    // Line 11: 𝓕_λ[:, subtree(i)] += _λX^i (𝓕_i + U_i Minv[i, ·])[:, subtree(i)] (𝓕_i is not
    // needed afterwards, so the bracket is formed in place). Not needed for a welded base's 𝓕_0.
    if (moving || p > 0) {
      const SE3<S>& X = data.H_parent[i];
      Matrix6X<S>& Fp = data.Fset[p];
      for (int k = i; k < end; ++k) {
        const Vector6<S> w = Fi.col(k - 1) + data.U[i] * Minv(off + k - 1, vi);
        Fp.col(k - 1) += X.act(Force<S>(w)).vector();
      }
    }
    // Lines 12–13: M^a_i = M^A_i − U_i D_i⁻¹ U_iᵀ; M^A_λ += _λX^i M^a_i ^iX_λ.
    if (moving || p > 0) {
      Matrix6<S> Ma = data.IA[i];
      Ma.noalias() -= (data.U[i] * data.Dinv[i]) * data.U[i].transpose();
      detail::add_articulated_to_parent(data.H_parent[i], Ma, data.IA[p]);
    }
  }

  // Line 15: 𝓟_0[:, 7:] = −(M^A_0)⁻¹ 𝓕_0[:, 7:]; line 26: Minv[1:6, 1:6] = (M^A_0)⁻¹.
  if (moving) {
    const Matrix6<S> IA0inv = detail::Cholesky6<S>(data.IA[0]).inverse();
    Minv.template topLeftCorner<6, 6>() = IA0inv;  // line 26
    for (int k = 0; k < n; ++k) data.Pset[0].col(k) = -(IA0inv * data.Fset[0].col(k));
  }

  // Lines 16–19: forward pass. Columns [i, last) of the row of joint i (see the header).
  int last = n + 1;
  for (int i = 1; i < nb; ++i) {
    const Vector6<S>& G = model.joint(i).screw.vector();
    const int p = model.parent(i);
    const int vi = off + i - 1;
    if (!moving && p == 0) last = model.subtree_end(i);
    Matrix6X<S>& Pi = data.Pset[i];
    if (!moving && p == 0) {
      // 𝓟_0 = 0: line 17 adds nothing, line 18 reduces to Γ_i Minv[i, i:].
      for (int k = i; k < last; ++k) Pi.col(k - 1) = G * Minv(off + k - 1, vi);
      continue;
    }
    const SE3<S>& X = data.H_parent[i];
    const Matrix6X<S>& Pp = data.Pset[p];
    for (int k = i; k < last; ++k) {
      const Vector6<S> XP = X.act_inverse(Motion<S>(Pp.col(k - 1))).vector();  // ^iX_λ 𝓟_λ[:, k]
      S& m = Minv(off + k - 1, vi);
      m -= data.Dinv[i] * data.U[i].dot(XP);                              // line 17
      Pi.col(k - 1) = G * m + XP;                                          // line 18 (fixed)
    }
  }

  // Line 20 and its transpose (defect 3): the base–joint blocks.
  if (moving) {
    Minv.block(0, 6, 6, n) = data.Pset[0];
    Minv.block(6, 0, n, 6) = data.Pset[0].transpose();
  }
  // Lines 21–25: the other triangle of the joint block (we built the lower one, see header).
  for (int i = 1; i < nb; ++i) {
    const int vi = off + i - 1;
    for (int k = i + 1; k < nb; ++k) Minv(vi, off + k - 1) = Minv(off + k - 1, vi);
  }
  return Minv;
}

/// The inverse mass matrix at the joint positions of the state x.
template <class S>
const MatrixX<S>& immamb(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("immamb", model, x);
  return immamb(model, data, x.s);
}

}  // namespace liedyn
