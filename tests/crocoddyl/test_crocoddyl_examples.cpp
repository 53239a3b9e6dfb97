// liedyn tests — Crocoddyl's examples solved on the bridge (docs/crocoddyl.md, "Crocoddyl's
// examples on liedyn").
//
// * The arm manipulation example (Crocoddyl's examples/arm_manipulation.py): the Talos left arm,
//   welded (tests/data/talos_left_arm.urdf, example-robot-data's), its gripper to a placement,
//   250 Euler nodes of 1 ms, state and control regularization, armature 0.1; SolverFDDP from x0
//   repeated and zero controls, on StateLiedyn with ResidualModelFramePlacementLiedyn,
//   ResidualModelStateLiedyn and Crocoddyl's ResidualModelControl. Against Crocoddyl's
//   Pinocchio-backed solve of the same problem (tests/data/crocoddyl/talos_arm_fddp.txt,
//   scripts/generate_crocoddyl_reference.py): the iterations equal (±1), the cost, xs and us
//   within 1e-6 relative (the bounds).
// * The quadrupedal walking example (Crocoddyl's examples/quadrupedal_gaits.py, "walking": its
//   SimpleQuadrupedalGaitProblem.createWalkingProblem on ANYmal, example-robot-data's URDF copied
//   to tests/data): 108 nodes of 10 ms, four footsteps of 25 swing nodes and an impact each
//   between double supports, 3D contacts LOCAL_WORLD_ALIGNED with gains [0, 50], friction cones
//   under quadratic barriers, CoM and swing-foot tracking, weighted state regularization and
//   state bounds. Built here the way Crocoddyl's Python builds it, on the bridge's contact and
//   impulse models and residuals; every node's CoM and foot targets equal Crocoddyl's (1e-12:
//   the same arithmetic); SolverFDDP from x0 repeated and the problem's quasi-static controls, as
//   the example: the same bounds as the arm's against tests/data/crocoddyl/anymal_walk_fddp.txt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <crocoddyl/core/activations/quadratic-barrier.hpp>
#include <crocoddyl/core/activations/weighted-quadratic.hpp>
#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/residuals/control.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>

#include <liedyn/algorithm/centroidal.hpp>
#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/model/armature.hpp>
#include <liedyn/model/urdf.hpp>

#include "../support/test_support.hpp"
#include "crocoddyl_reference.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace croc_test;
using liedyn::crocoddyl::ResidualModelFramePlacementLiedyn;

namespace {

using ActionModelPtr = std::shared_ptr<crocoddyl::ActionModelAbstract>;

// Crocoddyl's SimpleQuadrupedalGaitProblem (crocoddyl/utils/quadruped.py, fwddyn, Euler) on the
// bridge: the walking problem's nodes, with its weights, in liedyn's coordinates.
struct QuadrupedalGait {
  std::shared_ptr<StateLiedyn> state;
  VectorXd x_default;     // the "standing" state, the regularization's reference
  VectorXd lower, upper;  // the state bounds, in StateLiedyn's tangent
  double mu = 0.7;

  std::size_t nu() const { return static_cast<std::size_t>(state->model().nv_joints()); }

  std::shared_ptr<crocoddyl::CostModelResidual> weighted_state(const VectorXd& weights,
                                                               std::size_t n) const {
    return std::make_shared<crocoddyl::CostModelResidual>(
        state, std::make_shared<crocoddyl::ActivationModelWeightedQuad>(weights.cwiseAbs2()),
        std::make_shared<ResidualModelStateLiedyn>(state, x_default, n));
  }

