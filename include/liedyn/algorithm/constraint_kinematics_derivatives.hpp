// liedyn — algorithm: the derivatives of the constraint kinematics along the state — the
// position error ∂e/∂q, the constraint velocity ∂(J ν̄)/∂x, the constraint acceleration
// ∂(J q̈ + γ)/∂x at fixed q̈ — and the time derivative J̇ of the constraint Jacobian as a matrix.
// The constrained forward and impulse dynamics derivatives are built on these.
//
// Motion derivatives of the bodies. With everything in the base frame frozen at this instant
// (eidamb_derivatives' ground frame: a joint column d with axis S_d hangs from the motion
// (Vpar_d, Apar_d), Vpost_d after it, u_d = S_d × Vpar_d; accelerations without gravity), a body
// b moved by δq_d (column d on b's path) has
//     δθ_b = S_d,   δV_b = −u_d,   δA_b = Apar_d × S_d + (V_b − Vpar_d) × u_d,
// and by δν̄_d: δV_b = S_d, δA_b = S_d × V_b − u_d − S_d × Vpost_d (the base: δA_b =
// e_m × (V_b − ν), and nothing from η while ν is held). For a 1-DoF joint Vpar, Apar may be read
// as the child's V_k, A_k and the last term is −u_d. These are the changes of b's body twist
// and acceleration, in ground coordinates (^bX_0 maps them to b's own), the turning of ^bX_0
// itself included (docs/constraints.md, "Derivatives").
// The relative twist u = ^2X_0 (V_2 − V_1) and its derivative u̇ = ^2X_0 (A_2 − A_1 + V_2 × V_1)
// then vary, with δ₁₂ = δθ_2 − δθ_1 (the relative Jacobian), as
//     δu = δV_2 − δV_1 − V_1 × δ₁₂,
//     δu̇ = δA_2 − δA_1 − A_1 × δ₁₂ − V_1 × δV_2 + V_2 × (δV_1 + V_1 × δ₁₂),
// and each row's P(x) (constraint_kinematics.hpp: rotations to A's axes, the classical and
// intrinsic corrections ω_2 × u and v_2 × u) is differentiated on top. The Baumgarte terms add
// Kd ∂(J ν̄)/∂x and Kp ∂e/∂x (position_error_derivative).
//
// J̇. J = P ^2X_0 G with G = δ₁₂ the relative columns in the ground frame. Along the motion the
// joint axes turn with the motion after them (Ṡ_d = Vpost_d × S_d) and the base's columns
// with the base (ad ν, when frame 1 is the environment), ^2X_0 turns by −V_2 ×, and P by frame
// 2's own twist: J̇ = d/dt (P ^2X_0 G), column by column through the same P derivative.
// J̇ is the exact time derivative of J (J̇ ν̄ equals the drift only where the rows are plain time
// derivatives of J ν̄; see constraint_kinematics.hpp for the two conventions where it is not).
//
// Frames and layout: columns δx = (η, δs, δt, δr) as in linearize (η the left-trivialized base
// pose, t the base twist in `rep`, held in the η columns); a welded base has (δs, δr). ∂e/∂q has
// the q columns (η, δs) only, J̇ has J's columns (ν̄ = [ν; r]). Rows: each constraint's rows in
// its sense, stacked as in the set.
#pragma once

#include "liedyn/algorithm/constraint_kinematics.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"

