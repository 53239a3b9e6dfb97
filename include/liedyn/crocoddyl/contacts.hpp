// liedyn — Crocoddyl bridge: the contacts of the contact and impulse models, as Crocoddyl
// describes them, their liedyn constraints, and what those models show their cost residuals
// (docs/crocoddyl.md).
//
// Each contact is a frame of the liedyn model, a point (3 rows, the velocity of the frame's
// origin) or rigid (6 rows, its whole twist, linear first), in one of Crocoddyl's senses:
// pinocchio::LOCAL (liedyn's Body: the frame's axes) or pinocchio::LOCAL_WORLD_ALIGNED (Mixed:
// the inertial axes at the frame's origin). Its force — and, for a rigid contact, the moment
// about the frame's origin — is what the environment applies on the robot, in the same sense:
// Crocoddyl's ContactData::f and ImpulseData::f. pinocchio::WORLD is refused: Crocoddyl's
// contacts compute it as LOCAL_WORLD_ALIGNED, liedyn's inertial sense is another constraint
// (moments about A's origin).
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <crocoddyl/core/data-collector-base.hpp>
#include <pinocchio/multibody/fwd.hpp>

#include "liedyn/config.hpp"
#include "liedyn/model/constraint.hpp"
#include "liedyn/model/model.hpp"

namespace liedyn {
namespace crocoddyl {

/// One contact of a contact or impulse model, as Crocoddyl's ContactModel3D / ImpulseModel3D
/// (point) or ContactModel6D / ImpulseModel6D (rigid) describes it, the frame given by name.
/// An impulse model uses the frame, the kind and the sense only.
struct ContactLiedyn {
  /// A point contact (3 rows: the frame origin's acceleration) or a rigid one (6 rows).
  enum class Kind { Point3D, Rigid6D };
  Kind kind = Kind::Point3D;
  std::string frame;  ///< the liedyn model's frame (a link, or a merged fixed frame)
  pinocchio::ReferenceFrame sense = pinocchio::LOCAL;  ///< LOCAL or LOCAL_WORLD_ALIGNED
  Eigen::Vector3d xref = Eigen::Vector3d::Zero();      ///< point: p*, the target origin in A
  Eigen::Vector2d gains = Eigen::Vector2d::Zero();     ///< [Kp, Kd] (rigid: Kp must be 0)

  /// Crocoddyl's ContactModel3D(state, frame, xref, sense, nu, gains).
  static ContactLiedyn point(const std::string& frame_name, const Eigen::Vector3d& target,
                             pinocchio::ReferenceFrame sense_,
                             const Eigen::Vector2d& gains_ = Eigen::Vector2d::Zero()) {
    ContactLiedyn c;
    c.kind = Kind::Point3D;
    c.frame = frame_name;
    c.xref = target;
    c.sense = sense_;
    c.gains = gains_;
    return c;
  }
  /// Crocoddyl's ContactModel6D(state, frame, pref, sense, nu, gains) with gains[0] = 0 (the
  /// reference placement then plays no part).
  static ContactLiedyn rigid(const std::string& frame_name, pinocchio::ReferenceFrame sense_,
                             const Eigen::Vector2d& gains_ = Eigen::Vector2d::Zero()) {
    ContactLiedyn c;
    c.kind = Kind::Rigid6D;
    c.frame = frame_name;
    c.sense = sense_;
    c.gains = gains_;
    return c;
  }
  /// 3 or 6.
  int dimension() const { return kind == Kind::Point3D ? 3 : 6; }
};

/// The constraint set's specs of `contacts` (one ConstraintSpec each, in order), each checked;
/// `who` names the model in the messages: InvalidArgument naming the contact for an unknown
/// frame, a WORLD sense, non-finite gains or a rigid contact's Kp, and for no contacts.
inline std::vector<ConstraintSpec<double>> contact_constraint_specs(
    const Model<double>& model, const std::vector<ContactLiedyn>& contacts, const char* who_) {
  const std::string who = who_;
  LIEDYN_CHECK(!contacts.empty(), who + ": no contacts");
  std::vector<ConstraintSpec<double>> out;
  out.reserve(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const ContactLiedyn& c = contacts[k];
    const std::string name = who + ": contact " + std::to_string(k) + " ('" + c.frame + "')";
    LIEDYN_CHECK(model.frame_id(c.frame) >= 0,
                 name + ": the model has no frame named '" + c.frame + "'");
    TwistRepresentation sense = TwistRepresentation::Body;
    if (c.sense == pinocchio::LOCAL_WORLD_ALIGNED) sense = TwistRepresentation::Mixed;
    else
      LIEDYN_CHECK(c.sense == pinocchio::LOCAL,
                   name +
                       ": sense WORLD is not supported (Crocoddyl's contacts compute it as "
                       "LOCAL_WORLD_ALIGNED: use that)");
    LIEDYN_CHECK(std::isfinite(c.gains(0)) && std::isfinite(c.gains(1)) && c.xref.allFinite(),
                 name + ": the gains and xref must be finite");
    ConstraintSpec<double> s;
    if (c.kind == ContactLiedyn::Kind::Point3D) {
      s = ConstraintSpec<double>::point_contact(c.frame, sense);
      s.placement = SE3<double>(Matrix3<double>::Identity(), c.xref);
    } else {
      LIEDYN_CHECK(c.gains(0) == 0.0,
                   name +
                       ": a rigid contact's Kp must be 0 (Crocoddyl's 6D position error "
                       "log6 is not liedyn's; see contact_forward_dynamics.hpp)");
      s = ConstraintSpec<double>::rigid_contact(c.frame, sense);
    }
    s.name = c.frame;
    s.Kp = c.gains(0);
    s.Kd = c.gains(1);
    out.push_back(std::move(s));
  }
  return out;
}

/// What the cost residuals of a contact or impulse model see besides x and u: the model's
/// contacts, their rows, and the forces (impulses) with their derivatives in the model's data,
/// as Crocoddyl's DataCollectorContact and DataCollectorImpulse hold their contacts' data
/// (residual_contact_force.hpp reads them). The model computes them before its costs, in calc
/// and calcDiff.
struct DataCollectorContactLiedyn : public ::crocoddyl::DataCollectorAbstractTpl<double> {
  /// For a model of `contacts_` making `set_`; the data that holds it points `forces`, `df_dx`
  /// and `df_du` at its own members.
  DataCollectorContactLiedyn(const std::vector<ContactLiedyn>& contacts_,
                             const ConstraintSet<double>& set_)
      : contacts(&contacts_), set(&set_) {}
  const std::vector<ContactLiedyn>* contacts;  ///< the model's contacts, in the order of the rows
  const ConstraintSet<double>* set;            ///< their constraints (each one's rows)
  const VectorX<double>* forces = nullptr;     ///< λ, or an impulse model's Λ (m)
  const MatrixX<double>* df_dx = nullptr;      ///< ∂λ/∂dx (m × ndx)
  const MatrixX<double>* df_du = nullptr;      ///< ∂λ/∂u (m × nu; an impulse model's: m × 0)
};

}  // namespace crocoddyl
}  // namespace liedyn
