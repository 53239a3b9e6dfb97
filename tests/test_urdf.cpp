// liedyn tests — the URDF loader (liedyn/model/urdf.hpp): the shipped robots load; joints,
// placements, limits and lumped inertias agree with Pinocchio 3.7's reference dumps; mass,
// centre of mass and composite inertia agree with a direct sum over ALL links of the file
// (parsed again here, independently of the loader, with fixed links included); conventions
// (rpy, axis, inertial frame, continuous, mimic); every error says what and where; and
// thousands of corrupted files give a model or a clean ModelError, never a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <tinyxml2.h>
#include <Eigen/Geometry>

#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/model/state.hpp>
#include <liedyn/model/urdf.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using liedyn::Matrix3;
using liedyn::Model;
using liedyn::ModelError;
using liedyn::SE3;
using liedyn::SpatialInertia;
using liedyn::State;
using liedyn::Vector3;
using liedyn::test::relative_error;

namespace {

const std::string kData = LIEDYN_TEST_DATA_DIR;
const std::string kExamples = LIEDYN_TEST_DATA_DIR "/../../examples/models";

struct RobotFile {
  const char* label;
  std::string path;
};
const std::vector<RobotFile>& robot_files() {
  static const std::vector<RobotFile> files{{"solo12", kData + "/solo12.urdf"},
                                            {"talos", kData + "/talos.urdf"},
                                            {"quadruped", kExamples + "/quadruped.urdf"},
                                            {"humanoid", kExamples + "/humanoid.urdf"}};
  return files;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// ------------------------------------------------------------------------------------------
// An independent reading of a URDF file (tinyxml2 directly, istringstream numbers, Eigen
// AngleAxis rotations): links with their inertials, joints with origin, axis and type.
// ------------------------------------------------------------------------------------------
struct RefLink {
  double m = 0;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();   // centre of mass in the link frame
  Eigen::Matrix3d Ic = Eigen::Matrix3d::Zero();  // about the centre of mass, link axes
};
struct RefJoint {
  std::string name, type, parent, child;
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
};
struct RefRobot {
  std::map<std::string, RefLink> links;
  std::vector<RefJoint> joints;
  std::string root;
};

Eigen::Vector3d ref_vec(const tinyxml2::XMLElement* el, const char* attr) {
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  if (el && el->Attribute(attr)) {
    std::istringstream s(el->Attribute(attr));
    s >> v(0) >> v(1) >> v(2);
  }
  return v;
}

Eigen::Isometry3d ref_origin(const tinyxml2::XMLElement* parent) {
  const tinyxml2::XMLElement* o = parent->FirstChildElement("origin");
  const Eigen::Vector3d xyz = ref_vec(o, "xyz"), rpy = ref_vec(o, "rpy");
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = (Eigen::AngleAxisd(rpy(2), Eigen::Vector3d::UnitZ()) *
                Eigen::AngleAxisd(rpy(1), Eigen::Vector3d::UnitY()) *
                Eigen::AngleAxisd(rpy(0), Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  T.translation() = xyz;
  return T;
}

RefRobot read_reference(const std::string& path) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS);
  RefRobot r;
  const tinyxml2::XMLElement* robot = doc.RootElement();
  for (auto* l = robot->FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
    RefLink link;
    if (const tinyxml2::XMLElement* in = l->FirstChildElement("inertial")) {
      const Eigen::Isometry3d T = ref_origin(in);
      link.m = in->FirstChildElement("mass")->DoubleAttribute("value");
      const tinyxml2::XMLElement* I = in->FirstChildElement("inertia");
      Eigen::Matrix3d J;
      J << I->DoubleAttribute("ixx"), I->DoubleAttribute("ixy"), I->DoubleAttribute("ixz"),  //
          I->DoubleAttribute("ixy"), I->DoubleAttribute("iyy"), I->DoubleAttribute("iyz"),   //
          I->DoubleAttribute("ixz"), I->DoubleAttribute("iyz"), I->DoubleAttribute("izz");
      link.c = T.translation();
      link.Ic = T.linear() * J * T.linear().transpose();
    }
    r.links[l->Attribute("name")] = link;
  }
  std::set<std::string> children;
  for (auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    RefJoint joint;
    joint.name = j->Attribute("name");
    joint.type = j->Attribute("type");
    joint.parent = j->FirstChildElement("parent")->Attribute("link");
    joint.child = j->FirstChildElement("child")->Attribute("link");
    joint.origin = ref_origin(j);
    if (const tinyxml2::XMLElement* a = j->FirstChildElement("axis"))
      joint.axis = ref_vec(a, "xyz").normalized();
    children.insert(joint.child);
    r.joints.push_back(joint);
  }
  for (const auto& [name, link] : r.links)
    if (!children.count(name)) r.root = name;
  return r;
}

/// Mass, first moment h = m c and rotational inertia about the origin of frame B, summed
/// directly over the links (parallel-axis theorem), given every link's pose in B.
struct Moments {
  double m = 0;
  Eigen::Vector3d h = Eigen::Vector3d::Zero();
  Eigen::Matrix3d Io = Eigen::Matrix3d::Zero();
};

/// Sums every link of `r` in the base (root-link) frame, the joints at the positions `q_of`
/// gives (by joint name).
template <class Q>
Moments reference_moments(const RefRobot& r, Q q_of) {
  std::map<std::string, Eigen::Isometry3d> pose{{r.root, Eigen::Isometry3d::Identity()}};
  for (std::size_t done = 0; done < r.joints.size();) {  // parents before children, any file order
    done = 0;
    for (const RefJoint& j : r.joints) {
      if (pose.count(j.child)) {
        ++done;
        continue;
      }
      if (!pose.count(j.parent)) continue;
      Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
      if (j.type == "revolute" || j.type == "continuous")
        motion.linear() = Eigen::AngleAxisd(q_of(j.name), j.axis).toRotationMatrix();
      if (j.type == "prismatic") motion.translation() = j.axis * q_of(j.name);
      pose[j.child] = pose[j.parent] * j.origin * motion;
    }
  }
  Moments s;
  for (const auto& [name, link] : r.links) {
    REQUIRE(pose.count(name));
    const Eigen::Isometry3d& T = pose[name];
    const Eigen::Vector3d c = T * link.c;
    const Eigen::Matrix3d Ic = T.linear() * link.Ic * T.linear().transpose();
    s.m += link.m;
    s.h += link.m * c;
    s.Io += Ic + link.m * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
  }
  return s;
}

/// The same from the model: forward kinematics ^0H_i = ^0H_λ(i) · joint(i).transform(s_i) and
/// the merged inertias carried to the base frame.
Moments model_moments(const Model<double>& m, const State<double>& x) {
  std::vector<SE3<double>> H(m.num_bodies());
  SpatialInertia<double> sum;
  for (int i = 0; i < m.num_bodies(); ++i) {
    if (i > 0) H[i] = H[m.parent(i)] * m.joint(i).transform(x.s(i - 1));
    sum += m.inertia(i).transformed(H[i]);
  }
  return Moments{sum.mass(), sum.first_moment(), sum.inertia_origin()};
}

// ------------------------------------------------------------------------------------------
// Pinocchio's reference dump (tests/data/README.pinocchio.md).
// ------------------------------------------------------------------------------------------
struct PinJoint {
  std::string name, type;
  int parent = 0, idx_q = 0, idx_v = 0;
  Eigen::Matrix3d R;
  Eigen::Vector3d p;
  double mass = 0;
  Eigen::Vector3d com;
  Eigen::Matrix3d Ic;
};
struct PinDump {
  int nv = 0;
  std::vector<PinJoint> joints;  // indexed by Pinocchio's joint index
  std::map<std::string, std::vector<double>> vecs;
};

PinDump read_pinocchio(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  PinDump d;
  std::string line;
  auto at = [&](int I) -> PinJoint& {
    if (static_cast<int>(d.joints.size()) <= I) d.joints.resize(I + 1);
    return d.joints[I];
  };
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    int I = 0;
    if (key == "nv") {
      s >> d.nv;
    } else if (key == "joint") {
      s >> I;
      PinJoint& j = at(I);
      int nq = 0;
      s >> j.name >> j.type >> j.parent >> j.idx_q >> nq >> j.idx_v;
    } else if (key == "placement") {
      s >> I;
      PinJoint& j = at(I);
      for (int k = 0; k < 9; ++k) s >> j.R(k / 3, k % 3);
      s >> j.p(0) >> j.p(1) >> j.p(2);
    } else if (key == "inertia") {
      s >> I;
      PinJoint& j = at(I);
      s >> j.mass >> j.com(0) >> j.com(1) >> j.com(2);
      for (int k = 0; k < 9; ++k) s >> j.Ic(k / 3, k % 3);
    } else if (key == "vec") {
      std::string name;
      int n = 0;
      s >> name >> n;
      std::vector<double>& v = d.vecs[name];
      v.resize(n);
      for (double& x : v) s >> x;
    }
  }
  return d;
}

/// "line N" of the last occurrence of `needle` in `xml`.
std::string line_of(const std::string& xml, const std::string& needle) {
  const std::size_t pos = xml.rfind(needle);
  REQUIRE(pos != std::string::npos);
  return "line " +
         std::to_string(
             1 + std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Small URDF pieces for hand-written cases (one element per line).
std::string urdf(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n";
}
std::string inertial(const std::string& mass = "1",
                     const std::string& inertia =
                         "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"",
                     const std::string& origin = "") {
  return "  <inertial>\n" + (origin.empty() ? "" : "    <origin " + origin + "/>\n") +
         "    <mass value=\"" + mass + "\"/>\n    <inertia " + inertia + "/>\n  </inertial>\n";
}
std::string link(const std::string& name, const std::string& inner = inertial()) {
  return "<link name=\"" + name + "\">\n" + inner + "</link>\n";
}
std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child,
                  const std::string& inner =
                      "  <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"2\"/>\n") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\">\n  <parent link=\"" + parent +
         "\"/>\n  <child link=\"" + child + "\"/>\n" + inner + "</joint>\n";
}

}  // namespace

