// Loading real robot files: the inertia policy (strict, lenient, balance) on a corpus of the
// failure modes seen in public robot descriptions (tests/data/make_imperfect_urdfs.py), point
// masses at many offsets, and lock_joints.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/algorithm/reference_dynamics.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/model/armature.hpp>
#include <liedyn/model/lock_joints.hpp>
#include <liedyn/model/urdf.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using namespace liedyn;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kData = LIEDYN_TEST_DATA_DIR;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "line N" of the first occurrence of `needle` after `after` in `text`.
std::string line_after(const std::string& text, const std::string& after,
                       const std::string& needle) {
  const std::size_t a = text.find(after);
  REQUIRE(a != std::string::npos);
  const std::size_t pos = text.find(needle, a);
  REQUIRE(pos != std::string::npos);
  return "line " +
         std::to_string(
             1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

Model<double> load(const std::string& file, InertiaPolicy p) {
  UrdfOptions opt;
  opt.inertia = p;
  return load_urdf_file(kData + "/" + file, opt);
}

// The model of a URDF rebuilt independently from its numbers as written: every <inertial> read
// by hand here (tinyxml2), the inertia built from (m, I_c, origin) with no check at all (the
// builder's PositiveDefinite mode), the tree from the loaded model's joints. "No hidden change":
// the loaded model's dynamics must equal this one's.
Model<double> as_written(const std::string& file, const Model<double>& loaded) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile((kData + "/" + file).c_str()) == tinyxml2::XML_SUCCESS);
  std::map<std::string, SpatialInertia<double>> inertia;
  for (auto* l = doc.RootElement()->FirstChildElement("link"); l;
       l = l->NextSiblingElement("link")) {
    SpatialInertia<double> I;
    if (auto* in = l->FirstChildElement("inertial")) {
      double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
      if (auto* o = in->FirstChildElement("origin")) {
        std::istringstream(o->Attribute("xyz")) >> xyz[0] >> xyz[1] >> xyz[2];
        std::istringstream(o->Attribute("rpy")) >> rpy[0] >> rpy[1] >> rpy[2];
      }
      const double m = in->FirstChildElement("mass")->DoubleAttribute("value");
      auto* t = in->FirstChildElement("inertia");
      Matrix3<double> Ic;
      Ic << t->DoubleAttribute("ixx"), t->DoubleAttribute("ixy"), t->DoubleAttribute("ixz"),  //
          t->DoubleAttribute("ixy"), t->DoubleAttribute("iyy"), t->DoubleAttribute("iyz"),    //
          t->DoubleAttribute("ixz"), t->DoubleAttribute("iyz"), t->DoubleAttribute("izz");
      const Matrix3<double> R = (Eigen::AngleAxisd(rpy[2], Vector3<double>::UnitZ()) *
                                 Eigen::AngleAxisd(rpy[1], Vector3<double>::UnitY()) *
                                 Eigen::AngleAxisd(rpy[0], Vector3<double>::UnitX()))
                                    .toRotationMatrix();
      const Vector3<double> c(xyz[0], xyz[1], xyz[2]);
      I = SpatialInertia<double>::from_mass_com_inertia(m, c,
                                                        Matrix3<double>(R * Ic * R.transpose()));
    }
    inertia[l->Attribute("name")] = I;
  }
  ModelBuilder<double> b(loaded.base_type(), loaded.body_name(0));
  b.set_inertia_check(InertiaCheck::PositiveDefinite);
  b.set_base_inertia(inertia.at(loaded.body_name(0)));
  for (int i = 1; i < loaded.num_bodies(); ++i) {
    const Joint<double>& j = loaded.joint(i);
    JointSpec<double> spec = JointSpec<double>::revolute(j.name, j.axis, j.placement);
    b.add_body(loaded.body_name(loaded.parent(i)), loaded.body_name(i), spec,
               inertia.at(loaded.body_name(i)));
  }
  // Fixed links: frames of the loaded model that are not bodies.
  for (std::size_t f = static_cast<std::size_t>(loaded.num_bodies()); f < loaded.frames().size();
       ++f) {
    const Frame<double>& fr = loaded.frame(static_cast<int>(f));
    b.add_fixed_body(loaded.body_name(fr.body), fr.name, fr.placement, inertia.at(fr.name));
  }
  return b.build();
}

