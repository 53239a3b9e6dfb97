// liedyn Python bindings — the batch layer (docs/batch.md): a kernel over N states, or N
// rollouts, on a BatchWorkspace's thread pool, with the GIL released for the whole batch. Arrays
// carry the state index first: states (N, batch_state_size), vectors (N, k), matrices
// (N, rows, cols). Their memory is the C++ layer's column-major blocks, so nothing is copied on
// the way in (C-contiguous float64) or out (new arrays, or the caller's `out=`).
#include <string>
#include <variant>
#include <vector>

#include <liedyn/algorithm/batch.hpp>

#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using Workspace = BatchWorkspace<double>;
using ConstraintSet = liedyn::ConstraintSet<double>;
using LinearizationOptions = liedyn::LinearizationOptions<double>;
using ConstrainedOptions = ConstrainedDynamicsOptions<double>;
using In = Eigen::Map<const MatrixXd>;
using Out = Eigen::Map<MatrixXd>;
using Shape = std::vector<py::ssize_t>;

std::string shape_text(const Shape& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

/// A batch input of shape `shape` (the state index first, one vector of shape.back() entries
/// per item), viewed as the column-major shape.back() × (items) block the C++ layer reads. A
/// C-contiguous float64 array is viewed as it is; another real array is converted once.
class BatchInput {
 public:
  BatchInput(const char* who, const char* what, const py::handle& src, const Shape& shape) {
    refuse_non_real(src, static_cast<int>(shape.size()));
    array_ = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(src);
    if (!array_)
      throw py::type_error(std::string("liedyn: ") + who + ": " + what +
                           " must be an array of float64");
    const Shape got(array_.shape(), array_.shape() + array_.ndim());
    if (got != shape)
      throw InvalidArgument(std::string("liedyn: ") + who + ": " + what + " has shape " +
                            shape_text(got) + ", expected " + shape_text(shape));
    if (finite_checks_enabled() && !block().allFinite())
      throw InvalidArgument(std::string("liedyn: ") + who + ": " + what +
                            " has a non-finite entry (NaN or infinity)");
  }
  /// rows × (items): item i's vector in column i (items from the shape: rows may be 0).
  In block() const {
    const py::ssize_t last = array_.ndim() - 1;
    py::ssize_t items = 1;
    for (py::ssize_t k = 0; k < last; ++k) items *= array_.shape(k);
    return In(array_.data(), array_.shape(last), items);
  }

 private:
  py::array_t<double, py::array::c_style | py::array::forcecast> array_;
};

/// A batch output of shape `shape`: the state index (and, for rollouts, the step) first, then
/// one vector, or one rows × cols matrix, per item. Its memory is the column-major block the
/// C++ layer writes: a vector per item contiguous, a matrix per item column-major (the last two
/// axes' strides 8 and 8·rows). A new array, or the caller's `out` when it has that layout
/// (an array this function returned before has it).
class BatchOutput {
 public:
  /// `matrix_axes`: 2 when the last two axes are a matrix per item, 1 for a vector.
  BatchOutput(const char* who, const Shape& shape, int matrix_axes, const py::object& out) {
    std::vector<py::ssize_t> strides(shape.size());
    const auto n = static_cast<py::ssize_t>(shape.size());
    py::ssize_t stride = sizeof(double);
    if (matrix_axes == 2) {  // column-major matrix per item
      strides[n - 2] = stride;
      strides[n - 1] = stride * shape[n - 2];
      stride *= shape[n - 2] * shape[n - 1];
    } else {
      strides[n - 1] = stride;
      stride *= shape[n - 1];
    }
    for (py::ssize_t k = n - 1 - matrix_axes; k >= 0; --k) {
      strides[k] = stride;
      stride *= shape[k];
    }
    rows_ = matrix_axes == 2 ? shape[n - 2] : shape[n - 1];
    cols_ = 1;  // every item's columns, from the shape: rows_ may be 0
    for (py::ssize_t k = 0; k < n; ++k)
      if (k != (matrix_axes == 2 ? n - 2 : n - 1)) cols_ *= shape[k];
    if (out.is_none()) {
      // numpy lays out a new array with these strides over one block of stride bytes.
      array_ = py::array_t<double>(shape, strides);
      return;
    }
    const auto where = [who] { return std::string("liedyn: ") + who + ": out"; };
    if (!py::isinstance<py::array_t<double>>(out))
      throw py::type_error(where() + " must be a numpy array of float64");
    array_ = py::reinterpret_borrow<py::array_t<double>>(out);
    const Shape got(array_.shape(), array_.shape() + array_.ndim());
    const Shape got_strides(array_.strides(), array_.strides() + array_.ndim());
    if (got != shape)
      throw py::value_error(where() + " has shape " + shape_text(got) + ", expected " +
                            shape_text(shape));
    if (got_strides != strides)
      throw py::value_error(where() + " has strides " + shape_text(got_strides) + ", expected " +
                            shape_text(strides) +
                            " (pass an array this function returned: its layout is the C++ "
                            "batch block's)");
    if (!array_.writeable()) throw py::value_error(where() + " is read-only");
  }
  /// rows × (columns of every item), item after item.
  Out block() { return Out(array_.mutable_data(), rows_, cols_); }
  py::array array() const { return array_; }

 private:
  py::ssize_t rows_ = 0, cols_ = 0;
  py::array_t<double> array_;
};

/// Runs `compute` with the GIL released, holding the workspace for the call.
template <class Compute>
void run_released(const char* who, Workspace& ws, Compute&& compute) {
  const WorkspaceClaim claim(who, "batch workspace", &ws);
  const py::gil_scoped_release release;
  compute();
}

/// N of a states (or initial) array (N, batch_state_size), whose shape BatchInput checks.
py::ssize_t count_of(const char* who, const py::handle& states) {
  refuse_non_real(states, 2);
  const py::array a = py::array::ensure(states);
  if (!a || a.ndim() != 2)
    throw py::value_error(std::string("liedyn: ") + who +
                          ": states must be an array of shape (N, batch_state_size(model))");
  return a.shape(0);
}

BatchInput states_input(const char* who, const Model& model, const py::handle& states) {
  const py::ssize_t N = count_of(who, states);
  return BatchInput(who, "states", states, {N, batch_state_size(model)});
}

void check_set(const char* who, const Model& model, const ConstraintSet& set) {
  LIEDYN_CHECK(set.nv() == model.nv(),
               std::string(who) + ": the constraint set was built for another model");
}

using VectorKernel = void (*)(const Model&, Workspace&, const BatchIn<double>&,
                              const BatchIn<double>&, BatchOut<double>);

/// The entry points with one nv-vector in and one out per state (rnea, eidamb, aba).
void def_vector_kernel(py::module_& m, const char* name, const char* input, VectorKernel kernel,
                       const char* doc) {
  m.def(
      name,
      [name, input, kernel](const Model& mo, Workspace& ws, const py::handle& states,
                            const py::handle& in, const py::object& out) {
        const BatchInput X = states_input(name, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv();
        const BatchInput u(name, input, in, {N, nv});
        BatchOutput y(name, {N, nv}, 1, out);
        run_released(name, ws, [&] { kernel(mo, ws, X.block(), u.block(), y.block()); });
        return y.array();
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg(input), py::kw_only(),
      py::arg("out") = py::none(), doc);
}

using MatrixKernel = void (*)(const Model&, Workspace&, const BatchIn<double>&, BatchOut<double>);

/// The entry points with one nv × nv matrix out per state (crba, immamb).
void def_matrix_kernel(py::module_& m, const char* name, MatrixKernel kernel, const char* doc) {
  m.def(
      name,
      [name, kernel](const Model& mo, Workspace& ws, const py::handle& states,
                     const py::object& out) {
        const BatchInput X = states_input(name, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv();
        BatchOutput y(name, {N, nv, nv}, 2, out);
        run_released(name, ws, [&] { kernel(mo, ws, X.block(), y.block()); });
        return y.array();
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::kw_only(),
      py::arg("out") = py::none(), doc);
}

/// Columns [begin, begin + count) of every item's matrix: a view sharing `whole`'s memory.
py::array columns(const py::array& whole, py::ssize_t begin, py::ssize_t count) {
  return whole[py::make_tuple(py::ellipsis(), py::slice(begin, begin + count, 1))];
}

void bind_states(py::module_& m) {
  m.def(
      "batch_state_size", [](const Model& mo) { return batch_state_size(mo); }, py::arg("model"),
      "Entries of one state in a batch: 18 + nq + nv for a moving base ([R (column-major, 9); p "
      "(3); s; nu; r] with (R, p) = ^A H_0, nu the body twist), nq + nv for a welded one ([s; "
      "r]); nq, nv the joints' sizes.");
  m.def(
      "batch_states",
      [](const Model& mo, const std::vector<State>& xs) {
        py::array_t<double> a(
            {static_cast<py::ssize_t>(xs.size()), static_cast<py::ssize_t>(batch_state_size(mo))});
        Out block(a.mutable_data(), batch_state_size(mo), static_cast<Eigen::Index>(xs.size()));
        for (std::size_t i = 0; i < xs.size(); ++i) {
          check_state("batch_states", mo, xs[i]);
          write_state_column(mo, xs[i], block.col(static_cast<Eigen::Index>(i)));
        }
        return a;
      },
      py::arg("model"), py::arg("states"),
      "The states as a batch array (N, batch_state_size(model)), row i = states[i]; the rotation "
      "is stored whole, so a state goes in and out exactly.");
  m.def(
      "batch_state_list",
      [](const Model& mo, const py::handle& states) {
        const BatchInput X = states_input("batch_state_list", mo, states);
        std::vector<State> xs;
        xs.reserve(static_cast<std::size_t>(X.block().cols()));
        for (Eigen::Index i = 0; i < X.block().cols(); ++i) {
          State x(mo);
          read_state_column(mo, X.block().col(i), x);
          xs.push_back(std::move(x));
        }
        return xs;
      },
      py::arg("model"), py::arg("states"),
      "The rows of a batch array (N, batch_state_size(model)) as a list of States.");
}

void bind_workspace(py::module_& m) {
  py::class_<Workspace>(m, "BatchWorkspace",
                        "What the batch kernels need besides the model: a pool of `threads` "
                        "worker threads (the calling thread is one of them) and one Data (and "
                        "ConstraintData) per worker. Build it once and reuse it; one batch call "
                        "at a time (two Python threads batching at once each keep their own).")
      .def(py::init([](const Model& mo, int threads) {
             LIEDYN_CHECK(threads >= 1, "BatchWorkspace: threads must be at least 1");
             return std::make_unique<Workspace>(mo, threads);
           }),
           py::arg("model"), py::arg("threads") = 1)
      .def(py::init([](const Model& mo, const ConstraintSet& set, int threads) {
             LIEDYN_CHECK(threads >= 1, "BatchWorkspace: threads must be at least 1");
             return std::make_unique<Workspace>(mo, set, threads);
           }),
           py::arg("model"), py::arg("set"), py::arg("threads") = 1,
           "For the unconstrained kernels and those of the constraint set `set`.")
      .def_property_readonly("threads", &Workspace::threads)
      .def_property_readonly("has_constraints", &Workspace::has_constraints)
      .def("__repr__", [](const Workspace& ws) {
        return "liedyn.BatchWorkspace(threads=" + std::to_string(ws.threads()) +
               (ws.has_constraints() ? ", constraint rows=" + std::to_string(ws.constraint_rows())
                                     : std::string()) +
               ")";
      });
}

void bind_unconstrained(py::module_& m) {
  def_vector_kernel(m, "batch_rnea", "ddq", &batch_rnea<double>,
                    "rnea at every state: row i of the result (N, nv) is tau(states[i], ddq[i]).");
  def_vector_kernel(m, "batch_eidamb", "ddq", &batch_eidamb<double>,
                    "eidamb at every state: row i of the result (N, nv) is tau(states[i], "
                    "ddq[i]).");
  def_vector_kernel(m, "batch_aba", "tau", &batch_aba<double>,
                    "aba at every state: row i of the result (N, nv) is ddq(states[i], tau[i]).");
  def_matrix_kernel(m, "batch_crba", &batch_crba<double>,
                    "crba at every state: result[i] (N, nv, nv) is M at states[i].");
  def_matrix_kernel(m, "batch_immamb", &batch_immamb<double>,
                    "immamb at every state: result[i] (N, nv, nv) is M^-1 at states[i].");
  m.def(
      "batch_frame_placements",
      [](const Model& mo, Workspace& ws, const py::handle& states,
         const std::vector<std::variant<int, std::string>>& frames) {
        const char* who = "batch_frame_placements";
        std::vector<int> frame_ids;  // names resolved (KeyError naming the closest ones)
        for (const auto& frame : frames) {
          const int* id = std::get_if<int>(&frame);
          frame_ids.push_back(id ? *id : frame_index(who, mo, std::get<std::string>(frame)));
        }
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), F = static_cast<py::ssize_t>(frame_ids.size());
        BatchOutput y(who, {N, 12 * F}, 1, py::none());
        run_released(who, ws,
                     [&] { batch_frame_placements(mo, ws, X.block(), frame_ids, y.block()); });
        // [R (column-major); p] per frame: R as (3, 3) with column-major strides, p after it.
        const py::array whole = y.array();
        const auto s = static_cast<py::ssize_t>(sizeof(double));
        py::array R(py::dtype::of<double>(), {N, F, py::ssize_t(3), py::ssize_t(3)},
                    {12 * F * s, 12 * s, s, 3 * s}, whole.data(), whole);
        py::array p(py::dtype::of<double>(), {N, F, py::ssize_t(3)}, {12 * F * s, 12 * s, s},
                    static_cast<const double*>(whole.data()) + 9, whole);
        return py::make_tuple(R, p);
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg("frame_ids"),
      "The placements ^A H_F of the model frames `frame_ids` (indices or names) at every state: "
      "(R (N, F, 3, 3), p "
      "(N, F, 3)), R[i, f] and p[i, f] the rotation and position of frame frame_ids[f] at "
      "states[i], in the inertial frame.");
  m.def(
      "batch_eidamb_derivatives",
      [](const Model& mo, Workspace& ws, const py::handle& states, const py::handle& ddq,
         TwistRepresentation rep) {
        const char* who = "batch_eidamb_derivatives";
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv(), nb = mo.offset(), n = mo.nv_joints();
        const BatchInput a(who, "ddq", ddq, {N, nv});
        BatchOutput D(who, {N, nv, 2 * nv}, 2, py::none());
        run_released(who, ws, [&] {
          batch_eidamb_derivatives(mo, ws, X.block(), a.block(), D.block(), rep);
        });
        const py::array whole = D.array();
        return py::make_tuple(columns(whole, 0, nb), columns(whole, nb, n),
                              columns(whole, nb + n, nb), columns(whole, 2 * nb + n, n));
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg("ddq"),
      py::arg("representation") = TwistRepresentation::Body,
      "eidamb_derivatives at every state: (D1, D2, D3, D4), each (N, nv, ·), item i the "
      "single call's at (states[i], ddq[i]) (D1, D3 have 0 columns for a welded base).");
  m.def(
      "batch_linearize",
      [](const Model& mo, Workspace& ws, const py::handle& states, const py::handle& tau,
         const LinearizationOptions& opt) {
        const char* who = "batch_linearize";
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv();
        const BatchInput u(who, "tau", tau, {N, nv});
        BatchOutput A(who, {N, 2 * nv, 2 * nv}, 2, py::none());
        BatchOutput B(who, {N, 2 * nv, nv}, 2, py::none());
        run_released(who, ws, [&] {
          batch_linearize(mo, ws, X.block(), u.block(), A.block(), B.block(), opt);
        });
        return py::make_tuple(A.array(), B.array());
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg("tau"),
      py::arg("options") = LinearizationOptions(),
      "linearize at every state: (A (N, 2nv, 2nv), B (N, 2nv, nv)), item i at (states[i], "
      "tau[i]).");
  m.def(
      "batch_linearize_discrete",
      [](const Model& mo, Workspace& ws, const py::handle& states, const py::handle& tau, double dt,
         const LinearizationOptions& opt) {
        const char* who = "batch_linearize_discrete";
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv();
        const BatchInput u(who, "tau", tau, {N, nv});
        BatchOutput A(who, {N, 2 * nv, 2 * nv}, 2, py::none());
        BatchOutput B(who, {N, 2 * nv, nv}, 2, py::none());
        run_released(who, ws, [&] {
          batch_linearize_discrete(mo, ws, X.block(), u.block(), dt, A.block(), B.block(), opt);
        });
        return py::make_tuple(A.array(), B.array());
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg("tau"), py::arg("dt"),
      py::arg("options") = LinearizationOptions(),
      "linearize_discrete (step dt) at every state: (A (N, 2nv, 2nv), B (N, 2nv, nv)).");
  m.def(
      "batch_centroidal_momentum",
      [](const Model& mo, Workspace& ws, const py::handle& states, const py::object& out) {
        const char* who = "batch_centroidal_momentum";
        const BatchInput X = states_input(who, mo, states);
        BatchOutput h(who, {X.block().cols(), 6}, 1, out);
        run_released(who, ws, [&] { batch_centroidal_momentum(mo, ws, X.block(), h.block()); });
        return h.array();
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::kw_only(),
      py::arg("out") = py::none(),
      "centroidal_momentum at every state: row i of the result (N, 6) is h_G at states[i] "
      "(linear first, centroidal frame).");
}

void bind_constrained(py::module_& m) {
  m.def(
      "batch_constrained_forward_dynamics",
      [](const Model& mo, const ConstraintSet& set, Workspace& ws, const py::handle& states,
         const py::handle& tau, ConstrainedDynamicsRoute route) {
        const char* who = "batch_constrained_forward_dynamics";
        check_set(who, mo, set);
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv(), rows = set.dimension();
        const BatchInput u(who, "tau", tau, {N, nv});
        BatchOutput ddq(who, {N, nv}, 1, py::none());
        BatchOutput lambda(who, {N, rows}, 1, py::none());
        ConstrainedOptions opt;
        opt.route = route;
        run_released(who, ws, [&] {
          batch_constrained_forward_dynamics(mo, set, ws, X.block(), u.block(), ddq.block(),
                                             lambda.block(), opt);
        });
        return py::make_tuple(ddq.array(), lambda.array());
      },
      py::arg("model"), py::arg("set"), py::arg("workspace"), py::arg("states"), py::arg("tau"),
      py::arg("route") = ConstrainedDynamicsRoute::ExactKKT,
      "constrained_forward_dynamics under `set` (the workspace's) at every state: (ddq (N, nv), "
      "lambda (N, m)).");
  m.def(
      "batch_constrained_forward_dynamics_derivatives",
      [](const Model& mo, const ConstraintSet& set, Workspace& ws, const py::handle& states,
         const py::handle& tau, TwistRepresentation rep) {
        const char* who = "batch_constrained_forward_dynamics_derivatives";
        check_set(who, mo, set);
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv(), rows = set.dimension();
        const BatchInput u(who, "tau", tau, {N, nv});
        BatchOutput ddq_dx(who, {N, nv, 2 * nv}, 2, py::none());
        BatchOutput lambda_dx(who, {N, rows, 2 * nv}, 2, py::none());
        BatchOutput ddq_dtau(who, {N, nv, nv}, 2, py::none());
        BatchOutput lambda_dtau(who, {N, rows, nv}, 2, py::none());
        run_released(who, ws, [&] {
          batch_constrained_forward_dynamics_derivatives(
              mo, set, ws, X.block(), u.block(), ddq_dx.block(), lambda_dx.block(),
              ddq_dtau.block(), lambda_dtau.block(), rep);
        });
        return py::make_tuple(ddq_dx.array(), lambda_dx.array(), ddq_dtau.array(),
                              lambda_dtau.array());
      },
      py::arg("model"), py::arg("set"), py::arg("workspace"), py::arg("states"), py::arg("tau"),
      py::arg("representation") = TwistRepresentation::Body,
      "constrained_forward_dynamics_derivatives at every state: (ddq_dx (N, nv, 2nv), lambda_dx "
      "(N, m, 2nv), ddq_dtau (N, nv, nv), lambda_dtau (N, m, nv)), x columns (eta, ds, base "
      "twist in `representation`, dr).");
  m.def(
      "batch_impulse_dynamics",
      [](const Model& mo, const ConstraintSet& set, Workspace& ws, const py::handle& states,
         double restitution) {
        const char* who = "batch_impulse_dynamics";
        check_set(who, mo, set);
        const BatchInput X = states_input(who, mo, states);
        const py::ssize_t N = X.block().cols(), nv = mo.nv(), rows = set.dimension();
        BatchOutput v_after(who, {N, nv}, 1, py::none());
        BatchOutput impulse(who, {N, rows}, 1, py::none());
        run_released(who, ws, [&] {
          batch_impulse_dynamics(mo, set, ws, X.block(), restitution, v_after.block(),
                                 impulse.block());
        });
        return py::make_tuple(v_after.array(), impulse.array());
      },
      py::arg("model"), py::arg("set"), py::arg("workspace"), py::arg("states"),
      py::arg("restitution") = 0.0,
      "impulse_dynamics under `set` at every state: (v_after (N, nv), impulse (N, m)).");
}

/// Rollouts: controls (N, K, nv); states out (N, K + 1, batch_state_size).
struct Rollout {
  Rollout(const char* who, const Model& mo, const py::handle& initial, const py::handle& controls)
      : x0(who, "initial", initial, {count_of(who, initial), batch_state_size(mo)}),
        N(x0.block().cols()),
        K(steps(who, mo, controls, N)),
        u(who, "controls", controls, {N, K, mo.nv()}),
        states(who, {N, K + 1, batch_state_size(mo)}, 1, py::none()) {}

  static py::ssize_t steps(const char* who, const Model& mo, const py::handle& controls,
                           py::ssize_t N) {
    refuse_non_real(controls, 3);
    const py::array a = py::array::ensure(controls);
    if (!a || a.ndim() != 3 || a.shape(0) != N)
      throw InvalidArgument(std::string("liedyn: ") + who + ": controls must have shape (" +
                            std::to_string(N) + ", K, " + std::to_string(mo.nv()) + ")");
    return a.shape(1);
  }

  BatchInput x0;
  py::ssize_t N, K;
  BatchInput u;
  BatchOutput states;
};

/// The rollouts with step Jacobians, with or without a constraint set: (states, A (N, K, 2nv,
/// 2nv), B (N, K, 2nv, nv)), `call(rollout, A, B)` running the C++ entry point.
template <class Call>
auto rollout_with_jacobians(const Model& mo, Workspace& ws, const py::handle& initial,
                            const py::handle& controls, Call&& call) {
  const char* who = "batch_rollout_with_jacobians";
  Rollout r(who, mo, initial, controls);
  const py::ssize_t nv = mo.nv();
  BatchOutput A(who, {r.N, r.K, 2 * nv, 2 * nv}, 2, py::none());
  BatchOutput B(who, {r.N, r.K, 2 * nv, nv}, 2, py::none());
  run_released(who, ws, [&] { call(r, A.block(), B.block()); });
  return py::make_tuple(r.states.array(), A.array(), B.array());
}

void bind_rollouts(py::module_& m) {
  const char* doc =
      "N rollouts of semi_implicit_euler_step (step dt): trajectory i starts at initial[i] "
      "(N, batch_state_size) and takes K steps under controls[i, k] (N, K, nv); returns its "
      "states x_0 .. x_K as result[i] (N, K + 1, batch_state_size). With a constraint set (the "
      "workspace's), each step is the constrained one (no projection onto the manifold).";
  m.def(
      "batch_rollout",
      [](const Model& mo, Workspace& ws, const py::handle& initial, const py::handle& controls,
         double dt) {
        Rollout r("batch_rollout", mo, initial, controls);
        run_released("batch_rollout", ws, [&] {
          batch_rollout(mo, ws, r.x0.block(), r.u.block(), dt, r.states.block());
        });
        return r.states.array();
      },
      py::arg("model"), py::arg("workspace"), py::arg("initial"), py::arg("controls"),
      py::arg("dt"), doc);
  m.def(
      "batch_rollout",
      [](const Model& mo, const ConstraintSet& set, Workspace& ws, const py::handle& initial,
         const py::handle& controls, double dt) {
        check_set("batch_rollout", mo, set);
        Rollout r("batch_rollout", mo, initial, controls);
        run_released("batch_rollout", ws, [&] {
          batch_rollout(mo, set, ws, r.x0.block(), r.u.block(), dt, r.states.block());
        });
        return r.states.array();
      },
      py::arg("model"), py::arg("set"), py::arg("workspace"), py::arg("initial"),
      py::arg("controls"), py::arg("dt"), doc);
  const char* jdoc =
      "batch_rollout that also returns every step's Jacobians (linearize_discrete at x_k, u_k, "
      "delta x in options.representation): (states (N, K + 1, batch_state_size), A (N, K, 2nv, "
      "2nv), B (N, K, 2nv, nv)), what a DDP/iLQR backward pass needs.";
  m.def(
      "batch_rollout_with_jacobians",
      [](const Model& mo, Workspace& ws, const py::handle& initial, const py::handle& controls,
         double dt, const LinearizationOptions& opt) {
        return rollout_with_jacobians(mo, ws, initial, controls, [&](Rollout& r, Out A, Out B) {
          batch_rollout_with_jacobians(mo, ws, r.x0.block(), r.u.block(), dt, r.states.block(), A,
                                       B, opt);
        });
      },
      py::arg("model"), py::arg("workspace"), py::arg("initial"), py::arg("controls"),
      py::arg("dt"), py::arg("options") = LinearizationOptions(), jdoc);
  m.def(
      "batch_rollout_with_jacobians",
      [](const Model& mo, const ConstraintSet& set, Workspace& ws, const py::handle& initial,
         const py::handle& controls, double dt, const LinearizationOptions& opt) {
        check_set("batch_rollout_with_jacobians", mo, set);
        return rollout_with_jacobians(mo, ws, initial, controls, [&](Rollout& r, Out A, Out B) {
          batch_rollout_with_jacobians(mo, set, ws, r.x0.block(), r.u.block(), dt, r.states.block(),
                                       A, B, opt);
        });
      },
      py::arg("model"), py::arg("set"), py::arg("workspace"), py::arg("initial"),
      py::arg("controls"), py::arg("dt"), py::arg("options") = LinearizationOptions(), jdoc);
}

}  // namespace

void bind_batch(py::module_& m) {
  bind_states(m);
  bind_workspace(m);
  bind_unconstrained(m);
  bind_constrained(m);
  bind_rollouts(m);
}

}  // namespace python
}  // namespace liedyn
