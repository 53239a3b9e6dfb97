// liedyn Python bindings — the time step with frictional unilateral point contacts
// (algorithm/contact_step.hpp, docs/frictional-contacts.md): the contact model (planes, contact
// points, the solver's settings), one step (`step`), and the batch layer's contact steps and
// rollouts (algorithm/batch_contact.hpp), every computation with the GIL released. Batch arrays
// carry the state index first, as python/src/batch.cpp's: their memory is the C++ layer's
// column-major blocks.
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <liedyn/algorithm/batch_contact.hpp>

#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using Plane = ContactPlane<double>;
using Spec = ContactPointSpec<double>;
using Settings = ContactStepSettings<double>;
using SolverSettings = FrictionalContactSettings<double>;
using StepWorkspace = ContactStepWorkspace<double>;
using BatchWorkspace = ContactBatchWorkspace<double>;
using Out = Eigen::Map<MatrixXd>;
using In = Eigen::Map<const MatrixXd>;

/// What `step` returns besides the next state: the solver's report and copies of the workspace's
/// per-contact results of that step.
struct StepResult {
  ContactStepResult<double> result;
  MatrixXd impulses;          ///< nc × 3, row k = λ_k in contact k's frame [t1, t2, n]
  MatrixXd contact_velocity;  ///< nc × 3, row k = c_k (same frame)
  VectorXd gap;               ///< nc
  std::vector<int> active;    ///< the active contacts, increasing
};

/// The per-step results of a batch of contact steps or rollouts, as numpy arrays whose leading
/// axes are the batch's: (N,) for batch_contact_step, (N, K) for a rollout.
struct BatchResult {
  py::array states;                    ///< (N, size) next states, or (N, K + 1, size)
  py::array impulses;                  ///< (..., nc, 3)
  py::array active_contacts;           ///< (...) int32
  py::array iterations;                ///< (...) int32
  py::array converged;                 ///< (...) bool
  py::array primal_residual;           ///< (...) float64
  py::array dual_residual;             ///< (...) float64
  py::array complementarity_residual;  ///< (...) float64
};

/// `v` as an (size / 3, 3) matrix: row k = entries 3k … 3k + 2 (a copy).
MatrixXd by_contact(const VectorXd& v) {
  MatrixXd out(v.size() / 3, 3);
  for (Eigen::Index k = 0; k < out.rows(); ++k) out.row(k) = v.segment<3>(3 * k).transpose();
  return out;
}

/// A C-ordered float64 array of `shape`, and its memory as the rows × items block the C++ layer
/// writes (item after item, `rows` entries each). The items are the product of the leading
/// `item_axes` axes, not size / rows: rows may be 0 (no contacts) with items > 0.
struct NewBlock {
  NewBlock(const std::vector<py::ssize_t>& shape, int item_axes, py::ssize_t rows)
      : array(shape), rows(rows) {
    for (int k = 0; k < item_axes; ++k) items *= shape[static_cast<std::size_t>(k)];
  }
  Out block() { return Out(array.mutable_data(), rows, items); }
  py::array_t<double> array;
  py::ssize_t rows, items = 1;
};

/// A batch input of exactly `shape`, C-ordered float64 (converted once otherwise), finite.
py::array_t<double, py::array::c_style | py::array::forcecast> batch_input(
    const char* who, const char* what, const py::handle& src, const std::vector<py::ssize_t>& shape,
    const std::string& expected) {
  refuse_non_real(src, static_cast<int>(shape.size()));
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(src);
  if (!a)
    throw py::type_error(std::string("liedyn: ") + who + ": " + what +
                         " must be an array of float64");
  const std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
  if (got != shape)
    throw InvalidArgument(std::string("liedyn: ") + who + ": " + what + " has shape " +
                          std::string(py::str(py::tuple(py::cast(got)))) + ", expected " +
                          expected);
  if (finite_checks_enabled())
    for (py::ssize_t k = 0; k < a.size(); ++k)
      if (!std::isfinite(a.data()[k]))
        throw InvalidArgument(std::string("liedyn: ") + who + ": " + what +
                              " has a non-finite entry (NaN or infinity)");
  return a;
}

/// The leading axis of a 2-D or 3-D array argument (N), or ValueError naming `what`.
py::ssize_t leading(const char* who, const char* what, const py::handle& src, int ndim,
                    const std::string& expected) {
  refuse_non_real(src, ndim);
  const py::array a = py::array::ensure(src);
  if (!a || a.ndim() != ndim)
    throw InvalidArgument(std::string("liedyn: ") + who + ": " + what + " must be an array of " +
                          "shape " + expected);
  return a.shape(0);
}

