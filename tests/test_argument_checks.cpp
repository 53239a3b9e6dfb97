// Argument checks in every build (the release build, -DNDEBUG, is the one CTest runs): every
// public function family throws liedyn::InvalidArgument for an input or output of the wrong
// size and for a Data sized for another model, with a message naming the function and the
// argument.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include <liedyn/algorithm/reference_dynamics.hpp>
#include <liedyn/liedyn.hpp>
#include <liedyn/numdiff/finite_differences.hpp>
#include <liedyn/testing/samples.hpp>

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;
using Catch::Matchers::Contains;

namespace {

// The message of the InvalidArgument `f` throws ("" if it throws nothing or something else).
template <class F>
std::string invalid_argument_message(F&& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  } catch (...) {
    return "<another exception>";
  }
  return "<no exception>";
}

// A model, a second model of the same shape (so only its identity differs), and a Data of each.
struct Fixture {
  Model<double> model = figure4_model<double>();
  Model<double> other = figure4_model<double>();
  Data<double> data{model};
  Data<double> foreign{other};
  State<double> x{model};
  VectorX<double> v_ok = VectorX<double>::Zero(model.nv());
  VectorX<double> v_short = VectorX<double>::Zero(model.nv() - 1);
  VectorX<double> s_short = VectorX<double>::Zero(model.num_joints() - 1);
  State<double> x_bad_s = [this] {
    State<double> y(model);
    y.s.resize(model.num_joints() + 1);
    y.s.setZero();
    return y;
  }();
  std::string nv = std::to_string(model.nv());
  std::string nv_short = std::to_string(model.nv() - 1);
};

#define LIEDYN_EXPECT_INVALID(expr, who, what)                                          \
  do {                                                                                  \
    const std::string msg = invalid_argument_message([&] { (void)(expr); });            \
    INFO(#expr);                                                                        \
    CHECK_THAT(msg, Contains(std::string("liedyn: ") + (who) + ":") && Contains(what)); \
  } while (0)

}  // namespace

TEST_CASE("argument checks: the exception type is an std::invalid_argument", "[errors][checks]") {
  // Catching std::invalid_argument (what earlier debug builds threw) keeps working.
  const InvalidArgument e("liedyn: f: x has size 1, expected 2");
  const std::invalid_argument& base = e;
  CHECK(std::string(base.what()) == "liedyn: f: x has size 1, expected 2");
  // Numerical-validity checks are the only debug-only ones; say which build this is.
  INFO("LIEDYN_CHECKS_ENABLED = " << LIEDYN_CHECKS_ENABLED);
  SUCCEED();
}

TEST_CASE("argument checks: model identity is kept by copies and renewed by builds and casts",
          "[errors][checks]") {
  Fixture f;
  CHECK(f.model.id() != f.other.id());
  const Model<double> copy = f.model;
  CHECK(copy.id() == f.model.id());
  CHECK(f.model.cast<long double>().id() != f.model.id());
  // A copy of the model is the same model: its Data works.
  CHECK_NOTHROW(rnea(copy, f.data, f.x, f.v_ok));
  // resize() re-pairs a Data with another model.
  Data<double> d(f.other);
  CHECK_THROWS_AS(rnea(f.model, d, f.x, f.v_ok), InvalidArgument);
  d.resize(f.model);
  CHECK_NOTHROW(rnea(f.model, d, f.x, f.v_ok));
}

