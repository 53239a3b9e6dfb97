// liedyn tests — the time step with frictional unilateral point contacts
// (algorithm/contact_step.hpp).
//
// Oracles, independent of the step:
//   * a cube on an inclined plane, touching it at its 4 bottom corners: at rest when tan θ < μ,
//     sliding with the analytic acceleration g (sin θ − μ cos θ) when tan θ > μ;
//   * a ball (a sphere contact) dropped on the ground: it never goes below the plane and comes to
//     rest; thrown sliding without spin, it ends rolling at 5/7 of its initial speed (the
//     textbook result of Coulomb friction on a solid sphere); with restitution e it bounces to
//     e² times its height;
//   * energy: kinetic plus potential (energy.hpp) never rises along an unactuated trajectory;
//   * Solo-12 standing on its 4 feet under a PD controller with a static feedforward computed here
//     (a least-norm split of its weight between the feet): no drift over 1 s at 1 kHz;
//   * the step's equations on random trees of every joint type: the free step against ABA,
//     Configuration's integrate and semi_implicit_euler_step, G against J M⁻¹ Jᵀ from a dense
//     inverse of crba's M with J from the points' velocities (frame_velocity, not the Jacobian),
//     the momentum balance M (ν̄⁺ − ν̄) = Δt (τ̄ − h) + Jᵀ λ.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/contact_step.hpp>
#include <liedyn/algorithm/energy.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/model/builder.hpp>
#include <liedyn/model/configuration.hpp>
#include <liedyn/testing/samples.hpp>
#if defined(LIEDYN_HAS_URDF)
#include <liedyn/model/urdf.hpp>
#endif

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using liedyn::ContactPlane;
using liedyn::ContactPointSpec;
using liedyn::ContactSolver;
using liedyn::ContactStepResult;
using liedyn::ContactStepSettings;
using liedyn::ContactStepWorkspace;
using liedyn::Matrix3;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::SE3;
using liedyn::SO3;
using liedyn::State;
using liedyn::Vector3;
using liedyn::Vector6;
using liedyn::VectorX;

namespace {

constexpr double kGravity = 9.81;  // ModelBuilder's default |g|

// A free cube of side a and mass m, its body origin at its centre (isotropic inertia m a²/6).
Model<double> cube_model(double a, double m) {
  const Matrix3<double> I = Matrix3<double>::Identity() * (m * a * a / 6.0);
  liedyn::ModelBuilder<double> b(
      liedyn::BaseType::Moving, "cube",
      liedyn::SpatialInertia<double>::from_mass_com_inertia(m, Vector3<double>::Zero(), I));
  return b.build();
}

// A free solid ball of radius r and mass m, its body origin at its centre.
Model<double> ball_model(double r, double m) {
  const Matrix3<double> I = Matrix3<double>::Identity() * (0.4 * m * r * r);
  liedyn::ModelBuilder<double> b(
      liedyn::BaseType::Moving, "ball",
      liedyn::SpatialInertia<double>::from_mass_com_inertia(m, Vector3<double>::Zero(), I));
  return b.build();
}

// The plane through the origin tilted by θ about A's y axis: normal n = R_y(θ) e_z =
// (sin θ, 0, cos θ); its downhill direction is d = R_y(θ) e_x = (cos θ, 0, −sin θ).
ContactPlane<double> incline(double theta) {
  return ContactPlane<double>::through(Vector3<double>::Zero(),
                                       Vector3<double>(std::sin(theta), 0.0, std::cos(theta)));
}

// The cube's 4 bottom corners (body frame) against `plane`.
std::vector<ContactPointSpec<double>> cube_corners(double a, const ContactPlane<double>& plane,
                                                   double mu) {
  std::vector<ContactPointSpec<double>> contacts;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      contacts.push_back(ContactPointSpec<double>::on_body(
          "cube", Vector3<double>(sx * a / 2, sy * a / 2, -a / 2), plane, mu));
  return contacts;
}

// The cube resting on the incline: rotated by R_y(θ), its bottom face on the plane, at rest.
State<double> cube_on_incline(const Model<double>& model, double a, double theta) {
  State<double> x(model);
  const SO3<double> R = SO3<double>::exp(Vector3<double>(0.0, theta, 0.0));
  x.H = SE3<double>(R, R.matrix() * Vector3<double>(0.0, 0.0, a / 2));
  return x;
}

double energy(const Model<double>& model, liedyn::Data<double>& data, const State<double>& x) {
  return liedyn::kinetic_energy(model, data, x) + liedyn::potential_energy(model, data, x);
}

}  // namespace

