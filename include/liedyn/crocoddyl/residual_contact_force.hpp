// liedyn — Crocoddyl bridge: residuals on a contact's force (Crocoddyl 3.2's
// ResidualModelContactForce, ResidualModelContactFrictionCone, ResidualModelContactWrenchCone),
// read from the data of a contact or impulse model (docs/crocoddyl.md).
//
// A contact of DifferentialActionModelContactFwdDynamicsLiedyn or
// ActionModelImpulseFwdDynamicsLiedyn, named by its frame, exerts λ_c on the robot (an impulse
// Λ_c): 3 entries (a point) or 6 (rigid: force first, then the moment about the frame's origin),
// in the contact's sense (contacts.hpp). Each residual is linear in the first n entries
// f = λ_c[0:n]:
//
//   contact force   r = f − f*             (n = 3 or 6, f* Crocoddyl's fref, linear first)
//   friction cone   r = A f                (n = 3: the force; A the cone's facets, (nf + 1) × 3)
//   wrench cone     r = A f                (n = 6, a rigid contact; A the cone's (nf + 13) × 6)
//
// so that Rx = A ∂f/∂dx and Ru = A ∂f/∂u, from the model's df_dx and df_du (exact, along
// StateLiedyn's tangent; an impulse model's Ru has no columns). The model computes λ and its
// derivatives before its costs, in calc and calcDiff, and shows them through its
// DataCollectorContactLiedyn. At a terminal node (of a differential model) there is no force:
// r = 0, Rx = 0 (as Crocoddyl's). A cone's A is
// Crocoddyl's (FrictionCone, WrenchCone), whose rotation maps the cone's axes to the contact's
// sense: with a LOCAL contact the frame's axes, with LOCAL_WORLD_ALIGNED the inertial ones.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <crocoddyl/core/residual-base.hpp>
#include <crocoddyl/multibody/friction-cone.hpp>
#include <crocoddyl/multibody/wrench-cone.hpp>
#include <pinocchio/spatial/force.hpp>

#include "liedyn/config.hpp"
#include "liedyn/crocoddyl/contacts.hpp"
#include "liedyn/crocoddyl/state.hpp"

namespace liedyn {
namespace crocoddyl {

/// The data of a contact residual: Crocoddyl's r, Rx, Ru (from the base) and where its contact's
/// rows lie in the model's λ. Made by the residual's createData on a contact or impulse model's
/// collector; usable with that residual only.
template <class Residual>
struct ContactResidualDataLiedyn : public ::crocoddyl::ResidualDataAbstractTpl<double> {
  using Base = ::crocoddyl::ResidualDataAbstractTpl<double>;
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW

  /// Sized for `model`, on `data`, which must be a DataCollectorContactLiedyn with a contact at
  /// the residual's frame of at least the residual's n rows (InvalidArgument).
  ContactResidualDataLiedyn(Residual* model, DataCollectorAbstract* data)
      : Base(static_cast<::crocoddyl::ResidualModelAbstractTpl<double>*>(model), data),
        owner(model),
        contacts(collector(data)),
        row(model->contact_row(*contacts)) {}

  const Residual* owner;                       ///< the residual that made it
  const DataCollectorContactLiedyn* contacts;  ///< the model's collector
  int row;                                     ///< the contact's first row in λ

 private:
  static const DataCollectorContactLiedyn* collector(DataCollectorAbstract* data) {
    const auto* c = dynamic_cast<const DataCollectorContactLiedyn*>(data);
    LIEDYN_CHECK(c != nullptr, std::string(Residual::name) +
                                   ": it reads contact forces, so it belongs in the costs of a "
                                   "DifferentialActionModelContactFwdDynamicsLiedyn or an "
                                   "ActionModelImpulseFwdDynamicsLiedyn");
    return c;
  }
};

/// The part of the contact residuals that does not depend on the map A (this header's comment).
/// `Residual` derives from it, names itself in `Residual::name` and provides
/// value(r, f) and jacobian(Rx, Ru, ∂f/∂dx, ∂f/∂u), f its n entries of λ_c.
template <class Residual>
class ContactResidualLiedyn : public ::crocoddyl::ResidualModelAbstractTpl<double> {
 public:
  using Base = ::crocoddyl::ResidualModelAbstractTpl<double>;
  using Data = ContactResidualDataLiedyn<Residual>;
  using VectorXs = Base::VectorXs;

