// liedyn info: a readable description of a robot as liedyn sees it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/model/state.hpp"
#include "model_io.hpp"

namespace liedyn_cli {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// Number of terminal columns of a UTF-8 string (one per code point; the tree glyphs are
/// single-width).
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char ch : s) w += (ch & 0xC0) != 0x80;
  return w;
}

std::string pad(const std::string& s, std::size_t w) {
  return s + std::string(w > width(s) ? w - width(s) : 0, ' ');
}

std::string vec3(const liedyn::Vector3<double>& v, const char* f = "%.4g") {
  return "(" + fmt(f, v.x()) + ", " + fmt(f, v.y()) + ", " + fmt(f, v.z()) + ")";
}

/// "+x", "-z" for a coordinate axis, else the unit vector.
std::string axis_text(const liedyn::Vector3<double>& e) {
  for (int k = 0; k < 3; ++k)
    if (e((k + 1) % 3) == 0.0 && e((k + 2) % 3) == 0.0 && std::abs(e(k)) == 1.0)
      return std::string(e(k) > 0 ? "+" : "-") + "xyz"[k];
  return vec3(e, "%.3g");
}

/// The joint's axes: a screw's axis, a universal joint's two; none for the other types.
std::string axes_text(const liedyn::Joint<double>& j) {
  if (j.one_dof()) return axis_text(j.axis);
  if (j.type == liedyn::JointType::Universal) return axis_text(j.axis) + ", " + axis_text(j.axis2);
  return "";
}

bool is_continuous(const liedyn::Joint<double>& j) {
  return j.type == liedyn::JointType::Revolute && std::isinf(j.lower) && std::isinf(j.upper);
}

std::string type_text(const liedyn::Joint<double>& j) {
  if (is_continuous(j)) return "continuous";
  if (j.type == liedyn::JointType::Helical) return "helical (" + fmt("%.4g", j.pitch) + " m/rad)";
  if (!j.one_dof())
    return std::string(liedyn::to_string(j.type)) + " (nq " + std::to_string(j.nq()) + ", nv " +
           std::to_string(j.nv()) + ")";
  return liedyn::to_string(j.type);
}

/// The limits on the joint's coordinates: angles (revolute, helical, universal) or lengths
/// (prismatic; a free or planar joint's position). A rotation (spherical, free, planar) has none.
std::string limits_text(const liedyn::Joint<double>& j) {
  const bool unlimited = std::isinf(j.lower) && std::isinf(j.upper);
  if (is_continuous(j) || j.type == liedyn::JointType::Spherical) return "unlimited";
  const bool positions = j.type == liedyn::JointType::Free || j.type == liedyn::JointType::Planar;
  if (positions && unlimited) return "unlimited";
  const char* unit = j.type == liedyn::JointType::Prismatic || positions ? " m" : " rad";
  auto one = [](double v) {
    return std::isinf(v) ? std::string(v < 0 ? "-inf" : "inf") : fmt("%.3g", v);
  };
  return "[" + one(j.lower) + ", " + one(j.upper) + "]" + unit + (positions ? " (position)" : "");
}

/// "7" for one index, "7-9" for a joint's several (velocity-sized vectors, like the base's 0-5).
std::string index_range(int first, int count) {
  if (count == 1) return std::to_string(first);
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

/// "12 revolute, 2 spherical": the number of joints of each type, in JointType order (a
/// revolute joint without limits counted as continuous).
std::string joint_kinds(const liedyn::Model<double>& model) {
  using liedyn::JointType;
  const JointType order[] = {JointType::Revolute,  JointType::Prismatic, JointType::Helical,
                             JointType::Spherical, JointType::Free,      JointType::Planar,
                             JointType::Universal};
  std::string kinds;
  auto add = [&](int count, const std::string& name) {
    if (count > 0) kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + name;
  };
  for (JointType t : order) {
    int count = 0, continuous = 0;
    for (int i = 1; i < model.num_bodies(); ++i) {
      const liedyn::Joint<double>& j = model.joint(i);
      if (j.type == t && is_continuous(j)) ++continuous;
      else if (j.type == t) ++count;
    }
    add(count, liedyn::to_string(t));
    add(continuous, "continuous");
  }
  return kinds;
}

}  // namespace

