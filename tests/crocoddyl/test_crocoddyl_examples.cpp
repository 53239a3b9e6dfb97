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
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/residuals/control.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>

#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/model/armature.hpp>
#include <liedyn/model/urdf.hpp>

#include "../support/test_support.hpp"
#include "crocoddyl_reference.hpp"

using namespace croc_test;
using liedyn::crocoddyl::ResidualModelFramePlacementLiedyn;

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
