// liedyn tests — the model: ModelBuilder validation (every rule, with its message), insertion
// order and regular numbering, fixed-joint merging, frames, armature, singular joints,
// Model::cast, Data sizing; the state: neutral/random states, integrate/difference with their
// Jacobians, and the three base-twist representations (velocities and accelerations).
//
// Oracles: 6×6 spatial-inertia congruences (docs/conventions.md §1) for the merge, central finite
// differences on the state manifold for the Jacobians, and a finite difference in time along a
// trajectory H(t) for the apparent (mixed) base acceleration.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <liedyn/algorithm/data.hpp>
#include <liedyn/model/builder.hpp>
#include <liedyn/model/state.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using liedyn::BaseType;
using liedyn::JointSpec;
using liedyn::Matrix3;
using liedyn::Matrix6;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::ModelBuilder;
using liedyn::ModelError;
using liedyn::SE3;
using liedyn::SpatialInertia;
using liedyn::State;
using liedyn::TwistRepresentation;
using liedyn::Vector3;
using liedyn::Vector6;
using liedyn::VectorX;
using liedyn::test::random_inertia;
using liedyn::test::random_se3;
using liedyn::test::random_vector;
using liedyn::test::relative_error;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

JointSpec<double> rev(const std::string& name,
                      const Vector3<double>& axis = Vector3<double>::UnitZ(),
                      const SE3<double>& X = SE3<double>()) {
  return JointSpec<double>::revolute(name, axis, X);
}

/// A one-joint spec of each 1-DoF type about `axis` (helical: pitch 0.05).
JointSpec<double> spec_of_type(liedyn::JointType type, const Vector3<double>& axis,
                               const SE3<double>& placement) {
  switch (type) {
    case liedyn::JointType::Prismatic: return JointSpec<double>::prismatic("j", axis, placement);
    case liedyn::JointType::Helical: return JointSpec<double>::helical("j", axis, 0.05, placement);
    default: return JointSpec<double>::revolute("j", axis, placement);
  }
}

/// The inertia in frame A of a body whose inertia in frame B is I_B, X = ^A H_B, from the 6×6
/// definition M_A = (^B X_A)ᵀ M_B ^B X_A (docs/conventions.md §1), independent of transformed().
Matrix6<double> congruence(const SpatialInertia<double>& I_B, const SE3<double>& X) {
  const Matrix6<double> BXA = X.inverse().velocity_transform();
  return BXA.transpose() * I_B.matrix() * BXA;
}

/// Max-abs distance between two states, in the state's tangent coordinates.
double state_distance(const Model<double>& m, const State<double>& x, const State<double>& y) {
  return liedyn::difference(m, x, y).cwiseAbs().maxCoeff();
}

/// Central finite difference of δx ↦ g(δx) ∈ R^k at 0, step h, one column per tangent direction.
template <class F>
MatrixX<double> central_fd(int N, int k, double h, F g) {
  MatrixX<double> J(k, N);
  for (int c = 0; c < N; ++c) {
    VectorX<double> e = VectorX<double>::Zero(N);
    e(c) = h;
    J.col(c) = (g(e) - g(VectorX<double>(-e))) / (2 * h);
  }
  return J;
}

}  // namespace

