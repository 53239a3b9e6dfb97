// liedyn's side of liedyn_bench_pinocchio (bench/side_by_side.hpp): the model from liedyn's URDF
// loader, the pool of random states, and each kernel's call; results converted to Pinocchio's
// layout with liedyn's interop converters (joints mapped by name, docs/interop.md).
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/algorithm/constrained_dynamics_derivatives.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/algorithm/immamb.hpp>
#include <liedyn/algorithm/impulse_dynamics.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/interop/all.hpp>
#include <liedyn/model/constraint.hpp>
#include <liedyn/model/urdf.hpp>

#include "side_by_side.hpp"

namespace side_by_side {
namespace {

using namespace liedyn;
using interop::Library;

std::vector<double> flat(const MatrixX<double>& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

class Liedyn final : public LiedynSide {
 public:
  Liedyn(const Robot& robot, const std::vector<std::string>& pinocchio_joints, int size,
         unsigned seed) {
    UrdfOptions options;
    options.weld_base = robot.welded;
    model_ = std::make_shared<const Model<double>>(load_urdf_file(robot.urdf, options));
    perm_ = interop::JointPermutation::from_names(*model_, pinocchio_joints);
    for (const ContactSet& c : robot.contacts) {
      const TwistRepresentation sense =
          c.mixed ? TwistRepresentation::Mixed : TwistRepresentation::Body;
      std::vector<ConstraintSpec<double>> specs;
      for (const std::string& f : c.frames)
        specs.push_back(c.point ? ConstraintSpec<double>::point_contact(f, sense)
                                : ConstraintSpec<double>::rigid_contact(f, sense));
      sets_.push_back(std::make_shared<const ConstraintSet<double>>(*model_, specs));
    }
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const int nv = model_->nv();
    for (int k = 0; k < size; ++k) {
      const State<double> x = random_state(*model_, rng);
      VectorX<double> a(nv), tau(nv);
      for (int i = 0; i < nv; ++i) a(i) = u(rng);
      for (int i = 0; i < nv; ++i) tau(i) = 10 * u(rng);
      x_.push_back(x);
      a_.push_back(a);
      tau_.push_back(tau);
      pool_.q.push_back(flat(interop::configuration_to(Library::Pinocchio, *model_, x, perm_)));
      pool_.v.push_back(flat(interop::velocity_to(Library::Pinocchio, *model_, x, perm_)));
      pool_.a.push_back(flat(interop::acceleration_to(Library::Pinocchio, *model_, x, a, perm_)));
      pool_.tau.push_back(flat(interop::force_to(Library::Pinocchio, *model_, x.H, tau, perm_)));
    }
  }

  const Pool& pool() const override { return pool_; }
  int nv() const override { return model_->nv(); }

  std::function<void(int)> kernel(Kernel kernel, int contact_set) override {
    auto model = model_;
    auto data = std::make_shared<Data<double>>(*model);
    const std::vector<State<double>>& x = x_;
    const std::vector<VectorX<double>>& a = a_;
    const std::vector<VectorX<double>>& tau = tau_;
    switch (kernel) {
      case Kernel::Rnea: return [model, data, &x, &a](int k) { rnea(*model, *data, x[k], a[k]); };
      case Kernel::Crba: return [model, data, &x](int k) { crba(*model, *data, x[k].s); };
      case Kernel::Aba: return [model, data, &x, &tau](int k) { aba(*model, *data, x[k], tau[k]); };
      case Kernel::Minverse: return [model, data, &x](int k) { immamb(*model, *data, x[k].s); };
      case Kernel::InverseDynamicsDerivatives:
        return [model, data, &x, &a](int k) {
          eidamb_derivatives(*model, *data, x[k], a[k], TwistRepresentation::Body);
        };
      case Kernel::ForwardDynamicsDerivatives:
        // A and B in the body representation: Pinocchio's derivatives hold the body twist.
        return [model, data, &x, &tau](int k) { linearize(*model, *data, x[k], tau[k]); };
      default: break;
    }
    auto set = sets_.at(contact_set);
    auto cd = std::make_shared<ConstraintData<double>>(*model, *set);
    switch (kernel) {
      case Kernel::ConstrainedDynamics:
        return [model, data, set, cd, &x, &tau](int k) {
          constrained_forward_dynamics(*model, *data, *set, *cd, x[k], tau[k]);
        };
      case Kernel::ConstrainedDynamicsDerivatives:
        // Includes the forward call, as Pinocchio's constraintDynamics +
        // computeConstraintDynamicsDerivatives pair does.
        return [model, data, set, cd, &x, &tau](int k) {
          constrained_forward_dynamics_derivatives(*model, *data, *set, *cd, x[k], tau[k],
                                                   TwistRepresentation::Body);
        };
      case Kernel::ImpulseDynamics:
        return [model, data, set, cd, &x](int k) {
          impulse_dynamics(*model, *data, *set, *cd, x[k], 0.0);
        };
      default: break;
    }
    throw std::logic_error("side_by_side: unknown kernel");
  }

  std::vector<std::vector<double>> outputs(Kernel kernel, int contact_set, int k) override {
    const Model<double>& model = *model_;
    const State<double>& x = x_.at(k);
    Data<double> d(model);
    // T maps our generalized vectors to Pinocchio's (joint permutation; the base block is the
    // identity, both use the body twist).
    const MatrixX<double> T = interop::velocity_matrix(Library::Pinocchio, model, x.H, perm_);
    auto to_pinocchio = [&](const MatrixX<double>& X) { return flat(T * X * T.transpose()); };
    switch (kernel) {
      case Kernel::Rnea:
        return {flat(
            interop::force_to(Library::Pinocchio, model, x.H, rnea(model, d, x, a_[k]), perm_))};
      case Kernel::Crba: return {to_pinocchio(crba(model, d, x.s))};
      case Kernel::Aba:
        return {flat(interop::acceleration_to(Library::Pinocchio, model, x,
                                              aba(model, d, x, tau_[k]), perm_))};
      case Kernel::Minverse: return {to_pinocchio(immamb(model, d, x.s))};
      case Kernel::InverseDynamicsDerivatives: {
        eidamb_derivatives(model, d, x, a_[k], TwistRepresentation::Body);
        const auto id = interop::inverse_dynamics_jacobians_to(
            Library::Pinocchio, model, x, a_[k], d.tau, d.D1, d.D2, d.D3, d.D4, d.M, perm_);
        return {flat(id.dtau_dq), flat(id.dtau_dv), flat(id.dtau_da)};
      }
      case Kernel::ForwardDynamicsDerivatives: {
        linearize(model, d, x, tau_[k]);
        const auto fd = interop::forward_dynamics_jacobians_to(Library::Pinocchio, model, x,
                                                               tau_[k], d.ddq, d.A, d.Minv, perm_);
        return {flat(fd.dddq_dq), flat(fd.dddq_dv), flat(fd.dddq_dtau)};
      }
      default: break;
    }
    const ConstraintSet<double>& set = *sets_.at(contact_set);
    ConstraintData<double> cd(model, set);
    const int nv = model.nv();
    switch (kernel) {
      case Kernel::ConstrainedDynamics: {
        const VectorX<double>& ddq = constrained_forward_dynamics(model, d, set, cd, x, tau_[k]);
        return {flat(interop::acceleration_to(Library::Pinocchio, model, x, ddq, perm_)),
                flat(cd.lambda)};
      }
      case Kernel::ConstrainedDynamicsDerivatives:
        constrained_forward_dynamics_derivatives(model, d, set, cd, x, tau_[k],
                                                 TwistRepresentation::Body);
        return {to_pinocchio(cd.ddq_dx.leftCols(nv)),
                to_pinocchio(cd.ddq_dx.rightCols(nv)),
                to_pinocchio(cd.ddq_dtau),
                flat(cd.lambda_dx.leftCols(nv) * T.transpose()),
                flat(cd.lambda_dx.rightCols(nv) * T.transpose()),
                flat(cd.lambda_dtau * T.transpose())};
      case Kernel::ImpulseDynamics: {
        const VectorX<double> v = impulse_dynamics(model, d, set, cd, x, 0.0);
        State<double> after = x;
        if (model.has_moving_base()) after.nu = v.head<6>();
        after.r = v.tail(model.num_joints());
        return {flat(interop::velocity_to(Library::Pinocchio, model, after, perm_)),
                flat(cd.impulse)};
      }
      default: break;
    }
    throw std::logic_error("side_by_side: unknown kernel");
  }

 private:
  std::shared_ptr<const Model<double>> model_;
  interop::JointPermutation perm_;
  std::vector<std::shared_ptr<const ConstraintSet<double>>> sets_;
  std::vector<State<double>> x_;
  std::vector<VectorX<double>> a_, tau_;
  Pool pool_;
};

}  // namespace

std::unique_ptr<LiedynSide> make_liedyn_side(const Robot& robot,
                                             const std::vector<std::string>& pinocchio_joints,
                                             int size, unsigned seed) {
  return std::make_unique<Liedyn>(robot, pinocchio_joints, size, seed);
}

}  // namespace side_by_side
