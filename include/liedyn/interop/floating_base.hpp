// liedyn — interop: the floating-base conventions of other rigid-body libraries, and the
// conversion of states, velocities, accelerations, generalized forces and mass matrices between
// them and liedyn.
//
// Ours (docs/conventions.md §2): x = (H, s, ν, r), H = ^A H_0 the base pose, ν = ^0 v_{A,0} the
// base BODY twist [linear; angular], generalized vectors base first, joints in our order.
//
// Theirs: the base velocity is v_b = T_b(R) ν with R = ^A R_0 and T_b one of (BaseVelocity)
//   Body                    [^0 v; ^0 ω]        T_b = I                       Pinocchio
//   WorldLinearBodyAngular  [^A ȯ_0; ^0 ω]      T_b = blockdiag(R, I)          MuJoCo, RBDL
//   MixedLinearFirst        [^A ȯ_0; ^A ω]      T_b = blockdiag(R, R)          iDynTree
//   MixedAngularFirst       [^A ω; ^A ȯ_0]      T_b = [0, R; R, 0]             Drake
// (ȯ_0 = velocity of the base origin, ω = angular velocity, ^A = in the inertial frame, ^0 = in
// the base frame). The generalized velocity is v_L = T q̇ with T = blockdiag(T_b, P), P the joint
// permutation (joint_permutation.hpp). Every T_b is ORTHOGONAL (a change of frame and a
// reordering), so T⁻¹ = Tᵀ and, since power is invariant (v_Lᵀ τ_L = q̇ᵀ τ̄):
//   generalized force   τ_L = T τ̄             (base part: the base wrench in the same frames)
//   mass matrix         M_L = T M Tᵀ,  M_L⁻¹ = T M⁻¹ Tᵀ
//   acceleration        a_L = d/dt v_L = T q̈ + [T_b [c; 0]; 0],   c = ω × v_lin if the linear
//                       part is in the world (the apparent acceleration of the origin), else 0.
// Their accelerations are the time derivatives of their velocity coordinates (MuJoCo's qacc,
// RBDL's QDDot, Drake's v̇, iDynTree's mixed base acceleration): for WorldLinear… and Mixed…
// that is NOT T q̈ — the term R (ω × v_lin) is the difference (state.hpp,
// base_acceleration_from_body).
//
// Their base position tangent δ (the perturbation their q-derivatives and integrators use) is
// δ = T_b η to first order, η our right perturbation H exp(η^): Pinocchio H exp(δ^); MuJoCo
// and RBDL p + δp (world), R exp(δθ^) (body); iDynTree and Drake p + δp, exp(δθ^) R (world).
// retract() implements each, so a derivative "with respect to their q" means a definite thing.
//
// Configuration vectors (ConfigurationLayout), quaternion = the rotation ^A R_0 (base to world):
//   Pinocchio  [p; qx qy qz qw; s]      MuJoCo [p; qw qx qy qz; s]     Drake [qw qx qy qz; p; s]
//   RBDL       [p; qx qy qz; s; qw]     (FloatingBase joint; w is appended after all joints)
//   iDynTree   no q vector: a 4×4 world_T_base and s (idyntree.hpp)
// with s the joint positions in their order. Outputs have w ≥ 0; inputs are normalized.
// Joint zero positions and axis signs are assumed to be those of the same URDF (MuJoCo: joint
// ref = 0). A welded-base model has no base part anywhere: q = P s, v = P r, T = P.
//
// All functions allocate (they return Eigen dynamic objects) and check sizes in every build,
// throwing std::invalid_argument with the function's name: they are for the boundary between
// libraries, not for a real-time loop.
#pragma once

#include <stdexcept>
#include <string>

#include "liedyn/interop/joint_permutation.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace interop {

/// How another library represents the base part of the generalized velocity (see the header).
enum class BaseVelocity {
  Body,                    ///< [^0 v; ^0 ω], T_b = I (Pinocchio; liedyn's native ν)
  WorldLinearBodyAngular,  ///< [^A ȯ_0; ^0 ω], T_b = blockdiag(R, I) (MuJoCo free joint, RBDL
                           ///< FloatingBase)
  MixedLinearFirst,        ///< [^A ȯ_0; ^A ω], T_b = blockdiag(R, R) (iDynTree's default)
  MixedAngularFirst,       ///< [^A ω; ^A ȯ_0], T_b = [0, R; R, 0] (Drake QuaternionFloatingJoint)
};

