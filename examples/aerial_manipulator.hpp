// liedyn example core — a fully actuated aerial manipulator hovering at pitch 90°, stabilized by
// an LQR designed on liedyn's geometric (singularity-free) linearization. Shared by the example
// examples/aerial_manipulator_lqr.cpp and the test tests/test_linearization.cpp.
//
// The system: an omnidirectional octorotor base (2 kg, eight bidirectional rotors at the corners
// of a cube, tilted so that the 6 × 8 thrust-to-wrench map has full rank 6 and is well
// conditioned) carrying a 3-joint arm (yaw, shoulder, elbow) with joint motors. The input is
// u = [rotor thrusts (N); joint torques (N m)] and τ̄ = S u with the actuation matrix
// S = [S_rotors 0; 0 I_3] (nv × 11, base rows = the base wrench in the base frame).
//
// Everything here is plain liedyn + Eigen: the model (ModelBuilder), the equilibrium input
// (least squares on S u* = h(x*)), A and B (linearize_actuated, body twist), a continuous-time
// algebraic Riccati solver (Hamiltonian matrix sign function), the nonlinear closed loop
// (semi_implicit_euler_step) with feedback on the geometric error
// δx = (log(H*⁻¹ H), s − s*, ν − ν*, r − r*) = liedyn::difference(model, x*, x), and the ZYX
// Euler-angle rate map used to show why an Euler-angle linearization fails at pitch 90°.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/model/builder.hpp>

