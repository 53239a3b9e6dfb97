// liedyn — algorithm: forward dynamics under constraints (contacts, loop closures, couplings),
// exact KKT route:
//   [M  −Jᵀ] [q̈]   [τ̄ − h]
//   [J   0 ] [λ ] = [ −γ  ]      i.e.  M q̈ + h − τ̄ = Jᵀ λ,  J q̈ + γ = 0
// (λ: what the environment, or the other side of a cut, applies on the robot; J, γ in each
// constraint's sense: model/constraint.hpp, constraint_kinematics.hpp, docs/constraints.md).
//
// Route (ConstrainedDynamicsRoute::ExactKKT), with M = Lᵀ D L the sparse factorization of
// ltdl.hpp: Y = J L⁻¹ (one triangular solve for all m rows, following the tree), the Delassus
// matrix W = J M⁻¹ Jᵀ = Y D⁻¹ Yᵀ, its Cholesky factor, then with y = L⁻ᵀ (τ̄ − h):
//   λ = −W⁻¹ (γ + Y D⁻¹ y),   q̈ = L⁻¹ D⁻¹ (y + Yᵀ λ).
// Cost O(n) for h, O(Σ depth²) for M and its factors, O(m Σ depth) for Y, O(m² ns) for W (ns
// the coordinates on some constraint's support: a humanoid's feet leave out its arms), O(m³)
// for its factor. It needs M invertible and J of full row rank: a Cholesky pivot below
// rank_tolerance times its row's diagonal entry means the row depends on the rows before it,
// and the call throws ConstraintError naming both constraints (use a damped route then).
// Nothing allocates after the workspaces are built (except to build that error's message).
#pragma once

#include <cmath>
#include <string>
#include <utility>

#include "liedyn/algorithm/constraint_kinematics.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/ltdl.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/arithmetic/dense.hpp"

