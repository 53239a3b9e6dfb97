// liedyn tests — the time step with frictional contacts over many states and rollouts
// (algorithm/batch_contact.hpp): every entry equals, bit for bit, contact_step on a fresh
// ContactStepWorkspace (a rollout: the serial loop of contact_step from x_0), for 1, 2 and 4
// threads, on a cube landing on an incline and on a random tree touching the ground, with ADMM
// and PGS; a failing trajectory is named, the lowest of several; a batch call
// allocates nothing once its workspace exists.
//
// Equality is exact (no tolerance): a state's result must not depend on the thread count or on
// which worker (and which contact workspace, with which warm start) computed it.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <liedyn/algorithm/batch_contact.hpp>
#include <liedyn/model/builder.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

using Catch::Matchers::Contains;
using liedyn::ContactBatchWorkspace;
using liedyn::ContactPlane;
using liedyn::ContactPointSpec;
using liedyn::ContactSolver;
using liedyn::ContactStepSettings;
using liedyn::ContactStepWorkspace;
using liedyn::Model;
using liedyn::State;
using liedyn::Vector3;
using M = liedyn::MatrixX<double>;

constexpr int kThreadCounts[] = {1, 2, 4};

bool same(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}

M random_block(int rows, int cols, double scale, std::mt19937& rng) {
  M m(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) m(r, c) = scale * double(liedyn::test::uniform(rng, -1, 1));
  return m;
}

/// A model, its contacts and N initial states (as a state block) that touch them.
struct Scene {
  Model<double> model;
  std::vector<ContactPointSpec<double>> contacts;
  M initial;
};

// A free cube of side 0.2 m touching an incline (tan θ = 0.42) at its 4 bottom corners (μ 0.3):
// state i starts 5 to 15 mm above the plane (outside the 1 cm margin or inside it: the corners
// enter the problem as it falls) with a random twist.
Scene cube_scene(int N, std::mt19937& rng) {
  const double a = 0.2, m = 1.5, theta = std::atan(0.42);
  liedyn::ModelBuilder<double> b(
      liedyn::BaseType::Moving, "cube",
      liedyn::SpatialInertia<double>::from_mass_com_inertia(
          m, Vector3<double>::Zero(), liedyn::Matrix3<double>::Identity() * (m * a * a / 6)));
  Scene s{b.build(), {}, M()};
  const Vector3<double> normal(std::sin(theta), 0.0, std::cos(theta));
  const auto plane = ContactPlane<double>::through(Vector3<double>::Zero(), normal);
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      s.contacts.push_back(ContactPointSpec<double>::on_body(
          "cube", Vector3<double>(sx * a / 2, sy * a / 2, -a / 2), plane, 0.3));
  s.initial.resize(liedyn::batch_state_size(s.model), N);
  const liedyn::SO3<double> R = liedyn::SO3<double>::exp(Vector3<double>(0.0, theta, 0.0));
  for (int i = 0; i < N; ++i) {
    State<double> x(s.model);
    const double lift = double(liedyn::test::uniform(rng, 0.005, 0.015));
    x.H = liedyn::SE3<double>(R, R.matrix() * Vector3<double>(0.0, 0.0, a / 2 + lift));
    x.nu = random_block(6, 1, 0.3, rng);
    liedyn::write_state_column(s.model, x, s.initial.col(i));
  }
  return s;
}

// A random tree on a moving base, 8 revolute, prismatic and helical joints, branched, with a
// sphere (radius 5 cm) at the origin of every other body against the ground z = 0 (μ 0.8); random
// states, their base lowered to z = 0.1 so that some spheres start in contact, some penetrating,
// some clear. (The tree of every joint type first drawn here reached a mass matrix that
// ltdl_factorize refused as not positive definite within the rollout, which stops it.)
Scene tree_scene(int N, std::mt19937& rng) {
  liedyn::RandomModelOptions opt;
  opt.branching = 3;
  Scene s{liedyn::random_model<double>(8, rng, opt), {}, M()};
  for (int body = 1; body < s.model.num_bodies(); body += 2)
    s.contacts.push_back(
        ContactPointSpec<double>::on_body(s.model.body_name(body), Vector3<double>::Zero(),
                                          ContactPlane<double>::ground(), 0.8, 0.05));
  s.initial.resize(liedyn::batch_state_size(s.model), N);
  for (int i = 0; i < N; ++i) {
    State<double> x = liedyn::random_state(s.model, rng);
    x.H = liedyn::SE3<double>(x.H.rotation(), Vector3<double>(0.0, 0.0, 0.1));
    liedyn::write_state_column(s.model, x, s.initial.col(i));
  }
  return s;
}

/// The serial reference: contact_step from each initial state on a fresh workspace, K steps.
struct Serial {
  M states, impulses, reports;
};

