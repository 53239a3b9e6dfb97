// liedyn tests — the constrained solvers that work on matrices alone: the proximal (damped) solve,
// the redundant-coordinates projector, minimal coordinates, and constrained inverse dynamics.
//
// Oracles, independent of the routes under test, computed in long double:
//   * the dense KKT system [M −Jᵀ; J 0] [q̈; λ] = [τ̄ − h; −γ] by full-pivot LU (full-rank J);
//   * for rank-deficient J, the minimum-norm λ = −G⁺ (J M⁻¹ f + γ) by Eigen's complete orthogonal
//     decomposition of the Delassus matrix G = J M⁻¹ Jᵀ, and q̈ = M⁻¹ (f + Jᵀλ);
//   * the weighted least-norm closed form x = W⁻¹Aᵀ(A W⁻¹ Aᵀ)⁻¹ r for inverse dynamics.
// M is crba's mass matrix of random trees (realistic conditioning: light distal bodies, a
// floating base); J is random, or built from frame Jacobians (rigid feet and a loop through them).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <liedyn/algorithm/constrained_inverse_dynamics.hpp>
#include <liedyn/algorithm/crba.hpp>
#include <liedyn/algorithm/kinematics.hpp>
#include <liedyn/algorithm/rnea.hpp>
#include <liedyn/arithmetic/constrained_solvers.hpp>
#include <liedyn/testing/samples.hpp>

#include "support/test_support.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

using Catch::Matchers::Contains;
using liedyn::Data;
using liedyn::MatrixX;
using liedyn::Model;
using liedyn::RandomModelOptions;
using liedyn::State;
using liedyn::TwistRepresentation;
using liedyn::VectorX;
using liedyn::test::relative_error;
using LD = long double;
using MatrixXl = MatrixX<LD>;
using VectorXl = VectorX<LD>;

namespace {

// A realistic M and f = τ̄ − h of a random tree at a random state (double).
struct Dynamics {
  Model<double> model;
  MatrixX<double> M;
  VectorX<double> f;
  State<double> x;
};

Dynamics random_dynamics(int joints, int branching, std::mt19937& rng) {
  RandomModelOptions o;
  o.branching = branching;
  Dynamics d{liedyn::random_model<double>(joints, rng, o), {}, {}, State<double>()};
  Data<double> data(d.model);
  d.x = liedyn::random_state(d.model, rng);
  d.M = liedyn::crba(d.model, data, d.x.s);
  const VectorX<double> h = liedyn::bias_force(d.model, data, d.x);
  VectorX<double> tau(d.model.nv());
  for (int i = 0; i < tau.size(); ++i) tau(i) = double(liedyn::test::uniform(rng, -5, 5));
  d.f = tau - h;
  return d;
}

MatrixX<double> random_matrix(int rows, int cols, std::mt19937& rng) {
  MatrixX<double> A(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) A(i, j) = double(liedyn::test::uniform(rng, -1, 1));
  return A;
}

// Rounded to multiples of 2^-30, so that sums and differences of rows are exact and a rank
// deficiency built from them is exact (not just to within rounding).
MatrixX<double> on_grid(const MatrixX<double>& A) {
  return A.unaryExpr([](double v) { return std::ldexp(std::round(std::ldexp(v, 30)), -30); });
}

// Two rigid feet (bodies a and b, inertial sense) plus a rigid loop between them: 18 rows of
// rank 12.
MatrixX<double> two_feet_and_loop(const Dynamics& d, int a, int b) {
  Data<double> data(d.model);
  MatrixX<double> Ja(6, d.model.nv()), Jb(6, d.model.nv());
  liedyn::body_jacobian(d.model, data, d.x, a, TwistRepresentation::Inertial, Ja);
  liedyn::body_jacobian(d.model, data, d.x, b, TwistRepresentation::Inertial, Jb);
  MatrixX<double> J(18, d.model.nv());
  J << on_grid(Ja), on_grid(Jb), on_grid(Ja) - on_grid(Jb);
  return J;
}

struct Solution {
  VectorXl ddq, lambda;
};

// The dense KKT system in long double (full-rank J).
Solution kkt_reference(const MatrixX<double>& M, const MatrixX<double>& J,
                       const VectorX<double>& gamma, const VectorX<double>& f) {
  const int nv = int(M.rows()), m = int(J.rows());
  MatrixXl K = MatrixXl::Zero(nv + m, nv + m);
  K.topLeftCorner(nv, nv) = M.cast<LD>();
  K.topRightCorner(nv, m) = -J.transpose().cast<LD>();
  K.bottomLeftCorner(m, nv) = J.cast<LD>();
  VectorXl rhs(nv + m);
  rhs << f.cast<LD>(), -gamma.cast<LD>();
  const VectorXl z = Eigen::FullPivLU<MatrixXl>(K).solve(rhs);
  return {z.head(nv), z.tail(m)};
}

// The minimum-norm λ through the pseudo-inverse of G (long double), and its q̈.
Solution min_norm_reference(const MatrixX<double>& M, const MatrixX<double>& J,
                            const VectorX<double>& gamma, const VectorX<double>& f) {
  const MatrixXl Ml = M.cast<LD>(), Jl = J.cast<LD>();
  const Eigen::LLT<MatrixXl> llt(Ml);
  const MatrixXl minv_jt = llt.solve(MatrixXl(Jl.transpose()));
  const VectorXl free = llt.solve(VectorXl(f.cast<LD>()));
  const MatrixXl G = Jl * minv_jt;
  const VectorXl c = Jl * free + gamma.cast<LD>();
  Eigen::CompleteOrthogonalDecomposition<MatrixXl> cod;
  // Singular values of G below 1e-12 of the largest are zeros (the rank deficiency is exact; its
  // long double rounding leaves ~1e-19).
  cod.setThreshold(LD(1e-12));
  cod.compute(G);
  const VectorXl lambda = -cod.solve(c);
  return {free + minv_jt * lambda, lambda};
}

// Normwise backward errors of the two identities: ‖M q̈ − f − Jᵀλ‖ / (‖M‖‖q̈‖ + ‖f‖ + ‖J‖‖λ‖) and
// ‖J q̈ + γ‖ / (‖J‖‖q̈‖ + ‖γ‖) (max norms, long double).
double identity_error(const MatrixX<double>& M, const MatrixX<double>& J,
                      const VectorX<double>& gamma, const VectorX<double>& f,
                      const VectorX<double>& ddq, const VectorX<double>& lambda) {
  const MatrixXl Ml = M.cast<LD>(), Jl = J.cast<LD>();
  const VectorXl q = ddq.cast<LD>(), l = lambda.cast<LD>(), fl = f.cast<LD>(), g = gamma.cast<LD>();
  const VectorXl r1 = Ml * q - fl - Jl.transpose() * l, r2 = Jl * q + g;
  auto norm = [](const MatrixXl& A) { return A.cwiseAbs().rowwise().sum().maxCoeff(); };
  auto vmax = [](const VectorXl& v) { return v.size() ? v.cwiseAbs().maxCoeff() : LD(0); };
  const LD s1 = norm(Ml) * vmax(q) + vmax(fl) + norm(Jl.transpose()) * vmax(l);
  const LD s2 = norm(Jl) * vmax(q) + vmax(g);
  return double(std::max(vmax(r1) / s1, vmax(r2) / s2));
}

// The test cases shared by the forward routes: random trees with random full-rank J.
struct Case {
  std::string name;
  Dynamics d;
  MatrixX<double> J;
  VectorX<double> gamma;
};

std::vector<Case> full_rank_cases(std::mt19937& rng) {
  std::vector<Case> cases;
  for (int t = 0; t < 6; ++t) {
    const int joints = 6 + 4 * t, branching = t % 3;
    Dynamics d = random_dynamics(joints, branching, rng);
    const int nv = d.model.nv(), m = 1 + (t * 5) % (nv - 2);
    MatrixX<double> J = random_matrix(m, nv, rng);
    VectorX<double> gamma = random_matrix(m, 1, rng);
    cases.push_back(
        {"tree " + std::to_string(joints) + " m " + std::to_string(m), std::move(d), J, gamma});
  }
  // Frame Jacobians: one rigid foot and one point contact on a branched tree.
  Dynamics d = random_dynamics(14, 3, rng);
  Data<double> data(d.model);
  MatrixX<double> Ja(6, d.model.nv()), Jb(6, d.model.nv());
  liedyn::body_jacobian(d.model, data, d.x, 14, TwistRepresentation::Body, Ja);
  liedyn::body_jacobian(d.model, data, d.x, 9, TwistRepresentation::Mixed, Jb);
  MatrixX<double> J(9, d.model.nv());
  J << Ja, Jb.topRows(3);
  cases.push_back({"rigid foot and point contact", std::move(d), J, random_matrix(9, 1, rng)});
  return cases;
}

}  // namespace