TEST_CASE("ModelBuilder: each validation error names the culprit and the rule",
          "[model][builder]") {
  auto rng = liedyn::test::make_rng(11);
  const SpatialInertia<double> I = random_inertia<double>(rng);
  const SpatialInertia<double> zero;

  SECTION("unknown parent, by name (at build) and by id (at once)") {
    ModelBuilder<double> b;
    b.add_body("nowhere", "a", rev("ja"), I);
    REQUIRE_THROWS_MATCHES(b.build(), ModelError,
                           Catch::Matchers::Message("liedyn: body 'a': unknown parent 'nowhere'"));
    REQUIRE_THROWS_WITH(b.add_body(7, "b", rev("jb"), I),
                        Contains("body 'b'") && Contains("bad parent id 7"));
    REQUIRE_THROWS_WITH(b.add_body(-1, "b", rev("jb"), I),
                        Contains("body 'b'") && Contains("bad parent id -1"));
  }
  SECTION("cycles") {
    ModelBuilder<double> b;
    b.add_body("c", "a", rev("ja"), I);
    b.add_body("a", "b", rev("jb"), I);
    b.add_fixed_body("b", "c", SE3<double>(), I);
    b.add_body("base", "d", rev("jd"), I);  // a healthy branch beside the cycle
    REQUIRE_THROWS_WITH(b.build(), Contains("cycle") && Contains("'a'") && Contains("'b'") &&
                                       Contains("'c'") && !Contains("'d'"));
    ModelBuilder<double> s;
    REQUIRE_THROWS_WITH(s.add_body("x", "x", rev("jx"), I),
                        Contains("body 'x'") && Contains("own parent"));
  }
  SECTION("duplicate names") {
    ModelBuilder<double> b;
    b.add_body("base", "a", rev("ja"), I);
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("j2"), I), Contains("duplicate body name 'a'"));
    REQUIRE_THROWS_WITH(b.add_fixed_body("a", "base", SE3<double>()),
                        Contains("duplicate body name 'base'"));
    REQUIRE_THROWS_WITH(b.add_body("a", "b", rev("ja"), I), Contains("duplicate joint name 'ja'"));
    b.add_frame("tool", "a", SE3<double>());
    REQUIRE_THROWS_WITH(b.add_frame("tool", "a", SE3<double>()),
                        Contains("duplicate frame name 'tool'"));
    REQUIRE_THROWS_WITH(b.add_body("a", "tool", rev("jt"), I),
                        Contains("duplicate body name 'tool'"));
    REQUIRE_THROWS_WITH(b.add_body("a", "", rev("je"), I), Contains("empty name"));
    REQUIRE_THROWS_WITH(b.add_body("a", "c", rev(""), I),
                        Contains("body 'c'") && Contains("no name"));
  }
  SECTION("axis: zero is an error, any other length is normalized") {
    ModelBuilder<double> b;
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja", Vector3<double>::Zero()), I),
                        Contains("joint 'ja'") && Contains("body 'a'") && Contains("zero axis"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja", Vector3<double>(1e-300, 0, 0)), I),
                        Contains("joint 'ja'") && Contains("zero axis"));
    b.add_body("base", "a", rev("ja", Vector3<double>(0, 0, 3)), I);
    b.add_body("a", "b", JointSpec<double>::prismatic("jb", Vector3<double>(1, 1, 0)), I);
    // |axis| overflows double although every component is finite.
    b.add_body("b", "c", rev("jc", Vector3<double>(0, -1e308, 1e308)), I);
    const Model<double> m = b.build();
    CHECK(m.joint(1).axis == Vector3<double>::UnitZ());
    CHECK(m.joint(1).alignment == liedyn::AxisAlignment::Z);
    CHECK(relative_error(m.joint(2).axis,
                         Vector3<double>(Vector3<double>(1, 1, 0) / std::sqrt(2.0))) < 1e-15);
    CHECK(m.joint(2).alignment == liedyn::AxisAlignment::General);
    CHECK(relative_error(m.joint(2).screw.vector(),
                         Vector6<double>(m.joint(2).axis(0), m.joint(2).axis(1), 0, 0, 0, 0)) == 0);
    CHECK(relative_error(m.joint(3).axis,
                         Vector3<double>(Vector3<double>(0, -1, 1) / std::sqrt(2.0))) < 1e-15);
  }
  SECTION("axis: a model rebuilt from its own joints has their axes bit for bit") {
    // Normalizing a normalized axis again moves about a third of them by an ulp; the builder
    // keeps a unit axis to round-off as given, so that a model rebuilt from its joints (Python's
    // pickle) is the same model.
    std::mt19937 rng(3);
    std::normal_distribution<double> normal;
    int moved_by_renormalizing = 0;
    for (int k = 0; k < 200; ++k) {
      const Vector3<double> raw(normal(rng), normal(rng), normal(rng));
      ModelBuilder<double> first;
      first.add_body("base", "a", rev("ja", raw), I);
      const Vector3<double> axis = first.build().joint(1).axis;
      if ((axis / axis.norm()).cwiseNotEqual(axis).any()) ++moved_by_renormalizing;
      ModelBuilder<double> again;
      again.add_body("base", "a", rev("ja", axis), I);
      CHECK(again.build().joint(1).axis.cwiseEqual(axis).all());
    }
    CHECK(moved_by_renormalizing > 0);  // the case the rule is for occurs
  }
  SECTION("inertia: negative mass, physically invalid, degenerate but allowed") {
    ModelBuilder<double> b;
    const Matrix3<double> Ic = Vector3<double>(0.1, 0.2, 0.25).asDiagonal();
    const Vector3<double> c(0.1, 0, 0);
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja"),
                                   SpatialInertia<double>::from_mass_com_inertia(-1, c, Ic)),
                        Contains("body 'a'") && Contains("negative mass"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja"),
                                   SpatialInertia<double>::from_mass_com_inertia(
                                       1, c, Vector3<double>(0.1, -0.01, 0.1).asDiagonal())),
                        Contains("body 'a'") && Contains("not positive semi-definite"));
    const SpatialInertia<double> tri = SpatialInertia<double>::from_mass_com_inertia(
        1, c, Vector3<double>(0.1, 0.1, 0.3).asDiagonal());
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja"), tri),
                        Contains("body 'a'") && Contains("triangle inequality"));
    Matrix3<double> asym = Ic;
    asym(0, 1) = 0.05;
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a", rev("ja"), SpatialInertia<double>::from_moments(1, c, asym)),
        Contains("body 'a'") && Contains("not symmetric"));
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a", rev("ja"),
                   SpatialInertia<double>::from_moments(0, c, Matrix3<double>::Zero())),
        Contains("body 'a'") && Contains("massless body with a non-zero first moment"));
    REQUIRE_THROWS_WITH(b.add_fixed_body("base", "f", SE3<double>(),
                                         SpatialInertia<double>::from_mass_com_inertia(-2, c, Ic)),
                        Contains("body 'f'") && Contains("negative mass"));
    REQUIRE_THROWS_WITH(
        ModelBuilder<double>(BaseType::Moving, "pelvis",
                             SpatialInertia<double>::from_mass_com_inertia(-1, c, Ic)),
        Contains("body 'pelvis'") && Contains("negative mass"));
    REQUIRE_THROWS_WITH(b.set_base_inertia(tri), Contains("body 'base'") && Contains("triangle"));
    // Allowed: zero mass (URDF frames), a point mass, a thin rod, and — with PositiveDefinite —
    // a triangle-violating synthetic inertia.
    b.add_body("base", "massless", rev("j0"), zero);
    b.add_body("massless", "point", rev("j1"),
               SpatialInertia<double>::from_mass_com_inertia(2, c, Matrix3<double>::Zero()));
    b.add_body("point", "rod", rev("j2"),
               SpatialInertia<double>::from_mass_com_inertia(
                   1, c, Vector3<double>(0, 0.1, 0.1).asDiagonal()));
    b.set_inertia_check(liedyn::InertiaCheck::PositiveDefinite);
    b.add_body("rod", "synthetic", rev("j3"), tri);
    const Model<double> m = b.build();
    CHECK(m.num_joints() == 4);
    CHECK(m.total_mass() == 2 + 1 + 1);
  }
  SECTION("non-finite numbers") {
    ModelBuilder<double> b;
    const Matrix3<double> Ic = Vector3<double>(0.1, 0.2, 0.25).asDiagonal();
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja"),
                                   SpatialInertia<double>::from_mass_com_inertia(
                                       kNaN, Vector3<double>::Zero(), Ic)),
                        Contains("body 'a'") && Contains("non-finite mass or inertia"));
    Matrix3<double> Iinf = Ic;
    Iinf(2, 2) = kInf;
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a", rev("ja"),
                   SpatialInertia<double>::from_mass_com_inertia(1, Vector3<double>::Zero(), Iinf)),
        Contains("body 'a'") && Contains("non-finite"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja", Vector3<double>(kNaN, 0, 1)), I),
                        Contains("joint 'ja'") && Contains("axis is not finite"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja", Vector3<double>(kInf, 0, 0)), I),
                        Contains("joint 'ja'") && Contains("axis is not finite"));
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a", JointSpec<double>::helical("ja", Vector3<double>::UnitX(), kNaN),
                   I),
        Contains("joint 'ja'") && Contains("pitch is not finite"));
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a",
                   rev("ja", Vector3<double>::UnitZ(),
                       SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0, kInf, 0))),
                   I),
        Contains("joint 'ja'") && Contains("placement is not finite"));
    REQUIRE_THROWS_WITH(
        b.add_fixed_body("base", "f",
                         SE3<double>(Matrix3<double>::Constant(kNaN), Vector3<double>::Zero())),
        Contains("fixed body 'f'") && Contains("placement is not finite"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja").with_limits(kNaN, 1), I),
                        Contains("joint 'ja'") && Contains("invalid position limits"));
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja").with_armature(kInf), I),
                        Contains("joint 'ja'") && Contains("armature"));
    REQUIRE_THROWS_WITH(b.set_gravity(Vector3<double>(0, kNaN, 0)),
                        Contains("gravity must be finite"));
    REQUIRE_THROWS_WITH(b.add_mimic("ja", "jb", kInf, 0),
                        Contains("joint 'ja'") && Contains("non-finite"));
    // Finite inputs whose merge through fixed bodies overflows.
    const SE3<double> far(Matrix3<double>::Identity(), Vector3<double>(1e308, 0, 0));
    ModelBuilder<double> o;
    o.add_fixed_body("base", "f1", far);  // massless: 0 · (1e308)² is NaN all the same
    o.add_fixed_body("f1", "f2", far);
    o.add_body("f2", "g", rev("jg"), I);
    REQUIRE_THROWS_WITH(o.build(),
                        Contains("body 'base'") && Contains("merged") && Contains("not finite"));
    ModelBuilder<double> h;
    h.add_body("base", "arm", rev("j"), I);
    h.add_fixed_body("arm", "heavy",
                     SE3<double>(Matrix3<double>::Identity(), Vector3<double>(1e200, 0, 0)), I);
    REQUIRE_THROWS_WITH(h.build(),
                        Contains("body 'arm'") && Contains("merged") && Contains("not finite"));
  }
  SECTION("other rules: limits, armature, rotations, frames, mimic") {
    ModelBuilder<double> b;
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja").with_limits(1, -1), I),
                        Contains("joint 'ja'") && Contains("lower > upper"));
    REQUIRE_THROWS_WITH(
        b.add_body("base", "a", rev("ja").with_armature(-0.1), I),
        Contains("joint 'ja'") && Contains("armature must be finite and non-negative"));
    const SE3<double> shear(Matrix3<double>(Vector3<double>(1, 1, 1.1).asDiagonal()),
                            Vector3<double>::Zero());
    REQUIRE_THROWS_WITH(b.add_body("base", "a", rev("ja", Vector3<double>::UnitZ(), shear), I),
                        Contains("joint 'ja'") && Contains("not a rotation matrix"));
    const SE3<double> mirror(Matrix3<double>(Vector3<double>(1, 1, -1).asDiagonal()),
                             Vector3<double>::Zero());
    REQUIRE_THROWS_WITH(b.add_fixed_body("base", "f", mirror),
                        Contains("fixed body 'f'") && Contains("not a rotation"));
    REQUIRE_THROWS_WITH(b.set_welded_base_pose(shear),
                        Contains("base") && Contains("not a rotation"));
    REQUIRE_THROWS_WITH(b.add_frame("tool", 3, SE3<double>()),
                        Contains("frame 'tool'") && Contains("bad parent id 3"));
    b.add_body("base", "a", rev("ja"), I);
    b.add_frame("tool", "nowhere", SE3<double>());
    REQUIRE_THROWS_WITH(b.build(),
                        Contains("frame 'tool'") && Contains("unknown parent 'nowhere'"));

    ModelBuilder<double> c;
    c.add_body("base", "a", rev("ja"), I);
    c.add_mimic("jz", "ja", 1, 0);
    REQUIRE_THROWS_WITH(c.build(), Contains("unknown joint 'jz'"));
    ModelBuilder<double> d;
    d.add_body("base", "a", rev("ja"), I);
    d.add_mimic("ja", "jz", -1, 0);
    REQUIRE_THROWS_WITH(d.build(),
                        Contains("joint 'ja'") && Contains("mimics an unknown joint 'jz'"));
  }
}

