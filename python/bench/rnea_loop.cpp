// The C++ side of docs/python.md's call-overhead figure: rnea and aba on Solo-12, the same state
// and calls as python/bench/rnea_overhead.py, timed in a plain loop: the best of 300 runs of 1000
// calls (short runs, so that on a shared machine some of them run uncontended; Python's side
// is timed the same way).
//   g++ -std=c++17 -O3 -DNDEBUG -I include -I /usr/include/eigen3 python/bench/rnea_loop.cpp \
//       -ltinyxml2 -o /tmp/rnea_loop && /tmp/rnea_loop tests/data/solo12.urdf
#include <chrono>
#include <cstdio>
#include <random>

#include <liedyn/liedyn.hpp>
#include <liedyn/model/urdf.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: rnea_loop solo12.urdf\n"), 2;
  const liedyn::Model<double> model = liedyn::load_urdf_file(argv[1]);
  liedyn::Data<double> data(model);
  std::mt19937 rng(7);
  const liedyn::State<double> x = liedyn::random_state(model, rng);
  const Eigen::VectorXd ddq = Eigen::VectorXd::Constant(model.nv(), 0.1);
  const int calls = 1000, runs = 300;
  double sink = 0;
  // The best per-call time of `runs` runs of `calls` calls of f.
  auto best_ns = [&](auto f) {
    double best = 1e9;
    for (int run = 0; run < runs; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < calls; ++k) sink += f();
      const double ns =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
          calls;
      best = ns < best ? ns : best;
    }
    return best;
  };
  const double rnea_ns = best_ns([&] { return liedyn::rnea(model, data, x, ddq)[0]; });
  const double aba_ns = best_ns([&] { return liedyn::aba(model, data, x, ddq)[0]; });
  std::printf("C++ rnea solo12: %.1f ns per call\nC++ aba solo12: %.1f ns per call\n", rnea_ns,
              aba_ns);
  std::printf("(best of %d x %d; checksum %g)\n", runs, calls, sink);
}
