// liedyn benchmarks of the batch layer (algorithm/batch.hpp): throughput in states per second
// of batch_aba, batch_eidamb_derivatives, batch_linearize and
// batch_constrained_forward_dynamics_derivatives on solo12 (4 point feet) and talos (2 rigid
// soles), for 1 … hardware_concurrency() threads. Parallel efficiency at T threads is
// items_per_second(T) / (T · items_per_second(1)).
//
//   liedyn_bench_batch [--states=N] [benchmark flags]
//
// One batch call evaluates N random states (default 512, drawn outside the timed loop); the
// workspace is built before the loop. Time is wall-clock (UseRealTime), since the work runs on
// several threads; CPU is the whole process's (MeasureProcessCPUTime), every worker's: on a machine
// whose cores are busy with other work, where wall-clock scaling says little, CPU(1) / CPU(T)
// is the efficiency the batch layer itself allows (its overhead, its workers' cache misses),
// since the static partition gives each worker the same number of states.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <liedyn/algorithm/batch.hpp>
#include <liedyn/model/urdf.hpp>

namespace {

using namespace liedyn;
using M = MatrixX<double>;

int kStates = 512;  // --states=N

struct Case {
  std::shared_ptr<const Model<double>> model;
  std::shared_ptr<const ConstraintSet<double>> set;
  M states, tau;
};

Case make_case(Model<double> model, const std::vector<std::string>& frames, bool point) {
  Case c;
  c.model = std::make_shared<const Model<double>>(std::move(model));
  std::vector<ConstraintSpec<double>> specs;
  for (const std::string& f : frames)
    specs.push_back(point ? ConstraintSpec<double>::point_contact(f)
                          : ConstraintSpec<double>::rigid_contact(f));
  c.set = std::make_shared<const ConstraintSet<double>>(*c.model, specs);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  c.states.resize(batch_state_size(*c.model), kStates);
  c.tau.resize(c.model->nv(), kStates);
  for (int i = 0; i < kStates; ++i) {
    write_state_column(*c.model, random_state(*c.model, rng), c.states.col(i));
    for (int k = 0; k < c.tau.rows(); ++k) c.tau(k, i) = 10 * u(rng);
  }
  return c;
}

/// Registers `name`/threads:T for T = 1 … max_threads: call(case, workspace) in the timed loop.
template <class Call>
void register_batch(const std::string& name, const Case& c, int max_threads, Call call) {
  for (int T = 1; T <= max_threads; ++T)
    benchmark::RegisterBenchmark((name + "/threads:" + std::to_string(T)).c_str(),
                                 [c, call, T](benchmark::State& st) {
                                   BatchWorkspace<double> ws(*c.model, *c.set, T);
                                   for (auto _ : st) call(c, ws);
                                   st.SetItemsProcessed(st.iterations() * kStates);
                                 })
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMicrosecond);
}

void register_case(const std::string& robot, const Case& c, int max_threads) {
  const int nv = c.model->nv(), m = c.set->dimension();
  auto out = std::make_shared<M>(nv, kStates);
  register_batch("batch_aba/" + robot, c, max_threads,
                 [out](const Case& k, BatchWorkspace<double>& ws) {
                   batch_aba(*k.model, ws, k.states, k.tau, *out);
                 });
  auto D = std::make_shared<M>(nv, 2 * nv * kStates);
  register_batch("batch_eidamb_derivatives/" + robot, c, max_threads,
                 [D](const Case& k, BatchWorkspace<double>& ws) {
                   batch_eidamb_derivatives(*k.model, ws, k.states, k.tau, *D);
                 });
  auto A = std::make_shared<M>(2 * nv, 2 * nv * kStates),
       B = std::make_shared<M>(2 * nv, nv * kStates);
  register_batch("batch_linearize/" + robot, c, max_threads,
                 [A, B](const Case& k, BatchWorkspace<double>& ws) {
                   batch_linearize(*k.model, ws, k.states, k.tau, *A, *B);
                 });
  auto d1 = std::make_shared<M>(nv, 2 * nv * kStates),
       d2 = std::make_shared<M>(m, 2 * nv * kStates), d3 = std::make_shared<M>(nv, nv * kStates),
       d4 = std::make_shared<M>(m, nv * kStates);
  register_batch("batch_constrained_forward_dynamics_derivatives/" + robot, c, max_threads,
                 [d1, d2, d3, d4](const Case& k, BatchWorkspace<double>& ws) {
                   batch_constrained_forward_dynamics_derivatives(*k.model, *k.set, ws, k.states,
                                                                  k.tau, *d1, *d2, *d3, *d4);
                 });
}

}  // namespace

int main(int argc, char** argv) {
  // --states=N is ours; the rest goes to Google Benchmark.
  int kept = 1;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.rfind("--states=", 0) == 0) kStates = std::max(1, std::stoi(arg.substr(9)));
    else argv[kept++] = argv[a];
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  const int max_threads = std::max(1u, std::thread::hardware_concurrency());
  const std::string data = LIEDYN_TEST_DATA_DIR;
  register_case("solo12",
                make_case(load_urdf_file(data + "/solo12.urdf"),
                          {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}, true),
                max_threads);
  register_case(
      "talos",
      make_case(load_urdf_file(data + "/talos.urdf"), {"left_sole_link", "right_sole_link"}, false),
      max_threads);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
