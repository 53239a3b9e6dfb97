// liedyn tests — the linearization of the forward dynamics on the Lie group
// (algorithm/linearization.hpp): continuous A and B in every base-twist representation and for
// every input choice, the discrete-time Jacobians of the semi-implicit Euler step, the two M⁻¹
// routes, refusal of a singular mass matrix, no heap allocation, and the aerial-manipulator LQR
// closed loop of examples/aerial_manipulator_lqr.cpp.
//
// Oracles, independent of the code under test:
//   * central finite differences in long double of the whole vector field, forward dynamics by
//     the textbook route of reference_dynamics.hpp (M from nv RNEA passes, dense Cholesky), with
//     the geometric perturbation x ⊕ δx = (H exp(η^), s + δs, t + δt, r + δr) of
//     docs/conventions.md §3, §5;
//   * the reference numbers AB, BB, AI, BI of an independent numpy implementation (tests/data/);
//   * a hand-written semi-implicit Euler step (4×4 matrix exponential by Taylor series);
//   * the physics of a stabilized hover (the closed loop must converge).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include <liedyn/algorithm/linearization.hpp>
#include <liedyn/algorithm/reference_dynamics.hpp>
#include <liedyn/numdiff/state_field.hpp>
#include <liedyn/testing/samples.hpp>

#if defined(LIEDYN_HAS_URDF) && defined(__has_include)
#if __has_include(<liedyn/model/urdf.hpp>)
#include <liedyn/model/urdf.hpp>
#define LIEDYN_TEST_LIN_URDF 1
#endif
#endif

#include "../examples/aerial_manipulator.hpp"
#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using liedyn::Data;
using liedyn::LinearizationOptions;
using liedyn::Matrix4;
using liedyn::Matrix6;
using liedyn::MatrixX;
using liedyn::MinvMethod;
using liedyn::Model;
using liedyn::ModelBuilder;
using liedyn::ModelError;
using liedyn::Motion;
using liedyn::RandomModelOptions;
using liedyn::SE3;
using liedyn::SpatialInertia;
using liedyn::State;
using liedyn::Vector3;
using liedyn::Vector6;
using liedyn::VectorX;
using liedyn::test::relative_error;
using Rep = liedyn::TwistRepresentation;
using LD = long double;

namespace {

constexpr Rep kReps[] = {Rep::Body, Rep::Inertial, Rep::Mixed};

// Central-difference step in long double (ε ≈ 1.1e-19): truncation ~ δ²/6 |f'''| ≈ 2e-13 and
// round-off ~ ε κ(M) |f| / δ ≈ 1e-13 for the models here, both far below the tolerances.
constexpr LD kFdStep = 1e-6L;

struct NamedModel {
  std::string name;
  Model<double> model;
};

/// figure4, random chains and trees (moving and welded, mixed joint types, some with armature)
/// and, when the URDF loader is built, the shipped quadruped and humanoid.
std::vector<NamedModel> fd_models() {
  std::vector<NamedModel> ms;
  ms.push_back({"figure4", liedyn::figure4_model<double>()});
  std::mt19937 rng(liedyn::test::default_seed);
  RandomModelOptions o;
  ms.push_back({"random moving chain", liedyn::random_model<double>(6, rng, o)});
  o.branching = 3;
  o.armature = 0.05;
  ms.push_back({"random moving tree + armature", liedyn::random_model<double>(9, rng, o)});
  o = RandomModelOptions{};
  o.moving_base = false;
  ms.push_back({"random welded chain", liedyn::random_model<double>(5, rng, o)});
  o.branching = 2;
  o.armature = 0.1;
  ms.push_back({"random welded tree + armature", liedyn::random_model<double>(7, rng, o)});
#ifdef LIEDYN_TEST_LIN_URDF
  ms.push_back({"quadruped", liedyn::load_urdf_file(LIEDYN_TEST_DATA_DIR
                                                    "/../../examples/models/quadruped.urdf")});
  ms.push_back({"humanoid", liedyn::load_urdf_file(LIEDYN_TEST_DATA_DIR
                                                   "/../../examples/models/humanoid.urdf")});
#endif
  return ms;
}

VectorX<double> random_vector(int n, std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  VectorX<double> v(n);
  for (int k = 0; k < n; ++k) v(k) = u(rng);
  return v;
}

MatrixX<double> random_matrix(int r, int c, std::mt19937& rng) {
  MatrixX<double> M(r, c);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < r; ++i) M(i, j) = u(rng);
  return M;
}

