// liedyn Python bindings — liedyn.interop: states, velocities, accelerations, generalized forces,
// mass matrices and dynamics Jacobians to and from the conventions of Pinocchio, MuJoCo, Drake,
// RBDL and iDynTree (the C++ layer include/liedyn/interop/, docs/interop.md), and MuJoCo's qpos
// of an MJCF model.
//
// Each binding checks its arguments before the C++ converter runs: the state's sizes and
// finiteness (check_state), the finiteness of every vector and matrix; the converters check the
// sizes themselves and throw std::invalid_argument, rethrown here as liedyn.InvalidArgument so
// that Python sees the one exception the other bindings raise.
#include <liedyn/interop/derivatives.hpp>
#include <liedyn/interop/floating_base.hpp>
#include <liedyn/interop/mujoco.hpp>

#include "bindings.hpp"

namespace liedyn {
namespace python {

namespace {

using interop::JointPermutation;
using interop::Library;
using PermArg = std::optional<JointPermutation>;

// The converters' std::invalid_argument (sizes, joint permutation, joint types) as
// liedyn.InvalidArgument; the message (liedyn::interop::<function>: ...) is kept.
template <class F>
auto converting(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InvalidArgument&) {
    throw;
  } catch (const ModelError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw InvalidArgument(e.what());
  }
}

// The permutation a converter uses: the caller's, or with perm=None the identity, which is
// refused for Pinocchio when Pinocchio would list the model's joints in another order (the
// order it gives the same URDF): a silently unpermuted vector is a wrong answer without a word.
// JointPermutation() states that the orders are equal (a Pinocchio model built in liedyn's
// order, or from the same MJCF).
JointPermutation stated_perm(Library lib, const Model& model, const PermArg& perm) {
  if (perm) return *perm;
  if (lib != Library::Pinocchio) return JointPermutation();
  const std::vector<std::string> theirs = interop::pinocchio_urdf_joint_order(model);
  for (int k = 0; k < model.num_joints(); ++k) {
    if (theirs[k] == model.joint_name(k + 1)) continue;
    throw InvalidArgument(
        "liedyn.interop: no joint permutation given (perm=None), but Pinocchio lists this "
        "model's joints in another order when it loads the same URDF (it visits a link's "
        "children by joint name): its joint " +
        std::to_string(k + 1) + " is '" + theirs[k] + "', liedyn's is '" + model.joint_name(k + 1) +
        "'. Pass perm=JointPermutation.from_names(model, [n for n in pin_model.names[1:] if n != "
        "'root_joint']), or perm=JointPermutation() to state that your Pinocchio model lists the "
        "joints in liedyn's order.");
  }
  return JointPermutation();
}

void check_pose(const char* who, const SE3& H) { check_finite(who, "H", H.matrix()); }

void check_model_state(const char* who, const Model& model, const State& x) {
  converting([&] { check_state(who, model, x); });
}

constexpr const char* kPermDoc =
    " perm: their joint order (JointPermutation.from_names), or JointPermutation() for liedyn's "
    "own; None (the default) is liedyn's own too, but refused for Pinocchio where the order it "
    "gives the same URDF differs (the error names the first joint that differs).";

}  // namespace

void bind_interop(py::module_& top) {
  // "_interop": the star import of liedyn/__init__.py skips it, so that liedyn.interop is the
  // module python/liedyn/interop.py, which re-exports everything below.
  py::module_ m = top.def_submodule(
      "_interop",
      "States, velocities, accelerations, generalized forces, mass matrices and dynamics "
      "Jacobians to and from the conventions of Pinocchio, MuJoCo, Drake, RBDL and iDynTree "
      "(docs/interop.md). liedyn's own: x = (H, s, nu, r), nu the base BODY twist [v; omega], "
      "vectors base first in liedyn's joint order. Their generalized velocity is v_L = T [nu; r] "
      "with T = blockdiag(T_b(R), P) orthogonal: Pinocchio T_b = I (q = [p; qx qy qz qw; s]), "
      "MuJoCo and RBDL blockdiag(R, I), iDynTree blockdiag(R, R), Drake [0, R; R, 0]. "
      "All functions return new arrays.");
  // `from ._liedyn._interop import *` (liedyn/interop.py) needs the submodule in sys.modules:
  // pybind11 only sets it as an attribute.
  const std::string name = std::string(py::str(top.attr("__name__"))) + "._interop";
  py::module_::import("sys").attr("modules")[py::str(name)] = m;

  py::enum_<Library>(m, "Library",
                     "A library whose floating-base convention is built in (docs/interop.md).")
      .value("Pinocchio", Library::Pinocchio)
      .value("MuJoCo", Library::MuJoCo)
      .value("Drake", Library::Drake)
      .value("RBDL", Library::RBDL)
      .value("iDynTree", Library::iDynTree);

  py::class_<JointPermutation>(
      m, "JointPermutation",
      "A bijection between liedyn's joint order and another library's order of the same "
      "joints (a multi-DoF joint moves as one block of its coordinates). JointPermutation() is "
      "the identity for any number of joints.")
      .def(py::init<>(), "The identity.")
      .def_static(
          "from_names",
          [](const Model& model, const std::vector<std::string>& names) {
            return converting([&] { return JointPermutation::from_names(model, names); });
          },
          py::arg("model"), py::arg("names"),
          "From the other library's joint names in its order, without its floating-base joint "
          "(Pinocchio: model.names[2:]). InvalidArgument naming an unknown, repeated or missing "
          "joint.")
      .def_property_readonly("size", &JointPermutation::size,
                             "Number of joints it was built for; -1 for the identity.")
      .def("is_identity", &JointPermutation::is_identity)
      .def(
          "theirs_of_ours",
          [](const JointPermutation& p, int k) {
            if (p.size() >= 0) check_index("JointPermutation.theirs_of_ours", "joint", k, p.size());
            return p.theirs_of_ours(k);
          },
          py::arg("k"), "Position in their list of liedyn's joint k (0-based).")
      .def("__repr__", [](const JointPermutation& p) {
        if (p.size() < 0) return std::string("JointPermutation()");
        std::string s = "<liedyn.interop.JointPermutation of " + std::to_string(p.size()) +
                        " joints, " + (p.is_identity() ? "the identity" : "theirs_of_ours [");
        if (!p.is_identity()) {
          for (int k = 0; k < p.size(); ++k)
            s += (k ? ", " : "") + std::to_string(p.theirs_of_ours(k));
          s += "]";
        }
        return s + ">";
      });

  m.def(
      "pinocchio_urdf_joint_order",
      [](const Model& model) { return interop::pinocchio_urdf_joint_order(model); },
      py::arg("model"),
      "The joint names of model in the order Pinocchio lists them when it loads the same URDF "
      "(depth-first, a link's children by joint name; liedyn keeps the file's order): the order "
      "a converter called with perm=None checks for Library.Pinocchio.");
  m.def(
      "configuration_size",
      [](Library lib, const Model& model) {
        return converting([&] { return interop::configuration_size(lib, model); });
      },
      py::arg("library"), py::arg("model"),
      "Size of their configuration vector q: 7 + nq_joints (moving base) or nq_joints. "
      "InvalidArgument for iDynTree (no q vector).");
  m.def(
      "configuration_to",
      [](Library lib, const Model& model, const State& x, const PermArg& perm) {
        const char* who = "interop.configuration_to";
        check_model_state(who, model, x);
        return converting([&] {
          return interop::configuration_to(lib, model, x, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("perm") = py::none(),
      (std::string("Their configuration vector q of the state x, e.g. Pinocchio [p; qx qy qz qw; "
                   "s], MuJoCo [p; qw qx qy qz; s]; the quaternion of ^A R_0 with w >= 0.") +
       kPermDoc)
          .c_str());
  m.def(
      "configuration_from",
      [](Library lib, const Model& model, const VectorRef& q, const PermArg& perm) {
        const char* who = "interop.configuration_from";
        check_finite(who, "q", q);
        return converting([&] {
          return interop::configuration_from<double>(lib, model, q, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("q"), py::arg("perm") = py::none(),
      (std::string("The State (H, s) at rest from their configuration vector q (the quaternion "
                   "is normalized; a zero one raises InvalidArgument).") +
       kPermDoc)
          .c_str());
  m.def(
      "state_from",
      [](Library lib, const Model& model, const VectorRef& q, const VectorRef& v,
         const PermArg& perm) {
        const char* who = "interop.state_from";
        check_finite(who, "q", q);
        check_finite(who, "v", v);
        return converting([&] {
          return interop::state_from<double>(lib, model, q, v, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("q"), py::arg("v"),
      py::arg("perm") = py::none(),
      (std::string("The State x = (H, s, nu, r) from their configuration q and velocity v "
                   "(Pinocchio's v = [nu; r] up to the joint order).") +
       kPermDoc)
          .c_str());
  m.def(
      "velocity_to",
      [](Library lib, const Model& model, const State& x, const PermArg& perm) {
        check_model_state("interop.velocity_to", model, x);
        return converting(
            [&] { return interop::velocity_to(lib, model, x, stated_perm(lib, model, perm)); });
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("perm") = py::none(),
      (std::string("Their generalized velocity v_L = [T_b nu; P r] (size nv) of the state x.") +
       kPermDoc)
          .c_str());
  m.def(
      "velocity_from",
      [](Library lib, const Model& model, const SE3& H, const VectorRef& v, const PermArg& perm) {
        const char* who = "interop.velocity_from";
        check_pose(who, H);
        check_finite(who, "v", v);
        return converting([&] {
          return interop::velocity_from<double>(lib, model, H, v, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("v"),
      py::arg("perm") = py::none(),
      (std::string("liedyn's generalized velocity [nu; r] (size nv) from theirs, at the base pose "
                   "H = ^A H_0.") +
       kPermDoc)
          .c_str());
  m.def(
      "acceleration_to",
      [](Library lib, const Model& model, const State& x, const VectorRef& ddq,
         const PermArg& perm) {
        const char* who = "interop.acceleration_to";
        check_model_state(who, model, x);
        check_finite(who, "ddq", ddq);
        return converting([&] {
          return interop::acceleration_to<double>(lib, model, x, ddq,
                                                  stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("ddq"),
      py::arg("perm") = py::none(),
      (std::string("Their generalized acceleration, the time derivative of their velocity "
                   "coordinates (MuJoCo's qacc: p'' for the linear part), from ddq = [nu'; r'] at "
                   "the state x.") +
       kPermDoc)
          .c_str());
  m.def(
      "acceleration_from",
      [](Library lib, const Model& model, const State& x, const VectorRef& a, const PermArg& perm) {
        const char* who = "interop.acceleration_from";
        check_model_state(who, model, x);
        check_finite(who, "a", a);
        return converting([&] {
          return interop::acceleration_from<double>(lib, model, x, a,
                                                    stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("a"),
      py::arg("perm") = py::none(),
      (std::string("liedyn's ddq = [nu'; r'] from their generalized acceleration a at the state "
                   "x.") +
       kPermDoc)
          .c_str());
  m.def(
      "force_to",
      [](Library lib, const Model& model, const SE3& H, const VectorRef& tau, const PermArg& perm) {
        const char* who = "interop.force_to";
        check_pose(who, H);
        check_finite(who, "tau", tau);
        return converting([&] {
          return interop::force_to<double>(lib, model, H, tau, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("tau"),
      py::arg("perm") = py::none(),
      (std::string("Their generalized force T tau from liedyn's tau = [base wrench [force; "
                   "moment] in the base frame; joint torques], at the base pose H.") +
       kPermDoc)
          .c_str());
  m.def(
      "force_from",
      [](Library lib, const Model& model, const SE3& H, const VectorRef& tau, const PermArg& perm) {
        const char* who = "interop.force_from";
        check_pose(who, H);
        check_finite(who, "tau", tau);
        return converting([&] {
          return interop::force_from<double>(lib, model, H, tau, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("tau"),
      py::arg("perm") = py::none(),
      (std::string("liedyn's tau (base wrench in the base frame, then joints) from their "
                   "generalized force: T^T tau_L.") +
       kPermDoc)
          .c_str());
  m.def(
      "matrix_to",
      [](Library lib, const Model& model, const SE3& H, const MatrixRef& X, const PermArg& perm) {
        const char* who = "interop.matrix_to";
        check_pose(who, H);
        check_finite(who, "X", X);
        return converting([&] {
          return interop::matrix_to<double>(lib, model, H, X, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("X"),
      py::arg("perm") = py::none(),
      (std::string("T X T^T (nv x nv): their M from liedyn's M, their M^-1 from M^-1.") + kPermDoc)
          .c_str());
  m.def(
      "matrix_from",
      [](Library lib, const Model& model, const SE3& H, const MatrixRef& X, const PermArg& perm) {
        const char* who = "interop.matrix_from";
        check_pose(who, H);
        check_finite(who, "X", X);
        return converting([&] {
          return interop::matrix_from<double>(lib, model, H, X, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("X"),
      py::arg("perm") = py::none(),
      (std::string("T^T X_L T: liedyn's M (or M^-1) from theirs.") + kPermDoc).c_str());
  m.def(
      "velocity_matrix",
      [](Library lib, const Model& model, const SE3& H, const PermArg& perm) {
        check_pose("interop.velocity_matrix", H);
        return converting([&] {
          return interop::velocity_matrix<double>(lib, model, H, stated_perm(lib, model, perm));
        });
      },
      py::arg("library"), py::arg("model"), py::arg("H"), py::arg("perm") = py::none(),
      (std::string("T = blockdiag(T_b(R), P) (nv x nv), their velocity = T [nu; r].") + kPermDoc)
          .c_str());
  m.def(
      "base_velocity_matrix",
      [](Library lib, const Eigen::Matrix3d& R) {
        check_finite("interop.base_velocity_matrix", "R", R);
        return interop::base_velocity_matrix<double>(lib, R);
      },
      py::arg("library"), py::arg("R"),
      "T_b(R) (6 x 6, orthogonal), their base velocity = T_b nu, R = ^A R_0.");
  m.def(
      "retract",
      [](Library lib, const SE3& H, const Vector6<double>& delta) {
        const char* who = "interop.retract";
        check_pose(who, H);
        check_finite(who, "delta", delta);
        return interop::retract(lib, H, delta);
      },
      py::arg("library"), py::arg("H"), py::arg("delta"),
      "The base pose moved along their base position tangent delta (6, their velocity's order): "
      "Pinocchio H exp(delta^); MuJoCo, RBDL p + dp (world), R exp(dtheta^); iDynTree, Drake "
      "p + dp, exp(dtheta^) R. What their q-derivatives' base columns mean.");

  // --- derivatives ---------------------------------------------------------------------------
  m.def(
      "inverse_dynamics_jacobians_to",
      [](Library lib, const Model& model, const State& x, const VectorRef& ddq,
         const VectorRef& tau, const MatrixRef& D1, const MatrixRef& D2, const MatrixRef& D3,
         const MatrixRef& D4, const MatrixRef& M, const PermArg& perm) {
        const char* who = "interop.inverse_dynamics_jacobians_to";
        check_model_state(who, model, x);
        check_finite(who, "ddq", ddq);
        check_finite(who, "tau", tau);
        check_finite(who, "D1", D1);
        check_finite(who, "D2", D2);
        check_finite(who, "D3", D3);
        check_finite(who, "D4", D4);
        check_finite(who, "M", M);
        const auto r = converting([&] {
          return interop::inverse_dynamics_jacobians_to<double>(
              lib, model, x, ddq, tau, D1, D2, D3, D4, M, stated_perm(lib, model, perm));
        });
        return py::make_tuple(r.dtau_dq, r.dtau_dv, r.dtau_da);
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("ddq"), py::arg("tau"),
      py::arg("D1"), py::arg("D2"), py::arg("D3"), py::arg("D4"), py::arg("M"),
      py::arg("perm") = py::none(),
      (std::string(
           "(dtau_dq, dtau_dv, dtau_da), each nv x nv: the Jacobians of their inverse dynamics "
           "in their coordinates (Pinocchio's computeRNEADerivatives; MuJoCo's mjd_inverseFD "
           "gives their transposes), from liedyn's Body-representation derivatives at (x, ddq): "
           "D1..D4 = eidamb_derivatives(model, data, x, ddq, TwistRepresentation.Body), M = "
           "data.M, tau = data.tau.") +
       kPermDoc)
          .c_str());
  m.def(
      "forward_dynamics_jacobians_to",
      [](Library lib, const Model& model, const State& x, const VectorRef& tau,
         const VectorRef& ddq, const MatrixRef& A, const MatrixRef& Minv, const PermArg& perm) {
        const char* who = "interop.forward_dynamics_jacobians_to";
        check_model_state(who, model, x);
        check_finite(who, "tau", tau);
        check_finite(who, "ddq", ddq);
        check_finite(who, "A", A);
        check_finite(who, "Minv", Minv);
        const auto r = converting([&] {
          return interop::forward_dynamics_jacobians_to<double>(lib, model, x, tau, ddq, A, Minv,
                                                                stated_perm(lib, model, perm));
        });
        return py::make_tuple(r.dddq_dq, r.dddq_dv, r.dddq_dtau);
      },
      py::arg("library"), py::arg("model"), py::arg("x"), py::arg("tau"), py::arg("ddq"),
      py::arg("A"), py::arg("Minv"), py::arg("perm") = py::none(),
      (std::string("(dddq_dq, dddq_dv, dddq_dtau), each nv x nv: the Jacobians of their forward "
                   "dynamics in their coordinates (Pinocchio's computeABADerivatives), from "
                   "liedyn's continuous Body linearization at (x, tau): A, _ = linearize(model, "
                   "data, x, tau) with the Body representation, Minv = data.Minv, ddq = "
                   "data.ddq.") +
       kPermDoc)
          .c_str());
  m.def(
      "linearization_from_pinocchio",
      [](const Model& model, const State& x, const MatrixRef& ddq_dq, const MatrixRef& ddq_dv,
         const MatrixRef& Minv, const PermArg& perm) {
        const char* who = "interop.linearization_from_pinocchio";
        check_model_state(who, model, x);
        check_finite(who, "ddq_dq", ddq_dq);
        check_finite(who, "ddq_dv", ddq_dv);
        check_finite(who, "Minv", Minv);
        MatrixXd A, B;
        converting([&] {
          interop::linearization_from_pinocchio<double>(
              model, x, ddq_dq, ddq_dv, Minv, A, B, stated_perm(Library::Pinocchio, model, perm));
        });
        return py::make_tuple(A, B);
      },
      py::arg("model"), py::arg("x"), py::arg("ddq_dq"), py::arg("ddq_dv"), py::arg("Minv"),
      py::arg("perm") = py::none(),
      (std::string("(A, B): liedyn's continuous Body linearization (2nv x 2nv, 2nv x nv) from "
                   "Pinocchio's computeABADerivatives outputs ddq_dq, ddq_dv, Minv (pass Minv "
                   "symmetrized: Pinocchio fills its upper triangle).") +
       kPermDoc)
          .c_str());

  // --- MuJoCo's qpos of an MJCF model ----------------------------------------------------------
  m.def(
      "state_from_mujoco",
      [](const Model& model, const VectorRef& qpos0, const VectorRef& qpos, const VectorRef& qvel) {
        const char* who = "interop.state_from_mujoco";
        check_finite(who, "qpos0", qpos0);
        check_finite(who, "qpos", qpos);
        check_finite(who, "qvel", qvel);
        return converting(
            [&] { return interop::state_from_mujoco<double>(model, VectorXd(qpos0), qpos, qvel); });
      },
      py::arg("model"), py::arg("qpos0"), py::arg("qpos"), py::arg("qvel"),
      "The State of an MJCF model (load_mjcf_robot_file) from MuJoCo's qpos and qvel; qpos0 = "
      "MjcfRobot.qpos0 (hinge and slide joints: s = qpos - qpos0).");
  m.def(
      "mujoco_qpos",
      [](const Model& model, const VectorRef& qpos0, const State& x) {
        const char* who = "interop.mujoco_qpos";
        check_finite(who, "qpos0", qpos0);
        check_model_state(who, model, x);
        return converting([&] { return interop::mujoco_qpos<double>(model, VectorXd(qpos0), x); });
      },
      py::arg("model"), py::arg("qpos0"), py::arg("x"),
      "MuJoCo's qpos of the state x of an MJCF model (base quaternion w first, w >= 0); its qvel "
      "is velocity_to(Library.MuJoCo, model, x).");
  bind_pinocchio_view(m);
}

}  // namespace python
}  // namespace liedyn
