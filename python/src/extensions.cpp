// liedyn Python bindings — centroidal quantities, energy, the Coriolis matrix and the constrained
// dynamics (contacts, loop closures, couplings). Same rules as kernels.cpp: every binding checks
// the Data/model pairing and the state first; outputs living in Data or ConstraintData are
// copied out (results() in bindings.hpp), the rest are new arrays.
#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using ConstraintSet = liedyn::ConstraintSet<double>;
using ConstraintData = liedyn::ConstraintData<double>;
using ConstraintSpec = liedyn::ConstraintSpec<double>;
using Options = ConstrainedDynamicsOptions<double>;

py::handle owner_of_constraint_data(ConstraintData& cd) {
  return py::detail::get_object_handle(&cd, py::detail::get_type_info(typeid(ConstraintData)));
}

void bind_centroidal(py::module_& m) {
  py::enum_<ComFrame>(
      m, "ComFrame",
      "Axes of the centre-of-mass quantities: Inertial (A) or Base (the base frame).")
      .value("Inertial", ComFrame::Inertial)
      .value("Base", ComFrame::Base);
  m.def(
      "center_of_mass",
      [](const Model& mo, Data& d, const State& x, ComFrame frame) {
        check_call("center_of_mass", mo, d, x);
        return released("center_of_mass", d,
                        [&] { return Eigen::Vector3d(center_of_mass(mo, d, x, frame)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame") = ComFrame::Inertial,
      "Centre of mass p_com: in the inertial frame, or relative to the base origin in base axes.");
  m.def(
      "center_of_mass_velocity",
      [](const Model& mo, Data& d, const State& x, ComFrame frame) {
        check_call("center_of_mass_velocity", mo, d, x);
        return released("center_of_mass_velocity", d,
                        [&] { return Eigen::Vector3d(center_of_mass_velocity(mo, d, x, frame)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame") = ComFrame::Inertial,
      "Velocity of the centre of mass relative to the inertial frame, in inertial or base axes.");
  m.def(
      "center_of_mass_acceleration",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq, ComFrame frame) {
        check_call("center_of_mass_acceleration", mo, d, x);
        check_finite("center_of_mass_acceleration", "ddq", ddq);
        return released("center_of_mass_acceleration", d, [&] {
          return Eigen::Vector3d(center_of_mass_acceleration(mo, d, x, ddq, frame));
        });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"),
      py::arg("frame") = ComFrame::Inertial,
      "Acceleration of the centre of mass at ddq = [nu'; r'], in inertial or base axes.");
  m.def(
      "center_of_mass_jacobian",
      [](const Model& mo, Data& d, const State& x, ComFrame frame) {
        check_call("center_of_mass_jacobian", mo, d, x);
        return released("center_of_mass_jacobian", d,
                        [&] { return Eigen::MatrixXd(center_of_mass_jacobian(mo, d, x, frame)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame") = ComFrame::Inertial,
      "J_com (3 x nv): p_com' = J_com [nu; r] (columns: base body twist, joint velocities).");
  m.def(
      "centroidal_momentum",
      [](const Model& mo, Data& d, const State& x) {
        check_call("centroidal_momentum", mo, d, x);
        return released("centroidal_momentum", d,
                        [&] { return Vector6<double>(centroidal_momentum(mo, d, x)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "h_G = [m p_com'; k_G] in the centroidal frame (origin at the CoM, inertial axes), linear "
      "first.");
  m.def(
      "centroidal_momentum_matrix",
      [](const Model& mo, Data& d, const State& x) {
        check_call("centroidal_momentum_matrix", mo, d, x);
        return released("centroidal_momentum_matrix", d,
                        [&] { return Eigen::MatrixXd(centroidal_momentum_matrix(mo, d, x)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "A_G (6 x nv) with h_G = A_G [nu; r], centroidal frame.");
  m.def(
      "centroidal_momentum_drift",
      [](const Model& mo, Data& d, const State& x) {
        check_call("centroidal_momentum_drift", mo, d, x);
        return released("centroidal_momentum_drift", d,
                        [&] { return Vector6<double>(centroidal_momentum_drift(mo, d, x)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "A_G' [nu; r]: h_G' at zero accelerations, centroidal frame.");
  m.def(
      "centroidal_momentum_rate",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq) {
        check_call("centroidal_momentum_rate", mo, d, x);
        check_finite("centroidal_momentum_rate", "ddq", ddq);
        return released("centroidal_momentum_rate", d,
                        [&] { return Vector6<double>(centroidal_momentum_rate(mo, d, x, ddq)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"),
      "h_G' = A_G ddq + A_G' [nu; r] at ddq = [nu'; r'], centroidal frame.");
  m.def(
      "kinetic_energy",
      [](const Model& mo, Data& d, const State& x) {
        check_call("kinetic_energy", mo, d, x);
        return released("kinetic_energy", d, [&] { return kinetic_energy(mo, d, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "Kinetic energy of the bodies (armature not included).");
  m.def(
      "potential_energy",
      [](const Model& mo, Data& d, const State& x) {
        check_call("potential_energy", mo, d, x);
        return released("potential_energy", d, [&] { return potential_energy(mo, d, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "Potential energy -m g . p_com (inertial frame).");
  m.def(
      "coriolis_matrix",
      [](const Model& mo, Data& d, const State& x, const py::object& out) {
        check_call("coriolis_matrix", mo, d, x);
        return results("coriolis_matrix", out,
                       released("coriolis_matrix", d,
                                [&]() -> decltype(auto) { return coriolis_matrix(mo, d, x); }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(),
      "C(x) (nv x nv, base first) with C [nu; r] the velocity products and M' - 2C skew-symmetric. "
      "A copy of data.coriolis.");
}

// The options of the exact KKT route with the derivatives' KKT solve `solve`.
inline Options with_solve(KktDerivativeSolve solve) {
  Options opt;
  opt.derivative_solve = solve;
  return opt;
}

// The derivatives and linearizations of the constrained dynamics (issue 21). They differentiate
// the exact KKT route only (no `route` argument); the Euler step takes one, as
// constrained_forward_dynamics does. Every function checks tau's size under its own name first.
template <class Check>
void bind_constrained_linearization(py::module_& m, Check check) {
  using O = LinearizationOptions<double>;
  using Reduced = ReducedLinearization<double>;
  constexpr auto kBody = TwistRepresentation::Body;
  m.def(
      "constrained_forward_dynamics_derivatives",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, TwistRepresentation rep, KktDerivativeSolve solve,
              const py::object& out) {
        const char* who = "constrained_forward_dynamics_derivatives";
        check(who, mo, d, set, x);
        check_finite(who, "tau", tau);
        check_size(who, "tau", tau, mo.nv());
        released("constrained_forward_dynamics_derivatives", d, c, [&] {
          constrained_forward_dynamics_derivatives(mo, d, set, c, x, tau, rep, with_solve(solve));
        });
        return results("constrained_forward_dynamics_derivatives", out, c.ddq_dx, c.lambda_dx,
                       c.ddq_dtau, c.lambda_dtau);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("representation") = kBody,
      py::arg("derivative_solve") = KktDerivativeSolve::Automatic, py::kw_only(),
      py::arg("out") = py::none(),
      "Exact derivatives of constrained_forward_dynamics (ExactKKT route) at (x, tau): (d ddq/dx "
      "(nv x 2nv), "
      "d lambda/dx (m x 2nv), d ddq/d tau (nv x nv), d lambda/d tau (m x nv)). Columns of the x "
      "derivatives: "
      "delta x = (eta, ds, dt, dr) with H = H0 exp(eta^) and t the base twist in `representation` "
      "(held fixed "
      "in the eta columns); welded base: (ds, dr). Rows: ddq = [nu' (body acceleration, base "
      "frame); r'], "
      "lambda stacked in the set's order, each in its constraint's sense; tau = [base wrench (base "
      "frame); "
      "joint torques]. Also fills cdata.velocity_dx = d(J [nu; r])/dx, cdata.acceleration_dx = "
      "d(J ddq + gamma)/dx at the solution ddq (same columns) and cdata.ddq, "
      "cdata.lambda, cdata.J, cdata.gamma. `derivative_solve` picks how the KKT systems are "
      "solved (KktDerivativeSolve). Raises ConstraintError for a rank-deficient J. Returns copies "
      "of (cdata.ddq_dx, cdata.lambda_dx, cdata.ddq_dtau, cdata.lambda_dtau).");
  m.def(
      "constraint_kinematics_derivatives",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& ddq, TwistRepresentation rep, const py::object& out) {
        const char* who = "constraint_kinematics_derivatives";
        check(who, mo, d, set, x);
        check_finite(who, "ddq", ddq);
        check_size(who, "ddq", ddq, mo.nv());
        released("constraint_kinematics_derivatives", d, c,
                 [&] { constraint_kinematics_derivatives(mo, d, set, c, x, ddq, rep); });
        return results("constraint_kinematics_derivatives", out, c.position_error_dx, c.velocity_dx,
                       c.acceleration_dx, c.Jdot);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("ddq"), py::arg("representation") = kBody, py::kw_only(), py::arg("out") = py::none(),
      "Derivatives of the constraint kinematics at (x, ddq): (d e/dq (m x nv), d(J [nu; r])/dx (m "
      "x 2nv), "
      "d(J ddq + gamma)/dx at fixed ddq (m x 2nv), Jdot (m x nv), the exact time derivative of J). "
      "Columns of "
      "the x derivatives: delta x = (eta, ds, dt, dr) with H = H0 exp(eta^) and t the base twist "
      "in "
      "`representation` (held fixed in the eta columns); welded base: (ds, dr). d e/dq has the q "
      "columns "
      "(eta, ds) only (no representation), Jdot J's columns [nu; r]. Rows: each constraint's rows "
      "in its "
      "sense, stacked in the set's order; ddq = [nu' (body acceleration, base frame); r']. gamma "
      "includes the "
      "Baumgarte terms (Kd d(J [nu; r])/dx, Kp d e/dx). Jdot [nu; r] is cdata.drift only where the "
      "rows are "
      "plain time derivatives of J [nu; r] (not body-sense point contacts nor rigid rows, "
      "constraint_kinematics.hpp). Also fills cdata.J, drift, gamma and the errors "
      "(constraint_kinematics). "
      "Returns copies of (cdata.position_error_dx, cdata.velocity_dx, cdata.acceleration_dx, "
      "cdata.Jdot).");
  m.def(
      "impulse_dynamics_derivatives",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              double restitution, TwistRepresentation rep, const py::object& out) {
        const char* who = "impulse_dynamics_derivatives";
        check(who, mo, d, set, x);
        // impulse_dynamics checks these too, but under its own name.
        LIEDYN_CHECK(c.J.rows() == set.dimension() && c.J.cols() == mo.nv(),
                     std::string(who) +
                         ": the ConstraintData was sized for another model or constraint set");
        LIEDYN_CHECK(restitution >= 0.0 && restitution <= 1.0,
                     std::string(who) + ": the restitution must lie in [0, 1]");
        released("impulse_dynamics_derivatives", d, c,
                 [&] { impulse_dynamics_derivatives(mo, d, set, c, x, restitution, rep); });
        return results("impulse_dynamics_derivatives", out, c.v_after_dx, c.impulse_dx);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("restitution") = 0.0, py::arg("representation") = kBody, py::kw_only(),
      py::arg("out") = py::none(),
      "Exact derivatives of impulse_dynamics (ExactKKT route) at x with restitution in [0, 1] (on "
      "the contact "
      "rows): (d v_after/dx (nv x 2nv), d impulse/dx (m x 2nv)). Columns: delta x = (eta, ds, dt, "
      "dr) of the "
      "pre-impact state with t the base twist in `representation` (held fixed in the eta columns); "
      "welded "
      "base: (ds, dr). Rows: v_after = [nu+ (body base twist); r+]; impulses stacked in the set's "
      "order, each "
      "in its constraint's sense. Also fills cdata.v_after and cdata.impulse (impulse_dynamics). "
      "Raises "
      "ConstraintError for a rank-deficient J. Returns copies of (cdata.v_after_dx, "
      "cdata.impulse_dx).");
  m.def(
      "linearize",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, const O& opt, KktDerivativeSolve solve, const py::object& out) {
        check("linearize", mo, d, set, x);
        check_finite("linearize", "tau", tau);
        check_size("linearize", "tau", tau, mo.nv());
        released("linearize", d, c,
                 [&] { linearize(mo, d, set, c, x, tau, opt, with_solve(solve)); });
        return results("linearize", out, d.linearization.A, d.linearization.B);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("options") = O(),
      py::arg("derivative_solve") = KktDerivativeSolve::Automatic, py::kw_only(),
      py::arg("out") = py::none(),
      "Constrained form: delta x' = A delta x + B delta tau of constrained_forward_dynamics "
      "(ExactKKT) at "
      "(x, tau), delta x = (eta, ds, dt, dr) in options.representation as the unconstrained "
      "linearize; the "
      "acceleration rows (the last nv) are cdata.ddq_dx and cdata.ddq_dtau, the kinematic rows "
      "unchanged. "
      "Also leaves data.ddq = cdata.ddq and everything constrained_forward_dynamics_derivatives "
      "fills "
      "(options.minv is not used). Returns copies of (data.A, data.B).");
  m.def(
      "linearize_actuated",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const MatrixRef& S, const VectorRef& u, const O& opt, KktDerivativeSolve solve,
              const py::object& out) {
        check("linearize_actuated", mo, d, set, x);
        check_finite("linearize_actuated", "actuation", S);
        check_finite("linearize_actuated", "u", u);
        MatrixXd Bu;
        released("linearize_actuated", d, c,
                 [&] { linearize_actuated(mo, d, set, c, x, S, u, Bu, opt, with_solve(solve)); });
        return results("linearize_actuated", out, d.linearization.A, Bu);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("actuation"), py::arg("u"), py::arg("options") = O(),
      py::arg("derivative_solve") = KktDerivativeSolve::Automatic, py::kw_only(),
      py::arg("out") = py::none(),
      "Constrained linearize for tau = S u with actuation matrix S (nv x k): returns copies of "
      "(data.A, B S (2nv x k)).");
  m.def(
      "linearize_discrete",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, double dt, const O& opt, KktDerivativeSolve solve,
              const py::object& out) {
        check("linearize_discrete", mo, d, set, x);
        check_finite("linearize_discrete", "tau", tau);
        check_size("linearize_discrete", "tau", tau, mo.nv());
        released("linearize_discrete", d, c,
                 [&] { linearize_discrete(mo, d, set, c, x, tau, dt, opt, with_solve(solve)); });
        return results("linearize_discrete", out, d.linearization.A, d.linearization.B);
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("dt"), py::arg("options") = O(),
      py::arg("derivative_solve") = KktDerivativeSolve::Automatic, py::kw_only(),
      py::arg("out") = py::none(),
      "Constrained form: exact Jacobians of the constrained semi_implicit_euler_step (ExactKKT), "
      "delta x+ = A "
      "delta x + B delta tau, delta x in options.representation at both ends. Also fills cdata's "
      "derivatives. "
      "Returns copies of (data.A, data.B).");
  m.def(
      "semi_implicit_euler_step",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, double dt, ConstrainedDynamicsRoute route) {
        check("semi_implicit_euler_step", mo, d, set, x);
        check_finite("semi_implicit_euler_step", "tau", tau);
        check_size("semi_implicit_euler_step", "tau", tau, mo.nv());
        Options opt;
        opt.route = route;
        State out = x;
        released("semi_implicit_euler_step", d, c,
                 [&] { semi_implicit_euler_step(mo, d, set, c, x, tau, dt, out, opt); });
        return out;
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("dt"), py::arg("route") = ConstrainedDynamicsRoute::ExactKKT,
      "Constrained form: one semi-implicit Euler step with (nu', r') = cdata.ddq of "
      "constrained_forward_dynamics "
      "(cdata.lambda its forces); no projection onto the constraint manifold (Baumgarte gains, or "
      "project_configuration / project_velocity between steps). Returns a new State.");

  py::class_<Reduced>(
      m, "ReducedLinearization",
      "The constrained linearization on the tangent space of the constraint manifold "
      "{e(q) = 0, J [nu; r] = v*}, filled by linearize_reduced: basis P (2nv x k, orthonormal "
      "columns spanning the null space of C = [J 0; cdata.velocity_dx], rows delta x = (eta, ds, "
      "dt, dr) in the options' representation), A_r = P^T A P (k x k), B_r = P^T B (k x nv); "
      "delta x = P delta z. basis, A and B are copies (their sizes follow the rank).")
      .def(py::init([](const Model& mo, const ConstraintSet& set) {
             LIEDYN_CHECK(set.fits(mo),
                          "ReducedLinearization: the constraint set was built for another model");
             return Reduced(mo, set);
           }),
           py::arg("model"), py::arg("set"))
      .def_property_readonly(
          "basis", [](const Reduced& r) { return MatrixXd(r.basis); },
          "P (2nv x k): delta x = P delta z, orthonormal columns (a copy).")
      .def_property_readonly(
          "A", [](const Reduced& r) { return MatrixXd(r.A); }, "A_r = P^T A P (k x k, a copy).")
      .def_property_readonly(
          "B", [](const Reduced& r) { return MatrixXd(r.B); }, "B_r = P^T B (k x nv, a copy).")
      .def_readonly("rank", &Reduced::rank,
                    "Rank of C (2m for independent constraints); k = 2nv - rank.")
      .def("dimension", &Reduced::dimension,
           "k, the tangent space's dimension (0 before linearize_reduced).");
  m.def(
      "linearize_reduced",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, Reduced& out, const O& opt, KktDerivativeSolve solve) {
        check("linearize_reduced", mo, d, set, x);
        check_finite("linearize_reduced", "tau", tau);
        check_size("linearize_reduced", "tau", tau, mo.nv());
        released("linearize_reduced", d, c,
                 [&] { linearize_reduced(mo, d, set, c, x, tau, out, opt, with_solve(solve)); });
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("reduced"), py::arg("options") = O(),
      py::arg("derivative_solve") = KktDerivativeSolve::Automatic,
      "The constrained linearize at (x, tau) (data.A, data.B, cdata's derivatives) and its "
      "restriction to the "
      "tangent space of the constraint manifold into `reduced` (a ReducedLinearization of this "
      "model and set): "
      "basis, A = basis^T data.A basis, B = basis^T data.B, rank (in place; returns None). At an "
      "equilibrium on "
      "the manifold data.A basis = basis A exactly.");
}

void bind_constraints(py::module_& m) {
  py::register_exception<ConstraintError>(m, "ConstraintError", PyExc_ValueError);
  py::enum_<ConstraintType>(m, "ConstraintType", "The kinds of constraint (docs/constraints.md).")
      .value("PointContact", ConstraintType::PointContact)
      .value("RigidContact", ConstraintType::RigidContact)
      .value("RigidLoop", ConstraintType::RigidLoop)
      .value("BallLoop", ConstraintType::BallLoop)
      .value("RevoluteLoop", ConstraintType::RevoluteLoop)
      .value("PrismaticLoop", ConstraintType::PrismaticLoop)
      .value("Coupling", ConstraintType::Coupling);
  py::enum_<ConstrainedDynamicsRoute>(m, "ConstrainedDynamicsRoute",
                                      "How constrained_forward_dynamics solves the KKT system.")
      .value("ExactKKT", ConstrainedDynamicsRoute::ExactKKT)
      .value("Proximal", ConstrainedDynamicsRoute::Proximal)
      .value("Projector", ConstrainedDynamicsRoute::Projector)
      .value("MinimalCoordinates", ConstrainedDynamicsRoute::MinimalCoordinates);
  py::enum_<KktDerivativeSolve>(
      m, "KktDerivativeSolve",
      "How the derivatives of the constrained dynamics solve their KKT systems: SparseFactors "
      "(one tree-sparse solve per column), DenseInverse (block elimination with M^-1 explicit), "
      "Automatic (DenseInverse from 40 velocities on). Both give the same derivatives to "
      "rounding; they differ in cost with the tree (docs/constraints.md).")
      .value("Automatic", KktDerivativeSolve::Automatic)
      .value("SparseFactors", KktDerivativeSolve::SparseFactors)
      .value("DenseInverse", KktDerivativeSolve::DenseInverse);
  py::class_<ConstraintSpec>(
      m, "ConstraintSpec",
      "A constraint by names: contact on a frame, loop between two frames, or coupling. "
      "Rows and lambda in `sense` (Body = Pinocchio's LOCAL, Mixed = LOCAL_WORLD_ALIGNED, "
      "Inertial = WORLD).")
      .def_static("point_contact", &ConstraintSpec::point_contact, py::arg("frame"),
                  py::arg("sense") = TwistRepresentation::Body,
                  "A point (3D) contact of the frame's origin.")
      .def_static("rigid_contact", &ConstraintSpec::rigid_contact, py::arg("frame"),
                  py::arg("sense") = TwistRepresentation::Body,
                  "A rigid (6D) contact of the frame.")
      .def_static(
          "loop", &ConstraintSpec::loop, py::arg("type"), py::arg("frame1"), py::arg("frame2"),
          py::arg("sense") = TwistRepresentation::Body, py::arg("axis") = Eigen::Vector3d::UnitZ(),
          "A loop closure between two robot frames; axis (loop joints) in frame 2's coordinates.")
      .def_static("coupling", &ConstraintSpec::coupling, py::arg("joint"), py::arg("master"),
                  py::arg("ratio"), py::arg("offset") = 0.0,
                  "The coupling s_joint = ratio * s_master + offset.")
      .def("__repr__",
           [](const ConstraintSpec& c) {
             const auto quoted = [](const std::string& s) {
               return std::string(py::repr(py::str(s)));
             };
             std::string r = "<liedyn.ConstraintSpec " + std::string(to_string(c.type));
             if (c.type == ConstraintType::Coupling) {
               r += " " + quoted(c.joint) + " = " + std::string(py::repr(py::float_(c.ratio))) +
                    " * " + quoted(c.master) + " + " + std::string(py::repr(py::float_(c.offset)));
             } else {
               r += " of " + quoted(c.frame);
               if (!c.frame2.empty()) r += " and " + quoted(c.frame2);
               r += ", sense " + std::string(py::str(py::cast(c.sense)));
             }
             return r + ">";
           })
      .def(py::pickle(
          [](const ConstraintSpec& c) {
            return py::make_tuple(c.type, c.name, c.frame, c.frame2, c.sense, c.axis, c.axis_frame,
                                  c.placement, c.velocity, c.acceleration, c.Kp, c.Kd, c.components,
                                  c.joint, c.master, c.ratio, c.offset);
          },
          [](const py::tuple& t) {
            if (t.size() != 17) throw InvalidArgument("liedyn: ConstraintSpec: not a pickled one");
            ConstraintSpec c;
            c.type = t[0].cast<ConstraintType>();
            c.name = t[1].cast<std::string>();
            c.frame = t[2].cast<std::string>();
            c.frame2 = t[3].cast<std::string>();
            c.sense = t[4].cast<TwistRepresentation>();
            c.axis = t[5].cast<Eigen::Vector3d>();
            c.axis_frame = t[6].cast<int>();
            c.placement = t[7].cast<std::optional<SE3>>();
            c.velocity = t[8].cast<VectorXd>();
            c.acceleration = t[9].cast<VectorXd>();
            c.Kp = t[10].cast<double>();
            c.Kd = t[11].cast<double>();
            c.components = t[12].cast<std::vector<int>>();
            c.joint = t[13].cast<std::string>();
            c.master = t[14].cast<std::string>();
            c.ratio = t[15].cast<double>();
            c.offset = t[16].cast<double>();
            return c;
          }))
      .def_readwrite("type", &ConstraintSpec::type)
      .def_readwrite("name", &ConstraintSpec::name)
      .def_readwrite("sense", &ConstraintSpec::sense)
      .def_readwrite("Kp", &ConstraintSpec::Kp, "Baumgarte position gain (default 0).")
      .def_readwrite("Kd", &ConstraintSpec::Kd, "Baumgarte velocity gain (default 0).")
      .def_readwrite("components", &ConstraintSpec::components, "Rows kept, by index (empty: all).")
      .def_readwrite("placement", &ConstraintSpec::placement,
                     "Desired placement, an SE3 or None: contacts ^A H_F (None: the position error "
                     "is zero and Kp "
                     "must be 0); loops ^1 H_2 (None: the two frames coincide).");
  py::class_<ConstraintSet>(m, "ConstraintSet", "Constraints resolved against a Model, immutable.")
      .def(py::init<const Model&, const std::vector<ConstraintSpec>&>(), py::arg("model"),
           py::arg("specs"))
      .def("size", &ConstraintSet::size, "Number of constraints.")
      .def("dimension", &ConstraintSet::dimension, "Number of rows m of J.")
      .def("describe", &ConstraintSet::describe, py::arg("k"), "Constraint k by name and type.");
  m.def("mimic_couplings", &mimic_couplings<double>, py::arg("model"),
        "The model's URDF <mimic> relations as coupling specs.");
  auto cd =
      py::class_<ConstraintData>(m, "ConstraintData",
                                 "Workspace and results of the constraint kernels.")
          .def(py::init<const Model&, const ConstraintSet&>(), py::arg("model"), py::arg("set"));
#define LIEDYN_PY_CVIEW(member, doc) \
  cd.def_property_readonly(          \
      #member, [](ConstraintData& c) { return view(c.member, owner_of_constraint_data(c)); }, doc)
  LIEDYN_PY_CVIEW(J, "Stacked constraint Jacobian (m x nv), rows in each constraint's sense.");
  LIEDYN_PY_CVIEW(gamma, "J ddq + gamma = 0 (drift and Baumgarte terms).");
  LIEDYN_PY_CVIEW(drift, "J' [nu; r] alone.");
  LIEDYN_PY_CVIEW(position_error, "Position error e of the rows.");
  LIEDYN_PY_CVIEW(velocity_error, "J [nu; r] - v*.");
  LIEDYN_PY_CVIEW(lambda, "Constraint forces on the robot: M ddq + h - tau = J^T lambda.");
  // `lambda` is a Python keyword: cdata.lambda_ is the same view under a name one can type.
  cd.def_property_readonly(
      "lambda_", [](ConstraintData& c) { return view(c.lambda, owner_of_constraint_data(c)); },
      "Constraint forces on the robot (the same as `lambda`, a Python keyword).");
  LIEDYN_PY_CVIEW(ddq, "Constrained accelerations [nu'; r'].");
  LIEDYN_PY_CVIEW(impulse, "Constraint impulses on the robot (impulse_dynamics).");
  LIEDYN_PY_CVIEW(v_after, "Velocity after the impact [nu+; r+].");
  LIEDYN_PY_CVIEW(
      ddq_dx,
      "d ddq / d x (nv x 2nv, constrained_forward_dynamics_derivatives): rows ddq = [nu'; r'], "
      "columns delta x = (eta, ds, dt, dr), t the base twist in the chosen representation.");
  LIEDYN_PY_CVIEW(
      lambda_dx,
      "d lambda / d x (m x 2nv): rows lambda in the set's order, each in its constraint's "
      "sense; columns as ddq_dx.");
  LIEDYN_PY_CVIEW(ddq_dtau,
                  "d ddq / d tau (nv x nv), tau = [base wrench (base frame); joint torques].");
  LIEDYN_PY_CVIEW(lambda_dtau, "d lambda / d tau (m x nv).");
  LIEDYN_PY_CVIEW(velocity_dx,
                  "d(J [nu; r]) / d x (m x 2nv, the columns of ddq_dx): the constraint velocity's "
                  "derivative.");
  LIEDYN_PY_CVIEW(acceleration_dx,
                  "d(J ddq + gamma) / d x at fixed ddq (m x 2nv, the columns of ddq_dx; "
                  "constraint_kinematics_derivatives, constrained_forward_dynamics_derivatives).");
  LIEDYN_PY_CVIEW(position_error_dx,
                  "d e / d q (m x nv, constraint_kinematics_derivatives): columns (eta, ds), "
                  "H = H0 exp(eta^); zero rows for contacts without a desired placement.");
  LIEDYN_PY_CVIEW(
      Jdot,
      "The time derivative of J (m x nv, constraint_kinematics_derivatives), J's columns "
      "[nu; r] and rows.");
  LIEDYN_PY_CVIEW(
      v_after_dx,
      "d v_after / d x (nv x 2nv, impulse_dynamics_derivatives): rows [nu+; r+], columns "
      "delta x = (eta, ds, dt, dr) of the pre-impact state.");
  LIEDYN_PY_CVIEW(
      impulse_dx,
      "d impulse / d x (m x 2nv, impulse_dynamics_derivatives): rows in the set's order, "
      "each in its constraint's sense; columns as v_after_dx.");
#undef LIEDYN_PY_CVIEW

  auto check = [](const char* who, const Model& mo, Data& d, const ConstraintSet& set,
                  const State& x) {
    check_call(who, mo, d, x);
    LIEDYN_CHECK(set.nv() == mo.nv(),
                 std::string(who) + ": the constraint set was built for another model");
  };
  m.def(
      "constraint_kinematics",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c,
              const State& x) {
        check("constraint_kinematics", mo, d, set, x);
        released("constraint_kinematics", d, c, [&] { constraint_kinematics(mo, d, set, c, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      "J, drift, gamma and the errors into cdata.");
  m.def(
      "constrained_forward_dynamics",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              const VectorRef& tau, ConstrainedDynamicsRoute route, const py::object& out) {
        check("constrained_forward_dynamics", mo, d, set, x);
        check_finite("constrained_forward_dynamics", "tau", tau);
        Options opt;
        opt.route = route;
        return results("constrained_forward_dynamics", out,
                       released("constrained_forward_dynamics", d, c, [&]() -> decltype(auto) {
                         return constrained_forward_dynamics(mo, d, set, c, x, tau, opt);
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("tau"), py::arg("route") = ConstrainedDynamicsRoute::ExactKKT, py::kw_only(),
      py::arg("out") = py::none(),
      "Forward dynamics under the constraints: cdata.ddq and cdata.lambda (M ddq + h - tau = J^T "
      "lambda, "
      "J ddq + gamma = 0). Returns a copy of cdata.ddq. Raises ConstraintError for a "
      "rank-deficient J "
      "(ExactKKT, Projector).");
  m.def(
      "impulse_dynamics",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, const State& x,
              double restitution, const py::object& out) {
        check("impulse_dynamics", mo, d, set, x);
        return results("impulse_dynamics", out,
                       released("impulse_dynamics", d, c, [&]() -> decltype(auto) {
                         return impulse_dynamics(mo, d, set, c, x, restitution);
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      py::arg("restitution") = 0.0, py::kw_only(), py::arg("out") = py::none(),
      "Impact at the constraints: cdata.v_after with J v+ = -e J v-, cdata.impulse. Returns a copy "
      "of cdata.v_after.");
  m.def(
      "project_configuration",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, State& x) {
        check("project_configuration", mo, d, set, x);
        return released("project_configuration", d, c,
                        [&] { return project_configuration(mo, d, set, c, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      "Moves x's configuration onto the constraint manifold (Newton on the group); returns the "
      "iterations.");
  m.def(
      "project_velocity",
      [check](const Model& mo, Data& d, const ConstraintSet& set, ConstraintData& c, State& x) {
        check("project_velocity", mo, d, set, x);
        released("project_velocity", d, c, [&] { project_velocity(mo, d, set, c, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("set"), py::arg("cdata"), py::arg("x"),
      "Projects x's velocity onto the constraints' tangent space (J [nu; r] = v*), in place.");
  m.def(
      "constrained_inverse_dynamics",
      [](const MatrixRef& M, const MatrixRef& J, const MatrixRef& actuation, const VectorRef& ddq,
         const VectorRef& force_minus_bias) {
        ConstrainedInverseDynamicsWorkspace<double> ws(static_cast<int>(M.rows()),
                                                       static_cast<int>(actuation.cols()),
                                                       static_cast<int>(J.rows()));
        VectorXd u(actuation.cols()), lambda(J.rows());
        const auto report = constrained_inverse_dynamics<double>(M, J, actuation, ddq,
                                                                 force_minus_bias, ws, u, lambda);
        if (!report.solved)
          throw std::invalid_argument("liedyn: constrained_inverse_dynamics: no solution");
        return py::make_tuple(u, lambda);
      },
      py::arg("M"), py::arg("J"), py::arg("actuation"), py::arg("ddq"), py::arg("force_minus_bias"),
      "Actuator forces u and constraint forces lambda with actuation u + J^T lambda = M ddq - (tau "
      "- h) "
      "(least weighted norm when redundant). Returns (u, lambda).");
  bind_constrained_linearization(m, check);
}

void bind_loading_and_more(py::module_& m) {
  m.def(
      "model_diagnostics",
      [](const Model& mo) {
        py::list out;
        for (const ModelDiagnostic& d : mo.diagnostics()) {
          py::dict e;
          e["link"] = d.link;
          e["kind"] = std::string(to_string(d.kind));
          e["message"] = d.message;
          e["magnitude"] = d.magnitude;
          out.append(e);
        }
        return out;
      },
      py::arg("model"),
      "The loader's and builder's named diagnostics (docs/loading.md): dicts with link, kind, "
      "message, "
      "magnitude.");
  m.def("lock_joints", &lock_joints<double>, py::arg("model"), py::arg("names"),
        py::arg("positions"),
        "A new Model with the named joints welded at the given positions (frames kept).");
  m.def(
      "centroidal_derivatives",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq, TwistRepresentation rep) {
        check_call("centroidal_derivatives", mo, d, x);
        check_finite("centroidal_derivatives", "ddq", ddq);
        released("centroidal_derivatives", d, [&] { centroidal_derivatives(mo, d, x, ddq, rep); });
        return py::make_tuple(Eigen::MatrixXd(d.centroidal.com_dx),
                              Eigen::MatrixXd(d.centroidal.momentum_dx),
                              Eigen::MatrixXd(d.centroidal.rate_dx));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"),
      py::arg("rep") = TwistRepresentation::Body,
      "(dp_com/dx (3 x 2nv), dh_G/dx (6 x 2nv), dh_G'/dx at ddq (6 x 2nv)), columns ordered as A's "
      "state "
      "dx = (eta, ds, dt, dr) with the base twist t in `rep` (copies).");
  m.def(
      "linearize_discrete_actuated",
      [](const Model& mo, Data& d, const State& x, const MatrixRef& actuation, const VectorRef& u,
         double dt, TwistRepresentation rep, const py::object& out) {
        check_call("linearize_discrete_actuated", mo, d, x);
        check_finite("linearize_discrete_actuated", "actuation", actuation);
        check_finite("linearize_discrete_actuated", "u", u);
        LinearizationOptions<double> opt;
        opt.representation = rep;
        Eigen::MatrixXd Bu;
        released("linearize_discrete_actuated", d,
                 [&] { linearize_discrete_actuated(mo, d, x, actuation, u, dt, Bu, opt); });
        return results("linearize_discrete_actuated", out, d.linearization.A, Bu);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("actuation"), py::arg("u"),
      py::arg("dt"), py::arg("rep") = TwistRepresentation::Body, py::kw_only(),
      py::arg("out") = py::none(),
      "Jacobians of one semi-implicit Euler step for tau = actuation u: copies of (data.A, B "
      "actuation).");
}

}  // namespace

void bind_extensions(py::module_& m) {
  bind_centroidal(m);
  bind_constraints(m);
  bind_loading_and_more(m);
}

}  // namespace python
}  // namespace liedyn
