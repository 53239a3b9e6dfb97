// Joints as Lie groups (model/joint.hpp, model/joints/): each type's configuration group,
// transform, subspace and bias, and the kinematics of trees with every joint type, checked two
// independent ways:
// * against Pinocchio 4.1 (tests/data/pinocchio4/: its integrate, difference, joint placements
//   and motion subspaces at random configurations of five models with spherical, free, planar
//   and universal joints; its body poses, twists and accelerations after forward kinematics;
//   its rnea, gravity term, crba, aba and M⁻¹ (also by the reference routes of
//   reference_dynamics.hpp); and its URDF loader on planar and floating joints);
// * in long double, against the group laws and central differences of the operations
//   themselves (Jacobians, ad, subspace as the body velocity of X_J, bias as Γ̇ q̇, the gravity
//   term as the gradient of the potential energy, the centroidal momentum's rate), aba as
//   the inverse of rnea, and aza's and ltdl's solves and M⁻¹ against crba's M;
// and the kernels in float and AutoDiffScalar (derivatives of rnea and aba equal M and M⁻¹).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "liedyn/algorithm/reference_dynamics.hpp"
#include "liedyn/interop/derivatives.hpp"
#include "liedyn/liedyn.hpp"
#include "liedyn/testing/samples.hpp"
#if LIEDYN_HAS_URDF
#include "liedyn/model/urdf.hpp"
#endif
#include "support/pinocchio4_model.hpp"
#include "support/pinocchio_dump.hpp"
#include "support/scribble.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;

namespace {

const char* const kDumps[] = {"solo12_spherical", "talos_spherical", "arm_free_box",
                              "planar_base_arm", "universal_chain"};

// The liedyn joint of a Pinocchio joint record (placement left at the identity: the tests
// compare X_J, and compose placements themselves where needed).
template <class S>
Joint<S> make_joint(JointType type, const Vector3<S>& axis = Vector3<S>::UnitZ(),
                    const Vector3<S>& axis2 = Vector3<S>::UnitY(), const S& pitch = S(0)) {
  Joint<S> j;
  j.type = type;
  j.axis = axis;
  j.axis2 = axis2;
  j.pitch = type == JointType::Helical ? pitch : S(0);
  j.screw = joint_screw(type, axis, j.pitch);
  return j;
}

Joint<double> joint_from_dump(const test::PinocchioDump& d, const test::PinocchioJoint& pj) {
  const std::string& t = pj.type;
  if (t == "JointModelFreeFlyer") return make_joint<double>(JointType::Free);
  if (t == "JointModelSpherical") return make_joint<double>(JointType::Spherical);
  if (t == "JointModelPlanar") return make_joint<double>(JointType::Planar);
  const std::vector<Vector3<double>>& axes = d.axes.at(pj.index);
  if (t == "JointModelUniversal") return make_joint<double>(JointType::Universal, axes[0], axes[1]);
  if (t.rfind("JointModelR", 0) == 0) return make_joint<double>(JointType::Revolute, axes[0]);
  if (t.rfind("JointModelP", 0) == 0) return make_joint<double>(JointType::Prismatic, axes[0]);
  FAIL("unexpected Pinocchio joint type " << t);
  return {};
}

template <class A, class B>
double max_abs_diff(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return double((a - b).cwiseAbs().maxCoeff());
}

// Rotation and translation, max entry difference.
double pose_diff(const SE3<double>& a, const SE3<double>& b) {
  return std::max(max_abs_diff(a.rotation(), b.rotation()),
                  max_abs_diff(a.translation(), b.translation()));
}

}  // namespace

TEST_CASE("joint types: group, transform and subspace agree with Pinocchio 4.1") {
  // Tolerances: each quantity is a few roundings of unit-size numbers in both libraries
  // (integrate, difference, S: 1e-14); a pose recovered from Pinocchio's world poses through
  // the tree carries their accumulated rounding (1e-13).
  int checked_multi_dof = 0;
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = std::string(LIEDYN_TEST_DATA_DIR) + "/pinocchio4/" + stem + ".seed" +
                               std::to_string(seed) + ".txt";
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      REQUIRE(d.joints.size() >= 2);
      const VectorX<double>&q = d.vec("q"), &dq = d.vec("dq"), &q_plus = d.vec("q_plus_dq");
      const VectorX<double>& q0 = d.vec("q_neutral");
      const VectorX<double>& log_q = d.vec("difference_neutral_q");
      for (const test::PinocchioJoint& pj : d.joints) {
        if (pj.index == 0) continue;
        INFO(path << ": joint " << pj.name << " (" << pj.type << ")");
        const Joint<double> joint = joint_from_dump(d, pj);
        REQUIRE(joint.nq() == pj.nq);
        REQUIRE(joint.nv() == pj.nv);
        if (pj.nv > 1) ++checked_multi_dof;
        const auto qi = q.segment(pj.idx_q, pj.nq);

        VectorX<double> out(pj.nq);
        joint.integrate(qi, dq.segment(pj.idx_v, pj.nv), out);
        CHECK(max_abs_diff(out, q_plus.segment(pj.idx_q, pj.nq)) < 1e-14);

        VectorX<double> neutral(pj.nq);
        joint.neutral(neutral);
        CHECK(max_abs_diff(neutral, q0.segment(pj.idx_q, pj.nq)) == 0.0);

        VectorX<double> delta(pj.nv);
        joint.difference(neutral, qi, delta);
        CHECK(max_abs_diff(delta, log_q.segment(pj.idx_v, pj.nv)) < 1e-14);

        MatrixX<double> gamma(6, pj.nv);
        joint.subspace(qi, gamma);
        CHECK(max_abs_diff(gamma, d.subspaces.at(pj.index)) < 1e-14);

        // oMi[I] = oMi[parent] · M_I · X_J(q_I).
        const SE3<double> parent = pj.parent == 0 ? SE3<double>() : d.oMi.at(pj.parent);
        const SE3<double> expected =
            d.placements.at(pj.index).inverse_times(parent.inverse_times(d.oMi.at(pj.index)));
        CHECK(pose_diff(joint.motion_transform(qi), expected) < 1e-13);
      }
    }
  }
  // The dumps' spherical, free, planar and universal joints, both seeds.
  CHECK(checked_multi_dof == 2 * (1 + 4) + 2 * (1 + 4) + 2 * 1 + 2 * 1 + 2 * 5);
}

namespace {

using LD = long double;

// Every joint type, with non-trivial axes.
std::vector<Joint<LD>> every_joint_type() {
  const Vector3<LD> e = Vector3<LD>(0.3L, -0.5L, 0.8L).normalized();
  const Vector3<LD> a1 = Vector3<LD>(0.48L, 0.6L, 0.64L), a2 = Vector3<LD>(0.0L, 0.8L, -0.6L);
  return {make_joint<LD>(JointType::Revolute, e),
          make_joint<LD>(JointType::Prismatic, e),
          make_joint<LD>(JointType::Helical, e, Vector3<LD>::UnitY(), 0.05L),
          make_joint<LD>(JointType::Spherical),
          make_joint<LD>(JointType::Free),
          make_joint<LD>(JointType::Planar),
          make_joint<LD>(JointType::Universal, a1, Vector3<LD>(a2.normalized()))};
}

VectorX<LD> random_tangent(std::mt19937& rng, int n, LD scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VectorX<LD> v(n);
  for (int k = 0; k < n; ++k) v(k) = scale * LD(u(rng));
  return v;
}

VectorX<LD> plus(const Joint<LD>& j, const VectorX<LD>& q, const VectorX<LD>& d) {
  VectorX<LD> out(q.size());
  j.integrate(q, d, out);
  return out;
}
VectorX<LD> minus(const Joint<LD>& j, const VectorX<LD>& q1, const VectorX<LD>& q0) {
  VectorX<LD> out(j.nv());
  j.difference(q0, q1, out);
  return out;
}

// Central differences, column by column, of a map f(ε e_k) of a joint's tangent.
template <class F>
MatrixX<LD> central_columns(int rows, int cols, F&& f, LD h) {
  MatrixX<LD> J(rows, cols);
  for (int k = 0; k < cols; ++k) {
    VectorX<LD> e = VectorX<LD>::Zero(cols);
    e(k) = h;
    J.col(k) = (f(e) - f(VectorX<LD>(-e))) / (2 * h);
  }
  return J;
}

// Central differences with h = 1e-6 in long double: truncation h²/6 and round-off ε/h are both
// ~1e-13, times the operations' curvature (unit-size states): 1e-10 leaves a wide margin and
// still catches any wrong term (they are of order 1).
constexpr LD kStep = 1e-6L;
constexpr double kFdTol = 1e-10;

}  // namespace

