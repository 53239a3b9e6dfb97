// liedyn — algorithm: constrained inverse dynamics of an underactuated robot from matrices alone:
// given an acceleration q̈ that the constraints allow, the actuator torques u and the constraint
// forces λ with
//     B_a u + Jᵀ λ = M q̈ − f,      f = τ̄ − h,
// in the native velocity coordinates ν̄ = [ν; r] (base first; docs/conventions.md §2, §8). B_a
// (nv × na) maps the actuators to generalized forces (for a floating-base robot with every joint
// driven, [0; I]: the base rows are unactuated); J (m × nv) and λ (acting on the robot) as in
// constrained_solvers.hpp; f is every other generalized force minus the bias h (external wrenches
// mapped to ν̄, joint friction, …; −h alone for none).
//
// With A = [B_a Jᵀ] (nv × (na + m)) and x = [u; λ]: if A has full column rank the solution is
// unique (exact when q̈ is consistent; otherwise the least-squares one, with the residual
// reported); if na + m > nv (redundant: a quadruped on four feet has 12 torques and 12 contact
// forces for 18 equations) the solutions form an affine family and the route returns the one of
// least weighted norm Σ w_u,i u_i² + Σ w_λ,j λ_j² (weighted least squares), which needs A to have
// full row rank (every direction of ν̄ actuated or constrained).
#pragma once

#include <algorithm>
#include <string>

#include "liedyn/arithmetic/constrained_solvers.hpp"

