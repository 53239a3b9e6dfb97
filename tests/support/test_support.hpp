// liedyn tests — shared helpers: per-scalar tolerances, error measures, seeded random
// spatial quantities, and an allocation guard.
//
// Every test file of liedyn_tests may include this header. The allocation guard needs
// tests/alloc_hook.cpp linked into the same executable (it defines allocation_count()).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include <iomanip>
#include <ostream>
#include <string>

#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <unsupported/Eigen/AutoDiff>

#include "liedyn/spatial.hpp"

namespace liedyn {
namespace test {

/// Prints `what: err` when LIEDYN_TEST_VERBOSE is set (to report the errors reached).
inline void report(const std::string& what, double err) {
  if (std::getenv("LIEDYN_TEST_VERBOSE")) std::printf("  %-60s %.3e\n", what.c_str(), err);
}

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

/// Forward-mode automatic differentiation with N fixed-size derivatives (no heap use).
/// Never use AutoDiffScalar<VectorXd> in liedyn tests: scalars built from constants carry
/// empty derivative vectors and trip Eigen's size assertions when mixed with seeded ones.
template <int N>
using ADN = Eigen::AutoDiffScalar<Eigen::Matrix<double, N, 1>>;
using AD6 = ADN<6>;

/// Test tolerance per scalar type, for relative_error() of results computed in that scalar.
template <class S>
struct Tolerance;

template <>
struct Tolerance<float> {
  // ε ≈ 1.2e-7: ~800 ε leaves room for the few digits the closed forms lose near switches.
  static float value() { return 1e-4f; }
};
template <>
struct Tolerance<double> {
  // ε ≈ 2.2e-16: ~4500 ε, the same head-room as float, well below any real bug.
  static double value() { return 1e-12; }
};
template <>
struct Tolerance<long double> {
  // x87 80-bit ε ≈ 1.1e-19: ~1e4 ε; where long double is just double (MSVC, some ARM),
  // fall back to the double tolerance.
  static long double value() {
    return std::numeric_limits<long double>::digits >= 64 ? 1e-15L : 1e-12L;
  }
};
template <class Der>
struct Tolerance<Eigen::AutoDiffScalar<Der>> {
  // The values of an AutoDiffScalar are computed in its real type (double for ADN<N>).
  static Eigen::AutoDiffScalar<Der> value() {
    return Eigen::AutoDiffScalar<Der>(Tolerance<typename Der::Scalar>::value());
  }
};

inline double to_double(float x) { return static_cast<double>(x); }
inline double to_double(double x) { return x; }
inline double to_double(long double x) { return static_cast<double>(x); }
template <class Der>
double to_double(const Eigen::AutoDiffScalar<Der>& x) {
  return to_double(x.value());
}

inline long double to_long_double(float x) { return static_cast<long double>(x); }
inline long double to_long_double(double x) { return static_cast<long double>(x); }
inline long double to_long_double(long double x) { return x; }
template <class Der>
long double to_long_double(const Eigen::AutoDiffScalar<Der>& x) {
  return to_long_double(x.value());
}

/// Tolerance<S>::value() as a double, to compare with relative_error().
template <class S>
double tolerance() {
  return to_double(Tolerance<S>::value());
}

/// The real type a scalar computes its values in (double for ADN<N>).
template <class S>
struct RealOf {
  using type = S;
};
template <class Der>
struct RealOf<Eigen::AutoDiffScalar<Der>> {
  using type = typename Der::Scalar;
};

/// A scalar of type S from a long double constant (AutoDiffScalar: rounded to its real type,
/// with zero derivatives).
template <class S>
S from_long_double(long double x) {
  return S(static_cast<typename RealOf<S>::type>(x));
}

/// The values of a matrix of any liedyn scalar as long doubles (exact for float, double and
/// the values of AutoDiffScalars).
template <class Derived>
Eigen::Matrix<long double, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> to_long_double(
    const Eigen::MatrixBase<Derived>& m) {
  Eigen::Matrix<long double, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> out(m.rows(),
                                                                                         m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) out(i, j) = to_long_double(m(i, j));
  return out;
}

/// A matrix of long doubles (or doubles) as a matrix of S.
template <class S, class Derived>
Eigen::Matrix<S, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> from_long_double(
    const Eigen::MatrixBase<Derived>& m) {
  Eigen::Matrix<S, Derived::RowsAtCompileTime, Derived::ColsAtCompileTime> out(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      out(i, j) = from_long_double<S>(static_cast<long double>(m(i, j)));
  return out;
}

// ---------------------------------------------------------------------------
// Error measures
// ---------------------------------------------------------------------------

/// ‖A − B‖_max / max(1, ‖B‖_max), the difference taken in long double. NaN anywhere gives
/// +infinity, so that `relative_error(...) < tol` fails on NaN. B is the reference.
template <class DA, class DB>
double relative_error(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols()) return std::numeric_limits<double>::infinity();
  long double diff = 0, ref = 1;
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      const long double a = to_long_double(A(i, j)), b = to_long_double(B(i, j));
      const long double d = std::fabs(a - b);
      if (!(d == d) || !(b == b)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, d);
      ref = std::max(ref, std::fabs(b));
    }
  }
  return static_cast<double>(diff / ref);
}

