// liedyn — numdiff: the maps whose finite differences check the linearization
// (docs/conventions.md §4): the vector field of the state under a fixed input, the difference
// of two states in a representation's coordinates, and the −ad drift of deviations on a group.
//
// linearize's continuous A is the derivative of the field [ν; r; ṫ; ṙ] (ṫ the time derivative of
// the base twist in `rep`, q̈ = aba) along the tangent δx = (η, δs, δt, δr), except on the rows
// of the deviations that live on a group — the base pose and each spherical, free or planar
// joint — where q = q̄ ⊕ η gives η̇ = δv − ad(v̄) η: differences of the field's position rows see
// δv only, and add_deviation_drift adds the −ad blocks. linearize_discrete's A, B are the
// derivatives of x⁺ = step(x, τ̄) read in local coordinates at x̄⁺, local_difference(x̄⁺, x⁺).
// These helpers allocate: they are oracles for tests and the command-line tool's checks.
#pragma once

#include "liedyn/algorithm/aba.hpp"
#include "liedyn/model/state.hpp"

namespace liedyn {
namespace numdiff {

/// y ⊖ x in the coordinates of `rep`: (log(H_x⁻¹ H_y), s_y ⊖ s_x on each joint's group,
/// t_y − t_x with t the base twist in `rep`, r_y − r_x); (s_y ⊖ s_x, r_y − r_x) for a welded
/// base.
template <class S>
VectorX<S> local_difference(const Model<S>& model, const State<S>& x, const State<S>& y,
                            TwistRepresentation rep) {
  VectorX<S> d = difference(model, x, y);
  if (model.has_moving_base())
    d.template segment<6>(6 + model.nv_joints()) = y.base_twist(rep) - x.base_twist(rep);
  return d;
}

/// The state's vector field under the input τ̄ in the coordinates of `rep`: [ν; r; ṫ; ṙ] with
/// [ν̇; ṙ] = aba(y, τ̄) and ṫ the time derivative of the base twist in `rep`
/// (base_acceleration_from_body); [r; ṙ] for a welded base.
template <class S>
VectorX<S> state_vector_field(const Model<S>& model, Data<S>& data, const State<S>& y,
                              const VectorX<S>& tau, TwistRepresentation rep) {
  const VectorX<S> acc = aba(model, data, y, tau);
  const int n = model.nv_joints();
  VectorX<S> f(2 * model.nv());
  if (model.has_moving_base())
    f << y.nu, y.r, base_acceleration_from_body(y.H, y.nu, Vector6<S>(acc.template head<6>()), rep),
        acc.tail(n);
  else f << y.r, acc;
  return f;
}

/// Adds the drift of the deviations on a group, η̇ = … − ad(v̄) η, to `A` (2nv × 2nv, a field's
/// differences, see the header) at x: −ad(ν) on the base pose's rows and columns, −ad(r̄_i) on a
/// spherical, free or planar joint's (zero for the vector-space joints).
template <class S>
void add_deviation_drift(const Model<S>& model, const State<S>& x, MatrixX<S>& A) {
  const int off = model.offset();
  if (off) A.template topLeftCorner<6, 6>() -= Motion<S>(x.nu).cross_matrix();
  for (int i = 1; i < model.num_bodies(); ++i) {
    const int r = model.r_index(i), k = model.joint_nv(i);
    JointTangentMap<S> ad(k, k);
    model.joint(i).ad(x.r.segment(r, k), ad);
    A.block(off + r, off + r, k, k) -= ad;
  }
}

}  // namespace numdiff
}  // namespace liedyn
