// liedyn tests — the groups SO3 and SE3 in float, double, long double and AD6 (forward-mode
// AutoDiff with 6 fixed-size derivatives): actions, group identities, exp and log, their
// Jacobians, quaternions.
//
// Oracles: the 6×6 action matrices against their definitions from 4×4 homogeneous matrices
// (docs/conventions.md §1): Ad_H ξ = (H ξ^ H⁻¹)∨, _A X^B = (^B X_A)ᵀ. exp against a
// long-double Taylor series of the 4×4 matrix exponential; Jacobians against central
// differences of exp/log in long double and, for AD6, against the derivative AutoDiff takes
// through exp and log.
#include <catch2/catch.hpp>

#include "support/spatial_oracles.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

// ---------------------------------------------------------------------------
// Oracles, in long double and compiled once (not per scalar type)
// ---------------------------------------------------------------------------

// Ad_H by its definition, from the homogeneous matrix H alone: column k is (H e_k^ H⁻¹)∨.
Matrix6<LD> adjoint_by_definition(const Matrix4<LD>& H) {
  Matrix4<LD> Hi = Matrix4<LD>::Identity();
  Hi.topLeftCorner<3, 3>() = H.topLeftCorner<3, 3>().transpose();
  Hi.topRightCorner<3, 1>() = -(H.topLeftCorner<3, 3>().transpose() * H.topRightCorner<3, 1>());
  Matrix6<LD> A;
  for (int k = 0; k < 6; ++k) A.col(k) = vee4(Matrix4<LD>(H * hat4(Vector6<LD>::Unit(k)) * Hi));
  return A;
}

// exp of a square matrix in long double: scaling and squaring of a 30-term Taylor series
// (‖A/2^s‖₁ ≤ 1/4, so the truncation is far below long double's ε).
template <int N>
Eigen::Matrix<LD, N, N> expm(const Eigen::Matrix<LD, N, N>& A) {
  using M = Eigen::Matrix<LD, N, N>;
  int s = 0;
  LD norm = A.cwiseAbs().colwise().sum().maxCoeff();
  while (norm > 0.25L) {
    norm *= 0.5L;
    ++s;
  }
  const M B = A / std::ldexp(1.0L, s);
  M term = M::Identity(), sum = M::Identity();
  for (int k = 1; k <= 30; ++k) {
    term = (term * B / LD(k)).eval();
    sum += term;
  }
  for (int i = 0; i < s; ++i) sum = (sum * sum).eval();
  return sum;
}
Matrix3<LD> so3_exp_reference(const Vector3<LD>& phi) { return expm<3>(liedyn::hat(phi)); }
Matrix4<LD> se3_exp_reference(const Vector6<LD>& xi) { return expm<4>(hat4(xi)); }

// Central differences of exp/log in long double with step δ = 1e-7: accurate to about
// ε_ld/δ + δ² ≈ 1e-12 (times the size of the entries).
constexpr LD kFdStep = 1e-7L;
struct FdJacobians {
  Matrix6<LD> Jr, Jl, Jri, Jli;  // SE3 at ξ
  Matrix3<LD> jr, jl, jri, jli;  // SO3 at φ = ξ's angular part
};
// `inverses`: also the inverses (needs |φ| < π, where log is smooth).
FdJacobians fd_jacobians(const Vector6<LD>& x, bool inverses) {
  FdJacobians J;
  const LD d = kFdStep;
  {
    using G = SE3<LD>;
    const G H = G::exp(x), Hi = H.inverse();
    for (int k = 0; k < 6; ++k) {
      const Vector6<LD> e = Vector6<LD>::Unit(k) * d;
      const G P = G::exp(Vector6<LD>(x + e)), N = G::exp(Vector6<LD>(x - e));
      J.Jr.col(k) = ((Hi * P).log() - (Hi * N).log()) / (2 * d);
      J.Jl.col(k) = ((P * Hi).log() - (N * Hi).log()) / (2 * d);
      if (inverses) {
        const G Ep = G::exp(e), En = G::exp(Vector6<LD>(-e));
        J.Jri.col(k) = ((H * Ep).log() - (H * En).log()) / (2 * d);
        J.Jli.col(k) = ((Ep * H).log() - (En * H).log()) / (2 * d);
      }
    }
  }
  {
    using G = SO3<LD>;
    const Vector3<LD> w = x.tail<3>();
    const G R = G::exp(w), Ri = R.inverse();
    for (int k = 0; k < 3; ++k) {
      const Vector3<LD> e = Vector3<LD>::Unit(k) * d;
      const G P = G::exp(Vector3<LD>(w + e)), N = G::exp(Vector3<LD>(w - e));
      J.jr.col(k) = ((Ri * P).log() - (Ri * N).log()) / (2 * d);
      J.jl.col(k) = ((P * Ri).log() - (N * Ri).log()) / (2 * d);
      if (inverses) {
        const G Ep = G::exp(e), En = G::exp(Vector3<LD>(-e));
        J.jri.col(k) = ((R * Ep).log() - (R * En).log()) / (2 * d);
        J.jli.col(k) = ((Ep * R).log() - (En * R).log()) / (2 * d);
      }
    }
  }
  return J;
}

