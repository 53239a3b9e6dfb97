// liedyn — arithmetic: constrained forward dynamics from matrices alone — the damped (proximal)
// solve for redundant constraint sets, the redundant-coordinates projector and the minimal-
// coordinates route (the two classical formulations of closed-chain dynamics: Featherstone, RBDA
// ch. 8; coordinate partitioning, Wehage and Haug 1982).
//
// Every route solves the same system, in the native velocity coordinates ν̄ = [ν; r] (base body
// twist first, then the joints; docs/conventions.md §2 and §8):
//     M q̈ − Jᵀ λ = τ̄ − h,        J q̈ + γ = 0,
// M (nv × nv, symmetric positive definite, as crba writes data.M), J (m × nv, one row per scalar
// constraint, columns ν̄), γ (m, the drift: J q̈ + γ is the constraint acceleration) and
// f = τ̄ − h (the generalized force minus the bias). λ (m) acts on the robot, in the senses of J's
// rows. Equivalently (Gauss's principle) q̈ minimizes ½‖q̈ − q̈_free‖²_M, q̈_free = M⁻¹ f, over
// the accelerations with J q̈ + γ = 0, and λ = −G⁻¹ (J q̈_free + γ) with G = J M⁻¹ Jᵀ (the
// Delassus matrix).
//
// These routes take dense matrices and factor M densely (Cholesky, nv³/3): they serve redundant
// or singular constraint sets, control (the projector) and minimal-coordinate formulations. The
// exact route through the sparse LᵀDL of M is constrained_forward_dynamics.
// Each route has its workspace, sized once for nv and a largest m; after that no call allocates.
// Results go to caller-provided vectors and matrices of the exact sizes (a plain vector, or a
// contiguous segment / block); m may change from call to call up to the workspace's largest m.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <Eigen/Core>

#include "liedyn/arithmetic/dense.hpp"
#include "liedyn/arithmetic/types.hpp"
#include "liedyn/config.hpp"

