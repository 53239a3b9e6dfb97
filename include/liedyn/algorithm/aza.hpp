// liedyn — algorithm: AZA, the "ABA with zero inputs" of the IDSVA paper (Singh–Russell–Wensing
// 2022): solves
// M(s) X = Y for many right-hand sides in O(n) each, by factoring the articulated-body inertias
// once and running ABA's last two sweeps per column with zero velocity and gravity.
// Every joint type: a joint of k degrees of freedom has k columns S_i, U_i (6 × k) and a k × k
// pivot D_i (RBDA §7.3, as in aba.hpp); a 1-DoF joint's steps are scalar and inlined, the
// k-column ones out of line.
//
// Order: rows of Y and X follow the model's base-first generalized order (nv). For a moving
// base the base rows of Y are a base wrench in the base frame and those of X the base
// acceleration ν̇; joint armature is included (as in M). Cost: factorization O(n), each column
// O(n) with no spatial transform; no allocation. Compare with the dense product M⁻¹ Y from
// immamb, O(nv²) per column.
//
// Frames. The factorization keeps the articulated inertia M^A_i in the "mixed" frame [i]:
// the base frame's orientation, origin at body i's. D_i = S_iᵀ M^A_i S_i is then formed about
// the joint — in the base frame a light body far from the base has m·|p|² terms that cancel
// there, and talos' grippers lost three to four digits of M⁻¹ that way — while moving M^A_i to
// the parent is a translation by the joint offset (cross products, no rotation). The axis S_i
// and U_i = M^A_i S_i are then stored in the base frame 0 (data.aza.S, data.aza.U), so the
// solves, and immamb's column passes, are plain 6-vector sums with no transform.
#pragma once

#include <cmath>
#include <type_traits>

#include "liedyn/algorithm/articulated_body_steps.hpp"

