// liedyn tests — constraints: contacts, loop closures and couplings (model/constraint.hpp),
// their kinematics (J, drift, errors), constrained forward dynamics (exact KKT route), impulse
// dynamics and assembly.
//   * Pinocchio 3.7's constraintDynamics / impulseDynamics for solo12 (4 point feet) and talos
//     (2 rigid soles), LOCAL = body and LOCAL_WORLD_ALIGNED = mixed (tests/data/*.contacts*.txt).
//   * J against central differences of the position error (long double), the drift against
//     central differences of J ν̄ along a trajectory, for every type and sense.
//   * The KKT identities, Gauss's principle, equivalence of the senses, every scalar type, no
//     allocation, and the errors for bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/algorithm/constraint_kinematics.hpp>
#include <liedyn/algorithm/constraint_projection.hpp>
#include <liedyn/algorithm/impulse_dynamics.hpp>
#include <liedyn/testing/samples.hpp>
#ifdef LIEDYN_HAS_URDF
#include <liedyn/interop/all.hpp>
#include <liedyn/model/urdf.hpp>
#endif

#include "support/constraint_cases.hpp"
#include "support/pinocchio_dump.hpp"
#ifdef LIEDYN_HAS_URDF
#include "support/pinocchio_contact_cases.hpp"
#endif
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using liedyn::ConstraintData;
using liedyn::ConstraintError;
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

using liedyn::test::chains_model;
using liedyn::test::every_type;
using liedyn::test::kSenses;

template <class S>
Model<S> tree_model(int num_joints, std::uint32_t seed) {
  std::mt19937 rng(seed);
  return liedyn::random_model<double>(num_joints, rng).template cast<S>();
}

}  // namespace

// ------------------------------------------------------------------------------------------
// Kinematics: J and the drift against finite differences
// ------------------------------------------------------------------------------------------

TEST_CASE(
    "constraints: J is the derivative of the position error along the group, every type and sense",
    "[constraints]") {
  using L = long double;
  const Model<L> model = chains_model<L>(11);
  auto rng = liedyn::test::make_rng(5);
  for (TwistRepresentation sense : kSenses) {
    INFO(liedyn::to_string(sense));
    const State<L> x = liedyn::random_state(model, rng);
    const ConstraintSet<L> set(model, every_type<L>(sense, true, model, x, rng));
    Data<L> data(model);
    ConstraintData<L> cd(model, set);
    liedyn::constraint_kinematics(model, data, set, cd, x);
    const MatrixX<L> J = cd.J;
    // Each constraint's support (the columns constraint_rows forms) is increasing, closed under
    // the coordinate tree's ancestors, and holds every nonzero column of its rows.
    for (const auto& c : set.constraints()) {
      INFO(c.name);
      std::vector<bool> in(model.nv(), false);
      for (std::size_t k = 0; k < c.support.size(); ++k) {
        if (k > 0) CHECK(c.support[k - 1] < c.support[k]);
        in[c.support[k]] = true;
      }
      for (const int d : c.support)
        if (model.dof_parent(d) >= 0) CHECK(in[model.dof_parent(d)]);
      for (int d = 0; d < model.nv(); ++d)
        if (!in[d]) CHECK(J.block(c.row, d, c.dim, 1).isZero(0));
    }
    // for_each_supported_run: the union of the supports within [begin, end), as increasing
    // maximal runs (a run ends where the next coordinate is off every support).
    std::vector<bool> on_some(model.nv(), false);
    for (const auto& c : set.constraints())
      for (const int d : c.support) on_some[d] = true;
    for (const std::pair<int, int>& range :
         {std::pair{0, model.nv()}, std::pair{2, model.nv() - 3}}) {
      const int begin = range.first, end = range.second;  // captured below: not a binding
      std::vector<bool> covered(model.nv(), false);
      int previous_end = -1;
      set.for_each_supported_run(begin, end, [&](int first, int len) {
        CHECK(len > 0);
        CHECK(first >= begin);
        CHECK(first + len <= end);
        CHECK((first > previous_end || previous_end < 0));
        CHECK((first == begin || !on_some[first - 1]));
        CHECK((first + len == end || !on_some[first + len]));
        for (int d = first; d < first + len; ++d) covered[d] = true;
        previous_end = first + len;
      });
      for (int d = 0; d < model.nv(); ++d)
        CHECK(covered[d] == (on_some[d] && d >= begin && d < end));
    }
    // Central differences of e along x ⊕ (t δ) for δ = the unit vectors (positions only).
    const int nv = model.nv();
    const L h = 1e-7L;
    MatrixX<L> J_fd(set.dimension(), nv);
    for (int k = 0; k < nv; ++k) {
      VectorX<L> d = VectorX<L>::Zero(2 * nv);
      d(k) = h;
      State<L> xp = liedyn::integrate(model, x, d),
               xm = liedyn::integrate(model, x, VectorX<L>(-d));
      liedyn::constraint_kinematics(model, data, set, cd, xp);
      const VectorX<L> ep = cd.position_error;
      liedyn::constraint_kinematics(model, data, set, cd, xm);
      J_fd.col(k) = (ep - cd.position_error) / (2 * h);
    }
    // Central differences with h = 1e-7 in long double: truncation h² ~ 1e-14 times the third
    // derivative (O(10) for these trees), rounding 1e-19 / h ~ 1e-12.
    LIEDYN_CHECK_BELOW(relative_error(J, J_fd), 1e-9);
  }
}

