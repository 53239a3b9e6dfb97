// liedyn — interop: Pinocchio's generalized coordinates (q, v, a, τ) as a kernel's input and
// output, converted without allocation once a PinocchioCoordinates exists.
//
// Pinocchio's vectors for the same robot differ from liedyn's only in layout (docs/interop.md):
// q = [p; qx qy qz qw; s] for a moving base (p = ^A o_0, the quaternion of ^A R_0, w last), and
// v, a, τ = [base block; joint blocks] whose base block is liedyn's own (Pinocchio's free flyer
// moves with the body twist ν, its acceleration is ν̇, its generalized force the body wrench),
// while the joint blocks come in Pinocchio's joint order (a JointPermutation). Every joint type
// has the same coordinates in both libraries (a spherical joint's quaternion is x y z w in
// both), so a joint's block moves whole. The conversions are therefore index maps, built once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "liedyn/interop/joint_permutation.hpp"
#include "liedyn/model/model.hpp"
#include "liedyn/model/state.hpp"
#include "liedyn/spatial/so3/so3.hpp"

namespace liedyn {
namespace interop {

/// Pinocchio's coordinates of one liedyn model, in a given joint order (Pinocchio's): converts
/// its q, v to liedyn's state x = (H, s, ν, r) and velocity-sized vectors (ν̇ and r̈ ↔ a,
/// τ̄ ↔ τ, [ν; r] ↔ v) both ways, allocation-free. Immutable after construction; shareable
/// between threads.
template <class S>
class PinocchioCoordinates {
 public:
  /// For `model` with Pinocchio listing its joints as `perm` says (from_names with Pinocchio's
  /// model.names after its free flyer; JointPermutation() when the orders agree).
  PinocchioCoordinates(const Model<S>& model, const JointPermutation& perm)
      : model_id_(model.id()),
        offset_(model.offset()),
        nq_joints_(model.nq_joints()),
        nv_joints_(model.nv_joints()) {
    if (!perm.fits(model))
      throw std::invalid_argument(
          "liedyn::interop::PinocchioCoordinates: the joint permutation was built for another "
          "model (build it with JointPermutation::from_names(model, names))");
    // Their joint j's block starts after the blocks of their joints 0..j−1.
    const int n = model.num_joints();
    std::vector<int> their_q_start(n + 1, 0), their_v_start(n + 1, 0);
    for (int j = 0; j < n; ++j) {
      const int body = perm.ours_of_theirs(j) + 1;
      their_q_start[j + 1] = their_q_start[j] + model.joint_nq(body);
      their_v_start[j + 1] = their_v_start[j] + model.joint_nv(body);
    }
    s_of_theirs_.assign(nq_joints_, 0);
    r_of_theirs_.assign(nv_joints_, 0);
    for (int k = 0; k < n; ++k) {
      const int body = k + 1, j = perm.theirs_of_ours(k);
      for (int c = 0; c < model.joint_nq(body); ++c)
        s_of_theirs_[their_q_start[j] + c] = model.q_index(body) + c;
      for (int c = 0; c < model.joint_nv(body); ++c)
        r_of_theirs_[their_v_start[j] + c] = model.v_index(body) - offset_ + c;
      const int quaternion = model.joint(body).quaternion_index();
      if (quaternion >= 0) {
        joint_quaternions_.push_back(model.q_index(body) + quaternion);
        joint_names_.push_back(model.joint_name(body));
      }
    }
  }

  /// The model's Model::id() it was built for.
  std::uint64_t model_id() const { return model_id_; }
  /// Size of Pinocchio's q: 7 + nq_joints (moving base) or nq_joints.
  int nq() const { return (offset_ ? 7 : 0) + nq_joints_; }
  /// Size of Pinocchio's v, a and τ: the model's nv.
  int nv() const { return offset_ + nv_joints_; }

  /// x from Pinocchio's (q, v). Every quaternion of q (the base's, a spherical or free joint's)
  /// must be of unit norm within rotation_tolerance (InvalidArgument naming it); the base's is
  /// then normalized to the last bit. x must have the model's sizes (State(model)); a welded
  /// base's pose and ν are left as they are.
  template <class Dq, class Dv>
  void state_from(const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& v,
                  State<S>& x) const {
    require_size("state_from", "q", q.size(), nq());
    require_size("state_from", "v", v.size(), nv());
    int base_q = 0;
    if (offset_) {
      const Vector4<S> xyzw = q.template segment<4>(3);
      liedyn::detail::check_unit_quaternion("interop::PinocchioCoordinates::state_from",
                                            "the base quaternion", xyzw);
      x.H = SE3<S>(SO3<S>::from_quaternion(xyzw), Vector3<S>(q.template head<3>()));
      x.nu = v.template head<6>();
      base_q = 7;
    }
    for (int i = 0; i < nq_joints_; ++i) x.s(s_of_theirs_[i]) = q(base_q + i);
    for (int i = 0; i < nv_joints_; ++i) x.r(r_of_theirs_[i]) = v(offset_ + i);
    for (std::size_t k = 0; k < joint_quaternions_.size(); ++k) {
      const auto quaternion = x.s.template segment<4>(joint_quaternions_[k]);
      if (quaternion_defect(quaternion) <= S(rotation_tolerance)) continue;
      const std::string what = "the quaternion of joint '" + joint_names_[k] + "'";
      liedyn::detail::check_unit_quaternion("interop::PinocchioCoordinates::state_from",
                                            what.c_str(), quaternion);
    }
  }

