// liedyn tests — the spatial algebra (SO3, SE3, Motion, Force, SpatialInertia) in float,
// double, long double and AD6 (forward-mode AutoDiff with 6 fixed-size derivatives).
//
// Oracles: every structured operation against its 6×6 matrix, and the 6×6 matrices against
// their definitions from 4×4 homogeneous matrices (docs/conventions.md §1): Ad_H ξ = (H ξ^ H⁻¹)∨,
// (v×) m = [v^, m^]∨, _A X^B = (^B X_A)ᵀ. exp against a long-double Taylor series of the 4×4
// matrix exponential; Jacobians against central differences of exp/log in long double and,
// for AD6, against the derivative AutoDiff takes through exp and log.
#include <catch2/catch.hpp>

// GCC 12 at -O2/-O3 reports -Warray-bounds false positives inside Eigen's SSE 3-vector cross
// product for float (the 16-byte load of a Vector3f); the code is correct.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "support/test_support.hpp"

using liedyn::Force;
using liedyn::Matrix3;
using liedyn::Matrix4;
using liedyn::Matrix6;
using liedyn::Matrix6X;
using liedyn::Motion;
using liedyn::SE3;
using liedyn::SO3;
using liedyn::SpatialInertia;
using liedyn::Vector3;
using liedyn::Vector4;
using liedyn::Vector6;
using liedyn::test::AD6;
using liedyn::test::from_long_double;
using liedyn::test::random_matrix;
using liedyn::test::random_vector;
using liedyn::test::relative_error;
using liedyn::test::scaled_error;
using liedyn::test::to_long_double;
using liedyn::test::tolerance;

