// liedyn tests — the Crocoddyl bridge's contact forward dynamics
// (include/liedyn/crocoddyl/contact_forward_dynamics.hpp, docs/crocoddyl.md).
//
// * Against Crocoddyl's own Pinocchio-backed DifferentialActionModelContactFwdDynamics:
//   tests/data/crocoddyl/{solo12_contact3d_local, solo12_contact3d_lwa, talos_contact6d_local,
//   talos_contact6d_lwa}.txt (scripts/generate_crocoddyl_reference.py): four 3D feet (LOCAL with
//   gains [25, 10] and targets off the feet, LOCAL_WORLD_ALIGNED with [0, 50]) and two 6D soles
//   (LOCAL [0, 40], LOCAL_WORLD_ALIGNED [0, 30]); solo12 again with joint armature
//   (LOCAL_WORLD_ALIGNED [10, 20]); floating-base actuation, the state + control
//   costs, ten random (x, u) each: xout, cost, the forces, Fx, Fu, df_dx, df_du and the cost
//   derivatives, converted with the map of docs/crocoddyl.md (contact rows need none).
// * Against central differences of calc: Fx, Fu, df_dx, df_du (solo12 with armature too).
// * The errors: unknown frame, WORLD sense, a 6D Kp, sizes, foreign data.
// * Crocoddyl's Euler integrator and FDDP on solo12 standing on three feet, the fourth moved by
//   ResidualModelFrameTranslationLiedyn; no allocation with that residual in the costs.
// * The contact force, friction cone and wrench cone residuals (residual_contact_force.hpp)
//   against Crocoddyl's on the same files (r, Rx, Ru, the cones' A), against central
//   differences, in a cost sum (no allocation), and their errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <crocoddyl/core/activations/quadratic-barrier.hpp>
#include <crocoddyl/core/activations/quadratic.hpp>
#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/testing/samples.hpp>

#include "../support/test_support.hpp"
#include "crocoddyl_reference.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace croc_test;
using liedyn::crocoddyl::Actuation;
using liedyn::crocoddyl::ContactLiedyn;
using liedyn::crocoddyl::DifferentialActionModelContactFwdDynamicsLiedyn;
using liedyn::crocoddyl::ResidualModelContactForceLiedyn;
using liedyn::crocoddyl::ResidualModelContactFrictionConeLiedyn;
using liedyn::crocoddyl::ResidualModelContactWrenchConeLiedyn;

namespace {

// The contacts a reference file describes (contact_kind, contact_sense, contact_gains,
// contact_frames, xref_contact.I).
std::vector<ContactLiedyn> reference_contacts(const Reference& ref) {
  const std::string kind = ref.words.at("contact_kind").at(0);
  const std::string sense_name = ref.words.at("contact_sense").at(0);
  const pinocchio::ReferenceFrame sense =
      sense_name == "LOCAL" ? pinocchio::LOCAL : pinocchio::LOCAL_WORLD_ALIGNED;
  const auto& g = ref.words.at("contact_gains");
  const Eigen::Vector2d gains(std::stod(g.at(0)), std::stod(g.at(1)));
  const auto& frames = ref.words.at("contact_frames");
  std::vector<ContactLiedyn> out;
  for (std::size_t k = 1; k < frames.size(); ++k) {
    if (kind == "3D")
      out.push_back(ContactLiedyn::point(
          frames[k], ref.vec("xref_contact." + std::to_string(k - 1)), sense, gains));
    else out.push_back(ContactLiedyn::rigid(frames[k], sense, gains));
  }
  return out;
}

// Central differences of calc: Fx, Fu (of xout) and df_dx, df_du (of λ), by columns.
struct ContactDifferences {
  MatrixXd Fx, Fu, df_dx, df_du;
};
ContactDifferences central_differences(DifferentialActionModelContactFwdDynamicsLiedyn& dam,
                                       const VectorXd& x, const VectorXd& u, double h) {
  const StateLiedyn& st = *dam.liedyn_state();
  const int ndx = static_cast<int>(st.get_ndx()), nv = static_cast<int>(st.get_nv());
  const int nu = static_cast<int>(dam.get_nu()), m = static_cast<int>(dam.get_nc());
  auto data = dam.createData();
  auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
  ContactDifferences out{MatrixXd(nv, ndx), MatrixXd(nv, nu), MatrixXd(m, ndx), MatrixXd(m, nu)};
  VectorXd xp(st.get_nx()), xm(st.get_nx());
  for (int c = 0; c < ndx; ++c) {
    const VectorXd e = VectorXd::Unit(ndx, c) * h;
    st.integrate(x, e, xp);
    st.integrate(x, -e, xm);
    dam.calc(data, xp, u);
    const VectorXd fp = d.xout, lp = d.constraints.lambda;
    dam.calc(data, xm, u);
    out.Fx.col(c) = (fp - d.xout) / (2 * h);
    out.df_dx.col(c) = (lp - d.constraints.lambda) / (2 * h);
  }
  for (int c = 0; c < nu; ++c) {
    const VectorXd e = VectorXd::Unit(nu, c) * h;
    dam.calc(data, x, u + e);
    const VectorXd fp = d.xout, lp = d.constraints.lambda;
    dam.calc(data, x, u - e);
    out.Fu.col(c) = (fp - d.xout) / (2 * h);
    out.df_du.col(c) = (lp - d.constraints.lambda) / (2 * h);
  }
  return out;
}

// The contact residuals a reference file describes (contact_residual_frame, contact_force_ref,
// cone_rotation, cone_mu, cone_facets, wrench_box), each with the label of its records.
using LabelledResidual = std::pair<std::string, std::shared_ptr<crocoddyl::ResidualModelAbstract>>;
std::vector<LabelledResidual> reference_contact_residuals(const Robot& r) {
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  const std::string frame = r.ref.words.at("contact_residual_frame").at(0);
  const bool rigid = r.ref.words.at("contact_kind").at(0) == "6D";
  const Eigen::Matrix3d rotation = r.ref.mat("cone_rotation");
  const double mu = std::stod(r.ref.words.at("cone_mu").at(0));
  const std::size_t facets = std::stoul(r.ref.words.at("cone_facets").at(0));
  const pinocchio::Force fref(Eigen::Matrix<double, 6, 1>(r.ref.vec("contact_force_ref")));
  std::vector<LabelledResidual> out = {
      {"contact_force",
       std::make_shared<ResidualModelContactForceLiedyn>(r.state, frame, fref, rigid ? 6 : 3, nu)},
      {"friction_cone",
       std::make_shared<ResidualModelContactFrictionConeLiedyn>(
           r.state, frame, crocoddyl::FrictionCone(rotation, mu, facets, true), nu)}};
  if (rigid) {
    const Eigen::Vector2d box = r.ref.vec("wrench_box");
    out.push_back({"wrench_cone", std::make_shared<ResidualModelContactWrenchConeLiedyn>(
                                      r.state, frame,
                                      crocoddyl::WrenchCone(rotation, mu, box, facets, true), nu)});
  }
  return out;
}

// The last one with joint armature on both sides (Crocoddyl adds it to M's diagonal).
const char* const kContactFiles[] = {"solo12_contact3d_local", "solo12_contact3d_lwa",
                                     "talos_contact6d_local", "talos_contact6d_lwa",
                                     "solo12_contact3d_armature"};

}  // namespace

