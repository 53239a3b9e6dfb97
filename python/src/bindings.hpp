// liedyn Python bindings — what both translation units share: the numpy views of Data's
// buffers, the argument checks the bindings add (a Python caller must never reach undefined
// behaviour), and the external-wrench conversion.
//
// Adding a kernel: write a `bind_<topic>(py::module_&)` function in a .cpp of python/src (or
// append to kernels.cpp), declare it below, call it from module.cpp's PYBIND11_MODULE, and
// return Data's buffers through view() with the Data object as owner.
#pragma once

#include <algorithm>
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

/// An input vector: an Eigen::Ref viewing a numpy array (no copy for contiguous float64), whose
/// caster (below) first refuses what pybind11 would convert silently or turn away with its
/// generic "incompatible function arguments": complex arrays (cut to their real part),
/// non-numeric ones, arrays of the wrong number of dimensions such as (1, n), and scalars.
struct VectorRef : Eigen::Ref<const VectorXd> {
  explicit VectorRef(const Eigen::Ref<const VectorXd>& r) : Eigen::Ref<const VectorXd>(r) {}
};
/// An input matrix, refused like VectorRef's unless two-dimensional.
struct MatrixRef : Eigen::Ref<const MatrixXd> {
  explicit MatrixRef(const Eigen::Ref<const MatrixXd>& r) : Eigen::Ref<const MatrixXd>(r) {}
};

/// TypeError or ValueError for an argument that is no real array of `ndim` dimensions; other
/// objects (lists, States of another overload) are left to the usual conversion.
inline void refuse_non_real(py::handle src, int ndim) {
  const std::string want = ndim == 1 ? "a 1-D array of float64" : "a 2-D array of float64";
  if (py::isinstance<py::array>(src)) {
    const auto a = py::reinterpret_borrow<py::array>(src);
    const char kind = a.dtype().kind();
    if (kind == 'c')
      throw py::type_error("liedyn: expected " + want + ", got a complex array (" +
                           std::string(py::str(a.dtype())) +
                           "): its imaginary part would be dropped; pass .real if that is meant");
    if (kind != 'f' && kind != 'i' && kind != 'u')
      throw py::type_error("liedyn: expected " + want + ", got an array of dtype " +
                           std::string(py::str(a.dtype())));
    if (a.ndim() != ndim)
      throw py::value_error("liedyn: expected " + want + ", got an array of shape " +
                            std::string(py::str(a.attr("shape"))));
  } else if (PyFloat_Check(src.ptr()) || PyLong_Check(src.ptr()) || PyComplex_Check(src.ptr())) {
    throw py::type_error("liedyn: expected " + want + ", got the scalar " +
                         std::string(py::repr(src)));
  }
}
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

