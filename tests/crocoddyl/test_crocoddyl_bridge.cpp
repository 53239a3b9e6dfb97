// liedyn tests — the Crocoddyl bridge (include/liedyn/crocoddyl/, docs/crocoddyl.md), built only
// when Crocoddyl 3.2 is found (tests/CMakeLists.txt).
//
// * Against Crocoddyl's own Pinocchio-backed classes: tests/data/crocoddyl/{solo12,talos}.txt
//   (scripts/generate_crocoddyl_reference.py) hold DifferentialActionModelFreeFwdDynamics with a
//   floating-base actuation and a state + control cost, and StateMultibody's group operations, at
//   ten random (x, u) per robot. The same URDF is loaded here; states, tangents and Jacobians
//   are converted with the map of state.hpp (the joint permutation alone).
// * Against central differences: Fx, Fu, Lx, Lu of the action model and the Jacobians of the
//   group operations, on solo12 and on random trees with every joint type (moving and welded
//   base, armature), with both actuations; Crocoddyl's NumDiff model on the same models.
// * The errors: wrong sizes of x, u, dx and Jin, data of another model.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <crocoddyl/core/costs/cost-sum.hpp>
#include <crocoddyl/core/costs/residual.hpp>
#include <crocoddyl/core/integrator/euler.hpp>
#include <crocoddyl/core/numdiff/diff-action.hpp>
#include <crocoddyl/core/optctrl/shooting.hpp>
#include <crocoddyl/core/residuals/control.hpp>
#include <crocoddyl/core/solvers/fddp.hpp>
#include <crocoddyl/multibody/residuals/state.hpp>

#include <liedyn/crocoddyl/all.hpp>
#include <liedyn/model/urdf.hpp>
#include <liedyn/testing/samples.hpp>

#include "../support/test_support.hpp"
#include "crocoddyl_reference.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace croc_test;

TEST_CASE("crocoddyl bridge: state operations agree with Crocoddyl StateMultibody", "[crocoddyl]") {
  for (const std::string name : {"solo12", "talos"}) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    const int ndx = static_cast<int>(st.get_ndx());
    double worst = 0.0;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      const VectorXd x1 = st.from_pinocchio(r.ref.vec("x1" + s), r.perm);
      const VectorXd dx = r.T.transpose() * r.ref.vec("dx" + s);

      // The round trip of the conversion itself.
      const VectorXd back = align_base_quaternion(st.to_pinocchio(x, r.perm), r.ref.vec("x" + s));
      CHECK(scaled_error(back, r.ref.vec("x" + s)) < 1e-15);  // copies; the quaternion renormalized

      VectorXd d(ndx);
      st.diff(x, x1, d);
      const double e_diff = scaled_error(r.T * d, r.ref.vec("diff" + s));
      VectorXd xi(st.get_nx());
      st.integrate(x, dx, xi);
      const VectorXd xi_pin =
          align_base_quaternion(st.to_pinocchio(xi, r.perm), r.ref.vec("integrate" + s));
      const double e_int = scaled_error(xi_pin, r.ref.vec("integrate" + s));

      MatrixXd J0(ndx, ndx), J1(ndx, ndx);
      st.Jdiff(x, x1, J0, J1, crocoddyl::both);
      const double e_jd0 = scaled_error(r.T * J0 * r.T.transpose(), r.ref.mat("Jdiff_first" + s));
      const double e_jd1 = scaled_error(r.T * J1 * r.T.transpose(), r.ref.mat("Jdiff_second" + s));
      st.Jintegrate(x, dx, J0, J1, crocoddyl::both);
      const double e_ji0 =
          scaled_error(r.T * J0 * r.T.transpose(), r.ref.mat("Jintegrate_first" + s));
      const double e_ji1 =
          scaled_error(r.T * J1 * r.T.transpose(), r.ref.mat("Jintegrate_second" + s));
      double e_tr = 0.0;
      for (const auto& [which, comp] :
           {std::pair<std::string, crocoddyl::Jcomponent>{"first", crocoddyl::first},
            std::pair<std::string, crocoddyl::Jcomponent>{"second", crocoddyl::second}}) {
        MatrixXd jin = r.T.transpose() * r.ref.mat("Jin" + s);
        st.JintegrateTransport(x, dx, jin, comp);
        e_tr =
            std::max(e_tr, scaled_error(r.T * jin, r.ref.mat("JintegrateTransport_" + which + s)));
      }
      CHECK(e_diff < kReferenceTol);
      CHECK(e_int < kReferenceTol);
      CHECK(e_jd0 < kReferenceTol);
      CHECK(e_jd1 < kReferenceTol);
      CHECK(e_ji0 < kReferenceTol);
      CHECK(e_ji1 < kReferenceTol);
      CHECK(e_tr < kReferenceTol);
      worst = std::max({worst, e_diff, e_int, e_jd0, e_jd1, e_ji0, e_ji1, e_tr});
    }
    liedyn::test::report(name + ": state operations vs StateMultibody", worst);
  }
}

