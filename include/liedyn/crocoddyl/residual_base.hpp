// liedyn — Crocoddyl bridge: what the bridge's kinematic residuals share (docs/crocoddyl.md).
//
// Crocoddyl's own frame and centre-of-mass residuals read Pinocchio's data from a
// DataCollectorMultibody filled by Crocoddyl's action models. The bridge's residuals compute
// what they need from x in their own data instead — liedyn's kinematics workspace and x read as
// a liedyn state — so that they work in any cost sum on StateLiedyn, free or contact, and
// allocate nothing. Their Jacobians are along StateLiedyn's tangent (η on the right of the base
// pose, each joint on its own group, velocities as twists); in Crocoddyl's coordinates
// Rx_pin = Rx Tᵀ (docs/crocoddyl.md, "Layout of x and dx").
//
// A residual derives from ResidualLiedyn<Residual, ResidualData> (CRTP: the base makes and
// checks the residual's own data type and names it in messages, Residual::name) and provides
// `value(data)` (r from data.state) and `jacobian(data)` (Rx from data.state); the base reads x
// into data.state first. None of them depends on u: Ru stays 0.
#pragma once

#include <memory>
#include <string>

#include <Eigen/Core>
#include <crocoddyl/core/residual-base.hpp>

#include "liedyn/algorithm/data.hpp"
#include "liedyn/config.hpp"
#include "liedyn/crocoddyl/state.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// What a residual's r depends on: the configuration q only, or the whole state (q, v).
enum class ResidualDependence { configuration, state };

/// The data members every bridge residual uses: Crocoddyl's r, Rx, Ru (from the base), liedyn's
/// kinematics workspace and x read as a liedyn state. Made by the residual's createData; usable
/// with that residual only.
template <class Residual>
struct ResidualDataLiedyn : public ::crocoddyl::ResidualDataAbstractTpl<double> {
  using Base = ::crocoddyl::ResidualDataAbstractTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model` (r: nr, Rx: nr × ndx) with a liedyn Data of its model.
  ResidualDataLiedyn(Residual* model, DataCollectorAbstract* data)
      : Base(static_cast<::crocoddyl::ResidualModelAbstractTpl<double>*>(model), data),
        owner(model),
        workspace(model->model()),
        state(model->model()) {}

  const Residual* owner;   ///< the residual that made it
  Data<double> workspace;  ///< liedyn's workspace (poses, twists, Jacobians)
  State<double> state;     ///< x read as a liedyn state
};

/// The data of a residual on one frame: ResidualDataLiedyn's members and the frame's Jacobian.
template <class Residual>
struct FrameResidualDataLiedyn : public ResidualDataLiedyn<Residual> {
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
  /// Sized for `model`, J 6 × nv.
  FrameResidualDataLiedyn(Residual* model, ::crocoddyl::DataCollectorAbstractTpl<double>* data)
      : ResidualDataLiedyn<Residual>(model, data),
        J(Matrix6X<double>::Zero(6, model->model().nv())) {}

  Matrix6X<double> J;  ///< the frame's Jacobian (6 × nv, linear rows first), in calcDiff
};

/// The part of a bridge residual that does not depend on what it measures (this header's
/// comment). `Residual` derives from it, names itself in `Residual::name` and provides
/// value(ResidualData&) and jacobian(ResidualData&).
template <class Residual, class ResidualData>
class ResidualLiedyn : public ::crocoddyl::ResidualModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::ResidualModelAbstractTpl<double>;
  using Data = ResidualData;
  using VectorXs = Base::VectorXs;

  /// r at (x, u) (u plays no part).
  void calc(const std::shared_ptr<ResidualDataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>&) override {
    derived().value(read(data, x, "calc"));
  }
  /// r at a terminal node (no control).
  void calc(const std::shared_ptr<ResidualDataAbstract>& data,
            const Eigen::Ref<const VectorXs>& x) override {
    derived().value(read(data, x, "calc"));
  }
  /// Rx at (x, u); Ru = 0.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x, const Eigen::Ref<const VectorXs>&) override {
    derived().jacobian(read(data, x, "calcDiff"));
  }
  /// Rx at a terminal node.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x) override {
    derived().jacobian(read(data, x, "calcDiff"));
  }

  /// A data for this residual (Crocoddyl's createData).
  std::shared_ptr<ResidualDataAbstract> createData(DataCollectorAbstract* const data) override {
    return std::allocate_shared<Data>(Eigen::aligned_allocator<Data>(),
                                      static_cast<Residual*>(this), data);
  }

  /// The liedyn model.
  const Model<double>& model() const { return liedyn_state_->model(); }
  /// The state, as StateLiedyn.
  const std::shared_ptr<StateLiedyn>& liedyn_state() const { return liedyn_state_; }

  /// A copy of this residual (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsDouble() const override {
    return std::make_shared<Residual>(static_cast<const Residual&>(*this));
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsFloat() const override {
    detail::throw_invalid_argument(std::string(Residual::name) +
                                   ": casting to float is not supported");
  }

 protected:
  /// The part for `state` (InvalidArgument if null), nr rows, controls of size nu, r a
  /// function of the configuration or of the whole state. Eigen::initParallel: as in
  /// ActionModelLiedyn's constructor (action_base.hpp), the OpenMP runtime starts here.
  ResidualLiedyn(std::shared_ptr<StateLiedyn> state, std::size_t nr, std::size_t nu,
                 ResidualDependence dependence)
      : Base(checked(state), nr, nu, /*q_dependent=*/true,
             /*v_dependent=*/dependence == ResidualDependence::state, /*u_dependent=*/false),
        liedyn_state_(std::move(state)) {
    Eigen::initParallel();
  }

  /// The index of the liedyn model's frame named `frame` (InvalidArgument naming it if absent).
  int frame_index(const std::string& frame) const {
    return model().require_frame_id(frame, Residual::name);
  }

 private:
  Residual& derived() { return static_cast<Residual&>(*this); }
  static std::string who(const char* method) { return std::string(Residual::name) + "::" + method; }

  static const std::shared_ptr<StateLiedyn>& checked(const std::shared_ptr<StateLiedyn>& state) {
    LIEDYN_CHECK(state != nullptr, std::string(Residual::name) + ": the state is null");
    return state;
  }

  // `data` as this residual's data (its type and owner checked), x checked and read into
  // data.state.
  Data& read(const std::shared_ptr<ResidualDataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
             const char* method) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(
        d != nullptr && d->owner == this,
        who(method) + ": data was not created by this residual (make it with its createData)");
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == state_->get_nx(),
                 who(method) + ": x has size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(state_->get_nx()));
    liedyn_state_->read_state(x, d->state);
    return *d;
  }

  std::shared_ptr<StateLiedyn> liedyn_state_;
};

}  // namespace crocoddyl
}  // namespace liedyn