// Lenient loading hides nothing: M, inverse and forward dynamics of the loaded model equal the
// textbook reference route (M column by column from inverse dynamics, an LLT solve) on the model
// rebuilt from the file as written.
void check_as_written(const std::string& file, const Model<double>& loaded, bool invertible) {
  const Model<double> ref = as_written(file, loaded);
  REQUIRE(ref.nv() == loaded.nv());
  Data<double> d(loaded), dr(ref);
  std::mt19937 gen(3);
  for (int k = 0; k < 3; ++k) {
    const State<double> x = random_state(loaded, gen);
    VectorX<double> a = VectorX<double>::Random(loaded.nv());
    const MatrixX<double> M = crba(loaded, d, x);
    MatrixX<double> M_ref;
    mass_matrix_from_inverse_dynamics(ref, dr, x, M_ref);
    // Two association orders of the same sums: a few ulps of the largest entry.
    CHECK(test::relative_error(M, M_ref) < 1e-13);
    const VectorX<double> tau = rnea(loaded, d, x, a);
    const VectorX<double> tau_ref = rnea(ref, dr, x, a);
    CHECK(test::relative_error(tau, tau_ref) < 1e-13);  // same: round-off of two trees
    if (invertible) {
      const VectorX<double> ddq = aba(loaded, d, x, tau);
      const VectorX<double> ddq_ref = forward_dynamics_llt(ref, dr, x, tau);
      // Forward dynamics amplify round-off by the condition number of M (≤ 1e6 here).
      CHECK(test::relative_error(ddq, ddq_ref) < 1e-9);
    }
  }
}

}  // namespace

TEST_CASE("loading: lenient loads the imperfect corpus as written, with the exact diagnostics",
          "[urdf][loading]") {
  const std::string file = "imperfect_inertias.urdf";
  const std::string text = read_text(kData + "/" + file);
  const Model<double> m = load(file, InertiaPolicy::lenient);
  struct Expected {
    std::string link;
    DiagnosticKind kind;
    double magnitude;
  };
  // Triangle excesses λ3 − λ1 − λ2 as written; placeholder ratios trace / (6/5 m R²), R the radius
  // of an osmium ball of mass m (22 590 kg/m³).
  auto ratio = [](double m, double trace) {
    const double R = std::cbrt(3.0 * m / (4.0 * 3.14159265358979323846 * 22590.0));
    return trace / (1.2 * m * R * R);
  };
  const std::vector<Expected> expected = {
      {"trunk", DiagnosticKind::triangle_inequality, 0.11 - 0.02 - 0.08},
      {"left_thigh", DiagnosticKind::placeholder_inertia, ratio(1.2, 3e-6)},
      {"right_thigh", DiagnosticKind::placeholder_inertia, ratio(1.2, 3e-6)},
      {"gripper", DiagnosticKind::triangle_inequality, 0.03 - 0.01 - 0.01925},
      {"camera", DiagnosticKind::triangle_inequality, 5e-4 - 1e-4 - 1e-4},
      {"imu", DiagnosticKind::placeholder_inertia, ratio(0.5, 3e-6)},
      {"sensor_mount", DiagnosticKind::massless_subtree, 0.0},
  };
  REQUIRE(m.diagnostics().size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const ModelDiagnostic& d = m.diagnostics()[k];
    INFO(d.message);
    CHECK(d.link == expected[k].link);
    CHECK(d.kind == expected[k].kind);
    // The eigenvalues of a rotated diagonal inertia: to 1e-14 relative (a few ulps of 0.11).
    CHECK(std::abs(d.magnitude - expected[k].magnitude) <=
          1e-14 * std::max(1.0, std::abs(expected[k].magnitude)));
    CHECK_THAT(d.message, Contains("link '" + expected[k].link + "'"));
    if (expected[k].kind != DiagnosticKind::massless_subtree)
      CHECK_THAT(d.message, StartsWith(line_after(text, "<link name=\"" + expected[k].link + "\"",
                                                  "<inertial>") +
                                       ": "));
  }
  CHECK_THAT(m.diagnostics()[3].message, Contains("(2.5 % of l3)"));
  CHECK(m.singular_joints() ==
        std::vector<int>{m.joint_id("sensor_pan"), m.joint_id("sensor_tilt")});
  check_as_written(file, m, /*invertible=*/false);
}

