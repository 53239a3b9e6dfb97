// liedyn example — LQR of a fully actuated aerial manipulator hovering at pitch 90°, designed on
// the geometric linearization (no Euler angles), and why an Euler-angle design fails there.
//
//   liedyn_lqr [output_dir]     (default: the current directory)
//
// 1. Builds an omnidirectional octorotor (2 kg) with a 3-joint arm (aerial_manipulator.hpp),
//    the hover state x* at pitch exactly 90° and the hover input u* (S u* = h(x*)).
// 2. A and B S from liedyn::linearize_actuated (body twist), LQR gain from the continuous
//    algebraic Riccati equation (Hamiltonian sign-function solver, no external library).
// 3. Simulates the nonlinear closed loop from a perturbed start (20° rotation, 0.4 m displacement,
//    joints off) with the Lie-group semi-implicit Euler step, feedback on
//    δx = (log(H*⁻¹H), s − s*, ν − ν*, r − r*); prints the error every 0.1 s, writes
//    aerial_manipulator_lqr.csv and, if gnuplot is installed, aerial_manipulator_lqr.png.
// 4. ZYX Euler angles at the same attitude: the map from body angular velocity to Euler-angle
//    rates is singular (det = cos(pitch) = 0), so the Euler-angle A matrix can't be formed.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "aerial_manipulator.hpp"

namespace am = aerial_manipulator;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

int count_non_finite(const MatrixXd& M) {
  int k = 0;
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i) k += std::isfinite(M(i, j)) ? 0 : 1;
  return k;
}

// 2-norm condition number σ_max / σ_min (inf when σ_min = 0).
double condition(const MatrixXd& M) {
  const Eigen::JacobiSVD<MatrixXd> svd(M);
  const VectorXd sv = svd.singularValues();
  return sv(sv.size() - 1) > 0 ? sv(0) / sv(sv.size() - 1)
                               : std::numeric_limits<double>::infinity();
}

}  // namespace