namespace liedyn {

namespace detail {

/// The common argument checks of the forward routes.
template <class S>
void check_forward_arguments(const char* who, int nv, int max_m,
                             const Eigen::Ref<const MatrixX<S>>& M,
                             const Eigen::Ref<const MatrixX<S>>& J,
                             const Eigen::Ref<const VectorX<S>>& gamma,
                             const Eigen::Ref<const VectorX<S>>& force) {
  (void)who, (void)nv, (void)max_m, (void)M, (void)J, (void)gamma, (void)force;
  LIEDYN_CHECK(M.rows() == nv && M.cols() == nv,
               std::string(who) + ": M is " + std::to_string(M.rows()) + "×" +
                   std::to_string(M.cols()) + ", expected " + std::to_string(nv) + "×" +
                   std::to_string(nv) + " (the workspace's nv)");
  LIEDYN_CHECK(J.cols() == nv, std::string(who) + ": J has " + std::to_string(J.cols()) +
                                   " columns, expected nv = " + std::to_string(nv));
  LIEDYN_CHECK(J.rows() <= max_m,
               std::string(who) + ": J has " + std::to_string(J.rows()) +
                   " rows, more than the workspace's largest m = " + std::to_string(max_m));
  LIEDYN_CHECK_SIZE(who, "gamma", gamma, J.rows());
  LIEDYN_CHECK_SIZE(who, "force (tau - h)", force, nv);
}

}  // namespace detail

// =============================================================================================
// (b) The damped (proximal) solve
// =============================================================================================

/// Options of proximal_forward_dynamics.
template <class S>
struct ProximalOptions {
  /// Initial μ relative to the largest diagonal entry of G = J M⁻¹ Jᵀ (scale-free). Each
  /// iteration shrinks the error along an eigenvalue σ of G by μ/(σ + μ), and rounding leaves
  /// about ε/relative_damping of ‖λ‖ in the null space of Jᵀ per solve: a small μ converges fast
  /// but is less accurate there. When convergence is slow (the ratio of successive steps above
  /// 1/2 while the residual is above its rounding floor), μ is divided by 100 and G + μI
  /// refactored, down to min_relative_damping.
  S relative_damping = S(1e-4);
  /// Smallest relative μ the continuation goes to.
  S min_relative_damping = S(1e-10);
  /// Stop when the estimated error of λ, step·ρ/(1 − ρ) with ρ the ratio of the last two steps
  /// (a geometric tail), is at most tolerance·‖λ‖_∞. Default: 10⁴ ε of S (2.2e-12 in double).
  S tolerance = S(10000) * detail::dense::epsilon<S>();
  /// Iteration limit (≥ 1).
  int max_iterations = 500;
};

/// What proximal_forward_dynamics did.
template <class S>
struct ProximalReport {
  int iterations = 0;      ///< proximal steps taken
  int factorizations = 0;  ///< factorizations of G + μI (1 + the continuation's μ reductions)
  S residual =
      S(0);  ///< backward error ‖Gλ + c‖_∞ / (‖G‖_∞‖λ‖_∞ + ‖c‖_∞) = ‖J q̈ + γ‖_∞ over that scale
  S damping = S(0);  ///< the absolute μ at the end
  /// The error estimate met the tolerance, or the iteration stagnated at the residual's rounding
  /// floor (10 m ε: only rounding drift in null(Jᵀ) was left). False for inconsistent
  /// constraints (no solution: λ grows) or when max_iterations ran out.
  bool converged = false;
};

/// Workspace of proximal_forward_dynamics for nv coordinates and at most max_m constraint rows.
/// Its contents are scratch: nothing in it carries over from one call to the next.
template <class S>
struct ProximalWorkspace {
  /// Sizes everything for M of nv × nv and J of at most max_m rows.
  ProximalWorkspace(int nv, int max_m)
      : nv(nv),
        max_m(max_m),
        mass_factor(nv, nv),
        minv_jt(nv, max_m),
        delassus(max_m, max_m),
        damped_factor(max_m, max_m),
        free_acceleration(nv),
        bias(max_m),
        rhs(max_m),
        next(max_m) {}
  int nv;                        ///< coordinates
  int max_m;                     ///< largest number of constraint rows
  MatrixX<S> mass_factor;        ///< Cholesky factor of M
  MatrixX<S> minv_jt;            ///< M⁻¹ Jᵀ (first m columns)
  MatrixX<S> delassus;           ///< G = J M⁻¹ Jᵀ (top-left m × m)
  MatrixX<S> damped_factor;      ///< Cholesky factor of G + μ I
  VectorX<S> free_acceleration;  ///< q̈_free = M⁻¹ (τ̄ − h)
  VectorX<S> bias;               ///< c = J q̈_free + γ
  VectorX<S> rhs;                ///< scratch right-hand side
  VectorX<S> next;               ///< scratch iterate
};

namespace detail {

/// M = L Lᵀ (ws.mass_factor), q̈_free = M⁻¹ (τ − h) (ws.free_acceleration) and, for m > 0, M⁻¹Jᵀ,
/// the Delassus matrix G = J M⁻¹ Jᵀ and c = J q̈_free + γ (ws.minv_jt, delassus, bias).
template <class S>
void delassus_problem(const char* who, const Eigen::Ref<const MatrixX<S>>& M,
                      const Eigen::Ref<const MatrixX<S>>& J,
                      const Eigen::Ref<const VectorX<S>>& gamma,
                      const Eigen::Ref<const VectorX<S>>& force_minus_bias,
                      ProximalWorkspace<S>& ws) {
  const int nv = ws.nv, m = static_cast<int>(J.rows());
  auto L = ws.mass_factor.topLeftCorner(nv, nv);
  L = M;
  const bool positive = dense::cholesky_in_place<S>(L, S(0));
  LIEDYN_CHECK(positive, std::string(who) + ": M is not positive definite");
  (void)positive, (void)who;
  auto free = ws.free_acceleration.head(nv);
  free = force_minus_bias;
  dense::cholesky_solve_in_place<S>(L, free);
  if (m == 0) return;
  auto minv_jt = ws.minv_jt.leftCols(m);
  minv_jt = J.transpose();
  dense::cholesky_solve_in_place<S>(L, minv_jt);
  auto G = ws.delassus.topLeftCorner(m, m);
  G.noalias() = J * minv_jt;
  auto c = ws.bias.head(m);
  c.noalias() = J * free;
  c += gamma;
}

/// What a proximal step's progress decides (see ProximalOptions).
enum class ProximalProgress { Continue, Converged, LowerDamping };

/// From two successive step sizes: converged when the geometric tail of the steps is below the
/// tolerance, or when the residual is at rounding and the steps no longer shrink fast; lower μ
/// when they shrink slowly above rounding.
template <class S>
ProximalProgress proximal_progress(S step, S previous_step, S residual, S rounding_floor,
                                   S lambda_size, S relative, const ProximalOptions<S>& options) {
  const S ratio = step / previous_step;
  const bool at_floor = residual <= rounding_floor;
  if (ratio < S(1) && step * ratio <= (S(1) - ratio) * options.tolerance * lambda_size)
    return ProximalProgress::Converged;
  if (at_floor && ratio >= S(0.5)) return ProximalProgress::Converged;
  if (!at_floor && ratio > S(0.5) && relative > options.min_relative_damping)
    return ProximalProgress::LowerDamping;
  return ProximalProgress::Continue;
}

/// The proximal steps (G + μI) λ_{k+1} = μ λ_k − c from λ = 0 on the problem delassus_problem
/// left in ws, into lambda and the report.
template <class S>
void proximal_iterations(const char* who, ProximalWorkspace<S>& ws, int m,
                         const ProximalOptions<S>& options, Eigen::Ref<VectorX<S>> lambda,
                         ProximalReport<S>& report) {
  const auto G = ws.delassus.topLeftCorner(m, m);
  const auto c = ws.bias.head(m);
  S largest_diagonal(0);
  for (int i = 0; i < m; ++i)
    if (G(i, i) > largest_diagonal) largest_diagonal = G(i, i);
  const S unit = largest_diagonal > S(0) ? largest_diagonal : S(1);
  S relative = options.relative_damping;
  auto K = ws.damped_factor.topLeftCorner(m, m);
  auto factor = [&] {
    K = G;
    K.diagonal().array() += relative * unit;
    const bool damped_positive = dense::cholesky_in_place<S>(K, S(0));
    LIEDYN_CHECK(damped_positive,
                 std::string(who) + ": G + mu I is not positive definite (M not symmetric?)");
    (void)damped_positive, (void)who;
    ++report.factorizations;
  };
  factor();
  const S norm_G = dense::max_row_sum(G), norm_c = dense::max_abs(c);
  const S rounding_floor = S(10 * m) * dense::epsilon<S>();
  auto rhs = ws.rhs.head(m);
  lambda.setZero();
  S previous_step(-1);  // negative: no previous step at this μ
  for (int k = 0; k < options.max_iterations; ++k) {
    const S mu = relative * unit;
    rhs = mu * lambda - c;
    dense::cholesky_solve_in_place<S>(K, rhs);
    auto step_vector = ws.next.head(m);
    step_vector = rhs - lambda;
    const S step = dense::max_abs(step_vector);
    lambda = rhs;
    report.iterations = k + 1;
    // Backward error of λ for G λ = −c (it is J q̈ + γ over its scale).
    auto residual = ws.next.head(m);
    residual.noalias() = G * lambda;
    residual += c;
    const S scale = norm_G * dense::max_abs(lambda) + norm_c;
    report.residual = scale > S(0) ? S(dense::max_abs(residual) / scale) : S(0);
    if (step == S(0)) {
      report.converged = true;
      break;
    }
    const ProximalProgress progress =
        previous_step > S(0)
            ? proximal_progress(step, previous_step, report.residual, rounding_floor,
                                dense::max_abs(lambda), relative, options)
            : ProximalProgress::Continue;
    if (progress == ProximalProgress::Converged) {
      report.converged = true;
      break;
    }
    if (progress == ProximalProgress::LowerDamping) {
      relative = relative / S(100) < options.min_relative_damping ? options.min_relative_damping
                                                                  : S(relative / S(100));
      factor();
      previous_step = S(-1);
      continue;
    }
    previous_step = step;
  }
  report.damping = relative * unit;
}

}  // namespace detail

/// Constrained forward dynamics by proximal-point iterations on the dual of Gauss's principle,
/// for constraint sets that may be redundant (J rank deficient: two rigid feet plus a loop through
/// them, a contact given twice) or nearly so. Inputs and outputs as in this header's comment:
/// ddq (nv) and lambda (m) in ν̄'s coordinates and the senses of J's rows.
///
/// Each step solves λ_{k+1} = argmin ½λᵀGλ + λᵀc + (μ/2)‖λ − λ_k‖², i.e. (G + μI) λ_{k+1} =
/// μ λ_k − c, one factorization of G + μI per μ (see ProximalOptions for the continuation that
/// lowers μ when convergence is slow). From λ_0 = 0 the iterates stay in the
/// range of G = range of J, so when the constraints are consistent (c in that range) they
/// converge to the minimum-norm λ among all that satisfy the system, and q̈ = q̈_free + M⁻¹Jᵀλ
/// to the unique constrained acceleration; for full-rank J that is the exact solution. When
/// they are inconsistent no solution exists: the report says converged = false and λ grows.
/// The accuracy is that of G's conditioning on its range: errors grow like ε σ_max/σ_min⁺.
/// Cost: nv³/3 (M), nv²m + nv m² (G), m³/3 per factorization of G + μI, m² per iteration.
template <class S>
ProximalReport<S> proximal_forward_dynamics(const Eigen::Ref<const MatrixX<S>>& M,
                                            const Eigen::Ref<const MatrixX<S>>& J,
                                            const Eigen::Ref<const VectorX<S>>& gamma,
                                            const Eigen::Ref<const VectorX<S>>& force_minus_bias,
                                            ProximalWorkspace<S>& ws, Eigen::Ref<VectorX<S>> ddq,
                                            Eigen::Ref<VectorX<S>> lambda,
                                            const ProximalOptions<S>& options = {}) {
  const char* who = "proximal_forward_dynamics";
  detail::check_forward_arguments<S>(who, ws.nv, ws.max_m, M, J, gamma, force_minus_bias);
  LIEDYN_CHECK_SIZE(who, "ddq", ddq, ws.nv);
  LIEDYN_CHECK_SIZE(who, "lambda", lambda, J.rows());
  LIEDYN_CHECK(options.relative_damping > S(0),
               std::string(who) + ": relative_damping must be positive");
  LIEDYN_CHECK(options.max_iterations >= 1,
               std::string(who) + ": max_iterations must be at least 1");
  const int nv = ws.nv, m = static_cast<int>(J.rows());
  ProximalReport<S> report;
  detail::delassus_problem<S>(who, M, J, gamma, force_minus_bias, ws);
  const auto free = ws.free_acceleration.head(nv);
  if (m == 0) {
    ddq = free;
    report.converged = true;
    return report;
  }
  detail::proximal_iterations<S>(who, ws, m, options, lambda, report);
  ddq = free;
  ddq.noalias() += ws.minv_jt.leftCols(m) * lambda;
  return report;
}

// =============================================================================================
// (c) The redundant-coordinates projector
// =============================================================================================

/// Workspace of constraint_projector and projected_forward_dynamics for nv coordinates and at
/// most max_m constraint rows. Its contents are scratch: nothing carries over between calls.
template <class S>
struct ProjectorWorkspace {
  /// Sizes everything for M of nv × nv and J of at most max_m rows.
  ProjectorWorkspace(int nv, int max_m)
      : nv(nv),
        max_m(max_m),
        mass_factor(nv, nv),
        pseudo_inverse(nv, max_m),
        delassus_factor(max_m, max_m),
        projector(nv, nv),
        free_acceleration(nv),
        rhs(max_m) {}
  int nv;                        ///< coordinates
  int max_m;                     ///< largest number of constraint rows
  MatrixX<S> mass_factor;        ///< Cholesky factor of M
  MatrixX<S> pseudo_inverse;     ///< J⁺_M (first m columns)
  MatrixX<S> delassus_factor;    ///< Cholesky factor of G = J M⁻¹ Jᵀ
  MatrixX<S> projector;          ///< N (projected_forward_dynamics' copy)
  VectorX<S> free_acceleration;  ///< q̈_free = M⁻¹ (τ̄ − h)
  VectorX<S> rhs;                ///< scratch
};

namespace detail {
// J⁺_M into ws.pseudo_inverse's first m columns and G's factor into ws.delassus_factor; false
// when G is singular to working precision (J rank deficient).
template <class S>
bool build_dynamically_consistent_inverse(const char* who, const Eigen::Ref<const MatrixX<S>>& M,
                                          const Eigen::Ref<const MatrixX<S>>& J,
                                          ProjectorWorkspace<S>& ws) {
  (void)who;
  const int nv = ws.nv, m = static_cast<int>(J.rows());
  auto L = ws.mass_factor.topLeftCorner(nv, nv);
  L = M;
  const bool positive = dense::cholesky_in_place<S>(L, S(0));
  LIEDYN_CHECK(positive, std::string(who) + ": M is not positive definite");
  (void)positive;
  auto minv_jt = ws.pseudo_inverse.leftCols(m);
  minv_jt = J.transpose();
  dense::cholesky_solve_in_place<S>(L, minv_jt);
  auto G = ws.delassus_factor.topLeftCorner(m, m);
  G.noalias() = J * minv_jt;
  // A pivot below 100 m ε of its diagonal entry: that row is dependent on the others to within
  // rounding, and G⁻¹ would amplify rounding errors by more than 1/(100 m ε).
  if (!dense::cholesky_in_place<S>(G, S(100 * m) * dense::epsilon<S>())) return false;
  // J⁺_M = M⁻¹Jᵀ G⁻¹ = (G⁻¹ J M⁻¹)ᵀ: solve on the transpose, row by row.
  dense::cholesky_solve_in_place<S>(G, minv_jt.transpose());
  return true;
}
}  // namespace detail

/// The dynamically consistent pseudo-inverse J⁺_M = M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹ (nv × m) and the
/// null-space projector N = I − J⁺_M J (nv × nv) of the redundant-coordinates formulation of
/// closed-chain dynamics (docs/constraints.md), both in ν̄'s coordinates. Returns false (outputs
/// unspecified) when J M⁻¹ Jᵀ is singular to working precision, i.e. J is rank deficient: use
/// proximal_forward_dynamics then.
///
/// Properties: J N = 0, N² = N, N J⁺_M = 0 and N M⁻¹ = M⁻¹ Nᵀ (N is the M-orthogonal projector
/// onto null(J)). For constraint-consistent control: N ẍ_d − J⁺_M γ is the acceleration closest
/// to a desired ẍ_d in the M-norm among those the constraints allow; Nᵀ τ removes from a
/// generalized force τ the part the constraint forces would absorb (Nᵀ Jᵀ = 0), so that two
/// torques with the same Nᵀ τ produce the same constrained motion, and J⁺_Mᵀ maps a generalized
/// force to the constraint-space force it balances. Cost: nv³/3 + nv² m + nv m² + m³/3, plus nv² m
/// for N.
template <class S>
bool constraint_projector(const Eigen::Ref<const MatrixX<S>>& M,
                          const Eigen::Ref<const MatrixX<S>>& J, ProjectorWorkspace<S>& ws,
                          Eigen::Ref<MatrixX<S>> pseudo_inverse, Eigen::Ref<MatrixX<S>> projector) {
  const char* who = "constraint_projector";
  const int nv = ws.nv, m = static_cast<int>(J.rows());
  (void)nv;
  LIEDYN_CHECK(M.rows() == nv && M.cols() == nv && J.cols() == nv && m <= ws.max_m,
               std::string(who) +
                   ": M must be nv × nv and J m × nv with m ≤ the workspace's largest m (nv = " +
                   std::to_string(nv) + ")");
  LIEDYN_CHECK(pseudo_inverse.rows() == nv && pseudo_inverse.cols() == m,
               std::string(who) + ": pseudo_inverse must be nv × m = " + std::to_string(nv) + "×" +
                   std::to_string(m));
  LIEDYN_CHECK(projector.rows() == nv && projector.cols() == nv,
               std::string(who) + ": projector must be nv × nv = " + std::to_string(nv) + "×" +
                   std::to_string(nv));
  if (!detail::build_dynamically_consistent_inverse<S>(who, M, J, ws)) return false;
  pseudo_inverse = ws.pseudo_inverse.leftCols(m);
  projector.noalias() = -pseudo_inverse * J;
  projector.diagonal().array() += S(1);
  return true;
}

/// What projected_forward_dynamics did.
template <class S>
struct ProjectedReport {
  bool full_rank = false;  ///< false: J is rank deficient, ddq and lambda are unspecified
};

/// Constrained forward dynamics in projected form, q̈ = N q̈_free − J⁺_M γ with q̈_free = M⁻¹(τ̄ − h)
/// and λ = −J⁺_Mᵀ (τ̄ − h) − G⁻¹γ (= −G⁻¹(J q̈_free + γ)), G = J M⁻¹ Jᵀ. Inputs and outputs as in
/// this header's comment. J must have full row rank (report.full_rank; else use
/// proximal_forward_dynamics). Cost as constraint_projector.
template <class S>
ProjectedReport<S> projected_forward_dynamics(const Eigen::Ref<const MatrixX<S>>& M,
                                              const Eigen::Ref<const MatrixX<S>>& J,
                                              const Eigen::Ref<const VectorX<S>>& gamma,
                                              const Eigen::Ref<const VectorX<S>>& force_minus_bias,
                                              ProjectorWorkspace<S>& ws, Eigen::Ref<VectorX<S>> ddq,
                                              Eigen::Ref<VectorX<S>> lambda) {
  const char* who = "projected_forward_dynamics";
  detail::check_forward_arguments<S>(who, ws.nv, ws.max_m, M, J, gamma, force_minus_bias);
  LIEDYN_CHECK_SIZE(who, "ddq", ddq, ws.nv);
  LIEDYN_CHECK_SIZE(who, "lambda", lambda, J.rows());
  const int nv = ws.nv, m = static_cast<int>(J.rows());
  ProjectedReport<S> report;
  if (!detail::build_dynamically_consistent_inverse<S>(who, M, J, ws)) return report;
  report.full_rank = true;
  auto free = ws.free_acceleration.head(nv);
  free = force_minus_bias;
  detail::dense::cholesky_solve_in_place<S>(ws.mass_factor.topLeftCorner(nv, nv), free);
  const auto pinv = ws.pseudo_inverse.leftCols(m);
  auto N = ws.projector.topLeftCorner(nv, nv);
  N.noalias() = -pinv * J;
  N.diagonal().array() += S(1);
  ddq.noalias() = N * free;
  ddq.noalias() -= pinv * gamma;
  // λ = −J⁺_Mᵀ f − G⁻¹ γ.
  auto g = ws.rhs.head(m);
  g = gamma;
  detail::dense::cholesky_solve_in_place<S>(ws.delassus_factor.topLeftCorner(m, m), g);
  lambda.noalias() = -pinv.transpose() * force_minus_bias;
  lambda -= g;
  return report;
}

// =============================================================================================
// (d) Minimal coordinates
// =============================================================================================

namespace detail {
template <class T>
struct MinimalCoordinatesAccess;
}  // namespace detail

/// Options of minimal_coordinates_forward_dynamics.
template <class S>
struct MinimalCoordinatesOptions {
  /// Largest accepted 1-norm condition number κ₁(J_d) = ‖J_d‖₁‖J_d⁻¹‖₁ of the dependent block.
  /// F = [−J_d⁻¹J_i; I] enters the reduced mass matrix FᵀMF twice, so the route's relative error
  /// grows like ε κ₁². The default 1000 keeps it near 1e-9 in double and lies well above the
  /// κ₁ of pivoted partitions of well-posed constraint sets (frame Jacobians, whose columns mix
  /// units, give a few tens to about a hundred): exceeding it means the independent coordinates
  /// approach a parametrization singularity (J_d loses rank while J does not) and another choice is
  /// better. Lower it (e.g. 100) for tighter accuracy at the price of more re-partitions.
  S condition_limit = S(1000);
  /// Choose a new partition by pivoting on J even if the current one is still good.
  bool repartition = false;
};

/// What minimal_coordinates_forward_dynamics did.
template <class S>
struct MinimalCoordinatesReport {
  bool solved = false;  ///< false: J_d or the reduced mass matrix was singular; outputs unspecified
  bool repartitioned =
      false;  ///< a new partition was chosen in this call (first call, new m, warning, or asked)
  bool near_singularity =
      false;  ///< warning: the previous partition's κ₁(J_d) exceeded condition_limit
  bool ill_conditioned = false;  ///< even the new pivoted partition exceeds condition_limit: J is
                                 ///< nearly rank deficient
  S condition = S(0);            ///< κ₁(J_d) of the partition used
};

/// Workspace of minimal_coordinates_forward_dynamics for nv coordinates and at most max_m
/// constraint rows. It keeps the current partition from call to call (so that trajectories
/// integrated in the independent coordinates keep their coordinates until a singularity nears);
/// read it with num_dependent() and coordinate(k). The rest is scratch.
template <class S>
class MinimalCoordinatesWorkspace {
 public:
  /// Sizes everything for M of nv × nv and J of at most max_m ≤ nv rows; no partition yet.
  MinimalCoordinatesWorkspace(int nv, int max_m)
      : nv(nv),
        max_m(max_m),
        order_(nv),
        pivot_(max_m),
        selection(max_m, nv),
        dependent_lu(max_m, max_m),
        dependent_inverse(max_m, max_m),
        basis(nv, nv),
        mass_times_basis(nv, nv),
        reduced_mass(nv, nv),
        particular(nv),
        residual(nv),
        reduced_rhs(nv),
        column_norms(nv) {
    for (int i = 0; i < nv; ++i) order_(i) = i;
  }
  int nv;     ///< coordinates
  int max_m;  ///< largest number of constraint rows