TEST_CASE("joint types: group laws, Jacobians, ad, subspace and bias against central differences") {
  std::mt19937 rng(42);
  for (const Joint<LD>& j : every_joint_type()) {
    INFO("joint type " << to_string(j.type));
    const int nq = j.nq(), nv = j.nv();
    for (int trial = 0; trial < 4; ++trial) {
      VectorX<LD> q(nq), q1(nq);
      j.random(rng, q);
      j.random(rng, q1);
      const VectorX<LD> delta = random_tangent(rng, nv, 1.0L), v = random_tangent(rng, nv, 1.0L);

      // Group laws: (q ⊕ δ) ⊖ q = δ (|δ| < π for the rotations) and q ⊕ (q1 ⊖ q) = q1 (as poses:
      // q and −q are the same rotation).
      CHECK(max_abs_diff(minus(j, plus(j, q, delta), q), delta) < 1e-16);
      const SE3<LD> X1 = j.motion_transform(q1),
                    X1_back = j.motion_transform(plus(j, q, minus(j, q1, q)));
      CHECK(max_abs_diff(X1.rotation(), X1_back.rotation()) < 1e-16);
      CHECK(max_abs_diff(X1.translation(), X1_back.translation()) < 1e-16);

      // integrate_jacobians: J_q = ∂((q ⊕ ε) ⊕ δ)/∂ε, J_delta = ∂(q ⊕ (δ + ε))/∂ε, both read
      // in the tangent at q ⊕ δ.
      JointTangentMap<LD> J_q(nv, nv), J_delta(nv, nv);
      j.integrate_jacobians(delta, J_q, J_delta);
      const VectorX<LD> y = plus(j, q, delta);
      const MatrixX<LD> fd_J_q = central_columns(
          nv, nv, [&](const VectorX<LD>& e) { return minus(j, plus(j, plus(j, q, e), delta), y); },
          kStep);
      const MatrixX<LD> fd_J_delta = central_columns(
          nv, nv,
          [&](const VectorX<LD>& e) { return minus(j, plus(j, q, VectorX<LD>(delta + e)), y); },
          kStep);
      CHECK(max_abs_diff(J_q, fd_J_q) < kFdTol);
      CHECK(max_abs_diff(J_delta, fd_J_delta) < kFdTol);

      // difference_jacobians of η = q1 ⊖ q.
      JointTangentMap<LD> J_0(nv, nv), J_1(nv, nv);
      j.difference_jacobians(q, q1, J_0, J_1);
      const VectorX<LD> eta = minus(j, q1, q);
      const MatrixX<LD> fd_J_0 = central_columns(
          nv, nv,
          [&](const VectorX<LD>& e) { return VectorX<LD>(minus(j, q1, plus(j, q, e)) - eta); },
          kStep);
      const MatrixX<LD> fd_J_1 = central_columns(
          nv, nv,
          [&](const VectorX<LD>& e) { return VectorX<LD>(minus(j, plus(j, q1, e), q) - eta); },
          kStep);
      CHECK(max_abs_diff(J_0, fd_J_0) < kFdTol);
      CHECK(max_abs_diff(J_1, fd_J_1) < kFdTol);

      // ad(v) = −d/dh J_q(h v) at h = 0 (the continuous-time row of the deviation).
      JointTangentMap<LD> ad(nv, nv), J_plus(nv, nv), J_minus(nv, nv), unused(nv, nv);
      j.ad(v, ad);
      j.integrate_jacobians(VectorX<LD>(kStep * v), J_plus, unused);
      j.integrate_jacobians(VectorX<LD>(-kStep * v), J_minus, unused);
      CHECK(max_abs_diff(ad, MatrixX<LD>((J_minus - J_plus) / (2 * kStep))) < kFdTol);

      // Γ(q) v is the child's body velocity along q ⊕ t v: d/dt log(X_J(q)⁻¹ X_J(q ⊕ t v)).
      Matrix6X<LD> gamma(6, nv);
      j.subspace(q, gamma);
      const SE3<LD> X = j.motion_transform(q);
      const MatrixX<LD> fd_velocity = central_columns(
          6, 1,
          [&](const VectorX<LD>& t) {
            return VectorX<LD>(
                X.inverse_times(j.motion_transform(plus(j, q, VectorX<LD>(t(0) * v)))).log());
          },
          kStep);
      CHECK(max_abs_diff(gamma * v, fd_velocity) < kFdTol);

      // c_J = d/dt (Γ(q ⊕ t v) v) at t = 0.
      const MatrixX<LD> fd_bias = central_columns(
          6, 1,
          [&](const VectorX<LD>& t) {
            Matrix6X<LD> g(6, nv);
            j.subspace(plus(j, q, VectorX<LD>(t(0) * v)), g);
            return VectorX<LD>(g * v);
          },
          kStep);
      CHECK(max_abs_diff(j.bias(q, v).vector(), fd_bias) < kFdTol);

      // For a constant Γ, ad is the spatial cross product seen through Γ: ad(v) η = Γᵀ((Γv) ×
      // (Γη)).
      if (j.column_rule() == ColumnRule::simultaneous) {
        const Matrix6<LD> cross = Motion<LD>(Vector6<LD>(gamma * v)).cross_matrix();
        CHECK(max_abs_diff(ad, MatrixX<LD>(gamma.transpose() * cross * gamma)) < 1e-18);
      }
    }
  }
}

TEST_CASE("joint types: neutral, normalize and random stay on the group") {
  std::mt19937 rng(7);
  for (const Joint<LD>& j : every_joint_type()) {
    INFO("joint type " << to_string(j.type));
    VectorX<LD> q(j.nq());
    j.neutral(q);
    const SE3<LD> identity = j.motion_transform(q);
    CHECK(max_abs_diff(identity.rotation(), Matrix3<LD>::Identity()) == 0.0);
    CHECK(max_abs_diff(identity.translation(), Vector3<LD>::Zero()) == 0.0);

    j.random(rng, q);
    const SE3<LD> X = j.motion_transform(q);
    // A rotation: RᵀR = 1 to round-off.
    CHECK(max_abs_diff(Matrix3<LD>(X.rotation().transpose() * X.rotation()),
                       Matrix3<LD>::Identity()) < 1e-17);

    // Scaling the coordinates off the group and normalizing gives the same pose back.
    VectorX<LD> scaled = q;
    if (j.type == JointType::Spherical) scaled *= 1.3L;
    if (j.type == JointType::Free) scaled.tail<4>() *= 0.7L;
    if (j.type == JointType::Planar) scaled.tail<2>() *= 1.1L;
    j.normalize(scaled);
    CHECK(max_abs_diff(scaled, q) < 1e-17);
  }
  // A screw joint's random position lies within finite limits; without limits, in [−π, π].
  Joint<LD> limited = make_joint<LD>(JointType::Revolute);
  limited.lower = -0.25L;
  limited.upper = 0.5L;
  Joint<LD> unlimited = make_joint<LD>(JointType::Revolute);
  for (int k = 0; k < 50; ++k) {
    VectorX<LD> s(1);
    limited.random(rng, s);
    CHECK((s(0) >= -0.25L && s(0) <= 0.5L));
    unlimited.random(rng, s);
    CHECK((s(0) >= -LD(M_PI) && s(0) <= LD(M_PI)));
  }
}

namespace {

std::string dump_path(const char* stem, int seed) {
  return std::string(LIEDYN_TEST_DATA_DIR) + "/pinocchio4/" + stem + ".seed" +
         std::to_string(seed) + ".txt";
}

// A dump's tree and state, rebuilt in double and cast to long double (the central-difference
// cases).
struct LongDoubleTree {
  test::PinocchioDump dump;
  Model<double> model_double;
  Model<LD> model;
  State<LD> x;
};
LongDoubleTree long_double_tree(const std::string& path) {
  LongDoubleTree t;
  t.dump = test::read_pinocchio_dump(path);
  t.model_double = test::model_from_dump(path, t.dump);
  t.model = t.model_double.cast<LD>();
  t.x = test::state_from_dump(t.model_double, t.dump).cast<LD>();
  return t;
}

// The trees the finite-difference tests run on: the dumps' trees at their state of `seed`, and
// two random trees of every joint type (random_model's every_joint_type: a branching tree on a
// moving base, a chain on a welded one) at random states.
struct FdTree {
  std::string name;
  Model<LD> model;
  State<LD> x;
};
std::vector<FdTree> fd_trees(int seed) {
  std::vector<FdTree> trees;
  for (const char* stem : kDumps) {
    LongDoubleTree t = long_double_tree(dump_path(stem, seed));
    trees.push_back({stem, std::move(t.model), std::move(t.x)});
  }
  std::mt19937 rng(static_cast<std::uint32_t>(40 + seed));
  RandomModelOptions branching;
  branching.every_joint_type = true;
  branching.branching = 3;
  RandomModelOptions welded_chain;
  welded_chain.every_joint_type = true;
  welded_chain.moving_base = false;
  for (const auto& [name, opt, joints] :
       {std::make_tuple("random every-type tree", branching, 12),
        std::make_tuple("random every-type welded chain", welded_chain, 8)}) {
    const Model<LD> model = random_model<double>(joints, rng, opt).cast<LD>();
    State<LD> x = random_state(model, rng);
    trees.push_back({name, model, std::move(x)});
  }
  return trees;
}

// Pinocchio's generalized vector (v, a; its joint order) in liedyn's order (base first, then
// each joint's block at v_index).
VectorX<double> to_liedyn_velocity(const Model<double>& model, const test::PinocchioDump& d,
                                   const VectorX<double>& pin) {
  VectorX<double> out(model.nv());
  if (d.freeflyer) out.head<6>() = pin.head<6>();
  for (const test::PinocchioJoint& pj : d.joints) {
    const int b = test::body_of(model, d, pj.index);
    if (b != 0) out.segment(model.v_index(b), pj.nv) = pin.segment(pj.idx_v, pj.nv);
  }
  return out;
}

// P Mᵀ Pᵀ for Pinocchio's nv × nv matrix M, P its velocity order → liedyn's (to_liedyn_velocity):
// for a symmetric M, liedyn's M.
MatrixX<double> to_liedyn_symmetric(const Model<double>& model, const test::PinocchioDump& d,
                                    const MatrixX<double>& pin) {
  MatrixX<double> rows(model.nv(), model.nv()), out(model.nv(), model.nv());
  for (int j = 0; j < model.nv(); ++j) rows.col(j) = to_liedyn_velocity(model, d, pin.col(j));
  for (int i = 0; i < model.nv(); ++i)
    out.col(i) = to_liedyn_velocity(model, d, rows.row(i).transpose());
  return out;
}

}  // namespace

TEST_CASE(
    "joint types: trees with spherical, free, planar and universal joints — kinematics "
    "agree with Pinocchio 4.1") {
  // Tolerance: poses, twists and accelerations compose ≤ 20 transforms of unit-size numbers in
  // both libraries, each ~1e-16: 1e-13 relative to max(1, |reference|).
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      REQUIRE(model.nq_joints() + (d.freeflyer ? 7 : 0) == d.nq);
      REQUIRE(model.nv() == d.nv);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      forward_kinematics(model, data, x);
      const VectorX<double> a = to_liedyn_velocity(model, d, d.vec("a"));
      Matrix6X<double> J(6, model.nv());
      for (const test::PinocchioJoint& pj : d.joints) {
        if (pj.index == 0) continue;
        INFO("joint " << pj.name);
        const int b = test::body_of(model, d, pj.index);
        CHECK(pose_diff(data.kinematics.H_world[b], d.oMi.at(pj.index)) < 1e-13);
        const Vector6<double>& v_ref = d.body_velocities.at(pj.index);
        CHECK(max_abs_diff(data.kinematics.v[b].vector(), v_ref) <
              1e-13 * std::max(1.0, v_ref.norm()));
        // a_b = J_b a + J̇_b q̇ (body frame; Pinocchio's data.inverse_dynamics.a carries no gravity).
        body_jacobian(model, data, x, b, TwistRepresentation::Body, J);
        const Vector6<double> acc =
            J * a +
            frame_acceleration_bias(model, data, x, b, SE3<double>(), TwistRepresentation::Body);
        const Vector6<double>& a_ref = d.body_accelerations.at(pj.index);
        CHECK(max_abs_diff(acc, a_ref) < 1e-13 * std::max(1.0, a_ref.norm()));
      }
    }
  }
}

TEST_CASE(
    "joint types: frame Jacobians of trees with every joint type against central "
    "differences on the product group") {
  // Long double, central differences along x ⊕ h e_k (kStep, kFdTol above). The frames: the
  // body after each multi-DoF joint, in the three representations.
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const LongDoubleTree tree = long_double_tree(path);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    Data<LD> data(model);
    const int nv = model.nv();
    for (int b = 1; b < model.num_bodies(); ++b) {
      if (model.joint_nv(b) == 1) continue;
      INFO("body " << model.body_name(b));
      const SE3<LD> placement(SO3<LD>::exp(Vector3<LD>(0.1L, -0.2L, 0.3L)),
                              Vector3<LD>(0.05L, 0.02L, -0.1L));
      // H_F(x ⊕ δ) for δ in the velocity tangent (η, δs); velocities untouched.
      auto frame_pose_at = [&](const VectorX<LD>& dq) {
        VectorX<LD> dx = VectorX<LD>::Zero(tangent_size(model));
        dx.head(nv) = dq;
        const State<LD> y = integrate(model, x, dx);
        forward_poses(model, data, y);
        return SE3<LD>(data.kinematics.H_world[b] * placement);
      };
      const SE3<LD> H_F = frame_pose_at(VectorX<LD>::Zero(nv));
      // Body-frame columns: d/dh log(H_F(x)⁻¹ H_F(x ⊕ h e_k)).
      const MatrixX<LD> fd_body = central_columns(
          6, nv,
          [&](const VectorX<LD>& e) {
            return VectorX<LD>(H_F.inverse_times(frame_pose_at(e)).log());
          },
          kStep);
      Matrix6X<LD> J(6, nv);
      frame_jacobian(model, data, x, b, placement, TwistRepresentation::Body, J);
      CHECK(max_abs_diff(J, fd_body) < kFdTol);
      // Inertial = ^A X_F · body; mixed = blockdiag(R, R) · body.
      frame_jacobian(model, data, x, b, placement, TwistRepresentation::Inertial, J);
      CHECK(max_abs_diff(J, MatrixX<LD>(H_F.velocity_transform() * fd_body)) < kFdTol);
    }
  }
}

