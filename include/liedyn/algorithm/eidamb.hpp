// liedyn — algorithm: EIDAmb, the extended inverse dynamics of a moving-base robot (Table 4 of
// Bos, Traversaro, Pucci, Saccon 2022), which also returns the base wrench.
//
// Frames and order (docs/conventions.md §2, §6): x = (H, s, ν, r) with ν the base BODY twist (the
// table takes the inertial twist w and computes ν = ^0X_A w on its line 5; we take ν directly);
// ddq = [ν̇; ṙ] with ν̇ = ^0 a_{A,0}; output τ̄ = [τ̄_b; τ] base first (the table prints it
// joints first), τ̄_b the base wrench in the base frame. Gravity: the table's ^A a_grav input is
// −[g; 0] with g = model.gravity(). Joint armature adds armature_i ṙ_i to τ_i; external wrenches
// (body frames) enter the bias wrenches b^c and b^vp.
//
// Two of the table's tracks are dropped because they only feed line 40, which has a cheaper
// equal: the velocity-product acceleration and wrench a^vp, b^vp (lines 7*, 18*, 22*, 27*) and
// the base–joint block _0F (lines 32–38**). With b^c_0 − b^vp_0 = Σ_i _0X^i M_i (a^r_i − a^vp_i)
// = _0F ṙ, line 40 reads τ̄_b = M^c_0 ^0a_{A,0} + b^c_0 — the joint lines' own formula at the
// base. _0F is crba's data.inverse_dynamics.F (and M[0:6, 6:]); the derivative kernel has its own
// pass.
//
// Intermediates left in Data: data.kinematics.v (v_i), data.kinematics.vJ,
// data.inverse_dynamics.a_r (a^r_i), data.inverse_dynamics.momentum (m_i),
// data.inverse_dynamics.b_c, data.inverse_dynamics.Ic (composite inertias, frame i, fully
// accumulated), data.inverse_dynamics.a_base (^i a_{A,0}) and data.kinematics.H_parent (^{λ(i)}H_i,
// whose inverse action is ^iX_{λ(i)}). For a welded base the base twist and acceleration are zero
// and only τ is returned. The table's ^iX_λ(i) and _λ(i)X^i are the joint's own moves
// (Joint::motion_to_child, add_force_to_parent), which know its fast case. Cost O(n); no
// allocation.
#pragma once

#include "liedyn/algorithm/common.hpp"

namespace liedyn {

/// Extended inverse dynamics τ̄ = M(s) ddq + h(x) (EIDAmb, Table 4). Returns data.tau.
template <class S, class Derived>
const VectorX<S>& eidamb(const Model<S>& model, Data<S>& data, const State<S>& x,
                         const Eigen::MatrixBase<Derived>& ddq,
                         const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("eidamb", model, x);
  detail::check_data_pairing("eidamb", model, data);
  LIEDYN_CHECK_SIZE("eidamb", "ddq", ddq, model.nv());
  detail::check_wrenches("eidamb", model, fext);
  const int nb = model.num_bodies();
  const BaseJoint<S>& base = model.base_joint();

  // Lines 1–5: v_0 = ^0X_A ^A v_{A,0} is the body twist ν itself (zero for a welded base).
  data.kinematics.v[0] = base.twist(x);
  // Line 6: a^r_0 = ^0X_A ^A a_grav.
  data.inverse_dynamics.a_r[0] = detail::gravity_in_base(model, x.H);
  // Lines 8–11.
  const SpatialInertia<S>& M0 = model.inertia(0);
  data.inverse_dynamics.Ic[0] = M0;
  data.inverse_dynamics.momentum[0] = M0 * data.kinematics.v[0];
  data.inverse_dynamics.b_c[0] = M0 * data.inverse_dynamics.a_r[0] +
                                 data.kinematics.v[0].cross(data.inverse_dynamics.momentum[0]);
  if (fext) data.inverse_dynamics.b_c[0] -= (*fext)[0];

  // Lines 12–23: forward pass.
  detail::update_joint_sin_cos(model, data, x.s);
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    const int p = model.parent(i), qi = model.q_index(i), n = model.joint_nv(i);
    const auto q = data.kinematics.joint_q.segment(qi, model.joint_nq(i));
    const auto qd = x.r.segment(model.r_index(i), n);
    j.transform(q, data.kinematics.joint_sin(qi), data.kinematics.joint_cos(qi),
                data.kinematics.H_parent[i]);                          // line 13, 15
    const SE3<S>& X = data.kinematics.H_parent[i];                     // ^iX_{λ(i)} = X⁻¹
    data.kinematics.vJ[i] = j.subspace_times(q, qd);                   // line 14
    j.motion_to_child(X, data.kinematics.v[p], data.kinematics.v[i]);  // line 16
    data.kinematics.v[i] += data.kinematics.vJ[i];
    j.motion_to_child(X, data.inverse_dynamics.a_r[p],
                      data.inverse_dynamics.a_r[i]);  // line 17, with c_J (universal joint)
    data.inverse_dynamics.a_r[i] += j.subspace_times(q, ddq.segment(model.v_index(i), n)) +
                                    data.kinematics.v[i].cross(data.kinematics.vJ[i]);
    j.add_bias(q, qd, data.inverse_dynamics.a_r[i]);
    const SpatialInertia<S>& Mi = model.inertia(i);
    data.inverse_dynamics.Ic[i] = Mi;                               // line 19
    data.inverse_dynamics.momentum[i] = Mi * data.kinematics.v[i];  // line 20
    data.inverse_dynamics.b_c[i] =
        Mi * data.inverse_dynamics.a_r[i] +
        data.kinematics.v[i].cross(data.inverse_dynamics.momentum[i]);  // line 21
    if (fext) data.inverse_dynamics.b_c[i] -= (*fext)[i];
  }

  // Lines 24–28: backward pass, composite inertias and bias wrenches.
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    const SE3<S>& X = data.kinematics.H_parent[i];
    const Joint<S>& j = model.joint(i);
    j.add_inertia_to_parent(X, data.inverse_dynamics.Ic[i],
                            data.inverse_dynamics.Ic[p]);  // line 25
    j.add_force_to_parent(X, data.inverse_dynamics.b_c[i],
                          data.inverse_dynamics.b_c[p]);  // line 26
  }

  // Lines 29–31: joint torques.
  data.inverse_dynamics.a_base[0] = base.acceleration(ddq);
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    j.motion_to_child(data.kinematics.H_parent[i], data.inverse_dynamics.a_base[model.parent(i)],
                      data.inverse_dynamics.a_base[i]);  // line 30
    const int vi = model.v_index(i), n = model.joint_nv(i);
    j.project(data.inverse_dynamics.Ic[i] * data.inverse_dynamics.a_base[i] +
                  data.inverse_dynamics.b_c[i],  // line 31, nv_i rows
              data.kinematics.joint_q.segment(model.q_index(i), model.joint_nq(i)),
              data.tau.segment(vi, n));
    for (int k = vi; k < vi + n; ++k) data.tau(k) += j.armature * S(ddq(k));
  }

  // Line 40, in the equal form of the header: τ̄_b = M^c_0 ^0a_{A,0} + b^c_0.
  base.project(
      data.inverse_dynamics.Ic[0] * data.inverse_dynamics.a_base[0] + data.inverse_dynamics.b_c[0],
      data.tau);
  return data.tau;
}

}  // namespace liedyn
