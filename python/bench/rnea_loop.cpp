// The C++ side of docs/python.md's call-overhead figure: rnea and aba on Solo-12, the same state
// and calls as python/bench/rnea_overhead.py, timed in a plain loop: the best and the median of 300
// runs of 1000 calls (short runs, so that on a shared machine some of them run uncontended;
// Python's side is timed the same way).
//   g++ -std=c++17 -O3 -DNDEBUG -I include -I /usr/include/eigen3 python/bench/rnea_loop.cpp \
//       -ltinyxml2 -o /tmp/rnea_loop && /tmp/rnea_loop tests/data/solo12.urdf
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

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
  // The best and the median per-call time of `runs` runs of `calls` calls of f.
  auto time_ns = [&](auto f) {
    std::vector<double> ns(runs);
    for (int run = 0; run < runs; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < calls; ++k) sink += f();
      ns[run] =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
          calls;
    }
    std::sort(ns.begin(), ns.end());
    return std::make_pair(ns.front(), ns[runs / 2]);
  };
  const auto rnea_ns = time_ns([&] { return liedyn::rnea(model, data, x, ddq)[0]; });
  const auto aba_ns = time_ns([&] { return liedyn::aba(model, data, x, ddq)[0]; });
  std::printf("C++ rnea solo12: %.1f ns per call best, %.1f median\n", rnea_ns.first,
              rnea_ns.second);
  std::printf("C++ aba solo12: %.1f ns per call best, %.1f median\n", aba_ns.first, aba_ns.second);
  std::printf("(%d runs of %d calls; checksum %g)\n", runs, calls, sink);
}
