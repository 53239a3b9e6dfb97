// liedyn Python bindings — what both translation units share: the numpy views of Data's
// buffers, the argument checks the bindings add (a Python caller must never reach undefined
// behaviour), and the external-wrench conversion.
//
// Adding a kernel: write a `bind_<topic>(py::module_&)` function in a .cpp of python/src (or
// append to kernels.cpp), declare it below, call it from module.cpp's PYBIND11_MODULE, and
// return Data's buffers through view() with the Data object as owner.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <liedyn/liedyn.hpp>

namespace liedyn {
namespace python {

namespace py = pybind11;

using Model = liedyn::Model<double>;
using Data = liedyn::Data<double>;
using State = liedyn::State<double>;
using SE3 = liedyn::SE3<double>;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using VectorRef = Eigen::Ref<const VectorXd>;
using MatrixRef = Eigen::Ref<const MatrixXd>;
/// External wrenches from Python: None, or an array of shape (num_bodies, 6), row i the wrench
/// on body i in its own frame, [force; moment about the body origin].
using WrenchArg = std::optional<MatrixXd>;

/// A read-only numpy array viewing an Eigen buffer owned by `owner` (which the array keeps
/// alive through its base object). Matrices are viewed column-major (Eigen's layout).
template <class Derived>
py::array view(const Eigen::PlainObjectBase<Derived>& m, py::handle owner) {
  using S = typename Derived::Scalar;
  py::array a;
  if (Derived::ColsAtCompileTime == 1)
    a = py::array_t<S>({static_cast<py::ssize_t>(m.size())}, {static_cast<py::ssize_t>(sizeof(S))},
                       m.data(), owner);
  else
    a = py::array_t<S>(
        {static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())},
        {static_cast<py::ssize_t>(sizeof(S)), static_cast<py::ssize_t>(sizeof(S) * m.rows())},
        m.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

/// The Python object wrapping `data` (every Data reaching a binding is a Python-owned one).
inline py::handle owner_of(Data& data) {
  return py::detail::get_object_handle(&data, py::detail::get_type_info(typeid(Data)));
}

/// A Data built for another model would be indexed out of bounds by the kernels: refused.
inline void check_data(const char* who, const Model& model, const Data& data) {
  if (data.num_bodies != model.num_bodies() || data.tau.size() != model.nv())
    throw std::invalid_argument(
        std::string("liedyn: ") + who + ": data was made for a model with " +
        std::to_string(data.num_bodies) + " bodies and nv = " + std::to_string(data.tau.size()) +
        ", this model has " + std::to_string(model.num_bodies()) +
        " bodies and nv = " + std::to_string(model.nv()));
}

/// The state's sizes, by the library's own check (the module builds with LIEDYN_ENABLE_CHECKS).
inline void check_state(const char* who, const Model& model, const State& x) {
  liedyn::detail::check_state(who, model, x);
}

/// Both of the above: every kernel binding starts with this.
inline void check_call(const char* who, const Model& model, const Data& data, const State& x) {
  check_data(who, model, data);
  check_state(who, model, x);
}

/// Size check for inputs the C++ side does not check itself, in its message style.
template <class V>
void check_size(const char* who, const char* what, const V& v, Eigen::Index expected) {
  LIEDYN_CHECK_SIZE(who, what, v, expected);
}

/// Index check: IndexError with the function's name.
inline void check_index(const char* who, const char* what, int i, int size) {
  if (i < 0 || i >= size)
    throw py::index_error(std::string("liedyn: ") + who + ": " + what + " " + std::to_string(i) +
                          " out of range [0, " + std::to_string(size) + ")");
}

/// Joint index check: joints are numbered 1..n (body i's joint), IndexError otherwise.
inline void check_joint(const char* who, int i, int num_joints) {
  if (i < 1 || i > num_joints)
    throw py::index_error(std::string("liedyn: ") + who + ": joint " + std::to_string(i) +
                          " out of range [1, " + std::to_string(num_joints) + "]");
}

/// (num_bodies × 6) array → ExternalWrenches (the count is checked by the kernels).
inline std::optional<ExternalWrenches<double>> to_wrenches(const char* who, const WrenchArg& fext) {
  if (!fext) return std::nullopt;
  if (fext->cols() != 6)
    throw std::invalid_argument(std::string("liedyn: ") + who +
                                ": external wrenches must be an array of shape (num_bodies, 6)");
  ExternalWrenches<double> w(static_cast<std::size_t>(fext->rows()));
  for (Eigen::Index i = 0; i < fext->rows(); ++i)
    w[i] = Force<double>(Vector6<double>(fext->row(i).transpose()));
  return w;
}

/// Pointer form for the kernels: nullptr for no wrenches.
inline const ExternalWrenches<double>* ptr(const std::optional<ExternalWrenches<double>>& w) {
  return w ? &*w : nullptr;
}

/// Per-body 6-vectors (motions or forces) as a (num_bodies × 6) array (a copy).
template <class V>
MatrixXd stack_rows(const std::vector<V>& v) {
  MatrixXd out(static_cast<Eigen::Index>(v.size()), 6);
  for (std::size_t i = 0; i < v.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = v[i].vector().transpose();
  return out;
}

void bind_types(py::module_& m);
void bind_model(py::module_& m);
void bind_kernels(py::module_& m);
void bind_extensions(py::module_& m);  // centroidal, energy, Coriolis, constraints (extensions.cpp)
void bind_numdiff(py::module_& m);
void bind_testing(py::module_& m);

}  // namespace python
}  // namespace liedyn
