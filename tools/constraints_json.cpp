#include "constraints_json.hpp"

#include <cmath>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace liedyn_cli {

using json = nlohmann::json;
using liedyn::ConstraintSpec;
using liedyn::ConstraintType;
using liedyn::TwistRepresentation;

namespace {

/// "<file>: <where>: <what>" errors, and the value checks of one document.
struct Reader {
  std::string file;

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(file + ": " + (where.empty() ? std::string() : where + ": ") + what);
  }

  static std::string kind(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_string()) return "a string (\"" + v.get<std::string>().substr(0, 24) + "\")";
    if (v.is_array()) return "an array of " + std::to_string(v.size());
    if (v.is_object()) return "an object";
    return "a number";
  }

  void object(const json& v, const std::string& where) const {
    if (!v.is_object())
      fail(where.empty() ? "the document" : where, "expected an object, got " + kind(v));
  }

  void keys(const json& obj, const std::string& where,
            std::initializer_list<const char*> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      std::string list;
      for (const char* a : allowed) {
        ok = ok || it.key() == a;
        list += (list.empty() ? "" : ", ") + std::string(a);
      }
      if (!ok) fail(where, "unknown field '" + it.key() + "' (expected: " + list + ")");
    }
  }

  const json* optional(const json& obj, const char* key) const {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  const json& required(const json& obj, const char* key, const std::string& where) const {
    const json* v = optional(obj, key);
    if (!v) fail(where + "." + key, "missing");
    return *v;
  }

  std::string string(const json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "expected a string, got " + kind(v));
    return v.get<std::string>();
  }

  double number(const json& v, const std::string& where) const {
    if (!v.is_number()) fail(where, "expected a number, got " + kind(v));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(where, "not a finite number");
    return x;
  }

  /// One of `names` (the index of the match).
  int choice(const json& v, const std::string& where,
             std::initializer_list<const char*> names) const {
    const std::string s = string(v, where);
    int k = 0;
    std::string list;
    for (const char* n : names) {
      if (s == n) return k;
      list += (list.empty() ? "" : ", ") + std::string(n);
      ++k;
    }
    fail(where, "'" + s + "' is not one of " + list);
  }

  TwistRepresentation sense(const json& entry, const std::string& where) const {
    const json* v = optional(entry, "sense");
    if (!v) return TwistRepresentation::Body;
    const TwistRepresentation senses[] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                          TwistRepresentation::Mixed};
    return senses[choice(*v, where + ".sense", {"body", "inertial", "mixed"})];
  }

  std::string frame(const json& entry, const char* key, const std::string& where,
                    const liedyn::Model<double>& model) const {
    const std::string name = string(required(entry, key, where), where + "." + key);
    if (model.frame_id(name) < 0)
      fail(where + "." + key, "the model has no frame named '" + name + "'");
    return name;
  }

  std::string joint(const json& entry, const char* key, const std::string& where,
                    const liedyn::Model<double>& model) const {
    const std::string name = string(required(entry, key, where), where + "." + key);
    if (model.joint_id(name) < 1)
      fail(where + "." + key, "the model has no movable joint named '" + name + "'");
    return name;
  }

  const json& array(const json& doc, const char* key) const {
    const json& v = doc.at(key);
    if (!v.is_array()) fail(key, "expected an array, got " + kind(v));
    return v;
  }
};

}  // namespace

ConstraintsInput parse_constraints(const json& doc, const liedyn::Model<double>& model,
                                   const std::string& path) {
  const Reader r{path};
  r.object(doc, "");
  r.keys(doc, "", {"contacts", "loops", "couplings", "restitution"});
  ConstraintsInput in;
  if (r.optional(doc, "contacts")) {
    const json& list = r.array(doc, "contacts");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string where = "contacts[" + std::to_string(k) + "]";
      const json& e = list[k];
      r.object(e, where);
      r.keys(e, where, {"frame", "type", "sense"});
      const std::string frame = r.frame(e, "frame", where, model);
      const int type = r.choice(r.required(e, "type", where), where + ".type", {"point", "rigid"});
      const TwistRepresentation sense = r.sense(e, where);
      in.specs.push_back(type == 0 ? ConstraintSpec<double>::point_contact(frame, sense)
                                   : ConstraintSpec<double>::rigid_contact(frame, sense));
    }
  }
  if (r.optional(doc, "loops")) {
    const json& list = r.array(doc, "loops");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string where = "loops[" + std::to_string(k) + "]";
      const json& e = list[k];
      r.object(e, where);
      r.keys(e, where, {"frame1", "frame2", "type", "axis", "sense"});
      const std::string f1 = r.frame(e, "frame1", where, model),
                        f2 = r.frame(e, "frame2", where, model);
      if (f1 == f2) r.fail(where, "frame1 and frame2 are the same frame '" + f1 + "'");
      const ConstraintType types[] = {ConstraintType::RigidLoop, ConstraintType::BallLoop,
                                      ConstraintType::RevoluteLoop, ConstraintType::PrismaticLoop};
      const ConstraintType type = types[r.choice(r.required(e, "type", where), where + ".type",
                                                 {"rigid", "ball", "revolute", "prismatic"})];
      const bool jointed =
          type == ConstraintType::RevoluteLoop || type == ConstraintType::PrismaticLoop;
      const TwistRepresentation sense = r.sense(e, where);
      Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
      const json* a = r.optional(e, "axis");
      if (jointed && !a)
        r.fail(where + ".axis", "missing: a revolute or prismatic loop needs its axis (in frame2)");
      if (!jointed && a) r.fail(where + ".axis", "only revolute and prismatic loops have an axis");
      if (a) {
        if (!a->is_array() || a->size() != 3)
          r.fail(where + ".axis", "expected 3 numbers, got " + Reader::kind(*a));
        for (int i = 0; i < 3; ++i)
          axis(i) = r.number((*a)[i], where + ".axis[" + std::to_string(i) + "]");
        if (!(axis.norm() > 1e-12)) r.fail(where + ".axis", "the axis must not be zero");
      }
      if (jointed && sense == TwistRepresentation::Inertial)
        r.fail(where + ".sense",
               "a revolute or prismatic loop has no inertial sense: use body or mixed");
      in.specs.push_back(ConstraintSpec<double>::loop(type, f1, f2, sense, axis));
    }
  }
  if (r.optional(doc, "couplings")) {
    const json& list = r.array(doc, "couplings");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string where = "couplings[" + std::to_string(k) + "]";
      const json& e = list[k];
      r.object(e, where);
      r.keys(e, where, {"joint", "master", "ratio", "offset"});
      const std::string j = r.joint(e, "joint", where, model),
                        i = r.joint(e, "master", where, model);
      if (i == j) r.fail(where, "joint '" + j + "' is coupled to itself");
      const double ratio = r.number(r.required(e, "ratio", where), where + ".ratio");
      const json* off = r.optional(e, "offset");
      in.specs.push_back(ConstraintSpec<double>::coupling(
          j, i, ratio, off ? r.number(*off, where + ".offset") : 0.0));
    }
  }
  if (const json* e = r.optional(doc, "restitution")) {
    in.restitution = r.number(*e, "restitution");
    if (in.restitution < 0 || in.restitution > 1) r.fail("restitution", "must lie in [0, 1]");
  }
  if (in.specs.empty()) r.fail("", "no constraints (give contacts, loops or couplings)");
  return in;
}

}  // namespace liedyn_cli
