// liedyn — algorithm: the geometric derivatives of the extended inverse dynamics ĪD(x, ddq)
// with respect to the base pose H (left-trivialized), the joint positions s, the base twist and
// the joint velocities r — the paper's D1..D4 (Tables 5–8 of Bos–Traversaro–Pucci–Saccon 2022,
// with the corrections of docs/conventions.md §3) — and the mass matrix M = ∂ĪD/∂ddq, in one
// O(n·d) pass (d: tree depth), for every joint type.
//
// Frames and order. Rows follow τ̄ = [τ̄_b; τ] (base first, τ̄_b in the base frame). Columns:
//   D1 = ∂ĪD/∂η with H = H̄ exp(η^), η linear first (nv × 6);
//   D2 = ∂ĪD/∂δs (nv × nv_joints), joint i's deviation s_i ⊕ δs_i on its own group (right
//   perturbation, the columns of Joint::integrate); D3 = ∂ĪD/∂(base twist) (nv × 6);
//   D4 = ∂ĪD/∂r (nv × nv_joints).
// `rep` chooses the base-twist variable: D3 is the derivative with respect to the twist in that
// representation, and D1 holds THAT twist fixed while H moves:
//   Body (native ν):  D1ν;    Inertial (w = ^AX_0 ν, the paper's Table 5): D1w = D1ν + D3ν ad_ν,
//   D3w = D3ν ^0X_A;          Mixed (m = blockdiag(R, R) ν): D1m = D1ν + D3ν [0, v^; 0, ω^],
//   D3m = D3ν blockdiag(Rᵀ, Rᵀ).
// They are evaluated at the given accelerations ddq = [ν̇; ṙ]; for the linearization of forward
// dynamics pass the accelerations FD(x, τ̄) (docs/conventions.md §3). For a welded base D1 and D3
// are empty and D2, D4 are nv_joints × nv_joints.
//
// How (differs from the tables' structure, same results): every quantity is expressed in the
// base frame 0 frozen at the current instant (a "ground" frame for s, ν, r, which do not move
// it) — the restructuring of the IDSVA paper (Singh–Russell–Wensing 2022), with the base as a
// 6-DoF root joint, and one column per velocity coordinate (docs/design/joint-types.md §2–§3).
// Column d of a joint moves its child along S_d = ^0X_i Γ_i e_d, hanging from the motion
// (Vpar_d, Apar_d): the parent body's for a simultaneous joint (every type but the universal);
// the parent's plus the joint's earlier columns for a successive one (the universal joint: a
// chain of revolutes). With V_i, A_i the body twist and acceleration, Vpost_d the motion after
// column d (V_i for a simultaneous joint, Vpar_d + S_d ṙ_d for a successive one),
//   u_d = S_d × Vpar_d,   φ_d = S_d × Apar_d − u_d × Vpar_d,   W_d = (Vpar_d + Vpost_d) × S_d
// (W_d = −2 u_d for a 1-DoF and a successive joint). Over subtree(j): composite inertia I^c_j,
// momentum h^c_j, wrench F^c_j and inertia variation B^c_j = Σ (V ×̄* I − I V×). For column c of
// joint j, with y_c = I^c_j S_c and e_c = B^c_j S_c − S_c ×̄* h^c_j, and a column d that moves
// column c's axis with the subtree (d of an ancestor joint k ≺ j; of j itself for a
// simultaneous joint, and d ≤ c for a successive one):
//   ∂τ_c/∂r_d = W_d·y_c + S_d·e_c,   ∂τ_c/∂s_d = −(φ_d·y_c + u_d·e_c),   M_cd = S_d·y_c,
// and at the rows of an ancestor's column d (and the base rows, S = 1₆):
//   ∂τ_d/∂r_c = S_d·Q_c,   Q_c = I^c_j W_c + S_c ×̄* h^c_j + B^c_j S_c,
//   ∂τ_d/∂s_c = S_d·P_c,   P_c = S_c ×̄* F^c_j − I^c_j φ_c − u_c ×̄* h^c_j − B^c_j u_c;
// a successive joint's later column d > c does not move column c: ∂τ_c/∂s_d = S_c·P_d. Dot
// products only, per pair of columns.
// The base twist is the root joint's velocity (S = I, no parent twist, W_m = ν × e_m), so the
// base columns of joint row c are D3ν[c, :] = (e_c − ν ×̄* y_c)ᵀ. D1 needs no pass of its own:
// with ν held, H only rotates gravity's fictitious base acceleration a_g0 = ^0X_A(−[g;0]), so
// D1ν = M[:, 0:6] ad(a_g0) (row c: −(a_g0 ×̄* y_c)ᵀ) — Table 5 collapsed; with w held, Table 5's
// D1 = D1ν + D3ν ad_ν. The other representations are applied a row at a time, after the pass.
//
// Outputs in Data: D1, D2, D3, D4, M (both triangles, armature included) and tau = ĪD(x, ddq).
// No allocation. D2/D4 and M entries outside the ancestor/descendant pattern are written as zeros.
#pragma once