/// x ⊕ δx in the coordinates of representation `rep`: (H exp(η^), s + δs, t + δt, r + δr), the
/// body twist then recovered from t at the perturbed H (a welded base: (s + δs, r + δr)).
template <class T>
State<T> retract(const Model<T>& m, const State<T>& x, const VectorX<T>& dx, Rep rep) {
  State<T> y = x;
  const int n = m.num_joints();
  if (!m.has_moving_base()) {
    y.s += dx.head(n);
    y.r += dx.tail(n);
    return y;
  }
  const Vector6<T> t = x.base_twist(rep) + dx.template segment<6>(6 + n);
  y.H = x.H * SE3<T>::exp(Vector6<T>(dx.template head<6>()));
  y.s += dx.segment(6, n);
  y.set_base_twist(t, rep);
  y.r += dx.tail(n);
  return y;
}

using liedyn::numdiff::local_difference;

/// The vector field in `rep` coordinates, except for the η rows (see fd_continuous):
/// [ν; r; d/dt t; ṙ] with (ν̇, ṙ) = M⁻¹(τ̄ − h) by the reference route and d/dt t the
/// representation's apparent acceleration; [r; ṙ] for a welded base.
template <class T>
VectorX<T> vector_field(const Model<T>& m, Data<T>& d, const State<T>& x, const VectorX<T>& tau,
                        Rep rep) {
  const VectorX<T> acc = liedyn::forward_dynamics_llt(m, d, x, tau);
  const int n = m.num_joints();
  VectorX<T> f(2 * m.nv());
  if (m.has_moving_base())
    f << x.nu, x.r,
        liedyn::base_acceleration_from_body(x.H, x.nu, Vector6<T>(acc.template head<6>()), rep),
        acc.tail(n);
  else f << x.r, acc;
  return f;
}

struct FdJacobians {
  MatrixX<LD> A, B;
};

/// Central differences in long double of the vector field at (x, τ̄0): A (state) and B for the
/// input u of τ̄ = τ̄0 + G u. The η rows: a curve H(t) = H̄(t) exp(η(t)^) has η̇ = δν − ad_ν̄ η, so
/// their A block is ∂ν(x ⊕ δx)/∂δx minus ad_ν̄ on the η columns.
FdJacobians fd_continuous(const Model<double>& md, const State<double>& xd,
                          const VectorX<double>& tau0, const MatrixX<double>& G, Rep rep) {
  const Model<LD> m = md.cast<LD>();
  Data<LD> d(m);
  const State<LD> x = xd.cast<LD>();
  const VectorX<LD> tau = tau0.cast<LD>();
  const MatrixX<LD> GL = G.cast<LD>();
  const int N = 2 * m.nv();
  const LD h = kFdStep;
  FdJacobians fd;
  fd.A.resize(N, N);
  for (int k = 0; k < N; ++k) {
    VectorX<LD> e = VectorX<LD>::Zero(N);
    e(k) = h;
    const VectorX<LD> fp = vector_field(m, d, retract(m, x, e, rep), tau, rep);
    const VectorX<LD> fm = vector_field(m, d, retract(m, x, VectorX<LD>(-e), rep), tau, rep);
    fd.A.col(k) = (fp - fm) / (2 * h);
  }
  if (m.has_moving_base()) fd.A.topLeftCorner(6, 6) -= Motion<LD>(x.nu).cross_matrix();
  fd.B.resize(N, G.cols());
  for (int k = 0; k < G.cols(); ++k) {
    const VectorX<LD> fp = vector_field(m, d, x, VectorX<LD>(tau + h * GL.col(k)), rep);
    const VectorX<LD> fm = vector_field(m, d, x, VectorX<LD>(tau - h * GL.col(k)), rep);
    fd.B.col(k) = (fp - fm) / (2 * h);
  }
  return fd;
}

/// Central differences in long double of the semi-implicit Euler step, in `rep` coordinates at
/// both ends: δx⁺ = (x ⊕ δx)⁺ ⊖ x̄⁺.
FdJacobians fd_discrete(const Model<double>& md, const State<double>& xd,
                        const VectorX<double>& tau0, double dt, Rep rep) {
  const Model<LD> m = md.cast<LD>();
  Data<LD> d(m);
  const State<LD> x = xd.cast<LD>();
  const VectorX<LD> tau = tau0.cast<LD>();
  const int N = 2 * m.nv(), nv = m.nv();
  const LD h = kFdStep, step = dt;
  auto phi = [&](const State<LD>& y, const VectorX<LD>& t) {
    return liedyn::semi_implicit_euler_step(m, d, y, t, step);
  };
  const State<LD> xp = phi(x, tau);
  FdJacobians fd;
  fd.A.resize(N, N);
  for (int k = 0; k < N; ++k) {
    VectorX<LD> e = VectorX<LD>::Zero(N);
    e(k) = h;
    const VectorX<LD> p = local_difference(m, xp, phi(retract(m, x, e, rep), tau), rep);
    const VectorX<LD> q =
        local_difference(m, xp, phi(retract(m, x, VectorX<LD>(-e), rep), tau), rep);
    fd.A.col(k) = (p - q) / (2 * h);
  }
  fd.B.resize(N, nv);
  for (int k = 0; k < nv; ++k) {
    VectorX<LD> e = VectorX<LD>::Zero(nv);
    e(k) = h;
    const VectorX<LD> p = local_difference(m, xp, phi(x, VectorX<LD>(tau + e)), rep);
    const VectorX<LD> q = local_difference(m, xp, phi(x, VectorX<LD>(tau - e)), rep);
    fd.B.col(k) = (p - q) / (2 * h);
  }
  return fd;
}

