// liedyn — algorithm: forward dynamics by the articulated-body algorithm (ABA), for a moving
// base (Featherstone's floating-base ABA, RBDA §9.3 / Table 9.5) or a welded one
// (the classical ABA, RBDA Table 7.1).
//
// Frames and order (docs/conventions.md §2): x = (H, s, ν, r) with ν the base BODY twist; input
// τ̄ = [τ̄_b; τ] base first (τ̄ = τ for a welded base), τ̄_b the wrench applied to the base in
// the base frame — zero for a free-floating robot, the thrust for a base driven by a wrench;
// output ddq = [ν̇; ṙ] with ν̇ = ^0 a_{A,0} the base's intrinsic acceleration in its own frame.
// It solves M(s) ddq + h(x) = τ̄ + Σ J_iᵀ f_ext,i, i.e. it inverts rnea/eidamb.
// Gravity (§2) enters as the fictitious base acceleration a_g = ^0X_A (−[g; 0]): the recursion
// runs on the accelerations a'_i = a_i + ^iX_0 a_g and ν̇ = a'_0 − a_g at the end. Joint
// armature a_i adds to D_i (as it adds to M_ii). External wrenches: body frames, see
// ExternalWrenches.
//
// Frames: the mixed frames [i] of aza.hpp — the base frame's orientation, origin at body i's.
// RBDA's body-frame passes move every articulated inertia to its parent with a rotation and a
// translation (a 6×6 congruence); in the mixed frames only the translation by the joint offset
// d_i = p_i − p_λ is left, and motions and forces move by a cross product. The rotation is paid
// once per body, on its rigid-body inertia and axis. D_i, u_i and ṙ_i are frame-independent,
// so every output is RBDA's (the textbook twin in textbook.hpp runs the body-frame passes).
// With R_i, p_i the rotation and origin of body i in the base frame (data.H_base), X_[λ←i] the
// move of the origin from p_i to p_λ:
//   forward   S_i = R_i Γ_i,  v_i = v_λ shifted by d_i + S_i r_i,  c_i = v_i × S_i r_i,
//             M^A_i = R_i M_i R_iᵀ,  p^A_i = v_i ×̄* M^A_i v_i − R_i f_ext,i
//   backward  U_i = M^A_i S_i,  D_i = S_iᵀ U_i + armature_i,  u_i = τ_i − S_iᵀ p^A_i,
//             M^a_i = M^A_i − U_i D_i⁻¹ U_iᵀ,  p^a_i = p^A_i + M^a_i c_i + U_i D_i⁻¹ u_i,
//             M^A_λ += X_[λ←i] M^a_i (translated),  p^A_λ += p^a_i shifted by −d_i
//   base      a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0)  (moving; 6×6 Cholesky)  a'_0 = a_g  (welded)
//   forward   ṙ_i = D_i⁻¹ (u_i − U_iᵀ (a'_λ shifted by d_i + c_i)),  a'_i = … + S_i ṙ_i
// [0] is the base frame itself (R_0 = 1, p_0 = 0), so a'_0 and the base rows are RBDA's.
//
// Refuses a model with singular joints (ModelError naming them; model.singular_joints()).
// Writes data.H_parent, data.H_base, and in the mixed frames data.aba_S, data.aba_v, data.c,
// data.IA, data.pA, data.U, data.aba_a (a'_i); data.D, data.Dinv, data.u and data.ddq. Cost
// O(n). No allocation.
#pragma once

#include "liedyn/algorithm/aza.hpp"
#include "liedyn/arithmetic/cholesky6.hpp"

