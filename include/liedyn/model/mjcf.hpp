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

struct BodyInfo {
  std::string name;
  const XMLElement* el = nullptr;
  int parent = -1;
  SE3<double> pose;  // in the parent body's frame
  std::vector<JointInfo> joints;
  const XMLElement* free_joint = nullptr;
  std::string free_name;
  SpatialInertia<double> inertia;  // in the body frame
  std::vector<SiteInfo> sites;
  const XMLElement* inertial = nullptr;
  std::vector<Item> geoms;
};

class Reader {
 public:
  Reader(std::string main_path, MjcfOptions options)
      : main_path_(std::move(main_path)), opt_(std::move(options)) {}

  [[noreturn]] void fail(const std::string& msg) const {
    throw ModelError("liedyn: MJCF: " + (main_path_.empty() ? "" : main_path_ + ": ") + msg);
  }
  [[noreturn]] void fail(const XMLElement* el, const std::string& msg) const {
    throw ModelError("liedyn: MJCF: " + where(el) + msg);
  }

  /// The model, its equality constraints and its joints' qpos0.
  MjcfRobot load_robot(const std::string& text) {
    MjcfRobot robot;
    equality_out_ = &robot.equality;
    robot.model = load(text);
    try {
      robot.constraints = ConstraintSet<double>(robot.model, robot.equality);
    } catch (const ModelError& e) {
      fail(strip_prefix(e.what()));
    }
    const Model<double>& model = robot.model;
    robot.qpos0.resize(model.nq_joints());
    for (int i = 1; i < model.num_bodies(); ++i) {
      if (model.joint(i).one_dof()) robot.qpos0(model.q_index(i)) = qpos0_.at(model.joint_name(i));
      else robot.qpos0.segment<4>(model.q_index(i)) << 1.0, 0.0, 0.0, 0.0;  // a ball's identity
    }
    return robot;
  }

  Model<double> load(const std::string& text) {
    const XMLDocument& doc = parse_document(text, main_path_, nullptr);
    const XMLElement* root = doc.RootElement();
    if (!root) fail("the document has no root element");
    if (std::string(root->Name()) != "mujoco")
      fail(root, "the root element is <" + std::string(root->Name()) + ">, expected <mujoco>");
    std::error_code ec;
    const std::filesystem::path canon = std::filesystem::weakly_canonical(main_path_, ec);
    std::vector<std::string> stack{ec ? main_path_ : canon.string()};
    load_includes(root, stack);
    read_sections(root);
    return build();
  }

 private:
  // ---- documents, includes, messages -----------------------------------------------------
  std::string where(const XMLElement* el) const {
    std::string file;
    for (const auto& d : docs_)
      if (d.first.get() == el->GetDocument()) file = d.second;
    if (!file.empty()) file += ": ";
    return file + "line " + std::to_string(el->GetLineNum()) + ": ";
  }

  const XMLDocument& parse_document(const std::string& text, const std::string& path,
                                    const XMLElement* from) {
    auto doc = std::make_unique<XMLDocument>();
    if (doc->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      const char* err = doc->ErrorStr();
      const std::string what = std::string("XML parse error: ") + (err ? err : "unknown error");
      if (from)
        fail(from, "<include file='" + std::string(from->Attribute("file")) + "'>: " + what);
      fail(what);
    }
    docs_.emplace_back(std::move(doc), path);
    return *docs_.back().first;
  }

  std::string folder() const {
    if (main_path_.empty()) return std::string();
    return std::filesystem::path(main_path_).parent_path().string();
  }