#include "liedyn/algorithm/common.hpp"
#include "liedyn/arithmetic/dense.hpp"

namespace liedyn {

namespace detail {

// The 6×6 matrix of the linear map x ↦ x ×̄* h (h = [f; n]): [0, −f^; −f^, −n^].
template <class S>
Matrix6<S> cross_star_of_force(const Force<S>& h) {
  Matrix6<S> m;
  const Matrix3<S> F = hat(h.linear()), N = hat(h.angular());
  m << Matrix3<S>::Zero(), -F, -F, -N;
  return m;
}

// The D2 formulas of the header, shared by ground_derivative_pass and ground_acceleration_pass
// (which puts the accelerations in afterwards). P_c of column c of joint j, with F^c_j given
// (the acceleration pass completes it in place): S_d·P_c at the rows of an ancestor's column d,
// P_c at the base rows.
template <class S>
LIEDYN_ALWAYS_INLINE Force<S> position_derivative_wrench(const Data<S>& data, int j, int c,
                                                         const Force<S>& Fc) {
  const Motion<S>& u = data.derivatives.u[c];
  return data.derivatives.axis[c].cross(Fc) - data.derivatives.Ic[j] * data.derivatives.phi[c] -
         u.cross(data.derivatives.hc[j]) - data.derivatives.Bc[j] * u;
}
// ∂τ_c/∂s_d = −(φ_d·y_c + u_d·e_c), for a column d that moves column c with the subtree.
template <class S>
LIEDYN_ALWAYS_INLINE S position_derivative_of_row(const Data<S>& data, int d, const Force<S>& y,
                                                  const Force<S>& e) {
  return -(dot(data.derivatives.phi[d], y) + dot(data.derivatives.u[d], e));
}

/// The root of every ground pass: the base's ground twist ν (zero for a welded base) and its
/// acceleration ν̇ + a_g0, gravity as a fictitious base acceleration (frozen base frame; a_g0 = 0
/// without gravity).
template <class S, class Derived>
inline void ground_motion_of_root(const Model<S>& model, Data<S>& data, const State<S>& x,
                                  const Eigen::MatrixBase<Derived>& ddq,
                                  GravityTerm gravity = GravityTerm::Included) {
  const BaseJoint<S>& base = model.base_joint();
  data.derivatives.v[0] = base.twist(x);
  data.derivatives.a[0] =
      gravity == GravityTerm::Included ? detail::gravity_in_base(model, x.H) : Motion<S>::Zero();
  base.add_acceleration(ddq, data.derivatives.a[0]);
}

/// ground_motion_of_body for a joint of several columns (design §2): each column hangs from
/// (Vpar_d, Apar_d), the parent's motion, plus the earlier columns' for a successive joint.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void ground_motion_of_joint_columns(const Model<S>& model, Data<S>& data,
                                                        const State<S>& x,
                                                        const Eigen::MatrixBase<Derived>& ddq,
                                                        int i) {
  const Joint<S>& joint = model.joint(i);
  const int p = model.parent(i), c0 = model.r_index(i), v0 = model.v_index(i);
  const int k = model.joint_nv(i);
  const bool successive = joint.column_rule() == ColumnRule::successive;
  Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> columns(6, k);
  joint.subspace_in(data.kinematics.H_base[i], x.s.segment(model.q_index(i), model.joint_nq(i)),
                    columns);
  Motion<S> Vi = data.derivatives.v[p];
  for (int d = 0; d < k; ++d) Vi += Motion<S>(Vector6<S>(columns.col(d))) * S(x.r(c0 + d));
  Motion<S> Vpar = data.derivatives.v[p];
  Motion<S> Ai = data.derivatives.a[p];
  for (int d = 0; d < k; ++d) {
    const Motion<S> Sd{Vector6<S>(columns.col(d))};
    const S qd = x.r(c0 + d);
    const Motion<S> u = Sd.cross(Vpar);
    const Motion<S> Vpost = successive ? Motion<S>(Vpar + Sd * qd) : Vi;
    data.derivatives.axis[c0 + d] = Sd;
    data.derivatives.u[c0 + d] = u;
    data.derivatives.w[c0 + d] = (Vpar + Vpost).cross(Sd);
    Ai += Sd * S(ddq(v0 + d)) - u * qd;
    if (successive) Vpar = Vpost;
  }
  data.derivatives.v[i] = Vi;
  data.derivatives.a[i] = Ai;
}

/// Body i's ground motion from its parent's (poses in data.kinematics.H_base): its joint's columns
/// S_d = ^0X_i Γ_i e_d with u_d and W_d (see the header), V_i = V_λ(i) + S_i ṙ_i and
/// A_i = A_λ(i) + S_i r̈_i − Σ_d u_d ṙ_d (for a universal joint the sum holds its bias c_J).
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void ground_motion_of_body(const Model<S>& model, Data<S>& data,
                                                const State<S>& x,
                                                const Eigen::MatrixBase<Derived>& ddq, int i) {
  if (!model.joint(i).one_dof()) {
    ground_motion_of_joint_columns(model, data, x, ddq, i);
    return;
  }
  // One column: S_i × S_i = 0 makes V_i × S_i = V_λ(i) × S_i, so W_i = −2 u_i, and Ṡ_i = −u_i:
  // the axis turns with its body.
  const int p = model.parent(i), c = model.r_index(i);
  const Motion<S> Si = model.joint(i).subspace_in(data.kinematics.H_base[i]);
  data.derivatives.axis[c] = Si;
  const S qd = x.r(c), qdd = ddq(model.v_index(i));
  const Motion<S>& Vp = data.derivatives.v[p];
  data.derivatives.v[i] = Vp + Si * qd;
  const Motion<S> ui = Si.cross(Vp);
  data.derivatives.u[c] = ui;
  data.derivatives.w[c] = ui * S(-2);
  data.derivatives.a[i] = data.derivatives.a[p] + Si * qdd - ui * qd;
}

/// φ_d of a successive joint's columns: Apar_d and Vpar_d gain each earlier column's motion.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void successive_column_accelerations(const Model<S>& model, Data<S>& data,
                                                         const State<S>& x,
                                                         const Eigen::MatrixBase<Derived>& ddq,
                                                         int i) {
  const int p = model.parent(i), c0 = model.r_index(i), off = model.offset();
  Motion<S> Vpar = data.derivatives.v[p], Apar = data.derivatives.a[p];
  for (int c = c0; c < model.r_index(i + 1); ++c) {
    const Motion<S>& Sd = data.derivatives.axis[c];
    const Motion<S>& u = data.derivatives.u[c];
    data.derivatives.phi[c] = Sd.cross(Apar) - u.cross(Vpar);
    const S qd = x.r(c);
    Vpar += Sd * qd;
    Apar += Sd * S(ddq(off + c)) - u * qd;
  }
}

