// liedyn against Pinocchio, side by side in one process: the same kernels on the same states,
// each library's calls compiled in a translation unit of its own with the same compiler and
// flags (side_by_side_liedyn.cpp, side_by_side_pinocchio.cpp; bench/side_by_side.hpp is all they
// share), and a third column: Pinocchio's wheel's precompiled double instances (the same source
// compiled into liedyn_bench_pinocchio_library). bench/side_by_side.py runs it and writes the
// ratio table into BENCHMARKS.md.
//
//   liedyn_bench_pinocchio [--robot=NAME=PATH.urdf ...] [--arm=NAME=PATH.urdf ...]
//                          [--no-default-robots] [--check-only] [benchmark flags]
//
// The default robots: solo12 (4 point feet) and talos (2 rigid soles) of tests/data, contacts in
// the body and the mixed sense, xarm7 (bench/models, a 7-joint arm, welded), and solo12_spherical
// and talos_spherical: the same two with spherical hips (and shoulders), as
// scripts/generate_pinocchio_reference.py builds them. --robot loads a URDF's root link as a
// free-flyer, --arm welds it (unconstrained kernels only).
//
// 64 random states (liedyn's random_state, mapped to Pinocchio's q, v by joint name), one
// workspace per benchmark, reused. Before any timing, every kernel's outputs are compared on
// every state; a mismatch stops the program: a timing of two different computations means
// nothing. Names: KERNEL/ROBOT[_CONTACTS]/LIBRARY, LIBRARY one of liedyn, pinocchio (its
// headers), pinocchio_library (the wheel's instances). Run with
// --benchmark_enable_random_interleaving=true --benchmark_repetitions=5 (or more).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "side_by_side.hpp"
#include "side_by_side_pinocchio_model.hpp"

namespace side_by_side {

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::Rnea: return "rnea";
    case Kernel::Crba: return "crba";
    case Kernel::Aba: return "aba";
    case Kernel::Minverse: return "minverse";
    case Kernel::InverseDynamicsDerivatives: return "id_derivatives";
    case Kernel::ForwardDynamicsDerivatives: return "fd_derivatives";
    case Kernel::ConstrainedDynamics: return "constrained_fd";
    case Kernel::ConstrainedDynamicsDerivatives: return "constrained_fd_derivatives";
    case Kernel::ImpulseDynamics: return "impulse";
  }
  return "unknown";
}

}  // namespace side_by_side

