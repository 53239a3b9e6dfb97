// liedyn Python bindings — a vectorcall entry in front of the small kernels' pybind11 functions.
//
// pybind11 matches keyword arguments by making and interning a string of each of the function's
// parameter names on every call that passes one (pybind11 issues #2050 and #4773): about 38 ns
// per parameter, most of the overhead of `aba(model, data, x, tau, out=out)` over C++.
// def_fast() defines the function with pybind11 as ever — its signature, docstring, argument
// conversions and error messages stay the one definition — and puts a METH_FASTCALL function in
// front of it, which takes the common call (arguments of the exact types, keywords matched by
// their interned names) and hands every other call unchanged to the pybind11 function: a list
// for an array, an integer for a float, an unknown or repeated keyword, any error. Such a call
// is answered, and refused, by pybind11 exactly as before.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace liedyn {
namespace python {
namespace fast_call_detail {

#if PY_VERSION_HEX < 0x03090000
inline PyObject* vectorcall(PyObject* f, PyObject* const* args, std::size_t n, PyObject* kwnames) {
  return _PyObject_Vectorcall(f, args, n, kwnames);
}
#else
inline PyObject* vectorcall(PyObject* f, PyObject* const* args, std::size_t n, PyObject* kwnames) {
  return PyObject_Vectorcall(f, args, n, kwnames);
}
#endif

template <class Method>
struct Parameters;
template <class C, class R, class... A>
struct Parameters<R (C::*)(A...) const> {
  using Tuple = std::tuple<A...>;
};

template <class F, class Tuple>
struct Entry;

/// What one fast function holds: the binding's callable, the pybind11 function every call it
/// does not take goes to, and the parameters' interned names and defaults.
template <class F, class... A>
struct Entry<F, std::tuple<A...>> {
  static constexpr std::size_t N = sizeof...(A);
  using Arguments = std::array<PyObject*, N>;

  explicit Entry(F f) : function(std::move(f)) {}

  F function;
  py::object pybind11_function;
  std::array<py::object, N> names;     // interned: a call's keywords are compared by address
  std::array<py::object, N> defaults;  // null for a required parameter
  std::size_t max_positional = N;      // the parameters before py::kw_only()
  std::string doc;
  PyMethodDef method{};

  void add(std::size_t& i, const py::arg& a) { names.at(i++) = interned(a.name); }
  void add(std::size_t& i, const py::arg_v& a) {
    defaults.at(i) = a.value;
    add(i, static_cast<const py::arg&>(a));
  }
  void add(const std::size_t& i, const py::kw_only&) { max_positional = i; }
  void add(const std::size_t&, const char*) {}  // the docstring

  /// The call's arguments in parameter order, defaults filled in; false for a call this entry
  /// leaves to pybind11.
  bool arrange(PyObject* const* args, std::size_t nargs, PyObject* kwnames, Arguments& out) const {
    if (nargs > max_positional) return false;
    out.fill(nullptr);
    for (std::size_t i = 0; i < nargs; ++i) out[i] = args[i];
    const std::size_t nkw = kwnames ? static_cast<std::size_t>(PyTuple_GET_SIZE(kwnames)) : 0;
    for (std::size_t k = 0; k < nkw; ++k) {
      const std::size_t i = index_of(PyTuple_GET_ITEM(kwnames, k));
      if (i == N || out[i]) return false;
      out[i] = args[nargs + k];
    }
    for (std::size_t i = 0; i < N; ++i) {
      if (out[i]) continue;
      if (!defaults[i]) return false;
      out[i] = defaults[i].ptr();
    }
    return true;
  }

  /// The result as a new reference, or nullptr (no Python error set) when an argument does not
  /// load without conversion or the call throws: pybind11's function then takes the call.
  PyObject* call(const Arguments& given) { return call(given, std::index_sequence_for<A...>()); }

 private:
  static py::object interned(const char* name) {
    return py::reinterpret_steal<py::object>(PyUnicode_InternFromString(name));
  }

