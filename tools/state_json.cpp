#include "state_json.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace liedyn_cli {

using json = nlohmann::json;
using liedyn::TwistRepresentation;

namespace {

/// Error reporting: "<file>: <where>: <what>".
struct Ctx {
  std::string file;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(file + ": " + (where.empty() ? std::string() : where + ": ") + what);
  }
};

std::string join(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

/// "a string (\"NaN\")", "null", "an array", ...: what was found instead.
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      std::string s = v.get<std::string>();
      if (s.size() > 24) s = s.substr(0, 21) + "...";
      return "a string (\"" + s + "\")";
    }
    case json::value_t::array: return "an array of " + std::to_string(v.size());
    case json::value_t::object: return "an object";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "an invalid value";
  }
}

void require_object(const Ctx& c, const json& v, const std::string& where) {
  if (!v.is_object())
    c.fail(where.empty() ? "the document" : where, "expected an object, got " + describe(v));
}

/// Rejects keys outside `allowed` (catches typos such as "quaternon").
void check_keys(const Ctx& c, const json& obj, const std::string& where,
                const std::vector<const char*>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || it.key() == a;
    if (ok) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    c.fail(where.empty() ? std::string() : where,
           "unknown field '" + it.key() + "' (expected: " + list + ")");
  }
}

