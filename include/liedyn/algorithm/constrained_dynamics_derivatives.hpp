// liedyn — algorithm: the exact derivatives of the constrained forward dynamics (contacts, loop
// closures, couplings): ∂q̈/∂x, ∂λ/∂x, ∂q̈/∂τ̄, ∂λ/∂τ̄, analytic; O(nv² (d + m) + m² nv) for the
// 3nv right-hand sides of the KKT solves (d: tree depth).
//
// Differentiating the KKT system of constrained_dynamics.hpp,
//   ĪD(x, q̈) − Jᵀ λ = τ̄,   c(x, q̈) := J q̈ + γ = 0,
// along x (q̈, λ held) gives, for every column of δx and of δτ̄,
//   M δq̈ − Jᵀ δλ = δτ̄ − ∂_x(ĪD − Jᵀλ) δx,   J δq̈ = −∂_x c δx.
// * ∂_x(ĪD − Jᵀλ) is eidamb_derivatives at the constrained accelerations with the constraint
//   forces as external wrenches (fixed in the bodies that carry them), plus the two terms that
//   make them move: a wrench given in mixed or inertial sense turns with frame 2 relative to the
//   body (δw = [f^; n^] δθ_ang, resp. −δθ ×̄* w), and a loop's reaction on frame 1's body is
//   carried by the relative pose ^1H_2 (δ(^1X_2^* w) = ^1X_2^* (δ₁₂ ×̄* w + δw)).
// * ∂_x c comes from the motion derivatives of the bodies that carry the constraint frames. With
//   everything in the base frame frozen at this instant (eidamb_derivatives' ground frame: S_k,
//   V_k, A_k without gravity, u_k = S_k × V_k), a body b moved by δq_k (k ≼ b) has
//     δθ_b = S_k,   δV_b = −u_k,   δA_b = A_k × S_k + (V_b − V_k) × u_k,
//   and by δν̄_k: δV_b = S_k, δA_b = S_k × V_b − 2 u_k (the base: δA_b = e_m × (V_b − ν), and
//   nothing from η while ν is held). These are the changes of b's body twist and acceleration,
//   in ground coordinates (^bX_0 maps them to b's own), the turning of ^bX_0 itself included
//   (docs/constraints.md, "Derivatives").
//   The relative twist u = ^2X_0 (V_2 − V_1) and its derivative u̇ = ^2X_0 (A_2 − A_1 + V_2 × V_1)
//   then vary, with δ₁₂ = δθ_2 − δθ_1 (the relative Jacobian), as
//     δu = δV_2 − δV_1 − V_1 × δ₁₂,
//     δu̇ = δA_2 − δA_1 − A_1 × δ₁₂ − V_1 × δV_2 + V_2 × (δV_1 + V_1 × δ₁₂),
//   and each row's P(x) (constraint_kinematics.hpp: rotations to A's axes, the classical and
//   intrinsic corrections ω_2 × u and v_2 × u) is differentiated on top.
// The Baumgarte terms add Kd ∂(J ν̄)/∂x (the same P on δu) and Kp ∂e/∂x
// (position_error_derivative).
//
// Frames and layout. Columns of the x derivatives: δx = (η, δs, δt, δr) as in linearize (η the
// left-trivialized base pose, t the base twist in `rep`, holding t fixed in the η columns); a
// welded base has (δs, δr). Rows of the q̈ derivatives: q̈ = [ν̇; s̈] with ν̇ the body base
// acceleration, as constrained_forward_dynamics returns it; rows of the λ derivatives: λ stacked
// in the set's order, each in its constraint's sense. τ̄: base wrench (base frame), joint torques.
//
// Outputs in ConstraintData: ddq_dx (nv × 2nv), lambda_dx (m × 2nv), ddq_dtau (nv × nv),
// lambda_dtau (m × nv), velocity_dx = ∂(J ν̄)/∂x (m × 2nv, same columns), and ddq, lambda, J,
// gamma of constrained_forward_dynamics at (x, τ̄).
// Data: the outputs of eidamb_derivatives at (x, q̈) with the constraint wrenches (Body
// representation). Exact KKT route: J must have full row rank. Nothing allocates.
#pragma once