  // A node on `support` tracking the CoM (when given) and the swing feet's targets.
  ActionModelPtr swing_model(
      double dt, const std::vector<std::string>& support, const Eigen::Vector3d* com_task,
      const std::vector<std::pair<std::string, Eigen::Vector3d>>& swing) const {
    using namespace liedyn::crocoddyl;
    const std::size_t n = nu();
    const int nv = state->model().nv();
    std::vector<ContactLiedyn> contacts;
    for (const std::string& foot : support)
      contacts.push_back(ContactLiedyn::point(foot, Eigen::Vector3d::Zero(),
                                              pinocchio::LOCAL_WORLD_ALIGNED,
                                              Eigen::Vector2d(0.0, 50.0)));
    auto costs = std::make_shared<crocoddyl::CostModelSum>(state, n);
    if (com_task)
      costs->addCost(
          "comTrack",
          std::make_shared<crocoddyl::CostModelResidual>(
              state, std::make_shared<ResidualModelCoMPositionLiedyn>(state, *com_task, n)),
          1e6);
    for (const std::string& foot : support) {
      const crocoddyl::FrictionCone cone(Eigen::Matrix3d::Identity(), mu, 4, false);
      costs->addCost(
          foot + "_frictionCone",
          std::make_shared<crocoddyl::CostModelResidual>(
              state,
              std::make_shared<crocoddyl::ActivationModelQuadraticBarrier>(
                  crocoddyl::ActivationBounds(cone.get_lb(), cone.get_ub())),
              std::make_shared<ResidualModelContactFrictionConeLiedyn>(state, foot, cone, n)),
          1e1);
    }
    for (const auto& [foot, target] : swing)
      costs->addCost(
          foot + "_footTrack",
          std::make_shared<crocoddyl::CostModelResidual>(
              state, std::make_shared<ResidualModelFrameTranslationLiedyn>(state, foot, target, n)),
          1e6);
    VectorXd weights(2 * nv);
    weights << VectorXd::Zero(3), VectorXd::Constant(3, 500.0), VectorXd::Constant(nv - 6, 0.01),
        VectorXd::Constant(6, 10.0), VectorXd::Constant(nv - 6, 1.0);
    costs->addCost("stateReg", weighted_state(weights, n), 1e1);
    costs->addCost("ctrlReg",
                   std::make_shared<crocoddyl::CostModelResidual>(
                       state, std::make_shared<crocoddyl::ResidualModelControl>(state, n)),
                   1e-1);
    costs->addCost("stateBounds",
                   std::make_shared<crocoddyl::CostModelResidual>(
                       state,
                       std::make_shared<crocoddyl::ActivationModelQuadraticBarrier>(
                           crocoddyl::ActivationBounds(lower, upper)),
                       std::make_shared<ResidualModelStateLiedyn>(state, state->zero(), n)),
                   1e3);
    return std::make_shared<crocoddyl::IntegratedActionModelEuler>(
        std::make_shared<DifferentialActionModelContactFwdDynamicsLiedyn>(
            state, Actuation::FloatingBase, contacts, costs),
        dt);
  }

  // The impact of the feet that land, tracking their targets.
  ActionModelPtr impulse_model(
      const std::vector<std::pair<std::string, Eigen::Vector3d>>& landing) const {
    using namespace liedyn::crocoddyl;
    const int nv = state->model().nv();
    std::vector<ContactLiedyn> impulses;
    auto costs = std::make_shared<crocoddyl::CostModelSum>(state, 0);
    for (const auto& [foot, target] : landing) {
      impulses.push_back(
          ContactLiedyn::point(foot, Eigen::Vector3d::Zero(), pinocchio::LOCAL_WORLD_ALIGNED));
      costs->addCost(
          foot + "_footTrack",
          std::make_shared<crocoddyl::CostModelResidual>(
              state, std::make_shared<ResidualModelFrameTranslationLiedyn>(state, foot, target, 0)),
          1e7);
    }
    VectorXd weights(2 * nv);
    weights << VectorXd::Ones(6), VectorXd::Constant(nv - 6, 10.0), VectorXd::Constant(nv, 10.0);
    costs->addCost("stateReg", weighted_state(weights, 0), 1e1);
    return std::make_shared<ActionModelImpulseFwdDynamicsLiedyn>(state, impulses, costs);
  }

  // createFootstepModels: `knots` swing nodes of the `swing` foot from `foot` (moved on by the
  // step) with the CoM from `com` (moved on by its share), then the impact.
  std::vector<ActionModelPtr> footstep(Eigen::Vector3d& com, Eigen::Vector3d& foot, double length,
                                       double height, double dt, int knots,
                                       const std::vector<std::string>& support,
                                       const std::string& swing) const {
    const double share = 1.0 / static_cast<double>(support.size() + 1);
    const double half = knots / 2.0;
    std::vector<ActionModelPtr> out;
    std::vector<std::pair<std::string, Eigen::Vector3d>> task;
    for (int k = 0; k < knots; ++k) {
      const double x = length * (k + 1) / knots;
      const double z = k < half    ? height * k / half
                       : k == half ? height
                                   : height * (1.0 - (k - half) / half);
      task = {{swing, foot + Eigen::Vector3d(x, 0.0, z)}};
      const Eigen::Vector3d com_task = Eigen::Vector3d(x, 0.0, 0.0) * share + com;
      out.push_back(swing_model(dt, support, &com_task, task));
    }
    out.push_back(impulse_model(task));
    com += Eigen::Vector3d(length * share, 0.0, 0.0);
    foot += Eigen::Vector3d(length, 0.0, 0.0);
    return out;
  }
};

}  // namespace