template <class S>
Matrix6<S> identity6() {
  return Matrix6<S>::Identity();
}

// ---------------------------------------------------------------------------
// Angles at which exp/log/Jacobians switch branches or lose accuracy
// ---------------------------------------------------------------------------

struct AngleCase {
  LD angle;
  bool exactly_pi;  // exp(π n) = exp(−π n): log may return either
};

// θ_switch = √small_angle_threshold_squared<S>(): exp and the Jacobians switch from the Taylor
// series to the closed form there; log switches on sin θ, i.e. at asin(θ_switch).
template <class S>
LD switch_angle() {
  return std::sqrt(to_long_double(liedyn::small_angle_threshold_squared<S>()));
}
// The Q block of the SE3 Jacobians switches later, at √θ_switch = ε^(1/16) (se3.hpp).
template <class S>
LD q_switch_angle() {
  return std::sqrt(switch_angle<S>());
}

template <class S>
constexpr bool is_float() {
  return std::is_same<S, float>::value;
}

template <class S>
std::vector<AngleCase> special_angles() {
  const LD ts = switch_angle<S>(), tl = std::asin(ts);
  std::vector<AngleCase> a = {{0, false},
                              {1e-12L, false},
                              {1e-8L, false},
                              {1e-6L, false},  // near 0
                              {ts * (1 - 1e-6L), false},
                              {ts * (1 + 1e-6L), false},  // exp's switch
                              {tl * (1 - 1e-6L), false},
                              {tl * (1 + 1e-6L), false},                   // log's switch
                              {q_switch_angle<S>() * (1 - 1e-6L), false},  // Q block's switch
                              {q_switch_angle<S>() * (1 + 1e-6L), false},  //
                              {0.7L, false},
                              {2 * kPi / 3 * (1 - 1e-6L), false},  // log: cos θ = −1/2
                              {2 * kPi / 3 * (1 + 1e-6L), false},
                              {2.5L, false},  //
                              {kPi - 1e-3L, false},
                              {kPi - 1e-6L, false},
                              {kPi, true}};  // near π
  // Offsets from π below 1e-6 are below float's resolution there (ulp(π) = 2.4e-7): in float
  // π − 1e-8 and π − 1e-12 round to π itself, which is the `exactly_pi` case already.
  if (!is_float<S>()) {
    a.push_back({kPi - 1e-8L, false});
    a.push_back({kPi - 1e-12L, false});
  }
  return a;
}

// Axes for the special angles: axis-aligned, negative components, generic.
template <class S>
std::vector<Vector3<S>> special_axes(std::mt19937& gen) {
  std::vector<Vector3<S>> axes;
  const std::vector<Vector3<LD>> fixed = {Vector3<LD>(1, 0, 0), Vector3<LD>(0, 1, 0),
                                          Vector3<LD>(0, 0, -1), Vector3<LD>(1, -2, 3).normalized(),
                                          Vector3<LD>(-1, -1, -1).normalized()};
  for (const auto& u : fixed) axes.push_back(from_long_double<S>(u));
  axes.push_back(liedyn::test::random_unit_vector<S>(gen));
  return axes;
}

// ---------------------------------------------------------------------------
// Checks, one function per topic, instantiated per scalar
// ---------------------------------------------------------------------------

