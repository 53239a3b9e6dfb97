// liedyn — algorithm: the exact derivatives of the constrained forward dynamics (contacts, loop
// closures, couplings): ∂q̈/∂x, ∂λ/∂x, ∂q̈/∂τ̄, ∂λ/∂τ̄, analytic.
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
// * ∂_x c is constraint_kinematics_derivatives.hpp's ∂(J q̈ + γ)/∂x at the constrained q̈, from
//   the same ground pass (the motion derivatives of the bodies that carry the constraint frames).
// That pass also gives the forward call its M and h: it runs at zero accelerations without the
// wrenches first (M, D1, D3, D4 and h = ĪD(x, 0)), and once q̈ and λ are known
// ground_acceleration_pass puts both in (ĪD is affine in each), completing D2.
// The 3nv right-hand sides are solved with the forward call's factors, one of two ways
// (ConstrainedDynamicsOptions::derivative_solve): a tree-sparse KKT solve per column,
// O(nv (d + m)) each (d: tree depth), or by block elimination with M⁻¹ explicit,
// O(nv (nnz(K) + m nv)) in all — the same numbers to rounding.
//
// Frames and layout. Columns of the x derivatives: δx = (η, δs, δt, δr) as in linearize (η the
// left-trivialized base pose, t the base twist in `rep`, holding t fixed in the η columns); a
// welded base has (δs, δr). Rows of the q̈ derivatives: q̈ = [ν̇; s̈] with ν̇ the body base
// acceleration, as constrained_forward_dynamics returns it; rows of the λ derivatives: λ stacked
// in the set's order, each in its constraint's sense. τ̄: base wrench (base frame), joint torques.
//
// Outputs in ConstraintData: ddq_dx (nv × 2nv), lambda_dx (m × 2nv), ddq_dtau (nv × nv),
// lambda_dtau (m × nv), velocity_dx = ∂(J ν̄)/∂x and acceleration_dx = ∂(J q̈ + γ)/∂x at the
// constrained q̈ (m × 2nv, same columns), and ddq, lambda, J, gamma as
// constrained_forward_dynamics gives them at (x, τ̄) (to rounding: M and h come from the
// derivative pass, not crba and the RNEA). position_error_dx and Jdot are left alone
// (constraint_kinematics_derivatives computes them).
// Data: the outputs of eidamb_derivatives at (x, q̈) with the constraint wrenches (Body
// representation). Exact KKT route: J must have full row rank. Nothing allocates.
#pragma once

#include <string>
#include <vector>

#include "liedyn/algorithm/constrained_dynamics.hpp"
#include "liedyn/algorithm/constraint_kinematics_derivatives.hpp"
#include "liedyn/algorithm/linearization.hpp"