/// Where another library puts the base pose in its configuration vector q (see the header).
enum class ConfigurationLayout {
  None,                        ///< no q vector (iDynTree: a 4×4 transform; or an unknown library)
  PositionQuaternionXYZW,      ///< [p; qx qy qz qw; s] (Pinocchio)
  PositionQuaternionWXYZ,      ///< [p; qw qx qy qz; s] (MuJoCo)
  QuaternionWXYZPosition,      ///< [qw qx qy qz; p; s] (Drake)
  PositionQuaternionXYZWLast,  ///< [p; qx qy qz; s; qw] (RBDL)
};

/// The libraries whose conventions are built in.
enum class Library { Pinocchio, MuJoCo, Drake, RBDL, iDynTree };

/// Human-readable name of a library ("Pinocchio", "MuJoCo", ...).
inline const char* to_string(Library lib) {
  switch (lib) {
    case Library::Pinocchio: return "Pinocchio";
    case Library::MuJoCo: return "MuJoCo";
    case Library::Drake: return "Drake";
    case Library::RBDL: return "RBDL";
    case Library::iDynTree: return "iDynTree";
  }
  return "unknown";
}

/// A library's floating-base convention: base velocity representation and configuration layout.
/// Implicitly constructible from a Library or from a BaseVelocity (then without a q layout), so
/// every function below accepts `Library::MuJoCo` or `BaseVelocity::MixedLinearFirst` alike.
struct Convention {
  BaseVelocity velocity = BaseVelocity::Body;
  ConfigurationLayout layout = ConfigurationLayout::None;

  /// The built-in convention of `lib` (see the header's tables).
  constexpr Convention(Library lib)  // NOLINT(google-explicit-constructor): implicit on purpose
      : velocity(velocity_of(lib)), layout(layout_of(lib)) {}
  /// A convention given by its parts (for a library that is not built in).
  constexpr Convention(BaseVelocity v, ConfigurationLayout l = ConfigurationLayout::None)  // NOLINT
      : velocity(v), layout(l) {}

 private:
  static constexpr BaseVelocity velocity_of(Library lib) {
    return lib == Library::Pinocchio                          ? BaseVelocity::Body
           : (lib == Library::MuJoCo || lib == Library::RBDL) ? BaseVelocity::WorldLinearBodyAngular
           : lib == Library::iDynTree                         ? BaseVelocity::MixedLinearFirst
                                                              : BaseVelocity::MixedAngularFirst;
  }
  static constexpr ConfigurationLayout layout_of(Library lib) {
    return lib == Library::Pinocchio ? ConfigurationLayout::PositionQuaternionXYZW
           : lib == Library::MuJoCo  ? ConfigurationLayout::PositionQuaternionWXYZ
           : lib == Library::Drake   ? ConfigurationLayout::QuaternionWXYZPosition
           : lib == Library::RBDL    ? ConfigurationLayout::PositionQuaternionXYZWLast
                                     : ConfigurationLayout::None;
  }
};

