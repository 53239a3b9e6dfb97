// liedyn tests — the spatial vectors and inertias (Motion, Force, SpatialInertia) in float,
// double, long double and AD6: hat and vee, the twist and wrench cross products and their
// column forms, the inertia's structured operations and change of frame, physical validity.
//
// Oracles: every structured operation against its 6×6 matrix, and the 6×6 matrices against
// their definitions (docs/conventions.md §1): (v×) m = [v^, m^]∨ from 4×4 matrices, the spatial
// inertia's [m 1, −m c^; m c^, I_c − m c^ c^], the congruence M_A = (^B X_A)ᵀ M_B ^B X_A.
#include <catch2/catch.hpp>

#include "support/spatial_oracles.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

namespace {

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
  LIEDYN_CHECK_CLOSE(Matrix3<S>(liedyn::hat(liedyn::vee(A))),
                     Matrix3<S>((A - A.transpose()) / S(2)), tol);
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
  LIEDYN_CHECK_BELOW(
      double(std::fabs(to_long_double(S(liedyn::dot(v.cross(m), f) + liedyn::dot(m, v.cross(f)))))),
      10 * tol);

  // Moving the origin by d with the axes kept, and turning the axes by R about the origin, are
  // the actions of the transforms (1, −d) and (R, 0).
  const Vector3<S> d = random_vector<S, 3>(gen);
  const SE3<S> shift(Matrix3<S>::Identity(), Vector3<S>(-d));
  LIEDYN_CHECK_CLOSE(m.shifted(d).vector(), shift.act(m).vector(), tol);
  LIEDYN_CHECK_CLOSE(f.shifted(d).vector(), shift.act(f).vector(), tol);
  const SE3<S> turn(liedyn::test::random_se3<S>(gen).rotation(), Vector3<S>::Zero());
  LIEDYN_CHECK_CLOSE(m.rotated(turn.rotation()).vector(), turn.act(m).vector(), tol);
  LIEDYN_CHECK_CLOSE(f.rotated(turn.rotation()).vector(), turn.act(f).vector(), tol);

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
  out = random_matrix<S, 6, 5>(gen);
  const Block65<S> before = out;
  liedyn::add_cross_motion_columns(v, in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(before + Vx * in), tol);
  // Each motion column crossed with one wrench: the derivative of a body-fixed wrench's
  // coordinates as its frame turns.
  Block65<S> wrench_turn;
  for (int k = 0; k < 5; ++k)
    wrench_turn.col(k) = Motion<S>(Vector6<S>(in.col(k))).cross(f).vector();
  liedyn::motion_columns_cross_force(in, f, out);
  LIEDYN_CHECK_CLOSE(out, wrench_turn, tol);
  io = in;
  liedyn::motion_columns_cross_force(io, f, io);
  LIEDYN_CHECK_CLOSE(io, wrench_turn, tol);
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
  const SpatialInertia<S> J = liedyn::test::random_inertia<S>(gen),
                          K = liedyn::test::random_inertia<S>(gen);
  const Matrix6<S> MJ = J.matrix(), MK = K.matrix();
  LIEDYN_CHECK_CLOSE(MJ, Matrix6<S>(MJ.transpose()), tol);
  const Motion<S> v(random_vector<S, 6>(gen));
  LIEDYN_CHECK_CLOSE((J * v).vector(), Vector6<S>(MJ * v.vector()), tol);
  // The Newton–Euler wrench I a + v ×̄* (I v) and its a = 0 case, against the 6×6 forms.
  const Motion<S> acc(random_vector<S, 6>(gen));
  const Vector6<S> momentum = MJ * v.vector();
  const Vector6<S> bias = v.cross_star_matrix() * momentum;
  LIEDYN_CHECK_CLOSE(J.bias_wrench(v).vector(), bias, tol);
  LIEDYN_CHECK_CLOSE(J.net_wrench(acc, v).vector(), Vector6<S>(MJ * acc.vector() + bias), tol);
  Force<S> wrench(random_vector<S, 6>(gen));  // the forms with an output argument overwrite it
  J.bias_wrench(v, wrench);
  LIEDYN_CHECK_CLOSE(wrench.vector(), bias, tol);
  J.net_wrench(acc, v, wrench);
  LIEDYN_CHECK_CLOSE(wrench.vector(), Vector6<S>(MJ * acc.vector() + bias), tol);
  const Block65<S> in = random_matrix<S, 6, 5>(gen);
  Block65<S> out = Block65<S>::Zero();
  J.apply_columns(in, out);
  LIEDYN_CHECK_CLOSE(out, Block65<S>(MJ * in), tol);
  LIEDYN_CHECK_CLOSE((J + K).matrix(), Matrix6<S>(MJ + MK), tol);
  SpatialInertia<S> L = J;
  L += K;
  LIEDYN_CHECK_CLOSE(L.matrix(), Matrix6<S>(MJ + MK), tol);
  LIEDYN_CHECK_CLOSE(SpatialInertia<S>::from_matrix(MJ).matrix(), MJ, tol);
  LIEDYN_CHECK_CLOSE(
      SpatialInertia<S>::from_moments(J.mass(), J.first_moment(), J.inertia_origin()).matrix(), MJ,
      tol);
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
  // The inertia's rate in a body moving with twist v, against its definition v×̄* M − M v×
  // (the derivative passes' B_i); exactly symmetric, as its moments are written.
  const SpatialInertia<S> Jdot = J.variation(v);
  LIEDYN_CHECK_CLOSE(Jdot.matrix(), Matrix6<S>(v.cross_star_matrix() * MJ - MJ * v.cross_matrix()),
                     tol);
  CHECK(Jdot.mass() == S(0));
  CHECK(Jdot.inertia_origin() == Jdot.inertia_origin().transpose());
}

}  // namespace

