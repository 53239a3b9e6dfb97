// liedyn — algorithm: the composite-rigid-body algorithm (CRBA) for the mass matrix of a
// moving-base (or welded-base) tree.
//
// Frames and order (docs/conventions.md §2): M is (nv × nv), BASE FIRST,
//   M = [ M^c_0  F ; Fᵀ  M_JJ ]   (moving base)      M = M_JJ   (welded base)
// with M^c_0 the composite inertia of the whole tree in the base frame (the 6×6 matrix of
// data.Ic[0]), F = _0F the base–joint block (column j−1: the wrench _0X^j M^c_j Γ_j that
// joint j's unit acceleration needs, in the base frame — EIDAmb's lines 32–38**), and M_JJ the
// classic joint-space block
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
//    placement is unrotated (nearly every joint of real robots) a move turns two coordinates of
//    each 3-vector instead of multiplying by a 3×3 rotation;
//  * base frame (deeper trees — long chains): F_j = ^0X_j M^c_j Γ_j is formed once per joint and
//    row k of M over subtree(k) is S_kᵀ times a contiguous block of those columns, S_k = ^0X_k Γ_k
//    — three transforms per joint whatever its depth, then one 6-term dot product per entry.
// The crossover Σ depth = 8 n (CrbaRoute::Automatic) was set by timing both routes on real and
// random trees (BENCHMARKS.md, design measurements); CrbaRoute selects either explicitly. Both
// triangles are written; entries between different branches are zero.
//
// Writes data.H_parent, data.Ic (composite inertias, body frames; Ic[0], in the base frame, is
// the whole robot's), data.F (moving base) and data.M; the base-frame route also data.H_base
// (^0H_i) and data.ground_axis (S_i).
// M's joint block is cleared on every call before the pattern is written, so the entries between
// different branches are zero whatever data.M held: nothing relies on it keeping a value.
// Cost O(n·d) (d = tree depth). No allocation.
#pragma once

#include <type_traits>

#include "liedyn/algorithm/common.hpp"

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

// k if the joint is revolute about ±e_k, so that Γ = ±(0; e_k); −1 otherwise.
template <class S>
int revolute_coordinate_axis(const Joint<S>& joint) {
  return joint.type == JointType::Revolute && joint.alignment != AxisAlignment::General
             ? static_cast<int>(joint.alignment)
             : -1;
}

// M^c Γ for the joint's screw Γ (both in the joint's body frame). For a revolute joint about ±e_k
// it is a column of the inertia's matrix, ±(−h × e_k; I_o e_k), read off instead of multiplied.
template <class S>
void composite_times_screw(const SpatialInertia<S>& I, const Joint<S>& joint, S* f) {
  const int k = revolute_coordinate_axis(joint);
  if (k < 0) {
    Eigen::Map<Vector6<S>> out(f);
    out = (I * joint.screw).vector();
    return;
  }
  const int a = (k + 1) % 3, b = (k + 2) % 3;
  const S sign = joint.axis(k);
  const Vector3<S>& h = I.first_moment();
  const Matrix3<S>& Io = I.inertia_origin();
  f[a] = -sign * h(b);
  f[b] = sign * h(a);
  f[k] = S(0);
  for (int r = 0; r < 3; ++r) f[3 + r] = sign * Io(r, k);
}

// S = ^0X_i Γ_i for the joint's screw Γ, given H = ^0H_i. About ±e_k it is ±(p × r_k; r_k) with
// r_k column k of the rotation: a column and a cross product instead of a motion transform.
template <class S>
Motion<S> ground_screw(const SE3<S>& H, const Joint<S>& joint) {
  const int k = revolute_coordinate_axis(joint);
  if (k < 0) return H.act(joint.screw);
  const Vec3<S> r = load3(H.rotation().data() + 3 * k), p = load3(H.translation().data());
  const S sign = joint.axis(k);
  const Vec3<S> v = cross3(p, r);
  return Motion<S>(Vector3<S>(sign * v.x, sign * v.y, sign * v.z), Vector3<S>(sign * r.x, sign * r.y, sign * r.z));
}

