// liedyn Python bindings — every kernel. Outputs that live in Data come back as new arrays, or
// are copied into the caller's arrays given as out= (results() in bindings.hpp): a result never
// aliases Data, which the next call overwrites. Outputs returned by value in C++ are new arrays.
// Each binding checks that data was made for model and the state's sizes before calling C++.
#include <string>
#include <variant>

#include <liedyn/algorithm/reference_dynamics.hpp>

#include "bindings.hpp"
#include "fast_call.hpp"

namespace liedyn {
namespace python {

std::vector<const void*>& workspaces_in_use() {
  static std::vector<const void*> busy;
  return busy;
}

namespace {

constexpr auto kBody = TwistRepresentation::Body;

void bind_dynamics(py::module_& m) {
  def_fast(
      m, "rnea",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq, const WrenchArg& fext,
         const py::object& out) {
        check_call("rnea", mo, d, x);
        check_finite("rnea", "ddq", ddq);
        const auto w = to_wrenches("rnea", fext);
        return results("rnea", out, released("rnea", d, [&]() -> decltype(auto) {
                         return rnea(mo, d, x, ddq, ptr(w));
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"), py::arg("fext") = py::none(),
      py::kw_only(), py::arg("out") = py::none(),
      "Inverse dynamics tau = M(s) ddq + h(x) - (external wrenches) by recursive Newton-Euler. ddq "
      "= [nu'; r'] "
      "(body acceleration of the base, base frame); tau = [base wrench in the base frame; joint "
      "torques]. fext: "
      "None or (num_bodies x 6), row i the wrench on body i in its frame. Returns a copy of "
      "data.tau.");
  def_fast(
      m, "eidamb",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq, const WrenchArg& fext,
         const py::object& out) {
        check_call("eidamb", mo, d, x);
        check_finite("eidamb", "ddq", ddq);
        const auto w = to_wrenches("eidamb", fext);
        return results("eidamb", out, released("eidamb", d, [&]() -> decltype(auto) {
                         return eidamb(mo, d, x, ddq, ptr(w));
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"), py::arg("fext") = py::none(),
      py::kw_only(), py::arg("out") = py::none(),
      "Extended inverse dynamics tau = M(s) ddq + h(x) by EIDAmb (the paper's Table 4): the same "
      "quantity as "
      "rnea by another route. Returns a copy of data.tau.");
  def_fast(
      m, "bias_force",
      [](const Model& mo, Data& d, const State& x, const WrenchArg& fext, const py::object& out) {
        check_call("bias_force", mo, d, x);
        const auto w = to_wrenches("bias_force", fext);
        return results("bias_force", out, released("bias_force", d, [&]() -> decltype(auto) {
                         return bias_force(mo, d, x, ptr(w));
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("fext") = py::none(), py::kw_only(),
      py::arg("out") = py::none(),
      "The bias h(x) = ID(x, 0): velocity products, gravity, external wrenches. Returns a copy of "
      "data.h.");
  def_fast(
      m, "gravity_force",
      [](const Model& mo, Data& d, const State& x, const py::object& out) {
        check_call("gravity_force", mo, d, x);
        return results("gravity_force", out, released("gravity_force", d, [&]() -> decltype(auto) {
                         return gravity_force(mo, d, x);
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(),
      "The gravity term G(H, s) alone (zero velocities and accelerations). Returns a copy of "
      "data.tau.");
  def_fast(
      m, "coriolis_force",
      [](const Model& mo, Data& d, const State& x, const py::object& out) {
        check_call("coriolis_force", mo, d, x);
        return results("coriolis_force", out,
                       released("coriolis_force", d,
                                [&]() -> decltype(auto) { return coriolis_force(mo, d, x); }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(),
      "The Coriolis/centrifugal term V(x) = h - G (no gravity, no accelerations). Returns a copy "
      "of data.tau.");
  m.def(
      "crba",
      [](const Model& mo, Data& d, const State& x, const py::object& out) {
        check_call("crba", mo, d, x);
        return results("crba", out,
                       released("crba", d, [&]() -> decltype(auto) { return crba(mo, d, x); }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(),
      "The mass matrix M(s) (nv x nv, both triangles, base first; the base block in the base "
      "frame) at the "
      "joint positions of x. Returns a copy of data.M.");
  m.def(
      "crba",
      [](const Model& mo, Data& d, const VectorRef& s, const py::object& out) {
        check_data("crba", mo, d);
        check_finite("crba", "s", s);
        return results("crba", out,
                       released("crba", d, [&]() -> decltype(auto) { return crba(mo, d, s); }));
      },
      py::arg("model"), py::arg("data"), py::arg("s"), py::kw_only(), py::arg("out") = py::none(),
      "M(s) from the joint positions s alone (a copy of data.M).");
  def_fast(
      m, "aba",
      [](const Model& mo, Data& d, const State& x, const VectorRef& tau, const WrenchArg& fext,
         const py::object& out) {
        check_call("aba", mo, d, x);
        check_finite("aba", "tau", tau);
        const auto w = to_wrenches("aba", fext);
        return results("aba", out, released("aba", d, [&]() -> decltype(auto) {
                         return aba(mo, d, x, tau, ptr(w));
                       }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("tau"), py::arg("fext") = py::none(),
      py::kw_only(), py::arg("out") = py::none(),
      "Forward dynamics ddq = M(s)^-1 (tau + sum J_i^T f_ext,i - h(x)) by the articulated-body "
      "algorithm; "
      "ddq = [nu' (body acceleration, base frame); r']. Raises ModelError for a singular model. "
      "Returns a copy of data.ddq.");
  m.def(
      "immamb",
      [](const Model& mo, Data& d, const State& x, const py::object& out) {
        check_call("immamb", mo, d, x);
        return results("immamb", out,
                       released("immamb", d, [&]() -> decltype(auto) { return immamb(mo, d, x); }));
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::kw_only(), py::arg("out") = py::none(),
      "The inverse mass matrix M(s)^-1 (both triangles) by IMMAmb (Table 9, around the base "
      "frame). Returns a copy of data.Minv.");
  m.def(
      "immamb",
      [](const Model& mo, Data& d, const VectorRef& s, const py::object& out) {
        check_data("immamb", mo, d);
        check_finite("immamb", "s", s);
        return results("immamb", out,
                       released("immamb", d, [&]() -> decltype(auto) { return immamb(mo, d, s); }));
      },
      py::arg("model"), py::arg("data"), py::arg("s"), py::kw_only(), py::arg("out") = py::none(),
      "M(s)^-1 from the joint positions s (a copy of data.Minv).");
  def_fast(
      m, "eidamb_derivatives",
      [](const Model& mo, Data& d, const State& x, const VectorRef& ddq, TwistRepresentation rep,
         const WrenchArg& fext, const py::object& out) {
        check_call("eidamb_derivatives", mo, d, x);
        check_finite("eidamb_derivatives", "ddq", ddq);
        const auto w = to_wrenches("eidamb_derivatives", fext);
        released("eidamb_derivatives", d, [&] { eidamb_derivatives(mo, d, x, ddq, rep, ptr(w)); });
        return results("eidamb_derivatives", out, d.derivatives.D1, d.derivatives.D2,
                       d.derivatives.D3, d.derivatives.D4);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("ddq"),
      py::arg("representation") = kBody, py::arg("fext") = py::none(), py::kw_only(),
      py::arg("out") = py::none(),
      "The derivatives of tau = ID(x, ddq): (D1, D2, D3, D4) = (dID/d eta (nv x 6, H <- H "
      "exp(eta^), the base "
      "twist in `representation` held fixed), dID/ds (nv x n), dID/d(base twist in "
      "`representation`) (nv x 6), "
      "dID/dr (nv x n)); welded base: D1, D3 are nv x 0. Also leaves data.tau and data.M. Copies "
      "of data.D1..D4.");
  m.def(
      "ltdl_factorize",
      [](const Model& mo, Data& d, const py::object& out) {
        check_data("ltdl_factorize", mo, d);
        released("ltdl_factorize", d, [&] { ltdl_factorize(mo, d); });
        return results("ltdl_factorize", out, d.ltdl.factors);
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("out") = py::none(),
      "M = L^T D L of data.M (run crba first): D on the diagonal, L strictly below. Returns a copy "
      "of data.ltdl.");
  m.def(
      "ltdl_solve",
      [](const Model& mo, Data& d, const VectorRef& y) {
        check_data("ltdl_solve", mo, d);
        check_finite("ltdl_solve", "y", y);
        check_size("ltdl_solve", "y", y, mo.nv());
        VectorXd x = y;
        released("ltdl_solve", d, [&] { ltdl_solve(mo, d, x); });
        return x;
      },
      py::arg("model"), py::arg("data"), py::arg("y"),
      "M^-1 y from the factors of ltdl_factorize (a new array).");
  m.def(
      "ltdl_inverse",
      [](const Model& mo, Data& d, const py::object& out) {
        check_data("ltdl_inverse", mo, d);
        return results("ltdl_inverse", out, released("ltdl_inverse", d, [&]() -> decltype(auto) {
                         return ltdl_inverse(mo, d);
                       }));
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("out") = py::none(),
      "M^-1 (both triangles) from the factors of ltdl_factorize. A copy of data.Minv.");
  m.def(
      "aza_factorize",
      [](const Model& mo, Data& d, const VectorRef& s) {
        check_data("aza_factorize", mo, d);
        check_finite("aza_factorize", "s", s);
        released("aza_factorize", d, [&] { aza_factorize(mo, d, s); });
      },
      py::arg("model"), py::arg("data"), py::arg("s"),
      "Factors M(s) by articulated-body inertias (around the base frame) for aza_solve. Raises "
      "ModelError for "
      "a singular model.");
  m.def(
      "aza_solve",
      [](const Model& mo, Data& d, const MatrixRef& Y) {
        check_data("aza_solve", mo, d);
        check_finite("aza_solve", "Y", Y);
        MatrixXd X = Y;
        released("aza_solve", d, [&] { aza_solve(mo, d, X, X); });
        return X;
      },
      py::arg("model"), py::arg("data"), py::arg("Y"),
      "X = M^-1 Y column by column after aza_factorize (Y: nv x k; a new array).");
  m.def(
      "forward_dynamics_llt",
      [](const Model& mo, Data& d, const State& x, const VectorRef& tau, const WrenchArg& fext) {
        check_call("forward_dynamics_llt", mo, d, x);
        check_finite("forward_dynamics_llt", "tau", tau);
        const auto w = to_wrenches("forward_dynamics_llt", fext);
        return released("forward_dynamics_llt", d,
                        [&] { return forward_dynamics_llt(mo, d, x, tau, ptr(w)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("tau"), py::arg("fext") = py::none(),
      "Reference forward dynamics: M from inverse dynamics, h from bias_force, dense LLT (a new "
      "array).");
  m.def(
      "mass_matrix_from_inverse_dynamics",
      [](const Model& mo, Data& d, const State& x) {
        check_call("mass_matrix_from_inverse_dynamics", mo, d, x);
        MatrixXd M;
        released("mass_matrix_from_inverse_dynamics", d,
                 [&] { mass_matrix_from_inverse_dynamics(mo, d, x, M); });
        return M;
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "Reference M(s) column by column from inverse dynamics (a new array).");
}

void bind_linearization(py::module_& m) {
  using O = LinearizationOptions<double>;
  py::class_<O>(m, "LinearizationOptions",
                "Options of linearize, linearize_actuated and linearize_discrete: the base-twist "
                "representation of "
                "delta x (and of D1..D4), and how M^-1 is applied.")
      .def(py::init([](TwistRepresentation rep, MinvMethod minv, int dense_up_to_nv) {
             O o;
             o.representation = rep;
             o.minv = minv;
             o.dense_up_to_nv = dense_up_to_nv;
             return o;
           }),
           py::arg("representation") = kBody, py::arg("minv") = MinvMethod::Automatic,
           py::arg("dense_up_to_nv") = O().dense_up_to_nv)
      .def_readwrite("representation", &O::representation)
      .def_readwrite("minv", &O::minv)
      .def_readwrite("dense_up_to_nv", &O::dense_up_to_nv,
                     "Automatic uses Dense up to this nv, Sweeps above.")
      .def("__repr__", [](const O& o) {
        return "LinearizationOptions(representation=" +
               std::string(py::str(py::cast(o.representation))) +
               ", minv=" + std::string(py::str(py::cast(o.minv))) +
               ", dense_up_to_nv=" + std::to_string(o.dense_up_to_nv) + ")";
      });

  m.def(
      "linearize",
      [](const Model& mo, Data& d, const State& x, const VectorRef& tau, const O& opt,
         const WrenchArg& fext, const py::object& out) {
        check_call("linearize", mo, d, x);
        check_finite("linearize", "tau", tau);
        const auto w = to_wrenches("linearize", fext);
        released("linearize", d, [&] { linearize(mo, d, x, tau, opt, ptr(w)); });
        return results("linearize", out, d.linearization.A, d.linearization.B);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("tau"), py::arg("options") = O(),
      py::arg("fext") = py::none(), py::kw_only(), py::arg("out") = py::none(),
      "Continuous-time delta x' = A delta x + B delta tau at (x, tau), delta x = (eta, ds, dt, dr) "
      "with "
      "H = H0 exp(eta^) and t the base twist in options.representation; A is 2nv x 2nv, B 2nv x "
      "nv. Also "
      "leaves data.ddq, data.M, data.Minv and D1..D4. Returns copies of (data.A, data.B).");
  m.def(
      "linearize_actuated",
      [](const Model& mo, Data& d, const State& x, const MatrixRef& S, const VectorRef& u,
         const O& opt, const WrenchArg& fext, const py::object& out) {
        check_call("linearize_actuated", mo, d, x);
        check_finite("linearize_actuated", "actuation", S);
        check_finite("linearize_actuated", "u", u);
        const auto w = to_wrenches("linearize_actuated", fext);
        MatrixXd Bu;
        released("linearize_actuated", d,
                 [&] { linearize_actuated(mo, d, x, S, u, Bu, opt, ptr(w)); });
        return results("linearize_actuated", out, d.linearization.A, Bu);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("actuation"), py::arg("u"),
      py::arg("options") = O(), py::arg("fext") = py::none(), py::kw_only(),
      py::arg("out") = py::none(),
      "linearize for tau = S u with actuation matrix S (nv x m): returns copies of (data.A, B S "
      "(2nv x m)).");
  m.def(
      "linearize_discrete",
      [](const Model& mo, Data& d, const State& x, const VectorRef& tau, double dt, const O& opt,
         const WrenchArg& fext, const py::object& out) {
        check_call("linearize_discrete", mo, d, x);
        check_finite("linearize_discrete", "tau", tau);
        const auto w = to_wrenches("linearize_discrete", fext);
        released("linearize_discrete", d,
                 [&] { linearize_discrete(mo, d, x, tau, dt, opt, ptr(w)); });
        return results("linearize_discrete", out, d.linearization.A, d.linearization.B);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("tau"), py::arg("dt"),
      py::arg("options") = O(), py::arg("fext") = py::none(), py::kw_only(),
      py::arg("out") = py::none(),
      "Exact Jacobians of one semi_implicit_euler_step: delta x+ = A delta x + B delta tau, delta "
      "x in "
      "options.representation at both ends. Returns copies of (data.A, data.B).");
  m.def(
      "semi_implicit_euler_step",
      [](const Model& mo, Data& d, const State& x, const VectorRef& tau, double dt,
         const WrenchArg& fext) {
        check_call("semi_implicit_euler_step", mo, d, x);
        check_finite("semi_implicit_euler_step", "tau", tau);
        const auto w = to_wrenches("semi_implicit_euler_step", fext);
        return released("semi_implicit_euler_step", d,
                        [&] { return semi_implicit_euler_step(mo, d, x, tau, dt, ptr(w)); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("tau"), py::arg("dt"),
      py::arg("fext") = py::none(),
      "One Lie-group semi-implicit Euler step: nu+ = nu + dt nu', r+ = r + dt r', s+ = s + dt r+, "
      "H+ = H exp(dt nu+^), with (nu', r') = FD(x, tau). Returns a new State.");
}

// frame_pose reads data.kinematics.H_world, which only some kernels write: after aba at another
// state it would be that state's pose, or a fresh Data's identity. So Python's frame_pose takes the
// state and computes the poses it reads; the old calls without one raise instead of answering.

/// ^A H_F at x: the poses of body's support chain, O(depth), not the whole tree's.
SE3 frame_pose_at(const Model& mo, Data& d, const State& x, int body, const SE3& placement) {
  check_call("frame_pose", mo, d, x);
  liedyn::detail::check_body_index(mo, body, "frame_pose");  // the chain walk indexes by body
  // A few poses: releasing the GIL would cost about as much as the computation.
  const WorkspaceClaim claim("frame_pose", "data", &d);
  liedyn::detail::support_chain_kinematics(mo, d, x, body, liedyn::detail::ChainQuantities::Poses);
  return frame_pose(mo, d, body, placement);
}

using FrameArg = std::variant<int, std::string>;

// A model frame given by index or by name (KeyError naming the closest names), range-checked.
int frame_of(const char* who, const Model& mo, const FrameArg& frame) {
  const int* id = std::get_if<int>(&frame);
  const int f = id ? *id : frame_index(who, mo, std::get<std::string>(frame));
  liedyn::detail::check_frame_index(mo, f, who);
  return f;
}

SE3 frame_pose_by_id(const Model& mo, Data& d, const State& x, const FrameArg& frame) {
  const int f = frame_of("frame_pose", mo, frame);
  return frame_pose_at(mo, d, x, mo.frame(f).body, mo.frame(f).placement);
}

[[noreturn]] void refuse_frame_pose_without_state() {
  throw InvalidArgument(
      "liedyn: frame_pose: pass the state: frame_pose(model, data, x, frame) or frame_pose(model, "
      "data, x, body, placement) computes the pose at x (data holds the poses of the last kernel "
      "that wrote them, maybe at another state)");
}

void bind_kinematics(py::module_& m) {
  m.def(
      "base_pose", [](const Model& mo, const State& x) { return base_pose(mo, x); },
      py::arg("model"), py::arg("x"),
      "^A H_0 as the kinematics use it: x.H (moving base) or model.welded_base_pose.");
  m.def(
      "forward_poses",
      [](const Model& mo, Data& d, const State& x) {
        check_call("forward_poses", mo, d, x);
        released("forward_poses", d, [&] { forward_poses(mo, d, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "Poses only: data.H_parent (^{lambda(i)}H_i) and data.H_world (^A H_i).");
  m.def(
      "forward_velocity",
      [](const Model& mo, Data& d, const State& x) {
        check_call("forward_velocity", mo, d, x);
        released("forward_velocity", d, [&] { forward_kinematics(mo, d, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "Body twists data.v[i] = ^i v_{A,i} (body frame) at x. Computes the poses at x too (as "
      "forward_kinematics): C++'s forward_velocity reuses data.H_parent, which may hold another "
      "state's.");
  m.def(
      "forward_kinematics",
      [](const Model& mo, Data& d, const State& x) {
        check_call("forward_kinematics", mo, d, x);
        released("forward_kinematics", d, [&] { forward_kinematics(mo, d, x); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"),
      "forward_poses then forward_velocity: data.H_parent, data.H_world, data.v for every body.");
  m.def("frame_pose", &frame_pose_by_id, py::arg("model"), py::arg("data"), py::arg("x"),
        py::arg("frame"),
        "^A H_F at x of model frame `frame` (its index, or its name: KeyError naming the closest "
        "names when absent). Computes the poses of the frame's support chain only, O(depth), into "
        "data. A new SE3.");
  m.def("frame_pose", &frame_pose_at, py::arg("model"), py::arg("data"), py::arg("x"),
        py::arg("body"), py::arg("placement"),
        "^A H_F at x of the frame at ^{body}H_F = placement (the poses of body's support chain "
        "only, into data). A new SE3.");
  // The calls of earlier versions, without the state: a clear error rather than a TypeError
  // listing signatures (the stubs type them as returning None).
  m.def(
      "frame_pose",
      [](const Model&, const Data&, const FrameArg&) { refuse_frame_pose_without_state(); },
      py::arg("model"), py::arg("data"), py::arg("frame"),
      "Refused (InvalidArgument): frame_pose takes the state x.");
  m.def(
      "frame_pose",
      [](const Model&, const Data&, int, const SE3&) { refuse_frame_pose_without_state(); },
      py::arg("model"), py::arg("data"), py::arg("body"), py::arg("placement"),
      "Refused (InvalidArgument): frame_pose takes the state x.");
  const char* jac_doc =
      "Jacobian J (6 x nv, a new array) of the frame (frame_id: a model frame's index or name) "
      "with v_F = J [nu; r] in `representation`: Inertial ^A "
      "v_{A,F} (columns "
      "^A X_0 for the base, ^A X_j Gamma_j for joints on the path), Body ^F v_{A,F} (^F X_A times "
      "those), Mixed "
      "[^A o_F'; ^A omega_F] ([I, -o_F^; 0, I] times those). Columns off the path are zero.";
  m.def(
      "frame_jacobian",
      [](const Model& mo, Data& d, const State& x, const FrameArg& frame, TwistRepresentation rep) {
        check_call("frame_jacobian", mo, d, x);
        const int frame_id = frame_of("frame_jacobian", mo, frame);
        Matrix6X<double> J(6, mo.nv());
        released("frame_jacobian", d, [&] { frame_jacobian(mo, d, x, frame_id, rep, J); });
        return MatrixXd(J);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame_id"),
      py::arg("representation") = kBody, jac_doc);
  m.def(
      "frame_jacobian",
      [](const Model& mo, Data& d, const State& x, int body, const SE3& placement,
         TwistRepresentation rep) {
        check_call("frame_jacobian", mo, d, x);
        Matrix6X<double> J(6, mo.nv());
        released("frame_jacobian", d, [&] { frame_jacobian(mo, d, x, body, placement, rep, J); });
        return MatrixXd(J);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("body"), py::arg("placement"),
      py::arg("representation") = kBody, jac_doc);
  m.def(
      "body_jacobian",
      [](const Model& mo, Data& d, const State& x, int body, TwistRepresentation rep) {
        check_call("body_jacobian", mo, d, x);
        Matrix6X<double> J(6, mo.nv());
        released("body_jacobian", d, [&] { body_jacobian(mo, d, x, body, rep, J); });
        return MatrixXd(J);
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("body"),
      py::arg("representation") = kBody,
      "frame_jacobian of body `body`'s own frame (placement identity).");
  m.def(
      "frame_velocity",
      [](const Model& mo, Data& d, const State& x, const FrameArg& frame, TwistRepresentation rep) {
        check_call("frame_velocity", mo, d, x);
        const int frame_id = frame_of("frame_velocity", mo, frame);
        return released("frame_velocity", d,
                        [&] { return frame_velocity(mo, d, x, frame_id, rep); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame_id"),
      py::arg("representation") = kBody,
      "The twist of model frame frame_id (its index or its name) in `representation` (= J q', "
      "O(depth)).");
  m.def(
      "frame_velocity",
      [](const Model& mo, Data& d, const State& x, int body, const SE3& placement,
         TwistRepresentation rep) {
        check_call("frame_velocity", mo, d, x);
        return released("frame_velocity", d,
                        [&] { return frame_velocity(mo, d, x, body, placement, rep); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("body"), py::arg("placement"),
      py::arg("representation") = kBody,
      "The twist of the frame at ^{body}H_F = placement in `representation`.");
  m.def(
      "frame_acceleration_bias",
      [](const Model& mo, Data& d, const State& x, const FrameArg& frame, TwistRepresentation rep) {
        check_call("frame_acceleration_bias", mo, d, x);
        const int frame_id = frame_of("frame_acceleration_bias", mo, frame);
        return released("frame_acceleration_bias", d,
                        [&] { return frame_acceleration_bias(mo, d, x, frame_id, rep); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("frame_id"),
      py::arg("representation") = kBody,
      "J' q' of model frame frame_id (its index or its name) in `representation`: d/dt v_F = J "
      "q'' + J' q' (mixed includes "
      "the "
      "[R (omega x v); 0] term).");
  m.def(
      "frame_acceleration_bias",
      [](const Model& mo, Data& d, const State& x, int body, const SE3& placement,
         TwistRepresentation rep) {
        check_call("frame_acceleration_bias", mo, d, x);
        return released("frame_acceleration_bias", d,
                        [&] { return frame_acceleration_bias(mo, d, x, body, placement, rep); });
      },
      py::arg("model"), py::arg("data"), py::arg("x"), py::arg("body"), py::arg("placement"),
      py::arg("representation") = kBody,
      "J' q' of the frame at ^{body}H_F = placement in `representation`.");
}

}  // namespace

void bind_kernels(py::module_& m) {
  bind_dynamics(m);
  bind_linearization(m);
  bind_kinematics(m);
}

}  // namespace python
}  // namespace liedyn
