// liedyn — Crocoddyl bridge: free forward dynamics as a Crocoddyl differential action model
// (crocoddyl::DifferentialActionModelAbstractTpl<double>, Crocoddyl 3.2), computed by liedyn's
// kernels (docs/crocoddyl.md).
//
// With x = (H, s, ν, r) in StateLiedyn's layout (state.hpp) and the control u:
//
//   τ̄ = S u,   xout = [ν̇; ṙ] = FD(x, τ̄) = M⁻¹ (τ̄ − h)          (aba.hpp)
//   Fx = ∂xout/∂dx  (nv × 2nv),  Fu = M⁻¹ S  (nv × nu)          (linearization.hpp, Body twist)
//
// ν̇ is the body acceleration ^0 a_{A,0} (the time derivative of ν), base first, then the
// joints in liedyn's order (docs/conventions.md §2); dx is StateLiedyn's tangent (η on the
// right, δν the body twist), so Fx is the bottom nv rows of the body linearization A of
// docs/conventions.md §4 — Pinocchio's [ddq_dq ddq_dv] up to the joint permutation (§7). S is
// [0; 1_n] (Actuation::FloatingBase: the base is not actuated, u = the joints' generalized
// forces) or 1 (Actuation::Full: u = [base wrench in the base frame, force first; joints]).
// Joint armature is the liedyn model's (JointSpec::with_armature, MJCF armature): aba and
// linearize add it to M's diagonal.
//
// The cost is a Crocoddyl CostModelSum over the same state (its residuals see a
// DataCollectorAbstract: residuals that need only the state and the control, such as
// ResidualModelState — use ResidualModelStateLiedyn, residual_state.hpp — and
// ResidualModelControl). Its Lx, Lu, Lxx, Lxu, Luu share the action data's memory.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include <crocoddyl/core/costs/cost-sum.hpp>
#include <crocoddyl/core/data-collector-base.hpp>
#include <crocoddyl/core/diff-action-base.hpp>

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/crocoddyl/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// What the control u drives: the joints only (FloatingBase, nu = nv_joints; for a welded base
/// the same as Full) or every generalized force, base wrench first (Full, nu = nv).
enum class Actuation { FloatingBase, Full };

class DifferentialActionModelFreeFwdDynamicsLiedyn;

/// The data of DifferentialActionModelFreeFwdDynamicsLiedyn: Crocoddyl's outputs (xout, cost,
/// Fx, Fu, Lx, …) and liedyn's workspace. Made by the model's createData; usable with that model
/// only.
struct DifferentialActionDataFreeFwdDynamicsLiedyn
    : public ::crocoddyl::DifferentialActionDataAbstractTpl<double> {
  using Base = ::crocoddyl::DifferentialActionDataAbstractTpl<double>;
  using CostDataSum = ::crocoddyl::CostDataSumTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// The data of `model`, sized for it; the costs' data share Lx, Lu, Lxx, Lxu, Luu with it.
  explicit DifferentialActionDataFreeFwdDynamicsLiedyn(
      DifferentialActionModelFreeFwdDynamicsLiedyn* model);

  const DifferentialActionModelFreeFwdDynamicsLiedyn* owner;  ///< the model that made it
  Data<double> dynamics;                                 ///< liedyn's workspace (aba, linearize)
  State<double> state;                                   ///< x read as a liedyn state
  VectorX<double> tau;                                   ///< τ̄ = S u (size nv, base first)
  ::crocoddyl::DataCollectorAbstractTpl<double> shared;  ///< what the cost residuals see
  std::shared_ptr<CostDataSum> costs;                    ///< the cost sum's data
};

