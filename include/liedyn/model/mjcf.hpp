// liedyn — model: an MJCF (MuJoCo XML) loader (optional; needs tinyxml2 and liedyn::urdf, the
// CMake target of the XML loaders).
//   liedyn::Model<double> m = liedyn::load_mjcf_file("go2.xml");
//
// What MuJoCo's compiler makes of a file is the reference (MuJoCo XML reference, "Modeling" and
// "XML Reference" chapters); docs/loading.md lists what is read and docs/interop.md the state
// conversion. In short:
// * The tree: bodies with hinge, slide and ball joints. A body with a free joint (<freejoint/> or
//   <joint type="free">) must be a child of <worldbody>; it becomes the moving base, whose frame
//   is MuJoCo's body frame (qpos = [p; quaternion w-first] is its pose). Without one, the base is
//   welded: the single child body of <worldbody> when it has no joint (welded at its pose), else
//   a base named "world" at the identity. Bodies without joints are fixed bodies, merged into
//   their parent and kept as frames.
// * Frames: a liedyn joint frame sits at the joint's anchor (MuJoCo's joint `pos`), with the
//   body's orientation, so the joint axis is MuJoCo's `axis` as written (normalized). The liedyn
//   body of a MuJoCo body b with joints j1 … jk: one body per joint, chained; the last carries
//   b's inertia and is named b when jk's anchor is b's origin, else "b/jk" with a frame named b
//   at MuJoCo's body frame. The others are massless, named "b/ji". Named sites are frames.
//   Unnamed bodies are "body<id>", unnamed joints "joint<id>" (MuJoCo's ids, world = body 0).
// * Joint positions: s = qpos − ref (MuJoCo's qpos0 is ref) for hinge and slide joints;
//   a ball joint is a spherical joint at its anchor, in the body's orientation, whose quaternion
//   is MuJoCo's (w last in liedyn, w first in MuJoCo; its ref and its range, a cone, are not
//   kept: liedyn's joint limits are per coordinate). Limits = range − ref when the
//   joint is limited (limited="true", or "auto" with <compiler autolimits="true"> and a range).
//   Hinge angles (range, ref), euler and axisangle are in degrees unless <compiler
//   angle="radian">. armature is kept.
// * Inertia: <inertial pos orientation mass diaginertia|fullinertia>; without it, from the
//   primitive geoms (sphere, capsule, cylinder, box, ellipsoid; mass or density, size or fromto)
//   and the mesh geoms whose <mesh> is given inline (vertex, face; scale; inertia legacy, exact
//   or convex: mesh_inertia.hpp) when <compiler inertiafromgeom> is auto (the default) or true,
//   with MuJoCo's formulas; boundmass, boundinertia and balanceinertia as MuJoCo applies them.
//   A mesh from a file (or another non-primitive geom) needed for a body's inertia is an error
//   naming the body.
// * <default> classes (nested), class= and childclass=, <frame>, <include file=> (relative to
//   the main file's folder; cycles are errors), every orientation form (quat, axisangle, euler
//   with eulerseq, xyaxes, zaxis), <option gravity> and <flag gravity="disable">.
// * Not part of a rigid-body tree, ignored as a URDF's <dynamics> is: geoms (except for
//   inertia), actuators, sensors, contacts, keyframes, assets (but inline meshes), visual
//   settings, joint damping, stiffness, frictionloss and springref, body gravcomp. The world's
//   static children in a moving-base model are dropped with a diagnostic (they move nothing).
// * Unsupported, always an error naming the element and line: free joints below the root,
//   several free bodies or kinematic trees, <composite>, <flexcomp>, <replicate>, <attach>,
//   compiler settings that change the model in ways not reproduced (settotalmass,
//   alignfree, coordinate="global"), shellinertia. <tendon> constraints are errors too, unless
//   MjcfOptions::unsupported is skip: then each is one diagnostic; so are <equality> constraints
//   for load_mjcf_file. load_mjcf_robot_file converts them into a ConstraintSet (connect: ball
//   loop, weld: rigid loop, or a contact when a side is fixed to the world of a moving-base
//   model; joint with a linear polynomial: coupling; frames, senses and the
//   conversion of MuJoCo's efc rows in docs/loading.md, "Equality constraints").
//
// Numbers are parsed as strictly as in urdf.hpp (decimal text, exact counts, finite). Every error
// is one ModelError line "liedyn: MJCF: [file: ]line N: what" that names the element.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "liedyn/model/builder.hpp"
#include "liedyn/model/constraint.hpp"
#include "liedyn/model/mesh_inertia.hpp"
#include "liedyn/model/xml_common.hpp"

