// liedyn — algorithm: the workspace of the inverse-dynamics derivatives (eidamb_derivatives.hpp)
// and of the passes that reuse its "ground" quantities (coriolis.hpp, centroidal.hpp,
// constraint_kinematics_derivatives.hpp), held by Data as data.derivatives.
#pragma once

#include <vector>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// The "ground" quantities, expressed in the base frame 0 frozen at the current instant, and
/// the derivatives D1..D4 of ĪD they yield. Per body, or per joint column: one entry per velocity
/// coordinate of the joints, joint i's from r_index(i) (column d hangs from Vpar_d, Apar_d: the
/// parent's motion, plus a successive joint's earlier columns).
template <class S>
struct DynamicsDerivativesWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nb = model.num_bodies(), n = model.nv_joints(), nv = model.nv();
    const int nbase = model.has_moving_base() ? 6 : 0;
    axis.assign(n, Motion<S>());
    v.assign(nb, Motion<S>());
    a.assign(nb, Motion<S>());
    u.assign(n, Motion<S>());
    phi.assign(n, Motion<S>());
    w.assign(n, Motion<S>());
    axis_rate.assign(n, Motion<S>());
    Ic.assign(nb, SpatialInertia<S>());
    Bc.assign(nb, SpatialInertia<S>());
    hc.assign(nb, Force<S>());
    fc.assign(nb, Force<S>());
    y.assign(n, Force<S>());
    e.assign(n, Force<S>());
    dA.assign(nb, Motion<S>());
    dF.assign(nb, Force<S>());
    D1.setZero(nv, nbase);
    D2.setZero(nv, n);
    D3.setZero(nv, nbase);
    D4.setZero(nv, n);
  }

  std::vector<Motion<S>> axis;        ///< per column: S_d = ^0X_i Γ_i e_d
  std::vector<Motion<S>> v;           ///< per body: V_i = ^0X_i v_i
  std::vector<Motion<S>> a;           ///< per body: A_i = ^0X_i a_i (gravity, base acceleration)
  std::vector<Motion<S>> u;           ///< per column: u_d = S_d × Vpar_d
  std::vector<Motion<S>> phi;         ///< per column: φ_d = S_d × Apar_d − u_d × Vpar_d
  std::vector<Motion<S>> w;           ///< per column: W_d = (Vpar_d + Vpost_d) × S_d
  std::vector<Motion<S>> axis_rate;   ///< per column: Ṡ_d = Vpost_d × S_d (coriolis.hpp)
  std::vector<SpatialInertia<S>> Ic;  ///< composite inertia of subtree(i)
  std::vector<SpatialInertia<S>> Bc;  ///< composite inertia variation Σ (V_j×̄* I_j − I_j V_j×)
  std::vector<Force<S>> hc;           ///< composite momentum
  std::vector<Force<S>> fc;           ///< composite wrench F^c_i (τ_d = S_d · F^c_i)
  std::vector<Force<S>> y;    ///< per column: I^c_i S_d (for the linearization's second pass)
  std::vector<Force<S>> e;    ///< per column: B^c_i S_d − S_d ×̄* h^c_i (likewise)
  std::vector<Motion<S>> dA;  ///< scratch: the change of A_i with the accelerations
  std::vector<Force<S>> dF;   ///< scratch: Σ over subtree(i) of I_j (ΔA_j − ΔA_i)
  MatrixX<S> D1;  ///< ∂ĪD/∂η (nv × 6), twist of the chosen representation held fixed
  MatrixX<S> D2;  ///< ∂ĪD/∂δs (nv × nv_joints), each joint's δs on its own group
  MatrixX<S> D3;  ///< ∂ĪD/∂(base twist) in the chosen representation (nv × 6)
  MatrixX<S> D4;  ///< ∂ĪD/∂r (nv × nv_joints)
};

}  // namespace liedyn