namespace detail {

/// Which base blocks are in world coordinates, and whether the angular part comes first.
struct BaseFlags {
  bool linear_world;
  bool angular_world;
  bool angular_first;
};

/// The flags of a base-velocity convention.
inline BaseFlags base_flags(BaseVelocity c) {
  switch (c) {
    case BaseVelocity::Body: return {false, false, false};
    case BaseVelocity::WorldLinearBodyAngular: return {true, false, false};
    case BaseVelocity::MixedLinearFirst: return {true, true, false};
    case BaseVelocity::MixedAngularFirst: return {true, true, true};
  }
  return {false, false, false};
}

/// Throws std::invalid_argument "liedyn::interop::<who>: <what> has size <got>, expected <want>".
inline void require_size(const char* who, const char* what, Eigen::Index got, Eigen::Index want) {
  if (got != want)
    throw std::invalid_argument(std::string("liedyn::interop::") + who + ": " + what +
                                " has size " + std::to_string(got) + ", expected " +
                                std::to_string(want));
}

/// True for the layouts that write a quaternion w first (MuJoCo, Drake).
inline bool w_first(ConfigurationLayout layout) {
  return layout == ConfigurationLayout::PositionQuaternionWXYZ ||
         layout == ConfigurationLayout::QuaternionWXYZPosition;
}

/// Throws unless the permutation fits the model's joints and every joint converts. A 1-DoF
/// joint converts in every convention. A multi-DoF joint needs a permutation that knows its
/// coordinate counts (JointPermutation::from_names(model, …)) and a convention whose joint of
/// that type is liedyn's: Pinocchio's (BaseVelocity::Body) spherical, free, planar and universal
/// joints are; a MuJoCo ball joint is (angular velocity in the child frame; its quaternion w first,
/// reordered by the configuration converters); nothing else is (a MuJoCo free joint's linear
/// velocity is in the world, Drake's ball joint takes roll-pitch-yaw angles, RBDL puts a
/// quaternion's w after all joints).
template <class S>
void require_joints(const char* who, const Convention& conv, const Model<S>& model,
                    const JointPermutation& perm) {
  if (perm.size() >= 0 && perm.size() != model.num_joints())
    throw std::invalid_argument(std::string("liedyn::interop::") + who +
                                ": the joint permutation has " + std::to_string(perm.size()) +
                                " joints, the model " + std::to_string(model.num_joints()));
  if (!perm.fits(model))
    throw std::invalid_argument(std::string("liedyn::interop::") + who +
                                ": the joint permutation does not know the model's multi-DoF "
                                "joints' coordinate counts: build it with "
                                "JointPermutation::from_names(model, names)");
  if (model.one_dof_joints_only()) return;
  const bool mujoco_layout = conv.layout == ConfigurationLayout::PositionQuaternionWXYZ;
  for (int i = 1; i < model.num_bodies(); ++i) {
    const Joint<S>& joint = model.joint(i);
    if (joint.one_dof()) continue;
    const std::string what = std::string("liedyn::interop::") + who + ": joint '" +
                             model.joint_name(i) + "' is " + liedyn::to_string(joint.type);
    const bool converts = conv.velocity == BaseVelocity::Body ||
                          (joint.type == JointType::Spherical && mujoco_layout);
    if (!converts)
      throw std::invalid_argument(what +
                                  ": this convention's joint of that type is not liedyn's "
                                  "(docs/interop.md)");
  }
}

/// Throws unless the permutation fits the model's joints and every joint is 1-DoF: iDynTree's
/// converters map one coordinate per joint so far.
template <class S>
void require_permutation(const char* who, const Model<S>& model, const JointPermutation& perm) {
  liedyn::detail::require_one_dof_joints(who, model);
  require_joints(who, BaseVelocity::Body, model, perm);
}

/// Each joint quaternion of s (liedyn's order, x y z w) written w first (w x y z), in place.
template <class S>
void joint_quaternions_to_w_first(const Model<S>& model, VectorX<S>& s) {
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int k = model.joint(i).quaternion_index();
    if (k < 0) continue;
    auto q = s.template segment<4>(model.q_index(i) + k);
    const Vector4<S> xyzw = q;
    q << xyzw(3), xyzw.template head<3>();
  }
}

/// Throws InvalidArgument naming the first joint whose quaternion in s (liedyn's order, x y z w)
/// is not of unit norm (SO3's rotation_tolerance): the kernels read it as given.
template <class S>
void check_joint_quaternions(const char* who, const Model<S>& model, const VectorX<S>& s) {
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int k = model.joint(i).quaternion_index();
    if (k < 0) continue;
    const auto quaternion = s.template segment<4>(model.q_index(i) + k);
    if (quaternion_defect(quaternion) <= S(rotation_tolerance)) continue;
    const std::string what = "the quaternion of joint '" + model.joint_name(i) + "'";
    liedyn::detail::check_unit_quaternion(who, what.c_str(), quaternion);
  }
}

/// The converse: each joint quaternion of s read w first (w x y z) and written x y z w.
template <class S>
void joint_quaternions_to_w_last(const Model<S>& model, VectorX<S>& s) {
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int k = model.joint(i).quaternion_index();
    if (k < 0) continue;
    auto q = s.template segment<4>(model.q_index(i) + k);
    const Vector4<S> wxyz = q;
    q << wxyz.template tail<3>(), wxyz(0);
  }
}

