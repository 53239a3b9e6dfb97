// liedyn tests — the batch layer (algorithm/batch.hpp): every batch entry point equals, bit for
// bit, the single kernel called on each state with a Data of its own, for 1, 2 and 4 threads,
// with moving and welded bases and with constraints; a failing state is named, the lowest of
// several; a batch call allocates nothing once its workspace exists.
//
// Equality is exact (no tolerance): a state's result must not depend on the thread count or on
// which worker (and which Data, with which history) computed it.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include <liedyn/algorithm/batch.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/constraint_cases.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

using liedyn::BatchWorkspace;
using liedyn::ConstraintSet;
using liedyn::Data;
using liedyn::Model;
using liedyn::State;
using M = liedyn::MatrixX<double>;
using ConstraintData = liedyn::ConstraintData<double>;

constexpr int kThreadCounts[] = {1, 2, 4};

bool same(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}

/// N random states of `model` as a state block, and the States themselves.
struct Batch {
  std::vector<State<double>> x;
  M states;
};

Batch random_batch(const Model<double>& model, int N, std::mt19937& rng) {
  Batch b;
  b.states.resize(liedyn::batch_state_size(model), N);
  for (int i = 0; i < N; ++i) {
    b.x.push_back(liedyn::random_state(model, rng));
    liedyn::write_state_column(model, b.x.back(), b.states.col(i));
  }
  return b;
}

M random_block(int rows, int cols, std::mt19937& rng) {
  M m(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) m(r, c) = double(liedyn::test::uniform(rng, -1, 1));
  return m;
}

// --- the unconstrained kernels --------------------------------------------------------------

