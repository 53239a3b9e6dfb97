// Tests of include/liedyn/algorithm/kinematics.hpp: forward kinematics, frame poses, frame
// Jacobians in the three twist representations, and the acceleration bias J̇ q̇.
#include <catch2/catch.hpp>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/testing/samples.hpp>

#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;
using liedyn::test::relative_error;

namespace {

constexpr TwistRepresentation kReps[3] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                          TwistRepresentation::Mixed};

/// A model with fixed (merged) bodies and user frames, so that frames with non-identity
/// placements exist: base ─R─ b1 ═fixed═ tool ─P─ b2, tool carries a user frame "sensor";
/// base ─H─ b3 with a user frame "tip"; b3 ─R─ b4 (branched).
Model<double> frames_model(BaseType base, std::mt19937& gen) {
  using test::random_inertia;
  using test::random_se3;
  ModelBuilder<double> b(base, "base", random_inertia<double>(gen));
  if (base == BaseType::Welded) b.set_welded_base_pose(random_se3<double>(gen));
  b.add_body("base", "b1",
             JointSpec<double>::revolute("j1", test::random_unit_vector<double>(gen),
                                         random_se3<double>(gen)),
             random_inertia<double>(gen));
  b.add_fixed_body("b1", "tool", random_se3<double>(gen), random_inertia<double>(gen));
  b.add_body("tool", "b2",
             JointSpec<double>::prismatic("j2", test::random_unit_vector<double>(gen),
                                          random_se3<double>(gen)),
             random_inertia<double>(gen));
  b.add_frame("sensor", "tool", random_se3<double>(gen));
  b.add_body("base", "b3",
             JointSpec<double>::helical("j3", test::random_unit_vector<double>(gen), 0.07,
                                        random_se3<double>(gen)),
             random_inertia<double>(gen));
  b.add_frame("tip", "b3", random_se3<double>(gen));
  b.add_body("b3", "b4",
             JointSpec<double>::revolute("j4", test::random_unit_vector<double>(gen),
                                         random_se3<double>(gen)),
             random_inertia<double>(gen));
  return b.build();
}

struct NamedModel {
  std::string name;
  Model<double> model;
};

std::vector<NamedModel> test_models() {
  std::mt19937 gen = test::make_rng(11);
  std::vector<NamedModel> ms;
  ms.push_back({"figure4", figure4_model<double>()});
  RandomModelOptions chain;
  ms.push_back({"random chain", random_model(6, gen, chain)});
  RandomModelOptions tree;
  tree.branching = 3;
  ms.push_back({"random tree", random_model(9, gen, tree)});
  RandomModelOptions welded = tree;
  welded.moving_base = false;
  ms.push_back({"welded random tree", random_model(7, gen, welded)});
  ms.push_back({"frames, moving base", frames_model(BaseType::Moving, gen)});
  ms.push_back({"frames, welded base", frames_model(BaseType::Welded, gen)});
  return ms;
}

/// The state at time t of the motion through x with generalized velocity (nu, r) and
/// generalized acceleration (nu_dot, r_dot), to second order in t (enough for central
/// differences): H(t) = H exp((t ν + t²/2 ν̇)^) (the Magnus series' next term is O(t³)),
/// s(t) = s + t r + t²/2 ṙ, ν(t) = ν + t ν̇, r(t) = r + t ṙ.
template <class S>
State<S> along(const Model<S>& model, const State<S>& x, const Vector6<S>& nu, const VectorX<S>& r,
               const Vector6<S>& nu_dot, const VectorX<S>& r_dot, const S& t) {
  State<S> y = x;
  const S half_t2 = t * t / S(2);
  if (model.has_moving_base()) {
    y.H = x.H * SE3<S>::exp(Vector6<S>(nu * t + nu_dot * half_t2));
    y.nu = nu + nu_dot * t;
  }
  y.s = x.s + r * t + r_dot * half_t2;
  y.r = r + r_dot * t;
  return y;
}