namespace liedyn {

namespace detail {

/// The wrench the rows of c apply at frame 2 for multipliers `lam` (the constraint's own rows),
/// in frame 2's coordinates: w = Pᵀ λ; with `dw`, also its change by δq as P turns with frame 2
/// (theta2 = δθ_2 by δq, frame 2; support blocks, SupportColumns).
template <class S, class DL, class DT = Matrix6X<S>, class DW = Matrix6X<S>>
Force<S> constraint_wrench(const Constraint<S>& c, const SE3<S>& H2,
                           const Eigen::MatrixBase<DL>& lam, const DT* theta2 = nullptr,
                           DW* dw = nullptr) {
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
    if (dw)
      dw->template middleRows<3>(row_of_dw) +=
          hat(wl).lazyProduct(theta2->template bottomRows<3>());
  };
  if (is_rigid(c.type) && c.sense == TwistRepresentation::Inertial) {
    // w = ^AX_2ᵀ λ = _2X^A λ; δw = −δθ ×̄* w.
    const Force<S> w = H2.act_inverse(Force<S>(full));
    if (dw) motion_columns_cross_force(*theta2, Force<S>(-w), *dw);
    return w;
  }
  for (const RowBlock& b : row_layout(c.type)) {
    Vector3<S>& w = b.part == 0 ? f : n;
    if (b.form == RowBlockForm::Whole)
      block3(w, b.part, Vector3<S>(full.template segment<3>(b.row)));
    else w += c.complement * full.template segment<2>(b.row);
  }
  return Force<S>(f, n);
}

/// The constraint forces of multipliers `lam` (stacked as the set) as body-fixed external
/// wrenches: frame 2's body receives Pᵀλ at frame 2, frame 1's body (a robot body) the reaction.
template <class S, class DL>
void constraint_wrenches(const Model<S>& model, const Data<S>& data, const ConstraintSet<S>& set,
                         const Eigen::MatrixBase<DL>& lam, std::vector<Force<S>>& wrenches) {
  for (int i = 0; i < model.num_bodies(); ++i) wrenches[i] = Force<S>::Zero();
  for (const Constraint<S>& c : set.constraints()) {
    if (c.type == ConstraintType::Coupling) continue;
    const SE3<S> H2 = data.kinematics.H_world[c.body2] * c.placement2;
    const Force<S> w = constraint_wrench(c, H2, lam.segment(c.row, c.dim));
    wrenches[c.body2] += c.placement2.act(w);
    if (c.body1 >= 0)
      wrenches[c.body1] -= (data.kinematics.H_world[c.body1].inverse_times(H2)).act(w);
  }
}

/// The motion of constraint c's body-fixed wrenches (multipliers `lam`) as a block of
/// K = −∂_q(ĪD − Jᵀλ) on the constraint's support (rows and columns): R_relᵀ δw − J_1ᵀ (δ₁₂ ×̄* w)
/// (R_rel = δ₁₂ in frame 2, J_1 = δθ_1 in frame 2 = δθ_2 − δ₁₂; ws.theta1, theta2 of
/// relative_motion_derivatives). θ_1, θ_2 and so δw live on the support (the columns of the
/// constraint's chains), hence only that block moves. This function leaves its factors,
/// block = theta1ᵀ dw − j1ᵀ dw2: dw = δw in ws.dw, and for a robot body 1 (the return value)
/// j1 = J_1 in ws.dy and dw2 = δ₁₂ ×̄* w in ws.star (6 × ns each, free again by then).
template <class S, class DL>
bool wrench_motion_factors(const Constraint<S>& c, const SE3<S>& H2,
                           const Eigen::MatrixBase<DL>& lam,
                           ConstrainedDerivativesWorkspace<S>& ws) {
  const int ns = static_cast<int>(c.support.size());
  const auto theta1 = ws.theta1.leftCols(ns), theta2 = ws.theta2.leftCols(ns);
  auto dw = ws.dw.leftCols(ns);
  const Force<S> w = constraint_wrench(c, H2, lam, &theta2, &dw);
  if (c.body1 < 0) return false;
  ws.dy.leftCols(ns) = theta2 - theta1;
  motion_columns_cross_force(theta1, w, ws.star.leftCols(ns));
  return true;
}

/// The block itself (see wrench_motion_factors), in ws.support_block's top-left ns × ns corner.
template <class S, class DL>
auto wrench_motion_block(const Constraint<S>& c, const SE3<S>& H2, const Eigen::MatrixBase<DL>& lam,
                         ConstrainedDerivativesWorkspace<S>& ws) {
  const int ns = static_cast<int>(c.support.size());
  const bool reaction = wrench_motion_factors(c, H2, lam, ws);
  auto block = ws.support_block.topLeftCorner(ns, ns);
  block.noalias() = ws.theta1.leftCols(ns).transpose().lazyProduct(ws.dw.leftCols(ns));
  if (reaction) block.noalias() -= ws.dy.leftCols(ns).transpose().lazyProduct(ws.star.leftCols(ns));
  return block;
}

/// Whether wrench_motion_block can be nonzero: a wrench turns against its body only when its
/// rows are given in mixed or inertial sense (body rows are fixed in frame 2), and a reaction
/// exists only on a robot body 1. A body-sense contact's block vanishes.
template <class S>
bool wrench_moves(const Constraint<S>& c) {
  return c.sense != TwistRepresentation::Body || c.body1 >= 0;
}

/// wrench_motion_block added to Kᵀ's q rows (Kᵀ(support[b], support[a]) += block(a, b)), the
/// transposed right-hand sides of kkt_solve_transposed.
template <class S, class DL, class DK>
void add_wrench_motion_transposed(const Constraint<S>& c, const SE3<S>& H2,
                                  const Eigen::MatrixBase<DL>& lam,
                                  ConstrainedDerivativesWorkspace<S>& ws,
                                  const Eigen::MatrixBase<DK>& KT_) {
  if (!wrench_moves(c)) return;
  auto& KT = const_cast<Eigen::MatrixBase<DK>&>(KT_);
  const auto block = wrench_motion_block(c, H2, lam, ws);
  const int ns = static_cast<int>(c.support.size());
  for (int b = 0; b < ns; ++b)
    for (int a = 0; a < ns; ++a) KT(c.support[b], c.support[a]) += block(a, b);
}

/// Calls f(first, length, offset) for each run of consecutive coordinates of a support
/// (increasing): the run is support[offset .. offset + length), the coordinates first ...
/// first + length − 1.
template <class F>
void for_each_support_run(const std::vector<int>& support, F&& f) {
  const int ns = static_cast<int>(support.size());
  for (int a = 0; a < ns;) {
    int b = a + 1;
    while (b < ns && support[b] == support[b - 1] + 1) ++b;
    f(support[a], b - a, a);
    a = b;
  }
}

/// M⁻¹ times wrench_motion_block added to U's q columns (U.col(support[b]) +=
/// Σ_a M⁻¹.col(support[a]) block(a, b)), through the block's factors of inner dimension 6:
/// (M⁻¹_S theta1ᵀ) dw − (M⁻¹_S j1ᵀ) dw2, over the support's runs of coordinates.
template <class S, class DL, class DU>
void add_wrench_motion_response(const Constraint<S>& c, const SE3<S>& H2,
                                const Eigen::MatrixBase<DL>& lam,
                                ConstrainedDerivativesWorkspace<S>& ws, const MatrixX<S>& Minv,
                                const Eigen::MatrixBase<DU>& U_) {
  if (!wrench_moves(c)) return;
  auto& U = const_cast<Eigen::MatrixBase<DU>&>(U_);
  const int ns = static_cast<int>(c.support.size());
  const bool reaction = wrench_motion_factors(c, H2, lam, ws);
  auto& P = ws.minv_columns;  // M⁻¹_S leftᵀ (nv × 6)
  // U += sign M⁻¹_S leftᵀ right (sign ±1, applied exactly).
  auto add_product = [&](const auto& left, const auto& right, const S& sign) {
    P.setZero();
    for_each_support_run(c.support, [&](int first, int len, int a0) {
      P.noalias() += Minv.middleCols(first, len).lazyProduct(left.middleCols(a0, len).transpose());
    });
    if (sign != S(1)) P *= sign;
    for_each_support_run(c.support, [&](int first, int len, int a0) {
      U.middleCols(first, len).noalias() += P.lazyProduct(right.middleCols(a0, len));
    });
  };
  add_product(ws.theta1.leftCols(ns), ws.dw.leftCols(ns), S(1));
  if (reaction) add_product(ws.dy.leftCols(ns), ws.star.leftCols(ns), S(-1));
}

/// Solves M δq̈ − Jᵀ δλ = R, J δq̈ = Q for many right-hand sides from the factors of factor_kkt
/// (M = LᵀDL, Y = J L⁻¹, Z = Y D⁻¹, W = Y Zᵀ = C Cᵀ): with R' = L⁻ᵀ R, δλ = W⁻¹ (Q − Z R'),
/// δq̈ = L⁻¹ D⁻¹ (R' + Yᵀ δλ). Works on the transposes, one row per right-hand side — RT = Rᵀ
/// (overwritten), QT = Qᵀ (receives δλᵀ), DT (receives δq̈ᵀ) — so that every step of the
/// tree-sparse and the dense triangular solves is a contiguous column operation (GEMV, axpy).
/// Y's and Z's rows vanish off their constraint's support (closed under ancestors, so J L⁻¹
/// keeps J's zeros there, and ancestors come first): a row's product stops at its support's
/// last column, a column's takes only the rows of the constraints that reach it.
/// `r_rows` ≥ 0: the right-hand sides from row r_rows of RT on have R = 0 (their R' stays zero).
template <class S, class DR, class DQ, class DD>
void kkt_solve_transposed(const Model<S>& model, const Data<S>& data, const ConstraintSet<S>& set,
                          const ConstraintData<S>& cd, const Eigen::MatrixBase<DR>& RT_,
                          const Eigen::MatrixBase<DQ>& QT_, const Eigen::MatrixBase<DD>& DT_,
                          int r_rows = -1) {
  auto& RT = const_cast<Eigen::MatrixBase<DR>&>(RT_);
  auto& QT = const_cast<Eigen::MatrixBase<DQ>&>(QT_);
  auto& DT = const_cast<Eigen::MatrixBase<DD>&>(DT_);
  const MatrixX<S>& F = data.ltdl.factors;
  const MatrixX<S>& C = cd.delassus_factor;
  const int nv = model.nv(), m = static_cast<int>(QT.cols());
  const int nr = r_rows >= 0 ? r_rows : static_cast<int>(RT.rows());
  // R'ᵀ = Rᵀ L⁻¹ (ltdl_solve_transposed, every right-hand side).
  for (int j = nv - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    if (len > 0)
      RT.col(j).head(nr).noalias() -= RT.block(0, first, nr, len) * F.col(j).segment(first, len);
  }
  // (Q − Z R')ᵀ, then · W⁻¹ = · C⁻ᵀ C⁻¹ (delassus_solve).
  for (const Constraint<S>& c : set.constraints())
    for_each_support_run(c.support, [&](int first, int len, int) {
      for (int i = c.row; i < c.row + c.dim; ++i)
        QT.col(i).head(nr).noalias() -=
            RT.block(0, first, nr, len) * cd.Z.row(i).segment(first, len).transpose();
    });
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
    const auto [first, count] = set.rows_of_coordinate(j);
    DT.col(j) = RT.col(j);
    if (count > 0)
      DT.col(j).noalias() += QT.middleCols(first, count) * cd.Y.col(j).segment(first, count);
    DT.col(j) /= F(j, j);
  }
  for (int j = 0; j < nv; ++j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    for (int k = 0; k < len; ++k) DT.col(first + k) -= F(first + k, j) * DT.col(j);
  }
}