TEST_CASE("ModelBuilder: any insertion order gives the same regular depth-first tree",
          "[model][builder]") {
  auto rng = liedyn::test::make_rng(12);
  // A hand-made tree, added children first: base ─ a ─ b ─ c, a ─ e, base ─ d.
  {
    ModelBuilder<double> b;
    const SpatialInertia<double> I = random_inertia<double>(rng);
    b.add_body("b", "c", rev("jc"), I);
    b.add_body("a", "b", rev("jb"), I);
    const int a = b.add_body("base", "a", rev("ja"), I);
    b.add_body(0, "d", rev("jd"), I);
    b.add_body(a, "e", rev("je"), I);  // by the builder id returned above
    const Model<double> m = b.build();
    const std::vector<std::string> names{"base", "a", "b", "c", "e", "d"};
    const std::vector<int> parents{-1, 0, 1, 2, 1, 0}, ends{6, 5, 4, 4, 5, 6},
        depths{0, 1, 2, 3, 2, 1};
    REQUIRE(m.num_bodies() == 6);
    for (int i = 0; i < 6; ++i) {
      CHECK(m.body_name(i) == names[i]);
      CHECK(m.parent(i) == parents[i]);
      CHECK(m.subtree_end(i) == ends[i]);
      CHECK(m.depth(i) == depths[i]);
      if (i > 0) CHECK(m.joint_name(i) == "j" + names[i]);
    }
    CHECK(m.children(1) == std::vector<int>{2, 4});
    // The velocity coordinates' tree: the base's six as a chain, then the joints.
    const std::vector<int> dof_parents{-1, 0, 1, 2, 3, 4, 5, 6, 7, 6, 5};
    const std::vector<int> dof_ends{11, 11, 11, 11, 11, 11, 10, 9, 9, 10, 11};
    for (int d = 0; d < 11; ++d) {
      CHECK(m.dof_parent(d) == dof_parents[d]);
      CHECK(m.dof_subtree_end(d) == dof_ends[d]);
    }
    const Model<float> mf = m.cast<float>();
    CHECK(mf.dof_parent(8) == 7);
    CHECK(mf.dof_subtree_end(6) == 10);
    CHECK(m.max_depth() == 3);
    CHECK(m.nv() == 11);
    CHECK(m.v_index(4) == 9);
    CHECK(m.body_id("e") == 4);
    CHECK(m.joint_id("jd") == 5);
    CHECK(m.body_id("zz") == -1);
    CHECK(m.joint_id("zz") == -1);
  }
  // Random trees of 40 bodies (with fixed bodies among them) added in a random order by name:
  // the same parent of every body, regular numbering, contiguous subtrees.
  for (int trial = 0; trial < 20; ++trial) {
    const int N = 40;
    std::vector<int> parent(N + 1, -1);
    std::vector<bool> fixed(N + 1, false);
    std::vector<SE3<double>> X(N + 1);
    for (int k = 1; k <= N; ++k) {
      parent[k] = std::uniform_int_distribution<int>(0, k - 1)(rng);
      fixed[k] = std::uniform_int_distribution<int>(0, 4)(rng) == 0;
      X[k] = random_se3<double>(rng);
    }
    std::vector<int> order(N);
    for (int k = 0; k < N; ++k) order[k] = k + 1;
    std::shuffle(order.begin(), order.end(), rng);
    ModelBuilder<double> b;
    auto name = [](int k) { return k == 0 ? std::string("base") : "b" + std::to_string(k); };
    for (int k : order) {
      if (fixed[k]) b.add_fixed_body(name(parent[k]), name(k), X[k]);
      else
        b.add_body(name(parent[k]), name(k),
                   rev("j" + std::to_string(k), Vector3<double>::UnitX(), X[k]),
                   random_inertia<double>(rng));
    }
    const Model<double> m = b.build();
    int movable = 0;
    for (int k = 1; k <= N; ++k) movable += fixed[k] ? 0 : 1;
    REQUIRE(m.num_joints() == movable);
    REQUIRE(static_cast<int>(m.frames().size()) == N + 1);
    for (int i = 1; i < m.num_bodies(); ++i) {
      REQUIRE(m.parent(i) < i);
      const int k = std::stoi(m.body_name(i).substr(1));
      // The nearest movable ancestor in the spec, and the placement through fixed bodies.
      int p = parent[k];
      SE3<double> H = X[k];
      while (p != 0 && fixed[p]) {
        H = X[p] * H;
        p = parent[p];
      }
      CHECK(m.body_name(m.parent(i)) == name(p));
      CHECK(m.joint(i).placement.isApprox(H, 1e-12));
      for (int j = i + 1; j < m.subtree_end(i); ++j) {  // j lies in i's subtree
        int a = j;
        while (a > i) a = m.parent(a);
        CHECK(a == i);
      }
      if (m.subtree_end(i) < m.num_bodies()) CHECK(m.parent(m.subtree_end(i)) < i);
      // Joint i's velocity coordinate hangs from its parent's (the base's last, 5, at the root).
      const int d = m.v_index(i);
      CHECK(m.dof_parent(d) == (m.parent(i) > 0 ? m.v_index(m.parent(i)) : 5));
      CHECK(m.dof_subtree_end(d) == m.offset() + m.subtree_end(i) - 1);
    }
  }
}