namespace liedyn {
namespace detail {

/// AZA's factorization at body i (backward) for a 1-DoF joint: U_i = M^A_i S_i and D_i⁻¹ (a
/// number) in [i], M^a_i added to the parent's M^A, then S_i and U_i moved to frame 0
/// (data.aza.S, data.aza.U). A joint of k columns takes aza_articulated_step_k.
template <class S>
LIEDYN_ALWAYS_INLINE void aza_articulated_step(const Model<S>& model, Data<S>& data, int i) {
  const int p = model.parent(i), r = model.r_index(i);
  auto Si = data.aza.S.col(r);  // in [i] until the end of the step
  const Matrix6<S>& IA = data.aza.IA[i];
  const Vector6<S> U = model.joint(i).times_rotated_subspace(IA, Si);
  const S Dinv = S(1) / (Si.dot(U) + model.joint(i).armature);
  data.aza.Dinv(r, 0) = Dinv;
  const Vector3<S>& pi = data.kinematics.H_base[i].translation();
  // The root's articulated inertia is used only when it has coordinates.
  if (p > 0 || model.base_joint().nv() > 0)
    add_articulated_translated(Vector3<S>(pi - data.kinematics.H_base[p].translation()), IA, U,
                               Dinv, data.aza.IA[p]);
  // [i] → frame 0: moments and linear velocities about the base origin.
  auto Ui = data.aza.U.col(r);
  Ui.template head<3>() = U.template head<3>();
  Ui.template tail<3>() = U.template tail<3>() + pi.cross(Vector3<S>(U.template head<3>()));
  Si.template head<3>() += pi.cross(Vector3<S>(Si.template tail<3>()));
}

/// AZA's backward sweep at body i for one right-hand side y: u_i = y_i − S_iᵀ p_i and
/// p_λ += p_i + U_i D_i⁻¹ u_i (frame 0).
template <int K, class S, class Y>
LIEDYN_ALWAYS_INLINE void aza_bias_step(const Model<S>& model, Data<S>& data, const Y& y, int i) {
  const int r = model.r_index(i), k = joint_width<K>(model, i);
  const Vector6<S>& p = data.aza.p[i];
  const JointRates<S, K> u = y.template segment<K>(model.v_index(i), k) -
                             columns_dot<K, S>(joint_columns<K>(data.aza.S, r, k), p);
  const JointPivot<S, K> Dinv = data.aza.Dinv.template block<K, K>(r, 0, k, k);
  data.aza.u.template segment<K>(r, k) = u;
  data.aza.p[model.parent(i)] +=
      p + columns_times<K, S>(joint_columns<K>(data.aza.U, r, k), JointRates<S, K>(Dinv * u));
}

/// AZA's forward sweep at body i: r̈_i = D_i⁻¹ (u_i − U_iᵀ a_λ) into x, a_i = a_λ + S_i r̈_i.
template <int K, class S, class X>
LIEDYN_ALWAYS_INLINE void aza_acceleration_step(const Model<S>& model, Data<S>& data, X& x, int i) {
  const int r = model.r_index(i), k = joint_width<K>(model, i);
  const Vector6<S>& ap = data.aza.a[model.parent(i)];
  const JointPivot<S, K> Dinv = data.aza.Dinv.template block<K, K>(r, 0, k, k);
  const JointRates<S, K> ddr =
      Dinv * JointRates<S, K>(data.aza.u.template segment<K>(r, k) -
                              columns_dot<K, S>(joint_columns<K>(data.aza.U, r, k), ap));
  data.aza.a[i] = ap + columns_times<K, S>(joint_columns<K>(data.aza.S, r, k), ddr);
  x.template segment<K>(model.v_index(i), k) = ddr;
}

/// The steps of a joint with several degrees of freedom, out of line (LIEDYN_NEVER_INLINE), as
/// plain loops over its k columns (articulated_columns says why). The solve's steps take and give
/// the joint's k entries of the right-hand side and the solution, so that they are instantiated
/// once, not once per right-hand side type. The factorization's step is the one on the path of
/// M⁻¹ and the linearization: of fixed trip count for k = 3 (with_joint_width), as aba's.
template <int K, class S>
LIEDYN_ALWAYS_INLINE void aza_articulated_step_cols(const Model<S>& model, Data<S>& data, int i) {
  const int p = model.parent(i), r = model.r_index(i);
  const int k = K == Eigen::Dynamic ? model.joint_nv(i) : K;
  const Matrix6<S>& IA = data.aza.IA[i];
  S Sv[6][6], U[6][6], Dinv[6][6];  // S_i (in [i]), U_i, D_i⁻¹
  for (int t = 0; t < k; ++t)
    for (int row = 0; row < 6; ++row) Sv[t][row] = data.aza.S(row, r + t);
  articulated_columns<K>(IA, Sv, k, model.joint(i).armature, U, Dinv);
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) data.aza.Dinv(r + a, b) = Dinv[a][b];
  const Vector3<S>& pi = data.kinematics.H_base[i].translation();
  // The root's articulated inertia is used only when it has coordinates.
  if (p > 0 || model.base_joint().nv() > 0)
    add_articulated_translated_arrays<K>(Vector3<S>(pi - data.kinematics.H_base[p].translation()),
                                         IA, U, Dinv, k, data.aza.IA[p]);
  // [i] → frame 0: moments and linear velocities about the base origin.
  for (int c = 0; c < k; ++c) {
    const Vec3<S> x{pi(0), pi(1), pi(2)};
    const Vec3<S> pu = cross3(x, Vec3<S>{U[c][0], U[c][1], U[c][2]});
    const Vec3<S> ps = cross3(x, Vec3<S>{Sv[c][3], Sv[c][4], Sv[c][5]});
    S* Ui = data.aza.U.col(r + c).data();
    S* Si = data.aza.S.col(r + c).data();
    Ui[0] = U[c][0];
    Ui[1] = U[c][1];
    Ui[2] = U[c][2];
    Ui[3] = U[c][3] + pu.x;
    Ui[4] = U[c][4] + pu.y;
    Ui[5] = U[c][5] + pu.z;
    Si[0] += ps.x;
    Si[1] += ps.y;
    Si[2] += ps.z;
  }
}
/// aza_articulated_step_cols at the joint's width; the helpers' K = 3 instances are aba's, so
/// this adds one step body to compile.
template <class S>
LIEDYN_NEVER_INLINE void aza_articulated_step_k(const Model<S>& model, Data<S>& data, int i) {
  with_joint_width(model.joint_nv(i),
                   [&](auto K) { aza_articulated_step_cols<decltype(K)::value>(model, data, i); });
}
/// AZA's backward sweep at body i for joint i's entries y_i of a right-hand side.
template <class S>
LIEDYN_NEVER_INLINE void aza_bias_step_cols(const Model<S>& model, Data<S>& data, const S* yi,
                                            int i) {
  const int r = model.r_index(i), k = model.joint_nv(i);
  const Vector6<S>& p = data.aza.p[i];
  S u[6];
  for (int a = 0; a < k; ++a) {
    S sum = S(0);
    for (int row = 0; row < 6; ++row) sum += data.aza.S(row, r + a) * p(row);
    u[a] = yi[a] - sum;
    data.aza.u(r + a) = u[a];
  }
  S w[6];  // D_i⁻¹ u_i
  for (int a = 0; a < k; ++a) {
    S sum = S(0);
    for (int b = 0; b < k; ++b) sum += data.aza.Dinv(r + a, b) * u[b];
    w[a] = sum;
  }
  Vector6<S>& pp = data.aza.p[model.parent(i)];
  for (int row = 0; row < 6; ++row) {
    S sum = S(0);
    for (int a = 0; a < k; ++a) sum += data.aza.U(row, r + a) * w[a];
    pp(row) += p(row) + sum;
  }
}
/// AZA's forward sweep at body i: joint i's entries of the solution into ddr.
template <class S>
LIEDYN_NEVER_INLINE void aza_acceleration_step_cols(const Model<S>& model, Data<S>& data, S* ddr,
                                                    int i) {
  joint_acceleration_columns<Eigen::Dynamic>(data.aza.U, data.aza.Dinv, data.aza.u, data.aza.S,
                                             model.r_index(i), model.joint_nv(i),
                                             data.aza.a[model.parent(i)], ddr, data.aza.a[i]);
}
template <class S, class Y>
void aza_bias_step_k(const Model<S>& model, Data<S>& data, const Y& y, int i) {
  S yi[6];
  for (int a = 0; a < model.joint_nv(i); ++a) yi[a] = S(y(model.v_index(i) + a));
  aza_bias_step_cols(model, data, yi, i);
}
template <class S, class X>
void aza_acceleration_step_k(const Model<S>& model, Data<S>& data, X& x, int i) {
  S ddr[6];
  aza_acceleration_step_cols(model, data, ddr, i);
  for (int a = 0; a < model.joint_nv(i); ++a) x(model.v_index(i) + a) = ddr[a];
}

/// aza_factorize at the poses already in data.kinematics.H_parent and data.kinematics.H_base and
/// the joint positions in data.kinematics.joint_q (update_poses), for a caller that has them from
/// another kernel at the same s.
template <class S>
void aza_factorize_at_poses(const Model<S>& model, Data<S>& data) {
  // Axes and bodies' inertias rotated into the mixed frames ([0] is the base frame).
  model.inertia(0).matrix_into(data.aza.IA[0]);
  const int nb = model.num_bodies();
  const bool one_dof_tree = model.one_dof_joints_only();  // lets the compiler unswitch the loops
  auto one_column = [&](int i) { return one_dof_tree || model.joint_nv(i) == 1; };
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    const Matrix3<S>& R = data.kinematics.H_base[i].rotation();
    const int r = model.r_index(i);
    if (one_column(i)) data.aza.S.col(r) = j.subspace_rotated(R).vector();
    else  // R Γ_i(q): the axes turned only
      j.subspace_in(SE3<S>(R, Vector3<S>::Zero()),
                    data.kinematics.joint_q.segment(model.q_index(i), model.joint_nq(i)),
                    data.aza.S.middleCols(r, model.joint_nv(i)));
    model.inertia(i).rotated(R).matrix_into(data.aza.IA[i]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    if (one_column(i)) aza_articulated_step(model, data, i);
    else aza_articulated_step_k(model, data, i);
  }
  model.base_joint().factor_articulated(data.aza.IA[0], data.aza.base);
}

/// Refuses a Data that aza_factorize has not filled: it leaves the base's articulated inertia
/// factored and every joint's D_i⁻¹ positive definite, while a fresh Data's are unset and zero,
/// with which a solve returns zeros without an error. O(nv).
template <class S>
void check_aza_factors(const Model<S>& model, const Data<S>& data) {
  bool factored = model.base_joint().articulated_factored(data.aza.base);
  for (int i = 1; i < model.num_bodies(); ++i)
    for (int t = 0; t < model.joint_nv(i); ++t)
      factored = factored && data.aza.Dinv(model.r_index(i) + t, t) > S(0);
  LIEDYN_CHECK(factored, "aza_solve: data holds no factorization: run aza_factorize first");
}

}  // namespace detail

