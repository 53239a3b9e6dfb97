// liedyn — algorithm: the linearization of the constrained forward dynamics on the Lie group,
// in full coordinates (the layout of linearization.hpp) and on the constraint manifold.
//
// Full coordinates. δẋ = A δx + B δτ̄ with δx = (η, δs, δt, δr), t the base twist in
// opt.representation, exactly as linearize() without constraints; only the acceleration rows
// change: ∂(ν̇, ṙ)/∂δx and ∂(ν̇, ṙ)/∂τ̄ are those of constrained_forward_dynamics
// (constrained_dynamics_derivatives.hpp), the kinematic rows and the representation's twist rows
// are linearization.hpp's. The discrete form is the Jacobian of the constrained semi-implicit
// Euler step (the accelerations of constrained_forward_dynamics in semi_implicit_euler_step).
// The constraints are those of the set: the manifold they define is invariant under the
// continuous flow when its position and velocity errors vanish (or are driven by Baumgarte
// gains); the full A still carries the directions that leave it (see the reduced form).
//
// Outputs: data.A (2nv × 2nv), data.B (2nv × nv), data.ddq = the constrained accelerations, and
// everything constrained_forward_dynamics_derivatives leaves (cd.ddq_dx, cd.lambda_dx, ...).
// opt.minv is not used (the KKT solves use the sparse factors). Nothing allocates.
#pragma once

#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/linearization.hpp"

namespace liedyn {

/// Continuous-time A and B of the constrained dynamics at (x, τ̄) into data.A, data.B (see the
/// header; λ's derivatives are in cd.lambda_dx, cd.lambda_dtau with the same columns).
template <class S, class Derived>
void linearize(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
               const State<S>& x, const Eigen::MatrixBase<Derived>& tau, const LinearizationOptions<S>& opt = {},
               const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  const int nv = model.nv();
  constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau, opt.representation, copt);
  data.A.bottomRows(nv) = cd.ddq_dx;
  data.B.bottomRows(nv) = cd.ddq_dtau;
  data.ddq = cd.ddq;
  detail::complete_continuous_linearization(model, data, x, opt.representation);
}

/// The constrained linearize() for τ̄ = S u with an actuation matrix S (nv × m, e.g. the joint
/// torques of a floating robot, S = [0; 1]): A into data.A, B S into Bu (2nv × m).
template <class S, class DS, class Du>
void linearize_actuated(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
                        const State<S>& x, const Eigen::MatrixBase<DS>& actuation, const Eigen::MatrixBase<Du>& u,
                        MatrixX<S>& Bu, const LinearizationOptions<S>& opt = {},
                        const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  detail::check_data("linearize_actuated", model, data);
  LIEDYN_CHECK_DIMS("linearize_actuated", "actuation", actuation, model.nv(), u.size());
  data.tmp_nv2.noalias() = actuation * u;
  linearize(model, data, set, cd, x, data.tmp_nv2, opt, copt);
  Bu.resize(data.B.rows(), actuation.cols());  // no allocation once Bu has this size
  // Column by column (GEMV): a GEMM takes Eigen's heap blocking workspace once nv passes a few dozen.
  for (Eigen::Index c = 0; c < actuation.cols(); ++c) Bu.col(c).noalias() = data.B * actuation.col(c);
}

/// One semi-implicit Euler step of the constrained dynamics into `out` (may be x): the
/// accelerations of constrained_forward_dynamics at (x, τ̄) (left in cd.ddq, λ in cd.lambda),
/// then ν⁺ = ν + Δt ν̇, r⁺ = r + Δt ṙ, s⁺ = s + Δt r⁺, H⁺ = H exp(Δt ν⁺^). The step does not
/// project back onto the constraint manifold: use Baumgarte gains, or project_configuration and
/// project_velocity between steps.
template <class S, class Derived>
void semi_implicit_euler_step(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                              ConstraintData<S>& cd, const State<S>& x, const Eigen::MatrixBase<Derived>& tau,
                              const S& dt, State<S>& out,
                              const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  constrained_forward_dynamics(model, data, set, cd, x, tau, copt);
  detail::advance_semi_implicit(model, x, cd.ddq, dt, out);
}

/// Jacobians of the constrained semi_implicit_euler_step, δx⁺ = A δx + B δτ̄, into data.A and
/// data.B, δx in opt.representation at both ends (as linearize_discrete without constraints).
template <class S, class Derived>
void linearize_discrete(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
                        const State<S>& x, const Eigen::MatrixBase<Derived>& tau, const S& dt,
                        const LinearizationOptions<S>& opt = {},
                        const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau, opt.representation, copt);
  data.ddq = cd.ddq;
  detail::complete_discrete_linearization(model, data, x, dt, opt.representation, cd.ddq_dx, cd.ddq_dtau);
}

}  // namespace liedyn
