// solo12 standing on four point feet, balanced by an LQR designed on the linearization of the
// constrained dynamics restricted to the constraint manifold (linearize_reduced).
//
//   liedyn_standing_lqr SOLO12.urdf [output_dir]     (default: the current directory)
//
// 1. Equilibrium x*: legs bent (HFE ±0.8, KFE ∓1.6 rad), base level with the feet at z = 0, at
//    rest; the feet held by bilateral point contacts (mixed sense) with Baumgarte gains towards
//    their standing spots. Joint torques τ₀ (actuation S = [0; 1₁₂], the base is unactuated)
//    from the least-norm contact forces that carry the whole robot (J_bᵀ λ = h_b), then
//    τ₀ = h_j − J_jᵀ λ; checks q̈(x*, S τ₀) = 0.
// 2. linearize_reduced at (x*, S τ₀), body twist: A_r = Pᵀ A P, B_r = Pᵀ B S on the 12-dim
//    tangent space of the manifold. The gain K_r comes from a discrete LQR on the zero-order-hold
//    discretization of (A_r, B_r) at the simulation step (matrix exponential), the Riccati
//    equation solved by the structure-preserving doubling algorithm.
// 3. Push: base velocity 0.3 m/s sideways and 0.2 rad/s roll, plus a base offset of about 1 cm
//    and 2°, made consistent with the contacts (project_configuration, project_velocity).
// 4. The nonlinear constrained dynamics (semi_implicit_euler_step with the ConstraintSet,
//    dt = 1 ms, 4 s) with u = τ₀ − K_r Pᵀ δx, δx = x ⊖ x* (liedyn::difference: the body-twist
//    coordinates the linearization used), and open loop with u = τ₀ from the same start,
//    followed until it falls (roll 10° or base 2 cm down).
// 5. standing_lqr.csv and, if gnuplot is installed, standing_lqr.png.
// Checks (exit 1 otherwise): q̈(x*) = 0; the closed loop's ‖δx‖ falls below 1e-3 of its start
// within 2 s and below 1e-9 by the end; every eigenvalue of A_r − B_r K_r has a negative real
// part; A_r has an eigenvalue with non-negative real part and the open loop falls (the robot does
// not stand on constant torques); the full A has the 2m eigenvalues of the Baumgarte dynamics
// and A_r none of them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>

#include <liedyn/algorithm/constrained_linearization.hpp>
#include <liedyn/algorithm/constraint_projection.hpp>
#include <liedyn/model/urdf.hpp>

using namespace liedyn;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

