// liedyn — algorithm: the recursive Newton–Euler algorithm (RNEA), in spatial form, for a
// moving or welded base; and from it the bias h(x), the gravity term and the
// Coriolis/centrifugal term of M q̈ + V + G = Γ.
//
// Frames and order (docs/conventions.md §2): x = (H, s, ν, r) with ν the base BODY twist;
// accelerations ddq = [ν̇; ṙ] with ν̇ = ^0 a_{A,0} the base's intrinsic acceleration in its own
// frame (ddq = ṙ for a welded base); output τ̄ = [τ̄_b; τ] with τ̄_b the base wrench in the
// base frame (τ̄ = τ for a welded base). Gravity enters as the base acceleration −[g; 0].
// Joint armature adds armature_i ṙ_i to τ_i. External wrenches (one per body, body frame, see
// ExternalWrenches) act on the bodies: τ̄ = M ddq + h − Σ J_iᵀ f_i.
//
// This is the textbook algorithm, kept as an independent route to EIDAmb's τ̄ (eidamb.hpp).
// Motions and wrenches cross each joint through the joint's own moves (Joint::motion_to_child,
// Joint::add_force_to_parent), which know its fast case: an unrotated revolute about ±e_k.
// Cost O(n). No allocation. Writes data.kinematics.v, data.inverse_dynamics.a,
// data.inverse_dynamics.f, data.kinematics.H_parent and the output.
#pragma once

#include "liedyn/algorithm/common.hpp"

namespace liedyn {

namespace detail {

/// The terms one RNEA pass includes: h = V + G is split by switching one off, and M ddq alone
/// (no velocity products, no gravity) gives M's columns (reference_dynamics.hpp).
struct RneaTerms {
  bool velocity_products;  ///< v_i and the products v_i × Γ_i q̇_i, v_i ×* I_i v_i
  bool gravity;            ///< the base's −a_g
};
inline constexpr RneaTerms kEveryTerm{true, true}, kGravityOnly{false, true},
    kWithoutGravity{true, false}, kInertialOnly{false, false};

/// Whether an RNEA pass computes the joint transforms at x.s or finds them already there
/// (computed earlier in the same call).
enum class JointTransforms { Compute, AlreadyCurrent };

// RNEA's forward step at body i of a 1-DoF joint: the width-1 form, one fused update (most
// joints of real robots), inlined.
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void rnea_forward_step_1(const Model<S>& model, Data<S>& data,
                                              const State<S>& x,
                                              const Eigen::MatrixBase<Derived>* ddq,
                                              RneaTerms terms, const ExternalWrenches<S>* fext,
                                              int i) {
  const Joint<S>& j = model.joint(i);
  const SE3<S>& X = data.kinematics.H_parent[i];
  const int p = model.parent(i);
  const S rate = terms.velocity_products ? S(x.r(model.r_index(i))) : S(0);
  const S acc = ddq ? S((*ddq)(model.v_index(i))) : S(0);
  data.kinematics.vJ[i] = j.screw * rate;
  j.motion_to_child(X, data.kinematics.v[p], data.kinematics.v[i]);
  data.kinematics.v[i] += data.kinematics.vJ[i];
  j.motion_to_child(X, data.inverse_dynamics.a[p], data.inverse_dynamics.a[i]);
  data.inverse_dynamics.a[i] += j.screw * acc + data.kinematics.v[i].cross(data.kinematics.vJ[i]);
  model.inertia(i).net_wrench(data.inverse_dynamics.a[i], data.kinematics.v[i],
                              data.inverse_dynamics.f[i]);
  if (fext) data.inverse_dynamics.f[i] -= (*fext)[i];
}

// The forward step of a joint of several degrees of freedom, out of line.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void rnea_forward_step_k(const Model<S>& model, Data<S>& data,
                                             const State<S>& x,
                                             const Eigen::MatrixBase<Derived>* ddq, RneaTerms terms,
                                             const ExternalWrenches<S>* fext, int i) {
  const Joint<S>& j = model.joint(i);
  const int p = model.parent(i), n = model.joint_nv(i);
  const auto q = x.s.segment(model.q_index(i), model.joint_nq(i));
  const auto qd = x.r.segment(model.r_index(i), n);
  j.motion_to_child(data.kinematics.H_parent[i], data.kinematics.v[p], data.kinematics.v[i]);
  j.motion_to_child(data.kinematics.H_parent[i], data.inverse_dynamics.a[p],
                    data.inverse_dynamics.a[i]);
  data.kinematics.vJ[i] = terms.velocity_products ? j.subspace_times(q, qd) : Motion<S>::Zero();
  data.kinematics.v[i] += data.kinematics.vJ[i];
  if (ddq) data.inverse_dynamics.a[i] += j.subspace_times(q, ddq->segment(model.v_index(i), n));
  data.inverse_dynamics.a[i] += data.kinematics.v[i].cross(data.kinematics.vJ[i]);
  if (terms.velocity_products) j.add_bias(q, qd, data.inverse_dynamics.a[i]);
  model.inertia(i).net_wrench(data.inverse_dynamics.a[i], data.kinematics.v[i],
                              data.inverse_dynamics.f[i]);
  if (fext) data.inverse_dynamics.f[i] -= (*fext)[i];
}

// RNEA's backward step at body i of a 1-DoF joint, inlined.
template <class S, class Derived>
LIEDYN_ALWAYS_INLINE void rnea_backward_step_1(const Model<S>& model, Data<S>& data,
                                               const Eigen::MatrixBase<Derived>* ddq, int i) {
  const Joint<S>& j = model.joint(i);
  const int vi = model.v_index(i);
  S t = j.project(data.inverse_dynamics.f[i]);
  if (ddq) t += j.armature * S((*ddq)(vi));
  data.tau(vi) = t;
  j.add_force_to_parent(data.kinematics.H_parent[i], data.inverse_dynamics.f[i],
                        data.inverse_dynamics.f[model.parent(i)]);
}

// The backward step of a joint of several degrees of freedom, out of line.
template <class S, class Derived>
LIEDYN_NEVER_INLINE void rnea_backward_step_k(const Model<S>& model, Data<S>& data,
                                              const State<S>& x,
                                              const Eigen::MatrixBase<Derived>* ddq, int i) {
  const Joint<S>& j = model.joint(i);
  const int vi = model.v_index(i), n = model.joint_nv(i);
  j.project(data.inverse_dynamics.f[i], x.s.segment(model.q_index(i), model.joint_nq(i)),
            data.tau.segment(vi, n));
  if (ddq)
    for (int k = vi; k < vi + n; ++k) data.tau(k) += j.armature * S((*ddq)(k));
  j.add_force_to_parent(data.kinematics.H_parent[i], data.inverse_dynamics.f[i],
                        data.inverse_dynamics.f[model.parent(i)]);
}

// One RNEA pass into data.tau with the given terms; `ddq` may be null (zero accelerations).
template <class S, class Derived>
const VectorX<S>& rnea_pass(const Model<S>& model, Data<S>& data, const State<S>& x,
                            const Eigen::MatrixBase<Derived>* ddq, RneaTerms terms,
                            const ExternalWrenches<S>* fext,
                            JointTransforms transforms = JointTransforms::Compute) {
  const int nb = model.num_bodies();
  const BaseJoint<S>& base = model.base_joint();
  if (transforms == JointTransforms::Compute) update_joint_transforms(model, data, x.s);

  Motion<S>& v0 = data.kinematics.v[0];
  Motion<S>& a0 = data.inverse_dynamics.a[0];
  // v_0 = Γ_0 ν, a_0 = −a_g + Γ_0 ν̇ (RBDA §9.3, the base as the root joint).
  v0 = terms.velocity_products ? base.twist(x) : Motion<S>::Zero();
  a0 = terms.gravity ? gravity_in_base(model, x.H) : Motion<S>::Zero();
  if (ddq) base.add_acceleration(*ddq, a0);
  const SpatialInertia<S>& I0 = model.inertia(0);
  I0.net_wrench(a0, v0, data.inverse_dynamics.f[0]);
  if (fext) data.inverse_dynamics.f[0] -= (*fext)[0];

  // v_i = ^iX_λ v_λ + Γ_i q̇_i,  a_i = ^iX_λ a_λ + Γ_i q̈_i + v_i × Γ_i q̇_i + c_J,i
  // (RBDA Table 5.1; c_J ≠ 0 for a universal joint only), f_i = I_i a_i + v_i ×* I_i v_i.
  // τ_i = Γ_iᵀ f_i + armature q̈_i (nv_i rows), f_λ += _λX^i f_i.
  const bool one_dof_tree = model.one_dof_joints_only();  // lets the compiler unswitch the loops
  for (int i = 1; i < nb; ++i) {
    if (one_dof_tree || model.joint(i).one_dof())
      rnea_forward_step_1(model, data, x, ddq, terms, fext, i);
    else rnea_forward_step_k(model, data, x, ddq, terms, fext, i);
  }
  for (int i = nb - 1; i >= 1; --i) {
    if (one_dof_tree || model.joint(i).one_dof()) rnea_backward_step_1(model, data, ddq, i);
    else rnea_backward_step_k(model, data, x, ddq, i);
  }
  base.project(data.inverse_dynamics.f[0], data.tau);  // τ̄_b = Γ_0ᵀ f_0
  return data.tau;
}

}  // namespace detail