TEST_CASE("crocoddyl bridge: free forward dynamics and costs agree with Crocoddyl", "[crocoddyl]") {
  // solo12_armature: joint armature in both models; Crocoddyl then factorizes M + diag(armature)
  // and differentiates RNEA instead of running ABA and its derivatives.
  for (const std::string name : {"solo12", "talos", "solo12_armature"}) {
    const Robot r = load_robot(name);
    const StateLiedyn& st = *r.state;
    const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
    const VectorXd xref = st.from_pinocchio(r.ref.vec("xref"), r.perm);
    const VectorXd uref = r.Pu.transpose() * r.ref.vec("uref");
    auto dam = std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(
        r.state, Actuation::FloatingBase, make_costs(r.state, nu, xref, uref));
    REQUIRE(dam->get_nu() == nu);
    auto data = dam->createData();
    std::map<std::string, double> worst;
    for (int k = 0; k < r.ref.samples; ++k) {
      const std::string s = "." + std::to_string(k);
      INFO(name << " sample " << k);
      const VectorXd x = st.from_pinocchio(r.ref.vec("x" + s), r.perm);
      const VectorXd u = r.Pu.transpose() * r.ref.vec("u" + s);
      dam->calc(data, x, u);
      dam->calcDiff(data, x, u);
      const std::map<std::string, double> e = {
          {"xout", scaled_error(r.Pv * data->xout, r.ref.vec("xout" + s))},
          {"cost", scaled_error(VectorXd::Constant(1, data->cost), r.ref.vec("cost" + s))},
          {"Fx", scaled_error(r.Pv * data->Fx * r.T.transpose(), r.ref.mat("Fx" + s))},
          {"Fu", scaled_error(r.Pv * data->Fu * r.Pu.transpose(), r.ref.mat("Fu" + s))},
          {"Lx", scaled_error(r.T * data->Lx, r.ref.vec("Lx" + s))},
          {"Lu", scaled_error(r.Pu * data->Lu, r.ref.vec("Lu" + s))},
          {"Lxx", scaled_error(r.T * data->Lxx * r.T.transpose(), r.ref.mat("Lxx" + s))},
          {"Lxu", scaled_error(r.T * data->Lxu * r.Pu.transpose(), r.ref.mat("Lxu" + s))},
          {"Luu", scaled_error(r.Pu * data->Luu * r.Pu.transpose(), r.ref.mat("Luu" + s))},
      };
      for (const auto& [what, err] : e) {
        INFO(what << " error " << err);
        CHECK(err < kReferenceTol);
        worst[what] = std::max(worst[what], err);
      }
    }
    for (const auto& [what, err] : worst) liedyn::test::report(name + ": " + what, err);
  }
}

TEST_CASE("crocoddyl bridge: Crocoddyl's ResidualModelState misses Jdiff on a Lie-group state",
          "[crocoddyl]") {
  // Why ResidualModelStateLiedyn exists (residual_state.hpp): Crocoddyl's own state residual,
  // on a state that is not StateMultibody, writes Lx = A_r, dropping R_x = Jdiff. The residual
  // and the cost are right, the gradient is not; if a Crocoddyl release fixes this, this test
  // fails and the bridge's residual can go.
  const Robot r = load_robot("solo12");
  const std::size_t nu = static_cast<std::size_t>(r.ref.nu);
  const VectorXd xref = r.state->from_pinocchio(r.ref.vec("xref"), r.perm);
  const VectorXd uref = r.Pu.transpose() * r.ref.vec("uref");
  auto plain = std::make_shared<crocoddyl::ResidualModelState>(r.state, xref, nu);
  DifferentialActionModelFreeFwdDynamicsLiedyn dam(r.state, Actuation::FloatingBase,
                                                   make_costs(r.state, nu, xref, uref, plain));
  auto data = dam.createData();
  const VectorXd x = r.state->from_pinocchio(r.ref.vec("x.0"), r.perm);
  const VectorXd u = r.Pu.transpose() * r.ref.vec("u.0");
  dam.calc(data, x, u);
  dam.calcDiff(data, x, u);
  CHECK(scaled_error(VectorXd::Constant(1, data->cost), r.ref.vec("cost.0")) < kReferenceTol);
  CHECK(scaled_error(r.T * data->Lx, r.ref.vec("Lx.0")) > 1e-3);  // the base block's Jr⁻¹(η) ≠ 1
}