/// rotation_sensitivity(u) = [0, u_lin^ (if linear in world); 0, u_ang^ (if angular in world)]:
/// the derivative, with respect to φ of H exp([ρ; φ]^), of Rᵀ-type pulled-back components
/// w = T_bᵀ u_L when u_L (their coordinates) is held fixed; u = T_bᵀ u_L in our coordinates.
template <class S>
Matrix6<S> rotation_sensitivity(BaseFlags f, const Vector6<S>& u) {
  Matrix6<S> m = Matrix6<S>::Zero();
  if (f.linear_world) m.template topRightCorner<3, 3>() = hat(Vector3<S>(u.template head<3>()));
  if (f.angular_world) m.template bottomRightCorner<3, 3>() = hat(Vector3<S>(u.template tail<3>()));
  return m;
}

/// The apparent-acceleration term [c; 0] in our coordinates: c = ω × v_lin when the linear part
/// is in the world (d/dt (R v) = R (v̇ + ω × v)), else 0. The angular part never has one
/// (d/dt (R ω) = R ω̇).
template <class S>
Vector6<S> apparent_term(BaseFlags f, const Vector6<S>& nu) {
  Vector6<S> c = Vector6<S>::Zero();
  if (f.linear_world)
    c.template head<3>() =
        Vector3<S>(nu.template tail<3>()).cross(Vector3<S>(nu.template head<3>()));
  return c;
}

/// Q = ∂ν̇/∂ν with their acceleration held fixed: −∂[c; 0]/∂ν = [−ω^, v^; 0, 0] (linear in
/// the world), else 0.
template <class S>
Matrix6<S> apparent_sensitivity(BaseFlags f, const Vector6<S>& nu) {
  Matrix6<S> m = Matrix6<S>::Zero();
  if (f.linear_world) {
    m.template topLeftCorner<3, 3>() = -hat(Vector3<S>(nu.template tail<3>()));
    m.template topRightCorner<3, 3>() = hat(Vector3<S>(nu.template head<3>()));
  }
  return m;
}

}  // namespace detail

// ------------------------------------------------------------------------------------------
// The base block
// ------------------------------------------------------------------------------------------

/// T_b(R), the 6×6 orthogonal matrix with (their base velocity) = T_b ν, R = ^A R_0. Rows in
/// their order, columns [v_lin; ω] of our body twist.
template <class S>
Matrix6<S> base_velocity_matrix(const Convention& conv, const Matrix3<S>& R) {
  const detail::BaseFlags f = detail::base_flags(conv.velocity);
  const Matrix3<S> Rl = f.linear_world ? R : Matrix3<S>::Identity();
  const Matrix3<S> Ra = f.angular_world ? R : Matrix3<S>::Identity();
  Matrix6<S> T = Matrix6<S>::Zero();
  if (f.angular_first) {
    T.template topRightCorner<3, 3>() = Ra;
    T.template bottomLeftCorner<3, 3>() = Rl;
  } else {
    T.template topLeftCorner<3, 3>() = Rl;
    T.template bottomRightCorner<3, 3>() = Ra;
  }
  return T;
}

/// The base pose moved along their base position tangent δ (6, in their velocity's order):
/// Body H exp(δ^); otherwise the origin p + δp (world) or p + R δp (body), and the rotation
/// exp(δθ^) R (angular part in the world) or R exp(δθ^) (in the body). To first order this is
/// H exp((T_bᵀ δ)^), so their position derivatives are ours times T_bᵀ on the base columns.
template <class S, class Derived>
SE3<S> retract(const Convention& conv, const SE3<S>& H, const Eigen::MatrixBase<Derived>& delta) {
  detail::require_size("retract", "delta", delta.size(), 6);
  const Vector6<S> d = delta;
  if (conv.velocity == BaseVelocity::Body) return H * SE3<S>::exp(d);
  const detail::BaseFlags f = detail::base_flags(conv.velocity);
  const Vector3<S> dp =
      f.angular_first ? Vector3<S>(d.template tail<3>()) : Vector3<S>(d.template head<3>());
  const Vector3<S> dth =
      f.angular_first ? Vector3<S>(d.template head<3>()) : Vector3<S>(d.template tail<3>());
  const Matrix3<S>& R = H.rotation();
  const Vector3<S> p =
      f.linear_world ? Vector3<S>(H.translation() + dp) : Vector3<S>(H.translation() + R * dp);
  const Matrix3<S> Rn = f.angular_world ? Matrix3<S>(SO3<S>::exp(dth).matrix() * R)
                                        : Matrix3<S>(R * SO3<S>::exp(dth).matrix());
  return SE3<S>(Rn, p);
}

