// Reads Pinocchio's model of a robot from bench/pinocchio_model.py
// (side_by_side_pinocchio_model.hpp). Plain C++: neither library's headers.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "side_by_side_pinocchio_model.hpp"

namespace side_by_side {

namespace {

template <std::size_t N>
void read(std::istringstream& in, std::array<double, N>& out) {
  for (double& x : out) in >> x;
}

}  // namespace

PinocchioModelRecord pinocchio_model_record(const Robot& robot) {
  const char* env = std::getenv("LIEDYN_PINOCCHIO_PYTHON");
  const std::string python = env ? env : LIEDYN_PINOCCHIO_PYTHON;
  const std::string model = robot.generated.empty()
                                ? "'" + robot.urdf + "'" + (robot.welded ? " --welded" : "")
                                : "--generated '" + robot.generated + "'";
  const std::string command = "'" + python + "' '" LIEDYN_BENCH_DIR "/pinocchio_model.py' " + model;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("side_by_side: cannot run " + command);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  if (pclose(pipe) != 0)
    throw std::runtime_error("side_by_side: '" + command +
                             "' failed (Pinocchio's Python bindings: pip install pin; the "
                             "interpreter: LIEDYN_PINOCCHIO_PYTHON)");
  PinocchioModelRecord record;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string kind;
    in >> kind;
    if (kind == "joint") {
      PinocchioJoint j;
      in >> j.name >> j.type >> j.parent;
      read(in, j.placement);
      read(in, j.axis);
      in >> j.mass;
      read(in, j.com);
      read(in, j.inertia);
      if (!in) throw std::runtime_error("side_by_side: bad joint line: " + line);
      record.joints.push_back(j);
    } else if (kind == "frame") {
      PinocchioFrame f;
      in >> f.name >> f.parent_joint >> f.parent_frame >> f.type;
      read(in, f.placement);
      if (!in) throw std::runtime_error("side_by_side: bad frame line: " + line);
      record.frames.push_back(f);
    }
  }
  if (record.joints.empty()) throw std::runtime_error("side_by_side: no joints from " + command);
  return record;
}

}  // namespace side_by_side