namespace {

// Central differences of the action model through the state's integrate: Fx, Fu and the cost's
// gradient (Lx, Lu) by columns.
struct Differences {
  MatrixXd Fx, Fu;
  VectorXd Lx, Lu;
};
Differences central_differences(DifferentialActionModelFreeFwdDynamicsLiedyn& dam,
                                const VectorXd& x, const VectorXd& u, double h) {
  const StateLiedyn& st = *dam.liedyn_state();
  const int ndx = static_cast<int>(st.get_ndx()), nv = static_cast<int>(st.get_nv());
  const int nu = static_cast<int>(dam.get_nu());
  auto d = dam.createData();
  Differences out{MatrixXd(nv, ndx), MatrixXd(nv, nu), VectorXd(ndx), VectorXd(nu)};
  VectorXd xp(st.get_nx()), xm(st.get_nx());
  for (int c = 0; c < ndx; ++c) {
    const VectorXd e = VectorXd::Unit(ndx, c) * h;
    st.integrate(x, e, xp);
    st.integrate(x, -e, xm);
    dam.calc(d, xp, u);
    const VectorXd fp = d->xout;
    const double cp = d->cost;
    dam.calc(d, xm, u);
    out.Fx.col(c) = (fp - d->xout) / (2 * h);
    out.Lx(c) = (cp - d->cost) / (2 * h);
  }
  for (int c = 0; c < nu; ++c) {
    const VectorXd e = VectorXd::Unit(nu, c) * h;
    dam.calc(d, x, u + e);
    const VectorXd fp = d->xout;
    const double cp = d->cost;
    dam.calc(d, x, u - e);
    out.Fu.col(c) = (fp - d->xout) / (2 * h);
    out.Lu(c) = (cp - d->cost) / (2 * h);
  }
  return out;
}

// Models for the finite-difference checks: solo12 and random trees of every joint type.
std::vector<std::pair<std::string, std::shared_ptr<const Model<double>>>> fd_models() {
  std::vector<std::pair<std::string, std::shared_ptr<const Model<double>>>> ms;
  ms.emplace_back("solo12", std::make_shared<const Model<double>>(
                                liedyn::load_urdf_file(kData + "/solo12.urdf")));
  std::mt19937 rng(7);
  liedyn::RandomModelOptions o;
  o.every_joint_type = true;
  o.branching = 3;
  o.armature = 0.05;
  ms.emplace_back("every joint type, moving base, armature",
                  std::make_shared<const Model<double>>(liedyn::random_model<double>(9, rng, o)));
  o.moving_base = false;
  ms.emplace_back("every joint type, welded base, armature",
                  std::make_shared<const Model<double>>(liedyn::random_model<double>(8, rng, o)));
  return ms;
}

}  // namespace