TEST_CASE(
    "joint types: rnea, eidamb, the bias and the gravity term of trees with every joint "
    "type agree with Pinocchio 4.1") {
  // Tolerance: Pinocchio's own consistency is ~1e-13 relative (its README); both libraries sum
  // ≤ 50 bodies' wrenches of up to ~1e3 N·m: 1e-12 relative to max(1, ‖reference‖∞).
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const VectorX<double> a = to_liedyn_velocity(model, d, d.vec("a"));
      auto agrees = [&](const VectorX<double>& ours, const char* name) {
        const VectorX<double> ref = to_liedyn_velocity(model, d, d.vec(name));
        INFO(name);
        CHECK(max_abs_diff(ours, ref) < 1e-12 * std::max(1.0, ref.cwiseAbs().maxCoeff()));
      };
      agrees(rnea(model, data, x, a), "rnea");
      agrees(eidamb(model, data, x, a), "rnea");
      agrees(bias_force(model, data, x), "nle");
      agrees(gravity_force(model, data, x), "gravity_torque");
    }
  }
}

TEST_CASE(
    "joint types: crba of trees with every joint type agrees with Pinocchio 4.1, both routes") {
  // Tolerance: M sums ≤ 50 composite inertias of up to ~1e2 kg·m² in both libraries, each
  // entry ~1e-16 relative: 1e-12 relative to max(1, max |M_ref|).
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const MatrixX<double> ref = to_liedyn_symmetric(model, d, d.mat("crba"));
      const double tol = 1e-12 * std::max(1.0, ref.cwiseAbs().maxCoeff());
      for (CrbaRoute route : {CrbaRoute::Walk, CrbaRoute::BaseFrame}) {
        INFO("route " << int(route));
        data.M.setConstant(7.0);  // entries between branches must be written, not inherited
        const MatrixX<double>& M = crba(model, data, x, route);
        CHECK(max_abs_diff(M, ref) < tol);
        CHECK(M == M.transpose());
      }
    }
  }
}

TEST_CASE(
    "joint types: aba of trees with every joint type agrees with Pinocchio 4.1 and inverts "
    "rnea") {
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const VectorX<double> tau = to_liedyn_velocity(model, d, d.vec("tau"));
      const VectorX<double> ref = to_liedyn_velocity(model, d, d.vec("aba"));
      // Tolerance: both libraries' O(n) sweeps round at ~1e-16, and q̈ = M⁻¹ (τ − h) carries
      // M's conditioning (up to 1e7 on talos): 1e-13 relative to max(1, ‖q̈_ref‖∞), where
      // 3.3e-15 was measured.
      const VectorX<double> ddq = aba(model, data, x, tau);
      CHECK(max_abs_diff(ddq, ref) < 1e-13 * std::max(1.0, ref.cwiseAbs().maxCoeff()));
      // Data holds results, not promises: every public member overwritten with NaN first, the
      // same answer to the bit.
      test::scribble(data);
      CHECK(aba(model, data, x, tau) == ddq);
    }
  }
  // Long double, with a wrench on every body: rnea(x, aba(x, τ, f), f) = τ. The trees' axes and
  // quaternions come from double data, so their rotations are orthonormal to ~1e-16 only, and
  // the mixed frames of aba and the body frames of rnea see that at ~1e-16 of the terms they
  // sum (≤ ‖M‖ ‖q̈‖): 1e-15 relative to max(1, max|M_ij| ‖q̈‖∞). A wrong pivot, bias or frame
  // is an O(1) error.
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 2);
    INFO(path);
    const LongDoubleTree tree = long_double_tree(path);
    const Model<LD>& model = tree.model;
    Data<LD> data(model);
    ExternalWrenches<LD> fext(model.num_bodies());
    for (int b = 0; b < model.num_bodies(); ++b)
      fext[b] = Force<LD>(Vector6<LD>(Vector6<LD>::LinSpaced(LD(0.1) * b, LD(-0.3) + b)));
    const VectorX<LD> tau = VectorX<LD>::LinSpaced(model.nv(), LD(-2), LD(3));
    const VectorX<LD> ddq = aba(model, data, tree.x, tau, &fext);
    const VectorX<LD> back = rnea(model, data, tree.x, ddq, &fext);
    const LD scale = crba(model, data, tree.x).cwiseAbs().maxCoeff() * ddq.cwiseAbs().maxCoeff();
    CHECK(max_abs_diff(back, tau) < 1e-15L * std::max(LD(1), scale));
  }
}

TEST_CASE(
    "joint types: immamb, aza and ltdl of trees with every joint type agree with Pinocchio "
    "4.1's computeMinverse and solve M X = Y") {
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const MatrixX<double> ref = to_liedyn_symmetric(model, d, d.mat("Minv"));
      // Tolerance: both libraries invert M by articulated-body recursions, whose rounding is
      // ~1e-16 of the pivots and moves M⁻¹'s entries by up to cond(M)·1e-16 of max|M⁻¹| in the
      // worst case (cond(M) ≈ 1e7 on talos); 1e-11 relative to max(1, max|M⁻¹_ref|). A wrong
      // pivot block, column or frame is an O(1) error.
      const double tol = 1e-11 * std::max(1.0, ref.cwiseAbs().maxCoeff());
      const MatrixX<double> Minv = immamb(model, data, x);
      CHECK(max_abs_diff(Minv, ref) < tol);
      CHECK(Minv == Minv.transpose());
      // Data holds results, not promises.
      test::scribble(data);
      CHECK(immamb(model, data, x) == Minv);
      MatrixX<double> X(model.nv(), model.nv());
      aza_factorize(model, data, x.s);
      aza_solve(model, data, MatrixX<double>::Identity(model.nv(), model.nv()), X);
      CHECK(max_abs_diff(X, ref) < tol);
      // The sparse LᵀDL factors of crba's M: a joint's coordinates chain in the tree of
      // coordinates (Model::dof_parent), its k × k block of M eliminated like a branch.
      crba(model, data, x);
      ltdl_factorize(model, data);
      CHECK(max_abs_diff(ltdl_inverse(model, data), ref) < tol);
    }
  }
  // Long double: M X = Y with M from crba (checked against Pinocchio above) for a dense Y, and
  // M M⁻¹ = 1. The residual of a backward-stable solve is ~1e-16 of ‖M‖ ‖X‖ (the trees'
  // rotations are orthonormal to ~1e-16 only, see the aba test): 1e-15 relative to
  // max(1, max|M_ij| · max|X_ij|) per column sum of ≤ 50 terms.
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 2);
    INFO(path);
    const LongDoubleTree tree = long_double_tree(path);
    const Model<LD>& model = tree.model;
    Data<LD> data(model);
    const int nv = model.nv();
    MatrixX<LD> Y(nv, 3);
    for (int c = 0; c < 3; ++c) Y.col(c) = VectorX<LD>::LinSpaced(nv, LD(-2) + c, LD(3) - c);
    MatrixX<LD> X(nv, 3);
    aza_factorize(model, data, tree.x.s);
    aza_solve(model, data, Y, X);
    const MatrixX<LD> M = crba(model, data, tree.x);
    const LD scale = M.cwiseAbs().maxCoeff() * X.cwiseAbs().maxCoeff();
    CHECK(max_abs_diff(M * X, Y) < 1e-15L * std::max(LD(1), scale));
    ltdl_factorize(model, data);
    for (int c = 0; c < 3; ++c) {
      VectorX<LD> z = Y.col(c);
      ltdl_solve(model, data, z);
      CHECK(max_abs_diff(M * z, Y.col(c)) < 1e-15L * std::max(LD(1), scale));
    }
    const MatrixX<LD> Minv = immamb(model, data, tree.x);
    const LD scale_inv = M.cwiseAbs().maxCoeff() * Minv.cwiseAbs().maxCoeff();
    CHECK(max_abs_diff(M * Minv, MatrixX<LD>::Identity(nv, nv)) <
          1e-15L * std::max(LD(1), scale_inv));
  }
}

namespace {

// P X Pᵀ for Pinocchio's nv × nv matrix X, P its velocity order → liedyn's (rows and columns).
MatrixX<double> to_liedyn_matrix(const Model<double>& model, const test::PinocchioDump& d,
                                 const MatrixX<double>& pin) {
  return to_liedyn_symmetric(model, d, pin.transpose());  // that is P (Xᵀ)ᵀ Pᵀ
}

// [D1 D2] and [D3 D4] (nv × nv each): the derivatives by the velocity tangent of the
// configuration and by the velocity, base first (D1, D3 empty for a welded base).
template <class S>
MatrixX<S> configuration_derivatives(const Model<S>& model, const Data<S>& data) {
  MatrixX<S> out(model.nv(), model.nv());
  out.leftCols(model.offset()) = data.derivatives.D1;
  out.rightCols(model.nv_joints()) = data.derivatives.D2;
  return out;
}
template <class S>
MatrixX<S> velocity_derivatives(const Model<S>& model, const Data<S>& data) {
  MatrixX<S> out(model.nv(), model.nv());
  out.leftCols(model.offset()) = data.derivatives.D3;
  out.rightCols(model.nv_joints()) = data.derivatives.D4;
  return out;
}

// max |a − b| / max(1, max |b|); 0 for empty matrices.
template <class A, class B>
double relative_diff(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  if (b.size() == 0) return 0.0;
  return max_abs_diff(a, b) / std::max(1.0, double(b.cwiseAbs().maxCoeff()));
}

}  // namespace

