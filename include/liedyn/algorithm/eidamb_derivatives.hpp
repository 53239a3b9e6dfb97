// liedyn — algorithm: the geometric derivatives of the extended inverse dynamics ĪD(x, ddq)
// with respect to the base pose H (left-trivialized), the joint positions s, the base twist and
// the joint velocities r — the paper's D1..D4 (Tables 5–8 of Bos–Traversaro–Pucci–Saccon 2022,
// with the corrections of docs/conventions.md §3) — and the mass matrix M = ∂ĪD/∂ddq, in one
// O(n·d) pass (d: tree depth).
//
// Frames and order. Rows follow τ̄ = [τ̄_b; τ] (base first, τ̄_b in the base frame). Columns:
//   D1 = ∂ĪD/∂η with H = H̄ exp(η^), η linear first (nv × 6);
//   D2 = ∂ĪD/∂s (nv × n); D3 = ∂ĪD/∂(base twist) (nv × 6); D4 = ∂ĪD/∂r (nv × n).
// `rep` chooses the base-twist variable: D3 is the derivative with respect to the twist in that
// representation, and D1 holds THAT twist fixed while H moves:
//   Body (native ν):  D1ν;    Inertial (w = ^AX_0 ν, the paper's Table 5): D1w = D1ν + D3ν ad_ν,
//   D3w = D3ν ^0X_A;          Mixed (m = blockdiag(R, R) ν): D1m = D1ν + D3ν [0, v^; 0, ω^],
//   D3m = D3ν blockdiag(Rᵀ, Rᵀ).
// They are evaluated at the given accelerations ddq = [ν̇; ṙ]; for the linearization of forward
// dynamics pass the accelerations FD(x, τ̄) (docs/conventions.md §3). For a welded base D1 and D3
// are empty and D2, D4 are n × n.
//
// How (differs from the tables' structure, same results): every quantity is expressed in the
// base frame 0 frozen at the current instant (a "ground" frame for s, ν, r, which do not move
// it) — the restructuring of the IDSVA paper (Singh–Russell–Wensing 2022), with the base as a
// 6-DoF root joint.
// With S_i the joint axis, V_i, A_i the body twist and acceleration, I_i the inertia, all in that
// frame, and over subtree(j): composite inertia I^c_j, momentum h^c_j, wrench F^c_j and inertia
// variation B^c_j = Σ (V ×̄* I − I V×), the derivatives reduce to, for k an ancestor of j
// (k ≼ j), with u_k = S_k × V_k, ψ_k = S_k × A_k − u_k × V_k, W_k = (V_λ(k) + V_k) × S_k
// (= −2 u_k, as V_k − V_λ(k) is along S_k):
//   ∂τ_j/∂r_k = (I^c_j S_j)·W_k + (S_j × S_k)·h^c_j + (B^c_j S_j)·S_k
//   ∂τ_j/∂s_k = −[(I^c_j S_j)·ψ_k + (S_j × u_k)·h^c_j + (B^c_j S_j)·u_k]
// and for k strictly below j (and for the base rows, j = base, S = I):
//   ∂τ_j/∂r_k = S_j·(I^c_k W_k + S_k ×̄* h^c_k + B^c_k S_k)
//   ∂τ_j/∂s_k = S_j·(S_k ×̄* F^c_k − I^c_k ψ_k − u_k ×̄* h^c_k − B^c_k u_k).
// With (a × b)·f = −b·(a ×̄* f), the first pair is evaluated as, with y = I^c_j S_j and
// e = B^c_j S_j − S_j ×̄* h^c_j computed once per j, ∂τ_j/∂r_k = W_k·y + S_k·e and
// ∂τ_j/∂s_k = −(ψ_k·y + u_k·e), M_jk = S_k·y: dot products only, per (j, k) pair.
// The base twist is the root joint's velocity (S = I, no parent twist, W_m = ν × e_m), so the
// base columns of joint row j are D3ν[j, :] = (e − ν ×̄* y)ᵀ. D1 needs no pass of its own: with ν
// held, H only rotates gravity's fictitious base acceleration a_g0 = ^0X_A(−[g;0]), so
// D1ν = M[:, 0:6] ad(a_g0) (row j: −(a_g0 ×̄* y)ᵀ) — Table 5 collapsed; with w held, Table 5's
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
}  // namespace detail

