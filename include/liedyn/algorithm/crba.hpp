// liedyn — algorithm: the composite-rigid-body algorithm (CRBA) for the mass matrix of a
// moving-base (or welded-base) tree.
//
// Frames and order (docs/conventions.md §2): M is (nv × nv), BASE FIRST,
//   M = [ M^c_0  F ; Fᵀ  M_JJ ]   (moving base)      M = M_JJ   (welded base)
// with M^c_0 the composite inertia of the whole tree in the base frame (the 6×6 matrix of
// data.inverse_dynamics.Ic[0]), F = _0F the base–joint block (column j−1: the wrench _0X^j M^c_j
// Γ_j that joint j's unit acceleration needs, in the base frame — EIDAmb's lines 32–38**), and M_JJ
// the classic joint-space block
//   M_ij = Γ_iᵀ (_iX^j M^c_j Γ_j)  for i an ancestor of j (or i = j),  0 off the branch,
// plus the armature on the diagonal. M depends on the joint positions s only (base-frame
// coordinates), never on H, ν or r.
//
// Algorithm (Featherstone, RBDA §6.2): the composite inertias M^c_i are accumulated
// in the body frames, as in the textbook, and the diagonal entry Γ_iᵀ M^c_i Γ_i is formed there:
// about the joint, along its own axis, so a light body far from the base keeps its digits (in
// the base frame its m·|p|² terms cancel, losing ~|p|²/d² of them: 1e-12 relative on talos'
// fingers, where Pinocchio's world-frame CRBA lands). The entries above the diagonal take one of
// two routes, chosen by the tree's shape (both keep those digits: the test on talos runs both):
//  * walk (Σ depth ≤ 8 n: quadrupeds, humanoids, short arms): F = M^c_j Γ_j moves up one frame
//    per ancestor k, M_kj = Γ_kᵀ (_kX^j F) — the textbook's d transforms per joint, done a
//    subtree's block of columns per pose (crba_walk). Across a revolute joint about ±e_k whose
//    placement is unrotated (nearly every joint of legged robots; arms' URDFs often rotate theirs)
//    a move turns two coordinates of each 3-vector instead of multiplying by a 3×3 rotation
//    (Joint::forces_to_parent), and a composite inertia turns two of its axes
//    (Joint::add_inertia_to_parent);
//  * base frame (deeper trees — long chains): F_j = ^0X_j M^c_j Γ_j is formed once per joint and
//    row k of M over subtree(k) is S_kᵀ times a contiguous block of those columns, S_k = ^0X_k Γ_k
//    — three transforms per joint whatever its depth, then one 6-term dot product per entry.
// The crossover Σ depth = 8 n (CrbaRoute::Automatic) was set by timing both routes on real and
// random trees; CrbaRoute selects either explicitly. Both
// triangles are written; entries between different branches are zero.
//
// Every joint type: a joint of n degrees of freedom owns n consecutive rows and columns, its
// block Γ_iᵀ M^c_i Γ_i(q) on the diagonal (Γ(q) depends on q for the universal joint only).
//
// Writes data.kinematics.H_parent, data.inverse_dynamics.Ic (composite inertias, body frames;
// Ic[0], in the base frame, is the whole robot's), data.inverse_dynamics.F (moving base) and
// data.M; the base-frame route also data.kinematics.H_base
// (^0H_i) and, for the 1-DoF joints, data.derivatives.axis (S_i).
// M is cleared on every call before the pattern is written, so the entries between
// different branches are zero whatever data.M held: nothing relies on it keeping a value.
// Cost O(n·d) (d = tree depth). No allocation.
#pragma once

#include "liedyn/algorithm/common.hpp"
#include "liedyn/arithmetic/dense.hpp"