TEST_CASE("contact_step: a cube on an incline sticks when tan(theta) < mu",
          "[contact_step][physics]") {
  const double a = 0.2, m = 1.5, theta = std::atan(0.42), mu = 0.6, dt = 1e-3;
  const Model<double> model = cube_model(a, m);
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    ContactStepWorkspace<double> ws(model, cube_corners(a, incline(theta), mu));
    ContactStepSettings<double> settings;
    settings.solver = solver;
    State<double> x = cube_on_incline(model, a, theta);
    const Vector3<double> start = x.H.translation();
    const VectorX<double> tau = VectorX<double>::Zero(6);
    double largest_speed = 0;
    bool all_converged = true;
    int all_active = 0;
    for (int step = 0; step < 200; ++step) {
      const ContactStepResult<double> r = liedyn::contact_step(model, ws, x, tau, dt, x, settings);
      all_converged = all_converged && r.converged;
      all_active += r.active_contacts;
      largest_speed = std::max(largest_speed, x.nu.norm());
    }
    CHECK(all_converged);
    CHECK(all_active == 4 * 200);
    liedyn::test::report("sticking cube: largest |nu| over 200 steps", largest_speed);
    liedyn::test::report("sticking cube: displacement", (x.H.translation() - start).norm());
    // The solver stops at 1.5e-10 m/s on the contact velocities (its default tolerance); the twist
    // follows through J⁻¹ (corners 0.1 m from the centre: rates up to ten times that), so 1e-8.
    CHECK(largest_speed < 1e-8);
    // 200 steps of 1 ms at under 1e-8 m/s: 2e-9 m at most.
    CHECK((x.H.translation() - start).norm() < 2e-9);
    // The impulses carry the weight: Σ λ_n = m g cos θ dt, Σ λ_t1 = m g sin θ dt up the slope
    // (t1 = the plane's direction closest to A's x axis = d, the downhill direction), to the
    // solver's tolerance relative to the impulses (1e-8).
    double normal = 0, along = 0;
    for (int k = 0; k < 4; ++k) {
      normal += ws.impulse(3 * k + 2);
      along += ws.impulse(3 * k);
    }
    CHECK(std::abs(normal - m * kGravity * std::cos(theta) * dt) < 1e-8 * m * kGravity * dt);
    CHECK(std::abs(along + m * kGravity * std::sin(theta) * dt) < 1e-8 * m * kGravity * dt);
  }
}

TEST_CASE("contact_step: a cube on an incline slides with g (sin theta - mu cos theta)",
          "[contact_step][physics]") {
  const double a = 0.2, m = 1.5, theta = std::atan(0.42), mu = 0.3, dt = 1e-3;
  const double analytic = kGravity * (std::sin(theta) - mu * std::cos(theta));
  const Model<double> model = cube_model(a, m);
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    ContactStepWorkspace<double> ws(model, cube_corners(a, incline(theta), mu));
    ContactStepSettings<double> settings;
    settings.solver = solver;
    State<double> x = cube_on_incline(model, a, theta);
    const VectorX<double> tau = VectorX<double>::Zero(6);
    bool all_converged = true;
    double speed_at_100 = 0, largest_off_slope = 0, lowest_gap = 0;
    for (int step = 1; step <= 200; ++step) {
      all_converged =
          liedyn::contact_step(model, ws, x, tau, dt, x, settings).converged && all_converged;
      if (step == 100) speed_at_100 = x.nu(0);
      // The twist's other components: no spin, no lift, no sideways motion.
      largest_off_slope = std::max(largest_off_slope, x.nu.tail<5>().norm());
      lowest_gap = std::min(lowest_gap, ws.gap.minCoeff());
    }
    CHECK(all_converged);
    // ν's linear part is in the cube's axes, whose x axis is the downhill direction d.
    const double measured = (x.nu(0) - speed_at_100) / (100 * dt);
    const double relative = std::abs(measured - analytic) / analytic;
    liedyn::test::report("sliding cube: acceleration, relative error", relative);
    liedyn::test::report("sliding cube: largest off-slope twist", largest_off_slope);
    liedyn::test::report("sliding cube: lowest gap", lowest_gap);
    // The bound: the solver's velocity error (1.5e-10 m/s) over 0.1 s is 1.5e-9 m/s² on
    // 1.2 m/s², far below it.
    CHECK(relative < 1e-6);
    // Speed from rest after 200 steps: exactly 200 dt times the acceleration (a velocity-level
    // step applies Δt g (sin θ − μ cos θ) each step), to the same tolerance.
    CHECK(std::abs(x.nu(0) - 200 * dt * analytic) < 1e-6 * 200 * dt * analytic);
    // The solver's tolerance on the contact velocities, through J⁻¹ (as in the sticking test).
    CHECK(largest_off_slope < 1e-8);
    // The corners slide along the plane: the gaps stay at rounding level (1e-12 m).
    CHECK(lowest_gap > -1e-12);
  }
}