const char* const kFeet[] = {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"};
// The stance of the example.solo12_standing test.
const std::pair<const char*, double> kPosture[] = {
    {"FL_HFE", 0.8},  {"FL_KFE", -1.6}, {"FR_HFE", 0.8},  {"FR_KFE", -1.6},
    {"HL_HFE", -0.8}, {"HL_KFE", 1.6},  {"HR_HFE", -0.8}, {"HR_KFE", 1.6}};
// Baumgarte gains of every contact row: they pull the simulation back when the unprojected
// Euler step lets the feet drift. The LQR never sees them: their error dynamics
// ë + Kd ė + Kp e = 0 live on the 2m directions off the manifold, which the reduced basis P
// removes (A_r is the same without them, printed below). Roots −10 ± 17.3i: distinct from the
// allowed motions' (so that A's spectrum tells them apart), yet 60 steps per period at 1 ms.
constexpr double kKp = 400, kKd = 20;
// Where a run counts as fallen: the base rolled by 10° or 2 cm lower than standing.
constexpr double kFallRoll = 10 * M_PI / 180, kFallSink = 0.02;

struct Dlqr {
  MatrixXd K;  ///< u = −K z
  int iterations = 0;
  bool converged = false;
  double residual = 0;  ///< of the DARE, relative to ‖Q‖
};

/// Discrete LQR: X = AᵀXA − AᵀXB (R + BᵀXB)⁻¹ BᵀXA + Q by structure-preserving doubling. Each
/// step squares the symplectic pencil, so H_k → X like ρ(A − BK)^(2^k): a 1 ms model whose
/// slowest closed-loop mode is ~1/s needs about 15 steps, where the fixed-point iteration of
/// the Riccati map would need thousands.
Dlqr dlqr(const MatrixXd& A, const MatrixXd& B, const MatrixXd& Q, const MatrixXd& R) {
  const Eigen::Index n = A.rows();
  const MatrixXd I = MatrixXd::Identity(n, n);
  MatrixXd Ak = A, G = B * R.ldlt().solve(B.transpose()), H = Q;
  Dlqr out;
  for (out.iterations = 1; out.iterations <= 60; ++out.iterations) {
    const Eigen::PartialPivLU<MatrixXd> W(I + G * H);
    const MatrixXd WA = W.solve(Ak), WG = W.solve(G);
    MatrixXd Hn = H + Ak.transpose() * H * WA;
    Hn = 0.5 * (Hn + Hn.transpose()).eval();
    G = G + Ak * WG * Ak.transpose();
    G = 0.5 * (G + G.transpose()).eval();
    Ak = Ak * WA;
    const double change = (Hn - H).norm() / Hn.norm();
    H = Hn;
    if (change < 1e-14) {
      out.converged = true;
      break;
    }
  }
  const MatrixXd& X = H;
  out.K = (R + B.transpose() * X * B).ldlt().solve(B.transpose() * X * A);
  out.residual = (A.transpose() * X * A - X - A.transpose() * X * B * out.K + Q).norm() / Q.norm();
  return out;
}

struct Sample {
  double t, deviation, dz, roll, drift,
      dtau;  // ‖δx‖, base z − z* [m], base roll [rad], ‖e‖ [m], max |u − τ₀| [N m]
};

struct Run {
  std::vector<Sample> log;
  std::string stopped;  // why the run ended early (empty: it ran to the end)
};

double roll_of(const SE3<double>& H) { return std::atan2(H.rotation()(2, 1), H.rotation()(2, 2)); }

/// The nonlinear constrained dynamics from x for T seconds, u = τ₀ − F δx (F = K_r Pᵀ; empty:
/// open loop), zero-order hold over each step.
Run simulate(const Model<double>& model, const ConstraintSet<double>& set,
             const State<double>& x_eq, const VectorXd& tau0, const MatrixXd& F, State<double> x,
             double T, double dt) {
  Data<double> data(model);
  ConstraintData<double> cd(model, set);
  const int nv = model.nv();
  VectorXd tau = VectorXd::Zero(nv);
  Run run;
  const int steps = static_cast<int>(std::lround(T / dt));
  for (int k = 0; k <= steps; ++k) {
    const VectorXd dx = difference(model, x_eq, x);
    const VectorXd u = F.size() ? VectorXd(tau0 - F * dx) : tau0;
    tau.tail(nv - 6) = u;
    // A real robot would have fallen here; these contacts are bilateral and would go on
    // holding the feet to the floor while the base sinks through it.
    const double roll = roll_of(x.H), sink = x_eq.H.translation().z() - x.H.translation().z();
    if (std::abs(roll) > kFallRoll || sink > kFallSink) {
      char why[96];
      std::snprintf(why, sizeof why, "fallen at t = %.3f s (roll %.1f deg, base %.1f mm lower)",
                    k * dt, roll * 180 / M_PI, 1e3 * sink);
      run.stopped = why;
      break;
    }
    State<double> next(model);
    try {
      semi_implicit_euler_step(model, data, set, cd, x, tau, dt, next);
    } catch (const ConstraintError& e) {
      run.stopped = std::string("t = ") + std::to_string(k * dt) + " s: " + e.what();
      break;
    }
    run.log.push_back(Sample{k * dt, dx.norm(), -sink, roll, cd.position_error.norm(),
                             (u - tau0).cwiseAbs().maxCoeff()});
    x = next;
  }
  return run;
}

/// The time after which the deviation stays below `fraction` of its start (−1: never).
double settling_time(const std::vector<Sample>& log, double fraction) {
  const double bound = fraction * log.front().deviation;
  if (log.back().deviation >= bound) return -1;
  for (size_t k = log.size(); k-- > 0;)
    if (log[k].deviation >= bound) return log[k + 1].t;
  return 0;
}

double max_real(const Eigen::VectorXcd& ev) { return ev.real().maxCoeff(); }

}  // namespace