/// The report block (ContactReport::size × items, as a (lead..., 6) array) split into typed arrays
/// of shape `lead`, next to the states and impulses.
BatchResult split(py::array states, py::array impulses, const py::array& reports) {
  BatchResult r;
  r.states = std::move(states);
  r.impulses = std::move(impulses);
  const auto row = [&](int k) {
    return py::array(py::array(reports[py::make_tuple(py::ellipsis(), k)]).attr("copy")());
  };
  r.active_contacts = py::array(row(ContactReport::active_contacts).attr("astype")("int32"));
  r.iterations = py::array(row(ContactReport::iterations).attr("astype")("int32"));
  r.converged = py::array(row(ContactReport::converged).attr("astype")("bool"));
  r.primal_residual = row(ContactReport::primal_residual);
  r.dual_residual = row(ContactReport::dual_residual);
  r.complementarity_residual = row(ContactReport::complementarity_residual);
  return r;
}

/// The C++ message "liedyn: <cxx_name>: …" under the name of the Python entry point `who` (the
/// message starts with the function the user called).
[[noreturn]] void rethrow_as(const char* who, const char* cxx_name, const InvalidArgument& e) {
  std::string what = e.what();
  const std::string cxx = std::string("liedyn: ") + cxx_name + ": ";
  if (what.compare(0, cxx.size(), cxx) == 0)
    what = std::string("liedyn: ") + who + ": " + what.substr(cxx.size());
  throw InvalidArgument(what);
}

/// dt finite and > 0, checked before a batch starts (else every item would fail alike).
void check_dt(const char* who, double dt) {
  if (!(std::isfinite(dt) && dt > 0))
    throw InvalidArgument(std::string("liedyn: ") + who + ": dt must be finite and > 0, got " +
                          std::string(py::repr(py::float_(dt))));
}

