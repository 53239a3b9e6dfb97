// liedyn tests — the Crocoddyl bridge's impulse model
// (include/liedyn/crocoddyl/impulse_forward_dynamics.hpp, docs/crocoddyl.md).
//
// * Against Crocoddyl's own Pinocchio-backed ActionModelImpulseFwdDynamics:
//   tests/data/crocoddyl/{solo12_impulse3d_lwa, solo12_impulse3d_local, talos_impulse6d_lwa,
//   solo12_impulse3d_restitution}.txt (scripts/generate_crocoddyl_reference.py): two or three 3D
//   feet in either sense, one 6D sole, restitution 0 and 0.5, a state cost and a contact force
//   residual on the first impulse, ten random x each: xnext, cost, Λ, the contact force residual's
//   r, and without restitution Fx, df_dx, Lx, Lxx and the residual's Rx.
// * With restitution, Crocoddyl's Fx and df_dx are wrong: the generator records their error
//   against central differences of Crocoddyl's own xnext and Λ, and the test checks that it is
//   large, that ours differ from Crocoddyl's by as much, and that ours agree with central
//   differences (as on every file).
// * No allocation; the errors; the model in a Crocoddyl ShootingProblem solved by FDDP.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/crocoddyl/all.hpp>

#include "../support/test_support.hpp"
#include "crocoddyl_reference.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace croc_test;
using liedyn::crocoddyl::ActionModelImpulseFwdDynamicsLiedyn;
using liedyn::crocoddyl::ContactLiedyn;
using liedyn::crocoddyl::ResidualModelContactForceLiedyn;

namespace {

const char* const kImpulseFiles[] = {"solo12_impulse3d_lwa", "solo12_impulse3d_local",
                                     "talos_impulse6d_lwa", "solo12_impulse3d_restitution"};

// The impulses a reference file describes (contact_kind, contact_sense, contact_frames).
std::vector<ContactLiedyn> reference_impulses(const Reference& ref) {
  const bool rigid = ref.words.at("contact_kind").at(0) == "6D";
  const pinocchio::ReferenceFrame sense = ref.words.at("contact_sense").at(0) == "LOCAL"
                                              ? pinocchio::LOCAL
                                              : pinocchio::LOCAL_WORLD_ALIGNED;
  const auto& frames = ref.words.at("contact_frames");
  std::vector<ContactLiedyn> out;
  for (std::size_t k = 1; k < frames.size(); ++k)
    out.push_back(rigid ? ContactLiedyn::rigid(frames[k], sense)
                        : ContactLiedyn::point(frames[k], Eigen::Vector3d::Zero(), sense));
  return out;
}

// The file's model: its impulses and restitution, a state cost (weight kStateWeight, reference
// xref) and the contact force residual on the first impulse (weight 1).
std::shared_ptr<ActionModelImpulseFwdDynamicsLiedyn> reference_model(const Robot& r) {
  const std::vector<ContactLiedyn> impulses = reference_impulses(r.ref);
  auto costs = std::make_shared<crocoddyl::CostModelSum>(r.state, 0);
  costs->addCost("state",
                 std::make_shared<crocoddyl::CostModelResidual>(
                     r.state, std::make_shared<ResidualModelStateLiedyn>(
                                  r.state, r.state->from_pinocchio(r.ref.vec("xref"), r.perm), 0)),
                 kStateWeight);
  const pinocchio::Force fref(Eigen::Matrix<double, 6, 1>(r.ref.vec("impulse_force_ref")));
  costs->addCost("force",
                 std::make_shared<crocoddyl::CostModelResidual>(
                     r.state, std::make_shared<ResidualModelContactForceLiedyn>(
                                  r.state, impulses[0].frame, fref,
                                  static_cast<std::size_t>(impulses[0].dimension()), 0)),
                 1.0);
  const double restitution = std::stod(r.ref.words.at("restitution").at(0));
  return std::make_shared<ActionModelImpulseFwdDynamicsLiedyn>(r.state, impulses, costs,
                                                               restitution);
}

}  // namespace

