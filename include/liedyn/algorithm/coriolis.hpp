// liedyn — algorithm: a Coriolis matrix C(x) of a moving-base (or welded-base) tree, with
// C ν̄ = the velocity-product terms V(x) of rnea.hpp (h = V + G) and Ṁ − 2C skew-symmetric,
// Ṁ = Σ_k ∂M/∂s_k r_k, in the body-twist coordinates ν̄ = [ν; r] (base first).
//
// Construction (the factorization of Niemeyer–Slotine, Echeverri et al., and Pinocchio's
// computeCoriolisMatrix, in the base frame 0 frozen at the current instant): with J_i the
// Jacobian of body i's twist V_i in frame 0, İ_i = V_i ×̄* I_i − I_i V_i× and X(h) the matrix
// of u ↦ u ×̄* h,
//   C = Σ_i J_iᵀ [ I_i J̇_i + ½ (İ_i + X(I_i V_i)) J_i ].
// C ν̄ = Σ J_iᵀ (I_i J̇_i ν̄ + V_i ×̄* I_i V_i) is the velocity-product part of RNEA; and with
// Ṁ = Σ (J̇_iᵀ I_i J_i + J_iᵀ I_i J̇_i + J_iᵀ İ_i J_i), Ṁ − 2C = Σ (J̇ᵀ I J − Jᵀ I J̇) − Σ Jᵀ X(I V) J,
// skew since X(h) is. Column k of J̇_i is V_k × S_k = −u_k (u_k = S_k × V_λ(k)); the base's
// columns are e_m with derivative ν × e_m. Summing over subtrees with composites I^c, B^c = Σ İ,
// h^c = Σ I V, with y_j = I^c_j S_j and e_j = ½ (B^c_j S_j − S_j ×̄* h^c_j):
//   C_jk = −y_j·u_k + e_j·S_k                          (k an ancestor of j, or k = j),
//   C_jk = S_j·(−I^c_k u_k + ½ B^c_k S_k + ½ S_k ×̄* h^c_k)   (j a strict ancestor of k),
// zero between branches. O(n·d). No allocation.
#pragma once

#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"

namespace liedyn {

/// The Coriolis matrix C(x) (nv × nv, base first, body base twist) into data.coriolis: C ν̄ =
/// coriolis_force(x), Ṁ − 2C skew-symmetric. Writes data.H_parent, H_base and the ground_*
/// fields (frame 0 quantities, see eidamb_derivatives.hpp).
template <class S>
const MatrixX<S>& coriolis_matrix(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("coriolis_matrix", model, x);
  detail::check_data("coriolis_matrix", model, data);
  detail::update_poses(model, data, x.s);
  const int nb = model.num_bodies();
  const bool moving = model.has_moving_base();
  const Motion<S> nu = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  {
    const SpatialInertia<S>& I0 = model.inertia(0);
    data.ground_v[0] = nu;
    data.ground_Ic[0] = I0;
    data.ground_hc[0] = I0 * nu;
    data.ground_Bc[0] = I0.variation(nu);
  }
  for (int i = 1; i < nb; ++i) {
    const int p = model.parent(i);
    const Motion<S> Si = model.joint(i).subspace_in(data.H_base[i]);
    data.ground_axis[model.r_index(i)] = Si;  // 1-DoF joints: column r_index(i)
    data.ground_u[model.r_index(i)] = Si.cross(data.ground_v[p]);
    data.ground_v[i] = data.ground_v[p] + Si * S(x.r(model.r_index(i)));
    const SpatialInertia<S> Ii = model.inertia(i).transformed(data.H_base[i]);
    data.ground_Ic[i] = Ii;
    data.ground_hc[i] = Ii * data.ground_v[i];
    data.ground_Bc[i] = Ii.variation(data.ground_v[i]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    data.ground_Ic[p] += data.ground_Ic[i];
    data.ground_hc[p] += data.ground_hc[i];
    data.ground_Bc[p] += data.ground_Bc[i];
  }
  MatrixX<S>& C = data.coriolis;
  C.setZero();
  const S half(0.5);
  for (int j = 1; j < nb; ++j) {
    const int row = model.v_index(j);
    const Motion<S>& Sj = data.ground_axis[model.r_index(j)];
    const Motion<S>& uj = data.ground_u[model.r_index(j)];
    const SpatialInertia<S>& Ic = data.ground_Ic[j];
    const Force<S>& hc = data.ground_hc[j];
    const Force<S> y = Ic * Sj;
    const Force<S> BS = data.ground_Bc[j] * Sj;
    const Force<S> Sxh = Sj.cross(hc);
    const Force<S> e = (BS - Sxh) * half;
    // Column j at its strict ancestors: S_k · Fj.
    const Force<S> Fj = (BS + Sxh) * half - Ic * uj;
    C(row, row) = dot(Sj, e) - dot(uj, y);
    for (int k = model.parent(j); k > 0; k = model.parent(k)) {
      const int rk = model.v_index(k);
      const int ck = model.r_index(k);
      C(row, rk) = dot(data.ground_axis[ck], e) - dot(data.ground_u[ck], y);
      C(rk, row) = dot(data.ground_axis[ck], Fj);
    }
    if (moving) {
      // Base columns: y·(ν × e_m) + e_m·e = (e − ν ×̄* y)_m; base rows: Fj.
      C.row(row).template head<6>() = (e - nu.cross(y)).vector().transpose();
      C.col(row).template head<6>() = Fj.vector();
    }
  }
  if (moving)
    C.template topLeftCorner<6, 6>() =
        data.ground_Ic[0].matrix() * nu.cross_matrix() +
        half * (data.ground_Bc[0].matrix() + detail::cross_star_of_force(data.ground_hc[0]));
  return C;
}

}  // namespace liedyn
