// liedyn — build-wide switches.
//
// Argument checks (sizes of input vectors and the like) run in debug builds and throw
// std::invalid_argument with a message naming the function and the argument. Release builds
// (NDEBUG) compile them out so that the kernels' hot paths stay free of them; define
// LIEDYN_ENABLE_CHECKS to keep them in a release build.
#pragma once

#include <stdexcept>
#include <string>

#if !defined(NDEBUG) || defined(LIEDYN_ENABLE_CHECKS)
#define LIEDYN_CHECKS_ENABLED 1
#define LIEDYN_CHECK(cond, msg)                                                  \
  do {                                                                           \
    if (!(cond)) throw std::invalid_argument(std::string("liedyn: ") + (msg));   \
  } while (0)
#else
#define LIEDYN_CHECKS_ENABLED 0
#define LIEDYN_CHECK(cond, msg) ((void)0)
#endif

/// Checks that an input vector has the expected size (debug builds).
#define LIEDYN_CHECK_SIZE(who, what, vec, expected)                                              \
  LIEDYN_CHECK((vec).size() == (expected), std::string(who) + ": " + (what) + " has size " +     \
                                               std::to_string((vec).size()) + ", expected " +    \
                                               std::to_string(expected))

// Run-time dispatch to AVX2/FMA code paths (x86-64 with GCC or Clang): the default build targets
// plain x86-64 so that users can ship its binaries, yet most of their machines have AVX2. Off with
// -DLIEDYN_NO_SIMD_DISPATCH.
#if !defined(LIEDYN_NO_SIMD_DISPATCH) && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define LIEDYN_HAVE_X86_AVX2_DISPATCH 1
#else
#define LIEDYN_HAVE_X86_AVX2_DISPATCH 0
#endif

#if LIEDYN_HAVE_X86_AVX2_DISPATCH
namespace liedyn {
namespace detail {
// Whether this processor (and its OS, which must save the 256-bit registers: libgcc checks
// XGETBV) runs the AVX2/FMA paths. Asked once; __builtin_cpu_init makes the answer right even when
// the first call comes from a static initializer.
inline bool cpu_has_avx2_fma() {
#if defined(__AVX2__) && defined(__FMA__)
  return true;
#else
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
#endif
}
}  // namespace detail
}  // namespace liedyn
#endif