namespace liedyn {

/// What load_mjcf_* do with an element they cannot represent but that leaves the kinematic tree
/// intact (<equality>, <tendon>): error (the default) or skip it with a diagnostic.
enum class UnsupportedElements { error, skip };

/// Options of load_mjcf_string and load_mjcf_file.
struct MjcfOptions {
  /// Physical gravity in the inertial frame; when empty, the file's <option gravity> (MuJoCo's
  /// default (0, 0, −9.81); zero with <flag gravity="disable">).
  std::optional<Vector3<double>> gravity;
  /// What to do with body inertias a rigid body cannot have (InertiaPolicy, docs/loading.md).
  InertiaPolicy inertia = InertiaPolicy::lenient;
  /// <equality> and <tendon>: an error, or skipped with a diagnostic each.
  UnsupportedElements unsupported = UnsupportedElements::error;
};

/// A robot loaded from MJCF with what MuJoCo adds to its kinematic tree (load_mjcf_robot_file):
/// the <equality> constraints and the joints' reference positions.
struct MjcfRobot {
  /// The tree, as load_mjcf_file gives it, plus the frames "NAME/1" and "NAME/2" of each
  /// body-based connect and weld named NAME ("equality<k>" when unnamed, k its index in MuJoCo).
  Model<double> model;
  /// The <equality> elements in file order (docs/loading.md, "Equality constraints"): connect a
  /// BallLoop, weld a RigidLoop (a BallLoop with torquescale 0), both in mixed sense with frame 1
  /// on MuJoCo's body1 (site1) side, or a PointContact, RigidContact on the other side's frame
  /// when a side is fixed to the world of a moving-base model; joint with a linear polycoef a
  /// Coupling.
  std::vector<ConstraintSpec<double>> equality;
  /// `equality` resolved against `model`: rows stacked in file order.
  ConstraintSet<double> constraints;
  /// MuJoCo's qpos0 of the joints, in liedyn's configuration order (model.nq_joints(), joint i's
  /// from q_index(i)): a hinge's or slide's ref (s = qpos − qpos0), a ball joint's identity
  /// quaternion w first (1, 0, 0, 0), as MuJoCo writes it (interop/mujoco.hpp converts states).
  VectorX<double> qpos0;
};

namespace detail {
namespace mjcf {

using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using xml::quote;
using xml::strip_prefix;

constexpr double kPi = 3.14159265358979323846;
// MuJoCo's mjMINVAL: masses and moments below it count as zero.
constexpr double kMinVal = 1e-15;

/// One attribute value with the element it came from (the element itself or a <default>).
struct Attr {
  const char* text = nullptr;
  const XMLElement* where = nullptr;
  explicit operator bool() const { return text != nullptr; }
};

/// A default class: attributes per element kind ("joint", "geom", "site").
struct DefaultClass {
  std::map<std::string, std::map<std::string, Attr>> kinds;
};

struct Compiler {
  bool degree = true;
  std::string eulerseq = "xyz";
  bool autolimits = true;
  int inertia_from_geom = 2;  // 0 false, 1 true, 2 auto
  double boundmass = 0.0, boundinertia = 0.0;
  bool balanceinertia = false;
  int group_lo = 0, group_hi = 5;
};

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

// The loader is a pipeline of stages, each a function of the previous stages' values:
//   read_document → Document (the XML with its includes, compiler settings, defaults, option)
//   read_tree     → Tree     (bodies, joints, sites and geoms with their frames)
//   body_inertias → Inertias (per body, with the inertia policy's diagnostics)
//   assemble      → Assembly (the liedyn bodies, joints and frames, before ModelBuilder::build)
//   convert_equality → Equality (the <equality> constraints and the frames they add)
// The tree is read whole before any inertia is computed, so that an unsupported joint is
// reported before a geom's inertia; the equality constraints come last, as they name bodies,
// sites and joints of the finished tree.

// ---- stage 1: the document ---------------------------------------------------------------

/// The parsed files (the main one and its includes) and what the later stages read from them.
struct Document {
  std::string main_path;  // empty for text; names the file in messages
  std::vector<std::pair<std::unique_ptr<XMLDocument>, std::string>> files;  // with their paths
  std::map<const XMLElement*, const XMLElement*> included;  // <include> → the included root
  std::map<std::string, DefaultClass> classes;
  Compiler compiler;
  Vector3<double> gravity{0.0, 0.0, -9.81};
  bool gravity_disabled = false;
  std::vector<const XMLElement*> worldbodies;
  std::vector<const XMLElement*> tendon_sections;
  std::vector<const XMLElement*> equality_sections;
  std::map<std::string, const XMLElement*> meshes;  // <asset><mesh> by name
};

[[noreturn]] inline void fail(const std::string& main_path, const std::string& msg) {
  throw ModelError("liedyn: MJCF: " + (main_path.empty() ? "" : main_path + ": ") + msg);
}
[[noreturn]] inline void fail(const Document& doc, const std::string& msg) {
  fail(doc.main_path, msg);
}

/// "file: line N: " of an element (no file for the main text when it was given as a string).
inline std::string where(const Document& doc, const XMLElement* el) {
  std::string file;
  for (const auto& d : doc.files)
    if (d.first.get() == el->GetDocument()) file = d.second;
  if (!file.empty()) file += ": ";
  return file + "line " + std::to_string(el->GetLineNum()) + ": ";
}

[[noreturn]] inline void fail(const Document& doc, const XMLElement* el, const std::string& msg) {
  throw ModelError("liedyn: MJCF: " + where(doc, el) + msg);
}

/// The child elements of `el`, each <include> replaced by the included root's children.
inline std::vector<const XMLElement*> children(const Document& doc, const XMLElement* el) {
  std::vector<const XMLElement*> out;
  for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
    auto it = doc.included.find(c);
    if (it == doc.included.end()) {
      out.push_back(c);
      continue;
    }
    const std::vector<const XMLElement*> sub = children(doc, it->second);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

// ---- attributes --------------------------------------------------------------------------
inline std::string name_attr(const Document& doc, const XMLElement* el, const char* attr,
                             const std::string& who) {
  const char* text = el->Attribute(attr);
  if (!text) fail(doc, el, who + ": no attribute '" + attr + "'");
  if (!*text) fail(doc, el, who + ": attribute '" + attr + "' is empty");
  return text;
}

/// The attribute `attr` of `el` (of kind "joint", "geom", "site"; "" for no defaults), else
/// from default class `cls`.
inline Attr get(const Document& doc, const XMLElement* el, const char* kind, const std::string& cls,
                const char* attr) {
  if (const char* t = el->Attribute(attr)) return Attr{t, el};
  if (!*kind) return Attr{};
  const auto c = doc.classes.find(cls);
  if (c == doc.classes.end()) return Attr{};
  const auto k = c->second.kinds.find(kind);
  if (k == c->second.kinds.end()) return Attr{};
  const auto a = k->second.find(attr);
  return a == k->second.end() ? Attr{} : a->second;
}

inline void numbers(const Document& doc, const Attr& a, const std::string& who, const char* attr,
                    int n, double* out) {
  std::string why;
  if (!xml::parse_numbers(a.text, n, out, why))
    fail(doc, a.where, who + ": attribute '" + attr + "': " + why);
}
inline bool read(const Document& doc, const XMLElement* el, const char* kind,
                 const std::string& cls, const char* attr, int n, double* out,
                 const std::string& who) {
  const Attr a = get(doc, el, kind, cls, attr);
  if (!a) return false;
  numbers(doc, a, who, attr, n, out);
  return true;
}
inline Vector3<double> read3(const Document& doc, const XMLElement* el, const char* kind,
                             const std::string& cls, const char* attr,
                             const Vector3<double>& fallback, const std::string& who) {
  double v[3];
  if (!read(doc, el, kind, cls, attr, 3, v, who)) return fallback;
  return Vector3<double>(v[0], v[1], v[2]);
}
inline double read1(const Document& doc, const XMLElement* el, const char* kind,
                    const std::string& cls, const char* attr, double fallback,
                    const std::string& who) {
  double v = fallback;
  read(doc, el, kind, cls, attr, 1, &v, who);
  return v;
}
inline bool read_bool(const Document& doc, const Attr& a, const std::string& who,
                      const char* attr) {
  const std::string t = a.text;
  if (t == "true") return true;
  if (t == "false") return false;
  fail(doc, a.where,
       who + ": attribute '" + attr + "': " + quote(a.text) + " is not true or false");
}
inline std::string keyword(const Document& doc, const Attr& a, const std::string& who,
                           const char* attr, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* k : allowed) {
    if (a.text == std::string(k)) return k;
    list += (list.empty() ? "" : ", ") + std::string(k);
  }
  fail(doc, a.where,
       who + ": attribute '" + attr + "': " + quote(a.text) + " is not one of " + list);
}
inline std::vector<double> number_list(const Document& doc, const Attr& a, const std::string& who,
                                       const char* attr) {
  std::vector<double> out(static_cast<std::size_t>(xml::count_tokens(a.text)));
  if (!out.empty()) numbers(doc, a, who, attr, static_cast<int>(out.size()), out.data());
  return out;
}
inline double angle(const Document& doc, double v) {
  return doc.compiler.degree ? v * kPi / 180.0 : v;
}

inline Matrix3<double> axis_rotation(const Vector3<double>& unit_axis, double theta) {
  return Eigen::AngleAxisd(theta, unit_axis).toRotationMatrix();
}
/// The rotation taking e_z to z by the smallest angle (about e_x when z = −e_z), as MuJoCo.
inline Matrix3<double> z_rotation(const Vector3<double>& z) {
  Vector3<double> axis = Vector3<double>::UnitZ().cross(z);
  const double s = axis.norm();
  if (s < 1e-10) axis = Vector3<double>::UnitX();
  else axis /= s;
  return axis_rotation(axis, std::atan2(s, z.z()));
}

/// The rotation of an element from its one orientation attribute (identity when none).
inline Matrix3<double> orientation(const Document& doc, const XMLElement* el, const char* kind,
                                   const std::string& cls, const std::string& who) {
  static const char* const forms[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  // The element's own form wins over a default's (MuJoCo keeps one orientation per element).
  const XMLElement* src = nullptr;
  int form = -1, count = 0;
  for (int k = 0; k < 5; ++k)
    if (el->Attribute(forms[k])) {
      ++count;
      form = k;
    }
  if (count > 1) fail(doc, el, who + ": more than one orientation (quat, axisangle, euler, ...)");
  if (count == 1) src = el;
  if (!src)
    for (int k = 0; k < 5 && !src; ++k)
      if (get(doc, el, kind, cls, forms[k])) {
        form = k;
        src = get(doc, el, kind, cls, forms[k]).where;
      }
  if (!src) return Matrix3<double>::Identity();
  const Attr a = get(doc, el, kind, cls, forms[form]);
  double v[6];
  switch (form) {
    case 0: {
      numbers(doc, a, who, "quat", 4, v);
      const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
      if (!(n > kMinVal)) fail(doc, a.where, who + ": attribute 'quat': zero quaternion");
      return Eigen::Quaterniond(v[0] / n, v[1] / n, v[2] / n, v[3] / n).toRotationMatrix();
    }
    case 1: {
      numbers(doc, a, who, "axisangle", 4, v);
      const Vector3<double> axis(v[0], v[1], v[2]);
      if (!(axis.norm() > kMinVal)) fail(doc, a.where, who + ": attribute 'axisangle': zero axis");
      return axis_rotation(axis.normalized(), angle(doc, v[3]));
    }
    case 2: {
      numbers(doc, a, who, "euler", 3, v);
      Matrix3<double> R = Matrix3<double>::Identity();
      for (int i = 0; i < 3; ++i) {
        const char c = doc.compiler.eulerseq[i];
        const int k = std::tolower(c) - 'x';
        const Matrix3<double> Ri = axis_rotation(Vector3<double>::Unit(k), angle(doc, v[i]));
        // Lower case: rotating (intrinsic) axes; upper case: fixed (extrinsic) axes.
        R = std::islower(c) ? Matrix3<double>(R * Ri) : Matrix3<double>(Ri * R);
      }
      return R;
    }
    case 3: {
      numbers(doc, a, who, "xyaxes", 6, v);
      Vector3<double> x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
      if (!(x.norm() > kMinVal)) fail(doc, a.where, who + ": attribute 'xyaxes': zero x axis");
      x.normalize();
      y -= x * x.dot(y);
      if (!(y.norm() > kMinVal))
        fail(doc, a.where, who + ": attribute 'xyaxes': y axis parallel to the x axis");
      y.normalize();
      Matrix3<double> R;
      R << x, y, x.cross(y);
      return R;
    }
    default: {
      numbers(doc, a, who, "zaxis", 3, v);
      const Vector3<double> z(v[0], v[1], v[2]);
      if (!(z.norm() > kMinVal)) fail(doc, a.where, who + ": attribute 'zaxis': zero axis");
      return z_rotation(z.normalized());
    }
  }
}

inline SE3<double> pose(const Document& doc, const XMLElement* el, const char* kind,
                        const std::string& cls, const std::string& who) {
  return SE3<double>(orientation(doc, el, kind, cls, who),
                     read3(doc, el, kind, cls, "pos", Vector3<double>::Zero(), who));
}

inline std::string element_name(const XMLElement* el) {
  const char* n = el->Attribute("name");
  return n ? "'" + std::string(n) + "' " : std::string();
}

inline std::string class_of(const Document& doc, const XMLElement* el,
                            const std::string& inherited) {
  const char* c = el->Attribute("class");
  if (!c) return inherited;
  if (!doc.classes.count(c))
    fail(
        doc, el,
        "<" + std::string(el->Name()) + "> " + element_name(el) + "uses unknown class '" + c + "'");
  return c;
}
inline std::string childclass_of(const Document& doc, const XMLElement* el,
                                 const std::string& inherited) {
  const char* c = el->Attribute("childclass");
  if (!c) return inherited;
  if (!doc.classes.count(c))
    fail(doc, el,
         "<" + std::string(el->Name()) + "> " + element_name(el) + "uses unknown childclass '" + c +
             "'");
  return c;
}

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

/// Parses one file's text into `doc` (`from`: the <include> that names it, null for the main
/// file).
inline const XMLDocument& parse_file(Document& doc, const std::string& text,
                                     const std::string& path, const XMLElement* from) {
  auto file = std::make_unique<XMLDocument>();
  if (file->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    const char* err = file->ErrorStr();
    const std::string what = std::string("XML parse error: ") + (err ? err : "unknown error");
    if (from)
      fail(doc, from, "<include file='" + std::string(from->Attribute("file")) + "'>: " + what);
    fail(doc, what);
  }
  doc.files.emplace_back(std::move(file), path);
  return *doc.files.back().first;
}

inline std::string folder(const Document& doc) {
  if (doc.main_path.empty()) return std::string();
  return std::filesystem::path(doc.main_path).parent_path().string();
}

/// Parses the files that `el`'s <include>s name, recursively; `stack` holds the files being
/// included (canonical paths), for cycles.
inline void load_includes(Document& doc, const XMLElement* el, std::vector<std::string>& stack) {
  for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string(c->Name()) != "include") {
      load_includes(doc, c, stack);
      continue;
    }
    const std::string file = name_attr(doc, c, "file", "<include>");
    std::filesystem::path p(file);
    if (p.is_relative() && !folder(doc).empty()) p = std::filesystem::path(folder(doc)) / p;
    std::error_code ec;
    const std::filesystem::path canon = std::filesystem::weakly_canonical(p, ec);
    const std::string key = ec ? p.string() : canon.string();
    if (std::find(stack.begin(), stack.end(), key) != stack.end())
      fail(doc, c, "<include file='" + file + "'>: cyclic include (the file includes itself)");
    if (stack.size() > 32)
      fail(doc, c, "<include file='" + file + "'>: includes nested too deeply");
    std::string text;
    if (const char* why = xml::read_file(p.string(), text))
      fail(doc, c, "<include file='" + file + "'>: " + why + " '" + p.string() + "'");
    const XMLDocument& included = parse_file(doc, text, p.string(), c);
    const XMLElement* root = included.RootElement();
    if (!root) fail(doc, c, "<include file='" + file + "'>: the file has no root element");
    doc.included[c] = root;
    stack.push_back(key);
    load_includes(doc, root, stack);
    stack.pop_back();
  }
}

inline void read_compiler(Document& doc, const XMLElement* el) {
  const std::string who = "<compiler>";
  if (Attr a{el->Attribute("angle"), el})
    doc.compiler.degree = keyword(doc, a, who, "angle", {"degree", "radian"}) == "degree";
  if (Attr a{el->Attribute("eulerseq"), el}) {
    const std::string s = a.text;
    bool ok = s.size() == 3;
    for (char c : s) ok = ok && std::string("xyzXYZ").find(c) != std::string::npos;
    if (!ok)
      fail(doc, el, who + ": attribute 'eulerseq': " + quote(a.text) + " is not 3 of xyzXYZ");
    doc.compiler.eulerseq = s;
  }
  if (Attr a{el->Attribute("autolimits"), el})
    doc.compiler.autolimits = read_bool(doc, a, who, "autolimits");
  if (Attr a{el->Attribute("inertiafromgeom"), el}) {
    const std::string k = keyword(doc, a, who, "inertiafromgeom", {"false", "true", "auto"});
    doc.compiler.inertia_from_geom = k == "false" ? 0 : k == "true" ? 1 : 2;
  }
  if (Attr a{el->Attribute("balanceinertia"), el})
    doc.compiler.balanceinertia = read_bool(doc, a, who, "balanceinertia");
  doc.compiler.boundmass = read1(doc, el, "", "", "boundmass", doc.compiler.boundmass, who);
  doc.compiler.boundinertia =
      read1(doc, el, "", "", "boundinertia", doc.compiler.boundinertia, who);
  double g[2];
  if (read(doc, el, "", "", "inertiagrouprange", 2, g, who)) {
    doc.compiler.group_lo = static_cast<int>(g[0]);
    doc.compiler.group_hi = static_cast<int>(g[1]);
  }
  if (read1(doc, el, "", "", "settotalmass", -1.0, who) > 0.0)
    fail(doc, el, who + ": settotalmass is not supported (scale the masses in the file)");
  if (Attr a{el->Attribute("coordinate"), el})
    if (std::string(a.text) != "local")
      fail(doc, el, who + ": coordinate='global' is not supported");
  if (Attr a{el->Attribute("alignfree"), el})
    if (read_bool(doc, a, who, "alignfree"))
      fail(doc, el, who + ": alignfree='true' is not supported (the base frame is the body frame)");
}

inline void read_option(Document& doc, const XMLElement* el) {
  doc.gravity = read3(doc, el, "", "", "gravity", doc.gravity, "<option>");
  for (const XMLElement* c : children(doc, el))
    if (std::string(c->Name()) == "flag")
      if (Attr a{c->Attribute("gravity"), c})
        if (keyword(doc, a, "<option><flag>", "gravity", {"enable", "disable"}) == "disable")
          doc.gravity_disabled = true;
}

/// The <mesh> assets by name (a mesh's name defaults to its file's, without folder and
/// extension, as in MuJoCo); the rest of <asset> is visual.
inline void read_assets(Document& doc, const XMLElement* el) {
  for (const XMLElement* c : children(doc, el)) {
    if (std::string(c->Name()) != "mesh") continue;
    std::string name = c->Attribute("name") ? c->Attribute("name") : "";
    if (name.empty() && c->Attribute("file"))
      name = std::filesystem::path(c->Attribute("file")).stem().string();
    if (name.empty()) fail(doc, c, "<mesh>: no 'name' and no 'file'");
    if (!doc.meshes.emplace(name, c).second) fail(doc, c, "duplicate mesh name '" + name + "'");
  }
}

/// A <default> class and those nested in it; `parent` is empty for a top-level <default>.
inline void read_default(Document& doc, const XMLElement* el, const std::string& parent) {
  const bool top = parent.empty();
  std::string name = "main";
  if (const char* c = el->Attribute("class")) name = c;
  else if (!top) fail(doc, el, "<default>: a nested <default> needs a 'class'");
  if (name.empty()) fail(doc, el, "<default>: attribute 'class' is empty");
  if (!(top && name == "main")) {
    if (doc.classes.count(name)) fail(doc, el, "<default>: duplicate class '" + name + "'");
    doc.classes[name] = doc.classes[parent.empty() ? "main" : parent];
  }
  DefaultClass& dc = doc.classes[name];
  for (const XMLElement* c : children(doc, el)) {
    const std::string kind = c->Name();
    if (kind == "default") continue;
    if (kind != "joint" && kind != "geom" && kind != "site" && kind != "equality" && kind != "mesh")
      continue;  // not for dynamics
    auto& attrs = dc.kinds[kind];
    // An orientation written here replaces an inherited one of another form.
    static const char* const forms[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    bool own_form = false;
    for (const char* f : forms) own_form = own_form || c->Attribute(f);
    if (own_form)
      for (const char* f : forms) attrs.erase(f);
    for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next())
      attrs[a->Name()] = Attr{a->Value(), c};
  }
  for (const XMLElement* c : children(doc, el))
    if (std::string(c->Name()) == "default") read_default(doc, c, name);
}
inline void read_sections(Document& doc, const XMLElement* root) {
  const std::vector<const XMLElement*> top = children(doc, root);
  for (const XMLElement* el : top)
    if (std::string(el->Name()) == "compiler") read_compiler(doc, el);
  doc.classes["main"];
  for (const XMLElement* el : top)
    if (std::string(el->Name()) == "default") read_default(doc, el, "");
  for (const XMLElement* el : top) {
    const std::string n = el->Name();
    if (n == "option") read_option(doc, el);
    else if (n == "worldbody") doc.worldbodies.push_back(el);
    else if (n == "equality") doc.equality_sections.push_back(el);
    else if (n == "tendon") doc.tendon_sections.push_back(el);
    else if (n == "asset") read_assets(doc, el);
    else if (n == "deformable") fail(doc, el, "<" + n + "> is not supported");
    else if (n != "compiler" && n != "default" && n != "size" && n != "visual" &&
             n != "statistic" && n != "custom" && n != "extension" && n != "contact" &&
             n != "actuator" && n != "sensor" && n != "keyframe")
      fail(doc, el, "unknown element <" + n + "> in <mujoco>");
  }
  if (doc.worldbodies.empty()) fail(doc, root, "no <worldbody>");
}

/// Stage 1: the main file's text (`main_path` empty when it is a string) with its includes.
inline Document read_document(const std::string& main_path, const std::string& text) {
  Document doc;
  doc.main_path = main_path;
  const XMLElement* root = parse_file(doc, text, main_path, nullptr).RootElement();
  if (!root) fail(doc, "the document has no root element");
  if (std::string(root->Name()) != "mujoco")
    fail(doc, root, "the root element is <" + std::string(root->Name()) + ">, expected <mujoco>");
  std::error_code ec;
  const std::filesystem::path canon = std::filesystem::weakly_canonical(main_path, ec);
  std::vector<std::string> stack{ec ? main_path : canon.string()};
  load_includes(doc, root, stack);
  read_sections(doc, root);
  return doc;
}

// ---- stage 2: the tree ------------------------------------------------------------------

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

// ---- sections liedyn does not convert ----------------------------------------------------

/// What a loader makes of <equality>: MjcfRobot's constraints (load_mjcf_robot_*), or elements
/// it cannot represent (load_mjcf_*).
enum class EqualityUse { converted, unsupported };

/// An element liedyn cannot represent: an error, or under UnsupportedElements::skip the
/// diagnostic that says it was skipped.
inline ModelDiagnostic unsupported(const Document& doc, const MjcfOptions& opt,
                                   const XMLElement* el, const std::string& what) {
  if (opt.unsupported == UnsupportedElements::error)
    fail(doc, el, what + " (MjcfOptions::unsupported = skip loads the model without it)");
  return ModelDiagnostic{"", DiagnosticKind::ignored_element, where(doc, el) + what + "; skipped",
                         0.0};
}

/// The <tendon> elements, and the <equality> ones a loader does not convert, each skipped with
/// a diagnostic (or an error). After the tree, so that an error in the tree is reported first.
inline std::vector<ModelDiagnostic> skip_sections(const Document& doc, const MjcfOptions& opt,
                                                  EqualityUse equality) {
  std::vector<ModelDiagnostic> skipped;
  for (const XMLElement* el : doc.tendon_sections) {
    const std::string n = el->Name();
    for (const XMLElement* c : children(doc, el))
      skipped.push_back(unsupported(doc, opt, c,
                                    "<" + n + "><" + c->Name() + "> " + element_name(c) +
                                        "is not supported yet (liedyn has no tendons)"));
  }
  if (equality == EqualityUse::unsupported)
    for (const XMLElement* el : doc.equality_sections)
      for (const XMLElement* c : children(doc, el))
        skipped.push_back(
            unsupported(doc, opt, c,
                        "<equality><" + std::string(c->Name()) + "> " + element_name(c) +
                            "needs load_mjcf_robot_file or load_mjcf_robot_string (they return "
                            "the equality constraints as a ConstraintSet)"));
  return skipped;
}

// ---- stage 3: the inertias ---------------------------------------------------------------

/// Each body's inertia in its frame (by MuJoCo's body id; the world's is zero) and what the
/// inertia policy said of them.
struct Inertias {
  std::vector<SpatialInertia<double>> of_body;
  std::vector<ModelDiagnostic> diagnostics;
};

/// The mass properties of the <mesh> assets by name, computed on first use.
using MeshCache = std::map<std::string, mesh::MassProperties>;

/// A mass with its centre and its rotational inertia about the centre, in the body frame.
struct MassDistribution {
  double mass = 0.0;
  Vector3<double> com = Vector3<double>::Zero();
  Matrix3<double> inertia = Matrix3<double>::Zero();
};

/// Principal moments and axes of I_c, with MuJoCo's compiler rules (balance, bounds) applied.
inline Matrix3<double> compiler_rules(const Compiler& compiler, double& m,
                                      const Matrix3<double>& Ic) {
  const bool rules = compiler.balanceinertia || compiler.boundinertia > 0.0;
  if (compiler.boundmass > 0.0 && m < compiler.boundmass) m = compiler.boundmass;
  if (!rules) return Ic;
  const Eigen::SelfAdjointEigenSolver<Matrix3<double>> es(Ic);
  Vector3<double> d = es.eigenvalues();
  if (compiler.balanceinertia && (d(0) + d(1) < d(2) || d(0) + d(2) < d(1) || d(1) + d(2) < d(0)))
    d.setConstant(d.sum() / 3.0);
  for (int k = 0; k < 3; ++k) d(k) = std::max(d(k), compiler.boundinertia);
  return es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
}

/// A geom of mass m whose centre is c and inertia m I1 about it (I1 per unit mass), both in the
/// geom frame X, in the body frame.
inline SpatialInertia<double> solid_inertia(const Document& doc, const SE3<double>& X, double m,
                                            const Vector3<double>& c, const Matrix3<double>& I1,
                                            const XMLElement* el, const std::string& who) {
  if (m < 0.0) fail(doc, el, who + ": negative mass");
  const Matrix3<double> Ig = X.rotation() * (m * I1) * X.rotation().transpose();
  return SpatialInertia<double>::from_mass_com_inertia(m, X.act_point(c), Ig);
}

/// An inline <mesh>'s vertices, faces, scale and inertia mode, and its mass properties.
inline mesh::MassProperties read_mesh(const Document& doc, const XMLElement* el,
                                      const std::string& who) {
  const std::string cls = class_of(doc, el, "main");
  for (const char* attr : {"plugin", "refpos", "refquat", "content_type"})
    if (get(doc, el, "mesh", cls, attr))
      fail(doc, el, who + ": attribute '" + attr + "' is not supported");
  const Attr va = get(doc, el, "mesh", cls, "vertex");
  if (!va) fail(doc, el, who + ": no 'vertex' (and no 'file')");
  const std::vector<double> v = number_list(doc, va, who, "vertex");
  if (v.size() % 3 != 0)
    fail(doc, va.where, who + ": attribute 'vertex': not a multiple of 3 numbers");
  std::vector<Eigen::Vector3d> vertices;
  for (std::size_t k = 0; k < v.size(); k += 3) vertices.emplace_back(v[k], v[k + 1], v[k + 2]);
  std::vector<Eigen::Vector3i> faces;
  if (const Attr fa = get(doc, el, "mesh", cls, "face")) {
    const std::vector<double> f = number_list(doc, fa, who, "face");
    if (f.size() % 3 != 0)
      fail(doc, fa.where, who + ": attribute 'face': not a multiple of 3 numbers");
    for (double i : f)
      if (i != std::floor(i) || i < 0.0 || i >= static_cast<double>(vertices.size()))
        fail(doc, fa.where,
             who + ": attribute 'face': " + std::to_string(i) + " is not the index of a vertex");
    for (std::size_t k = 0; k < f.size(); k += 3)
      faces.emplace_back(int(f[k]), int(f[k + 1]), int(f[k + 2]));
  }
  const Vector3<double> scale = read3(doc, el, "mesh", cls, "scale", Vector3<double>::Ones(), who);
  mesh::InertiaMode mode = mesh::InertiaMode::legacy;  // MuJoCo 4's default
  if (const Attr ia = get(doc, el, "mesh", cls, "inertia")) {
    const std::string k = keyword(doc, ia, who, "inertia", {"legacy", "exact", "convex", "shell"});
    if (k == "shell") fail(doc, ia.where, who + ": inertia='shell' is not supported");
    mode = k == "exact"    ? mesh::InertiaMode::exact
           : k == "convex" ? mesh::InertiaMode::convex
                           : mesh::InertiaMode::legacy;
  }
  // qhull's vertex limit changes the hull; liedyn's hull keeps every vertex.
  const double maxhullvert = read1(doc, el, "mesh", cls, "maxhullvert", -1.0, who);
  if (maxhullvert >= 0.0 && maxhullvert < static_cast<double>(vertices.size()) &&
      (faces.empty() || mode == mesh::InertiaMode::convex))
    fail(doc, el, who + ": maxhullvert below the number of vertices is not supported");
  try {
    return mesh::mesh_properties(vertices, faces, scale, mode);
  } catch (const std::invalid_argument& e) {
    fail(doc, el, who + ": " + e.what());
  }
}
/// The mass properties of the mesh of a mesh geom (computed once per mesh): MuJoCo's for a mesh
/// given inline by 'vertex' (and 'face'); a mesh from a file is an error.
inline const mesh::MassProperties& mesh_of(const Document& doc, const XMLElement* geom,
                                           const std::string& cls, const std::string& who,
                                           const std::string& body, MeshCache& cache) {
  const Attr ma = get(doc, geom, "geom", cls, "mesh");
  if (!ma) fail(doc, geom, who + ": a mesh geom without 'mesh'");
  const auto found = doc.meshes.find(ma.text);
  if (found == doc.meshes.end())
    fail(doc, ma.where, who + ": attribute 'mesh': no <mesh> named '" + std::string(ma.text) + "'");
  const XMLElement* el = found->second;
  if (const char* file = el->Attribute("file"))
    fail(doc, geom,
         "body '" + body + "': its inertia would come from a mesh file '" + file + "' (geom " +
             element_name(geom) +
             "; liedyn reads meshes given inline by 'vertex' and 'face'; give the body an "
             "<inertial>)");
  const auto cached = cache.find(ma.text);
  if (cached != cache.end()) return cached->second;
  return cache[ma.text] = read_mesh(doc, el, "<mesh> '" + std::string(ma.text) + "'");
}

/// A primitive geom's frame in the body frame and its sizes, from 'fromto' or its pose.
struct GeomShape {
  SE3<double> frame;
  double size[3] = {0, 0, 0};
};

inline GeomShape geom_shape(const Document& doc, const XMLElement* el, const std::string& cls,
                            const std::string& who, const std::string& type) {
  GeomShape shape;
  double* size = shape.size;
  const Attr sa = get(doc, el, "geom", cls, "size");
  const int ns = sa ? std::min(xml::count_tokens(sa.text), 3) : 0;
  if (sa) numbers(doc, sa, who, "size", std::max(ns, 1), size);
  double ft[6];
  if (read(doc, el, "geom", cls, "fromto", 6, ft, who)) {
    const Vector3<double> a(ft[0], ft[1], ft[2]), b(ft[3], ft[4], ft[5]);
    const Vector3<double> d = b - a;
    if (!(d.norm() > kMinVal)) fail(doc, el, who + ": 'fromto' has coincident ends");
    if (type == "sphere") fail(doc, el, who + ": 'fromto' on a sphere");
    shape.frame = SE3<double>(z_rotation(d.normalized()), Vector3<double>(0.5 * (a + b)));
    const double half = 0.5 * d.norm();
    if (type == "capsule" || type == "cylinder") size[1] = half;
    else {
      if (ns < 2) fail(doc, el, who + ": a " + type + " with 'fromto' needs 2 sizes");
      size[2] = half;
    }
  } else {
    shape.frame = pose(doc, el, "geom", cls, who);
    const int need = type == "sphere" ? 1 : (type == "capsule" || type == "cylinder") ? 2 : 3;
    if (ns < need)
      fail(doc, el, who + ": a " + type + " needs " + std::to_string(need) + " size numbers");
  }
  for (double s : shape.size)
    if (s < 0.0) fail(doc, el, who + ": negative size");
  return shape;
}

/// A primitive solid's volume and principal moments per unit mass about its centre.
struct UnitSolid {
  double volume = 0.0;
  Vector3<double> moments;
};

/// MuJoCo's volumes and solid-body formulas for a sphere, capsule, cylinder, box or ellipsoid.
inline UnitSolid unit_solid(const std::string& type, const double* size) {
  UnitSolid out;
  double& volume = out.volume;
  Vector3<double>& I = out.moments;
  const double r = size[0];
  if (type == "sphere") {
    volume = 4.0 / 3.0 * kPi * r * r * r;
    I.setConstant(0.4 * r * r);
  } else if (type == "capsule") {
    const double h = 2.0 * size[1];
    volume = kPi * r * r * h + 4.0 / 3.0 * kPi * r * r * r;
    // A cylinder and two hemispheres, each about the capsule's centre.
    const double ms = 4.0 / 3.0 * r / (4.0 / 3.0 * r + h);  // hemispheres' share of the mass
    const double mc = 1.0 - ms;
    I(0) = mc * (3 * r * r + h * h) / 12 + ms * (0.4 * r * r + 0.25 * h * h + 3.0 / 8.0 * r * h);
    I(1) = I(0);
    I(2) = mc * r * r / 2 + ms * 0.4 * r * r;
  } else if (type == "cylinder") {
    const double h = 2.0 * size[1];
    volume = kPi * r * r * h;
    I(0) = I(1) = (3 * r * r + h * h) / 12;
    I(2) = r * r / 2;
  } else if (type == "box") {
    volume = 8.0 * size[0] * size[1] * size[2];
    I(0) = (size[1] * size[1] + size[2] * size[2]) / 3;
    I(1) = (size[0] * size[0] + size[2] * size[2]) / 3;
    I(2) = (size[0] * size[0] + size[1] * size[1]) / 3;
  } else {  // ellipsoid
    volume = 4.0 / 3.0 * kPi * size[0] * size[1] * size[2];
    I(0) = (size[1] * size[1] + size[2] * size[2]) / 5;
    I(1) = (size[0] * size[0] + size[2] * size[2]) / 5;
    I(2) = (size[0] * size[0] + size[1] * size[1]) / 5;
  }
  return out;
}

/// A primitive or inline mesh geom's inertia in the body frame (zero for a geom outside
/// <compiler inertiagrouprange> or without mass).
inline SpatialInertia<double> geom_inertia(const Document& doc, const Item& it,
                                           const std::string& body, MeshCache& cache) {
  const XMLElement* el = it.el;
  const std::string cls = class_of(doc, el, it.cls);
  const std::string who = "geom " + element_name(el) + "of body '" + body + "'";
  const Attr t = get(doc, el, "geom", cls, "type");
  const std::string type = t ? t.text : "sphere";
  const double group = read1(doc, el, "geom", cls, "group", 0.0, who);
  if (group < doc.compiler.group_lo || group > doc.compiler.group_hi)
    return SpatialInertia<double>();
  double mass = -1.0;
  const bool has_mass = read(doc, el, "geom", cls, "mass", 1, &mass, who);
  const double density = read1(doc, el, "geom", cls, "density", 1000.0, who);
  if (has_mass ? mass == 0.0 : density == 0.0) return SpatialInertia<double>();
  if (type != "sphere" && type != "capsule" && type != "cylinder" && type != "box" &&
      type != "ellipsoid" && type != "mesh")
    fail(doc, el,
         "body '" + body + "': its inertia would come from a " + type + " geom " +
             element_name(el) +
             "(only primitive and inline mesh geoms are supported; give the body an "
             "<inertial>)");
  if (const Attr s = get(doc, el, "geom", cls, "shellinertia"))
    if (read_bool(doc, s, who, "shellinertia"))
      fail(doc, el, who + ": shellinertia is not supported (give the body an <inertial>)");
  if (type != "mesh")
    if (const Attr ma = get(doc, el, "geom", cls, "mesh"))
      fail(doc, el,
           who + ": a " + type + " fitted to mesh '" + ma.text +
               "' (MuJoCo sizes it from the mesh) is not supported; give the body an "
               "<inertial>");
  if (type == "mesh") {
    const mesh::MassProperties& p = mesh_of(doc, el, cls, who, body, cache);
    return solid_inertia(doc, pose(doc, el, "geom", cls, who), has_mass ? mass : density * p.volume,
                         p.com, p.inertia / p.volume, el, who);
  }
  const GeomShape shape = geom_shape(doc, el, cls, who, type);
  const UnitSolid solid = unit_solid(type, shape.size);
  return solid_inertia(doc, shape.frame, has_mass ? mass : density * solid.volume,
                       Vector3<double>::Zero(), Matrix3<double>(solid.moments.asDiagonal()), el,
                       who);
}

/// The mass distribution an <inertial> writes, in the body frame.
inline MassDistribution written_inertia(const Document& doc, const XMLElement* inertial,
                                        const std::string& iwho) {
  MassDistribution out;
  const SE3<double> X = pose(doc, inertial, "", "", iwho);
  double v[6];
  if (!read(doc, inertial, "", "", "mass", 1, v, iwho)) fail(doc, inertial, iwho + ": no 'mass'");
  out.mass = v[0];
  out.com = X.translation();
  const bool diag = inertial->Attribute("diaginertia");
  const bool full = inertial->Attribute("fullinertia");
  if (diag && full) fail(doc, inertial, iwho + ": both diaginertia and fullinertia");
  if (!diag && !full) fail(doc, inertial, iwho + ": no diaginertia or fullinertia");
  if (diag) {
    read(doc, inertial, "", "", "diaginertia", 3, v, iwho);
    out.inertia =
        X.rotation() * Vector3<double>(v[0], v[1], v[2]).asDiagonal() * X.rotation().transpose();
  } else {
    // MuJoCo's order: Ixx Iyy Izz Ixy Ixz Iyz.
    read(doc, inertial, "", "", "fullinertia", 6, v, iwho);
    Matrix3<double> F;
    F << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
    out.inertia = X.rotation() * F * X.rotation().transpose();
  }
  return out;
}

/// A body's inertia from its geoms or its <inertial> (as <compiler inertiafromgeom> says), with
/// the compiler rules and the inertia policy applied; the policy's diagnostics go to
/// `diagnostics`.
inline SpatialInertia<double> body_inertia(const Document& doc, const BodyInfo& b,
                                           const MjcfOptions& opt, MeshCache& cache,
                                           std::vector<ModelDiagnostic>& diagnostics) {
  const std::string who = "body '" + b.name + "'";
  const bool from_geoms =
      doc.compiler.inertia_from_geom == 1 || (doc.compiler.inertia_from_geom == 2 && !b.inertial);
  MassDistribution written;
  const XMLElement* at = b.inertial ? b.inertial : b.el;
  if (from_geoms) {
    SpatialInertia<double> sum;
    for (const Item& g : b.geoms) sum += geom_inertia(doc, g, b.name, cache);
    written.mass = sum.mass();
    if (written.mass > 0.0) {
      written.com = sum.com();
      written.inertia = sum.inertia_com();
    }
  } else if (b.inertial) {
    written = written_inertia(doc, b.inertial, who + " <inertial>");
  }
  double m = written.mass;
  if (m < 0.0) fail(doc, at, who + ": negative mass");
  Matrix3<double> Ic = compiler_rules(doc.compiler, m, written.inertia);
  const InertiaReview review = review_inertia(m, Ic, Ic.cwiseAbs().maxCoeff());
  std::vector<ModelDiagnostic> diags;
  double delta = 0.0;
  try {
    delta = apply_inertia_policy(review, opt.inertia, true, b.name, "", diags);
  } catch (const ModelError& e) {
    fail(doc, at, who + ": " + e.what());
  }
  for (ModelDiagnostic& d : diags) {
    d.message = where(doc, at) + d.message;
    diagnostics.push_back(d);
  }
  Ic.diagonal().array() += delta;
  return SpatialInertia<double>::from_mass_com_inertia(m, written.com, Ic);
}

/// Stage 3: the inertia of every body but the world.
inline Inertias body_inertias(const Document& doc, const Tree& tree, const MjcfOptions& opt) {
  Inertias out;
  out.of_body.resize(tree.bodies.size());
  MeshCache cache;
  for (std::size_t i = 1; i < tree.bodies.size(); ++i)
    out.of_body[i] = body_inertia(doc, tree.bodies[i], opt, cache, out.diagnostics);
  return out;
}

// ---- stage 4: the model ------------------------------------------------------------------

/// Which MuJoCo body becomes liedyn's base, and the diagnostics of what a moving base drops.
struct Base {
  int free_body = -1;  // the body with the free joint; -1: a welded base
  int root = -1;       // the MuJoCo body that becomes the base; -1: the world
  std::vector<ModelDiagnostic> diagnostics;
};

inline Base find_base(const Document& doc, const Tree& tree) {
  const std::vector<BodyInfo>& bodies = tree.bodies;
  const int nb = static_cast<int>(bodies.size());
  std::vector<char> has_joint_below(nb, 0);
  for (int i = nb - 1; i > 0; --i) {
    if (!bodies[i].joints.empty() || bodies[i].free_joint) has_joint_below[i] = 1;
    if (has_joint_below[i]) has_joint_below[bodies[i].parent] = 1;
  }
  std::vector<int> world_kids;
  Base base;
  for (int i = 1; i < nb; ++i) {
    if (bodies[i].parent == 0) world_kids.push_back(i);
    if (!bodies[i].free_joint) continue;
    if (base.free_body >= 0)
      fail(doc, bodies[i].free_joint,
           "body '" + bodies[i].name + "': a second free body ('" + bodies[base.free_body].name +
               "' is the first); a model is one tree");
    base.free_body = i;
  }
  if (base.free_body < 0) {
    if (world_kids.size() == 1 && bodies[world_kids[0]].joints.empty()) base.root = world_kids[0];
    return base;
  }
  base.root = base.free_body;
  for (int k : world_kids) {
    if (k == base.free_body) continue;
    if (has_joint_below[k])
      fail(doc, bodies[k].el,
           "body '" + bodies[k].name + "': a second kinematic tree beside the free body '" +
               bodies[base.free_body].name + "'; a model is one tree");
    base.diagnostics.push_back(ModelDiagnostic{
        bodies[k].name, DiagnosticKind::ignored_element,
        where(doc, bodies[k].el) + "body '" + bodies[k].name +
            "' is fixed to the world, which a moving-base model does not contain; ignored",
        0.0});
  }
  if (!bodies[0].sites.empty() || !bodies[0].geoms.empty())
    base.diagnostics.push_back(ModelDiagnostic{
        "world", DiagnosticKind::ignored_element,
        where(doc, doc.worldbodies.front()) +
            "the world body's own geoms and sites are not part of a moving-base model; ignored",
        0.0});
  return base;
}

/// The tree as liedyn bodies, joints and frames, before ModelBuilder::build (the equality
/// constraints add their frames).
struct Assembly {
  ModelBuilder<double> builder;
  BaseType base_type;
  // entity[i]: the liedyn body (or fixed body) carrying MuJoCo body i, empty when the body is
  // dropped (fixed to the world of a moving-base model), and entity_H[i] = ^{entity}H_{i}.
  std::vector<std::string> entity;
  std::vector<SE3<double>> entity_H;
  std::map<std::string, double> qpos0;  // per hinge and slide joint name: MuJoCo's qpos0
};

/// A builder with the base, gravity and the diagnostics so far.
inline Assembly start_assembly(const Document& doc, const Tree& tree, const Inertias& inertias,
                               const Base& base, const std::vector<ModelDiagnostic>& diagnostics,
                               const MjcfOptions& opt) {
  const std::string base_name = base.root >= 0 ? tree.bodies[base.root].name : "world";
  const BaseType type = base.free_body >= 0 ? BaseType::Moving : BaseType::Welded;
  const std::size_t nb = tree.bodies.size();
  Assembly a{ModelBuilder<double>(type, base_name),
             type,
             std::vector<std::string>(nb),
             std::vector<SE3<double>>(nb),
             {}};
  ModelBuilder<double>& b = a.builder;
  b.set_inertia_check(InertiaCheck::PositiveDefinite);  // checked as written (body_inertia)
  for (const ModelDiagnostic& d : diagnostics) b.add_diagnostic(d);
  Vector3<double> g = doc.gravity_disabled ? Vector3<double>::Zero() : doc.gravity;
  if (opt.gravity) g = *opt.gravity;
  try {
    b.set_gravity(g);
    if (base.root >= 0) b.set_base_inertia(inertias.of_body[base.root]);
    if (base.root >= 0 && base.free_body < 0) b.set_welded_base_pose(world_pose(tree, base.root));
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
  a.entity[0] = base_name;
  if (base.root >= 0) {
    a.entity[base.root] = base_name;
    a.entity_H[0] = base.free_body >= 0 ? SE3<double>() : world_pose(tree, base.root).inverse();
  }
  return a;
}

/// The builder's joint for one MuJoCo joint placed at `placement` in its parent.
inline JointSpec<double> joint_spec(const JointInfo& ji, const SE3<double>& placement) {
  JointSpec<double> spec = ji.kind == JointInfo::Kind::Ball
                               ? JointSpec<double>::spherical(ji.name, placement)
                           : ji.kind == JointInfo::Kind::Slide
                               ? JointSpec<double>::prismatic(ji.name, ji.axis, placement)
                               : JointSpec<double>::revolute(ji.name, ji.axis, placement);
  if (ji.kind != JointInfo::Kind::Ball) {
    spec.lower = ji.lower;
    spec.upper = ji.upper;
  }
  spec.armature = ji.armature;
  return spec;
}

/// MuJoCo body i with joints: one liedyn body per joint, chained (header comment).
inline void add_jointed_body(const Tree& tree, const Inertias& inertias, int i,
                             const SE3<double>& X, Assembly& a) {
  const BodyInfo& bi = tree.bodies[i];
  std::string parent = a.entity[bi.parent];
  SE3<double> placement = X;
  const int k = static_cast<int>(bi.joints.size());
  for (int j = 0; j < k; ++j) {
    const JointInfo& ji = bi.joints[j];
    placement = placement * SE3<double>(Matrix3<double>::Identity(), ji.pos);
    const bool last = j == k - 1;
    const std::string name = last && ji.pos.isZero(0.0) ? bi.name : bi.name + "/" + ji.name;
    const JointSpec<double> spec = joint_spec(ji, placement);
    if (ji.kind != JointInfo::Kind::Ball) a.qpos0[ji.name] = ji.ref;
    const SE3<double> back(Matrix3<double>::Identity(), Vector3<double>(-ji.pos));
    a.builder.add_body(parent, name, spec,
                       last ? inertias.of_body[i].transformed(back) : SpatialInertia<double>());
    parent = name;
    placement = back;
  }
  a.entity[i] = parent;
  a.entity_H[i] = placement;
  if (parent != bi.name) a.builder.add_frame(bi.name, parent, placement);
}

/// Every MuJoCo body but the base and the world, and the sites of all.
inline void add_bodies(const Document& doc, const Tree& tree, const Inertias& inertias,
                       const Base& base, Assembly& a) {
  const int nb = static_cast<int>(tree.bodies.size());
  for (int i = 1; i < nb; ++i) {
    if (i == base.root) continue;
    const BodyInfo& bi = tree.bodies[i];
    if (base.free_body >= 0 && bi.parent == 0) continue;  // dropped: fixed to the world
    if (base.free_body >= 0 && a.entity[bi.parent].empty()) continue;
    const SE3<double> X = a.entity_H[bi.parent] * bi.pose;
    try {
      if (!bi.joints.empty()) {
        add_jointed_body(tree, inertias, i, X, a);
        continue;
      }
      a.builder.add_fixed_body(a.entity[bi.parent], bi.name, X, inertias.of_body[i]);
      a.entity[i] = bi.name;
    } catch (const ModelError& e) {
      fail(doc, bi.el, strip_prefix(e.what()));
    }
  }
  for (int i = 0; i < nb; ++i) {
    if (a.entity[i].empty() || (i == 0 && base.free_body >= 0)) continue;
    for (const SiteInfo& s : tree.bodies[i].sites) {
      try {
        a.builder.add_frame(s.name, a.entity[i], a.entity_H[i] * s.placement);
      } catch (const ModelError& e) {
        fail(doc, tree.bodies[i].el, "site '" + s.name + "': " + strip_prefix(e.what()));
      }
    }
  }
}

/// Stage 4: the liedyn bodies, joints and frames of the tree; `diagnostics` are the earlier
/// stages' (the builder keeps them in order).
inline Assembly assemble(const Document& doc, const Tree& tree, const Inertias& inertias,
                         std::vector<ModelDiagnostic> diagnostics, const MjcfOptions& opt) {
  const Base base = find_base(doc, tree);
  diagnostics.insert(diagnostics.end(), inertias.diagnostics.begin(), inertias.diagnostics.end());
  diagnostics.insert(diagnostics.end(), base.diagnostics.begin(), base.diagnostics.end());
  Assembly a = start_assembly(doc, tree, inertias, base, diagnostics, opt);
  add_bodies(doc, tree, inertias, base, a);
  return a;
}

/// The model of a finished assembly.
inline Model<double> build_model(const Document& doc, const ModelBuilder<double>& builder) {
  try {
    return builder.build();
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
}

// ---- stage 5: the equality constraints ---------------------------------------------------

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

/// One <equality> child being converted: its element, names, and where its diagnostics go.
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

// ---- the loaders -------------------------------------------------------------------------

/// The model of MJCF text (`main_path`: its file, empty for a string).
inline Model<double> load(const std::string& main_path, const std::string& text,
                          const MjcfOptions& opt) {
  const Document doc = read_document(main_path, text);
  const Tree tree = read_tree(doc);
  const std::vector<ModelDiagnostic> skipped = skip_sections(doc, opt, EqualityUse::unsupported);
  const Inertias inertias = body_inertias(doc, tree, opt);
  const Assembly assembly = assemble(doc, tree, inertias, skipped, opt);
  return build_model(doc, assembly.builder);
}

/// MuJoCo's qpos0 of the model's joints in liedyn's configuration order (MjcfRobot::qpos0).
inline VectorX<double> qpos0_of(const Model<double>& model,
                                const std::map<std::string, double>& qpos0) {
  VectorX<double> out(model.nq_joints());
  for (int i = 1; i < model.num_bodies(); ++i) {
    if (model.joint(i).one_dof()) out(model.q_index(i)) = qpos0.at(model.joint_name(i));
    else out.segment<4>(model.q_index(i)) << 1.0, 0.0, 0.0, 0.0;  // a ball's identity
  }
  return out;
}

/// The model of MJCF text, its equality constraints and its joints' qpos0.
inline MjcfRobot load_robot(const std::string& main_path, const std::string& text,
                            const MjcfOptions& opt) {
  const Document doc = read_document(main_path, text);
  const Tree tree = read_tree(doc);
  const std::vector<ModelDiagnostic> skipped = skip_sections(doc, opt, EqualityUse::converted);
  const Inertias inertias = body_inertias(doc, tree, opt);
  const Assembly assembly = assemble(doc, tree, inertias, skipped, opt);
  const Equality equality = convert_equality(doc, tree, assembly, opt);
  MjcfRobot robot;
  robot.model = build_model(doc, equality.builder);
  robot.equality = equality.constraints;
  try {
    robot.constraints = ConstraintSet<double>(robot.model, robot.equality);
  } catch (const ModelError& e) {
    fail(doc, strip_prefix(e.what()));
  }
  robot.qpos0 = qpos0_of(robot.model, assembly.qpos0);
  return robot;
}

}  // namespace mjcf
}  // namespace detail

/// Loads a robot from MJCF text (MuJoCo's XML; see docs/loading.md). <include> paths are relative
/// to the current directory. Throws ModelError (what and where) on anything it cannot represent.
inline Model<double> load_mjcf_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::load("", xml, options);
}

/// Loads a robot from an MJCF file; <include> paths are relative to its folder. Throws ModelError
/// if a file can't be read or on anything the loader cannot represent (the message names the file
/// and line).
inline Model<double> load_mjcf_file(const std::string& path, const MjcfOptions& options = {}) {
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) detail::mjcf::fail(path, why);
  return detail::mjcf::load(path, text, options);
}

/// Loads a robot and its <equality> constraints from MJCF text (see MjcfRobot); <include> paths
/// are relative to the current directory. Throws ModelError as load_mjcf_string does; an equality
/// liedyn cannot represent (tendon, flex, a polynomial of degree above 1, a joint equality
/// without joint2) is an error naming it, or one diagnostic each under
/// MjcfOptions::unsupported = skip.
inline MjcfRobot load_mjcf_robot_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::load_robot("", xml, options);
}

/// Loads a robot and its <equality> constraints from an MJCF file (see load_mjcf_robot_string);
/// <include> paths are relative to its folder.
inline MjcfRobot load_mjcf_robot_file(const std::string& path, const MjcfOptions& options = {}) {
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) detail::mjcf::fail(path, why);
  return detail::mjcf::load_robot(path, text, options);
}

}  // namespace liedyn
