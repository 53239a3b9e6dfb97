// liedyn's side of liedyn_bench_pinocchio (bench/side_by_side.hpp): the model from liedyn's URDF
// loader (from Pinocchio's records for a generated robot), the pool of random states, and each
// kernel's call; results converted to Pinocchio's layout with liedyn's interop converters (joints
// mapped by name, docs/interop.md).
#include <algorithm>
#include <memory>
#include <random>
#include <set>
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
#include <liedyn/model/builder.hpp>
#include <liedyn/model/constraint.hpp>
#include <liedyn/model/urdf.hpp>

#include "side_by_side.hpp"
#include "side_by_side_pinocchio_model.hpp"

namespace side_by_side {
namespace {

using namespace liedyn;
using interop::Library;

std::vector<double> flat(const MatrixX<double>& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

SE3<double> se3_of(const Placement& p) {
  Matrix3<double> R;
  R << p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8];
  return SE3<double>(R, Vector3<double>(p[9], p[10], p[11]));
}

SpatialInertia<double> inertia_of(const PinocchioJoint& j) {
  Matrix3<double> I;
  I << j.inertia[0], j.inertia[1], j.inertia[2], j.inertia[3], j.inertia[4], j.inertia[5],
      j.inertia[6], j.inertia[7], j.inertia[8];
  return SpatialInertia<double>::from_mass_com_inertia(j.mass, {j.com[0], j.com[1], j.com[2]}, I);
}

JointSpec<double> joint_of(const PinocchioJoint& j) {
  const SE3<double> X = se3_of(j.placement);
  const std::string& t = j.type;
  if (t == "JointModelSpherical") return JointSpec<double>::spherical(j.name, X);
  const Vector3<double> axis = t == "JointModelRX" || t == "JointModelPX" ? Vector3<double>::UnitX()
                               : t == "JointModelRY" || t == "JointModelPY"
                                   ? Vector3<double>::UnitY()
                               : t == "JointModelRZ" || t == "JointModelPZ"
                                   ? Vector3<double>::UnitZ()
                                   : Vector3<double>(j.axis[0], j.axis[1], j.axis[2]);
  if (t.rfind("JointModelR", 0) == 0) return JointSpec<double>::revolute(j.name, axis, X);
  if (t.rfind("JointModelP", 0) == 0) return JointSpec<double>::prismatic(j.name, axis, X);
  throw std::invalid_argument("side_by_side: joint '" + j.name + "' of Pinocchio type " + t +
                              " is not supported for a generated robot");
}

/// A generated robot's model from Pinocchio's records of it: its root free-flyer is the moving
/// base (its body "base"), every other joint a body named after it; the contact frames only.
Model<double> model_from_record(const Robot& robot, const PinocchioModelRecord& record) {
  const std::vector<PinocchioJoint>& joints = record.joints;
  if (joints.empty() || joints[0].type != "JointModelFreeFlyer" || joints[0].parent != 0)
    throw std::invalid_argument("side_by_side: generated robot '" + robot.name +
                                "' must have a free-flyer root joint");
  // Pinocchio's joint I is record.joints[I − 1]; joint 1, the free-flyer, is liedyn's base.
  auto body = [&](int I) { return I == 1 ? std::string("base") : joints.at(I - 1).name; };
  ModelBuilder<double> b(BaseType::Moving, "base", inertia_of(joints[0]));
  b.set_inertia_check(InertiaCheck::PositiveDefinite);  // the grippers' light links
  for (std::size_t k = 1; k < joints.size(); ++k)
    b.add_body(body(joints[k].parent), joints[k].name, joint_of(joints[k]), inertia_of(joints[k]));
  // Each contact frame once (the sets share them), the first of its name as Pinocchio's
  // getFrameId finds it.
  std::set<std::string> added;
  for (const ContactSet& c : robot.contacts)
    for (const std::string& name : c.frames) {
      const auto f = std::find_if(record.frames.begin(), record.frames.end(),
                                  [&](const PinocchioFrame& g) { return g.name == name; });
      if (f != record.frames.end() && added.insert(name).second)
        b.add_frame(name, body(f->parent_joint), se3_of(f->placement));
    }
  return b.build();
}

Model<double> load_model(const Robot& robot, const PinocchioModelRecord& record) {
  if (!robot.generated.empty()) return model_from_record(robot, record);
  UrdfOptions options;
  options.weld_base = robot.welded;
  return load_urdf_file(robot.urdf, options);
}

class Liedyn final : public LiedynSide {
 public:
  Liedyn(const Robot& robot, const PinocchioModelRecord& record,
         const std::vector<std::string>& pinocchio_joints, int size, unsigned seed) {
    model_ = std::make_shared<const Model<double>>(load_model(robot, record));
    perm_ = interop::JointPermutation::from_names(*model_, pinocchio_joints);
    // The converters map multi-DoF joints under the default identity only; a generated robot
    // lists its joints in Pinocchio's order.
    if (perm_.is_identity()) perm_ = interop::JointPermutation();
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
            Library::Pinocchio, model, x, a_[k], d.tau, d.derivatives.D1, d.derivatives.D2,
            d.derivatives.D3, d.derivatives.D4, d.M, perm_);
        return {flat(id.dtau_dq), flat(id.dtau_dv), flat(id.dtau_da)};
      }
      case Kernel::ForwardDynamicsDerivatives: {
        linearize(model, d, x, tau_[k]);
        const auto fd = interop::forward_dynamics_jacobians_to(
            Library::Pinocchio, model, x, tau_[k], d.ddq, d.linearization.A, d.Minv, perm_);
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
        after.r = v.tail(model.nv_joints());
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

std::unique_ptr<LiedynSide> make_liedyn_side(const Robot& robot, const PinocchioModelRecord& record,
                                             const std::vector<std::string>& pinocchio_joints,
                                             int size, unsigned seed) {
  return std::make_unique<Liedyn>(robot, record, pinocchio_joints, size, seed);
}

}  // namespace side_by_side
