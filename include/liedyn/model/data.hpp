// liedyn — model: the workspace Data<S>, sized once from a Model.
//
// Every kernel writes its intermediates and outputs here and allocates nothing once the Data
// exists. One Data per thread; the Model itself is shared read-only. Per-body quantities are
// indexed by body (0 = base) and expressed in that body's frame unless their comment says
// otherwise; matrices and vectors of generalized size follow the model's base-first order.
#pragma once

#include <vector>

#include "liedyn/model/model.hpp"

namespace liedyn {

template <class S>
struct Data {
  explicit Data(const Model<S>& model) { resize(model); }

  void resize(const Model<S>& model) {
    const int nb = model.num_bodies(), n = model.num_joints(), nv = model.nv();
    num_bodies = nb;
    H_parent.assign(nb, SE3<S>());
    H_world.assign(nb, SE3<S>());
    H_base.assign(nb, SE3<S>());
    v.assign(nb, Motion<S>());
    vJ.assign(nb, Motion<S>());
    a.assign(nb, Motion<S>());
    a_r.assign(nb, Motion<S>());
    a_vp.assign(nb, Motion<S>());
    a_base.assign(nb, Motion<S>());
    momentum.assign(nb, Force<S>());
    f.assign(nb, Force<S>());
    b_c.assign(nb, Force<S>());
    b_vp.assign(nb, Force<S>());
    Ic.assign(nb, SpatialInertia<S>());
    IA.assign(nb, Matrix6<S>::Zero());
    pA.assign(nb, Force<S>());
    U.assign(nb, Vector6<S>::Zero());
    D.assign(nb, S(0));
    Dinv.assign(nb, S(0));
    u.assign(nb, S(0));
    F.setZero(6, n);
    Fset.assign(nb, Matrix6X<S>::Zero(6, n));
    Pset.assign(nb, Matrix6X<S>::Zero(6, n));
    tau.setZero(nv);
    h.setZero(nv);
    ddq.setZero(nv);
    M.setZero(nv, nv);
    Minv.setZero(nv, nv);
    tmp_nv.setZero(nv);
    tmp_nv2.setZero(nv);
  }

  int num_bodies = 0;

  // --- kinematics -------------------------------------------------------------------------
  std::vector<SE3<S>> H_parent;  ///< ^{λ(i)}H_i(s_i); its inverse action is the paper's ^iX_{λ(i)}
  std::vector<SE3<S>> H_world;   ///< ^A H_i (forward kinematics)
  std::vector<SE3<S>> H_base;    ///< ^0 H_i: body i in the base frame (EIDAmb's F block)
  std::vector<Motion<S>> v;      ///< twist of body i, ^i v_{A,i}
  std::vector<Motion<S>> vJ;     ///< joint velocity Γ_i r_i

  // --- inverse dynamics (EIDAmb, Table 4; RNEA) --------------------------------------------
  std::vector<Motion<S>> a;       ///< RNEA: body acceleration incl. gravity
  std::vector<Motion<S>> a_r;     ///< a^r_i: relative to the base acceleration, with gravity
  std::vector<Motion<S>> a_vp;    ///< a^vp_i: velocity-product part only
  std::vector<Motion<S>> a_base;  ///< ^i a_{A,0}: the base acceleration seen in body i
  std::vector<Force<S>> momentum; ///< m_i = M_i v_i
  std::vector<Force<S>> f;        ///< RNEA: body wrench
  std::vector<Force<S>> b_c;      ///< b^c_i: composite bias wrench
  std::vector<Force<S>> b_vp;     ///< b^vp_i
  std::vector<SpatialInertia<S>> Ic;  ///< composite rigid-body inertia of subtree(i), in frame i

  // --- articulated bodies (ABA, IMMAmb) ---------------------------------------------------
  std::vector<Matrix6<S>> IA;  ///< articulated inertia M^A_i
  std::vector<Force<S>> pA;    ///< articulated bias wrench
  std::vector<Vector6<S>> U;   ///< U_i = M^A_i Γ_i
  std::vector<S> D, Dinv, u;   ///< D_i = Γ_iᵀ U_i (+ armature), its inverse; u_i
  Matrix6X<S> F;               ///< _0F: base–joint block of M (column j−1: joint j), base frame
  std::vector<Matrix6X<S>> Fset;  ///< IMMAmb's 𝓕_i (6 × n each)
  std::vector<Matrix6X<S>> Pset;  ///< IMMAmb's 𝓟_i (6 × n each)

  // --- outputs ------------------------------------------------------------------------------
  VectorX<S> tau;   ///< generalized force τ̄ = [τ̄_b; τ]
  VectorX<S> h;     ///< bias h(x)
  VectorX<S> ddq;   ///< forward dynamics [ν̇; ṙ]
  MatrixX<S> M;     ///< mass matrix, both triangles
  MatrixX<S> Minv;  ///< its inverse, both triangles
  VectorX<S> tmp_nv, tmp_nv2;  ///< scratch of size nv
};

}  // namespace liedyn
