// liedyn — interop: our geometric derivatives D1..D4 and linearization A, B expressed as the
// Jacobians other libraries compute — Pinocchio's computeRNEADerivatives (dtau_dq, dtau_dv,
// dtau_da) and computeABADerivatives (ddq_dq, ddq_dv, ddq_dtau), MuJoCo's mjd_inverseFD (DfDq,
// DfDv, DfDa), and the same Jacobians for any convention of floating_base.hpp.
//
// What the other library differentiates: its inverse dynamics τ_L(q, v_L, a_L) and forward
// dynamics a_L(q, v_L, τ_L), in ITS coordinates: columns ∂/∂q along its base position tangent
// δ (retract() in floating_base.hpp; δ = T_b η to first order) and its joint order, with ITS
// velocity v_L and acceleration a_L (resp. force τ_L) held fixed. Ours hold our body twist ν and
// q̈ = [ν̇; ṙ] (resp. τ̄) fixed. With T = blockdiag(T_b, P) (floating_base.hpp), N = ∂ν/∂η and
// Q = ∂ν̇/∂ν at their fixed v_L, a_L, G = ∂ν̇/∂η likewise, and the base term of ∂T/∂η:
//
//   ∂τ_L/∂q = [ (T (D1ν + D3ν N + M[:, base] G) − E) T_bᵀ ,  T D2 Pᵀ ]
//   ∂τ_L/∂v = [  T (D3ν + M[:, base] Q) T_bᵀ ,             T D4 Pᵀ ]
//   ∂τ_L/∂a = T M Tᵀ
//   ∂a_L/∂q = [ (T (A_η + A_ν N + M⁻¹[:, base] Ns(τ̄_b)) − [T_b G; 0]) T_bᵀ ,  T A_s Pᵀ ]
//   ∂a_L/∂v = [ (T A_ν − [T_b Q; 0]) T_bᵀ ,  T A_r Pᵀ ]
//   ∂a_L/∂τ = T M⁻¹ Tᵀ
//
// where D1ν..D4 are eidamb_derivatives with TwistRepresentation::Body (D1ν holds ν fixed), A_η,
// A_s, A_ν, A_r the column blocks of the bottom nv rows of the Body linearization A (linearize
// with TwistRepresentation::Body: −M⁻¹[D1ν D2 D3ν D4] at the forward-dynamics accelerations),
// Ns(u) = [0, u_lin^ (linear in world); 0, u_ang^ (angular in world)], N = Ns(ν),
// Q = [−ω^, v^; 0, 0] (linear in world) else 0, G = Ns(ν̇ + [ω×v; 0]) + Q N, and
// E = [T_b Ns(τ̄_b); 0]. For Pinocchio (T_b = I) N, Q, G, E vanish: dtau_dq = P [D1ν D2] Pᵀ,
// dtau_dv = P [D3ν D4] Pᵀ, ddq_dq = P [A_η A_s] Pᵀ, ddq_dv = P [A_ν A_r] Pᵀ (docs/conventions.md
// §7).
//
// MuJoCo's mjd_inverseFD returns the TRANSPOSES of ∂τ_L/∂q, ∂τ_L/∂v, ∂τ_L/∂a (its outputs are
// documented as column-major, "transposed relative to control-theory convention"); the
// functions here return the ordinary (row = output) Jacobians.
//
// For a welded base everything reduces to the joint permutation. A multi-DoF joint converts
// where the convention's joint of that type is liedyn's (require_joints, floating_base.hpp):
// its position tangent and velocity are ours, so T's joint block is the identity there. These
// functions allocate.
#pragma once

#include "liedyn/interop/floating_base.hpp"