TEST_CASE("argument checks: inverse dynamics (rnea, bias, gravity, Coriolis, eidamb)",
          "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(rnea(f.model, f.data, f.x, f.v_short), "rnea",
                        "ddq has size " + f.nv_short + ", expected " + f.nv);
  LIEDYN_EXPECT_INVALID(rnea(f.model, f.foreign, f.x, f.v_ok), "rnea",
                        "data was sized for another model");
  LIEDYN_EXPECT_INVALID(rnea(f.model, f.data, f.x_bad_s, f.v_ok), "rnea",
                        "state.s has size 8, expected 7");
  ExternalWrenches<double> few(2);
  LIEDYN_EXPECT_INVALID(rnea(f.model, f.data, f.x, f.v_ok, &few), "rnea",
                        "external wrenches has size 2, expected 8");
  LIEDYN_EXPECT_INVALID(bias_force(f.model, f.foreign, f.x), "bias_force", "another model");
  LIEDYN_EXPECT_INVALID(bias_force(f.model, f.data, f.x_bad_s), "bias_force", "state.s");
  LIEDYN_EXPECT_INVALID(gravity_force(f.model, f.foreign, f.x), "gravity_force", "another model");
  LIEDYN_EXPECT_INVALID(coriolis_force(f.model, f.foreign, f.x), "coriolis_force", "another model");
  LIEDYN_EXPECT_INVALID(eidamb(f.model, f.data, f.x, f.v_short), "eidamb",
                        "ddq has size " + f.nv_short);
  LIEDYN_EXPECT_INVALID(eidamb(f.model, f.foreign, f.x, f.v_ok), "eidamb", "another model");
}

TEST_CASE("argument checks: forward dynamics (aba, Euler step, reference LLT)",
          "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(aba(f.model, f.data, f.x, f.v_short), "aba",
                        "tau has size " + f.nv_short + ", expected " + f.nv);
  LIEDYN_EXPECT_INVALID(aba(f.model, f.foreign, f.x, f.v_ok), "aba", "another model");
  LIEDYN_EXPECT_INVALID(semi_implicit_euler_step(f.model, f.data, f.x, f.v_short, 1e-3),
                        "semi_implicit_euler_step", "tau has size");
  LIEDYN_EXPECT_INVALID(semi_implicit_euler_step(f.model, f.foreign, f.x, f.v_ok, 1e-3),
                        "semi_implicit_euler_step", "another model");
  LIEDYN_EXPECT_INVALID(forward_dynamics_llt(f.model, f.data, f.x, f.v_short),
                        "forward_dynamics_llt", "tau has size");
  LIEDYN_EXPECT_INVALID(forward_dynamics_llt(f.model, f.foreign, f.x, f.v_ok),
                        "forward_dynamics_llt", "another model");
}

TEST_CASE("argument checks: mass matrix and its inverse (crba, immamb, aza, ltdl)",
          "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(crba(f.model, f.data, f.s_short), "crba", "s has size 6, expected 7");
  LIEDYN_EXPECT_INVALID(crba(f.model, f.foreign, f.x), "crba", "another model");
  LIEDYN_EXPECT_INVALID(immamb(f.model, f.data, f.s_short), "immamb", "s has size 6");
  LIEDYN_EXPECT_INVALID(immamb(f.model, f.foreign, f.x), "immamb", "another model");
  LIEDYN_EXPECT_INVALID(aza_factorize(f.model, f.foreign, f.x.s), "aza_factorize", "another model");
  aza_factorize(f.model, f.data, f.x.s);
  MatrixX<double> Y = MatrixX<double>::Identity(f.model.nv(), f.model.nv());
  MatrixX<double> X_small(f.model.nv(), 2);
  LIEDYN_EXPECT_INVALID(aza_solve(f.model, f.data, Y, X_small), "aza_solve",
                        "X has size " + f.nv + " x 2, expected " + f.nv + " x " + f.nv);
  LIEDYN_EXPECT_INVALID(aza_solve(f.model, f.data, f.v_short, f.v_short), "aza_solve",
                        "Y has size " + f.nv_short);
  // A fresh Data's M is zero: the factorization refuses it rather than return infinities.
  Data<double> fresh(f.model);
  LIEDYN_EXPECT_INVALID(
      ltdl_factorize(f.model, fresh), "ltdl_factorize",
      "data.M is not positive definite (pivot " + f.nv_short + "): compute it first (crba)");
  // Solves from factors no call computed: ltdl's zero pivots would give infinities, AZA's unset
  // factors zeros.
  VectorX<double> w_fresh = f.v_ok;
  LIEDYN_EXPECT_INVALID(ltdl_solve(f.model, fresh, w_fresh), "ltdl_solve",
                        "data.ltdl holds no factorization (pivot 0 is not positive): run "
                        "ltdl_factorize first");
  LIEDYN_EXPECT_INVALID(ltdl_inverse(f.model, fresh), "ltdl_inverse",
                        "data.ltdl holds no factorization");
  MatrixX<double> X_fresh(f.model.nv(), f.model.nv());
  LIEDYN_EXPECT_INVALID(aza_solve(f.model, fresh, Y, X_fresh), "aza_solve",
                        "data holds no factorization: run aza_factorize first");
  crba(f.model, f.data, f.x);
  LIEDYN_EXPECT_INVALID(ltdl_factorize(f.model, f.foreign), "ltdl_factorize", "another model");
  ltdl_factorize(f.model, f.data);
  VectorX<double> w = f.v_short;
  LIEDYN_EXPECT_INVALID(ltdl_solve(f.model, f.data, w), "ltdl_solve",
                        "x has size " + f.nv_short + ", expected " + f.nv);
  LIEDYN_EXPECT_INVALID(ltdl_inverse(f.model, f.foreign), "ltdl_inverse", "another model");
  MatrixX<double> M;
  LIEDYN_EXPECT_INVALID(mass_matrix_from_inverse_dynamics(f.model, f.data, f.s_short, M),
                        "mass_matrix_from_inverse_dynamics", "s has size 6");
  LIEDYN_EXPECT_INVALID(mass_matrix_from_inverse_dynamics(f.model, f.foreign, f.x, M),
                        "mass_matrix_from_inverse_dynamics", "another model");
}

