// liedyn command-line tool: reading STATE.json (format: README.md, "STATE.json").
//
// Every problem — unreadable file, invalid JSON, duplicate keys, unknown or missing fields,
// unknown or missing joints, wrong types or sizes, non-finite numbers, a quaternion (the base's,
// a spherical or free joint's) whose norm is not 1 within 1e-6, partial accelerations — throws
// liedyn_cli::Error with a message of the form "<file>: <where>: <what>", e.g.
// "state.json: base.twist: expected 6 numbers, got 5".
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "liedyn/model/state.hpp"

namespace liedyn_cli {

/// The state and the optional accelerations and input of a STATE.json, in liedyn's native
/// coordinates: body twist ν, accelerations [ν̇; ṙ] (ν̇ the body acceleration), τ̄ = [τ̄_b; τ]
/// with τ̄_b in the base frame; joint i (body index) owns x.s from model.q_index(i) and
/// the velocity-sized entries from model.v_index(i), joint_nq(i) resp. joint_nv(i) of them.
struct StateInput {
  liedyn::State<double> x;
  liedyn::TwistRepresentation twist_representation =
      liedyn::TwistRepresentation::Body;  ///< as in the file
  bool has_accelerations = false;
  liedyn::VectorX<double> ddq;  ///< size nv when has_accelerations
  bool has_input = false;
  liedyn::VectorX<double> tau;  ///< size nv when has_input
};

/// Reads and parses the JSON file (duplicate keys are rejected). Throws Error.
nlohmann::json read_json_file(const std::string& path);

/// The base pose of the file (identity if "base" or its fields are absent, which only a welded
/// base allows); validated. Needed before the model is loaded with --fixed-base.
liedyn::SE3<double> state_base_pose(const nlohmann::json& doc, const std::string& path);

/// Validates the whole document against the model and converts it. Throws Error.
StateInput parse_state(const nlohmann::json& doc, const liedyn::Model<double>& model,
                       const std::string& path);

}  // namespace liedyn_cli
