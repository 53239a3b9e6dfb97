// The Crocoddyl bridge against Crocoddyl's own Pinocchio-backed models, side by side in one
// process, on the same solver (docs/crocoddyl.md, BENCHMARKS.md "Crocoddyl"):
//   arm:   Crocoddyl's arm manipulation example (tests/crocoddyl/test_crocoddyl_examples.cpp):
//          the Talos left arm, free dynamics, 250 Euler nodes, gripper placement + state +
//          control costs;
//   solo12: solo12 on three feet (3D contacts, LOCAL_WORLD_ALIGNED, gains [0, 50]), the fourth
//          foot moved by a frame translation cost, state + control costs, 100 Euler nodes.
// For each: ShootingProblem::calcDiff (after a calc), calc + calcDiff, and calc at x0 on every
// node and zero controls, and one FDDP iteration from that guess (SolverFDDP::solve, maxiter 1),
// with 1 and 2 threads of the problem.
// Crocoddyl's side is libcrocoddyl.so as the pip wheel ships it (its Pinocchio calls compiled
// there); liedyn's side is this build. Run with
//   liedyn_bench_crocoddyl --benchmark_enable_random_interleaving=true --benchmark_repetitions=9
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include <crocoddyl/core/costs/cost-sum.hpp>
#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/residuals/control.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>
#include <crocoddyl/multibody/actions/contact-fwddyn.hpp>
#include <crocoddyl/multibody/actions/free-fwddyn.hpp>
#include <crocoddyl/multibody/actuations/floating-base.hpp>
#include <crocoddyl/multibody/actuations/full.hpp>
#include <crocoddyl/multibody/contacts/contact-3d.hpp>
#include <crocoddyl/multibody/contacts/multiple-contacts.hpp>
#include <crocoddyl/multibody/residuals/frame-placement.hpp>
#include <crocoddyl/multibody/residuals/frame-translation.hpp>
#include <crocoddyl/multibody/residuals/state.hpp>
#include <crocoddyl/multibody/states/multibody.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/interop/joint_permutation.hpp>
#include <liedyn/model/armature.hpp>
#include <liedyn/model/urdf.hpp>

namespace {

using Eigen::VectorXd;
using liedyn::crocoddyl::Actuation;
using liedyn::crocoddyl::StateLiedyn;
using ActionPtr = std::shared_ptr<crocoddyl::ActionModelAbstract>;
using CostPtr = std::shared_ptr<crocoddyl::CostModelSum>;
using ResidualPtr = std::shared_ptr<crocoddyl::ResidualModelAbstract>;

const std::string kData = LIEDYN_TEST_DATA_DIR;

// A shooting problem with x0 at every node and zero controls: the point every benchmark starts
// from (a standing robot's nodes; FDDP starts from it as an infeasible guess).
struct Problem {
  std::shared_ptr<crocoddyl::ShootingProblem> problem;
  std::vector<VectorXd> xs, us;
};

Problem make_problem(const VectorXd& x0, const ActionPtr& running, const ActionPtr& terminal,
                     std::size_t horizon) {
  Problem p;
  p.problem = std::make_shared<crocoddyl::ShootingProblem>(
      x0, std::vector<ActionPtr>(horizon, running), terminal);
  p.xs.assign(horizon + 1, x0);
  p.us.assign(horizon, VectorXd::Zero(static_cast<int>(running->get_nu())));
  return p;
}

void add_cost(const CostPtr& costs, const std::string& name, const ResidualPtr& residual,
              double weight) {
  costs->addCost(name, std::make_shared<crocoddyl::CostModelResidual>(costs->get_state(), residual),
                 weight);
}

// ---- arm --------------------------------------------------------------------------------------
constexpr std::size_t kArmHorizon = 250;
const double kArmQ0[] = {0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1, -0.005};
const Eigen::Vector3d kArmTarget(0.0, 0.0, 0.4);

Problem arm_pinocchio() {
  auto model = std::make_shared<pinocchio::Model>();
  pinocchio::urdf::buildModel(kData + "/talos_left_arm.urdf", *model);
  auto state = std::make_shared<crocoddyl::StateMultibody>(model);
  auto actuation = std::make_shared<crocoddyl::ActuationModelFull>(state);
  const std::size_t nu = actuation->get_nu();
  auto placement = std::make_shared<crocoddyl::ResidualModelFramePlacement>(
      state, model->getFrameId("gripper_left_joint"),
      pinocchio::SE3(Eigen::Matrix3d::Identity(), kArmTarget), nu);
  VectorXd armature = VectorXd::Constant(model->nv, 0.1);
  armature(model->nv - 1) = 0.0;
  const auto node = [&](bool terminal) {
    auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
    add_cost(costs, "gripperPose", placement, 1.0);
    if (!terminal) {
      add_cost(costs, "xReg", std::make_shared<crocoddyl::ResidualModelState>(state, nu), 1e-4);
      add_cost(costs, "uReg", std::make_shared<crocoddyl::ResidualModelControl>(state, nu), 1e-4);
    }
    auto dam = std::make_shared<crocoddyl::DifferentialActionModelFreeFwdDynamics>(state, actuation,
                                                                                   costs);
    dam->set_armature(armature);
    return std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, terminal ? 0.0 : 1e-3);
  };
  VectorXd x0 = VectorXd::Zero(2 * model->nv);
  for (int i = 0; i < 7; ++i) x0(i) = kArmQ0[i];
  return make_problem(x0, node(false), node(true), kArmHorizon);
}