TEST_CASE("URDF: the shipped robots load with the expected structure", "[urdf]") {
  struct Expect {
    int joints, mimics, frames;
    std::string base;
  };
  const std::map<std::string, Expect> expect{{"solo12", {12, 0, 17, "base_link"}},
                                             {"talos", {44, 12, 60, "base_link"}},
                                             {"quadruped", {12, 0, 17, "trunk"}},
                                             {"humanoid", {34, 2, 47, "pelvis"}}};
  for (const RobotFile& f : robot_files()) {
    INFO(f.label);
    const Model<double> m = liedyn::load_urdf_file(f.path);
    const Expect& e = expect.at(f.label);
    CHECK(m.num_joints() == e.joints);
    CHECK(m.nv() == 6 + e.joints);
    CHECK(m.has_moving_base());
    CHECK(static_cast<int>(m.mimic_relations().size()) == e.mimics);
    CHECK(static_cast<int>(m.frames().size()) == e.frames);  // one frame per link
    CHECK(m.body_name(0) == e.base);
    CHECK(m.singular_joints().empty());  // Pinocchio inverts their mass matrices
    CHECK(m.gravity() == Vector3<double>(0, 0, -9.81));
    for (int i = 1; i < m.num_bodies(); ++i) {
      CHECK(m.parent(i) < i);
      CHECK(std::abs(m.joint(i).axis.norm() - 1) < 1e-15);
      CHECK(m.joint(i).armature == 0);
    }
    // From a string: the same model.
    const Model<double> s = liedyn::load_urdf_string(read_text(f.path));
    REQUIRE(s.num_bodies() == m.num_bodies());
    for (int i = 0; i < m.num_bodies(); ++i) CHECK(s.inertia(i).matrix() == m.inertia(i).matrix());
    // Welded, with options.
    liedyn::UrdfOptions opt;
    opt.weld_base = true;
    opt.welded_base_pose =
        SE3<double>(liedyn::SO3<double>::exp(Vector3<double>(0.1, 0.2, 0.3)).matrix(),
                    Vector3<double>(1, 2, 3));
    opt.gravity = Vector3<double>(0, 0, -1.62);
    const Model<double> w = liedyn::load_urdf_file(f.path, opt);
    CHECK(!w.has_moving_base());
    CHECK(w.nv() == e.joints);
    CHECK(w.welded_base_pose().matrix() == opt.welded_base_pose.matrix());
    CHECK(w.gravity() == opt.gravity);
    CHECK(liedyn::neutral(w).H.matrix() == opt.welded_base_pose.matrix());
  }

  // The project's humanoid: continuous, prismatic, tilted axes, mimic fingers, fixed sensors.
  const Model<double> h = liedyn::load_urdf_file(kExamples + "/humanoid.urdf");
  const int yaw = h.joint_id("head_yaw"), f1 = h.joint_id("r_finger_1"),
            f2 = h.joint_id("r_finger_2");
  const int l1 = h.joint_id("l_finger_1"), l2 = h.joint_id("l_finger_2");
  REQUIRE(std::min({yaw, f1, f2, l1, l2}) > 0);
  CHECK(h.joint(yaw).lower == -std::numeric_limits<double>::infinity());
  CHECK(h.joint(yaw).upper == std::numeric_limits<double>::infinity());
  CHECK(h.joint(yaw).effort_limit == 10);
  CHECK(h.joint(yaw).velocity_limit == 5);
  CHECK(h.joint(f1).type == liedyn::JointType::Prismatic);
  CHECK(h.joint(f1).lower == 0);
  CHECK(h.joint(f1).upper == 0.04);
  CHECK(h.joint(f1).effort_limit == 40);
  CHECK(h.joint(f1).velocity_limit == 0.1);
  CHECK(h.joint(f1).alignment == liedyn::AxisAlignment::Y);
  int tilted = 0;
  for (int i = 1; i < h.num_bodies(); ++i)
    tilted += h.joint(i).alignment == liedyn::AxisAlignment::General;
  CHECK(tilted == 2);
  std::set<std::tuple<int, int, double, double>> mimics;
  for (const liedyn::MimicRelation& r : h.mimic_relations())
    mimics.insert({r.joint, r.leader, r.multiplier, r.offset});
  CHECK(mimics ==
        std::set<std::tuple<int, int, double, double>>{{f2, f1, -1.0, 0.0}, {l2, l1, -1.0, 0.0}});
  const int imu = h.frame_id("imu_link");
  REQUIRE(imu >= 0);
  CHECK(h.frame(imu).body == 0);
  CHECK(h.frame(imu).placement.isApprox(
      SE3<double>(liedyn::SO3<double>::exp(Vector3<double>(M_PI, 0, 0)).matrix(),
                  Vector3<double>(-0.03, 0, 0.05)),
      1e-15));
}