template <class S>
void check_se3_actions(const SE3<S>& H, std::mt19937& gen) {
  const double tol = tolerance<S>();
  const SE3<S> Hi = H.inverse();
  const Matrix6<S> X = H.velocity_transform(), Xf = H.wrench_transform();
  const Matrix6<S> Xi = Hi.velocity_transform(), Xfi = Hi.wrench_transform();

  // The 6×6 matrices against their definitions.
  LIEDYN_CHECK_CLOSE(X, adjoint_by_definition(to_long_double(H.matrix())), tol);
  LIEDYN_CHECK_CLOSE(
      Xf, Matrix6<LD>(adjoint_by_definition(to_long_double(Hi.matrix())).transpose()), tol);
  LIEDYN_CHECK_CLOSE(Matrix6<S>(X * Xi), identity6<S>(), tol);
  LIEDYN_CHECK_CLOSE(Matrix6<S>(Xf * Xfi), identity6<S>(), tol);

  const Motion<S> v(random_vector<S, 6>(gen));
  const Force<S> f(random_vector<S, 6>(gen));
  LIEDYN_CHECK_CLOSE(H.act(v).vector(), Vector6<S>(X * v.vector()), tol);
  LIEDYN_CHECK_CLOSE(H.act_inverse(v).vector(), Vector6<S>(Xi * v.vector()), tol);
  LIEDYN_CHECK_CLOSE(H.act(f).vector(), Vector6<S>(Xf * f.vector()), tol);
  LIEDYN_CHECK_CLOSE(H.act_inverse(f).vector(), Vector6<S>(Xfi * f.vector()), tol);
  LIEDYN_CHECK_CLOSE(H.act_inverse(H.act(v)).vector(), v.vector(), tol);
  LIEDYN_CHECK_CLOSE(H.act(H.act_inverse(f)).vector(), f.vector(), tol);
  // The forms with an output argument, into another vector and in place (documented), and the
  // accumulating one: against the 6×6 matrices as above.
  const auto into_and_in_place = [&](auto x, const auto& action, const Vector6<S>& expected) {
    auto out = x;
    out.vector() = random_vector<S, 6>(gen);
    action(x, out);
    LIEDYN_CHECK_CLOSE(out.vector(), expected, tol);
    action(x, x);
    LIEDYN_CHECK_CLOSE(x.vector(), expected, tol);
  };
  into_and_in_place(
      v, [&](const Motion<S>& a, Motion<S>& b) { H.act(a, b); }, X * v.vector());
  into_and_in_place(
      v, [&](const Motion<S>& a, Motion<S>& b) { H.act_inverse(a, b); }, Xi * v.vector());
  into_and_in_place(
      f, [&](const Force<S>& a, Force<S>& b) { H.act(a, b); }, Xf * f.vector());
  into_and_in_place(
      f, [&](const Force<S>& a, Force<S>& b) { H.act_inverse(a, b); }, Xfi * f.vector());
  Force<S> sum(random_vector<S, 6>(gen));
  const Vector6<S> sum0 = sum.vector();
  H.add_act(f, sum);
  LIEDYN_CHECK_CLOSE(sum.vector(), Vector6<S>(sum0 + Xf * f.vector()), tol);
  // Power is frame-independent: ⟨X v, X^{-T} f⟩ = ⟨v, f⟩.
  const LD scale = std::max<LD>(1, to_long_double(S(v.vector().norm() * f.vector().norm())));
  LIEDYN_CHECK_BELOW(
      double(std::fabs(to_long_double(S(liedyn::dot(H.act(v), H.act(f)) - liedyn::dot(v, f)))) /
             scale),
      tol);

  // Column-wise, into another block and in place.
  const Block65<S> in = random_matrix<S, 6, 5>(gen);
  Block65<S> out = Block65<S>::Zero(), io;
  H.act_motions(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(X * in), tol);
  H.act_inverse_motions(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(Xi * in), tol);
  H.act_forces(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(Xf * in), tol);
  H.act_inverse_forces(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(Xfi * in), tol);
  io = in;
  H.act_motions(io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(X * in), tol);
  io = in;
  H.act_inverse_motions(io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(Xi * in), tol);
  io = in;
  H.act_forces(io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(Xf * in), tol);
  io = in;
  H.act_inverse_forces(io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(Xfi * in), tol);
  // In place on a block of a dynamic 6×k matrix.
  Matrix6X<S> big = random_matrix<S, 6, 7>(gen), expect = big;  // (no dynamic-size products)
  for (int k = 1; k < 5; ++k) expect.col(k) = Vector6<S>(Xfi * Vector6<S>(big.col(k)));
  H.act_inverse_forces(big.middleCols(1, 4), big.middleCols(1, 4));
  LIEDYN_CHECK_CLOSE(big, expect, tol);

  // Points.
  const Vector3<S> x = random_vector<S, 3>(gen);
  Vector4<S> xh;
  xh << x, S(1);
  LIEDYN_CHECK_CLOSE(H.act_point(x), Vector3<S>((H.matrix() * xh).template head<3>()), tol);
  LIEDYN_CHECK_CLOSE(H.act_inverse_point(H.act_point(x)), x, tol);
}

