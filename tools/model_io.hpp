// liedyn command-line tool: loading the robot (the URDF loader lives in model_io.cpp only, so
// tinyxml2 and the loader are compiled once).
#pragma once

#include <string>

#include "liedyn/model/model.hpp"

namespace liedyn_cli {

/// Loads a URDF file as a moving-base model, or with `fixed_base` welded at `welded_pose`.
/// Throws liedyn::ModelError (file errors included) with the loader's message.
liedyn::Model<double> load_model(const std::string& urdf, bool fixed_base,
                                 const liedyn::SE3<double>& welded_pose = liedyn::SE3<double>());

}  // namespace liedyn_cli