void bind_model_types(py::module_& m) {
  py::enum_<ContactSolver>(m, "ContactSolver",
                           "The frictional contact solver of a contact step: Admm "
                           "(frictional_contact_admm, the default) or Pgs (projected "
                           "Gauss-Seidel).")
      .value("Admm", ContactSolver::Admm)
      .value("Pgs", ContactSolver::Pgs);

  py::class_<Plane>(m, "ContactPlane",
                    "A plane of the environment in the inertial frame A: the points p with "
                    "normal . (p - point) = 0, the free side where the normal points. The normal "
                    "need not be unit (it is normalized when a workspace is built) but must be "
                    "non-zero and finite.")
      .def(py::init([](const Eigen::Vector3d& point, const Eigen::Vector3d& normal) {
             return Plane::through(point, normal);
           }),
           py::arg("point") = Eigen::Vector3d::Zero(), py::arg("normal") = Eigen::Vector3d::UnitZ())
      .def_static("ground", &Plane::ground, "The ground z = 0 of A, free side up (+z).")
      .def_static("through", &Plane::through, py::arg("point"), py::arg("normal"),
                  "The plane through `point` with normal `normal` (both in A).")
      .def_readwrite("point", &Plane::point, "A point of the plane (A).")
      .def_readwrite("normal", &Plane::normal, "Its normal, towards the free side (A).")
      .def("__repr__", [](const Plane& p) {
        const auto v = [](const Eigen::Vector3d& x) {
          return "(" + std::string(py::repr(py::float_(x(0)))) + ", " +
                 std::string(py::repr(py::float_(x(1)))) + ", " +
                 std::string(py::repr(py::float_(x(2)))) + ")";
        };
        return "liedyn.ContactPlane(point=" + v(p.point) + ", normal=" + v(p.normal) + ")";
      });

  py::class_<Spec>(m, "ContactPointSpec",
                   "A point contact: a point of the robot (the origin of model frame `frame` "
                   "moved by `offset` in the frame's axes, or, with frame empty, the point "
                   "`offset` of body `body` in the body frame) against `plane`, with Coulomb "
                   "friction coefficient `friction` >= 0; with radius > 0 the point is the centre "
                   "of a sphere. Checked (unknown frame or body, friction < 0, zero normal, "
                   "radius < 0) when a ContactStepWorkspace or ContactBatchWorkspace is built.")
      .def(py::init([](const std::string& frame, const std::string& body,
                       const Eigen::Vector3d& offset, const Plane& plane, double friction,
                       double radius, const std::string& name) {
             Spec s;
             s.frame = frame;
             s.body = body;
             s.offset = offset;
             s.plane = plane;
             s.friction = friction;
             s.radius = radius;
             s.name = name;
             return s;
           }),
           py::kw_only(), py::arg("frame") = "", py::arg("body") = "",
           py::arg("offset") = Eigen::Vector3d::Zero(),
           py::arg_v("plane", Plane::ground(), "ContactPlane.ground()"), py::arg("friction") = 0.0,
           py::arg("radius") = 0.0, py::arg("name") = "")
      .def_static("on_frame", &Spec::on_frame, py::arg("frame"), py::arg("plane"),
                  py::arg("friction"), py::arg("offset") = Eigen::Vector3d::Zero(),
                  py::arg("radius") = 0.0,
                  "The origin of model frame `frame` (moved by `offset`, in the frame's axes) "
                  "against `plane`.")
      .def_static("on_body", &Spec::on_body, py::arg("body"), py::arg("offset"), py::arg("plane"),
                  py::arg("friction"), py::arg("radius") = 0.0,
                  "The point `offset` of body `body` (body frame) against `plane`.")
      .def_readwrite("name", &Spec::name, "Used in messages; empty: the frame's or body's name.")
      .def_readwrite("frame", &Spec::frame, "Model frame holding the point (empty: `body`).")
      .def_readwrite("body", &Spec::body, "Body holding the point, when `frame` is empty.")
      .def_readwrite("offset", &Spec::offset, "The point in the frame's (or body's) coordinates.")
      .def_readwrite("radius", &Spec::radius, "Sphere radius around the point (0: a point).")
      .def_readwrite("plane", &Spec::plane, "The environment's plane.")
      .def_readwrite("friction", &Spec::friction, "Coulomb friction coefficient mu >= 0.")
      .def("__repr__", [](const Spec& s) {
        const std::string where = s.frame.empty()
                                      ? "body " + std::string(py::repr(py::str(s.body)))
                                      : "frame " + std::string(py::repr(py::str(s.frame)));
        return "<liedyn.ContactPointSpec on " + where + ", friction " +
               std::string(py::repr(py::float_(s.friction))) + ", radius " +
               std::string(py::repr(py::float_(s.radius))) + ">";
      });

  py::class_<SolverSettings>(m, "FrictionalContactSettings",
                             "Settings of the frictional contact solvers (ADMM and PGS; "
                             "docs/frictional-contacts.md).")
      .def(py::init<>())
      .def_readwrite("absolute_tolerance", &SolverSettings::absolute_tolerance,
                     "Absolute tolerance on the residuals.")
      .def_readwrite("relative_tolerance", &SolverSettings::relative_tolerance,
                     "Tolerance relative to the problem's scale.")
      .def_readwrite("max_iterations", &SolverSettings::max_iterations,
                     "ADMM iterations or PGS sweeps at most.")
      .def_readwrite("warm_start", &SolverSettings::warm_start,
                     "Start from the impulses given (a contact step: the previous step's).")
      .def_readwrite("rho_initial", &SolverSettings::rho_initial,
                     "ADMM: the initial penalty, relative to G's mean diagonal entry.")
      .def_readwrite("adaptive_rho", &SolverSettings::adaptive_rho,
                     "ADMM: rescale the penalty from the residuals' ratio.")
      .def_readwrite("rho_update_ratio", &SolverSettings::rho_update_ratio,
                     "ADMM: the residuals' ratio beyond which the penalty is rescaled.")
      .def_readwrite("rho_update_interval", &SolverSettings::rho_update_interval,
                     "ADMM: iterations between penalty updates at least.")
      .def_readwrite("over_relaxation", &SolverSettings::over_relaxation,
                     "ADMM: the over-relaxation alpha in (0, 2).")
      .def_readwrite("relaxation", &SolverSettings::relaxation,
                     "PGS: the relaxation omega in (0, 2).")
      .def_readwrite("symmetry_tolerance", &SolverSettings::symmetry_tolerance,
                     "The largest asymmetry of G accepted, relative to its largest entry.");

  py::class_<Settings>(m, "ContactStepSettings",
                       "Settings of a contact step (docs/frictional-contacts.md, \"The time step "
                       "with the tree\").")
      .def(py::init<>())
      .def_readwrite("solver", &Settings::solver, "The solver of the contact problem.")
      .def_readwrite("solver_settings", &Settings::solver_settings,
                     "The solver's settings (warm_start on by default here).")
      .def_readwrite("margin", &Settings::margin,
                     "A contact enters the problem when its gap <= margin (m, >= 0).")
      .def_readwrite("penetration_recovery", &Settings::penetration_recovery,
                     "beta in [0, 1]: the fraction of a penetration removed per step.")
      .def_readwrite("restitution", &Settings::restitution,
                     "Newton's restitution e in [0, 1] at touching or penetrating contacts.");
}