TEST_CASE("constraints: each type's row blocks tile its full_dimension rows in order",
          "[constraints]") {
  // row_layout is the one row map the kinematics, their derivatives and the wrench read: its
  // blocks must cover rows 0..full_dimension − 1 once, in order (a coupling's one row has none).
  for (ConstraintType t :
       {ConstraintType::PointContact, ConstraintType::RigidContact, ConstraintType::RigidLoop,
        ConstraintType::BallLoop, ConstraintType::RevoluteLoop, ConstraintType::PrismaticLoop}) {
    CAPTURE(liedyn::to_string(t));
    int next = 0;
    for (const liedyn::RowBlock& b : liedyn::row_layout(t)) {
      CHECK(b.row == next);
      CHECK((b.part == 0 || b.part == 3));
      next += b.size();
    }
    CHECK(next == liedyn::full_dimension(t));
  }
  CHECK(liedyn::row_layout(ConstraintType::Coupling).count == 0);
}

TEST_CASE("constraints: the drift is d/dt (J nu) - J ddq along a trajectory, every type and sense",
          "[constraints]") {
  using L = long double;
  using V6 = Eigen::Matrix<L, 6, 1>;
  const Model<L> model = chains_model<L>(12);
  auto rng = liedyn::test::make_rng(6);
  const State<L> x = liedyn::random_state(model, rng);
  const int nv = model.nv(), off = model.offset();
  VectorX<L> ddq(nv);
  for (int k = 0; k < nv; ++k) ddq(k) = liedyn::test::uniform(rng, -1, 1);
  // x(t): pose H exp(t ν), s + t r, velocities ν̄ + t q̈ (only its derivative at t = 0 counts).
  auto at = [&](L t) {
    State<L> y = x;
    y.H = x.H * SE3<L>::exp(V6(t * x.nu));
    y.s = x.s + t * x.r;
    y.nu = x.nu + t * ddq.template head<6>();
    y.r = x.r + t * ddq.segment(off, nv - off);
    return y;
  };
  Data<L> data(model);
  std::map<TwistRepresentation, VectorX<L>> predicted, rate;
  for (TwistRepresentation sense : kSenses) {
    auto axes = liedyn::test::make_rng(100);  // the same loop axes for every sense
    const ConstraintSet<L> set(model, every_type<L>(sense, false, model, x, axes));
    ConstraintData<L> cd(model, set);
    auto rows_velocity = [&](const State<L>& y) {
      liedyn::constraint_kinematics(model, data, set, cd, y);
      return VectorX<L>(cd.velocity_error);  // v* = 0: J ν̄
    };
    const L h = 1e-6L;
    rate[sense] = (rows_velocity(at(h)) - rows_velocity(at(-h))) / (2 * h);
    liedyn::constraint_kinematics(model, data, set, cd, x);
    predicted[sense] = cd.J * ddq + cd.drift;
    CHECK(cd.gamma == cd.drift);  // no gains, no targets
  }
  // Point contact (rows 0..2) in body sense: the classical acceleration, + ω_F × (J ν̄).
  const V6 vF =
      liedyn::frame_velocity(model, data, x, model.frame_id("c0_4"), TwistRepresentation::Body);
  rate[TwistRepresentation::Body].template head<3>() +=
      vF.template tail<3>().cross(vF.template head<3>());
  // Rows 3..14 are the rigid contact and loop: their drift is the intrinsic acceleration, which is
  // d/dt of the inertial rows and, in body and mixed sense, those rows' change of frame.
  liedyn::forward_poses(model, data, x);
  const SE3<L> HF = liedyn::frame_pose(model, data, model.frame_id("c1_4"));
  const SE3<L> H2 = liedyn::frame_pose(model, data, model.frame_id("c3_4"));
  const VectorX<L>& inertial = predicted[TwistRepresentation::Inertial];
  auto to_body = [](const SE3<L>& H, const V6& w) {
    return V6(H.act_inverse(liedyn::Motion<L>(w)).vector());
  };
  auto to_mixed = [&](const SE3<L>& H, const V6& w) {
    const V6 b = to_body(H, w);
    V6 m;
    m << H.rotation() * b.template head<3>(), H.rotation() * b.template tail<3>();
    return m;
  };
  rate[TwistRepresentation::Body].template segment<6>(3) =
      to_body(HF, inertial.template segment<6>(3));
  rate[TwistRepresentation::Body].template segment<6>(9) =
      to_body(H2, inertial.template segment<6>(9));
  rate[TwistRepresentation::Mixed].template segment<6>(3) =
      to_mixed(HF, inertial.template segment<6>(3));
  rate[TwistRepresentation::Mixed].template segment<6>(9) =
      to_mixed(H2, inertial.template segment<6>(9));
  for (TwistRepresentation sense : kSenses) {
    INFO(liedyn::to_string(sense));
    // h = 1e-6 central differences in long double: truncation ~1e-12 · O(10), rounding ~1e-13.
    LIEDYN_CHECK_BELOW(relative_error(predicted[sense], rate[sense]), 1e-9);
  }
}