/// φ_d = S_d × Apar_d − u_d × Vpar_d for body i's joint columns (see the header), from the
/// parent's twist and acceleration in data.derivatives.v, a and the columns that
/// ground_motion_of_body left.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void joint_column_accelerations(const Model<S>& model, Data<S>& data,
                                                    const State<S>& x,
                                                    const Eigen::MatrixBase<Derived>& ddq, int i) {
  if (model.joint(i).column_rule() == ColumnRule::successive) {
    successive_column_accelerations(model, data, x, ddq, i);
    return;
  }
  const int p = model.parent(i);
  const Motion<S>& Vp = data.derivatives.v[p];
  const Motion<S>& Ap = data.derivatives.a[p];
  for (int c = model.r_index(i); c < model.r_index(i + 1); ++c)
    data.derivatives.phi[c] = data.derivatives.axis[c].cross(Ap) - data.derivatives.u[c].cross(Vp);
}

/// joint_column_accelerations, a 1-DoF joint's one column inlined.
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void ground_column_accelerations(const Model<S>& model, Data<S>& data,
                                                      const State<S>& x,
                                                      const Eigen::MatrixBase<Derived>& ddq,
                                                      int i) {
  if (!model.joint(i).one_dof()) {
    joint_column_accelerations(model, data, x, ddq, i);
    return;
  }
  const int p = model.parent(i), c = model.r_index(i);
  data.derivatives.phi[c] = data.derivatives.axis[c].cross(data.derivatives.a[p]) -
                            data.derivatives.u[c].cross(data.derivatives.v[p]);
}