  void load_includes(const XMLElement* el, std::vector<std::string>& stack) {
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string(c->Name()) != "include") {
        load_includes(c, stack);
        continue;
      }
      const std::string file = name_attr(c, "file", "<include>");
      std::filesystem::path p(file);
      if (p.is_relative() && !folder().empty()) p = std::filesystem::path(folder()) / p;
      std::error_code ec;
      const std::filesystem::path canon = std::filesystem::weakly_canonical(p, ec);
      const std::string key = ec ? p.string() : canon.string();
      if (std::find(stack.begin(), stack.end(), key) != stack.end())
        fail(c, "<include file='" + file + "'>: cyclic include (the file includes itself)");
      if (stack.size() > 32) fail(c, "<include file='" + file + "'>: includes nested too deeply");
      std::string text;
      if (const char* why = xml::read_file(p.string(), text))
        fail(c, "<include file='" + file + "'>: " + why + " '" + p.string() + "'");
      const XMLDocument& doc = parse_document(text, p.string(), c);
      const XMLElement* root = doc.RootElement();
      if (!root) fail(c, "<include file='" + file + "'>: the file has no root element");
      included_[c] = root;
      stack.push_back(key);
      load_includes(root, stack);
      stack.pop_back();
    }
  }

  /// The child elements of `el`, each <include> replaced by the included root's children.
  std::vector<const XMLElement*> children(const XMLElement* el) const {
    std::vector<const XMLElement*> out;
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      auto it = included_.find(c);
      if (it == included_.end()) {
        out.push_back(c);
        continue;
      }
      const std::vector<const XMLElement*> sub = children(it->second);
      out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
  }

  // ---- attributes ------------------------------------------------------------------------
  std::string name_attr(const XMLElement* el, const char* attr, const std::string& who) const {
    const char* text = el->Attribute(attr);
    if (!text) fail(el, who + ": no attribute '" + attr + "'");
    if (!*text) fail(el, who + ": attribute '" + attr + "' is empty");
    return text;
  }

  /// The attribute `attr` of `el` (of kind "joint", "geom", "site"; "" for no defaults), else
  /// from default class `cls`.
  Attr get(const XMLElement* el, const char* kind, const std::string& cls, const char* attr) const {
    if (const char* t = el->Attribute(attr)) return Attr{t, el};
    if (!*kind) return Attr{};
    const auto c = classes_.find(cls);
    if (c == classes_.end()) return Attr{};
    const auto k = c->second.kinds.find(kind);
    if (k == c->second.kinds.end()) return Attr{};
    const auto a = k->second.find(attr);
    return a == k->second.end() ? Attr{} : a->second;
  }

  void numbers(const Attr& a, const std::string& who, const char* attr, int n, double* out) const {
    std::string why;
    if (!xml::parse_numbers(a.text, n, out, why))
      fail(a.where, who + ": attribute '" + attr + "': " + why);
  }
  bool read(const XMLElement* el, const char* kind, const std::string& cls, const char* attr, int n,
            double* out, const std::string& who) const {
    const Attr a = get(el, kind, cls, attr);
    if (!a) return false;
    numbers(a, who, attr, n, out);
    return true;
  }
  Vector3<double> read3(const XMLElement* el, const char* kind, const std::string& cls,
                        const char* attr, const Vector3<double>& fallback,
                        const std::string& who) const {
    double v[3];
    if (!read(el, kind, cls, attr, 3, v, who)) return fallback;
    return Vector3<double>(v[0], v[1], v[2]);
  }
  double read1(const XMLElement* el, const char* kind, const std::string& cls, const char* attr,
               double fallback, const std::string& who) const {
    double v = fallback;
    read(el, kind, cls, attr, 1, &v, who);
    return v;
  }
  bool read_bool(const Attr& a, const std::string& who, const char* attr) const {
    const std::string t = a.text;
    if (t == "true") return true;
    if (t == "false") return false;
    fail(a.where, who + ": attribute '" + attr + "': " + quote(a.text) + " is not true or false");
  }
  std::string keyword(const Attr& a, const std::string& who, const char* attr,
                      std::initializer_list<const char*> allowed) const {
    std::string list;
    for (const char* k : allowed) {
      if (a.text == std::string(k)) return k;
      list += (list.empty() ? "" : ", ") + std::string(k);
    }
    fail(a.where, who + ": attribute '" + attr + "': " + quote(a.text) + " is not one of " + list);
  }
  double angle(double v) const { return compiler_.degree ? v * kPi / 180.0 : v; }

  /// The rotation of an element from its one orientation attribute (identity when none).
  Matrix3<double> orientation(const XMLElement* el, const char* kind, const std::string& cls,
                              const std::string& who) const {
    static const char* const forms[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    // The element's own form wins over a default's (MuJoCo keeps one orientation per element).
    const XMLElement* src = nullptr;
    int form = -1, count = 0;
    for (int k = 0; k < 5; ++k)
      if (el->Attribute(forms[k])) {
        ++count;
        form = k;
      }
    if (count > 1) fail(el, who + ": more than one orientation (quat, axisangle, euler, ...)");
    if (count == 1) src = el;
    if (!src)
      for (int k = 0; k < 5 && !src; ++k)
        if (get(el, kind, cls, forms[k])) {
          form = k;
          src = get(el, kind, cls, forms[k]).where;
        }
    if (!src) return Matrix3<double>::Identity();
    const Attr a = get(el, kind, cls, forms[form]);
    double v[6];
    switch (form) {
      case 0: {
        numbers(a, who, "quat", 4, v);
        const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (!(n > kMinVal)) fail(a.where, who + ": attribute 'quat': zero quaternion");
        return Eigen::Quaterniond(v[0] / n, v[1] / n, v[2] / n, v[3] / n).toRotationMatrix();
      }
      case 1: {
        numbers(a, who, "axisangle", 4, v);
        const Vector3<double> axis(v[0], v[1], v[2]);
        if (!(axis.norm() > kMinVal)) fail(a.where, who + ": attribute 'axisangle': zero axis");
        return axis_rotation(axis.normalized(), angle(v[3]));
      }
      case 2: {
        numbers(a, who, "euler", 3, v);
        Matrix3<double> R = Matrix3<double>::Identity();
        for (int i = 0; i < 3; ++i) {
          const char c = compiler_.eulerseq[i];
          const int k = std::tolower(c) - 'x';
          const Matrix3<double> Ri = axis_rotation(Vector3<double>::Unit(k), angle(v[i]));
          // Lower case: rotating (intrinsic) axes; upper case: fixed (extrinsic) axes.
          R = std::islower(c) ? Matrix3<double>(R * Ri) : Matrix3<double>(Ri * R);
        }
        return R;
      }
      case 3: {
        numbers(a, who, "xyaxes", 6, v);
        Vector3<double> x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
        if (!(x.norm() > kMinVal)) fail(a.where, who + ": attribute 'xyaxes': zero x axis");
        x.normalize();
        y -= x * x.dot(y);
        if (!(y.norm() > kMinVal))
          fail(a.where, who + ": attribute 'xyaxes': y axis parallel to the x axis");
        y.normalize();
        Matrix3<double> R;
        R << x, y, x.cross(y);
        return R;
      }
      default: {
        numbers(a, who, "zaxis", 3, v);
        const Vector3<double> z(v[0], v[1], v[2]);
        if (!(z.norm() > kMinVal)) fail(a.where, who + ": attribute 'zaxis': zero axis");
        return z_rotation(z.normalized());
      }
    }
  }

  static Matrix3<double> axis_rotation(const Vector3<double>& unit_axis, double theta) {
    return Eigen::AngleAxisd(theta, unit_axis).toRotationMatrix();
  }
  /// The rotation taking e_z to z by the smallest angle (about e_x when z = −e_z), as MuJoCo.
  static Matrix3<double> z_rotation(const Vector3<double>& z) {
    Vector3<double> axis = Vector3<double>::UnitZ().cross(z);
    const double s = axis.norm();
    if (s < 1e-10) axis = Vector3<double>::UnitX();
    else axis /= s;
    return axis_rotation(axis, std::atan2(s, z.z()));
  }

  SE3<double> pose(const XMLElement* el, const char* kind, const std::string& cls,
                   const std::string& who) const {
    return SE3<double>(orientation(el, kind, cls, who),
                       read3(el, kind, cls, "pos", Vector3<double>::Zero(), who));
  }

  // ---- sections --------------------------------------------------------------------------
  void unsupported(const XMLElement* el, const std::string& what) {
    if (opt_.unsupported == UnsupportedElements::error)
      fail(el, what + " (MjcfOptions::unsupported = skip loads the model without it)");
    diagnostics_.push_back(
        ModelDiagnostic{"", DiagnosticKind::ignored_element, where(el) + what + "; skipped", 0.0});
  }

  void read_sections(const XMLElement* root) {
    const std::vector<const XMLElement*> top = children(root);
    for (const XMLElement* el : top)
      if (std::string(el->Name()) == "compiler") read_compiler(el);
    classes_["main"];
    for (const XMLElement* el : top)
      if (std::string(el->Name()) == "default") read_default(el, "", true);
    for (const XMLElement* el : top) {
      const std::string n = el->Name();
      if (n == "option") read_option(el);
      else if (n == "worldbody") worldbodies_.push_back(el);
      else if (n == "equality") equality_sections_.push_back(el);
      else if (n == "tendon") constraint_sections_.push_back(el);
      else if (n == "asset") read_assets(el);
      else if (n == "deformable") fail(el, "<" + n + "> is not supported");
      else if (n != "compiler" && n != "default" && n != "size" && n != "visual" &&
               n != "statistic" && n != "custom" && n != "extension" && n != "contact" &&
               n != "actuator" && n != "sensor" && n != "keyframe")
        fail(el, "unknown element <" + n + "> in <mujoco>");
    }
    if (worldbodies_.empty()) fail(root, "no <worldbody>");
  }

  static std::string element_name(const XMLElement* el) {
    const char* n = el->Attribute("name");
    return n ? "'" + std::string(n) + "' " : std::string();
  }

  void read_compiler(const XMLElement* el) {
    const std::string who = "<compiler>";
    if (Attr a{el->Attribute("angle"), el})
      compiler_.degree = keyword(a, who, "angle", {"degree", "radian"}) == "degree";
    if (Attr a{el->Attribute("eulerseq"), el}) {
      const std::string s = a.text;
      bool ok = s.size() == 3;
      for (char c : s) ok = ok && std::string("xyzXYZ").find(c) != std::string::npos;
      if (!ok) fail(el, who + ": attribute 'eulerseq': " + quote(a.text) + " is not 3 of xyzXYZ");
      compiler_.eulerseq = s;
    }
    if (Attr a{el->Attribute("autolimits"), el})
      compiler_.autolimits = read_bool(a, who, "autolimits");
    if (Attr a{el->Attribute("inertiafromgeom"), el}) {
      const std::string k = keyword(a, who, "inertiafromgeom", {"false", "true", "auto"});
      compiler_.inertia_from_geom = k == "false" ? 0 : k == "true" ? 1 : 2;
    }
    if (Attr a{el->Attribute("balanceinertia"), el})
      compiler_.balanceinertia = read_bool(a, who, "balanceinertia");
    compiler_.boundmass = read1(el, "", "", "boundmass", compiler_.boundmass, who);
    compiler_.boundinertia = read1(el, "", "", "boundinertia", compiler_.boundinertia, who);
    double g[2];
    if (read(el, "", "", "inertiagrouprange", 2, g, who)) {
      compiler_.group_lo = static_cast<int>(g[0]);
      compiler_.group_hi = static_cast<int>(g[1]);
    }
    if (read1(el, "", "", "settotalmass", -1.0, who) > 0.0)
      fail(el, who + ": settotalmass is not supported (scale the masses in the file)");
    if (Attr a{el->Attribute("coordinate"), el})
      if (std::string(a.text) != "local") fail(el, who + ": coordinate='global' is not supported");
    if (Attr a{el->Attribute("alignfree"), el})
      if (read_bool(a, who, "alignfree"))
        fail(el, who + ": alignfree='true' is not supported (the base frame is the body frame)");
  }

  void read_option(const XMLElement* el) {
    gravity_ = read3(el, "", "", "gravity", gravity_, "<option>");
    for (const XMLElement* c : children(el))
      if (std::string(c->Name()) == "flag")
        if (Attr a{c->Attribute("gravity"), c})
          if (keyword(a, "<option><flag>", "gravity", {"enable", "disable"}) == "disable")
            gravity_disabled_ = true;
  }

  /// The <mesh> assets by name (a mesh's name defaults to its file's, without folder and
  /// extension, as in MuJoCo); the rest of <asset> is visual.
  void read_assets(const XMLElement* el) {
    for (const XMLElement* c : children(el)) {
      if (std::string(c->Name()) != "mesh") continue;
      std::string name = c->Attribute("name") ? c->Attribute("name") : "";
      if (name.empty() && c->Attribute("file"))
        name = std::filesystem::path(c->Attribute("file")).stem().string();
      if (name.empty()) fail(c, "<mesh>: no 'name' and no 'file'");
      if (!meshes_.emplace(name, c).second) fail(c, "duplicate mesh name '" + name + "'");
    }
  }

  void read_default(const XMLElement* el, const std::string& parent, bool top) {
    std::string name = "main";
    if (const char* c = el->Attribute("class")) name = c;
    else if (!top) fail(el, "<default>: a nested <default> needs a 'class'");
    if (name.empty()) fail(el, "<default>: attribute 'class' is empty");
    if (!(top && name == "main")) {
      if (classes_.count(name)) fail(el, "<default>: duplicate class '" + name + "'");
      classes_[name] = classes_[parent.empty() ? "main" : parent];
    }
    DefaultClass& dc = classes_[name];
    for (const XMLElement* c : children(el)) {
      const std::string kind = c->Name();
      if (kind == "default") continue;
      if (kind != "joint" && kind != "geom" && kind != "site" && kind != "equality" &&
          kind != "mesh")
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
    for (const XMLElement* c : children(el))
      if (std::string(c->Name()) == "default") read_default(c, name, false);
  }

  std::string class_of(const XMLElement* el, const std::string& inherited) const {
    const char* c = el->Attribute("class");
    if (!c) return inherited;
    if (!classes_.count(c))
      fail(el, "<" + std::string(el->Name()) + "> " + element_name(el) + "uses unknown class '" +
                   c + "'");
    return c;
  }
  std::string childclass_of(const XMLElement* el, const std::string& inherited) const {
    const char* c = el->Attribute("childclass");
    if (!c) return inherited;
    if (!classes_.count(c))
      fail(el, "<" + std::string(el->Name()) + "> " + element_name(el) +
                   "uses unknown childclass '" + c + "'");
    return c;
  }

  // ---- bodies ----------------------------------------------------------------------------
  /// The elements directly in a body, <frame>s flattened (their poses composed).
  void collect(const XMLElement* el, const SE3<double>& frame, const std::string& childclass,
               std::vector<Item>& out) const {
    for (const XMLElement* c : children(el)) {
      if (std::string(c->Name()) == "frame") {
        const std::string who = "<frame> " + element_name(c);
        const std::string cls = class_of(c, childclass);
        collect(c, frame * pose(c, "", cls, who), childclass_of(c, childclass), out);
        continue;
      }
      out.push_back(Item{c, frame, childclass});
    }
  }

  void read_body(const XMLElement* el, int parent, const SE3<double>& frame,
                 const std::string& childclass) {
    const int id = static_cast<int>(bodies_.size());
    BodyInfo b;
    b.el = el;
    b.parent = parent;
    const char* n = el->Attribute("name");
    b.name = n && *n ? n : "body" + std::to_string(id);
    const std::string who = "body '" + b.name + "'";
    if (parent >= 0) {
      if (body_names_.count(b.name)) fail(el, "duplicate body name '" + b.name + "'");
      b.pose = frame * pose(el, "", "", who);
    }
    body_names_.insert(b.name);
    const std::string cc = childclass_of(el, childclass);
    std::vector<Item> items;
    collect(el, SE3<double>(), cc, items);
    bodies_.push_back(b);

    const XMLElement* inertial = nullptr;
    std::vector<Item> geoms;
    for (const Item& it : items) {
      const std::string kind = it.el->Name();
      if (kind == "joint" || kind == "freejoint") {
        if (parent < 0) fail(it.el, "a joint in <worldbody> itself (joints belong to bodies)");
        read_joint(it, id, kind == "freejoint");
      } else if (kind == "inertial") {
        if (parent < 0) fail(it.el, "an <inertial> in <worldbody> (the world has no inertia)");
        if (inertial) fail(it.el, who + ": more than one <inertial>");
        inertial = it.el;
        if (!(it.frame.translation().isZero() && it.frame.rotation().isIdentity()))
          fail(it.el, who + ": an <inertial> inside a <frame> is not supported");
      } else if (kind == "geom") {
        geoms.push_back(it);
      } else if (kind == "site") {
        read_site(it, id);
      } else if (kind == "composite" || kind == "flexcomp" || kind == "replicate" ||
                 kind == "attach" || kind == "plugin") {
        fail(it.el, "<" + kind + "> in " + who + " is not supported");
      } else if (kind != "body" && kind != "camera" && kind != "light") {
        fail(it.el, "unknown element <" + kind + "> in " + who);
      }
    }
    // Inertias are computed once the whole tree is read (build), so that an unsupported joint
    // is reported before a geom's inertia.
    bodies_[id].inertial = inertial;
    bodies_[id].geoms = geoms;
    for (const Item& it : items)
      if (std::string(it.el->Name()) == "body") read_body(it.el, id, it.frame, it.cls);
  }

  void read_joint(const Item& it, int body, bool freejoint) {
    const XMLElement* el = it.el;
    const std::string cls = freejoint ? it.cls : class_of(el, it.cls);
    const int id = joint_count_++;
    const char* n = el->Attribute("name");
    const std::string name = n && *n ? n : "joint" + std::to_string(id);
    const std::string who = "joint '" + name + "' (body '" + bodies_[body].name + "')";
    if (joint_names_.count(name)) fail(el, "duplicate joint name '" + name + "'");
    joint_names_.insert(name);
    std::string type = "free";
    if (!freejoint) {
      const Attr t = get(el, "joint", cls, "type");
      type = t ? keyword(t, who, "type", {"hinge", "slide", "ball", "free"}) : "hinge";
    }
    BodyInfo& b = bodies_[body];
    if (type == "free") {
      if (b.parent != 0)
        fail(el, who +
                     ": a free joint below the root is not supported yet (only a body of "
                     "<worldbody> may be free: the moving base)");
      if (!b.joints.empty() || b.free_joint)
        fail(el, who + ": a free joint with other joints in the same body");
      if (const char* a = el->Attribute("align"))
        if (std::string(a) == "true")
          fail(el, who + ": align='true' is not supported (the base frame is the body frame)");
      b.free_joint = el;
      b.free_name = name;
      return;
    }
    if (b.free_joint) fail(el, who + ": a free joint with other joints in the same body");
    JointInfo j;
    j.name = name;
    j.el = el;
    j.kind = type == "slide"  ? JointInfo::Kind::Slide
             : type == "ball" ? JointInfo::Kind::Ball
                              : JointInfo::Kind::Hinge;
    j.pos = it.frame.act_point(read3(el, "joint", cls, "pos", Vector3<double>::Zero(), who));
    j.armature = read1(el, "joint", cls, "armature", 0.0, who);
    if (j.armature < 0.0) fail(el, who + ": negative armature");
    if (j.kind == JointInfo::Kind::Ball) {  // no axis; ref and range not kept (header comment)
      b.joints.push_back(j);
      return;
    }
    const Vector3<double> axis = read3(el, "joint", cls, "axis", Vector3<double>::UnitZ(), who);
    if (!(axis.norm() > kMinVal)) fail(el, who + ": zero axis");
    j.axis = it.frame.rotation() * axis.normalized();
    const double unit = j.kind == JointInfo::Kind::Slide ? 1.0 : angle(1.0);
    j.ref = read1(el, "joint", cls, "ref", 0.0, who) * unit;
    double range[2] = {0.0, 0.0};
    const bool has_range = read(el, "joint", cls, "range", 2, range, who);
    bool limited = false;
    if (const Attr l = get(el, "joint", cls, "limited")) {
      const std::string k = keyword(l, who, "limited", {"true", "false", "auto"});
      limited = k == "true" || (k == "auto" && compiler_.autolimits && has_range);
    } else {
      limited = compiler_.autolimits && has_range;
    }
    if (limited) {
      if (range[0] > range[1]) fail(el, who + ": range lower limit above the upper limit");
      j.lower = range[0] * unit - j.ref;
      j.upper = range[1] * unit - j.ref;
    }
    b.joints.push_back(j);
  }

  void read_site(const Item& it, int body) {
    const std::string cls = class_of(it.el, it.cls);
    const char* n = it.el->Attribute("name");
    if (!n || !*n) return;  // an unnamed site cannot be asked for
    const std::string who = "site '" + std::string(n) + "'";
    bodies_[body].sites.push_back(SiteInfo{n, it.frame * pose(it.el, "site", cls, who)});
  }

  // ---- inertia ---------------------------------------------------------------------------
  /// Principal moments and axes of I_c, with MuJoCo's compiler rules (balance, bounds) applied.
  Matrix3<double> compiler_rules(double& m, const Matrix3<double>& Ic) const {
    const bool rules = compiler_.balanceinertia || compiler_.boundinertia > 0.0;
    if (compiler_.boundmass > 0.0 && m < compiler_.boundmass) m = compiler_.boundmass;
    if (!rules) return Ic;
    const Eigen::SelfAdjointEigenSolver<Matrix3<double>> es(Ic);
    Vector3<double> d = es.eigenvalues();
    if (compiler_.balanceinertia &&
        (d(0) + d(1) < d(2) || d(0) + d(2) < d(1) || d(1) + d(2) < d(0)))
      d.setConstant(d.sum() / 3.0);
    for (int k = 0; k < 3; ++k) d(k) = std::max(d(k), compiler_.boundinertia);
    return es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
  }

  SpatialInertia<double> body_inertia(int id, const XMLElement* inertial,
                                      const std::vector<Item>& geoms) {
    const BodyInfo& b = bodies_[id];
    const std::string who = "body '" + b.name + "'";
    const bool from_geoms =
        compiler_.inertia_from_geom == 1 || (compiler_.inertia_from_geom == 2 && !inertial);
    double m = 0.0;
    Vector3<double> c = Vector3<double>::Zero();
    Matrix3<double> Ic = Matrix3<double>::Zero();
    const XMLElement* at = inertial ? inertial : b.el;
    if (from_geoms) {
      SpatialInertia<double> sum;
      for (const Item& g : geoms) sum += geom_inertia(g, b.name);
      m = sum.mass();
      if (m > 0.0) {
        c = sum.com();
        Ic = sum.inertia_com();
      }
    } else if (inertial) {
      const std::string iwho = who + " <inertial>";
      const SE3<double> X = pose(inertial, "", "", iwho);
      double v[6];
      if (!read(inertial, "", "", "mass", 1, v, iwho)) fail(inertial, iwho + ": no 'mass'");
      m = v[0];
      c = X.translation();
      const bool diag = inertial->Attribute("diaginertia");
      const bool full = inertial->Attribute("fullinertia");
      if (diag && full) fail(inertial, iwho + ": both diaginertia and fullinertia");
      if (!diag && !full) fail(inertial, iwho + ": no diaginertia or fullinertia");
      if (diag) {
        read(inertial, "", "", "diaginertia", 3, v, iwho);
        Ic = X.rotation() * Vector3<double>(v[0], v[1], v[2]).asDiagonal() *
             X.rotation().transpose();
      } else {
        // MuJoCo's order: Ixx Iyy Izz Ixy Ixz Iyz.
        read(inertial, "", "", "fullinertia", 6, v, iwho);
        Matrix3<double> F;
        F << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        Ic = X.rotation() * F * X.rotation().transpose();
      }
    }
    if (m < 0.0) fail(at, who + ": negative mass");
    Ic = compiler_rules(m, Ic);
    const InertiaReview review = review_inertia(m, Ic, Ic.cwiseAbs().maxCoeff());
    std::vector<ModelDiagnostic> diags;
    double delta = 0.0;
    try {
      delta = apply_inertia_policy(review, opt_.inertia, true, b.name, "", diags);
    } catch (const ModelError& e) {
      fail(at, who + ": " + e.what());
    }
    for (ModelDiagnostic& d : diags) {
      d.message = where(at) + d.message;
      diagnostics_.push_back(d);
    }
    Ic.diagonal().array() += delta;
    return SpatialInertia<double>::from_mass_com_inertia(m, c, Ic);
  }

  /// A primitive geom's inertia in the body frame (MuJoCo's volumes and solid-body formulas).
  SpatialInertia<double> geom_inertia(const Item& it, const std::string& body) const {
    const XMLElement* el = it.el;
    const std::string cls = class_of(el, it.cls);
    const std::string who = "geom " + element_name(el) + "of body '" + body + "'";
    const Attr t = get(el, "geom", cls, "type");
    const std::string type = t ? t.text : "sphere";
    const double group = read1(el, "geom", cls, "group", 0.0, who);
    if (group < compiler_.group_lo || group > compiler_.group_hi) return SpatialInertia<double>();
    double mass = -1.0;
    const bool has_mass = read(el, "geom", cls, "mass", 1, &mass, who);
    const double density = read1(el, "geom", cls, "density", 1000.0, who);
    if (has_mass ? mass == 0.0 : density == 0.0) return SpatialInertia<double>();
    if (type != "sphere" && type != "capsule" && type != "cylinder" && type != "box" &&
        type != "ellipsoid" && type != "mesh")
      fail(el, "body '" + body + "': its inertia would come from a " + type + " geom " +
                   element_name(el) +
                   "(only primitive and inline mesh geoms are supported; give the body an "
                   "<inertial>)");
    if (const Attr s = get(el, "geom", cls, "shellinertia"))
      if (read_bool(s, who, "shellinertia"))
        fail(el, who + ": shellinertia is not supported (give the body an <inertial>)");
    if (type != "mesh")
      if (const Attr ma = get(el, "geom", cls, "mesh"))
        fail(el, who + ": a " + type + " fitted to mesh '" + ma.text +
                     "' (MuJoCo sizes it from the mesh) is not supported; give the body an "
                     "<inertial>");
    if (type == "mesh") {
      const mesh::MassProperties& p = mesh_of(el, cls, who, body);
      return solid_inertia(pose(el, "geom", cls, who), has_mass ? mass : density * p.volume, p.com,
                           p.inertia / p.volume, el, who);
    }
    double size[3] = {0, 0, 0};
    const Attr sa = get(el, "geom", cls, "size");
    const int ns = sa ? std::min(xml::count_tokens(sa.text), 3) : 0;
    if (sa) numbers(sa, who, "size", std::max(ns, 1), size);
    SE3<double> X;
    double ft[6];
    if (read(el, "geom", cls, "fromto", 6, ft, who)) {
      const Vector3<double> a(ft[0], ft[1], ft[2]), b(ft[3], ft[4], ft[5]);
      const Vector3<double> d = b - a;
      if (!(d.norm() > kMinVal)) fail(el, who + ": 'fromto' has coincident ends");
      if (type == "sphere") fail(el, who + ": 'fromto' on a sphere");
      X = SE3<double>(z_rotation(d.normalized()), Vector3<double>(0.5 * (a + b)));
      const double half = 0.5 * d.norm();
      if (type == "capsule" || type == "cylinder") size[1] = half;
      else {
        if (ns < 2) fail(el, who + ": a " + type + " with 'fromto' needs 2 sizes");
        size[2] = half;
      }
    } else {
      X = pose(el, "geom", cls, who);
      const int need = type == "sphere" ? 1 : (type == "capsule" || type == "cylinder") ? 2 : 3;
      if (ns < need)
        fail(el, who + ": a " + type + " needs " + std::to_string(need) + " size numbers");
    }
    for (double s : size)
      if (s < 0.0) fail(el, who + ": negative size");
    double volume = 0.0;
    Vector3<double> I;  // principal moments per unit mass
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
    return solid_inertia(X, has_mass ? mass : density * volume, Vector3<double>::Zero(),
                         Matrix3<double>(I.asDiagonal()), el, who);
  }

  /// A geom of mass m whose centre is c and inertia m I1 about it (I1 per unit mass), both in the
  /// geom frame X, in the body frame.
  SpatialInertia<double> solid_inertia(const SE3<double>& X, double m, const Vector3<double>& c,
                                       const Matrix3<double>& I1, const XMLElement* el,
                                       const std::string& who) const {
    if (m < 0.0) fail(el, who + ": negative mass");
    const Matrix3<double> Ig = X.rotation() * (m * I1) * X.rotation().transpose();
    return SpatialInertia<double>::from_mass_com_inertia(m, X.act_point(c), Ig);
  }

  /// The mass properties of the mesh of a mesh geom (computed once per mesh): MuJoCo's for a mesh
  /// given inline by 'vertex' (and 'face'); a mesh from a file is an error.
  const mesh::MassProperties& mesh_of(const XMLElement* geom, const std::string& cls,
                                      const std::string& who, const std::string& body) const {
    const Attr ma = get(geom, "geom", cls, "mesh");
    if (!ma) fail(geom, who + ": a mesh geom without 'mesh'");
    const auto found = meshes_.find(ma.text);
    if (found == meshes_.end())
      fail(ma.where, who + ": attribute 'mesh': no <mesh> named '" + std::string(ma.text) + "'");
    const XMLElement* el = found->second;
    if (const char* file = el->Attribute("file"))
      fail(geom, "body '" + body + "': its inertia would come from a mesh file '" + file +
                     "' (geom " + element_name(geom) +
                     "; liedyn reads meshes given inline by 'vertex' and 'face'; give the body an "
                     "<inertial>)");
    const auto cached = mesh_props_.find(ma.text);
    if (cached != mesh_props_.end()) return cached->second;
    return mesh_props_[ma.text] = read_mesh(el, "<mesh> '" + std::string(ma.text) + "'");
  }

  /// An inline <mesh>'s vertices, faces, scale and inertia mode, and its mass properties.
  mesh::MassProperties read_mesh(const XMLElement* el, const std::string& who) const {
    const std::string cls = class_of(el, "main");
    for (const char* attr : {"plugin", "refpos", "refquat", "content_type"})
      if (get(el, "mesh", cls, attr)) fail(el, who + ": attribute '" + attr + "' is not supported");
    const Attr va = get(el, "mesh", cls, "vertex");
    if (!va) fail(el, who + ": no 'vertex' (and no 'file')");
    const std::vector<double> v = number_list(va, who, "vertex");
    if (v.size() % 3 != 0)
      fail(va.where, who + ": attribute 'vertex': not a multiple of 3 numbers");
    std::vector<Eigen::Vector3d> vertices;
    for (std::size_t k = 0; k < v.size(); k += 3) vertices.emplace_back(v[k], v[k + 1], v[k + 2]);
    std::vector<Eigen::Vector3i> faces;
    if (const Attr fa = get(el, "mesh", cls, "face")) {
      const std::vector<double> f = number_list(fa, who, "face");
      if (f.size() % 3 != 0)
        fail(fa.where, who + ": attribute 'face': not a multiple of 3 numbers");
      for (double i : f)
        if (i != std::floor(i) || i < 0.0 || i >= static_cast<double>(vertices.size()))
          fail(fa.where,
               who + ": attribute 'face': " + std::to_string(i) + " is not the index of a vertex");
      for (std::size_t k = 0; k < f.size(); k += 3)
        faces.emplace_back(int(f[k]), int(f[k + 1]), int(f[k + 2]));
    }
    const Vector3<double> scale = read3(el, "mesh", cls, "scale", Vector3<double>::Ones(), who);
    mesh::InertiaMode mode = mesh::InertiaMode::legacy;  // MuJoCo 4's default
    if (const Attr ia = get(el, "mesh", cls, "inertia")) {
      const std::string k = keyword(ia, who, "inertia", {"legacy", "exact", "convex", "shell"});
      if (k == "shell") fail(ia.where, who + ": inertia='shell' is not supported");
      mode = k == "exact"    ? mesh::InertiaMode::exact
             : k == "convex" ? mesh::InertiaMode::convex
                             : mesh::InertiaMode::legacy;
    }
    // qhull's vertex limit changes the hull; liedyn's hull keeps every vertex.
    const double maxhullvert = read1(el, "mesh", cls, "maxhullvert", -1.0, who);
    if (maxhullvert >= 0.0 && maxhullvert < static_cast<double>(vertices.size()) &&
        (faces.empty() || mode == mesh::InertiaMode::convex))
      fail(el, who + ": maxhullvert below the number of vertices is not supported");
    try {
      return mesh::mesh_properties(vertices, faces, scale, mode);
    } catch (const std::invalid_argument& e) {
      fail(el, who + ": " + e.what());
    }
  }

  std::vector<double> number_list(const Attr& a, const std::string& who, const char* attr) const {
    std::vector<double> out(static_cast<std::size_t>(xml::count_tokens(a.text)));
    if (!out.empty()) numbers(a, who, attr, static_cast<int>(out.size()), out.data());
    return out;
  }

  // ---- the model ---------------------------------------------------------------------------
  Model<double> build() {
    // One world body for all <worldbody> elements (MuJoCo merges them).
    BodyInfo world;
    world.name = "world";
    world.el = worldbodies_.front();
    bodies_.push_back(world);
    body_names_.insert("world");
    std::vector<Item> items;
    for (const XMLElement* w : worldbodies_) collect(w, SE3<double>(), "main", items);
    for (const Item& it : items) {
      const std::string kind = it.el->Name();
      if (kind == "body") read_body(it.el, 0, it.frame, it.cls);
      else if (kind == "site") read_site(it, 0);
      else if (kind == "geom") bodies_[0].geoms.push_back(it);
      else if (kind == "joint" || kind == "freejoint" || kind == "inertial")
        fail(it.el, "<" + kind + "> directly in <worldbody>");
      else if (kind != "camera" && kind != "light")
        fail(it.el, "<" + kind + "> in <worldbody> is not supported");
    }
    // After the tree, so that an error in the tree is reported first.
    for (const XMLElement* el : constraint_sections_) {
      const std::string n = el->Name();
      for (const XMLElement* c : children(el))
        unsupported(c, "<" + n + "><" + c->Name() + "> " + element_name(c) +
                           "is not supported yet (liedyn has no " +
                           (n == "tendon" ? "tendons" : "equality constraints from MJCF") + ")");
    }
    if (!equality_out_)
      for (const XMLElement* el : equality_sections_)
        for (const XMLElement* c : children(el))
          unsupported(c, "<equality><" + std::string(c->Name()) + "> " + element_name(c) +
                             "needs load_mjcf_robot_file or load_mjcf_robot_string (they return "
                             "the equality constraints as a ConstraintSet)");
    const int nb = static_cast<int>(bodies_.size());
    for (int i = 1; i < nb; ++i)
      bodies_[i].inertia = body_inertia(i, bodies_[i].inertial, bodies_[i].geoms);
    std::vector<char> has_joint_below(nb, 0);
    for (int i = nb - 1; i > 0; --i) {
      if (!bodies_[i].joints.empty() || bodies_[i].free_joint) has_joint_below[i] = 1;
      if (has_joint_below[i]) has_joint_below[bodies_[i].parent] = 1;
    }
    std::vector<int> world_kids;
    int free_body = -1;
    for (int i = 1; i < nb; ++i) {
      if (bodies_[i].parent == 0) world_kids.push_back(i);
      if (!bodies_[i].free_joint) continue;
      if (free_body >= 0)
        fail(bodies_[i].free_joint, "body '" + bodies_[i].name + "': a second free body ('" +
                                        bodies_[free_body].name +
                                        "' is the first); a model is one tree");
      free_body = i;
    }
    int root = -1;  // the MuJoCo body that becomes the base; -1: the world
    if (free_body >= 0) {
      root = free_body;
      for (int k : world_kids) {
        if (k == free_body) continue;
        if (has_joint_below[k])
          fail(bodies_[k].el, "body '" + bodies_[k].name +
                                  "': a second kinematic tree beside "
                                  "the free body '" +
                                  bodies_[free_body].name + "'; a model is one tree");
        diagnostics_.push_back(ModelDiagnostic{
            bodies_[k].name, DiagnosticKind::ignored_element,
            where(bodies_[k].el) + "body '" + bodies_[k].name +
                "' is fixed to the world, which a moving-base model does not contain; ignored",
            0.0});
      }
      if (!bodies_[0].sites.empty() || !bodies_[0].geoms.empty())
        diagnostics_.push_back(ModelDiagnostic{
            "world", DiagnosticKind::ignored_element,
            where(worldbodies_.front()) +
                "the world body's own geoms and sites are not part of a moving-base model; "
                "ignored",
            0.0});
    } else if (world_kids.size() == 1 && bodies_[world_kids[0]].joints.empty()) {
      root = world_kids[0];
    }

    const std::string base_name = root >= 0 ? bodies_[root].name : "world";
    moving_base_ = free_body >= 0;
    ModelBuilder<double> b(free_body >= 0 ? BaseType::Moving : BaseType::Welded, base_name);
    b.set_inertia_check(InertiaCheck::PositiveDefinite);  // checked as written, above
    for (const ModelDiagnostic& d : diagnostics_) b.add_diagnostic(d);
    Vector3<double> g = gravity_disabled_ ? Vector3<double>::Zero() : gravity_;
    if (opt_.gravity) g = *opt_.gravity;
    try {
      b.set_gravity(g);
      if (root >= 0) b.set_base_inertia(bodies_[root].inertia);
      if (root >= 0 && free_body < 0) b.set_welded_base_pose(world_pose(root));
    } catch (const ModelError& e) {
      fail(strip_prefix(e.what()));
    }
    // entity[i]: the liedyn body (or fixed body) carrying MuJoCo body i, and ^{entity}H_{i}.
    std::vector<std::string> entity(nb);
    std::vector<SE3<double>> entity_H(nb);
    entity[0] = base_name;
    if (root >= 0) {
      entity[root] = base_name;
      entity_H[0] = free_body >= 0 ? SE3<double>() : world_pose(root).inverse();
    }
    for (int i = 1; i < nb; ++i) {
      if (i == root) continue;
      const BodyInfo& bi = bodies_[i];
      if (free_body >= 0 && bi.parent == 0) continue;  // dropped: fixed to the world
      if (free_body >= 0 && entity[bi.parent].empty()) continue;
      const SE3<double> X = entity_H[bi.parent] * bi.pose;
      try {
        if (bi.joints.empty()) {
          b.add_fixed_body(entity[bi.parent], bi.name, X, bi.inertia);
          entity[i] = bi.name;
          continue;
        }
        std::string parent = entity[bi.parent];
        SE3<double> placement = X;
        const int k = static_cast<int>(bi.joints.size());
        for (int j = 0; j < k; ++j) {
          const JointInfo& ji = bi.joints[j];
          placement = placement * SE3<double>(Matrix3<double>::Identity(), ji.pos);
          const bool last = j == k - 1;
          const std::string name = last && ji.pos.isZero(0.0) ? bi.name : bi.name + "/" + ji.name;
          JointSpec<double> spec = ji.kind == JointInfo::Kind::Ball
                                       ? JointSpec<double>::spherical(ji.name, placement)
                                   : ji.kind == JointInfo::Kind::Slide
                                       ? JointSpec<double>::prismatic(ji.name, ji.axis, placement)
                                       : JointSpec<double>::revolute(ji.name, ji.axis, placement);
          if (ji.kind != JointInfo::Kind::Ball) {
            spec.lower = ji.lower;
            spec.upper = ji.upper;
            qpos0_[ji.name] = ji.ref;
          }
          spec.armature = ji.armature;
          const SE3<double> back(Matrix3<double>::Identity(), Vector3<double>(-ji.pos));
          b.add_body(parent, name, spec,
                     last ? bi.inertia.transformed(back) : SpatialInertia<double>());
          parent = name;
          placement = back;
        }
        entity[i] = parent;
        entity_H[i] = placement;
        if (parent != bi.name) b.add_frame(bi.name, parent, placement);
      } catch (const ModelError& e) {
        fail(bi.el, strip_prefix(e.what()));
      }
    }
    for (int i = 0; i < nb; ++i) {
      if (entity[i].empty() || (i == 0 && free_body >= 0)) continue;
      for (const SiteInfo& s : bodies_[i].sites) {
        try {
          b.add_frame(s.name, entity[i], entity_H[i] * s.placement);
        } catch (const ModelError& e) {
          fail(bodies_[i].el, "site '" + s.name + "': " + strip_prefix(e.what()));
        }
      }
    }
    if (equality_out_) {
      int id = 0;
      for (const XMLElement* el : equality_sections_)
        for (const XMLElement* c : children(el)) read_equality(c, id++, b, entity, entity_H);
    }
    try {
      return b.build();
    } catch (const ModelError& e) {
      fail(strip_prefix(e.what()));
    }
  }

  // ---- equality constraints ----------------------------------------------------------------
  int body_index(const XMLElement* el, const char* attr, const std::string& who) const {
    const std::string name = name_attr(el, attr, who);
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].name == name) return static_cast<int>(i);
    fail(el, who + ": attribute '" + attr + "': no body named '" + name + "'");
  }

  /// The liedyn frame name of site `attr`, its MuJoCo body and its placement there.
  std::string site_frame(const XMLElement* el, const char* attr, const std::string& who, int& body,
                         SE3<double>& placement) const {
    const std::string name = name_attr(el, attr, who);
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      for (const SiteInfo& st : bodies_[i].sites)
        if (st.name == name) {
          body = static_cast<int>(i);
          placement = st.placement;
          return name;
        }
    fail(el, who + ": attribute '" + attr + "': no site named '" + name + "'");
  }

  /// One <equality> child as a ConstraintSpec (docs/loading.md, "Equality constraints"): connect
  /// a ball loop, weld a rigid loop, joint a coupling; frames 1 and 2 are MuJoCo's body1 (site1)
  /// and body2 (site2) sides, rows in mixed sense.
  void read_equality(const XMLElement* el, int id, ModelBuilder<double>& b,
                     const std::vector<std::string>& entity,
                     const std::vector<SE3<double>>& entity_H) {
    const std::string kind = el->Name();
    const std::string cls = class_of(el, "main");
    const std::string name = el->Attribute("name") && *el->Attribute("name")
                                 ? el->Attribute("name")
                                 : "equality" + std::to_string(id);
    const std::string who = "<equality><" + kind + "> '" + name + "'";
    // The builder took the diagnostics so far: a skipped equality's goes to it directly.
    const auto skip = [&](const std::string& what) {
      unsupported(el, what);
      b.add_diagnostic(diagnostics_.back());
    };
    if (kind != "connect" && kind != "weld" && kind != "joint") {
      skip(who + " is not supported (liedyn converts connect, weld and joint)");
      return;
    }
    if (const Attr a = get(el, "equality", cls, "active"))
      if (!read_bool(a, who, "active")) {
        b.add_diagnostic(
            ModelDiagnostic{name, DiagnosticKind::ignored_element,
                            where(el) + who + " is inactive (active='false'); not converted", 0.0});
        return;
      }
    ConstraintSpec<double> spec;
    if (kind == "joint") {
      const std::string j1 = name_attr(el, "joint1", who);
      double poly[5] = {0.0, 1.0, 0.0, 0.0, 0.0};
      // MuJoCo reads up to 5 numbers; the ones not written keep the default 0 1 0 0 0.
      if (const Attr pa = get(el, "", "", "polycoef"))
        numbers(pa, who, "polycoef", std::min(std::max(xml::count_tokens(pa.text), 1), 5), poly);
      if (!qpos0_.count(j1))
        fail(el, who + ": attribute 'joint1': no hinge or slide joint named '" + j1 + "'");
      if (!el->Attribute("joint2")) {
        skip(who +
             ": a joint equality without joint2 (joint1 held at a constant) is "
             "not supported yet");
        return;
      }
      const std::string j2 = name_attr(el, "joint2", who);
      if (!qpos0_.count(j2))
        fail(el, who + ": attribute 'joint2': no hinge or slide joint named '" + j2 + "'");
      if (poly[2] != 0.0 || poly[3] != 0.0 || poly[4] != 0.0) {
        skip(who +
             ": polycoef of degree above 1 is not supported (liedyn's couplings "
             "are linear)");
        return;
      }
      spec = ConstraintSpec<double>::coupling(j1, j2, poly[1], poly[0]);
      spec.name = name;
      equality_out_->push_back(spec);
      return;
    }
    const bool weld = kind == "weld";
    const bool by_site = el->Attribute("site1") || el->Attribute("site2");
    int body1 = -1, body2 = -1;
    std::string frame1, frame2;
    ConstraintType type = weld ? ConstraintType::RigidLoop : ConstraintType::BallLoop;
    if (weld) {
      double torquescale = 1.0;
      read(el, "", "", "torquescale", 1, &torquescale, who);
      // MuJoCo scales the rotational rows; zero removes them, leaving the weld point.
      if (torquescale == 0.0) type = ConstraintType::BallLoop;
    }
    SE3<double> F1, F2;  // in body1's and body2's frames; they coincide at qpos0
    std::optional<Vector3<double>> planar_axis;  // a body-based connect closing a planar loop
    if (by_site) {
      for (const char* attr : {"body1", "body2", "anchor", "relpose"})
        if (el->Attribute(attr))
          fail(el, who + ": attribute '" + attr +
                       "' with site1 and site2 (MuJoCo takes sites or bodies, not both)");
      frame1 = site_frame(el, "site1", who, body1, F1);
      frame2 = site_frame(el, "site2", who, body2, F2);
    } else {
      body1 = body_index(el, "body1", who);
      body2 = el->Attribute("body2") ? body_index(el, "body2", who) : 0;
      const SE3<double> H1 = world_pose(body1), H2 = world_pose(body2);
      if (weld) {
        const Vector3<double> anchor = read3(el, "", "", "anchor", Vector3<double>::Zero(), who);
        double rel[7] = {0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        read(el, "", "", "relpose", 7, rel, who);
        const Eigen::Vector4d q(rel[3], rel[4], rel[5], rel[6]);
        F2 = SE3<double>(Matrix3<double>::Identity(), anchor);
        if (q.isZero(0.0)) {
          F1 = H1.inverse() * H2 * F2;
        } else {
          const Eigen::Quaterniond rq(q(0) / q.norm(), q(1) / q.norm(), q(2) / q.norm(),
                                      q(3) / q.norm());
          F1 = SE3<double>(rq.toRotationMatrix(), Vector3<double>(rel[0], rel[1], rel[2]));
        }
      } else {
        if (!el->Attribute("anchor")) fail(el, who + ": no attribute 'anchor'");
        F1 = SE3<double>(Matrix3<double>::Identity(),
                         read3(el, "", "", "anchor", Vector3<double>::Zero(), who));
        F2 = SE3<double>(Matrix3<double>::Identity(), (H2.inverse() * H1 * F1).translation());
        planar_axis = planar_loop_axis(body1, body2);
        if (planar_axis) {
          // Frame 2's z along the hinges (both frames coincide at qpos0): its rows across them.
          const Vector3<double> n = H2.rotation().transpose() * *planar_axis;
          F2 = SE3<double>(
              Eigen::Quaterniond::FromTwoVectors(Vector3<double>::UnitZ(), n).toRotationMatrix(),
              F2.translation());
          F1 = H1.inverse() * H2 * F2;
        }
      }
      frame1 = name + "/1";
      frame2 = name + "/2";
    }
    // A side on the world or on a body fixed to it, which a moving-base model does not contain,
    // is the environment: the other side becomes a contact with its desired placement there.
    const auto in_world = [&](int body) {
      return entity[body].empty() || (body == 0 && moving_base_);
    };
    const bool fixed1 = in_world(body1), fixed2 = in_world(body2);
    if (fixed1 && fixed2) fail(el, who + ": both sides are fixed to the world");
    if (!fixed1 && !fixed2 && entity[body1] == entity[body2])
      fail(el, who + ": both sides are on the same rigid body '" + entity[body1] + "'");
    try {
      if (!by_site && !fixed1) b.add_frame(frame1, entity[body1], entity_H[body1] * F1);
      if (!by_site && !fixed2) b.add_frame(frame2, entity[body2], entity_H[body2] * F2);
    } catch (const ModelError& e) {
      fail(el, who + ": " + strip_prefix(e.what()));
    }
    if (fixed1 || fixed2) {
      const bool rigid = type == ConstraintType::RigidLoop;
      const std::string& frame = fixed1 ? frame2 : frame1;
      spec = rigid ? ConstraintSpec<double>::rigid_contact(frame, TwistRepresentation::Mixed)
                   : ConstraintSpec<double>::point_contact(frame, TwistRepresentation::Mixed);
      spec.placement = fixed1 ? world_pose(body1) * F1 : world_pose(body2) * F2;
    } else if (planar_axis && !fixed1 && !fixed2) {
      // MuJoCo's three rows have rank 2 at every configuration: the loop moves in the plane
      // across the hinges, so the relative velocity along them vanishes. Its two independent rows
      // are the ones across the axis, in frame 2's axes (which turn about it).
      spec = ConstraintSpec<double>::loop(type, frame1, frame2, TwistRepresentation::Body);
      spec.components = {0, 1};
      b.add_diagnostic(ModelDiagnostic{
          name, DiagnosticKind::ignored_element,
          where(el) + who +
              " closes a planar loop (hinges about one axis): its row along the axis is zero at "
              "every configuration and is left out (rows across the axis, in frame 2's axes)",
          0.0});
    } else {
      spec = ConstraintSpec<double>::loop(type, frame1, frame2, TwistRepresentation::Mixed);
    }
    spec.name = name;
    equality_out_->push_back(spec);
  }

  /// The hinges' common axis (world coordinates at qpos0) when the loop through bodies a and b
  /// — every joint on their paths up to the lowest common ancestor — is planar: hinges about
  /// one axis, and slides across it. The relative motion of a and b then stays in the plane
  /// across the axis at every configuration.
  std::optional<Vector3<double>> planar_loop_axis(int a, int b) const {
    auto depth = [&](int i) {
      int d = 0;
      for (; i > 0; i = bodies_[i].parent) ++d;
      return d;
    };
    std::vector<int> path;
    int da = depth(a), db = depth(b);
    for (; da > db; --da, a = bodies_[a].parent) path.push_back(a);
    for (; db > da; --db, b = bodies_[b].parent) path.push_back(b);
    for (; a != b; a = bodies_[a].parent, b = bodies_[b].parent) {
      path.push_back(a);
      path.push_back(b);
    }
    const double tol = 1e-12;
    std::optional<Vector3<double>> axis;
    std::vector<Vector3<double>> slides;
    for (int i : path) {
      if (bodies_[i].free_joint) return std::nullopt;
      const Matrix3<double> R = world_pose(i).rotation();
      for (const JointInfo& j : bodies_[i].joints) {
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

  SE3<double> world_pose(int i) const {
    SE3<double> H;
    for (; i > 0; i = bodies_[i].parent) H = bodies_[i].pose * H;
    return H;
  }

  std::string main_path_;
  MjcfOptions opt_;
  std::vector<std::pair<std::unique_ptr<XMLDocument>, std::string>> docs_;
  std::map<const XMLElement*, const XMLElement*> included_;
  std::map<std::string, DefaultClass> classes_;
  Compiler compiler_;
  Vector3<double> gravity_{0.0, 0.0, -9.81};
  bool gravity_disabled_ = false;
  std::vector<const XMLElement*> worldbodies_;
  std::vector<const XMLElement*> constraint_sections_;  // <tendon>
  std::vector<const XMLElement*> equality_sections_;
  std::vector<ConstraintSpec<double>>* equality_out_ = nullptr;  // null: <equality> unsupported
  std::map<std::string, double> qpos0_;
  std::map<std::string, const XMLElement*> meshes_;                 // <asset><mesh> by name
  mutable std::map<std::string, mesh::MassProperties> mesh_props_;  // computed on first use
  bool moving_base_ = false;  // per joint name: MuJoCo's qpos0
  std::vector<BodyInfo> bodies_;
  std::set<std::string> body_names_, joint_names_;
  int joint_count_ = 0;
  std::vector<ModelDiagnostic> diagnostics_;
};

}  // namespace mjcf
}  // namespace detail

/// Loads a robot from MJCF text (MuJoCo's XML; see docs/loading.md). <include> paths are relative
/// to the current directory. Throws ModelError (what and where) on anything it cannot represent.
inline Model<double> load_mjcf_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::Reader("", options).load(xml);
}

