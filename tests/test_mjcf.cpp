// liedyn tests — the MJCF loader (liedyn/model/mjcf.hpp) against MuJoCo 4's own compiler and
// dynamics (tests/data/mjcf/*.ref.txt, written by scripts/generate_mjcf_reference.py): body
// inertias, body poses and joint axes at qpos0, then the mass matrix, bias forces, inverse and
// forward dynamics at random states through the documented state conversion (docs/interop.md);
// models the loader must refuse with one clear line; malformed files.
#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/constrained_dynamics.hpp>
#include <liedyn/algorithm/constraint_kinematics.hpp>
#include <liedyn/algorithm/constraint_projection.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/interop/floating_base.hpp>
#include <liedyn/interop/mujoco.hpp>
#include <liedyn/model/mjcf.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using liedyn::Matrix3;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::ModelError;
using liedyn::SE3;
using liedyn::SpatialInertia;
using liedyn::State;
using liedyn::Vector3;
using liedyn::VectorX;
using liedyn::test::relative_error;
using liedyn::test::scaled_error;

namespace {

const std::string kMjcf = LIEDYN_TEST_DATA_DIR "/mjcf";

struct RefBody {
  std::string name;
  double mass;
  Vector3<double> ipos, inertia, xpos;
  Eigen::Quaterniond iquat, xquat;
};
struct RefJoint {
  std::string name;
  int type, qposadr, dofadr;
  double qpos0;
  Vector3<double> xaxis, xanchor;
  bool limited;
  double lower, upper, armature;
};
struct RefSite {
  std::string name;
  Vector3<double> xpos;
  Matrix3<double> xmat;
};
struct RefState {
  std::map<std::string, VectorX<double>> v;
};
struct Reference {
  int nq = 0, nv = 0;
  Vector3<double> gravity;
  std::vector<RefBody> bodies;
  std::vector<RefJoint> joints;
  std::vector<RefSite> sites;
  std::vector<RefState> states;
  std::vector<RefState> equality;  // equality rows at configurations (generator's docstring)
};

VectorX<double> numbers_of(std::istringstream& in) {
  std::vector<double> v;
  double x;
  while (in >> x) v.push_back(x);
  return Eigen::Map<VectorX<double>>(v.data(), static_cast<Eigen::Index>(v.size()));
}

Eigen::Quaterniond quat(const VectorX<double>& v, int at) {
  return Eigen::Quaterniond(v(at), v(at + 1), v(at + 2), v(at + 3));
}

Reference read_reference(const std::string& name) {
  std::ifstream file(kMjcf + "/" + name + ".ref.txt");
  REQUIRE(file.good());
  Reference r;
  std::vector<RefState>* current = nullptr;
  std::string text;
  while (std::getline(file, text)) {
    std::istringstream in(text);
    std::string key;
    in >> key;
    if (key == "sizes") {
      in >> r.nq >> r.nv;
    } else if (key == "gravity") {
      r.gravity = numbers_of(in);
    } else if (key == "body") {
      RefBody b;
      in >> b.name;
      const VectorX<double> v = numbers_of(in);
      REQUIRE(v.size() == 18);
      b.mass = v(0);
      b.ipos = v.segment<3>(1);
      b.iquat = quat(v, 4);
      b.inertia = v.segment<3>(8);
      b.xpos = v.segment<3>(11);
      b.xquat = quat(v, 14);
      r.bodies.push_back(b);
    } else if (key == "joint") {
      RefJoint j;
      in >> j.name >> j.type >> j.qposadr >> j.dofadr;
      const VectorX<double> v = numbers_of(in);
      REQUIRE(v.size() == 11);
      j.qpos0 = v(0);
      j.xaxis = v.segment<3>(1);
      j.xanchor = v.segment<3>(4);
      j.limited = v(7) != 0.0;
      j.lower = v(8);
      j.upper = v(9);
      j.armature = v(10);
      r.joints.push_back(j);
    } else if (key == "site") {
      RefSite st;
      in >> st.name;
      const VectorX<double> v = numbers_of(in);
      REQUIRE(v.size() == 12);
      st.xpos = v.head<3>();
      st.xmat = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data() + 3);
      r.sites.push_back(st);
    } else if (key == "state") {
      r.states.emplace_back();
      current = &r.states;
    } else if (key == "equality") {
      r.equality.emplace_back();
      current = &r.equality;
    } else if (!key.empty() && key[0] != '#') {
      REQUIRE((current != nullptr && !current->empty()));
      current->back().v[key] = numbers_of(in);
    }
  }
  return r;
}

/// MuJoCo's coordinates re-indexed to liedyn's joint order: index maps for qpos (the base's 7
/// first) and qvel (the base's 6 first), and MuJoCo's qpos0 of the joints (liedyn's order).
struct Layout {
  std::vector<int> q, v;
  VectorX<double> ref;
};

Layout layout_of(const Model<double>& model, const Reference& r) {
  Layout L;
  const int off = model.offset();
  const RefJoint* free = nullptr;
  for (const RefJoint& j : r.joints)
    if (j.type == 0) free = &j;
  REQUIRE((free != nullptr) == (off == 6));
  if (free) {
    for (int k = 0; k < 7; ++k) L.q.push_back(free->qposadr + k);
    for (int k = 0; k < 6; ++k) L.v.push_back(free->dofadr + k);
  }
  L.ref.resize(model.nq_joints());
  for (int i = 1; i < model.num_bodies(); ++i) {
    const RefJoint* found = nullptr;
    for (const RefJoint& j : r.joints)
      if (j.name == model.joint_name(i)) found = &j;
    REQUIRE(found != nullptr);
    for (int k = 0; k < model.joint_nq(i); ++k) L.q.push_back(found->qposadr + k);
    for (int k = 0; k < model.joint_nv(i); ++k) L.v.push_back(found->dofadr + k);
    if (model.joint_nq(i) == 1) {
      L.ref(model.q_index(i)) = found->qpos0;
    } else {  // a ball joint: MuJoCo's qpos0 is the identity quaternion, w first
      REQUIRE(found->type == 1);
      REQUIRE(found->qpos0 == 1.0);
      L.ref.segment<4>(model.q_index(i)) << 1.0, 0.0, 0.0, 0.0;
    }
  }
  return L;
}