TEST_CASE("contact_step: a dropped ball comes to rest on the ground without penetrating",
          "[contact_step][physics]") {
  const double r = 0.1, m = 0.5, dt = 1e-3;
  const Model<double> model = ball_model(r, m);
  ContactStepWorkspace<double> ws(
      model, {ContactPointSpec<double>::on_body("ball", Vector3<double>::Zero(),
                                                ContactPlane<double>::ground(), 0.5, r)});
  State<double> x(model);
  x.H = SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0.0, 0.0, 0.6));
  const VectorX<double> tau = VectorX<double>::Zero(6);
  double lowest_gap = 1, highest_after_touch = -1;
  bool touched = false, all_converged = true;
  for (int step = 0; step < 1000; ++step) {
    all_converged = liedyn::contact_step(model, ws, x, tau, dt, x).converged && all_converged;
    const double gap = x.H.translation()(2) - r;
    lowest_gap = std::min(lowest_gap, gap);
    if (touched) highest_after_touch = std::max(highest_after_touch, gap);
    touched = touched || gap < 1e-9;
  }
  CHECK(all_converged);
  CHECK(touched);
  liedyn::test::report("dropped ball: lowest gap", lowest_gap);
  liedyn::test::report("dropped ball: highest gap after touching down", highest_after_touch);
  liedyn::test::report("dropped ball: final |nu|", x.nu.norm());
  // The impact speed is 3.1 m/s, 3.1 mm per step, within the default 1 cm margin: the step that
  // would cross the plane closes the gap exactly (φ/Δt), up to the solver's 1.5e-10 m/s times
  // Δt and rounding of a 0.6 m position (1e-16 relative), so 1e-12 m.
  CHECK(lowest_gap > -1e-12);
  // No restitution: it stays down (the solver's tolerance times Δt per step, over 700 steps).
  CHECK(highest_after_touch < 1e-9);
  // At rest: the solver's tolerance on the contact velocity (1.5e-10 m/s), 1e-9.
  CHECK(x.nu.norm() < 1e-9);
}

TEST_CASE("contact_step: a ball dropped with restitution e bounces to e^2 times its height",
          "[contact_step][physics]") {
  // Margin 0 and no push-out (β = 0): the impact is seen one step after the crossing and reflects
  // the approach speed (ContactStepSettings::restitution).
  const double r = 0.1, m = 0.5, e = 0.8, height = 0.5;
  const Model<double> model = ball_model(r, m);
  auto first_apex = [&](double dt) {
    ContactStepWorkspace<double> ws(
        model, {ContactPointSpec<double>::on_body("ball", Vector3<double>::Zero(),
                                                  ContactPlane<double>::ground(), 0.5, r)});
    ContactStepSettings<double> settings;
    settings.margin = 0;
    settings.penetration_recovery = 0;
    settings.restitution = e;
    State<double> x(model);
    x.H = SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0.0, 0.0, r + height));
    const VectorX<double> tau = VectorX<double>::Zero(6);
    bool bounced = false;
    double apex = 0;
    for (int step = 0; step < static_cast<int>(1.0 / dt); ++step) {
      liedyn::contact_step(model, ws, x, tau, dt, x, settings);
      if (ws.active.size() == 1) bounced = true;
      if (bounced) apex = std::max(apex, x.H.translation()(2) - r);
    }
    return apex;
  };
  const double coarse = first_apex(1e-3), fine = first_apex(5e-4);
  const double expected = e * e * height;
  liedyn::test::report("bouncing ball: apex vs e^2 h, relative, dt = 1 ms",
                       (coarse - expected) / expected);
  liedyn::test::report("bouncing ball: apex vs e^2 h, relative, dt = 0.5 ms",
                       (fine - expected) / expected);
  // The impact is seen at a penetration p of up to v_i Δt (v_i = √(2 g h)); bouncing from −p at
  // e times the speed gained over h + p, the ball rises to e²(h + p) − p. Semi-implicit Euler
  // keeps E − ½ g Δt v exactly under gravity alone, so the energy is exact at rest and at the
  // apex. Hence the apex lies within (1 − e²) v_i Δt below e² h.
  const double impact_speed = std::sqrt(2 * kGravity * height);
  for (const auto& [dt, apex] : {std::pair<double, double>{1e-3, coarse}, {5e-4, fine}}) {
    CAPTURE(dt);
    CHECK(apex <= expected + 1e-12);
    CHECK(apex >= expected - (1 - e * e) * impact_speed * dt);
  }
}

