// liedyn check: the analytic kernels against each other and against finite differences, at
// random states.
//
// Error measure, per matrix or vector: max|analytic − reference| / max|reference| (absolute if
// the reference is zero); the report shows the worst over the states. Tolerances:
//   kernel against kernel, no inverse involved (τ̄, M)             1e-11
//   anything through M⁻¹ (M⁻¹, forward dynamics, A, B)             max(1e-10, 100 κ(M) ε)
//   D1..D4 against long-double finite differences                  1e-9
// with κ(M) the largest 2-norm condition number of M over the states and ε double's epsilon.
// With --constraints: J against long-double central differences of the position error (the
// desired placements set to the poses at each state, so that e = 0 there) 1e-9, and the
// constrained and impulse dynamics against a dense LU solve of the whole KKT system,
// max(1e-10, 100 κ(KKT) ε).
// For a model whose M is singular (Model::singular_joints()) the checks through M⁻¹ are
// skipped and reported so; the exit code then covers the checks that ran.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <nlohmann/json.hpp>

#include "check_fd.hpp"
#include "cli.hpp"
#include "constraints_json.hpp"
#include "liedyn/algorithm/aba.hpp"
#include "liedyn/algorithm/aza.hpp"
#include "liedyn/algorithm/crba.hpp"
#include "liedyn/algorithm/eidamb.hpp"
#include "liedyn/algorithm/eidamb_derivatives.hpp"
#include "liedyn/algorithm/immamb.hpp"
#include "liedyn/algorithm/impulse_dynamics.hpp"
#include "liedyn/algorithm/linearization.hpp"
#include "liedyn/algorithm/reference_dynamics.hpp"
#include "liedyn/algorithm/rnea.hpp"
#include "model_io.hpp"
#include "state_json.hpp"

namespace liedyn_cli {

using namespace liedyn;

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

template <class DA, class DB>
double rel_error(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& ref) {
  if (a.rows() != ref.rows() || a.cols() != ref.cols())
    return std::numeric_limits<double>::infinity();
  if (a.size() == 0) return 0.0;
  if (!a.allFinite() || !ref.allFinite()) return std::numeric_limits<double>::infinity();
  const double diff = (a - ref).cwiseAbs().maxCoeff();
  const double scale = ref.cwiseAbs().maxCoeff();
  return scale > 0.0 ? diff / scale : diff;
}

struct Check {
  std::string quantity, how;
  double tol = 0.0;
  double worst = 0.0;
  int count = 0;
};

class Report {
 public:
  /// Adds a measurement to the check named (quantity, how), creating it on first use.
  void add(const std::string& quantity, const std::string& how, double tol, double err) {
    for (Check& c : checks_)
      if (c.quantity == quantity && c.how == how) {
        update(c, err);
        return;
      }
    checks_.push_back(Check{quantity, how, tol, 0.0, 0});
    update(checks_.back(), err);
  }
  const std::vector<Check>& checks() const { return checks_; }

 private:
  static void update(Check& c, double err) {
    // NaN counts as the worst possible error.
    if (!(err <= c.worst))
      c.worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
    ++c.count;
  }
  std::vector<Check> checks_;
};

double condition_number(const MatrixX<double>& M) {
  if (M.size() == 0) return 1.0;
  const Eigen::JacobiSVD<MatrixX<double>> svd(M);
  const VectorX<double>& sv = svd.singularValues();
  return sv(sv.size() - 1) > 0.0 ? sv(0) / sv(sv.size() - 1)
                                 : std::numeric_limits<double>::infinity();
}

}  // namespace