// =============================================================================================
TEST_CASE("constrained solvers: proximal solve equals the exact KKT solution on full-rank J",
          "[constrained][proximal]") {
  std::mt19937 rng(liedyn::test::default_seed + 301);
  double worst = 0, worst_identity = 0;
  int most_iterations = 0;
  for (const Case& c : full_rank_cases(rng)) {
    const int nv = int(c.J.cols()), m = int(c.J.rows());
    liedyn::ProximalWorkspace<double> ws(nv, m + 3);
    VectorX<double> ddq(nv), lambda(m);
    const auto report =
        liedyn::proximal_forward_dynamics<double>(c.d.M, c.J, c.gamma, c.d.f, ws, ddq, lambda);
    const Solution ref = kkt_reference(c.d.M, c.J, c.gamma, c.d.f);
    INFO(c.name << ": " << report.iterations << " iterations, residual " << report.residual);
    CHECK(report.converged);
    worst = std::max({worst, relative_error(ddq, ref.ddq), relative_error(lambda, ref.lambda)});
    worst_identity =
        std::max(worst_identity, identity_error(c.d.M, c.J, c.gamma, c.d.f, ddq, lambda));
    most_iterations = std::max(most_iterations, report.iterations);
  }
  INFO("worst relative error against KKT " << worst << ", identities " << worst_identity
                                           << ", iterations up to " << most_iterations);
  // The agreement target for the routes.
  CHECK(worst < 1e-10);
  // A backward error: rounding of O(nv)-term sums, 1e-13 is ~450 ε.
  CHECK(worst_identity < 1e-13);
}

