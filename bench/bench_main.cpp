// Placeholder benchmark; main() comes from benchmark::benchmark_main.
#include <benchmark/benchmark.h>
#include <liedyn/version.hpp>

#include <cstring>

static void BM_VersionStringLength(benchmark::State& state) {
  for (auto _ : state) {
    const char* v = liedyn::version_string;
    benchmark::DoNotOptimize(v);
    benchmark::DoNotOptimize(std::strlen(v));
  }
}
BENCHMARK(BM_VersionStringLength);