int run_check(const CheckOptions& opt, std::ostream& out) {
  const auto t_start = std::chrono::steady_clock::now();
  const LoadedRobot robot = load_robot(opt.urdf, opt.fixed_base, SE3<double>(),
                                       LoadOptions{opt.inertia, opt.lock}, opt.equality);
  const Model<double>& model = robot.model;
  const Model<long double> model_ld = model.cast<long double>();
  const int n = model.num_joints(), nv = model.nv();
  const bool moving = model.has_moving_base();
  const bool invertible = model.singular_joints().empty();
  const double eps = std::numeric_limits<double>::epsilon();
  Data<double> data(model);

  // The random states, accelerations and inputs (τ̄ = ĪD at other random accelerations, so that
  // the forward dynamics are of a sensible size).
  std::mt19937 rng(opt.seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  struct Sample {
    State<double> x;
    VectorX<double> ddq, tau;
  };
  std::vector<Sample> samples;
  double kappa = 1.0;
  for (int k = 0; k < opt.states; ++k) {
    Sample s;
    s.x = random_state(model, rng);
    s.ddq = VectorX<double>::NullaryExpr(nv, [&]() { return u(rng); });
    const VectorX<double> acc = VectorX<double>::NullaryExpr(nv, [&]() { return u(rng); });
    s.tau = rnea(model, data, s.x, acc);
    if (invertible) kappa = std::max(kappa, condition_number(crba(model, data, s.x.s)));
    samples.push_back(std::move(s));
  }
  const double tol_kernel = 1e-11;
  const double tol_inverse = std::max(1e-10, 100.0 * kappa * eps);
  const double tol_fd = 1e-9;

  const TwistRepresentation reps[3] = {TwistRepresentation::Body, TwistRepresentation::Inertial,
                                       TwistRepresentation::Mixed};
  Report report;
  ConstraintsInput cons;
  if (!opt.constraints.empty())
    cons = parse_constraints(read_json_file(opt.constraints), model, opt.constraints);
  cons.specs.insert(cons.specs.end(), robot.equality.begin(), robot.equality.end());
  const bool constrained = !cons.specs.empty();
  std::string constraint_note;
  for (const Sample& s : samples) {
    const State<double>& x = s.x;
    // --- kernels against kernels ---------------------------------------------------------
    const VectorX<double> tau_e = eidamb(model, data, x, s.ddq);
    report.add("tau", "eidamb vs rnea", tol_kernel, rel_error(tau_e, rnea(model, data, x, s.ddq)));
    eidamb_derivatives(model, data, x, s.ddq);
    report.add("tau", "eidamb_derivatives vs eidamb", tol_kernel, rel_error(data.tau, tau_e));
    const MatrixX<double> M = crba(model, data, x.s);
    eidamb_derivatives(model, data, x, s.ddq);
    report.add("M", "crba vs eidamb_derivatives", tol_kernel, rel_error(data.M, M));
    MatrixX<double> M_ref;
    mass_matrix_from_inverse_dynamics(model, data, x, M_ref);
    report.add("M", "crba vs inverse dynamics (reference)", tol_kernel, rel_error(M, M_ref));
    if (invertible) {
      const Eigen::LDLT<MatrixX<double>> ldlt(M);
      const MatrixX<double> Minv = immamb(model, data, x.s);
      report.add("Minv", "immamb vs inverse of crba (dense LDLT)", tol_inverse,
                 rel_error(Minv, ldlt.solve(MatrixX<double>::Identity(nv, nv))));
      MatrixX<double> Minv_aza(nv, nv);
      aza_factorize(model, data, x.s);
      aza_solve(model, data, MatrixX<double>::Identity(nv, nv), Minv_aza);
      report.add("Minv", "immamb vs AZA sweeps", tol_inverse, rel_error(Minv, Minv_aza));
      const VectorX<double> h = bias_force(model, data, x);
      const VectorX<double> ddq_ref = ldlt.solve(VectorX<double>(s.tau - h));
      report.add("ddq", "aba vs M^-1 (tau - h) (crba, dense LDLT)", tol_inverse,
                 rel_error(aba(model, data, x, s.tau), ddq_ref));
    }

    // --- D1..D4 against finite differences ------------------------------------------------
    for (TwistRepresentation rep : reps) {
      if (!moving && rep != TwistRepresentation::Body) continue;
      eidamb_derivatives(model, data, x, s.ddq, rep);
      const FdDerivatives fd = fd_derivatives(model_ld, x, s.ddq, rep);
      const std::string r = std::string(" (") + to_string(rep) + ")";
      const std::string how = "eidamb_derivatives vs finite differences";
      if (moving) report.add("D1" + r, how, tol_fd, rel_error(data.derivatives.D1, fd.D1));
      if (rep == TwistRepresentation::Body)
        report.add("D2", how, tol_fd, rel_error(data.derivatives.D2, fd.D2));
      if (moving) report.add("D3" + r, how, tol_fd, rel_error(data.derivatives.D3, fd.D3));
      if (rep == TwistRepresentation::Body)
        report.add("D4", how, tol_fd, rel_error(data.derivatives.D4, fd.D4));
    }

    // --- A and B against finite differences of the nonlinear dynamics --------------------
    if (invertible) {
      MatrixX<double> A_fd, B_fd;
      for (TwistRepresentation rep : reps) {
        if (!moving && rep != TwistRepresentation::Body) continue;
        LinearizationOptions<double> lopt;
        lopt.representation = rep;
        const std::string r = moving ? std::string(" (") + to_string(rep) + ")" : std::string();
        linearize(model, data, x, s.tau, lopt);
        fd_linearization(model_ld, x, s.tau, rep, 0.0, A_fd, B_fd);
        const std::string how = "linearize vs finite differences of ABA";
        report.add("A" + r, how, tol_inverse, rel_error(data.linearization.A, A_fd));
        report.add("B" + r, how, tol_inverse, rel_error(data.linearization.B, B_fd));
        if (rep == TwistRepresentation::Body) {
          // The two ways of applying M⁻¹ must agree.
          lopt.minv = MinvMethod::Dense;
          linearize(model, data, x, s.tau, lopt);
          const MatrixX<double> A_dense = data.linearization.A, B_dense = data.linearization.B;
          lopt.minv = MinvMethod::Sweeps;
          linearize(model, data, x, s.tau, lopt);
          report.add("A" + r, "dense M^-1 (immamb) vs AZA sweeps", tol_inverse,
                     rel_error(data.linearization.A, A_dense));
          report.add("B" + r, "dense M^-1 (immamb) vs AZA sweeps", tol_inverse,
                     rel_error(data.linearization.B, B_dense));
          lopt.minv = MinvMethod::Automatic;
        }
        linearize_discrete(model, data, x, s.tau, opt.dt, lopt);
        fd_linearization(model_ld, x, s.tau, rep, opt.dt, A_fd, B_fd);
        const std::string dhow = "linearize_discrete vs finite differences of the step";
        report.add("A discrete" + r, dhow, tol_inverse, rel_error(data.linearization.A, A_fd));
        report.add("B discrete" + r, dhow, tol_inverse, rel_error(data.linearization.B, B_fd));
      }
    }
  }
  if (constrained) {
    for (const Sample& s : samples) {
      const State<double>& x = s.x;
      // Desired placements at x (e(x) = 0), couplings' offsets likewise.
      std::vector<ConstraintSpec<double>> specs = cons.specs;
      forward_poses(model, data, x);
      for (ConstraintSpec<double>& c : specs) {
        if (c.type == ConstraintType::Coupling) {
          c.offset = x.s[model.q_index(model.joint_id(c.joint))] -
                     c.ratio * x.s[model.q_index(model.joint_id(c.master))];
          continue;
        }
        const SE3<double> H2 =
            frame_pose(model, data, model.frame_id(is_contact(c.type) ? c.frame : c.frame2));
        c.placement = is_contact(c.type)
                          ? H2
                          : frame_pose(model, data, model.frame_id(c.frame)).inverse_times(H2);
      }
      const ConstraintSet<double> set(model, specs);
      ConstraintData<double> cd(model, set);
      constraint_kinematics(model, data, set, cd, x);
      const MatrixX<double> J = cd.J;
      const int m = set.dimension();
      // J against central differences of e along x ⊕ (±d e_k), long double.
      const ConstraintSet<long double> set_ld = set.cast<long double>();
      Data<long double> data_ld(model_ld);
      ConstraintData<long double> cd_ld(model_ld, set_ld);
      const State<long double> x_ld = x.cast<long double>();
      const long double d = fd_step();
      MatrixX<double> J_fd(m, nv);
      for (int k = 0; k < nv; ++k) {
        VectorX<long double> dx = VectorX<long double>::Zero(2 * nv);
        dx(k) = d;
        constraint_jacobian(model_ld, data_ld, set_ld, cd_ld, integrate(model_ld, x_ld, dx));
        const VectorX<long double> ep = cd_ld.position_error;
        constraint_jacobian(model_ld, data_ld, set_ld, cd_ld,
                            integrate(model_ld, x_ld, VectorX<long double>(-dx)));
        J_fd.col(k) = ((ep - cd_ld.position_error) / (2 * d)).cast<double>();
      }
      report.add("constraint J", "vs finite differences of the position error", tol_fd,
                 rel_error(J, J_fd));
      if (!invertible) continue;
      // Dense KKT: [M −Jᵀ; J 0] [q̈; λ] = [τ̄ − h; −γ], and the impulse system likewise.
      const MatrixX<double> M = crba(model, data, x.s);
      const VectorX<double> h = bias_force(model, data, x);
      MatrixX<double> K = MatrixX<double>::Zero(nv + m, nv + m);
      K.topLeftCorner(nv, nv) = M;
      K.topRightCorner(nv, m) = -J.transpose();
      K.bottomLeftCorner(m, nv) = J;
      const Eigen::FullPivLU<MatrixX<double>> lu(K);
      if (lu.rank() < nv + m) {
        constraint_note =
            "constrained and impulse dynamics skipped at some states: J is rank deficient there";
        continue;
      }
      const double tol_kkt = std::max(1e-10, 100.0 * condition_number(K) * eps);
      VectorX<double> rhs(nv + m);
      rhs << s.tau - h, -cd.gamma;
      const VectorX<double> sol = lu.solve(rhs);
      constrained_forward_dynamics(model, data, set, cd, x, s.tau);
      report.add("constrained ddq", "exact KKT route vs dense LU of the KKT matrix", tol_kkt,
                 rel_error(cd.ddq, sol.head(nv)));
      report.add("lambda", "exact KKT route vs dense LU of the KKT matrix", tol_kkt,
                 rel_error(cd.lambda, sol.tail(m)));
      const VectorX<double> v = x.velocity(model);
      VectorX<double> target = J * v;
      for (const auto& c : set.constraints())
        target.segment(c.row, c.dim) *= is_contact(c.type) ? -cons.restitution : 0.0;
      rhs << M * v, target;
      const VectorX<double> jump = lu.solve(rhs);
      impulse_dynamics(model, data, set, cd, x, cons.restitution);
      report.add("impulse v+", "impulse_dynamics vs dense LU of the impulse KKT", tol_kkt,
                 rel_error(cd.v_after, jump.head(nv)));
      report.add("impulse", "impulse_dynamics vs dense LU of the impulse KKT", tol_kkt,
                 rel_error(cd.impulse, jump.tail(m)));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();

  // --- report ------------------------------------------------------------------------------
  std::ostringstream o;
  o << "liedyn check  " << opt.urdf << "  (" << (moving ? "moving" : "welded") << " base, " << n
    << (n == 1 ? " joint" : " joints") << ", nv = " << nv << ")\n";
  o << opt.states << (opt.states == 1 ? " random state" : " random states") << " (seed " << opt.seed
    << "): joint positions within their limits, velocities and accelerations in [-1, 1]"
    << (moving ? ", base attitude uniform" : "") << ";\n"
    << "input tau = inverse dynamics at other random accelerations; discrete step dt = "
    << fmt("%g", opt.dt) << ".\n";
  o << "Finite differences: central, geometric (H exp(+-d e_k), each joint on its group), long "
       "double, d = "
    << fmt("%.2g", double(fd_step())) << ".\n";
  if (invertible) o << "Condition number of M: up to " << fmt("%.2g", kappa) << ".\n";
  o << "error = max|analytic - reference| / max|reference|, worst over the states.\n";
  print_diagnostics(model, o);
  o << "\n";

  std::size_t wq = 8, wh = 8;
  for (const Check& c : report.checks()) {
    wq = std::max(wq, c.quantity.size());
    wh = std::max(wh, c.how.size());
  }
  auto padr = [](const std::string& s, std::size_t w) {
    return s + std::string(w > s.size() ? w - s.size() : 0, ' ');
  };
  o << "  " << padr("quantity", wq) << "  " << padr("compared", wh)
    << "  worst error  tolerance  result\n";
  int failed = 0;
  for (const Check& c : report.checks()) {
    const bool pass = c.worst <= c.tol;
    failed += !pass;
    o << "  " << padr(c.quantity, wq) << "  " << padr(c.how, wh) << "  "
      << padr(fmt("%.2e", c.worst), 11) << "  " << padr(fmt("%.1e", c.tol), 9) << "  "
      << (pass ? "PASS" : "FAIL") << "\n";
  }
  if (!invertible) {
    std::string names;
    for (int j : model.singular_joints())
      names += (names.empty() ? "" : ", ") +
               (j == 0 ? std::string("the floating base") : model.joint_name(j));
    o << "\nSKIPPED: M^-1, forward dynamics, A and B — the mass matrix is singular (no inertia "
         "along: "
      << names << ").\nThe result below covers only the checks that ran.\n";
  }
  if (!constraint_note.empty()) o << "\nNOTE: " << constraint_note << ".\n";
  if (constrained)
    o << "\nConstraints: " << (opt.constraints.empty() ? "" : opt.constraints + " ")
      << (robot.equality.empty() ? "" : "and the file's <equality> elements ") << "("
      << cons.specs.size() << ").\n";
  const int total = static_cast<int>(report.checks().size());
  o << "\n";
  if (failed == 0) o << "all " << total << " checks passed";
  else o << failed << " of " << total << " checks FAILED";
  o << " (" << fmt("%.2f", seconds) << " s)\n";
  out << o.str();
  return failed == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace liedyn_cli