TEST_CASE("argument checks: derivatives and linearization", "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(eidamb_derivatives(f.model, f.data, f.x, f.v_short), "eidamb_derivatives",
                        "ddq has size");
  LIEDYN_EXPECT_INVALID(eidamb_derivatives(f.model, f.foreign, f.x, f.v_ok), "eidamb_derivatives",
                        "another model");
  LIEDYN_EXPECT_INVALID(linearize(f.model, f.data, f.x, f.v_short), "linearize",
                        "tau has size " + f.nv_short);
  LIEDYN_EXPECT_INVALID(linearize(f.model, f.foreign, f.x, f.v_ok), "linearize", "another model");
  LinearizationOptions<double> sweeps;
  sweeps.minv = MinvMethod::Sweeps;
  LIEDYN_EXPECT_INVALID(linearize(f.model, f.foreign, f.x, f.v_ok, sweeps), "linearize",
                        "another model");
  LIEDYN_EXPECT_INVALID(linearize_discrete(f.model, f.data, f.x, f.v_short, 1e-3),
                        "linearize_discrete", "tau has size");
  LIEDYN_EXPECT_INVALID(linearize_discrete(f.model, f.foreign, f.x, f.v_ok, 1e-3),
                        "linearize_discrete", "another model");
  const MatrixX<double> S = MatrixX<double>::Identity(f.model.nv(), 3);
  const VectorX<double> u = VectorX<double>::Zero(2);
  MatrixX<double> Bu;
  LIEDYN_EXPECT_INVALID(linearize_actuated(f.model, f.data, f.x, S, u, Bu), "linearize_actuated",
                        "actuation has size " + f.nv + " x 3, expected " + f.nv + " x 2");
  LIEDYN_EXPECT_INVALID(
      linearize_actuated(f.model, f.foreign, f.x, S, VectorX<double>::Zero(3), Bu),
      "linearize_actuated", "another model");
}