// ------------------------------------------------------------------------------------------
// Generalized velocities, accelerations, forces, matrices
// ------------------------------------------------------------------------------------------

/// T = blockdiag(T_b(R), P) (nv × nv, dense): their generalized velocity = T · [ν; r]. For a
/// welded base T = P. `H` is ^A H_0 (only its rotation is used).
template <class S>
MatrixX<S> velocity_matrix(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                           const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("velocity_matrix", conv, model, perm);
  const int off = model.offset(), n = model.nv_joints();
  MatrixX<S> T = perm.template matrix<S>(off, n);
  if (off) T.template topLeftCorner<6, 6>() = base_velocity_matrix(conv, H.rotation());
  return T;
}

/// Their generalized velocity [T_b ν; P r] from the state x (size nv).
template <class S>
VectorX<S> velocity_to(const Convention& conv, const Model<S>& model, const State<S>& x,
                       const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("velocity_to", conv, model, perm);
  detail::require_size("velocity_to", "x.r", x.r.size(), model.nv_joints());
  const int off = model.offset(), n = model.nv_joints();
  VectorX<S> v(model.nv());
  if (off) v.template head<6>() = base_velocity_matrix(conv, x.H.rotation()) * x.nu;
  v.segment(off, n) = perm.vector_to_theirs(x.r, 0);
  return v;
}

/// Our generalized velocity [ν; r] (size nv, our order) from theirs, at base pose H.
template <class S, class Derived>
VectorX<S> velocity_from(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                         const Eigen::MatrixBase<Derived>& v_theirs,
                         const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("velocity_from", conv, model, perm);
  detail::require_size("velocity_from", "their velocity", v_theirs.size(), model.nv());
  const int off = model.offset();
  VectorX<S> v = perm.vector_to_ours(VectorX<S>(v_theirs), off);
  if (off)
    v.template head<6>() =
        base_velocity_matrix(conv, H.rotation()).transpose() * Vector6<S>(v.template head<6>());
  return v;
}

/// Their generalized acceleration d/dt v_L = T q̈ + [T_b [c; 0]; 0] from ours, q̈ = ddq = [ν̇; ṙ]
/// (our order), at the state x (its H and ν enter the apparent term c = ω × v_lin).
template <class S, class Derived>
VectorX<S> acceleration_to(const Convention& conv, const Model<S>& model, const State<S>& x,
                           const Eigen::MatrixBase<Derived>& ddq,
                           const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("acceleration_to", conv, model, perm);
  detail::require_size("acceleration_to", "ddq", ddq.size(), model.nv());
  const int off = model.offset();
  VectorX<S> a = perm.vector_to_theirs(VectorX<S>(ddq), off);
  if (off) {
    const Vector6<S> nu_dot = ddq.template head<6>();
    const Vector6<S> apparent =
        nu_dot + detail::apparent_term(detail::base_flags(conv.velocity), x.nu);
    a.template head<6>() = base_velocity_matrix(conv, x.H.rotation()) * apparent;
  }
  return a;
}

/// Our q̈ = [ν̇; ṙ] (our order) from their generalized acceleration, at the state x (H and ν).
template <class S, class Derived>
VectorX<S> acceleration_from(const Convention& conv, const Model<S>& model, const State<S>& x,
                             const Eigen::MatrixBase<Derived>& a_theirs,
                             const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("acceleration_from", conv, model, perm);
  detail::require_size("acceleration_from", "their acceleration", a_theirs.size(), model.nv());
  const int off = model.offset();
  VectorX<S> ddq = perm.vector_to_ours(VectorX<S>(a_theirs), off);
  if (off) {
    const Vector6<S> apparent =
        base_velocity_matrix(conv, x.H.rotation()).transpose() * Vector6<S>(ddq.template head<6>());
    ddq.template head<6>() =
        apparent - detail::apparent_term(detail::base_flags(conv.velocity), x.nu);
  }
  return ddq;
}

