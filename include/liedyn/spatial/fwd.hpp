// liedyn — spatial algebra: forward declarations of the spatial types, and the small-angle
// switch of their exponentials and logarithms. The Eigen aliases live in arithmetic/types.hpp.
#pragma once

#include "liedyn/arithmetic/types.hpp"

namespace liedyn {

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