TEST_CASE("loading: strict refuses the imperfect corpus naming the link and the line",
          "[urdf][loading]") {
  const std::string file = "imperfect_inertias.urdf";
  const std::string text = read_text(kData + "/" + file);
  CHECK_THROWS_WITH(load(file, InertiaPolicy::strict),
                    Contains(line_after(text, "<link name=\"trunk\"", "<inertial>") +
                             ": link 'trunk' <inertial>") &&
                        Contains("triangle inequality") && Contains("by 0.01 kg m^2"));
  // Each offending link on its own is refused by name: cut the file after the link.
  for (const std::string link : {"gripper", "camera"}) {
    std::string one = text;
    // Make the trunk consistent, so that the next violation is the first.
    const std::string bad_trunk = "ixx=\"0.02\" ixy=\"0\" ixz=\"0\" iyy=\"0.08\"";
    REQUIRE(one.find(bad_trunk) != std::string::npos);
    one.replace(one.find(bad_trunk), bad_trunk.size(),
                "ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.08\"");
    if (link == "camera") {
      const std::string bad = "ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01925\"";
      one.replace(one.find(bad), bad.size(), "ixx=\"0.015\" ixy=\"0\" ixz=\"0\" iyy=\"0.01925\"");
    }
    UrdfOptions strict;
    strict.inertia = InertiaPolicy::strict;
    CHECK_THROWS_WITH(load_urdf_string(one, strict),
                      Contains(line_after(one, "<link name=\"" + link + "\"", "<inertial>") +
                               ": link '" + link + "'") &&
                          Contains("triangle inequality"));
  }
}