template <class S>
void check_group(std::mt19937& gen) {
  const double tol = tolerance<S>();
  const SE3<S> A = liedyn::test::random_se3<S>(gen), B = liedyn::test::random_se3<S>(gen),
               C = liedyn::test::random_se3<S>(gen);
  const Matrix4<S> I4 = Matrix4<S>::Identity();
  LIEDYN_CHECK_CLOSE((A * A.inverse()).matrix(), I4, tol);
  LIEDYN_CHECK_CLOSE((A.inverse() * A).matrix(), I4, tol);
  LIEDYN_CHECK_CLOSE((A * B).matrix(), Matrix4<S>(A.matrix() * B.matrix()), tol);
  LIEDYN_CHECK_CLOSE(((A * B) * C).matrix(), (A * (B * C)).matrix(), tol);
  LIEDYN_CHECK_CLOSE(A.inverse_times(B).matrix(), (A.inverse() * B).matrix(), tol);
  LIEDYN_CHECK_CLOSE(SE3<S>::Identity().matrix(), I4, tol);
  LIEDYN_CHECK_CLOSE(SE3<S>::from_matrix(A.matrix()).matrix(), A.matrix(), tol);
  LIEDYN_CHECK_CLOSE(SE3<S>(SO3<S>(A.rotation()), A.translation()).matrix(), A.matrix(), tol);
  // Ad is a group homomorphism.
  LIEDYN_CHECK_CLOSE((A * B).velocity_transform(),
                     Matrix6<S>(A.velocity_transform() * B.velocity_transform()), tol);
  LIEDYN_CHECK_CLOSE((A * B).wrench_transform(),
                     Matrix6<S>(A.wrench_transform() * B.wrench_transform()), tol);
  LIEDYN_CHECK_CLOSE(A.inverse().velocity_transform(), Matrix6<S>(A.wrench_transform().transpose()),
                     tol);  // ^B X_A = (_A X^B)ᵀ

  // SO3.
  const SO3<S> R = liedyn::test::random_so3<S>(gen), Q = liedyn::test::random_so3<S>(gen);
  const Vector3<S> u = random_vector<S, 3>(gen);
  const Matrix3<S> I3 = Matrix3<S>::Identity();
  LIEDYN_CHECK_CLOSE((R * R.inverse()).matrix(), I3, tol);
  LIEDYN_CHECK_CLOSE(Matrix3<S>(R.matrix().transpose() * R.matrix()), I3, tol);
  LIEDYN_CHECK_CLOSE((R * Q).matrix(), Matrix3<S>(R.matrix() * Q.matrix()), tol);
  LIEDYN_CHECK_CLOSE(R.act(u), Vector3<S>(R.matrix() * u), tol);
  LIEDYN_CHECK_CLOSE(R.act_inverse(R.act(u)), u, tol);
  LIEDYN_CHECK_CLOSE(SO3<S>::Identity().matrix(), I3, tol);
}

// exp/log of SE3 and SO3 at ξ = [ρ; angle·axis]; `exactly_pi`: the rotation has angle π (up to
// the rounding of π in S), where log may return either of ±φ.
template <class S>
void check_exp_log(const Vector6<S>& xi, LD angle, bool exactly_pi) {
  const double tol = tolerance<S>();
  const Vector3<S> phi = xi.template tail<3>();
  // Scale for the rotation vector: relative to |φ| itself for small angles, so that a log
  // that returned 0 at φ = 1e-12 n would fail.
  const LD phi_scale = angle > 0 ? std::min<LD>(1, angle) : 1;

  // SO3.
  const SO3<S> R = SO3<S>::exp(phi);
  LIEDYN_CHECK_CLOSE(R.matrix(), so3_exp_reference(to_long_double(phi)), tol);
  const Vector3<S> phi_log = R.log();
  LIEDYN_CHECK_CLOSE(SO3<S>::exp(phi_log).matrix(), R.matrix(), tol);
  if (!exactly_pi) {
    LIEDYN_CHECK_BELOW(scaled_error(phi_log, phi, phi_scale), tol);
  } else {
    LIEDYN_CHECK_BELOW(double(std::fabs(to_long_double(S(phi_log.norm())) - kPi) / kPi), tol);
    LIEDYN_CHECK_BELOW(
        std::min(relative_error(phi_log, phi), relative_error(phi_log, Vector3<S>(-phi))), tol);
  }

  // SE3.
  const SE3<S> H = SE3<S>::exp(xi);
  LIEDYN_CHECK_CLOSE(H.matrix(), se3_exp_reference(to_long_double(xi)), tol);
  const Vector6<S> xi_log = H.log();
  LIEDYN_CHECK_CLOSE(SE3<S>::exp(xi_log).matrix(), H.matrix(), tol);
  if (!exactly_pi) {
    LIEDYN_CHECK_CLOSE(xi_log, xi, tol);
    LIEDYN_CHECK_BELOW(scaled_error(Vector3<S>(xi_log.template tail<3>()), phi, phi_scale), tol);
  } else {
    const Vector3<S> p = xi_log.template tail<3>();
    LIEDYN_CHECK_BELOW(std::min(relative_error(p, phi), relative_error(p, Vector3<S>(-phi))), tol);
  }
}