// ------------------------------------------------------------------------------------------
// Forward dynamics: identities, Gauss's principle, senses
// ------------------------------------------------------------------------------------------

TEST_CASE("constraints: KKT identities and Gauss's principle on a random tree with every type",
          "[constraints]") {
  const Model<double> model = chains_model<double>(13);
  auto rng = liedyn::test::make_rng(7);
  for (TwistRepresentation sense : kSenses) {
    INFO(liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    auto specs = every_type<double>(sense, true, model, x, rng);
    for (auto& c : specs) {  // gains and targets enter γ only; exercise them
      c.Kp = 3.0;
      c.Kd = 2.0;
    }
    const ConstraintSet<double> set(model, specs);
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    VectorX<double> tau(model.nv());
    for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
    const VectorX<double> ddq = liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    const MatrixX<double> M = data.M;
    const VectorX<double> h = data.h;
    // Both identities to rounding: the solve is backward stable, and the scale is that of
    // M q̈ (‖M‖ ‖q̈‖ ≲ 1e3 here), so 1e-12 relative to max(1, ‖·‖).
    LIEDYN_CHECK_BELOW(relative_error(VectorX<double>(cd.J * ddq + cd.gamma),
                                      VectorX<double>::Zero(set.dimension())) /
                           std::max(1.0, cd.J.cwiseAbs().maxCoeff() * ddq.cwiseAbs().maxCoeff()),
                       1e-12);
    const VectorX<double> lhs = M * ddq + h - tau;
    LIEDYN_CHECK_BELOW(relative_error(lhs, VectorX<double>(cd.J.transpose() * cd.lambda)), 1e-11);
    // Gauss: q̈ minimizes G(a) = ½ (a − q̈_free)ᵀ M (a − q̈_free) over J a = −γ. For z in ker J,
    // G(q̈ + z) − G(q̈) = ½ zᵀ M z exactly (the linear term λᵀ J z vanishes).
    const VectorX<double> free = M.llt().solve(tau - h);
    const MatrixX<double> N = Eigen::FullPivLU<MatrixX<double>>(cd.J).kernel();
    REQUIRE(N.cols() == model.nv() - set.dimension());
    auto G = [&](const VectorX<double>& a) { return 0.5 * (a - free).dot(M * (a - free)); };
    for (int trial = 0; trial < 5; ++trial) {
      VectorX<double> w(N.cols());
      for (int k = 0; k < w.size(); ++k) w(k) = liedyn::test::uniform(rng, -1, 1);
      const VectorX<double> z = 1e-3 * N * w;
      const double increase = G(ddq + z) - G(ddq);
      CHECK(increase > 0);
      // Absolute rounding of G (≈ 1e4 here) is ~1e-12; the increase is ~1e-6.
      LIEDYN_CHECK_BELOW(std::abs(increase - 0.5 * z.dot(M * z)) / (0.5 * z.dot(M * z)), 1e-5);
    }
  }
}

TEST_CASE(
    "constraints: the four routes of constrained_forward_dynamics agree, every type and sense",
    "[constraints][routes]") {
  using liedyn::ConstrainedDynamicsOptions;
  using liedyn::ConstrainedDynamicsRoute;
  const Model<double> model = chains_model<double>(17);
  auto rng = liedyn::test::make_rng(23);
  for (TwistRepresentation sense : kSenses) {
    INFO(liedyn::to_string(sense));
    const State<double> x = liedyn::random_state(model, rng);
    auto specs = every_type<double>(sense, true, model, x, rng);
    for (auto& c : specs) {
      c.Kp = 3.0;
      c.Kd = 2.0;
    }
    const ConstraintSet<double> set(model, specs);
    Data<double> data(model);
    ConstraintData<double> cd(model, set);
    VectorX<double> tau(model.nv());
    for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
    const VectorX<double> ddq = liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    const VectorX<double> lambda = cd.lambda;
    for (ConstrainedDynamicsRoute route :
         {ConstrainedDynamicsRoute::Proximal, ConstrainedDynamicsRoute::Projector,
          ConstrainedDynamicsRoute::MinimalCoordinates}) {
      INFO("route " << static_cast<int>(route));
      ConstrainedDynamicsOptions<double> opt;
      opt.route = route;
      // Minimal coordinates lose about ε κ₁(J_d)² (docs/constraint-solvers.md): a partition
      // conditioned below 100 keeps that under 1e-11.
      opt.minimal.condition_limit = 100;
      const VectorX<double> other =
          liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau, opt);
      // Each route is backward stable on this well-conditioned set: 1e-10 relative is the issue's
      // bound.
      LIEDYN_CHECK_BELOW(relative_error(other, ddq), 1e-10);
      LIEDYN_CHECK_BELOW(relative_error(cd.lambda, lambda), 1e-10);
    }
  }
}