Problem arm_liedyn() {
  liedyn::UrdfOptions welded;
  welded.weld_base = true;
  liedyn::Model<double> bare = liedyn::load_urdf_file(kData + "/talos_left_arm.urdf", welded);
  // The arm is a chain: liedyn's joint order is Pinocchio's. Armature 0.1 but on the gripper.
  VectorXd armature = VectorXd::Constant(bare.nv_joints(), 0.1);
  armature(bare.nv_joints() - 1) = 0.0;
  auto model = std::make_shared<const liedyn::Model<double>>(liedyn::with_armature(bare, armature));
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv());
  auto placement = std::make_shared<liedyn::crocoddyl::ResidualModelFramePlacementLiedyn>(
      state, "gripper_left_motor_double_link",
      liedyn::SE3<double>(Eigen::Matrix3d::Identity(), kArmTarget), nu);
  const auto node = [&](bool terminal) {
    auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
    add_cost(costs, "gripperPose", placement, 1.0);
    if (!terminal) {
      add_cost(costs, "xReg",
               std::make_shared<liedyn::crocoddyl::ResidualModelStateLiedyn>(state, nu), 1e-4);
      add_cost(costs, "uReg", std::make_shared<crocoddyl::ResidualModelControl>(state, nu), 1e-4);
    }
    auto dam = std::make_shared<liedyn::crocoddyl::DifferentialActionModelFreeFwdDynamicsLiedyn>(
        state, Actuation::Full, costs);
    return std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, terminal ? 0.0 : 1e-3);
  };
  VectorXd x0 = VectorXd::Zero(2 * model->nv());
  for (int i = 0; i < 7; ++i) x0(i) = kArmQ0[i];
  return make_problem(x0, node(false), node(true), kArmHorizon);
}

// ---- solo12 on three feet -------------------------------------------------------------------
constexpr std::size_t kSoloHorizon = 100;
const char* const kStance[] = {"FR_FOOT", "HL_FOOT", "HR_FOOT"};
const Eigen::Vector3d kSwingStep(0.05, 0.0, 0.05);

// Pinocchio's configuration with the knees bent (HAA, HFE, KFE per leg, Pinocchio's leg order
// FL, FR, HL, HR), the base at the origin.
VectorXd solo_q0(const pinocchio::Model& model) {
  VectorXd q = pinocchio::neutral(model);
  for (int leg = 0; leg < 4; ++leg) {
    q(7 + 3 * leg + 1) = leg < 2 ? 0.8 : -0.8;
    q(7 + 3 * leg + 2) = leg < 2 ? -1.6 : 1.6;
  }
  return q;
}