namespace liedyn {

namespace detail {

/// The ground-frame motion derivatives of `body` (see the header) on the columns of `support`
/// (a support block holding body's chain): theta (δθ by δq, also δV by δν̄), dv (δV by δq), daq
/// (δA by δq), dav (δA by δν̄) and axis_rate (Ṡ_d, the columns' time derivative along the
/// motion); all zero for the environment (body −1). Needs the ground quantities of
/// eidamb_derivatives, φ_d of the multi-DoF columns included (ground_motion_pass or
/// ground_acceleration_pass).
template <class S>
void body_motion_derivatives(const Model<S>& model, const Data<S>& data, int body,
                             const std::vector<int>& support, const Motion<S>& a_g0,
                             SupportColumns<S> theta, SupportColumns<S> dv, SupportColumns<S> daq,
                             SupportColumns<S> dav, SupportColumns<S> axis_rate) {
  theta.setZero();
  dv.setZero();
  daq.setZero();
  dav.setZero();
  axis_rate.setZero();
  if (body < 0) return;
  const Motion<S>& Vb = data.derivatives.v[body];
  const int off = model.offset();
  for_each_support_body(model, body, [&](int k) {
    if (k == 0) {
      // A branch: the base's columns of these derivatives exist only with its coordinates.
      if (!model.has_moving_base()) return;
      theta.template leftCols<6>().setIdentity();
      dav.template leftCols<6>() = -(Vb - data.derivatives.v[0]).cross_matrix();
      return;
    }
    // Column d hangs from (Vpar_d, Apar_d) (eidamb_derivatives.hpp): moved by δq_d, b turns
    // about S_d with everything after d, δA_b = (Apar_d − a_g0) × S_d + (V_b − Vpar_d) × u_d
    // = S_d × a_g0 − φ_d + V_b × u_d; by δṙ_d, δA_b = S_d × V_b − u_d − S_d × Vpost_d
    // = S_d × V_b + W_d. The axis itself turns with Vpost_d: Ṡ_d = Vpost_d × S_d = W_d + u_d.
    auto column = [&](int d, const Motion<S>& dA_by_q) {
      const int col = support_column(support, off + d);
      const Motion<S>& Sd = data.derivatives.axis[d];
      theta.col(col) = Sd.vector();
      dv.col(col) = -data.derivatives.u[d].vector();
      daq.col(col) = dA_by_q.vector();
      dav.col(col) = (Sd.cross(Vb) + data.derivatives.w[d]).vector();
      axis_rate.col(col) = (data.derivatives.w[d] + data.derivatives.u[d]).vector();
    };
    // A 1-DoF joint's column may take its child's motion (V_k, A_k) for (Vpar_d, Apar_d), as
    // S × S = 0 makes the two forms equal, without φ_d.
    if (model.joint(k).one_dof()) {
      const int d = model.r_index(k);
      const Motion<S> Ak = data.derivatives.a[k] - a_g0;
      column(d, Ak.cross(data.derivatives.axis[d]) +
                    (Vb - data.derivatives.v[k]).cross(data.derivatives.u[d]));
      return;
    }
    for (int d = model.r_index(k); d < model.r_index(k + 1); ++d)
      column(d, data.derivatives.axis[d].cross(a_g0) - data.derivatives.phi[d] +
                    Vb.cross(data.derivatives.u[d]));
  });
}

/// out = d(P y) for the rows of constraint c before its component mask (full_dimension rows of
/// out, as dy's columns): P the rows' map of constraint_kinematics.hpp at frame 2's world pose
/// H2, y a frame-2 motion (u, or the rows' acceleration before P) and dy its derivative by
/// [δq | δν̄] (support blocks, 6 × 2ns), theta2 = δθ_2 by δq (6 × ns, frame 2): P turns with
/// frame 2 in mixed and inertial sense.
template <class S>
void sense_rows_derivative(const Constraint<S>& c, const SE3<S>& H2, const Motion<S>& y,
                           ConstSupportColumns<S> dy, ConstSupportColumns<S> theta2,
                           SupportColumns<S> out) {
  const int ns = static_cast<int>(theta2.cols());
  const Matrix3<S>& R2 = H2.rotation();
  const bool body = c.sense == TwistRepresentation::Body;
  auto rotated = [&](int r0, int y0, const Vector3<S>& y3) {
    // d(R_2 y) = R_2 (dy − y^ δθ_ang): frame 2 turns by δθ_ang.
    out.template middleRows<3>(r0) = R2.lazyProduct(dy.template middleRows<3>(y0));
    out.template middleRows<3>(r0).leftCols(ns) -=
        (R2 * hat(y3)).lazyProduct(theta2.template bottomRows<3>());
  };
  auto block3 = [&](int r0, int y0, const Vector3<S>& y3) {
    if (body) out.template middleRows<3>(r0) = dy.template middleRows<3>(y0);
    else rotated(r0, y0, y3);
  };
  if (is_rigid(c.type) && c.sense == TwistRepresentation::Inertial) {
    // d(^AX_2 y) = ^AX_2 (dy − ad(y) δθ).
    out = dy;
    add_cross_motion_columns(-y, theta2, out.leftCols(ns));
    H2.act_motions(out, out);
    return;
  }
  for (const RowBlock& b : row_layout(c.type)) {
    if (b.form == RowBlockForm::Whole)
      block3(b.row, b.part, b.part == 0 ? y.linear() : y.angular());
    else
      out.template middleRows<2>(b.row) =
          c.complement.transpose().lazyProduct(dy.template middleRows<3>(b.part));
  }
}

/// out (full_dimension rows × ns) = ∂e/∂q, e the position error of constraint_kinematics.hpp:
/// frame 2 (world pose H2) moves by theta2 and frame 1 by `star` on entry (support blocks, frame
/// 2's coordinates), which carries the target H* = H_1 ^1H_2*. With E = H*⁻¹ H2, the target moves
/// by δ* = Ad_E δθ_1 (its own coordinates), d = o_2 − o*, φ = log(R*ᵀ R_2):
///   δd = R_2 δθ_lin − R* δ*_lin,   δφ = Jr⁻¹(φ) δθ_ang − Jl⁻¹(φ) δ*_ang.
/// Scratch: star (δ* on return), de (6 × ns).
template <class S>
void position_error_derivative(const Constraint<S>& c, const SE3<S>& H2, const SE3<S>& target,
                               ConstSupportColumns<S> theta2, SupportColumns<S> star,
                               SupportColumns<S> de, SupportColumns<S> out) {
  const SE3<S> E = target.inverse_times(H2);
  E.act_motions(star, star);
  const Matrix3<S>& R2 = H2.rotation();
  const Matrix3<S>& Rs = target.rotation();
  const Vector3<S>& o2 = H2.translation();
  const Vector3<S> d = o2 - target.translation();
  const Vector3<S> phi = SO3<S>(E.rotation()).log();
  auto dd = de.template topRows<3>();
  auto dphi = de.template bottomRows<3>();
  dd = R2.lazyProduct(theta2.template topRows<3>()) - Rs.lazyProduct(star.template topRows<3>());
  dphi = SO3<S>::right_jacobian_inverse(phi).lazyProduct(theta2.template bottomRows<3>()) -
         SO3<S>::left_jacobian_inverse(phi).lazyProduct(star.template bottomRows<3>());
  const bool body = c.sense == TwistRepresentation::Body;
  // R_2ᵀ d (body rows): δ = (R_2ᵀ d)^ δθ_ang + R_2ᵀ δd.
  auto body_linear = [&](SupportColumns<S>& to, int r0) {
    to.template middleRows<3>(r0) =
        hat(Vector3<S>(R2.transpose() * d)).lazyProduct(theta2.template bottomRows<3>()) +
        R2.transpose().lazyProduct(dd);
  };
  // R_2 φ (mixed and inertial rows): δ = R_2 (δφ − φ^ δθ_ang).
  auto rotated_angle = [&](int r0) {
    out.template middleRows<3>(r0) =
        R2.lazyProduct(dphi) - (R2 * hat(phi)).lazyProduct(theta2.template bottomRows<3>());
  };
  for (const RowBlock& b : row_layout(c.type)) {
    if (b.form == RowBlockForm::Complement) {
      // Across the free axis, in frame 2's own axes whatever the sense.
      if (b.part == 0) body_linear(star, 0);  // δ* is no longer needed
      const auto from = b.part == 0 ? star.template topRows<3>() : dphi;
      out.template middleRows<2>(b.row) = c.complement.transpose().lazyProduct(from);
    } else if (b.part == 0) {
      if (body) body_linear(out, b.row);
      else out.template middleRows<3>(b.row) = dd;
    } else {
      if (body) out.template middleRows<3>(b.row) = dphi;
      else rotated_angle(b.row);
    }
  }
  if (is_rigid(c.type) && c.sense == TwistRepresentation::Inertial) {
    // + δ(o_2 × R_2 φ) = −(R_2 φ)^ R_2 δθ_lin + o_2^ δ(R_2 φ).
    out.template topRows<3>() +=
        hat(o2).lazyProduct(out.template bottomRows<3>()) -
        (hat(Vector3<S>(R2 * phi)) * R2).lazyProduct(theta2.template topRows<3>());
  }
}

/// What relative_motion_derivatives leaves besides the workspace's matrices: frame 2's world
/// pose and, in frame 2's coordinates, the relative twist u, frame 2's own twist, and the rows'
/// acceleration before P (y, when asked for).
template <class S>
struct RelativeMotion {
  SE3<S> H2;
  Motion<S> u, v2, y;
};

/// Which derivatives relative_motion_derivatives adds to the velocity's: of the acceleration
/// (the rows' y), of the relative columns in time (J̇), each or neither.
struct RelativeMotionTerms {
  bool acceleration;    ///< dy = δy by [δq | δν̄]
  bool time_variation;  ///< gdot = d/dt of the relative columns
};
inline constexpr RelativeMotionTerms kVelocityTermsOnly{false, false},
    kWithAccelerationTerms{true, false}, kEveryMotionTerm{true, true};

/// The rows constraint_row_derivatives writes beside ∂(J ν̄)/∂x and ∂(J q̈ + γ)/∂x: the position
/// error's derivative and J̇ too, or not.
enum class KinematicRows { Omitted, Included };

/// The rows' acceleration before P (constraint_kinematics.hpp) y, from out.y = u̇ (frame 2)
/// on entry, and its derivative dy by [δq | δν̄] from δu (dU), δu̇ (dUd) and δV_2 (dV2), all in
/// frame 2: the intrinsic u̇ + v_2 × u for rigid rows, else the classical ω_2 × u on the blocks
/// that carry it.
template <class S, class DU, class DUd, class DV, class DY>
void acceleration_row_derivatives(const Constraint<S>& c, const DU& dU, const DUd& dUd,
                                  const DV& dV2, DY dy, RelativeMotion<S>& out) {
  const Motion<S>& u = out.u;
  dy = dUd;
  const bool body_sense = c.sense == TwistRepresentation::Body;
  if (c.type == ConstraintType::RigidContact || c.type == ConstraintType::RigidLoop) {
    // Intrinsic: u̇ + v_2 × u.
    out.y += out.v2.cross(u);
    add_cross_motion_columns(out.v2, dU, dy);
    add_cross_motion_columns(-u, dV2, dy);
    return;
  }
  // Classical: ω_2 × u on the linear block of points (any sense) and of mixed ball and
  // revolute rows, on the angular block of mixed prismatic rows.
  const Vector3<S> w2 = out.v2.angular();
  const bool lin = c.type == ConstraintType::PointContact ||
                   (!body_sense &&
                    (c.type == ConstraintType::BallLoop || c.type == ConstraintType::RevoluteLoop));
  const bool ang = !body_sense && c.type == ConstraintType::PrismaticLoop;
  auto classical = [&](int r0, const Vector3<S>& u3) {
    out.y.vector().template segment<3>(r0) += w2.cross(u3);
    dy.template middleRows<3>(r0) += hat(w2).lazyProduct(dU.template middleRows<3>(r0)) -
                                     hat(u3).lazyProduct(dV2.template bottomRows<3>());
  };
  if (lin) classical(0, u.linear());
  if (ang) classical(3, u.angular());
}

/// d/dt (^2X_0 G) = ^2X_0 (Ġ − V_2 × G) of the relative columns G = rel (ground frame) into
/// gdot, which holds chain 2's Ṡ_d (axis_rate) on entry: the joint columns turn as Ṡ_d, the
/// base's with the base when frame 1 is the environment (both chains carry them otherwise).
template <class S, class Rel, class Rate, class Gdot>
void relative_columns_rate(const Model<S>& model, const Data<S>& data, const Constraint<S>& c,
                           const Rel& rel, const Rate& rate1, Gdot gdot) {
  const bool moving1 = c.body1 >= 0;
  if (moving1) gdot -= rate1;
  add_cross_motion_columns(-data.derivatives.v[c.body2], rel, gdot);
  // A branch: the base's columns exist only with its coordinates.
  if (!moving1 && model.has_moving_base())
    gdot.template leftCols<6>() += data.derivatives.v[0].cross_matrix();
}

/// The derivatives of constraint c's relative motion (not a coupling) from the ground pass in
/// data (ground_motion_pass or eidamb_derivatives at the velocity and accelerations of interest),
/// in frame 2's coordinates, into the workspace's support blocks (ns = |c.support| columns, see
/// SupportColumns):
///   theta2 = δθ_2 by δq (6 × ns), theta1 = δ₁₂ by δq (the relative Jacobian, 6 × ns),
///   du = δu by [δq | δν̄] (6 × 2ns);
///   with terms.acceleration: dy = δy by [δq | δν̄], y the rows' acceleration before P;
///   with terms.time_variation: gdot = d/dt of the relative columns theta1 (6 × ns).
/// Base-twist columns in the body representation.
template <class S>
RelativeMotion<S> relative_motion_derivatives(const Model<S>& model, const Data<S>& data,
                                              const Constraint<S>& c, const Motion<S>& a_g0,
                                              ConstrainedDerivativesWorkspace<S>& ws,
                                              RelativeMotionTerms terms) {
  const bool with_acceleration = terms.acceleration, with_time_variation = terms.time_variation;
  const int ns = static_cast<int>(c.support.size());
  auto t1 = ws.theta1.leftCols(ns), v1 = ws.dv1.leftCols(ns), aq1 = ws.daq1.leftCols(ns),
       av1 = ws.dav1.leftCols(ns);
  auto t2 = ws.theta2.leftCols(ns), v2 = ws.dv2.leftCols(ns), aq2 = ws.daq2.leftCols(ns),
       av2 = ws.dav2.leftCols(ns);
  // Frame 1 the environment (a contact): θ₁, V_1, A_1 and their derivatives vanish, and so do
  // the terms below that they multiply; δ₁₂ = θ₂ and δV_2 = δu, so neither is formed twice.
  auto gdot = ws.gdot.leftCols(ns), rate1 = ws.axis_rate1.leftCols(ns);
  const bool moving1 = c.body1 >= 0;
  if (moving1)
    body_motion_derivatives<S>(model, data, c.body1, c.support, a_g0, t1, v1, aq1, av1, rate1);
  body_motion_derivatives<S>(model, data, c.body2, c.support, a_g0, t2, v2, aq2, av2, gdot);
  const Motion<S> V1 = moving1 ? data.derivatives.v[c.body1] : Motion<S>::Zero();
  const Motion<S> A1 = moving1 ? Motion<S>(data.derivatives.a[c.body1] - a_g0) : Motion<S>::Zero();
  const Motion<S>& V2 = data.derivatives.v[c.body2];
  // Ground frame: δ₁₂ (theta1 ← θ₂ − θ₁), δu and δu̇ for [δq | δν̄].
  auto dU = ws.du.leftCols(2 * ns);
  auto dUd = ws.dud.leftCols(2 * ns);
  auto dV2 = ws.dv2_full.leftCols(2 * ns);
  if (with_acceleration) {
    dUd.rightCols(ns) = av2;
    if (moving1) {
      dV2.leftCols(ns) = v2;
      dUd.rightCols(ns) -= av1;
      add_cross_motion_columns(-V1, t2, dUd.rightCols(ns));
      add_cross_motion_columns(V2, t1, dUd.rightCols(ns));
    }
  }
  if (moving1) {
    t1 = t2 - t1;  // δ₁₂ by δq
    dU.leftCols(ns) = v2 - v1;
    add_cross_motion_columns(-V1, t1, dU.leftCols(ns));
    dU.rightCols(ns) = t1;
  } else {
    dU.leftCols(ns) = v2;
    dU.rightCols(ns) = t2;
  }
  const auto rel = moving1 ? t1 : t2;  // δ₁₂ by δq, ground frame
  if (with_time_variation) relative_columns_rate(model, data, c, rel, rate1, gdot);
  if (with_acceleration) {
    dUd.leftCols(ns) = aq2;
    if (moving1) {
      add_cross_motion_columns(V1, t1, v1);  // δV_1 + V_1 × δ₁₂, the term of δu̇ V_2 × multiplies
      dUd.leftCols(ns) -= aq1;
      add_cross_motion_columns(-A1, t1, dUd.leftCols(ns));
      add_cross_motion_columns(-V1, v2, dUd.leftCols(ns));
      add_cross_motion_columns(V2, v1, dUd.leftCols(ns));
    }
  }
  // To frame 2: dU carries δ₁₂ (and for a contact θ₂) in its right half.
  RelativeMotion<S> out;
  out.H2 = data.kinematics.H_world[c.body2] * c.placement2;
  const SE3<S> X20 = data.kinematics.H_base[c.body2] * c.placement2;  // ^0H_2
  X20.act_inverse_motions(dU, dU);
  if (moving1) X20.act_inverse_motions(t2, t2);  // δθ_2 by δq, frame 2
  else t2 = dU.rightCols(ns);
  t1 = dU.rightCols(ns);  // δ₁₂ by δq, frame 2
  if (with_time_variation) X20.act_inverse_motions(gdot, gdot);
  out.u = X20.act_inverse(V2 - V1);
  out.v2 = X20.act_inverse(V2);
  if (!with_acceleration) return out;
  X20.act_inverse_motions(dUd, dUd);
  if (moving1) {
    X20.act_inverse_motions(dV2.leftCols(ns), dV2.leftCols(ns));
    dV2.rightCols(ns) = t2;
  }
  const auto dV2_frame2 = moving1 ? dV2 : dU;  // δV_2 by [δq | δν̄], frame 2
  out.y = X20.act_inverse(Motion<S>(data.derivatives.a[c.body2] - a_g0) - A1 + V2.cross(V1));
  acceleration_row_derivatives(c, dU, dUd, dV2_frame2, ws.dy.leftCols(2 * ns), out);
  return out;
}

/// The row derivatives of every constraint of the set, body-representation columns, from the
/// ground pass in data at (x, q̈): cd.velocity_dx, cd.acceleration_dx = ∂(J q̈ + γ)/∂x (q̈
/// held), and with KinematicRows::Included also cd.position_error_dx and cd.Jdot. `each` is called
/// after each geometric constraint with (c, relative motion), the workspace still holding
/// theta1, theta2 of relative_motion_derivatives (support blocks).
template <class S, class F>
void constraint_row_derivatives(const Model<S>& model, const Data<S>& data,
                                const ConstraintSet<S>& set, ConstraintData<S>& cd,
                                const Motion<S>& a_g0, KinematicRows kinematic_rows, F&& each) {
  const bool with_kinematics = kinematic_rows == KinematicRows::Included;
  const int nv = model.nv();
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;
  // The rows are zero off their supports: cleared here at once, then only the supports written.
  cd.velocity_dx.setZero();
  cd.acceleration_dx.setZero();
  if (with_kinematics) cd.position_error_dx.setZero();
  for (const Constraint<S>& c : set.constraints()) {
    if (c.type == ConstraintType::Coupling) {
      // J q̈ + Kd (J ν̄ − v*) + Kp e with a constant J: J ν̄ and e have J's coefficients on ν̄, s.
      cd.acceleration_dx.row(c.row).head(nv) = c.Kp * cd.J.row(c.row);
      cd.acceleration_dx.row(c.row).tail(nv) = c.Kd * cd.J.row(c.row);
      cd.velocity_dx.row(c.row).head(nv).setZero();
      cd.velocity_dx.row(c.row).tail(nv) = cd.J.row(c.row);
      if (with_kinematics) {
        cd.position_error_dx.row(c.row) = cd.J.row(c.row);
        cd.Jdot.row(c.row).setZero();
      }
      continue;
    }
    const RelativeMotion<S> rm = relative_motion_derivatives(
        model, data, c, a_g0, ws, with_kinematics ? kEveryMotionTerm : kWithAccelerationTerms);
    const int ns = static_cast<int>(c.support.size());
    auto theta1 = ws.theta1.leftCols(ns), theta2 = ws.theta2.leftCols(ns);
    auto rows = ws.rows.leftCols(2 * ns), dy = ws.dy.leftCols(2 * ns);
    auto error_dq = ws.dw.leftCols(ns);  // ∂e/∂q
    sense_rows_derivative<S>(c, rm.H2, rm.y, dy, theta2, rows);
    // ∂(J ν̄)/∂x: the same P on δu (an output, and the Kd term).
    sense_rows_derivative<S>(c, rm.H2, rm.u, ws.du.leftCols(2 * ns), theta2, dy);
    for (int k = 0; k < c.dim; ++k)
      scatter_support_row(c.support, dy.row(c.components[k]), SupportParts::Two,
                          cd.velocity_dx.row(c.row + k));
    if (!(c.Kd == S(0))) rows += c.Kd * dy;
    const bool error_needed = c.has_placement && (with_kinematics || !(c.Kp == S(0)));
    if (error_needed) {
      const SE3<S> H1 = c.body1 >= 0 ? SE3<S>(data.kinematics.H_world[c.body1] * c.placement1)
                                     : SE3<S>::Identity();
      auto star = ws.star.leftCols(ns);
      star = theta2 - theta1;  // frame 1's motion, frame 2's coordinates
      position_error_derivative<S>(c, rm.H2, H1 * c.placement, theta2, star, ws.de.leftCols(ns),
                                   error_dq);
      if (!(c.Kp == S(0))) rows.leftCols(ns) += c.Kp * error_dq;
    }
    for (int k = 0; k < c.dim; ++k)
      scatter_support_row(c.support, rows.row(c.components[k]), SupportParts::Two,
                          cd.acceleration_dx.row(c.row + k));
    if (with_kinematics) {
      if (error_needed)
        for (int k = 0; k < c.dim; ++k)
          scatter_support_row(c.support, error_dq.row(c.components[k]), SupportParts::One,
                              cd.position_error_dx.row(c.row + k));
      // J̇ column by column: d(P y_l)/dt with y_l = theta1's column l, ẏ_l = gdot's, and frame 2
      // turning by its own twist (J̇ is zero off the support).
      ws.column_theta.col(0) = rm.v2.vector();
      ws.column_dy.col(1).setZero();
      cd.Jdot.middleRows(c.row, c.dim).setZero();
      for (int l = 0; l < ns; ++l) {
        ws.column_dy.col(0) = ws.gdot.col(l);
        sense_rows_derivative<S>(c, rm.H2, Motion<S>(Vector6<S>(theta1.col(l))), ws.column_dy,
                                 ws.column_theta, ws.column_rows);
        for (int k = 0; k < c.dim; ++k)
          cd.Jdot(c.row + k, c.support[l]) = ws.column_rows(c.components[k], 0);
      }
    }
    each(c, rm);
  }
}

/// The rows of D (columns δx in the body representation) to `rep`: δν = N_η η + N_t δt
/// (linearization.hpp's twist_maps).
template <class S>
void columns_to_representation(const Model<S>& model, const State<S>& x, TwistRepresentation rep,
                               MatrixX<S>& D) {
  // A branch: only the base's twist has representations (twist_maps), a welded base none.
  if (!model.has_moving_base() || rep == TwistRepresentation::Body) return;
  const int nv = model.nv();
  Matrix6<S> N_eta, N_t, T;
  twist_maps(rep, x.H, x.nu, N_eta, N_t, T);
  for (Eigen::Index r = 0; r < D.rows(); ++r) {
    const Vector6<S> dnu = D.row(r).segment(nv, 6).transpose();
    D.row(r).template head<6>() += (N_eta.transpose() * dnu).transpose();
    D.row(r).segment(nv, 6) = (N_t.transpose() * dnu).transpose();
  }
}

}  // namespace detail

/// The kinematic derivatives of the set's constraints at (x, q̈) into cd (see the header for
/// frames and layout): position_error_dx = ∂e/∂q (m × nv), velocity_dx = ∂(J ν̄)/∂x and
/// acceleration_dx = ∂(J q̈ + γ)/∂x at the given q̈ (m × 2nv, base-twist columns in `rep`), and
/// Jdot = J̇ (m × nv). Also leaves cd.J, drift, gamma and the errors (constraint_kinematics).
/// Nothing allocates.
template <class S, class Derived>
void constraint_kinematics_derivatives(const Model<S>& model, Data<S>& data,
                                       const ConstraintSet<S>& set, ConstraintData<S>& cd,
                                       const State<S>& x, const Eigen::MatrixBase<Derived>& ddq,
                                       TwistRepresentation rep = TwistRepresentation::Body) {
  const char* who = "constraint_kinematics_derivatives";
  detail::check_constraint_call(who, model, data, set, cd, x);
  LIEDYN_CHECK_SIZE(who, "ddq", ddq, model.nv());
  constraint_kinematics(model, data, set, cd, x);
  detail::update_base_poses(model, data);
  detail::ground_motion_pass(model, data, x, ddq);
  const Motion<S> a_g0 = detail::gravity_in_base(model, x.H);
  detail::constraint_row_derivatives(model, data, set, cd, a_g0, detail::KinematicRows::Included,
                                     [](const Constraint<S>&, const detail::RelativeMotion<S>&) {});
  detail::columns_to_representation(model, x, rep, cd.velocity_dx);
  detail::columns_to_representation(model, x, rep, cd.acceleration_dx);
}

}  // namespace liedyn