VectorX<double> gather(const VectorX<double>& x, const std::vector<int>& index) {
  VectorX<double> out(index.size());
  for (std::size_t k = 0; k < index.size(); ++k) out(k) = x(index[k]);
  return out;
}
MatrixX<double> gather(const VectorX<double>& flat, int n, const std::vector<int>& index) {
  MatrixX<double> out(index.size(), index.size());
  for (std::size_t a = 0; a < index.size(); ++a)
    for (std::size_t b = 0; b < index.size(); ++b) out(a, b) = flat(index[a] * n + index[b]);
  return out;
}

/// ‖A − B‖_max / ‖B‖_max: relative at every scale. relative_error's floor of 1 compares numbers
/// below 1 absolutely, which says little of the cube's (grams, g·cm², M around 1e-4): its mesh
/// inertias with the vertices kept in double instead of MuJoCo's float would pass it.
template <class DA, class DB>
double relative_to_size(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B) {
  const long double size = B.cwiseAbs().maxCoeff();
  if (size == 0) return A.isZero(0.0) ? 0.0 : std::numeric_limits<double>::infinity();
  return scaled_error(A, B, size);
}

const std::vector<std::string>& reference_models() {
  static const std::vector<std::string> names{
      "go2", "panda", "h1", "features_free", "features_welded", "equality", "cassie", "cube"};
  return names;
}

Model<double> load(const std::string& name) {
  liedyn::MjcfOptions opt;
  opt.unsupported = liedyn::UnsupportedElements::skip;  // panda's tendon, the equalities (cassie's)
  return liedyn::load_mjcf_file(kMjcf + "/" + name + ".xml", opt);
}

}  // namespace

TEST_CASE("MJCF: compiled bodies, poses and joint axes agree with MuJoCo", "[mjcf]") {
  // 1e-12: the loader and MuJoCo's compiler evaluate the same closed forms (quaternions,
  // parallel-axis sums, eigen-decompositions) in double; a few dozen ulps of O(1) numbers.
  const double tol = 1e-12;
  for (const std::string& name : reference_models()) {
    INFO("model " << name);
    const Model<double> model = load(name);
    const Reference r = read_reference(name);
    CHECK(model.nv() == r.nv);
    CHECK(relative_error(model.gravity(), r.gravity) <= tol);

    // Inertias: each MuJoCo body's, carried to the liedyn body holding its frame, sum to that
    // body's inertia (fixed bodies merge into their parent).
    std::vector<SpatialInertia<double>> expected(model.num_bodies());
    liedyn::Data<double> data(model);
    State<double> x = liedyn::neutral(model);
    for (const RefBody& b : r.bodies) {
      if (b.name == "world") continue;
      const int f = model.frame_id(b.name);
      INFO("body " << b.name);
      REQUIRE(f >= 0);
      const Matrix3<double> R = b.iquat.normalized().toRotationMatrix();
      const Matrix3<double> Ic = R * b.inertia.asDiagonal() * R.transpose();
      expected[model.frame(f).body] +=
          SpatialInertia<double>::from_mass_com_inertia(b.mass, b.ipos, Ic)
              .transformed(model.frame(f).placement);
      if (model.has_moving_base() && model.frame(f).body == 0 &&
          model.frame(f).placement.translation().isZero(0.0))
        x.H = SE3<double>(b.xquat.toRotationMatrix(), b.xpos);
    }
    for (int i = 0; i < model.num_bodies(); ++i) {
      INFO("liedyn body " << model.body_name(i));
      CHECK(relative_error(model.inertia(i).matrix(), expected[i].matrix()) <= tol);
      if (expected[i].mass() > 0.0) {  // mass, centre and central inertia, each at its own size
        CHECK(model.inertia(i).mass() == Approx(expected[i].mass()).epsilon(tol));
        CHECK(relative_to_size(model.inertia(i).com(), expected[i].com()) <= tol);
        CHECK(relative_to_size(model.inertia(i).inertia_com(), expected[i].inertia_com()) <= tol);
      }
    }
    // Poses at qpos0 (s = 0, the free body at its qpos0 pose).
    liedyn::forward_poses(model, data, x);
    for (const RefBody& b : r.bodies) {
      if (b.name == "world") continue;
      INFO("body " << b.name);
      const SE3<double> H = liedyn::frame_pose(model, data, b.name);
      CHECK(relative_error(H.translation(), b.xpos) <= tol);
      CHECK(relative_error(H.rotation(), b.xquat.toRotationMatrix()) <= tol);
    }
    for (const RefSite& st : r.sites) {
      INFO("site " << st.name);
      const SE3<double> H = liedyn::frame_pose(model, data, st.name);
      CHECK(relative_error(H.translation(), st.xpos) <= tol);
      CHECK(relative_error(H.rotation(), st.xmat) <= tol);
    }
    for (int i = 1; i < model.num_bodies(); ++i) {
      INFO("joint " << model.joint_name(i));
      const RefJoint* j = nullptr;
      for (const RefJoint& k : r.joints)
        if (k.name == model.joint_name(i)) j = &k;
      REQUIRE(j != nullptr);
      const SE3<double>& H = data.kinematics.H_world[i];
      CHECK(relative_error(H.translation(), j->xanchor) <= tol);
      CHECK(model.joint(i).armature == j->armature);
      if (j->type == 1) {  // a ball joint: a spherical joint, no axis, no per-coordinate limits
        CHECK(model.joint(i).type == liedyn::JointType::Spherical);
        CHECK(model.joint(i).lower == -std::numeric_limits<double>::infinity());
        continue;
      }
      CHECK(relative_error(Vector3<double>(H.rotation() * model.joint(i).axis), j->xaxis) <= tol);
      // Limits in s = qpos − qpos0; exactly the file's numbers converted (degrees to radians).
      const double inf = std::numeric_limits<double>::infinity();
      CHECK(model.joint(i).lower == Approx(j->limited ? j->lower - j->qpos0 : -inf).epsilon(tol));
      CHECK(model.joint(i).upper == Approx(j->limited ? j->upper - j->qpos0 : inf).epsilon(tol));
    }
  }
}