void check_unconstrained_kernels(const Model<double>& model, std::uint32_t seed) {
  auto rng = liedyn::test::make_rng(seed);
  const int N = 7, nv = model.nv(), K = 3;
  const Batch b = random_batch(model, N, rng);
  const M ddq = random_block(nv, N, rng), tau = random_block(nv, N, rng);
  const M controls = random_block(nv, K * N, rng);
  const double dt = 0.01;
  std::vector<int> frames;
  for (int f = 0; f < static_cast<int>(model.frames().size()); f += 3) frames.push_back(f);
  const int F = static_cast<int>(frames.size());

  // The references: each state on a Data of its own.
  M placements(12 * F, N), rnea(nv, N), eidamb(nv, N), crba(nv, nv * N), aba(nv, N),
      minv(nv, nv * N), D(nv, 2 * nv * N), A(2 * nv, 2 * nv * N), B(2 * nv, nv * N),
      Ad(2 * nv, 2 * nv * N), Bd(2 * nv, nv * N), h(6, N);
  M rollout(b.states.rows(), (K + 1) * N), rollout_A(2 * nv, 2 * nv * K * N),
      rollout_B(2 * nv, nv * K * N);
  for (int i = 0; i < N; ++i) {
    const State<double>& x = b.x[i];
    {
      Data<double> d(model);
      liedyn::forward_poses(model, d, x);
      for (int f = 0; f < F; ++f) {
        const liedyn::SE3<double> H = liedyn::frame_pose(model, d, frames[f]);
        placements.block<9, 1>(12 * f, i) =
            Eigen::Map<const Eigen::Matrix<double, 9, 1>>(H.rotation().data());
        placements.block<3, 1>(12 * f + 9, i) = H.translation();
      }
    }
    {
      Data<double> d(model);
      rnea.col(i) = liedyn::rnea(model, d, x, ddq.col(i));
    }
    {
      Data<double> d(model);
      eidamb.col(i) = liedyn::eidamb(model, d, x, ddq.col(i));
    }
    {
      Data<double> d(model);
      crba.middleCols(i * nv, nv) = liedyn::crba(model, d, x);
    }
    {
      Data<double> d(model);
      aba.col(i) = liedyn::aba(model, d, x, tau.col(i));
    }
    {
      Data<double> d(model);
      minv.middleCols(i * nv, nv) = liedyn::immamb(model, d, x);
    }
    {
      Data<double> d(model);
      liedyn::eidamb_derivatives(model, d, x, ddq.col(i), liedyn::TwistRepresentation::Mixed);
      D.middleCols(2 * nv * i, 2 * nv) << d.derivatives.D1, d.derivatives.D2, d.derivatives.D3,
          d.derivatives.D4;
    }
    {
      Data<double> d(model);
      liedyn::linearize(model, d, x, tau.col(i));
      A.middleCols(2 * nv * i, 2 * nv) = d.linearization.A;
      B.middleCols(nv * i, nv) = d.linearization.B;
    }
    {
      Data<double> d(model);
      liedyn::linearize_discrete(model, d, x, tau.col(i), dt);
      Ad.middleCols(2 * nv * i, 2 * nv) = d.linearization.A;
      Bd.middleCols(nv * i, nv) = d.linearization.B;
    }
    {
      Data<double> d(model);
      h.col(i) = liedyn::centroidal_momentum(model, d, x);
    }
    {
      Data<double> d(model);
      State<double> y = x;
      rollout.col(i * (K + 1)) = b.states.col(i);
      for (int k = 0; k < K; ++k) {
        const int knot = i * K + k;
        liedyn::linearize_discrete(model, d, y, controls.col(knot), dt);
        rollout_A.middleCols(2 * nv * knot, 2 * nv) = d.linearization.A;
        rollout_B.middleCols(nv * knot, nv) = d.linearization.B;
        liedyn::semi_implicit_euler_step(model, d, y, controls.col(knot), dt, y);
        liedyn::write_state_column(model, y, rollout.col(i * (K + 1) + k + 1));
      }
    }
  }

  for (int T : kThreadCounts) {
    CAPTURE(T);
    BatchWorkspace<double> ws(model, T);
    M out;
    out.setZero(12 * F, N);
    liedyn::batch_frame_placements(model, ws, b.states, frames, out);
    CHECK(same(out, placements));
    out.setZero(nv, N);
    liedyn::batch_rnea(model, ws, b.states, ddq, out);
    CHECK(same(out, rnea));
    liedyn::batch_eidamb(model, ws, b.states, ddq, out);
    CHECK(same(out, eidamb));
    liedyn::batch_aba(model, ws, b.states, tau, out);
    CHECK(same(out, aba));
    out.setZero(nv, nv * N);
    liedyn::batch_crba(model, ws, b.states, out);
    CHECK(same(out, crba));
    liedyn::batch_immamb(model, ws, b.states, out);
    CHECK(same(out, minv));
    out.setZero(nv, 2 * nv * N);
    liedyn::batch_eidamb_derivatives(model, ws, b.states, ddq, out,
                                     liedyn::TwistRepresentation::Mixed);
    CHECK(same(out, D));
    M outA = M::Zero(2 * nv, 2 * nv * N), outB = M::Zero(2 * nv, nv * N);
    liedyn::batch_linearize(model, ws, b.states, tau, outA, outB);
    CHECK(same(outA, A));
    CHECK(same(outB, B));
    liedyn::batch_linearize_discrete(model, ws, b.states, tau, dt, outA, outB);
    CHECK(same(outA, Ad));
    CHECK(same(outB, Bd));
    out.setZero(6, N);
    liedyn::batch_centroidal_momentum(model, ws, b.states, out);
    CHECK(same(out, h));
    M states_out = M::Zero(rollout.rows(), rollout.cols());
    liedyn::batch_rollout(model, ws, b.states, controls, dt, states_out);
    CHECK(same(states_out, rollout));
    states_out.setZero();
    M rA = M::Zero(2 * nv, 2 * nv * K * N), rB = M::Zero(2 * nv, nv * K * N);
    liedyn::batch_rollout_with_jacobians(model, ws, b.states, controls, dt, states_out, rA, rB);
    CHECK(same(states_out, rollout));
    CHECK(same(rA, rollout_A));
    CHECK(same(rB, rollout_B));
  }
}

TEST_CASE("batch: every unconstrained kernel equals its single calls for 1, 2, 4 threads",
          "[batch]") {
  auto rng = liedyn::test::make_rng(41);
  liedyn::RandomModelOptions moving;
  moving.branching = 3;
  SECTION("moving base") { check_unconstrained_kernels(liedyn::random_model(11, rng, moving), 42); }
  liedyn::RandomModelOptions welded = moving;
  welded.moving_base = false;
  SECTION("welded base") { check_unconstrained_kernels(liedyn::random_model(9, rng, welded), 43); }
}

