// liedyn command-line tool: loading the robot (the URDF loader lives in model_io.cpp only, so
// tinyxml2 and the loader are compiled once).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

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

/// Prints the model's diagnostics ("diagnostics: none" or one line per entry, kind and message).
void print_diagnostics(const liedyn::Model<double>& model, std::ostream& out);

}  // namespace liedyn_cli