  /// Pinocchio's q of the state x (the base quaternion with w ≥ 0), into `q` (size nq()).
  template <class Dq>
  void configuration_to(const State<S>& x, const Eigen::MatrixBase<Dq>& q_) const {
    Eigen::MatrixBase<Dq>& q = const_cast<Eigen::MatrixBase<Dq>&>(q_);
    require_size("configuration_to", "q", q.size(), nq());
    int base_q = 0;
    if (offset_) {
      q.template head<3>() = x.H.translation();
      q.template segment<4>(3) = SO3<S>(x.H.rotation()).to_quaternion();
      base_q = 7;
    }
    for (int i = 0; i < nq_joints_; ++i) q(base_q + i) = x.s(s_of_theirs_[i]);
  }

  /// Their velocity-sized vector from ours, into `theirs`: v from [ν; r], a from [ν̇; ṙ], τ from
  /// τ̄ (the base block unchanged, the joints' reordered). Sizes nv().
  template <class Din, class Dout>
  void to_theirs(const Eigen::MatrixBase<Din>& ours, const Eigen::MatrixBase<Dout>& theirs_) const {
    Eigen::MatrixBase<Dout>& theirs = const_cast<Eigen::MatrixBase<Dout>&>(theirs_);
    require_size("to_theirs", "ours", ours.size(), nv());
    require_size("to_theirs", "theirs", theirs.size(), nv());
    theirs.head(offset_) = ours.head(offset_);
    for (int i = 0; i < nv_joints_; ++i) theirs(offset_ + i) = ours(offset_ + r_of_theirs_[i]);
  }

  /// Our velocity-sized vector from theirs, into `ours`: the converse of to_theirs.
  template <class Din, class Dout>
  void to_ours(const Eigen::MatrixBase<Din>& theirs, const Eigen::MatrixBase<Dout>& ours_) const {
    Eigen::MatrixBase<Dout>& ours = const_cast<Eigen::MatrixBase<Dout>&>(ours_);
    require_size("to_ours", "theirs", theirs.size(), nv());
    require_size("to_ours", "ours", ours.size(), nv());
    ours.head(offset_) = theirs.head(offset_);
    for (int i = 0; i < nv_joints_; ++i) ours(offset_ + r_of_theirs_[i]) = theirs(offset_ + i);
  }

  /// Their nv × nv matrix from ours, into `theirs`: rows and columns reordered as to_theirs
  /// reorders a vector. Takes M, M⁻¹ (∂a/∂τ), and the velocity-tangent Jacobians ∂q̈/∂q,
  /// ∂q̈/∂v, ∂τ/∂q, ∂τ/∂v of the Body representation: Pinocchio's configuration tangent is
  /// liedyn's (the free flyer's q ⊕ δq = H exp(δq^), a joint's its own), so its
  /// computeABADerivatives and computeRNEADerivatives are these blocks reordered.
  template <class Din, class Dout>
  void matrix_to_theirs(const Eigen::MatrixBase<Din>& ours,
                        const Eigen::MatrixBase<Dout>& theirs_) const {
    Eigen::MatrixBase<Dout>& theirs = const_cast<Eigen::MatrixBase<Dout>&>(theirs_);
    require_size("matrix_to_theirs", "rows of ours", ours.rows(), nv());
    require_size("matrix_to_theirs", "columns of ours", ours.cols(), nv());
    require_size("matrix_to_theirs", "rows of theirs", theirs.rows(), nv());
    require_size("matrix_to_theirs", "columns of theirs", theirs.cols(), nv());
    const int n = nv();
    for (int j = 0; j < n; ++j) {
      const int cj = ours_of_their_velocity(j);
      for (int i = 0; i < n; ++i) theirs(i, j) = ours(ours_of_their_velocity(i), cj);
    }
  }

 private:
  // Entry of a velocity-sized vector of ours holding their entry i.
  int ours_of_their_velocity(int i) const {
    return i < offset_ ? i : offset_ + r_of_theirs_[i - offset_];
  }

  static void require_size(const char* who, const char* what, Eigen::Index got, int expected) {
    if (got != expected)
      throw std::invalid_argument("liedyn::interop::PinocchioCoordinates::" + std::string(who) +
                                  ": " + what + " has size " + std::to_string(got) + ", expected " +
                                  std::to_string(expected));
  }

  std::uint64_t model_id_;
  int offset_, nq_joints_, nv_joints_;
  std::vector<int> s_of_theirs_;          ///< entry of s holding their joint coordinate i
  std::vector<int> r_of_theirs_;          ///< entry of r holding their joint velocity i
  std::vector<int> joint_quaternions_;    ///< first entry in s of each joint quaternion
  std::vector<std::string> joint_names_;  ///< the joint of each of joint_quaternions_
};

}  // namespace interop
}  // namespace liedyn
