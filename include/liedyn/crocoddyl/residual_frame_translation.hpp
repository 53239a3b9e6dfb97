// liedyn — Crocoddyl bridge: the translation of a frame as a Crocoddyl residual
// (Crocoddyl 3.2's ResidualModelFrameTranslation), on liedyn's kinematics (docs/crocoddyl.md).
//
//   r  = p_F(q) − p*                       (3; p_F the frame's origin in A, p* the reference)
//   Rx = [ J_F,lin  0 ]                    (3 × ndx)
//
// J_F,lin is the linear block of the frame's Jacobian in the mixed sense (frame_jacobian,
// TwistRepresentation::Mixed): ṗ_F = J_F,lin ν̄. Along StateLiedyn's tangent that is also
// ∂p_F/∂δq (residual_base.hpp), so Rx is exact; r does not depend on v or u.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/crocoddyl/residual_base.hpp"

namespace liedyn {
namespace crocoddyl {

class ResidualModelFrameTranslationLiedyn;
/// The data of ResidualModelFrameTranslationLiedyn.
using ResidualDataFrameTranslationLiedyn =
    FrameResidualDataLiedyn<ResidualModelFrameTranslationLiedyn>;

/// r = p_F(q) − p* for the liedyn model frame `frame` (this header's comment). double only.
class ResidualModelFrameTranslationLiedyn
    : public ResidualLiedyn<ResidualModelFrameTranslationLiedyn,
                            ResidualDataFrameTranslationLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelFrameTranslationLiedyn";

  /// The residual of frame `frame` (a name of the liedyn model) against `xref` (p* in A), for
  /// controls of size nu. Throws InvalidArgument for an unknown frame.
  ResidualModelFrameTranslationLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                      const Eigen::Vector3d& xref, std::size_t nu)
      : ResidualLiedyn(std::move(state), 3, nu, ResidualDependence::configuration),
        frame_name_(frame),
        frame_id_(frame_index(frame)),
        xref_(xref) {}

  /// r = p_F − p* (forward kinematics of the whole tree).
  void value(Data& d) const {
    forward_poses(model(), d.workspace, d.state);
    d.r = frame_pose(model(), d.workspace, frame_id_).translation() - xref_;
  }
  /// Rx = [J_F,lin 0] (mixed sense; the frame's support chain only).
  void jacobian(Data& d) const {
    frame_jacobian(model(), d.workspace, d.state, frame_id_, TwistRepresentation::Mixed, d.J);
    d.Rx.leftCols(model().nv()) = d.J.topRows<3>();  // the velocity block stays 0
  }

  /// The frame's name in the liedyn model.
  const std::string& frame_name() const { return frame_name_; }
  /// The frame's index in the liedyn model.
  int frame_id() const { return frame_id_; }
  /// p*, the target position of the frame origin in the inertial frame A.
  const Eigen::Vector3d& get_reference() const { return xref_; }
  /// Sets p* (in the inertial frame A).
  void set_reference(const Eigen::Vector3d& xref) { xref_ = xref; }

  /// Crocoddyl's description line: the frame and p*.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << frame_name_ << ", tref=" << xref_.transpose() << "}";
  }

 private:
  std::string frame_name_;
  int frame_id_;
  Eigen::Vector3d xref_;
};

}  // namespace crocoddyl
}  // namespace liedyn