TEST_CASE("MJCF: M, bias, inverse and forward dynamics agree with MuJoCo", "[mjcf]") {
  // 1e-10 relative: MuJoCo and liedyn use different recursions (CRB and RNE in world
  // coordinates vs. body-frame spatial algebra); forward dynamics adds a factorization of M.
  const double tol = 1e-10;
  const liedyn::interop::Convention mujoco = liedyn::interop::Library::MuJoCo;
  for (const std::string& name : reference_models()) {
    liedyn::MjcfOptions skip;
    skip.unsupported = liedyn::UnsupportedElements::skip;  // panda's tendon
    const liedyn::MjcfRobot robot = liedyn::load_mjcf_robot_file(kMjcf + "/" + name + ".xml", skip);
    const Model<double>& model = robot.model;
    const Reference r = read_reference(name);
    const Layout L = layout_of(model, r);
    // liedyn's joints are MuJoCo's, in MuJoCo's order (what interop/mujoco.hpp relies on).
    for (std::size_t k = 0; k < L.q.size(); ++k) CHECK(L.q[k] == static_cast<int>(k));
    CHECK(robot.qpos0 == L.ref);
    liedyn::Data<double> data(model);
    REQUIRE(r.states.size() >= 3);
    for (std::size_t k = 0; k < r.states.size(); ++k) {
      INFO("model " << name << ", state " << k);
      const auto& v = r.states[k].v;
      const State<double> x =
          liedyn::interop::state_from_mujoco(model, robot.qpos0, v.at("qpos"), v.at("qvel"));
      // Back to qpos: the same numbers (the quaternion up to its sign, which MuJoCo leaves free);
      // 1e-15: a normalization and a rotation matrix round trip of O(1) numbers.
      VectorX<double> qpos = liedyn::interop::mujoco_qpos(model, robot.qpos0, x);
      if (model.has_moving_base() && qpos.segment<4>(3).dot(v.at("qpos").segment<4>(3)) < 0)
        qpos.segment<4>(3) *= -1.0;
      CHECK(relative_error(qpos, v.at("qpos")) <= 1e-15);

      const MatrixX<double> M =
          liedyn::interop::matrix_to(mujoco, model, x.H, liedyn::crba(model, data, x));
      CHECK(relative_error(M, gather(v.at("M"), r.nv, L.v)) <= tol);
      CHECK(relative_to_size(M, gather(v.at("M"), r.nv, L.v)) <= tol);

      // Bias: inverse dynamics at zero MuJoCo acceleration (the apparent acceleration of a
      // world-frame linear velocity makes it differ from T h).
      const VectorX<double> zero = VectorX<double>::Zero(model.nv());
      const auto inverse = [&](const VectorX<double>& qacc) {
        const VectorX<double> ddq = liedyn::interop::acceleration_from(mujoco, model, x, qacc);
        return liedyn::interop::force_to(mujoco, model, x.H, liedyn::rnea(model, data, x, ddq));
      };
      CHECK(relative_error(inverse(zero), gather(v.at("qfrc_bias"), L.v)) <= tol);
      CHECK(relative_to_size(inverse(zero), gather(v.at("qfrc_bias"), L.v)) <= tol);
      const VectorX<double> qfrc = inverse(gather(v.at("qacc"), L.v));
      CHECK(relative_error(qfrc, gather(v.at("qfrc_inverse"), L.v)) <= tol);
      CHECK(relative_to_size(qfrc, gather(v.at("qfrc_inverse"), L.v)) <= tol);

      const VectorX<double> tau =
          liedyn::interop::force_from(mujoco, model, x.H, gather(v.at("qfrc_applied"), L.v));
      const VectorX<double> qacc =
          liedyn::interop::acceleration_to(mujoco, model, x, liedyn::aba(model, data, x, tau));
      CHECK(relative_error(qacc, gather(v.at("qacc_forward"), L.v)) <= tol);
      CHECK(relative_to_size(qacc, gather(v.at("qacc_forward"), L.v)) <= tol);
    }
  }
}

TEST_CASE("MJCF: ball joints are spherical joints; inline meshes load, mesh files are refused",
          "[mjcf]") {
  // cassie's two ball joints are checked against MuJoCo with the other reference models above.
  const liedyn::MjcfRobot cassie = liedyn::load_mjcf_robot_file(kMjcf + "/cassie.xml");
  const Model<double>& model = cassie.model;
  const int rod = model.require_joint_id("left-achilles-rod", "test");
  CHECK(model.joint(rod).type == liedyn::JointType::Spherical);
  CHECK(cassie.qpos0.segment<4>(model.q_index(rod)) == Eigen::Vector4d(1, 0, 0, 0));
  // The cube's 26 cubelets hang from ball and hinge joints; their inertias come from the convex
  // hull of the mesh's vertices (compared with MuJoCo's above).
  const Model<double> cube = liedyn::load_mjcf_file(kMjcf + "/cube.xml");
  CHECK(cube.nv() == 66);
  CHECK(cube.joint(cube.require_joint_id("pX_pY", "test")).type == liedyn::JointType::Spherical);
  // A mesh from a file is refused, naming the body and the file.
  const std::string mesh_file =
      "<mujoco><asset><mesh name='m' file='part.stl'/></asset><worldbody><body name='b'>"
      "<joint/><geom type='mesh' mesh='m'/></body></worldbody></mujoco>";
  CHECK_THROWS_WITH(liedyn::load_mjcf_string(mesh_file),
                    StartsWith("liedyn: MJCF: line 1: body 'b': its inertia would come from a mesh "
                               "file 'part.stl'"));
}