// Finite-difference tolerance: the references (fd_jacobians) are accurate to about 1e-12;
// results computed in S are compared at the larger of 1e-10 and S's tolerance.
template <class S>
double fd_tolerance() {
  return std::max(tolerance<S>(), 1e-10);
}

// Right/left Jacobians of SE3 and SO3 and their inverses at ξ, against central differences
// of exp/log in long double; `inverses_by_fd`: also the inverses (needs |φ| < π, where log
// is smooth). Plus the identities J J⁻¹ = I, Jl(ξ) = Jr(−ξ), Jl(ξ) = Ad(exp ξ) Jr(ξ).
template <class S>
void check_jacobians(const Vector6<S>& xi, bool inverses_by_fd) {
  const double tol = tolerance<S>(), fd_tol = fd_tolerance<S>();
  const Vector3<S> phi = xi.template tail<3>();
  const FdJacobians fd = fd_jacobians(to_long_double(xi), inverses_by_fd);

  const Matrix6<S> Jr = SE3<S>::right_jacobian(xi), Jl = SE3<S>::left_jacobian(xi);
  const Matrix6<S> Jri = SE3<S>::right_jacobian_inverse(xi),
                   Jli = SE3<S>::left_jacobian_inverse(xi);
  LIEDYN_CHECK_CLOSE(Jr, fd.Jr, fd_tol);
  LIEDYN_CHECK_CLOSE(Jl, fd.Jl, fd_tol);
  if (inverses_by_fd) {
    LIEDYN_CHECK_CLOSE(Jri, fd.Jri, fd_tol);
    LIEDYN_CHECK_CLOSE(Jli, fd.Jli, fd_tol);
  }
  LIEDYN_CHECK_CLOSE(Matrix6<S>(Jr * Jri), identity6<S>(), tol);
  LIEDYN_CHECK_CLOSE(Matrix6<S>(Jl * Jli), identity6<S>(), tol);
  LIEDYN_CHECK_CLOSE(Jl, SE3<S>::right_jacobian(Vector6<S>(-xi)), tol);
  LIEDYN_CHECK_CLOSE(Jli, SE3<S>::right_jacobian_inverse(Vector6<S>(-xi)), tol);
  LIEDYN_CHECK_CLOSE(Jl, Matrix6<S>(SE3<S>::exp(xi).velocity_transform() * Jr), tol);

  const Matrix3<S> jr = SO3<S>::right_jacobian(phi), jl = SO3<S>::left_jacobian(phi);
  const Matrix3<S> jri = SO3<S>::right_jacobian_inverse(phi),
                   jli = SO3<S>::left_jacobian_inverse(phi);
  const Matrix3<S> I3 = Matrix3<S>::Identity();
  LIEDYN_CHECK_CLOSE(jr, fd.jr, fd_tol);
  LIEDYN_CHECK_CLOSE(jl, fd.jl, fd_tol);
  if (inverses_by_fd) {
    LIEDYN_CHECK_CLOSE(jri, fd.jri, fd_tol);
    LIEDYN_CHECK_CLOSE(jli, fd.jli, fd_tol);
  }
  LIEDYN_CHECK_CLOSE(Matrix3<S>(jr * jri), I3, tol);
  LIEDYN_CHECK_CLOSE(Matrix3<S>(jl * jli), I3, tol);
  LIEDYN_CHECK_CLOSE(jl, SO3<S>::right_jacobian(Vector3<S>(-phi)), tol);
  LIEDYN_CHECK_CLOSE(jl, Matrix3<S>(jr.transpose()), tol);
  LIEDYN_CHECK_CLOSE(jl, Matrix3<S>(SO3<S>::exp(phi).matrix() * jr), tol);
}

