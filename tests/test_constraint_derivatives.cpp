// liedyn tests — the derivatives of the constraint kinematics, of the constrained dynamics and of
// the impulse dynamics (algorithm/constraint_kinematics_derivatives.hpp,
// constrained_dynamics_derivatives.hpp, impulse_dynamics_derivatives.hpp):
//   * ∂e/∂q, ∂(J ν̄)/∂x, ∂(J q̈ + γ)/∂x and J̇ against long double differences of
//     constraint_kinematics, every type, sense and representation;
//   * ∂v⁺/∂x and ∂Λ/∂x against long double differences of impulse_dynamics (restitution 0 and
//     not), no zero columns where the differences have none;
//   * ∂q̈/∂x, ∂λ/∂x, ∂q̈/∂τ̄, ∂λ/∂τ̄ against central geometric differences of
//     constrained_forward_dynamics in long double, for every constraint type, sense and
//     base-twist representation, with Baumgarte gains and position errors, on a moving and on a
//     welded base, and on chains of every joint type (spherical, free, planar, universal);
//   * against Pinocchio 3.7's computeConstraintDynamicsDerivatives for solo12 (4 point feet) and
//     talos (2 rigid soles), LOCAL and LOCAL_WORLD_ALIGNED;
//   * the constrained linearization (continuous and discrete) against long double differences of
//     the constrained vector field and of the constrained semi-implicit Euler step, on chains of
//     1-DoF joints and of every joint type;
//   * the reduced linearization on the constraint manifold at an equilibrium: orthonormal tangent
//     basis, invariance A P = P A_r, and the spectra (the forbidden motions' eigenvalues are the
//     Baumgarte roots, absent from A_r);
//   * float, double and long double, and no allocation;
//   * the Data contract for the constraint kernels (Data and ConstraintData scribbled between
//   calls).
#include <catch2/catch.hpp>

#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include <liedyn/algorithm/constrained_dynamics_derivatives.hpp>
#include <liedyn/algorithm/constrained_linearization.hpp>
#include <liedyn/algorithm/constraint_kinematics_derivatives.hpp>
#include <liedyn/algorithm/impulse_dynamics_derivatives.hpp>
#include <liedyn/numdiff/finite_differences.hpp>
#include <liedyn/numdiff/state_field.hpp>
#include <liedyn/testing/samples.hpp>
#ifdef LIEDYN_HAS_URDF
#include <liedyn/interop/all.hpp>
#include <liedyn/model/urdf.hpp>
#endif

#include "support/constraint_cases.hpp"
#include "support/pinocchio_dump.hpp"
#include "support/scribble.hpp"
#ifdef LIEDYN_HAS_URDF
#include "support/pinocchio_contact_cases.hpp"
#endif
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using liedyn::ConstraintData;
using liedyn::ConstraintSet;
using liedyn::ConstraintSpec;
using liedyn::ConstraintType;
using liedyn::Data;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::SE3;
using liedyn::State;
using liedyn::TwistRepresentation;
using liedyn::VectorX;
using liedyn::test::relative_error;

namespace {

using L = long double;

/// [q̈; λ] of constrained_forward_dynamics, as one vector for the difference quotients.
struct ConstrainedOutputs {
  const Model<L>& model;
  const ConstraintSet<L>& set;
  Data<L> data;
  ConstraintData<L> cd;
  ConstrainedOutputs(const Model<L>& m, const ConstraintSet<L>& s)
      : model(m), set(s), data(m), cd(m, s) {}
  VectorX<L> operator()(const State<L>& x, const VectorX<L>& tau) {
    liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    VectorX<L> out(model.nv() + set.dimension());
    out << cd.ddq, cd.lambda;
    return out;
  }
};

/// Checks cd's derivatives (double, at x, tau, `rep`; both KKT solves of the derivatives)
/// against central differences of [q̈; λ] in long double, block by block: q̈'s rows, then each
/// constraint's λ rows, each against its own reference norm so that no small block hides behind a
/// large one.
void check_against_differences(const Model<double>& model, const ConstraintSet<double>& set,
                               const State<double>& x, const VectorX<double>& tau,
                               TwistRepresentation rep, double bound) {
  const Model<L> model_l = model.cast<L>();
  const ConstraintSet<L> set_l = set.cast<L>();
  const State<L> x_l = x.cast<L>();
  const VectorX<L> tau_l = tau.cast<L>();
  ConstrainedOutputs f(model_l, set_l);
  liedyn::numdiff::NumDiffOptions<L> opt;
  opt.twist_representation = rep;
  const MatrixX<L> dx = liedyn::numdiff::state_jacobian(
      model_l, [&](const State<L>& y) { return f(y, tau_l); }, x_l, opt);
  const MatrixX<L> dtau =
      liedyn::numdiff::vector_jacobian([&](const VectorX<L>& t) { return f(x_l, t); }, tau_l);

  const int nv = model.nv();
  INFO("representation " << liedyn::to_string(rep));
  for (const auto solve :
       {liedyn::KktDerivativeSolve::SparseFactors, liedyn::KktDerivativeSolve::DenseInverse}) {
    INFO("KKT solve " << (solve == liedyn::KktDerivativeSolve::SparseFactors ? "sparse" : "dense"));
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    liedyn::ConstrainedDynamicsOptions<double> copt;
    copt.derivative_solve = solve;
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau, rep, copt);
    {
      const double e_x = relative_error(cd.ddq_dx, MatrixX<L>(dx.topRows(nv)));
      const double e_tau = relative_error(cd.ddq_dtau, MatrixX<L>(dtau.topRows(nv)));
      INFO("ddq: x " << e_x << ", tau " << e_tau);
      LIEDYN_CHECK_BELOW(e_x, bound);
      LIEDYN_CHECK_BELOW(e_tau, bound);
    }
    for (const auto& c : set.constraints()) {
      const double e_x = relative_error(cd.lambda_dx.middleRows(c.row, c.dim),
                                        MatrixX<L>(dx.middleRows(nv + c.row, c.dim)));
      const double e_tau = relative_error(cd.lambda_dtau.middleRows(c.row, c.dim),
                                          MatrixX<L>(dtau.middleRows(nv + c.row, c.dim)));
      INFO("lambda of " << c.name << " (" << liedyn::to_string(c.type) << "): x " << e_x << ", tau "
                        << e_tau);
      LIEDYN_CHECK_BELOW(e_x, bound);
      LIEDYN_CHECK_BELOW(e_tau, bound);
    }
  }
}