TEST_CASE("batch: the state column holds a state bit for bit", "[batch]") {
  auto rng = liedyn::test::make_rng(44);
  const Model<double> model = liedyn::random_model(5, rng);
  const State<double> x = liedyn::random_state(model, rng);
  Eigen::VectorXd column(liedyn::batch_state_size(model));
  REQUIRE(column.size() == 18 + 2 * 5);
  liedyn::write_state_column(model, x, column);
  State<double> y(model);
  liedyn::read_state_column(model, column, y);
  CHECK(y.H.rotation() == x.H.rotation());
  CHECK(y.H.translation() == x.H.translation());
  CHECK(y.s == x.s);
  CHECK(y.nu == x.nu);
  CHECK(y.r == x.r);
  CHECK(column.segment<3>(9) == x.H.translation());
  // A column whose R is no rotation (scaled by 2) is refused, naming R: used as given, it would
  // be a wrong answer without a word.
  column.head<9>() *= 2.0;
  CHECK_THROWS_WITH(liedyn::read_state_column(model, column, y),
                    Catch::Contains("read_state_column: the base rotation R is not a rotation "
                                    "matrix: R^T R differs from the identity by 3"));
}

// --- the constrained kernels ----------------------------------------------------------------

void check_constrained_kernels(const Model<double>& model, const ConstraintSet<double>& set,
                               const Batch& b, std::mt19937& rng) {
  const int N = static_cast<int>(b.x.size()), nv = model.nv(), m = set.dimension(), K = 2;
  const M tau = random_block(nv, N, rng), controls = random_block(nv, K * N, rng);
  const double dt = 0.01, restitution = 0.3;
  M ddq(nv, N), lambda(m, N), ddq_dx(nv, 2 * nv * N), lambda_dx(m, 2 * nv * N),
      ddq_dtau(nv, nv * N), lambda_dtau(m, nv * N), v_after(nv, N), impulse(m, N);
  M rollout(b.states.rows(), (K + 1) * N), rollout_A(2 * nv, 2 * nv * K * N),
      rollout_B(2 * nv, nv * K * N);
  for (int i = 0; i < N; ++i) {
    const State<double>& x = b.x[i];
    {
      Data<double> d(model);
      ConstraintData cd(model, set);
      ddq.col(i) = liedyn::constrained_forward_dynamics(model, d, set, cd, x, tau.col(i));
      lambda.col(i) = cd.lambda;
    }
    {
      Data<double> d(model);
      ConstraintData cd(model, set);
      liedyn::constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau.col(i),
                                                       liedyn::TwistRepresentation::Inertial);
      ddq_dx.middleCols(2 * nv * i, 2 * nv) = cd.ddq_dx;
      lambda_dx.middleCols(2 * nv * i, 2 * nv) = cd.lambda_dx;
      ddq_dtau.middleCols(nv * i, nv) = cd.ddq_dtau;
      lambda_dtau.middleCols(nv * i, nv) = cd.lambda_dtau;
    }
    {
      Data<double> d(model);
      ConstraintData cd(model, set);
      v_after.col(i) = liedyn::impulse_dynamics(model, d, set, cd, x, restitution);
      impulse.col(i) = cd.impulse;
    }
    {
      Data<double> d(model);
      ConstraintData cd(model, set);
      State<double> y = x;
      rollout.col(i * (K + 1)) = b.states.col(i);
      for (int k = 0; k < K; ++k) {
        const int knot = i * K + k;
        liedyn::linearize_discrete(model, d, set, cd, y, controls.col(knot), dt);
        rollout_A.middleCols(2 * nv * knot, 2 * nv) = d.linearization.A;
        rollout_B.middleCols(nv * knot, nv) = d.linearization.B;
        liedyn::semi_implicit_euler_step(model, d, set, cd, y, controls.col(knot), dt, y);
        liedyn::write_state_column(model, y, rollout.col(i * (K + 1) + k + 1));
      }
    }
  }

  for (int T : kThreadCounts) {
    CAPTURE(T);
    BatchWorkspace<double> ws(model, set, T);
    M o1 = M::Zero(nv, N), o2 = M::Zero(m, N);
    liedyn::batch_constrained_forward_dynamics(model, set, ws, b.states, tau, o1, o2);
    CHECK(same(o1, ddq));
    CHECK(same(o2, lambda));
    M d1 = M::Zero(nv, 2 * nv * N), d2 = M::Zero(m, 2 * nv * N), d3 = M::Zero(nv, nv * N),
      d4 = M::Zero(m, nv * N);
    liedyn::batch_constrained_forward_dynamics_derivatives(
        model, set, ws, b.states, tau, d1, d2, d3, d4, liedyn::TwistRepresentation::Inertial);
    CHECK(same(d1, ddq_dx));
    CHECK(same(d2, lambda_dx));
    CHECK(same(d3, ddq_dtau));
    CHECK(same(d4, lambda_dtau));
    liedyn::batch_impulse_dynamics(model, set, ws, b.states, restitution, o1, o2);
    CHECK(same(o1, v_after));
    CHECK(same(o2, impulse));
    M states_out = M::Zero(rollout.rows(), rollout.cols());
    liedyn::batch_rollout(model, set, ws, b.states, controls, dt, states_out);
    CHECK(same(states_out, rollout));
    states_out.setZero();
    M rA = M::Zero(2 * nv, 2 * nv * K * N), rB = M::Zero(2 * nv, nv * K * N);
    liedyn::batch_rollout_with_jacobians(model, set, ws, b.states, controls, dt, states_out, rA,
                                         rB);
    CHECK(same(states_out, rollout));
    CHECK(same(rA, rollout_A));
    CHECK(same(rB, rollout_B));
  }
}

