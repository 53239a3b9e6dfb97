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
// Passes (body i in its own frame; ^iX_λ = data.H_parent[i].act_inverse, _λX^i = .act):
//   forward   v_i = ^iX_λ v_λ + Γ_i r_i,  c_i = v_i × Γ_i r_i,
//             M^A_i = M_i,  p^A_i = v_i ×̄* M_i v_i − f_ext,i
//   backward  U_i = M^A_i Γ_i,  D_i = Γ_iᵀ U_i + armature_i,  u_i = τ_i − Γ_iᵀ p^A_i,
//             M^a_i = M^A_i − U_i D_i⁻¹ U_iᵀ,  p^a_i = p^A_i + M^a_i c_i + U_i D_i⁻¹ u_i,
//             M^A_λ += _λX^i M^a_i ^iX_λ,  p^A_λ += _λX^i p^a_i
//   base      a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0)  (moving; 6×6 Cholesky, detail::Cholesky6)   a'_0 =
//   a_g  (welded) forward   ṙ_i = D_i⁻¹ (u_i − U_iᵀ (^iX_λ a'_λ + c_i)),  a'_i = ^iX_λ a'_λ + c_i +
//   Γ_i ṙ_i
// Articulated inertias are general symmetric 6×6 matrices (not rigid-body inertias); they are
// moved to the parent frame block-wise with (R, p), without forming 6×6 transforms.
//
// Refuses a model with singular joints (ModelError naming them; model.singular_joints()).
// Writes data.H_parent, data.v, data.vJ, data.c, data.IA, data.pA, data.U, data.D, data.Dinv,
// data.u, data.a (a'_i) and data.ddq. Cost O(n). No allocation.
#pragma once

#include "liedyn/algorithm/common.hpp"
#include "liedyn/arithmetic/cholesky6.hpp"

namespace liedyn {

namespace detail {

/// out += _λX^i Ia ^iX_λ for a symmetric 6×6 articulated inertia Ia in frame i and
/// X = ^λH_i = (R, p). With Ia = [A B; Bᵀ C], A' = R A Rᵀ, B' = R B Rᵀ, C' = R C Rᵀ, P = p^:
///   _λX^i Ia ^iX_λ = [A', B' − A'P; B'ᵀ + P A', C' + P B' − B'ᵀP − P A' P].
template <class S>
void add_articulated_to_parent(const SE3<S>& X, const Matrix6<S>& Ia, Matrix6<S>& out) {
  const Matrix3<S>& R = X.rotation();
  const Matrix3<S> P = hat(X.translation());
  const Matrix3<S> A = R * Ia.template topLeftCorner<3, 3>() * R.transpose();
  const Matrix3<S> B = R * Ia.template topRightCorner<3, 3>() * R.transpose();
  const Matrix3<S> C = R * Ia.template bottomRightCorner<3, 3>() * R.transpose();
  const Matrix3<S> AP = A * P;
  const Matrix3<S> TR = B - AP;
  out.template topLeftCorner<3, 3>() += A;
  out.template topRightCorner<3, 3>() += TR;
  out.template bottomLeftCorner<3, 3>() += TR.transpose();
  out.template bottomRightCorner<3, 3>() += C + P * B - B.transpose() * P - P * AP;
}

/// M^A Γ for a 6×6 articulated inertia and a motion.
template <class S>
Force<S> apply_articulated(const Matrix6<S>& IA, const Motion<S>& m) {
  return Force<S>(Vector6<S>(IA * m.vector()));
}

}  // namespace detail

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
  const int off = model.offset();
  const bool moving = model.has_moving_base();

  // Forward pass: velocities, velocity-product accelerations, rigid-body inertias and bias.
  detail::update_joint_transforms(model, data, x.s);
  data.v[0] = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  data.c[0] = Motion<S>::Zero();
  data.IA[0] = model.inertia(0).matrix();
  data.pA[0] = model.inertia(0).bias_wrench(data.v[0]);
  if (fext) data.pA[0] -= (*fext)[0];
  for (int i = 1; i < nb; ++i) {
    const SpatialInertia<S>& Mi = model.inertia(i);
    data.vJ[i] = model.joint(i).screw * S(x.r(i - 1));
    data.v[i] = data.H_parent[i].act_inverse(data.v[model.parent(i)]) + data.vJ[i];
    data.c[i] = data.v[i].cross(data.vJ[i]);
    data.IA[i] = Mi.matrix();
    data.pA[i] = Mi.bias_wrench(data.v[i]);
    if (fext) data.pA[i] -= (*fext)[i];
  }

  // Backward pass: articulated inertias and bias wrenches.
  for (int i = nb - 1; i >= 1; --i) {
    const Joint<S>& j = model.joint(i);
    const int p = model.parent(i);
    const SE3<S>& X = data.H_parent[i];
    data.U[i] = j.matrix_times_subspace(data.IA[i]);
    data.D[i] = j.project(data.U[i]) + j.armature;
    data.Dinv[i] = S(1) / data.D[i];
    data.u[i] = S(tau(off + i - 1)) - j.project(data.pA[i]);
    const Vector6<S> UDinv = data.U[i] * data.Dinv[i];
    Matrix6<S> Ia = data.IA[i];
    Ia.noalias() -= UDinv * data.U[i].transpose();
    const Force<S> pa = data.pA[i] + detail::apply_articulated(Ia, data.c[i]) +
                        Force<S>(Vector6<S>(UDinv * data.u[i]));
    detail::add_articulated_to_parent(X, Ia, data.IA[p]);
    data.pA[p] += X.act(pa);
  }

  // The base: a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0), or gravity alone for a welded base.
  const Motion<S> a_grav = detail::gravity_in_base(model, x.H);
  if (moving) {
    const detail::Cholesky6<S> chol(data.IA[0]);
    const Vector6<S> rhs = Vector6<S>(tau.template head<6>()) - data.pA[0].vector();
    data.a[0] = Motion<S>(chol.solve(rhs));
    data.ddq.template head<6>() = (data.a[0] - a_grav).vector();
  } else {
    data.a[0] = a_grav;
  }

  // Forward pass: joint and body accelerations.
  for (int i = 1; i < nb; ++i) {
    const Motion<S> a_in = data.H_parent[i].act_inverse(data.a[model.parent(i)]) + data.c[i];
    const S qdd = data.Dinv[i] * (data.u[i] - data.U[i].dot(a_in.vector()));
    data.ddq(off + i - 1) = qdd;
    data.a[i] = a_in + model.joint(i).screw * qdd;
  }
  return data.ddq;
}

}  // namespace liedyn