/// Their generalized force τ_L = T τ̄ from ours (τ̄ = [τ̄_b; τ], τ̄_b the base wrench [force;
/// moment] in the base frame): their base part is the same wrench in their frames and order
/// (e.g. MuJoCo: force in the world, moment in the base frame; Drake: [moment; force], world).
template <class S, class Derived>
VectorX<S> force_to(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                    const Eigen::MatrixBase<Derived>& tau,
                    const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("force_to", conv, model, perm);
  detail::require_size("force_to", "tau", tau.size(), model.nv());
  const int off = model.offset();
  VectorX<S> t = perm.vector_to_theirs(VectorX<S>(tau), off);
  if (off)
    t.template head<6>() =
        base_velocity_matrix(conv, H.rotation()) * Vector6<S>(t.template head<6>());
  return t;
}

/// Our τ̄ (our order, base wrench in the base frame) from their generalized force: Tᵀ τ_L.
template <class S, class Derived>
VectorX<S> force_from(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                      const Eigen::MatrixBase<Derived>& tau_theirs,
                      const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("force_from", conv, model, perm);
  detail::require_size("force_from", "their force", tau_theirs.size(), model.nv());
  const int off = model.offset();
  VectorX<S> t = perm.vector_to_ours(VectorX<S>(tau_theirs), off);
  if (off)
    t.template head<6>() =
        base_velocity_matrix(conv, H.rotation()).transpose() * Vector6<S>(t.template head<6>());
  return t;
}

/// T X Tᵀ for an nv × nv matrix X in our coordinates: their mass matrix from M, their M⁻¹ from
/// M⁻¹ (the same map, T being orthogonal), their ∂τ/∂a.
template <class S, class Derived>
MatrixX<S> matrix_to(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                     const Eigen::MatrixBase<Derived>& X,
                     const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("matrix_to", conv, model, perm);
  detail::require_size("matrix_to", "rows", X.rows(), model.nv());
  detail::require_size("matrix_to", "cols", X.cols(), model.nv());
  const MatrixX<S> T = velocity_matrix(conv, model, H, perm);
  return T * X * T.transpose();
}

/// Tᵀ X_L T: our M (or M⁻¹) from theirs.
template <class S, class Derived>
MatrixX<S> matrix_from(const Convention& conv, const Model<S>& model, const SE3<S>& H,
                       const Eigen::MatrixBase<Derived>& X_theirs,
                       const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("matrix_from", conv, model, perm);
  detail::require_size("matrix_from", "rows", X_theirs.rows(), model.nv());
  detail::require_size("matrix_from", "cols", X_theirs.cols(), model.nv());
  const MatrixX<S> T = velocity_matrix(conv, model, H, perm);
  return T.transpose() * X_theirs * T;
}

// ------------------------------------------------------------------------------------------
// Configuration vectors and whole states
// ------------------------------------------------------------------------------------------

/// Size of their configuration vector: 7 + n (moving base), n (welded). Throws for a
/// convention without a q layout (iDynTree: use idyntree.hpp).
template <class S>
int configuration_size(const Convention& conv, const Model<S>& model) {
  if (model.has_moving_base() && conv.layout == ConfigurationLayout::None)
    throw std::invalid_argument(
        "liedyn::interop::configuration_size: this convention has no configuration vector "
        "(iDynTree takes a 4x4 transform, see interop/idyntree.hpp)");
  return (model.has_moving_base() ? 7 : 0) + model.nq_joints();
}