/// ‖A − B‖_max / scale: for quantities whose natural scale is not 1 (e.g. tiny angles).
template <class DA, class DB>
double scaled_error(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B,
                    long double scale) {
  if (A.rows() != B.rows() || A.cols() != B.cols()) return std::numeric_limits<double>::infinity();
  long double diff = 0;
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      const long double d = std::fabs(to_long_double(A(i, j)) - to_long_double(B(i, j)));
      if (!(d == d)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, d);
    }
  }
  return static_cast<double>(diff / scale);
}

// ---------------------------------------------------------------------------
// Catch2 assertions on errors
//
// LIEDYN_CHECK_CLOSE(A, B, tol) checks relative_error(A, B) < tol; LIEDYN_CHECK_BELOW(err, tol)
// checks err < tol. Both are reported like a CHECK at the caller's file and line (with the
// expression text and the error in scientific notation), but expand to a call of one
// non-template function: a Catch2 CHECK costs ~10 ms of -O2 compile time per expansion, and
// test templates instantiated over four scalar types multiply that.
// ---------------------------------------------------------------------------

namespace detail {
struct BelowExpression : Catch::ITransientExpression {
  double error, tol;
  BelowExpression(double e, double t)
      : Catch::ITransientExpression(true, e < t), error(e), tol(t) {}
  void streamReconstructedExpression(std::ostream& os) const override {
    const auto flags = os.flags();
    const auto precision = os.precision();
    os << std::scientific << std::setprecision(3) << error << " < " << tol;
    os.flags(flags);
    os.precision(precision);
  }
};
}  // namespace detail

/// Records one Catch2 assertion "error < tol" (NaN fails) at file:line, continuing on failure.
inline void check_below(double error, double tol, const char* expression, const char* file,
                        int line) {
  Catch::AssertionHandler handler("CHECK",
                                  Catch::SourceLineInfo(file, static_cast<std::size_t>(line)),
                                  expression, Catch::ResultDisposition::ContinueOnFailure);
  try {
    handler.handleExpr(detail::BelowExpression(error, tol));
  } catch (...) {
    handler.handleUnexpectedInflightException();
  }
  handler.complete();
}

// ---------------------------------------------------------------------------
// Seeded random spatial quantities. Each test makes its own generator, so a test's data do
// not depend on which other tests ran before it (ctest runs every TEST_CASE alone).
// ---------------------------------------------------------------------------

constexpr std::uint32_t default_seed = 20240611u;
inline std::mt19937 make_rng(std::uint32_t seed = default_seed) { return std::mt19937(seed); }

inline long double uniform(std::mt19937& gen, long double lo, long double hi) {
  return lo + (hi - lo) *
                  static_cast<long double>(std::uniform_real_distribution<double>(0.0, 1.0)(gen));
}

/// A matrix with entries uniform in [lo, hi].
template <class S, int R, int C>
Eigen::Matrix<S, R, C> random_matrix(std::mt19937& gen, long double lo = -1, long double hi = 1) {
  Eigen::Matrix<S, R, C> m;
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) m(i, j) = from_long_double<S>(uniform(gen, lo, hi));
  return m;
}

/// A vector with entries uniform in [lo, hi].
template <class S, int N>
Eigen::Matrix<S, N, 1> random_vector(std::mt19937& gen, long double lo = -1, long double hi = 1) {
  return random_matrix<S, N, 1>(gen, lo, hi);
}

/// A unit vector, uniform on the sphere (computed in long double, then rounded to S).
template <class S>
Vector3<S> random_unit_vector(std::mt19937& gen) {
  Vector3<long double> u;
  do {
    for (int i = 0; i < 3; ++i) u(i) = uniform(gen, -1, 1);
  } while (u.squaredNorm() > 1 || u.squaredNorm() < 1e-4L);
  return from_long_double<S>(Vector3<long double>(u / u.norm()));
}

/// A twist [ρ; φ] with ρ uniform in [−1, 1]³ and rotation angle |φ| uniform in [0, max_angle).
template <class S>
Vector6<S> random_twist(std::mt19937& gen,
                        long double max_angle = 3.14159265358979323846264338327950288L) {
  Vector6<S> xi;
  xi.template head<3>() = random_vector<S, 3>(gen);
  const long double angle = uniform(gen, 0, max_angle);
  xi.template tail<3>() = random_unit_vector<S>(gen) * from_long_double<S>(angle);
  return xi;
}

template <class S>
SO3<S> random_so3(std::mt19937& gen) {
  return SO3<S>::exp(Vector3<S>(random_twist<S>(gen).template tail<3>()));
}