TEST_CASE(
    "joint types: eidamb_derivatives of trees with every joint type agrees with Pinocchio "
    "4.1's computeRNEADerivatives") {
  // Tolerance: D1..D4 are sums over ≤ 50 bodies of the same products that rnea sums, in both
  // libraries: rnea's tolerance above, 1e-12 relative to max(1, max |reference|). (The universal
  // chain's reference is Pinocchio's revolute-pair twin: its own derivatives are wrong, see
  // tests/data/pinocchio4/README.md.) A wrong column term is an O(1) error (design §6).
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const VectorX<double> a = to_liedyn_velocity(model, d, d.vec("a"));
      // Body twist held: Pinocchio's free-flyer velocity is the base's body twist.
      eidamb_derivatives(model, data, x, a, TwistRepresentation::Body);
      const MatrixX<double> dq = configuration_derivatives(model, data);
      const MatrixX<double> dv = velocity_derivatives(model, data);
      const double e_dq = relative_diff(dq, to_liedyn_matrix(model, d, d.mat("dtau_dq")));
      const double e_dv = relative_diff(dv, to_liedyn_matrix(model, d, d.mat("dtau_dv")));
      CHECK(e_dq < 1e-12);
      CHECK(e_dv < 1e-12);
      CHECK(relative_diff(data.M, to_liedyn_symmetric(model, d, d.mat("crba"))) < 1e-12);
      CHECK(data.M == data.M.transpose());
      CHECK(relative_diff(data.tau, to_liedyn_velocity(model, d, d.vec("rnea"))) < 1e-12);
      const std::string name = std::string(stem) + ".seed" + std::to_string(seed);
      test::report(name + ": [D1 D2] vs dtau_dq", e_dq);
      test::report(name + ": [D3 D4] vs dtau_dv", e_dv);
      // Data holds results, not promises: every public member overwritten with NaN first, the
      // same answer to the bit, in each representation.
      for (TwistRepresentation rep :
           {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
        eidamb_derivatives(model, data, x, a, rep);
        const Data<double> first = data;
        test::scribble(data);
        eidamb_derivatives(model, data, x, a, rep);
        CHECK(data.derivatives.D1 == first.derivatives.D1);
        CHECK(data.derivatives.D2 == first.derivatives.D2);
        CHECK(data.derivatives.D3 == first.derivatives.D3);
        CHECK(data.derivatives.D4 == first.derivatives.D4);
        CHECK(data.M == first.M);
        CHECK(data.tau == first.tau);
      }
    }
  }
}

TEST_CASE(
    "joint types: D1..D4 of trees with every joint type against long-double central "
    "differences on the product group, in the three base-twist representations") {
  // numdiff moves each joint on its own group (s ⊕ h e_k) and the base by H exp(η^), the twist
  // of the representation held; default central differences, δ = ε_ld^(1/3) ≈ 4.8e-7, whose
  // error δ²|f'''|/6 + ε_ld|f|/δ is ≲ 1e-12 relative here; the analytic side is long double too.
  // Tolerance 1e-9 relative to max(1, max |FD|) (the bound); a wrong term is O(1).
  // A wrench on every body exercises F^c's external part, as the constrained kernels use it.
  for (const FdTree& tree : fd_trees(2)) {
    const std::string& stem = tree.name;
    INFO(stem);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    Data<LD> data(model), data_fd(model);
    ExternalWrenches<LD> fext(model.num_bodies());
    for (int b = 0; b < model.num_bodies(); ++b)
      fext[b] = Force<LD>(Vector6<LD>(Vector6<LD>::LinSpaced(LD(0.2) * b, LD(0.4) - b)));
    const VectorX<LD> ddq = VectorX<LD>::LinSpaced(model.nv(), LD(-1.5), LD(2));
    auto f = [&](const State<LD>& y) -> VectorX<LD> {
      return eidamb(model, data_fd, y, ddq, &fext);
    };
    numdiff::NumDiffOptions<LD> opt;
    const MatrixX<LD> fd2 = numdiff::jacobian_wrt_joint_positions(model, f, x, opt);
    const MatrixX<LD> fd4 = numdiff::jacobian_wrt_joint_velocities(model, f, x, opt);
    for (TwistRepresentation rep :
         {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
      INFO("twist " << to_string(rep));
      opt.twist_representation = rep;
      const MatrixX<LD> fd1 = numdiff::jacobian_wrt_pose(model, f, x, opt);
      const MatrixX<LD> fd3 = numdiff::jacobian_wrt_twist(model, f, x, opt);
      eidamb_derivatives(model, data, x, ddq, rep, &fext);
      const double e[4] = {
          relative_diff(data.derivatives.D1, fd1), relative_diff(data.derivatives.D2, fd2),
          relative_diff(data.derivatives.D3, fd3), relative_diff(data.derivatives.D4, fd4)};
      for (int b = 0; b < 4; ++b) {
        CHECK(e[b] < 1e-9);
        test::report(std::string(stem) + ", " + to_string(rep) + ": FD, D" + std::to_string(b + 1),
                     e[b]);
      }
      // The linearization's two passes (derivatives at zero accelerations, then the
      // accelerations and, as the constrained kernels pass them, the wrenches put in): the same
      // numbers to rounding (sums regrouped: 1e-15 relative in long double); a missing term is
      // O(1).
      Data<LD> two(model);
      detail::update_poses(model, two, x.s);
      detail::ground_derivative_pass<false>(model, two, x, VectorX<LD>::Zero(model.nv()), rep,
                                            static_cast<const ExternalWrenches<LD>*>(nullptr));
      detail::ground_acceleration_pass(model, two, x, ddq, &fext);
      CHECK(relative_diff(two.tau, data.tau) < 1e-15);
      CHECK(relative_diff(two.derivatives.D2, data.derivatives.D2) < 1e-15);
      CHECK(relative_diff(two.derivatives.D4, data.derivatives.D4) < 1e-15);
      CHECK(relative_diff(two.M, data.M) < 1e-15);
      if (model.has_moving_base())
        CHECK(relative_diff(two.derivatives.D1, data.derivatives.D1) < 1e-15);
    }
  }
}

TEST_CASE(
    "joint types: linearize of trees with every joint type agrees with Pinocchio 4.1's "
    "computeABADerivatives, both M⁻¹ routes") {
  // Tolerance: ∂q̈/∂x = −M⁻¹ [D1..D4] and M⁻¹ carry M's conditioning in both libraries, as M⁻¹
  // does: its tolerance above, 1e-11 relative to max(1, max |reference|). A wrong column or
  // block is an O(1) error.
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      const int nv = model.nv();
      const VectorX<double> tau = to_liedyn_velocity(model, d, d.vec("tau"));
      MatrixX<double> ref(nv, 2 * nv);
      ref << to_liedyn_matrix(model, d, d.mat("dddq_dq")),
          to_liedyn_matrix(model, d, d.mat("dddq_dv"));
      const MatrixX<double> Minv_ref = to_liedyn_symmetric(model, d, d.mat("Minv"));
      for (MinvMethod route : {MinvMethod::Dense, MinvMethod::Sweeps}) {
        INFO("route " << int(route));
        LinearizationOptions<double> opt;
        opt.minv = route;  // body twist held: Pinocchio's free-flyer velocity
        linearize(model, data, x, tau, opt);
        const double e_A = relative_diff(data.linearization.A.bottomRows(nv), ref);
        CHECK(e_A < 1e-11);
        CHECK(relative_diff(data.linearization.B.bottomRows(nv), Minv_ref) < 1e-11);
        CHECK(relative_diff(data.ddq, to_liedyn_velocity(model, d, d.vec("aba"))) < 1e-11);
        test::report(std::string(stem) + ".seed" + std::to_string(seed) + ", route " +
                         std::to_string(int(route)) + ": A's acceleration rows vs dddq",
                     e_A);
        // Data holds results, not promises.
        const MatrixX<double> A = data.linearization.A, B = data.linearization.B;
        test::scribble(data);
        linearize(model, data, x, tau, opt);
        CHECK(data.linearization.A == A);
        CHECK(data.linearization.B == B);
      }
    }
  }
}