namespace aerial_manipulator {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using liedyn::Data;
using liedyn::Matrix3;
using liedyn::Model;
using liedyn::SE3;
using liedyn::State;
using liedyn::Vector3;
using liedyn::Vector6;

constexpr int kNumRotors = 8;
constexpr double kPi = 3.14159265358979323846;

/// R = Rz(yaw) Ry(pitch) Rx(roll) (ZYX / Cardan angles), with the pitch given by its sine and
/// cosine so that pitch = 90° is exact (cos = 0, not 6e-17).
inline Matrix3<double> rotation_zyx(double yaw, double sin_pitch, double cos_pitch, double roll) {
  Matrix3<double> Rz, Ry, Rx;
  Rz << std::cos(yaw), -std::sin(yaw), 0, std::sin(yaw), std::cos(yaw), 0, 0, 0, 1;
  Ry << cos_pitch, 0, sin_pitch, 0, 1, 0, -sin_pitch, 0, cos_pitch;
  Rx << 1, 0, 0, 0, std::cos(roll), -std::sin(roll), 0, std::sin(roll), std::cos(roll);
  return Rz * Ry * Rx;
}

/// ZYX Euler angles Θ = (ψ, θ, φ): the body angular velocity is ω = E(θ, φ) Θ̇ with
///   E = [−sθ 0 1; cθ sφ cφ 0; cθ cφ −sφ 0],  det E = −cos θ.
inline Matrix3<double> euler_rates_to_body(double sin_pitch, double cos_pitch, double roll) {
  const double sf = std::sin(roll), cf = std::cos(roll);
  Matrix3<double> E;
  E << -sin_pitch, 0, 1, cos_pitch * sf, cf, 0, cos_pitch * cf, -sf, 0;
  return E;
}

/// Its inverse in closed form, Θ̇ = E⁻¹ ω: entries 1/cos θ and tan θ — non-finite at θ = 90°.
inline Matrix3<double> body_to_euler_rates(double sin_pitch, double cos_pitch, double roll) {
  const double sf = std::sin(roll), cf = std::cos(roll);
  const double sec = 1.0 / cos_pitch, tan = sin_pitch / cos_pitch;
  Matrix3<double> Einv;
  Einv << 0, sf * sec, cf * sec, 0, cf, -sf, 1, sf * tan, cf * tan;
  return Einv;
}

/// Spatial inertia of a solid box (sizes x, y, z) of mass m centred at c.
inline liedyn::SpatialInertia<double> box(double m, const Vector3<double>& c, double x, double y,
                                          double z) {
  const Vector3<double> d(m * (y * y + z * z) / 12, m * (x * x + z * z) / 12,
                          m * (x * x + y * y) / 12);
  return liedyn::SpatialInertia<double>::from_mass_com_inertia(m, c,
                                                               Matrix3<double>(d.asDiagonal()));
}

/// The 6 × 8 map from rotor thrusts to the base wrench [force; moment] in the base frame. Rotor k
/// sits at the cube corner p_k = L (±1, ±1, ±1)/√3 and thrusts along the unit axis
/// d_k ∝ p_k × (1, ±1, 0) (tangential: a nearly isotropic octorotor); its column is the unit
/// thrust wrench [d_k; p_k × d_k + σ_k c d_k] with the propeller's drag-to-thrust ratio c and
/// spin direction σ_k = ±1.
inline Eigen::Matrix<double, 6, kNumRotors> rotor_wrench_map(double arm = 0.25,
                                                             double drag = 0.016) {
  Eigen::Matrix<double, 6, kNumRotors> S;
  for (int k = 0; k < kNumRotors; ++k) {
    const Vector3<double> s((k & 1) ? 1 : -1, (k & 2) ? 1 : -1, (k & 4) ? 1 : -1);
    const double parity = s(0) * s(1) * s(2);
    const Vector3<double> p = arm * s / std::sqrt(3.0);
    const Vector3<double> d = p.cross(Vector3<double>(1, parity, 0)).normalized();
    S.col(k) << d, p.cross(d) + parity * drag * d;
  }
  return S;
}

/// The aerial manipulator: base "body" (2 kg) and arm joints arm_yaw (z), arm_shoulder (y),
/// arm_elbow (y) mounted under it.
inline Model<double> build_model() {
  liedyn::ModelBuilder<double> b(liedyn::BaseType::Moving, "body");
  // Hexarotor-like base inertia: I = diag(0.025, 0.025, 0.045) kg m², centre of mass at the origin.
  b.set_base_inertia(liedyn::SpatialInertia<double>::from_mass_com_inertia(
      2.0, Vector3<double>::Zero(),
      Matrix3<double>(Vector3<double>(0.025, 0.025, 0.045).asDiagonal())));
  using J = liedyn::JointSpec<double>;
  const SE3<double> I3 = SE3<double>::Identity();
  b.add_body("body", "arm_link1",
             J::revolute("arm_yaw", Vector3<double>::UnitZ(),
                         SE3<double>(I3.rotation(), Vector3<double>(0, 0, -0.08))),
             box(0.15, Vector3<double>(0, 0, -0.03), 0.04, 0.04, 0.06));
  b.add_body("arm_link1", "arm_link2",
             J::revolute("arm_shoulder", Vector3<double>::UnitY(),
                         SE3<double>(I3.rotation(), Vector3<double>(0, 0, -0.06))),
             box(0.25, Vector3<double>(0.12, 0, 0), 0.24, 0.03, 0.03));
  b.add_body("arm_link2", "arm_link3",
             J::revolute("arm_elbow", Vector3<double>::UnitY(),
                         SE3<double>(I3.rotation(), Vector3<double>(0.24, 0, 0))),
             box(0.15, Vector3<double>(0.10, 0, 0), 0.20, 0.03, 0.03));
  return b.build();
}

struct System {
  Model<double> model;
  MatrixXd actuation;               ///< S (nv × (8 + n)): τ̄ = S u
  State<double> hover;              ///< x*: pitch exactly 90°, at rest
  VectorXd u_hover;                 ///< u*: least-squares solution of S u* = h(x*)
  double equilibrium_residual = 0;  ///< max |FD(x*, S u*)|
};

/// The system at its hover state x* = (H* = (Rz(0) Ry(90°) Rx(0), (0, 0, 1)), s*, 0, 0).
inline System make_system() {
  System sys;
  sys.model = build_model();
  const Model<double>& m = sys.model;
  const int n = m.num_joints(), nv = m.nv();
  sys.actuation = MatrixXd::Zero(nv, kNumRotors + n);
  sys.actuation.topLeftCorner(6, kNumRotors) = rotor_wrench_map();
  sys.actuation.bottomRightCorner(n, n).setIdentity();
  sys.hover = State<double>(m);
  sys.hover.H = SE3<double>(rotation_zyx(0.0, 1.0, 0.0, 0.0), Vector3<double>(0, 0, 1));
  sys.hover.s << 0.3, 0.5, -0.9;
  Data<double> data(m);
  const VectorXd h = liedyn::bias_force(m, data, sys.hover);               // gravity alone: at rest
  sys.u_hover = sys.actuation.completeOrthogonalDecomposition().solve(h);  // min-norm least squares
  const VectorXd tau = sys.actuation * sys.u_hover;
  liedyn::aba(m, data, sys.hover, tau);
  sys.equilibrium_residual = data.ddq.cwiseAbs().maxCoeff();
  return sys;
}

struct Lqr {
  MatrixXd K;           ///< u = u* − K δx
  MatrixXd P;           ///< stabilizing solution of the CARE
  double residual = 0;  ///< ‖AᵀP + PA − PBR⁻¹BᵀP + Q‖_max / ‖Q‖_max
  int iterations = 0;   ///< of the sign iteration
  bool converged = false;
};

/// Continuous-time LQR: P solves AᵀP + PA − P B R⁻¹ Bᵀ P + Q = 0, K = R⁻¹ Bᵀ P. By the matrix
/// sign function of the Hamiltonian Z = [A, −BR⁻¹Bᵀ; −Q, −Aᵀ] (Newton iteration with determinant
/// scaling): with W = sign(Z), P solves [W12; W22 + I] P = −[W11 + I; W21] (least squares).
inline Lqr lqr(const MatrixXd& A, const MatrixXd& B, const MatrixXd& Q, const MatrixXd& R) {
  const int N = static_cast<int>(A.rows());
  const MatrixXd G = B * R.ldlt().solve(B.transpose());
  MatrixXd W(2 * N, 2 * N);
  W << A, -G, -Q, -A.transpose();
  Lqr out;
  for (out.iterations = 1; out.iterations <= 100; ++out.iterations) {
    const Eigen::PartialPivLU<MatrixXd> lu(W);
    double log_det = 0;
    for (int i = 0; i < 2 * N; ++i) log_det += std::log(std::abs(lu.matrixLU()(i, i)));
    const double mu = std::exp(-log_det / (2 * N));
    const MatrixXd Wn = 0.5 * (mu * W + lu.inverse() / mu);
    const double change = (Wn - W).cwiseAbs().maxCoeff() / std::max(1.0, Wn.cwiseAbs().maxCoeff());
    W = Wn;
    if (change < 1e-13) {
      out.converged = true;
      break;
    }
  }
  MatrixXd lhs(2 * N, N), rhs(2 * N, N);
  lhs << W.topRightCorner(N, N), W.bottomRightCorner(N, N) + MatrixXd::Identity(N, N);
  rhs << -(W.topLeftCorner(N, N) + MatrixXd::Identity(N, N)), -W.bottomLeftCorner(N, N);
  const MatrixXd P = lhs.colPivHouseholderQr().solve(rhs);
  out.P = 0.5 * (P + P.transpose());
  out.K = R.ldlt().solve(B.transpose() * out.P);
  const MatrixXd res = A.transpose() * out.P + out.P * A - out.P * G * out.P + Q;
  out.residual = res.cwiseAbs().maxCoeff() / Q.cwiseAbs().maxCoeff();
  return out;
}

/// LQR weights: position/attitude error 40 and 20, joints 10, base twist 2 / 1, joint rates 0.5;
/// thrusts 0.05 N⁻², joint torques 1 (N m)⁻².
inline void weights(const Model<double>& m, MatrixXd& Q, MatrixXd& R) {
  const int n = m.num_joints(), N = 2 * m.nv();
  VectorXd q(N);
  q << VectorXd::Constant(3, 40.0), VectorXd::Constant(3, 20.0), VectorXd::Constant(n, 10.0),
      VectorXd::Constant(3, 2.0), VectorXd::Constant(3, 1.0), VectorXd::Constant(n, 0.5);
  Q = q.asDiagonal();
  VectorXd r(kNumRotors + n);
  r << VectorXd::Constant(kNumRotors, 0.05), VectorXd::Constant(n, 1.0);
  R = r.asDiagonal();
}

/// The geometric linearization at hover (body twist): A (N × N) and B S (N × (8 + n)).
inline void linearize_hover(const System& sys, MatrixXd& A, MatrixXd& Bu) {
  Data<double> data(sys.model);
  liedyn::linearize_actuated(sys.model, data, sys.hover, sys.actuation, sys.u_hover, Bu);
  A = data.linearization.A;
}

/// The perturbed start: base rotated by 20° about (1, −2, 1)/√6 (in the base frame) and
/// displaced by (0.3, −0.2, 0.15) m, joints off by (0.4, −0.3, 0.5) rad, at rest.
inline State<double> perturbed_start(const System& sys) {
  State<double> x = sys.hover;
  Vector6<double> eta = Vector6<double>::Zero();
  eta.tail<3>() = Vector3<double>(1, -2, 1).normalized() * (20.0 * kPi / 180.0);
  x.H = SE3<double>(Matrix3<double>(sys.hover.H.rotation() * SE3<double>::exp(eta).rotation()),
                    Vector3<double>(sys.hover.H.translation() + Vector3<double>(0.3, -0.2, 0.15)));
  x.s += Vector3<double>(0.4, -0.3, 0.5);
  return x;
}

struct Sample {
  double t, eta, ds, dnu, dr;  ///< time and the norms of the four parts of δx
  double thrust_min, thrust_max;
};

/// Simulates the nonlinear closed loop u = u* − K δx(x) for T seconds with the Lie-group
/// semi-implicit Euler step (time step dt, zero-order hold on u), logging every `log_every` steps.
inline std::vector<Sample> simulate(const System& sys, const MatrixXd& K, State<double> x, double T,
                                    double dt, int log_every) {
  const Model<double>& m = sys.model;
  const int n = m.num_joints();
  Data<double> data(m);
  std::vector<Sample> log;
  const int steps = static_cast<int>(std::lround(T / dt));
  for (int k = 0; k <= steps; ++k) {
    const VectorXd dx = liedyn::difference(m, sys.hover, x);  // (log(H*⁻¹H), δs, δν, δr)
    const VectorXd u = sys.u_hover - K * dx;
    if (k % log_every == 0) {
      const auto th = u.head(kNumRotors);
      log.push_back(Sample{k * dt, dx.head<6>().norm(), dx.segment(6, n).norm(),
                           dx.segment(6 + n, 6).norm(), dx.tail(n).norm(), th.minCoeff(),
                           th.maxCoeff()});
    }
    if (k == steps) break;
    const VectorXd tau = sys.actuation * u;
    x = liedyn::semi_implicit_euler_step(m, data, x, tau, dt);
  }
  return log;
}

}  // namespace aerial_manipulator
