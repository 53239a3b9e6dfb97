// Test of the command-line tool: runs `liedyn eval` on a URDF and a STATE.json and compares its
// JSON output with the library called directly on the same state.
//
//   liedyn_cli_compare <liedyn executable> <ROBOT.urdf|ROBOT.xml> <STATE.json> [eval options...]
//
// The eval options (--fixed-base, --representation R, --discrete DT, --only K,...) are passed
// through to the tool and interpreted here too. The state file is read here with plain
// nlohmann-json (it must be valid: the tool's validation is tested elsewhere), independently of
// the tool's parser. Every key the tool prints must be expected (and vice versa), with the same
// shape, and agree to 1e-12 relative to the largest entry. Exit code 0 on success.
//
// The constrained linearization keys are also checked against what does not share their code
// path, since a call identical to the tool's would repeat a wrong argument (a representation not
// passed on, continuous instead of discrete) unnoticed:
// * dlambda_dx, dlambda_dtau against central finite differences of λ from
//   constrained_forward_dynamics, the state perturbed in --representation (numdiff);
// * the joint-velocity rows of constrained_A, constrained_B against finite differences of the
//   constrained joint accelerations — the body-twist rows too with --representation body, where
//   they are ∂ν̇/∂x; with --discrete those rows are δr⁺ = δr + Δt δs̈, so (A − [0 1]) / Δt is
//   compared, which the continuous A would fail;
// * with another --representation, the tool is run again with body: dlambda_dx's joint columns
//   (δs, δr: every other coordinate held, whatever the base-twist variable) must be the same, its
//   base columns (η, δt) must not — a check that the representation reaches these keys at all.
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/centroidal.hpp"
#include "liedyn/algorithm/constrained_linearization.hpp"
#include "liedyn/algorithm/coriolis.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/eidamb.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/energy.hpp"
#include "liedyn/algorithm/immamb.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "liedyn/model/mjcf.hpp"
#include "liedyn/model/urdf.hpp"
#include "liedyn/numdiff/finite_differences.hpp"

using json = nlohmann::json;
using namespace liedyn;

namespace {

int failures = 0;

void fail(const std::string& msg) {
  std::cerr << "FAIL: " << msg << "\n";
  ++failures;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A number (1-DoF joint) or an array of numbers, as a vector.
VectorX<double> numbers(const json& v) {
  if (v.is_number()) return VectorX<double>::Constant(1, v.get<double>());
  const std::vector<double> values = v.get<std::vector<double>>();
  return Eigen::Map<const VectorX<double>>(values.data(), static_cast<Eigen::Index>(values.size()));
}

// A joint's coordinates as the library stores them (README.md, STATE.json): a planar joint's
// "angle" θ becomes (cos θ, sin θ) after its position.
VectorX<double> configuration(const Joint<double>& joint, const json& e) {
  VectorX<double> q(joint.nq());
  switch (joint.type) {
    case JointType::Spherical: q = numbers(e["quaternion"]); break;
    case JointType::Free: q << numbers(e["position"]), numbers(e["quaternion"]); break;
    case JointType::Planar: {
      const double angle = e["angle"].get<double>();
      q << numbers(e["position"]), std::cos(angle), std::sin(angle);
      break;
    }
    default: q = numbers(e["position"]); break;
  }
  return q;
}

// The robot as the tool loads it: MJCF for a name ending in .xml (its own base), else URDF.
Model<double> load_robot(const std::string& path, bool fixed, const SE3<double>& pose) {
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0) {
    MjcfOptions opt;
    opt.unsupported = UnsupportedElements::skip;
    return load_mjcf_file(path, opt);
  }
  UrdfOptions opt;
  opt.weld_base = fixed;
  opt.welded_base_pose = pose;
  return load_urdf_file(path, opt);
}

TwistRepresentation rep_of(const std::string& s) {
  return s == "inertial" ? TwistRepresentation::Inertial
         : s == "mixed"  ? TwistRepresentation::Mixed
                         : TwistRepresentation::Body;
}

template <int N>
Eigen::Matrix<double, N, 1> vec(const json& j) {
  Eigen::Matrix<double, N, 1> v;
  for (int k = 0; k < N; ++k) v(k) = j.at(static_cast<std::size_t>(k)).get<double>();
  return v;
}

/// The tool's value as a matrix (vectors as one column); false if it is not numeric/rectangular.
bool to_matrix(const json& j, bool vector, MatrixX<double>& m) {
  if (!j.is_array()) return false;
  if (vector) {
    m.resize(static_cast<Eigen::Index>(j.size()), 1);
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_number()) return false;
      m(static_cast<Eigen::Index>(i), 0) = j[i].get<double>();
    }
    return true;
  }
  const std::size_t cols = j.empty() ? 0 : j[0].size();
  m.resize(static_cast<Eigen::Index>(j.size()), static_cast<Eigen::Index>(cols));
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_array() || j[i].size() != cols) return false;
    for (std::size_t k = 0; k < cols; ++k) {
      if (!j[i][k].is_number()) return false;
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = j[i][k].get<double>();
    }
  }
  return true;
}