TEST_CASE("argument checks: kinematics, frames by index and by name, Jacobian blocks",
          "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(forward_kinematics(f.model, f.foreign, f.x), "forward_poses",
                        "another model");
  LIEDYN_EXPECT_INVALID(forward_kinematics(f.model, f.data, f.x_bad_s), "forward_poses",
                        "state.s has size 8");
  LIEDYN_EXPECT_INVALID(forward_velocity(f.model, f.foreign, f.x), "forward_velocity",
                        "another model");
  forward_kinematics(f.model, f.data, f.x);
  LIEDYN_EXPECT_INVALID(frame_pose(f.model, f.foreign, 1), "frame_pose", "another model");
  LIEDYN_EXPECT_INVALID(frame_pose(f.model, f.data, 99), "frame_pose",
                        "frame index 99 out of range");
  LIEDYN_EXPECT_INVALID(frame_pose(f.model, f.data, std::string("no_such_frame")), "frame_pose",
                        "no frame named 'no_such_frame'");
  LIEDYN_EXPECT_INVALID(frame_pose(f.model, f.data, -1, SE3<double>()), "frame_pose",
                        "body index -1 out of range");

  Matrix6X<double> J(6, f.model.nv());
  MatrixX<double> big = MatrixX<double>::Zero(12, f.model.nv());
  // An output block of the wrong size is refused, not resized or overrun.
  LIEDYN_EXPECT_INVALID(
      frame_jacobian(f.model, f.data, f.x, 2, TwistRepresentation::Body, big.topRows(5)),
      "frame_jacobian", "J has size 5 x " + f.nv + ", expected 6 x " + f.nv);
  LIEDYN_EXPECT_INVALID(frame_jacobian(f.model, f.data, f.x, 2, TwistRepresentation::Body,
                                       big.leftCols(3).topRows(6)),
                        "frame_jacobian", "J has size 6 x 3");
  CHECK((big.array() == 0.0).all());
  LIEDYN_EXPECT_INVALID(frame_jacobian(f.model, f.foreign, f.x, 2, TwistRepresentation::Body, J),
                        "frame_jacobian", "another model");
  LIEDYN_EXPECT_INVALID(frame_jacobian(f.model, f.data, f.x_bad_s, 2, TwistRepresentation::Body, J),
                        "frame_jacobian", "state.s");
  LIEDYN_EXPECT_INVALID(
      frame_jacobian(f.model, f.data, f.x, std::string("gripper"), TwistRepresentation::Body, J),
      "frame_jacobian", "no frame named 'gripper'");
  LIEDYN_EXPECT_INVALID(body_jacobian(f.model, f.data, f.x, 42, TwistRepresentation::Body, J),
                        "frame_jacobian", "body index 42");
  // A plain matrix of another size is resized (documented), a block is not.
  MatrixX<double> plain(2, 2);
  CHECK_NOTHROW(frame_jacobian(f.model, f.data, f.x, 2, TwistRepresentation::Body, plain));
  CHECK(plain.rows() == 6);
  CHECK(plain.cols() == f.model.nv());
  // A frame found by name gives the same Jacobian as by index.
  const std::string name = f.model.frame(3).name;
  MatrixX<double> by_name(6, f.model.nv());
  frame_jacobian(f.model, f.data, f.x, name, TwistRepresentation::Mixed, by_name);
  frame_jacobian(f.model, f.data, f.x, 3, TwistRepresentation::Mixed, J);
  CHECK(by_name == MatrixX<double>(J));

  LIEDYN_EXPECT_INVALID(frame_velocity(f.model, f.foreign, f.x, 1, TwistRepresentation::Body),
                        "frame_velocity", "another model");
  LIEDYN_EXPECT_INVALID(
      frame_velocity(f.model, f.data, f.x, std::string("tool"), TwistRepresentation::Body),
      "frame_velocity", "no frame named 'tool'");
  LIEDYN_EXPECT_INVALID(
      frame_acceleration_bias(f.model, f.foreign, f.x, 1, TwistRepresentation::Body),
      "frame_acceleration_bias", "another model");
  LIEDYN_EXPECT_INVALID(
      frame_acceleration_bias(f.model, f.data, f.x, std::string("tool"), TwistRepresentation::Body),
      "frame_acceleration_bias", "no frame named 'tool'");
  LIEDYN_EXPECT_INVALID(f.model.require_joint_id("elbow_of_nobody", "my_function"), "my_function",
                        "no joint named 'elbow_of_nobody'");
  LIEDYN_EXPECT_INVALID(f.model.require_body_id("ghost", "my_function"), "my_function",
                        "no body named 'ghost'");
}