namespace liedyn {

/// How constrained_forward_dynamics solves the KKT system (docs/constraint-solvers.md):
///  * ExactKKT: the sparse LᵀDL of M and the Cholesky factor of the Delassus matrix (full-rank J
///    only; the fastest);
///  * Proximal: proximal-point iterations on the damped dual, for redundant or singular sets
///    (minimum-norm λ; cd.proximal_report says how it converged);
///  * Projector: the redundant-coordinates projector J⁺_M, N = I − J⁺_M J (full-rank J; leaves
///    J⁺_M and N in cd.projector for constraint-consistent control);
///  * MinimalCoordinates: a dependent/independent partition chosen by pivoting on J, the reduced
///    dynamics FᵀMF (cd.minimal keeps the partition; cd.minimal_report warns near a
///    parametrization singularity and re-partitions).
/// All four give the same q̈ and λ for a full-rank J.
enum class ConstrainedDynamicsRoute { ExactKKT, Proximal, Projector, MinimalCoordinates };

/// How constrained_forward_dynamics_derivatives solves its KKT systems for the 3nv right-hand
/// sides (docs/constraints.md):
///  * SparseFactors: one tree-sparse solve per column with the LᵀDL and Delassus factors (fewest
///    operations when the tree is small or deep: a column touches only its coordinates' chains);
///  * DenseInverse: M⁻¹ from the same factors, the unconstrained responses M⁻¹ K on the tree's
///    sparsity pattern, then the rank-m correction of the block elimination as dense products;
///  * Automatic: DenseInverse from ConstrainedDynamicsOptions::dense_from_nv velocities on.
/// Both give the same derivatives to rounding.
enum class KktDerivativeSolve { Automatic, SparseFactors, DenseInverse };

/// Options of the constrained dynamics kernels.
template <class S>
struct ConstrainedDynamicsOptions {
  ConstrainedDynamicsRoute route = ConstrainedDynamicsRoute::ExactKKT;
  /// Relative pivot threshold of the Delassus factorization below which J counts as rank
  /// deficient; ≤ 0 selects √ε of the scalar type.
  S rank_tolerance = S(-1);
  ProximalOptions<S> proximal;           ///< Proximal route: damping, tolerance, iterations
  MinimalCoordinatesOptions<S> minimal;  ///< MinimalCoordinates route: conditioning limit
  /// The derivatives' KKT solves; Automatic picks DenseInverse from dense_from_nv velocities on,
  /// where the dense inverse's O(nv²) products become cheaper than the sparse solves.
  KktDerivativeSolve derivative_solve = KktDerivativeSolve::Automatic;
  int dense_from_nv = 40;
};

namespace detail {

/// Lᵀ y = x in place (the first half of ltdl_solve), for a vector or a column.
template <class S, class Derived>
void ltdl_solve_transposed(const Model<S>& model, const Data<S>& data,
                           const Eigen::MatrixBase<Derived>& x_out) {
  Eigen::MatrixBase<Derived>& x = const_cast<Eigen::MatrixBase<Derived>&>(x_out);
  const MatrixX<S>& F = data.ltdl.factors;
  for (int j = model.nv() - 1; j >= 0; --j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    if (len > 0) x(j) -= F.col(j).segment(first, len).dot(x.segment(first, len));
  }
}

/// L x = y in place (the last half of ltdl_solve).
template <class S, class Derived>
void ltdl_solve_lower(const Model<S>& model, const Data<S>& data,
                      const Eigen::MatrixBase<Derived>& x_out) {
  Eigen::MatrixBase<Derived>& x = const_cast<Eigen::MatrixBase<Derived>&>(x_out);
  const MatrixX<S>& F = data.ltdl.factors;
  for (int j = 0; j < model.nv(); ++j) {
    const int first = j + 1, len = model.dof_subtree_end(j) - first;
    if (len > 0) x.segment(first, len) -= F.col(j).segment(first, len) * x(j);
  }
}

template <class S>
S rank_tolerance_of(const ConstrainedDynamicsOptions<S>& opt) {
  using std::sqrt;
  if (opt.rank_tolerance > S(0)) return opt.rank_tolerance;
  return sqrt(Eigen::NumTraits<S>::epsilon());
}

/// From data.ltdl.factors (M factored) and cd.J: cd.Y = J L⁻¹, cd.Z = Y D⁻¹, cd.delassus = Y Zᵀ and
/// its Cholesky factor in cd.delassus_factor. Throws ConstraintError on a dependent row.
template <class S>
void factor_delassus(const Model<S>& model, const Data<S>& data, const ConstraintSet<S>& set,
                     ConstraintData<S>& cd, const ConstrainedDynamicsOptions<S>& opt,
                     const char* who) {
  const int end = set.support_end();
  // Y = J L⁻¹, i.e. Lᵀ Yᵀ = Jᵀ solved for all m rows at once, leaves first: column j of Y is
  // final once its subtree's columns are. Y keeps J's zeros (a constraint's support is closed
  // under ancestors, so no descendant of a coordinate off it is on it): column j takes only the
  // rows of the constraints that reach it, and from its subtree only the coordinates on some
  // support; the columns from the supports' end on stay zero.
  const MatrixX<S>& F = data.ltdl.factors;
  cd.Y = cd.J;
  cd.Z.rightCols(model.nv() - end).setZero();
  for (int j = end - 1; j >= 0; --j) {
    // Plain ints, not a structured binding: the lambda below captures them (C++17 forbids
    // capturing structured bindings; clang rejects it).
    const std::pair<int, int> rows = set.rows_of_coordinate(j);
    const int r0 = rows.first, count = rows.second;
    if (count > 0) {
      auto y = cd.Y.col(j).segment(r0, count);
      set.for_each_supported_run(
          j + 1, std::min(model.dof_subtree_end(j), end), [&](int first, int len) {
            y.noalias() -= cd.Y.block(r0, first, count, len) * F.col(j).segment(first, len);
          });
    }
    cd.Z.col(j) = cd.Y.col(j) / F(j, j);
  }
  // W = Y Zᵀ over the supported coordinates only.
  cd.delassus.setZero();
  set.for_each_supported_run(0, end, [&](int first, int len) {
    cd.delassus.noalias() += cd.Y.middleCols(first, len) * cd.Z.middleCols(first, len).transpose();
  });
  MatrixX<S>& L = cd.delassus_factor;
  L.template triangularView<Eigen::Lower>() = cd.delassus;
  Eigen::Index j = 0;
  if (!dense::cholesky_in_place<S>(L, rank_tolerance_of(opt), &j)) {
    const int cj = set.constraint_of_row(static_cast<int>(j));
    std::string before;
    for (int k = 0; k <= cj; ++k) before += (k ? ", " : "") + set.describe(k);
    throw ConstraintError(
        std::string("liedyn: ") + who + ": the constraint Jacobian is rank deficient: row " +
        std::to_string(static_cast<int>(j) - set.constraint(cj).row) + " of constraint " +
        set.describe(cj) + " depends on the rows before it (constraints " + before +
        "); drop the redundant rows (ConstraintSpec::components) or use a "
        "damped route");
  }
}

/// b ← W⁻¹ b with the factor of factor_delassus.
template <class S, class Derived>
void delassus_solve(const ConstraintData<S>& cd, const Eigen::MatrixBase<Derived>& b) {
  dense::cholesky_solve_in_place<S>(cd.delassus_factor, b);
}

/// M, its LᵀDL factors and the Delassus factor at x. cd.J and data.kinematics.H_parent must be
/// current (constraint_rows at x, earlier in the same call, leaves both).
template <class S>
void factor_kkt(const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set,
                ConstraintData<S>& cd, const ConstrainedDynamicsOptions<S>& opt, const char* who) {
  model.require_invertible_mass_matrix(who);
  crba_from_transforms(model, data, CrbaRoute::Automatic);
  ltdl_factorize(model, data);
  factor_delassus(model, data, set, cd, opt, who);
}

/// cd.ddq and cd.lambda from the factors (data.ltdl.factors, cd.Y, cd.Z, cd.delassus_factor),
/// data.h, cd.gamma and τ̄: with y = L⁻ᵀ (τ̄ − h), λ = −W⁻¹ (γ + Z y), q̈ = L⁻¹ D⁻¹ (y + Yᵀ λ).
template <class S, class Derived>
void solve_factored_kkt(const Model<S>& model, const Data<S>& data, const ConstraintSet<S>& set,
                        ConstraintData<S>& cd, const Eigen::MatrixBase<Derived>& tau) {
  VectorX<S>& y = cd.tmp_q;
  y = tau - data.h;
  ltdl_solve_transposed(model, data, y);
  // Y and Z are zero off the supported coordinates.
  const int end = set.support_end();
  cd.lambda = -cd.gamma;
  set.for_each_supported_run(0, end, [&](int first, int len) {
    cd.lambda.noalias() -= cd.Z.middleCols(first, len) * y.segment(first, len);
  });
  delassus_solve(cd, cd.lambda);
  set.for_each_supported_run(0, end, [&](int first, int len) {
    y.segment(first, len).noalias() += cd.Y.middleCols(first, len).transpose() * cd.lambda;
  });
  cd.ddq = y.cwiseQuotient(data.ltdl.factors.diagonal());
  ltdl_solve_lower(model, data, cd.ddq);
}

/// out = v + M⁻¹ Jᵀ μ, from the factors (out must not alias μ).
template <class S, class DV, class DMu, class DOut>
void add_constraint_response(const Model<S>& model, const Data<S>& data, ConstraintData<S>& cd,
                             const Eigen::MatrixBase<DV>& v, const Eigen::MatrixBase<DMu>& mu,
                             const Eigen::MatrixBase<DOut>& out_) {
  Eigen::MatrixBase<DOut>& out = const_cast<Eigen::MatrixBase<DOut>&>(out_);
  cd.tmp_nv.noalias() = cd.Z.transpose() * mu;
  ltdl_solve_lower(model, data, cd.tmp_nv);
  out = v + cd.tmp_nv;
}

}  // namespace detail

/// Forward dynamics under the constraints of `set` at state x and generalized force τ̄ (base
/// wrench in the base frame, then joint torques): fills cd.ddq (q̈ = [ν̇; ṙ]) and cd.lambda (the
/// constraint forces on the robot, stacked in the set's order, each in its constraint's sense),
/// with cd.J, cd.drift, cd.gamma, the errors and cd.delassus current, and data.M, data.h,
/// data.ltdl.factors. M q̈ + h − τ̄ = Jᵀ λ and J q̈ + γ = 0. Returns cd.ddq. Throws ConstraintError if
/// J is rank deficient (naming the constraints), ModelError if M is singular.
template <class S, class Derived>
const VectorX<S>& constrained_forward_dynamics(
    const Model<S>& model, Data<S>& data, const ConstraintSet<S>& set, ConstraintData<S>& cd,
    const State<S>& x, const Eigen::MatrixBase<Derived>& tau,
    const ConstrainedDynamicsOptions<S>& opt = ConstrainedDynamicsOptions<S>()) {
  const char* who = "constrained_forward_dynamics";
  detail::check_constraint_call(who, model, data, set, cd, x);
  LIEDYN_CHECK_SIZE(who, "tau", tau, model.nv());
  if (opt.route != ConstrainedDynamicsRoute::ExactKKT) {
    detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Included);
    // The matrix routes: M (both triangles), J, γ and τ̄ − h, λ with the same sign and order.
    model.require_invertible_mass_matrix(who);
    crba(model, data, x.s);
    bias_force(model, data, x);
    cd.tmp_q = tau - data.h;
    switch (opt.route) {
      case ConstrainedDynamicsRoute::Proximal:
        cd.proximal_report = proximal_forward_dynamics<S>(
            data.M, cd.J, cd.gamma, cd.tmp_q, cd.proximal, cd.ddq, cd.lambda, opt.proximal);
        break;
      case ConstrainedDynamicsRoute::Projector:
        if (!projected_forward_dynamics<S>(data.M, cd.J, cd.gamma, cd.tmp_q, cd.projector, cd.ddq,
                                           cd.lambda)
                 .full_rank)
          throw ConstraintError(std::string("liedyn: ") + who +
                                ": the constraint Jacobian is rank deficient (Projector route); "
                                "use the Proximal route");
        break;
      case ConstrainedDynamicsRoute::MinimalCoordinates:
        LIEDYN_CHECK(set.dimension() <= model.nv(),
                     std::string(who) +
                         ": more constraint rows than coordinates (MinimalCoordinates route)");
        cd.minimal_report = minimal_coordinates_forward_dynamics<S>(
            data.M, cd.J, cd.gamma, cd.tmp_q, cd.minimal, cd.ddq, cd.lambda, opt.minimal);
        if (!cd.minimal_report.solved)
          throw ConstraintError(
              std::string("liedyn: ") + who +
              ": no well-conditioned partition of the coordinates (MinimalCoordinates route)");
        break;
      case ConstrainedDynamicsRoute::ExactKKT: break;
    }
    return cd.ddq;
  }
  // h first: its pass leaves the body twists the constraint rows need.
  forward_poses(model, data, x);
  data.h = detail::rnea_pass<S, VectorX<S>>(model, data, x, nullptr, detail::kEveryTerm, nullptr,
                                            detail::JointTransforms::AlreadyCurrent);
  detail::constraint_rows(model, data, set, cd, x, detail::ConstraintDrift::Included,
                          detail::BodyKinematics::AlreadyCurrent);
  detail::factor_kkt(model, data, set, cd, opt, who);
  detail::solve_factored_kkt(model, data, set, cd, tau);
  return cd.ddq;
}

}  // namespace liedyn
