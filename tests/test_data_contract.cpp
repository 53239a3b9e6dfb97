// liedyn tests — "Data holds results, not promises": no kernel depends on a public member of
// Data keeping a value between calls.
//
// For every kernel: run it on a fresh Data, write NaN into every public member of that Data
// (outputs and intermediates alike, as a user who reuses the buffers might), run it again with
// the same inputs, and require bit-identical outputs. A kernel that reads a public entry it did
// not write in the same call (a zero pattern set when Data was built, a constant block written
// once) returns NaN there and fails. The pairs whose second call takes the first's result as
// input (ltdl_factorize → ltdl_solve/ltdl_inverse, aza_factorize → aza_solve) run as one unit.
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include <liedyn/liedyn.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/scribble.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

using namespace liedyn;
using S = double;
using liedyn::test::bit_identical;
using liedyn::test::scribble;

using Outputs = std::vector<MatrixX<S>>;

struct Kernel {
  std::string name;
  std::function<Outputs(Data<S>&)> run;  // runs the kernel, returns copies of its outputs
};

MatrixX<S> pose_matrix(const SE3<S>& H) {
  MatrixX<S> m(3, 4);
  m << H.rotation(), H.translation();
  return m;
}

std::vector<Kernel> kernels(const Model<S>& model, const State<S>& x, const VectorX<S>& ddq,
                            const VectorX<S>& tau) {
  const int nv = model.nv(), n = model.num_joints();
  const int frame = model.num_bodies() - 1;
  std::vector<Kernel> k;
  k.push_back(
      {"rnea", [=, &model, &x, &ddq](Data<S>& d) { return Outputs{rnea(model, d, x, ddq)}; }});
  k.push_back(
      {"bias_force", [=, &model, &x](Data<S>& d) { return Outputs{bias_force(model, d, x)}; }});
  k.push_back({"gravity_force",
               [=, &model, &x](Data<S>& d) { return Outputs{gravity_force(model, d, x)}; }});
  k.push_back({"coriolis_force",
               [=, &model, &x](Data<S>& d) { return Outputs{coriolis_force(model, d, x)}; }});
  k.push_back(
      {"eidamb", [=, &model, &x, &ddq](Data<S>& d) { return Outputs{eidamb(model, d, x, ddq)}; }});
  k.push_back({"crba", [=, &model, &x](Data<S>& d) {
                 crba(model, d, x);
                 return Outputs{d.M, d.inverse_dynamics.F, d.inverse_dynamics.Ic[0].matrix()};
               }});
  k.push_back(
      {"aba", [=, &model, &x, &tau](Data<S>& d) { return Outputs{aba(model, d, x, tau)}; }});
  k.push_back({"immamb", [=, &model, &x](Data<S>& d) { return Outputs{immamb(model, d, x)}; }});
  k.push_back({"aza_factorize+aza_solve", [=, &model, &x](Data<S>& d) {
                 MatrixX<S> X(nv, 2);
                 aza_factorize(model, d, x.s);
                 aza_solve(model, d, MatrixX<S>::Identity(nv, 2), X);
                 return Outputs{X};
               }});
  k.push_back({"crba+ltdl_factorize+ltdl_solve+ltdl_inverse", [=, &model, &x, &tau](Data<S>& d) {
                 crba(model, d, x);
                 ltdl_factorize(model, d);
                 VectorX<S> y = tau;
                 ltdl_solve(model, d, y);
                 ltdl_inverse(model, d);
                 return Outputs{y, d.Minv, d.ltdl.factors.diagonal()};
               }});
  for (TwistRepresentation rep :
       {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
    const std::string r = std::to_string(static_cast<int>(rep));
    k.push_back(
        {"eidamb_derivatives rep " + r, [=, &model, &x, &ddq](Data<S>& d) {
           eidamb_derivatives(model, d, x, ddq, rep);
           return Outputs{
               d.derivatives.D1, d.derivatives.D2, d.derivatives.D3, d.derivatives.D4, d.M, d.tau};
         }});
    for (MinvMethod minv : {MinvMethod::Dense, MinvMethod::Sweeps}) {
      LinearizationOptions<S> opt;
      opt.representation = rep;
      opt.minv = minv;
      const std::string name = " rep " + r + " minv " + std::to_string(static_cast<int>(minv));
      k.push_back(
          {"linearize" + name, [=, &model, &x, &tau](Data<S>& d) {
             linearize(model, d, x, tau, opt);
             return Outputs{
                 d.linearization.A, d.linearization.B, d.ddq,           d.Minv, d.derivatives.D1,
                 d.derivatives.D2,  d.derivatives.D3,  d.derivatives.D4};
           }});
      k.push_back({"linearize_discrete" + name, [=, &model, &x, &tau](Data<S>& d) {
                     linearize_discrete(model, d, x, tau, S(0.01), opt);
                     return Outputs{d.linearization.A, d.linearization.B};
                   }});
    }
  }
  k.push_back({"linearize_actuated", [=, &model, &x, &tau](Data<S>& d) {
                 const MatrixX<S> actuation = MatrixX<S>::Identity(nv, n).eval();
                 MatrixX<S> Bu(2 * nv, n);
                 linearize_actuated(model, d, x, actuation, VectorX<S>(tau.tail(n)), Bu);
                 return Outputs{d.linearization.A, Bu};
               }});
  k.push_back({"semi_implicit_euler_step", [=, &model, &x, &tau](Data<S>& d) {
                 const State<S> y = semi_implicit_euler_step(model, d, x, tau, S(0.01));
                 return Outputs{pose_matrix(y.H), y.s, y.nu, y.r};
               }});
  k.push_back({"semi_implicit_euler_step (output argument)", [=, &model, &x, &tau](Data<S>& d) {
                 State<S> y = x;
                 semi_implicit_euler_step(model, d, x, tau, S(0.01), y);
                 return Outputs{pose_matrix(y.H), y.s, y.nu, y.r};
               }});
  k.push_back({"centre of mass and centroidal quantities", [=, &model, &x, &ddq](Data<S>& d) {
                 const MatrixX<S> p = center_of_mass(model, d, x),
                                  pb = center_of_mass(model, d, x, ComFrame::Base);
                 const MatrixX<S> v = center_of_mass_velocity(model, d, x),
                                  a = center_of_mass_acceleration(model, d, x, ddq);
                 const MatrixX<S> J = center_of_mass_jacobian(model, d, x),
                                  JB = center_of_mass_jacobian(model, d, x, ComFrame::Base);
                 const MatrixX<S> h = centroidal_momentum(model, d, x),
                                  A = centroidal_momentum_matrix(model, d, x);
                 const MatrixX<S> drift = centroidal_momentum_drift(model, d, x);
                 const MatrixX<S> rate = centroidal_momentum_rate(model, d, x, ddq);
                 return Outputs{p, pb, v, a, J, JB, h, A, drift, rate};
               }});
  for (TwistRepresentation rep :
       {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
    k.push_back(
        {"centroidal_derivatives rep " + std::to_string(static_cast<int>(rep)),
         [=, &model, &x, &ddq](Data<S>& d) {
           centroidal_derivatives(model, d, x, ddq, rep);
           return Outputs{d.centroidal.com_dx, d.centroidal.momentum_dx, d.centroidal.rate_dx};
         }});
  }
  k.push_back({"energy and coriolis_matrix", [=, &model, &x](Data<S>& d) {
                 const MatrixX<S> T = MatrixX<S>::Constant(1, 1, kinetic_energy(model, d, x));
                 const MatrixX<S> U = MatrixX<S>::Constant(1, 1, potential_energy(model, d, x));
                 return Outputs{T, U, coriolis_matrix(model, d, x)};
               }});
  k.push_back({"forward_kinematics+frame_pose", [=, &model, &x](Data<S>& d) {
                 forward_kinematics(model, d, x);
                 return Outputs{pose_matrix(frame_pose(model, d, frame))};
               }});
  for (TwistRepresentation rep :
       {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
    k.push_back({"frame kinematics rep " + std::to_string(static_cast<int>(rep)),
                 [=, &model, &x](Data<S>& d) {
                   MatrixX<S> J(6, nv);
                   frame_jacobian(model, d, x, frame, rep, J);
                   const MatrixX<S> v = frame_velocity(model, d, x, frame, rep);
                   const MatrixX<S> a = frame_acceleration_bias(model, d, x, frame, rep);
                   return Outputs{J, v, a};
                 }});
  }
  return k;
}

void check_contract(const Model<S>& model, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const State<S> x = random_state(model, rng);
  const VectorX<S> ddq = VectorX<S>::Random(model.nv());
  const VectorX<S> tau = VectorX<S>::Random(model.nv());
  for (const Kernel& kernel : kernels(model, x, ddq, tau)) {
    INFO(kernel.name << ", " << model.num_joints() << " joints, Σ depth " << model.total_depth());
    Data<S> data(model);
    const Outputs first = kernel.run(data);
    scribble(data);
    const Outputs again = kernel.run(data);
    REQUIRE(first.size() == again.size());
    for (std::size_t o = 0; o < first.size(); ++o) {
      INFO("output " << o);
      REQUIRE(first[o].allFinite());
      CHECK(bit_identical(first[o], again[o]));
    }
  }
}

}  // namespace

TEST_CASE(
    "Data contract: every kernel repeats its outputs bit for bit after every public member of Data "
    "is scribbled",
    "[data][contract]") {
  // Branching trees (crba walks up the body frames, entries between branches are zero) and
  // deep chains (crba's base-frame route), moving and welded bases, aligned axes (the joints'
  // fast cases).
  struct Case {
    int joints;
    RandomModelOptions opt;
  };
  std::vector<Case> cases;
  for (bool moving : {true, false}) {
    for (int branching : {0, 3, 12}) {
      RandomModelOptions opt;
      opt.moving_base = moving;
      opt.branching = branching;
      cases.push_back({branching == 0 ? 24 : 17, opt});
      opt.axis_aligned = true;
      opt.revolute_only = true;
      opt.unrotated_placements = true;
      cases.push_back({branching == 0 ? 24 : 17, opt});
    }
  }
  std::uint32_t seed = 11;
  for (const Case& c : cases) {
    std::mt19937 rng(seed++);
    const Model<S> model = random_model<S>(c.joints, rng, c.opt);
    check_contract(model, seed);
  }
}

}  // namespace LIEDYN_UNITY_ID
