// liedyn Python bindings — the module, the types (SE3, inertias, joints, frames), the model
// and its builder and URDF and MJCF loaders, the state and its Lie-group operations, Data (its
// buffers as read-only numpy views), the geometric finite differences and the private test helpers.
// Kernels are in kernels.cpp. Frames and conventions: docs/concepts.md, docs/python.md.
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include <Eigen/SVD>

#include <liedyn/model/mjcf.hpp>
#include <liedyn/model/urdf.hpp>
#include <liedyn/testing/samples.hpp>

#include "bindings.hpp"
#include "fast_call.hpp"
#include "model_capsule.hpp"
#include "numpy_compat.hpp"

namespace liedyn {
namespace python {

namespace {

using Builder = ModelBuilder<double>;
using Spec = JointSpec<double>;
using Inertia = SpatialInertia<double>;

// KeyError for a name the model does not have, naming the closest ones (difflib's matches):
// "liedyn: Model.frame_id: no frame named 'FL_FOT'; closest: 'FL_FOOT', 'FR_FOOT'".
[[noreturn]] void throw_unknown_name(const char* who, const char* what, const std::string& name,
                                     const std::vector<std::string>& names) {
  const py::list close =
      py::module_::import("difflib").attr("get_close_matches")(name, names, 3, 0.6);
  std::string msg = std::string("liedyn: ") + who + ": no " + what + " named '" + name + "'";
  std::string sep = "; closest: ";
  for (const py::handle c : close) {
    msg += sep + "'" + c.cast<std::string>() + "'";
    sep = ", ";
  }
  if (close.empty()) msg += " (nothing close among its " + std::to_string(names.size()) + ")";
  throw py::key_error(msg);
}

// The index name maps to, by `find` (-1 when absent), or KeyError (throw_unknown_name).
template <class Find>
int require_name(const char* who, const char* what, const std::string& name,
                 const std::vector<std::string>& names, Find find) {
  const int i = find(name);
  if (i < 0) throw_unknown_name(who, what, name, names);
  return i;
}

// A rotation handed in from Python: checked (detail::check_rotation), or with project=True the
// nearest rotation in the Frobenius norm, U Vᵀ of R's singular value decomposition (polar
// decomposition); a reflection or singular matrix has no such rotation near it and is refused.
Eigen::Matrix3d rotation_argument(const char* who, const char* what, const Eigen::Matrix3d& R,
                                  bool project) {
  if (!project) {
    liedyn::detail::check_rotation(who, what, R);
    return R;
  }
  if (!(rotation_defect(R) < std::numeric_limits<double>::infinity()))
    throw InvalidArgument(std::string("liedyn: ") + who + ": " + what +
                          " cannot be projected onto the rotations: its determinant is not "
                          "positive (a reflection, a singular or a non-finite matrix)");
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(R, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return svd.matrixU() * svd.matrixV().transpose();
}

// The setter of SE3.rotation and SE3.translation: an SE3 is immutable in Python (State.H returns
// a copy, so an assignment to x.H.translation would change nothing and say nothing).
[[noreturn]] void refuse_se3_assignment(const char* member) {
  throw py::attribute_error(std::string("liedyn: SE3.") + member +
                            " cannot be assigned: an SE3 is an immutable value; build a new one, "
                            "e.g. x.H = liedyn.SE3(R, p)");
}

std::vector<std::string> body_names(const Model& mo) {
  std::vector<std::string> v;
  for (int i = 0; i < mo.num_bodies(); ++i) v.push_back(mo.body_name(i));
  return v;
}

std::vector<std::string> joint_names(const Model& mo) {
  std::vector<std::string> v;
  for (int i = 1; i < mo.num_bodies(); ++i) v.push_back(mo.joint_name(i));
  return v;
}

std::vector<std::string> frame_names(const Model& mo) {
  std::vector<std::string> v;
  for (const auto& f : mo.frames()) v.push_back(f.name);
  return v;
}

bool g_finite_checks = true;

std::string repr_se3(const SE3& H) {
  std::ostringstream os;
  os.precision(6);
  const Eigen::IOFormat f(6, Eigen::DontAlignCols, ", ", ", ", "", "", "[", "]");
  os << "SE3(R=" << H.rotation().format(f) << ", p=" << H.translation().transpose().format(f)
     << ")";
  return os.str();
}

// A vector as Python prints a short list: [0.1, -2, 3.5] (6 significant digits).
template <class Derived>
std::string repr_vector(const Eigen::MatrixBase<Derived>& v) {
  std::ostringstream os;
  os.precision(6);
  const Eigen::IOFormat f(6, Eigen::DontAlignCols, ", ", ", ", "", "", "[", "]");
  os << v.transpose().format(f);
  return os.str();
}

std::string repr_state(const State& x) {
  return "State(H=" + repr_se3(x.H) + ", s=" + repr_vector(x.s) + ", nu=" + repr_vector(x.nu) +
         ", r=" + repr_vector(x.r) + ")";
}

std::string repr_joint(const Joint<double>& j) {
  std::ostringstream os;
  os.precision(6);
  os << "<liedyn.Joint '" << j.name << "': " << to_string(j.type);
  // The axis means something for the 1-DoF screws and the universal joint only.
  if (j.one_dof() || j.type == JointType::Universal) os << ", axis " << repr_vector(j.axis);
  if (j.type == JointType::Universal) os << ", axis2 " << repr_vector(j.axis2);
  if (j.type == JointType::Helical) os << ", pitch " << j.pitch;
  if (std::isfinite(j.lower) || std::isfinite(j.upper))
    os << ", limits [" << j.lower << ", " << j.upper << "]";
  os << ", nq " << j.nq() << ", nv " << j.nv() << ">";
  return os.str();
}

// The quaternion order of SE3.from_quaternion and SE3.quaternion: "xyzw" (liedyn's, Pinocchio's,
// Eigen's coeffs(), scipy's as_quat()) or "wxyz" (MuJoCo's, Drake's); anything else is refused,
// a silently misread order being a rotation by a wrong angle about a wrong axis.
bool w_first(const char* who, const std::string& order) {
  if (order != "xyzw" && order != "wxyz")
    throw InvalidArgument(std::string("liedyn: ") + who +
                          ": order must be 'xyzw' or 'wxyz', got '" + order + "'");
  return order == "wxyz";
}

}  // namespace

void bind_types(py::module_& m) {
  py::enum_<BaseType>(m, "BaseType",
                      "Moving: a free 6-DoF base (pose and body twist in the state). Welded: fixed "
                      "to the inertial frame at Model.welded_base_pose.")
      .value("Moving", BaseType::Moving)
      .value("Welded", BaseType::Welded);
  py::enum_<TwistRepresentation>(
      m, "TwistRepresentation",
      "How the base twist is given: Body nu = ^0 v_{A,0} (native), Inertial "
      "w = ^A X_0 nu, Mixed m = [^A o_0'; ^A omega_{A,0}] = blockdiag(R, R) nu.")
      .value("Body", TwistRepresentation::Body)
      .value("Inertial", TwistRepresentation::Inertial)
      .value("Mixed", TwistRepresentation::Mixed);
  py::enum_<JointType>(m, "JointType",
                       "1-DoF screw joints, unit axis e, pitch p: revolute Gamma = [0; e], "
                       "prismatic [e; 0], helical [p e; e] (linear first).")
      .value("Revolute", JointType::Revolute)
      .value("Prismatic", JointType::Prismatic)
      .value("Helical", JointType::Helical)
      .value("Spherical", JointType::Spherical)
      .value("Free", JointType::Free)
      .value("Planar", JointType::Planar)
      .value("Universal", JointType::Universal);
  py::enum_<InertiaCheck>(m, "InertiaCheck",
                          "How strictly ModelBuilder checks inertias: Physical (triangle "
                          "inequalities) or PositiveDefinite (only well-posed dynamics).")
      .value("Physical", InertiaCheck::Physical)
      .value("PositiveDefinite", InertiaCheck::PositiveDefinite);
  py::enum_<MinvMethod>(m, "MinvMethod",
                        "How the linearization applies M^-1: Dense (LTDL), Sweeps (AZA solves) or "
                        "Automatic (Dense up to LinearizationOptions.dense_up_to_nv).")
      .value("Automatic", MinvMethod::Automatic)
      .value("Dense", MinvMethod::Dense)
      .value("Sweeps", MinvMethod::Sweeps);

  py::class_<SE3>(
      m, "SE3",
      "A rigid transform ^A H_B = (R, p), R = ^A R_B, p = ^A o_B: x_A = R x_B + p. Acts on motions "
      "by ^A X_B = [R, p^ R; 0, R], on forces by [R, 0; p^ R, R]; tangent vectors [rho; phi], "
      "linear first. An immutable value, like a tuple: rotation and translation are read-only "
      "arrays, and every operation returns a new SE3.")
      .def(py::init<>(), "The identity.")
      .def(py::init([](const Eigen::Matrix3d& R, const Eigen::Vector3d& p, bool project) {
             return SE3(rotation_argument("SE3", "R", R, project), p);
           }),
           py::arg("R"), py::arg("p"), py::kw_only(), py::arg("project") = false,
           "From R = ^A R_B and p = ^A o_B. R must be a rotation (orthonormal, det +1) within "
           "liedyn.rotation_tolerance, else InvalidArgument; project=True takes the nearest "
           "rotation instead (polar decomposition; a reflection is still refused).")
      .def_static(
          "from_matrix",
          [](const Eigen::Matrix4d& H, bool project) {
            const Eigen::RowVector4d last(0.0, 0.0, 0.0, 1.0);
            if (!((H.row(3) - last).cwiseAbs().maxCoeff() <= rotation_tolerance))
              throw InvalidArgument(
                  "liedyn: SE3.from_matrix: the last row of H must be [0, 0, 0, 1]");
            return SE3(rotation_argument("SE3.from_matrix", "the rotation block of H",
                                         H.topLeftCorner<3, 3>(), project),
                       H.topRightCorner<3, 1>());
          },
          py::arg("H"), py::kw_only(), py::arg("project") = false,
          "From a 4x4 homogeneous matrix [R, p; 0, 1]; R is checked (or projected) as by SE3(R, "
          "p).")
      .def_static(
          "from_quaternion",
          [](const VectorRef& quat, const VectorRef& p, const std::string& order, bool normalize) {
            const char* who = "SE3.from_quaternion";
            check_size(who, "quaternion", quat, 4);
            check_size(who, "p", p, 3);
            check_finite(who, "quaternion", quat);
            check_finite(who, "p", p);
            if (!(quat.squaredNorm() > 0.0))
              throw InvalidArgument(std::string("liedyn: ") + who + ": the quaternion is zero");
            if (!normalize) liedyn::detail::check_unit_quaternion(who, "the quaternion", quat);
            const Eigen::Vector4d xyzw = w_first(who, order)
                                             ? Eigen::Vector4d(quat(1), quat(2), quat(3), quat(0))
                                             : Eigen::Vector4d(quat);
            return SE3(SO3<double>::from_quaternion(xyzw).matrix(), Eigen::Vector3d(p));
          },
          py::arg("quaternion"), py::arg("p"), py::kw_only(), py::arg("order") = "xyzw",
          py::arg("normalize") = false,
          "From a rotation quaternion of R = ^A R_B and p = ^A o_B. order='xyzw' (the default: "
          "w last, as liedyn, Pinocchio, Eigen's coeffs() and scipy's Rotation.as_quat()) or "
          "'wxyz' (w first, as MuJoCo and Drake). The quaternion must be of unit norm within "
          "liedyn.rotation_tolerance (as everywhere a quaternion enters: interop, the CLI), else "
          "InvalidArgument; normalize=True scales any nonzero one to unit norm instead. A zero or "
          "non-finite one raises InvalidArgument.")
      .def(
          "quaternion",
          [](const SE3& H, const std::string& order) {
            Eigen::Vector4d q = SO3<double>(H.rotation()).to_quaternion();  // x y z w, w >= 0
            if (w_first("SE3.quaternion", order)) q = Eigen::Vector4d(q(3), q(0), q(1), q(2));
            return q;
          },
          py::kw_only(), py::arg("order") = "xyzw",
          "The unit quaternion of R with w >= 0, in `order` ('xyzw', the default, or 'wxyz'; "
          "see from_quaternion); the translation is `translation`.")
      .def_static(
          "exp", [](const Vector6<double>& xi) { return SE3::exp(xi); }, py::arg("xi"),
          "exp(xi^) with xi = [rho; phi]: R = exp(phi^), p = Jl(phi) rho.")
      .def_static(
          "right_jacobian", [](const Vector6<double>& xi) { return SE3::right_jacobian(xi); },
          py::arg("xi"), "Right Jacobian Jr: exp(xi + d) ~ exp(xi) exp(Jr(xi) d).")
      .def("log", &SE3::log, "The xi = [rho; phi] with exp(xi^) = H and |phi| <= pi.")
      .def_property(
          "rotation", [](const SE3& H) -> const Eigen::Matrix3d& { return H.rotation(); },
          [](SE3&, py::handle) { refuse_se3_assignment("rotation"); },
          "R = ^A R_B, a read-only array (an SE3 is an immutable value: build a new one).")
      .def_property(
          "translation", [](const SE3& H) -> const Eigen::Vector3d& { return H.translation(); },
          [](SE3&, py::handle) { refuse_se3_assignment("translation"); },
          "p = ^A o_B, the origin of B in A, a read-only array (an SE3 is an immutable value: "
          "build a new one).")
      .def("matrix", &SE3::matrix, "The 4x4 homogeneous matrix [R, p; 0, 1].")
      .def("inverse", &SE3::inverse, "^B H_A = (R^T, -R^T p).")
      .def(
          "__mul__", [](const SE3& a, const SE3& b) { return a * b; }, "^A H_B * ^B H_C = ^A H_C.")
      .def(
          "act_point", [](const SE3& H, const Eigen::Vector3d& x) { return H.act_point(x); },
          py::arg("x"), "A point of frame B in frame A: R x + p.")
      .def(
          "act_motion",
          [](const SE3& H, const Vector6<double>& v) { return H.act(Motion<double>(v)).vector(); },
          py::arg("v"), "^A v = ^A X_B ^B v (twist, linear first).")
      .def(
          "act_force",
          [](const SE3& H, const Vector6<double>& f) { return H.act(Force<double>(f)).vector(); },
          py::arg("f"), "_A f = _A X^B _B f (wrench, linear first).")
      .def("velocity_transform", &SE3::velocity_transform, "^A X_B = [R, p^ R; 0, R] (Ad_H).")
      .def("wrench_transform", &SE3::wrench_transform, "_A X^B = [R, 0; p^ R, R].")
      .def("copy", [](const SE3& H) { return H; })
      .def("__repr__", &repr_se3);

  py::class_<Inertia>(
      m, "SpatialInertia",
      "A rigid body's spatial inertia about a frame's origin, (m, h = m c, I_o); 6x6 form "
      "[m 1, -h^; h^, I_o], linear first.")
      .def(py::init<>(), "The zero inertia (a massless body).")
      .def_static(
          "from_mass_com_inertia",
          [](double mass, const Eigen::Vector3d& c, const Eigen::Matrix3d& I_c) {
            return Inertia::from_mass_com_inertia(mass, c, I_c);
          },
          py::arg("mass"), py::arg("com"), py::arg("inertia_about_com"),
          "From mass, centre of mass c and rotational inertia I_c about it, all in the body frame.")
      .def_static(
          "from_moments",
          [](double mass, const Eigen::Vector3d& h, const Eigen::Matrix3d& I_o) {
            return Inertia::from_moments(mass, h, I_o);
          },
          py::arg("mass"), py::arg("h"), py::arg("inertia_about_origin"),
          "The raw (m, h = m c, I_o) form; no validity check.")
      .def_static(
          "from_matrix", [](const Matrix6<double>& M) { return Inertia::from_matrix(M); },
          py::arg("M"), "From the 6x6 matrix form (its rigid-body structure is assumed).")
      .def_property_readonly("mass", &Inertia::mass, "The mass m.")
      .def_property_readonly("com", &Inertia::com,
                             "Centre of mass in the body frame (zero when massless).")
      .def("matrix", &Inertia::matrix,
           "The 6x6 matrix [m 1, -h^; h^, I_o], twist -> momentum in this frame.");

  py::class_<Spec>(m, "JointSpec",
                   "A movable joint as ModelBuilder takes it: axis (any non-zero vector, "
                   "normalized by add_body) "
                   "in the joint frame; placement ^{parent}H_{joint frame} at s = 0.")
      .def_static(
          "revolute",
          [](const std::string& name, const Eigen::Vector3d& axis, const SE3& X) {
            return Spec::revolute(name, axis, X);
          },
          py::arg("name"), py::arg("axis"), py::arg("placement") = SE3(),
          "A revolute joint about axis (Gamma = [0; e]).")
      .def_static(
          "prismatic",
          [](const std::string& name, const Eigen::Vector3d& axis, const SE3& X) {
            return Spec::prismatic(name, axis, X);
          },
          py::arg("name"), py::arg("axis"), py::arg("placement") = SE3(),
          "A prismatic joint along axis (Gamma = [e; 0]).")
      .def_static(
          "helical",
          [](const std::string& name, const Eigen::Vector3d& axis, double pitch, const SE3& X) {
            return Spec::helical(name, axis, pitch, X);
          },
          py::arg("name"), py::arg("axis"), py::arg("pitch"), py::arg("placement") = SE3(),
          "A helical joint, pitch in m/rad (Gamma = [p e; e]).")
      .def_static(
          "spherical",
          [](const std::string& name, const SE3& X) { return Spec::spherical(name, X); },
          py::arg("name"), py::arg("placement") = SE3(),
          "A spherical (ball) joint: SO(3), its configuration a unit quaternion (x, y, z, w), "
          "its velocity the child's angular velocity in the child frame (nq 4, nv 3).")
      .def_static(
          "free", [](const std::string& name, const SE3& X) { return Spec::free(name, X); },
          py::arg("name"), py::arg("placement") = SE3(),
          "A free joint anywhere in the tree: SE(3), configuration (position, quaternion x, y, "
          "z, w), velocity the child's body twist [v; omega] in the child frame (nq 7, nv 6).")
      .def_static(
          "planar", [](const std::string& name, const SE3& X) { return Spec::planar(name, X); },
          py::arg("name"), py::arg("placement") = SE3(),
          "A planar joint: SE(2) in the joint frame's xy-plane, configuration (x, y, cos, sin), "
          "velocity (v_x, v_y, omega_z) in the child frame (nq 4, nv 3).")
      .def_static(
          "universal",
          [](const std::string& name, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
             const SE3& X) { return Spec::universal(name, a1, a2, X); },
          py::arg("name"), py::arg("axis1"), py::arg("axis2"), py::arg("placement") = SE3(),
          "A universal joint: a rotation about axis1, then about axis2 in the frame it leaves "
          "(two intersecting axes, not parallel; nq 2, nv 2).")
      .def("with_limits", &Spec::with_limits, py::arg("lower"), py::arg("upper"),
           "Position limits [lower, upper].", py::return_value_policy::reference_internal)
      .def("with_armature", &Spec::with_armature, py::arg("armature"),
           "Armature a >= 0 (reflected rotor inertia, added to M_ii).",
           py::return_value_policy::reference_internal)
      .def_readwrite("name", &Spec::name)
      .def_readwrite("type", &Spec::type)
      .def_readwrite("axis", &Spec::axis)
      .def_readwrite("pitch", &Spec::pitch)
      .def_readwrite("placement", &Spec::placement)
      .def_readwrite("armature", &Spec::armature)
      .def_readwrite("lower", &Spec::lower)
      .def_readwrite("upper", &Spec::upper)
      .def_readwrite("velocity_limit", &Spec::velocity_limit)
      .def_readwrite("effort_limit", &Spec::effort_limit);

  using J = Joint<double>;
  py::class_<J>(
      m, "Joint",
      "Joint i of a model (read-only copy): a 1-DoF screw, unit axis in the child frame, placed at "
      "^{lambda(i)}H_{lambda(i)|i}; ^{lambda(i)}H_i(s) = placement exp((Gamma s)^).")
      .def_readonly("name", &J::name)
      .def_readonly("type", &J::type)
      .def_property_readonly(
          "axis", [](const J& j) -> Eigen::Vector3d { return j.axis; },
          "Unit axis e (child frame).")
      .def_readonly("pitch", &J::pitch)
      .def_property_readonly(
          "screw", [](const J& j) -> Vector6<double> { return j.screw.vector(); },
          "Gamma, linear first.")
      .def_readonly("placement", &J::placement, "^{lambda(i)}H_{lambda(i)|i} (copy).")
      .def_readonly("armature", &J::armature)
      .def_readonly("lower", &J::lower)
      .def_readonly("upper", &J::upper)
      .def_readonly("velocity_limit", &J::velocity_limit)
      .def_readonly("effort_limit", &J::effort_limit)
      .def(
          "transform", [](const J& j, double q) { return j.transform(q); }, py::arg("q"),
          "^{lambda(i)}H_i(q) = placement exp((Gamma q)^).")
      .def("__repr__", &repr_joint);

  using F = Frame<double>;
  py::class_<F>(m, "Frame",
                "A named frame rigidly attached to a body: ^{body}H_{frame} = placement.")
      .def_readonly("name", &F::name)
      .def_readonly("body", &F::body)
      .def_readonly("placement", &F::placement)
      .def("__repr__", [](const F& f) {
        return "Frame('" + f.name + "', body=" + std::to_string(f.body) + ")";
      });

  py::class_<MimicRelation>(
      m, "MimicRelation",
      "q_joint = multiplier q_leader + offset (URDF <mimic>); recorded, not enforced. "
      "joint and leader are body indices.")
      .def_readonly("joint", &MimicRelation::joint)
      .def_readonly("leader", &MimicRelation::leader)
      .def_readonly("multiplier", &MimicRelation::multiplier)
      .def_readonly("offset", &MimicRelation::offset);
}

bool finite_checks_enabled() { return g_finite_checks; }

int frame_index(const char* who, const Model& model, const std::string& name) {
  return require_name(who, "frame", name, frame_names(model),
                      [&](const std::string& n) { return model.frame_id(n); });
}

void bind_model(py::module_& m) {
  m.def(
      "set_finite_checks", [](bool on) { g_finite_checks = on; }, py::arg("enabled"),
      "Whether kernels refuse a state or input vector holding NaN or infinity with "
      "InvalidArgument (default True). Off saves a pass over the inputs per call (about the "
      "cost of reading them); a non-finite input then gives non-finite results or misleading "
      "errors.");
  m.def("finite_checks_enabled", &finite_checks_enabled, "See set_finite_checks.");

  py::class_<Model>(
      m, "Model",
      "The kinematic tree of a moving-base (or welded-base) robot: bodies 0..n, body 0 the base, "
      "parents lambda(i) < i, base-first generalized order (6 base coordinates, then joint i at "
      "offset + i - 1). Immutable; share one Model between any number of Data.")
      .def_property_readonly("num_joints", &Model::num_joints, "n (bodies are 0..n).")
      .def_property_readonly("num_bodies", &Model::num_bodies, "n + 1, the base included.")
      .def_property_readonly("base_type", &Model::base_type)
      .def_property_readonly("has_moving_base", &Model::has_moving_base)
      .def_property_readonly("offset", &Model::offset,
                             "Index of joint 1 in velocity-sized vectors: 6 or 0.")
      .def_property_readonly("nv", &Model::nv,
                             "Size of velocity-like vectors: 6 + n (moving) or n (welded).")
      .def_property_readonly(
          "tangent_size", [](const Model& mo) { return tangent_size(mo); },
          "2 nv: the size of delta x = (eta, ds, dnu, dr).")
      .def(
          "v_index",
          [](const Model& mo, int i) {
            check_joint("Model.v_index", i, mo.num_joints());
            return mo.v_index(i);
          },
          py::arg("joint"), "Index of joint i (body index >= 1) in velocity-sized vectors.")
      .def_property_readonly("parents", &Model::parents,
                             "lambda(i) for every body (-1 for the base).")
      .def(
          "subtree_end",
          [](const Model& mo, int i) {
            check_index("Model.subtree_end", "body", i, mo.num_bodies());
            return mo.subtree_end(i);
          },
          py::arg("body"),
          "One past the last body of i's subtree: subtree(i) = [i, subtree_end(i)).")
      .def(
          "depth",
          [](const Model& mo, int i) {
            check_index("Model.depth", "body", i, mo.num_bodies());
            return mo.depth(i);
          },
          py::arg("body"), "Number of joints between body i and the base.")
      .def_property_readonly("max_depth", &Model::max_depth)
      .def_property_readonly("total_depth", &Model::total_depth)
      .def(
          "dof_parent",
          [](const Model& mo, int d) {
            check_index("Model.dof_parent", "coordinate", d, mo.nv());
            return mo.dof_parent(d);
          },
          py::arg("coordinate"),
          "Parent of velocity coordinate d in the coordinate tree (-1 at the root).")
      .def(
          "dof_subtree_end",
          [](const Model& mo, int d) {
            check_index("Model.dof_subtree_end", "coordinate", d, mo.nv());
            return mo.dof_subtree_end(d);
          },
          py::arg("coordinate"))
      .def(
          "children",
          [](const Model& mo, int i) {
            check_index("Model.children", "body", i, mo.num_bodies());
            return mo.children(i);
          },
          py::arg("body"), "The bodies whose parent is i, in increasing order.")
      .def(
          "joint",
          [](const Model& mo, int i) {
            check_joint("Model.joint", i, mo.num_joints());
            return mo.joint(i);
          },
          py::arg("i"), "Joint i >= 1, attaching body i to its parent (a copy).")
      .def(
          "inertia",
          [](const Model& mo, int i) {
            check_index("Model.inertia", "body", i, mo.num_bodies());
            return mo.inertia(i);
          },
          py::arg("body"),
          "Spatial inertia of body i in its own frame (fixed bodies merged in; a copy).")
      .def(
          "body_name",
          [](const Model& mo, int i) {
            check_index("Model.body_name", "body", i, mo.num_bodies());
            return mo.body_name(i);
          },
          py::arg("body"))
      .def(
          "joint_name",
          [](const Model& mo, int i) {
            check_joint("Model.joint_name", i, mo.num_joints());
            return mo.joint_name(i);
          },
          py::arg("joint"))
      .def_property_readonly("body_names", &body_names, "Body names in body order (0: the base).")
      .def_property_readonly(
          "joint_names", &joint_names,
          "Joint names of joints 1..n (entry i - 1 for joint i, the order of s and r).")
      .def_property_readonly("frame_names", &frame_names, "Frame names in frame_id order.")
      .def_property_readonly(
          "gravity", [](const Model& mo) -> Eigen::Vector3d { return mo.gravity(); },
          "Physical gravity g in the inertial frame, e.g. (0, 0, -9.81); the kernels use it "
          "as the base acceleration -[g; 0].")
      .def_property_readonly("welded_base_pose", &Model::welded_base_pose,
                             "^A H_0 of a welded base.")
      .def_property_readonly(
          "frames", &Model::frames,
          "Every named frame: one per body (identity placement), then merged fixed bodies, "
          "then user frames (copies).")
      .def(
          "frame",
          [](const Model& mo, int f) {
            check_index("Model.frame", "frame", f, static_cast<int>(mo.frames().size()));
            return mo.frame(f);
          },
          py::arg("frame_id"))
      .def_property_readonly("mimic_relations", &Model::mimic_relations)
      .def_property_readonly(
          "singular_joints", &Model::singular_joints,
          "Diagnostics: joints whose moving subtree has no inertia along their axis (M is "
          "singular; forward dynamics, M^-1 and linearize refuse).")
      .def(
          "require_invertible_mass_matrix",
          [](const Model& mo, const std::string& who) {
            mo.require_invertible_mass_matrix(who.c_str());
          },
          py::arg("who") = "liedyn", "Raises ModelError naming the singular joints, if any.")
      .def_property_readonly("total_mass", &Model::total_mass)
      .def(
          "body_id",
          [](const Model& mo, const std::string& name) {
            return require_name("Model.body_id", "body", name, body_names(mo),
                                [&](const std::string& n) { return mo.body_id(n); });
          },
          py::arg("name"), "Body index by name; KeyError naming the closest names when absent.")
      .def(
          "joint_id",
          [](const Model& mo, const std::string& name) {
            return require_name("Model.joint_id", "joint", name, joint_names(mo),
                                [&](const std::string& n) { return mo.joint_id(n); });
          },
          py::arg("name"),
          "Body index (>= 1) of the joint by name; KeyError naming the closest names when absent.")
      .def(
          "frame_id",
          [](const Model& mo, const std::string& name) {
            return frame_index("Model.frame_id", mo, name);
          },
          py::arg("name"), "Index into frames; KeyError naming the closest names when absent.")
      .def("__repr__", [](const Model& mo) {
        return "<liedyn.Model '" + mo.body_name(0) + "': " + std::to_string(mo.num_joints()) +
               " joints, nv = " + std::to_string(mo.nv()) +
               (mo.has_moving_base() ? ", moving base>" : ", welded base>");
      });

  py::class_<Builder>(
      m, "ModelBuilder",
      "Builds and validates a Model: bodies, fixed bodies, frames and mimic relations in any order "
      "(parents by name or builder id), then build(). Errors raise ModelError.")
      .def(py::init<BaseType, std::string, const Inertia&>(), py::arg("base") = BaseType::Moving,
           py::arg("base_name") = "base", py::arg("base_inertia") = Inertia())
      .def("set_base_inertia", &Builder::set_base_inertia, py::arg("inertia"))
      .def("set_inertia_check", &Builder::set_inertia_check, py::arg("check"),
           "Takes effect on bodies added afterwards.")
      .def(
          "set_gravity", [](Builder& b, const Eigen::Vector3d& g) { b.set_gravity(g); },
          py::arg("g"), "Physical gravity in the inertial frame (default (0, 0, -9.81)).")
      .def("set_welded_base_pose", &Builder::set_welded_base_pose, py::arg("H"),
           "^A H_0 of a welded base.")
      .def("add_body", &Builder::add_body, py::arg("parent"), py::arg("name"), py::arg("joint"),
           py::arg("inertia"),
           "Adds body `name` (inertia in its own frame) on a movable joint; returns its id.")
      .def(
          "add_fixed_body", &Builder::add_fixed_body, py::arg("parent"), py::arg("name"),
          py::arg("placement"), py::arg("inertia") = Inertia(),
          "Adds a body rigidly attached at ^{parent}H_{body} = placement: merged, kept as a frame.")
      .def("add_frame", &Builder::add_frame, py::arg("name"), py::arg("body"), py::arg("placement"),
           "A named frame at ^{body}H_{frame} = placement.")
      .def("add_mimic", &Builder::add_mimic, py::arg("joint"), py::arg("leader"),
           py::arg("multiplier") = 1.0, py::arg("offset") = 0.0,
           "Records q_joint = multiplier q_leader + offset (not enforced).")
      .def("build", &Builder::build, "The validated Model.");

  py::enum_<InertiaPolicy>(
      m, "InertiaPolicy",
      "What the loader does with link inertias no rigid body can have (docs/loading.md).")
      .value("strict", InertiaPolicy::strict)
      .value("lenient", InertiaPolicy::lenient)
      .value("balance", InertiaPolicy::balance);
  py::class_<UrdfOptions>(m, "UrdfOptions", "Options of the URDF loader.")
      .def(py::init([](bool weld_base, const SE3& pose, const Eigen::Vector3d& g) {
             UrdfOptions o;
             o.weld_base = weld_base;
             o.welded_base_pose = pose;
             o.gravity = g;
             return o;
           }),
           py::arg("weld_base") = false, py::arg("welded_base_pose") = SE3(),
           py::arg("gravity") = Eigen::Vector3d(0.0, 0.0, -9.81))
      .def_readwrite(
          "weld_base", &UrdfOptions::weld_base,
          "Weld the root link to the inertial frame instead of making it the moving base.")
      .def_readwrite("welded_base_pose", &UrdfOptions::welded_base_pose,
                     "^A H_0 of the welded root link.")
      .def_readwrite("gravity", &UrdfOptions::gravity, "Physical gravity in the inertial frame.")
      .def_readwrite("inertia", &UrdfOptions::inertia,
                     "InertiaPolicy: lenient (default: load as written, each deviation a "
                     "diagnostic), balance, "
                     "strict.");

  m.def("load_urdf_file", &load_urdf_file, py::arg("path"), py::arg("options") = UrdfOptions(),
        "Loads a robot from a URDF file; the root link is the base (moving unless "
        "options.weld_base). Raises "
        "ModelError (message starts with the path) on anything it cannot represent exactly.");
  m.def("load_urdf_string", &load_urdf_string, py::arg("xml"), py::arg("options") = UrdfOptions(),
        "Loads a robot from URDF text. Raises ModelError (what and where) on anything it cannot "
        "represent.");
  m.def(
      "with_armature",
      [](const Model& model, const VectorRef& armature) { return with_armature(model, armature); },
      py::arg("model"), py::arg("armature"),
      "A new Model equal to model but for the joints' armature (rotor inertia added to M's "
      "diagonal; a URDF has none): one entry per joint velocity coordinate, liedyn's order "
      "(nv_joints entries); a multi-DoF joint's entries equal. InvalidArgument for another size "
      "or unequal entries, ModelError for a negative or non-finite one.");

  py::enum_<UnsupportedElements>(
      m, "UnsupportedElements",
      "What the MJCF loader does with elements it cannot represent that leave the tree intact.")
      .value("error", UnsupportedElements::error)
      .value("skip", UnsupportedElements::skip);
  py::class_<MjcfOptions>(m, "MjcfOptions", "Options of the MJCF loader (docs/loading.md).")
      .def(py::init<>())
      .def_readwrite("gravity", &MjcfOptions::gravity,
                     "Physical gravity in the inertial frame; None: the file's <option gravity>.")
      .def_readwrite("inertia", &MjcfOptions::inertia, "InertiaPolicy (default lenient).")
      .def_readwrite("unsupported", &MjcfOptions::unsupported,
                     "UnsupportedElements: error (default) or skip with a diagnostic each.");
  m.def("load_mjcf_file", &load_mjcf_file, py::arg("path"), py::arg("options") = MjcfOptions(),
        "Loads a robot from an MJCF (MuJoCo XML) file; <include> paths relative to its folder. "
        "Raises ModelError (file and line) on anything it cannot represent.");
  m.def("load_mjcf_string", &load_mjcf_string, py::arg("xml"), py::arg("options") = MjcfOptions(),
        "Loads a robot from MJCF text. Raises ModelError (what and line) on anything it cannot "
        "represent.");
  py::class_<MjcfRobot>(
      m, "MjcfRobot", "A robot loaded from MJCF with its <equality> constraints (docs/loading.md).")
      .def_readonly("model", &MjcfRobot::model, "The tree (with the equalities' frames).")
      .def_readonly("qpos0", &MjcfRobot::qpos0,
                    "MuJoCo's qpos0 of the joints in liedyn's joint order, one entry per "
                    "coordinate: a hinge's or slide's ref (s = qpos - qpos0), a ball joint's "
                    "identity quaternion (1, 0, 0, 0), w first as MuJoCo writes it.");
  m.def("load_mjcf_robot_file", &load_mjcf_robot_file, py::arg("path"),
        py::arg("options") = MjcfOptions(),
        "Loads an MJCF file's tree and its <equality> constraints (MjcfRobot).");
  m.def("load_mjcf_robot_string", &load_mjcf_robot_string, py::arg("xml"),
        py::arg("options") = MjcfOptions(),
        "Loads MJCF text's tree and its <equality> constraints (MjcfRobot).");

  m.def(
      "figure4_model", [] { return figure4_model<double>(); },
      "The paper's Figure-4-like branched moving-base robot (7 joints R, P, H, H, R, P, R).");
  py::class_<RandomModelOptions>(m, "RandomModelOptions", "Options of random_model.")
      .def(py::init<>())
      .def_readwrite("branching", &RandomModelOptions::branching,
                     "0: a chain; larger: bushier trees.")
      .def_readwrite("moving_base", &RandomModelOptions::moving_base)
      .def_readwrite("axis_aligned", &RandomModelOptions::axis_aligned)
      .def_readwrite("unrotated_placements", &RandomModelOptions::unrotated_placements,
                     "Joint placements are pure translations (R = I), as most URDF files write "
                     "them.")
      .def_readwrite("revolute_only", &RandomModelOptions::revolute_only,
                     "Revolute joints only; else a mix of revolute, prismatic and helical.")
      .def_readwrite("every_joint_type", &RandomModelOptions::every_joint_type,
                     "Every joint type in equal shares: revolute, prismatic, helical, spherical, "
                     "free, planar and universal (overrides revolute_only).")
      .def_readwrite("armature", &RandomModelOptions::armature)
      .def_readwrite("gravity_off", &RandomModelOptions::gravity_off);
  m.def(
      "random_model",
      [](int n, unsigned seed, const RandomModelOptions& o) {
        std::mt19937 rng(seed);
        return random_model<double>(n, rng, o);
      },
      py::arg("num_joints"), py::arg("seed") = 1u, py::arg("options") = RandomModelOptions(),
      "A random tree with valid random inertias, from std::mt19937(seed) (the same model C++ "
      "gets).");

  // --- the state ---------------------------------------------------------------------------
  py::class_<State>(
      m, "State",
      "The state x = (H, s, nu, r): H = ^A H_0 the base pose, s joint positions (joint i at "
      "s[i-1]), nu the body twist ^0 v_{A,0} (native), r = s'. s, r and nu are writable numpy "
      "views "
      "of the State (write entries, or assign an array of the same size); their sizes are fixed at "
      "construction.")
      .def(py::init([](const Model& mo) { return State(mo); }), py::arg("model"),
           "The neutral state: H = identity (or the welded pose), s = 0, at rest.")
      .def(py::init([](const SE3& H, const VectorXd& s, const Vector6<double>& nu,
                       const VectorXd& r) {
             if (s.size() != r.size())
               throw std::invalid_argument("liedyn: State: s has size " + std::to_string(s.size()) +
                                           ", r has size " + std::to_string(r.size()));
             State x;
             x.H = H;
             x.s = s;
             x.nu = nu;
             x.r = r;
             return x;
           }),
           py::arg("H"), py::arg("s"), py::arg("nu"), py::arg("r"))
      .def_property(
          "H", [](const State& x) { return x.H; }, [](State& x, const SE3& H) { x.H = H; },
          "^A H_0, the base pose: a copy (an SE3 is an immutable value, so H0 = x.H keeps the "
          "pose of that moment); assign an SE3 to change the State's (x.H = liedyn.SE3(R, p)).")
      .def_property(
          "s", [](State& x) { return Eigen::Ref<VectorXd>(x.s); },
          [](State& x, const VectorXd& v) {
            check_size("State.s", "s", v, x.s.size());
            x.s = v;
          },
          py::return_value_policy::reference_internal, "Joint positions (writable view).")
      .def_property(
          "r", [](State& x) { return Eigen::Ref<VectorXd>(x.r); },
          [](State& x, const VectorXd& v) {
            check_size("State.r", "r", v, x.r.size());
            x.r = v;
          },
          py::return_value_policy::reference_internal, "Joint velocities (writable view).")
      .def_property(
          "nu", [](State& x) { return Eigen::Ref<Vector6<double>>(x.nu); },
          [](State& x, const Vector6<double>& v) { x.nu = v; },
          py::return_value_policy::reference_internal,
          "Body twist ^0 v_{A,0} of the base, linear first (writable view).")
      .def("base_twist", &State::base_twist, py::arg("representation"),
           "The base twist in `representation`.")
      .def("set_base_twist", &State::set_base_twist, py::arg("twist"), py::arg("representation"),
           "Sets the base twist given in `representation` (stored as the body twist).")
      .def(
          "velocity",
          [](const State& x, const Model& mo) {
            check_state("State.velocity", mo, x);
            return x.velocity(mo);
          },
          py::arg("model"), "Generalized velocity [nu; r] (r for a welded base).")
      .def("copy", [](const State& x) { return x; })
      .def("__repr__", &repr_state)
      .def("__copy__", [](const State& x) { return x; })
      .def(
          "__deepcopy__", [](const State& x, py::dict) { return x; }, py::arg("memo"));

  m.def(
      "neutral", [](const Model& mo) { return neutral(mo); }, py::arg("model"),
      "The neutral state.");
  m.def(
      "random_state",
      [](const Model& mo, unsigned seed) {
        std::mt19937 rng(seed);
        return random_state(mo, rng);
      },
      py::arg("model"), py::arg("seed") = 7u,
      "A random state from std::mt19937(seed): attitude uniform on SO(3), position in [-1, 1]^3, "
      "joints within "
      "limits (else [-pi, pi]), velocities in [-1, 1]. The same state C++'s random_state gives.");
  m.def(
      "tangent_size", [](const Model& mo) { return tangent_size(mo); }, py::arg("model"), "2 nv.");
  m.def(
      "integrate",
      [](const Model& mo, const State& x, const VectorRef& dx) {
        check_state("integrate", mo, x);
        check_finite("integrate", "dx", dx);
        check_size("integrate", "dx", dx, tangent_size(mo));
        return integrate(mo, x, dx);
      },
      py::arg("model"), py::arg("x"), py::arg("dx"),
      "x (+) dx = (H exp(eta^), s + ds, nu + dnu, r + dr); dx = (eta, ds, dnu, dr) ((ds, dr) when "
      "welded).");
  m.def(
      "difference",
      [](const Model& mo, const State& x, const State& y) {
        check_state("difference", mo, x);
        check_state("difference", mo, y);
        return difference(mo, x, y);
      },
      py::arg("model"), py::arg("x"), py::arg("y"),
      "y (-) x: the dx with x (+) dx = y (eta = log(H_x^-1 H_y)).");
  m.def(
      "integrate_jacobians",
      [](const Model& mo, const VectorRef& dx) {
        check_size("integrate_jacobians", "dx", dx, tangent_size(mo));
        check_finite("integrate_jacobians", "dx", dx);
        MatrixXd Jx, Jdx;
        integrate_jacobians(mo, dx, Jx, Jdx);
        return py::make_tuple(Jx, Jdx);
      },
      py::arg("model"), py::arg("dx"),
      "(J_x, J_dx) of y = x (+) dx, left-trivialized: base blocks Ad(exp(eta)^-1) and Jr(eta), "
      "else identity.");
  m.def(
      "difference_jacobians",
      [](const Model& mo, const State& x, const State& y) {
        check_state("difference_jacobians", mo, x);
        check_state("difference_jacobians", mo, y);
        MatrixXd Jx, Jy;
        difference_jacobians(mo, x, y, Jx, Jy);
        return py::make_tuple(Jx, Jy);
      },
      py::arg("model"), py::arg("x"), py::arg("y"),
      "(J_x, J_y) of dx = y (-) x, left-trivialized: base blocks -Jl^-1(eta) and Jr^-1(eta), else "
      "-I and I.");
  m.def(
      "base_twist_from_body",
      [](const SE3& H, const Vector6<double>& nu, TwistRepresentation rep) {
        return base_twist_from_body(H, nu, rep);
      },
      py::arg("H"), py::arg("nu"), py::arg("representation"),
      "The base twist in `representation` from nu.");
  m.def(
      "base_twist_to_body",
      [](const SE3& H, const Vector6<double>& t, TwistRepresentation rep) {
        return base_twist_to_body(H, t, rep);
      },
      py::arg("H"), py::arg("twist"), py::arg("representation"),
      "The body twist nu from a twist in `representation`.");
  m.def(
      "base_acceleration_from_body",
      [](const SE3& H, const Vector6<double>& nu, const Vector6<double>& nud,
         TwistRepresentation rep) { return base_acceleration_from_body(H, nu, nud, rep); },
      py::arg("H"), py::arg("nu"), py::arg("nu_dot"), py::arg("representation"),
      "d/dt of the base twist in `representation` (mixed adds [R (omega x v); 0]), from nu and "
      "nu'.");
  m.def(
      "base_acceleration_to_body",
      [](const SE3& H, const Vector6<double>& nu, const Vector6<double>& acc,
         TwistRepresentation rep) { return base_acceleration_to_body(H, nu, acc, rep); },
      py::arg("H"), py::arg("nu"), py::arg("acceleration"), py::arg("representation"),
      "nu' from the time derivative of the base twist in `representation`.");

  // --- Data ------------------------------------------------------------------------------
  auto data = py::class_<Data>(
      m, "Data",
      "Per-thread workspace of the kernels for one Model (all allocation happens here). "
      "Its output buffers are exposed as READ-ONLY numpy views that keep this Data alive; "
      "every kernel overwrites them (copy() what you keep). Per-body arrays are copies.");
  data.def(py::init<const Model&>(), py::arg("model"));
  data.def_property_readonly("num_bodies", &Data::num_bodies);
  data.def("__repr__", [](const Data& d) {
    return "<liedyn.Data for a model of " + std::to_string(d.num_bodies()) +
           " bodies, nv = " + std::to_string(d.tau.size()) + ">";
  });
// Each output under its own name, wherever its kernel family's workspace holds it.
#define LIEDYN_PY_VIEW(name, member, doc) \
  data.def_property_readonly(             \
      #name, [](py::object self) { return view(self.cast<Data&>().member, self); }, doc)
  LIEDYN_PY_VIEW(
      tau, tau,
      "tau = [base wrench (base frame); joint torques] (rnea, eidamb, gravity/coriolis_force).");
  LIEDYN_PY_VIEW(h, h, "Bias h(x) = ID(x, 0) (bias_force).");
  LIEDYN_PY_VIEW(ddq, ddq, "Forward dynamics [nu'; r'] (aba, linearize).");
  LIEDYN_PY_VIEW(M, M, "Mass matrix, both triangles (crba, eidamb_derivatives, linearize).");
  LIEDYN_PY_VIEW(Minv, Minv,
                 "Inverse mass matrix, both triangles (immamb, ltdl_inverse, linearize).");
  LIEDYN_PY_VIEW(ltdl, ltdl.factors,
                 "M = L^T D L: D on the diagonal, L strictly below (ltdl_factorize).");
  LIEDYN_PY_VIEW(F, inverse_dynamics.F, "Base-joint block of M in the base frame, 6 x n (crba).");
  LIEDYN_PY_VIEW(D1, derivatives.D1,
                 "dID/d eta (nv x 6), base twist of the chosen representation held fixed.");
  LIEDYN_PY_VIEW(D2, derivatives.D2, "dID/ds (nv x n).");
  LIEDYN_PY_VIEW(D3, derivatives.D3, "dID/d(base twist) in the chosen representation (nv x 6).");
  LIEDYN_PY_VIEW(D4, derivatives.D4, "dID/dr (nv x n).");
  LIEDYN_PY_VIEW(
      A, linearization.A,
      "delta x' = A delta x + B delta tau (2nv x 2nv), or the discrete step's Jacobian.");
  LIEDYN_PY_VIEW(B, linearization.B, "2nv x nv, input tau (base first).");
#undef LIEDYN_PY_VIEW
  data.def_property_readonly(
      "H_world", [](const Data& d) { return d.kinematics.H_world; },
      "^A H_i for every body (forward_poses / forward_kinematics; copies).");
  data.def_property_readonly(
      "H_base", [](const Data& d) { return d.kinematics.H_base; },
      "^0 H_i for every body (copies).");
  data.def_property_readonly(
      "H_parent", [](const Data& d) { return d.kinematics.H_parent; },
      "^{lambda(i)} H_i(s_i) for every body (copies).");
  data.def_property_readonly(
      "v", [](const Data& d) { return stack_rows(d.kinematics.v); },
      "Body twists ^i v_{A,i}, (num_bodies x 6), body frame (forward_kinematics; copy).");
  data.def_property_readonly(
      "a", [](const Data& d) { return stack_rows(d.inverse_dynamics.a); },
      "rnea/aba body accelerations incl. gravity, body frame (num_bodies x 6; copy).");
  data.def_property_readonly(
      "f", [](const Data& d) { return stack_rows(d.inverse_dynamics.f); },
      "rnea body wrenches, body frame (num_bodies x 6; copy).");

  // The Model to liedyn's other extension modules (model_capsule.hpp); not public API.
  m.def(
      "_model_capsule",
      [](const Model& model) -> py::object {
        return py::capsule(static_cast<const void*>(&model), model_capsule_name().c_str());
      },
      py::arg("model"),
      "A capsule pointing at model, for liedyn.crocoddyl (valid while model lives).");
}

// Members whose types a later bind_* function registers (ConstraintSpec, ConstraintSet:
// extensions.cpp). pybind11 writes a signature when a function is defined, naming a type not
// registered yet by its C++ name (liedyn::ConstraintSet<double>), which the type stubs cannot
// resolve: these are defined once every type is.
void bind_late_members(py::module_& m) {
  auto robot = py::reinterpret_borrow<py::class_<MjcfRobot>>(m.attr("MjcfRobot"));
  robot
      .def_readonly("equality", &MjcfRobot::equality, "The <equality> elements as ConstraintSpecs.")
      .def_readonly("constraints", &MjcfRobot::constraints,
                    "The same as a ConstraintSet on model, rows in file order.");
}

// --- numdiff ------------------------------------------------------------------------------
namespace {

VectorXd call_to_vector(const py::function& f, const py::object& arg) {
  py::array_t<double, py::array::f_style | py::array::forcecast> r(f(arg));
  return Eigen::Map<const VectorXd>(r.data(), static_cast<Eigen::Index>(r.size()));
}

}  // namespace

void bind_numdiff(py::module_& top) {
  py::module_ m = top.def_submodule("numdiff",
                                    "Geometric finite differences of functions of the state "
                                    "(columns eta, ds, dtwist, dr; H <- H exp(eta^)) and of "
                                    "plain vectors. f may return a scalar, vector or matrix "
                                    "(flattened column-major). Slow: checking tools.");
  using O = numdiff::NumDiffOptions<double>;
  py::enum_<numdiff::DifferenceScheme>(m, "DifferenceScheme")
      .value("Central", numdiff::DifferenceScheme::Central)
      .value("Forward", numdiff::DifferenceScheme::Forward);
  py::enum_<numdiff::StateBlock>(m, "StateBlock")
      .value("Pose", numdiff::StateBlock::Pose)
      .value("JointPositions", numdiff::StateBlock::JointPositions)
      .value("Twist", numdiff::StateBlock::Twist)
      .value("JointVelocities", numdiff::StateBlock::JointVelocities);
  py::class_<O>(m, "NumDiffOptions",
                "Scheme, base step (0: default), relative step, and the base-twist "
                "representation of the twist columns (also what the eta columns hold fixed).")
      .def(py::init(
               [](numdiff::DifferenceScheme sc, double step, bool rel, TwistRepresentation rep) {
                 O o;
                 o.scheme = sc;
                 o.step = step;
                 o.relative_step = rel;
                 o.twist_representation = rep;
                 return o;
               }),
           py::arg("scheme") = numdiff::DifferenceScheme::Central, py::arg("step") = 0.0,
           py::arg("relative_step") = true,
           py::arg("twist_representation") = TwistRepresentation::Body)
      .def_readwrite("scheme", &O::scheme)
      .def_readwrite("step", &O::step)
      .def_readwrite("relative_step", &O::relative_step)
      .def_readwrite("twist_representation", &O::twist_representation);
  m.def("default_step", &numdiff::default_step<double>, py::arg("scheme"),
        "eps^(1/3) (central) or eps^(1/2) (forward) in double.");

  auto state_fn = [](const py::function& f) {
    return [f](const State& y) { return call_to_vector(f, py::cast(y)); };
  };
  m.def(
      "state_jacobian",
      [state_fn](const Model& mo, const py::function& f, const State& x, const O& o) {
        check_state("numdiff.state_jacobian", mo, x);
        return numdiff::state_jacobian(mo, state_fn(f), x, o);
      },
      py::arg("model"), py::arg("f"), py::arg("x"), py::arg("options") = O(),
      "The m x 2nv Jacobian of f(State) by finite differences, columns (eta, ds, dtwist, dr).");
  m.def(
      "state_jacobian_block",
      [state_fn](const Model& mo, const py::function& f, const State& x, numdiff::StateBlock b,
                 const O& o) {
        check_state("numdiff.state_jacobian_block", mo, x);
        return numdiff::state_jacobian_block(mo, state_fn(f), x, b, o);
      },
      py::arg("model"), py::arg("f"), py::arg("x"), py::arg("block"), py::arg("options") = O(),
      "One block of state_jacobian, at the cost of that block only.");
  m.def(
      "vector_jacobian",
      [](const py::function& f, const VectorXd& x, const O& o) {
        auto g = [&f](const VectorXd& y) { return call_to_vector(f, py::cast(y)); };
        return numdiff::vector_jacobian(g, x, o);
      },
      py::arg("f"), py::arg("x"), py::arg("options") = O(),
      "The m x size(x) Jacobian of f(vector) (x <- x +- d e_k).");
}

// --- private helpers for the pytest suite -------------------------------------------------
void bind_testing(py::module_& top) {
  py::module_ m =
      top.def_submodule("_testing", "Private: C++-side reference values for the pytest suite.");
  // Everything computed in C++ on its own Data from random_state(model, seed) and inputs drawn
  // from the same generator, returned as copies: the suite calls the bindings with the same
  // state and inputs and compares bit for bit (the marshalling must not change a digit).
  m.def(
      "reference",
      [](const Model& mo, unsigned seed, TwistRepresentation rep, double dt) {
        std::mt19937 rng(seed);
        const State x = random_state(mo, rng);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        VectorXd ddq(mo.nv()), tau(mo.nv());
        for (int k = 0; k < mo.nv(); ++k) ddq[k] = u(rng);
        for (int k = 0; k < mo.nv(); ++k) tau[k] = u(rng);
        Data d(mo);
        py::dict out;
        out["x"] = x;
        out["ddq"] = ddq;
        out["tau_in"] = tau;
        out["rnea"] = VectorXd(rnea(mo, d, x, ddq));
        out["eidamb"] = VectorXd(eidamb(mo, d, x, ddq));
        out["bias_force"] = VectorXd(bias_force(mo, d, x));
        out["gravity_force"] = VectorXd(gravity_force(mo, d, x));
        out["coriolis_force"] = VectorXd(coriolis_force(mo, d, x));
        out["crba"] = MatrixXd(crba(mo, d, x));
        ltdl_factorize(mo, d);
        out["ltdl"] = MatrixXd(d.ltdl.factors);
        VectorXd sol = tau;
        ltdl_solve(mo, d, sol);
        out["ltdl_solve"] = sol;
        out["ltdl_inverse"] = MatrixXd(ltdl_inverse(mo, d));
        out["immamb"] = MatrixXd(immamb(mo, d, x));
        out["aba"] = VectorXd(aba(mo, d, x, tau));
        eidamb_derivatives(mo, d, x, ddq, rep);
        out["D"] = py::make_tuple(MatrixXd(d.derivatives.D1), MatrixXd(d.derivatives.D2),
                                  MatrixXd(d.derivatives.D3), MatrixXd(d.derivatives.D4));
        LinearizationOptions<double> opt;
        opt.representation = rep;
        linearize(mo, d, x, tau, opt);
        out["linearize"] = py::make_tuple(MatrixXd(d.linearization.A), MatrixXd(d.linearization.B));
        linearize_discrete(mo, d, x, tau, dt, opt);
        out["linearize_discrete"] =
            py::make_tuple(MatrixXd(d.linearization.A), MatrixXd(d.linearization.B));
        out["step"] = semi_implicit_euler_step(mo, d, x, tau, dt);
        const int body = mo.num_bodies() - 1;
        Matrix6X<double> J(6, mo.nv());
        body_jacobian(mo, d, x, body, rep, J);
        out["body_jacobian"] = MatrixXd(J);
        out["frame_velocity"] = Vector6<double>(frame_velocity(mo, d, x, body, SE3(), rep));
        out["frame_acceleration_bias"] =
            Vector6<double>(frame_acceleration_bias(mo, d, x, body, SE3(), rep));
        forward_kinematics(mo, d, x);
        out["frame_pose"] = frame_pose(mo, d, body, SE3()).matrix();
        return out;
      },
      py::arg("model"), py::arg("seed"), py::arg("representation") = TwistRepresentation::Body,
      py::arg("dt") = 0.01);
  m.def(
      "checks_enabled", [] { return LIEDYN_CHECKS_ENABLED == 1; },
      "Whether the module was built with liedyn's argument checks (it always should be).");
}

}  // namespace python
}  // namespace liedyn

PYBIND11_MODULE(_liedyn, m) {
  namespace lp = liedyn::python;
  lp::refuse_unreadable_numpy("liedyn");
  m.doc() =
      "liedyn: rigid-body dynamics of moving-base robots and their exact Lie-group linearization "
      "(double "
      "precision). Conventions: base first in velocity-sized vectors, body twist nu native, "
      "spatial vectors "
      "linear first, gravity as base acceleration -[g; 0], left-trivialized eta perturbations. See "
      "docs/python.md.";
  m.attr("__version__") = liedyn::version_string;
  // How far a rotation matrix or quaternion handed in may be from one (SE3, batch rows, interop).
  m.attr("rotation_tolerance") = liedyn::rotation_tolerance;
  // The pybind11 the module was built with: it spells the signatures the type stubs are
  // generated from (python/tests/test_stubs.py compares only like with like).
#define LIEDYN_PY_STR2(x) #x
#define LIEDYN_PY_STR(x) LIEDYN_PY_STR2(x)  // PATCH may be a token such as 0.dev1
  m.attr("_pybind11_version") = LIEDYN_PY_STR(PYBIND11_VERSION_MAJOR) "." LIEDYN_PY_STR(
      PYBIND11_VERSION_MINOR) "." LIEDYN_PY_STR(PYBIND11_VERSION_PATCH);
#undef LIEDYN_PY_STR
#undef LIEDYN_PY_STR2
  // ModelError derives from std::invalid_argument, so from ValueError here too.
  pybind11::register_exception<liedyn::ModelError>(m, "ModelError", PyExc_ValueError);
  // Every argument check of the library (sizes, Data/model pairing, indices, names).
  pybind11::register_exception<liedyn::InvalidArgument>(m, "InvalidArgument", PyExc_ValueError);
  lp::bind_types(m);
  lp::bind_model(m);
  lp::bind_kernels(m);
  lp::bind_extensions(m);
  lp::bind_numdiff(m);
  lp::bind_batch(m);
  lp::bind_contact(m);  // after bind_batch: its batch_rollout overload joins that one
  lp::bind_pickling(m);
  lp::bind_interop(m);
  lp::bind_late_members(m);
  lp::bind_testing(m);
  lp::check_fast_functions(m);
}