/// exp of a 4×4 matrix by scaling and squaring of its Taylor series (long double).
Matrix4<LD> expm(const Matrix4<LD>& X) {
  int squarings = 0;
  LD norm = X.cwiseAbs().rowwise().sum().maxCoeff();
  while (norm > 0.25L) {
    norm /= 2;
    ++squarings;
  }
  const Matrix4<LD> Y = X / std::ldexp(1.0L, squarings);
  Matrix4<LD> E = Matrix4<LD>::Identity(), term = Matrix4<LD>::Identity();
  for (int k = 1; k <= 30; ++k) {
    term = (term * Y / LD(k)).eval();
    E += term;
  }
  for (int k = 0; k < squarings; ++k) E = (E * E).eval();
  return E;
}

/// The 4×4 matrix v^ = [ω^ v_lin; 0 0] of a twist.
Matrix4<LD> twist_hat(const Vector6<LD>& v) {
  Matrix4<LD> X = Matrix4<LD>::Zero();
  X.topLeftCorner<3, 3>() = liedyn::hat(Vector3<LD>(v.tail<3>()));
  X.topRightCorner<3, 1>() = v.head<3>();
  return X;
}

}  // namespace

TEST_CASE(
    "Linearization: continuous A and B equal long-double finite differences of the vector field",
    "[linearization]") {
  // Tolerance: the finite differences are accurate to ~1e-12 (see kFdStep) and A, B to double
  // round-off amplified by κ(M) (< 1e-10 here); 1e-9 relative leaves margin, and a wrong
  // block (a missing ad_ν, a transposed R, a wrong sign) is O(1e-2) or larger.
  const double tol = 1e-9;
  double worst_A = 0, worst_B = 0;
  std::mt19937 rng(liedyn::test::default_seed + 1);
  for (const NamedModel& nm : fd_models()) {
    const Model<double>& m = nm.model;
    const int nv = m.nv(), n = m.num_joints(), off = m.offset();
    const bool big = nv > 20;  // the URDF robots: one state, to keep the test fast
    for (int trial = 0; trial < (big ? 1 : 2); ++trial) {
      State<double> x = liedyn::random_state(m, rng);
      if (trial == 1) {  // faster motion: the velocity terms dominate
        x.nu *= 3.0;
        x.r *= 3.0;
      }
      const VectorX<double> tau = random_vector(nv, rng, -5, 5);
      const MatrixX<double> S = random_matrix(nv, nv - 1, rng);  // a user actuation matrix
      const VectorX<double> u = random_vector(nv - 1, rng, -5, 5);
      MatrixX<double> G_joints = MatrixX<double>::Zero(nv, n);
      G_joints.bottomRows(n).setIdentity();
      for (Rep rep : kReps) {
        if (!m.has_moving_base() && rep != Rep::Body) continue;  // no base twist to represent
        INFO(nm.name << ", state " << trial << ", " << liedyn::to_string(rep) << " twist");
        Data<double> d(m);
        LinearizationOptions<double> opt;
        opt.representation = rep;
        // Full τ̄ and joint torques only (B.rightCols(n) against differences in τ alone).
        liedyn::linearize(m, d, x, tau, opt);
        const MatrixX<double> A = d.linearization.A, B = d.linearization.B;
        const FdJacobians fd = fd_continuous(m, x, tau, MatrixX<double>::Identity(nv, nv), rep);
        const FdJacobians fdj = fd_continuous(m, x, tau, G_joints, rep);
        const double eA = relative_error(A, fd.A), eB = relative_error(B, fd.B);
        const double eBj = relative_error(MatrixX<double>(B.rightCols(n)), fdj.B);
        CHECK(eA < tol);
        CHECK(eB < tol);
        CHECK(eBj < tol);
        CHECK(fd.A.cwiseAbs().maxCoeff() > 1e-2L);      // not a vacuous comparison
        if (off == 6) CHECK(B.topRows(6).isZero(0.0));  // η̇ and ṡ don't see the input
        // A user actuation matrix: τ̄ = S u (A at that τ̄, B S against differences in u).
        MatrixX<double> Bu;
        liedyn::linearize_actuated(m, d, x, S, u, Bu, opt);
        const FdJacobians fds = fd_continuous(m, x, S * u, S, rep);
        const double eAs = relative_error(d.linearization.A, fds.A),
                     eBs = relative_error(Bu, fds.B);
        CHECK(eAs < tol);
        CHECK(eBs < tol);
        worst_A = std::max({worst_A, eA, eAs});
        worst_B = std::max({worst_B, eB, eBj, eBs});
      }
    }
  }
  WARN("continuous linearization vs long-double FD: worst relative error A " << worst_A << ", B "
                                                                             << worst_B);
}