#include <string>

#include "liedyn/algorithm/constrained_dynamics.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/linearization.hpp"

namespace liedyn {

namespace detail {

/// The ground-frame motion derivatives of `body` (see the header), 6 × nv each, non-zero on the
/// columns of its support: theta (δθ by δq, also δV by δν̄), dv (δV by δq), daq (δA by δq), dav
/// (δA by δν̄); all zero for the environment (body −1). Needs the ground quantities of
/// eidamb_derivatives.
template <class S>
void body_motion_derivatives(const Model<S>& model, const Data<S>& data, int body, const Motion<S>& a_g0,
                             Matrix6X<S>& theta, Matrix6X<S>& dv, Matrix6X<S>& daq, Matrix6X<S>& dav) {
  theta.setZero();
  dv.setZero();
  daq.setZero();
  dav.setZero();
  if (body < 0) return;
  const Motion<S>& Vb = data.ground_v[body];
  for_each_support_body(model, body, [&](int k) {
    if (k == 0) {
      if (!model.has_moving_base()) return;
      theta.template leftCols<6>().setIdentity();
      dav.template leftCols<6>() = -(Vb - data.ground_v[0]).cross_matrix();
      return;
    }
    const int col = model.v_index(k);
    const Motion<S>& Sk = data.ground_axis[k];
    const Motion<S>& uk = data.ground_u[k];
    const Motion<S> Ak = data.ground_a[k] - a_g0;
    theta.col(col) = Sk.vector();
    dv.col(col) = -uk.vector();
    daq.col(col) = (Ak.cross(Sk) + (Vb - data.ground_v[k]).cross(uk)).vector();
    dav.col(col) = (Sk.cross(Vb) - uk * S(2)).vector();
  });
}

/// out = d(P y) for the rows of constraint c before its component mask (full_dimension rows of
/// out, 2nv columns): P the rows' map of constraint_kinematics.hpp at frame 2's world pose H2,
/// y a frame-2 motion (u, or the rows' acceleration before P) and dy its derivative (6 × 2nv),
/// theta2 = δθ_2 by δq (6 × nv, frame 2): P turns with frame 2 in mixed and inertial sense.
template <class S>
void sense_rows_derivative(const Constraint<S>& c, const SE3<S>& H2, const Motion<S>& y, const Matrix6X<S>& dy,
                           const Matrix6X<S>& theta2, Matrix6X<S>& out) {
  const int nv = static_cast<int>(theta2.cols());
  const Matrix3<S>& R2 = H2.rotation();
  const bool body = c.sense == TwistRepresentation::Body;
  auto rotated = [&](int r0, int y0, const Vector3<S>& y3) {
    // d(R_2 y) = R_2 (dy − y^ δθ_ang): frame 2 turns by δθ_ang.
    out.template middleRows<3>(r0) = R2.lazyProduct(dy.template middleRows<3>(y0));
    out.template middleRows<3>(r0).leftCols(nv) -= (R2 * hat(y3)).lazyProduct(theta2.template bottomRows<3>());
  };
  auto block3 = [&](int r0, int y0, const Vector3<S>& y3) {
    if (body)
      out.template middleRows<3>(r0) = dy.template middleRows<3>(y0);
    else
      rotated(r0, y0, y3);
  };
  switch (c.type) {
    case ConstraintType::RigidContact:
    case ConstraintType::RigidLoop:
      if (c.sense == TwistRepresentation::Inertial) {
        // d(^AX_2 y) = ^AX_2 (dy − ad(y) δθ).
        out = dy;
        out.leftCols(nv) -= y.cross_matrix().lazyProduct(theta2);
        H2.act_motions(out, out);
      } else {
        block3(0, 0, y.linear());
        block3(3, 3, y.angular());
      }
      break;
    case ConstraintType::PointContact:
    case ConstraintType::BallLoop: block3(0, 0, y.linear()); break;
    case ConstraintType::RevoluteLoop:
      block3(0, 0, y.linear());
      out.template middleRows<2>(3) = c.complement.transpose().lazyProduct(dy.template bottomRows<3>());
      break;
    case ConstraintType::PrismaticLoop:
      out.template topRows<2>() = c.complement.transpose().lazyProduct(dy.template topRows<3>());
      block3(2, 3, y.angular());
      break;
    case ConstraintType::Coupling: break;
  }
}

/// out (full_dimension rows × nv) = ∂e/∂q, e the position error of constraint_kinematics.hpp:
/// frame 2 (world pose H2) moves by theta2 and frame 1 by `star` on entry (both 6 × nv, frame 2's
/// coordinates), which carries the target H* = H_1 ^1H_2*. With E = H*⁻¹ H2, the target moves by
/// δ* = Ad_E δθ_1 (its own coordinates), d = o_2 − o*, φ = log(R*ᵀ R_2):
///   δd = R_2 δθ_lin − R* δ*_lin,   δφ = Jr⁻¹(φ) δθ_ang − Jl⁻¹(φ) δ*_ang.
/// Scratch: star (δ* on return), de (6 × nv).
template <class S>
void position_error_derivative(const Constraint<S>& c, const SE3<S>& H2, const SE3<S>& target,
                               const Matrix6X<S>& theta2, Matrix6X<S>& star, Matrix6X<S>& de, Matrix6X<S>& out) {
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
  auto body_linear = [&](Matrix6X<S>& to, int r0) {
    to.template middleRows<3>(r0) = hat(Vector3<S>(R2.transpose() * d)).lazyProduct(theta2.template bottomRows<3>()) +
                                     R2.transpose().lazyProduct(dd);
  };
  // R_2 φ (mixed and inertial rows): δ = R_2 (δφ − φ^ δθ_ang).
  auto rotated_angle = [&](int r0) {
    out.template middleRows<3>(r0) = R2.lazyProduct(dphi) - (R2 * hat(phi)).lazyProduct(theta2.template bottomRows<3>());
  };
  switch (c.type) {
    case ConstraintType::RigidContact:
    case ConstraintType::RigidLoop:
      if (body) {
        body_linear(out, 0);
        out.template bottomRows<3>() = dphi;
      } else {
        rotated_angle(3);
        out.template topRows<3>() = dd;
        if (c.sense == TwistRepresentation::Inertial) {
          // + δ(o_2 × R_2 φ) = −(R_2 φ)^ R_2 δθ_lin + o_2^ δ(R_2 φ).
          out.template topRows<3>() += hat(o2).lazyProduct(out.template bottomRows<3>()) -
                                       (hat(Vector3<S>(R2 * phi)) * R2).lazyProduct(theta2.template topRows<3>());
        }
      }
      break;
    case ConstraintType::PointContact:
    case ConstraintType::BallLoop:
    case ConstraintType::RevoluteLoop:
      if (body)
        body_linear(out, 0);
      else
        out.template topRows<3>() = dd;
      if (c.type == ConstraintType::RevoluteLoop)
        out.template middleRows<2>(3) = c.complement.transpose().lazyProduct(dphi);
      break;
    case ConstraintType::PrismaticLoop:
      body_linear(star, 0);  // δ* is no longer needed
      out.template topRows<2>() = c.complement.transpose().lazyProduct(star.template topRows<3>());
      if (body)
        out.template middleRows<3>(2) = dphi;
      else
        rotated_angle(2);
      break;
    case ConstraintType::Coupling: break;
  }
}

/// The wrench the rows of c apply at frame 2 for multipliers `lam` (the constraint's own rows),
/// in frame 2's coordinates: w = Pᵀ λ; with `dw`, also its change by δq (6 × nv) as P turns with
/// frame 2 (theta2 = δθ_2 by δq, frame 2).
template <class S, class DL>
Force<S> constraint_wrench(const Constraint<S>& c, const SE3<S>& H2, const Eigen::MatrixBase<DL>& lam,
                           const Matrix6X<S>* theta2 = nullptr, Matrix6X<S>* dw = nullptr) {
  Vector6<S> full = Vector6<S>::Zero();
  for (int k = 0; k < c.dim; ++k) full(c.components[k]) = lam(k);
  const Matrix3<S>& R2 = H2.rotation();
  const bool body = c.sense == TwistRepresentation::Body;
  Vector3<S> f = Vector3<S>::Zero(), n = Vector3<S>::Zero();
  if (dw) dw->setZero();
  // A block given in A's axes (mixed): w = R_2ᵀ λ, δw = (R_2ᵀ λ)^ δθ_ang.
  auto block3 = [&](Vector3<S>& w, int row_of_dw, const Vector3<S>& l3) {
    if (body) {
      w += l3;
      return;
    }
    const Vector3<S> wl = R2.transpose() * l3;
    w += wl;
    if (dw) dw->template middleRows<3>(row_of_dw) += hat(wl).lazyProduct(theta2->template bottomRows<3>());
  };
  switch (c.type) {
    case ConstraintType::RigidContact:
    case ConstraintType::RigidLoop:
      if (c.sense == TwistRepresentation::Inertial) {
        // w = ^AX_2ᵀ λ = _2X^A λ; δw = −δθ ×̄* w.
        const Force<S> w = H2.act_inverse(Force<S>(full));
        if (dw) dw->noalias() = -cross_star_of_force(w).lazyProduct(*theta2);
        return w;
      }
      block3(f, 0, Vector3<S>(full.template head<3>()));
      block3(n, 3, Vector3<S>(full.template tail<3>()));
      break;
    case ConstraintType::PointContact:
    case ConstraintType::BallLoop: block3(f, 0, Vector3<S>(full.template head<3>())); break;
    case ConstraintType::RevoluteLoop:
      block3(f, 0, Vector3<S>(full.template head<3>()));
      n += c.complement * full.template segment<2>(3);
      break;
    case ConstraintType::PrismaticLoop:
      f += c.complement * full.template head<2>();
      block3(n, 3, Vector3<S>(full.template segment<3>(2)));
      break;
    case ConstraintType::Coupling: break;
  }
  return Force<S>(f, n);
}

/// Solves M δq̈ − Jᵀ δλ = R, J δq̈ = Q for many right-hand sides from the factors of factor_kkt
/// (M = LᵀDL, Y = J L⁻¹, Z = Y D⁻¹, W = Y Zᵀ = C Cᵀ): with R' = L⁻ᵀ R, δλ = W⁻¹ (Q − Z R'),
/// δq̈ = L⁻¹ D⁻¹ (R' + Yᵀ δλ). Works on the transposes, one row per right-hand side — RT = Rᵀ
/// (overwritten), QT = Qᵀ (receives δλᵀ), DT (receives δq̈ᵀ) — so that every step of the
/// tree-sparse and the dense triangular solves is a contiguous column operation (GEMV, axpy).
template <class S, class DR, class DQ, class DD>
void kkt_solve_transposed(const Model<S>& model, const Data<S>& data, const ConstraintData<S>& cd,
                          const Eigen::MatrixBase<DR>& RT_, const Eigen::MatrixBase<DQ>& QT_,
                          const Eigen::MatrixBase<DD>& DT_) {
  auto& RT = const_cast<Eigen::MatrixBase<DR>&>(RT_);
  auto& QT = const_cast<Eigen::MatrixBase<DQ>&>(QT_);
  auto& DT = const_cast<Eigen::MatrixBase<DD>&>(DT_);
  const MatrixX<S>& F = data.ltdl;
  const MatrixX<S>& C = cd.delassus_factor;
  const int nv = model.nv(), m = static_cast<int>(QT.cols());
  // R'ᵀ = Rᵀ L⁻¹ (ltdl_solve_transposed, every right-hand side).
  for (int j = nv - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    if (len > 0) RT.col(j).noalias() -= RT.middleCols(first, len) * F.col(j).segment(first, len);
  }
  // (Q − Z R')ᵀ, then · W⁻¹ = · C⁻ᵀ C⁻¹ (delassus_solve).
  for (int i = 0; i < m; ++i) QT.col(i).noalias() -= RT * cd.Z.row(i).transpose();
  for (int i = 0; i < m; ++i) {
    if (i > 0) QT.col(i).noalias() -= QT.leftCols(i) * C.row(i).head(i).transpose();
    QT.col(i) /= C(i, i);
  }
  for (int i = m - 1; i >= 0; --i) {
    const int below = m - 1 - i;
    if (below > 0) QT.col(i).noalias() -= QT.rightCols(below) * C.col(i).tail(below);
    QT.col(i) /= C(i, i);
  }
  // δq̈ᵀ = (R'ᵀ + δλᵀ Y) D⁻¹ L⁻ᵀ (ltdl_solve_lower: row j feeds its subtree).
  for (int j = 0; j < nv; ++j) {
    DT.col(j) = RT.col(j);
    DT.col(j).noalias() += QT * cd.Y.col(j);
    DT.col(j) /= F(j, j);
  }
  for (int j = 0; j < nv; ++j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    for (int k = 0; k < len; ++k) DT.col(first + k) -= F(first + k, j) * DT.col(j);
  }
}

}  // namespace detail

/// The derivatives of constrained_forward_dynamics (exact KKT route) at (x, τ̄) into
/// cd.ddq_dx, cd.lambda_dx, cd.ddq_dtau, cd.lambda_dtau; columns of the x derivatives in the
/// base-twist representation `rep` (see the header for every frame and layout).
template <class S, class Derived>
void constrained_forward_dynamics_derivatives(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                                              ConstraintData<S>& cd, const State<S>& x,
                                              const Eigen::MatrixBase<Derived>& tau,
                                              TwistRepresentation rep = TwistRepresentation::Body,
                                              const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "constrained_forward_dynamics_derivatives";
  LIEDYN_CHECK(opt.route == ConstrainedDynamicsRoute::ExactKKT,
               std::string(who) + ": only the ExactKKT route is differentiated");
  constrained_forward_dynamics(model, data, set, cd, x, tau, opt);  // checks every argument
  const int nv = model.nv(), nb = model.num_bodies();
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;

  // The constraint forces as body-fixed external wrenches, and the derivative of their motion.
  // Frame quantities need the ground pass first, which needs the wrenches: the wrenches depend
  // only on poses (forward kinematics, done), so they come first.
  for (int i = 0; i < nb; ++i) ws.wrenches[i] = Force<S>::Zero();
  for (const Constraint<S>& c : set.constraints()) {
    if (c.type == ConstraintType::Coupling) continue;
    const SE3<S> H2 = data.H_world[c.body2] * c.placement2;
    const Force<S> w = detail::constraint_wrench(c, H2, cd.lambda.segment(c.row, c.dim));
    ws.wrenches[c.body2] += c.placement2.act(w);
    if (c.body1 >= 0)
      ws.wrenches[c.body1] -= (data.H_world[c.body1].inverse_times(H2)).act(w);
  }
  eidamb_derivatives(model, data, x, cd.ddq, TwistRepresentation::Body, &ws.wrenches);
  const Motion<S> a_g0 = detail::gravity_in_base(model, x.H);

  // −∂_x(ĪD − Jᵀλ) into ws.rhs (nv × 2nv), −∂_x c into cd.lambda_dx (m × 2nv).
  MatrixX<S>& K = ws.rhs;
  const int n = model.num_joints(), off = model.offset();
  if (model.has_moving_base()) {
    K.leftCols(6) = -data.D1;
    K.middleCols(nv, 6) = -data.D3;
  }
  K.middleCols(off, n) = -data.D2;
  K.middleCols(nv + off, n) = -data.D4;
  MatrixX<S>& C = cd.lambda_dx;
  for (const Constraint<S>& c : set.constraints()) {
    if (c.type == ConstraintType::Coupling) {
      // J q̈ + Kd (J ν̄ − v*) + Kp e with a constant J: J ν̄ and e have J's coefficients on ν̄, s.
      C.block(c.row, 0, 1, nv) = -c.Kp * cd.J.row(c.row);
      C.block(c.row, nv, 1, nv) = -c.Kd * cd.J.row(c.row);
      cd.velocity_dx.row(c.row).head(nv).setZero();
      cd.velocity_dx.row(c.row).tail(nv) = cd.J.row(c.row);
      continue;
    }
    Matrix6X<S>&t1 = ws.theta1, &v1 = ws.dv1, &aq1 = ws.daq1, &av1 = ws.dav1;
    Matrix6X<S>&t2 = ws.theta2, &v2 = ws.dv2, &aq2 = ws.daq2, &av2 = ws.dav2;
    detail::body_motion_derivatives(model, data, c.body1, a_g0, t1, v1, aq1, av1);
    detail::body_motion_derivatives(model, data, c.body2, a_g0, t2, v2, aq2, av2);
    const Motion<S> V1 = c.body1 >= 0 ? data.ground_v[c.body1] : Motion<S>::Zero();
    const Motion<S> A1 = c.body1 >= 0 ? Motion<S>(data.ground_a[c.body1] - a_g0) : Motion<S>::Zero();
    const Motion<S>& V2 = data.ground_v[c.body2];
    const Motion<S> A2 = data.ground_a[c.body2] - a_g0;
    const Matrix6<S> adV1 = V1.cross_matrix(), adV2 = V2.cross_matrix();
    // Ground frame: δ₁₂ (theta1 ← θ₂ − θ₁), δu and δu̇ for [δq | δν̄].
    Matrix6X<S>& dU = ws.du;
    Matrix6X<S>& dUd = ws.dud;
    Matrix6X<S>& dV2 = ws.dv2_full;
    dV2.leftCols(nv) = v2;
    dV2.rightCols(nv) = t2;
    dUd.rightCols(nv) = av2 - av1 - adV1.lazyProduct(t2) + adV2.lazyProduct(t1);
    t1 = t2 - t1;  // δ₁₂ by δq
    dU.rightCols(nv) = t1;
    dU.leftCols(nv) = v2 - v1 - adV1.lazyProduct(t1);
    v1 += adV1.lazyProduct(t1);  // δV_1 + V_1 × δ₁₂, the term of δu̇ that V_2 × multiplies
    dUd.leftCols(nv) = aq2 - aq1 - A1.cross_matrix().lazyProduct(t1) - adV1.lazyProduct(v2) + adV2.lazyProduct(v1);
    // To frame 2.
    const SE3<S> H2 = data.H_world[c.body2] * c.placement2;
    const SE3<S> X20 = data.H_base[c.body2] * c.placement2;  // ^0H_2
    X20.act_inverse_motions(dU, dU);
    X20.act_inverse_motions(dUd, dUd);
    X20.act_inverse_motions(dV2, dV2);
    X20.act_inverse_motions(t2, t2);  // δθ_2 by δq, frame 2
    X20.act_inverse_motions(t1, t1);  // δ₁₂ by δq, frame 2
    const Motion<S> u = X20.act_inverse(V2 - V1);
    const Motion<S> ud = X20.act_inverse(A2 - A1 + V2.cross(V1));
    const Motion<S> v2f = X20.act_inverse(V2);
    // The rows' acceleration before P (constraint_kinematics.hpp), y, and its derivative dy.
    Matrix6X<S>& dy = ws.dy;
    Motion<S> y = ud;
    dy = dUd;
    const bool body_sense = c.sense == TwistRepresentation::Body;
    if (c.type == ConstraintType::RigidContact || c.type == ConstraintType::RigidLoop) {
      // Intrinsic: u̇ + v_2 × u.
      y += v2f.cross(u);
      dy += v2f.cross_matrix().lazyProduct(dU) - u.cross_matrix().lazyProduct(dV2);
    } else {
      // Classical: ω_2 × u on the linear block of points (any sense) and of mixed ball and
      // revolute rows, on the angular block of mixed prismatic rows.
      const Vector3<S> w2 = v2f.angular();
      const bool lin = c.type == ConstraintType::PointContact ||
                       (!body_sense && (c.type == ConstraintType::BallLoop || c.type == ConstraintType::RevoluteLoop));
      const bool ang = !body_sense && c.type == ConstraintType::PrismaticLoop;
      auto classical = [&](int r0, const Vector3<S>& u3) {
        y.vector().template segment<3>(r0) += w2.cross(u3);
        dy.template middleRows<3>(r0) +=
            hat(w2).lazyProduct(dU.template middleRows<3>(r0)) - hat(u3).lazyProduct(dV2.template bottomRows<3>());
      };
      if (lin) classical(0, u.linear());
      if (ang) classical(3, u.angular());
    }
    Matrix6X<S>& rows = ws.rows;
    detail::sense_rows_derivative(c, H2, y, dy, t2, rows);
    // ∂(J ν̄)/∂x: the same P on δu (an output, and the Kd term).
    detail::sense_rows_derivative(c, H2, u, dU, t2, ws.dy);
    for (int k = 0; k < c.dim; ++k) cd.velocity_dx.row(c.row + k) = ws.dy.row(c.components[k]);
    if (!(c.Kd == S(0))) rows += c.Kd * ws.dy;
    if (!(c.Kp == S(0))) {
      const SE3<S> H1 = c.body1 >= 0 ? SE3<S>(data.H_world[c.body1] * c.placement1) : SE3<S>::Identity();
      ws.star = t2 - t1;  // frame 1's motion, frame 2's coordinates
      detail::position_error_derivative(c, H2, H1 * c.placement, t2, ws.star, ws.de, ws.dw);
      rows.leftCols(nv) += c.Kp * ws.dw;
    }
    for (int k = 0; k < c.dim; ++k) C.row(c.row + k) = -rows.row(c.components[k]);

    // The constraint wrench's motion: K = −∂(ĪD − Jᵀλ) gains R_relᵀ δw − J_1ᵀ (δ₁₂ ×̄* w) in its
    // q columns (R_rel = δ₁₂ in frame 2, J_1 = δθ_1 in frame 2 = δθ_2 − δ₁₂).
    const Force<S> w = detail::constraint_wrench(c, H2, cd.lambda.segment(c.row, c.dim), &t2, &ws.dw);
    K.leftCols(nv) += t1.transpose().lazyProduct(ws.dw);
    if (c.body1 >= 0) {
      ws.dy.leftCols(nv) = t2 - t1;  // J_1 in frame 2
      ws.dw.noalias() = detail::cross_star_of_force(w).lazyProduct(t1);
      K.leftCols(nv) -= ws.dy.leftCols(nv).transpose().lazyProduct(ws.dw);
    }
  }

  // The KKT solves: x columns (R = −∂(ĪD − Jᵀλ), Q = −∂c), then τ̄ columns (R = 1, Q = 0).
  const int N = 2 * nv;
  ws.rhs_t.topRows(N) = K.transpose();
  ws.lambda_t.topRows(N) = C.transpose();
  detail::kkt_solve_transposed(model, data, cd, ws.rhs_t.topRows(N), ws.lambda_t.topRows(N), ws.ddq_t.topRows(N));
  cd.ddq_dx = ws.ddq_t.topRows(N).transpose();
  cd.lambda_dx = ws.lambda_t.topRows(N).transpose();
  ws.rhs_t.topRows(nv).setIdentity();
  ws.lambda_t.topRows(nv).setZero();
  detail::kkt_solve_transposed(model, data, cd, ws.rhs_t.topRows(nv), ws.lambda_t.topRows(nv), ws.ddq_t.topRows(nv));
  cd.ddq_dtau = ws.ddq_t.topRows(nv).transpose();
  cd.lambda_dtau = ws.lambda_t.topRows(nv).transpose();

  // Other base-twist representations: δν = N_η η + N_t δt (linearization.hpp's twist_maps).
  if (!model.has_moving_base() || rep == TwistRepresentation::Body) return;
  Matrix6<S> N_eta, N_t, T;
  detail::twist_maps(rep, x.H, x.nu, N_eta, N_t, T);
  auto convert = [&](MatrixX<S>& D) {
    for (Eigen::Index r = 0; r < D.rows(); ++r) {
      const Vector6<S> dnu = D.row(r).segment(nv, 6).transpose();
      D.row(r).template head<6>() += (N_eta.transpose() * dnu).transpose();
      D.row(r).segment(nv, 6) = (N_t.transpose() * dnu).transpose();
    }
  };
  convert(cd.ddq_dx);
  convert(cd.lambda_dx);
  convert(cd.velocity_dx);
}

}  // namespace liedyn
