// Pinocchio's model of a robot as plain records, from Pinocchio's own URDF parser (or the reference
// generator's multi-DoF models) run through its Python bindings in a process of its own
// (bench/pinocchio_model.py), to the timed translation unit (side_by_side_pinocchio.cpp), which
// rebuilds the model from them. A model built by the
// wheel's libpinocchio_parsers in this process crashed when this program's own Pinocchio code used
// it (2026-11-28, the parser's caller compiled for baseline x86-64 too: the layouts differ, cause
// not found); plain numbers cross any such boundary.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "side_by_side.hpp"

namespace side_by_side {

/// A placement: rotation row-major, then translation.
using Placement = std::array<double, 12>;

/// One of Pinocchio's joints (index ≥ 1), in its order.
struct PinocchioJoint {
  std::string name;
  std::string type;  ///< Pinocchio's shortname(): JointModelRX, JointModelFreeFlyer, …
  int parent = 0;
  Placement placement{};         ///< in the parent joint's frame
  std::array<double, 3> axis{};  ///< unaligned revolute and prismatic joints
  double mass = 0;
  std::array<double, 3> com{};
  std::array<double, 9> inertia{};  ///< about the centre of mass, row-major
};

/// One of Pinocchio's frames (index ≥ 1: the universe frame is the model's own).
struct PinocchioFrame {
  std::string name;
  int parent_joint = 0, parent_frame = 0, type = 0;
  Placement placement{};
};

struct PinocchioModelRecord {
  std::vector<PinocchioJoint> joints;
  std::vector<PinocchioFrame> frames;
};

/// Pinocchio's model of the robot, by Pinocchio's Python: its URDF parser on robot.urdf (free-flyer
/// unless welded), or the reference generator's model robot.generated.
PinocchioModelRecord pinocchio_model_record(const Robot& robot)
    __attribute__((visibility("default")));

}  // namespace side_by_side