pinocchio::Model solo_pinocchio_model() {
  pinocchio::Model model;
  pinocchio::urdf::buildModel(kData + "/solo12.urdf", pinocchio::JointModelFreeFlyer(), model);
  return model;
}

Problem solo_pinocchio() {
  auto model = std::make_shared<pinocchio::Model>(solo_pinocchio_model());
  pinocchio::Data pdata(*model);
  const VectorXd q0 = solo_q0(*model);
  pinocchio::framesForwardKinematics(*model, pdata, q0);
  auto state = std::make_shared<crocoddyl::StateMultibody>(model);
  auto actuation = std::make_shared<crocoddyl::ActuationModelFloatingBase>(state);
  const std::size_t nu = actuation->get_nu();
  auto contacts = std::make_shared<crocoddyl::ContactModelMultiple>(state, nu);
  for (const char* f : kStance) {
    const auto id = model->getFrameId(f);
    contacts->addContact(f, std::make_shared<crocoddyl::ContactModel3D>(
                                state, id, pdata.oMf[id].translation(),
                                pinocchio::LOCAL_WORLD_ALIGNED, nu, Eigen::Vector2d(0.0, 50.0)));
  }
  VectorXd x0 = VectorXd::Zero(model->nq + model->nv);
  x0.head(model->nq) = q0;
  const auto swing_id = model->getFrameId("FL_FOOT");
  auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
  add_cost(costs, "state", std::make_shared<crocoddyl::ResidualModelState>(state, x0, nu), 2.0);
  add_cost(costs, "control", std::make_shared<crocoddyl::ResidualModelControl>(state, nu), 0.5);
  add_cost(costs, "swing",
           std::make_shared<crocoddyl::ResidualModelFrameTranslation>(
               state, swing_id, pdata.oMf[swing_id].translation() + kSwingStep, nu),
           100.0);
  auto dam = std::make_shared<crocoddyl::DifferentialActionModelContactFwdDynamics>(
      state, actuation, contacts, costs, 0.0, true);
  return make_problem(x0, std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 1e-2),
                      std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 0.0),
                      kSoloHorizon);
}

Problem solo_liedyn() {
  auto model =
      std::make_shared<const liedyn::Model<double>>(liedyn::load_urdf_file(kData + "/solo12.urdf"));
  const pinocchio::Model pmodel = solo_pinocchio_model();
  std::vector<std::string> names(pmodel.names.begin() + 2, pmodel.names.end());
  const auto perm = liedyn::interop::JointPermutation::from_names(*model, names);
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
  VectorXd x0_pin = VectorXd::Zero(pmodel.nq + pmodel.nv);
  x0_pin.head(pmodel.nq) = solo_q0(pmodel);
  const VectorXd x0 = state->from_pinocchio(x0_pin, perm);
  liedyn::Data<double> kin(*model);
  liedyn::State<double> s0(*model);
  state->read_state(x0, s0);
  liedyn::forward_poses(*model, kin, s0);
  std::vector<liedyn::crocoddyl::ContactLiedyn> stance;
  for (const char* f : kStance)
    stance.push_back(liedyn::crocoddyl::ContactLiedyn::point(
        f, liedyn::frame_pose(*model, kin, f).translation(), pinocchio::LOCAL_WORLD_ALIGNED,
        Eigen::Vector2d(0.0, 50.0)));
  auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
  add_cost(costs, "state",
           std::make_shared<liedyn::crocoddyl::ResidualModelStateLiedyn>(state, x0, nu), 2.0);
  add_cost(costs, "control", std::make_shared<crocoddyl::ResidualModelControl>(state, nu), 0.5);
  add_cost(costs, "swing",
           std::make_shared<liedyn::crocoddyl::ResidualModelFrameTranslationLiedyn>(
               state, "FL_FOOT",
               liedyn::frame_pose(*model, kin, "FL_FOOT").translation() + kSwingStep, nu),
           100.0);
  auto dam = std::make_shared<liedyn::crocoddyl::DifferentialActionModelContactFwdDynamicsLiedyn>(
      state, Actuation::FloatingBase, stance, costs);
  return make_problem(x0, std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 1e-2),
                      std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 0.0),
                      kSoloHorizon);
}