/// every_type() with desired placements moved off the current poses (position errors ≠ 0) and
/// Baumgarte gains on every constraint, so that every term of the derivative is exercised.
std::vector<ConstraintSpec<double>> every_type_with_gains(TwistRepresentation sense,
                                                          const Model<double>& model,
                                                          const State<double>& x,
                                                          std::mt19937& rng) {
  auto specs = liedyn::test::every_type<double>(sense, true, model, x, rng);
  for (auto& c : specs) {
    if (c.type != ConstraintType::Coupling)
      c.placement =
          *c.placement *
          SE3<double>::exp(liedyn::Vector6<double>(0.2 * liedyn::test::random_twist<double>(rng)));
    c.Kp = 4;
    c.Kd = 1.5;
  }
  return specs;
}

/// A tree of chains (of 1-DoF joints, or of every joint type), a random state, every
/// constraint type in mixed sense with gains
/// (every_type_with_gains) and a random τ̄ in [−5, 5]^nv, drawn in that order from `seed`.
struct EveryTypeProblem {
  Model<double> model;
  State<double> x;
  ConstraintSet<double> set;
  VectorX<double> tau;
};

EveryTypeProblem every_type_problem(
    int joints, std::uint32_t seed,
    liedyn::test::ChainJoints chain_joints = liedyn::test::ChainJoints::one_dof) {
  Model<double> model = liedyn::test::chains_model<double>(joints, chain_joints);
  auto rng = liedyn::test::make_rng(seed);
  State<double> x = liedyn::random_state(model, rng);
  ConstraintSet<double> set(model,
                            every_type_with_gains(TwistRepresentation::Mixed, model, x, rng));
  VectorX<double> tau(model.nv());
  for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
  return {std::move(model), std::move(x), std::move(set), std::move(tau)};
}

}  // namespace

// Central differences in long double with the default step ε^(1/3) ≈ 2e-7: truncation
// ~δ² × third derivative ≈ 1e-12 relative; the analytic side in double carries the KKT solve's
// conditioning (‖W‖‖W⁻¹‖ up to 1e4 here) times ε ≈ 1e-12. Measured ≤ 5.3e-11 on these trees
// with either KKT solve; the bound is the 1e-9.
TEST_CASE(
    "constraint derivatives: every type, sense and representation against long double differences",
    "[constraints][derivatives]") {
  const Model<double> model = liedyn::test::chains_model<double>(21);
  auto rng = liedyn::test::make_rng(4);
  for (TwistRepresentation sense : liedyn::test::kSenses) {
    INFO("sense " << liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    const ConstraintSet<double> set(model, every_type_with_gains(sense, model, x, rng));
    VectorX<double> tau(model.nv());
    for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
    for (TwistRepresentation rep : liedyn::test::kSenses)
      check_against_differences(model, set, x, tau, rep, 1e-9);
  }
}

// KktDerivativeSolve::Automatic is DenseInverse from dense_from_nv velocities on, SparseFactors
// below: bit-identical to the explicit route on each side of the boundary (here nv = 27).
TEST_CASE("constraint derivatives: the automatic KKT solve on both sides of its boundary",
          "[constraints][derivatives]") {
  using liedyn::KktDerivativeSolve;
  const EveryTypeProblem problem = every_type_problem(21, 5);
  const Model<double>& model = problem.model;
  const State<double>& x = problem.x;
  const ConstraintSet<double>& set = problem.set;
  const VectorX<double>& tau = problem.tau;
  auto derivatives = [&](KktDerivativeSolve solve, int dense_from_nv) {
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    liedyn::ConstrainedDynamicsOptions<double> copt;
    copt.derivative_solve = solve;
    copt.dense_from_nv = dense_from_nv;
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau,
                                                     TwistRepresentation::Body, copt);
    MatrixX<double> out(model.nv() + set.dimension(), 3 * model.nv());
    out << cd.ddq_dx, cd.ddq_dtau, cd.lambda_dx, cd.lambda_dtau;
    return out;
  };
  const int nv = model.nv();
  const MatrixX<double> sparse = derivatives(KktDerivativeSolve::SparseFactors, nv);
  const MatrixX<double> dense = derivatives(KktDerivativeSolve::DenseInverse, nv);
  CHECK(sparse != dense);  // the two routes round differently, so the comparison below can fail
  CHECK(relative_error(sparse, dense) < 1e-11);
  CHECK(derivatives(KktDerivativeSolve::Automatic, nv + 1) == sparse);
  CHECK(derivatives(KktDerivativeSolve::Automatic, nv) == dense);
}

