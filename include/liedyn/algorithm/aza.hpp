// liedyn — algorithm: AZA, the "ABA with zero inputs" of the IDSVA paper (seed 002): solves
// M(s) X = Y for many right-hand sides in O(n) each, by factoring the articulated-body inertias
// once and running ABA's last two sweeps per column with zero velocity and gravity.
//
// Order: rows of Y and X follow the model's base-first generalized order (nv). For a moving
// base the base rows of Y are a base wrench in the base frame and those of X the base
// acceleration ν̇; joint armature is included (as in M). Cost: factorization O(n), each column
// O(n); no allocation. Compare with the dense product M⁻¹ Y from immamb, O(nv²) per column.
#pragma once

#include <Eigen/Cholesky>

#include "liedyn/algorithm/common.hpp"

namespace liedyn {

/// Factors M(s) by articulated-body inertias into data.aza_*. Refuses a singular model.
template <class S, class Derived>
void aza_factorize(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<Derived>& s) {
  LIEDYN_CHECK_SIZE("aza_factorize", "s", s, model.num_joints());
  model.require_invertible_mass_matrix("aza_factorize");
  const int nb = model.num_bodies();
  detail::update_joint_transforms(model, data, s);
  for (int i = 0; i < nb; ++i) data.aza_IA[i] = model.inertia(i).matrix();
  for (int i = nb - 1; i >= 1; --i) {
    const Joint<S>& j = model.joint(i);
    const Vector6<S>& G = j.screw.vector();
    data.aza_U[i].noalias() = data.aza_IA[i] * G;
    data.aza_Dinv[i] = S(1) / (G.dot(data.aza_U[i]) + j.armature);
    const Matrix6<S> Ia = data.aza_IA[i] - data.aza_Dinv[i] * data.aza_U[i] * data.aza_U[i].transpose();
    const Matrix6<S> Xf = data.H_parent[i].wrench_transform();  // _λX^i
    data.aza_IA[model.parent(i)].noalias() += Xf * Ia * Xf.transpose();
  }
  if (model.has_moving_base()) data.aza_base.compute(data.aza_IA[0]);
}

/// X = M⁻¹ Y column by column, after aza_factorize. `X` may alias `Y`.
template <class S, class DY, class DX>
void aza_solve(const Model<S>& model, Data<S>& data, const Eigen::MatrixBase<DY>& Y, const Eigen::MatrixBase<DX>& X_) {
  auto& X = const_cast<Eigen::MatrixBase<DX>&>(X_);
  LIEDYN_CHECK(Y.rows() == model.nv() && X.rows() == model.nv() && X.cols() == Y.cols(),
               "aza_solve: Y and X must have nv rows and the same number of columns");
  const int nb = model.num_bodies();
  const int off = model.offset();
  const bool moving = model.has_moving_base();
  for (Eigen::Index c = 0; c < Y.cols(); ++c) {
    for (int i = 0; i < nb; ++i) data.aza_p[i] = Force<S>::Zero();
    // Backward sweep: bias wrenches from the inputs alone (no velocity, no gravity).
    for (int i = nb - 1; i >= 1; --i) {
      const Joint<S>& j = model.joint(i);
      data.aza_u[i] = S(Y(off + i - 1, c)) - dot(j.screw, data.aza_p[i]);
      const Force<S> pa(Vector6<S>(data.aza_p[i].vector() + data.aza_U[i] * (data.aza_Dinv[i] * data.aza_u[i])));
      data.aza_p[model.parent(i)] += data.H_parent[i].act(pa);
    }
    // Forward sweep.
    if (moving) {
      const Vector6<S> rhs = Vector6<S>(Y.col(c).template head<6>()) - data.aza_p[0].vector();
      data.aza_a[0] = Motion<S>(Vector6<S>(data.aza_base.solve(rhs)));
      X.col(c).template head<6>() = data.aza_a[0].vector();
    } else {
      data.aza_a[0] = Motion<S>::Zero();
    }
    for (int i = 1; i < nb; ++i) {
      const Joint<S>& j = model.joint(i);
      const Motion<S> ap = data.H_parent[i].act_inverse(data.aza_a[model.parent(i)]);
      const S qdd = data.aza_Dinv[i] * (data.aza_u[i] - data.aza_U[i].dot(ap.vector()));
      data.aza_a[i] = ap + j.screw * qdd;
      X(off + i - 1, c) = qdd;
    }
  }
}

}  // namespace liedyn