// ---- the timed calls --------------------------------------------------------------------------
using Builder = Problem (*)();

// calcDiff after a calc at the same point, as a solver calls it: Crocoddyl's Pinocchio-backed
// models reuse what their calc left in the data; the bridge's compute everything from (x, u).
void calc_diff(benchmark::State& st, Builder build) {
  Problem p = build();
  p.problem->set_nthreads(static_cast<int>(st.range(0)));
  p.problem->calc(p.xs, p.us);
  for (auto _ : st) p.problem->calcDiff(p.xs, p.us);
}

// calc then calcDiff: what one linearization of the problem costs either way.
void calc_and_calc_diff(benchmark::State& st, Builder build) {
  Problem p = build();
  p.problem->set_nthreads(static_cast<int>(st.range(0)));
  for (auto _ : st) {
    benchmark::DoNotOptimize(p.problem->calc(p.xs, p.us));
    p.problem->calcDiff(p.xs, p.us);
  }
}

void calc(benchmark::State& st, Builder build) {
  Problem p = build();
  p.problem->set_nthreads(static_cast<int>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(p.problem->calc(p.xs, p.us));
}

// One FDDP iteration from the guess (calcDiff, the backward pass, the line search's calcs).
void fddp_iteration(benchmark::State& st, Builder build) {
  Problem p = build();
  p.problem->set_nthreads(static_cast<int>(st.range(0)));
  crocoddyl::SolverFDDP solver(p.problem);
  for (auto _ : st) solver.solve(p.xs, p.us, 1, false);
}

}  // namespace

#define LIEDYN_CROC_BENCH(name, fn, builder) \
  BENCHMARK_CAPTURE(fn, name, builder)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)

LIEDYN_CROC_BENCH(arm_pinocchio, calc_diff, arm_pinocchio);
LIEDYN_CROC_BENCH(arm_liedyn, calc_diff, arm_liedyn);
LIEDYN_CROC_BENCH(arm_pinocchio, calc_and_calc_diff, arm_pinocchio);
LIEDYN_CROC_BENCH(arm_liedyn, calc_and_calc_diff, arm_liedyn);
LIEDYN_CROC_BENCH(arm_pinocchio, calc, arm_pinocchio);
LIEDYN_CROC_BENCH(arm_liedyn, calc, arm_liedyn);
LIEDYN_CROC_BENCH(arm_pinocchio, fddp_iteration, arm_pinocchio);
LIEDYN_CROC_BENCH(arm_liedyn, fddp_iteration, arm_liedyn);
LIEDYN_CROC_BENCH(solo12_pinocchio, calc_diff, solo_pinocchio);
LIEDYN_CROC_BENCH(solo12_liedyn, calc_diff, solo_liedyn);
LIEDYN_CROC_BENCH(solo12_pinocchio, calc_and_calc_diff, solo_pinocchio);
LIEDYN_CROC_BENCH(solo12_liedyn, calc_and_calc_diff, solo_liedyn);
LIEDYN_CROC_BENCH(solo12_pinocchio, calc, solo_pinocchio);
LIEDYN_CROC_BENCH(solo12_liedyn, calc, solo_liedyn);
LIEDYN_CROC_BENCH(solo12_pinocchio, fddp_iteration, solo_pinocchio);
LIEDYN_CROC_BENCH(solo12_liedyn, fddp_iteration, solo_liedyn);

BENCHMARK_MAIN();