/// Inverse dynamics τ̄ = M(s) ddq + h(x) − (external wrenches), by the recursive Newton–Euler
/// algorithm. Returns data.tau (size model.nv()).
template <class S, class Derived>
const VectorX<S>& rnea(const Model<S>& model, Data<S>& data, const State<S>& x,
                       const Eigen::MatrixBase<Derived>& ddq,
                       const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("rnea", model, x);
  detail::check_data_pairing("rnea", model, data);
  LIEDYN_CHECK_SIZE("rnea", "ddq", ddq, model.nv());
  detail::check_wrenches("rnea", model, fext);
  return detail::rnea_pass(model, data, x, &ddq, detail::kEveryTerm, fext);
}

/// The bias h(x) = ĪD(x, 0) (velocity products, gravity and external wrenches), into data.h.
template <class S>
const VectorX<S>& bias_force(const Model<S>& model, Data<S>& data, const State<S>& x,
                             const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("bias_force", model, x);
  detail::check_data_pairing("bias_force", model, data);
  detail::check_wrenches("bias_force", model, fext);
  data.h = detail::rnea_pass<S, VectorX<S>>(model, data, x, nullptr, detail::kEveryTerm, fext);
  return data.h;
}

/// The gravity term G(H, s) alone (zero velocities and accelerations), into data.tau.
template <class S>
const VectorX<S>& gravity_force(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("gravity_force", model, x);
  detail::check_data_pairing("gravity_force", model, data);
  return detail::rnea_pass<S, VectorX<S>>(model, data, x, nullptr, detail::kGravityOnly, nullptr);
}

/// The Coriolis/centrifugal term V(x) = h − G alone (no gravity, no accelerations), into
/// data.tau.
template <class S>
const VectorX<S>& coriolis_force(const Model<S>& model, Data<S>& data, const State<S>& x) {
  detail::check_state("coriolis_force", model, x);
  detail::check_data_pairing("coriolis_force", model, data);
  return detail::rnea_pass<S, VectorX<S>>(model, data, x, nullptr, detail::kWithoutGravity,
                                          nullptr);
}

}  // namespace liedyn
