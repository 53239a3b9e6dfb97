// liedyn benchmarks of the constrained kernels: constrained forward dynamics (exact KKT route),
// its derivatives, the constrained linearization (continuous, body twist) and impulse dynamics on solo12 standing on 4 point feet and talos on 2 rigid soles (the robots
// and contact sets of Pinocchio's reference dumps in tests/data), body and mixed sense.
//
//   liedyn_bench_constraints [benchmark flags]
//
// Each benchmark cycles over 64 random states (drawn outside the timed loop) with one workspace.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/algorithm/constrained_linearization.hpp>
#include <liedyn/algorithm/impulse_dynamics.hpp>
#include <liedyn/model/urdf.hpp>

namespace {

using namespace liedyn;

struct Case {
  std::shared_ptr<const Model<double>> model;
  std::shared_ptr<const ConstraintSet<double>> set;
  std::vector<State<double>> states;
  std::vector<VectorX<double>> tau;
};

Case make_case(const std::string& urdf, const std::vector<std::string>& frames, bool point, TwistRepresentation sense) {
  Case c;
  c.model = std::make_shared<const Model<double>>(load_urdf_file(urdf));
  std::vector<ConstraintSpec<double>> specs;
  for (const std::string& f : frames)
    specs.push_back(point ? ConstraintSpec<double>::point_contact(f, sense) : ConstraintSpec<double>::rigid_contact(f, sense));
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

void register_case(const std::string& name, const Case& c) {
  benchmark::RegisterBenchmark(("constrained_forward_dynamics/" + name).c_str(), [c](benchmark::State& st) {
    Data<double> data(*c.model);
    ConstraintData<double> cd(*c.model, *c.set);
    std::size_t k = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(constrained_forward_dynamics(*c.model, data, *c.set, cd, c.states[k], c.tau[k]).data());
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
    st.counters["m"] = c.set->dimension();
  });
  // The derivatives include the forward call (q̈ and λ at the state), as Pinocchio's
  // constraintDynamics + computeConstraintDynamicsDerivatives pair does.
  benchmark::RegisterBenchmark(("constrained_forward_dynamics_derivatives/" + name).c_str(), [c](benchmark::State& st) {
    Data<double> data(*c.model);
    ConstraintData<double> cd(*c.model, *c.set);
    std::size_t k = 0;
    for (auto _ : st) {
      constrained_forward_dynamics_derivatives(*c.model, data, *c.set, cd, c.states[k], c.tau[k]);
      benchmark::DoNotOptimize(cd.ddq_dx.data());
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
    st.counters["m"] = c.set->dimension();
  });
  benchmark::RegisterBenchmark(("linearize_constrained/" + name).c_str(), [c](benchmark::State& st) {
    Data<double> data(*c.model);
    ConstraintData<double> cd(*c.model, *c.set);
    std::size_t k = 0;
    for (auto _ : st) {
      linearize(*c.model, data, *c.set, cd, c.states[k], c.tau[k]);
      benchmark::DoNotOptimize(data.A.data());
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
    st.counters["m"] = c.set->dimension();
  });
  benchmark::RegisterBenchmark(("linearize_unconstrained/" + name).c_str(), [c](benchmark::State& st) {
    Data<double> data(*c.model);
    std::size_t k = 0;
    for (auto _ : st) {
      linearize(*c.model, data, c.states[k], c.tau[k]);
      benchmark::DoNotOptimize(data.A.data());
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
  });
  benchmark::RegisterBenchmark(("impulse_dynamics/" + name).c_str(), [c](benchmark::State& st) {
    Data<double> data(*c.model);
    ConstraintData<double> cd(*c.model, *c.set);
    std::size_t k = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(impulse_dynamics(*c.model, data, *c.set, cd, c.states[k], 0.0).data());
      benchmark::ClobberMemory();
      k = (k + 1) & 63;
    }
    st.counters["nv"] = c.model->nv();
    st.counters["m"] = c.set->dimension();
  });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string data = LIEDYN_TEST_DATA_DIR;
  const std::vector<std::string> feet = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
  const std::vector<std::string> soles = {"left_sole_link", "right_sole_link"};
  register_case("solo12_4x3D_body", make_case(data + "/solo12.urdf", feet, true, TwistRepresentation::Body));
  register_case("solo12_4x3D_mixed", make_case(data + "/solo12.urdf", feet, true, TwistRepresentation::Mixed));
  register_case("talos_2x6D_body", make_case(data + "/talos.urdf", soles, false, TwistRepresentation::Body));
  register_case("talos_2x6D_mixed", make_case(data + "/talos.urdf", soles, false, TwistRepresentation::Mixed));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