TEST_CASE("Linearization: figure-4 case equals the reference AB, BB, AI, BI", "[linearization]") {
  // Tolerance: the reference was computed in double by an independent implementation; the two
  // agree to round-off (κ(M) ε ≈ 1e-13); 1e-10 relative as specified for the shared data.
  const double tol = 1e-10;
  std::ifstream in(LIEDYN_TEST_DATA_DIR "/fig4_like_case.json");
  REQUIRE(in.good());
  nlohmann::json j;
  in >> j;
  auto matrix = [](const nlohmann::json& a) {
    MatrixX<double> M(a.size(), a[0].size());
    for (size_t r = 0; r < a.size(); ++r)
      for (size_t c = 0; c < a[r].size(); ++c) M(r, c) = a[r][c].get<double>();
    return M;
  };
  auto vector = [](const nlohmann::json& a) {
    VectorX<double> v(a.size());
    for (size_t k = 0; k < a.size(); ++k) v(k) = a[k].get<double>();
    return v;
  };
  const Model<double> m = liedyn::figure4_model<double>();
  REQUIRE(m.parents() == j["parent"].get<std::vector<int>>());
  State<double> x(m);
  x.H = SE3<double>::from_matrix(matrix(j["state"]["H"]));
  x.s = vector(j["state"]["s"]);
  x.r = vector(j["state"]["r"]);
  x.set_base_twist(Vector6<double>(vector(j["state"]["w"])), Rep::Inertial);  // w: inertial twist
  const VectorX<double> u = vector(j["u"]);
  REQUIRE(u.size() == m.nv());
  Data<double> d(m);
  for (MinvMethod method : {MinvMethod::Dense, MinvMethod::Sweeps}) {
    INFO((method == MinvMethod::Dense ? "dense" : "sweeps") << " M^-1");
    LinearizationOptions<double> opt;
    opt.minv = method;
    opt.representation = Rep::Body;
    liedyn::linearize(m, d, x, u, opt);
    CHECK(relative_error(d.ddq, vector(j["acc"])) < tol);
    CHECK(relative_error(d.linearization.A, matrix(j["AB"])) < tol);
    CHECK(relative_error(d.linearization.B, matrix(j["BB"])) < tol);
    opt.representation = Rep::Inertial;
    liedyn::linearize(m, d, x, u, opt);
    CHECK(relative_error(d.linearization.A, matrix(j["AI"])) < tol);
    CHECK(relative_error(d.linearization.B, matrix(j["BI"])) < tol);
    WARN("figure-4 reference (" << (method == MinvMethod::Dense ? "dense" : "sweeps")
                                << "): AI error "
                                << relative_error(d.linearization.A, matrix(j["AI"]))
                                << ", BI error "
                                << relative_error(d.linearization.B, matrix(j["BI"])));
  }
}