/// The forward recursion alone (data.derivatives.axis, u, w for every joint column,
/// phi for a multi-DoF joint's, v, a for every body) at the poses in
/// data.kinematics.H_base: what the constraint kinematics derivatives need, without inertias (they
/// read a 1-DoF column's motion after the joint, V_i and A_i, where a multi-DoF one's needs φ_d).
template <class S, class Derived>
void ground_motion_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& ddq) {
  ground_motion_of_root(model, data, x, ddq);
  for (int i = 1; i < model.num_bodies(); ++i) {
    ground_motion_of_body(model, data, x, ddq, i);
    if (!model.joint(i).one_dof()) joint_column_accelerations(model, data, x, ddq, i);
  }
}

/// The D2 block of a multi-DoF joint j's own columns (see the header): the row formula for the
/// columns d that move column c, S_c·P_d for a successive joint's later columns. Reads y_c, e_c
/// from data.derivatives.y, e and F^c_j from data.derivatives.fc.
template <class S>
LIEDYN_NEVER_INLINE void joint_position_derivative_block(const Model<S>& model, Data<S>& data,
                                                         int j) {
  const int off = model.offset(), c0 = model.r_index(j), c_end = model.r_index(j + 1);
  const bool successive = model.joint(j).column_rule() == ColumnRule::successive;
  for (int c = c0; c < c_end; ++c)
    for (int d = c0; d < c_end; ++d)
      data.derivatives.D2(off + c, d) =
          successive && d > c
              ? dot(data.derivatives.axis[c],
                    position_derivative_wrench(data, j, d, data.derivatives.fc[j]))
              : position_derivative_of_row(data, d, data.derivatives.y[c], data.derivatives.e[c]);
}

/// The wrenches of column c of joint j that its entries are dot products with (see the header):
/// y_c = I^c_j S_c (M's entries), z_c = B^c_j S_c and e_c = z_c − S_c ×̄* h^c_j.
template <class S>
struct ColumnWrenches {
  Force<S> y, z, e;
};

/// Column c of joint j in the derivative pass (see the header): τ_c, row c's entries at the
/// ancestors' columns and column c's entries at their rows (the walk from `first_ancestor`, a
/// velocity index, up the tree of coordinates), the base rows and columns. Not the joint's own
/// diagonal block; its wrenches are returned for it.
template <bool kWithD2, class S, class Derived>
LIEDYN_ALWAYS_INLINE ColumnWrenches<S> derivative_column(const Model<S>& model, Data<S>& data,
                                                         const Eigen::MatrixBase<Derived>& ddq,
                                                         int j, int c, int first_ancestor,
                                                         const Motion<S>& a_g0,
                                                         const Motion<S>& nu) {
  const int off = model.offset(), row = off + c;
  const SpatialInertia<S>& Ic = data.derivatives.Ic[j];
  const Force<S>& hc = data.derivatives.hc[j];
  const Motion<S>& Sc = data.derivatives.axis[c];
  ColumnWrenches<S> w;  // returned in place
  const Force<S>& y = w.y = Ic * Sc;
  const Force<S>& z = w.z = data.derivatives.Bc[j] * Sc;
  const Force<S> Sxh = Sc.cross(hc);
  const Force<S>& e = w.e = z - Sxh;
  // Column c below the diagonal: subtree sums projected on the ancestors' columns.
  const Force<S> Q = Ic * data.derivatives.w[c] + Sxh + z;
  data.tau(row) = dot(Sc, data.derivatives.fc[j]) + model.joint(j).armature * S(ddq(row));
  Force<S> P;
  if (kWithD2) P = position_derivative_wrench(data, j, c, data.derivatives.fc[j]);
  // Row c's entry at an ancestor's column d and column c's entry at row d, in one walk.
  for (int vd = first_ancestor; vd >= off; vd = model.dof_parent(vd)) {
    const int d = vd - off;
    const Motion<S>& Sd = data.derivatives.axis[d];
    data.derivatives.D4(row, d) = dot(data.derivatives.w[d], y) + dot(Sd, e);
    const S Mcd = dot(Sd, y);
    data.M(row, vd) = Mcd;
    data.M(vd, row) = Mcd;
    data.derivatives.D4(vd, c) = dot(Sd, Q);
    if (kWithD2) {
      data.derivatives.D2(row, d) = position_derivative_of_row(data, d, y, e);
      data.derivatives.D2(vd, c) = dot(Sd, P);
    }
  }
  if (off == 0) return w;
  data.derivatives.D4.col(c).template head<6>() = Q.vector();
  if (kWithD2) data.derivatives.D2.col(c).template head<6>() = P.vector();
  data.M.col(row).template head<6>() = y.vector();
  data.M.row(row).template head<6>() = y.vector().transpose();
  // Row c of D1ν = M[c, 0:6] ad(a_g0) = −(a_g0 ×̄* y)ᵀ; of D3ν = yᵀ ad_ν + eᵀ (the base as the
  // root joint: S = I, W = ν × e_m), i.e. (e − ν ×̄* y)ᵀ.
  // Coefficient by coefficient into the strided rows, in registers (arithmetic/registers.hpp
  // says why Eigen's row expressions are not used here).
  const Vec3<S> yf = load3(y.vector(), 0), yn = load3(y.vector(), 3);
  const Vec3<S> ga = load3(a_g0.vector(), 0), gw = load3(a_g0.vector(), 3);
  const Vec3<S> na = load3(nu.vector(), 0), nw = load3(nu.vector(), 3);
  // v ×̄* y = (ω × y_f; v × y_f + ω × y_n) for v = (v; ω).
  const Vec3<S> g_f = cross3(gw, yf), g_n = cross3(ga, yf) + cross3(gw, yn);
  const Vec3<S> n_f = cross3(nw, yf), n_n = cross3(na, yf) + cross3(nw, yn);
  const Vector6<S>& ev = e.vector();
  const S d1[6] = {-g_f.x, -g_f.y, -g_f.z, -g_n.x, -g_n.y, -g_n.z};
  const S d3[6] = {ev(0) - n_f.x, ev(1) - n_f.y, ev(2) - n_f.z,
                   ev(3) - n_n.x, ev(4) - n_n.y, ev(5) - n_n.z};
  for (int m = 0; m < 6; ++m) {
    data.derivatives.D1(row, m) = d1[m];
    data.derivatives.D3(row, m) = d3[m];
  }
  return w;
}