template <class S>
void check_quaternions(std::mt19937& gen) {
  const double tol = tolerance<S>();
  const S h = from_long_double<S>(std::sqrt(0.5L));
  // 90° about z ↔ (x, y, z, w) = (0, 0, sin 45°, cos 45°).
  Matrix3<S> Rz;
  Rz << S(0), S(-1), S(0), S(1), S(0), S(0), S(0), S(0), S(1);
  LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(S(0), S(0), h, h).matrix(), Rz, tol);
  LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(S(0), S(0), h, h)).matrix(), Rz, tol);
  LIEDYN_CHECK_CLOSE(SO3<S>(Rz).to_quaternion(), Vector4<S>(S(0), S(0), h, h), tol);
  LIEDYN_CHECK_CLOSE(
      SO3<S>::exp(Vector3<S>(S(0), S(0), from_long_double<S>(kPi / 2))).to_quaternion(),
      Vector4<S>(S(0), S(0), h, h), tol);
  // q = (sin(θ/2) n, cos(θ/2)) ↔ exp(θ n).
  for (int i = 0; i < 10; ++i) {
    const Vector3<S> n = liedyn::test::random_unit_vector<S>(gen);
    const LD theta = liedyn::test::uniform(gen, 0, kPi);
    Vector4<S> q;
    q << n * from_long_double<S>(std::sin(theta / 2)), from_long_double<S>(std::cos(theta / 2));
    const Matrix3<S> R = SO3<S>::exp(Vector3<S>(n * from_long_double<S>(theta))).matrix();
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(q).matrix(), R, tol);
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(-q)).matrix(), R, tol);  // −q ~ q
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(q * S(3.5f))).matrix(), R,
                       tol);  // normalized
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(q * S(0.01f))).matrix(), R, tol);
    LIEDYN_CHECK_CLOSE(SO3<S>(R).to_quaternion(), q, tol);  // w ≥ 0 already
  }
  // A zero or non-finite quaternion is no rotation: a clear error, not NaNs.
  CHECK_THROWS_WITH(SO3<S>::from_quaternion(S(0), S(0), S(0), S(0)),
                    Catch::Contains("zero or not finite"));
  CHECK_THROWS_WITH(SO3<S>::from_quaternion(std::numeric_limits<S>::quiet_NaN(), S(0), S(0), S(1)),
                    Catch::Contains("zero or not finite"));
  // R → q → R, including rotations by π about axis-aligned and mixed axes, which exercise each
  // branch of Shepperd's method; the output is a unit quaternion with w ≥ 0.
  std::vector<Matrix3<S>> rotations;
  for (const Vector3<S>& n : special_axes<S>(gen)) {
    for (LD theta : {LD(0), LD(0.3), LD(2), kPi - 1e-3L, kPi})
      rotations.push_back(SO3<S>::exp(Vector3<S>(n * from_long_double<S>(theta))).matrix());
  }
  for (const Vector3<LD>& axis :
       {Vector3<LD>(1, 1, 0), Vector3<LD>(0, -1, 1), Vector3<LD>(1, 0, -1)}) {
    rotations.push_back(
        SO3<S>::exp(from_long_double<S>(Vector3<LD>(axis.normalized() * kPi))).matrix());
  }
  for (int i = 0; i < 20; ++i) rotations.push_back(liedyn::test::random_so3<S>(gen).matrix());
  for (const Matrix3<S>& R : rotations) {
    const Vector4<S> q = SO3<S>(R).to_quaternion();
    LIEDYN_CHECK_BELOW(double(-to_long_double(q(3))), 1e-300);  // w ≥ 0 (−w < tiny)
    LIEDYN_CHECK_BELOW(double(std::fabs(to_long_double(S(q.norm())) - 1)), tol);
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(q).matrix(), R, tol);
  }
}

}  // namespace

// ===========================================================================
// Test cases
// ===========================================================================

TEMPLATE_TEST_CASE("spatial: SE3 actions match the 6x6 transforms", "[spatial][se3]",
                   LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(2);
  using S = TestType;
  check_se3_actions(SE3<S>::Identity(), gen);
  check_se3_actions(SE3<S>(SO3<S>::exp(Vector3<S>(S(0), S(0), from_long_double<S>(kPi))),
                           Vector3<S>(S(1), S(-2), S(3))),
                    gen);
  for (int i = 0; i < 20; ++i) check_se3_actions(liedyn::test::random_se3<S>(gen), gen);
}