TEST_CASE("contact_step: a ball thrown sliding ends rolling at 5/7 of its speed",
          "[contact_step][physics]") {
  const double r = 0.1, m = 0.5, mu = 0.3, v0 = 1.0;
  const Model<double> model = ball_model(r, m);
  // Rolling begins at t = 2 v0 / (7 μ g) = 0.097 s; 0.3 s leave it rolling for 0.2 s.
  struct Outcome {
    double speed_error, slip, lowest_gap;
    bool converged;
  };
  auto roll = [&](ContactSolver solver, double dt) {
    ContactStepWorkspace<double> ws(
        model, {ContactPointSpec<double>::on_body("ball", Vector3<double>::Zero(),
                                                  ContactPlane<double>::ground(), mu, r)});
    ContactStepSettings<double> settings;
    settings.solver = solver;
    State<double> x(model);
    x.H = SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0.0, 0.0, r));
    x.nu(0) = v0;  // body axes = A's axes at the start
    const VectorX<double> tau = VectorX<double>::Zero(6);
    Outcome out{0, 0, 0, true};
    const int steps = static_cast<int>(std::lround(0.3 / dt));
    for (int step = 0; step < steps; ++step) {
      out.converged =
          liedyn::contact_step(model, ws, x, tau, dt, x, settings).converged && out.converged;
      out.lowest_gap = std::min(out.lowest_gap, ws.gap(0));
    }
    const Vector3<double> velocity = x.H.rotation() * x.nu.head<3>();  // the centre's, in A
    const Vector3<double> omega = x.H.rotation() * x.nu.tail<3>();
    out.speed_error = (velocity(0) - 5.0 / 7.0 * v0) / v0;
    out.slip = std::abs(velocity(0) - omega(1) * r);
    return out;
  };
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    const Outcome coarse = roll(solver, 1e-3), fine = roll(solver, 5e-4);
    CHECK(coarse.converged);
    CHECK(fine.converged);
    liedyn::test::report("rolling ball: speed vs 5/7 v0, relative, dt = 1 ms", coarse.speed_error);
    liedyn::test::report("rolling ball: speed vs 5/7 v0, relative, dt = 0.5 ms", fine.speed_error);
    liedyn::test::report("rolling ball: contact point slip", coarse.slip);
    liedyn::test::report("rolling ball: lowest gap", coarse.lowest_gap);
    // The step is first order: the body-frame velocity turns with the ball only through the
    // explicit Coriolis term, which lengthens it by (ωΔt)²/2 per step. The error is O(Δt): below
    // 5e-3 at 1 ms (ω reaches 7.1 rad/s) and halved at 0.5 ms (ratio 2 within 10 %).
    CHECK(std::abs(coarse.speed_error) < 5e-3);
    CHECK(coarse.speed_error / fine.speed_error == Approx(2.0).epsilon(0.1));
    // Rolling: the contact point is at rest. The solver meets 1.5e-10 m/s at the step's start;
    // measured at its end, the lowest point is another material point of the turned ball: 1e-8.
    CHECK(coarse.slip < 1e-8);
    // A body twist integrated on SE(3) turns the ball about its contact point, which lowers the
    // centre by δ = r(1 − cos ωΔt) = 2.5e-6 m per step at 7.1 rad/s; the recovery removes
    // β = 0.2 of a penetration per step, so it settles at δ/β = 1.3e-5 m: 1.5e-5.
    CHECK(coarse.lowest_gap > -1.5e-5);
  }
}

TEST_CASE("contact_step: energy never rises without actuation or restitution",
          "[contact_step][physics]") {
  // The cube thrown spinning onto the incline (tan θ = 0.42 > μ = 0.3): flight, impacts at its
  // corners, tumbling and sliding. β = 0: a push-out of a penetration would do work (header).
  const double a = 0.2, m = 1.5, theta = std::atan(0.42), mu = 0.3, dt = 1e-3;
  const Model<double> model = cube_model(a, m);
  liedyn::Data<double> data(model);
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    ContactStepWorkspace<double> ws(model, cube_corners(a, incline(theta), mu));
    ContactStepSettings<double> settings;
    settings.solver = solver;
    settings.penetration_recovery = 0;
    State<double> x(model);
    x.H = SE3<double>(SO3<double>::exp(Vector3<double>(0.3, -0.2, 0.5)),
                      Vector3<double>(0.0, 0.0, 0.3));
    x.nu << 1.0, 0.3, -0.5, 1.5, -1.0, 2.0;
    const VectorX<double> tau = VectorX<double>::Zero(6);
    double largest_rise = -1, e0 = energy(model, data, x), previous = e0;
    int contact_steps = 0;
    bool all_converged = true;
    for (int step = 0; step < 1500; ++step) {
      const ContactStepResult<double> r = liedyn::contact_step(model, ws, x, tau, dt, x, settings);
      all_converged = all_converged && r.converged;
      contact_steps += r.active_contacts > 0 ? 1 : 0;
      const double e = energy(model, data, x);
      largest_rise = std::max(largest_rise, e - previous);
      previous = e;
    }
    CHECK(all_converged);
    CHECK(contact_steps > 500);  // the trajectory does touch the plane
    liedyn::test::report("thrown cube: largest rise of energy in a step (J)", largest_rise);
    liedyn::test::report("thrown cube: energy lost (J)", e0 - previous);
    // Never rises: up to rounding of energies of about 5 J (1e-12 J) and the solver's tolerance
    // (1.5e-10 m/s on the contact velocities, times impulses of 1e-2 N s: 1e-12 J).
    CHECK(largest_rise < 2e-12);
    CHECK(previous < e0);
  }
}

