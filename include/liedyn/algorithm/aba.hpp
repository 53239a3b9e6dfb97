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
// With R_i, p_i the rotation and origin of body i in the base frame (data.kinematics.H_base),
// X_[λ←i] the move of the origin from p_i to p_λ, and k_i the joint's degrees of freedom (S_i is 6
// × k_i, D_i k_i × k_i; RBDA §7.3 writes the algorithm for joints of any k):
//   forward   S_i = R_i Γ_i(q_i),  v_J = S_i r_i,  v_i = v_λ shifted by d_i + v_J,
//             c_i = v_i × v_J + R_i c_J  (c_J = Γ̇_i r_i: the universal joint's only),
//             M^A_i = R_i M_i R_iᵀ,  p^A_i = v_i ×̄* M^A_i v_i − R_i f_ext,i
//   backward  U_i = M^A_i S_i,  D_i = S_iᵀ U_i + armature_i 1,  u_i = τ_i − S_iᵀ p^A_i,
//             M^a_i = M^A_i − U_i D_i⁻¹ U_iᵀ,  p^a_i = p^A_i + M^a_i c_i + U_i D_i⁻¹ u_i,
//             M^A_λ += X_[λ←i] M^a_i (translated),  p^A_λ += p^a_i shifted by −d_i
//   base      a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0)  (moving; 6×6 Cholesky)  a'_0 = a_g  (welded)
//   forward   r̈_i = D_i⁻¹ (u_i − U_iᵀ (a'_λ shifted by d_i + c_i)),  a'_i = … + S_i r̈_i
// [0] is the base frame itself (R_0 = 1, p_0 = 0), so a'_0 and the base rows are RBDA's.
// A 1-DoF joint's steps (K = 1) are scalar: D_i is a number and the rank-one M^a_i is never
// formed, its term subtracted as each entry is read; they are inlined in the loops. A joint of
// k > 1 degrees of freedom takes the same formulas with k columns, out of line, as plain loops
// over arrays on the stack: of fixed trip count for k = 3, else K = Dynamic (with_joint_width in
// aza.hpp).
//
// Every joint type. Refuses a model with singular joints (ModelError naming them;
// model.singular_joints()). Writes data.kinematics.H_parent, data.kinematics.H_base, and in the
// mixed frames data.aba.S, v, c, IA, pA, U, a (a'_i); data.aba.Dinv, u
// and data.ddq. Cost O(n). No allocation.
#pragma once

#include "liedyn/algorithm/articulated_body_steps.hpp"
#include "liedyn/arithmetic/cholesky6.hpp"

