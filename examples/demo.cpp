// liedyn demo: the exact linearization of a moving-base robot, checked and timed.
//
// Loads the humanoid the project ships (examples/models/humanoid.urdf: 34 joints, a floating
// base), puts it in a non-trivial state — the base pitched by 90°, where roll-pitch-yaw angles
// are in gimbal lock (liedyn never uses angles: the pose is an element of SE(3)), moving, joints
// away from zero — linearizes the forward dynamics there, δẋ = A δx + B δτ̄ (body twist), checks
// A and B against central finite differences of the nonlinear dynamics taken on the Lie group in
// long double, and prints the time per call of the main kernels.
//
//   liedyn_demo [ROBOT.urdf]         (run by `cmake --build --preset release --target run-demo`)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <liedyn/algorithm/aba.hpp>
#include <liedyn/algorithm/eidamb.hpp>
#include <liedyn/algorithm/eidamb_derivatives.hpp>
#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/numdiff.hpp>
#include <liedyn/version.hpp>
#ifdef LIEDYN_HAS_URDF
#include <liedyn/model/urdf.hpp>
#else
#include <liedyn/testing/samples.hpp>
#endif

using namespace liedyn;

namespace {

// The tangent vector field of the dynamics around the state x0 (body twist): with the perturbed
// state x = (H0 exp(η^), s0 + δs, ν0 + δν, r0 + δr) moving under input τ̄, d/dt δx =
//   (Jr(η)⁻¹ (ν − Ad(exp η)⁻¹ ν0),  r,  ν̇,  ṙ)     (constant terms dropped; they cancel)
// with (ν̇, ṙ) = ABA(x, τ̄). Its Jacobians at δx = 0 are A (w.r.t. δx) and B (w.r.t. τ̄).
template <class S>
VectorX<S> vector_field(const Model<S>& model, Data<S>& data, const State<S>& x0,
                        const VectorX<S>& dx, const VectorX<S>& tau) {
  const int n = model.num_joints();
  const Vector6<S> eta = dx.template head<6>();
  State<S> x = x0;
  x.H = x0.H * SE3<S>::exp(eta);
  x.s += dx.segment(6, n);
  x.nu += dx.template segment<6>(6 + n);
  x.r += dx.segment(12 + n, n);
  VectorX<S> f(2 * model.nv());
  f.template head<6>() = SE3<S>::right_jacobian_inverse(eta) *
                         (x.nu - SE3<S>::exp(eta).inverse().velocity_transform() * x0.nu);
  f.segment(6, n) = x.r;
  f.tail(model.nv()) = aba(model, data, x, tau);
  return f;
}

double rel_error(const MatrixX<double>& a, const MatrixX<double>& ref) {
  return (a - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
}

/// Median wall time of f() in microseconds over `calls` calls (after a few warm-up calls).
template <class F>
double median_us(F&& f, int calls = 200) {
  for (int k = 0; k < 10; ++k) f();
  std::vector<double> t(static_cast<std::size_t>(calls));
  for (double& ti : t) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ti = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + calls / 2, t.end());
  return t[static_cast<std::size_t>(calls / 2)];
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("liedyn %s demo: the exact linearization of a moving-base robot\n\n", version_string);
#ifdef LIEDYN_HAS_URDF
  const std::string path = argc > 1 ? argv[1] : LIEDYN_DEMO_MODEL;
  Model<double> model;
  try {
    model = load_urdf_file(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "liedyn_demo: %s\n", e.what());
    return 2;
  }
  const std::string name = path.substr(path.find_last_of('/') + 1);
#else
  (void)argc;
  (void)argv;
  const Model<double> model = figure4_model();
  const std::string name = "the paper's Figure-4 robot (built without URDF support)";
#endif
  if (!model.has_moving_base() || !model.singular_joints().empty()) {
    std::fprintf(stderr, "liedyn_demo: %s needs a moving base and an invertible mass matrix\n",
                 name.c_str());
    return 2;
  }
  const int n = model.num_joints(), nv = model.nv();
  std::printf("robot   %s: %d joints (nv = %d), %d bodies, %.2f kg\n", name.c_str(), n, nv,
              model.num_bodies(), model.total_mass());

  // The state: base pitched 90° about y (roll-pitch-yaw in gimbal lock), 0.9 m up, moving;
  // joints spread over their ranges, moving.
  State<double> x(model);
  x.H = SE3<double>(SO3<double>::exp(Vector3<double>(0.0, M_PI / 2, 0.0)),
                    Vector3<double>(0.2, -0.1, 0.9));
  x.nu << 0.3, -0.2, 0.1, 0.4, 0.5, -0.3;
  for (int i = 1; i <= n; ++i) {
    const Joint<double>& j = model.joint(i);
    const double lo = std::isfinite(j.lower) ? j.lower : -M_PI,
                 hi = std::isfinite(j.upper) ? j.upper : M_PI;
    x.s(i - 1) = lo + (hi - lo) * (0.5 + 0.3 * std::sin(1.7 * i));
    x.r(i - 1) = 0.5 * std::cos(1.3 * i);
  }
  // The input: no base wrench (free-floating), joint torques = gravity and velocity compensation
  // plus a ripple.
  Data<double> data(model);
  VectorX<double> tau = bias_force(model, data, x);
  tau.head<6>().setZero();
  for (int i = 0; i < n; ++i) tau(6 + i) += 0.5 * std::sin(0.9 * i);
  std::printf(
      "state   base pitched 90 deg (gimbal lock for roll-pitch-yaw angles), 0.9 m up, moving:\n"
      "        body twist (%.1f, %.1f, %.1f | %.1f, %.1f, %.1f); joints spread over their ranges, "
      "moving;\n"
      "        input: joint torques (gravity + velocity compensation + ripple), no base wrench\n",
      x.nu(0), x.nu(1), x.nu(2), x.nu(3), x.nu(4), x.nu(5));

  // The analytic linearization.
  linearize(model, data, x, tau);
  const MatrixX<double> A = data.linearization.A, B = data.linearization.B;
  std::printf(
      "\nlinearize   d(dx)/dt = A dx + B dtau,  dx = (eta, ds, dnu, dr), H = H0 exp(eta^)  (body "
      "twist)\n"
      "            A: %d x %d, B: %d x %d\n",
      int(A.rows()), int(A.cols()), int(B.rows()), int(B.cols()));

  // Check: central finite differences of the nonlinear vector field, in long double.
  using LD = long double;
  const Model<LD> model_ld = model.cast<LD>();
  Data<LD> data_ld(model_ld);
  const State<LD> x_ld = x.cast<LD>();
  const VectorX<LD> tau_ld = tau.cast<LD>(), zero = VectorX<LD>::Zero(2 * nv);
  const auto t0 = std::chrono::steady_clock::now();
  const MatrixX<double> A_fd =
      numdiff::vector_jacobian(
          [&](const VectorX<LD>& dx) { return vector_field(model_ld, data_ld, x_ld, dx, tau_ld); },
          zero)
          .cast<double>();
  const MatrixX<double> B_fd =
      numdiff::vector_jacobian(
          [&](const VectorX<LD>& u) { return vector_field(model_ld, data_ld, x_ld, zero, u); },
          tau_ld)
          .cast<double>();
  const double fd_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const double errA = rel_error(A, A_fd), errB = rel_error(B, B_fd);
  const double tol = 1e-8;
  const bool agree = errA <= tol && errB <= tol;
  std::printf(
      "check       against central finite differences of forward dynamics (ABA) on SE(3) x R^n,\n"
      "            in long double (%d + %d columns, %.0f ms):\n"
      "            max|A - A_fd| / max|A_fd| = %.1e\n"
      "            max|B - B_fd| / max|B_fd| = %.1e   -> %s (tolerance %.0e)\n",
      int(A.cols()), int(B.cols()), fd_ms, errA, errB, agree ? "AGREE" : "DISAGREE", tol);

  // Timings.
  const VectorX<double> ddq = data.ddq;
  volatile double sink = 0;
  const double t_lin = median_us([&] {
    linearize(model, data, x, tau);
    sink = data.linearization.A(0, 0);
  });
  const double t_id = median_us([&] { sink = eidamb(model, data, x, ddq)(0); });
  const double t_fd = median_us([&] { sink = aba(model, data, x, tau)(0); });
  const double t_d = median_us([&] {
    eidamb_derivatives(model, data, x, ddq);
    sink = data.derivatives.D2(0, 0);
  });
  (void)sink;
  std::printf(
      "\ntime per call (median of 200 calls, one thread; a demo print, not a benchmark):\n"
      "  linearize           A and B                      %8.1f us\n"
      "  eidamb              inverse dynamics             %8.1f us\n"
      "  aba                 forward dynamics             %8.1f us\n"
      "  eidamb_derivatives  D1..D4 and M                 %8.1f us\n",
      t_lin, t_id, t_fd, t_d);
  return agree ? 0 : 1;
}