TEST_CASE("crocoddyl bridge: impulse model agrees with Crocoddyl", "[crocoddyl]") {
  // kReferenceTol (crocoddyl_reference.hpp): the same mathematics in double on both sides.
  // With restitution only calc's outputs are compared: Crocoddyl's derivatives are wrong there
  // (the next test).
  for (const std::string name : kImpulseFiles) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    auto am = reference_model(r);
    const bool restitution = am->get_restitution() != 0.0;
    auto data = am->createData();
    auto& d = static_cast<ActionModelImpulseFwdDynamicsLiedyn::Data&>(*data);
    const int nv = r.ref.nv;
    const VectorXd none(0);
    std::map<std::string, double> worst;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      am->calc(data, x, none);
      const VectorXd xnext_pin =
          align_base_quaternion(st.to_pinocchio(data->xnext, r.perm), r.ref.vec("xnext" + s));
      const auto& force = *d.costs->costs.find("force")->second;
      std::map<std::string, double> e = {
          {"xnext", scaled_error(xnext_pin, r.ref.vec("xnext" + s))},
          {"cost", scaled_error(VectorXd::Constant(1, data->cost), r.ref.vec("cost" + s))},
          {"impulse", scaled_error(d.constraints.impulse, r.ref.vec("impulse" + s))},
          {"force r", scaled_error(force.residual->r, r.ref.vec("impulse_force_r" + s))}};
      am->calcDiff(data, x, none);
      if (!restitution) {
        CHECK(data->Fx.topRows(nv).isApprox(
            (MatrixXd(nv, 2 * nv) << MatrixXd::Identity(nv, nv), MatrixXd::Zero(nv, nv)).finished(),
            0.0));
        e["Fx"] =
            scaled_error(r.Pv * data->Fx.bottomRows(nv) * r.T.transpose(), r.ref.mat("Fx_v" + s));
        e["df_dx"] = scaled_error(d.df_dx * r.T.transpose(), r.ref.mat("df_dx" + s));
        e["Lx"] = scaled_error(r.T * data->Lx, r.ref.vec("Lx" + s));
        e["Lxx"] = scaled_error(r.T * data->Lxx * r.T.transpose(), r.ref.mat("Lxx" + s));
        e["force Rx"] =
            scaled_error(force.residual->Rx * r.T.transpose(), r.ref.mat("impulse_force_Rx" + s));
      }
      for (const auto& [what, err] : e) {
        INFO(what << " error " << err);
        CHECK(err < kReferenceTol);
        worst[what] = std::max(worst[what], err);
      }
    }
    for (const auto& [what, err] : worst) liedyn::test::report(name + ": " + what, err);
  }
}

TEST_CASE("crocoddyl bridge: impulse derivatives against central differences", "[crocoddyl]") {
  // h = 1e-5 and 1e-7 of each quantity's scale, as the contact model's test: the same KKT
  // system, its conditioning in the round-off; a wrong term would be O(1).
  constexpr double kCentralTol = 1e-7;
  constexpr double h = 1e-5;
  for (const std::string name : kImpulseFiles) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    auto am = reference_model(r);
    auto data = am->createData();
    auto& d = static_cast<ActionModelImpulseFwdDynamicsLiedyn::Data&>(*data);
    const int ndx = static_cast<int>(st.get_ndx()), nv = r.ref.nv;
    const VectorXd none(0);
    double worst = 0.0;
    for (int k = 0; k < 2; ++k) {
      const std::string s = "." + std::to_string(k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      am->calcDiff(data, x, none);
      const MatrixXd Fx = data->Fx, df_dx = d.df_dx;
      MatrixXd fx(ndx, ndx), ff(df_dx.rows(), ndx);
      VectorXd xp(st.get_nx()), xm(st.get_nx()), step(ndx);
      for (int c = 0; c < ndx; ++c) {
        st.integrate(x, VectorXd::Unit(ndx, c) * h, xp);
        st.integrate(x, -VectorXd::Unit(ndx, c) * h, xm);
        am->calc(data, xp, none);
        const VectorXd next_plus = data->xnext, impulse_plus = d.constraints.impulse;
        am->calc(data, xm, none);
        st.diff(data->xnext, next_plus, step);
        fx.col(c) = step / (2 * h);
        ff.col(c) = (impulse_plus - d.constraints.impulse) / (2 * h);
      }
      const double e = std::max(scaled_error(Fx, fx), scaled_error(df_dx, ff));
      INFO(name << " sample " << k << " error " << e);
      CHECK(e < kCentralTol);
      worst = std::max(worst, e);
      if (am->get_restitution() != 0.0) {
        // Crocoddyl's own Fx, df_dx miss their central differences by a large fraction, and
        // ours differ from them by as much: the difference is Crocoddyl's.
        CHECK(r.ref.vec("Fx_own_fd_error")(0) > 0.1);
        CHECK(r.ref.vec("df_dx_own_fd_error")(0) > 0.1);
        // The cause: with the term −e (K⁻¹)₁₂ J that restitution adds to ∂v⁺/∂v⁻, Crocoddyl's
        // velocity block agrees with its differences.
        CHECK(r.ref.vec("Fx_velocity_block_corrected_fd_error")(0) < 1e-6);
        const double theirs = std::max(
            scaled_error(r.Pv * Fx.bottomRows(nv) * r.T.transpose(), r.ref.mat("Fx_v" + s)),
            scaled_error(df_dx * r.T.transpose(), r.ref.mat("df_dx" + s)));
        INFO("ours against Crocoddyl's " << theirs);
        CHECK(theirs > 0.1);
        liedyn::test::report(name + ": ours against Crocoddyl's Fx, df_dx" + s, theirs);
      } else {
        CHECK(r.ref.vec("Fx_own_fd_error")(0) < 1e-6);
        CHECK(r.ref.vec("df_dx_own_fd_error")(0) < 1e-6);
      }
    }
    liedyn::test::report(name + ": Fx, df_dx vs central differences", worst);
  }
}

