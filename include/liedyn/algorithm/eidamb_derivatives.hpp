// liedyn — algorithm: the geometric derivatives of the extended inverse dynamics ĪD(x, ddq)
// with respect to the base pose H (left-trivialized), the joint positions s, the base twist and
// the joint velocities r — the paper's D1..D4 (Tables 5–8 of shared/seeds/000_…, with the
// corrections of conventions.md §3) — and the mass matrix M = ∂ĪD/∂ddq, in one O(n·d) pass
// (d: tree depth).
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
// dynamics pass the accelerations FD(x, τ̄) (conventions.md §3). For a welded base D1 and D3 are
// empty and D2, D4 are n × n.
//
// How (differs from the tables' structure, same results): every quantity is expressed in the
// base frame 0 frozen at the current instant (a "ground" frame for s, ν, r, which do not move
// it) — the restructuring of the IDSVA paper (seed 002), with the base as a 6-DoF root joint.
// With S_i the joint axis, V_i, A_i the body twist and acceleration, I_i the inertia, all in that
// frame, and over subtree(j): composite inertia I^c_j, momentum h^c_j, wrench F^c_j and inertia
// variation B^c_j = Σ (V ×̄* I − I V×), the derivatives reduce to, for k an ancestor of j
// (k ≼ j), with u_k = S_k × V_k, ψ_k = S_k × A_k − u_k × V_k, W_k = (V_λ(k) + V_k) × S_k:
//   ∂τ_j/∂r_k = (I^c_j S_j)·W_k + (S_j × S_k)·h^c_j + (B^c_j S_j)·S_k
//   ∂τ_j/∂s_k = −[(I^c_j S_j)·ψ_k + (S_j × u_k)·h^c_j + (B^c_j S_j)·u_k]
// and for k strictly below j (and for the base rows, j = base, S = I):
//   ∂τ_j/∂r_k = S_j·(I^c_k W_k + S_k ×̄* h^c_k + B^c_k S_k)
//   ∂τ_j/∂s_k = S_j·(S_k ×̄* F^c_k − I^c_k ψ_k − u_k ×̄* h^c_k − B^c_k u_k).
// The base twist is the root joint's velocity (S = I, no parent twist). D1 needs no pass of
// its own: with ν held, H only rotates gravity's fictitious base acceleration a_g0 = ^0X_A(−[g;0]),
// so D1ν = M[:, 0:6] ad(a_g0) — Table 5 collapsed; with w held, Table 5's D1 = D1ν + D3ν ad_ν.
//
// Outputs in Data: D1, D2, D3, D4, M (both triangles, armature included) and tau = ĪD(x, ddq).
// No allocation. D2/D4 entries outside the ancestor/descendant pattern stay zero.
#pragma once

#include "liedyn/algorithm/common.hpp"

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

// D ← D X in place, a row at a time: `D = D * X` aliases, and Eigen would evaluate the product
// into a heap temporary (nv × 6) on every call.
template <class S>
void right_multiply_in_place(MatrixX<S>& D, const Matrix6<S>& X) {
  for (Eigen::Index r = 0; r < D.rows(); ++r) {
    const Eigen::Matrix<S, 1, 6> row = D.row(r);
    D.row(r).noalias() = row * X;
  }
}
}  // namespace detail