TEST_CASE("contact_step: the step's equations on random trees of every joint type",
          "[contact_step][equations]") {
  // Independent routes: M from crba inverted densely (LLT), h from bias_force, the contact
  // points' velocities from frame_velocity in the body sense (not the Jacobian), ABA for the free
  // step and Configuration's integrate.
  std::mt19937 rng(20261207);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  liedyn::RandomModelOptions options;
  options.every_joint_type = true;
  for (int draw = 0; draw < 4; ++draw) {
    CAPTURE(draw);
    const Model<double> model = liedyn::random_model(7, rng, options);
    const int nv = model.nv();
    liedyn::Data<double> data(model);
    const State<double> x = liedyn::random_state(model, rng);
    VectorX<double> tau(nv);
    for (int i = 0; i < nv; ++i) tau(i) = u(rng);
    const double dt = 1e-3;
    // Five contacts on random bodies, points and planes; μ in [0.2, 1].
    std::vector<ContactPointSpec<double>> specs;
    for (int k = 0; k < 5; ++k) {
      const int body = 1 + static_cast<int>((u(rng) + 1) / 2 * (model.num_bodies() - 1)) %
                               (model.num_bodies() - 1);
      specs.push_back(ContactPointSpec<double>::on_body(
          model.body_name(body), Vector3<double>(u(rng), u(rng), u(rng)) * 0.2,
          ContactPlane<double>::through(Vector3<double>(u(rng), u(rng), u(rng)),
                                        Vector3<double>(u(rng), u(rng), u(rng))),
          0.6 + 0.4 * u(rng), draw % 2 ? 0.05 : 0.0));
    }
    const VectorX<double> v = x.velocity(model);

    {  // No active contact: the free step, ABA and integrate.
      ContactStepWorkspace<double> ws(model, specs);
      ContactStepSettings<double> settings;
      settings.margin = 0;
      // Push every plane below its point so that no contact is active.
      for (auto& c : ws.points) c.plane_point -= c.axes.col(2) * 100.0;
      State<double> next(model);
      const ContactStepResult<double> r =
          liedyn::contact_step(model, ws, x, tau, dt, next, settings);
      CHECK(r.active_contacts == 0);
      CHECK(r.converged);
      const VectorX<double> acceleration = liedyn::aba(model, data, x, tau);
      const double kappa = 1 / liedyn::crba(model, data, x).llt().rcond();
      const VectorX<double> step_acceleration = (next.velocity(model) - v) / dt;
      const double free_error = liedyn::test::relative_error(step_acceleration, acceleration);
      liedyn::test::report("random tree: condition number of M", kappa);
      liedyn::test::report("random tree: free step's acceleration against ABA, relative",
                           free_error);
      // Two backward-stable solves with one M (LtDL, ABA) differ by about κ(M) ε; ten times that
      // for the two routes and the estimate of κ (up to 3e6 here).
      CHECK(free_error < 10 * kappa * std::numeric_limits<double>::epsilon());
      const liedyn::Configuration<double> q = liedyn::integrate(
          model, liedyn::Configuration<double>(x), VectorX<double>(dt * next.velocity(model)));
      // The same group operations on the same increment: equal to rounding of a unit pose, 1e-14.
      CHECK((q.H.matrix() - next.H.matrix()).norm() < 1e-14);
      CHECK((q.s - next.s).norm() < 1e-14);
      // The library's contact-free step (linearization.hpp) is the same scheme through ABA.
      State<double> euler(model);
      liedyn::semi_implicit_euler_step(model, data, x, tau, dt, euler);
      CHECK(liedyn::test::relative_error(next.velocity(model), euler.velocity(model)) <
            10 * kappa * std::numeric_limits<double>::epsilon());
      CHECK((euler.H.matrix() - next.H.matrix()).norm() < 1e-14);
      CHECK((euler.s - next.s).norm() < 1e-14);
    }

    {  // Every contact active: G, g, and the momentum balance.
      ContactStepWorkspace<double> ws(model, specs);
      ContactStepSettings<double> settings;
      settings.margin = std::numeric_limits<double>::infinity();
      settings.penetration_recovery = 0.5;
      State<double> next(model);
      const ContactStepResult<double> r =
          liedyn::contact_step(model, ws, x, tau, dt, next, settings);
      REQUIRE(r.active_contacts == 5);
      const int m = 15;
      // J from the points' velocities: row block k maps ν̄ to axesᵀ (the point's velocity in A),
      // the point's velocity from frame_velocity (body sense) at unit velocities e_i.
      MatrixX<double> J(m, nv);
      liedyn::forward_poses(model, data, x);
      for (int k = 0; k < 5; ++k) {
        const liedyn::ContactPoint<double>& c = ws.points[k];
        const SE3<double> H_body = data.kinematics.H_world[c.body];
        const Vector3<double> centre = H_body.act_point(c.point);
        const Vector3<double> n = c.axes.col(2);
        CHECK(std::abs(ws.gap(k) - (n.dot(centre - c.plane_point) - c.radius)) < 1e-14);
        const Vector3<double> point = H_body.act_inverse_point(centre - c.radius * n);
        for (int i = 0; i < nv; ++i) {
          State<double> xi = x;
          VectorX<double> e = VectorX<double>::Zero(nv);
          e(i) = 1;
          if (model.has_moving_base()) xi.nu = e.head<6>();
          xi.r = e.tail(model.nv_joints());
          const Vector6<double> twist = liedyn::frame_velocity(
              model, data, xi, c.body, SE3<double>(Matrix3<double>::Identity(), point),
              liedyn::TwistRepresentation::Body);
          const Vector3<double> velocity =
              H_body.rotation() * twist.head<3>();  // the frame's axes are the body's
          J.block(3 * k, i, 3, 1) = c.axes.transpose() * velocity;
        }
      }
      const MatrixX<double> M = liedyn::crba(model, data, x);
      const double kappa = 1 / M.llt().rcond();
      const MatrixX<double> Minv = M.llt().solve(MatrixX<double>::Identity(nv, nv));
      const MatrixX<double> G = J * Minv * J.transpose();
      // G against a dense inverse of M: about κ(M) ε relative, ten times that as above.
      CHECK((ws.delassus.topLeftCorner(m, m) - G).norm() <
            10 * kappa * std::numeric_limits<double>::epsilon() * G.norm());
      CHECK(
          (ws.delassus.topLeftCorner(m, m) - ws.delassus.topLeftCorner(m, m).transpose()).norm() ==
          0);
      // The impulses of active contacts in the contact order.
      VectorX<double> lambda(m);
      for (int k = 0; k < 5; ++k) lambda.segment<3>(3 * k) = ws.impulse.segment<3>(3 * k);
      const VectorX<double> h = liedyn::bias_force(model, data, x);
      const VectorX<double> v_next = next.velocity(model);
      // M (ν̄⁺ − ν̄) = Δt (τ̄ − h) + Jᵀ λ, a residual: rounding of |M| |ν̄| (no κ), 1e-10.
      const VectorX<double> rhs = dt * (tau - h) + J.transpose() * lambda;
      CHECK((M * (v_next - v) - rhs).norm() < 1e-10 * (rhs.norm() + (M * v).norm()));
      // c = J ν̄⁺ + b, with b's normal entries φ/Δt (open) or β φ/Δt (penetrating).
      VectorX<double> c = J * v_next;
      for (int k = 0; k < 5; ++k)
        c(3 * k + 2) += ws.gap(k) > 0 ? ws.gap(k) / dt : 0.5 * ws.gap(k) / dt;
      CHECK((c - ws.contact_velocity).norm() < 1e-9 * (1 + c.norm()));
      liedyn::test::report("random tree: |G - J M^-1 J^T| / |G|",
                           (ws.delassus.topLeftCorner(m, m) - G).norm() / G.norm());
    }
  }
}

