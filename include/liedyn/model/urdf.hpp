// liedyn — model: a URDF loader (optional; needs tinyxml2 and the CMake target liedyn::urdf).
//
// The core library never includes this header. Link liedyn::urdf (which brings tinyxml2) to use it:
//   liedyn::Model<double> m = liedyn::load_urdf_file("robot.urdf");
//
// What is read, and how it maps onto the model (model.hpp, builder.hpp, docs/conventions.md §2):
// * The ROOT LINK (the one link that is no joint's child) becomes body 0, the base, named after
//   the link. By default it is the moving base (6 DoF, pose and body twist in the state); with
//   UrdfOptions::weld_base it is welded to the inertial frame at UrdfOptions::welded_base_pose.
// * Frames: every link frame is a body frame (movable links) or a Frame of the model (links
//   behind fixed joints). The joint frame of a URDF joint is its child link's frame, placed by
//   <origin xyz rpy> in the parent link's frame at zero joint position: the joint's placement
//   ^{λ(i)}H_{λ(i)|i}. rpy are fixed-axis roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
//   A missing <origin> is the identity; a missing xyz or rpy is zero.
// * Joints: revolute → revolute (with <limit lower upper effort velocity>, required as in the
//   URDF specification; lower/upper default to 0), continuous → revolute with infinite position
//   limits (<limit> optional, effort/velocity kept), prismatic → prismatic (<limit> required),
//   fixed → the child link is merged into its parent (inertias combined exactly, the link kept
//   as a frame). <axis xyz> is in the joint frame, (1, 0, 0) when missing, normalized; a zero
//   axis is an error. floating → a free joint (SE(3)) placed at <origin>; planar → a planar
//   joint in the plane normal to <axis>, which must be (0, 0, 1) so far (an error otherwise:
//   Pinocchio 4.1 ignores the axis and takes the xy-plane). Neither reads a <limit>. Unknown
//   joint types are errors.
// * <mimic joint multiplier offset> (defaults 1 and 0): the joint stays an independent degree of
//   freedom (as in Pinocchio) and the relation is recorded in Model::mimic_relations().
// * Inertia: <inertial><origin xyz rpy/><mass value/><inertia ixx ixy ixz iyy iyz izz/></inertial>,
//   the rotational inertia about the centre of mass in the <inertial> origin frame, which sits at
//   the centre of mass. The loader builds the spatial inertia in the link frame (linear first,
//   (m, m c, I_o) about the link origin). A link without <inertial> has no inertia. Zero mass
//   (without inertia) and point masses at any offset are accepted (URDF uses them for frames and
//   sensors). Each inertia is checked as the file writes it, about the centre of mass:
//   negative mass, zero mass with a rotational inertia, and a rotational inertia that is not
//   positive semi-definite are errors; principal moments that violate the triangle inequality
//   follow UrdfOptions::inertia (InertiaPolicy: lenient, the default, loads them as written and
//   lists them, with implausibly small placeholder inertias and massless subtrees, in
//   Model::diagnostics(); balance repairs them; strict refuses them). A joint whose subtree moves
//   no inertia along its axis is reported by Model::singular_joints().
// * Ignored: <visual>, <collision>, <material>, <gazebo>, <transmission>, <dynamics damping
//   friction> (the model has no joint friction), <calibration>, <safety_controller>, and the
//   <axis> of fixed joints. Armature is not part of URDF: it is 0. Fixed joints' names are not
//   kept (their child links are the frames).
// * Units are SI. Numbers are parsed strictly: decimal text only (no nan, inf or hex), the
//   exact count of numbers per attribute, and each number must be finite. Parsing uses
//   std::strtod, so it follows the C locale's decimal point ('.' unless the program called
//   setlocale with a locale that uses ',').
//
// Anything the loader cannot represent exactly — several root links, a loop, a link that is the
// child of two joints, a missing link, malformed numbers or missing attributes — throws
// liedyn::ModelError with a message that says what and where, e.g.
//   "liedyn: URDF: line 42: joint 'knee': a revolute joint needs a <limit>".
// It never approximates silently.
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "liedyn/model/builder.hpp"
#include "liedyn/model/xml_common.hpp"