TEST_CASE(
    "constraints: the three senses give the same motion, with lambdas related by wrench transforms",
    "[constraints]") {
  const Model<double> model = chains_model<double>(14);
  auto rng = liedyn::test::make_rng(8);
  State<double> x = liedyn::random_state(model, rng);
  VectorX<double> tau(model.nv());
  for (int k = 0; k < model.nv(); ++k) tau(k) = liedyn::test::uniform(rng, -5, 5);
  Data<double> data(model);
  std::vector<VectorX<double>> ddq, lambda;
  std::vector<SE3<double>> pose;
  bool first = true;
  for (TwistRepresentation sense : kSenses) {
    using CS = ConstraintSpec<double>;
    const ConstraintSet<double> set(
        model, {CS::rigid_contact("c1_4", sense), CS::point_contact("c0_4", sense),
                CS::loop(ConstraintType::RigidLoop, "c2_4", "c3_4", sense)});
    ConstraintData<double> cd(model, set);
    // The senses agree where the constraint velocities vanish (the drifts of different senses
    // differ by terms in J ν̄): make the velocity consistent once.
    if (first) liedyn::project_velocity(model, data, set, cd, x);
    first = false;
    liedyn::constraint_kinematics(model, data, set, cd, x);
    CHECK(cd.velocity_error.cwiseAbs().maxCoeff() < 1e-12);
    ddq.push_back(liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau));
    lambda.push_back(cd.lambda);
  }
  liedyn::forward_poses(model, data, x);
  const SE3<double> HF = liedyn::frame_pose(model, data, model.frame_id("c1_4"));
  const SE3<double> HP = liedyn::frame_pose(model, data, model.frame_id("c0_4"));
  const SE3<double> H2 = liedyn::frame_pose(model, data, model.frame_id("c3_4"));
  // Same q̈ to rounding (the three solves use different but equivalent rows).
  LIEDYN_CHECK_BELOW(relative_error(ddq[1], ddq[0]), 1e-10);
  LIEDYN_CHECK_BELOW(relative_error(ddq[2], ddq[0]), 1e-10);
  auto rotate = [](const SE3<double>& H, const Eigen::Matrix<double, 6, 1>& f) {
    Eigen::Matrix<double, 6, 1> out;
    out << H.rotation() * f.head<3>(), H.rotation() * f.tail<3>();
    return out;
  };
  const VectorX<double>& lb = lambda[0];
  // Rigid contact: mixed = blockdiag(R, R) body; inertial = _A X^F body.
  LIEDYN_CHECK_BELOW(relative_error(VectorX<double>(lambda[1].head<6>()),
                                    VectorX<double>(rotate(HF, lb.head<6>()))),
                     1e-10);
  LIEDYN_CHECK_BELOW(
      relative_error(VectorX<double>(lambda[2].head<6>()),
                     VectorX<double>(HF.act(liedyn::Force<double>(lb.head<6>())).vector())),
      1e-10);
  // Point contact: mixed = inertial = R body.
  const Eigen::Vector3d fp = HP.rotation() * lb.segment<3>(6);
  LIEDYN_CHECK_BELOW(relative_error(Eigen::Vector3d(lambda[1].segment<3>(6)), fp), 1e-10);
  LIEDYN_CHECK_BELOW(relative_error(Eigen::Vector3d(lambda[2].segment<3>(6)), fp), 1e-10);
  // Rigid loop: frame 2's wrench, transformed like the contact's.
  LIEDYN_CHECK_BELOW(relative_error(VectorX<double>(lambda[1].segment<6>(9)),
                                    VectorX<double>(rotate(H2, lb.segment<6>(9)))),
                     1e-10);
  LIEDYN_CHECK_BELOW(
      relative_error(VectorX<double>(lambda[2].segment<6>(9)),
                     VectorX<double>(H2.act(liedyn::Force<double>(lb.segment<6>(9))).vector())),
      1e-10);
}