TEST_CASE("contact_step: an unconverged solve is reported, and the step taken",
          "[contact_step][report]") {
  // The sliding cube's first step from a cold start with one iteration allowed: neither solver
  // meets the default tolerance in one iteration on it.
  const double a = 0.2, m = 1.5, theta = std::atan(0.42), dt = 1e-3;
  const Model<double> model = cube_model(a, m);
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    ContactStepWorkspace<double> ws(model, cube_corners(a, incline(theta), 0.3));
    ContactStepSettings<double> settings;
    settings.solver = solver;
    settings.solver_settings.max_iterations = 1;
    const State<double> x = cube_on_incline(model, a, theta);
    State<double> next(model);
    const ContactStepResult<double> r =
        liedyn::contact_step(model, ws, x, VectorX<double>::Zero(6), dt, next, settings);
    CHECK_FALSE(r.converged);
    CHECK_FALSE(r.solver.converged);
    CHECK(r.solver.iterations == 1);
    CHECK(r.active_contacts == 4);
    CHECK(r.solver.dual_residual > settings.solver_settings.absolute_tolerance);
    // The step was taken with the last iterate: the cube moved, its impulses are kept.
    CHECK(next.nu.norm() > 0);
    CHECK(ws.warm_start_impulse.norm() > 0);
  }
}