TEST_CASE(
    "constrained solvers: proximal solve converges to the minimum-norm solution on rank-deficient "
    "J",
    "[constrained][proximal]") {
  std::mt19937 rng(liedyn::test::default_seed + 302);
  double worst = 0, worst_identity = 0;
  for (int t = 0; t < 4; ++t) {
    // Odd t: a chain, whose two feet (its last body and its middle one) close it twice.
    Dynamics d = random_dynamics(10 + 3 * t, t % 2 == 0 ? 3 : 0, rng);
    const int nv = d.model.nv();
    MatrixX<double> J;
    std::string name;
    if (t % 2 == 0) {
      // Duplicate rows and a combination of two others: 8 rows of rank 5.
      const MatrixX<double> B = on_grid(random_matrix(5, nv, rng));
      J.resize(8, nv);
      J << B, B.row(0), B.row(2), B.row(1) + 2 * B.row(3);
      name = "duplicate rows";
    } else {
      // Two rigid feet on a chain plus a loop between them (rank 12 of 18).
      J = two_feet_and_loop(d, d.model.num_bodies() - 1, d.model.num_bodies() / 2);
      name = "two feet and a loop";
    }
    // γ consistent with the rows' dependence (a drift of the same constraint set): γ = −J a.
    const VectorX<double> gamma = -J * random_matrix(nv, 1, rng);
    const int m = int(J.rows());
    liedyn::ProximalWorkspace<double> ws(nv, m);
    VectorX<double> ddq(nv), lambda(m);
    const auto report =
        liedyn::proximal_forward_dynamics<double>(d.M, J, gamma, d.f, ws, ddq, lambda);
    const Solution ref = min_norm_reference(d.M, J, gamma, d.f);
    // G's conditioning on its range, κ⁺ = σ_max/σ_min⁺ (long double SVD, zeros below 1e-12).
    const MatrixXl Gl =
        J.cast<LD>() * d.M.cast<LD>().llt().solve(MatrixXl(J.cast<LD>().transpose()));
    const VectorXl sigma = Eigen::JacobiSVD<MatrixXl>(Gl).singularValues();
    LD smallest = sigma(0);
    for (int i = 0; i < sigma.size(); ++i)
      if (sigma(i) > LD(1e-12) * sigma(0)) smallest = sigma(i);
    const double kappa = double(sigma(0) / smallest);
    // The minimum-norm λ of a backward-stable solve moves by up to about m ε κ⁺ (first-order
    // perturbation bound, m rows), whatever the method: the 1e-10, or m ε κ⁺ for the
    // chain whose κ⁺ is 5e5 (measured 3.3e-10 at -O3 and 5.3e-10 at the sanitizer build's -O1,
    // where an earlier 1e-15 κ⁺ = 4.5 ε κ⁺ bound was too tight).
    const double bound = std::max(1e-10, J.rows() * std::numeric_limits<double>::epsilon() * kappa);
    INFO("kappa+ of G " << kappa << ", bound " << bound);
    INFO(name << " nv " << nv << ": " << report.iterations << " iterations, "
              << report.factorizations << " factorizations, residual " << report.residual << ", mu "
              << report.damping);
    CHECK(report.converged);
    const double e = std::max(relative_error(ddq, ref.ddq), relative_error(lambda, ref.lambda));
    INFO("error against the pseudo-inverse " << e);
    CHECK(e < bound);
    worst = std::max(worst, e);
    worst_identity = std::max(worst_identity, identity_error(d.M, J, gamma, d.f, ddq, lambda));
    // The exact routes refuse this set.
    liedyn::ProjectorWorkspace<double> pw(nv, m);
    VectorX<double> ddq2(nv), lambda2(m);
    CHECK_FALSE(liedyn::projected_forward_dynamics<double>(d.M, J, gamma, d.f, pw, ddq2, lambda2)
                    .full_rank);
  }
  INFO("worst " << worst << ", identities " << worst_identity);
  CHECK(worst_identity < 1e-13);  // as for full rank
}

TEST_CASE("constrained solvers: proximal solve reports inconsistent constraints",
          "[constrained][proximal]") {
  std::mt19937 rng(liedyn::test::default_seed + 303);
  Dynamics d = random_dynamics(8, 0, rng);
  const int nv = d.model.nv();
  const MatrixX<double> B = random_matrix(3, nv, rng);
  MatrixX<double> J(4, nv);
  J << B, B.row(1);
  VectorX<double> gamma = random_matrix(4, 1, rng);
  gamma(3) = gamma(1) + 1;  // the same row asked two different accelerations
  liedyn::ProximalWorkspace<double> ws(nv, 4);
  VectorX<double> ddq(nv), lambda(4);
  liedyn::ProximalOptions<double> options;
  options.max_iterations = 50;
  const auto report =
      liedyn::proximal_forward_dynamics<double>(d.M, J, gamma, d.f, ws, ddq, lambda, options);
  CHECK_FALSE(report.converged);
  CHECK(report.iterations == 50);
}