/// Free forward dynamics of a liedyn model with a Crocoddyl cost sum, on StateLiedyn (this
/// header's comment: xout, Fx, Fu, the actuation). double only: casting to another scalar
/// throws.
class DifferentialActionModelFreeFwdDynamicsLiedyn
    : public ::crocoddyl::DifferentialActionModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::DifferentialActionModelAbstractTpl<double>;
  using Data = DifferentialActionDataFreeFwdDynamicsLiedyn;
  using DataAbstract = ::crocoddyl::DifferentialActionDataAbstractTpl<double>;
  using CostModelSum = ::crocoddyl::CostModelSumTpl<double>;
  using VectorXs = Base::VectorXs;

  /// The dynamics of `state`'s model driven as `actuation` says, with the cost sum `costs`
  /// (whose control size must be this model's nu).
  DifferentialActionModelFreeFwdDynamicsLiedyn(std::shared_ptr<StateLiedyn> state,
                                               Actuation actuation,
                                               std::shared_ptr<CostModelSum> costs)
      : Base(checked_state(state), control_size(*state, actuation), checked_costs(costs)->get_nr()),
        liedyn_state_(std::move(state)),
        actuation_(actuation),
        costs_(std::move(costs)) {
    LIEDYN_CHECK(costs_->get_nu() == nu_,
                 "DifferentialActionModelFreeFwdDynamicsLiedyn: the costs have nu = " +
                     std::to_string(costs_->get_nu()) + ", expected " + std::to_string(nu_));
  }

  /// xout = FD(x, S u) by liedyn's aba, then the costs at (x, u).
  void calc(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>& u) override {
    Data& d = cast(data, "DifferentialActionModelFreeFwdDynamicsLiedyn::calc");
    check_x("DifferentialActionModelFreeFwdDynamicsLiedyn::calc", x);
    check_u("DifferentialActionModelFreeFwdDynamicsLiedyn::calc", u);
    prepare(d, x, u);
    d.xout = aba(model(), d.dynamics, d.state, d.tau);
    costs_->calc(d.costs, x, u);
    d.cost = d.costs->cost;
  }

  /// The terminal node: the costs at x alone (no dynamics).
  void calc(const std::shared_ptr<DataAbstract>& data,
            const Eigen::Ref<const VectorXs>& x) override {
    Data& d = cast(data, "DifferentialActionModelFreeFwdDynamicsLiedyn::calc");
    check_x("DifferentialActionModelFreeFwdDynamicsLiedyn::calc", x);
    liedyn_state_->read_state(x, d.state);
    costs_->calc(d.costs, x);
    d.cost = d.costs->cost;
  }

  /// Fx (nv × 2nv) and Fu = M⁻¹ S (nv × nu) by liedyn's linearize (exact derivatives,
  /// docs/conventions.md §4, body twist), then the costs' derivatives at (x, u). Computes
  /// everything it needs from (x, u): calc need not have run.
  void calcDiff(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                const Eigen::Ref<const VectorXs>& u) override {
    Data& d = cast(data, "DifferentialActionModelFreeFwdDynamicsLiedyn::calcDiff");
    check_x("DifferentialActionModelFreeFwdDynamicsLiedyn::calcDiff", x);
    check_u("DifferentialActionModelFreeFwdDynamicsLiedyn::calcDiff", u);
    prepare(d, x, u);
    linearize(model(), d.dynamics, d.state, d.tau);
    const int nv = model().nv();
    d.Fx = d.dynamics.A.bottomRows(nv);
    if (nu_ == static_cast<std::size_t>(nv)) d.Fu = d.dynamics.B.bottomRows(nv);
    else d.Fu = d.dynamics.B.bottomRightCorner(nv, static_cast<int>(nu_));
    costs_->calcDiff(d.costs, x, u);
  }

  /// The terminal node: the costs' derivatives at x alone.
  void calcDiff(const std::shared_ptr<DataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x) override {
    Data& d = cast(data, "DifferentialActionModelFreeFwdDynamicsLiedyn::calcDiff");
    check_x("DifferentialActionModelFreeFwdDynamicsLiedyn::calcDiff", x);
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
  const Model<double>& model() const { return liedyn_state_->model(); }
  /// The state, as StateLiedyn.
  const std::shared_ptr<StateLiedyn>& liedyn_state() const { return liedyn_state_; }
  /// The actuation.
  Actuation actuation() const { return actuation_; }
  /// The cost sum.
  const std::shared_ptr<CostModelSum>& get_costs() const { return costs_; }

  /// τ̄ = S u (size nv, base first) into `tau`.
  template <class U>
  void generalized_force(const Eigen::MatrixBase<U>& u, VectorX<double>& tau) const {
    const int nv = model().nv();
    tau.resize(nv);
    if (nu_ == static_cast<std::size_t>(nv)) {
      tau = u;
    } else {
      tau.head(nv - static_cast<int>(nu_)).setZero();
      tau.tail(static_cast<int>(nu_)) = u;
    }
  }

  /// A copy of this model (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::DifferentialActionModelBase> cloneAsDouble() const override {
    return std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(*this);
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::DifferentialActionModelBase> cloneAsFloat()
      const override {
    detail::throw_invalid_argument(
        "DifferentialActionModelFreeFwdDynamicsLiedyn: casting to float is not supported");
  }

  /// Prints the sizes, the actuation and the costs.
  void print(std::ostream& os) const override {
    os << "DifferentialActionModelFreeFwdDynamicsLiedyn {nx=" << state_->get_nx()
       << ", ndx=" << state_->get_ndx() << ", nu=" << nu_
       << ", actuation=" << (actuation_ == Actuation::Full ? "full" : "floating base") << "}";
  }

 private:
  static const std::shared_ptr<StateLiedyn>& checked_state(
      const std::shared_ptr<StateLiedyn>& state) {
    LIEDYN_CHECK(state != nullptr,
                 "DifferentialActionModelFreeFwdDynamicsLiedyn: the state is null");
    return state;
  }
  static const std::shared_ptr<CostModelSum>& checked_costs(
      const std::shared_ptr<CostModelSum>& costs) {
    LIEDYN_CHECK(costs != nullptr,
                 "DifferentialActionModelFreeFwdDynamicsLiedyn: the costs are null");
    return costs;
  }
  static std::size_t control_size(const StateLiedyn& state, Actuation actuation) {
    return static_cast<std::size_t>(actuation == Actuation::Full ? state.model().nv()
                                                                 : state.model().nv_joints());
  }

  Data& cast(const std::shared_ptr<DataAbstract>& data, const char* who) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(d != nullptr, std::string(who) +
                                   ": data is not a DifferentialActionDataFreeFwdDynamicsLiedyn "
                                   "(make it with this model's createData)");
    LIEDYN_CHECK(d->owner == this, std::string(who) +
                                       ": data was created by another model (make it with this "
                                       "model's createData)");
    return *d;
  }
  void check_x(const char* who, const Eigen::Ref<const VectorXs>& x) const {
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == state_->get_nx(),
                 std::string(who) + ": x has size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(state_->get_nx()));
  }
  void check_u(const char* who, const Eigen::Ref<const VectorXs>& u) const {
    LIEDYN_CHECK(static_cast<std::size_t>(u.size()) == nu_,
                 std::string(who) + ": u has size " + std::to_string(u.size()) + ", expected " +
                     std::to_string(nu_));
  }
  void prepare(Data& d, const Eigen::Ref<const VectorXs>& x,
               const Eigen::Ref<const VectorXs>& u) const {
    liedyn_state_->read_state(x, d.state);
    generalized_force(u, d.tau);
  }

  std::shared_ptr<StateLiedyn> liedyn_state_;
  Actuation actuation_;
  std::shared_ptr<CostModelSum> costs_;
};

inline DifferentialActionDataFreeFwdDynamicsLiedyn::DifferentialActionDataFreeFwdDynamicsLiedyn(
    DifferentialActionModelFreeFwdDynamicsLiedyn* model)
    : Base(static_cast<::crocoddyl::DifferentialActionModelAbstractTpl<double>*>(model)),
      owner(model),
      dynamics(model->model()),
      state(model->model()),
      tau(VectorX<double>::Zero(model->model().nv())),
      costs(model->get_costs()->createData(&shared)) {
  costs->shareMemory(static_cast<Base*>(this));
}

}  // namespace crocoddyl
}  // namespace liedyn
