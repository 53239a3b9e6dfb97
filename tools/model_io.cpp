#include "model_io.hpp"

#include <cmath>
#include <cstdlib>
#include <ostream>
#include <utility>

#include "cli.hpp"
#include "liedyn/model/lock_joints.hpp"
#include "liedyn/model/mjcf.hpp"
#include "liedyn/model/urdf.hpp"

namespace liedyn_cli {

namespace {

/// The loader's options for the tool: the inertia policy, and what it cannot represent (tendons,
/// some equalities) skipped with a diagnostic each.
liedyn::MjcfOptions mjcf_options(liedyn::InertiaPolicy inertia) {
  liedyn::MjcfOptions opt;
  opt.inertia = inertia;
  opt.unsupported = liedyn::UnsupportedElements::skip;
  return opt;
}

void require_own_base(bool fixed_base) {
  if (fixed_base)
    throw Error("--fixed-base: an MJCF model (.xml) has its own base (a free joint or none)");
}

bool is_mjcf(const std::string& path) {
  const std::string ext = ".xml";
  return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

liedyn::Model<double> load_file(const std::string& path, bool fixed_base,
                                const liedyn::SE3<double>& welded_pose,
                                liedyn::InertiaPolicy inertia) {
  if (is_mjcf(path)) {
    require_own_base(fixed_base);
    // Tendons and equality constraints do not change the tree: load it, listing each one.
    return liedyn::load_mjcf_file(path, mjcf_options(inertia));
  }
  liedyn::UrdfOptions opt;
  opt.weld_base = fixed_base;
  opt.welded_base_pose = welded_pose;
  opt.inertia = inertia;
  return liedyn::load_urdf_file(path, opt);
}

liedyn::InertiaPolicy inertia_policy(const std::string& name) {
  if (name == "strict") return liedyn::InertiaPolicy::strict;
  if (name == "lenient") return liedyn::InertiaPolicy::lenient;
  if (name == "balance") return liedyn::InertiaPolicy::balance;
  throw Error("--inertia: '" + name + "' is not one of strict, lenient, balance");
}

/// The joints of --lock welded at their positions.
liedyn::Model<double> with_locks(liedyn::Model<double> model, const LoadOptions& load) {
  if (load.lock.empty()) return model;
  std::vector<std::string> names;
  std::vector<double> positions;
  for (const std::string& item : load.lock) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error("--lock: '" + item + "' is not NAME=POSITION");
    const std::string text = item.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
      throw Error("--lock: '" + item + "': the position '" + text + "' is not a finite number");
    names.push_back(item.substr(0, eq));
    positions.push_back(v);
  }
  return liedyn::lock_joints(model, names, positions);
}

}  // namespace

liedyn::Model<double> load_model(const std::string& urdf, bool fixed_base,
                                 const liedyn::SE3<double>& welded_pose, const LoadOptions& load) {
  return with_locks(load_file(urdf, fixed_base, welded_pose, inertia_policy(load.inertia)), load);
}

LoadedRobot load_robot(const std::string& path, bool fixed_base,
                       const liedyn::SE3<double>& welded_pose, const LoadOptions& load,
                       const std::string& equality) {
  if (equality != "enforce") return {load_model(path, fixed_base, welded_pose, load), {}};
  if (!is_mjcf(path))
    throw Error("--equality enforce: " + path +
                " is not an MJCF file (.xml); a URDF's <mimic> "
                "relations are enforced by --mimic enforce");
  require_own_base(fixed_base);
  liedyn::MjcfRobot robot =
      liedyn::load_mjcf_robot_file(path, mjcf_options(inertia_policy(load.inertia)));
  if (robot.equality.empty())
    throw Error("--equality enforce: " + path + " has no <equality> constraint liedyn converts");
  return {with_locks(std::move(robot.model), load), std::move(robot.equality)};
}

void print_diagnostics(const liedyn::Model<double>& model, std::ostream& out) {
  const auto& d = model.diagnostics();
  if (d.empty()) {
    out << "diagnostics: none\n";
    return;
  }
  out << "diagnostics: " << d.size() << " (accepted or changed at load; see docs/loading.md)\n";
  for (const liedyn::ModelDiagnostic& e : d)
    out << "  " << liedyn::to_string(e.kind) << ": " << e.message << "\n";
}

}  // namespace liedyn_cli