// =============================================================================================
TEST_CASE("constrained solvers: the projector's identities and the projected forward dynamics",
          "[constrained][projector]") {
  std::mt19937 rng(liedyn::test::default_seed + 304);
  double worst_idempotent = 0, worst_annihilates = 0, worst_m_orthogonal = 0, worst_fd = 0,
         worst_identity = 0;
  for (const Case& c : full_rank_cases(rng)) {
    const int nv = int(c.J.cols()), m = int(c.J.rows());
    liedyn::ProjectorWorkspace<double> ws(nv, m);
    MatrixX<double> pinv(nv, m), N(nv, nv);
    REQUIRE(liedyn::constraint_projector<double>(c.d.M, c.J, ws, pinv, N));
    const MatrixXl Nl = N.cast<LD>(), Minv = c.d.M.cast<LD>().inverse();
    // Against N's natural scale 1 (it is a projector).
    worst_idempotent = std::max(worst_idempotent, relative_error(MatrixXl(Nl * Nl), Nl));
    worst_annihilates = std::max(
        worst_annihilates,
        double((c.J.cast<LD>() * Nl).cwiseAbs().maxCoeff() / c.J.cast<LD>().cwiseAbs().maxCoeff()));
    worst_m_orthogonal = std::max(
        worst_m_orthogonal, relative_error(MatrixXl(Nl * Minv), MatrixXl(Minv * Nl.transpose())));
    VectorX<double> ddq(nv), lambda(m);
    REQUIRE(liedyn::projected_forward_dynamics<double>(c.d.M, c.J, c.gamma, c.d.f, ws, ddq, lambda)
                .full_rank);
    const Solution ref = kkt_reference(c.d.M, c.J, c.gamma, c.d.f);
    worst_fd =
        std::max({worst_fd, relative_error(ddq, ref.ddq), relative_error(lambda, ref.lambda)});
    worst_identity =
        std::max(worst_identity, identity_error(c.d.M, c.J, c.gamma, c.d.f, ddq, lambda));
  }
  INFO("N² − N " << worst_idempotent << ", J N " << worst_annihilates << ", N M⁻¹ − M⁻¹ Nᵀ "
                 << worst_m_orthogonal << ", against KKT " << worst_fd << ", identities "
                 << worst_identity);
  // N's entries are O(κ(G)) sums of rounded products; 1e-11 leaves room for κ up to ~1e4.
  CHECK(worst_idempotent < 1e-11);
  CHECK(worst_annihilates < 1e-11);
  CHECK(worst_m_orthogonal < 1e-11);
  CHECK(worst_fd < 1e-10);        // the agreement target
  CHECK(worst_identity < 1e-13);  // a backward error, as for the proximal route
}

// =============================================================================================
TEST_CASE("constrained solvers: minimal coordinates equal the exact KKT solution",
          "[constrained][minimal]") {
  std::mt19937 rng(liedyn::test::default_seed + 305);
  double worst = 0, worst_identity = 0, worst_condition = 0;
  for (const Case& c : full_rank_cases(rng)) {
    const int nv = int(c.J.cols()), m = int(c.J.rows());
    liedyn::MinimalCoordinatesWorkspace<double> ws(nv, m);
    VectorX<double> ddq(nv), lambda(m);
    const auto report = liedyn::minimal_coordinates_forward_dynamics<double>(
        c.d.M, c.J, c.gamma, c.d.f, ws, ddq, lambda);
    REQUIRE(report.solved);
    CHECK(report.repartitioned);  // the first call partitions
    CHECK_FALSE(report.near_singularity);
    CHECK(ws.num_dependent() == m);
    // The partition covers every coordinate once, and J_d is invertible.
    std::vector<int> seen(nv, 0);
    MatrixX<double> Jd(m, m);
    for (int k = 0; k < nv; ++k) ++seen[ws.coordinate(k)];
    for (int k = 0; k < m; ++k) Jd.col(k) = c.J.col(ws.coordinate(k));
    CHECK(std::count(seen.begin(), seen.end(), 1) == nv);
    CHECK(std::abs(Jd.determinant()) > 0);
    const Solution ref = kkt_reference(c.d.M, c.J, c.gamma, c.d.f);
    worst = std::max({worst, relative_error(ddq, ref.ddq), relative_error(lambda, ref.lambda)});
    worst_identity =
        std::max(worst_identity, identity_error(c.d.M, c.J, c.gamma, c.d.f, ddq, lambda));
    worst_condition = std::max(worst_condition, double(report.condition));
    // A second call at the same J keeps the partition.
    const auto again = liedyn::minimal_coordinates_forward_dynamics<double>(c.d.M, c.J, c.gamma,
                                                                            c.d.f, ws, ddq, lambda);
    CHECK_FALSE(again.repartitioned);
  }
  INFO("against KKT " << worst << ", identities " << worst_identity << ", largest kappa_1(J_d) "
                      << worst_condition);
  CHECK(worst < 1e-10);           // the agreement target
  CHECK(worst_identity < 1e-13);  // a backward error, as for the proximal route
  // The pivoted partitions of these well-posed sets stay well below the default limit 1000 (its
  // premise; measured up to 115, on the frame-Jacobian set).
  CHECK(worst_condition < 300);
}

TEST_CASE(
    "constrained solvers: minimal coordinates re-partition near a parametrization singularity",
    "[constrained][minimal]") {
  std::mt19937 rng(liedyn::test::default_seed + 306);
  Dynamics d = random_dynamics(12, 2, rng);
  const int nv = d.model.nv(), m = 5;
  const MatrixX<double> J0 = random_matrix(m, nv, rng);
  const VectorX<double> gamma = random_matrix(m, 1, rng);
  liedyn::MinimalCoordinatesWorkspace<double> ws(nv, m);
  VectorX<double> ddq(nv), lambda(m);
  // The route's error grows like 1e-15 κ₁² here (4e-10 at κ₁ = 600): a limit of 100 keeps the
  // 1e-10 agreement target below.
  liedyn::MinimalCoordinatesOptions<double> options;
  options.condition_limit = 100;
  REQUIRE(liedyn::minimal_coordinates_forward_dynamics<double>(d.M, J0, gamma, d.f, ws, ddq, lambda,
                                                               options)
              .solved);
  std::vector<int> dependent;
  for (int k = 0; k < m; ++k) dependent.push_back(ws.coordinate(k));
  // Move J along a path on which the current J_d becomes singular (its second dependent column
  // turns into the first) while J keeps full rank: the kind of configuration where the chosen
  // independent coordinates stop parametrizing the constraint manifold.
  int warnings = 0, first_warning = -1;
  double worst = 0;
  for (int step = 0; step <= 10; ++step) {
    const double t = 1 - std::pow(10.0, -step);  // t → 1: distance to the singularity 10^-step
    MatrixX<double> J = J0;
    J.col(dependent[1]) = (1 - t) * J0.col(dependent[1]) + t * J0.col(dependent[0]);
    const auto report = liedyn::minimal_coordinates_forward_dynamics<double>(d.M, J, gamma, d.f, ws,
                                                                             ddq, lambda, options);
    REQUIRE(report.solved);
    if (report.near_singularity) {
      ++warnings;
      if (first_warning < 0) first_warning = step;
      CHECK(report.repartitioned);
    }
    CHECK_FALSE(report.ill_conditioned);
    CHECK(report.condition <= 100);  // the limit set above
    const Solution ref = kkt_reference(d.M, J, gamma, d.f);
    worst = std::max({worst, relative_error(ddq, ref.ddq), relative_error(lambda, ref.lambda)});
  }
  INFO("warnings " << warnings << ", first at distance 1e-" << first_warning << ", against KKT "
                   << worst);
  // One warning, then the new partition avoids the degenerate pair for the rest of the path.
  CHECK(warnings == 1);
  CHECK(first_warning >= 1);
  CHECK(worst < 1e-10);
  bool both_dependent = false;
  for (int k = 0, hits = 0; k < m; ++k)
    if (ws.coordinate(k) == dependent[0] || ws.coordinate(k) == dependent[1])
      both_dependent = ++hits == 2;
  CHECK_FALSE(both_dependent);
}