TEST_CASE("URDF: joints, placements, limits and lumped inertias match Pinocchio's reference",
          "[urdf]") {
  for (const char* robot : {"solo12", "talos"}) {
    INFO(robot);
    const Model<double> m = liedyn::load_urdf_file(kData + "/" + robot + ".urdf");
    const PinDump pin = read_pinocchio(kData + "/" + robot + ".seed1.txt");
    REQUIRE(pin.joints.size() >= 2);
    REQUIRE(pin.joints[1].type == "JointModelFreeFlyer");
    CHECK(m.nv() == pin.nv);
    CHECK(static_cast<int>(pin.joints.size()) - 2 == m.num_joints());
    std::set<std::string> ours, theirs;
    for (int i = 1; i < m.num_bodies(); ++i) ours.insert(m.joint_name(i));
    for (std::size_t I = 2; I < pin.joints.size(); ++I) theirs.insert(pin.joints[I].name);
    CHECK(ours == theirs);

    auto body_of = [&](int I) { return I == 1 ? 0 : m.joint_id(pin.joints[I].name); };
    double worst_inertia = 0, worst_placement = 0;
    for (std::size_t I = 1; I < pin.joints.size(); ++I) {
      const PinJoint& pj = pin.joints[I];
      INFO("Pinocchio joint " << I << " " << pj.name);
      const int i = body_of(static_cast<int>(I));
      REQUIRE(i >= 0);
      // Lumped inertia (fixed links merged) in the joint = body frame.
      const SpatialInertia<double>& Ii = m.inertia(i);
      Eigen::Matrix<double, 13, 1> a, b;
      a << Ii.mass(), Ii.com(),
          Eigen::Map<const Eigen::Matrix<double, 9, 1>>(Ii.inertia_com().data());
      b << pj.mass, pj.com, Eigen::Map<const Eigen::Matrix<double, 9, 1>>(pj.Ic.data());
      worst_inertia = std::max(worst_inertia, relative_error(a, b));
      CHECK(relative_error(a, b) < 1e-12);
      if (I == 1) continue;
      CHECK(m.parent(i) == body_of(pj.parent));
      const SE3<double>& X = m.joint(i).placement;
      worst_placement = std::max({worst_placement, relative_error(X.rotation(), pj.R),
                                  relative_error(X.translation(), pj.p)});
      CHECK(relative_error(X.rotation(), pj.R) < 1e-12);
      CHECK(relative_error(X.translation(), pj.p) < 1e-12);
      const char axis = pj.type.back();  // JointModelRX / RY / RZ
      REQUIRE((axis == 'X' || axis == 'Y' || axis == 'Z'));
      CHECK(m.joint(i).type == liedyn::JointType::Revolute);
      CHECK(m.joint(i).alignment == static_cast<liedyn::AxisAlignment>(axis - 'X'));
      CHECK(m.joint(i).lower == pin.vecs.at("lowerPositionLimit").at(pj.idx_q));
      CHECK(m.joint(i).upper == pin.vecs.at("upperPositionLimit").at(pj.idx_q));
      CHECK(m.joint(i).velocity_limit == pin.vecs.at("velocityLimit").at(pj.idx_v));
      CHECK(m.joint(i).effort_limit == pin.vecs.at("effortLimit").at(pj.idx_v));
    }
    // Pinocchio's universe carries nothing for a moving base; the total mass agrees.
    double pin_mass = 0;
    for (const PinJoint& pj : pin.joints) pin_mass += pj.mass;
    CHECK(std::abs(m.total_mass() - pin_mass) < 1e-12 * pin_mass);
    // Observed: lumped inertias within 4e-17 and placements within 1e-16 of Pinocchio's.
    INFO(robot << ": worst relative difference to Pinocchio: lumped inertias " << worst_inertia
               << ", placements " << worst_placement);
    CHECK(std::max(worst_inertia, worst_placement) < 1e-12);
  }
}