/// Their configuration vector q from the state x (base pose in their layout, joint positions
/// in their order); the quaternion of ^A R_0 is returned with w ≥ 0.
template <class S>
VectorX<S> configuration_to(const Convention& conv, const Model<S>& model, const State<S>& x,
                            const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("configuration_to", conv, model, perm);
  detail::require_size("configuration_to", "x.s", x.s.size(), model.nq_joints());
  VectorX<S> s = x.s;  // quaternions reordered where our indices address them, then permuted
  if (detail::w_first(conv.layout)) detail::joint_quaternions_to_w_first(model, s);
  s = perm.vector_to_theirs(s, 0);
  VectorX<S> q(configuration_size(conv, model));
  if (!model.has_moving_base()) {
    q = s;
    return q;
  }
  const Vector4<S> xyzw = SO3<S>(x.H.rotation()).to_quaternion();
  const Vector3<S>& p = x.H.translation();
  switch (conv.layout) {
    case ConfigurationLayout::PositionQuaternionXYZW: q << p, xyzw, s; break;
    case ConfigurationLayout::PositionQuaternionWXYZ:
      q << p, xyzw(3), xyzw.template head<3>(), s;
      break;
    case ConfigurationLayout::QuaternionWXYZPosition:
      q << xyzw(3), xyzw.template head<3>(), p, s;
      break;
    case ConfigurationLayout::PositionQuaternionXYZWLast:
      q << p, xyzw.template head<3>(), s, xyzw(3);
      break;
    case ConfigurationLayout::None: break;  // configuration_size threw
  }
  return q;
}

/// The base pose ^A H_0 and our joint positions s from their configuration vector q. Every
/// quaternion of q (the base's, a spherical or free joint's) must be of unit norm within
/// rotation_tolerance (InvalidArgument otherwise, naming it); the base's is then normalized to
/// the last bit. Returned as a State with zero velocities.
template <class S, class Derived>
State<S> configuration_from(const Convention& conv, const Model<S>& model,
                            const Eigen::MatrixBase<Derived>& q,
                            const JointPermutation& perm = JointPermutation()) {
  detail::require_joints("configuration_from", conv, model, perm);
  detail::require_size("configuration_from", "q", q.size(), configuration_size(conv, model));
  const int n = model.nq_joints();
  State<S> x(model);
  if (!model.has_moving_base()) {
    x.s = perm.vector_to_ours(VectorX<S>(q), 0);
    if (detail::w_first(conv.layout)) detail::joint_quaternions_to_w_last(model, x.s);
    detail::check_joint_quaternions("interop::configuration_from", model, x.s);
    return x;
  }
  Vector3<S> p = Vector3<S>::Zero();
  Vector4<S> xyzw = Vector4<S>::Zero();  // x y z w
  VectorX<S> s = VectorX<S>::Zero(n);
  switch (conv.layout) {
    case ConfigurationLayout::PositionQuaternionXYZW:
      p = q.template head<3>();
      xyzw = q.template segment<4>(3);
      s = q.segment(7, n);
      break;
    case ConfigurationLayout::PositionQuaternionWXYZ:
      p = q.template head<3>();
      xyzw << q(4), q(5), q(6), q(3);
      s = q.segment(7, n);
      break;
    case ConfigurationLayout::QuaternionWXYZPosition:
      xyzw << q(1), q(2), q(3), q(0);
      p = q.template segment<3>(4);
      s = q.segment(7, n);
      break;
    case ConfigurationLayout::PositionQuaternionXYZWLast:
      p = q.template head<3>();
      xyzw << q(3), q(4), q(5), q(6 + n);
      s = q.segment(6, n);
      break;
    case ConfigurationLayout::None: break;  // configuration_size threw
  }
  if (!(xyzw.squaredNorm() > S(0)))
    throw std::invalid_argument("liedyn::interop::configuration_from: the base quaternion is zero");
  liedyn::detail::check_unit_quaternion("interop::configuration_from", "the base quaternion", xyzw);
  x.H = SE3<S>(SO3<S>::from_quaternion(xyzw), p);
  x.s = perm.vector_to_ours(s, 0);
  if (detail::w_first(conv.layout)) detail::joint_quaternions_to_w_last(model, x.s);
  detail::check_joint_quaternions("interop::configuration_from", model, x.s);
  return x;
}

/// The full state from their configuration q and velocity v (sizes configuration_size and nv).
template <class S, class Dq, class Dv>
State<S> state_from(const Convention& conv, const Model<S>& model, const Eigen::MatrixBase<Dq>& q,
                    const Eigen::MatrixBase<Dv>& v,
                    const JointPermutation& perm = JointPermutation()) {
  State<S> x = configuration_from<S>(conv, model, q, perm);
  const VectorX<S> qd = velocity_from<S>(conv, model, x.H, v, perm);
  const int off = model.offset();
  if (off) x.nu = qd.template head<6>();
  x.r = qd.segment(off, model.nv_joints());
  return x;
}

}  // namespace interop
}  // namespace liedyn