TEST_CASE(
    "joint types: the continuous and discrete linearizations of trees with every joint type "
    "against long-double central differences on the product group") {
  // numdiff's columns move the base by H exp(η^) with the twist of `rep` held, each joint on its
  // own group, the velocities additively (default central differences, δ = ε_ld^(1/3), error
  // ≲ 1e-12 relative here). Continuous: a deviation on a group obeys η̇ = δv − ad(v̄) η (base and
  // joints alike), so the differences of the field's ν and r rows get −ad on those blocks. The
  // analytic side in long double too; tolerance 1e-9 relative to max(1, max |FD|) (the issue's
  // bound); a missing −ad block, Jacobian or column is O(1).
  for (const FdTree& tree : fd_trees(2)) {
    const std::string& stem = tree.name;
    INFO(stem);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    const int nv = model.nv(), off = model.offset();
    Data<LD> data(model), data_fd(model);
    const VectorX<LD> tau = VectorX<LD>::LinSpaced(nv, LD(-3), LD(2));
    const LD dt = 0.05L;
    for (TwistRepresentation rep :
         {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
      if (off == 0 && rep != TwistRepresentation::Body) continue;  // no base twist
      INFO("twist " << to_string(rep));
      numdiff::NumDiffOptions<LD> opt;
      opt.twist_representation = rep;
      LinearizationOptions<LD> lin;
      lin.representation = rep;

      MatrixX<LD> fd_A = numdiff::state_jacobian(
          model,
          [&](const State<LD>& y) {
            return numdiff::state_vector_field(model, data_fd, y, tau, rep);
          },
          x, opt);
      numdiff::add_deviation_drift(model, x, fd_A);
      const MatrixX<LD> fd_B = numdiff::vector_jacobian(
          [&](const VectorX<LD>& t) {
            return numdiff::state_vector_field(model, data_fd, x, t, rep);
          },
          tau);
      linearize(model, data, x, tau, lin);
      const double e_A = relative_diff(data.linearization.A, fd_A),
                   e_B = relative_diff(data.linearization.B, fd_B);
      CHECK(e_A < 1e-9);
      CHECK(e_B < 1e-9);

      // Discrete: δx⁺ = step(x ⊕ δx) ⊖ step(x), in `rep` coordinates at both ends.
      const State<LD> x_next = semi_implicit_euler_step(model, data_fd, x, tau, dt);
      auto step_from = [&](const State<LD>& y, const VectorX<LD>& t) {
        return numdiff::local_difference(model, x_next,
                                         semi_implicit_euler_step(model, data_fd, y, t, dt), rep);
      };
      const MatrixX<LD> fd_Ad = numdiff::state_jacobian(
          model, [&](const State<LD>& y) { return step_from(y, tau); }, x, opt);
      const MatrixX<LD> fd_Bd =
          numdiff::vector_jacobian([&](const VectorX<LD>& t) { return step_from(x, t); }, tau);
      linearize_discrete(model, data, x, tau, dt, lin);
      const double e_Ad = relative_diff(data.linearization.A, fd_Ad),
                   e_Bd = relative_diff(data.linearization.B, fd_Bd);
      CHECK(e_Ad < 1e-9);
      CHECK(e_Bd < 1e-9);
      const std::string name = std::string(stem) + ", " + to_string(rep);
      test::report(name + ": FD, continuous A", e_A);
      test::report(name + ": FD, continuous B", e_B);
      test::report(name + ": FD, discrete A", e_Ad);
      test::report(name + ": FD, discrete B", e_Bd);
    }
  }
}

TEST_CASE(
    "joint types: centroidal_derivatives of trees with every joint type against long-double "
    "central differences on the product group") {
  // The CoM, the centroidal momentum and its rate at fixed accelerations (checked against
  // Pinocchio above through the kernels they share), differentiated by numdiff on the product
  // group (δ = ε_ld^(1/3), error ≲ 1e-12 relative); the analytic side in long double. Tolerance
  // 1e-9 relative to max(1, max |FD|), as for D1..D4.
  for (const FdTree& tree : fd_trees(1)) {
    const std::string& stem = tree.name;
    INFO(stem);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    Data<LD> data(model), data_fd(model);
    const VectorX<LD> ddq = VectorX<LD>::LinSpaced(model.nv(), LD(1), LD(-2));
    auto f = [&](const State<LD>& y) {
      VectorX<LD> out(15);
      out << center_of_mass(model, data_fd, y), centroidal_momentum(model, data_fd, y),
          centroidal_momentum_rate(model, data_fd, y, ddq);
      return out;
    };
    for (TwistRepresentation rep :
         {TwistRepresentation::Body, TwistRepresentation::Inertial, TwistRepresentation::Mixed}) {
      if (!model.has_moving_base() && rep != TwistRepresentation::Body) continue;
      INFO("twist " << to_string(rep));
      numdiff::NumDiffOptions<LD> opt;
      opt.twist_representation = rep;
      const MatrixX<LD> fd = numdiff::state_jacobian(model, f, x, opt);
      centroidal_derivatives(model, data, x, ddq, rep);
      MatrixX<LD> analytic(15, 2 * model.nv());
      analytic << data.centroidal.com_dx, data.centroidal.momentum_dx, data.centroidal.rate_dx;
      const double e = relative_diff(analytic, fd);
      CHECK(e < 1e-9);
      test::report(std::string(stem) + ", " + to_string(rep) + ": FD, centroidal derivatives", e);
    }
  }
}

TEST_CASE(
    "joint types: coriolis_matrix of trees with every joint type gives the velocity products "
    "and Ṁ − 2C skew-symmetric") {
  for (const FdTree& tree : fd_trees(1)) {
    const std::string& stem = tree.name;
    INFO(stem);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    Data<LD> data(model);
    const int nv = model.nv();
    const MatrixX<LD> C = coriolis_matrix(model, data, x);
    VectorX<LD> v(nv);
    if (model.has_moving_base()) v.head<6>() = x.nu;
    v.tail(model.nv_joints()) = x.r;
    // C ν̄ = h − g, the same products summed in another order; the trees' rotations come from
    // double data (orthonormal to ~1e-16): 1e-14 relative to max(1, ‖h − g‖∞).
    const VectorX<LD> h_x = bias_force(model, data, x);
    const VectorX<LD> products = h_x - gravity_force(model, data, x);
    CHECK(relative_diff(VectorX<LD>(C * v), products) < 1e-14);
    // Ṁ = d/dt M(s ⊕ t r) by long-double central differences (h = 1e-6: error ~1e-12
    // relative): (Ṁ − 2C) + (Ṁ − 2C)ᵀ = 0 to 1e-9 relative to max(1, max |Ṁ|).
    const LD h = 1e-6L;
    auto mass_matrix_at = [&](LD t) {
      State<LD> y = x;
      detail::integrate_joints(model, x.s, VectorX<LD>(t * x.r), y.s);
      return MatrixX<LD>(crba(model, data, y));
    };
    const MatrixX<LD> Mdot = (mass_matrix_at(h) - mass_matrix_at(-h)) / (2 * h);
    const MatrixX<LD> K = Mdot - 2 * C;
    const MatrixX<LD> sym = K + K.transpose();
    const double e =
        double(sym.cwiseAbs().maxCoeff() / std::max(LD(1), LD(Mdot.cwiseAbs().maxCoeff())));
    CHECK(e < 1e-9);
    CHECK(Mdot.cwiseAbs().maxCoeff() > 1e-2L);  // not a vacuous comparison
    test::report(std::string(stem) + ": (Ṁ − 2C) + (Ṁ − 2C)ᵀ", e);
  }
}

namespace {

// Constraints on a dump's tree, each named by a frame on its body with its desired placement
// the one at x (e(x) = 0): a rigid contact (inertial sense) at the last leaf body; on a
// branching tree also a point contact (mixed sense) at the first leaf and a ball loop (mixed)
// between the second and the third. (On the chains a second constraint on the same arm makes
// J rank deficient: the frames lie on the wrist's intersecting axes.)
template <class S>
ConstraintSet<S> leaf_constraints(const Model<S>& model, const State<S>& x) {
  auto frame_on = [&](int body) {
    for (const Frame<S>& f : model.frames())
      if (f.body == body) return f.name;
    FAIL("no frame on body " << model.body_name(body));
    return std::string();
  };
  std::vector<int> leaves;
  for (int b = 1; b < model.num_bodies(); ++b)
    if (model.children(b).empty()) leaves.push_back(b);
  using CS = ConstraintSpec<S>;
  const int last = leaves.back();
  std::vector<CS> specs = {CS::rigid_contact(frame_on(last), TwistRepresentation::Inertial)};
  if (leaves.size() > 1)
    specs.push_back(CS::point_contact(frame_on(leaves.front()), TwistRepresentation::Mixed));
  if (leaves.size() > 3)
    specs.push_back(CS::loop(ConstraintType::BallLoop, frame_on(leaves[1]), frame_on(leaves[2]),
                             TwistRepresentation::Mixed));
  Data<S> data(model);
  forward_poses(model, data, x);
  for (CS& c : specs) {
    const SE3<S> H2 = frame_pose(model, data, is_contact(c.type) ? c.frame : c.frame2);
    c.placement = is_contact(c.type) ? H2 : frame_pose(model, data, c.frame).inverse_times(H2);
  }
  return ConstraintSet<S>(model, specs);
}

}  // namespace

TEST_CASE(
    "joint types: constraint kinematics and constrained dynamics of trees with every joint "
    "type") {
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const LongDoubleTree tree = long_double_tree(path);
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    const int nv = model.nv();
    const ConstraintSet<LD> set = leaf_constraints(model, x);
    std::string names;
    for (int k = 0; k < static_cast<int>(set.constraints().size()); ++k)
      names += set.describe(k) + "; ";
    INFO(names);
    Data<LD> data(model);
    ConstraintData<LD> cd(model, set);
    const VectorX<LD> tau = VectorX<LD>::LinSpaced(nv, LD(-2), LD(1));
    const VectorX<LD> ddq = constrained_forward_dynamics(model, data, set, cd, x, tau);
    const VectorX<LD> lambda = cd.lambda;

    // The drift: along x(t) = x ⊕ t (ν̄, q̈) on the product group, d/dt (J ν̄) = J q̈ + J̇ ν̄ for
    // these senses (mixed point and ball rows, inertial rigid rows: constraint_kinematics.hpp).
    // Central differences, h = 1e-6 in long double: error ~1e-12 relative; tolerance 1e-9
    // relative to max(1, max |rate|). A missing column, bias or group move is O(1).
    constraint_kinematics(model, data, set, cd, x);
    const MatrixX<LD> J = cd.J;
    // Any accelerations (the constrained ones would give d/dt (J ν̄) = −γ = −J̇ ν̄ here).
    const VectorX<LD> any_ddq = VectorX<LD>::LinSpaced(nv, LD(1.5), LD(-1));
    const VectorX<LD> gamma = cd.gamma, predicted = J * any_ddq + cd.drift;
    VectorX<LD> direction(tangent_size(model));
    direction << x.velocity(model), any_ddq;
    auto rows_velocity = [&](LD t) {
      constraint_kinematics(model, data, set, cd, integrate(model, x, VectorX<LD>(t * direction)));
      return VectorX<LD>(cd.velocity_error);  // v* = 0: J ν̄
    };
    const LD h = 1e-6L;
    const VectorX<LD> rate = (rows_velocity(h) - rows_velocity(-h)) / (2 * h);
    const double e_drift = relative_diff(predicted, rate);
    CHECK(e_drift < 1e-9);
    CHECK(rate.cwiseAbs().maxCoeff() > 1e-2L);  // not a vacuous comparison

    // The KKT system [M Jᵀ; J 0] [q̈; −λ] = [τ̄ − h; −γ] with crba's M and rnea's h (both checked
    // against Pinocchio above), by a dense LU: the same q̈ and λ to the solve's rounding, 1e-12
    // relative in long double (cond(KKT) ≲ 1e7 on these trees).
    const int m = set.dimension();
    MatrixX<LD> K = MatrixX<LD>::Zero(nv + m, nv + m);
    K.topLeftCorner(nv, nv) = crba(model, data, x);
    K.topRightCorner(nv, m) = J.transpose();
    K.bottomLeftCorner(m, nv) = J;
    VectorX<LD> rhs(nv + m);
    rhs << tau - bias_force(model, data, x), -gamma;
    const VectorX<LD> z = K.fullPivLu().solve(rhs);
    CHECK(relative_diff(ddq, VectorX<LD>(z.head(nv))) < 1e-12);
    CHECK(relative_diff(lambda, VectorX<LD>(-z.tail(m))) < 1e-12);
    CHECK(relative_diff(VectorX<LD>(J * ddq), VectorX<LD>(-gamma)) < 1e-12);

    // Impulses: J v⁺ = −e J v⁻ on the contacts (0 on the loop), M (v⁺ − v⁻) = Jᵀ impulse.
    const LD restitution = 0.5L;
    const VectorX<LD> v_after = impulse_dynamics(model, data, set, cd, x, restitution);
    const VectorX<LD> v = x.velocity(model), before = J * v;
    VectorX<LD> target(m);
    for (const Constraint<LD>& c : set.constraints())
      target.segment(c.row, c.dim) =
          (is_contact(c.type) ? -restitution : LD(0)) * before.segment(c.row, c.dim);
    CHECK(relative_diff(VectorX<LD>(J * v_after), target) < 1e-12);
    CHECK(relative_diff(VectorX<LD>(K.topLeftCorner(nv, nv) * (v_after - v)),
                        VectorX<LD>(J.transpose() * cd.impulse)) < 1e-12);

    // Assembly: a configuration moved off the manifold comes back, each joint on its group:
    // max |e| ≤ the default tolerance 1e-12 in a few Newton steps.
    CHECK(cd.position_error.cwiseAbs().maxCoeff() < 1e-15L);  // the placements are x's
    VectorX<LD> off_manifold = VectorX<LD>::Zero(tangent_size(model));
    off_manifold.head(nv) = VectorX<LD>::LinSpaced(nv, LD(-0.02), LD(0.03));
    State<LD> y = integrate(model, x, off_manifold);
    const int steps = project_configuration(model, data, set, cd, y);
    CHECK(steps >= 1);
    CHECK(steps <= 10);
    constraint_kinematics(model, data, set, cd, y);
    CHECK(cd.position_error.cwiseAbs().maxCoeff() <= 1e-12L);
    test::report(std::string(stem) + ": drift vs d/dt (J nu)", e_drift);
  }
}