TEST_CASE("ModelBuilder: fixed bodies merge exactly; frames, armature, singular joints, cast, Data",
          "[model][builder]") {
  auto rng = liedyn::test::make_rng(13);
  auto I = [&] { return random_inertia<double>(rng); };
  auto X = [&] { return random_se3<double>(rng); };
  const SpatialInertia<double> I0 = I(), I1 = I(), Is = I(), It = I(), Ih = I(), Ic = I();
  const SE3<double> X1 = X(), Xs = X(), Xt = X(), Xh = X(), Xc = X(), Xtool = X();

  ModelBuilder<double> b;
  b.set_base_inertia(I0);
  b.set_gravity(Vector3<double>(0.1, 0.2, -9.7));
  b.add_fixed_body("tip", "hand_mount", Xt, SpatialInertia<double>());  // before its parent
  b.add_body("base", "arm",
             rev("j_arm", Vector3<double>(1, 2, 3), X1).with_armature(0.25).with_limits(-1, 2), I1);
  b.add_fixed_body("arm", "sensor", Xs, Is);
  b.add_fixed_body("sensor", "tip", Xt, It);
  b.add_body("hand_mount", "hand",
             JointSpec<double>::helical("j_hand", Vector3<double>::UnitY(), 0.05, Xh), Ih);
  b.add_fixed_body(0, "camera", Xc, Ic);
  b.add_frame("tool", "hand_mount", Xtool);
  b.add_mimic("j_hand", "j_arm", -2.0, 0.5);
  const Model<double> m = b.build();

  REQUIRE(m.num_joints() == 2);
  REQUIRE(m.body_name(1) == "arm");
  REQUIRE(m.body_name(2) == "hand");
  // Merged inertias against the 6×6 congruence, and the placement of the joint behind two
  // fixed bodies.
  CHECK(relative_error(m.inertia(1).matrix(), Matrix6<double>(I1.matrix() + congruence(Is, Xs) +
                                                              congruence(It, Xs * Xt))) < 1e-13);
  CHECK(relative_error(m.inertia(0).matrix(), Matrix6<double>(I0.matrix() + congruence(Ic, Xc))) <
        1e-13);
  CHECK(relative_error(m.inertia(2).matrix(), Ih.matrix()) == 0);
  CHECK(m.joint(2).placement.isApprox(Xs * Xt * Xt * Xh, 1e-13));
  CHECK(std::abs(m.total_mass() -
                 (I0.mass() + I1.mass() + Is.mass() + It.mass() + Ih.mass() + Ic.mass())) < 1e-13);
  // Frames: the movable bodies, then the fixed ones, then the user's.
  std::map<std::string, std::pair<int, SE3<double>>> want{{"base", {0, SE3<double>()}},
                                                          {"arm", {1, SE3<double>()}},
                                                          {"hand", {2, SE3<double>()}},
                                                          {"camera", {0, Xc}},
                                                          {"sensor", {1, Xs}},
                                                          {"tip", {1, Xs * Xt}},
                                                          {"hand_mount", {1, Xs * Xt * Xt}},
                                                          {"tool", {1, Xs * Xt * Xt * Xtool}}};
  REQUIRE(m.frames().size() == want.size());
  for (const auto& [name, bp] : want) {
    const int f = m.frame_id(name);
    REQUIRE(f >= 0);
    CHECK(m.frame(f).body == bp.first);
    CHECK(m.frame(f).placement.isApprox(bp.second, 1e-13));
  }
  // The joint data.
  const liedyn::Joint<double>& ja = m.joint(1);
  CHECK(ja.armature == 0.25);
  CHECK(ja.lower == -1);
  CHECK(ja.upper == 2);
  CHECK(ja.type == liedyn::JointType::Revolute);
  CHECK(m.joint(2).type == liedyn::JointType::Helical);
  CHECK(m.joint(2).pitch == 0.05);
  CHECK(m.joint(2).alignment == liedyn::AxisAlignment::Y);
  CHECK(relative_error(m.joint(2).screw.vector(), Vector6<double>(0, 0.05, 0, 0, 1, 0)) == 0);
  // The joint transform is placement · exp((Γ q)^), from the Lie group's exp.
  CHECK(m.joint(2).transform(0.7).isApprox(
      Xs * Xt * Xt * Xh * SE3<double>::exp(Vector6<double>(m.joint(2).screw.vector() * 0.7)),
      1e-13));
  CHECK(m.joint(1).transform(-0.3).isApprox(
      X1 * SE3<double>::exp(Vector6<double>(m.joint(1).screw.vector() * -0.3)), 1e-13));
  REQUIRE(m.mimic_relations().size() == 1);
  CHECK(m.mimic_relations()[0].joint == 2);
  CHECK(m.mimic_relations()[0].leader == 1);
  CHECK(m.mimic_relations()[0].multiplier == -2.0);
  CHECK(m.mimic_relations()[0].offset == 0.5);
  CHECK(m.singular_joints().empty());
  CHECK_NOTHROW(m.require_invertible_mass_matrix("test"));

  SECTION("cast<long double>() and back keeps everything") {
    const Model<long double> ml = m.cast<long double>();
    const Model<double> mb = ml.cast<double>();
    {
      const Model<double>* mm = &mb;
      REQUIRE(mm->num_bodies() == m.num_bodies());
      CHECK(mm->parents() == m.parents());
      CHECK(mm->gravity() == m.gravity());
      CHECK(mm->frames().size() == m.frames().size());
      CHECK(mm->mimic_relations().size() == 1);
      for (int i = 0; i < m.num_bodies(); ++i) {
        CHECK(mm->body_name(i) == m.body_name(i));
        CHECK(mm->inertia(i).matrix() == m.inertia(i).matrix());
        CHECK(mm->subtree_end(i) == m.subtree_end(i));
        if (i == 0) continue;
        CHECK(mm->joint_name(i) == m.joint_name(i));
        CHECK(mm->joint(i).placement.matrix() == m.joint(i).placement.matrix());
        CHECK(mm->joint(i).screw.vector() == m.joint(i).screw.vector());
        CHECK(mm->joint(i).armature == m.joint(i).armature);
        CHECK(mm->joint(i).upper == m.joint(i).upper);
      }
      for (std::size_t f = 0; f < m.frames().size(); ++f) {
        CHECK(mm->frame(static_cast<int>(f)).name == m.frame(static_cast<int>(f)).name);
        CHECK(mm->frame(static_cast<int>(f)).placement.matrix() ==
              m.frame(static_cast<int>(f)).placement.matrix());
      }
    }
    CHECK(ml.joint(1).transform(0.5L).matrix().cast<double>().isApprox(
        m.joint(1).transform(0.5).matrix(), 1e-15));
  }
  SECTION("Data is sized once from the model") {
    liedyn::Data<double> d(m);
    CHECK(d.num_bodies() == 3);
    CHECK(d.kinematics.H_world.size() == 3);
    CHECK(d.inverse_dynamics.Ic.size() == 3);
    CHECK(d.M.rows() == 8);
    CHECK(d.M.cols() == 8);
    CHECK(d.Minv.rows() == 8);
    CHECK(d.tau.size() == 8);
    CHECK(d.inverse_dynamics.F.cols() == 2);
    CHECK(d.aza.Fset.size() == 1);  // every 𝓕_i shares one buffer
    CHECK(d.aza.Fset[0].cols() == 2);
    const Model<double> w = liedyn::random_model(5, rng, liedyn::RandomModelOptions{2, false});
    liedyn::Data<double> dw(w);
    CHECK(dw.M.rows() == 5);
    CHECK(dw.h.size() == 5);
    CHECK(dw.aba.U.cols() == 5);  // one column per joint velocity coordinate
  }
  SECTION("singular joints: reported, and the model still loads") {
    // A massless finger on a revolute joint; a point mass on its own joint's axis; a massless
    // link that carries a massive one (not singular); the same finger with armature (not
    // singular).
    ModelBuilder<double> s;
    s.set_base_inertia(I0);
    s.add_body("base", "palm", rev("palm_joint"), I1);
    s.add_body("palm", "finger", rev("finger_joint", Vector3<double>::UnitX()),
               SpatialInertia<double>());
    s.add_body("palm", "pin", rev("pin_joint", Vector3<double>::UnitZ()),
               SpatialInertia<double>::from_mass_com_inertia(1, Vector3<double>(0, 0, 0.2),
                                                             Matrix3<double>::Zero()));
    s.add_body("palm", "carrier", rev("carrier_joint", Vector3<double>::UnitY()),
               SpatialInertia<double>());
    s.add_body("carrier", "load", rev("load_joint", Vector3<double>::UnitY(), X()), Ih);
    s.add_body("palm", "geared", rev("geared_joint").with_armature(0.01), SpatialInertia<double>());
    const Model<double> ms = s.build();
    std::vector<std::string> names;
    for (int j : ms.singular_joints()) names.push_back(ms.joint_name(j));
    CHECK(names == std::vector<std::string>{"finger_joint", "pin_joint"});
    REQUIRE_THROWS_WITH(ms.require_invertible_mass_matrix("forward dynamics"),
                        Contains("forward dynamics") && Contains("finger_joint") &&
                            Contains("pin_joint") && !Contains("carrier_joint") &&
                            !Contains("geared_joint"));
    // A moving base whose whole robot has no inertia: index 0.
    ModelBuilder<double> e;
    e.add_body("base", "a", rev("ja"), SpatialInertia<double>());
    CHECK(e.build().singular_joints() == std::vector<int>{0, 1});
  }
}

