// A module of one function, built against the pybind11 under test with the liedyn module's
// numpy guard (python/src/numpy_compat.hpp) or, with LIEDYN_PROBE_UNGUARDED, without it:
// scripts/check-numpy-pairs.sh imports it under numpy 1 and numpy 2 to show which pairs the
// guard refuses and that the arrays of the pairs it lets through are right.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "../../python/src/numpy_compat.hpp"

namespace py = pybind11;

PYBIND11_MODULE(numpy_pairs_probe, m) {
#ifndef LIEDYN_PROBE_UNGUARDED
  liedyn::python::refuse_unreadable_numpy("numpy_pairs_probe");
#endif
  // A new array as the liedyn module returns its results (python/src/bindings.hpp, copy_of).
  m.def("arange", [](py::ssize_t n) {
    py::array_t<double> a(n);
    for (py::ssize_t i = 0; i < n; ++i) a.mutable_data()[i] = static_cast<double>(i);
    return a;
  });
}