namespace detail {
// The D2 formulas of the header, shared by ground_derivative_pass and ground_acceleration_pass
// (which puts the accelerations in afterwards). The wrench P_j = S_j ×̄* F^c_j − I^c_j ψ_j −
// u_j ×̄* h^c_j − B^c_j u_j gives column j: S_k·P_j at the rows of the ancestors k ≺ j, P_j at
// the base rows.
template <class S>
LIEDYN_ALWAYS_INLINE Force<S> position_derivative_wrench(const Data<S>& data, int j,
                                                         const Force<S>& Fc) {
  const Motion<S>& uj = data.ground_u[j];
  return data.ground_axis[j].cross(Fc) - data.ground_Ic[j] * data.ground_psi[j] -
         uj.cross(data.ground_hc[j]) - data.ground_Bc[j] * uj;
}
// Row j's entry at column k ≼ j (y_j = I^c_j S_j, e_j = B^c_j S_j − S_j ×̄* h^c_j):
// ∂τ_j/∂s_k = −(ψ_k·y_j + u_k·e_j).
template <class S>
LIEDYN_ALWAYS_INLINE S position_derivative_of_row(const Data<S>& data, int k, const Force<S>& y,
                                                  const Force<S>& e) {
  return -(dot(data.ground_psi[k], y) + dot(data.ground_u[k], e));
}

/// The root of every ground pass: the base's ground twist ν (zero for a welded base) and its
/// acceleration ν̇ + a_g0, gravity as a fictitious base acceleration (frozen base frame; a_g0 = 0
/// without gravity).
template <class S, class Derived>
inline void ground_motion_of_root(const Model<S>& model, Data<S>& data, const State<S>& x,
                                  const Eigen::MatrixBase<Derived>& ddq, bool with_gravity = true) {
  const bool moving = model.has_moving_base();
  data.ground_v[0] = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  data.ground_a[0] = with_gravity ? detail::gravity_in_base(model, x.H) : Motion<S>::Zero();
  if (moving) data.ground_a[0] += Motion<S>(Vector6<S>(ddq.template head<6>()));
}

/// Body i's ground motion from its parent's (poses in data.H_base): S_i = ^0X_i Γ_i,
/// V_i = V_λ(i) + S_i ṡ_i, u_i = S_i × V_λ(i), A_i = A_λ(i) + S_i s̈_i − u_i ṡ_i.
/// S_i × V_i = S_i × V_λ(i) (S_i × S_i = 0), so V_λ(i) × S_i = −u_i, and Ṡ_i = −u_i: the axis
/// turns with its body.
template <class S, class Derived>
inline void ground_motion_of_body(const Model<S>& model, Data<S>& data, const State<S>& x,
                                  const Eigen::MatrixBase<Derived>& ddq, int i) {
  const int p = model.parent(i);
  const Motion<S> Si = model.joint(i).subspace_in(data.H_base[i]);
  data.ground_axis[i] = Si;
  const S qd = x.r(model.r_index(i)), qdd = ddq(model.v_index(i));
  const Motion<S>& Vp = data.ground_v[p];
  data.ground_v[i] = Vp + Si * qd;
  const Motion<S> ui = Si.cross(Vp);
  data.ground_u[i] = ui;
  data.ground_a[i] = data.ground_a[p] + Si * qdd - ui * qd;
}

/// The forward recursion alone (ground_axis, ground_v, ground_u, ground_a for every body) at the
/// poses in data.H_base: what the constraint kinematics derivatives need, without inertias.
template <class S, class Derived>
void ground_motion_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& ddq) {
  ground_motion_of_root(model, data, x, ddq);
  for (int i = 1; i < model.num_bodies(); ++i) ground_motion_of_body(model, data, x, ddq, i);
}

