// liedyn tests — what the spatial-algebra tests (test_spatial_groups.cpp, _vectors.cpp,
// _numeric.cpp) share: the long-double oracles of se(3) as 4×4 matrices, the AD6 seeding
// helpers, and the names they use.
#pragma once

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

#include "test_support.hpp"

namespace liedyn {
namespace test {

inline constexpr long double kPi = 3.141592653589793238462643383279502884L;

using LD = long double;
template <class S>
using Block65 = Eigen::Matrix<S, 6, 5>;

// ξ^ as a 4×4 matrix of se(3) (linear first), and its inverse.
inline Matrix4<LD> hat4(const Vector6<LD>& xi) {
  Matrix4<LD> m = Matrix4<LD>::Zero();
  m.topLeftCorner<3, 3>() = liedyn::hat(xi.tail<3>());
  m.topRightCorner<3, 1>() = xi.head<3>();
  return m;
}

inline Vector6<LD> vee4(const Matrix4<LD>& m) {
  Vector6<LD> xi;
  xi << m.topRightCorner<3, 1>(), liedyn::vee(m.topLeftCorner<3, 3>());
  return xi;
}

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

// x with coordinate i carrying the derivative seed e_i.
inline Vector6<AD6> seeded(const Vector6<double>& x) {
  Vector6<AD6> s;
  for (int i = 0; i < 6; ++i) s(i) = AD6(x(i), 6, i);
  return s;
}

}  // namespace test
}  // namespace liedyn

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
using liedyn::test::Block65;
using liedyn::test::derivative;
using liedyn::test::from_long_double;
using liedyn::test::hat4;
using liedyn::test::kPi;
using liedyn::test::LD;
using liedyn::test::random_matrix;
using liedyn::test::random_vector;
using liedyn::test::relative_error;
using liedyn::test::scaled_error;
using liedyn::test::seeded;
using liedyn::test::to_long_double;
using liedyn::test::tolerance;
using liedyn::test::values;
using liedyn::test::vee4;

#define LIEDYN_SCALARS float, double, long double, AD6
