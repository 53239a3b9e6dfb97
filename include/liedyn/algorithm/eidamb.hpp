// liedyn — algorithm: EIDAmb, the extended inverse dynamics of a moving-base robot (Table 4 of
// Bos, Traversaro, Pucci, Saccon 2022; shared/seeds/000_…), which also returns the base wrench.
//
// Frames and order (conventions.md §2, §6): x = (H, s, ν, r) with ν the base BODY twist (the
// table takes the inertial twist w and computes ν = ^0X_A w on its line 5; we take ν directly);
// ddq = [ν̇; ṙ] with ν̇ = ^0 a_{A,0}; output τ̄ = [τ̄_b; τ] base first (the table prints it
// joints first), τ̄_b the base wrench in the base frame. Gravity: the table's ^A a_grav input is
// −[g; 0] with g = model.gravity(). Joint armature adds armature_i ṙ_i to τ_i; external wrenches
// (body frames) enter the bias wrenches b^c and b^vp.
//
// Every intermediate stays in Data for the derivative passes: data.v (v_i), data.vJ, data.a_r
// (a^r_i), data.a_vp (a^vp_i), data.momentum (m_i), data.b_c, data.b_vp, data.Ic (composite
// inertias, fully accumulated), data.a_base (^i a_{A,0}), data.F (_0F = M[0:6, 6:]),
// data.H_parent (^{λ(i)}H_i, whose inverse action is ^iX_{λ(i)}) and data.H_base (^0H_i).
// For a welded base the base twist and acceleration are zero and only τ is returned.
// Cost O(n); no allocation.
#pragma once

#include "liedyn/algorithm/common.hpp"

namespace liedyn {

/// Extended inverse dynamics τ̄ = M(s) ddq + h(x) (EIDAmb, Table 4). Returns data.tau.
template <class S, class Derived>
const VectorX<S>& eidamb(const Model<S>& model, Data<S>& data, const State<S>& x,
                         const Eigen::MatrixBase<Derived>& ddq, const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("eidamb", model, x);
  LIEDYN_CHECK_SIZE("eidamb", "ddq", ddq, model.nv());
  detail::check_wrenches("eidamb", model, fext);
  const int nb = model.num_bodies();
  const int off = model.offset();
  const bool moving = model.has_moving_base();

  // Lines 1–5: v_0 = ^0X_A ^A v_{A,0} is the body twist ν itself.
  data.v[0] = moving ? Motion<S>(x.nu) : Motion<S>::Zero();
  // Line 6: a^r_0 = ^0X_A ^A a_grav; line 7*: a^vp_0 = a^r_0.
  data.a_r[0] = detail::gravity_in_base(model, x.H);
  data.a_vp[0] = data.a_r[0];
  // Lines 8–11.
  const SpatialInertia<S>& M0 = model.inertia(0);
  data.Ic[0] = M0;
  data.momentum[0] = M0 * data.v[0];
  data.b_c[0] = M0 * data.a_r[0] + data.v[0].cross(data.momentum[0]);
  if (fext) data.b_c[0] -= (*fext)[0];
  data.b_vp[0] = data.b_c[0];
  data.H_base[0] = SE3<S>::Identity();

  // Lines 12–23: forward pass.
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    const int p = model.parent(i);
    const S qd = x.r(i - 1);
    const S qdd = ddq(off + i - 1);
    data.H_parent[i] = j.transform(S(x.s(i - 1)));             // line 13 (jcalc), 15
    const SE3<S>& X = data.H_parent[i];                                     // ^iX_{λ(i)} = X⁻¹
    data.vJ[i] = j.screw * qd;                                              // line 14
    data.v[i] = X.act_inverse(data.v[p]) + data.vJ[i];                      // line 16
    const Motion<S> vxvJ = data.v[i].cross(data.vJ[i]);
    data.a_r[i] = X.act_inverse(data.a_r[p]) + j.screw * qdd + vxvJ;       // line 17
    data.a_vp[i] = X.act_inverse(data.a_vp[p]) + vxvJ;                     // line 18*
    const SpatialInertia<S>& Mi = model.inertia(i);
    data.Ic[i] = Mi;                                                        // line 19
    data.momentum[i] = Mi * data.v[i];                                      // line 20
    const Force<S> gyro = data.v[i].cross(data.momentum[i]);
    data.b_c[i] = Mi * data.a_r[i] + gyro;                                  // line 21
    data.b_vp[i] = Mi * data.a_vp[i] + gyro;                                // line 22*
    if (fext) {
      data.b_c[i] -= (*fext)[i];
      data.b_vp[i] -= (*fext)[i];
    }
    data.H_base[i] = data.H_base[p] * X;
  }

  // Lines 24–28: backward pass, composite inertias and bias wrenches.
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent(i);
    const SE3<S>& X = data.H_parent[i];
    data.Ic[p] += data.Ic[i].transformed(X);                               // line 25
    data.b_c[p] += X.act(data.b_c[i]);                                      // line 26
    data.b_vp[p] += X.act(data.b_vp[i]);                                    // line 27*
  }

  // Lines 29–39: joint torques and the base–joint block F.
  data.a_base[0] = moving ? Motion<S>(Vector6<S>(ddq.template head<6>())) : Motion<S>::Zero();
  for (int i = 1; i < nb; ++i) {
    const Joint<S>& j = model.joint(i);
    data.a_base[i] = data.H_parent[i].act_inverse(data.a_base[model.parent(i)]);  // line 30
    const Force<S> Fi = data.Ic[i] * j.screw;                                     // line 32**
    data.tau(off + i - 1) =
        dot(j.screw, data.Ic[i] * data.a_base[i] + data.b_c[i]) + j.armature * S(ddq(off + i - 1));  // line 31
    // Lines 33–38**: _0F_i = _0X^i _iF_i. The table walks the chain to the base one transform at
    // a time (O(depth)); ^0H_i from the forward pass gives the same product in O(1).
    if (moving) data.F.col(i - 1) = data.H_base[i].act(Fi).vector();
  }

  // Line 40***: τ̄_b = M^c_0 ^0a_{A,0} + _0F ṙ + b^vp_0.
  if (moving) {
    data.tau.template head<6>() = (data.Ic[0] * data.a_base[0]).vector() +
                                  data.F * ddq.segment(6, model.num_joints()) + data.b_vp[0].vector();
  }
  return data.tau;
}

}  // namespace liedyn
