#pragma once
/// \file version.hpp
/// \brief Version of the liedyn library.
///
/// These numbers must match `project(liedyn VERSION ...)` in the top-level
/// CMakeLists.txt; configuring fails if they differ.

#define LIEDYN_VERSION_MAJOR 0
#define LIEDYN_VERSION_MINOR 1
#define LIEDYN_VERSION_PATCH 0

/// Single integer for preprocessor comparisons: MAJOR*10000 + MINOR*100 + PATCH.
#define LIEDYN_VERSION \
  (LIEDYN_VERSION_MAJOR * 10000 + LIEDYN_VERSION_MINOR * 100 + LIEDYN_VERSION_PATCH)

namespace liedyn {

/// "MAJOR.MINOR.PATCH"
inline constexpr const char* version_string = "0.1.0";

inline constexpr int version_major = LIEDYN_VERSION_MAJOR;
inline constexpr int version_minor = LIEDYN_VERSION_MINOR;
inline constexpr int version_patch = LIEDYN_VERSION_PATCH;

}  // namespace liedyn