TEST_CASE("crocoddyl bridge: contact forward dynamics agrees with Crocoddyl", "[crocoddyl]") {
  // kReferenceTol (crocoddyl_reference.hpp): the same mathematics in double on both sides; the
  // KKT solve adds the Delassus matrix's conditioning to M's, still far below 1e-9.
  for (const std::string name : kContactFiles) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    const VectorXd xref = st.from_pinocchio(r.ref.vec("xref"), r.perm);
    const VectorXd uref = r.Pu.transpose() * r.ref.vec("uref");
    const std::vector<ContactLiedyn> contacts = reference_contacts(r.ref);
    auto dam = std::make_shared<DifferentialActionModelContactFwdDynamicsLiedyn>(
        r.state, Actuation::FloatingBase, contacts, make_costs(r.state, nu, xref, uref));
    REQUIRE(dam->get_nu() == nu);
    auto data = dam->createData();
    auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
    std::map<std::string, double> worst;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      const VectorXd u = r.Pu.transpose() * r.ref.vec("u" + s);
      dam->calc(data, x, u);
      std::map<std::string, double> e = {
          {"xout", scaled_error(r.Pv * data->xout, r.ref.vec("xout" + s))},
          {"cost", scaled_error(VectorXd::Constant(1, data->cost), r.ref.vec("cost" + s))},
          {"lambda", scaled_error(d.constraints.lambda, r.ref.vec("lambda" + s))},
      };
      double e_force = 0.0;
      for (std::size_t c = 0; c < contacts.size(); ++c)
        e_force = std::max(e_force,
                           scaled_error(d.force(c), r.ref.vec("force." + contacts[c].frame + s)));
      e["force"] = e_force;
      const VectorXd xout_calc = data->xout;
      dam->calcDiff(data, x, u);
      e["xout after calcDiff"] = scaled_error(data->xout, xout_calc);
      e["Fx"] = scaled_error(r.Pv * data->Fx * r.T.transpose(), r.ref.mat("Fx" + s));
      e["Fu"] = scaled_error(r.Pv * data->Fu * r.Pu.transpose(), r.ref.mat("Fu" + s));
      e["df_dx"] = scaled_error(d.df_dx * r.T.transpose(), r.ref.mat("df_dx" + s));
      e["df_du"] = scaled_error(d.df_du * r.Pu.transpose(), r.ref.mat("df_du" + s));
      e["Lx"] = scaled_error(r.T * data->Lx, r.ref.vec("Lx" + s));
      e["Lu"] = scaled_error(r.Pu * data->Lu, r.ref.vec("Lu" + s));
      e["Lxx"] = scaled_error(r.T * data->Lxx * r.T.transpose(), r.ref.mat("Lxx" + s));
      e["Lxu"] = scaled_error(r.T * data->Lxu * r.Pu.transpose(), r.ref.mat("Lxu" + s));
      e["Luu"] = scaled_error(r.Pu * data->Luu * r.Pu.transpose(), r.ref.mat("Luu" + s));
      for (const auto& [what, err] : e) {
        INFO(what << " error " << err);
        CHECK(err < kReferenceTol);
        worst[what] = std::max(worst[what], err);
      }
    }
    for (const auto& [what, err] : worst) liedyn::test::report(name + ": " + what, err);
  }
}