TEST_CASE(
    "Linearization: discrete Jacobians equal finite differences of the semi-implicit Euler step",
    "[linearization]") {
  // Tolerance for the Jacobians: same finite-difference accuracy as the continuous test (the
  // step is as smooth as the vector field); 1e-9 relative.
  const double tol = 1e-9;
  // Tolerance for the step: the library (double, AZA) against a hand-written step in long double
  // (reference forward dynamics, Taylor-series exp): double round-off κ(M) ε ≈ 1e-13; 1e-12.
  const double tol_step = 1e-12;
  std::mt19937 rng(liedyn::test::default_seed + 2);
  double worst = 0, worst_step = 0;
  std::vector<NamedModel> models;
  models.push_back({"figure4", liedyn::figure4_model<double>()});
  RandomModelOptions o;
  o.branching = 3;
  o.armature = 0.05;
  models.push_back({"random moving tree + armature", liedyn::random_model<double>(7, rng, o)});
  o.moving_base = false;
  models.push_back({"random welded tree + armature", liedyn::random_model<double>(6, rng, o)});
  for (const NamedModel& nm : models) {
    const Model<double>& m = nm.model;
    const int nv = m.nv(), n = m.num_joints();
    for (double dt : {1e-3, 0.05}) {
      State<double> x = liedyn::random_state(m, rng);
      x.nu *= 2.0;
      const VectorX<double> tau = random_vector(nv, rng, -5, 5);
      // The step itself.
      Data<double> d(m);
      const State<double> y = liedyn::semi_implicit_euler_step(m, d, x, tau, dt);
      {
        const Model<LD> mL = m.cast<LD>();
        Data<LD> dL(mL);
        const State<LD> xL = x.cast<LD>();
        const VectorX<LD> acc =
            liedyn::forward_dynamics_llt(mL, dL, xL, VectorX<LD>(tau.cast<LD>()));
        const LD h = dt;
        const int off = m.offset();
        const VectorX<LD> r = xL.r + h * acc.segment(off, n);
        const VectorX<LD> s = xL.s + h * r;
        Vector6<LD> nu = xL.nu;
        Matrix4<LD> H = xL.H.matrix();
        if (m.has_moving_base()) {
          nu += h * acc.head<6>();
          H = (H * expm(twist_hat(Vector6<LD>(h * nu)))).eval();
        }
        INFO(nm.name << ", dt " << dt);
        const double e = std::max({relative_error(y.H.matrix(), H), relative_error(y.s, s),
                                   relative_error(y.nu, nu), relative_error(y.r, r)});
        CHECK(e < tol_step);
        CHECK(relative_error(y.r, xL.r) > 1e-6);  // the step moved
        worst_step = std::max(worst_step, e);
      }
      // Its Jacobians, in every representation.
      for (Rep rep : kReps) {
        if (!m.has_moving_base() && rep != Rep::Body) continue;
        INFO(nm.name << ", dt " << dt << ", " << liedyn::to_string(rep) << " twist");
        LinearizationOptions<double> opt;
        opt.representation = rep;
        liedyn::linearize_discrete(m, d, x, tau, dt, opt);
        const FdJacobians fd = fd_discrete(m, x, tau, dt, rep);
        const double eA = relative_error(d.linearization.A, fd.A),
                     eB = relative_error(d.linearization.B, fd.B);
        CHECK(eA < tol);
        CHECK(eB < tol);
        CHECK(relative_error(d.linearization.A, MatrixX<double>::Identity(2 * nv, 2 * nv)) >
              1e-4);  // not the identity
        worst = std::max({worst, eA, eB});
      }
    }
  }
  WARN("discrete Jacobians vs long-double FD of the step: worst relative error "
       << worst << "; step vs hand-written step: " << worst_step);
}

TEST_CASE("Linearization: dense and sweep M^-1 routes agree, small and large models",
          "[linearization]") {
  // Tolerance: two different computations of M⁻¹ K at the same accelerations — the dense route's
  // M, D1..D4 from the base-frame derivative pass and its LᵀDL inverse, against AZA solves in the
  // body frames. κ(M) reaches 2e5 on the trees; the base-frame pass adds rounding that grows
  // with the bodies' distance from the base (up to ~3 m on the nv-106 tree). The worst
  // difference seen is 1.0e-12 (A, nv 106; 2e-13 before the dense route moved to the base-frame
  // pass): 2e-12 relative.
  const double tol = 2e-12;
  std::mt19937 rng(liedyn::test::default_seed + 3);
  std::vector<NamedModel> models;
  models.push_back({"figure4", liedyn::figure4_model<double>()});
  RandomModelOptions o;
  models.push_back({"random moving chain (nv 16)", liedyn::random_model<double>(10, rng, o)});
  o.branching = 4;
  o.armature = 0.02;
  models.push_back({"random moving tree (nv 56)", liedyn::random_model<double>(50, rng, o)});
  models.push_back({"random moving tree (nv 106)", liedyn::random_model<double>(100, rng, o)});
  o.moving_base = false;
  models.push_back({"random welded tree (nv 60)", liedyn::random_model<double>(60, rng, o)});
  double worst = 0;
  for (const NamedModel& nm : models) {
    const Model<double>& m = nm.model;
    const int nv = m.nv();
    const State<double> x = liedyn::random_state(m, rng);
    const VectorX<double> tau = random_vector(nv, rng, -5, 5);
    for (Rep rep : kReps) {
      INFO(nm.name << ", " << liedyn::to_string(rep) << " twist");
      Data<double> d(m);
      LinearizationOptions<double> opt;
      opt.representation = rep;
      opt.minv = MinvMethod::Dense;
      liedyn::linearize(m, d, x, tau, opt);
      const MatrixX<double> A_dense = d.linearization.A, B_dense = d.linearization.B,
                            Minv_dense = d.Minv;
      opt.minv = MinvMethod::Sweeps;
      liedyn::linearize(m, d, x, tau, opt);
      const MatrixX<double> A_sweeps = d.linearization.A, B_sweeps = d.linearization.B;
      const double eA = relative_error(A_dense, A_sweeps), eB = relative_error(B_dense, B_sweeps);
      CHECK(eA < tol);
      CHECK(eB < tol);
      CHECK(relative_error(Minv_dense, d.Minv) < tol);
      // M · M⁻¹ = I for the dense route's M⁻¹ (M from the same call). The residual of a
      // backward-stable inverse is O(ε κ(M)), and κ(M) reaches ~1e5 on the nv-56 tree: 10 ε κ.
      const Eigen::SelfAdjointEigenSolver<MatrixX<double>> eig(d.M, Eigen::EigenvaluesOnly);
      const double kappa = eig.eigenvalues().maxCoeff() / eig.eigenvalues().minCoeff();
      CHECK(relative_error(MatrixX<double>(d.M * Minv_dense), MatrixX<double>::Identity(nv, nv)) <
            10 * std::numeric_limits<double>::epsilon() * kappa);
      worst = std::max({worst, eA, eB});
      // Automatic: exactly one of the two, by size.
      opt.minv = MinvMethod::Automatic;
      liedyn::linearize(m, d, x, tau, opt);
      CHECK(d.linearization.A == (nv <= opt.dense_up_to_nv ? A_dense : A_sweeps));
      // The discrete Jacobians share the route.
      opt.minv = MinvMethod::Dense;
      liedyn::linearize_discrete(m, d, x, tau, 0.01, opt);
      const MatrixX<double> Ad_dense = d.linearization.A;
      opt.minv = MinvMethod::Sweeps;
      liedyn::linearize_discrete(m, d, x, tau, 0.01, opt);
      CHECK(relative_error(Ad_dense, d.linearization.A) < tol);
      // linearize writes the constant entries of A's and B's top rows only when they are not
      // already its own: after the discrete Jacobians it must restore them, bit for bit.
      opt.minv = MinvMethod::Dense;
      liedyn::linearize(m, d, x, tau, opt);
      CHECK(d.linearization.A == A_dense);
      CHECK(d.linearization.B == B_dense);
    }
  }
  WARN("dense vs sweeps: worst relative difference " << worst);
}