TEST_CASE(
    "joint types: the derivative converters take trees with every joint type where the "
    "convention's joint is liedyn's") {
  namespace io = liedyn::interop;
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    const Model<double> model = test::model_from_dump(path, d);
    const State<double> x = test::state_from_dump(model, d);
    Data<double> data(model);
    const int nv = model.nv(), n = model.nv_joints(), off = model.offset();
    // Pinocchio: its computeRNEADerivatives and computeABADerivatives (the dumps; the same
    // tolerances as eidamb_derivatives' and linearize's comparisons above).
    const VectorX<double> a = to_liedyn_velocity(model, d, d.vec("a"));
    eidamb_derivatives(model, data, x, a, TwistRepresentation::Body);
    const MatrixX<double> D1 = data.derivatives.D1, D2 = data.derivatives.D2,
                          D3 = data.derivatives.D3, D4 = data.derivatives.D4, M = data.M;
    const VectorX<double> tau_id = data.tau;
    const auto id = io::inverse_dynamics_jacobians_to(io::Library::Pinocchio, model, x, a, tau_id,
                                                      D1, D2, D3, D4, M);
    CHECK(relative_diff(id.dtau_dq, to_liedyn_matrix(model, d, d.mat("dtau_dq"))) < 1e-12);
    CHECK(relative_diff(id.dtau_dv, to_liedyn_matrix(model, d, d.mat("dtau_dv"))) < 1e-12);
    const VectorX<double> tau = to_liedyn_velocity(model, d, d.vec("tau"));
    linearize(model, data, x, tau);
    const auto fd = io::forward_dynamics_jacobians_to(io::Library::Pinocchio, model, x, tau,
                                                      data.ddq, data.linearization.A, data.Minv);
    CHECK(relative_diff(fd.dddq_dq, to_liedyn_matrix(model, d, d.mat("dddq_dq"))) < 1e-11);
    CHECK(relative_diff(fd.dddq_dv, to_liedyn_matrix(model, d, d.mat("dddq_dv"))) < 1e-11);
    // Our linearization rebuilt from Pinocchio's layout: the same numbers copied, and the
    // same −ad blocks: exact.
    MatrixX<double> A, B;
    io::linearization_from_pinocchio(model, x, fd.dddq_dq, fd.dddq_dv, fd.dddq_dtau, A, B);
    CHECK(A == data.linearization.A);
    CHECK(B == data.linearization.B);

    // MuJoCo's convention (a free root's linear velocity in the world; ball joints are
    // liedyn's spherical joints): against central differences of its inverse and forward
    // dynamics in its coordinates z = [δ (base tangent, joints on their groups); v_L; a_L or
    // τ_L], in long double (talos' M⁻¹ reaches 1e5: double differences are noisy there).
    // Step 1e-6: this path's differences are round-off bound (on talos 1.6e-9 at ε_ld^(1/3),
    // 6.1e-9 at 1e-7, 7.3e-10 at 1e-6, falling as the step grows), a wrong term is O(1e-2);
    // 1e-9 relative, as for D1..D4 above.
    bool spherical_only = true;
    for (int i = 1; i < model.num_bodies(); ++i)
      if (!model.joint(i).one_dof() && model.joint(i).type != JointType::Spherical)
        spherical_only = false;
    if (!spherical_only) {
      CHECK_THROWS_WITH(io::inverse_dynamics_jacobians_to(io::Library::MuJoCo, model, x, a, tau_id,
                                                          D1, D2, D3, D4, M),
                        Catch::Contains("this convention's joint of that type is not liedyn's"));
      continue;
    }
    const LongDoubleTree tree = long_double_tree(path);
    const Model<LD>& ml = tree.model;
    const State<LD>& xl = tree.x;
    const VectorX<LD> al = a.cast<LD>(), taul = tau.cast<LD>();
    Data<LD> dl(ml), work(ml);
    const io::Convention c = io::Library::MuJoCo;
    auto state_at = [&](const VectorX<LD>& z, State<LD>& y) {
      y = xl;
      if (off) y.H = io::retract(c, xl.H, Vector6<LD>(z.head<6>()));
      detail::integrate_joints(ml, xl.s, z.segment(off, n), y.s);
      const VectorX<LD> v = io::velocity_from(c, ml, y.H, VectorX<LD>(z.segment(nv, nv)));
      if (off) y.nu = v.head<6>();
      y.r = v.segment(off, n);
    };
    auto tau_L = [&](const VectorX<LD>& z) {
      State<LD> y;
      state_at(z, y);
      const VectorX<LD> acc = io::acceleration_from(c, ml, y, VectorX<LD>(z.segment(2 * nv, nv)));
      return io::force_to(c, ml, y.H, VectorX<LD>(rnea(ml, work, y, acc)));
    };
    auto a_L = [&](const VectorX<LD>& z) {
      State<LD> y;
      state_at(z, y);
      const VectorX<LD> t = io::force_from(c, ml, y.H, VectorX<LD>(z.segment(2 * nv, nv)));
      return io::acceleration_to(c, ml, y, forward_dynamics_llt(ml, work, y, t));
    };
    VectorX<LD> z_id(3 * nv), z_fd(3 * nv);
    z_id << VectorX<LD>::Zero(nv), io::velocity_to(c, ml, xl), io::acceleration_to(c, ml, xl, al);
    z_fd << VectorX<LD>::Zero(nv), io::velocity_to(c, ml, xl), io::force_to(c, ml, xl.H, taul);
    numdiff::NumDiffOptions<LD> step;
    step.step = 1e-6L;
    const MatrixX<LD> J_id = numdiff::vector_jacobian(tau_L, z_id, step);
    const MatrixX<LD> J_fd = numdiff::vector_jacobian(a_L, z_fd, step);
    eidamb_derivatives(ml, dl, xl, al, TwistRepresentation::Body);
    const auto id_mj = io::inverse_dynamics_jacobians_to(
        c, ml, xl, al, VectorX<LD>(dl.tau), dl.derivatives.D1, dl.derivatives.D2, dl.derivatives.D3,
        dl.derivatives.D4, dl.M);
    linearize(ml, dl, xl, taul);
    const auto fd_mj =
        io::forward_dynamics_jacobians_to(c, ml, xl, taul, dl.ddq, dl.linearization.A, dl.Minv);
    const double e[4] = {relative_diff(id_mj.dtau_dq, J_id.leftCols(nv)),
                         relative_diff(id_mj.dtau_dv, J_id.middleCols(nv, nv)),
                         relative_diff(fd_mj.dddq_dq, J_fd.leftCols(nv)),
                         relative_diff(fd_mj.dddq_dv, J_fd.middleCols(nv, nv))};
    for (double err : e) CHECK(err < 1e-9);
    test::report(std::string(stem) + ": MuJoCo's Jacobians vs FD (worst)",
                 std::max({e[0], e[1], e[2], e[3]}));
  }
}

TEST_CASE(
    "joint types: eidamb_derivatives of trees with every joint type in float and "
    "AutoDiffScalar") {
  using test::AD6;
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    const Model<double> model = test::model_from_dump(path, d);
    const State<double> x = test::state_from_dump(model, d);
    const int nv = model.nv();
    Data<double> data(model);
    const VectorX<double> ddq = VectorX<double>::LinSpaced(nv, -1.0, 2.0);
    eidamb_derivatives(model, data, x, ddq);

    // AutoDiffScalar: ∂τ/∂r_k of eidamb for the first six joint velocities are D4's columns.
    // Tolerance: the comparison with Pinocchio's above (other sums of the same products).
    const Model<AD6> model_ad = model.cast<AD6>();
    Data<AD6> data_ad(model_ad);
    State<AD6> x_ad = x.cast<AD6>();
    const int seeds = std::min(6, model.nv_joints());
    for (int k = 0; k < seeds; ++k) x_ad.r(k).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(k);
    const VectorX<AD6> tau_ad = eidamb(model_ad, data_ad, x_ad, ddq.cast<AD6>().eval());
    MatrixX<double> dtau_dr(nv, seeds);
    for (int r = 0; r < nv; ++r)
      for (int k = 0; k < seeds; ++k) dtau_dr(r, k) = tau_ad(r).derivatives()(k);
    CHECK(relative_diff(dtau_dr, data.derivatives.D4.leftCols(seeds)) < 1e-12);
    // The kernel itself in AutoDiffScalar: its values are the double ones.
    eidamb_derivatives(model_ad, data_ad, x.cast<AD6>(), ddq.cast<AD6>().eval());
    MatrixX<double> D2_values(nv, model.nv_joints());
    for (int c = 0; c < model.nv_joints(); ++c)
      for (int r = 0; r < nv; ++r) D2_values(r, c) = data_ad.derivatives.D2(r, c).value();
    CHECK(relative_diff(D2_values, data.derivatives.D2) < 1e-12);

    // float: the same numbers at float's rounding, 6e-8 per operation over sums of ≤ 50 bodies'
    // terms: 1e-4 relative to max(1, max |D|).
    const Model<float> model_f = model.cast<float>();
    Data<float> data_f(model_f);
    eidamb_derivatives(model_f, data_f, x.cast<float>(), ddq.cast<float>().eval());
    CHECK(relative_diff(data_f.derivatives.D2.cast<double>(), data.derivatives.D2) < 1e-4);
    CHECK(relative_diff(data_f.derivatives.D4.cast<double>(), data.derivatives.D4) < 1e-4);
    CHECK(relative_diff(data_f.M.cast<double>(), data.M) < 1e-4);
  }
}

TEST_CASE(
    "joint types: rnea, crba, aba and immamb of trees with every joint type in float and "
    "AutoDiffScalar") {
  using test::AD6;
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    const Model<double> model = test::model_from_dump(path, d);
    const State<double> x = test::state_from_dump(model, d);
    const int nv = model.nv();
    Data<double> data(model);
    const MatrixX<double> M = crba(model, data, x);
    const MatrixX<double> Minv = immamb(model, data, x);
    const VectorX<double> tau = VectorX<double>::LinSpaced(nv, -1.0, 2.0);
    const VectorX<double> ddq = aba(model, data, x, tau);

    // AutoDiffScalar, six seeds: ∂τ/∂q̈_j = M e_j through rnea and ∂q̈/∂τ_j = M⁻¹ e_j through aba.
    // Tolerances: those of crba's and M⁻¹'s comparisons with Pinocchio above (the derivatives are
    // other sums of the same terms): 1e-12 and 1e-11 relative to max(1, the largest entry).
    const Model<AD6> model_ad = model.cast<AD6>();
    Data<AD6> data_ad(model_ad);
    const State<AD6> x_ad = x.cast<AD6>();
    VectorX<AD6> ddq_ad = ddq.cast<AD6>(), tau_ad = tau.cast<AD6>();
    for (int j = 0; j < 6; ++j) {
      ddq_ad(j).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(j);
      tau_ad(j).derivatives() = Eigen::Matrix<double, 6, 1>::Unit(j);
    }
    const VectorX<AD6> tau_out = rnea(model_ad, data_ad, x_ad, ddq_ad);
    const VectorX<AD6> ddq_out = aba(model_ad, data_ad, x_ad, tau_ad);
    for (int j = 0; j < 6; ++j) {
      VectorX<double> dtau(nv), dddq(nv);
      for (int r = 0; r < nv; ++r) {
        dtau(r) = tau_out(r).derivatives()(j);
        dddq(r) = ddq_out(r).derivatives()(j);
      }
      CHECK(max_abs_diff(dtau, M.col(j)) < 1e-12 * std::max(1.0, M.cwiseAbs().maxCoeff()));
      CHECK(max_abs_diff(dddq, Minv.col(j)) < 1e-11 * std::max(1.0, Minv.cwiseAbs().maxCoeff()));
    }
    const MatrixX<AD6> Minv_ad = immamb(model_ad, data_ad, x_ad);
    MatrixX<double> Minv_values(nv, nv);
    for (int c = 0; c < nv; ++c)
      for (int r = 0; r < nv; ++r) Minv_values(r, c) = Minv_ad(r, c).value();
    CHECK(max_abs_diff(Minv_values, Minv) < 1e-11 * std::max(1.0, Minv.cwiseAbs().maxCoeff()));

    // float: residuals of rnea(aba(τ)) = τ and M M⁻¹ = 1. Float rounds at 6e-8 and the sums have
    // ≤ 50 terms of size ≤ max|M| ‖q̈‖∞ (resp. max|M| max|M⁻¹|): 1e-5 relative to max(1, that).
    const Model<float> model_f = model.cast<float>();
    Data<float> data_f(model_f);
    const State<float> x_f = x.cast<float>();
    const VectorX<float> tau_f = tau.cast<float>();
    const VectorX<float> ddq_f = aba(model_f, data_f, x_f, tau_f);
    const VectorX<float> back = rnea(model_f, data_f, x_f, ddq_f);
    const MatrixX<float> M_f = crba(model_f, data_f, x_f);
    const double scale = M_f.cwiseAbs().maxCoeff() * ddq_f.cwiseAbs().maxCoeff();
    CHECK(max_abs_diff(back, tau_f) < 1e-5 * std::max(1.0, scale));
    const MatrixX<float> Minv_f = immamb(model_f, data_f, x_f);
    const double scale_inv = M_f.cwiseAbs().maxCoeff() * Minv_f.cwiseAbs().maxCoeff();
    CHECK(max_abs_diff(M_f * Minv_f, MatrixX<float>::Identity(nv, nv)) <
          1e-5 * std::max(1.0, scale_inv));
  }
}

