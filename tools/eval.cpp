// liedyn eval: the dynamics and the linearization at the state of a STATE.json, as JSON.
//
// Quantities (README.md, "Command-line tool"): every one in liedyn's native coordinates (base
// first; body twist ν; base wrench in the base frame; joint i's velocity coordinates from
// v_index(i), listed as joint_velocity_ranges) except D1, D3, A, B, constrained_A,
// constrained_B and dlambda_dx, whose base-twist variable is --representation.
//   tau               ĪD(x, ddq) (EIDAmb) at the file's accelerations [needs accelerations]
//   M, h              crba, bias_force (RNEA with zero accelerations)
//   Minv              immamb                                           [M invertible]
//   ddq               aba(x, τ̄) at the file's input                [needs input; M invertible]
//   derivatives_ddq   the accelerations D1..D4 are evaluated at: the file's accelerations if
//                     given, else FD(x, τ̄) of the input if given, else zero
//   D1..D4            eidamb_derivatives at (x, derivatives_ddq)              [D1, D3: moving base]
//   linearization_tau the τ̄ of A and B: the input if given, else ĪD(x, accelerations) if given,
//                     else h (zero accelerations)
//   A, B              linearize / linearize_discrete at (x, linearization_tau) [M invertible]
//   com               centre of mass p_com, inertial frame (centroidal.hpp)
//   com_jacobian      J_com (3 × nv), inertial axes
//   centroidal_momentum  h_G = [m ṗ_com; k_G], centroidal frame (CoM origin, inertial axes)
//   centroidal_matrix A_G (6 × nv), h_G = A_G ν̄
//   centroidal_drift  Ȧ_G ν̄ (ḣ_G at zero accelerations)
//   kinetic_energy, potential_energy   energy.hpp (numbers)
//   coriolis_matrix   C(x) (nv × nv), C ν̄ = velocity products, Ṁ − 2C skew (coriolis.hpp)
// With --constraints CONSTRAINTS.json and/or --mimic enforce (the URDF's <mimic> relations as
// couplings, after the file's rows) (rows stacked contacts, loops, couplings, in file order;
// each in its "sense"; λ acts on the robot: M q̈ + h − τ̄ = Jᵀ λ, docs/constraints.md):
//   constraint_jacobian, constraint_drift   J and γ (J q̈ + γ = 0), constraint_kinematics
//   constrained_ddq, lambda   constrained_forward_dynamics at the input
//                     [needs input; M invertible]
//   constrained_A, constrained_B   the constrained linearize / linearize_discrete at the input, in
//                     A and B's layout (δx = (η, δs, δt, δr), t in --representation): the same
//                     kinematic rows, the acceleration rows those of the constrained dynamics
//                     [needs input; M invertible]
//   dlambda_dx, dlambda_dtau   ∂λ/∂x (m × 2nv, A's columns) and ∂λ/∂τ̄ (m × nv), what the same
//                     call leaves in cd; with --discrete still the continuous derivatives, since
//                     the Euler step has no λ of its own (it uses λ at x)  [needs input; M
//                     invertible]
//   impulse_v_after, impulse  impulse_dynamics, restitution from the file [M invertible]
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "constraints_json.hpp"
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
#include "model_io.hpp"
#include "state_json.hpp"

namespace liedyn_cli {

using json = nlohmann::ordered_json;

const std::vector<std::string>& eval_keys() {
  static const std::vector<std::string> keys = {"joint_names",
                                                "joint_velocity_ranges",
                                                "nv",
                                                "base_type",
                                                "representation",
                                                "discrete_dt",
                                                "tau",
                                                "M",
                                                "Minv",
                                                "h",
                                                "ddq",
                                                "derivatives_ddq",
                                                "D1",
                                                "D2",
                                                "D3",
                                                "D4",
                                                "linearization_tau",
                                                "A",
                                                "B",
                                                "com",
                                                "com_jacobian",
                                                "centroidal_momentum",
                                                "centroidal_matrix",
                                                "centroidal_drift",
                                                "kinetic_energy",
                                                "potential_energy",
                                                "coriolis_matrix",
                                                "constrained_ddq",
                                                "lambda",
                                                "constrained_A",
                                                "constrained_B",
                                                "dlambda_dx",
                                                "dlambda_dtau",
                                                "constraint_jacobian",
                                                "constraint_drift",
                                                "impulse_v_after",
                                                "impulse"};
  return keys;
}

namespace {

// Vectors (compile-time one column) as arrays, matrices as arrays of rows (even n × 1 ones).
template <class Derived>
json to_json(const Eigen::MatrixBase<Derived>& m) {
  if (Derived::ColsAtCompileTime == 1) {
    json v = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) v.push_back(double(m(i, 0)));
    return v;
  }
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(double(m(i, j)));
    rows.push_back(std::move(row));
  }
  return rows;
}