TEST_CASE("Joint: the axis-aligned transform equals placement * exp((Gamma q)^)",
          "[model][joint]") {
  // The fast path for ±e_X, ±e_Y, ±e_Z against the general Rodrigues path it replaces, for every
  // joint type; and the builder recognizes both signs (and nothing else) as aligned.
  std::mt19937 rng(liedyn::test::default_seed + 50);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  const SE3<double> placement = SE3<double>::exp(Vector6<double>(0.3, -0.2, 0.5, 0.7, -1.1, 0.4));
  for (int k = 0; k < 3; ++k)
    for (double sign : {1.0, -1.0})
      for (liedyn::JointType type : {liedyn::JointType::Revolute, liedyn::JointType::Prismatic,
                                     liedyn::JointType::Helical}) {
        const Vector3<double> e = sign * Vector3<double>::Unit(k);
        const JointSpec<double> spec = spec_of_type(type, e, placement);
        ModelBuilder<double> b;
        b.add_body("base", "a", spec,
                   SpatialInertia<double>::from_mass_com_inertia(1, Vector3<double>::Zero(),
                                                                 Matrix3<double>::Identity()));
        const Model<double> m = b.build();
        const liedyn::Joint<double>& j = m.joint(1);
        INFO("axis " << e.transpose() << ", " << liedyn::to_string(type));
        REQUIRE(j.alignment == static_cast<liedyn::AxisAlignment>(k));
        CHECK_FALSE(j.placement_unrotated);
        for (int t = 0; t < 5; ++t) {
          const double q = u(rng);
          const SE3<double> fast = j.transform(q), general = j.placement * j.motion_transform(q);
          // Same rotation and translation up to the round-off of two evaluation orders.
          CHECK(relative_error(fast.rotation(), general.rotation()) < 1e-15);
          CHECK((fast.translation() - general.translation()).norm() < 1e-15);
        }
      }
  ModelBuilder<double> b;
  const SpatialInertia<double> I = SpatialInertia<double>::from_mass_com_inertia(
      1, Vector3<double>::Zero(), Matrix3<double>::Identity());
  b.add_body("base", "a", JointSpec<double>::revolute("ja", Vector3<double>(0, -2, 0)), I);
  b.add_body("a", "b", JointSpec<double>::revolute("jb", Vector3<double>(1e-30, 1, 0)), I);
  const Model<double> m = b.build();
  CHECK(m.joint(1).alignment == liedyn::AxisAlignment::Y);  // normalized to −e_Y
  CHECK(m.joint(2).alignment == liedyn::AxisAlignment::General);
  // Placements without a rotation (none given here) are flagged for the kernels' cheaper moves.
  CHECK(m.joint(1).placement_unrotated);
  CHECK(m.cast<float>().joint(2).placement_unrotated);
}

