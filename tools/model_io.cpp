#include "model_io.hpp"

#include <cmath>
#include <cstdlib>
#include <ostream>

#include "cli.hpp"
#include "liedyn/model/lock_joints.hpp"
#include "liedyn/model/mjcf.hpp"
#include "liedyn/model/urdf.hpp"

namespace liedyn_cli {

namespace {

bool is_mjcf(const std::string& path) {
  const std::string ext = ".xml";
  return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

liedyn::Model<double> load_file(const std::string& path, bool fixed_base,
                                const liedyn::SE3<double>& welded_pose,
                                liedyn::InertiaPolicy inertia) {
  if (is_mjcf(path)) {
    if (fixed_base)
      throw Error("--fixed-base: an MJCF model (.xml) has its own base (a free joint or none)");
    liedyn::MjcfOptions opt;
    opt.inertia = inertia;
    // Tendons and equality constraints do not change the tree: load it, listing each one.
    opt.unsupported = liedyn::UnsupportedElements::skip;
    return liedyn::load_mjcf_file(path, opt);
  }
  liedyn::UrdfOptions opt;
  opt.weld_base = fixed_base;
  opt.welded_base_pose = welded_pose;
  opt.inertia = inertia;
  return liedyn::load_urdf_file(path, opt);
}

}  // namespace

liedyn::Model<double> load_model(const std::string& urdf, bool fixed_base,
                                 const liedyn::SE3<double>& welded_pose, const LoadOptions& load) {
  liedyn::InertiaPolicy inertia = liedyn::InertiaPolicy::lenient;
  if (load.inertia == "strict") inertia = liedyn::InertiaPolicy::strict;
  else if (load.inertia == "lenient") inertia = liedyn::InertiaPolicy::lenient;
  else if (load.inertia == "balance") inertia = liedyn::InertiaPolicy::balance;
  else throw Error("--inertia: '" + load.inertia + "' is not one of strict, lenient, balance");
  liedyn::Model<double> model = load_file(urdf, fixed_base, welded_pose, inertia);
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