TEST_CASE("crocoddyl bridge: contact derivatives against central differences", "[crocoddyl]") {
  // Central differences in double with h = 1e-5, errors relative to each quantity's scale
  // (λ reaches 1e3 N on talos): truncation h²|f'''|/6 and round-off ε κ |f| / h, where κ now
  // includes the Delassus matrix's conditioning — about 1e-9 of the scale at this step; a wrong
  // term would be O(1). Hence 1e-7.
  constexpr double kCentralTol = 1e-7;
  constexpr double kStep = 1e-5;
  struct Case {
    std::string file;
    bool armature;
  };
  for (const Case& cs :
       {Case{"solo12_contact3d_local", false}, Case{"solo12_contact3d_lwa", false},
        Case{"talos_contact6d_lwa", false}, Case{"solo12_contact3d_local", true}}) {
    Robot r = load_robot(cs.file);
    if (cs.armature) {
      VectorXd a(r.model->nv_joints());
      for (int k = 0; k < a.size(); ++k) a(k) = 0.01 * (k + 1);
      r.model = std::make_shared<const Model<double>>(liedyn::with_armature(*r.model, a));
      r.state = std::make_shared<StateLiedyn>(r.model);
    }
    const StateLiedyn& st = *r.state;
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    const VectorXd xref = st.from_pinocchio(r.ref.vec("xref"), r.perm);
    const VectorXd uref = r.Pu.transpose() * r.ref.vec("uref");
    for (const Actuation act : {Actuation::FloatingBase, Actuation::Full}) {
      const std::size_t n = act == Actuation::Full ? static_cast<std::size_t>(r.model->nv()) : nu;
      INFO(cs.file << (cs.armature ? " with armature" : "")
                   << (act == Actuation::Full ? ", full actuation" : ", floating base"));
      DifferentialActionModelContactFwdDynamicsLiedyn dam(
          r.state, act, reference_contacts(r.ref),
          make_costs(r.state, n, xref, VectorXd::Zero(static_cast<int>(n))));
      auto data = dam.createData();
      auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
      double worst = 0.0;
      for (int k = 0; k < 2; ++k) {
        const std::string s = "." + std::to_string(k);
        const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
        VectorXd u = VectorXd::Zero(static_cast<int>(n));
        u.tail(static_cast<int>(nu)) = r.Pu.transpose() * r.ref.vec("u" + s);
        dam.calcDiff(data, x, u);
        const ContactDifferences fd = central_differences(dam, x, u, kStep);
        const double e =
            std::max({scaled_error(data->Fx, fd.Fx), scaled_error(data->Fu, fd.Fu),
                      scaled_error(d.df_dx, fd.df_dx), scaled_error(d.df_du, fd.df_du)});
        INFO("sample " << k << " error " << e);
        CHECK(e < kCentralTol);
        worst = std::max(worst, e);
      }
      liedyn::test::report(cs.file + (cs.armature ? " armature" : "") +
                               (act == Actuation::Full ? " full" : " floating") +
                               ": Fx, Fu, df vs central differences",
                           worst);
    }
  }
}

TEST_CASE("crocoddyl bridge: contact model allocates nothing", "[crocoddyl]") {
  const Robot r = load_robot("talos_contact6d_lwa");
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  const VectorXd x = r.state->from_pinocchio(r.ref.vec("x.0"), r.perm);
  const VectorXd u = r.Pu.transpose() * r.ref.vec("u.0");
  DifferentialActionModelContactFwdDynamicsLiedyn dam(
      r.state, Actuation::FloatingBase, reference_contacts(r.ref),
      make_costs(r.state, nu, x, VectorXd::Zero(static_cast<int>(nu))));
  auto data = dam.createData();
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    dam.calc(data, x, u);
    dam.calcDiff(data, x, u);
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
}