/// Loads a robot from an MJCF file; <include> paths are relative to its folder. Throws ModelError
/// if a file can't be read or on anything the loader cannot represent (the message names the file
/// and line).
inline Model<double> load_mjcf_file(const std::string& path, const MjcfOptions& options = {}) {
  detail::mjcf::Reader reader(path, options);
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) reader.fail(why);
  return reader.load(text);
}

/// Loads a robot and its <equality> constraints from MJCF text (see MjcfRobot); <include> paths
/// are relative to the current directory. Throws ModelError as load_mjcf_string does; an equality
/// liedyn cannot represent (tendon, flex, a polynomial of degree above 1, a joint equality
/// without joint2) is an error naming it, or one diagnostic each under
/// MjcfOptions::unsupported = skip.
inline MjcfRobot load_mjcf_robot_string(const std::string& xml, const MjcfOptions& options = {}) {
  return detail::mjcf::Reader("", options).load_robot(xml);
}

/// Loads a robot and its <equality> constraints from an MJCF file (see load_mjcf_robot_string);
/// <include> paths are relative to its folder.
inline MjcfRobot load_mjcf_robot_file(const std::string& path, const MjcfOptions& options = {}) {
  detail::mjcf::Reader reader(path, options);
  std::string text;
  if (const char* why = detail::xml::read_file(path, text)) reader.fail(why);
  return reader.load_robot(text);
}

}  // namespace liedyn