/// The derivative pass at the poses already in data.H_parent and data.H_base for x.s
/// (update_poses). kWithD2 = true: everything, at the accelerations ddq. kWithD2 = false: all but
/// D2 (τ̄, M, D1, D3, D4, which the linearization needs before it knows the accelerations),
/// leaving I^c_j S_j and e_j in data.ground_y, ground_e for ground_acceleration_pass.
/// kWithGravity = false: the derivatives of ĪD with g = 0 (ĪD is affine in gravity's
/// acceleration).
template <bool kWithD2, bool kWithGravity = true, class S, class Derived>
void ground_derivative_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                            const Eigen::MatrixBase<Derived>& ddq, TwistRepresentation rep,
                            const ExternalWrenches<S>* fext) {
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();

  // Forward pass: ground quantities.
  ground_motion_of_root(model, data, x, ddq, kWithGravity);
  const Motion<S> a_g0 = kWithGravity ? detail::gravity_in_base(model, x.H) : Motion<S>::Zero();
  {
    const SpatialInertia<S>& I0 = model.inertia(0);
    const Motion<S>& V0 = data.ground_v[0];
    data.ground_Ic[0] = I0;
    data.ground_hc[0] = I0 * V0;
    data.ground_fc[0] = I0 * data.ground_a[0] + V0.cross(data.ground_hc[0]);
    if (fext) data.ground_fc[0] -= (*fext)[0];
    data.ground_Bc[0] = I0.variation(V0);
  }
  for (int i = 1; i < nb; ++i) {
    const SE3<S>& X0 = data.H_base[i];
    ground_motion_of_body(model, data, x, ddq, i);
    const Motion<S>& Si = data.ground_axis[i];
    const Motion<S>& Vi = data.ground_v[i];
    const Motion<S>& ui = data.ground_u[i];
    if (kWithD2) data.ground_psi[i] = Si.cross(data.ground_a[i]) - ui.cross(Vi);
    data.ground_w[i] = ui * S(-2);
    const SpatialInertia<S> Ii = model.inertia(i).transformed(X0);
    data.ground_Ic[i] = Ii;
    data.ground_hc[i] = Ii * Vi;
    data.ground_fc[i] = Ii * data.ground_a[i] + Vi.cross(data.ground_hc[i]);
    if (fext) data.ground_fc[i] -= X0.act((*fext)[i]);
    data.ground_Bc[i] = Ii.variation(Vi);
  }
  // Backward pass: composites.
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    data.ground_Ic[p] += data.ground_Ic[i];
    data.ground_hc[p] += data.ground_hc[i];
    data.ground_fc[p] += data.ground_fc[i];
    data.ground_Bc[p] += data.ground_Bc[i];
  }

  // Joint rows and columns (the k ≼ j entries through y and e, see above), on the tree's
  // ancestor/descendant pattern only: the outputs are cleared first, so the entries between
  // branches are zero whatever they held. Whole columns, not just their joint rows: one
  // contiguous store instead of one per column (the base rows are written below, and so are M's
  // base columns).
  dense::set_zero_right_columns(data.M, model.nv_joints());
  dense::set_zero(data.D4);
  if (kWithD2) dense::set_zero(data.D2);
  const Motion<S> nu = data.ground_v[0];
  for (int j = 1; j < nb; ++j) {
    const int row = model.v_index(j);
    const int col = model.r_index(j);
    const SpatialInertia<S>& Ic = data.ground_Ic[j];
    const SpatialInertia<S>& Bc = data.ground_Bc[j];
    const Force<S>& hc = data.ground_hc[j];
    const Motion<S>& Sj = data.ground_axis[j];
    const Force<S> y = Ic * Sj;  // I^c_j S_j (= F's column, M's entries)
    const Force<S> z = Bc * Sj;  // B^c_j S_j
    const Force<S> Sxh = Sj.cross(hc);
    const Force<S> e = z - Sxh;
    // Column j below the diagonal: subtree sums projected on the ancestors' axes.
    const Force<S> Q = Ic * data.ground_w[j] + Sxh + z;
    data.tau(row) = dot(Sj, data.ground_fc[j]) + model.joint(j).armature * S(ddq(row));
    // k = j (S_j·e = S_j·z exactly: S_j × S_j = 0).
    data.D4(row, col) = dot(data.ground_w[j], y) + dot(Sj, z);
    data.M(row, row) = dot(Sj, y) + model.joint(j).armature;
    Force<S> P;
    if (kWithD2) {
      P = position_derivative_wrench(data, j, data.ground_fc[j]);
      data.D2(row, col) = position_derivative_of_row(data, j, y, e);
    } else {
      data.ground_y[j] = y;
      data.ground_e[j] = e;
    }
    // k ≺ j: row j's entry at column k and column j's entry at row k, in one walk (W_k = −2 u_k).
    for (int k = model.parent(j); k > 0; k = model.parent(k)) {
      const int rk = model.v_index(k);
      const Motion<S>& Sk = data.ground_axis[k];
      const Motion<S>& uk = data.ground_u[k];
      data.D4(row, model.r_index(k)) = dot(Sk, e) - S(2) * dot(uk, y);
      const S Mjk = dot(Sk, y);
      data.M(row, rk) = Mjk;
      data.M(rk, row) = Mjk;
      data.D4(rk, col) = dot(Sk, Q);
      if (kWithD2) {
        data.D2(row, model.r_index(k)) = position_derivative_of_row(data, k, y, e);
        data.D2(rk, col) = dot(Sk, P);
      }
    }
    if (moving) {
      data.D4.col(col).template head<6>() = Q.vector();
      if (kWithD2) data.D2.col(col).template head<6>() = P.vector();
      data.M.col(row).template head<6>() = y.vector();
      data.M.row(row).template head<6>() = y.vector().transpose();
      // Row j of D1ν = M[j, 0:6] ad(a_g0) = −(a_g0 ×̄* y)ᵀ; of D3ν = yᵀ ad_ν + eᵀ (the base as
      // the root joint: S = I, W = ν × e_m), i.e. (e − ν ×̄* y)ᵀ.
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
      for (int c = 0; c < 6; ++c) {
        data.D1(row, c) = d1[c];
        data.D3(row, c) = d3[c];
      }
    }
  }
  if (!moving) return;

  // Base rows: τ̄_b = F^c_0; M, D1ν, D3ν from the whole-tree composites.
  data.tau.template head<6>() = data.ground_fc[0].vector();
  const Matrix6<S> Ic0 = data.ground_Ic[0].matrix();
  data.M.template topLeftCorner<6, 6>() = Ic0;
  data.D1.template topRows<6>() = Ic0 * a_g0.cross_matrix();
  data.D3.template topRows<6>() = Ic0 * nu.cross_matrix() +
                                  detail::cross_star_of_force(data.ground_hc[0]) +
                                  data.ground_Bc[0].matrix();

  // Other representations, a row at a time with fixed-size operations (a D3 = D3 X product
  // would alias, and Eigen would evaluate it into a heap temporary).
  switch (rep) {
    case TwistRepresentation::Body: break;
    case TwistRepresentation::Inertial: {
      // w held: ν = ^0X_A w moves with H, ∂ν/∂η = ad_ν (d3ᵀ ad_ν = −(ν ×̄* d3)ᵀ); ∂ν/∂w = ^0X_A.
      const Matrix6<S> X0A = x.H.inverse().velocity_transform();
      for (Eigen::Index r = 0; r < data.D3.rows(); ++r) {
        const Force<S> d3(data.D3.row(r).transpose());
        data.D1.row(r) -= nu.cross(d3).vector().transpose();
        data.D3.row(r) = d3.vector().transpose() * X0A;
      }
      break;
    }
    case TwistRepresentation::Mixed: {
      // m held: ν = blockdiag(Rᵀ, Rᵀ) m, ∂ν/∂η = [0, v^; 0, ω^]; ∂ν/∂m = blockdiag(Rᵀ, Rᵀ).
      const Matrix3<S>& R = x.H.rotation();
      for (Eigen::Index r = 0; r < data.D3.rows(); ++r) {
        const Vector3<S> dl = data.D3.row(r).template head<3>().transpose();
        const Vector3<S> da = data.D3.row(r).template tail<3>().transpose();
        data.D1.row(r).template tail<3>() +=
            (dl.cross(nu.linear()) + da.cross(nu.angular())).transpose();
        data.D3.row(r).template head<3>() = (R * dl).transpose();
        data.D3.row(r).template tail<3>() = (R * da).transpose();
      }
      break;
    }
  }
}

