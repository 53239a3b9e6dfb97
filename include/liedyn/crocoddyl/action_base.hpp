// liedyn — Crocoddyl bridge: what the bridge's differential action models share — the actuation
// map τ̄ = S u, the data members every model needs (liedyn's workspace, the state read from x, the
// cost sum's data), the terminal node (costs only), createData/checkData, the argument checks
// and Crocoddyl's casts (docs/crocoddyl.md).
//
// A model derives from ActionModelLiedyn<Model, ModelData> (CRTP: the base makes and checks the
// Model's own data type and names the Model in its messages, Model::name), implements the
// running node's calc and calcDiff, and starts them with `prepared(data, x, u, "calc")`; its
// quasiStatic starts from holding_force, g(q).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include <Eigen/Core>
#include <crocoddyl/core/costs/cost-sum.hpp>
#include <crocoddyl/core/data-collector-base.hpp>
#include <crocoddyl/core/diff-action-base.hpp>

#include "liedyn/algorithm/data.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/crocoddyl/state.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// What the control u drives: the joints only (FloatingBase, nu = nv_joints; for a welded base
/// the same as Full) or every generalized force, base wrench first (Full, nu = nv).
enum class Actuation { FloatingBase, Full };

/// The data members every bridge action model uses: Crocoddyl's outputs (xout, cost, Fx, Fu,
/// Lx, …, from the base), liedyn's workspace, x read as a liedyn state, τ̄ and the cost sum's
/// data. Made by the model's createData; usable with that model only. `Collector` is what the
/// cost residuals see besides x and u (a contact model's: its forces).
template <class ActionModel, class Collector = ::crocoddyl::DataCollectorAbstractTpl<double>>
struct ActionDataLiedyn : public ::crocoddyl::DifferentialActionDataAbstractTpl<double> {
  using Base = ::crocoddyl::DifferentialActionDataAbstractTpl<double>;
  using CostDataSum = ::crocoddyl::CostDataSumTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model`; the costs' data, made on `collector`, share Lx, Lu, Lxx, Lxu, Luu with
  /// it.
  explicit ActionDataLiedyn(ActionModel* model, Collector collector = Collector())
      : Base(static_cast<::crocoddyl::DifferentialActionModelAbstractTpl<double>*>(model)),
        owner(model),
        dynamics(model->model()),
        state(model->model()),
        tau(VectorX<double>::Zero(model->model().nv())),
        shared(std::move(collector)),
        costs(model->get_costs()->createData(&shared)) {
    costs->shareMemory(static_cast<Base*>(this));
  }

  const ActionModel* owner;            ///< the model that made it
  Data<double> dynamics;               ///< liedyn's workspace
  State<double> state;                 ///< x read as a liedyn state
  VectorX<double> tau;                 ///< τ̄ = S u (size nv, base first)
  Collector shared;                    ///< what the cost residuals see
  std::shared_ptr<CostDataSum> costs;  ///< the cost sum's data
};

/// The part of a bridge action model that does not depend on its dynamics (this header's
/// comment). `Model` derives from it and names itself in `Model::name`; `ModelData` derives from
/// ActionDataLiedyn<Model, …> and is constructible from a `Model*`.
template <class Model, class ModelData>
class ActionModelLiedyn : public ::crocoddyl::DifferentialActionModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::DifferentialActionModelAbstractTpl<double>;
  using Data = ModelData;
  using DataAbstract = ::crocoddyl::DifferentialActionDataAbstractTpl<double>;
  using CostModelSum = ::crocoddyl::CostModelSumTpl<double>;
  using VectorXs = Base::VectorXs;

  /// The terminal node: the costs at x alone (no dynamics).
  void calc(const std::shared_ptr<DataAbstract>& data,
            const Eigen::Ref<const VectorXs>& x) override {
    Data& d = cast(data, "calc");
    check_x("calc", x);
    liedyn_state_->read_state(x, d.state);
    costs_->calc(d.costs, x);
    d.cost = d.costs->cost;
  }
  using Base::calc;

  /// The terminal node: the costs' derivatives at x alone.
  void calcDiff(const std::shared_ptr<DataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x) override {
    Data& d = cast(data, "calcDiff");
    check_x("calcDiff", x);
    costs_->calcDiff(d.costs, x);
  }
  using Base::calcDiff;

  /// A data for this model (and only this one).
  std::shared_ptr<DataAbstract> createData() override {
    return std::allocate_shared<Data>(Eigen::aligned_allocator<Data>(), static_cast<Model*>(this));
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
  /// The actuation.
  Actuation actuation() const { return actuation_; }
  /// The cost sum.
  const std::shared_ptr<CostModelSum>& get_costs() const { return costs_; }

  /// τ̄ = S u (size nv, base first) into `tau`, allocating nothing when `tau` has size nv.
  template <class U>
  void generalized_force(const Eigen::MatrixBase<U>& u, VectorX<double>& tau) const {
    const int nv = model().nv(), n = static_cast<int>(nu_);
    tau.resize(nv);
    tau.head(nv - n).setZero();
    tau.tail(n) = u;
  }

  /// A copy of this model (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::DifferentialActionModelBase> cloneAsDouble() const override {
    return std::make_shared<Model>(static_cast<const Model&>(*this));
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::DifferentialActionModelBase> cloneAsFloat()
      const override {
    detail::throw_invalid_argument(std::string(Model::name) +
                                   ": casting to float is not supported");
  }

 protected:
  /// The model part for `state`, `actuation` and `costs`; throws InvalidArgument for a null
  /// state or cost sum, or costs of another control size. Eigen::initParallel runs Eigen's
  /// one-time set-up here: where Crocoddyl's multithreading compiles the user's code with
  /// OpenMP, Eigen's products would otherwise start the OpenMP runtime, which allocates, inside
  /// the first calc.
  ActionModelLiedyn(std::shared_ptr<StateLiedyn> state, Actuation actuation,
                    std::shared_ptr<CostModelSum> costs)
      : Base(state, control_size(*non_null(state, "the state"), actuation),
             non_null(costs, "the cost sum")->get_nr()),
        liedyn_state_(std::move(state)),
        actuation_(actuation),
        costs_(std::move(costs)) {
    LIEDYN_CHECK(costs_->get_nu() == nu_, std::string(Model::name) + ": the costs have nu = " +
                                              std::to_string(costs_->get_nu()) + ", expected " +
                                              std::to_string(nu_));
    Eigen::initParallel();
  }

  /// `data` as this model's data, checked (its type and its owner), x and u checked, x read
  /// into data.state and τ̄ = S u into data.tau: the start of a running node's calc and calcDiff.
  Data& prepared(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                 const Eigen::Ref<const VectorXs>& u, const char* method) const {
    Data& d = checked(data, x, u, method);
    liedyn_state_->read_state(x, d.state);
    generalized_force(u, d.tau);
    return d;
  }

  /// `data` as this model's data, checked (its type and its owner), x and u checked (their
  /// sizes).
  Data& checked(const std::shared_ptr<DataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
                const Eigen::Ref<const VectorXs>& u, const char* method) const {
    Data& d = cast(data, method);
    check_x(method, x);
    LIEDYN_CHECK(static_cast<std::size_t>(u.size()) == nu_,
                 who(method) + ": u has size " + std::to_string(u.size()) + ", expected " +
                     std::to_string(nu_));
    return d;
  }

  /// g(q) = τ̄ holding x's configuration at rest (rnea at ν̄ = 0, q̈ = 0; gravity only), into
  /// data.tau; data.state is x's configuration at rest.
  const VectorX<double>& holding_force(Data& d, const Eigen::Ref<const VectorXs>& x) const {
    liedyn_state_->read_state(x, d.state);
    d.state.nu.setZero();
    d.state.r.setZero();
    d.tau = rnea(model(), d.dynamics, d.state, VectorX<double>::Zero(model().nv()));
    return d.tau;
  }

  /// "Model {nx=…, ndx=…, nu=…, actuation=…": the start of print's line.
  void print_sizes(std::ostream& os) const {
    os << Model::name << " {nx=" << state_->get_nx() << ", ndx=" << state_->get_ndx()
       << ", nu=" << nu_
       << ", actuation=" << (actuation_ == Actuation::Full ? "full" : "floating base");
  }

 private:
  static std::string who(const char* method) { return std::string(Model::name) + "::" + method; }

  template <class T>
  static const std::shared_ptr<T>& non_null(const std::shared_ptr<T>& p, const char* what) {
    LIEDYN_CHECK(p != nullptr, std::string(Model::name) + ": " + what + " is null");
    return p;
  }
  static std::size_t control_size(const StateLiedyn& state, Actuation actuation) {
    return static_cast<std::size_t>(actuation == Actuation::Full ? state.model().nv()
                                                                 : state.model().nv_joints());
  }

  Data& cast(const std::shared_ptr<DataAbstract>& data, const char* method) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(d != nullptr, who(method) + ": data is not a " + Model::name +
                                   " data (make it with this model's createData)");
    LIEDYN_CHECK(d->owner == this, who(method) +
                                       ": data was created by another model (make it with this "
                                       "model's createData)");
    return *d;
  }
  void check_x(const char* method, const Eigen::Ref<const VectorXs>& x) const {
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == state_->get_nx(),
                 who(method) + ": x has size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(state_->get_nx()));
  }

  std::shared_ptr<StateLiedyn> liedyn_state_;
  Actuation actuation_;
  std::shared_ptr<CostModelSum> costs_;
};

}  // namespace crocoddyl
}  // namespace liedyn