namespace liedyn {
namespace interop {

/// Jacobians of another library's inverse dynamics τ_L(q, v_L, a_L), each nv × nv, rows τ_L in
/// its order, columns its position tangent (base δ then joints), velocity, acceleration.
template <class S>
struct InverseDynamicsJacobians {
  MatrixX<S> dtau_dq;  ///< ∂τ_L/∂q (Pinocchio dtau_dq; MuJoCo DfDqᵀ)
  MatrixX<S> dtau_dv;  ///< ∂τ_L/∂v_L (Pinocchio dtau_dv; MuJoCo DfDvᵀ)
  MatrixX<S> dtau_da;  ///< ∂τ_L/∂a_L = M_L (Pinocchio dtau_da / crba; MuJoCo DfDaᵀ)
};

/// Jacobians of another library's forward dynamics a_L(q, v_L, τ_L), each nv × nv.
template <class S>
struct ForwardDynamicsJacobians {
  MatrixX<S> dddq_dq;    ///< ∂a_L/∂q (Pinocchio ddq_dq)
  MatrixX<S> dddq_dv;    ///< ∂a_L/∂v_L (Pinocchio ddq_dv)
  MatrixX<S> dddq_dtau;  ///< ∂a_L/∂τ_L = M_L⁻¹ (Pinocchio ddq_dtau / Minv)
};

/// The inverse-dynamics Jacobians in `conv`'s coordinates at the state x and accelerations
/// ddq = [ν̇; ṙ] (ours), from our Body-representation derivatives at (x, ddq): D1 (nv × 6, ν
/// fixed), D2 (nv × n), D3 (nv × 6), D4 (nv × n), M (nv × nv) and τ̄ = ĪD(x, ddq) (nv) — all of
/// eidamb_derivatives(model, data, x, ddq, TwistRepresentation::Body) (data.derivatives.D1..D4,
/// data.M, data.tau). For a welded base D1, D3 are nv × 0.
template <class S, class Dddq, class DTau, class DD1, class DD2, class DD3, class DD4, class DM>
InverseDynamicsJacobians<S> inverse_dynamics_jacobians_to(
    const Convention& conv, const Model<S>& model, const State<S>& x,
    const Eigen::MatrixBase<Dddq>& ddq, const Eigen::MatrixBase<DTau>& tau,
    const Eigen::MatrixBase<DD1>& D1, const Eigen::MatrixBase<DD2>& D2,
    const Eigen::MatrixBase<DD3>& D3, const Eigen::MatrixBase<DD4>& D4,
    const Eigen::MatrixBase<DM>& M, const JointPermutation& perm = JointPermutation()) {
  const char* who = "inverse_dynamics_jacobians_to";
  detail::require_joints(who, conv, model, perm);
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset();
  detail::require_size(who, "ddq", ddq.size(), nv);
  detail::require_size(who, "tau", tau.size(), nv);
  detail::require_size(who, "D1 rows", D1.rows(), nv);
  detail::require_size(who, "D1 cols", D1.cols(), off);
  detail::require_size(who, "D2 rows", D2.rows(), nv);
  detail::require_size(who, "D2 cols", D2.cols(), n);
  detail::require_size(who, "D3 rows", D3.rows(), nv);
  detail::require_size(who, "D3 cols", D3.cols(), off);
  detail::require_size(who, "D4 rows", D4.rows(), nv);
  detail::require_size(who, "D4 cols", D4.cols(), n);
  detail::require_size(who, "M rows", M.rows(), nv);
  detail::require_size(who, "M cols", M.cols(), nv);

  const MatrixX<S> T = velocity_matrix(conv, model, x.H, perm);
  InverseDynamicsJacobians<S> out;
  out.dtau_dq.resize(nv, nv);
  out.dtau_dv.resize(nv, nv);
  out.dtau_dq.rightCols(n) = perm.cols_to_theirs(MatrixX<S>(T * D2), 0);
  out.dtau_dv.rightCols(n) = perm.cols_to_theirs(MatrixX<S>(T * D4), 0);
  out.dtau_da = T * M * T.transpose();
  if (!off) return out;

  const detail::BaseFlags f = detail::base_flags(conv.velocity);
  const Matrix6<S> Tb = base_velocity_matrix(conv, x.H.rotation());
  const Vector6<S> nu_dot = ddq.template head<6>();
  const Matrix6<S> N = detail::rotation_sensitivity(f, x.nu);
  const Matrix6<S> Q = detail::apparent_sensitivity(f, x.nu);
  const Matrix6<S> G =
      detail::rotation_sensitivity(f, Vector6<S>(nu_dot + detail::apparent_term(f, x.nu))) + Q * N;
  const MatrixX<S> Mb = M.leftCols(6);
  const MatrixX<S> d_eta = MatrixX<S>(D1) + D3 * N + Mb * G;
  MatrixX<S> base_q = T * d_eta;
  base_q.topRows(6) -= Tb * detail::rotation_sensitivity(f, Vector6<S>(tau.template head<6>()));
  out.dtau_dq.leftCols(6) = base_q * Tb.transpose();
  out.dtau_dv.leftCols(6) = T * (MatrixX<S>(D3) + Mb * Q) * Tb.transpose();
  return out;
}

/// The forward-dynamics Jacobians in `conv`'s coordinates at the state x and input τ̄ (ours,
/// base first), from the continuous Body linearization at (x, τ̄): A (2nv × 2nv, only its bottom
/// nv rows are used), M⁻¹ (nv × nv) and ddq = FD(x, τ̄) (nv) — all of linearize(model, data, x,
/// tau) with opt.representation = TwistRepresentation::Body (data.linearization.A, data.Minv,
/// data.ddq).
template <class S, class DTau, class Dddq, class DA, class DMinv>
ForwardDynamicsJacobians<S> forward_dynamics_jacobians_to(
    const Convention& conv, const Model<S>& model, const State<S>& x,
    const Eigen::MatrixBase<DTau>& tau, const Eigen::MatrixBase<Dddq>& ddq,
    const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DMinv>& Minv,
    const JointPermutation& perm = JointPermutation()) {
  const char* who = "forward_dynamics_jacobians_to";
  detail::require_joints(who, conv, model, perm);
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset();
  detail::require_size(who, "tau", tau.size(), nv);
  detail::require_size(who, "ddq", ddq.size(), nv);
  detail::require_size(who, "A rows", A.rows(), 2 * nv);
  detail::require_size(who, "A cols", A.cols(), 2 * nv);
  detail::require_size(who, "Minv rows", Minv.rows(), nv);
  detail::require_size(who, "Minv cols", Minv.cols(), nv);

  const MatrixX<S> T = velocity_matrix(conv, model, x.H, perm);
  const MatrixX<S> Ab = A.bottomRows(nv);  // columns [η | s | ν | r]
  ForwardDynamicsJacobians<S> out;
  out.dddq_dq.resize(nv, nv);
  out.dddq_dv.resize(nv, nv);
  out.dddq_dq.rightCols(n) = perm.cols_to_theirs(MatrixX<S>(T * Ab.middleCols(off, n)), 0);
  out.dddq_dv.rightCols(n) = perm.cols_to_theirs(MatrixX<S>(T * Ab.rightCols(n)), 0);
  out.dddq_dtau = T * Minv * T.transpose();
  if (!off) return out;

  const detail::BaseFlags f = detail::base_flags(conv.velocity);
  const Matrix6<S> Tb = base_velocity_matrix(conv, x.H.rotation());
  const Vector6<S> nu_dot = ddq.template head<6>();
  const Matrix6<S> N = detail::rotation_sensitivity(f, x.nu);
  const Matrix6<S> Q = detail::apparent_sensitivity(f, x.nu);
  const Matrix6<S> G =
      detail::rotation_sensitivity(f, Vector6<S>(nu_dot + detail::apparent_term(f, x.nu))) + Q * N;
  const MatrixX<S> A_eta = Ab.leftCols(6), A_nu = Ab.middleCols(6 + n, 6);
  const MatrixX<S> d_eta =
      A_eta + A_nu * N +
      Minv.leftCols(6) * detail::rotation_sensitivity(f, Vector6<S>(tau.template head<6>()));
  MatrixX<S> base_q = T * d_eta;
  base_q.topRows(6) -= Tb * G;
  out.dddq_dq.leftCols(6) = base_q * Tb.transpose();
  MatrixX<S> base_v = T * A_nu;
  base_v.topRows(6) -= Tb * Q;
  out.dddq_dv.leftCols(6) = base_v * Tb.transpose();
  return out;
}

/// Our Body-representation linearization (A: 2nv × 2nv, B: 2nv × nv, docs/conventions.md §4) from
/// Pinocchio's computeABADerivatives outputs (ddq_dq, ddq_dv, Minv, all nv × nv in its joint
/// order) at the state x: A = [−ad_ν 0 I 0; 0 −ad_r 0 I; Pᵀ ddq_dq P, Pᵀ ddq_dv P] (ad_r: each
/// joint's ad(r̄_i), zero for the vector-space joints),
/// B = [0; 0; Pᵀ Minv P]. Pinocchio's Minv may hold only its upper triangle: pass it
/// symmetrized. For a welded base: A = [0 I; ddq_dq ddq_dv], B = [0; Minv].
template <class S, class Dq, class Dv, class DMinv>
void linearization_from_pinocchio(const Model<S>& model, const State<S>& x,
                                  const Eigen::MatrixBase<Dq>& ddq_dq,
                                  const Eigen::MatrixBase<Dv>& ddq_dv,
                                  const Eigen::MatrixBase<DMinv>& Minv, MatrixX<S>& A,
                                  MatrixX<S>& B,
                                  const JointPermutation& perm = JointPermutation()) {
  const char* who = "linearization_from_pinocchio";
  detail::require_joints(who, Library::Pinocchio, model, perm);
  const int nv = model.nv(), n = model.nv_joints(), off = model.offset();
  detail::require_size(who, "ddq_dq rows", ddq_dq.rows(), nv);
  detail::require_size(who, "ddq_dq cols", ddq_dq.cols(), nv);
  detail::require_size(who, "ddq_dv rows", ddq_dv.rows(), nv);
  detail::require_size(who, "ddq_dv cols", ddq_dv.cols(), nv);
  detail::require_size(who, "Minv rows", Minv.rows(), nv);
  detail::require_size(who, "Minv cols", Minv.cols(), nv);
  A.setZero(2 * nv, 2 * nv);
  B.setZero(2 * nv, nv);
  if (off) {
    A.template topLeftCorner<6, 6>() = -Motion<S>(x.nu).cross_matrix();
    A.block(0, nv, 6, 6).setIdentity();
  }
  A.block(off, nv + off, n, n).setIdentity();
  liedyn::detail::write_joint_deviation_blocks(model, x.r, A.block(off, off, n, n));
  A.bottomLeftCorner(nv, nv) = perm.matrix_to_ours(ddq_dq, off);
  A.bottomRightCorner(nv, nv) = perm.matrix_to_ours(ddq_dv, off);
  B.bottomRows(nv) = perm.matrix_to_ours(Minv, off);
}

}  // namespace interop
}  // namespace liedyn