/// A welded arm: joint 1 about z, joints 2 and 3 about y, the elbow (joint 3) and the frame
/// "tip" one metre along x each. A point contact at the tip has a rank-deficient Jacobian when
/// the arm is stretched (s₃ = 0: joints 2 and 3 move the tip along z both) and full rank else.
Model<double> elbow_arm() {
  auto rng = liedyn::test::make_rng(45);
  using liedyn::JointSpec;
  using liedyn::SE3;
  liedyn::ModelBuilder<double> b(liedyn::BaseType::Welded, "base",
                                 liedyn::test::random_inertia<double>(rng));
  const Eigen::Vector3d z = Eigen::Vector3d::UnitZ(), y = Eigen::Vector3d::UnitY();
  const SE3<double> along_x(Eigen::Matrix3d::Identity(), Eigen::Vector3d(1, 0, 0));
  b.add_body("base", "b1", JointSpec<double>::revolute("j1", z, SE3<double>()),
             liedyn::test::random_inertia<double>(rng));
  b.add_body("b1", "b2", JointSpec<double>::revolute("j2", y, SE3<double>()),
             liedyn::test::random_inertia<double>(rng));
  b.add_body("b2", "b3", JointSpec<double>::revolute("j3", y, along_x),
             liedyn::test::random_inertia<double>(rng));
  b.add_frame("tip", std::string("b3"), along_x);
  return b.build();
}

TEST_CASE("batch: constrained kernels equal their single calls for 1, 2, 4 threads", "[batch]") {
  auto rng = liedyn::test::make_rng(46);
  SECTION("moving base, a constraint of every type") {
    const Model<double> model = liedyn::test::chains_model<double>(47);
    const Batch b = random_batch(model, 5, rng);
    const ConstraintSet<double> set(
        model,
        liedyn::test::every_type(liedyn::TwistRepresentation::Mixed, true, model, b.x[0], rng));
    check_constrained_kernels(model, set, b, rng);
  }
  SECTION("welded base, a point contact") {
    const Model<double> model = elbow_arm();
    Batch b = random_batch(model, 6, rng);
    for (int i = 0; i < 6; ++i) {  // keep the elbow bent, away from the singularity
      b.x[i].s[2] = i % 2 ? 1.0 : -1.2;
      liedyn::write_state_column(model, b.x[i], b.states.col(i));
    }
    const ConstraintSet<double> set(model, {liedyn::ConstraintSpec<double>::point_contact("tip")});
    check_constrained_kernels(model, set, b, rng);
  }
}

// --- errors ---------------------------------------------------------------------------------

TEST_CASE("batch: a failing state stops the batch and is named, the lowest of several", "[batch]") {
  const Model<double> model = elbow_arm();
  const ConstraintSet<double> set(model, {liedyn::ConstraintSpec<double>::point_contact("tip")});
  auto rng = liedyn::test::make_rng(48);
  const int N = 9, nv = model.nv();
  Batch b = random_batch(model, N, rng);
  for (int i = 0; i < N; ++i) {
    b.x[i].s[2] = (i == 4 || i == 7) ? 0.0 : 0.9;  // states 4 and 7 stretched: J rank deficient
    liedyn::write_state_column(model, b.x[i], b.states.col(i));
  }
  const M tau = random_block(nv, N, rng);
  for (int T : kThreadCounts) {
    CAPTURE(T);
    BatchWorkspace<double> ws(model, set, T);
    M ddq(nv, N), lambda(set.dimension(), N);
    ddq.setConstant(-7.0);
    std::string what;
    try {
      liedyn::batch_constrained_forward_dynamics(model, set, ws, b.states, tau, ddq, lambda);
    } catch (const liedyn::ConstraintError& e) {
      what = e.what();
    }
    CHECK(what.rfind(
              "liedyn: batch_constrained_forward_dynamics: state 4: constrained_forward_dynamics: ",
              0) == 0);
    // Every state before the lowest failure was evaluated.
    for (int i = 0; i < 4; ++i) CHECK(ddq(0, i) != -7.0);

    // A rollout names the trajectory and the step.
    const M controls = M::Zero(nv, 2 * N);
    M initial = b.states;
    for (int i = 0; i < N; ++i) initial(2, i) = 0.9;  // s₃ (row 2) of every start bent...
    initial(2, 2) = 0.0;                              // ...but trajectory 2's
    M states_out(b.states.rows(), 3 * N);
    what.clear();
    try {
      liedyn::batch_rollout(model, set, ws, initial, controls, 0.01, states_out);
    } catch (const liedyn::ConstraintError& e) {
      what = e.what();
    }
    CHECK(what.rfind("liedyn: batch_rollout: trajectory 2: step 0: constrained_forward_dynamics: ",
                     0) == 0);
  }
}