TEST_CASE("URDF: mass, centre of mass and composite inertia equal a direct sum over all links",
          "[urdf]") {
  auto rng = liedyn::test::make_rng(21);
  for (const RobotFile& f : robot_files()) {
    INFO(f.label);
    const RefRobot ref = read_reference(f.path);
    for (bool weld : {false, true}) {
      INFO("welded " << weld);
      liedyn::UrdfOptions opt;
      opt.weld_base = weld;
      opt.welded_base_pose = liedyn::test::random_se3<double>(rng);
      const Model<double> m = liedyn::load_urdf_file(f.path, opt);
      REQUIRE(m.body_name(0) == ref.root);
      for (int trial = 0; trial < 3; ++trial) {
        const State<double> x = liedyn::random_state(m, rng);
        const Moments direct = reference_moments(ref, [&](const std::string& name) {
          const int i = m.joint_id(name);
          REQUIRE(i > 0);
          return x.s(i - 1);
        });
        const Moments model = model_moments(m, x);
        CHECK(std::abs(model.m - direct.m) <= 1e-13 * direct.m);
        CHECK(std::abs(m.total_mass() - direct.m) <= 1e-13 * direct.m);
        CHECK(relative_error(model.h, direct.h) < 1e-12);
        CHECK(relative_error(model.Io, direct.Io) < 1e-12);
        // The centre of mass in the inertial frame.
        const Eigen::Vector3d com_direct = x.H.act_point(Eigen::Vector3d(direct.h / direct.m));
        CHECK(relative_error(x.H.act_point(Eigen::Vector3d(model.h / model.m)), com_direct) <
              1e-12);
        // Not trivial: the robot's configuration moves its centre of mass.
        if (trial == 0) {
          const Moments neutral = model_moments(m, liedyn::neutral(m));
          CHECK((neutral.h - model.h).norm() > 1e-4);
        }
      }
    }
    // The lumped model loses nothing: its mass is that of every link of the file.
    double file_mass = 0;
    for (const auto& [name, link] : ref.links) file_mass += link.m;
    CHECK(std::abs(liedyn::load_urdf_file(f.path).total_mass() - file_mass) < 1e-12 * file_mass);
  }
}