TEST_CASE("crocoddyl bridge: action derivatives against central differences", "[crocoddyl]") {
  // Central differences in double, errors relative to each quantity's scale. Fx, Fu with
  // h = 1e-5, the bottom of the error's V (docs/conventions.md §5): truncation h²|f'''|/6 and
  // round-off ε κ(M) |xout| / h (the random trees' M is poorly conditioned) both near 1e-9 of
  // the scale. Lx, Lu with h = 1e-4: the cost (up to ~1e3 here) loses ε |ℓ| / h to round-off,
  // 2e-9 at that step against gradients of order 1–10, and truncation is h²|ℓ'''|/6. Hence
  // 1e-7; a wrong term would be O(1) of the scale.
  constexpr double kCentralTol = 1e-7;
  constexpr double kDynamicsStep = 1e-5, kCostStep = 1e-4;
  for (const auto& [label, model] : fd_models()) {
    for (const Actuation act : {Actuation::FloatingBase, Actuation::Full}) {
      INFO(label << (act == Actuation::Full ? ", full actuation" : ", floating-base actuation"));
      auto state = std::make_shared<StateLiedyn>(model);
      const std::size_t nu =
          static_cast<std::size_t>(act == Actuation::Full ? model->nv() : model->nv_joints());
      std::mt19937 rng(11);
      std::uniform_real_distribution<double> U(-1.0, 1.0);
      const VectorXd xref = state->from_state(liedyn::random_state(*model, rng));
      const VectorXd uref = VectorXd::NullaryExpr(static_cast<int>(nu), [&] { return U(rng); });
      DifferentialActionModelFreeFwdDynamicsLiedyn dam(state, act,
                                                       make_costs(state, nu, xref, uref));
      auto data = dam.createData();
      double worst = 0.0;
      for (int k = 0; k < 3; ++k) {
        const VectorXd x = state->from_state(liedyn::random_state(*model, rng));
        const VectorXd u =
            VectorXd::NullaryExpr(static_cast<int>(nu), [&] { return 5.0 * U(rng); });
        dam.calc(data, x, u);
        dam.calcDiff(data, x, u);
        const Differences fd = central_differences(dam, x, u, kDynamicsStep);
        const Differences fd_cost = central_differences(dam, x, u, kCostStep);
        const double e =
            std::max({scaled_error(data->Fx, fd.Fx), scaled_error(data->Fu, fd.Fu),
                      scaled_error(data->Lx, fd_cost.Lx), scaled_error(data->Lu, fd_cost.Lu)});
        CHECK(e < kCentralTol);
        worst = std::max(worst, e);
      }
      liedyn::test::report(label + ": Fx, Fu, Lx, Lu vs central differences", worst);
    }
  }
}

TEST_CASE("crocoddyl bridge: Crocoddyl's NumDiff model agrees", "[crocoddyl]") {
  // Crocoddyl's DifferentialActionModelNumDiff runs the model through its own machinery
  // (createData, calc, the state's integrate and diff) with forward differences of step
  // h = √(2ε) max(1, ‖x‖) ≈ 2e-8 ‖x‖ (‖x‖ ≈ 10 here): the truncation h |f''| / 2 dominates,
  // about 5e-6 of the scale on solo12 (|f''| ≈ 50 |f'| on its light legs), 4e-7 on the random
  // trees; hence 1e-5 relative, where a convention error would be O(1).
  constexpr double kForwardTol = 1e-5;
  for (const auto& [label, model] : fd_models()) {
    INFO(label);
    auto state = std::make_shared<StateLiedyn>(model);
    const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    const VectorXd xref = state->from_state(liedyn::random_state(*model, rng));
    const VectorXd uref = VectorXd::NullaryExpr(static_cast<int>(nu), [&] { return U(rng); });
    auto dam = std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(
        state, Actuation::FloatingBase, make_costs(state, nu, xref, uref));
    crocoddyl::DifferentialActionModelNumDiff numdiff(dam);
    auto data = dam->createData();
    auto nd = numdiff.createData();
    const VectorXd x = state->from_state(liedyn::random_state(*model, rng));
    const VectorXd u = VectorXd::NullaryExpr(static_cast<int>(nu), [&] { return U(rng); });
    dam->calc(data, x, u);
    dam->calcDiff(data, x, u);
    numdiff.calc(nd, x, u);
    numdiff.calcDiff(nd, x, u);
    CHECK(scaled_error(nd->xout, data->xout) < 1e-15);  // the same calc
    const double e = std::max({scaled_error(data->Fx, nd->Fx), scaled_error(data->Fu, nd->Fu),
                               scaled_error(data->Lx, nd->Lx), scaled_error(data->Lu, nd->Lu)});
    CHECK(e < kForwardTol);
    liedyn::test::report(label + ": Fx, Fu, Lx, Lu vs Crocoddyl NumDiff", e);
  }
}