TEST_CASE("constraint derivatives: a welded-base tree with a contact and a loop",
          "[constraints][derivatives]") {
  std::mt19937 rng(17);
  liedyn::RandomModelOptions options;
  options.moving_base = false;
  options.branching = 3;
  const Model<double> model = liedyn::random_model<double>(14, rng, options);
  const State<double> x = liedyn::random_state(model, rng);
  const int last = model.num_bodies() - 1;
  std::vector<ConstraintSpec<double>> specs = {
      ConstraintSpec<double>::point_contact(model.body_name(last), TwistRepresentation::Mixed),
      ConstraintSpec<double>::loop(ConstraintType::BallLoop, model.body_name(last - 4),
                                   model.body_name(last - 8), TwistRepresentation::Body)};
  specs[1].Kd = 2;
  specs[1].Kp = 3;
  specs[1].placement =
      SE3<double>::exp(liedyn::Vector6<double>(0.3 * liedyn::test::random_twist<double>(rng)));
  const ConstraintSet<double> set(model, specs);
  VectorX<double> tau(model.nv());
  for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
  check_against_differences(model, set, x, tau, TwistRepresentation::Body, 1e-9);
}

namespace {

/// ∂e/∂q, ∂(J ν̄)/∂x, ∂(J q̈ + γ)/∂x at a fixed q̈ and J̇ of cd (double, at x, ddq, in each
/// representation), each constraint's rows against its own reference: central differences in
/// long double of constraint_kinematics, J̇ along the flow x ⊕ h ν̄ with the velocity held.
void check_kinematics_against_differences(const Model<double>& model,
                                          const ConstraintSet<double>& set, const State<double>& x,
                                          const VectorX<double>& ddq, double bound) {
  const Model<L> model_l = model.cast<L>();
  const ConstraintSet<L> set_l = set.cast<L>();
  const int nv = model.nv(), m = set.dimension();
  const VectorX<L> ddq_l = ddq.cast<L>();
  const State<L> x_l = x.cast<L>();
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  Data<L> data_l(model_l);
  ConstraintData<L> cd_l(model_l, set_l);

  // J̇ along the flow: q ⊕ ±h ν̄ with the velocity held (representation-free).
  MatrixX<L> Jdot_fd;
  {
    VectorX<L> dx = VectorX<L>::Zero(2 * nv);
    const L h = 1e-6L;
    dx.head(nv) = h * x_l.velocity(model_l);
    liedyn::constraint_jacobian(model_l, data_l, set_l, cd_l, liedyn::integrate(model_l, x_l, dx));
    const MatrixX<L> J_plus = cd_l.J;
    liedyn::constraint_jacobian(model_l, data_l, set_l, cd_l,
                                liedyn::integrate(model_l, x_l, VectorX<L>(-dx)));
    Jdot_fd = (J_plus - cd_l.J) / (2 * h);
  }
  for (TwistRepresentation rep : liedyn::test::kSenses) {
    INFO("representation " << liedyn::to_string(rep));
    liedyn::constraint_kinematics_derivatives(model, data, set, cd, x, ddq, rep);
    liedyn::numdiff::NumDiffOptions<L> nd;
    nd.twist_representation = rep;
    const MatrixX<L> F = liedyn::numdiff::state_jacobian(
        model_l,
        [&](const State<L>& y) {
          liedyn::constraint_kinematics(model_l, data_l, set_l, cd_l, y);
          VectorX<L> out(3 * m);
          out << cd_l.position_error, cd_l.velocity_error, cd_l.J * ddq_l + cd_l.gamma;
          return out;
        },
        x_l, nd);
    CHECK(F.block(0, nv, m, nv).norm() == 0);  // e does not depend on the velocities
    for (const auto& c : set.constraints()) {
      const double e_e = relative_error(cd.position_error_dx.middleRows(c.row, c.dim),
                                        MatrixX<L>(F.block(c.row, 0, c.dim, nv)));
      const double e_v = relative_error(cd.velocity_dx.middleRows(c.row, c.dim),
                                        MatrixX<L>(F.middleRows(m + c.row, c.dim)));
      const double e_a = relative_error(cd.acceleration_dx.middleRows(c.row, c.dim),
                                        MatrixX<L>(F.middleRows(2 * m + c.row, c.dim)));
      const double e_j = relative_error(cd.Jdot.middleRows(c.row, c.dim),
                                        MatrixX<L>(Jdot_fd.middleRows(c.row, c.dim)));
      INFO(c.name << " (" << liedyn::to_string(c.type) << "): e " << e_e << ", velocity " << e_v
                  << ", acceleration " << e_a << ", Jdot " << e_j);
      LIEDYN_CHECK_BELOW(e_e, bound);
      LIEDYN_CHECK_BELOW(e_v, bound);
      LIEDYN_CHECK_BELOW(e_a, bound);
      LIEDYN_CHECK_BELOW(e_j, bound);
    }
  }
}

}  // namespace

