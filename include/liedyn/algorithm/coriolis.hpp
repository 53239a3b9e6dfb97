// liedyn — algorithm: a Coriolis matrix C(x) of a moving-base (or welded-base) tree, with
// C ν̄ = the velocity-product terms V(x) of rnea.hpp (h = V + G) and Ṁ − 2C skew-symmetric,
// Ṁ = d/dt M(s ⊕ t r), in the body-twist coordinates ν̄ = [ν; r] (base first); every joint type.
//
// Construction (the factorization of Niemeyer–Slotine, Echeverri et al., and Pinocchio's
// computeCoriolisMatrix, in the base frame 0 frozen at the current instant): with J_i the
// Jacobian of body i's twist V_i in frame 0, İ_i = V_i ×̄* I_i − I_i V_i× and X(h) the matrix
// of u ↦ u ×̄* h,
//   C = Σ_i J_iᵀ [ I_i J̇_i + ½ (İ_i + X(I_i V_i)) J_i ].
// C ν̄ = Σ J_iᵀ (I_i J̇_i ν̄ + V_i ×̄* I_i V_i) is the velocity-product part of RNEA; and with
// Ṁ = Σ (J̇_iᵀ I_i J_i + J_iᵀ I_i J̇_i + J_iᵀ İ_i J_i), Ṁ − 2C = Σ (J̇ᵀ I J − Jᵀ I J̇) − Σ Jᵀ X(I V) J,
// skew since X(h) is. J's columns are the joints' ground columns S_d (eidamb_derivatives.hpp);
// column d of J̇_i is Ṡ_d = Vpost_d × S_d = W_d + u_d (the motion after column d turns it: −u_d
// for a 1-DoF joint and a successive column); the base's columns are e_m with derivative
// ν × e_m. Summing over subtrees with composites I^c, B^c = Σ İ, h^c = Σ I V, with
// y_c = I^c_j S_c and e_c = ½ (B^c_j S_c − S_c ×̄* h^c_j) for a column c of joint j:
//   C_cd = Ṡ_d·y_c + S_d·e_c          (d a column of an ancestor of j, or of j itself),
//   C_dc = S_d·(I^c_j Ṡ_c + ½ B^c_j S_c + ½ S_c ×̄* h^c_j)   (d of a strict ancestor),
// zero between branches (within a joint both forms agree: B^c is symmetric). O(n·d). No
// allocation.
#pragma once

#include "liedyn/algorithm/eidamb_derivatives.hpp"

namespace liedyn {

namespace detail {
/// Body i's ground twist and its joint's columns S_d and Ṡ_d (see the header): the velocities
/// only for a 1-DoF joint (Ṡ = V_λ × S = −u), ground_motion_of_body's columns otherwise.
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void coriolis_motion_of_body(const Model<S>& model, Data<S>& data,
                                                  const State<S>& x,
                                                  const Eigen::MatrixBase<Derived>& no_acceleration,
                                                  int i) {
  if (!model.joint(i).one_dof()) {
    ground_motion_of_joint_columns(model, data, x, no_acceleration, i);
    for (int c = model.r_index(i); c < model.r_index(i + 1); ++c)
      data.derivatives.axis_rate[c] = data.derivatives.w[c] + data.derivatives.u[c];
    return;
  }
  const int p = model.parent(i), c = model.r_index(i);
  const Motion<S> Si = model.joint(i).subspace_in(data.kinematics.H_base[i]);
  data.derivatives.axis[c] = Si;
  data.derivatives.axis_rate[c] = data.derivatives.v[p].cross(Si);  // −u_c = V_λ × S_c
  data.derivatives.v[i] = data.derivatives.v[p] + Si * S(x.r(c));
}

}  // namespace detail

/// The Coriolis matrix C(x) (nv × nv, base first, body base twist) into data.coriolis: C ν̄ =
/// coriolis_force(x), Ṁ − 2C skew-symmetric; every joint type. Writes data.kinematics.H_parent,
/// H_base and data.derivatives (frame 0 quantities, see eidamb_derivatives.hpp).
template <class S>
const MatrixX<S>& coriolis_matrix(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("coriolis_matrix", model, x);
  detail::check_data_pairing("coriolis_matrix", model, data);
  detail::update_poses(model, data, x.s);
  const int nb = model.num_bodies(), off = model.offset();
  const auto no_acceleration = VectorX<S>::Zero(model.nv());
  detail::ground_motion_of_root(model, data, x, no_acceleration, detail::GravityTerm::Excluded);
  const Motion<S> nu = data.derivatives.v[0];
  {
    const SpatialInertia<S>& I0 = model.inertia(0);
    data.derivatives.Ic[0] = I0;
    data.derivatives.hc[0] = I0 * nu;
    data.derivatives.Bc[0] = I0.variation(nu);
  }
  for (int i = 1; i < nb; ++i) {
    detail::coriolis_motion_of_body(model, data, x, no_acceleration, i);
    const SpatialInertia<S> Ii = model.inertia(i).transformed(data.kinematics.H_base[i]);
    data.derivatives.Ic[i] = Ii;
    data.derivatives.hc[i] = Ii * data.derivatives.v[i];
    data.derivatives.Bc[i] = Ii.variation(data.derivatives.v[i]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    data.derivatives.Ic[p] += data.derivatives.Ic[i];
    data.derivatives.hc[p] += data.derivatives.hc[i];
    data.derivatives.Bc[p] += data.derivatives.Bc[i];
  }
  MatrixX<S>& C = data.coriolis;
  C.setZero();
  const S half(0.5);
  for (int j = 1; j < nb; ++j) {
    const SpatialInertia<S>& Ic = data.derivatives.Ic[j];
    const Force<S>& hc = data.derivatives.hc[j];
    const int c0 = model.r_index(j), c_end = model.r_index(j + 1);
    for (int c = c0; c < c_end; ++c) {
      const int row = off + c;
      const Motion<S>& Sc = data.derivatives.axis[c];
      const Force<S> y = Ic * Sc;
      const Force<S> BS = data.derivatives.Bc[j] * Sc;
      const Force<S> Sxh = Sc.cross(hc);
      const Force<S> e = (BS - Sxh) * half;
      // Column c at the strict ancestors' rows: S_d · F_c.
      const Force<S> F = (BS + Sxh) * half + Ic * data.derivatives.axis_rate[c];
      for (int d = c0; d < c_end; ++d)
        C(row, off + d) = dot(data.derivatives.axis_rate[d], y) + dot(data.derivatives.axis[d], e);
      for (int vd = model.dof_parent(off + c0); vd >= off; vd = model.dof_parent(vd)) {
        C(row, vd) =
            dot(data.derivatives.axis_rate[vd - off], y) + dot(data.derivatives.axis[vd - off], e);
        C(vd, row) = dot(data.derivatives.axis[vd - off], F);
      }
      if (off) {
        // Base columns: y·(ν × e_m) + e_m·e = (e − ν ×̄* y)_m; base rows: F.
        C.row(row).template head<6>() = (e - nu.cross(y)).vector().transpose();
        C.col(row).template head<6>() = F.vector();
      }
    }
  }
  if (off)
    C.template topLeftCorner<6, 6>() = data.derivatives.Ic[0].matrix() * nu.cross_matrix() +
                                       half * (data.derivatives.Bc[0].matrix() +
                                               detail::cross_star_of_force(data.derivatives.hc[0]));
  return C;
}

}  // namespace liedyn