/// eidamb_derivatives at the poses already in data.H_parent and data.H_base for x.s
/// (update_poses), for a caller that has them from another kernel at the same s.
template <class S, class Derived>
void eidamb_derivatives_at_poses(const Model<S>& model, Data<S>& data, const State<S>& x,
                                 const Eigen::MatrixBase<Derived>& ddq, TwistRepresentation rep,
                                 const ExternalWrenches<S>* fext) {
  ground_derivative_pass<true>(model, data, x, ddq, rep, fext);
}

/// After ground_derivative_pass<false> at zero accelerations (which left τ̄ = h(x), M, D1, D3,
/// D4): the accelerations ddq put in — A_i, F^c_i, τ̄ = ĪD(x, ddq) and D2 at ddq, without a new
/// pass over the velocities and inertias. ĪD is affine in ddq: A_i changes by
/// ΔA_i = ΔA_λ(i) + S_i q̈_i (ΔA_0 = ν̇) and F^c_i by Σ_{j ∈ subtree(i)} I_j ΔA_j = I^c_i ΔA_i + E_i,
/// E_i = Σ_{children c} (I^c_c S_c q̈_c + E_c): composites only, the bodies' own inertias are
/// not needed. M, D1, D3, D4 do not depend on ddq. ĪD is affine in body-fixed external wrenches
/// too, and they enter only F^c (so D2 and τ̄): `fext`, if given, is put in as well (the pass at
/// zero accelerations having run without it), each body's wrench starting its E_i.
template <class S, class Derived>
void ground_acceleration_pass(const Model<S>& model, Data<S>& data,
                              const Eigen::MatrixBase<Derived>& ddq,
                              const ExternalWrenches<S>* fext = nullptr) {
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();
  data.ground_dA[0] = moving ? Motion<S>(Vector6<S>(ddq.template head<6>())) : Motion<S>::Zero();
  data.ground_a[0] += data.ground_dA[0];
  data.ground_dF[0] = fext ? Force<S>(-(*fext)[0]) : Force<S>::Zero();
  for (int i = 1; i < nb; ++i) {
    const Motion<S>& Si = data.ground_axis[i];
    data.ground_dA[i] = data.ground_dA[model.parent(i)] + Si * S(ddq(model.v_index(i)));
    data.ground_a[i] += data.ground_dA[i];
    data.ground_psi[i] = Si.cross(data.ground_a[i]) - data.ground_u[i].cross(data.ground_v[i]);
    data.ground_dF[i] = fext ? Force<S>(-data.H_base[i].act((*fext)[i])) : Force<S>::Zero();
  }
  // Leaves first: E_j is complete when j is reached. Then D2 as in ground_derivative_pass
  // (cleared whole first: only the pattern is written).
  dense::set_zero(data.D2);
  for (int j = nb - 1; j >= 1; --j) {
    const int row = model.v_index(j);
    const int col = model.r_index(j);
    const S qdd = ddq(row);
    const SpatialInertia<S>& Ic = data.ground_Ic[j];
    const Motion<S>& Sj = data.ground_axis[j];
    const Force<S>& y = data.ground_y[j];
    const Force<S>& e = data.ground_e[j];
    const Force<S>& Ej = data.ground_dF[j];
    Force<S>& Fc = data.ground_fc[j];
    Fc += Ic * data.ground_dA[j] + Ej;
    data.ground_dF[model.parent(j)] += y * qdd + Ej;
    data.tau(row) = dot(Sj, Fc) + model.joint(j).armature * qdd;
    const Force<S> P = position_derivative_wrench(data, j, Fc);
    data.D2(row, col) = position_derivative_of_row(data, j, y, e);
    for (int k = model.parent(j); k > 0; k = model.parent(k)) {
      data.D2(row, model.r_index(k)) = position_derivative_of_row(data, k, y, e);
      data.D2(model.v_index(k), col) = dot(data.ground_axis[k], P);
    }
    if (moving) data.D2.col(col).template head<6>() = P.vector();
  }
  data.ground_fc[0] += data.ground_Ic[0] * data.ground_dA[0] + data.ground_dF[0];
  if (moving) data.tau.template head<6>() = data.ground_fc[0].vector();
}

}  // namespace detail

/// D1..D4 and M at (x, ddq), with the base twist in representation `rep` (see above).
template <class S, class Derived>
void eidamb_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x,
                        const Eigen::MatrixBase<Derived>& ddq,
                        TwistRepresentation rep = TwistRepresentation::Body,
                        const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("eidamb_derivatives", model, x);
  detail::check_data("eidamb_derivatives", model, data);
  LIEDYN_CHECK_SIZE("eidamb_derivatives", "ddq", ddq, model.nv());
  detail::check_wrenches("eidamb_derivatives", model, fext);
  detail::update_poses(model, data, x.s);
  detail::eidamb_derivatives_at_poses(model, data, x, ddq, rep, fext);
}

}  // namespace liedyn
