// liedyn command-line tool: loading the robot (the URDF loader lives in model_io.cpp only, so
// tinyxml2 and the loader are compiled once).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "liedyn/model/constraint.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn_cli {

/// How the robot is loaded, shared by info, eval and check.
struct LoadOptions {
  std::string inertia = "lenient";  ///< --inertia strict|lenient|balance (InertiaPolicy)
  std::vector<std::string> lock;    ///< --lock NAME=POS,...: joints welded at POS (rad or m)
};

/// Loads a URDF file as a moving-base model, or with `fixed_base` welded at `welded_pose`; or an
/// MJCF file (name ending in .xml) with its own base, tendons and equality constraints skipped
/// with a diagnostic each (--fixed-base is an error there). Applies the inertia policy and locked
/// joints of `load`. Throws liedyn::ModelError (file errors
/// included) with the loader's message, liedyn_cli::Error for a malformed --lock entry, and
/// liedyn::InvalidArgument for an unknown joint name in --lock.
liedyn::Model<double> load_model(const std::string& urdf, bool fixed_base,
                                 const liedyn::SE3<double>& welded_pose = liedyn::SE3<double>(),
                                 const LoadOptions& load = LoadOptions());

/// A robot and the constraints its file states: an MJCF file's <equality> elements
/// (load_mjcf_robot_file, docs/loading.md); none for a URDF.
struct LoadedRobot {
  liedyn::Model<double> model;
  std::vector<liedyn::ConstraintSpec<double>> equality;
};

/// load_model, and with `equality` "enforce" (--equality) the MJCF file's <equality> elements
/// as constraints (its model then carries their frames "NAME/1", "NAME/2"); an error naming
/// the file when it is not MJCF or has none. With "ignore", none (load_model's model).
LoadedRobot load_robot(const std::string& path, bool fixed_base,
                       const liedyn::SE3<double>& welded_pose, const LoadOptions& load,
                       const std::string& equality);

/// Prints the model's diagnostics ("diagnostics: none" or one line per entry, kind and message).
void print_diagnostics(const liedyn::Model<double>& model, std::ostream& out);

}  // namespace liedyn_cli
