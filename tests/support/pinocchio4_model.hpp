// liedyn tests — a liedyn Model and State rebuilt from a format-2 Pinocchio dump
// (tests/data/pinocchio4/README.md, "How a liedyn test maps them") with ModelBuilder, from the
// dump's own joint, axis, placement and inertia records: an independent path to the same
// mechanism.
//
// A root JointModelFreeFlyer (`meta freeflyer 1`) is liedyn's moving base (Pinocchio's joint 1
// is liedyn's body 0); otherwise the base is the universe, welded at the identity and massless.
// Every other Pinocchio joint I becomes a body named after the joint, attached by a joint of
// the same name, so a liedyn body is found by the Pinocchio joint's name. The joints'
// coordinates have the same layout in both libraries (quaternions x, y, z, w), so a joint's
// q-segment is its segment of s and its v-segment its segment of r.
#pragma once

#include <string>

#include "liedyn/model/builder.hpp"
#include "liedyn/model/state.hpp"
#include "pinocchio_dump.hpp"

namespace liedyn {
namespace test {

/// The liedyn body of Pinocchio joint I (0 for the root free flyer or the universe).
inline int body_of(const Model<double>& model, const PinocchioDump& d, int I) {
  if (I == 0 || (I == 1 && d.freeflyer)) return 0;
  return model.require_joint_id(d.joints.at(I).name, "body_of");
}

inline JointSpec<double> joint_spec_from_dump(const PinocchioDump& d, const PinocchioJoint& pj) {
  const SE3<double>& X = d.placements.at(pj.index);
  const std::string& t = pj.type;
  if (t == "JointModelFreeFlyer") return JointSpec<double>::free(pj.name, X);
  if (t == "JointModelSpherical") return JointSpec<double>::spherical(pj.name, X);
  if (t == "JointModelPlanar") return JointSpec<double>::planar(pj.name, X);
  const std::vector<Vector3<double>>& axes = d.axes.at(pj.index);
  if (t == "JointModelUniversal") return JointSpec<double>::universal(pj.name, axes[0], axes[1], X);
  if (t.rfind("JointModelR", 0) == 0) return JointSpec<double>::revolute(pj.name, axes[0], X);
  if (t.rfind("JointModelP", 0) == 0) return JointSpec<double>::prismatic(pj.name, axes[0], X);
  FAIL("unexpected Pinocchio joint type " << t);
  return {};
}

// Record `inertia I m cx cy cz I00..I22`: mass, centre of mass and rotational inertia about it,
// in joint I's frame.
inline SpatialInertia<double> inertia_from_dump(const std::string& path, int I) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    int index = -1;
    s >> key >> index;
    if (key != "inertia" || index != I) continue;
    double m = 0;
    Vector3<double> c;
    Matrix3<double> Ic;
    s >> m >> c(0) >> c(1) >> c(2);
    for (int k = 0; k < 9; ++k) s >> Ic(k / 3, k % 3);
    REQUIRE(!s.fail());
    return SpatialInertia<double>::from_mass_com_inertia(m, c, Ic);
  }
  FAIL("no inertia record for joint " << I << " in " << path);
  return {};
}

/// The model of the dump at `path` (its already read records `d`).
inline Model<double> model_from_dump(const std::string& path, const PinocchioDump& d) {
  ModelBuilder<double> b(d.freeflyer ? BaseType::Moving : BaseType::Welded, "base",
                         d.freeflyer ? inertia_from_dump(path, 1) : SpatialInertia<double>());
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  b.set_gravity(d.gravity);
  for (const PinocchioJoint& pj : d.joints) {
    if (pj.index == 0 || (pj.index == 1 && d.freeflyer)) continue;
    const bool on_base = pj.parent == 0 || (pj.parent == 1 && d.freeflyer);
    const std::string parent = on_base ? std::string("base") : d.joints.at(pj.parent).name;
    b.add_body(parent, pj.name, joint_spec_from_dump(d, pj), inertia_from_dump(path, pj.index));
  }
  return b.build();
}

/// The state of the dump (q, v): a root free flyer's (p, quaternion) is the base pose and its
/// v-segment the base's body twist; every other joint's segments are copied as they are.
inline State<double> state_from_dump(const Model<double>& model, const PinocchioDump& d) {
  const VectorX<double>&q = d.vec("q"), &v = d.vec("v");
  State<double> x(model);
  if (d.freeflyer) {
    x.H = SE3<double>(SO3<double>::from_quaternion(Vector4<double>(q.segment<4>(3))),
                      Vector3<double>(q.head<3>()));
    x.nu = v.head<6>();
  }
  for (const PinocchioJoint& pj : d.joints) {
    const int b = body_of(model, d, pj.index);
    if (b == 0) continue;
    x.s.segment(model.q_index(b), pj.nq) = q.segment(pj.idx_q, pj.nq);
    x.r.segment(model.r_index(b), pj.nv) = v.segment(pj.idx_v, pj.nv);
  }
  return x;
}

}  // namespace test
}  // namespace liedyn
