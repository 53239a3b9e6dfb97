// liedyn — Crocoddyl bridge: the translation of a frame as a Crocoddyl residual
// (Crocoddyl 3.2's ResidualModelFrameTranslation), on liedyn's kinematics (docs/crocoddyl.md).
//
//   r  = p_F(q) − p*                       (3; p_F the frame's origin in A, p* the reference)
//   Rx = [ J_F,lin  0 ]                    (3 × ndx)
//
// J_F,lin is the linear block of the frame's Jacobian in the mixed sense (frame_jacobian,
// TwistRepresentation::Mixed): ṗ_F = J_F,lin ν̄. Along StateLiedyn's tangent (η on the right of
// the base pose, each joint on its own group, velocities as twists) that is also ∂p_F/∂δq, so
// Rx is exact; r does not depend on v or u. Crocoddyl's own residual reads the frame from
// Pinocchio's data in its DataCollectorMultibody; this one computes the poses itself (forward
// kinematics in calc, the support chain's Jacobian in calcDiff) from x, so it works in any cost
// sum on StateLiedyn (the bridge's action models hand their residuals a DataCollectorAbstract).
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include <crocoddyl/core/residual-base.hpp>

#include "liedyn/algorithm/kinematics.hpp"
#include "liedyn/config.hpp"
#include "liedyn/crocoddyl/state.hpp"