int main(int argc, char** argv) {
  const auto wall0 = std::chrono::steady_clock::now();
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SOLO12.urdf [output_dir]\n", argv[0]);
    return 2;
  }
  const std::string dir = argc > 2 ? argv[2] : ".";
  const Model<double> model = load_urdf_file(argv[1]);
  const int nv = model.nv(), nj = nv - 6, N = 2 * nv;
  Data<double> data(model);

  // --- equilibrium ---------------------------------------------------------------------------
  State<double> x_eq(model);
  for (const auto& [joint, angle] : kPosture) x_eq.s(model.joint_id(joint) - 1) = angle;
  forward_poses(model, data, x_eq);
  double foot_z = 0;
  for (const char* f : kFeet)
    foot_z += frame_pose(model, data, std::string(f)).translation().z() / 4;
  x_eq.H =
      SE3<double>(Matrix3<double>::Identity(), Vector3<double>(0, 0, -foot_z));  // feet on z = 0
  forward_poses(model, data, x_eq);
  std::vector<ConstraintSpec<double>> specs;
  for (const char* f : kFeet) {
    auto c = ConstraintSpec<double>::point_contact(f, TwistRepresentation::Mixed);
    c.placement =
        frame_pose(model, data, std::string(f));  // where the foot stands: Kp pulls it back there
    c.Kp = kKp;
    c.Kd = kKd;
    specs.push_back(c);
  }
  const ConstraintSet<double> set(model, specs);
  ConstraintData<double> cd(model, set);
  const int m = set.dimension();

  // The base rows of M q̈ + h − τ̄ = Jᵀ λ at rest with no base wrench, J_bᵀ λ = h_b, leave 6 of
  // the 12 force components free (internal forces between the feet); the least-norm λ has none.
  constraint_kinematics(model, data, set, cd, x_eq);
  const VectorXd h = bias_force(model, data, x_eq);
  const MatrixXd Jb_t = cd.J.leftCols(6).transpose();
  const VectorXd lambda0 = Jb_t.completeOrthogonalDecomposition().solve(VectorXd(h.head(6)));
  const VectorXd tau0 = h.tail(nj) - cd.J.rightCols(nj).transpose() * lambda0;
  VectorXd tau_eq = VectorXd::Zero(nv);
  tau_eq.tail(nj) = tau0;
  const double ddq_eq = constrained_forward_dynamics(model, data, set, cd, x_eq, tau_eq).norm();
  std::printf(
      "solo12: %.3f kg, base at z = %.4f m with the feet on z = 0, %d contact rows (Kp %.0f, Kd "
      "%.0f)\n",
      model.total_mass(), x_eq.H.translation().z(), m, kKp, kKd);
  std::printf("equilibrium: vertical foot forces");
  for (int k = 0; k < 4; ++k) std::printf(" %.3f", cd.lambda(3 * k + 2));
  std::printf(" N, |tau0| = %.3f N m (max %.3f), |ddq| = %.1e\n", tau0.norm(),
              tau0.cwiseAbs().maxCoeff(), ddq_eq);

  // --- reduced linearization and LQR ---------------------------------------------------------
  ReducedLinearization<double> red(model, set);
  linearize_reduced(model, data, set, cd, x_eq, tau_eq, red);  // body twist: δx = x ⊖ x*
  const int k = red.dimension();
  const MatrixXd& P = red.basis;
  const MatrixXd Ar = red.A, Br = red.B.rightCols(nj);  // B_r = Pᵀ B S, S = [0; 1]
  const MatrixXd A_full = data.linearization.A;
  std::printf(
      "tangent space of the manifold: rank C = %d, k = %d of %d; |A P - P A_r| = %.1e (|A| %.1e)\n",
      red.rank, k, N, (A_full * P - P * Ar).cwiseAbs().maxCoeff(), A_full.cwiseAbs().maxCoeff());

  // The Baumgarte terms vanish on the manifold with their first derivatives along it, so A_r
  // does not depend on the gains: they act only on the 2m directions P removes.
  {
    std::vector<ConstraintSpec<double>> plain = specs;
    for (auto& c : plain) c.Kp = c.Kd = 0;
    const ConstraintSet<double> set0(model, plain);
    ConstraintData<double> cd0(model, set0);
    ReducedLinearization<double> red0(model, set0);
    linearize_reduced(model, data, set0, cd0, x_eq, tau_eq, red0);
    std::printf("A_r without Baumgarte gains differs by %.1e (max entry)\n",
                (red0.A - Ar).cwiseAbs().maxCoeff());
  }

  // Weights on the full δx = (η_lin, η_ang, δs, δν_lin, δν_ang, δr), brought to δz = Pᵀ δx:
  // a basis-independent choice, since P is any orthonormal basis of the tangent space.
  VectorXd q(N);
  q << VectorXd::Constant(3, 100.0), VectorXd::Constant(3, 100.0), VectorXd::Constant(nj, 1.0),
      VectorXd::Constant(3, 1.0), VectorXd::Constant(3, 1.0), VectorXd::Constant(nj, 0.01);
  const MatrixXd Qr = P.transpose() * q.asDiagonal() * P;
  const MatrixXd R = MatrixXd::Identity(nj, nj) * 1.0;
  const double dt = 1e-3;
  MatrixXd Z = MatrixXd::Zero(k + nj, k + nj);
  Z.topLeftCorner(k, k) = Ar * dt;
  Z.topRightCorner(k, nj) = Br * dt;
  const MatrixXd E = Z.exp();  // zero-order hold: [Ad Bd; 0 1]
  const MatrixXd Ad = E.topLeftCorner(k, k), Bd = E.topRightCorner(k, nj);
  const Dlqr lqr = dlqr(Ad, Bd, Qr, R);
  const MatrixXd F = lqr.K * P.transpose();  // u = τ₀ − K_r Pᵀ δx

  const Eigen::VectorXcd ev_open = Eigen::EigenSolver<MatrixXd>(Ar, false).eigenvalues();
  const Eigen::VectorXcd ev_closed =
      Eigen::EigenSolver<MatrixXd>(MatrixXd(Ar - Br * lqr.K), false).eigenvalues();
  const Eigen::VectorXcd ev_discrete =
      Eigen::EigenSolver<MatrixXd>(MatrixXd(Ad - Bd * lqr.K), false).eigenvalues();
  const Eigen::VectorXcd ev_full = Eigen::EigenSolver<MatrixXd>(A_full, false).eigenvalues();
  const double rho = ev_discrete.cwiseAbs().maxCoeff();
  std::printf("DARE by doubling: %d iterations (%s), residual %.1e; |K_r|_max = %.2f\n",
              lqr.iterations, lqr.converged ? "converged" : "NOT converged", lqr.residual,
              lqr.K.cwiseAbs().maxCoeff());
  std::printf("open-loop A_r eigenvalues:");
  for (Eigen::Index i = 0; i < ev_open.size(); ++i)
    std::printf(" %.3f%+.3fi", ev_open(i).real(), ev_open(i).imag());
  std::printf(
      "\nclosed-loop A_r - B_r K_r: max real part %.3f (slowest mode); discrete spectral radius "
      "%.6f\n",
      max_real(ev_closed), rho);

  // The forbidden motions: the full A has the roots of s² + Kd s + Kp once per row and
  // position/velocity pair, A_r none; every eigenvalue of A_r is one of A's.
  const std::complex<double> root(-kKd / 2, std::sqrt(kKp - kKd * kKd / 4));
  auto at_root = [&](std::complex<double> z) {
    return std::min(std::abs(z - root), std::abs(z - std::conj(root))) < 1e-6 * std::abs(root);
  };
  int full_at_roots = 0, reduced_at_roots = 0;
  double worst_match = 0;
  for (Eigen::Index i = 0; i < ev_full.size(); ++i) full_at_roots += at_root(ev_full(i));
  for (Eigen::Index i = 0; i < ev_open.size(); ++i) {
    reduced_at_roots += at_root(ev_open(i));
    double nearest = 1e300;
    for (Eigen::Index j = 0; j < ev_full.size(); ++j)
      nearest = std::min(nearest, std::abs(ev_open(i) - ev_full(j)));
    worst_match = std::max(worst_match, nearest);
  }
  std::printf(
      "Baumgarte roots %.1f%+.2fi: %d of A's %d eigenvalues, %d of A_r's %d; A_r's in A's spectrum "
      "to %.1e\n",
      root.real(), root.imag(), full_at_roots, N, reduced_at_roots, k, worst_match);

  // --- push and simulation -------------------------------------------------------------------
  State<double> x0 = x_eq;
  Vector6<double> offset;
  offset << 0.008, -0.006, -0.005, 2.0 * M_PI / 180, 0.0, 0.0;
  x0.H = x_eq.H * SE3<double>::exp(offset);
  x0.nu << 0.0, 0.3, 0.0, 0.2, 0.0, 0.0;  // body twist = inertial directions at a level base
  const int newton = project_configuration(model, data, set, cd, x0);
  project_velocity(model, data, set, cd, x0);
  const VectorXd dx0 = difference(model, x_eq, x0);
  std::printf(
      "push (projected onto the manifold, %d Newton steps): base offset [%.4f %.4f %.4f] m, roll "
      "%.2f deg, "
      "base velocity [%.3f %.3f %.3f] m/s, roll rate %.3f rad/s; |dx| = %.4f, |dx - P P^T dx| = "
      "%.1e\n",
      newton, dx0(0), dx0(1), dx0(2), roll_of(x0.H) * 180 / M_PI, x0.nu(0), x0.nu(1), x0.nu(2),
      x0.nu(3), dx0.norm(), (dx0 - P * (P.transpose() * dx0)).norm());

  const double T = 4.0;
  const Run closed = simulate(model, set, x_eq, tau0, F, x0, T, dt);
  const Run open = simulate(model, set, x_eq, tau0, MatrixXd(), x0, T, dt);
  if (!closed.stopped.empty()) std::printf("closed loop stopped: %s\n", closed.stopped.c_str());
  std::printf("%6s %12s %12s %12s %14s\n", "t [s]", "|dx| LQR", "roll [deg]", "|dx| open",
              "max|u-tau0|");
  for (size_t i = 0; i < closed.log.size(); i += i < 500 ? 100 : 500) {
    const Sample& c = closed.log[i];
    char o[16] = "-";
    if (i < open.log.size()) std::snprintf(o, sizeof o, "%.3e", open.log[i].deviation);
    std::printf("%6.2f %12.3e %12.5f %12s %14.3e\n", c.t, c.deviation, c.roll * 180 / M_PI, o,
                c.dtau);
  }
  double peak_dtau = 0, peak_drift = 0;
  for (const Sample& s : closed.log) {
    peak_dtau = std::max(peak_dtau, s.dtau);
    peak_drift = std::max(peak_drift, s.drift);
  }
  const double dev0 = closed.log.front().deviation, dev_end = closed.log.back().deviation;
  const double t10 = settling_time(closed.log, 0.1), t1000 = settling_time(closed.log, 1e-3);
  std::printf(
      "closed loop: |dx| %.4f -> %.2e at t = %.1f s (ratio %.1e); below 1/10 after %.3f s, below "
      "1e-3 after "
      "%.3f s; peak |u - tau0| %.3f N m, peak contact drift |e| %.1e m\n",
      dev0, dev_end, closed.log.back().t, dev_end / dev0, t10, t1000, peak_dtau, peak_drift);
  std::printf("open loop (u = tau0): |dx| %.3f -> %.3f over %.3f s; %s\n",
              open.log.front().deviation, open.log.back().deviation, open.log.back().t,
              open.stopped.empty() ? "still standing" : open.stopped.c_str());

  // --- output ----------------------------------------------------------------------------------
  const std::string csv = dir + "/standing_lqr.csv";
  if (FILE* f = std::fopen(csv.c_str(), "w")) {
    std::fprintf(
        f,
        "t,dx_closed,dx_open,dz_closed,dz_open,roll_closed,roll_open,drift_closed,dtau_closed\n");
    for (size_t i = 0; i < closed.log.size(); i += 5) {
      const Sample& c = closed.log[i];
      if (i < open.log.size()) {
        const Sample& o = open.log[i];
        std::fprintf(f, "%.3f,%.9e,%.9e,%.9f,%.9f,%.9e,%.9e,%.9e,%.9e\n", c.t, c.deviation,
                     o.deviation, c.dz, o.dz, c.roll, o.roll, c.drift, c.dtau);
      } else {  // the open loop left: empty fields, which gnuplot skips
        std::fprintf(f, "%.3f,%.9e,,%.9f,,%.9e,,%.9e,%.9e\n", c.t, c.deviation, c.dz, c.roll,
                     c.drift, c.dtau);
      }
    }
    std::fclose(f);
    std::printf("wrote %s\n", csv.c_str());
  } else {
    std::printf("could not write %s\n", csv.c_str());
  }