TEST_CASE("crocoddyl bridge: impulse model allocates nothing", "[crocoddyl]") {
  // One Eigen thread: Crocoddyl's Rxᵀ A'' Rx of the force residual on talos (6 × 100 × 100) is
  // split over OpenMP threads otherwise, which allocates (docs/crocoddyl.md).
  const Robot r = load_robot("talos_impulse6d_lwa");
  auto am = reference_model(r);
  auto data = am->createData();
  const VectorXd x = r.state->from_pinocchio(r.ref.vec("x.0"), r.perm);
  const VectorXd none(0);
  const int threads = Eigen::nbThreads();
  Eigen::setNbThreads(1);
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    am->calc(data, x, none);
    am->calcDiff(data, x, none);
    am->calc(data, x);
    am->calcDiff(data, x);
    allocations = guard.allocations();
  }
  Eigen::setNbThreads(threads);
  CHECK(allocations == 0);
}

TEST_CASE("crocoddyl bridge: impulse model errors are named", "[crocoddyl]") {
  const Robot r = load_robot("solo12_impulse3d_lwa");
  const std::vector<ContactLiedyn> feet = reference_impulses(r.ref);
  auto costs = std::make_shared<crocoddyl::CostModelSum>(r.state, 0);
  CHECK_THROWS_WITH(ActionModelImpulseFwdDynamicsLiedyn(nullptr, feet, costs),
                    Catch::Contains("ActionModelImpulseFwdDynamicsLiedyn: the state is null"));
  CHECK_THROWS_WITH(ActionModelImpulseFwdDynamicsLiedyn(r.state, feet, nullptr),
                    Catch::Contains("ActionModelImpulseFwdDynamicsLiedyn: the cost sum is null"));
  CHECK_THROWS_WITH(ActionModelImpulseFwdDynamicsLiedyn(
                        r.state, feet, std::make_shared<crocoddyl::CostModelSum>(r.state, 12)),
                    Catch::Contains("the costs have nu = 12, expected 0"));
  CHECK_THROWS_WITH(ActionModelImpulseFwdDynamicsLiedyn(r.state, feet, costs, 1.5),
                    Catch::Contains("the restitution must lie in [0, 1]"));
  CHECK_THROWS_WITH(ActionModelImpulseFwdDynamicsLiedyn(r.state, {}, costs),
                    Catch::Contains("ActionModelImpulseFwdDynamicsLiedyn: no contacts"));
  CHECK_THROWS_WITH(
      ActionModelImpulseFwdDynamicsLiedyn(
          r.state, {ContactLiedyn::point("FL_TOE", Eigen::Vector3d::Zero(), pinocchio::LOCAL)},
          costs),
      Catch::Contains("contact 0 ('FL_TOE'): the model has no frame named 'FL_TOE'"));
  ActionModelImpulseFwdDynamicsLiedyn am(r.state, feet, costs);
  auto data = am.createData();
  const VectorXd x = r.state->from_pinocchio(r.ref.vec("x.0"), r.perm);
  CHECK_THROWS_WITH(am.calc(data, x, VectorXd::Zero(3)),
                    Catch::Contains("ActionModelImpulseFwdDynamicsLiedyn::calc: u has size 3, "
                                    "expected 0 (an impact has no control)"));
  CHECK_THROWS_WITH(am.calcDiff(data, x.head(5)),
                    Catch::Contains("ActionModelImpulseFwdDynamicsLiedyn::calcDiff: x has size "
                                    "5, expected 37"));
  ActionModelImpulseFwdDynamicsLiedyn other(r.state, feet, costs);
  CHECK_THROWS_WITH(am.calc(other.createData(), x),
                    Catch::Contains("data was created by another model"));
  CHECK(am.checkData(data));
  CHECK(!other.checkData(data));
  am.calc(data, x);
  auto& d = static_cast<ActionModelImpulseFwdDynamicsLiedyn::Data&>(*data);
  CHECK(d.impulse(1).size() == 3);
  CHECK_THROWS_WITH(d.impulse(2), Catch::Contains("no contact 2 (the model has 2)"));
}

