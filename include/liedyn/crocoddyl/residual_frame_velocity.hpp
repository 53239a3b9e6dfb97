// liedyn — Crocoddyl bridge: the twist of a frame as a Crocoddyl residual (Crocoddyl 3.2's
// ResidualModelFrameVelocity), on liedyn's kinematics (docs/crocoddyl.md).
//
//   r  = v_F(x) − v*                       (6, linear first, in the residual's sense)
//   Rx = [ ∂v_F/∂δq  ∂v_F/∂δν̄ ]           (6 × ndx)
//
// The senses are Crocoddyl's pinocchio::ReferenceFrame: LOCAL (liedyn's Body: the frame's
// axes, at its origin), LOCAL_WORLD_ALIGNED (Mixed: A's axes at the frame's origin) and WORLD
// (Inertial: A's axes, at A's origin — the spatial twist). v_F = J_F ν̄ is the velocity row
// block of a rigid contact of the frame with the environment in that sense, so Rx is that
// contact's ∂(J ν̄)/∂x (constraint_kinematics_derivatives, StateLiedyn's tangent: body twist
// columns), exact; ∂v_F/∂δν̄ = J_F. r depends on q and v, not on u.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <pinocchio/multibody/fwd.hpp>

#include "liedyn/algorithm/constraint_kinematics_derivatives.hpp"
#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/crocoddyl/residual_base.hpp"
#include "liedyn/model/constraint.hpp"

namespace liedyn {
namespace crocoddyl {

class ResidualModelFrameVelocityLiedyn;

/// The data of ResidualModelFrameVelocityLiedyn: ResidualDataLiedyn's members and the one-row-
/// block constraint data whose velocity derivative is Rx.
struct ResidualDataFrameVelocityLiedyn
    : public ResidualDataLiedyn<ResidualModelFrameVelocityLiedyn> {
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
  /// Sized for `model`.
  ResidualDataFrameVelocityLiedyn(ResidualModelFrameVelocityLiedyn* model,
                                  ::crocoddyl::DataCollectorAbstractTpl<double>* data);

  ConstraintData<double> contact;     ///< the frame's rigid contact: J, ∂(J ν̄)/∂x
  VectorX<double> zero_acceleration;  ///< q̈ = 0 (the kernel's acceleration terms are not used)
};

/// r = v_F(x) − v* for the liedyn model frame `frame` in the sense `type` (this header's
/// comment). double only.
class ResidualModelFrameVelocityLiedyn
    : public ResidualLiedyn<ResidualModelFrameVelocityLiedyn, ResidualDataFrameVelocityLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelFrameVelocityLiedyn";

  /// The residual of frame `frame` (a name of the liedyn model) against `vref` (v*, linear
  /// first, in the sense `type`), for controls of size nu. Throws InvalidArgument for an
  /// unknown frame.
  ResidualModelFrameVelocityLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                   const Vector6<double>& vref, pinocchio::ReferenceFrame type,
                                   std::size_t nu)
      : ResidualLiedyn(std::move(state), 6, nu, ResidualDependence::state),
        frame_name_(frame),
        frame_id_(frame_index(frame)),
        type_(type),
        sense_(representation(type)),
        vref_(vref),
        contact_(model(), {ConstraintSpec<double>::rigid_contact(frame, sense_)}) {}

  /// r = v_F − v* (the frame's support chain only).
  void value(Data& d) const {
    d.r = frame_velocity(model(), d.workspace, d.state, frame_id_, sense_) - vref_;
  }
  /// Rx = ∂v_F/∂x, the frame's rigid contact's velocity derivative.
  void jacobian(Data& d) const {
    constraint_kinematics_derivatives(model(), d.workspace, contact_, d.contact, d.state,
                                      d.zero_acceleration, TwistRepresentation::Body);
    d.Rx = d.contact.velocity_dx;
  }

  /// The frame's name in the liedyn model.
  const std::string& frame_name() const { return frame_name_; }
  /// The frame's index in the liedyn model.
  int frame_id() const { return frame_id_; }
  /// The sense of r, as Crocoddyl gives it.
  pinocchio::ReferenceFrame get_type() const { return type_; }
  /// v*, the target twist (linear first, in the residual's sense).
  const Vector6<double>& get_reference() const { return vref_; }
  /// Sets v*.
  void set_reference(const Vector6<double>& vref) { vref_ = vref; }
  /// The frame's rigid contact with the environment (its velocity rows are v_F).
  const ConstraintSet<double>& contact() const { return contact_; }

  /// Crocoddyl's description line: the frame, the sense and v*.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << frame_name_ << ", type=" << to_string(sense_)
       << ", vref=" << vref_.transpose() << "}";
  }

 private:
  static TwistRepresentation representation(pinocchio::ReferenceFrame type) {
    switch (type) {
      case pinocchio::LOCAL: return TwistRepresentation::Body;
      case pinocchio::LOCAL_WORLD_ALIGNED: return TwistRepresentation::Mixed;
      case pinocchio::WORLD: return TwistRepresentation::Inertial;
    }
    detail::throw_invalid_argument(std::string(name) + ": unknown reference frame " +
                                   std::to_string(static_cast<int>(type)));
  }

  std::string frame_name_;
  int frame_id_;
  pinocchio::ReferenceFrame type_;
  TwistRepresentation sense_;
  Vector6<double> vref_;
  ConstraintSet<double> contact_;
};

inline ResidualDataFrameVelocityLiedyn::ResidualDataFrameVelocityLiedyn(
    ResidualModelFrameVelocityLiedyn* model, ::crocoddyl::DataCollectorAbstractTpl<double>* data)
    : ResidualDataLiedyn(model, data),
      contact(model->model(), model->contact()),
      zero_acceleration(VectorX<double>::Zero(model->model().nv())) {}

}  // namespace crocoddyl
}  // namespace liedyn