TEST_CASE("Joint: its operations on Gamma equal the plain 6x6 products, fast cases included",
          "[model][joint]") {
  // Every kernel reaches Γ through these operations; their coordinate-axis fast cases must give
  // what the plain products give. Aligned and general axes, rotated and unrotated placements,
  // every joint type. Tolerance 1e-14 relative: the fast cases skip terms that are exact zeros,
  // so only the summation order differs.
  std::mt19937 rng(liedyn::test::default_seed + 51);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  auto random6 = [&] { return Vector6<double>(u(rng), u(rng), u(rng), u(rng), u(rng), u(rng)); };
  const SpatialInertia<double> I = SpatialInertia<double>::from_mass_com_inertia(
      1.7, Vector3<double>(0.1, -0.3, 0.2),
      Matrix3<double>(Vector3<double>(0.4, 0.5, 0.6).asDiagonal()));
  int fast_cases = 0;
  for (const SE3<double>& placement :
       {SE3<double>::exp(Vector6<double>(0.3, -0.2, 0.5, 0.7, -1.1, 0.4)),
        SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0.1, 0.2, -0.3))})
    for (const Vector3<double>& e :
         {Vector3<double>(1, 0, 0), Vector3<double>(0, -1, 0), Vector3<double>(0, 0, 1),
          Vector3<double>(1.0 / 3, 2.0 / 3, -2.0 / 3)})
      for (liedyn::JointType type : {liedyn::JointType::Revolute, liedyn::JointType::Prismatic,
                                     liedyn::JointType::Helical}) {
        const JointSpec<double> spec = spec_of_type(type, e, placement);
        ModelBuilder<double> b;
        b.add_body("base", "a", spec, I);
        const Model<double> m = b.build();
        const liedyn::Joint<double>& j = m.joint(1);
        const Vector6<double> gamma = j.screw.vector();
        if (j.revolute_coordinate_axis() >= 0) ++fast_cases;
        INFO("axis " << e.transpose() << ", " << liedyn::to_string(type) << ", unrotated "
                     << j.placement_unrotated);
        for (int t = 0; t < 3; ++t) {
          const Vector6<double> f = random6();
          CHECK(std::abs(j.project(f) - gamma.dot(f)) <= 1e-14 * f.norm());
          CHECK(std::abs(j.project(liedyn::Force<double>(f)) - gamma.dot(f)) <= 1e-14 * f.norm());
          Vector6<double> If;
          j.inertia_times_subspace(I, If);
          CHECK(relative_error(If, Vector6<double>(I.matrix() * gamma)) < 1e-14);
          const Matrix6<double> A = I.matrix() + Matrix6<double>::Identity();
          CHECK(relative_error(j.matrix_times_subspace(A), Vector6<double>(A * gamma)) < 1e-14);
          const SE3<double> H = SE3<double>::exp(random6());
          CHECK(relative_error(j.subspace_in(H).vector(),
                               Vector6<double>(H.velocity_transform() * gamma)) < 1e-14);
          const SE3<double> rotation(H.rotation(), Vector3<double>::Zero());
          CHECK(relative_error(j.subspace_rotated(H.rotation()).vector(),
                               Vector6<double>(rotation.velocity_transform() * gamma)) < 1e-14);
          // A (R Γ) reading half of A's columns, for a matrix without symmetry.
          Matrix6<double> unsymmetric;
          for (int c = 0; c < 6; ++c) unsymmetric.col(c) = random6();
          const Vector6<double> rotated_gamma = j.subspace_rotated(H.rotation()).vector();
          CHECK(relative_error(j.times_rotated_subspace(unsymmetric, rotated_gamma),
                               Vector6<double>(unsymmetric * rotated_gamma)) < 1e-14);
          // Wrenches across the joint at its own transform: _λX^i f for three columns at once.
          const SE3<double> Hp = j.transform(u(rng));
          Eigen::Matrix<double, 6, 3> F = Eigen::Matrix<double, 6, 3>::Random(),
                                      expected = Hp.wrench_transform() * F;
          j.forces_to_parent(Hp, F);
          CHECK(relative_error(F, expected) < 1e-14);
          // The child's pose from the parent's, H_λ · H_parent.
          const SE3<double> H_lambda = SE3<double>::exp(random6()), pose_expected = H_lambda * Hp;
          SE3<double> pose;
          j.child_pose(H_lambda, Hp, pose);
          CHECK(relative_error(pose.rotation(), pose_expected.rotation()) < 1e-14);
          CHECK(relative_error(pose.translation(), pose_expected.translation()) < 1e-14);
          // One motion into the child frame (also in place) and one wrench added to the parent's.
          const liedyn::Motion<double> m(random6());
          liedyn::Motion<double> m_child, m_io = m;
          j.motion_to_child(Hp, m, m_child);
          j.motion_to_child(Hp, m_io, m_io);
          const Vector6<double> m_expected = Hp.inverse().velocity_transform() * m.vector();
          CHECK(relative_error(m_child.vector(), m_expected) < 1e-14);
          CHECK(m_io.vector() == m_child.vector());
          const liedyn::Force<double> f_child(random6()), f_parent(random6());
          liedyn::Force<double> sum = f_parent;
          j.add_force_to_parent(Hp, f_child, sum);
          CHECK(relative_error(sum.vector(),
                               Vector6<double>(f_parent.vector() +
                                               Hp.wrench_transform() * f_child.vector())) < 1e-14);
          // A composite inertia added to its parent's, _λX^i M ^iX_λ: exactly symmetric when
          // both are (as the builder stores them).
          const SpatialInertia<double> child = random_inertia<double>(rng).symmetrized(),
                                       parent = random_inertia<double>(rng).symmetrized();
          SpatialInertia<double> composite = parent;
          j.add_inertia_to_parent(Hp, child, composite);
          const Matrix6<double> composite_expected =
              parent.matrix() +
              Hp.wrench_transform() * child.matrix() * Hp.inverse().velocity_transform();
          CHECK(relative_error(composite.matrix(), composite_expected) < 1e-14);
          CHECK(composite.inertia_origin() == composite.inertia_origin().transpose());
        }
      }
  CHECK(fast_cases == 6);  // revolute about ±e_k, rotated and unrotated placements
}