void compare(const json& out, const std::string& key, const MatrixX<double>& expected, bool vector,
             double tol = 1e-12, const std::string& what = "") {
  MatrixX<double> got;
  if (!to_matrix(out.at(key), vector, got))
    return fail(key + ": not a numeric " + (vector ? "vector" : "matrix"));
  if (got.rows() != expected.rows() || got.cols() != expected.cols())
    return fail(key + ": shape " + std::to_string(got.rows()) + "x" + std::to_string(got.cols()) +
                ", expected " + std::to_string(expected.rows()) + "x" +
                std::to_string(expected.cols()));
  const double scale = expected.size() ? expected.cwiseAbs().maxCoeff() : 0.0;
  const double diff = expected.size() ? (got - expected).cwiseAbs().maxCoeff() : 0.0;
  const double rel = scale > 0 ? diff / scale : diff;
  std::printf("  %-18s %3dx%-3d  max rel. difference %.3g%s\n", key.c_str(), int(got.rows()),
              int(got.cols()), rel, what.empty() ? "" : ("  (" + what + ")").c_str());
  if (!(rel <= tol))
    fail(key + ": differs from " + (what.empty() ? std::string("the library") : what) + " by " +
         std::to_string(rel));
}

/// The largest |a − b| over the largest |b| (0 for empty matrices).
double rel_difference(const MatrixX<double>& a, const MatrixX<double>& b) {
  if (b.size() == 0) return 0.0;
  const double scale = b.cwiseAbs().maxCoeff();
  const double diff = (a - b).cwiseAbs().maxCoeff();
  return scale > 0 ? diff / scale : diff;
}

