// liedyn Python bindings — liedyn.interop.PinocchioView: the kernels called with Pinocchio's
// (q, v, a | τ) arrays and answering in them, the conversion done in C++ inside the call
// (include/liedyn/interop/pinocchio_coordinates.hpp), so that a Pinocchio user pays for no
// conversion in Python. Batch rows from Pinocchio's (N, nq) and (N, nv) arrays too.
#include <liedyn/interop/pinocchio_coordinates.hpp>

#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using interop::JointPermutation;
using Coordinates = interop::PinocchioCoordinates<double>;
using ConstraintSet = liedyn::ConstraintSet<double>;
using ConstraintData = liedyn::ConstraintData<double>;

// What a view holds: the model (kept alive by the Python object), the index maps, and the
// scratch one call converts into (a State and two velocity-sized vectors): a view serves one
// thread at a time, as a Data does.
struct PinocchioView {
  PinocchioView(const Model& model, const JointPermutation& perm)
      : model(&model), coordinates(model, perm), x(model), ours(model.nv()), theirs(model.nv()) {}

  const Model* model;
  Coordinates coordinates;
  State x;
  VectorXd ours, theirs;
  MatrixXd matrix;  // a Jacobian in Pinocchio's coordinates, sized on first use

  // x from Pinocchio's (q, v), checked: sizes and quaternions (converted), finiteness.
  void read_state(const char* who, const VectorRef& q, const VectorRef& v) {
    check_size(who, "q", q, coordinates.nq());
    check_size(who, "v", v, coordinates.nv());
    check_finite(who, "q", q);
    check_finite(who, "v", v);
    try {
      coordinates.state_from(q, v, x);
    } catch (const InvalidArgument&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw InvalidArgument(std::string("liedyn: ") + who + ": " + e.what());
    }
  }

  // `ours` from Pinocchio's velocity-sized input (τ or a), checked.
  void read_velocity_sized(const char* who, const char* what, const VectorRef& in) {
    check_size(who, what, in, model->nv());
    check_finite(who, what, in);
    coordinates.to_ours(in, ours);
  }

  // Pinocchio's velocity-sized output from ours: a new array, or copied into `out`.
  py::object answer(const char* who, const VectorXd& result, const py::object& out) {
    coordinates.to_theirs(result, theirs);
    return results(who, out, theirs);
  }
};

// (N, k) arrays of float64, C-ordered: the caller's array when it is one, else a converted copy.
using RowsArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using RowsMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

RowsArray rows_argument(const py::handle& in) {
  refuse_non_real(in, 2);
  RowsArray a = RowsArray::ensure(in);
  if (!a || a.ndim() != 2)
    throw py::type_error("liedyn: PinocchioView.batch_states: expected a 2-D array of float64");
  return a;
}

RowsMap rows_map(const RowsArray& a) { return RowsMap(a.data(), a.shape(0), a.shape(1)); }

}  // namespace