  std::size_t index_of(PyObject* keyword) const {
    for (std::size_t i = 0; i < N; ++i)
      if (names[i].ptr() == keyword) return i;
    for (std::size_t i = 0; i < N; ++i)  // a keyword built at run time: not interned
      if (PyUnicode_Compare(names[i].ptr(), keyword) == 0) return i;
    PyErr_Clear();  // PyUnicode_Compare's, for a keyword that is no string
    return N;
  }

  template <std::size_t... I>
  PyObject* call(const Arguments& given, std::index_sequence<I...>) {
    try {
      std::tuple<py::detail::make_caster<A>...> casters;
      if (!(std::get<I>(casters).load(given[I], /*convert=*/false) && ...)) return nullptr;
      using R = decltype(function(py::detail::cast_op<A>(std::get<I>(casters))...));
      if constexpr (std::is_same_v<R, py::object>)
        return function(py::detail::cast_op<A>(std::get<I>(casters))...).release().ptr();
      else
        return py::cast(function(py::detail::cast_op<A>(std::get<I>(casters))...)).release().ptr();
    } catch (...) {
      PyErr_Clear();
      return nullptr;
    }
  }
};

template <class E>
PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  auto& entry = *static_cast<E*>(PyCapsule_GetPointer(self, nullptr));
  typename E::Arguments given;
  if (entry.arrange(args, static_cast<std::size_t>(nargs), kwnames, given))
    if (PyObject* result = entry.call(given)) return result;
  return vectorcall(entry.pybind11_function.ptr(), args, static_cast<std::size_t>(nargs), kwnames);
}

/// The fast functions defined so far, by name: a later m.def of the same name would replace
/// one, overloads and all (pybind11 takes no sibling that is not its own function).
inline std::vector<std::pair<std::string, PyObject*>>& defined() {
  static std::vector<std::pair<std::string, PyObject*>> functions;
  return functions;
}

}  // namespace fast_call_detail

/// m.def(name, f, extra...) for a kernel called in tight loops, with the fast entry above in
/// front (module attribute `name`; docstring and so signature and stubs the pybind11
/// function's). `f`: a lambda; `extra`: one py::arg per parameter (defaults any value), an
/// optional py::kw_only(), the docstring. Not for overloaded names, which stay pybind11's.
template <class F, class... Extra>
void def_fast(py::module_& m, const char* name, F f, const Extra&... extra) {
  using E = fast_call_detail::Entry<
      F, typename fast_call_detail::Parameters<decltype(&F::operator())>::Tuple>;
  if (py::hasattr(m, name))
    throw std::logic_error(std::string("liedyn: def_fast: ") + name + " is overloaded");
  m.def(name, f, extra...);
  auto* entry = new E(std::move(f));
  const py::capsule owner(entry, [](void* p) { delete static_cast<E*>(p); });
  entry->pybind11_function = m.attr(name);
  std::size_t i = 0;
  (entry->add(i, extra), ...);
  if (i != E::N) throw std::logic_error(std::string("liedyn: def_fast: ") + name + ": py::args");
  entry->doc = py::str(entry->pybind11_function.attr("__doc__"));
  entry->method.ml_name = name;
  entry->method.ml_meth =
      reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fast_call_detail::call<E>));
  entry->method.ml_flags = METH_FASTCALL | METH_KEYWORDS;
  entry->method.ml_doc = entry->doc.c_str();
  PyObject* fast = PyCFunction_NewEx(&entry->method, owner.ptr(), m.attr("__name__").ptr());
  if (!fast) throw py::error_already_set();
  m.attr(name) = py::reinterpret_steal<py::object>(fast);
  fast_call_detail::defined().emplace_back(name, fast);
}

/// Called once every function is defined: std::logic_error (the module does not import) if a
/// name given to def_fast was defined again.
inline void check_fast_functions(const py::module_& m) {
  for (const auto& [name, fast] : fast_call_detail::defined())
    if (m.attr(name.c_str()).ptr() != fast)
      throw std::logic_error("liedyn: " + name +
                             " is defined twice: def_fast is for names defined once");
}

}  // namespace python
}  // namespace liedyn