TEST_CASE("contact_step: no allocation once the workspace exists", "[contact_step][alloc]") {
  const double a = 0.2, m = 1.5, theta = std::atan(0.42), dt = 1e-3;
  const Model<double> model = cube_model(a, m);
  for (ContactSolver solver : {ContactSolver::Admm, ContactSolver::Pgs}) {
    CAPTURE(liedyn::to_string(solver));
    ContactStepWorkspace<double> ws(model, cube_corners(a, incline(theta), 0.3));
    ContactStepSettings<double> settings;
    settings.solver = solver;
    State<double> x = cube_on_incline(model, a, theta), x_next(model);
    x.H = SE3<double>(x.H.rotation(), x.H.translation() + Vector3<double>(0, 0, 0.005));
    const VectorX<double> tau = VectorX<double>::Zero(6);
    liedyn::contact_step(model, ws, x, tau, dt, x_next, settings);  // sizes x_next
    std::size_t allocations = 0;
    int active_seen = 0;
    {
      liedyn::test::NoAllocation guard;
      // Ten steps: the corners come in and out of the margin as the cube lands.
      for (int step = 0; step < 40; ++step) {
        liedyn::contact_step(model, ws, x, tau, dt, x_next, settings);
        liedyn::contact_step(model, ws, x_next, tau, dt, x, settings);
        active_seen = std::max(active_seen, static_cast<int>(ws.active.size()));
      }
      allocations = guard.allocations();
    }
    CHECK(allocations == 0);
    CHECK(active_seen == 4);
  }
}

TEST_CASE("contact_step: argument checks", "[contact_step][errors]") {
  const Model<double> model = cube_model(0.2, 1.0);
  const ContactPlane<double> ground = ContactPlane<double>::ground();
  using Spec = ContactPointSpec<double>;
  const Vector3<double> zero = Vector3<double>::Zero();
  CHECK_THROWS_WITH(
      (ContactStepWorkspace<double>(model, {Spec::on_body("cube", zero, ground, -0.1)})),
      Contains("liedyn: ContactStepWorkspace: contact 'cube': the friction "
               "coefficient must be finite and >= 0"));
  CHECK_THROWS_WITH(
      (ContactStepWorkspace<double>(model, {Spec::on_frame("nowhere", ground, 0.5)})),
      Contains("liedyn: ContactStepWorkspace: contact 'nowhere': no frame named 'nowhere'"));
  CHECK_THROWS_WITH(
      (ContactStepWorkspace<double>(model, {Spec::on_body("wheel", zero, ground, 0.5)})),
      Contains("contact 'wheel': no body named 'wheel'"));
  CHECK_THROWS_WITH(
      (ContactStepWorkspace<double>(
          model, {Spec::on_body("cube", zero, ContactPlane<double>::through(zero, zero), 0.5)})),
      Contains("contact 'cube': the plane's normal must be non-zero and finite"));
  CHECK_THROWS_WITH(
      (ContactStepWorkspace<double>(model, {Spec::on_body("cube", zero, ground, 0.5, -1.0)})),
      Contains("contact 'cube': the radius must be finite and >= 0"));
  CHECK_THROWS_AS((ContactStepWorkspace<double>(model, {Spec::on_body("cube", zero, ground, -1)})),
                  liedyn::InvalidArgument);

  ContactStepWorkspace<double> ws(model, {Spec::on_body("cube", zero, ground, 0.5)});
  State<double> x(model);
  const VectorX<double> tau = VectorX<double>::Zero(6);
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, tau, 0.0, x),
                    Contains("liedyn: contact_step: dt must be finite and > 0"));
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, tau, -1e-3, x),
                    Contains("liedyn: contact_step: dt must be finite and > 0"));
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, VectorX<double>::Zero(5), 1e-3, x),
                    Contains("liedyn: contact_step: tau has size 5, expected 6"));
  State<double> bad = x;
  bad.nu(3) = std::nan("");
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, bad, tau, 1e-3, x),
                    Contains("liedyn: contact_step: the state has a non-finite entry"));
  VectorX<double> bad_tau = tau;
  bad_tau(0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, bad_tau, 1e-3, x),
                    Contains("liedyn: contact_step: tau has a non-finite entry"));
  ContactStepSettings<double> settings;
  settings.margin = -1;
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, tau, 1e-3, x, settings),
                    Contains("liedyn: contact_step: the margin must be >= 0"));
  settings = ContactStepSettings<double>();
  settings.penetration_recovery = 1.5;
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, tau, 1e-3, x, settings),
                    Contains("liedyn: contact_step: penetration_recovery must lie in [0, 1]"));
  settings = ContactStepSettings<double>();
  settings.restitution = -0.1;
  CHECK_THROWS_WITH(liedyn::contact_step(model, ws, x, tau, 1e-3, x, settings),
                    Contains("liedyn: contact_step: the restitution must lie in [0, 1]"));
  const Model<double> other = cube_model(0.2, 1.0);
  CHECK_THROWS_WITH(liedyn::contact_step(other, ws, State<double>(other), tau, 1e-3, x),
                    Contains("liedyn: contact_step: the workspace was built for another model"));
}

