// Catch2 main() of liedyn_tests_avx (tests/CMakeLists.txt): the tests there are compiled with
// -mavx, so on a CPU without AVX it exits with 77, CTest's skip code, before running any.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
#if defined(__GNUC__)
  if (!__builtin_cpu_supports("avx")) return 77;
#endif
  return Catch::Session().run(argc, argv);
}