TEST_CASE("crocoddyl bridge: contact model errors are named", "[crocoddyl]") {
  const Robot r = load_robot("solo12_contact3d_local");
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  auto costs = make_costs(r.state, nu, r.state->zero(), VectorXd::Zero(static_cast<int>(nu)));
  const auto make = [&](const std::vector<ContactLiedyn>& contacts) {
    return DifferentialActionModelContactFwdDynamicsLiedyn(r.state, Actuation::FloatingBase,
                                                           contacts, costs);
  };
  const Eigen::Vector3d p = Eigen::Vector3d::Zero();
  CHECK_THROWS_WITH(make({ContactLiedyn::point("FL_FOOT", p, pinocchio::LOCAL),
                          ContactLiedyn::point("FL_TOE", p, pinocchio::LOCAL)}),
                    Catch::Contains("contact 1 ('FL_TOE'): the model has no frame named 'FL_TOE'"));
  CHECK_THROWS_AS(make({ContactLiedyn::point("FL_TOE", p, pinocchio::LOCAL)}),
                  liedyn::InvalidArgument);
  CHECK_THROWS_WITH(make({ContactLiedyn::point("FL_FOOT", p, pinocchio::WORLD)}),
                    Catch::Contains("sense WORLD is not supported"));
  CHECK_THROWS_WITH(
      make({ContactLiedyn::rigid("FL_FOOT", pinocchio::LOCAL, Eigen::Vector2d(10.0, 1.0))}),
      Catch::Contains("a rigid contact's Kp must be 0"));
  CHECK_THROWS_WITH(make({}), Catch::Contains("no contacts"));
  // A null state or cost sum is refused before it is used (the sizes come from the state).
  CHECK_THROWS_WITH(
      DifferentialActionModelFreeFwdDynamicsLiedyn(nullptr, Actuation::FloatingBase, costs),
      Catch::Contains("DifferentialActionModelFreeFwdDynamicsLiedyn: the state is null"));
  CHECK_THROWS_WITH(
      DifferentialActionModelContactFwdDynamicsLiedyn(
          r.state, Actuation::FloatingBase,
          {ContactLiedyn::point("FL_FOOT", Eigen::Vector3d::Zero(), pinocchio::LOCAL)}, nullptr),
      Catch::Contains("DifferentialActionModelContactFwdDynamicsLiedyn: the cost sum is null"));

  auto dam = make({ContactLiedyn::point("FL_FOOT", p, pinocchio::LOCAL)});
  auto data = dam.createData();
  const VectorXd x = r.state->from_pinocchio(r.ref.vec("x.0"), r.perm);
  const VectorXd u = VectorXd::Zero(static_cast<int>(nu));
  CHECK_THROWS_WITH(dam.calc(data, x.head(5), u),
                    Catch::Contains("DifferentialActionModelContactFwdDynamicsLiedyn::calc: x has "
                                    "size 5, expected 37"));
  CHECK_THROWS_WITH(dam.calcDiff(data, x, u.head(3)),
                    Catch::Contains("DifferentialActionModelContactFwdDynamicsLiedyn::calcDiff: u "
                                    "has size 3, expected 12"));
  auto other = make({ContactLiedyn::point("FR_FOOT", p, pinocchio::LOCAL)});
  CHECK_THROWS_WITH(dam.calc(other.createData(), x, u),
                    Catch::Contains("data was created by another model"));
  CHECK(dam.checkData(data));
  CHECK(!other.checkData(data));
  dam.calc(data, x, u);
  auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
  CHECK(d.force(0).size() == 3);
  CHECK_THROWS_WITH(d.force(1), Catch::Contains("no contact 1 (the model has 1)"));
}

TEST_CASE("crocoddyl bridge: frame translation residual agrees with Crocoddyl", "[crocoddyl]") {
  // Against Crocoddyl's ResidualModelFrameTranslation (the first contact frame of each file,
  // Pinocchio's data computed by the generator): kReferenceTol, rounding only. Against central
  // differences of r along x ⊕ h e (h = 1e-6; r is smooth and of order 1, truncation ~1e-12,
  // round-off ~1e-10): 1e-8.
  using liedyn::crocoddyl::ResidualModelFrameTranslationLiedyn;
  for (const std::string name : kContactFiles) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    const std::string frame = r.ref.words.at("translation_frame").at(0);
    auto res = std::make_shared<ResidualModelFrameTranslationLiedyn>(
        r.state, frame, r.ref.vec("translation_ref"), nu);
    crocoddyl::DataCollectorAbstract collector;
    auto data = res->createData(&collector);
    auto data2 = res->createData(&collector);
    const int ndx = static_cast<int>(st.get_ndx());
    double e_r = 0.0, e_rx = 0.0, e_fd = 0.0;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      const VectorXd u = r.Pu.transpose() * r.ref.vec("u" + s);
      res->calc(data, x, u);
      res->calcDiff(data, x, u);
      e_r = std::max(e_r, scaled_error(data->r, r.ref.vec("translation_r" + s)));
      e_rx =
          std::max(e_rx, scaled_error(data->Rx * r.T.transpose(), r.ref.mat("translation_Rx" + s)));
      const double h = 1e-6;
      MatrixXd fd(3, ndx);
      VectorXd xp(st.get_nx()), xm(st.get_nx());
      for (int c = 0; c < ndx; ++c) {
        st.integrate(x, VectorXd::Unit(ndx, c) * h, xp);
        st.integrate(x, -VectorXd::Unit(ndx, c) * h, xm);
        res->calc(data2, xp);
        const VectorXd rp = data2->r;
        res->calc(data2, xm);
        fd.col(c) = (rp - data2->r) / (2 * h);
      }
      e_fd = std::max(e_fd, scaled_error(data->Rx, fd));
      CHECK(data->Ru.isZero(0.0));
    }
    CHECK(e_r < kReferenceTol);
    CHECK(e_rx < kReferenceTol);
    CHECK(e_fd < 1e-8);
    liedyn::test::report(name + ": frame translation r", e_r);
    liedyn::test::report(name + ": frame translation Rx", e_rx);
    liedyn::test::report(name + ": frame translation Rx vs central differences", e_fd);
  }
  const Robot r = load_robot("solo12_contact3d_lwa");
  CHECK_THROWS_WITH(
      ResidualModelFrameTranslationLiedyn(r.state, "FL_TOE", Eigen::Vector3d::Zero(), 12),
      Catch::Contains("ResidualModelFrameTranslationLiedyn: no frame named 'FL_TOE'"));
}