TEST_CASE("URDF: conventions of origins, axes, inertials, joint types and mimic", "[urdf]") {
  const std::string I_c =
      "ixx=\"0.3\" ixy=\"0.01\" ixz=\"-0.02\" iyy=\"0.25\" iyz=\"0.03\" izz=\"0.2\"";
  const std::string xml = urdf(
      // The joints come before their links and the child chain before its parent's joint.
      joint("j2", "prismatic", "a", "b",
            "  <origin xyz=\"0.1 0.2 0.3\"/>\n  <axis xyz=\"0 0 2\"/>\n"
            "  <limit lower=\"-0.1\" upper=\"0.2\" effort=\"5\" velocity=\"0.5\"/>\n"
            "  <dynamics damping=\"1\" friction=\"2\"/>\n") +
      joint("j1", "revolute", "root", "a",
            "  <origin xyz=\"1 -2 0.5\" rpy=\"0.3 -0.7 1.1\"/>\n  <limit effort=\"1\" "
            "velocity=\"1\"/>\n") +
      joint("j3", "continuous", "b", "c", "  <axis xyz=\"1 1 0\"/>\n") +
      joint("j4", "revolute", "b", "d",
            "  <origin rpy=\"0 0 0.5\"/>\n  <axis xyz=\"0 1 0\"/>\n  <limit lower=\"-2\" "
            "upper=\"2\" effort=\"3\" velocity=\"4\"/>\n"
            "  <mimic joint=\"j1\"/>\n") +
      joint("j5", "revolute", "b", "e",
            "  <limit lower=\"-1\" upper=\"1\" effort=\"3\" velocity=\"4\"/>\n  <mimic "
            "joint=\"j4\" multiplier=\"-0.5\" offset=\"0.25\"/>\n") +
      joint(
          "cam_joint", "fixed", "c", "camera",
          "  <origin xyz=\"0 0 0.1\" rpy=\"1.5707963267948966 0 0\"/>\n  <axis xyz=\"0 0 0\"/>\n") +
      link("root", inertial("2", I_c, "xyz=\"0.01 0.02 0.03\" rpy=\"0.4 0.5 0.6\"") +
                       "  <visual><origin xyz=\"nan nan\"/><geometry><box "
                       "size=\"oops\"/></geometry></visual>\n") +
      link("a", inertial("1", I_c, "xyz=\"0.1 0 0\"")) + link("b", inertial("1", I_c)) +
      link("c", inertial("0", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"")) +
      link("d", "") +
      link("e", inertial("0.5", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"")) +
      link("camera", inertial("0.2", I_c, "xyz=\"0 0.05 0\"")));
  const Model<double> m = liedyn::load_urdf_string(xml);
  REQUIRE(m.num_joints() == 5);
  // Depth-first, children in the file's order of their joints.
  const std::vector<std::string> bodies{"root", "a", "b", "c", "d", "e"};
  for (int i = 0; i < 6; ++i) CHECK(m.body_name(i) == bodies[i]);
  const int j1 = m.joint_id("j1"), j2 = m.joint_id("j2"), j3 = m.joint_id("j3"),
            j4 = m.joint_id("j4"), j5 = m.joint_id("j5");
  // rpy is fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
  const Eigen::Matrix3d R1 = (Eigen::AngleAxisd(1.1, Eigen::Vector3d::UnitZ()) *
                              Eigen::AngleAxisd(-0.7, Eigen::Vector3d::UnitY()) *
                              Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX()))
                                 .toRotationMatrix();
  CHECK(relative_error(m.joint(j1).placement.rotation(), R1) < 1e-15);
  CHECK(m.joint(j1).placement.translation() == Vector3<double>(1, -2, 0.5));
  CHECK(m.joint(j1).axis == Vector3<double>::UnitX());  // no <axis>: (1, 0, 0)
  CHECK(m.joint(j1).lower == 0);                        // <limit> without lower/upper: 0
  CHECK(m.joint(j1).upper == 0);
  CHECK(m.joint(j2).placement.rotation() == Matrix3<double>::Identity());  // xyz only
  CHECK(m.joint(j2).type == liedyn::JointType::Prismatic);
  CHECK(m.joint(j2).axis == Vector3<double>::UnitZ());  // normalized
  CHECK(m.joint(j2).lower == -0.1);
  CHECK(m.joint(j2).upper == 0.2);
  CHECK(m.joint(j3).placement.matrix() == SE3<double>().matrix());  // no <origin>
  CHECK(relative_error(m.joint(j3).axis, Vector3<double>(Vector3<double>(1, 1, 0).normalized())) <
        1e-16);
  CHECK(m.joint(j3).lower == -std::numeric_limits<double>::infinity());  // continuous
  CHECK(m.joint(j3).velocity_limit == std::numeric_limits<double>::infinity());
  CHECK(m.joint(j4).effort_limit == 3);
  // The inertial frame: I_link = R I_c Rᵀ about the centre of mass at xyz.
  Eigen::Matrix3d Ic;
  Ic << 0.3, 0.01, -0.02, 0.01, 0.25, 0.03, -0.02, 0.03, 0.2;
  const Eigen::Matrix3d Rr = (Eigen::AngleAxisd(0.6, Eigen::Vector3d::UnitZ()) *
                              Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitY()) *
                              Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX()))
                                 .toRotationMatrix();
  CHECK(m.inertia(0).mass() == 2);
  CHECK(relative_error(m.inertia(0).com(), Vector3<double>(0.01, 0.02, 0.03)) < 1e-16);
  CHECK(relative_error(m.inertia(0).inertia_com(), Eigen::Matrix3d(Rr * Ic * Rr.transpose())) <
        1e-15);
  CHECK(m.inertia(m.body_id("d")).matrix() == liedyn::Matrix6<double>::Zero());  // no <inertial>
  // The camera (behind a fixed joint with a zero axis, which is ignored) is merged into c.
  const int c = m.body_id("c");
  const SE3<double> Xcam(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix(),
                         Vector3<double>(0, 0, 0.1));
  CHECK(m.inertia(c).mass() == 0.2);
  CHECK(relative_error(m.inertia(c).com(),
                       Vector3<double>(Xcam.act_point(Vector3<double>(0, 0.05, 0)))) < 1e-15);
  REQUIRE(m.frame_id("camera") >= 0);
  CHECK(m.frame(m.frame_id("camera")).body == c);
  CHECK(m.frame(m.frame_id("camera")).placement.isApprox(Xcam, 1e-15));
  // Mimic relations (defaults multiplier 1, offset 0), the joints stay independent.
  REQUIRE(m.mimic_relations().size() == 2);
  CHECK(m.mimic_relations()[0].joint == j4);
  CHECK(m.mimic_relations()[0].leader == j1);
  CHECK(m.mimic_relations()[0].multiplier == 1.0);
  CHECK(m.mimic_relations()[0].offset == 0.0);
  CHECK(m.mimic_relations()[1].joint == j5);
  CHECK(m.mimic_relations()[1].leader == j4);
  CHECK(m.mimic_relations()[1].multiplier == -0.5);
  CHECK(m.mimic_relations()[1].offset == 0.25);
  CHECK(m.nv() == 11);
  // Singular joints: j4 moves d, which has no inertia at all; j5 moves e, a point mass on its
  // axis (x, through its origin). The model loads and reports them; j3 moves the massless c
  // only through the camera merged into it, which is enough.
  std::vector<std::string> singular;
  for (int j : m.singular_joints()) singular.push_back(m.joint_name(j));
  CHECK(singular == std::vector<std::string>{"j4", "j5"});
  CHECK_THROWS_WITH(m.require_invertible_mass_matrix("aba"), Contains("j4") && Contains("j5"));

  // Real robot files have massless finger links: they load, the joints are reported.
  const std::string fingers = urdf(
      link("palm") + joint("finger", "revolute", "palm", "tip") +
      link("tip", inertial("0", "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"")));
  const Model<double> fm = liedyn::load_urdf_string(fingers);
  CHECK(fm.singular_joints() == std::vector<int>{1});
}

TEST_CASE(
    "URDF: a planar joint moves in the xy-plane of its joint frame and a floating joint freely",
    "[urdf]") {
  // Tolerance: a few rotations of unit vectors in double, 1e-14.
  using namespace liedyn;
  const Model<double> model = load_urdf_string(
      urdf(link("a") + link("b") + link("c") +
           joint("p", "planar", "a", "b",
                 "  <origin xyz=\"0.1 0.2 0.3\" rpy=\"0.4 -0.2 0.1\"/>\n"
                 "  <axis xyz=\"0 0 2\"/>\n  <limit lower=\"7\" upper=\"-7\"/>\n") +
           joint("f", "floating", "b", "c", "  <origin xyz=\"0 0 0.5\"/>\n")),
      [] {
        UrdfOptions options;
        options.weld_base = true;
        return options;
      }());
  REQUIRE(model.nq_joints() == 4 + 7);
  REQUIRE(model.nv() == 3 + 6);
  const int bp = model.require_joint_id("p", "test"), bf = model.require_joint_id("f", "test");
  CHECK(model.joint(bp).type == JointType::Planar);
  CHECK(model.joint(bf).type == JointType::Free);
  // Move along the planar joint's tangent (vx, vy, ω) and the floating one's; the limit text on
  // the planar joint is not read (lower > upper would fail a revolute joint).
  VectorX<double> dx = VectorX<double>::Zero(tangent_size(model));
  dx.head<3>() << 0.3, -0.2, 0.7;
  dx.segment<6>(3) << 0.1, 0.2, 0.3, -0.4, 0.5, 0.6;
  const State<double> x = integrate(model, State<double>(model), dx);
  Data<double> data(model);
  forward_poses(model, data, x);
  // URDF's rpy: R = Rz(yaw) Ry(pitch) Rx(roll).
  const Matrix3<double> R_origin = (Eigen::AngleAxisd(0.1, Vector3<double>::UnitZ()) *
                                    Eigen::AngleAxisd(-0.2, Vector3<double>::UnitY()) *
                                    Eigen::AngleAxisd(0.4, Vector3<double>::UnitX()))
                                       .toRotationMatrix();
  const SE3<double> origin(R_origin, Vector3<double>(0.1, 0.2, 0.3));
  // The child of the planar joint in its <origin> frame: displaced in the xy-plane, turned about
  // z by ω = 0.7.
  const SE3<double> rel = origin.inverse() * data.kinematics.H_world[bp];
  CHECK(std::abs(rel.translation().z()) < 1e-14);
  CHECK(rel.translation().norm() > 0.1);
  const Matrix3<double> Rz = Eigen::AngleAxisd(0.7, Vector3<double>::UnitZ()).toRotationMatrix();
  CHECK((rel.rotation() - Rz).cwiseAbs().maxCoeff() < 1e-14);
  // The floating joint's child: X_J = exp of the body twist (0.1, 0.2, 0.3; −0.4, 0.5, 0.6).
  const SE3<double> expected =
      data.kinematics.H_world[bp] *
      SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0, 0, 0.5)) *
      SE3<double>::exp(dx.segment<6>(3));
  CHECK((data.kinematics.H_world[bf].matrix() - expected.matrix()).cwiseAbs().maxCoeff() < 1e-14);
}

