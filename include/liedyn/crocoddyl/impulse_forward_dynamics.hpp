// liedyn — Crocoddyl bridge: an impact as a Crocoddyl action model (Crocoddyl 3.2's
// ActionModelImpulseFwdDynamics, crocoddyl::ActionModelAbstractTpl<double>, no control),
// computed by liedyn's impulse kernels (docs/crocoddyl.md, algorithm/impulse_dynamics.hpp).
//
// With x = (H, s, ν⁻, r⁻) in StateLiedyn's layout (state.hpp) and restitution e, the contacts
// (contacts.hpp; their kind, frame and sense: gains and targets play no part in an impact)
// receive the impulses Λ that make their velocity −e times the one before:
//
//   M (v⁺ − v⁻) = Jᵀ Λ,     J v⁺ = −e J v⁻                       (m rows, impulse_dynamics)
//
//   xnext = (H, s, v⁺)                                the configuration does not jump
//   Fx = [ 1  0 ; ∂v⁺/∂x ]  (ndx × ndx)               (impulse_dynamics_derivatives, body twist:
//   df_dx = ∂Λ/∂x  (m × ndx)                           StateLiedyn's tangent)
//
// Λ (data.constraints.impulse) is Crocoddyl's impulse_c: what the environment applies on the
// robot during the impact, per contact in its sense. The costs are a CostModelSum with nu = 0
// on the same state; their residuals also see Λ and ∂Λ/∂x through DataCollectorContactLiedyn
// (the contact residuals of residual_contact_force.hpp, as Crocoddyl's DataCollectorImpulse).
// The terminal node computes the impact too (nothing in it depends on a control), as
// Crocoddyl's. Joint armature is the liedyn model's, as in the other models.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <crocoddyl/core/action-base.hpp>
#include <crocoddyl/core/costs/cost-sum.hpp>

#include "liedyn/algorithm/data.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"
#include "liedyn/algorithm/impulse_dynamics_derivatives.hpp"
#include "liedyn/config.hpp"
#include "liedyn/crocoddyl/contacts.hpp"
#include "liedyn/crocoddyl/state.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace crocoddyl {

class ActionModelImpulseFwdDynamicsLiedyn;

