// liedyn — model: the state x = (H, s, ν, r) of a moving-base robot, its three base-twist
// representations, and integrate/difference on SE(3) × G × R⁶ × R^nv, G the product of the
// joints' groups (joint.hpp).
//
// H = ^A H_0 is the base pose in the inertial frame A; s the joint positions; ν the base twist
// in its NATIVE representation, the body twist ν = ^0 v_{A,0} (Ḣ = H ν^, Pinocchio's
// free-flyer velocity); r = ṡ. The other representations (docs/conventions.md §2):
//   inertial  w = ^A v_{A,0} = ^A X_0 ν                              (Ḣ = w^ H; the paper's input)
//   mixed     m = [^A ȯ_0; ^A ω_{A,0}] = blockdiag(R, R) ν, R = ^A R_0  (iDynTree's default)
// Tangent vectors of the state are δx = (η, δs, δν, δr) ∈ R^{12+2n} (R^{2n} for a welded base),
// with H ⊕ η = H exp(η^) (right perturbation, η linear first).
#pragma once

#include <random>

#include "liedyn/model/model.hpp"

namespace liedyn {

/// How the base twist is given: Body ν = ^0 v_{A,0} (native), Inertial w = ^A X_0 ν, or Mixed
/// m = [^A ȯ_0; ^A ω_{A,0}] = blockdiag(R, R) ν, R = ^A R_0.
enum class TwistRepresentation { Body, Inertial, Mixed };

/// "body", "inertial" or "mixed" ("unknown" for an out-of-range value).
inline const char* to_string(TwistRepresentation r) {
  switch (r) {
    case TwistRepresentation::Body: return "body";
    case TwistRepresentation::Inertial: return "inertial";
    case TwistRepresentation::Mixed: return "mixed";
  }
  return "unknown";
}

/// The base twist in representation `rep`, from the body twist ν.
template <class S>
Vector6<S> base_twist_from_body(const SE3<S>& H, const Vector6<S>& nu, TwistRepresentation rep) {
  const Motion<S> v(nu);
  switch (rep) {
    case TwistRepresentation::Body: return nu;
    case TwistRepresentation::Inertial: return H.act(v).vector();
    case TwistRepresentation::Mixed: {
      Vector6<S> m;
      m << H.rotation() * v.linear(), H.rotation() * v.angular();
      return m;
    }
  }
  return nu;
}

/// The body twist ν from the base twist `twist` given in representation `rep`.
template <class S>
Vector6<S> base_twist_to_body(const SE3<S>& H, const Vector6<S>& twist, TwistRepresentation rep) {
  const Motion<S> v(twist);
  switch (rep) {
    case TwistRepresentation::Body: return twist;
    case TwistRepresentation::Inertial: return H.act_inverse(v).vector();
    case TwistRepresentation::Mixed: {
      Vector6<S> nu;
      nu << H.rotation().transpose() * v.linear(), H.rotation().transpose() * v.angular();
      return nu;
    }
  }
  return twist;
}

/// d/dt of the base twist in representation `rep` (its apparent acceleration), from ν and the
/// body acceleration ν̇ = ^0 a_{A,0}. For body and inertial it equals the intrinsic acceleration
/// (ẇ = ^A X_0 ν̇, because ν × ν = 0). For mixed it does not: ṁ = blockdiag(R, R) ν̇ +
/// [R (ω × v_lin); 0], while the intrinsic mixed acceleration is blockdiag(R, R) ν̇ alone.
template <class S>
Vector6<S> base_acceleration_from_body(const SE3<S>& H, const Vector6<S>& nu,
                                       const Vector6<S>& nu_dot, TwistRepresentation rep) {
  Vector6<S> a = base_twist_from_body(H, nu_dot, rep);
  if (rep == TwistRepresentation::Mixed) {
    const Vector3<S> v = nu.template head<3>(), w = nu.template tail<3>();
    a.template head<3>() += H.rotation() * w.cross(v);
  }
  return a;
}

/// The body acceleration ν̇ from the time derivative of the base twist in `rep` (inverse of
/// base_acceleration_from_body); `nu` is the body twist.
template <class S>
Vector6<S> base_acceleration_to_body(const SE3<S>& H, const Vector6<S>& nu, const Vector6<S>& acc,
                                     TwistRepresentation rep) {
  Vector6<S> a = acc;
  if (rep == TwistRepresentation::Mixed) {
    const Vector3<S> v = nu.template head<3>(), w = nu.template tail<3>();
    a.template head<3>() -= H.rotation() * w.cross(v);
  }
  return base_twist_to_body(H, a, rep);
}

namespace detail {
// The maps between the body twist ν and the twist t of representation `rep` at (H, ν):
// δν = N_eta η + N_t δt and t = T ν.
template <class S>
void twist_maps(TwistRepresentation rep, const SE3<S>& H, const Vector6<S>& nu, Matrix6<S>& N_eta,
                Matrix6<S>& N_t, Matrix6<S>& T) {
  N_eta.setZero();
  switch (rep) {
    case TwistRepresentation::Body:
      N_t.setIdentity();
      T.setIdentity();
      break;
    case TwistRepresentation::Inertial:
      N_eta = Motion<S>(nu).cross_matrix();
      N_t = H.inverse().velocity_transform();
      T = H.velocity_transform();
      break;
    case TwistRepresentation::Mixed:
      N_eta.template topRightCorner<3, 3>() = hat(Vector3<S>(nu.template head<3>()));
      N_eta.template bottomRightCorner<3, 3>() = hat(Vector3<S>(nu.template tail<3>()));
      N_t.setZero();
      N_t.template topLeftCorner<3, 3>() = H.rotation().transpose();
      N_t.template bottomRightCorner<3, 3>() = H.rotation().transpose();
      T.setZero();
      T.template topLeftCorner<3, 3>() = H.rotation();
      T.template bottomRightCorner<3, 3>() = H.rotation();
      break;
  }
}
}  // namespace detail

namespace detail {
// The joints' part of the product group: s ⊕ δs, s1 ⊖ s0 and their block-diagonal Jacobians,
// joint by joint (each joint's coordinates at q_index, its tangent at r_index).

template <class S, class Q>
void set_neutral_joints(const Model<S>& model, const Eigen::MatrixBase<Q>& s_) {
  auto& s = const_cast<Eigen::MatrixBase<Q>&>(s_);
  for (int i = 1; i < model.num_bodies(); ++i)
    model.joint(i).neutral(s.segment(model.q_index(i), model.joint_nq(i)));
}
// out = s ⊕ ds; `out` may be s.
template <class S, class Q, class D, class O>
void integrate_joints(const Model<S>& model, const Eigen::MatrixBase<Q>& s,
                      const Eigen::MatrixBase<D>& ds, const Eigen::MatrixBase<O>& out_) {
  auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int q = model.q_index(i), nq = model.joint_nq(i);
    model.joint(i).integrate(s.segment(q, nq), ds.segment(model.r_index(i), model.joint_nv(i)),
                             out.segment(q, nq));
  }
}
// out = s1 ⊖ s0.
template <class S, class Q0, class Q1, class O>
void difference_joints(const Model<S>& model, const Eigen::MatrixBase<Q0>& s0,
                       const Eigen::MatrixBase<Q1>& s1, const Eigen::MatrixBase<O>& out_) {
  auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int q = model.q_index(i), nq = model.joint_nq(i);
    model.joint(i).difference(s0.segment(q, nq), s1.segment(q, nq),
                              out.segment(model.r_index(i), model.joint_nv(i)));
  }
}
// The diagonal blocks of ∂(s ⊕ ds)/∂s and ∂(s ⊕ ds)/∂ds, written into the nv_joints × nv_joints
// blocks J_s and J_ds (off-diagonal entries untouched).
template <class S, class D, class Js, class Jd>
void integrate_joints_jacobians(const Model<S>& model, const Eigen::MatrixBase<D>& ds,
                                const Eigen::MatrixBase<Js>& J_s_,
                                const Eigen::MatrixBase<Jd>& J_ds_) {
  auto& J_s = const_cast<Eigen::MatrixBase<Js>&>(J_s_);
  auto& J_ds = const_cast<Eigen::MatrixBase<Jd>&>(J_ds_);
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int r = model.r_index(i), n = model.joint_nv(i);
    model.joint(i).integrate_jacobians(ds.segment(r, n), J_s.block(r, r, n, n),
                                       J_ds.block(r, r, n, n));
  }
}
// The diagonal blocks of ∂(s1 ⊖ s0)/∂s0 and ∂(s1 ⊖ s0)/∂s1 (off-diagonal entries untouched).
template <class S, class Q0, class Q1, class J0, class J1>
void difference_joints_jacobians(const Model<S>& model, const Eigen::MatrixBase<Q0>& s0,
                                 const Eigen::MatrixBase<Q1>& s1, const Eigen::MatrixBase<J0>& J0_,
                                 const Eigen::MatrixBase<J1>& J1_) {
  auto& J_s0 = const_cast<Eigen::MatrixBase<J0>&>(J0_);
  auto& J_s1 = const_cast<Eigen::MatrixBase<J1>&>(J1_);
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int q = model.q_index(i), nq = model.joint_nq(i);
    const int r = model.r_index(i), n = model.joint_nv(i);
    model.joint(i).difference_jacobians(s0.segment(q, nq), s1.segment(q, nq),
                                        J_s0.block(r, r, n, n), J_s1.block(r, r, n, n));
  }
}
// The diagonal blocks −ad(r_i) of the joints' deviations, η̇_i = −ad(r̄_i) η_i + δr_i
// (docs/conventions.md §2: the linearization's δs rows and columns), written into the
// nv_joints × nv_joints block `out` for the joints with a group; the vector-space joints'
// blocks (zero) and the entries between joints are untouched.
template <class S, class V, class O>
void write_joint_deviation_blocks(const Model<S>& model, const Eigen::MatrixBase<V>& r_bar,
                                  const Eigen::MatrixBase<O>& out_) {
  auto& out = const_cast<Eigen::MatrixBase<O>&>(out_);
  for (int i = 1; i < model.num_bodies(); ++i) {
    if (model.joint(i).one_dof()) continue;
    const int r = model.r_index(i), k = model.joint_nv(i);
    JointTangentMap<S> ad(k, k);
    model.joint(i).ad(r_bar.segment(r, k), ad);
    out.block(r, r, k, k) = -ad;
  }
}
}  // namespace detail