TEST_CASE("State: neutral and random states", "[model][state]") {
  auto rng = liedyn::test::make_rng(14);
  const double big = std::numeric_limits<double>::max();
  const SE3<double> Hw = random_se3<double>(rng);
  for (BaseType base : {BaseType::Moving, BaseType::Welded}) {
    ModelBuilder<double> b(base);
    if (base == BaseType::Welded) b.set_welded_base_pose(Hw);
    b.add_body("base", "a", rev("limited").with_limits(0.1, 0.3), random_inertia<double>(rng));
    b.add_body("a", "b", rev("unlimited"), random_inertia<double>(rng));
    b.add_body("b", "c",
               JointSpec<double>::prismatic("wide", Vector3<double>::UnitX()).with_limits(-2, 5),
               random_inertia<double>(rng));
    b.add_body("c", "d", rev("pinned").with_limits(0.4, 0.4), random_inertia<double>(rng));
    b.add_body("d", "e", rev("half").with_limits(-kInf, 1), random_inertia<double>(rng));
    // Pinocchio's convention for "no limit": ±DBL_MAX (finite, but the width overflows).
    b.add_body("e", "f", rev("huge").with_limits(-big, big), random_inertia<double>(rng));
    const Model<double> m = b.build();
    const int n = m.num_joints();

    const State<double> x0 = liedyn::neutral(m);
    CHECK(x0.s == VectorX<double>::Zero(n));
    CHECK(x0.r == VectorX<double>::Zero(n));
    CHECK(x0.nu == Vector6<double>::Zero());
    CHECK(x0.H.matrix() == (base == BaseType::Moving ? SE3<double>() : Hw).matrix());
    CHECK(liedyn::tangent_size(m) == (base == BaseType::Moving ? 12 + 2 * n : 2 * n));
    CHECK(x0.velocity(m).size() == m.nv());

    Vector3<double> lo = Vector3<double>::Constant(kInf), hi = -lo;
    double smin = kInf, smax = -kInf;
    for (int k = 0; k < 300; ++k) {
      const State<double> x = liedyn::random_state(m, rng);
      REQUIRE(x.s.allFinite());
      CHECK(x.s(0) >= 0.1);
      CHECK(x.s(0) <= 0.3);
      CHECK(std::abs(x.s(1)) <= M_PI);
      CHECK(x.s(2) >= -2);
      CHECK(x.s(2) <= 5);
      CHECK(x.s(3) == 0.4);
      CHECK(std::abs(x.s(4)) <= M_PI);
      CHECK(x.r.cwiseAbs().maxCoeff() <= 1);
      smin = std::min(smin, x.s(2));
      smax = std::max(smax, x.s(2));
      if (base == BaseType::Moving) {
        const Matrix3<double>& R = x.H.rotation();
        CHECK((R * R.transpose() - Matrix3<double>::Identity()).cwiseAbs().maxCoeff() < 1e-14);
        CHECK(R.determinant() > 0);
        CHECK(x.H.translation().cwiseAbs().maxCoeff() <= 1);
        CHECK(x.nu.cwiseAbs().maxCoeff() <= 1);
        lo = lo.cwiseMin(x.H.translation());
        hi = hi.cwiseMax(x.H.translation());
      } else {
        CHECK(x.H.matrix() == Hw.matrix());
        CHECK(x.nu == Vector6<double>::Zero());
      }
    }
    // It does explore the range.
    CHECK(smin < -1.5);
    CHECK(smax > 4.5);
    if (base == BaseType::Moving) CHECK((hi - lo).minCoeff() > 1.5);
  }
}

TEST_CASE("State: integrate and difference round trip; their Jacobians match finite differences",
          "[model][state]") {
  auto rng = liedyn::test::make_rng(15);
  for (bool moving : {true, false}) {
    liedyn::RandomModelOptions opt;
    opt.branching = 3;
    opt.moving_base = moving;
    const Model<double> m = liedyn::random_model(6, rng, opt);
    const int N = liedyn::tangent_size(m);
    for (int trial = 0; trial < 10; ++trial) {
      const State<double> x = liedyn::random_state(m, rng), z = liedyn::random_state(m, rng);
      VectorX<double> dx(N);
      for (int k = 0; k < N; ++k) dx(k) = std::uniform_real_distribution<double>(-1, 1)(rng);
      if (moving) dx.head<6>() = liedyn::test::random_twist<double>(rng, 3.0);

      // Round trips.
      const State<double> y = liedyn::integrate(m, x, dx);
      CHECK(relative_error(liedyn::difference(m, x, y), dx) < 1e-12);
      const VectorX<double> d = liedyn::difference(m, x, z);
      CHECK(state_distance(m, liedyn::integrate(m, x, d), z) < 1e-12);
      CHECK(liedyn::difference(m, x, x).cwiseAbs().maxCoeff() < 1e-15);
      if (moving) CHECK(y.H.isApprox(SE3<double>(x.H * SE3<double>::exp(dx.head<6>())), 1e-15));
      else CHECK(y.H.matrix() == x.H.matrix());

      // Jacobians: y(x ⊕ e) ⊖ y(x) and y(x, δx + e) ⊖ y(x, δx), central differences.
      MatrixX<double> Jx, Jdx, Dx, Dy;
      liedyn::integrate_jacobians(m, dx, Jx, Jdx);
      const double h = 1e-6;
      const MatrixX<double> Jx_fd = central_fd(N, N, h, [&](const VectorX<double>& e) {
        return liedyn::difference(m, y, liedyn::integrate(m, liedyn::integrate(m, x, e), dx));
      });
      const MatrixX<double> Jdx_fd = central_fd(N, N, h, [&](const VectorX<double>& e) {
        return liedyn::difference(m, y, liedyn::integrate(m, x, VectorX<double>(dx + e)));
      });
      CHECK(relative_error(Jx, Jx_fd) < 1e-8);
      CHECK(relative_error(Jdx, Jdx_fd) < 1e-8);
      liedyn::difference_jacobians(m, x, z, Dx, Dy);
      const MatrixX<double> Dx_fd = central_fd(N, N, h, [&](const VectorX<double>& e) {
        return VectorX<double>(liedyn::difference(m, liedyn::integrate(m, x, e), z) - d);
      });
      const MatrixX<double> Dy_fd = central_fd(N, N, h, [&](const VectorX<double>& e) {
        return VectorX<double>(liedyn::difference(m, x, liedyn::integrate(m, z, e)) - d);
      });
      CHECK(relative_error(Dx, Dx_fd) < 1e-8);
      CHECK(relative_error(Dy, Dy_fd) < 1e-8);
      // Not trivially the identity where the base moves.
      if (moving)
        CHECK((Jx.topLeftCorner<6, 6>() - Matrix6<double>::Identity()).cwiseAbs().maxCoeff() >
              1e-2);
    }
  }
}