int main(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string dir = argc > 1 ? argv[1] : ".";
  const am::System sys = am::make_system();
  const liedyn::Model<double>& m = sys.model;
  const int n = m.num_joints(), N = 2 * m.nv();

  std::printf("Aerial manipulator: %.2f kg, %d rotors + %d arm joints, nv = %d, state dim %d\n",
              m.total_mass(), am::kNumRotors, n, m.nv(), N);
  const Eigen::JacobiSVD<MatrixXd> svd_rot{MatrixXd(am::rotor_wrench_map())};
  std::printf("rotor wrench map: rank %ld, singular values %.3f .. %.3f\n",
              static_cast<long>(svd_rot.rank()), svd_rot.singularValues()(0),
              svd_rot.singularValues()(5));
  std::printf("hover: pitch = 90 deg exactly, base at (0, 0, 1) m, joints (%.1f, %.1f, %.1f) rad\n",
              sys.hover.s(0), sys.hover.s(1), sys.hover.s(2));
  std::printf("hover input u*: thrusts [");
  for (int k = 0; k < am::kNumRotors; ++k) std::printf("%s%.2f", k ? " " : "", sys.u_hover(k));
  std::printf("] N (bidirectional rotors), joint torques [%.3f %.3f %.3f] N m\n", sys.u_hover(8),
              sys.u_hover(9), sys.u_hover(10));
  std::printf("equilibrium check: max |FD(x*, S u*)| = %.1e\n\n", sys.equilibrium_residual);

  // --- geometric LQR -----------------------------------------------------------------------
  MatrixXd A, Bu, Q, R;
  am::linearize_hover(sys, A, Bu);
  am::weights(m, Q, R);
  const am::Lqr lqr = am::lqr(A, Bu, Q, R);
  const Eigen::EigenSolver<MatrixXd> eig(A - Bu * lqr.K, false);
  std::printf("Geometric LQR (body twist, delta x = (eta, ds, dnu, dr)):\n");
  std::printf(
      "  A %dx%d, B %dx%d all finite: %s; CARE by the sign function: %d iterations, residual "
      "%.1e\n",
      N, N, N, static_cast<int>(Bu.cols()),
      count_non_finite(A) + count_non_finite(Bu) == 0 ? "yes" : "NO", lqr.iterations, lqr.residual);
  std::printf("  closed-loop eigenvalues: max real part %.3f (stable), |K|_max = %.1f\n\n",
              eig.eigenvalues().real().maxCoeff(), lqr.K.cwiseAbs().maxCoeff());

  // --- nonlinear closed loop ---------------------------------------------------------------
  const double T = 4.0, dt = 1e-3;
  const liedyn::State<double> x0 = am::perturbed_start(sys);
  const std::vector<am::Sample> log = am::simulate(sys, lqr.K, x0, T, dt, 10);
  std::printf(
      "Nonlinear closed loop (semi-implicit Euler on SE(3), dt = 1 ms), start: base rotated 20 "
      "deg,\n"
      "displaced by 0.41 m, joints off by 0.71 rad:\n");
  std::printf("%6s %11s %11s %11s %11s %17s\n", "t [s]", "|eta|", "|ds|", "|dnu|", "|dr|",
              "thrust [N]");
  for (size_t k = 0; k < log.size(); k += 10) {
    const am::Sample& s = log[k];
    std::printf("%6.1f %11.3e %11.3e %11.3e %11.3e %8.2f..%6.2f\n", s.t, s.eta, s.ds, s.dnu, s.dr,
                s.thrust_min, s.thrust_max);
  }
  const std::string csv = dir + "/aerial_manipulator_lqr.csv";
  if (FILE* f = std::fopen(csv.c_str(), "w")) {
    std::fprintf(f, "t,eta,ds,dnu,dr,thrust_min,thrust_max\n");
    for (const am::Sample& s : log)
      std::fprintf(f, "%.3f,%.9e,%.9e,%.9e,%.9e,%.6f,%.6f\n", s.t, s.eta, s.ds, s.dnu, s.dr,
                   s.thrust_min, s.thrust_max);
    std::fclose(f);
    std::printf("wrote %s\n", csv.c_str());
  } else {
    std::printf("could not write %s\n", csv.c_str());
  }
#ifdef LIEDYN_LQR_GNUPLOT_SCRIPT
  const std::string png = dir + "/aerial_manipulator_lqr.png";
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {
    const std::string cmd =
        "gnuplot -e \"csv='" + csv + "'; png='" + png + "'\" '" LIEDYN_LQR_GNUPLOT_SCRIPT "'";
    if (std::system(cmd.c_str()) == 0) std::printf("wrote %s\n", png.c_str());
    else std::printf("gnuplot failed; no plot\n");
  } else {
    std::printf("gnuplot not found; no plot (the CSV has the data)\n");
  }
#endif

  // --- Euler angles at the same attitude -----------------------------------------------------
  // ZYX angles (yaw, pitch, roll) = (0, 90°, 0): omega_body = E * (yaw, pitch, roll)-rates.
  const Eigen::Matrix3d E = am::euler_rates_to_body(1.0, 0.0, 0.0);
  const Eigen::Matrix3d Einv = am::body_to_euler_rates(1.0, 0.0, 0.0);
  const Eigen::JacobiSVD<MatrixXd> svd_E{MatrixXd(E)};
  std::printf("\nZYX Euler angles at the hover attitude (yaw, pitch, roll) = (0, 90, 0) deg:\n");
  std::printf(
      "  E (Euler rates -> body angular velocity): det = %.1f, singular values %.3f %.3f %.3f, "
      "rank %ld,"
      " condition %g\n",
      E.determinant(), svd_E.singularValues()(0), svd_E.singularValues()(1),
      svd_E.singularValues()(2), static_cast<long>(svd_E.rank()), condition(E));
  std::printf(
      "  E^-1 (body angular velocity -> Euler rates, entries 1/cos(pitch), tan(pitch)): %d of 9 "
      "entries"
      " non-finite\n",
      count_non_finite(Einv));
  std::printf("  near the singularity: cond(E) =");
  for (double deg : {80.0, 89.0, 89.9, 89.99}) {
    const double th = deg * am::kPi / 180.0;
    std::printf(" %.3g (%.2f deg)",
                condition(am::euler_rates_to_body(std::sin(th), std::cos(th), 0.0)), deg);
  }
  std::printf("\n");
  // Euler-angle coordinates of the state: position error in A (dp = R eta_lin) and angle errors
  // dTheta with eta_ang = E dTheta, the rest unchanged: delta x_geo = J delta x_euler,
  // A_euler = J^-1 A J, B_euler = J^-1 B S. J^-1 needs E^-1.
  MatrixXd Jinv = MatrixXd::Identity(N, N);
  Jinv.topLeftCorner(3, 3) = sys.hover.H.rotation();  // dp = R eta_lin
  Jinv.block(3, 3, 3, 3) = Einv;
  MatrixXd J = MatrixXd::Identity(N, N);
  J.topLeftCorner(3, 3) = sys.hover.H.rotation().transpose();
  J.block(3, 3, 3, 3) = E;
  const MatrixXd A_euler = Jinv * A * J, B_euler = Jinv * Bu;
  std::printf(
      "  Euler-angle linearization: A has %d and B %d non-finite entries; J (geometric <- Euler) "
      "has "
      "rank %ld of %d\n",
      count_non_finite(A_euler), count_non_finite(B_euler),
      static_cast<long>(Eigen::FullPivLU<MatrixXd>(J).rank()), N);
  const am::Lqr lqr_euler = am::lqr(A_euler, B_euler, Q, R);
  std::printf(
      "  -> LQR on Euler angles: K has %d non-finite entries of %d: it can't be formed there.\n",
      count_non_finite(lqr_euler.K), static_cast<int>(lqr_euler.K.size()));
  std::printf(
      "  (The geometric A above is finite at every attitude: its eta rows use no angles.)\n");

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const am::Sample& last = log.back();
  std::printf(
      "\nfinal error at t = %.1f s: |eta| %.1e, |ds| %.1e, |dnu| %.1e, |dr| %.1e (run time %.2f "
      "s)\n",
      last.t, last.eta, last.ds, last.dnu, last.dr, secs);
  return 0;
}