const json* find(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json& need(const Ctx& c, const json& obj, const char* key, const std::string& where) {
  const json* v = find(obj, key);
  if (!v) c.fail(join(where, key), "missing");
  return *v;
}

double number(const Ctx& c, const json& v, const std::string& where) {
  if (!v.is_number()) c.fail(where, "expected a number, got " + describe(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) c.fail(where, "not a finite number");
  return d;
}

liedyn::VectorX<double> numbers(const Ctx& c, const json& v, int count, const std::string& where) {
  const std::string expected = std::to_string(count) + " numbers";
  if (!v.is_array()) c.fail(where, "expected an array of " + expected + ", got " + describe(v));
  if (v.size() != static_cast<std::size_t>(count))
    c.fail(where, "expected " + expected + ", got " + std::to_string(v.size()));
  liedyn::VectorX<double> out(count);
  for (int k = 0; k < count; ++k)
    out(k) = number(c, v[static_cast<std::size_t>(k)], where + "[" + std::to_string(k) + "]");
  return out;
}

template <int N>
Eigen::Matrix<double, N, 1> numbers(const Ctx& c, const json& v, const std::string& where) {
  return numbers(c, v, N, where);
}

TwistRepresentation representation(const Ctx& c, const json& v, const std::string& where) {
  if (!v.is_string())
    c.fail(where, "expected \"body\", \"inertial\" or \"mixed\", got " + describe(v));
  const std::string s = v.get<std::string>();
  if (s == "body") return TwistRepresentation::Body;
  if (s == "inertial") return TwistRepresentation::Inertial;
  if (s == "mixed") return TwistRepresentation::Mixed;
  c.fail(where, "'" + s + "' is not one of body, inertial, mixed");
}

/// A unit quaternion [x, y, z, w]: the base's orientation, a spherical or free joint's.
liedyn::Vector4<double> unit_quaternion(const Ctx& c, const json& v, const std::string& where) {
  const liedyn::Vector4<double> q = numbers<4>(c, v, where);
  const double norm = q.norm();
  if (!(liedyn::quaternion_defect(q) <= liedyn::rotation_tolerance)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "not a unit quaternion: its norm is " << norm << " (it must be 1 within "
        << liedyn::rotation_tolerance
        << "; liedyn does not normalize it silently). Order: [x, y, z, w]";
    c.fail(where, msg.str());
  }
  return q;
}

/// Whether the base's pose fields may be left out (a welded base: the identity then).
enum class PoseFields { required, optional };

/// The base pose: "position" [x, y, z] and "quaternion" [x, y, z, w].
liedyn::SE3<double> base_pose(const Ctx& c, const json& base, PoseFields fields) {
  liedyn::Vector3<double> p = liedyn::Vector3<double>::Zero();
  liedyn::Vector4<double> q(0, 0, 0, 1);
  if (const json* v = find(base, "position")) p = numbers<3>(c, *v, "base.position");
  else if (fields == PoseFields::required) c.fail("base.position", "missing");
  if (const json* v = find(base, "quaternion")) q = unit_quaternion(c, *v, "base.quaternion");
  else if (fields == PoseFields::required) c.fail("base.quaternion", "missing");
  return liedyn::SE3<double>(liedyn::SO3<double>::from_quaternion(q), p);
}

/// The fields of a joint's entry: its configuration's, which depend on its type, then velocity
/// and acceleration.
std::vector<const char*> joint_fields(liedyn::JointType type) {
  switch (type) {
    case liedyn::JointType::Spherical: return {"quaternion", "velocity", "acceleration"};
    case liedyn::JointType::Free: return {"position", "quaternion", "velocity", "acceleration"};
    case liedyn::JointType::Planar: return {"position", "angle", "velocity", "acceleration"};
    default: return {"position", "velocity", "acceleration"};
  }
}

/// A joint's configuration from its entry `e`, in the library's coordinates (joints/*.hpp): a
/// 1-DoF joint's number, a universal joint's two angles, a spherical joint's quaternion, a free
/// joint's position and quaternion, a planar joint's (x, y, cos θ, sin θ) from "position" [x, y]
/// and "angle" θ.
liedyn::VectorX<double> joint_configuration(const Ctx& c, const json& e,
                                            const liedyn::Joint<double>& joint,
                                            const std::string& where) {
  const std::string position = where + ".position", quaternion = where + ".quaternion";
  liedyn::VectorX<double> q(joint.nq());
  switch (joint.type) {
    case liedyn::JointType::Spherical:
      q = unit_quaternion(c, need(c, e, "quaternion", where), quaternion);
      break;
    case liedyn::JointType::Free:
      q << numbers<3>(c, need(c, e, "position", where), position),
          unit_quaternion(c, need(c, e, "quaternion", where), quaternion);
      break;
    case liedyn::JointType::Planar: {
      const double angle = number(c, need(c, e, "angle", where), where + ".angle");
      q << numbers<2>(c, need(c, e, "position", where), position), std::cos(angle), std::sin(angle);
      break;
    }
    case liedyn::JointType::Universal:
      q = numbers<2>(c, need(c, e, "position", where), position);
      break;
    default: q(0) = number(c, need(c, e, "position", where), position); break;
  }
  return q;
}

/// A joint's velocity, acceleration or generalized force: a number for a 1-DoF joint, an array
/// of its nv numbers otherwise (joints/*.hpp: e.g. a spherical joint's angular velocity in the
/// child frame).
liedyn::VectorX<double> joint_tangent(const Ctx& c, const json& v,
                                      const liedyn::Joint<double>& joint,
                                      const std::string& where) {
  if (joint.one_dof()) return liedyn::VectorX<double>::Constant(1, number(c, v, where));
  return numbers(c, v, joint.nv(), where);
}

/// A spherical joint has no "position": point at its "quaternion" rather than at the list of
/// allowed fields, since a number there is the likeliest mistake.
void reject_spherical_position(const Ctx& c, const json& e, const liedyn::Joint<double>& joint,
                               const std::string& where) {
  if (joint.type == liedyn::JointType::Spherical && find(e, "position"))
    c.fail(where + ".position",
           "a spherical joint has no position: give its orientation as \"quaternion\": "
           "[x, y, z, w]");
}

/// Joint names of the model, for messages.
std::string joint_list(const liedyn::Model<double>& model) {
  std::string s;
  for (int i = 1; i <= model.num_joints(); ++i) {
    if (i > 1) s += ", ";
    if (i > 40) return s + "...";
    s += model.joint_name(i);
  }
  return s.empty() ? "none" : s;
}

/// Checks that the object `obj` (at `where`) names every joint of the model and no other;
/// returns, per body index, the entry (nullptr for index 0).
std::vector<const json*> joint_entries(const Ctx& c, const json& obj, const std::string& where,
                                       const liedyn::Model<double>& model) {
  require_object(c, obj, where);
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (model.joint_id(it.key()) < 0)
      c.fail(where, "unknown joint '" + it.key() +
                        "': the model has no movable joint of that name (its joints: " +
                        joint_list(model) + ")");
  std::vector<const json*> entries(static_cast<std::size_t>(model.num_bodies()), nullptr);
  std::string missing;
  int nmissing = 0;
  for (int i = 1; i <= model.num_joints(); ++i) {
    entries[static_cast<std::size_t>(i)] = find(obj, model.joint_name(i).c_str());
    if (!entries[static_cast<std::size_t>(i)]) {
      if (nmissing < 10) missing += (missing.empty() ? "'" : ", '") + model.joint_name(i) + "'";
      ++nmissing;
    }
  }
  if (nmissing > 0)
    c.fail(where, std::string(nmissing == 1 ? "missing joint " : "missing joints ") + missing +
                      (nmissing > 10 ? " and " + std::to_string(nmissing - 10) + " more" : "") +
                      " (every joint of the model must be given)");
  return entries;
}

bool all_zero(const liedyn::Vector6<double>& v) { return (v.array() == 0.0).all(); }

}  // namespace

json read_json_file(const std::string& path) {
  const Ctx c{path};
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    c.fail("", std::string("cannot open the file") +
                   (errno ? std::string(" (") + std::strerror(errno) + ")" : ""));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) c.fail("", "cannot read the file");
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
    c.fail("", "the file is empty (expected a JSON object)");
  // Duplicate keys: JSON allows them, nlohmann keeps the last one silently; we refuse them.
  std::vector<std::set<std::string>> keys;
  auto callback = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      keys.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!keys.empty()) keys.pop_back();
    } else if (event == json::parse_event_t::key && !keys.empty()) {
      const std::string k = parsed.get<std::string>();
      if (!keys.back().insert(k).second) c.fail("", "invalid JSON: duplicate key '" + k + "'");
    }
    return true;
  };
  try {
    return json::parse(text.str(), callback);
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, ...": drop the bracketed id.
    std::string what = e.what();
    const std::size_t close = what.find("] ");
    if (!what.empty() && what[0] == '[' && close != std::string::npos)
      what = what.substr(close + 2);
    if (e.id == 406) what += " (not a finite double)";
    c.fail("", "invalid JSON: " + what);
  }
}