// ------------------------------------------------------------------------------------------
// Every scalar type, no allocation
// ------------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE(
    "constraints: forward and impulse dynamics in every scalar type, without allocation",
    "[constraints][scalar]", float, double, long double, liedyn::test::AD6) {
  using S = TestType;
  using L = long double;
  const Model<L> model_l = chains_model<L>(15);
  auto rng = liedyn::test::make_rng(9);
  const State<L> x_l = liedyn::random_state(model_l, rng);
  auto specs_l = every_type<L>(TwistRepresentation::Mixed, true, model_l, x_l, rng);
  for (auto& c : specs_l) {
    c.Kp = 2;
    c.Kd = 1;
  }
  VectorX<L> tau_l(model_l.nv());
  for (int k = 0; k < model_l.nv(); ++k) tau_l(k) = liedyn::test::uniform(rng, -5, 5);
  const ConstraintSet<L> set_l(model_l, specs_l);
  Data<L> data_l(model_l);
  ConstraintData<L> cd_l(model_l, set_l);
  const VectorX<L> ddq_l =
      liedyn::constrained_forward_dynamics(model_l, data_l, set_l, cd_l, x_l, tau_l);
  const VectorX<L> lambda_l = cd_l.lambda;
  const VectorX<L> v_l = liedyn::impulse_dynamics(model_l, data_l, set_l, cd_l, x_l, L(0.3));

  const Model<S> model = model_l.template cast<S>();
  const ConstraintSet<S> set = set_l.template cast<S>();
  const State<S> x = x_l.template cast<S>();
  const VectorX<S> tau = liedyn::test::from_long_double<S>(tau_l);
  Data<S> data(model);
  ConstraintData<S> cd(model, set);
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    liedyn::impulse_dynamics(model, data, set, cd, x, S(0.3));
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
  liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
  // The KKT solve's conditioning (‖W‖‖W⁻¹‖ ~ 1e3 on this tree) costs ~3 digits over the
  // kernels' own tolerance.
  const double tol = 1e3 * liedyn::test::tolerance<S>();
  LIEDYN_CHECK_BELOW(relative_error(cd.ddq, ddq_l), tol);
  LIEDYN_CHECK_BELOW(relative_error(cd.lambda, lambda_l), tol);
  liedyn::impulse_dynamics(model, data, set, cd, x, S(0.3));
  LIEDYN_CHECK_BELOW(relative_error(cd.v_after, v_l), tol);
}

