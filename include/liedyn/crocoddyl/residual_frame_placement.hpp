// liedyn — Crocoddyl bridge: the placement and the rotation of a frame as Crocoddyl residuals
// (Crocoddyl 3.2's ResidualModelFramePlacement and ResidualModelFrameRotation), on liedyn's
// kinematics (docs/crocoddyl.md).
//
//   placement:  r = log(H*⁻¹ H_F(q))            (6, linear first: Pinocchio's log6)
//               Rx = [ Jr⁻¹(r) J_F  0 ]         (6 × ndx)
//   rotation:   r = log(R*ᵀ R_F(q))             (3: Pinocchio's log3)
//               Rx = [ Jr⁻¹(r) J_F,ang  0 ]     (3 × ndx)
//
// J_F is the frame's Jacobian in its own axes (frame_jacobian, TwistRepresentation::Body):
// H_F⁻¹ δH_F = J_F δq along StateLiedyn's tangent (residual_base.hpp), the perturbation on the
// right; log(E exp(δ)) = log E + Jr⁻¹(log E) δ to first order, Jr the right Jacobian of SE(3)
// or SO(3) (spatial/se3/se3.hpp, spatial/so3/so3.hpp) — Pinocchio's Jlog6 and Jlog3. Exact; r
// depends on q only.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/crocoddyl/residual_base.hpp"
#include "liedyn/spatial/se3/se3.hpp"
#include "liedyn/spatial/so3/so3.hpp"

namespace liedyn {
namespace crocoddyl {

class ResidualModelFramePlacementLiedyn;
/// The data of ResidualModelFramePlacementLiedyn.
using ResidualDataFramePlacementLiedyn = FrameResidualDataLiedyn<ResidualModelFramePlacementLiedyn>;

/// r = log(H*⁻¹ H_F(q)) for the liedyn model frame `frame` (this header's comment). double only.
class ResidualModelFramePlacementLiedyn
    : public ResidualLiedyn<ResidualModelFramePlacementLiedyn, ResidualDataFramePlacementLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelFramePlacementLiedyn";

  /// The residual of frame `frame` (a name of the liedyn model) against the placement `pref`
  /// (H*, in A), for controls of size nu. Throws InvalidArgument for an unknown frame.
  ResidualModelFramePlacementLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                    const SE3<double>& pref, std::size_t nu)
      : ResidualLiedyn(std::move(state), 6, nu, ResidualDependence::configuration),
        frame_name_(frame),
        frame_id_(frame_index(frame)),
        pref_(pref),
        pref_inverse_(pref.inverse()) {}

  /// r = log(H*⁻¹ H_F), linear first (forward kinematics of the whole tree).
  void value(Data& d) const {
    forward_poses(model(), d.workspace, d.state);
    d.r = (pref_inverse_ * frame_pose(model(), d.workspace, frame_id_)).log();
  }
  /// Rx = [Jr⁻¹(r) J_F 0] (J_F in the frame's axes; the frame's support chain only).
  void jacobian(Data& d) const {
    frame_jacobian(model(), d.workspace, d.state, frame_id_, TwistRepresentation::Body, d.J);
    const Vector6<double> r = (pref_inverse_ * frame_pose(model(), d.workspace, frame_id_)).log();
    d.Rx.leftCols(model().nv()).noalias() = SE3<double>::right_jacobian_inverse(r) * d.J;
  }

  /// The frame's name in the liedyn model.
  const std::string& frame_name() const { return frame_name_; }
  /// The frame's index in the liedyn model.
  int frame_id() const { return frame_id_; }
  /// H*, the target placement of the frame in A.
  const SE3<double>& get_reference() const { return pref_; }
  /// Sets H* (in A).
  void set_reference(const SE3<double>& pref) {
    pref_ = pref;
    pref_inverse_ = pref.inverse();
  }

  /// Crocoddyl's description line: the frame and H*'s translation.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << frame_name_
       << ", pref.translation=" << pref_.translation().transpose() << "}";
  }

 private:
  std::string frame_name_;
  int frame_id_;
  SE3<double> pref_, pref_inverse_;
};

class ResidualModelFrameRotationLiedyn;
/// The data of ResidualModelFrameRotationLiedyn.
using ResidualDataFrameRotationLiedyn = FrameResidualDataLiedyn<ResidualModelFrameRotationLiedyn>;

/// r = log(R*ᵀ R_F(q)) for the liedyn model frame `frame` (this header's comment). double only.
class ResidualModelFrameRotationLiedyn
    : public ResidualLiedyn<ResidualModelFrameRotationLiedyn, ResidualDataFrameRotationLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelFrameRotationLiedyn";

  /// The residual of frame `frame` (a name of the liedyn model) against the rotation `Rref`
  /// (R*, A's axes to the target's), for controls of size nu. Throws InvalidArgument for an
  /// unknown frame or a matrix that is not a rotation (spatial/so3: rotation_tolerance).
  ResidualModelFrameRotationLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                   const Matrix3<double>& Rref, std::size_t nu)
      : ResidualLiedyn(std::move(state), 3, nu, ResidualDependence::configuration),
        frame_name_(frame),
        frame_id_(frame_index(frame)),
        Rref_transpose_(checked_rotation(Rref).transpose()) {}

  /// r = log(R*ᵀ R_F) (forward kinematics of the whole tree).
  void value(Data& d) const {
    forward_poses(model(), d.workspace, d.state);
    d.r = error(d);
  }
  /// Rx = [Jr⁻¹(r) J_F,ang 0] (J_F in the frame's axes; the frame's support chain only).
  void jacobian(Data& d) const {
    frame_jacobian(model(), d.workspace, d.state, frame_id_, TwistRepresentation::Body, d.J);
    d.Rx.leftCols(model().nv()).noalias() =
        SO3<double>::right_jacobian_inverse(error(d)) * d.J.bottomRows<3>();
  }

  /// The frame's name in the liedyn model.
  const std::string& frame_name() const { return frame_name_; }
  /// The frame's index in the liedyn model.
  int frame_id() const { return frame_id_; }
  /// R*, the target rotation of the frame (A's axes to the target's).
  Matrix3<double> get_reference() const { return Rref_transpose_.transpose(); }
  /// Sets R* (InvalidArgument if it is not a rotation).
  void set_reference(const Matrix3<double>& Rref) {
    Rref_transpose_ = checked_rotation(Rref).transpose();
  }

  /// Crocoddyl's description line: the frame.
  void print(std::ostream& os) const override { os << name << " {frame=" << frame_name_ << "}"; }

 private:
  static const Matrix3<double>& checked_rotation(const Matrix3<double>& R) {
    detail::check_rotation("ResidualModelFrameRotationLiedyn", "the reference rotation", R);
    return R;
  }
  // log(R*ᵀ R_F), the frame's pose read from data.kinematics.
  Vector3<double> error(const Data& d) const {
    return SO3<double>(Rref_transpose_ * frame_pose(model(), d.workspace, frame_id_).rotation())
        .log();
  }

  std::string frame_name_;
  int frame_id_;
  Matrix3<double> Rref_transpose_;
};

}  // namespace crocoddyl
}  // namespace liedyn