TEST_CASE("crocoddyl bridge: group Jacobians of every joint type against central differences",
          "[crocoddyl]") {
  // Jdiff and Jintegrate by columns: d/dε (f(x ⊕ ε e_c) ⊖ f(x)) by central differences, h = 1e-6
  // (truncation ≈ 1e-12, round-off ≈ 1e-10 on entries of order 1), hence 1e-7.
  constexpr double kCentralTol = 1e-7;
  const double h = 1e-6;
  for (const auto& [label, model] : fd_models()) {
    INFO(label);
    StateLiedyn st(model);
    const int ndx = static_cast<int>(st.get_ndx()), nx = static_cast<int>(st.get_nx());
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    const VectorXd x0 = st.from_state(liedyn::random_state(*model, rng));
    const VectorXd x1 = st.from_state(liedyn::random_state(*model, rng));
    const VectorXd dx = VectorXd::NullaryExpr(ndx, [&] { return U(rng); });
    MatrixXd Jd0(ndx, ndx), Jd1(ndx, ndx), Ji0(ndx, ndx), Ji1(ndx, ndx);
    st.Jdiff(x0, x1, Jd0, Jd1);
    st.Jintegrate(x0, dx, Ji0, Ji1);
    MatrixXd fd_d0(ndx, ndx), fd_d1(ndx, ndx), fd_i0(ndx, ndx), fd_i1(ndx, ndx);
    VectorXd y(nx), dp(ndx), dm(ndx), yp(nx), ym(nx);
    st.integrate(x0, dx, y);
    for (int c = 0; c < ndx; ++c) {
      const VectorXd e = VectorXd::Unit(ndx, c) * h;
      VectorXd a(nx), b(nx);
      st.integrate(x0, e, a);  // ∂(x1 ⊖ x0)/∂x0
      st.integrate(x0, -e, b);
      st.diff(a, x1, dp);
      st.diff(b, x1, dm);
      fd_d0.col(c) = (dp - dm) / (2 * h);
      st.integrate(x1, e, a);  // ∂(x1 ⊖ x0)/∂x1
      st.integrate(x1, -e, b);
      st.diff(x0, a, dp);
      st.diff(x0, b, dm);
      fd_d1.col(c) = (dp - dm) / (2 * h);
      st.integrate(x0, e, a);  // ∂(x0 ⊕ dx)/∂x0, measured at y
      st.integrate(x0, -e, b);
      st.integrate(a, dx, yp);
      st.integrate(b, dx, ym);
      st.diff(y, yp, dp);
      st.diff(y, ym, dm);
      fd_i0.col(c) = (dp - dm) / (2 * h);
      st.integrate(x0, dx + e, yp);  // ∂(x0 ⊕ dx)/∂dx
      st.integrate(x0, dx - e, ym);
      st.diff(y, yp, dp);
      st.diff(y, ym, dm);
      fd_i1.col(c) = (dp - dm) / (2 * h);
    }
    const double e = std::max({scaled_error(Jd0, fd_d0), scaled_error(Jd1, fd_d1),
                               scaled_error(Ji0, fd_i0), scaled_error(Ji1, fd_i1)});
    CHECK(e < kCentralTol);
    liedyn::test::report(label + ": Jdiff, Jintegrate vs central differences", e);

    // The transport is Jintegrate's product, and `addto`/`rmfrom` add and remove it.
    MatrixXd jin = MatrixXd::Random(ndx, 4), t0 = jin, t1 = jin;
    st.JintegrateTransport(x0, dx, t0, crocoddyl::first);
    st.JintegrateTransport(x0, dx, t1, crocoddyl::second);
    CHECK(scaled_error(t0, Ji0 * jin) < 1e-15);  // the same product
    CHECK(scaled_error(t1, Ji1 * jin) < 1e-15);
    MatrixXd acc = MatrixXd::Identity(ndx, ndx), unused(ndx, ndx);
    st.Jintegrate(x0, dx, acc, unused, crocoddyl::first, crocoddyl::addto);
    CHECK(scaled_error(acc, MatrixXd::Identity(ndx, ndx) + Ji0) < 1e-15);
    st.Jintegrate(x0, dx, acc, unused, crocoddyl::first, crocoddyl::rmfrom);
    CHECK(scaled_error(acc, MatrixXd::Identity(ndx, ndx)) < 1e-15);
  }
}

