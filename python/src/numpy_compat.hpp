// liedyn Python bindings — which numpy the module can run under. A pybind11 older than 2.12
// reads numpy's array descriptors through numpy 1's struct layout; numpy 2 moved the item size
// in that struct, so such a module creates arrays whose stride is read as 0 (every entry a copy
// of the first) without any error. The module refuses to import in that pairing instead: a
// clear ImportError, never a silently wrong array. Kept free of liedyn's headers so that
// python/tests/numpy_guard_probe.cpp compiles it alone, in seconds, against any pybind11.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

namespace liedyn {
namespace python {

/// The major version of a numpy version string such as "2.4.1" or "1.24.2" (0 if unreadable).
inline int numpy_major_version(const std::string& version) {
  int major = 0;
  for (const char c : version) {
    if (c < '0' || c > '9') break;
    major = 10 * major + (c - '0');
  }
  return major;
}

/// Whether the pybind11 this translation unit is compiled with reads numpy 2's descriptors
/// (pybind11 2.12 added numpy 2's layout).
constexpr bool pybind11_reads_numpy2() {
  return PYBIND11_VERSION_MAJOR > 2 ||
         (PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR >= 12);
}

/// Throws ImportError when the numpy this interpreter imports is one the module's pybind11
/// cannot read (numpy ≥ 2 under pybind11 < 2.12), naming both versions and the ways out.
inline void refuse_unreadable_numpy(const char* module_name) {
  if (pybind11_reads_numpy2()) return;
  const std::string numpy_version =
      pybind11::str(pybind11::module_::import("numpy").attr("__version__"));
  if (numpy_major_version(numpy_version) < 2) return;
#define LIEDYN_NUMPY_STR2(x) #x
#define LIEDYN_NUMPY_STR(x) LIEDYN_NUMPY_STR2(x)
  const std::string pybind11_version =
      LIEDYN_NUMPY_STR(PYBIND11_VERSION_MAJOR) "." LIEDYN_NUMPY_STR(PYBIND11_VERSION_MINOR);
#undef LIEDYN_NUMPY_STR
#undef LIEDYN_NUMPY_STR2
  throw pybind11::import_error(
      std::string(module_name) + ": this build was compiled with pybind11 " + pybind11_version +
      ", which cannot read the arrays of numpy " + numpy_version +
      " (numpy 2 needs pybind11 >= 2.12): its results would be wrong arrays. Use the wheel "
      "(pip install .), which builds with a recent pybind11; or rebuild with one "
      "(pip install 'pybind11>=2.12', then configure with "
      "-Dpybind11_DIR=\"$(python3 -m pybind11 --cmakedir)\"); or run under numpy < 2.");
}

}  // namespace python
}  // namespace liedyn