// f ← ^AX_B f for a wrench f = (force; moment) stored at f[0..5], H = ^AH_B, coefficient by
// coefficient (skew.hpp says why): faster than SE3::act_forces' Eigen form.
template <class S>
void act_force_in_place(const SE3<S>& H, S* f) {
  const Matrix3<S>& R = H.rotation();
  const Vec3<S> force = mul3(R, load3(f));
  const Vec3<S> moment = mul3(R, load3(f + 3)) + cross3(load3(H.translation().data()), force);
  store3(f, force);
  store3(f + 3, moment);
}

/// crba from data.H_parent (update_joint_transforms at s), walking F up the body frames.
///
/// One backward sweep. data.F holds F_j = M^c_j Γ_j for every joint j already visited, in the
/// frame of the body being visited: at body i the columns of subtree(i) (contiguous in the
/// model's order) are all in frame i, row i of M is Γ_iᵀ times them, and one transform moves the
/// whole block to frame λ(i). The transforms are those of the textbook walk (Σ depth of them), but
/// one pose serves a block of columns instead of one column at a time; the block reaching the
/// base frame is the base–joint block.
template <class S>
void crba_walk(const Model<S>& model, Data<S>& data) {
  const int nb = model.num_bodies(), off = model.offset();
  for (int i = 0; i < nb; ++i) data.Ic[i] = model.inertia(i);
  MatrixX<S>& M = data.M;
  Matrix6X<S>& F = data.F;
  for (int i = nb - 1; i >= 1; --i) {
    const int parent = model.parent(i), end = model.subtree_end(i) - 1, vi = off + i - 1;
    const Joint<S>& joint = model.joint(i);
    composite_times_screw(data.Ic[i], joint, F.data() + 6 * (i - 1));  // frame i
    // Row and column i of M: Γ_iᵀ F over subtree(i).
    auto fill = [&](auto project) {
      M(vi, vi) = project(F.data() + 6 * (i - 1)) + joint.armature;
      for (int c = i; c < end; ++c) {
        const S Mij = project(F.data() + 6 * c);
        M(vi, off + c) = Mij;
        M(off + c, vi) = Mij;
      }
    };
    if (const int k = revolute_coordinate_axis(joint); k >= 0) {
      // Γ = ±(0; e_k): Γᵀ f = ±n_k, one coefficient instead of a 6-term dot product.
      const S sign = joint.axis(k);
      fill([&](const S* f) { return sign * f[3 + k]; });
    } else {
      fill([&](const S* f) { return joint.screw.vector().dot(Eigen::Map<const Vector6<S>>(f)); });
    }
    data.Ic[parent].add_transformed(data.Ic[i], data.H_parent[i]);
    if (parent > 0 || off > 0) {  // a welded base's children need no move: F is then scratch
      // _λX^i on each column, coefficient by coefficient (skew.hpp says why): faster than
      // SE3::act_forces' Eigen form.
      S* const first = F.data() + 6 * (i - 1);
      S* const last = F.data() + 6 * end;
      const Vec3<S> p = load3(data.H_parent[i].translation().data());
      if (const int k = revolute_coordinate_axis(joint); k >= 0 && joint.placement_unrotated) {
        // R turns about the parent's own e_k: coordinates a and b mix, k stays.
        const S c = data.joint_cos(i - 1), s = joint.axis(k) * data.joint_sin(i - 1);
        auto move = [&](auto axis) {
          constexpr int kk = decltype(axis)::value, a = (kk + 1) % 3, b = (kk + 2) % 3;
          for (S* col = first; col != last; col += 6) {
            S f[3], n[3];
            f[kk] = col[kk];
            n[kk] = col[3 + kk];
            f[a] = c * col[a] - s * col[b];
            f[b] = s * col[a] + c * col[b];
            n[a] = c * col[3 + a] - s * col[3 + b];
            n[b] = s * col[3 + a] + c * col[3 + b];
            const Vec3<S> pf = cross3(p, Vec3<S>{f[0], f[1], f[2]});
            col[0] = f[0];
            col[1] = f[1];
            col[2] = f[2];
            col[3] = n[0] + pf.x;
            col[4] = n[1] + pf.y;
            col[5] = n[2] + pf.z;
          }
        };
        if (k == 0) move(std::integral_constant<int, 0>());
        else if (k == 1) move(std::integral_constant<int, 1>());
        else move(std::integral_constant<int, 2>());
      } else {
        const Matrix3<S>& R = data.H_parent[i].rotation();
        for (S* col = first; col != last; col += 6) {
          const Vec3<S> f = mul3(R, load3(col));
          const Vec3<S> n = mul3(R, load3(col + 3)) + cross3(p, f);
          store3(col, f);
          store3(col + 3, n);
        }
      }
    }
  }
  if (off == 0) return;
  M.template topLeftCorner<6, 6>() = data.Ic[0].matrix();
  M.topRightCorner(6, nb - 1) = F;
  M.bottomLeftCorner(nb - 1, 6) = F.transpose();
}