Serial serial_rollouts(const Scene& s, const M& controls, double dt,
                       const ContactStepSettings<double>& settings) {
  const Model<double>& model = s.model;
  const Eigen::Index N = s.initial.cols(), K = controls.cols() / N;
  const int nc = static_cast<int>(s.contacts.size());
  Serial out{M(liedyn::batch_state_size(model), (K + 1) * N), M(3 * nc, K * N),
             M(liedyn::ContactReport::size, K * N)};
  for (Eigen::Index i = 0; i < N; ++i) {
    ContactStepWorkspace<double> ws(model, s.contacts);
    State<double> x(model);
    liedyn::read_state_column(model, s.initial.col(i), x);
    out.states.col(i * (K + 1)) = s.initial.col(i);
    for (Eigen::Index k = 0; k < K; ++k) {
      const auto r = liedyn::contact_step(model, ws, x, controls.col(i * K + k), dt, x, settings);
      liedyn::write_state_column(model, x, out.states.col(i * (K + 1) + k + 1));
      out.impulses.col(i * K + k) = ws.impulse;
      auto report = out.reports.col(i * K + k);
      report(liedyn::ContactReport::active_contacts) = r.active_contacts;
      report(liedyn::ContactReport::iterations) = r.solver.iterations;
      report(liedyn::ContactReport::converged) = r.converged ? 1.0 : 0.0;
      report(liedyn::ContactReport::primal_residual) = r.solver.primal_residual;
      report(liedyn::ContactReport::dual_residual) = r.solver.dual_residual;
      report(liedyn::ContactReport::complementarity_residual) = r.solver.complementarity_residual;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("batch_contact: rollouts equal the serial contact_step loop for 1, 2, 4 threads",
          "[batch][contact_step]") {
  auto rng = liedyn::test::make_rng(63);
  const int N = 5, K = 40;
  const double dt = 1e-3;
  for (int which = 0; which < 2; ++which) {
    const Scene s = which == 0 ? cube_scene(N, rng) : tree_scene(N, rng);
    const int nv = s.model.nv(), nc = static_cast<int>(s.contacts.size());
    // Small random torques: the scene still lands, and every step's input differs.
    const M controls = random_block(nv, K * N, 0.5, rng);
    for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
      CAPTURE(which, liedyn::to_string(solver));
      ContactStepSettings<double> settings;
      settings.solver = solver;
      const Serial reference = serial_rollouts(s, controls, dt, settings);
      // The scene exercises the step: contacts are active in some steps and not in others.
      const auto active = reference.reports.row(liedyn::ContactReport::active_contacts);
      CHECK(active.maxCoeff() > 0);
      CHECK(active.minCoeff() < nc);
      for (int threads : kThreadCounts) {
        CAPTURE(threads);
        ContactBatchWorkspace<double> ws(s.model, s.contacts, threads);
        M states(liedyn::batch_state_size(s.model), (K + 1) * N), impulses(3 * nc, K * N),
            reports(liedyn::ContactReport::size, K * N);
        // Twice on the same workspace: the second run starts from the workers' used warm starts.
        for (int run = 0; run < 2; ++run) {
          states.setConstant(std::nan(""));
          liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, dt, states, impulses,
                                        reports, settings);
          CHECK(same(states, reference.states));
          CHECK(same(impulses, reference.impulses));
          CHECK(same(reports, reference.reports));
        }
      }
    }
  }
}

TEST_CASE("batch_contact: one step per state equals contact_step on a fresh workspace",
          "[batch][contact_step]") {
  auto rng = liedyn::test::make_rng(64);
  const int N = 7;
  const double dt = 2e-3;
  const Scene s = tree_scene(N, rng);
  const int nv = s.model.nv(), nc = static_cast<int>(s.contacts.size());
  const M tau = random_block(nv, N, 1.0, rng);
  const ContactStepSettings<double> settings;
  const Serial reference = serial_rollouts(s, tau, dt, settings);
  for (int threads : kThreadCounts) {
    CAPTURE(threads);
    ContactBatchWorkspace<double> ws(s.model, s.contacts, threads);
    CHECK(ws.threads() == threads);
    CHECK(ws.num_contacts() == nc);
    M next(liedyn::batch_state_size(s.model), N), impulses(3 * nc, N),
        reports(liedyn::ContactReport::size, N);
    for (int run = 0; run < 2; ++run) {
      liedyn::batch_contact_step(s.model, ws, s.initial, tau, dt, next, impulses, reports,
                                 settings);
      for (int i = 0; i < N; ++i) CHECK(same(next.col(i), reference.states.col(2 * i + 1)));
      CHECK(same(impulses, reference.impulses));
      CHECK(same(reports, reference.reports));
    }
  }
}

TEST_CASE("batch_contact: a failing trajectory is named, the lowest of several; bad arguments",
          "[batch][contact_step]") {
  auto rng = liedyn::test::make_rng(65);
  const int N = 6, K = 5;
  const Scene s = cube_scene(N, rng);
  const int nv = s.model.nv(), nc = static_cast<int>(s.contacts.size());
  ContactBatchWorkspace<double> ws(s.model, s.contacts, 2);
  M states(liedyn::batch_state_size(s.model), (K + 1) * N), impulses(3 * nc, K * N),
      reports(liedyn::ContactReport::size, K * N);
  M controls = M::Zero(nv, K * N);
  controls(0, 4 * K + 3) = std::numeric_limits<double>::infinity();  // trajectory 4, step 3
  controls(2, 1 * K + 2) = std::nan("");                             // trajectory 1, step 2
  CHECK_THROWS_WITH(liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, 1e-3, states,
                                                  impulses, reports),
                    "liedyn: batch_contact_rollout: trajectory 1: step 2: contact_step: tau has a "
                    "non-finite entry");
  controls.setZero();
  CHECK_THROWS_WITH(liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, 0.0, states,
                                                  impulses, reports),
                    "liedyn: batch_contact_rollout: dt must be finite and > 0, got 0.000000");
  M bad_initial = s.initial;
  bad_initial(12, 3) = std::nan("");  // state 3's first twist entry (after R, p)
  CHECK_THROWS_WITH(liedyn::batch_contact_rollout(s.model, ws, bad_initial, controls, 1e-3, states,
                                                  impulses, reports),
                    "liedyn: batch_contact_rollout: trajectory 3: step 0: contact_step: the "
                    "state has a non-finite entry");
  M impulses_short(3 * nc - 1, K * N);
  CHECK_THROWS_WITH(liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, 1e-3, states,
                                                  impulses_short, reports),
                    Contains("liedyn: batch_contact_rollout: impulses_out has size 11 × 30, "
                             "expected 12 × 30"));
  M step_states(liedyn::batch_state_size(s.model), N), step_impulses(3 * nc, N),
      step_reports(liedyn::ContactReport::size, N);
  CHECK_THROWS_WITH(liedyn::batch_contact_step(s.model, ws, s.initial, M::Zero(nv, N - 1), 1e-3,
                                               step_states, step_impulses, step_reports),
                    Contains("liedyn: batch_contact_step: tau has size 6 × 5, expected 6 × 6"));
  const Scene other = cube_scene(N, rng);
  CHECK_THROWS_WITH(liedyn::batch_contact_step(other.model, ws, other.initial, M::Zero(nv, N), 1e-3,
                                               step_states, step_impulses, step_reports),
                    "liedyn: batch_contact_step: the ContactBatchWorkspace was built for another "
                    "model");
  // The contacts are checked when the workspace is built, as ContactStepWorkspace checks them.
  std::vector<ContactPointSpec<double>> bad = s.contacts;
  bad[2].friction = -0.5;
  CHECK_THROWS_WITH((ContactBatchWorkspace<double>(s.model, bad, 2)),
                    Contains("liedyn: ContactStepWorkspace: contact 'cube': the friction "
                             "coefficient must be finite and >= 0"));
  CHECK_THROWS_AS((ContactBatchWorkspace<double>(s.model, s.contacts, 0)), liedyn::InvalidArgument);
}