  /// Number of dependent coordinates of the current partition (its m), or −1 before the first call.
  int num_dependent() const { return partition_m_; }
  /// Coordinate index (into ν̄) of the current partition's k-th coordinate: k < num_dependent()
  /// lists the dependent ones (increasing), the rest the independent ones (increasing), i.e.
  /// q̈_i = [q̈(coordinate(m)), …, q̈(coordinate(nv − 1))].
  int coordinate(int k) const { return order_(k); }
  /// Forgets the partition: the next call chooses one by pivoting.
  void reset_partition() { partition_m_ = -1; }

 private:
  template <class T>
  friend struct detail::MinimalCoordinatesAccess;
  int partition_m_ = -1;
  Eigen::Matrix<int, Eigen::Dynamic, 1> order_;
  Eigen::Matrix<int, Eigen::Dynamic, 1> pivot_;

 public:
  // Scratch (contents unspecified between calls).
  MatrixX<S> selection;          ///< copy of J for the pivoted Gram–Schmidt
  MatrixX<S> dependent_lu;       ///< LU of J_d
  MatrixX<S> dependent_inverse;  ///< J_d⁻¹ (for κ₁)
  MatrixX<S> basis;              ///< F (nv × (nv − m)), ν̄'s order
  MatrixX<S> mass_times_basis;   ///< M F
  MatrixX<S> reduced_mass;       ///< Fᵀ M F and its Cholesky factor
  VectorX<S> particular;         ///< q̈_p: J q̈_p = −γ, zero on the independent coordinates
  VectorX<S> residual;           ///< M q̈ − (τ̄ − h)
  VectorX<S> reduced_rhs;        ///< Fᵀ (τ̄ − h − M q̈_p)
  VectorX<S> column_norms;       ///< pivoting scratch
};

namespace detail {
template <class T>
struct MinimalCoordinatesAccess {
  // Chooses the dependent coordinates by column-pivoted Gram–Schmidt on J (the column selection of
  // a column-pivoted QR, Businger–Golub): each step takes the column of J farthest from the span of
  // those taken, so J_d is as well conditioned as greedy pivoting gets. Sorted for readability.
  static void choose_partition(MinimalCoordinatesWorkspace<T>& ws,
                               const Eigen::Ref<const MatrixX<T>>& J) {
    const int nv = ws.nv, m = static_cast<int>(J.rows());
    auto W = ws.selection.topLeftCorner(m, nv);
    W = J;
    auto& order = ws.order_;
    for (int i = 0; i < nv; ++i) order(i) = i;
    for (int k = 0; k < m; ++k) {
      int best = k;
      T best_norm(-1);
      for (int t = k; t < nv; ++t) {
        const T n2 = W.col(order(t)).squaredNorm();
        if (n2 > best_norm) best_norm = n2, best = t;
      }
      std::swap(order(k), order(best));
      const int chosen = order(k);
      if (!(best_norm > T(0))) continue;  // J rank deficient: any remaining column will do
      using std::sqrt;
      W.col(chosen) /= sqrt(best_norm);
      for (int t = k + 1; t < nv; ++t) {
        const T projection = W.col(chosen).dot(W.col(order(t)));
        W.col(order(t)) -= projection * W.col(chosen);
      }
    }
    std::sort(order.begin(), order.begin() + m);
    std::sort(order.begin() + m, order.begin() + nv);
    ws.partition_m_ = m;
  }