/// Frame twist in `rep` from the frame poses at −δ, 0, +δ (central differences of the pose
/// curve, O(δ²)): Body log(H0⁻¹ H(t)), Inertial log(H(t) H0⁻¹), Mixed [ȯ; log(R(t) R0ᵀ)].
Vector6<double> twist_from_poses(const SE3<double>& Hm, const SE3<double>& H0,
                                 const SE3<double>& Hp, TwistRepresentation rep, double delta) {
  Vector6<double> v;
  switch (rep) {
    case TwistRepresentation::Body:
      v = (H0.inverse_times(Hp).log() - H0.inverse_times(Hm).log()) / (2 * delta);
      break;
    case TwistRepresentation::Inertial:
      v = ((Hp * H0.inverse()).log() - (Hm * H0.inverse()).log()) / (2 * delta);
      break;
    case TwistRepresentation::Mixed:
      v << (Hp.translation() - Hm.translation()) / (2 * delta),
          (SO3<double>(Matrix3<double>(Hp.rotation() * H0.rotation().transpose())).log() -
           SO3<double>(Matrix3<double>(Hm.rotation() * H0.rotation().transpose())).log()) /
              (2 * delta);
      break;
  }
  return v;
}

}  // namespace

TEST_CASE("kinematics: forward kinematics composes the joint transforms", "[kinematics]") {
  std::mt19937 gen = test::make_rng(1);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    Data<double> data(model);
    INFO(nm.name);
    for (int trial = 0; trial < 3; ++trial) {
      const State<double> x = random_state(model, gen);
      forward_kinematics(model, data, x);
      for (int i = 0; i < model.num_bodies(); ++i) {
        // By hand: walk up to the base, each joint as placement · exp((Γ s)^) (SE3::exp rather
        // than the joint's closed form), and the base pose of the model type.
        SE3<double> H;
        for (int j = i; j > 0; j = model.parent(j)) {
          const Joint<double>& jt = model.joint(j);
          H = jt.placement * SE3<double>::exp(Vector6<double>(jt.screw.vector() * x.s[j - 1])) * H;
        }
        H = (model.has_moving_base() ? x.H : model.welded_base_pose()) * H;
        // Tolerance: a product of ≤ depth+1 rigid transforms, entries O(1): a few ε per factor.
        CHECK(relative_error(data.kinematics.H_world[i].matrix(), H.matrix()) < 1e-13);
        if (i > 0)
          CHECK(relative_error(data.kinematics.H_parent[i].matrix(),
                               model.joint(i).transform(x.s[i - 1]).matrix()) == 0);
        // Body frames are frames 0..nb−1, with identity placement.
        CHECK(model.frame(i).body == i);
        CHECK(relative_error(frame_pose(model, data, i).matrix(), H.matrix()) < 1e-13);
      }
      for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
        const Frame<double>& fr = model.frame(f);
        const SE3<double> expected = data.kinematics.H_world[fr.body] * fr.placement;
        CHECK(relative_error(frame_pose(model, data, f).matrix(), expected.matrix()) == 0);
        CHECK(relative_error(frame_pose(model, data, fr.body, fr.placement).matrix(),
                             expected.matrix()) == 0);
      }
      // Body twists: v_i = ^iX_{λ(i)} v_{λ(i)} + Γ_i r_i, v_0 = ν (zero when welded).
      CHECK(relative_error(data.kinematics.v[0].vector(),
                           model.has_moving_base() ? x.nu : Vector6<double>::Zero()) == 0);
      for (int i = 1; i < model.num_bodies(); ++i) {
        const Vector6<double> expected =
            data.kinematics.H_parent[i].inverse().velocity_transform() *
                data.kinematics.v[model.parent(i)].vector() +
            model.joint(i).screw.vector() * x.r[i - 1];
        // Tolerance: one 6×6 product of O(1) entries.
        CHECK(relative_error(data.kinematics.v[i].vector(), expected) < 1e-14);
      }
    }
  }
  // A frame placement composes on the right: frames of the frames model are not the bodies.
  std::mt19937 g2 = test::make_rng(2);
  const Model<double> model = frames_model(BaseType::Moving, g2);
  REQUIRE(model.frame_id("sensor") >= model.num_bodies());
  REQUIRE(model.frame_id("tool") >= model.num_bodies());
  CHECK(model.frame(model.frame_id("tool")).body == model.body_id("b1"));
  CHECK_THROWS_AS(frame_pose(model, Data<double>(model), 99), liedyn::InvalidArgument);
}