  /// r at (x, u), from the forces the contact model's calc has just computed.
  void calc(const std::shared_ptr<ResidualDataAbstract>& data, const Eigen::Ref<const VectorXs>&,
            const Eigen::Ref<const VectorXs>&) override {
    Data& d = cast(data, "calc");
    derived().value(d.r, d.contacts->forces->segment(d.row, rows_));
  }
  /// r = 0 at a terminal node (no contact force).
  void calc(const std::shared_ptr<ResidualDataAbstract>& data,
            const Eigen::Ref<const VectorXs>&) override {
    cast(data, "calc").r.setZero();
  }
  /// Rx and Ru at (x, u), from the derivatives the contact model's calcDiff has just computed.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>&, const Eigen::Ref<const VectorXs>&) override {
    Data& d = cast(data, "calcDiff");
    derived().jacobian(d.Rx, d.Ru, d.contacts->df_dx->middleRows(d.row, rows_),
                       d.contacts->df_du->middleRows(d.row, rows_));
  }
  /// Rx = 0 at a terminal node.
  void calcDiff(const std::shared_ptr<ResidualDataAbstract>& data,
                const Eigen::Ref<const VectorXs>&) override {
    cast(data, "calcDiff").Rx.setZero();
  }

  /// A data for this residual on a contact model's collector (Crocoddyl's createData); throws
  /// InvalidArgument for another collector or a model without this residual's contact.
  std::shared_ptr<ResidualDataAbstract> createData(DataCollectorAbstract* const data) override {
    return std::allocate_shared<Data>(Eigen::aligned_allocator<Data>(),
                                      static_cast<Residual*>(this), data);
  }

  /// The contact's frame (a frame of the liedyn model).
  const std::string& get_frame() const { return frame_; }

  /// The first row of this residual's contact in λ of the model `collector` shows;
  /// InvalidArgument naming the frame if it has no contact there, or one of fewer rows than the
  /// residual reads.
  int contact_row(const DataCollectorContactLiedyn& collector) const {
    const std::vector<ContactLiedyn>& contacts = *collector.contacts;
    for (std::size_t k = 0; k < contacts.size(); ++k) {
      if (contacts[k].frame != frame_) continue;
      const Constraint<double>& c = collector.set->constraint(static_cast<int>(k));
      LIEDYN_CHECK(c.dim >= rows_, std::string(Residual::name) + ": the contact at '" + frame_ +
                                       "' has " + std::to_string(c.dim) + " rows, it reads " +
                                       std::to_string(rows_));
      return c.row;
    }
    detail::throw_invalid_argument(std::string(Residual::name) + ": the model has no contact " +
                                   "at frame '" + frame_ + "'");
  }

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
  /// nr rows on the first `rows` entries of the contact at `frame`, controls of size nu; r
  /// depends on x and u (through λ). InvalidArgument for a null state or a frame the model
  /// lacks. Eigen::initParallel: as in ActionModelLiedyn's constructor (action_base.hpp).
  ContactResidualLiedyn(std::shared_ptr<StateLiedyn> state, std::string frame, int rows,
                        std::size_t nr, std::size_t nu)
      : Base(checked(state), nr, nu, /*q_dependent=*/true, /*v_dependent=*/true,
             /*u_dependent=*/true),
        frame_(std::move(frame)),
        rows_(rows) {
    state->model().require_frame_id(frame_, Residual::name);
    Eigen::initParallel();
  }

 private:
  Residual& derived() { return static_cast<Residual&>(*this); }

  static const std::shared_ptr<StateLiedyn>& checked(const std::shared_ptr<StateLiedyn>& state) {
    LIEDYN_CHECK(state != nullptr, std::string(Residual::name) + ": the state is null");
    return state;
  }

  // `data` as this residual's data (its type and owner checked).
  Data& cast(const std::shared_ptr<ResidualDataAbstract>& data, const char* method) const {
    Data* d = dynamic_cast<Data*>(data.get());
    LIEDYN_CHECK(d != nullptr && d->owner == this,
                 std::string(Residual::name) + "::" + method +
                     ": data was not created by this residual (make it with its createData)");
    return *d;
  }

  std::string frame_;
  int rows_;
};

/// r = f − f*, f the first nc entries of the contact's force (this header's comment). double only.
class ResidualModelContactForceLiedyn
    : public ContactResidualLiedyn<ResidualModelContactForceLiedyn> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelContactForceLiedyn";