void compare_number(const json& out, const std::string& key, double expected) {
  if (!out.at(key).is_number()) return fail(key + ": not a number");
  const double got = out.at(key).get<double>();
  const double diff = std::fabs(got - expected), scale = std::fabs(expected);
  const double rel = scale > 0 ? diff / scale : diff;
  std::printf("  %-18s number   max rel. difference %.3g\n", key.c_str(), rel);
  if (!(rel <= 1e-12)) fail(key + ": differs from the library by " + std::to_string(rel));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: liedyn_cli_compare <liedyn> <ROBOT.urdf> <STATE.json> [eval options...]\n";
    return 2;
  }
  const std::string exe = argv[1], urdf = argv[2], state_path = argv[3];
  std::vector<std::string> extra(argv + 4, argv + argc);
  bool fixed = false;
  std::string rep_name = "body";
  double dt = 0.0;
  std::vector<std::string> only;
  std::string constraints_path;
  for (std::size_t k = 0; k < extra.size(); ++k) {
    if (extra[k] == "--fixed-base") fixed = true;
    else if (extra[k] == "--representation" && k + 1 < extra.size()) rep_name = extra[++k];
    else if (extra[k] == "--discrete" && k + 1 < extra.size()) dt = std::stod(extra[++k]);
    else if (extra[k] == "--constraints" && k + 1 < extra.size()) constraints_path = extra[++k];
    else if (extra[k] == "--only" && k + 1 < extra.size()) {
      std::stringstream ss(extra[++k]);
      for (std::string item; std::getline(ss, item, ',');) only.push_back(item);
    }
  }
  const TwistRepresentation rep = rep_of(rep_name);

  // --- run the tool -------------------------------------------------------------------------
  // `liedyn eval URDF --state STATE <args>` as JSON; false (and a message) if it fails.
  auto run_tool = [&](const std::vector<std::string>& args, json& result) {
    std::string cmd = quote(exe) + " eval " + quote(urdf) + " --state " + quote(state_path);
    for (const std::string& a : args) cmd += " " + quote(a);
    std::cout << "$ " << cmd << "\n";
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) {
      std::cerr << "FAIL: cannot run the tool\n";
      return false;
    }
    std::string text;
    char buf[65536];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, got);
    const int status = pclose(pipe);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::cerr << "FAIL: the tool did not exit with 0 (status " << status << ")\n" << text << "\n";
      return false;
    }
    try {
      result = json::parse(text);
    } catch (const std::exception& e) {
      std::cerr << "FAIL: the output is not JSON: " << e.what() << "\n"
                << text.substr(0, 2000) << "\n";
      return false;
    }
    return true;
  };
  json out;
  if (!run_tool(extra, out)) return 1;

  // --- the same state, read here --------------------------------------------------------------
  std::ifstream in(state_path);
  const json doc = json::parse(in);
  SE3<double> pose;
  const bool has_base = doc.contains("base");
  if (has_base && doc["base"].contains("position"))
    pose.translation() = vec<3>(doc["base"]["position"]);
  if (has_base && doc["base"].contains("quaternion"))
    pose.rotation() = SO3<double>::from_quaternion(vec<4>(doc["base"]["quaternion"])).matrix();
  const Model<double> model = load_robot(urdf, fixed, pose);
  const int n = model.num_joints(), nv = model.nv(), off = model.offset();
  const bool moving = model.has_moving_base();

  State<double> x(model);
  VectorX<double> acc = VectorX<double>::Zero(nv), tau_in = VectorX<double>::Zero(nv);
  const bool has_acc = doc["joints"].begin()->contains("acceleration") ||
                       (has_base && doc["base"].contains("acceleration"));
  const bool has_input = doc.contains("input");
  if (moving) {
    x.H = pose;
    const TwistRepresentation trep = rep_of(doc["base"]["twist_representation"].get<std::string>());
    x.nu = base_twist_to_body(pose, Vector6<double>(vec<6>(doc["base"]["twist"])), trep);
    if (has_acc)
      acc.head<6>() = base_acceleration_to_body(
          pose, x.nu, Vector6<double>(vec<6>(doc["base"]["acceleration"])), trep);
    if (has_input && doc["input"].contains("base_wrench"))
      tau_in.head<6>() = vec<6>(doc["input"]["base_wrench"]);
  }
  for (int i = 1; i <= n; ++i) {
    const json& e = doc["joints"][model.joint_name(i)];
    const int v = model.v_index(i), k = model.joint_nv(i);
    x.s.segment(model.q_index(i), model.joint_nq(i)) = configuration(model.joint(i), e);
    x.r.segment(model.r_index(i), k) = numbers(e["velocity"]);
    if (has_acc) acc.segment(v, k) = numbers(e["acceleration"]);
    if (has_input)
      tau_in.segment(v, k) = numbers(doc["input"]["joint_torques"][model.joint_name(i)]);
  }

  // --- expected keys and values ------------------------------------------------------------------
  const bool invertible = model.singular_joints().empty();
  Data<double> data(model);
  std::set<std::string> expected_keys = {"joint_names",
                                         "joint_velocity_ranges",
                                         "nv",
                                         "base_type",
                                         "representation",
                                         "M",
                                         "h",
                                         "derivatives_ddq",
                                         "D2",
                                         "D4",
                                         "linearization_tau",
                                         "com",
                                         "com_jacobian",
                                         "centroidal_momentum",
                                         "centroidal_matrix",
                                         "centroidal_drift",
                                         "kinetic_energy",
                                         "potential_energy",
                                         "coriolis_matrix"};
  if (moving) expected_keys.insert({"D1", "D3"});
  if (dt > 0) expected_keys.insert("discrete_dt");
  if (has_acc) expected_keys.insert("tau");
  if (invertible) expected_keys.insert({"Minv", "A", "B"});
  if (invertible && has_input) expected_keys.insert("ddq");
  if (!constraints_path.empty() && invertible)
    expected_keys.insert({"constraint_jacobian", "constraint_drift", "impulse_v_after", "impulse"});
  if (!constraints_path.empty() && invertible && has_input)
    expected_keys.insert({"constrained_ddq", "lambda", "constrained_A", "constrained_B",
                          "dlambda_dx", "dlambda_dtau"});
  if (!only.empty()) expected_keys = std::set<std::string>(only.begin(), only.end());

  std::set<std::string> got_keys;
  for (auto it = out.begin(); it != out.end(); ++it)
    if (it.key() != "omitted") got_keys.insert(it.key());
  for (const std::string& k : expected_keys)
    if (!got_keys.count(k)) fail("key '" + k + "' is missing from the output");
  for (const std::string& k : got_keys)
    if (!expected_keys.count(k)) fail("unexpected key '" + k + "' in the output");
  if (!only.empty() && out.contains("omitted")) fail("'omitted' must not be printed with --only");

  auto has = [&](const char* k) { return out.contains(k) && expected_keys.count(k); };
  if (has("joint_names")) {
    std::vector<std::string> names;
    for (int i = 1; i <= n; ++i) names.push_back(model.joint_name(i));
    if (out["joint_names"].get<std::vector<std::string>>() != names) fail("joint_names differ");
  }
  if (has("joint_velocity_ranges")) {
    std::vector<std::vector<int>> ranges;
    for (int i = 1; i <= n; ++i)
      ranges.push_back({model.v_index(i), model.v_index(i) + model.joint_nv(i)});
    if (out["joint_velocity_ranges"].get<std::vector<std::vector<int>>>() != ranges)
      fail("joint_velocity_ranges differ");
  }
  if (has("nv") && out["nv"].get<int>() != nv) fail("nv differs");
  if (has("base_type") && out["base_type"].get<std::string>() != (moving ? "moving" : "welded"))
    fail("base_type differs");
  if (has("representation") && out["representation"].get<std::string>() != rep_name)
    fail("representation differs");
  if (has("discrete_dt") && out["discrete_dt"].get<double>() != dt) fail("discrete_dt differs");

  VectorX<double> tau_id, ddq_fd;
  if (has_acc) tau_id = rnea(model, data, x, acc);  // RNEA here; the tool uses EIDAmb
  const VectorX<double> h = bias_force(model, data, x);
  if (has("tau")) compare(out, "tau", tau_id, true);
  if (has("M")) compare(out, "M", crba(model, data, x.s), false);
  if (has("h")) compare(out, "h", h, true);
  if (invertible && has("Minv")) compare(out, "Minv", immamb(model, data, x.s), false);
  if (invertible && has_input) ddq_fd = aba(model, data, x, tau_in);
  if (has("ddq")) compare(out, "ddq", ddq_fd, true);
  const VectorX<double> ddq_d =
      has_acc ? acc : (ddq_fd.size() ? ddq_fd : VectorX<double>(VectorX<double>::Zero(nv)));
  if (has("derivatives_ddq")) compare(out, "derivatives_ddq", ddq_d, true);
  eidamb_derivatives(model, data, x, ddq_d, rep);
  if (has("D1")) compare(out, "D1", data.derivatives.D1, false);
  if (has("D2")) compare(out, "D2", data.derivatives.D2, false);
  if (has("D3")) compare(out, "D3", data.derivatives.D3, false);
  if (has("D4")) compare(out, "D4", data.derivatives.D4, false);
  const VectorX<double> tau_lin = has_input ? tau_in : has_acc ? tau_id : h;
  if (has("linearization_tau")) compare(out, "linearization_tau", tau_lin, true);
  if (invertible && (has("A") || has("B"))) {
    LinearizationOptions<double> lopt;
    lopt.representation = rep;
    if (dt > 0) linearize_discrete(model, data, x, tau_lin, dt, lopt);
    else linearize(model, data, x, tau_lin, lopt);
    if (has("A")) compare(out, "A", data.linearization.A, false);
    if (has("B")) compare(out, "B", data.linearization.B, false);
  }

  if (has("com")) compare(out, "com", center_of_mass(model, data, x), true);
  if (has("com_jacobian"))
    compare(out, "com_jacobian", center_of_mass_jacobian(model, data, x), false);
  if (has("centroidal_momentum"))
    compare(out, "centroidal_momentum", centroidal_momentum(model, data, x), true);
  if (has("centroidal_matrix"))
    compare(out, "centroidal_matrix", centroidal_momentum_matrix(model, data, x), false);
  if (has("centroidal_drift"))
    compare(out, "centroidal_drift", centroidal_momentum_drift(model, data, x), true);
  if (has("kinetic_energy")) compare_number(out, "kinetic_energy", kinetic_energy(model, data, x));
  if (has("potential_energy"))
    compare_number(out, "potential_energy", potential_energy(model, data, x));
  if (has("coriolis_matrix"))
    compare(out, "coriolis_matrix", coriolis_matrix(model, data, x), false);
  // Constraints: read here with plain nlohmann-json; rows stacked contacts, loops, couplings.
  if (!constraints_path.empty()) {
    std::ifstream cfile(constraints_path);
    const json c = json::parse(cfile);
    auto sense_of = [&](const json& e) { return rep_of(e.value("sense", std::string("body"))); };
    std::vector<ConstraintSpec<double>> specs;
    for (const json& e : c.value("contacts", json::array()))
      specs.push_back(e["type"] == "point"
                          ? ConstraintSpec<double>::point_contact(e["frame"], sense_of(e))
                          : ConstraintSpec<double>::rigid_contact(e["frame"], sense_of(e)));
    for (const json& e : c.value("loops", json::array())) {
      const std::string t = e["type"];
      const ConstraintType type = t == "rigid"      ? ConstraintType::RigidLoop
                                  : t == "ball"     ? ConstraintType::BallLoop
                                  : t == "revolute" ? ConstraintType::RevoluteLoop
                                                    : ConstraintType::PrismaticLoop;
      const Eigen::Vector3d axis =
          e.contains("axis") ? Eigen::Vector3d(vec<3>(e["axis"])) : Eigen::Vector3d::UnitZ();
      specs.push_back(
          ConstraintSpec<double>::loop(type, e["frame1"], e["frame2"], sense_of(e), axis));
    }
    for (const json& e : c.value("couplings", json::array()))
      specs.push_back(ConstraintSpec<double>::coupling(
          e["joint"], e["master"], e["ratio"].get<double>(), e.value("offset", 0.0)));
    const ConstraintSet<double> set(model, specs);
    ConstraintData<double> cd(model, set);
    constraint_kinematics(model, data, set, cd, x);
    if (has("constraint_jacobian")) compare(out, "constraint_jacobian", cd.J, false);
    if (has("constraint_drift")) compare(out, "constraint_drift", cd.gamma, true);
    if (has_input && (has("constrained_ddq") || has("lambda"))) {
      const VectorX<double> cddq = constrained_forward_dynamics(model, data, set, cd, x, tau_in);
      if (has("constrained_ddq")) compare(out, "constrained_ddq", cddq, true);
      if (has("lambda")) compare(out, "lambda", cd.lambda, true);
    }
    if (has_input && (has("constrained_A") || has("constrained_B") || has("dlambda_dx") ||
                      has("dlambda_dtau"))) {
      LinearizationOptions<double> lopt;
      lopt.representation = rep;
      if (dt > 0) linearize_discrete(model, data, set, cd, x, tau_in, dt, lopt);
      else linearize(model, data, set, cd, x, tau_in, lopt);
      if (has("constrained_A")) compare(out, "constrained_A", data.linearization.A, false);
      if (has("constrained_B")) compare(out, "constrained_B", data.linearization.B, false);
      if (has("dlambda_dx")) compare(out, "dlambda_dx", cd.lambda_dx, false);
      if (has("dlambda_dtau")) compare(out, "dlambda_dtau", cd.lambda_dtau, false);

      // Independent references: central differences of constrained_forward_dynamics. Their
      // truncation and round-off errors are ~1e-7 relative on the quadruped; 1e-5 still catches
      // any wrong column, row or representation (those are O(1) differences).
      const double fd_tol = 1e-5;
      numdiff::NumDiffOptions<double> nopt;
      nopt.twist_representation = rep;
      Data<double> fd_data(model);
      ConstraintData<double> fd_cd(model, set);
      auto lambda_of_x = [&](const State<double>& y) -> VectorX<double> {
        constrained_forward_dynamics(model, fd_data, set, fd_cd, y, tau_in);
        return fd_cd.lambda;
      };
      auto ddq_of_x = [&](const State<double>& y) -> VectorX<double> {
        return constrained_forward_dynamics(model, fd_data, set, fd_cd, y, tau_in);
      };
      auto lambda_of_tau = [&](const VectorX<double>& t) -> VectorX<double> {
        constrained_forward_dynamics(model, fd_data, set, fd_cd, x, t);
        return fd_cd.lambda;
      };
      auto ddq_of_tau = [&](const VectorX<double>& t) -> VectorX<double> {
        return constrained_forward_dynamics(model, fd_data, set, fd_cd, x, t);
      };
      const std::string fd = "central differences";
      if (has("dlambda_dx"))
        compare(out, "dlambda_dx", numdiff::state_jacobian(model, lambda_of_x, x, nopt), false,
                fd_tol, fd);
      if (has("dlambda_dtau"))
        compare(out, "dlambda_dtau", numdiff::vector_jacobian(lambda_of_tau, tau_in), false, fd_tol,
                fd);
      // The velocity rows that are ∂q̈/∂x themselves (continuous) or δv + Δt ∂q̈/∂x (discrete):
      // the joint rows always, the base rows only with the body twist (otherwise they are ṫ's).
      const int first = rep == TwistRepresentation::Body ? 0 : off;
      const int rows = nv - first;
      MatrixX<double> ddq_dx = numdiff::state_jacobian(model, ddq_of_x, x, nopt).bottomRows(rows);
      MatrixX<double> ddq_dtau = numdiff::vector_jacobian(ddq_of_tau, tau_in).bottomRows(rows);
      std::string what = fd;
      if (dt > 0) {
        ddq_dx *= dt;
        ddq_dx.rightCols(rows) += MatrixX<double>::Identity(rows, rows);  // δv⁺ = δv + Δt δq̈
        ddq_dtau *= dt;
        what = "1 + dt * " + fd;
      }
      MatrixX<double> got;
      if (has("constrained_A") && to_matrix(out.at("constrained_A"), false, got) &&
          got.rows() == 2 * nv) {
        MatrixX<double> tail = got.bottomRows(rows);
        const double rel = rel_difference(tail, ddq_dx);
        std::printf("  %-18s %3dx%-3d  max rel. difference %.3g  (last %d rows vs %s)\n",
                    "constrained_A", int(tail.rows()), int(tail.cols()), rel, rows, what.c_str());
        if (!(rel <= fd_tol))
          fail("constrained_A: its last rows differ from " + what + " by " + std::to_string(rel));
      }
      if (has("constrained_B") && to_matrix(out.at("constrained_B"), false, got) &&
          got.rows() == 2 * nv) {
        MatrixX<double> tail = got.bottomRows(rows);
        const double rel = rel_difference(tail, ddq_dtau);
        std::printf("  %-18s %3dx%-3d  max rel. difference %.3g  (last %d rows vs %s)\n",
                    "constrained_B", int(tail.rows()), int(tail.cols()), rel, rows, what.c_str());
        if (!(rel <= fd_tol))
          fail("constrained_B: its last rows differ from " + what + " by " + std::to_string(rel));
      }

      // Another representation against the body one (the tool run again): see the header.
      if (has("dlambda_dx") && moving && rep != TwistRepresentation::Body) {
        json body_out;
        std::vector<std::string> args = {"--constraints", constraints_path, "--only", "dlambda_dx"};
        MatrixX<double> mine, body;
        if (!run_tool(args, body_out)) {
          fail("the tool failed with --representation body");
        } else if (to_matrix(out["dlambda_dx"], false, mine) &&
                   to_matrix(body_out["dlambda_dx"], false, body) && mine.rows() == body.rows() &&
                   mine.cols() == 2 * nv && body.cols() == 2 * nv) {
          const int n = model.nv_joints();
          auto joint_cols = [&](const MatrixX<double>& D) {
            MatrixX<double> J(D.rows(), 2 * n);
            J << D.middleCols(6, n), D.rightCols(n);
            return J;
          };
          auto base_cols = [&](const MatrixX<double>& D) {
            MatrixX<double> B(D.rows(), 12);
            B << D.leftCols(6), D.middleCols(nv, 6);
            return B;
          };
          const double same = rel_difference(joint_cols(mine), joint_cols(body));
          const double differ = rel_difference(base_cols(mine), base_cols(body));
          std::printf(
              "  dlambda_dx vs body: joint columns differ by %.3g (must be <= 1e-12), base columns "
              "by %.3g "
              "(must be > 1e-3)\n",
              same, differ);
          if (!(same <= 1e-12)) fail("dlambda_dx: its joint columns depend on --representation");
          if (!(differ > 1e-3))
            fail("dlambda_dx: its base columns do not depend on --representation");
        } else {
          fail("dlambda_dx: the body run's matrix has another shape");
        }
      }
    }
    if (has("impulse_v_after") || has("impulse")) {
      const VectorX<double> v_after =
          impulse_dynamics(model, data, set, cd, x, c.value("restitution", 0.0));
      if (has("impulse_v_after")) compare(out, "impulse_v_after", v_after, true);
      if (has("impulse")) compare(out, "impulse", cd.impulse, true);
    }
  }

  if (failures) {
    std::cerr << failures << " difference(s) between `liedyn eval` and the library\n";
    return 1;
  }
  std::cout << "OK: `liedyn eval` agrees with the library (" << got_keys.size() << " keys)\n";
  return 0;
}
