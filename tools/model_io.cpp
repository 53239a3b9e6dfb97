#include "model_io.hpp"

#include "liedyn/model/urdf.hpp"

namespace liedyn_cli {

liedyn::Model<double> load_model(const std::string& urdf, bool fixed_base, const liedyn::SE3<double>& welded_pose) {
  liedyn::UrdfOptions opt;
  opt.weld_base = fixed_base;
  opt.welded_base_pose = welded_pose;
  return liedyn::load_urdf_file(urdf, opt);
}

}  // namespace liedyn_cli