namespace {

using namespace side_by_side;

constexpr int kStates = 64;
constexpr unsigned kSeed = 42;

/// ‖x − y‖_max / max(1, ‖y‖_max): relative to the largest entry, as tests/test_pinocchio_
/// reference.cpp does (talos' M⁻¹ reaches 1e5; its small entries carry the conditioning).
/// The bound: a convention slip (a frame, a sign, a permutation) is O(1e-2) and up, the two
/// libraries' rounding on these states stays under 1e-9 (the reference tests' bound).
constexpr double kTolerance = 1e-9;

double relative_error(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return INFINITY;
  double diff = 0, scale = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return std::isnan(diff) ? INFINITY : diff / scale;
}

struct Loaded {
  Robot robot;
  std::unique_ptr<LiedynSide> liedyn;
  std::unique_ptr<PinocchioSide> pinocchio;          ///< from Pinocchio's headers
  std::unique_ptr<PinocchioSide> pinocchio_library;  ///< the wheel's precompiled instances
};

const Kernel kUnconstrained[] = {Kernel::Rnea,
                                 Kernel::Crba,
                                 Kernel::Aba,
                                 Kernel::Minverse,
                                 Kernel::InverseDynamicsDerivatives,
                                 Kernel::ForwardDynamicsDerivatives};
const Kernel kConstrained[] = {Kernel::ConstrainedDynamics, Kernel::ConstrainedDynamicsDerivatives,
                               Kernel::ImpulseDynamics};

/// Every (kernel, contact set) of the robot: contact set −1 for the unconstrained kernels.
std::vector<std::pair<Kernel, int>> cases(const Robot& robot) {
  std::vector<std::pair<Kernel, int>> out;
  for (Kernel k : kUnconstrained) out.push_back({k, -1});
  for (Kernel k : kConstrained)
    for (int c = 0; c < static_cast<int>(robot.contacts.size()); ++c)
      if (k != Kernel::ConstrainedDynamicsDerivatives || robot.contacts[c].with_derivatives)
        out.push_back({k, c});
  return out;
}

std::string case_name(const Robot& robot, Kernel k, int contact_set) {
  return std::string(kernel_name(k)) + "/" + robot.name +
         (contact_set < 0 ? "" : "_" + robot.contacts[contact_set].name);
}

/// Compares liedyn's outputs of every kernel on every state with those of a Pinocchio side;
/// prints the worst relative error per kernel and returns false on any above the tolerance.
bool check(const Loaded& r, PinocchioSide& pinocchio, const char* which) {
  bool ok = true;
  for (const auto& [kernel, set] : cases(r.robot)) {
    double worst = 0;
    for (int k = 0; k < kStates; ++k) {
      const auto ours = r.liedyn->outputs(kernel, set, k);
      const auto theirs = pinocchio.outputs(kernel, set, k);
      if (ours.size() != theirs.size()) {
        worst = INFINITY;
        break;
      }
      for (std::size_t i = 0; i < ours.size(); ++i)
        worst = std::max(worst, relative_error(ours[i], theirs[i]));
    }
    const bool good = worst < kTolerance;
    ok = ok && good;
    std::fprintf(stderr, "check %-45s %-9s worst relative difference %.2e%s\n",
                 case_name(r.robot, kernel, set).c_str(), which, worst, good ? "" : "  MISMATCH");
  }
  return ok;
}

void register_side(const std::string& name, const std::string& library, int nv,
                   std::function<void(int)> call) {
  benchmark::RegisterBenchmark((name + "/" + library).c_str(), [call, nv](benchmark::State& st) {
    int k = 0;
    for (auto _ : st) {
      call(k);
      benchmark::ClobberMemory();
      k = (k + 1) & (kStates - 1);
    }
    st.counters["nv"] = nv;
  });
}

bool parse_robot(const char* arg, const char* flag, bool welded, std::vector<Robot>& robots) {
  const std::size_t n = std::strlen(flag);
  if (std::strncmp(arg, flag, n) != 0) return false;
  const std::string spec = arg + n;
  const auto eq = spec.find('=');
  if (eq == std::string::npos) {
    std::fprintf(stderr, "liedyn_bench_pinocchio: %s wants NAME=PATH.urdf, got '%s'\n", flag,
                 spec.c_str());
    std::exit(2);
  }
  Robot r;
  r.name = spec.substr(0, eq);
  r.urdf = spec.substr(eq + 1);
  r.welded = welded;
  robots.push_back(r);
  return true;
}

std::vector<Robot> default_robots() {
  const std::string data = LIEDYN_TEST_DATA_DIR;
  const std::vector<std::string> feet = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
  const std::vector<std::string> soles = {"left_sole_link", "right_sole_link"};
  Robot solo{"solo12",
             data + "/solo12.urdf",
             false,
             {{"4x3D_body", feet, true, false, true}, {"4x3D_mixed", feet, true, true, true}},
             ""};
  Robot talos{"talos",
              data + "/talos.urdf",
              false,
              {{"2x6D_body", soles, false, false, true}, {"2x6D_mixed", soles, false, true, true}},
              ""};
  Robot arm{"xarm7", std::string(LIEDYN_BENCH_MODELS_DIR) + "/xarm7.urdf", true, {}, ""};
  // The same robots with spherical hips (and shoulders): the reference generator's models.
  Robot solo_spherical = solo, talos_spherical = talos;
  solo_spherical.name = solo_spherical.generated = "solo12_spherical";
  talos_spherical.name = talos_spherical.generated = "talos_spherical";
  solo_spherical.urdf = talos_spherical.urdf = "";
  // Pinocchio 4.1's ∂q̈/∂q and ∂λ/∂q under rigid LOCAL_WORLD_ALIGNED contacts disagree with its
  // own central differences once spherical joints are in the tree (relative 7e-4, against 1e-7
  // for LOCAL: bench/pinocchio_derivative_check.py), and liedyn's agree with long-double
  // differences (tests/test_constraint_derivatives.cpp): no timing of two different results.
  talos_spherical.contacts[1].with_derivatives = false;
  return {solo, talos, arm, solo_spherical, talos_spherical};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  std::vector<Robot> robots;
  bool defaults = true, check_only = false;
  for (int i = 1; i < argc; ++i) {
    if (parse_robot(argv[i], "--robot=", false, robots) ||
        parse_robot(argv[i], "--arm=", true, robots))
      continue;
    if (std::strcmp(argv[i], "--no-default-robots") == 0) defaults = false;
    else if (std::strcmp(argv[i], "--check-only") == 0) check_only = true;
    else rest.push_back(argv[i]);
  }
  if (defaults) {
    std::vector<Robot> d = default_robots();
    robots.insert(robots.begin(), d.begin(), d.end());
  }
  std::vector<Loaded> loaded;
  bool ok = true;
  try {
    for (const Robot& robot : robots) {
      Loaded r;
      r.robot = robot;
      const PinocchioModelRecord record = pinocchio_model_record(robot);
      r.pinocchio = make_pinocchio_side(robot, record);
      r.liedyn = make_liedyn_side(robot, record, r.pinocchio->joint_names(), kStates, kSeed);
      r.pinocchio->set_pool(r.liedyn->pool());
      r.pinocchio_library = make_pinocchio_library_side(robot, record);
      r.pinocchio_library->set_pool(r.liedyn->pool());
      ok = check(r, *r.pinocchio, "headers") && ok;
      ok = check(r, *r.pinocchio_library, "library") && ok;
      loaded.push_back(std::move(r));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liedyn_bench_pinocchio: %s\n", e.what());
    return 2;
  }
  if (!ok) {
    std::fprintf(stderr, "liedyn_bench_pinocchio: the libraries disagree; no timing\n");
    return 1;
  }
  if (check_only) return 0;
  for (const Loaded& r : loaded)
    for (const auto& [kernel, set] : cases(r.robot)) {
      const std::string name = case_name(r.robot, kernel, set);
      register_side(name, "liedyn", r.liedyn->nv(), r.liedyn->kernel(kernel, set));
      register_side(name, "pinocchio", r.liedyn->nv(), r.pinocchio->kernel(kernel, set));
      register_side(name, "pinocchio_library", r.liedyn->nv(),
                    r.pinocchio_library->kernel(kernel, set));
    }
  int bargc = static_cast<int>(rest.size());
  benchmark::Initialize(&bargc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