namespace liedyn {

/// Forward dynamics ddq = M(s)⁻¹ (τ̄ + Σ J_iᵀ f_ext,i − h(x)) by the articulated-body algorithm.
/// Returns data.ddq (size model.nv()).
template <class S, class Derived>
const VectorX<S>& aba(const Model<S>& model, Data<S>& data, const State<S>& x,
                      const Eigen::MatrixBase<Derived>& tau,
                      const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("aba", model, x);
  detail::check_data("aba", model, data);
  LIEDYN_CHECK_SIZE("aba", "tau", tau, model.nv());
  detail::check_wrenches("aba", model, fext);
  model.require_invertible_mass_matrix("aba");
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();

  // Forward pass: axes, velocities, velocity-product accelerations, inertias and bias wrenches.
  detail::update_poses(model, data, x.s);
  data.aba_v[0] = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  data.c[0] = Motion<S>::Zero();
  model.inertia(0).matrix_into(data.IA[0]);
  data.pA[0] = model.inertia(0).bias_wrench(data.aba_v[0]);
  if (fext) data.pA[0] -= (*fext)[0];
  for (int i = 1; i < nb; ++i) {
    const int p = model.parent(i);
    const Matrix3<S>& R = data.H_base[i].rotation();
    const Vector3<S> d = data.H_base[i].translation() - data.H_base[p].translation();
    const SpatialInertia<S> Mi = model.inertia(i).rotated(R);
    data.aba_S[i] = model.joint(i).subspace_rotated(R);
    const Motion<S> vJ = data.aba_S[i] * S(x.r(model.r_index(i)));
    data.aba_v[i] = data.aba_v[p].shifted(d) + vJ;
    data.c[i] = data.aba_v[i].cross(vJ);
    Mi.matrix_into(data.IA[i]);
    data.pA[i] = Mi.bias_wrench(data.aba_v[i]);
    if (fext) data.pA[i] -= (*fext)[i].rotated(R);
  }

  // Backward pass: articulated inertias and bias wrenches, moved to the parent by translation.
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    const Vector6<S>& Si = data.aba_S[i].vector();
    const Vector3<S> d = data.H_base[i].translation() - data.H_base[p].translation();
    data.U[i].noalias() = data.IA[i] * Si;
    data.D[i] = Si.dot(data.U[i]) + model.joint(i).armature;
    data.Dinv[i] = S(1) / data.D[i];
    data.u[i] = S(tau(model.v_index(i))) - Si.dot(data.pA[i].vector());
    // M^a_i c_i = M^A_i c_i − U_i D_i⁻¹ (U_iᵀ c_i), without forming M^a_i.
    const Vector6<S> IAc = data.IA[i] * data.c[i].vector();
    const S k = data.Dinv[i] * (data.u[i] - data.U[i].dot(data.c[i].vector()));
    const Force<S> pa = data.pA[i] + Force<S>(Vector6<S>(IAc + data.U[i] * k));
    detail::add_articulated_translated(d, data.IA[i], data.U[i], data.Dinv[i], data.IA[p]);
    data.pA[p] += pa.shifted(Vector3<S>(-d));
  }

  // The base: a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0), or gravity alone for a welded base.
  const Motion<S> a_grav = detail::gravity_in_base(model, x.H);
  if (moving) {
    const detail::Cholesky6<S> chol(data.IA[0]);
    const Vector6<S> rhs = Vector6<S>(tau.template head<6>()) - data.pA[0].vector();
    data.aba_a[0] = Motion<S>(chol.solve(rhs));
    data.ddq.template head<6>() = (data.aba_a[0] - a_grav).vector();
  } else {
    data.aba_a[0] = a_grav;
  }

  // Forward pass: joint and body accelerations.
  for (int i = 1; i < nb; ++i) {
    const int p = model.parent(i);
    const Vector3<S> d = data.H_base[i].translation() - data.H_base[p].translation();
    const Motion<S> a_in = data.aba_a[p].shifted(d) + data.c[i];
    const S qdd = data.Dinv[i] * (data.u[i] - data.U[i].dot(a_in.vector()));
    data.ddq(model.v_index(i)) = qdd;
    data.aba_a[i] = a_in + data.aba_S[i] * qdd;
  }
  return data.ddq;
}

}  // namespace liedyn