/// The state (H, s, ν, r). For a welded base, H is the welded pose and ν stays zero.
template <class S>
struct State {
  SE3<S> H;      ///< ^A H_0
  VectorX<S> s;  ///< joint configurations, joint i's at s[Model::q_index(i)…] (Model::nq_joints())
  Vector6<S> nu = Vector6<S>::Zero();  ///< body twist ^0 v_{A,0} (native representation)
  VectorX<S> r;  ///< joint velocities, joint i's at r[Model::r_index(i)…] (Model::nv_joints())

  State() = default;
  /// The neutral state of `model`: H = identity (moving base) or the welded pose, every joint
  /// at its group's identity (s = 0 for angles and lengths), ν = 0, r = 0.
  explicit State(const Model<S>& model)
      : H(model.has_moving_base() ? SE3<S>() : model.welded_base_pose()),
        s(model.nq_joints()),
        r(VectorX<S>::Zero(model.nv_joints())) {
    detail::set_neutral_joints(model, s);
  }

  /// The base twist in `rep`.
  Vector6<S> base_twist(TwistRepresentation rep) const { return base_twist_from_body(H, nu, rep); }
  /// Sets the base twist given in `rep` (stored as the body twist).
  void set_base_twist(const Vector6<S>& twist, TwistRepresentation rep) {
    nu = base_twist_to_body(H, twist, rep);
  }
  /// Generalized velocity [ν; r] (or r for a welded base).
  VectorX<S> velocity(const Model<S>& model) const {
    LIEDYN_CHECK_SIZE("State::velocity", "state.r", r, model.nv_joints());
    VectorX<S> v(model.nv());
    model.base_joint().velocity(*this, v);
    return v;
  }

