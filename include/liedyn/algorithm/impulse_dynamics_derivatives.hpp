// liedyn — algorithm: the exact derivatives of impulse_dynamics — ∂v⁺/∂x and ∂Λ/∂x of the
// velocity after an impact and of the impulses, analytic, every column (the pose ones included).
//
// Differentiating impulse_dynamics.hpp's system
//   M (v⁺ − v) − Jᵀ Λ = 0,   J v⁺ + E J v = 0   (E = e on contact rows, 0 on loops and couplings)
// along x with Δv = v⁺ − v, Λ and v⁺ held, gives the KKT system of the forward derivatives
//   M δΔv − Jᵀ δΛ = −∂_q(M Δv − Jᵀ Λ) δq,
//   J δΔv = −(1 + E) J δv − ∂_q(J w) δq,   w = v⁺ + E v,
// and δv⁺ = δΔv + δv.
// * ∂_q(M Δv − JᵀΛ) is eidamb_derivatives at zero velocity, accelerations Δv and without gravity
//   (ĪD is then M Δv; gravity is not part of the impulse balance), with the impulses as external
//   wrenches, plus the motion of the wrenches as in constrained_dynamics_derivatives.hpp.
// * ∂_q(J w) at fixed w is constraint_kinematics_derivatives.hpp's velocity-row derivative from a
//   ground pass at velocity w: one pass for the contacts (w = v⁺ + e v) and, when e ≠ 0 and the
//   set has loops or couplings, one for those (w = v⁺).
// The solves reuse impulse_dynamics' factors, O(nv (nv d + m nv + m²)) for 2nv columns.
//
// Frames and layout: columns δx = (η, δs, δt, δr) of the pre-impact state as in linearize (t the
// base twist in `rep`, held in the η columns); rows of v_after_dx: v⁺ = [ν⁺; r⁺] in native
// coordinates (ν⁺ the body base twist, as impulse_dynamics returns it); rows of impulse_dx: Λ
// stacked as the set, each in its constraint's sense. Nothing allocates.
#pragma once

#include <string>

#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"

namespace liedyn {

/// impulse_dynamics at x with restitution `restitution` and its derivatives into cd.v_after_dx
/// (nv × 2nv) and cd.impulse_dx (m × 2nv), columns in the base-twist representation `rep` (see
/// the header). Also leaves cd.v_after, cd.impulse and what impulse_dynamics leaves; Data holds
/// eidamb_derivatives' outputs at zero velocity and accelerations Δv = v⁺ − v without gravity,
/// with the impulses as external wrenches. Throws ConstraintError if J is rank deficient.
template <class S>
void impulse_dynamics_derivatives(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const S& restitution, TwistRepresentation rep = TwistRepresentation::Body,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "impulse_dynamics_derivatives";
  LIEDYN_CHECK(opt.route == ConstrainedDynamicsRoute::ExactKKT,
               std::string(who) + ": only the ExactKKT route is differentiated");
  impulse_dynamics(model, data, set, cd, x, restitution, opt);  // checks every argument
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset(), N = 2 * nv;
  const BaseJoint<S>& base = model.base_joint();
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;
  State<S>& xs = ws.motion_state;  // x's poses with a velocity of our choosing
  xs.H = x.H;
  xs.s = x.s;
  VectorX<S>& v_minus =
      cd.tmp_q;  // [ν⁻; r⁻], set here: impulse_dynamics's scratch is not relied on
  base.velocity(x, v_minus);

  // Rᵀ = −∂_q(M Δv − JᵀΛ)ᵀ into ws.rhs_t's q rows (its velocity rows are zero).
  auto KT = ws.rhs_t.topRows(N);
  ws.velocity.setZero();
  base.set_velocity(ws.velocity, xs);
  detail::constraint_wrenches(model, data, set, cd.impulse, ws.wrenches);
  cd.tmp_nv = cd.v_after - v_minus;  // Δv
  // At zero velocity ĪD(Δv) − Jᵀ Λ without gravity is M Δv − Jᵀ Λ (gravity's term is what the
  // impulse does not see).
  detail::update_poses(model, data, xs.s);
  detail::ground_derivative_pass</*kWithD2=*/true, /*kWithGravity=*/false>(
      model, data, xs, cd.tmp_nv, TwistRepresentation::Body, &ws.wrenches);
  // A branch, not a joint's answer: a welded base has no rows of D1.
  if (model.has_moving_base()) KT.template topRows<6>() = -data.derivatives.D1.transpose();
  KT.middleRows(off, n) = -data.derivatives.D2.transpose();
  KT.bottomRows(nv).setZero();

  // Q = −(1 + E) J δv − ∂_q(J w) δq into ws.lambda_t (transposed), contacts then the others.
  auto Q = ws.lambda_t.topRows(N);
  const Motion<S> a_g0 = detail::gravity_in_base(model, x.H);
  bool has_permanent = false;
  for (const Constraint<S>& c : set.constraints())
    has_permanent = has_permanent || !is_contact(c.type);
  const bool one_pass = restitution == S(0) || !has_permanent;
  Q.topRows(nv).setZero();  // −∂(J v)/∂q: zero off each constraint's support, and for couplings
  for (int pass = 0; pass < (one_pass ? 1 : 2); ++pass) {
    const bool contacts = pass == 0;  // pass 0 does everything when one pass suffices
    const S e_pass = contacts ? restitution : S(0);
    ws.velocity = cd.v_after + e_pass * v_minus;
    base.set_velocity(ws.velocity, xs);
    detail::ground_motion_pass(model, data, xs, ws.velocity);  // accelerations unused here
    for (const Constraint<S>& c : set.constraints()) {
      const bool in_pass = one_pass || is_contact(c.type) == contacts;
      if (!in_pass) continue;
      const S e_c = is_contact(c.type) ? restitution : S(0);
      Q.middleCols(c.row, c.dim).bottomRows(nv) =
          -(S(1) + e_c) * cd.J.middleRows(c.row, c.dim).transpose();
      if (c.type == ConstraintType::Coupling) continue;  // a constant J
      const detail::RelativeMotion<S> rm =
          detail::relative_motion_derivatives(model, data, c, a_g0, ws, detail::kVelocityTermsOnly);
      const int ns = static_cast<int>(c.support.size());
      auto dy = ws.dy.leftCols(2 * ns);
      detail::sense_rows_derivative<S>(c, rm.H2, rm.u, ws.du.leftCols(2 * ns),
                                       ws.theta2.leftCols(ns), dy);
      for (int k = 0; k < c.dim; ++k)
        detail::scatter_support_row(c.support, -dy.row(c.components[k]).head(ns),
                                    detail::SupportParts::One, Q.col(c.row + k).head(nv));
      detail::add_wrench_motion_transposed(c, rm.H2, cd.impulse.segment(c.row, c.dim), ws, KT);
    }
  }

  detail::kkt_solve_transposed(model, data, set, cd, KT, Q, ws.ddq_t.topRows(N),
                               /*r_rows=*/nv);  // R's velocity columns are zero
  cd.v_after_dx = ws.ddq_t.topRows(N).transpose();
  cd.v_after_dx.rightCols(nv).diagonal().array() += S(1);  // δv⁺ = δΔv + δv
  cd.impulse_dx = Q.transpose();
  detail::columns_to_representation(model, x, rep, cd.v_after_dx);
  detail::columns_to_representation(model, x, rep, cd.impulse_dx);
}

}  // namespace liedyn
