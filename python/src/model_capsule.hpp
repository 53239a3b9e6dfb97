// liedyn Python bindings — a Model handed from the pybind11 module (liedyn._liedyn) to another
// extension module of the same wheel (liedyn._crocoddyl, Boost.Python, which cannot read a
// pybind11 object): a PyCapsule pointing at the Model, whose name carries the facts the two
// modules must share for the pointer to mean the same object layout in both. The receiver copies
// the Model (it is immutable and owns no pointer into Python) and refuses a capsule of another
// build by name, not by crashing.
#pragma once

#include <string>

#include <Eigen/Core>

#include <liedyn/model/model.hpp>
#include <liedyn/version.hpp>

namespace liedyn {
namespace python {

#define LIEDYN_CAPSULE_STR2(x) #x
#define LIEDYN_CAPSULE_STR(x) LIEDYN_CAPSULE_STR2(x)

/// The capsule's name: the library version, the compiler, Eigen's version and static alignment
/// (which set the layout of Model's fixed-size members), and sizeof(Model<double>).
inline const std::string& model_capsule_name() {
  static const std::string name =
      std::string("liedyn.Model<double>/") + version_string + "/" + __VERSION__ +
      "/Eigen " LIEDYN_CAPSULE_STR(EIGEN_WORLD_VERSION) "." LIEDYN_CAPSULE_STR(
          EIGEN_MAJOR_VERSION) "." LIEDYN_CAPSULE_STR(EIGEN_MINOR_VERSION) "/align " +
      std::to_string(EIGEN_MAX_STATIC_ALIGN_BYTES) + "/" +
      std::to_string(sizeof(liedyn::Model<double>));
  return name;
}

#undef LIEDYN_CAPSULE_STR
#undef LIEDYN_CAPSULE_STR2

}  // namespace python
}  // namespace liedyn
