// liedyn tests — the numerical building blocks under the spatial algebra and the test harness:
// Cholesky6 on spatial inertias, the batched sin_cos against long double, the allocation
// guard, and that no spatial operation allocates (double and AD6).
#include <catch2/catch.hpp>

#include "liedyn/arithmetic/cholesky6.hpp"
#include "liedyn/arithmetic/sincos.hpp"
#include "support/spatial_oracles.hpp"

namespace LIEDYN_UNITY_ID {  // this file's own scope: tests/CMakeLists.txt, unity builds

TEST_CASE("spatial: Cholesky6 solves and inverts spatial inertias", "[spatial][inertia]") {
  auto gen = liedyn::test::make_rng(21);
  for (int trial = 0; trial < 20; ++trial) {
    // A composite of two rigid bodies: SPD, condition number up to ~1e4.
    const Matrix6<double> A = liedyn::test::random_inertia<double>(gen).matrix() +
                              liedyn::test::random_inertia<double>(gen).matrix();
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
  const Matrix6<double> point = SpatialInertia<double>::from_mass_com_inertia(
                                    2.0, Vector3<double>(0.1, 0.2, 0.3), Matrix3<double>::Zero())
                                    .matrix();
  const liedyn::detail::Cholesky6<double> singular(point);
  CHECK(singular.min_pivot() <= 1e-12);
  Matrix6<double> indefinite = Matrix6<double>::Identity();
  indefinite(4, 4) = -1;
  CHECK_FALSE(liedyn::detail::Cholesky6<double>(indefinite).ok());
}

// ---------------------------------------------------------------------------
// sin_cos
// ---------------------------------------------------------------------------

TEST_CASE("spatial: sin_cos is within 1 ulp of sin and cos", "[spatial][sincos]") {
  // Reference: long double sinl/cosl (64-bit mantissa, 11 bits beyond double), rounded. Bound:
  // 1 ulp — the reduction's tail and the polynomial's rounding (0.85 ulp worst seen); a
  // wrong coefficient or quadrant shows as thousands of ulps.
  const auto ulps = [](double got, long double ref) {
    const double r = static_cast<double>(ref);
    const double ulp =
        std::nextafter(std::fabs(r), std::numeric_limits<double>::infinity()) - std::fabs(r);
    return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
  };
  std::mt19937_64 rng(7);
  double worst = 0;
  const auto check = [&](double q) {
    double s, c;
    liedyn::sin_cos(q, s, c);
    worst = std::max({worst, ulps(s, std::sin(static_cast<long double>(q))),
                      ulps(c, std::cos(static_cast<long double>(q)))});
  };
  for (double range : {0.5, 4.0, 40.0, 1e3, 1.1e5}) {
    std::uniform_real_distribution<double> u(-range, range);
    for (int k = 0; k < 200000; ++k) check(u(rng));
  }
  // Around the quadrant boundaries k·π/4, where the reduced angle is largest or cancels.
  const long double quarter = std::atan(static_cast<long double>(1));
  for (int k = -4000; k <= 4000; ++k)
    for (double d : {-1e-9, -1e-15, 0.0, 1e-15, 1e-9}) check(static_cast<double>(k * quarter) + d);
  for (double q : {0.0, 1e-300, -1e-300, 5e-324, 1e-8, 102943.70801, 102943.71, -2e5, 1e22})
    check(q);
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 1.0);

  // The batched form, as the kernels call it, on every path the build has: its result must be
  // the scalar one bit for bit (a joint's rotation has one source), unless the whole build may
  // fuse multiply–adds (-march=native), which round differently. Angles out of the fast range
  // sit among the others.
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
#ifdef __FMA__
  constexpr bool kBitwise = false;
#else
  constexpr bool kBitwise = true;
#endif
  liedyn::sin_cos(n, q.data(), s.data(), c.data());  // the path this processor takes
  compare(kBitwise);
#ifdef LIEDYN_SIN_COS_VECTORS
  for (int i = 0; i + 2 <= n; i += 2) {
    liedyn::detail::Double2 x, sv, cv;
    std::memcpy(&x, &q[i], sizeof x);
    liedyn::detail::sin_cos_lanes(x, sv, cv);
    std::memcpy(&s[i], &sv, sizeof sv);
    std::memcpy(&c[i], &cv, sizeof cv);
  }
  for (int i : {3, 1000, n - 1}) liedyn::sin_cos(q[i], s[i], c[i]);  // the batch's fallback
  compare(kBitwise);
#ifdef LIEDYN_SIN_COS_AVX2
  if (liedyn::detail::cpu_has_avx2_fma()) {
    liedyn::detail::sin_cos_avx2(n, q.data(), s.data(), c.data());
    for (int i : {3, 1000, n - 1}) liedyn::sin_cos(q[i], s[i], c[i]);
    compare(kBitwise);
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

// ---------------------------------------------------------------------------
// No heap allocation
// ---------------------------------------------------------------------------

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
S run_all_operations(const Vector6<S>& xi, const Motion<S>& v, const Force<S>& f,
                     const SpatialInertia<S>& I, const Block65<S>& in, Block65<S>& out,
                     Matrix6X<S>& dyn) {
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
    for (const Vector6<S>& xi : twists)
      checksum += run_all_operations<S>(xi, v, f, I, in, out, dyn);
    if constexpr (std::is_same<S, double>::value) valid = I.is_physically_valid() && valid;
    allocations = guard.allocations();
  }
  CHECK(allocations == 0);
  CHECK(valid);
  CHECK(std::isfinite(static_cast<double>(to_long_double(checksum))));
}

}  // namespace LIEDYN_UNITY_ID