namespace liedyn {
namespace crocoddyl {

class ResidualModelFrameTranslationLiedyn;

/// The data of ResidualModelFrameTranslationLiedyn: Crocoddyl's r, Rx, Ru and liedyn's
/// kinematics workspace.
struct ResidualDataFrameTranslationLiedyn : public ::crocoddyl::ResidualDataAbstractTpl<double> {
  using Base = ::crocoddyl::ResidualDataAbstractTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model` (r: 3, Rx: 3 × ndx) with a liedyn Data of its model.
  ResidualDataFrameTranslationLiedyn(ResidualModelFrameTranslationLiedyn* model,
                                     DataCollectorAbstract* data);

  const ResidualModelFrameTranslationLiedyn* owner;  ///< the model that made it
  Data<double> kinematics;                           ///< poses (H_world)
  State<double> state;                               ///< x read as a liedyn state
  Matrix6X<double> J;                                ///< the frame's Jacobian, mixed (6 × nv)
};

/// r = p_F(q) − p* for the liedyn model frame `frame` (this header's comment). double only.
class ResidualModelFrameTranslationLiedyn : public ::crocoddyl::ResidualModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::ResidualModelAbstractTpl<double>;
  using Data = ResidualDataFrameTranslationLiedyn;
  using VectorXs = Base::VectorXs;

  /// The residual of frame `frame` (a name of the liedyn model) against `xref` (p* in A), for
  /// controls of size nu. Throws InvalidArgument for an unknown frame.
  ResidualModelFrameTranslationLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                      const Eigen::Vector3d& xref, std::size_t nu)
      : Base(checked(state), 3, nu, /*q_dependent=*/true, /*v_dependent=*/false,
             /*u_dependent=*/false),
        liedyn_state_(std::move(state)),
        frame_name_(frame),
        frame_id_(
            liedyn_state_->model().require_frame_id(frame, "ResidualModelFrameTranslationLiedyn")),
        xref_(xref) {}

  /// r = p_F − p*.
  void calc(const std::shared_ptr<ResidualDataAbstract>& data, const Eigen::Ref<const VectorXs>& x,
            const Eigen::Ref<const VectorXs>&) override {
    compute(data, x);
  }
  /// r = p_F − p* at a terminal node (no control).
  void calc(const std::shared_ptr<ResidualDataAbstract>& data,
            const Eigen::Ref<const VectorXs>& x) override {
    compute(data, x);
  }

  /// Rx = [J_F,lin 0] (mixed sense), Ru = 0.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x, const Eigen::Ref<const VectorXs>&) override {
    compute_diff(data, x);
  }
  /// Rx = [J_F,lin 0] (mixed sense) at a terminal node.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>& x) override {
    compute_diff(data, x);
  }

  /// A data for this residual (Crocoddyl's createData).
  std::shared_ptr<ResidualDataAbstract> createData(DataCollectorAbstract* const data) override {
    return std::allocate_shared<Data>(Eigen::aligned_allocator<Data>(), this, data);
  }

  /// The liedyn model.
  const Model<double>& model() const { return liedyn_state_->model(); }
  /// The frame's name and index in the liedyn model.
  const std::string& frame_name() const { return frame_name_; }
  /// The frame's index in the liedyn model.
  int frame_id() const { return frame_id_; }
  /// p*, the target position of the frame origin in the inertial frame A.
  const Eigen::Vector3d& get_reference() const { return xref_; }
  /// Sets p* (in the inertial frame A).
  void set_reference(const Eigen::Vector3d& xref) { xref_ = xref; }

  /// A copy of this residual (Crocoddyl's cast to double).
  std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsDouble() const override {
    return std::make_shared<ResidualModelFrameTranslationLiedyn>(*this);
  }
  /// Throws: the bridge is double only (Crocoddyl's cast to float).
  [[noreturn]] std::shared_ptr<::crocoddyl::ResidualModelBase> cloneAsFloat() const override {
    detail::throw_invalid_argument(
        "ResidualModelFrameTranslationLiedyn: casting to float is not supported");
  }

  /// Crocoddyl's description line: the frame and p*.
  void print(std::ostream& os) const override {
    os << "ResidualModelFrameTranslationLiedyn {frame=" << frame_name_
       << ", tref=" << xref_.transpose() << "}";
  }

 private:
  static const std::shared_ptr<StateLiedyn>& checked(const std::shared_ptr<StateLiedyn>& state) {
    LIEDYN_CHECK(state != nullptr, "ResidualModelFrameTranslationLiedyn: the state is null");
    return state;
  }
  Data& cast(const std::shared_ptr<ResidualDataAbstract>& data, const char* who) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(d != nullptr && d->owner == this,
                 std::string(who) +
                     ": data was not created by this residual (make it with its "
                     "createData)");
    return *d;
  }
  void check_x(const char* who, const Eigen::Ref<const VectorXs>& x) const {
    LIEDYN_CHECK(static_cast<std::size_t>(x.size()) == state_->get_nx(),
                 std::string(who) + ": x has size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(state_->get_nx()));
  }
  void compute(const std::shared_ptr<ResidualDataAbstract>& data,
               const Eigen::Ref<const VectorXs>& x) const {
    Data& d = cast(data, "ResidualModelFrameTranslationLiedyn::calc");
    check_x("ResidualModelFrameTranslationLiedyn::calc", x);
    liedyn_state_->read_state(x, d.state);
    forward_poses(model(), d.kinematics, d.state);
    d.r = frame_pose(model(), d.kinematics, frame_id_).translation() - xref_;
  }
  void compute_diff(const std::shared_ptr<ResidualDataAbstract>& data,
                    const Eigen::Ref<const VectorXs>& x) const {
    Data& d = cast(data, "ResidualModelFrameTranslationLiedyn::calcDiff");
    check_x("ResidualModelFrameTranslationLiedyn::calcDiff", x);
    liedyn_state_->read_state(x, d.state);
    frame_jacobian(model(), d.kinematics, d.state, frame_id_, TwistRepresentation::Mixed, d.J);
    const int nv = model().nv();
    d.Rx.leftCols(nv) = d.J.topRows<3>();  // linear first; the velocity block stays 0
  }

  std::shared_ptr<StateLiedyn> liedyn_state_;
  std::string frame_name_;
  int frame_id_;
  Eigen::Vector3d xref_;
};

inline ResidualDataFrameTranslationLiedyn::ResidualDataFrameTranslationLiedyn(
    ResidualModelFrameTranslationLiedyn* model, DataCollectorAbstract* data)
    : Base(static_cast<::crocoddyl::ResidualModelAbstractTpl<double>*>(model), data),
      owner(model),
      kinematics(model->model()),
      state(model->model()),
      J(Matrix6X<double>::Zero(6, model->model().nv())) {}

}  // namespace crocoddyl
}  // namespace liedyn
