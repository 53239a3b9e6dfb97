// liedyn — algorithm: impulse dynamics — the velocity jump of an impact at the constraints of a
// set, with restitution e, and the impulses (exact KKT route, as constrained_dynamics.hpp):
//   M (v⁺ − v⁻) = Jᵀ Λ,   J_c v⁺ = −e J_c v⁻ (contact rows),   J_l v⁺ = 0 (loops, couplings)
// so Λ = W⁻¹ (t − J v⁻) with W = J M⁻¹ Jᵀ and t the targets above, v⁺ = v⁻ + M⁻¹ Jᵀ Λ.
// Λ is what the environment (or the other side of a cut) applies on the robot during the
// impact, in each constraint's sense and components (model/constraint.hpp). Restitution acts on
// contacts only: loops and couplings are permanent, their rows always end at J v⁺ = 0.
// Desired velocities and Baumgarte gains play no part here. Nothing allocates.
#pragma once

#include "liedyn/algorithm/constrained_dynamics.hpp"

namespace liedyn {

/// The post-impact velocity cd.v_after = [ν⁺; r⁺] (returned) and the impulses cd.impulse at
/// state x (its velocity is v⁻) with restitution `restitution` ∈ [0, 1] on the contact rows.
/// Also leaves cd.J, the errors, cd.delassus and data.M, data.ltdl.factors current. Throws
/// ConstraintError if J is rank deficient.
template <class S>
const VectorX<S>& impulse_dynamics(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const S& restitution,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "impulse_dynamics";
  detail::check_constraint_call(who, model, data, set, cd, x);
  LIEDYN_CHECK(restitution >= S(0) && restitution <= S(1),
               std::string(who) + ": the restitution must lie in [0, 1]");
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Omitted);
  detail::factor_kkt(model, data, set, cd, opt, who);
  VectorX<S>& v = cd.tmp_q;
  model.base_joint().velocity(x, v);
  cd.impulse.noalias() = cd.J * v;  // J v⁻
  for (const Constraint<S>& c : set.constraints()) {
    const S factor = is_contact(c.type) ? S(-(S(1) + restitution)) : S(-1);
    cd.impulse.segment(c.row, c.dim) *= factor;
  }
  detail::delassus_solve(cd, cd.impulse);
  detail::add_constraint_response(model, data, cd, v, cd.impulse, cd.v_after);
  return cd.v_after;
}

}  // namespace liedyn
