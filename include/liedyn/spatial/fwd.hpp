// liedyn — spatial algebra: scalar-generic Eigen aliases shared by every header.
#pragma once

#include <Eigen/Core>

namespace liedyn {

template <class S>
using Vector3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Vector4 = Eigen::Matrix<S, 4, 1>;
template <class S>
using Vector6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using Matrix3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using Matrix4 = Eigen::Matrix<S, 4, 4>;
template <class S>
using Matrix6 = Eigen::Matrix<S, 6, 6>;
template <class S>
using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S>
using MatrixX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Matrix6X = Eigen::Matrix<S, 6, Eigen::Dynamic>;

template <class S>
class SO3;
template <class S>
class SE3;
template <class S>
class Motion;
template <class S>
class Force;
template <class S>
class SpatialInertia;

/// Small-angle switch used by exp/log/Jacobians: below it a Taylor series (with terms up to
/// θ⁶) is exact to the scalar's epsilon, above it the closed form loses at most a few
/// digits. θ_switch = ε^(1/8): 0.011 for double, 0.14 for float, 0.0045 for long double.
template <class S>
inline S small_angle_threshold_squared() {
  using std::sqrt;
  // ε^(1/4) = θ_switch².
  return S(sqrt(sqrt(Eigen::NumTraits<S>::epsilon())));
}

}  // namespace liedyn