/// Factors M(s) by articulated-body inertias into data.aza (see the header for the frames).
/// Also writes data.kinematics.H_parent and data.kinematics.H_base (^0H_i). Every joint type.
/// Refuses a singular model.
template <class S, class Derived>
void aza_factorize(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("aza_factorize", "s", s, model.nq_joints());
  detail::check_data_pairing("aza_factorize", model, data);
  model.require_invertible_mass_matrix("aza_factorize");
  detail::update_poses(model, data, s);
  detail::aza_factorize_at_poses(model, data);
}

/// X = M⁻¹ Y column by column, after aza_factorize (InvalidArgument if data holds no
/// factorization). `X` may alias `Y`.
template <class S, class DY, class DX>
void aza_solve(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<DY>& Y,
               const Eigen::MatrixBase<DX>& X_) {
  auto& X = const_cast<Eigen::MatrixBase<DX>&>(X_);
  detail::check_data_pairing("aza_solve", model, data);
  LIEDYN_CHECK_DIMS("aza_solve", "Y", Y, model.nv(), Y.cols());
  LIEDYN_CHECK_DIMS("aza_solve", "X", X, model.nv(), Y.cols());
  detail::check_aza_factors(model, data);
  const int nb = model.num_bodies();
  const BaseJoint<S>& base = model.base_joint();
  const bool one_dof_tree = model.one_dof_joints_only();
  auto one_column = [&](int i) { return one_dof_tree || model.joint_nv(i) == 1; };
  // Everything in frame 0: the sweeps are ABA's with the transforms gone.
  for (Eigen::Index c = 0; c < Y.cols(); ++c) {
    const auto y = Y.col(c);
    auto x = X.col(c);
    for (int i = 0; i < nb; ++i) data.aza.p[i].setZero();
    // Backward sweep: bias wrenches from the inputs alone (no velocity, no gravity). The loops are
    // unswitched by hand: the out-of-line k-column call inside the loop slowed a 1-DoF tree's
    // solve (BENCHMARKS.md, design measurements).
    if (one_dof_tree) {
      for (int i = nb - 1; i >= 1; --i) detail::aza_bias_step<1>(model, data, y, i);
    } else {
      for (int i = nb - 1; i >= 1; --i) {
        if (one_column(i)) detail::aza_bias_step<1>(model, data, y, i);
        else detail::aza_bias_step_k(model, data, y, i);
      }
    }
    // Forward sweep. The base's rows are read before the joints' are written: X may alias Y.
    // a_0 = (M^A_0)⁻¹ (y_b − p_0); zero for a welded base (no velocity, no gravity here).
    Motion<S> a0;
    base.articulated_acceleration(data.aza.base, data.aza.p[0], y, Motion<S>::Zero(), a0, x);
    data.aza.a[0] = a0.vector();
    if (one_dof_tree) {
      for (int i = 1; i < nb; ++i) detail::aza_acceleration_step<1>(model, data, x, i);
    } else {
      for (int i = 1; i < nb; ++i) {
        if (one_column(i)) detail::aza_acceleration_step<1>(model, data, x, i);
        else detail::aza_acceleration_step_k(model, data, x, i);
      }
    }
  }
}

}  // namespace liedyn
