// liedyn — model: the MJCF loader's first stage (mjcf.hpp): the parsed files with their
// <include>s, compiler settings, default classes, <option> and meshes, and the helpers that read
// attributes and report errors with a file and line. Internal (detail::mjcf).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <tinyxml2.h>

#include "liedyn/model/mjcf/options.hpp"
#include "liedyn/model/model.hpp"
#include "liedyn/model/xml_common.hpp"

namespace liedyn {
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

/// <compiler inertiafromgeom>: a body's inertia comes from its geoms never (false), always
/// (true), or when the body has no <inertial> (auto).
enum class InertiaFromGeom { never, always, without_inertial };

/// The <compiler> settings the loader reproduces, with MuJoCo's defaults.
struct Compiler {
  bool degree = true;
  std::string eulerseq = "xyz";
  bool autolimits = true;
  InertiaFromGeom inertia_from_geom = InertiaFromGeom::without_inertial;  // MuJoCo's auto
  double boundmass = 0.0, boundinertia = 0.0;
  bool balanceinertia = false;
  int group_lo = 0, group_hi = 5;
};

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
    doc.compiler.inertia_from_geom = k == "false"  ? InertiaFromGeom::never
                                     : k == "true" ? InertiaFromGeom::always
                                                   : InertiaFromGeom::without_inertial;
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

}  // namespace mjcf
}  // namespace detail
}  // namespace liedyn