TEST_CASE("crocoddyl bridge: FDDP through an impact", "[crocoddyl]") {
  // A jump's landing, as Crocoddyl's gait examples build it: solo12 with bent legs falling at
  // 0.5 m/s onto its four feet (an impulse node, no control), then standing on them (10 Euler
  // nodes of 10 ms on the contact model, LOCAL_WORLD_ALIGNED, gains [0, 50]), the state cost
  // towards the standing pose. FDDP from the quasi-static controls lowers the cost of their
  // rollout; the impact leaves the feet at rest and takes kinetic energy away.
  auto model =
      std::make_shared<const Model<double>>(liedyn::load_urdf_file(kData + "/solo12.urdf"));
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
  VectorXd x0 = state->zero();
  for (int leg = 0; leg < 4; ++leg) {  // HAA, HFE, KFE per leg: knees bent
    x0(7 + 3 * leg + 1) = leg < 2 ? 0.8 : -0.8;
    x0(7 + 3 * leg + 2) = leg < 2 ? -1.6 : 1.6;
  }
  liedyn::Data<double> kin(*model);
  liedyn::State<double> s0(*model);
  state->read_state(x0, s0);
  liedyn::forward_poses(*model, kin, s0);
  std::vector<ContactLiedyn> feet;
  for (const char* f : {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"})
    feet.push_back(ContactLiedyn::point(f, liedyn::frame_pose(*model, kin, f).translation(),
                                        pinocchio::LOCAL_WORLD_ALIGNED,
                                        Eigen::Vector2d(0.0, 50.0)));
  VectorXd falling = x0;
  falling(static_cast<int>(state->get_nq()) + 2) = -0.5;  // ν's linear z: the base is level
  auto impact_costs = std::make_shared<crocoddyl::CostModelSum>(state, 0);
  impact_costs->addCost("state",
                        std::make_shared<crocoddyl::CostModelResidual>(
                            state, std::make_shared<ResidualModelStateLiedyn>(state, x0, 0)),
                        kStateWeight);
  auto impact = std::make_shared<ActionModelImpulseFwdDynamicsLiedyn>(state, feet, impact_costs);
  auto stand = std::make_shared<crocoddyl::IntegratedActionModelEuler>(
      std::make_shared<liedyn::crocoddyl::DifferentialActionModelContactFwdDynamicsLiedyn>(
          state, liedyn::crocoddyl::Actuation::FloatingBase, feet,
          make_costs(state, nu, x0, VectorXd::Zero(static_cast<int>(nu)))),
      1e-2);
  std::vector<std::shared_ptr<crocoddyl::ActionModelAbstract>> running = {impact};
  for (int k = 0; k < 10; ++k) running.push_back(stand);
  auto problem = std::make_shared<crocoddyl::ShootingProblem>(falling, running, stand);
  std::vector<VectorXd> us = {VectorXd::Zero(0)};
  for (std::size_t k = 1; k < running.size(); ++k) {
    VectorXd u(nu);
    running[k]->quasiStatic(problem->get_runningDatas()[k], u, x0);
    us.push_back(u);
  }
  std::vector<VectorXd> xs(running.size() + 1, falling);
  problem->rollout(us, xs);
  const double initial_cost = problem->calc(xs, us);
  crocoddyl::SolverFDDP solver(problem);
  const bool converged = solver.solve(xs, us, 100, true);
  INFO("iterations " << solver.get_iter() << ", cost " << initial_cost << " -> "
                     << solver.get_cost() << ", stop " << solver.get_stop());
  CHECK(converged);
  CHECK(solver.get_cost() < initial_cost);
  liedyn::test::report("solo12 landing: FDDP iterations", solver.get_iter());
  // The impact leaves the feet at rest: J v⁺ = 0 (restitution 0).
  auto data = impact->createData();
  impact->calc(data, falling);
  const auto& d = static_cast<const ActionModelImpulseFwdDynamicsLiedyn::Data&>(*data);
  const VectorXd feet_velocity = d.constraints.J * d.constraints.v_after;
  INFO("feet velocity after the impact " << feet_velocity.transpose());
  CHECK(feet_velocity.lpNorm<Eigen::Infinity>() < 1e-12);
  // A plastic impact dissipates: the kinetic energy ½ vᵀ M v does not grow.
  const int nv = model->nv();
  const VectorXd v_before = falling.tail(nv), v_after = d.constraints.v_after;
  const double before = 0.5 * v_before.dot(d.dynamics.M * v_before);
  const double after = 0.5 * v_after.dot(d.dynamics.M * v_after);
  INFO("kinetic energy " << before << " -> " << after);
  CHECK(after < before);
}

}  // namespace LIEDYN_UNITY_ID