// =============================================================================================
namespace {
// Forward dynamics with actuators, for the inverse-dynamics round trips (long double KKT).
Solution forward_with_actuators(const Dynamics& d, const MatrixX<double>& J,
                                const VectorX<double>& gamma, const MatrixX<double>& B,
                                const VectorX<double>& u) {
  return kkt_reference(d.M, J, gamma, VectorX<double>(d.f + B * u));
}

MatrixX<double> joint_actuation(int nv, const std::vector<int>& actuated_joints) {
  MatrixX<double> B = MatrixX<double>::Zero(nv, int(actuated_joints.size()));
  for (int k = 0; k < int(actuated_joints.size()); ++k) B(6 + actuated_joints[k], k) = 1;
  return B;
}
}  // namespace

TEST_CASE("constrained solvers: inverse dynamics round trip, square and overdetermined",
          "[constrained][inverse]") {
  std::mt19937 rng(liedyn::test::default_seed + 307);
  double worst = 0;
  for (int passive : {0, 2}) {
    // A floating-base tree standing on one rigid foot: m = 6; all joints driven (square,
    // na + m = nv) or two passive (na + m = nv − 2: unique, exact for consistent q̈).
    Dynamics d = random_dynamics(10, 2, rng);
    const int nv = d.model.nv(), m = 6;
    Data<double> data(d.model);
    MatrixX<double> J(6, nv);
    liedyn::body_jacobian(d.model, data, d.x, 10, TwistRepresentation::Mixed, J);
    const VectorX<double> gamma = random_matrix(m, 1, rng);
    std::vector<int> actuated;
    for (int j = passive; j < 10; ++j) actuated.push_back(j);
    const MatrixX<double> B = joint_actuation(nv, actuated);
    const int na = int(actuated.size());
    const VectorX<double> u = random_matrix(na, 1, rng) * 10;
    const Solution fd = forward_with_actuators(d, J, gamma, B, u);
    const VectorX<double> ddq = fd.ddq.cast<double>();
    liedyn::ConstrainedInverseDynamicsWorkspace<double> ws(nv, na, m);
    VectorX<double> u_out(na), lambda(m);
    const auto report =
        liedyn::constrained_inverse_dynamics<double>(d.M, J, B, ddq, d.f, ws, u_out, lambda);
    INFO("passive joints " << passive << ", residual " << report.residual);
    REQUIRE(report.solved);
    CHECK(report.unique);
    CHECK_FALSE(report.redundant);
    const double e = std::max(relative_error(u_out, u), relative_error(lambda, fd.lambda));
    INFO("round trip error " << e);
    CHECK(e < 1e-10);  // the agreement target
    worst = std::max(worst, e);
  }
  // An acceleration the passive joints cannot produce: the least-squares answer, residual reported.
  Dynamics d = random_dynamics(10, 2, rng);
  const int nv = d.model.nv();
  const MatrixX<double> J = random_matrix(6, nv, rng);
  const MatrixX<double> B = joint_actuation(nv, {2, 3, 4, 5, 6, 7, 8, 9});
  liedyn::ConstrainedInverseDynamicsWorkspace<double> ws(nv, 8, 6);
  VectorX<double> u_out(8), lambda(6);
  const VectorX<double> ddq = random_matrix(nv, 1, rng);
  const auto report =
      liedyn::constrained_inverse_dynamics<double>(d.M, J, B, ddq, d.f, ws, u_out, lambda);
  CHECK(report.solved);
  CHECK(report.residual > 1e-3);
}

