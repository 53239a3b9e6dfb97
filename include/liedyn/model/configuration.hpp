// liedyn — model: configurations q = (H, s) ∈ SE(3) × G without velocities (G the product of
// the joints' groups, joint.hpp), and the Lie-group operations on them: integrate
// q ⊕ δq = (H exp(η^), s ⊕ δs), difference q1 ⊖ q0, their Jacobians, interpolation along the
// group, neutral and random configurations.
//
// H = ^A H_0 (base pose in the inertial frame A; a welded base keeps Model::welded_base_pose()),
// s the joints' coordinates. Tangent vectors δq = (η, δs) ∈ R^nv (δs alone for a welded base)
// have the size and base-first order of velocities: η is a body-frame (right) perturbation,
// linear first, and so is each joint's δs, so integrate(q, Δt ν̄) moves q by the body twist ν and
// joint velocities r held for Δt. Jacobians are left-trivialized, as those of the full state
// (state.hpp). The forms with an output argument allocate nothing once the output is sized.
#pragma once

#include <random>

#include "liedyn/config.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {

/// A configuration (H, s): base pose ^A H_0 and the joints' coordinates (joint i's at
/// s[Model::q_index(i)…]).
template <class S>
struct Configuration {
  SE3<S> H;      ///< ^A H_0 (the welded pose for a welded base)
  VectorX<S> s;  ///< the joints' coordinates (Model::nq_joints())

  Configuration() = default;
  /// The neutral configuration of `model`: H = identity (moving base) or the welded pose, every
  /// joint at its group's identity.
  explicit Configuration(const Model<S>& model)
      : H(model.has_moving_base() ? SE3<S>() : model.welded_base_pose()), s(model.nq_joints()) {
    detail::set_neutral_joints(model, s);
  }
  /// The configuration part (H, s) of a state.
  explicit Configuration(const State<S>& x) : H(x.H), s(x.s) {}

  /// The same configuration in scalar type T.
  template <class T>
  Configuration<T> cast() const {
    Configuration<T> q;
    q.H = H.template cast<T>();
    q.s = s.template cast<T>();
    return q;
  }
};

namespace detail {
template <class S>
void check_configuration(const char* who, const Model<S>& model, const Configuration<S>& q) {
  LIEDYN_CHECK_SIZE(who, "configuration.s", q.s, model.nq_joints());
  (void)who;
  (void)model;
  (void)q;
}
}  // namespace detail

/// The neutral configuration: H = identity (or the welded pose), every joint at its identity.
template <class S>
Configuration<S> neutral_configuration(const Model<S>& model) {
  return Configuration<S>(model);
}

/// A random configuration: base attitude uniform on SO(3), position in [−1, 1]³, each joint's
/// from Joint::random, as random_state.
template <class S, class Rng>
Configuration<S> random_configuration(const Model<S>& model, Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  Configuration<S> q(model);
  if (model.has_moving_base())
    q.H = SE3<S>(SO3<S>::from_quaternion(S(g(rng)), S(g(rng)), S(g(rng)), S(g(rng))),
                 Vector3<S>(S(u(rng)), S(u(rng)), S(u(rng))));
  for (int i = 1; i < model.num_bodies(); ++i)
    model.joint(i).random(rng, q.s.segment(model.q_index(i), model.joint_nq(i)));
  return q;
}

/// out = q ⊕ δq = (H exp(η^), s ⊕ δs); δq of size nv (η first for a moving base). `out` may be q.
template <class S, class Derived>
void integrate(const Model<S>& model, const Configuration<S>& q,
               const Eigen::MatrixBase<Derived>& dq, Configuration<S>& out) {
  detail::check_configuration("integrate", model, q);
  LIEDYN_CHECK_SIZE("integrate", "dq", dq, model.nv());
  const int off = model.offset(), n = model.nv_joints();
  out.s.resize(model.nq_joints());
  detail::integrate_joints(model, q.s, dq.segment(off, n), out.s);
  out.H =
      model.has_moving_base() ? SE3<S>(q.H * SE3<S>::exp(Vector6<S>(dq.template head<6>()))) : q.H;
}

/// q ⊕ δq (see the output-argument form).
template <class S, class Derived>
Configuration<S> integrate(const Model<S>& model, const Configuration<S>& q,
                           const Eigen::MatrixBase<Derived>& dq) {
  Configuration<S> out;
  integrate(model, q, dq, out);
  return out;
}

/// out = q1 ⊖ q0 (size nv): the δq with q0 ⊕ δq = q1, η = log(H0⁻¹ H1).
template <class S, class Derived>
void difference(const Model<S>& model, const Configuration<S>& q0, const Configuration<S>& q1,
                const Eigen::MatrixBase<Derived>& out_) {
  auto& out = const_cast<Eigen::MatrixBase<Derived>&>(out_);
  detail::check_configuration("difference", model, q0);
  detail::check_configuration("difference", model, q1);
  LIEDYN_CHECK_SIZE("difference", "out", out, model.nv());
  const int off = model.offset(), n = model.nv_joints();
  if (off > 0) out.template head<6>() = q0.H.inverse_times(q1.H).log();
  detail::difference_joints(model, q0.s, q1.s, out.segment(off, n));
}