// ------------------------------------------------------------------------------------------
// Impulses and assembly
// ------------------------------------------------------------------------------------------

TEST_CASE("constraints: impulse dynamics meets J v+ = -e J v- with M (v+ - v-) = J^T impulse",
          "[constraints]") {
  const Model<double> model = chains_model<double>(16);
  auto rng = liedyn::test::make_rng(10);
  const State<double> x = liedyn::random_state(model, rng);
  const ConstraintSet<double> set(
      model, every_type<double>(TwistRepresentation::Body, false, model, x, rng));
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  const double e = 0.6;
  const VectorX<double> v_after = liedyn::impulse_dynamics(model, data, set, cd, x, e);
  const VectorX<double> v = x.velocity(model);
  const VectorX<double> before = cd.J * v, after = cd.J * v_after;
  VectorX<double> target(set.dimension());
  for (const auto& c : set.constraints())
    target.segment(c.row, c.dim) =
        (liedyn::is_contact(c.type) ? -e : 0.0) * before.segment(c.row, c.dim);
  // Rounding of the solve relative to ‖J‖ ‖v‖ (~10 here).
  LIEDYN_CHECK_BELOW(relative_error(after, target), 1e-12);
  LIEDYN_CHECK_BELOW(relative_error(VectorX<double>(data.M * (v_after - v)),
                                    VectorX<double>(cd.J.transpose() * cd.impulse)),
                     1e-12);
}

TEST_CASE("constraints: assembly projects a configuration and a velocity onto the manifold",
          "[constraints]") {
  const Model<double> model = chains_model<double>(17);
  auto rng = liedyn::test::make_rng(11);
  const State<double> x0 = liedyn::random_state(model, rng);
  // Placements taken at x0, so x0 lies on the manifold; start from a perturbed configuration.
  const ConstraintSet<double> set(
      model, every_type<double>(TwistRepresentation::Mixed, true, model, x0, rng));
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  VectorX<double> d = VectorX<double>::Zero(2 * model.nv());
  for (int k = 0; k < model.nv(); ++k) d(k) = liedyn::test::uniform(rng, -0.05, 0.05);
  State<double> x = liedyn::integrate(model, x0, d);
  liedyn::constraint_jacobian(model, data, set, cd, x);
  const double before = cd.position_error.cwiseAbs().maxCoeff();
  const int steps = liedyn::project_configuration(model, data, set, cd, x);
  CHECK(before > 1e-3);
  CHECK(steps <= 8);  // quadratic convergence from 5e-2
  liedyn::constraint_jacobian(model, data, set, cd, x);
  CHECK(cd.position_error.cwiseAbs().maxCoeff() <= 1e-12);
  liedyn::project_velocity(model, data, set, cd, x);
  liedyn::constraint_jacobian(model, data, set, cd, x);
  // Rounding relative to ‖J‖ ‖ν̄‖.
  CHECK(cd.velocity_error.cwiseAbs().maxCoeff() < 1e-12);
  // The velocity projection is M-orthogonal: a second one changes nothing.
  const VectorX<double> v1 = x.velocity(model);
  liedyn::project_velocity(model, data, set, cd, x);
  LIEDYN_CHECK_BELOW(relative_error(x.velocity(model), v1), 1e-13);
}

// ------------------------------------------------------------------------------------------
// Bad input
// ------------------------------------------------------------------------------------------

