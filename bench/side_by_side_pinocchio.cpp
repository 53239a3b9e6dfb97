// Pinocchio's side of liedyn_bench_pinocchio (bench/side_by_side.hpp), compiled twice:
//  * make_pinocchio_side: its templates instantiated here from its headers, with this build's
//    compiler and flags, as a user compiling against Pinocchio gets them
//    (PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION left undefined, so no call goes to the wheel's
//    precompiled double instances);
//  * make_pinocchio_library_side (the shared library liedyn_bench_pinocchio_library, where
//    Pinocchio's targets define PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION): every timed kernel
//    calls the wheel's precompiled double instances in libpinocchio_default, compiled with the
//    wheel's own flags — what a pip user of Pinocchio, or its Python bindings, runs.
// The model is Pinocchio's URDF parser's (libpinocchio_parsers, a free-flyer root joint unless
// the robot is welded; or the reference generator's model with multi-DoF joints), rebuilt here
// joint by joint and frame by frame from its records (side_by_side_pinocchio_model.hpp says why).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/constrained-dynamics-derivatives.hpp>
#include <pinocchio/algorithm/constrained-dynamics.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/impulse-dynamics.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>

#include "side_by_side.hpp"
#include "side_by_side_pinocchio_model.hpp"

namespace side_by_side {
namespace {

#ifdef PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION
#define LIEDYN_PINOCCHIO_SIDE make_pinocchio_library_side
// The argument types of the wheel's instances: Eigen::Ref vectors for the unconstrained kernels,
// vectors for the constrained ones, whose contact vectors have std::allocator.
using Vector = Eigen::Ref<const Eigen::VectorXd>;
using ConstraintModels = std::vector<pinocchio::RigidConstraintModel>;
using ConstraintDatas = std::vector<pinocchio::RigidConstraintData>;
// The constrained kernels are inline templates, which an explicit instantiation declaration does
// not keep from being inlined (and so compiled here): called through these pointers, opaque to
// the optimizer, they run the wheel's instances.
using ConstraintModelAllocator = ConstraintModels::allocator_type;
using ConstraintDataAllocator = ConstraintDatas::allocator_type;
const Eigen::VectorXd& (*volatile constraint_dynamics)(const pinocchio::Model&, pinocchio::Data&,
                                                       const Eigen::MatrixBase<Eigen::VectorXd>&,
                                                       const Eigen::MatrixBase<Eigen::VectorXd>&,
                                                       const Eigen::MatrixBase<Eigen::VectorXd>&,
                                                       const ConstraintModels&, ConstraintDatas&,
                                                       pinocchio::ProximalSettings&) =
    &pinocchio::constraintDynamics<double, 0, pinocchio::JointCollectionDefaultTpl, Eigen::VectorXd,
                                   Eigen::VectorXd, Eigen::VectorXd, ConstraintModelAllocator,
                                   ConstraintDataAllocator>;
void (*volatile constraint_dynamics_derivatives)(const pinocchio::Model&, pinocchio::Data&,
                                                 const ConstraintModels&, ConstraintDatas&,
                                                 const pinocchio::ProximalSettings&) =
    &pinocchio::computeConstraintDynamicsDerivatives<
        double, 0, pinocchio::JointCollectionDefaultTpl, ConstraintModelAllocator,
        ConstraintDataAllocator>;
const Eigen::VectorXd& (*volatile impulse_dynamics)(const pinocchio::Model&, pinocchio::Data&,
                                                    const Eigen::MatrixBase<Eigen::VectorXd>&,
                                                    const Eigen::MatrixBase<Eigen::VectorXd>&,
                                                    const ConstraintModels&, ConstraintDatas&,
                                                    double, const pinocchio::ProximalSettings&) =
    &pinocchio::impulseDynamics<double, 0, pinocchio::JointCollectionDefaultTpl, Eigen::VectorXd,
                                Eigen::VectorXd, ConstraintModelAllocator, ConstraintDataAllocator>;
#else
#define LIEDYN_PINOCCHIO_SIDE make_pinocchio_side
using Vector = const Eigen::VectorXd&;
using ConstraintModels = std::vector<pinocchio::RigidConstraintModel,
                                     Eigen::aligned_allocator<pinocchio::RigidConstraintModel>>;
using ConstraintDatas = std::vector<pinocchio::RigidConstraintData,
                                    Eigen::aligned_allocator<pinocchio::RigidConstraintData>>;
template <class... Args>
void constraint_dynamics(Args&&... args) {
  pinocchio::constraintDynamics(std::forward<Args>(args)...);
}
template <class... Args>
void constraint_dynamics_derivatives(Args&&... args) {
  pinocchio::computeConstraintDynamicsDerivatives(std::forward<Args>(args)...);
}
template <class... Args>
void impulse_dynamics(Args&&... args) {
  pinocchio::impulseDynamics(std::forward<Args>(args)...);
}
#endif

std::vector<double> flat(const Eigen::MatrixXd& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

/// Pinocchio fills the upper triangle of M and M⁻¹ only.
Eigen::MatrixXd symmetric(const Eigen::MatrixXd& upper) {
  Eigen::MatrixXd m = upper;
  m.triangularView<Eigen::StrictlyLower>() = upper.transpose();
  return m;
}

pinocchio::SE3 se3_of(const Placement& p) {
  Eigen::Matrix3d R;
  R << p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8];
  return pinocchio::SE3(R, Eigen::Vector3d(p[9], p[10], p[11]));
}

pinocchio::JointModel joint_of(const PinocchioJoint& j) {
  const Eigen::Vector3d axis(j.axis[0], j.axis[1], j.axis[2]);
  if (j.type == "JointModelFreeFlyer") return pinocchio::JointModelFreeFlyer();
  if (j.type == "JointModelSpherical") return pinocchio::JointModelSpherical();
  if (j.type == "JointModelRX") return pinocchio::JointModelRX();
  if (j.type == "JointModelRY") return pinocchio::JointModelRY();
  if (j.type == "JointModelRZ") return pinocchio::JointModelRZ();
  if (j.type == "JointModelPX") return pinocchio::JointModelPX();
  if (j.type == "JointModelPY") return pinocchio::JointModelPY();
  if (j.type == "JointModelPZ") return pinocchio::JointModelPZ();
  if (j.type == "JointModelRevoluteUnaligned") return pinocchio::JointModelRevoluteUnaligned(axis);
  if (j.type == "JointModelPrismaticUnaligned")
    return pinocchio::JointModelPrismaticUnaligned(axis);
  // Continuous joints (JointModelRUB*) have two coordinates in Pinocchio, one in liedyn.
  throw std::invalid_argument("side_by_side: joint '" + j.name + "' of Pinocchio type " + j.type +
                              " is not supported");
}

/// The parser's model, rebuilt: the same joints, bodies and frames in the same order.
pinocchio::Model rebuild(const PinocchioModelRecord& record) {
  pinocchio::Model model;
  for (const PinocchioJoint& j : record.joints) {
    const auto id = model.addJoint(static_cast<pinocchio::JointIndex>(j.parent), joint_of(j),
                                   se3_of(j.placement), j.name);
    Eigen::Matrix3d I;
    I << j.inertia[0], j.inertia[1], j.inertia[2], j.inertia[3], j.inertia[4], j.inertia[5],
        j.inertia[6], j.inertia[7], j.inertia[8];
    model.appendBodyToJoint(
        id, pinocchio::Inertia(j.mass, Eigen::Vector3d(j.com[0], j.com[1], j.com[2]), I));
  }
  for (const PinocchioFrame& f : record.frames)
    model.addFrame(pinocchio::Frame(f.name, static_cast<pinocchio::JointIndex>(f.parent_joint),
                                    static_cast<pinocchio::FrameIndex>(f.parent_frame),
                                    se3_of(f.placement), static_cast<pinocchio::FrameType>(f.type)),
                   false);  // the bodies' inertias are in the joints' already
  return model;
}

/// A workspace: Pinocchio's Data and, for the constrained kernels, the constraint data.
struct Work {
  explicit Work(const pinocchio::Model& model) : data(model) {}
  pinocchio::Data data;
  ConstraintDatas contacts;
  pinocchio::ProximalSettings settings;  // the default: μ = 0, the exact KKT solution
};

class Pinocchio final : public PinocchioSide {
 public:
  Pinocchio(const Robot& robot, const PinocchioModelRecord& record) : model_(rebuild(record)) {
    for (const ContactSet& c : robot.contacts) {
      ConstraintModels set;
      for (const std::string& name : c.frames) {
        if (!model_.existFrame(name))
          throw std::invalid_argument("side_by_side: Pinocchio's model has no frame '" + name +
                                      "'");
        const pinocchio::Frame& f = model_.frames[model_.getFrameId(name)];
        set.emplace_back(c.point ? pinocchio::CONTACT_3D : pinocchio::CONTACT_6D, model_,
                         f.parentJoint, f.placement,
                         c.mixed ? pinocchio::LOCAL_WORLD_ALIGNED : pinocchio::LOCAL);
      }
      sets_.push_back(std::move(set));
    }
  }