TEST_CASE("MJCF: an inline mesh's inertia is its solid's: hull of the vertices, or the faces",
          "[mjcf]") {
  // A 2 x 4 x 6 box, its centre at (1, 2, 3), by its 8 corners (and one point inside, which the
  // hull leaves out), or by its 12 triangles; density 1000: mass 48000, I_x = m (b² + c²) / 12 ...
  std::string corners;
  for (int k = 0; k < 8; ++k)
    corners += std::to_string(k & 1 ? 2 : 0) + " " + std::to_string(k & 2 ? 4 : 0) + " " +
               std::to_string(k & 4 ? 6 : 0) + " ";
  const std::string faces =
      "0 2 1  1 2 3  4 5 6  5 7 6  0 1 4  1 5 4  2 6 3  3 6 7  0 4 2  2 4 6  1 3 5  3 7 5";
  const auto box = [&](const std::string& mesh, const std::string& geom) {
    return "<mujoco><asset><mesh name='m' " + mesh +
           "/></asset><worldbody><body name='b'><joint/><geom type='mesh' mesh='m' " + geom +
           "/></body></worldbody></mujoco>";
  };
  const double m = 48000.0;
  const Matrix3<double> I =
      Vector3<double>(m * (16 + 36) / 12.0, m * (4 + 36) / 12.0, m * (4 + 16) / 12.0).asDiagonal();
  const SpatialInertia<double> expected =
      SpatialInertia<double>::from_mass_com_inertia(m, Vector3<double>(1, 2, 3), I);
  for (const std::string& mesh :
       {"vertex='" + corners + " 1 2 3'", "vertex='" + corners + "' face='" + faces + "'",
        "vertex='" + corners + "' face='" + faces + "' inertia='exact'"}) {
    INFO(mesh);
    const Model<double> model = liedyn::load_mjcf_string(box(mesh, ""));
    CHECK(relative_error(model.inertia(1).matrix(), expected.matrix()) <= 1e-14);
  }
  // The geom's pose carries the solid; its mass replaces density × volume.
  const Model<double> moved =
      liedyn::load_mjcf_string(box("vertex='" + corners + "'", "pos='0 0 1' mass='2'"));
  const SpatialInertia<double> two = SpatialInertia<double>::from_mass_com_inertia(
      2.0, Vector3<double>(1, 2, 4), Matrix3<double>(I / m * 2.0));
  CHECK(relative_error(moved.inertia(1).matrix(), two.matrix()) <= 1e-14);
  // Points on a plane span no volume: one clear line.
  CHECK_THROWS_WITH(liedyn::load_mjcf_string(box("vertex='0 0 0  1 0 0  0 1 0  1 1 0'", "")),
                    StartsWith("liedyn: MJCF: line 1: <mesh> 'm': the vertices lie on one plane"));
}

TEST_CASE("MJCF: cassie's loops close: assembly, and the constrained accelerations keep them shut",
          "[mjcf][constraints]") {
  const liedyn::MjcfRobot cassie = liedyn::load_mjcf_robot_file(kMjcf + "/cassie.xml");
  const Model<double>& model = cassie.model;
  const liedyn::ConstraintSet<double>& set = cassie.constraints;
  // The plantar rods close planar four-bars (two rows each), the achilles rods, on ball joints,
  // spatial loops (three).
  REQUIRE(set.size() == 4);
  CHECK(set.constraint(0).dim == 2);
  CHECK(set.constraint(1).dim == 3);
  CHECK(set.constraint(2).dim == 2);
  CHECK(set.constraint(3).dim == 3);
  using LD = long double;
  const Model<LD> model_l = model.cast<LD>();
  const liedyn::ConstraintSet<LD> set_l = set.cast<LD>();
  liedyn::Data<double> data(model);
  liedyn::ConstraintData<double> cd(model, set);
  liedyn::Data<LD> data_l(model_l);
  liedyn::Matrix6X<LD> J1(6, model.nv()), J2(6, model.nv());
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.1);
  for (int trial = 0; trial < 3; ++trial) {
    INFO("state " << trial);
    // A state near the model's pose, assembled: loops closed to 1e-12 in position (the default
    // tolerance) and exactly in velocity.
    VectorX<double> dx(liedyn::tangent_size(model));
    for (int k = 0; k < dx.size(); ++k) dx(k) = noise(rng);
    State<double> x = liedyn::integrate(model, liedyn::neutral(model), dx);
    liedyn::project_configuration(model, data, set, cd, x);
    liedyn::project_velocity(model, data, set, cd, x);
    VectorX<double> tau(model.nv());
    for (int k = 0; k < model.nv(); ++k) tau(k) = 10.0 * noise(rng);
    const VectorX<double> ddq = liedyn::constrained_forward_dynamics(model, data, set, cd, x, tau);
    // The rows: J q̈ + γ = 0 to the KKT solve's rounding.
    const double scale = std::max(1.0, cd.gamma.cwiseAbs().maxCoeff());
    CHECK((cd.J * ddq + cd.gamma).cwiseAbs().maxCoeff() <= 1e-12 * scale);
    // Independently of J and γ: the anchors' world accelerations are equal. Their relative
    // velocity in the world's axes (mixed frame Jacobians) differentiated along x ⊕ t (ν̄, q̈) by
    // central differences in long double (h = 1e-6: error ~1e-12 relative); 1e-10 relative to
    // the anchors' own accelerations, which are O(1) to O(10) m/s² here.
    VectorX<LD> direction(liedyn::tangent_size(model));
    direction << x.velocity(model).cast<LD>(), ddq.cast<LD>();
    const State<LD> x_l = x.cast<LD>();
    auto anchor_velocities = [&](LD t) {
      const State<LD> y = liedyn::integrate(model_l, x_l, VectorX<LD>(t * direction));
      const VectorX<LD> v = y.velocity(model_l);
      Eigen::Matrix<LD, 3, Eigen::Dynamic> out(3, 2 * set.size());
      for (int k = 0; k < set.size(); ++k) {
        const liedyn::Constraint<LD>& c = set_l.constraint(k);
        liedyn::frame_jacobian(model_l, data_l, y, c.body1, c.placement1,
                               liedyn::TwistRepresentation::Mixed, J1);
        liedyn::frame_jacobian(model_l, data_l, y, c.body2, c.placement2,
                               liedyn::TwistRepresentation::Mixed, J2);
        out.col(2 * k) = J1.topRows<3>() * v;
        out.col(2 * k + 1) = J2.topRows<3>() * v;
      }
      return out;
    };
    const LD h = 1e-6L;
    const Eigen::Matrix<LD, 3, Eigen::Dynamic> a =
        (anchor_velocities(h) - anchor_velocities(-h)) / (2 * h);
    for (int k = 0; k < set.size(); ++k) {
      INFO("loop " << set.describe(k));
      const double size = double(std::max(a.col(2 * k).norm(), a.col(2 * k + 1).norm()));
      CHECK(size > 0.1);  // not a vacuous comparison
      CHECK(double((a.col(2 * k + 1) - a.col(2 * k)).norm()) <= 1e-10 * size);
    }
  }
}