  /// The same state in scalar type T.
  template <class T>
  State<T> cast() const {
    State<T> x;
    x.H = H.template cast<T>();
    x.s = s.template cast<T>();
    x.nu = nu.template cast<T>();
    x.r = r.template cast<T>();
    return x;
  }
};

namespace detail {
/// s has the model's nq_joints() entries and r its nv_joints() (`name` is the argument's name).
template <class S>
void check_state_sizes(const char* who, const char* name, const Model<S>& model,
                       const State<S>& x) {
  LIEDYN_CHECK_SIZE(who, std::string(name) + ".s", x.s, model.nq_joints());
  LIEDYN_CHECK_SIZE(who, std::string(name) + ".r", x.r, model.nv_joints());
}
}  // namespace detail

/// Size of the state's tangent space: 2 nv() (12 + 2 nv_joints() for a moving base).
template <class S>
int tangent_size(const Model<S>& model) {
  return 2 * model.nv();
}

/// The neutral state: H = identity (or the welded pose), every joint at its identity, at rest.
template <class S>
State<S> neutral(const Model<S>& model) {
  return State<S>(model);
}

/// A random state: base attitude uniform on SO(3), position in [−1, 1]³, each joint's
/// configuration from Joint::random (angles and lengths within the limits where both are
/// finite), velocities in [−1, 1].
template <class S, class Rng>
State<S> random_state(const Model<S>& model, Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  State<S> x(model);
  if (model.has_moving_base()) {
    // One draw per statement, in the order GCC evaluated the arguments that once held them (right
    // to left): a seed gives the same state as before, and under every compiler.
    const double pz = u(rng), py = u(rng), px = u(rng);
    const double q3 = g(rng), q2 = g(rng), q1 = g(rng), q0 = g(rng);
    x.H = SE3<S>(SO3<S>::from_quaternion(S(q0), S(q1), S(q2), S(q3)),
                 Vector3<S>(S(px), S(py), S(pz)));
    for (int k = 0; k < 6; ++k) x.nu(k) = S(u(rng));
  }
  for (int i = 1; i < model.num_bodies(); ++i) {
    model.joint(i).random(rng, x.s.segment(model.q_index(i), model.joint_nq(i)));
    for (int k = 0; k < model.joint_nv(i); ++k) x.r(model.r_index(i) + k) = S(u(rng));
  }
  return x;
}

