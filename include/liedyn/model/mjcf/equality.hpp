// liedyn — model: the MJCF loader's fifth stage (mjcf.hpp): the <equality> constraints as
// ConstraintSpecs, with the frames they add. Internal (detail::mjcf).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "liedyn/model/constraint.hpp"
#include "liedyn/model/mjcf/assembly.hpp"

namespace liedyn {
namespace detail {
namespace mjcf {

/// The assembly's builder with the frames the constraints add, and the constraints in file
/// order.
struct Equality {
  ModelBuilder<double> builder;
  std::vector<ConstraintSpec<double>> constraints;
};

inline int body_index(const Document& doc, const Tree& tree, const XMLElement* el, const char* attr,
                      const std::string& who) {
  const std::string name = name_attr(doc, el, attr, who);
  for (std::size_t i = 0; i < tree.bodies.size(); ++i)
    if (tree.bodies[i].name == name) return static_cast<int>(i);
  fail(doc, el, who + ": attribute '" + attr + "': no body named '" + name + "'");
}

/// The liedyn frame name of site `attr`, its MuJoCo body and its placement there.
inline std::string site_frame(const Document& doc, const Tree& tree, const XMLElement* el,
                              const char* attr, const std::string& who, int& body,
                              SE3<double>& placement) {
  const std::string name = name_attr(doc, el, attr, who);
  for (std::size_t i = 0; i < tree.bodies.size(); ++i)
    for (const SiteInfo& st : tree.bodies[i].sites)
      if (st.name == name) {
        body = static_cast<int>(i);
        placement = st.placement;
        return name;
      }
  fail(doc, el, who + ": attribute '" + attr + "': no site named '" + name + "'");
}

/// The hinges' common axis (world coordinates at qpos0) when the loop through bodies a and b
/// — every joint on their paths up to the lowest common ancestor — is planar: hinges about
/// one axis, and slides across it. The relative motion of a and b then stays in the plane
/// across the axis at every configuration.
inline std::optional<Vector3<double>> planar_loop_axis(const Tree& tree, int a, int b) {
  const std::vector<BodyInfo>& bodies = tree.bodies;
  auto depth = [&](int i) {
    int d = 0;
    for (; i > 0; i = bodies[i].parent) ++d;
    return d;
  };
  std::vector<int> path;
  int da = depth(a), db = depth(b);
  for (; da > db; --da, a = bodies[a].parent) path.push_back(a);
  for (; db > da; --db, b = bodies[b].parent) path.push_back(b);
  for (; a != b; a = bodies[a].parent, b = bodies[b].parent) {
    path.push_back(a);
    path.push_back(b);
  }
  const double tol = 1e-12;
  std::optional<Vector3<double>> axis;
  std::vector<Vector3<double>> slides;
  for (int i : path) {
    if (bodies[i].free_joint) return std::nullopt;
    const Matrix3<double> R = world_pose(tree, i).rotation();
    for (const JointInfo& j : bodies[i].joints) {
      const Vector3<double> w = (R * j.axis).normalized();
      if (j.kind == JointInfo::Kind::Ball) return std::nullopt;
      if (j.kind == JointInfo::Kind::Slide) slides.push_back(w);
      else if (!axis) axis = w;
      else if (axis->cross(w).norm() > tol) return std::nullopt;
    }
  }
  if (!axis) return std::nullopt;
  for (const Vector3<double>& w : slides)
    if (std::abs(axis->dot(w)) > tol) return std::nullopt;
  return axis;
}

/// One <equality> child being converted: its element, its kind (connect, weld, joint), its
/// name, and how messages name it (`who`).
struct EqualityElement {
  const XMLElement* el;
  std::string kind, name, who;
};

/// A joint equality as a Coupling; what liedyn cannot represent is skipped (or an error).
inline void convert_joint_equality(const Document& doc, const Assembly& assembly,
                                   const MjcfOptions& opt, const EqualityElement& eq,
                                   Equality& out) {
  const XMLElement* el = eq.el;
  const std::string& who = eq.who;
  const std::string j1 = name_attr(doc, el, "joint1", who);
  double poly[5] = {0.0, 1.0, 0.0, 0.0, 0.0};
  // MuJoCo reads up to 5 numbers; the ones not written keep the default 0 1 0 0 0.
  if (const Attr pa = get(doc, el, "", "", "polycoef"))
    numbers(doc, pa, who, "polycoef", std::min(std::max(xml::count_tokens(pa.text), 1), 5), poly);
  if (!assembly.qpos0.count(j1))
    fail(doc, el, who + ": attribute 'joint1': no hinge or slide joint named '" + j1 + "'");
  if (!el->Attribute("joint2")) {
    out.builder.add_diagnostic(unsupported(doc, opt, el,
                                           who + ": a joint equality without joint2 (joint1 held "
                                                 "at a constant) is not supported yet"));
    return;
  }
  const std::string j2 = name_attr(doc, el, "joint2", who);
  if (!assembly.qpos0.count(j2))
    fail(doc, el, who + ": attribute 'joint2': no hinge or slide joint named '" + j2 + "'");
  if (poly[2] != 0.0 || poly[3] != 0.0 || poly[4] != 0.0) {
    out.builder.add_diagnostic(unsupported(
        doc, opt, el,
        who + ": polycoef of degree above 1 is not supported (liedyn's couplings are linear)"));
    return;
  }
  ConstraintSpec<double> spec = ConstraintSpec<double>::coupling(j1, j2, poly[1], poly[0]);
  spec.name = eq.name;
  out.constraints.push_back(spec);
}

/// The two sides of a connect or weld: MuJoCo bodies, liedyn frame names, and frames 1 and 2
/// in body1's and body2's frames (they coincide at qpos0).
struct LoopSides {
  int body1 = -1, body2 = -1;
  std::string frame1, frame2;
  SE3<double> F1, F2;
  std::optional<Vector3<double>> planar_axis;  // a body-based connect closing a planar loop
};

/// The sides of a weld between bodies: at 'anchor' in body2, and 'relpose' (when not zero)
/// in body1.
inline void weld_sides(const Document& doc, const Tree& tree, const EqualityElement& eq,
                       LoopSides& s) {
  const SE3<double> H1 = world_pose(tree, s.body1), H2 = world_pose(tree, s.body2);
  const Vector3<double> anchor =
      read3(doc, eq.el, "", "", "anchor", Vector3<double>::Zero(), eq.who);
  double rel[7] = {0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  read(doc, eq.el, "", "", "relpose", 7, rel, eq.who);
  const Eigen::Vector4d q(rel[3], rel[4], rel[5], rel[6]);
  s.F2 = SE3<double>(Matrix3<double>::Identity(), anchor);
  if (q.isZero(0.0)) {
    s.F1 = H1.inverse() * H2 * s.F2;
  } else {
    const Eigen::Quaterniond rq(q(0) / q.norm(), q(1) / q.norm(), q(2) / q.norm(), q(3) / q.norm());
    s.F1 = SE3<double>(rq.toRotationMatrix(), Vector3<double>(rel[0], rel[1], rel[2]));
  }
}

/// The sides of a connect between bodies: at 'anchor' in body1.
inline void connect_sides(const Document& doc, const Tree& tree, const EqualityElement& eq,
                          LoopSides& s) {
  const SE3<double> H1 = world_pose(tree, s.body1), H2 = world_pose(tree, s.body2);
  if (!eq.el->Attribute("anchor")) fail(doc, eq.el, eq.who + ": no attribute 'anchor'");
  s.F1 = SE3<double>(Matrix3<double>::Identity(),
                     read3(doc, eq.el, "", "", "anchor", Vector3<double>::Zero(), eq.who));
  s.F2 = SE3<double>(Matrix3<double>::Identity(), (H2.inverse() * H1 * s.F1).translation());
  s.planar_axis = planar_loop_axis(tree, s.body1, s.body2);
  if (s.planar_axis) {
    // Frame 2's z along the hinges (both frames coincide at qpos0): its rows across them.
    const Vector3<double> n = H2.rotation().transpose() * *s.planar_axis;
    s.F2 = SE3<double>(
        Eigen::Quaterniond::FromTwoVectors(Vector3<double>::UnitZ(), n).toRotationMatrix(),
        s.F2.translation());
    s.F1 = H1.inverse() * H2 * s.F2;
  }
}

/// The sides of a connect or weld: its two sites, or its two bodies (body2 the world when
/// absent).
inline LoopSides loop_sides(const Document& doc, const Tree& tree, const EqualityElement& eq) {
  const XMLElement* el = eq.el;
  LoopSides s;
  if (el->Attribute("site1") || el->Attribute("site2")) {
    for (const char* attr : {"body1", "body2", "anchor", "relpose"})
      if (el->Attribute(attr))
        fail(doc, el,
             eq.who + ": attribute '" + attr +
                 "' with site1 and site2 (MuJoCo takes sites or bodies, not both)");
    s.frame1 = site_frame(doc, tree, el, "site1", eq.who, s.body1, s.F1);
    s.frame2 = site_frame(doc, tree, el, "site2", eq.who, s.body2, s.F2);
    return s;
  }
  s.body1 = body_index(doc, tree, el, "body1", eq.who);
  s.body2 = el->Attribute("body2") ? body_index(doc, tree, el, "body2", eq.who) : 0;
  if (eq.kind == "weld") weld_sides(doc, tree, eq, s);
  else connect_sides(doc, tree, eq, s);
  s.frame1 = eq.name + "/1";
  s.frame2 = eq.name + "/2";
  return s;
}

/// A connect (ball loop) or weld (rigid loop), or a contact when a side is fixed to the world.
inline void convert_loop_equality(const Document& doc, const Tree& tree, const Assembly& assembly,
                                  const EqualityElement& eq, Equality& out) {
  const XMLElement* el = eq.el;
  const std::string& who = eq.who;
  const bool weld = eq.kind == "weld";
  const bool by_site = el->Attribute("site1") || el->Attribute("site2");
  ConstraintType type = weld ? ConstraintType::RigidLoop : ConstraintType::BallLoop;
  if (weld) {
    double torquescale = 1.0;
    read(doc, el, "", "", "torquescale", 1, &torquescale, who);
    // MuJoCo scales the rotational rows; zero removes them, leaving the weld point.
    if (torquescale == 0.0) type = ConstraintType::BallLoop;
  }
  const LoopSides s = loop_sides(doc, tree, eq);
  const std::vector<std::string>& entity = assembly.entity;
  // A side on the world or on a body fixed to it, which a moving-base model does not contain,
  // is the environment: the other side becomes a contact with its desired placement there.
  const auto in_world = [&](int body) {
    return entity[body].empty() || (body == 0 && assembly.base_type == BaseType::Moving);
  };
  const bool fixed1 = in_world(s.body1), fixed2 = in_world(s.body2);
  if (fixed1 && fixed2) fail(doc, el, who + ": both sides are fixed to the world");
  if (!fixed1 && !fixed2 && entity[s.body1] == entity[s.body2])
    fail(doc, el, who + ": both sides are on the same rigid body '" + entity[s.body1] + "'");
  try {
    if (!by_site && !fixed1)
      out.builder.add_frame(s.frame1, entity[s.body1], assembly.entity_H[s.body1] * s.F1);
    if (!by_site && !fixed2)
      out.builder.add_frame(s.frame2, entity[s.body2], assembly.entity_H[s.body2] * s.F2);
  } catch (const ModelError& e) {
    fail(doc, el, who + ": " + strip_prefix(e.what()));
  }
  ConstraintSpec<double> spec;
  if (fixed1 || fixed2) {
    const bool rigid = type == ConstraintType::RigidLoop;
    const std::string& frame = fixed1 ? s.frame2 : s.frame1;
    spec = rigid ? ConstraintSpec<double>::rigid_contact(frame, TwistRepresentation::Mixed)
                 : ConstraintSpec<double>::point_contact(frame, TwistRepresentation::Mixed);
    spec.placement = fixed1 ? world_pose(tree, s.body1) * s.F1 : world_pose(tree, s.body2) * s.F2;
  } else if (s.planar_axis) {
    // MuJoCo's three rows have rank 2 at every configuration: the loop moves in the plane
    // across the hinges, so the relative velocity along them vanishes. Its two independent rows
    // are the ones across the axis, in frame 2's axes (which turn about it).
    spec = ConstraintSpec<double>::loop(type, s.frame1, s.frame2, TwistRepresentation::Body);
    spec.components = {0, 1};
    out.builder.add_diagnostic(ModelDiagnostic{
        eq.name, DiagnosticKind::ignored_element,
        where(doc, el) + who +
            " closes a planar loop (hinges about one axis): its row along the axis is zero at "
            "every configuration and is left out (rows across the axis, in frame 2's axes)",
        0.0});
  } else {
    spec = ConstraintSpec<double>::loop(type, s.frame1, s.frame2, TwistRepresentation::Mixed);
  }
  spec.name = eq.name;
  out.constraints.push_back(spec);
}

/// One <equality> child (docs/loading.md, "Equality constraints"): connect a ball loop, weld a
/// rigid loop, joint a coupling; frames 1 and 2 are MuJoCo's body1 (site1) and body2 (site2)
/// sides, rows in mixed sense. `id` is its index in MuJoCo, for an unnamed one's name.
inline void convert_equality_element(const Document& doc, const Tree& tree,
                                     const Assembly& assembly, const MjcfOptions& opt,
                                     const XMLElement* el, int id, Equality& out) {
  EqualityElement eq{el, el->Name(), "", ""};
  const std::string cls = class_of(doc, el, "main");
  eq.name = el->Attribute("name") && *el->Attribute("name") ? el->Attribute("name")
                                                            : "equality" + std::to_string(id);
  eq.who = "<equality><" + eq.kind + "> '" + eq.name + "'";
  if (eq.kind != "connect" && eq.kind != "weld" && eq.kind != "joint") {
    out.builder.add_diagnostic(unsupported(
        doc, opt, el, eq.who + " is not supported (liedyn converts connect, weld and joint)"));
    return;
  }
  if (const Attr a = get(doc, el, "equality", cls, "active"))
    if (!read_bool(doc, a, eq.who, "active")) {
      out.builder.add_diagnostic(ModelDiagnostic{
          eq.name, DiagnosticKind::ignored_element,
          where(doc, el) + eq.who + " is inactive (active='false'); not converted", 0.0});
      return;
    }
  if (eq.kind == "joint") convert_joint_equality(doc, assembly, opt, eq, out);
  else convert_loop_equality(doc, tree, assembly, eq, out);
}

/// Stage 5: the <equality> constraints in file order, with the frames they add.
inline Equality convert_equality(const Document& doc, const Tree& tree, const Assembly& assembly,
                                 const MjcfOptions& opt) {
  Equality out{assembly.builder, {}};
  int id = 0;
  for (const XMLElement* section : doc.equality_sections)
    for (const XMLElement* el : children(doc, section))
      convert_equality_element(doc, tree, assembly, opt, el, id++, out);
  return out;
}

}  // namespace mjcf
}  // namespace detail
}  // namespace liedyn