// ∂e/∂q, ∂(J ν̄)/∂x, ∂(J q̈ + γ)/∂x at a fixed q̈ and J̇ (check_kinematics_against_differences).
// Truncation and rounding as above, no KKT solve in between: measured ≤ 1.2e-12; the bound is the
// issue's 1e-9.
TEST_CASE(
    "constraint kinematics derivatives: every type, sense and representation against long double "
    "differences",
    "[constraints][derivatives][kinematics]") {
  const Model<double> model = liedyn::test::chains_model<double>(21);
  auto rng = liedyn::test::make_rng(4);
  const int nv = model.nv();
  for (TwistRepresentation sense : liedyn::test::kSenses) {
    INFO("sense " << liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    const ConstraintSet<double> set(model, every_type_with_gains(sense, model, x, rng));
    VectorX<double> ddq(nv);
    for (int k = 0; k < nv; ++k) ddq(k) = liedyn::test::uniform(rng, -5, 5);
    check_kinematics_against_differences(model, set, x, ddq, 1e-9);
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    // The dynamics derivatives leave the same velocity and acceleration rows (at their q̈).
    VectorX<double> tau(nv);
    for (int k = 0; k < nv; ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau,
                                                     TwistRepresentation::Mixed);
    const MatrixX<double> velocity_dx = cd.velocity_dx, acceleration_dx = cd.acceleration_dx;
    const VectorX<double> ddq_c = cd.ddq;
    liedyn::constraint_kinematics_derivatives(model, data, set, cd, x, ddq_c,
                                              TwistRepresentation::Mixed);
    CHECK(relative_error(velocity_dx, cd.velocity_dx) < 1e-14);
    CHECK(relative_error(acceleration_dx, cd.acceleration_dx) < 1e-14);
  }
}

/// Checks ∂v⁺/∂x and ∂Λ/∂x of impulse_dynamics_derivatives against long double central
/// differences of impulse_dynamics, per block, and column by column where the differences are
/// not zero (no zero columns where they have none).
void check_impulse_against_differences(const Model<double>& model, const ConstraintSet<double>& set,
                                       const State<double>& x, double restitution,
                                       TwistRepresentation rep, double bound) {
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  liedyn::impulse_dynamics_derivatives(model, data, set, cd, x, restitution, rep);
  const Model<L> model_l = model.cast<L>();
  const ConstraintSet<L> set_l = set.cast<L>();
  Data<L> data_l(model_l);
  ConstraintData<L> cd_l(model_l, set_l);
  const int nv = model.nv(), m = set.dimension();
  liedyn::numdiff::NumDiffOptions<L> nd;
  nd.twist_representation = rep;
  const MatrixX<L> F = liedyn::numdiff::state_jacobian(
      model_l,
      [&](const State<L>& y) {
        liedyn::impulse_dynamics(model_l, data_l, set_l, cd_l, y, L(restitution));
        VectorX<L> out(nv + m);
        out << cd_l.v_after, cd_l.impulse;
        return out;
      },
      x.cast<L>(), nd);
  INFO("representation " << liedyn::to_string(rep) << ", restitution " << restitution);
  auto check_block = [&](const std::string& what, const MatrixX<double>& D,
                         const MatrixX<L>& D_fd) {
    const double e = relative_error(D, D_fd);
    int bad_columns = 0;
    for (Eigen::Index j = 0; j < D_fd.cols(); ++j)
      if (D_fd.col(j).norm() > 1e-6L * D_fd.norm() &&
          relative_error(MatrixX<double>(D.col(j)), MatrixX<L>(D_fd.col(j))) > 1e-6)
        ++bad_columns;
    INFO(what << ": " << e << ", columns off by more than 1e-6 of their own norm: " << bad_columns);
    LIEDYN_CHECK_BELOW(e, bound);
    CHECK(bad_columns == 0);
  };
  check_block("v_after", cd.v_after_dx, F.topRows(nv));
  for (const auto& c : set.constraints())
    check_block("impulse of " + c.name, cd.impulse_dx.middleRows(c.row, c.dim),
                F.middleRows(nv + c.row, c.dim));
}

// As for the forward derivatives: long double differences (truncation ~1e-12), the analytic side
// carrying the Delassus conditioning; measured ≤ 4.3e-11, bound 1e-9.
TEST_CASE(
    "impulse derivatives: every type, sense and representation against long double differences",
    "[constraints][derivatives][impulse]") {
  const Model<double> model = liedyn::test::chains_model<double>(21);
  auto rng = liedyn::test::make_rng(8);
  for (TwistRepresentation sense : liedyn::test::kSenses) {
    INFO("sense " << liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    const ConstraintSet<double> set(model,
                                    liedyn::test::every_type<double>(sense, true, model, x, rng));
    for (double restitution : {0.0, 0.4})
      for (TwistRepresentation rep : liedyn::test::kSenses)
        check_impulse_against_differences(model, set, x, restitution, rep, 1e-9);
  }
  // A welded base, contact and loop.
  std::mt19937 rng_w(19);
  liedyn::RandomModelOptions options;
  options.moving_base = false;
  options.branching = 3;
  const Model<double> welded = liedyn::random_model<double>(14, rng_w, options);
  const State<double> xw = liedyn::random_state(welded, rng_w);
  const int last = welded.num_bodies() - 1;
  const ConstraintSet<double> set(
      welded,
      {ConstraintSpec<double>::point_contact(welded.body_name(last), TwistRepresentation::Mixed),
       ConstraintSpec<double>::loop(ConstraintType::BallLoop, welded.body_name(last - 4),
                                    welded.body_name(last - 8), TwistRepresentation::Body)});
  check_impulse_against_differences(welded, set, xw, 0.5, TwistRepresentation::Body, 1e-9);
}

// The same checks on chains of every joint type (spherical, free, planar and universal joints
// beside the 1-DoF ones, each moved on its own group by numdiff): the constrained forward and
// impulse dynamics derivatives and the kinematic ones, every constraint type and sense, the three
// representations. Bounds and their reasons as above.
TEST_CASE(
    "constraint derivatives: chains with every joint type, every constraint type, sense and "
    "representation against long double differences",
    "[constraints][derivatives][joint_types]") {
  const Model<double> model =
      liedyn::test::chains_model<double>(31, liedyn::test::ChainJoints::every_type);
  int multi_dof = 0;
  for (int i = 1; i <= model.num_joints(); ++i) multi_dof += model.joint(i).one_dof() ? 0 : 1;
  REQUIRE(multi_dof >= 20);  // not a vacuous mix
  auto rng = liedyn::test::make_rng(12);
  const int nv = model.nv();
  for (TwistRepresentation sense : liedyn::test::kSenses) {
    INFO("sense " << liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    const ConstraintSet<double> set(model, every_type_with_gains(sense, model, x, rng));
    VectorX<double> tau(nv), ddq(nv);
    for (int k = 0; k < nv; ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
    for (int k = 0; k < nv; ++k) ddq(k) = liedyn::test::uniform(rng, -5, 5);
    for (TwistRepresentation rep : liedyn::test::kSenses) {
      check_against_differences(model, set, x, tau, rep, 1e-9);
      check_impulse_against_differences(model, set, x, 0.4, rep, 1e-9);
    }
    check_kinematics_against_differences(model, set, x, ddq, 1e-9);
  }
}

// Data holds results, not promises: every public member of Data and ConstraintData scribbled with
// NaN between two calls, the constraint kernels' outputs bit-identical.
TEST_CASE(
    "Data contract: the constraint kernels repeat their outputs after Data and ConstraintData are "
    "scribbled",
    "[constraints][data][contract]") {
  using Outputs = std::vector<MatrixX<double>>;
  const Model<double> model = liedyn::test::chains_model<double>(21);
  auto rng = liedyn::test::make_rng(12);
  const State<double> x = liedyn::random_state(model, rng);
  const ConstraintSet<double> set(model,
                                  every_type_with_gains(TwistRepresentation::Mixed, model, x, rng));
  const int nv = model.nv();
  VectorX<double> tau(nv), ddq(nv);
  for (int k = 0; k < nv; ++k)
    tau(k) = liedyn::test::uniform(rng, -5, 5), ddq(k) = liedyn::test::uniform(rng, -5, 5);
  liedyn::ReducedLinearization<double> reduced(model, set);
  struct Kernel {
    std::string name;
    std::function<Outputs(Data<double>&, ConstraintData<double>&)> run;
  };
  std::vector<Kernel> kernels = {
      {"constraint_kinematics",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::constraint_kinematics(model, d, set, cd, x);
         return Outputs{cd.J, cd.gamma, cd.drift, cd.position_error, cd.velocity_error};
       }},
      {"constraint_kinematics_derivatives",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::constraint_kinematics_derivatives(model, d, set, cd, x, ddq,
                                                   TwistRepresentation::Inertial);
         return Outputs{cd.position_error_dx, cd.velocity_dx, cd.acceleration_dx, cd.Jdot};
       }},
      {"constrained_forward_dynamics",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         return Outputs{liedyn::constrained_forward_dynamics(model, d, set, cd, x, tau), cd.lambda};
       }},
      {"impulse_dynamics_derivatives",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::impulse_dynamics_derivatives(model, d, set, cd, x, 0.3,
                                              TwistRepresentation::Mixed);
         return Outputs{cd.v_after, cd.impulse, cd.v_after_dx, cd.impulse_dx};
       }},
      {"constrained_forward_dynamics_derivatives",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau,
                                                          TwistRepresentation::Mixed);
         return Outputs{cd.ddq_dx,      cd.lambda_dx,   cd.ddq_dtau,
                        cd.lambda_dtau, cd.velocity_dx, cd.acceleration_dx};
       }},
      {"constrained_forward_dynamics_derivatives (dense KKT solve)",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::ConstrainedDynamicsOptions<double> copt;
         copt.derivative_solve = liedyn::KktDerivativeSolve::DenseInverse;
         liedyn::constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau,
                                                          TwistRepresentation::Mixed, copt);
         return Outputs{cd.ddq_dx,      cd.lambda_dx,   cd.ddq_dtau,
                        cd.lambda_dtau, cd.velocity_dx, cd.acceleration_dx};
       }},
      {"linearize_discrete (constrained)",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::linearize_discrete(model, d, set, cd, x, tau, 0.01);
         return Outputs{d.linearization.A, d.linearization.B};
       }},
      {"linearize_reduced",
       [&](Data<double>& d, ConstraintData<double>& cd) {
         liedyn::linearize_reduced(model, d, set, cd, x, tau, reduced);
         return Outputs{d.linearization.A, d.linearization.B, reduced.basis, reduced.A, reduced.B};
       }},
  };
  for (const Kernel& k : kernels) {
    INFO(k.name);
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    const Outputs first = k.run(data, cd);
    liedyn::test::scribble(data);
    liedyn::test::scribble(cd);
    const Outputs again = k.run(data, cd);
    for (std::size_t o = 0; o < first.size(); ++o) {
      INFO("output " << o);
      REQUIRE(first[o].allFinite());
      CHECK(liedyn::test::bit_identical(first[o], again[o]));
    }
  }
}