TEST_CASE("crocoddyl bridge: Crocoddyl's Euler integrator and FDDP run on the bridge",
          "[crocoddyl]") {
  // IntegratedActionModelEuler builds its Fx from the model's Fx and the state's Jintegrate and
  // JintegrateTransport: its Fx, Fu against central differences of x_next ⊖ x̄_next (steps and
  // tolerance as for the action model above: 1e-5, 1e-7 relative). Then FDDP on solo12 — from
  // bent joints towards the neutral state — converges from the zero-control rollout, and lowers
  // its cost.
  constexpr double kCentralTol = 1e-7;
  constexpr double h = 1e-5;
  auto model =
      std::make_shared<const Model<double>>(liedyn::load_urdf_file(kData + "/solo12.urdf"));
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
  auto running_costs = make_costs(state, nu, state->zero(), VectorXd::Zero(static_cast<int>(nu)));
  auto dam = std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(
      state, Actuation::FloatingBase, running_costs);
  auto iam = std::make_shared<crocoddyl::IntegratedActionModelEuler>(dam, 1e-2);
  std::mt19937 rng(17);
  const VectorXd x = state->from_state(liedyn::random_state(*model, rng));
  const VectorXd u = VectorXd::Random(static_cast<int>(nu));
  auto data = iam->createData();
  iam->calc(data, x, u);
  iam->calcDiff(data, x, u);
  const int ndx = static_cast<int>(state->get_ndx());
  MatrixXd fx(ndx, ndx), fu(ndx, static_cast<int>(nu));
  auto d = iam->createData();
  VectorXd xp(state->get_nx()), xm(state->get_nx()), dp(ndx), dm(ndx);
  for (int c = 0; c < ndx; ++c) {
    const VectorXd e = VectorXd::Unit(ndx, c) * h;
    state->integrate(x, e, xp);
    state->integrate(x, -e, xm);
    iam->calc(d, xp, u);
    state->diff(data->xnext, d->xnext, dp);
    iam->calc(d, xm, u);
    state->diff(data->xnext, d->xnext, dm);
    fx.col(c) = (dp - dm) / (2 * h);
  }
  for (int c = 0; c < static_cast<int>(nu); ++c) {
    const VectorXd e = VectorXd::Unit(static_cast<int>(nu), c) * h;
    iam->calc(d, x, u + e);
    state->diff(data->xnext, d->xnext, dp);
    iam->calc(d, x, u - e);
    state->diff(data->xnext, d->xnext, dm);
    fu.col(c) = (dp - dm) / (2 * h);
  }
  const double e = std::max(scaled_error(data->Fx, fx), scaled_error(data->Fu, fu));
  CHECK(e < kCentralTol);
  liedyn::test::report("solo12: Euler step's Fx, Fu vs central differences", e);

  const std::size_t horizon = 20;
  auto terminal_costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
  terminal_costs->addCost("state",
                          std::make_shared<crocoddyl::CostModelResidual>(
                              state, std::make_shared<ResidualModelStateLiedyn>(state, nu)),
                          10.0);
  auto terminal = std::make_shared<crocoddyl::IntegratedActionModelEuler>(
      std::make_shared<DifferentialActionModelFreeFwdDynamicsLiedyn>(state, Actuation::FloatingBase,
                                                                     terminal_costs),
      0.0);
  std::vector<std::shared_ptr<crocoddyl::ActionModelAbstract>> running(horizon, iam);
  VectorXd x0 = state->zero();
  x0.segment(7, model->nq_joints()) = VectorXd::Random(model->nq_joints()) * 0.3;
  auto problem = std::make_shared<crocoddyl::ShootingProblem>(x0, running, terminal);
  crocoddyl::SolverFDDP solver(problem);
  // The initial guess: zero controls, rolled out (the robot falls: nothing holds it up).
  std::vector<VectorXd> xs(horizon + 1, x0), us(horizon, VectorXd::Zero(static_cast<int>(nu)));
  problem->rollout(us, xs);
  const double initial_cost = problem->calc(xs, us);
  REQUIRE(solver.solve(xs, us, 100, true));
  INFO("iterations " << solver.get_iter() << ", cost " << initial_cost << " -> "
                     << solver.get_cost());
  CHECK(solver.get_cost() < initial_cost);
  CHECK(solver.get_stop() < solver.get_th_stop());
}