void bind_step(py::module_& m) {
  py::class_<StepResult>(m, "ContactStepResult",
                         "What one contact step did: the solver's report and the per-contact "
                         "results (copies; contact k in row k, in the order given).")
      .def_property_readonly(
          "impulses", [](const StepResult& r) { return r.impulses; },
          "(nc, 3): lambda_k, the impulse on the robot over the step in contact k's frame [t1, "
          "t2, n] (N s); zero for an inactive contact. lambda / dt is the mean force.")
      .def_property_readonly(
          "contact_velocity", [](const StepResult& r) { return r.contact_velocity; },
          "(nc, 3): c_k = G lambda + g at the end of the step, contact k's frame.")
      .def_property_readonly(
          "gap", [](const StepResult& r) { return r.gap; },
          "(nc,): the gap phi_k at the step's start state (m; negative: penetration).")
      .def_readonly("active", &StepResult::active, "The active contacts' indices, increasing.")
      .def_property_readonly(
          "active_contacts", [](const StepResult& r) { return r.result.active_contacts; },
          "Number of contacts with gap <= margin (those in the problem).")
      .def_property_readonly(
          "iterations", [](const StepResult& r) { return r.result.solver.iterations; },
          "ADMM iterations or PGS sweeps taken.")
      .def_property_readonly(
          "primal_residual", [](const StepResult& r) { return r.result.solver.primal_residual; },
          "Cone violation of lambda (force units).")
      .def_property_readonly(
          "dual_residual", [](const StepResult& r) { return r.result.solver.dual_residual; },
          "Dual-cone violation of c + Gamma(c) (velocity units).")
      .def_property_readonly(
          "complementarity_residual",
          [](const StepResult& r) { return r.result.solver.complementarity_residual; },
          "max_i |lambda_i . sigma_i| / |lambda|_inf (velocity units).")
      .def_property_readonly(
          "converged", [](const StepResult& r) { return r.result.converged; },
          "The impulses meet the solver's tolerances (True with no active contact). False: the "
          "step was still taken with the last iterate.")
      .def("__repr__", [](const StepResult& r) {
        return "<liedyn.ContactStepResult active_contacts=" +
               std::to_string(r.result.active_contacts) +
               " iterations=" + std::to_string(r.result.solver.iterations) +
               " converged=" + (r.result.converged ? "True" : "False") + ">";
      });

  py::class_<StepWorkspace>(
      m, "ContactStepWorkspace",
      "The workspace of `step` for one model and one list of contacts: built once (this resolves "
      "and checks the contacts: an unknown frame or body, friction < 0, a zero normal, radius < 0 "
      "raise InvalidArgument naming the contact); `step` allocates nothing afterwards. It keeps "
      "the last step's impulses as the next solve's warm start (reset_warm_start() drops them).")
      .def(py::init([](const Model& mo, const std::vector<Spec>& contacts) {
             return std::make_unique<StepWorkspace>(mo, contacts);
           }),
           py::arg("model"), py::arg("contacts"))
      .def_property_readonly("num_contacts", &StepWorkspace::num_contacts,
                             "Number of contacts (active or not).")
      .def_property_readonly(
          "names",
          [](const StepWorkspace& ws) {
            std::vector<std::string> names;
            for (const auto& c : ws.points) names.push_back(c.name);
            return names;
          },
          "The contacts' names, in the order given.")
      .def_property_readonly(
          "axes",
          [](const StepWorkspace& ws) {
            py::array_t<double> a(
                {static_cast<py::ssize_t>(ws.points.size()), py::ssize_t(3), py::ssize_t(3)});
            auto v = a.mutable_unchecked<3>();
            for (py::ssize_t k = 0; k < a.shape(0); ++k)
              for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                  v(k, i, j) = ws.points[static_cast<std::size_t>(k)].axes(i, j);
            return a;
          },
          "(nc, 3, 3): contact k's frame axes in A as columns (t1, t2, n), n the plane's unit "
          "normal.")
      .def(
          "reset_warm_start", [](StepWorkspace& ws) { ws.warm_start_impulse.setZero(); },
          "Drops the kept impulses: the next solve starts from zero.");

  m.def(
      "step",
      [](const Model& mo, StepWorkspace& ws, const State& x, const VectorRef& tau, double dt,
         const Settings& settings) -> std::tuple<State, StepResult> {
        const char* who = "step";
        check_state(who, mo, x);
        State next = x;
        ContactStepResult<double> r;
        try {
          const WorkspaceClaim claim(who, "workspace", &ws);
          const py::gil_scoped_release release;
          r = contact_step(mo, ws, x, tau, dt, next, settings);
        } catch (const InvalidArgument& e) {
          rethrow_as(who, "contact_step", e);
        }
        StepResult out{r, by_contact(ws.impulse), by_contact(ws.contact_velocity), ws.gap,
                       ws.active};
        return std::make_tuple(std::move(next), std::move(out));
      },
      py::arg("model"), py::arg("workspace"), py::arg("x"), py::arg("tau"), py::arg("dt"),
      py::arg("settings") = Settings(),
      "One time step of length dt with the frictional unilateral point contacts of `workspace` "
      "(contact_step, docs/frictional-contacts.md): v_free = nu + dt M^-1 (tau - h), lambda from "
      "the frictional contact problem, nu+ = v_free + M^-1 J^T lambda, (H, s)+ = (H, s) (+) dt "
      "nu+. Returns (next State, ContactStepResult). InvalidArgument for dt not finite and > 0, "
      "a non-finite state or tau, wrong sizes, settings out of range, a workspace built for "
      "another model. An unconverged solve is reported (result.converged False), not raised.");
}