TEST_CASE("MJCF: tendons and equality constraints are errors, or skipped with a diagnostic",
          "[mjcf]") {
  const std::string path = kMjcf + "/panda.xml";
  CHECK_THROWS_WITH(liedyn::load_mjcf_file(path),
                    StartsWith("liedyn: MJCF: " + path + ": line 263: <tendon><fixed> 'split'") &&
                        Contains("not supported yet"));
  const Model<double> model = load("panda");
  int skipped = 0;
  for (const liedyn::ModelDiagnostic& d : model.diagnostics())
    if (d.kind == liedyn::DiagnosticKind::ignored_element) {
      ++skipped;
      CHECK_THAT(d.message, Contains("skipped"));
    }
  CHECK(skipped == 2);  // the tendon 'split' and the joint equality of the fingers
  CHECK(model.nv() == 9);
  CHECK(!model.has_moving_base());
  CHECK(model.body_name(0) == "link0");
}

TEST_CASE("MJCF: malformed files give one clear ModelError line each", "[mjcf]") {
  const auto wrap = [](const std::string& body) {
    return "<mujoco>\n<worldbody>\n" + body + "\n</worldbody>\n</mujoco>";
  };
  const std::string free_body = "<body name='b'><freejoint/><geom size='0.1'/>";
  struct Case {
    std::string xml;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases{
      {"<mujoco><worldbody><body name='a'>", {"XML parse error"}},
      {"<robot/>", {"the root element is <robot>, expected <mujoco>"}},
      {"<mujoco/>", {"no <worldbody>"}},
      {wrap(free_body + "<body><joint class='nope'/><geom size='1'/></body></body>"),
       {"line 3: <joint> uses unknown class 'nope'"}},
      {wrap("<body childclass='nope'><geom size='1'/></body>"),
       {"line 3: <body> uses unknown childclass 'nope'"}},
      {wrap(free_body + "<body pos='1 2'><joint/><geom size='1'/></body></body>"),
       {"line 3: body 'body2': attribute 'pos': expected 3 numbers, got 2"}},
      {wrap(free_body + "<body><joint axis='0 0 nan'/><geom size='1'/></body></body>"),
       {"line 3:", "attribute 'axis': 'nan' is not a finite decimal number"}},
      {wrap(free_body + "<body><joint axis='0 0 0'/><geom size='1'/></body></body>"),
       {"line 3: joint 'joint1' (body 'body2'): zero axis"}},
      {wrap(free_body + "<body><joint type='ball' armature='-1'/><geom size='1'/></body></body>"),
       {"line 3: joint 'joint1' (body 'body2'): negative armature"}},
      {wrap(free_body + "<body><freejoint/><geom size='1'/></body></body>"),
       {"line 3: joint 'joint1' (body 'body2'): a free joint below the root is not supported yet"}},
      {wrap(free_body + "</body><body name='c'><freejoint/><geom size='1'/></body>"),
       {"line 3:", "a second free body"}},
      {wrap(free_body + "<body><joint/><geom type='mesh' mesh='m'/></body></body>"),
       {"line 3: geom of body 'body2': attribute 'mesh': no <mesh> named 'm'"}},
      {wrap(free_body + "<body><joint/><geom mesh='m' size='1'/></body></body>"),
       {"line 3: geom of body 'body2': a sphere fitted to mesh 'm'", "not supported"}},
      {wrap(free_body + "<body><joint/><geom type='hfield'/></body></body>"),
       {"line 3: body 'body2': its inertia would come from a hfield geom"}},
      {wrap(free_body + "<body><joint/><inertial mass='-1' diaginertia='1 1 1'/></body></body>"),
       {"line 3: body 'body2': negative mass"}},
      {wrap(free_body + "<body><joint type='spin'/><geom size='1'/></body></body>"),
       {"line 3:", "attribute 'type': 'spin' is not one of hinge, slide, ball, free"}},
      {wrap(free_body + "<body><joint range='1 -1'/><geom size='1'/></body></body>"),
       {"line 3:", "range lower limit above the upper limit"}},
      {wrap(free_body + "<body quat='0 0 0 0'><joint/><geom size='1'/></body></body>"),
       {"line 3: body 'body2': attribute 'quat': zero quaternion"}},
      {wrap(free_body + "<body quat='1 0 0 0' euler='0 0 1'><geom size='1'/></body></body>"),
       {"line 3: body 'body2': more than one orientation"}},
      {"<mujoco><compiler angle='grad'/><worldbody/></mujoco>",
       {"line 1: <compiler>: attribute 'angle': 'grad' is not one of degree, radian"}},
      {"<mujoco><worldbody/><tendon><fixed name='t'/></tendon></mujoco>",
       {"line 1: <tendon><fixed> 't' is not supported yet"}},
      {"<mujoco><worldbody/><equality><connect body1='a'/></equality></mujoco>",
       {"line 1: <equality><connect> needs load_mjcf_robot_file"}},
      {wrap(free_body + "<composite/></body>"),
       {"line 3: <composite> in body 'b' is not supported"}},
      {"<mujoco><worldbody/><actuators/></mujoco>", {"line 1: unknown element <actuators>"}},
      {"<mujoco><default><default class='a'/><default class='a'/></default><worldbody/></mujoco>",
       {"line 1: <default>: duplicate class 'a'"}},
      {"<mujoco>\n<default><default/></default><worldbody/></mujoco>",
       {"line 2: <default>: a nested <default> needs a 'class'"}},
      {"<mujoco><include file='no_such_file_for_liedyn.xml'/><worldbody/></mujoco>",
       {"line 1: <include file='no_such_file_for_liedyn.xml'>: cannot open the file"}},
  };
  for (const Case& c : cases) {
    INFO(c.xml);
    try {
      liedyn::load_mjcf_string(c.xml);
      FAIL("no error");
    } catch (const ModelError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, StartsWith("liedyn: MJCF: "));
      CHECK(what.find('\n') == std::string::npos);
      for (const std::string& p : c.parts) CHECK_THAT(what, Contains(p));
    }
  }
  // Files: a missing file, a cyclic include, a missing include, an included file that is not XML.
  const std::string dir = kMjcf + "/errors/";
  const std::vector<std::pair<std::string, std::string>> files{
      {dir + "no_such_model.xml", "no_such_model.xml: cannot open the file"},
      {dir + "cycle_a.xml", "cycle_b.xml: line 2: <include file='cycle_a.xml'>: cyclic include"},
      {dir + "missing_include.xml",
       "missing_include.xml: line 2: <include file='no_such_file.xml'>: cannot open the file"},
      {dir + "bad_include.xml",
       "bad_include.xml: line 2: <include file='truncated.xml'>: XML parse error"},
  };
  for (const auto& f : files) {
    INFO(f.first);
    CHECK_THROWS_WITH(liedyn::load_mjcf_file(f.first),
                      StartsWith("liedyn: MJCF: ") && Contains(f.second));
  }
}

