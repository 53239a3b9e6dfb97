// liedyn benchmarks of the constrained kernels: constrained forward dynamics (exact KKT route)
// and its derivatives, the constraint kinematics derivatives, the constrained linearization
// (continuous, body twist; the unconstrained one beside it), impulse dynamics and its
// derivatives, on solo12 standing on 4 point feet and talos on 2 rigid soles (the robots and
// contact sets of Pinocchio's reference dumps in tests/data), body and mixed sense. The
// derivatives also run with each KKT solve forced (`_sparse`, `_dense`), there and on quadrupeds
// carrying a 6-, 12- and 20-joint arm (nv = 24, 30, 38): where KktDerivativeSolve::Automatic's
// threshold comes from.
//
//   liedyn_bench_constraints [benchmark flags]
//
// Each benchmark cycles over 64 random states (drawn outside the timed loop) with one workspace.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/algorithm/constrained_linearization.hpp>
#include <liedyn/algorithm/constraint_kinematics_derivatives.hpp>
#include <liedyn/algorithm/impulse_dynamics.hpp>
#include <liedyn/algorithm/impulse_dynamics_derivatives.hpp>
#include <liedyn/model/builder.hpp>
#include <liedyn/model/urdf.hpp>

namespace {

using namespace liedyn;

struct Case {
  std::shared_ptr<const Model<double>> model;
  std::shared_ptr<const ConstraintSet<double>> set;
  std::vector<State<double>> states;
  std::vector<VectorX<double>> tau;
};

Case make_case(Model<double> model, const std::vector<std::string>& frames, bool point,
               TwistRepresentation sense) {
  Case c;
  c.model = std::make_shared<const Model<double>>(std::move(model));
  std::vector<ConstraintSpec<double>> specs;
  for (const std::string& f : frames)
    specs.push_back(point ? ConstraintSpec<double>::point_contact(f, sense)
                          : ConstraintSpec<double>::rigid_contact(f, sense));
  c.set = std::make_shared<const ConstraintSet<double>>(*c.model, specs);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 64; ++k) {
    c.states.push_back(random_state(*c.model, rng));
    VectorX<double> t(c.model->nv());
    for (int i = 0; i < t.size(); ++i) t(i) = 10 * u(rng);
    c.tau.push_back(t);
  }
  return c;
}

/// A quadruped (solo12's layout: legs of three revolute joints, about x, y, y) carrying an arm of
/// `arm_joints` revolute joints (axes alternating z and y) on its base: nv from solo12's 18 up,
/// with the same four point feet — where KktDerivativeSolve::Automatic's threshold sits between
/// solo12 (nv = 18) and talos (nv = 50).
Case quadruped_with_arm_case(int arm_joints) {
  using V3 = Vector3<double>;
  auto link = [](double mass, double length) {
    return SpatialInertia<double>::from_mass_com_inertia(
        mass, V3(0, 0, -0.5 * length),
        V3(mass * length * length / 12 + 1e-4, mass * length * length / 12 + 1e-4, 1e-4)
            .asDiagonal());
  };
  ModelBuilder<double> b(BaseType::Moving, "base",
                         SpatialInertia<double>::from_mass_com_inertia(
                             2.0, V3::Zero(), V3(0.02, 0.05, 0.06).asDiagonal()));
  const char* legs[4] = {"FL", "FR", "HL", "HR"};
  for (int l = 0; l < 4; ++l) {
    const std::string leg = legs[l];
    const V3 hip(l < 2 ? 0.2 : -0.2, l % 2 == 0 ? 0.1 : -0.1, 0);
    b.add_body("base", leg + "_HIP",
               JointSpec<double>::revolute(leg + "_HAA", V3::UnitX(),
                                           SE3<double>(Matrix3<double>::Identity(), hip)),
               link(0.2, 0.05));
    b.add_body(leg + "_HIP", leg + "_UPPER", JointSpec<double>::revolute(leg + "_HFE", V3::UnitY()),
               link(0.15, 0.16));
    b.add_body(
        leg + "_UPPER", leg + "_FOOT",
        JointSpec<double>::revolute(leg + "_KFE", V3::UnitY(),
                                    SE3<double>(Matrix3<double>::Identity(), V3(0, 0, -0.16))),
        link(0.1, 0.16));
  }
  std::string parent = "base";
  for (int k = 0; k < arm_joints; ++k) {
    const std::string name = "arm" + std::to_string(k + 1);
    b.add_body(parent, name,
               JointSpec<double>::revolute(
                   name + "_joint", k % 2 == 0 ? V3::UnitZ() : V3::UnitY(),
                   SE3<double>(Matrix3<double>::Identity(), V3(0, 0, k == 0 ? 0.05 : 0.1))),
               link(0.3, 0.1));
    parent = name;
  }
  return make_case(b.build(), {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}, true,
                   TwistRepresentation::Body);
}