/// x ⊕ δx = (H exp(η^), s ⊕ δs, ν + δν, r + δr), each joint's s ⊕ δs on its own group
/// (Joint::integrate); δx ordered (η, δs, δν, δr) for a moving base, (δs, δr) for a welded one.
template <class S, class Derived>
State<S> integrate(const Model<S>& model, const State<S>& x, const Eigen::MatrixBase<Derived>& dx) {
  detail::check_state_sizes("integrate", "x", model, x);
  LIEDYN_CHECK_SIZE("integrate", "dx", dx, tangent_size(model));
  State<S> y = x;
  const int n = model.nv_joints(), off = model.offset();
  if (model.has_moving_base()) {
    y.H = x.H * SE3<S>::exp(dx.template segment<6>(0));
    y.nu += dx.template segment<6>(6 + n);
  }
  detail::integrate_joints(model, x.s, dx.segment(off, n), y.s);
  y.r += dx.segment(2 * off + n, n);
  return y;
}

/// y ⊖ x: the δx with x ⊕ δx = y (η = log(H_x⁻¹ H_y), each joint's δs from Joint::difference).
template <class S>
VectorX<S> difference(const Model<S>& model, const State<S>& x, const State<S>& y) {
  detail::check_state_sizes("difference", "x", model, x);
  detail::check_state_sizes("difference", "y", model, y);
  VectorX<S> dx(tangent_size(model));
  const int n = model.nv_joints(), off = model.offset();
  if (model.has_moving_base()) {
    dx.template head<6>() = x.H.inverse_times(y.H).log();
    dx.template segment<6>(6 + n) = y.nu - x.nu;
  }
  detail::difference_joints(model, x.s, y.s, dx.segment(off, n));
  dx.segment(2 * off + n, n) = y.r - x.r;
  return dx;
}

/// Jacobians of y = x ⊕ δx, both left-trivialized: ∂y/∂x (for fixed δx) and ∂y/∂δx.
/// Block-diagonal: the base pose's blocks Ad(exp(η)⁻¹) and Jr(η), each joint's from
/// Joint::integrate_jacobians, identities on the velocities.
template <class S, class Derived>
void integrate_jacobians(const Model<S>& model, const Eigen::MatrixBase<Derived>& dx,
                         MatrixX<S>& J_x, MatrixX<S>& J_dx) {
  LIEDYN_CHECK_SIZE("integrate_jacobians", "dx", dx, tangent_size(model));
  const int N = tangent_size(model), n = model.nv_joints(), off = model.offset();
  J_x.setIdentity(N, N);
  J_dx.setIdentity(N, N);
  if (model.has_moving_base()) {
    const Vector6<S> eta = dx.template segment<6>(0);
    J_x.template topLeftCorner<6, 6>() = SE3<S>::exp(eta).inverse().velocity_transform();
    J_dx.template topLeftCorner<6, 6>() = SE3<S>::right_jacobian(eta);
  }
  detail::integrate_joints_jacobians(model, dx.segment(off, n), J_x.block(off, off, n, n),
                                     J_dx.block(off, off, n, n));
}

/// Jacobians of δx = y ⊖ x with respect to x and y (left-trivialized), block-diagonal:
/// base-pose blocks −Jl⁻¹(η) and Jr⁻¹(η), each joint's from Joint::difference_jacobians, −I
/// and I on the velocities.
template <class S>
void difference_jacobians(const Model<S>& model, const State<S>& x, const State<S>& y,
                          MatrixX<S>& J_x, MatrixX<S>& J_y) {
  detail::check_state_sizes("difference_jacobians", "x", model, x);
  detail::check_state_sizes("difference_jacobians", "y", model, y);
  const int N = tangent_size(model), n = model.nv_joints(), off = model.offset();
  J_x = -MatrixX<S>::Identity(N, N);
  J_y.setIdentity(N, N);
  if (model.has_moving_base()) {
    const Vector6<S> eta = x.H.inverse_times(y.H).log();
    J_x.template topLeftCorner<6, 6>() = -SE3<S>::left_jacobian_inverse(eta);
    J_y.template topLeftCorner<6, 6>() = SE3<S>::right_jacobian_inverse(eta);
  }
  detail::difference_joints_jacobians(model, x.s, y.s, J_x.block(off, off, n, n),
                                      J_y.block(off, off, n, n));
}

}  // namespace liedyn