TEST_CASE("URDF: what cannot be represented fails with a message that says what and where",
          "[urdf]") {
  const std::string lim = "  <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"2\"/>\n";
  struct Case {
    std::string xml;
    std::string at;  // text whose line the message must name ("" = no line)
    std::vector<std::string> says;
  };
  const std::string good_inertia =
      "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"";
  const std::vector<Case> cases{
      {urdf(link("a") + link("b") + joint("j", "planar", "a", "b", "  <axis xyz=\"0 0 0\"/>\n")),
       "<joint name=\"j\"",
       {"joint 'j'", "zero axis"}},
      {urdf(link("a") + link("b") + joint("j", "planar", "a", "b", "  <axis xyz=\"0 1 1\"/>\n")),
       "<joint name=\"j\"",
       {"joint 'j'", "a planar joint's axis must be (0, 0, 1)"}},
      {urdf(link("a") + link("b") + joint("j", "ball", "a", "b")),
       "<joint name=\"j\"",
       {"joint 'j'", "unknown joint type 'ball'"}},
      {urdf(link("a") + link("b") + link("c") + joint("j", "revolute", "a", "b")),
       "<robot",
       {"several root links", "'a'", "'c'"}},
      {urdf(link("a") + link("b") + joint("j1", "revolute", "a", "b") +
            joint("j2", "revolute", "b", "a")),
       "<robot",
       {"no root link", "loop"}},
      {urdf(link("r") + link("a") + link("b") + link("c") + joint("j0", "revolute", "r", "a") +
            joint("j1", "revolute", "b", "c") + joint("j2", "fixed", "c", "b")),
       "<joint name=\"j2\"",
       {"loop", "'b'", "'c'", "root link 'r'"}},
      {urdf(link("a") + joint("j", "revolute", "ghost", "a")),
       "<joint name=\"j\"",
       {"joint 'j'", "parent link 'ghost' does not exist"}},
      {urdf(link("a") + joint("j", "revolute", "a", "ghost")),
       "<joint name=\"j\"",
       {"joint 'j'", "child link 'ghost' does not exist"}},
      {urdf(link("a") + link("b") + link("c") + joint("j1", "revolute", "a", "c") +
            joint("j2", "revolute", "b", "c")),
       "<joint name=\"j2\"",
       {"joint 'j2'", "link 'c' is already the child of joint 'j1'"}},
      {urdf(link("a") + link("b") + joint("j", "revolute", "b", "b")),
       "<joint name=\"j\"",
       {"joint 'j'", "own parent"}},
      {urdf(link("a") + link("a")), "<link name=\"a\">", {"duplicate link name 'a'"}},
      {urdf(link("a") + link("b") + link("c") + joint("j", "revolute", "a", "b") +
            joint("j", "fixed", "a", "c")),
       "<joint name=\"j\" type=\"fixed\"",
       {"duplicate joint name 'j'"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", "  <origin xyz=\"0 nan 0\"/>\n" + lim)),
       "<origin",
       {"joint 'j'", "<origin> attribute 'xyz'", "'nan' is not a finite decimal number"}},
      {urdf(link("a", inertial("inf"))),
       "<mass",
       {"link 'a'", "'value'", "'inf' is not a finite decimal number"}},
      {urdf(link("a", inertial("1e400"))), "<mass", {"link 'a'", "'1e400' is out of range"}},
      {urdf(link("a", inertial("abc"))),
       "<mass",
       {"link 'a'", "'abc' is not a finite decimal number"}},
      {urdf(link("a", inertial("1.2.3"))), "<mass", {"link 'a'", "'1.2.3' is not a number"}},
      {urdf(link("a", inertial(""))), "<mass", {"link 'a'", "expected 1 number, got 0"}},
      {urdf(link("a", inertial("1 2"))), "<mass", {"link 'a'", "expected 1 number, got more"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", "  <axis xyz=\"1 0\"/>\n" + lim)),
       "<axis",
       {"joint 'j'", "'xyz'", "expected 3 numbers, got 2"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", "  <axis xyz=\"0 0 0 1\"/>\n" + lim)),
       "<axis",
       {"joint 'j'", "expected 3 numbers, got more"}},
      {urdf(link(
           "a", "  <inertial>\n    <mass/>\n    <inertia " + good_inertia + "/>\n  </inertial>\n")),
       "<mass",
       {"link 'a'", "<mass> has no attribute 'value'"}},
      {urdf(link("a", inertial("1", "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\""))),
       "<inertia ",
       {"link 'a'", "<inertia> has no attribute 'izz'"}},
      {urdf(link("a", "  <inertial>\n    <inertia " + good_inertia + "/>\n  </inertial>\n")),
       "<inertial>",
       {"link 'a'", "no <mass>"}},
      {urdf(link("a", "  <inertial>\n    <mass value=\"1\"/>\n  </inertial>\n")),
       "<inertial>",
       {"link 'a'", "no <inertia>"}},
      {urdf("<link>\n</link>\n"), "<link>", {"a <link>", "no attribute 'name'"}},
      {urdf(link("a") + link("b") +
            "<joint name=\"j\">\n  <parent link=\"a\"/>\n  <child link=\"b\"/>\n</joint>\n"),
       "<joint",
       {"joint 'j'", "no attribute 'type'"}},
      {urdf(link("a") + link("b") +
            "<joint name=\"j\" type=\"fixed\">\n  <parent/>\n  <child link=\"b\"/>\n</joint>\n"),
       "<parent",
       {"joint 'j'", "<parent> has no attribute 'link'"}},
      {urdf(link("a") + link("b") +
            "<joint name=\"j\" type=\"fixed\">\n  <child link=\"b\"/>\n</joint>\n"),
       "<joint",
       {"joint 'j'", "no <parent>"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", "  <axis xyz=\"0 0 0\"/>\n" + lim)),
       "<joint name=\"j\"",
       {"joint 'j'", "zero axis"}},
      {urdf(link("a", inertial("-1"))), "<inertial>", {"link 'a'", "negative mass"}},
      {urdf(link(
           "a",
           inertial("1", "ixx=\"-0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\""))),
       "<inertial>",
       {"link 'a'", "not positive semi-definite"}},
      {urdf(link("a") + link("b") + joint("j", "revolute", "a", "b", "")),
       "<joint name=\"j\"",
       {"joint 'j'", "needs a <limit>"}},
      {urdf(link("a") + link("b") + joint("j", "prismatic", "a", "b", "")),
       "<joint name=\"j\"",
       {"joint 'j'", "needs a <limit>"}},
      {urdf(
           link("a") + link("b") +
           joint("j", "revolute", "a", "b", "  <limit lower=\"0\" upper=\"1\" velocity=\"1\"/>\n")),
       "<limit",
       {"joint 'j'", "no attribute 'effort'"}},
      {urdf(link("a") + link("b") +
            joint("j", "continuous", "a", "b", "  <limit effort=\"1\"/>\n")),
       "<limit",
       {"joint 'j'", "no attribute 'velocity'"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b",
                  "  <limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>\n")),
       "<limit",
       {"joint 'j'", "lower limit above upper limit"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", "  <limit effort=\"-1\" velocity=\"1\"/>\n")),
       "<limit",
       {"joint 'j'", "negative effort limit"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b", lim + "  <mimic joint=\"nope\"/>\n")),
       "<mimic",
       {"joint 'j'", "mimics an unknown joint 'nope'"}},
      {urdf(link("a") + link("b") + link("c") + joint("f", "fixed", "a", "c") +
            joint("j", "revolute", "a", "b", lim + "  <mimic joint=\"f\"/>\n")),
       "<mimic",
       {"joint 'j'", "mimics the fixed joint 'f'"}},
      {urdf(link("a") + link("b") + joint("j", "revolute", "a", "b", lim + "  <mimic/>\n")),
       "<mimic",
       {"joint 'j'", "no attribute 'joint'"}},
      {urdf(link("a") + link("b") +
            joint("j", "revolute", "a", "b",
                  lim + "  <origin xyz=\"0 0 1\"/>\n  <origin xyz=\"0 0 2\"/>\n")),
       "<origin xyz=\"0 0 2\"",
       {"joint 'j'", "more than one <origin>"}},
      {urdf(link("a", inertial() + inertial())),
       "<inertial>",
       {"link 'a'", "more than one <inertial>"}},
      {urdf(link("a") + link("b") +
            joint("f", "fixed", "a", "b", "  <origin xyz=\"1e200 0 0\"/>\n")),
       "",
       {"body 'a'", "merged from its fixed bodies is not finite"}},
      {urdf(link("a", inertial("1e300", good_inertia, "xyz=\"1e10 0 0\""))),
       "<inertial>",
       {"link 'a'", "non-finite"}},
      {urdf(""), "<robot", {"no <link>"}},
      {"<?xml version=\"1.0\"?>\n<model name=\"m\"/>\n",
       "<model",
       {"the root element is <model>, expected <robot>"}},
      {urdf(link("a")) + "<robot name=\"again\"/>\n",
       "<robot name=\"again\"",
       {"second top-level element <robot>"}},
      {"<robot name=\"r\">\n<link name=\"a\">\n</robot>\n",
       "",
       {"XML parse error", "Line number=2"}},
      {"", "", {"XML parse error"}},
  };
  for (const Case& c : cases) {
    INFO(c.xml);
    try {
      liedyn::load_urdf_string(c.xml);
      FAIL("no exception");
    } catch (const ModelError& e) {
      const std::string msg = e.what();
      INFO(msg);
      CHECK_THAT(msg, StartsWith("liedyn: URDF: "));
      for (const std::string& s : c.says) CHECK_THAT(msg, Contains(s));
      if (!c.at.empty()) CHECK_THAT(msg, Contains(line_of(c.xml, c.at) + ":"));
    }
  }
  // A triangle-inequality violation is refused under InertiaPolicy::strict (link and line), and
  // loaded as written, with a diagnostic, under the default lenient policy.
  {
    const std::string tri = urdf(link(
        "a", inertial("1", "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.5\"")));
    liedyn::UrdfOptions strict;
    strict.inertia = liedyn::InertiaPolicy::strict;
    CHECK_THROWS_WITH(liedyn::load_urdf_string(tri, strict),
                      StartsWith("liedyn: URDF: " + line_of(tri, "<inertial>") + ": link 'a'") &&
                          Contains("triangle inequality"));
    const Model<double> lenient = liedyn::load_urdf_string(tri);
    REQUIRE(lenient.diagnostics().size() == 1);
    CHECK(lenient.diagnostics()[0].kind == liedyn::DiagnosticKind::triangle_inequality);
  }
  // Options.
  liedyn::UrdfOptions bad;
  bad.gravity = Vector3<double>(0, 0, std::numeric_limits<double>::quiet_NaN());
  CHECK_THROWS_WITH(liedyn::load_urdf_string(urdf(link("a")), bad),
                    StartsWith("liedyn: URDF: options: ") && Contains("gravity"));
  // Files: the path starts the message.
  const std::string missing = kData + "/no_such_robot.urdf";
  CHECK_THROWS_WITH(liedyn::load_urdf_file(missing),
                    StartsWith("liedyn: URDF: " + missing + ": ") && Contains("cannot open"));
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() /
      ("liedyn_test_urdf_" + std::to_string(std::random_device{}()) + ".urdf");
  const std::string ball = urdf(link("a") + link("b") + joint("j", "ball", "a", "b"));
  {
    std::ofstream out(tmp);
    out << ball;
  }
  CHECK_THROWS_WITH(liedyn::load_urdf_file(tmp.string()),
                    StartsWith("liedyn: URDF: " + tmp.string() + ": " + line_of(ball, "<joint") +
                               ": joint 'j': unknown joint type 'ball'"));
  std::filesystem::remove(tmp);
}

