// liedyn tests — eidamb_derivatives: the geometric derivatives D1..D4 of the extended inverse
// dynamics ĪD(x, ddq) (and the M and τ̄ it returns), in the three base-twist representations.
//
// Oracles, all independent of the kernel under test:
//   * central geometric finite differences of eidamb computed in long double (liedyn::numdiff:
//     H ← H exp(±δ e_k^) with the chosen representation's twist held fixed, s, twist, r ± δ e_k);
//   * forward-mode automatic differentiation (AutoDiffScalar, 6 fixed-size derivatives) through
//     eidamb, seeding ε in H exp(ε^), the twist in its representation, and s, r six at a time;
//   * the reference numbers of an independent numpy implementation
//   (tests/data/fig4_like_case.json);
//   * identities between the representations, the rest state (gravity only), crba's M, eidamb's τ̄.
// On the shipped models (Figure-4-like robot, the example URDFs when the loader is built) and on
// random trees up to 60 bodies: chains, branched, welded base, armature, axis-aligned axes; at
// random states, base attitudes at and near the ZYX gimbal lock (pitch ±90°), random
// accelerations, with and without external wrenches.
//
// Set LIEDYN_TEST_VERBOSE=1 in the environment to print the errors reached.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/eidamb.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/numdiff.hpp>
#include <liedyn/testing/samples.hpp>
#ifdef LIEDYN_HAS_URDF
#include <liedyn/model/urdf.hpp>
#endif

#include "support/fig4_case.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;
using liedyn::numdiff::NumDiffOptions;
using liedyn::numdiff::StateBlock;
using liedyn::test::relative_error;

namespace {

using LD = long double;
constexpr int kAD = 6;  // the one AutoDiffScalar instantiated here: 6 derivatives
using AD = test::ADN<kAD>;
using ADDer = Eigen::Matrix<double, kAD, 1>;

constexpr TwistRepresentation kReps[3] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                          TwistRepresentation::Mixed};

using test::report;

struct NamedModel {
  std::string name;
  Model<double> model;
};

/// The shipped models and random trees (chains, branched, welded, armature, axis-aligned).
std::vector<NamedModel> test_models() {
  std::vector<NamedModel> out;
  out.push_back({"figure4", figure4_model<double>()});
#ifdef LIEDYN_HAS_URDF
  const std::string dir = LIEDYN_TEST_DATA_DIR "/../../examples/models/";
  out.push_back({"quadruped.urdf", load_urdf_file(dir + "quadruped.urdf")});
  out.push_back({"humanoid.urdf", load_urdf_file(dir + "humanoid.urdf")});
#endif
  std::mt19937 rng = test::make_rng(601);
  auto add = [&](const std::string& name, int n, const RandomModelOptions& o) {
    out.push_back({name, random_model<double>(n, rng, o)});
  };
  RandomModelOptions chain;
  add("chain-1", 1, chain);
  add("chain-12", 12, chain);
  add("chain-60", 60, chain);
  RandomModelOptions branched;
  branched.branching = 3;
  add("branched-25", 25, branched);
  add("branched-60", 60, branched);
  RandomModelOptions welded;
  welded.moving_base = false;
  add("welded-chain-10", 10, welded);
  welded.branching = 3;
  add("welded-branched-30", 30, welded);
  RandomModelOptions armature;
  armature.branching = 3;
  armature.armature = 0.25;
  add("armature-branched-20", 20, armature);
  RandomModelOptions aligned;
  aligned.branching = 3;
  aligned.axis_aligned = true;
  add("axis-aligned-branched-20", 20, aligned);
  aligned.unrotated_placements = true;
  aligned.revolute_only = true;
  add("urdf-like-branched-16", 16, aligned);
  return out;
}

/// R = Rz(yaw) Ry(pitch) Rx(roll) (ZYX Euler angles; pitch ±90° is their gimbal lock).
Matrix3<double> zyx(double yaw, double pitch, double roll) {
  return SO3<double>::exp(Vector3<double>(0, 0, yaw)).matrix() *
         SO3<double>::exp(Vector3<double>(0, pitch, 0)).matrix() *
         SO3<double>::exp(Vector3<double>(roll, 0, 0)).matrix();
}

/// One evaluation point: the state, the accelerations and (optionally) external wrenches.
struct Point {
  std::string name;
  State<double> x;
  VectorX<double> ddq;
  bool with_fext = false;
  ExternalWrenches<double> fext;
  const ExternalWrenches<double>* fext_ptr() const { return with_fext ? &fext : nullptr; }
};

