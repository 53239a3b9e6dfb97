// liedyn — model: the MJCF loader's second stage (mjcf.hpp): MuJoCo's bodies with their joints,
// sites and geoms, in their frames. Internal (detail::mjcf).
#pragma once

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "liedyn/model/mjcf/document.hpp"

namespace liedyn {
namespace detail {
namespace mjcf {

/// An element with the pose of its enclosing <frame>s in the body frame and its default class.
struct Item {
  const XMLElement* el;
  SE3<double> frame;
  std::string cls;
};

/// A joint of a body, in the body frame.
struct JointInfo {
  enum class Kind { Hinge, Slide, Ball };
  std::string name;
  const XMLElement* el = nullptr;
  Kind kind = Kind::Hinge;
  Vector3<double> pos = Vector3<double>::Zero(), axis = Vector3<double>::UnitZ();
  double ref = 0.0, armature = 0.0;
  double lower = -std::numeric_limits<double>::infinity(),
         upper = std::numeric_limits<double>::infinity();
};

struct SiteInfo {
  std::string name;
  SE3<double> placement;  // in the body frame
};

/// A body of MuJoCo's tree: its frame, joints and sites, and what its inertia comes from.
struct BodyInfo {
  std::string name;
  const XMLElement* el = nullptr;
  int parent = -1;
  SE3<double> pose;  // in the parent body's frame
  std::vector<JointInfo> joints;
  const XMLElement* free_joint = nullptr;
  std::string free_name;
  std::vector<SiteInfo> sites;
  const XMLElement* inertial = nullptr;
  std::vector<Item> geoms;
};

/// The elements directly in a body, <frame>s flattened (their poses composed).
inline void collect(const Document& doc, const XMLElement* el, const SE3<double>& frame,
                    const std::string& childclass, std::vector<Item>& out) {
  for (const XMLElement* c : children(doc, el)) {
    if (std::string(c->Name()) == "frame") {
      const std::string who = "<frame> " + element_name(c);
      const std::string cls = class_of(doc, c, childclass);
      collect(doc, c, frame * pose(doc, c, "", cls, who), childclass_of(doc, c, childclass), out);
      continue;
    }
    out.push_back(Item{c, frame, childclass});
  }
}

/// MuJoCo's bodies, in its order (body ids: the world is body 0, then depth first).
struct Tree {
  std::vector<BodyInfo> bodies;
};

/// The tree while it is read, with the names taken so far (duplicates are errors) and the
/// number of joints read (an unnamed joint is named after its MuJoCo id).
struct TreeReading {
  Tree tree;
  std::set<std::string> body_names, joint_names;
  int joint_count = 0;
};

/// Which element a joint is: <joint> (of a type) or <freejoint>.
enum class JointElement { joint, freejoint };

inline void read_joint(const Document& doc, TreeReading& reading, const Item& it, int body,
                       JointElement element) {
  const bool freejoint = element == JointElement::freejoint;
  const XMLElement* el = it.el;
  const std::string cls = freejoint ? it.cls : class_of(doc, el, it.cls);
  const int id = reading.joint_count++;
  const char* n = el->Attribute("name");
  const std::string name = n && *n ? n : "joint" + std::to_string(id);
  const std::string who = "joint '" + name + "' (body '" + reading.tree.bodies[body].name + "')";
  if (reading.joint_names.count(name)) fail(doc, el, "duplicate joint name '" + name + "'");
  reading.joint_names.insert(name);
  std::string type = "free";
  if (!freejoint) {
    const Attr t = get(doc, el, "joint", cls, "type");
    type = t ? keyword(doc, t, who, "type", {"hinge", "slide", "ball", "free"}) : "hinge";
  }
  BodyInfo& b = reading.tree.bodies[body];
  if (type == "free") {
    if (b.parent != 0)
      fail(doc, el,
           who +
               ": a free joint below the root is not supported yet (only a body of "
               "<worldbody> may be free: the moving base)");
    if (!b.joints.empty() || b.free_joint)
      fail(doc, el, who + ": a free joint with other joints in the same body");
    if (const char* a = el->Attribute("align"))
      if (std::string(a) == "true")
        fail(doc, el, who + ": align='true' is not supported (the base frame is the body frame)");
    b.free_joint = el;
    b.free_name = name;
    return;
  }
  if (b.free_joint) fail(doc, el, who + ": a free joint with other joints in the same body");
  JointInfo j;
  j.name = name;
  j.el = el;
  j.kind = type == "slide"  ? JointInfo::Kind::Slide
           : type == "ball" ? JointInfo::Kind::Ball
                            : JointInfo::Kind::Hinge;
  j.pos = it.frame.act_point(read3(doc, el, "joint", cls, "pos", Vector3<double>::Zero(), who));
  j.armature = read1(doc, el, "joint", cls, "armature", 0.0, who);
  if (j.armature < 0.0) fail(doc, el, who + ": negative armature");
  if (j.kind == JointInfo::Kind::Ball) {  // no axis; ref and range not kept (header comment)
    b.joints.push_back(j);
    return;
  }
  const Vector3<double> axis = read3(doc, el, "joint", cls, "axis", Vector3<double>::UnitZ(), who);
  if (!(axis.norm() > kMinVal)) fail(doc, el, who + ": zero axis");
  j.axis = it.frame.rotation() * axis.normalized();
  const double unit = j.kind == JointInfo::Kind::Slide ? 1.0 : angle(doc, 1.0);
  j.ref = read1(doc, el, "joint", cls, "ref", 0.0, who) * unit;
  double range[2] = {0.0, 0.0};
  const bool has_range = read(doc, el, "joint", cls, "range", 2, range, who);
  bool limited = false;
  if (const Attr l = get(doc, el, "joint", cls, "limited")) {
    const std::string k = keyword(doc, l, who, "limited", {"true", "false", "auto"});
    limited = k == "true" || (k == "auto" && doc.compiler.autolimits && has_range);
  } else {
    limited = doc.compiler.autolimits && has_range;
  }
  if (limited) {
    if (range[0] > range[1]) fail(doc, el, who + ": range lower limit above the upper limit");
    j.lower = range[0] * unit - j.ref;
    j.upper = range[1] * unit - j.ref;
  }
  b.joints.push_back(j);
}

inline void read_site(const Document& doc, Tree& tree, const Item& it, int body) {
  const std::string cls = class_of(doc, it.el, it.cls);
  const char* n = it.el->Attribute("name");
  if (!n || !*n) return;  // an unnamed site cannot be asked for
  const std::string who = "site '" + std::string(n) + "'";
  tree.bodies[body].sites.push_back(SiteInfo{n, it.frame * pose(doc, it.el, "site", cls, who)});
}

inline void read_body(const Document& doc, TreeReading& reading, const XMLElement* el, int parent,
                      const SE3<double>& frame, const std::string& childclass) {
  std::vector<BodyInfo>& bodies = reading.tree.bodies;
  const int id = static_cast<int>(bodies.size());
  BodyInfo b;
  b.el = el;
  b.parent = parent;
  const char* n = el->Attribute("name");
  b.name = n && *n ? n : "body" + std::to_string(id);
  const std::string who = "body '" + b.name + "'";
  if (parent >= 0) {
    if (reading.body_names.count(b.name)) fail(doc, el, "duplicate body name '" + b.name + "'");
    b.pose = frame * pose(doc, el, "", "", who);
  }
  reading.body_names.insert(b.name);
  const std::string cc = childclass_of(doc, el, childclass);
  std::vector<Item> items;
  collect(doc, el, SE3<double>(), cc, items);
  bodies.push_back(b);

  const XMLElement* inertial = nullptr;
  std::vector<Item> geoms;
  for (const Item& it : items) {
    const std::string kind = it.el->Name();
    if (kind == "joint" || kind == "freejoint") {
      if (parent < 0) fail(doc, it.el, "a joint in <worldbody> itself (joints belong to bodies)");
      read_joint(doc, reading, it, id,
                 kind == "freejoint" ? JointElement::freejoint : JointElement::joint);
    } else if (kind == "inertial") {
      if (parent < 0) fail(doc, it.el, "an <inertial> in <worldbody> (the world has no inertia)");
      if (inertial) fail(doc, it.el, who + ": more than one <inertial>");
      inertial = it.el;
      if (!(it.frame.translation().isZero() && it.frame.rotation().isIdentity()))
        fail(doc, it.el, who + ": an <inertial> inside a <frame> is not supported");
    } else if (kind == "geom") {
      geoms.push_back(it);
    } else if (kind == "site") {
      read_site(doc, reading.tree, it, id);
    } else if (kind == "composite" || kind == "flexcomp" || kind == "replicate" ||
               kind == "attach" || kind == "plugin") {
      fail(doc, it.el, "<" + kind + "> in " + who + " is not supported");
    } else if (kind != "body" && kind != "camera" && kind != "light") {
      fail(doc, it.el, "unknown element <" + kind + "> in " + who);
    }
  }
  // Inertias are computed once the whole tree is read (body_inertias), so that an unsupported joint
  // is reported before a geom's inertia.
  bodies[id].inertial = inertial;
  bodies[id].geoms = geoms;
  for (const Item& it : items)
    if (std::string(it.el->Name()) == "body") read_body(doc, reading, it.el, id, it.frame, it.cls);
}

/// Stage 2: the bodies of all <worldbody> elements (MuJoCo merges them into one world body).
inline Tree read_tree(const Document& doc) {
  TreeReading reading;
  BodyInfo world;
  world.name = "world";
  world.el = doc.worldbodies.front();
  reading.tree.bodies.push_back(world);
  reading.body_names.insert("world");
  std::vector<Item> items;
  for (const XMLElement* w : doc.worldbodies) collect(doc, w, SE3<double>(), "main", items);
  for (const Item& it : items) {
    const std::string kind = it.el->Name();
    if (kind == "body") read_body(doc, reading, it.el, 0, it.frame, it.cls);
    else if (kind == "site") read_site(doc, reading.tree, it, 0);
    else if (kind == "geom") reading.tree.bodies[0].geoms.push_back(it);
    else if (kind == "joint" || kind == "freejoint" || kind == "inertial")
      fail(doc, it.el, "<" + kind + "> directly in <worldbody>");
    else if (kind != "camera" && kind != "light")
      fail(doc, it.el, "<" + kind + "> in <worldbody> is not supported");
  }
  return reading.tree;
}

/// The pose of MuJoCo body i in the world at qpos0.
inline SE3<double> world_pose(const Tree& tree, int i) {
  SE3<double> H;
  for (; i > 0; i = tree.bodies[i].parent) H = tree.bodies[i].pose * H;
  return H;
}

}  // namespace mjcf
}  // namespace detail
}  // namespace liedyn