TEST_CASE("kinematics: frame Jacobian columns are velocities of the frame pose",
          "[kinematics][jacobian]") {
  std::mt19937 gen = test::make_rng(3);
  const double delta = 1e-5;
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    Data<double> data(model);
    const int nv = model.nv(), n = model.num_joints();
    INFO(nm.name);
    for (int trial = 0; trial < 2; ++trial) {
      const State<double> x = random_state(model, gen);
      for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
        const Frame<double>& fr = model.frame(f);
        for (TwistRepresentation rep : kReps) {
          INFO("frame " << fr.name << ", " << to_string(rep));
          Matrix6X<double> J(6, nv);
          frame_jacobian(model, data, x, f, rep, J);
          // Column k: the frame's twist for the motion with generalized velocity e_k (the base
          // moves as H exp(t e_k^) for k < 6).
          double err = 0;
          for (int k = 0; k < nv; ++k) {
            Vector6<double> nu = Vector6<double>::Zero();
            VectorX<double> r = VectorX<double>::Zero(n);
            if (model.has_moving_base() && k < 6) nu(k) = 1;
            else r(k - model.offset()) = 1;
            const Vector6<double> z6 = Vector6<double>::Zero();
            const VectorX<double> zn = VectorX<double>::Zero(n);
            Data<double> d2(model);
            SE3<double> H[3];
            for (int m = -1; m <= 1; ++m) {
              forward_poses(model, d2, along(model, x, nu, r, z6, zn, m * delta));
              H[m + 1] = frame_pose(model, d2, f);
            }
            err = std::max(
                err, relative_error(J.col(k), twist_from_poses(H[0], H[1], H[2], rep, delta)));
          }
          // Tolerance: central differences with δ = 1e-5: truncation ≈ δ² |∂³H_F| ≈ 1e-10 ·
          // O(10), round-off ≈ ε/δ ≈ 2e-11; the Jacobians' entries are O(1).
          CHECK(err < 1e-8);
          // Only the support chain's columns are non-zero (exactly zero elsewhere).
          for (int j = 1; j <= n; ++j) {
            const bool in_support = j <= fr.body && fr.body < model.subtree_end(j);
            if (!in_support) CHECK(J.col(model.v_index(j)).cwiseAbs().maxCoeff() == 0);
          }
          // J q̇ is the frame twist computed by the velocity recursion.
          const VectorX<double> qd = x.velocity(model);
          const Vector6<double> vF = frame_velocity(model, data, x, f, rep);
          // Tolerance: a sum of ≤ nv products of O(1) numbers, two different orders of evaluation.
          CHECK(relative_error(Vector6<double>(J * qd), vF) < 1e-13);
          if (rep == TwistRepresentation::Body && f < model.num_bodies()) {
            forward_kinematics(model, data, x);
            CHECK(relative_error(Vector6<double>(J * qd), data.kinematics.v[f].vector()) < 1e-13);
            Matrix6X<double> Jb(6, nv);
            body_jacobian(model, data, x, f, rep, Jb);
            CHECK(relative_error(Jb, J) == 0);
          }
          // The body/placement overload is the same frame.
          Eigen::MatrixXd J2(3, 3);  // a plain matrix of the wrong size is resized
          frame_jacobian(model, data, x, fr.body, fr.placement, rep, J2);
          CHECK(relative_error(J2, J) == 0);
        }
      }
    }
  }
}