// ===========================================================================
// Test cases
// ===========================================================================

TEMPLATE_TEST_CASE("spatial: hat vee and cross products match their matrices", "[spatial][motion]",
                   LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(1);
  for (int i = 0; i < 10; ++i) {
    check_hat_vee<TestType>(gen);
    check_cross<TestType>(gen);
  }
}

TEMPLATE_TEST_CASE("spatial: SpatialInertia matches its 6x6 matrix", "[spatial][inertia]",
                   LIEDYN_SCALARS) {
  auto gen = liedyn::test::make_rng(4);
  for (int i = 0; i < 20; ++i) check_inertia<TestType>(gen);
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

  auto fails_with = [&](const I& inertia, const std::string& expected,
                        bool allow_degenerate = false) {
    std::string msg;
    const bool ok = inertia.is_physically_valid(&msg, allow_degenerate);
    CAPTURE(expected, msg);
    CHECK_FALSE(ok);
    CHECK(msg == expected);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
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

  fails_with(I::from_mass_com_inertia(
                 1.0, c, Matrix3<double>(Vector3<double>(-0.1, 0.3, 0.3).asDiagonal())),
             "rotational inertia is not positive definite");
  // A zero principal moment (a thin rod): with the centre of mass at the origin I_c is
  // reproduced exactly, so its smallest eigenvalue is exactly 0, not a rounding error.
  const Matrix3<double> rod = Vector3<double>(0.0, 0.3, 0.3).asDiagonal();
  fails_with(I::from_mass_com_inertia(1.0, Vector3<double>::Zero(), rod),
             "rotational inertia is not positive definite");
  // ... accepted as degenerate, also off the centre of mass; a negative moment is not.
  CHECK(I::from_mass_com_inertia(1.0, Vector3<double>::Zero(), rod)
            .is_physically_valid(nullptr, true));
  CHECK(I::from_mass_com_inertia(1.0, c, rod).is_physically_valid(nullptr, true));
  fails_with(I::from_mass_com_inertia(
                 1.0, c, Matrix3<double>(Vector3<double>(-0.1, 0.3, 0.3).asDiagonal())),
             "rotational inertia is not positive semi-definite", true);

  fails_with(I::from_mass_com_inertia(1.0, c,
                                      Matrix3<double>(Vector3<double>(0.1, 0.1, 0.3).asDiagonal())),
             "principal moments violate the triangle inequality");
  // The same violation in rotated principal axes.
  const Matrix3<double> Q = liedyn::test::random_so3<double>(gen).matrix();
  Matrix3<double> Itri = Q * Vector3<double>(0.1, 0.3, 0.1).asDiagonal() * Q.transpose();
  Itri = ((Itri + Itri.transpose()) / 2).eval();
  fails_with(I::from_mass_com_inertia(2.0, c, Itri),
             "principal moments violate the triangle inequality");
  // The limit λ1 + λ2 = λ3 (a flat plate) is valid.
  CHECK(
      I::from_mass_com_inertia(1.0, c, Matrix3<double>(Vector3<double>(0.1, 0.2, 0.3).asDiagonal()))
          .is_physically_valid());
}

}  // namespace LIEDYN_UNITY_ID
