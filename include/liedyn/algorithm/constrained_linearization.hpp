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
// On the constraint manifold (linearize_reduced). The states that satisfy the constraints,
// {e(q) = 0, J ν̄ = v*}, form a submanifold whose tangent space at x is the null space of
//   C = [ J  0 ]      (δe = J δq: the position error's derivative along the group, e = 0)
//       [ G_q G_v ]   (δ(J ν̄) = G δx: cd.velocity_dx, columns in opt.representation)
// — a basis P (2nv × k, k = 2nv − 2m for independent rows) with orthonormal columns, from a
// column-pivoted QR of Cᵀ. In its coordinates δx = P δz: A_r = Pᵀ A P, B_r = Pᵀ B. At an
// equilibrium on the manifold (the flow vanishes there, and the manifold is invariant) A maps
// the tangent space into itself, A P = P A_r exactly, and A_r carries only the motions the
// constraints allow: an LQR designed on (A_r, B_r) gives u = −K_r Pᵀ δx. Away from an
// equilibrium Pᵀ A P is the projection of the linearization onto the tangent space.
//
// Outputs: data.linearization.A (2nv × 2nv), data.linearization.B (2nv × nv), data.ddq = the
// constrained accelerations, and everything constrained_forward_dynamics_derivatives leaves
// (cd.ddq_dx, cd.lambda_dx, ...). opt.minv is not used (the KKT solves use the sparse factors).
// Nothing allocates.
#pragma once

#include <Eigen/QR>

#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/linearization.hpp"

namespace liedyn {

/// Continuous-time A and B of the constrained dynamics at (x, τ̄) into data.linearization.A,
/// data.linearization.B (see the header; λ's derivatives are in cd.lambda_dx, cd.lambda_dtau with
/// the same columns).
template <class S, class Derived>
void linearize(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
               ConstraintData<S>& cd, const State<S>& x, const Eigen::MatrixBase<Derived>& tau,
               const LinearizationOptions<S>& opt = {},
               const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  const int nv = model.nv();
  constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau, opt.representation, copt);
  data.linearization.A.bottomRows(nv) = cd.ddq_dx;
  data.linearization.B.bottomRows(nv) = cd.ddq_dtau;
  data.ddq = cd.ddq;
  // The bottom rows are copied in: clearing A and B whole would write them twice.
  detail::complete_continuous_linearization(model, data, x, opt.representation,
                                            detail::TopRows::Clear);
}

/// The constrained linearize() for τ̄ = S u with an actuation matrix S (nv × m, e.g. the joint
/// torques of a floating robot, S = [0; 1]): A into data.linearization.A, B S into Bu (2nv × m).
template <class S, class DS, class Du>
void linearize_actuated(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<DS>& actuation, const Eigen::MatrixBase<Du>& u,
    MatrixX<S>& Bu, const LinearizationOptions<S>& opt = {},
    const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  detail::check_data_pairing("linearize_actuated", model, data);
  LIEDYN_CHECK_DIMS("linearize_actuated", "actuation", actuation, model.nv(), u.size());
  data.linearization.actuated_force.noalias() = actuation * u;
  linearize(model, data, set, cd, x, data.linearization.actuated_force, opt, copt);
  Bu.resize(data.linearization.B.rows(), actuation.cols());  // no allocation once Bu has this size
  // Column by column (GEMV): a GEMM takes Eigen's heap blocking workspace once nv passes a few
  // dozen.
  for (Eigen::Index c = 0; c < actuation.cols(); ++c)
    Bu.col(c).noalias() = data.linearization.B * actuation.col(c);
}

/// One semi-implicit Euler step of the constrained dynamics into `out` (may be x): the
/// accelerations of constrained_forward_dynamics at (x, τ̄) (left in cd.ddq, λ in cd.lambda),
/// then ν⁺ = ν + Δt ν̇, r⁺ = r + Δt ṙ, s⁺ = s ⊕ Δt r⁺, H⁺ = H exp(Δt ν⁺^). The step does not
/// project back onto the constraint manifold: use Baumgarte gains, or project_configuration and
/// project_velocity between steps.
template <class S, class Derived>
void semi_implicit_euler_step(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<Derived>& tau, const S& dt, State<S>& out,
    const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  constrained_forward_dynamics(model, data, set, cd, x, tau, copt);
  detail::advance_semi_implicit(model, x, cd.ddq, dt, out);
}