/// A multi-DoF joint j in the derivative pass: its columns (derivative_column, y_c and e_c kept
/// in data.derivatives.y, e), then its own blocks of M (armature on the diagonal), D4 and,
/// with kWithD2, D2 (see the header).
template <bool kWithD2, class S, class Derived>
LIEDYN_NEVER_INLINE void joint_derivative_columns(const Model<S>& model, Data<S>& data,
                                                  const Eigen::MatrixBase<Derived>& ddq, int j,
                                                  const Motion<S>& a_g0, const Motion<S>& nu) {
  const int off = model.offset(), c0 = model.r_index(j), c_end = model.r_index(j + 1);
  const int first_ancestor = model.dof_parent(off + c0);
  for (int c = c0; c < c_end; ++c) {
    const ColumnWrenches<S> w =
        derivative_column<kWithD2>(model, data, ddq, j, c, first_ancestor, a_g0, nu);
    data.derivatives.y[c] = w.y;
    data.derivatives.e[c] = w.e;
  }
  const S armature = model.joint(j).armature;
  for (int c = c0; c < c_end; ++c) {
    const Force<S>& y = data.derivatives.y[c];
    const Force<S>& e = data.derivatives.e[c];
    for (int d = c0; d < c_end; ++d) {
      data.derivatives.D4(off + c, d) =
          dot(data.derivatives.w[d], y) + dot(data.derivatives.axis[d], e);
      if (d > c) continue;
      // M's lower triangle, mirrored: both triangles equal to the bit.
      const S Mcd = dot(data.derivatives.axis[d], y) + (d == c ? armature : S(0));
      data.M(off + c, off + d) = Mcd;
      data.M(off + d, off + c) = Mcd;
    }
  }
  if (kWithD2) joint_position_derivative_block(model, data, j);
}

/// The forward pass of the ground quantities (v, a, the columns' rates) and the backward pass
/// of the composites Ic, hc, fc, Bc, all in the base frame (see the header).
template <bool kWithD2, bool kWithGravity, class S, class Derived>
void ground_composites(const Model<S>& model, Data<S>& data, const State<S>& x,
                       const Eigen::MatrixBase<Derived>& ddq, const ExternalWrenches<S>* fext) {
  const int nb = model.num_bodies();
  ground_motion_of_root(model, data, x, ddq,
                        kWithGravity ? GravityTerm::Included : GravityTerm::Excluded);
  {
    const SpatialInertia<S>& I0 = model.inertia(0);
    const Motion<S>& V0 = data.derivatives.v[0];
    data.derivatives.Ic[0] = I0;
    data.derivatives.hc[0] = I0 * V0;
    data.derivatives.fc[0] = I0 * data.derivatives.a[0] + V0.cross(data.derivatives.hc[0]);
    if (fext) data.derivatives.fc[0] -= (*fext)[0];
    data.derivatives.Bc[0] = I0.variation(V0);
  }
  for (int i = 1; i < nb; ++i) {
    const SE3<S>& X0 = data.kinematics.H_base[i];
    ground_motion_of_body(model, data, x, ddq, i);
    if (kWithD2) ground_column_accelerations(model, data, x, ddq, i);
    const Motion<S>& Vi = data.derivatives.v[i];
    const SpatialInertia<S> Ii = model.inertia(i).transformed(X0);
    data.derivatives.Ic[i] = Ii;
    data.derivatives.hc[i] = Ii * Vi;
    data.derivatives.fc[i] = Ii * data.derivatives.a[i] + Vi.cross(data.derivatives.hc[i]);
    if (fext) data.derivatives.fc[i] -= X0.act((*fext)[i]);
    data.derivatives.Bc[i] = Ii.variation(Vi);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    data.derivatives.Ic[p] += data.derivatives.Ic[i];
    data.derivatives.hc[p] += data.derivatives.hc[i];
    data.derivatives.fc[p] += data.derivatives.fc[i];
    data.derivatives.Bc[p] += data.derivatives.Bc[i];
  }
}