/// Registers `name`: `call(data, cd, x, tau)` over the case's 64 states in turn (fresh Data and
/// ConstraintData per benchmark; the call must leave its result where DoNotOptimize sees it).
template <class F>
void register_constrained(const std::string& name, const Case& c, F call) {
  benchmark::RegisterBenchmark(name.c_str(), [c, call](benchmark::State& st) {
    Data<double> data(*c.model);
    ConstraintData<double> cd(*c.model, *c.set);
    std::size_t k = 0;
    for (auto _ : st) {
      call(data, cd, c.states[k], c.tau[k]);
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
    st.counters["m"] = c.set->dimension();
  });
}

void register_case(const std::string& name, const Case& c) {
  const Model<double>& model = *c.model;
  const ConstraintSet<double>& set = *c.set;
  using X = const State<double>&;
  using T = const VectorX<double>&;
  register_constrained(
      "constrained_forward_dynamics/" + name, c,
      [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T tau) {
        benchmark::DoNotOptimize(constrained_forward_dynamics(model, d, set, cd, x, tau).data());
      });
  // The derivatives include the forward call (q̈ and λ at the state), as Pinocchio's
  // constraintDynamics + computeConstraintDynamicsDerivatives pair does.
  register_constrained("constrained_forward_dynamics_derivatives/" + name, c,
                       [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T tau) {
                         constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau);
                         benchmark::DoNotOptimize(cd.ddq_dx.data());
                       });
  // Each KKT solve of the derivatives, for KktDerivativeSolve::Automatic's threshold.
  for (const auto& [route, solve] : {std::pair{"sparse", KktDerivativeSolve::SparseFactors},
                                     std::pair{"dense", KktDerivativeSolve::DenseInverse}}) {
    ConstrainedDynamicsOptions<double> opt;
    opt.derivative_solve = solve;
    register_constrained(
        std::string("constrained_forward_dynamics_derivatives_") + route + "/" + name, c,
        [&model, &set, opt](Data<double>& d, ConstraintData<double>& cd, X x, T tau) {
          constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau,
                                                   TwistRepresentation::Body, opt);
          benchmark::DoNotOptimize(cd.ddq_dx.data());
        });
  }
  // The case's τ̄ vectors stand in for accelerations: the cost does not depend on their values.
  register_constrained("constraint_kinematics_derivatives/" + name, c,
                       [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T tau) {
                         constraint_kinematics_derivatives(model, d, set, cd, x, tau);
                         benchmark::DoNotOptimize(cd.Jdot.data());
                       });
  register_constrained("linearize_constrained/" + name, c,
                       [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T tau) {
                         linearize(model, d, set, cd, x, tau);
                         benchmark::DoNotOptimize(d.linearization.A.data());
                       });
  register_constrained("linearize_unconstrained/" + name, c,
                       [&model](Data<double>& d, ConstraintData<double>&, X x, T tau) {
                         linearize(model, d, x, tau);
                         benchmark::DoNotOptimize(d.linearization.A.data());
                       });
  register_constrained(
      "impulse_dynamics/" + name, c,
      [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T) {
        benchmark::DoNotOptimize(impulse_dynamics(model, d, set, cd, x, 0.0).data());
      });
  register_constrained("impulse_dynamics_derivatives/" + name, c,
                       [&model, &set](Data<double>& d, ConstraintData<double>& cd, X x, T) {
                         impulse_dynamics_derivatives(model, d, set, cd, x, 0.0);
                         benchmark::DoNotOptimize(cd.v_after_dx.data());
                       });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string data = LIEDYN_TEST_DATA_DIR;
  const std::vector<std::string> feet = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
  const std::vector<std::string> soles = {"left_sole_link", "right_sole_link"};
  register_case("solo12_4x3D_body", make_case(load_urdf_file(data + "/solo12.urdf"), feet, true,
                                              TwistRepresentation::Body));
  register_case("solo12_4x3D_mixed", make_case(load_urdf_file(data + "/solo12.urdf"), feet, true,
                                               TwistRepresentation::Mixed));
  register_case("talos_2x6D_body", make_case(load_urdf_file(data + "/talos.urdf"), soles, false,
                                             TwistRepresentation::Body));
  register_case("talos_2x6D_mixed", make_case(load_urdf_file(data + "/talos.urdf"), soles, false,
                                              TwistRepresentation::Mixed));
  for (int arm : {6, 12, 20})
    register_case("quadruped_arm" + std::to_string(arm) + "_4x3D_body",
                  quadruped_with_arm_case(arm));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