/// The data of ActionModelImpulseFwdDynamicsLiedyn: Crocoddyl's outputs (xnext, cost, Fx, Lx, …,
/// from the base), liedyn's workspace, x read as a liedyn state, the impulses and their
/// derivatives, the cost sum's data. Made by the model's createData; usable with that model only.
struct ActionDataImpulseFwdDynamicsLiedyn : public ::crocoddyl::ActionDataAbstractTpl<double> {
  using Base = ::crocoddyl::ActionDataAbstractTpl<double>;
  using CostDataSum = ::crocoddyl::CostDataSumTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model`; the costs' data, made on `shared`, share Lx, Lxx with it.
  explicit ActionDataImpulseFwdDynamicsLiedyn(ActionModelImpulseFwdDynamicsLiedyn* model);

  /// Contact k's impulse on the robot, in its sense (3 or 6 entries, force first): after calc.
  Eigen::VectorBlock<const VectorX<double>> impulse(std::size_t k) const;

  const ActionModelImpulseFwdDynamicsLiedyn* owner;  ///< the model that made it
  Data<double> dynamics;                             ///< liedyn's workspace
  State<double> state;                               ///< x read as a liedyn state
  ConstraintData<double> constraints;  ///< J, Λ (.impulse), v⁺ (.v_after), their derivatives
  MatrixX<double> df_dx;               ///< ∂Λ/∂dx (m × ndx), after calcDiff
  MatrixX<double> df_du;               ///< m × 0: no control
  DataCollectorContactLiedyn shared;   ///< what the cost residuals see: Λ, ∂Λ/∂dx
  std::shared_ptr<CostDataSum> costs;  ///< the cost sum's data
};

/// An impact of a liedyn model on contacts, with a Crocoddyl cost sum, on StateLiedyn (this
/// header's comment: xnext, Fx, df_dx). double only.
class ActionModelImpulseFwdDynamicsLiedyn : public ::crocoddyl::ActionModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::ActionModelAbstractTpl<double>;
  using Data = ActionDataImpulseFwdDynamicsLiedyn;
  using DataAbstract = ::crocoddyl::ActionDataAbstractTpl<double>;
  using CostModelSum = ::crocoddyl::CostModelSumTpl<double>;
  using VectorXs = Base::VectorXs;

  /// The class's name, in messages.
  static constexpr const char* name = "ActionModelImpulseFwdDynamicsLiedyn";

  /// The impact of `state`'s model on `contacts` (rows stacked in their order) with restitution
  /// e ∈ [0, 1] (Crocoddyl's r_coeff), with the cost sum `costs` (nu = 0). Throws
  /// InvalidArgument for a null state or cost sum, costs with controls, e outside [0, 1], and
  /// as the contact model for the contacts (contacts.hpp).
  ActionModelImpulseFwdDynamicsLiedyn(std::shared_ptr<StateLiedyn> state,
                                      std::vector<ContactLiedyn> contacts,
                                      std::shared_ptr<CostModelSum> costs, double restitution = 0.0)
      : Base(non_null(state, "the state"), 0, non_null(costs, "the cost sum")->get_nr()),
        liedyn_state_(std::move(state)),
        contacts_(std::move(contacts)),
        set_(model(), contact_constraint_specs(model(), contacts_, name)),
        costs_(std::move(costs)),
        restitution_(restitution) {
    LIEDYN_CHECK(costs_->get_nu() == 0, std::string(name) + ": the costs have nu = " +
                                            std::to_string(costs_->get_nu()) + ", expected 0");
    LIEDYN_CHECK(restitution_ >= 0.0 && restitution_ <= 1.0,
                 std::string(name) + ": the restitution must lie in [0, 1]");
    Eigen::initParallel();  // as in ActionModelLiedyn's constructor (action_base.hpp)
  }

  /// xnext = (H, s, v⁺) and Λ by liedyn's impulse_dynamics, then the costs at x. u must be
  /// empty. Throws ConstraintError if the contact Jacobian is rank deficient.
  void calc(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>& u) override {
    Data& d = impact(data, x, u, "calc");
    costs_->calc(d.costs, x, u);
    d.cost = d.costs->cost;
  }
  /// The terminal node: the same, with the costs at x alone.
  void calc(const std::shared_ptr<DataAbstract>& data,
            const Eigen::Ref<const VectorXs>& x) override {
    Data& d = impact(data, x, VectorXs(), "calc");
    costs_->calc(d.costs, x);
    d.cost = d.costs->cost;
  }

  /// Fx and df_dx by liedyn's impulse_dynamics_derivatives (exact, body twist), then the costs'
  /// derivatives. Computes everything it needs from x (xnext and Λ included).
  void calcDiff(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                const Eigen::Ref<const VectorXs>& u) override {
    Data& d = impact_derivatives(data, x, u, "calcDiff");
    costs_->calcDiff(d.costs, x, u);
  }
  /// The terminal node: the same, with the costs at x alone.
  void calcDiff(const std::shared_ptr<DataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x) override {
    Data& d = impact_derivatives(data, x, VectorXs(), "calcDiff");
    costs_->calcDiff(d.costs, x);
  }

  /// A data for this model (and only this one).
  std::shared_ptr<DataAbstract> createData() override {
    return std::allocate_shared<Data>(Eigen::aligned_allocator<Data>(), this);
  }
  /// Whether `data` was made by this model's createData.
  bool checkData(const std::shared_ptr<DataAbstract>& data) override {
    const Data* d = dynamic_cast<const Data*>(data.get());
    return d != nullptr && d->owner == this;
  }

  /// The liedyn model.
  const liedyn::Model<double>& model() const { return liedyn_state_->model(); }
  /// The state, as StateLiedyn.
  const std::shared_ptr<StateLiedyn>& liedyn_state() const { return liedyn_state_; }
  /// The contacts, in the order of their rows.
  const std::vector<ContactLiedyn>& contacts() const { return contacts_; }
  /// The liedyn constraint set they make.
  const ConstraintSet<double>& constraint_set() const { return set_; }
  /// The number of contact rows m (3 per point, 6 per rigid contact).
  std::size_t get_nc() const { return static_cast<std::size_t>(set_.dimension()); }
  /// The restitution e (Crocoddyl's r_coeff).
  double get_restitution() const { return restitution_; }
  /// The cost sum.
  const std::shared_ptr<CostModelSum>& get_costs() const { return costs_; }

  /// A copy of this model (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::ActionModelBase> cloneAsDouble() const override {
    return std::make_shared<ActionModelImpulseFwdDynamicsLiedyn>(*this);
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::ActionModelBase> cloneAsFloat() const override {
    detail::throw_invalid_argument(std::string(name) + ": casting to float is not supported");
  }

  /// Prints the sizes, the restitution and the contacts.
  void print(std::ostream& os) const override {
    os << name << " {nx=" << state_->get_nx() << ", ndx=" << state_->get_ndx()
       << ", restitution=" << restitution_ << ", contacts=";
    for (std::size_t k = 0; k < contacts_.size(); ++k)
      os << (k ? " " : "") << contacts_[k].frame << ":" << contacts_[k].dimension() << "D";
    os << "}";
  }

 private:
  static std::string who(const char* method) { return std::string(name) + "::" + method; }

  template <class T>
  static const std::shared_ptr<T>& non_null(const std::shared_ptr<T>& p, const char* what) {
    LIEDYN_CHECK(p != nullptr, std::string(name) + ": " + what + " is null");
    return p;
  }

  // `data` as this model's data (type and owner checked), x and u checked, x read into
  // data.state.
  Data& read(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
             const Eigen::Ref<const VectorXs>& u, const char* method) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(d != nullptr, who(method) + ": data is not a " + name +
                                   " data (make it with this model's createData)");
    LIEDYN_CHECK(d->owner == this, who(method) +
                                       ": data was created by another model (make it with this "
                                       "model's createData)");
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == state_->get_nx(),
                 who(method) + ": x has size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(state_->get_nx()));
    LIEDYN_CHECK(u.size() == 0, who(method) + ": u has size " + std::to_string(u.size()) +
                                    ", expected 0 (an impact has no control)");
    liedyn_state_->read_state(x, d->state);
    return *d;
  }

  // xnext = (x's configuration, v⁺) once cd.v_after holds v⁺.
  void write_next_state(Data& d, const Eigen::Ref<const VectorXs>& x) const {
    const int nq = static_cast<int>(state_->get_nq()), nv = model().nv();
    d.xnext.head(nq) = x.head(nq);
    d.xnext.tail(nv) = d.constraints.v_after;
  }

  Data& impact(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
               const Eigen::Ref<const VectorXs>& u, const char* method) const {
    Data& d = read(data, x, u, method);
    impulse_dynamics(model(), d.dynamics, set_, d.constraints, d.state, restitution_);
    write_next_state(d, x);
    return d;
  }

  Data& impact_derivatives(const std::shared_ptr<DataAbstract>& data,
                           const Eigen::Ref<const VectorXs>& x, const Eigen::Ref<const VectorXs>& u,
                           const char* method) const {
    Data& d = read(data, x, u, method);
    ConstraintData<double>& cd = d.constraints;
    impulse_dynamics_derivatives(model(), d.dynamics, set_, cd, d.state, restitution_,
                                 TwistRepresentation::Body);
    write_next_state(d, x);
    const int nv = model().nv();
    d.Fx.topLeftCorner(nv, nv).setIdentity();  // the configuration does not jump
    d.Fx.topRightCorner(nv, nv).setZero();
    d.Fx.bottomRows(nv) = cd.v_after_dx;
    d.df_dx = cd.impulse_dx;
    return d;
  }

  std::shared_ptr<StateLiedyn> liedyn_state_;
  std::vector<ContactLiedyn> contacts_;
  ConstraintSet<double> set_;
  std::shared_ptr<CostModelSum> costs_;
  double restitution_;
};

inline ActionDataImpulseFwdDynamicsLiedyn::ActionDataImpulseFwdDynamicsLiedyn(
    ActionModelImpulseFwdDynamicsLiedyn* model)
    : Base(static_cast<::crocoddyl::ActionModelAbstractTpl<double>*>(model)),
      owner(model),
      dynamics(model->model()),
      state(model->model()),
      constraints(model->model(), model->constraint_set()),
      df_dx(MatrixX<double>::Zero(static_cast<int>(model->get_nc()),
                                  static_cast<int>(model->get_state()->get_ndx()))),
      df_du(MatrixX<double>::Zero(static_cast<int>(model->get_nc()), 0)),
      shared(model->contacts(), model->constraint_set()) {
  shared.forces = &constraints.impulse;
  shared.df_dx = &df_dx;
  shared.df_du = &df_du;
  costs = model->get_costs()->createData(&shared);
  costs->shareMemory(static_cast<Base*>(this));
}

inline Eigen::VectorBlock<const VectorX<double>> ActionDataImpulseFwdDynamicsLiedyn::impulse(
    std::size_t k) const {
  LIEDYN_CHECK(k < owner->contacts().size(),
               "ActionDataImpulseFwdDynamicsLiedyn::impulse: no contact " + std::to_string(k) +
                   " (the model has " + std::to_string(owner->contacts().size()) + ")");
  const Constraint<double>& c = owner->constraint_set().constraint(static_cast<int>(k));
  return constraints.impulse.segment(c.row, c.dim);
}

}  // namespace crocoddyl
}  // namespace liedyn