TEST_CASE("MJCF: truncated and corrupted models give a model or a ModelError, never a crash",
          "[mjcf]") {
  std::ifstream in(kMjcf + "/go2.xml");
  std::stringstream text;
  text << in.rdbuf();
  const std::string go2 = text.str();
  REQUIRE(go2.size() > 1000);
  const std::string noise = "<>\"'/= -.e0123456789xyzabc&;";
  int errors = 0, models = 0;
  for (std::size_t k = 0; k < 400; ++k) {
    std::string xml = go2;
    const std::size_t at = (k * 7919) % go2.size();
    if (k % 2) xml = go2.substr(0, at);      // truncated
    else xml[at] = noise[k % noise.size()];  // one character replaced
    try {
      const Model<double> m = liedyn::load_mjcf_string(xml);
      CHECK(m.num_bodies() >= 1);
      ++models;
    } catch (const ModelError& e) {
      CHECK_THAT(std::string(e.what()), StartsWith("liedyn: MJCF: "));
      ++errors;
    }
  }
  CHECK(errors > 200);  // every truncation is malformed XML
  CHECK(errors + models == 400);

  // The same inside equality.xml's <equality> section, through the loader that converts it:
  // a ConstraintError from the set would escape as a non-MJCF message, so none may.
  std::ifstream eq_in(kMjcf + "/equality.xml");
  std::stringstream eq_text;
  eq_text << eq_in.rdbuf();
  const std::string eq = eq_text.str();
  const std::size_t begin = eq.find("<equality>");
  REQUIRE(begin != std::string::npos);
  int eq_errors = 0, eq_models = 0;
  for (std::size_t k = 0; k < 200; ++k) {
    std::string xml = eq;
    const std::size_t at = begin + (k * 7919) % (eq.size() - begin);
    if (k % 2) xml = eq.substr(0, at);
    else xml[at] = noise[k % noise.size()];
    try {
      const liedyn::MjcfRobot robot = liedyn::load_mjcf_robot_string(xml);
      CHECK(robot.constraints.fits(robot.model));
      ++eq_models;
    } catch (const ModelError& e) {
      CHECK_THAT(std::string(e.what()), StartsWith("liedyn: MJCF: "));
      ++eq_errors;
    }
  }
  CHECK(eq_errors >= 100);
  CHECK(eq_errors + eq_models == 200);
}

TEST_CASE("MJCF: body names at joint anchors, gravity, the world's static children", "[mjcf]") {
  // arm2 has three joints, the last two off the body origin: a chain arm2/elbow_twist (at the
  // origin, massless), arm2/elbow, arm2/elbow_slide (carrying the inertia), and a frame 'arm2'.
  const Model<double> features = load("features_free");
  std::vector<std::string> names;
  for (int i = 0; i < features.num_bodies(); ++i) names.push_back(features.body_name(i));
  CHECK(names == std::vector<std::string>{"trunk", "arm1/shoulder", "arm2/elbow_twist",
                                          "arm2/elbow", "arm2/elbow_slide", "leg/hip"});
  CHECK(features.inertia(2).mass() == 0.0);
  CHECK(features.inertia(3).mass() == 0.0);
  for (const char* frame : {"arm1", "arm2", "leg", "foot", "imu", "tool"})
    CHECK(features.frame_id(frame) >= 0);

  const std::string free_body = "<body name='b'><freejoint/><geom size='0.1'/></body>";
  const Model<double> off =
      liedyn::load_mjcf_string("<mujoco><option><flag gravity='disable'/></option><worldbody>" +
                               free_body + "</worldbody></mujoco>");
  CHECK(off.gravity().isZero(0.0));
  liedyn::MjcfOptions opt;
  opt.gravity = Vector3<double>(0.0, 0.0, -1.62);
  CHECK(liedyn::load_mjcf_string("<mujoco><worldbody>" + free_body + "</worldbody></mujoco>", opt)
            .gravity() == *opt.gravity);

  // A moving-base model has no world: the floor and a fixed table are listed and left out.
  const Model<double> scene = liedyn::load_mjcf_string(
      "<mujoco><worldbody><geom name='floor' type='plane' size='1 1 1'/>" + free_body +
      "<body name='table'><geom type='box' size='1 1 1'/></body></worldbody></mujoco>");
  CHECK(scene.num_bodies() == 1);
  CHECK(scene.frame_id("table") < 0);
  int ignored = 0;
  for (const liedyn::ModelDiagnostic& d : scene.diagnostics())
    ignored += d.kind == liedyn::DiagnosticKind::ignored_element;
  CHECK(ignored == 2);
  // A welded model keeps them: the base 'world' carries the table as a fixed body.
  const Model<double> welded = liedyn::load_mjcf_string(
      "<mujoco><worldbody><body name='table' pos='0 0 1'><geom type='box' size='1 1 1'/></body>"
      "<body name='arm'><joint axis='0 1 0'/><geom size='0.1'/></body></worldbody></mujoco>");
  CHECK(welded.body_name(0) == "world");
  CHECK(welded.inertia(0).mass() == Approx(8000.0));  // 2 m × 2 m × 2 m of density 1000
  CHECK(welded.frame(welded.frame_id("table")).placement.translation().z() == 1.0);
}

