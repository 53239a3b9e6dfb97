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

/// The differences of a vector field's position rows ([ν; r], or r for a welded base) are
/// δν̄ alone; the continuous A's rows of a deviation on a group are η̇ = δv − ad(v̄) η (the base
/// and each joint alike, linearization.hpp): subtracts the −ad blocks' ad from those rows of
/// `fd` (2nv × 2nv, columns (η, δs, δt, δr)) at x.
template <class T>
void subtract_group_drift(const Model<T>& m, const State<T>& x, MatrixX<T>& fd) {
  const int off = m.offset();
  if (off) fd.template topLeftCorner<6, 6>() -= Motion<T>(x.nu).cross_matrix();
  for (int i = 1; i < m.num_bodies(); ++i) {
    const int r = m.r_index(i), k = m.joint_nv(i);
    JointTangentMap<T> ad(k, k);
    m.joint(i).ad(x.r.segment(r, k), ad);
    fd.block(off + r, off + r, k, k) -= ad;
  }
}

}  // namespace test
}  // namespace liedyn