TEST_CASE("crocoddyl bridge: FDDP on the contact model with a frame translation cost",
          "[crocoddyl]") {
  // solo12 with bent legs on three feet (LOCAL_WORLD_ALIGNED, gains [0, 50], targets where the
  // feet are), the fourth foot asked 5 cm forward and up by ResidualModelFrameTranslationLiedyn
  // (weight 100) with the state and control costs; 20 Euler nodes of 10 ms. FDDP converges from
  // the zero-control rollout and lowers the cost; the foot moves towards its target.
  using liedyn::crocoddyl::ResidualModelFrameTranslationLiedyn;
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
  std::vector<ContactLiedyn> stance;
  for (const char* f : {"FR_FOOT", "HL_FOOT", "HR_FOOT"})
    stance.push_back(ContactLiedyn::point(f, liedyn::frame_pose(*model, kin, f).translation(),
                                          pinocchio::LOCAL_WORLD_ALIGNED,
                                          Eigen::Vector2d(0.0, 50.0)));
  const Eigen::Vector3d swing_start = liedyn::frame_pose(*model, kin, "FL_FOOT").translation();
  const Eigen::Vector3d target = swing_start + Eigen::Vector3d(0.05, 0.0, 0.05);
  auto costs = make_costs(state, nu, x0, VectorXd::Zero(static_cast<int>(nu)));
  auto swing = std::make_shared<ResidualModelFrameTranslationLiedyn>(state, "FL_FOOT", target, nu);
  costs->addCost("swing", std::make_shared<crocoddyl::CostModelResidual>(state, swing), 100.0);
  auto dam = std::make_shared<DifferentialActionModelContactFwdDynamicsLiedyn>(
      state, Actuation::FloatingBase, stance, costs);
  auto iam = std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 1e-2);
  auto terminal = std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 0.0);
  const std::size_t horizon = 20;
  std::vector<std::shared_ptr<crocoddyl::ActionModelAbstract>> running(horizon, iam);
  auto problem = std::make_shared<crocoddyl::ShootingProblem>(x0, running, terminal);
  crocoddyl::SolverFDDP solver(problem);
  std::vector<VectorXd> xs(horizon + 1, x0), us(horizon, VectorXd::Zero(static_cast<int>(nu)));
  problem->rollout(us, xs);
  const double initial_cost = problem->calc(xs, us);
  const bool converged = solver.solve(xs, us, 100, true);
  INFO("iterations " << solver.get_iter() << ", cost " << initial_cost << " -> "
                     << solver.get_cost() << ", stop " << solver.get_stop());
  CHECK(converged);
  CHECK(solver.get_cost() < initial_cost);
  state->read_state(solver.get_xs().back(), s0);
  liedyn::forward_poses(*model, kin, s0);
  const Eigen::Vector3d swing_end = liedyn::frame_pose(*model, kin, "FL_FOOT").translation();
  CHECK((swing_end - target).norm() < (swing_start - target).norm());
  liedyn::test::report("solo12 three feet: FDDP iterations",
                       static_cast<double>(solver.get_iter()));
  liedyn::test::report("solo12 three feet: FDDP cost ratio", solver.get_cost() / initial_cost);

  // No allocation in calc and calcDiff with the translation residual among the costs.
  auto data = dam->createData();
  const VectorXd u = VectorXd::Random(static_cast<int>(nu));
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    dam->calc(data, x0, u);
    dam->calcDiff(data, x0, u);
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
}