TEST_CASE("crocoddyl bridge: the conversion to Pinocchio's layout with every joint type",
          "[crocoddyl]") {
  // A permutation that moves multi-DoF joints (their names in reverse order): the state's
  // round trip is exact (copies; the base quaternion renormalized, its sign w ≥ 0), and
  // tangent_permutation is the permutation that JointPermutation applies to each half of dx.
  for (const auto& [label, model] : fd_models()) {
    INFO(label);
    StateLiedyn st(model);
    std::vector<std::string> names;
    for (int i = model->num_bodies() - 1; i >= 1; --i) names.push_back(model->joint_name(i));
    const JointPermutation perm = JointPermutation::from_names(*model, names);
    std::mt19937 rng(23);
    const VectorXd x = st.from_state(liedyn::random_state(*model, rng));
    const VectorXd x_pin = st.to_pinocchio(x, perm);
    CHECK(scaled_error(st.from_pinocchio(x_pin, perm), x) < 1e-15);
    const int nv = model->nv(), off = model->offset();
    const VectorXd dx = VectorXd::Random(2 * nv);
    const MatrixXd T = st.tangent_permutation(perm);
    VectorXd expected(2 * nv);
    expected.head(nv) = perm.vector_to_theirs(dx.head(nv), off);
    expected.tail(nv) = perm.vector_to_theirs(dx.tail(nv), off);
    CHECK(scaled_error(T * dx, expected) == 0.0);  // a permutation: copies
    CHECK(scaled_error(T * T.transpose(), MatrixXd::Identity(2 * nv, 2 * nv)) == 0.0);
  }
}

TEST_CASE("crocoddyl bridge: state operations and the action model allocate nothing",
          "[crocoddyl]") {
  // StateLiedyn's operations write into Crocoddyl's outputs joint by joint, and the action
  // model's kernels run in its data: no call to operator new (every build) and no Eigen heap
  // allocation (checked where Eigen's assertions are on: the sanitized test build).
  for (const auto& [label, model] : fd_models()) {
    INFO(label);
    auto state = std::make_shared<StateLiedyn>(model);
    const StateLiedyn& st = *state;
    const int ndx = static_cast<int>(st.get_ndx()), nx = static_cast<int>(st.get_nx());
    const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
    std::mt19937 rng(29);
    const VectorXd x0 = st.from_state(liedyn::random_state(*model, rng));
    const VectorXd x1 = st.from_state(liedyn::random_state(*model, rng));
    const VectorXd dx = VectorXd::Random(ndx), u = VectorXd::Random(static_cast<int>(nu));
    VectorXd d(ndx), y(nx);
    MatrixXd J0(ndx, ndx), J1(ndx, ndx), jin = MatrixXd::Random(ndx, 3);
    DifferentialActionModelFreeFwdDynamicsLiedyn dam(
        state, Actuation::FloatingBase,
        make_costs(state, nu, x1, VectorXd::Zero(static_cast<int>(nu))));
    auto data = dam.createData();
    std::size_t state_allocations = 0, action_allocations = 0;
    {
      liedyn::test::NoAllocation guard;
      st.diff(x0, x1, d);
      st.integrate(x0, dx, y);
      y = x0;
      st.integrate(y, dx, y);  // in place
      st.Jdiff(x0, x1, J0, J1, crocoddyl::both);
      st.Jdiff(x0, x1, J0, J0, crocoddyl::second);  // one matrix twice, as ResidualModelState does
      st.Jintegrate(x0, dx, J0, J1, crocoddyl::both, crocoddyl::setto);
      st.Jintegrate(x0, dx, J0, J0, crocoddyl::first, crocoddyl::addto);
      st.JintegrateTransport(x0, dx, jin, crocoddyl::first);
      st.JintegrateTransport(x0, dx, jin, crocoddyl::second);
      state_allocations = guard.allocations();
    }
    {
      liedyn::test::NoAllocation guard;
      dam.calc(data, x0, u);
      dam.calcDiff(data, x0, u);
      action_allocations = guard.allocations();
    }
    CHECK(state_allocations == 0);
    CHECK(action_allocations == 0);
  }
}