TEMPLATE_TEST_CASE("spatial: SE3 and SO3 group identities", "[spatial][se3]", LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(3);
  for (int i = 0; i < 20; ++i) check_group<TestType>(gen);
}
TEMPLATE_TEST_CASE("spatial: exp and log round trips", "[spatial][exp]", LIEDYN_SCALARS) {
  using S = TestType;
  auto gen = liedyn::test::make_rng(5);
  const auto axes = special_axes<S>(gen);
  for (const AngleCase& c : special_angles<S>()) {
    for (const Vector3<S>& n : axes) {
      Vector6<S> xi;
      xi << random_vector<S, 3>(gen), n * from_long_double<S>(c.angle);
      CAPTURE(c.angle, to_long_double(n).transpose());
      check_exp_log<S>(xi, c.angle, c.exactly_pi);
    }
  }
  for (int i = 0; i < 30; ++i) {
    const Vector6<S> xi = liedyn::test::random_twist<S>(gen);
    check_exp_log<S>(xi, to_long_double(S(xi.template tail<3>().norm())), false);
  }
}

TEMPLATE_TEST_CASE("spatial: Jacobians match finite differences", "[spatial][jacobian]",
                   LIEDYN_SCALARS) {
  using S = TestType;
  auto gen = liedyn::test::make_rng(6);
  const LD ts = switch_angle<S>();
  // Near 0, at the series/closed-form switch, generic, near π (inverses: log is smooth for
  // |φ| < π only) and at π (forward Jacobians only).
  const std::vector<AngleCase> angles = {{0, false},
                                         {1e-8L, false},
                                         {1e-6L, false},
                                         {ts * (1 - 1e-6L), false},
                                         {ts * (1 + 1e-6L), false},
                                         {q_switch_angle<S>() * (1 - 1e-6L), false},
                                         {q_switch_angle<S>() * (1 + 1e-6L), false},
                                         {0.7L, false},
                                         {2.5L, false},
                                         {kPi - 1e-3L, false},
                                         {kPi - 1e-6L, false},
                                         {kPi, true}};
  std::vector<Vector3<S>> axes = {
      Vector3<S>(S(0), S(0), S(-1)),
      from_long_double<S>(Vector3<LD>(Vector3<LD>(1, -2, 3).normalized())),
      liedyn::test::random_unit_vector<S>(gen)};
  for (const AngleCase& c : angles) {
    for (const Vector3<S>& n : axes) {
      Vector6<S> xi;
      xi << random_vector<S, 3>(gen), n * from_long_double<S>(c.angle);
      CAPTURE(c.angle, to_long_double(n).transpose());
      check_jacobians<S>(xi, !c.exactly_pi);
    }
  }
  for (int i = 0; i < 10; ++i)
    check_jacobians<S>(liedyn::test::random_twist<S>(gen, kPi - 1e-3L), true);
}

TEMPLATE_TEST_CASE("spatial: quaternions", "[spatial][so3]", LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(7);
  check_quaternions<TestType>(gen);
}

// ---------------------------------------------------------------------------
// AutoDiff through exp and log
// ---------------------------------------------------------------------------