TEST_CASE("batch: wrong block sizes and another model's workspace are refused", "[batch]") {
  auto rng = liedyn::test::make_rng(49);
  const Model<double> model = liedyn::random_model(4, rng), other = liedyn::random_model(4, rng);
  BatchWorkspace<double> ws(model, 2);
  const Batch b = random_batch(model, 3, rng);
  M tau = M::Zero(model.nv(), 3), out(model.nv(), 2);
  CHECK_THROWS_WITH(liedyn::batch_aba(model, ws, b.states, tau, out),
                    "liedyn: batch_aba: ddq_out has size 10 × 2, expected 10 × 3");
  out.resize(model.nv(), 3);
  CHECK_THROWS_WITH(liedyn::batch_aba(other, ws, b.states, tau, out),
                    "liedyn: batch_aba: the BatchWorkspace was built for another model");
  CHECK_THROWS_WITH(liedyn::batch_aba(model, ws, b.states.topRows(5), tau, out),
                    "liedyn: batch_aba: states has size 5 × 3, expected 26 × 3");
  const ConstraintSet<double> set(
      model, {liedyn::ConstraintSpec<double>::point_contact(model.frames().back().name)});
  M lambda(3, 3);
  CHECK_THROWS_WITH(
      liedyn::batch_constrained_forward_dynamics(model, set, ws, b.states, tau, out, lambda),
      "liedyn: batch_constrained_forward_dynamics: the BatchWorkspace was built without this "
      "constraint set");
}

// --- real time --------------------------------------------------------------------------------

TEST_CASE("batch: no allocation once the workspace exists (2 threads)", "[batch]") {
  const Model<double> model = liedyn::test::chains_model<double>(50);
  auto rng = liedyn::test::make_rng(51);
  const int N = 4, nv = model.nv(), K = 2;
  const Batch b = random_batch(model, N, rng);
  const ConstraintSet<double> set(
      model, liedyn::test::every_type(liedyn::TwistRepresentation::Body, true, model, b.x[0], rng));
  const int m = set.dimension();
  const M tau = random_block(nv, N, rng), controls = random_block(nv, K * N, rng);
  M ddq(nv, N), A(2 * nv, 2 * nv * N), B(2 * nv, nv * N), d1(nv, 2 * nv * N), d2(m, 2 * nv * N),
      d3(nv, nv * N), d4(m, nv * N), lambda(m, N), states_out(b.states.rows(), (K + 1) * N),
      rA(2 * nv, 2 * nv * K * N), rB(2 * nv, nv * K * N);
  std::size_t workspace_allocations = 0;
  std::unique_ptr<BatchWorkspace<double>> built;
  {
    liedyn::test::AllocationCounter counter;  // the count works: building a workspace allocates
    built = std::make_unique<BatchWorkspace<double>>(model, set, 2);
    workspace_allocations = counter.allocations();
  }
  CHECK(workspace_allocations > 0);
  BatchWorkspace<double>& ws = *built;
  const auto run = [&] {
    liedyn::batch_aba(model, ws, b.states, tau, ddq);
    liedyn::batch_linearize(model, ws, b.states, tau, A, B);
    liedyn::batch_constrained_forward_dynamics(model, set, ws, b.states, tau, ddq, lambda);
    liedyn::batch_constrained_forward_dynamics_derivatives(model, set, ws, b.states, tau, d1, d2,
                                                           d3, d4);
    liedyn::batch_rollout_with_jacobians(model, ws, b.states, controls, 0.01, states_out, rA, rB);
    liedyn::batch_rollout_with_jacobians(model, set, ws, b.states, controls, 0.01, states_out, rA,
                                         rB);
  };
  run();
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    run();
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
}

}  // namespace

}  // namespace LIEDYN_UNITY_ID
