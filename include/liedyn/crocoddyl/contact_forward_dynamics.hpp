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
// The contacts are ContactLiedyn's (contacts.hpp: frames, kinds, senses, the sign of λ).
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
// DataCollectorContactLiedyn (contacts.hpp; the contact residuals of residual_contact_force.hpp).
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
#include "liedyn/crocoddyl/contacts.hpp"
#include "liedyn/crocoddyl/state.hpp"
#include "liedyn/model/constraint.hpp"

namespace liedyn {
namespace crocoddyl {

class DifferentialActionModelContactFwdDynamicsLiedyn;

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
        set_(model(), contact_constraint_specs(model(), contacts_, name)) {}

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
  std::vector<ContactLiedyn> contacts_;
  ConstraintSet<double> set_;
};

inline DifferentialActionDataContactFwdDynamicsLiedyn::
    DifferentialActionDataContactFwdDynamicsLiedyn(
        DifferentialActionModelContactFwdDynamicsLiedyn* model)
    : ActionDataLiedyn(model,
                       DataCollectorContactLiedyn(model->contacts(), model->constraint_set())),
      constraints(model->model(), model->constraint_set()),
      static_balance(MatrixX<double>::Zero(model->model().nv(),
                                           static_cast<int>(model->get_nu() + model->get_nc()))),
      static_balance_solver(static_balance.rows(), static_balance.cols()),
      df_dx(MatrixX<double>::Zero(static_cast<int>(model->get_nc()),
                                  static_cast<int>(model->get_state()->get_ndx()))),
      df_du(MatrixX<double>::Zero(static_cast<int>(model->get_nc()),
                                  static_cast<int>(model->get_nu()))) {
  shared.forces = &constraints.lambda;
  shared.df_dx = &df_dx;
  shared.df_du = &df_du;
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