TEST_CASE("crocoddyl bridge: Crocoddyl's arm manipulation example, FDDP as Crocoddyl solves it",
          "[crocoddyl]") {
  const Reference ref = read_reference(kData + "/crocoddyl/talos_arm_fddp.txt");
  liedyn::UrdfOptions welded;
  welded.weld_base = true;
  const Model<double> bare = liedyn::load_urdf_file(kData + "/talos_left_arm.urdf", welded);
  REQUIRE(bare.nv() == ref.nv);
  const JointPermutation perm = JointPermutation::from_names(bare, ref.joint_names);
  const MatrixXd P = perm.matrix<double>(0, bare.nv_joints());  // v_pin = P v
  const VectorXd armature = P.transpose() * ref.vec("armature");
  auto model = std::make_shared<const Model<double>>(liedyn::with_armature(bare, armature));
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv());
  const int horizon = std::stoi(ref.words.at("horizon").at(0));
  const VectorXd weights = ref.vec("weights"), target = ref.vec("target");
  const double dt = ref.vec("dt")(0);

  // Crocoddyl's joint frame of gripper_left_joint is the frame of its child link, the liedyn
  // body of that joint (the URDF's joint frame is its child link's frame).
  REQUIRE(ref.words.at("frame").at(0) == "gripper_left_joint");
  auto placement = std::make_shared<ResidualModelFramePlacementLiedyn>(
      state, "gripper_left_motor_double_link",
      liedyn::SE3<double>(Eigen::Matrix3d::Identity(), Eigen::Vector3d(target)), nu);
  const auto node = [&](bool terminal) {
    auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
    costs->addCost("gripperPose", std::make_shared<crocoddyl::CostModelResidual>(state, placement),
                   weights(0));
    if (!terminal) {
      costs->addCost("xReg",
                     std::make_shared<crocoddyl::CostModelResidual>(
                         state, std::make_shared<ResidualModelStateLiedyn>(state, nu)),
                     weights(1));
      costs->addCost("uReg",
                     std::make_shared<crocoddyl::CostModelResidual>(
                         state, std::make_shared<crocoddyl::ResidualModelControl>(state, nu)),
                     weights(2));
    }
    auto dam = std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(
        state, Actuation::Full, costs);
    return std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, terminal ? 0.0 : dt);
  };
  const VectorXd x0 = state->from_pinocchio(ref.vec("x0"), perm);
  auto running = node(false);
  std::vector<std::shared_ptr<crocoddyl::ActionModelAbstract>> runs(
      static_cast<std::size_t>(horizon), running);
  auto problem = std::make_shared<crocoddyl::ShootingProblem>(x0, runs, node(true));
  crocoddyl::SolverFDDP solver(problem);
  const std::vector<VectorXd> xs0(static_cast<std::size_t>(horizon) + 1, x0);
  const std::vector<VectorXd> us0(static_cast<std::size_t>(horizon),
                                  VectorXd::Zero(static_cast<int>(nu)));
  const bool converged = solver.solve(xs0, us0, 100, false);

  const int their_iterations = std::stoi(ref.words.at("fddp_iterations").at(0));
  CHECK(converged == (ref.words.at("fddp_converged").at(0) == "1"));
  CHECK(std::abs(static_cast<int>(solver.get_iter()) - their_iterations) <= 1);
  const double their_cost = ref.vec("fddp_cost")(0);
  const double e_cost = std::abs(solver.get_cost() - their_cost) / std::abs(their_cost);
  MatrixXd xs(horizon + 1, state->get_nx()), us(horizon, static_cast<int>(nu));
  for (int k = 0; k <= horizon; ++k)
    xs.row(k) = state->to_pinocchio(solver.get_xs()[static_cast<std::size_t>(k)], perm).transpose();
  for (int k = 0; k < horizon; ++k)
    us.row(k) = (P * solver.get_us()[static_cast<std::size_t>(k)]).transpose();
  const double e_xs = scaled_error(xs, ref.mat("xs")), e_us = scaled_error(us, ref.mat("us"));
  CHECK(e_cost < 1e-6);
  CHECK(e_xs < 1e-6);
  CHECK(e_us < 1e-6);
  liedyn::test::report("arm FDDP iterations (ours - theirs)",
                       static_cast<double>(solver.get_iter()) - their_iterations);
  liedyn::test::report("arm FDDP cost", e_cost);
  liedyn::test::report("arm FDDP xs", e_xs);
  liedyn::test::report("arm FDDP us", e_us);
}