/// exp of a random twist (rotation angle up to π, translation part of order 1).
template <class S>
SE3<S> random_se3(std::mt19937& gen) {
  return SE3<S>::exp(random_twist<S>(gen));
}

/// A physically valid inertia: mass in [0.5, 5], centre of mass in [−0.3, 0.3]³, principal
/// moments strictly inside the triangle inequality, random principal axes.
template <class S>
SpatialInertia<S> random_inertia(std::mt19937& gen) {
  const long double m = uniform(gen, 0.5L, 5);
  const Vector3<long double> c = random_vector<long double, 3>(gen, -0.3L, 0.3L);
  const long double l1 = uniform(gen, 0.02L, 0.5L), l2 = uniform(gen, 0.02L, 0.5L);
  const long double lo = std::fabs(l1 - l2), hi = l1 + l2;
  const long double l3 = lo + uniform(gen, 0.1L, 0.9L) * (hi - lo);
  const Matrix3<long double> Q = random_so3<long double>(gen).matrix();
  Matrix3<long double> Ic = Q * Vector3<long double>(l1, l2, l3).asDiagonal() * Q.transpose();
  Ic = ((Ic + Ic.transpose()) * 0.5L).eval();  // exactly symmetric
  return SpatialInertia<S>::from_mass_com_inertia(from_long_double<S>(m), from_long_double<S>(c),
                                                  from_long_double<S>(Ic));
}

// ---------------------------------------------------------------------------
// Allocation guard
// ---------------------------------------------------------------------------

/// Number of calls to the global operator new / new[] (every variant: plain, nothrow,
/// aligned) since the program started. Defined in tests/alloc_hook.cpp, which replaces the
/// global allocation functions of the test executable.
std::size_t allocation_count() noexcept;

/// Counts the calls to the global operator new made while it lives. It does NOT count
/// std::malloc, which is what Eigen allocates with (see NoAllocation).
class AllocationCounter {
 public:
  AllocationCounter() noexcept : start_(allocation_count()) {}
  std::size_t allocations() const noexcept { return allocation_count() - start_; }

 private:
  std::size_t start_;
};

/// RAII "this scope does not allocate" guard:
///  (a) forbids Eigen's heap allocations (Eigen::internal::set_is_malloc_allowed(false),
///      restored on destruction). Eigen allocates with std::malloc and checks the flag with
///      eigen_assert, so a forbidden Eigen allocation aborts in builds WITHOUT NDEBUG (the
///      debug and asan presets) and goes unnoticed in Release. Needs the executable to be
///      compiled with EIGEN_RUNTIME_NO_MALLOC; without it only (b) is active.
///  (b) counts the calls to the global operator new (std::vector, std::string, new, ...);
///      allocations() returns how many happened since construction, in every build type.
/// Keep Catch2 assertions (which may allocate) outside the guarded scope: record results in
/// locals and check them, and allocations(), after the scope or before the guard's end.
class NoAllocation {
 public:
  enum Mode { forbid_eigen_malloc, count_only };

  explicit NoAllocation(Mode mode = forbid_eigen_malloc) noexcept : mode_(mode) {
#ifdef EIGEN_RUNTIME_NO_MALLOC
    previous_ = Eigen::internal::is_malloc_allowed();
    if (mode_ == forbid_eigen_malloc) Eigen::internal::set_is_malloc_allowed(false);
#endif
  }
  ~NoAllocation() {
#ifdef EIGEN_RUNTIME_NO_MALLOC
    if (mode_ == forbid_eigen_malloc) Eigen::internal::set_is_malloc_allowed(previous_);
#endif
  }
  NoAllocation(const NoAllocation&) = delete;
  NoAllocation& operator=(const NoAllocation&) = delete;

  /// Calls to the global operator new since construction.
  std::size_t allocations() const noexcept { return counter_.allocations(); }
  /// Whether this guard also forbids Eigen's heap allocations.
  static constexpr bool eigen_flag_available() {
#ifdef EIGEN_RUNTIME_NO_MALLOC
    return true;
#else
    return false;
#endif
  }

 private:
  // Unused where EIGEN_RUNTIME_NO_MALLOC is not defined (the executables without the flag).
  [[maybe_unused]] Mode mode_;
  [[maybe_unused]] bool previous_ = true;
  AllocationCounter counter_;
};

}  // namespace test
}  // namespace liedyn

#define LIEDYN_CHECK_CLOSE(A, B, TOL)                                    \
  ::liedyn::test::check_below(::liedyn::test::relative_error(A, B), TOL, \
                              "relative_error(" #A ", " #B ") < " #TOL, __FILE__, __LINE__)
#define LIEDYN_CHECK_BELOW(ERR, TOL) \
  ::liedyn::test::check_below(ERR, TOL, #ERR " < " #TOL, __FILE__, __LINE__)