/// q1 ⊖ q0 (see the output-argument form).
template <class S>
VectorX<S> difference(const Model<S>& model, const Configuration<S>& q0,
                      const Configuration<S>& q1) {
  VectorX<S> out(model.nv());
  difference(model, q0, q1, out);
  return out;
}

/// out = q0 ⊕ t (q1 ⊖ q0): the geodesic of SE(3) × G from q0 (t = 0) to q1 (t = 1); the base
/// and every free joint move along a screw. `out` may be q0 or q1.
template <class S>
void interpolate(const Model<S>& model, const Configuration<S>& q0, const Configuration<S>& q1,
                 const S& t, Configuration<S>& out) {
  detail::check_configuration("interpolate", model, q0);
  detail::check_configuration("interpolate", model, q1);
  if (model.has_moving_base()) {
    const Vector6<S> eta = q0.H.inverse_times(q1.H).log();
    out.H = q0.H * SE3<S>::exp(Vector6<S>(t * eta));
  } else {
    out.H = q0.H;
  }
  out.s.resize(model.nq_joints());
  // Joint by joint: its δ is read from q0's and q1's segments before out's segment is written,
  // so out may be q0 or q1.
  for (int i = 1; i < model.num_bodies(); ++i) {
    const Joint<S>& joint = model.joint(i);
    const int k = model.q_index(i), nq = model.joint_nq(i);
    JointTangent<S> delta(model.joint_nv(i));
    joint.difference(q0.s.segment(k, nq), q1.s.segment(k, nq), delta);
    delta *= t;
    joint.integrate(q0.s.segment(k, nq), delta, out.s.segment(k, nq));
  }
}

/// The geodesic interpolation q0 ⊕ t (q1 ⊖ q0) (see the output-argument form).
template <class S>
Configuration<S> interpolate(const Model<S>& model, const Configuration<S>& q0,
                             const Configuration<S>& q1, const S& t) {
  Configuration<S> out = q0;
  interpolate(model, q0, q1, t, out);
  return out;
}

/// Jacobians of q ⊕ δq (nv × nv each, left-trivialized, block-diagonal): ∂/∂q = Ad(exp(η)⁻¹) on
/// the base block, ∂/∂δq = Jr(η); each joint's from Joint::integrate_jacobians. No allocation
/// once J_q, J_dq are nv × nv.
template <class S, class Derived>
void integrate_jacobians(const Model<S>& model, const Configuration<S>& q,
                         const Eigen::MatrixBase<Derived>& dq, MatrixX<S>& J_q, MatrixX<S>& J_dq) {
  detail::check_configuration("integrate_jacobians", model, q);
  LIEDYN_CHECK_SIZE("integrate_jacobians", "dq", dq, model.nv());
  const int nv = model.nv();
  const int off = model.offset(), n = model.nv_joints();
  J_q.setZero(nv, nv);
  J_dq.setZero(nv, nv);
  if (model.has_moving_base()) {
    const Vector6<S> eta = dq.template head<6>();
    J_q.template topLeftCorner<6, 6>() = SE3<S>::exp(eta).inverse().velocity_transform();
    J_dq.template topLeftCorner<6, 6>() = SE3<S>::right_jacobian(eta);
  }
  detail::integrate_joints_jacobians(model, dq.segment(off, n), J_q.block(off, off, n, n),
                                     J_dq.block(off, off, n, n));
}

/// Jacobians of q1 ⊖ q0 with respect to q0 and q1 (nv × nv each, left-trivialized,
/// block-diagonal): base blocks −Jl⁻¹(η) and Jr⁻¹(η), η = log(H0⁻¹ H1); each joint's from
/// Joint::difference_jacobians.
template <class S>
void difference_jacobians(const Model<S>& model, const Configuration<S>& q0,
                          const Configuration<S>& q1, MatrixX<S>& J_q0, MatrixX<S>& J_q1) {
  detail::check_configuration("difference_jacobians", model, q0);
  detail::check_configuration("difference_jacobians", model, q1);
  const int nv = model.nv(), off = model.offset(), n = model.nv_joints();
  J_q0.setZero(nv, nv);
  J_q1.setZero(nv, nv);
  if (model.has_moving_base()) {
    const Vector6<S> eta = q0.H.inverse_times(q1.H).log();
    J_q0.template topLeftCorner<6, 6>() = -SE3<S>::left_jacobian_inverse(eta);
    J_q1.template topLeftCorner<6, 6>() = SE3<S>::right_jacobian_inverse(eta);
  }
  detail::difference_joints_jacobians(model, q0.s, q1.s, J_q0.block(off, off, n, n),
                                      J_q1.block(off, off, n, n));
}

}  // namespace liedyn