using liedyn::numdiff::local_difference;

// The same differences as above; the linearization adds only the kinematic rows and the
// representation's twist rows, which are exact maps. Measured ≤ 1.5e-11; bound 1e-9.
TEST_CASE("constrained linearization: continuous and discrete A, B against long double differences",
          "[constraints][derivatives][linearization]") {
  const liedyn::test::ChainJoints chain_joints =
      GENERATE(liedyn::test::ChainJoints::one_dof, liedyn::test::ChainJoints::every_type);
  const EveryTypeProblem problem = every_type_problem(23, 6, chain_joints);
  const Model<double>& model = problem.model;
  const State<double>& x = problem.x;
  const ConstraintSet<double>& set = problem.set;
  const VectorX<double>& tau = problem.tau;
  const int nv = model.nv(), n = model.nv_joints();
  const double dt = 0.01;

  const Model<L> model_l = model.cast<L>();
  const ConstraintSet<L> set_l = set.cast<L>();
  const State<L> x_l = x.cast<L>();
  const VectorX<L> tau_l = tau.cast<L>();
  Data<L> data_l(model_l);
  ConstraintData<L> cd_l(model_l, set_l);
  for (TwistRepresentation rep : liedyn::test::kSenses) {
    INFO("representation " << liedyn::to_string(rep));
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    liedyn::LinearizationOptions<double> opt;
    opt.representation = rep;
    liedyn::numdiff::NumDiffOptions<L> nd;
    nd.twist_representation = rep;

    // Continuous: the vector field [ν; r; d/dt t; ṙ] in rep's coordinates. Its first rows give
    // δν̄; a deviation on a group has η̇ = δv − ad(v̄) η (numdiff::add_deviation_drift).
    auto field = [&](const State<L>& y, const VectorX<L>& t) {
      liedyn::constrained_forward_dynamics(model_l, data_l, set_l, cd_l, y, t);
      VectorX<L> f(2 * nv);
      f << y.nu, y.r,
          liedyn::base_acceleration_from_body(y.H, y.nu, liedyn::Vector6<L>(cd_l.ddq.head<6>()),
                                              rep),
          cd_l.ddq.tail(n);
      return f;
    };
    MatrixX<L> A_fd = liedyn::numdiff::state_jacobian(
        model_l, [&](const State<L>& y) { return field(y, tau_l); }, x_l, nd);
    liedyn::numdiff::add_deviation_drift(model_l, x_l, A_fd);
    const MatrixX<L> B_fd =
        liedyn::numdiff::vector_jacobian([&](const VectorX<L>& t) { return field(x_l, t); }, tau_l);
    liedyn::linearize(model, data, set, cd, x, tau, opt);
    LIEDYN_CHECK_BELOW(relative_error(data.linearization.A, A_fd), 1e-9);
    LIEDYN_CHECK_BELOW(relative_error(data.linearization.B, B_fd), 1e-9);

    // Actuated: B S for the joint torques.
    MatrixX<double> actuation = MatrixX<double>::Zero(nv, n), Bu;
    actuation.bottomRows(n).setIdentity();
    liedyn::linearize_actuated(model, data, set, cd, x, actuation, VectorX<double>(tau.tail(n)), Bu,
                               opt);
    MatrixX<double> A_act = data.linearization.A;
    VectorX<double> tau_act = tau;
    tau_act.head<6>().setZero();
    liedyn::linearize(model, data, set, cd, x, tau_act, opt);
    CHECK(relative_error(A_act, data.linearization.A) == 0);
    CHECK(relative_error(Bu, MatrixX<double>(data.linearization.B * actuation)) == 0);

    // Discrete: the constrained semi-implicit Euler step, y⁺ ⊖ x̄⁺ in rep's coordinates.
    auto step = [&](const State<L>& y, const VectorX<L>& t) {
      State<L> out = y;
      liedyn::semi_implicit_euler_step(model_l, data_l, set_l, cd_l, y, t, L(dt), out);
      return out;
    };
    const State<L> x_plus = step(x_l, tau_l);
    const MatrixX<L> Ad_fd = liedyn::numdiff::state_jacobian(
        model_l,
        [&](const State<L>& y) { return local_difference(model_l, x_plus, step(y, tau_l), rep); },
        x_l, nd);
    const MatrixX<L> Bd_fd = liedyn::numdiff::vector_jacobian(
        [&](const VectorX<L>& t) { return local_difference(model_l, x_plus, step(x_l, t), rep); },
        tau_l);
    liedyn::linearize_discrete(model, data, set, cd, x, tau, dt, opt);
    LIEDYN_CHECK_BELOW(relative_error(data.linearization.A, Ad_fd), 1e-9);
    LIEDYN_CHECK_BELOW(relative_error(data.linearization.B, Bd_fd), 1e-9);
  }
}

