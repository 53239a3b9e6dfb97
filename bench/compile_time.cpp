// One translation unit that includes the umbrella header and calls every kernel in double: the
// compile-time figure of BENCHMARKS.md (bench/run_benchmarks.py compiles it with the release
// flags and records the seconds and the compiler's peak memory). Also built as a program, so
// it stays compiling.
#include <cstdio>
#include <random>

#include <liedyn/liedyn.hpp>
#include <liedyn/testing/samples.hpp>

int main() {
  using namespace liedyn;
  const Model<double> model = figure4_model<double>();
  Data<double> data(model);
  std::mt19937 rng(3);
  const State<double> x = random_state(model, rng);
  const VectorX<double> a = VectorX<double>::Constant(model.nv(), 0.1);
  double sum = rnea(model, data, x, a).sum() + eidamb(model, data, x, a).sum() +
               bias_force(model, data, x).sum();
  sum +=
      crba(model, data, x.s).sum() + aba(model, data, x, a).sum() + immamb(model, data, x.s).sum();
  eidamb_derivatives(model, data, x, a);
  sum += data.derivatives.D1.sum() + data.derivatives.D2.sum() + data.derivatives.D3.sum() +
         data.derivatives.D4.sum();
  linearize(model, data, x, a);
  sum += data.linearization.A.sum() + data.linearization.B.sum();
  linearize_discrete(model, data, x, a, 0.01);
  sum += data.linearization.A.sum();
  std::printf("%.6g\n", sum);
  return 0;
}