namespace {

constexpr long double kPi = 3.141592653589793238462643383279502884L;

using LD = long double;
template <class S>
using Block65 = Eigen::Matrix<S, 6, 5>;

// ---------------------------------------------------------------------------
// Oracles, in long double and compiled once (not per scalar type)
// ---------------------------------------------------------------------------

Matrix4<LD> hat4(const Vector6<LD>& xi) {
  Matrix4<LD> m = Matrix4<LD>::Zero();
  m.topLeftCorner<3, 3>() = liedyn::hat(xi.tail<3>());
  m.topRightCorner<3, 1>() = xi.head<3>();
  return m;
}

Vector6<LD> vee4(const Matrix4<LD>& m) {
  Vector6<LD> xi;
  xi << m.topRightCorner<3, 1>(), liedyn::vee(m.topLeftCorner<3, 3>());
  return xi;
}

// Ad_H by its definition, from the homogeneous matrix H alone: column k is (H e_k^ H⁻¹)∨.
Matrix6<LD> adjoint_by_definition(const Matrix4<LD>& H) {
  Matrix4<LD> Hi = Matrix4<LD>::Identity();
  Hi.topLeftCorner<3, 3>() = H.topLeftCorner<3, 3>().transpose();
  Hi.topRightCorner<3, 1>() = -(H.topLeftCorner<3, 3>().transpose() * H.topRightCorner<3, 1>());
  Matrix6<LD> A;
  for (int k = 0; k < 6; ++k) A.col(k) = vee4(Matrix4<LD>(H * hat4(Vector6<LD>::Unit(k)) * Hi));
  return A;
}

// v× by its definition: column k is [v^, e_k^]∨ (the Lie bracket of se(3)).
Matrix6<LD> cross_by_definition(const Vector6<LD>& v) {
  const Matrix4<LD> V = hat4(v);
  Matrix6<LD> C;
  for (int k = 0; k < 6; ++k) {
    const Matrix4<LD> E = hat4(Vector6<LD>::Unit(k));
    C.col(k) = vee4(Matrix4<LD>(V * E - E * V));
  }
  return C;
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
Matrix6<S> identity6() { return Matrix6<S>::Identity(); }

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
constexpr bool is_float() { return std::is_same<S, float>::value; }

template <class S>
std::vector<AngleCase> special_angles() {
  const LD ts = switch_angle<S>(), tl = std::asin(ts);
  std::vector<AngleCase> a = {
      {0, false}, {1e-12L, false}, {1e-8L, false}, {1e-6L, false},            // near 0
      {ts * (1 - 1e-6L), false}, {ts * (1 + 1e-6L), false},                  // exp's switch
      {tl * (1 - 1e-6L), false}, {tl * (1 + 1e-6L), false},                  // log's switch
      {q_switch_angle<S>() * (1 - 1e-6L), false},                            // Q block's switch
      {q_switch_angle<S>() * (1 + 1e-6L), false},                            //
      {0.7L, false}, {2 * kPi / 3 * (1 - 1e-6L), false},                     // log: cos θ = −1/2
      {2 * kPi / 3 * (1 + 1e-6L), false}, {2.5L, false},                      //
      {kPi - 1e-3L, false}, {kPi - 1e-6L, false}, {kPi, true}};               // near π
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
  const std::vector<Vector3<LD>> fixed = {Vector3<LD>(1, 0, 0), Vector3<LD>(0, 1, 0), Vector3<LD>(0, 0, -1),
                                          Vector3<LD>(1, -2, 3).normalized(),
                                          Vector3<LD>(-1, -1, -1).normalized()};
  for (const auto& u : fixed) axes.push_back(from_long_double<S>(u));
  axes.push_back(liedyn::test::random_unit_vector<S>(gen));
  return axes;
}

// ---------------------------------------------------------------------------
// Checks, one function per topic, instantiated per scalar
// ---------------------------------------------------------------------------

template <class S>
void check_hat_vee(std::mt19937& gen) {
  const double tol = tolerance<S>();
  const Vector3<S> u = random_vector<S, 3>(gen), w = random_vector<S, 3>(gen);
  const Matrix3<S> U = liedyn::hat(u);
  LIEDYN_CHECK_CLOSE(Vector3<S>(U * w), Vector3<S>(u.cross(w)), tol);
  LIEDYN_CHECK_CLOSE(Matrix3<S>(U.transpose()), Matrix3<S>(-U), tol);
  LIEDYN_CHECK_CLOSE(liedyn::vee(U), u, tol);
  // vee of a general matrix: the vee of its skew part.
  const Matrix3<S> A = random_matrix<S, 3, 3>(gen);
  LIEDYN_CHECK_CLOSE(Matrix3<S>(liedyn::hat(liedyn::vee(A))), Matrix3<S>((A - A.transpose()) / S(2)), tol);
}

template <class S>
void check_cross(std::mt19937& gen) {
  const double tol = tolerance<S>();
  const Motion<S> v(random_vector<S, 6>(gen)), m(random_vector<S, 6>(gen));
  const Force<S> f(random_vector<S, 6>(gen));
  const Matrix6<S> Vx = v.cross_matrix(), Vs = v.cross_star_matrix();

  LIEDYN_CHECK_CLOSE(Vx, cross_by_definition(to_long_double(v.vector())), tol);
  LIEDYN_CHECK_CLOSE(Vs, Matrix6<S>(-Vx.transpose()), tol);
  LIEDYN_CHECK_CLOSE(liedyn::ad(v.vector()), Vx, tol);
  LIEDYN_CHECK_CLOSE(v.cross(m).vector(), Vector6<S>(Vx * m.vector()), tol);
  LIEDYN_CHECK_CLOSE(v.cross(f).vector(), Vector6<S>(Vs * f.vector()), tol);
  LIEDYN_CHECK_CLOSE(v.cross(v).vector(), Vector6<S>::Zero(), tol);
  // Duality: ⟨v×m, f⟩ + ⟨m, v×̄*f⟩ = 0.
  LIEDYN_CHECK_BELOW(double(std::fabs(to_long_double(S(liedyn::dot(v.cross(m), f) + liedyn::dot(m, v.cross(f)))))), 10 * tol);

  // Column-wise, into another block and in place, on plain and on block expressions.
  const Block65<S> in = random_matrix<S, 6, 5>(gen);
  Block65<S> out = Block65<S>::Zero(), io = in;
  liedyn::cross_motion_columns(v, in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(Vx * in), tol);
  liedyn::cross_motion_columns(v, io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(Vx * in), tol);
  liedyn::cross_force_columns(v, in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(Vs * in), tol);
  io = in;
  liedyn::cross_force_columns(v, io, io);
  LIEDYN_CHECK_CLOSE(io, Block65<S>(Vs * in), tol);
  Matrix6X<S> big = random_matrix<S, 6, 7>(gen), expect = big;  // (no dynamic-size products)
  for (int k = 2; k < 5; ++k) expect.col(k) = Vector6<S>(Vx * Vector6<S>(big.col(k)));
  liedyn::cross_motion_columns(v, big.middleCols(2, 3), big.middleCols(2, 3));
  LIEDYN_CHECK_CLOSE(big, expect, tol);

  // Equivariance: (X v)× = X (v×) X⁻¹ and X (v × m) = (X v) × (X m).
  const SE3<S> H = liedyn::test::random_se3<S>(gen);
  const Matrix6<S> X = H.velocity_transform(), Xi = H.inverse().velocity_transform();
  LIEDYN_CHECK_CLOSE(H.act(v).cross_matrix(), Matrix6<S>(X * Vx * Xi), tol);
  LIEDYN_CHECK_CLOSE(H.act(v.cross(m)).vector(), H.act(v).cross(H.act(m)).vector(), tol);
  LIEDYN_CHECK_CLOSE(H.act(v.cross(f)).vector(), H.act(v).cross(H.act(f)).vector(), tol);

  // Vector-space operations.
  const S a = from_long_double<S>(-1.75L);
  LIEDYN_CHECK_CLOSE((v + m).vector(), Vector6<S>(v.vector() + m.vector()), tol);
  LIEDYN_CHECK_CLOSE((v - m).vector(), Vector6<S>(v.vector() - m.vector()), tol);
  LIEDYN_CHECK_CLOSE((a * v).vector(), Vector6<S>(a * v.vector()), tol);
  LIEDYN_CHECK_CLOSE((-f).vector(), Vector6<S>(-f.vector()), tol);
  LIEDYN_CHECK_CLOSE((f * a).vector(), Vector6<S>(a * f.vector()), tol);
}

template <class S>
void check_se3_actions(const SE3<S>& H, std::mt19937& gen) {
  const double tol = tolerance<S>();
  const SE3<S> Hi = H.inverse();
  const Matrix6<S> X = H.velocity_transform(), Xf = H.wrench_transform();
  const Matrix6<S> Xi = Hi.velocity_transform(), Xfi = Hi.wrench_transform();

  // The 6×6 matrices against their definitions.
  LIEDYN_CHECK_CLOSE(X, adjoint_by_definition(to_long_double(H.matrix())), tol);
  LIEDYN_CHECK_CLOSE(Xf, Matrix6<LD>(adjoint_by_definition(to_long_double(Hi.matrix())).transpose()), tol);
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
  // Power is frame-independent: ⟨X v, X^{-T} f⟩ = ⟨v, f⟩.
  const LD scale = std::max<LD>(1, to_long_double(S(v.vector().norm() * f.vector().norm())));
  LIEDYN_CHECK_BELOW(double(std::fabs(to_long_double(S(liedyn::dot(H.act(v), H.act(f)) - liedyn::dot(v, f)))) / scale), tol);

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
  LIEDYN_CHECK_CLOSE((A * B).velocity_transform(), Matrix6<S>(A.velocity_transform() * B.velocity_transform()), tol);
  LIEDYN_CHECK_CLOSE((A * B).wrench_transform(), Matrix6<S>(A.wrench_transform() * B.wrench_transform()), tol);
  LIEDYN_CHECK_CLOSE(A.inverse().velocity_transform(),
                       Matrix6<S>(A.wrench_transform().transpose()), tol);  // ^B X_A = (_A X^B)ᵀ

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

template <class S>
void check_inertia(std::mt19937& gen) {
  const double tol = tolerance<S>();
  // Build one from (m, c, I_c) and check the 6×6 form of docs/conventions.md §1.
  const S m = from_long_double<S>(2.5L);
  const Vector3<S> c = random_vector<S, 3>(gen, -0.3L, 0.3L);
  const Matrix3<S> Ic = from_long_double<S>(Matrix3<LD>((Matrix3<LD>() << 0.3L, 0.01L, -0.02L,  //
                                                         0.01L, 0.25L, 0.03L,                   //
                                                         -0.02L, 0.03L, 0.4L)
                                                            .finished()));
  const SpatialInertia<S> I = SpatialInertia<S>::from_mass_com_inertia(m, c, Ic);
  const Matrix3<S> Cx = liedyn::hat(c);
  Matrix6<S> M_def;
  M_def << m * Matrix3<S>::Identity(), -m * Cx, m * Cx, Ic - m * Cx * Cx;
  LIEDYN_CHECK_CLOSE(I.matrix(), M_def, tol);
  LIEDYN_CHECK_CLOSE(I.com(), c, tol);
  LIEDYN_CHECK_CLOSE(I.inertia_com(), Ic, tol);
  LIEDYN_CHECK_CLOSE(I.first_moment(), Vector3<S>(m * c), tol);
  LIEDYN_CHECK_BELOW(double(std::fabs(to_long_double(I.mass()) - to_long_double(m))), tol);

  // Random ones: every structured operation against matrix().
  const SpatialInertia<S> J = liedyn::test::random_inertia<S>(gen), K = liedyn::test::random_inertia<S>(gen);
  const Matrix6<S> MJ = J.matrix(), MK = K.matrix();
  LIEDYN_CHECK_CLOSE(MJ, Matrix6<S>(MJ.transpose()), tol);
  const Motion<S> v(random_vector<S, 6>(gen));
  LIEDYN_CHECK_CLOSE((J * v).vector(), Vector6<S>(MJ * v.vector()), tol);
  const Block65<S> in = random_matrix<S, 6, 5>(gen);
  Block65<S> out = Block65<S>::Zero();
  J.apply_columns(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(MJ * in), tol);
  LIEDYN_CHECK_CLOSE((J + K).matrix(), Matrix6<S>(MJ + MK), tol);
  SpatialInertia<S> L = J;
  L += K;
  LIEDYN_CHECK_CLOSE(L.matrix(), Matrix6<S>(MJ + MK), tol);
  LIEDYN_CHECK_CLOSE(SpatialInertia<S>::from_matrix(MJ).matrix(), MJ, tol);
  LIEDYN_CHECK_CLOSE(SpatialInertia<S>::from_moments(J.mass(), J.first_moment(), J.inertia_origin()).matrix(), MJ, tol);
  LIEDYN_CHECK_CLOSE(SpatialInertia<S>::Zero().matrix(), Matrix6<S>(Matrix6<S>::Zero()), tol);

  // Change of frame: with X = ^A H_B, M_A = _A X^B M_B ^B X_A and back.
  const SE3<S> H = liedyn::test::random_se3<S>(gen);
  const Matrix6<S> MA = H.wrench_transform() * MJ * H.inverse().velocity_transform();
  LIEDYN_CHECK_CLOSE(J.transformed(H).matrix(), MA, tol);
  LIEDYN_CHECK_CLOSE(J.transformed_inverse(H).matrix(),
                       Matrix6<S>(H.inverse().wrench_transform() * MJ * H.velocity_transform()), tol);
  LIEDYN_CHECK_CLOSE(J.transformed(H).transformed_inverse(H).matrix(), MJ, tol);
  // A child's inertia added to its parent's in place (crba's composites): K + M_A; added to zero,
  // exactly symmetric.
  SpatialInertia<S> P = K, Z;
  P.add_transformed(J, H);
  LIEDYN_CHECK_CLOSE(P.matrix(), Matrix6<S>(MK + MA), tol);
  Z.add_transformed(J, H);
  LIEDYN_CHECK_CLOSE(Z.matrix(), MA, tol);
  CHECK(Z.inertia_origin() == Z.inertia_origin().transpose());
  // Momentum transforms like a force: M_A (X v) = X^{-T} (M_B v).
  LIEDYN_CHECK_CLOSE((J.transformed(H) * H.act(v)).vector(), H.act(J * v).vector(), tol);
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
    LIEDYN_CHECK_BELOW(std::min(relative_error(phi_log, phi), relative_error(phi_log, Vector3<S>(-phi))), tol);
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
double fd_tolerance() { return std::max(tolerance<S>(), 1e-10); }

// Right/left Jacobians of SE3 and SO3 and their inverses at ξ, against central differences
// of exp/log in long double; `inverses_by_fd`: also the inverses (needs |φ| < π, where log
// is smooth). Plus the identities J J⁻¹ = I, Jl(ξ) = Jr(−ξ), Jl(ξ) = Ad(exp ξ) Jr(ξ).
template <class S>
void check_jacobians(const Vector6<S>& xi, bool inverses_by_fd) {
  const double tol = tolerance<S>(), fd_tol = fd_tolerance<S>();
  const Vector3<S> phi = xi.template tail<3>();
  const FdJacobians fd = fd_jacobians(to_long_double(xi), inverses_by_fd);

  const Matrix6<S> Jr = SE3<S>::right_jacobian(xi), Jl = SE3<S>::left_jacobian(xi);
  const Matrix6<S> Jri = SE3<S>::right_jacobian_inverse(xi), Jli = SE3<S>::left_jacobian_inverse(xi);
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
  const Matrix3<S> jri = SO3<S>::right_jacobian_inverse(phi), jli = SO3<S>::left_jacobian_inverse(phi);
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
  LIEDYN_CHECK_CLOSE(SO3<S>::exp(Vector3<S>(S(0), S(0), from_long_double<S>(kPi / 2))).to_quaternion(),
                       Vector4<S>(S(0), S(0), h, h), tol);
  // q = (sin(θ/2) n, cos(θ/2)) ↔ exp(θ n).
  for (int i = 0; i < 10; ++i) {
    const Vector3<S> n = liedyn::test::random_unit_vector<S>(gen);
    const LD theta = liedyn::test::uniform(gen, 0, kPi);
    Vector4<S> q;
    q << n * from_long_double<S>(std::sin(theta / 2)), from_long_double<S>(std::cos(theta / 2));
    const Matrix3<S> R = SO3<S>::exp(Vector3<S>(n * from_long_double<S>(theta))).matrix();
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(q).matrix(), R, tol);
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(-q)).matrix(), R, tol);          // −q ~ q
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(q * S(3.5f))).matrix(), R, tol);  // normalized
    LIEDYN_CHECK_CLOSE(SO3<S>::from_quaternion(Vector4<S>(q * S(0.01f))).matrix(), R, tol);
    LIEDYN_CHECK_CLOSE(SO3<S>(R).to_quaternion(), q, tol);  // w ≥ 0 already
  }
  // A zero or non-finite quaternion is no rotation: a clear error, not NaNs.
  CHECK_THROWS_WITH(SO3<S>::from_quaternion(S(0), S(0), S(0), S(0)), Catch::Contains("zero or not finite"));
  CHECK_THROWS_WITH(SO3<S>::from_quaternion(std::numeric_limits<S>::quiet_NaN(), S(0), S(0), S(1)),
                    Catch::Contains("zero or not finite"));
  // R → q → R, including rotations by π about axis-aligned and mixed axes, which exercise each
  // branch of Shepperd's method; the output is a unit quaternion with w ≥ 0.
  std::vector<Matrix3<S>> rotations;
  for (const Vector3<S>& n : special_axes<S>(gen)) {
    for (LD theta : {LD(0), LD(0.3), LD(2), kPi - 1e-3L, kPi})
      rotations.push_back(SO3<S>::exp(Vector3<S>(n * from_long_double<S>(theta))).matrix());
  }
  for (const Vector3<LD>& axis : {Vector3<LD>(1, 1, 0), Vector3<LD>(0, -1, 1), Vector3<LD>(1, 0, -1)}) {
    rotations.push_back(SO3<S>::exp(from_long_double<S>(Vector3<LD>(axis.normalized() * kPi))).matrix());
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

#define LIEDYN_SCALARS float, double, long double, AD6

TEMPLATE_TEST_CASE("spatial: hat vee and cross products match their matrices", "[spatial][motion]",
                   LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(1);
  for (int i = 0; i < 10; ++i) {
    check_hat_vee<TestType>(gen);
    check_cross<TestType>(gen);
  }
}

TEMPLATE_TEST_CASE("spatial: SE3 actions match the 6x6 transforms", "[spatial][se3]", LIEDYN_SCALARS) {
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

TEMPLATE_TEST_CASE("spatial: SpatialInertia matches its 6x6 matrix", "[spatial][inertia]", LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(4);
  for (int i = 0; i < 20; ++i) check_inertia<TestType>(gen);
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

TEMPLATE_TEST_CASE("spatial: Jacobians match finite differences", "[spatial][jacobian]", LIEDYN_SCALARS) {
  using S = TestType;
  auto gen = liedyn::test::make_rng(6);
  const LD ts = switch_angle<S>();
  // Near 0, at the series/closed-form switch, generic, near π (inverses: log is smooth for
  // |φ| < π only) and at π (forward Jacobians only).
  const std::vector<AngleCase> angles = {{0, false},          {1e-8L, false},      {1e-6L, false},
                                         {ts * (1 - 1e-6L), false}, {ts * (1 + 1e-6L), false},
                                         {q_switch_angle<S>() * (1 - 1e-6L), false},
                                         {q_switch_angle<S>() * (1 + 1e-6L), false},
                                         {0.7L, false},       {2.5L, false},       {kPi - 1e-3L, false},
                                         {kPi - 1e-6L, false}, {kPi, true}};
  std::vector<Vector3<S>> axes = {Vector3<S>(S(0), S(0), S(-1)),
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
  for (int i = 0; i < 10; ++i) check_jacobians<S>(liedyn::test::random_twist<S>(gen, kPi - 1e-3L), true);
}

TEMPLATE_TEST_CASE("spatial: quaternions", "[spatial][so3]", LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(7);
  check_quaternions<TestType>(gen);
}

// ---------------------------------------------------------------------------
// AutoDiff through exp and log
// ---------------------------------------------------------------------------

namespace {

// Values and derivatives (column k: ∂/∂ seed k) of a matrix of AD6.
template <int R, int C>
Eigen::Matrix<double, R, C> values(const Eigen::Matrix<AD6, R, C>& m) {
  Eigen::Matrix<double, R, C> v;
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) v(i, j) = m(i, j).value();
  return v;
}
template <int R, int C>
Eigen::Matrix<double, R, C> derivative(const Eigen::Matrix<AD6, R, C>& m, int k) {
  Eigen::Matrix<double, R, C> d;
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) d(i, j) = m(i, j).derivatives()(k);
  return d;
}

Vector6<AD6> seeded(const Vector6<double>& x) {
  Vector6<AD6> s;
  for (int i = 0; i < 6; ++i) s(i) = AD6(x(i), 6, i);
  return s;
}

}  // namespace

TEST_CASE("spatial: AutoDiff derivatives of exp and log are the Jacobians", "[spatial][jacobian][autodiff]") {
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
  for (int i = 0; i < 5; ++i) points.push_back(liedyn::test::random_twist<double>(gen, kPi - 1e-3L));

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
    LIEDYN_CHECK_CLOSE(dlog3, SO3<double>::right_jacobian_inverse(Vector3<double>(xi.tail<3>())), tol);
  }
}

// ---------------------------------------------------------------------------
// SpatialInertia::is_physically_valid
// ---------------------------------------------------------------------------

TEST_CASE("spatial: SpatialInertia physical validity", "[spatial][inertia]") {
  using I = SpatialInertia<double>;
  auto gen = liedyn::test::make_rng(9);
  const Vector3<double> c(0.1, -0.2, 0.05);
  const Matrix3<double> Ic = Vector3<double>(0.2, 0.3, 0.4).asDiagonal();
  std::string why;

  for (int i = 0; i < 50; ++i) {
    why.clear();
    CHECK(liedyn::test::random_inertia<double>(gen).is_physically_valid(&why));
    CHECK(why.empty());
  }
  CHECK(I::from_mass_com_inertia(1.0, c, Ic).is_physically_valid());

  auto fails_with = [&](const I& inertia, const std::string& expected, bool allow_degenerate = false) {
    std::string msg;
    const bool ok = inertia.is_physically_valid(&msg, allow_degenerate);
    CAPTURE(expected, msg);
    CHECK_FALSE(ok);
    CHECK(msg == expected);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  fails_with(I::from_mass_com_inertia(-1.0, c, Ic), "negative mass");
  fails_with(I::from_moments(nan, c, Ic), "non-finite mass or inertia");
  fails_with(I::from_moments(inf, c, Ic), "non-finite mass or inertia");
  fails_with(I::from_moments(1.0, Vector3<double>(0, nan, 0), Ic), "non-finite mass or inertia");
  Matrix3<double> Inan = Ic;
  Inan(1, 2) = nan;
  fails_with(I::from_moments(1.0, c, Inan), "non-finite mass or inertia");

  // Zero mass: invalid by default; a massless body with zero inertia is accepted as degenerate.
  fails_with(I::Zero(), "mass must be positive");
  CHECK(I::Zero().is_physically_valid(nullptr, true));
  fails_with(I::from_moments(0.0, Vector3<double>(0.1, 0, 0), Matrix3<double>::Zero()),
             "massless body with a non-zero first moment", true);

  Matrix3<double> Iasym = Ic;
  Iasym(0, 1) = 0.05;
  fails_with(I::from_mass_com_inertia(1.0, c, Iasym), "rotational inertia is not symmetric");

  fails_with(I::from_mass_com_inertia(1.0, c, Matrix3<double>(Vector3<double>(-0.1, 0.3, 0.3).asDiagonal())),
             "rotational inertia is not positive definite");
  // A zero principal moment (a thin rod): with the centre of mass at the origin I_c is
  // reproduced exactly, so its smallest eigenvalue is exactly 0, not a rounding error.
  const Matrix3<double> rod = Vector3<double>(0.0, 0.3, 0.3).asDiagonal();
  fails_with(I::from_mass_com_inertia(1.0, Vector3<double>::Zero(), rod), "rotational inertia is not positive definite");
  // ... accepted as degenerate, also off the centre of mass; a negative moment is not.
  CHECK(I::from_mass_com_inertia(1.0, Vector3<double>::Zero(), rod).is_physically_valid(nullptr, true));
  CHECK(I::from_mass_com_inertia(1.0, c, rod).is_physically_valid(nullptr, true));
  fails_with(I::from_mass_com_inertia(1.0, c, Matrix3<double>(Vector3<double>(-0.1, 0.3, 0.3).asDiagonal())),
             "rotational inertia is not positive semi-definite", true);

  fails_with(I::from_mass_com_inertia(1.0, c, Matrix3<double>(Vector3<double>(0.1, 0.1, 0.3).asDiagonal())),
             "principal moments violate the triangle inequality");
  // The same violation in rotated principal axes.
  const Matrix3<double> Q = liedyn::test::random_so3<double>(gen).matrix();
  Matrix3<double> Itri = Q * Vector3<double>(0.1, 0.3, 0.1).asDiagonal() * Q.transpose();
  Itri = ((Itri + Itri.transpose()) / 2).eval();
  fails_with(I::from_mass_com_inertia(2.0, c, Itri), "principal moments violate the triangle inequality");
  // The limit λ1 + λ2 = λ3 (a flat plate) is valid.
  CHECK(I::from_mass_com_inertia(1.0, c, Matrix3<double>(Vector3<double>(0.1, 0.2, 0.3).asDiagonal()))
            .is_physically_valid());
}

TEST_CASE("spatial: Cholesky6 solves and inverts spatial inertias", "[spatial][inertia]") {
  auto gen = liedyn::test::make_rng(21);
  for (int trial = 0; trial < 20; ++trial) {
    // A composite of two rigid bodies: SPD, condition number up to ~1e4.
    const Matrix6<double> A =
        liedyn::test::random_inertia<double>(gen).matrix() + liedyn::test::random_inertia<double>(gen).matrix();
    const liedyn::detail::Cholesky6<double> chol(A);
    REQUIRE(chol.ok());
    CHECK(chol.min_pivot() > 0);
    const Vector6<double> b = Vector6<double>::Random();
    const Vector6<double> x = chol.solve(b);
    // Backward stable: the residual is rounding of A's scale times x's, cond(A) does not enter.
    CHECK((A * x - b).norm() <= 1e-13 * A.norm() * x.norm());
    const Matrix6<double> Ainv = chol.inverse();
    CHECK(Ainv == Ainv.transpose());
    // Forward error of each column is cond(A) · rounding: ≤ 1e4 · 1e-16 with margin.
    CHECK((A * Ainv - Matrix6<double>::Identity()).norm() <= 1e-11);
  }
  // Singular (a point mass has no rotational inertia about its centre) and indefinite input.
  const Matrix6<double> point = SpatialInertia<double>::from_mass_com_inertia(2.0, Vector3<double>(0.1, 0.2, 0.3),
                                                                              Matrix3<double>::Zero())
                                    .matrix();
  const liedyn::detail::Cholesky6<double> singular(point);
  CHECK(singular.min_pivot() <= 1e-12);
  Matrix6<double> indefinite = Matrix6<double>::Identity();
  indefinite(4, 4) = -1;
  CHECK_FALSE(liedyn::detail::Cholesky6<double>(indefinite).ok());
}

// ---------------------------------------------------------------------------
// No heap allocation
// ---------------------------------------------------------------------------

TEST_CASE("spatial: sin_cos is within 1 ulp of sin and cos", "[spatial][sincos]") {
  // Reference: long double sinl/cosl (64-bit mantissa, 11 bits beyond double), rounded. Bound:
  // 1 ulp — the reduction's tail and the polynomial's rounding (0.85 ulp worst seen); a
  // wrong coefficient or quadrant shows as thousands of ulps.
  const auto ulps = [](double got, long double ref) {
    const double r = static_cast<double>(ref);
    const double ulp = std::nextafter(std::fabs(r), std::numeric_limits<double>::infinity()) - std::fabs(r);
    return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
  };
  std::mt19937_64 rng(7);
  double worst = 0;
  const auto check = [&](double q) {
    double s, c;
    liedyn::sin_cos(q, s, c);
    worst = std::max({worst, ulps(s, std::sin(static_cast<long double>(q))), ulps(c, std::cos(static_cast<long double>(q)))});
  };
  for (double range : {0.5, 4.0, 40.0, 1e3, 1.1e5}) {
    std::uniform_real_distribution<double> u(-range, range);
    for (int k = 0; k < 200000; ++k) check(u(rng));
  }
  // Around the quadrant boundaries k·π/4, where the reduced angle is largest or cancels.
  const long double quarter = std::atan(static_cast<long double>(1));
  for (int k = -4000; k <= 4000; ++k)
    for (double d : {-1e-9, -1e-15, 0.0, 1e-15, 1e-9}) check(static_cast<double>(k * quarter) + d);
  for (double q : {0.0, 1e-300, -1e-300, 5e-324, 1e-8, 102943.70801, 102943.71, -2e5, 1e22}) check(q);
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 1.0);

  // The batched form, as the kernels call it, on every path the build has: its result must be
  // the scalar one bit for bit on the 2-lane path, and within the same 1 ulp on the AVX2/FMA one
  // (fused multiply–adds round differently). Angles out of the fast range sit among the others.
  const int n = 4099;
  std::vector<double> q(n), s(n), c(n), s1(n), c1(n);
  std::uniform_real_distribution<double> u(-30.0, 30.0);
  for (double& v : q) v = u(rng);
  q[3] = 2e6;
  q[1000] = std::numeric_limits<double>::infinity();
  q[n - 1] = -5e5;
  for (int i = 0; i < n; ++i) liedyn::sin_cos(q[i], s1[i], c1[i]);
  double worst_batch = 0;
  const auto compare = [&](bool bitwise) {
    for (int i = 0; i < n; ++i) {
      if (i == 1000) {
        CHECK((std::isnan(s[i]) && std::isnan(c[i])));
        continue;
      }
      if (bitwise) {
        CHECK(s[i] == s1[i]);
        CHECK(c[i] == c1[i]);
      }
      worst_batch = std::max({worst_batch, ulps(s[i], std::sin(static_cast<long double>(q[i]))),
                              ulps(c[i], std::cos(static_cast<long double>(q[i])))});
    }
  };
  liedyn::sin_cos(n, q.data(), s.data(), c.data());  // the path this processor takes
  compare(false);
#ifdef LIEDYN_SIN_COS_VECTORS
  for (int i = 0; i + 2 <= n; i += 2) {
    liedyn::detail::Double2 x, sv, cv;
    std::memcpy(&x, &q[i], sizeof x);
    liedyn::detail::sin_cos_lanes(x, sv, cv);
    std::memcpy(&s[i], &sv, sizeof sv);
    std::memcpy(&c[i], &cv, sizeof cv);
  }
  for (int i : {3, 1000, n - 1}) liedyn::sin_cos(q[i], s[i], c[i]);  // the batch's fallback
#ifdef __FMA__
  compare(false);  // the compiler may fuse the scalar and the vector code differently
#else
  compare(true);
#endif
#ifdef LIEDYN_SIN_COS_AVX2
  if (liedyn::detail::cpu_has_avx2_fma()) {
    liedyn::detail::sin_cos_avx2(n, q.data(), s.data(), c.data());
    for (int i : {3, 1000, n - 1}) liedyn::sin_cos(q[i], s[i], c[i]);
    compare(false);
  }
#endif
#endif
  INFO("worst error of the batched form " << worst_batch << " ulp");
  CHECK(worst_batch <= 1.0);
  // Non-finite angles give NaN, as std::sin does.
  double si, ci;
  liedyn::sin_cos(std::numeric_limits<double>::infinity(), si, ci);
  CHECK((std::isnan(si) && std::isnan(ci)));
  liedyn::sin_cos(std::numeric_limits<double>::quiet_NaN(), si, ci);
  CHECK((std::isnan(si) && std::isnan(ci)));
  // Other scalars take std::sin/std::cos (and AutoDiff's overloads: d sin/dq = cos).
  AD6 qa(0.3, 6, 2), sa, ca;
  liedyn::sin_cos(qa, sa, ca);
  CHECK(sa.value() == std::sin(0.3));
  CHECK(sa.derivatives()(2) == std::cos(0.3));
  float sf, cf;
  liedyn::sin_cos(0.3f, sf, cf);
  CHECK((sf == std::sin(0.3f) && cf == std::cos(0.3f)));
}

TEST_CASE("spatial: the allocation guard sees allocations", "[spatial][alloc]") {
  liedyn::test::AllocationCounter counter;
  {
    // Stored through a volatile pointer so that the compiler cannot elide the new/delete pair.
    int* volatile p = new int(42);
    delete p;
  }
  CHECK(counter.allocations() == 1);
  {
    liedyn::test::NoAllocation guard(liedyn::test::NoAllocation::count_only);
    std::vector<int>* volatile v = new std::vector<int>(100, 1);
    delete v;
    CHECK(guard.allocations() == 2);
  }
  if (liedyn::test::NoAllocation::eigen_flag_available()) {
#ifdef EIGEN_RUNTIME_NO_MALLOC
    REQUIRE(Eigen::internal::is_malloc_allowed());
    {
      liedyn::test::NoAllocation outer;
      CHECK_FALSE(Eigen::internal::is_malloc_allowed());
      {
        liedyn::test::NoAllocation counting(liedyn::test::NoAllocation::count_only);
        CHECK_FALSE(Eigen::internal::is_malloc_allowed());
      }
      {
        liedyn::test::NoAllocation inner;
        CHECK_FALSE(Eigen::internal::is_malloc_allowed());
      }
      CHECK_FALSE(Eigen::internal::is_malloc_allowed());
    }
    CHECK(Eigen::internal::is_malloc_allowed());
#endif
  } else {
    WARN("EIGEN_RUNTIME_NO_MALLOC is not defined: NoAllocation only counts operator new");
  }
}

namespace {

// Everything the spatial headers offer, on inputs prepared by the caller; returns a checksum
// so that nothing is optimized away. Must not allocate.
template <class S>
S run_all_operations(const Vector6<S>& xi, const Motion<S>& v, const Force<S>& f, const SpatialInertia<S>& I,
                     const Block65<S>& in, Block65<S>& out, Matrix6X<S>& dyn) {
  S acc(0);
  auto add = [&acc](const auto& m) { acc += m.sum(); };
  const Vector3<S> phi = xi.template tail<3>();
  // SO3
  const SO3<S> R = SO3<S>::exp(phi), Q = SO3<S>::exp(Vector3<S>(phi * S(0.5)));
  add((R * Q).matrix());
  add(R.inverse().matrix());
  add(R.log());
  add(R.act(phi));
  add(R.act_inverse(phi));
  add(SO3<S>::right_jacobian(phi));
  add(SO3<S>::left_jacobian(phi));
  add(SO3<S>::right_jacobian_inverse(phi));
  add(SO3<S>::left_jacobian_inverse(phi));
  const Vector4<S> q = R.to_quaternion();
  add(q);
  add(SO3<S>::from_quaternion(q).matrix());
  add(SO3<S>::from_quaternion(q(0), q(1), q(2), q(3)).matrix());
  // SE3
  const SE3<S> H = SE3<S>::exp(xi), G = SE3<S>::exp(Vector6<S>(xi * S(-0.3)));
  add(H.log());
  add(G.log());
  add((H * G).matrix());
  add(H.inverse().matrix());
  add(H.inverse_times(G).matrix());
  add(SE3<S>::from_matrix(H.matrix()).matrix());
  add(H.act_point(phi));
  add(H.act_inverse_point(phi));
  add(H.act(v).vector());
  add(H.act_inverse(v).vector());
  add(H.act(f).vector());
  add(H.act_inverse(f).vector());
  H.act_motions(in, out);
  add(out);
  H.act_inverse_motions(in, out);
  add(out);
  H.act_forces(in, out);
  add(out);
  H.act_inverse_forces(in, out);
  add(out);
  H.act_motions(out, out);
  add(out);
  H.act_inverse_forces(dyn, dyn);
  H.act_motions(dyn.middleCols(1, 2), dyn.middleCols(1, 2));
  add(dyn);
  add(H.velocity_transform());
  add(H.wrench_transform());
  add(SE3<S>::right_jacobian(xi));
  add(SE3<S>::left_jacobian(xi));
  add(SE3<S>::right_jacobian_inverse(xi));
  add(SE3<S>::left_jacobian_inverse(xi));
  // Motion, Force
  add(v.cross(Motion<S>(xi)).vector());
  add(v.cross(f).vector());
  add(v.cross_matrix());
  add(v.cross_star_matrix());
  add(liedyn::ad(xi));
  add(liedyn::hat(phi));
  add(liedyn::vee(R.matrix()));
  add((v + v * S(2) - (-v)).vector());
  add((f + f * S(2) - (-f)).vector());
  acc += liedyn::dot(v, f);
  liedyn::cross_motion_columns(v, in, out);
  add(out);
  liedyn::cross_force_columns(v, in, out);
  add(out);
  liedyn::cross_force_columns(v, dyn, dyn);
  add(dyn);
  // SpatialInertia
  const SpatialInertia<S> J = I.transformed(H), K = I.transformed_inverse(H);
  SpatialInertia<S> L = J + K;
  L += I;
  L.add_transformed(I, H);
  add(L.matrix());
  add((I * v).vector());
  I.apply_columns(in, out);
  add(out);
  add(SpatialInertia<S>::from_matrix(I.matrix()).matrix());
  add(SpatialInertia<S>::from_mass_com_inertia(I.mass(), I.com(), I.inertia_com()).matrix());
  add(I.first_moment());
  add(I.inertia_origin());
  return acc;
}

template <class S>
Vector6<S> seeded_or_plain(const Vector6<double>& x) {
  if constexpr (std::is_same<S, AD6>::value) {
    return seeded(x);
  } else {
    return x.cast<S>();
  }
}

}  // namespace

TEMPLATE_TEST_CASE("spatial: operations do not allocate", "[spatial][alloc]", double, AD6) {
  using S = TestType;
  auto gen = liedyn::test::make_rng(10);
  const Motion<S> v(random_vector<S, 6>(gen));
  const Force<S> f(random_vector<S, 6>(gen));
  const SpatialInertia<S> I = liedyn::test::random_inertia<S>(gen);
  const Block65<S> in = random_matrix<S, 6, 5>(gen);
  Block65<S> out = Block65<S>::Zero();
  Matrix6X<S> dyn = random_matrix<S, 6, 4>(gen);  // allocated before the guard
  // Every branch of exp/log: zero, tiny, series/closed-form switch, generic, θ ≥ 2π/3, near π.
  const Vector3<double> n = Vector3<double>(1, -2, 3).normalized();
  std::vector<Vector6<S>> twists;
  for (double angle : {0.0, 1e-8, 0.011, 0.7, 2.5, double(kPi) - 1e-6, double(kPi)}) {
    Vector6<double> xi;
    xi << 0.3, -0.2, 0.1, n * angle;
    twists.push_back(seeded_or_plain<S>(xi));
  }

  S checksum(0);
  bool valid = true;
  std::size_t allocations = 0;
  {
    liedyn::test::NoAllocation guard;
    for (const Vector6<S>& xi : twists) checksum += run_all_operations<S>(xi, v, f, I, in, out, dyn);
    if constexpr (std::is_same<S, double>::value) valid = I.is_physically_valid() && valid;
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
  CHECK(valid);
  CHECK(std::isfinite(static_cast<double>(to_long_double(checksum))));
}