/// The joint rows and columns of τ̄, M, D4 (and D2 with kWithD2) from the composites, on the
/// tree's ancestor/descendant pattern only. Without D2, y_c and e_c are left in
/// data.derivatives.y, e for ground_acceleration_pass.
template <bool kWithD2, class S, class Derived>
void joint_rows_and_columns(const Model<S>& model, Data<S>& data,
                            const Eigen::MatrixBase<Derived>& ddq, const Motion<S>& a_g0,
                            const Motion<S>& nu) {
  const int nb = model.num_bodies(), off = model.offset();
  // The outputs are cleared first, so the entries between branches are zero whatever they held.
  // Whole columns, not just their joint rows: one contiguous store instead of one per column
  // (the base rows are written by derivative_column, and so are M's base columns).
  dense::set_zero_right_columns(data.M, model.nv_joints());
  dense::set_zero(data.derivatives.D4);
  if (kWithD2) dense::set_zero(data.derivatives.D2);
  for (int j = 1; j < nb; ++j) {
    if (!model.joint(j).one_dof()) {
      joint_derivative_columns<kWithD2>(model, data, ddq, j, a_g0, nu);
      continue;
    }
    const int c = model.r_index(j), row = off + c;
    const ColumnWrenches<S> w =
        derivative_column<kWithD2>(model, data, ddq, j, c, model.dof_parent(row), a_g0, nu);
    // The diagonal entries; S_c·e_c = S_c·z_c exactly: S_c × S_c = 0.
    const Motion<S>& Sc = data.derivatives.axis[c];
    data.derivatives.D4(row, c) = dot(data.derivatives.w[c], w.y) + dot(Sc, w.z);
    data.M(row, row) = dot(Sc, w.y) + model.joint(j).armature;
    if (kWithD2) {
      data.derivatives.D2(row, c) = position_derivative_of_row(data, c, w.y, w.e);
    } else {
      data.derivatives.y[c] = w.y;
      data.derivatives.e[c] = w.e;
    }
  }
}

/// The base rows: τ̄_b = F^c_0; M, D1ν, D3ν from the whole-tree composites, in the body
/// representation.
template <class S>
void base_rows(Data<S>& data, const Motion<S>& a_g0, const Motion<S>& nu) {
  data.tau.template head<6>() = data.derivatives.fc[0].vector();
  const Matrix6<S> Ic0 = data.derivatives.Ic[0].matrix();
  data.M.template topLeftCorner<6, 6>() = Ic0;
  data.derivatives.D1.template topRows<6>() = Ic0 * a_g0.cross_matrix();
  data.derivatives.D3.template topRows<6>() = Ic0 * nu.cross_matrix() +
                                              detail::cross_star_of_force(data.derivatives.hc[0]) +
                                              data.derivatives.Bc[0].matrix();
}