namespace liedyn {

/// Options of load_urdf_string and load_urdf_file: moving or welded root link, its welded pose,
/// gravity.
struct UrdfOptions {
  /// Weld the root link to the inertial frame (a classic manipulator) instead of making it the
  /// moving base.
  bool weld_base = false;
  /// ^A H_0 of the welded root link (used only with weld_base).
  SE3<double> welded_base_pose;
  /// Physical gravity in the inertial frame.
  Vector3<double> gravity{0.0, 0.0, -9.81};
  /// What to do with link inertias a rigid body cannot have (InertiaPolicy, docs/loading.md):
  /// lenient loads them as written and lists them in Model::diagnostics().
  InertiaPolicy inertia = InertiaPolicy::lenient;
};

namespace detail {
namespace urdf {

using tinyxml2::XMLElement;

/// Error reporting with a common prefix ("liedyn: URDF: " and, for files, the path).
struct Context {
  std::string prefix;

  [[noreturn]] void fail(const std::string& msg) const { throw ModelError(prefix + msg); }
  [[noreturn]] void fail(const XMLElement* el, const std::string& msg) const {
    throw ModelError(prefix + "line " + std::to_string(el->GetLineNum()) + ": " + msg);
  }
};

using xml::parse_numbers;
using xml::quote;
using xml::strip_prefix;

/// Whether an attribute must be written.
enum class Presence { required, optional };

/// Reads attribute `attr` of `el` as `n` numbers into `out`. Returns false (leaving `out`
/// untouched) when the attribute is absent and optional.
inline bool read_numbers(const Context& c, const XMLElement* el, const char* attr, int n,
                         double* out, const std::string& who, Presence presence) {
  const char* text = el->Attribute(attr);
  if (!text) {
    if (presence == Presence::required)
      c.fail(el, who + ": <" + el->Name() + "> has no attribute '" + attr + "'");
    return false;
  }
  std::string why;
  if (!parse_numbers(text, n, out, why))
    c.fail(el, who + ": <" + el->Name() + "> attribute '" + attr + "': " + why);
  return true;
}

inline double read_number(const Context& c, const XMLElement* el, const char* attr,
                          const std::string& who, Presence presence, double fallback) {
  double v = fallback;
  read_numbers(c, el, attr, 1, &v, who, presence);
  return v;
}

/// The single child element `name` of `el`, or nullptr; two or more is an error.
inline const XMLElement* unique_child(const Context& c, const XMLElement* el, const char* name,
                                      const std::string& who) {
  const XMLElement* first = el->FirstChildElement(name);
  if (first && first->NextSiblingElement(name))
    c.fail(first->NextSiblingElement(name), who + ": more than one <" + name + ">");
  return first;
}

/// A required, non-empty string attribute.
inline std::string read_name(const Context& c, const XMLElement* el, const char* attr,
                             const std::string& who) {
  const char* text = el->Attribute(attr);
  if (!text) c.fail(el, who + ": <" + el->Name() + "> has no attribute '" + attr + "'");
  if (!*text) c.fail(el, who + ": <" + el->Name() + "> attribute '" + attr + "' is empty");
  return text;
}

/// R = Rz(yaw) Ry(pitch) Rx(roll).
inline Matrix3<double> rpy_matrix(double roll, double pitch, double yaw) {
  const double cr = std::cos(roll), sr = std::sin(roll);
  const double cp = std::cos(pitch), sp = std::sin(pitch);
  const double cy = std::cos(yaw), sy = std::sin(yaw);
  Matrix3<double> R;
  R << cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,  //
      sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,   //
      -sp, cp * sr, cp * cr;
  return R;
}

/// The transform of an optional <origin xyz rpy> child of `el` (identity when absent).
inline SE3<double> read_origin(const Context& c, const XMLElement* el, const std::string& who) {
  const XMLElement* o = unique_child(c, el, "origin", who);
  if (!o) return SE3<double>();
  double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
  read_numbers(c, o, "xyz", 3, xyz, who, Presence::optional);
  read_numbers(c, o, "rpy", 3, rpy, who, Presence::optional);
  return SE3<double>(rpy_matrix(rpy[0], rpy[1], rpy[2]), Vector3<double>(xyz[0], xyz[1], xyz[2]));
}

struct Link {
  std::string name;
  const XMLElement* el = nullptr;
  SpatialInertia<double> inertia;
  int parent_joint = -1;                     // index into the joints, -1 for a root
  std::vector<ModelDiagnostic> diagnostics;  // from the inertia policy
};

struct Joint {
  std::string name, type, parent, child;
  const XMLElement* el = nullptr;
  SE3<double> origin;
  Vector3<double> axis = Vector3<double>::UnitX();
  double lower = -std::numeric_limits<double>::infinity(),
         upper = std::numeric_limits<double>::infinity();
  double effort = std::numeric_limits<double>::infinity(),
         velocity = std::numeric_limits<double>::infinity();
  const XMLElement* mimic = nullptr;
  std::string leader;
  double multiplier = 1.0, offset = 0.0;
  bool movable() const { return type != "fixed"; }
};

inline Link read_link(const Context& c, const XMLElement* el, InertiaPolicy policy) {
  Link l;
  l.el = el;
  l.name = read_name(c, el, "name", "a <link>");
  const std::string who = "link '" + l.name + "'";
  const XMLElement* in = unique_child(c, el, "inertial", who);
  if (!in) return l;
  const std::string iwho = who + " <inertial>";
  const SE3<double> X = read_origin(c, in, iwho);
  const XMLElement* mass = unique_child(c, in, "mass", iwho);
  if (!mass) c.fail(in, iwho + ": no <mass>");
  const XMLElement* inertia = unique_child(c, in, "inertia", iwho);
  if (!inertia) c.fail(in, iwho + ": no <inertia>");
  const double m = read_number(c, mass, "value", iwho, Presence::required, 0.0);
  static const char* const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  double v[6];
  for (int k = 0; k < 6; ++k)
    v[k] = read_number(c, inertia, names[k], iwho, Presence::required, 0.0);
  Matrix3<double> Ic;
  Ic << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
  // Checked as written, about the centre of mass, before any transform adds round-off (a point
  // mass off the link origin has I_c = 0 exactly here).
  const detail::InertiaReview review = detail::review_inertia(m, Ic, Ic.cwiseAbs().maxCoeff());
  double delta = 0.0;
  try {
    delta = detail::apply_inertia_policy(review, policy, InertiaCheck::Physical, l.name, "",
                                         l.diagnostics);
  } catch (const ModelError& e) {
    c.fail(in, iwho + ": " + e.what());
  }
  for (ModelDiagnostic& d : l.diagnostics)
    d.message = "line " + std::to_string(in->GetLineNum()) + ": " + d.message;
  Ic.diagonal().array() += delta;
  // In the <inertial> frame the centre of mass is the origin; then move to the link frame.
  l.inertia =
      SpatialInertia<double>::from_mass_com_inertia(m, Vector3<double>::Zero(), Ic).transformed(X);
  // Finite numbers can overflow on the way to the link frame (a huge mass far off the origin).
  if (!std::isfinite(l.inertia.mass()) || !l.inertia.first_moment().allFinite() ||
      !l.inertia.inertia_origin().allFinite())
    c.fail(in, iwho + ": non-finite mass or inertia (overflow in the link frame)");
  return l;
}

inline Joint read_joint(const Context& c, const XMLElement* el) {
  Joint j;
  j.el = el;
  j.name = read_name(c, el, "name", "a <joint>");
  const std::string who = "joint '" + j.name + "'";
  j.type = read_name(c, el, "type", who);
  if (j.type != "revolute" && j.type != "continuous" && j.type != "prismatic" &&
      j.type != "fixed" && j.type != "floating" && j.type != "planar")
    c.fail(el, who + ": unknown joint type '" + j.type + "'");
  const XMLElement* parent = unique_child(c, el, "parent", who);
  if (!parent) c.fail(el, who + ": no <parent>");
  j.parent = read_name(c, parent, "link", who);
  const XMLElement* child = unique_child(c, el, "child", who);
  if (!child) c.fail(el, who + ": no <child>");
  j.child = read_name(c, child, "link", who);
  j.origin = read_origin(c, el, who);
  if (!j.movable()) return j;

  if (const XMLElement* axis = unique_child(c, el, "axis", who)) {
    double a[3];
    read_numbers(c, axis, "xyz", 3, a, who, Presence::required);
    j.axis = Vector3<double>(a[0], a[1], a[2]);  // the builder normalizes it and rejects zero
  }
  // A floating or planar joint's <limit>, if any, is not read (URDF defines none for them).
  if (j.type == "floating" || j.type == "planar") return j;
  const XMLElement* limit = unique_child(c, el, "limit", who);
  if (!limit && j.type != "continuous")
    c.fail(el, who + ": a " + j.type + " joint needs a <limit>");
  if (limit) {
    // As in the URDF specification (and urdfdom): effort and velocity are required, lower and
    // upper default to 0; a continuous joint ignores lower and upper.
    j.effort = read_number(c, limit, "effort", who, Presence::required, 0.0);
    j.velocity = read_number(c, limit, "velocity", who, Presence::required, 0.0);
    if (j.effort < 0.0) c.fail(limit, who + ": negative effort limit");
    if (j.velocity < 0.0) c.fail(limit, who + ": negative velocity limit");
    if (j.type != "continuous") {
      j.lower = read_number(c, limit, "lower", who, Presence::optional, 0.0);
      j.upper = read_number(c, limit, "upper", who, Presence::optional, 0.0);
      if (j.lower > j.upper) c.fail(limit, who + ": lower limit above upper limit");
    }
  }
  if (const XMLElement* mimic = unique_child(c, el, "mimic", who)) {
    j.mimic = mimic;
    j.leader = read_name(c, mimic, "joint", who);
    j.multiplier = read_number(c, mimic, "multiplier", who, Presence::optional, 1.0);
    j.offset = read_number(c, mimic, "offset", who, Presence::optional, 0.0);
  }
  return j;
}

/// The builder's joint for a movable URDF joint. A planar joint moves in the plane normal to
/// its axis, which must be (0, 0, 1): the joint frame's xy-plane. (Another axis would need the
/// child link's frame turned back after the joint, which a placement cannot express.)
inline JointSpec<double> joint_spec(const Joint& j) {
  if (j.type == "prismatic") return JointSpec<double>::prismatic(j.name, j.axis, j.origin);
  if (j.type == "floating") return JointSpec<double>::free(j.name, j.origin);
  if (j.type == "planar") {
    if (!(j.axis.norm() > 0.0)) throw ModelError("liedyn: joint '" + j.name + "': zero axis");
    if (!(j.axis.normalized() - Vector3<double>::UnitZ()).isZero(1e-12))
      throw ModelError("liedyn: joint '" + j.name +
                       "': a planar joint's axis must be (0, 0, 1) (the plane is the joint "
                       "frame's xy-plane): turn its <origin> instead");
    return JointSpec<double>::planar(j.name, j.origin);
  }
  return JointSpec<double>::revolute(j.name, j.axis, j.origin);
}

// The loader is a pipeline of stages, each a function of the previous stage's value:
//   read_document → Document (the parsed XML and its <robot> element)
//   read_tree     → Tree     (links with their inertias, joints, the root link; checked whole)
//   build_model   → Model

/// Stage 1's value: the parsed XML and its one top-level element, <robot>.
struct Document {
  std::unique_ptr<tinyxml2::XMLDocument> xml;
  const XMLElement* robot = nullptr;
};

inline Document read_document(const Context& c, const std::string& text) {
  Document doc{std::make_unique<tinyxml2::XMLDocument>(), nullptr};
  if (doc.xml->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    const char* err = doc.xml->ErrorStr();
    c.fail(std::string("XML parse error: ") + (err ? err : "unknown error"));
  }
  const XMLElement* robot = doc.xml->RootElement();
  if (!robot) c.fail("the document has no root element");
  if (std::string(robot->Name()) != "robot")
    c.fail(robot, "the root element is <" + std::string(robot->Name()) + ">, expected <robot>");
  if (const XMLElement* other = robot->NextSiblingElement())
    c.fail(other, "a second top-level element <" + std::string(other->Name()) + "> after <robot>");
  doc.robot = robot;
  return doc;
}

/// Stage 2's value: the links and joints in document order, by name, and the root link.
struct Tree {
  std::vector<Link> links;
  std::vector<Joint> joints;
  std::map<std::string, int> link_id, joint_id;
  int root = -1;
};

inline void read_links(const Context& c, const XMLElement* robot, InertiaPolicy policy,
                       Tree& tree) {
  for (const XMLElement* el = robot->FirstChildElement("link"); el;
       el = el->NextSiblingElement("link")) {
    Link l = read_link(c, el, policy);
    if (tree.link_id.count(l.name)) c.fail(el, "duplicate link name '" + l.name + "'");
    tree.link_id[l.name] = static_cast<int>(tree.links.size());
    tree.links.push_back(std::move(l));
  }
  if (tree.links.empty()) c.fail(robot, "the robot has no <link>");
}

/// The joints, each linking two existing links; a link is the child of one joint at most.
inline void read_joints(const Context& c, const XMLElement* robot, Tree& tree) {
  for (const XMLElement* el = robot->FirstChildElement("joint"); el;
       el = el->NextSiblingElement("joint")) {
    Joint j = read_joint(c, el);
    if (tree.joint_id.count(j.name)) c.fail(el, "duplicate joint name '" + j.name + "'");
    const std::string who = "joint '" + j.name + "'";
    if (!tree.link_id.count(j.parent))
      c.fail(el, who + ": its parent link '" + j.parent + "' does not exist");
    if (!tree.link_id.count(j.child))
      c.fail(el, who + ": its child link '" + j.child + "' does not exist");
    if (j.parent == j.child)
      c.fail(el, who + ": link '" + j.child + "' is its own parent (a loop)");
    Link& child = tree.links[tree.link_id[j.child]];
    if (child.parent_joint >= 0)
      c.fail(el, who + ": link '" + j.child + "' is already the child of joint '" +
                     tree.joints[child.parent_joint].name +
                     "' (a link has one parent; closed loops are not supported)");
    child.parent_joint = static_cast<int>(tree.joints.size());
    tree.joint_id[j.name] = static_cast<int>(tree.joints.size());
    tree.joints.push_back(std::move(j));
  }
}

/// The one root link (no joint's child).
inline int find_root(const Context& c, const XMLElement* robot, const Tree& tree) {
  std::vector<int> roots;
  for (int l = 0; l < static_cast<int>(tree.links.size()); ++l)
    if (tree.links[l].parent_joint < 0) roots.push_back(l);
  if (roots.empty())
    c.fail(robot, "no root link: every link is the child of a joint, so the joints form a loop");
  if (roots.size() > 1) {
    std::string names;
    for (int l : roots) names += (names.empty() ? "'" : ", '") + tree.links[l].name + "'";
    c.fail(robot, "several root links (links that are no joint's child): " + names +
                      "; a robot must be one tree");
  }
  return roots[0];
}

/// Every link hangs from the root; else the joints form a loop.
inline void check_connected(const Context& c, const Tree& tree) {
  const std::vector<Link>& links = tree.links;
  std::vector<std::vector<int>> kids(links.size());
  for (const Joint& j : tree.joints)
    kids[tree.link_id.at(j.parent)].push_back(tree.link_id.at(j.child));
  std::vector<char> reached(links.size(), 0);
  std::vector<int> stack{tree.root};
  reached[tree.root] = 1;
  while (!stack.empty()) {
    const int l = stack.back();
    stack.pop_back();
    for (int k : kids[l])
      if (!reached[k]) {
        reached[k] = 1;
        stack.push_back(k);
      }
  }
  std::string names;
  const XMLElement* where = nullptr;
  for (int l = 0; l < static_cast<int>(links.size()); ++l)
    if (!reached[l]) {
      names += (names.empty() ? "'" : ", '") + links[l].name + "'";
      if (!where) where = tree.joints[links[l].parent_joint].el;
    }
  if (where)
    c.fail(where, "the joints form a loop: links " + names +
                      " are not connected to the root link '" + links[tree.root].name + "'");
}

/// Mimic relations: between movable joints.
inline void check_mimics(const Context& c, const Tree& tree) {
  for (const Joint& j : tree.joints) {
    if (!j.mimic) continue;
    const std::string who = "joint '" + j.name + "'";
    auto it = tree.joint_id.find(j.leader);
    if (it == tree.joint_id.end())
      c.fail(j.mimic, who + ": mimics an unknown joint '" + j.leader + "'");
    if (!tree.joints[it->second].movable())
      c.fail(j.mimic, who + ": mimics the fixed joint '" + j.leader + "'");
    if (j.leader == j.name) c.fail(j.mimic, who + ": mimics itself");
  }
}

/// Stage 2: the links and joints of the <robot>, checked to form one tree.
inline Tree read_tree(const Context& c, const Document& doc, InertiaPolicy policy) {
  Tree tree;
  read_links(c, doc.robot, policy, tree);
  read_joints(c, doc.robot, tree);
  tree.root = find_root(c, doc.robot, tree);
  check_connected(c, tree);
  check_mimics(c, tree);
  return tree;
}

/// A builder with the base (the root link), gravity and the links' diagnostics.
inline ModelBuilder<double> start_builder(const Context& c, const Tree& tree,
                                          const UrdfOptions& opt) {
  const Link& root = tree.links[tree.root];
  ModelBuilder<double> b(opt.weld_base ? BaseType::Welded : BaseType::Moving, root.name);
  // The inertias were checked as written (read_link); the builder checks again what can only go
  // wrong after the transforms (overflow) without re-reporting the file's deviations.
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  for (const Link& l : tree.links)
    for (const ModelDiagnostic& d : l.diagnostics) b.add_diagnostic(d);
  try {
    b.set_base_inertia(root.inertia);
  } catch (const ModelError& e) {
    c.fail(root.el, strip_prefix(e.what()));
  }
  try {
    b.set_gravity(opt.gravity);
    if (opt.weld_base) b.set_welded_base_pose(opt.welded_base_pose);
  } catch (const ModelError& e) {
    c.fail("options: " + strip_prefix(e.what()));
  }
  return b;
}

/// Stage 3: the model of the tree.
inline Model<double> build_model(const Context& c, const Tree& tree, const UrdfOptions& opt) {
  ModelBuilder<double> b = start_builder(c, tree, opt);
  // Document order of the joints; parents by name (a parent may come later in the file).
  for (const Joint& j : tree.joints) {
    const Link& child = tree.links[tree.link_id.at(j.child)];
    try {
      if (!j.movable()) {
        b.add_fixed_body(j.parent, j.child, j.origin, child.inertia);
        continue;
      }
      JointSpec<double> spec = joint_spec(j);
      spec.lower = j.lower;
      spec.upper = j.upper;
      spec.effort_limit = j.effort;
      spec.velocity_limit = j.velocity;
      b.add_body(j.parent, j.child, spec, child.inertia);
    } catch (const ModelError& e) {
      c.fail(j.el, strip_prefix(e.what()));
    }
  }
  try {
    for (const Joint& j : tree.joints)
      if (j.mimic) b.add_mimic(j.name, j.leader, j.multiplier, j.offset);
    return b.build();
  } catch (const ModelError& e) {
    c.fail(strip_prefix(e.what()));
  }
}

inline Model<double> parse(const std::string& xml, const Context& c, const UrdfOptions& opt) {
  const Document doc = read_document(c, xml);
  return build_model(c, read_tree(c, doc, opt.inertia), opt);
}

}  // namespace urdf
}  // namespace detail

/// Loads a robot from URDF text. Throws ModelError (what and where) on anything it cannot
/// represent exactly.
inline Model<double> load_urdf_string(const std::string& xml, const UrdfOptions& options = {}) {
  return detail::urdf::parse(xml, detail::urdf::Context{"liedyn: URDF: "}, options);
}

/// Loads a robot from a URDF file. Throws ModelError if the file can't be read or on anything
/// the loader cannot represent exactly (the message starts with the path).
inline Model<double> load_urdf_file(const std::string& path, const UrdfOptions& options = {}) {
  const detail::urdf::Context c{"liedyn: URDF: " + path + ": "};
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) c.fail(why);
  return detail::urdf::parse(text, c, options);
}

}  // namespace liedyn