namespace liedyn {

/// Weights of constrained_inverse_dynamics' redundant case: the cost is Σ w_u,i u_i² + Σ w_λ,j
/// λ_j². Empty vectors mean all ones. Relative size decides who carries the load: a large w_λ
/// favours small constraint forces (e.g. to keep contact forces inside friction cones), a large w_u
/// small torques. Weights are per unit of u and λ, so mixed units (N, N·m) need weights to match.
template <class S>
struct ConstrainedInverseDynamicsOptions {
  VectorX<S> actuator_weights;  ///< w_u (na), all positive, or empty
  VectorX<S> force_weights;     ///< w_λ (m), all positive, or empty
};

/// What constrained_inverse_dynamics did.
template <class S>
struct ConstrainedInverseDynamicsReport {
  bool solved = false;  ///< false: A rank deficient (see the header); outputs unspecified
  bool unique = false;  ///< A has full column rank: u and λ are the only (least-squares) solution
  bool redundant = false;  ///< na + m > nv: the weighted least-norm solution was chosen
  S residual = S(0);  ///< ‖B_a u + Jᵀλ − (M q̈ − f)‖_∞, zero up to rounding when q̈ is consistent
};

/// Workspace of constrained_inverse_dynamics for nv coordinates, na actuators and at most max_m
/// constraint rows. Scratch only: nothing carries over between calls.
template <class S>
struct ConstrainedInverseDynamicsWorkspace {
  /// Sizes everything.
  ConstrainedInverseDynamicsWorkspace(int nv, int na, int max_m)
      : nv(nv),
        na(na),
        max_m(max_m),
        qr(std::max(nv, na + max_m), nv),
        tau(nv),
        scale(na + max_m),
        rhs(std::max(nv, na + max_m)),
        target(nv) {}
  int nv;             ///< coordinates
  int na;             ///< actuators
  int max_m;          ///< largest number of constraint rows
  MatrixX<S> qr;      ///< Householder QR of A W^(−1/2) or of its transpose
  VectorX<S> tau;     ///< Householder factors
  VectorX<S> scale;   ///< W^(−1/2)
  VectorX<S> rhs;     ///< scratch
  VectorX<S> target;  ///< M q̈ − f
};

namespace detail {

template <class S>
void check_constrained_inverse_dynamics(
    const Eigen::Ref<const MatrixX<S>>& M, const Eigen::Ref<const MatrixX<S>>& J,
    const Eigen::Ref<const MatrixX<S>>& actuation, const Eigen::Ref<const VectorX<S>>& ddq,
    const Eigen::Ref<const VectorX<S>>& force_minus_bias,
    const ConstrainedInverseDynamicsWorkspace<S>& ws, const Eigen::Ref<VectorX<S>>& u,
    const Eigen::Ref<VectorX<S>>& lambda, const ConstrainedInverseDynamicsOptions<S>& options) {
  const char* who = "constrained_inverse_dynamics";
  const int nv = ws.nv, na = ws.na, m = static_cast<int>(J.rows());
  (void)who;
  LIEDYN_CHECK(M.rows() == nv && M.cols() == nv,
               std::string(who) + ": M must be nv × nv with nv = " + std::to_string(nv));
  LIEDYN_CHECK(J.cols() == nv && m <= ws.max_m,
               std::string(who) + ": J must have nv = " + std::to_string(nv) +
                   " columns and at most " + std::to_string(ws.max_m) + " rows");
  LIEDYN_CHECK(actuation.rows() == nv && actuation.cols() == na,
               std::string(who) + ": the actuation matrix must be nv × na = " + std::to_string(nv) +
                   "×" + std::to_string(na));
  LIEDYN_CHECK_SIZE(who, "ddq", ddq, nv);
  LIEDYN_CHECK_SIZE(who, "force (tau - h)", force_minus_bias, nv);
  LIEDYN_CHECK_SIZE(who, "u", u, na);
  LIEDYN_CHECK_SIZE(who, "lambda", lambda, m);
  LIEDYN_CHECK(
      options.actuator_weights.size() == 0 || options.actuator_weights.size() == na,
      std::string(who) + ": actuator_weights must be empty or of size na = " + std::to_string(na));
  LIEDYN_CHECK(
      options.force_weights.size() == 0 || options.force_weights.size() == m,
      std::string(who) + ": force_weights must be empty or of size m = " + std::to_string(m));
#if LIEDYN_CHECKS_ENABLED
  for (Eigen::Index i = 0; i < options.actuator_weights.size(); ++i)
    LIEDYN_CHECK(options.actuator_weights(i) > S(0),
                 std::string(who) + ": actuator_weights must be positive");
  for (Eigen::Index i = 0; i < options.force_weights.size(); ++i)
    LIEDYN_CHECK(options.force_weights(i) > S(0),
                 std::string(who) + ": force_weights must be positive");
#endif
}

// A triangular factor R (k × k leading block) of full rank: no pivot below 100 max(nv, n) ε of
// the largest, which is zero to within rounding (R is singular exactly when A W^(−1/2) loses
// rank).
template <class S, class R>
bool triangular_factor_has_full_rank(const R& factor, int k, int size) {
  using std::abs;
  S largest(0);
  for (int i = 0; i < k; ++i)
    if (abs(factor(i, i)) > largest) largest = abs(factor(i, i));
  const S floor = S(100 * size) * dense::epsilon<S>() * largest;
  for (int i = 0; i < k; ++i)
    if (!(abs(factor(i, i)) > floor)) return false;
  return true;
}

}  // namespace detail

/// Actuator torques u (na) and constraint forces λ (m) for the acceleration ddq (nv), see this
/// header's comment. By Householder QR (no normal equations, so the conditioning of A is not
/// squared): of A W^(−1/2) when na + m ≤ nv (least squares), of its transpose when na + m > nv
/// (least weighted norm). Cost O(nv (na + m) min(nv, na + m)) plus nv² for M q̈.
template <class S>
ConstrainedInverseDynamicsReport<S> constrained_inverse_dynamics(
    const Eigen::Ref<const MatrixX<S>>& M, const Eigen::Ref<const MatrixX<S>>& J,
    const Eigen::Ref<const MatrixX<S>>& actuation, const Eigen::Ref<const VectorX<S>>& ddq,
    const Eigen::Ref<const VectorX<S>>& force_minus_bias,
    ConstrainedInverseDynamicsWorkspace<S>& ws, Eigen::Ref<VectorX<S>> u,
    Eigen::Ref<VectorX<S>> lambda, const ConstrainedInverseDynamicsOptions<S>& options = {}) {
  const int nv = ws.nv, na = ws.na, m = static_cast<int>(J.rows()), n = na + m;
  detail::check_constrained_inverse_dynamics<S>(M, J, actuation, ddq, force_minus_bias, ws, u,
                                                lambda, options);
  ConstrainedInverseDynamicsReport<S> report;
  report.redundant = n > nv;
  using std::sqrt;
  auto scale = ws.scale.head(n);
  for (int i = 0; i < na; ++i)
    scale(i) = options.actuator_weights.size() ? S(S(1) / sqrt(options.actuator_weights(i))) : S(1);
  for (int j = 0; j < m; ++j)
    scale(na + j) = options.force_weights.size() ? S(S(1) / sqrt(options.force_weights(j))) : S(1);
  auto target = ws.target.head(nv);
  target.noalias() = M * ddq;
  target -= force_minus_bias;
  VectorX<S>& tau = ws.tau;
  auto full_rank = [&](const auto& R, int k) {
    return detail::triangular_factor_has_full_rank<S>(R, k, std::max(nv, n));
  };
  auto x = ws.rhs.head(std::max(nv, n));
  if (!report.redundant) {
    // Least squares: Ã = Q R (nv × n), x̃ = R⁻¹ (Qᵀ r)(0:n).
    auto A = ws.qr.topLeftCorner(nv, n);
    A.leftCols(na) = actuation * scale.head(na).asDiagonal();
    A.rightCols(m) = J.transpose() * scale.tail(m).asDiagonal();
    detail::dense::householder_qr_in_place<S>(A, tau);
    if (!full_rank(A, n)) return report;
    auto y = x.head(nv);
    y = target;
    detail::dense::apply_householder_q<S>(A, tau, detail::dense::HouseholderProduct::QTransposed,
                                          y);
    A.topLeftCorner(n, n).template triangularView<Eigen::Upper>().solveInPlace(y.head(n));
    report.unique = true;
  } else {
    // Least weighted norm: Ãᵀ = Q R (n × nv), Ã x̃ = r  ⇔  Rᵀ (Qᵀ x̃) = r, x̃ = Q [R⁻ᵀ r; 0].
    auto At = ws.qr.topLeftCorner(n, nv);
    At.topRows(na) = scale.head(na).asDiagonal() * actuation.transpose();
    At.bottomRows(m) = scale.tail(m).asDiagonal() * J;
    detail::dense::householder_qr_in_place<S>(At, tau);
    if (!full_rank(At, nv)) return report;
    auto y = x.head(n);
    y.head(nv) = target;
    At.topLeftCorner(nv, nv).template triangularView<Eigen::Upper>().transpose().solveInPlace(
        y.head(nv));
    y.tail(n - nv).setZero();
    detail::dense::apply_householder_q<S>(At, tau, detail::dense::HouseholderProduct::Q, y);
  }
  u = scale.head(na).cwiseProduct(x.head(na));
  lambda = scale.segment(na, m).cwiseProduct(x.segment(na, m));
  // Residual against the unscaled equation.
  target.noalias() -= actuation * u;
  target.noalias() -= J.transpose() * lambda;
  report.residual = detail::dense::max_abs(target);
  report.solved = true;
  return report;
}

}  // namespace liedyn