void bind_pinocchio_view(py::module_& m) {
  py::class_<PinocchioView>(
      m, "PinocchioView",
      "The kernels in Pinocchio's coordinates: q = [p; qx qy qz qw; s], v, a, tau = [base "
      "(Pinocchio's free flyer: the body twist, its derivative, the body wrench); joints], the "
      "joints in Pinocchio's order. Converts in C++ inside each call. Holds scratch: one view per "
      "thread, as a Data. docs/interop.md, 'Pinocchio's coordinates as input'.")
      .def(py::init([](const Model& model, const std::optional<JointPermutation>& perm) {
             if (!perm)
               throw InvalidArgument(
                   "liedyn: PinocchioView: give Pinocchio's joint order: "
                   "perm=JointPermutation.from_names(model, [n for n in pin_model.names[1:] if n "
                   "!= 'root_joint']), or PinocchioView.from_pinocchio(model, pin_model), or "
                   "perm=JointPermutation() to state that the orders agree");
             return PinocchioView(model, *perm);
           }),
           py::arg("model"), py::arg("perm"), py::keep_alive<1, 2>(),
           "A view of model in Pinocchio's coordinates, its joints in the order perm gives "
           "(required: JointPermutation() states that Pinocchio's order is liedyn's).")
      .def_static(
          "from_pinocchio",
          [](const Model& model, const py::object& pin_model) {
            // Pinocchio's model.names: "universe", then (a moving base) its free flyer, then the
            // joints in its order.
            const auto names = pin_model.attr("names").cast<std::vector<std::string>>();
            const std::size_t first = model.has_moving_base() ? 2 : 1;
            if (names.size() < first)
              throw InvalidArgument("liedyn: PinocchioView.from_pinocchio: pin_model.names has " +
                                    std::to_string(names.size()) + " names");
            const std::vector<std::string> joints(names.begin() + first, names.end());
            try {
              return PinocchioView(model, JointPermutation::from_names(model, joints));
            } catch (const std::invalid_argument& e) {
              throw InvalidArgument(std::string("liedyn: PinocchioView.from_pinocchio: ") +
                                    e.what());
            }
          },
          py::arg("model"), py::arg("pin_model"), py::keep_alive<0, 1>(),
          "The view of model in the joint order of pin_model (a pinocchio.Model of the same "
          "robot: its names after 'universe' and, for a moving base, its free flyer).")
      .def_property_readonly(
          "nq", [](const PinocchioView& v) { return v.coordinates.nq(); }, "Size of Pinocchio's q.")
      .def_property_readonly(
          "nv", [](const PinocchioView& v) { return v.coordinates.nv(); },
          "Size of Pinocchio's v, a and tau.")
      .def(
          "state",
          [](PinocchioView& view, const VectorRef& q, const VectorRef& v) {
            view.read_state("PinocchioView.state", q, v);
            return view.x;
          },
          py::arg("q"), py::arg("v"),
          "liedyn's State of Pinocchio's (q, v) (a new State). Every quaternion of q must be of "
          "unit norm within liedyn.rotation_tolerance.")
      .def(
          "configuration",
          [](const PinocchioView& view, const State& x) {
            VectorXd q(view.coordinates.nq());
            check_state("PinocchioView.configuration", *view.model, x);
            view.coordinates.configuration_to(x, q);
            return q;
          },
          py::arg("x"), "Pinocchio's q of the State x (the base quaternion with w >= 0).")
      .def(
          "aba",
          [](PinocchioView& view, Data& d, const VectorRef& q, const VectorRef& v,
             const VectorRef& tau, const py::object& out) {
            const char* who = "PinocchioView.aba";
            check_data(who, *view.model, d);
            view.read_state(who, q, v);
            view.read_velocity_sized(who, "tau", tau);
            const VectorXd& ddq = released(
                who, d, [&]() -> decltype(auto) { return aba(*view.model, d, view.x, view.ours); });
            return view.answer(who, ddq, out);
          },
          py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"), py::kw_only(),
          py::arg("out") = py::none(),
          "Pinocchio's aba(model, data, q, v, tau): its a (free flyer: the body acceleration), "
          "by liedyn's articulated-body algorithm.")
      .def(
          "rnea",
          [](PinocchioView& view, Data& d, const VectorRef& q, const VectorRef& v,
             const VectorRef& a, const py::object& out) {
            const char* who = "PinocchioView.rnea";
            check_data(who, *view.model, d);
            view.read_state(who, q, v);
            view.read_velocity_sized(who, "a", a);
            const VectorXd& tau = released(who, d, [&]() -> decltype(auto) {
              return rnea(*view.model, d, view.x, view.ours);
            });
            return view.answer(who, tau, out);
          },
          py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"), py::kw_only(),
          py::arg("out") = py::none(),
          "Pinocchio's rnea(model, data, q, v, a): its tau (free flyer: the body wrench), by "
          "liedyn's recursive Newton-Euler algorithm.")
      .def(
          "aba_derivatives",
          [](PinocchioView& view, Data& d, const VectorRef& q, const VectorRef& v,
             const VectorRef& tau) {
            const char* who = "PinocchioView.aba_derivatives";
            check_data(who, *view.model, d);
            view.read_state(who, q, v);
            view.read_velocity_sized(who, "tau", tau);
            const Model& mo = *view.model;
            const int nv = mo.nv();
            released(who, d, [&] { linearize(mo, d, view.x, view.ours); });
            MatrixXd ddq_dq(nv, nv), ddq_dv(nv, nv), ddq_dtau(nv, nv);
            // linearize's Body rows: A = [0 …; ∂ν̄̇/∂(η, s) ∂ν̄̇/∂(ν, r)], B = [0; M⁻¹].
            view.coordinates.matrix_to_theirs(d.linearization.A.bottomLeftCorner(nv, nv), ddq_dq);
            view.coordinates.matrix_to_theirs(d.linearization.A.bottomRightCorner(nv, nv), ddq_dv);
            view.coordinates.matrix_to_theirs(d.Minv, ddq_dtau);
            view.coordinates.to_theirs(d.ddq, view.theirs);
            return py::make_tuple(copy_of(view.theirs), copy_of(ddq_dq), copy_of(ddq_dv),
                                  copy_of(ddq_dtau));
          },
          py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
          "Pinocchio's computeABADerivatives(model, data, q, v, tau): (a, ddq_dq, ddq_dv, "
          "ddq_dtau), each Jacobian nv x nv in Pinocchio's coordinates (its configuration "
          "tangent: the free flyer's q + dq = M exp6(dq), liedyn's eta), from liedyn's exact "
          "Body linearization.")
      .def(
          "constrained_forward_dynamics",
          [](PinocchioView& view, Data& d, const ConstraintSet& set, ConstraintData& c,
             const VectorRef& q, const VectorRef& v, const VectorRef& tau, const py::object& out) {
            const char* who = "PinocchioView.constrained_forward_dynamics";
            const Model& mo = *view.model;
            check_data(who, mo, d);
            LIEDYN_CHECK(set.fits(mo),
                         std::string(who) + ": the constraint set was built for another model");
            view.read_state(who, q, v);
            view.read_velocity_sized(who, "tau", tau);
            const VectorXd& ddq = released(who, d, c, [&]() -> decltype(auto) {
              return constrained_forward_dynamics(mo, d, set, c, view.x, view.ours);
            });
            return view.answer(who, ddq, out);
          },
          py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("q"), py::arg("v"),
          py::arg("tau"), py::kw_only(), py::arg("out") = py::none(),
          "Forward dynamics under the constraint set (liedyn's exact KKT route), in Pinocchio's "
          "coordinates: its a; cdata.lambda in each constraint's sense (a rigid or point "
          "contact's LOCAL = Body, LOCAL_WORLD_ALIGNED = Mixed, as Pinocchio's "
          "constraintDynamics).")
      .def(
          "batch_states",
          [](const PinocchioView& view, const py::handle& Q_in, const py::handle& V_in) {
            const char* who = "PinocchioView.batch_states";
            const Model& mo = *view.model;
            // Row i of a C-ordered (N, nq) array is one contiguous q: read in place (a
            // column-major Ref would first copy the whole array entry by entry).
            const RowsArray Q_array = rows_argument(Q_in), V_array = rows_argument(V_in);
            const RowsMap Q = rows_map(Q_array), V = rows_map(V_array);
            check_finite(who, "Q", Q);
            check_finite(who, "V", V);
            LIEDYN_CHECK(
                Q.cols() == view.coordinates.nq() && V.cols() == mo.nv() && Q.rows() == V.rows(),
                std::string(who) + ": Q must be (N, " + std::to_string(view.coordinates.nq()) +
                    ") and V (N, " + std::to_string(mo.nv()) + "), got (" +
                    std::to_string(Q.rows()) + ", " + std::to_string(Q.cols()) + ") and (" +
                    std::to_string(V.rows()) + ", " + std::to_string(V.cols()) + ")");
            const Eigen::Index N = Q.rows();
            const int size = batch_state_size(mo);
            py::array_t<double> rows({static_cast<py::ssize_t>(N), static_cast<py::ssize_t>(size)});
            Eigen::Map<MatrixXd> block(rows.mutable_data(), size, N);
            {
              State x(mo);
              const py::gil_scoped_release release;
              for (Eigen::Index i = 0; i < N; ++i) {
                try {
                  view.coordinates.state_from(Q.row(i).transpose(), V.row(i).transpose(), x);
                } catch (const std::invalid_argument& e) {
                  throw InvalidArgument(std::string("liedyn: ") + who + ": row " +
                                        std::to_string(i) + ": " + e.what());
                }
                write_state_column(mo, x, block.col(i));
              }
            }
            return rows;
          },
          py::arg("Q"), py::arg("V"),
          "Batch rows (N, batch_state_size(model)) from Pinocchio's configurations Q (N, nq) and "
          "velocities V (N, nv), row i from (Q[i], V[i]), converted in C++.")
      .def("__repr__", [](const PinocchioView& v) {
        return "<liedyn.interop.PinocchioView nq=" + std::to_string(v.coordinates.nq()) +
               ", nv=" + std::to_string(v.coordinates.nv()) + ">";
      });
}

}  // namespace python
}  // namespace liedyn