  /// The residual of the contact at `frame` against `fref` (f*, in the contact's sense), on its
  /// first nc = 3 (the force) or 6 (force and moment) entries, for controls of size nu.
  ResidualModelContactForceLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                  const pinocchio::Force& fref, std::size_t nc, std::size_t nu)
      : ContactResidualLiedyn(std::move(state), frame, dimension(nc), nc, nu), fref_(fref) {}

  /// r = f − f*.
  void value(Eigen::Ref<VectorXs> r, const Eigen::Ref<const VectorXs>& f) const {
    r = f - fref_.toVector().head(f.size());
  }
  /// Rx = ∂f/∂dx, Ru = ∂f/∂u.
  void jacobian(Eigen::Ref<MatrixXs> Rx, Eigen::Ref<MatrixXs> Ru,
                const Eigen::Ref<const MatrixXs>& df_dx,
                const Eigen::Ref<const MatrixXs>& df_du) const {
    Rx = df_dx;
    Ru = df_du;
  }

  /// f*, in the contact's sense.
  const pinocchio::Force& get_reference() const { return fref_; }
  /// Sets f*.
  void set_reference(const pinocchio::Force& fref) { fref_ = fref; }

  /// Crocoddyl's description line: the frame and f*.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << get_frame() << ", fref=" << fref_.toVector().transpose() << "}";
  }

 private:
  static int dimension(std::size_t nc) {
    LIEDYN_CHECK(nc == 3 || nc == 6,
                 std::string(name) + ": nc must be 3 or 6, not " + std::to_string(nc));
    return static_cast<int>(nc);
  }

  pinocchio::Force fref_;
};

/// The part of the cone residuals r = A f that does not depend on the cone (this header's
/// comment): the cone (Crocoddyl's FrictionCone or WrenchCone) and its map A.
template <class Residual, class Cone>
class ConeResidualLiedyn : public ContactResidualLiedyn<Residual> {
 public:
  using typename ContactResidualLiedyn<Residual>::VectorXs;
  using MatrixXs = typename ContactResidualLiedyn<Residual>::MatrixXs;

  /// r = A f.
  void value(Eigen::Ref<VectorXs> r, const Eigen::Ref<const VectorXs>& f) const {
    r.noalias() = cone_.get_A() * f;
  }
  /// Rx = A ∂f/∂dx, Ru = A ∂f/∂u.
  void jacobian(Eigen::Ref<MatrixXs> Rx, Eigen::Ref<MatrixXs> Ru,
                const Eigen::Ref<const MatrixXs>& df_dx,
                const Eigen::Ref<const MatrixXs>& df_du) const {
    Rx.noalias() = cone_.get_A() * df_dx;
    Ru.noalias() = cone_.get_A() * df_du;
  }

  /// The cone.
  const Cone& get_reference() const { return cone_; }

 protected:
  /// The cone `cone` on the first `rows` entries of the contact at `frame` (A's rows: nr).
  ConeResidualLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame, int rows,
                     const Cone& cone, std::size_t nu)
      : ContactResidualLiedyn<Residual>(std::move(state), frame, rows,
                                        static_cast<std::size_t>(cone.get_A().rows()), nu),
        cone_(cone) {}

  Cone cone_;
};

/// r = A f, f the contact's force, A Crocoddyl's linearized friction cone ((nf + 1) × 3; this
/// header's comment): every entry ≤ 0 inside the cone (with an inequality activation). double
/// only.
class ResidualModelContactFrictionConeLiedyn
    : public ConeResidualLiedyn<ResidualModelContactFrictionConeLiedyn, ::crocoddyl::FrictionCone> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelContactFrictionConeLiedyn";

  /// The cone `cone` on the force of the contact at `frame` (3 or 6 rows), for controls of size
  /// nu.
  ResidualModelContactFrictionConeLiedyn(std::shared_ptr<StateLiedyn> state,
                                         const std::string& frame,
                                         const ::crocoddyl::FrictionCone& cone, std::size_t nu)
      : ConeResidualLiedyn(std::move(state), frame, 3, cone, nu) {}

  /// Crocoddyl's description line: the frame and the cone's μ.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << get_frame() << ", mu=" << cone_.get_mu() << "}";
  }
};

/// r = A f, f the 6 entries of a rigid contact's wrench, A Crocoddyl's linearized wrench cone
/// ((nf + 13) × 6; this header's comment). double only.
class ResidualModelContactWrenchConeLiedyn
    : public ConeResidualLiedyn<ResidualModelContactWrenchConeLiedyn, ::crocoddyl::WrenchCone> {
 public:
  /// The class's name, in messages.
  static constexpr const char* name = "ResidualModelContactWrenchConeLiedyn";

  /// The cone `cone` on the wrench of the rigid contact at `frame`, for controls of size nu.
  ResidualModelContactWrenchConeLiedyn(std::shared_ptr<StateLiedyn> state, const std::string& frame,
                                       const ::crocoddyl::WrenchCone& cone, std::size_t nu)
      : ConeResidualLiedyn(std::move(state), frame, 6, cone, nu) {}

  /// Crocoddyl's description line: the frame, the cone's μ and the sole's half sizes.
  void print(std::ostream& os) const override {
    os << name << " {frame=" << get_frame() << ", mu=" << cone_.get_mu()
       << ", box=" << cone_.get_box().transpose() << "}";
  }
};

}  // namespace crocoddyl
}  // namespace liedyn