namespace liedyn {
namespace detail {

/// ABA's first forward pass at body i (the header's "forward" lines): S_i, v_i, c_i, M^A_i and
/// p^A_i in the mixed frame [i].
template <int K, class S>
LIEDYN_ALWAYS_INLINE void aba_velocity_step(const Model<S>& model, Data<S>& data, const State<S>& x,
                                            int i, const ExternalWrenches<S>* fext) {
  const int p = model.parent(i), r = model.r_index(i), k = model.joint_nv(i);
  const Joint<S>& joint = model.joint(i);
  const auto q = data.kinematics.joint_q.segment(model.q_index(i), model.joint_nq(i));
  const auto rates = x.r.segment(r, k);
  const Matrix3<S>& R = data.kinematics.H_base[i].rotation();
  const Vector3<S> d =
      data.kinematics.H_base[i].translation() - data.kinematics.H_base[p].translation();
  Motion<S> vJ;
  if constexpr (K == 1) {  // Γ constant, one column: no bias c_J
    const Motion<S> Si = joint.subspace_rotated(R);
    data.aba.S.col(r) = Si.vector();
    vJ = Si * S(x.r(r));
  } else {
    auto Si = data.aba.S.middleCols(r, k);
    joint.subspace_in(SE3<S>(R, Vector3<S>::Zero()), q, Si);  // R Γ_i(q): axes turned only
    vJ = Motion<S>(Vector6<S>(Si * rates));
  }
  data.aba.v[i] = data.aba.v[p].shifted(d) + vJ;
  data.aba.c[i] = data.aba.v[i].cross(vJ);
  if constexpr (K != 1) data.aba.c[i] += joint.bias(q, rates).rotated(R);
  const SpatialInertia<S> Mi = model.inertia(i).rotated(R);
  Mi.matrix_into(data.aba.IA[i]);
  Mi.bias_wrench(data.aba.v[i], data.aba.pA[i]);
  if (fext) data.aba.pA[i] -= (*fext)[i].rotated(R);
}

/// ABA's backward pass at body i (the header's "backward" lines): U_i, D_i⁻¹, u_i, and M^a_i,
/// p^a_i added to the parent's. The columns are copied to the stack (at most 6 × 6), where every
/// product's temporary is too.
template <int K, class S, class Tau>
LIEDYN_ALWAYS_INLINE void aba_articulated_step(const Model<S>& model, Data<S>& data, int i,
                                               const Tau& tau) {
  const int p = model.parent(i), r = model.r_index(i);
  int k = model.joint_nv(i);
  const Vector3<S> d =
      data.kinematics.H_base[i].translation() - data.kinematics.H_base[p].translation();
  const Matrix6<S>& IA = data.aba.IA[i];
  const Vector6<S>& c = data.aba.c[i].vector();
  Vector6<S> pa = data.aba.pA[i].vector() + IA * c;  // p^a_i = p^A_i + M^A_i c_i + U_i w below
  if constexpr (K == 1) {  // D_i a number; M^a_i's rank-one term subtracted as it is read
    const Vector6<S> Si = data.aba.S.col(r);
    const Vector6<S> U = model.joint(i).times_rotated_subspace(IA, Si);
    const S Dinv = S(1) / (Si.dot(U) + model.joint(i).armature);
    const S u = S(tau(model.v_index(i))) - Si.dot(data.aba.pA[i].vector());
    data.aba.U.col(r) = U;
    data.aba.Dinv(r, 0) = Dinv;
    data.aba.u(r) = u;
    pa += U * (Dinv * (u - U.dot(c)));
    add_articulated_translated(d, IA, U, Dinv, data.aba.IA[p]);
  } else {
    // Plain loops over the k columns, copied to the stack, of trip count K when it is fixed:
    // Eigen's expressions here, at K = 3 and Dynamic, were most of aba's compile time.
    if constexpr (K != Eigen::Dynamic) k = K;
    S Sv[6][6], U[6][6], Dinv[6][6], u[6], w[6];  // Sv[t], U[t]: column t
    for (int t = 0; t < k; ++t)
      for (int row = 0; row < 6; ++row) Sv[t][row] = data.aba.S(row, r + t);
    articulated_columns<K>(IA, Sv, k, model.joint(i).armature, U, Dinv);
    const Vector6<S>& pA = data.aba.pA[i].vector();
    S uc[6];  // u − Uᵀ c
    for (int a = 0; a < k; ++a) {
      S sp = S(0), sum = S(0);
      for (int row = 0; row < 6; ++row) {
        sp += Sv[a][row] * pA(row);
        sum += U[a][row] * c(row);
      }
      u[a] = S(tau(model.v_index(i) + a)) - sp;
      uc[a] = u[a] - sum;
      for (int row = 0; row < 6; ++row) data.aba.U(row, r + a) = U[a][row];
      for (int b = 0; b < k; ++b) data.aba.Dinv(r + a, b) = Dinv[a][b];
      data.aba.u(r + a) = u[a];
    }
    for (int a = 0; a < k; ++a) {
      S sum = S(0);
      for (int b = 0; b < k; ++b) sum += Dinv[a][b] * uc[b];
      w[a] = sum;
    }
    for (int row = 0; row < 6; ++row) {  // pa += U w
      S sum = S(0);
      for (int a = 0; a < k; ++a) sum += U[a][row] * w[a];
      pa(row) += sum;
    }
    add_articulated_translated_arrays<K>(d, IA, U, Dinv, k, data.aba.IA[p]);  // M^a to the parent
  }
  data.aba.pA[p] += Force<S>(pa).shifted(Vector3<S>(-d));
}

/// ABA's last forward pass at body i: r̈_i and a'_i.
template <int K, class S>
LIEDYN_ALWAYS_INLINE void aba_acceleration_step(const Model<S>& model, Data<S>& data, int i) {
  const int p = model.parent(i), r = model.r_index(i), k = model.joint_nv(i);
  const Vector3<S> d =
      data.kinematics.H_base[i].translation() - data.kinematics.H_base[p].translation();
  const Motion<S> a_in = data.aba.a[p].shifted(d) + data.aba.c[i];
  if constexpr (K == 1) {
    const S ddr = data.aba.Dinv(r, 0) * (data.aba.u(r) - data.aba.U.col(r).dot(a_in.vector()));
    data.ddq(model.v_index(i)) = ddr;
    data.aba.a[i] = a_in + Motion<S>(Vector6<S>(data.aba.S.col(r) * ddr));
  } else {
    S ddr[6];
    Vector6<S> ai;
    joint_acceleration_columns<K>(data.aba.U, data.aba.Dinv, data.aba.u, data.aba.S, r, k,
                                  a_in.vector(), ddr, ai);
    for (int a = 0; a < k; ++a) data.ddq(model.v_index(i) + a) = ddr[a];
    data.aba.a[i] = Motion<S>(ai);
  }
}

/// The steps of a joint with several degrees of freedom, out of line (LIEDYN_NEVER_INLINE): the
/// articulated and acceleration steps at the joint's width (with_joint_width), the velocity
/// step, with few products, at K = Dynamic.
template <class S>
LIEDYN_NEVER_INLINE void aba_velocity_step_k(const Model<S>& model, Data<S>& data,
                                             const State<S>& x, int i,
                                             const ExternalWrenches<S>* fext) {
  aba_velocity_step<Eigen::Dynamic>(model, data, x, i, fext);
}
template <class S, class Tau>
LIEDYN_NEVER_INLINE void aba_articulated_step_k(const Model<S>& model, Data<S>& data, int i,
                                                const Tau& tau) {
  with_joint_width(model.joint_nv(i),
                   [&](auto K) { aba_articulated_step<decltype(K)::value>(model, data, i, tau); });
}
template <class S>
LIEDYN_NEVER_INLINE void aba_acceleration_step_k(const Model<S>& model, Data<S>& data, int i) {
  with_joint_width(model.joint_nv(i),
                   [&](auto K) { aba_acceleration_step<decltype(K)::value>(model, data, i); });
}

}  // namespace detail

/// Forward dynamics ddq = M(s)⁻¹ (τ̄ + Σ J_iᵀ f_ext,i − h(x)) by the articulated-body algorithm.
/// Returns data.ddq (size model.nv()).
template <class S, class Derived>
const VectorX<S>& aba(const Model<S>& model, Data<S>& data, const State<S>& x,
                      const Eigen::MatrixBase<Derived>& tau,
                      const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("aba", model, x);
  detail::check_data_pairing("aba", model, data);
  LIEDYN_CHECK_SIZE("aba", "tau", tau, model.nv());
  detail::check_wrenches("aba", model, fext);
  model.require_invertible_mass_matrix("aba");
  const int nb = model.num_bodies();
  const BaseJoint<S>& base = model.base_joint();
  const bool one_dof_tree = model.one_dof_joints_only();  // lets the compiler unswitch the loops
  auto one_column = [&](int i) { return one_dof_tree || model.joint_nv(i) == 1; };

  // Forward pass: axes, velocities, velocity-product accelerations, inertias and bias wrenches.
  detail::update_poses(model, data, x.s);
  data.aba.v[0] = base.twist(x);
  data.aba.c[0] = Motion<S>::Zero();
  model.inertia(0).matrix_into(data.aba.IA[0]);
  model.inertia(0).bias_wrench(data.aba.v[0], data.aba.pA[0]);
  if (fext) data.aba.pA[0] -= (*fext)[0];
  for (int i = 1; i < nb; ++i) {
    if (one_column(i)) detail::aba_velocity_step<1>(model, data, x, i, fext);
    else detail::aba_velocity_step_k(model, data, x, i, fext);
  }

  // Backward pass: articulated inertias and bias wrenches, moved to the parent by translation.
  for (int i = nb - 1; i >= 1; --i) {
    if (one_column(i)) detail::aba_articulated_step<1>(model, data, i, tau);
    else detail::aba_articulated_step_k(model, data, i, tau);
  }

  // The base: a'_0 = (M^A_0)⁻¹ (τ̄_b − p^A_0), or gravity alone for a welded base.
  base.articulated_acceleration(data.aba.IA[0], data.aba.pA[0].vector(), tau,
                                detail::gravity_in_base(model, x.H), data.aba.a[0], data.ddq);

  // Forward pass: joint and body accelerations.
  for (int i = 1; i < nb; ++i) {
    if (one_column(i)) detail::aba_acceleration_step<1>(model, data, i);
    else detail::aba_acceleration_step_k(model, data, i);
  }
  return data.ddq;
}

}  // namespace liedyn