/// D1's and D3's base columns turned from the body twist ν to the twist representation rep,
/// a row at a time with fixed-size operations (a D3 = D3 X product would alias, and Eigen would
/// evaluate it into a heap temporary).
template <class S>
void base_columns_in_representation(Data<S>& data, const SE3<S>& H, const Motion<S>& nu,
                                    TwistRepresentation rep) {
  switch (rep) {
    case TwistRepresentation::Body: break;
    case TwistRepresentation::Inertial: {
      // w held: ν = ^0X_A w moves with H, ∂ν/∂η = ad_ν (d3ᵀ ad_ν = −(ν ×̄* d3)ᵀ); ∂ν/∂w = ^0X_A.
      const Matrix6<S> X0A = H.inverse().velocity_transform();
      for (Eigen::Index r = 0; r < data.derivatives.D3.rows(); ++r) {
        const Force<S> d3(data.derivatives.D3.row(r).transpose());
        data.derivatives.D1.row(r) -= nu.cross(d3).vector().transpose();
        data.derivatives.D3.row(r) = d3.vector().transpose() * X0A;
      }
      break;
    }
    case TwistRepresentation::Mixed: {
      // m held: ν = blockdiag(Rᵀ, Rᵀ) m, ∂ν/∂η = [0, v^; 0, ω^]; ∂ν/∂m = blockdiag(Rᵀ, Rᵀ).
      const Matrix3<S>& R = H.rotation();
      for (Eigen::Index r = 0; r < data.derivatives.D3.rows(); ++r) {
        const Vector3<S> dl = data.derivatives.D3.row(r).template head<3>().transpose();
        const Vector3<S> da = data.derivatives.D3.row(r).template tail<3>().transpose();
        data.derivatives.D1.row(r).template tail<3>() +=
            (dl.cross(nu.linear()) + da.cross(nu.angular())).transpose();
        data.derivatives.D3.row(r).template head<3>() = (R * dl).transpose();
        data.derivatives.D3.row(r).template tail<3>() = (R * da).transpose();
      }
      break;
    }
  }
}

/// The derivative pass at the poses already in data.kinematics.H_parent and data.kinematics.H_base
/// for x.s (update_poses). kWithD2 = true: everything, at the accelerations ddq. kWithD2 = false:
/// all but D2 (τ̄, M, D1, D3, D4, which the linearization needs before it knows the accelerations),
/// leaving y_c and e_c in data.derivatives.y, e for ground_acceleration_pass.
/// kWithGravity = false: the derivatives of ĪD with g = 0 (ĪD is affine in gravity's
/// acceleration).
template <bool kWithD2, bool kWithGravity = true, class S, class Derived>
void ground_derivative_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                            const Eigen::MatrixBase<Derived>& ddq, TwistRepresentation rep,
                            const ExternalWrenches<S>* fext) {
  ground_composites<kWithD2, kWithGravity>(model, data, x, ddq, fext);
  const Motion<S> a_g0 = kWithGravity ? detail::gravity_in_base(model, x.H) : Motion<S>::Zero();
  const Motion<S> nu = data.derivatives.v[0];
  joint_rows_and_columns<kWithD2>(model, data, ddq, a_g0, nu);
  // A branch, not a joint's answer: a welded base has no rows of its own.
  if (!model.has_moving_base()) return;
  base_rows(data, a_g0, nu);
  base_columns_in_representation(data, x.H, nu, rep);
}

/// eidamb_derivatives at the poses already in data.kinematics.H_parent and data.kinematics.H_base
/// for x.s (update_poses), for a caller that has them from another kernel at the same s.
template <class S, class Derived>
void eidamb_derivatives_at_poses(const Model<S>& model, Data<S>& data, const State<S>& x,
                                 const Eigen::MatrixBase<Derived>& ddq, TwistRepresentation rep,
                                 const ExternalWrenches<S>* fext) {
  ground_derivative_pass<true>(model, data, x, ddq, rep, fext);
}

/// Column c of joint j in ground_acceleration_pass, F^c_j complete: τ_c, and D2's entries of
/// row c and column c outside the joint's own block (the ancestors' columns and rows from
/// `first_ancestor`, a velocity index, and the base rows).
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void acceleration_column(const Model<S>& model, Data<S>& data,
                                              const Eigen::MatrixBase<Derived>& ddq, int j, int c,
                                              int first_ancestor) {
  const int off = model.offset(), row = off + c;
  const Force<S>& Fc = data.derivatives.fc[j];
  const Force<S>& y = data.derivatives.y[c];
  const Force<S>& e = data.derivatives.e[c];
  data.tau(row) = dot(data.derivatives.axis[c], Fc) + model.joint(j).armature * S(ddq(row));
  const Force<S> P = position_derivative_wrench(data, j, c, Fc);
  for (int vd = first_ancestor; vd >= off; vd = model.dof_parent(vd)) {
    data.derivatives.D2(row, vd - off) = position_derivative_of_row(data, vd - off, y, e);
    data.derivatives.D2(vd, c) = dot(data.derivatives.axis[vd - off], P);
  }
  if (off > 0) data.derivatives.D2.col(c).template head<6>() = P.vector();
}

