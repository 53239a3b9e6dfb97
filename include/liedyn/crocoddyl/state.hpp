// liedyn — Crocoddyl bridge: liedyn's state space SE(3) × G × R⁶ × R^n as a Crocoddyl state
// (crocoddyl::StateAbstractTpl<double>, Crocoddyl 3.2), built on the Lie-group operations of
// configuration.hpp — SE(3)'s exp, log and Jacobians for the base, each joint's integrate,
// difference and Jacobians (joint.hpp) — applied joint by joint straight into Crocoddyl's
// outputs, so that no operation allocates (docs/crocoddyl.md). A bridge layer: it sits above
// every other liedyn header and is compiled only where Crocoddyl is installed; nothing in liedyn
// includes it.
//
// Layout of Crocoddyl's state vector x (size nx) for a moving base:
//
//   x = [ p (3) | quaternion of R (4: x, y, z, w) | s (nq_joints) | ν (6) | r (nv_joints) ]
//
// with H = ^A H_0 = (R, p) the base pose, s the joints' coordinates in liedyn's joint order
// (joint i's at 7 + Model::q_index(i); a spherical or free joint's quaternion w last), ν the
// body twist [v; ω] (linear first) and r the joints' velocities (liedyn's order). For a welded
// base x = [s | r]. nq = 7 + nq_joints (nq_joints), nv = Model::nv(), nx = nq + nv.
//
// Tangent vector dx (size ndx = 2 nv), docs/conventions.md §3:
//
//   dx = [ η (6) | δs (nv_joints) | δν (6) | δr (nv_joints) ],   x ⊕ dx = (H exp(η^), s ⊕ δs,
//                                                                           ν + δν, r + δr)
//
// η a right (body-frame) perturbation of the base, linear first, with SE(3)'s coupled
// exponential; each joint's δs on its own group, also on the right (configuration.hpp). Jacobians
// are left-trivialized in the same coordinates.
//
// Crocoddyl's StateMultibody (Pinocchio's model of the same URDF, free-flyer root) writes
// x_pin = [p | quaternion x, y, z, w | s_pin | ν | r_pin]: the same base block (Pinocchio's
// free-flyer velocity is the body twist, linear first), the joints in Pinocchio's order. Its
// tangent dx_pin = [η_pin | δs_pin | δν | δr_pin] has η_pin = log6(H0⁻¹ H1) for the difference
// and H exp6(η_pin) for the integration: SE(3)'s coupled exponential on the right, which is
// liedyn's η. Pinocchio's spherical, free, planar and revolute joints are perturbed on the right
// on the same groups as liedyn's (docs/interop.md). So the change of coordinates is the joint
// permutation P alone (JointPermutation::from_names with Pinocchio's names[2:]):
//
//   x_pin  = [p, quat, P_q s, ν, P_v r]                (to_pinocchio / from_pinocchio)
//   dx_pin = T dx,  T = blockdiag(1₆, P_v, 1₆, P_v)    (tangent_permutation)
//
// and Jacobians map as J_pin = T J Tᵀ (state-to-state), F_pin = P F Tᵀ (forward dynamics rows
// in velocity order), L_x,pin = T L_x. The quaternion's sign is the one free choice: liedyn reads
// q and −q as the same rotation; integrate returns the quaternion in the hemisphere of x's.
#pragma once

#include <limits>
#include <memory>
#include <random>
#include <string>

#include <crocoddyl/core/state-base.hpp>

