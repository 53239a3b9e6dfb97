// liedyn command-line tool: reading CONSTRAINTS.json (format: README.md, "CONSTRAINTS.json";
// docs/constraints.md).
//
//   {"contacts":  [{"frame": F, "type": "point"|"rigid", "sense": "body"|"inertial"|"mixed"}],
//    "loops":     [{"frame1": F1, "frame2": F2, "type": "rigid"|"ball"|"revolute"|"prismatic",
//                   "axis": [x, y, z] (revolute/prismatic only, in frame 2), "sense": ...}],
//    "couplings": [{"joint": J, "master": I, "ratio": a, "offset": b}],
//    "restitution": e}
// Every section is optional; "sense" defaults to "body", "offset" to 0, "restitution" to 0.
// Rows (and λ) are stacked contacts first, then loops, then couplings, each in array order.
// Every problem throws liedyn_cli::Error "<file>: <where>: <what>", as for STATE.json, e.g.
// "c.json: contacts[1].frame: the model has no frame named 'FL_TOE'".
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "liedyn/model/constraint.hpp"

namespace liedyn_cli {

/// The constraints and the restitution of a CONSTRAINTS.json.
struct ConstraintsInput {
  std::vector<liedyn::ConstraintSpec<double>> specs;
  double restitution = 0.0;
};

/// Validates the document against the model (frames and joints must exist) and converts it.
ConstraintsInput parse_constraints(const nlohmann::json& doc, const liedyn::Model<double>& model,
                                   const std::string& path);

}  // namespace liedyn_cli