TEST_CASE("crocoddyl bridge: full actuation drives the base", "[crocoddyl]") {
  // With u = [0; u_joints], full actuation gives the floating-base model's dynamics exactly,
  // and its Fu's joint columns are the floating-base Fu (the same M⁻¹ columns).
  auto model =
      std::make_shared<const Model<double>>(liedyn::load_urdf_file(kData + "/solo12.urdf"));
  auto state = std::make_shared<StateLiedyn>(model);
  const int nv = model->nv(), n = model->nv_joints();
  auto empty_full = std::make_shared<crocoddyl::CostModelSum>(state, static_cast<std::size_t>(nv));
  auto empty_floating =
      std::make_shared<crocoddyl::CostModelSum>(state, static_cast<std::size_t>(n));
  DifferentialActionModelFreeFwdDynamicsLiedyn full(state, Actuation::Full, empty_full);
  DifferentialActionModelFreeFwdDynamicsLiedyn floating(state, Actuation::FloatingBase,
                                                        empty_floating);
  auto df = full.createData();
  auto dg = floating.createData();
  const VectorXd x = state->rand();
  const VectorXd uj = VectorXd::Random(n);
  VectorXd u = VectorXd::Zero(nv);
  u.tail(n) = uj;
  full.calc(df, x, u);
  full.calcDiff(df, x, u);
  floating.calc(dg, x, uj);
  floating.calcDiff(dg, x, uj);
  CHECK(scaled_error(df->xout, dg->xout) < 1e-15);  // the same aba call
  CHECK(scaled_error(df->Fx, dg->Fx) < 1e-15);      // the same linearize call
  CHECK(scaled_error(df->Fu.rightCols(n), dg->Fu) < 1e-15);
  CHECK(df->Fu.cols() == nv);
}

TEST_CASE("crocoddyl bridge: wrong sizes and foreign data are named errors", "[crocoddyl]") {
  auto model =
      std::make_shared<const Model<double>>(liedyn::load_urdf_file(kData + "/solo12.urdf"));
  auto state = std::make_shared<StateLiedyn>(model);
  const std::size_t nu = static_cast<std::size_t>(model->nv_joints());
  auto costs = std::make_shared<crocoddyl::CostModelSum>(state, nu);
  DifferentialActionModelFreeFwdDynamicsLiedyn dam(state, Actuation::FloatingBase, costs);
  DifferentialActionModelFreeFwdDynamicsLiedyn other(state, Actuation::FloatingBase, costs);
  auto data = dam.createData();
  const VectorXd x = state->zero();
  const VectorXd u = VectorXd::Zero(static_cast<int>(nu));
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(dam.calc(data, VectorXd::Zero(5), u),
                    "liedyn: DifferentialActionModelFreeFwdDynamicsLiedyn::calc: x has size 5, "
                    "expected 37");
  CHECK_THROWS_WITH(dam.calc(data, x, VectorXd::Zero(3)),
                    "liedyn: DifferentialActionModelFreeFwdDynamicsLiedyn::calc: u has size 3, "
                    "expected 12");
  CHECK_THROWS_WITH(dam.calcDiff(data, x, VectorXd::Zero(18)),
                    Contains("calcDiff: u has size 18, expected 12"));
  CHECK_THROWS_WITH(dam.calc(data, VectorXd::Zero(36)), Contains("x has size 36, expected 37"));
  CHECK_THROWS_WITH(other.calc(data, x, u), Contains("data was created by another model"));
  CHECK_FALSE(other.checkData(data));
  CHECK(dam.checkData(data));
  auto foreign = std::make_shared<crocoddyl::DifferentialActionDataAbstract>(&dam);
  CHECK_THROWS_WITH(dam.calc(foreign, x, u), Contains("data is not a"));
  CHECK_THROWS_WITH(
      DifferentialActionModelFreeFwdDynamicsLiedyn(
          state, Actuation::Full, std::make_shared<crocoddyl::CostModelSum>(state, nu)),
      Contains("the costs have nu = 12, expected 18"));

  VectorXd d(36), bad(35);
  CHECK_THROWS_WITH(state->diff(x, VectorXd::Zero(4), d),
                    "liedyn: StateLiedyn::diff: x1 has size 4, expected 37");
  CHECK_THROWS_WITH(state->diff(x, x, bad),
                    "liedyn: StateLiedyn::diff: dxout has size 35, expected 36");
  VectorXd xo(37);
  CHECK_THROWS_WITH(state->integrate(x, bad, xo), Contains("integrate: dx has size 35"));
  MatrixXd J(36, 36), Jbad(35, 36), Jin(30, 2);
  CHECK_THROWS_WITH(state->Jdiff(x, x, Jbad, J, crocoddyl::first),
                    Contains("Jdiff: Jfirst is 35 × 36, expected 36 × 36"));
  CHECK_THROWS_WITH(state->JintegrateTransport(x, d, Jin, crocoddyl::first),
                    Contains("Jin has 30 rows, expected 36"));
  CHECK_THROWS_WITH(state->JintegrateTransport(x, d, J, crocoddyl::both),
                    Contains("firstsecond must be first or second"));
}

}  // namespace LIEDYN_UNITY_ID