TEST_CASE("kinematics: Jacobians in a block of a bigger matrix and error paths",
          "[kinematics][jacobian]") {
  const Model<double> model = figure4_model<double>();
  Data<double> data(model);
  std::mt19937 gen = test::make_rng(4);
  const State<double> x = random_state(model, gen);
  Matrix6X<double> J(6, model.nv());
  frame_jacobian(model, data, x, 3, TwistRepresentation::Mixed, J);
  // A stacked-task matrix: write into rows 6..11 of a 12 × nv matrix through a block.
  Eigen::MatrixXd big = Eigen::MatrixXd::Constant(12, model.nv(), 7.0);
  frame_jacobian(model, data, x, 3, TwistRepresentation::Mixed, big.middleRows(6, 6));
  CHECK(relative_error(big.middleRows(6, 6), J) == 0);
  CHECK((big.topRows(6).array() == 7.0).all());
  Eigen::Ref<Eigen::MatrixXd> ref(big.topRows(6));
  frame_jacobian(model, data, x, 3, TwistRepresentation::Mixed, ref);
  CHECK(relative_error(big.topRows(6), J) == 0);
  CHECK_THROWS_AS(frame_jacobian(model, data, x, -1, TwistRepresentation::Body, J),
                  liedyn::InvalidArgument);
  CHECK_THROWS_AS(frame_jacobian(model, data, x, model.num_bodies(), SE3<double>(),
                                 TwistRepresentation::Body, J),
                  liedyn::InvalidArgument);
  CHECK_THROWS_AS(frame_acceleration_bias(model, data, x, 1000, TwistRepresentation::Body),
                  liedyn::InvalidArgument);
}

TEST_CASE("kinematics: frame acceleration is J qdd + Jdot qdot along trajectories",
          "[kinematics][bias]") {
  std::mt19937 gen = test::make_rng(5);
  const double delta = 1e-5;
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    Data<double> data(model);
    const int n = model.num_joints();
    INFO(nm.name);
    for (int trial = 0; trial < 2; ++trial) {
      const State<double> x = random_state(model, gen);
      const State<double> acc = random_state(model, gen);  // its ν and r serve as ν̇ and ṙ
      for (const bool with_qdd : {false, true}) {
        const Vector6<double> nu_dot = with_qdd ? acc.nu : Vector6<double>::Zero();
        const VectorX<double> r_dot = with_qdd ? acc.r : VectorX<double>::Zero(n);
        VectorX<double> qdd(model.nv());
        if (model.has_moving_base()) qdd << nu_dot, r_dot;
        else qdd = r_dot;
        for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
          for (TwistRepresentation rep : kReps) {
            INFO("frame " << model.frame(f).name << ", " << to_string(rep) << ", q̈ "
                          << (with_qdd ? "random" : "zero"));
            Matrix6X<double> J(6, model.nv());
            frame_jacobian(model, data, x, f, rep, J);
            const Vector6<double> bias = frame_acceleration_bias(model, data, x, f, rep);
            const Vector6<double> vp = frame_velocity(
                model, data, along(model, x, x.nu, x.r, nu_dot, r_dot, delta), f, rep);
            const Vector6<double> vm = frame_velocity(
                model, data, along(model, x, x.nu, x.r, nu_dot, r_dot, -delta), f, rep);
            const Vector6<double> fd = (vp - vm) / (2 * delta);
            // Tolerance: central difference in time, δ = 1e-5: O(δ²)·|d³v/dt³| ≈ 1e-9 for
            // velocities and accelerations of O(1–10), plus round-off ε|v|/δ ≈ 1e-10.
            CHECK(relative_error(Vector6<double>(J * qdd + bias), fd) < 1e-8);
          }
        }
      }
    }
  }
}