TEST_CASE("batch_contact: no allocation once the workspace exists (2 threads)",
          "[batch][contact_step]") {
  auto rng = liedyn::test::make_rng(66);
  const int N = 4, K = 20;
  const Scene s = cube_scene(N, rng);
  const int nv = s.model.nv(), nc = static_cast<int>(s.contacts.size());
  const M controls = random_block(nv, K * N, 0.5, rng);
  ContactBatchWorkspace<double> ws(s.model, s.contacts, 2);
  M states(liedyn::batch_state_size(s.model), (K + 1) * N), impulses(3 * nc, K * N),
      reports(liedyn::ContactReport::size, K * N), next(liedyn::batch_state_size(s.model), N),
      step_impulses(3 * nc, N), step_reports(liedyn::ContactReport::size, N);
  ContactStepSettings<double> pgs;
  pgs.solver = ContactSolver::Pgs;
  const auto run = [&] {
    liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, 1e-3, states, impulses,
                                  reports);
    liedyn::batch_contact_rollout(s.model, ws, s.initial, controls, 1e-3, states, impulses, reports,
                                  pgs);
    liedyn::batch_contact_step(s.model, ws, s.initial, controls.leftCols(N), 1e-3, next,
                               step_impulses, step_reports);
  };
  run();
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    run();
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
  // The landing brings contacts in: the solver ran inside the guarded calls.
  CHECK(reports.row(liedyn::ContactReport::active_contacts).maxCoeff() == 4);
}

}  // namespace LIEDYN_UNITY_ID