// diag(a, b, c) as a 3×3 matrix: principal rotational inertias.
static liedyn::Matrix3<double> diagonal3(double a, double b, double c) {
  return liedyn::Vector3<double>(a, b, c).asDiagonal();
}

TEST_CASE("Linearization: a singular mass matrix is refused with a ModelError naming the joint",
          "[linearization]") {
  for (bool moving : {true, false}) {
    ModelBuilder<double> b(moving ? liedyn::BaseType::Moving : liedyn::BaseType::Welded, "base",
                           SpatialInertia<double>::from_mass_com_inertia(
                               1.0, Vector3<double>::Zero(), diagonal3(0.01, 0.02, 0.025)));
    using J = liedyn::JointSpec<double>;
    b.add_body("base", "upper_arm", J::revolute("shoulder", Vector3<double>::UnitY()),
               SpatialInertia<double>::from_mass_com_inertia(0.5, Vector3<double>(0.1, 0, 0),
                                                             diagonal3(0.001, 0.002, 0.002)));
    // A massless link on a revolute joint: nothing moves when the wrist turns.
    b.add_body(
        "upper_arm", "ghost_link",
        J::revolute("wrist_roll", Vector3<double>::UnitX(),
                    SE3<double>(liedyn::Matrix3<double>::Identity(), Vector3<double>(0.2, 0, 0))),
        SpatialInertia<double>());
    const Model<double> m = b.build();
    INFO((moving ? "moving" : "welded") << " base");
    REQUIRE(m.singular_joints() == std::vector<int>{2});
    Data<double> d(m);
    const State<double> x(m);
    const VectorX<double> tau = VectorX<double>::Zero(m.nv());
    MatrixX<double> Bu;
    CHECK_THROWS_AS(liedyn::linearize(m, d, x, tau), ModelError);
    CHECK_THROWS_WITH(liedyn::linearize(m, d, x, tau), Contains("wrist_roll"));
    CHECK_THROWS_AS(liedyn::linearize_discrete(m, d, x, tau, 0.01), ModelError);
    CHECK_THROWS_WITH(liedyn::linearize_discrete(m, d, x, tau, 0.01), Contains("wrist_roll"));
    CHECK_THROWS_AS(
        liedyn::linearize_actuated(m, d, x, MatrixX<double>::Identity(m.nv(), m.nv()), tau, Bu),
        ModelError);
    CHECK_THROWS_WITH(
        liedyn::linearize_actuated(m, d, x, MatrixX<double>::Identity(m.nv(), m.nv()), tau, Bu),
        Contains("wrist_roll"));
    CHECK_THROWS_AS(liedyn::semi_implicit_euler_step(m, d, x, tau, 0.01), ModelError);
    CHECK_THROWS_WITH(liedyn::semi_implicit_euler_step(m, d, x, tau, 0.01), Contains("wrist_roll"));
    CHECK_THROWS_AS(liedyn::linearize(m, d, x, tau), ModelError);
    CHECK_THROWS_WITH(liedyn::linearize(m, d, x, tau), !Contains("shoulder"));
  }
}