TEST_CASE("argument checks: state operations and finite differences", "[errors][checks]") {
  Fixture f;
  const int N = tangent_size(f.model);
  const VectorX<double> dx_short = VectorX<double>::Zero(N - 1);
  LIEDYN_EXPECT_INVALID(integrate(f.model, f.x, dx_short), "integrate",
                        "dx has size " + std::to_string(N - 1) + ", expected " + std::to_string(N));
  LIEDYN_EXPECT_INVALID(integrate(f.model, f.x_bad_s, VectorX<double>::Zero(N)), "integrate",
                        "x.s has size 8");
  LIEDYN_EXPECT_INVALID(difference(f.model, f.x, f.x_bad_s), "difference", "y.s has size 8");
  MatrixX<double> A, B;
  LIEDYN_EXPECT_INVALID(integrate_jacobians(f.model, dx_short, A, B), "integrate_jacobians",
                        "dx has size");
  LIEDYN_EXPECT_INVALID(difference_jacobians(f.model, f.x_bad_s, f.x, A, B), "difference_jacobians",
                        "x.s has size");
  State<double> x_bad_r(f.model);
  x_bad_r.r.resize(1);
  LIEDYN_EXPECT_INVALID(x_bad_r.velocity(f.model), "State::velocity", "state.r has size 1");
  auto g = [&](const State<double>& y) { return VectorX<double>(y.s); };
  LIEDYN_EXPECT_INVALID(numdiff::state_jacobian(f.model, g, f.x_bad_s), "numdiff::state_jacobian",
                        "x.s has size 8");
  LIEDYN_EXPECT_INVALID(numdiff::jacobian_wrt_pose(f.model, g, f.x_bad_s),
                        "numdiff::state_jacobian_block", "x.s has size 8");
}

TEST_CASE("argument checks: centroidal quantities, energy and the Coriolis matrix",
          "[errors][checks]") {
  Fixture f;
  LIEDYN_EXPECT_INVALID(center_of_mass(f.model, f.foreign, f.x), "center_of_mass", "another model");
  LIEDYN_EXPECT_INVALID(centroidal_momentum_matrix(f.model, f.foreign, f.x),
                        "centroidal_momentum_matrix", "another model");
  LIEDYN_EXPECT_INVALID(centroidal_momentum_rate(f.model, f.data, f.x, f.v_short),
                        "centroidal_momentum_rate",
                        "ddq has size " + f.nv_short + ", expected " + f.nv);
  LIEDYN_EXPECT_INVALID(centroidal_derivatives(f.model, f.data, f.x_bad_s, f.v_ok),
                        "centroidal_derivatives", "state.s");
  LIEDYN_EXPECT_INVALID(kinetic_energy(f.model, f.foreign, f.x), "kinetic_energy", "another model");
  LIEDYN_EXPECT_INVALID(potential_energy(f.model, f.foreign, f.x), "potential_energy",
                        "another model");
  LIEDYN_EXPECT_INVALID(coriolis_matrix(f.model, f.foreign, f.x), "coriolis_matrix",
                        "another model");
}

TEST_CASE("argument checks: the constraint kernels", "[errors][checks]") {
  Fixture f;
  const std::string frame = f.model.frame(f.model.num_bodies() - 1).name;
  const ConstraintSet<double> set(f.model, {ConstraintSpec<double>::point_contact(frame)});
  ConstraintData<double> cd(f.model, set);
  LIEDYN_EXPECT_INVALID(constrained_forward_dynamics(f.model, f.foreign, set, cd, f.x, f.v_ok),
                        "constrained_forward_dynamics", "another model");
  LIEDYN_EXPECT_INVALID(constrained_forward_dynamics(f.model, f.data, set, cd, f.x, f.v_short),
                        "constrained_forward_dynamics",
                        "tau has size " + f.nv_short + ", expected " + f.nv);
  LIEDYN_EXPECT_INVALID(impulse_dynamics(f.model, f.foreign, set, cd, f.x, 0.0), "impulse_dynamics",
                        "another model");
  LIEDYN_EXPECT_INVALID(constraint_kinematics(f.model, f.data, set, cd, f.x_bad_s),
                        "constraint_kinematics", "state.s");
  // A ConstraintData sized for another constraint set.
  const ConstraintSet<double> two(f.model, {ConstraintSpec<double>::rigid_contact(frame)});
  LIEDYN_EXPECT_INVALID(constraint_kinematics(f.model, f.data, two, cd, f.x),
                        "constraint_kinematics", "another model or constraint set");
}

}  // namespace LIEDYN_UNITY_ID