// The kernel in each floating-point type agrees with its long double result to the scalar's
// tolerance times the KKT conditioning (as in test_constraints), and allocates nothing once the
// workspaces exist; on chains of 1-DoF joints and of every joint type. (AutoDiffScalar is left out
// here: its instantiation of this kernel doubled the file's compile time; the operations it uses
// are the ones test_constraints runs in AD6.)
TEMPLATE_TEST_CASE("constraint derivatives: every scalar type, without allocation",
                   "[constraints][derivatives][scalar]", float, double, long double) {
  using S = TestType;
  const liedyn::test::ChainJoints chain_joints =
      GENERATE(liedyn::test::ChainJoints::one_dof, liedyn::test::ChainJoints::every_type);
  const Model<L> model_l = liedyn::test::chains_model<L>(15, chain_joints);
  auto rng = liedyn::test::make_rng(9);
  const State<L> x_l = liedyn::random_state(model_l, rng);
  auto specs_l = liedyn::test::every_type<L>(TwistRepresentation::Mixed, true, model_l, x_l, rng);
  for (auto& c : specs_l) {
    c.Kp = 2;
    c.Kd = 1;
  }
  VectorX<L> tau_l(model_l.nv());
  for (int k = 0; k < model_l.nv(); ++k) tau_l(k) = liedyn::test::uniform(rng, -5, 5);
  const ConstraintSet<L> set_l(model_l, specs_l);
  Data<L> data_l(model_l);
  ConstraintData<L> cd_l(model_l, set_l);
  liedyn::constrained_forward_dynamics_derivatives(model_l, data_l, set_l, cd_l, x_l, tau_l,
                                                   TwistRepresentation::Mixed);

  const Model<S> model = model_l.template cast<S>();
  const ConstraintSet<S> set = set_l.template cast<S>();
  const State<S> x = x_l.template cast<S>();
  const VectorX<S> tau = liedyn::test::from_long_double<S>(tau_l);
  Data<S> data(model);
  ConstraintData<S> cd(model, set);
  liedyn::ReducedLinearization<S> reduced(model, set);
  {
    liedyn::LinearizationOptions<S> opt;
    liedyn::linearize_reduced(model, data, set, cd, x, tau, reduced, opt);  // sizes its outputs
  }
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    liedyn::LinearizationOptions<S> opt;
    opt.representation = TwistRepresentation::Inertial;
    liedyn::linearize(model, data, set, cd, x, tau, opt);
    liedyn::linearize_discrete(model, data, set, cd, x, tau, S(0.01), opt);
    liedyn::linearize_reduced(model, data, set, cd, x, tau, reduced, opt);
    liedyn::constraint_kinematics_derivatives(model, data, set, cd, x, tau,
                                              TwistRepresentation::Body);
    liedyn::impulse_dynamics_derivatives(model, data, set, cd, x, S(0.5),
                                         TwistRepresentation::Inertial);
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau,
                                                     TwistRepresentation::Mixed);
    liedyn::ConstrainedDynamicsOptions<S> dense;  // checked below against long double's sparse
    dense.derivative_solve = liedyn::KktDerivativeSolve::DenseInverse;
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau,
                                                     TwistRepresentation::Mixed, dense);
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
  const double tol = 1e3 * liedyn::test::tolerance<S>();
  LIEDYN_CHECK_BELOW(relative_error(cd.ddq_dx, cd_l.ddq_dx), tol);
  LIEDYN_CHECK_BELOW(relative_error(cd.lambda_dx, cd_l.lambda_dx), tol);
  LIEDYN_CHECK_BELOW(relative_error(cd.ddq_dtau, cd_l.ddq_dtau), tol);
  LIEDYN_CHECK_BELOW(relative_error(cd.lambda_dtau, cd_l.lambda_dtau), tol);
}