TEST_CASE("Linearization: no heap allocation once Data exists", "[linearization][allocation]") {
  // The guard counts operator new in every build and, without NDEBUG, aborts on an Eigen heap
  // allocation (EIGEN_RUNTIME_NO_MALLOC): run the debug/asan presets to see Eigen's mallocs.
  std::mt19937 rng(liedyn::test::default_seed + 4);
  std::vector<NamedModel> models;
  models.push_back({"figure4 (nv 13)", liedyn::figure4_model<double>()});
  RandomModelOptions o;
  o.branching = 3;
  models.push_back({"random moving tree (nv 48)", liedyn::random_model<double>(42, rng, o)});
  models.push_back({"random moving tree (nv 56)", liedyn::random_model<double>(50, rng, o)});
  models.push_back({"random moving tree (nv 106)", liedyn::random_model<double>(100, rng, o)});
  o.moving_base = false;
  models.push_back({"random welded chain (nv 12)", liedyn::random_model<double>(12, rng, o)});
  for (const NamedModel& nm : models) {
    const Model<double>& m = nm.model;
    const int nv = m.nv();
    const State<double> x = liedyn::random_state(m, rng);
    const VectorX<double> tau = random_vector(nv, rng, -5, 5);
    const MatrixX<double> S = random_matrix(nv, nv + 2, rng);
    const VectorX<double> u = random_vector(nv + 2, rng, -1, 1);
    for (Rep rep : kReps) {
      for (MinvMethod method : {MinvMethod::Dense, MinvMethod::Sweeps, MinvMethod::Automatic}) {
        INFO(nm.name << ", " << liedyn::to_string(rep) << " twist, method "
                     << static_cast<int>(method));
        Data<double> d(m);
        MatrixX<double> Bu(2 * nv, nv + 2);
        LinearizationOptions<double> opt;
        opt.representation = rep;
        opt.minv = method;
        std::size_t news = 0;
        {
          liedyn::test::NoAllocation guard;
          liedyn::linearize(m, d, x, tau, opt);
          liedyn::linearize_discrete(m, d, x, tau, 0.01, opt);
          liedyn::linearize_actuated(m, d, x, S, u, Bu, opt);
          news = guard.allocations();
        }
        CHECK(news == 0);
        CHECK(d.linearization.A.allFinite());
      }
    }
  }
}

TEST_CASE("Linearization: the aerial manipulator's LQR closed loop converges at pitch 90 degrees",
          "[linearization][example]") {
  namespace am = aerial_manipulator;
  const am::System sys = am::make_system();
  // Hover input: S has full row rank, so S u* = h(x*) exactly up to round-off.
  CHECK(sys.equilibrium_residual < 1e-10);
  // The Euler-angle rate map is singular at this attitude (the reason for the geometric design).
  CHECK(am::euler_rates_to_body(1.0, 0.0, 0.0).determinant() == 0.0);
  CHECK_FALSE(am::body_to_euler_rates(1.0, 0.0, 0.0).allFinite());
  MatrixX<double> A, Bu, Q, R;
  am::linearize_hover(sys, A, Bu);
  am::weights(sys.model, Q, R);
  REQUIRE(A.allFinite());
  const am::Lqr lqr = am::lqr(A, Bu, Q, R);
  REQUIRE(lqr.converged);
  // Riccati residual: the sign iteration converges to ~ε‖Z‖ with ‖Z‖ ≲ 1e3; 1e-9 relative.
  CHECK(lqr.residual < 1e-9);
  const State<double> x0 = am::perturbed_start(sys);
  const std::vector<am::Sample> log = am::simulate(sys, lqr.K, x0, 4.0, 1e-3, 100);
  REQUIRE(log.size() == 41);
  const am::Sample &first = log.front(), &last = log.back();
  CHECK(first.eta > 0.3);  // the start is far from hover (20°, 0.41 m)
  CHECK(first.ds > 0.5);
  // After 4 s (closed-loop time constants < 0.3 s) the error must be down by > 1e4 (bounds on the
  // final error); a wrong A or B (sign, representation, ordering) destabilizes the loop.
  CHECK(last.eta < 1e-4);
  CHECK(last.ds < 1e-4);
  CHECK(last.dnu < 1e-4);
  CHECK(last.dr < 1e-4);
  for (const am::Sample& s : log) CHECK(std::isfinite(s.eta + s.ds + s.dnu + s.dr));
}