#ifdef LIEDYN_STANDING_LQR_GNUPLOT_SCRIPT
  const std::string png = dir + "/standing_lqr.png";
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {
    const std::string cmd = "gnuplot -e \"csv='" + csv + "'; png='" + png +
                            "'\" '" LIEDYN_STANDING_LQR_GNUPLOT_SCRIPT "'";
    if (std::system(cmd.c_str()) == 0) std::printf("wrote %s\n", png.c_str());
    else std::printf("gnuplot failed; no plot\n");
  } else {
    std::printf("gnuplot not found; no plot (the CSV has the data)\n");
  }
#endif

  // --- checks ----------------------------------------------------------------------------------
  bool ok = true;
  auto check = [&](bool pass, const char* what) {
    if (!pass) {
      std::printf("FAIL: %s\n", what);
      ok = false;
    }
  };
  check(ddq_eq < 1e-9, "the torques tau0 do not hold the robot still (|ddq| >= 1e-9)");
  check(lqr.converged && lqr.residual < 1e-9, "the Riccati iteration did not converge");
  // Measured: below 1e-3 of the start after 0.91 s, 5e-14 of it at 4 s (the rounding floor);
  // the bounds leave a factor 2 in time and 1e4 at the end.
  check(closed.stopped.empty() && t1000 >= 0 && t1000 < 2.0 && dev_end < 1e-9 * dev0,
        "the closed loop's deviation did not fall below 1e-3 of its start within 2 s and 1e-9 by "
        "the end");
  check(max_real(ev_closed) < 0 && rho < 1, "the closed-loop reduced linearization is not stable");
  check(max_real(ev_open) >= 0, "the open-loop A_r has no eigenvalue with non-negative real part");
  check(!open.stopped.empty(), "the open loop did not fall");
  check(full_at_roots == 2 * m && reduced_at_roots == 0 && worst_match < 1e-6,
        "the full A does not carry the forbidden (Baumgarte) modes that A_r lacks");
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("run time %.2f s\n", secs);
  std::printf(ok ? "standing LQR: OK\n" : "standing LQR: FAILED\n");
  return ok ? 0 : 1;
}