TEST_CASE("crocoddyl bridge: quasiStatic agrees with Crocoddyl's", "[crocoddyl]") {
  // Crocoddyl's quasiStatic at each reference x: u = S⁺ g(q) (free), the u of the minimum-norm
  // solution of S u + Jᵀ λ = g(q) (contact). kReferenceTol: the same closed form in double.
  // At rest with that u on the contact model (no Kp: J q̈ = 0 holds the feet), q̈ = 0 where
  // [S Jᵀ] has full row rank, which three or four feet give solo12 and two soles give talos:
  // 1e-9 of g's scale.
  const VectorXd none;
  for (const std::string name :
       {"solo12", "talos", "solo12_armature", "solo12_contact3d_local", "solo12_contact3d_lwa",
        "talos_contact6d_local", "talos_contact6d_lwa", "solo12_contact3d_armature"}) {
    const Robot r = load_robot(name);
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    const bool contact = r.ref.words.count("contact_kind") > 0;
    const bool holds = contact && r.ref.words.at("contact_gains").at(0) == "0.0";
    auto costs = make_costs(r.state, nu, r.state->zero(), VectorXd::Zero(static_cast<int>(nu)));
    std::shared_ptr<crocoddyl::DifferentialActionModelAbstract> dam;
    if (contact)
      dam = std::make_shared<DifferentialActionModelContactFwdDynamicsLiedyn>(
          r.state, Actuation::FloatingBase, reference_contacts(r.ref), costs);
    else
      dam = std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(
          r.state, Actuation::FloatingBase, costs);
    auto data = dam->createData();
    VectorXd u(static_cast<int>(nu));
    double e_u = 0.0, e_rest = 0.0;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      const VectorXd x = r.state->from_pinocchio(r.ref.vec("x" + s), r.perm);
      std::size_t allocations = 0;
      {
        liedyn::test::NoAllocation guard(liedyn::test::NoAllocation::count_only);
        dam->quasiStatic(data, u, x);
        allocations = guard.allocations();
      }
      CHECK(allocations == 0);
      e_u = std::max(e_u, scaled_error(r.Pu * u, r.ref.vec("quasi_static_u" + s)));
      if (holds) {
        VectorXd rest = x;
        rest.tail(r.state->get_nv()).setZero();
        dam->calc(data, rest, u);
        e_rest = std::max(e_rest, data->xout.cwiseAbs().maxCoeff() / 9.81);
      }
    }
    INFO(name);
    CHECK(e_u < kReferenceTol);
    CHECK(e_rest < 1e-9);
    liedyn::test::report(name + ": quasiStatic u", e_u);
    if (holds) liedyn::test::report(name + ": q̈ at rest with the quasi-static u", e_rest);
  }
}

TEST_CASE("crocoddyl bridge: contact force and cone residuals agree with Crocoddyl",
          "[crocoddyl]") {
  // Against Crocoddyl's residuals read from its contact model's data: r = A λ_c − b and its
  // Jacobians A ∂λ_c, products of what the first test checks to kReferenceTol with the same A.
  // Against central differences of r through the model's calc: as the contact derivatives' test
  // (h = 1e-5, 1e-7 of the scale; r is linear in λ).
  constexpr double kCentralTol = 1e-7;
  constexpr double kStep = 1e-5;
  for (const std::string name : kContactFiles) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    DifferentialActionModelContactFwdDynamicsLiedyn dam(
        r.state, Actuation::FloatingBase, reference_contacts(r.ref),
        make_costs(r.state, nu, st.zero(), VectorXd::Zero(static_cast<int>(nu))));
    auto data = dam.createData();
    auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
    const std::vector<LabelledResidual> residuals = reference_contact_residuals(r);
    std::vector<std::shared_ptr<crocoddyl::ResidualDataAbstract>> rdata;
    for (const auto& [label, res] : residuals) rdata.push_back(res->createData(&d.shared));
    const auto* friction =
        static_cast<const ResidualModelContactFrictionConeLiedyn*>(residuals[1].second.get());
    CHECK(scaled_error(friction->get_reference().get_A(), r.ref.mat("friction_cone_A")) <
          kReferenceTol);
    if (residuals.size() == 3) {
      const auto* wrench =
          static_cast<const ResidualModelContactWrenchConeLiedyn*>(residuals[2].second.get());
      CHECK(scaled_error(wrench->get_reference().get_A(), r.ref.mat("wrench_cone_A")) <
            kReferenceTol);
    }
    std::map<std::string, double> worst;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      const VectorXd u = r.Pu.transpose() * r.ref.vec("u" + s);
      dam.calc(data, x, u);
      for (std::size_t i = 0; i < residuals.size(); ++i) residuals[i].second->calc(rdata[i], x, u);
      dam.calcDiff(data, x, u);
      for (std::size_t i = 0; i < residuals.size(); ++i) {
        const std::string& label = residuals[i].first;
        residuals[i].second->calcDiff(rdata[i], x, u);
        const std::map<std::string, double> e = {
            {label + " r", scaled_error(rdata[i]->r, r.ref.vec(label + "_r" + s))},
            {label + " Rx",
             scaled_error(rdata[i]->Rx * r.T.transpose(), r.ref.mat(label + "_Rx" + s))},
            {label + " Ru",
             scaled_error(rdata[i]->Ru * r.Pu.transpose(), r.ref.mat(label + "_Ru" + s))}};
        for (const auto& [what, err] : e) {
          INFO(what << " error " << err);
          CHECK(err < kReferenceTol);
          worst[what] = std::max(worst[what], err);
        }
      }
    }
    for (const auto& [what, err] : worst) liedyn::test::report(name + ": " + what, err);

    // Central differences of r at the first sample, along x ⊕ h e and u + h e.
    const VectorXd x = st.from_pinocchio(r.ref.vec("x.0"), r.perm);
    const VectorXd u = r.Pu.transpose() * r.ref.vec("u.0");
    const int ndx = static_cast<int>(st.get_ndx()), n = static_cast<int>(nu);
    const auto residual_at = [&](std::size_t i, const VectorXd& xs, const VectorXd& us) {
      dam.calc(data, xs, us);
      residuals[i].second->calc(rdata[i], xs, us);
      return VectorXd(rdata[i]->r);
    };
    dam.calcDiff(data, x, u);
    for (std::size_t i = 0; i < residuals.size(); ++i) {
      residuals[i].second->calcDiff(rdata[i], x, u);
      const MatrixXd Rx = rdata[i]->Rx, Ru = rdata[i]->Ru;
      MatrixXd fx(Rx.rows(), ndx), fu(Ru.rows(), n);
      VectorXd xp(st.get_nx()), xm(st.get_nx());
      for (int c = 0; c < ndx; ++c) {
        st.integrate(x, VectorXd::Unit(ndx, c) * kStep, xp);
        st.integrate(x, -VectorXd::Unit(ndx, c) * kStep, xm);
        fx.col(c) = (residual_at(i, xp, u) - residual_at(i, xm, u)) / (2 * kStep);
      }
      for (int c = 0; c < n; ++c)
        fu.col(c) = (residual_at(i, x, u + VectorXd::Unit(n, c) * kStep) -
                     residual_at(i, x, u - VectorXd::Unit(n, c) * kStep)) /
                    (2 * kStep);
      const double e = std::max(scaled_error(Rx, fx), scaled_error(Ru, fu));
      INFO(name << " " << residuals[i].first << " vs central differences: " << e);
      CHECK(e < kCentralTol);
      liedyn::test::report(name + ": " + residuals[i].first + " vs central differences", e);
      // A terminal node has no contact force: r = 0, Rx = 0 (as Crocoddyl's).
      residuals[i].second->calc(rdata[i], x);
      residuals[i].second->calcDiff(rdata[i], x);
      CHECK(rdata[i]->r.isZero(0.0));
      CHECK(rdata[i]->Rx.isZero(0.0));
    }
  }
}