TEST_CASE("State: base-twist representations convert exactly, velocities and accelerations",
          "[model][state]") {
  auto rng = liedyn::test::make_rng(16);
  const TwistRepresentation reps[] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                      TwistRepresentation::Mixed};
  for (int trial = 0; trial < 50; ++trial) {
    const SE3<double> H = random_se3<double>(rng);
    const Vector6<double> nu = random_vector<double, 6>(rng, -2, 2),
                          nu_dot = random_vector<double, 6>(rng, -2, 2);
    const Matrix3<double>& R = H.rotation();
    const Vector3<double>& o = H.translation();

    // The definitions (docs/conventions.md §2).
    const Vector6<double> w = liedyn::base_twist_from_body(H, nu, TwistRepresentation::Inertial);
    const Vector6<double> mx = liedyn::base_twist_from_body(H, nu, TwistRepresentation::Mixed);
    CHECK(relative_error(w, Vector6<double>(H.velocity_transform() * nu)) < 1e-14);
    Matrix6<double> RR = Matrix6<double>::Zero(), A_X_0A = Matrix6<double>::Identity();
    RR.topLeftCorner<3, 3>() = R;
    RR.bottomRightCorner<3, 3>() = R;
    A_X_0A.topRightCorner<3, 3>() = liedyn::hat(o);
    CHECK(relative_error(mx, Vector6<double>(RR * nu)) < 1e-14);
    CHECK(relative_error(w, Vector6<double>(A_X_0A * mx)) < 1e-14);
    CHECK(liedyn::base_twist_from_body(H, nu, TwistRepresentation::Body) == nu);
    // Ḣ = H ν^ = w^ H: the inertial twist is the right-trivialized velocity.
    Eigen::Matrix4d nu_hat = Eigen::Matrix4d::Zero(), w_hat = Eigen::Matrix4d::Zero();
    nu_hat.topLeftCorner<3, 3>() = liedyn::hat(nu.tail<3>());
    nu_hat.topRightCorner<3, 1>() = nu.head<3>();
    w_hat.topLeftCorner<3, 3>() = liedyn::hat(w.tail<3>());
    w_hat.topRightCorner<3, 1>() = w.head<3>();
    CHECK(relative_error(Eigen::Matrix4d(H.matrix() * nu_hat),
                         Eigen::Matrix4d(w_hat * H.matrix())) < 1e-14);

    State<double> x;
    x.H = H;
    for (TwistRepresentation rep : reps) {
      INFO("representation " << liedyn::to_string(rep));
      const Vector6<double> t = liedyn::base_twist_from_body(H, nu, rep);
      CHECK(relative_error(liedyn::base_twist_to_body(H, t, rep), nu) < 1e-14);
      CHECK(relative_error(
                liedyn::base_twist_from_body(H, liedyn::base_twist_to_body(H, nu, rep), rep), nu) <
            1e-14);
      x.set_base_twist(t, rep);
      CHECK(relative_error(x.nu, nu) < 1e-14);
      CHECK(relative_error(x.base_twist(rep), t) < 1e-14);
      const Vector6<double> a = liedyn::base_acceleration_from_body(H, nu, nu_dot, rep);
      CHECK(relative_error(liedyn::base_acceleration_to_body(H, nu, a, rep), nu_dot) < 1e-14);
      CHECK(relative_error(liedyn::base_acceleration_from_body(
                               H, nu, liedyn::base_acceleration_to_body(H, nu, nu_dot, rep), rep),
                           nu_dot) < 1e-14);
    }

    // The apparent accelerations against a finite difference in time along the trajectory
    // H(t) = H0 exp((t ν0 + t²/2 ν̇)^), ν(t) = ν0 + t ν̇: its body twist is H⁻¹Ḣ = ν(t) + O(t²)
    // (Magnus), so central differences of the twist in each representation converge at O(δ²).
    auto H_at = [&](double t) {
      return SE3<double>(H * SE3<double>::exp(Vector6<double>(t * nu + 0.5 * t * t * nu_dot)));
    };
    auto nu_at = [&](double t) { return Vector6<double>(nu + t * nu_dot); };
    const double dt = 1e-5;
    const Vector6<double> body_fd =
        (H.inverse_times(H_at(dt)).log() - H.inverse_times(H_at(-dt)).log()) / (2 * dt);
    CHECK(relative_error(body_fd, nu) < 1e-7);  // the trajectory is the one described
    for (TwistRepresentation rep : reps) {
      INFO("representation " << liedyn::to_string(rep));
      const Vector6<double> fd = (liedyn::base_twist_from_body(H_at(dt), nu_at(dt), rep) -
                                  liedyn::base_twist_from_body(H_at(-dt), nu_at(-dt), rep)) /
                                 (2 * dt);
      CHECK(relative_error(liedyn::base_acceleration_from_body(H, nu, nu_dot, rep), fd) < 1e-7);
      if (rep == TwistRepresentation::Mixed) {
        // The intrinsic mixed acceleration blockdiag(R, R) ν̇ is not d/dt m: they differ by
        // [R (ω × v); 0].
        const Vector6<double> intrinsic = RR * nu_dot;
        Vector6<double> gap = Vector6<double>::Zero();
        gap.head<3>() = R * nu.tail<3>().cross(nu.head<3>());
        CHECK(relative_error(Vector6<double>(fd - intrinsic), gap) < 1e-7);
        CHECK(gap.norm() > 1e-3);
      }
    }
  }
}

}  // namespace LIEDYN_UNITY_ID