/// D1..D4 and M at (x, ddq), with the base twist in representation `rep` (see above).
template <class S, class Derived>
void eidamb_derivatives(const Model<S>& model, Data<S>& data, const State<S>& x, const Eigen::MatrixBase<Derived>& ddq,
                        TwistRepresentation rep = TwistRepresentation::Body,
                        const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("eidamb_derivatives", model, x);
  LIEDYN_CHECK_SIZE("eidamb_derivatives", "ddq", ddq, model.nv());
  detail::check_wrenches("eidamb_derivatives", model, fext);
  const int nb = model.num_bodies();
  const int off = model.offset();
  const bool moving = model.has_moving_base();

  // Forward pass: ground quantities.
  const Motion<S> a_g0 = detail::gravity_in_base(model, x.H);
  data.H_base[0] = SE3<S>::Identity();
  data.ground_v[0] = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  data.ground_a[0] = a_g0;
  if (moving) data.ground_a[0] += Motion<S>(Vector6<S>(ddq.template head<6>()));
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
    const Joint<S>& j = model.joint(i);
    const int p = model.parent(i);
    data.H_parent[i] = j.transform(S(x.s(i - 1)));
    data.H_base[i] = data.H_base[p] * data.H_parent[i];
    const SE3<S>& X0 = data.H_base[i];
    const Motion<S> Si = X0.act(j.screw);
    data.ground_axis[i] = Si;
    const S qd = x.r(i - 1), qdd = ddq(off + i - 1);
    const Motion<S>& Vp = data.ground_v[p];
    data.ground_v[i] = Vp + Si * qd;
    const Motion<S>& Vi = data.ground_v[i];
    data.ground_a[i] = data.ground_a[p] + Si * qdd + Vp.cross(Si) * qd;
    data.ground_u[i] = Si.cross(Vi);
    data.ground_psi[i] = Si.cross(data.ground_a[i]) - data.ground_u[i].cross(Vi);
    data.ground_w[i] = (Vp + Vi).cross(Si);
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

  // Joint rows and columns.
  for (int j = 1; j < nb; ++j) {
    const int row = off + j - 1;
    const Motion<S>& Sj = data.ground_axis[j];
    const Force<S> y = data.ground_Ic[j] * Sj;  // I^c_j S_j (= F's column, M's entries)
    const Force<S> z = data.ground_Bc[j] * Sj;  // B^c_j S_j
    const Force<S>& hc = data.ground_hc[j];
    data.tau(row) = dot(Sj, data.ground_fc[j]) + model.joint(j).armature * S(ddq(row));
    // k ≼ j: ancestors of j (and j itself).
    for (int k = j; k > 0; k = model.parent(k)) {
      const int col = k - 1;
      const Motion<S>& Sk = data.ground_axis[k];
      const Motion<S>& uk = data.ground_u[k];
      data.D4(row, col) = dot(data.ground_w[k], y) + dot(Sj.cross(Sk), hc) + dot(Sk, z);
      data.D2(row, col) = -(dot(data.ground_psi[k], y) + dot(Sj.cross(uk), hc) + dot(uk, z));
      const S Mjk = dot(Sk, y);
      data.M(row, off + col) = Mjk;
      data.M(off + col, row) = Mjk;
    }
    data.M(row, row) += model.joint(j).armature;
    // k strictly below j: column k's subtree sums, projected on the ancestors' axes.
    const Motion<S>& Wj = data.ground_w[j];
    const Motion<S>& uj = data.ground_u[j];
    const Force<S> Q = data.ground_Ic[j] * Wj + Sj.cross(hc) + z;
    const Force<S> P = Sj.cross(data.ground_fc[j]) - data.ground_Ic[j] * data.ground_psi[j] - uj.cross(hc) -
                       data.ground_Bc[j] * uj;
    const int col = j - 1;
    for (int a = model.parent(j); a > 0; a = model.parent(a)) {
      const Motion<S>& Sa = data.ground_axis[a];
      data.D4(off + a - 1, col) = dot(Sa, Q);
      data.D2(off + a - 1, col) = dot(Sa, P);
    }
    if (moving) {
      data.D4.col(col).template head<6>() = Q.vector();
      data.D2.col(col).template head<6>() = P.vector();
      data.M.col(off + col).template head<6>() = y.vector();
      data.M.row(off + col).template head<6>() = y.vector().transpose();
    }
  }
  if (!moving) return;

  // Base columns (the root joint: S = I, W = ν × e_m) and base rows.
  data.tau.template head<6>() = data.ground_fc[0].vector();
  const Motion<S> nu(x.nu);
  const Matrix6<S> ad_nu = nu.cross_matrix();
  data.M.template topLeftCorner<6, 6>() = data.ground_Ic[0].matrix();
  data.D3.template topRows<6>() = data.ground_Ic[0].matrix() * ad_nu +
                                  detail::cross_star_of_force(data.ground_hc[0]) + data.ground_Bc[0].matrix();
  for (int j = 1; j < nb; ++j) {
    const Motion<S>& Sj = data.ground_axis[j];
    const Vector6<S> y = (data.ground_Ic[j] * Sj).vector();
    const Vector6<S> z = (data.ground_Bc[j] * Sj).vector();
    // Row j: yᵀ ad_ν + Sjᵀ [x ↦ x ×̄* h^c_j] + zᵀ.
    data.D3.row(off + j - 1) = (ad_nu.transpose() * y + detail::cross_star_of_force(data.ground_hc[j]).transpose() *
                                                            Sj.vector() + z).transpose();
  }

  // D1ν = M[:, 0:6] ad(a_g0): with ν held, moving H only turns gravity in the base frame.
  data.D1.noalias() = data.M.leftCols(6) * a_g0.cross_matrix();

  switch (rep) {
    case TwistRepresentation::Body: break;
    case TwistRepresentation::Inertial:
      // w held: ν = ^0X_A w moves with H, ∂ν/∂η = ad_ν; and ∂ν/∂w = ^0X_A.
      data.D1.noalias() += data.D3 * ad_nu;
      detail::right_multiply_in_place(data.D3, x.H.inverse().velocity_transform());
      break;
    case TwistRepresentation::Mixed: {
      // m held: ν = blockdiag(Rᵀ, Rᵀ) m, ∂ν/∂η = [0, v^; 0, ω^]; and ∂ν/∂m = blockdiag(Rᵀ, Rᵀ).
      Matrix6<S> dnu = Matrix6<S>::Zero();
      dnu.template topRightCorner<3, 3>() = hat(nu.linear());
      dnu.template bottomRightCorner<3, 3>() = hat(nu.angular());
      data.D1.noalias() += data.D3 * dnu;
      Matrix6<S> Rt = Matrix6<S>::Zero();
      Rt.template topLeftCorner<3, 3>() = x.H.rotation().transpose();
      Rt.template bottomRightCorner<3, 3>() = x.H.rotation().transpose();
      detail::right_multiply_in_place(data.D3, Rt);
      break;
    }
  }
}

}  // namespace liedyn
