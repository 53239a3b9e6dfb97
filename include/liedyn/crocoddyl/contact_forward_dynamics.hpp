// liedyn — Crocoddyl bridge: forward dynamics with contacts as a Crocoddyl differential action
// model (crocoddyl::DifferentialActionModelAbstractTpl<double>, Crocoddyl 3.2), computed by
// liedyn's constrained kernels (docs/crocoddyl.md, docs/constraints.md).
//
// With x = (H, s, ν, r) in StateLiedyn's layout (state.hpp), the control u and τ̄ = S u
// (action_base.hpp's actuations), the contacts hold at acceleration level:
//
//   M q̈ + h − τ̄ = Jᵀ λ,     J q̈ + a₀ = 0,     a₀ = J̇ν̄ + Kp e + Kd J ν̄           (m rows)
//
//   xout = q̈ = [ν̇; ṙ]                          (constrained_forward_dynamics, exact KKT route)
//   Fx = ∂q̈/∂dx (nv × 2nv), Fu = ∂q̈/∂τ̄ S        (constrained_forward_dynamics_derivatives, body
//   df_dx = ∂λ/∂dx (m × 2nv), df_du = ∂λ/∂τ̄ S      twist: StateLiedyn's tangent)
//
// Each contact is a frame of the liedyn model, a point (3 rows, the velocity of the frame's
// origin) or rigid (6 rows, its whole twist, linear first), in one of Crocoddyl's senses:
// pinocchio::LOCAL (liedyn's Body: the frame's axes) or pinocchio::LOCAL_WORLD_ALIGNED (Mixed:
// the inertial axes at the frame's origin). λ is the force — and, for a rigid contact, the
// moment about the frame's origin — that the environment applies on the robot, in the same
// sense: Crocoddyl's ContactData::f (its lambda_c block). pinocchio::WORLD is refused:
// Crocoddyl's contacts compute it as LOCAL_WORLD_ALIGNED, liedyn's inertial sense is another
// constraint (moments about A's origin).
//
// Gains [Kp, Kd] are Crocoddyl's ContactModel3D/6D gains: its constraint J q̈ + a₀ = 0 with
// a₀ = drift + Kp e + Kd J ν̄ is liedyn's J q̈ + J̇ν̄ + Kd (J ν̄ − v*) + Kp e = a* with v* = 0,
// a* = 0 (ConstraintSpec::Kp = Kp, ::Kd = Kd). The drifts agree: a point contact's is the
// classical acceleration of the point, a rigid contact's the spatial acceleration of the frame
// (docs/constraints.md), in the rows' sense. The position error e of a point contact is
// R_Fᵀ (p_F − p*) (LOCAL) or p_F − p* (LOCAL_WORLD_ALIGNED), with p* Crocoddyl's xref: the
// same on both sides. A rigid contact's Kp must be 0: Crocoddyl's 6D error log6(H*⁻¹ H_F)
// couples rotation and translation, liedyn's keeps them apart (the two agree only where e = 0).
//
// Joint armature is the liedyn model's (JointSpec::with_armature, MJCF armature): M carries it
// in the forward call and its derivatives. The cost is a Crocoddyl CostModelSum over the same
// state, as in action_base.hpp; its residuals also see the contact forces, through
// DataCollectorContactLiedyn (the contact residuals of residual_contact_force.hpp), computed before
// the costs in calc and calcDiff.
#pragma once

#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <pinocchio/multibody/fwd.hpp>

#include "liedyn/algorithm/constrained_dynamics.hpp"
#include "liedyn/algorithm/constrained_dynamics_derivatives.hpp"
#include "liedyn/algorithm/constraint_kinematics.hpp"
#include "liedyn/crocoddyl/action_base.hpp"
#include "liedyn/crocoddyl/state.hpp"
#include "liedyn/model/constraint.hpp"

