// liedyn tests — the difference of two states in the coordinates of a base-twist
// representation, for finite differences of maps between states (integrator steps).
#pragma once

#include <liedyn/model/state.hpp>

namespace liedyn {
namespace test {

/// y ⊖ x in the coordinates of `rep`: (log(H_x⁻¹ H_y), s_y ⊖ s_x, t_y − t_x, r_y − r_x).
template <class T>
VectorX<T> local(const Model<T>& m, const State<T>& x, const State<T>& y, TwistRepresentation rep) {
  VectorX<T> d = difference(m, x, y);
  if (m.has_moving_base()) d.segment(6 + m.nv_joints(), 6) = y.base_twist(rep) - x.base_twist(rep);
  return d;
}

}  // namespace test
}  // namespace liedyn