TEST_CASE("URDF: thousands of corrupted files give a model or a clean exception",
          "[urdf][robustness]") {
  // Bases: the project's two robots, Solo-12 and a small hand-written file; every 16th case
  // corrupts Talos (larger, slower to parse).
  const std::vector<std::string> bases{
      read_text(kExamples + "/humanoid.urdf"), read_text(kExamples + "/quadruped.urdf"),
      read_text(kData + "/solo12.urdf"),
      urdf(link("r") + link("a") +
           joint("j", "revolute", "r", "a",
                 "  <origin xyz=\"0 0 1\" rpy=\"0 0 0\"/>\n  <axis xyz=\"0 1 0\"/>\n"
                 "  <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n") +
           link("b") + joint("k", "fixed", "a", "b", "  <origin xyz=\"0.1 0 0\"/>\n")),
      read_text(kData + "/talos.urdf")};
  const std::vector<std::string> numbers{"nan",
                                         "NaN",
                                         "-nan",
                                         "inf",
                                         "-inf",
                                         "infinity",
                                         "1e308",
                                         "-1e308",
                                         "1.7976931348623157e308",
                                         "1e400",
                                         "-1e400",
                                         "1e-320",
                                         "4.9e-324",
                                         "-1",
                                         "-0",
                                         "0",
                                         "",
                                         " ",
                                         "abc",
                                         "1e",
                                         "0x1p3",
                                         "1 2",
                                         "1,5",
                                         "+3",
                                         "--1",
                                         "1e308 1e308 1e308",
                                         "1e-308",
                                         "-1e-300",
                                         "1e154",
                                         "3e200"};
  const std::vector<std::string> tags{"link",    "joint",  "inertial", "origin",  "mass",
                                      "inertia", "parent", "child",    "axis",    "limit",
                                      "mimic",   "robot",  "visual",   "dynamics"};
  const std::vector<std::string> types{"revolute", "continuous", "prismatic", "fixed",
                                       "floating", "planar",     "ball",      ""};
  std::mt19937 rng(20240611u);
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  // Positions of every occurrence of `what` in s.
  auto find_all = [](const std::string& s, const std::string& what) {
    std::vector<std::size_t> at;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
      at.push_back(p);
    return at;
  };
  auto mutate = [&](std::string& s) -> std::string {
    switch (pick(11)) {
      case 0: {  // truncate
        s.resize(pick(s.size() + 1));
        return "truncate";
      }
      case 1: {  // swap two tag names
        const std::string a = tags[pick(tags.size())], b = tags[pick(tags.size())];
        const auto pa = find_all(s, "<" + a), pb = find_all(s, "<" + b);
        if (pa.empty() || pb.empty()) return "swap (none)";
        const std::size_t x = pa[pick(pa.size())], y = pb[pick(pb.size())];
        if (x == y) return "swap (same)";
        if (x < y) {  // the later one first, so that the earlier position stays valid
          s.replace(y + 1, b.size(), a);
          s.replace(x + 1, a.size(), b);
        } else {
          s.replace(x + 1, a.size(), b);
          s.replace(y + 1, b.size(), a);
        }
        return "swap <" + a + "> <" + b + ">";
      }
      case 2:
      case 3: {  // replace an attribute value (numbers mostly) by a nasty number
        const auto q = find_all(s, "=\"");
        if (q.empty()) return "value (none)";
        const std::size_t p = q[pick(q.size())] + 2, e = s.find('"', p);
        if (e == std::string::npos) return "value (open)";
        const std::string v = numbers[pick(numbers.size())];
        s = s.substr(0, p) + v + s.substr(e);
        return "value " + v;
      }
      case 4: {  // negative inertia or mass
        static const char* const keys[] = {"ixx=\"", "iyy=\"", "izz=\"", "ixy=\"", "value=\""};
        const auto q = find_all(s, keys[pick(5)]);
        if (q.empty()) return "negative (none)";
        const std::size_t p = s.find('"', q[pick(q.size())]) + 1;
        s.insert(p, "-");
        return "negative";
      }
      case 5: {  // remove an attribute
        const auto q = find_all(s, "=\"");
        if (q.empty()) return "remove attribute (none)";
        const std::size_t p = q[pick(q.size())];
        std::size_t b = s.rfind(' ', p), e = s.find('"', p + 2);
        if (b == std::string::npos || e == std::string::npos) return "remove attribute (edge)";
        s.erase(b, e + 1 - b);
        return "remove attribute";
      }
      case 6: {  // delete or duplicate a line
        const auto nl = find_all(s, "\n");
        if (nl.size() < 2) return "line (none)";
        const std::size_t k = pick(nl.size() - 1), b = nl[k] + 1, e = nl[k + 1] + 1;
        if (pick(2)) s.erase(b, e - b);
        else s.insert(b, s.substr(b, e - b));
        return "line";
      }
      case 7: {  // a random byte
        if (s.empty()) return "byte (empty)";
        static const char specials[] = "<>\"/&=!?- \n\x01\x7f\xff";
        s[pick(s.size())] =
            pick(2) ? specials[pick(sizeof specials - 1)] : static_cast<char>(32 + pick(95));
        return "byte";
      }
      case 8: {  // swap parent and child of a joint (loops, several roots)
        const auto q = find_all(s, "<parent link=\"");
        if (q.empty()) return "reverse (none)";
        const std::size_t p = q[pick(q.size())];
        const std::size_t pb = p + 14, pe = s.find('"', pb);
        const std::size_t cq = s.find("<child link=\"", pe);
        if (pe == std::string::npos || cq == std::string::npos) return "reverse (edge)";
        const std::size_t cb = cq + 13, ce = s.find('"', cb);
        if (ce == std::string::npos) return "reverse (edge)";
        const std::string parent = s.substr(pb, pe - pb), child = s.substr(cb, ce - cb);
        s = s.substr(0, pb) + child + s.substr(pe, cb - pe) + parent + s.substr(ce);
        return "reverse";
      }
      case 9: {  // another joint type
        const auto q = find_all(s, "type=\"");
        if (q.empty()) return "type (none)";
        const std::size_t p = q[pick(q.size())] + 6, e = s.find('"', p);
        if (e == std::string::npos) return "type (open)";
        const std::string t = types[pick(types.size())];
        s = s.substr(0, p) + t + s.substr(e);
        return "type " + t;
      }
      default: {  // insert junk
        static const char* const junk[] = {"<",    "</link>",           "<joint>",   "&amp;",
                                           "&#0;", "&bogus;",           "<![CDATA[", "<!--",
                                           "\"",   "<link name=\"x\"/>"};
        const std::string j = junk[pick(10)];
        s.insert(pick(s.size() + 1), j);
        return "junk " + j;
      }
    }
  };

  const int cases = 3000;
  int loaded = 0, rejected = 0;
  for (int k = 0; k < cases; ++k) {
    std::string doc = bases[k % 16 == 15 ? 4 : pick(4)];
    std::string what;
    const std::size_t n = 1 + pick(3);
    for (std::size_t t = 0; t < n; ++t) what += mutate(doc) + "; ";
    try {
      const Model<double> m = liedyn::load_urdf_string(doc);
      ++loaded;
      // A model that loads is well formed.
      bool ok =
          m.num_bodies() >= 1 && m.frames().size() >= static_cast<std::size_t>(m.num_bodies());
      for (int i = 0; i < m.num_bodies(); ++i) {
        ok = ok && m.inertia(i).matrix().allFinite();
        if (i == 0) continue;
        ok = ok && m.parent(i) >= 0 && m.parent(i) < i &&
             m.joint(i).placement.matrix().allFinite() &&
             std::abs(m.joint(i).axis.norm() - 1) < 1e-12 && !(m.joint(i).lower > m.joint(i).upper);
      }
      if (!ok) {
        INFO("case " << k << ": " << what << "\n" << doc);
        FAIL("an ill-formed model loaded");
      }
    } catch (const ModelError& e) {
      ++rejected;
      if (std::string(e.what()).rfind("liedyn: URDF: ", 0) != 0) {
        INFO("case " << k << ": " << what << "\n" << e.what());
        FAIL("a ModelError without the loader's prefix");
      }
    } catch (const std::exception& e) {
      INFO("case " << k << ": " << what << "\n" << doc);
      FAIL("unexpected exception: " << e.what());
    } catch (...) {
      INFO("case " << k << ": " << what << "\n" << doc);
      FAIL("unexpected exception of unknown type");
    }
  }
  INFO("loaded " << loaded << ", rejected " << rejected);  // 430 and 2570 with libstdc++
  CHECK(loaded + rejected == cases);
  CHECK(loaded > cases / 20);   // the mutations leave some files valid ...
  CHECK(rejected > cases / 2);  // ... and break most
}

}  // namespace LIEDYN_UNITY_ID