namespace liedyn {
namespace crocoddyl {

/// One contact of DifferentialActionModelContactFwdDynamicsLiedyn, as Crocoddyl's
/// ContactModel3D (point) or ContactModel6D (rigid) describes it, the frame given by name.
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

class DifferentialActionModelContactFwdDynamicsLiedyn;
struct DifferentialActionDataContactFwdDynamicsLiedyn;

/// What the cost residuals of a contact model see besides x and u: the model and its data, whose
/// forces λ and their derivatives the contact residuals read (residual_contact_force.hpp), as
/// Crocoddyl's DataCollectorContact holds its contacts' data.
struct DataCollectorContactLiedyn : public ::crocoddyl::DataCollectorAbstractTpl<double> {
  /// For the data of `model_`; `data` is set by that data's constructor.
  explicit DataCollectorContactLiedyn(const DifferentialActionModelContactFwdDynamicsLiedyn* model_)
      : model(model_) {}
  const DifferentialActionModelContactFwdDynamicsLiedyn* model;          ///< the contact model
  const DifferentialActionDataContactFwdDynamicsLiedyn* data = nullptr;  ///< the data holding it
};

/// The data of DifferentialActionModelContactFwdDynamicsLiedyn: ActionDataLiedyn's members, the
/// contact forces and their derivatives.
struct DifferentialActionDataContactFwdDynamicsLiedyn
    : public ActionDataLiedyn<DifferentialActionModelContactFwdDynamicsLiedyn,
                              DataCollectorContactLiedyn> {
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model`: its liedyn Data and ConstraintData, the cost data, the force blocks.
  explicit DifferentialActionDataContactFwdDynamicsLiedyn(
      DifferentialActionModelContactFwdDynamicsLiedyn* model);

  /// Contact k's force on the robot, in its sense (3 or 6 entries, force first): after calc.
  Eigen::VectorBlock<const VectorX<double>> force(std::size_t k) const;

  ConstraintData<double> constraints;  ///< J, λ (.lambda), their derivatives
  MatrixX<double> static_balance;      ///< [S Jᵀ] (nv × (nu + m)), in quasiStatic
  /// Its complete orthogonal decomposition (minimum-norm least squares), in quasiStatic.
  Eigen::CompleteOrthogonalDecomposition<MatrixX<double>> static_balance_solver;
  MatrixX<double> df_dx;  ///< ∂λ/∂dx (m × ndx), after calcDiff
  MatrixX<double> df_du;  ///< ∂λ/∂u (m × nu), after calcDiff
};

/// Forward dynamics of a liedyn model under contacts, with a Crocoddyl cost sum, on StateLiedyn
/// (this header's comment: xout, Fx, Fu, the contacts' senses and gains). double only.
class DifferentialActionModelContactFwdDynamicsLiedyn
    : public ActionModelLiedyn<DifferentialActionModelContactFwdDynamicsLiedyn,
                               DifferentialActionDataContactFwdDynamicsLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "DifferentialActionModelContactFwdDynamicsLiedyn";

  /// The dynamics of `state`'s model driven as `actuation` says, under `contacts` (rows stacked
  /// in their order), with the cost sum `costs` (whose control size must be this model's nu).
  /// Throws InvalidArgument naming the contact for an unknown frame, a WORLD sense or a rigid
  /// contact's Kp.
  DifferentialActionModelContactFwdDynamicsLiedyn(std::shared_ptr<StateLiedyn> state,
                                                  Actuation actuation,
                                                  std::vector<ContactLiedyn> contacts,
                                                  std::shared_ptr<CostModelSum> costs)
      : ActionModelLiedyn(std::move(state), actuation, std::move(costs)),
        contacts_(std::move(contacts)),
        set_(model(), specs(model(), contacts_)) {}

  /// xout = q̈ and λ (data.constraints.lambda) by liedyn's constrained_forward_dynamics, then the
  /// costs at (x, u). Throws ConstraintError if the contact Jacobian is rank deficient.
  void calc(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>& u) override {
    Data& d = prepared(data, x, u, "calc");
    d.xout = constrained_forward_dynamics(model(), d.dynamics, set_, d.constraints, d.state, d.tau);
    get_costs()->calc(d.costs, x, u);
    d.cost = d.costs->cost;
  }
  using ActionModelLiedyn::calc;

  /// Fx, Fu and the forces' df_dx, df_du by liedyn's constrained_forward_dynamics_derivatives
  /// (exact, body twist), then the costs' derivatives. Computes everything it needs from (x, u)
  /// (xout and λ included): calc need not have run.
  void calcDiff(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                const Eigen::Ref<const VectorXs>& u) override {
    Data& d = prepared(data, x, u, "calcDiff");
    ConstraintData<double>& cd = d.constraints;
    constrained_forward_dynamics_derivatives(model(), d.dynamics, set_, cd, d.state, d.tau,
                                             TwistRepresentation::Body);
    const int n = static_cast<int>(nu_);
    d.xout = cd.ddq;
    d.Fx = cd.ddq_dx;
    d.Fu = cd.ddq_dtau.rightCols(n);  // S = 1 or [0; 1]: its last nu columns
    d.df_dx = cd.lambda_dx;
    d.df_du = cd.lambda_dtau.rightCols(n);
    get_costs()->calcDiff(d.costs, x, u);
  }
  using ActionModelLiedyn::calcDiff;

  /// The control that holds x's configuration at rest on the contacts, as Crocoddyl's: the
  /// minimum-norm least-squares solution of S u + Jᵀ λ = g(q) (g the generalized gravity force,
  /// J the contact Jacobian in the contacts' senses), its u part. maxiter and tol are unused
  /// (the answer is closed-form). Its decomposition is preallocated in the data.
  void quasiStatic(const std::shared_ptr<DataAbstract>& data, Eigen::Ref<VectorXs> u,
                   const Eigen::Ref<const VectorXs>& x, std::size_t /*maxiter*/ = 100,
                   double /*tol*/ = 1e-9) override {
    Data& d = checked(data, x, u, "quasiStatic");
    holding_force(d, x);
    constraint_kinematics(model(), d.dynamics, set_, d.constraints, d.state);
    const int nv = model().nv(), n = static_cast<int>(nu_);
    d.static_balance.topRows(nv - n).leftCols(n).setZero();  // [S Jᵀ], S = 1 or [0; 1]
    d.static_balance.bottomRows(n).leftCols(n).setIdentity();
    d.static_balance.rightCols(d.constraints.J.rows()) = d.constraints.J.transpose();
    d.static_balance_solver.compute(d.static_balance);
    u = d.static_balance_solver.solve(d.tau).head(n);
  }

  /// The contacts, in the order of their rows.
  const std::vector<ContactLiedyn>& contacts() const { return contacts_; }
  /// The liedyn constraint set they make (one ConstraintSpec per contact).
  const ConstraintSet<double>& constraint_set() const { return set_; }
  /// The number of contact rows m (3 per point, 6 per rigid contact).
  std::size_t get_nc() const { return static_cast<std::size_t>(set_.dimension()); }

  /// Prints the sizes, the actuation and the contacts.
  void print(std::ostream& os) const override {
    print_sizes(os);
    os << ", contacts=";
    for (std::size_t k = 0; k < contacts_.size(); ++k)
      os << (k ? " " : "") << contacts_[k].frame << ":" << contacts_[k].dimension() << "D";
    os << "}";
  }

 private:
  // The ConstraintSpecs of the contacts (the header's mapping), each checked.
  static std::vector<ConstraintSpec<double>> specs(const Model<double>& model,
                                                   const std::vector<ContactLiedyn>& contacts) {
    const std::string who = "DifferentialActionModelContactFwdDynamicsLiedyn";
    LIEDYN_CHECK(!contacts.empty(), who + ": no contacts (use the free forward dynamics model)");
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

  std::vector<ContactLiedyn> contacts_;
  ConstraintSet<double> set_;
};

inline DifferentialActionDataContactFwdDynamicsLiedyn::
    DifferentialActionDataContactFwdDynamicsLiedyn(
        DifferentialActionModelContactFwdDynamicsLiedyn* model)
    : ActionDataLiedyn(model, DataCollectorContactLiedyn(model)),
      constraints(model->model(), model->constraint_set()),
      static_balance(MatrixX<double>::Zero(model->model().nv(),
                                           static_cast<int>(model->get_nu() + model->get_nc()))),
      static_balance_solver(static_balance.rows(), static_balance.cols()),
      df_dx(MatrixX<double>::Zero(static_cast<int>(model->get_nc()),
                                  static_cast<int>(model->get_state()->get_ndx()))),
      df_du(MatrixX<double>::Zero(static_cast<int>(model->get_nc()),
                                  static_cast<int>(model->get_nu()))) {
  shared.data = this;
}

inline Eigen::VectorBlock<const VectorX<double>>
DifferentialActionDataContactFwdDynamicsLiedyn::force(std::size_t k) const {
  LIEDYN_CHECK(k < owner->contacts().size(),
               "DifferentialActionDataContactFwdDynamicsLiedyn::force: no contact " +
                   std::to_string(k) + " (the model has " +
                   std::to_string(owner->contacts().size()) + ")");
  const Constraint<double>& c = owner->constraint_set().constraint(static_cast<int>(k));
  return constraints.lambda.segment(c.row, c.dim);
}

}  // namespace crocoddyl
}  // namespace liedyn