namespace liedyn {

/// How crba forms the entries above the diagonal (this header's comment). Both routes give the
/// same M to rounding; they differ in cost with the tree's shape.
enum class CrbaRoute {
  Automatic,  ///< Walk if Σ depth ≤ 8 n (crba_automatic_route), else BaseFrame
  Walk,       ///< up the body frames: d transforms per joint (d its depth)
  BaseFrame,  ///< through the base frame: three transforms per joint, one dot product per entry
};

/// The route CrbaRoute::Automatic takes on this model: Walk when Σ_i depth(i) ≤ 8 n
/// (quadrupeds, humanoids, short arms), BaseFrame for deeper trees (long chains).
template <class S>
CrbaRoute crba_automatic_route(const Model<S>& model) {
  return model.total_depth() <= 8 * model.num_joints() ? CrbaRoute::Walk : CrbaRoute::BaseFrame;
}

namespace detail {

/// crba from data.kinematics.H_parent (update_joint_transforms at s), walking F up the body frames.
///
/// One backward sweep. data.inverse_dynamics.F holds F_j = M^c_j Γ_j for every joint j already
/// visited, in the frame of the body being visited: at body i the columns of subtree(i) (contiguous
/// in the model's order) are all in frame i, row i of M is Γ_iᵀ times them, and one transform moves
/// the whole block to frame λ(i). The transforms are those of the textbook walk (Σ depth of them),
/// but one pose serves a block of columns instead of one column at a time; the block reaching the
/// base frame is the base–joint block.
template <class S>
void crba_walk(const Model<S>& model, Data<S>& data) {
  const int nb = model.num_bodies(), off = model.offset();
  for (int i = 0; i < nb; ++i) data.inverse_dynamics.Ic[i] = model.inertia(i);
  MatrixX<S>& M = data.M;
  Matrix6X<S>& F = data.inverse_dynamics.F;
  for (int i = nb - 1; i >= 1; --i) {
    const int parent = model.parent(i), vi = model.v_index(i), ri = model.r_index(i);
    const int n = model.joint_nv(i);
    const Joint<S>& joint = model.joint(i);
    const auto q = data.kinematics.joint_q.segment(model.q_index(i), model.joint_nq(i));
    // Columns ri.. of F: joint i's n columns F_i = M^c_i Γ_i and those of its subtree, all in
    // frame i.
    auto subtree = F.middleCols(ri, model.r_index(model.subtree_end(i)) - ri);
    joint.inertia_times_subspace(data.inverse_dynamics.Ic[i], q, subtree.leftCols(n));  // M^c_i Γ_i
    // Rows and columns vi.. of M: Γ_iᵀ F over subtree(i) (RBDA Table 6.2, the inner loop's f_j).
    // Within the joint's own n × n block both writes of an entry hold the same product pair, the
    // later one wins for both: M stays exactly symmetric.
    joint.project_each(q, subtree, [&](int a, Eigen::Index c, const S& Mij) {
      M(vi + a, vi + c) = Mij;
      M(vi + c, vi + a) = Mij;
    });
    for (int a = 0; a < n; ++a) M(vi + a, vi + a) += joint.armature;
    // M^c_λ += _λX^i M^c_i ^iX_λ
    joint.add_inertia_to_parent(data.kinematics.H_parent[i], data.inverse_dynamics.Ic[i],
                                data.inverse_dynamics.Ic[parent]);
    // A welded base's children need no move: F is then scratch.
    if (parent > 0 || off > 0)
      joint.forces_to_parent(data.kinematics.H_parent[i], subtree);  // f ← _λX^i f
  }
  if (off == 0) return;
  M.template topLeftCorner<6, 6>() = data.inverse_dynamics.Ic[0].matrix();
  M.topRightCorner(6, F.cols()) = F;
  M.bottomLeftCorner(F.cols(), 6) = F.transpose();
}

/// crba from data.kinematics.H_parent (update_joint_transforms at s), through the base frame.
///
/// F_j = ^0X_j M^c_j Γ_j is formed once per joint, in data.inverse_dynamics.F (the base–joint block
/// when the base moves), and row i of M over subtree(i) is S_iᵀ times those columns, S_i = ^0X_i
/// Γ_i: the subtree's columns are contiguous in the model's order, so each row is one pass over a
/// block of data.inverse_dynamics.F with S_i held in registers.
template <class S>
void crba_base_frame(const Model<S>& model, Data<S>& data) {
  const int nb = model.num_bodies(), off = model.offset();
  data.kinematics.H_base[0] = SE3<S>::Identity();
  for (int i = 1; i < nb; ++i) {
    const int parent = model.parent(i);
    if (parent == 0) data.kinematics.H_base[i] = data.kinematics.H_parent[i];
    else
      model.joint(i).child_pose(data.kinematics.H_base[parent], data.kinematics.H_parent[i],
                                data.kinematics.H_base[i]);
    if (model.joint_nv(i) == 1)
      data.derivatives.axis[model.r_index(i)] =
          model.joint(i).subspace_in(data.kinematics.H_base[i]);  // S_i
  }
  for (int i = 0; i < nb; ++i) data.inverse_dynamics.Ic[i] = model.inertia(i);
  MatrixX<S>& M = data.M;
  Matrix6X<S>& F = data.inverse_dynamics.F;
  for (int i = nb - 1; i >= 1; --i) {
    const int ri = model.r_index(i), end = model.r_index(model.subtree_end(i));
    const int vi = off + ri, n = model.joint_nv(i);
    const Joint<S>& joint = model.joint(i);
    const auto q = data.kinematics.joint_q.segment(model.q_index(i), model.joint_nq(i));
    auto Fi = F.middleCols(ri, n);
    joint.inertia_times_subspace(data.inverse_dynamics.Ic[i], q, Fi);  // frame i
    // The diagonal block in frame i, about the joint (see the header for why); symmetric as in
    // crba_walk.
    joint.project_each(q, Fi, [&](int a, Eigen::Index c, const S& Mac) {
      M(vi + a, vi + c) = Mac;
      M(vi + c, vi + a) = Mac;
    });
    for (int a = 0; a < n; ++a) M(vi + a, vi + a) += joint.armature;
    data.kinematics.H_base[i].act_forces(Fi, Fi);  // to the base frame
    // A 1-DoF joint's S_i is held in registers across the row.
    if (n == 1) {
      const Vector6<S> Si = data.derivatives.axis[ri].vector();
      for (int c = ri + 1; c < end; ++c) {
        const S Mic = Si.dot(F.col(c));
        M(vi, off + c) = Mic;
        M(off + c, vi) = Mic;
      }
    } else {
      Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> Si(6, n);
      joint.subspace_in(data.kinematics.H_base[i], q, Si);  // S_i = ^0X_i Γ_i
      for (int a = 0; a < n; ++a)
        for (int c = ri + n; c < end; ++c) {
          const S Mic = Si.col(a).dot(F.col(c));
          M(vi + a, off + c) = Mic;
          M(off + c, vi + a) = Mic;
        }
    }
    joint.add_inertia_to_parent(data.kinematics.H_parent[i], data.inverse_dynamics.Ic[i],
                                data.inverse_dynamics.Ic[model.parent(i)]);
  }
  if (off == 0) return;
  M.template topLeftCorner<6, 6>() = data.inverse_dynamics.Ic[0].matrix();
  M.topRightCorner(6, F.cols()) = F;
  M.bottomLeftCorner(F.cols(), 6) = F.transpose();
}

/// crba from data.kinematics.H_parent (current at the call's s), for the kernels that computed it
/// already.
template <class S>
void crba_from_transforms(const Model<S>& model, Data<S>& data, CrbaRoute route) {
  // The routes write M's joint columns on the tree's ancestor/descendant pattern only: those
  // columns are cleared first so that the entries between branches are zero whatever data.M
  // held — all their rows, so that they are one contiguous store (not one per column). The
  // base's columns are written whole.
  dense::set_zero_right_columns(data.M, model.nv_joints());
  if (route == CrbaRoute::Automatic) route = crba_automatic_route(model);
  if (route == CrbaRoute::Walk) crba_walk(model, data);
  else crba_base_frame(model, data);
}

}  // namespace detail

/// The joint-space mass matrix M(s) (both triangles), into data.M (nv × nv). `route` picks how
/// the entries above the diagonal are formed; the default follows crba_automatic_route.
template <class S, class Derived>
const MatrixX<S>& crba(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s,
                       CrbaRoute route = CrbaRoute::Automatic) {
  LIEDYN_CHECK_SIZE("crba", "s", s, model.nq_joints());
  detail::check_data_pairing("crba", model, data);
  detail::update_joint_transforms(model, data, s);
  detail::crba_from_transforms(model, data, route);
  return data.M;
}

/// The mass matrix at the joint positions of the state x (H, ν and r are not used).
template <class S>
const MatrixX<S>& crba(const Model<S>& model, Data<S>& data, const State<S>& x,
                       CrbaRoute route = CrbaRoute::Automatic) {
  detail::check_state("crba", model, x);
  return crba(model, data, x.s, route);
}

}  // namespace liedyn