TEST_CASE("constraints: bad input gives clear errors", "[constraints]") {
  using CS = ConstraintSpec<double>;
  const Model<double> model = tree_model<double>(10, 18);
  auto message = [&](const std::vector<CS>& specs) {
    try {
      const ConstraintSet<double> set(model, specs);
    } catch (const ConstraintError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message({CS::point_contact("FOOT")}), Catch::Contains("no frame named 'FOOT'"));
  CHECK_THAT(message({CS::loop(ConstraintType::BallLoop, "body2", "nowhere")}),
             Catch::Contains("'nowhere'"));
  CHECK_THAT(message({CS::coupling("joint3", "joint9x", 1.0)}),
             Catch::Contains("no joint named 'joint9x'"));
  CHECK_THAT(message({CS::coupling("joint3", "joint3", 1.0)}),
             Catch::Contains("coupled to itself"));
  CHECK_THAT(
      message({CS::coupling("joint3", "joint4", 1.0), CS::coupling("joint3", "joint5", 2.0)}),
      Catch::Contains("already coupled"));
  CHECK_THAT(message({CS::coupling("joint3", "joint4", std::nan(""))}), Catch::Contains("finite"));
  CHECK_THAT(message({CS::loop(ConstraintType::RevoluteLoop, "body2", "body5",
                               TwistRepresentation::Inertial)}),
             Catch::Contains("no inertial sense"));
  CS gain = CS::point_contact("body3");
  gain.Kp = 1;
  CHECK_THAT(message({gain}), Catch::Contains("needs a desired placement"));

  // Rank deficiency: the same point twice (names differ so that the message can name both).
  CS a = CS::point_contact("body3"), b = CS::point_contact("body3", TwistRepresentation::Mixed);
  a.name = "left";
  b.name = "left again";
  const ConstraintSet<double> set(model, {a, b});
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  auto rng = liedyn::test::make_rng(12);
  const State<double> x = liedyn::random_state(model, rng);
  std::string what = "no error";
  try {
    liedyn::constrained_forward_dynamics(model, data, set, cd, x,
                                         VectorX<double>::Zero(model.nv()));
  } catch (const ConstraintError& e) {
    what = e.what();
  }
  CHECK_THAT(what, Catch::Contains("rank deficient") &&
                       Catch::Contains("'left again' (point contact)") &&
                       Catch::Contains("'left' (point contact)"));
}

// ------------------------------------------------------------------------------------------
// Pinocchio 3.7 reference
// ------------------------------------------------------------------------------------------

#ifdef LIEDYN_HAS_URDF

TEST_CASE("constraints: Pinocchio reference, constrained and impulse dynamics of solo12 and talos",
          "[constraints][pinocchio]") {
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
    const VectorX<double> ddq = liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    // Pinocchio's layout: joint columns permuted, base block the same (body twist).
    const MatrixX<double> T =
        liedyn::interop::velocity_matrix(Library::Pinocchio, model, x.H, perm);
    const MatrixX<double> J_pin = cd.J * T.transpose();
    const VectorX<double> ddq_pin =
        liedyn::interop::acceleration_to(Library::Pinocchio, model, x, ddq, perm);
    const double e_J = relative_error(J_pin, d.mat("constraint_jacobian"));
    const double e_ddq = relative_error(ddq_pin, d.vec("ddq"));
    const double e_lambda = relative_error(cd.lambda, d.vec("lambda_c"));
    const VectorX<double> v_after = liedyn::interop::velocity_to(
        Library::Pinocchio, model,
        [&] {
          State<double> y = x;
          const VectorX<double> v = liedyn::impulse_dynamics(model, data, set, cd, x, 0.0);
          y.nu = v.head<6>();
          y.r = v.tail(model.num_joints());
          return y;
        }(),
        perm);
    const double e_v = relative_error(v_after, d.vec("impulse_v_after"));
    const double e_impulse = relative_error(cd.impulse, d.vec("impulse_c"));
    WARN(pc.file << ": relative errors J " << e_J << ", ddq " << e_ddq << ", lambda " << e_lambda
                 << ", v+ " << e_v << ", impulse " << e_impulse);
    // The bound: 1e-10 relative (to max(1, ‖reference‖_max)). Pinocchio's own
    // consistency is ~1e-13; Talos' λ and q̈ are O(1e3), computed through W⁻¹ (cond ~1e6).
    LIEDYN_CHECK_BELOW(e_J, 1e-10);
    LIEDYN_CHECK_BELOW(e_ddq, 1e-10);
    LIEDYN_CHECK_BELOW(e_lambda, 1e-10);
    LIEDYN_CHECK_BELOW(e_v, 1e-10);
    LIEDYN_CHECK_BELOW(e_impulse, 1e-10);
  }
}
#endif

}  // namespace LIEDYN_UNITY_ID