TEST_CASE("MJCF: equality constraints are MuJoCo's efc rows after the documented conversion",
          "[mjcf]") {
  // docs/loading.md, "Equality constraints": connect and weld rows are in mixed sense; liedyn's
  // frame 2 (the contact frame of a contact) is MuJoCo's body2 side, sign σ = −1, or its body1
  // side, σ = +1 (a contact whose world side is body2). MuJoCo's residual is σ e (translation)
  // and σ torquescale sin(|φ|/2) φ/|φ| (rotation, φ = R_2ᵀ e_ang, times the sign of its error
  // quaternion's w); on the manifold its rows are σ J (translation) and σ torquescale/2 R_2ᵀ J
  // (rotation). Off it, a loop's translation rows differentiate each body's own anchor in
  // MuJoCo: −J − [d]× J_ω1, d its residual and J_ω1 body1's angular velocity Jacobian in world
  // axes. A joint equality is the coupling's row and residual as they are. The planar four-bar's
  // connect keeps the two rows across its hinges, in frame 2's axes: R_2 [J; 0] and R_2 [e; 0]
  // stand for its J and e (MuJoCo's third row and residual vanish along the hinges).
  const liedyn::MjcfRobot robot = liedyn::load_mjcf_robot_file(kMjcf + "/equality.xml");
  const Model<double>& model = robot.model;
  const liedyn::ConstraintSet<double>& set = robot.constraints;
  using T = liedyn::ConstraintType;
  REQUIRE(set.size() == 7);
  const std::vector<T> types{T::BallLoop, T::BallLoop,     T::RigidLoop,   T::RigidLoop,
                             T::Coupling, T::PointContact, T::RigidContact};
  const std::vector<double> torquescale{0, 0, 1, 0.5, 0, 0, 1};  // equality.xml's welds
  const std::vector<double> sigma{-1, -1, -1, -1, 0, 1, -1};     // 'pin': body2 is the world
  for (int k = 0; k < 7; ++k) CHECK(set.constraint(k).type == types[k]);
  CHECK(set.constraint(0).name == "four_bar");
  CHECK(set.constraint(0).dim == 2);
  CHECK(set.constraint(0).sense == liedyn::TwistRepresentation::Body);
  CHECK(set.constraint(1).dim == 3);  // site-based: MuJoCo's rows as they are
  // MuJoCo's rows of each equality: 3 for a connect, 6 for a weld, 1 for a joint.
  std::vector<int> efc_row(set.size() + 1, 0);
  for (int k = 0; k < set.size(); ++k) {
    const liedyn::Constraint<double>& c = set.constraint(k);
    efc_row[k + 1] = efc_row[k] + (c.type == T::Coupling ? 1 : liedyn::is_rigid(c.type) ? 6 : 3);
  }
  const int efc_rows = efc_row.back();
  CHECK(set.constraint(3).name == "equality3");
  CHECK(set.constraint(4).ratio == -0.3);
  CHECK(set.constraint(4).offset == 0.02);
  const Reference r = read_reference("equality");
  const Layout L = layout_of(model, r);
  CHECK(robot.qpos0 == L.ref);
  REQUIRE(r.equality.size() == 6);
  liedyn::Data<double> data(model);
  liedyn::ConstraintData<double> cd(model, set);
  liedyn::Matrix6X<double> frame_J(6, model.nv());
  const liedyn::interop::Convention mujoco = liedyn::interop::Library::MuJoCo;
  // 1e-12: closed forms of the same poses in double (residuals up to ~1, Jacobian entries ~1);
  // on the manifold MuJoCo's residual is below 1e-15, which bounds the rows' difference there.
  const double tol = 1e-12;
  for (std::size_t n = 0; n < r.equality.size(); ++n) {
    const auto& v = r.equality[n].v;
    const bool on_manifold = n >= 3;
    INFO("configuration " << n << (on_manifold ? " (on the manifold)" : ""));
    VectorX<double> q = gather(v.at("qpos"), L.q);
    q.tail(model.num_joints()) -= L.ref;
    const State<double> x =
        liedyn::interop::state_from(mujoco, model, q, VectorX<double>::Zero(model.nv()));
    liedyn::constraint_jacobian(model, data, set, cd, x);
    // MuJoCo's columns in liedyn's order, and liedyn's rows in MuJoCo's velocity coordinates.
    const MatrixX<double> efc_J_flat =
        Eigen::Map<const MatrixX<double>>(v.at("efc_J").data(), r.nv, efc_rows);
    MatrixX<double> efc_J(efc_rows, model.nv());
    for (int c = 0; c < model.nv(); ++c) efc_J.col(c) = efc_J_flat.row(L.v[c]).transpose();
    const MatrixX<double> T = liedyn::interop::velocity_matrix(mujoco, model, x.H);
    const MatrixX<double> J = cd.J * T.transpose();
    const VectorX<double>& efc_pos = v.at("efc_pos");
    REQUIRE(efc_pos.size() == efc_rows);
    for (int k = 0; k < set.size(); ++k) {
      const liedyn::Constraint<double>& c = set.constraint(k);
      INFO("constraint " << set.describe(k));
      const int row = efc_row[k];
      const double sign = v.at("weld_w")(k) < 0.0 ? -1.0 : 1.0;
      if (c.type == T::Coupling) {
        CHECK(std::abs(efc_pos(row) - cd.position_error(c.row)) <= tol);
        CHECK(relative_error(efc_J.row(row), J.row(c.row)) <= tol);
        continue;
      }
      // liedyn's translation rows in MuJoCo's form (the world's axes, three rows).
      const auto translation_rows = [&](const MatrixX<double>& rows) -> MatrixX<double> {
        if (c.dim == 3 || c.dim == 6) return rows.middleRows(c.row, 3);
        MatrixX<double> full = MatrixX<double>::Zero(3, rows.cols());
        full.topRows(2) = rows.middleRows(c.row, 2);
        return liedyn::frame_pose(model, data, c.body2, c.placement2).rotation() * full;
      };
      const VectorX<double> e = translation_rows(cd.position_error);
      CHECK(relative_error(efc_pos.segment<3>(row), sigma[k] * e) <= tol);
      MatrixX<double> correction = MatrixX<double>::Zero(3, model.nv());  // none for a contact
      if (!liedyn::is_contact(c.type)) {
        liedyn::frame_jacobian(model, data, x, c.body1, c.placement1,
                               liedyn::TwistRepresentation::Mixed, frame_J);
        correction = -liedyn::hat(Vector3<double>(efc_pos.segment<3>(row))) *
                     frame_J.bottomRows<3>() * T.transpose();
      }
      CHECK(relative_error(efc_J.middleRows(row, 3), sigma[k] * translation_rows(J) + correction) <=
            tol);
      if (!liedyn::is_rigid(c.type)) continue;
      const Matrix3<double> R2 = liedyn::frame_pose(model, data, c.body2, c.placement2).rotation();
      const Vector3<double> phi = R2.transpose() * cd.position_error.segment<3>(c.row + 3);
      const double angle = phi.norm();
      const Vector3<double> expected =
          sigma[k] * sign * torquescale[k] * (angle > 0 ? std::sin(angle / 2) / angle : 0.5) * phi;
      CHECK((efc_pos.segment<3>(row + 3) - expected).norm() <= tol);
      if (on_manifold)
        CHECK(relative_error(efc_J.middleRows(row + 3, 3), sigma[k] * sign * torquescale[k] / 2 *
                                                               R2.transpose() *
                                                               J.middleRows(c.row + 3, 3)) <= tol);
    }
  }
}

