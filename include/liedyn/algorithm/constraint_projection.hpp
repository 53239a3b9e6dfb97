// liedyn — algorithm: assembly — bringing a state onto the constraint manifold of a set:
//   * project_configuration: Newton's method on the position error e(H, s) = 0, on the Lie
//     group: each step solves J δ = −e in the least-squares sense of the mass-matrix metric,
//     δ = −M⁻¹ Jᵀ (J M⁻¹ Jᵀ)⁻¹ e, and moves x ← x ⊕ δ (H exp(η^), s ⊕ δs on each joint's group;
//     velocities kept). J is the derivative of e along ⊕ where e = 0 (constraint_kinematics.hpp),
//     so the iteration converges quadratically near the manifold.
//   * project_velocity: the M-orthogonal projection of [ν; r] onto {J ν̄ = v*} — the velocity
//     closest in kinetic energy, i.e. a perfectly inelastic impulse (impulse_dynamics.hpp).
// Contacts without a desired placement have e = 0: their frames keep their pose to first order
// while the loops close. The metric M weights the coordinates physically (a heavy base moves
// less than a light finger). Frames and senses: model/constraint.hpp. Nothing allocates.
#pragma once

#include "liedyn/algorithm/constrained_dynamics.hpp"

namespace liedyn {

/// Options of project_configuration.
template <class S>
struct AssemblyOptions {
  int max_iterations = 50;
  /// Stop when max |e| ≤ tolerance (metres and radians).
  S tolerance = S(1e-12);
  /// Passed to the Delassus factorization (rank_tolerance).
  ConstrainedDynamicsOptions<S> dynamics;
};

/// Moves x's configuration (H, s) onto {e = 0} by Newton steps (header); velocities untouched.
/// Returns the number of steps taken; leaves cd.position_error at the final state. Throws
/// ConstraintError when max_iterations steps do not reach the tolerance (naming the worst
/// constraint and its error) or J is rank deficient.
template <class S>
int project_configuration(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                          ConstraintData<S>& cd, State<S>& x,
                          const AssemblyOptions<S>& opt = AssemblyOptions<S>()) {
  const char* who = "project_configuration";
  detail::check_constraint_call(who, model, data, set, cd, x);
  const int nv = model.nv(), off = model.offset();
  for (int it = 0;; ++it) {
    detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Omitted);
    int worst = 0;
    S worst_error(0);
    for (int r = 0; r < set.dimension(); ++r) {
      const S a = cd.position_error(r) < S(0) ? S(-cd.position_error(r)) : S(cd.position_error(r));
      if (a > worst_error) {
        worst_error = a;
        worst = r;
      }
    }
    if (!(worst_error > opt.tolerance)) return it;
    if (it >= opt.max_iterations) {
      const int k = set.constraint_of_row(worst);
      throw ConstraintError(
          std::string("liedyn: ") + who + ": no convergence in " +
          std::to_string(opt.max_iterations) + " Newton steps: constraint " + set.describe(k) +
          " keeps a position error above the tolerance; is the configuration within reach of "
          "the constraint manifold?");
    }
    detail::factor_kkt(model, data, set, cd, opt.dynamics, who);
    cd.rhs = -cd.position_error;
    detail::delassus_solve(cd, cd.rhs);
    cd.tmp_q.setZero();
    detail::add_constraint_response(model, data, cd, cd.tmp_q, cd.rhs, cd.tmp_q);
    if (off) x.H = x.H * SE3<S>::exp(cd.tmp_q.template head<6>());
    detail::integrate_joints(model, x.s, cd.tmp_q.segment(off, nv - off), x.s);  // s ⊕ δs
  }
}

/// Replaces x's velocity [ν; r] by its M-orthogonal projection onto {J ν̄ = v*} (header).
/// Leaves cd.J and cd.velocity_error (before the projection) current.
template <class S>
void project_velocity(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                      ConstraintData<S>& cd, State<S>& x,
                      const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "project_velocity";
  detail::check_constraint_call(who, model, data, set, cd, x);
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Omitted);
  detail::factor_kkt(model, data, set, cd, opt, who);
  VectorX<S>& v = cd.tmp_q;
  const BaseJoint<S>& base = model.base_joint();
  base.velocity(x, v);
  cd.rhs = -cd.velocity_error;
  detail::delassus_solve(cd, cd.rhs);
  detail::add_constraint_response(model, data, cd, v, cd.rhs, v);
  base.set_velocity(v, x);
}

}  // namespace liedyn