#include "liedyn/interop/floating_base.hpp"
#include "liedyn/interop/joint_permutation.hpp"
#include "liedyn/model/configuration.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// liedyn's product group SE(3) × G × R⁶ × R^n (the moving base and every joint type) as a
/// Crocoddyl state; layout of x and dx in this header's comment. double only: Crocoddyl's cast to
/// another scalar throws.
class StateLiedyn : public ::crocoddyl::StateAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::StateAbstractTpl<double>;
  using VectorXs = Base::VectorXs;
  using MatrixXs = Base::MatrixXs;

  /// The state space of `model` (shared: the action models built on this state use it too).
  explicit StateLiedyn(std::shared_ptr<const Model<double>> model)
      : Base(static_cast<std::size_t>((checked(model)->has_moving_base() ? 7 : 0) +
                                      model->nq_joints() + model->nv()),
             2 * static_cast<std::size_t>(model->nv())),
        model_(std::move(model)) {
    nq_ = static_cast<std::size_t>(configuration_size());
    nv_ = static_cast<std::size_t>(model_->nv());
  }

  /// The liedyn model.
  const Model<double>& model() const { return *model_; }
  /// The liedyn model, shared.
  const std::shared_ptr<const Model<double>>& model_ptr() const { return model_; }

  /// Size of the configuration part of x: 7 + nq_joints (moving base) or nq_joints.
  int configuration_size() const {
    return (model_->has_moving_base() ? 7 : 0) + model_->nq_joints();
  }

  /// The neutral state (H = identity or the welded pose, every joint at its identity, at rest).
  VectorXs zero() const override { return from_state(neutral(*model_)); }

  /// A random state (liedyn::random_state: attitude uniform on SO(3), position in [−1, 1]³,
  /// joints within their finite limits, velocities in [−1, 1]); one generator per thread.
  VectorXs rand() const override {
    thread_local std::mt19937 rng{std::random_device{}()};
    return from_state(random_state(*model_, rng));
  }

  /// dxout = x1 ⊖ x0 = (log(H0⁻¹ H1), s1 ⊖ s0, ν1 − ν0, r1 − r0), each joint's s1 ⊖ s0 on its
  /// group (configuration.hpp difference, joint by joint). No allocation.
  void diff(const Eigen::Ref<const VectorXs>& x0, const Eigen::Ref<const VectorXs>& x1,
            Eigen::Ref<VectorXs> dxout) const override {
    check_x("StateLiedyn::diff", "x0", x0);
    check_x("StateLiedyn::diff", "x1", x1);
    check_dx("StateLiedyn::diff", "dxout", dxout);
    const int nv = model_->nv(), off = model_->offset(), n = model_->nv_joints();
    const int jq = joints_offset(), nj = model_->nq_joints();
    if (off) dxout.head<6>() = base_pose(x0).inverse_times(base_pose(x1)).log();
    detail::difference_joints(*model_, x0.segment(jq, nj), x1.segment(jq, nj),
                              dxout.segment(off, n));
    dxout.tail(nv) = x1.tail(nv) - x0.tail(nv);
  }

  /// xout = x ⊕ dx = (H exp(η^), s ⊕ δs, ν + δν, r + δr) (configuration.hpp integrate, joint by
  /// joint); the base quaternion in x's hemisphere. xout may be x. No allocation.
  void integrate(const Eigen::Ref<const VectorXs>& x, const Eigen::Ref<const VectorXs>& dx,
                 Eigen::Ref<VectorXs> xout) const override {
    check_x("StateLiedyn::integrate", "x", x);
    check_dx("StateLiedyn::integrate", "dx", dx);
    check_x("StateLiedyn::integrate", "xout", xout);
    const int nv = model_->nv(), off = model_->offset(), n = model_->nv_joints();
    const int jq = joints_offset(), nj = model_->nq_joints();
    if (off) {
      const SE3<double> H = base_pose(x) * SE3<double>::exp(Vector6<double>(dx.head<6>()));
      Vector4<double> quat = SO3<double>(H.rotation()).to_quaternion();
      if (quat.dot(x.segment<4>(3)) < 0.0) quat = -quat;
      xout.head<3>() = H.translation();
      xout.segment<4>(3) = quat;
    }
    detail::integrate_joints(*model_, x.segment(jq, nj), dx.segment(off, n), xout.segment(jq, nj));
    xout.tail(nv) = x.tail(nv) + dx.tail(nv);
  }

  /// Jacobians of x1 ⊖ x0 (left-trivialized): Jfirst = blockdiag(∂/∂q0, −1), Jsecond =
  /// blockdiag(∂/∂q1, 1), the configuration blocks those of configuration.hpp
  /// difference_jacobians (base −Jl⁻¹(η) and Jr⁻¹(η), η = log(H0⁻¹ H1); each joint's
  /// Joint::difference_jacobians). `firstsecond` selects which are written; the other argument is
  /// not touched (Crocoddyl passes one matrix twice). No allocation.
  void Jdiff(const Eigen::Ref<const VectorXs>& x0, const Eigen::Ref<const VectorXs>& x1,
             Eigen::Ref<MatrixXs> Jfirst, Eigen::Ref<MatrixXs> Jsecond,
             const ::crocoddyl::Jcomponent firstsecond = ::crocoddyl::both) const override {
    const char* who = "StateLiedyn::Jdiff";
    check_x(who, "x0", x0);
    check_x(who, "x1", x1);
    check_component(who, firstsecond, Components::FirstSecondOrBoth);
    const bool first = firstsecond != ::crocoddyl::second;
    const bool second = firstsecond != ::crocoddyl::first;
    if (first) check_square(who, "Jfirst", Jfirst);
    if (second) check_square(who, "Jsecond", Jsecond);
    const int nv = model_->nv(), off = model_->offset(), jq = joints_offset();
    if (first) {
      Jfirst.setZero();
      Jfirst.bottomRightCorner(nv, nv).diagonal().setConstant(-1.0);
    }
    if (second) {
      Jsecond.setZero();
      Jsecond.bottomRightCorner(nv, nv).diagonal().setConstant(1.0);
    }
    if (off) {
      const Vector6<double> eta = base_pose(x0).inverse_times(base_pose(x1)).log();
      if (first) Jfirst.topLeftCorner<6, 6>() = -SE3<double>::left_jacobian_inverse(eta);
      if (second) Jsecond.topLeftCorner<6, 6>() = SE3<double>::right_jacobian_inverse(eta);
    }
    for (int i = 1; i < model_->num_bodies(); ++i) {
      const int q = jq + model_->q_index(i), nq = model_->joint_nq(i);
      const int r = off + model_->r_index(i), k = model_->joint_nv(i);
      JointTangentMap<double> J0(k, k), J1(k, k);
      model_->joint(i).difference_jacobians(x0.segment(q, nq), x1.segment(q, nq), J0, J1);
      if (first) Jfirst.block(r, r, k, k) = J0;
      if (second) Jsecond.block(r, r, k, k) = J1;
    }
  }

  /// Jacobians of x ⊕ dx (left-trivialized): Jfirst = blockdiag(∂/∂q, 1), Jsecond =
  /// blockdiag(∂/∂δq, 1), the configuration blocks those of configuration.hpp
  /// integrate_jacobians (base Ad(exp(η))⁻¹ and Jr(η); each joint's
  /// Joint::integrate_jacobians); `op` sets, adds or subtracts them. No allocation.
  void Jintegrate(const Eigen::Ref<const VectorXs>& x, const Eigen::Ref<const VectorXs>& dx,
                  Eigen::Ref<MatrixXs> Jfirst, Eigen::Ref<MatrixXs> Jsecond,
                  const ::crocoddyl::Jcomponent firstsecond = ::crocoddyl::both,
                  const ::crocoddyl::AssignmentOp op = ::crocoddyl::setto) const override {
    const char* who = "StateLiedyn::Jintegrate";
    check_x(who, "x", x);
    check_dx(who, "dx", dx);
    check_component(who, firstsecond, Components::FirstSecondOrBoth);
    LIEDYN_CHECK(op == ::crocoddyl::setto || op == ::crocoddyl::addto || op == ::crocoddyl::rmfrom,
                 std::string(who) + ": op must be setto, addto or rmfrom");
    const bool first = firstsecond != ::crocoddyl::second;
    const bool second = firstsecond != ::crocoddyl::first;
    if (first) check_square(who, "Jfirst", Jfirst);
    if (second) check_square(who, "Jsecond", Jsecond);
    const int nv = model_->nv();
    const double sign = op == ::crocoddyl::rmfrom ? -1.0 : 1.0;
    if (first) {
      if (op == ::crocoddyl::setto) Jfirst.setZero();
      Jfirst.bottomRightCorner(nv, nv).diagonal().array() += sign;
    }
    if (second) {
      if (op == ::crocoddyl::setto) Jsecond.setZero();
      Jsecond.bottomRightCorner(nv, nv).diagonal().array() += sign;
    }
    for_each_integrate_block(dx, [&](int r, int k, const auto& Jq, const auto& Jd) {
      if (first) Jfirst.block(r, r, k, k) += sign * Jq;
      if (second) Jsecond.block(r, r, k, k) += sign * Jd;
    });
  }

  /// Parallel transport of Jin's columns from the tangent space at x ⊕ dx to that at x:
  /// Jin ← Jintegrate's Jfirst · Jin (`first`) or Jsecond · Jin (`second`); only the first nv
  /// rows change (the velocity blocks are identities). Jin has ndx rows. No allocation.
  void JintegrateTransport(const Eigen::Ref<const VectorXs>& x,
                           const Eigen::Ref<const VectorXs>& dx, Eigen::Ref<MatrixXs> Jin,
                           const ::crocoddyl::Jcomponent firstsecond) const override {
    const char* who = "StateLiedyn::JintegrateTransport";
    check_x(who, "x", x);
    check_dx(who, "dx", dx);
    check_component(who, firstsecond, Components::FirstOrSecond);
    LIEDYN_CHECK(static_cast<std::size_t>(Jin.rows()) == ndx_,
                 std::string(who) + ": Jin has " + std::to_string(Jin.rows()) + " rows, expected " +
                     std::to_string(ndx_));
    const bool first = firstsecond == ::crocoddyl::first;
    for_each_integrate_block(dx, [&](int r, int k, const auto& Jq, const auto& Jd) {
      if (k == 1) return;  // a 1-DoF joint's group is R: its transport is the identity
      for (Eigen::Index c = 0; c < Jin.cols(); ++c) {
        const JointTangent<double> column = Jin.block(r, c, k, 1);
        Jin.block(r, c, k, 1) = (first ? Jq : Jd) * column;
      }
    });
  }

  /// f(r, k) for each diagonal block of the configuration part of dx, where Jdiff's and
  /// Jintegrate's configuration Jacobians are non-zero: the base's (r = 0, k = 6, moving base
  /// only), then each joint's (r = Model::v_index(i), k = Model::joint_nv(i)), in body order.
  template <class F>
  void for_each_configuration_block(F&& f) const {
    if (model_->has_moving_base()) f(0, 6);
    for (int i = 1; i < model_->num_bodies(); ++i) f(model_->v_index(i), model_->joint_nv(i));
  }

  /// The liedyn state of x (size nx; the base quaternion is normalized).
  State<double> to_state(const Eigen::Ref<const VectorXs>& x) const {
    check_x("StateLiedyn::to_state", "x", x);
    State<double> out;
    read_state(x, out);
    return out;
  }

  /// The liedyn state of x into `out` (no allocation once out.s and out.r have the model's
  /// sizes). x's size is not checked here (the callers check it).
  void read_state(const Eigen::Ref<const VectorXs>& x, State<double>& out) const {
    const int nc = configuration_size(), nv = model_->nv(), off = model_->offset();
    if (off) {
      out.H = SE3<double>(SO3<double>::from_quaternion(x.segment<4>(3)), x.head<3>());
      out.nu = x.segment<6>(nc);
    } else {
      out.H = model_->welded_base_pose();
      out.nu.setZero();
    }
    out.s = x.segment(nc - model_->nq_joints(), model_->nq_joints());
    out.r = x.segment(nc + off, nv - off);
  }

  /// Crocoddyl's x of the liedyn state `state` (base quaternion with w ≥ 0).
  VectorXs from_state(const State<double>& state) const {
    detail::check_state_sizes("StateLiedyn::from_state", "state", *model_, state);
    const int nc = configuration_size();
    VectorXs x(nx_);
    write_configuration(Configuration<double>(state), Vector4<double>::Zero(), x.head(nc));
    if (model_->has_moving_base()) x.segment<6>(nc) = state.nu;
    x.tail(model_->nv_joints()) = state.r;
    return x;
  }

  /// Crocoddyl's StateMultibody x_pin (Pinocchio's coordinates and joint order, `perm` from
  /// Pinocchio's joint names) of our x; the base quaternion with w ≥ 0.
  VectorXs to_pinocchio(const Eigen::Ref<const VectorXs>& x,
                        const interop::JointPermutation& perm) const {
    const State<double> s = to_state(x);
    VectorXs out(nx_);
    const int nc = configuration_size(), nv = model_->nv();
    out.head(nc) = interop::configuration_to(interop::Library::Pinocchio, *model_, s, perm);
    out.tail(nv) = interop::velocity_to(interop::Library::Pinocchio, *model_, s, perm);
    return out;
  }

  /// Our x from Crocoddyl's StateMultibody x_pin (the inverse of to_pinocchio).
  VectorXs from_pinocchio(const Eigen::Ref<const VectorXs>& x_pin,
                          const interop::JointPermutation& perm) const {
    check_x("StateLiedyn::from_pinocchio", "x_pin", x_pin);
    const int nc = configuration_size(), nv = model_->nv();
    return from_state(interop::state_from(interop::Library::Pinocchio, *model_,
                                          VectorXs(x_pin.head(nc)), VectorXs(x_pin.tail(nv)),
                                          perm));
  }

  /// The ndx × ndx permutation T = blockdiag(1₆, P_v, 1₆, P_v) with dx_pin = T dx (the welded
  /// base has no 1₆ blocks): tangent vectors, and Jacobians as T J Tᵀ.
  MatrixX<double> tangent_permutation(const interop::JointPermutation& perm) const {
    const int nv = model_->nv(), off = model_->offset(), n = model_->nv_joints();
    const MatrixX<double> P = perm.matrix(off, n);
    MatrixX<double> T = MatrixX<double>::Zero(2 * nv, 2 * nv);
    T.topLeftCorner(nv, nv) = P;
    T.bottomRightCorner(nv, nv) = P;
    return T;
  }

  /// A copy of this state (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::StateBase> cloneAsDouble() const override {
    return std::make_shared<StateLiedyn>(*this);
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::StateBase> cloneAsFloat() const override {
    detail::throw_invalid_argument("StateLiedyn: casting to float is not supported");
  }

  /// Prints the model's name and sizes.
  void print(std::ostream& os) const override {
    os << "StateLiedyn {nx=" << nx_ << ", ndx=" << ndx_ << ", nq=" << nq_ << ", nv=" << nv_ << ", "
       << (model_->has_moving_base() ? "moving" : "welded") << " base}";
  }

 private:
  static const std::shared_ptr<const Model<double>>& checked(
      const std::shared_ptr<const Model<double>>& model) {
    LIEDYN_CHECK(model != nullptr, "StateLiedyn: the model is null");
    return model;
  }

  template <class V>
  void check_x(const char* who, const char* what, const V& x) const {
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == nx_,
                 std::string(who) + ": " + what + " has size " + std::to_string(x.size()) +
                     ", expected " + std::to_string(nx_));
  }
  template <class V>
  void check_dx(const char* who, const char* what, const V& dx) const {
    LIEDYN_CHECK(static_cast<std::size_t>(dx.size()) == ndx_,
                 std::string(who) + ": " + what + " has size " + std::to_string(dx.size()) +
                     ", expected " + std::to_string(ndx_));
  }
  template <class M>
  void check_square(const char* who, const char* what, const M& J) const {
    LIEDYN_CHECK(
        static_cast<std::size_t>(J.rows()) == ndx_ && static_cast<std::size_t>(J.cols()) == ndx_,
        std::string(who) + ": " + what + " is " + std::to_string(J.rows()) + " × " +
            std::to_string(J.cols()) + ", expected " + std::to_string(ndx_) + " × " +
            std::to_string(ndx_));
  }
  // Which Jcomponent values an operation takes: Jdiff and Jintegrate also `both`,
  // JintegrateTransport one of the two.
  enum class Components { FirstOrSecond, FirstSecondOrBoth };
  static void check_component(const char* who, ::crocoddyl::Jcomponent c, Components allowed) {
    const bool both_allowed = allowed == Components::FirstSecondOrBoth;
    LIEDYN_CHECK(c == ::crocoddyl::first || c == ::crocoddyl::second ||
                     (both_allowed && c == ::crocoddyl::both),
                 std::string(who) + ": firstsecond must be " +
                     (both_allowed ? "first, second or both" : "first or second"));
    (void)both_allowed;
  }

  // Where the joints' coordinates start in x: after p and the quaternion for a moving base.
  int joints_offset() const { return model_->has_moving_base() ? 7 : 0; }

  // The base pose (p, normalized quaternion) of x (a moving base's).
  static SE3<double> base_pose(const Eigen::Ref<const VectorXs>& x) {
    return SE3<double>(SO3<double>::from_quaternion(x.segment<4>(3)), Vector3<double>(x.head<3>()));
  }

  // f(r, k, J_q, J_dq) for each diagonal block of ∂(q ⊕ δq)/∂q and ∂(q ⊕ δq)/∂δq (rows and
  // columns r … r + k − 1): the base's Ad(exp(η))⁻¹ and Jr(η), then each joint's. Left-
  // trivialized, they depend on δq alone.
  template <class F>
  void for_each_integrate_block(const Eigen::Ref<const VectorXs>& dx, F&& f) const {
    const int off = model_->offset();
    if (off) {
      const Vector6<double> eta = dx.head<6>();
      const Matrix6<double> Jq = SE3<double>::exp(eta).inverse().velocity_transform();
      const Matrix6<double> Jd = SE3<double>::right_jacobian(eta);
      f(0, 6, Jq, Jd);
    }
    for (int i = 1; i < model_->num_bodies(); ++i) {
      const int r = off + model_->r_index(i), k = model_->joint_nv(i);
      JointTangentMap<double> Jq(k, k), Jd(k, k);
      model_->joint(i).integrate_jacobians(dx.segment(r, k), Jq, Jd);
      f(r, k, Jq, Jd);
    }
  }

  // Writes (H, s) as [p, quaternion, s]; the quaternion in the hemisphere of `hemisphere`
  // (w ≥ 0 when it is zero).
  template <class Out>
  void write_configuration(const Configuration<double>& q, const Vector4<double>& hemisphere,
                           Out out) const {
    const int nj = model_->nq_joints();
    if (!model_->has_moving_base()) {
      out = q.s;
      return;
    }
    Vector4<double> quat = SO3<double>(q.H.rotation()).to_quaternion();
    if (quat.dot(hemisphere) < 0.0) quat = -quat;
    out.template head<3>() = q.H.translation();
    out.template segment<4>(3) = quat;
    out.segment(7, nj) = q.s;
  }

  std::shared_ptr<const Model<double>> model_;
};

}  // namespace crocoddyl
}  // namespace liedyn