  std::vector<std::string> joint_names() const override {
    // names[0] is the universe, names[1] the free-flyer when there is one.
    const bool free_flyer = model_.nq != model_.nv;
    return std::vector<std::string>(model_.names.begin() + (free_flyer ? 2 : 1),
                                    model_.names.end());
  }

  void set_pool(const Pool& pool) override {
    auto to_eigen = [](const std::vector<double>& x) {
      return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()));
    };
    for (std::size_t k = 0; k < pool.q.size(); ++k) {
      if (static_cast<int>(pool.q[k].size()) != model_.nq ||
          static_cast<int>(pool.v[k].size()) != model_.nv)
        throw std::invalid_argument("side_by_side: the pool does not fit Pinocchio's model");
      q_.push_back(to_eigen(pool.q[k]));
      v_.push_back(to_eigen(pool.v[k]));
      a_.push_back(to_eigen(pool.a[k]));
      tau_.push_back(to_eigen(pool.tau[k]));
    }
  }

  std::function<void(int)> kernel(Kernel kernel, int contact_set) override {
    auto w = make_work(kernel, contact_set);
    const pinocchio::Model& m = model_;
    const std::vector<Eigen::VectorXd>&q = q_, &v = v_, &a = a_, &tau = tau_;
    switch (kernel) {
      case Kernel::Rnea:
        return [w, &m, &q, &v, &a](int k) {
          pinocchio::rnea(m, w->data, Vector(q[k]), Vector(v[k]), Vector(a[k]));
        };
      case Kernel::Crba: return [w, &m, &q](int k) { pinocchio::crba(m, w->data, Vector(q[k])); };
      case Kernel::Aba:
        return [w, &m, &q, &v, &tau](int k) {
          pinocchio::aba(m, w->data, Vector(q[k]), Vector(v[k]), Vector(tau[k]));
        };
      case Kernel::Minverse:  // no instance of M⁻¹(q) in the wheel: compiled here
        return [w, &m, &q](int k) { pinocchio::computeMinverse(m, w->data, Vector(q[k])); };
      case Kernel::InverseDynamicsDerivatives:
        return [w, &m, &q, &v, &a](int k) {
          pinocchio::computeRNEADerivatives(m, w->data, Vector(q[k]), Vector(v[k]), Vector(a[k]));
        };
      case Kernel::ForwardDynamicsDerivatives:
        return [w, &m, &q, &v, &tau](int k) {
          pinocchio::computeABADerivatives(m, w->data, Vector(q[k]), Vector(v[k]), Vector(tau[k]));
        };
      default: break;
    }
    const ConstraintModels& set = sets_.at(contact_set);
    switch (kernel) {
      case Kernel::ConstrainedDynamics:
        return [w, &m, &set, &q, &v, &tau](int k) {
          constraint_dynamics(m, w->data, q[k], v[k], tau[k], set, w->contacts, w->settings);
        };
      case Kernel::ConstrainedDynamicsDerivatives:
        return [w, &m, &set, &q, &v, &tau](int k) {
          constraint_dynamics(m, w->data, q[k], v[k], tau[k], set, w->contacts, w->settings);
          constraint_dynamics_derivatives(m, w->data, set, w->contacts, w->settings);
        };
      case Kernel::ImpulseDynamics:
        return [w, &m, &set, &q, &v](int k) {
          impulse_dynamics(m, w->data, q[k], v[k], set, w->contacts, 0.0, w->settings);
        };
      default: break;
    }
    throw std::logic_error("side_by_side: unknown kernel");
  }

