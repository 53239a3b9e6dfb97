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