/// KktDerivativeSolve::SparseFactors: K = −∂_x(ĪD − Jᵀλ) (nv × 2nv, formed transposed) and
/// ∂_x c, then one tree-sparse KKT solve per column (kkt_solve_transposed): x columns (R = K,
/// Q = −∂_x c), then τ̄ columns (R = 1, Q = 0). After the derivative pass (D1..D4 with the
/// constraint wrenches, Body representation).
template <class S>
void kkt_derivatives_sparse(const Model<S>& model, const Data<S>& data, const ConstraintSet<S>& set,
                            ConstraintData<S>& cd, const Motion<S>& a_g0) {
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset(), N = 2 * nv;
  // Kᵀ straight into the transposed right-hand sides (x columns as rows).
  auto KT = ws.rhs_t.topRows(N);
  if (model.has_moving_base()) {  // a branch: a welded base has no rows of D1 and D3
    KT.template topRows<6>() = -data.derivatives.D1.transpose();
    KT.middleRows(nv, 6) = -data.derivatives.D3.transpose();
  }
  KT.middleRows(off, n) = -data.derivatives.D2.transpose();
  KT.middleRows(nv + off, n) = -data.derivatives.D4.transpose();
  constraint_row_derivatives(model, data, set, cd, a_g0, KinematicRows::Omitted,
                             [&](const Constraint<S>& c, const RelativeMotion<S>& rm) {
                               add_wrench_motion_transposed(
                                   c, rm.H2, cd.lambda.segment(c.row, c.dim), ws, KT);
                             });
  // One solve for all 3nv right-hand sides: each of its steps is one product over all of them.
  ws.rhs_t.bottomRows(nv).setIdentity();
  ws.lambda_t.topRows(N) = -cd.acceleration_dx.transpose();
  ws.lambda_t.bottomRows(nv).setZero();
  kkt_solve_transposed(model, data, set, cd, ws.rhs_t, ws.lambda_t, ws.ddq_t);
  cd.ddq_dx = ws.ddq_t.topRows(N).transpose();
  cd.lambda_dx = ws.lambda_t.topRows(N).transpose();
  cd.ddq_dtau = ws.ddq_t.bottomRows(nv).transpose();
  cd.lambda_dtau = ws.lambda_t.bottomRows(nv).transpose();
}