TEST_CASE("kinematics: the Jacobian agrees with automatic differentiation of the frame pose",
          "[kinematics][jacobian][autodiff]") {
  // Figure-4 model: 7 joints, so the derivatives are (η ∈ R⁶, s ∈ R⁷): N = 13.
  constexpr int N = 13;
  using AD = test::ADN<N>;
  const Model<double> model = figure4_model<double>();
  REQUIRE(model.nv() == N);
  const Model<AD> model_ad = model.cast<AD>();
  Data<double> data(model);
  Data<AD> data_ad(model_ad), data_ad2(model_ad);  // data_ad keeps the seeded poses
  std::mt19937 gen = test::make_rng(6);
  const SE3<double> extra = test::random_se3<double>(gen);  // an ad hoc frame on each body
  for (int trial = 0; trial < 3; ++trial) {
    const State<double> x = random_state(model, gen);
    // x(η, δs) = (H exp(η^), s + δs), each variable seeded with its unit derivative at 0.
    State<AD> xa = x.cast<AD>();
    Vector6<AD> eta;
    for (int k = 0; k < 6; ++k) eta(k) = AD(0.0, Eigen::Matrix<double, N, 1>::Unit(k));
    xa.H = xa.H * SE3<AD>::exp(eta);
    for (int j = 0; j < model.num_joints(); ++j)
      xa.s(j) = AD(x.s(j), Eigen::Matrix<double, N, 1>::Unit(6 + j));
    forward_poses(model_ad, data_ad, xa);
    double err = 0, err_ad_values = 0;
    for (int b = 0; b < model.num_bodies(); ++b) {
      for (const SE3<double>& placement : {SE3<double>(), extra}) {
        const SE3<AD> HF = frame_pose(model_ad, data_ad, b, placement.cast<AD>());
        // Body-frame Jacobian column k: (H_F⁻¹ ∂H_F/∂q_k)^∨ = [Rᵀ ∂p; vee(Rᵀ ∂R)].
        Matrix3<double> R;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) R(i, j) = HF.rotation()(i, j).value();
        Matrix6X<double> J_ad(6, N);
        for (int k = 0; k < N; ++k) {
          Matrix3<double> dR;
          Vector3<double> dp;
          for (int i = 0; i < 3; ++i) {
            dp(i) = HF.translation()(i).derivatives()(k);
            for (int j = 0; j < 3; ++j) dR(i, j) = HF.rotation()(i, j).derivatives()(k);
          }
          J_ad.col(k) << R.transpose() * dp, vee(Matrix3<double>(R.transpose() * dR));
        }
        Matrix6X<double> J(6, N);
        frame_jacobian(model, data, x, b, placement, TwistRepresentation::Body, J);
        err = std::max(err, relative_error(J, J_ad));
        // The same code in the autodiff scalar gives the same values.
        Matrix6X<AD> Ja(6, N);
        frame_jacobian(model_ad, data_ad2, x.cast<AD>(), b, placement.cast<AD>(),
                       TwistRepresentation::Body, Ja);
        Matrix6X<double> Ja_values(6, N);
        for (int i = 0; i < 6; ++i)
          for (int k = 0; k < N; ++k) Ja_values(i, k) = Ja(i, k).value();
        err_ad_values = std::max(err_ad_values, relative_error(Ja_values, J));
      }
    }
    // Tolerance: both exact up to round-off in products of ≤ 5 transforms with O(1) entries.
    CHECK(err < 1e-12);
    CHECK(err_ad_values < 1e-14);
  }
}