TEST_CASE(
    "constrained solvers: redundant inverse dynamics is the weighted least-norm solution "
    "(quadruped)",
    "[constrained][inverse]") {
  std::mt19937 rng(liedyn::test::default_seed + 308);
  // A floating base with four 3-joint legs, standing on four point feet: 12 torques and 12
  // contact forces for 18 equations.
  liedyn::ModelBuilder<double> b(
      liedyn::BaseType::Moving, "base",
      liedyn::SpatialInertia<double>::from_mass_com_inertia(
          8.0, liedyn::Vector3<double>::Zero(),
          liedyn::Matrix3<double>(Eigen::Vector3d(0.1, 0.2, 0.25).asDiagonal())));
  const double hips[4][2] = {{0.3, 0.15}, {0.3, -0.15}, {-0.3, 0.15}, {-0.3, -0.15}};
  for (int leg = 0; leg < 4; ++leg) {
    int parent = 0;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d offset =
          k == 0 ? Eigen::Vector3d(hips[leg][0], hips[leg][1], 0) : Eigen::Vector3d(0, 0, -0.2);
      const Eigen::Vector3d axis = k == 0 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
      const std::string name = std::to_string(leg) + "_" + std::to_string(k);
      parent =
          b.add_body(parent, "body" + name,
                     liedyn::JointSpec<double>::revolute(
                         "joint" + name, axis,
                         liedyn::SE3<double>(liedyn::Matrix3<double>::Identity(), offset)),
                     liedyn::SpatialInertia<double>::from_mass_com_inertia(
                         0.5, Eigen::Vector3d(0, 0, -0.1),
                         liedyn::Matrix3<double>(Eigen::Vector3d(0.01, 0.01, 0.002).asDiagonal())));
    }
  }
  Dynamics d{b.build(), {}, {}, State<double>()};
  Data<double> data(d.model);
  d.x = liedyn::random_state(d.model, rng);
  d.M = liedyn::crba(d.model, data, d.x.s);
  d.f = -liedyn::bias_force(d.model, data, d.x);
  const int nv = d.model.nv(), m = 12, na = 12;
  REQUIRE(nv == 18);
  MatrixX<double> J(m, nv);
  for (int leg = 0; leg < 4; ++leg) {
    MatrixX<double> Jf(6, nv);
    // The foot: 0.2 below the last body's origin.
    liedyn::frame_jacobian(
        d.model, data, d.x, 3 * leg + 3,
        liedyn::SE3<double>(liedyn::Matrix3<double>::Identity(), Eigen::Vector3d(0, 0, -0.2)),
        TwistRepresentation::Mixed, Jf);
    J.middleRows(3 * leg, 3) = Jf.topRows(3);
  }
  const VectorX<double> gamma = random_matrix(m, 1, rng);
  std::vector<int> all;
  for (int j = 0; j < 12; ++j) all.push_back(j);
  const MatrixX<double> B = joint_actuation(nv, all);
  const VectorX<double> u = random_matrix(na, 1, rng) * 10;
  const VectorX<double> ddq = forward_with_actuators(d, J, gamma, B, u).ddq.cast<double>();

  liedyn::ConstrainedInverseDynamicsWorkspace<double> ws(nv, na, m);
  liedyn::ConstrainedInverseDynamicsOptions<double> options;
  options.actuator_weights = VectorX<double>::Constant(na, 1.0);
  options.force_weights =
      VectorX<double>::Constant(m, 0.01);  // forces are ~10× larger: let them be
  VectorX<double> u_out(na), lambda(m);
  const auto report =
      liedyn::constrained_inverse_dynamics<double>(d.M, J, B, ddq, d.f, ws, u_out, lambda, options);
  REQUIRE(report.solved);
  CHECK(report.redundant);
  CHECK_FALSE(report.unique);
  // Round trip: these torques reproduce the acceleration, with these contact forces.
  const Solution back = forward_with_actuators(d, J, gamma, B, u_out);
  const double round_trip =
      std::max(relative_error(back.ddq, ddq.cast<LD>()), relative_error(lambda, back.lambda));
  // The closed form W⁻¹Aᵀ(A W⁻¹ Aᵀ)⁻¹ r in long double.
  MatrixXl A(nv, na + m);
  A << B.cast<LD>(), J.transpose().cast<LD>();
  VectorXl w(na + m);
  w << options.actuator_weights.cast<LD>(), options.force_weights.cast<LD>();
  const VectorXl r = d.M.cast<LD>() * ddq.cast<LD>() - d.f.cast<LD>();
  const MatrixXl AWinv = A * w.cwiseInverse().asDiagonal();
  const VectorXl x_ref =
      w.cwiseInverse().asDiagonal() * (A.transpose() * (AWinv * A.transpose()).llt().solve(r));
  VectorX<double> x(na + m);
  x << u_out, lambda;
  const double closed_form = relative_error(x, x_ref);
  // Optimality: moving along the null space of A (other exact solutions) raises the cost.
  const Eigen::FullPivLU<MatrixXl> lu(A);
  const MatrixXl Z = lu.kernel();
  REQUIRE(Z.cols() == na + m - nv);
  auto cost = [&](const VectorXl& y) { return (y.array().square() * w.array()).sum(); };
  const LD c0 = cost(x.cast<LD>());
  int worse = 0;
  for (int k = 0; k < Z.cols(); ++k)
    for (LD t : {LD(-1e-3), LD(1e-3)}) worse += cost(VectorXl(x.cast<LD>() + t * Z.col(k))) > c0;
  INFO("round trip " << round_trip << ", against the closed form " << closed_form << ", residual "
                     << report.residual);
  CHECK(round_trip < 1e-10);
  CHECK(closed_form < 1e-10);
  CHECK(report.residual < 1e-10);
  CHECK(worse == 2 * Z.cols());
}