void bind_batch_contact(py::module_& m) {
  py::class_<BatchResult>(
      m, "ContactBatchResult",
      "The results of batch_contact_step (leading axes (N,)) or of a contact batch_rollout "
      "(leading axes (N, K)): the states, the impulses (..., nc, 3) in the contacts' frames, and "
      "each step's report.")
      .def_readonly("states", &BatchResult::states,
                    "(N, batch_state_size) next states, or (N, K + 1, batch_state_size) x_0 .. "
                    "x_K of each trajectory.")
      .def_readonly("impulses", &BatchResult::impulses,
                    "(..., nc, 3): each step's lambda_k in contact k's frame [t1, t2, n].")
      .def_readonly("active_contacts", &BatchResult::active_contacts,
                    "(...) int32: the contacts in each step's problem.")
      .def_readonly("iterations", &BatchResult::iterations,
                    "(...) int32: each step's ADMM iterations or PGS sweeps.")
      .def_readonly("converged", &BatchResult::converged,
                    "(...) bool: each step's solve met its tolerances.")
      .def_readonly("primal_residual", &BatchResult::primal_residual, "(...) float64.")
      .def_readonly("dual_residual", &BatchResult::dual_residual, "(...) float64.")
      .def_readonly("complementarity_residual", &BatchResult::complementarity_residual,
                    "(...) float64.");

  py::class_<BatchWorkspace>(
      m, "ContactBatchWorkspace",
      "What the contact batch calls need besides the model: a pool of `threads` worker threads "
      "(the calling thread is one of them) and one ContactStepWorkspace per worker for "
      "`contacts` (checked as ContactStepWorkspace checks them). Build it once and reuse it. "
      "Results do not depend on the thread count: every trajectory (every state of "
      "batch_contact_step) starts from a zero warm start.")
      .def(py::init([](const Model& mo, const std::vector<Spec>& contacts, int threads) {
             LIEDYN_CHECK(threads >= 1, "ContactBatchWorkspace: threads must be at least 1");
             return std::make_unique<BatchWorkspace>(mo, contacts, threads);
           }),
           py::arg("model"), py::arg("contacts"), py::arg("threads") = 1)
      .def_property_readonly("threads", &BatchWorkspace::threads)
      .def_property_readonly("num_contacts", &BatchWorkspace::num_contacts)
      .def("__repr__", [](const BatchWorkspace& ws) {
        return "liedyn.ContactBatchWorkspace(threads=" + std::to_string(ws.threads()) +
               ", contacts=" + std::to_string(ws.num_contacts()) + ")";
      });

  m.def(
      "batch_contact_step",
      [](const Model& mo, BatchWorkspace& ws, const py::handle& states, const py::handle& tau,
         double dt, const Settings& settings) {
        const char* who = "batch_contact_step";
        check_dt(who, dt);
        const py::ssize_t size = batch_state_size(mo), nv = mo.nv(), nc = ws.num_contacts();
        const py::ssize_t N =
            leading(who, "states", states, 2, "(N, " + std::to_string(size) + ")");
        const auto X = batch_input(who, "states", states, {N, size},
                                   "(" + std::to_string(N) + ", " + std::to_string(size) + ")");
        const auto U = batch_input(who, "tau", tau, {N, nv},
                                   "(" + std::to_string(N) + ", " + std::to_string(nv) + ")");
        NewBlock next({N, size}, 1, size), impulses({N, nc, 3}, 1, 3 * nc),
            reports({N, ContactReport::size}, 1, ContactReport::size);
        try {
          const WorkspaceClaim claim(who, "workspace", &ws);
          const py::gil_scoped_release release;
          batch_contact_step(mo, ws, In(X.data(), size, N), In(U.data(), nv, N), dt, next.block(),
                             impulses.block(), reports.block(), settings);
        } catch (const InvalidArgument& e) {
          rethrow_as(who, "batch_contact_step", e);
        }
        return split(next.array, impulses.array, reports.array);
      },
      py::arg("model"), py::arg("workspace"), py::arg("states"), py::arg("tau"), py::arg("dt"),
      py::arg("settings") = Settings(),
      "step at every state, each from a zero warm start: states (N, batch_state_size), tau (N, "
      "nv); returns a ContactBatchResult with states (N, batch_state_size) the next states, "
      "impulses (N, nc, 3) and the reports (N,). Bit-identical for any thread count.");

  m.def(
      "batch_rollout",
      [](const Model& mo, BatchWorkspace& ws, const py::handle& initial, const py::handle& controls,
         double dt, const Settings& settings) {
        const char* who = "batch_rollout";
        check_dt(who, dt);
        const py::ssize_t size = batch_state_size(mo), nv = mo.nv(), nc = ws.num_contacts();
        const py::ssize_t N =
            leading(who, "initial", initial, 2, "(N, " + std::to_string(size) + ")");
        const auto X = batch_input(who, "initial", initial, {N, size},
                                   "(" + std::to_string(N) + ", " + std::to_string(size) + ")");
        const std::string controls_shape =
            "(" + std::to_string(N) + ", K, " + std::to_string(nv) + ")";
        refuse_non_real(controls, 3);
        const py::array c = py::array::ensure(controls);
        if (!c || c.ndim() != 3 || c.shape(0) != N)
          throw InvalidArgument(std::string("liedyn: ") + who + ": controls must have shape " +
                                controls_shape);
        const py::ssize_t K = c.shape(1);
        const auto U = batch_input(who, "controls", controls, {N, K, nv}, controls_shape);
        NewBlock states({N, K + 1, size}, 2, size), impulses({N, K, nc, 3}, 2, 3 * nc),
            reports({N, K, ContactReport::size}, 2, ContactReport::size);
        try {
          const WorkspaceClaim claim(who, "workspace", &ws);
          const py::gil_scoped_release release;
          batch_contact_rollout(mo, ws, In(X.data(), size, N), In(U.data(), nv, K * N), dt,
                                states.block(), impulses.block(), reports.block(), settings);
        } catch (const InvalidArgument& e) {
          rethrow_as(who, "batch_contact_rollout", e);
        }
        return split(states.array, impulses.array, reports.array);
      },
      py::arg("model"), py::arg("workspace"), py::arg("initial"), py::arg("controls"),
      py::arg("dt"), py::arg("settings") = Settings(),
      "Contact form: N rollouts of step (the contacts of `workspace`, a ContactBatchWorkspace; "
      "`settings`): trajectory i starts at initial[i] (N, batch_state_size) with a zero warm "
      "start and takes K steps under controls[i, k] (N, K, nv); returns a ContactBatchResult: "
      "states (N, K + 1, batch_state_size), impulses (N, K, nc, 3), reports (N, K). "
      "Bit-identical for any thread count, and equal to the loop of step on a fresh "
      "ContactStepWorkspace.");
}

}  // namespace

void bind_contact(py::module_& m) {
  bind_model_types(m);
  bind_step(m);
  bind_batch_contact(m);
}

}  // namespace python
}  // namespace liedyn