TEST_CASE("MJCF: equalities liedyn cannot represent are named errors, or skipped", "[mjcf]") {
  const std::string tree =
      "<mujoco><worldbody><body name='a'><joint name='ja' axis='0 1 0'/><geom size='0.1'/>"
      "<body name='b' pos='1 0 0'><joint name='jb' axis='0 1 0'/><geom size='0.1'/></body>"
      "</body></worldbody>\n<equality>\n";
  const auto with = [&](const std::string& eq) { return tree + eq + "\n</equality></mujoco>"; };
  const std::vector<std::pair<std::string, std::string>> cases{
      {"<joint joint1='ja' joint2='jb' polycoef='0 1 0.5 0 0'/>",
       "line 3: <equality><joint> 'equality0': polycoef of degree above 1 is not supported"},
      {"<joint joint1='ja'/>",
       "line 3: <equality><joint> 'equality0': a joint equality without "
       "joint2"},
      {"<tendon name='t' tendon1='x'/>", "line 3: <equality><tendon> 't' is not supported"},
      {"<flex flex='f'/>", "line 3: <equality><flex> 'equality0' is not supported"},
      {"<joint joint1='ja' joint2='nope'/>",
       "line 3: <equality><joint> 'equality0': attribute "
       "'joint2': no hinge or slide joint named 'nope'"},
      {"<connect body1='a' body2='nope' anchor='0 0 0'/>",
       "line 3: <equality><connect> 'equality0': attribute 'body2': no body named 'nope'"},
      {"<connect body1='a' body2='b'/>",
       "line 3: <equality><connect> 'equality0': no attribute "
       "'anchor'"},
      {"<weld site1='s' site2='t'/>", "attribute 'site1': no site named 's'"},
      {"<weld site1='s' site2='t' anchor='0 0 1'/>",
       "attribute 'anchor' with site1 and site2 (MuJoCo takes sites or bodies, not both)"},
  };
  liedyn::MjcfOptions skip;
  skip.unsupported = liedyn::UnsupportedElements::skip;
  for (const auto& c : cases) {
    INFO(c.first);
    CHECK_THROWS_WITH(liedyn::load_mjcf_robot_string(with(c.first)),
                      StartsWith("liedyn: MJCF: ") && Contains(c.second));
  }
  // Under skip, an equality liedyn cannot represent is one diagnostic; a malformed one still
  // throws.
  const liedyn::MjcfRobot skipped = liedyn::load_mjcf_robot_string(
      with("<joint joint1='ja' joint2='jb' polycoef='0 1 0.5 0 0'/>"), skip);
  CHECK(skipped.constraints.size() == 0);
  REQUIRE(skipped.model.diagnostics().size() == 1);
  CHECK_THAT(skipped.model.diagnostics()[0].message, Contains("line 3: ") && Contains("skipped"));
  CHECK_THROWS(liedyn::load_mjcf_robot_string(with("<connect body1='a' body2='b'/>"), skip));
  // load_mjcf_file (a Model alone) points to the loader that returns constraints.
  CHECK_THROWS_WITH(liedyn::load_mjcf_string(with("<connect body1='a' body2='b' anchor='1 0 0'/>")),
                    Contains("line 3: <equality><connect> needs load_mjcf_robot_file"));
  // An inactive equality is not converted, and says so.
  const liedyn::MjcfRobot inactive = liedyn::load_mjcf_robot_string(
      with("<connect body1='a' body2='b' anchor='1 0 0' active='false'/>"));
  CHECK(inactive.constraints.size() == 0);
  REQUIRE(inactive.model.diagnostics().size() == 1);
  CHECK_THAT(inactive.model.diagnostics()[0].message, Contains("inactive"));
  // panda's finger equality: finger_joint2 = finger_joint1 (polycoef's default 0 1 0 0 0).
  const liedyn::MjcfRobot panda = liedyn::load_mjcf_robot_file(kMjcf + "/panda.xml", skip);
  REQUIRE(panda.constraints.size() == 1);
  CHECK(panda.constraints.constraint(0).ratio == 1.0);
  CHECK(panda.model.joint_name(panda.constraints.constraint(0).joint) == "finger_joint1");
  // polycoef may be shorter than 5 numbers: the rest keep MuJoCo's default 0 1 0 0 0.
  const liedyn::MjcfRobot short_poly =
      liedyn::load_mjcf_robot_string(with("<joint joint1='ja' joint2='jb' polycoef='0.5'/>"));
  CHECK(short_poly.constraints.constraint(0).offset == 0.5);
  CHECK(short_poly.constraints.constraint(0).ratio == 1.0);
}

}  // namespace LIEDYN_UNITY_ID