TEST_CASE("Linearization: the gathered M⁻¹ column-pair product equals a dense product",
          "[linearization][kernel]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Sizes around the kernels' blocks of 16 and 4 rows and the masked tail, to cover every tail.
  for (const int nv : {1, 3, 4, 5, 8, 11, 13, 16, 17, 18, 23, 31, 50}) {
    MatrixX<double> M(nv, nv);
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j < nv; ++j) M(i, j) = u(rng);
    std::vector<int> rows;
    for (int r = 0; r < nv; ++r)
      if (r % 3 != 1 || nv < 3) rows.push_back(r);  // a pattern with gaps
    const int p = static_cast<int>(rows.size());
    liedyn::VectorX<double> a(p), b(p);
    for (int t = 0; t < p; ++t) a(t) = u(rng), b(t) = u(rng);
    liedyn::VectorX<double> ya_ref = liedyn::VectorX<double>::Zero(nv), yb_ref = ya_ref;
    for (int t = 0; t < p; ++t) {
      ya_ref -= M.col(rows[t]) * a(t);
      yb_ref -= M.col(rows[t]) * b(t);
    }
    // Rounding of p-term sums of O(1) products: p ε with margin.
    const double tol = 8 * p * std::numeric_limits<double>::epsilon();
    liedyn::VectorX<double> ya(nv), yb(nv);
    liedyn::detail::gather_product2_generic(nv, nv, M.data(), rows.data(), a.data(), b.data(), p,
                                            -1.0, ya.data(), yb.data());
    CHECK((ya - ya_ref).cwiseAbs().maxCoeff() <= tol);
    CHECK((yb - yb_ref).cwiseAbs().maxCoeff() <= tol);
    // The dispatched kernel (AVX2/FMA where the processor has it).
    ya.setConstant(std::nan(""));
    yb.setConstant(std::nan(""));
    liedyn::detail::gather_product2(nv, nv, M.data(), rows.data(), a.data(), b.data(), p, -1.0,
                                    ya.data(), yb.data());
    CHECK((ya - ya_ref).cwiseAbs().maxCoeff() <= tol);
    CHECK((yb - yb_ref).cwiseAbs().maxCoeff() <= tol);
    // Rows first.. only (ltdl_inverse's use): m < ld, the matrix pointer offset.
    const int first = nv / 3, m = nv - first;
    ya.setConstant(std::nan(""));
    yb.setConstant(std::nan(""));
    liedyn::detail::gather_product2(m, nv, M.data() + first, rows.data(), a.data(), b.data(), p,
                                    -1.0, ya.data() + first, yb.data() + first);
    CHECK((ya.tail(m) - ya_ref.tail(m)).cwiseAbs().maxCoeff() <= tol);
    CHECK((yb.tail(m) - yb_ref.tail(m)).cwiseAbs().maxCoeff() <= tol);
    CHECK(ya.head(first).array().isNaN().all());  // rows above `first` untouched
#if LIEDYN_HAVE_X86_AVX2_DISPATCH
    if (liedyn::detail::cpu_has_avx2_fma()) {
      // Outputs inside longer buffers: the masked tail must leave what follows untouched.
      liedyn::VectorX<double> ya_pad = liedyn::VectorX<double>::Constant(nv + 4, 7.0),
                              yb_pad = ya_pad;
      liedyn::detail::gather_product2_avx2(nv, nv, M.data(), rows.data(), a.data(), b.data(), p,
                                           -1.0, ya_pad.data(), yb_pad.data());
      CHECK((ya_pad.head(nv) - ya_ref).cwiseAbs().maxCoeff() <= tol);
      CHECK((yb_pad.head(nv) - yb_ref).cwiseAbs().maxCoeff() <= tol);
      CHECK((ya_pad.tail(4).array() == 7.0).all());
      CHECK((yb_pad.tail(4).array() == 7.0).all());
    }
#endif
  }
  // The float and long double instantiations use the generic kernel.
  MatrixX<long double> Ml = MatrixX<long double>::Identity(5, 5);
  const std::vector<int> rl{0, 2, 4};
  const long double al[] = {1, 2, 3}, bl[] = {4, 5, 6};
  liedyn::VectorX<long double> yal(5), ybl(5);
  liedyn::detail::gather_product2(5, 5, Ml.data(), rl.data(), al, bl, 3, 2.0L, yal.data(),
                                  ybl.data());
  CHECK(yal(0) == 2);
  CHECK(yal(1) == 0);
  CHECK(yal(4) == 6);
  CHECK(ybl(2) == 10);
}

}  // namespace LIEDYN_UNITY_ID