TEST_CASE("constraint derivatives: bad input gives clear errors", "[constraints][derivatives]") {
  const Model<double> model = liedyn::test::chains_model<double>(3);
  auto rng = liedyn::test::make_rng(2);
  const State<double> x = liedyn::random_state(model, rng);
  const ConstraintSet<double> set(model, {ConstraintSpec<double>::point_contact("c0_4")});
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  const VectorX<double> tau = VectorX<double>::Zero(model.nv());
  liedyn::ConstrainedDynamicsOptions<double> proximal;
  proximal.route = liedyn::ConstrainedDynamicsRoute::Proximal;
  CHECK_THROWS_WITH(liedyn::constrained_forward_dynamics_derivatives(
                        model, data, set, cd, x, tau, TwistRepresentation::Body, proximal),
                    Catch::Contains("only the ExactKKT route"));
  CHECK_THROWS_WITH(liedyn::constrained_forward_dynamics_derivatives(
                        model, data, set, cd, x, VectorX<double>(VectorX<double>::Zero(3))),
                    Catch::Contains("tau"));
  CHECK_THROWS_WITH(liedyn::constraint_kinematics_derivatives(
                        model, data, set, cd, x, VectorX<double>(VectorX<double>::Zero(3))),
                    Catch::Contains("ddq"));
  CHECK_THROWS_WITH(liedyn::impulse_dynamics_derivatives(model, data, set, cd, x, 1.5),
                    Catch::Contains("restitution"));
  CHECK_THROWS_WITH(liedyn::impulse_dynamics_derivatives(model, data, set, cd, x, 0.0,
                                                         TwistRepresentation::Body, proximal),
                    Catch::Contains("only the ExactKKT route"));
  const ConstraintSet<double> other(model, {ConstraintSpec<double>::rigid_contact("c1_4")});
  CHECK_THROWS_WITH(liedyn::constraint_kinematics_derivatives(model, data, other, cd, x, tau),
                    Catch::Contains("ConstraintData was sized for another"));
  CHECK_THROWS_WITH(liedyn::impulse_dynamics_derivatives(model, data, other, cd, x, 0.0),
                    Catch::Contains("ConstraintData was sized for another"));
  CHECK_THROWS_WITH(
      liedyn::constrained_forward_dynamics_derivatives(model, data, other, cd, x, tau),
      Catch::Contains("ConstraintData was sized for another"));
}

#ifdef LIEDYN_HAS_URDF

// Pinocchio's columns: q along q ⊕ dq (base: H exp(η^) with the body twist held — our η and
// Body representation), v, tau; its joints in its own order (the interop permutation).
TEST_CASE("constraint derivatives: Pinocchio reference, solo12 and talos",
          "[constraints][derivatives][pinocchio]") {
  using liedyn::interop::Library;
  for (const liedyn::test::PinocchioContactCase& pc : liedyn::test::pinocchio_contact_cases()) {
    INFO(pc.file);
    const Model<double>& model = pc.model;
    const liedyn::test::PinocchioDump& d = pc.dump;
    const auto& perm = pc.perm;
    const State<double>& x = pc.x;
    const VectorX<double>& tau = pc.tau;
    const ConstraintSet<double> set(model, pc.specs);
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    liedyn::constrained_forward_dynamics_derivatives(model, data, set, cd, x, tau,
                                                     TwistRepresentation::Body);
    // T: our generalized vectors to Pinocchio's (joint permutation, same base block).
    const MatrixX<double> T =
        liedyn::interop::velocity_matrix(Library::Pinocchio, model, x.H, perm);
    const int nv = model.nv();
    const double errors[6] = {
        relative_error(MatrixX<double>(T * cd.ddq_dx.leftCols(nv) * T.transpose()),
                       d.mat("ddq_dq")),
        relative_error(MatrixX<double>(T * cd.ddq_dx.rightCols(nv) * T.transpose()),
                       d.mat("ddq_dv")),
        relative_error(MatrixX<double>(T * cd.ddq_dtau * T.transpose()), d.mat("ddq_dtau")),
        relative_error(MatrixX<double>(cd.lambda_dx.leftCols(nv) * T.transpose()),
                       d.mat("dlambda_dq")),
        relative_error(MatrixX<double>(cd.lambda_dx.rightCols(nv) * T.transpose()),
                       d.mat("dlambda_dv")),
        relative_error(MatrixX<double>(cd.lambda_dtau * T.transpose()), d.mat("dlambda_dtau"))};
    WARN(pc.file << ": relative errors ddq_dq " << errors[0] << ", ddq_dv " << errors[1]
                 << ", ddq_dtau " << errors[2] << ", dlambda_dq " << errors[3] << ", dlambda_dv "
                 << errors[4] << ", dlambda_dtau " << errors[5]);
    // The bound, 1e-9 relative: Pinocchio's own q columns agree with its central
    // differences to ~4e-10 (the file's `check fd_*`), its analytic ones are what we compare.
    for (double e : errors) LIEDYN_CHECK_BELOW(e, 1e-9);
  }
}
#endif

