// liedyn — algorithm: the two textbook routes to the mass matrix and forward dynamics (Lynch and
// Park's Modern Robotics, ch. 8; RBDA §6.1), kept as slow, simple REFERENCE implementations against
// which the fast kernels (crba, aba, immamb) are tested. Not meant for production use.
//
//   mass_matrix_from_inverse_dynamics: column k of M is ID(q, q̇, e_k) − ID(q, q̇, 0). We evaluate
//     it with the velocity products and gravity switched off (detail::rnea_pass), so the bias
//     ID(q, 0, 0) is exactly zero and column k is the RNEA output for the unit acceleration e_k:
//     nv RNEA passes, cost O(n·nv).
//   forward_dynamics_llt: ddq = M⁻¹ (τ̄ − h) with M from the route above (not from crba), h from
//     bias_force (RNEA with zero accelerations; external wrenches included there), solved with
//     Eigen's dense Cholesky (LLT), cost O(nv³).
//
// Frames and order as everywhere (docs/conventions.md §2): base first, ν the base body twist, τ̄_b
// the base wrench in the base frame.
//
// These functions ALLOCATE (the unit vectors, the output matrix, the factorization): they are
// exempt from the library's no-allocation rule. They overwrite data.tau, data.h, data.kinematics.v,
// data.inverse_dynamics.a, data.inverse_dynamics.f, data.kinematics.vJ and data.kinematics.H_parent
// (through rnea).
#pragma once

#include <Eigen/Cholesky>

#include "liedyn/algorithm/rnea.hpp"

namespace liedyn {

/// M(s) column by column from inverse dynamics (reference route), into M_out (resized to nv × nv).
/// Only the joint positions of x are used.
template <class S>
void mass_matrix_from_inverse_dynamics(const Model<S>& model, Data<S>& data, const State<S>& x,
                                       MatrixX<S>& M_out) {
  detail::check_state("mass_matrix_from_inverse_dynamics", model, x);
  detail::check_data_pairing("mass_matrix_from_inverse_dynamics", model, data);
  const int nv = model.nv();
  M_out.resize(nv, nv);
  VectorX<S> e = VectorX<S>::Zero(nv);
  for (int k = 0; k < nv; ++k) {
    e(k) = S(1);
    // No velocity, no gravity, no external wrench: ID(q, 0, e_k) = M e_k (the bias is 0).
    M_out.col(k) =
        detail::rnea_pass<S, VectorX<S>>(model, data, x, &e, detail::kInertialOnly, nullptr);
    e(k) = S(0);
  }
}

/// The same from the joint positions s alone.
template <class S, class Derived>
void mass_matrix_from_inverse_dynamics(const Model<S>& model, Data<S>& data,
                                       const Eigen::MatrixBase<Derived>& s, MatrixX<S>& M_out) {
  LIEDYN_CHECK_SIZE("mass_matrix_from_inverse_dynamics", "s", s, model.nq_joints());
  State<S> x(model);
  x.s = s;
  mass_matrix_from_inverse_dynamics(model, data, x, M_out);
}

/// Forward dynamics ddq = M⁻¹ (τ̄ + Σ J_iᵀ f_ext,i − h(x)) by the reference route: M from
/// inverse dynamics, h from bias_force, dense LLT solve. Returns the accelerations [ν̇; ṙ].
template <class S, class Derived>
VectorX<S> forward_dynamics_llt(const Model<S>& model, Data<S>& data, const State<S>& x,
                                const Eigen::MatrixBase<Derived>& tau,
                                const ExternalWrenches<S>* fext = nullptr) {
  detail::check_state("forward_dynamics_llt", model, x);
  detail::check_data_pairing("forward_dynamics_llt", model, data);
  LIEDYN_CHECK_SIZE("forward_dynamics_llt", "tau", tau, model.nv());
  detail::check_wrenches("forward_dynamics_llt", model, fext);
  MatrixX<S> M;
  mass_matrix_from_inverse_dynamics(model, data, x, M);
  const VectorX<S> rhs = VectorX<S>(tau) - bias_force(model, data, x, fext);
  const Eigen::LLT<MatrixX<S>> llt(M);
  if (llt.info() != Eigen::Success)
    throw ModelError("forward_dynamics_llt: the mass matrix is not positive definite");
  return llt.solve(rhs);
}

}  // namespace liedyn