/// KktDerivativeSolve::DenseInverse: block elimination of the KKT system with M⁻¹ explicit
/// (W = J M⁻¹ Jᵀ, Q = [−∂_x c | 0]):
///   U = [M⁻¹ K | M⁻¹],  δλ = W⁻¹ (Q − J U),  δq̈ = U + M⁻¹ Jᵀ δλ.
/// M⁻¹ comes from the forward call's LᵀDL factors (ltdl_inverse), M⁻¹ K from the tree's sparsity
/// pattern of D1..D4 (linearization.hpp's dense route) plus the wrenches' motion as support
/// blocks; the rest are dense products of inner dimension m or the supports' end.
template <class S>
void kkt_derivatives_dense(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                           ConstraintData<S>& cd, const State<S>& x, const Motion<S>& a_g0) {
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;
  const MatrixX<S>& Minv = ltdl_inverse(model, data);
  minv_times_derivatives(model, data, x, TwistRepresentation::Body, S(-1),
                         cd.ddq_dx.leftCols(cd.ddq_dx.cols()));  // a view
  constraint_row_derivatives(model, data, set, cd, a_g0, KinematicRows::Omitted,
                             [&](const Constraint<S>& c, const RelativeMotion<S>& rm) {
                               add_wrench_motion_response(c, rm.H2, cd.lambda.segment(c.row, c.dim),
                                                          ws, Minv, cd.ddq_dx);
                             });
  // J's rows vanish off their constraint's support: the products with J run over the support's
  // runs of consecutive coordinates (a foot: the base's six, then its leg's).
  const int nv = model.nv();
  MatrixX<S>& psi = ws.minv_jt;  // M⁻¹ Jᵀ (M⁻¹ symmetric)
  MatrixX<S>& T = ws.constraint_rhs;
  T.leftCols(2 * nv) = -cd.acceleration_dx;
  for (const Constraint<S>& c : set.constraints()) {
    auto psi_c = psi.middleCols(c.row, c.dim);
    auto T_c = T.middleRows(c.row, c.dim).leftCols(2 * nv);
    psi_c.setZero();
    for_each_support_run(c.support, [&](int first, int len, int) {
      const auto J_run = cd.J.block(c.row, first, c.dim, len);
      psi_c.noalias() += Minv.middleCols(first, len) * J_run.transpose();
      T_c.noalias() -= J_run * cd.ddq_dx.middleRows(first, len);
    });
  }
  T.rightCols(nv) = -psi.transpose();
  // W⁻¹ = C⁻ᵀ C⁻¹ from the Cholesky factor C, C⁻¹ by rows (vectorized rank-one updates).
  const MatrixX<S>& C = cd.delassus_factor;
  const int m = static_cast<int>(C.rows());
  auto Cinv = ws.support_block.topLeftCorner(m, m);  // free again: the blocks are applied
  Cinv.setIdentity();
  for (int k = 0; k < m; ++k) {
    Cinv.row(k).head(k + 1) /= C(k, k);
    const int below = m - 1 - k;
    if (below > 0)
      Cinv.bottomLeftCorner(below, k + 1).noalias() -=
          C.col(k).tail(below) * Cinv.row(k).head(k + 1);
  }
  MatrixX<S>& Winv = ws.w_inverse;
  Winv.noalias() = Cinv.transpose() * Cinv;
  cd.lambda_dx.noalias() = Winv * T.leftCols(2 * nv);
  cd.lambda_dtau.noalias() = Winv * T.rightCols(nv);
  cd.ddq_dx.noalias() += psi * cd.lambda_dx;
  cd.ddq_dtau = Minv;
  cd.ddq_dtau.noalias() += psi * cd.lambda_dtau;
}

}  // namespace detail