/// A multi-DoF joint j in ground_acceleration_pass: its columns, the parent's share
/// E_j + Σ_c y_c r̈_c, and its own D2 block.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void joint_acceleration_columns(const Model<S>& model, Data<S>& data,
                                                    const Eigen::MatrixBase<Derived>& ddq, int j) {
  const int off = model.offset(), c0 = model.r_index(j), c_end = model.r_index(j + 1);
  const int first_ancestor = model.dof_parent(off + c0);
  Force<S> pushed = data.derivatives.dF[j];
  for (int c = c0; c < c_end; ++c) {
    pushed += data.derivatives.y[c] * S(ddq(off + c));
    acceleration_column(model, data, ddq, j, c, first_ancestor);
  }
  data.derivatives.dF[model.parent(j)] += pushed;
  joint_position_derivative_block(model, data, j);
}

/// After ground_derivative_pass<false> at zero accelerations and the state x (which left
/// τ̄ = h(x), M, D1, D3, D4): the accelerations ddq put in — A_i, F^c_i, τ̄ = ĪD(x, ddq) and D2
/// at ddq, without a new pass over the velocities and inertias. ĪD is affine in ddq: A_i changes
/// by ΔA_i = ΔA_λ(i) + S_i r̈_i (ΔA_0 = ν̇) and F^c_i by Σ_{j ∈ subtree(i)} I_j ΔA_j =
/// I^c_i ΔA_i + E_i, E_i = Σ_{children j} (I^c_j S_j r̈_j + E_j): composites only, the bodies'
/// own inertias are not needed. M, D1, D3, D4 do not depend on ddq. ĪD is affine in body-fixed
/// external wrenches too, and they enter only F^c (so D2 and τ̄): `fext`, if given, is put in as
/// well (the pass at zero accelerations having run without it), each body's wrench starting its
/// E_i.
template <class S, class Derived>
void ground_acceleration_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                              const Eigen::MatrixBase<Derived>& ddq,
                              const ExternalWrenches<S>* fext = nullptr) {
  const int nb = model.num_bodies(), off = model.offset();
  const BaseJoint<S>& base = model.base_joint();
  data.derivatives.dA[0] = base.acceleration(ddq);
  data.derivatives.a[0] += data.derivatives.dA[0];
  data.derivatives.dF[0] = fext ? Force<S>(-(*fext)[0]) : Force<S>::Zero();
  for (int i = 1; i < nb; ++i) {
    Motion<S> dA = data.derivatives.dA[model.parent(i)];
    for (int c = model.r_index(i); c < model.r_index(i + 1); ++c)
      dA += data.derivatives.axis[c] * S(ddq(off + c));
    data.derivatives.dA[i] = dA;
    data.derivatives.a[i] += dA;
    ground_column_accelerations(model, data, x, ddq, i);
    data.derivatives.dF[i] =
        fext ? Force<S>(-data.kinematics.H_base[i].act((*fext)[i])) : Force<S>::Zero();
  }
  // Leaves first: E_j is complete when j is reached. Then D2 as in ground_derivative_pass
  // (cleared whole first: only the pattern is written).
  dense::set_zero(data.derivatives.D2);
  for (int j = nb - 1; j >= 1; --j) {
    const Force<S>& Ej = data.derivatives.dF[j];
    data.derivatives.fc[j] += data.derivatives.Ic[j] * data.derivatives.dA[j] + Ej;
    if (!model.joint(j).one_dof()) {
      joint_acceleration_columns(model, data, ddq, j);
      continue;
    }
    const int c = model.r_index(j), row = off + c;
    const Force<S>& y = data.derivatives.y[c];
    data.derivatives.dF[model.parent(j)] += y * S(ddq(row)) + Ej;
    acceleration_column(model, data, ddq, j, c, model.dof_parent(row));
    data.derivatives.D2(row, c) = position_derivative_of_row(data, c, y, data.derivatives.e[c]);
  }
  data.derivatives.fc[0] +=
      data.derivatives.Ic[0] * data.derivatives.dA[0] + data.derivatives.dF[0];
  base.project(data.derivatives.fc[0], data.tau);
}

}  // namespace detail

/// D1..D4 and M at (x, ddq), with the base twist in representation `rep` (see above), for every
/// joint type.
template <class S, class Derived>
void eidamb_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& ddq,
                        TwistRepresentation rep = TwistRepresentation::Body,
                        const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("eidamb_derivatives", model, x);
  detail::check_data_pairing("eidamb_derivatives", model, data);
  LIEDYN_CHECK_SIZE("eidamb_derivatives", "ddq", ddq, model.nv());
  detail::check_wrenches("eidamb_derivatives", model, fext);
  detail::update_poses(model, data, x.s);
  detail::eidamb_derivatives_at_poses(model, data, x, ddq, rep, fext);
}

}  // namespace liedyn