/// A random state with random accelerations; `kind` 0: random attitude, no external wrench;
/// 1: pitch exactly +90° (gimbal lock), with external wrenches; 2: pitch −90° + 1e-7, with
/// external wrenches. The attitude only matters for a moving base.
Point make_point(const Model<double>& model, std::mt19937& gen, int kind) {
  Point p;
  p.x = random_state(model, gen);
  p.ddq = VectorX<double>(model.nv());
  for (int k = 0; k < model.nv(); ++k) p.ddq(k) = static_cast<double>(test::uniform(gen, -2, 2));
  const double yaw = static_cast<double>(test::uniform(gen, -3, 3));
  const double roll = static_cast<double>(test::uniform(gen, -3, 3));
  if (kind == 0) {
    p.name = "random attitude";
  } else if (kind == 1) {
    p.name = "pitch +90 deg, external wrenches";
    if (model.has_moving_base()) p.x.H.rotation() = zyx(yaw, M_PI / 2, roll);
  } else {
    p.name = "pitch -90 deg + 1e-7, external wrenches";
    if (model.has_moving_base()) p.x.H.rotation() = zyx(yaw, -M_PI / 2 + 1e-7, roll);
  }
  p.with_fext = kind != 0;
  for (int b = 0; b < model.num_bodies(); ++b)
    p.fext.push_back(Force<double>(test::random_vector<double, 6>(gen, -5, 5)));
  return p;
}

ExternalWrenches<LD> cast_wrenches_ld(const ExternalWrenches<double>& f) {
  ExternalWrenches<LD> out;
  for (const Force<double>& w : f) out.push_back(w.cast<LD>());
  return out;
}

/// The derivatives of `tau` (autodiff values) as an nv × ncols matrix of doubles.
MatrixX<double> derivatives_of(const VectorX<AD>& tau, int ncols) {
  MatrixX<double> D(tau.size(), ncols);
  for (Eigen::Index i = 0; i < tau.size(); ++i)
    for (int k = 0; k < ncols; ++k) D(i, k) = tau(i).derivatives()(k);
  return D;
}