/// The derivatives of constrained_forward_dynamics (exact KKT route) at (x, τ̄) into
/// cd.ddq_dx, cd.lambda_dx, cd.ddq_dtau, cd.lambda_dtau; columns of the x derivatives in the
/// base-twist representation `rep` (see the header for every frame and layout).
template <class S, class Derived>
void constrained_forward_dynamics_derivatives(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<Derived>& tau,
    TwistRepresentation rep = TwistRepresentation::Body,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "constrained_forward_dynamics_derivatives";
  LIEDYN_CHECK(opt.route == ConstrainedDynamicsRoute::ExactKKT,
               std::string(who) + ": only the ExactKKT route is differentiated");
  detail::check_constraint_call(who, model, data, set, cd, x);
  LIEDYN_CHECK_SIZE(who, "tau", tau, model.nv());
  model.require_invertible_mass_matrix(who);
  ConstrainedDerivativesWorkspace<S>& ws = cd.derivatives;

  // The forward call of constrained_forward_dynamics, with M and h from a derivative pass at zero
  // accelerations (ĪD is affine in q̈ and in the external wrenches; M, D1, D3, D4 depend on
  // neither), which the accelerations and the constraint forces complete afterwards.
  forward_poses(model, data, x);
  detail::update_base_poses(model, data);
  detail::ground_derivative_pass</*kWithD2=*/false>(
      model, data, x, VectorX<S>::Zero(model.nv()), TwistRepresentation::Body,
      static_cast<const ExternalWrenches<S>*>(nullptr));
  data.h = data.tau;
  forward_velocity(model, data, x);  // the body twists of the constraint rows
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Included,
                          detail::BodyKinematics::AlreadyCurrent);
  ltdl_factorize(model, data);
  detail::factor_delassus(model, data, set, cd, opt, who);
  detail::solve_factored_kkt(model, data, set, cd, tau);

  // The constraint forces as body-fixed external wrenches (they depend on the poses only) and the
  // accelerations put in: D2 and τ̄ at (x, q̈) with the wrenches (eidamb_derivatives' outputs).
  detail::constraint_wrenches(model, data, set, cd.lambda, ws.wrenches);
  detail::ground_acceleration_pass(model, data, x, cd.ddq, &ws.wrenches);
  const Motion<S> a_g0 = detail::gravity_in_base(model, x.H);

  const bool dense =
      opt.derivative_solve == KktDerivativeSolve::DenseInverse ||
      (opt.derivative_solve == KktDerivativeSolve::Automatic && model.nv() >= opt.dense_from_nv);
  if (dense) detail::kkt_derivatives_dense(model, data, set, cd, x, a_g0);
  else detail::kkt_derivatives_sparse(model, data, set, cd, a_g0);

  // Other base-twist representations.
  detail::columns_to_representation(model, x, rep, cd.ddq_dx);
  detail::columns_to_representation(model, x, rep, cd.lambda_dx);
  detail::columns_to_representation(model, x, rep, cd.velocity_dx);
  detail::columns_to_representation(model, x, rep, cd.acceleration_dx);
}

}  // namespace liedyn