TEST_CASE("crocoddyl bridge: Crocoddyl's quadrupedal walking example, FDDP as Crocoddyl solves it",
          "[crocoddyl]") {
  using liedyn::crocoddyl::ActionModelImpulseFwdDynamicsLiedyn;
  const Reference ref = read_reference(kData + "/crocoddyl/anymal_walk_fddp.txt");
  auto model =
      std::make_shared<const Model<double>>(liedyn::load_urdf_file(kData + "/anymal.urdf"));
  REQUIRE(model->nv() == ref.nv);
  const JointPermutation perm = JointPermutation::from_names(*model, ref.joint_names);
  QuadrupedalGait gait;
  gait.state = std::make_shared<StateLiedyn>(model);
  const StateLiedyn& st = *gait.state;
  const MatrixXd T = st.tangent_permutation(perm);  // dx_pin = T dx
  const MatrixXd Pu = perm.matrix<double>(0, model->nv_joints());
  const VectorXd x0 = st.from_pinocchio(ref.vec("x0"), perm);
  gait.x_default = x0;  // the example's default state is x0 (standing, at rest)
  // The bounds are NaN on the base (no bound, as Crocoddyl reads them): moved by T's permutation,
  // not multiplied (0 · NaN is NaN).
  const auto to_ours = [&](const VectorXd& pin) {
    VectorXd ours(pin.size());
    for (int i = 0; i < T.cols(); ++i) {
      Eigen::Index j = 0;
      T.col(i).maxCoeff(&j);
      ours(i) = pin(j);
    }
    return ours;
  };
  gait.lower = to_ours(ref.vec("state_lb"));
  gait.upper = to_ours(ref.vec("state_ub"));
  const VectorXd walk = ref.vec("walk");
  const double length = walk(0), height = walk(1), dt = walk(2);
  const int step_knots = static_cast<int>(walk(3)), support_knots = static_cast<int>(walk(4));

  // createWalkingProblem: the feet where x0 puts them, the CoM between them at x0's height.
  liedyn::Data<double> kin(*model);
  liedyn::State<double> s0(*model);
  st.read_state(x0, s0);
  liedyn::forward_poses(*model, kin, s0);
  std::map<std::string, Eigen::Vector3d> feet;
  for (const char* f : {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"})
    feet[f] = liedyn::frame_pose(*model, kin, f).translation();
  Eigen::Vector3d com =  // in Crocoddyl's order of the sum
      (feet["RF_FOOT"] + feet["RH_FOOT"] + feet["LF_FOOT"] + feet["LH_FOOT"]) / 4.0;
  com.z() = liedyn::center_of_mass(*model, kin, s0, liedyn::ComFrame::Inertial).z();
  const std::vector<std::string> all = {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"};
  const auto others = [&](const std::string& swing) {
    std::vector<std::string> out;
    for (const std::string& f : all)
      if (f != swing) out.push_back(f);
    return out;
  };
  std::vector<ActionModelPtr> double_support;
  for (int k = 0; k < support_knots; ++k)
    double_support.push_back(gait.swing_model(dt, all, nullptr, {}));
  std::vector<ActionModelPtr> nodes = double_support;
  const auto append = [&](std::vector<ActionModelPtr> more) {
    nodes.insert(nodes.end(), more.begin(), more.end());
  };
  append(gait.footstep(com, feet["RH_FOOT"], 0.5 * length, height, dt, step_knots,
                       others("RH_FOOT"), "RH_FOOT"));  // the first step: half a stride
  append(gait.footstep(com, feet["RF_FOOT"], 0.5 * length, height, dt, step_knots,
                       others("RF_FOOT"), "RF_FOOT"));
  append(double_support);
  append(gait.footstep(com, feet["LH_FOOT"], length, height, dt, step_knots, others("LH_FOOT"),
                       "LH_FOOT"));
  append(gait.footstep(com, feet["LF_FOOT"], length, height, dt, step_knots, others("LF_FOOT"),
                       "LF_FOOT"));
  const std::size_t horizon = nodes.size();  // the terminal node is double_support[0]
  REQUIRE(static_cast<int>(horizon) == std::stoi(ref.words.at("nodes").at(0)));

  // Every node as Crocoddyl's: its kind, contacts, and CoM and foot targets.
  double target_error = 0.0;
  std::size_t targets = 0;
  for (std::size_t k = 0; k < horizon; ++k) {
    const std::string key = std::to_string(k);
    const bool impulse = dynamic_cast<ActionModelImpulseFwdDynamicsLiedyn*>(nodes[k].get());
    std::shared_ptr<crocoddyl::CostModelSum> costs;
    if (impulse) {
      costs = static_cast<ActionModelImpulseFwdDynamicsLiedyn&>(*nodes[k]).get_costs();
    } else {
      auto& euler = static_cast<crocoddyl::IntegratedActionModelEuler&>(*nodes[k]);
      costs = std::static_pointer_cast<
                  liedyn::crocoddyl::DifferentialActionModelContactFwdDynamicsLiedyn>(
                  euler.get_differential())
                  ->get_costs();
    }
    for (const auto& [name, item] : costs->get_costs()) {
      const auto* com_residual =
          dynamic_cast<const liedyn::crocoddyl::ResidualModelCoMPositionLiedyn*>(
              item->cost->get_residual().get());
      const auto* foot_residual =
          dynamic_cast<const liedyn::crocoddyl::ResidualModelFrameTranslationLiedyn*>(
              item->cost->get_residual().get());
      if (com_residual) {
        INFO("node " << k << " " << name);
        REQUIRE(ref.vecs.count("com_task." + key) == 1);
        ++targets;
        target_error = std::max(
            target_error,
            (com_residual->get_reference() - ref.vec("com_task." + key)).lpNorm<Eigen::Infinity>());
      }
      if (foot_residual) {
        const std::string foot = name.substr(0, name.size() - std::string("_footTrack").size());
        INFO("node " << k << " " << name);
        REQUIRE(ref.vecs.count("foot_target." + key + "." + foot) == 1);
        ++targets;
        target_error = std::max(target_error, (foot_residual->get_reference() -
                                               ref.vec("foot_target." + key + "." + foot))
                                                  .lpNorm<Eigen::Infinity>());
      }
    }
  }
  std::size_t their_targets = 0;  // and no target of theirs missing here
  for (const auto& [name, v] : ref.vecs)
    their_targets += name.rfind("com_task.", 0) == 0 || name.rfind("foot_target.", 0) == 0;
  CHECK(targets == their_targets);
  CHECK(target_error < 1e-12);

  auto problem = std::make_shared<crocoddyl::ShootingProblem>(
      x0, std::vector<ActionModelPtr>(nodes.begin(), nodes.end()), double_support[0]);
  const std::vector<VectorXd> xs0(horizon + 1, x0);
  std::vector<VectorXd> us0(horizon);
  for (std::size_t k = 0; k < horizon; ++k) us0[k] = VectorXd::Zero(nodes[k]->get_nu());
  problem->quasiStatic(us0, std::vector<VectorXd>(horizon, x0));
  crocoddyl::SolverFDDP solver(problem);
  const bool converged = solver.solve(xs0, us0, 100, false, 0.1);

  const int their_iterations = std::stoi(ref.words.at("fddp_iterations").at(0));
  INFO("iterations " << solver.get_iter() << " (Crocoddyl " << their_iterations << "), cost "
                     << solver.get_cost() << " (Crocoddyl " << ref.vec("fddp_cost")(0) << ")");
  CHECK(converged == (ref.words.at("fddp_converged").at(0) == "1"));
  CHECK(std::abs(static_cast<int>(solver.get_iter()) - their_iterations) <= 1);
  const double their_cost = ref.vec("fddp_cost")(0);
  const double e_cost = std::abs(solver.get_cost() - their_cost) / std::abs(their_cost);
  const MatrixXd& their_xs = ref.mat("xs");
  MatrixXd xs(static_cast<int>(horizon) + 1, st.get_nx());
  for (std::size_t k = 0; k <= horizon; ++k)
    xs.row(static_cast<int>(k)) =
        align_base_quaternion(st.to_pinocchio(solver.get_xs()[k], perm),
                              their_xs.row(static_cast<int>(k)).transpose())
            .transpose();
  double e_us = 0.0, us_scale = 0.0;
  for (std::size_t k = 0; k < horizon; ++k) {
    const VectorXd theirs = ref.vec("us." + std::to_string(k));
    if (theirs.size() == 0) continue;
    e_us = std::max(e_us, (Pu * solver.get_us()[k] - theirs).lpNorm<Eigen::Infinity>());
    us_scale = std::max(us_scale, theirs.lpNorm<Eigen::Infinity>());
  }
  e_us /= std::max(1.0, us_scale);
  const double e_xs = scaled_error(xs, their_xs);
  CHECK(e_cost < 1e-6);
  CHECK(e_xs < 1e-6);
  CHECK(e_us < 1e-6);
  liedyn::test::report("walk targets", target_error);
  liedyn::test::report("walk FDDP iterations (ours - theirs)",
                       static_cast<double>(solver.get_iter()) - their_iterations);
  liedyn::test::report("walk FDDP cost", e_cost);
  liedyn::test::report("walk FDDP xs", e_xs);
  liedyn::test::report("walk FDDP us", e_us);
}

}  // namespace LIEDYN_UNITY_ID