TEST_CASE("crocoddyl bridge: contact residuals in a cost sum allocate nothing", "[crocoddyl]") {
  // The friction cone under Crocoddyl's quadratic barrier and the wrench cone and force in
  // the cost sum of the talos model: the model's Lx against central differences of its cost
  // (1e-7, as above) shows the costs read the forces of this very call.
  const Robot r = load_robot("talos_contact6d_lwa");
  const StateLiedyn& st = *r.state;
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  auto costs = make_costs(r.state, nu, st.zero(), VectorXd::Zero(static_cast<int>(nu)));
  const std::vector<LabelledResidual> residuals = reference_contact_residuals(r);
  for (const auto& [label, res] : residuals) {
    std::shared_ptr<crocoddyl::ActivationModelAbstract> activation;
    if (label == "contact_force")
      activation = std::make_shared<crocoddyl::ActivationModelQuad>(res->get_nr());
    else
      activation =
          std::make_shared<crocoddyl::ActivationModelQuadraticBarrier>(crocoddyl::ActivationBounds(
              VectorXd::Constant(res->get_nr(), -1e3), VectorXd::Zero(res->get_nr())));
    costs->addCost(label, std::make_shared<crocoddyl::CostModelResidual>(r.state, activation, res),
                   1e-3);
  }
  DifferentialActionModelContactFwdDynamicsLiedyn dam(r.state, Actuation::FloatingBase,
                                                      reference_contacts(r.ref), costs);
  auto data = dam.createData();
  const VectorXd x = st.from_pinocchio(r.ref.vec("x.1"), r.perm);
  const VectorXd u = r.Pu.transpose() * r.ref.vec("u.1");
  // Crocoddyl's CostModelResidual forms Rxᵀ A'' Rx in libcrocoddyl, built with OpenMP: there
  // Eigen splits a product over threads when it is large (the wrench cone's: 17 × 100 × 100),
  // and that split allocates. One Eigen thread, as in a real-time loop (docs/crocoddyl.md).
  const int threads = Eigen::nbThreads();
  Eigen::setNbThreads(1);
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    dam.calc(data, x, u);
    dam.calcDiff(data, x, u);
    allocations = guard.allocations();
  }
  Eigen::setNbThreads(threads);
  CHECK(allocations == 0);
  const VectorXd Lx = data->Lx, Lu = data->Lu;
  const int ndx = static_cast<int>(st.get_ndx()), n = static_cast<int>(nu);
  constexpr double h = 1e-5;
  const auto cost_at = [&](const VectorXd& xs, const VectorXd& us) {
    dam.calc(data, xs, us);
    return data->cost;
  };
  VectorXd fx(ndx), fu(n), xp(st.get_nx()), xm(st.get_nx());
  for (int c = 0; c < ndx; ++c) {
    st.integrate(x, VectorXd::Unit(ndx, c) * h, xp);
    st.integrate(x, -VectorXd::Unit(ndx, c) * h, xm);
    fx(c) = (cost_at(xp, u) - cost_at(xm, u)) / (2 * h);
  }
  for (int c = 0; c < n; ++c)
    fu(c) = (cost_at(x, u + VectorXd::Unit(n, c) * h) - cost_at(x, u - VectorXd::Unit(n, c) * h)) /
            (2 * h);
  const double e = std::max(scaled_error(Lx, fx), scaled_error(Lu, fu));
  INFO("Lx, Lu vs central differences of the cost: " << e);
  CHECK(e < 1e-7);
  liedyn::test::report(
      "talos_contact6d_lwa with the contact residuals: Lx, Lu vs central "
      "differences",
      e);
}