int run_info(const InfoOptions& opt, std::ostream& out) {
  using namespace liedyn;
  const Model<double> model =
      load_model(opt.urdf, opt.fixed_base, SE3<double>(), LoadOptions{opt.inertia, opt.lock});
  const int n = model.num_joints(), nb = model.num_bodies();
  const bool moving = model.has_moving_base();
  std::ostringstream o;

  // Composite inertia of the whole tree at the neutral configuration, in the base frame (crba
  // leaves it in Ic[0]).
  Data<double> data(model);
  crba(model, data, neutral(model).s);
  const SpatialInertia<double>& total = data.inverse_dynamics.Ic[0];
  const std::string kinds = joint_kinds(model);

  o << "robot    " << opt.urdf << "\n";
  o << "base     " << model.body_name(0)
    << (moving ? " — moving base (6 DoF: pose and twist are part of the state)"
               : " — welded to the world (--fixed-base)")
    << "\n";
  o << "size     " << n << (n == 1 ? " joint" : " joints")
    << (kinds.empty() ? "" : " (" + kinds + ")") << ", " << nb << " bodies, nv = " << model.nv()
    << ", tree depth " << model.max_depth() << "\n";
  o << "mass     " << fmt("%.6g", total.mass()) << " kg; centre of mass " << vec3(total.com())
    << " m in the base frame, at zero joint positions and rotations\n";
  o << "gravity  " << vec3(model.gravity()) << " m/s^2\n\n";

  // The tree, in liedyn's order: the column "v" is the joint's indices in velocity-sized vectors
  // (the base twist takes 0..5 when the base moves).
  struct Row {
    std::string v, tree, type, axis, body, mass, limits;
  };
  std::vector<Row> rows;
  rows.push_back({"v", "joint", "type", "axis", "body", "mass [kg]", "limits"});
  rows.push_back({moving ? "0-5" : "", model.body_name(0) + " (base)",
                  moving ? "floating" : "welded", "", model.body_name(0),
                  fmt("%.4g", model.inertia(0).mass()), ""});
  // Tree glyphs: for each ancestor depth, whether a vertical bar continues.
  auto last_child = [&](int i) {
    const std::vector<int>& kids = model.children(model.parent(i));
    return kids.back() == i;
  };
  for (int i = 1; i < nb; ++i) {
    std::string prefix;
    std::vector<int> chain;
    for (int k = model.parent(i); k > 0; k = model.parent(k)) chain.push_back(k);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      prefix += last_child(*it) ? "   " : "│  ";
    prefix += last_child(i) ? "└─ " : "├─ ";
    const Joint<double>& j = model.joint(i);
    rows.push_back({index_range(model.v_index(i), model.joint_nv(i)), prefix + j.name, type_text(j),
                    axes_text(j), model.body_name(i), fmt("%.4g", model.inertia(i).mass()),
                    limits_text(j)});
  }
  std::size_t w[6] = {0, 0, 0, 0, 0, 0};
  for (const Row& r : rows) {
    const std::string* f[6] = {&r.v, &r.tree, &r.type, &r.axis, &r.body, &r.mass};
    for (int k = 0; k < 6; ++k) w[k] = std::max(w[k], width(*f[k]));
  }
  for (const Row& r : rows) {
    std::string line = "  " + std::string(w[0] - width(r.v), ' ') + r.v + "  " + pad(r.tree, w[1]) +
                       "  " + pad(r.type, w[2]) + "  " + pad(r.axis, w[3]) + "  " +
                       pad(r.body, w[4]) + "  " + std::string(w[5] - width(r.mass), ' ') + r.mass +
                       "  " + r.limits;
    line.erase(line.find_last_not_of(' ') + 1);
    o << line << "\n";
  }
  o << "  (body mass: the link and the fixed links merged into it)\n";

  // Fixed links, kept as frames of the body they were merged into.
  std::vector<std::string> merged;
  for (const Frame<double>& f : model.frames())
    if (f.name != model.body_name(f.body))
      merged.push_back(f.name + " -> " + model.body_name(f.body));
  if (!merged.empty()) {
    o << "\nfixed links (merged into their moving parent, kept as frames): " << merged.size()
      << "\n  ";
    std::size_t col = 2;
    for (std::size_t k = 0; k < merged.size(); ++k) {
      const std::string item = merged[k] + (k + 1 < merged.size() ? "," : "");
      if (k > 0) {
        if (col + 1 + item.size() > 100) {
          o << "\n  ";
          col = 2;
        } else {
          o << ' ';
          ++col;
        }
      }
      o << item;
      col += item.size();
    }
    o << "\n";
  }

  o << "\nmass matrix M: ";
  if (model.singular_joints().empty()) {
    o << "invertible (every joint's subtree has inertia along its axis)\n";
  } else {
    o << "SINGULAR — forward dynamics, M^-1 and the linearization are unavailable. No inertia "
         "along:\n";
    for (int j : model.singular_joints()) {
      if (j == 0) o << "  the floating base (the whole robot's articulated inertia is singular)\n";
      else
        o << "  joint " << model.joint_name(j) << " (its subtree: " << model.body_name(j)
          << " and below)\n";
    }
  }

  o << "\nmimic relations";
  if (model.mimic_relations().empty()) {
    o << ": none\n";
  } else {
    o << " (recorded from the URDF, not enforced: each joint stays a degree of freedom):\n";
    for (const MimicRelation& m : model.mimic_relations()) {
      o << "  " << model.joint_name(m.joint) << " = " << fmt("%.6g", m.multiplier) << " * "
        << model.joint_name(m.leader);
      if (m.offset != 0.0) o << (m.offset < 0 ? " - " : " + ") << fmt("%.6g", std::abs(m.offset));
      o << "\n";
    }
  }
  o << "\n";
  print_diagnostics(model, o);
  out << o.str();
  return kExitOk;
}

}  // namespace liedyn_cli