#if defined(LIEDYN_HAS_URDF)
TEST_CASE("contact_step: Solo-12 stands for 1 s at 1 kHz under PD control",
          "[contact_step][physics][urdf]") {
  const Model<double> model =
      liedyn::load_urdf_file(std::string(LIEDYN_TEST_DATA_DIR) + "/solo12.urdf");
  const int nv = model.nv(), nj = model.nv_joints();
  REQUIRE(nj == 12);
  const std::vector<std::string> feet{"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
  const double mu = 0.8, dt = 1e-3;
  liedyn::Data<double> data(model);

  // The stance: every leg at HFE = 0.8, KFE = −1.6 (HAA = 0); the base raised to put the feet on
  // the ground z = 0 (by symmetry they share one height).
  State<double> x(model);
  for (int i = 1; i < model.num_bodies(); ++i) {
    const std::string& name = model.joint_name(i);
    const int q = model.q_index(i);
    if (name.find("HFE") != std::string::npos) x.s(q) = 0.8;
    if (name.find("KFE") != std::string::npos) x.s(q) = -1.6;
  }
  liedyn::forward_poses(model, data, x);
  double foot_height = 0;
  for (const std::string& f : feet)
    foot_height += liedyn::frame_pose(model, data, f).translation()(2) / 4;
  x.H = SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0.0, 0.0, -foot_height));
  liedyn::forward_poses(model, data, x);
  for (const std::string& f : feet)
    REQUIRE(std::abs(liedyn::frame_pose(model, data, f).translation()(2)) < 1e-12);

  // Static feedforward: h(x, 0) = S τ + Jᵀ f with the least-norm feet forces f on the base rows.
  const VectorX<double> h = liedyn::bias_force(model, data, x);
  MatrixX<double> J(12, nv), Jf(6, nv);
  for (int k = 0; k < 4; ++k) {
    liedyn::frame_jacobian(model, data, x, feet[k], liedyn::TwistRepresentation::Mixed, Jf);
    J.middleRows(3 * k, 3) = Jf.topRows(3);
  }
  const VectorX<double> forces =
      J.leftCols(6).transpose().completeOrthogonalDecomposition().solve(h.head(6));
  const VectorX<double> feedforward = h.tail(nj) - J.rightCols(nj).transpose() * forces;
  for (int k = 0; k < 4; ++k) {  // the forces push up, inside the friction cone
    REQUIRE(forces(3 * k + 2) > 0);
    REQUIRE(forces.segment<2>(3 * k).norm() < mu * forces(3 * k + 2));
  }

  std::vector<ContactPointSpec<double>> contacts;
  for (const std::string& f : feet)
    contacts.push_back(ContactPointSpec<double>::on_frame(f, ContactPlane<double>::ground(), mu));
  ContactStepWorkspace<double> ws(model, contacts);
  const VectorX<double> s0 = x.s;
  const Vector3<double> base0 = x.H.translation();
  // A disturbance: the joints start moving at 0.05 rad/s, alternating signs.
  for (int j = 0; j < nj; ++j) x.r(j) = (j % 2 ? 0.05 : -0.05);
  const double kp = 5.0, kd = 0.1;
  VectorX<double> tau = VectorX<double>::Zero(nv);
  double largest_drift = 0, largest_foot_slip = 0;
  bool all_converged = true;
  int largest_iterations = 0;
  std::vector<Vector3<double>> feet0;
  for (const std::string& f : feet)
    feet0.push_back(liedyn::frame_pose(model, data, f).translation());
  for (int step = 0; step < 1000; ++step) {
    tau.tail(nj) = feedforward + kp * (s0 - x.s) - kd * x.r;
    const ContactStepResult<double> r = liedyn::contact_step(model, ws, x, tau, dt, x);
    all_converged = all_converged && r.converged && r.active_contacts == 4;
    largest_iterations = std::max(largest_iterations, r.solver.iterations);
    largest_drift = std::max(largest_drift, (x.H.translation() - base0).norm());
    liedyn::forward_poses(model, data, x);
    for (int k = 0; k < 4; ++k)
      largest_foot_slip = std::max(
          largest_foot_slip,
          (liedyn::frame_pose(model, data, feet[k]).translation() - feet0[k]).head<2>().norm());
  }
  CHECK(all_converged);
  liedyn::test::report("solo12 standing: largest base drift (m)", largest_drift);
  liedyn::test::report("solo12 standing: largest horizontal foot slip (m)", largest_foot_slip);
  liedyn::test::report("solo12 standing: final joint error (rad)", (x.s - s0).norm());
  liedyn::test::report("solo12 standing: largest ADMM iterations", largest_iterations);
  // The bound on the base.
  CHECK(largest_drift < 1e-3);
  // The feet stick (μ = 0.8 holds the disturbance): the solver's tolerance over 1000 steps, 1e-9.
  CHECK(largest_foot_slip < 1e-9);
}
#endif

}  // namespace LIEDYN_UNITY_ID