TEST_CASE("kinematics: Jdot qdot agrees with automatic differentiation in time",
          "[kinematics][bias][autodiff]") {
  // The same autodiff type as the Jacobian test (one instantiation of the library in it, to keep
  // the compile time down), with only its first derivative seeded: d/dt.
  using AD = test::ADN<13>;
  std::mt19937 gen = test::make_rng(7);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    const Model<AD> model_ad = model.cast<AD>();
    Data<double> data(model);
    Data<AD> data_ad(model_ad);
    INFO(nm.name);
    const State<double> x = random_state(model, gen);
    const State<double> acc = random_state(model, gen);
    VectorX<double> qdd(model.nv());
    if (model.has_moving_base()) qdd << acc.nu, acc.r;
    else qdd = acc.r;
    // t seeded with derivative 1; the twist along the trajectory differentiated exactly.
    const AD t(0.0, Eigen::Matrix<double, 13, 1>::Unit(0));
    const State<AD> xa = x.cast<AD>();
    const State<AD> xt = along(model_ad, xa, xa.nu, xa.r, Vector6<AD>(acc.nu.cast<AD>()),
                               VectorX<AD>(acc.r.cast<AD>()), t);
    double err = 0;
    for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
      for (TwistRepresentation rep : kReps) {
        const Vector6<AD> v = frame_velocity(model_ad, data_ad, xt, f, rep);
        Vector6<double> dv;
        for (int i = 0; i < 6; ++i) dv(i) = v(i).derivatives()(0);
        Matrix6X<double> J(6, model.nv());
        frame_jacobian(model, data, x, f, rep, J);
        const Vector6<double> bias = frame_acceleration_bias(model, data, x, f, rep);
        err = std::max(err, relative_error(Vector6<double>(J * qdd + bias), dv));
      }
    }
    // Tolerance: exact derivatives; round-off of O(depth) products with O(1–10) entries.
    CHECK(err < 1e-12);
  }
}

TEMPLATE_TEST_CASE("kinematics: float, double and long double agree", "[kinematics][scalar]", float,
                   double, long double) {
  using S = TestType;
  using LD = long double;
  const Model<LD> model_ld = figure4_model<LD>();
  const Model<S> model = figure4_model<S>();
  Data<LD> data_ld(model_ld);
  Data<S> data(model);
  std::mt19937 gen = test::make_rng(8);
  const State<LD> x_ld = random_state(model_ld, gen);
  const State<S> x = x_ld.template cast<S>();
  const State<LD> x_back = x.template cast<LD>();  // the same state, rounded to S
  double err_J = 0, err_b = 0;
  for (int f = 0; f < model.num_bodies(); ++f) {
    for (TwistRepresentation rep : kReps) {
      Matrix6X<S> J(6, model.nv());
      Matrix6X<LD> J_ld(6, model.nv());
      frame_jacobian(model, data, x, f, rep, J);
      frame_jacobian(model_ld, data_ld, x_back, f, rep, J_ld);
      err_J = std::max(err_J, relative_error(J, J_ld));
      err_b = std::max(err_b,
                       relative_error(frame_acceleration_bias(model, data, x, f, rep),
                                      frame_acceleration_bias(model_ld, data_ld, x_back, f, rep)));
    }
  }
  // Tolerance: the scalar's own (test_support.hpp); entries O(1), a few dozen operations.
  CHECK(err_J < test::tolerance<S>());
  CHECK(err_b < test::tolerance<S>() * 10);  // bias: products of velocities O(1–10), one more digit
}

TEST_CASE("kinematics: no heap allocation once Data exists", "[kinematics][allocation]") {
  std::mt19937 gen = test::make_rng(9);
  for (const NamedModel& nm : test_models()) {
    const Model<double>& model = nm.model;
    Data<double> data(model);
    const State<double> x = random_state(model, gen);
    Matrix6X<double> J(6, model.nv());
    Eigen::MatrixXd big(12, model.nv());
    Vector6<double> sink = Vector6<double>::Zero();
    std::size_t allocations = 0;
    {
      test::NoAllocation guard;
      forward_kinematics(model, data, x);
      forward_poses(model, data, x);
      forward_velocity(model, data, x);
      for (int f = 0; f < static_cast<int>(model.frames().size()); ++f) {
        for (TwistRepresentation rep : kReps) {
          frame_jacobian(model, data, x, f, rep, J);
          frame_jacobian(model, data, x, f, rep, big.bottomRows(6));
          sink += frame_acceleration_bias(model, data, x, f, rep);
          sink += frame_velocity(model, data, x, f, rep);
          sink += frame_pose(model, data, f).log();
        }
      }
      body_jacobian(model, data, x, model.num_bodies() - 1, TwistRepresentation::Mixed, J);
      allocations = guard.allocations();
    }
    INFO(nm.name);
    CHECK(allocations == 0);
    CHECK(sink.allFinite());
  }
}

}  // namespace LIEDYN_UNITY_ID