TEST_CASE("spatial: AutoDiff derivatives of exp and log are the Jacobians",
          "[spatial][jacobian][autodiff]") {
  const double tol = tolerance<double>();
  auto gen = liedyn::test::make_rng(8);
  std::vector<Vector6<double>> points;
  const Vector3<double> n = Vector3<double>(1, -2, 3).normalized();
  const double ts = static_cast<double>(switch_angle<double>());
  for (double angle : {0.0, 1e-8, ts * (1 - 1e-6), ts * (1 + 1e-6), 0.7, 2.5, double(kPi) - 1e-6}) {
    Vector6<double> xi;
    xi << random_vector<double, 3>(gen), n * angle;
    points.push_back(xi);
  }
  points.push_back(Vector6<double>::Zero());
  for (int i = 0; i < 5; ++i)
    points.push_back(liedyn::test::random_twist<double>(gen, kPi - 1e-3L));

  for (const Vector6<double>& xi : points) {
    CAPTURE(xi.transpose());
    // exp: H⁻¹ ∂H/∂ξ_k = (Jr(ξ) e_k)^, i.e. the body-frame derivative is Jr's column k.
    const SE3<AD6> H = SE3<AD6>::exp(seeded(xi));
    const Matrix3<double> R = values(H.rotation());
    Matrix6<double> body;
    for (int k = 0; k < 6; ++k) {
      body.col(k) << R.transpose() * derivative(H.translation(), k),
          liedyn::vee(Matrix3<double>(R.transpose() * derivative(H.rotation(), k)));
    }
    LIEDYN_CHECK_CLOSE(values(H.matrix()), SE3<double>::exp(xi).matrix(), tol);
    LIEDYN_CHECK_CLOSE(body, SE3<double>::right_jacobian(xi), tol);

    // SO3 exp with the rotation seeds only.
    const Vector6<AD6> s = seeded(xi);
    const SO3<AD6> Rad = SO3<AD6>::exp(Vector3<AD6>(s.tail<3>()));
    Matrix3<double> body3;
    for (int k = 0; k < 3; ++k)
      body3.col(k) = liedyn::vee(Matrix3<double>(R.transpose() * derivative(Rad.matrix(), 3 + k)));
    LIEDYN_CHECK_CLOSE(body3, SO3<double>::right_jacobian(Vector3<double>(xi.tail<3>())), tol);

    // log: ∂/∂ε log(exp(ξ) exp(ε)) at ε = 0 is Jr⁻¹(ξ) (|φ| < π here), seeded at ε = 0.
    const SE3<AD6> H0 = SE3<double>::exp(xi).cast<AD6>();
    const Vector6<AD6> eps = seeded(Vector6<double>::Zero());
    const Vector6<AD6> xi_log = (H0 * SE3<AD6>::exp(eps)).log();
    Matrix6<double> dlog;
    for (int k = 0; k < 6; ++k) dlog.col(k) = derivative(xi_log, k);
    LIEDYN_CHECK_CLOSE(values(xi_log), xi, tol);
    LIEDYN_CHECK_CLOSE(dlog, SE3<double>::right_jacobian_inverse(xi), tol);

    const SO3<AD6> R0 = SO3<double>::exp(Vector3<double>(xi.tail<3>())).cast<AD6>();
    const Vector3<AD6> phi_log = (R0 * SO3<AD6>::exp(Vector3<AD6>(eps.tail<3>()))).log();
    Matrix3<double> dlog3;
    for (int k = 0; k < 3; ++k) dlog3.col(k) = derivative(phi_log, 3 + k);
    LIEDYN_CHECK_CLOSE(dlog3, SO3<double>::right_jacobian_inverse(Vector3<double>(xi.tail<3>())),
                       tol);
  }
}

TEST_CASE("spatial: rotation_defect and the boundary checks of rotations and quaternions",
          "[spatial][so3]") {
  using liedyn::rotation_tolerance;
  const Matrix3<double> R = SO3<double>::exp(Vector3<double>(0.3, -0.2, 0.5)).matrix();
  // A rotation of exp: RᵀR − I of a few ulps.
  CHECK(liedyn::rotation_defect(R) < 1e-15);
  CHECK(liedyn::rotation_defect(Matrix3<double>(2.0 * R)) == 3.0);  // |4 − 1|, exactly
  Matrix3<double> reflected = R;
  reflected.col(2) *= -1.0;  // orthonormal, det −1
  CHECK(liedyn::rotation_defect(reflected) == std::numeric_limits<double>::infinity());
  Matrix3<double> not_finite = R;
  not_finite(1, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK(liedyn::rotation_defect(not_finite) == std::numeric_limits<double>::infinity());
  // Within the tolerance passes (float32 data), beyond it is refused with the defect named.
  CHECK_NOTHROW(
      liedyn::detail::check_rotation("f", "R", Matrix3<double>(R.cast<float>().cast<double>())));
  CHECK_THROWS_WITH(liedyn::detail::check_rotation("f", "R", Matrix3<double>(1.1 * R)),
                    Catch::Contains("f: R is not a rotation matrix: R^T R differs from the "
                                    "identity by 0.21"));
  CHECK_THROWS_WITH(liedyn::detail::check_rotation("f", "R", reflected),
                    Catch::Contains("determinant is not positive"));
  Vector4<double> q(0.1, -0.2, 0.3, 0.9);
  q.normalize();
  CHECK_NOTHROW(liedyn::detail::check_unit_quaternion("f", "q", q));
  CHECK_NOTHROW(liedyn::detail::check_unit_quaternion(
      "f", "q", Vector4<double>((1.0 + 0.5 * rotation_tolerance) * q)));
  CHECK_THROWS_WITH(liedyn::detail::check_unit_quaternion("f", "q", Vector4<double>(1.7 * q)),
                    Catch::Contains("f: q is not a unit quaternion: its norm is 1.7"));
  CHECK_THROWS_AS(liedyn::detail::check_unit_quaternion("f", "q", Vector4<double>::Zero()),
                  liedyn::InvalidArgument);
}

}  // namespace LIEDYN_UNITY_ID
