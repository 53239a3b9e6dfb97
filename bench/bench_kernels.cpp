// liedyn benchmarks: every kernel on the shipped robots, on robots given on the command line,
// and on random chains and trees of growing size.
//
//   liedyn_bench [--robot=NAME=PATH.urdf ...] [--arm=NAME=PATH.urdf ...] [--no-random]
//                [benchmark flags]
//
// --robot loads the URDF's root link as a moving base, --arm welds it (a manipulator).
//
// Each benchmark cycles over a pool of 64 random states drawn outside the timed loop and reuses
// one workspace (the way a controller calls the kernels). Names: KERNEL/ROBOT; counters: nv and
// the tree depth d.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <liedyn/liedyn.hpp>
#include <liedyn/testing/samples.hpp>
#ifdef LIEDYN_HAS_URDF
#include <liedyn/model/urdf.hpp>
#endif

namespace {

using namespace liedyn;
using Model_ = Model<double>;

struct Pool {
  std::vector<State<double>> states;
  std::vector<VectorX<double>> ddq;  // accelerations or inputs
};

Pool make_pool(const Model_& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Pool p;
  for (int k = 0; k < 64; ++k) {
    p.states.push_back(random_state(model, rng));
    VectorX<double> a(model.nv());
    for (int i = 0; i < model.nv(); ++i) a(i) = u(rng);
    p.ddq.push_back(a);
  }
  return p;
}

using Kernel =
    std::function<void(const Model_&, Data<double>&, const State<double>&, const VectorX<double>&)>;

void register_kernel(const std::string& kernel, const std::string& robot,
                     std::shared_ptr<const Model_> model, Kernel f) {
  auto pool = std::make_shared<Pool>(make_pool(*model, 42));
  benchmark::RegisterBenchmark((kernel + "/" + robot).c_str(),
                               [model, pool, f](benchmark::State& st) {
                                 Data<double> data(*model);
                                 std::size_t k = 0;
                                 for (auto _ : st) {
                                   f(*model, data, pool->states[k], pool->ddq[k]);
                                   benchmark::ClobberMemory();
                                   k = (k + 1) & 63;
                                 }
                                 st.counters["nv"] = model->nv();
                                 st.counters["depth"] = model->max_depth();
                               });
}

void register_all(const std::string& robot, const Model_& m) {
  auto model = std::make_shared<const Model_>(m);
  register_kernel("rnea", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    benchmark::DoNotOptimize(rnea(mo, d, x, a).data());
  });
  register_kernel("eidamb", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    benchmark::DoNotOptimize(eidamb(mo, d, x, a).data());
  });
  register_kernel("crba", robot, model, [](auto& mo, auto& d, auto& x, auto&) {
    benchmark::DoNotOptimize(crba(mo, d, x.s).data());
  });
  register_kernel("com_jacobian", robot, model, [](auto& mo, auto& d, auto& x, auto&) {
    benchmark::DoNotOptimize(center_of_mass(mo, d, x).data());
    benchmark::DoNotOptimize(center_of_mass_jacobian(mo, d, x).data());
  });
  register_kernel("centroidal_matrix", robot, model, [](auto& mo, auto& d, auto& x, auto&) {
    benchmark::DoNotOptimize(centroidal_momentum_matrix(mo, d, x).data());
  });
  register_kernel("centroidal_derivatives", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    centroidal_derivatives(mo, d, x, a);
    benchmark::DoNotOptimize(d.centroidal.rate_dx.data());
  });
  register_kernel("coriolis_matrix", robot, model, [](auto& mo, auto& d, auto& x, auto&) {
    benchmark::DoNotOptimize(coriolis_matrix(mo, d, x).data());
  });
  if (!model->singular_joints().empty()) return;
  register_kernel("aba", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    benchmark::DoNotOptimize(aba(mo, d, x, a).data());
  });
  register_kernel("immamb", robot, model, [](auto& mo, auto& d, auto& x, auto&) {
    benchmark::DoNotOptimize(immamb(mo, d, x.s).data());
  });
  register_kernel("derivatives", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    eidamb_derivatives(mo, d, x, a);
    benchmark::DoNotOptimize(d.derivatives.D2.data());
  });
  register_kernel("linearize", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    linearize(mo, d, x, a);
    benchmark::DoNotOptimize(d.linearization.A.data());
  });
  // The other M⁻¹ route, to show where Automatic's switch (dense_up_to_nv) stands.
  register_kernel("linearize_sweeps", robot, model, [](auto& mo, auto& d, auto& x, auto& a) {
    LinearizationOptions<double> opt;
    opt.minv = MinvMethod::Sweeps;
    linearize(mo, d, x, a, opt);
    benchmark::DoNotOptimize(d.linearization.A.data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest{argv[0]};
  struct RobotFile {
    std::string name, path;
    bool welded;
  };
  std::vector<RobotFile> robots;
  bool random_models = true;
  for (int i = 1; i < argc; ++i) {
    const bool robot = std::strncmp(argv[i], "--robot=", 8) == 0;
    const bool arm = std::strncmp(argv[i], "--arm=", 6) == 0;
    if (robot || arm) {
      const std::string spec = argv[i] + (robot ? 8 : 6);
      const auto eq = spec.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "liedyn_bench: %s wants NAME=PATH.urdf, got '%s'\n",
                     robot ? "--robot" : "--arm", spec.c_str());
        return 2;
      }
      robots.push_back({spec.substr(0, eq), spec.substr(eq + 1), arm});
    } else if (std::strcmp(argv[i], "--no-random") == 0) {
      random_models = false;
    } else {
      rest.push_back(argv[i]);
    }
  }
  register_all("figure4", figure4_model<double>());
#ifdef LIEDYN_HAS_URDF
  register_all("quadruped", load_urdf_file(LIEDYN_MODELS_DIR "/quadruped.urdf"));
  register_all("humanoid", load_urdf_file(LIEDYN_MODELS_DIR "/humanoid.urdf"));
  for (const auto& r : robots) {
    UrdfOptions options;
    options.weld_base = r.welded;
    register_all(r.name, load_urdf_file(r.path, options));
  }
#else
  if (!robots.empty()) {
    std::fprintf(stderr, "liedyn_bench: built without the URDF loader\n");
    return 2;
  }
#endif
  if (random_models) {
    for (int n : {4, 8, 16, 32, 64, 128}) {
      std::mt19937 rng(1000 + n);
      register_all("chain" + std::to_string(n),
                   random_model<double>(n, rng, RandomModelOptions{0}));
      RandomModelOptions tree;
      tree.branching = 4;
      register_all("tree" + std::to_string(n), random_model<double>(n, rng, tree));
    }
  }
  int bargc = static_cast<int>(rest.size());
  benchmark::Initialize(&bargc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