/// crba from data.H_parent (update_joint_transforms at s), through the base frame.
///
/// F_j = ^0X_j M^c_j Γ_j is formed once per joint, in data.F (the base–joint block when the base
/// moves), and row i of M over subtree(i) is S_iᵀ times those columns, S_i = ^0X_i Γ_i: the
/// subtree's columns are contiguous in the model's order, so each row is one pass over a block
/// of data.F with S_i held in registers.
template <class S>
void crba_base_frame(const Model<S>& model, Data<S>& data) {
  using Vector6Map = Eigen::Map<const Vector6<S>>;
  const int nb = model.num_bodies(), off = model.offset();
  data.H_base[0] = SE3<S>::Identity();
  for (int i = 1; i < nb; ++i) {
    const int parent = model.parent(i);
    data.H_base[i] = parent == 0 ? data.H_parent[i] : data.H_base[parent] * data.H_parent[i];
    data.ground_axis[i] = ground_screw(data.H_base[i], model.joint(i));
  }
  for (int i = 0; i < nb; ++i) data.Ic[i] = model.inertia(i);
  MatrixX<S>& M = data.M;
  Matrix6X<S>& F = data.F;
  for (int i = nb - 1; i >= 1; --i) {
    const int end = model.subtree_end(i) - 1, vi = off + i - 1;
    const Joint<S>& joint = model.joint(i);
    S* Fi = F.data() + 6 * (i - 1);
    composite_times_screw(data.Ic[i], joint, Fi);  // frame i
    // The diagonal in frame i, about the joint (see the header for why).
    const int k = revolute_coordinate_axis(joint);
    M(vi, vi) = (k >= 0 ? joint.axis(k) * Fi[3 + k] : joint.screw.vector().dot(Vector6Map(Fi))) + joint.armature;
    act_force_in_place(data.H_base[i], Fi);
    const Vector6<S> Si = data.ground_axis[i].vector();
    for (int c = i; c < end; ++c) {
      const S Mic = Si.dot(Vector6Map(F.data() + 6 * c));
      M(vi, off + c) = Mic;
      M(off + c, vi) = Mic;
    }
    data.Ic[model.parent(i)].add_transformed(data.Ic[i], data.H_parent[i]);
  }
  if (off == 0) return;
  M.template topLeftCorner<6, 6>() = data.Ic[0].matrix();
  M.topRightCorner(6, nb - 1) = F;
  M.bottomLeftCorner(nb - 1, 6) = F.transpose();
}

}  // namespace detail

/// The joint-space mass matrix M(s) (both triangles), into data.M (nv × nv). `route` picks how
/// the entries above the diagonal are formed; the default follows crba_automatic_route.
template <class S, class Derived>
const MatrixX<S>& crba(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s,
                       CrbaRoute route = CrbaRoute::Automatic) {
  LIEDYN_CHECK_SIZE("crba", "s", s, model.num_joints());
  detail::check_data("crba", model, data);
  detail::update_joint_transforms(model, data, s);
  // The routes write M's entries on the tree's ancestor/descendant pattern only: the joint block
  // is cleared first so that the entries between branches are zero whatever data.M held.
  data.M.bottomRightCorner(model.num_joints(), model.num_joints()).setZero();
  if (route == CrbaRoute::Automatic) route = crba_automatic_route(model);
  if (route == CrbaRoute::Walk)
    detail::crba_walk(model, data);
  else
    detail::crba_base_frame(model, data);
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
