// liedyn — algorithm: the workspace of the Newton–Euler and composite-body passes (rnea.hpp,
// eidamb.hpp, crba.hpp), held by Data as data.inverse_dynamics.
#pragma once

#include <vector>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// Body accelerations, wrenches and composite inertias of the inverse-dynamics passes (EIDAmb,
/// Table 4; RNEA), each in its body's frame, and the base–joint block of M they yield.
template <class S>
struct InverseDynamicsWorkspace {
  /// (Re)sizes every buffer for `model`, zero-filled (this allocates).
  void resize(const Model<S>& model) {
    const int nb = model.num_bodies(), n = model.nv_joints();
    a.assign(nb, Motion<S>());
    a_r.assign(nb, Motion<S>());
    a_base.assign(nb, Motion<S>());
    momentum.assign(nb, Force<S>());
    f.assign(nb, Force<S>());
    b_c.assign(nb, Force<S>());
    Ic.assign(nb, SpatialInertia<S>());
    F.setZero(6, n);
  }

  std::vector<Motion<S>> a;           ///< RNEA: body acceleration incl. gravity
  std::vector<Motion<S>> a_r;         ///< a^r_i: relative to the base acceleration, with gravity
  std::vector<Motion<S>> a_base;      ///< ^i a_{A,0}: the base acceleration seen in body i
  std::vector<Force<S>> momentum;     ///< m_i = M_i v_i
  std::vector<Force<S>> f;            ///< RNEA: body wrench
  std::vector<Force<S>> b_c;          ///< b^c_i: composite bias wrench
  std::vector<SpatialInertia<S>> Ic;  ///< composite rigid-body inertia of subtree(i), in frame i
  Matrix6X<S> F;  ///< _0F: base–joint block of M (joint j's columns from r_index(j)), base frame
};

}  // namespace liedyn