liedyn::TwistRepresentation to_representation(const std::string& s) {
  if (s == "inertial") return liedyn::TwistRepresentation::Inertial;
  if (s == "mixed") return liedyn::TwistRepresentation::Mixed;
  if (s == "body") return liedyn::TwistRepresentation::Body;
  throw Error("--representation: '" + s + "' is not one of body, inertial, mixed");
}

std::string singular_reason(const liedyn::Model<double>& model) {
  std::string names;
  for (int j : model.singular_joints())
    names += (names.empty() ? "" : ", ") +
             (j == 0 ? std::string("the floating base") : model.joint_name(j));
  return "the mass matrix is singular (no inertia along: " + names + ")";
}

}  // namespace

int run_eval(const EvalOptions& opt, std::ostream& out, std::ostream& err) {
  using namespace liedyn;
  const TwistRepresentation rep = to_representation(opt.representation);
  const nlohmann::json doc = read_json_file(opt.state);
  // With --fixed-base the file's base pose (if any) is where the base is welded.
  const SE3<double> pose = opt.fixed_base ? state_base_pose(doc, opt.state) : SE3<double>();
  const LoadedRobot robot =
      load_robot(opt.urdf, opt.fixed_base, pose, LoadOptions{opt.inertia, opt.lock}, opt.equality);
  const Model<double>& model = robot.model;
  // stdout is the JSON document: the load diagnostics go to stderr, one note each.
  for (const ModelDiagnostic& d : model.diagnostics())
    err << "liedyn: note: " << to_string(d.kind) << ": " << d.message << "\n";
  const StateInput in = parse_state(doc, model, opt.state);
  const State<double>& x = in.x;
  const bool moving = model.has_moving_base();
  const bool invertible = model.singular_joints().empty();
  const bool discrete = opt.discrete_dt > 0.0;

  std::map<std::string, json> value;
  std::map<std::string, std::string> missing;  // key -> why it is not available
  auto wanted = [&](const char* key) {
    if (opt.only.empty()) return true;
    for (const std::string& k : opt.only)
      if (k == key) return true;
    return false;
  };
  auto need_any = [&](std::initializer_list<const char*> keys) {
    for (const char* k : keys)
      if (wanted(k)) return true;
    return false;
  };

  json names = json::array();
  for (int i = 1; i <= model.num_joints(); ++i) names.push_back(model.joint_name(i));
  value["joint_names"] = std::move(names);
  // Where each joint's coordinates lie in velocity-sized vectors (τ̄, rows and columns of M, ...):
  // [first, end), one entry for a 1-DoF joint, three for a spherical joint, ...
  json ranges = json::array();
  for (int i = 1; i <= model.num_joints(); ++i)
    ranges.push_back({model.v_index(i), model.v_index(i) + model.joint_nv(i)});
  value["joint_velocity_ranges"] = std::move(ranges);
  value["nv"] = model.nv();
  value["base_type"] = moving ? "moving" : "welded";
  value["representation"] = to_string(rep);
  if (discrete) value["discrete_dt"] = opt.discrete_dt;
  else missing["discrete_dt"] = "continuous-time A and B (no --discrete)";

  // Huge inputs can overflow, and JSON has no inf/NaN (nlohmann would print null): refuse.
  auto put = [&](const char* key, const auto& m) {
    if (!m.allFinite())
      throw Error("eval: '" + std::string(key) +
                  "' is not finite (overflow?): check the magnitudes in " + opt.state);
    value[key] = to_json(m);
  };

  Data<double> data(model);
  if (need_any({"M"})) put("M", crba(model, data, x.s));
  if (need_any({"h"})) put("h", bias_force(model, data, x));
  VectorX<double> tau_id;
  if (in.has_accelerations) {
    tau_id = eidamb(model, data, x, in.ddq);
    put("tau", tau_id);
  } else {
    missing["tau"] = "STATE.json gives no accelerations";
  }
  if (invertible) {
    if (need_any({"Minv"})) put("Minv", immamb(model, data, x.s));
  } else {
    missing["Minv"] = singular_reason(model);
  }
  VectorX<double> ddq_fd;
  if (!in.has_input) missing["ddq"] = "STATE.json gives no input";
  else if (!invertible) missing["ddq"] = singular_reason(model);
  else put("ddq", ddq_fd = aba(model, data, x, in.tau));

  // D1..D4 at the file's accelerations, else at FD(x, τ̄), else at rest.
  VectorX<double> ddq_d = VectorX<double>::Zero(model.nv());
  if (in.has_accelerations) ddq_d = in.ddq;
  else if (ddq_fd.size() == model.nv()) ddq_d = ddq_fd;
  if (need_any({"derivatives_ddq", "D1", "D2", "D3", "D4"})) {
    put("derivatives_ddq", ddq_d);
    eidamb_derivatives(model, data, x, ddq_d, rep);
    if (moving) {
      put("D1", data.derivatives.D1);
      put("D3", data.derivatives.D3);
    } else {
      missing["D1"] = missing["D3"] = "a welded base has no base columns";
    }
    put("D2", data.derivatives.D2);
    put("D4", data.derivatives.D4);
  }

  // A and B at the input, else at ĪD(x, accelerations), else at h (zero accelerations).
  if (need_any({"linearization_tau", "A", "B"})) {
    const VectorX<double> tau_lin = in.has_input           ? in.tau
                                    : in.has_accelerations ? tau_id
                                                           : bias_force(model, data, x);
    put("linearization_tau", tau_lin);
    if (invertible) {
      LinearizationOptions<double> lopt;
      lopt.representation = rep;
      if (discrete) linearize_discrete(model, data, x, tau_lin, opt.discrete_dt, lopt);
      else linearize(model, data, x, tau_lin, lopt);
      put("A", data.linearization.A);
      put("B", data.linearization.B);
    } else {
      missing["A"] = missing["B"] = singular_reason(model);
    }
  }

  // Centre of mass, centroidal quantities, energy and the Coriolis matrix.
  auto put_number = [&](const char* key, double v) {
    if (!std::isfinite(v))
      throw Error("eval: '" + std::string(key) +
                  "' is not finite (overflow?): check the magnitudes in " + opt.state);
    value[key] = v;
  };
  if (need_any({"com"})) put("com", center_of_mass(model, data, x));
  if (need_any({"com_jacobian"})) put("com_jacobian", center_of_mass_jacobian(model, data, x));
  if (need_any({"centroidal_momentum"}))
    put("centroidal_momentum", centroidal_momentum(model, data, x));
  if (need_any({"centroidal_matrix"}))
    put("centroidal_matrix", centroidal_momentum_matrix(model, data, x));
  if (need_any({"centroidal_drift"}))
    put("centroidal_drift", centroidal_momentum_drift(model, data, x));
  if (need_any({"kinetic_energy"})) put_number("kinetic_energy", kinetic_energy(model, data, x));
  if (need_any({"potential_energy"}))
    put_number("potential_energy", potential_energy(model, data, x));
  if (need_any({"coriolis_matrix"})) put("coriolis_matrix", coriolis_matrix(model, data, x));
  const std::vector<std::string> constraint_keys = {
      "constrained_ddq", "lambda",       "constrained_A",       "constrained_B",
      "dlambda_dx",      "dlambda_dtau", "constraint_jacobian", "constraint_drift",
      "impulse_v_after", "impulse"};
  ConstraintsInput cons;
  if (!opt.constraints.empty())
    cons = parse_constraints(read_json_file(opt.constraints), model, opt.constraints);
  if (opt.mimic == "enforce") {
    const auto couplings = mimic_couplings(model);
    if (couplings.empty()) throw Error("--mimic enforce: " + opt.urdf + " has no <mimic> joints");
    cons.specs.insert(cons.specs.end(), couplings.begin(), couplings.end());
  }
  cons.specs.insert(cons.specs.end(), robot.equality.begin(), robot.equality.end());
  const bool constrained = !cons.specs.empty();
  if (!constrained) {
    for (const std::string& k : constraint_keys)
      missing[k] = "no --constraints file (nor --mimic or --equality enforce)";
  } else {
    const ConstraintSet<double> set(model, cons.specs);
    ConstraintData<double> cd(model, set);
    constraint_kinematics(model, data, set, cd, x);
    put("constraint_jacobian", cd.J);
    put("constraint_drift", cd.gamma);
    // A rank-deficient set is a property of the state: report it as the keys' reason. So is a
    // function that takes 1-DoF joints only refusing a multi-DoF joint (InvalidArgument naming
    // it, docs/design/joint-types.md §5); on a model of 1-DoF joints only that exception would
    // be a real error, and it propagates.
    auto solve = [&](std::initializer_list<const char*> keys, auto&& compute) {
      if (!invertible) {
        for (const char* k : keys) missing[k] = singular_reason(model);
        return;
      }
      try {
        compute();
      } catch (const ConstraintError& e) {
        for (const char* k : keys) missing[k] = strip_liedyn_prefix(e.what());
      } catch (const InvalidArgument& e) {
        if (model.one_dof_joints_only()) throw;
        for (const char* k : keys) missing[k] = strip_liedyn_prefix(e.what());
      }
    };
    // The keys that need λ are taken at the file's input only: A and B's fallbacks (ĪD at the
    // file's accelerations, or h) ignore the constraint forces, so with constraints they are no
    // operating point of the system.
    if (!in.has_input) {
      for (const char* k : {"constrained_ddq", "lambda", "constrained_A", "constrained_B",
                            "dlambda_dx", "dlambda_dtau"})
        missing[k] = "STATE.json gives no input";
    } else {
      solve({"constrained_ddq", "lambda"}, [&] {
        put("constrained_ddq", constrained_forward_dynamics(model, data, set, cd, x, in.tau));
        put("lambda", cd.lambda);
      });
      if (need_any({"constrained_A", "constrained_B", "dlambda_dx", "dlambda_dtau"})) {
        solve({"constrained_A", "constrained_B", "dlambda_dx", "dlambda_dtau"}, [&] {
          LinearizationOptions<double> lopt;
          lopt.representation = rep;
          if (discrete) linearize_discrete(model, data, set, cd, x, in.tau, opt.discrete_dt, lopt);
          else linearize(model, data, set, cd, x, in.tau, lopt);
          put("constrained_A", data.linearization.A);
          put("constrained_B", data.linearization.B);
          put("dlambda_dx", cd.lambda_dx);
          put("dlambda_dtau", cd.lambda_dtau);
        });
      }
    }
    solve({"impulse_v_after", "impulse"}, [&] {
      put("impulse_v_after", impulse_dynamics(model, data, set, cd, x, cons.restitution));
      put("impulse", cd.impulse);
    });
  }

  // Assemble in the documented key order.
  json result = json::object();
  json omitted = json::object();
  for (const std::string& key : eval_keys()) {
    if (!wanted(key.c_str())) continue;
    // Without --constraints the constraint keys are not part of the output (unless asked for).
    if (!constrained && opt.only.empty() &&
        std::find(constraint_keys.begin(), constraint_keys.end(), key) != constraint_keys.end())
      continue;
    auto v = value.find(key);
    if (v != value.end()) {
      result[key] = std::move(v->second);
      continue;
    }
    auto why = missing.find(key);
    const std::string reason = why != missing.end() ? why->second : "not computed";
    if (!opt.only.empty()) throw Error("eval: '" + key + "' is not available: " + reason);
    omitted[key] = reason;
  }
  if (!omitted.empty()) {
    result["omitted"] = omitted;
    if (!invertible)
      err << "liedyn: note: " << singular_reason(model) << ": Minv, ddq, A and B are omitted\n";
  }

  // One key per line, each value in nlohmann's compact form (doubles round-trip exactly).
  std::ostringstream text;
  text << "{\n";
  bool first = true;
  for (auto it = result.begin(); it != result.end(); ++it) {
    text << (first ? "" : ",\n") << "  " << json(it.key()).dump() << ": " << it.value().dump();
    first = false;
  }
  text << "\n}\n";
  out << text.str();
  return kExitOk;
}

}  // namespace liedyn_cli