TEST_CASE("crocoddyl bridge: contact residual errors are named", "[crocoddyl]") {
  const Robot r = load_robot("solo12_contact3d_local");
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  const pinocchio::Force f = pinocchio::Force::Zero();
  const crocoddyl::FrictionCone cone(Eigen::Matrix3d::Identity(), 0.7, 4, true);
  const crocoddyl::WrenchCone wrench(Eigen::Matrix3d::Identity(), 0.7, Eigen::Vector2d(0.1, 0.05),
                                     4, true);
  CHECK_THROWS_WITH(ResidualModelContactForceLiedyn(r.state, "FL_TOE", f, 3, nu),
                    Catch::Contains("no frame named 'FL_TOE'"));
  CHECK_THROWS_WITH(ResidualModelContactForceLiedyn(r.state, "FL_FOOT", f, 4, nu),
                    Catch::Contains("nc must be 3 or 6, not 4"));
  CHECK_THROWS_WITH(ResidualModelContactFrictionConeLiedyn(nullptr, "FL_FOOT", cone, nu),
                    Catch::Contains("ResidualModelContactFrictionConeLiedyn: the state is null"));
  // Where the forces are not: a free model's costs, another frame, too few rows.
  const auto in_costs = [&](std::shared_ptr<crocoddyl::ResidualModelAbstract> res) {
    auto costs = make_costs(r.state, nu, r.state->zero(), VectorXd::Zero(static_cast<int>(nu)));
    costs->addCost("contact", std::make_shared<crocoddyl::CostModelResidual>(r.state, res), 1.0);
    return costs;
  };
  auto force = std::make_shared<ResidualModelContactForceLiedyn>(r.state, "FL_FOOT", f, 3, nu);
  liedyn::crocoddyl::DifferentialActionModelFreeFwdDynamicsLiedyn free(
      r.state, Actuation::FloatingBase, in_costs(force));
  CHECK_THROWS_WITH(free.createData(),
                    Catch::Contains("ResidualModelContactForceLiedyn: it reads contact forces, so "
                                    "it belongs in the costs of a "
                                    "DifferentialActionModelContactFwdDynamicsLiedyn or an "
                                    "ActionModelImpulseFwdDynamicsLiedyn"));
  const Eigen::Vector3d p = Eigen::Vector3d::Zero();
  DifferentialActionModelContactFwdDynamicsLiedyn on_other_foot(
      r.state, Actuation::FloatingBase, {ContactLiedyn::point("FR_FOOT", p, pinocchio::LOCAL)},
      in_costs(force));
  CHECK_THROWS_WITH(on_other_foot.createData(),
                    Catch::Contains("the model has no contact at frame 'FL_FOOT'"));
  DifferentialActionModelContactFwdDynamicsLiedyn point_foot(
      r.state, Actuation::FloatingBase, {ContactLiedyn::point("FL_FOOT", p, pinocchio::LOCAL)},
      in_costs(
          std::make_shared<ResidualModelContactWrenchConeLiedyn>(r.state, "FL_FOOT", wrench, nu)));
  CHECK_THROWS_WITH(point_foot.createData(),
                    Catch::Contains("ResidualModelContactWrenchConeLiedyn: the contact at "
                                    "'FL_FOOT' has 3 rows, it reads 6"));
  // Data of another residual.
  DifferentialActionModelContactFwdDynamicsLiedyn dam(
      r.state, Actuation::FloatingBase, {ContactLiedyn::point("FL_FOOT", p, pinocchio::LOCAL)},
      in_costs(force));
  auto data = dam.createData();
  auto& d = static_cast<DifferentialActionModelContactFwdDynamicsLiedyn::Data&>(*data);
  ResidualModelContactFrictionConeLiedyn friction(r.state, "FL_FOOT", cone, nu);
  const VectorXd x = r.state->zero();
  const VectorXd u = VectorXd::Zero(static_cast<int>(nu));
  CHECK_THROWS_WITH(friction.calc(force->createData(&d.shared), x, u),
                    Catch::Contains("ResidualModelContactFrictionConeLiedyn::calc: data was not "
                                    "created by this residual"));
}

}  // namespace LIEDYN_UNITY_ID