  std::vector<std::vector<double>> outputs(Kernel kernel, int contact_set, int k) override {
    kernel_once(kernel, contact_set, k);
    const pinocchio::Data& d = last_->data;
    switch (kernel) {
      case Kernel::Rnea: return {flat(d.tau)};
      case Kernel::Crba: return {flat(symmetric(d.M))};
      case Kernel::Aba: return {flat(d.ddq)};
      case Kernel::Minverse: return {flat(symmetric(d.Minv))};
      case Kernel::InverseDynamicsDerivatives:
        return {flat(d.dtau_dq), flat(d.dtau_dv), flat(symmetric(d.M))};
      case Kernel::ForwardDynamicsDerivatives:
        return {flat(d.ddq_dq), flat(d.ddq_dv), flat(symmetric(d.Minv))};
      case Kernel::ConstrainedDynamics: return {flat(d.ddq), flat(d.lambda_c)};
      case Kernel::ConstrainedDynamicsDerivatives:
        return {flat(d.ddq_dq),     flat(d.ddq_dv),     flat(d.ddq_dtau),
                flat(d.dlambda_dq), flat(d.dlambda_dv), flat(d.dlambda_dtau)};
      case Kernel::ImpulseDynamics: return {flat(d.dq_after), flat(d.impulse_c)};
    }
    throw std::logic_error("side_by_side: unknown kernel");
  }

 private:
  std::shared_ptr<Work> make_work(Kernel kernel, int contact_set) {
    auto w = std::make_shared<Work>(model_);
    if (constrained(kernel)) {
      for (const pinocchio::RigidConstraintModel& c : sets_.at(contact_set))
        w->contacts.emplace_back(c);
      pinocchio::initConstraintDynamics(model_, w->data, sets_.at(contact_set), w->contacts);
    }
    last_ = w;
    return w;
  }

  void kernel_once(Kernel kernel, int contact_set, int k) { this->kernel(kernel, contact_set)(k); }

  pinocchio::Model model_;
  std::vector<ConstraintModels> sets_;
  std::vector<Eigen::VectorXd> q_, v_, a_, tau_;
  std::shared_ptr<Work> last_;
};

}  // namespace

std::unique_ptr<PinocchioSide> LIEDYN_PINOCCHIO_SIDE(const Robot& robot,
                                                     const PinocchioModelRecord& record) {
  return std::make_unique<Pinocchio>(robot, record);
}

}  // namespace side_by_side