TEST_CASE("loading: balance makes every offending inertia consistent and reports each change",
          "[urdf][loading]") {
  const std::string file = "imperfect_inertias.urdf";
  const Model<double> lenient = load(file, InertiaPolicy::lenient);
  const Model<double> balanced = load(file, InertiaPolicy::balance);
  std::map<std::string, double> delta;
  for (const ModelDiagnostic& d : balanced.diagnostics()) {
    CHECK(d.kind != DiagnosticKind::triangle_inequality);
    if (d.kind == DiagnosticKind::balanced_inertia) delta[d.link] = d.magnitude;
  }
  REQUIRE(delta.size() == 3);
  CHECK(delta.at("trunk") == Approx(0.01).epsilon(1e-13));
  CHECK(delta.at("gripper") == Approx(0.00075).epsilon(1e-12));
  CHECK(delta.at("camera") == Approx(0.0003).epsilon(1e-12));
  // The bodies: consistent now (the camera is merged into the trunk), and each differs from the
  // lenient one by exactly δ·1 (isotropic, so the same about any point and in any frame).
  for (int i = 0; i < balanced.num_bodies(); ++i) {
    const std::string& name = balanced.body_name(i);
    INFO(name);
    std::string why;
    CHECK(balanced.inertia(i).is_physically_valid(&why, /*allow_degenerate=*/true));
    double added = 0.0;
    if (delta.count(name)) added += delta.at(name);
    if (name == "trunk") added += delta.at("camera");
    const Matrix3<double> diff =
        balanced.inertia(i).inertia_origin() - lenient.inertia(i).inertia_origin();
    // The added diagonal to round-off of the inertias' size (0.11 kg m²).
    CHECK((diff - added * Matrix3<double>::Identity()).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(balanced.inertia(i).mass() == lenient.inertia(i).mass());
    CHECK(balanced.inertia(i).first_moment() == lenient.inertia(i).first_moment());
  }
  // Balanced to the boundary λ1 + λ2 = λ3, the least change: a lone trunk's moments become
  // 0.03, 0.09, 0.12 (the body above also holds the merged camera and IMU).
  UrdfOptions opt;
  opt.inertia = InertiaPolicy::balance;
  const Model<double> trunk = load_urdf_string(
      "<robot name=\"t\">\n<link name=\"trunk\">\n  <inertial>\n    <mass value=\"8\"/>\n    "
      "<inertia ixx=\"0.02\" "
      "ixy=\"0\" ixz=\"0\" iyy=\"0.08\" iyz=\"0\" izz=\"0.11\"/>\n  "
      "</inertial>\n</link>\n</robot>\n",
      opt);
  const Eigen::SelfAdjointEigenSolver<Matrix3<double>> es(trunk.inertia(0).inertia_com());
  // Sums of three numbers of size 0.1: a few ulps.
  CHECK(std::abs(es.eigenvalues()(0) + es.eigenvalues()(1) - es.eigenvalues()(2)) < 1e-16);
  CHECK(es.eigenvalues()(0) == Approx(0.03).epsilon(1e-14));
}

TEST_CASE("loading: point masses at 24 offsets load under every policy, as written",
          "[urdf][loading]") {
  const std::string file = "point_masses.urdf";
  for (InertiaPolicy p : {InertiaPolicy::strict, InertiaPolicy::lenient, InertiaPolicy::balance}) {
    INFO(to_string(p));
    const Model<double> m = load(file, p);
    CHECK(m.num_joints() == 24);
    CHECK(m.diagnostics().empty());
  }
  const Model<double> m = load(file, InertiaPolicy::lenient);
  // The point masses sit at their offsets: first moment m c, exactly the file's numbers moved by
  // the <inertial> rpy-free translation (the rpy of a zero I_c changes nothing).
  check_as_written(file, m, /*invertible=*/true);
}

TEST_CASE("loading: the shipped robots load without diagnostics", "[urdf][loading]") {
  for (const std::string file : {"solo12.urdf", "talos.urdf"}) {
    INFO(file);
    const Model<double> m = load(file, InertiaPolicy::lenient);
    for (const ModelDiagnostic& d : m.diagnostics()) INFO(d.message);
    CHECK(m.diagnostics().empty());
    CHECK_NOTHROW(load(file, InertiaPolicy::strict));
  }
}

TEST_CASE("loading: errors at every level stay errors", "[urdf][loading]") {
  auto one_link = [](const std::string& mass, const std::string& inertia) {
    return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n<link name=\"a\">\n  <inertial>\n    "
           "<mass value=\"" +
           mass + "\"/>\n    <inertia " + inertia + "/>\n  </inertial>\n</link>\n</robot>\n";
  };
  const std::string diag = "ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"";
  const std::string nsd = "ixx=\"-0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"";
  for (InertiaPolicy p : {InertiaPolicy::strict, InertiaPolicy::lenient, InertiaPolicy::balance}) {
    INFO(to_string(p));
    UrdfOptions opt;
    opt.inertia = p;
    CHECK_THROWS_WITH(load_urdf_string(one_link("-1", diag), opt),
                      Contains("line 4: link 'a'") && Contains("negative mass"));
    CHECK_THROWS_WITH(
        load_urdf_string(one_link("0", diag), opt),
        Contains("link 'a'") && Contains("zero mass with a non-zero rotational inertia"));
    CHECK_THROWS_WITH(load_urdf_string(one_link("1", nsd), opt),
                      Contains("link 'a'") && Contains("not positive semi-definite"));
    CHECK_THROWS_WITH(load_urdf_string(one_link("nan", diag), opt),
                      Contains("link 'a'") && Contains("not a finite decimal"));
    CHECK_THROWS_WITH(
        load_urdf_string(
            one_link("1", "ixx=\"inf\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\""),
            opt),
        Contains("link 'a'"));
  }
  // The builder: an asymmetric inertia, whatever the policy.
  Matrix3<double> asym = Vector3<double>(0.1, 0.1, 0.1).asDiagonal();
  asym(0, 1) = 0.01;
  for (InertiaPolicy p : {InertiaPolicy::strict, InertiaPolicy::lenient, InertiaPolicy::balance}) {
    ModelBuilder<double> b;
    b.set_inertia_policy(p);
    CHECK_THROWS_WITH(
        b.add_body("base", "a", JointSpec<double>::revolute("j", Vector3<double>::UnitZ()),
                   SpatialInertia<double>::from_moments(1.0, Vector3<double>::Zero(), asym)),
        Contains("body 'a'") && Contains("not symmetric"));
  }
  // The builder's lenient and balance levels, like the loader's.
  const SpatialInertia<double> tri = SpatialInertia<double>::from_mass_com_inertia(
      1.0, Vector3<double>(0.1, 0, 0), Vector3<double>(0.1, 0.1, 0.3).asDiagonal());
  ModelBuilder<double> lb;
  lb.set_inertia_policy(InertiaPolicy::lenient);
  lb.add_body("base", "a", JointSpec<double>::revolute("j", Vector3<double>::UnitZ()), tri);
  const Model<double> lm = lb.build();
  REQUIRE(lm.diagnostics().size() == 1);
  CHECK(lm.diagnostics()[0].kind == DiagnosticKind::triangle_inequality);
  CHECK(lm.diagnostics()[0].magnitude == Approx(0.1).epsilon(1e-13));
  CHECK(lm.inertia(1).isApprox(tri, 1e-15));
  ModelBuilder<double> bb;
  bb.set_inertia_policy(InertiaPolicy::balance);
  bb.add_body("base", "a", JointSpec<double>::revolute("j", Vector3<double>::UnitZ()), tri);
  CHECK(bb.build().inertia(1).is_physically_valid(nullptr, true));
}

TEST_CASE("loading: with_armature adds the armature to M's diagonal, the rest unchanged",
          "[urdf][loading][armature]") {
  // talos: mimic relations and merged fixed frames to carry over. M changes by diag(0_6, a)
  // exactly (the armature is added to M's diagonal, nothing else moves): 1e-12 of M's scale.
  const Model<double> full = load_urdf_file(kData + "/talos.urdf");
  VectorX<double> a(full.nv_joints());
  for (int k = 0; k < a.size(); ++k) a(k) = 0.01 * (k + 1);
  const Model<double> geared = with_armature(full, a);
  CHECK(geared.num_joints() == full.num_joints());
  CHECK(geared.frames().size() == full.frames().size());
  CHECK(geared.mimic_relations().size() == full.mimic_relations().size());
  CHECK(geared.total_mass() == full.total_mass());
  std::mt19937 gen(5);
  const State<double> x = random_state(full, gen);
  Data<double> df(full), dg(geared);
  MatrixX<double> expected = crba(full, df, x);
  expected.diagonal().tail(full.nv_joints()) += a;
  const MatrixX<double>& M = crba(geared, dg, x);
  CHECK((M - expected).cwiseAbs().maxCoeff() < 1e-12 * expected.cwiseAbs().maxCoeff());

  CHECK_THROWS_WITH(with_armature(full, VectorX<double>::Zero(3)),
                    Catch::Contains("with_armature: armature has size 3, expected"));
  // A multi-DoF joint's entries must be equal (a tree of every joint type).
  std::mt19937 rng(3);
  RandomModelOptions opt;
  opt.every_joint_type = true;
  const Model<double> tree = random_model(14, rng, opt);
  VectorX<double> b = VectorX<double>::Constant(tree.nv_joints(), 0.1);
  const Model<double> geared_tree = with_armature(tree, b);
  int multi = 0;
  for (int i = 1; i < tree.num_bodies(); ++i) {
    CHECK(geared_tree.joint(i).armature == 0.1);
    if (!multi && tree.joint(i).nv() > 1) multi = i;
  }
  REQUIRE(multi > 0);
  b(tree.r_index(multi) + 1) = 0.2;
  CHECK_THROWS_WITH(with_armature(tree, b), Catch::Contains("joint '" + tree.joint_name(multi) +
                                                            "' has unequal armature entries"));
}

TEST_CASE("loading: lock_joints gives the full model's restricted dynamics",
          "[urdf][loading][lock]") {
  const Model<double> full = load_urdf_file(kData + "/talos.urdf");
  // An arm's wrist and a gripper motor (its six mimicking finger joints are locked with it).
  const std::vector<std::string> names = {"arm_left_7_joint", "gripper_left_joint",
                                          "arm_right_5_joint"};
  const std::vector<double> q = {0.3, 0.1, -0.7};
  const Model<double> locked = lock_joints(full, names, q);
  std::vector<char> gone(full.num_bodies(), 0);
  for (const std::string& n : names) gone[full.joint_id(n)] = 1;
  for (const MimicRelation& r : full.mimic_relations())
    if (r.leader == full.joint_id("gripper_left_joint")) gone[r.joint] = 1;
  int kept = 0;
  for (int i = 1; i < full.num_bodies(); ++i) kept += !gone[i];
  REQUIRE(locked.num_joints() == kept);
  CHECK(locked.num_joints() == full.num_joints() - 9);
  CHECK(locked.total_mass() == Approx(full.total_mass()).epsilon(1e-14));
  CHECK(locked.frames().size() == full.frames().size());

  // The full state: the locked joints at their positions (followers at multiplier q + offset) and
  // at rest; the others random. Coordinates of the remaining joints: the same names.
  std::mt19937 gen(11);
  for (int trial = 0; trial < 3; ++trial) {
    const State<double> xl = random_state(locked, gen);
    State<double> xf(full);
    xf.H = xl.H;
    xf.nu = xl.nu;
    std::vector<int> rows;
    for (int d = 0; d < 6; ++d) rows.push_back(d);
    for (int i = 1; i < full.num_bodies(); ++i) {
      const int j = locked.joint_id(full.joint_name(i));
      if (j < 0) continue;
      xf.s(i - 1) = xl.s(j - 1);
      xf.r(i - 1) = xl.r(j - 1);
      rows.push_back(full.v_index(i));
    }
    for (std::size_t k = 0; k < names.size(); ++k) xf.s(full.joint_id(names[k]) - 1) = q[k];
    for (const MimicRelation& r : full.mimic_relations())
      if (r.leader == full.joint_id("gripper_left_joint"))
        xf.s(r.joint - 1) = r.multiplier * 0.1 + r.offset;
    REQUIRE(static_cast<int>(rows.size()) == locked.nv());

    Data<double> df(full), dl(locked);
    const MatrixX<double> Mf = crba(full, df, xf);
    const MatrixX<double> Ml = crba(locked, dl, xl);
    MatrixX<double> sub(locked.nv(), locked.nv());
    for (int a = 0; a < locked.nv(); ++a)
      for (int b = 0; b < locked.nv(); ++b) sub(a, b) = Mf(rows[a], rows[b]);
    // Merged inertias are sums in another order: round-off of the largest entries.
    CHECK(test::relative_error(Ml, sub) < 1e-13);
    VectorX<double> al = VectorX<double>::Random(locked.nv());
    VectorX<double> af = VectorX<double>::Zero(full.nv());
    for (int a = 0; a < locked.nv(); ++a) af(rows[a]) = al(a);
    const VectorX<double> tf = rnea(full, df, xf, af);
    const VectorX<double> tl = rnea(locked, dl, xl, al);
    VectorX<double> tsub(locked.nv());
    for (int a = 0; a < locked.nv(); ++a) tsub(a) = tf(rows[a]);
    CHECK(test::relative_error(tl, tsub) < 1e-13);  // as above
    // Frames keep their poses: every frame of the full model, by name.
    forward_kinematics(full, df, xf);
    forward_kinematics(locked, dl, xl);
    for (const Frame<double>& f : full.frames()) {
      INFO(f.name);
      const SE3<double> Hf = frame_pose(full, df, f.name);
      const SE3<double> Hl = frame_pose(locked, dl, f.name);
      // Composed placements: round-off of a chain of a dozen transforms of metre size.
      CHECK((Hf.matrix() - Hl.matrix()).cwiseAbs().maxCoeff() < 1e-13);
    }
  }
  // Diagnostics: one per locked joint (the followers say whom they follow).
  int locked_entries = 0;
  for (const ModelDiagnostic& d : locked.diagnostics())
    locked_entries += d.kind == DiagnosticKind::locked_joint;
  CHECK(locked_entries == 9);
  CHECK_THROWS_WITH(lock_joints(full, {"no_such_joint"}, {0.0}),
                    Contains("lock_joints: no joint named 'no_such_joint'"));
  CHECK_THROWS_AS(lock_joints(full, {"arm_left_7_joint"}, {}), InvalidArgument);
  CHECK_THROWS_AS(lock_joints(full, {"arm_left_7_joint", "arm_left_7_joint"}, {0.0, 0.0}),
                  InvalidArgument);
}

}  // namespace LIEDYN_UNITY_ID