  // Factors J_d of the current partition; returns κ₁(J_d) (infinity when singular).
  static T factor_dependent(MinimalCoordinatesWorkspace<T>& ws,
                            const Eigen::Ref<const MatrixX<T>>& J) {
    const int m = static_cast<int>(J.rows());
    auto A = ws.dependent_lu.topLeftCorner(m, m);
    for (int k = 0; k < m; ++k) A.col(k) = J.col(ws.order_(k));
    T norm1(0);
    for (int k = 0; k < m; ++k) {
      const T column_sum = A.col(k).cwiseAbs().sum();
      if (column_sum > norm1) norm1 = column_sum;
    }
    if (!dense::lu_in_place<T>(A, ws.pivot_)) return T(std::numeric_limits<double>::infinity());
    auto inverse = ws.dependent_inverse.topLeftCorner(m, m);
    inverse.setIdentity();
    dense::lu_solve_in_place<T>(A, ws.pivot_, inverse);
    T inverse_norm1(0);
    for (int k = 0; k < m; ++k) {
      const T column_sum = inverse.col(k).cwiseAbs().sum();
      if (column_sum > inverse_norm1) inverse_norm1 = column_sum;
    }
    return norm1 * inverse_norm1;
  }

  static MinimalCoordinatesReport<T> run(const Eigen::Ref<const MatrixX<T>>& M,
                                         const Eigen::Ref<const MatrixX<T>>& J,
                                         const Eigen::Ref<const VectorX<T>>& gamma,
                                         const Eigen::Ref<const VectorX<T>>& force,
                                         MinimalCoordinatesWorkspace<T>& ws,
                                         Eigen::Ref<VectorX<T>> ddq, Eigen::Ref<VectorX<T>> lambda,
                                         const MinimalCoordinatesOptions<T>& options) {
    const int nv = ws.nv, m = static_cast<int>(J.rows()), free_count = nv - m;
    MinimalCoordinatesReport<T> report;
    if (ws.partition_m_ != m || options.repartition) {
      choose_partition(ws, J);
      report.repartitioned = true;
    }
    report.condition = factor_dependent(ws, J);
    if (!(report.condition <= options.condition_limit) && !report.repartitioned) {
      report.near_singularity = true;
      choose_partition(ws, J);
      report.repartitioned = true;
      report.condition = factor_dependent(ws, J);
    }
    if (!(report.condition <= options.condition_limit)) report.ill_conditioned = true;
    if (!(report.condition < T(std::numeric_limits<double>::infinity()))) return report;
    const auto lu = ws.dependent_lu.topLeftCorner(m, m);
    const auto& pivot = ws.pivot_;
    // F in ν̄'s order: rows of the dependent coordinates −J_d⁻¹ J_i, of the independent ones I.
    auto F = ws.basis.topLeftCorner(nv, free_count);
    auto top =
        ws.mass_times_basis.topLeftCorner(m, free_count);  // −J_d⁻¹ J_i, before M F reuses it
    for (int j = 0; j < free_count; ++j) top.col(j) = -J.col(ws.order_(m + j));
    dense::lu_solve_in_place<T>(lu, pivot, top);
    F.setZero();
    for (int k = 0; k < m; ++k) F.row(ws.order_(k)) = top.row(k);
    for (int j = 0; j < free_count; ++j) F(ws.order_(m + j), j) = T(1);
    // q̈_p: −J_d⁻¹ γ on the dependent coordinates.
    auto particular = ws.particular.head(nv);
    particular.setZero();
    auto gamma_d = ws.residual.head(m);
    gamma_d = -gamma;
    dense::lu_solve_in_place<T>(lu, pivot, gamma_d);
    for (int k = 0; k < m; ++k) particular(ws.order_(k)) = gamma_d(k);
    // Reduced dynamics Fᵀ M F q̈_i = Fᵀ (f − M q̈_p): λ drops out since J F = 0.
    auto MF = ws.mass_times_basis.topLeftCorner(nv, free_count);
    MF.noalias() = M * F;
    auto R = ws.reduced_mass.topLeftCorner(free_count, free_count);
    R.noalias() = F.transpose() * MF;
    auto f_reduced = ws.residual.head(nv);
    f_reduced = force;
    f_reduced.noalias() -= M * particular;
    auto rhs = ws.reduced_rhs.head(free_count);
    rhs.noalias() = F.transpose() * f_reduced;
    if (!dense::cholesky_in_place<T>(R, T(0))) return report;
    dense::cholesky_solve_in_place<T>(R, rhs);
    ddq = particular;
    ddq.noalias() += F * rhs;
    // λ from the dependent rows of M q̈ − f = Jᵀ λ: J_dᵀ λ = (M q̈ − f)_d (the independent rows
    // hold by the reduced equations).
    auto r = ws.residual.head(nv);
    r.noalias() = M * ddq;
    r -= force;
    for (int k = 0; k < m; ++k) lambda(k) = r(ws.order_(k));
    dense::lu_solve_transpose_in_place<T>(lu, pivot, lambda);
    report.solved = true;
    return report;
  }
};
}  // namespace detail

/// Constrained forward dynamics in minimal coordinates (coordinate partitioning, Wehage and Haug
/// 1982; docs/constraints.md). The nv coordinates are split
/// into m dependent and nv − m independent ones by pivoting on J (reported through the workspace);
/// with J = [J_d J_i] in that split, q̈ = F q̈_i + q̈_p, F = [−J_d⁻¹ J_i; I] (in ν̄'s order: rows of
/// the dependent coordinates −J_d⁻¹J_i, of the independent ones the identity; J F = 0), q̈_p =
/// [−J_d⁻¹ γ; 0], and q̈_i solves the reduced dynamics Fᵀ M F q̈_i = Fᵀ (τ̄ − h − M q̈_p). Then
/// λ = J_d⁻ᵀ (M q̈ − τ̄ + h)_d. Inputs and outputs as in this header's comment; J must have full row
/// rank (m ≤ nv).
///
/// The partition is kept between calls while κ₁(J_d) ≤ options.condition_limit. Beyond it — the
/// independent coordinates near a parametrization singularity — the report warns
/// (near_singularity), a new partition is chosen and used in the same call; if even that one
/// exceeds the limit, J itself is nearly rank deficient (ill_conditioned: use
/// proximal_forward_dynamics). Cost: m² nv (pivoting, only when partitioning), m³ (J_d and κ₁),
/// m²(nv − m) (F), nv²(nv − m) + nv(nv − m)² (Fᵀ M F), (nv − m)³/3.
template <class S>
MinimalCoordinatesReport<S> minimal_coordinates_forward_dynamics(
    const Eigen::Ref<const MatrixX<S>>& M, const Eigen::Ref<const MatrixX<S>>& J,
    const Eigen::Ref<const VectorX<S>>& gamma, const Eigen::Ref<const VectorX<S>>& force_minus_bias,
    MinimalCoordinatesWorkspace<S>& ws, Eigen::Ref<VectorX<S>> ddq, Eigen::Ref<VectorX<S>> lambda,
    const MinimalCoordinatesOptions<S>& options = {}) {
  const char* who = "minimal_coordinates_forward_dynamics";
  detail::check_forward_arguments<S>(who, ws.nv, ws.max_m, M, J, gamma, force_minus_bias);
  LIEDYN_CHECK(J.rows() <= ws.nv, std::string(who) + ": more constraint rows than coordinates");
  LIEDYN_CHECK_SIZE(who, "ddq", ddq, ws.nv);
  LIEDYN_CHECK_SIZE(who, "lambda", lambda, J.rows());
  return detail::MinimalCoordinatesAccess<S>::run(M, J, gamma, force_minus_bias, ws, ddq, lambda,
                                                  options);
}

}  // namespace liedyn