/// A new writeable numpy array holding a copy of `m` (column-major, as Eigen stores it): what
/// a kernel returns by default, so that results of successive calls never alias.
template <class Derived>
py::array copy_of(const Eigen::PlainObjectBase<Derived>& m) {
  using S = typename Derived::Scalar;
  if (Derived::ColsAtCompileTime == 1) {
    py::array_t<S> a(static_cast<py::ssize_t>(m.size()));
    std::copy(m.data(), m.data() + m.size(), a.mutable_data());
    return std::move(a);
  }
  py::array_t<S, py::array::f_style> a(
      {static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  std::copy(m.data(), m.data() + m.size(), a.mutable_data());
  return std::move(a);
}

/// Copies `m` into the caller's array `out` (the `out=` argument): a writeable float64 ndarray
/// of exactly m's shape, any strides. Raises TypeError or ValueError naming `who` otherwise.
template <class Derived>
void copy_into(const char* who, const Eigen::PlainObjectBase<Derived>& m, const py::handle& out) {
  // Built on error only: a hot loop's call allocates nothing.
  const auto where = [who] { return std::string("liedyn: ") + who + ": out"; };
  if (!py::isinstance<py::array_t<double>>(out))  // an ndarray of dtype float64
    throw py::type_error(
        where() + " must be a numpy array of float64, got " +
        (py::isinstance<py::array>(out)
             ? "an array of dtype " +
                   std::string(py::str(py::reinterpret_borrow<py::array>(out).dtype()))
             : std::string(py::str(py::type::handle_of(out)))));
  auto a = py::reinterpret_borrow<py::array>(out);
  const bool vector = Derived::ColsAtCompileTime == 1;
  const bool shape_ok = vector
                            ? (a.ndim() == 1 && a.shape(0) == m.size())
                            : (a.ndim() == 2 && a.shape(0) == m.rows() && a.shape(1) == m.cols());
  if (!shape_ok) {
    std::string want = vector
                           ? "(" + std::to_string(m.size()) + ",)"
                           : "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
    throw py::value_error(where() + " has shape " + std::string(py::str(a.attr("shape"))) +
                          ", expected " + want);
  }
  if (!a.writeable()) throw py::value_error(where() + " is read-only");
  double* dst = static_cast<double*>(a.mutable_data());
  if (a.flags() & py::array::f_style) {  // Eigen's own layout (1-D: contiguous): one block copy
    std::copy(m.data(), m.data() + m.size(), dst);
    return;
  }
  using Stride = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
  const auto outer = vector ? 0 : a.strides(1) / static_cast<py::ssize_t>(sizeof(double));
  const auto inner = a.strides(0) / static_cast<py::ssize_t>(sizeof(double));
  Eigen::Map<Eigen::MatrixXd, 0, Stride>(dst, m.rows(), m.cols(), Stride(outer, inner)) = m;
}

/// What a kernel returns for its outputs living in Data (or ConstraintData): new arrays by
/// default (one output: an array, several: a tuple); with `out` (an array, or a tuple of as
/// many arrays as outputs) the results are copied into those arrays and `out` is returned:
/// no allocation per call, one copy of the result.
template <class... Derived>
py::object results(const char* who, const py::object& out,
                   const Eigen::PlainObjectBase<Derived>&... m) {
  constexpr std::size_t n = sizeof...(Derived);
  if (out.is_none()) {
    if constexpr (n == 1) return copy_of(m...);
    else return py::make_tuple(copy_of(m)...);
  }
  if constexpr (n == 1) {
    copy_into(who, m..., out);
  } else {
    if (!py::isinstance<py::tuple>(out) || py::len(out) != n)
      throw py::type_error(std::string("liedyn: ") + who + ": out must be a tuple of " +
                           std::to_string(n) + " arrays");
    std::size_t i = 0;
    (copy_into(who, m, out[py::int_(i++)]), ...);
  }
  return out;
}

/// The Python object wrapping `data` (every Data reaching a binding is a Python-owned one).
inline py::handle owner_of(Data& data) {
  return py::detail::get_object_handle(&data, py::detail::get_type_info(typeid(Data)));
}

/// A Data built for another model would be indexed out of bounds, or (same sizes) give a
/// plausible wrong answer: refused with liedyn.InvalidArgument (a ValueError).
inline void check_data(const char* who, const Model& model, const Data& data) {
  if (data.model_id == model.id()) return;
  const bool same_sizes = data.num_bodies() == model.num_bodies() && data.tau.size() == model.nv();
  if (same_sizes)
    throw InvalidArgument(std::string("liedyn: ") + who +
                          ": data was made for another Model object of the same sizes (a model "
                          "loaded or built again is a new model, whose Data must be made anew): "
                          "make one with liedyn.Data(model)");
  throw InvalidArgument(
      std::string("liedyn: ") + who + ": data was made for a model with " +
      std::to_string(data.num_bodies()) + " bodies and nv = " + std::to_string(data.tau.size()) +
      " (another Model object), this model has " + std::to_string(model.num_bodies()) +
      " bodies and nv = " + std::to_string(model.nv()) + ": make one with liedyn.Data(model)");
}

/// The index of the model frame named `name`, or KeyError naming the closest names (module.cpp).
int frame_index(const char* who, const Model& model, const std::string& name);

/// Whether the bindings refuse non-finite inputs (liedyn.set_finite_checks; on by default).
bool finite_checks_enabled();

/// A NaN or infinity in an input would come back as a non-finite result or a misleading error
/// far from its cause (a rank-deficient constraint Jacobian): refused at the boundary.
template <class Derived>
void check_finite(const char* who, const char* what, const Eigen::MatrixBase<Derived>& v) {
  if (finite_checks_enabled() && !v.allFinite())
    throw InvalidArgument(std::string("liedyn: ") + who + ": " + what +
                          " has a non-finite entry (NaN or infinity)");
}

/// The state's sizes, by the library's own check (the module builds with LIEDYN_ENABLE_CHECKS),
/// and its entries finite.
inline void check_state(const char* who, const Model& model, const State& x) {
  liedyn::detail::check_state(who, model, x);
  check_finite(who, "state.H", x.H.matrix());
  check_finite(who, "state.s", x.s);
  check_finite(who, "state.nu", x.nu);
  check_finite(who, "state.r", x.r);
}

/// Both of the above: every kernel binding starts with this.
inline void check_call(const char* who, const Model& model, const Data& data, const State& x) {
  check_data(who, model, data);
  check_state(who, model, x);
}

/// The workspaces (Data, ConstraintData, BatchWorkspace) that a call is using with the GIL
/// released. Two threads computing in one workspace at once would race on its buffers (a wrong
/// answer, or a crash), so the second call is refused. Read and written with the GIL held only,
/// which is what makes it safe without a lock of its own.
std::vector<const void*>& workspaces_in_use();

/// Holds `workspace` for one call: InvalidArgument when another thread's call holds it.
/// Construct and destroy with the GIL held.
class WorkspaceClaim {
 public:
  WorkspaceClaim(const char* who, const char* what, const void* workspace) : workspace_(workspace) {
    auto& busy = workspaces_in_use();
    if (std::find(busy.begin(), busy.end(), workspace) != busy.end())
      throw InvalidArgument(std::string("liedyn: ") + who + ": " + what +
                            " is in use by a call in another thread; give each thread its own");
    busy.push_back(workspace);  // no allocation once the vector has held as many
  }
  ~WorkspaceClaim() {
    auto& busy = workspaces_in_use();
    busy.erase(std::find(busy.begin(), busy.end(), workspace_));
  }
  WorkspaceClaim(const WorkspaceClaim&) = delete;
  WorkspaceClaim& operator=(const WorkspaceClaim&) = delete;

 private:
  const void* workspace_;
};

/// Runs `compute` with the GIL released, so that other Python threads run meanwhile (every
/// kernel call goes through here), holding `data` for the call. Returns what `compute` returns,
/// references included (results() then copies them with the GIL held again).
template <class Compute>
decltype(auto) released(const char* who, Data& data, Compute&& compute) {
  const WorkspaceClaim claim(who, "data", &data);
  const py::gil_scoped_release release;  // destroyed first: the claim ends with the GIL held
  return compute();
}

/// released() for the constrained kernels: holds `cdata` as well.
template <class Compute>
decltype(auto) released(const char* who, Data& data, ConstraintData<double>& cdata,
                        Compute&& compute) {
  const WorkspaceClaim claim(who, "constraint data", &cdata);
  return released(who, data, std::forward<Compute>(compute));
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
void bind_batch(py::module_& m);     // the batch layer and rollouts (batch.cpp)
void bind_contact(py::module_& m);   // frictional contacts: step, their batch (contact.cpp)
void bind_pickling(py::module_& m);  // a Model as plain data and back (pickle.cpp)
void bind_testing(py::module_& m);
void bind_interop(py::module_& m);  // liedyn.interop: other libraries' conventions (interop.cpp)
void bind_pinocchio_view(
    py::module_& interop);               // liedyn.interop.PinocchioView (pinocchio_view.cpp)
void bind_late_members(py::module_& m);  // members whose types are bound last (module.cpp)

}  // namespace python
}  // namespace liedyn

namespace pybind11 {
namespace detail {

/// VectorRef, MatrixRef: a float64 array laid out as Eigen stores it (a contiguous vector, a
/// Fortran-ordered matrix) is viewed directly; anything else goes through refuse_non_real, then
/// pybind11's own Eigen::Ref caster (kept alive here: the Ref may view the copy it made of a
/// non-contiguous or integer array). That caster is built only then: building one creates an
/// empty numpy array and loading allocates twice, which was a good part of a small kernel's
/// call overhead.
template <class Wrapped, class Ref, int NDim>
struct checked_ref_caster {
  std::optional<make_caster<Ref>> inner;
  std::optional<Wrapped> value;

  // The plain matrix's name: an argument accepts any array-like of numbers (a list, an integer
  // array: converted), so signatures and stubs say ArrayLike, as for a plain Eigen argument;
  // pybind11's own for a Ref says NDArray, true only of a Ref that cannot copy.
  static constexpr auto name = make_caster<typename Ref::PlainObject>::name;
  bool load(handle src, bool convert) {
    if (view_in_place(src)) return true;
    liedyn::python::refuse_non_real(src, NDim);
    inner.emplace();
    if (!inner->load(src, convert)) return false;
    value.emplace(static_cast<Ref&>(*inner));
    return true;
  }
  operator Wrapped*() { return &*value; }
  operator Wrapped&() { return *value; }
  template <class T>
  using cast_op_type = pybind11::detail::cast_op_type<T>;

 private:
  bool view_in_place(handle src) {
    if (!isinstance<array_t<double>>(src)) return false;  // float64, native byte order
    const auto a = reinterpret_borrow<array>(src);
    const int layout = NDim == 1 ? array::c_style : array::f_style;
    if (a.ndim() != NDim || !(a.flags() & layout) || !(a.flags() & npy_api::NPY_ARRAY_ALIGNED_))
      return false;
    const auto* data = static_cast<const double*>(a.data());
    if constexpr (NDim == 1)
      value.emplace(Ref(Eigen::Map<const Eigen::VectorXd>(data, a.shape(0))));
    else value.emplace(Ref(Eigen::Map<const Eigen::MatrixXd>(data, a.shape(0), a.shape(1))));
    return true;
  }
};

template <>
struct type_caster<liedyn::python::VectorRef>
    : checked_ref_caster<liedyn::python::VectorRef, Eigen::Ref<const Eigen::VectorXd>, 1> {};
template <>
struct type_caster<liedyn::python::MatrixRef>
    : checked_ref_caster<liedyn::python::MatrixRef, Eigen::Ref<const Eigen::MatrixXd>, 2> {};

}  // namespace detail
}  // namespace pybind11