TEST_CASE(
    "joint types: the reference routes and the semi-implicit Euler step on trees with every "
    "joint type") {
  for (const char* stem : kDumps) {
    for (int seed : {1, 2}) {
      const std::string path = dump_path(stem, seed);
      INFO(path);
      const test::PinocchioDump d = test::read_pinocchio_dump(path);
      const Model<double> model = test::model_from_dump(path, d);
      const State<double> x = test::state_from_dump(model, d);
      Data<double> data(model);
      // M column by column from inverse dynamics: crba's tolerance against Pinocchio above.
      const MatrixX<double> M_ref = to_liedyn_symmetric(model, d, d.mat("crba"));
      MatrixX<double> M;
      mass_matrix_from_inverse_dynamics(model, data, x, M);
      CHECK(max_abs_diff(M, M_ref) < 1e-12 * std::max(1.0, M_ref.cwiseAbs().maxCoeff()));
      // q̈ by a dense Cholesky of that M: its rounding is M⁻¹'s (cond(M)·1e-16 of |M⁻¹| |τ − h|
      // at worst), so M⁻¹'s tolerance above, 1e-11 relative to max(1, ‖q̈_ref‖∞).
      const VectorX<double> tau = to_liedyn_velocity(model, d, d.vec("tau"));
      const VectorX<double> ref = to_liedyn_velocity(model, d, d.vec("aba"));
      CHECK(max_abs_diff(forward_dynamics_llt(model, data, x, tau), ref) <
            1e-11 * std::max(1.0, ref.cwiseAbs().maxCoeff()));
      // One step: ν⁺, r⁺ from aba (checked against Pinocchio above), then the configuration
      // moved on its group by integrate (checked against Pinocchio's integrate above). The
      // same operations in the same order: equal to rounding, 1e-14 of O(1) numbers.
      const double dt = 1e-2;
      State<double> next(model);
      semi_implicit_euler_step(model, data, x, tau, dt, next);
      const VectorX<double> ddq = aba(model, data, x, tau);
      auto velocity = [&](const State<double>& z) {
        VectorX<double> v(model.nv());
        if (model.has_moving_base()) v.head<6>() = z.nu;
        v.tail(model.nv_joints()) = z.r;
        return v;
      };
      const VectorX<double> v = velocity(x) + dt * ddq;
      const Configuration<double> q_next = integrate(model, Configuration<double>(x), dt * v);
      CHECK(max_abs_diff(velocity(next), v) < 1e-14 * std::max(1.0, v.cwiseAbs().maxCoeff()));
      CHECK(max_abs_diff(next.s, q_next.s) < 1e-14);
      CHECK(pose_diff(next.H, q_next.H) < 1e-14);
      // The step in place, as the rollouts call it.
      State<double> y = x;
      semi_implicit_euler_step(model, data, y, tau, dt, y);
      CHECK(max_abs_diff(y.s, next.s) == 0.0);
    }
  }
}

namespace {

/// The permutation listing the model's joints last first (the other library's order in the
/// interop tests).
liedyn::interop::JointPermutation reversed_joint_order(const Model<double>& model) {
  std::vector<std::string> names;
  for (int i = model.num_bodies() - 1; i >= 1; --i) names.push_back(model.joint_name(i));
  return liedyn::interop::JointPermutation::from_names(model, names);
}

}  // namespace

TEST_CASE(
    "joint types: interop converts the states of trees with every joint type, and refuses the "
    "joints another convention writes differently") {
  namespace io = liedyn::interop;
  // Exact: the converters copy and reorder numbers; the base quaternion is rebuilt from a
  // rotation matrix (1e-15 of O(1) numbers).
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    const Model<double> model = test::model_from_dump(path, d);
    const State<double> x = test::state_from_dump(model, d);
    const int base = d.freeflyer ? 7 : 0;
    // Pinocchio's q from liedyn's state is the dump's own q, in liedyn's joint order.
    VectorX<double> q = io::configuration_to(io::Library::Pinocchio, model, x);
    VectorX<double> expected(q.size());
    expected.head(base) = d.vec("q").head(base);
    for (const test::PinocchioJoint& pj : d.joints) {
      const int b = test::body_of(model, d, pj.index);
      if (b != 0)
        expected.segment(base + model.q_index(b), pj.nq) = d.vec("q").segment(pj.idx_q, pj.nq);
    }
    if (base && q.segment<4>(3).dot(expected.segment<4>(3)) < 0) q.segment<4>(3) *= -1.0;
    CHECK(max_abs_diff(q, expected) < 1e-15);
    const VectorX<double> v = io::velocity_to(io::Library::Pinocchio, model, x);
    CHECK(v == to_liedyn_velocity(model, d, d.vec("v")));
    const State<double> back = io::state_from(io::Library::Pinocchio, model, q, v);
    CHECK(max_abs_diff(back.s, x.s) == 0.0);
    CHECK(back.r == x.r);

    // MuJoCo's convention: a ball joint's quaternion w first; its free, planar and universal
    // joints are not liedyn's (a MuJoCo free joint's linear velocity is in the world).
    const io::Convention mujoco = io::Library::MuJoCo;
    int other = 0;  // the first multi-DoF joint that is not spherical
    for (int i = model.num_bodies() - 1; i >= 1; --i)
      if (!model.joint(i).one_dof() && model.joint(i).type != JointType::Spherical) other = i;
    if (other == 0) {
      const VectorX<double> q_mj = io::configuration_to(mujoco, model, x);
      for (int i = 1; i < model.num_bodies(); ++i) {
        if (model.joint(i).type != JointType::Spherical) continue;
        const auto xyzw = x.s.segment<4>(model.q_index(i));
        CHECK(q_mj.segment<4>(base + model.q_index(i)) ==
              Eigen::Vector4d(xyzw(3), xyzw(0), xyzw(1), xyzw(2)));
      }
      const State<double> y =
          io::state_from(mujoco, model, q_mj, io::velocity_to(mujoco, model, x));
      CHECK(max_abs_diff(y.s, x.s) == 0.0);
      CHECK(max_abs_diff(y.r, x.r) == 0.0);
      // In a permuted order each quaternion is still reordered where it is, then moved whole.
      const io::JointPermutation reversed = reversed_joint_order(model);
      const VectorX<double> q_mj_rev = io::configuration_to(mujoco, model, x, reversed);
      int at = base;
      for (int i = model.num_bodies() - 1; i >= 1; --i) {
        CHECK(q_mj_rev.segment(at, model.joint_nq(i)) ==
              q_mj.segment(base + model.q_index(i), model.joint_nq(i)));
        at += model.joint_nq(i);
      }
      const State<double> y_rev = io::state_from(
          mujoco, model, q_mj_rev, io::velocity_to(mujoco, model, x, reversed), reversed);
      CHECK(max_abs_diff(y_rev.s, x.s) == 0.0);
      CHECK(max_abs_diff(y_rev.r, x.r) == 0.0);
    } else {
      CHECK_THROWS_WITH(
          io::configuration_to(mujoco, model, x),
          Catch::Contains("configuration_to: joint '" + model.joint_name(other) + "' is " +
                          to_string(model.joint(other).type)) &&
              Catch::Contains("this convention's joint of that type is not liedyn's"));
    }
    // A joint permutation moves each joint's coordinates as one block (nq of them in q, nv in
    // v): in the reversed order, joint i's block sits after those of the joints behind it.
    const io::JointPermutation reversed = reversed_joint_order(model);
    const VectorX<double> q_rev = io::configuration_to(io::Library::Pinocchio, model, x, reversed);
    const VectorX<double> v_rev = io::velocity_to(io::Library::Pinocchio, model, x, reversed);
    const int off = model.offset();
    int q_at = base, v_at = off;
    for (int i = model.num_bodies() - 1; i >= 1; --i) {
      const int nq = model.joint_nq(i), nv = model.joint_nv(i);
      CHECK(q_rev.segment(q_at, nq) == q.segment(base + model.q_index(i), nq));
      CHECK(v_rev.segment(v_at, nv) == v.segment(off + model.r_index(i), nv));
      q_at += nq;
      v_at += nv;
    }
    CHECK(VectorX<double>(reversed.matrix(off, model.nv_joints()) * v) == v_rev);
    const State<double> back_rev =
        io::state_from(io::Library::Pinocchio, model, q_rev, v_rev, reversed);
    CHECK(max_abs_diff(back_rev.s, x.s) == 0.0);
    CHECK(back_rev.r == x.r);
    // A permutation that does not know the joints' coordinate counts is refused by name.
    std::vector<int> indices;
    for (int k = model.num_joints() - 1; k >= 0; --k) indices.push_back(k);
    if (!model.one_dof_joints_only())
      CHECK_THROWS_WITH(
          io::velocity_to(io::Library::Pinocchio, model, x,
                          io::JointPermutation::from_indices(indices)),
          Catch::Contains("does not know the model's multi-DoF joints' coordinate counts"));
  }
}

