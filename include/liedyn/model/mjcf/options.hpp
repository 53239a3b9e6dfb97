// liedyn — model: the options of the MJCF loader (mjcf.hpp), which its stages read.
#pragma once

#include <optional>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// What load_mjcf_* do with an element they cannot represent but that leaves the kinematic tree
/// intact (<equality>, <tendon>): error (the default) or skip it with a diagnostic.
enum class UnsupportedElements { error, skip };

/// Options of load_mjcf_string and load_mjcf_file.
struct MjcfOptions {
  /// Physical gravity in the inertial frame; when empty, the file's <option gravity> (MuJoCo's
  /// default (0, 0, −9.81); zero with <flag gravity="disable">).
  std::optional<Vector3<double>> gravity;
  /// What to do with body inertias a rigid body cannot have (InertiaPolicy, docs/loading.md).
  InertiaPolicy inertia = InertiaPolicy::lenient;
  /// <equality> and <tendon>: an error, or skipped with a diagnostic each.
  UnsupportedElements unsupported = UnsupportedElements::error;
};

}  // namespace liedyn