// =============================================================================================
namespace {
template <class S>
MatrixX<S> cast_to(const MatrixX<double>& A) {
  return liedyn::test::from_long_double<S>(A.cast<LD>());
}

// All values and derivatives of a matrix of S, as columns [values, ∂1, …] (values only for reals).
template <class S>
struct Expand {
  static MatrixXl of(const MatrixX<S>& A) { return liedyn::test::to_long_double(A); }
};
template <class D>
struct Expand<Eigen::AutoDiffScalar<D>> {
  static MatrixXl of(const MatrixX<Eigen::AutoDiffScalar<D>>& A) {
    const int n = int(D::RowsAtCompileTime);
    MatrixXl out(A.rows(), A.cols() * (1 + n));
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      for (Eigen::Index i = 0; i < A.rows(); ++i) {
        out(i, j) = A(i, j).value();
        for (int k = 0; k < n; ++k) out(i, A.cols() * (1 + k) + j) = A(i, j).derivatives()(k);
      }
    return out;
  }
};
template <class S>
MatrixXl expand(const MatrixX<S>& A) {
  return Expand<S>::of(A);
}

template <class S>
void seed(S&, int) {}
template <class D>
void seed(Eigen::AutoDiffScalar<D>& x, int k) {
  x.derivatives() = D::Unit(k);
}
}  // namespace

TEMPLATE_TEST_CASE("constrained solvers: the four routes agree in every scalar type",
                   "[constrained][scalar]", float, double, long double, liedyn::test::AD6) {
  using S = TestType;
  std::mt19937 rng(liedyn::test::default_seed + 309);
  Dynamics d = random_dynamics(9, 2, rng);
  const int nv = d.model.nv(), m = 5;
  MatrixX<S> M = cast_to<S>(d.M), J = cast_to<S>(random_matrix(m, nv, rng));
  VectorX<S> gamma = cast_to<S>(random_matrix(m, 1, rng)), f = cast_to<S>(d.f);
  // AD6: derivatives with respect to f(0..2), γ(0), J(0, 7) and a symmetric pair of M.
  seed(f(0), 0), seed(f(1), 1), seed(f(2), 2), seed(gamma(0), 3), seed(J(0, 7), 4);
  seed(M(8, 3), 5), seed(M(3, 8), 5);
  VectorX<S> ddq_b(nv), lambda_b(m), ddq_c(nv), lambda_c(m), ddq_d(nv), lambda_d(m);
  liedyn::ProximalWorkspace<S> wb(nv, m);
  liedyn::ProjectorWorkspace<S> wc(nv, m);
  liedyn::MinimalCoordinatesWorkspace<S> wd(nv, m);
  const auto rb = liedyn::proximal_forward_dynamics<S>(M, J, VectorX<S>(gamma), VectorX<S>(f), wb,
                                                       ddq_b, lambda_b);
  const auto rc = liedyn::projected_forward_dynamics<S>(M, J, VectorX<S>(gamma), VectorX<S>(f), wc,
                                                        ddq_c, lambda_c);
  const auto rd = liedyn::minimal_coordinates_forward_dynamics<S>(
      M, J, VectorX<S>(gamma), VectorX<S>(f), wd, ddq_d, lambda_d);
  CHECK(rb.converged);
  CHECK(rc.full_rank);
  CHECK(rd.solved);
  // The identities, values and derivatives: M q̈ − f − Jᵀλ = 0 and J q̈ + γ = 0.
  const double tol = liedyn::test::tolerance<S>();
  for (const auto* sol : {&ddq_b, &ddq_c, &ddq_d}) {
    const VectorX<S>& ddq = *sol;
    const VectorX<S>& lambda = sol == &ddq_b ? lambda_b : sol == &ddq_c ? lambda_c : lambda_d;
    const MatrixX<S> r1 = M * ddq - f - J.transpose() * lambda, r2 = J * ddq + gamma;
    const MatrixX<S> zero1 = MatrixX<S>::Zero(nv, 1), zero2 = MatrixX<S>::Zero(m, 1);
    // Against the terms' scale (≈ 50: M q̈ and f): the tolerance per scalar type of the test
    // support.
    const LD scale =
        expand<S>(MatrixX<S>(M * ddq)).cwiseAbs().maxCoeff() + expand<S>(f).cwiseAbs().maxCoeff();
    LIEDYN_CHECK_BELOW(liedyn::test::scaled_error(expand<S>(r1), expand<S>(zero1), scale),
                       10 * tol);
    LIEDYN_CHECK_BELOW(liedyn::test::scaled_error(expand<S>(r2), expand<S>(zero2), scale),
                       10 * tol);
  }
  // The routes agree with each other (values and derivatives); 100 × the per-type tolerance:
  // κ(G) of this set is ~1e2 and enters each route differently.
  LIEDYN_CHECK_BELOW(relative_error(expand<S>(MatrixX<S>(ddq_b)), expand<S>(MatrixX<S>(ddq_c))),
                     100 * tol);
  LIEDYN_CHECK_BELOW(relative_error(expand<S>(MatrixX<S>(ddq_d)), expand<S>(MatrixX<S>(ddq_c))),
                     100 * tol);
  LIEDYN_CHECK_BELOW(
      relative_error(expand<S>(MatrixX<S>(lambda_b)), expand<S>(MatrixX<S>(lambda_c))), 100 * tol);
  LIEDYN_CHECK_BELOW(
      relative_error(expand<S>(MatrixX<S>(lambda_d)), expand<S>(MatrixX<S>(lambda_c))), 100 * tol);
  // Inverse dynamics reproduces λ_c and the torques that made f (the first 3 joints driven
  // from f's point of view: u = 0 with the forces of f; square with m = 5 + na = 3 ≠ nv, so
  // check the residual only).
  const MatrixX<S> B = cast_to<S>(joint_actuation(nv, {0, 1, 2}));
  liedyn::ConstrainedInverseDynamicsWorkspace<S> we(nv, 3, m);
  VectorX<S> u(3), lambda_e(m);
  const auto re =
      liedyn::constrained_inverse_dynamics<S>(M, J, B, ddq_c, VectorX<S>(f), we, u, lambda_e);
  CHECK(re.solved);
  CHECK(re.unique);
  // ddq_c is consistent with u = 0 and λ_c.
  LIEDYN_CHECK_BELOW(
      relative_error(expand<S>(MatrixX<S>(lambda_e)), expand<S>(MatrixX<S>(lambda_c))), 100 * tol);
  LIEDYN_CHECK_BELOW(liedyn::test::scaled_error(
                         expand<S>(MatrixX<S>(u)), expand<S>(MatrixX<S>(MatrixX<S>::Zero(3, 1))),
                         1.0L + expand<S>(MatrixX<S>(lambda_c)).cwiseAbs().maxCoeff()),
                     100 * tol);
}