// At an equilibrium on the manifold (ν̄ = 0, e = 0, τ̄ = h − Jᵀλ₀ so that q̈ = 0 and λ = λ₀) with
// Baumgarte gains on every row, the linearized error dynamics are δë + Kd δė + Kp δe = 0 row by
// row: the full A has the roots of s² + Kd s + Kp, m times each, on the forbidden motions, and
// the reduced A_r has the other 2nv − 2m eigenvalues of A and none of those.
TEST_CASE("constrained linearization: on the constraint manifold at an equilibrium",
          "[constraints][derivatives][linearization]") {
  const Model<double> model = liedyn::test::chains_model<double>(29);
  auto rng = liedyn::test::make_rng(12);
  State<double> x = liedyn::random_state(model, rng);
  x.nu.setZero();
  x.r.setZero();
  const double Kp = 4, Kd = 1.5;
  auto specs = liedyn::test::every_type<double>(TwistRepresentation::Mixed, true, model, x, rng);
  for (auto& c : specs) {
    c.Kp = Kp;
    c.Kd = Kd;
  }
  const ConstraintSet<double> set(model, specs);
  const int nv = model.nv(), m = set.dimension(), N = 2 * nv;
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  liedyn::constraint_kinematics(model, data, set, cd, x);
  REQUIRE(cd.position_error.cwiseAbs().maxCoeff() < 1e-12);
  VectorX<double> lambda0(m);
  for (int k = 0; k < m; ++k) lambda0(k) = liedyn::test::uniform(rng, -3, 3);
  liedyn::bias_force(model, data, x);
  const VectorX<double> tau = data.h - cd.J.transpose() * lambda0;

  for (TwistRepresentation rep : liedyn::test::kSenses) {
    INFO("representation " << liedyn::to_string(rep));
    liedyn::LinearizationOptions<double> opt;
    opt.representation = rep;
    liedyn::ReducedLinearization<double> red(model, set);
    liedyn::linearize_reduced(model, data, set, cd, x, tau, red, opt);
    CHECK(relative_error(cd.ddq, VectorX<double>(VectorX<double>::Zero(nv))) < 1e-10);
    CHECK(relative_error(cd.lambda, lambda0) < 1e-10);
    REQUIRE(red.rank == 2 * m);
    REQUIRE(red.dimension() == N - 2 * m);
    const MatrixX<double>& P = red.basis;
    const int k = red.dimension();
    // Orthonormal, tangent, invariant: PᵀP = 1, C P = 0, A P = P A_r (to rounding: 1e-12 of A).
    CHECK(relative_error(MatrixX<double>(P.transpose() * P),
                         MatrixX<double>(MatrixX<double>::Identity(k, k))) < 1e-13);
    CHECK(relative_error(MatrixX<double>(red.constraint_map * P),
                         MatrixX<double>(MatrixX<double>::Zero(2 * m, k))) < 1e-12);
    const double scale = data.linearization.A.cwiseAbs().maxCoeff();
    LIEDYN_CHECK_BELOW(liedyn::test::scaled_error(MatrixX<double>(data.linearization.A * P),
                                                  MatrixX<double>(P * red.A), scale),
                       1e-12);
    CHECK(relative_error(red.B, MatrixX<double>(P.transpose() * data.linearization.B)) < 1e-13);

    // Spectra.
    const Eigen::VectorXcd full =
        Eigen::EigenSolver<MatrixX<double>>(data.linearization.A, false).eigenvalues();
    const Eigen::VectorXcd reduced =
        Eigen::EigenSolver<MatrixX<double>>(red.A, false).eigenvalues();
    const std::complex<double> root(-Kd / 2, std::sqrt(Kp - Kd * Kd / 4));
    auto near_root = [&](std::complex<double> z) {
      return std::min(std::abs(z - root), std::abs(z - std::conj(root))) < 1e-6;
    };
    int full_at_roots = 0, reduced_at_roots = 0;
    for (Eigen::Index i = 0; i < full.size(); ++i) full_at_roots += near_root(full(i));
    for (Eigen::Index i = 0; i < reduced.size(); ++i) {
      reduced_at_roots += near_root(reduced(i));
      double nearest = std::numeric_limits<double>::infinity();
      for (Eigen::Index j = 0; j < full.size(); ++j)
        nearest = std::min(nearest, std::abs(reduced(i) - full(j)));
      CHECK(nearest < 1e-8 * (1 + std::abs(reduced(i))));
    }
    CHECK(full_at_roots == 2 * m);
    CHECK(reduced_at_roots == 0);
  }
}

}  // namespace LIEDYN_UNITY_ID