/// Jacobians of the constrained semi_implicit_euler_step, δx⁺ = A δx + B δτ̄, into
/// data.linearization.A and data.linearization.B, δx in opt.representation at both ends (as
/// linearize_discrete without constraints).
template <class S, class Derived>
void linearize_discrete(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<Derived>& tau, const S& dt,
    const LinearizationOptions<S>& opt = {},
    const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau, opt.representation, copt);
  data.ddq = cd.ddq;
  detail::complete_discrete_linearization(model, data, x, dt, opt.representation, cd.ddq_dx,
                                          cd.ddq_dtau);
}

/// The linearization of the constrained dynamics on the tangent space of the constraint
/// manifold (see the header): basis P, A_r = Pᵀ A P, B_r = Pᵀ B. Sized once for a (Model,
/// ConstraintSet); linearize_reduced allocates nothing afterwards.
template <class S>
struct ReducedLinearization {
  /// Allocates every buffer.
  ReducedLinearization(const Model<S>& model, const ConstraintSet<S>& set)
      : constraint_map(2 * set.dimension(), 2 * model.nv()),
        qr(2 * model.nv(), 2 * set.dimension()),
        householder_workspace(2 * model.nv()),
        AP(2 * model.nv(), 2 * model.nv()) {}

  MatrixX<S> basis;  ///< P (2nv × k): δx = P δz, orthonormal columns spanning the tangent space
  MatrixX<S> A;      ///< A_r = Pᵀ A P (k × k)
  MatrixX<S> B;      ///< B_r = Pᵀ B (k × nv)
  int rank = 0;      ///< rank of C (2m for independent constraints); k = 2nv − rank
  /// k, the tangent space's dimension.
  int dimension() const { return static_cast<int>(basis.cols()); }

  // --- scratch -------------------------------------------------------------------------------
  MatrixX<S> constraint_map;                  ///< C (2m × 2nv)
  Eigen::ColPivHouseholderQR<MatrixX<S>> qr;  ///< Cᵀ Π = Q R
  VectorX<S> householder_workspace;
  MatrixX<S> AP;  ///< A P
};

/// The constrained linearization at (x, τ̄) (data.linearization.A, data.linearization.B, cd's
/// derivatives, as linearize) and its restriction to the tangent space of the constraint manifold
/// into `out` (see the header). The rank of C uses the QR's default threshold; out.basis is resized
/// to the tangent space's dimension (no allocation once it has that size).
template <class S, class Derived>
void linearize_reduced(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<Derived>& tau, ReducedLinearization<S>& out,
    const LinearizationOptions<S>& opt = {},
    const ConstrainedDynamicsOptions<S>& copt = ConstrainedDynamicsOptions<S>()) {
  const int nv = model.nv(), m = set.dimension(), N = 2 * nv;
  LIEDYN_CHECK(
      out.constraint_map.rows() == 2 * m && out.constraint_map.cols() == N,
      "linearize_reduced: the ReducedLinearization was sized for another model or constraint set");
  linearize(model, data, set, cd, x, tau, opt, copt);
  MatrixX<S>& C = out.constraint_map;
  C.topLeftCorner(m, nv) = cd.J;
  C.topRightCorner(m, nv).setZero();
  C.bottomRows(m) = cd.velocity_dx;
  out.qr.compute(C.transpose());
  out.rank = static_cast<int>(out.qr.rank());
  const int k = N - out.rank;
  // Q's last k columns: Q = H_0 H_1 ⋯ applied to [0; 1], one reflector at a time (Eigen's
  // blocked product would take a heap workspace for many rows).
  out.basis.resize(N, k);
  out.basis.setZero();
  out.basis.bottomRows(k).diagonal().setOnes();
  const MatrixX<S>& H = out.qr.matrixQR();
  for (int i = static_cast<int>(out.qr.hCoeffs().size()) - 1; i >= 0; --i)
    out.basis.bottomRows(N - i).applyHouseholderOnTheLeft(
        H.col(i).tail(N - i - 1), out.qr.hCoeffs()(i), out.householder_workspace.data());
  out.A.resize(k, k);
  out.B.resize(k, nv);
  auto AP = out.AP.leftCols(k);
  AP.noalias() = data.linearization.A.lazyProduct(out.basis);
  out.A.noalias() = out.basis.transpose().lazyProduct(AP);
  out.B.noalias() = out.basis.transpose().lazyProduct(data.linearization.B);
}

}  // namespace liedyn