liedyn::SE3<double> state_base_pose(const json& doc, const std::string& path) {
  const Ctx c{path};
  require_object(c, doc, "");
  const json* base = find(doc, "base");
  if (!base) return liedyn::SE3<double>();
  require_object(c, *base, "base");
  return base_pose(c, *base, PoseFields::optional);
}

StateInput parse_state(const json& doc, const liedyn::Model<double>& model,
                       const std::string& path) {
  const Ctx c{path};
  const bool moving = model.has_moving_base();
  const int n = model.num_joints(), nv = model.nv();
  require_object(c, doc, "");
  check_keys(c, doc, "", {"base", "joints", "input"});

  StateInput in;
  in.x = liedyn::State<double>(model);
  in.ddq = liedyn::VectorX<double>::Zero(nv);
  in.tau = liedyn::VectorX<double>::Zero(nv);
  bool base_acc = false;

  // --- base --------------------------------------------------------------------------------
  const json* base = find(doc, "base");
  if (!base && moving)
    c.fail("base",
           "missing (a moving base needs its position, quaternion, twist and "
           "twist_representation; use --fixed-base to weld it)");
  if (base) {
    require_object(c, *base, "base");
    check_keys(c, *base, "base",
               {"position", "quaternion", "twist", "twist_representation", "acceleration"});
    const liedyn::SE3<double> H =
        base_pose(c, *base, moving ? PoseFields::required : PoseFields::optional);
    if (moving) {
      in.x.H = H;
      in.twist_representation = representation(c, need(c, *base, "twist_representation", "base"),
                                               "base.twist_representation");
      const liedyn::Vector6<double> twist =
          numbers<6>(c, need(c, *base, "twist", "base"), "base.twist");
      in.x.nu = liedyn::base_twist_to_body(H, twist, in.twist_representation);
      if (const json* a = find(*base, "acceleration")) {
        const liedyn::Vector6<double> acc = numbers<6>(c, *a, "base.acceleration");
        in.ddq.head<6>() =
            liedyn::base_acceleration_to_body(H, in.x.nu, acc, in.twist_representation);
        base_acc = true;
      }
    } else {
      // A welded base sits at the model's welded pose (taken from this file when loading) and
      // does not move: twist and acceleration may be given only as zeros.
      in.x.H = model.welded_base_pose();
      if (const json* r = find(*base, "twist_representation"))
        representation(c, *r, "base.twist_representation");
      if (const json* t = find(*base, "twist"))
        if (!all_zero(numbers<6>(c, *t, "base.twist")))
          c.fail("base.twist",
                 "must be zero with --fixed-base (a welded base does not move); leave it out");
      if (const json* a = find(*base, "acceleration"))
        if (!all_zero(numbers<6>(c, *a, "base.acceleration")))
          c.fail("base.acceleration",
                 "must be zero with --fixed-base (a welded base does not move); leave it out");
    }
  }

  // --- joints ------------------------------------------------------------------------------
  const std::vector<const json*> joints =
      joint_entries(c, need(c, doc, "joints", ""), "joints", model);
  int with_acc = 0;
  std::string first_without_acc;
  for (int i = 1; i <= n; ++i) {
    const liedyn::Joint<double>& joint = model.joint(i);
    const json& e = *joints[static_cast<std::size_t>(i)];
    const std::string where = "joints." + model.joint_name(i);
    require_object(c, e, where);
    reject_spherical_position(c, e, joint, where);
    check_keys(c, e, where, joint_fields(joint.type));
    in.x.s.segment(model.q_index(i), model.joint_nq(i)) = joint_configuration(c, e, joint, where);
    in.x.r.segment(model.r_index(i), model.joint_nv(i)) =
        joint_tangent(c, need(c, e, "velocity", where), joint, where + ".velocity");
    if (const json* a = find(e, "acceleration")) {
      in.ddq.segment(model.v_index(i), model.joint_nv(i)) =
          joint_tangent(c, *a, joint, where + ".acceleration");
      ++with_acc;
    } else if (first_without_acc.empty()) {
      first_without_acc = where + ".acceleration";
    }
  }

  // Accelerations: all or none.
  const bool any_acc = base_acc || with_acc > 0;
  if (any_acc) {
    if (moving && !base_acc)
      c.fail("base.acceleration",
             "missing: the joints have accelerations, so the base needs one too "
             "(give the base and every joint an acceleration, or none)");
    if (with_acc < n)
      c.fail(first_without_acc, "missing: give the base and every joint an acceleration, or none");
    in.has_accelerations = true;
  }

  // --- input -------------------------------------------------------------------------------
  if (const json* input = find(doc, "input")) {
    require_object(c, *input, "input");
    check_keys(c, *input, "input", {"base_wrench", "joint_torques"});
    if (const json* w = find(*input, "base_wrench")) {
      const liedyn::Vector6<double> f = numbers<6>(c, *w, "input.base_wrench");
      if (moving) in.tau.head<6>() = f;
      else if (!all_zero(f))
        c.fail("input.base_wrench",
               "must be zero with --fixed-base (a welded base has no base wrench input)");
    }
    const std::vector<const json*> torques =
        joint_entries(c, need(c, *input, "joint_torques", "input"), "input.joint_torques", model);
    for (int i = 1; i <= n; ++i)
      in.tau.segment(model.v_index(i), model.joint_nv(i)) =
          joint_tangent(c, *torques[static_cast<std::size_t>(i)], model.joint(i),
                        "input.joint_torques." + model.joint_name(i));
    in.has_input = true;
  }
  return in;
}

}  // namespace liedyn_cli