double max_abs(const MatrixX<double>& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: D1..D4 match long-double central finite differences of eidamb",
          "[derivatives][numdiff]") {
  std::mt19937 gen = test::make_rng(611);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    const Model<LD> model_ld = model.cast<LD>();
    Data<double> data(model);
    Data<LD> data_ld(model_ld);
    double err[4] = {0, 0, 0, 0};
    for (int kind = 0; kind < 3; ++kind) {
      const Point p = make_point(model, gen, kind);
      const State<LD> x_ld = p.x.cast<LD>();
      const VectorX<LD> ddq_ld = p.ddq.cast<LD>();
      const ExternalWrenches<LD> fext_ld = cast_wrenches_ld(p.fext);
      const ExternalWrenches<LD>* fp_ld = p.with_fext ? &fext_ld : nullptr;
      auto f = [&](const State<LD>& y) -> VectorX<LD> {
        return eidamb(model_ld, data_ld, y, ddq_ld, fp_ld);
      };
      // Default options: central differences, δ = ε_ld^(1/3) ≈ 4.8e-7 (times max(1, |c|)).
      NumDiffOptions<LD> opt;
      const MatrixX<LD> fd2 =
          numdiff::state_jacobian_block(model_ld, f, x_ld, StateBlock::JointPositions, opt);
      const MatrixX<LD> fd4 =
          numdiff::state_jacobian_block(model_ld, f, x_ld, StateBlock::JointVelocities, opt);
      for (TwistRepresentation rep : kReps) {
        opt.twist_representation = rep;
        const MatrixX<LD> fd1 =
            numdiff::state_jacobian_block(model_ld, f, x_ld, StateBlock::Pose, opt);
        const MatrixX<LD> fd3 =
            numdiff::state_jacobian_block(model_ld, f, x_ld, StateBlock::Twist, opt);
        eidamb_derivatives(model, data, p.x, p.ddq, rep, p.fext_ptr());
        INFO(nm.name << ", " << p.name << ", twist " << to_string(rep));
        const int nbase = model.has_moving_base() ? 6 : 0;
        REQUIRE(data.derivatives.D1.rows() == model.nv());
        REQUIRE(data.derivatives.D1.cols() == nbase);
        REQUIRE(data.derivatives.D3.cols() == nbase);
        REQUIRE(data.derivatives.D2.cols() == model.num_joints());
        REQUIRE(data.derivatives.D4.cols() == model.num_joints());
        const double e[4] = {
            relative_error(data.derivatives.D1, fd1), relative_error(data.derivatives.D2, fd2),
            relative_error(data.derivatives.D3, fd3), relative_error(data.derivatives.D4, fd4)};
        // Tolerance: the long-double central difference at δ ≈ 5e-7 is off by δ²|f'''|/6 +
        // ε_ld|f|/δ ≲ 1e-12 relative here; the analytic D (double) by ~1e-14. A wrong term is
        // O(|D|).
        for (int b = 0; b < 4; ++b) {
          CHECK(e[b] < 1e-8);
          err[b] = std::max(err[b], e[b]);
        }
      }
    }
    for (int b = 0; b < 4; ++b) report(nm.name + ": FD, D" + std::to_string(b + 1), err[b]);
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: D1..D4 match forward-mode automatic differentiation of eidamb",
          "[derivatives][autodiff]") {
  std::mt19937 gen = test::make_rng(612);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    const Model<AD> model_ad = model.cast<AD>();
    Data<double> data(model);
    Data<AD> data_ad(model_ad);
    const int n = model.num_joints();
    const bool moving = model.has_moving_base();
    double err[4] = {0, 0, 0, 0};
    for (int kind = 0; kind < 3; ++kind) {
      const Point p = make_point(model, gen, kind);
      const VectorX<AD> ddq_ad = p.ddq.cast<AD>();
      ExternalWrenches<AD> fext_ad;
      for (const Force<double>& w : p.fext) fext_ad.push_back(w.cast<AD>());
      const ExternalWrenches<AD>* fp_ad = p.with_fext ? &fext_ad : nullptr;
      auto tau_ad = [&](const State<AD>& xa) -> const VectorX<AD>& {
        return eidamb(model_ad, data_ad, xa, ddq_ad, fp_ad);
      };
      // D2 and D4 (the same in every representation), six joints per pass.
      MatrixX<double> D2(model.nv(), n), D4(model.nv(), n);
      for (int j0 = 0; j0 < n; j0 += kAD) {
        const int w = std::min(kAD, n - j0);
        State<AD> xs = p.x.cast<AD>(), xr = p.x.cast<AD>();
        for (int k = 0; k < w; ++k) {
          xs.s(j0 + k) = AD(p.x.s(j0 + k), ADDer::Unit(k));
          xr.r(j0 + k) = AD(p.x.r(j0 + k), ADDer::Unit(k));
        }
        D2.middleCols(j0, w) = derivatives_of(tau_ad(xs), w);
        D4.middleCols(j0, w) = derivatives_of(tau_ad(xr), w);
      }
      for (TwistRepresentation rep : kReps) {
        MatrixX<double> D1(model.nv(), 0), D3(model.nv(), 0);
        if (moving) {
          const Vector6<double> t = p.x.base_twist(rep);
          // D1: H exp(ε^) with ε seeded at 0, the twist in `rep` held fixed.
          State<AD> xh = p.x.cast<AD>();
          Vector6<AD> eps;
          for (int k = 0; k < 6; ++k) eps(k) = AD(0.0, ADDer::Unit(k));
          xh.H = xh.H * SE3<AD>::exp(eps);
          xh.set_base_twist(t.cast<AD>(), rep);
          D1 = derivatives_of(tau_ad(xh), 6);
          // D3: the twist in `rep` seeded, H fixed.
          State<AD> xt = p.x.cast<AD>();
          Vector6<AD> ta;
          for (int k = 0; k < 6; ++k) ta(k) = AD(t(k), ADDer::Unit(k));
          xt.set_base_twist(ta, rep);
          D3 = derivatives_of(tau_ad(xt), 6);
        }
        eidamb_derivatives(model, data, p.x, p.ddq, rep, p.fext_ptr());
        INFO(nm.name << ", " << p.name << ", twist " << to_string(rep));
        const double e[4] = {
            relative_error(data.derivatives.D1, D1), relative_error(data.derivatives.D2, D2),
            relative_error(data.derivatives.D3, D3), relative_error(data.derivatives.D4, D4)};
        // Tolerance: both sides exact up to double round-off, accumulated over ≤ 60 bodies with
        // entries up to ~1e3: ~1e-13 relative.
        for (int b = 0; b < 4; ++b) {
          CHECK(e[b] < 1e-11);
          err[b] = std::max(err[b], e[b]);
        }
      }
    }
    for (int b = 0; b < 4; ++b) report(nm.name + ": AD, D" + std::to_string(b + 1), err[b]);
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: the reference numbers of fig4_like_case.json", "[derivatives][reference]") {
  const liedyn::test::Fig4Case ref = liedyn::test::Fig4Case::load();
  const Model<double> model = figure4_model<double>();
  Data<double> data(model);
  const State<double> x = ref.state(model);
  // The derivatives are at the forward-dynamics accelerations `acc`.
  const VectorX<double> acc = ref.vector("acc");
  REQUIRE(acc.size() == model.nv());

  // Tolerance: the reference (another implementation, in double) and ours differ by round-off,
  // ~1e-15 relative to entries up to ~100; printed with 17 digits.
  eidamb_derivatives(model, data, x, acc, TwistRepresentation::Inertial);
  const double e_d1 = relative_error(data.derivatives.D1, ref.matrix("D1"));
  const double e_d2 = relative_error(data.derivatives.D2, ref.matrix("D2"));
  const double e_d4 = relative_error(data.derivatives.D4, ref.matrix("D4"));
  const double e_m = relative_error(data.M, ref.matrix("M"));
  CHECK(e_d1 < 1e-10);
  CHECK(e_d2 < 1e-10);
  CHECK(e_d4 < 1e-10);
  CHECK(e_m < 1e-10);
  eidamb_derivatives(model, data, x, acc, TwistRepresentation::Body);
  const double e_d1b = relative_error(data.derivatives.D1, ref.matrix("D1_bodyvel"));
  const double e_d3 = relative_error(data.derivatives.D3, ref.matrix("D3"));
  CHECK(e_d1b < 1e-10);
  CHECK(e_d3 < 1e-10);
  CHECK(relative_error(data.derivatives.D2, ref.matrix("D2")) < 1e-10);
  CHECK(relative_error(data.derivatives.D4, ref.matrix("D4")) < 1e-10);
  report("reference: D1 (inertial twist held)", e_d1);
  report("reference: D1_bodyvel", e_d1b);
  report("reference: D2", e_d2);
  report("reference: D3 (body twist)", e_d3);
  report("reference: D4", e_d4);
  report("reference: M", e_m);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: identities between representations, the rest state, M and tau",
          "[derivatives][identities]") {
  std::mt19937 gen = test::make_rng(613);
  double e_rep = 0, e_rest = 0, e_rest_fd = 0, e_crba = 0, e_cols = 0, e_sym = 0, e_sym0 = 0,
         e_tau = 0, rest_vel = 0;
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    Data<double> data(model), data2(model);
    const int nv = model.nv(), n = model.num_joints();
    const bool moving = model.has_moving_base();
    INFO(nm.name);
    const Point p = make_point(model, gen, 2);
    const ExternalWrenches<double>* fp = p.fext_ptr();

    // Representations (moving base): with ν held, with w held, with m held.
    if (moving) {
      eidamb_derivatives(model, data, p.x, p.ddq, TwistRepresentation::Body, fp);
      const MatrixX<double> D1b = data.derivatives.D1, D3b = data.derivatives.D3;
      eidamb_derivatives(model, data, p.x, p.ddq, TwistRepresentation::Inertial, fp);
      const MatrixX<double> D1w = data.derivatives.D1, D3w = data.derivatives.D3;
      eidamb_derivatives(model, data, p.x, p.ddq, TwistRepresentation::Mixed, fp);
      const MatrixX<double> D1m = data.derivatives.D1, D3m = data.derivatives.D3;
      const Vector6<double> nu = p.x.nu;
      const Matrix6<double> ad_nu = Motion<double>(nu).cross_matrix();
      // ∂ν/∂η with m held: [0, v^; 0, ω^]; ∂ν/∂m = blockdiag(Rᵀ, Rᵀ).
      Matrix6<double> dnu_m = Matrix6<double>::Zero(), Rt = Matrix6<double>::Zero();
      dnu_m.topRightCorner<3, 3>() = hat(Vector3<double>(nu.head<3>()));
      dnu_m.bottomRightCorner<3, 3>() = hat(Vector3<double>(nu.tail<3>()));
      Rt.topLeftCorner<3, 3>() = p.x.H.rotation().transpose();
      Rt.bottomRightCorner<3, 3>() = p.x.H.rotation().transpose();
      const double e[4] = {
          relative_error(MatrixX<double>(D1w - D1b), MatrixX<double>(D3b * ad_nu)),
          relative_error(D3w, MatrixX<double>(D3b * p.x.H.inverse().velocity_transform())),
          relative_error(MatrixX<double>(D1m - D1b), MatrixX<double>(D3b * dnu_m)),
          relative_error(D3m, MatrixX<double>(D3b * Rt))};
      // Tolerance: the same products up to round-off (entries ≲ 1e3, ε ≈ 2e-16).
      for (double ei : e) CHECK(ei < 1e-12);
      e_rep = std::max({e_rep, e[0], e[1], e[2], e[3]});
    }

    // At rest (ν = 0, r = 0, ddq = 0): no velocity terms; D1 is the gravity term's derivative.
    {
      State<double> x0 = p.x;
      x0.nu.setZero();
      x0.r.setZero();
      const VectorX<double> zero = VectorX<double>::Zero(nv);
      // Closed form: the gravity term is ĪD = M[:, 0:6] a_g0 with a_g0 = ^0X_A (−[g; 0]); with H
      // ← H exp(η^), a_g0 ← exp(−η)× a_g0, so ∂/∂η = M[:, 0:6] ad(a_g0). M from crba.
      crba(model, data2, x0.s);
      const Motion<double> a_g0(Vector3<double>(-(p.x.H.rotation().transpose() * model.gravity())),
                                Vector3<double>::Zero());
      const MatrixX<double> D1_closed =
          moving ? MatrixX<double>(data2.M.leftCols(6) * a_g0.cross_matrix())
                 : MatrixX<double>(nv, 0);
      // And finite differences (long double) of the gravity term τ̄(H, s) = ĪD(H, s, 0, 0, 0).
      const Model<LD> model_ld = model.cast<LD>();
      Data<LD> data_ld(model_ld);
      const VectorX<LD> zero_ld = VectorX<LD>::Zero(nv);
      auto g = [&](const State<LD>& y) -> VectorX<LD> {
        return eidamb(model_ld, data_ld, y, zero_ld);
      };
      const MatrixX<LD> fd1 = numdiff::jacobian_wrt_pose(model_ld, g, x0.cast<LD>());
      const MatrixX<LD> fd2 = numdiff::jacobian_wrt_joint_positions(model_ld, g, x0.cast<LD>());
      for (TwistRepresentation rep : kReps) {
        eidamb_derivatives(model, data, x0, zero, rep);
        INFO("twist " << to_string(rep));
        // Exactly zero: every term of D3 and D4 has a factor that vanishes at rest.
        CHECK(max_abs(data.derivatives.D3) == 0.0);
        CHECK(max_abs(data.derivatives.D4) == 0.0);
        rest_vel = std::max({rest_vel, max_abs(data.derivatives.D3), max_abs(data.derivatives.D4)});
        // Tolerance: round-off of two different sums for the same matrix.
        const double ec = relative_error(data.derivatives.D1, D1_closed);
        CHECK(ec < 1e-12);
        // Tolerance: long-double central differences, see the first test case.
        const double ef = std::max(relative_error(data.derivatives.D1, fd1),
                                   relative_error(data.derivatives.D2, fd2));
        CHECK(ef < 1e-8);
        e_rest = std::max(e_rest, ec);
        e_rest_fd = std::max(e_rest_fd, ef);
      }
    }

    // M: crba, columns of eidamb minus the bias, symmetry; τ̄: eidamb's.
    {
      eidamb_derivatives(model, data, p.x, p.ddq, TwistRepresentation::Inertial, fp);
      const MatrixX<double> M = data.M;
      const VectorX<double> tau = data.tau;
      crba(model, data2, p.x.s);
      // Tolerance: two algorithms, round-off only (entries ≲ 1e3).
      const double ecr = relative_error(M, data2.M);
      CHECK(ecr < 1e-12);
      // Columns: M e_k = ĪD(x, e_k) − ĪD(x, 0), at rest so that the bias is gravity alone.
      State<double> x0 = p.x;
      x0.nu.setZero();
      x0.r.setZero();
      const VectorX<double> bias = eidamb(model, data2, x0, VectorX<double>::Zero(nv));
      MatrixX<double> Mcols(nv, nv);
      for (int k = 0; k < nv; ++k)
        Mcols.col(k) = eidamb(model, data2, x0, VectorX<double>::Unit(nv, k)) - bias;
      // Tolerance: the subtraction loses ε |bias| (gravity torques ≲ 1e4 on the 60-body chains)
      // against entries of M: ≲ 1e-11 relative.
      const double ecol = relative_error(M, Mcols);
      CHECK(ecol < 1e-10);
      // Symmetric. The joint rows/columns: exactly, both triangles are written from one value.
      MatrixX<double> asym = M - M.transpose();
      if (moving) asym.topLeftCorner(6, 6).setZero();
      const double esym = max_abs(asym);
      CHECK(esym == 0.0);
      // The base block is the composite inertia, whose rotational part sums transformed body
      // inertias R I Rᵀ that round differently above and below the diagonal: ~ε relative.
      const double esym0 =
          moving ? relative_error(M.topLeftCorner(6, 6), M.topLeftCorner(6, 6).transpose()) : 0.0;
      CHECK(esym0 < 1e-14);
      // τ̄: Table 4's recursions against the kernel's base-frame ones; round-off only.
      const double et = relative_error(tau, eidamb(model, data2, p.x, p.ddq, fp));
      CHECK(et < 1e-12);
      e_crba = std::max(e_crba, ecr);
      e_cols = std::max(e_cols, ecol);
      e_sym = std::max(e_sym, esym);
      e_sym0 = std::max(e_sym0, esym0);
      e_tau = std::max(e_tau, et);
    }
    (void)n;
  }
  report("identities: representations (D1w - D1v = D3v ad_nu etc.)", e_rep);
  report("identities: rest, max |D3|, |D4|", rest_vel);
  report("identities: rest, D1 vs M[:,0:6] ad(a_g0)", e_rest);
  report("identities: rest, D1, D2 vs FD of the gravity term", e_rest_fd);
  report("identities: M vs crba", e_crba);
  report("identities: M vs eidamb columns", e_cols);
  report("identities: max |M - M^T| off the base block", e_sym);
  report("identities: base block of M, relative asymmetry", e_sym0);
  report("identities: tau vs eidamb", e_tau);
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: no heap allocation in eidamb_derivatives", "[derivatives][allocation]") {
  std::mt19937 gen = test::make_rng(614);
  RandomModelOptions welded;
  welded.moving_base = false;
  welded.branching = 3;
  std::vector<NamedModel> models;
  models.push_back({"figure4", figure4_model<double>()});
  models.push_back({"welded-branched-12", random_model<double>(12, gen, welded)});
  for (const NamedModel& nm : models) {
    const Model<double>& model = nm.model;
    const Model<AD> model_ad = model.cast<AD>();
    Data<double> data(model);
    Data<AD> data_ad(model_ad);
    const Point p = make_point(model, gen, 1);
    const State<AD> x_ad = p.x.cast<AD>();
    const VectorX<AD> ddq_ad = p.ddq.cast<AD>();
    ExternalWrenches<AD> fext_ad;
    for (const Force<double>& w : p.fext) fext_ad.push_back(w.cast<AD>());
    std::size_t alloc_double = 0, alloc_ad = 0;
    {
      test::NoAllocation guard;
      for (TwistRepresentation rep : kReps) {
        eidamb_derivatives(model, data, p.x, p.ddq, rep, &p.fext);
        eidamb_derivatives(model, data, p.x, p.ddq, rep);
      }
      alloc_double = guard.allocations();
    }
    {
      test::NoAllocation guard;
      for (TwistRepresentation rep : kReps) {
        eidamb_derivatives(model_ad, data_ad, x_ad, ddq_ad, rep, &fext_ad);
        eidamb_derivatives(model_ad, data_ad, x_ad, ddq_ad, rep);
      }
      alloc_ad = guard.allocations();
    }
    INFO(nm.name << (test::NoAllocation::eigen_flag_available()
                         ? ""
                         : " (Eigen's malloc flag unavailable)"));
    CHECK(alloc_double == 0);
    CHECK(alloc_ad == 0);
    CHECK(data.derivatives.D2.allFinite());
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: the linearization's two passes equal the single pass",
          "[derivatives][split]") {
  // ground_derivative_pass<false> at zero accelerations, then ground_acceleration_pass(ddq):
  // what linearize does before it knows ddq. Same τ̄, M, D1..D4 as eidamb_derivatives at ddq, to
  // rounding: the second pass adds I^c ΔA and the subtree sums E to F^c instead of summing
  // I A over the bodies; measured ≤ 3e-15 relative, 1e-13 leaves a wide margin yet fails any
  // missing term.
  std::mt19937 gen = test::make_rng(615);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    const int nv = model.nv();
    for (int kind = 0; kind < 2; ++kind) {
      const Point p = make_point(model, gen, kind);
      const ExternalWrenches<double>* fext = p.with_fext ? &p.fext : nullptr;
      for (TwistRepresentation rep : kReps) {
        INFO(nm.name << ", " << p.name << ", " << to_string(rep));
        Data<double> one(model), two(model);
        eidamb_derivatives(model, one, p.x, p.ddq, rep, fext);
        detail::update_poses(model, two, p.x.s);
        detail::ground_derivative_pass<false>(model, two, p.x, VectorX<double>::Zero(nv), rep,
                                              fext);
        const VectorX<double> h = two.tau;
        CHECK(relative_error(h, eidamb(model, one, p.x, VectorX<double>::Zero(nv), fext)) < 1e-13);
        detail::ground_acceleration_pass(model, two, p.x, p.ddq);
        eidamb_derivatives(model, one, p.x, p.ddq, rep, fext);
        CHECK(relative_error(two.tau, one.tau) < 1e-13);
        CHECK(relative_error(two.M, one.M) < 1e-13);
        if (model.has_moving_base()) {
          CHECK(relative_error(two.derivatives.D1, one.derivatives.D1) < 1e-13);
          CHECK(relative_error(two.derivatives.D3, one.derivatives.D3) < 1e-13);
        }
        CHECK(relative_error(two.derivatives.D2, one.derivatives.D2) < 1e-13);
        CHECK(relative_error(two.derivatives.D4, one.derivatives.D4) < 1e-13);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
TEST_CASE("derivatives: float agrees with double", "[derivatives][scalar]") {
  std::mt19937 gen = test::make_rng(615);
  RandomModelOptions branched;
  branched.branching = 3;
  std::vector<NamedModel> models;
  models.push_back({"figure4", figure4_model<double>()});
  models.push_back({"branched-15", random_model<double>(15, gen, branched)});
  double err[4] = {0, 0, 0, 0};
  for (const NamedModel& nm : models) {
    // The same (float-rounded) model and point in both scalars, so only the arithmetic differs.
    const Model<float> model_f = nm.model.cast<float>();
    const Model<double> model = model_f.cast<double>();
    Data<float> data_f(model_f);
    Data<double> data(model);
    for (int kind = 0; kind < 3; ++kind) {
      const Point p = make_point(model, gen, kind);
      const State<float> x_f = p.x.cast<float>();
      const State<double> x = x_f.cast<double>();
      const VectorX<float> ddq_f = p.ddq.cast<float>();
      const VectorX<double> ddq = ddq_f.cast<double>();
      ExternalWrenches<float> fext_f;
      ExternalWrenches<double> fext;
      for (const Force<double>& w : p.fext) {
        fext_f.push_back(w.cast<float>());
        fext.push_back(fext_f.back().cast<double>());
      }
      for (TwistRepresentation rep : kReps) {
        eidamb_derivatives(model_f, data_f, x_f, ddq_f, rep, p.with_fext ? &fext_f : nullptr);
        eidamb_derivatives(model, data, x, ddq, rep, p.with_fext ? &fext : nullptr);
        INFO(nm.name << ", " << p.name << ", twist " << to_string(rep));
        const double e[4] = {relative_error(data_f.derivatives.D1, data.derivatives.D1),
                             relative_error(data_f.derivatives.D2, data.derivatives.D2),
                             relative_error(data_f.derivatives.D3, data.derivatives.D3),
                             relative_error(data_f.derivatives.D4, data.derivatives.D4)};
        // Tolerance: float's own (test_support: 1e-4 ≈ 800 ε_f): each entry is a sum over the
        // subtree of products of transforms, inertias and velocities; the float round-off grows
        // with the depth and with the terms' size against max |D|, ~10–100 ε_f here.
        for (int b = 0; b < 4; ++b) {
          CHECK(e[b] < test::tolerance<float>());
          err[b] = std::max(err[b], e[b]);
        }
      }
    }
  }
  for (int b = 0; b < 4; ++b) report("float vs double: D" + std::to_string(b + 1), err[b]);
}

}  // namespace LIEDYN_UNITY_ID
