// liedyn — build-wide switches and the exception of the argument checks.
//
// Argument checks (sizes of inputs and of the output blocks written, the pairing of a Data with
// its Model, index ranges, names) run in EVERY build, release included, and throw
// liedyn::InvalidArgument with a message "liedyn: <function>: <argument> has size N, expected M"
// (or naming the index or name that was not found). Each is a comparison or two, outside the
// kernels' loops.
//
// Checks of numerical validity (NaN or infinity in a state, which costs a pass over the data)
// are debug-only: LIEDYN_DEBUG_CHECK runs when NDEBUG is not defined or LIEDYN_ENABLE_CHECKS is,
// and LIEDYN_CHECKS_ENABLED says whether it does.
#pragma once

#include <stdexcept>
#include <string>

namespace liedyn {

/// Thrown by every argument check of the library (wrong sizes of inputs or output blocks, a
/// Data sized for another Model, an index out of range, an unknown name). The message names the
/// function, the argument, the expected and the given size or the name not found.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {
// Out of line and cold so that a check costs its comparison only at the call site.
[[noreturn]] inline void throw_invalid_argument(const std::string& msg) {
  throw InvalidArgument("liedyn: " + msg);
}
}  // namespace detail
}  // namespace liedyn

#if defined(__GNUC__) || defined(__clang__)
#define LIEDYN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIEDYN_UNLIKELY(x) (x)
#endif

/// Argument check, every build: throws liedyn::InvalidArgument("liedyn: " + msg) when cond is
/// false. msg is evaluated only then.
#define LIEDYN_CHECK(cond, msg)                                                  \
  do {                                                                           \
    if (LIEDYN_UNLIKELY(!(cond))) ::liedyn::detail::throw_invalid_argument(msg); \
  } while (0)

/// Checks that an input vector or output block has the expected size (every build).
#define LIEDYN_CHECK_SIZE(who, what, vec, expected)                                           \
  LIEDYN_CHECK((vec).size() == (expected), std::string(who) + ": " + (what) + " has size " +  \
                                               std::to_string((vec).size()) + ", expected " + \
                                               std::to_string(expected))

/// Checks that a matrix argument has rows × cols (every build).
#define LIEDYN_CHECK_DIMS(who, what, mat, rows_, cols_)                                           \
  LIEDYN_CHECK((mat).rows() == (rows_) && (mat).cols() == (cols_),                                \
               std::string(who) + ": " + (what) + " has size " + std::to_string((mat).rows()) +   \
                   " x " + std::to_string((mat).cols()) + ", expected " + std::to_string(rows_) + \
                   " x " + std::to_string(cols_))

#if !defined(NDEBUG) || defined(LIEDYN_ENABLE_CHECKS)
#define LIEDYN_CHECKS_ENABLED 1
/// Numerical-validity check (NaN, infinity): debug builds or LIEDYN_ENABLE_CHECKS only.
#define LIEDYN_DEBUG_CHECK(cond, msg) LIEDYN_CHECK(cond, msg)
#else
#define LIEDYN_CHECKS_ENABLED 0
#define LIEDYN_DEBUG_CHECK(cond, msg) ((void)0)
#endif

// Run-time dispatch to AVX2/FMA code paths (x86-64 with GCC or Clang): the default build targets
// plain x86-64 so that users can ship its binaries, yet most of their machines have AVX2. Off with
// -DLIEDYN_NO_SIMD_DISPATCH.
#if !defined(LIEDYN_NO_SIMD_DISPATCH) && (defined(__GNUC__) || defined(__clang__)) && \
    defined(__x86_64__)
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