TEST_CASE("joint types: the converted kernels do not allocate on trees with every joint type") {
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    const Model<double> model = test::model_from_dump(path, d);
    const State<double> x = test::state_from_dump(model, d);
    Data<double> data(model);
    State<double> next(model);
    const VectorX<double> a = VectorX<double>::Constant(model.nv(), 0.3);
    Matrix6X<double> J(6, model.nv());
    const ConstraintSet<double> set = leaf_constraints(model, x);
    ConstraintData<double> cd(model, set);
    const int last = model.num_bodies() - 1;
    std::size_t news = 0;
    {
      test::NoAllocation guard;
      forward_kinematics(model, data, x);
      body_jacobian(model, data, x, last, TwistRepresentation::Mixed, J);
      rnea(model, data, x, a);
      eidamb(model, data, x, a);
      bias_force(model, data, x);
      crba(model, data, x, CrbaRoute::Walk);
      crba(model, data, x, CrbaRoute::BaseFrame);
      aba(model, data, x, a);
      immamb(model, data, x);
      eidamb_derivatives(model, data, x, a, TwistRepresentation::Body);
      eidamb_derivatives(model, data, x, a, TwistRepresentation::Mixed);
      linearize(model, data, x, a);
      linearize_discrete(model, data, x, a, 1e-2);
      aza_factorize(model, data, x.s);
      aza_solve(model, data, data.Minv, data.Minv);
      semi_implicit_euler_step(model, data, x, a, 1e-3, next);
      ltdl_factorize(model, data);  // of crba's M above
      ltdl_inverse(model, data);
      kinetic_energy(model, data, x);
      potential_energy(model, data, x);
      centroidal_momentum_matrix(model, data, x);
      centroidal_momentum_rate(model, data, x, a);
      centroidal_derivatives(model, data, x, a, TwistRepresentation::Mixed);
      coriolis_matrix(model, data, x);
      constraint_kinematics(model, data, set, cd, x);
      constrained_forward_dynamics(model, data, set, cd, x, a);
      impulse_dynamics(model, data, set, cd, x, 0.5);
      constraint_kinematics_derivatives(model, data, set, cd, x, a, TwistRepresentation::Mixed);
      for (const KktDerivativeSolve solve :
           {KktDerivativeSolve::SparseFactors, KktDerivativeSolve::DenseInverse}) {
        ConstrainedDynamicsOptions<double> copt;
        copt.derivative_solve = solve;
        constrained_forward_dynamics_derivatives(model, data, set, cd, x, a,
                                                 TwistRepresentation::Mixed, copt);
        linearize(model, data, set, cd, x, a, LinearizationOptions<double>(), copt);
      }
      impulse_dynamics_derivatives(model, data, set, cd, x, 0.5, TwistRepresentation::Inertial);
      news = guard.allocations();
    }
    CHECK(news == 0);
  }
}

TEST_CASE(
    "joint types: energy, centre of mass and centroidal momentum of trees with every joint "
    "type against M, G and central differences on the product group") {
  // Long double. Identities with M and G (both checked against Pinocchio above): 1e-15 relative
  // (sums of ≤ 50 products in long double). Central differences along x ⊕ (t ν̄ + t²/2 a),
  // ν̄ + t a with t = ±kStep: truncation ~kStep² = 1e-12 relative, so kFdTol relative to
  // max(1, |reference|).
  for (const char* stem : kDumps) {
    const std::string path = dump_path(stem, 1);
    INFO(path);
    const LongDoubleTree tree = long_double_tree(path);
    const test::PinocchioDump& d = tree.dump;
    const Model<double>& model_d = tree.model_double;
    const Model<LD>& model = tree.model;
    const State<LD>& x = tree.x;
    Data<LD> data(model);
    const int nv = model.nv();
    const VectorX<LD> nu = x.velocity(model);
    const VectorX<LD> a = to_liedyn_velocity(model_d, d, d.vec("a")).cast<LD>();
    const LD m = model.total_mass();
    auto rel = [](LD scale) { return LD(kFdTol) * std::max(LD(1), scale); };

    // T = ½ ν̄ᵀ M ν̄ (no armature in these models), U = −m gᵀ p_com.
    const MatrixX<LD> M = crba(model, data, x);
    const LD T = kinetic_energy(model, data, x);
    CHECK(std::abs(T - LD(0.5) * nu.dot(M * nu)) < 1e-15L * std::max(LD(1), T));
    const LD U = potential_energy(model, data, x);
    const Vector3<LD> com = center_of_mass(model, data, x);
    CHECK(std::abs(U + m * model.gravity().dot(com)) < 1e-15L * std::max(LD(1), std::abs(U)));

    // h_G = A_G ν̄.
    const Vector6<LD> h = centroidal_momentum(model, data, x);
    const Matrix6X<LD> A = centroidal_momentum_matrix(model, data, x);
    CHECK(max_abs_diff(h, Vector6<LD>(A * nu)) < 1e-15L * std::max(LD(1), h.norm()));

    // The state at t along x ⊕ (t ν̄ + t²/2 a) with velocities ν̄ + t a.
    auto state_at = [&](LD t) {
      VectorX<LD> dx(tangent_size(model));
      dx << t * nu + t * t / 2 * a, t * a;
      return integrate(model, x, dx);
    };
    const State<LD> xp = state_at(kStep), xm = state_at(-kStep);
    // G = ∂U/∂q: the gravity term is the derivative of the potential energy along each tangent.
    const VectorX<LD> G = gravity_force(model, data, x);
    for (int k = 0; k < nv; ++k) {
      VectorX<LD> dx = VectorX<LD>::Zero(tangent_size(model));
      dx(k) = kStep;
      const LD Up = potential_energy(model, data, integrate(model, x, dx));
      dx(k) = -kStep;
      const LD Um = potential_energy(model, data, integrate(model, x, dx));
      INFO("coordinate " << k);
      CHECK(std::abs(G(k) - (Up - Um) / (2 * kStep)) < rel(std::abs(G(k))));
    }
    // m ṗ_com = the linear rows of h_G; ḣ_G = centroidal_momentum_rate(a).
    const Vector3<LD> fd_com_velocity =
        (center_of_mass(model, data, xp) - center_of_mass(model, data, xm)) / (2 * kStep);
    CHECK(max_abs_diff(Vector3<LD>(h.head<3>()), Vector3<LD>(m * fd_com_velocity)) <
          rel(h.head<3>().norm()));
    const Vector6<LD> fd_rate =
        (centroidal_momentum(model, data, xp) - centroidal_momentum(model, data, xm)) / (2 * kStep);
    const Vector6<LD> rate = centroidal_momentum_rate(model, data, x, a);
    CHECK(max_abs_diff(rate, fd_rate) < rel(rate.norm()));
  }
}

#if LIEDYN_HAS_URDF
UrdfOptions welded_options() {
  UrdfOptions options;
  options.weld_base = true;
  return options;
}

TEST_CASE("joint types: a URDF with planar and floating joints loads as Pinocchio 4.1 loads it") {
  // Tolerances of the cases above: poses 1e-13, rnea, the gravity term and crba 1e-12 relative.
  const Model<double> model =
      load_urdf_file(LIEDYN_TEST_DATA_DIR "/planar_floating.urdf", welded_options());
  CHECK(model.joint(model.require_joint_id("base_planar", "test")).type == JointType::Planar);
  CHECK(model.joint(model.require_joint_id("box_floating", "test")).type == JointType::Free);
  for (int seed : {1, 2}) {
    const std::string path = dump_path("urdf_planar_floating", seed);
    INFO(path);
    const test::PinocchioDump d = test::read_pinocchio_dump(path);
    REQUIRE(model.nq_joints() == d.nq);
    REQUIRE(model.nv() == d.nv);
    const State<double> x = test::state_from_dump(model, d);
    Data<double> data(model);
    forward_kinematics(model, data, x);
    for (const test::PinocchioJoint& pj : d.joints) {
      if (pj.index == 0) continue;
      INFO("joint " << pj.name);
      CHECK(pose_diff(data.kinematics.H_world[test::body_of(model, d, pj.index)],
                      d.oMi.at(pj.index)) < 1e-13);
    }
    const VectorX<double> a = to_liedyn_velocity(model, d, d.vec("a"));
    const VectorX<double> tau_ref = to_liedyn_velocity(model, d, d.vec("rnea"));
    CHECK(max_abs_diff(rnea(model, data, x, a), tau_ref) <
          1e-12 * std::max(1.0, tau_ref.cwiseAbs().maxCoeff()));
    const VectorX<double> g_ref = to_liedyn_velocity(model, d, d.vec("gravity_torque"));
    CHECK(max_abs_diff(gravity_force(model, data, x), g_ref) <
          1e-12 * std::max(1.0, g_ref.cwiseAbs().maxCoeff()));
    const MatrixX<double> M_ref = to_liedyn_symmetric(model, d, d.mat("crba"));
    CHECK(max_abs_diff(crba(model, data, x), M_ref) <
          1e-12 * std::max(1.0, M_ref.cwiseAbs().maxCoeff()));
  }
}
#endif

TEST_CASE(
    "joint types: couplings and locking refuse a multi-DoF joint by name; the builder "
    "checks the new types") {
  const std::string path = dump_path("solo12_spherical", 1);
  const test::PinocchioDump d = test::read_pinocchio_dump(path);
  const Model<double> model = test::model_from_dump(path, d);
  Data<double> data(model);
  const State<double> x = test::state_from_dump(model, d);
  // A coupling relates two 1-DoF joints.
  CHECK_THROWS_WITH(ConstraintSet<double>(
                        model, {ConstraintSpec<double>::coupling(
                                   "FL_HIP", model.joint_name(model.num_bodies() - 1), 0.5, 0.0)}),
                    Catch::Contains("joint 'FL_HIP' is spherical: a coupling relates two 1-DoF "
                                    "joints"));
  CHECK_THROWS_WITH(lock_joints(model, {"FL_HIP"}, {0.1}),
                    Catch::Contains("only 1-DoF joints are locked"));
  // Kinematics, integrate and difference take them (checked above against Pinocchio).
  CHECK_NOTHROW(forward_kinematics(model, data, x));

  ModelBuilder<double> b(BaseType::Welded);
  const SpatialInertia<double> I = SpatialInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>::Zero(), Matrix3<double>::Identity());
  CHECK_THROWS_WITH(b.add_body("base", "link",
                               JointSpec<double>::universal("u", Vector3<double>(0, 0, 2),
                                                            Vector3<double>(0, 0, -1)),
                               I),
                    Catch::Contains("joint 'u'") && Catch::Contains("axes are parallel"));
  CHECK_THROWS_WITH(
      b.add_body(
          "base", "link",
          JointSpec<double>::universal("u", Vector3<double>::UnitX(), Vector3<double>::Zero()), I),
      Catch::Contains("zero second axis"));
  // Axes are normalized; the neutral state puts every joint at its identity.
  b.add_body("base", "ball", JointSpec<double>::spherical("s"), I);
  b.add_body("ball", "u_link",
             JointSpec<double>::universal("u", Vector3<double>(2, 0, 0), Vector3<double>(0, 0, 3)),
             I);
  b.add_body("u_link", "box", JointSpec<double>::free("box_joint"), I);
  b.add_body("box", "cart", JointSpec<double>::planar("p"), I);
  const Model<double> m = b.build();
  CHECK(m.nq_joints() == 4 + 2 + 7 + 4);
  CHECK(m.nv() == 3 + 2 + 6 + 3);
  CHECK(m.joint(2).axis2.isApprox(Vector3<double>::UnitZ()));
  const State<double> x0(m);
  VectorX<double> s0(17);
  s0 << 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0;
  CHECK(x0.s == s0);
  CHECK(m.singular_joints().empty());
}

}  // namespace LIEDYN_UNITY_ID