// =============================================================================================
TEST_CASE("constrained solvers: no heap allocation after the workspaces are built",
          "[constrained][allocation]") {
  std::mt19937 rng(liedyn::test::default_seed + 310);
  Dynamics d = random_dynamics(14, 3, rng);
  const int nv = d.model.nv(), max_m = 9, na = nv - 6;
  const MatrixX<double> J = random_matrix(max_m, nv, rng);
  const VectorX<double> gamma = random_matrix(max_m, 1, rng);
  MatrixX<double> B = MatrixX<double>::Zero(nv, na);
  B.bottomRows(na).setIdentity();
  liedyn::ProximalWorkspace<double> wb(nv, max_m);
  liedyn::ProjectorWorkspace<double> wc(nv, max_m);
  liedyn::MinimalCoordinatesWorkspace<double> wd(nv, max_m);
  liedyn::ConstrainedInverseDynamicsWorkspace<double> we(nv, na, max_m);
  liedyn::ConstrainedInverseDynamicsOptions<double> options;
  options.actuator_weights = VectorX<double>::Constant(na, 2.0);
  options.force_weights = VectorX<double>::Constant(max_m, 0.5);
  MatrixX<double> pinv(nv, max_m), N(nv, nv);
  VectorX<double> ddq(nv), lambda(max_m), u(na);
  std::size_t news = 0;
  bool ok = true;
  {
    liedyn::test::NoAllocation guard;
    // m changes from call to call (full and fewer rows, as contacts come and go).
    for (int m : {max_m, 4, max_m}) {
      const auto Jm = J.topRows(m);
      const auto gm = gamma.head(m);
      auto lm = lambda.head(m);
      ok &= liedyn::proximal_forward_dynamics<double>(d.M, Jm, gm, d.f, wb, ddq, lm).converged;
      ok &= liedyn::constraint_projector<double>(d.M, Jm, wc, pinv.leftCols(m), N);
      ok &= liedyn::projected_forward_dynamics<double>(d.M, Jm, gm, d.f, wc, ddq, lm).full_rank;
      ok &= liedyn::minimal_coordinates_forward_dynamics<double>(d.M, Jm, gm, d.f, wd, ddq, lm)
                .solved;
      // Redundant (na + m > nv) when m = 9 = max_m, unique-least-squares otherwise (na + 4 < nv).
      if (m == max_m)
        ok &= liedyn::constrained_inverse_dynamics<double>(d.M, Jm, B, ddq, d.f, we, u, lm, options)
                  .solved;
      else
        ok &= liedyn::constrained_inverse_dynamics<double>(d.M, Jm, B, ddq, d.f, we, u, lm).solved;
    }
    news = guard.allocations();
  }
  CHECK(ok);
  CHECK(news == 0);
}

TEST_CASE("constrained solvers: inputs of the wrong size are refused in checked builds",
          "[constrained][errors]") {
#if LIEDYN_CHECKS_ENABLED
  const int nv = 8;
  const MatrixX<double> M = MatrixX<double>::Identity(nv, nv), J = MatrixX<double>::Ones(3, nv);
  const VectorX<double> gamma = VectorX<double>::Zero(3), f = VectorX<double>::Zero(nv),
                        short_f = VectorX<double>::Zero(nv - 1);
  VectorX<double> ddq(nv), lambda(3), short_lambda(2);
  liedyn::ProximalWorkspace<double> wb(nv, 2);
  CHECK_THROWS_WITH(liedyn::proximal_forward_dynamics<double>(M, J, gamma, f, wb, ddq, lambda),
                    Contains("liedyn: proximal_forward_dynamics") && Contains("largest m = 2"));
  liedyn::ProjectorWorkspace<double> wc(nv, 3);
  CHECK_THROWS_WITH(
      liedyn::projected_forward_dynamics<double>(M, J, gamma, short_f, wc, ddq, lambda),
      Contains("liedyn: projected_forward_dynamics") && Contains("size 7, expected 8"));
  liedyn::MinimalCoordinatesWorkspace<double> wd(nv, 3);
  CHECK_THROWS_WITH(
      liedyn::minimal_coordinates_forward_dynamics<double>(M, J, gamma, f, wd, ddq, short_lambda),
      Contains("liedyn: minimal_coordinates_forward_dynamics") && Contains("lambda"));
  liedyn::ConstrainedInverseDynamicsWorkspace<double> we(nv, 2, 3);
  VectorX<double> u(2);
  CHECK_THROWS_WITH(liedyn::constrained_inverse_dynamics<double>(M, J, MatrixX<double>::Zero(nv, 3),
                                                                 ddq, f, we, u, lambda),
                    Contains("liedyn: constrained_inverse_dynamics") && Contains("actuation"));
#else
  SUCCEED("argument checks are compiled out in this build");
#endif
}

}  // namespace LIEDYN_UNITY_ID
